//! Text from hooks and repositories reaches a person's terminal only escaped, in every human
//! view that shows it (`fire`, `config check`): an ESC sequence a hook prints or a config
//! names must not repaint or retitle the terminal. (`log`/`inspect`: `log_view.rs`; `policy
//! check/test`: `policy_render.rs`; `scan-secrets`: `scan_sources.rs`.)
#![allow(clippy::unwrap_used, reason = "test code")]

mod common;

use common::{Sandbox, text};

/// A hook config whose hook id and reason carry escape sequences and a line break.
const HOOKS: &str = r#"hooks:
  pre_tool_use:
    - matcher: "*"
      hooks:
        - id: "x\e]0;pwned\a"
          type: command
          command: "printf 'bad\\033[2J\\nfake line\\n' >&2; exit 2"
"#;

fn assert_no_raw_escapes(bytes: &[u8]) {
    assert!(
        !bytes.contains(&0x1b) && !bytes.contains(&0x07),
        "raw control characters in {:?}",
        text(bytes)
    );
}

#[test]
fn fire_escapes_what_hooks_print() {
    let sandbox = Sandbox::new();
    let config = sandbox.work().join("hooks.yaml");
    std::fs::write(&config, HOOKS).unwrap();
    let out = sandbox.run(
        &["fire", "pre_tool_use", "--config", config.to_str().unwrap()],
        br#"{"tool_name":"shell","tool_input":{"cmd":"ls"}}"#,
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert_no_raw_escapes(&out.stdout);
    let shown = text(&out.stdout);
    assert!(shown.contains("bad\\e[2J"), "{shown}");
    assert!(
        !shown.lines().any(|l| l.starts_with("fake line")),
        "a line break in a reason is shown, not obeyed: {shown}"
    );
}

#[test]
fn config_check_escapes_hook_ids_and_commands() {
    let sandbox = Sandbox::new();
    let config = sandbox.work().join("hooks.yaml");
    std::fs::write(&config, HOOKS).unwrap();
    let out = sandbox.run(&["config", "check", config.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_no_raw_escapes(&out.stdout);
    assert!(
        text(&out.stdout).contains("x\\e]0;pwned\\x07"),
        "{}",
        text(&out.stdout)
    );
}
