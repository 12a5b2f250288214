//! The plain-list fast path: a line of plain commands joined by `|`, `&&`, `||` and `;`
//! (`npm install && npm test`, `cd frontend && npm run build`, `make; make test`,
//! `grep -rn TODO src | head -20`) is walked without tree-sitter's parse, which is most of
//! such a line's cost.
//!
//! Invariant (*the fast path is an optimisation, never a decision*): a line taken here gets the
//! analysis the grammar path gives it. Every operand is a plain line by the rules of
//! [`crate::plain_words`] in their strict form (declaration builtins go to the grammar, which
//! models what they assign), so an operand *is* its word list; the operators are split
//! outside quotes by the same quote rule `scan_plain` applies; and the walk mirrors what the
//! grammar path does with the tree of such a line — `Walker::block` over the statements,
//! `Walker::list_of` (shared with tree-sitter's `list` nodes) over each `&&`/`||` chain,
//! `Walker::pipeline_of` (shared with `pipeline` nodes) over each `|` pipeline, which binds
//! tighter than `&&`/`||` as in bash. Anything else — `&`, `|&`, an empty operand or stage,
//! a trailing `;`, a newline — goes to the grammar.
//! `tests/fast_path_agreement.rs` and `tests/props.rs` compare both paths' analyses.

use crate::control::OperandFacts;
use crate::walk::{Producer, Scope, Walker, Word};
use crate::{plain_shape, plain_words_of};

/// One statement of a plain line: operands joined by `&&`/`||` (one operand: a pipeline).
struct Statement {
    operands: Vec<Pipeline>,
    operators: Vec<&'static str>,
}

/// The argv of each stage of a pipeline (one stage: a command).
type Pipeline = Vec<Vec<Word>>;

/// A plain line with at least one operator, split into statements (see the module doc).
pub(crate) struct PlainLine {
    statements: Vec<Statement>,
}

/// Where a segment of the line ends: at `|`, `&&`, `||` or `;`, or at the line's end.
#[derive(Clone, Copy, PartialEq, Eq)]
enum End {
    Pipe,
    And,
    Or,
    Semicolon,
    Line,
}

/// Calls `each(segment, end)` for every segment of `command` between operators outside
/// quotes; `None` when a byte `&` is not part of `&&`, a `|` is followed by `&` (`|&` pipes
/// stderr too: the grammar's) or `each` refuses a segment.
/// A quote runs to the next byte equal to it, as in `scan_plain` (a segment whose quotes
/// mean more than that is refused by it).
fn segments(command: &str, mut each: impl FnMut(&str, End) -> Option<()>) -> Option<()> {
    let bytes = command.as_bytes();
    let (mut start, mut i) = (0, 0);
    let mut quote = None;
    while let Some(&b) = bytes.get(i) {
        if let Some(q) = quote {
            if b == q {
                quote = None;
            }
            i += 1;
            continue;
        }
        let end = match b {
            b'\'' | b'"' => {
                quote = Some(b);
                None
            }
            b'&' if bytes.get(i + 1) != Some(&b'&') => return None,
            b'&' => Some((End::And, 2)),
            b'|' => match bytes.get(i + 1) {
                Some(b'|') => Some((End::Or, 2)),
                Some(b'&') => return None,
                _ => Some((End::Pipe, 1)),
            },
            b';' => Some((End::Semicolon, 1)),
            _ => None,
        };
        if let Some((end, len)) = end {
            each(command.get(start..i)?, end)?;
            i += len;
            start = i;
        } else {
            i += 1;
        }
    }
    each(command.get(start..)?, End::Line)
}

