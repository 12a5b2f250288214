//! One-liners in languages without a tree-sitter grammar here: Julia (`julia -e`), Tcl
//! (`tclsh`, `wish`), Elixir (`elixir -e`), Erlang (`erl -eval`), Scheme (`racket -e`,
//! `guile -c`), the JVM scripting languages (`groovy -e`, `scala -e`, `scala-cli -e`, `kotlin
//! -e`, `amm -c`, `jshell` on stdin), Swift (`swift -` on stdin, `swift -e`), Haskell (`ghc -e`,
//! `ghci -e`), Rust (`rust-script -e`; a `build.rs` is read as one) and AppleScript (`osascript
//! -e`); the postfix and macro languages with their own small readers — Forth (`gforth -e`),
//! m4 (`syscmd`/`esyscmd`), dc (`!`) — and languages no reader here understands
//! (`wolframscript -code`, `pike -e`), whose code is asked about unread.
//!
//! Why a token reader and not a grammar: a grammar per language would cost a dependency each for
//! rarely seen commands. The reading here is still structural, never a substring search: each
//! language's string, comment and command-literal syntax is tokenised first (so `"os:cmd(…)"`
//! inside a string or after a comment marker is data), and only calls — a name followed by its
//! argument list, Scheme's `(name …)`, Tcl's command words, a method on a literal
//! (`"cmd".execute()`, `"cmd".!`) — are matched against per-language API tables of shell-outs,
//! deletions, writes, network, dynamic evaluation and native library loads.
//!
//! Invariant (same as `crate::code`): an effect is never dropped. A call in the tables whose
//! argument is not a literal becomes a run-time finding (`Dynamic` or an effect with
//! `path: None`), which the caller asks about; interpolated literals are inexact.
//! Bounds: linear in the snippet; Tcl's `[…]`/`eval {…}` nesting is read to [`MAX_NEST`] levels
//! (deeper is dynamic). No panics, no I/O.

use crate::interp::{Finding, shell_join};
use crate::model::EffectOp;

/// Deepest Tcl nesting (`eval {eval {…}}`, `[cmd [cmd]]`) read; deeper is dynamic.
const MAX_NEST: usize = 8;

/// A language read by the token scanner of this module.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Tongue {
    Julia,
    Tcl,
    Elixir,
    Erlang,
    /// Racket and Guile.
    Scheme,
    /// Groovy, Scala, Kotlin and Java (`jshell`).
    Jvm,
    Swift,
    Haskell,
    /// Rust: `rust-script -e`, and the build scripts cargo runs (`build.rs`).
    Rust,
    AppleScript,
    /// The Lisps other than Scheme: Common Lisp (`sbcl --eval`, `clisp -x`, `ecl -eval`),
    /// Clojure (`clojure -e`, babashka `bb -e`), Emacs Lisp (`emacs --batch --eval`), Fennel,
    /// Janet, Hy and LFE — read like Scheme, with package-qualified names (`uiop:run-program`,
    /// `clojure.java.shell/sh`) kept whole.
    Lisp,
    /// Languages whose calls are written `name(args)` or `name "arg"` and whose code is rarely
    /// seen in agents' commands: Raku, Crystal, Nim, D (`rdmd --eval`), Octave/MATLAB, gnuplot,
    /// OCaml, C# (`csharp -e`, `dotnet-script eval`) and C run by a C interpreter (`tcc -run`). One table of the shell-outs,
    /// deletions, writes and fetches these standard libraries name: the class is "a call that
    /// runs, deletes, writes or fetches", which reads the same in all of them.
    CallSyntax,
    /// Forth (`gforth -e`): postfix, so a string literal (`s" rm -rf x"`) comes before the word
    /// that acts on it (`system`, `delete-file`, `included`), and `sh` runs the rest of its line.
    Forth,
    /// m4 (`m4` on stdin or a here-string): `syscmd(…)`/`esyscmd(…)` run their unquoted
    /// argument text as a shell line, `include(…)` reads a file as more m4.
    Macro,
    /// dc (`dc -e`): `!` runs the rest of its line as a shell command (`!<`, `!>`, `!=` are
    /// comparisons).
    Dc,
    /// Languages an interpreter here takes code in that no reader of this crate understands
    /// (`wolframscript -code`, `pike -e`, `rebol --do`): code nobody read, asked about
    /// whatever it says, as `pwsh -EncodedCommand` is.
    Unread,
}

impl Tongue {
    /// The language an interpreter command runs (`julia`, `erl`, `racket`, …).
    pub(crate) fn of(name: &str) -> Option<Self> {
        Some(match name {
            "julia" => Self::Julia,
            // Expect is Tcl with `spawn`.
            "tclsh" | "wish" | "tclsh8.6" | "tclsh9.0" | "jimsh" | "expect" => Self::Tcl,
            "elixir" | "iex" => Self::Elixir,
            "erl" => Self::Erlang,
            "racket" | "guile" | "guile3.0" | "guile2.2" | "mit-scheme" => Self::Scheme,
            // `jrunscript`/`jjs`/`rhino` run JavaScript on the JVM, whose way out is Java's
            // (`java.lang.Runtime.getRuntime().exec(…)`, `new java.io.File(p).delete()`).
            "groovy" | "scala" | "jshell" | "scala-cli" | "kotlin" | "kotlinc" | "kotlinc-jvm"
            | "amm" | "jbang" | "jrunscript" | "jjs" | "rhino" => Self::Jvm,
            "swift" => Self::Swift,
            "ghc" | "ghci" | "runghc" | "runhaskell" => Self::Haskell,
            "rust-script" => Self::Rust,
            "osascript" => Self::AppleScript,
            "sbcl" | "clisp" | "ecl" | "ccl" | "ccl64" | "lx86cl64" | "clojure" | "clj" | "bb"
            | "emacs" | "emacsclient" | "fennel" | "janet" | "hy" | "lfe" | "csi" | "gosh" => {
                Self::Lisp
            }
            // Also written `name(args)` / `name "arg"`: OCaml's other toplevels (`utop`), F#
            // interactive (`dotnet fsi`), Maxima, PARI/GP, SWI-Prolog goals (`swipl -g
            // "shell('x')"`), Maya's MEL (`maya -batch -command 'system("x")'`) and bpftrace's
            // probes (`system("…")` with `--unsafe`).
            "raku" | "perl6" | "rakudo" | "crystal" | "nim" | "rdmd" | "octave" | "octave-cli"
            | "matlab" | "gnuplot" | "scilab" | "scilab-cli" | "ocaml" | "tcc" | "csharp"
            | "dotnet-script" | "utop" | "fsi" | "fsharpi" | "dotnet-fsi" | "maxima" | "gp"
            | "swipl" | "maya" | "bpftrace" => Self::CallSyntax,
            "gforth" | "gforth-fast" => Self::Forth,
            "m4" | "gm4" => Self::Macro,
            "dc" => Self::Dc,
            // (Factor's `factor` is not listed: the name is coreutils' prime factoriser too.)
            "wolframscript" | "pike" | "rebol" | "bqn" => Self::Unread,
            _ => return None,
        })
    }

    /// Options whose value is code, for the interpreter `name`.
    pub(crate) fn code_flags(name: &str) -> &'static [&'static str] {
        match name {
            "julia" => &["-e", "--eval", "-E", "--print"],
            "elixir" | "iex" | "racket" | "clojure" | "clj" | "bb" | "janet" | "lfe" | "gosh"
            | "fennel" => &["-e", "--eval"],
            "erl" => &["-eval"],
            "guile" | "guile3.0" | "guile2.2" | "hy" | "expect" => &["-c"],
            // (Stock OCaml toplevels read a script file, `-stdin` or stdin; an `-e` given to
            // `ocaml`/`utop` is still code by intent, read as such: it costs a benign one
            // nothing.)
            "groovy" | "scala" | "osascript" | "swift" | "ghc" | "ghci" | "raku" | "perl6"
            | "rakudo" | "gnuplot" | "scilab" | "scilab-cli" | "csharp" | "jrunscript" | "jjs"
            | "rhino" | "gforth" | "gforth-fast" | "pike" | "bqn" | "bpftrace" | "ocaml"
            | "utop" => &["-e"],
            "scala-cli" => &["-e", "--execute-scala", "--execute-script"],
            "kotlin" | "kotlinc" | "kotlinc-jvm" => &["-e", "-expression"],
            "maxima" => &["--batch-string", "-r", "--run-string"],
            // A goal and the toplevel goal both run (`swipl -g G -t halt`).
            "swipl" => &["-g", "-t", "--goal"],
            "maya" => &["-command"],
            "dc" => &["-e", "--expression"],
            "wolframscript" => &["-code", "-c"],
            "rebol" => &["--do"],
            "jbang" => &["--code"],
            "amm" => &["-c", "--code"],
            "rust-script" => &["-e", "--expr"],
            "sbcl" | "ccl" | "ccl64" | "lx86cl64" | "emacs" | "emacsclient" => {
                &["--eval", "-eval", "-e"]
            }
            "clisp" => &["-x"],
            "ecl" => &["-eval", "--eval"],
            "csi" => &["-e", "-p", "-eval", "-print"],
            "octave" | "octave-cli" | "nim" | "mit-scheme" => &["--eval"],
            "matlab" => &["-batch", "-r"],
            "rdmd" => &["--eval", "--loop"],
            _ => &[],
        }
    }

    /// A subcommand whose next operand is code (`crystal eval 'system "x"'`).
    pub(crate) fn eval_subcommand(name: &str) -> Option<&'static str> {
        match name {
            "crystal" | "dotnet-script" => Some("eval"),
            _ => None,
        }
    }

    /// Options that take a value (so the value is not read as the script), for `name`.
    pub(crate) fn value_flags(name: &str) -> &'static [&'static str] {
        match name {
            "julia" => &[
                "-L",
                "--load",
                "-t",
                "--threads",
                "-p",
                "--procs",
                "-J",
                "-C",
            ],
            "elixir" | "iex" => &[
                "-r", "-pr", "--erl", "--sname", "--name", "--cookie", "-pa", "-pz",
            ],
            "erl" => &[
                "-sname",
                "-name",
                "-setcookie",
                "-pa",
                "-pz",
                "-s",
                "-run",
                "-config",
                "-boot",
            ],
            "racket" => &["-l", "-t", "-f", "-r", "-u"],
            "guile" | "guile3.0" | "guile2.2" => &["-l", "-e", "-s", "-L", "-x"],
            "groovy" | "scala" | "jshell" | "kotlin" => {
                &["-cp", "-classpath", "--class-path", "-R", "-J"]
            }
            "scala-cli" => &["--dep", "--dependency", "-S", "--scala", "--jvm", "-O"],
            "swift" => &["-I", "-L", "-l", "-F", "-module-name", "-sdk", "-target"],
            "ghc" | "ghci" => &["-package", "-i", "-o", "-outputdir"],
            "osascript" => &["-l"],
            "sbcl" | "ccl" | "ccl64" | "lx86cl64" => &["--load", "--core", "--dynamic-space-size"],
            "emacs" | "emacsclient" => &["-l", "--load", "-f", "--funcall", "-L", "--directory"],
            "clojure" | "clj" => &["-Sdeps", "-Sthreads", "-A", "-J"],
            "bb" => &["--classpath", "-cp", "--config", "--deps-root"],
            "raku" | "perl6" | "rakudo" => &["-I", "-M"],
            "maya" => &["-file", "-proj", "-script", "-log"],
            "swipl" => &[
                "-f",
                "-s",
                "-l",
                "-x",
                "-p",
                "--stack-limit",
                "--table-space",
            ],
            "dc" => &["-f", "--file"],
            "bpftrace" => &["-p", "-o", "-f", "-B", "-I", "--include", "-c"],
            "gforth" | "gforth-fast" => &["-i", "--image-file", "-p", "--path"],
            "tcc" => &[
                "-o", "-I", "-L", "-l", "-D", "-U", "-B", "-include", "-isystem",
            ],
            _ => &[],
        }
    }
}

/// A token of a one-liner.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    /// An identifier, qualified names kept whole (`System.cmd`, `os:cmd`, `delete-file`).
    Name(String),
    /// A string literal after escapes; `false` when it interpolates run-time values.
    Str(String, bool),
    /// Julia's command literal `` `rm -rf x` `` (exact unless it interpolates).
    Cmd(String, bool),
    Punct(char),
}

/// Scans `code` in `tongue` and returns what it does.
pub(crate) fn scan(tongue: Tongue, code: &str) -> Vec<Finding> {
    let mut out = Vec::new();
    if tongue == Tongue::Tcl {
        tcl_script(code, 0, false, &mut out);
    } else if tongue == Tongue::Forth {
        forth_words(code, &mut out);
    } else if tongue == Tongue::Macro {
        macro_calls(code, &mut out);
    } else if tongue == Tongue::Dc {
        bang_lines(code, &mut out);
    } else if tongue == Tongue::Unread {
        if !code.trim().is_empty() {
            out.push(Finding::Dynamic(
                "runs code in a language the guard cannot read",
            ));
        }
    } else {
        if tongue == Tongue::CallSyntax {
            bang_statements(code, &mut out);
        }
        let mut toks = tokens(tongue, code);
        bind_homes(tongue, &mut toks);
        calls(tongue, &toks, &mut out);
    }
    fetched_eval(&mut out);
    out
}

