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

impl Walker<'_> {
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
                if let Producer::Secret(source) =
                    self.plain_pipeline(pipeline, scope, self.shell_stdin.clone(), 1)
                    && self.group_out.is_none()
                {
                    self.group_out = Some(source);
                }
                continue;
            }
            let last = operands.len().saturating_sub(1);
            let _ = self.list_of(
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
