//! hookgate-shell: decides what a shell command line will actually execute, and how dangerous
//! that is.
//!
//! The coding-agent guard and the engine's built-ins call [`analyze`] before a `Bash`-style tool
//! runs. The input is parsed with a real bash grammar (tree-sitter-bash), every simple command
//! is resolved (quote removal, escapes, ANSI-C strings, wrappers such as `sudo`/`env`/`xargs`,
//! nested `bash -c`/`eval`, interpreter one-liners, heredocs and pipes into shells) and each is
//! classified against a taxonomy kept as data (`taxonomy.toml`). A line is as dangerous as its
//! worst part.
//!
//! What this crate must never do:
//! * I/O of any kind (no environment, no file system, no clock): the caller passes a
//!   [`Context`], so the same input always gives the same verdict and the crate can be fuzzed.
//! * Panic: malformed or hostile input yields [`Class::Unknown`], never a crash (a crashed hook
//!   is fail-open in most agents).
//! * Allow what it cannot resolve: computed command names, parse errors and exceeded limits are
//!   `unknown` (the default policy asks).
//! * Decide on raw text: every decision is made on parsed words, never by substring search, so
//!   `echo "rm -rf /"`, commit messages, grep patterns and heredocs fed to `cat` stay data.

mod argdanger;
mod chain;
pub mod cli;
mod code;
mod contained;
mod control;
mod dbtarget;
mod debugport;
mod deferred;
mod deploy;
mod dialect;
mod discard;
mod ex;
mod expand;
mod exposure;
mod flow;
mod hazards;
mod identity;
mod interp;
mod issuer;
mod listed;
mod model;
mod name_hash;
mod named;
mod names;
mod optexec;
mod plain_list;
mod plain_python;
mod pwsh;
mod resolve;
mod runners;
mod sdk;
mod sed;
mod state;
mod targets;
mod taxonomy;
mod terminals;
mod tongues;
mod unknown_cli;
mod walk;

use tree_sitter::Parser;

pub use model::{
    Action, Analysis, BlastRadius, Channel, Class, Context, Effect, EffectOp, ExecutedCommand,
    Flow, FlowSink, FlowSource, Limits, ParseStatus, Text, Verdict, WorkDir, default_temp_dirs,
};

pub use argdanger::chmod_tightens;
/// Whether a branch name is a long-lived shared branch (`main`, `master`, `develop`,
/// `release/*`, …): the list the git rules and the guard's branch lookup share.
pub use argdanger::is_shared_branch;
pub use argdanger::option_variable_loads_code;
pub use contained::{
    local_endpoint_argv, loopback_image, npm_publishes_locally_argv, project_hooks_dir,
};
pub use identity::token_producer;
pub use optexec::shell_calls as make_shell_calls;
pub use resolve::is_dotenv_name;
pub use resolve::{found_root, found_roots};
pub use sed::inserted_text as sed_inserted_text;

use crate::targets::Cwd;

/// The long options a flag stands for in a tool that accepts unique prefixes (git per
/// subcommand, GNU tools): `("git", "commit", "--no-veri")` → `["--no-verify"]`; an ambiguous
/// prefix gives every reading, a flag the tool's table does not know gives itself. The policy
/// reads flags through this so `--no-verif` is `--no-verify` there too.
pub fn long_option_names(program: &str, subcommand: &str, flag: &str) -> Vec<String> {
    match taxonomy::long_option(program, subcommand, flag) {
        taxonomy::LongOption::Unlisted => vec![flag.to_owned()],
        taxonomy::LongOption::Exact(full) => vec![full.to_owned()],
        taxonomy::LongOption::Ambiguous(all) => all.into_iter().map(str::to_owned).collect(),
    }
}
use crate::walk::{Scope, Walker};

/// Errors building an [`Analyzer`].
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The bundled grammar does not match the tree-sitter runtime (a build problem).
    #[error("bash grammar is incompatible with the tree-sitter runtime: {0}")]
    Grammar(String),
}

/// A reusable analyzer. Owns the parser so repeated calls (benchmarks, a long-lived engine) do
/// not pay the parser set-up each time; it holds no state between calls otherwise.
pub struct Analyzer {
    parser: Parser,
    code: code::Parsers,
    limits: Limits,
    fast_path: bool,
}

impl std::fmt::Debug for Analyzer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Analyzer")
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

impl Analyzer {
    /// An analyzer with default [`Limits`].
    pub fn new() -> Result<Self, Error> {
        Self::with_limits(Limits::default())
    }

