//! The plain-Python fast path: a `python -c` snippet that only reads JSON or the
//! interpreter's own facts and prints them (`import json,sys;
//! print(json.load(sys.stdin)['version'])`, `import sys; print(sys.version)`) is recognised
//! without tree-sitter's parse and walk, which cost about twenty plain commands together.
//!
//! Invariant (*the fast path is an optimisation, never a decision*): a snippet accepted here
//! is one the grammar path parses without error and in which the scanner of `crate::code`
//! finds nothing, so [`crate::code::Parsers::scan`] may answer "no findings" for it without
//! parsing. That holds by construction, not by a list of known-safe strings:
//! - the accepted language is a strict subset of Python's grammar, read by a complete
//!   recursive-descent parser (imports and expression statements joined by `;` on one line;
//!   calls, attributes, subscripts, literals, comparisons, boolean and additive operators) —
//!   no assignment, no definition, no loop, no f-string, no `*` (so no `' ' * 10**12`), no
//!   newline or line continuation, no non-ASCII outside string literals (Python folds names
//!   by NFKC: `ｅｘｅｃ` is `exec`);
//! - every name in it — variable, attribute, keyword argument or imported module — comes from
//!   [`VOCABULARY`], names through which no file, process, network, environment or code can
//!   be reached (`open`, `exec`, `getattr`, `os`, `__import__`, `help`, `type`, … are not
//!   there), and only `json` and `sys` may be imported.
//!
//! Anything else — one unknown name, one unsupported construct — goes to the grammar.
//! This module's tests check on generated, mutated and written snippets that every snippet
//! accepted here parses without error and scans to nothing on the grammar path.

/// Names a plain snippet may use, sorted (looked up by binary search). None of them, reached by attribute or call from any other
/// of them, touches a file, a process, the network, the environment or runs code: the
/// modules `json` and `sys` (only their reading and printing members are listed), pure
/// builtins over values, and string/dict reading methods. `print` and `json.dump` write only
/// to the streams the snippet can name (`sys.stdout`, `sys.stderr`). In groups: the modules
/// and their reading/printing members (`json.load`, `sys.stdin`, `indent=`), pure builtins
/// over values and `print`'s keywords, and reading methods of strings, streams and dicts.
const VOCABULARY: &[&str] = &[
    "abs",
    "all",
    "any",
    "argv",
    "bool",
    "byteorder",
    "count",
    "dict",
    "dump",
    "dumps",
    "end",
    "endswith",
    "ensure_ascii",
    "enumerate",
    "executable",
    "file",
    "find",
    "float",
    "flush",
    "get",
    "indent",
    "index",
    "int",
    "items",
    "join",
    "json",
    "key",
    "keys",
    "len",
    "list",
    "load",
    "loads",
    "lower",
    "lstrip",
    "major",
    "max",
    "maxsize",
    "micro",
    "min",
    "minor",
    "platform",
    "print",
    "read",
    "readline",
    "readlines",
    "repr",
    "reverse",
    "reversed",
    "round",
    "rsplit",
    "rstrip",
    "sep",
    "separators",
    "set",
    "sort_keys",
    "sorted",
    "split",
    "splitlines",
    "startswith",
    "stderr",
    "stdin",
    "stdout",
    "str",
    "strip",
    "sum",
    "sys",
    "tuple",
    "upper",
    "values",
    "version",
    "version_info",
    "zip",
];

/// Modules a plain snippet may import: already-loaded standard modules whose import runs
/// nothing of the project's (`sys` is built in; `json` is the standard library's unless the
/// working directory shadows it, which the grammar path does not model either).
const MODULES: &[&str] = &["json", "sys"];

/// Whether `code` is a plain Python snippet (see the module doc).
pub(crate) fn is_plain_python(code: &str) -> bool {
    // Indentation before the first statement is an error in Python.
    if code.starts_with([' ', '\t']) {
        return false;
    }
    let mut p = Reader {
        src: code.as_bytes(),
        at: 0,
        depth: 0,
        ahead: None,
        failed: false,
    };
    p.program().is_some() && !p.failed
}

