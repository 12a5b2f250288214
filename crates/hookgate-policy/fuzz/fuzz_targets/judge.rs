//! Fuzzes the guard's judgement end to end: arbitrary bytes become a call — a shell command
//! line of one agent's shell tool, or a whole hook payload read by that agent's parser — and
//! the embedded default policy judges it in a project on disk with the protected set the
//! guard builds (agent hook configs, `.hookgate/`, hookgate's data and config dirs, the
//! binary the configs run). Every attacker-facing parser the policy's action builder runs is
//! reached this way: the shell analyzer and its interpreter parsers, unified-diff headers fed
//! to `patch`/`git apply`, `find` expressions evaluated against the protected entries, awk
//! output targets, links, MCP file tools, Codex `apply_patch`.
//!
//! Properties:
//! * never a panic;
//! * deterministic: the same call judged twice, by two policies, gives the same evaluation,
//!   and the session transaction (`judge_in_session`, as the guard runs it) decides as the
//!   plain evaluation does;
//! * `no-governance-self-modification` holds: a line that *starts* with a literal statement
//!   touching the protected set (`rm -rf .claude`, followed by a separator and any text —
//!   nothing after it can stop it from running) is denied by that invariant when the line
//!   parses clean, and never allowed (deny or ask) when it does not; a payload whose parsed
//!   call writes, deletes or moves a path inside the protected set is denied;
//! * a shell line that does not parse (syntax error, limit) is asked or denied, never allowed
//!   and never left without an opinion.
//!
//! Input: the first byte picks the mode (bits 0-1), the agent (bits 2-4) and the answer the
//! session transaction gives for a work tree the judgement asks about (bits 5-6); the rest is
//! the command or the payload (mode 1: one more byte picks the statement and the separator).
#![no_main]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use hookgate_core::{AgentKind, CanonicalCall, Decision, PathOp};
use hookgate_policy::{Ctx, Effect, Evaluation, Policy, Rejudge, SessionState, WorktreeState};
use hookgate_shell::ParseStatus;
use libfuzzer_sys::fuzz_target;

const INVARIANT: &str = "no-governance-self-modification";

/// Statements that touch the protected set by a literal path (`{bin}`: the hookgate binary
/// the project's Claude config runs).
const STATEMENTS: &[&str] = &[
    "rm -rf .claude",
    "rm -rf ~/.codex",
    "echo '{}' > .claude/settings.json",
    "mv .hookgate /var/tmp/x",
    "chmod -R 000 .codex",
    "cp /var/tmp/s.json .claude/settings.local.json",
    "truncate -s 0 .codex/hooks.json",
    "sed -i d .claude/settings.json",
    "rm -f {bin}",
    "ln -sf /dev/null .claude/settings.json",
    "rm -r .github/hooks",
    "tee .codex/hooks.json < /dev/null",
    "rm ~/.claude/settings.json",
    "rmdir .gemini",
];

/// What may follow the statement: whatever comes next, the statement has already run (or, on
/// a syntax error, nothing runs and the line must not be allowed).
const SEPARATORS: &[&str] = &["\n", "; ", " && ", " || ", " | ", " & ", ";\n", "\n\n"];

/// Agent config directories the guard adds to the protected set while they exist
/// (`hookgate-guard`'s `AGENT_CONFIG_DIRS`), under the project and the home directory.
const AGENT_CONFIG_DIRS: &[&str] = &[
    ".claude",
    ".codex",
    ".gemini",
    ".github/hooks",
    ".github/copilot",
    ".copilot",
    ".cursor",
];

struct Fixture {
    ws: PathBuf,
    ctx: Ctx,
    /// The protected set as the guard would see it (paths that exist).
    protected: Vec<PathBuf>,
    /// The binary the project's Claude config runs.
    bin: String,
}

