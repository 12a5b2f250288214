//! Expansions the shell performs on the text of a word before it runs: brace expansion
//! (`.claude{,.bak}`, `{1..3}`), field splitting of unquoted values, and `printf`'s format
//! language (for `$(printf .claude)` in a path).
//!
//! Invariant: each function either reproduces exactly what bash produces or says it cannot
//! (`None` / [`Braces::TooMany`]); the caller then treats the word as unresolved (ask). Nothing
//! here guesses.

/// Most words one brace expansion may produce before the word counts as unresolved.
pub(crate) const MAX_BRACE_WORDS: usize = 256;

/// The result of brace-expanding one word's source text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Braces {
    /// No well-formed brace expression: the word stands as written.
    Literal,
    /// The words' source texts, in bash's order (each still to be quote-removed/expanded).
    Words(Vec<String>),
    /// More than [`MAX_BRACE_WORDS`] words.
    TooMany,
}

/// One piece of a word for brace expansion: an unquoted `{`, `,`, `}`, or text that brace
/// expansion never looks into (quoted strings, escapes, `$(…)`, `${…}`, backticks, letters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Atom<'s> {
    Open,
    Comma,
    Close,
    Text(&'s str),
}

/// Cheap test before the real scan: can `raw` contain a brace expression at all?
pub(crate) fn may_brace(raw: &str) -> bool {
    // One pass over the bytes: most words are short and have no `{`.
    let (mut open, mut close, mut comma, mut dots, mut last) = (false, false, false, false, 0u8);
    for b in raw.bytes() {
        match b {
            b'{' => open = true,
            b'}' => close = true,
            b',' => comma = true,
            b'.' if last == b'.' => dots = true,
            _ => {}
        }
        last = b;
    }
    open && close && (comma || dots)
}

/// Brace-expands a word's source text the way bash does: the first unquoted `{` with a
/// matching `}` and a top-level `,` (or a valid sequence `{x..y[..step]}`) is expanded, then
/// the alternatives and the rest recursively. `${`, quoted and escaped braces are not brace
/// expressions; `{}`, `{a}` and malformed sequences stay literal.
pub(crate) fn braces(raw: &str) -> Braces {
    let Some(atoms) = atomize(raw) else {
        return Braces::Literal;
    };
    if !atoms.iter().any(|a| matches!(a, Atom::Open)) {
        return Braces::Literal;
    }
    match expand(&atoms, MAX_BRACE_WORDS) {
        Some(words) if words.len() == 1 && words.first().is_some_and(|w| w == raw) => {
            Braces::Literal
        }
        Some(words) => Braces::Words(words),
        None => Braces::TooMany,
    }
}

/// Splits a word's source into atoms. `None` when the quoting does not balance (the grammar
/// accepted the word, so this does not happen; the caller keeps the word as it is).
fn atomize(raw: &str) -> Option<Vec<Atom<'_>>> {
    let b = raw.as_bytes();
    let mut atoms = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        match b.get(i) {
            Some(b'{') => {
                atoms.push(Atom::Open);
                i += 1;
                continue;
            }
            Some(b'}') => {
                atoms.push(Atom::Close);
                i += 1;
                continue;
            }
            Some(b',') => {
                atoms.push(Atom::Comma);
                i += 1;
                continue;
            }
            _ => {}
        }
        i = skip_atom(b, i)?;
        atoms.push(Atom::Text(raw.get(start..i)?));
    }
    Some(atoms)
}

/// The end of the opaque piece starting at `i`.
fn skip_atom(b: &[u8], i: usize) -> Option<usize> {
    match (b.get(i)?, b.get(i + 1)) {
        (b'\\', Some(_)) => Some(next_char(b, i + 1)),
        (b'\\', None) => Some(i + 1),
        (b'\'', _) => Some(find(b, i + 1, b'\'')? + 1),
        (b'"', _) => skip_double(b, i + 1),
        (b'`', _) => skip_backtick(b, i + 1),
        (b'$', Some(b'\'')) => skip_ansi(b, i + 2),
        (b'$', Some(b'"')) => skip_double(b, i + 2),
        (b'$', Some(b'(')) => skip_nested(b, i + 2, b'(', b')'),
        (b'$', Some(b'{')) => skip_nested(b, i + 2, b'{', b'}'),
        _ => Some(next_char(b, i)),
    }
}