/// A snippet that fetches over the network and evaluates code built at run time
/// (`eval(Meta.parse(read(download(u), String)))`, `Code.eval_string(body)` after
/// `:httpc.request`, `eval(parse(text = readLines(url(u))))`): these readers cannot follow the
/// fetched text into the evaluation, so the evaluated code is taken as the fetched one, as
/// `crate::code` reads `exec(urlopen(u).read())` (the same cautious reading as a credential
/// file named beside a network call).
pub(crate) fn fetched_eval(out: &mut Vec<Finding>) {
    let evaluates = out.iter().any(|f| {
        matches!(f, Finding::Dynamic(why)
            if why.starts_with("evaluates code") || why.starts_with("runs code from a file named"))
    });
    if !evaluates {
        return;
    }
    let fetch = out.iter().find_map(|f| match f {
        Finding::Effect {
            op: EffectOp::Network,
            path,
            ..
        } => Some(path.clone().unwrap_or_else(|| "a network call".to_owned())),
        _ => None,
    });
    if let Some(call) = fetch {
        out.push(Finding::FetchEval { call });
    }
}

/// The files `code` names: its string literals that are paths (`~/…`, absolute, relative
/// like `.env`), literals joined by operators or path calls (`file.path(Sys.getenv("HOME"),
/// ".netrc")`, `os.home / ".aws" / "credentials"`, `System.getProperty("user.home") +
/// "/.ssh/id_rsa"`), and — where the snippet spells the home the language's way
/// (`homedir()`, `System.user_home!()`, `getHomeDir()`, a variable bound to one) — a
/// dotfile literal taken under the home (`joinpath(homedir(), ".aws/credentials")` →
/// `~/.aws/credentials`). The caller asks whether each is a credential: a snippet that names
/// a credential file and also opens a connection sends it (the data flow inside code these
/// readers cannot follow by value).
pub(crate) fn path_literals(tongue: Tongue, code: &str) -> Vec<String> {
    if tongue == Tongue::Tcl {
        return tcl_path_words(code);
    }
    let mut toks = tokens(tongue, code);
    bind_homes(tongue, &mut toks);
    let home_seen = toks.iter().any(|t| match t {
        Tok::Name(n) => is_home_name(n),
        Tok::Str(v, true) => is_home_key(v) || v == "~" || v.starts_with("~/"),
        _ => false,
    });
    let mut out = Vec::new();
    let mut chain: Vec<String> = Vec::new();
    for t in toks.iter().chain(std::iter::once(&Tok::Punct(';'))) {
        match t {
            // A URL or text with blanks is no part of a path: it ends the chain.
            Tok::Str(v, _) | Tok::Cmd(v, _)
                if v.contains("://") || v.contains(char::is_whitespace) =>
            {
                chain_paths(&chain, home_seen, &mut out);
                chain.clear();
            }
            Tok::Str(v, _) | Tok::Cmd(v, _) => chain.push(v.clone()),
            Tok::Name(n) if is_home_name(n) => chain.push("~".to_owned()),
            // What joins parts of one path: separators, concatenation operators, a call's
            // parentheses and commas (`fullfile(getenv("HOME"), ".ssh", "id_rsa")`).
            // (`]` closes an index: `ENV["HOME"] * "/.ssh"`, awk's `ENVIRON["HOME"] "/.x"`.)
            Tok::Punct(
                ',' | '/' | '+' | '~' | '<' | '>' | '^' | '.' | '*' | '&' | '(' | ')' | ']',
            ) => {}
            _ => {
                chain_paths(&chain, home_seen, &mut out);
                chain.clear();
            }
        }
    }
    out
}

/// The paths one chain of joined literals can name: each prefix joined with `/`, the home
/// key or `~` at its head read as the home, and a dotfile head taken under the home when the
/// snippet names the home elsewhere.
fn chain_paths(chain: &[String], home_seen: bool, out: &mut Vec<String>) {
    // Every literal may start a path (`"x", "/home/u/.netrc"`).
    for start in 0..chain.len().min(12) {
        if let Some(rest) = chain.get(start..) {
            chain_paths_from(rest, home_seen, out);
        }
    }
}

fn chain_paths_from(chain: &[String], home_seen: bool, out: &mut Vec<String>) {
    let plausible = |p: &str| {
        !p.is_empty() && p.len() < 1024 && !p.contains("://") && !p.contains(char::is_whitespace)
    };
    for n in 1..=chain.len().min(6) {
        let Some(parts) = chain.get(..n) else { break };
        let (head, rest) = match parts.split_first() {
            Some((h, r)) if is_home_key(h) || h == "~" => ("~".to_owned(), r),
            Some((h, r)) if h.starts_with("~/") || h.starts_with('/') || h.starts_with('.') => {
                (h.trim_end_matches('/').to_owned(), r)
            }
            Some((h, r)) if n == 1 && plausible(h) => (h.clone(), r),
            _ => return,
        };
        let mut path = head;
        for p in rest {
            let p = p.trim_matches('/');
            if !p.is_empty() {
                path.push('/');
                path.push_str(p);
            }
        }
        if !plausible(&path) {
            return;
        }
        if home_seen && path.starts_with('.') && !path.starts_with("./") && !path.starts_with("..")
        {
            out.push(format!("~/{path}"));
        }
        out.push(path);
    }
}

/// Tcl's words that name files: `~/…`, absolute and dot paths, and `$env(HOME)/…`
/// (`$::env(HOME)`) read as the home.
fn tcl_path_words(code: &str) -> Vec<String> {
    code.split(|c: char| c.is_whitespace() || "[]{};\"".contains(c))
        .filter_map(|w| {
            let home = w
                .strip_prefix("$env(HOME)")
                .or_else(|| w.strip_prefix("$::env(HOME)"))
                .or_else(|| w.strip_prefix("${env(HOME)}"));
            match home {
                Some(rest) if !rest.contains('$') => Some(format!("~{rest}")),
                None if w.starts_with('~') || w.starts_with('/') || w.starts_with('.') => {
                    Some(w.to_owned())
                }
                _ => None,
            }
        })
        .collect()
}

/// Secret data a snippet handles that these readers cannot follow by value: the whole
/// environment (`System.get_env()`, `Sys.getenv()`, `os:getenv()`, `string(ENV)`, `sys.env`,
/// `ENV.to_h`, `(System/getenv)`, `getEnvironment`, Tcl's `array get env`) and variables
/// whose name says they hold a credential, read through the language's lookup
/// (`System.fetch_env!("AWS_SECRET_ACCESS_KEY")`, `ENV["GITHUB_TOKEN"]`, `$env(TOKEN)`,
/// `%*ENV<TOKEN>`). With a network call in the same snippet, the caller takes them as sent.
pub(crate) fn env_sources(tongue: Tongue, code: &str) -> Vec<crate::model::FlowSource> {
    use crate::model::FlowSource;
    let toks = tokens(tongue, code);
    let mut out = Vec::new();
    for (k, tok) in toks.iter().enumerate() {
        let prev = k.checked_sub(1).and_then(|p| toks.get(p));
        let prev2 = k.checked_sub(2).and_then(|p| toks.get(p));
        let next = toks.get(k + 1);
        // A credential variable's name, given to an environment lookup.
        let var = match tok {
            Tok::Str(v, true) | Tok::Name(v) => Some(v),
            _ => None,
        };
        if let Some(v) = var
            && crate::flow::is_credential_variable(v)
        {
            let looked_up = matches!(prev, Some(Tok::Name(n)) if env_getter(n))
                || matches!(prev, Some(Tok::Punct('(' | '[' | '<')))
                    && matches!(prev2, Some(Tok::Name(n)) if env_getter(n));
            if looked_up {
                out.push(FlowSource::CredentialVariable { name: v.clone() });
            }
        }
        if let Tok::Name(n) = tok
            && env_dump(n, next, toks.get(k + 2))
        {
            out.push(FlowSource::Environment { by: n.clone() });
        }
    }
    out
}

/// A lookup of one environment variable: `getenv`, `System.get_env`, `fetch_env!`,
/// `Environment.GetEnvironmentVariable`, `ENV[…]`, `$env(…)`, `Deno.env.get`.
fn env_getter(name: &str) -> bool {
    let last = last_segment(name);
    matches!(
        last,
        "getenv"
            | "Getenv"
            | "get_env"
            | "getEnv"
            | "fetch_env"
            | "fetch_env!"
            | "GetEnvironmentVariable"
            | "ENV"
            | "env"
            | "environment"
            | "environ"
            | "LookupEnv"
    ) || (matches!(last, "get" | "apply" | "getOrElse" | "fetch")
        && name.split(['.', ':', '/']).any(is_env_container))
}

fn is_env_container(seg: &str) -> bool {
    matches!(seg, "ENV" | "env" | "environment" | "environ")
}

/// The whole environment read at once: a no-argument lookup (`System.get_env()`,
/// `Sys.getenv()`, `(System/getenv)`, `getEnvironment`), or the environment object itself
/// passed on or turned into text (`string(ENV)`, `sys.env.toString`, `ENV.to_h`).
fn env_dump(name: &str, next: Option<&Tok>, after: Option<&Tok>) -> bool {
    let segs: Vec<&str> = name.split(['.', ':', '/']).collect();
    let Some(pos) = segs.iter().position(|s| {
        matches!(
            *s,
            "getenv"
                | "get_env"
                | "getEnvironment"
                | "GetEnvironmentVariables"
                | "envPairs"
                | "Environ"
                | "ENV"
                | "env"
                | "environment"
                | "environ"
        )
    }) else {
        return false;
    };
    let getter = !segs.get(pos).is_some_and(|s| is_env_container(s));
    match segs.get(pos + 1..).unwrap_or(&[]) {
        // `System.get_env()`, `(System/getenv)`, Haskell's `getEnvironment >>= …`.
        [] if getter => match next {
            Some(Tok::Punct('(')) => after == Some(&Tok::Punct(')')),
            Some(Tok::Str(..) | Tok::Name(_) | Tok::Punct('[' | '<' | '{' | '.')) => false,
            _ => true,
        },
        // `string(ENV)`, `array get env`; not `ENV["X"]`, `$env(X)`, `Mix.env()`.
        [] => !matches!(
            next,
            Some(Tok::Str(..) | Tok::Punct('[' | '(' | '<' | '{' | '.' | '='))
        ),
        // `ENV.to_h.to_s`, `sys.env.toString`: conversions of the whole.
        tail => tail.iter().all(|m| {
            matches!(
                *m,
                "to_h"
                    | "to_s"
                    | "toString"
                    | "description"
                    | "inspect"
                    | "toObject"
                    | "toMap"
                    | "to_list"
                    | "entries"
                    | "items"
                    | "mkString"
                    | "Keys"
                    | "vars"
                    | "keys"
                    | "to_a"
                    | "toList"
            )
        }),
    }
}

fn name_char(t: Tongue, c: char) -> bool {
    c.is_alphanumeric()
        || matches!(c, '_' | '.')
        || (c == ':' && matches!(t, Tongue::Erlang | Tongue::Rust))
        || (matches!(t, Tongue::Scheme | Tongue::Lisp)
            && matches!(c, '-' | '/' | '*' | '!' | '?' | '<' | '>' | '=' | '+'))
        || (c == ':' && t == Tongue::Lisp)
        || (matches!(t, Tongue::Elixir | Tongue::Julia) && matches!(c, '!' | '?'))
}

/// Reads a delimited literal starting after its opening quote at `i`; returns the value, whether
/// it interpolates, and the index after the closing delimiter.
fn literal(t: Tongue, chars: &[char], mut i: usize, close: &[char]) -> (String, bool, usize) {
    let mut value = String::new();
    let mut exact = true;
    while let Some(&d) = chars.get(i) {
        if chars.get(i..i + close.len()) == Some(close) {
            return (value, exact, i + close.len());
        }
        i += 1;
        if d == '\\' {
            if let Some(&e) = chars.get(i) {
                value.push(escaped(e));
                i += 1;
            }
            continue;
        }
        // Julia `$x`/`$(…)`, Groovy/Scala `${…}`, Elixir `#{…}`, Dart `'${…}'`: computed at
        // run time.
        if (d == '$' && matches!(t, Tongue::Julia | Tongue::Jvm))
            || (t == Tongue::CallSyntax
                && (close == ['"'] || d == '$' && chars.get(i) == Some(&'{'))
                && (d == '$' || d == '#' && chars.get(i) == Some(&'{')))
            || (d == '#' && t == Tongue::Elixir && chars.get(i) == Some(&'{'))
        {
            exact = false;
            // The interpolated expression is code, whose own quotes (`"#{ENV["HOME"]}/x"`)
            // do not end the literal: it is kept whole, for `interpolated_home`.
            if let Some(&open @ ('{' | '(')) = chars.get(i) {
                let shut = if open == '{' { '}' } else { ')' };
                let end = matching(chars, i, open, shut).min(chars.len());
                value.push(d);
                value.extend(chars.get(i..=end).unwrap_or(&[]));
                i = end + 1;
                continue;
            }
        }
        value.push(d);
    }
    (value, exact, i)
}

/// The character a backslash escape stands for (`\n`, `\t`; others are themselves).
pub(crate) fn escaped(e: char) -> char {
    match e {
        'n' => '\n',
        't' => '\t',
        other => other,
    }
}

/// The index of the `close` matching the `open` at `i` (backslash escapes skipped), or the
/// end of the text when it is unbalanced.
fn matching(chars: &[char], mut i: usize, open: char, close: char) -> usize {
    let mut level = 0usize;
    while let Some(&d) = chars.get(i) {
        if d == '\\' {
            i += 2;
            continue;
        }
        if d == open {
            level += 1;
        } else if d == close {
            level = level.saturating_sub(1);
            if level == 0 {
                return i;
            }
        }
        i += 1;
    }
    chars.len()
}

