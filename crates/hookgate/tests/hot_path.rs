//! The hook's hot path through the real binary: the argument fast path answers exactly as
//! clap would, and an allowed call that changes no remembered fact writes no session state.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

mod common;

use common::Sandbox as Env;

trait HotPath {
    fn payload(&self, command: &str) -> Vec<u8>;
    fn session_documents(&self) -> Vec<PathBuf>;
    fn session_document(&self) -> PathBuf;
}

impl HotPath for Env {
    fn payload(&self, command: &str) -> Vec<u8> {
        serde_json::to_vec(&common::bash_payload("hot-path", &self.work(), command)).unwrap()
    }

    /// The session documents hookgate keeps (none until a call remembers a fact).
    fn session_documents(&self) -> Vec<PathBuf> {
        let dir = self.root.path().join("home/sessions");
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return Vec::new();
        };
        entries
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect()
    }

    /// The one session document hookgate keeps for the session.
    fn session_document(&self) -> PathBuf {
        let docs = self.session_documents();
        assert_eq!(docs.len(), 1, "one session document: {docs:?}");
        docs.into_iter().next().unwrap()
    }
}

/// The document's inode and bytes; `None` while it does not exist.
fn identity(path: &Path) -> Option<(u64, Vec<u8>)> {
    Some((
        std::fs::metadata(path).ok()?.ino(),
        std::fs::read(path).ok()?,
    ))
}

#[test]
fn calls_that_change_no_fact_leave_the_session_document_alone() {
    let env = Env::new();
    let allowed = env.payload("cargo test --workspace");
    let out = env.run(&["hook", "claude"], &allowed);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stdout.is_empty(),
        "allowed call answered {:?}",
        out.stdout
    );
    let denied = env.payload("git push --force origin main");
    // A new session whose calls remember nothing keeps no document at all.
    for payload in [&allowed, &denied] {
        env.run(&["hook", "claude"], payload);
        assert!(
            env.session_documents().is_empty(),
            "a call that remembers nothing wrote a new session's state"
        );
    }
    // A call that changes a remembered fact (a file written this session) writes it ...
    let write = serde_json::to_vec(&serde_json::json!({
        "session_id": "hot-path",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": env.work(),
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": "notes.txt", "content": "x"},
        "tool_use_id": "toolu_2"
    }))
    .unwrap();
    env.run(&["hook", "claude"], &write);
    let doc = env.session_document();
    let state: serde_json::Value = serde_json::from_slice(&std::fs::read(&doc).unwrap()).unwrap();
    assert!(
        state["written_files"].to_string().contains("notes.txt"),
        "the written file was not remembered: {state}"
    );
    // ... and later calls that change nothing leave it alone.
    let before = identity(&doc);
    for payload in [&allowed, &allowed, &denied, &denied] {
        let out = env.run(&["hook", "claude"], payload);
        assert_eq!(out.status.code(), Some(0));
        // The document is replaced by rename when it changes, so a new inode means a write.
        assert_eq!(
            identity(&doc),
            before,
            "a call that changes no remembered fact rewrote the session state"
        );
    }
    let out = env.run(&["hook", "claude"], &denied);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("\"deny\""),
        "force push was not denied: {}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn hook_arguments_take_the_fast_path_and_clap_still_words_the_errors() {
    let env = Env::new();
    let denied = env.payload("git push --force origin main");
    let file = env.root.path().join("payload.json");
    std::fs::write(&file, &denied).unwrap();
    let file = file.to_str().unwrap();
    let with_eq = format!("--input={file}");
    for args in [
        vec!["hook", "claude"],
        vec!["hook", "claude", "--input", file],
        vec!["hook", &with_eq, "claude", "--store", "jsonl"],
        vec!["hook", "claude", "--fail-mode=deny", "--no-user-hooks"],
    ] {
        let out = env.run(&args, &denied);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {out:?}");
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("\"deny\""),
            "{args:?} did not answer deny: {out:?}"
        );
    }
    // What the fast path declines still reaches clap: an unknown agent is a usage error
    // naming the valid ones, and help is printed on stdout.
    let out = env.run(&["hook", "opencode"], &denied);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("invalid value") && err.contains("claude"),
        "{err}"
    );
    let out = env.run(&["hook", "--help"], b"");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("--fail-mode"));
}
