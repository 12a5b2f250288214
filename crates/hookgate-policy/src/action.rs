//! Canonical actions: what a call does, whatever the agent calls the tool.
//!
//! File tools map one path to one action. A shell line is parsed by `hookgate-shell` and yields
//! one action per *executed* command (after quote removal, wrapper peeling and recursion into
//! `bash -c`), so `echo "git push --force"` is a `shell.exec` of `echo` and
//! `sudo git -C repo push -f origin main` is a `git.force_push` of `main`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use hookgate_core::{CanonicalCall, PathOp, ToolCall, ToolKind};
use hookgate_paths::{is_within, normalize};
use hookgate_shell::{Analysis, Effect, EffectOp, ParseStatus, Text};
use serde::{Deserialize, Serialize};

use crate::Ctx;
use crate::pattern::{args_after_globals, base_name, split_flags};

mod diff;
mod fetch;
pub(crate) mod find;
mod performers;

pub(crate) use performers::join as join_path;

pub(crate) use find::{Entry, EntryKind, FindFilter, K};

macro_rules! action_kinds {
    ($($variant:ident = $name:literal: $doc:literal,)*) => {
        /// The canonical action vocabulary (DESIGN.md section 3). Policy rules match on these
        /// names; `*` and `ns.*` wildcards are resolved against [`ActionKind::ALL`].
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum ActionKind {
            $(#[doc = $doc] #[serde(rename = $name)] $variant,)*
        }

        impl ActionKind {
            /// Every action kind.
            pub const ALL: &'static [ActionKind] = &[$(ActionKind::$variant),*];

            /// The dotted name (`git.force_push`).
            pub const fn as_str(self) -> &'static str {
                match self { $(ActionKind::$variant => $name,)* }
            }

            /// The kind with this dotted name.
            pub fn parse(name: &str) -> Option<Self> {
                match name { $($name => Some(ActionKind::$variant),)* _ => None }
            }
        }
    };
}

action_kinds! {
    FileRead = "file.read": "Reads a file or lists/searches a directory.",
    FileWrite = "file.write": "Creates or modifies a file (Write, Edit, patch, redirect, tee, cp…).",
    FileDelete = "file.delete": "Deletes a file or directory.",
    FileMove = "file.move": "Moves a file away (its destination is a `file.write`).",
    ShellExec = "shell.exec": "Runs a command that no more specific action describes.",
    GitCommit = "git.commit": "`git commit`.",
    GitPush = "git.push": "`git push` (target: the destination branch).",
    GitForcePush = "git.force_push": "`git push --force`, `+refspec`, `--mirror`, `--force-with-lease`.",
    GitHistoryRewrite = "git.history_rewrite": "`filter-branch`/`filter-repo`, `rebase`, `reflog expire`, `update-ref -d`, `gc --prune`.",
    GitDiscard = "git.discard": "Throws away uncommitted work: `reset --hard`, `clean -f`, `checkout -- .`, `restore`, `stash drop`.",
    GitBranchDelete = "git.branch_delete": "Deletes a branch (local `branch -d/-D` or remote `push --delete`/`:b`).",
    GitOther = "git.other": "Any other git subcommand.",
    NetFetch = "net.fetch": "Fetches a URL (WebFetch, curl, wget…).",
    McpCall = "mcp.call": "Calls an MCP tool (target: the server).",
    AgentSpawn = "agent.spawn": "Starts a sub-agent.",
    PackagePublish = "package.publish": "Publishes a package or release (`npm publish`, `cargo publish`, `twine upload`…).",
    PackageInstall = "package.install": "Installs or fetches-and-runs a package (`npm install`, `pip install`, `npx`…).",
    ToolOther = "tool.other": "Any other tool (todo lists, questions, plan mode…).",
}

impl std::fmt::Display for ActionKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One canonical action of a call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Action {
    /// What it does.
    pub kind: ActionKind,
    /// What it does it to: canonical absolute paths for `file.*`, branches for pushes, URLs
    /// for `net.fetch`, the server for `mcp.call`, the argv for `shell.exec`.
    pub targets: Vec<String>,
    /// The agent's tool name.
    pub tool: String,
    /// The executed command this action comes from, for shell tools.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub argv: Vec<String>,
}

/// The canonical actions of a call (none for events without a tool call).
pub fn actions(call: &CanonicalCall, ctx: &Ctx) -> Vec<Action> {
    Facts::build(call, ctx).actions
}

/// How far an operation on a path reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reach {
    /// The path itself (a redirect, `tee`, `touch`, a file tool's write).
    Exact,
    /// The path and everything below it: deleting, moving, chmod-ing or replacing a
    /// directory, extracting or syncing into it, git commands over a pathspec or the worktree.
    /// Invariant protected: an operation on a directory is judged for every protected file it
    /// holds (`rm -rf .claude` touches `.claude/settings.json`).
    Tree,
    /// The path may become a whole new tree (a moved, copied or linked directory lands
    /// there), but a directory already there is not replaced (`mv`/`cp -r`/`ln` put the
    /// source inside it): what the path *names* counts (`mv /tmp/evil .claude` creates the
    /// agent's config dir), what an existing directory there holds does not (`mv f.txt .`).
    NewTree,
}

/// A part of a [`Reach::Tree`] operation that it leaves alone (`git clean -e .claude`,
/// `':!.claude'`, `rsync --exclude .claude`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Except {
    /// Every entry with this name, at any depth below the operation's path.
    Name(String),
    /// This canonical subtree.
    Path(PathBuf),
}

impl Except {
    /// Whether `protected`, lying below the operation's path `root`, is left alone.
    pub(crate) fn covers(&self, protected: &Path, root: &Path) -> bool {
        match self {
            Except::Path(p) => protected.starts_with(p),
            Except::Name(n) => protected
                .strip_prefix(root)
                .is_ok_and(|rel| rel.components().any(|c| c.as_os_str() == n.as_str())),
        }
    }
}

/// A path an action touches: as written, and canonical.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PathUse {
    pub raw: String,
    pub path: PathBuf,
    pub op: PathOp,
    pub reach: Reach,
    /// What a [`Reach::Tree`] operation leaves out.
    pub except: Vec<Except>,
    /// See [`Touch::filter`].
    pub filter: Option<Arc<FindFilter>>,
    /// See [`Touch::partial`].
    pub partial: bool,
    /// See [`Touch::verb`].
    pub verb: Option<&'static str>,
    /// See [`Touch::metadata`].
    pub metadata: bool,
    /// A whole archive extracted into this [`Reach::Tree`] path whose member list could not
    /// be had ([`Touch::archive`] still set after `list_archives`: not listed yet, written by
    /// the same line, unreadable, or holding links). It writes *some* paths below the
    /// directory, which ones the guard cannot see: a protected entry held below the
    /// directory is asked about (the archive could name it), while the directory itself
    /// being protected is denied like any write (see the `archive` module).
    pub archive_unlisted: bool,
}

/// What the judges need beside each action.
#[derive(Debug, Clone, Default)]
pub(crate) struct Item {
    /// Index into `Facts::analysis.commands`, for shell actions.
    pub command: Option<usize>,
    pub paths: Vec<PathUse>,
    /// Destination branches, for pushes and branch deletes (`*` = every branch).
    pub branches: Vec<String>,
    /// Writes, deletes, moves or chmods whose target is computed at run time (interpreter
    /// code writing `open(name, 'w')`): described by where they were found. Never dropped,
    /// so a write that cannot be placed is asked about instead of allowed.
    pub unplaced: Vec<String>,
}

/// Everything derived once per evaluation from the call: the shell analysis, the actions, the
/// canonical paths. Rules and invariants read it; nothing is re-parsed.
#[derive(Debug)]
pub(crate) struct Facts<'a> {
    pub tool: Option<&'a ToolCall>,
    pub analysis: Option<Analysis>,
    pub actions: Vec<Action>,
    pub items: Vec<Item>,
    /// The call's cwd: relative paths of file tools, and of shell commands the line did not
    /// move (a shell command's own directory is its `ExecutedCommand::cwd`, see
    /// [`Facts::command_dir`]).
    pub cwd: PathBuf,
    /// Links the line creates (`ln -s T L`, `ln T L`, `cp -l`/`-s`): the item that creates
    /// it, canonical link path, the path it reaches. A write below a link by another command
    /// is a write there too, whatever the order of the commands (the link does not exist yet
    /// when the call is judged, so symlink resolution cannot see it).
    pub links: Vec<(usize, PathBuf, PathBuf)>,
    /// Where a NUL byte was found in the command or a path: the shell or the kernel would cut
    /// the word there, so what runs is not what was judged.
    pub nul: Option<&'static str>,
    /// Archives extracted whole from a file whose member list [`Ctx::archives`] does not hold
    /// yet (each a question: `members` is `None`); see the `archive` module.
    pub archives_unlisted: Vec<crate::ArchiveListing>,
}

/// Value-taking options of `git push` given as a separate word.
const PUSH_VALUE_OPTS: &[&str] = &["-o", "--push-option", "--receive-pack", "--exec", "--repo"];

impl<'a> Facts<'a> {
    /// The facts of a shell command line run in `cwd` (a shell tool call of `tool`'s
    /// command): for judging code a call writes as if it ran (a Makefile recipe, a script).
    pub(crate) fn of_shell(tool: &'a ToolCall, cwd: PathBuf, ctx: &Ctx) -> Self {
        let mut facts = Self::empty(Some(tool), cwd);
        facts.shell(tool, ctx, std::sync::Arc::default());
        facts
    }

    fn empty(tool: Option<&'a ToolCall>, cwd: PathBuf) -> Self {
        Facts {
            tool,
            analysis: None,
            actions: Vec::new(),
            items: Vec::new(),
            cwd,
            links: Vec::new(),
            nul: None,
            archives_unlisted: Vec::new(),
        }
    }

    pub(crate) fn build(call: &'a CanonicalCall, ctx: &Ctx) -> Self {
        Self::build_in_session(call, ctx, std::sync::Arc::default())
    }

    /// [`Facts::build`] for a call of a session that wrote `secret_files` earlier (see
    /// [`crate::SessionState::secret_files`]): a shell line is analysed knowing them.
    pub(crate) fn build_in_session(
        call: &'a CanonicalCall,
        ctx: &Ctx,
        secret_files: std::sync::Arc<[(PathBuf, hookgate_shell::FlowSource)]>,
    ) -> Self {
        let cwd = if call.cwd.starts_with('/') {
            normalize(&call.cwd, Path::new("/"), None).path
        } else {
            ctx.workspace.clone()
        };
        let mut facts = Self::empty(call.tool.as_ref(), cwd);
        let Some(tool) = call.tool.as_ref() else {
            return facts;
        };
        if tool.command.as_deref().is_some_and(|c| c.contains('\0')) {
            facts.nul = Some("the command");
        } else if tool.paths.iter().any(|p| p.path.contains('\0')) {
            facts.nul = Some("a path");
        }
        match tool.kind {
            ToolKind::Shell => {
                facts.shell(tool, ctx, secret_files);
                // A patch applied through the shell tool (Codex's `apply_patch <<'EOF'` heredoc)
                // arrives with its files already read by the agents crate: each goes through
                // the same file-write judgement as the apply_patch tool's.
                for p in &tool.paths {
                    facts.file_action(tool, p, ctx);
                }
            }
            ToolKind::Read | ToolKind::Search => {
                let mut any = false;
                for p in &tool.paths {
                    facts.file_action(tool, p, ctx);
                    any = true;
                }
                if !any {
                    facts.push(
                        ActionKind::FileRead,
                        vec![facts.cwd.to_string_lossy().into_owned()],
                        tool,
                        Item::default(),
                    );
                }
            }
            ToolKind::Write | ToolKind::Edit | ToolKind::Patch => {
                for p in &tool.paths {
                    facts.file_action(tool, p, ctx);
                }
            }
            ToolKind::Fetch => {
                let targets = tool.url.iter().cloned().collect();
                facts.push(ActionKind::NetFetch, targets, tool, Item::default());
            }
            ToolKind::Subagent => {
                let target = ["subagent_type", "agent", "description"]
                    .iter()
                    .find_map(|k| tool.input.get(*k).and_then(|v| v.as_str()))
                    .map(str::to_owned);
                facts.push(
                    ActionKind::AgentSpawn,
                    target.into_iter().collect(),
                    tool,
                    Item::default(),
                );
            }
            ToolKind::Mcp => {
                let target = tool.mcp_server.clone().unwrap_or_else(|| tool.name.clone());
                facts.push(ActionKind::McpCall, vec![target], tool, Item::default());
                // An MCP file tool (`write_file`, `move_file`, `delete`…): its paths, read by
                // the agents crate, go through the same file policy as the agent's own tools.
                for p in &tool.paths {
                    facts.file_action(tool, p, ctx);
                }
            }
            ToolKind::Other => {
                facts.push(
                    ActionKind::ToolOther,
                    vec![tool.name.clone()],
                    tool,
                    Item::default(),
                );
            }
        }
        facts
    }

    fn push(&mut self, kind: ActionKind, targets: Vec<String>, tool: &ToolCall, item: Item) {
        let argv = item
            .command
            .and_then(|i| self.analysis.as_ref()?.commands.get(i))
            .map(|c| c.argv.clone())
            .unwrap_or_default();
        self.actions.push(Action {
            kind,
            targets,
            tool: tool.name.clone(),
            argv,
        });
        self.items.push(item);
    }

    fn canonical(&self, raw: &str, ctx: &Ctx) -> PathBuf {
        normalize(raw, &self.cwd, ctx.home.as_deref()).path
    }

    /// The directory the command behind action `i` runs in: for a shell command the one the
    /// analyzer tracked through the line's `cd`/`pushd`/`popd`/`env -C`/runner options
    /// (`cd src && rm -rf ../.claude` deletes `<cwd>/.claude`), else the call's cwd. `None`
    /// when it is only known at run time (`cd "$X"`, a remote shell): a relative path there
    /// cannot be placed.
    pub(crate) fn command_dir(&self, i: usize) -> Option<&Path> {
        match self.items.get(i).and_then(|item| item.command) {
            Some(c) => self.command_cwd(c),
            None => Some(&self.cwd),
        }
    }

    /// The directories a command whose directory is unknown may run in, when the analyzer
    /// knows them as a set ([`hookgate_shell::WorkDir::Either`]).
    fn command_candidates(&self, command: usize) -> Option<&[PathBuf]> {
        match &self.analysis.as_ref()?.commands.get(command)?.cwd {
            hookgate_shell::WorkDir::Either(dirs) => Some(dirs),
            _ => None,
        }
    }