/// Skips to the end of the line from `i`.
fn line_end(chars: &[char], mut i: usize) -> usize {
    while chars.get(i).is_some_and(|&c| c != '\n') {
        i += 1;
    }
    i
}

/// Skips a block comment opened before `i` and closed by `close`.
fn block_end(chars: &[char], mut i: usize, close: &[char]) -> usize {
    while i < chars.len() && chars.get(i..i + close.len()) != Some(close) {
        i += 1;
    }
    i + close.len()
}

fn tokens(t: Tongue, code: &str) -> Vec<Tok> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        let next = chars.get(i + 1).copied();
        let at = |s: &str| {
            let want: Vec<char> = s.chars().collect();
            chars.get(i..i + want.len()) == Some(want.as_slice())
        };
        if c.is_whitespace() {
            i += 1;
        } else if t == Tongue::Julia && at("#=") {
            i = block_end(&chars, i + 2, &['=', '#']);
        } else if matches!(t, Tongue::Scheme | Tongue::Lisp) && at("#|") {
            i = block_end(&chars, i + 2, &['|', '#']);
        } else if t == Tongue::Haskell && at("{-") {
            i = block_end(&chars, i + 2, &['-', '}']);
        } else if matches!(
            t,
            Tongue::Jvm | Tongue::Swift | Tongue::Rust | Tongue::CallSyntax
        ) && at("/*")
        {
            i = block_end(&chars, i + 2, &['*', '/']);
        } else if matches!(t, Tongue::AppleScript | Tongue::CallSyntax) && at("(*") {
            i = block_end(&chars, i + 2, &['*', ')']);
        } else if (c == '#'
            && matches!(
                t,
                Tongue::Julia | Tongue::Elixir | Tongue::AppleScript | Tongue::CallSyntax
            ))
            || (c == '%' && t == Tongue::Erlang)
            || (c == ';' && matches!(t, Tongue::Scheme | Tongue::Lisp))
            || (at("//")
                && matches!(
                    t,
                    Tongue::Jvm | Tongue::Swift | Tongue::Rust | Tongue::CallSyntax
                ))
            || (at("--") && t == Tongue::Haskell)
            || (at("--") && t == Tongue::AppleScript)
        {
            i = line_end(&chars, i);
        } else if at("\"\"\"")
            && matches!(
                t,
                Tongue::Julia | Tongue::Elixir | Tongue::Jvm | Tongue::Swift
            )
        {
            let (v, exact, end) = literal(t, &chars, i + 3, &['"', '"', '"']);
            out.push(Tok::Str(v, exact));
            i = end;
        } else if c == '"'
            || (c == '\''
                && matches!(
                    t,
                    Tongue::Elixir | Tongue::Erlang | Tongue::Jvm | Tongue::CallSyntax
                ))
        {
            let (v, exact, end) = literal(t, &chars, i + 1, &[c]);
            out.push(match (exact, interpolated_home(t, &v)) {
                (false, Some(home)) => Tok::Str(home, true),
                _ => Tok::Str(v, exact),
            });
            i = end;
        } else if c == '~'
            && t == Tongue::Elixir
            && next.is_some_and(|n| n.is_ascii_alphabetic())
            && matches!(chars.get(i + 2), Some('"' | '\''))
        {
            // A sigil (`~c"rm x"`, `~s'…'`): the literal that follows is the value.
            i += 2;
        } else if c == '`' && t == Tongue::CallSyntax {
            // Go's raw string is a literal; Crystal's backtick with `#{…}` runs a shell line
            // built at run time (a reverse shell's `` `#{line}` ``).
            let (v, _, end) = literal(t, &chars, i + 1, &['`']);
            if v.contains("#{") {
                out.push(Tok::Cmd(v, false));
            } else {
                out.push(Tok::Str(v, true));
            }
            i = end;
        } else if c == '`' && t == Tongue::Julia {
            let (v, exact, end) = literal(t, &chars, i + 1, &['`']);
            out.push(Tok::Cmd(v, exact));
            i = end;
        } else if name_char(t, c) && (c != '.' || next.is_some_and(char::is_alphabetic)) {
            let start = i;
            while chars.get(i).is_some_and(|&d| name_char(t, d)) {
                i += 1;
            }
            let word: String = chars.get(start..i).unwrap_or(&[]).iter().collect();
            // `.exec` after a call: the method name without the leading dot.
            out.push(Tok::Name(word.trim_start_matches('.').to_owned()));
            if word.starts_with('.') {
                // Keep the dot so a method on a literal is still seen as one.
                let last = out.len() - 1;
                out.insert(last, Tok::Punct('.'));
            }
        } else {
            out.push(Tok::Punct(c));
            i += 1;
        }
    }
    out
}

/// What a call in the tables does with its arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Api {
    /// Runs its first literal as a shell command line.
    Shell,
    /// Runs its literals as an argument vector.
    Argv,
    /// Deletes its first literal (recursively or not).
    Delete(bool),
    /// Writes its first literal (Julia's `open(p, "w")` checks the mode).
    Write,
    /// Opens a connection or fetches a URL.
    Network,
    /// Evaluates its literal as code of the same language.
    Eval,
    /// Runs the file its first argument names as code of the same language (`include(p)`,
    /// `evalfile(p)`, `Code.eval_file(p)`): a literal path is a script like any the line runs;
    /// a computed one (`include(download(URL))`) is code the guard cannot read.
    Source,
    /// Loads a native library.
    Load,
    /// Changes the permissions or owner of its first argument.
    Chmod,
}

fn api(t: Tongue, name: &str) -> Option<Api> {
    let name = name
        .strip_prefix("Base.")
        .or_else(|| name.strip_prefix("Kernel."))
        .unwrap_or(name);
    let last = name.rsplit(['.', ':']).next().unwrap_or(name);
    Some(match t {
        Tongue::Julia => match name {
            "rm" | "Filesystem.rm" => Api::Delete(false),
            "write" | "open" | "cp" | "mv" => Api::Write,
            "download" | "Downloads.download" | "Downloads.request" | "connect" | "listen"
            | "HTTP.get" | "HTTP.post" | "HTTP.request" | "Sockets.connect" => Api::Network,
            "eval" | "include_string" | "Meta.parse" | "Core.eval" => Api::Eval,
            "include" | "evalfile" | "Base.include" => Api::Source,
            "dlopen" | "Libdl.dlopen" => Api::Load,
            "chmod" | "chown" => Api::Chmod,
            _ => return None,
        },
        // Elixir's raising variants (`Req.post!`, `File.rm_rf!`) do what the plain call does.
        Tongue::Elixir if name.ends_with('!') && !name.starts_with("File.") => {
            return api(t, name.trim_end_matches('!'));
        }
        Tongue::Elixir => match name {
            "System.shell" | "os.cmd" => Api::Shell,
            "System.cmd" | "Port.open" => Api::Argv,
            "File.rm" | "File.rm!" | "File.rmdir" | "File.rmdir!" => Api::Delete(false),
            "File.rm_rf" | "File.rm_rf!" => Api::Delete(true),
            "File.write" | "File.write!" | "File.open" | "File.open!" | "File.cp" | "File.cp!"
            | "File.cp_r" | "File.rename" => Api::Write,
            "httpc.request"
            | "gen_tcp.connect"
            | "gen_tcp.listen"
            | "HTTPoison.get"
            | "HTTPoison.post"
            | "Req.get"
            | "Req.post"
            | "Req.put"
            | "Req.request"
            | "HTTPoison.put"
            | "HTTPoison.request"
            | "Tesla.get"
            | "Tesla.post"
            | "Finch.request"
            | "hackney.request"
            | "gen_udp.open"
            | "ssl.connect"
            | "Mix.Utils.read_path" => Api::Network,
            "File.chmod" | "File.chmod!" | "File.chown" | "File.chown!" => Api::Chmod,
            "Code.eval_string" | "Code.eval_quoted" | "Code.compile_string" => Api::Eval,
            "Code.eval_file" | "Code.require_file" | "Code.compile_file" => Api::Source,
            "erlang.load_nif" => Api::Load,
            _ => return None,
        },
        Tongue::Erlang => match name {
            "os:cmd" => Api::Shell,
            "open_port" | "erlang:open_port" => Api::Argv,
            "file:delete" | "file:del_dir" => Api::Delete(false),
            "file:del_dir_r" => Api::Delete(true),
            "file:write_file" | "file:open" | "file:copy" | "file:rename" => Api::Write,
            "httpc:request" | "gen_tcp:connect" | "gen_tcp:listen" | "gen_udp:open" => Api::Network,
            "erl_eval:exprs" | "erl_scan:string" => Api::Eval,
            "file:eval" | "file:script" => Api::Source,
            "erlang:load_nif" => Api::Load,
            "file:change_mode" | "file:change_owner" => Api::Chmod,
            _ => return None,
        },
        Tongue::Scheme => match name {
            // MIT Scheme's `run-shell-command`.
            "system" | "process" | "shell-execute" | "open-input-pipe" | "open-output-pipe"
            | "run-shell-command" | "open-pipe" | "process/ports" | "process*/ports" => Api::Shell,
            "system*"
            | "process*"
            | "subprocess"
            | "open-pipe*"
            | "spawn"
            | "execl"
            | "execlp"
            | "run-synchronous-subprocess"
            | "execle"
            | "execv"
            | "execvp" => Api::Argv,
            "delete-file" | "delete-directory" | "rmdir" => Api::Delete(false),
            "delete-directory/files" => Api::Delete(true),
            "call-with-output-file"
            | "with-output-to-file"
            | "open-output-file"
            | "copy-file"
            | "rename-file-or-directory"
            | "display-to-file"
            | "write-to-file" => Api::Write,
            "tcp-connect" | "tcp-listen" | "get-pure-port" | "get-impure-port" | "http-get"
            | "http-request" | "http-post" | "http-put" | "post-pure-port" | "put-pure-port"
            | "post-impure-port" | "socket" | "connect" | "post" | "put" => Api::Network,
            "chmod" | "chown" | "file-or-directory-permissions" => Api::Chmod,
            "eval" | "eval-string" | "primitive-eval" | "load" => Api::Eval,
            "ffi-lib" | "load-extension" | "dynamic-link" | "load-foreign-library" => Api::Load,
            _ => return None,
        },
        Tongue::Jvm if name.ends_with("System.load") || name.ends_with("System.loadLibrary") => {
            Api::Load
        }
        // Scala's os-lib and requests-scala, Kotlin's and Groovy's HTTP clients, by their
        // module (their method names alone — `all`, `post` — are too common to read).
        Tongue::Jvm
            if matches!(name, "os.remove.all" | "os.remove")
                || name.starts_with("requests.")
                || name.starts_with("os.write")
                || name.starts_with("os.perms")
                || name.starts_with("khttp.")
                || name.starts_with("Fuel.") =>
        {
            match name {
                "os.remove.all" => Api::Delete(true),
                "os.remove" => Api::Delete(false),
                _ if name.starts_with("os.write") => Api::Write,
                _ if name.starts_with("os.perms") => Api::Chmod,
                _ => Api::Network,
            }
        }
        Tongue::Jvm => match last {
            "exec" | "execute" | "Process" => Api::Shell,
            "ProcessBuilder" | "command" | "commandLine" => Api::Argv,
            "deleteDir" | "deleteDirectory" | "forceDelete" | "deleteRecursively" => {
                Api::Delete(true)
            }
            "delete" | "deleteIfExists" => Api::Delete(false),
            "write" | "writeString" | "newOutputStream" | "FileWriter" | "FileOutputStream"
            | "PrintWriter" | "setText" | "writeText" | "appendText" | "writeBytes"
            | "appendBytes" | "leftShift" => Api::Write,
            "URL" | "URI" | "Socket" | "ServerSocket" | "HttpClient" | "toURL" | "openStream"
            | "fromURL" | "openConnection" | "newHttpClient" | "HttpURLConnection"
            | "OkHttpClient" | "DatagramSocket" => Api::Network,
            "setPosixFilePermissions" | "setExecutable" | "setWritable" | "setReadable" => {
                Api::Chmod
            }
            "evaluate" | "me" | "GroovyShell" | "eval" => Api::Eval,
            _ => return None,
        },
        Tongue::Swift => match last {
            "system" | "popen" => Api::Shell,
            "Process" | "posix_spawn" | "posix_spawnp" | "execv" | "execvp" | "launchedProcess" => {
                Api::Argv
            }
            "removeItem" | "trashItem" => Api::Delete(true),
            "unlink" | "remove" | "rmdir" => Api::Delete(false),
            "createFile" | "write" | "copyItem" | "moveItem" | "createDirectory" | "fopen" => {
                Api::Write
            }
            "URL" | "URLSession" | "dataTask" | "downloadTask" | "uploadTask" | "NWConnection"
            | "NWListener" | "socket" => Api::Network,
            "dlopen" => Api::Load,
            _ => return None,
        },
        Tongue::Haskell => match last {
            "callCommand" | "system" | "spawnCommand" | "shell" | "runCommand" => Api::Shell,
            "callProcess"
            | "readProcess"
            | "readProcessWithExitCode"
            | "rawSystem"
            | "spawnProcess"
            | "proc"
            | "runProcess"
            | "createProcess"
            | "executeFile" => Api::Argv,
            "removeDirectoryRecursive" | "removePathForcibly" => Api::Delete(true),
            "removeFile" | "removeDirectory" | "removeLink" => Api::Delete(false),
            "writeFile" | "appendFile" | "copyFile" | "renameFile" | "renameDirectory"
            | "renamePath" | "openFile" | "withFile" | "createDirectory" => Api::Write,
            "simpleHttp" | "httpLBS" | "httpBS" | "httpJSON" | "openURI" | "connectTo"
            | "connect" | "openTCPConnection" | "getResponseBody" | "parseRequest" => Api::Network,
            "runInterpreter" | "interpret" | "eval" => Api::Eval,
            "dlopen" => Api::Load,
            "setPermissions" | "setFileMode" | "setOwnerAndGroup" => Api::Chmod,
            _ => return None,
        },
        Tongue::Rust => match name {
            _ if name.ends_with("fs::remove_dir_all") => Api::Delete(true),
            _ if name.ends_with("fs::remove_file") || name.ends_with("fs::remove_dir") => {
                Api::Delete(false)
            }
            _ if name.contains("fs::")
                && matches!(
                    last,
                    "write" | "copy" | "rename" | "create_dir_all" | "hard_link" | "symlink"
                ) =>
            {
                Api::Write
            }
            _ if name.ends_with("File::create") || name.ends_with("OpenOptions::new") => Api::Write,
            _ if name.ends_with("TcpStream::connect")
                || name.ends_with("UdpSocket::bind")
                || name.ends_with("TcpListener::bind")
                || matches!(
                    name,
                    "reqwest::get"
                        | "reqwest::blocking::get"
                        | "reqwest::Client::new"
                        | "reqwest::blocking::Client::new"
                        | "ureq::get"
                        | "ureq::post"
                        | "ureq::agent"
                ) =>
            {
                Api::Network
            }
            _ if name.ends_with("libc::system") || name.ends_with("libc::popen") => Api::Shell,
            _ if name.ends_with("Library::new") || name.ends_with("libc::dlopen") => Api::Load,
            _ => return None,
        },
        Tongue::Lisp => lisp_api(name, last)?,
        Tongue::CallSyntax => call_syntax_api(name, last)?,
        Tongue::Tcl
        | Tongue::AppleScript
        | Tongue::Forth
        | Tongue::Macro
        | Tongue::Dc
        | Tongue::Unread => return None,
    })
}

