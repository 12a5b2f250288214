//! A reader for vi/vim ex command lines (`vim -c '…'`, `+…`, ex mode on stdin), for the parts
//! that leave the editor: `:!cmd`, `:r !cmd`, `:w !cmd`, `:terminal cmd` (shell), `:py3`,
//! `:perl`, `:ruby` (interpreter code), `:w file` (a write), and vimscript evaluation
//! (`:call`, `:execute`, `:let`, …, which can call `system()`).
//!
//! Ranges, modifiers (`:silent!`, `:keepjumps`, …), `|` separators, `:global`/`:bufdo`
//! bodies and vim's command abbreviations (`:ter`, `:exe`, `:sil`) are followed structurally.
//! Invariant: a lower-case command this reader does not know is reported as script code (ask),
//! so an unknown way to run code is never taken as an edit. Upper-case commands are user or
//! plugin commands from the user's own configuration (`+PlugInstall`) and are edits.

use crate::interp::Lang;

/// One thing an ex command line does beyond editing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Item {
    /// Shell code run by the editor.
    Shell(String),
    /// Shell code run with the buffer on its stdin (`:w !cmd`).
    ShellFedBuffer(String),
    /// Interpreter code run by an embedded interpreter.
    Lang(Lang, String),
    /// A file written by the editor.
    Write(String),
    /// Vimscript evaluated (the named command), or an unknown command.
    Script(String),
}

/// Deepest `:global`/`:bufdo`/modifier nesting followed.
const MAX_DEPTH: usize = 8;