    /// [`Self::command_dir`] by index into the analysis' commands.
    pub(crate) fn command_cwd(&self, command: usize) -> Option<&Path> {
        match self.analysis.as_ref()?.commands.get(command) {
            Some(c) => c.cwd.path(&self.cwd),
            None => Some(&self.cwd),
        }
    }

    /// The one place a path a command names is looked up on the file system (a copy's
    /// destination, a patch file): placed at the command's own directory, and `None` when a
    /// relative path's directory is only known at run time (`cd "$X"`), so nothing is read
    /// from a guess.
    fn placed_exactly(
        &self,
        command: &hookgate_shell::ExecutedCommand,
        raw: &str,
        ctx: &Ctx,
    ) -> Option<PathBuf> {
        let relative = !raw.starts_with('/') && !raw.starts_with('~');
        let dir = if relative {
            command.cwd.path(&self.cwd)?
        } else {
            &self.cwd
        };
        Some(normalize(raw, dir, ctx.home.as_deref()).path)
    }

    fn file_action(&mut self, tool: &ToolCall, target: &hookgate_core::PathTarget, ctx: &Ctx) {
        let path = self.canonical(&target.path, ctx);
        let kind = match target.op {
            PathOp::Read => ActionKind::FileRead,
            PathOp::Write => ActionKind::FileWrite,
            PathOp::Delete => ActionKind::FileDelete,
            PathOp::Move => ActionKind::FileMove,
        };
        let item = Item {
            paths: vec![PathUse {
                raw: target.path.clone(),
                path: path.clone(),
                op: target.op,
                reach: if matches!(target.op, PathOp::Delete | PathOp::Move) {
                    Reach::Tree
                } else {
                    Reach::Exact
                },
                except: Vec::new(),
                filter: None,
                partial: false,
                verb: None,
                metadata: false,
                archive_unlisted: false,
            }],
            ..Item::default()
        };
        self.push(kind, vec![path.to_string_lossy().into_owned()], tool, item);
    }

    fn shell(
        &mut self,
        tool: &ToolCall,
        ctx: &Ctx,
        secret_files: std::sync::Arc<[(PathBuf, hookgate_shell::FlowSource)]>,
    ) {
        let Some(command) = tool.command.as_deref() else {
            self.push(ActionKind::ShellExec, Vec::new(), tool, Item::default());
            return;
        };
        let mut sctx = ctx.shell_context(self.cwd.clone());
        sctx.secret_files = secret_files;
        let analysis = hookgate_shell::analyze(command, &sctx);
        let mut described: Vec<Described> = analysis
            .commands
            .iter()
            .map(|c| {
                let mut d = describe_with(&c.argv, ctx.branch.as_deref(), c.stdin.as_ref());
                d.add_effects(&c.effects);
                d
            })
            .collect();
        filter_found_paths(&analysis.commands, &mut described);
        self.settle_readings(&analysis.commands, &mut described, ctx);
        self.read_diff_files(
            &analysis.commands,
            &analysis.stdin_files,
            &mut described,
            ctx,
        );
        self.list_archives(
            &analysis.commands,
            &analysis.stdin_files,
            &mut described,
            ctx,
        );
        // A line that runs no command the analyzer could list but that it still judged — a
        // parse failure, or a part not tied to a command (`bash -c 'rm -rf ~ ('`: the inner
        // string does not parse, bash would run its first lines before the error) — is one
        // shell action, so the invariants see it. Without it the call had no action at all
        // and no invariant was asked: a silent allow of an unknown line.
        let unresolved_line = analysis.commands.is_empty()
            && (!matches!(analysis.parse, ParseStatus::Empty | ParseStatus::Ok)
                || analysis.verdict.action() != hookgate_shell::Action::Allow);
        self.analysis = Some(analysis);
        for (i, d) in described.into_iter().enumerate() {
            let dir = self.command_cwd(i).map(Path::to_path_buf);
            let mut unplaced = d.unplaced;
            let mut touches: Vec<Touch> = Vec::new();
            for t in d.paths {
                if t.op == PathOp::Write && performers::runtime_compressed_output(&t.raw) {
                    continue;
                }
                if t.op != PathOp::Read && (t.raw.contains("{stdin}") || t.raw == "{}") {
                    unplaced.push(format!(
                        "`{}` acts on items it reads at run time",
                        d.targets.first().map_or("", String::as_str)
                    ));
                    continue;
                }
                if !usable_path(&t.raw) {
                    continue;
                }
                match substituted_paths(&t.raw, ctx, &sctx) {
                    Substituted::Not => touches.push(t),
                    Substituted::Paths(paths) => {
                        for p in paths {
                            let mut u = t.clone();
                            u.raw = p;
                            touches.push(u);
                        }
                    }
                    Substituted::Unknown if t.op != PathOp::Read => unplaced.push(format!(
                        "`{}` is a command substitution whose output cannot be known",
                        t.raw
                    )),
                    Substituted::Unknown => {}
                }
            }
            // A link made where the line's directory is unknown is placed as if from the
            // call's cwd (a write through it from there is caught; one from elsewhere is a
            // relative path in an unknown directory, unplaced already).
            let base = dir.clone().unwrap_or_else(|| self.cwd.clone());
            for (link, target) in d.links {
                let home = ctx.home.as_deref();
                let made = (
                    self.items.len(),
                    normalize(&link, &base, home).path,
                    normalize(&target, &base, home).path,
                );
                if !self.links.contains(&made) {
                    self.links.push(made);
                }
            }
            let mut paths = Vec::with_capacity(touches.len());
            for t in touches {
                match &dir {
                    Some(dir) => paths.push(place(t, dir, ctx)),
                    // Relative to a directory only known at run time: a write cannot be
                    // checked against the protected set (asked about); a read is placed as
                    // from the call's cwd, as before the line moved.
                    None if t.op == PathOp::Read || !relative_to_cwd(&t) => {
                        paths.push(place(t, &self.cwd, ctx));
                    }
                    // One of a few known directories (`mkdir -p D && cd D` then a newline):
                    // placed at each, so every place the write may land is judged.
                    None if let Some(dirs) = self.command_candidates(i) => {
                        for d in dirs {
                            paths.push(place(t.clone(), d, ctx));
                        }
                    }
                    None => unplaced.push(format!(
                        "`{}` is relative to a directory only known at run time",
                        t.raw
                    )),
                }
            }
            let targets = match d.kind {
                ActionKind::FileRead
                | ActionKind::FileWrite
                | ActionKind::FileDelete
                | ActionKind::FileMove
                    if !paths.is_empty() =>
                {
                    paths
                        .iter()
                        .map(|p| p.path.to_string_lossy().into_owned())
                        .collect()
                }
                _ => d.targets,
            };
            let item = Item {
                command: Some(i),
                paths,
                branches: d.branches,
                unplaced,
            };
            self.push(d.kind, targets, tool, item);
        }
        if unresolved_line {
            self.push(
                ActionKind::ShellExec,
                vec![command.to_owned()],
                tool,
                Item::default(),
            );
        }
    }

    /// Keeps, of the two readings of each ambiguous copy destination ([`Touch::reading`]), the
    /// one the file system confirms: an existing directory takes `DEST/<name>`; an existing
    /// file, or nothing at all, takes DEST itself — unless another command of the line may
    /// create DEST first (`mkdir -p d && cp f d`). Without file-system facts (evaluation kept
    /// lexical: [`Ctx::follow_symlinks`] off), a relative destination after a `cd`, or a
    /// `stat` that fails otherwise, both readings stay: every place the data may land is
    /// judged.
    fn settle_readings(
        &self,
        commands: &[hookgate_shell::ExecutedCommand],
        described: &mut [Described],
        ctx: &Ctx,
    ) {
        if !ctx.follow_symlinks
            || !described
                .iter()
                .any(|d| d.paths.iter().any(|t| t.reading.is_some()))
        {
            return;
        }
        // What each command may create, canonical: its writes, and `mkdir`'s operands.
        let created: Vec<(usize, PathBuf)> = described
            .iter()
            .zip(commands)
            .enumerate()
            .flat_map(|(i, (d, c))| {
                let mkdir = matches!(c.argv.first().map(|p| base_name(p)), Some("mkdir"));
                let made: Vec<String> = if mkdir {
                    operands(c.argv.get(1..).unwrap_or_default(), &["-m", "--mode"])
                } else {
                    d.paths
                        .iter()
                        .filter(|t| t.op == PathOp::Write && t.reading.is_none())
                        .map(|t| t.raw.clone())
                        .collect()
                };
                made.into_iter().map(move |raw| (i, raw))
            })
            .filter_map(|(i, raw)| Some((i, self.placed_exactly(commands.get(i)?, &raw, ctx)?)))
            .collect();
        for (i, d) in described.iter_mut().enumerate() {
            let mut verdicts: Vec<(String, Option<bool>)> = Vec::new();
            for t in &d.paths {
                let Some((dest, _)) = &t.reading else {
                    continue;
                };
                if verdicts.iter().any(|(r, _)| r == dest) {
                    continue;
                }
                let is_dir = commands
                    .get(i)
                    .and_then(|c| self.placed_exactly(c, dest, ctx))
                    .and_then(|path| match std::fs::metadata(&path) {
                        Ok(m) => Some(m.is_dir()),
                        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                            let made_here = created.iter().any(|(by, p)| *by != i && *p == path);
                            (!made_here).then_some(false)
                        }
                        Err(_) => None,
                    });
                verdicts.push((dest.clone(), is_dir));
            }
            d.paths.retain(|t| {
                let Some((dest, wants_dir)) = &t.reading else {
                    return true;
                };
                verdicts
                    .iter()
                    .find(|(r, _)| r == dest)
                    .and_then(|(_, v)| *v)
                    .is_none_or(|is_dir| is_dir == *wants_dir)
            });
        }
    }

    /// Replaces the "some files below here" guess of a diff applied from a file (`patch -p1 <
    /// fix.diff`, `git apply x.patch`) by the files its headers name, read from the file
    /// (bounded in size): a patch whose targets are protected is then judged as writing them,
    /// an ordinary one as the ordinary writes it makes. A patch file that cannot be read (or
    /// is too large) leaves a write that cannot be placed, which is asked about. Without
    /// file-system facts ([`Ctx::follow_symlinks`] off), a relative file after a `cd`, or a
    /// diff on a pipe, the guess stays.
    fn read_diff_files(
        &self,
        commands: &[hookgate_shell::ExecutedCommand],
        stdin_files: &[(usize, PathBuf)],
        described: &mut [Described],
        ctx: &Ctx,
    ) {
        if !ctx.follow_symlinks {
            return;
        }
        for (i, d) in described.iter_mut().enumerate() {
            if d.diff_files.is_empty() {
                continue;
            }
            let mut touches = Vec::new();
            let mut settled = true;
            for f in std::mem::take(&mut d.diff_files) {
                // A file named on the line, or the one redirected into the command's stdin.
                let path = match &f.raw {
                    Some(raw) => commands
                        .get(i)
                        .and_then(|c| self.placed_exactly(c, raw, ctx)),
                    None => stdin_files
                        .iter()
                        .find(|(c, _)| *c == i)
                        .map(|(_, p)| p.clone()),
                };
                let Some(path) = path else {
                    settled = false;
                    continue;
                };
                if let Some(text) = performers::read_diff(&path) {
                    touches.extend(f.touches(&text));
                } else {
                    d.unplaced.push(format!(
                        "applies the diff in {}, which cannot be read",
                        path.display()
                    ));
                    settled = false;
                }
            }
            if settled {
                d.paths.retain(|t| !t.partial);
            }
            d.paths.extend(touches);
        }
    }
}

impl Facts<'_> {
    /// Whole-archive extractions from a file ([`Touch::archive`]) whose member list the
    /// caller found ([`Ctx::archives`]): the tree write is replaced by the writes of the
    /// members, when they can be placed exactly (see the `archive` module). A listing not
    /// found yet is noted as a question; one that could not be had keeps the tree. Without
    /// file-system facts ([`Ctx::follow_symlinks`] off) the tree stays.
    fn list_archives(
        &mut self,
        commands: &[hookgate_shell::ExecutedCommand],
        stdin_files: &[(usize, PathBuf)],
        described: &mut [Described],
        ctx: &Ctx,
    ) {
        if !ctx.follow_symlinks {
            for d in described.iter_mut() {
                let anywhere = d
                    .paths
                    .iter()
                    .any(|t| t.archive.as_ref().is_some_and(|a| a.anywhere));
                if anywhere {
                    d.unplaced.push(UNPLACED_ARCHIVE.to_owned());
                }
            }
            return;
        }
        // Files the line itself writes (`curl -so x.tgz URL && tar -xzf x.tgz -C ~`): one on
        // disk now is not what the extraction will read, so it is never listed — its
        // extraction keeps the whole tree.
        let produced: Vec<PathBuf> = described
            .iter()
            .enumerate()
            .flat_map(|(j, d)| {
                d.paths
                    .iter()
                    .filter(|t| t.op != PathOp::Read && t.archive.is_none())
                    .map(move |t| (j, t))
            })
            .filter_map(|(j, t)| self.placed_exactly(commands.get(j)?, &t.raw, ctx))
            .collect();
        for (i, d) in described.iter_mut().enumerate() {
            let Some(command) = commands.get(i) else {
                continue;
            };
            if !d.paths.iter().any(|t| t.archive.is_some()) {
                continue;
            }
            let mut out = Vec::with_capacity(d.paths.len());
            let mut unplaced = false;
            for t in std::mem::take(&mut d.paths) {
                let Some(src) = t.archive.clone() else {
                    out.push(t);
                    continue;
                };
                // Kept as the whole tree below: where an absolute member name lands is not.
                unplaced |= src.anywhere;
                let file = if src.stdin {
                    stdin_files
                        .iter()
                        .find(|(c, _)| *c == i)
                        .map(|(_, p)| p.clone())
                } else {
                    self.placed_exactly(command, &src.raw, ctx)
                };
                let Some(archive) = file
                    .filter(|a| !produced.contains(a))
                    .filter(|_| src.format.listable())
                else {
                    out.push(t);
                    continue;
                };
                let listed = ctx
                    .archives
                    .iter()
                    .find(|l| l.archive == archive && l.format == src.format);
                let Some(l) = listed else {
                    let question = crate::ArchiveListing {
                        archive,
                        format: src.format,
                        members: None,
                    };
                    if !self.archives_unlisted.contains(&question) {
                        self.archives_unlisted.push(question);
                    }
                    out.push(t);
                    continue;
                };
                match l.members.as_deref().and_then(|m| {
                    crate::archive::member_touches(m, &t.raw, src.strip, src.anywhere)
                }) {
                    Some(members) => {
                        unplaced &= !src.anywhere;
                        out.extend(members);
                    }
                    None => out.push(t),
                }
            }
            d.paths = out;
            if unplaced {
                d.unplaced.push(UNPLACED_ARCHIVE.to_owned());
            }
        }
    }
}