    /// An analyzer with explicit limits.
    pub fn with_limits(limits: Limits) -> Result<Self, Error> {
        let mut parser = Parser::new();
        parser
            .set_language(&tree_sitter_bash::LANGUAGE.into())
            .map_err(|e| Error::Grammar(e.to_string()))?;
        Ok(Self {
            parser,
            code: code::Parsers::default(),
            limits,
            fast_path: true,
        })
    }

    /// Turns the plain-words fast path off (for differential tests against the full parser).
    #[doc(hidden)]
    pub fn set_fast_path(&mut self, on: bool) {
        self.fast_path = on;
    }

    /// Analyses one command line relative to `ctx`.
    pub fn analyze(&mut self, command: &str, ctx: &Context) -> Analysis {
        if command.len() > self.limits.max_input_bytes {
            return failed(
                ParseStatus::LimitExceeded(format!(
                    "input longer than {} bytes",
                    self.limits.max_input_bytes
                )),
                "the command is too long to analyse",
            );
        }
        match prescan(command, &self.limits) {
            Ok(()) => {}
            Err(Prescan::TooDeep(reason)) => {
                return failed(ParseStatus::LimitExceeded(reason.clone()), &reason);
            }
            Err(Prescan::Unrepresentable(reason)) => {
                return failed(ParseStatus::Error(reason.to_owned()), reason);
            }
        }
        if command.trim().is_empty() {
            return Analysis {
                parse: ParseStatus::Empty,
                commands: Vec::new(),
                verdict: Verdict::safe("empty command"),
                unattached: Vec::new(),
                secret_files: Vec::new(),
                stdin_files: Vec::new(),
            };
        }
        let mut scope = Scope::new(Cwd::Known(ctx.cwd.clone()));
        if let Some(script) = &ctx.script {
            scope.sh.zero = state::Val::Known(script.clone());
        }
        if self.fast_path {
            match fast_line(command) {
                Fast::Words(argv) => {
                    let mut walker =
                        Walker::new(&mut self.parser, &mut self.code, ctx, self.limits);
                    let out = walker.exec(&argv, &mut scope, walk::Producer::Nothing);
                    walker.judge_shown(&out, 0, &scope);
                    return conclude(walker, &scope);
                }
                // `npm install && npm test`, `cd x && y`, `grep x f | head`: plain commands
                // joined by `|`, `&&`, `||`, `;`.
                Fast::List(line) => {
                    let mut walker =
                        Walker::new(&mut self.parser, &mut self.code, ctx, self.limits);
                    walker.plain_line(&line, &mut scope);
                    return conclude(walker, &scope);
                }
                Fast::Redirected(line) => {
                    let mut walker =
                        Walker::new(&mut self.parser, &mut self.code, ctx, self.limits);
                    walker.plain_redirected(&line, &mut scope);
                    return conclude(walker, &scope);
                }
                Fast::Grammar => {}
            }
        }
        // A `<>` redirection is bash the grammar lacks (see `flow::without_rw_redirects`).
        let Some((tree, repaired)) = flow::parse_repairing(&mut self.parser, command) else {
            return failed(
                ParseStatus::Error("the parser gave no tree".into()),
                "the command could not be parsed",
            );
        };
        let command = repaired.as_deref().unwrap_or(command);
        let root = tree.root_node();
        if root.has_error() {
            let detail = first_error(root, command);
            return failed(
                ParseStatus::Error(detail),
                "the command does not parse as bash, so what it runs is unknown",
            );
        }
        let mut walker = Walker::new(&mut self.parser, &mut self.code, ctx, self.limits);
        walker.fast_path = self.fast_path;
        walker.block(root, command, &mut scope, 0);
        conclude(walker, &scope)
    }
}

/// The analysis once the line was walked: exit traps run, then the records are gathered.
fn conclude(mut walker: Walker<'_>, scope: &Scope) -> Analysis {
    walker.run_exit_traps(scope);
    let secret_files = walker.files.written_secrets();
    let (commands, extra, stdin_files) = walker.finish();
    finish(commands, extra, secret_files, stdin_files)
}