/// The string prefixes Python 3 accepts other than f and t (whose strings hold code):
/// `r`, `u`, `b`, `br`, `rb` in any case.
fn is_string_prefix(p: &[u8]) -> bool {
    match p {
        [a] => matches!(a.to_ascii_lowercase(), b'r' | b'u' | b'b'),
        [a, b] => {
            let (a, b) = (a.to_ascii_lowercase(), b.to_ascii_lowercase());
            (a, b) == (b'r', b'b') || (a, b) == (b'b', b'r')
        }
        _ => false,
    }
}

/// A control byte other than tab and newline: NUL ends tree-sitter's input and Python rejects
/// it, and the others are rare enough in a plain snippet to leave to the grammar.
fn is_control(b: u8) -> bool {
    (b < 0x20 && b != b'\t' && b != b'\n') || b == 0x7f
}

/// How deep brackets may nest before the snippet is left to the grammar (bounds the
/// recursion of the descent).
const MAX_DEPTH: usize = 32;

/// The subset's punctuation or operator at the start of `rest` (two-byte ones first: `==`
/// before `=`).
fn operator(rest: &[u8]) -> Option<&'static str> {
    Some(match (rest.first()?, rest.get(1)) {
        (b'=', Some(b'=')) => "==",
        (b'!', Some(b'=')) => "!=",
        (b'<', Some(b'=')) => "<=",
        (b'>', Some(b'=')) => ">=",
        (b'/', Some(b'/')) => "//",
        (b'(', _) => "(",
        (b')', _) => ")",
        (b'[', _) => "[",
        (b']', _) => "]",
        (b'{', _) => "{",
        (b'}', _) => "}",
        (b',', _) => ",",
        (b'.', _) => ".",
        (b':', _) => ":",
        (b';', _) => ";",
        (b'+', _) => "+",
        (b'-', _) => "-",
        (b'/', _) => "/",
        (b'%', _) => "%",
        (b'<', _) => "<",
        (b'>', _) => ">",
        (b'=', _) => "=",
        _ => return None,
    })
}

/// Whether `name` is in [`VOCABULARY`].
fn in_vocabulary(name: &str) -> bool {
    VOCABULARY.binary_search(&name).is_ok()
}

