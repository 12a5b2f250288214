//! The guard's side of allowances: which apply to a call, and using up a `--once` entry.

use std::path::Path;

use hookgate_policy::allowance::{Allowance, allowances_path, load_allowances, update_allowances};

/// The allowances in force at `now_ms` for a call in `project`, from the user config dir.
/// `Err` carries the reason the file could not be read: then *none* apply (an unreadable
/// file must not grant anything) and the caller records why.
pub(crate) fn active(
    config_dir: Option<&Path>,
    project: &Path,
    now_ms: u64,
) -> Result<Vec<Allowance>, String> {
    let Some(dir) = config_dir else {
        return Ok(Vec::new());
    };
    let path = allowances_path(dir);
    // No file is the common case: one `stat`, no parse.
    if !path.exists() {
        return Ok(Vec::new());
    }
    load_allowances(&path)
        .map(|all| {
            all.into_iter()
                .filter(|a| a.active(now_ms, project))
                .collect()
        })
        .map_err(|e| format!("allowances ignored: {e}"))
}

/// Removes the `--once` allowances among `used` after they let a call through. Returns the
/// ids removed (an entry another process used up first is not there any more).
pub(crate) fn use_up(config_dir: Option<&Path>, used: &[Allowance]) -> Result<Vec<String>, String> {
    let once: Vec<&str> = used
        .iter()
        .filter(|a| a.is_once())
        .map(|a| a.id.as_str())
        .collect();
    let Some(dir) = config_dir.filter(|_| !once.is_empty()) else {
        return Ok(Vec::new());
    };
    update_allowances(&allowances_path(dir), |all| {
        let before: Vec<String> = all.iter().map(|a| a.id.clone()).collect();
        all.retain(|a| !once.contains(&a.id.as_str()));
        before
            .into_iter()
            .filter(|id| once.contains(&id.as_str()))
            .collect()
    })
    .map_err(|e| e.to_string())
}