/// Index after the UTF-8 character starting at `i`.
fn next_char(b: &[u8], i: usize) -> usize {
    let mut j = i + 1;
    while b.get(j).is_some_and(|c| (c & 0xC0) == 0x80) {
        j += 1;
    }
    j
}

fn find(b: &[u8], from: usize, what: u8) -> Option<usize> {
    b.get(from..)?
        .iter()
        .position(|c| *c == what)
        .map(|p| p + from)
}

/// After the opening `"`: index past the closing one.
fn skip_double(b: &[u8], mut i: usize) -> Option<usize> {
    loop {
        match b.get(i)? {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            b'`' => i = skip_backtick(b, i + 1)?,
            b'$' if b.get(i + 1) == Some(&b'(') => i = skip_nested(b, i + 2, b'(', b')')?,
            b'$' if b.get(i + 1) == Some(&b'{') => i = skip_nested(b, i + 2, b'{', b'}')?,
            _ => i += 1,
        }
    }
}

fn skip_backtick(b: &[u8], mut i: usize) -> Option<usize> {
    loop {
        match b.get(i)? {
            b'\\' => i += 2,
            b'`' => return Some(i + 1),
            _ => i += 1,
        }
    }
}

fn skip_ansi(b: &[u8], mut i: usize) -> Option<usize> {
    loop {
        match b.get(i)? {
            b'\\' => i += 2,
            b'\'' => return Some(i + 1),
            _ => i += 1,
        }
    }
}

/// After an opening bracket: index past its match, skipping quotes inside.
fn skip_nested(b: &[u8], mut i: usize, open: u8, close: u8) -> Option<usize> {
    let mut depth = 1usize;
    loop {
        let c = *b.get(i)?;
        if c == close {
            depth -= 1;
            i += 1;
            if depth == 0 {
                return Some(i);
            }
            continue;
        }
        if c == open {
            depth += 1;
            i += 1;
            continue;
        }
        i = match c {
            b'\\' => i + 2,
            b'\'' => find(b, i + 1, b'\'')? + 1,
            b'"' => skip_double(b, i + 1)?,
            b'`' => skip_backtick(b, i + 1)?,
            _ => i + 1,
        };
    }
}