/// Why an extraction whose member names may be absolute writes where the guard cannot say.
const UNPLACED_ARCHIVE: &str = "extracts an archive whose member names may be absolute paths";

/// True when where `t` lands depends on the command's directory (a relative path; for a diff's
/// paths, a relative root).
fn relative_to_cwd(t: &Touch) -> bool {
    let relative = |p: &str| !Path::new(p).is_absolute() && !p.starts_with('~');
    match &t.base {
        Base::RootOf(dir) => relative(dir),
        Base::Cwd | Base::Worktree => relative(&t.raw),
    }
}

/// A described touch made canonical: relative to `dir` (the command's directory), or — for
/// git commands over the whole worktree — the project root when the command runs inside it.
fn place(t: Touch, dir: &Path, ctx: &Ctx) -> PathUse {
    let home = ctx.home.as_deref();
    let mut path = normalize(&t.raw, dir, home).path;
    if t.base == Base::Worktree && is_within(&path, &ctx.workspace) {
        path.clone_from(&ctx.workspace);
    }
    if let Base::RootOf(root_of) = &t.base {
        let root_of = normalize(root_of, dir, home).path;
        let root = if is_within(&root_of, &ctx.workspace) {
            &ctx.workspace
        } else {
            &root_of
        };
        path = normalize(&t.raw, root, home).path;
    }
    let except = t
        .except
        .into_iter()
        .map(|e| match e {
            RawExcept::Name(n) => Except::Name(n),
            RawExcept::Path(p) => Except::Path(normalize(&p, dir, home).path),
        })
        .collect();
    PathUse {
        raw: t.raw,
        path,
        op: t.op,
        reach: t.reach,
        except,
        filter: t.filter,
        partial: t.partial,
        verb: t.verb,
        metadata: t.metadata,
        archive_unlisted: t.archive.is_some() && t.reach == Reach::Tree,
    }
}

impl Facts<'_> {
    /// Where a path use may really land: its canonical path (placed against its command's
    /// directory), and if that lies below a link the same line creates, the place the link
    /// points to (a write through `ln -s .claude/settings.json /tmp/l && : > /tmp/l` writes
    /// the settings).
    pub(crate) fn candidates(&self, item: usize, p: &PathUse) -> Vec<PathBuf> {
        let mut out = vec![p.path.clone()];
        for i in 0..out.len() {
            // The command making a link writes the link itself, not through it.
            for (_, link, target) in self.links.iter().filter(|(by, _, _)| *by != item) {
                if let Ok(rest) = out[i].strip_prefix(link) {
                    let through = target.join(rest);
                    if !out.contains(&through) {
                        out.push(through);
                    }
                }
            }
        }
        out
    }

    /// Every path use that writes, deletes or moves, once per place it may land (see
    /// [`Facts::candidates`]).
    pub(crate) fn touched(&self) -> Vec<(usize, PathUse)> {
        let mut out: Vec<(usize, PathUse)> = Vec::new();
        for (i, item) in self.items.iter().enumerate() {
            for p in item.paths.iter().filter(|p| p.op != PathOp::Read) {
                for path in self.candidates(i, p) {
                    let mut q = p.clone();
                    q.path = path;
                    out.push((i, q));
                }
            }
        }
        out
    }

    /// Every canonical path this call writes, deletes or moves (relative ones placed where
    /// their command runs, and writes through links).
    pub(crate) fn written_paths(&self) -> Vec<PathBuf> {
        self.paths_where(|op| op != PathOp::Read)
    }

    /// Every canonical path this call reads.
    pub(crate) fn read_paths(&self) -> Vec<PathBuf> {
        self.paths_where(|op| op == PathOp::Read)
    }

    /// Whether some command printed only into `/dev/null` (see
    /// `hookgate_shell::ExecutedCommand::output_discarded`).
    pub(crate) fn any_output_discarded(&self) -> bool {
        self.items.iter().any(|item| self.discarded(item))
    }

    fn discarded(&self, item: &Item) -> bool {
        item.command.is_some_and(|k| {
            self.analysis
                .as_ref()
                .and_then(|a| a.commands.get(k))
                .is_some_and(|c| c.output_discarded)
        })
    }

    /// The paths read by commands whose output someone sees: [`Facts::read_paths`] without the
    /// reads of a printer whose standard output is `/dev/null` (`cat ~/.aws/credentials
    /// >/dev/null && echo readable` shows nothing of the file).
    pub(crate) fn shown_read_paths(&self) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = Vec::new();
        for (i, item) in self.items.iter().enumerate() {
            if self.discarded(item) {
                continue;
            }
            for p in item.paths.iter().filter(|p| p.op == PathOp::Read) {
                for c in self.candidates(i, p) {
                    if !out.contains(&c) {
                        out.push(c);
                    }
                }
            }
        }
        out
    }

    fn paths_where(&self, keep: impl Fn(PathOp) -> bool) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = Vec::new();
        for (i, item) in self.items.iter().enumerate() {
            for p in item.paths.iter().filter(|p| keep(p.op)) {
                for c in self.candidates(i, p) {
                    if !out.contains(&c) {
                        out.push(c);
                    }
                }
            }
        }
        out
    }

    /// The executed command behind action `i`, if it came from a shell line.
    pub(crate) fn argv(&self, i: usize) -> Option<&[String]> {
        let index = self.items.get(i)?.command?;
        Some(&self.analysis.as_ref()?.commands.get(index)?.argv)
    }

    /// Text the call writes into files (Write content, Edit new text, patch additions).
    pub(crate) fn content(&self) -> Option<&str> {
        self.tool.and_then(|t| t.content.as_deref())
    }
}

/// Words that cannot name a real file (stdin placeholders, unresolved expansions).
fn usable_path(raw: &str) -> bool {
    !(raw.is_empty()
        || raw == "-"
        || raw.contains("{stdin}")
        || raw == "{}"
        || raw.starts_with("/dev/")
        || raw.starts_with("/proc/self/fd"))
}

/// What a command substitution used as a path stands for.
enum Substituted {
    /// The word is not one.
    Not,
    /// The places it can name.
    Paths(Vec<String>),
    /// Its output cannot be known statically.
    Unknown,
}

/// A program name as the shell finds it on `PATH`: each `PATH` directory joined with it,
/// and every protected path of that file name (the binary the agents run may be on a `PATH`
/// the guard was not given). A name with a `/` is itself.
fn program_paths(name: &str, ctx: &Ctx) -> Vec<String> {
    if name.contains('/') {
        return vec![name.to_owned()];
    }
    let mut out: Vec<String> = ctx
        .search_path
        .iter()
        .map(|d| d.join(name).to_string_lossy().into_owned())
        .collect();
    out.extend(
        ctx.protected_paths
            .iter()
            .filter(|p| p.file_name().is_some_and(|n| n == name))
            .map(|p| p.to_string_lossy().into_owned()),
    );
    out.sort();
    out.dedup();
    out
}