/// `(full name, shortest abbreviation length)`: commands taking the rest of the line
/// (including `|`) as their argument.
const SHELL_BANG_READ: (&str, usize) = ("read", 1);
const WRITE: &[(&str, usize)] = &[
    ("write", 1),
    ("wq", 2),
    ("wall", 2),
    ("xit", 1),
    ("exit", 3),
    ("update", 2),
    ("saveas", 3),
    ("wqall", 3),
    ("xall", 2),
];
const TERMINAL: (&str, usize) = ("terminal", 3);
const SHELL: (&str, usize) = ("shell", 2);
const MODIFIERS: &[(&str, usize)] = &[
    ("silent", 3),
    ("unsilent", 3),
    ("keepjumps", 5),
    ("keepmarks", 3),
    ("keepalt", 5),
    ("keeppatterns", 5),
    ("lockmarks", 3),
    ("noautocmd", 3),
    ("noswapfile", 3),
    ("vertical", 4),
    ("horizontal", 3),
    ("belowright", 3),
    ("aboveleft", 3),
    ("leftabove", 5),
    ("rightbelow", 6),
    ("topleft", 2),
    ("botright", 2),
    ("tab", 3),
    ("confirm", 4),
    ("browse", 3),
    ("hide", 3),
    ("sandbox", 3),
    ("legacy", 3),
    ("vim9cmd", 4),
];
/// Commands whose argument is another ex command (after a pattern for `:global`).
const RUNS_COMMAND: &[(&str, usize)] = &[
    ("bufdo", 5),
    ("argdo", 5),
    ("windo", 5),
    ("tabdo", 5),
    ("cdo", 3),
    ("cfdo", 4),
    ("ldo", 3),
    ("lfdo", 4),
];
const GLOBAL: &[(&str, usize)] = &[("global", 1), ("vglobal", 1)];
const LANGS: &[(&str, usize, Lang)] = &[
    ("python", 2, Lang::Python),
    ("python3", 4, Lang::Python),
    ("py3", 3, Lang::Python),
    ("pythonx", 7, Lang::Python),
    ("pyx", 3, Lang::Python),
    ("pydo", 3, Lang::Python),
    ("py3do", 4, Lang::Python),
    ("perl", 3, Lang::Perl),
    ("perldo", 5, Lang::Perl),
    ("ruby", 3, Lang::Ruby),
    ("rubydo", 5, Lang::Ruby),
];
/// Vimscript evaluation and code loading: can call `system()` or define code that runs later.
const SCRIPT: &[(&str, usize)] = &[
    ("call", 3),
    ("execute", 3),
    ("let", 3),
    ("echo", 2),
    ("echomsg", 5),
    ("echon", 5),
    ("eval", 3),
    ("if", 2),
    ("while", 2),
    ("for", 3),
    ("function", 2),
    ("source", 2),
    ("runtime", 2),
    ("autocmd", 2),
    ("command", 3),
    ("lua", 3),
    ("luado", 4),
    ("luafile", 5),
    ("pyfile", 3),
    ("py3file", 5),
    ("rubyfile", 5),
    ("perlfile", 5),
    ("redir", 3),
    ("map", 3),
    ("nmap", 2),
    ("noremap", 2),
    ("nnoremap", 2),
    ("imap", 2),
    ("inoremap", 3),
    ("vmap", 2),
    ("vnoremap", 2),
    ("def", 3),
    ("import", 3),
    ("make", 3),
    ("grep", 2),
    ("lmake", 2),
    ("lgrep", 2),
];
/// Edits, navigation and settings: nothing outside the buffer.
const EDITS: &[(&str, usize)] = &[
    ("set", 2),
    ("setlocal", 4),
    ("setglobal", 4),
    ("quit", 1),
    ("qall", 2),
    ("quitall", 5),
    ("edit", 1),
    ("enew", 3),
    ("substitute", 1),
    ("delete", 1),
    ("move", 1),
    ("t", 1),
    ("copy", 2),
    ("join", 1),
    ("yank", 1),
    ("put", 2),
    ("left", 2),
    ("right", 2),
    ("center", 2),
    ("sort", 3),
    ("retab", 3),
    ("nohlsearch", 3),
    ("undo", 1),
    ("redo", 3),
    ("syntax", 2),
    ("filetype", 5),
    ("colorscheme", 4),
    ("buffer", 1),
    ("bnext", 2),
    ("bprevious", 2),
    ("bdelete", 2),
    ("bwipeout", 2),
    ("ls", 2),
    ("buffers", 7),
    ("files", 5),
    ("tabnew", 6),
    ("tabedit", 4),
    ("split", 2),
    ("vsplit", 2),
    ("new", 3),
    ("vnew", 3),
    ("only", 2),
    ("close", 3),
    ("wincmd", 4),
    ("help", 1),
    ("version", 2),
    ("file", 1),
    ("diffupdate", 3),
    ("diffget", 5),
    ("diffput", 3),
    ("diffoff", 5),
    ("diffthis", 5),
    ("mark", 2),
    ("marks", 5),
    ("registers", 3),
    ("display", 2),
    ("jumps", 2),
    ("changes", 7),
    ("normal", 4),
    ("packadd", 2),
    ("highlight", 2),
    ("language", 3),
    ("next", 1),
    ("previous", 4),
    ("first", 3),
    ("last", 2),
    ("rewind", 3),
    ("args", 2),
    ("cd", 2),
    ("lcd", 2),
    ("pwd", 2),
    ("retab", 3),
    ("startinsert", 4),
    ("stopinsert", 5),
    ("redraw", 4),
    ("messages", 3),
    ("print", 1),
    ("list", 1),
    ("number", 2),
    ("z", 1),
    ("goto", 2),
    ("append", 1),
    ("insert", 1),
    ("change", 1),
    ("k", 1),
    ("open", 1),
    ("visual", 2),
    ("view", 3),
    ("stop", 2),
    ("suspend", 3),
    ("checktime", 6),
    ("e", 1),
    ("wincmd", 4),
    ("tabclose", 4),
    ("tabonly", 4),
    ("tabnext", 4),
    ("cnext", 2),
    ("cprevious", 2),
    ("copen", 4),
    ("cclose", 3),
    ("lopen", 3),
    ("lclose", 3),
    ("helptags", 5),
    ("mkspell", 3),
    ("spellgood", 3),
];

