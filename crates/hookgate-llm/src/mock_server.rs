//! Test support: `../shared/e2e/mock_llm.py` as a real subprocess on 127.0.0.1.
//!
//! Compiled only with the `mock-server` feature (dev-dependencies of the crates whose tests talk
//! to a model). The server is the same one the real agent CLIs are tested against, so the wire
//! clients are checked against one independent implementation of each protocol.
//!
//! Under the `CI` environment variable a missing prerequisite (python3, the script) is an error
//! the test must fail on; elsewhere [`MockLlm::start`] returns `Ok(None)` and the caller skips.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// A running mock server; killed (by its own pid) and reaped on drop.
#[derive(Debug)]
pub struct MockLlm {
    child: Child,
    port: u16,
    log: PathBuf,
}

/// Where the mock lives: `HOOKGATE_MOCK_LLM`, else `<workspace>/../shared/e2e/mock_llm.py`.
fn script_path() -> PathBuf {
    if let Some(path) = std::env::var_os("HOOKGATE_MOCK_LLM") {
        return PathBuf::from(path);
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/e2e/mock_llm.py")
}

fn in_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty())
}

impl MockLlm {
    /// Starts the mock with `args` (e.g. `["--side-text", "{...}"]` or `["--script", FILE]`),
    /// logging requests to `log`.
    ///
    /// # Errors
    /// A message when the server could not be started and `CI` is set (or it started and then
    /// did not report its port, which is always an error).
    pub fn start(args: &[&str], log: &Path) -> Result<Option<Self>, String> {
        let script = script_path();
        if !script.is_file() {
            return if in_ci() {
                Err(format!("mock_llm.py not found at {}", script.display()))
            } else {
                Ok(None)
            };
        }
        let spawned = Command::new("python3")
            .arg(&script)
            .args(["--port", "0", "--max-seconds", "300", "--log"])
            .arg(log)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn();
        let mut child = match spawned {
            Ok(child) => child,
            Err(e) if !in_ci() && e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("python3 could not be started: {e}")),
        };
        let port = child.stdout.take().and_then(|out| {
            let mut line = String::new();
            BufReader::new(out).read_line(&mut line).ok()?;
            line.trim()
                .strip_prefix("MOCK_LLM_PORT=")?
                .parse::<u16>()
                .ok()
        });
        let Some(port) = port else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("mock_llm.py did not print MOCK_LLM_PORT=<port>".to_owned());
        };
        Ok(Some(Self {
            child,
            port,
            log: log.to_owned(),
        }))
    }

    /// `http://127.0.0.1:<port>/v1`, the base URL for every protocol the mock serves.
    #[must_use]
    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}/v1", self.port)
    }

    /// The requests the mock received so far, one parsed JSON object each.
    #[must_use]
    pub fn requests(&self) -> Vec<serde_json::Value> {
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect()
    }
}

impl Drop for MockLlm {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