/// `$(which X)`, `` `command -v X` ``, `$(type -P X)`: the program X on `PATH`; wrapped in
/// `readlink -f`/`realpath` (the same file) or `dirname` (its directory), possibly followed
/// by a literal suffix (`$(dirname $(which X))/X`). Parsed with the shell grammar, never
/// matched as text; anything else in a substitution is [`Substituted::Unknown`].
/// The byte offset of the `)` that closes a `$(` whose body starts `body` (nested
/// parentheses counted), or `None` when it is not closed.
fn closing_paren(body: &str) -> Option<usize> {
    let mut level = 1usize;
    for (i, c) in body.char_indices() {
        match c {
            '(' => level += 1,
            ')' => {
                level -= 1;
                if level == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

fn substituted_paths(raw: &str, ctx: &Ctx, sctx: &hookgate_shell::Context) -> Substituted {
    substituted_depth(raw, ctx, sctx, 0)
}

fn substituted_depth(
    raw: &str,
    ctx: &Ctx,
    sctx: &hookgate_shell::Context,
    depth: usize,
) -> Substituted {
    let (inner, suffix) = if let Some(body) = raw.strip_prefix("$(") {
        match closing_paren(body) {
            Some(e) => (&body[..e], &body[e + 1..]),
            None => return Substituted::Unknown,
        }
    } else if let Some(body) = raw.strip_prefix('`') {
        match body.split_once('`') {
            Some((inner, suffix)) => (inner, suffix),
            None => return Substituted::Unknown,
        }
    } else if raw.contains("$(") || raw.contains('`') {
        return token_substitutions(raw, sctx)
            .map_or(Substituted::Unknown, |p| Substituted::Paths(vec![p]));
    } else {
        return Substituted::Not;
    };
    if depth > 4 || suffix.contains("$(") || suffix.contains('`') {
        return Substituted::Unknown;
    }
    let analysis = hookgate_shell::analyze(inner, sctx);
    let top: Vec<&hookgate_shell::ExecutedCommand> = analysis
        .commands
        .iter()
        .filter(|c| c.via.is_empty())
        .collect();
    let [cmd] = top.as_slice() else {
        return Substituted::Unknown;
    };
    let argv = &cmd.argv;
    let words: Vec<&str> = argv
        .iter()
        .skip(1)
        .map(String::as_str)
        .filter(|w| !w.starts_with('-'))
        .collect();
    let flags: Vec<&str> = argv
        .iter()
        .skip(1)
        .map(String::as_str)
        .filter(|w| w.starts_with('-'))
        .collect();
    let resolved: Vec<String> = match (argv.first().map(|p| base_name(p)), words.as_slice()) {
        (Some("which"), [name]) => program_paths(name, ctx),
        (Some("command"), [name]) if flags.iter().any(|f| *f == "-v" || *f == "-V") => {
            program_paths(name, ctx)
        }
        (Some("type"), [name]) if flags.iter().any(|f| f.contains(['p', 'P'])) => {
            program_paths(name, ctx)
        }
        (Some("readlink" | "realpath" | "echo" | "dirname"), [arg]) => {
            let found = match substituted_depth(arg, ctx, sctx, depth + 1) {
                Substituted::Not => vec![(*arg).to_owned()],
                Substituted::Paths(p) => p,
                Substituted::Unknown => return Substituted::Unknown,
            };
            if argv.first().is_some_and(|p| base_name(p) == "dirname") {
                found
                    .iter()
                    .map(|p| {
                        Path::new(p)
                            .parent()
                            .map_or_else(|| ".".to_owned(), |d| d.to_string_lossy().into_owned())
                    })
                    .collect()
            } else {
                found
            }
        }
        _ => return Substituted::Unknown,
    };
    if resolved.is_empty() {
        return Substituted::Unknown;
    }
    Substituted::Paths(
        resolved
            .into_iter()
            .map(|p| format!("{p}{suffix}"))
            .collect(),
    )
}

/// A path with substitutions inside a file name whose output is one name-safe token
/// (`/tmp/app-$(git rev-parse --short HEAD).tar.gz`, `out/report-$(date +%F).json`): each
/// becomes the one-component pattern `*`, and the word is judged like the glob
/// `/tmp/app-*.tar.gz` by the place rules, the catalog and the protected set (as `$USER` is,
/// see `hookgate_shell`'s identity module). Invariant: the pattern covers every output the
/// substitution can have — the producers print no `/` ([`token_producer`]), and the name
/// around each keeps a letter or digit of its own, so an empty output (a failed `git
/// rev-parse`) never leaves the parent directory, `.` or `..`. `None` otherwise (unknown).
fn token_substitutions(raw: &str, sctx: &hookgate_shell::Context) -> Option<String> {
    if raw.contains('`') {
        return None;
    }
    let mut out = String::new();
    let mut rest = raw;
    while let Some(at) = rest.find("$(") {
        out.push_str(&rest[..at]);
        let body = &rest[at + 2..];
        let end = closing_paren(body)?;
        let inner = &body[..end];
        if inner.contains("$(") || !token_producer(inner, sctx) {
            return None;
        }
        out.push('*');
        rest = &body[end + 1..];
    }
    out.push_str(rest);
    // Every component a substitution landed in keeps literal text of its own.
    let named = out
        .split('/')
        .filter(|c| c.contains('*'))
        .all(|c| c.chars().any(|ch| ch.is_ascii_alphanumeric() && ch != '*'));
    (named && !raw.contains('*') && !raw.contains('?') && !raw.contains('[')).then_some(out)
}

/// The substitution body `inner` is one command whose output is one name-safe token
/// ([`hookgate_shell::token_producer`]: the list the analyzer uses too).
fn token_producer(inner: &str, sctx: &hookgate_shell::Context) -> bool {
    let analysis = hookgate_shell::analyze(inner, sctx);
    let [cmd] = analysis.commands.as_slice() else {
        return false;
    };
    let argv: Vec<&str> = cmd.argv.iter().map(String::as_str).collect();
    hookgate_shell::token_producer(&argv)
}

/// Ties the paths a file-listing command prints to the commands that act on them, so a
/// tree operation is judged by the entries it can reach, not by its root alone. `find ROOT
/// EXPR` with `-exec` or feeding `xargs`: only the entries EXPR selects. Other listings
/// that feed `xargs` (see [`hookgate_shell::found_root`]): `git ls-files`/`git grep -l`
/// with wildcard pathspecs reach the entries a pathspec matches (git's `*` crosses `/`, as
/// `find -path` does); a plain listing of tracked files reaches every one of them, the
/// protected ones included (`git ls-files | xargs rm` stays denied when `.claude/` is
/// tracked); `grep -rl`, `git diff --name-only` and other listings whose items depend on
/// contents or history reach *some* entries below their root ([`Touch::partial`]: a
/// protected one among them is asked about). Invariant: `no-governance-self-modification`
/// — a listing only narrows a tree to entries it provably cannot print.
fn filter_found_paths(commands: &[hookgate_shell::ExecutedCommand], described: &mut [Described]) {
    for (k, c) in commands.iter().enumerate() {
        let name = c.argv.first().map(|p| base_name(p));
        if name == Some("find") {
            filter_find(commands, k, described);
            continue;
        }
        if !matches!(
            name,
            Some("git" | "grep" | "egrep" | "fgrep" | "rg" | "fd" | "fdfind")
        ) {
            continue;
        }
        // Several roots (`grep -rl X src tests`): the analyzer runs the consumer once per
        // root, each with that root standing for its items.
        let roots = hookgate_shell::found_roots(&c.argv);
        let linked = xargs_consumers(commands, k);
        if roots.is_empty() || linked.is_empty() {
            continue;
        }
        for root in roots {
            let (mut filter, partial) = listing_selection(&c.argv, &root);
            if partial {
                // Content or history decides among the selected entries: reaching a
                // protected one is asked about, as for an unfiltered partial tree.
                filter = filter.map(|f| Arc::new(Arc::unwrap_or_clone(f).depending_on_contents()));
            }
            for &j in &linked {
                if !items_only(&commands[j], &root) {
                    continue;
                }
                if let Some(d) = described.get_mut(j) {
                    for t in d.paths.iter_mut().filter(|t| t.raw == root) {
                        t.reach = Reach::Tree;
                        t.filter.clone_from(&filter);
                        t.partial = partial;
                    }
                }
            }
        }
    }
}

/// Whether `root` stands only for the found items in the consumer's argv: the analyzer
/// writes the items as their root, so the same word written on the line as well (`find .
/// -name '*.sh' | xargs chmod -R u+x .`, `-exec chmod -R u+x . {} +`) is the whole tree,
/// which no filter narrows.
fn items_only(consumer: &hookgate_shell::ExecutedCommand, root: &str) -> bool {
    consumer.argv.iter().filter(|a| *a == root).count() == 1
}

/// Whether every `-exec`/`-execdir`/`-ok`/`-okdir` command of a find argv holds `{}` (where
/// find puts the found file), so the words standing for the start path are the items.
fn exec_segments_name_items(argv: &[String]) -> bool {
    let mut words = argv.iter();
    while let Some(w) = words.next() {
        if matches!(w.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir") {
            let mut items = false;
            for x in words.by_ref() {
                if x == ";" || x == "+" {
                    break;
                }
                items |= x.contains("{}");
            }
            if !items {
                return false;
            }
        }
    }
    true
}

/// The commands an `xargs` or `parallel` right after command `k` runs (their via chain is
/// `k`'s plus the runner: both take the listing's lines as arguments).
fn xargs_consumers(commands: &[hookgate_shell::ExecutedCommand], k: usize) -> Vec<usize> {
    let Some(c) = commands.get(k) else {
        return Vec::new();
    };
    let runner = |next: &hookgate_shell::ExecutedCommand| {
        next.via.len() > c.via.len()
            && next.via.starts_with(&c.via)
            && matches!(
                next.via.get(c.via.len()).map(String::as_str),
                Some("xargs" | "parallel")
            )
    };
    let Some(first) = commands.get(k + 1).filter(|n| runner(n)) else {
        return Vec::new();
    };
    let via = first.via.get(c.via.len()).cloned();
    commands
        .iter()
        .enumerate()
        .skip(k + 1)
        .take_while(|(_, next)| runner(next) && next.via.get(c.via.len()) == via.as_ref())
        .map(|(j, _)| j)
        .collect()
}

/// Which entries below `root` a non-`find` listing prints: a filter of them when the line
/// says (git pathspecs with wildcards, `grep --include`), and whether the items further
/// depend on what the files hold or on history (`partial`).
fn listing_selection(argv: &[String], root: &str) -> (Option<Arc<FindFilter>>, bool) {
    let words: Vec<&str> = argv.iter().skip(1).map(String::as_str).collect();
    match words.as_slice() {
        ["ls-files", ..] => (pathspecs_selection(&words, root), false),
        ["grep", ..] => (pathspecs_selection(&words, root), true),
        // `git diff --name-only [REV…] -- PATHSPEC…`: only the pathspecs after `--` (before
        // it a word may be a revision) narrow the changed files.
        ["diff", ..] => {
            let specs: Vec<&str> = words
                .iter()
                .position(|w| *w == "--")
                .map(|i| {
                    std::iter::once("ls-files")
                        .chain(std::iter::once("--"))
                        .chain(words.iter().skip(i + 1).copied())
                        .collect()
                })
                .unwrap_or_default();
            let filter = (!specs.is_empty())
                .then(|| pathspecs_selection(&specs, root))
                .flatten();
            (filter, true)
        }
        _ => {
            // `grep -rl --include=GLOB PAT ROOT`: only files whose name matches a GLOB.
            let includes: Vec<&str> = words
                .iter()
                .filter_map(|w| w.strip_prefix("--include="))
                .collect();
            let filter = (!includes.is_empty() && !words.contains(&"--include")).then(|| {
                let mut expr: Vec<String> = vec!["(".to_owned()];
                for (i, g) in includes.iter().enumerate() {
                    if i > 0 {
                        expr.push("-o".to_owned());
                    }
                    expr.extend(["-name".to_owned(), (*g).to_owned()]);
                }
                expr.extend([")".to_owned(), "-print".to_owned()]);
                Arc::new(FindFilter::parse(&expr, find::Interest::Print))
            });
            (filter, true)
        }
    }
}

/// The entries git's wildcard pathspecs select below the cwd (`words`: after `git`, `git
/// ls-files '*.py' 'docs/*.md'`): `( -ipath ./P -o -ipath ./P/* … )` per pathspec, as [`pathspec_filter`]
/// builds for one. `None` (every entry) when there is no pathspec, one is plain (its whole
/// directory, already the root), or one has magic or a run-time part.
fn pathspecs_selection(words: &[&str], root: &str) -> Option<Arc<FindFilter>> {
    if root != "." {
        return None;
    }
    // Operands (option values skipped: an exclusion only narrows what is listed, and a
    // `-e PATTERN` is no pathspec).
    let grep = words.first() == Some(&"grep");
    let mut operands: Vec<&str> = Vec::new();
    let mut pattern_given = false;
    let mut ended = false;
    let mut i = 1;
    while let Some(w) = words.get(i) {
        i += 1;
        if ended || !w.starts_with('-') {
            operands.push(w);
        } else if *w == "--" {
            ended = true;
        } else if matches!(
            *w,
            "-x" | "--exclude"
                | "-X"
                | "--exclude-from"
                | "-e"
                | "-f"
                | "--max-depth"
                | "-m"
                | "--max-count"
        ) {
            pattern_given |= matches!(*w, "-e" | "-f");
            i += 1;
        }
    }
    // `git grep -l PATTERN [PATHSPEC…]`: the first operand is the pattern unless `-e`/`-f`
    // gave it.
    let specs = if grep && !pattern_given {
        operands.get(1..).unwrap_or_default()
    } else {
        &operands[..]
    };
    if specs.is_empty()
        || specs.iter().any(|p| {
            p.starts_with(':') || p.contains(['$', '`', '\\']) || !p.contains(['*', '?', '['])
        })
    {
        return None;
    }
    let mut expr: Vec<String> = vec!["(".to_owned()];
    for (i, p) in specs.iter().enumerate() {
        if i > 0 {
            expr.push("-o".to_owned());
        }
        let full = format!("./{}", p.trim_start_matches("./"));
        expr.extend([
            "-ipath".to_owned(),
            full.clone(),
            "-o".to_owned(),
            "-ipath".to_owned(),
            format!("{full}/*"),
        ]);
    }
    expr.extend([")".to_owned(), "-print".to_owned()]);
    Some(Arc::new(FindFilter::parse(&expr, find::Interest::Print)))
}

/// `find ROOT EXPR`: the commands its `-exec` runs and an `xargs` it feeds only reach the
/// entries EXPR selects (the analyzer puts the start path where `{}` or the items stood).
/// The analyzer records a find's `-exec` commands just before the find itself, and a
/// pipeline's stages in order; when that shape is not found, nothing is narrowed.
fn filter_find(
    commands: &[hookgate_shell::ExecutedCommand],
    k: usize,
    described: &mut [Described],
) {
    let Some(c) = commands.get(k) else {
        return;
    };
    let (starts, expr) = performers::find_parts(c.argv.get(1..).unwrap_or_default());
    let mut linked: Vec<(usize, find::Interest)> = Vec::new();
    let exec_via: Vec<String> = c
        .via
        .iter()
        .cloned()
        .chain(std::iter::once("find -exec".to_owned()))
        .collect();
    // An `-exec` without `{}` runs its words as written: they are not the found files.
    let exec_items = exec_segments_name_items(&c.argv);
    for j in (0..k).rev() {
        if exec_items && commands[j].via.starts_with(&exec_via) {
            linked.push((j, find::Interest::Exec));
        } else {
            break;
        }
    }
    linked.extend(
        xargs_consumers(commands, k)
            .into_iter()
            .map(|j| (j, find::Interest::Print)),
    );
    for (j, interest) in linked {
        let filter = Arc::new(FindFilter::parse(&expr, interest));
        if let Some(d) = described.get_mut(j) {
            for t in d
                .paths
                .iter_mut()
                .filter(|t| starts.contains(&t.raw) && items_only(&commands[j], &t.raw))
            {
                t.reach = Reach::Tree;
                t.filter = Some(Arc::clone(&filter));
            }
        }
    }
}

/// What a described path is relative to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Base {
    /// The command's working directory.
    Cwd,
    /// The worktree the command runs in (`raw` is the directory git runs in): the project
    /// root when that directory lies inside it. Git commands such as `reset --hard` and
    /// `stash -u` act on the whole worktree whatever the cwd.
    Worktree,
    /// The root of the worktree of this directory (relative to the cwd): the project root
    /// when the directory lies inside it. A diff's paths for `git apply`/`git am`.
    RootOf(String),
}

/// A part of a tree operation left alone, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RawExcept {
    Name(String),
    Path(String),
}

/// A path one executed command may touch, as written: the "paths a command may touch"
/// model every invariant reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Touch {
    pub raw: String,
    pub op: PathOp,
    pub reach: Reach,
    pub base: Base,
    pub except: Vec<RawExcept>,
    /// A [`Reach::Tree`] operation that only reaches the entries this `find` expression
    /// selects (`find . -name '*.pyc' -delete`).
    pub filter: Option<Arc<FindFilter>>,
    /// A [`Reach::Tree`] operation that touches *some* entries below the path, which ones
    /// cannot be read off the line (a diff in a file: `git apply x.patch`). Reaching the
    /// protected set is then asked about, not denied.
    pub partial: bool,
    /// How to say what the operation does to a protected path, when "write" would mislead
    /// (a hard link does not change the file; later writes through it do).
    pub verb: Option<&'static str>,
    /// A [`PathOp::Write`] that changes only permissions, ownership or attributes (`chmod`,
    /// `chown`, `chattr`): the guard's own files are protected from it like from any write,
    /// but the file's content is what it was, so running it afterwards is not
    /// write-then-execute (`script-execution-tracking` counts content writes only).
    pub metadata: bool,
    /// One reading of an ambiguous copy destination (`cp f DEST`: DEST itself, or `DEST/f`
    /// when DEST is a directory): the destination as written, and whether this touch is the
    /// reading for a directory. [`Facts`] keeps the reading the file system confirms.
    pub reading: Option<(String, bool)>,
    /// A whole archive extracted into this [`Reach::Tree`] path from a file named on the line
    /// (`tar xzf pkg.tgz -C DIR`): once the caller has listed the archive
    /// ([`Ctx::archives`]), [`Facts`] replaces the tree by the paths its members land on.
    pub archive: Option<performers::ArchiveSource>,
}

impl Touch {
    pub(crate) fn new(raw: impl Into<String>, op: PathOp, reach: Reach) -> Self {
        Self {
            raw: raw.into(),
            op,
            reach,
            base: Base::Cwd,
            except: Vec::new(),
            filter: None,
            partial: false,
            verb: None,
            metadata: false,
            reading: None,
            archive: None,
        }
    }
}

/// One executed command, described.
#[derive(Debug, Clone)]
pub(crate) struct Described {
    pub kind: ActionKind,
    pub targets: Vec<String>,
    pub paths: Vec<Touch>,
    pub branches: Vec<String>,
    pub unplaced: Vec<String>,
    /// Links it creates: (link, what the link reaches), as written.
    pub links: Vec<(String, String)>,
    /// Diffs it applies from files (`patch -i F`, `patch < F`, `git apply F`), which
    /// [`Facts`] reads to name the files they change.
    pub diff_files: Vec<performers::DiffFile>,
}

impl Described {
    pub(crate) fn new(kind: ActionKind, argv: &[String]) -> Self {
        Self {
            kind,
            targets: vec![argv.join(" ")],
            paths: Vec::new(),
            branches: Vec::new(),
            unplaced: Vec::new(),
            links: Vec::new(),
            diff_files: Vec::new(),
        }
    }

    /// Adds paths touched exactly (the path itself).
    pub(crate) fn with_paths(
        mut self,
        paths: impl IntoIterator<Item = String>,
        op: PathOp,
    ) -> Self {
        self.paths
            .extend(paths.into_iter().map(|p| Touch::new(p, op, Reach::Exact)));
        self
    }

    /// Adds paths touched with everything below them.
    pub(crate) fn with_trees(
        mut self,
        paths: impl IntoIterator<Item = String>,
        op: PathOp,
    ) -> Self {
        self.paths
            .extend(paths.into_iter().map(|p| Touch::new(p, op, Reach::Tree)));
        self
    }

    /// Adds the effects the analyzer found in code the command carries (interpreter
    /// one-liners). Chmod is a write; a write-like effect with no static target is kept as
    /// unplaced so it can be asked about.
    pub(crate) fn add_effects(&mut self, effects: &[Effect]) {
        for e in effects {
            let (op, reach) = match e.op {
                EffectOp::Read => (PathOp::Read, Reach::Exact),
                EffectOp::Write => (PathOp::Write, Reach::Exact),
                EffectOp::Chmod => (PathOp::Write, Reach::Tree),
                EffectOp::Delete => (PathOp::Delete, Reach::Tree),
                EffectOp::Move => (PathOp::Move, Reach::Tree),
                EffectOp::Spawn | EffectOp::Network | EffectOp::SetEnv => continue,
            };
            match &e.path {
                // A recursive pattern (`Path('.').rglob('*.json')`, `**`): the files it
                // reaches are only known at run time, so it is placed nowhere — asked about
                // when it changes files, never dropped. A one-level pattern
                // (`glob.glob('/tmp/tmp*')`, a fresh `mkdtemp()` directory) is placed like
                // the shell glob it amounts to (`rm -rf /tmp/tmp*`): the protected set and
                // the catalog are matched against the pattern, so `.c*` still reaches
                // `.claude`.
                Some(p) if op != PathOp::Read && p.contains("**") => {
                    // A deletion by name (`rglob('*.pyc')` unlinked) is the `find -delete`
                    // it amounts to; writes stay unplaced (the catalog's write checks read
                    // the path, not a selection below it: `rglob('.env')` written).
                    if e.op == EffectOp::Delete
                        && let Some(t) = recursive_name_touch(p, op)
                    {
                        self.paths.push(t);
                    } else {
                        self.unplaced
                            .push(format!("{} changes files matching `{p}`", e.source));
                    }
                }
                Some(p) => {
                    let mut t = Touch::new(p.clone(), op, reach);
                    t.metadata = e.op == EffectOp::Chmod;
                    self.paths.push(t);
                }
                None if op != PathOp::Read => {
                    let what = match e.op {
                        EffectOp::Delete => "deletes",
                        EffectOp::Move => "moves",
                        EffectOp::Chmod => "changes permissions of",
                        _ => "writes",
                    };
                    self.unplaced
                        .push(format!("{} {what} a computed path", e.source));
                }
                None => {}
            }
        }
    }
}

/// A deletion through a recursive pattern with a literal base and one name pattern below it
/// (`./**/*.pyc` from `Path('.').rglob('*.pyc')`, `build/**/*.map`): every entry below the
/// base whose name matches, which is what `find BASE -mindepth 1 -name GLOB -delete`
/// removes, and the subtree of a matching directory (`shutil.rmtree`). Placed as that filtered
/// tree operation, it is judged entry by entry like the `find` it amounts to (the protected
/// set and the catalog are listed below the base), so `rglob('*')` or `rglob('settings.json')`
/// still reaches `.claude/settings.json`. `None` for any other shape (a wildcard in the base,
/// `**` twice, a name pattern with a directory in it), which stays unplaced.
fn recursive_name_touch(pattern: &str, op: PathOp) -> Option<Touch> {
    let (base, name) = match pattern.strip_prefix("**/") {
        Some(name) => (".", name),
        None => pattern.split_once("/**/")?,
    };
    if base.is_empty()
        || name.is_empty()
        || name.contains('/')
        || hookgate_paths::has_wildcard(base)
    {
        return None;
    }
    // An entry whose own name matches, or one below a matching directory: the deletion may
    // be `shutil.rmtree`, which takes the whole subtree (`find -delete` would not). `-path`'s
    // `*` crosses `/`, which only widens the selection.
    let below = format!("*/{name}/*");
    let words: Vec<String> = [
        "-mindepth",
        "1",
        "(",
        "-name",
        name,
        "-o",
        "-path",
        &below,
        ")",
        "-delete",
    ]
    .iter()
    .map(|w| (*w).to_owned())
    .collect();
    let filter = FindFilter::parse(&words, find::Interest::Delete);
    if filter.opaque {
        return None;
    }
    let mut t = Touch::new(base, op, Reach::Tree);
    t.filter = Some(Arc::new(filter));
    Some(t)
}

/// Non-flag operands, honouring `--` and skipping the values of `value_opts` (separate-word
/// values; `--opt=value` and attached short values are flags already).
pub(crate) fn operands(args: &[String], value_opts: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut only = false;
    let mut skip = false;
    for a in args {
        if skip {
            skip = false;
        } else if only {
            out.push(a.clone());
        } else if a == "--" {
            only = true;
        } else if a.starts_with('-') && a.len() > 1 {
            if value_opts.contains(&a.as_str()) {
                skip = true;
            }
        } else {
            out.push(a.clone());
        }
    }
    out
}

/// Destination and sources of `cp`/`mv`/`ln`/`install`-style commands (`-t DIR` aware).
pub(crate) fn dest_and_sources(
    args: &[String],
    value_opts: &[&str],
) -> (Option<String>, Vec<String>) {
    let mut target_dir = None;
    let mut iter = args.iter();
    while let Some(a) = iter.next() {
        if a == "-t" || a == "--target-directory" {
            target_dir = iter.next().cloned();
        } else if let Some(v) = a.strip_prefix("--target-directory=") {
            target_dir = Some(v.to_owned());
        }
    }
    let mut ops = operands(args, &[value_opts, &["-t", "--target-directory"]].concat());
    if let Some(d) = target_dir {
        (Some(d), ops)
    } else {
        let dest = if ops.len() >= 2 { ops.pop() } else { None };
        (dest, ops)
    }
}

const READERS: &[&str] = &[
    "cat", "head", "tail", "less", "more", "bat", "batcat", "nl", "od", "xxd", "hexdump",
    "strings", "base64", "tac", "source", ".",
];
const INSTALLERS: &[(&str, &[&str])] = &[
    ("npm", &["install", "i", "add", "ci"]),
    ("pnpm", &["install", "i", "add"]),
    ("yarn", &["install", "add"]),
    ("bun", &["install", "i", "add"]),
    ("pip", &["install"]),
    ("pip3", &["install"]),
    ("uv", &["add", "pip"]),
    ("poetry", &["add", "install"]),
    ("cargo", &["add", "install"]),
    ("gem", &["install"]),
    ("go", &["get", "install"]),
    ("brew", &["install"]),
    ("apt", &["install"]),
    ("apt-get", &["install"]),
    ("dnf", &["install"]),
    ("yum", &["install"]),
    ("apk", &["add"]),
    ("composer", &["require", "install"]),
];
const RUNNERS: &[&str] = &["npx", "pnpx", "bunx", "uvx", "pipx"];
const PUBLISHERS: &[(&str, &[&str])] = &[
    ("npm", &["publish", "unpublish", "deprecate"]),
    ("pnpm", &["publish"]),
    ("yarn", &["publish", "npm"]),
    ("bun", &["publish"]),
    ("cargo", &["publish", "yank"]),
    ("poetry", &["publish"]),
    ("uv", &["publish"]),
    ("hatch", &["publish"]),
    ("flit", &["publish"]),
    ("pdm", &["publish"]),
    ("twine", &["upload"]),
    ("gem", &["push", "yank"]),
    ("mvn", &["deploy"]),
    ("gradle", &["publish"]),
    ("docker", &["push"]),
    ("podman", &["push"]),
];
const FETCHERS: &[&str] = &["curl", "wget", "http", "https", "xh", "aria2c", "httpie"];
/// The options of the other downloaders (httpie, xh, aria2c) that take a value, so their
/// values are not read as URLs (curl and wget are read with their full grammars, see
/// [`fetch::urls`]).
const OTHER_FETCHER_VALUE_OPTS: &[&str] = &[
    "-o",
    "--output",
    "-a",
    "--auth",
    "-A",
    "--auth-type",
    "--session",
    "--session-read-only",
    "--verify",
    "--cert",
    "--cert-key",
    "--proxy",
    "--print",
    "-p",
    "--pretty",
    "-s",
    "--style",
    "--timeout",
    "-d",
    "--dir",
    "--out",
    "-i",
    "--input-file",
    "-x",
    "-j",
];

/// Describes one executed command.
#[cfg(test)]
pub(crate) fn describe(argv: &[String], branch: Option<&str>) -> Described {
    describe_with(argv, branch, None)
}

/// Describes one executed command, with the text the line feeds its stdin (a diff for
/// `patch`/`git apply`).
pub(crate) fn describe_with(
    argv: &[String],
    branch: Option<&str>,
    stdin: Option<&Text>,
) -> Described {
    let Some(first) = argv.first() else {
        return Described::new(ActionKind::ShellExec, argv);
    };
    let program = base_name(first);
    let rest = &argv[1..];
    let mut d = describe_program(program, argv, rest, branch, stdin);
    performers::links(program, rest, &mut d);
    d
}

fn describe_program(
    program: &str,
    argv: &[String],
    rest: &[String],
    branch: Option<&str>,
    stdin: Option<&Text>,
) -> Described {
    let flags = split_flags(rest);
    let has = |short: char, long: &str| flags.short.contains(&short) || flags.long.contains(long);
    match program {
        ">" | ">>" => {
            Described::new(ActionKind::FileWrite, argv).with_paths(rest.to_vec(), PathOp::Write)
        }
        "rm" | "rmdir" | "unlink" | "srm" => Described::new(ActionKind::FileDelete, argv)
            .with_trees(operands(rest, &[]), PathOp::Delete),
        "shred" => Described::new(ActionKind::FileDelete, argv).with_trees(
            operands(rest, &["-n", "--iterations", "-s", "--size"]),
            PathOp::Delete,
        ),
        "mv" | "cp" | "install" | "ln" => performers::copy_like(program, argv, rest),
        // Batch renamers (Perl's `rename 's/a/b/' FILES`, util-linux `rename FROM TO FILES`,
        // `mmv FROM TO`): which operand is an expression differs by flavour, so every one is
        // taken as a path moved (an expression read as a path names nothing protected).
        "rename" | "prename" | "perl-rename" | "file-rename" | "rename.ul" | "mmv" => {
            Described::new(ActionKind::FileMove, argv)
                .with_trees(operands(rest, &["-e", "-E"]), PathOp::Move)
        }
        // GIO's file commands: `gio trash|remove|move|rename` take paths away, `gio
        // copy|save` write the last one, `gio set FILE ATTR VALUE` the first.
        "gio" => match rest.split_first() {
            Some((sub, tail)) if matches!(sub.as_str(), "trash" | "remove" | "rm") => {
                Described::new(ActionKind::FileDelete, argv)
                    .with_trees(operands(tail, &[]), PathOp::Delete)
            }
            Some((sub, tail)) if matches!(sub.as_str(), "move" | "mv" | "rename") => {
                Described::new(ActionKind::FileMove, argv)
                    .with_trees(operands(tail, &[]), PathOp::Move)
            }
            Some((sub, tail)) if matches!(sub.as_str(), "copy" | "cp" | "save" | "set") => {
                let mut ops = operands(tail, &["-t", "--type"]);
                let written = if sub == "set" {
                    ops.drain(..).next()
                } else {
                    ops.pop()
                };
                Described::new(ActionKind::FileWrite, argv).with_trees(written, PathOp::Write)
            }
            _ => Described::new(ActionKind::ShellExec, argv),
        },
        "rsync" => performers::rsync(argv, rest),
        "tee" | "sponge" => Described::new(ActionKind::FileWrite, argv)
            .with_paths(operands(rest, &[]), PathOp::Write),
        // Timestamps only (or an empty new file): no content of the session's own, so a
        // file touched and then run is not write-then-execute (`Touch::metadata`).
        "touch" => {
            let mut d = Described::new(ActionKind::FileWrite, argv).with_paths(
                operands(rest, &["-r", "--reference", "-d", "--date", "-t"]),
                PathOp::Write,
            );
            for t in &mut d.paths {
                t.metadata = true;
            }
            d
        }
        "truncate" => Described::new(ActionKind::FileWrite, argv).with_paths(
            operands(rest, &["-s", "--size", "-r", "--reference"]),
            PathOp::Write,
        ),
        "perl" | "ruby" if perl_ruby_args(program, rest).in_place => {
            Described::new(ActionKind::FileWrite, argv)
                .with_paths(perl_ruby_args(program, rest).operands, PathOp::Write)
        }
        "sed" if in_place(program, rest) => {
            let value_opts: &[&str] = if program == "sed" {
                &["-e", "--expression", "-f", "--file", "-l", "--line-length"]
            } else {
                &["-e", "-E", "-M", "-m", "-I", "-r", "-C", "-F"]
            };
            let mut ops = operands(rest, value_opts);
            let script_given = rest.iter().any(|a| {
                matches!(a.as_str(), "-e" | "-E" | "-f" | "--expression" | "--file")
                    || a.starts_with("--expression=")
                    || (program != "sed" && a.starts_with('-') && a.contains('e'))
            });
            if !script_given && !ops.is_empty() {
                ops.remove(0);
            }
            Described::new(ActionKind::FileWrite, argv).with_paths(ops, PathOp::Write)
        }
        "chmod" | "chown" | "chgrp" | "setfacl" | "chattr" | "chflags" => {
            let mut d = Described::new(ActionKind::ShellExec, argv)
                .with_trees(performers::mode_targets(program, rest), PathOp::Write);
            for t in &mut d.paths {
                t.metadata = true;
            }
            d
        }
        "tar" | "bsdtar" | "gtar" => performers::tar(argv, rest),
        "unzip" => performers::unzip(argv, rest),
        "cpio" => performers::cpio(argv, rest),
        "7z" | "7za" | "7zz" | "7zr" => performers::seven_zip(argv, rest),
        "ex" | "vi" | "vim" | "nvim" | "view" | "vim.basic" | "vim.tiny" | "gvim" => {
            performers::editor(program, argv, rest)
        }
        "sqlite3" | "sqlite" => performers::sqlite(argv, rest),
        "find" => performers::find(argv, rest),
        p if performers::is_compressor(p) => performers::compressor(p, argv, rest),
        "zip" => performers::zip(argv, rest),
        "rar" => performers::rar(argv, rest),
        "awk" | "gawk" | "mawk" | "nawk" => performers::awk(argv, rest),
        "emacs" | "emacs-nox" | "emacsclient" => performers::emacs(argv, rest),
        "split" | "csplit" | "gsplit" | "gcsplit" => performers::split(program, argv, rest),
        "patch" | "gpatch" => performers::patch(argv, rest, stdin),
        "yq" => {
            // `yq -i EXPR FILE…` / `yq e -i EXPR FILE…`: the expression is not a file.
            if !(has('i', "inplace")) {
                return Described::new(ActionKind::ShellExec, argv);
            }
            let ops = operands(
                rest,
                &[
                    "--arg",
                    "--indent",
                    "-I",
                    "--output-format",
                    "-o",
                    "--input-format",
                    "-p",
                ],
            );
            let skip = 1 + usize::from(
                ops.first()
                    .is_some_and(|o| matches!(o.as_str(), "e" | "eval" | "ea" | "eval-all")),
            );
            Described::new(ActionKind::FileWrite, argv)
                .with_paths(ops.into_iter().skip(skip), PathOp::Write)
        }
        p if performers::writer_spec(p) => performers::writer(p, argv, rest),
        "dd" => {
            let mut d = Described::new(ActionKind::ShellExec, argv);
            for a in rest {
                if let Some(of) = a.strip_prefix("of=") {
                    d.kind = ActionKind::FileWrite;
                    d.paths.push(Touch::new(of, PathOp::Write, Reach::Exact));
                } else if let Some(i) = a.strip_prefix("if=") {
                    d.paths.push(Touch::new(i, PathOp::Read, Reach::Exact));
                }
            }
            d
        }
        p if READERS.contains(&p) => {
            let ops = operands(rest, &["-n", "-c", "--lines", "--bytes"]);
            let ops: Vec<String> = if p == "source" || p == "." {
                ops.into_iter().take(1).collect()
            } else {
                ops.into_iter()
                    .filter(|o| !o.chars().all(|c| c.is_ascii_digit() || c == '+'))
                    .collect()
            };
            let kind = if p == "source" || p == "." {
                ActionKind::ShellExec
            } else {
                ActionKind::FileRead
            };
            Described::new(kind, argv).with_paths(ops, PathOp::Read)
        }
        "git" => git(argv, branch, stdin),
        p if FETCHERS.contains(&p) => {
            let mut d = Described::new(ActionKind::NetFetch, argv);
            d.targets = fetch::urls(p, rest).unwrap_or_else(|| {
                operands(rest, OTHER_FETCHER_VALUE_OPTS)
                    .into_iter()
                    .filter(|o| o.contains("://") || looks_like_host(o))
                    .collect()
            });
            d.paths.extend(fetch::writes(p, rest));
            d.paths.extend(fetch::reads(p, rest));
            d.unplaced.extend(fetch::unplaced(p, rest));
            d
        }
        p if RUNNERS.contains(&p) => {
            let mut d = Described::new(ActionKind::PackageInstall, argv);
            d.targets = operands(rest, &["-p", "--package", "--from", "--with"])
                .into_iter()
                .filter(|o| o != "run")
                .take(1)
                .collect();
            d
        }
        p => {
            let sub = flags.positionals.first().map(String::as_str);
            if let Some(sub) = sub
                && PUBLISHERS
                    .iter()
                    .any(|(prog, subs)| *prog == p && subs.contains(&sub))
                && !publish_dry_run(p, sub, rest, flags.short.contains(&'n'))
                // An image pushed to a registry on this machine (`docker push
                // localhost:5000/app:dev`) is published to no one.
                && !(matches!(p, "docker" | "podman")
                    && flags.positionals.len() > 1
                    && flags
                        .positionals
                        .iter()
                        .skip(1)
                        .all(|r| hookgate_shell::loopback_image(r)))
                // `npm publish --registry http://localhost:4873`: a registry on this machine.
                && !hookgate_shell::local_endpoint_argv(p, rest)
            {
                let mut d = Described::new(ActionKind::PackagePublish, argv);
                d.targets = flags.positionals.get(1..).unwrap_or_default().to_vec();
                if d.targets.is_empty() {
                    d.targets = vec![p.to_owned()];
                }
                return d;
            }
            if let Some(sub) = sub
                && INSTALLERS
                    .iter()
                    .any(|(prog, subs)| *prog == p && subs.contains(&sub))
            {
                let mut d = Described::new(ActionKind::PackageInstall, argv);
                let skip = usize::from(p == "uv" && sub == "pip") + 1;
                d.targets = flags.positionals.get(skip..).unwrap_or_default().to_vec();
                return d;
            }
            Described::new(ActionKind::ShellExec, argv)
        }
    }
}

/// What perl's or ruby's command line holds, read as their option parsers do.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct PerlRubyArgs {
    /// Code given on the line (`-e CODE`, `-pe CODE`, `-eCODE`): no script file is run.
    pub code: bool,
    /// `-i[SUFFIX]` anywhere in a cluster before a letter that takes a value.
    pub in_place: bool,
    /// The script file run when no code is given.
    pub script: Option<String>,
    /// The words after the code or script: the files the program reads (and with `-i`
    /// rewrites).
    pub operands: Vec<String>,
}

