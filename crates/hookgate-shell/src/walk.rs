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

    pub(crate) fn opaque(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            exact: false,
            shape: WordShape::Exact,
            substs: Vec::new(),
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
    /// Functions defined so far (calling one is not running an unknown program).
    pub functions: Vec<String>,
    /// How we got here (`bash -c`, `$(…)`, `sudo`, …).
    pub via: Vec<String>,
    /// Inside `ssh`/`docker exec`: paths are on another machine.
    pub remote: bool,
    /// Variables assigned secret data earlier in the line (`T=$(cat ~/.aws/credentials)`).
    pub secret_vars: Vec<(String, crate::model::FlowSource)>,
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
}

impl std::fmt::Debug for Walker<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Walker")
            .field("commands", &self.commands.len())
            .finish_non_exhaustive()
    }
}

/// Statement kinds the walker dispatches on.
fn is_statement(kind: &str) -> bool {
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

pub(crate) fn text<'s>(node: Node<'_>, src: &'s str) -> &'s str {
    src.get(node.byte_range()).unwrap_or("")
}

impl Walker<'_> {
    pub(crate) fn unknown(&mut self, reason: impl Into<String>) {
        self.extra.push(Verdict::unknown(reason));
    }

    /// Parses and walks `source` as a nested shell program (`bash -c`, `eval`, heredoc to a
    /// shell), bounded by the recursion limit.
    pub(crate) fn analyze_source(&mut self, source: &str, scope: &mut Scope, via: &str) {
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
        if let Err(reason) = crate::prescan(source, &self.limits) {
            self.unknown(reason);
            return;
        }
        // A `<>` redirection is bash the grammar lacks (see `flow::without_rw_redirects`).
        let Some((tree, repaired)) = crate::flow::parse_repairing(self.parser, source) else {
            self.unknown("the parser gave no tree");
            return;
        };
        let source = repaired.as_deref().unwrap_or(source);
        let root = tree.root_node();
        if root.has_error() {
            self.unknown(format!("{via} string does not parse as bash"));
            return;
        }
        self.recursion += 1;
        scope.via.push(via.to_owned());
        self.block(root, source, scope, 0);
        scope.via.pop();
        self.recursion -= 1;
    }

    fn too_deep(&mut self, depth: usize) -> bool {
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

    /// Walks every statement child of a block-like node.
    pub(crate) fn block(&mut self, node: Node<'_>, src: &str, scope: &mut Scope, depth: usize) {
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            self.stmt(child, src, scope, depth + 1);
        }
    }

    /// Walks one statement with no piped input.
    pub(crate) fn stmt(&mut self, node: Node<'_>, src: &str, scope: &mut Scope, depth: usize) {
        let _ = self.stmt_io(node, src, scope, Producer::Nothing, depth);
    }

    /// Walks one statement with `stdin`; returns what it writes to stdout.
    fn stmt_io(
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
        match node.kind() {
            "command" => self.command(node, src, scope, stdin),
            "pipeline" => self.pipeline(node, src, scope, stdin, depth),
            "list" => {
                self.list(node, src, scope, stdin, depth);
                Producer::Opaque
            }
            "redirected_statement" => self.redirected(node, src, scope, stdin, depth),
            "subshell" => {
                let mut inner = scope.clone();
                self.block(node, src, &mut inner, depth);
                Producer::Opaque
            }
            "compound_statement" | "do_group" | "else_clause" | "elif_clause" | "program" => {
                self.block(node, src, scope, depth);
                Producer::Opaque
            }
            "while_statement" if infinite_background_loop(node, src) => {
                self.mixed(node, src, scope, depth);
                self.commands.push(ExecutedCommand {
                    argv: vec![text(node, src).chars().take(60).collect()],
                    via: scope.via.clone(),
                    verdict: crate::taxonomy::ids::RCE_FORK_BOMB.verdict(),
                    effects: Vec::new(),
                    stdin: None,
                });
                Producer::Opaque
            }
            "negated_command"
            | "if_statement"
            | "while_statement"
            | "for_statement"
            | "c_style_for_statement"
            | "case_statement"
            | "case_item"
            | "test_command" => {
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
                } else {
                    self.unknown(format!("unsupported construct `{other}`"));
                }
                Producer::Opaque
            }
        }
    }

    /// Nodes that mix statements and expressions (`if`, `while`, `for`, `case`, `[[ ]]`).
    fn mixed(&mut self, node: Node<'_>, src: &str, scope: &mut Scope, depth: usize) {
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
        let label = if node.kind() == "process_substitution" {
            "<(…)"
        } else {
            "$(…)"
        };
        let mut inner = scope.clone();
        inner.via.push(label.to_owned());
        let mut last = Producer::Nothing;
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            last = self.stmt_io(child, src, &mut inner, Producer::Nothing, depth + 1);
        }
        last
    }

    /// `stdin` is what a redirect after the list feeds: the grammar hangs a heredoc written
    /// after the last command of `a && b <<EOF` on the whole list, while bash gives it to `b`.
    fn list(
        &mut self,
        node: Node<'_>,
        src: &str,
        scope: &mut Scope,
        stdin: Producer,
        depth: usize,
    ) {
        // `a && b || c` is left-nested; flatten it iteratively so long chains do not recurse.
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
                    operands.push(*child);
                } else {
                    operators.push(child.kind());
                }
            }
            if first.kind() == "list" {
                current = *first;
            } else {
                operands.push(*first);
                break;
            }
        }
        operands.reverse();
        operators.reverse();
        let cwd_before = scope.cwd.clone();
        let last = operands.len().saturating_sub(1);
        let mut stdin = Some(stdin);
        for (index, operand) in operands.into_iter().enumerate() {
            if index > 0 && operators.get(index - 1) == Some(&"||") && scope.cwd != cwd_before {
                // After `cd x || …` the right side runs where the `cd` failed.
                scope.cwd = Cwd::Unknown;
            }
            let input = if index == last {
                stdin.take().unwrap_or(Producer::Nothing)
            } else {
                Producer::Nothing
            };
            let _ = self.stmt_io(operand, src, scope, input, depth + 1);
        }
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
        let mut input = stdin;
        let mut ranges = Vec::with_capacity(stages.len());
        for stage in stages {
            // Each stage runs in its own subshell: `cd` does not leak.
            let mut inner = scope.clone();
            let before = self.commands.len();
            input = self.stmt_io(stage, src, &mut inner, input, depth + 1);
            ranges.push((before, self.commands.len()));
        }
        self.judge_pipeline(&ranges, scope);
        input
    }

    fn function(&mut self, node: Node<'_>, src: &str, scope: &mut Scope, depth: usize) {
        let name = node
            .child_by_field_name("name")
            .map(|n| text(n, src).to_owned())
            .unwrap_or_default();
        scope.functions.push(name.clone());
        let Some(body) = node.child_by_field_name("body") else {
            return;
        };
        let before = self.commands.len();
        let mut inner = scope.clone();
        inner.via.push(format!("function {name}"));
        self.stmt(body, src, &mut inner, depth + 1);
        let recursive = self
            .commands
            .get(before..)
            .unwrap_or(&[])
            .iter()
            .any(|c| c.argv.first() == Some(&name));
        if recursive && spawns_in_background(body) {
            self.commands.push(ExecutedCommand {
                argv: vec![name],
                via: scope.via.clone(),
                verdict: crate::taxonomy::ids::RCE_FORK_BOMB.verdict(),
                effects: Vec::new(),
                stdin: None,
            });
        }
    }

    /// Bare assignments and `export`/`declare -x`/`typeset`/`readonly`/`local`: each name set
    /// (or exported) becomes a `SetEnv` effect. A shell variable that is already exported
    /// reaches every later child process when merely reassigned, so plain `X=1` counts too;
    /// `unset` sets nothing.
    ///
    /// Returns what it prints: `export -p`/`declare -x` with no names list the environment.
    fn assignments(
        &mut self,
        node: Node<'_>,
        src: &str,
        scope: &mut Scope,
        depth: usize,
    ) -> Producer {
        let before = self.commands.len();
        let mut names = Vec::new();
        let mut flags = Vec::new();
        let declares = node.kind() == "declaration_command";
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            if declares && child.kind() == "word" {
                flags.push(Word::lit(text(child, src)));
            }
            if child.kind() == "variable_assignment" {
                self.assignment(child, src, scope, depth + 1);
                if let Some(n) = child.child_by_field_name("name") {
                    names.push(text(n, src).to_owned());
                }
            } else if declares && child.kind() == "variable_name" {
                names.push(text(child, src).to_owned());
            } else if declares && child.kind() != "word" {
                // `export "NAME"=v`, `export $V=v`: bash removes quotes and expands before
                // it reads the name, so the word's value is what is declared. A name that
                // is computed at run time is kept as written, for callers to ask about.
                let w = self.word(child, src, scope, depth + 1);
                let name = w.text.split_once('=').map_or(w.text.as_str(), |(n, _)| n);
                let flag = w.exact && name.starts_with(['-', '+']);
                if !(name.is_empty() || flag) {
                    names.push(name.to_owned());
                }
            } else {
                self.scan_substitutions(child, src, scope, depth + 1);
            }
        }
        if node.kind() == "variable_assignment" {
            self.assignment(node, src, scope, depth + 1);
            if let Some(n) = node.child_by_field_name("name") {
                names.push(text(n, src).to_owned());
            }
        }
        let listing = if declares && names.is_empty() {
            let keyword = node.child(0).map_or("", |k| text(k, src));
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
        if node.kind() == "unset_command" {
            // Recorded as the command it is (as the plain-words path does), so callers see
            // which variables a line removes from the environment.
            let mut argv = vec![Word::lit("unset")];
            let mut cursor = node.walk();
            for child in node.named_children(&mut cursor) {
                argv.push(self.word(child, src, scope, depth + 1));
            }
            let _ = self.exec(&argv, scope, Producer::Nothing);
        } else {
            self.attach_set_env(before, names, text(node, src), scope);
        }
        listing
    }

    /// A `NAME=value`: its value's substitutions run; some names change what later runs.
    pub(crate) fn assignment(
        &mut self,
        node: Node<'_>,
        src: &str,
        scope: &mut Scope,
        depth: usize,
    ) {
        let name = node
            .child_by_field_name("name")
            .map_or("", |n| text(n, src));
        // Resolving the value runs its substitutions (once); a value holding secret data makes
        // the variable a secret source for later sinks in the line.
        let value = node
            .child_by_field_name("value")
            .map(|v| self.word(v, src, scope, depth + 1));
        if let Some(source) = value.as_ref().and_then(|w| crate::flow::words_source([w])) {
            scope.secret_vars.push((name.to_owned(), source));
        }
        self.note_assignment(name, value.as_ref());
        if !crate::resolve::is_hijack_variable(name) {
            return;
        }
        if let Some(verdict) = self.hijack_verdict(name, value.as_ref(), scope) {
            self.commands.push(ExecutedCommand {
                argv: vec![text(node, src).to_owned()],
                via: scope.via.clone(),
                verdict,
                effects: Vec::new(),
                stdin: None,
            });
        }
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
        let mut cursor = node.walk();
        for (index, child) in node.children(&mut cursor).enumerate() {
            let field = u32::try_from(index)
                .ok()
                .and_then(|i| node.field_name_for_child(i));
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
        let mut input = stdin;
        let mut continuations = Vec::new();
        let (sockets, written, before) =
            (self.sockets.len(), self.written.len(), self.commands.len());
        for redirect in &redirects {
            if let Some(p) = self.redirect(*redirect, src, scope, depth, &mut continuations) {
                input = p;
            }
        }
        let output = match body {
            Some(b) if b.kind() == "command" => self.command(b, src, scope, input),
            Some(b) => self.stmt_io(b, src, scope, input, depth + 1),
            None => Producer::Nothing,
        };
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
                    last = self.stmt_io(stage, src, &mut inner, last, depth + 1);
                }
            } else {
                self.stmt(cont, src, scope, depth + 1);
            }
        }
        last
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
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    match child.kind() {
                        "heredoc_start" => {
                            quoted = text(child, src).contains(['\'', '"', '\\']);
                        }
                        "heredoc_body" => {
                            let mut has_expansion = false;
                            if !quoted {
                                let mut c2 = child.walk();
                                for part in child.named_children(&mut c2) {
                                    if part.kind() != "heredoc_content" {
                                        has_expansion = true;
                                        self.scan_substitutions(part, src, scope, depth + 1);
                                    }
                                }
                            }
                            let body = text(child, src);
                            result = Some(Producer::Text {
                                text: strip_heredoc_tabs(body, text(node, src)),
                                exact: !has_expansion,
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
                let value = node
                    .named_children(&mut cursor)
                    .last()
                    .map(|w| self.word(w, src, scope, depth + 1));
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
                for (index, child) in node.children(&mut cursor).enumerate() {
                    let field = u32::try_from(index)
                        .ok()
                        .and_then(|i| node.field_name_for_child(i));
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
                        destination = Some(child);
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
                if let Some(endpoint) = crate::flow::socket_endpoint(&word) {
                    self.sockets.push(endpoint);
                    return operator.starts_with('<').then_some(Producer::Download);
                }
                if matches!(operator, ">" | ">>" | ">|" | "&>" | "&>>") {
                    self.written.push(word.clone());
                }
                match operator {
                    "<" => {
                        let p = crate::resolve::file_producer(self, &word, scope);
                        if let (Producer::LocalFile, crate::targets::Cwd::Known(cwd)) =
                            (&p, &scope.cwd)
                        {
                            let home = self.ctx.home.as_deref();
                            let path = hookgate_paths::normalize(&word.text, cwd, home).path;
                            self.files.stdin_file = Some(path);
                        }
                        Some(p)
                    }
                    ">&" | "<&" | ">&-" | "<&-" if word.exact && is_fd(&word.text) => None,
                    ">" | ">>" | ">|" | "&>" | "&>>" | ">&" | "<>" => {
                        crate::resolve::redirect_write(self, &word, scope);
                        None
                    }
                    _ => None,
                }
            }
            _ => {
                self.scan_substitutions(node, src, scope, depth + 1);
                None
            }
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
        self.word_part(node, src, scope, depth, &mut w, true, false);
        w
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
        match node.kind() {
            "word" | "number" => {
                if quoted {
                    w.text.push_str(raw);
                } else {
                    unquoted_word(raw, first, self.ctx, w);
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
                for (index, child) in node.named_children(&mut cursor).enumerate() {
                    self.word_part(child, src, scope, depth + 1, w, first && index == 0, quoted);
                }
                if !quoted && is_brace_expansion(node, src) {
                    w.exact = false;
                }
            }
            "simple_expansion" | "expansion" => {
                if let Some(value) = crate::resolve::variable(node, src, self.ctx, scope) {
                    w.text.push_str(&value);
                    // `${TMPDIR:-$(…)}`: the default may still run.
                    self.scan_substitutions(node, src, scope, depth + 1);
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
                // `$(echo rm)` folds to `rm` when every command inside was a plain echo.
                let only_echo = self.commands.get(before..).is_some_and(|cmds| {
                    cmds.iter()
                        .all(|c| c.argv.first().is_some_and(|a| a == "echo"))
                });
                match &produced {
                    Producer::Text { text, exact: true }
                        if only_echo && (quoted || !text.contains(char::is_whitespace)) =>
                    {
                        w.text.push_str(text.trim_end_matches('\n'));
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
            }
        }
    }
}

fn is_fd(s: &str) -> bool {
    s == "-" || (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
}

/// True when a function body puts work in the background or in a pipeline (`:|:&`).
fn spawns_in_background(node: Node<'_>) -> bool {
    any_node(node, true, |n| n.kind() == "pipeline" || n.kind() == "&")
}

/// True when `pred` holds for `node` or a node below it. Iterative and bounded: past 10,000
/// nodes the answer is `overflow` (the caller's fail-closed choice).
fn any_node(node: Node<'_>, overflow: bool, pred: impl Fn(Node<'_>) -> bool) -> bool {
    let mut stack = vec![node];
    let mut seen = 0;
    while let Some(n) = stack.pop() {
        seen += 1;
        if seen > 10_000 {
            return overflow;
        }
        if pred(n) {
            return true;
        }
        let mut cursor = n.walk();
        stack.extend(n.children(&mut cursor));
    }
    false
}

/// `while :; do cmd & done` / `while true; do …& done`: an unconditional loop that starts
/// a background process on every turn, with nothing in the body that waits, is a fork bomb
/// whatever it starts. (`until false` is the same loop.)
fn infinite_background_loop(node: Node<'_>, src: &str) -> bool {
    let Some(condition) = node.child_by_field_name("condition") else {
        return false;
    };
    let keyword = node.child(0).map_or("", |k| text(k, src));
    let cond = text(condition, src).trim().trim_end_matches(';').trim();
    let forever = match keyword {
        "while" => matches!(cond, ":" | "true" | "[ 1 ]" | "((1))"),
        "until" => cond == "false",
        _ => false,
    };
    let Some(body) = node.child_by_field_name("body") else {
        return false;
    };
    forever && has_background_job(body) && !waits(body, src)
}

/// A command ending in `&` somewhere in `node`.
fn has_background_job(node: Node<'_>) -> bool {
    any_node(node, false, |n| n.kind() == "&")
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
fn unquoted_word(raw: &str, first: bool, ctx: &Context, w: &mut Word) {
    let mut chars = raw.chars().peekable();
    let mut at_start = first;
    let mut brace_open = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('\n') | None => {}
                Some(e) => w.text.push(e),
            },
            '~' if at_start => {
                let rest_is_path = matches!(chars.peek(), None | Some('/'));
                if let (Some(home), true) = (&ctx.home, rest_is_path) {
                    w.text.push_str(&home.to_string_lossy());
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
            '{' => {
                brace_open = true;
                w.text.push(c);
            }
            '}' if brace_open => {
                // `{a,b}` / `{1..3}` expand to several words: not statically one argument.
                if w.text
                    .rsplit('{')
                    .next()
                    .is_some_and(|inside| inside.contains(',') || inside.contains(".."))
                {
                    w.exact = false;
                }
                w.text.push(c);
            }
            _ => w.text.push(c),
        }
        at_start = false;
    }
}

/// tree-sitter splits `{a,b}` into several word nodes inside a concatenation.
fn is_brace_expansion(node: Node<'_>, src: &str) -> bool {
    let mut cursor = node.walk();
    let parts: Vec<&str> = node
        .named_children(&mut cursor)
        .filter(|c| c.kind() == "word")
        .map(|c| text(c, src))
        .collect();
    let joined = parts.concat();
    joined.contains('{') && joined.contains('}') && (joined.contains(',') || joined.contains(".."))
}

/// Inside double quotes only `\$ \` \" \\` and `\<newline>` are escapes.
fn unescape_double(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some(e @ ('$' | '`' | '"' | '\\')) => out.push(e),
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
