//! A reader for sed scripts, for the parts of them that reach outside the text being edited.
//!
//! GNU sed can run commands (`e command`, `e` executing the pattern space, the `e` flag of
//! `s///` executing the substituted line) and write or read files (`w file`, `s///w file`,
//! `r file`). A script is code, so it is parsed, not searched: addresses, regular expressions
//! with their delimiters and bracket expressions, replacements with their escapes, and the
//! text arguments of `a`/`i`/`c` are skipped structurally, so `s/e/x/` or `/w file/p` stay
//! plain edits.
//!
//! Invariant: a script this reader cannot follow is an [`Error`]; the caller treats it as
//! code it cannot see (ask), never as harmless.

/// What a sed script does beyond editing its input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Action {
    /// `e command`: runs `command` with the shell.
    Exec(String),
    /// `e` alone: runs the pattern space (input data) as a shell command.
    ExecPatternSpace,
    /// `s/re/replacement/e`: runs the substituted line. `Some(code)` when the regex replaces
    /// the whole line and the replacement is literal, so the code is known.
    SubstExec(Option<String>),
    /// `w file`, `W file`, `s///w file`: writes a file.
    Write(String),
    /// `r file`, `R file`: reads a file into the output.
    Read(String),
    /// Text the script puts into its output: an `s///` replacement, `a`/`i`/`c` text.
    Insert(String),
}

/// The text a script can put into the file it edits (replacements, `a`/`i`/`c` text), when it
/// does nothing else: `None` for a script that cannot be read, or that runs commands or
/// reads or writes other files. For content rules on in-place edits (`sed -i 's/3.8/3.9/'
/// docker-compose.yml` inserts `3.9`).
pub fn inserted_text(script: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for a in actions(script).ok()? {
        match a {
            Action::Insert(t) => out.push(t),
            _ => return None,
        }
    }
    Some(out)
}

/// Why a script could not be followed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Error {
    #[error("unterminated {0}")]
    Unterminated(&'static str),
    #[error("unknown sed command `{0}`")]
    UnknownCommand(char),
    #[error("unexpected `{0}` after a command")]
    Trailing(char),
}

struct Cursor {
    chars: Vec<char>,
    pos: usize,
}