/// Parses perl's or ruby's arguments (perlrun, `ruby --help`): options come in clusters
/// (`-pi.bak`, `-lane`); `e` takes the rest of the cluster or the next word as code, `i` the
/// rest of the cluster as a backup suffix (so `-pie CODE` is suffix `e` and a script `CODE`),
/// and the value letters (`-I DIR`, `-Mmod`, `-0777`, ruby's `-r lib`, `-E enc`) take the rest
/// of the cluster (or, for some, the next word). Invariant: code is never taken for a script
/// file and a script or edited file never for code, so the write-then-execute and in-place
/// write judgements see the right words.
pub(crate) fn perl_ruby_args(program: &str, args: &[String]) -> PerlRubyArgs {
    // Letters whose value is the rest of the cluster, or the next word when the cluster ends
    // (`next_word`); letters whose value is the rest of the cluster only (`rest_of_cluster`);
    // letters whose value is only the digits (or code letters) right after them
    // (`counted`, `perl -0777`, `-l0`, `-CSD`, `ruby -T1`, `-W2`): the letters after those
    // are options again, so `-0pi` is `-0 -p -i` — reading `pi` as the value of `-0` hid the
    // in-place edit (and with it the write to the file it names).
    let (next_word, rest_of_cluster): (&str, &str) = if program == "perl" {
        ("eEIMm", "xFdDV")
    } else {
        ("eIrCEK", "xF")
    };
    let counted = |letter: char, c: char| -> bool {
        match (program, letter) {
            (_, '0') => c.is_ascii_hexdigit() || c == 'x' || c == 'X',
            ("perl", 'l') => c.is_digit(8),
            ("perl", 'C') => c.is_ascii_digit() || "IOEioeSDLA".contains(c),
            (_, 'T' | 'W') => c.is_ascii_digit() || c == ':',
            _ => false,
        }
    };
    let mut out = PerlRubyArgs::default();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        if a == "--" {
            break;
        }
        if a == "-" || !a.starts_with('-') {
            i -= 1;
            break;
        }
        if a.starts_with("--") {
            continue;
        }
        let letters: Vec<char> = a[1..].chars().collect();
        let mut k = 0;
        while let Some(&c) = letters.get(k) {
            k += 1;
            if c == 'i' {
                out.in_place = true;
                break;
            }
            if next_word.contains(c) {
                if k == letters.len() {
                    i += 1;
                }
                out.code |= matches!(c, 'e') || (c == 'E' && program == "perl");
                break;
            }
            if rest_of_cluster.contains(c) || (c == 'W' && letters.get(k) == Some(&':')) {
                break;
            }
            while letters.get(k).is_some_and(|&v| counted(c, v)) {
                k += 1;
            }
        }
    }
    let rest = args.get(i..).unwrap_or(&[]);
    match rest.split_first() {
        Some((first, tail)) if !out.code && first != "-" => {
            out.script = Some(first.clone());
            out.operands = tail.to_vec();
        }
        _ => out.operands = rest.iter().filter(|a| *a != "-").cloned().collect(),
    }
    out
}