/// A project on disk (under the fuzz crate's `target/`, outside the temp dirs where deleting
/// is ordinary work), built once per process and never changed: the judgement reads it
/// (`find` entries, hook config files, `lstat`s) but writes nothing.
fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/judge-fixture");
        let files: &[(&str, &str)] = &[
            ("proj/src/a.py", "print(1)\n"),
            ("proj/src/a.pyc", ""),
            ("proj/docs/notes.md", "notes\n"),
            ("proj/.claude/commands/fix.md", "fix it\n"),
            ("proj/.codex/hooks.json", r#"{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"hookgate hook codex"}]}]}}"#),
            ("proj/.github/hooks/hooks.json", r#"{"hooks":{"preToolUse":[{"bash":"hookgate hook copilot"}]}}"#),
            ("proj/.hookgate/policy.yaml", "version: 1\nrules: []\n"),
            ("proj/.gemini/.keep", ""),
            ("home/u/.claude/settings.json", r#"{"hooks":{}}"#),
            ("home/u/.codex/config.toml", ""),
            ("bin/hookgate", ""),
            ("data/hg/audit.db", ""),
            ("config/hookgate/config.toml", ""),
        ];
        for (rel, text) in files {
            let path = root.join(rel);
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).expect("judge fixture: create a directory");
            }
            std::fs::write(&path, text).expect("judge fixture: write a file");
        }
        let root = root.canonicalize().expect("judge fixture: canonical root");
        let ws = root.join("proj");
        let home = root.join("home/u");
        let bin = root.join("bin/hookgate");
        std::fs::write(
            ws.join(".claude/settings.json"),
            format!(
                r#"{{"hooks":{{"PreToolUse":[{{"matcher":"*","hooks":[{{"type":"command","command":"{} hook claude"}}]}}]}}}}"#,
                bin.display()
            ),
        )
        .expect("judge fixture: write the Claude settings");
        let mut ctx = Ctx::new(&ws, Some(home.clone())).with_branch("main");
        ctx.protected_paths = vec![
            root.join("data/hg"),
            root.join("config/hookgate"),
            bin.clone(),
            ws.join(".hookgate"),
        ];
        for base in [&ws, &home] {
            ctx.protected_if_present
                .extend(AGENT_CONFIG_DIRS.iter().map(|d| base.join(d)));
        }
        ctx.search_path = vec![root.join("bin"), PathBuf::from("/usr/bin"), PathBuf::from("/bin")];
        let protected = ctx.protected_set();
        Fixture {
            ws,
            ctx,
            protected,
            bin: bin.to_string_lossy().into_owned(),
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let fx = fixture();
    let agent = AgentKind::ALL[usize::from((sel >> 2) & 7) % AgentKind::ALL.len()];
    let worktree = Worktree {
        linked: sel & 0x20 != 0,
        dirty: sel & 0x40 != 0,
    };
    match sel & 3 {
        0 => {
            let Ok(command) = std::str::from_utf8(rest) else {
                return;
            };
            let Ok(call) =
                hookgate_agents::call_for_command(agent, &fx.ws.to_string_lossy(), command)
            else {
                return;
            };
            let v = judge(fx, &call, worktree);
            unparsed_never_allowed(fx, &call, &v);
        }
        1 => protected_statement(fx, agent, rest, worktree),
        mode => payload(
            fx,
            agent,
            (mode == 3).then_some("preToolUse"),
            rest,
            worktree,
        ),
    }
});

/// The answer the session transaction gives when the judgement asks about work trees.
#[derive(Clone, Copy)]
struct Worktree {
    linked: bool,
    dirty: bool,
}

impl Worktree {
    /// A linked worktree without uncommitted work is the one answer that may set discards
    /// aside; any other answer must leave the verdict as it was.
    fn may_soften(self) -> bool {
        self.linked && !self.dirty
    }
}

/// The two verdicts of one call: the plain evaluation, and the session transaction's decision.
struct Verdicts {
    eval: Evaluation,
    session: Option<Decision>,
}

/// Judges a call the way the guard does and checks determinism.
fn judge(fx: &Fixture, call: &CanonicalCall, worktree: Worktree) -> Verdicts {
    let policy = Policy::builtin_default();
    let fresh = SessionState::default();
    let eval = policy.evaluate(call, &fx.ctx, &fresh);
    let again = Policy::builtin_default().evaluate(call, &fx.ctx, &fresh);
    assert_eq!(
        without_timings(eval.clone()),
        without_timings(again),
        "the same call judged twice gave two evaluations"
    );

    let mut state = SessionState::default();
    let (_, session) = policy.judge_in_session(call, &fx.ctx, &mut state, |e| {
        if e.worktrees_wanted.is_empty() {
            Ok(e.decision)
        } else {
            Err(Rejudge::With(
                e.worktrees_wanted
                    .iter()
                    .map(|dir| WorktreeState {
                        dir: dir.clone(),
                        linked: worktree.linked,
                        dirty: worktree.dirty,
                    })
                    .collect(),
            ))
        }
    });
    if !worktree.may_soften() || eval.worktrees_wanted.is_empty() {
        assert_eq!(
            session, eval.decision,
            "the session transaction decided otherwise than the evaluation"
        );
    }
    // The same call again in the same session: judged against what the first one left.
    let _ = policy.judge_in_session(call, &fx.ctx, &mut state, |e| Ok(e.decision));
    Verdicts { eval, session }
}