fn finish(
    commands: Vec<ExecutedCommand>,
    extra: Vec<Verdict>,
    secret_files: Vec<(std::path::PathBuf, FlowSource)>,
    stdin_files: Vec<(usize, std::path::PathBuf)>,
) -> Analysis {
    let verdict = commands
        .iter()
        .map(|c| &c.verdict)
        .chain(extra.iter())
        .max_by_key(|v| v.severity())
        .cloned()
        .unwrap_or_else(|| Verdict::safe("no command is executed"));
    let parse = if commands.is_empty() && extra.is_empty() {
        ParseStatus::Empty
    } else {
        ParseStatus::Ok
    };
    Analysis {
        parse,
        commands,
        verdict,
        unattached: extra,
        secret_files,
        stdin_files,
    }
}

/// Bash reserved words: a line starting with one is never a plain simple command. A `match`,
/// not a list search: every line's first word is tested (the compiler compares by length
/// first, then a few bytes).
fn is_reserved(word: &str) -> bool {
    matches!(
        word,
        "if" | "then"
            | "else"
            | "elif"
            | "fi"
            | "case"
            | "esac"
            | "for"
            | "select"
            | "while"
            | "until"
            | "do"
            | "done"
            | "in"
            | "function"
            | "time"
            | "coproc"
    )
}

/// Builtins the grammar reads as declarations (`export A=1` is a `declaration_command`, not a
/// command with an argument `A=1`, and the walker models what it assigns and exports there).
/// A line with quotes or a tilde, or a nested source (`bash -c '…'`), starting with one goes
/// to the grammar. Other lines starting with one take the fast path, where `export` is judged
/// on its argv plus the same hijack check as the statement form: both paths give the same
/// verdict (`tests/fast_path_agreement.rs`), but they record it differently (an `export` argv
/// here, the assignment's text there), and the policy's `no-env-var-modification` reads the
/// argv form only — moving these lines to the grammar waits for it to read the `set_env`
/// effects both paths attach (README, "Not done yet").
fn is_declaration(word: &str) -> bool {
    matches!(
        word,
        "export" | "declare" | "typeset" | "local" | "readonly" | "unset"
    )
}

/// The fast path: a line made only of *plain words* separated by blanks is, to bash, exactly
/// the list of those words (quote removal is the only expansion that applies), so the grammar
/// is skipped. A plain word is made of
/// * ASCII letters, digits and `-_./=:@,+%` (none is special in a word);
/// * `~` *inside* a word after one of those characters other than `=` and `:` (`HEAD~1`):
///   bash expands a tilde only at the start of a word or after `=`/`:` in an assignment;
/// * single-quoted text (`'fn analyze'`, `'10,40p'`): everything inside is literal;
/// * double-quoted text without `$`, `` ` ``, `\` or `"` inside (`"fix: empty input"`):
///   with none of those, it is literal too.
///
/// Quoted text may hold blanks and any printable ASCII (`*`, `|`, `;` are data there), but no
/// newline or other control byte. An unterminated quote, assignments and reserved words go
/// to the grammar; the first word must be unquoted and must not hold `@` or `%` (the grammar
/// rejects `x@`/`x%` in command position, so such a line is unknown on both paths — ask —
/// rather than allowed only when it happens to be plain); on a line with quotes or a tilde,
/// or when `strict` (nested sources), it must not be a declaration ([`is_declaration`]). Most
/// agent commands
/// (`git status`, `git diff HEAD~1`, `grep -rn 'TODO' src`) are like this, and skipping the
/// grammar for them cuts their cost to a third. Anything else goes through tree-sitter.
/// `tests/props.rs` (`the_plain_words_fast_path_agrees_with_the_full_parser`) checks both paths
/// give identical analyses, `tests/fast_path_agreement.rs` the lines it leaves to the grammar.
pub(crate) fn plain_words(command: &str, strict: bool) -> Option<Vec<String>> {
    plain_words_as(command, strict, |w| w)
}

/// [`plain_words`], each word made into a `T` as it is split (the top level builds the
/// walker's words directly: no second vector).
fn plain_words_as<T>(command: &str, strict: bool, make: impl Fn(String) -> T) -> Option<Vec<T>> {
    let shape = plain_shape(command, strict)?;
    Some(plain_words_of(command, &shape, make))
}

/// Whether `command` is a plain line (see [`plain_words`]) whose first word may take the fast
/// path, without copying anything.
pub(crate) fn plain_shape(command: &str, strict: bool) -> Option<Shape> {
    let shape = scan_plain(command).ok()?;
    first_word_admits(command, &shape, strict).then_some(shape)
}