/// The Lisps' standard and common-library calls (`last`: the name after its package or
/// namespace, `uiop:run-program` → `run-program`, `clojure.java.shell/sh` → `sh`).
fn lisp_api(name: &str, last: &str) -> Option<Api> {
    let last = last.rsplit('/').next().unwrap_or(last);
    Some(match (name, last) {
        // Fennel is Lua: its standard library keeps Lua's names (`os.execute`, `os.remove`).
        ("os.execute" | "io.popen" | "os/shell", _)
        | (
            _,
            "run-shell-command"
            | "shell-command"
            | "shell-command-to-string"
            | "system"
            | "shell"
            | "run-program"
            | "process"
            | "launch-program"
            | "async-shell-command"
            | "run",
        ) => Api::Shell,
        ("os/execute" | "os/spawn", _)
        | (
            _,
            "sh" | "call-process" | "start-process" | "process-file" | "make-process" | "exec"
            // CHICKEN's `(process-run "sh" (list …))`, `(process "sh" …)`.
            | "process-run"
            | "process-spawn",
        ) => {
            Api::Argv
        }
        (
            _,
            "delete-tree"
            | "delete-directory"
            | "delete-directory-tree"
            | "rm-rf"
            | "rmrf"
            // Hy calls Python's library by its names (`(shutil.rmtree p)`).
            | "rmtree"
            | "delete-recursively",
        ) => Api::Delete(true),
        ("os.remove", _) | (_, "delete-file" | "delete-if-exists" | "rmdir" | "delete-on-exit") => {
            Api::Delete(false)
        }
        // `delete`, `rm`, `copy`, `move` are also sequence and data functions (`(delete x
        // list)`): only a namespaced file call (`fs/delete`, `io/copy`) is one.
        (_, "delete" | "rm") if name.contains('/') => Api::Delete(false),
        (_, "copy" | "move") if name.contains('/') => Api::Write,
        (
            _,
            "spit"
            | "write-region"
            | "write-file"
            | "append-to-file"
            | "with-open-file"
            | "copy-file"
            | "rename-file"
            | "write-string-into-file"
            | "write-bytes"
            | "write-lines"
            | "spit-file",
        ) => Api::Write,
        (
            _,
            "url-retrieve"
            | "url-retrieve-synchronously"
            | "url-copy-file"
            | "http-request"
            | "open-network-stream"
            | "make-network-process"
            | "socket-connect",
        ) => Api::Network,
        // `(get m :k)` is a map lookup; `http/get`, `client/post`, `dex:get` fetch.
        (_, "get" | "post" | "put" | "request" | "connect")
            if ["http", "client", "curl", "dex", "socket", "net", "drakma"]
                .iter()
                .any(|ns| name.to_ascii_lowercase().contains(ns)) =>
        {
            Api::Network
        }
        (_, "eval" | "load-string" | "eval-string" | "read-from-string" | "eval-expression") => {
            Api::Eval
        }
        (_, "load" | "load-file" | "require-file") => Api::Source,
        (_, "load-shared-object" | "load-foreign-library" | "module-load" | "dlopen") => Api::Load,
        _ => return None,
    })
}

/// Calls of Raku, Crystal, Nim, D, Octave/MATLAB, gnuplot, OCaml and C that run, delete,
/// write or fetch (`last`: the name after its module, `std.file.rmdirRecurse` →
/// `rmdirRecurse`, `Sys.command` → `command`).
fn call_syntax_api(name: &str, last: &str) -> Option<Api> {
    Some(match (name, last) {
        // OCaml's `Sys.command` (its `Sys.remove`, `Unix.unlink` end in a listed name); V's
        // and Lua-like `os.execute`/`os.system` run a shell line.
        ("Sys.command" | "os.execute" | "os.system", _)
        | (
            _,
            // PARI/GP's `extern("cmd")` runs a command and reads its output as GP.
            "system" | "shell" | "qx" | "popen" | "execShellCmd" | "execCmd" | "execCmdEx" | "extern"
            | "executeShell" | "spawnShell" | "pipeShell" | "unix" | "dos" | "startProcess"
            // NimScript (`nim e x.nims`, `config.nims`): `exec "cmd"` and the compile-time
            // `gorge`/`staticExec` run a shell line.
            | "exec" | "gorge" | "gorgeEx" | "staticExec",
        ) => Api::Shell,
        (
            _,
            "run" | "execute" | "spawnProcess" | "pipeProcess" | "execv" | "execvp" | "execve"
            | "execl" | "execlp" | "posix_spawn" | "posix_spawnp" | "create_process"
            // SWI-Prolog's `process_create(path(sh), ['-c', …], [])`.
            | "process_create"
            | "open_process" | "Command" | "CommandContext" | "runSync" | "fork" | "vfork",
        )
        // Dart's `Process.start`, Zig's `std.process.Child.init(&.{…})`.
        | ("Process.start" | "Process.startSync" | "ChildProcess.init" | "ChildProcess.exec", _) => {
            Api::Argv
        }
        _ if name.ends_with("Child.init") || name.ends_with("Child.run") => Api::Argv,
        (
            _,
            "removeDir"
            | "RemoveAll"
            | "deleteTree"
            | "deleteTreeAbsolute"
            | "rmdir_all"
            | "rmdirRecurse"
            | "rm_rf"
            | "rm_r"
            | "rmtree"
            | "removeDirectoryRecursive"
            // NimScript's `rmDir` removes a tree.
            | "rmDir"
            | "remove_tree"
            | "deleteSync",
        )
        | ("Directory.Delete" | "System.IO.Directory.Delete", _) => Api::Delete(true),
        (
            _,
            "removeFile" | "tryRemoveFile" | "remove" | "unlink" | "rmdir" | "delete" | "rm" | "rmFile"
            | "recycle" | "Remove" | "deleteFile" | "deleteFileAbsolute" | "deleteDir"
            | "deleteDirAbsolute" | "delete_file" | "delete_directory",
        )
        | ("File.Delete" | "System.IO.File.Delete", _) => Api::Delete(false),
        (
            _,
            "writeFile" | "spurt" | "copyFile" | "moveFile" | "copyDir" | "moveDir" | "rename"
            | "copy" | "mv" | "cp" | "symlink" | "createSymlink" | "WriteAllText" | "WriteAllBytes"
            | "WriteAllLines" | "AppendAllText" | "CreateSymbolicLink",
        )
        // Crystal's and Ruby-like `File.write(p, data)` (a bare `write` prints elsewhere).
        | ("File.write" | "File.append", _) => Api::Write,
        (
            _,
            "urlread" | "urlwrite" | "webread" | "webwrite" | "websave" | "newHttpClient"
            | "getContent" | "postContent" | "downloadFile" | "connect" | "dial" | "download"
            | "HttpClient" | "WebClient" | "DownloadString" | "DownloadFile" | "GetStringAsync"
            | "PostAsync" | "TcpClient" | "postUrl" | "openUrl" | "putUrl" | "UploadFile"
            | "UploadString" | "UploadData" | "http_open" | "http_post" | "http_get",
        )
        | (
            "http.Post" | "http.Get" | "http.PostForm" | "http.NewRequest" | "net.Dial"
            | "http.post" | "http.get" | "http.fetch" | "http.post_json" | "http.post_form"
            // Crystal's `HTTP::Client.post` (the `::` splits the name), Raku's
            // `IO::Socket::INET.new`.
            | "Client.post" | "Client.get" | "Client.put" | "Client.exec" | "Client.new"
            | "INET.new" | "Socket.connect" | "RawSocket.connect" | "SecureSocket.connect"
            // D's `std.net.curl.post(url, data)`.
            | "post" | "put",
            _,
        ) => Api::Network,
        _ if name.starts_with("HTTP::Client") || name.starts_with("TCPSocket") => Api::Network,
        (_, "EVAL" | "eval" | "evalin" | "evalc" | "mixin" | "EvaluateAsync") => Api::Eval,
        (_, "chmod" | "setFilePermissions" | "chown" | "SetUnixFileMode") => Api::Chmod,
        (_, "dlopen" | "loadlibrary") => Api::Load,
        _ => return None,
    })
}

/// Rust's `Command::new(P).arg(A).args([B, C])…`: the program and the arguments its builder
/// chain adds, read from the call at `open` (`(` after `Command::new`) on. A computed program
/// or argument makes the command run-time (inexact or dynamic).
fn rust_command(toks: &[Tok], open: usize, out: &mut Vec<Finding>) {
    let first = args(toks, open);
    if !first.first_literal || first.lits.len() != 1 {
        dynamic_spawn(out);
        return;
    }
    let mut lits = first.lits;
    let mut exact = true;
    let mut j = first.end + 1;
    while toks.get(j) == Some(&Tok::Punct('.')) {
        let (Some(Tok::Name(method)), Some(Tok::Punct('('))) = (toks.get(j + 1), toks.get(j + 2))
        else {
            break;
        };
        let a = args(toks, j + 2);
        if matches!(method.as_str(), "arg" | "args") {
            let literal = if method == "arg" {
                a.first_literal && a.lits.len() == 1
            } else {
                !a.lits.is_empty()
            };
            exact &= literal;
            lits.extend(a.lits);
        }
        j = a.end + 1;
    }
    if !exact {
        lits = lits.into_iter().map(|(v, _)| (v, false)).collect();
    }
    push_argv(lits, out);
}

/// The literal arguments of the call whose argument list opens at `open` (`(`), up to its
/// matching `)`: strings (in order) and command literals; `first_literal` says whether the first
/// argument is one literal; `recursive` whether a `recursive=true` keyword appears.
struct Args {
    lits: Vec<(String, bool)>,
    first_literal: bool,
    recursive: bool,
    system_symbol: bool,
    /// The first argument is `stdout`, `stderr` or `devnull`.
    std_stream: bool,
    /// An operator joins literals to other values (`"rm -rf " + home`): the literals are
    /// parts of one computed string, not separate arguments.
    joined: bool,
    /// The first argument (or the receiver) is a path built from the home (`homedir()`,
    /// `joinpath(homedir(), ".ssh")`): that path.
    home: Option<String>,
    /// The argument vector read argument by argument when one is not a literal (see
    /// [`element_argv`]).
    argv: Option<Vec<(String, bool)>>,
    /// A shell line concatenated from literals and the home (see [`concat_home`]).
    concat: Option<String>,
    end: usize,
}

fn args(toks: &[Tok], open: usize) -> Args {
    let mut a = Args {
        lits: Vec::new(),
        first_literal: false,
        recursive: false,
        system_symbol: false,
        std_stream: matches!(toks.get(open + 1), Some(Tok::Name(n)) if matches!(n.as_str(), "stdout" | "stderr" | "devnull")),
        joined: false,
        home: None,
        argv: None,
        concat: None,
        end: toks.len(),
    };
    let mut depth = 0usize;
    let mut j = open + 1;
    while let Some(tok) = toks.get(j) {
        match tok {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') if depth == 0 => {
                a.end = j;
                break;
            }
            Tok::Punct(')' | ']' | '}') => depth -= 1,
            Tok::Punct('+' | '&' | '~' | '.') => a.joined = true,
            Tok::Str(v, exact) => {
                // The first argument is one literal only when nothing joins it to more
                // (`"rm " + home`, `"a" <> b`, `"x" ++ Y`): an operator after it makes the
                // argument a value computed at run time. Swift's argument label
                // (`removeItem(atPath: ".build")`) is no part of it.
                let labelled = j == open + 3
                    && matches!(toks.get(open + 1), Some(Tok::Name(_)))
                    && toks.get(open + 2) == Some(&Tok::Punct(':'));
                if j == open + 1 || labelled {
                    a.first_literal = !matches!(
                        toks.get(j + 1),
                        Some(Tok::Punct(c)) if !matches!(c, ',' | ')' | ']' | '}' | ';')
                    );
                }
                a.lits.push((v.clone(), *exact));
            }
            Tok::Name(n) if n == "recursive" || n == "recursive:" => {
                a.recursive = matches!(toks.get(j + 2), Some(Tok::Name(v)) if v == "true")
                    || matches!(toks.get(j + 1), Some(Tok::Name(v)) if v == "true");
            }
            Tok::Name(n) if n == "system" && toks.get(j - 1) == Some(&Tok::Punct(':')) => {
                a.system_symbol = true;
            }
            _ => {}
        }
        j += 1;
    }
    a
}