fn without_timings(mut e: Evaluation) -> Evaluation {
    e.steps.iter_mut().for_each(|s| s.micros = 0);
    e
}

/// How the shell analyzer parses `command` in the context the policy gives it (the project as
/// the working directory, the fixture's home and temp dirs).
fn line_parse(fx: &Fixture, command: &str) -> ParseStatus {
    let mut sctx = hookgate_shell::Context::new(fx.ws.clone(), fx.ctx.home.clone());
    sctx.temp_dirs.clone_from(&fx.ctx.temp_dirs);
    hookgate_shell::analyze(command, &sctx).parse
}

/// A shell line the analyzer could not parse (a syntax error, a limit) cannot be resolved
/// statically: the policy asks or denies, never stays silent or allows.
fn unparsed_never_allowed(fx: &Fixture, call: &CanonicalCall, v: &Verdicts) {
    let Some(command) = call.tool.as_ref().and_then(|t| t.command.as_deref()) else {
        return;
    };
    let parse = line_parse(fx, command);
    if matches!(parse, ParseStatus::Ok | ParseStatus::Empty) {
        return;
    }
    for (who, decision) in [("evaluation", v.eval.decision), ("session", v.session)] {
        assert!(
            matches!(decision, Some(Decision::Deny | Decision::Ask)),
            "{who}: a line that does not parse ({parse:?}) came out {decision:?} ({:?})",
            v.eval.reason
        );
    }
}

/// `STATEMENT SEPARATOR TEXT`: the statement runs whatever the text is, so the line is denied
/// by the locked invariant (parse clean) or at least not allowed (parse error).
fn protected_statement(fx: &Fixture, agent: AgentKind, data: &[u8], worktree: Worktree) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let statement = STATEMENTS[usize::from(pick) % STATEMENTS.len()].replace("{bin}", &fx.bin);
    let separator = SEPARATORS[usize::from(pick >> 4) % SEPARATORS.len()];
    let command = format!("{statement}{separator}{text}");
    let Ok(call) = hookgate_agents::call_for_command(agent, &fx.ws.to_string_lossy(), &command)
    else {
        return;
    };
    let v = judge(fx, &call, worktree);
    let parse = line_parse(fx, &command);
    for (who, decision) in [("evaluation", v.eval.decision), ("session", v.session)] {
        if parse == ParseStatus::Ok {
            assert_eq!(
                decision,
                Some(Decision::Deny),
                "{who}: a parse-clean line starting with `{statement}` was not denied ({:?})",
                v.eval.reason
            );
        } else {
            assert!(
                matches!(decision, Some(Decision::Deny | Decision::Ask)),
                "{who}: a line starting with `{statement}` that does not parse ({parse:?}) was allowed"
            );
        }
    }
    if parse == ParseStatus::Ok {
        assert!(
            v.eval
                .matched
                .iter()
                .any(|m| m.id == INVARIANT && m.effect == Effect::Deny),
            "a parse-clean line starting with `{statement}` was denied, but not by {INVARIANT}"
        );
    }
}

/// A whole hook payload, read by the agent's own parser: a pre-tool call whose parsed paths
/// write, delete or move inside the protected set is denied.
fn payload(fx: &Fixture, agent: AgentKind, hint: Option<&str>, data: &[u8], worktree: Worktree) {
    let Ok(parsed) = hookgate_agents::parse_with_event(agent, hint, data) else {
        return;
    };
    let call = parsed.call;
    let v = judge(fx, &call, worktree);
    let contract = call.event.contract();
    if !(contract.tool_matched && contract.permission) {
        return;
    }
    let Some(tool) = call.tool.as_ref() else {
        return;
    };
    // Where the policy resolves relative paths: an absolute payload cwd, else the project.
    let cwd = if call.cwd.starts_with('/') {
        hookgate_paths::normalize(&call.cwd, Path::new("/"), None).path
    } else {
        fx.ws.clone()
    };
    let touched = tool.paths.iter().find(|t| {
        t.op != PathOp::Read && !t.path.contains('\0') && {
            let p = hookgate_paths::normalize(&t.path, &cwd, fx.ctx.home.as_deref()).path;
            fx.protected
                .iter()
                .any(|root| hookgate_paths::is_within(&p, root))
        }
    });
    if let Some(t) = touched {
        for (who, decision) in [("evaluation", v.eval.decision), ("session", v.session)] {
            assert_eq!(
                decision,
                Some(Decision::Deny),
                "{who}: {} {:?} of {} inside the protected set was not denied ({:?})",
                tool.name,
                t.op,
                t.path,
                v.eval.reason
            );
        }
    }
}