fn in_place(program: &str, args: &[String]) -> bool {
    args.iter().any(|a| {
        if program == "sed" {
            a == "--in-place"
                || a.starts_with("--in-place=")
                || (a.starts_with('-') && !a.starts_with("--") && a[1..].starts_with('i'))
                || (a.starts_with('-') && !a.starts_with("--") && a.contains('i') && a.len() <= 4)
        } else {
            a.starts_with('-') && !a.starts_with("--") && a.contains('i')
        }
    })
}

fn looks_like_host(s: &str) -> bool {
    let host = s.split('/').next().unwrap_or(s);
    host.contains('.')
        && !host.starts_with('.')
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':'))
        && !Path::new(s).extension().is_some_and(|e| {
            matches!(
                e.to_str(),
                Some("sh" | "json" | "txt" | "md" | "py" | "js" | "ts" | "rs" | "yaml" | "yml")
            )
        })
}

/// `git commit`'s shape.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct CommitInfo {
    pub no_verify: bool,
    pub all: bool,
    pub amend: bool,
    pub paths: Vec<String>,
}

/// Parses `git commit` arguments, consuming option values so a message is never a path or a
/// flag (`git commit -m "-n"` does not skip hooks).
pub(crate) fn commit_info(args: &[String]) -> CommitInfo {
    const LONG_VALUE: &[&str] = &[
        "--message",
        "--file",
        "--reuse-message",
        "--reedit-message",
        "--author",
        "--date",
        "--template",
        "--fixup",
        "--squash",
        "--cleanup",
        "--trailer",
        "--pathspec-from-file",
    ];
    let mut info = CommitInfo::default();
    let mut i = 0;
    let mut only_paths = false;
    while let Some(a) = args.get(i) {
        i += 1;
        if only_paths {
            info.paths.push(a.clone());
        } else if a == "--" {
            only_paths = true;
        } else if let Some(long) = a.strip_prefix("--") {
            let name = long.split('=').next().unwrap_or(long);
            // git accepts unique prefixes (`--no-veri`): read the flag as git does.
            for full in hookgate_shell::long_option_names("git", "commit", &format!("--{name}")) {
                match full.as_str() {
                    "--no-verify" => info.no_verify = true,
                    "--all" => info.all = true,
                    "--amend" => info.amend = true,
                    _ => {}
                }
            }
            if LONG_VALUE.contains(&a.as_str()) {
                i += 1;
            }
        } else if a.len() > 1 && a.starts_with('-') {
            for (k, c) in a[1..].char_indices() {
                match c {
                    'n' => info.no_verify = true,
                    'a' => info.all = true,
                    'm' | 'F' | 'C' | 'c' | 't' => {
                        // The value is the rest of the cluster, or the next word.
                        if k + 2 >= a.len() {
                            i += 1;
                        }
                        break;
                    }
                    _ => {}
                }
            }
        } else {
            info.paths.push(a.clone());
        }
    }
    info
}

/// Whether a `git push` argument list carries `--no-verify`, or a prefix git reads as it
/// (`--no-verif`; an ambiguous prefix counts too, git refuses it anyway).
pub(crate) fn push_no_verify(args: &[String]) -> bool {
    args.iter().take_while(|a| *a != "--").any(|a| {
        a.starts_with("--")
            && hookgate_shell::long_option_names("git", "push", a)
                .iter()
                .any(|n| n == "--no-verify")
    })
}

/// The directory git runs in relative to the cwd (`-C a -C b` = `a/b`), and an explicit
/// `--work-tree`.
fn git_dirs(argv: &[String]) -> (String, Option<String>) {
    let mut dir = String::from(".");
    let mut work_tree = None;
    let mut iter = argv.iter().skip(1);
    while let Some(w) = iter.next() {
        if w == "-C" {
            if let Some(d) = iter.next() {
                dir = if d.starts_with('/') || d.starts_with('~') || dir == "." {
                    d.clone()
                } else {
                    format!("{}/{d}", dir.trim_end_matches('/'))
                };
            }
        } else if w == "--work-tree" {
            work_tree = iter.next().cloned();
        } else if let Some(t) = w.strip_prefix("--work-tree=") {
            work_tree = Some(t.to_owned());
        } else if crate::pattern::GIT_GLOBAL_WITH_VALUE.contains(&w.as_str()) {
            iter.next();
        } else if !w.starts_with('-') {
            break;
        }
    }
    (dir, work_tree)
}

/// Where a git command runs and what its pathspecs name.
struct GitScope {
    /// The directory git runs in, relative to the cwd.
    dir: String,
    /// An explicit `--work-tree`.
    work_tree: Option<String>,
}

impl GitScope {
    fn path(&self, p: &str) -> String {
        if p.starts_with('/') || p.starts_with('~') || self.dir == "." {
            p.to_owned()
        } else {
            format!("{}/{p}", self.dir.trim_end_matches('/'))
        }
    }

    /// The whole worktree: every file git manages or leaves untracked there.
    fn worktree(&self, op: PathOp) -> Touch {
        let mut t = Touch::new(
            self.work_tree.clone().unwrap_or_else(|| self.dir.clone()),
            op,
            Reach::Tree,
        );
        t.base = Base::Worktree;
        t
    }

    /// The trees a list of pathspecs reaches, with `:!x`/`:^x`/`:(exclude)x` as exceptions.
    /// A pathspec with wildcards reaches its literal leading directory; `:/` the worktree.
    /// No (non-excluding) pathspec at all means `default`.
    fn pathspecs(&self, specs: &[String], op: PathOp, default: Option<Touch>) -> Vec<Touch> {
        let mut includes: Vec<Touch> = Vec::new();
        let mut excepts: Vec<RawExcept> = Vec::new();
        for spec in specs {
            let (magic, body) = split_magic(spec);
            if magic.exclude {
                excepts.extend(performers::raw_except(body, &self.dir));
                continue;
            }
            if magic.top {
                let mut t = self.worktree(op);
                if !body.is_empty() {
                    // `:/x` names x at the worktree root; without I/O the root is the
                    // project, so place it under the worktree touch's directory.
                    t = Touch::new(self.path(body), op, Reach::Tree);
                }
                includes.push(t);
                continue;
            }
            let literal: Vec<&str> = body
                .split('/')
                .take_while(|c| magic.literal || !c.contains(['*', '?', '[']))
                .collect();
            let lit = literal.join("/");
            let mut t = Touch::new(
                self.path(if lit.is_empty() { "." } else { &lit }),
                op,
                Reach::Tree,
            );
            let pattern = body
                .split('/')
                .skip(literal.len())
                .collect::<Vec<_>>()
                .join("/");
            if !pattern.is_empty() {
                t.filter = pathspec_filter(&t.raw, &pattern, op);
            }
            includes.push(t);
        }
        if includes.is_empty() {
            includes.extend(default);
        }
        for t in &mut includes {
            t.except.clone_from(&excepts);
        }
        includes
    }
}

/// A wildcard pathspec (`git clean -f -- '*.log'`, `git rm 'build/*.o'`) reaches only the
/// entries below its literal directory whose path matches it, and, when it matches a
/// directory, everything inside: the same selection as `find DIR ( -ipath DIR/PATTERN -o
/// -ipath DIR/PATTERN/* ) -delete`, which [`FindFilter`] judges per protected entry. Git's
/// `*` matches `/` (no `:(glob)` magic) and so does find's `-path`; matching without case
/// (`-ipath`) also covers `:(icase)`, so the filter never selects fewer entries than git.
/// Invariant: `no-governance-self-modification` — a protected entry the pattern may match
/// is still reached. `None` (the whole tree) when the directory as written holds pattern
/// characters itself or the operation is not a deletion or write.
fn pathspec_filter(dir: &str, pattern: &str, op: PathOp) -> Option<Arc<FindFilter>> {
    if dir.contains(['*', '?', '[', '\\']) || !matches!(op, PathOp::Delete | PathOp::Write) {
        return None;
    }
    let full = format!("{}/{pattern}", dir.trim_end_matches('/'));
    let words: Vec<String> = [
        "(",
        "-ipath",
        &full,
        "-o",
        "-ipath",
        &format!("{full}/*"),
        ")",
        "-delete",
    ]
    .iter()
    .map(|w| (*w).to_owned())
    .collect();
    Some(Arc::new(FindFilter::parse(&words, find::Interest::Delete)))
}