/// Reads the calls of a token stream (every language here but Tcl).
fn calls(t: Tongue, toks: &[Tok], out: &mut Vec<Finding>) {
    for (i, tok) in toks.iter().enumerate() {
        match tok {
            Tok::Cmd(v, exact) => out.push(Finding::Shell {
                code: v.clone(),
                exact: *exact,
            }),
            // AppleScript `do shell script "…"`.
            Tok::Name(n) if t == Tongue::AppleScript && n == "do" => {
                if matches!(toks.get(i + 1..i + 3), Some([Tok::Name(a), Tok::Name(b)]) if a == "shell" && b == "script")
                {
                    literal_or_dynamic(toks.get(i + 3), Api::Shell, out);
                }
            }
            // Finder's `delete` (to the Trash) and `empty trash`, `System Events`' `delete`:
            // AppleScript's own file deletions, whose targets are object specifiers (`every
            // item of home`) the reader cannot place.
            Tok::Name(n) if t == Tongue::AppleScript && (n == "delete" || n == "empty") => {
                let target = toks.get(i + 1);
                let deletes = n == "delete" || matches!(target, Some(Tok::Name(w)) if w == "trash");
                if deletes && !matches!(target, Some(Tok::Punct(_)) | None) {
                    out.push(Finding::Delete {
                        path: String::new(),
                        exact: false,
                        recursive: true,
                    });
                }
            }
            // Scala `"cmd".!` / `.!!`, `Seq("rm", "x").!` (Groovy's `.execute()` is a name).
            Tok::Punct('.') if t == Tongue::Jvm => {
                if toks.get(i + 1) != Some(&Tok::Punct('!')) {
                    continue;
                }
                match i.checked_sub(1).and_then(|p| toks.get(p)) {
                    Some(Tok::Str(v, exact)) => out.push(Finding::Shell {
                        code: v.clone(),
                        exact: *exact,
                    }),
                    Some(Tok::Punct(']' | ')')) => {
                        let lits = receiver_lits(toks, i - 1);
                        push_argv(lits, out);
                    }
                    _ => dynamic_spawn(out),
                }
            }
            Tok::Name(n) => {
                let (open, scheme_head) = if matches!(t, Tongue::Scheme | Tongue::Lisp) {
                    // `(name args…)`: the name is the head of a list, its arguments follow it.
                    (i, i > 0 && toks.get(i - 1) == Some(&Tok::Punct('(')))
                } else {
                    (i + 1, toks.get(i + 1) == Some(&Tok::Punct('(')))
                };
                // Calls without parentheses: Elixir's `System.cmd "rm", […]`, Haskell's
                // application `removeFile "x"` (a parenthesised argument is read as a call's).
                // Gradle's Groovy `commandLine 'sh', '-c', '…'` too.
                let bare = (matches!(t, Tongue::Elixir | Tongue::Haskell | Tongue::CallSyntax)
                    || t == Tongue::Jvm && n == "commandLine")
                    && matches!(toks.get(i + 1), Some(Tok::Str(..)));
                // Haskell's `getHomeDirectory >>= removeDirectoryRecursive`: the home handed
                // to a call in the tables.
                if t == Tongue::Haskell
                    && !scheme_head
                    && !bare
                    && i >= 4
                    && matches!(
                        toks.get(i - 3..i),
                        Some([Tok::Punct('>'), Tok::Punct('>'), Tok::Punct('=')])
                    )
                    && matches!(toks.get(i - 4), Some(Tok::Name(h)) if is_home_name(h))
                    && let Some(kind) = api(t, n)
                {
                    let mut a = bare_args(toks, i + 1);
                    a.home = Some("~".to_owned());
                    a.first_literal = false;
                    apply(t, n, kind, &a, out);
                    continue;
                }
                if !scheme_head && !bare {
                    continue;
                }
                if t == Tongue::Julia && n == "ccall" {
                    let a = args(toks, open);
                    if a.system_symbol {
                        match a.lits.last() {
                            Some((v, exact)) => out.push(Finding::Shell {
                                code: v.clone(),
                                exact: *exact,
                            }),
                            None => dynamic_spawn(out),
                        }
                    } else if a.lits.iter().any(|(l, _)| l.contains('/')) {
                        out.push(Finding::Dynamic(
                            "calls into a native library loaded from a file",
                        ));
                    }
                    continue;
                }
                // C#'s `Process.Start("rm", "-rf x")`: the file name and its argument string,
                // joined, are the command line.
                if t == Tongue::CallSyntax && n.ends_with("Process.Start") {
                    let a = args(toks, open);
                    if a.lits.is_empty() {
                        dynamic_spawn(out);
                    } else {
                        out.push(Finding::Shell {
                            code: a
                                .lits
                                .iter()
                                .map(|(v, _)| v.as_str())
                                .collect::<Vec<_>>()
                                .join(" "),
                            exact: a.first_literal && a.lits.iter().all(|(_, e)| *e),
                        });
                    }
                    continue;
                }
                if t == Tongue::Rust && (n == "Command::new" || n.ends_with("::Command::new")) {
                    rust_command(toks, open, out);
                    continue;
                }
                if t == Tongue::Julia && n == "run" {
                    // `run(`…`)` is read from the command literal; `run(x)` runs a value.
                    let a = args(toks, open);
                    let has_cmd = toks
                        .get(open..a.end)
                        .is_some_and(|s| s.iter().any(|t| matches!(t, Tok::Cmd(..))));
                    if !has_cmd {
                        dynamic_spawn(out);
                    }
                    continue;
                }
                // Clojure's `slurp` reads a file or a URL: one whose argument starts with a
                // URL literal (`(slurp (str "https://x/?k=" …))`) is a fetch.
                if t == Tongue::Lisp && last_segment(n) == "slurp" {
                    let a = args(toks, open);
                    if a.lits
                        .first()
                        .is_some_and(|(v, _)| v.starts_with("http://") || v.starts_with("https://"))
                    {
                        apply(t, n, Api::Network, &a, out);
                    }
                    continue;
                }
                let Some(kind) = api(t, n) else { continue };
                // Groovy `["rm", "-rf", "x"].execute()`: a list runs as an argument vector.
                if t == Tongue::Jvm
                    && n == "execute"
                    && i >= 2
                    && toks.get(i - 2) == Some(&Tok::Punct(']'))
                {
                    push_argv(receiver_lits(toks, i - 2), out);
                    continue;
                }
                let mut a = if bare {
                    bare_args(toks, i + 1)
                } else {
                    let mut a = args(toks, open);
                    // A method on a constructed object (`new File("x").deleteDir()`) acts on
                    // the object's literal.
                    // Kotlin's `File(p).appendText(data)`, `.writeText(…)`: the receiver is
                    // the file, the argument its content.
                    let receiver_target = t == Tongue::Jvm
                        && matches!(
                            last_segment(n),
                            "writeText" | "appendText" | "writeBytes" | "appendBytes" | "setText"
                        );
                    if (a.lits.is_empty() || receiver_target)
                        && i >= 2
                        && toks.get(i - 1) == Some(&Tok::Punct('.'))
                    {
                        a.lits = receiver_lits(toks, i - 2);
                        a.joined = true;
                        // `"ls".execute()`, `("ls").execute()`, `new File("x").delete()` act on
                        // one literal; `("rm -rf " + home).execute()` on a computed value.
                        let close = i - 2;
                        a.first_literal = !a.lits.is_empty()
                            && match toks.get(close) {
                                Some(Tok::Str(..)) => true,
                                Some(Tok::Punct(')')) => {
                                    close >= 2
                                        && matches!(toks.get(close - 1), Some(Tok::Str(..)))
                                        && toks.get(close - 2) == Some(&Tok::Punct('('))
                                }
                                _ => false,
                            };
                        a.home = receiver_home(toks, close);
                    }
                    a
                };
                // The home where an argument spells it the language's way (only read when
                // the first argument is not one literal, or for an argument vector).
                if !a.first_literal || kind == Api::Argv {
                    let from = if bare { i + 1 } else { open + 1 };
                    if a.home.is_none()
                        && let Some((s, e)) = arg_spans(t, toks, from, a.end).first().copied()
                        && !matches!(toks.get(s..e), Some([Tok::Str(..)]))
                    {
                        a.home = toks.get(s..e).and_then(home_path);
                        if kind == Api::Shell {
                            a.concat = toks.get(s..e).and_then(concat_home);
                        }
                    }
                    if kind == Api::Argv {
                        let end = if bare { bare_end(toks, from) } else { a.end };
                        a.argv = element_argv(t, toks, from, end);
                    }
                }
                // Names shared with data functions (`arr.remove(1)` in D, `delete(s, 0)` in
                // Nim, `run` and `copy` everywhere) are read as file or process calls only
                // when a literal names what they act on; the unambiguous ones
                // (`removeDir`, `execShellCmd`) keep the never-dropped rule.
                // (`execute(["sh", "-c", "x"])`: a literal argument vector names what runs.)
                if t == Tongue::CallSyntax
                    && (!a.first_literal || a.lits.is_empty())
                    && (kind != Api::Argv
                        || bare
                        || a.lits.is_empty()
                        || toks.get(open + 1) != Some(&Tok::Punct('[')))
                    && matches!(
                        n.rsplit(['.', ':']).next().unwrap_or(n),
                        "remove"
                            | "delete"
                            | "rm"
                            | "run"
                            | "execute"
                            | "copy"
                            | "cp"
                            | "mv"
                            | "rename"
                            | "connect"
                            | "download"
                            | "dial"
                            | "recycle"
                            | "post"
                            | "put"
                    )
                {
                    continue;
                }
                apply(t, n, kind, &a, out);
            }
            _ => {}
        }
    }
}

/// Elixir's call without parentheses (`System.cmd "rm", ["-rf", "x"]`): the literals that
/// follow, through list brackets and commas.
fn bare_args(toks: &[Tok], from: usize) -> Args {
    let mut a = Args {
        lits: Vec::new(),
        first_literal: true,
        recursive: false,
        system_symbol: false,
        std_stream: false,
        joined: false,
        home: None,
        argv: None,
        concat: None,
        end: from,
    };
    let mut j = from;
    while let Some(tok) = toks.get(j) {
        match tok {
            Tok::Str(v, exact) => a.lits.push((v.clone(), *exact)),
            Tok::Punct(',' | '[' | ']') => {}
            _ => break,
        }
        j += 1;
    }
    a.end = j;
    a
}

/// The literals of the receiver ending at `close` (a literal, `[…]` or a call's `(…)`).
fn receiver_lits(toks: &[Tok], close: usize) -> Vec<(String, bool)> {
    match toks.get(close) {
        Some(Tok::Str(v, e)) => vec![(v.clone(), *e)],
        Some(Tok::Punct(c @ (']' | ')'))) => {
            let open_c = if *c == ']' { '[' } else { '(' };
            let mut depth = 0usize;
            let mut j = close;
            let mut lits = Vec::new();
            loop {
                match toks.get(j) {
                    Some(Tok::Punct(p)) if *p == *c => depth += 1,
                    Some(Tok::Punct(p)) if *p == open_c => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            break;
                        }
                    }
                    Some(Tok::Str(v, e)) => lits.push((v.clone(), *e)),
                    None => break,
                    _ => {}
                }
                match j.checked_sub(1) {
                    Some(p) => j = p,
                    None => break,
                }
            }
            lits.reverse();
            lits
        }
        _ => Vec::new(),
    }
}

/// Where the arguments of a call without parentheses end (`run "rm", "-rf", $*HOME;`,
/// `callProcess "rm" ["-rf", h] >>= …`): at a statement end, an operator that takes the
/// call's result, or a bracket the call sits in.
fn bare_end(toks: &[Tok], from: usize) -> usize {
    let mut depth = 0usize;
    for (j, tok) in toks.iter().enumerate().skip(from) {
        match tok {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}' | ';' | '>' | '|' | '=') if depth == 0 => return j,
            Tok::Punct(')' | ']' | '}') => depth -= 1,
            _ => {}
        }
    }
    toks.len()
}

/// The home path a constructed receiver names (`java.io.File(System.getProperty("user.home"))
/// .deleteRecursively()`, `Directory(Platform.environment['HOME']!).deleteSync()`).
fn receiver_home(toks: &[Tok], close: usize) -> Option<String> {
    if toks.get(close) != Some(&Tok::Punct(')')) {
        return None;
    }
    let mut depth = 0usize;
    let mut j = close;
    loop {
        match toks.get(j) {
            Some(Tok::Punct(')')) => depth += 1,
            Some(Tok::Punct('(')) => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return toks.get(j + 1..close).and_then(home_path);
                }
            }
            None => return None,
            _ => {}
        }
        j = j.checked_sub(1)?;
    }
}

fn dynamic_spawn(out: &mut Vec<Finding>) {
    out.push(Finding::Effect {
        op: EffectOp::Spawn,
        path: None,
        recursive: false,
    });
    out.push(Finding::Dynamic("runs a command built at run time"));
}

