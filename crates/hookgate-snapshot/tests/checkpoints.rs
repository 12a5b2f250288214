//! docker-agent's snapshot rules, one test each, with real git repositories and real files.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::path::PathBuf;
use std::process::Command;

use hookgate_snapshot::testkit::{committed_repo, have_git, tree_digest};
use hookgate_snapshot::{
    ChangeStatus, CheckpointId, DiffEnd, LARGE_FILE_LIMIT, Repo, SnapshotError, Span,
};

/// A work tree with one commit (`a.txt`, `.gitignore` ignoring `*.log` and `build/`) and a
/// separate data directory.
struct Fixture {
    _tmp: tempfile::TempDir,
    work: PathBuf,
    data: PathBuf,
}

impl Fixture {
    fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let work = tmp.path().join("work");
        let data = tmp.path().join("data");
        committed_repo(
            &work,
            &[("a.txt", "original\n"), (".gitignore", "*.log\nbuild/\n")],
        );
        Self {
            _tmp: tmp,
            work,
            data,
        }
    }

    fn repo(&self) -> Repo {
        Repo::open(&self.data, &self.work).unwrap()
    }

    fn write(&self, rel: &str, text: &str) {
        let path = self.work.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn read(&self, rel: &str) -> Option<String> {
        std::fs::read_to_string(self.work.join(rel)).ok()
    }

    /// One turn of `session` in which `change` runs.
    fn turn(&self, session: &str, change: impl FnOnce(&Self)) -> Option<CheckpointId> {
        let repo = self.repo();
        repo.mark(session, Span::Turn).unwrap();
        change(self);
        let settled = repo.settle(session, &Span::Turn, None).unwrap();
        assert!(settled.had_baseline);
        settled.checkpoint.map(|c| c.id)
    }
}

#[test]
fn undo_restores_a_modified_file_and_deletes_a_file_created_after_the_checkpoint() {
    if !have_git() {
        return;
    }
    let f = Fixture::new();
    let id = f.turn("s1", |f| {
        f.write("a.txt", "changed by the agent\n");
        f.write("src/new.rs", "fn main() {}\n");
    });
    assert_eq!(id, Some(CheckpointId(1)));
    let undone = f.repo().undo_last(None).unwrap();
    assert_eq!(undone.checkpoints, vec![CheckpointId(1)]);
    assert_eq!(undone.restored, vec!["a.txt"]);
    assert_eq!(undone.deleted, vec!["src/new.rs"]);
    assert_eq!(f.read("a.txt").as_deref(), Some("original\n"));
    assert_eq!(f.read("src/new.rs"), None);
    assert!(
        f.repo().list().unwrap().is_empty(),
        "an undone checkpoint is forgotten"
    );
    let again = f.repo().undo_last(None).unwrap();
    assert!(again.checkpoints.is_empty(), "nothing left to undo");
}

#[test]
fn undo_leaves_files_the_checkpoint_did_not_record() {
    if !have_git() {
        return;
    }
    let f = Fixture::new();
    f.turn("s1", |f| f.write("a.txt", "agent\n"));
    // The user edits another file after the turn: undo must not take that away.
    f.write("notes.md", "mine\n");
    f.repo().undo_last(None).unwrap();
    assert_eq!(f.read("notes.md").as_deref(), Some("mine\n"));
    assert_eq!(f.read("a.txt").as_deref(), Some("original\n"));
}

#[test]
fn ignored_files_are_never_snapshotted_and_never_touched_by_undo() {
    if !have_git() {
        return;
    }
    let f = Fixture::new();
    // The source repository's info/exclude counts as much as its .gitignore.
    std::fs::write(f.work.join(".git/info/exclude"), "secret.env\n").unwrap();
    let id = f.turn("s1", |f| {
        f.write("debug.log", "log\n");
        f.write("build/out.bin", "bin\n");
        f.write("secret.env", "TOKEN=x\n");
    });
    assert_eq!(id, None, "only ignored files changed: no checkpoint");
    f.turn("s1", |f| {
        f.write("debug.log", "more log\n");
        f.write("a.txt", "agent\n");
    })
    .unwrap();
    let checkpoint = f.repo().list().unwrap().pop().unwrap();
    assert_eq!(checkpoint.files, vec!["a.txt"]);
    // No ignored content reached the shadow repository.
    let listed = Command::new("git")
        .arg("--git-dir")
        .arg(f.repo().git_dir())
        .args(["ls-tree", "-r", "--name-only", checkpoint.after.as_str()])
        .output()
        .unwrap();
    let names = String::from_utf8(listed.stdout).unwrap();
    assert_eq!(names, ".gitignore\na.txt\n");
    f.repo().undo_last(None).unwrap();
    assert_eq!(f.read("debug.log").as_deref(), Some("more log\n"));
    assert_eq!(f.read("secret.env").as_deref(), Some("TOKEN=x\n"));
    assert_eq!(f.read("build/out.bin").as_deref(), Some("bin\n"));
}