/// One token of the subset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tok<'s> {
    Name(&'s str),
    /// A number, one or more adjacent string literals: a value.
    Literal,
    /// Punctuation or an operator, as written.
    Op(&'s str),
    End,
}

struct Reader<'s> {
    src: &'s [u8],
    at: usize,
    /// Bracket and unary nesting so far (bounded by [`MAX_DEPTH`]).
    depth: usize,
    /// The token [`Reader::peek`] read and where it ends.
    ahead: Option<(Tok<'s>, usize)>,
    /// Some text was not a token of the subset: the snippet is not plain, whatever the
    /// descent made of the rest (belt and braces over every caller propagating the failure).
    failed: bool,
}

impl<'s> Reader<'s> {
    fn skip_blanks(&mut self) {
        while self
            .src
            .get(self.at)
            .is_some_and(|&b| b == b' ' || b == b'\t')
        {
            self.at += 1;
        }
    }

    /// The next token without consuming it (`None`: not in the subset).
    fn peek(&mut self) -> Option<Tok<'s>> {
        if let Some((tok, _)) = self.ahead {
            return Some(tok);
        }
        let save = self.at;
        let tok = self.lex();
        self.failed |= tok.is_none();
        let end = self.at;
        // Restored on failure too: a token the subset lacks must stay unread, never skipped.
        self.at = save;
        let tok = tok?;
        self.ahead = Some((tok, end));
        Some(tok)
    }

    /// Consumes the next token (`None`: not in the subset).
    fn next(&mut self) -> Option<Tok<'s>> {
        if let Some((tok, end)) = self.ahead.take() {
            self.at = end;
            return Some(tok);
        }
        let tok = self.lex();
        self.failed |= tok.is_none();
        tok
    }

    /// Reads the token at `at` (`None`: not in the subset).
    fn lex(&mut self) -> Option<Tok<'s>> {
        self.skip_blanks();
        let Some(&b) = self.src.get(self.at) else {
            return Some(Tok::End);
        };
        if b.is_ascii_alphabetic() || b == b'_' {
            let start = self.at;
            while self
                .src
                .get(self.at)
                .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_')
            {
                self.at += 1;
            }
            let word = std::str::from_utf8(self.src.get(start..self.at)?).ok()?;
            if matches!(self.src.get(self.at), Some(b'\'' | b'"')) {
                // A string prefix: raw, bytes and unicode only (an f- or t-string holds code).
                if is_string_prefix(word.as_bytes()) {
                    self.strings()?;
                    return Some(Tok::Literal);
                }
                return None;
            }
            return Some(Tok::Name(word));
        }
        if b.is_ascii_digit() {
            // Decimal digits, `_` separators and a fraction; no exponent, no other base
            // (nothing here needs them, and an unusual number goes to the grammar).
            let start = self.at;
            while self
                .src
                .get(self.at)
                .is_some_and(|&c| c.is_ascii_digit() || c == b'_' || c == b'.')
            {
                self.at += 1;
            }
            let digits = self.src.get(start..self.at)?;
            let valid = digits.iter().filter(|&&c| c == b'.').nth(1).is_none()
                && !digits.ends_with(b"_")
                && !digits
                    .windows(2)
                    .any(|w| w.contains(&b'_') && w.contains(&b'.'))
                && !digits.windows(2).any(|w| w == b"__")
                && (digits.len() == 1 || !digits.starts_with(b"0") || digits.get(1) == Some(&b'.'))
                && !self
                    .src
                    .get(self.at)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_');
            return valid.then_some(Tok::Literal);
        }
        if b == b'\'' || b == b'"' {
            self.strings()?;
            return Some(Tok::Literal);
        }
        let rest = self.src.get(self.at..)?;
        let op = operator(rest)?;
        // `//=`, `<<`, `>>`, `->`, `...` and the like are not in the subset.
        let after = rest.get(op.len()).copied();
        if matches!(after, Some(b'=' | b'<' | b'>' | b'/' | b'.' | b'*'))
            && !matches!(op, "(" | ")" | "[" | "]" | "{" | "}" | "," | ";")
        {
            return None;
        }
        if op == "." && after.is_some_and(|c| c.is_ascii_digit()) {
            return None;
        }
        self.at += op.len();
        Some(Tok::Op(op))
    }

    /// One string literal at `at` (after any prefix), then any further adjacent literals
    /// (implicit concatenation), with or without prefixes.
    fn strings(&mut self) -> Option<()> {
        loop {
            let quote = *self.src.get(self.at)?;
            let triple = self.src.get(self.at..self.at + 3) == Some(&[quote; 3][..]);
            self.at += if triple { 3 } else { 1 };
            loop {
                let c = *self.src.get(self.at)?;
                if is_control(c) {
                    return None;
                }
                if c == b'\\' {
                    // An escape (in a raw string too, the backslash keeps the quote); the
                    // escaped byte is held to the same rule.
                    if is_control(*self.src.get(self.at + 1)?) {
                        return None;
                    }
                    self.at += 2;
                    continue;
                }
                if c == b'\n' && !triple {
                    return None;
                }
                if c == quote {
                    if !triple {
                        self.at += 1;
                        break;
                    }
                    if self.src.get(self.at..self.at + 3) == Some(&[quote; 3][..]) {
                        self.at += 3;
                        break;
                    }
                }
                self.at += 1;
            }
            // Another literal right after (blanks between are allowed).
            let save = self.at;
            self.skip_blanks();
            let prefix_end = self
                .src
                .get(self.at..)?
                .iter()
                .position(|c| !c.is_ascii_alphabetic())
                .map_or(self.src.len(), |n| self.at + n);
            let prefix = self.src.get(self.at..prefix_end)?;
            let quoted = matches!(self.src.get(prefix_end), Some(b'\'' | b'"'));
            if quoted && (prefix.is_empty() || is_string_prefix(prefix)) {
                self.at = prefix_end;
                continue;
            }
            if quoted {
                // An f-string or unknown prefix after a literal.
                return None;
            }
            self.at = save;
            return Some(());
        }
    }

    fn eat(&mut self, op: &str) -> bool {
        if self.peek() == Some(Tok::Op(op)) {
            let _ = self.next();
            true
        } else {
            false
        }
    }

    fn eat_name(&mut self, name: &str) -> bool {
        if self.peek() == Some(Tok::Name(name)) {
            let _ = self.next();
            true
        } else {
            false
        }
    }

    /// `stmt (';' stmt)* ';'?` up to the end of the snippet.
    fn program(&mut self) -> Option<()> {
        loop {
            self.statement()?;
            if self.eat(";") {
                if self.peek()? == Tok::End {
                    return Some(());
                }
                continue;
            }
            return (self.next()? == Tok::End).then_some(());
        }
    }

    fn statement(&mut self) -> Option<()> {
        if self.eat_name("import") {
            loop {
                self.module()?;
                if !self.eat(",") {
                    return Some(());
                }
            }
        }
        if self.eat_name("from") {
            self.module()?;
            if !self.eat_name("import") {
                return None;
            }
            loop {
                self.vocabulary_name()?;
                if !self.eat(",") {
                    return Some(());
                }
            }
        }
        self.expression()
    }

    fn module(&mut self) -> Option<()> {
        match self.next()? {
            Tok::Name(n) if MODULES.contains(&n) => Some(()),
            _ => None,
        }
    }

    fn vocabulary_name(&mut self) -> Option<()> {
        match self.next()? {
            Tok::Name(n) if in_vocabulary(n) => Some(()),
            _ => None,
        }
    }

    /// `and_test ('or' and_test)*`, with `and`, `not` and comparisons below.
    fn expression(&mut self) -> Option<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        self.conjunction()?;
        while self.eat_name("or") {
            self.conjunction()?;
        }
        self.depth -= 1;
        Some(())
    }

    fn conjunction(&mut self) -> Option<()> {
        self.negation()?;
        while self.eat_name("and") {
            self.negation()?;
        }
        Some(())
    }

    fn negation(&mut self) -> Option<()> {
        if self.eat_name("not") {
            return self.negation();
        }
        self.comparison()
    }

    fn comparison(&mut self) -> Option<()> {
        self.sum()?;
        loop {
            let op = match self.peek()? {
                Tok::Op("==" | "!=" | "<" | ">" | "<=" | ">=") | Tok::Name("in") => {
                    let _ = self.next();
                    true
                }
                Tok::Name("not") => {
                    let _ = self.next();
                    if !self.eat_name("in") {
                        return None;
                    }
                    true
                }
                Tok::Name("is") => {
                    let _ = self.next();
                    let _ = self.eat_name("not");
                    true
                }
                _ => false,
            };
            if !op {
                return Some(());
            }
            self.sum()?;
        }
    }

    fn sum(&mut self) -> Option<()> {
        self.unary()?;
        while matches!(self.peek()?, Tok::Op("+" | "-" | "/" | "//" | "%")) {
            let _ = self.next();
            self.unary()?;
        }
        Some(())
    }

    fn unary(&mut self) -> Option<()> {
        if matches!(self.peek()?, Tok::Op("+" | "-")) {
            let _ = self.next();
            self.depth += 1;
            if self.depth > MAX_DEPTH {
                return None;
            }
            let r = self.unary();
            self.depth -= 1;
            return r;
        }
        self.atom()?;
        loop {
            if self.eat(".") {
                self.vocabulary_name()?;
            } else if self.eat("(") {
                self.arguments()?;
            } else if self.eat("[") {
                self.subscript()?;
            } else {
                return Some(());
            }
        }
    }

    fn atom(&mut self) -> Option<()> {
        match self.next()? {
            Tok::Literal | Tok::Name("None" | "True" | "False") => Some(()),
            Tok::Name(n) if in_vocabulary(n) => Some(()),
            Tok::Op("(") => {
                if self.eat(")") {
                    return Some(());
                }
                self.expression()?;
                if self.eat(")") {
                    return Some(());
                }
                // A tuple.
                self.rest_of_sequence(")")
            }
            Tok::Op("[") => {
                if self.eat("]") {
                    return Some(());
                }
                self.expression()?;
                self.rest_of_sequence("]")
            }
            Tok::Op("{") => {
                if self.eat("}") {
                    return Some(());
                }
                self.expression()?;
                if self.eat(":") {
                    // A dict.
                    self.expression()?;
                    loop {
                        if self.eat("}") {
                            return Some(());
                        }
                        if !self.eat(",") {
                            return None;
                        }
                        if self.eat("}") {
                            return Some(());
                        }
                        self.expression()?;
                        if !self.eat(":") {
                            return None;
                        }
                        self.expression()?;
                    }
                }
                self.rest_of_sequence("}")
            }
            _ => None,
        }
    }

    /// `(',' expression)* ','? close` after a sequence's first element.
    fn rest_of_sequence(&mut self, close: &str) -> Option<()> {
        loop {
            if self.eat(close) {
                return Some(());
            }
            if !self.eat(",") {
                return None;
            }
            if self.eat(close) {
                return Some(());
            }
            self.expression()?;
        }
    }

    /// A call's arguments after `(`: positional ones, then `name=value` ones from the
    /// vocabulary.
    fn arguments(&mut self) -> Option<()> {
        let mut keywords = false;
        loop {
            if self.eat(")") {
                return Some(());
            }
            // `name=value`: a vocabulary name followed by `=` (not `==`).
            let keyword = match (self.peek()?, self.ahead) {
                (Tok::Name(n), Some((_, end))) if in_vocabulary(n) => self
                    .src
                    .get(end..)
                    .map(<[u8]>::trim_ascii_start)
                    .is_some_and(|r| r.starts_with(b"=") && !r.starts_with(b"==")),
                _ => false,
            };
            if keyword {
                let _ = self.next();
                let _ = self.next();
                keywords = true;
            } else if keywords {
                return None;
            }
            self.expression()?;
            if self.eat(")") {
                return Some(());
            }
            if !self.eat(",") {
                return None;
            }
        }
    }

    /// A subscript after `[`: an expression or a slice `a:b` (either side optional).
    fn subscript(&mut self) -> Option<()> {
        if !matches!(self.peek()?, Tok::Op(":")) {
            self.expression()?;
        }
        if self.eat(":") && !matches!(self.peek()?, Tok::Op("]")) {
            self.expression()?;
        }
        self.eat("]").then_some(())
    }
}