impl Cursor {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek();
        if c.is_some() {
            self.pos += 1;
        }
        c
    }

    fn skip_blanks(&mut self) {
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.pos += 1;
        }
    }

    /// The rest of the line (GNU one-liner arguments: file names, `e` commands, `a` text).
    fn rest_of_line(&mut self) -> String {
        let mut out = String::new();
        while let Some(c) = self.bump() {
            if c == '\n' {
                break;
            }
            out.push(c);
        }
        out
    }

    /// A label or `}`-free word ending at `;` or a newline.
    fn label(&mut self) {
        while self.peek().is_some_and(|c| c != ';' && c != '\n') {
            self.pos += 1;
        }
    }

    /// Skips a regex delimited by `delim` (the opening one already consumed), honouring
    /// backslash escapes and bracket expressions. Returns its text.
    fn regex(&mut self, delim: char) -> Result<String, Error> {
        let mut out = String::new();
        loop {
            let c = self
                .bump()
                .ok_or(Error::Unterminated("regular expression"))?;
            if c == delim {
                return Ok(out);
            }
            match c {
                '\\' => {
                    let next = self.bump().ok_or(Error::Unterminated("escape"))?;
                    if next != delim {
                        out.push('\\');
                    }
                    out.push(next);
                }
                '[' => {
                    out.push('[');
                    self.bracket(&mut out)?;
                }
                '\n' => return Err(Error::Unterminated("regular expression")),
                _ => out.push(c),
            }
        }
    }

    /// A bracket expression after its `[`: `]` first is literal, `[:class:]` nests once.
    fn bracket(&mut self, out: &mut String) -> Result<(), Error> {
        if self.peek() == Some('^') {
            out.push('^');
            self.pos += 1;
        }
        if self.peek() == Some(']') {
            out.push(']');
            self.pos += 1;
        }
        loop {
            let c = self
                .bump()
                .ok_or(Error::Unterminated("bracket expression"))?;
            out.push(c);
            match c {
                ']' => return Ok(()),
                '[' if matches!(self.peek(), Some(':' | '.' | '=')) => {
                    let kind = self
                        .bump()
                        .ok_or(Error::Unterminated("bracket expression"))?;
                    out.push(kind);
                    loop {
                        let d = self.bump().ok_or(Error::Unterminated("character class"))?;
                        out.push(d);
                        if d == kind && self.peek() == Some(']') {
                            self.pos += 1;
                            out.push(']');
                            break;
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// A replacement up to `delim`. Returns `(text, literal)`: `literal` is false when it
    /// refers to the match (`&`, `\1`…) or uses case conversion, so the result is data.
    fn replacement(&mut self, delim: char) -> Result<(String, bool), Error> {
        let mut out = String::new();
        let mut literal = true;
        loop {
            let c = self.bump().ok_or(Error::Unterminated("replacement"))?;
            if c == delim {
                return Ok((out, literal));
            }
            match c {
                '\\' => {
                    let next = self.bump().ok_or(Error::Unterminated("escape"))?;
                    match next {
                        'n' | '\n' => out.push('\n'),
                        't' => out.push('\t'),
                        '0'..='9' | 'L' | 'U' | 'l' | 'u' | 'E' => literal = false,
                        other => out.push(other),
                    }
                }
                '&' => literal = false,
                _ => out.push(c),
            }
        }
    }

    /// An address: a line number, `$`, `/re/`, `\cREc`, `first~step`, followed by `I`/`M`.
    fn address(&mut self) -> Result<Option<String>, Error> {
        match self.peek() {
            Some(c) if c.is_ascii_digit() => {
                while self.peek().is_some_and(|c| c.is_ascii_digit() || c == '~') {
                    self.pos += 1;
                }
                Ok(Some(String::new()))
            }
            Some('$') => {
                self.pos += 1;
                Ok(Some(String::new()))
            }
            Some('/') => {
                self.pos += 1;
                let re = self.regex('/')?;
                self.address_flags();
                Ok(Some(re))
            }
            Some('\\') => {
                self.pos += 1;
                let delim = self.bump().ok_or(Error::Unterminated("address"))?;
                let re = self.regex(delim)?;
                self.address_flags();
                Ok(Some(re))
            }
            _ => Ok(None),
        }
    }

    fn address_flags(&mut self) {
        while self.peek().is_some_and(|c| c == 'I' || c == 'M') {
            self.pos += 1;
        }
    }
}

/// Parses a whole script (several `-e` pieces joined by newlines) into what it does beyond
/// editing. Never panics; input it cannot follow is an [`Error`].
pub(crate) fn actions(script: &str) -> Result<Vec<Action>, Error> {
    let mut cur = Cursor {
        chars: script.chars().collect(),
        pos: 0,
    };
    let mut out = Vec::new();
    loop {
        // Separators between commands.
        while cur.peek().is_some_and(|c| c.is_whitespace() || c == ';') {
            cur.pos += 1;
        }
        let Some(first) = cur.peek() else { break };
        if first == '#' {
            cur.rest_of_line();
            continue;
        }
        if cur.address()?.is_some() {
            cur.skip_blanks();
            if cur.peek() == Some(',') {
                cur.pos += 1;
                cur.skip_blanks();
                if cur.peek().is_some_and(|c| c == '+' || c == '~') {
                    cur.pos += 1;
                }
                if cur.address()?.is_none() {
                    return Err(Error::Unterminated("address range"));
                }
            }
        }
        cur.skip_blanks();
        while cur.peek() == Some('!') {
            cur.pos += 1;
            cur.skip_blanks();
        }
        let Some(cmd) = cur.bump() else {
            return Err(Error::Unterminated("command"));
        };
        match cmd {
            // A block opens: the next command may follow at once (`1{p}`).
            '{' => continue,
            '}' | '=' | 'd' | 'D' | 'g' | 'G' | 'h' | 'H' | 'n' | 'N' | 'p' | 'P' | 'x' | 'z'
            | 'F' => {}
            'l' | 'L' | 'q' | 'Q' => {
                cur.skip_blanks();
                while cur.peek().is_some_and(|c| c.is_ascii_digit()) {
                    cur.pos += 1;
                }
            }
            ':' | 'b' | 't' | 'T' | 'v' => cur.label(),
            'a' | 'i' | 'c' => out.push(Action::Insert(text_argument(&mut cur))),
            'r' | 'R' => {
                cur.skip_blanks();
                out.push(Action::Read(cur.rest_of_line()));
                continue;
            }
            'w' | 'W' => {
                cur.skip_blanks();
                out.push(Action::Write(cur.rest_of_line()));
                continue;
            }
            'e' => {
                cur.skip_blanks();
                let command = cur.rest_of_line();
                out.push(if command.trim().is_empty() {
                    Action::ExecPatternSpace
                } else {
                    Action::Exec(command)
                });
                continue;
            }
            's' => {
                if substitute(&mut cur, &mut out)? {
                    continue;
                }
            }
            'y' => {
                let delim = cur.bump().ok_or(Error::Unterminated("y command"))?;
                cur.regex(delim)?;
                cur.regex(delim)?;
            }
            other => return Err(Error::UnknownCommand(other)),
        }
        // After a command: blanks, then `;`, `}`, a newline, a comment or the end.
        cur.skip_blanks();
        match cur.peek() {
            None | Some(';' | '\n' | '}' | '#') => {}
            Some(c) => return Err(Error::Trailing(c)),
        }
    }
    Ok(out)
}

/// `a text`, `a\` + lines (each ending in `\` continues). Returns the text.
fn text_argument(cur: &mut Cursor) -> String {
    cur.skip_blanks();
    if cur.peek() == Some('\\') {
        cur.pos += 1;
        if cur.peek() == Some('\n') {
            cur.pos += 1;
        }
    }
    let mut text = String::new();
    loop {
        let line = cur.rest_of_line();
        text.push_str(&line);
        text.push('\n');
        if !line.ends_with('\\') {
            break;
        }
    }
    text
}

/// `s/re/replacement/flags`. Returns true when the flags ended the line (`w file`).
fn substitute(cur: &mut Cursor, out: &mut Vec<Action>) -> Result<bool, Error> {
    let delim = cur.bump().ok_or(Error::Unterminated("s command"))?;
    if delim == '\n' || delim == '\\' {
        return Err(Error::Unterminated("s command"));
    }
    let regex = cur.regex(delim)?;
    let (replacement, literal) = cur.replacement(delim)?;
    out.push(Action::Insert(replacement.clone()));
    let mut exec = false;
    loop {
        match cur.peek() {
            Some('g' | 'p' | 'i' | 'I' | 'm' | 'M') => cur.pos += 1,
            Some(c) if c.is_ascii_digit() => cur.pos += 1,
            Some('e') => {
                cur.pos += 1;
                exec = true;
            }
            Some('w') => {
                cur.pos += 1;
                cur.skip_blanks();
                let file = cur.rest_of_line();
                push_exec(out, exec, &regex, replacement, literal);
                out.push(Action::Write(file));
                return Ok(true);
            }
            _ => break,
        }
    }
    push_exec(out, exec, &regex, replacement, literal);
    Ok(false)
}

fn push_exec(out: &mut Vec<Action>, exec: bool, regex: &str, replacement: String, literal: bool) {
    if !exec {
        return;
    }
    // The executed line is the replacement itself only when the regex consumes the whole
    // line; otherwise input text survives around it and the command is data-dependent.
    let whole_line = matches!(regex, ".*" | "^.*" | "^.*$" | ".*$");
    out.push(Action::SubstExec(
        (whole_line && literal).then_some(replacement),
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a script does beyond editing (its inserted text left out).
    fn effects(script: &str) -> Result<Vec<Action>, Error> {
        super::actions(script).map(|a| {
            a.into_iter()
                .filter(|x| !matches!(x, Action::Insert(_)))
                .collect()
        })
    }

    #[test]
    fn plain_edits_do_nothing_beyond_editing() {
        for s in [
            "s/foo/bar/g",
            "s/e/E/",
            "/w file/p",
            "1,5p",
            "$d",
            "s|/usr/bin|/opt|g",
            "s/[/]/x/",
            "y/abc/xyz/",
            "/^#/!s/a/b/2",
            "0,/re/{s/x/y/;n}",
            "a hello; e not a command",
            ":top\nN\nbtop",
            "s/[[:space:]]*$//",
            "1~2d",
            "\\%foo%d",
        ] {
            assert_eq!(effects(s), Ok(vec![]), "{s}");
        }
    }

    #[test]
    fn the_e_command_runs_its_argument_and_the_e_flag_runs_the_line() {
        assert_eq!(
            effects("1e rm -rf ~"),
            Ok(vec![Action::Exec("rm -rf ~".into())])
        );
        assert_eq!(effects("e"), Ok(vec![Action::ExecPatternSpace]));
        assert_eq!(
            effects("s/.*/rm -rf ~/e"),
            Ok(vec![Action::SubstExec(Some("rm -rf ~".into()))])
        );
        assert_eq!(effects("s/x/&y/e"), Ok(vec![Action::SubstExec(None)]));
        assert_eq!(effects("s/x/y/ge"), Ok(vec![Action::SubstExec(None)]));
    }

    #[test]
    fn writes_and_reads_name_their_file() {
        assert_eq!(
            effects("s/a/b/w /etc/passwd"),
            Ok(vec![Action::Write("/etc/passwd".into())])
        );
        assert_eq!(
            effects("1r ~/.ssh/id_rsa"),
            Ok(vec![Action::Read("~/.ssh/id_rsa".into())])
        );
    }

    #[test]
    fn inserted_text_is_the_replacements_of_a_plain_edit() {
        assert_eq!(inserted_text("s/3.8/3.9/"), Some(vec!["3.9".to_owned()]));
        assert_eq!(
            inserted_text("s/a/b/;/x/a privileged: true"),
            Some(vec!["b".to_owned(), "privileged: true\n".to_owned()])
        );
        assert_eq!(inserted_text("s/.*/id/e"), None);
        assert_eq!(inserted_text("s/a/b/w /etc/x"), None);
        assert_eq!(inserted_text("s/unterminated"), None);
    }

    #[test]
    fn scripts_it_cannot_follow_are_errors() {
        assert!(actions("s/unterminated").is_err());
        assert!(actions("k").is_err());
        assert!(actions("p x").is_err());
    }
}