fn push_argv(lits: Vec<(String, bool)>, out: &mut Vec<Finding>) {
    if lits.is_empty() {
        dynamic_spawn(out);
        return;
    }
    let exact = lits.iter().all(|(_, e)| *e);
    let argv: Vec<String> = lits.into_iter().map(|(v, _)| v).collect();
    out.push(Finding::Shell {
        code: shell_join(&argv),
        exact,
    });
}

fn literal_or_dynamic(tok: Option<&Tok>, kind: Api, out: &mut Vec<Finding>) {
    match tok {
        Some(Tok::Str(v, exact)) if kind == Api::Shell => out.push(Finding::Shell {
            code: v.clone(),
            exact: *exact,
        }),
        _ => dynamic_spawn(out),
    }
}

/// A native library load: one named by a bare soname (`libc.so.6`, `"crypto"`) comes from the
/// system's library path; one named by a path (`./lib.so`, `/tmp/x.so`) is a file someone
/// placed, which is code the guard cannot read (ask).
fn load(path: Option<&(String, bool)>, out: &mut Vec<Finding>) {
    if path.is_none_or(|(p, exact)| !exact || p.contains('/')) {
        out.push(Finding::Dynamic(
            "loads a native library from a file (code the guard cannot read)",
        ));
    }
}

fn apply(t: Tongue, name: &str, kind: Api, a: &Args, out: &mut Vec<Finding>) {
    let first = a.lits.first().filter(|_| a.first_literal);
    // `Runtime.getRuntime().exec(new String[]{"sh", "-c", "…"})`, Kotlin's
    // `exec(arrayOf("sh", "-c", "…"))`: several literals are an argument vector.
    if kind == Api::Shell && t == Tongue::Jvm && a.lits.len() > 1 && !a.joined {
        push_argv(a.lits.clone(), out);
        return;
    }
    match kind {
        Api::Shell => match (first, &a.concat) {
            (Some((v, exact)), _) => out.push(Finding::Shell {
                code: v.clone(),
                exact: *exact,
            }),
            (None, Some(line)) => out.push(Finding::Shell {
                code: line.clone(),
                exact: true,
            }),
            (None, None) => dynamic_spawn(out),
        },
        Api::Argv => {
            // Erlang/Elixir ports: `{spawn, "cmd"}` is a shell line, `{spawn_executable, P}`
            // an executable.
            if a.lits.is_empty() {
                dynamic_spawn(out);
            } else if matches!(t, Tongue::Erlang | Tongue::Elixir) && name.contains("open_port")
                || name == "Port.open"
            {
                if let Some((v, exact)) = a.lits.first() {
                    out.push(Finding::Shell {
                        code: v.clone(),
                        exact: *exact,
                    });
                }
            } else {
                let mut argv = a.argv.clone().unwrap_or_else(|| a.lits.clone());
                // `execl(path, argv0, args…)`: the second argument is the program's own
                // name, not an argument (`(execl "/bin/sh" "sh")` runs a bare shell).
                if matches!(
                    last_segment(name),
                    "execl" | "execlp" | "execle" | "execv" | "execvp" | "execve"
                ) && argv.len() >= 2
                {
                    argv.remove(1);
                }
                push_argv(argv, out);
            }
        }
        Api::Delete(rec) => out.push(Finding::Delete {
            path: first
                .map(|(v, _)| v.clone())
                .or_else(|| a.home.clone())
                .unwrap_or_default(),
            exact: first.is_some_and(|(_, e)| *e) || first.is_none() && a.home.is_some(),
            recursive: rec || a.recursive,
        }),
        Api::Write => {
            // Julia's `write(stdout, x)` prints.
            if t == Tongue::Julia && name == "write" && !a.first_literal && a.std_stream {
                return;
            }
            // Julia's `open(p)` / `open(p, "r")` reads.
            if t == Tongue::Julia
                && name == "open"
                && !a
                    .lits
                    .get(1)
                    .is_some_and(|(m, _)| m.contains(['w', 'a', '+']))
            {
                return;
            }
            let target = if matches!(name, "cp" | "mv" | "File.cp" | "File.cp!" | "File.cp_r")
                || name.ends_with("copy-file")
                || name.ends_with("rename")
                || name == "file:copy"
                || name == "file:rename"
            {
                a.lits.get(1)
            } else {
                first
            };
            let path = match target {
                Some((v, true)) => Some(v.clone()),
                Some(_) => None,
                None => a.home.clone(),
            };
            out.push(Finding::Effect {
                op: EffectOp::Write,
                path,
                recursive: false,
            });
        }
        Api::Network => {
            out.push(Finding::Effect {
                op: EffectOp::Network,
                path: a
                    .lits
                    .iter()
                    .find(|(v, _)| v.contains("://"))
                    .map(|(v, _)| v.clone()),
                recursive: false,
            });
            // Julia's `download(url, path)`: the file holds what was fetched, so running it
            // later in the line is download-then-run.
            if t == Tongue::Julia
                && matches!(name, "download" | "Downloads.download")
                && let [(url, _), (path, true)] = a.lits.as_slice()
                && url.contains("://")
            {
                out.push(Finding::Downloaded { path: path.clone() });
            }
        }
        Api::Eval => match first {
            Some((v, true)) if !(t == Tongue::Scheme && name == "load") => {
                out.push(Finding::Code { code: v.clone() });
            }
            _ => out.push(Finding::Dynamic("evaluates code built at run time")),
        },
        Api::Source => {
            if first.is_none_or(|(_, exact)| !exact) {
                out.push(Finding::Dynamic(
                    "runs code from a file named at run time (a download, a computed path)",
                ));
            }
        }
        Api::Load => load(a.lits.first(), out),
        Api::Chmod => out.push(Finding::Effect {
            op: EffectOp::Chmod,
            path: match first {
                Some((v, true)) => Some(v.clone()),
                Some(_) => None,
                None => a.home.clone(),
            },
            recursive: a.recursive,
        }),
    }
}

/// A Tcl word: its text and whether it is literal (braced, or without `$`/`[…]`).
type TclWord = (String, bool);

/// Reads a Tcl script: commands split at newlines and `;`, words at blanks; `{…}` words are
/// literal, `"…"` and bare words substitute `$var` and `[cmd]` (inexact, and each `[cmd]` is
/// read as a script too). `lenient`: the text is a control structure's braced word, which may be
/// an expression (`if {$x > 1}`) rather than a script, so a computed command name there is not
/// reported.
fn tcl_script(code: &str, depth: usize, lenient: bool, out: &mut Vec<Finding>) {
    if depth > MAX_NEST {
        out.push(Finding::Dynamic("nests scripts too deeply to read"));
        return;
    }
    let chars: Vec<char> = code.chars().collect();
    let mut i = 0;
    let mut words: Vec<TclWord> = Vec::new();
    while i <= chars.len() {
        let c = chars.get(i).copied();
        match c {
            None | Some('\n' | ';') => {
                tcl_command(&words, depth, lenient, out);
                words.clear();
                i += 1;
            }
            Some(c) if c.is_whitespace() => i += 1,
            Some('\\') if chars.get(i + 1) == Some(&'\n') => i += 2,
            Some('#') if words.is_empty() => i = line_end(&chars, i),
            Some('{') => {
                let end = matching(&chars, i, '{', '}');
                words.push((chars.get(i + 1..end).unwrap_or(&[]).iter().collect(), true));
                i = end + 1;
            }
            Some(open) => {
                let quoted = open == '"';
                if quoted {
                    i += 1;
                }
                let mut text = String::new();
                let mut exact = true;
                while let Some(&d) = chars.get(i) {
                    if quoted && d == '"' {
                        i += 1;
                        break;
                    }
                    if !quoted && (d.is_whitespace() || d == ';') {
                        break;
                    }
                    match d {
                        '\\' => {
                            // Tcl's `\r` is a carriage return (what Expect's `send` types).
                            text.extend(
                                chars
                                    .get(i + 1)
                                    .map(|&e| if e == 'r' { '\r' } else { escaped(e) }),
                            );
                            i += 2;
                            continue;
                        }
                        '$' => exact = false,
                        '[' => {
                            exact = false;
                            let end = matching(&chars, i, '[', ']');
                            let inner: String =
                                chars.get(i + 1..end).unwrap_or(&[]).iter().collect();
                            tcl_script(&inner, depth + 1, false, out);
                            text.push_str("[…]");
                            i = end + 1;
                            continue;
                        }
                        _ => {}
                    }
                    text.push(d);
                    i += 1;
                }
                // `$env(HOME)/.aws`: the home, as `~` reads in a path or a shell line.
                let home = ["$env(HOME)", "$::env(HOME)"]
                    .iter()
                    .find_map(|h| text.strip_prefix(h))
                    .filter(|rest| !exact && !rest.contains(['$', '[']))
                    .map(|rest| format!("~{rest}"));
                match home {
                    Some(path) => words.push((path, true)),
                    None => words.push((text, exact)),
                }
            }
        }
    }
    // An unclosed brace or bracket ran to the end: the words read so far are a command.
    tcl_command(&words, depth, lenient, out);
}

/// Judges one Tcl command.
fn tcl_command(words: &[TclWord], depth: usize, lenient: bool, out: &mut Vec<Finding>) {
    let Some(((cmd, cmd_exact), rest)) = words.split_first() else {
        return;
    };
    if !cmd_exact && !lenient {
        out.push(Finding::Dynamic("runs a command whose name is computed"));
        return;
    }
    let cmd = cmd.trim_start_matches("::");
    match cmd {
        // Expect's `spawn` starts a program like `exec` does (its options first).
        "exec" | "spawn" => {
            let argv: Vec<&TclWord> = rest
                .iter()
                .skip_while(|(w, _)| w.starts_with('-') && w != "--")
                .skip_while(|(w, _)| w == "--")
                .collect();
            if argv.is_empty() {
                return;
            }
            // exec understands pipes and redirections itself: they stay operators. Plain words
            // stay unquoted so `exec rm -rf ~` is judged as the `rm -rf ~` it was written as
            // (Tcl does not expand `~` there; reading it as home is the cautious side).
            let exact = argv.iter().all(|(_, e)| *e);
            let line = argv
                .iter()
                .map(|(w, _)| {
                    let plain = !w.is_empty()
                        && w.chars()
                            .all(|c| c.is_alphanumeric() || "_./~=:@+,%-".contains(c));
                    if plain
                        || matches!(
                            w.as_str(),
                            "|" | "|&" | "&" | "<" | ">" | ">>" | "2>" | "2>@1"
                        )
                    {
                        w.clone()
                    } else {
                        shell_join(std::slice::from_ref(w))
                    }
                })
                .collect::<Vec<_>>()
                .join(" ");
            out.push(Finding::Shell { code: line, exact });
        }
        // Expect's `send "write erase\r"`: the lines typed into the spawned program — a remote
        // shell or a network device's CLI reached with `spawn ssh`/`telnet` — are judged as
        // the commands they are there (`-i ID`, `-s`, `-h`, `--` options first). Typed answers
        // (`y`, a password) are words no rule names.
        "send" | "exp_send" => {
            let text: Vec<&TclWord> = rest
                .iter()
                .scan(false, |value, w| {
                    let skip = *value || (w.0.starts_with('-') && w.0.len() > 1);
                    *value = !*value && w.0 == "-i";
                    Some((skip, w))
                })
                .filter(|(skip, _)| !skip)
                .map(|(_, w)| w)
                .collect();
            if let [(line, exact)] = text.as_slice() {
                let code = line
                    .split(['\r', '\n'])
                    .filter(|l| !l.trim().is_empty())
                    .collect::<Vec<_>>()
                    .join("\n");
                if !code.is_empty() {
                    out.push(Finding::Shell {
                        code,
                        exact: *exact,
                    });
                }
            }
        }
        "open" => match rest.first() {
            Some((p, exact)) if p.starts_with('|') => out.push(Finding::Shell {
                code: p.trim_start_matches('|').to_owned(),
                exact: *exact,
            }),
            Some((p, exact))
                if rest
                    .get(1)
                    .is_some_and(|(m, _)| m.contains(['w', 'a', '+']) || m.contains("WRONLY")) =>
            {
                out.push(Finding::Effect {
                    op: EffectOp::Write,
                    path: exact.then(|| p.clone()),
                    recursive: false,
                });
            }
            // `read [open ~/.vault-token]`: opened for reading.
            Some((p, true)) => out.push(Finding::Effect {
                op: EffectOp::Read,
                path: Some(p.clone()),
                recursive: false,
            }),
            _ => {}
        },
        "file" => {
            let Some((sub, _)) = rest.first() else { return };
            let ops: Vec<&TclWord> = rest.iter().skip(1).collect();
            let force = ops.iter().any(|(w, _)| w == "-force");
            let paths: Vec<&&TclWord> = ops
                .iter()
                .filter(|(w, _)| !(w.starts_with('-') && w.len() > 1))
                .collect();
            match sub.as_str() {
                "delete" => {
                    for (p, exact) in paths {
                        out.push(Finding::Delete {
                            path: p.clone(),
                            exact: *exact,
                            recursive: force,
                        });
                    }
                }
                "copy" | "rename" | "link" => {
                    if let Some((p, exact)) = paths.last() {
                        out.push(Finding::Effect {
                            op: EffectOp::Write,
                            path: exact.then(|| p.clone()),
                            recursive: false,
                        });
                    }
                }
                _ => {}
            }
        }
        "socket" | "http::geturl" => out.push(Finding::Effect {
            op: EffectOp::Network,
            path: rest
                .iter()
                .find(|(w, _)| w.contains("://"))
                .map(|(w, _)| w.clone()),
            recursive: false,
        }),
        "load" => load(rest.first(), out),
        "eval" | "uplevel" | "namespace" | "after" | "catch" | "if" | "while" | "for"
        | "foreach" | "proc" | "try" | "time" => {
            // Script bodies in braces are read as scripts; a computed one cannot be.
            for (w, exact) in rest {
                if *exact {
                    if w.contains(char::is_whitespace) || cmd == "eval" {
                        let strict = matches!(cmd, "eval" | "uplevel" | "after");
                        tcl_script(w, depth + 1, !strict, out);
                    }
                } else if cmd == "eval" || cmd == "uplevel" {
                    out.push(Finding::Dynamic("evaluates a script built at run time"));
                }
            }
        }
        "subst" => {
            if let Some((w, _)) = rest.last() {
                tcl_script(w, depth + 1, false, out);
            }
        }
        _ => {}
    }
}