#[test]
fn file_names_with_pathspec_magic_are_just_file_names() {
    if !have_git() {
        return;
    }
    let f = Fixture::new();
    f.write("keep[1].txt", "keep\n");
    f.write("k.txt", "k\n");
    f.turn("s1", |f| f.write("*", "star\n")).unwrap();
    let checkpoint = f.repo().list().unwrap().pop().unwrap();
    assert_eq!(checkpoint.files, vec!["*"]);
    f.repo().undo_last(None).unwrap();
    assert_eq!(f.read("*"), None);
    assert_eq!(f.read("keep[1].txt").as_deref(), Some("keep\n"));
    assert_eq!(f.read("k.txt").as_deref(), Some("k\n"));
}

#[test]
fn a_big_new_file_is_skipped_and_reported() {
    if !have_git() {
        return;
    }
    let f = Fixture::new();
    let repo = f.repo();
    repo.mark("s1", Span::Turn).unwrap();
    let big = vec![b'x'; usize::try_from(LARGE_FILE_LIMIT).unwrap() + 1];
    std::fs::write(f.work.join("big.bin"), &big).unwrap();
    f.write("small.txt", "small\n");
    let settled = repo.settle("s1", &Span::Turn, None).unwrap();
    let checkpoint = settled.checkpoint.unwrap();
    assert_eq!(checkpoint.files, vec!["small.txt"]);
    assert_eq!(settled.skipped.len(), 1);
    assert_eq!(settled.skipped[0].path, "big.bin");
    assert_eq!(settled.skipped[0].bytes, LARGE_FILE_LIMIT + 1);
    assert_eq!(checkpoint.skipped, settled.skipped);
    // Undo cannot remove what it never saw: the big file stays.
    repo.undo_last(None).unwrap();
    assert!(f.work.join("big.bin").exists());
    assert_eq!(f.read("small.txt"), None);
}

#[test]
fn checkpoints_survive_the_session_end_and_a_new_handle_can_undo() {
    if !have_git() {
        return;
    }
    let f = Fixture::new();
    f.turn("s1", |f| f.write("a.txt", "agent\n")).unwrap();
    f.repo().end_session("s1").unwrap();
    // A fresh handle (as another process would open) sees and undoes it.
    let other = Repo::open(&f.data, &f.work).unwrap();
    assert_eq!(other.list().unwrap().len(), 1);
    let undone = other.undo_last(Some("s1")).unwrap();
    assert_eq!(undone.restored, vec!["a.txt"]);
    assert_eq!(f.read("a.txt").as_deref(), Some("original\n"));
}

#[test]
fn list_and_reset_keep_the_first_n_checkpoints() {
    if !have_git() {
        return;
    }
    let f = Fixture::new();
    f.turn("s1", |f| f.write("one.txt", "1\n")).unwrap();
    f.turn("s1", |f| f.write("a.txt", "2\n")).unwrap();
    f.turn("s1", |f| {
        f.write("a.txt", "3\n");
        f.write("three.txt", "3\n");
    })
    .unwrap();
    let listed = f.repo().list().unwrap();
    let ids: Vec<u64> = listed.iter().map(|c| c.id.0).collect();
    assert_eq!(ids, vec![1, 2, 3]);
    assert!(
        listed
            .iter()
            .all(|c| c.session_id == "s1" && c.span == Span::Turn)
    );
    let reverted = f.repo().reset(1, None).unwrap();
    assert_eq!(reverted.checkpoints, vec![CheckpointId(3), CheckpointId(2)]);
    assert_eq!(
        f.read("one.txt").as_deref(),
        Some("1\n"),
        "kept checkpoint 1"
    );
    assert_eq!(
        f.read("a.txt").as_deref(),
        Some("original\n"),
        "back to before 2"
    );
    assert_eq!(f.read("three.txt"), None);
    let left: Vec<u64> = f.repo().list().unwrap().iter().map(|c| c.id.0).collect();
    assert_eq!(left, vec![1]);
    // Ids are never reused: the next checkpoint is 4.
    assert_eq!(
        f.turn("s1", |f| f.write("four.txt", "4\n")),
        Some(CheckpointId(4))
    );
}