/// Whether the first word of `command`, a plain line of that `shape`, may take the fast path
/// (see [`plain_words`]).
fn first_word_admits(command: &str, shape: &Shape, strict: bool) -> bool {
    // The first word is never quoted (`scan_plain`), so it is the text up to the first
    // blank: judged before any word is copied.
    let Some(first) = blank_words(command).next() else {
        return false;
    };
    !(first.bytes().any(|b| matches!(b, b'=' | b'@' | b'%'))
        || is_reserved(first)
        || ((strict || shape.extended) && is_declaration(first)))
}

/// What the top-level fast path makes of a line.
enum Fast {
    /// A plain command: its words.
    Words(Vec<walk::Word>),
    /// Plain commands joined by operators ([`plain_list`]).
    List(plain_list::PlainLine),
    /// A plain command with plain redirections after its words (`cargo test 2>&1`,
    /// `echo done > /tmp/status.txt`, `python3 -c "…" < package.json`).
    Redirected(plain_list::PlainRedirected),
    /// Anything else: tree-sitter parses it.
    Grammar,
}

/// Which fast path `command` takes, if any, with one scan for the lines that take none. A
/// line that is not plain *before its first operator byte* (`&`, `|`, `;` outside quotes)
/// cannot be a plain list either: up to that byte, the scan of the whole line and of its first
/// segment see the same bytes in the same state (a quote runs to the next equal byte in
/// both), so the first segment fails the same way and `PlainLine::split` would refuse it.
/// A plain line refused for its first word has no operator, so no list either.
fn fast_line(command: &str) -> Fast {
    match scan_plain(command) {
        Ok(shape) if first_word_admits(command, &shape, false) => {
            Fast::Words(plain_words_of(command, &shape, walk::Word::lit))
        }
        Ok(_) | Err(Stop::Other) => Fast::Grammar,
        Err(Stop::Operator) => {
            plain_list::PlainLine::split(command).map_or(Fast::Grammar, Fast::List)
        }
        // Everything before `at` is plain (the scan stopped there first).
        Err(Stop::Redirect(at)) => {
            plain_list::PlainRedirected::split(command, at).map_or(Fast::Grammar, Fast::Redirected)
        }
    }
}

/// Whether the plain-Python fast path agrees with the grammar path on `code`: `true` when the
/// fast path leaves `code` to the grammar, or when the grammar parses it cleanly and finds
/// nothing in it (the fast path's invariant, see `plain_python`). For the `plain_python`
/// fuzz target only; not part of the API.
#[doc(hidden)]
#[must_use]
pub fn plain_python_agrees(code: &str) -> bool {
    if !plain_python::is_plain_python(code) {
        return true;
    }
    let mut parsers = code::Parsers::default();
    let (found, side) = parsers.grammar_reference(interp::Lang::Python, code);
    found == Some(Vec::new()) && !side
}

/// The words of `command`, a plain line of that `shape` ([`plain_shape`]).
pub(crate) fn plain_words_of<T>(
    command: &str,
    &Shape { quotes, words, .. }: &Shape,
    make: impl Fn(String) -> T,
) -> Vec<T> {
    let mut out = Vec::with_capacity(words);
    if quotes {
        quoted_words(command, |w| out.push(make(w)));
    } else {
        out.extend(blank_words(command).map(|w| make(w.to_owned())));
    }
    out
}

/// The non-empty runs of `command` between spaces and tabs: `command.split([' ', '\t'])`
/// without the empty pieces, by a byte pass (the char searcher cost more than the rest of a
/// plain line's split). Both separators are ASCII, so every cut is a char boundary.
fn blank_words(command: &str) -> impl Iterator<Item = &str> {
    let bytes = command.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        while bytes.get(at).is_some_and(|&b| b == b' ' || b == b'\t') {
            at += 1;
        }
        let start = at;
        while bytes.get(at).is_some_and(|&b| b != b' ' && b != b'\t') {
            at += 1;
        }
        (at > start).then(|| command.get(start..at)).flatten()
    })
}

/// What [`scan_plain`] saw in a plain line.
pub(crate) struct Shape {
    /// Some word has quotes (quote removal is needed).
    quotes: bool,
    /// Quotes or a tilde: more than the original fast path's words (see [`is_declaration`]).
    extended: bool,
    /// How many words the line has.
    words: usize,
}

/// A byte's role in a plain line (see [`plain_words`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Plain {
    /// Not allowed outside quotes.
    Other,
    /// An ordinary word character: ASCII letters, digits and `-_./=:@,+%`.
    Word,
    /// Space or tab.
    Blank,
    /// `'` or `"`.
    Quote,
    /// `~`.
    Tilde,
}

