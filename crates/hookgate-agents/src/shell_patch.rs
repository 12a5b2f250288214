//! `apply_patch` run through a shell tool: the patches a shell line carries, found in its
//! parsed syntax tree (tree-sitter-bash, the grammar Codex itself uses for this), not by
//! matching text.
//!
//! Codex 0.169 intercepts a shell call as a patch when its argv is `apply_patch BODY` /
//! `applypatch BODY`, or `bash|zsh|sh -c|-lc SCRIPT` (`pwsh -Command`, `cmd /c` likewise) whose
//! script is exactly one statement: `apply_patch <<'EOF' … EOF`, or `cd DIR && apply_patch
//! <<'EOF' … EOF` with the paths then relative to `DIR` (`codex-rs/apply-patch/src/
//! invocation.rs`). Anything else still reaches a real shell, where Codex puts an
//! `apply_patch` helper on `PATH`, so the same patch is applied anyway.
//!
//! Invariant protected: every file a patch in the line would touch is surfaced, whichever of
//! those forms (or a superset: the invocation inside a longer line, under `bash -c` with a
//! literal script, with the body as a quoted argument or here-string) carries it. Recognising
//! more than Codex does only ever adds paths to judge.

use tree_sitter::{Node, Parser};

/// How deep `bash -c '…'` may nest before the reader stops descending.
const MAX_DEPTH: usize = 4;

/// The command names Codex treats as its patch tool.
const APPLY_PATCH: &[&str] = &["apply_patch", "applypatch"];

/// One patch found in a shell line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ShellPatch {
    /// The patch text.
    pub body: String,
    /// The directory a preceding `cd DIR &&` moved to, which the patch's paths are relative to.
    pub workdir: Option<String>,
}

/// What a shell line does with patches.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ShellPatches {
    /// Every patch the line would apply, in source order.
    pub patches: Vec<ShellPatch>,
    /// True when the whole line is one of the forms Codex intercepts and applies itself
    /// (nothing else runs), so the call is a patch and nothing more.
    pub whole_line: bool,
}

/// True when some line of `text`, indentation aside, is a patch file marker: a line without
/// one carries no patch that touches a file, so it need not be parsed. Indentation counts
/// because a `<<-` heredoc strips leading tabs before the patch tool reads it.
pub(crate) fn may_carry_patch(text: &str) -> bool {
    text.lines().any(|line| {
        let line = line.trim_start();
        ["*** Add File:", "*** Update File:", "*** Delete File:"]
            .iter()
            .any(|m| line.starts_with(m))
    })
}

/// Reads the patches out of a shell command line.
pub(crate) fn shell_patches(line: &str) -> ShellPatches {
    let mut out = ShellPatches::default();
    out.whole_line = scan(line, 0, &mut out.patches);
    out
}

/// Reads the patches out of an argv the agent sent as an array (Codex's `shell` tool).
pub(crate) fn argv_patches(argv: &[&str]) -> ShellPatches {
    match argv {
        [cmd, body] if APPLY_PATCH.contains(cmd) => ShellPatches {
            patches: vec![ShellPatch {
                body: (*body).to_owned(),
                workdir: None,
            }],
            whole_line: true,
        },
        [shell, flag, script] | [shell, _, flag, script] if is_shell_c(shell, flag) => {
            shell_patches(script)
        }
        _ => ShellPatches::default(),
    }
}

/// `bash -c`, `sh -lc`, `zsh -c`, `pwsh -Command`, `cmd /c` (by the program's file stem).
fn is_shell_c(program: &str, flag: &str) -> bool {
    let stem = program
        .rsplit('/')
        .next()
        .unwrap_or(program)
        .trim_end_matches(".exe")
        .to_ascii_lowercase();
    match stem.as_str() {
        "bash" | "sh" | "zsh" | "dash" => matches!(flag, "-c" | "-lc" | "-ic" | "-lic"),
        "pwsh" | "powershell" => flag.eq_ignore_ascii_case("-command"),
        "cmd" => flag.eq_ignore_ascii_case("/c"),
        _ => false,
    }
}

/// Parses `src` and collects its patches; returns whether the whole program is a single
/// Codex-intercepted patch statement.
fn scan(src: &str, depth: usize, found: &mut Vec<ShellPatch>) -> bool {
    let mut parser = Parser::new();
    if parser
        .set_language(&tree_sitter_bash::LANGUAGE.into())
        .is_err()
    {
        return false;
    }
    let Some(tree) = parser.parse(src, None) else {
        return false;
    };
    let root = tree.root_node();
    let before = found.len();
    walk(root, src, depth, found);
    let statements: Vec<Node<'_>> = named_children(root)
        .into_iter()
        .filter(|n| n.kind() != "comment")
        .collect();
    match statements.as_slice() {
        [only] if !root.has_error() => {
            found.len() == before + 1
                && (is_patch_statement(*only, src) || is_nested_whole(*only, src, depth))
        }
        _ => false,
    }
}