#[test]
fn reset_with_keep_beyond_history_changes_nothing() {
    if !have_git() {
        return;
    }
    let f = Fixture::new();
    f.turn("s1", |f| f.write("a.txt", "agent\n")).unwrap();
    for keep in [1, 2, 100] {
        let reverted = f.repo().reset(keep, None).unwrap();
        assert_eq!(
            reverted,
            hookgate_snapshot::Reverted::default(),
            "keep {keep}"
        );
    }
    assert_eq!(f.read("a.txt").as_deref(), Some("agent\n"));
    assert_eq!(f.repo().list().unwrap().len(), 1);
}

#[test]
fn undo_and_reset_can_be_limited_to_one_session() {
    if !have_git() {
        return;
    }
    let f = Fixture::new();
    f.turn("s1", |f| f.write("from-s1.txt", "1\n")).unwrap();
    f.turn("s2", |f| f.write("from-s2.txt", "2\n")).unwrap();
    let undone = f.repo().undo_last(Some("s1")).unwrap();
    assert_eq!(undone.deleted, vec!["from-s1.txt"]);
    assert!(f.work.join("from-s2.txt").exists());
}

#[test]
fn the_users_git_directory_is_byte_identical_after_every_operation() {
    if !have_git() {
        return;
    }
    let f = Fixture::new();
    let before = tree_digest(&f.work.join(".git"));
    f.turn("s1", |f| {
        f.write("a.txt", "agent\n");
        f.write("new.txt", "new\n");
    })
    .unwrap();
    f.repo().diff(CheckpointId(1), DiffEnd::WorkTree).unwrap();
    f.repo().end_session("s1").unwrap();
    f.repo().undo_last(None).unwrap();
    assert_eq!(tree_digest(&f.work.join(".git")), before);
}

#[test]
fn a_symlinked_directory_opens_the_same_shadow_repository() {
    if !have_git() {
        return;
    }
    let f = Fixture::new();
    let link = f.data.parent().unwrap().join("link");
    std::os::unix::fs::symlink(&f.work, &link).unwrap();
    let direct = f.repo();
    let via_link = Repo::open(&f.data, &link).unwrap();
    assert_eq!(direct.git_dir(), via_link.git_dir());
    assert_eq!(via_link.worktree(), f.work.canonicalize().unwrap());
    via_link.mark("s1", Span::Turn).unwrap();
    f.write("a.txt", "agent\n");
    let settled = direct.settle("s1", &Span::Turn, None).unwrap();
    assert_eq!(settled.checkpoint.unwrap().files, vec!["a.txt"]);
}

#[test]
fn outside_a_git_work_tree_open_says_so() {
    if !have_git() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let plain = tmp.path().join("plain");
    std::fs::create_dir(&plain).unwrap();
    let err = Repo::open(&tmp.path().join("data"), &plain).unwrap_err();
    assert!(
        matches!(err, SnapshotError::NotAGitRepository { .. }),
        "{err}"
    );
    assert!(!tmp.path().join("data").exists(), "nothing was created");
}

#[test]
fn tracking_is_scoped_to_the_directory_subtree() {
    if !have_git() {
        return;
    }
    let f = Fixture::new();
    f.write("sub/inside.txt", "v1\n");
    let sub = Repo::open(&f.data, &f.work.join("sub")).unwrap();
    assert_eq!(
        sub.git_dir(),
        f.repo().git_dir(),
        "one shadow per work tree"
    );
    sub.mark("s1", Span::Turn).unwrap();
    f.write("sub/inside.txt", "v2\n");
    f.write("a.txt", "outside\n");
    let checkpoint = sub
        .settle("s1", &Span::Turn, None)
        .unwrap()
        .checkpoint
        .unwrap();
    assert_eq!(checkpoint.files, vec!["sub/inside.txt"]);
    assert_eq!(checkpoint.scope, "sub");
}