impl PlainLine {
    /// `command` split into plain statements, or `None` when it is not a plain list (a single
    /// plain command is not one: it takes the plain-words path).
    pub(crate) fn split(command: &str) -> Option<Self> {
        // First without copying anything: most lines that reach here are not plain (`$`,
        // redirects, quotes that expand) and are refused at their first such byte.
        let mut operators = 0;
        // Each segment's shape, kept for the second pass (one `plain_shape` per segment).
        let mut shapes = Vec::new();
        segments(command, |segment, end| {
            let shape = plain_shape(segment, true)?;
            // An existence test (`[ -f X ] || cp A X`) guards what follows it: the grammar
            // path reads it off its tree (`control::existence_test`), so it goes there.
            let first = segment.split_whitespace().next();
            if matches!(first, Some("[" | "[[" | "test" | "!")) {
                return None;
            }
            operators += usize::from(end != End::Line);
            shapes.push(shape);
            Some(())
        })?;
        if operators == 0 {
            return None;
        }
        let mut statements = Vec::new();
        let mut current = Statement {
            operands: Vec::new(),
            operators: Vec::new(),
        };
        let mut stages = Vec::new();
        let mut shapes = shapes.into_iter();
        segments(command, |segment, end| {
            // The same segments in the same order as the first pass.
            let shape = shapes.next()?;
            stages.push(plain_words_of(segment, &shape, Word::lit));
            if end == End::Pipe {
                return Some(());
            }
            // tree-sitter-bash reads a list whose first operand is a pipeline of three or
            // more stages (`a | b | c || d`) as the first stage piped into a list (`a | (b |
            // c || d)`), not as bash does: such a line goes to the grammar, so both paths
            // keep judging it alike (see `tests/plain_pipelines.rs`).
            if current.operands.is_empty() && stages.len() >= 3 && matches!(end, End::And | End::Or)
            {
                return None;
            }
            current.operands.push(std::mem::take(&mut stages));
            match end {
                End::Pipe => {}
                End::And => current.operators.push("&&"),
                End::Or => current.operators.push("||"),
                End::Semicolon | End::Line => statements.push(std::mem::replace(
                    &mut current,
                    Statement {
                        operands: Vec::new(),
                        operators: Vec::new(),
                    },
                )),
            }
            Some(())
        })?;
        Some(Self { statements })
    }
}

/// A plain command followed by plain redirections (`cargo test 2>&1`, `echo done >
/// /tmp/status.txt`, `python3 -c "…" < package.json`): walked as the grammar path walks the
/// `redirected_statement` tree-sitter makes of it (see [`Walker::plain_redirected`]).
///
/// Only the shapes whose tree is known to be that statement, with one `file_redirect` per
/// redirection carrying the descriptor and destination written: the words are a plain line by
/// [`crate::plain_words`]' strict rules, not starting with `exec` (a bare `exec` makes its
/// redirections the shell's own), and end at a blank; then only redirections, each
/// `[D]>`, `[D]>>` or `<` to a word of letters, digits and `-_./+,`, or `[D]>&N`, where `D`
/// and `N` are single digits and every redirection ends at a blank or the line's end.
/// Refused, so left to the grammar: a descriptor on `<` (tree-sitter reads the `0` of `sh
/// 0<f` as an argument), a descriptor after a `>&N` without one (the grammar hangs it on
/// that redirect: `>&2 0>&1`), a lone `-` as the last word before a descriptor (the grammar
/// drops it: `cmd - 2>f`), words after a redirection, several digits, `>|`, `&>`, `<&`,
/// `<>`, here-documents, quotes, tildes and expansions in a destination.
pub(crate) struct PlainRedirected {
    argv: Vec<Word>,
    redirects: Vec<PlainRedirect>,
}

/// One redirection of a [`PlainRedirected`] line.
struct PlainRedirect {
    /// The digit written before the operator, if any.
    descriptor: Option<u8>,
    /// `>`, `>>`, `<` or `>&`.
    operator: &'static str,
    /// The destination: a plain word, or the descriptor `>&` duplicates.
    target: String,
}

/// The descriptors a [`PlainRedirect`] may name, as the grammar path reads them (text).
const DIGITS: [&str; 10] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];

impl PlainRedirect {
    fn descriptor(&self) -> Option<&'static str> {
        self.descriptor
            .and_then(|d| DIGITS.get(usize::from(d)).copied())
    }
}

/// A byte of a plain redirection's destination word (see [`PlainRedirected`]).
fn destination_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'/' | b'+' | b',')
}

fn blank(b: Option<&u8>) -> bool {
    matches!(b, Some(b' ' | b'\t'))
}

