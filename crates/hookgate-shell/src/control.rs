//! Control flow over the abstract shell state (`crate::state`): lists, branches, loops,
//! functions and assignments.
//!
//! Invariant (soundness): the state after a construct is the join of the states of every path
//! through it (`a && b`, `if`, `case`), a loop's body is walked in a state where everything
//! it assigns is unknown unless the loop is unrolled over literal words, and a jump
//! (`return`, `break`, `continue`, `exit`) makes what its construct assigned unknown. So a
//! value is only ever literal when bash would see that literal on every path.

use std::rc::Rc;

use tree_sitter::Node;

use crate::state::{Function, Val, join_opt};
use crate::targets::Cwd;
use crate::walk::{Pending, Producer, Scope, Walker, Word, is_statement, text};

/// How `export`/`declare`/`local`/… treat the names they are given (from their flags).
#[derive(Clone, Copy)]
struct Declare {
    /// `Some(true)` exports, `Some(false)` un-exports, `None` keeps the flag.
    export: Option<bool>,
    /// Inside a function call: the caller's value comes back after it.
    local: bool,
    /// Arrays, integers, case conversion: the value is transformed.
    transformed: bool,
    /// `-f`: the names are functions.
    functions: bool,
}

/// Most values a `for` loop over literal words is unrolled for.
const MAX_UNROLLED_VALUES: usize = 16;

/// Bash's special builtins: a prefix assignment to one of them may persist (POSIX mode).
fn is_special_builtin(name: &str) -> bool {
    matches!(
        name,
        ":" | "."
            | "source"
            | "eval"
            | "exec"
            | "exit"
            | "export"
            | "readonly"
            | "return"
            | "set"
            | "shift"
            | "times"
            | "trap"
            | "unset"
            | "break"
            | "continue"
    )
}

/// True when `node` contains a `return`/`exit`/`break`/`continue` (the straight-line state
/// after it is not the only one that leaves the construct). Bounded like `any_node`.
pub(crate) fn has_jump(node: Node<'_>, src: &str) -> bool {
    crate::walk::any_node(node, true, |n| {
        n.kind() == "command_name"
            && matches!(text(n, src), "return" | "exit" | "break" | "continue")
    })
}

/// A state a list may be in: the working state itself, a copy, or no path at all (boxed:
/// the tracks move on every operand).
#[derive(Debug, Clone)]
enum Track {
    Here,
    Saved(Box<Scope>),
    Dead,
}

impl Track {
    /// `a ⊔ b`, where `Here` is `scope`.
    fn join(a: Self, b: Self, scope: &Scope) -> Self {
        match (a, b) {
            (Self::Here, Self::Here) => Self::Here,
            (Self::Dead, t) | (t, Self::Dead) => t,
            (Self::Here, Self::Saved(mut s)) | (Self::Saved(mut s), Self::Here) => {
                s.join(scope);
                Self::Saved(s)
            }
            (Self::Saved(mut s), Self::Saved(t)) => {
                s.join(&t);
                Self::Saved(s)
            }
        }
    }
}

/// A word that is one command substitution alone (`$(…)` or backquotes) whose command lists
/// files (see [`Walker::listing_items`]).
fn listing_substitution(w: &Word) -> bool {
    !w.exact
        && w.substs.len() == 1
        && ((w.text.starts_with("$(") && !w.text.starts_with("$((") && w.text.ends_with(')'))
            || (w.text.starts_with('`') && w.text.ends_with('`')))
}