#[test]
fn a_tool_span_records_its_call_and_no_change_records_nothing() {
    if !have_git() {
        return;
    }
    let f = Fixture::new();
    let repo = f.repo();
    let span = Span::Tool {
        tool_use_id: "call-1".into(),
    };
    repo.mark("s1", span.clone()).unwrap();
    let quiet = repo.settle("s1", &span, Some("read_file")).unwrap();
    assert!(quiet.had_baseline && quiet.checkpoint.is_none());
    // A span that was never opened has nothing to compare against.
    let unopened = repo.settle("s1", &span, Some("write_file")).unwrap();
    assert!(!unopened.had_baseline);
    repo.mark("s1", span.clone()).unwrap();
    f.write("a.txt", "tool\n");
    let checkpoint = repo
        .settle("s1", &span, Some("write_file"))
        .unwrap()
        .checkpoint
        .unwrap();
    assert_eq!(checkpoint.span, span);
    assert_eq!(checkpoint.tool_name.as_deref(), Some("write_file"));
}

#[test]
fn diff_shows_a_checkpoint_against_the_work_tree_or_another_checkpoint() {
    if !have_git() {
        return;
    }
    let f = Fixture::new();
    f.turn("s1", |f| f.write("a.txt", "one\n")).unwrap();
    f.turn("s1", |f| f.write("b.txt", "two\n")).unwrap();
    let first = f
        .repo()
        .diff(CheckpointId(1), DiffEnd::After(CheckpointId(1)))
        .unwrap();
    assert_eq!(first.files.len(), 1);
    assert_eq!(first.files[0].path, "a.txt");
    assert_eq!(first.files[0].status, ChangeStatus::Modified);
    assert_eq!(first.files[0].additions, Some(1));
    assert_eq!(first.files[0].deletions, Some(1));
    assert!(first.patch.contains("-original\n+one\n"), "{}", first.patch);
    f.write("c.txt", "three\n");
    let since = f.repo().diff(CheckpointId(1), DiffEnd::WorkTree).unwrap();
    let paths: Vec<(&str, ChangeStatus)> = since
        .files
        .iter()
        .map(|c| (c.path.as_str(), c.status))
        .collect();
    assert_eq!(
        paths,
        vec![
            ("a.txt", ChangeStatus::Modified),
            ("b.txt", ChangeStatus::Added),
            ("c.txt", ChangeStatus::Added)
        ]
    );
    assert!(matches!(
        f.repo().diff(CheckpointId(9), DiffEnd::WorkTree),
        Err(SnapshotError::NoSuchCheckpoint(CheckpointId(9)))
    ));
}

#[test]
fn concurrent_checkpoints_are_serialised_by_the_lock() {
    if !have_git() {
        return;
    }
    let f = Fixture::new();
    let spans: Vec<Span> = (0..4)
        .map(|n| Span::Tool {
            tool_use_id: format!("call-{n}"),
        })
        .collect();
    for span in &spans {
        f.repo().mark("s1", span.clone()).unwrap();
    }
    f.write("a.txt", "parallel\n");
    let results: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = spans
            .iter()
            .map(|span| {
                let repo = f.repo();
                scope.spawn(move || repo.settle("s1", span, Some("shell")))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut ids: Vec<u64> = results
        .into_iter()
        .map(|r| r.unwrap().checkpoint.unwrap().id.0)
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, vec![1, 2, 3, 4], "no update was lost");
    assert_eq!(f.repo().list().unwrap().len(), 4);
}

#[test]
fn a_recorded_path_outside_the_work_tree_is_refused() {
    if !have_git() {
        return;
    }
    let f = Fixture::new();
    f.turn("s1", |f| f.write("a.txt", "agent\n")).unwrap();
    let index = f.repo().git_dir().join("checkpoints.json");
    let text = std::fs::read_to_string(&index).unwrap();
    std::fs::write(&index, text.replace("\"a.txt\"", "\"../victim.txt\"")).unwrap();
    let victim = f.work.parent().unwrap().join("victim.txt");
    std::fs::write(&victim, "keep me\n").unwrap();
    let err = f.repo().undo_last(None).unwrap_err();
    assert!(matches!(err, SnapshotError::UnsafePath(_)), "{err}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me\n");
}

#[test]
fn a_damaged_index_is_an_error_not_an_empty_history() {
    if !have_git() {
        return;
    }
    let f = Fixture::new();
    f.turn("s1", |f| f.write("a.txt", "agent\n")).unwrap();
    std::fs::write(f.repo().git_dir().join("checkpoints.json"), "{not json").unwrap();
    assert!(matches!(
        f.repo().list(),
        Err(SnapshotError::Damaged { .. })
    ));
    assert!(matches!(
        f.repo().undo_last(None),
        Err(SnapshotError::Damaged { .. })
    ));
}