/// [`Plain`] by byte: one load per byte on the hot path (every line is checked).
const PLAIN_CLASS: [Plain; 256] = {
    let mut table = [Plain::Other; 256];
    let mut b = 0;
    while b < 256 {
        #[allow(clippy::cast_possible_truncation, reason = "b < 256")]
        let c = b as u8;
        table[b] = match c {
            b'a'..=b'z'
            | b'A'..=b'Z'
            | b'0'..=b'9'
            | b'-'
            | b'_'
            | b'.'
            | b'/'
            | b'='
            | b':'
            | b'@'
            | b','
            | b'+'
            | b'%' => Plain::Word,
            b' ' | b'\t' => Plain::Blank,
            b'\'' | b'"' => Plain::Quote,
            b'~' => Plain::Tilde,
            _ => Plain::Other,
        };
        b += 1;
    }
    table
};

/// Where [`scan_plain`] stopped on a line that is not plain.
enum Stop {
    /// At `&`, `|` or `;` outside quotes: the line may still be a plain list.
    Operator,
    /// At this byte, a `<` or `>` outside quotes: the line may still be a plain command with
    /// redirections ([`plain_list::PlainRedirected`]).
    Redirect(usize),
    /// Anywhere else.
    Other,
}

/// Whether `command` is a plain line (see [`plain_words`]), and if so how plain; if not,
/// where the scan stopped. Allocates nothing: most lines that are not plain fail early, at an
/// operator.
fn scan_plain(command: &str) -> Result<Shape, Stop> {
    let bytes = command.as_bytes();
    let (mut quotes, mut tilde) = (false, false);
    // Still in the first word (which must be unquoted), and whether it has begun.
    let (mut in_first, mut begun) = (true, false);
    // Words so far, and whether the byte before was a blank (or the line's start).
    let (mut words, mut after_blank) = (0, true);
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let class = PLAIN_CLASS[usize::from(b)];
        if class != Plain::Blank && after_blank {
            words += 1;
        }
        after_blank = class == Plain::Blank;
        match class {
            Plain::Word => begun = true,
            Plain::Blank => in_first &= !begun,
            // A tilde is literal inside a word (`HEAD~1`), not at its start or after the
            // `=`/`:` of an assignment-like word.
            Plain::Tilde => {
                let prev = i
                    .checked_sub(1)
                    .and_then(|p| bytes.get(p))
                    .copied()
                    .ok_or(Stop::Other)?;
                if PLAIN_CLASS[usize::from(prev)] != Plain::Word || matches!(prev, b'=' | b':') {
                    return Err(Stop::Other);
                }
                tilde = true;
            }
            Plain::Quote => {
                if in_first {
                    return Err(Stop::Other);
                }
                let close = bytes
                    .get(i + 1..)
                    .and_then(|rest| rest.iter().position(|&c| c == b))
                    .map(|at| i + 1 + at)
                    .ok_or(Stop::Other)?;
                let literal = bytes[i + 1..close].iter().all(|&c| {
                    (b' '..=b'~').contains(&c) && (b == b'\'' || !matches!(c, b'$' | b'`' | b'\\'))
                });
                if !literal {
                    return Err(Stop::Other);
                }
                quotes = true;
                i = close;
            }
            Plain::Other if matches!(b, b'&' | b'|' | b';') => return Err(Stop::Operator),
            Plain::Other if matches!(b, b'<' | b'>') => return Err(Stop::Redirect(i)),
            Plain::Other => return Err(Stop::Other),
        }
        i += 1;
    }
    Ok(Shape {
        quotes,
        extended: quotes || tilde,
        words,
    })
}

/// The words of a plain line with quotes (checked by [`scan_plain`]), each given to `emit`:
/// quote removal and splitting at blanks outside quotes.
fn quoted_words(command: &str, mut emit: impl FnMut(String)) {
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in command.chars() {
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, ' ' | '\t') => {
                if let Some(w) = word.take() {
                    emit(w);
                }
            }
            // Inside quotes, or an ordinary word character.
            _ => word.get_or_insert_with(String::new).push(c),
        }
    }
    if let Some(w) = word {
        emit(w);
    }
}

