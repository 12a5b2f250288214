//! A test module the session wrote, run by pytest (round 28): judged by what it does, so an
//! ordinary test passes and one that deletes outside the workspace asks — also when the
//! deletion goes through a parameter named like pytest's `tmp_path` fixture (the name is not
//! read as a temp directory: the analyzer does not bind parameters to arguments). Through the binary, one session making
//! both calls (the write, then the run), as an agent does.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::fmt::Write as _;

use serde_json::json;

mod common;

use common::Sandbox;

#[test]
fn a_written_test_module_is_judged_by_what_it_does_when_pytest_runs_it() {
    let cases: &[(&str, &str, bool)] = &[
        (
            "tests/test_math.py",
            "def test_add():\n    assert 1 + 1 == 2\n",
            false,
        ),
        (
            "tests/test_home.py",
            "import shutil, os\n\ndef test_x(tmp_path):\n    shutil.rmtree(os.path.expanduser('~/.ssh'))\n",
            true,
        ),
        (
            "tests/test_rebound.py",
            "import shutil\n\ndef test_y(tmp_path):\n    tmp_path = '/home'\n    shutil.rmtree(tmp_path)\n",
            true,
        ),
        // A parameter merely named like pytest's fixture is whatever the caller passes: the
        // name alone must not make a deletion scratch.
        (
            "tests/test_param.py",
            "import shutil, pathlib\n\ndef clean(tmp_path):\n    shutil.rmtree(tmp_path)\n\nclean(pathlib.Path.home())\n",
            true,
        ),
    ];
    let mut wrong = String::new();
    for (i, (file, body, flagged)) in cases.iter().enumerate() {
        let sandbox = Sandbox::new();
        std::fs::create_dir_all(sandbox.path().join("userhome")).unwrap();
        let session = format!("r28-{i}");
        let path = sandbox.work().join(file);
        let w = sandbox.session_call(
            &session,
            "Write",
            &json!({"file_path": path, "content": body}),
        );
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, body).unwrap();
        let r = sandbox.session_call(
            &session,
            "Bash",
            &json!({"command": format!("pytest {file} -q")}),
        );
        let got = (w != "allow" && w != "none") || (r != "allow" && r != "none");
        if got != *flagged {
            let _ = writeln!(wrong, "{file}: write {w}, run {r} (want flagged={flagged})");
        }
    }
    assert!(wrong.is_empty(), "{wrong}");
}