#[derive(Default)]
struct Magic {
    exclude: bool,
    top: bool,
    literal: bool,
}

/// Git pathspec magic: `:!x`, `:^x`, `:/x`, `:(exclude,top,literal,glob,icase)x`.
fn split_magic(spec: &str) -> (Magic, &str) {
    let mut m = Magic::default();
    let Some(rest) = spec.strip_prefix(':') else {
        return (m, spec);
    };
    if let Some(long) = rest.strip_prefix('(') {
        let Some((words, body)) = long.split_once(')') else {
            return (m, spec);
        };
        for w in words.split(',') {
            match w.trim() {
                "exclude" => m.exclude = true,
                "top" => m.top = true,
                "literal" => m.literal = true,
                _ => {}
            }
        }
        return (m, body);
    }
    let mut body = rest;
    while let Some(c) = body.chars().next() {
        match c {
            '!' | '^' => m.exclude = true,
            '/' => m.top = true,
            _ => break,
        }
        body = &body[1..];
    }
    if let Some(b) = body.strip_prefix(':') {
        body = b;
    }
    (m, body)
}

/// The value of a long option given as `--name=value` or `--name value`.
pub(crate) fn flags_value(rest: &[String], name: &str) -> Option<String> {
    let mut iter = rest.iter();
    while let Some(a) = iter.next() {
        if a == name {
            return iter.next().cloned();
        }
        if let Some(v) = a.strip_prefix(name).and_then(|v| v.strip_prefix('=')) {
            return Some(v.to_owned());
        }
    }
    None
}

/// The subcommand of `git stash` (`push`, `pop`, …; `None` when none is named), read
/// before any `--` and past the values of `-m`/`--message`/`--pathspec-from-file`: `git
/// stash -u -m wip -- .claude` is a `push` — git takes pathspecs after `--` without the word —
/// not a subcommand named `wip` or `.claude`.
fn stash_subcommand(rest: &[String]) -> Option<String> {
    let before = rest.split(|a| a == "--").next().unwrap_or_default();
    operands(before, &["-m", "--message", "--pathspec-from-file"])
        .into_iter()
        .next()
}

/// Pathspecs of a git command: after `--`, else the positionals.
fn after_dashdash(rest: &[String]) -> Option<Vec<String>> {
    rest.iter()
        .position(|a| a == "--")
        .map(|i| rest[i + 1..].to_vec())
}

fn git(argv: &[String], branch: Option<&str>, stdin: Option<&Text>) -> Described {
    let after = args_after_globals(argv);
    let Some((sub, rest)) = after.split_first() else {
        return Described::new(ActionKind::GitOther, argv);
    };
    // `git filter-repo --help`, `git push --help`: git turns `git SUB --help` into `git help
    // SUB`, which shows the manual and runs nothing (only right after the subcommand: later,
    // a script's own parser may read it otherwise).
    if rest.first().is_some_and(|a| a == "--help") {
        return Described::new(ActionKind::GitOther, argv);
    }
    let (dir, work_tree) = git_dirs(argv);
    let scope = GitScope { dir, work_tree };
    let flags = split_flags(rest);
    let has = |short: char, long: &str| flags.short.contains(&short) || flags.long.contains(long);
    let d = |kind| Described::new(kind, argv);
    let from_file = flags.long.contains("pathspec-from-file");
    match sub.as_str() {
        "push" => git_push(argv, rest, branch),
        "commit" => {
            let info = commit_info(rest);
            let mut out = d(ActionKind::GitCommit);
            out.targets = info.paths;
            out
        }
        "reset" if has('\0', "hard") || has('\0', "merge") || has('\0', "keep") => {
            let mut out = d(ActionKind::GitDiscard);
            out.paths.push(scope.worktree(PathOp::Write));
            out
        }
        "clean" if has('f', "force") && !has('n', "dry-run") => {
            let mut excludes = Vec::new();
            let mut iter = rest.iter();
            while let Some(a) = iter.next() {
                if a == "-e" || a == "--exclude" {
                    excludes.extend(iter.next().cloned());
                } else if let Some(v) = a.strip_prefix("--exclude=") {
                    excludes.push(v.to_owned());
                } else if let Some(v) = a.strip_prefix("-e").filter(|v| !v.is_empty()) {
                    excludes.push(v.to_owned());
                }
            }
            let specs = operands(rest, &["-e", "--exclude"]);
            let mut touches = scope.pathspecs(
                &specs,
                PathOp::Delete,
                Some(Touch::new(scope.dir.clone(), PathOp::Delete, Reach::Tree)),
            );
            for t in &mut touches {
                t.except.extend(
                    excludes
                        .iter()
                        .filter_map(|e| performers::raw_except(e, &scope.dir)),
                );
            }
            let mut out = d(ActionKind::GitDiscard);
            out.paths = touches;
            out
        }
        "checkout" => {
            // `git checkout [<tree-ish>] [--] <pathspec>…` overwrites the named paths;
            // `git checkout <branch>` switches. Two or more words before `--` are a tree-ish
            // and paths; one word is a branch *or* a path (git decides by what exists), so
            // it is judged as a path too, without counting as discarding work.
            let explicit = after_dashdash(rest);
            let before: Vec<String> = operands(
                rest.split(|a| a == "--").next().unwrap_or_default(),
                &["-b", "-B", "--orphan", "--conflict", "--pathspec-from-file"],
            );
            let branching = has('b', "\0") || has('B', "orphan");
            let pathspec = explicit.is_some()
                || (!branching && before.len() >= 2)
                || before.iter().any(|p| p == "." || p.starts_with(':'));
            if from_file {
                let mut out = d(ActionKind::GitDiscard);
                out.paths = vec![scope.worktree(PathOp::Write)];
                out
            } else if pathspec {
                let specs = explicit.unwrap_or_else(|| {
                    if before.len() >= 2 && !before.iter().any(|p| p == "." || p.starts_with(':')) {
                        before[1..].to_vec()
                    } else {
                        before.clone()
                    }
                });
                let mut out = d(ActionKind::GitDiscard);
                out.paths = scope.pathspecs(&specs, PathOp::Write, None);
                out
            } else if has('f', "force") {
                let mut out = d(ActionKind::GitDiscard);
                out.paths.push(scope.worktree(PathOp::Write));
                out
            } else {
                let mut out = d(ActionKind::GitOther);
                if !branching {
                    out.paths = scope.pathspecs(&before, PathOp::Write, None);
                }
                out
            }
        }
        "checkout-index" => {
            // Writes index entries into the worktree (`-a` all of them), or below a
            // `--prefix` (string-prefixed, as git does).
            let prefix = flags_value(rest, "--prefix");
            let names = operands(rest, &["--prefix", "--stage", "-z"]);
            let all = has('a', "all") || flags.long.contains("stdin");
            let kind = if has('f', "force") {
                ActionKind::GitDiscard
            } else {
                ActionKind::GitOther
            };
            let mut out = d(kind);
            match (&prefix, all) {
                (Some(p), true) => {
                    let dir = p.rsplit_once('/').map_or(".", |(d, _)| d);
                    out.paths.push(Touch::new(
                        scope.path(if dir.is_empty() { "/" } else { dir }),
                        PathOp::Write,
                        Reach::Tree,
                    ));
                }
                (None, true) => out.paths.push(scope.worktree(PathOp::Write)),
                (Some(p), false) => {
                    for n in &names {
                        out.paths.push(Touch::new(
                            scope.path(&format!("{p}{n}")),
                            PathOp::Write,
                            Reach::Exact,
                        ));
                    }
                }
                (None, false) => {
                    for n in &names {
                        out.paths
                            .push(Touch::new(scope.path(n), PathOp::Write, Reach::Exact));
                    }
                }
            }
            out
        }
        "read-tree" if has('u', "\0") || flags.long.contains("prefix") => {
            // `-u` updates the worktree to the tree read; with `--reset`/`-m` it throws away
            // local changes as `reset --hard` does.
            let kind = if has('m', "reset") {
                ActionKind::GitDiscard
            } else {
                ActionKind::GitOther
            };
            let mut out = d(kind);
            match flags_value(rest, "--prefix") {
                Some(p) => out
                    .paths
                    .push(Touch::new(scope.path(&p), PathOp::Write, Reach::Tree)),
                None => out.paths.push(scope.worktree(PathOp::Write)),
            }
            out
        }
        "sparse-checkout"
            if matches!(
                flags.positionals.first().map(String::as_str),
                Some("set" | "add" | "reapply" | "init" | "disable")
            ) =>
        {
            // Removes tracked files outside the new patterns from the worktree (and writes
            // them back on `disable`).
            let mut out = d(ActionKind::GitOther);
            out.paths.push(scope.worktree(PathOp::Delete));
            out
        }
        // A clone or a new submodule checks a whole tree out into its directory (named, or
        // git's "humanish" part of the URL: `git clone https://x/.claude` makes `.claude`).
        "clone" | "submodule" => {
            let ops = operands(
                rest,
                &[
                    "-o",
                    "--origin",
                    "-b",
                    "--branch",
                    "-u",
                    "--upload-pack",
                    "--reference",
                    "--reference-if-able",
                    "--separate-git-dir",
                    "--depth",
                    "--shallow-since",
                    "--shallow-exclude",
                    "-c",
                    "--config",
                    "--server-option",
                    "-j",
                    "--jobs",
                    "--filter",
                    "--template",
                    "--bundle-uri",
                    "--ref-format",
                    "--name",
                ],
            );
            let ops = if sub == "submodule" {
                match ops.split_first() {
                    Some((first, tail)) if first == "add" => tail.to_vec(),
                    _ => return d(ActionKind::GitOther),
                }
            } else {
                ops
            };
            let mut out = d(ActionKind::GitOther);
            let dir = ops.get(1).cloned().or_else(|| {
                let url = ops.first()?.trim_end_matches('/');
                let last = url.rsplit(['/', ':']).next()?;
                let name = last.strip_suffix(".git").unwrap_or(last);
                (!name.is_empty()).then(|| name.to_owned())
            });
            if let Some(dir) = dir {
                out.paths
                    .push(Touch::new(scope.path(&dir), PathOp::Write, Reach::Tree));
            }
            out
        }
        "worktree" if flags.positionals.first().is_some_and(|p| p == "add") => {
            // Checks a tree out into the path (`-f` even over an existing one).
            let ops = operands(rest, &["-b", "-B", "--reason", "--orphan"]);
            let mut out = d(ActionKind::GitOther);
            if let Some(path) = ops.get(1) {
                out.paths
                    .push(Touch::new(scope.path(path), PathOp::Write, Reach::Tree));
            }
            out
        }
        "apply" | "am" => performers::git_apply(
            sub,
            argv,
            rest,
            &scope.dir,
            scope.worktree(PathOp::Write),
            stdin,
        ),
        "restore" if !has('S', "staged") || has('W', "worktree") => {
            let specs = after_dashdash(rest)
                .unwrap_or_else(|| operands(rest, &["-s", "--source", "--pathspec-from-file"]));
            let mut out = d(ActionKind::GitDiscard);
            out.paths = if from_file {
                vec![scope.worktree(PathOp::Write)]
            } else {
                scope.pathspecs(&specs, PathOp::Write, None)
            };
            out
        }
        "switch" if has('f', "discard-changes") || flags.long.contains("force") => {
            let mut out = d(ActionKind::GitDiscard);
            out.paths.push(scope.worktree(PathOp::Write));
            out
        }
        "stash"
            if matches!(
                flags.positionals.first().map(String::as_str),
                Some("drop" | "clear")
            ) =>
        {
            d(ActionKind::GitDiscard)
        }
        "stash"
            if !(has('u', "include-untracked") || has('a', "all"))
                && matches!(stash_subcommand(rest).as_deref(), None | Some("push")) =>
        {
            // Stashing named paths puts their tracked changes away: the files are rewritten
            // to HEAD (`git stash push -- .claude`). Without paths, every tracked change is
            // (not judged here: the worktree's state decides whether that touches anything).
            let specs = after_dashdash(rest).unwrap_or_else(|| {
                operands(rest, &["-m", "--message", "--pathspec-from-file"])
                    .into_iter()
                    .skip(1)
                    .collect()
            });
            let mut out = d(ActionKind::GitOther);
            out.paths = scope.pathspecs(&specs, PathOp::Write, None);
            out
        }
        // The subcommand is read before `--` (`stash_subcommand`).
        "stash"
            if matches!(
                stash_subcommand(rest).as_deref(),
                None | Some("push" | "save")
            ) && (has('u', "include-untracked") || has('a', "all")) =>
        {
            // Untracked (and with -a ignored) files are removed from the worktree: an
            // untracked `.claude/` disappears with them.
            let specs = after_dashdash(rest).unwrap_or_else(|| {
                if flags.positionals.first().is_some_and(|p| p == "push") {
                    operands(rest, &["-m", "--message", "--pathspec-from-file"])
                        .into_iter()
                        .skip(1)
                        .collect()
                } else {
                    Vec::new()
                }
            });
            let mut out = d(ActionKind::GitOther);
            out.paths =
                scope.pathspecs(&specs, PathOp::Delete, Some(scope.worktree(PathOp::Delete)));
            out
        }
        "worktree"
            if flags.positionals.first().is_some_and(|p| p == "remove") && has('f', "force") =>
        {
            let mut out = d(ActionKind::GitDiscard);
            for p in flags.positionals.iter().skip(1) {
                out.paths
                    .push(Touch::new(scope.path(p), PathOp::Delete, Reach::Tree));
            }
            out
        }
        "branch" if has('d', "delete") || has('D', "\0") => {
            let mut out = d(ActionKind::GitBranchDelete);
            out.branches.clone_from(&flags.positionals);
            out.targets = flags.positionals;
            out
        }
        // `git replace` is not here: it writes refs under refs/replace/ in the local
        // repository and rewrites no commit (`git replace -d` undoes it); what it does to
        // what history shows is the analyzer's `git.replace_object` ask, and listing or
        // deleting replacements is a read or an undo.
        // `git filter-repo --analyze` writes a report and `--dry-run` rewrites nothing.
        "filter-repo"
            if rest
                .iter()
                .any(|a| matches!(a.as_str(), "--analyze" | "--dry-run")) =>
        {
            d(ActionKind::GitOther)
        }
        "filter-branch" | "filter-repo" | "rebase" => d(ActionKind::GitHistoryRewrite),
        "reflog"
            if matches!(
                flags.positionals.first().map(String::as_str),
                Some("expire" | "delete")
            ) =>
        {
            d(ActionKind::GitHistoryRewrite)
        }
        "update-ref" if has('d', "\0") => d(ActionKind::GitHistoryRewrite),
        "gc" if flags.long.contains("prune") => d(ActionKind::GitHistoryRewrite),
        "rm" if !flags.long.contains("cached") => {
            let specs = after_dashdash(rest).unwrap_or_else(|| flags.positionals.clone());
            let mut out = d(ActionKind::FileDelete);
            out.paths = if from_file {
                vec![scope.worktree(PathOp::Delete)]
            } else {
                scope.pathspecs(&specs, PathOp::Delete, None)
            };
            out
        }
        "mv" => {
            let mut ops: Vec<String> = flags.positionals.iter().map(|p| scope.path(p)).collect();
            let dest = if ops.len() >= 2 { ops.pop() } else { None };
            d(ActionKind::FileMove)
                .with_trees(ops, PathOp::Move)
                .with_trees(dest, PathOp::Write)
        }
        _ => d(ActionKind::GitOther),
    }
}