#[cfg(test)]
mod tests {
    use super::is_plain_python;

    #[test]
    fn vocabulary_is_sorted_for_binary_search() {
        assert!(super::VOCABULARY.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn reading_json_and_interpreter_facts_is_plain() {
        for code in [
            "import json,sys; print(json.load(sys.stdin)['version'])",
            "import sys; print(sys.version)",
            "import json, sys; json.dump(json.load(sys.stdin), sys.stdout, indent=2)",
            "import json,sys;print(list(json.load(sys.stdin)[\"dependencies\"].keys()))",
            "print('hello')",
            "import sys; print(sys.version_info[:2] >= (3, 8))",
            "from json import loads; print(loads('{\"a\": 1}')['a'] + 1)",
        ] {
            assert!(is_plain_python(code), "{code}");
        }
    }

    #[test]
    fn names_outside_the_vocabulary_go_to_the_grammar() {
        for code in [
            "import os; os.remove('x')",
            "print(open('/etc/passwd').read())",
            "__import__('os').system('id')",
            "import json,sys; exec(sys.stdin.read())",
            "print(getattr(sys, 'modules'))",
            "import subprocess",
            "help(json)",
            "import json as os",
            "print(f'{sys.version}')",
            "print(' ' * 10**12)",
            "import json,sys; d=json.load(sys.stdin)",
            "print(sys.stdin.read())\nimport os",
            "print(ｅｘｅｃ)",
            "for x in sys.argv: print(x)",
            "import platform; print(platform.processor())",
            "print(sys.modules)",
            "print(1) \\\n; print(2)",
            "print(t'{x}')",
        ] {
            assert!(!is_plain_python(code), "{code}");
        }
    }

    #[test]
    fn broken_syntax_goes_to_the_grammar() {
        for code in [
            "print(",
            "print(sys.version",
            "import",
            "print('x' 'y)",
            "print(1,,2)",
            "print(a=1, 2)",
            "import json sys",
            "print())",
            "print(sys.)",
            "print(1 2)",
            ";",
            "print(1);;print(2)",
            "print(09)",
            "print(1__0)",
            "print(b\"\u{1}\0x\")",
            "print('\\\0')",
            "print('a\rb')",
            "print({1: 2, 3})",
        ] {
            assert!(!is_plain_python(code), "{code}");
        }
    }

    /// A small deterministic generator (xorshift), so a failure names a reproducible seed.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: usize) -> usize {
            usize::try_from(self.next() % n as u64).unwrap_or(0)
        }
        fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
            xs[self.below(xs.len())]
        }
    }

    const LITERALS: &[&str] = &[
        "1", "0", "2.5", "1_000", "'a'", "\"b\"", r"r'\d'", "b'x'", "'''t'''", "'a' 'b'", "None",
        "True", "False", r"'\''", "u'z'", "Rb'q'",
    ];

    const OPERATORS: &[&str] = &[
        "+", "-", "/", "//", "%", "==", "!=", "<", ">=", "in", "not in", "is", "is not", "and",
        "or",
    ];

    fn expression(r: &mut Rng, depth: usize) -> String {
        let names = super::VOCABULARY;
        if depth == 0 {
            return if r.below(2) == 0 {
                r.pick(LITERALS).to_owned()
            } else {
                r.pick(names).to_owned()
            };
        }
        let d = depth - 1;
        match r.below(12) {
            0 => format!("({}).{}", expression(r, d), r.pick(names)),
            1 => format!("{}({})", r.pick(names), arguments(r, d)),
            2 => format!("({})[{}]", expression(r, d), expression(r, d)),
            3 => format!("{}.{}[{}:]", r.pick(names), r.pick(names), expression(r, d)),
            4 => format!(
                "({}) {} ({})",
                expression(r, d),
                r.pick(OPERATORS),
                expression(r, d)
            ),
            5 => format!("not {}", expression(r, d)),
            6 => format!("({}, {})", expression(r, d), expression(r, d)),
            7 => format!("[{}, {}]", expression(r, d), expression(r, d)),
            8 => format!(
                "{{{}: {}, {}: {},}}",
                expression(r, d),
                expression(r, d),
                expression(r, d),
                expression(r, d)
            ),
            9 => format!("-({})", expression(r, d)),
            10 => format!("({})", expression(r, d)),
            _ => expression(r, 0),
        }
    }

    fn arguments(r: &mut Rng, depth: usize) -> String {
        let mut out: Vec<String> = (0..r.below(3)).map(|_| expression(r, depth)).collect();
        for _ in 0..r.below(2) {
            out.push(format!(
                "{}={}",
                r.pick(super::VOCABULARY),
                expression(r, depth)
            ));
        }
        out.join(", ")
    }

    fn program(r: &mut Rng) -> String {
        let mut statements = Vec::new();
        for _ in 0..=r.below(3) {
            statements.push(match r.below(4) {
                0 => format!(
                    "import {}",
                    r.pick(&["json", "sys", "json, sys", "sys,json"])
                ),
                1 => format!(
                    "from {} import {}",
                    r.pick(&["json", "sys"]),
                    r.pick(super::VOCABULARY)
                ),
                _ => {
                    let depth = r.below(4);
                    expression(r, depth)
                }
            });
        }
        statements.join(r.pick(&["; ", ";", " ; "]))
    }

    /// The grammar path's answer for a snippet the fast path accepted must be "nothing".
    fn assert_grammar_agrees(parsers: &mut crate::code::Parsers, code: &str) {
        let (found, side) = parsers.grammar_reference(crate::interp::Lang::Python, code);
        assert_eq!(
            found,
            Some(Vec::new()),
            "grammar path disagrees on {code:?}"
        );
        assert!(
            !side,
            "grammar path found a bulk/SQL/remote call in {code:?}"
        );
    }

    #[test]
    fn every_generated_plain_snippet_is_accepted_and_scans_to_nothing() {
        let mut r = Rng(0x9e37_79b9_7f4a_7c15);
        let mut parsers = crate::code::Parsers::default();
        for _ in 0..3000 {
            let code = program(&mut r);
            assert!(
                is_plain_python(&code),
                "generated snippet rejected: {code:?}"
            );
            assert_grammar_agrees(&mut parsers, &code);
        }
    }

    #[test]
    fn mutated_snippets_the_fast_path_accepts_scan_to_nothing_on_the_grammar_path() {
        const INSERTS: &[&str] = &[
            "(", ")", "[", "]", "{", "}", ",", ".", ":", ";", "=", "'", "\"", " ", "*", "os",
            "open", "exec", "f", "\\", "\n", "#", "@", "-", "not", "import", "0", "é", "\t", "\0",
            "\r",
        ];
        let mut r = Rng(0x2545_f491_4f6c_dd1d);
        let mut parsers = crate::code::Parsers::default();
        let mut accepted = 0;
        for _ in 0..20_000 {
            let mut code = program(&mut r);
            for _ in 0..=r.below(2) {
                let bounds: Vec<usize> = (0..=code.len())
                    .filter(|&i| code.is_char_boundary(i))
                    .collect();
                let k = r.below(bounds.len());
                let cut = bounds[k];
                if r.below(2) == 0 {
                    if let Some(&end) = bounds.get(k + 1) {
                        code.replace_range(cut..end, "");
                    }
                } else {
                    code.insert_str(cut, r.pick(INSERTS));
                }
            }
            if is_plain_python(&code) {
                accepted += 1;
                assert_grammar_agrees(&mut parsers, &code);
            }
        }
        // The mutations must leave many snippets plain, or this test checks nothing.
        assert!(
            accepted > 1000,
            "only {accepted} mutated snippets were plain"
        );
    }

    #[test]
    fn written_plain_snippets_scan_to_nothing_on_the_grammar_path() {
        let mut parsers = crate::code::Parsers::default();
        for code in [
            "import json,sys; print(json.load(sys.stdin)['version'])",
            "import sys; print(sys.version)",
            "import json, sys; json.dump(json.load(sys.stdin), sys.stdout, indent=2)",
            "import json,sys;print(list(json.load(sys.stdin)[\"dependencies\"].keys()))",
            "print(sys.stdin.read())",
            "import sys; print(sys.argv[1:], file=sys.stderr)",
            "import json; print(json.dumps({'a': [1, 2]}, sort_keys=True))",
            "print('''x''' 'y', end='')",
        ] {
            assert!(is_plain_python(code), "{code}");
            assert_grammar_agrees(&mut parsers, code);
        }
    }
}