fn concat(atoms: &[Atom<'_>]) -> String {
    atoms
        .iter()
        .map(|a| match a {
            Atom::Open => "{",
            Atom::Comma => ",",
            Atom::Close => "}",
            Atom::Text(t) => t,
        })
        .collect()
}

/// Brace expansion of `atoms`; `None` past `limit` words.
fn expand(atoms: &[Atom<'_>], limit: usize) -> Option<Vec<String>> {
    let mut search = 0;
    while let Some(open) = atoms
        .get(search..)
        .and_then(|rest| rest.iter().position(|a| *a == Atom::Open))
        .map(|p| p + search)
    {
        let Some((close, commas)) = matching_close(atoms, open) else {
            search = open + 1;
            continue;
        };
        let inner = atoms.get(open + 1..close).unwrap_or(&[]);
        let alternatives: Vec<Vec<String>> = if commas.is_empty() {
            match sequence(&concat(inner), limit) {
                Some(Ok(seq)) => seq.into_iter().map(|s| vec![s]).collect(),
                Some(Err(())) => return None,
                None => {
                    search = open + 1;
                    continue;
                }
            }
        } else {
            let mut parts = Vec::new();
            let mut from = open + 1;
            for at in commas.iter().copied().chain(std::iter::once(close)) {
                parts.push(expand(atoms.get(from..at).unwrap_or(&[]), limit)?);
                from = at + 1;
            }
            parts
        };
        let preamble = concat(atoms.get(..open).unwrap_or(&[]));
        let post = expand(atoms.get(close + 1..).unwrap_or(&[]), limit)?;
        let mut out = Vec::new();
        for alternative in alternatives.iter().flatten() {
            for p in &post {
                if out.len() >= limit {
                    return None;
                }
                out.push(format!("{preamble}{alternative}{p}"));
            }
        }
        return Some(out);
    }
    Some(vec![concat(atoms)])
}

/// The `}` matching the `{` at `open`, and the top-level commas between them.
fn matching_close(atoms: &[Atom<'_>], open: usize) -> Option<(usize, Vec<usize>)> {
    let mut depth = 0usize;
    let mut commas = Vec::new();
    for (i, a) in atoms.iter().enumerate().skip(open + 1) {
        match a {
            Atom::Open => depth += 1,
            Atom::Close if depth == 0 => return Some((i, commas)),
            Atom::Close => depth -= 1,
            Atom::Comma if depth == 0 => commas.push(i),
            _ => {}
        }
    }
    None
}

/// `x..y[..step]` with integers or single letters: `Some(Ok(words))`, `Some(Err)` past
/// `limit`, `None` when it is not a valid sequence (the braces stay literal).
fn sequence(inner: &str, limit: usize) -> Option<Result<Vec<String>, ()>> {
    let parts: Vec<&str> = inner.split("..").collect();
    let (start, end, step) = match parts.as_slice() {
        [a, b] => (*a, *b, None),
        [a, b, s] => (*a, *b, Some(*s)),
        _ => return None,
    };
    let step: i64 = match step {
        Some(s) => s.parse().ok()?,
        None => 1,
    };
    let step = step.checked_abs()?.max(1);
    if let (Ok(a), Ok(b)) = (start.parse::<i64>(), end.parse::<i64>()) {
        let count = (a.abs_diff(b) / step.unsigned_abs()).saturating_add(1);
        if usize::try_from(count).map_or(true, |c| c > limit) {
            return Some(Err(()));
        }
        let padded = |s: &str| {
            let digits = s.trim_start_matches('-');
            digits.len() > 1 && digits.starts_with('0')
        };
        let width = if padded(start) || padded(end) {
            start.len().max(end.len())
        } else {
            0
        };
        let mut out = Vec::new();
        let mut v = a;
        loop {
            out.push(if width > 0 {
                if v < 0 {
                    format!("-{:0w$}", v.unsigned_abs(), w = width.saturating_sub(1))
                } else {
                    format!("{v:0width$}")
                }
            } else {
                v.to_string()
            });
            if v == b {
                break;
            }
            let next = if a <= b {
                v.checked_add(step)
            } else {
                v.checked_sub(step)
            };
            let Some(next) = next else {
                break;
            };
            v = next;
            if (a <= b && v > b) || (a > b && v < b) {
                break;
            }
        }
        return Some(Ok(out));
    }
    let (mut sc, mut ec) = (start.chars(), end.chars());
    let (a, b) = match (sc.next(), sc.next(), ec.next(), ec.next()) {
        (Some(a), None, Some(b), None) if a.is_ascii_alphabetic() && b.is_ascii_alphabetic() => {
            (a, b)
        }
        _ => return None,
    };
    let (a, b) = (u32::from(a), u32::from(b));
    let step = u32::try_from(step).ok()?;
    let mut out = Vec::new();
    let mut v = a;
    loop {
        // Between `Z` and `a` bash also produces six punctuation characters; they are
        // quoted so the word's source text still means the character itself.
        let c = char::from_u32(v)?;
        out.push(if c.is_ascii_alphanumeric() {
            c.to_string()
        } else {
            format!("'{c}'")
        });
        if v == b || out.len() > limit {
            break;
        }
        let Some(next) = (if a <= b {
            v.checked_add(step)
        } else {
            v.checked_sub(step)
        }) else {
            break;
        };
        v = next;
        if (a <= b && v > b) || (a > b && v < b) {
            break;
        }
    }
    if out.len() > limit {
        return Some(Err(()));
    }
    Some(Ok(out))
}

/// Field splitting with the default `IFS` (space, tab, newline): what an unquoted `$X`
/// becomes.
pub(crate) fn split_fields(value: &str) -> Vec<String> {
    value
        .split([' ', '\t', '\n'])
        .filter(|f| !f.is_empty())
        .map(str::to_owned)
        .collect()
}

/// True when an unquoted expansion of `value` would be split or globbed.
pub(crate) fn splits(value: &str) -> bool {
    value.contains([' ', '\t', '\n'])
}

/// What `printf FORMAT ARGS…` prints, when every directive is one modelled here (`%s`, `%b`,
/// `%c`, `%d`/`%i` of an integer, `%%`, the backslash escapes); `None` otherwise (widths,
/// floats, `\c`, output containing NUL).
pub(crate) fn printf(format: &str, args: &[&str]) -> Option<String> {
    let mut out = String::new();
    let mut next = 0usize;
    loop {
        let consumed_before = next;
        let mut chars = format.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' => {
                    if !escape(&mut chars, &mut out, false)? {
                        return None;
                    }
                }
                '%' => {
                    let directive = chars.next()?;
                    let arg = || args.get(next).copied().unwrap_or("");
                    match directive {
                        '%' => out.push('%'),
                        's' => {
                            out.push_str(arg());
                            next += 1;
                        }
                        'b' => {
                            let a = arg();
                            let mut ac = a.chars().peekable();
                            while let Some(x) = ac.next() {
                                if x == '\\' {
                                    if !escape(&mut ac, &mut out, true)? {
                                        return None;
                                    }
                                } else {
                                    out.push(x);
                                }
                            }
                            next += 1;
                        }
                        'c' => {
                            if let Some(x) = arg().chars().next() {
                                out.push(x);
                            }
                            next += 1;
                        }
                        'd' | 'i' => {
                            let a = arg();
                            let n: i64 = if a.is_empty() { 0 } else { a.parse().ok()? };
                            out.push_str(&n.to_string());
                            next += 1;
                        }
                        _ => return None,
                    }
                }
                other => out.push(other),
            }
        }
        // The format is reused while arguments remain (and it consumed some).
        if next >= args.len() || next == consumed_before {
            break;
        }
    }
    (!out.contains('\0')).then_some(out)
}