fn git_push(argv: &[String], rest: &[String], branch: Option<&str>) -> Described {
    let flags = split_flags(rest);
    // `-n`/`--dry-run` (or a unique prefix, `--dry`) reports what would be pushed and pushes
    // nothing: no branch is touched, so no push rule applies.
    let dry_run = flags.short.contains(&'n')
        || flags
            .long
            .iter()
            .any(|l| l.len() >= 2 && "dry-run".starts_with(l.as_str()));
    if dry_run {
        return Described::new(ActionKind::ShellExec, argv);
    }
    let mut force = flags.short.contains(&'f')
        || flags.long.contains("force")
        || flags.long.contains("force-with-lease")
        || flags.long.contains("mirror");
    let mut delete = flags.short.contains(&'d') || flags.long.contains("delete");
    let all = flags.long.contains("all") || flags.long.contains("mirror");
    let positionals = operands(rest, PUSH_VALUE_OPTS);
    let refspecs = positionals.get(1..).unwrap_or_default();
    let mut branches = Vec::new();
    for spec in refspecs {
        let mut spec = spec.as_str();
        if let Some(s) = spec.strip_prefix('+') {
            force = true;
            spec = s;
        }
        let dst = match spec.split_once(':') {
            Some(("", dst)) if !dst.is_empty() => {
                delete = true;
                dst
            }
            Some((_, "")) | None => spec,
            Some((_, dst)) => dst,
        };
        let dst = if dst == "HEAD" || dst.is_empty() {
            branch.unwrap_or("HEAD")
        } else {
            dst
        };
        let dst = dst.strip_prefix("refs/heads/").unwrap_or(dst);
        branches.push(dst.to_owned());
    }
    if all {
        branches.push("*".to_owned());
    }
    if branches.is_empty()
        && !flags.long.contains("tags")
        && let Some(b) = branch
    {
        branches.push(b.to_owned());
    }
    let kind = if delete {
        ActionKind::GitBranchDelete
    } else if force {
        ActionKind::GitForcePush
    } else {
        ActionKind::GitPush
    };
    Described {
        kind,
        targets: branches.clone(),
        paths: Vec::new(),
        branches,
        unplaced: Vec::new(),
        links: Vec::new(),
        diff_files: Vec::new(),
    }
    .with_argv_fallback(argv)
}

impl Described {
    fn with_argv_fallback(mut self, argv: &[String]) -> Self {
        if self.targets.is_empty() {
            self.targets = vec![argv.join(" ")];
        }
        self
    }
}

/// Whether a publisher's words ask for a dry run, read as its option parser reads them: a
/// unique prefix of `--dry-run` where the tool accepts one (`npm publish --dry`, via the shell
/// analyzer's option tables), an explicit `=true` only, and the last of `--dry-run` /
/// `--no-dry-run` winning (`npm publish --dry-run --no-dry-run` publishes). `short_n` is
/// whether a short cluster holds `-n` (cargo's `--dry-run`).
fn publish_dry_run(program: &str, sub: &str, rest: &[String], short_n: bool) -> bool {
    let mut dry = short_n;
    for w in rest {
        if w == "--" {
            break;
        }
        let Some(long) = w.strip_prefix("--") else {
            continue;
        };
        let (name, value) = long
            .split_once('=')
            .map_or((long, None), |(n, v)| (n, Some(v)));
        let (negated, name) = name
            .strip_prefix("no-")
            .map_or((false, name), |n| (true, n));
        let names = hookgate_shell::long_option_names(program, sub, &format!("--{name}"));
        if names.len() == 1 && names.first().is_some_and(|n| n == "--dry-run") {
            dry = !negated && value.is_none_or(|v| v.eq_ignore_ascii_case("true"));
        }
    }
    dry
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn git_push_targets_are_destination_branches() {
        let d = describe(&v("git push origin feature"), Some("main"));
        assert_eq!((d.kind, d.branches), (ActionKind::GitPush, v("feature")));
        let d = describe(&v("git push"), Some("main"));
        assert_eq!(d.branches, v("main"));
        let d = describe(&v("git push origin HEAD:refs/heads/main"), Some("x"));
        assert_eq!(d.branches, v("main"));
        let d = describe(&v("git push origin +dev"), None);
        assert_eq!((d.kind, d.branches), (ActionKind::GitForcePush, v("dev")));
        let d = describe(&v("git push -o ci.skip origin main"), None);
        assert_eq!(d.branches, v("main"));
        let d = describe(&v("git push origin :old"), None);
        assert_eq!(
            (d.kind, d.branches),
            (ActionKind::GitBranchDelete, v("old"))
        );
        let d = describe(&v("git push --force-with-lease origin main"), None);
        assert_eq!(d.kind, ActionKind::GitForcePush);
    }

    #[test]
    fn commit_messages_are_values_not_flags_or_paths() {
        let i = commit_info(&v("-m -n"));
        assert!(!i.no_verify && i.paths.is_empty());
        let i = commit_info(&v("-nm msg"));
        assert!(i.no_verify);
        let i = commit_info(&v("-am msg src/a.rs"));
        assert!(i.all && !i.no_verify);
        assert_eq!(i.paths, v("src/a.rs"));
        let i = commit_info(&v("-mfix --no-verify"));
        assert!(i.no_verify);
    }

    fn pairs(d: &Described) -> Vec<(String, PathOp)> {
        d.paths.iter().map(|t| (t.raw.clone(), t.op)).collect()
    }

    #[test]
    fn write_operands_of_common_commands() {
        let d = describe(&v("cp a b c dest/"), None);
        assert!(pairs(&d).contains(&("dest/c".into(), PathOp::Write)));
        assert!(
            !pairs(&d).contains(&("dest/".into(), PathOp::Write)),
            "several sources go into the directory"
        );
        let d = describe(&v("sed -i s/a/b/ f.txt"), None);
        assert_eq!(pairs(&d), vec![("f.txt".into(), PathOp::Write)]);
        let d = describe(&v("sed -i -e s/a/b/ f.txt"), None);
        assert_eq!(pairs(&d), vec![("f.txt".into(), PathOp::Write)]);
        let d = describe(&v("chmod 000 x"), None);
        assert_eq!(pairs(&d), vec![("x".into(), PathOp::Write)]);
        let d = describe(&v("mv -t dir a b"), None);
        assert!(pairs(&d).contains(&("dir/b".into(), PathOp::Write)));
        let d = describe(&v("sed s/a/b/ f.txt"), None);
        assert_eq!(d.kind, ActionKind::ShellExec);
    }

    /// perl and ruby read option clusters: `e` takes code (rest of the cluster or the next
    /// word), `i` an attached backup suffix; the in-place files are the words after the code.
    #[test]
    fn perl_and_ruby_in_place_edits_write_their_files_and_never_their_code() {
        let cases: &[(&str, Vec<(String, PathOp)>)] = &[
            (
                "ruby -i -pe gsub(/200/,'201') src/main.py",
                vec![("src/main.py".into(), PathOp::Write)],
            ),
            (
                "perl -i -pe s/a/b/ src/a.py src/b.py",
                vec![
                    ("src/a.py".into(), PathOp::Write),
                    ("src/b.py".into(), PathOp::Write),
                ],
            ),
            (
                "perl -pi -e s/a/b/ f.txt",
                vec![("f.txt".into(), PathOp::Write)],
            ),
            (
                "perl -i.bak -pe s/a/b/ f.txt",
                vec![("f.txt".into(), PathOp::Write)],
            ),
            (
                "ruby -pi.orig -e x f.txt",
                vec![("f.txt".into(), PathOp::Write)],
            ),
            (
                "perl -pi -es/a/b/ f.txt",
                vec![("f.txt".into(), PathOp::Write)],
            ),
            (
                "perl -I lib -i -pe x f.txt",
                vec![("f.txt".into(), PathOp::Write)],
            ),
            // `-0`, `-l`, `-C`, `-T`, `-W` take only the digits (or code letters) after them:
            // the letters that follow are options again, `i` among them.
            (
                "perl -0pi -e s/a/b/ f.txt",
                vec![("f.txt".into(), PathOp::Write)],
            ),
            (
                "perl -0777pi -e s/a/b/ f.txt",
                vec![("f.txt".into(), PathOp::Write)],
            ),
            (
                "perl -0pi.bak -e s/a/b/ f.txt",
                vec![("f.txt".into(), PathOp::Write)],
            ),
            (
                "perl -l0pi -e x f.txt",
                vec![("f.txt".into(), PathOp::Write)],
            ),
            (
                "perl -CSDpi -e x f.txt",
                vec![("f.txt".into(), PathOp::Write)],
            ),
            (
                "ruby -0pi -e x f.txt",
                vec![("f.txt".into(), PathOp::Write)],
            ),
            (
                "ruby -W0pi -e x f.txt",
                vec![("f.txt".into(), PathOp::Write)],
            ),
            // `-pie` is suffix `e`: the next word is the script, the rest are edited.
            (
                "perl -pie s/a/b/ f.txt",
                vec![("f.txt".into(), PathOp::Write)],
            ),
        ];
        for (line, want) in cases {
            let d = describe(&v(line), None);
            assert_eq!(&pairs(&d), want, "{line}");
        }
        for line in [
            "perl -ne print f.txt",
            "ruby -e 'puts 1' f.txt",
            "perl -e -i f.txt",
        ] {
            assert_eq!(
                describe(&v(line), None).kind,
                ActionKind::ShellExec,
                "{line}"
            );
        }
        let args = |l: &str| {
            let w: Vec<String> = l.split(' ').map(str::to_owned).collect();
            perl_ruby_args(&w[0], &w[1..])
        };
        assert_eq!(args("ruby -i -pe CODE f").script, None);
        assert_eq!(
            args("ruby -E UTF-8 run.rb x").script.as_deref(),
            Some("run.rb")
        );
        assert_eq!(args("perl -E say f").script, None);
        assert_eq!(args("perl -w -Ilib t/x.t").script.as_deref(), Some("t/x.t"));
        assert_eq!(args("perl -pie CODE f").script.as_deref(), Some("CODE"));
    }

    /// One source and a destination that may be a directory: both readings, the file one
    /// first, each marked so the file system can settle it; a target directory (`-t`, a
    /// trailing `/`) has only the directory reading, `-T` only the file.
    #[test]
    fn copy_destinations_are_the_file_or_the_directory_reading() {
        let readings = |line: &str| -> Vec<(String, Option<bool>)> {
            describe(&v(line), None)
                .paths
                .iter()
                .filter(|t| t.op == PathOp::Write)
                .map(|t| (t.raw.clone(), t.reading.as_ref().map(|r| r.1)))
                .collect()
        };
        let both = |file: &str, inside: &str| {
            vec![
                (file.to_owned(), Some(false)),
                (inside.to_owned(), Some(true)),
            ]
        };
        assert_eq!(
            readings("cp k /tmp/notes.txt"),
            both("/tmp/notes.txt", "/tmp/notes.txt/k")
        );
        assert_eq!(
            readings("install -m 755 s/x.sh ~/.local/bin/acme-x"),
            both("~/.local/bin/acme-x", "~/.local/bin/acme-x/x.sh")
        );
        assert_eq!(readings("mv a b"), both("b", "b/a"));
        assert_eq!(
            readings("install -m755 x ~/.local/bin/"),
            vec![("~/.local/bin/x".to_owned(), None)]
        );
        assert_eq!(readings("cp -t d a"), vec![("d/a".to_owned(), None)]);
        assert_eq!(readings("cp -T a d"), vec![("d".to_owned(), None)]);
        assert_eq!(readings("cp -r src/. d"), vec![("d".to_owned(), None)]);
    }

    #[test]
    fn git_worktree_commands_reach_the_whole_worktree_or_their_pathspecs() {
        let tree = |line: &str| -> Vec<(String, PathOp, Reach, Base, usize)> {
            describe(&v(line), None)
                .paths
                .iter()
                .map(|t| (t.raw.clone(), t.op, t.reach, t.base.clone(), t.except.len()))
                .collect()
        };
        assert_eq!(
            tree("git reset --hard"),
            vec![(".".into(), PathOp::Write, Reach::Tree, Base::Worktree, 0)]
        );
        assert_eq!(
            tree("git stash -u"),
            vec![(".".into(), PathOp::Delete, Reach::Tree, Base::Worktree, 0)]
        );
        assert_eq!(
            tree("git -C sub clean -fd -e .claude"),
            vec![("sub".into(), PathOp::Delete, Reach::Tree, Base::Cwd, 1)]
        );
        assert_eq!(
            tree("git checkout -- . :!.claude"),
            vec![(".".into(), PathOp::Write, Reach::Tree, Base::Cwd, 1)]
        );
        assert_eq!(
            tree("git restore src/a.rs"),
            vec![("src/a.rs".into(), PathOp::Write, Reach::Tree, Base::Cwd, 0)]
        );
        assert!(tree("git stash").is_empty());
        assert!(tree("git clean -n").is_empty());
        assert!(tree("git restore --staged x").is_empty());
    }
}