/// `[ -f X ]`, `[ -e X ]`, `[[ -f X ]]`, `test -f X`, and their negations (`[ ! -f X ]`,
/// `! [ -e X ]`, `test ! -f X`): the literal path tested, and whether success shows it
/// absent (negated) or present. `None` for any other condition or a path that is not a
/// literal word (an expansion may be anything when the write runs).
fn existence_test(node: Node<'_>, src: &str) -> Option<(String, bool)> {
    match node.kind() {
        "negated_command" => {
            let (path, absent) = existence_test(node.named_child(0)?, src)?;
            Some((path, !absent))
        }
        "test_command" if node.named_child_count() == 1 => unary_test(node.named_child(0)?, src),
        "command" => {
            let name = node.child_by_field_name("name")?;
            if text(name, src) != "test" {
                return None;
            }
            let mut cursor = node.walk();
            let args: Vec<Node<'_>> = node
                .children_by_field_name("argument", &mut cursor)
                .collect();
            let texts: Vec<&str> = args.iter().map(|a| text(*a, src)).collect();
            match texts.as_slice() {
                ["-f" | "-e", _] => Some((literal_path(*args.get(1)?, src)?, false)),
                ["!", "-f" | "-e", _] => Some((literal_path(*args.get(2)?, src)?, true)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The inside of `[ … ]`/`[[ … ]]`: `-f X`, `-e X`, or `! …` of one.
fn unary_test(node: Node<'_>, src: &str) -> Option<(String, bool)> {
    if node.kind() != "unary_expression" {
        return None;
    }
    let first = node.child(0)?;
    if text(first, src) == "!" {
        let (path, absent) = unary_test(node.named_child(0)?, src)?;
        return Some((path, !absent));
    }
    if first.kind() == "test_operator" && matches!(text(first, src), "-f" | "-e") {
        return Some((literal_path(node.named_child(1)?, src)?, false));
    }
    None
}

/// A path written as a literal word (`.env`, `'.env'`, `"config/app.yml"`).
fn literal_path(node: Node<'_>, src: &str) -> Option<String> {
    let raw = text(node, src);
    let plain = |s: &str| {
        !s.is_empty() && !s.contains(['$', '`', '\\', '*', '?', '[', '~', '\'', '"', ' '])
    };
    let inner = match node.kind() {
        "word" => raw,
        "raw_string" => raw.strip_prefix('\'')?.strip_suffix('\'')?,
        "string" => raw.strip_prefix('"')?.strip_suffix('"')?,
        _ => return None,
    };
    plain(inner).then(|| inner.to_owned())
}

/// `a && b` (also as the body of a redirect the grammar hangs on the whole list).
fn is_list(node: Node<'_>) -> bool {
    node.kind() == "list"
        || (node.kind() == "redirected_statement"
            && node
                .child_by_field_name("body")
                .is_some_and(|b| b.kind() == "list"))
}

/// `x=$(P)` (or `x="$(P)"`) where `P` prints nothing when it fails (`mktemp`, `pwd`,
/// `git rev-parse --show-toplevel`): the variable it assigns, which is the empty string on the
/// failure path of the assignment (bash assigns what the substitution printed). Joined with
/// the success paths it stays "this value or empty" (`crate::state::Val::OrEmpty`), which is
/// what lets `tmp=$(mktemp) && …; rm -f "$tmp"` be judged on the scratch path.
///
/// `export x=$(P)` (also `local`, `declare`, `typeset`, `readonly`, one assignment, no flags)
/// is the same assignment, but the status is the builtin's: it succeeds with `x` empty when
/// `P` failed, so the walker keeps "this value or empty" on its success path too (see
/// [`Walker::assignments`]); the builtin itself fails only for a readonly or invalid name.
fn empty_on_failure<'s>(node: Node<'_>, src: &'s str) -> Option<&'s str> {
    if node.kind() == "declaration_command" {
        let keyword = node.child(0).map_or("", |k| text(k, src));
        if !matches!(
            keyword,
            "export" | "local" | "declare" | "typeset" | "readonly"
        ) || node.named_child_count() != 1
        {
            return None;
        }
        return empty_on_failure(node.named_child(0)?, src);
    }
    if node.kind() != "variable_assignment" {
        return None;
    }
    let name = node
        .child_by_field_name("name")
        .filter(|n| n.kind() == "variable_name")?;
    let mut value = node.child_by_field_name("value")?;
    if value.kind() == "string" && value.named_child_count() == 1 {
        value = value.named_child(0)?;
    }
    if value.kind() != "command_substitution" || value.named_child_count() != 1 {
        return None;
    }
    let command = value.named_child(0).filter(|c| c.kind() == "command")?;
    if command.child_by_field_name("redirect").is_some() {
        return None;
    }
    let mut cursor = command.walk();
    let words: Vec<&str> = command
        .named_children(&mut cursor)
        .map(|c| text(c, src))
        .collect();
    let silent = matches!(
        words.as_slice(),
        ["mktemp", ..] | ["pwd"] | ["pwd", "-L" | "-P"] | ["git", "rev-parse", "--show-toplevel"]
    );
    silent.then(|| text(name, src))
}

/// What a list operand's form shows, for [`Walker::list_of`]: the same three facts whether
/// the operand is a tree node or the argv of a plain command (which is never an `exit`
/// ... `return` spelled otherwise, a nested list, or an assignment).
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct OperandFacts<'s> {
    /// `exit`/`return` as a whole statement: control never reaches what follows.
    pub leaves: bool,
    /// A nested list, whose own end state already joins its success and failure paths.
    pub nested_list: bool,
    /// `x=$(P)` for a `P` that prints nothing when it fails: `x` is empty on failure.
    pub empty_on_failure: Option<&'s str>,
}

/// `exit`/`return` as a whole statement: control never reaches what follows.
fn always_leaves(node: Node<'_>, src: &str) -> bool {
    // Cheap test first: most operands are not.
    let raw = text(node, src).trim_start_matches(['{', ' ', '\t', '\n']);
    if !(raw.starts_with("exit") || raw.starts_with("return")) {
        return false;
    }
    match node.kind() {
        "command" => node
            .child_by_field_name("name")
            .is_some_and(|n| matches!(text(n, src), "exit" | "return")),
        "compound_statement" => {
            let mut cursor = node.walk();
            let last = node.named_children(&mut cursor).last();
            last.is_some_and(|l| always_leaves(l, src))
        }
        _ => false,
    }
}

/// One operand of a list as bash reads it: a node of the tree, or a pipeline put back
/// together from the stages tree-sitter-bash split (see [`flatten_list`]).
#[derive(Clone)]
enum Operand<'t> {
    Node(Node<'t>),
    Pipeline(Vec<Node<'t>>),
}

/// A `list` node's operands and the operators between them, in order, as bash reads them.
/// `a && b || c` is left-nested; it is flattened iteratively so long chains do not recurse.
///
/// tree-sitter-bash reads a list whose first operand is a pipeline of three or more stages as
/// the first stage piped into a list: `a | b | c || d` as `a | (b | c || d)`, where bash
/// reads `(a | b | c) || d`. Such a first operand is put back: the inner list's first operand
/// joins the stages before it as one pipeline, and its other operands come before the outer
/// list's. Invariant protected: what flows through a pipeline reaches every stage of it
/// (`curl -s URL | tee /tmp/i.sh | sh || true` pipes the download into `sh`), and an
/// operand after it runs in the shell itself, on the success or failure of the whole
/// pipeline (`ls | sort | head && cd / && rm -rf etc` removes `/etc`).
fn flatten_list(node: Node<'_>) -> (Vec<Operand<'_>>, Vec<&'static str>) {
    let mut operands = Vec::new();
    let mut operators = Vec::new();
    let mut current = node;
    loop {
        let mut cursor = current.walk();
        let children: Vec<Node<'_>> = current.children(&mut cursor).collect();
        let Some((first, rest)) = children.split_first() else {
            break;
        };
        for child in rest.iter().rev() {
            if child.is_named() {
                operands.push(Operand::Node(*child));
            } else {
                operators.push(child.kind());
            }
        }
        if first.kind() == "list" {
            current = *first;
        } else {
            operands.push(Operand::Node(*first));
            break;
        }
    }
    operands.reverse();
    operators.reverse();
    if let Some(Operand::Node(first)) = operands.first()
        && let Some((mut spliced, mut joined)) = put_back(*first)
    {
        spliced.extend(operands.into_iter().skip(1));
        joined.extend(operators);
        return (spliced, joined);
    }
    (operands, operators)
}

/// The list bash reads where tree-sitter-bash made a pipeline of it (see [`flatten_list`]):
/// its operands, the first the whole pipeline, and its operators; `None` for any other node.
fn put_back(node: Node<'_>) -> Option<(Vec<Operand<'_>>, Vec<&'static str>)> {
    let (mut whole, inner) = misread_pipeline(node)?;
    let (inner_operands, inner_operators) = flatten_list(inner);
    match inner_operands.first() {
        Some(Operand::Node(head)) if head.kind() == "pipeline" => {
            let mut cursor = head.walk();
            whole.extend(head.named_children(&mut cursor));
        }
        Some(Operand::Node(head)) => whole.push(*head),
        Some(Operand::Pipeline(head)) => whole.extend(head.iter().copied()),
        None => {}
    }
    let mut operands = vec![Operand::Pipeline(whole)];
    operands.extend(inner_operands.into_iter().skip(1));
    Some((operands, inner_operators))
}

/// A `pipeline` node tree-sitter-bash made of a list's first operand (see [`flatten_list`]):
/// its stages before the last, and that last stage, a `list`.
fn misread_pipeline(node: Node<'_>) -> Option<(Vec<Node<'_>>, Node<'_>)> {
    if node.kind() != "pipeline" {
        return None;
    }
    let mut cursor = node.walk();
    let mut stages: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
    if stages.len() < 2 || stages.last()?.kind() != "list" {
        return None;
    }
    let tail = stages.pop()?;
    Some((stages, tail))
}

/// What a list operand's form shows (see [`OperandFacts`]); a put-back pipeline shows what
/// its last stage does.
fn operand_facts<'s>(operand: Option<&Operand<'_>>, src: &'s str) -> OperandFacts<'s> {
    let node = match operand {
        Some(Operand::Node(node)) => *node,
        Some(Operand::Pipeline(stages)) => match stages.last() {
            Some(last) => *last,
            None => return OperandFacts::default(),
        },
        None => return OperandFacts::default(),
    };
    OperandFacts {
        leaves: always_leaves(node, src),
        nested_list: is_list(node),
        empty_on_failure: empty_on_failure(node, src),
    }
}

/// What a list of commands printed, as [`Walker::list_of`] saw it: the last operand's output
/// (returned for the caller to judge with the list's redirects) and the first secret an
/// operand before it printed (judged where it was shown, and still part of the list's own
/// output: `printenv && true | …` is not how bash reads it, `{ printenv && true; } | nc …` is).
#[derive(Debug)]
pub(crate) struct ListOutput {
    pub last: Producer,
    pub earlier_secret: Option<crate::model::FlowSource>,
}

impl ListOutput {
    /// The list's output as one stream for what reads it: a secret any operand printed
    /// (the last's first), else `rest` of the last operand's output.
    pub(crate) fn secret_or(self, rest: impl FnOnce(Producer) -> Producer) -> Producer {
        match (self.last, self.earlier_secret) {
            (last @ Producer::Secret(_), _) => last,
            (_, Some(source)) => Producer::Secret(source),
            (last, None) => rest(last),
        }
    }
}

impl Walker<'_> {
    /// A pipeline statement tree-sitter-bash misread (`a | b | c || d`, see
    /// [`flatten_list`]; the caller checked its shape): walked as the list bash reads.
    pub(crate) fn misread_pipeline(
        &mut self,
        node: Node<'_>,
        src: &str,
        scope: &mut Scope,
        stdin: Producer,
        depth: usize,
    ) -> Producer {
        // What a list prints is every operand's output, not only the last's: only a secret
        // among them is known to be in it.
        self.list(node, src, scope, stdin, &[], depth)
            .secret_or(|_| Producer::Opaque)
    }

    /// Walks one list operand in `scope`: a node as a statement, a put-back pipeline through
    /// the pipeline rules.
    fn operand(
        &mut self,
        operand: &Operand<'_>,
        src: &str,
        scope: &mut Scope,
        input: Producer,
        depth: usize,
    ) -> Producer {
        match operand {
            Operand::Node(node) => self.stmt_io(*node, src, scope, input, depth + 1),
            Operand::Pipeline(stages) => self.pipeline_of(
                stages.len(),
                scope,
                input,
                |w, i, inner, input| match stages.get(i) {
                    Some(&stage) => w.stmt_io(stage, src, inner, input, depth + 1),
                    None => Producer::Nothing,
                },
            ),
        }
    }

    /// `a && b || c`: each operand starts in the state where control reaches it, and the state
    /// after the list joins the success and failure states (see the module invariant).
    ///
    /// `redirects` are those the grammar hangs on the whole list when they follow its last
    /// command (`cd .claude && cat > f <<EOF`), while bash gives them to that command: they
    /// are applied to it, where it runs. `stdin` is what feeds the list, and the result what
    /// the last operand prints. (What a list as a whole prints is every operand's output:
    /// callers in other positions take it as opaque.)
    pub(crate) fn list(
        &mut self,
        node: Node<'_>,
        src: &str,
        scope: &mut Scope,
        stdin: Producer,
        redirects: &[Node<'_>],
        depth: usize,
    ) -> ListOutput {
        // `node` is a `list`, or a `pipeline` tree-sitter-bash made of one (see
        // [`flatten_list`]): the operands are the ones bash reads.
        // A misread pipeline statement stands for the list it was made of.
        let (operands, operators) = if node.kind() == "list" {
            flatten_list(node)
        } else {
            put_back(node).unwrap_or_else(|| (vec![Operand::Node(node)], Vec::new()))
        };
        let last = operands.len().saturating_sub(1);
        // `[ -f X ] || cp A X`, `[ ! -e X ] && cp A X`: the second operand runs only where
        // the first showed X absent.
        let absent = match operands.first() {
            Some(Operand::Node(first)) => {
                existence_test(*first, src).and_then(|(path, absent_on_success)| {
                    let op = operators.first().copied()?;
                    ((op == "&&") == absent_on_success).then_some(path)
                })
            }
            _ => None,
        };
        self.list_of(
            operands.len(),
            &operators,
            scope,
            stdin,
            absent.as_deref(),
            |w, index, scope, input| match operands.get(index) {
                Some(Operand::Node(operand)) if index == last => {
                    w.with_redirects(redirects, Some(*operand), src, scope, input, depth)
                }
                Some(operand) => w.operand(operand, src, scope, input, depth),
                None => Producer::Nothing,
            },
            |index| operand_facts(operands.get(index), src),
        )
    }

    /// The control flow of a list of `count` operands joined by `operators` (`&&`, `||`), for
    /// operands of any form: `run(walker, index, scope, stdin)` walks operand `index` in
    /// `scope`, and `facts(index)` says what its form shows (see [`OperandFacts`]); `absent`
    /// is the path the first operand showed absent where the second runs (an existence
    /// guard). Shared by tree-sitter's `list` nodes and the plain-list fast path
    /// (`crate::plain_list`), so both judge a list by the same rules.
    #[allow(
        clippy::too_many_arguments,
        reason = "the list's parts and the two views of its operands; a struct would only rename them"
    )]
    pub(crate) fn list_of<'s>(
        &mut self,
        count: usize,
        operators: &[&str],
        scope: &mut Scope,
        stdin: Producer,
        absent: Option<&str>,
        mut run: impl FnMut(&mut Self, usize, &mut Scope, Producer) -> Producer,
        facts: impl Fn(usize) -> OperandFacts<'s>,
    ) -> ListOutput {
        // `ok`/`fail`: the state when what ran so far succeeded / failed. Most operands change
        // nothing, so a track equal to the working state (`scope`) is `Here` and costs no copy.
        let mut ok = Track::Here;
        let mut fail = Track::Here;
        let last = count.saturating_sub(1);
        let mut stdin = Some(stdin);
        let mut printed = Producer::Opaque;
        let mut earlier_secret = None;
        for index in 0..count {
            // Operands before the last read the shell's own input (a redirect the grammar
            // hangs on the list is the last one's).
            let input = if index == last {
                stdin.take().unwrap_or(Producer::Nothing)
            } else {
                self.shell_stdin.clone()
            };
            let op = index.checked_sub(1).and_then(|i| operators.get(i)).copied();
            let (start, other) = match op {
                None => (Track::Here, None),
                Some("||") => (std::mem::replace(&mut fail, Track::Dead), Some(&mut ok)),
                Some(_) => (std::mem::replace(&mut ok, Track::Dead), Some(&mut fail)),
            };
            match start {
                Track::Here => {}
                Track::Saved(s) => {
                    if let Some(o) = other
                        && matches!(o, Track::Here)
                    {
                        *o = Track::Saved(Box::new(scope.clone()));
                    }
                    *scope = *s;
                }
                Track::Dead => {
                    // No path reaches it (`exit || x`): still judged, in the current state.
                    let mut unreached = scope.clone();
                    printed = run(self, index, &mut unreached, input);
                    match op {
                        Some("||") => fail = Track::Dead,
                        _ => ok = Track::Dead,
                    }
                    continue;
                }
            }
            let stamp = scope.stamp();
            // Only the operand after an existence guard needs where it starts (no copy else).
            let guarded =
                (index == 1 && absent.is_some()).then(|| (self.commands.len(), scope.cwd_path()));
            let first = self.commands.len();
            printed = run(self, index, scope, input);
            // What an operand before the last prints goes where the list's output goes; the
            // last one's is returned for the caller to judge.
            if index < last {
                self.judge_shown(&printed, first, scope);
                if let Producer::Secret(source) = &printed
                    && earlier_secret.is_none()
                {
                    earlier_secret = Some(source.clone());
                }
            }
            if let (Some((from, cwd)), Some(path)) = (guarded, absent) {
                self.creates_only(from, path, &cwd);
            }
            let OperandFacts {
                leaves,
                nested_list,
                empty_on_failure,
            } = facts(index);
            let changed = scope.stamp() != stamp;
            // A command that failed may have done part of its work: what it changed is
            // unknown on the failure path. A track that was the working state before this
            // operand is that too (its exact value is gone; this is what is known of it).
            let failed = if leaves {
                Track::Dead
            } else if changed && nested_list {
                // A nested list's own end state already joins its success and failure paths
                // (`a && b > f && c` nests `a && b` under the redirect): it holds on failure.
                Track::Here
            } else if changed {
                let mut f = Box::new(scope.clone());
                f.forget_since_but(stamp, empty_on_failure);
                // A `cd` that fails stays where it was — the directory its success left in
                // `OLDPWD` (`mkdir -p D && cd D`: the start, or D). Only when the operand ran
                // that one command (a function or a group may have moved before failing).
                if let [only] = self.commands.get(first..).unwrap_or(&[])
                    && only
                        .argv
                        .first()
                        .is_some_and(|p| matches!(p.as_str(), "cd" | "chdir" | "pushd" | "popd"))
                {
                    f.cwd = scope.sh.oldpwd.clone();
                    f.either = None;
                }
                if let Some(name) = empty_on_failure {
                    f.sh.set(name, Val::Known(String::new()), None);
                }
                Track::Saved(f)
            } else {
                Track::Here
            };
            let after = if leaves { Track::Dead } else { Track::Here };
            if changed {
                for t in [&mut ok, &mut fail] {
                    if matches!(t, Track::Here) {
                        *t = failed.clone();
                    }
                }
            }
            match op {
                None => {
                    ok = after;
                    fail = failed;
                }
                Some("||") => {
                    ok = Track::join(std::mem::replace(&mut ok, Track::Dead), after, scope);
                    fail = failed;
                }
                Some(_) => {
                    ok = after;
                    fail = Track::join(std::mem::replace(&mut fail, Track::Dead), failed, scope);
                }
            }
        }
        match Track::join(ok, fail, scope) {
            Track::Here | Track::Dead => {}
            Track::Saved(end) => *scope = *end,
        }
        ListOutput {
            last: printed,
            earlier_secret,
        }
    }

    /// `if … then … elif … else … fi`: conditions run in order; each branch starts where its
    /// condition left; the state after is the join of every branch (and of no branch taken).
    pub(crate) fn if_statement(
        &mut self,
        node: Node<'_>,
        src: &str,
        scope: &mut Scope,
        depth: usize,
    ) {
        let mut exits: Option<Scope> = None;
        let mut has_else = false;
        self.clause(node, src, scope, depth, &mut exits, &mut has_else);
        if !has_else {
            exits = join_opt(exits, Some(scope));
        }
        if let Some(end) = exits {
            *scope = end;
        }
    }

    /// The conditions and body of an `if` or `elif` clause; `scope` is the state when every
    /// condition so far failed.
    fn clause(
        &mut self,
        node: Node<'_>,
        src: &str,
        scope: &mut Scope,
        depth: usize,
        exits: &mut Option<Scope>,
        has_else: &mut bool,
    ) {
        let mut body: Option<Scope> = None;
        let mut cursor = node.walk();
        let children: Vec<Node<'_>> = node.children(&mut cursor).collect();
        // `if [ ! -e X ]; then cp A X; fi` (or `if [ -f X ]; then …; else cp A X; fi`): the
        // branch where the one condition showed X absent creates it.
        let conditions: Vec<Node<'_>> = children
            .iter()
            .take_while(|c| c.kind() != "then")
            .filter(|c| c.is_named() && c.kind() != "comment")
            .copied()
            .collect();
        let test = match conditions.as_slice() {
            [one] => existence_test(*one, src),
            _ => None,
        };
        let mut then_from = None;
        for child in children {
            match child.kind() {
                "then" => {
                    body = Some(scope.clone());
                    then_from = test
                        .as_ref()
                        .is_some_and(|t| t.1)
                        .then(|| (self.commands.len(), scope.cwd_path()));
                }
                "elif_clause" => {
                    if let Some(b) = body.take() {
                        *exits = join_opt(exits.take(), Some(&b));
                    }
                    self.clause(child, src, scope, depth + 1, exits, has_else);
                }
                "else_clause" => {
                    if let Some(b) = body.take() {
                        *exits = join_opt(exits.take(), Some(&b));
                    }
                    self.then_creates(test.as_ref(), then_from.take());
                    let mut b = scope.clone();
                    let start = test
                        .as_ref()
                        .is_some_and(|t| !t.1)
                        .then(|| (self.commands.len(), scope.cwd_path()));
                    self.block(child, src, &mut b, depth + 1);
                    if let (Some((path, false)), Some((from, cwd))) = (&test, start) {
                        self.creates_only(from, path, &cwd);
                    }
                    *exits = join_opt(exits.take(), Some(&b));
                    *has_else = true;
                }
                _ if child.is_named() => {
                    let target = body.as_mut().unwrap_or(scope);
                    self.stmt_or_scan(child, src, target, depth + 1);
                }
                _ => {}
            }
        }
        self.then_creates(test.as_ref(), then_from);
        if let Some(b) = body {
            *exits = join_opt(exits.take(), Some(&b));
        }
    }

    /// The `then` branch of a clause whose condition showed the path absent on success.
    fn then_creates(
        &mut self,
        test: Option<&(String, bool)>,
        from: Option<(usize, crate::model::WorkDir)>,
    ) {
        if let (Some((path, true)), Some((from, cwd))) = (test, from) {
            self.creates_only(from, path, &cwd);
        }
    }

    /// The commands recorded since `from` that run where `path` was just shown absent: a
    /// `cp … PATH` from the same directory creates PATH and overwrites nothing there, which
    /// is what `cp -n` says, so it is recorded as that (the policy already reads `cp -n` of a
    /// template as creating, not replacing, the file). Anything else keeps its reading.
    fn creates_only(&mut self, from: usize, path: &str, cwd: &crate::model::WorkDir) {
        for c in self.commands.get_mut(from..).unwrap_or_default() {
            let plain_copy = c.argv.first().is_some_and(|a| a == "cp")
                && c.argv.len() >= 3
                && c.argv.last().is_some_and(|t| t == path)
                && c.argv.iter().skip(1).all(|a| {
                    !a.starts_with('-')
                        || (a.len() > 1
                            && !a.starts_with("--")
                            && a.chars().skip(1).all(|f| "aprRvLPHdn".contains(f)))
                });
            if plain_copy && c.cwd == *cwd && !c.argv.iter().any(|a| a == "-n") {
                c.argv.insert(1, "-n".to_owned());
            }
        }
    }

    fn stmt_or_scan(&mut self, node: Node<'_>, src: &str, scope: &mut Scope, depth: usize) {
        if is_statement(node.kind())
            || matches!(
                node.kind(),
                "compound_statement" | "do_group" | "else_clause" | "elif_clause" | "case_item"
            )
        {
            self.stmt(node, src, scope, depth);
        } else {
            self.scan_substitutions(node, src, scope, depth);
        }
    }

    /// `case WORD in …`: each item starts from the state before; the state after joins them
    /// (and no item matching). A fall-through (`;&`, `;;&`) makes what the items assign
    /// unknown.
    pub(crate) fn case_statement(
        &mut self,
        node: Node<'_>,
        src: &str,
        scope: &mut Scope,
        depth: usize,
    ) {
        let mark = scope.sh.generation();
        let mut exits: Option<Scope> = None;
        let mut falls_through = false;
        let mut cursor = node.walk();
        let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
        for child in children {
            if child.kind() == "case_item" {
                let mut b = scope.clone();
                let mut c2 = child.walk();
                for part in child.children(&mut c2) {
                    if matches!(part.kind(), ";&" | ";;&") {
                        falls_through = true;
                    }
                }
                self.mixed(child, src, &mut b, depth + 1);
                exits = join_opt(exits, Some(&b));
            } else {
                self.scan_substitutions(child, src, scope, depth + 1);
            }
        }
        exits = join_opt(exits, Some(scope));
        if let Some(mut end) = exits {
            if falls_through {
                let names = end.sh.assigned_since(mark);
                end.sh.forget(&names);
            }
            *scope = end;
        }
    }

    /// `while`/`until`/`for ((…))`, and `for` over words not known statically. The body is
    /// walked once; if it assigned nothing, that walk saw what every turn sees and is kept.
    /// Otherwise it is dropped and the body walked again with what it assigns unknown (a
    /// later turn sees the earlier turn's values). `var` is the loop variable (unknown).
    pub(crate) fn loop_statement(
        &mut self,
        node: Node<'_>,
        src: &str,
        scope: &mut Scope,
        depth: usize,
        var: Option<(&str, &Val)>,
        body: Option<Node<'_>>,
    ) {
        let walk = |w: &mut Self, state: &mut Scope| {
            if let Some((v, value)) = var {
                state.sh.set(v, value.clone(), None);
            }
            match body {
                Some(b) => w.stmt(b, src, state, depth + 1),
                None => w.mixed(node, src, state, depth),
            }
        };
        let mark = self.mark();
        let stamp = scope.sh.generation();
        let mut trial = scope.clone();
        walk(self, &mut trial);
        let assigned: Vec<String> = trial
            .sh
            .assigned_since(stamp)
            .into_iter()
            .filter(|n| Some(n.as_str()) != var.map(|(v, _)| v))
            .collect();
        let settled = assigned.is_empty()
            && trial.cwd == scope.cwd
            && trial.sh.params == scope.sh.params
            && trial.sh.dirs == scope.sh.dirs
            && trial.sh.aliases.len() == scope.sh.aliases.len()
            && trial.sh.functions.len() == scope.sh.functions.len();
        if settled {
            scope.join(&trial);
            return;
        }
        self.rewind(mark);
        let mut entry = scope.clone();
        entry.sh.forget(&assigned);
        if trial.cwd != scope.cwd || trial.either != scope.either {
            entry.cwd = Cwd::Unknown;
            entry.either = None;
            entry.sh.oldpwd = Cwd::Unknown;
        }
        if trial.sh.params != scope.sh.params {
            entry.sh.params = None;
        }
        if trial.sh.dirs != scope.sh.dirs {
            entry.sh.dirs = None;
        }
        entry.sh.aliases.clone_from(&trial.sh.aliases);
        entry.sh.functions.clone_from(&trial.sh.functions);
        let mut state = entry.clone();
        walk(self, &mut state);
        entry.join(&state);
        *scope = entry;
    }

    /// `for NAME [in WORDS]; do …; done` (and `select`). Over literal words (at most
    /// [`MAX_UNROLLED_VALUES`], within the line's unroll budget) the body is walked once per
    /// value, in order; otherwise it is a loop whose variable is unknown.
    pub(crate) fn for_statement(
        &mut self,
        node: Node<'_>,
        src: &str,
        scope: &mut Scope,
        depth: usize,
    ) {
        let var = node
            .child_by_field_name("variable")
            .map(|v| text(v, src).to_owned())
            .unwrap_or_default();
        let select = node.child(0).is_some_and(|k| text(k, src) == "select");
        let body = node.child_by_field_name("body");
        let mut values: Vec<Word> = Vec::new();
        let mut cursor = node.walk();
        let value_nodes: Vec<Node<'_>> =
            node.children_by_field_name("value", &mut cursor).collect();
        for child in &value_nodes {
            self.fields_into(*child, src, scope, depth + 1, &mut values);
        }
        // `for x; do` (no `in`) iterates over "$@"; `for x in; do` over nothing.
        let has_in = !value_nodes.is_empty() || {
            let head_end = body.map_or(node.end_byte(), |b| b.start_byte());
            let var_end = node
                .child_by_field_name("variable")
                .map_or(head_end, |v| v.end_byte());
            src.get(var_end..head_end)
                .is_some_and(|h| h.split([' ', '\t', '\n', ';']).any(|t| t == "in"))
        };
        if !has_in {
            // `for x; do` iterates over "$@".
            values = match &scope.sh.params {
                Some(params) => params
                    .iter()
                    .map(|p| match p {
                        Val::Known(v) => Word::lit(v.clone()),
                        Val::Found(text, shape) => crate::walk::Word::paths(text, *shape),
                        Val::Unknown | Val::OrEmpty(_) | Val::Array(_) => Word::opaque("$@"),
                    })
                    .collect(),
                None => vec![Word::opaque("$@")],
            };
        }
        // Several words of which some are patterns (`for f in ~/.ssh/id_* ~/.aws/*`): each
        // turn binds the variable to one word, a pattern to the files it matches, so the body
        // is judged once per word as it is for literal words (one pattern alone keeps the
        // loop reading below, where `$f` is any of its matches).
        let patterns = values.len() >= 2
            && values.iter().all(|w| w.exact)
            && values
                .iter()
                .any(|w| w.shape != crate::walk::WordShape::Exact);
        // Known words beside words only known at run time (`for f in ~/.ssh/id_rsa "$Y"`):
        // each turn is judged too — the known ones with their value, the others as unknown —
        // so one run-time word cannot hide the known ones (they were all read as unknown).
        let mixed =
            values.len() >= 2 && values.iter().any(|w| w.exact) && values.iter().any(|w| !w.exact);
        let literal = !select
            && (patterns
                || mixed
                || values
                    .iter()
                    .all(|w| w.exact && w.shape == crate::walk::WordShape::Exact))
            && values.len() <= MAX_UNROLLED_VALUES
            && values.len() <= self.unroll_budget
            && body.is_some_and(|b| !has_jump(b, src));
        // `for l in $(cat .env)`: each turn's value is a piece of the secret.
        if let Some(source) = crate::flow::words_source(&values) {
            scope.secret_vars.push((var.clone(), source));
        }
        if !literal {
            // `for f; do …` over `find`'s items (`find … | xargs sh -c 'for f; do …' _`):
            // each turn's `$f` is one of the found files, however many turns there are.
            let value = match values.as_slice() {
                [one] if one.exact && one.shape != crate::walk::WordShape::Exact => {
                    Val::Found(one.text.clone(), one.shape)
                }
                // `for f in $(git ls-files '*.py')`: each turn's `$f` is one listed file (a
                // name with blanks splits into pieces below the same directory, as `xargs`
                // splits it).
                [one] if listing_substitution(one) => one
                    .substs
                    .first()
                    .and_then(Walker::listing_items)
                    .map_or(Val::Unknown, |w| Val::Found(w.text, w.shape)),
                _ => Val::Unknown,
            };
            self.loop_statement(node, src, scope, depth, Some((&var, &value)), body);
            return;
        }
        self.unroll_budget -= values.len();
        let Some(body) = body else {
            return;
        };
        if values.is_empty() {
            // `for x in; do …` never runs its body; it is still judged (as dead code after
            // `exit` is), in a copy.
            let mut unreached = scope.clone();
            unreached.sh.set(&var, Val::Unknown, None);
            self.stmt(body, src, &mut unreached, depth + 1);
            return;
        }
        for value in values {
            let bound = if !value.exact {
                Val::Unknown
            } else if value.shape == crate::walk::WordShape::Exact {
                Val::Known(value.text)
            } else {
                Val::Found(value.text, value.shape)
            };
            scope.sh.set(&var, bound, None);
            self.stmt(body, src, scope, depth + 1);
        }
    }

    /// `name() { …; }`: the function is defined from here on; its body is analysed now with
    /// unknown arguments, kept aside (see [`Pending`]), and again at every call.
    pub(crate) fn function(&mut self, node: Node<'_>, src: &str, scope: &mut Scope, depth: usize) {
        let name = node
            .child_by_field_name("name")
            .map(|n| text(n, src).to_owned())
            .unwrap_or_default();
        let Some(body) = node.child_by_field_name("body") else {
            return;
        };
        let id = self.pending.len();
        self.pending.push(Pending {
            at: self.commands.len(),
            commands: Vec::new(),
            extra: Vec::new(),
            called: false,
            forced: false,
        });
        scope.sh.functions.retain(|f| f.name != name);
        scope.sh.functions.push(Function {
            name: name.clone(),
            body: Rc::from(text(body, src)),
            id,
            exported: false,
            jumps: has_jump(body, src),
        });
        let (commands, extra) = (self.commands.len(), self.extra.len());
        let mut inner = scope.clone();
        inner.via.push(format!("function {name}"));
        inner.sh.params = None;
        inner.sh.frames.push(Vec::new());
        self.calling.push(id);
        // The analysis with unknown arguments stands for calls the line does not follow: a
        // trap its body sets is judged with it (at its end), not at the end of the line,
        // where a followed call's trap is.
        self.in_shell(&mut inner, |w, inner| w.stmt(body, src, inner, depth + 1));
        self.calling.pop();
        let recursive = self
            .commands
            .get(commands..)
            .unwrap_or(&[])
            .iter()
            .any(|c| c.argv.first() == Some(&name));
        let generic = self.commands.split_off(commands.min(self.commands.len()));
        let generic_extra = self.extra.split_off(extra.min(self.extra.len()));
        if let Some(p) = self.pending.get_mut(id) {
            p.commands = generic;
            p.extra = generic_extra;
        }
        if recursive && crate::walk::spawns_in_background(body) {
            self.record_text(
                vec![name],
                scope,
                crate::taxonomy::ids::RCE_FORK_BOMB.verdict(),
            );
        }
    }

    /// A call of a function defined on the line: its body runs in this shell with the call's
    /// arguments as `$1…` (`local`s restored after). A recursive call is not followed; the
    /// body's analysis with unknown arguments stands for it.
    pub(crate) fn call_function(&mut self, f: &Function, args: &[Word], scope: &mut Scope) {
        if self.calling.contains(&f.id) {
            if let Some(p) = self.pending.get_mut(f.id) {
                p.forced = true;
            }
            return;
        }
        if let Some(p) = self.pending.get_mut(f.id) {
            p.called = true;
        }
        scope.sh.touch();
        let saved = scope.sh.params.replace(args.iter().map(Val::of).collect());
        scope.sh.frames.push(Vec::new());
        let stamp = scope.sh.generation();
        self.calling.push(f.id);
        let body = Rc::clone(&f.body);
        self.analyze_source(&body, scope, &format!("function {}", f.name));
        self.calling.pop();
        if f.jumps {
            let names = scope.sh.assigned_since(stamp);
            scope.sh.forget(&names);
        }
        scope.sh.pop_frame();
        scope.sh.params = saved;
    }

    /// Bare assignments, `export`/`declare`/`typeset`/`readonly`/`local` and `unset`: the
    /// variables take their values (see `crate::state`), and each name set (or exported)
    /// becomes a `SetEnv` effect. A shell variable that is already exported reaches every
    /// later child process when merely reassigned, so plain `X=1` counts too; `unset` sets
    /// nothing.
    ///
    /// Returns what it prints: `export -p`/`declare -x` with no names list the environment.
    pub(crate) fn assignments(
        &mut self,
        node: Node<'_>,
        src: &str,
        scope: &mut Scope,
        depth: usize,
    ) -> Producer {
        if node.kind() == "unset_command" {
            // Run as the command it is (as the plain-words path does): `shell_builtin` changes
            // the state, and the record shows callers which variables the line removes from
            // the environment.
            let mut argv = vec![Word::lit("unset")];
            let mut cursor = node.walk();
            let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
            for child in children {
                if child.kind() == "variable_name" {
                    argv.push(Word::lit(text(child, src)));
                } else {
                    self.fields_into(child, src, scope, depth + 1, &mut argv);
                }
            }
            let _ = self.exec(&argv, scope, Producer::Nothing);
            return Producer::Nothing;
        }
        let before = self.commands.len();
        let mut names = Vec::new();
        let mut flags = Vec::new();
        let declares = node.kind() == "declaration_command";
        let keyword = if declares {
            node.child(0).map_or("", |k| text(k, src))
        } else {
            ""
        };
        let mut cursor = node.walk();
        let children: Vec<Node<'_>> = if node.kind() == "variable_assignment" {
            Vec::new()
        } else {
            node.named_children(&mut cursor).collect()
        };
        for child in &children {
            let t = text(*child, src);
            if child.kind() == "word" && t.starts_with(['-', '+']) {
                flags.push(Word::lit(t));
            }
        }
        let has = |sign: char, letter: char| {
            flags
                .iter()
                .any(|f| f.text.starts_with(sign) && f.text.contains(letter))
        };
        let export = if keyword == "export" || has('-', 'x') {
            Some(true)
        } else if has('+', 'x') || (keyword == "export" && has('-', 'n')) {
            Some(false)
        } else {
            None
        };
        // `declare`/`typeset`/`local` in a function make the name local (not with `-g`).
        let local = matches!(keyword, "local" | "declare" | "typeset")
            && !scope.sh.frames.is_empty()
            && !has('-', 'g');
        // Arrays, integers, case conversion: the value is transformed; a name reference
        // (`-n`) makes every later assignment through it reach another variable.
        let transformed = ['a', 'A', 'i', 'l', 'u', 'c'].iter().any(|l| has('-', *l));
        let functions = has('-', 'f');
        let mut poison = declares && has('-', 'n') && keyword != "export";
        // tree-sitter-bash ends `PATH=$PATH:$HOME/bin` after `:$` and reads `HOME/bin` as a
        // word of its own; bash reads one assignment. A word glued to an assignment is the
        // rest of its value: the value is unknown (the grammar lost the `$`), the glued text
        // is not a name, its substitutions still run.
        let mut glued_to: Option<(String, usize)> = None;
        for child in &children {
            if let Some((name, end)) = glued_to.as_ref()
                && *end == child.start_byte()
                && child.kind() != "variable_assignment"
            {
                let name = name.clone();
                self.scan_substitutions(*child, src, scope, depth + 1);
                scope.sh.set(&name, Val::Unknown, export);
                glued_to = Some((name, child.end_byte()));
                continue;
            }
            glued_to = None;
            match child.kind() {
                "variable_assignment" => {
                    let (name, value) = self.assignment(*child, src, scope, depth + 1);
                    glued_to = Some((name.clone(), child.end_byte()));
                    if local {
                        scope.sh.make_local(&name);
                    }
                    // `declare -a a=(…)` is the array an unflagged `a=(…)` makes.
                    let value = match value {
                        Val::Array(e)
                            if !['A', 'i', 'l', 'u', 'c'].iter().any(|l| has('-', *l)) =>
                        {
                            Val::Array(e)
                        }
                        _ if transformed => Val::Unknown,
                        // `export x=$(mktemp -d)` succeeds even when `mktemp` printed nothing:
                        // on the success path too the value is the path or empty.
                        Val::Known(p) if declares && empty_on_failure(*child, src).is_some() => {
                            Val::OrEmpty(p)
                        }
                        v => v,
                    };
                    scope.sh.set(&name, value, export);
                    if let Some(n) = child.child_by_field_name("name") {
                        names.push(text(n, src).to_owned());
                    }
                }
                "variable_name" => {
                    let name = text(*child, src);
                    if declares {
                        names.push(name.to_owned());
                    }
                    if functions && export == Some(true) {
                        self.export_function(name, scope);
                    } else if local {
                        scope.sh.make_local(name);
                        scope.sh.set(name, Val::Known(String::new()), export);
                    } else if export == Some(true) {
                        scope.sh.export(name);
                    }
                }
                "word" if text(*child, src).starts_with(['-', '+']) => {}
                "word" if functions => {
                    if export == Some(true) {
                        self.export_function(text(*child, src), scope);
                    }
                }
                _ if declares => {
                    // `export "NAME"=v`, `export $V=v`: bash removes quotes and expands before
                    // it reads the name, so the word's value is what is declared (`V` assigned
                    // earlier on the line gives the name). A name only known at run time may
                    // be any variable: it is kept as written, for callers to ask about.
                    let outer = std::mem::replace(&mut self.no_split, true);
                    let w = self.word(*child, src, scope, depth + 1);
                    self.no_split = outer;
                    let how = Declare {
                        export,
                        local,
                        transformed,
                        functions,
                    };
                    poison |= !self.declare_word(&w, how, scope);
                    let name = w.text.split_once('=').map_or(w.text.as_str(), |(n, _)| n);
                    if !(name.is_empty() || (w.exact && name.starts_with(['-', '+']))) {
                        names.push(name.to_owned());
                    }
                }
                _ => {
                    poison = true;
                    self.scan_substitutions(*child, src, scope, depth + 1);
                }
            }
        }
        if node.kind() == "variable_assignment" {
            let (name, value) = self.assignment(node, src, scope, depth + 1);
            scope.sh.set(&name, value, None);
            if let Some(n) = node.child_by_field_name("name") {
                names.push(text(n, src).to_owned());
            }
        }
        if poison {
            scope.sh.poison();
        }
        let listing = if declares && names.is_empty() {
            crate::flow::command_source(
                keyword,
                &flags,
                &Producer::Nothing,
                false,
                &scope.cwd,
                self.ctx,
                &self.files,
            )
            .map_or(Producer::Nothing, Producer::Secret)
        } else {
            Producer::Nothing
        };
        self.attach_set_env(before, names, text(node, src), scope);
        listing
    }

    /// `export -f name`: child bash processes may call it where the analysis cannot see, so
    /// its analysis with unknown arguments counts.
    pub(crate) fn export_function(&mut self, name: &str, scope: &mut Scope) {
        for f in scope.sh.functions.iter_mut().filter(|f| f.name == name) {
            f.exported = true;
            if let Some(p) = self.pending.get_mut(f.id) {
                p.forced = true;
            }
        }
    }

    /// A `NAME=value` (bare, prefix or declared): its value's substitutions run; some names
    /// change what later runs. Returns the variable's name and value; the caller decides
    /// where it is set (a prefix assignment only reaches its command).
    pub(crate) fn assignment(
        &mut self,
        node: Node<'_>,
        src: &str,
        scope: &mut Scope,
        depth: usize,
    ) -> (String, Val) {
        let name_node = node.child_by_field_name("name");
        let shown = name_node.map_or("", |n| text(n, src));
        // `a[1]=x` changes the array `a`.
        let (name, element) = match name_node {
            Some(n) if n.kind() == "subscript" => (
                n.child_by_field_name("name")
                    .map_or(shown, |b| text(b, src))
                    .to_owned(),
                true,
            ),
            _ => (shown.to_owned(), false),
        };
        let mut cursor = node.walk();
        let append = node.children(&mut cursor).any(|c| c.kind() == "+=");
        // Resolving the value runs its substitutions (once); a value holding secret data makes
        // the variable a secret source for later sinks in the line. Assignment values are not
        // split or globbed.
        let value_node = node.child_by_field_name("value");
        let value = value_node.map(|v| {
            let outer = std::mem::replace(&mut self.no_split, true);
            let w = self.word(v, src, scope, depth + 1);
            self.no_split = outer;
            w
        });
        if let Some(source) = value.as_ref().and_then(|w| crate::flow::words_source([w])) {
            scope.secret_vars.push((shown.to_owned(), source));
        }
        self.note_assignment(shown, value.as_ref());
        if let Some(verdict) =
            crate::hazards::variable(shown, Some(value.as_ref().map_or("", |w| w.text.as_str())))
        {
            self.record_text(vec![text(node, src).to_owned()], scope, verdict);
        }
        let array = value_node.is_some_and(|v| v.kind() == "array");
        // `a=(w1 w2 …)`: each element is one word, brace-expanded, split and globbed like a
        // command's arguments. Known when every element is one exact literal path or string;
        // an element naming secret data makes the array a secret source like a scalar.
        let elements = value_node
            .filter(|_| array && !element && !append)
            // Substitutions inside already ran once, with the value: not run twice.
            .filter(|_| value.as_ref().is_some_and(|w| w.substs.is_empty()))
            .and_then(|v| self.array_elements(v, src, scope, depth));
        if let Some(source) = elements
            .as_ref()
            .and_then(|e| crate::flow::words_source(e.iter()))
        {
            scope.secret_vars.push((shown.to_owned(), source));
        }
        let mut val = match &value {
            _ if elements.is_some() => Val::Array(
                elements
                    .unwrap_or_default()
                    .into_iter()
                    .map(|w| w.text)
                    .collect(),
            ),
            _ if element || array => Val::Unknown,
            Some(w) => Val::of(w),
            None => Val::Known(String::new()),
        };
        if append {
            val = match (scope.sh.get(&name), &val) {
                (Some(Val::Known(old)), Val::Known(new)) => Val::Known(format!("{old}{new}")),
                _ => Val::Unknown,
            };
        }
        // `PATH+=:dir` appends to the old value: judged as `PATH=$PATH:dir`. `X=` is the
        // known empty value (as the plain-words path reads `export X=`), not an unknown one.
        let judged = match &value {
            Some(w) if append => Some(Word {
                text: format!("${shown}{}", w.text),
                exact: false,
                ..w.clone()
            }),
            Some(w) => Some(w.clone()),
            None => Some(Word::lit("")),
        };
        if crate::resolve::is_hijack_variable(shown)
            && let Some(verdict) = self.hijack_verdict(shown, judged.as_ref(), scope)
        {
            self.record_text(vec![text(node, src).to_owned()], scope, verdict);
        }
        (name, val)
    }

    /// The words of an array value `(…)` when every one is a single exact literal (no glob,
    /// no run-time value); `None` otherwise (the array stays unknown).
    fn array_elements(
        &mut self,
        value: Node<'_>,
        src: &str,
        scope: &mut Scope,
        depth: usize,
    ) -> Option<Vec<Word>> {
        let mut words = Vec::new();
        let mut cursor = value.walk();
        let items: Vec<Node<'_>> = value.named_children(&mut cursor).collect();
        for item in items {
            if item.kind() == "comment" {
                continue;
            }
            // `([2]=x [k]=y)` places elements by index or key: not a plain list.
            if text(item, src).starts_with('[') {
                return None;
            }
            self.fields_into(item, src, scope, depth + 1, &mut words);
        }
        words
            .iter()
            .all(|w| w.exact && w.shape == crate::walk::WordShape::Exact)
            .then_some(words)
    }

    /// Prefix assignments (`d=x cmd`) reach only `cmd`: set (exported) while it runs, then
    /// the caller's values come back — except around a special builtin or a function, after
    /// which POSIX shells may keep them, so they become unknown.
    pub(crate) fn exec_with_prefix(
        &mut self,
        argv: &[Word],
        prefix: Vec<(String, Val)>,
        scope: &mut Scope,
        stdin: Producer,
    ) -> Producer {
        if prefix.is_empty() {
            return self.exec(argv, scope, stdin);
        }
        if argv.is_empty() {
            // No command: they are ordinary assignments.
            for (name, value) in prefix {
                scope.sh.set(&name, value, None);
            }
            return Producer::Nothing;
        }
        let saved: Vec<_> = prefix
            .iter()
            .map(|(n, _)| (n.clone(), scope.sh.snapshot(n)))
            .collect();
        for (name, value) in prefix {
            scope.sh.set(&name, value, Some(true));
        }
        let out = self.exec(argv, scope, stdin);
        let name = argv
            .first()
            .map(|w| crate::resolve::command_name(&w.text))
            .unwrap_or_default();
        let persists = is_special_builtin(&name)
            || argv
                .first()
                .is_some_and(|w| scope.sh.functions.iter().any(|f| f.name == w.text));
        for (name, var) in saved {
            if persists {
                scope.sh.set(&name, Val::Unknown, None);
            } else {
                scope.sh.restore(&name, var);
            }
        }
        out
    }

    /// `cd`, `pushd`, `popd`, `dirs`: the directory later relative paths are judged against.
    /// A bare `cd` is `$HOME`; `cd -` is `$OLDPWD`; a target only known at run time makes the
    /// directory unknown.
    pub(crate) fn directory(&mut self, name: &str, args: &[Word], scope: &mut Scope) {
        scope.sh.touch();
        let operands: Vec<&Word> = args
            .iter()
            .skip_while(|w| {
                w.exact && w.text.starts_with('-') && w.text.len() > 1 && w.text != "--"
            })
            .filter(|w| !(w.exact && w.text == "--"))
            .collect();
        let target = operands.first().copied();
        let stack_index = |w: &Word| {
            w.text.len() > 1
                && w.text.starts_with(['+', '-'])
                && w.text
                    .get(1..)
                    .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
        };
        match name {
            "cd" | "chdir" => {
                let to = match target {
                    None => self.home_dir(scope),
                    Some(t) if t.exact && t.text == "-" => scope.sh.oldpwd.clone(),
                    Some(t) => self.resolve_dir(t, scope),
                };
                scope.chdir(to);
            }
            // `-n`: the stack changes, not the directory.
            "pushd" | "popd" if args.iter().any(|w| w.exact && w.text == "-n") => {
                scope.sh.dirs = None;
            }
            "pushd" => match target {
                // `pushd` alone swaps the two top entries.
                None => {
                    if let Some(top) = scope.sh.dirs.as_ref().and_then(|d| d.first().cloned()) {
                        let here = scope.cwd.clone();
                        if let Some(first) = scope.sh.dirs.as_mut().and_then(|d| d.first_mut()) {
                            *first = here;
                        }
                        scope.chdir(top);
                    } else {
                        scope.sh.dirs = None;
                        scope.chdir(Cwd::Unknown);
                    }
                }
                Some(t) if stack_index(t) || !t.exact => {
                    scope.sh.dirs = None;
                    scope.chdir(Cwd::Unknown);
                }
                Some(t) => {
                    let to = self.resolve_dir(t, scope);
                    let here = scope.cwd.clone();
                    if let Some(d) = scope.sh.dirs.as_mut() {
                        d.insert(0, here);
                    }
                    scope.chdir(to);
                }
            },
            "popd" => match (target, scope.sh.dirs.as_mut()) {
                (None, Some(d)) if !d.is_empty() => {
                    let top = d.remove(0);
                    scope.chdir(top);
                }
                // An empty stack: `popd` fails and stays.
                (None, Some(_)) => {}
                _ => {
                    scope.sh.dirs = None;
                    scope.chdir(Cwd::Unknown);
                }
            },
            _ => {}
        }
    }

    /// `$HOME` as a directory (`cd`, `~`): the line's value if it assigned one.
    fn home_dir(&self, scope: &Scope) -> Cwd {
        crate::resolve::lookup("HOME", self.ctx, scope)
            .map_or(Cwd::Unknown, |h| Cwd::Known(std::path::PathBuf::from(h)))
    }

    /// The directory `cd WORD` goes to. With `CDPATH` assigned on the line, a bare relative
    /// name may go elsewhere, so it is unknown.
    pub(crate) fn resolve_dir(&self, t: &Word, scope: &Scope) -> Cwd {
        if !t.exact || t.shape != crate::walk::WordShape::Exact {
            return Cwd::Unknown;
        }
        if t.text.is_empty() {
            return scope.cwd.clone();
        }
        // A value that may be empty names no directory: `cd ""` stays, `cd $x` goes home.
        if scope.sh.may_be_empty(&t.text) {
            return Cwd::Unknown;
        }
        let relative_name = !t.text.starts_with('/')
            && !t.text.starts_with("./")
            && !t.text.starts_with("../")
            && t.text != "."
            && t.text != "..";
        if relative_name && scope.sh.get("CDPATH").is_some() {
            return Cwd::Unknown;
        }
        let home = self.ctx.home.as_deref();
        match &scope.cwd {
            Cwd::Known(cwd) => Cwd::Known(hookgate_paths::normalize(&t.text, cwd, home).path),
            Cwd::Unknown if t.text.starts_with('/') => {
                Cwd::Known(hookgate_paths::normalize(&t.text, std::path::Path::new("/"), None).path)
            }
            Cwd::Unknown => Cwd::Unknown,
        }
    }

    /// Builtins that assign variables or parameters: `set -- …`/`set -a`, `shift`, `read`,
    /// `mapfile`, `getopts`, `let`, `wait -p`, `unset`. What they read from input is unknown;
    /// a variable name only known at run time may be any variable.
    ///
    /// `secret`: the secret data on the builtin's input, which the variables `read` and
    /// `mapfile` assign then carry (see `crate::flow::secret_variable`).
    ///
    /// `items`: the file names a listing feeds the builtin (`git ls-files | while read -r f`,
    /// `done < <(rg -l foo)`): a `read` of one whole line (or `-d ''` record) into one
    /// variable binds it to one of those files ([`Val::Found`]), as `xargs` items are.
    pub(crate) fn shell_builtin(
        name: &str,
        args: &[Word],
        scope: &mut Scope,
        secret: Option<&crate::model::FlowSource>,
        items: Option<&Word>,
    ) {
        scope.sh.touch();
        let mut unknown: Vec<String> = Vec::new();
        let mut poison = false;
        let (opts, operands) = match name {
            "read" => crate::deferred::scan(name, args, "adinNptu", &[]),
            "hash" => crate::deferred::scan(name, args, "pt", &[]),
            "mapfile" | "readarray" => crate::deferred::scan(name, args, "dnOsuCc", &[]),
            "wait" => crate::deferred::scan(name, args, "p", &[]),
            "unset" => crate::deferred::scan(name, args, "", &[]),
            _ => (Vec::new(), args.to_vec()),
        };
        match name {
            "set" => {
                let mut i = 0;
                while let Some(w) = args.get(i) {
                    let t = w.text.as_str();
                    if !w.exact {
                        scope.sh.params = None;
                        return;
                    }
                    if t == "--" || t == "-" {
                        i += 1;
                        break;
                    }
                    if matches!(t, "-o" | "+o") {
                        if args.get(i + 1).is_some_and(|o| o.text == "allexport") {
                            scope.sh.allexport = t == "-o";
                        }
                        i += 2;
                        continue;
                    }
                    if t.len() > 1 && t.starts_with(['-', '+']) {
                        if t.contains('a') {
                            scope.sh.allexport = t.starts_with('-');
                        }
                        i += 1;
                        continue;
                    }
                    break;
                }
                let rest = args.get(i..).unwrap_or(&[]);
                // `set` alone lists; `set -x` alone keeps the parameters.
                let sets_params = i < args.len() || args.last().is_some_and(|w| w.text == "--");
                if sets_params {
                    scope.sh.params = Some(rest.iter().map(Val::of).collect());
                }
            }
            "shift" => {
                let n = match args.first() {
                    None => Some(1),
                    Some(w) if w.exact => w.text.parse::<usize>().ok(),
                    Some(_) => None,
                };
                match (n, scope.sh.params.as_mut()) {
                    (Some(n), Some(p)) if n <= p.len() => {
                        p.drain(..n);
                    }
                    // Shifting past the end fails and changes nothing.
                    (Some(_), Some(_)) => {}
                    _ => scope.sh.params = None,
                }
            }
            "read" => {
                for o in &opts {
                    if o.name == "-a"
                        && let Some(v) = &o.value
                    {
                        unknown.push(v.text.clone());
                        poison |= !v.exact;
                    }
                }
                if let (Some(item), [var]) = (items, operands.as_slice())
                    && var.exact
                    && opts
                        .iter()
                        .all(|o| matches!(o.name.as_str(), "-r" | "-d" | "-s" | "-u"))
                    && opts.iter().all(|o| {
                        o.name != "-d" || o.value.as_ref().is_some_and(|v| v.text.is_empty())
                    })
                {
                    // One whole name per turn (`-d ''` records of `-z` output, lines
                    // otherwise); the variable is one of the listed files.
                    scope
                        .sh
                        .set(&var.text, Val::Found(item.text.clone(), item.shape), None);
                    return;
                }
                if operands.is_empty() {
                    unknown.push("REPLY".to_owned());
                }
                for w in &operands {
                    unknown.push(w.text.clone());
                    poison |= !w.exact;
                }
            }
            "mapfile" | "readarray" => match operands.first() {
                Some(w) => {
                    unknown.push(w.text.clone());
                    poison |= !w.exact;
                }
                None => unknown.push("MAPFILE".to_owned()),
            },
            "getopts" => {
                unknown.extend(["OPTARG".to_owned(), "OPTIND".to_owned()]);
                if let Some(w) = operands.get(1) {
                    unknown.push(w.text.clone());
                    poison |= !w.exact;
                }
            }
            "let" => {
                for w in args {
                    let name: String = w
                        .text
                        .chars()
                        .skip_while(|c| matches!(c, '+' | '-' | ' '))
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    unknown.push(name);
                    poison |= !w.exact;
                }
            }
            "wait" => {
                for o in &opts {
                    if let Some(v) = o.value.as_ref().filter(|_| o.name == "-p") {
                        unknown.push(v.text.clone());
                        poison |= !v.exact;
                    }
                }
            }
            "hash" => {
                // `hash -p PROG NAME…`: NAME runs PROG from now on — a mapping judged like
                // an alias (both readings).
                if let Some(prog) = opts
                    .iter()
                    .find(|o| o.name == "-p")
                    .and_then(|o| o.value.clone())
                {
                    for w in &operands {
                        scope.sh.aliases.retain(|(n, _)| *n != w.text);
                        scope.sh.aliases.push((w.text.clone(), prog.clone()));
                    }
                }
            }
            "unset" if !opts.iter().any(|o| o.name == "-f") => {
                for w in &operands {
                    if w.exact {
                        scope
                            .sh
                            .set(&w.text, Val::Known(String::new()), Some(false));
                    } else {
                        poison = true;
                    }
                }
            }
            _ => {}
        }
        for n in unknown.iter().filter(|n| !n.is_empty()) {
            scope.sh.set(n, Val::Unknown, None);
            if let Some(source) =
                secret.filter(|_| matches!(name, "read" | "mapfile" | "readarray"))
            {
                scope.secret_vars.push((n.clone(), source.clone()));
            }
        }
        if poison {
            scope.sh.poison();
        }
    }

    /// `export`/`declare`/`local`/… reached as a command (`command export d=x`, `builtin
    /// declare …`): the same effect on variables as the statement form.
    pub(crate) fn declare_words(&mut self, keyword: &str, args: &[Word], scope: &mut Scope) {
        let flags: Vec<&Word> = args
            .iter()
            .filter(|w| w.exact && w.text.starts_with(['-', '+']) && w.text.len() > 1)
            .collect();
        let has = |sign: char, letter: char| {
            flags
                .iter()
                .any(|f| f.text.starts_with(sign) && f.text.contains(letter))
        };
        if has('-', 'n') && keyword != "export" {
            scope.sh.poison();
            return;
        }
        let export = (keyword == "export" || has('-', 'x')).then_some(true);
        let transformed = ['a', 'A', 'i', 'l', 'u', 'c'].iter().any(|l| has('-', *l));
        let local = matches!(keyword, "local" | "declare" | "typeset")
            && !scope.sh.frames.is_empty()
            && !has('-', 'g');
        let how = Declare {
            export,
            local,
            transformed,
            functions: has('-', 'f'),
        };
        for w in args
            .iter()
            .filter(|w| !(w.exact && w.text.starts_with(['-', '+'])))
        {
            if !self.declare_word(w, how, scope) {
                scope.sh.poison();
            }
        }
    }

    /// One `NAME=value` or `NAME` word of `export`/`declare`/`local`/… after expansion.
    /// Returns false when the name is only known at run time (it may be any variable: the
    /// caller makes every variable unknown).
    fn declare_word(&mut self, w: &Word, how: Declare, scope: &mut Scope) -> bool {
        let is_name =
            |n: &str| !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        match w.text.split_once('=') {
            Some((n, v)) if is_name(n) => {
                if how.local {
                    scope.sh.make_local(n);
                }
                let value = if w.exact && !how.transformed {
                    Val::Known(v.to_owned())
                } else {
                    Val::Unknown
                };
                scope.sh.set(n, value, how.export);
            }
            None if w.exact && is_name(&w.text) => {
                if how.functions && how.export == Some(true) {
                    self.export_function(&w.text, scope);
                } else if how.export == Some(true) {
                    scope.sh.export(&w.text);
                }
            }
            _ => return false,
        }
        true
    }

    /// Runs an alias's body with the call's arguments appended. A body that is one simple
    /// command takes the arguments as words (their exactness kept); any other body is shell
    /// code followed by the arguments' text. Whether bash expands it is not known here, so
    /// the state after is the join of both readings.
    pub(crate) fn expand_alias(
        &mut self,
        label: &str,
        body: &Word,
        rest: &[Word],
        scope: &mut Scope,
        stdin: &Producer,
    ) {
        let mut expanded = scope.clone();
        self.run_alias(label, body, rest, &mut expanded, stdin);
        scope.join(&expanded);
    }

    fn run_alias(
        &mut self,
        label: &str,
        body: &Word,
        rest: &[Word],
        scope: &mut Scope,
        stdin: &Producer,
    ) {
        if body.exact
            && let Some(mut words) = self.simple_command_words(&body.text, scope)
        {
            words.extend(rest.iter().cloned());
            scope.via.push(label.to_owned());
            let _ = self.exec(&words, scope, stdin.clone());
            scope.via.pop();
            return;
        }
        let mut text = body.text.clone();
        for w in rest {
            text.push(' ');
            text.push_str(&crate::interp::shell_join(std::slice::from_ref(&w.text)));
        }
        let code = Word {
            text,
            exact: body.exact && rest.iter().all(|w| w.exact),
            shape: crate::walk::WordShape::Exact,
            substs: Vec::new(),
        };
        self.eval_code(&[], &code, scope, label);
    }

    /// The words of `source` when it is exactly one simple command without redirects or
    /// assignments (an alias body such as `rm -rf`).
    fn simple_command_words(&mut self, source: &str, scope: &mut Scope) -> Option<Vec<Word>> {
        if crate::prescan(source, &self.limits).is_err() {
            return None;
        }
        let tree = self.parser.parse(source, None)?;
        let root = tree.root_node();
        if root.has_error() || root.named_child_count() != 1 {
            return None;
        }
        let command = root.named_child(0).filter(|c| c.kind() == "command")?;
        let mut words = Vec::new();
        let mut cursor = command.walk();
        for (index, child) in command.children(&mut cursor).enumerate() {
            let field = u32::try_from(index)
                .ok()
                .and_then(|i| command.field_name_for_child(i));
            match field {
                Some("name") => {
                    let target = child.named_child(0).unwrap_or(child);
                    words.extend(self.fields(target, source, scope, 1));
                }
                Some("argument") => words.extend(self.fields(child, source, scope, 1)),
                _ => return None,
            }
        }
        (!words.is_empty()).then_some(words)
    }
}

/// `((x++))`, `$((x = 1))`: variables assigned in arithmetic become unknown.
pub(crate) fn arithmetic(node: Node<'_>, src: &str, scope: &mut Scope) {
    let raw = text(node, src);
    let assigns = raw.contains("++")
        || raw.contains("--")
        || raw.char_indices().any(|(i, c)| {
            c == '=' && !matches!(raw.get(i + 1..i + 2), Some("=")) && {
                let before = raw.get(..i).and_then(|b| b.chars().last());
                !matches!(before, Some('=' | '!' | '<' | '>'))
            }
        });
    if !assigns {
        return;
    }
    let mut names = Vec::new();
    let mut stack = vec![node];
    let mut seen = 0;
    while let Some(n) = stack.pop() {
        seen += 1;
        if seen > 10_000 {
            scope.sh.poison();
            return;
        }
        if matches!(n.kind(), "variable_name" | "word") {
            names.push(text(n, src).to_owned());
        }
        let mut cursor = n.walk();
        stack.extend(n.named_children(&mut cursor));
    }
    for name in names {
        scope.sh.set(&name, Val::Unknown, None);
    }
}

/// Items from which `xargs` with unlimited parallelism is a process flood: at least this many.
/// The same threshold as a counted loop that backgrounds a job each turn (CX8).
const FLOOD_ITEMS: i128 = 1000;

/// Whether `xargs OPTIONS` (the words before its command) fed by `stdin`, which `producer` (the
/// pipeline stage before it, when recorded) printed, starts a process per item all at once:
/// `-P0`/`--max-procs=0` (as many as possible) or a limit of [`FLOOD_ITEMS`] or more, over
/// endless input (`yes`) or a counter of at least that many numbers (`seq 1 100000`). It is
/// the fork bomb of `for i in $(seq 1 100000); do sleep 999 & done` without its signature.
/// A bounded limit (`-P4`, `-P $(nproc)`), input of unknown length (a file list) or no
/// per-run count (`xargs -P0 echo` packs the items into a few runs) is ordinary parallel work.
pub(crate) fn xargs_floods(
    options: &[Word],
    stdin: &Producer,
    producer: Option<&crate::model::ExecutedCommand>,
) -> bool {
    let mut procs: Option<&str> = None;
    let mut iter = options.iter();
    while let Some(w) = iter.next() {
        let t = w.text.as_str();
        if t == "-P" || t == "--max-procs" {
            procs = iter.next().map(|v| v.text.as_str());
        } else if let Some(v) = t
            .strip_prefix("--max-procs=")
            .or_else(|| t.strip_prefix("-P"))
        {
            procs = Some(v);
        }
    }
    let unlimited = procs
        .and_then(|p| p.parse::<i128>().ok())
        .is_some_and(|p| p == 0 || p >= FLOOD_ITEMS);
    // Without a per-run count xargs packs thousands of items into each command line, so the
    // runs are few; `-n`, `-L`/`-l` and `-I`/`-i` make one run per item or line.
    let per_item = options.iter().any(|w| {
        let t = w.text.as_str();
        [
            "-n",
            "-L",
            "-l",
            "-I",
            "-i",
            "--max-args",
            "--max-lines",
            "--replace",
        ]
        .iter()
        .any(|o| t.starts_with(o))
    });
    if !unlimited || !per_item {
        return false;
    }
    if matches!(stdin, Producer::Endless) {
        return true;
    }
    let Some(c) = producer else { return false };
    let program = c
        .argv
        .first()
        .map_or("", |p| p.rsplit('/').next().unwrap_or(p));
    if program == "yes" {
        return true;
    }
    if program != "seq" {
        return false;
    }
    let nums: Option<Vec<i128>> = c
        .argv
        .iter()
        .skip(1)
        .map(|a| a.parse::<i128>().ok())
        .collect();
    let count = match nums.as_deref() {
        Some([last]) => Some(*last),
        Some([first, last]) => Some(last - first + 1),
        Some([first, step, last]) if *step != 0 => Some((last - first) / step + 1),
        _ => None,
    };
    count.is_some_and(|n| n >= FLOOD_ITEMS)
}