/// One backslash escape of printf's format (or `%b` argument, `b = true`). Returns
/// `Some(false)` for `\c` (stop all output: not modelled), `None` for an unknown escape.
fn escape(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    out: &mut String,
    b: bool,
) -> Option<bool> {
    let Some(e) = chars.next() else {
        out.push('\\');
        return Some(true);
    };
    let simple = match e {
        'n' => Some('\n'),
        't' => Some('\t'),
        'r' => Some('\r'),
        'a' => Some('\x07'),
        'b' => Some('\x08'),
        'f' => Some('\x0c'),
        'v' => Some('\x0b'),
        'e' | 'E' => Some('\x1b'),
        '\\' => Some('\\'),
        '"' => Some('"'),
        '\'' => Some('\''),
        _ => None,
    };
    if let Some(c) = simple {
        out.push(c);
        return Some(true);
    }
    match e {
        'c' => Some(false),
        '0'..='7' => {
            // `\NNN` in the format, `\0NNN` in a `%b` argument.
            let mut value = if b && e == '0' { 0 } else { e.to_digit(8)? };
            let max = if b && e == '0' { 3 } else { 2 };
            for _ in 0..max {
                match chars.peek().and_then(|d| d.to_digit(8)) {
                    Some(d) => {
                        value = value * 8 + d;
                        chars.next();
                    }
                    None => break,
                }
            }
            out.push(char::from_u32(value)?);
            Some(true)
        }
        'x' => {
            let mut value = 0u32;
            let mut n = 0;
            while n < 2 {
                match chars.peek().and_then(|d| d.to_digit(16)) {
                    Some(d) => {
                        value = value * 16 + d;
                        chars.next();
                        n += 1;
                    }
                    None => break,
                }
            }
            if n == 0 {
                return None;
            }
            out.push(char::from_u32(value)?);
            Some(true)
        }
        other => {
            out.push('\\');
            out.push(other);
            Some(true)
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    fn words(raw: &str) -> Vec<String> {
        match braces(raw) {
            Braces::Words(w) => w,
            Braces::Literal => vec![raw.to_owned()],
            Braces::TooMany => panic!("too many: {raw}"),
        }
    }

    #[test]
    fn brace_expansion_matches_bash() {
        let cases: &[(&str, &[&str])] = &[
            (".claude{,.bak}", &[".claude", ".claude.bak"]),
            (".c{l,}aude", &[".claude", ".caude"]),
            ("{a,b}{1,2}", &["a1", "a2", "b1", "b2"]),
            ("{1..3}", &["1", "2", "3"]),
            ("{3..1}", &["3", "2", "1"]),
            ("{a..c}", &["a", "b", "c"]),
            ("{01..03}", &["01", "02", "03"]),
            ("{1..10..4}", &["1", "5", "9"]),
            ("{-1..1}", &["-1", "0", "1"]),
            ("x{a,b{1,2}}y", &["xay", "xb1y", "xb2y"]),
            ("{a}", &["{a}"]),
            ("{}", &["{}"]),
            ("x{a}{b,c}", &["x{a}b", "x{a}c"]),
            ("{,}", &["", ""]),
            ("'{a,b}'", &["'{a,b}'"]),
            ("\"{a,b}\"", &["\"{a,b}\""]),
            ("\\{a,b}", &["\\{a,b}"]),
            ("{a\\,b}", &["{a\\,b}"]),
            ("${x,y}", &["${x,y}"]),
            ("${x}{a,b}", &["${x}a", "${x}b"]),
            ("{'a,b',c}", &["'a,b'", "c"]),
            ("{$(echo a,b),c}", &["$(echo a,b)", "c"]),
            ("{1..a}", &["{1..a}"]),
            ("{a..}", &["{a..}"]),
            ("{rm,-rf,.claude}", &["rm", "-rf", ".claude"]),
        ];
        for (raw, expected) in cases {
            assert_eq!(words(raw), *expected, "{raw}");
        }
    }

    #[test]
    fn sequences_at_the_edges_of_the_integers_do_not_overflow() {
        for raw in [
            "{1..9223372036854775807..9223372036854775807}",
            "{-9223372036854775808..-9223372036854775807}",
            "{9223372036854775806..9223372036854775807}",
            "{a..z..4294967295}",
            "{z..a..4294967295}",
            "{1..2..-9223372036854775808}",
            "{99999999999999999999..1}",
        ] {
            let _ = braces(raw);
        }
        assert_eq!(words("{1..9..9223372036854775807}"), ["1"]);
    }

    #[test]
    fn brace_expansion_beyond_the_bound_is_unresolved() {
        assert_eq!(braces("{1..100000}"), Braces::TooMany);
        assert_eq!(
            braces("{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}"),
            Braces::TooMany
        );
        assert!(matches!(braces("{1..256}"), Braces::Words(w) if w.len() == 256));
    }

    #[test]
    fn printf_formats_what_it_models_and_refuses_the_rest() {
        assert_eq!(printf(".claude", &[]).as_deref(), Some(".claude"));
        assert_eq!(printf("%s/%s", &["a", "b"]).as_deref(), Some("a/b"));
        assert_eq!(printf("%s\\n", &["a", "b"]).as_deref(), Some("a\nb\n"));
        assert_eq!(printf("\\x2eclaude", &[]).as_deref(), Some(".claude"));
        assert_eq!(printf("\\056claude", &[]).as_deref(), Some(".claude"));
        assert_eq!(printf("%b", &["\\0056c"]).as_deref(), Some(".c"));
        assert_eq!(printf("%5s", &["a"]), None);
        assert_eq!(printf("a\\cb", &[]), None);
        assert_eq!(printf("\\0", &[]), None);
    }
}