fn abbrev(name: &str, full: &str, min: usize) -> bool {
    name.len() >= min && full.starts_with(name)
}

fn find(name: &str, table: &[(&str, usize)]) -> bool {
    table.iter().any(|(full, min)| abbrev(name, full, *min))
}

/// Everything an ex command line does beyond editing. `depth` bounds nesting.
pub(crate) fn items(line: &str, depth: usize) -> Vec<Item> {
    let mut out = Vec::new();
    let mut rest = line;
    while !rest.trim().is_empty() {
        rest = command(rest, depth, &mut out);
    }
    out
}

/// Skips a range (`%`, `1,$`, `.`, `'a`, `/pat/`, `?pat?`, `+3`, `;`).
fn skip_range(s: &str) -> &str {
    let mut chars = s.char_indices().peekable();
    while let Some(&(i, c)) = chars.peek() {
        match c {
            '0'..='9' | '.' | ',' | ';' | '$' | '%' | '+' | '-' | ' ' | '\t' => {
                chars.next();
            }
            '\'' => {
                chars.next();
                chars.next();
            }
            '/' | '?' => {
                chars.next();
                let mut escaped = false;
                for (_, d) in chars.by_ref() {
                    if escaped {
                        escaped = false;
                    } else if d == '\\' {
                        escaped = true;
                    } else if d == c {
                        break;
                    }
                }
            }
            _ => return s.get(i..).unwrap_or(""),
        }
    }
    ""
}

/// What follows an fzf field placeholder at the start of `s` (`{2}`, `{-1}`, `{n}`), the
/// range of `rg -n … | fzf --bind 'enter:become(vim {1} +{2})'`: fzf replaces it with one
/// field of the selected line, quoted as one word — in such bindings the line number the
/// search printed. Only field and index placeholders; the query (`{q}`), the whole line
/// (`{}`) and file-list forms (`{+f}`) carry free text and stay unknown script.
fn fzf_field(s: &str) -> Option<&str> {
    let inner = s.strip_prefix('{')?;
    let end = inner.find('}')?;
    let field = inner.get(..end)?;
    let digits = field.strip_prefix('-').unwrap_or(field);
    let numeric = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    (numeric || field == "n").then(|| inner.get(end + 1..).unwrap_or(""))
}

/// Splits at the first `|` not escaped by a backslash.
fn split_bar(s: &str) -> (&str, &str) {
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == '|' {
            return (s.get(..i).unwrap_or(""), s.get(i + 1..).unwrap_or(""));
        }
    }
    (s, "")
}

