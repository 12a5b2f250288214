//! Code in other languages that a command line carries: interpreter one-liners (`python -c`,
//! `perl -e`, `ruby -e`, `node -e`, `php -r`, awk programs, `mongosh --eval`) and SQL.
//!
//! This is a small lexer per language family (identifiers, string literals with their escapes,
//! comments, punctuation), not a parser of those languages: it finds the call sites that reach
//! the shell or delete files and reads their *literal* arguments. A call whose argument is not a
//! literal, or any dynamic evaluation (`eval`, `exec`, `__import__`, decoding), is reported as
//! such so the caller can ask instead of allow.

/// A language whose one-liners are scanned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lang {
    Python,
    Perl,
    Ruby,
    Node,
    Php,
    Awk,
    /// MongoDB shell JavaScript (`mongosh --eval`).
    Mongo,
    /// Lua (`lua -e`), read by the token scanner in `crate::code`.
    Lua,
    /// R (`Rscript -e`), read by the token scanner in `crate::code`.
    R,
    /// Languages read by the token scanner in `crate::tongues` (Julia, Tcl, Elixir, …).
    Other(crate::tongues::Tongue),
}

/// What a snippet does that matters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Finding {
    /// A shell command line it runs (`os.system("…")`, backticks). `exact` is false when the
    /// literal has interpolation.
    Shell { code: String, exact: bool },
    /// Code in the same language it evaluates (`exec("…")`).
    Code { code: String },
    /// A file or directory it deletes.
    Delete {
        path: String,
        exact: bool,
        recursive: bool,
    },
    /// Code or commands built at run time: cannot be checked.
    Dynamic(&'static str),
    /// A file, process, network or environment effect found by the language's parser
    /// (`crate::code`). `path: None` = computed at run time.
    Effect {
        op: crate::model::EffectOp,
        path: Option<String>,
        recursive: bool,
    },
    /// The grammar rejected part of the snippet (the rest was still read).
    Unparsed,
    /// A MongoDB drop or mass delete, a server shutdown or a change of its users (`what`
    /// says which).
    MongoDrop { what: &'static str },
    /// Secret data the snippet handles (the whole environment): with a network call in the
    /// same snippet, it is sent.
    Source(crate::model::FlowSource),
    /// Secret data the snippet prints to its standard output (`print(os.environ['AWS_…'])`):
    /// the program's output carries it wherever the line sends it, but a network call in the
    /// same snippet does not (it is not handed the value).
    Printed(crate::model::FlowSource),
    /// A network call (`call`) whose arguments carry secret data.
    Exfil {
        source: crate::model::FlowSource,
        call: String,
    },
    /// Code fetched from the network is evaluated (`exec(urlopen(u).read())`).
    FetchEval { call: String },
    /// A process started without waiting, in an endless loop (fork bomb).
    ForkLoop,
    /// One allocation of a constant size past [`crate::code::HUGE_ALLOCATION`] units
    /// (`' ' * (10**12)`, `Buffer.alloc(2**40)`): memory exhaustion. The text names it.
    Exhaust { what: String },
    /// A file the snippet fills with data read from the network (`urlretrieve(u, p)`,
    /// `File.write(p, URI.open(u).read)`): running it later in the same line is
    /// download-then-run.
    Downloaded { path: String },
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Str {
        value: String,
        exact: bool,
    },
    /// Text run by a shell: backticks in Ruby/Perl/PHP, `qx{}`, `%x()`.
    ShellStr {
        value: String,
        exact: bool,
    },
    Punct(char),
}

/// The text a one-liner prints when all it does is print string literals (`print("…")`,
/// `puts "…"`, `say "…"`, `console.log('…')`, `echo "…";`, awk's `BEGIN{print "…"}`): piped
/// to a shell, that text is the code the shell runs (`python3 -c 'print("rm -rf ~")' | sh`
/// is `rm -rf ~`). `None` for anything else: another call, a variable, several arguments,
/// an interpolated literal.
pub(crate) fn printed_literal(lang: Lang, code: &str) -> Option<String> {
    // Most one-liners do more than print (`import json,sys; …`): their first token that is
    // not a `;` is not a print keyword, and the answer is `None` without tokenizing the rest.
    if !first_statement_prints(lang, code) {
        return None;
    }
    let toks = tokenize(lang, code);
    let mut out = String::new();
    let mut i = 0;
    let ident = |i: usize| match toks.get(i) {
        Some(Tok::Ident(n)) => Some(n.as_str()),
        _ => None,
    };
    let punct = |i: usize, c: char| toks.get(i) == Some(&Tok::Punct(c));
    // awk: the whole program is one `BEGIN { … }` block of prints.
    let mut end = toks.len();
    if lang == Lang::Awk {
        if !(ident(0) == Some("BEGIN") && punct(1, '{') && punct(toks.len().checked_sub(1)?, '}')) {
            return None;
        }
        i = 2;
        end = toks.len() - 1;
    }
    while i < end {
        if punct(i, ';') {
            i += 1;
            continue;
        }
        // The print call and whether it ends the line.
        let (newline, next) = match (lang, ident(i)?) {
            (Lang::Python | Lang::Awk, "print") | (Lang::Ruby, "puts") | (Lang::Perl, "say") => {
                (true, i + 1)
            }
            (Lang::Ruby | Lang::Perl | Lang::Php, "print") | (Lang::Php, "echo") => (false, i + 1),
            (Lang::Node, "console") if punct(i + 1, '.') && ident(i + 2) == Some("log") => {
                (true, i + 3)
            }
            _ => return None,
        };
        i = next;
        let paren = punct(i, '(');
        if paren {
            i += 1;
        } else if lang == Lang::Python || lang == Lang::Node {
            return None;
        }
        let Some(Tok::Str { value, exact: true }) = toks.get(i) else {
            return None;
        };
        out.push_str(value);
        if newline {
            out.push('\n');
        }
        i += 1;
        if paren {
            if !punct(i, ')') {
                return None;
            }
            i += 1;
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Whether the first token of `code` that is not a `;` is an identifier [`printed_literal`]
/// can start with (`print`, `puts`, `say`, `echo`, `console`, awk's `BEGIN`): a necessary
/// condition for it to return text, checked by tokenizing only until that token is known.
/// (Only an identifier of at most two letters is ever replaced by a later token — a Python
/// string prefix — and none of these is that short.)
fn first_statement_prints(lang: Lang, code: &str) -> bool {
    let toks = tokenize_until(lang, code, |toks| {
        toks.iter().any(|t| *t != Tok::Punct(';'))
    });
    matches!(
        toks.iter().find(|t| **t != Tok::Punct(';')),
        Some(Tok::Ident(n)) if matches!(n.as_str(), "print" | "puts" | "say" | "echo" | "console" | "BEGIN")
    )
}

fn tokenize(lang: Lang, code: &str) -> Vec<Tok> {
    tokenize_until(lang, code, |_| false)
}

/// [`tokenize`], stopping early once `done` holds for the tokens so far: the tokens it
/// returns are the first ones of the whole tokenization (the scan is left to right and looks
/// back only at the last token, which it may replace — see [`first_statement_prints`]).
fn tokenize_until(lang: Lang, code: &str, done: impl Fn(&[Tok]) -> bool) -> Vec<Tok> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let hash_comments = matches!(
        lang,
        Lang::Python | Lang::Ruby | Lang::Perl | Lang::Php | Lang::Awk
    );
    let slash_comments = matches!(lang, Lang::Node | Lang::Php | Lang::Mongo);
    while let Some(&c) = chars.get(i) {
        if done(&out) {
            break;
        }
        let next = chars.get(i + 1).copied();
        if c.is_whitespace() {
            i += 1;
        } else if c == '#' && hash_comments && !matches!(out.last(), Some(Tok::Punct('$'))) {
            while chars.get(i).is_some_and(|&c| c != '\n') {
                i += 1;
            }
        } else if c == '/' && slash_comments && next == Some('/') {
            while chars.get(i).is_some_and(|&c| c != '\n') {
                i += 1;
            }
        } else if c == '/' && slash_comments && next == Some('*') {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                i += 1;
            }
            i += 2;
        } else if c == '\'' || c == '"' {
            let triple = lang == Lang::Python && next == Some(c) && chars.get(i + 2) == Some(&c);
            let (value, exact, end) = if triple {
                read_triple(&chars, i + 3, c)
            } else {
                read_quoted(lang, &chars, i + 1, c)
            };
            // Python f-strings are interpolated.
            let f_prefix = matches!(out.last(), Some(Tok::Ident(p)) if lang == Lang::Python && p.contains(['f', 'F']) && p.len() <= 2);
            if matches!(out.last(), Some(Tok::Ident(p)) if lang == Lang::Python && p.len() <= 2 && p.chars().all(|c| "rRbBfFuU".contains(c)))
            {
                out.pop();
            }
            out.push(Tok::Str {
                value,
                exact: exact && !(f_prefix),
            });
            i = end;
        } else if c == '`' {
            let (value, exact, end) = read_quoted(lang, &chars, i + 1, '`');
            if lang == Lang::Node || lang == Lang::Mongo {
                out.push(Tok::Str { value, exact });
            } else {
                out.push(Tok::ShellStr { value, exact });
            }
            i = end;
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while chars
                .get(i)
                .is_some_and(|&c| c.is_alphanumeric() || c == '_')
            {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            // Perl qx{…} / Ruby %x(…) are shell strings.
            if lang == Lang::Perl
                && word == "qx"
                && let Some((value, end)) = read_delimited(&chars, i)
            {
                out.push(Tok::ShellStr {
                    exact: !value.contains('$'),
                    value,
                });
                i = end;
                continue;
            }
            out.push(Tok::Ident(word));
        } else if c == '%' && lang == Lang::Ruby && next == Some('x') {
            if let Some((value, end)) = read_delimited(&chars, i + 2) {
                out.push(Tok::ShellStr {
                    exact: !value.contains("#{"),
                    value,
                });
                i = end;
                continue;
            }
            out.push(Tok::Punct(c));
            i += 1;
        } else {
            out.push(Tok::Punct(c));
            i += 1;
        }
    }
    out
}

fn read_delimited(chars: &[char], start: usize) -> Option<(String, usize)> {
    let open = *chars.get(start)?;
    let close = match open {
        '(' => ')',
        '{' => '}',
        '[' => ']',
        '<' => '>',
        c if c.is_ascii_punctuation() => c,
        _ => return None,
    };
    let mut depth = 0usize;
    let mut i = start + 1;
    let mut value = String::new();
    while let Some(&c) = chars.get(i) {
        if c == close && depth == 0 {
            return Some((value, i + 1));
        }
        if c == open && open != close {
            depth += 1;
        } else if c == close {
            depth = depth.saturating_sub(1);
        }
        value.push(c);
        i += 1;
    }
    Some((value, i))
}

fn read_triple(chars: &[char], start: usize, quote: char) -> (String, bool, usize) {
    let mut i = start;
    let mut value = String::new();
    while let Some(&c) = chars.get(i) {
        if c == quote && chars.get(i + 1) == Some(&quote) && chars.get(i + 2) == Some(&quote) {
            return (value, true, i + 3);
        }
        value.push(c);
        i += 1;
    }
    (value, true, i)
}

/// Reads a quoted literal; returns (value, exact, index after the closing quote).
fn read_quoted(lang: Lang, chars: &[char], start: usize, quote: char) -> (String, bool, usize) {
    let interpolating = quote != '\''
        && matches!(
            lang,
            Lang::Perl | Lang::Ruby | Lang::Php | Lang::Node | Lang::Mongo
        );
    let single_raw = quote == '\'' && matches!(lang, Lang::Perl | Lang::Ruby | Lang::Php);
    let mut value = String::new();
    let mut exact = true;
    let mut i = start;
    while let Some(&c) = chars.get(i) {
        if c == quote {
            return (value, exact, i + 1);
        }
        if c == '\\' {
            let Some(&e) = chars.get(i + 1) else { break };
            i += 2;
            if single_raw {
                if e == '\\' || e == quote {
                    value.push(e);
                } else {
                    value.push('\\');
                    value.push(e);
                }
                continue;
            }
            match e {
                'n' => value.push('\n'),
                't' => value.push('\t'),
                'r' => value.push('\r'),
                '0' => value.push('\0'),
                'x' => {
                    let hex: String = chars.iter().skip(i).take(2).collect();
                    if let Some(ch) = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                        value.push(ch);
                        i += 2;
                    } else {
                        exact = false;
                    }
                }
                'u' | 'U' | 'N' => exact = false,
                '\n' => {}
                other => value.push(other),
            }
            continue;
        }
        if interpolating {
            let next = chars.get(i + 1).copied();
            let interpolates = match lang {
                Lang::Ruby => c == '#' && next == Some('{'),
                Lang::Perl | Lang::Php => {
                    (c == '$' || c == '@')
                        && next.is_some_and(|n| n.is_alphanumeric() || n == '{' || n == '_')
                }
                _ => quote == '`' && c == '$' && next == Some('{'),
            };
            if interpolates {
                exact = false;
            }
        }
        value.push(c);
        i += 1;
    }
    (value, exact, i)
}

/// Calls that hand a string to `/bin/sh`.
fn is_shell_call(lang: Lang, name: &str) -> bool {
    match lang {
        Lang::Python => matches!(
            name,
            "system"
                | "popen"
                | "getoutput"
                | "getstatusoutput"
                | "check_output"
                | "check_call"
                | "call"
                | "run"
                | "Popen"
                | "spawn"
                | "create_subprocess_shell"
                | "create_subprocess_exec"
        ),
        Lang::Perl => matches!(name, "system" | "exec" | "qx" | "readpipe"),
        Lang::Ruby => matches!(
            name,
            "system"
                | "exec"
                | "spawn"
                | "popen"
                | "capture2"
                | "capture2e"
                | "capture3"
                | "popen2"
                | "popen3"
                | "pipeline"
        ),
        Lang::Node => matches!(
            name,
            "exec"
                | "execSync"
                | "spawn"
                | "spawnSync"
                | "execFile"
                | "execFileSync"
                | "fork"
                | "$"
        ),
        Lang::Php => matches!(
            name,
            "system" | "exec" | "shell_exec" | "passthru" | "popen" | "proc_open" | "pcntl_exec"
        ),
        Lang::Awk => name == "system",
        Lang::Mongo | Lang::Lua | Lang::R | Lang::Other(_) => false,
    }
}

/// Shell calls whose name is unambiguous, so a non-literal argument is worth asking about.
fn is_unambiguous_shell_call(name: &str) -> bool {
    matches!(
        name,
        "system"
            | "popen"
            | "getoutput"
            | "getstatusoutput"
            | "check_output"
            | "check_call"
            | "Popen"
            | "execSync"
            | "spawnSync"
            | "execFileSync"
            | "shell_exec"
            | "passthru"
            | "proc_open"
            | "readpipe"
            | "capture2"
            | "capture3"
            | "popen3"
    )
}

/// Calls that delete a path: (name, recursive).
fn delete_call(lang: Lang, name: &str) -> Option<bool> {
    let recursive = matches!(
        name,
        "rmtree"
            | "rm_rf"
            | "rm_r"
            | "remove_dir"
            | "remove_entry_secure"
            | "remove_tree"
            | "rmSync"
            | "rimraf"
            | "removedirs"
            | "emptyDirSync"
            | "removeSync"
    );
    let plain = match lang {
        Lang::Python => matches!(name, "remove" | "unlink" | "rmdir"),
        Lang::Perl => matches!(name, "unlink" | "rmdir"),
        Lang::Ruby => matches!(
            name,
            "rm" | "delete" | "unlink" | "remove_entry" | "rmdir" | "rm_f"
        ),
        Lang::Node => matches!(name, "rm" | "unlink" | "unlinkSync" | "rmdir" | "rmdirSync"),
        Lang::Php => matches!(name, "unlink" | "rmdir"),
        Lang::Awk | Lang::Mongo | Lang::Lua | Lang::R | Lang::Other(_) => false,
    };
    if recursive && lang != Lang::Awk && lang != Lang::Mongo {
        Some(true)
    } else if plain {
        Some(false)
    } else {
        None
    }
}

fn is_dynamic(lang: Lang, name: &str) -> Option<&'static str> {
    let hit = match lang {
        Lang::Python => matches!(
            name,
            "eval"
                | "exec"
                | "compile"
                | "__import__"
                | "getattr"
                | "import_module"
                | "b64decode"
                | "a2b_base64"
                | "decompress"
                | "loads"
                | "execv"
                | "execvp"
                | "execl"
                | "execlp"
                | "execve"
                | "spawnv"
                | "spawnl"
        ),
        Lang::Perl => matches!(name, "eval" | "decode_base64" | "pack"),
        Lang::Ruby => matches!(
            name,
            "eval"
                | "instance_eval"
                | "class_eval"
                | "send"
                | "public_send"
                | "const_get"
                | "decode64"
                | "unpack1"
        ),
        Lang::Node | Lang::Mongo => matches!(
            name,
            "eval" | "Function" | "runInThisContext" | "runInNewContext" | "atob"
        ),
        Lang::Php => matches!(
            name,
            "eval"
                | "assert"
                | "create_function"
                | "base64_decode"
                | "call_user_func"
                | "gzinflate"
                | "str_rot13"
        ),
        Lang::Awk | Lang::Lua | Lang::R | Lang::Other(_) => false,
    };
    hit.then_some("evaluates or decodes code at run time")
}

/// A call's first argument: a literal string, a list of literal strings, or something else.
enum Arg {
    Str(String, bool),
    List(Vec<String>),
    Other,
    None,
}

fn first_arg(toks: &[Tok], mut i: usize) -> Arg {
    // Skip an opening parenthesis (Perl/Ruby allow calls without one).
    if matches!(toks.get(i), Some(Tok::Punct('('))) {
        i += 1;
    }
    match toks.get(i) {
        Some(Tok::Str { value, exact }) => {
            // `"a" + x` / `"a" . x` concatenation makes it inexact.
            let concat = matches!(toks.get(i + 1), Some(Tok::Punct('+' | '.' | '%')));
            Arg::Str(value.clone(), *exact && !concat)
        }
        Some(Tok::Punct('[')) => {
            let mut items = Vec::new();
            let mut j = i + 1;
            loop {
                match toks.get(j) {
                    Some(Tok::Str { value, exact: true }) => items.push(value.clone()),
                    Some(Tok::Punct(',')) => {}
                    Some(Tok::Punct(']')) => return Arg::List(items),
                    _ => return Arg::Other,
                }
                j += 1;
            }
        }
        Some(Tok::Punct(')')) | None => Arg::None,
        Some(_) => Arg::Other,
    }
}

/// Whether `t` can be part of an awk string concatenation (so a join does not start there).
fn awk_join_piece(t: Option<&Tok>) -> bool {
    matches!(t, Some(Tok::Str { .. } | Tok::Ident(_) | Tok::Punct(']')))
}

/// The shell line an awk expression of juxtaposed pieces builds, from `toks[i]`: string
/// literals as written, `ENVIRON["NAME"]` as the shell's `$NAME` (the same value, from the
/// same environment), and any other value (a field `$1`, a variable) as a run-time value
/// `${AWK_VALUE}`, a value the shell analysis cannot know (`rm -f ${AWK_VALUE}` is a deletion
/// of an unresolved target; `echo ${AWK_VALUE}` stays harmless). Returns the line, whether it
/// is known (a value spliced inside single quotes is not what the shell would read), and the
/// index after the last piece. `None` when the expression has no piece or
/// only one variable (`cmd | getline`, judged as a command held in a variable elsewhere).
fn awk_join(toks: &[Tok], mut i: usize) -> Option<(String, bool, usize)> {
    let start = i;
    let mut code = String::new();
    let mut exact = true;
    let mut literal = false;
    // Inside a single-quoted part of the line, `$NAME` would not expand: splicing there is
    // not what the shell reads, so the line is not known.
    let quoted = |code: &str| code.chars().filter(|&c| c == '\'').count() % 2 == 1;
    loop {
        match (
            toks.get(i),
            toks.get(i + 1),
            toks.get(i + 2),
            toks.get(i + 3),
        ) {
            (Some(Tok::Str { value, exact: e }), ..) => {
                code.push_str(value);
                exact &= *e;
                literal = true;
                i += 1;
            }
            (
                Some(Tok::Ident(env)),
                Some(Tok::Punct('[')),
                Some(Tok::Str { value, exact: true }),
                Some(Tok::Punct(']')),
            ) if env == "ENVIRON"
                && value.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') =>
            {
                exact &= !quoted(&code);
                code.push_str("${");
                code.push_str(value);
                code.push('}');
                i += 4;
            }
            (Some(Tok::Punct('$')), Some(Tok::Ident(_)), ..) => {
                exact &= !quoted(&code);
                code.push_str("${AWK_VALUE}");
                i += 2;
            }
            (Some(Tok::Ident(v)), next, ..)
                if !matches!(next, Some(Tok::Punct('(' | '[')))
                    && !matches!(v.as_str(), "getline" | "in" | "print" | "printf") =>
            {
                exact &= !quoted(&code);
                code.push_str("${AWK_VALUE}");
                i += 1;
            }
            _ => break,
        }
    }
    (i > start && (literal || i - start > 1)).then_some((code, exact, i))
}

/// The file an awk redirection at `toks[at]` names, when it is known: a string literal
/// (`< "f"`), a parenthesised join (`< (ENVIRON["HOME"] "/.netrc")`), or a variable the
/// program assigns one of those (`f = ENVIRON["HOME"] "/.netrc"; getline l < f`). The
/// home's variable is the home (`~/…`); a join with any other run-time value is unknown.
fn awk_file_operand(toks: &[Tok], at: usize) -> Option<String> {
    let joined = |from: usize| -> Option<(String, usize)> {
        let (code, exact, end) = awk_join(toks, from)?;
        let path = match code.strip_prefix("${HOME}") {
            Some(rest) => format!("~{rest}"),
            None => code,
        };
        (exact && !path.contains("${")).then_some((path, end))
    };
    match toks.get(at)? {
        Tok::Str { value, exact: true } => Some(value.clone()),
        Tok::Punct('(') => {
            let (path, end) = joined(at + 1)?;
            (toks.get(end) == Some(&Tok::Punct(')'))).then_some(path)
        }
        Tok::Ident(var) if !matches!(toks.get(at + 1), Some(Tok::Punct('(' | '['))) => {
            // The variable's one assignment `var = JOIN` (not `==`, `<=`, `!=`).
            let mut found = None;
            for k in 0..toks.len() {
                let assigns = matches!(toks.get(k), Some(Tok::Ident(v)) if v == var)
                    && toks.get(k + 1) == Some(&Tok::Punct('='))
                    && toks.get(k + 2) != Some(&Tok::Punct('='))
                    && !matches!(
                        k.checked_sub(1).and_then(|p| toks.get(p)),
                        Some(Tok::Punct('=' | '!' | '<' | '>'))
                    );
                if assigns {
                    if found.is_some() {
                        return None;
                    }
                    found = Some(joined(k + 2)?.0);
                }
            }
            found
        }
        _ => None,
    }
}

/// True when an awk variable is assigned a `/inet/…` special file (a socket, not a command).
fn awk_socket_variable(toks: &[Tok], var: &str) -> bool {
    toks.windows(3).any(|w| {
        matches!(w, [Tok::Ident(v), Tok::Punct('='), Tok::Str { value, .. }]
            if v == var && value.starts_with("/inet"))
    })
}

/// Single-quotes `argv` into one shell line, so a list-form call is analysed like a string.
pub(crate) fn shell_join(argv: &[String]) -> String {
    argv.iter()
        .map(|a| format!("'{}'", a.replace('\'', r"'\''")))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether the awk token at `i` is inside a `print`/`printf` statement: the nearest of
/// `print`, `printf`, `;`, `{`, `}` before it is a print. Bounded by the statement's length.
fn awk_in_print(toks: &[Tok], i: usize) -> bool {
    toks.get(..i)
        .unwrap_or(&[])
        .iter()
        .rev()
        .find_map(|t| match t {
            Tok::Ident(n) if n == "print" || n == "printf" => Some(true),
            Tok::Punct(';' | '{' | '}') => Some(false),
            _ => None,
        })
        .unwrap_or(false)
}

/// Scans one snippet. Bounded by the token count (linear).
pub(crate) fn scan(lang: Lang, code: &str) -> Vec<Finding> {
    let toks = tokenize(lang, code);
    let mut out = Vec::new();
    for (i, tok) in toks.iter().enumerate() {
        match tok {
            Tok::ShellStr { value, exact } => out.push(Finding::Shell {
                code: value.clone(),
                exact: *exact,
            }),
            // gawk's `/inet/tcp/LPORT/HOST/RPORT` special files are sockets.
            Tok::Str { value, .. }
                if lang == Lang::Awk
                    && ["/inet/", "/inet4/", "/inet6/"]
                        .iter()
                        .any(|p| value.starts_with(p)) =>
            {
                out.push(Finding::Effect {
                    op: crate::model::EffectOp::Network,
                    path: Some(value.clone()),
                    recursive: false,
                });
            }
            // awk's `ENVIRON`: indexed by a credential-shaped literal it is that variable
            // (`print ENVIRON["AWS_SECRET_ACCESS_KEY"]`), any other use but a literal index
            // (`for (k in ENVIRON)`, `ENVIRON[k]`) walks the whole environment. What the
            // program prints of it is its output, judged where that goes.
            Tok::Ident(n) if lang == Lang::Awk && n == "ENVIRON" => {
                match (toks.get(i + 1), toks.get(i + 2), toks.get(i + 3)) {
                    (
                        Some(Tok::Punct('[')),
                        Some(Tok::Str { value, exact: true }),
                        Some(Tok::Punct(']')),
                    ) => {
                        if crate::flow::is_credential_variable(value) {
                            out.push(Finding::Printed(
                                crate::model::FlowSource::CredentialVariable {
                                    name: value.clone(),
                                },
                            ));
                        }
                    }
                    _ => out.push(Finding::Source(crate::model::FlowSource::Environment {
                        by: "awk ENVIRON".to_owned(),
                    })),
                }
            }
            // `cmd | getline` / `cmd |& getline` with `cmd` a variable: runs whatever text it
            // holds (read from a socket in gawk's reverse shells) as a command.
            Tok::Ident(var)
                if lang == Lang::Awk
                    && matches!(toks.get(i + 1), Some(Tok::Punct('|')))
                    && matches!(
                        (toks.get(i + 2), toks.get(i + 3)),
                        (Some(Tok::Ident(g)), _) | (Some(Tok::Punct('&')), Some(Tok::Ident(g)))
                            if g == "getline"
                    )
                    && !awk_socket_variable(&toks, var) =>
            {
                out.push(Finding::Effect {
                    op: crate::model::EffectOp::Spawn,
                    path: None,
                    recursive: false,
                });
                out.push(Finding::Dynamic("runs a command held in a variable"));
            }
            Tok::Punct('|') if lang == Lang::Awk => {
                if let Some(Tok::Str { value, exact }) = toks.get(i + 1) {
                    // `print … | "sh"`: awk's output is the shell's script.
                    let program = value.split_whitespace().next().unwrap_or("");
                    let base = program.rsplit('/').next().unwrap_or(program);
                    if crate::resolve::is_shell(base) && value.split_whitespace().count() == 1 {
                        out.push(Finding::Dynamic("pipes generated text into a shell"));
                    }
                    out.push(Finding::Shell {
                        code: value.clone(),
                        exact: *exact,
                    });
                }
            }
            // `getline [var] < "file"`: reads the file (judged by path like the shell's `<`).
            Tok::Ident(g) if lang == Lang::Awk && g == "getline" => {
                let at = match toks.get(i + 1) {
                    Some(Tok::Ident(_)) => i + 2,
                    _ => i + 1,
                };
                if toks.get(at) == Some(&Tok::Punct('<'))
                    && let Some(path) = awk_file_operand(&toks, at + 1)
                {
                    out.push(Finding::Effect {
                        op: crate::model::EffectOp::Read,
                        path: Some(path),
                        recursive: false,
                    });
                }
            }
            // `print … > "file"` / `>> "file"`: writes the file (a `>` in a condition is a
            // comparison: only one after `print`/`printf` in the same statement redirects).
            Tok::Punct('>')
                if lang == Lang::Awk
                    && !matches!(toks.get(i.wrapping_sub(1)), Some(Tok::Punct('>')))
                    && awk_in_print(&toks, i) =>
            {
                let at = if matches!(toks.get(i + 1), Some(Tok::Punct('>'))) {
                    i + 2
                } else {
                    i + 1
                };
                if let Some(Tok::Str { value, exact: true }) = toks.get(at)
                    && !value.starts_with("/inet")
                {
                    out.push(Finding::Effect {
                        op: crate::model::EffectOp::Write,
                        path: Some(value.clone()),
                        recursive: false,
                    });
                }
            }
            // `"cmd" | getline`, `"curl " ENVIRON["U"] | getline`: the joined string is run.
            Tok::Str { .. } | Tok::Ident(_)
                if lang == Lang::Awk
                    && !awk_join_piece(toks.get(i.wrapping_sub(1)))
                    && let Some((code, exact, end)) = awk_join(&toks, i)
                    && matches!(toks.get(end), Some(Tok::Punct('|')))
                    && matches!(toks.get(end + 1), Some(Tok::Ident(g)) if g == "getline") =>
            {
                out.push(Finding::Shell { code, exact });
            }
            // `system("rm -rf " ENVIRON["HOME"] "/.ssh")`, `system("rm " $1)`: awk joins
            // by juxtaposition, so the command is the joined string.
            Tok::Ident(name)
                if lang == Lang::Awk
                    && name == "system"
                    && matches!(toks.get(i + 1), Some(Tok::Punct('(')))
                    && let Some((code, exact, end)) = awk_join(&toks, i + 2)
                    && end > i + 3
                    && matches!(toks.get(end), Some(Tok::Punct(')'))) =>
            {
                out.push(Finding::Shell { code, exact });
            }
            Tok::Ident(name) => {
                // Perl/Ruby/PHP call without parentheses: `eval $x`, `system "…"`.
                let paren_less = matches!(lang, Lang::Perl | Lang::Ruby | Lang::Php)
                    && matches!(toks.get(i + 1), Some(Tok::Punct('$' | '@') | Tok::Ident(_)));
                let called = paren_less
                    || matches!(
                        toks.get(i + 1),
                        Some(Tok::Punct('(' | '[') | Tok::Str { .. })
                    );
                if !called {
                    continue;
                }
                if lang == Lang::Mongo {
                    if let Some(what) = mongo_helper(name).or_else(|| {
                        matches!(name.as_str(), "adminCommand" | "runCommand")
                            .then(|| mongo_command_key(&toks, i + 1))
                            .flatten()
                            .and_then(|key| mongo_command(&key))
                    }) {
                        out.push(Finding::MongoDrop { what });
                    }
                    continue;
                }
                if is_shell_call(lang, name) {
                    match first_arg(&toks, i + 1) {
                        Arg::Str(code, exact) => {
                            // spawn('rm', ['-rf', '/']): program plus argument list.
                            let mut j = i + 2;
                            while matches!(toks.get(j), Some(Tok::Str { .. } | Tok::Punct('('))) {
                                j += 1;
                            }
                            if matches!(toks.get(j), Some(Tok::Punct(',')))
                                && let Arg::List(rest) = first_arg(&toks, j + 1)
                            {
                                let mut argv = vec![code];
                                argv.extend(rest);
                                out.push(Finding::Shell {
                                    code: shell_join(&argv),
                                    exact,
                                });
                            } else {
                                out.push(Finding::Shell { code, exact });
                            }
                        }
                        Arg::List(argv) => out.push(Finding::Shell {
                            code: shell_join(&argv),
                            exact: true,
                        }),
                        Arg::Other if is_unambiguous_shell_call(name) => {
                            out.push(Finding::Dynamic("runs a shell command built at run time"));
                        }
                        Arg::Other | Arg::None => {}
                    }
                } else if let Some(recursive) = delete_call(lang, name) {
                    match first_arg(&toks, i + 1) {
                        Arg::Str(path, exact) => out.push(Finding::Delete {
                            path,
                            exact,
                            recursive,
                        }),
                        Arg::Other if recursive => out.push(Finding::Delete {
                            path: String::new(),
                            exact: false,
                            recursive,
                        }),
                        _ => {}
                    }
                } else if let Some(reason) = is_dynamic(lang, name) {
                    match first_arg(&toks, i + 1) {
                        Arg::Str(code, true) if matches!(name.as_str(), "exec" | "eval") => {
                            out.push(Finding::Code { code });
                        }
                        // `model.eval()`: no argument, nothing evaluated.
                        Arg::None => {}
                        _ => out.push(Finding::Dynamic(reason)),
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// What a MongoDB shell helper called `name` does that destroys data, stops the server or
/// changes who may log in (`db.dropDatabase()`, `db.shutdownServer()`,
/// `db.changeUserPassword(…)`); `None` for the rest (`find`, `insertOne`, `stats`).
fn mongo_helper(name: &str) -> Option<&'static str> {
    Some(match name {
        "dropDatabase" | "drop" | "dropIndexes" => {
            "drops a MongoDB database, collection or indexes"
        }
        "deleteMany" | "remove" => "deletes MongoDB documents in bulk",
        "dropUser" | "dropAllUsers" | "dropRole" | "dropAllRoles" => "drops MongoDB users or roles",
        "shutdownServer" | "fsyncLock" => "shuts down or locks the MongoDB server",
        "createUser"
        | "updateUser"
        | "changeUserPassword"
        | "grantRolesToUser"
        | "grantPrivilegesToRole"
        | "createRole" => "creates or changes a MongoDB login's credentials or privileges",
        _ => return None,
    })
}

/// The same for a database command run by name (`db.adminCommand({shutdown: 1})`,
/// `db.runCommand({dropDatabase: 1})`, `adminCommand("shutdown")`): its command name.
fn mongo_command(key: &str) -> Option<&'static str> {
    Some(match key {
        "shutdown" | "fsync" | "replSetReconfig" | "replSetStepDown" | "removeShard" => {
            "shuts down, locks or reconfigures the MongoDB server"
        }
        "renameCollection" => "renames a MongoDB collection over another",
        "dropAllUsersFromDatabase" | "dropAllRolesFromDatabase" => "drops MongoDB users or roles",
        other => return mongo_helper(other),
    })
}

/// The command name of a database command document: the first key of the object literal
/// (`{shutdown: 1}`, `{"dropDatabase": 1}`) or a string argument (`"shutdown"`).
fn mongo_command_key(toks: &[Tok], mut i: usize) -> Option<String> {
    if matches!(toks.get(i), Some(Tok::Punct('('))) {
        i += 1;
    }
    if matches!(toks.get(i), Some(Tok::Punct('{'))) {
        i += 1;
    }
    match toks.get(i) {
        Some(Tok::Ident(k)) => Some(k.clone()),
        Some(Tok::Str { value, exact: true }) => Some(value.clone()),
        _ => None,
    }
}

/// The databases a MongoDB shell script reaches by name (`db.getSiblingDB('x')`,
/// `getDB('x')`; `None` for a name not written as a literal) and whether it opens another
/// connection (`connect(…)`, `new Mongo(…)`), read from the script's tokens (strings and
/// comments are not code).
pub(crate) fn mongo_databases(code: &str) -> (Vec<Option<String>>, bool) {
    let toks = tokenize(Lang::Mongo, code);
    let mut names = Vec::new();
    let mut connects = false;
    for (i, t) in toks.iter().enumerate() {
        let Tok::Ident(id) = t else { continue };
        if !matches!(toks.get(i + 1), Some(Tok::Punct('('))) {
            continue;
        }
        match id.as_str() {
            "getSiblingDB" | "getDB" => names.push(match first_arg(&toks, i + 1) {
                Arg::Str(value, true) => Some(value),
                _ => None,
            }),
            "connect" | "Mongo" => connects = true,
            _ => {}
        }
    }
    (names, connects)
}

/// How destructive a SQL text is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum SqlRisk {
    None,
    /// A change of who may log in or what they may do (`ALTER USER … PASSWORD`, `ALTER ROLE
    /// … SUPERUSER`, `CREATE USER`, `GRANT ALL … TO`, `SET PASSWORD`): a credential minted or
    /// replaced, or a privilege widened, on the server.
    Privilege,
    /// DELETE/UPDATE without WHERE.
    DeleteAll,
    /// DROP, TRUNCATE, ALTER … DROP.
    Drop,
}

/// Whether a WHERE condition (its tokens: upper-cased words, quoted literals, `=`/`<>`) holds
/// for every row: one of its `OR` alternatives is `TRUE`, a non-zero number, or a comparison
/// of a value with itself (`1=1`, `'a'='a'`, `id=id`). The condition ends at `ORDER`, `LIMIT`,
/// `RETURNING` or `GROUP`.
fn where_always_true(tokens: &[String]) -> bool {
    let end = tokens
        .iter()
        .position(|t| matches!(t.as_str(), "ORDER" | "LIMIT" | "RETURNING" | "GROUP"))
        .unwrap_or(tokens.len());
    tokens[..end].split(|t| t == "OR").any(|alt| match alt {
        [one] => one == "TRUE" || one.parse::<i64>().is_ok_and(|n| n != 0),
        [a, op, b] => op == "=" && a == b,
        _ => false,
    })
}

/// Attributes of a role or user that give a credential or power: a password (`PASSWORD`,
/// MySQL's `IDENTIFIED`), superuser and administrative bits, the right to log in. Their `NO…`
/// forms (`NOSUPERUSER`, `NOLOGIN`) take power away and are other words.
const POWER_ATTRIBUTES: &[&str] = &[
    "PASSWORD",
    "IDENTIFIED",
    "SUPERUSER",
    "CREATEROLE",
    "CREATEDB",
    "BYPASSRLS",
    "REPLICATION",
    "LOGIN",
    "UNLOCK",
    "SYSADMIN",
];

/// Whether a statement changes credentials or widens privileges (see [`SqlRisk::Privilege`]):
/// `ALTER USER|ROLE|LOGIN` or `CREATE ROLE` with a power attribute, `CREATE USER|LOGIN`
/// (a new account that can log in), `SET PASSWORD`, and a `GRANT` of everything, of an
/// administrative privilege, with the right to grant on, or on every database (`ON *.*`, read
/// as `ON .`). Narrow grants (`GRANT SELECT ON reports TO analyst`) are ordinary schema work.
fn changes_privileges(words: &[String]) -> bool {
    let word = |i: usize| words.get(i).map(String::as_str);
    let has = |w: &str| words.iter().any(|x| x == w);
    let power = || POWER_ATTRIBUTES.iter().any(|a| has(a));
    match (word(0), word(1)) {
        (Some("ALTER"), Some("USER" | "ROLE" | "LOGIN")) | (Some("CREATE"), Some("ROLE")) => {
            power()
        }
        (Some("CREATE"), Some("USER" | "LOGIN")) | (Some("SET"), Some("PASSWORD")) => true,
        (Some("GRANT"), _) => {
            has("ALL")
                || has("SUPER")
                || has("SUPERUSER")
                || has("OPTION")
                || words
                    .windows(3)
                    .any(|w| w[0] == "ON" && w[1] == "." && w[2] != ".")
                || words.iter().any(|w| {
                    matches!(
                        w.as_str(),
                        "POSTGRES"
                            | "RDS_SUPERUSER"
                            | "PG_WRITE_SERVER_FILES"
                            | "PG_EXECUTE_SERVER_PROGRAM"
                            | "PG_READ_SERVER_FILES"
                            | "DBA"
                            | "SYSADMIN"
                            | "DB_OWNER"
                    )
                })
        }
        _ => false,
    }
}

/// How destructive one statement is (its words upper-cased, quoted tokens keep their quote).
fn statement_risk(words: &[String]) -> SqlRisk {
    let first = words.first().map(String::as_str);
    let has = |w: &str| words.iter().any(|x| x == w);
    if changes_privileges(words) {
        return SqlRisk::Privilege;
    }
    match first {
        Some("DROP" | "TRUNCATE") => SqlRisk::Drop,
        // SurrealQL's drop: `REMOVE TABLE|DATABASE|NAMESPACE x` (no SQL statement starts so).
        Some("REMOVE")
            if has("TABLE") || has("DATABASE") || has("NAMESPACE") || has("NS") || has("DB") =>
        {
            SqlRisk::Drop
        }
        // Cypher: `MATCH (n) [DETACH] DELETE n` without a WHERE deletes every node the pattern
        // matches (all of them for a bare `(n)`).
        Some("MATCH" | "OPTIONAL") if has("DELETE") && !has("WHERE") => SqlRisk::DeleteAll,
        Some("ALTER") if has("DROP") => SqlRisk::Drop,
        Some("DELETE" | "UPDATE") if !has("WHERE") => SqlRisk::DeleteAll,
        // `WHERE 1=1`, `WHERE TRUE`, `WHERE id=id OR 'a'='a'`: a condition every row
        // meets selects every row.
        Some("DELETE" | "UPDATE")
            if words
                .iter()
                .position(|w| w == "WHERE")
                .is_some_and(|at| where_always_true(&words[at + 1..])) =>
        {
            SqlRisk::DeleteAll
        }
        _ => SqlRisk::None,
    }
}

/// Splits SQL text into statements of upper-cased words (string literals kept as one token
/// with their opening quote, comments skipped) and hands each to `each`. A psql
/// meta-command (`\c app_test`) is a statement of its own that ends at its line, as psql
/// reads it: it never joins the SQL after it.
fn sql_statements(text: &str, mut each: impl FnMut(&[String])) {
    let mut words: Vec<String> = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut finish = |words: &mut Vec<String>| {
        each(words);
        words.clear();
    };
    while let Some(&c) = chars.get(i) {
        let next = chars.get(i + 1).copied();
        if c == '\'' || c == '"' || c == '`' {
            i += 1;
            let start = i;
            while chars.get(i).is_some_and(|&x| x != c) {
                i += 1;
            }
            // Kept as one quoted token (its keywords are not keywords), for conditions.
            let body: String = chars.get(start..i).unwrap_or(&[]).iter().collect();
            words.push(format!("{c}{}", body.to_ascii_uppercase()));
            i += 1;
        } else if c == '=' || (c == '!' && next == Some('=')) || (c == '<' && next == Some('>')) {
            words.push(if c == '=' { "=" } else { "<>" }.to_owned());
            i += if c == '=' { 1 } else { 2 };
        } else if (c == '-' && next == Some('-')) || c == '#' {
            while chars.get(i).is_some_and(|&x| x != '\n') {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                i += 1;
            }
            i += 2;
        } else if c == ';' {
            finish(&mut words);
            i += 1;
        } else if c == '\\' && words.is_empty() && next.is_some_and(|n| n.is_ascii_alphabetic()) {
            let start = i;
            while chars.get(i).is_some_and(|&x| x != '\n') {
                i += 1;
            }
            let line: String = chars.get(start..i).unwrap_or(&[]).iter().collect();
            words.extend(line.split_whitespace().map(str::to_ascii_uppercase));
            finish(&mut words);
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while chars
                .get(i)
                .is_some_and(|&x| x.is_alphanumeric() || x == '_')
            {
                i += 1;
            }
            words.push(
                chars[start..i]
                    .iter()
                    .collect::<String>()
                    .to_ascii_uppercase(),
            );
        } else {
            // A qualified name's dot (`shop.orders`), for the databases a statement names.
            if c == '.' {
                words.push(".".to_owned());
            }
            i += 1;
        }
    }
    finish(&mut words);
}

/// Classifies SQL statements by their keywords (string literals and comments skipped).
pub(crate) fn scan_sql(text: &str) -> SqlRisk {
    let mut worst = SqlRisk::None;
    sql_statements(text, |words| worst = worst.max(statement_risk(words)));
    worst
}

/// The databases a SQL text acts on, for `crate::dbtarget`: the ones it drops by name (`DROP
/// DATABASE [IF EXISTS] x`, `DROP KEYSPACE x`), and whether a destructive statement acts on
/// the session's current database (`TRUNCATE users`), which `\c x`, `\connect x` or `USE x`
/// may have switched (`switched`, the last switch before such a statement). Names are
/// lower-cased, quotes removed.
///
/// Also what else a statement can reach: the qualifiers of qualified names in destructive
/// statements (`TRUNCATE shop.orders`: a database in MySQL, a keyspace in CQL, a schema in
/// PostgreSQL — the caller knows which), files SQLite attaches (`ATTACH 'prod.db' AS p`), and
/// whether a switch or include makes the database unknowable (`\c db user HOST`, `\c
/// "host=… dbname=…"`, `\i file`).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct SqlDatabases {
    pub dropped: Vec<String>,
    pub on_current: bool,
    /// Some destructive statement names its object without a qualifier (`TRUNCATE t`, not
    /// `TRUNCATE app_test.t`): where a qualifier is another database (MySQL, ClickHouse,
    /// CQL), only such a statement acts on the connection's current one.
    pub unqualified: bool,
    pub switched: Option<String>,
    pub qualifiers: Vec<String>,
    pub attached: Vec<String>,
    pub unknowable: bool,
}

/// Whether a destructive statement's one object is written `QUALIFIER.NAME`: `TRUNCATE
/// [TABLE] q.t`, `DROP TABLE|VIEW [IF EXISTS] q.t`, `DELETE FROM q.t …`, `UPDATE q.t …`.
/// Several objects, another statement form or an unqualified name: false (the current
/// database is acted on, as far as the reader can tell).
fn object_qualified(words: &[String]) -> bool {
    let w = |k: usize| words.get(k).map(String::as_str);
    let mut at = match (w(0), w(1)) {
        (Some("TRUNCATE"), Some("TABLE"))
        | (Some("DROP"), Some("TABLE" | "VIEW"))
        | (Some("DELETE"), Some("FROM")) => 2,
        (Some("TRUNCATE" | "UPDATE"), _) => 1,
        _ => return false,
    };
    if w(at) == Some("IF") && w(at + 1) == Some("EXISTS") {
        at += 2;
    }
    // The name must end the object list: the statement ends there or goes on with a clause
    // (the reader drops commas, so `DROP TABLE q.a, b` shows as `Q . A B`).
    w(at).is_some_and(|q| q != ".")
        && w(at + 1) == Some(".")
        && w(at + 2).is_some_and(|n| n != ".")
        && w(at + 3).is_none_or(|t| {
            matches!(
                t,
                "WHERE" | "SET" | "LIMIT" | "ORDER" | "CASCADE" | "RESTRICT" | "PURGE"
            )
        })
}

pub(crate) fn sql_databases(text: &str) -> SqlDatabases {
    let mut out = SqlDatabases::default();
    let mut current: Option<String> = None;
    let name = |w: &String| {
        w.trim_start_matches(['"', '`', '\''])
            .trim_end_matches(';')
            .to_ascii_lowercase()
    };
    sql_statements(text, |words| {
        let word = |k: usize| words.get(k).map(String::as_str);
        match (word(0), word(1)) {
            // `\c DB [USER [HOST [PORT]]]`: a host, a conninfo or URI is another connection.
            (Some("\\C" | "\\CONNECT"), Some(db))
                if words.len() > 3 || db.contains('=') || db.contains("://") =>
            {
                out.unknowable = true;
            }
            (Some("\\C" | "\\CONNECT" | "USE"), Some(_)) => {
                current = words.get(1).map(name);
            }
            (Some("\\I" | "\\IR" | "\\INCLUDE" | "\\INCLUDE_RELATIVE" | "SOURCE"), _) => {
                out.unknowable = true;
            }
            (Some("ATTACH"), _) => {
                let at = if word(1) == Some("DATABASE") { 2 } else { 1 };
                match words.get(at) {
                    Some(file) if file.starts_with(['\'', '"']) => out.attached.push(name(file)),
                    _ => out.unknowable = true,
                }
            }
            (Some("DROP"), Some("DATABASE" | "KEYSPACE")) => {
                let at = if word(2) == Some("IF") && word(3) == Some("EXISTS") {
                    4
                } else {
                    2
                };
                if let Some(db) = words.get(at) {
                    out.dropped.push(name(db));
                }
            }
            _ if statement_risk(words) != SqlRisk::None => {
                out.on_current = true;
                out.unqualified |= !object_qualified(words);
                for w in words.windows(3) {
                    if w[1] == "." && w[0] != "." && w[2] != "." {
                        let q = name(&w[0]);
                        if !out.qualifiers.contains(&q) {
                            out.qualifiers.push(q);
                        }
                    }
                }
                if current.is_some() {
                    out.switched.clone_from(&current);
                }
            }
            _ => {}
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_where_condition_every_row_meets_deletes_every_row() {
        for all in [
            "DELETE FROM users WHERE 1=1",
            "BEGIN; DELETE FROM users WHERE 1 = 1; COMMIT;",
            "delete from users where true",
            "DELETE FROM users WHERE name = 'x' OR 'a'='a'",
            "UPDATE users SET admin = true WHERE id = id",
            "DELETE FROM t WHERE 1 RETURNING *",
        ] {
            assert_eq!(scan_sql(all), SqlRisk::DeleteAll, "{all}");
        }
        for some in [
            "DELETE FROM users WHERE id = 5",
            "DELETE FROM sessions WHERE note = 'x=x'",
            "DELETE FROM t WHERE 1=1 AND id = 3",
            "UPDATE users SET admin = true WHERE id = 7",
            "DELETE FROM t WHERE 0",
        ] {
            assert_eq!(scan_sql(some), SqlRisk::None, "{some}");
        }
    }

    #[test]
    fn python_shell_outs_are_extracted() {
        let f = scan(Lang::Python, "import os; os.system('rm -rf /')");
        assert_eq!(
            f,
            vec![Finding::Shell {
                code: "rm -rf /".into(),
                exact: true
            }]
        );
        let f = scan(
            Lang::Python,
            "import subprocess; subprocess.run(['rm', '-rf', '/'])",
        );
        assert_eq!(
            f,
            vec![Finding::Shell {
                code: "'rm' '-rf' '/'".into(),
                exact: true
            }]
        );
    }

    #[test]
    fn python_print_is_harmless() {
        assert!(scan(Lang::Python, "print('hello')").is_empty());
        assert!(scan(Lang::Python, "print('os.system(\"rm -rf /\")')").is_empty());
    }

    #[test]
    fn deletes_and_dynamic_code_are_reported() {
        assert_eq!(
            scan(Lang::Python, "import shutil; shutil.rmtree('/home/user')"),
            vec![Finding::Delete {
                path: "/home/user".into(),
                exact: true,
                recursive: true
            }]
        );
        assert!(matches!(
            scan(Lang::Python, "exec(__import__('base64').b64decode(x))")[..],
            [Finding::Dynamic(_), ..]
        ));
    }

    #[test]
    fn ruby_and_perl_backticks_are_shell() {
        assert_eq!(
            scan(Lang::Ruby, "`rm -rf /home/user`"),
            vec![Finding::Shell {
                code: "rm -rf /home/user".into(),
                exact: true
            }]
        );
        assert_eq!(
            scan(Lang::Perl, "system('rm -rf /home/user')"),
            vec![Finding::Shell {
                code: "rm -rf /home/user".into(),
                exact: true
            }]
        );
    }

    #[test]
    fn node_child_process_is_shell() {
        let f = scan(Lang::Node, "require('child_process').execSync('rm -rf /')");
        assert_eq!(
            f,
            vec![Finding::Shell {
                code: "rm -rf /".into(),
                exact: true
            }]
        );
    }

    #[test]
    fn a_psql_meta_command_ends_at_its_line() {
        assert_eq!(scan_sql("\\c app\nTRUNCATE users;"), SqlRisk::Drop);
        assert_eq!(scan_sql("\\connect app\nDELETE FROM t"), SqlRisk::DeleteAll);
        let dbs =
            sql_databases("\\c app_prod\nTRUNCATE users;\nDROP DATABASE IF EXISTS \"Old_Test\";");
        assert_eq!(dbs.dropped, ["old_test"]);
        assert!(dbs.on_current);
        assert_eq!(dbs.switched.as_deref(), Some("app_prod"));
        let none = sql_databases("SELECT 1; USE x; CREATE DATABASE y");
        assert!(!none.on_current && none.dropped.is_empty());
    }

    #[test]
    fn sql_keywords_not_strings_decide() {
        assert_eq!(scan_sql("DROP TABLE users;"), SqlRisk::Drop);
        assert_eq!(scan_sql("select 'DROP TABLE x' from t"), SqlRisk::None);
        assert_eq!(scan_sql("delete from t"), SqlRisk::DeleteAll);
        assert_eq!(scan_sql("delete from t where id = 1"), SqlRisk::None);
        assert_eq!(scan_sql("truncate t; select 1"), SqlRisk::Drop);
    }
}