fn named_children(node: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

fn text<'s>(node: Node<'_>, src: &'s str) -> &'s str {
    src.get(node.byte_range()).unwrap_or("")
}

/// The command's name word, unquoted when it is a plain literal.
fn command_name(cmd: Node<'_>, src: &str) -> Option<String> {
    let name = cmd.child_by_field_name("name")?;
    literal(name.named_child(0).unwrap_or(name), src)
}

/// The literal value of a word, quoted string or raw string; `None` when it has expansions
/// (its value is only known at run time).
fn literal(node: Node<'_>, src: &str) -> Option<String> {
    match node.kind() {
        "word" | "command_name" => {
            let raw = text(node, src);
            if raw.contains(['$', '`', '*', '?', '[', '{']) {
                return None;
            }
            // Outside quotes a backslash keeps the next character literally.
            let mut value = String::with_capacity(raw.len());
            let mut chars = raw.chars();
            while let Some(c) = chars.next() {
                if c == '\\' {
                    if let Some(next) = chars.next() {
                        value.push(next);
                    }
                } else {
                    value.push(c);
                }
            }
            Some(value)
        }
        "raw_string" => {
            let raw = text(node, src);
            Some(raw.strip_prefix('\'')?.strip_suffix('\'')?.to_owned())
        }
        "string" => {
            // Only plain content (the grammar splits it into several `string_content` nodes
            // at newlines); an expansion makes the value a run-time one.
            if named_children(node)
                .iter()
                .any(|part| part.kind() != "string_content")
            {
                return None;
            }
            let raw = text(node, src);
            Some(unescape_double(raw.strip_prefix('"')?.strip_suffix('"')?))
        }
        "concatenation" => named_children(node)
            .into_iter()
            .map(|p| literal(p, src))
            .collect(),
        _ => None,
    }
}

/// Backslash escapes inside double quotes: only `\"`, `\\`, `\$`, `` \` `` and `\newline`.
fn unescape_double(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.peek() {
                Some('"' | '\\' | '$' | '`') => {
                    if let Some(next) = chars.next() {
                        out.push(next);
                    }
                    continue;
                }
                Some('\n') => {
                    chars.next();
                    continue;
                }
                _ => {}
            }
        }
        out.push(c);
    }
    out
}

/// The arguments of a `command` node (everything after the name, redirects excluded).
fn arguments(cmd: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = cmd.walk();
    cmd.children_by_field_name("argument", &mut cursor)
        .collect()
}

/// Every node, depth first, collecting patches from `apply_patch` commands and descending into
/// `bash -c '<literal script>'`.
fn walk(node: Node<'_>, src: &str, depth: usize, found: &mut Vec<ShellPatch>) {
    match node.kind() {
        "redirected_statement" => {
            if let Some(patch) = redirected_patch(node, src) {
                found.push(patch);
                return;
            }
        }
        "command" => {
            if let Some(patch) = argument_patch(node, src) {
                found.push(patch);
                return;
            }
            if depth < MAX_DEPTH
                && let Some(script) = shell_c_script(node, src)
            {
                scan(&script, depth + 1, found);
                return;
            }
        }
        _ => {}
    }
    for child in named_children(node) {
        walk(child, src, depth, found);
    }
}

/// `[cd DIR &&] apply_patch <<EOF … EOF` (or `<<<'…'`): the heredoc or here-string is the body.
fn redirected_patch(stmt: Node<'_>, src: &str) -> Option<ShellPatch> {
    let body = stmt.child_by_field_name("body")?;
    let (workdir, apply) = match body.kind() {
        "command" => (None, body),
        // `a && b <<EOF`: bash gives the heredoc to `b`, the grammar hangs it on the list.
        "list" => cd_then(body, src).or_else(|| Some((None, last_command(body)?)))?,
        _ => return None,
    };
    if !is_apply_patch(apply, src) {
        return None;
    }
    let mut cursor = stmt.walk();
    let redirects: Vec<Node<'_>> = stmt
        .children_by_field_name("redirect", &mut cursor)
        .collect();
    for redirect in redirects {
        let patch_text = match redirect.kind() {
            "heredoc_redirect" => heredoc_text(redirect, src),
            "herestring_redirect" => redirect.named_child(0).and_then(|w| literal(w, src)),
            _ => None,
        };
        if let Some(body) = patch_text {
            return Some(ShellPatch { body, workdir });
        }
    }
    // `apply_patch 'BODY' > log`: the body is an argument.
    argument_patch(apply, src).map(|p| ShellPatch {
        body: p.body,
        workdir,
    })
}