/// The name after a call's module or namespace (`System.Directory.getHomeDirectory` →
/// `getHomeDirectory`, `babashka.fs/home` → `home`, `os:getenv` → `getenv`).
/// Forth's words (gforth): a string literal (`s" …"`, `s\" …"`, `c" …"`) is pushed, and the
/// word after it acts on it — `system` runs it as a shell line, `delete-file` deletes it,
/// `create-file`/`open-file` (with a write mode) write it, `included`/`require` load it as
/// Forth, `evaluate` runs it as Forth (read again here). `sh` runs the rest of its line.
/// Comments (`\ …`, `( … )`) and printed strings (`." …"`) are no code. A word that acts on
/// a value not written as a literal right before it is a run-time finding.
fn forth_words(code: &str, out: &mut Vec<Finding>) {
    forth_at(code, 0, out);
}

fn forth_at(code: &str, depth: usize, out: &mut Vec<Finding>) {
    let chars: Vec<char> = code.chars().collect();
    let mut i = 0;
    // The string most recently pushed, until a word consumes it.
    let mut pushed: Option<String> = None;
    while i < chars.len() {
        if chars.get(i).is_some_and(|c| c.is_whitespace()) {
            i += 1;
            continue;
        }
        let start = i;
        while chars.get(i).is_some_and(|c| !c.is_whitespace()) {
            i += 1;
        }
        let word: String = chars.get(start..i).unwrap_or(&[]).iter().collect();
        let lower = word.to_ascii_lowercase();
        match lower.as_str() {
            "\\" => i = line_end(&chars, i),
            "(" => i = block_end(&chars, i, &[')']),
            ".\"" | ".(" => {
                let close = if lower == ".(" { ')' } else { '"' };
                i = block_end(&chars, i + 1, &[close]);
            }
            "s\"" | "c\"" | "s\\\"" | "sliteral\"" => {
                // `s\"` takes backslash escapes (`\"` is a quote inside the string).
                let escapes = lower == "s\\\"";
                let mut body = String::new();
                let mut j = i + 1;
                while let Some(&c) = chars.get(j) {
                    j += 1;
                    if c == '"' {
                        break;
                    }
                    if escapes && c == '\\' {
                        if let Some(&e) = chars.get(j) {
                            body.push(escaped(e));
                            j += 1;
                        }
                        continue;
                    }
                    body.push(c);
                }
                pushed = Some(body);
                i = j;
            }
            "sh" => {
                let end = line_end(&chars, i);
                let line: String = chars.get(i..end).unwrap_or(&[]).iter().collect();
                out.push(Finding::Shell {
                    code: line.trim().to_owned(),
                    exact: true,
                });
                i = end;
            }
            "system" | "shell" => match pushed.take() {
                Some(code) => out.push(Finding::Shell { code, exact: true }),
                None => dynamic_spawn(out),
            },
            "delete-file" | "remove-file" => out.push(Finding::Delete {
                path: pushed.take().unwrap_or_default(),
                exact: true,
                recursive: false,
            }),
            "create-file" | "write-file" | "rename-file" => out.push(Finding::Effect {
                op: EffectOp::Write,
                path: pushed.take(),
                recursive: false,
            }),
            // A literal file is a script like any the line names (as `Api::Source`).
            "included" | "require" | "required" | "include" => match pushed.take() {
                Some(_) => {}
                None => out.push(Finding::Dynamic(
                    "runs code from a file named at run time (a download, a computed path)",
                )),
            },
            "evaluate" => match pushed.take() {
                Some(inner) if depth < MAX_NEST => forth_at(&inner, depth + 1, out),
                _ => out.push(Finding::Dynamic("evaluates code built at run time")),
            },
            _ => {}
        }
    }
}

/// m4's macros that leave m4: `syscmd(TEXT)`/`esyscmd(TEXT)` run TEXT as a shell line,
/// `include(F)`/`sinclude(F)` read F as more m4. A call is a macro name followed directly by
/// `(`; m4's quotes (`` `…' ``) are stripped from the argument, and a quoted call is still
/// read, since m4 expands the quoted text again when it is rescanned. Arguments that use
/// other macros (`syscmd(CMD)` with `define(CMD, …)`) are expanded at run time: inexact.
fn macro_calls(code: &str, out: &mut Vec<Finding>) {
    let chars: Vec<char> = code.chars().collect();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        if !(c.is_ascii_alphabetic() || c == '_') {
            i += 1;
            continue;
        }
        let start = i;
        while chars
            .get(i)
            .is_some_and(|d| d.is_ascii_alphanumeric() || *d == '_')
        {
            i += 1;
        }
        // `dnl` discards the rest of its line.
        let name: String = chars.get(start..i).unwrap_or(&[]).iter().collect();
        if name == "dnl" {
            i = line_end(&chars, i);
            continue;
        }
        if chars.get(i) != Some(&'(') {
            continue;
        }
        let end = matching(&chars, i, '(', ')').min(chars.len());
        let raw: String = chars.get(i + 1..end).unwrap_or(&[]).iter().collect();
        // m4's quotes nest: `` ` `` opens, `'` closes an open one; a `'` outside quotes is text.
        let mut arg = String::new();
        let mut quotes = 0usize;
        for ch in raw.chars() {
            match ch {
                '`' => quotes += 1,
                '\'' if quotes > 0 => quotes -= 1,
                _ => arg.push(ch),
            }
        }
        let arg = arg.trim().to_owned();
        // A macro name of upper case inside the argument is expanded first (by convention
        // m4's own macros are lower case and users' are upper case).
        let exact = !arg
            .split(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
            .any(|w| w.len() > 1 && w.chars().all(|ch| ch.is_ascii_uppercase() || ch == '_'));
        match name.as_str() {
            "syscmd" | "esyscmd" => out.push(Finding::Shell { code: arg, exact }),
            "include" | "sinclude" if !exact => out.push(Finding::Dynamic(
                "runs code from a file named at run time (a download, a computed path)",
            )),
            _ => {}
        }
        i += 1;
    }
}

/// gnuplot's and MATLAB's shell escape: a statement that starts with `!` (`! rm -rf x`,
/// `!ls`) runs the rest of its line as a shell command. A statement starts a line or follows
/// a `;` outside a string literal; `!=` is a comparison.
fn bang_statements(code: &str, out: &mut Vec<Finding>) {
    let chars: Vec<char> = code.chars().collect();
    let mut quote: Option<char> = None;
    let mut at_start = true;
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        if let Some(q) = quote {
            if c == '\\' {
                i += 1;
            } else if c == q {
                quote = None;
            } else if c == '\n' {
                quote = None;
                at_start = true;
            }
            i += 1;
            continue;
        }
        if at_start && c == '!' && !matches!(chars.get(i + 1), Some('=') | None) {
            let end = line_end(&chars, i + 1);
            let line: String = chars.get(i + 1..end).unwrap_or(&[]).iter().collect();
            if !line.trim().is_empty() {
                out.push(Finding::Shell {
                    code: line.trim().to_owned(),
                    exact: true,
                });
            }
            i = end;
            continue;
        }
        match c {
            '"' | '\'' => {
                quote = Some(c);
                at_start = false;
            }
            '\n' | ';' => at_start = true,
            _ if c.is_whitespace() => {}
            _ => at_start = false,
        }
        i += 1;
    }
}

/// dc's `!`: the rest of the line is a shell command (`!<r`, `!>r`, `!=r` compare instead).
/// A `!` inside a `[…]` string still counts: the string runs as dc when `x` executes it.
fn bang_lines(code: &str, out: &mut Vec<Finding>) {
    let chars: Vec<char> = code.chars().collect();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        i += 1;
        if c != '!' || matches!(chars.get(i), Some('<' | '>' | '=')) {
            continue;
        }
        let end = line_end(&chars, i);
        let mut line: String = chars.get(i..end).unwrap_or(&[]).iter().collect();
        // Inside a `[…]` string the line ends with the string.
        let open = chars.get(..i).map_or(0, |b| {
            b.iter().fold(0usize, |n, &d| match d {
                '[' => n + 1,
                ']' => n.saturating_sub(1),
                _ => n,
            })
        });
        if open > 0
            && let Some(close) = line.find(']')
        {
            line.truncate(close);
        }
        if !line.trim().is_empty() {
            out.push(Finding::Shell {
                code: line.trim().to_owned(),
                exact: true,
            });
        }
        i = end;
    }
}

fn last_segment(name: &str) -> &str {
    name.rsplit(['.', ':', '/']).next().unwrap_or(name)
}

/// Names that are the user's home directory in these languages: Julia `homedir()`, Elixir
/// `System.user_home!()`, Crystal/Ruby `Path.home`/`Dir.home`, Nim `getHomeDir()`, Swift
/// `NSHomeDirectory()`/`homeDirectoryForCurrentUser`, Scala os-lib `os.home`, V
/// `os.home_dir()`, Common Lisp `(user-homedir-pathname)`, babashka `(fs/home)`, Haskell
/// `getHomeDirectory`, R `fs::path_home()`, Racket `'home-dir`, .NET
/// `SpecialFolder.UserProfile`, Go `os.UserHomeDir()`, and the variable itself where a
/// language names it bare (Raku `$*HOME`, `%*ENV<HOME>`).
fn is_home_name(name: &str) -> bool {
    // Raku's `$*HOME.add(".ssh")`: the home, then a method on it.
    name.split('.').next() == Some("HOME")
        || matches!(
            last_segment(name),
            "homedir"
                | "user_home"
                | "user_home!"
                | "home"
                | "getHomeDir"
                | "NSHomeDirectory"
                | "home_dir"
                | "user-homedir-pathname"
                | "getHomeDirectory"
                | "path_home"
                | "homeDirectoryForCurrentUser"
                | "home-dir"
                | "UserProfile"
                | "HOME"
                | "USERPROFILE"
                | "UserHomeDir"
                | "homeDir"
        )
}

/// Names of the working directory: os-lib `os.pwd`, `getcwd()`, .NET
/// `Directory.GetCurrentDirectory()`, Nim `getCurrentDir()`, Haskell
/// `getCurrentDirectory`, Racket `(current-directory)`, Go `os.Getwd()`.
fn is_cwd_name(name: &str) -> bool {
    matches!(
        last_segment(name),
        "pwd"
            | "getcwd"
            | "cwd"
            | "GetCurrentDirectory"
            | "CurrentDirectory"
            | "current-directory"
            | "getCurrentDir"
            | "getCurrentDirectory"
            | "getwd"
            | "Getwd"
            | "current_dir"
            | "currentDirectoryPath"
    )
}

/// The keys that name the home in an environment or property lookup (`getenv("HOME")`,
/// `System.getProperty("user.home")`, `Environment.GetFolderPath("UserProfile")`).
fn is_home_key(key: &str) -> bool {
    matches!(key, "HOME" | "USERPROFILE" | "user.home" | "UserProfile")
}

/// Calls that read a value of the environment or a property, or build a path from parts
/// without changing what it names (joins, expansions, conversions, file objects): a path
/// built only from these, the home and literals is known before the code runs.
fn is_path_builder(name: &str) -> bool {
    matches!(
        last_segment(name),
        "joinpath"
            | "path"
            | "Combine"
            | "join"
            | "Join"
            | "expand"
            | "expanduser"
            | "expand-user-path"
            | "expand-file-name"
            | "normalizePath"
            | "normalize"
            | "expandTilde"
            | "fullfile"
            | "build-path"
            | "string-append"
            | "str"
            | "string"
            | "merge-pathnames"
            | "of"
            | "get"
            | "File"
            | "new"
            | "path->string"
            | "find-system-path"
            | "quote"
            | "getenv"
            | "getEnv"
            | "Getenv"
            | "getProperty"
            | "GetFolderPath"
            | "GetEnvironmentVariable"
            | "SpecialFolder"
            | "get_env"
            | "fetch_env"
            | "fetch_env!"
            | "ENV"
            | "env"
            | "environment"
            | "add"
            | "appendingPathComponent"
            | "appending"
            | "toString"
            | "toPath"
            | "toFile"
            | "resolve"
            | "char"
            | "abspath"
            | "realpath"
            | "normpath"
            | "Directory"
            | "DirectoryInfo"
            | "FileInfo"
            | "Path"
            | "Paths"
            | "URL"
            | "props"
            | "file"
            | "canonicalize"
            | "absolutePath"
            | "absolute_path"
            | "concat"
            | "paste0"
            | "paste"
            | "fileURLWithPath"
            | "atPath"
            | "at"
            | "Platform"
            | "Environment"
            | "System"
            | "var"
            | "val"
    )
}

