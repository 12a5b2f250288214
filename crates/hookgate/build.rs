//! Stamps `hookgate --version` with the commit and the build date, as compile-time constants
//! (`HOOKGATE_COMMIT`, `HOOKGATE_BUILD_DATE`): the hook path pays nothing for them at start-up.
//!
//! The commit is `git rev-parse --short=12 HEAD` (with `-dirty` when tracked files differ), or
//! `unknown` outside a git checkout (a crates.io build). The date is `SOURCE_DATE_EPOCH` when set
//! (reproducible builds), else the day this script last ran, in UTC. The script re-runs only
//! when HEAD moves, so an unchanged checkout does not rebuild the binary.

use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
        .filter(|s| !s.is_empty())
}

/// Days since 1970-01-01 as a proleptic Gregorian (year, month, day) — Howard Hinnant's
/// `civil_from_days`, so that no date crate is needed for one line of `--version`.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

fn main() {
    println!("cargo:rerun-if-env-changed=SOURCE_DATE_EPOCH");
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        println!("cargo:rerun-if-changed={dir}/HEAD");
        println!("cargo:rerun-if-changed={dir}/logs/HEAD");
    }
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).map_or_else(
        || "unknown".to_owned(),
        |c| {
            let dirty = Command::new("git")
                .args(["diff", "--quiet", "HEAD", "--"])
                .status()
                .is_ok_and(|s| s.code() == Some(1));
            if dirty { format!("{c}-dirty") } else { c }
        },
    );
    let secs = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.parse::<i64>().ok())
        .unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(0))
        });
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
    println!("cargo:rustc-env=HOOKGATE_COMMIT={commit}");
    println!("cargo:rustc-env=HOOKGATE_BUILD_DATE={y:04}-{m:02}-{d:02}");
}