/// The last command of a list (`a; b && c` → `c`).
fn last_command(list: Node<'_>) -> Option<Node<'_>> {
    let tail = named_children(list).into_iter().last()?;
    match tail.kind() {
        "command" => Some(tail),
        "list" => last_command(tail),
        _ => None,
    }
}

/// `cd DIR && CMD` → (`DIR`, `CMD`), DIR a literal single argument.
fn cd_then<'t>(list: Node<'t>, src: &str) -> Option<(Option<String>, Node<'t>)> {
    let parts = named_children(list);
    let [first, second] = parts.as_slice() else {
        return None;
    };
    let op = list.child(1).map(|n| text(n, src))?;
    if op != "&&" || first.kind() != "command" || second.kind() != "command" {
        return None;
    }
    if command_name(*first, src).as_deref() != Some("cd") {
        return None;
    }
    let args = arguments(*first);
    let [dir] = args.as_slice() else {
        return None;
    };
    Some((Some(literal(*dir, src)?), *second))
}

fn is_apply_patch(cmd: Node<'_>, src: &str) -> bool {
    cmd.kind() == "command"
        && command_name(cmd, src).is_some_and(|n| APPLY_PATCH.contains(&n.as_str()))
}

/// The text of a heredoc body; a `<<-` heredoc has its leading tabs stripped, as bash does.
fn heredoc_text(redirect: Node<'_>, src: &str) -> Option<String> {
    let body = named_children(redirect)
        .into_iter()
        .find(|n| n.kind() == "heredoc_body")?;
    let raw = text(body, src);
    if text(redirect, src).starts_with("<<-") {
        Some(
            raw.lines()
                .map(|l| l.trim_start_matches('\t'))
                .collect::<Vec<_>>()
                .join("\n"),
        )
    } else {
        Some(raw.to_owned())
    }
}

/// `apply_patch 'BODY'`: Codex's direct form, and what its `PATH` helper accepts.
fn argument_patch(cmd: Node<'_>, src: &str) -> Option<ShellPatch> {
    if !is_apply_patch(cmd, src) {
        return None;
    }
    let args = arguments(cmd);
    let body = args.first().and_then(|a| literal(*a, src)).or_else(|| {
        // `apply_patch <<< 'BODY'`: the grammar keeps a here-string on the command itself.
        let mut cursor = cmd.walk();
        let redirects: Vec<Node<'_>> = cmd
            .children_by_field_name("redirect", &mut cursor)
            .collect();
        redirects
            .into_iter()
            .filter(|r| r.kind() == "herestring_redirect")
            .find_map(|r| r.named_child(0).and_then(|w| literal(w, src)))
    })?;
    Some(ShellPatch {
        body,
        workdir: None,
    })
}

/// `bash -c 'SCRIPT'` (and `-lc`, `sh`, `zsh`): the script, when it is a literal.
fn shell_c_script(cmd: Node<'_>, src: &str) -> Option<String> {
    let name = command_name(cmd, src)?;
    let args = arguments(cmd);
    let words: Vec<Option<String>> = args.iter().map(|a| literal(*a, src)).collect();
    let flag_at = words
        .iter()
        .position(|w| w.as_deref().is_some_and(|f| is_shell_c(&name, f)))?;
    words.get(flag_at + 1).cloned().flatten()
}

/// A statement that is exactly Codex's intercepted form.
fn is_patch_statement(stmt: Node<'_>, src: &str) -> bool {
    match stmt.kind() {
        "redirected_statement" => {
            let direct = stmt
                .child_by_field_name("body")
                .is_some_and(|body| match body.kind() {
                    "command" => true,
                    "list" => cd_then(body, src).is_some(),
                    _ => false,
                });
            direct && redirected_patch(stmt, src).is_some()
        }
        "command" => argument_patch(stmt, src).is_some() && arguments(stmt).len() <= 1,
        _ => false,
    }
}

/// `bash -lc 'SCRIPT'` where SCRIPT itself is wholly a patch.
fn is_nested_whole(stmt: Node<'_>, src: &str, depth: usize) -> bool {
    if stmt.kind() != "command" || depth >= MAX_DEPTH {
        return false;
    }
    let Some(script) = shell_c_script(stmt, src) else {
        return false;
    };
    let mut scratch = Vec::new();
    scan(&script, depth + 1, &mut scratch)
}