/// The id of every taxonomy rule (`git.push_force`, `fs.delete_system`, …), in taxonomy
/// order: the names a policy may use for the analyzer's verdicts, so a policy or an
/// allowance naming one can be checked against the list instead of silently matching nothing.
pub fn rule_ids() -> impl Iterator<Item = &'static str> {
    taxonomy::RULES.iter().map(|r| r.id)
}

/// Analyses `command` with a fresh [`Analyzer`] (one parser set-up, ~10 µs). For many calls,
/// keep an [`Analyzer`].
pub fn analyze(command: &str, ctx: &Context) -> Analysis {
    match Analyzer::new() {
        Ok(mut a) => a.analyze(command, ctx),
        Err(e) => failed(
            ParseStatus::Error(e.to_string()),
            "the analyzer could not start",
        ),
    }
}

fn failed(parse: ParseStatus, reason: &str) -> Analysis {
    Analysis {
        parse,
        commands: Vec::new(),
        verdict: Verdict::unknown(reason),
        unattached: Vec::new(),
        secret_files: Vec::new(),
        stdin_files: Vec::new(),
    }
}

fn first_error(root: tree_sitter::Node<'_>, src: &str) -> String {
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.is_error() || n.is_missing() {
            let what = if n.is_missing() {
                "missing"
            } else {
                "unexpected"
            };
            let snippet: String = walk::text(n, src).chars().take(40).collect();
            return format!("{what} `{snippet}` at byte {}", n.start_byte());
        }
        if n.has_error() {
            let mut cursor = n.walk();
            let children: Vec<_> = n.children(&mut cursor).collect();
            stack.extend(children.into_iter().rev());
        }
    }
    "syntax error".to_owned()
}

/// Why [`prescan`] refused a line.
pub(crate) enum Prescan {
    /// Nested deeper than the limit.
    TooDeep(String),
    /// Holds a byte bash and the grammar read differently (see [`prescan`]).
    Unrepresentable(&'static str),
}

impl Prescan {
    pub(crate) fn reason(&self) -> String {
        match self {
            Self::TooDeep(r) => r.clone(),
            Self::Unrepresentable(r) => (*r).to_owned(),
        }
    }
}

/// The bytes [`prescan`] acts on: NUL, CR, VT, FF, backslash, single quote and brackets.
const PRESCAN_SPECIAL: [bool; 256] = {
    let mut table = [false; 256];
    let special = b"\0\r\x0b\x0c\\'({[)}]";
    let mut i = 0;
    while i < special.len() {
        table[special[i] as usize] = true;
        i += 1;
    }
    table
};

/// Cheap bound on nesting before the parser runs: counts opening brackets and substitution
/// openers (outside single quotes) so pathological input is refused in linear time.
///
/// The same pass refuses bytes whose meaning differs between bash and the grammar, decided on
/// purpose: the whole line is unresolved (ask; a policy may deny).
/// * NUL: bash cannot receive it in `-c` (the argument ends there) and truncates words at it,
///   so any word resolved across it would silently differ from what runs.
/// * Carriage return, vertical tab, form feed: ordinary word characters to bash (only space,
///   tab and newline separate words) but blanks to the grammar, so the words it reports
///   (`rm -rf .claude\r` → `.claude`) are not the ones bash runs.
pub(crate) fn prescan(src: &str, limits: &Limits) -> Result<(), Prescan> {
    let mut depth: usize = 0;
    let mut max_depth: usize = 0;
    let mut in_single = false;
    let mut escaped = false;
    for b in src.bytes() {
        // Most bytes are none of those below: one load decides (an escape ends at them).
        if !PRESCAN_SPECIAL[usize::from(b)] {
            escaped = false;
            continue;
        }
        if b < 0x0e && matches!(b, 0 | 0x0b | 0x0c | b'\r') {
            return Err(Prescan::Unrepresentable(if b == 0 {
                "the command contains a NUL byte, which bash does not pass on as written"
            } else {
                "the command contains a carriage return, vertical tab or form feed, which \
                 bash reads as part of a word"
            }));
        }
        if escaped {
            escaped = false;
            continue;
        }
        match b {
            b'\\' if !in_single => escaped = true,
            b'\'' => in_single = !in_single,
            b'(' | b'{' | b'[' if !in_single => {
                depth += 1;
                max_depth = max_depth.max(depth);
            }
            b')' | b'}' | b']' if !in_single => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    if max_depth > limits.max_nesting {
        return Err(Prescan::TooDeep(format!(
            "nesting deeper than {} brackets",
            limits.max_nesting
        )));
    }
    Ok(())
}