impl PlainRedirected {
    /// `command` as a plain command with redirections, when it is one (see the type's doc);
    /// `at` is its first `<` or `>` outside quotes, everything before which is plain.
    pub(crate) fn split(command: &str, at: usize) -> Option<Self> {
        let bytes = command.as_bytes();
        // A digit right before the operator is its descriptor.
        let start = match at.checked_sub(1).map(|p| bytes.get(p)) {
            Some(Some(d)) if d.is_ascii_digit() => at - 1,
            _ => at,
        };
        // The words end at a blank: `a2>f`, `"x">f` and `12>f` go to the grammar.
        if !blank(start.checked_sub(1).and_then(|p| bytes.get(p))) {
            return None;
        }
        let words = command.get(..start)?;
        let shape = plain_shape(words, true)?;
        let argv = plain_words_of(words, &shape, Word::lit);
        if argv.first().is_none_or(|w| w.text == "exec") {
            return None;
        }
        // tree-sitter-bash drops a lone `-` right before a descriptor's redirection (`colcrt
        // - 2>/dev/null` has no argument in its tree): such a line goes to the grammar.
        let dash_last = argv.last().is_some_and(|w| w.text == "-");
        if dash_last && bytes.get(start).is_some_and(u8::is_ascii_digit) {
            return None;
        }
        let mut redirects = Vec::new();
        let mut i = start;
        // A `>&N` without a descriptor was seen: no descriptor may follow.
        let mut bare_duplicate = false;
        loop {
            while blank(bytes.get(i)) {
                i += 1;
            }
            let Some(&b) = bytes.get(i) else {
                break;
            };
            let descriptor = b.is_ascii_digit().then(|| b - b'0');
            if descriptor.is_some() {
                if bare_duplicate {
                    return None;
                }
                i += 1;
            }
            let operator = match (bytes.get(i), bytes.get(i + 1)) {
                (Some(b'>'), Some(b'>')) => ">>",
                (Some(b'>'), Some(b'&')) => ">&",
                (Some(b'>'), _) => ">",
                (Some(b'<'), _) if descriptor.is_none() => "<",
                _ => return None,
            };
            i += operator.len();
            let target_start;
            if operator == ">&" {
                target_start = i;
                if !bytes.get(i).is_some_and(u8::is_ascii_digit) {
                    return None;
                }
                i += 1;
                bare_duplicate |= descriptor.is_none();
            } else {
                while blank(bytes.get(i)) {
                    i += 1;
                }
                target_start = i;
                while bytes.get(i).copied().is_some_and(destination_byte) {
                    i += 1;
                }
                if i == target_start {
                    return None;
                }
            }
            if !(i == bytes.len() || blank(bytes.get(i))) {
                return None;
            }
            redirects.push(PlainRedirect {
                descriptor,
                operator,
                target: command.get(target_start..i)?.to_owned(),
            });
        }
        Some(Self { argv, redirects })
    }

    /// Whether a redirection sends standard output to a file (`walk::stdout_to_file` for the
    /// operators a plain line has).
    fn stdout_to_file(&self) -> bool {
        self.redirects
            .iter()
            .any(|r| matches!(r.operator, ">" | ">>") && r.descriptor().is_none_or(|d| d == "1"))
    }
}