/// Reads one command from `s`, pushes what it does, returns what follows it.
fn command<'s>(s: &'s str, depth: usize, out: &mut Vec<Item>) -> &'s str {
    if depth > MAX_DEPTH {
        out.push(Item::Script("commands nested too deeply".into()));
        return "";
    }
    let s = s.trim_start_matches(|c: char| c == ':' || c.is_whitespace());
    let s = fzf_field(s).unwrap_or(s);
    let s = skip_range(s).trim_start_matches(|c: char| c == ':' || c.is_whitespace());
    if s.is_empty() {
        // A range alone (`+{2}` after fzf filled in a line number, `-c 42`) moves the cursor.
        return "";
    }
    if let Some(code) = s.strip_prefix('!') {
        // `:!cmd` takes the rest of the line, `|` included.
        out.push(Item::Shell(code.to_owned()));
        return "";
    }
    let name_len = s
        .char_indices()
        .find(|(_, c)| !c.is_ascii_alphanumeric())
        .map_or(s.len(), |(i, _)| i);
    let (name, mut args) = s.split_at(name_len);
    // Names ending in digits are only `py3…`; on other commands trailing digits are a count.
    let name = if name.starts_with("py") {
        name
    } else {
        name.trim_end_matches(|c: char| c.is_ascii_digit())
    };
    let bang = args.starts_with('!');
    if bang {
        args = args.get(1..).unwrap_or("");
    }
    if name.is_empty() {
        // `&`, `~`, `<`, `>`, `=`, `@`, `*`, `#`: repeat/shift/print; nothing outside.
        if s.starts_with(['&', '~', '<', '>', '=', '@', '*', '#']) {
            return split_bar(s.get(1..).unwrap_or("")).1;
        }
        out.push(Item::Script(format!(
            "`{}`",
            s.chars().take(20).collect::<String>()
        )));
        return "";
    }
    if find(name, MODIFIERS) {
        return command(args, depth + 1, out);
    }
    if let Some((_, _, lang)) = LANGS.iter().find(|(full, min, _)| abbrev(name, full, *min)) {
        out.push(Item::Lang(*lang, args.trim_start().to_owned()));
        return "";
    }
    if find(name, GLOBAL) {
        let Some(delim) = args.chars().next() else {
            return "";
        };
        let mut escaped = false;
        let mut body = "";
        for (i, c) in args.char_indices().skip(1) {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == delim {
                body = args.get(i + c.len_utf8()..).unwrap_or("");
                break;
            }
        }
        out.extend(items(body, depth + 1));
        return "";
    }
    if find(name, RUNS_COMMAND) {
        out.extend(items(args, depth + 1));
        return "";
    }
    if abbrev(name, TERMINAL.0, TERMINAL.1) {
        let code: Vec<&str> = args
            .split_whitespace()
            .skip_while(|w| w.starts_with("++"))
            .collect();
        out.push(if code.is_empty() {
            Item::Script("an interactive terminal".into())
        } else {
            Item::Shell(code.join(" "))
        });
        return "";
    }
    if abbrev(name, SHELL.0, SHELL.1) {
        out.push(Item::Script("an interactive shell".into()));
        return split_bar(args).1;
    }
    if abbrev(name, SHELL_BANG_READ.0, SHELL_BANG_READ.1) {
        if let Some(code) = args.trim_start().strip_prefix('!') {
            out.push(Item::Shell(code.to_owned()));
            return "";
        }
        return split_bar(args).1;
    }
    if find(name, WRITE) {
        let trimmed = args.trim_start();
        if let Some(code) = trimmed.strip_prefix('!') {
            out.push(Item::ShellFedBuffer(code.to_owned()));
            return "";
        }
        let (file, next) = split_bar(trimmed);
        let file = file.trim().trim_start_matches(">>").trim();
        if !file.is_empty() {
            out.push(Item::Write(file.to_owned()));
        }
        return next;
    }
    if abbrev(name, "normal", 4) {
        // Keys run as typed; without a carriage return no command line is executed.
        if args.contains(['\r', '\n']) {
            out.push(Item::Script(":normal with a carriage return".into()));
        }
        return "";
    }
    if find(name, SCRIPT) {
        out.push(Item::Script(format!(":{name}")));
        return "";
    }
    if find(name, EDITS) || name.starts_with(|c: char| c.is_ascii_uppercase()) {
        return split_bar(args).1;
    }
    out.push(Item::Script(format!("unknown command :{name}")));
    ""
}