/// The path a span of tokens names when it is built only from the home, literals and
/// [`is_path_builder`] calls (`joinpath(homedir(), ".ssh")` → `~/.ssh`, `(str (System/getProperty
/// "user.home") "/.aws")` → `~/.aws`, `expanduser("~")` → `~`); `None` when anything else
/// (a variable, another call) computes it.
fn home_path(toks: &[Tok]) -> Option<String> {
    let mut home: Option<String> = None;
    let mut parts: Vec<&str> = Vec::new();
    for (k, tok) in toks.iter().enumerate() {
        match tok {
            // Swift's and Kotlin's argument labels (`atPath:`), keyword arguments.
            Tok::Name(_) if toks.get(k + 1) == Some(&Tok::Punct(':')) => {}
            Tok::Name(n) if is_home_name(n) => {
                home.get_or_insert_with(|| "~".to_owned());
            }
            // The working directory (`os.pwd / "target"`, `(uiop:getcwd)`): a path under the
            // workspace, judged as one.
            Tok::Name(n) if is_cwd_name(n) => {
                home.get_or_insert_with(|| ".".to_owned());
            }
            Tok::Name(n) if is_path_builder(n) => {}
            Tok::Name(_) | Tok::Cmd(..) | Tok::Str(_, false) => return None,
            Tok::Str(v, true) if is_home_key(v) => {
                home.get_or_insert_with(|| "~".to_owned());
            }
            Tok::Str(v, true) if home.is_none() && (v == "~" || v.starts_with("~/")) => {
                home = Some(v.clone());
            }
            Tok::Str(v, true) => parts.push(v),
            Tok::Punct(_) => {}
        }
    }
    let mut path = home?;
    for p in parts {
        let p = p.trim_matches('/');
        if !p.is_empty() {
            path.push('/');
            path.push_str(p);
        }
    }
    Some(path)
}

/// A literal whose interpolations all name the home (`"#{ENV["HOME"]}/.netrc"`,
/// `'${Platform.environment['HOME']}/.ssh'`, `"$(homedir())/.aws"`, Groovy's `"rm -rf
/// ${System.getProperty("user.home")}"`): the text it builds, the home written `~` (a shell
/// line reads it as the home at a word's start, a path at its head). `None` when another
/// value is interpolated.
fn interpolated_home(t: Tongue, v: &str) -> Option<String> {
    if !v.contains("${") && !v.contains("#{") && !v.contains("$(") {
        return None;
    }
    let chars: Vec<char> = v.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        let next = chars.get(i + 1).copied();
        let opens = match (c, next) {
            ('$' | '#', Some('{')) => Some(('{', '}')),
            ('$', Some('(')) => Some(('(', ')')),
            // `$name` (Julia, Groovy): a value the reader cannot know.
            ('$', Some(n)) if n.is_alphanumeric() || n == '_' => return None,
            _ => None,
        };
        let Some((open, shut)) = opens else {
            out.push(c);
            i += 1;
            continue;
        };
        let end = matching(&chars, i + 1, open, shut);
        let inner: String = chars.get(i + 2..end)?.iter().collect();
        let base = home_path(&tokens(t, &inner))?;
        out.push_str(&base);
        i = end + 1;
    }
    Some(out)
}

/// The text a concatenation of literals and the home builds (`"rm -rf " +
/// System.getProperty("user.home")`, `(string-append "rm -rf " (getenv "HOME"))`): the home is
/// `~` at a word's start and `$HOME` inside one, so the shell line reads as the home. `None`
/// when another value takes part or the home does not.
fn concat_home(toks: &[Tok]) -> Option<String> {
    let mut line = String::new();
    let mut home = false;
    let mut push_home = |line: &mut String| {
        home = true;
        if line.is_empty() || line.ends_with(char::is_whitespace) {
            line.push('~');
        } else {
            line.push_str("$HOME");
        }
    };
    // R's `paste(a, b)` joins its arguments with a blank (`paste0` with nothing).
    let blank_between = matches!(toks.first(), Some(Tok::Name(n)) if last_segment(n) == "paste");
    for (k, tok) in toks.iter().enumerate() {
        match tok {
            Tok::Punct(',') if blank_between => line.push(' '),
            Tok::Name(_) if toks.get(k + 1) == Some(&Tok::Punct(':')) => {}
            Tok::Name(n) if is_home_name(n) => push_home(&mut line),
            Tok::Str(v, true) if is_home_key(v) => push_home(&mut line),
            Tok::Name(n) if is_path_builder(n) => {}
            Tok::Str(v, true) => line.push_str(v),
            Tok::Punct(_) => {}
            Tok::Name(_) | Tok::Str(_, false) | Tok::Cmd(..) => return None,
        }
    }
    home.then_some(line)
}

/// Replaces the uses of variables bound to the home (`h = homedir()`, `val h =
/// System.getProperty("user.home")`, Haskell's `h <- getHomeDirectory`, Lisp's `(let ((h
/// (user-homedir-pathname))) …)`) by the path literal they hold, so `rm(h; recursive=true)`
/// and `Path.Combine(h, ".aws")` read as the home. A later binding of the name to something
/// else ends it.
fn bind_homes(t: Tongue, toks: &mut [Tok]) {
    let lisp = matches!(t, Tongue::Scheme | Tongue::Lisp);
    let mut bound: Vec<(String, String)> = Vec::new();
    let mut k = 0;
    while k < toks.len() {
        let binding = match (toks.get(k), toks.get(k + 1), toks.get(k + 2)) {
            (Some(Tok::Name(v)), Some(Tok::Punct('=')), next)
                if !lisp && next != Some(&Tok::Punct('=')) =>
            {
                Some((v.clone(), k + 2))
            }
            // Go's `h, _ := os.UserHomeDir()` / `h := …`: the first name of the list.
            (Some(Tok::Name(v)), Some(Tok::Punct(',' | ':')), _)
                if t == Tongue::CallSyntax && go_binding(toks, k + 1).is_some() =>
            {
                go_binding(toks, k + 1).map(|from| (v.clone(), from))
            }
            (Some(Tok::Name(v)), Some(Tok::Punct('<')), Some(Tok::Punct('-')))
                if t == Tongue::Haskell =>
            {
                Some((v.clone(), k + 3))
            }
            (Some(Tok::Punct('(')), Some(Tok::Name(v)), Some(Tok::Punct('(')))
                if lisp
                    && k >= 2
                    && matches!(toks.get(k - 1), Some(Tok::Punct('(')))
                    && matches!(toks.get(k - 2), Some(Tok::Name(l)) if l == "let" || l == "let*") =>
            {
                Some((v.clone(), k + 2))
            }
            (Some(Tok::Name(d)), Some(Tok::Name(v)), Some(Tok::Punct('(')))
                if lisp && (d == "define" || d == "def") =>
            {
                Some((v.clone(), k + 2))
            }
            _ => None,
        };
        if let Some((var, from)) = binding {
            let end = expr_end(toks, from);
            bound.retain(|(b, _)| *b != var);
            if let Some(p) = toks.get(from..end).and_then(home_path) {
                bound.push((var, p));
            }
            k = end.max(k + 1);
            continue;
        }
        if let Some(Tok::Name(n)) = toks.get(k)
            && let Some((_, p)) = bound.iter().find(|(b, _)| b == n)
            && toks.get(k + 1) != Some(&Tok::Punct('('))
        {
            let p = p.clone();
            if let Some(slot) = toks.get_mut(k) {
                *slot = Tok::Str(p, true);
            }
        }
        k += 1;
    }
}

/// Where the value of a Go short variable declaration starts, `at` just after its first name:
/// `, NAME`… then `:=` (`h, _ := os.UserHomeDir()`, `h := …`); `None` otherwise.
fn go_binding(toks: &[Tok], mut at: usize) -> Option<usize> {
    while toks.get(at) == Some(&Tok::Punct(',')) && matches!(toks.get(at + 1), Some(Tok::Name(_))) {
        at += 2;
    }
    (toks.get(at) == Some(&Tok::Punct(':'))
        && toks.get(at + 1) == Some(&Tok::Punct('='))
        && toks.get(at + 2) != Some(&Tok::Punct('=')))
    .then_some(at + 2)
}

/// The end of the expression starting at `from`: a literal, or a name with the calls,
/// indexes and member accesses that follow it (`Environment.GetFolderPath(…)`,
/// `ENV["HOME"]`, `os.home / ".ssh"` stops at the operator), or one parenthesised form.
fn expr_end(toks: &[Tok], from: usize) -> usize {
    let mut j = from;
    match toks.get(j) {
        Some(Tok::Str(..)) => return j + 1,
        Some(Tok::Punct('(')) => return matching_tok(toks, j) + 1,
        Some(Tok::Name(_)) => j += 1,
        _ => return j,
    }
    loop {
        match (toks.get(j), toks.get(j + 1)) {
            (Some(Tok::Punct('(' | '[')), _) => j = matching_tok(toks, j) + 1,
            (Some(Tok::Punct('.')), Some(Tok::Name(_))) => j += 2,
            (Some(Tok::Punct('!')), _) => j += 1,
            _ => return j,
        }
    }
}

/// The index of the bracket closing the one at `open` (or the last token).
fn matching_tok(toks: &[Tok], open: usize) -> usize {
    let mut depth = 0usize;
    for (j, tok) in toks.iter().enumerate().skip(open) {
        match tok {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return j;
                }
            }
            _ => {}
        }
    }
    toks.len().saturating_sub(1)
}

/// The arguments of a call whose list runs from `from` to `end` (exclusive), as token
/// ranges: list brackets are opened (their items are arguments of an argument vector), a
/// parenthesised group is one argument; in the Lisps each form or atom is one.
fn arg_spans(t: Tongue, toks: &[Tok], from: usize, end: usize) -> Vec<(usize, usize)> {
    let lisp = matches!(t, Tongue::Scheme | Tongue::Lisp);
    let mut spans = Vec::new();
    let mut depth = 0usize;
    let mut start = from;
    for j in from..end {
        let Some(tok) = toks.get(j) else { break };
        match tok {
            Tok::Punct('(') => {
                if lisp && depth == 0 {
                    start = j;
                }
                depth += 1;
            }
            Tok::Punct(')') => {
                depth = depth.saturating_sub(1);
                if lisp && depth == 0 {
                    spans.push((start, j + 1));
                    start = j + 1;
                }
            }
            // `ENV["HOME"]`, `environment["HOME"]`: an index into a value, part of one
            // argument (a `[` after a name or a closing bracket).
            // (Not in the Lisps and Haskell, where a list follows a name as an argument.)
            Tok::Punct('[')
                if j > from
                    && !lisp
                    && t != Tongue::Haskell
                    && matches!(toks.get(j - 1), Some(Tok::Name(_) | Tok::Punct(')' | ']'))) =>
            {
                depth += 1;
            }
            Tok::Punct(']') if depth > 0 => depth -= 1,
            Tok::Punct('[' | '{' | ']' | '}' | ',' | ';') if depth == 0 => {
                if !lisp && start < j {
                    spans.push((start, j));
                }
                start = j + 1;
            }
            _ if lisp && depth == 0 => {
                spans.push((j, j + 1));
                start = j + 1;
            }
            _ => {}
        }
    }
    if !lisp && start < end {
        spans.push((start, end));
    }
    spans
}

/// One argument's static value: a literal, or a path built from the home; `None` when it is
/// computed. `Some(None)` marks what is not an argument of the command (a keyword option:
/// `cd: "x"`, `:p`, `recursive=true`, punctuation).
#[allow(
    clippy::option_option,
    reason = "skip / computed / value are three cases"
)]
fn span_value(toks: &[Tok]) -> Option<Option<(String, bool)>> {
    match toks {
        [Tok::Str(v, e)] => Some(Some((v.clone(), *e))),
        [Tok::Name(n), ..] if n.starts_with(':') => Some(None),
        [Tok::Name(_), Tok::Punct(':' | '='), ..] => Some(None),
        _ if toks.iter().all(|t| matches!(t, Tok::Punct(_))) => Some(None),
        _ => home_path(toks).map(|p| Some((p, true))),
    }
}

/// The argument vector of a call whose arguments are not all literals, with the home
/// resolved where an argument names it (`System.cmd("rm", ["-rf", System.user_home!()])` →
/// `rm -rf ~`); a computed argument makes the vector inexact.
fn element_argv(t: Tongue, toks: &[Tok], from: usize, end: usize) -> Option<Vec<(String, bool)>> {
    let mut argv = Vec::new();
    let mut computed = false;
    let mut resolved = false;
    for (s, e) in arg_spans(t, toks, from, end) {
        match toks.get(s..e).map(span_value) {
            Some(Some(Some(v))) => {
                resolved |= e > s + 1;
                argv.push(v);
            }
            Some(Some(None)) => {}
            _ => {
                computed = true;
                argv.push(("…".to_owned(), false));
            }
        }
    }
    (computed || resolved).then_some(argv)
}

/// A token of another reader (Lua and R in `crate::code`), for [`home_of_parts`].
pub(crate) enum Part<'a> {
    Name(&'a str),
    Str(&'a str),
    Punct(char),
}

/// The home path, and the shell line, one argument of another reader's call builds from the
/// home and literals (Lua's `os.getenv("HOME") .. "/.ssh"`, R's `Sys.getenv("HOME")`,
/// `path.expand("~")`, `fs::path_home()`): the same reading as this module's calls.
pub(crate) fn home_of_parts(parts: &[Part<'_>]) -> (Option<String>, Option<String>) {
    let toks: Vec<Tok> = parts
        .iter()
        .map(|p| match p {
            Part::Name(n) => Tok::Name((*n).to_owned()),
            Part::Str(v) => Tok::Str((*v).to_owned(), true),
            Part::Punct(c) => Tok::Punct(*c),
        })
        .collect();
    (home_path(&toks), concat_home(&toks))
}