impl Walker<'_> {
    /// Walks a [`PlainRedirected`] line as the grammar path walks its `redirected_statement`:
    /// `block` gives it to `stmt` at depth 1, whose `stmt_io` runs `with_redirects` with the
    /// `command` as body. Each step below is that path's for this shape: the redirections in
    /// order through [`Walker::redirect_to`] (a plain destination resolves to its own text),
    /// the command as `command` runs a node of plain words (`exec` with its own write and
    /// redirect bookkeeping), then `/dev/null` discards, the writes settled, the redirected
    /// stdin file cleared and the redirect targets judged, and what the statement printed
    /// kept as the line's output unless it went to a file. (`stmt`'s `exec > >(…)` sink and
    /// `with_redirects`' `exec` cases cannot arise: the line has no `exec`.)
    pub(crate) fn plain_redirected(&mut self, line: &PlainRedirected, scope: &mut Scope) {
        if self.too_deep(1) {
            return;
        }
        let mut input = self.shell_stdin.clone();
        let (sockets, written, before) =
            (self.sockets.len(), self.written.len(), self.commands.len());
        let records = self.write_records.len();
        for r in &line.redirects {
            let target = Word::lit(r.target.as_str());
            if let Some(p) = self.redirect_to(r.operator, r.descriptor(), &target, scope) {
                input = p;
            }
        }
        let output = {
            // `command`: its own snapshots, then the argv run.
            let (sockets, written) = (self.sockets.len(), self.written.len());
            let records = self.write_records.len();
            let before = self.commands.len();
            let out = self.exec(&line.argv, scope, input);
            self.settle_writes(records, &out);
            self.after_redirects(before, sockets, written, &out, scope);
            out
        };
        let (stdout, stderr) = crate::discard::discarded_plain(
            line.redirects
                .iter()
                .map(|r| (r.descriptor(), r.operator, r.target.as_str())),
        );
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
        self.settle_writes(records, &output);
        self.files.stdin_file = None;
        self.after_redirects(before, sockets, written, &output, scope);
        if !line.stdout_to_file() {
            self.judge_shown(&output, before, scope);
        }
        if let Producer::Secret(source) = output
            && self.group_out.is_none()
            && !line.stdout_to_file()
        {
            self.group_out = Some(source);
        }
    }

    /// Walks a plain line as the grammar path walks its tree: `block` gives each statement to
    /// `stmt` at depth 1; a command statement is `exec`uted (what it prints may become the
    /// group's output, as `stmt` records it), a list goes through `list_of` with its operands
    /// at depth 2 and its last one in `with_redirects`'s place (no redirects: it clears the
    /// redirected stdin file, as there). A pipeline is walked by [`Self::plain_pipeline`] one
    /// level below the statement or operand that holds it.
    pub(crate) fn plain_line(&mut self, line: &PlainLine, scope: &mut Scope) {
        for statement in &line.statements {
            if self.too_deep(1) {
                continue;
            }
            let operands = &statement.operands;
            if let [pipeline] = operands.as_slice() {
                let before = self.commands.len();
                let out = self.plain_pipeline(pipeline, scope, self.shell_stdin.clone(), 1);
                self.judge_shown(&out, before, scope);
                if let Producer::Secret(source) = out
                    && self.group_out.is_none()
                {
                    self.group_out = Some(source);
                }
                continue;
            }
            let last = operands.len().saturating_sub(1);
            let before = self.commands.len();
            let out = self.list_of(
                operands.len(),
                &statement.operators,
                scope,
                self.shell_stdin.clone(),
                // Existence tests are refused above: no operand guards another.
                None,
                |w, index, scope, input| match operands.get(index) {
                    Some(pipeline) if index == last => {
                        // `with_redirects` runs a command itself, a pipeline through
                        // `stmt_io` one level down.
                        let out = match pipeline.as_slice() {
                            [argv] => w.exec(argv, scope, input),
                            _ if w.too_deep(2) => Producer::Opaque,
                            _ => w.plain_pipeline(pipeline, scope, input, 2),
                        };
                        w.files.stdin_file = None;
                        out
                    }
                    Some(_) if w.too_deep(2) => Producer::Opaque,
                    Some(pipeline) => w.plain_pipeline(pipeline, scope, input, 2),
                    None => Producer::Nothing,
                },
                // `exit`/`return` as a whole statement (`control::always_leaves`: a pipeline
                // never is); a plain operand is never a nested list or an assignment.
                |index| OperandFacts {
                    leaves: operands.get(index).is_some_and(|pipeline| {
                        matches!(pipeline.as_slice(), [argv] if argv
                            .first()
                            .is_some_and(|w| matches!(w.text.as_str(), "exit" | "return")))
                    }),
                    ..OperandFacts::default()
                },
            );
            // The last operand's output is judged here (the earlier ones' were, in
            // `list_of`); a secret any of them printed is what the line prints, as for a
            // single pipeline above.
            self.judge_shown(&out.last, before, scope);
            if let Producer::Secret(source) = out.secret_or(|last| last)
                && self.group_out.is_none()
            {
                self.group_out = Some(source);
            }
        }
    }

    /// Walks a plain pipeline at `depth` (the depth the grammar path gives its node) as
    /// `Walker::pipeline` walks a `pipeline` node: each stage is a command `stmt_io` walks
    /// one level down. A single stage is the command itself, `exec`uted where it stands.
    fn plain_pipeline(
        &mut self,
        stages: &[Vec<Word>],
        scope: &mut Scope,
        stdin: Producer,
        depth: usize,
    ) -> Producer {
        if let [argv] = stages {
            return self.exec(argv, scope, stdin);
        }
        self.pipeline_of(
            stages.len(),
            scope,
            stdin,
            |w, index, inner, input| match stages.get(index) {
                Some(_) if w.too_deep(depth + 1) => Producer::Opaque,
                Some(argv) => w.exec(argv, inner, input),
                None => Producer::Nothing,
            },
        )
    }
}