/// The parts of an `ed` command script (one command per line, as `ed` reads it on its
/// standard input) that leave the editor: `!cmd` runs a shell command, `r !cmd`/`e !cmd`
/// read a command's output (the command runs), `w !cmd`/`W !cmd` feed the buffer to one.
/// A command may follow an address (`1,$`, `.`, `/re/`, `'a`) and sit inside a global
/// command (`g/re/cmd`, `v/re/cmd`, `G`, `V`), which are read through. Other commands edit
/// the buffer or write the file ed was given (judged as that file's write).
///
/// Invariant: a shell escape is never taken for an edit, wherever the script puts it.
pub(crate) fn ed_items(script: &str) -> Vec<Item> {
    let mut out = Vec::new();
    for line in script.lines() {
        let mut t = line.trim_start();
        // Global commands: `g/re/` (any delimiter) before the command list.
        for _ in 0..MAX_DEPTH {
            t = ed_address(t);
            let Some(c) = t
                .chars()
                .next()
                .filter(|c| matches!(c, 'g' | 'v' | 'G' | 'V'))
            else {
                break;
            };
            let rest = &t[c.len_utf8()..];
            let Some(delim) = rest.chars().next() else {
                break;
            };
            let body = &rest[delim.len_utf8()..];
            match body.find(delim) {
                Some(end) => t = &body[end + delim.len_utf8()..],
                None => break,
            }
        }
        if let Some(code) = t.strip_prefix('!') {
            out.push(Item::Shell(code.to_owned()));
            continue;
        }
        let Some(c) = t.chars().next() else { continue };
        if matches!(c, 'r' | 'e' | 'E' | 'w' | 'W') {
            let rest = t[c.len_utf8()..].trim_start_matches('q').trim_start();
            if let Some(code) = rest.strip_prefix('!') {
                out.push(if matches!(c, 'w' | 'W') {
                    Item::ShellFedBuffer(code.to_owned())
                } else {
                    Item::Shell(code.to_owned())
                });
            }
        }
    }
    out
}

/// `t` after an `ed` address: line numbers, `.`, `$`, `,`, `;`, `+`/`-` offsets, marks
/// (`'a`) and regular expressions (`/re/`, `?re?`).
fn ed_address(mut t: &str) -> &str {
    loop {
        t = t.trim_start();
        let Some(c) = t.chars().next() else { return t };
        match c {
            '0'..='9' | '.' | '$' | ',' | ';' | '+' | '-' | '^' => t = &t[1..],
            '\'' => t = t.get(2..).unwrap_or(""),
            '/' | '?' => {
                let body = &t[1..];
                t = match body.find(c) {
                    Some(end) => &body[end + 1..],
                    None => "",
                };
            }
            _ => return t,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bang_read_write_and_terminal_run_shell() {
        for (line, code) in [
            ("!rm -rf ~", "rm -rf ~"),
            (":!rm -rf ~", "rm -rf ~"),
            ("silent !curl x | sh", "curl x | sh"),
            ("sil! !id", "id"),
            ("r !id", "id"),
            ("ter ++close bash -c id", "bash -c id"),
            ("g/x/!id", "id"),
            ("bufdo !id", "id"),
            ("set nu | !id", "id"),
        ] {
            assert_eq!(items(line, 0), vec![Item::Shell(code.into())], "{line}");
        }
    }

    #[test]
    fn writing_to_a_command_feeds_it_the_buffer() {
        assert_eq!(items("%w !sh", 0), vec![Item::ShellFedBuffer("sh".into())]);
    }

    #[test]
    fn embedded_interpreters_are_their_language() {
        assert_eq!(
            items("py3 import os; os.system('id')", 0),
            vec![Item::Lang(
                Lang::Python,
                "import os; os.system('id')".into()
            )]
        );
    }

    #[test]
    fn edits_settings_and_user_commands_do_nothing_outside() {
        for line in [
            "set nu",
            "wq",
            "q!",
            "%s/a/b/g",
            "x",
            "PlugInstall",
            "qa",
            "normal! gg=G",
            "2,5d",
            "e file.txt",
        ] {
            assert_eq!(items(line, 0), vec![], "{line}");
        }
    }

    #[test]
    fn writes_name_their_file_and_script_evaluation_is_reported() {
        assert_eq!(
            items("w /etc/passwd", 0),
            vec![Item::Write("/etc/passwd".into())]
        );
        assert!(matches!(
            items("call system('id')", 0).as_slice(),
            [Item::Script(_)]
        ));
        assert!(matches!(
            items("frobnicate", 0).as_slice(),
            [Item::Script(_)]
        ));
    }
}
