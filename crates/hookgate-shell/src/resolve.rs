//! What a resolved argv does: wrappers are peeled, nested shells and one-liners recursed into,
//! code fed through pipes judged, and the rest classified against the taxonomy and the target
//! rules.

// `argv` (the whole command) and `args` (its arguments) are this module's vocabulary.
#![allow(clippy::similar_names)]

use std::path::Path;

use tree_sitter::Node;

use crate::interp::{self, Finding, Lang, SqlRisk};
use crate::model::{Effect, EffectOp};
use crate::model::{ExecutedCommand, Verdict};
use crate::state::Val;
use crate::targets::{self, Cwd};
use crate::taxonomy::{self, Args, RuleRef, ids};
use crate::walk::{Producer, Scope, Walker, Word, WordShape, text};

/// Variables that change which program runs or what it loads.
///
/// Not `IFS`: bash, dash and the other shells an agent's command reaches reset it at startup
/// (it is never imported from the environment), so it cannot change what a child runs, and in
/// the line itself every expansion it could re-split — an unquoted `$X`, `$@` or `$(…)` — is
/// left unresolved once the line assigns it (`walk.rs`), so `IFS=/; $(echo rm/-rf/~)` is
/// unknown (ask) while `while IFS= read -r l` is ordinary work.
pub(crate) fn is_hijack_variable(name: &str) -> bool {
    matches!(
        name,
        "PATH"
            | "LD_PRELOAD"
            | "LD_LIBRARY_PATH"
            | "LD_AUDIT"
            | "DYLD_INSERT_LIBRARIES"
            | "DYLD_LIBRARY_PATH"
            | "BASH_ENV"
            | "ENV"
            | "PROMPT_COMMAND"
            | "PS4"
            | "SHELLOPTS"
            | "BASHOPTS"
            | "GIT_SSH"
            | "GIT_SSH_COMMAND"
            | "GIT_EXTERNAL_DIFF"
            | "GIT_PAGER"
            | "PAGER"
            | "GIT_EDITOR"
            | "GIT_SEQUENCE_EDITOR"
            | "EDITOR"
            | "VISUAL"
            | "GIT_ASKPASS"
            | "SSH_ASKPASS"
            | "GIT_CONFIG_PARAMETERS"
            | "GIT_CONFIG_COUNT"
            | "GIT_EXEC_PATH"
            | "GIT_TEMPLATE_DIR"
            | "NODE_OPTIONS"
            | "GOFLAGS"
            | "PERL5OPT"
            | "PERL5LIB"
            | "RUBYOPT"
            | "PYTHONSTARTUP"
            | "PYTHONPATH"
            | "NODE_PATH"
            | "PERLLIB"
            | "RUBYLIB"
            | "CLASSPATH"
            | "LESSOPEN"
            | "LESSCLOSE"
            | "MANPAGER"
            | "GIT_PROXY_COMMAND"
            | "BROWSER"
            | "SUDO_ASKPASS"
            | "JAVA_TOOL_OPTIONS"
            | "_JAVA_OPTIONS"
            | "JDK_JAVA_OPTIONS"
            | "DOTNET_STARTUP_HOOKS"
            | "NPM_CONFIG_SCRIPT_SHELL"
            | "npm_config_script_shell"
            | "YARN_SCRIPT_SHELL"
    ) || name.starts_with("GIT_CONFIG_KEY_")
        || name.starts_with("GIT_CONFIG_VALUE_")
        || crate::named::variable(name).is_some()
}

/// Decodes the body of an ANSI-C string `$'…'`. `None` for escapes we do not model, and for a
/// NUL (bash ends the word there, so the decoded text would not be what runs).
pub(crate) fn ansi_c(inner: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let e = chars.next()?;
        match e {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'a' => out.push('\x07'),
            'b' => out.push('\x08'),
            'e' | 'E' => out.push('\x1b'),
            'f' => out.push('\x0c'),
            'v' => out.push('\x0b'),
            '\\' | '\'' | '"' | '?' => out.push(e),
            'x' | 'u' | 'U' => {
                let max = match e {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let mut digits = String::new();
                while digits.len() < max {
                    match chars.peek() {
                        Some(d) if d.is_ascii_hexdigit() => {
                            digits.push(*d);
                            chars.next();
                        }
                        _ => break,
                    }
                }
                let value = u32::from_str_radix(&digits, 16).ok()?;
                out.push(char::from_u32(value).filter(|c| *c != '\0')?);
            }
            '0'..='7' => {
                let mut value = e.to_digit(8)?;
                for _ in 0..2 {
                    match chars.peek().and_then(|d| d.to_digit(8)) {
                        Some(d) => {
                            value = value * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                out.push(char::from_u32(value).filter(|c| *c != '\0')?);
            }
            'c' => {
                let ctl = chars.next()?;
                out.push(char::from_u32(u32::from(ctl) & 0x1f).filter(|c| *c != '\0')?);
            }
            other => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    Some(out)
}

/// The value of `$NAME`, `${NAME}`, `${#NAME}`, `${NAME:-default}` or `${NAME:?}` when it is
/// known: assigned
/// a literal earlier on the line (see `crate::state`), a positional parameter of a call whose
/// arguments are known, or one the context knows (`HOME`, `TMPDIR`, `PWD`, `OLDPWD`). Every
/// other form (`${X%…}`, `${!X}`, arrays) and every other variable is unresolved by design.
pub(crate) fn variable(
    node: Node<'_>,
    src: &str,
    ctx: &crate::model::Context,
    scope: &Scope,
) -> Option<String> {
    // `$X` (most expansions): no operator and never an array element (`array_elements` needs
    // a `${`), so nothing below needs its children collected.
    if node.kind() == "simple_expansion" {
        return lookup(crate::walk::expansion_name(node, src)?, ctx, scope);
    }
    if let Some(elements) = array_elements(node, src, scope) {
        // `${a[1]}`, or `${a[@]}` of a one-element array: one known word.
        return match elements {
            [one] => Some(one.clone()),
            _ => None,
        };
    }
    let mut cursor = node.walk();
    let children: Vec<Node<'_>> = node.children(&mut cursor).collect();
    let name = crate::walk::expansion_name(node, src)?;
    let kinds: Vec<&str> = children.iter().map(Node::kind).collect();
    match kinds.as_slice() {
        ["${", _, "}"] => lookup(name, ctx, scope),
        ["${", "#", _, "}"] => lookup(name, ctx, scope).map(|v| v.chars().count().to_string()),
        // `${X:?}` / `${X?msg}`: the value, or the shell stops with an error (nothing runs).
        // Set but empty, `:?` stops too; `?` keeps the empty value.
        ["${", _, op @ (":?" | "?"), ..] => {
            lookup(name, ctx, scope).filter(|v| !v.is_empty() || *op == "?")
        }
        ["${", _, op @ (":-" | "-"), rest @ ..] => {
            let value = lookup(name, ctx, scope);
            match value {
                Some(v) if !v.is_empty() => Some(v),
                // Set but empty: `-` keeps it, `:-` takes the default.
                Some(v) if *op == "-" => Some(v),
                _ => {
                    // The default when it is a plain literal word.
                    let default = children
                        .iter()
                        .skip_while(|c| c.kind() != *op)
                        .nth(1)
                        .filter(|c| c.kind() == "word")
                        .map(|c| text(*c, src));
                    match (name, default) {
                        // Context variables keep their known value whatever the default.
                        ("HOME" | "TMPDIR", _) if scope.sh.get(name).is_none() => {
                            context_variable(name, ctx)
                        }
                        (_, Some(d))
                            if value.is_some()
                                && rest.len() == 2
                                && !d.contains(['$', '`', '\\', '~', '*', '?', '[']) =>
                        {
                            Some(d.to_owned())
                        }
                        _ => None,
                    }
                }
            }
        }
        _ => None,
    }
}

/// The known elements `${a[N]}` (one) or `${a[@]}` (all) stands for, when `a` was assigned
/// an array of literal words on the line (see [`Val::Array`](crate::state::Val::Array)).
/// `None` for any other expansion, an operator on the element, or an index out of range.
pub(crate) fn array_elements<'s>(
    node: Node<'_>,
    src: &str,
    scope: &'s Scope,
) -> Option<&'s [String]> {
    let mut cursor = node.walk();
    let children: Vec<Node<'_>> = node.children(&mut cursor).collect();
    let [open, sub, close] = children.as_slice() else {
        return None;
    };
    if open.kind() != "${" || sub.kind() != "subscript" || close.kind() != "}" {
        return None;
    }
    let name = text(sub.child_by_field_name("name")?, src);
    let index = text(sub.child_by_field_name("index")?, src);
    let elements = scope.sh.get(name)?.elements()?;
    if index == "@" {
        return Some(elements);
    }
    let i: usize = index.parse().ok()?;
    elements.get(i..=i)
}

/// `PREFIX{}` where the prefix ends an option's value syntax (`f=@`, `@`, `--opt=`): the
/// replaced word is that option with the item as its whole value, so the item keeps its
/// shape (`find`'s files, not a literal `.`). `None` for any other use (`{}.bak`, a `{}`
/// inside shell code), which stays a run-time value.
fn item_slot<'w>(word: &'w str, replace: &str) -> Option<&'w str> {
    let prefix = word.strip_suffix(replace)?;
    (!prefix.contains(replace)
        && !prefix.contains(char::is_whitespace)
        && (prefix.ends_with('@') || (prefix.starts_with('-') && prefix.ends_with('='))))
    .then_some(prefix)
}

/// The word `$1`/`${1}`/`$F`/`$@` stands for when it holds several paths ([`Val::Found`]: a
/// parameter bound to `find`'s `{}`, to `xargs` items from `find`, or to a glob). Only the
/// plain forms: an operator (`${1%.py}`, `${1:-x}`) leaves the word unresolved.
pub(crate) fn found_files(node: Node<'_>, src: &str, scope: &Scope) -> Option<Word> {
    let name = crate::walk::expansion_name(node, src)?;
    // `$1` or `${1}` (three children); `${#1}`, `${1%.py}`, `${1:-x}` are other values.
    let plain = node.kind() == "simple_expansion" || node.child_count() == 3;
    if !plain {
        return None;
    }
    let params = scope.sh.params.as_ref();
    let value = match name {
        "@" | "*" => match params?.as_slice() {
            [one] => one,
            _ => return None,
        },
        "0" => &scope.sh.zero,
        n if n.bytes().all(|b| b.is_ascii_digit()) => {
            params?.get(n.parse::<usize>().ok()?.checked_sub(1)?)?
        }
        _ => scope.sh.get(name)?,
    };
    value.found()
}

/// `${X:=default}` / `${X=default}` assign `X` when they expand the default: `X` becomes
/// unknown (the default is not evaluated here).
pub(crate) fn expansion_assigns(node: Node<'_>, src: &str, scope: &mut Scope) {
    let mut cursor = node.walk();
    let assigns = node
        .children(&mut cursor)
        .any(|c| matches!(c.kind(), ":=" | "="));
    if assigns && let Some(name) = crate::walk::expansion_name(node, src) {
        scope.sh.set(name, Val::Unknown, None);
    }
}

/// `git rev-parse --show-toplevel` with nothing else (no `-C`, no `--git-dir`: those name
/// another repository).
pub(crate) fn shows_toplevel(args: &[Word]) -> bool {
    matches!(args, [a, b] if a.exact && b.exact && a.text == "rev-parse" && b.text == "--show-toplevel")
}

/// The value of variable `name` at this point of the line, when known.
pub(crate) fn lookup(name: &str, ctx: &crate::model::Context, scope: &Scope) -> Option<String> {
    match scope.sh.get(name) {
        Some(Val::Known(v)) => return Some(v.clone()),
        Some(Val::Unknown | Val::Found(..) | Val::OrEmpty(_) | Val::Array(_)) => return None,
        None => {}
    }
    let params = scope.sh.params.as_ref();
    match name {
        "HOME" | "TMPDIR" => context_variable(name, ctx),
        "PWD" => cwd_text(&scope.cwd),
        "OLDPWD" => cwd_text(&scope.sh.oldpwd),
        "0" => scope.sh.zero.known().map(str::to_owned),
        "#" => params.map(|p| p.len().to_string()),
        // The process id of the last job this shell put in the background (`server & pid=$!`),
        // or empty when there is none: a job of the agent's own, never `1` or `-1`. Kept as
        // written but known, as `$$` is, so `kill "$pid"`/`wait $!`/`trap 'kill $pid' EXIT`
        // name that job (judged like `kill %1`), and `/tmp/app.$!` stays one name in /tmp.
        "!" => Some("$!".to_owned()),
        // This shell's process id and bash's random numbers: digits only, so in a path they
        // are part of one name and never a separator, `..` or a glob (`/tmp/build-$$`,
        // `"$TMPDIR/run.$RANDOM"` stay one scratch entry). Kept as written, as `$!` is. Not
        // `$PPID`: the parent is the agent's own process, another target than this shell.
        "$" => Some("$$".to_owned()),
        "RANDOM" | "SRANDOM" => Some(format!("${name}")),
        // `$@` in a word is one value only when it is one parameter (`"$@"` alone is split by
        // `Walker::fields`).
        "@" => match params?.as_slice() {
            [] => Some(String::new()),
            [one] => one.known().map(str::to_owned),
            _ => None,
        },
        "*" => params?
            .iter()
            .map(|p| p.known().map(str::to_owned))
            .collect::<Option<Vec<_>>>()
            .map(|v| v.join(" ")),
        n if n.bytes().all(|b| b.is_ascii_digit()) => {
            let index: usize = n.parse().ok()?;
            match params?.get(index.checked_sub(1)?) {
                Some(v) => v.known().map(str::to_owned),
                // Beyond the last argument: empty.
                None => Some(String::new()),
            }
        }
        _ => ctx
            .known_vars
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone()),
    }
}

fn context_variable(name: &str, ctx: &crate::model::Context) -> Option<String> {
    match name {
        "HOME" => ctx.home.as_ref().map(|h| h.to_string_lossy().into_owned()),
        "TMPDIR" => Some(
            ctx.tmpdir
                .as_ref()
                .or(ctx.temp_dirs.first())
                .map_or_else(|| "/tmp".to_owned(), |p| p.to_string_lossy().into_owned()),
        ),
        _ => None,
    }
}

fn cwd_text(cwd: &Cwd) -> Option<String> {
    match cwd {
        Cwd::Known(p) => Some(p.to_string_lossy().into_owned()),
        Cwd::Unknown => None,
    }
}

/// True for the shells `… | sh` and `sh -c` recurse into.
pub(crate) fn is_shell(name: &str) -> bool {
    SHELLS.contains(&name)
}

/// True for the interpreters whose one-liners are parsed.
pub(crate) fn is_interpreter(name: &str) -> bool {
    interpreter(name).is_some()
}

/// An interpreter that is not a shell, whose code gets what its standard input holds as data
/// (`python3 -c '…'`, `node app.js`, `awk 1`, `perl -pe ''`) — except awk printing only the
/// names of `NAME=value` lines (`awk -F= '{print $1}' < .env`, `file` being the redirected
/// file), which shows no value. A shell reads
/// its standard input as commands, not data (judged as a script elsewhere).
fn code_reads_stdin(name: &str, args: &[Word], file: &str) -> bool {
    match interpreter(name) {
        Some(Lang::Awk) => {
            // The redirected file is awk's input as an operand would be.
            let mut words = args.to_vec();
            words.push(Word::lit(file.to_owned()));
            !awk_first_field_by_equals(&words)
        }
        Some(_) => !is_shell(name),
        None => false,
    }
}

/// A code string's output ([`Walker::code_output`]) when it carries a secret: what a shell or
/// remote running that string hands on. Other outputs keep the runner's own producer.
pub(crate) fn secret_output(out: Option<Producer>) -> Option<Producer> {
    out.filter(|p| matches!(p, Producer::Secret(_)))
}

/// Basename of a command word, lowercased, without a Windows `.exe`.
/// The last `/`-separated part of a word (`/usr/bin/git` → `git`, `git` → `git`), as
/// `word.rsplit('/').next()` but by a plain byte scan: it runs several times per command.
pub(crate) fn basename(word: &str) -> &str {
    // `/` is ASCII, so the byte after it starts a character.
    word.as_bytes()
        .iter()
        .rposition(|&b| b == b'/')
        .map_or(word, |i| word.get(i + 1..).unwrap_or(""))
}

/// Whether a command word is a pathname pattern bash expands: an unquoted `*` or `?`, or a
/// bracket expression closed later in the word (a lone `[`, the test command, is literal).
/// The word is as the walker left it: quoted wildcards were never globs there.
fn is_name_pattern(word: &str) -> bool {
    word.contains(['*', '?'])
        || word
            .find('[')
            .is_some_and(|open| word[open + 1..].contains(']') && word != "[[")
}

pub(crate) fn command_name(word: &str) -> String {
    let mut lower = basename(word).to_ascii_lowercase();
    // Already lowercased, so `.EXE` is stripped too.
    if let Some(stem) = lower.strip_suffix(".exe").map(str::len) {
        lower.truncate(stem);
    }
    lower
}

const SHELLS: &[&str] = &[
    "bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "fish", "tcsh", "csh", "yash", "posh",
    "rbash", "pdksh", "oksh",
    // Shells with a syntax of their own, whose `-c` code is read as POSIX shell: for the
    // commands an agent gives them (`nu -c 'rm -r ~/.ssh'`) the words are the same.
    "nu", "xonsh", "elvish", "ion", "murex", "osh", "ysh", "oil", "rc", "es",
];

/// Whether `name` is one of the network clients or file readers this module judges by their
/// data flow (`curl -X DELETE`, `scp`, `cat`): modelled, so never guessed about.
pub(crate) fn judged_by_flow(name: &str) -> bool {
    crate::names::listed!(NETWORK_SENDERS, name) || crate::names::listed!(READERS, name)
}

const NETWORK_SENDERS: &[&str] = &[
    "curl", "wget", "nc", "ncat", "netcat", "socat", "ssh", "scp", "sftp", "ftp", "telnet", "http",
    "https", "xh", "rsync", "rclone", "aws", "gsutil", "openssl",
];

/// Commands that read file contents (so naming a credential file reads it). Not `tee`: it
/// reads its standard input and writes the files it names (`echo X=1 | tee -a .env` writes
/// `.env`; the write is judged as one).
const READERS: &[&str] = &[
    "cat", "less", "more", "head", "tail", "bat", "nl", "tac", "base64", "base32", "xxd", "od",
    "hexdump", "strings", "grep", "egrep", "fgrep", "rg", "ag", "ack", "ugrep", "awk", "sed",
    "cut", "sort", "uniq", "cp", "scp", "rsync", "tar", "zip", "gzip", "openssl", "gpg", "jq",
    "yq", "vim", "vi", "nano", "emacs", "code", "diff", "source", ".", "curl", "wget", "nc",
    "ncat", "socat", "python", "python3", "node", "ruby", "perl", "dd", "xclip", "pbcopy",
    // Splitters and archivers: every piece or member holds what the file named held.
    "split", "gsplit", "csplit", "gcsplit", "7z", "7za", "7zr", "xz", "zstd", "bzip2", "lz4",
    "pigz", "brotli", "lzop", "rar",
    // Printers: the file's content leaves for a print queue (a shared office printer, an IPP
    // server elsewhere, `lp -h host`).
    "lp", "lpr", "enscript", "a2ps",
];

/// Whether a file name is a dotenv file's: `.env`, `.env.*` (`.env.test`), `*.env`
/// (`test.env`); not `.envrc`, which is shell code. Shared by the analyzer and the policy so
/// both call the same files "sourced dotenv".
pub fn is_dotenv_name(name: &str) -> bool {
    name == ".env"
        || name.starts_with(".env.")
        || (name.len() > 4
            && Path::new(name)
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("env")))
}

/// `set -a; . ./.env.test; set +a`, `source .env.local`: a dotenv file of the workspace loaded
/// into the shell's variables. Nothing of it is printed (its `NAME=value` lines assign), so it
/// is not a credential *read* — the same as a program loading it (`dotenv run`, a framework's
/// `.env` support); where the variables go next is judged by the flow rules. Only a sole
/// operand whose name is a dotenv file's (`.env`, `.env.*`, `*.env`; not `.envrc`, which is
/// code) and that lies inside the workspace: an env file elsewhere (`. ~/.env`) and any other
/// credential file — sourcing a key prints its lines back as "command not found" — stay
/// `cred.read_secret_file`.
fn sources_workspace_dotenv(
    name: &str,
    operands: &[&Word],
    cwd: &Cwd,
    ctx: &crate::model::Context,
) -> bool {
    let ([file], "source" | ".") = (operands, name) else {
        return false;
    };
    let dotenv = is_dotenv_name(file.text.rsplit('/').next().unwrap_or(""));
    let dir = match cwd {
        Cwd::Known(dir) => dir.as_path(),
        Cwd::Unknown => return false,
    };
    file.exact
        && dotenv
        && !file.text.starts_with('~')
        && hookgate_paths::is_within(
            &hookgate_paths::normalize(&file.text, dir, ctx.home.as_deref()).path,
            &ctx.cwd,
        )
}

/// A reader whose output cannot carry the contents of the files it reads: a count, the names
/// of matching files or only an exit status (`grep -c`, `grep -l`, `grep -q`, `rg --count`),
/// or the names left of `=` in an assignment file (`cut -d= -f1 .env`). Such a read exposes no
/// secret, so it is not `cred.read_secret_file`; what it prints still enters the data-flow
/// analysis like any output (the flow rules are judged separately).
pub(crate) fn prints_no_content(name: &str, args: &Args<'_>, words: &[Word]) -> bool {
    match name {
        "grep" | "egrep" if only_names_matched(args, words) => true,
        "jq" => jq_names_only(words),
        "grep" | "egrep" | "fgrep" | "rg" | "ag" => {
            // `-o`, `-A/-B/-C` and `--passthru` print matched text even beside a count.
            !args.has_any(&["-o", "--only-matching", "--passthru", "--json", "--vimgrep"])
                && args.has_any(&[
                    "-c",
                    "--count",
                    "--count-matches",
                    "-l",
                    "--files-with-matches",
                    "-L",
                    "--files-without-match",
                    "-q",
                    "--quiet",
                    "--silent",
                ])
        }
        "cut" => {
            let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
            let value = |short: &str, long: &str| {
                texts.iter().enumerate().find_map(|(i, t)| {
                    if *t == short || *t == long {
                        texts.get(i + 1).copied()
                    } else {
                        t.strip_prefix(short)
                            .filter(|v| !v.is_empty())
                            .or_else(|| t.strip_prefix(long).and_then(|v| v.strip_prefix('=')))
                    }
                })
            };
            let valued = |i: usize| {
                i.checked_sub(1)
                    .and_then(|p| texts.get(p))
                    .is_some_and(|p| matches!(*p, "-d" | "--delimiter" | "-f" | "--fields"))
            };
            words.iter().all(|w| w.exact)
                && value("-d", "--delimiter") == Some("=")
                && value("-f", "--fields") == Some("1")
                && dotenv_files_only(
                    texts
                        .iter()
                        .enumerate()
                        .filter(|(i, t)| !t.starts_with('-') && !valued(*i))
                        .map(|(_, t)| *t),
                )
                && !texts.iter().any(|t| {
                    t.starts_with("--complement") || t.starts_with("-c") || t.starts_with("-b")
                })
        }
        "awk" | "gawk" | "mawk" | "nawk" => awk_first_field_by_equals(words),
        "sed" | "gsed" => sed_strips_values(words),
        _ => false,
    }
}

/// Whether the files a `=`-splitting names-only reader is given are all dotenv files (at
/// least one): only in `NAME=value` lines is the text before the first `=` a name. A private
/// key's base64 lines or a `.netrc` hold no `=` (or only padding), so "field 1" is the whole
/// secret line there.
fn dotenv_files_only<'a>(mut files: impl Iterator<Item = &'a str>) -> bool {
    let mut any = false;
    files.all(|f| {
        any = true;
        is_dotenv_name(f.rsplit('/').next().unwrap_or(f))
    }) && any
}

/// `awk -F= '{print $1}' .env` (also `-F '='`, with a leading filter pattern such as
/// `!/^#/` or `NF`): the field separator is `=` and the only action prints field 1, the
/// variable names of a dotenv file — never a value. Any other option (`-v`, `-f`), action,
/// or a pattern that could compute (`$`, a call, a block) keeps the read.
fn awk_first_field_by_equals(words: &[Word]) -> bool {
    if !words.iter().all(|w| w.exact) {
        return false;
    }
    let mut separator = None;
    let mut program = None;
    let mut files = Vec::new();
    let mut i = 0;
    while let Some(w) = words.get(i) {
        let t = w.text.as_str();
        if program.is_none() && t == "-F" {
            separator = words.get(i + 1).map(|v| v.text.as_str());
            i += 2;
            continue;
        }
        if program.is_none()
            && let Some(v) = t.strip_prefix("-F")
        {
            separator = Some(v);
        } else if program.is_none() && t.starts_with('-') {
            return false;
        } else if program.is_none() {
            program = Some(t);
        } else {
            files.push(t);
        }
        i += 1;
    }
    let Some(program) = program else { return false };
    if !dotenv_files_only(files.into_iter()) {
        return false;
    }
    let squeezed: String = program.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(pattern) = squeezed.strip_suffix("{print$1}") else {
        return false;
    };
    separator == Some("=") && !pattern.contains(['$', '(', '{', '}', ';', '|', '>', '<', '"', '`'])
}

/// `sed 's/=.*//' .env` (any delimiter, `$` anchor, `g` flag): every line loses everything
/// from its first `=`, leaving the variable names. Only `-e`/`-E`/`-r` beside one such
/// script; `-i` (a write), `-n`, a second command or any other flag keeps the read.
fn sed_strips_values(words: &[Word]) -> bool {
    if !words.iter().all(|w| w.exact) {
        return false;
    }
    let mut script = None;
    let mut files = Vec::new();
    let mut expect_script = false;
    for w in words {
        let t = w.text.as_str();
        if expect_script {
            if script.replace(t).is_some() {
                return false;
            }
            expect_script = false;
        } else if t == "-e" || t == "--expression" {
            expect_script = true;
        } else if matches!(t, "-E" | "-r" | "--regexp-extended") {
        } else if t.starts_with('-') {
            return false;
        } else if script.is_none() {
            script = Some(t);
        } else {
            files.push(t);
        }
    }
    let Some(script) = script else { return false };
    if !dotenv_files_only(files.into_iter()) {
        return false;
    }
    let mut chars = script.chars();
    let (Some('s'), Some(delim)) = (chars.next(), chars.next()) else {
        return false;
    };
    if delim.is_alphanumeric() || delim == '\\' || delim.is_whitespace() {
        return false;
    }
    let parts: Vec<&str> = script[1 + delim.len_utf8()..].split(delim).collect();
    matches!(parts.as_slice(), [pattern, "", flags]
        if matches!(*pattern, "=.*" | "=.*$") && matches!(*flags, "" | "g"))
}

/// `jq '.auths | keys' ~/.docker/config.json`, `jq -r 'keys[]' creds.json`, `jq length F`:
/// the filter walks down by literal keys and ends in `keys`, `keys_unsorted`, `length`,
/// `type` or `has("k")`, so what is printed is names, a count, a type or a boolean — never a
/// value. Only output-format options may stand beside it: a variable (`--arg`, `--rawfile`),
/// a filter file, slurping or streaming, or any stage that computes (`error(.)`, `debug`,
/// `input`, `$__loc__`, an interpolation) keeps the read.
fn jq_names_only(words: &[Word]) -> bool {
    const FORMAT: &[&str] = &[
        "-r",
        "-j",
        "-c",
        "-M",
        "-C",
        "-S",
        "-e",
        "-a",
        "--raw-output",
        "--join-output",
        "--compact-output",
        "--monochrome-output",
        "--color-output",
        "--sort-keys",
        "--exit-status",
        "--ascii-output",
        "--tab",
    ];
    if words.iter().any(|w| !w.exact) {
        return false;
    }
    let mut filter = None;
    for w in words {
        let t = w.text.as_str();
        if t.starts_with('-') && t.len() > 1 {
            let short_cluster =
                !t.starts_with("--") && t[1..].chars().all(|c| "rjcMCSea".contains(c));
            if !(FORMAT.contains(&t) || short_cluster) {
                return false;
            }
        } else if filter.is_none() {
            filter = Some(t);
        }
    }
    let Some(filter) = filter else {
        return false;
    };
    let stages = split_top_level_pipes(filter);
    let Some((last, path)) = stages.split_last() else {
        return false;
    };
    path.iter().all(|s| jq_literal_path(s.trim())) && jq_names_stage(last.trim())
}

/// `f` split at the `|` that are outside strings, brackets and parentheses; `None` stands
/// for "cannot be read" and yields no stages.
fn split_top_level_pipes(f: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start, mut in_str, mut escaped) = (0i32, 0, false, false);
    for (i, c) in f.char_indices() {
        if in_str {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_str = false;
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            '|' if depth == 0 => {
                out.push(&f[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        if depth < 0 {
            return Vec::new();
        }
    }
    if in_str || depth != 0 {
        return Vec::new();
    }
    out.push(&f[start..]);
    out
}

/// A jq path made of literal steps only: `.`, `.auths`, `."a-b"`, `.["x"]`, `.[]`, `.a[0]`,
/// with `?` allowed after a step. Strings may not escape (no `\(…)` interpolation).
fn jq_literal_path(s: &str) -> bool {
    if !s.starts_with('.') {
        return false;
    }
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '.' | '?' | '[' | ']' => {}
            '"' => loop {
                match chars.next() {
                    Some('"') => break,
                    Some('\\') | None => return false,
                    Some(_) => {}
                }
            },
            c if c.is_ascii_alphanumeric() || c == '_' => {}
            _ => return false,
        }
    }
    true
}

/// The last stage of a names-only jq filter: `keys`, `keys_unsorted` (optionally iterated
/// with `[]`), `length`, `type`, `has("k")`.
fn jq_names_stage(s: &str) -> bool {
    if matches!(
        s,
        "keys" | "keys[]" | "keys_unsorted" | "keys_unsorted[]" | "length" | "type"
    ) {
        return true;
    }
    s.strip_prefix("has(\"")
        .and_then(|r| r.strip_suffix("\")"))
        .is_some_and(|k| !k.contains(['"', '\\']))
}

/// `grep -o '^[A-Z_]*' .env`: only the matched text is printed, the one pattern is anchored
/// at the line start and cannot match `=`, and every file is a dotenv file, so what it prints
/// is (a prefix of) each line's name — never a value after the `=` (see [`name_pattern`]). Context options print
/// whole lines and keep the read.
fn only_names_matched(args: &Args<'_>, words: &[Word]) -> bool {
    if !args.has_any(&["-o", "--only-matching"])
        || args.has_any(&[
            "-A",
            "-B",
            "-C",
            "--context",
            "--after-context",
            "--before-context",
            "-f",
            "--file",
            "-v",
            "--invert-match",
            "-e",
            "--regexp",
        ])
        || !words.iter().all(|w| w.exact)
    {
        return false;
    }
    // The pattern is the first operand (no `-e`: ruled out above); the rest are the files,
    // and they must all be dotenv files: only there is the text left of `=` a name. In a key
    // file (`grep -oE '^[A-Za-z0-9_]*' ~/.ssh/id_rsa`) the same pattern prints nearly every
    // base64 line, and with no file it reads stdin, whatever was piped in.
    let mut operands = words.iter().filter(|w| !w.text.starts_with('-'));
    operands.next().is_some_and(|p| name_pattern(&p.text)) && {
        let mut files = operands.peekable();
        files.peek().is_some() && files.all(|f| is_dotenv_name(basename(&f.text)))
    }
}

/// A basic or extended regular expression anchored at the line start whose every atom is a
/// literal or a bracket class that cannot match `=` (`^[A-Z_]*`, `^[A-Za-z_][A-Za-z0-9_]*`,
/// `^export [A-Z_]+`, `^\w+`), optionally closed by that first `=` (`^[A-Z_]*=`): its
/// matches end at a line's first `=`. Anything else —
/// `.`, alternation, groups, negated classes, ranges that span `=`, classes naming other
/// than letters and digits — is `false`.
fn name_pattern(p: &str) -> bool {
    let Some(rest) = p.strip_prefix('^') else {
        return false;
    };
    let mut chars = rest.chars().peekable();
    let mut atoms = 0;
    while let Some(c) = chars.next() {
        match c {
            '[' => {
                if chars.peek() == Some(&'^') {
                    return false;
                }
                let mut body: Vec<char> = Vec::new();
                let mut closed = false;
                for d in chars.by_ref() {
                    if d == ']' && !body.is_empty() && !body.ends_with(&['[', ':']) {
                        closed = true;
                        break;
                    }
                    body.push(d);
                }
                if !closed || !class_excludes_equals(&body) {
                    return false;
                }
                atoms += 1;
            }
            '*' | '+' | '?' if atoms > 0 => {}
            '{' if atoms > 0 => {
                for d in chars.by_ref() {
                    if d == '}' {
                        break;
                    }
                    if !(d.is_ascii_digit() || d == ',') {
                        return false;
                    }
                }
            }
            '\\' => match chars.next() {
                Some('w' | 'd' | '_' | '-') => atoms += 1,
                _ => return false,
            },
            // A closing `=` (`^[A-Z_]*=`): the atoms cannot match `=`, so it is the line's
            // first, and the match is the name with its `=`.
            '=' if atoms > 0 && chars.peek().is_none() => return true,
            '.' | '=' | '(' | ')' | '|' | '$' | '*' | '+' | '?' | '{' | '}' | ']' => return false,
            _ => atoms += 1,
        }
    }
    atoms > 0
}

/// Whether a bracket expression's body (between `[` and `]`) cannot match `=`: no `=` itself,
/// no range that spans it (`!-~`), POSIX classes only of letters and digits.
fn class_excludes_equals(body: &[char]) -> bool {
    let text: String = body.iter().collect();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("[:") {
        let Some(end) = rest[at..].find(":]") else {
            return false;
        };
        let name = &rest[at + 2..at + end];
        if !matches!(name, "alpha" | "alnum" | "upper" | "lower" | "digit") {
            return false;
        }
        rest = &rest[at + end + 2..];
    }
    if body.contains(&'=') {
        return false;
    }
    body.windows(3)
        .all(|w| !(w[1] == '-' && w[0] <= '=' && '=' <= w[2]))
}

/// The interpreter line a launcher's subcommand stands for, when it is given code:
/// `dotnet script eval CODE` → `dotnet-script eval CODE`, `mix run … -e CODE` → `elixir … -e
/// CODE`, `stack eval CODE` → `ghc -e CODE`, `lein run -m clojure.main ARGS` → `clojure ARGS`
/// (a script file stays the launcher's own). Launchers that start an interpreter with the
/// rest of the line stand for it whatever it is given: `dotnet fsi ARGS` → `fsi ARGS`,
/// `ocamlfind ocaml ARGS` → `ocaml ARGS`, `stack exec [--] CMD` → `CMD`, `stack runghc
/// ARGS` → `runghc ARGS`.
fn launched_interpreter(name: &str, args: &[Word]) -> Option<Vec<Word>> {
    if let Some(line) = framework_console(name, args) {
        return Some(line);
    }
    let (first, rest) = args.split_first()?;
    if !first.exact {
        return None;
    }
    let line = |program: &str, rest: &[Word]| {
        let mut line = vec![Word::lit(program.to_owned())];
        line.extend(rest.iter().cloned());
        Some(line)
    };
    let has = |code: &str| rest.iter().any(|w| w.exact && w.text == code);
    match (name, first.text.as_str()) {
        ("dotnet", "script") if has("eval") => line("dotnet-script", rest),
        ("dotnet", "fsi") => line("fsi", rest),
        ("mix", "run") if has("-e") => line("elixir", rest),
        ("ocamlfind", "ocaml" | "toplevel") => line("ocaml", rest),
        ("stack", "eval") => {
            let code = rest.iter().find(|w| !w.text.starts_with('-'))?;
            Some(vec![Word::lit("ghc"), Word::lit("-e"), code.clone()])
        }
        ("stack", "runghc" | "runhaskell" | "ghc" | "ghci") => {
            let rest = match rest.split_first() {
                Some((dd, r)) if dd.exact && dd.text == "--" => r,
                _ => rest,
            };
            line(&first.text, rest)
        }
        ("stack", "exec") => {
            // `stack exec [STACK OPTIONS] -- CMD ARGS`, or `stack exec CMD` without options.
            let cmd = match rest.iter().position(|w| w.exact && w.text == "--") {
                Some(dd) => rest.get(dd + 1..)?,
                None if rest.first().is_some_and(|w| !w.text.starts_with('-')) => rest,
                None => return None,
            };
            let (program, cmd_args) = cmd.split_first()?;
            line(&program.text, cmd_args)
        }
        // `nvim -l SCRIPT ARGS` runs a Lua script (nothing else of the editor's) — when no
        // editor command comes before it.
        ("nvim", "-l") => line("lua", rest),
        ("nvim", "--headless" | "--clean") => {
            let (l, more) = rest.split_first()?;
            (l.exact && l.text == "-l").then(|| line("lua", more))?
        }
        ("lein", "run") => {
            // `lein run -m clojure.main ARGS`: Clojure's own main, which takes `-e CODE`.
            match rest {
                [m, main, more @ ..] if m.text == "-m" && main.text == "clojure.main" => {
                    line("clojure", more)
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// A web framework's console is its language's interpreter with the application loaded: code
/// given to it (`-c CODE`, `runner CODE`, `--execute=CODE`) or fed on stdin (`flask shell <<<
/// 'db.drop_all()'`, `rails console < x.rb`) is judged as `python3`/`ruby`/`php` code —
/// the app's models then act on its real database. `flask [--app A] shell`, `python manage.py
/// shell [-c CODE]`, `django-admin shell`, `rails console|c`, `rails runner|r CODE`, `php
/// artisan tinker [--execute=CODE]`. A runner given a script file (`rails runner x.rb`) is
/// the project's script, as `ruby x.rb` is.
fn framework_console(name: &str, args: &[Word]) -> Option<Vec<Word>> {
    let lit = |t: &str| Word::lit(t.to_owned());
    // The first positional after options that take a value.
    let verb_at = |values: &[&str]| -> Option<usize> {
        let mut i = 0;
        while let Some(w) = args.get(i) {
            if !w.exact {
                return None;
            }
            if values.contains(&w.text.as_str()) {
                i += 2;
                continue;
            }
            if !w.text.starts_with('-') {
                return Some(i);
            }
            i += 1;
        }
        None
    };
    // `-c CODE` / `--command CODE` / `--command=CODE` after the verb: python3 -c CODE.
    let python_code = |rest: &[Word]| -> Vec<Word> {
        let mut line = vec![lit("python3")];
        let mut it = rest.iter();
        while let Some(w) = it.next() {
            if matches!(w.text.as_str(), "-c" | "--command") {
                if let Some(code) = it.next() {
                    line.extend([lit("-c"), code.clone()]);
                }
                break;
            }
            if let Some(code) = w.text.strip_prefix("--command=") {
                line.extend([
                    lit("-c"),
                    Word {
                        text: code.to_owned(),
                        ..w.clone()
                    },
                ]);
                break;
            }
        }
        line
    };
    match name {
        "flask" => {
            let at = verb_at(&["--app", "-A", "--env-file", "-e"])?;
            (args[at].text == "shell").then(|| vec![lit("python3")])
        }
        "django-admin" => {
            let at = verb_at(&["--settings", "--pythonpath"])?;
            (args[at].text == "shell").then(|| python_code(&args[at + 1..]))
        }
        _ if name.starts_with("python") => {
            let (script, rest) = args.split_first()?;
            let (verb, rest) = rest.split_first()?;
            (script.exact
                && crate::resolve::basename(&script.text) == "manage.py"
                && verb.text == "shell")
                .then(|| python_code(rest))
        }
        // The script run directly (`./manage.py shell -c CODE`, executable with a python
        // shebang): the same console.
        "manage.py" => {
            let (verb, rest) = args.split_first()?;
            (verb.exact && verb.text == "shell").then(|| python_code(rest))
        }
        "artisan" => {
            let mut with_php = vec![lit("artisan")];
            with_php.extend(args.iter().cloned());
            framework_console("php", &with_php)
        }
        "rails" => {
            let at = verb_at(&["-e", "--environment"])?;
            match args[at].text.as_str() {
                "console" | "c" => Some(vec![lit("ruby")]),
                "runner" | "r" => {
                    let code = args
                        .get(at + 1..)?
                        .iter()
                        .find(|w| !w.text.starts_with('-'))?;
                    let file = code.exact
                        && (std::path::Path::new(&code.text)
                            .extension()
                            .is_some_and(|e| e.eq_ignore_ascii_case("rb"))
                            || code.text.contains('/'))
                        && !code.text.contains(['(', ' ', ';']);
                    (!file).then(|| vec![lit("ruby"), lit("-e"), code.clone()])
                }
                _ => None,
            }
        }
        "php" => {
            let (script, rest) = args.split_first()?;
            let (verb, rest) = rest.split_first()?;
            if !(script.exact
                && crate::resolve::basename(&script.text) == "artisan"
                && verb.text == "tinker")
            {
                return None;
            }
            let code = rest.iter().find_map(|w| {
                w.text.strip_prefix("--execute=").map(|c| Word {
                    text: c.to_owned(),
                    ..w.clone()
                })
            });
            Some(match code {
                Some(c) => vec![lit("php"), lit("-r"), c],
                None => vec![lit("php")],
            })
        }
        _ => None,
    }
}

/// The command line a `cmake -E TOOL ARGS` stands for: CMake's portable tools do what the
/// POSIX command does (`rm`, `remove_directory` = `rm -rf`, `rename` = `mv`, `copy_directory`
/// = `cp -r`, `create_symlink` = `ln -s`, `make_directory` = `mkdir -p`, `chdir DIR CMD` =
/// `env -C DIR CMD`, `env`/`time CMD` run CMD, `environment` prints the environment, `tar`
/// and `cat` are themselves). `None` for the tools that only compare, hash, print or wait
/// (`compare_files`, `sha256sum`, `echo`, `sleep`, `capabilities`), judged as cmake itself.
fn cmake_tool(args: &[Word]) -> Option<Vec<Word>> {
    let (tool, rest) = args.split_first()?;
    if !tool.exact {
        return None;
    }
    let with = |head: &[&str]| -> Option<Vec<Word>> {
        let mut line: Vec<Word> = head.iter().map(|h| Word::lit(*h)).collect();
        line.extend(rest.iter().cloned());
        Some(line)
    };
    match tool.text.as_str() {
        "rm" | "remove" => with(&["rm"]),
        "remove_directory" => with(&["rm", "-rf"]),
        "rename" => with(&["mv"]),
        "copy" | "copy_if_different" => with(&["cp"]),
        "copy_directory" | "copy_directory_if_different" => with(&["cp", "-r"]),
        "create_symlink" => with(&["ln", "-s"]),
        "create_hardlink" => with(&["ln"]),
        "make_directory" => with(&["mkdir", "-p"]),
        "touch" | "touch_nocreate" => with(&["touch"]),
        "tar" => with(&["tar"]),
        "cat" => with(&["cat"]),
        "environment" | "env" => with(&["env"]),
        "time" => (!rest.is_empty()).then(|| rest.to_vec()),
        "chdir" => {
            let (dir, cmd) = rest.split_first()?;
            let mut line = vec![Word::lit("env"), Word::lit("-C"), dir.clone()];
            line.extend(cmd.iter().cloned());
            Some(line)
        }
        _ => None,
    }
}

/// Content tools that embed a Python interpreter and take its code or script as an option
/// (`blender -b --python-expr CODE`, `blender -b -P FILE`, `UnrealEditor-Cmd P
/// -ExecutePythonScript=CODE|FILE`, `… -run=pythonscript -script=FILE`, `nuke -t FILE`,
/// `paraview --script=FILE`): the Python lines they stand for (`python3 -c CODE`, `python3
/// FILE`), judged as those are; and the Pythons these tools ship (`hython`, `mayapy`) as
/// `python3`. Renders, exports and cooks run no code of the command line.
fn embedded_python(name: &str, args: &[Word]) -> Vec<Vec<Word>> {
    // Every command reaches this test: the names' first letters reject the rest cheaply.
    if !matches!(
        name.as_bytes().first(),
        Some(b'b' | b'p' | b'n' | b'u' | b'm' | b'h' | b'c' | b'f' | b'v' | b'g')
    ) {
        return Vec::new();
    }
    // A content tool's own Python (`hython x.py`, `mayapy -c CODE`) is python3 with the same
    // arguments, so a script it runs is judged (and tracked) as python3's.
    if interpreter(name) == Some(Lang::Python)
        && !name.starts_with("python")
        && !name.starts_with("pypy")
        && !name.starts_with("ipython")
    {
        let mut line = vec![Word::lit("python3")];
        line.extend(args.iter().cloned());
        return vec![line];
    }
    // (code options, script options) of the tool; `=` joins a value to either.
    let (code_opts, script_opts): (&[&str], &[&str]) = match name {
        "blender" | "blender-softwaregl" => (&["--python-expr"], &["-P", "--python"]),
        "paraview" => (&[], &["--script"]),
        // GIMP's batch commands are Python when the batch interpreter is Python-Fu's
        // (`gimp -i --batch-interpreter python-fu-eval -b CODE`); Script-Fu's own Scheme has
        // no way out to the shell.
        "gimp" | "gimp-console" | "gimp-2.10" | "gimp-console-2.10"
            if args.iter().any(|w| {
                w.text == "python-fu-eval" || w.text == "--batch-interpreter=python-fu-eval"
            }) =>
        {
            (&["-b", "--batch"], &[])
        }
        n if n.starts_with("nuke") => (&[], &["-t"]),
        n if n.starts_with("unrealeditor") || n.starts_with("ue4editor") => {
            let python_commandlet = args
                .iter()
                .any(|w| w.text.eq_ignore_ascii_case("-run=pythonscript"));
            let script: &[&str] = if python_commandlet { &["-script"] } else { &[] };
            (&["-ExecutePythonScript"], script)
        }
        _ => return Vec::new(),
    };
    let value_of = |i: usize, opts: &[&str]| -> Option<Word> {
        let w = args.get(i)?;
        opts.iter().find_map(|o| {
            if w.text == *o {
                return args.get(i + 1).cloned();
            }
            let v = w.text.strip_prefix(o)?.strip_prefix('=')?;
            let mut word = w.clone();
            v.trim_matches('"').clone_into(&mut word.text);
            Some(word)
        })
    };
    let mut lines = Vec::new();
    for i in 0..args.len() {
        let python = Word::lit("python3");
        if let Some(code) = value_of(i, code_opts) {
            // Unreal's `-ExecutePythonScript` takes a script path or literal code.
            let file = std::path::Path::new(code.text.split_whitespace().next().unwrap_or(""))
                .extension()
                .is_some_and(|e| e == "py");
            lines.push(if file {
                vec![python, code]
            } else {
                vec![python, Word::lit("-c"), code]
            });
        } else if let Some(file) = value_of(i, script_opts) {
            lines.push(vec![python, file]);
        }
    }
    lines
}

/// A shell or language interpreter: what it reads on stdin is code.
pub(crate) fn is_code_runner(name: &str) -> bool {
    SHELLS.contains(&name) || interpreter(name).is_some()
}

fn interpreter(name: &str) -> Option<Lang> {
    let python = name
        .strip_prefix("python")
        .is_some_and(|v| v.chars().all(|c| c.is_ascii_digit() || c == '.'))
        || name.starts_with("pypy")
        || name == "ipython"
        || name == "ipython3"
        // SageMath's `sage -c CODE` is Python with Sage's preparser.
        || name == "sage"
        // The Pythons of content tools (Maya, Houdini, ParaView, Cinema 4D, FreeCAD, VTK):
        // `-c CODE` and script files as python's.
        || matches!(
            name,
            "mayapy"
                | "hython"
                | "pvpython"
                | "pvbatch"
                | "c4dpy"
                | "freecadcmd"
                | "vtkpython"
        );
    if python {
        return Some(Lang::Python);
    }
    match name {
        "perl" => Some(Lang::Perl),
        "ruby" | "irb" | "jruby" | "truffleruby" => Some(Lang::Ruby),
        // TypeScript runners and zx run JavaScript (`tsx -e`, `ts-node -e`, `zx -e`).
        // Other JavaScript engines (V8's `d8`, QuickJS `qjs`) and CoffeeScript, whose
        // `-e` one-liners an agent writes in JavaScript's call syntax.
        "node" | "nodejs" | "bun" | "deno" | "tsx" | "ts-node" | "esno" | "zx" | "d8" | "qjs"
        | "coffee" => Some(Lang::Node),
        "php" => Some(Lang::Php),
        "awk" | "gawk" | "mawk" | "nawk" | "busybox-awk" | "goawk" | "original-awk"
        | "onetrue-awk" | "bioawk" | "frawk" => Some(Lang::Awk),
        "mongo" | "mongosh" => Some(Lang::Mongo),
        // LuaTeX's `texlua` is a plain Lua interpreter with `os.execute`.
        "lua" | "luajit" | "lua5.1" | "lua5.2" | "lua5.3" | "lua5.4" | "texlua" => Some(Lang::Lua),
        "rscript" | "r" => Some(Lang::R),
        _ => crate::tongues::Tongue::of(name).map(Lang::Other),
    }
}

fn is_sql_client(name: &str) -> bool {
    matches!(
        name,
        "psql"
            | "ysqlsh"
            | "mysql"
            | "mariadb"
            | "mysqlsh"
            | "mycli"
            | "litecli"
            | "sqlite3"
            | "sqlite"
            | "clickhouse-client"
            | "clickhouse-local"
            | "duckdb"
            | "cockroach"
            | "sqlcmd"
            | "usql"
            | "snowsql"
            | "cqlsh"
            | "hive"
            | "beeline"
            | "trino"
            | "trino-cli"
            | "presto"
            | "presto-cli"
            | "spark-sql"
            | "impala-shell"
            | "vsql"
            | "sqlplus"
            | "isql"
            | "isql-fb"
            | "db2"
            | "cypher-shell"
            | "influx"
            | "surreal"
    )
}

/// The service a SysV init script path names (`/etc/init.d/ssh` → `ssh`, also `/etc/rc.d/`
/// and `/etc/rc.d/init.d/`), if the path is one.
fn init_script_service(path: &str) -> Option<&str> {
    ["/etc/init.d/", "/etc/rc.d/init.d/", "/etc/rc.d/"]
        .iter()
        .find_map(|dir| path.strip_prefix(dir))
        .filter(|name| !name.is_empty() && !name.contains('/'))
}

/// Whether this call of a SQL client sends it SQL: a CLI that is also an administration tool
/// speaks SQL only in its shell form (`cockroach sql`, `cockroach demo`; InfluxDB 1's
/// `influx -execute`), its other subcommands (`cockroach node decommission`, `influx bucket
/// delete`) are judged by the taxonomy.
fn speaks_sql(name: &str, args: &[Word]) -> bool {
    match name {
        "cockroach" => {
            let first = args.iter().find(|w| !w.text.starts_with('-'));
            first.is_none_or(|w| matches!(w.text.as_str(), "sql" | "demo"))
        }
        "influx" => args
            .iter()
            .any(|w| matches!(w.text.as_str(), "-execute" | "v1")),
        // `surreal sql` is the shell; `surreal start|import|export` are not.
        "surreal" => args.first().is_some_and(|w| w.text == "sql"),
        _ => true,
    }
}

/// A SQL client's short options, as getopt reads them (clusters, attached values).
struct SqlOptions {
    /// Letters that take a value (attached or the next word).
    values: &'static str,
    /// Of those, the ones whose value is SQL.
    code: &'static str,
    /// Of those, the ones whose value is a script file.
    file: &'static str,
    /// Letters whose value can only be attached (`mysql -pSECRET`): the rest of the word.
    attached: &'static str,
    /// Single-dash long options whose next word is SQL (`-cmd`).
    long_single_dash: &'static [&'static str],
}

/// The option tables of the SQL clients (from their `--help`).
fn sql_options(name: &str) -> SqlOptions {
    let (values, code, file, attached, long_single_dash): (_, _, _, _, &[&str]) = match name {
        // YugabyteDB's ysqlsh is psql.
        "psql" | "ysqlsh" => ("cdfFhLopPRTUv", "c", "f", "", &[]),
        "mysql" | "mariadb" => ("eDhPSu", "e", "", "p", &[]),
        "clickhouse-client" | "clickhouse-local" => ("qhud", "q", "", "", &[]),
        "cockroach" | "usql" => ("ecdfuov", "ec", "f", "", &[]),
        "sqlcmd" => ("QqSUPdiIov", "Qq", "i", "", &[]),
        "snowsql" => ("qaudsrwfc", "q", "f", "", &[]),
        "cqlsh" => ("eupkf", "e", "f", "", &[]),
        "mysqlsh" => ("eufhPp", "e", "f", "", &[]),
        "mycli" => ("eDhPuS", "e", "", "", &[]),
        "litecli" => ("eD", "e", "", "", &[]),
        "hive" | "spark-sql" => ("edfi", "e", "fi", "", &[]),
        "beeline" => ("unpedfiw", "e", "fi", "", &[]),
        "trino" | "trino-cli" | "presto" | "presto-cli" => ("f", "", "f", "", &[]),
        "impala-shell" => ("qfidu", "q", "f", "", &[]),
        "vsql" => ("cfhdUwp", "c", "f", "", &[]),
        "cypher-shell" => ("aupdfP", "", "f", "", &[]),
        "influx" => ("", "", "", "", &["-execute"]),
        // Long options with one dash, no clusters.
        "duckdb" => ("", "", "", "", &["-c", "-cmd", "-s"]),
        _ => ("", "", "", "", &["-cmd"]),
    };
    SqlOptions {
        values,
        code,
        file,
        attached,
        long_single_dash,
    }
}

/// Whether perl's or ruby's options (the words before the code's operands) ask for in-place
/// editing: an `i` in an option cluster before the letter that takes the rest of the cluster
/// or the next word as its value (`-pi -e`, `-i.bak`, `-pie` is `-p -i` with suffix `e`, but
/// `-ei` is code `i`).
fn in_place_edit(lang: Lang, options: &[Word]) -> bool {
    let valued = if lang == Lang::Perl {
        "eEIMmxCFl0dDV"
    } else {
        "eIrCEFKxl0TW"
    };
    options.iter().any(|w| {
        w.exact
            && w.text.len() > 1
            && !w.text.starts_with("--")
            && w.text.strip_prefix('-').is_some_and(|letters| {
                letters
                    .chars()
                    .take_while(|c| !valued.contains(*c))
                    .any(|c| c == 'i')
            })
    })
}

/// Index of the first word that is not an option, skipping `value_opts`' values. Stops after
/// `--`. Inexact words are treated as positionals.
fn skip_options(args: &[Word], value_opts: &[&str]) -> usize {
    let mut i = 0;
    while let Some(w) = args.get(i) {
        if !w.exact || !w.text.starts_with('-') || w.text == "-" {
            return i;
        }
        if w.text == "--" {
            return i + 1;
        }
        let takes = value_opts.contains(&w.text.as_str());
        i += if takes { 2 } else { 1 };
    }
    i
}

/// firejail options that only take something away from the command (network, devices,
/// privileges, sound, writable paths) or bound it (`--timeout`, `--rlimit-*`), none that
/// maps one path onto another, loads a profile, joins another sandbox or sets variables.
/// `=`-valued options are listed by name.
const FIREJAIL_RESTRICTIONS: &[&str] = &[
    "--net",
    "--noprofile",
    "--quiet",
    "--private",
    "--private-dev",
    "--private-tmp",
    "--private-cache",
    "--nonewprivs",
    "--noroot",
    "--nosound",
    "--no3d",
    "--nodvd",
    "--notv",
    "--novideo",
    "--nou2f",
    "--noinput",
    "--nodbus",
    "--disable-mnt",
    "--seccomp",
    "--caps",
    "--caps.drop",
    "--read-only",
    "--blacklist",
    "--whitelist",
    "--ipc-namespace",
    "--machine-id",
    "--timeout",
    "--nice",
    "--cpu",
    "--rlimit-as",
    "--rlimit-cpu",
    "--rlimit-fsize",
    "--rlimit-nofile",
    "--rlimit-nproc",
    "--rlimit-sigpending",
];

/// True when every option before the command is one of [`FIREJAIL_RESTRICTIONS`] (with
/// `--net` only `none`, and `--private` with no directory of its own to use as home) and a
/// command follows.
fn sandbox_only_restricts(args: &[Word]) -> bool {
    let end = skip_options(args, &[]);
    end < args.len()
        && args.get(..end).unwrap_or(&[]).iter().all(|w| {
            let (opt, value) = w
                .text
                .split_once('=')
                .map_or((w.text.as_str(), None), |(o, v)| (o, Some(v)));
            w.exact
                && w.text != "--"
                && FIREJAIL_RESTRICTIONS.contains(&opt)
                && match opt {
                    "--net" => value == Some("none"),
                    "--private" => value.is_none(),
                    _ => true,
                }
        })
}

fn has_opt(args: &[Word], end: usize, short: char, long: &str) -> bool {
    args.iter().take(end).any(|w| {
        w.exact
            && ((w.text.starts_with('-') && !w.text.starts_with("--") && w.text.contains(short))
                || w.text == long
                || w.text.starts_with(&format!("{long}=")))
    })
}

/// Programs that decode their input when given `-d`/`--decode`/`-D` (see `producer_of`).
const DECODES_WITH_A_FLAG: &[&str] = &[
    "base64", "base32", "basenc", "openssl", "gzip", "bzip2", "xz", "zstd", "uudecode",
];

fn texts(argv: &[Word]) -> Vec<String> {
    argv.iter().map(|w| w.text.clone()).collect()
}

/// `cat FILE`-style input producer (also used for `< FILE`).
pub(crate) fn file_producer(w: &mut Walker<'_>, word: &Word, scope: &Scope) -> Producer {
    if word.exact && is_endless_device(&word.text) {
        return Producer::Endless;
    }
    if let Some(source) = word
        .exact
        .then(|| crate::flow::read_source(&word.text, &scope.cwd, w.ctx, &w.files))
        .flatten()
    {
        Producer::Secret(source)
    } else if word.exact {
        Producer::LocalFile
    } else {
        Producer::Opaque
    }
}

/// A write target word judged by its place. Found files (`find ROOT | xargs sed -i`, `git
/// ls-files | xargs sed -i`: the word is ROOT with shape `Descendants`) are entries BELOW the
/// root, so the workspace root as ROOT means files inside the workspace, not the root itself
/// (which `judge_write` places outside); any other root is judged as before. Which protected
/// files among them are reached is the policy's to judge (`filter_found_paths`).
fn judge_write_word(t: &Word, scope: &Scope, ctx: &crate::model::Context) -> Option<RuleRef> {
    if t.exact && t.shape == WordShape::Descendants {
        let entry = format!("{}/.hookgate-entry", t.text.trim_end_matches('/'));
        judge_write_in(&entry, true, scope, ctx)?;
    }
    judge_write_in(&t.text, t.exact, scope, ctx)
}

/// [`targets::judge_write`] where `scope` runs. When the directory is one of a joined set
/// ([`Scope::cwd_candidates`]: `mkdir -p D && cd D` then a newline), a relative path is
/// judged in each and the worst answer stands — a write that would reach a protected or
/// outside place from any of them is judged as that — instead of as unplaceable.
pub(crate) fn judge_write_in(
    raw: &str,
    exact: bool,
    scope: &Scope,
    ctx: &crate::model::Context,
) -> Option<RuleRef> {
    judged_in(scope, exact, |cwd| {
        targets::judge_write(raw, exact, cwd, ctx)
    })
}

/// `judge(cwd)` where `scope` runs: at its directory, or — when that is one of a joined set
/// ([`Scope::cwd_candidates`]) and the target is exact — at each candidate, the worst answer
/// standing. A target only known at run time is judged once, as it is anywhere.
fn judged_in(
    scope: &Scope,
    exact: bool,
    judge: impl Fn(&Cwd) -> Option<RuleRef>,
) -> Option<RuleRef> {
    let Some(dirs) = scope.cwd_candidates().filter(|_| exact) else {
        return judge(&scope.cwd);
    };
    let mut worst: Option<RuleRef> = None;
    for dir in dirs {
        if let Some(rule) = judge(&Cwd::Known(dir.clone()))
            && worst.is_none_or(|w| w.verdict().severity() < rule.verdict().severity())
        {
            worst = Some(rule);
        }
    }
    worst
}

/// What a command that prints file names prints: the searches of `crate::listed`, and `git
/// diff --name-only`/`--name-status`-less forms (`git diff --name-only [--cached] [REV…]
/// [-- PATHSPEC…]`), which name files of the worktree relative to its top (the call's cwd
/// in the common case; below the cwd whenever they resolve at all, since git never prints
/// `..`): every file there may be among them, hidden ones included, as `git ls-files`.
fn found_listing(name: &str, args: &[Word]) -> Option<Producer> {
    if name == "git"
        && let [sub, rest @ ..] = args
        && sub.exact
        && sub.text == "diff"
        && rest.iter().all(|w| w.exact)
        && rest.iter().any(|w| w.text == "--name-only")
        && rest.iter().all(|w| {
            !w.text.starts_with('-')
                || w.text == "--"
                || matches!(
                    w.text.as_str(),
                    "--name-only"
                        | "--cached"
                        | "--staged"
                        | "-z"
                        | "--no-renames"
                        | "--ignore-submodules"
                        | "--no-ext-diff"
                        | "--no-color"
                )
                || w.text.starts_with("--diff-filter=")
        })
    {
        return Some(Producer::FindPaths(vec![".".to_owned()]));
    }
    crate::listed::listing(name, args)
}

/// The path a file-listing command's names are found below, as the analysis substitutes
/// it for `xargs` items: `ROOT` for every file below ROOT (`find ROOT`, `git ls-files`,
/// `grep -rl PAT ROOT`, `git diff --name-only`), `ROOT/*` for the visible ones (`rg -l`,
/// `fd`). `None` when `argv` is not such a listing (or not one this analysis models). Lets
/// a caller tie the items a consumer received back to their producer (the policy's filter
/// of protected entries).
#[must_use]
pub fn found_root(argv: &[String]) -> Option<String> {
    match found_roots(argv).as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// Every root a listing prints the files below (`grep -rl X src tests`: `src`, `tests`), as
/// [`found_root`] gives one; empty when `argv` is not such a listing.
#[must_use]
pub fn found_roots(argv: &[String]) -> Vec<String> {
    let Some((first, rest)) = argv.split_first() else {
        return Vec::new();
    };
    let words: Vec<Word> = rest.iter().map(|a| Word::lit(a.clone())).collect();
    match found_listing(basename(first), &words) {
        Some(Producer::FindPaths(roots)) => roots,
        Some(Producer::VisibleFiles(root)) => vec![format!("{}/*", root.trim_end_matches('/'))],
        _ => Vec::new(),
    }
}

/// The first word of a redirect record (see [`redirect_write`]).
pub(crate) fn is_redirect_record(first: &str) -> bool {
    matches!(first, ">" | ">>")
}

/// `> FILE` and friends, recorded as `[">", FILE]`, or `[">>", FILE]` for the appending
/// operators (`>>`, `&>>`): a caller judging what happens to an existing file (truncated or
/// kept) needs the difference.
pub(crate) fn redirect_write(w: &mut Walker<'_>, word: &Word, scope: &Scope, append: bool) {
    if scope.remote {
        return;
    }
    // Even a harmless write makes the line not read-only, so it is always recorded.
    let runner_file = !word.exact && runner_output_file(&word.text);
    let judged = if runner_file {
        None
    } else {
        judge_write_in(&word.text, word.exact, scope, w.ctx)
    };
    let verdict = judged.map_or_else(
        || {
            if runner_file {
                Verdict::normal("writes a CI runner's step output or summary file")
            } else if word.exact && word.text.starts_with("/dev/") {
                Verdict::safe("writes to a device stream")
            } else {
                Verdict::normal("writes a file inside the workspace or temp dir")
            }
        },
        RuleRef::verdict,
    );
    w.commands.push(ExecutedCommand {
        argv: vec![
            if append { ">>" } else { ">" }.to_owned(),
            word.text.clone(),
        ],
        via: scope.via.clone(),
        verdict,
        effects: Vec::new(),
        cwd: scope.cwd_path(),
        stdin: None,
        writes: None,
        output_discarded: false,
    });
}

/// `$GITHUB_OUTPUT`, `"${GITHUB_STEP_SUMMARY:-/dev/null}"`: the files a CI runner gives a
/// step for its outputs and summary (GitHub Actions; Forgejo/Gitea use the same names). The
/// runner reads them as data after the step; outside CI the variable is unset and the
/// default (`/dev/null`) or nothing is written. Not `$GITHUB_ENV`/`$GITHUB_PATH`: those set
/// the environment and `PATH` of every later step.
fn runner_output_file(text: &str) -> bool {
    const FILES: &[&str] = &["GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY", "GITHUB_STATE"];
    let inner = text
        .strip_prefix("${")
        .and_then(|t| t.strip_suffix('}'))
        .or_else(|| text.strip_prefix('$'));
    let Some(inner) = inner else { return false };
    let (name, default) = match inner.find([':', '-']) {
        Some(at) => {
            let rest = &inner[at..];
            let default = rest.strip_prefix(":-").or_else(|| rest.strip_prefix('-'));
            match default {
                Some(d) => (&inner[..at], Some(d)),
                None => return false,
            }
        }
        None => (inner, None),
    };
    FILES.contains(&name) && default.is_none_or(|d| d == "/dev/null")
}

/// What a program makes of an endless input (`yes`, `/dev/zero` on stdin or as its file):
/// `head -c N` ends it (endless again when N is 10 GiB or more), a program that prints facts
/// ends it, and filters (compressors, `tr`, `sed`, `base64`, unknown programs) keep it
/// endless. `None` when the input is not endless.
fn endless_through(name: &str, args: &[Word], stdin: &Producer) -> Option<Producer> {
    let endless_file = args.iter().any(|w| w.exact && is_endless_device(&w.text));
    if *stdin != Producer::Endless && !endless_file {
        return None;
    }
    if name == "head" {
        let size = args
            .windows(2)
            .find_map(|p| (p[0].text == "-c" || p[0].text == "--bytes").then(|| p[1].text.clone()));
        let huge = size
            .as_deref()
            .and_then(crate::hazards::parse_size)
            .is_some_and(|n| n >= crate::hazards::HUGE);
        return Some(if huge {
            Producer::Endless
        } else {
            Producer::Opaque
        });
    }
    // Filters that also read a file operand (`gzip -c /dev/zero`, `base64 /dev/urandom`)
    // pass an endless file on like `cat` does.
    let file_filter = matches!(
        name,
        "cat"
            | "gzip"
            | "bzip2"
            | "xz"
            | "zstd"
            | "lz4"
            | "base64"
            | "base32"
            | "od"
            | "xxd"
            | "hexdump"
            | "strings"
            | "tee"
    );
    if matches!(
        name,
        "wc" | "md5sum" | "sha1sum" | "sha256sum" | "sha512sum" | "cksum" | "pv" | "timeout"
    ) || (!file_filter && *stdin != Producer::Endless)
    {
        return None;
    }
    Some(Producer::Endless)
}

/// `via` labels of the places a tool runs a command for its user: `find -exec`, interpreter
/// code (`awk -c`, `python3 -c`), editor escapes, command-valued options, SQL client escapes.
fn is_escape_context(via: &str) -> bool {
    via == "find -exec"
        || via.starts_with("vim")
        || via.ends_with(" option")
        || via.ends_with("shell escape")
        || via
            .strip_suffix(" -c")
            .is_some_and(|p| is_interpreter(p) && !is_shell(p))
}

/// Devices that never reach end of file when read.
pub(crate) fn is_endless_device(path: &str) -> bool {
    matches!(path, "/dev/zero" | "/dev/urandom" | "/dev/random")
}

fn worse(a: Option<Verdict>, b: Verdict) -> Verdict {
    match a {
        Some(a) if a.severity() >= b.severity() => a,
        _ => b,
    }
}

impl Walker<'_> {
    pub(crate) fn record(&mut self, argv: &[Word], scope: &Scope, verdict: Verdict) {
        self.record_text(texts(argv), scope, verdict);
    }

    /// Records a command whose argv is already text, where `scope` says it runs.
    pub(crate) fn record_text(&mut self, argv: Vec<String>, scope: &Scope, verdict: Verdict) {
        self.commands.push(ExecutedCommand {
            argv,
            via: scope.via.clone(),
            verdict,
            effects: Vec::new(),
            cwd: scope.cwd_path(),
            stdin: None,
            writes: None,
            output_discarded: false,
        });
    }

    /// A simple command node: assignments, name, arguments, redirects.
    /// The program a command name that is one lookup substitution runs:
    /// `"$(command -v python3)" -m pip`, `` `which node` x.js``, `$(type -P git) status` run
    /// what PATH lookup finds for that name, exactly what the bare name runs (a function or
    /// builtin of that name too: `command -v` prints the name itself then). Read from the
    /// command the walker recorded for the substitution (`before` = the record count before
    /// the name was walked), so the lookup is parsed, never read off the text; only when the
    /// name word is that substitution and nothing else (`$(command -v x)/../y` is a path
    /// computed at run time) and the looked-up name is a plain literal. Elsewhere (`rm
    /// "$(which python3)"`) the word stays a value known only at run time.
    fn looked_up_name(&self, target: Node<'_>, before: usize) -> Option<String> {
        // `$(…)`/backquotes, or `"$(…)"` holding nothing else.
        let lone = match target.kind() {
            "command_substitution" => true,
            "string" => target.named_child(0).is_some_and(|inner| {
                target.named_child_count() == 1
                    && inner.kind() == "command_substitution"
                    && inner.start_byte() == target.start_byte() + 1
                    && inner.end_byte() + 1 == target.end_byte()
            }),
            _ => false,
        };
        if !lone {
            return None;
        }
        let [record] = self.commands.get(before..)? else {
            return None;
        };
        let argv: Vec<&str> = record.argv.iter().map(String::as_str).collect();
        let name = match argv.as_slice() {
            ["command", "-v", name] | ["which", name] | ["type", "-P" | "-p", name] => *name,
            _ => return None,
        };
        let plain = !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-' | b'+'))
            && !name.starts_with('-');
        plain.then(|| name.to_owned())
    }

    pub(crate) fn command(
        &mut self,
        node: Node<'_>,
        src: &str,
        scope: &mut Scope,
        stdin: Producer,
    ) -> Producer {
        let mut argv: Vec<Word> = Vec::new();
        // A `>(…)` among the words receives what the command writes to it: its standard
        // input, when that is secret or downloaded, for the copiers that write it there
        // (`tee`).
        let outer_psub = std::mem::replace(
            &mut self.psub_input,
            matches!(stdin, Producer::Secret(_) | Producer::Download).then(|| stdin.clone()),
        );
        let mut input = stdin;
        let mut continuations = Vec::new();
        let (sockets, written) = (self.sockets.len(), self.written.len());
        let records = self.write_records.len();
        let mut prefix = Vec::new();
        let children = crate::walk::children_with_fields(node);
        // End of the previous word: tree-sitter-bash sometimes splits what bash reads as one
        // word (`'-'\c` is `-c` to bash, two nodes to the grammar). Adjacent nodes with no
        // blank between them are glued back together, so the grammar's quirk cannot hide a flag.
        let mut previous_end = None;
        // End of a prefix assignment: tree-sitter-bash ends `X=$A:$B/x` after `:$` and reads
        // `B/x` as the command name, though bash reads one assignment word and runs the next
        // word (`X=$A:$B/x rm -rf ~` runs `rm`). What is glued to an assignment is its value:
        // unknown here (the grammar lost the `$`), its substitutions still run.
        let mut assign_end = None;
        let mut set_env = Vec::new();
        for (index, (child, field)) in children.iter().enumerate() {
            let field = *field;
            if assign_end.is_some_and(|end| glued(src, end, child.start_byte()))
                && matches!(field, Some("name" | "argument"))
            {
                self.scan_substitutions(*child, src, scope, 1);
                if let Some((_, value)) = prefix.last_mut() {
                    *value = Val::Unknown;
                }
                assign_end = Some(child.end_byte());
                continue;
            }
            let adjacent = previous_end.is_some_and(|end| glued(src, end, child.start_byte()));
            // tree-sitter-bash reads the `0` of `sh 0</tmp/f` as an argument; bash reads a
            // number glued to a redirection as its file descriptor.
            let fd_of_next = field == Some("argument")
                && child.kind() == "number"
                && text(*child, src).bytes().all(|b| b.is_ascii_digit())
                && children
                    .get(index + 1)
                    .map(|(n, _)| *n)
                    .or_else(|| following(node))
                    .is_some_and(|n| {
                        n.start_byte() == child.end_byte() && n.kind().ends_with("redirect")
                    });
            match (field, child.kind()) {
                _ if fd_of_next => {}
                (Some("name" | "argument"), _) => {
                    let target = if field == Some("name") {
                        child.named_child(0).unwrap_or(*child)
                    } else {
                        *child
                    };
                    previous_end = Some(child.end_byte());
                    let first_name = field == Some("name") && argv.is_empty();
                    match argv.last_mut() {
                        Some(last) if adjacent => {
                            let mut fields = self.fields(target, src, scope, 1);
                            let one = fields.len() == 1;
                            let mut word = fields.pop().unwrap_or_else(|| Word::lit(""));
                            // Brace or field expansion inside a glued word: not one argument.
                            word.exact &= one;
                            glue(last, word);
                        }
                        _ if first_name => {
                            let before = self.commands.len();
                            self.fields_into(target, src, scope, 1, &mut argv);
                            if let Some(name) = self.looked_up_name(target, before)
                                && let [only] = argv.as_mut_slice()
                            {
                                *only = Word::lit(name);
                            }
                        }
                        _ => self.fields_into(target, src, scope, 1, &mut argv),
                    }
                }
                (Some("redirect"), _)
                | (_, "file_redirect" | "herestring_redirect" | "heredoc_redirect") => {
                    if let Some(p) = self.redirect(*child, src, scope, 1, &mut continuations) {
                        input = p;
                    }
                }
                (_, "variable_assignment") => {
                    assign_end = Some(child.end_byte());
                    prefix.push(self.assignment(*child, src, scope, 1));
                    if let Some(n) = child.child_by_field_name("name") {
                        set_env.push(text(n, src).to_owned());
                    }
                }
                (_, "comment") => {}
                // `time (cd ~ && rm -rf .aws)`: bash's `time` keyword times a compound
                // command, which the grammar hangs on the `time` command as a child. It runs.
                (None, "subshell" | "compound_statement") => self.stmt(*child, src, scope, 1),
                _ if child.is_named() => self.scan_substitutions(*child, src, scope, 1),
                _ => {}
            }
        }
        self.psub_input = outer_psub;
        // tree-sitter-bash drops a lone `-` right before a heredoc (`kubectl apply -f - <<EOF`,
        // `make -f - <<'MK'`, `cat - <<E`): the word sits in the gap between the command node
        // and the heredoc redirect. Bash reads it as the command's last argument — the one
        // that says the file operand is standard input — so it is put back.
        if let Some(next) = following(node).filter(|n| n.kind() == "heredoc_redirect")
            && let Some(gap) = src.get(node.end_byte()..next.start_byte())
            && gap.split_ascii_whitespace().eq(["-"])
        {
            argv.push(Word::lit("-"));
        }
        // `exec 0<&3` (the grammar keeps the redirect inside the command): a bare `exec`
        // makes a standard-input redirect the shell's own (see `Walker::with_redirects`).
        if matches!(input, Producer::Secret(_))
            && argv.len() == 1
            && argv.first().is_some_and(|w| w.exact && w.text == "exec")
            && children
                .iter()
                .any(|(c, _)| crate::walk::redirects_stdin(*c, src))
        {
            self.shell_stdin = input.clone();
        }
        let before = self.commands.len();
        let out = self.exec_with_prefix(&argv, prefix, scope, input);
        self.settle_writes(records, &out);
        self.after_redirects(before, sockets, written, &out, scope);
        self.attach_set_env(before, set_env, text(node, src), scope);
        for (_, cont) in continuations {
            self.stmt(cont, src, scope, 1);
        }
        out
    }

    /// Executes a resolved argv (possibly after peeling a wrapper). Returns its stdout producer.
    ///
    /// Text the line feeds this command's stdin is attached to the command recorded for it at
    /// this level (a wrapper that passes stdin on records the command one level down, which
    /// attaches it there first; one that does not, such as `xargs`, gets none).
    pub(crate) fn exec(&mut self, argv: &[Word], scope: &mut Scope, stdin: Producer) -> Producer {
        let fed = match &stdin {
            Producer::Text { text, exact } => Some(crate::model::Text {
                text: text.clone(),
                exact: *exact,
            }),
            _ => None,
        };
        // A redirected file goes with the stdin like text does: to the command one level
        // down when a wrapper passes it on, else to the command recorded here.
        let from_file = matches!(stdin, Producer::LocalFile)
            .then(|| self.files.stdin_file.clone())
            .flatten();
        // `cat < ~/.ssh/id_rsa`, `tr -d '\r' < .env`: a printer fed a credential file; and
        // `python3 -c '…' < ~/.aws/credentials`, `awk 1 < .env`, `node app.js < key.pem`: code
        // handed a credential as its input, whatever the code does with it — as a credential
        // among an interpreter's operands is read (see `Walker::interpreter`).
        let reads_secret = match &stdin {
            Producer::Secret(crate::model::FlowSource::SensitiveFile { path }) => {
                argv.first().is_some_and(|n| {
                    let args = argv.get(1..).unwrap_or(&[]);
                    let name = basename(&n.text);
                    crate::argdanger::prints_stdin(name, args) || code_reads_stdin(name, args, path)
                })
            }
            _ => false,
        };
        let (before, named) = (self.commands.len(), self.files.stdin_files.len());
        let out = self.dispatch(argv, scope, stdin);
        if reads_secret {
            let own = self.commands.get_mut(before..).and_then(|cs| {
                cs.iter_mut().find(|c| {
                    c.via == scope.via && c.argv.first().is_none_or(|a| !is_redirect_record(a))
                })
            });
            if let Some(cmd) = own {
                cmd.verdict = worse(
                    Some(cmd.verdict.clone()),
                    ids::CRED_READ_SECRET_FILE.verdict(),
                );
            } else {
                // The program recorded only what it runs in turn (`python3 -m json.tool`
                // records `json.tool` one level down): the read is recorded on its own line.
                self.record(argv, scope, ids::CRED_READ_SECRET_FILE.verdict());
            }
        }
        if let Some(file) = from_file {
            self.files.stdin_file = None;
            if self.files.stdin_files.len() == named
                && let Some(at) = self.commands.get(before..).and_then(|cs| {
                    cs.iter().position(|c| {
                        c.via == scope.via && c.argv.first().is_none_or(|a| !is_redirect_record(a))
                    })
                })
            {
                self.files.stdin_files.push((before + at, file));
            }
        }
        if let Some(fed) = fed
            && let Some(cmd) = self.commands.get_mut(before..).and_then(|cs| {
                cs.iter_mut().find(|c| {
                    c.via == scope.via && c.argv.first().is_none_or(|a| !is_redirect_record(a))
                })
            })
        {
            cmd.stdin.get_or_insert(fed);
        }
        out
    }

    fn dispatch(&mut self, argv: &[Word], scope: &mut Scope, stdin: Producer) -> Producer {
        let Some(first) = argv.first() else {
            return Producer::Nothing;
        };
        if self.commands.len() > self.limits.max_commands {
            self.unknown("too many commands");
            return Producer::Opaque;
        }
        // `$SHELL --version`, `"$SHELL" -lc 'make test'`: the user's login shell, a POSIX-style
        // shell the line did not set, is run as one (its `-c` code analysed as shell code).
        if !first.exact
            && matches!(
                first.text.as_str(),
                "$SHELL" | "${SHELL}" | "\"$SHELL\"" | "\"${SHELL}\""
            )
            && scope.sh.get("SHELL").is_none()
        {
            let mut as_shell = argv.to_vec();
            as_shell[0] = Word::lit("sh");
            return self.dispatch(&as_shell, scope, stdin);
        }
        if !first.exact {
            let verdict = if first.substs.contains(&Producer::Download) {
                ids::RCE_DOWNLOAD_TO_SHELL.verdict()
            } else {
                Verdict::unknown(
                    "the command name is computed at run time (variable, substitution or expansion)",
                )
            };
            self.record(argv, scope, verdict);
            return Producer::Opaque;
        }
        // A command name the shell expands as a pattern (`/bin/r? -rf ~`, `/usr/bin/c[h]mod`)
        // runs whatever file matches: computed at run time. A lone `[` or `[[` is no pattern.
        if is_name_pattern(&first.text) {
            self.record(
                argv,
                scope,
                Verdict::unknown("the command name is a pattern the shell expands at run time"),
            );
            return Producer::Opaque;
        }
        // `time { rm -rf x; }`: the grammar splits bash's group into words, `{` first; the
        // group's commands run (`}` alone closes it).
        if first.text == "{" {
            return match argv.get(1..) {
                Some(rest) if !rest.is_empty() => self.dispatch(rest, scope, stdin),
                _ => Producer::Nothing,
            };
        }
        if first.text == "}" && argv.len() == 1 {
            return Producer::Nothing;
        }
        let name = command_name(&first.text);
        // `/etc/init.d/ssh stop`: a SysV init script is the service it is named after, run
        // with the verb `service` would pass it; judged as `service ssh stop`.
        if first.exact
            && let Some(service) = init_script_service(&first.text)
        {
            let mut as_service = vec![
                Word {
                    text: "service".to_owned(),
                    ..first.clone()
                },
                Word {
                    text: service.to_owned(),
                    ..first.clone()
                },
            ];
            as_service.extend(argv.get(1..).unwrap_or(&[]).iter().cloned());
            return self.dispatch(&as_service, scope, stdin);
        }
        // An alias runs its body with the arguments appended. bash expands it only on a
        // later line and with `expand_aliases` (zsh always), so the command as written is
        // judged too: the line is as dangerous as either reading.
        if let Some(body) = scope
            .sh
            .aliases
            .iter()
            .rev()
            .find(|(n, _)| *n == first.text)
            .map(|(_, b)| b.clone())
        {
            let label = format!("alias {}", first.text);
            if !scope.via.contains(&label) {
                self.expand_alias(&label, &body, argv.get(1..).unwrap_or(&[]), scope, &stdin);
            }
        }
        if scope.sh.functions.iter().any(|f| f.name == first.text) {
            let functions: Vec<crate::state::Function> = scope
                .sh
                .functions
                .iter()
                .filter(|f| f.name == first.text)
                .cloned()
                .collect();
            self.record(
                argv,
                scope,
                Verdict::normal("calls a function defined in this command line"),
            );
            for f in &functions {
                self.call_function(f, argv.get(1..).unwrap_or(&[]), scope);
            }
            return Producer::Opaque;
        }
        self.check_downloaded_run(&name, argv, scope);
        self.check_stdin_flow(&name, argv, &stdin, scope);
        let args: &[Word] = argv.get(1..).unwrap_or(&[]);
        let before_self = self.commands.len();
        // `zig run /dev/stdin <<'Z' …`, `dart run - <<'D' …`, `escript /dev/stdin <<< …`,
        // `java --source 21 /dev/stdin <<'J' …`: a compiler or launcher given its program on
        // standard input runs that text, judged by the language's token reader.
        // The command is still classified as itself below (its options may load code too).
        if let Some(tongue) = stdin_program(&name, args) {
            let via = format!("{name} (program on stdin)");
            self.judge_code_input(argv, stdin.clone(), Some(Lang::Other(tongue)), scope, &via);
        }
        match name.as_str() {
            "sudo" | "doas" => self.sudo(&name, argv, args, scope, stdin),
            // `cross-env VAR=v CMD` (npm) sets variables for CMD exactly like `env`.
            "env" | "cross-env" => self.env(argv, args, scope, stdin),
            "command" => {
                let end = skip_options(args, &[]);
                if has_opt(args, end, 'v', "-v") || has_opt(args, end, 'V', "-V") {
                    self.record(argv, scope, Verdict::safe("looks a command up"));
                    return Producer::Opaque;
                }
                self.peel_here(
                    argv,
                    args.get(end..).unwrap_or(&[]),
                    "command",
                    scope,
                    stdin,
                )
            }
            "builtin" => self.peel_here(argv, args, "builtin", scope, stdin),
            "nohup" | "setsid" | "unbuffer" | "chronic" | "nocache" | "catchsegv"
            | "unshare-noop" => {
                let end = skip_options(args, &[]);
                self.peel(argv, args.get(end..).unwrap_or(&[]), &name, scope, stdin)
            }
            // A sandbox given only options that take something away (`firejail --net=none
            // pytest`): the command inside runs with the same files and is judged as typed.
            "firejail" if sandbox_only_restricts(args) => {
                let end = skip_options(args, &[]);
                self.peel(
                    argv,
                    args.get(end..).unwrap_or(&[]),
                    "firejail",
                    scope,
                    stdin,
                )
            }
            "exec" => {
                let end = skip_options(args, &["-a"]);
                self.peel(argv, args.get(end..).unwrap_or(&[]), "exec", scope, stdin)
            }
            "nice" => {
                let end = skip_options(args, &["-n", "--adjustment"]);
                self.peel(argv, args.get(end..).unwrap_or(&[]), "nice", scope, stdin)
            }
            "time" => {
                // bash's `time` is a keyword: a builtin it times runs in this shell.
                let end = skip_options(args, &["-f", "--format", "-o", "--output"]);
                self.peel_here(argv, args.get(end..).unwrap_or(&[]), "time", scope, stdin)
            }
            "stdbuf" => {
                let end = skip_options(args, &["-i", "-o", "-e", "--input", "--output", "--error"]);
                self.peel(argv, args.get(end..).unwrap_or(&[]), "stdbuf", scope, stdin)
            }
            "ionice" => {
                let end = skip_options(args, &["-c", "-n", "--class", "--classdata"]);
                self.peel(argv, args.get(end..).unwrap_or(&[]), "ionice", scope, stdin)
            }
            "caffeinate" => {
                let end = skip_options(args, &["-t", "-w"]);
                self.peel(
                    argv,
                    args.get(end..).unwrap_or(&[]),
                    "caffeinate",
                    scope,
                    stdin,
                )
            }
            "timeout" | "chrt" | "taskset" => {
                let end = skip_options(args, &["-s", "--signal", "-k", "--kill-after"]);
                // One positional (duration / priority / mask) precedes the command.
                let out = self.peel(
                    argv,
                    args.get(end + 1..).unwrap_or(&[]),
                    &name,
                    scope,
                    stdin,
                );
                // `timeout 5 yes > /dev/null`: the stream ends when the time is up.
                if name == "timeout" && out == Producer::Endless {
                    Producer::Opaque
                } else {
                    out
                }
            }
            "strace" | "ltrace" => {
                let end = skip_options(
                    args,
                    &["-o", "-e", "-p", "-s", "-u", "-E", "-P", "-a", "-X", "-b"],
                );
                self.output_options(&name, argv, args.get(..end).unwrap_or(&[]), scope);
                self.peel(argv, args.get(end..).unwrap_or(&[]), &name, scope, stdin)
            }
            "busybox" | "toybox" => self.peel(argv, args, &name, scope, stdin),
            // `cmake -E rm -rf DIR`: CMake's portable command tools are the commands they
            // stand for (`cmake_tool`).
            "cmake" if args.first().is_some_and(|w| w.exact && w.text == "-E") => {
                if let Some(line) = cmake_tool(args.get(1..).unwrap_or(&[])) {
                    self.peel(argv, &line, "cmake -E", scope, stdin)
                } else {
                    self.classify_plain(&name, argv, scope);
                    Producer::Opaque
                }
            }
            // `java -jar tools/bfg-1.14.0.jar --delete-files …`, `java -jar jenkins-cli.jar
            // … delete-job X`: the jar is the program, judged as the command it is named for
            // (`bfg`, `jenkins-cli`); the JVM's own options before `-jar` change nothing here.
            "java" if jar_command(args).is_some() => {
                let Some(rest) = jar_command(args) else {
                    return Producer::Opaque;
                };
                // The JVM line is still judged and recorded as written (the jar's own path is
                // what write-then-run tracking and the path rules see): the jar's name can add
                // a rule, never clear one (`java -jar ls.jar` is not `ls`).
                self.classify_plain(&name, argv, scope);
                self.peel(argv, &rest, "java -jar", scope, stdin)
            }
            // `TF_CLI_ARGS_apply=-auto-approve terraform apply`: Terraform adds the words of
            // `TF_CLI_ARGS` and `TF_CLI_ARGS_<subcommand>` to its command line, so the rules
            // see the line Terraform runs.
            "terraform" | "tofu" if tf_cli_args(args, scope).is_some() => {
                let mut line = argv.to_vec();
                line.extend(tf_cli_args(args, scope).unwrap_or_default());
                self.classify_plain(&name, &line, scope);
                self.producer_of(&name, args, &stdin, scope)
            }
            "flock" => self.flock(argv, args, scope, stdin),
            "watch" => self.watch(argv, args, scope),
            "xargs" => self.xargs(argv, args, scope, &stdin),
            "parallel" => self.parallel(argv, args, scope, stdin),
            "su" | "runuser" => self.su(argv, args, scope),
            "ssh" => self.ssh(argv, args, scope, &stdin),
            // autossh keeps an ssh connection up: its own `-M PORT` aside, it is ssh.
            "autossh" => {
                let mut rest = args.to_vec();
                if let Some(i) = rest
                    .iter()
                    .position(|w| w.exact && w.text.starts_with("-M"))
                {
                    let n = if rest.get(i).is_some_and(|w| w.text == "-M") {
                        2
                    } else {
                        1
                    };
                    rest.drain(i..(i + n).min(rest.len()));
                }
                self.ssh(argv, &rest, scope, &stdin)
            }
            "script" => {
                let (opts, _) = crate::deferred::scan(
                    "script",
                    args,
                    "cTIOBEm",
                    &[
                        "--command",
                        "--timing",
                        "--log-in",
                        "--log-out",
                        "--log-io",
                        "--log-timing",
                        "--echo",
                        "--logging-format",
                        "--output-limit",
                    ],
                );
                let command = opts
                    .into_iter()
                    .rev()
                    .find(|o| o.name == "-c" || o.name == "--command")
                    .and_then(|o| o.value);
                match command {
                    Some(code) => self.run_code_string(argv, &code, scope, "script -c"),
                    None => {
                        self.record(argv, scope, Verdict::normal("records a terminal session"));
                    }
                }
                Producer::Opaque
            }
            "eval" if self.evaluates_shell_init(args, scope) => {
                self.record(
                    argv,
                    scope,
                    Verdict::normal("evaluates the shell set-up code of a well-known tool"),
                );
                Producer::Opaque
            }
            "eval" => {
                let joined = Word {
                    text: texts(args).join(" "),
                    exact: args.iter().all(|w| w.exact),
                    shape: WordShape::Exact,
                    substs: args.iter().flat_map(|w| w.substs.clone()).collect(),
                };
                self.eval_code(argv, &joined, scope, "eval");
                Producer::Opaque
            }
            "source" | "." if self.evaluates_shell_init(args, scope) => {
                self.record(
                    argv,
                    scope,
                    Verdict::normal("sources the shell set-up code of a well-known tool"),
                );
                // Set-up code assigns variables the analysis does not see.
                scope.sh.poison();
                Producer::Opaque
            }
            "source" | "." => {
                match args.first() {
                    Some(file)
                        if file
                            .substs
                            .iter()
                            .any(|p| *p != Producer::LocalFile && *p != Producer::Nothing) =>
                    {
                        let producer = file.substs.last().cloned().unwrap_or(Producer::Opaque);
                        self.judge_code_input(argv, producer, None, scope, "source");
                    }
                    Some(file) if file.exact && (file.text == "/dev/stdin" || file.text == "-") => {
                        self.judge_code_input(argv, stdin, None, scope, "source");
                    }
                    _ => self.classify_plain(&name, argv, scope),
                }
                // The sourced code runs in this shell: it may assign any variable.
                scope.sh.poison();
                Producer::Opaque
            }
            "cd" | "chdir" | "pushd" | "popd" | "dirs" => {
                self.directory(&name, args, scope);
                self.record(argv, scope, Verdict::safe("changes directory"));
                Producer::Nothing
            }
            "set" | "shift" | "read" | "mapfile" | "readarray" | "getopts" | "let" | "wait"
            | "unset" | "shopt" | "hash" => {
                // What `read`/`mapfile` assign is the data they read: a secret makes the
                // variables secret sources (`while read -r l; do nslookup "$l.x.example";
                // done < .env`).
                let secret = match &stdin {
                    Producer::Secret(source) => Some(source.clone()),
                    Producer::Nothing => self.group_secret.clone(),
                    _ => None,
                }
                .or_else(|| self.descriptor_secret(&name, args));
                let items = match &stdin {
                    Producer::Nothing => self.group_items.clone(),
                    _ => Self::listing_items(&stdin),
                };
                Self::shell_builtin(&name, args, scope, secret.as_ref(), items.as_ref());
                self.classify_plain(&name, argv, scope);
                self.producer_of(&name, args, &stdin, scope)
            }
            n if SHELLS.contains(&n) => self.shell(argv, args, scope, stdin),
            // `bun x PKG` runs a package; `bun -e` is an interpreter.
            "bun" if let Some(out) = self.runner(&name, argv, args, scope, &stdin) => out,
            // Launchers whose subcommand is an interpreter given code: `dotnet script eval
            // CODE` is `dotnet-script eval CODE`, `mix run -e CODE` is `elixir -e CODE`.
            "dotnet" | "mix" | "stack" | "lein" | "ocamlfind" | "nvim" | "flask"
            | "django-admin" | "rails" | "php" | "manage.py" | "artisan"
                if let Some(line) = launched_interpreter(&name, args) =>
            {
                self.dispatch(&line, scope, stdin)
            }
            // Any Python's `manage.py shell` (`python3.12 manage.py shell -c CODE`).
            n if n.starts_with("python")
                && let Some(line) = framework_console(n, args) =>
            {
                self.dispatch(&line, scope, stdin)
            }
            n if !embedded_python(n, args).is_empty() => {
                self.classify_plain(n, argv, scope);
                let mut out = Producer::Opaque;
                for line in embedded_python(n, args) {
                    out = self.dispatch(&line, scope, stdin.clone());
                }
                out
            }
            n if interpreter(n).is_some() => {
                let lang = interpreter(n).unwrap_or(Lang::Python);
                self.interpreter(lang, argv, args, scope, stdin)
            }
            n if is_sql_client(n) && speaks_sql(n, args) => {
                self.sql_client(n, argv, args, scope, &stdin)
            }
            // Clients reached through a subcommand of a bigger CLI: `clickhouse client|local
            // --query SQL`, Cloudflare D1's `wrangler d1 execute DB --command SQL`.
            "clickhouse"
                if args
                    .first()
                    .is_some_and(|w| matches!(w.text.as_str(), "client" | "local")) =>
            {
                self.sql_client(
                    "clickhouse-client",
                    argv,
                    args.get(1..).unwrap_or(&[]),
                    scope,
                    &stdin,
                )
            }
            // BigQuery's `bq query 'SQL'`: the operand is the statement.
            "bq" if args.first().is_some_and(|w| w.text == "query") => {
                self.sql_client("bq", argv, args, scope, &stdin)
            }
            "wrangler"
                if args.len() > 2
                    && args.first().is_some_and(|w| w.text == "d1")
                    && args.get(1).is_some_and(|w| w.text == "execute") =>
            {
                self.sql_client("wrangler", argv, args, scope, &stdin)
            }
            "export" | "declare" | "typeset" | "readonly" | "local" => {
                self.classify_plain(&name, argv, scope);
                self.declare_words(&name, args, scope);
                // The statement form judges these in the walker; reached as words (the plain
                // words fast path, `command export …`) they are judged the same way, so
                // `export LD_PRELOAD=/tmp/x.so` asks on either path (`rce.env_hijack`).
                for w in args.iter().filter(|w| !w.text.starts_with(['-', '+'])) {
                    if let Some((var, value)) = w.text.split_once('=')
                        && is_hijack_variable(var)
                    {
                        let value = Word {
                            text: value.to_owned(),
                            ..w.clone()
                        };
                        if let Some(verdict) = self.hijack_verdict(var, Some(&value), scope) {
                            self.record(std::slice::from_ref(w), scope, verdict);
                        }
                    }
                }
                let exports = name == "export"
                    || args
                        .iter()
                        .any(|w| w.exact && w.text.starts_with('-') && w.text.contains('x'));
                let names: Vec<String> = args
                    .iter()
                    .filter(|w| !w.text.starts_with(['-', '+']))
                    .filter_map(|w| match w.text.split_once('=') {
                        Some((n, _)) => Some(n.to_owned()),
                        None if exports => Some(w.text.clone()),
                        None => None,
                    })
                    .collect();
                self.attach_set_env(before_self, names, &name, scope);
                crate::flow::command_source(
                    &name,
                    args,
                    &stdin,
                    false,
                    &scope.cwd,
                    self.ctx,
                    &self.files,
                )
                .map_or(Producer::Nothing, Producer::Secret)
            }
            "apply_patch" | "applypatch" => {
                self.apply_patch(argv, args, scope, stdin);
                Producer::Opaque
            }
            // `dirname "$0"`, `basename "$f" .sh` of a known word print a known name (POSIX's
            // string rules, no file is read): `cd "$(dirname "$0")/.."` lands somewhere known.
            "dirname" | "basename" => {
                self.classify_plain(&name, argv, scope);
                match args {
                    [w] if w.exact && !w.text.starts_with('-') => Producer::Text {
                        text: if name == "dirname" {
                            posix_dirname(&w.text)
                        } else {
                            posix_basename(&w.text, "")
                        },
                        exact: true,
                    },
                    [w, suffix]
                        if name == "basename"
                            && w.exact
                            && suffix.exact
                            && !w.text.starts_with('-')
                            && !suffix.text.starts_with('-') =>
                    {
                        Producer::Text {
                            text: posix_basename(&w.text, &suffix.text),
                            exact: true,
                        }
                    }
                    _ => Producer::Opaque,
                }
            }
            "echo" => {
                self.classify_plain(&name, argv, scope);
                if let Some(source) = crate::flow::words_source(args) {
                    return Producer::Secret(source);
                }
                let mut words = args;
                while words
                    .first()
                    .is_some_and(|w| w.exact && matches!(w.text.as_str(), "-n" | "-E"))
                {
                    words = words.get(1..).unwrap_or(&[]);
                }
                let exact = words.iter().all(|w| w.exact)
                    && !words.first().is_some_and(|w| w.text.starts_with("-e"));
                Producer::Text {
                    text: texts(words).join(" "),
                    exact,
                }
            }
            "printf" => {
                self.classify_plain(&name, argv, scope);
                let mut rest = args;
                let mut assign = None;
                while let Some(w) = rest.first().filter(|w| w.exact) {
                    match w.text.as_str() {
                        "--" => {
                            rest = rest.get(1..).unwrap_or(&[]);
                            break;
                        }
                        "-v" => {
                            assign = rest.get(1).cloned();
                            rest = rest.get(2..).unwrap_or(&[]);
                        }
                        _ => break,
                    }
                }
                if let Some(source) = crate::flow::words_source(rest) {
                    if let Some(var) = assign {
                        scope.sh.set(&var.text, Val::Unknown, None);
                    }
                    return Producer::Secret(source);
                }
                let (format, values) = rest
                    .split_first()
                    .map_or((None, &[][..]), |(f, v)| (Some(f), v));
                let value_texts: Vec<&str> = values.iter().map(|w| w.text.as_str()).collect();
                let printed = format
                    .filter(|f| f.exact)
                    .and_then(|f| crate::expand::printf(&f.text, &value_texts));
                let exact = printed.is_some() && values.iter().all(|w| w.exact);
                let text = printed.unwrap_or_default();
                if let Some(var) = assign {
                    // `printf -v NAME`: the output goes into the variable.
                    if var.exact {
                        let value = if exact {
                            Val::Known(text)
                        } else {
                            Val::Unknown
                        };
                        scope.sh.set(&var.text, value, None);
                    } else {
                        scope.sh.poison();
                    }
                    return Producer::Nothing;
                }
                Producer::Text { text, exact }
            }
            "cat" | "tee" => {
                self.classify_plain(&name, argv, scope);
                // `tee FILE` writes what it reads into its files.
                if name == "tee"
                    && let Producer::Text { text, exact } = &stdin
                    && let Some(c) = self.commands.last_mut()
                {
                    c.writes = Some(crate::model::Text {
                        text: text.clone(),
                        exact: *exact,
                    });
                }
                let files: Vec<&Word> = args
                    .iter()
                    .filter(|w| !(w.exact && w.text.starts_with('-') && w.text.len() > 1))
                    .collect();
                if name == "tee"
                    && stdin == Producer::Endless
                    && files.iter().any(|w| !w.text.starts_with("/dev/"))
                {
                    self.record(argv, scope, ids::RES_DISK_FILL.verdict());
                }
                // `tee /tmp/k < ~/.ssh/id_ed25519`: each file it writes holds the secret, as a
                // redirect's target would (`nc host port < /tmp/k` later is the same upload).
                if name == "tee"
                    && let Producer::Secret(source) = &stdin
                    && !scope.remote
                {
                    for w in files
                        .iter()
                        .filter(|w| w.exact && !w.text.starts_with("/dev/"))
                    {
                        if let Some(p) = crate::flow::place_in(&w.text, &scope.cwd, self.ctx) {
                            self.files.secret.push((p, source.clone()));
                        }
                    }
                }
                if name == "cat"
                    && !files.is_empty()
                    && files.iter().all(|w| w.exact && is_endless_device(&w.text))
                {
                    Producer::Endless
                } else if name == "tee" || files.is_empty() || files.iter().all(|w| w.text == "-") {
                    stdin
                } else if let Some(source) = files.iter().filter(|w| w.exact).find_map(|w| {
                    crate::flow::read_source(&w.text, &scope.cwd, self.ctx, &self.files)
                }) {
                    Producer::Secret(source)
                } else if let Some(found) = files
                    .iter()
                    .find(|w| w.exact && w.shape == WordShape::Descendants)
                {
                    // `cat "$1"` with `$1` bound to `find`'s items: the tree's contents,
                    // judged where they go (a network sink is a bulk upload).
                    Producer::Secret(crate::model::FlowSource::FoundFiles {
                        root: found.text.clone(),
                    })
                } else if files.iter().all(|w| w.exact) {
                    // `cat FILE | bash` feeds the file as it is, as `bash < FILE` does: the
                    // pipeline passes it on as the next stage's input file.
                    if let ([file], [_], crate::targets::Cwd::Known(cwd)) =
                        (files.as_slice(), args, &scope.cwd)
                        && name == "cat"
                        && !scope.remote
                    {
                        let home = self.ctx.home.as_deref();
                        self.files.piped_file =
                            Some(hookgate_paths::normalize(&file.text, cwd, home).path);
                    }
                    Producer::LocalFile
                } else {
                    Producer::Opaque
                }
            }
            "find" => self.find(argv, args, scope),
            // `fd … -x CMD` runs CMD on each found file: judged as the `find -exec` it is.
            "fd" | "fdfind" if let Some(find) = crate::listed::fd_as_find(args) => {
                self.find(argv, &find, scope)
            }
            n if crate::deferred::handles(n) => self.deferred(n, argv, args, scope, stdin),
            n if crate::runners::handles(n)
                && let Some(out) = self.runner(n, argv, args, scope, &stdin) =>
            {
                out
            }
            "pwsh" | "powershell" => {
                self.classify_plain(&name, argv, scope);
                // `-Command`/`-c` (any unique prefix) takes the rest; `-EncodedCommand`/`-e…`
                // is base64 nobody can read here.
                let mut code: Option<(String, bool)> = None;
                for (i, w) in args.iter().enumerate() {
                    let t = w.text.to_ascii_lowercase();
                    if t.len() > 1 && "-command".starts_with(&t) && t != "-" {
                        let rest = args.get(i + 1..).unwrap_or(&[]);
                        code = Some((Word::joined(rest).text, false));
                        break;
                    }
                    if t.len() > 1 && ("-encodedcommand".starts_with(&t) || t == "-ec") {
                        // The value is base64 of UTF-16LE text: decoded, it is read like
                        // `-Command` (an encoded download cradle is still one; an encoded
                        // `Write-Output hello` is not a question). Undecodable stays opaque.
                        code = Some(
                            args.get(i + 1)
                                .filter(|v| v.exact)
                                .and_then(|v| powershell_encoded(&v.text))
                                .map_or((String::new(), true), |text| (text, false)),
                        );
                        break;
                    }
                }
                // `-Command -` (and no command, no script) reads the commands from stdin: a
                // download piped in runs like `curl … | sh`; decoded data is code nobody saw.
                let from_stdin = match &code {
                    Some((text, false)) => text.trim() == "-",
                    Some((_, true)) => false,
                    None => !args.iter().any(|w| {
                        !w.text.starts_with('-')
                            && !matches!(
                                w.text.to_ascii_lowercase().as_str(),
                                "bypass"
                                    | "unrestricted"
                                    | "remotesigned"
                                    | "allsigned"
                                    | "restricted"
                                    | "hidden"
                                    | "normal"
                                    | "minimized"
                                    | "maximized"
                                    | "text"
                                    | "xml"
                            )
                    }),
                };
                if from_stdin && matches!(stdin, Producer::Download | Producer::Decoded) {
                    self.record(argv, scope, ids::RCE_DOWNLOAD_TO_SHELL.verdict());
                } else if let Some((text, encoded)) = code {
                    // Read with the PowerShell grammar and judged as the POSIX line it
                    // amounts to; code it cannot translate keeps the word reading, which
                    // asks for anything it cannot show to be read-only.
                    if let Some(line) = (!encoded)
                        .then(|| crate::pwsh::translate(&text, self.ctx))
                        .flatten()
                    {
                        let line = Word::lit(line);
                        self.with_shell_stdin(stdin.clone(), |w| {
                            w.run_child_code(argv, &line, scope, "powershell -Command", None);
                        });
                    } else {
                        let verdict =
                            crate::hazards::powershell(&text, encoded, &scope.cwd, self.ctx);
                        self.record(argv, scope, verdict);
                    }
                    // What it prints: a credential file it reads, the environment.
                    if !encoded
                        && let Some(source) = crate::hazards::powershell_source(
                            &text,
                            &scope.cwd,
                            self.ctx,
                            &self.files,
                        )
                    {
                        return Producer::Secret(source);
                    }
                }
                Producer::Opaque
            }
            _ => {
                self.classify_plain(&name, argv, scope);
                if crate::optexec::handles(&name) {
                    self.option_exec(&name, argv, args, scope, &stdin);
                }
                self.issuer_bound(&name, args, scope, &stdin);
                if stdin == Producer::Endless && crate::hazards::stores_stdin(&name, args) {
                    // `yes | dd of=f`, `cat /dev/zero | sponge f`: an endless stream stored.
                    self.record(argv, scope, ids::RES_DISK_FILL.verdict());
                } else if crate::hazards::consumes_endless(&name, args, stdin == Producer::Endless)
                    && !scope.via.iter().any(|v| v == "timeout")
                {
                    // `yes | wc -l`, `sha256sum /dev/zero`, `tail /dev/zero`: reads for ever.
                    self.record(argv, scope, ids::RES_CPU_EXHAUST.verdict());
                }
                self.producer_of(&name, args, &stdin, scope)
            }
        }
    }

    pub(crate) fn producer_of(
        &mut self,
        name: &str,
        args: &[Word],
        stdin: &Producer,
        scope: &Scope,
    ) -> Producer {
        if name == "yes" || (name == "seq" && args.iter().any(|w| w.text == "inf")) {
            return Producer::Endless;
        }
        // `pwd` (logical, the default) prints the directory the shell is in: `$(pwd)/build`
        // folds to it like `$PWD/build` when the line knows it.
        if name == "pwd"
            && args.iter().all(|a| a.exact && a.text == "-L")
            && let Cwd::Known(dir) = &scope.cwd
            && let Some(dir) = dir.to_str()
        {
            return Producer::Text {
                text: format!("{dir}\n"),
                exact: true,
            };
        }
        // `git rev-parse --show-toplevel` run inside the workspace prints the workspace root
        // (the project is its repository's top; DISAGREEMENTS wt-flow3): `cd "$(git rev-parse
        // --show-toplevel)" && …` and `"$(git rev-parse --show-toplevel)/build"` are judged
        // there. Run from elsewhere (`cd /other && …`) it is some other repository: unknown.
        if name == "git"
            && shows_toplevel(args)
            && scope.sh.get("GIT_DIR").is_none()
            && scope.sh.get("GIT_WORK_TREE").is_none()
            && let Cwd::Known(dir) = &scope.cwd
            && dir.starts_with(&self.ctx.cwd)
            && let Some(root) = self.ctx.cwd.to_str()
        {
            return Producer::Text {
                text: format!("{root}\n"),
                exact: true,
            };
        }
        if name == "mktemp" && scope.sh.get("TMPDIR").is_none() {
            let tmpdir = self.ctx.tmpdir.as_deref().and_then(std::path::Path::to_str);
            if let Some(path) = crate::listed::mktemp_output(args, tmpdir) {
                return Producer::Text {
                    text: format!("{path}\n"),
                    exact: true,
                };
            }
        }
        if let Some(out) = endless_through(name, args, stdin) {
            return out;
        }
        // Options decide below only for these programs (and `receives_network` reads an
        // argument only for `openssl`, one of them): every command comes here, so the others'
        // argv is neither copied nor parsed.
        let reads_options = name == "xxd" || DECODES_WITH_A_FLAG.contains(&name);
        let strings = if reads_options {
            texts(args)
        } else {
            Vec::new()
        };
        let parsed = Args::parse(name, &strings);
        if crate::flow::receives_network(name, &strings) {
            return Producer::Download;
        }
        let decoding =
            DECODES_WITH_A_FLAG.contains(&name) && parsed.has_any(&["-d", "--decode", "-D"]);
        let always_decodes = matches!(
            name,
            "gunzip"
                | "zcat"
                | "bunzip2"
                | "bzcat"
                | "unxz"
                | "xzcat"
                | "unzstd"
                | "zstdcat"
                | "uudecode"
                | "rev"
                | "tr"
        ) || (name == "xxd" && parsed.has_flag("-r"));
        if decoding || always_decodes {
            // Decoding or transforming secret data keeps it secret (`tr a-z n-za-m` of a key
            // is still the key): the flow wins over "decoded".
            if let Some(source) = crate::flow::command_source(
                name,
                args,
                stdin,
                false,
                &scope.cwd,
                self.ctx,
                &self.files,
            ) {
                return Producer::Secret(source);
            }
            return Producer::Decoded;
        }
        // `grep -o '^[A-Z_]*' .env` prints only the names left of each `=` (a comment line
        // matches nothing, so nothing of it is printed): no secret flows on from it.
        if matches!(name, "grep" | "egrep") {
            let strings = texts(args);
            if only_names_matched(&Args::parse(name, &strings), args) {
                return Producer::Opaque;
            }
        }
        // `classify_plain` recorded this command last; its rule says whether it prints a
        // credential (`gh auth token`, `kubectl get secret`).
        let credential_rule = self.commands.last().is_some_and(|c| {
            c.verdict.category.as_deref() == Some("credential_access")
                && c.verdict.rule_id.as_deref() != Some(ids::CRED_READ_SECRET_FILE.def().id)
        });
        if let Some(source) = crate::flow::command_source(
            name,
            args,
            stdin,
            credential_rule,
            &scope.cwd,
            self.ctx,
            &self.files,
        ) {
            return Producer::Secret(source);
        }
        found_listing(name, args).unwrap_or(Producer::Opaque)
    }

    /// The secret `read -u FD`/`mapfile -u FD` (`-uFD`, and `readarray`) read from a
    /// descriptor the line opened on one (see [`crate::flow::LineState::fd_secrets`]): `exec 3< .env; while
    /// read -u 3 l; do …; done` carries `.env` as surely as `< .env` does.
    fn descriptor_secret(&self, name: &str, args: &[Word]) -> Option<crate::model::FlowSource> {
        if self.files.fd_secrets.is_empty() || !matches!(name, "read" | "mapfile" | "readarray") {
            return None;
        }
        let mut words = args.iter();
        while let Some(w) = words.next() {
            let t = w.text.as_str();
            if t == "--" || !t.starts_with('-') {
                break;
            }
            // `-u` ends a cluster of flags (`-ru 3`, `-ru3`); its value is the rest or the
            // next word.
            let Some((_, rest)) = t.split_once('u') else {
                continue;
            };
            let fd = if rest.is_empty() {
                words.next().map(|v| v.text.as_str())
            } else {
                Some(rest)
            };
            return fd.and_then(|fd| {
                self.files
                    .fd_secrets
                    .iter()
                    .find(|(d, _)| d == fd)
                    .map(|(_, source)| source.clone())
            });
        }
        None
    }

    /// Runs `rest` as the wrapped command, recording the wrapper in `via`. The wrapper is a
    /// separate program, so a builtin it names (`nice cd /tmp`) cannot change this shell:
    /// whatever the analysis of `rest` changed is made unknown again (sound, and no copy of
    /// the state for the common wrapper that changes nothing).
    pub(crate) fn peel(
        &mut self,
        argv: &[Word],
        rest: &[Word],
        label: &str,
        scope: &mut Scope,
        stdin: Producer,
    ) -> Producer {
        let stamp = scope.stamp();
        let out = self.peel_here(argv, rest, label, scope, stdin);
        if scope.stamp() != stamp {
            scope.forget_since(stamp);
        }
        out
    }

    /// [`Self::peel`] for the shell's own prefixes (`command`, `builtin`, `time`): a builtin
    /// they run (`command cd /tmp`) changes this shell.
    pub(crate) fn peel_here(
        &mut self,
        argv: &[Word],
        rest: &[Word],
        label: &str,
        scope: &mut Scope,
        stdin: Producer,
    ) -> Producer {
        if rest.is_empty() {
            self.record(
                argv,
                scope,
                Verdict::normal(format!("{label} without a command")),
            );
            return Producer::Opaque;
        }
        scope.via.push(label.to_owned());
        let out = self.exec(rest, scope, stdin);
        scope.via.pop();
        out
    }

    fn sudo(
        &mut self,
        name: &str,
        argv: &[Word],
        args: &[Word],
        scope: &mut Scope,
        stdin: Producer,
    ) -> Producer {
        let value_opts = [
            "-u",
            "-g",
            "-C",
            "-D",
            "-h",
            "-p",
            "-r",
            "-t",
            "-U",
            "-T",
            "--user",
            "--group",
            "--chdir",
            "--prompt",
            "--role",
            "--type",
            "--other-user",
            "--host",
            "--close-from",
            "--command-timeout",
        ];
        let mut end = skip_options(args, &value_opts);
        let mut set = Vec::new();
        let shell_mode = has_opt(args, end, 's', "--shell") || has_opt(args, end, 'i', "--login");
        if has_opt(args, end, 'e', "--edit") {
            for file in args.get(end..).unwrap_or(&[]) {
                redirect_write(self, file, scope, false);
            }
            self.record(argv, scope, Verdict::normal("edits files as root"));
            return Producer::Opaque;
        }
        while let Some(w) = args.get(end) {
            if !(w.exact && is_assignment(&w.text)) {
                break;
            }
            self.check_env_assignment(w, scope);
            set.push(w.text.split('=').next().unwrap_or("").to_owned());
            end += 1;
        }
        let rest = args.get(end..).unwrap_or(&[]);
        let before = self.commands.len();
        if shell_mode && !rest.is_empty() {
            let joined = Word::joined(rest);
            self.run_code_string(argv, &joined, scope, &format!("{name} -s"));
            self.attach_set_env(before, set, name, scope);
            return Producer::Opaque;
        }
        let out = self.peel(argv, rest, name, scope, stdin);
        self.attach_set_env(before, set, name, scope);
        out
    }

    fn check_env_assignment(&mut self, w: &Word, scope: &Scope) {
        let (var, value) = w.text.split_once('=').unwrap_or((w.text.as_str(), ""));
        self.note_assignment(var, Some(&Word::lit(value)).filter(|_| w.exact));
        if let Some(verdict) = crate::hazards::variable(var, Some(value)) {
            self.record(std::slice::from_ref(w), scope, verdict);
        }
        if is_hijack_variable(var) {
            let value = Word {
                text: value.to_owned(),
                ..w.clone()
            };
            if let Some(verdict) = self.hijack_verdict(var, Some(&value), scope) {
                self.record(std::slice::from_ref(w), scope, verdict);
            }
        }
    }

    fn env(
        &mut self,
        argv: &[Word],
        args: &[Word],
        scope: &mut Scope,
        stdin: Producer,
    ) -> Producer {
        let mut i = 0;
        let mut inner = scope.clone();
        let mut set = Vec::new();
        while let Some(w) = args.get(i) {
            // An assignment whose value is known only at run time (`env PATH=$PATH:./bin
            // make`) is still an assignment: its name is literal, and its value is judged
            // (and kept unknown) below. Any other word known only at run time ends the
            // options.
            if !w.exact && !is_assignment(&w.text) {
                break;
            }
            let t = w.text.as_str();
            if t == "--" {
                i += 1;
                break;
            }
            if t == "-S"
                || t == "--split-string"
                || t.starts_with("--split-string=")
                || (t.starts_with("-S") && t.len() > 2)
            {
                let (code, next) = if let Some(v) = t.strip_prefix("--split-string=") {
                    (v.to_owned(), i + 1)
                } else if t.len() > 2 && !t.starts_with("--") {
                    (t[2..].to_owned(), i + 1)
                } else {
                    (
                        args.get(i + 1).map(|w| w.text.clone()).unwrap_or_default(),
                        i + 2,
                    )
                };
                let mut full = code;
                for rest in args.get(next..).unwrap_or(&[]) {
                    full.push(' ');
                    full.push_str(&interp::shell_join(std::slice::from_ref(&rest.text)));
                }
                let exact = args.iter().all(|w| w.exact);
                self.run_code_string(
                    argv,
                    &Word {
                        text: full,
                        exact,
                        shape: WordShape::Exact,
                        substs: Vec::new(),
                    },
                    &mut inner,
                    "env -S",
                );
                return Producer::Opaque;
            }
            if t == "-C" || t == "--chdir" || t.starts_with("--chdir=") {
                let dir = t
                    .strip_prefix("--chdir=")
                    .map(str::to_owned)
                    .or_else(|| args.get(i + 1).filter(|w| w.exact).map(|w| w.text.clone()));
                let to = match (dir, &inner.cwd) {
                    (Some(d), Cwd::Known(c)) => {
                        Cwd::Known(hookgate_paths::normalize(&d, c, self.ctx.home.as_deref()).path)
                    }
                    _ => Cwd::Unknown,
                };
                inner.set_cwd(to);
                i += if t.contains('=') { 1 } else { 2 };
                continue;
            }
            // `env -i` / `env -` (POSIX) / `--ignore-environment` start the command with no
            // variable at all: recorded as changes of `HOME` and `PATH`, the two every
            // program's config and lookup hang on (a nested agent without them reads no user
            // config and finds no hook binary). A lone `-` is this option, never the command.
            if t == "-"
                || t == "--ignore-environment"
                || t.strip_prefix('-')
                    .filter(|flags| !flags.is_empty() && !flags.starts_with('-'))
                    .is_some_and(|flags| {
                        flags.contains('i') && flags.chars().all(|c| matches!(c, 'i' | '0' | 'v'))
                    })
            {
                set.extend(["HOME".to_owned(), "PATH".to_owned()]);
                i += 1;
                continue;
            }
            // Removing a variable changes the environment the command sees as much as
            // setting it does: `env -u NAME cmd` is recorded as a change of NAME.
            if t == "-u" || t == "--unset" {
                set.extend(args.get(i + 1).map(|w| w.text.clone()));
                i += 2;
                continue;
            }
            if let Some(name) = t.strip_prefix("--unset=").or_else(|| {
                t.strip_prefix("-u")
                    .filter(|n| !n.is_empty() && !t.starts_with("--"))
            }) {
                set.push(name.to_owned());
                i += 1;
                continue;
            }
            if t.starts_with('-') && t.len() > 1 {
                i += 1;
                continue;
            }
            if is_assignment(t) {
                self.check_env_assignment(w, scope);
                let (name, value) = t.split_once('=').unwrap_or((t, ""));
                // The command sees it exported (`env X=/etc bash -c 'rm -rf $X'`).
                let value = if w.exact {
                    Val::Known(value.to_owned())
                } else {
                    Val::Unknown
                };
                inner.sh.set(name, value, Some(true));
                set.push(name.to_owned());
                i += 1;
                continue;
            }
            break;
        }
        let rest = args.get(i..).unwrap_or(&[]);
        let before = self.commands.len();
        if rest.is_empty() {
            self.record(argv, scope, Verdict::safe("prints the environment"));
            self.attach_set_env(before, set, "env", scope);
            return Producer::Secret(crate::model::FlowSource::Environment { by: "env".into() });
        }
        let out = self.peel(argv, rest, "env", &mut inner, stdin);
        self.attach_set_env(before, set, "env", scope);
        out
    }

    fn flock(
        &mut self,
        argv: &[Word],
        args: &[Word],
        scope: &mut Scope,
        stdin: Producer,
    ) -> Producer {
        let end = skip_options(args, &["-w", "--timeout", "-E", "--conflict-exit-code"]);
        // flock FILE -c CMD | flock FILE CMD ARGS
        let after_file = args.get(end + 1..).unwrap_or(&[]);
        if let Some(code) = option_value(after_file, after_file.len().min(2), "-c", "--command") {
            self.run_code_string(argv, &code, scope, "flock -c");
            return Producer::Opaque;
        }
        self.peel(argv, after_file, "flock", scope, stdin)
    }

    fn watch(&mut self, argv: &[Word], args: &[Word], scope: &mut Scope) -> Producer {
        let end = skip_options(args, &["-n", "--interval", "-q", "--equexit"]);
        let rest = args.get(end..).unwrap_or(&[]);
        if has_opt(args, end, 'x', "--exec") {
            return self.peel(argv, rest, "watch -x", scope, Producer::Nothing);
        }
        let joined = Word::joined(rest);
        self.run_code_string(argv, &joined, scope, "watch");
        Producer::Opaque
    }

    /// The word standing for one of the files a listing prints (`find ROOT`, `git
    /// ls-files`, `rg -l`), when `p` is such a listing.
    pub(crate) fn listing_items(p: &Producer) -> Option<Word> {
        match p {
            Producer::FindPaths(roots) if roots.len() == 1 => Some(Self::stdin_items(p)),
            Producer::VisibleFiles(_) => Some(Self::stdin_items(p)),
            _ => None,
        }
    }

    /// The word standing for what `xargs`/`parallel`/`find -exec` substitute when the items
    /// are not literal text on the line (those are [`literal_items`], run one by one).
    fn stdin_items(stdin: &Producer) -> Word {
        match stdin {
            Producer::FindPaths(roots) if roots.len() == 1 => Word {
                text: roots.first().cloned().unwrap_or_default(),
                exact: true,
                shape: WordShape::Descendants,
                substs: Vec::new(),
            },
            // Visible files only: the root's non-hidden entries and what is below them,
            // judged as the glob `ROOT/*` (which skips hidden names as the tool does).
            Producer::VisibleFiles(root) => Word::paths(
                &format!("{}/*", root.trim_end_matches('/')),
                WordShape::Glob,
            ),
            // Secret items stay secret in the command they are substituted into.
            Producer::Secret(_) => {
                let mut w = Word::opaque("{stdin}");
                w.substs.push(stdin.clone());
                w
            }
            _ => Word::opaque("{stdin}"),
        }
    }

    fn xargs(
        &mut self,
        argv: &[Word],
        args: &[Word],
        scope: &mut Scope,
        stdin: &Producer,
    ) -> Producer {
        // Several search roots (`grep -rl X src tests | xargs sed -i …`): xargs passes the
        // files found below each, so the run is judged once per root over that root's files
        // (the union is what xargs runs).
        if let Producer::FindPaths(roots) = stdin
            && roots.len() > 1
        {
            for root in roots {
                self.xargs(argv, args, scope, &Producer::FindPaths(vec![root.clone()]));
            }
            return Producer::Opaque;
        }
        let value_opts = [
            "-I",
            "-L",
            "-n",
            "-P",
            "-s",
            "-d",
            "-E",
            "-a",
            "--arg-file",
            "--max-args",
            "--max-procs",
            "--replace",
            "--delimiter",
            "--max-lines",
            "--max-chars",
            "--eof",
            "--process-slot-var",
        ];
        let end = skip_options(args, &value_opts);
        // `-I R`, `-IR` (attached, as in `-I{}`), `--replace=R`, `-i`/`-iR` (`{}` by default).
        let replace = option_value(args, end, "-I", "--replace")
            .map(|w| w.text)
            .or_else(|| {
                args.iter().take(end).find_map(|w| {
                    let t = w.text.as_str();
                    if !w.exact {
                        None
                    } else if t == "-i" || t == "--replace" {
                        Some("{}".to_owned())
                    } else {
                        t.strip_prefix("-I")
                            .or_else(|| t.strip_prefix("-i"))
                            .filter(|r| !r.is_empty())
                            .map(str::to_owned)
                    }
                })
            });
        let mut rest: Vec<Word> = args.get(end..).unwrap_or(&[]).to_vec();
        if rest.is_empty() {
            rest.push(Word::lit("echo"));
        }
        // `-a FILE` reads the items from the file, not stdin; `-0`/`-d` split them where
        // blanks do not, so literal text is not read into items here (they stay unresolved).
        let options = args.get(..end).unwrap_or(&[]);
        let has = |longs: &[&str], letters: &[char]| {
            options.iter().any(|w| {
                let t = w.text.as_str();
                !w.exact
                    || longs.iter().any(|o| t.starts_with(o))
                    || t.strip_prefix('-').is_some_and(|cluster| {
                        // A short-option cluster as getopt reads it (`-r0`, `-rn1`, `-ra
                        // FILE`): a letter taking a value ends it.
                        !cluster.starts_with('-')
                            && cluster
                                .chars()
                                .scan(false, |ended, c| {
                                    let this = (!*ended).then_some(c);
                                    *ended |= "adEIiLlnPs".contains(c);
                                    this
                                })
                                .any(|c| letters.contains(&c))
                    })
            })
        };
        // `xargs -a ~/.aws/credentials -I{} curl …?d={}`: the items are the file's lines,
        // as if it were piped in.
        let arg_file;
        let stdin = if has(&["--arg-file"], &['a']) {
            arg_file = option_value(args, end, "-a", "--arg-file")
                .map_or(Producer::Opaque, |file| self.file_content(&file, scope));
            &arg_file
        } else {
            stdin
        };
        // `seq 1 100000 | xargs -P0 -n1 sleep 999`: a process per item, all at once.
        let producer = self
            .commands
            .iter()
            .rev()
            .find(|c| c.via.len() == scope.via.len());
        if crate::control::xargs_floods(options, stdin, producer) {
            self.record(argv, scope, ids::RCE_FORK_BOMB.verdict());
        }
        let delimited = has(&["--null", "--delimiter"], &['0', 'd']);
        // How many items (`-n`) or input lines (`-L`, `-l`, one with `-I`) each run takes:
        // `sh -c 'rm "$1"' _` sees only its first item per run. A size limit (`-s`) or a
        // count that cannot be read leaves the runs unknown.
        let count = |short: &str, long: &str, letter: char| {
            if !has(&[long], &[letter]) {
                return Some(None);
            }
            option_value(args, end, short, long)
                .filter(|w| w.exact)
                .and_then(|w| w.text.parse::<usize>().ok())
                .filter(|n| *n > 0)
                .map(Some)
        };
        let per_line = match (
            replace.is_some(),
            args.iter().take(end).any(|w| w.text == "-l"),
        ) {
            (true, _) | (false, true) => Some(Some(1)),
            _ => count("-L", "--max-lines", 'L').and_then(|l| match l {
                None => count("-l", "--max-lines", 'l'),
                some => Some(some),
            }),
        };
        let runs = match (per_line, count("-n", "--max-args", 'n')) {
            (Some(lines), Some(items)) if !has(&["--max-chars"], &['s']) && !delimited => {
                xargs_runs(stdin, replace.is_some(), lines, items)
            }
            _ => None,
        };
        // Items known on the line (`xargs rm <<< '.claude .codex'`, `printf 'a\nb' | xargs`):
        // the command runs with exactly those, as many times as xargs would run it.
        if let Some(runs) = runs {
            for items in runs {
                if let Some(r) = &replace {
                    let item = items.concat();
                    let line: Vec<Word> = rest
                        .iter()
                        .map(|w| Word {
                            text: w.text.replace(r.as_str(), &item),
                            ..w.clone()
                        })
                        .collect();
                    self.peel(argv, &line, "xargs", scope, Producer::Nothing);
                } else {
                    let mut line = rest.clone();
                    line.extend(items.into_iter().map(Word::lit));
                    self.peel(argv, &line, "xargs", scope, Producer::Nothing);
                }
            }
            return Producer::Opaque;
        }
        // Literal text split otherwise is one unresolved item.
        let stdin = if delimited && matches!(stdin, Producer::Text { .. }) {
            &Producer::Opaque
        } else {
            stdin
        };
        let item = Self::stdin_items(stdin);
        // `xargs -I{} CMD` with no `{}` in CMD runs CMD as written once per item: its words
        // are not the items, so it is not labelled as receiving them (a caller tying items
        // to their listing must not read a literal `.` as the found files).
        let mut via = "xargs";
        match replace {
            Some(r) => {
                if !rest.iter().any(|w| w.text.contains(&r)) {
                    via = "xargs -I";
                }
                for w in &mut rest {
                    if w.text.contains(&r) {
                        if w.text == r {
                            *w = item.clone();
                        } else if let Some(prefix) = item_slot(&w.text, &r) {
                            // `-F file=@{}`: the option's value is the item itself.
                            *w = Word {
                                text: format!("{prefix}{}", item.text),
                                ..item.clone()
                            };
                        } else {
                            w.text = w.text.replace(&r, &item.text);
                            // Part of a word, `find`'s items are names only known at run
                            // time (`sh -c 'curl -d @{} URL'`), as under `find -exec`; a
                            // credential root keeps its text so the flow still names it.
                            w.exact &= item.exact
                                && (item.shape == WordShape::Exact
                                    || targets::is_secret_path(&item.text, &scope.cwd, self.ctx));
                            w.substs.extend(item.substs.iter().cloned());
                        }
                    }
                }
            }
            None => rest.push(item),
        }
        self.peel(argv, &rest, via, scope, Producer::Nothing)
    }

    fn parallel(
        &mut self,
        argv: &[Word],
        args: &[Word],
        scope: &mut Scope,
        stdin: Producer,
    ) -> Producer {
        let value_opts = [
            "-j",
            "--jobs",
            "-N",
            "-n",
            "-S",
            "--sshlogin",
            "--delay",
            "--timeout",
            "-I",
            "--colsep",
            "-d",
            "-a",
            "--arg-file",
            "--joblog",
            "--results",
            "-L",
            "-P",
            "--max-procs",
            "--block",
            "--block-size",
            "--halt",
            "--retries",
            "--tmpdir",
            "--tag-string",
            "--memfree",
            "--load",
            "--nice",
            "-E",
            "--arg-sep",
            "--wd",
            "--workdir",
        ];
        let end = skip_options(args, &value_opts);
        let rest = args.get(end..).unwrap_or(&[]);
        let opts = args.get(..end).unwrap_or(&[]);
        let has = |names: &[&str]| {
            opts.iter().any(|w| {
                w.exact
                    && names.iter().any(|n| {
                        w.text == *n || w.text.strip_prefix(n).is_some_and(|r| r.starts_with('='))
                    })
            })
        };
        // `--wd DIR` runs each job elsewhere: relative paths are not the workspace's.
        let mut elsewhere;
        let scope = if has(&["--wd", "--workdir"]) {
            elsewhere = scope.clone();
            elsewhere.cwd = Cwd::Unknown;
            elsewhere.either = None;
            &mut elsewhere
        } else {
            scope
        };
        // `--pipe`: the input reaches each job on its standard input, not as arguments.
        let piped = has(&["--pipe", "--spreadstdin", "--pipepart", "--pipe-part"]);
        let sep = rest
            .iter()
            .position(|w| w.exact && w.text.starts_with(":::"));
        let (cmd, values) = match sep {
            Some(p) => (
                rest.get(..p).unwrap_or(&[]),
                rest.get(p + 1..).unwrap_or(&[]),
            ),
            None => (rest, &[][..]),
        };
        if cmd.is_empty() {
            // Each value (or each stdin line) is a whole command line.
            if values.is_empty() {
                self.judge_code_input(argv, stdin, None, scope, "parallel");
            }
            for v in values {
                self.run_code_string(argv, v, scope, "parallel");
            }
            return Producer::Opaque;
        }
        if piped && values.is_empty() {
            self.run_code_string(argv, &Word::joined(cmd), scope, "parallel");
            return Producer::Opaque;
        }
        // parallel reads one item per line.
        let items: Vec<Word> = if values.is_empty() {
            xargs_runs(&stdin, true, Some(1), None).map_or_else(
                || vec![Self::stdin_items(&stdin)],
                |runs| runs.into_iter().flatten().map(Word::lit).collect(),
            )
        } else {
            values.to_vec()
        };
        for item in items {
            // An item known only at run time is one argument: parallel shell-quotes what it
            // puts in `{}` (or appends), so it cannot become code — the job is `CMD "$1"`
            // with the item as `$1` (its shape kept: `find ~ | parallel rm` still reaches the
            // home). Items with a known text are substituted as text (over-approximating
            // their quoting); items carrying a flow (a secret) keep that route too.
            // Found paths (`find . | parallel`, `git ls-files | parallel`) go the same way:
            // spliced in as text they would read as the root itself, not the files below it
            // that `xargs` sees.
            if (!item.exact || item.shape != WordShape::Exact) && item.substs.is_empty() {
                let mut line: Vec<Word> = cmd.to_vec();
                let mut replaced = false;
                for w in &mut line {
                    if w.text.contains("{}") {
                        w.text = w.text.replace("{}", "\"$1\"");
                        replaced = true;
                    }
                }
                if !replaced {
                    line.push(Word::lit("\"$1\""));
                }
                let params = [Word::lit("parallel"), item];
                self.run_child_code(argv, &Word::joined(&line), scope, "parallel", Some(&params));
                continue;
            }
            let mut line: Vec<Word> = cmd.to_vec();
            let mut replaced = false;
            for w in &mut line {
                if w.text == "{}" {
                    *w = item.clone();
                    replaced = true;
                }
            }
            if !replaced {
                line.push(item);
            }
            let joined = Word::joined(&line);
            // parallel runs its command through a shell.
            self.run_code_string(argv, &joined, scope, "parallel");
        }
        Producer::Opaque
    }

    fn su(&mut self, argv: &[Word], args: &[Word], scope: &mut Scope) -> Producer {
        if let Some(code) = option_value(args, args.len(), "-c", "--command") {
            self.run_code_string(argv, &code, scope, "su -c");
        } else {
            {
                let end = skip_options(args, &["-u", "-g", "-G", "-s", "--shell", "-w"]);
                let rest = args.get(end..).unwrap_or(&[]);
                if argv.first().is_some_and(|w| w.text.ends_with("runuser")) && rest.len() > 1 {
                    return self.peel(argv, rest, "runuser", scope, Producer::Nothing);
                }
                self.record(
                    argv,
                    scope,
                    Verdict::normal("switches user (interactive shell)"),
                );
            }
        }
        Producer::Opaque
    }

    /// `ssh [OPTIONS] DEST [COMMAND…]`: the command runs on the remote in a scope whose paths
    /// are the remote's. Its standard input is ssh's (`ssh prod 'bash -s' <<'EOF' … EOF`,
    /// `echo CMD | ssh prod bash`), so a remote shell reading its script from there runs
    /// that text; with no command at all the remote login shell reads it (`ssh prod <<EOF`).
    fn ssh(
        &mut self,
        argv: &[Word],
        args: &[Word],
        scope: &mut Scope,
        stdin: &Producer,
    ) -> Producer {
        let value_opts = [
            "-p", "-i", "-l", "-o", "-F", "-J", "-L", "-R", "-D", "-E", "-b", "-c", "-m", "-O",
            "-Q", "-S", "-W", "-w", "-B", "-e", "-I",
        ];
        self.option_exec("ssh", argv, args, scope, &Producer::Nothing);
        // `-R [bind:]port:host:hostport` opens a port on the remote machine that leads back
        // here: a tunnel exposing a local service (or this machine's ssh) to the outside.
        // `-o RemoteForward=…` (`-oRemoteForward …`) is the same forward as `-R`.
        let remote_forward = |t: &str| {
            t.trim_start_matches("-o")
                .trim_start()
                .get(..13)
                .is_some_and(|k| k.eq_ignore_ascii_case("remoteforward"))
        };
        if args.iter().any(|w| {
            w.exact
                && (w.text == "-R"
                    || (w.text.starts_with("-R") && w.text.len() > 2)
                    || (w.text.starts_with('-')
                        && !w.text.starts_with("--")
                        && w.text.ends_with('R')))
        }) || args
            .windows(2)
            .any(|p| p[0].text == "-o" && remote_forward(&p[1].text))
            || args
                .iter()
                .any(|w| w.text.starts_with("-o") && remote_forward(&w.text))
        {
            self.record(argv, scope, ids::NET_TUNNEL_EXPOSE.verdict());
        }
        let end = skip_options(args, &value_opts);
        let after = args.get(end + 1..).unwrap_or(&[]);
        // OpenSSH parses options again after the destination (`ssh prod -v CMD`, `ssh prod
        // -- CMD`), unless a `--` before the destination ended them: the command starts
        // after those options.
        let terminated = end
            .checked_sub(1)
            .and_then(|i| args.get(i))
            .is_some_and(|w| w.exact && w.text == "--");
        let rest = if terminated {
            after
        } else {
            after.get(skip_options(after, &value_opts)..).unwrap_or(&[])
        };
        let mut remote = scope.clone();
        remote.cwd = Cwd::Unknown;
        remote.remote = true;
        remote.local_container = false;
        // `-N` runs no command and `-n` reads nothing: stdin is not the remote's. Only a
        // cluster of ssh's flag letters counts (`-tn`, `-fN`), not an option's value.
        let no_input = args.get(..end).unwrap_or(&[]).iter().any(|w| {
            w.exact
                && w.text.len() > 1
                && w.text.starts_with('-')
                && w.text[1..]
                    .chars()
                    .all(|c| "46AaCfGgKkMNnqsTtVvXxYy".contains(c))
                && w.text.contains(['N', 'n'])
        });
        if rest.is_empty() {
            if !no_input && let Producer::Text { .. } = stdin {
                // The login shell reads its commands from the input.
                self.judge_code_input(argv, stdin.clone(), None, &mut remote, "ssh");
                return Producer::Download;
            }
            self.record(argv, scope, Verdict::normal("opens a remote shell"));
            return Producer::Opaque;
        }
        let joined = Word::joined(rest);
        let input = if no_input {
            Producer::Nothing
        } else {
            stdin.clone()
        };
        self.with_shell_stdin(input, |w| {
            w.run_code_string(argv, &joined, &mut remote, "ssh");
        });
        // `ssh host printenv | curl -d @-`: the remote command's secret output is ssh's.
        secret_output(self.code_output.take()).unwrap_or(Producer::Download)
    }

    /// Analyses a string as shell code run by a new shell process (`bash -c`, `su -c`,
    /// `watch`, code piped to `sh`): it starts with the exported variables and leaves this
    /// shell's state alone.
    pub(crate) fn run_code_string(
        &mut self,
        argv: &[Word],
        code: &Word,
        scope: &mut Scope,
        via: &str,
    ) {
        self.run_child_code(argv, code, scope, via, None);
    }

    /// [`Self::run_code_string`] with the new shell's `$0` and `$1…` (`sh -c CODE a0 a1`).
    pub(crate) fn run_child_code(
        &mut self,
        argv: &[Word],
        code: &Word,
        scope: &mut Scope,
        via: &str,
        params: Option<&[Word]>,
    ) {
        let mut child = scope.child();
        if let Some(params) = params {
            child.sh.zero = params.first().map_or(Val::Unknown, Val::of);
            child.sh.params = Some(params.iter().skip(1).map(Val::of).collect());
        }
        // fish's and zsh's code is read by its own reader and analysed as the bash program
        // that does the same (see `crate::dialect`). A reading that is not sure leaves the
        // text to the bash reading, which asks when it does not parse; fish code the reader
        // could not read also asks when it parses as bash (`not rm -rf ~` is a `not` command
        // to bash), since what fish runs was not read.
        let dialect = crate::dialect::Dialect::of_label(via).filter(|_| code.exact);
        let translated = dialect
            .and_then(|d| d.to_bash(&code.text))
            .map(|text| Word {
                text,
                ..code.clone()
            });
        // Elvish's reader covers commands, pipelines, captures and blocks only; what it
        // cannot read (`var`, lists, maps) is asked about like fish's, since the bash reading
        // of such text does not see what elvish runs (`e:rm` is no command name to bash).
        if translated.is_none()
            && matches!(
                dialect,
                Some(crate::dialect::Dialect::Fish | crate::dialect::Dialect::Elvish)
            )
        {
            let tongue = if dialect == Some(crate::dialect::Dialect::Fish) {
                "fish"
            } else {
                "elvish"
            };
            self.record(
                argv,
                scope,
                Verdict::unknown(format!("the {via} string is not read as {tongue}")),
            );
        }
        let code = translated.as_ref().unwrap_or(code);
        self.in_shell(&mut child, |w, child| w.code_string(argv, code, child, via));
    }

    /// Analyses a string as shell code run by this shell (`eval`, an alias's body): what it
    /// assigns stays. Text only known at run time may assign anything.
    pub(crate) fn eval_code(&mut self, argv: &[Word], code: &Word, scope: &mut Scope, via: &str) {
        self.code_string(argv, code, scope, via);
        if !code.exact {
            scope.sh.poison();
        }
    }

    fn code_string(&mut self, argv: &[Word], code: &Word, scope: &mut Scope, via: &str) {
        if code.substs.contains(&Producer::Download) {
            self.record(argv, scope, ids::RCE_DOWNLOAD_TO_SHELL.verdict());
        } else if code.substs.contains(&Producer::Decoded) {
            self.record(argv, scope, ids::RCE_DECODED_TO_SHELL.verdict());
        } else if !code.exact {
            self.record(
                argv,
                scope,
                Verdict::unknown(format!("the {via} string is built at run time")),
            );
        }
        self.analyze_source(&code.text, scope, via);
    }

    /// What reading `file` gives a command (`xargs -a FILE`, `split FILE`): the secret a
    /// credential file (or a file this line wrote secrets to) holds, another file's content,
    /// or data only known at run time for a name only known then.
    pub(crate) fn file_content(&self, file: &Word, scope: &Scope) -> Producer {
        match crate::flow::command_source(
            "cat",
            std::slice::from_ref(file),
            &Producer::Nothing,
            false,
            &scope.cwd,
            self.ctx,
            &self.files,
        ) {
            Some(source) => Producer::Secret(source),
            None if file.exact => Producer::LocalFile,
            None => Producer::Opaque,
        }
    }

    /// Judges code arriving on stdin (or via a process substitution) for a shell or
    /// interpreter. `lang` None = shell.
    pub(crate) fn judge_code_input(
        &mut self,
        argv: &[Word],
        input: Producer,
        lang: Option<Lang>,
        scope: &mut Scope,
        via: &str,
    ) {
        match input {
            Producer::Text { text, exact } => {
                let code = Word {
                    text,
                    exact,
                    shape: WordShape::Exact,
                    substs: Vec::new(),
                };
                match lang {
                    None => self.run_code_string(argv, &code, scope, via),
                    Some(l) => self.foreign(l, argv, &code, scope, via),
                }
            }
            Producer::Download => self.record(argv, scope, ids::RCE_DOWNLOAD_TO_SHELL.verdict()),
            Producer::Decoded => self.record(argv, scope, ids::RCE_DECODED_TO_SHELL.verdict()),
            Producer::LocalFile => {
                self.record(argv, scope, Verdict::normal("runs a local script"));
            }
            Producer::Nothing if scope.via.last().is_some_and(|v| is_escape_context(v)) => {
                // `find . -exec /bin/sh \;`, `awk 'BEGIN{system("/bin/sh")}'`: an interactive
                // shell out of a tool (GTFOBins) is a shell escape, not ordinary work.
                self.record(argv, scope, ids::RCE_OPTION_EXEC.verdict());
            }
            Producer::Nothing => {
                self.record(
                    argv,
                    scope,
                    Verdict::normal("starts an interactive interpreter"),
                );
            }
            Producer::Secret(_)
            | Producer::Opaque
            | Producer::FindPaths(_)
            | Producer::VisibleFiles(_)
            | Producer::Endless => {
                self.record(argv, scope, ids::RCE_OPAQUE_CODE.verdict());
            }
        }
    }

    fn shell(
        &mut self,
        argv: &[Word],
        args: &[Word],
        scope: &mut Scope,
        stdin: Producer,
    ) -> Producer {
        let mut i = 0;
        let mut command_mode = false;
        let mut stdin_mode = false;
        let name = argv
            .first()
            .map_or(String::new(), |w| command_name(&w.text));
        let dialect = crate::dialect::Dialect::of_shell(&name);
        // Options whose value is code in fish (`--command`, `-C`/`--init-command`, run before
        // the script or the prompt) and nu (`--commands`, `-e`/`--execute`), and fish's
        // options that take a value.
        let (code_opts, value_opts): (&[&str], &[&str]) = match name.as_str() {
            "fish" => (
                &["--command", "-C", "--init-command"],
                &[
                    "-d",
                    "--debug",
                    "-f",
                    "--features",
                    "--debug-output",
                    "--profile",
                    "--profile-startup",
                ],
            ),
            "nu" => (&["--commands", "-e", "--execute"], &[]),
            _ => (&[], &[]),
        };
        let mut codes: Vec<Word> = Vec::new();
        while let Some(w) = args.get(i) {
            if !w.exact {
                break;
            }
            let t = w.text.as_str();
            if t == "--" || t == "-" {
                i += 1;
                break;
            }
            if matches!(t, "-o" | "+o" | "-O" | "+O" | "--rcfile" | "--init-file")
                || value_opts.contains(&t)
            {
                i += 2;
                continue;
            }
            if code_opts.contains(&t) {
                codes.extend(args.get(i + 1).cloned());
                i += 2;
                continue;
            }
            if let Some(code) = t.split_once('=').and_then(|(opt, v)| {
                code_opts.contains(&opt).then(|| Word {
                    text: v.to_owned(),
                    ..w.clone()
                })
            }) {
                codes.push(code);
                i += 1;
                continue;
            }
            if t.starts_with("--") {
                i += 1;
                continue;
            }
            if (t.starts_with('-') || t.starts_with('+')) && t.len() > 1 {
                if t.contains('c') && t.starts_with('-') {
                    command_mode = true;
                }
                if t.contains('s') && t.starts_with('-') {
                    stdin_mode = true;
                }
                i += 1;
                continue;
            }
            break;
        }
        let label = format!(
            "{} -c",
            argv.first()
                .map_or("sh", |w| w.text.rsplit('/').next().unwrap_or("sh"))
        );
        // fish has no `$0`: the words after the code are all `$argv`.
        let zero = [Word::lit(name.as_str())];
        let params_of = |rest: &[Word]| -> Vec<Word> {
            if dialect == Some(crate::dialect::Dialect::Fish) {
                zero.iter().chain(rest).cloned().collect()
            } else {
                rest.to_vec()
            }
        };
        for code in &codes {
            let params = params_of(&[]);
            self.with_shell_stdin(stdin.clone(), |w| {
                w.run_child_code(argv, code, scope, &label, Some(&params));
            });
        }
        if command_mode {
            match args.get(i) {
                Some(code) => {
                    // xonsh's code is Python with shell inside: `$NAME` environment reads and
                    // `$(…)`/`!(…)`/`$[…]`/`![…]` subprocess captures. Read as Python with
                    // those made Python (the captures' commands judged as shell), it is judged
                    // as Python — and as bash too when it also parses as bash (a plain
                    // command line such as `rm -rf ~` is subprocess mode to xonsh). Only when
                    // it is not Python is it left to the bash reading alone, which asks when
                    // it does not parse.
                    let xonsh = (label == "xonsh -c" && code.exact)
                        .then(|| xonsh_python(&code.text))
                        .flatten()
                        .filter(|(py, _)| {
                            self.code
                                .scan(Lang::Python, py)
                                .is_some_and(|f| !f.contains(&crate::interp::Finding::Unparsed))
                        });
                    if let Some((py, captures)) = xonsh {
                        for capture in captures {
                            self.run_child_code(argv, &Word::lit(capture), scope, &label, None);
                        }
                        // xonsh decides per line: a top-level line that starts with a
                        // Python name, keyword or call (`print(…)`, `x = …`, `import os`,
                        // `os.remove(…)`) is Python; any other line whose first word is not a
                        // Python one runs as a command (`kill -9 -1`, `reboot`, `rm -rf ~` —
                        // some of them valid Python expressions too). Each such line that
                        // parses as bash is judged as the command line it is.
                        for line in code.text.lines() {
                            let t = line.trim_end();
                            if t.is_empty()
                                || t.starts_with([' ', '\t', '#'])
                                || xonsh_python_line(t)
                                || crate::analyze(t, self.ctx).parse
                                    != crate::model::ParseStatus::Ok
                            {
                                continue;
                            }
                            let line = Word {
                                text: t.to_owned(),
                                ..code.clone()
                            };
                            self.with_shell_stdin(stdin.clone(), |w| {
                                w.run_child_code(argv, &line, scope, &label, None);
                            });
                        }
                        let py = Word {
                            text: py,
                            ..code.clone()
                        };
                        self.foreign(Lang::Python, argv, &py, scope, "xonsh -c");
                        return Producer::Opaque;
                    }
                    // The shell's input is what its commands read (`sh -c 'curl -T - URL' <
                    // .env`).
                    let params = params_of(args.get(i + 1..).unwrap_or(&[]));
                    self.with_shell_stdin(stdin, |w| {
                        w.run_child_code(argv, code, scope, &label, Some(&params));
                    });
                    // `bash -c printenv | curl -d @-`: the shell's output is its command's.
                    if let Some(out) = secret_output(self.code_output.take()) {
                        return out;
                    }
                }
                None => self.record(argv, scope, Verdict::unknown("-c without a command string")),
            }
            return Producer::Opaque;
        }
        match args.get(i) {
            Some(script) if !stdin_mode => {
                if let Some(p) = script.substs.last() {
                    self.judge_code_input(argv, p.clone(), None, scope, &label);
                } else if script.exact
                    && (script.text == "/dev/stdin" || script.text == "/proc/self/fd/0")
                {
                    self.judge_code_input(argv, stdin, None, scope, &label);
                } else {
                    self.record(argv, scope, Verdict::normal("runs a local script"));
                }
            }
            _ => self.judge_code_input(argv, stdin, None, scope, &label),
        }
        Producer::Opaque
    }

    fn interpreter(
        &mut self,
        lang: Lang,
        argv: &[Word],
        args: &[Word],
        scope: &mut Scope,
        stdin: Producer,
    ) -> Producer {
        let name = argv
            .first()
            .map_or(String::new(), |w| command_name(&w.text));
        // `osascript -l JavaScript` runs JXA: JavaScript with `doShellScript` and ObjC.
        let lang = if name == "osascript"
            && args
                .windows(2)
                .any(|p| matches!(p, [l, v] if l.text == "-l" && v.text == "JavaScript"))
        {
            Lang::Node
        } else {
            lang
        };
        // Flags whose value (next word, or rest of the cluster) is code.
        let code_flags: &[&str] = match lang {
            Lang::Python => &["-c"],
            // Ruby's `-E` is the encoding (`-E UTF-8`), perl's is code with features on.
            Lang::Perl => &["-e", "-E"],
            Lang::Node => &["-e", "--eval", "-p", "--print"],
            Lang::Php => &["-r"],
            Lang::Mongo => &["--eval"],
            Lang::Ruby | Lang::Lua | Lang::R => &["-e"],
            Lang::Awk => &[],
            Lang::Other(_) => crate::tongues::Tongue::code_flags(&name),
        };
        let value_flags: &[&str] = match lang {
            Lang::Python => &["-m", "-W", "-X", "-Q"],
            // (`-x` takes its directory attached only, `-xdir`: a separate word is not its.)
            Lang::Perl => &["-I", "-M", "-m"],
            Lang::Ruby => &["-I", "-r", "-C", "-E"],
            Lang::Node if name == "osascript" => &["-l"],
            Lang::Node => &["-r", "--require", "--import", "--loader", "--input-type"],
            Lang::Php => &["-c", "-d", "-f", "-z"],
            Lang::Awk => &["-F", "-v", "-f", "--field-separator", "--assign", "--file"],
            Lang::Lua => &["-l"],
            Lang::R => &[],
            Lang::Other(_) => crate::tongues::Tongue::value_flags(&name),
            Lang::Mongo => &[
                "--host",
                "--port",
                "-u",
                "-p",
                "--username",
                "--password",
                "--authenticationDatabase",
                "--file",
                "-f",
            ],
        };
        let mut code: Option<Word> = None;
        let mut script: Option<Word> = None;
        let mut module = false;
        let mut awk_file = false;
        let mut modules = String::new();
        let mut i = 0;
        while let Some(w) = args.get(i) {
            let t = w.text.as_str();
            if w.exact && t == "--" {
                i += 1;
                break;
            }
            if w.exact && t.starts_with('-') && t.len() > 1 {
                // `--eval=CODE`, and a long code option's attached value in the other forms
                // interpreters accept (`nim --eval:CODE`, `sbcl --eval=…`).
                if let Some(v) = t
                    .strip_prefix("--eval=")
                    .or_else(|| t.strip_prefix("--print="))
                    .or_else(|| {
                        code_flags
                            .iter()
                            .filter(|f| f.starts_with("--") && matches!(lang, Lang::Other(_)))
                            .find_map(|f| {
                                t.strip_prefix(f).and_then(|r| {
                                    r.strip_prefix('=').or_else(|| r.strip_prefix(':'))
                                })
                            })
                    })
                {
                    push_code(&mut code, &Word::lit(v));
                    i += 1;
                    continue;
                }
                // `ruby -e'code'`, `perl -e'…'`, `python -c'…'`: the value is attached.
                // (`kotlinc -expression CODE` is the long flag itself, not `-e xpression`.)
                if let Some(v) = code_flags
                    .iter()
                    .filter(|f| f.len() == 2 && lang != Lang::Node && !code_flags.contains(&t))
                    .find_map(|f| t.strip_prefix(f))
                    .filter(|v| !v.is_empty())
                {
                    let mut attached = w.clone();
                    v.clone_into(&mut attached.text);
                    push_code(&mut code, &attached);
                    i += 1;
                    continue;
                }
                // Perl's `-MFile::Path=rmtree`: the module flag takes the rest of the word
                // (perlrun), so it is a `use` line, not a cluster ending in `-e`.
                if lang == Lang::Perl
                    && let Some(line) = crate::code::perl_module_flag(t)
                {
                    modules.push_str(&line);
                    i += 1;
                    continue;
                }
                let cluster_code = !t.starts_with("--")
                    && code_flags
                        .iter()
                        .any(|f| f.len() == 2 && t.ends_with(&f[1..]));
                if code_flags.contains(&t) || cluster_code {
                    if let Some(v) = args.get(i + 1) {
                        push_code(&mut code, v);
                    }
                    i += 2;
                    continue;
                }
                if lang == Lang::Python && t == "-m" {
                    module = true;
                    break;
                }
                if lang == Lang::Awk && (t == "-f" || t == "--file") {
                    awk_file = true;
                }
                i += if value_flags.contains(&t) { 2 } else { 1 };
                continue;
            }
            if lang == Lang::Mongo
                && args.get(i + 1..).is_some_and(|r| {
                    r.iter()
                        .any(|w| w.exact && (w.text == "--eval" || w.text.starts_with("--eval=")))
                })
            {
                // `mongosh DB --eval CODE`: the connection target comes before the code.
                i += 1;
                continue;
            }
            // OCaml's toplevels load object files named before the script (`ocaml unix.cma
            // -stdin`, `ocaml unix.cma x.ml`): they are libraries, not the script.
            if matches!(name.as_str(), "ocaml" | "utop")
                && std::path::Path::new(t)
                    .extension()
                    .is_some_and(|e| e == "cma" || e == "cmo" || e == "cmxs")
            {
                i += 1;
                continue;
            }
            // `erl -noshell foo -eval CODE`: these interpreters read their code option after
            // operands too, so an operand before it is not the script.
            if matches!(lang, Lang::Other(_))
                && args.get(i + 1..).is_some_and(|r| {
                    r.iter().any(|w| {
                        w.exact
                            && (code_flags.contains(&w.text.as_str())
                                || code_flags.iter().any(|f| {
                                    f.starts_with("--")
                                        && w.text.strip_prefix(f).is_some_and(|r| {
                                            r.starts_with('=') || r.starts_with(':')
                                        })
                                }))
                    })
                })
            {
                i += 1;
                continue;
            }
            break;
        }
        if code.is_none() && !module {
            if lang == Lang::Awk && !awk_file {
                code = args.get(i).cloned();
            } else if lang == Lang::Node
                && name == "deno"
                && args.get(i).is_some_and(|w| w.text == "eval")
            {
                // `deno eval [OPTIONS] CODE`: options come between the subcommand and the code
                // (`deno eval --allow-all "…"`); those listed take a value of their own.
                const VALUED: &[&str] = &[
                    "--ext",
                    "--import-map",
                    "--config",
                    "-c",
                    "--lock",
                    "--cert",
                    "--location",
                    "--seed",
                    "--env-file",
                ];
                let mut j = i + 1;
                while let Some(w) = args.get(j)
                    && w.text.starts_with('-')
                    && w.text != "-"
                {
                    j += if VALUED.contains(&w.text.as_str()) {
                        2
                    } else {
                        1
                    };
                }
                code = args.get(j).cloned();
            } else if lang == Lang::Node
                && matches!(name.as_str(), "deno" | "bun")
                && args.get(i).is_some_and(|w| w.exact && w.text == "run")
            {
                // `deno run [OPTIONS] SCRIPT`, `bun run SCRIPT`: the script after the options;
                // `-` is the code on stdin (judged below as the interpreter's input).
                let mut j = i + 1;
                while let Some(w) = args.get(j)
                    && w.text.starts_with('-')
                    && w.text != "-"
                {
                    j += 1;
                }
                match args.get(j) {
                    Some(w) if w.exact && w.text == "-" => {}
                    Some(w) => script = Some(w.clone()),
                    None => {}
                }
            } else if let Lang::Other(_) = lang
                && let Some(sub) = crate::tongues::Tongue::eval_subcommand(&name)
                && args.get(i).is_some_and(|w| w.exact && w.text == sub)
            {
                // `crystal eval [OPTIONS] CODE`.
                code = args
                    .get(i + 1..)
                    .and_then(|r| r.iter().find(|w| !w.text.starts_with('-')))
                    .cloned();
            } else if name == "bb" && args.get(i).is_some_and(|w| w.text.starts_with('(')) {
                // babashka evaluates an operand that is an expression rather than a file.
                code = args.get(i).cloned();
            } else if let Some(w) = args.get(i)
                && !(w.exact && (w.text == "-" || w.text == "/dev/stdin"))
            {
                script = Some(w.clone());
            }
        }
        // Perl runs `-M`/`-m` as `use` lines before the code: the code is judged with them.
        if let Some(c) = code.as_mut().filter(|_| !modules.is_empty()) {
            c.text.insert_str(0, &modules);
        }
        // zx's globals are what `import { $ } from 'zx'` gives: `` $`cmd` `` runs a shell line.
        if name == "zx"
            && let Some(c) = code.as_mut()
        {
            c.text.insert_str(0, "import { $ } from 'zx';\n");
        }
        // IPython runs `!cmd` lines (and `%sx`/`%system cmd`) in a shell: those lines are
        // judged as shell, the rest as Python.
        if name.starts_with("ipython")
            && let Some(c) = code.as_mut()
        {
            let mut python = String::new();
            for line in c.text.clone().lines() {
                let t = line.trim_start();
                let shell = t
                    .strip_prefix('!')
                    .or_else(|| t.strip_prefix("%sx "))
                    .or_else(|| t.strip_prefix("%system "));
                if let Some(cmd) = shell {
                    let mut w = c.clone();
                    cmd.clone_into(&mut w.text);
                    self.run_child_code(argv, &w, scope, "ipython !", None);
                    python.push_str("pass\n");
                } else if let Some(statement) = ipython_timed_statement(t) {
                    // `%timeit EXPR`, `%time EXPR`, `%prun EXPR`: runs the Python statement
                    // (timed or profiled): judged as that statement.
                    python.push_str(statement);
                    python.push('\n');
                } else {
                    python.push_str(line);
                    python.push('\n');
                }
            }
            c.text = python;
        }
        // `node --require F`, `ruby -rF`: modules loaded before the program (optexec.rs).
        if crate::optexec::handles(&name) {
            self.option_exec(&name, argv, args, scope, &stdin);
        }
        let via = format!("{name} -c");
        let before = self.commands.len();
        self.code_sources.clear();
        // `ruby -run -e httpd DIR -p PORT`: un.rb's static file server.
        let ruby_httpd = lang == Lang::Ruby
            && args.iter().any(|w| w.text == "-run")
            && code.as_ref().is_some_and(|c| c.text.trim() == "httpd");
        // The words after the code or script: the program's operands, which it may print
        // (`awk 1 KEY`, `python3 dump.py KEY`).
        let operands_from = match (&code, &script) {
            (Some(_), _) if lang == Lang::Awk && !awk_file => i + 1,
            (None, Some(_)) => i + 1,
            _ => i,
        };
        // awk's inline program is found (and skipped) by the flow's own reading of awk's
        // arguments (`flow::program_operand`), so awk passes them whole.
        let source_from = if lang == Lang::Awk && code.is_some() && !awk_file {
            0
        } else {
            operands_from
        };
        let printed = crate::flow::command_source(
            &name,
            args.get(source_from..).unwrap_or(&[]),
            &stdin,
            false,
            &scope.cwd,
            self.ctx,
            &self.files,
        );
        // A one-liner that only prints literals outputs that text (for a shell it is piped to).
        let literal_output = code
            .as_ref()
            .filter(|c| c.exact)
            .and_then(|c| crate::interp::printed_literal(lang, &c.text));
        match (code, script) {
            (Some(code), _) => self.foreign(lang, argv, &code, scope, &via),
            (None, Some(s)) if !s.substs.is_empty() => {
                let p = s.substs.last().cloned().unwrap_or(Producer::Opaque);
                self.judge_code_input(argv, p, Some(lang), scope, &via);
            }
            (None, Some(_)) => self.classify_plain(&name, argv, scope),
            (None, None) if module => {
                // `python -m MODULE ARGS` runs the module's command-line entry point, which for
                // tools is the tool itself (`python -m twine upload`, `python -m pip`,
                // `python -m http.server`): judged as that command, with the interpreter in
                // `via`.
                match args.get(i + 1..) {
                    Some(rest) if !rest.is_empty() && rest[0].exact => {
                        return self.peel(argv, rest, &format!("{name} -m"), scope, stdin);
                    }
                    _ => self.classify_plain(&name, argv, scope),
                }
            }
            (None, None) => {
                // zx reads its script from stdin too (`npx zx <<'EOF'`): with `$` in scope.
                let stdin = match stdin {
                    Producer::Text { text, exact } if name == "zx" => Producer::Text {
                        text: format!("import {{ $ }} from 'zx';\n{text}"),
                        exact,
                    },
                    other => other,
                };
                self.judge_code_input(argv, stdin, Some(lang), scope, &via);
            }
        }
        // `perl -pi -e CODE FILES`, `ruby -i.bak -pe CODE FILES`: the files are rewritten in
        // place, judged as writes like `sed -i`'s.
        if matches!(lang, Lang::Perl | Lang::Ruby)
            && in_place_edit(lang, args.get(..operands_from).unwrap_or(&[]))
        {
            for t in args.get(operands_from..).unwrap_or(&[]) {
                if let Some(rule) = judge_write_word(t, scope, self.ctx) {
                    self.record(argv, scope, rule.verdict());
                }
            }
        }
        // The program's operands are files it reads (`awk 1 ~/.netrc`, `perl -ne print KEY`),
        // like `cat`'s: a credential among them is read, whatever the code does with it —
        // unless the program prints only the names (`awk -F= '{print $1}' .env`).
        // Checked only once a credential operand is found (most programs name none).
        if args.get(operands_from..).unwrap_or(&[]).iter().any(|w| {
            w.exact
                && secret_candidates(&w.text)
                    .any(|p| targets::is_secret_path(p, &scope.cwd, self.ctx))
        }) && !(lang == Lang::Awk && awk_first_field_by_equals(args))
        {
            self.record(argv, scope, ids::CRED_READ_SECRET_FILE.verdict());
        }
        if ruby_httpd
            && let Some(v) = crate::hazards::serves_sensitive(
                "un.httpd",
                args.get(operands_from..).unwrap_or(&[]),
                &scope.cwd,
                self.ctx,
            )
        {
            self.record(argv, scope, v);
        }
        let printed = printed
            .or_else(|| self.code_sources.first().cloned())
            .or_else(|| {
                // Code that reads a credential file (`print(open('~/.ssh/id_rsa').read())`) may
                // print it: its stdout is that secret.
                self.commands
                    .get(before..)
                    .unwrap_or(&[])
                    .iter()
                    .find_map(|c| {
                        c.effects
                            .iter()
                            .filter(|e| e.op == EffectOp::Read)
                            .find_map(|e| {
                                e.path.as_deref().and_then(|p| {
                                    crate::flow::read_source(p, &scope.cwd, self.ctx, &self.files)
                                })
                            })
                    })
            });
        match (printed, literal_output) {
            (Some(secret), _) => Producer::Secret(secret),
            (None, Some(text)) => Producer::Text { text, exact: true },
            (None, None) => Producer::Opaque,
        }
    }

    /// Records the rule for a call from code that destroys or replaces something on a remote
    /// service, chosen as the CLI twin of the call is judged: a Redis flush is
    /// `redis-cli flushall`'s rule, a MongoDB drop `mongosh`'s, an HTTP DELETE `curl -X
    /// DELETE`'s; the reason names the call.
    fn remote_call_verdict(
        &mut self,
        argv: &[Word],
        scope: &mut Scope,
        remote: &crate::sdk::Remote,
    ) {
        use crate::sdk::{Family, Remote};
        let (verdict, call) = match remote {
            Remote::Http { method, url, call } => {
                let Some(v) = crate::argdanger::code_http_verdict(method, url.as_deref()) else {
                    return;
                };
                let shown = match url {
                    Some(u) => format!("{call} {method} {u}"),
                    None => format!("{call} {method}"),
                };
                (v, shown)
            }
            Remote::Sdk {
                family,
                verb,
                call,
                endpoints,
                names,
            } => {
                let lower = verb.to_ascii_lowercase();
                let v = match family {
                    Family::Redis if lower.starts_with("flush") => ids::DB_REDIS_FLUSH.verdict(),
                    Family::Redis if lower.starts_with("shutdown") => {
                        ids::DB_REDIS_SHUTDOWN.verdict()
                    }
                    Family::Mongo => ids::DB_MONGO_DROP.verdict(),
                    Family::Redis | Family::Database => ids::DB_SDK_DROP.verdict(),
                    Family::Cloud => ids::CLOUD_SDK_DELETE.verdict(),
                    Family::Service => ids::NET_SDK_DELETE.verdict(),
                    Family::Industrial => ids::ICS_CONTROLLER_WRITE.verdict(),
                };
                // A controller simulator on this machine (`ModbusTcpClient('127.0.0.1')`) is
                // development; an unplaced or other controller keeps the rule.
                let v = if *family == Family::Industrial
                    && !endpoints.is_empty()
                    && endpoints.iter().all(|e| {
                        e.as_deref().is_some_and(|h| {
                            let h = h.split_once("://").map_or(h, |(_, r)| r);
                            let h = h.split(['/', ':']).next().unwrap_or(h);
                            crate::contained::is_loopback_host(h)
                        })
                    }) {
                    Verdict::normal("writes to an industrial controller simulator on this machine")
                } else {
                    v
                };
                // A database's place and name decide as they do for its CLI: a local
                // test database is routine, a local other one asks, remote ones keep the rule.
                let v = if matches!(family, Family::Redis | Family::Mongo | Family::Database) {
                    crate::dbtarget::judge(
                        v,
                        &crate::dbtarget::code_client_target(endpoints, names),
                    )
                } else {
                    v
                };
                (v, call.clone())
            }
        };
        let mut v = verdict;
        v.reason = format!("{} (`{call}`)", v.reason);
        self.record(argv, scope, v);
    }

    /// Scans a one-liner in another language and acts on what it finds: shell-outs are
    /// analysed as shell, file effects are judged by target like the shell's own writers, and
    /// every effect is attached to the interpreter's [`ExecutedCommand`] for the policy.
    ///
    /// Invariant: an effect is never dropped; one whose target is computed at run time keeps
    /// `path: None` and its verdict is the "unresolved target" rule (ask), never allow.
    pub(crate) fn foreign(
        &mut self,
        lang: Lang,
        argv: &[Word],
        code: &Word,
        scope: &mut Scope,
        via: &str,
    ) {
        if !code.exact {
            let verdict = if code.substs.contains(&Producer::Download) {
                ids::RCE_DOWNLOAD_TO_SHELL.verdict()
            } else {
                ids::RCE_DYNAMIC_CODE.verdict()
            };
            self.record_effects(
                argv,
                scope,
                verdict,
                vec![Effect {
                    op: EffectOp::Write,
                    path: None,
                    source: via.to_owned(),
                }],
            );
            return;
        }
        if self.recursion >= self.limits.max_recursion {
            self.unknown("one-liners nested too deeply");
            return;
        }
        let scanned = self.code.scan(lang, &code.text);
        let destructive_sql = self.code.destructive_sql();
        if let Some(remote) = self.code.remote_call() {
            self.remote_call_verdict(argv, scope, &remote);
        }
        let findings = match scanned {
            Some(mut parsed) => {
                // Where the grammar gave up on part of the snippet, the lexer's findings are
                // added, so a grammar gap can only add findings, never lose the old ones.
                if parsed.contains(&Finding::Unparsed) {
                    parsed.extend(interp::scan(lang, &code.text));
                }
                parsed
            }
            None => interp::scan(lang, &code.text),
        };
        if let Some(crate::code::DestructiveSql { call, networked }) = destructive_sql {
            // `sqlite3.connect('app.db').execute('DROP TABLE users')`: the same SQL through
            // `psql -c` or `sqlite3` is judged as a drop; from code it asks — unless every
            // file the snippet may write is a database file named for tests or scratch
            // (`sqlite3.connect('/tmp/scratch.db')`, `':memory:'`), judged as the CLI judges
            // `sqlite3 FILE` (dbtarget: a local, disposable database is routine).
            let mut v = ids::DB_ORM_BULK_DELETE.verdict();
            v.reason = format!("{} (`{call}`)", v.reason);
            let mut files = findings
                .iter()
                .filter_map(|f| match f {
                    Finding::Effect {
                        op: EffectOp::Write,
                        path,
                        ..
                    } => Some(path.as_deref()),
                    _ => None,
                })
                .peekable();
            let disposable = !networked
                && files.peek().is_some()
                && files.all(|p| {
                    p.is_some_and(|p| {
                        p == ":memory:"
                            || matches!(
                                crate::dbtarget::role_of(p),
                                crate::dbtarget::Role::Disposable(_)
                            )
                    })
                });
            if disposable {
                v = Verdict::normal(format!(
                    "drops or empties tables of a local scratch or test database file (`{call}`)"
                ));
            }
            self.record(argv, scope, v);
        }
        self.recursion += 1;
        let mut effects: Vec<Effect> = Vec::new();
        let mut worst: Option<Verdict> = None;
        let before = self.commands.len();
        let mut flow_findings = Vec::new();
        // Languages read by token (the JVM and Lisp families, Julia, Elixir, Tcl, Lua, R, …):
        // their readers cannot follow a value from a read to a request, so a credential file
        // the snippet names, in a snippet that opens a connection, is taken as sent.
        if matches!(lang, Lang::Other(_) | Lang::Lua | Lang::R | Lang::Awk)
            && findings.iter().any(|f| {
                matches!(
                    f,
                    Finding::Effect {
                        op: EffectOp::Network,
                        ..
                    }
                )
            })
        {
            let tongue = match lang {
                Lang::Other(t) => t,
                _ => crate::tongues::Tongue::CallSyntax,
            };
            for p in crate::tongues::path_literals(tongue, &code.text) {
                if let Some(source) =
                    crate::flow::read_source(&p, &scope.cwd, self.ctx, &self.files)
                {
                    flow_findings.push(Finding::Source(source));
                }
            }
            flow_findings.extend(
                crate::tongues::env_sources(tongue, &code.text)
                    .into_iter()
                    .map(Finding::Source),
            );
        }
        for finding in findings {
            match finding {
                Finding::Shell { code, exact } => {
                    effects.push(Effect {
                        op: EffectOp::Spawn,
                        path: exact.then(|| code.clone()),
                        source: via.to_owned(),
                    });
                    let w = Word {
                        text: code,
                        exact,
                        shape: WordShape::Exact,
                        substs: Vec::new(),
                    };
                    self.run_code_string(argv, &w, scope, via);
                }
                Finding::Code { code } => {
                    self.foreign(lang, argv, &Word::lit(code), scope, via);
                }
                Finding::Delete {
                    path,
                    exact,
                    recursive,
                } => {
                    let path = exact.then_some(path);
                    worst = Some(worse(
                        worst,
                        self.judge_effect(EffectOp::Delete, path.as_deref(), recursive, scope),
                    ));
                    effects.push(Effect {
                        op: EffectOp::Delete,
                        path: self.effect_path(path, scope),
                        source: via.to_owned(),
                    });
                }
                Finding::Effect {
                    op,
                    path,
                    recursive,
                } => {
                    worst = Some(worse(
                        worst,
                        self.judge_effect(op, path.as_deref(), recursive, scope),
                    ));
                    let path = if op == EffectOp::SetEnv || op == EffectOp::Network {
                        path
                    } else {
                        self.effect_path(path, scope)
                    };
                    effects.push(Effect {
                        op,
                        path,
                        source: via.to_owned(),
                    });
                }
                Finding::Unparsed => {
                    worst = Some(worse(
                        worst,
                        Verdict::unknown(format!(
                            "part of the {via} code does not parse, so what it does is unknown"
                        )),
                    ));
                }
                Finding::Dynamic(reason) => {
                    let mut v = ids::RCE_DYNAMIC_CODE.verdict();
                    v.reason = format!("{}: {reason}", v.reason);
                    self.record(argv, scope, v);
                }
                Finding::MongoDrop { what } => {
                    let target = crate::dbtarget::mongo_target(
                        argv.get(1..).unwrap_or(&[]),
                        scope,
                        self.ctx,
                        &code.text,
                    );
                    let mut v = ids::DB_MONGO_DROP.verdict();
                    what.clone_into(&mut v.reason);
                    let v = crate::dbtarget::judge(v, &target);
                    self.record(argv, scope, v);
                }
                Finding::Exhaust { what } => {
                    let mut v = ids::RES_MEMORY_EXHAUST.verdict();
                    v.reason = format!("{}: {what}", v.reason);
                    self.record(argv, scope, v);
                }
                // Remembered like `curl -o`'s output, so a later spawn of the file (from the
                // snippet or the rest of the line) is download-then-run.
                Finding::Downloaded { path } => {
                    if !scope.remote
                        && let Some(p) = crate::flow::place_in(&path, &scope.cwd, self.ctx)
                    {
                        self.files.downloaded.push((p, false));
                    }
                }
                f @ (Finding::Source(_)
                | Finding::Exfil { .. }
                | Finding::FetchEval { .. }
                | Finding::ForkLoop) => flow_findings.push(f),
                // Printed: the output's source only (see `Finding::Printed`).
                Finding::Printed(s) => self.code_sources.push(s),
            }
        }
        self.code_sources
            .extend(flow_findings.iter().filter_map(|f| match f {
                Finding::Source(s) => Some(s.clone()),
                _ => None,
            }));
        self.recursion -= 1;
        if let Some(v) = self.code_flow_verdict(via, &flow_findings, &effects, before, scope) {
            worst = Some(worse(worst, v));
        }
        let mut seen = std::collections::HashSet::new();
        effects.retain(|e| seen.insert((e.op, e.path.clone())));
        let verdict = worst.unwrap_or_else(|| {
            Verdict::normal("interpreter code with no file effect outside the workspace")
        });
        self.record_effects(argv, scope, verdict, effects);
    }

    /// The verdict of one effect of carried code, judged like the shell's own writers
    /// (redirects, `rm`, `mv`, `chmod`) so `python -c` cannot reach what `rm` may not.
    fn judge_effect(
        &self,
        op: EffectOp,
        path: Option<&str>,
        recursive: bool,
        scope: &Scope,
    ) -> Verdict {
        let (raw, exact) = (path.unwrap_or(""), path.is_some());
        let cwd = &scope.cwd;
        let rule = match op {
            EffectOp::Write => targets::judge_write(raw, exact, cwd, self.ctx),
            // A pattern from code (`glob(root . '/*')` mapped to `unlink`) is judged as the
            // shell's glob is (`rm ./*` at the workspace root).
            EffectOp::Delete => targets::judge_delete(
                raw,
                exact,
                if exact && raw.contains(['*', '?', '[']) {
                    crate::targets::Shape::Glob
                } else {
                    crate::targets::Shape::Exact
                },
                recursive,
                cwd,
                self.ctx,
            ),
            // A move takes the source away as a recursive delete would (same as `mv`).
            EffectOp::Move => targets::judge_delete(
                raw,
                exact,
                crate::targets::Shape::Exact,
                true,
                cwd,
                self.ctx,
            ),
            EffectOp::Chmod => targets::judge_permissions(raw, exact, cwd, self.ctx),
            EffectOp::Read => (exact && targets::is_secret_path(raw, cwd, self.ctx))
                .then_some(ids::CRED_READ_SECRET_FILE),
            EffectOp::SetEnv => path
                .is_some_and(is_hijack_variable)
                .then_some(ids::RCE_ENV_HIJACK),
            EffectOp::Spawn | EffectOp::Network => None,
        };
        rule.map_or_else(
            || match op {
                EffectOp::Write | EffectOp::Delete | EffectOp::Move | EffectOp::Chmod => {
                    Verdict::normal("changes files inside the workspace or temp dir")
                }
                _ => Verdict::normal("interpreter code"),
            },
            RuleRef::verdict,
        )
    }

    /// An effect's path for the policy: as written when the command runs in the workspace;
    /// joined onto the directory a `cd` moved to; `None` when a relative path's directory is
    /// unknown (after `cd "$X"`), since it cannot be placed.
    fn effect_path(&self, path: Option<String>, scope: &Scope) -> Option<String> {
        let p = path?;
        if p.starts_with('/') || p.starts_with('~') {
            return Some(p);
        }
        match &scope.cwd {
            Cwd::Known(dir) if *dir == self.ctx.cwd => Some(p),
            Cwd::Known(dir) => Some(dir.join(&p).to_string_lossy().into_owned()),
            Cwd::Unknown => None,
        }
    }

    fn record_effects(
        &mut self,
        argv: &[Word],
        scope: &Scope,
        verdict: Verdict,
        effects: Vec<Effect>,
    ) {
        self.commands.push(ExecutedCommand {
            argv: texts(argv),
            via: scope.via.clone(),
            verdict,
            effects,
            cwd: scope.cwd_path(),
            stdin: None,
            writes: None,
            output_discarded: false,
        });
    }

    /// Attaches `SetEnv` effects for `names` to the first command recorded since `before` (the
    /// command the variables are set for), or records them on their own when nothing ran
    /// (`export X=1`, a bare `X=1`). Every name is reported; the policy decides which matter.
    pub(crate) fn attach_set_env(
        &mut self,
        before: usize,
        names: Vec<String>,
        shown: &str,
        scope: &Scope,
    ) {
        if names.is_empty() {
            return;
        }
        let effects: Vec<Effect> = names
            .into_iter()
            .map(|n| Effect {
                op: EffectOp::SetEnv,
                path: Some(n),
                source: "assignment".to_owned(),
            })
            .collect();
        if let Some(cmd) = self.commands.get_mut(before..).and_then(|c| c.first_mut()) {
            cmd.effects.extend(effects);
        } else {
            self.commands.push(ExecutedCommand {
                argv: vec![shown.to_owned()],
                via: scope.via.clone(),
                verdict: Verdict::safe("sets shell or environment variables"),
                effects,
                cwd: scope.cwd_path(),
                stdin: None,
                writes: None,
                output_discarded: false,
            });
        }
    }

    /// Codex's `apply_patch` run through the shell tool: the patch body (heredoc,
    /// here-string, or the first argument) is read with the same reader as the apply_patch
    /// tool, and every file it touches becomes an effect, so the shell route cannot write
    /// what the tool route may not.
    fn apply_patch(&mut self, argv: &[Word], args: &[Word], scope: &Scope, stdin: Producer) {
        let source = "apply_patch";
        let (body, exact) = match (args.first(), stdin) {
            (Some(a), _) if hookgate_core::patch::looks_like_patch(&a.text) => {
                (Some(a.text.clone()), a.exact)
            }
            (_, Producer::Text { text, exact }) => (Some(text), exact),
            _ => (None, false),
        };
        let mut effects = Vec::new();
        let mut worst: Option<Verdict> = None;
        if let Some(body) = body {
            for target in hookgate_core::patch::parse_patch(&body).paths {
                let op = match target.op {
                    hookgate_core::PathOp::Write => EffectOp::Write,
                    hookgate_core::PathOp::Delete => EffectOp::Delete,
                    hookgate_core::PathOp::Move => EffectOp::Move,
                    hookgate_core::PathOp::Read => EffectOp::Read,
                };
                // In an unquoted heredoc, `$X` and `$(…)` in a path are expanded by the shell.
                let known = exact || !target.path.contains(['$', '`']);
                let path = known.then_some(target.path);
                worst = Some(worse(
                    worst,
                    self.judge_effect(op, path.as_deref(), false, scope),
                ));
                effects.push(Effect {
                    op,
                    path: self.effect_path(path, scope),
                    source: source.to_owned(),
                });
            }
        }
        if effects.is_empty() {
            // A patch whose body is not literal (or names no file) may write anything.
            effects.push(Effect {
                op: EffectOp::Write,
                path: None,
                source: source.to_owned(),
            });
            worst = Some(worse(worst, ids::FS_OVERWRITE_UNRESOLVED_TARGET.verdict()));
        }
        let verdict = worst.unwrap_or_else(|| Verdict::normal("applies a patch"));
        self.record_effects(argv, scope, verdict, effects);
    }

    fn sql_client(
        &mut self,
        name: &str,
        argv: &[Word],
        args: &[Word],
        scope: &mut Scope,
        stdin: &Producer,
    ) -> Producer {
        let options = sql_options(name);
        let mut sql: Vec<Word> = Vec::new();
        let mut file = false;
        let mut i = 0;
        let mut positionals = Vec::new();
        let mut sql_texts: Vec<(String, bool)> = Vec::new();
        // `-f <(echo 'DROP …')`: the script is produced on this line; judge its text.
        let mut script = |value: Option<&Word>| {
            if let Some(producer) = value.and_then(|v| v.substs.last()) {
                match producer {
                    Producer::Text { text, exact } => sql_texts.push((text.clone(), *exact)),
                    Producer::LocalFile | Producer::Nothing => {}
                    _ => sql_texts.push((String::new(), false)),
                }
            }
        };
        while let Some(w) = args.get(i) {
            let t = w.text.as_str();
            i += 1;
            if !w.exact || !t.starts_with('-') || t == "-" {
                positionals.push(w);
                continue;
            }
            if let Some(long) = t.strip_prefix("--") {
                let (flag, inline) = match long.split_once('=') {
                    Some((f, v)) => (f, Some(v)),
                    None => (long, None),
                };
                let takes = matches!(flag, "command" | "execute" | "query" | "file");
                let value = match inline {
                    Some(v) => Some(Word {
                        text: v.to_owned(),
                        ..w.clone()
                    }),
                    None if takes => {
                        i += 1;
                        args.get(i - 1).cloned()
                    }
                    None => None,
                };
                match flag {
                    "command" | "execute" | "query" => sql.extend(value),
                    "file" => {
                        file = true;
                        script(value.as_ref());
                    }
                    _ => {}
                }
                continue;
            }
            if options.long_single_dash.contains(&t) {
                // `duckdb -cmd SQL`, `sqlite3 -cmd SQL`.
                sql.extend(args.get(i).cloned());
                i += 1;
                continue;
            }
            // A cluster of short options (`-tAc SQL`, `-c'SQL'`, `-se SQL`): letters until one
            // that takes a value, which is the rest of the word or the next word.
            if let Some((ch, value)) = crate::dbtarget::short_option_value(
                args,
                &mut i,
                w,
                options.values,
                options.attached,
            ) {
                if options.code.contains(ch) {
                    sql.extend(value);
                } else if options.file.contains(ch) {
                    file = true;
                    script(value.as_ref());
                }
            }
        }
        // sqlite3 DB "SQL…"
        if matches!(name, "sqlite3" | "sqlite" | "duckdb") {
            sql.extend(positionals.iter().skip(1).map(|w| (*w).clone()));
        }
        // `cypher-shell [OPTIONS] STATEMENT`, `db2 "STATEMENT"`: the operands are the query.
        if matches!(name, "cypher-shell" | "db2") {
            sql.extend(positionals.iter().map(|w| (*w).clone()));
        }
        if name == "bq" {
            sql.extend(positionals.iter().skip(1).map(|w| (*w).clone()));
        }
        let mut risk = SqlRisk::None;
        let mut opaque = false;
        for w in &sql {
            if w.exact {
                risk = risk.max(interp::scan_sql(&w.text));
            } else {
                opaque = true;
            }
        }
        for (text, exact) in &sql_texts {
            risk = risk.max(interp::scan_sql(text));
            opaque |= !exact && risk == SqlRisk::None;
        }
        if sql.is_empty() && !file {
            match stdin {
                Producer::Text { text, exact } => {
                    risk = risk.max(interp::scan_sql(text));
                    opaque |= !exact && risk == SqlRisk::None;
                }
                Producer::Download
                | Producer::Decoded
                | Producer::Opaque
                | Producer::Secret(_)
                | Producer::FindPaths(_)
                | Producer::VisibleFiles(_) => opaque = true,
                Producer::Nothing | Producer::LocalFile | Producer::Endless => {}
            }
        }
        let mut verdict = match risk {
            SqlRisk::Drop => ids::DB_DROP.verdict(),
            SqlRisk::DeleteAll => ids::DB_DELETE_ALL.verdict(),
            SqlRisk::Privilege => ids::DB_PRIVILEGE_CHANGE.verdict(),
            SqlRisk::None if opaque => ids::DB_OPAQUE_SQL.verdict(),
            SqlRisk::None => Verdict::normal("database client"),
        };
        if risk != SqlRisk::None {
            // Where it connects and which databases its SQL acts on decide how much it risks.
            let stdin_text = match stdin {
                Producer::Text { text, exact } if sql.is_empty() && !file => {
                    Some(exact.then_some(text.as_str()))
                }
                _ => None,
            };
            let texts: Vec<Option<&str>> = sql
                .iter()
                .map(|w| w.exact.then_some(w.text.as_str()))
                .chain(sql_texts.iter().map(|(t, e)| e.then_some(t.as_str())))
                .chain(stdin_text)
                // A script file read from disk may switch databases (`\c`): unknown.
                .chain((file && sql_texts.is_empty()).then_some(None))
                .collect();
            if let Some(target) = crate::dbtarget::sql_target(name, args, scope, self.ctx, &texts) {
                verdict = crate::dbtarget::judge(verdict, &target);
            }
        }
        self.record(argv, scope, verdict);
        // The clients' own meta-commands run shell: sqlite3 `.shell`/`.system`, psql and
        // mysql `\!`, mysql `system`. Each is judged as the shell code it carries, and asks
        // as a shell escape whatever it runs.
        let texts: Vec<Word> = sql
            .iter()
            .cloned()
            .chain(sql_texts.iter().map(|(t, e)| Word {
                text: t.clone(),
                exact: *e,
                shape: WordShape::Exact,
                substs: Vec::new(),
            }))
            .chain(match (stdin, sql.is_empty() && !file) {
                (Producer::Text { text, exact }, true) => Some(Word {
                    text: text.clone(),
                    exact: *exact,
                    shape: WordShape::Exact,
                    substs: Vec::new(),
                }),
                _ => None,
            })
            .collect();
        for w in &texts {
            for line in w.text.lines() {
                let line = line.trim_start();
                let shell = line
                    .strip_prefix(".shell ")
                    .or_else(|| line.strip_prefix(".system "))
                    .or_else(|| line.strip_prefix("\\!"))
                    .or_else(|| {
                        line.strip_prefix("system ")
                            .filter(|_| name.starts_with("mysql") || name == "mariadb")
                    });
                if let Some(code) = shell {
                    let code = Word {
                        text: code.trim_end_matches(';').to_owned(),
                        exact: w.exact,
                        shape: WordShape::Exact,
                        substs: Vec::new(),
                    };
                    let before = self.commands.len();
                    self.run_code_string(argv, &code, scope, &format!("{name} shell escape"));
                    self.escape_asks(argv, scope, before, &[]);
                }
            }
        }
        // The engines read files themselves (`read_text('~/.aws/credentials')`, `file('.env')`,
        // `pg_read_file(…)`), write them (`COPY … TO '/tmp/o'`, `INTO OUTFILE`,
        // `writefile(…)`), run programs (`COPY … FROM PROGRAM '…'`) and write results to object
        // stores and URLs (`COPY … TO 's3://…'`, `INSERT INTO FUNCTION url(…)`): a credential
        // file read there is what the SQL prints, stores, writes or uploads.
        let exact: Vec<&str> = texts
            .iter()
            .filter(|w| w.exact)
            .map(|w| w.text.as_str())
            .collect();
        let io = crate::flow::sql_file_io(&exact, &scope.cwd, self.ctx, &self.files);
        for code in &io.programs {
            let code = Word::lit(code);
            let before = self.commands.len();
            self.run_code_string(argv, &code, scope, &format!("{name} PROGRAM"));
            self.escape_asks(argv, scope, before, &[]);
        }
        if !io.writes.is_empty() {
            let mut effects = Vec::new();
            let mut worst: Option<Verdict> = None;
            for path in &io.writes {
                worst = Some(worse(
                    worst,
                    self.judge_effect(EffectOp::Write, Some(path), false, scope),
                ));
                effects.push(Effect {
                    op: EffectOp::Write,
                    path: self.effect_path(Some(path.clone()), scope),
                    source: format!("{name} SQL"),
                });
            }
            let verdict = worst.unwrap_or_else(|| Verdict::normal("database client"));
            self.record_effects(argv, scope, verdict, effects);
        }
        let Some(source) = io.source else {
            return Producer::Opaque;
        };
        if let Some(target) = io.remote {
            let flow = crate::model::Flow {
                source: source.clone(),
                sink: crate::model::FlowSink::Network {
                    tool: format!("{name} writing to {target}"),
                    channel: crate::model::Channel::Upload,
                },
            };
            let argv = argv.iter().map(|w| w.text.clone()).collect();
            self.record_flow(argv, scope, ids::CRED_EXFILTRATE, flow);
        }
        if !scope.remote {
            // The files the SQL wrote hold what it read; so does the database file of an
            // embedded engine (`sqlite3 /tmp/x.db "insert … readfile(…)"`) when rows were
            // stored.
            let database = matches!(name, "sqlite3" | "sqlite" | "duckdb")
                .then(|| positionals.first())
                .flatten()
                .filter(|w| w.exact && io.stores && !w.text.starts_with(':'))
                .map(|w| w.text.clone());
            for out in io.writes.iter().cloned().chain(database) {
                if let Some(p) = crate::flow::place_in(&out, &scope.cwd, self.ctx) {
                    self.files.secret.push((p, source.clone()));
                }
            }
        }
        Producer::Secret(source)
    }

    fn find(&mut self, argv: &[Word], args: &[Word], scope: &mut Scope) -> Producer {
        // Roots are the words before the first expression token.
        let mut i = 0;
        while args.get(i).is_some_and(|w| {
            w.exact
                && matches!(
                    w.text.as_str(),
                    "-H" | "-L" | "-P" | "-O0" | "-O1" | "-O2" | "-O3" | "-D"
                )
        }) {
            i += if args.get(i).is_some_and(|w| w.text == "-D") {
                2
            } else {
                1
            };
        }
        let mut roots: Vec<Word> = Vec::new();
        while let Some(w) = args.get(i) {
            if w.exact && (w.text.starts_with('-') || w.text == "(" || w.text == "!") {
                break;
            }
            roots.push(w.clone());
            i += 1;
        }
        if roots.is_empty() {
            roots.push(Word::lit("."));
        }
        let mut worst: Option<Verdict> = None;
        let mut nested = false;
        // Predicates that narrow the search to some files (not `-type`, depth or actions).
        let narrows = |w: &Word| {
            w.exact
                && matches!(
                    w.text.as_str(),
                    "-name"
                        | "-iname"
                        | "-path"
                        | "-ipath"
                        | "-wholename"
                        | "-iwholename"
                        | "-regex"
                        | "-iregex"
                        | "-lname"
                        | "-ilname"
                        | "-newer"
                        | "-anewer"
                        | "-cnewer"
                        | "-mtime"
                        | "-mmin"
                        | "-atime"
                        | "-amin"
                        | "-ctime"
                        | "-cmin"
                        | "-size"
                        | "-empty"
                        | "-user"
                        | "-group"
                        | "-uid"
                        | "-gid"
                        | "-perm"
                        | "-links"
                        | "-inum"
                        | "-samefile"
                        | "-nouser"
                        | "-nogroup"
                        | "-used"
                        | "-newermt"
                        | "-newerct"
                        | "-newerat"
                        | "-prune"
                )
        };
        // Whether the branch of the expression that leads to the action at `at` narrows the
        // search: a `-o` outside parentheses starts a new branch, so `-path ./node_modules
        // -prune -o -type f -exec shred -u {} +` reaches every other file (the prune is on
        // the other branch), while `-name '*.pyc' -delete` narrows its own.
        let expr_from = i;
        let selective = |at: usize| {
            let mut depth = 0usize;
            let mut narrowed = false;
            for w in args.get(expr_from..at).unwrap_or(&[]) {
                match (w.exact, w.text.as_str()) {
                    (true, "(") => depth += 1,
                    (true, ")") => depth = depth.saturating_sub(1),
                    (true, "-o" | "-or" | ",") if depth == 0 => narrowed = false,
                    _ => narrowed |= narrows(w),
                }
            }
            narrowed
        };
        // Names the search selects (`-name .env`), and for a pattern the names it matches
        // that are credentials (`-name '*.env'` selects `.env`, `-name 'id_rsa*'` `id_rsa`):
        // a `*` read as nothing or as one character.
        let names: Vec<String> = args
            .windows(2)
            .filter(|p| p[0].exact && matches!(p[0].text.as_str(), "-name" | "-iname"))
            .filter(|p| p[1].exact && !p[1].text.contains(['?', '[']))
            .filter_map(|p| {
                let n = &p[1].text;
                if !n.contains('*') {
                    return Some(n.clone());
                }
                // The pattern itself when it is aimed at a credential (`-name 'id_*'`).
                // Or a key file by its extension (`-name '*.key'`: `x.key`).
                [n.replace('*', ""), n.replace('*', "x"), n.clone()]
                    .into_iter()
                    .find(|c| targets::is_secret_name(c) || targets::is_key_file_name(c, self.ctx))
            })
            .collect();
        // `find DIR -maxdepth 1 -name PAT … -delete` (no alternatives or negations) deletes
        // only entries `DIR/PAT` (a directory only when empty): judged as that glob, so a
        // temp dir holding the home directory is searched for scratch files only when the
        // pattern cannot name the home directory itself.
        let one_level_name: Option<&str> = (args
            .windows(2)
            .any(|p| p[0].exact && p[0].text == "-maxdepth" && p[1].exact && p[1].text == "1")
            && !args
                .iter()
                .any(|w| matches!(w.text.as_str(), "-o" | "-or" | "!" | "-not" | "(" | ",")))
        .then(|| {
            args.windows(2)
                .find(|p| p[0].exact && matches!(p[0].text.as_str(), "-name" | "-iname"))
                .filter(|p| p[1].exact && !p[1].text.is_empty() && !p[1].text.contains('/'))
                .map(|p| p[1].text.as_str())
        })
        .flatten();
        let expr_start = i;
        // What the name and path tests select for the action at `at` (see
        // `targets::find_selected_entries`).
        let selected = |at: usize| {
            let expr: Vec<(bool, &str)> = args
                .get(expr_start..)
                .unwrap_or(&[])
                .iter()
                .map(|w| (w.exact, w.text.as_str()))
                .collect();
            targets::find_selected_entries(&expr, at.saturating_sub(expr_start))
        };
        while let Some(w) = args.get(i) {
            i += 1;
            if !w.exact {
                continue;
            }
            match w.text.as_str() {
                "-delete" => {
                    let entries = selected(i - 1);
                    for root in roots.iter().filter(|r| r.exact) {
                        if let Some((_, rule)) =
                            targets::find_flagged_entry(&root.text, &entries, &scope.cwd, self.ctx)
                        {
                            worst = Some(worse(worst, rule.verdict()));
                        }
                    }
                    let selective = selective(i - 1);
                    for root in &roots {
                        // Unfiltered, the search of the workspace root deletes all of it
                        // (`rm -rf ./*`), as its `-exec` items do below.
                        let everything = format!("{}/*", root.text.trim_end_matches('/'));
                        let v = if selective {
                            None
                        } else {
                            targets::judge_delete(
                                &everything,
                                root.exact,
                                crate::targets::Shape::Glob,
                                true,
                                &scope.cwd,
                                self.ctx,
                            )
                            .filter(|r| *r == ids::FS_DELETE_WORKSPACE_GLOB)
                        }
                        .or_else(|| match one_level_name {
                            Some(pattern) => targets::judge_delete(
                                &format!("{}/{pattern}", root.text.trim_end_matches('/')),
                                root.exact,
                                crate::targets::Shape::Glob,
                                true,
                                &scope.cwd,
                                self.ctx,
                            ),
                            None => targets::judge_delete(
                                &root.text,
                                root.exact,
                                crate::targets::Shape::Descendants,
                                true,
                                &scope.cwd,
                                self.ctx,
                            ),
                        })
                        .map(RuleRef::verdict);
                        if let Some(v) = v {
                            worst = Some(worse(worst, v));
                        }
                    }
                }
                "-exec" | "-execdir" | "-ok" | "-okdir" => {
                    let start = i;
                    while args
                        .get(i)
                        .is_some_and(|w| !(w.exact && (w.text == ";" || w.text == "+")))
                    {
                        i += 1;
                    }
                    let mut cmd: Vec<Word> = args.get(start..i).unwrap_or(&[]).to_vec();
                    let entries = selected(start - 1);
                    let selective = selective(start - 1);
                    i += 1;
                    for root in &roots {
                        // With no predicate that selects by name, path, time, size or
                        // owner, a search of the workspace root reaches everything in it:
                        // its items are the workspace's catch-all glob (`rm -rf ./*`).
                        let whole_workspace = !selective
                            && root.exact
                            && targets::judge_delete(
                                &format!("{}/*", root.text.trim_end_matches('/')),
                                true,
                                crate::targets::Shape::Glob,
                                true,
                                &scope.cwd,
                                self.ctx,
                            ) == Some(ids::FS_DELETE_WORKSPACE_GLOB);
                        let flagged = root
                            .exact
                            .then(|| {
                                targets::find_flagged_entry(
                                    &root.text, &entries, &scope.cwd, self.ctx,
                                )
                            })
                            .flatten();
                        // `find DIR -maxdepth 1 -name PAT -exec rm -rf {} +`: the items are
                        // `DIR/PAT` — unless the pattern also names DIR itself, which
                        // `-maxdepth 1` (without `-mindepth 1`) selects too.
                        let one_level = one_level_name.filter(|_| root.exact).filter(|pattern| {
                            let base = root.text.trim_end_matches('/');
                            let base = base.rsplit('/').next().unwrap_or(base);
                            !hookgate_paths::Glob::compile(pattern)
                                .map_or(true, |g| g.matches(&[base]))
                        });
                        let item = if let Some((path, _)) = flagged {
                            Word::lit(path)
                        } else if let Some(pattern) = one_level {
                            Word::paths(
                                &format!("{}/{pattern}", root.text.trim_end_matches('/')),
                                WordShape::Glob,
                            )
                        } else if whole_workspace {
                            Word::paths(
                                &format!("{}/*", root.text.trim_end_matches('/')),
                                WordShape::Glob,
                            )
                        } else {
                            Word {
                                text: root.text.clone(),
                                exact: root.exact,
                                shape: WordShape::Descendants,
                                substs: Vec::new(),
                            }
                        };
                        // What `{}` stands for when it is only part of a word (`-F f=@{}`): a
                        // credential the search selects (`find . -name .env`, `find ~/.ssh`)
                        // is kept as that path, so the command's sinks see it.
                        // A key file by its extension (`-name '*.pem'`) counts for what reads
                        // or sends the files; a deletion keeps the root's every descendant,
                        // the wider judgement (`find ~ -name '*.pem' -exec rm {} \;`).
                        let deletes = cmd.first().is_some_and(|c| {
                            matches!(
                                basename(&c.text),
                                "rm" | "unlink" | "shred" | "srm" | "trash" | "trash-put"
                            )
                        });
                        let secret_item = root.exact.then(|| {
                            std::iter::once(root.text.clone())
                                .chain(names.iter().map(|n| format!("{}/{n}", root.text)))
                                .find(|p| {
                                    if deletes {
                                        targets::is_secret_path(p, &scope.cwd, self.ctx)
                                    } else {
                                        targets::is_found_secret(p, &scope.cwd, self.ctx)
                                    }
                                })
                        });
                        let mut line = cmd.clone();
                        for word in &mut line {
                            if word.text == "{}" {
                                *word = item.clone();
                                // The files are credentials: the item is such a file below
                                // the root (still every one of them: `Descendants`).
                                if let Some(p) = secret_item.as_ref().and_then(Option::as_ref) {
                                    word.text.clone_from(p);
                                }
                            } else if let Some(prefix) = item_slot(&word.text, "{}") {
                                // `-F file=@{}`, `--upload-file={}`: the option's value is
                                // the item itself.
                                let text = secret_item
                                    .as_ref()
                                    .and_then(Option::as_ref)
                                    .unwrap_or(&item.text);
                                *word = Word {
                                    text: format!("{prefix}{text}"),
                                    ..item.clone()
                                };
                            } else if word.text.contains("{}") {
                                if let Some(p) = secret_item.as_ref().and_then(Option::as_ref) {
                                    word.text = word.text.replace("{}", p);
                                } else {
                                    word.text = word.text.replace("{}", &root.text);
                                    word.exact = false;
                                }
                            }
                        }
                        nested = true;
                        self.peel(argv, &line, "find -exec", scope, Producer::Nothing);
                    }
                    cmd.clear();
                }
                "-fprint" | "-fprint0" | "-fprintf" | "-fls" => {
                    if let Some(file) = args.get(i) {
                        redirect_write(self, file, scope, false);
                    }
                }
                _ => {}
            }
        }
        let verdict = worst.unwrap_or_else(|| {
            if taxonomy::is_safe("find", &Args::parse_by("find", args, |w| w.text.as_str())) {
                Verdict::safe("lists files")
            } else if nested {
                Verdict::normal("runs a command on found files")
            } else {
                Verdict::normal("finds files")
            }
        });
        self.record(argv, scope, verdict);
        // What it prints is what its tests select: `find . -name .git | xargs rm -rf`.
        let printed = selected(args.len());
        Producer::FindPaths(
            roots
                .into_iter()
                .filter(|w| w.exact)
                .map(|w| {
                    targets::find_flagged_entry(&w.text, &printed, &scope.cwd, self.ctx)
                        .map(|(path, _)| path)
                        // `find ~ -name '*.pem' | xargs cat`: the names it prints are the
                        // credentials its pattern selects, so what reads them reads those.
                        .or_else(|| {
                            names
                                .iter()
                                .map(|n| format!("{}/{n}", w.text))
                                .find(|p| targets::is_found_secret(p, &scope.cwd, self.ctx))
                        })
                        .unwrap_or(w.text)
                })
                .collect(),
        )
    }

    /// Classifies a command that is not a wrapper, shell or interpreter: taxonomy rules, target
    /// judgements, credential reads, then the read-only list.
    pub(crate) fn classify_plain(&mut self, name: &str, argv: &[Word], scope: &Scope) {
        let words = argv.get(1..).unwrap_or(&[]);
        // One copy of the words serves the rule matching and the record.
        let all = texts(argv);
        let strings = all.get(1..).unwrap_or(&[]);
        let args = Args::parse(name, strings);
        let mut matched = taxonomy::match_rules(name, &args);
        if matched == Some(ids::GIT_CLEAN_FORCE)
            && targets::git_clean_within_workspace(words, &scope.cwd, self.ctx)
        {
            matched = None;
        }
        // `rsync --delete SRC/ DEST/` loses the files of DEST that SRC lacks: judged as
        // deleting DEST's tree (`rm -rf DEST`), so a mirror into scratch or the workspace is
        // ordinary and one into home, the workspace root or a system path keeps the rule.
        // Moving the sources away (`--remove-source-files`) and a remote DEST keep it.
        if matched == Some(ids::FS_RSYNC_DELETE)
            && !args.has_flag("--remove-source-files")
            && args.positionals.len() >= 2
            && let Some(dest) = args
                .positionals
                .last()
                .and_then(|d| words.iter().rev().find(|w| w.text == *d))
            && !dest.text.contains(':')
            && targets::judge_delete(
                &dest.text,
                dest.exact,
                dest.shape(),
                true,
                &scope.cwd,
                self.ctx,
            )
            .is_none()
        {
            matched = None;
        }
        // A rule whose operands show the act stays on this machine's scratch (a local dev
        // cluster, an image file, a loopback registry, …) is judged by that (`contained`).
        let mut worst: Option<Verdict> = matched.map(|rule| {
            crate::contained::verdict(rule, name, words, &scope.cwd, self.ctx).unwrap_or_else(
                || crate::dbtarget::rule_verdict(rule, name, words, scope, self.ctx),
            )
        });
        if let Some(v) = self.argument_danger(name, words, &args, scope) {
            worst = Some(worse(worst, v));
        }
        if let Some(v) = self.deletes_own_listing(name, words, scope) {
            worst = Some(worse(worst, v));
        }
        if name == "rclone"
            && let Some(v) = targets::rclone_mirror(words, &scope.cwd, self.ctx)
        {
            worst = Some(worse(worst, v));
        }
        if matches!(name, "aws" | "gcloud" | "az")
            && let Some(v) = crate::argdanger::cloud_grant(name, words)
        {
            worst = Some(worse(worst, v));
        }
        if matches!(name, "aws" | "gcloud")
            && let Some(v) = crate::argdanger::cloud_sql(name, words)
        {
            worst = Some(worse(worst, v));
        }
        if name == "aws"
            && let Some(v) = crate::argdanger::dns_change_batch(words)
        {
            worst = Some(worse(worst, v));
        }
        if let Some(v) = crate::hazards::argument(name, words) {
            worst = Some(worse(worst, v));
        }
        if let Some(v) = crate::hazards::serves_sensitive(name, words, &scope.cwd, self.ctx) {
            worst = Some(worse(worst, v));
        }
        let ctx = self.ctx;
        let cwd = &scope.cwd;
        let operands: Vec<&Word> = operand_words(words);

        match name {
            "rm" | "unlink" | "srm" | "shred" | "wipe" => {
                let recursive = args.has_any(&["-r", "-R", "--recursive"]);
                if args.has_flag("--no-preserve-root") {
                    worst = Some(worse(worst, ids::FS_DELETE_SYSTEM.verdict()));
                }
                for t in &operands {
                    if let Some(rule) = judged_in(scope, t.exact, |cwd| {
                        targets::judge_delete(&t.text, t.exact, t.shape(), recursive, cwd, ctx)
                    }) {
                        worst = Some(worse(worst, rule.verdict()));
                    }
                }
            }
            // Image writers: what they write is a file or a disk named by an operand or an
            // option, judged as `dd of=` is (a whole block device destroys its filesystem;
            // a home or system file is overwritten). Their inputs are read, not judged
            // here (`ddrescue /dev/sda disk.img map` rescues a disk into the workspace).
            "bmaptool" | "qemu-img" | "ddrescue" | "ntfsclone" | "curl" | "wget" => {
                for t in image_outputs(name, words) {
                    if let Some(rule) = judge_write_word(&t, scope, ctx) {
                        worst = Some(worse(worst, rule.verdict()));
                    }
                }
            }
            _ if name.starts_with("partclone.") => {
                for t in image_outputs("partclone", words) {
                    if let Some(rule) = judge_write_word(&t, scope, ctx) {
                        worst = Some(worse(worst, rule.verdict()));
                    }
                }
            }
            "dd" | "dcfldd" | "dc3dd" | "sg_dd" => {
                for w in words {
                    if let Some(of) = w.text.strip_prefix("of=")
                        && let Some(rule) = judged_in(scope, w.exact, |cwd| {
                            targets::judge_write(of, w.exact, cwd, ctx)
                        })
                    {
                        worst = Some(worse(worst, rule.verdict()));
                    }
                }
            }
            "chmod" | "chown" | "chgrp" => {
                let tightening = name == "chmod"
                    && operands
                        .first()
                        .is_some_and(|m| m.exact && crate::argdanger::chmod_tightens(&m.text));
                for t in operands.iter().skip(1) {
                    if let Some(rule) = judged_in(scope, t.exact, |cwd| {
                        targets::judge_permissions(&t.text, t.exact, cwd, ctx)
                    }) && !(tightening && rule == ids::FS_PERMISSIONS_OUTSIDE_WORKSPACE)
                    {
                        worst = Some(worse(worst, rule.verdict()));
                    }
                }
            }
            "cp" | "mv" | "install" | "ln" | "rsync" => {
                let (dest, sources) = targets::copy_parts(name, words);
                if let Some(d) = dest
                    && !(name == "rsync" && d.text.contains(':'))
                    && let Some(rule) = judged_in(scope, d.exact, |cwd| {
                        targets::judge_write(&d.text, d.exact, cwd, ctx)
                    })
                {
                    worst = Some(worse(worst, rule.verdict()));
                }
                if name == "mv" {
                    for src in sources {
                        if let Some(rule) = judged_in(scope, src.exact, |cwd| {
                            targets::judge_delete(&src.text, src.exact, src.shape(), true, cwd, ctx)
                        }) {
                            worst = Some(worse(worst, rule.verdict()));
                        }
                    }
                }
            }
            "tee" | "truncate" | "touch" => {
                // `tee >(grep FAIL > fails.txt)`: the operand is a pipe into a command the
                // walker analyzes (and judges the writes of) on its own, not a file.
                for t in operands.iter().filter(|t| !t.is_process_substitution()) {
                    if let Some(rule) = judge_write_word(t, scope, ctx) {
                        worst = Some(worse(worst, rule.verdict()));
                    }
                    // A named file is judged by its place alone; a pattern reaches files the
                    // line does not name.
                    // A pattern below a workspace directory (`logs/*.log`) reaches only
                    // files there, as `rm logs/*.log` does, and is judged like it.
                    if name == "truncate"
                        && t.shape != WordShape::Exact
                        && !(t.exact
                            && t.shape == WordShape::Glob
                            && crate::targets::glob_in_workspace(&t.text, &scope.cwd, ctx))
                    {
                        worst = Some(worse(worst, ids::FS_TRUNCATE.verdict()));
                    }
                }
            }
            "sed" if args.has_any(&["-i", "--in-place"]) => {
                for t in sed_files(words) {
                    if let Some(rule) = judge_write_word(t, scope, ctx) {
                        worst = Some(worse(worst, rule.verdict()));
                    }
                }
            }
            "perl" if args.has_any(&["-i", "--in-place"]) => {
                for t in operands.iter().skip(1) {
                    if let Some(rule) = judge_write_word(t, scope, ctx) {
                        worst = Some(worse(worst, rule.verdict()));
                    }
                }
            }
            "apptainer" | "singularity" => {
                // Binds come from the environment too (`APPTAINER_BIND=/:/host apptainer exec
                // …`, `export SINGULARITY_BINDPATH=…`): the same specs as `--bind`.
                let from_env = [
                    "APPTAINER_BIND",
                    "APPTAINER_BINDPATH",
                    "SINGULARITY_BIND",
                    "SINGULARITY_BINDPATH",
                ]
                .iter()
                .filter_map(|var| lookup(var, ctx, scope))
                .any(|spec| bind_spec_is_critical(&spec, ctx));
                if from_env {
                    worst = Some(worse(worst, ids::DOCKER_HOST_MOUNT.verdict()));
                } else if let Some(v) = apptainer_host_bind(words, ctx) {
                    worst = Some(worse(worst, v));
                }
            }
            "docker" | "podman" | "nerdctl" | "kubectl" | "oc" => {
                if name != "kubectl"
                    && name != "oc"
                    && let Some(v) = docker_host_mount(&args, words, ctx)
                {
                    worst = Some(worse(worst, v));
                }
                if matches!(name, "kubectl" | "oc")
                    && let Some(v) = kube_pod_overrides(&args, words)
                {
                    worst = Some(worse(worst, v));
                }
                // `docker cp ~/.ssh/id_rsa c:/tmp`, `kubectl cp ~/.kube/config pod:/x`: a
                // credential copied into a container or pod (on another machine, for kubectl).
                // `docker cp app-web-1:/root/.aws ./creds`: a container's credentials copied out
                // to the host, where the agent reads them.
                if matches!(name, "docker" | "podman" | "nerdctl")
                    && args.positionals.first() == Some(&"cp")
                    && let Some(src) = args.positionals.get(1)
                    && let Some((container, inside)) = src.split_once(':')
                    && !container.is_empty()
                    && !container.contains('/')
                    && targets::is_foreign_secret_path(inside)
                {
                    worst = Some(worse(worst, ids::CRED_READ_SECRET_FILE.verdict()));
                }
                if args.positionals.first() == Some(&"cp")
                    && let Some(src) = args.positionals.get(1)
                    && targets::is_secret_path(src, cwd, ctx)
                {
                    let rule = if matches!(name, "kubectl" | "oc") {
                        ids::CRED_EXFILTRATE
                    } else {
                        ids::CRED_READ_SECRET_FILE
                    };
                    worst = Some(worse(worst, rule.verdict()));
                }
            }
            _ => {}
        }

        if let Some(v) = self.flow_verdict(name, words, scope) {
            worst = Some(worse(worst, v));
        }
        // Not an `else`: a reader that also runs code (`awk 1 ~/.netrc`, whose program the
        // flow judges) still reads the files it names.
        // openssl's cipher and encoding commands copy the file they are given, encrypted or
        // encoded (`openssl enc -aes-256-cbc -in ~/.ssh/id_rsa -out k.enc`, `openssl base64
        // -in key`, `openssl aes-256-cbc -in …`): a read like `base64 FILE`. Its other
        // commands use a key without printing it (`openssl req -key server.key`) or talk to
        // the network (`s_client`).
        let sender = crate::names::listed!(NETWORK_SENDERS, name)
            && !(name == "openssl"
                && args.positionals.first().is_some_and(|c| {
                    matches!(*c, "enc" | "base64")
                        || [
                            "aes", "des", "camellia", "chacha", "bf-", "cast", "aria", "sm4",
                        ]
                        .iter()
                        .any(|p| c.starts_with(p))
                }));
        if !scope.remote && crate::names::listed!(READERS, name) && !sender {
            // A copy's destination is written, not read (`cp -n .env.example .env`).
            let destination = matches!(name, "cp" | "rsync" | "scp")
                .then(|| operands.last().copied())
                .flatten()
                .filter(|_| operands.len() > 1 && !args.has_any(&["-t", "--target-directory"]));
            // The same decision the data flow makes for a file a reader names (the shell's
            // list, then the path catalog outside the workspace: `~/.config/rclone/rclone.conf`,
            // `~/.pgpass`), so a read to the terminal and a read sent out agree; and a process's
            // environment file, whichever process (`/proc/$(pgrep x)/environ`).
            // Files this line wrote the environment to are not credential files here: an
            // environment dump read back without a sink stays ordinary (F3); the flow judges
            // where it goes.
            let files = crate::flow::LineState::default();
            // A pattern, filter or script is not a file (`grep -n '.env.production' README.md`).
            let program = crate::flow::program_operand(name, words).and_then(|k| words.get(k));
            // `tar … --exclude .env`: the value of an exclusion option is a pattern.
            let excluded = |k: usize, w: &Word| {
                k.checked_sub(1)
                    .and_then(|p| words.get(p))
                    .and_then(|prev| prev.text.strip_prefix("--"))
                    .is_some_and(|o| is_exclusion_option(o, &w.text))
            };
            let secret = words
                .iter()
                .enumerate()
                .filter(|(k, w)| !excluded(*k, w))
                .map(|(_, w)| w)
                .filter(|w| destination.is_none_or(|d| !std::ptr::eq(*w, d)))
                .filter(|w| program.is_none_or(|p| !std::ptr::eq(*w, p)))
                .any(|w| {
                    if !w.exact {
                        return w.text.starts_with("/proc/") && w.text.ends_with("/environ");
                    }
                    secret_candidates(&w.text)
                        .any(|p| crate::flow::reader_exposes(p, cwd, ctx, &files))
                });
            // `grep -rn aws_secret_access_key ~`: a hunt for credential markers over the home
            // prints the secrets it finds.
            let secret = secret
                || crate::flow::hunts_credentials(name, words, &scope.cwd, self.ctx).is_some();
            // Checked only once a secret is named: most reads name none.
            if secret
                && !prints_no_content(name, &args, words)
                && !sources_workspace_dotenv(name, &operands, cwd, ctx)
            {
                worst = Some(worse(worst, ids::CRED_READ_SECRET_FILE.verdict()));
            }
        }

        if worst.is_none()
            && words.iter().enumerate().any(|(i, w)| {
                !w.exact
                    && w.text.starts_with('$')
                    && !w.text.starts_with("$(")
                    && !in_value_slot(name, &args, words, i)
            })
        {
            // A flag or subcommand only known at run time, on a command with dangerous forms.
            let probe = name == "kill" && {
                let rest: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
                crate::hazards::kill_probes_only(&rest)
            };
            if !probe
                && (crate::taxonomy::has_rules_for(name, &args)
                    || crate::hazards::judged_here(name))
            {
                worst = Some(Verdict::unknown(
                    "an argument of a command with destructive forms is only known at run time",
                ));
            }
        }
        // A subcommand completed at run time (`git re"$X" --hard`, `kubectl del${V} ns prod`).
        if worst.is_none()
            && words
                .iter()
                .any(|w| !w.exact && w.text.contains('$') && !w.text.starts_with('$'))
            && crate::taxonomy::run_time_word_on_sub_path(name, &args)
        {
            worst = Some(Verdict::unknown(
                "a subcommand of a command with destructive forms is completed only at run time",
            ));
        }

        // A program nothing here models, whose subcommand names a deletion with a signal
        // (see `crate::unknown_cli`): the guess comes last, after every exact answer.
        if worst.is_none()
            && !args.catalogued()
            && crate::unknown_cli::may_name_deletion(strings)
            && crate::unknown_cli::unmodelled_in_code(name)
        {
            let texts: Vec<&str> = strings.iter().map(String::as_str).collect();
            worst = crate::unknown_cli::destructive_subcommand(name, &texts);
        }
        let verdict = worst.unwrap_or_else(|| {
            let help = matches!(strings, [a] if a == "--help" || a == "--version" || a == "-h")
                || (name == "git" && matches!(strings, [a] if a == "-v" || a == "help"))
                || (name == "git" && strings.first().is_some_and(|a| a == "help"));
            if help || taxonomy::is_safe(name, &args) {
                Verdict::safe("read-only command")
            } else {
                Verdict::normal("no destructive pattern")
            }
        });
        self.record_text(all, scope, verdict);
    }
}

/// Options that only choose where a command acts — the account, profile, region, project,
/// zone, namespace or cluster context — across the CLIs the taxonomy parses. A run-time value
/// of one (`kubectl get pods -n "$NS"`, `aws --profile "$P" s3 ls`) is not a flag or a
/// subcommand: the operation is the one the line spells, judged by its own rules.
const SELECTOR_OPTIONS: &[&str] = &[
    "--profile",
    "--region",
    "-n",
    "--namespace",
    "--context",
    "--kube-context",
    "--project",
    "--zone",
    "--subscription",
    "-g",
    "--resource-group",
    "--account",
];

/// AWS API operations named `Describe…`, `Get…`, `List…` only read (the API's own naming
/// contract); the ones that print a secret (`get-secret-value`, `get-login-password`) are
/// matched by their exact names whatever their parameters hold.
fn aws_read_operation(args: &Args<'_>) -> bool {
    matches!(args.positionals.as_slice(), [service, op, ..]
        if !service.starts_with('$')
            && ["describe-", "get-", "list-"].iter().any(|p| op.starts_with(p)))
}

/// Whether run-time word `words[i]` is the value of the option before it, where that value
/// cannot change the operation: a selector option the tool's parser takes a value for
/// ([`SELECTOR_OPTIONS`]), an option the tool's table marks inert (`[[cli]] inert_options`:
/// host, account, password, interface), or any `--parameter` of a read-only AWS operation (the AWS CLI's
/// parser gives every operation parameter its value; a value never becomes a flag).
fn in_value_slot(name: &str, args: &Args<'_>, words: &[Word], i: usize) -> bool {
    let Some(option) = i.checked_sub(1).and_then(|p| words.get(p)) else {
        return false;
    };
    if !option.exact || !option.text.starts_with('-') || option.text.contains('=') {
        return false;
    }
    let opt = option.text.as_str();
    (SELECTOR_OPTIONS.contains(&opt)
        && taxonomy::command(name).is_some_and(|c| c.value_options.contains(&opt)))
        || taxonomy::command(name).is_some_and(|c| c.inert_options.contains(&opt))
        || (name == "aws" && opt.starts_with("--") && aws_read_operation(args))
}

/// The Python statement of an IPython line magic that only times or profiles it (`%timeit
/// -n 100 f(x)`, `%time load()`, `%prun main()`): the options (`-n N`, `-r N`, `-p N`, `-q`,
/// `-o`, …) skipped. `None` for any other line, and for a magic with an option this does not
/// know (`%prun -T FILE` writes a file), which stays unparsed Python (unknown).
fn ipython_timed_statement(line: &str) -> Option<&str> {
    let (magic, mut rest) = line.split_once(char::is_whitespace)?;
    if !matches!(magic, "%timeit" | "%time" | "%prun") {
        return None;
    }
    loop {
        rest = rest.trim_start();
        let Some(option) = rest.strip_prefix('-') else {
            return (!rest.is_empty()).then_some(rest);
        };
        let (word, after) = option
            .split_once(char::is_whitespace)
            .unwrap_or((option, ""));
        let with_value = matches!(word, "n" | "r" | "p" | "l" | "s");
        let inline = matches!(word.chars().next(), Some('n' | 'r' | 'p'))
            && word.len() > 1
            && word.chars().skip(1).all(|c| c.is_ascii_digit());
        let flag = matches!(word, "t" | "c" | "q" | "o");
        if with_value {
            rest = after.trim_start().split_once(char::is_whitespace)?.1;
        } else if inline || flag {
            rest = after;
        } else {
            return None;
        }
    }
}

/// The node right after `node` in the source (its next sibling, or its nearest ancestor's):
/// the grammar may hang a command's redirect on an enclosing statement.
fn following(node: Node<'_>) -> Option<Node<'_>> {
    let mut n = node;
    for _ in 0..64 {
        if let Some(next) = n.next_sibling() {
            return Some(next);
        }
        n = n.parent()?;
    }
    None
}

/// The items of each run `xargs` makes, when its input is literal text: blank-separated
/// words, or one whole line each with `-I` (`by_line`); grouped `lines` input lines or `items`
/// items per run (all in one run without either). `None` when the text is not exact, uses the
/// quotes or backslashes xargs interprets, or holds more than 64 items.
fn xargs_runs(
    stdin: &Producer,
    by_line: bool,
    lines: Option<usize>,
    items: Option<usize>,
) -> Option<Vec<Vec<String>>> {
    let Producer::Text { text, exact: true } = stdin else {
        return None;
    };
    if text.contains(['\'', '"', '\\']) {
        return None;
    }
    let per_line: Vec<Vec<String>> = text
        .lines()
        .map(|l| {
            if by_line {
                let l = l.trim_start_matches([' ', '\t']);
                if l.is_empty() {
                    Vec::new()
                } else {
                    vec![l.to_owned()]
                }
            } else {
                crate::expand::split_fields(l)
            }
        })
        .filter(|l| !l.is_empty())
        .collect();
    let total: usize = per_line.iter().map(Vec::len).sum();
    if total == 0 || total > 64 {
        return None;
    }
    let runs = match (lines, items) {
        (Some(n), _) => per_line.chunks(n).map(<[Vec<String>]>::concat).collect(),
        (None, Some(n)) => per_line
            .concat()
            .chunks(n)
            .map(<[String]>::to_vec)
            .collect(),
        (None, None) => vec![per_line.concat()],
    };
    Some(runs)
}

/// Appends `next` to `word` (two nodes bash reads as one word).
/// Whether the node starting at `start` continues the word that ended at `end`: nothing
/// between them, or only line continuations (bash removes a backslash-newline before it
/// splits words, so `r\<newline>m` is `rm`; tree-sitter-bash reads two words).
fn glued(src: &str, end: usize, start: usize) -> bool {
    let Some(mut gap) = src.get(end..start) else {
        return false;
    };
    while let Some(rest) = gap.strip_prefix("\\\n") {
        gap = rest;
    }
    gap.is_empty()
}

fn glue(word: &mut Word, next: Word) {
    word.text.push_str(&next.text);
    word.exact &= next.exact;
    if next.shape != WordShape::Exact {
        word.shape = next.shape;
    }
    word.substs.extend(next.substs);
}

/// `-x`-style words removed; what remains are operands (paths for rm/cp/chmod).
/// The files `sed` edits, read as sed reads its arguments: every script given by `-e`/`-f`
/// (`--expression`, `--file`, attached or not, also at the end of a cluster: `-ne X`) takes
/// no operand place, so then every operand is a file (`sed -i -e 's/a/b/' -e '/^$/d' f`
/// edits only `f`; `/^$/d` is a script, not a path at the root); without them the first
/// operand is the script. `-i` takes its backup suffix attached (`-i.bak`, GNU: `-ie` is
/// suffix `e`), and BSD's separate empty suffix (`-i ''`) is not a file; `-l N` takes a value.
fn sed_files(words: &[Word]) -> Vec<&Word> {
    let mut files = Vec::new();
    let mut scripted = false;
    let mut options_done = false;
    let mut it = words.iter().peekable();
    while let Some(w) = it.next() {
        let t = w.text.as_str();
        if options_done || !w.exact || !t.starts_with('-') || t == "-" {
            files.push(w);
            continue;
        }
        if t == "--" {
            options_done = true;
        } else if let Some(long) = t.strip_prefix("--") {
            let (name, attached) = long
                .split_once('=')
                .map_or((long, false), |(n, _)| (n, true));
            match name {
                "expression" | "file" => {
                    scripted = true;
                    if !attached {
                        it.next();
                    }
                }
                "line-length" if !attached => {
                    it.next();
                }
                _ => {}
            }
        } else {
            for (k, c) in t.char_indices().skip(1) {
                match c {
                    'i' => {
                        if k + 1 == t.len()
                            && it.peek().is_some_and(|n| n.exact && n.text.is_empty())
                        {
                            it.next();
                        }
                        break;
                    }
                    'e' | 'f' | 'l' => {
                        scripted |= c != 'l';
                        if k + 1 == t.len() {
                            it.next();
                        }
                        break;
                    }
                    _ => {}
                }
            }
        }
    }
    if !scripted && !files.is_empty() {
        files.remove(0);
    }
    files
}

/// The words Terraform takes from `TF_CLI_ARGS` and `TF_CLI_ARGS_<subcommand>` (the first
/// operand), split at blanks as Terraform splits them; `None` when neither is set. A value
/// known only at run time is one unknown word (the rules then cannot clear the line).
fn tf_cli_args(args: &[Word], scope: &Scope) -> Option<Vec<Word>> {
    let sub = args.iter().find(|w| !w.text.starts_with('-'))?;
    let mut out = Vec::new();
    let mut found = false;
    for var in [
        "TF_CLI_ARGS".to_owned(),
        format!("TF_CLI_ARGS_{}", sub.text),
    ] {
        if let Some(val) = scope.sh.get(&var) {
            found = true;
            match val.known() {
                Some(text) => out.extend(text.split_whitespace().map(Word::lit)),
                None => out.push(Word {
                    text: format!("${var}"),
                    exact: false,
                    shape: WordShape::Exact,
                    substs: Vec::new(),
                }),
            }
        }
    }
    found.then_some(out)
}

/// PowerShell's `-EncodedCommand` value: base64 (standard alphabet, padding optional) of
/// UTF-16LE text. `None` when it is not exactly that (a bad character or length, an odd byte
/// count, an unpaired surrogate): the caller keeps the value opaque.
fn powershell_encoded(value: &str) -> Option<String> {
    let digits = value.trim_end_matches('=');
    let mut bytes = Vec::with_capacity(digits.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in digits.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            bytes.push(u8::try_from((acc >> bits) & 0xff).ok()?);
        }
    }
    if bytes.is_empty() || bytes.len() % 2 != 0 {
        return None;
    }
    let units: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|p| u16::from_le_bytes([p[0], p[1]]))
        .collect();
    String::from_utf16(&units).ok()
}

/// `java [OPTIONS] -jar FILE.jar ARGS…` as the command the jar is: its file name without
/// the directory, `.jar` and a version suffix (`bfg-1.14.0.jar` → `bfg`), then `ARGS…`. A
/// jar named only at run time gives `None` (the JVM line is judged as it is).
fn jar_command(args: &[Word]) -> Option<Vec<Word>> {
    let at = args.iter().position(|w| w.exact && w.text == "-jar")?;
    let jar = args.get(at + 1).filter(|w| w.exact)?;
    let file = jar.text.rsplit('/').next()?;
    let stem = file.strip_suffix(".jar")?;
    // `bfg-1.14.0`, `jenkins-cli-2.440`: a version starts at a `-` followed by a digit.
    let name = stem
        .match_indices('-')
        .find(|(k, _)| stem[k + 1..].starts_with(|c: char| c.is_ascii_digit()))
        .map_or(stem, |(k, _)| &stem[..k]);
    if name.is_empty() {
        return None;
    }
    let mut rest = vec![Word::lit(name)];
    rest.extend(args.get(at + 2..).unwrap_or(&[]).iter().cloned());
    Some(rest)
}

/// The words an image writer writes to (see the `bmaptool` arm of the classifier):
/// `bmaptool copy IMAGE DEST`, `qemu-img convert … OUTPUT` (the last operand) and `qemu-img
/// dd … of=OUTPUT`, `ddrescue INFILE OUTFILE [MAPFILE]` (every operand after the input: a
/// map file is written too), `partclone.* -o|-O OUTPUT` and `ntfsclone -o|-O|--overwrite
/// OUTPUT`. Other subcommands (`qemu-img info`, `bmaptool create`) write nothing named.
fn image_outputs(name: &str, words: &[Word]) -> Vec<Word> {
    let whole = |w: &Word| w.clone();
    // An option's value attached to it (`of=F`, `-oF`, `--output=F`): the word's other
    // properties (run-time parts, found-file shape) are its own.
    let part = |w: &Word, v: &str| Word {
        text: v.to_owned(),
        ..w.clone()
    };
    let operands = operand_words(words);
    match name {
        "bmaptool" => match operands.first().map(|w| w.text.as_str()) {
            Some("copy") if operands.len() >= 3 => {
                operands.last().map(|w| whole(w)).into_iter().collect()
            }
            _ => Vec::new(),
        },
        "qemu-img" => match operands.first().map(|w| w.text.as_str()) {
            Some("convert") if operands.len() >= 3 => {
                operands.last().map(|w| whole(w)).into_iter().collect()
            }
            // `qemu-img create -f qcow2 FILE SIZE`: the image file is made anew, over whatever
            // was there (the format and size words are judged as workspace names: nothing).
            Some("create") => operands.iter().skip(1).map(|w| whole(w)).collect(),
            Some("dd") => words
                .iter()
                .filter_map(|w| w.text.strip_prefix("of=").map(|t| part(w, t)))
                .collect(),
            _ => Vec::new(),
        },
        "ddrescue" => operands.iter().skip(1).map(|w| whole(w)).collect(),
        // A download saved to a file (`curl -o ~/.vimrc URL`, `wget -O ~/.bashrc URL`): the
        // file is written like `cp`'s destination; `-` is standard output.
        "curl" | "wget" => {
            // The output letter, the long option, and the short letters that take a value
            // (a cluster's letters are flags until one of these, whose value is the rest of
            // the cluster or the next word: `-fsSLo F`, `-oF`).
            let (letter, long, valued) = if name == "curl" {
                ('o', "--output", "dHuXAebcTFKmwxyYzrECDPQtU")
            } else {
                ('O', "--output-document", "oaPeiTtwUYlDAXRIQ")
            };
            let mut out = Vec::new();
            let mut it = words.iter();
            while let Some(w) = it.next() {
                let t = w.text.as_str();
                let value = if t == long {
                    it.next().map(whole)
                } else if let Some(v) = t.strip_prefix(long).and_then(|r| r.strip_prefix('=')) {
                    Some(part(w, v))
                } else if let Some(cluster) = t.strip_prefix('-').filter(|c| !c.starts_with('-')) {
                    let mut found = None;
                    for (k, c) in cluster.char_indices() {
                        if c == letter {
                            let rest = &cluster[k + c.len_utf8()..];
                            found = Some(if rest.is_empty() {
                                it.next().map(whole)
                            } else {
                                Some(part(w, rest))
                            });
                            break;
                        }
                        if valued.contains(c) {
                            break;
                        }
                    }
                    found.flatten()
                } else {
                    None
                };
                out.extend(value.filter(|v| v.text != "-"));
            }
            out
        }
        _ => {
            // `-o FILE`, `-oFILE`, `--output FILE`, `--output=FILE` (and `-O`/`--overwrite`:
            // the same output, allowed to exist).
            let mut out = Vec::new();
            let mut next = false;
            for w in words {
                let t = w.text.as_str();
                if next {
                    out.push(whole(w));
                    next = false;
                } else if matches!(t, "-o" | "-O" | "--output" | "--overwrite") {
                    next = true;
                } else if let Some(v) = t
                    .strip_prefix("--output=")
                    .or_else(|| t.strip_prefix("--overwrite="))
                    .or_else(|| {
                        (!t.starts_with("--"))
                            .then(|| t.strip_prefix("-o").or_else(|| t.strip_prefix("-O")))
                            .flatten()
                            .filter(|v| !v.is_empty())
                    })
                {
                    out.push(part(w, v));
                }
            }
            out
        }
    }
}

fn operand_words(words: &[Word]) -> Vec<&Word> {
    let mut out = Vec::new();
    let mut after_dashdash = false;
    for w in words {
        if !after_dashdash && w.exact && w.text == "--" {
            after_dashdash = true;
            continue;
        }
        if !after_dashdash && w.exact && w.text.starts_with('-') && w.text.len() > 1 {
            continue;
        }
        out.push(w);
    }
    out
}

/// Paths an argument may name: itself, after `@` (curl data), after `=@`/`=<` (curl forms),
/// after `--opt=`.
fn secret_candidates(arg: &str) -> impl Iterator<Item = &str> {
    let at = arg.strip_prefix('@');
    let form = arg
        .split_once("=@")
        .or_else(|| arg.split_once("=<"))
        .map(|(_, p)| p);
    let long = arg
        .strip_prefix("--")
        .and_then(|a| a.split_once('='))
        .filter(|(name, value)| !is_exclusion_option(name, value))
        .map(|(_, p)| p.trim_start_matches('@'));
    [Some(arg), at, form, long].into_iter().flatten()
}

/// The language of a compiler's or launcher's program when the line gives it on standard
/// input: the program operand (after the run verb and the options, whose values are skipped
/// when they take one) is `-`, `/dev/stdin` or `/proc/self/fd/0`.
fn stdin_program(name: &str, args: &[Word]) -> Option<crate::tongues::Tongue> {
    use crate::tongues::Tongue;
    let (tongue, verb, valued): (Tongue, Option<&str>, &[&str]) = match name {
        "zig" | "v" | "dart" | "go" => (
            Tongue::CallSyntax,
            Some("run"),
            &[
                "--define", "-D", "-o", "--target", "-target", "-O", "-tags", "-C",
            ],
        ),
        "escript" => (Tongue::Erlang, None, &[]),
        "java" => (
            Tongue::Jvm,
            None,
            &["--source", "-cp", "-classpath", "--class-path", "-p"],
        ),
        "kotlinc" | "kotlinc-jvm" | "kotlin" => (Tongue::Jvm, None, &["-cp", "-classpath"]),
        _ => return None,
    };
    let mut rest = args;
    if let Some(v) = verb {
        let first = rest.first()?;
        if !(first.exact && first.text == v) {
            return None;
        }
        rest = rest.get(1..).unwrap_or(&[]);
    }
    let mut i = 0;
    while let Some(w) = rest.get(i) {
        i += 1;
        let t = w.text.as_str();
        if !w.exact {
            return None;
        }
        if t == "-" && i > 0 {
            return Some(tongue);
        }
        if t.starts_with('-') && t.len() > 1 {
            if valued.contains(&t) {
                i += 1;
            }
            continue;
        }
        return matches!(t, "/dev/stdin" | "/proc/self/fd/0").then_some(tongue);
    }
    None
}

/// Whether the long option `name` with `value` leaves files out (`tar --exclude=.env`,
/// `rsync --exclude .env`, `rg --glob '!.env'`): naming a credential there keeps it out, so it
/// is not a file the tool reads. Options that select files (`--include`, rsync's `--filter
/// '+ …'`, a glob without `!`) are not exclusions: `rg --glob .env TOKEN` prints `.env`.
fn is_exclusion_option(name: &str, value: &str) -> bool {
    match name {
        "exclude" | "exclude-dir" | "ignore" | "skip" => true,
        "glob" | "iglob" => value.starts_with('!'),
        _ => false,
    }
}

fn is_assignment(t: &str) -> bool {
    t.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

fn push_code(code: &mut Option<Word>, v: &Word) {
    match code {
        Some(existing) => {
            existing.text.push('\n');
            existing.text.push_str(&v.text);
            existing.exact &= v.exact;
            existing.substs.extend(v.substs.iter().cloned());
        }
        None => *code = Some(v.clone()),
    }
}

/// The value of `-c X` / `--command X` / `--command=X` within the first `end` words.
fn option_value(args: &[Word], end: usize, short: &str, long: &str) -> Option<Word> {
    let mut i = 0;
    while i < end.max(1).min(args.len()) {
        let w = args.get(i)?;
        if w.exact && (w.text == short || w.text == long) {
            return args.get(i + 1).cloned();
        }
        // `--long=v`, and a short option with its value attached (`-I{}`).
        let attached = w.text.strip_prefix(&format!("{long}=")).or_else(|| {
            w.text
                .strip_prefix(short)
                .filter(|v| !v.is_empty() && short.len() == 2 && !short.starts_with("--"))
        });
        if let Some(v) = attached {
            return Some(Word {
                text: v.to_owned(),
                ..w.clone()
            });
        }
        i += 1;
    }
    None
}

/// `kubectl run NAME --image=I --overrides='{"spec": {"hostPID": true, …}}'`: a pod given the
/// node — host namespaces, a privileged container, a host path mounted — is the container
/// escape `docker run --privileged --pid=host -v /:/host` is. The overrides are parsed as JSON
/// (a value that does not parse, or is known only at run time, asks).
fn kube_pod_overrides(args: &Args<'_>, words: &[Word]) -> Option<Verdict> {
    fn gives_node(v: &serde_json::Value) -> bool {
        match v {
            serde_json::Value::Object(m) => m.iter().any(|(k, v)| {
                (matches!(
                    k.as_str(),
                    "hostPID"
                        | "hostNetwork"
                        | "hostIPC"
                        | "privileged"
                        | "allowPrivilegeEscalation"
                ) && v.as_bool() == Some(true))
                    || k == "hostPath"
                    || gives_node(v)
            }),
            serde_json::Value::Array(a) => a.iter().any(gives_node),
            _ => false,
        }
    }
    if args.positionals.first() != Some(&"run") {
        return None;
    }
    let (text, exact) = words.iter().enumerate().find_map(|(i, w)| {
        if w.text == "--overrides" {
            words.get(i + 1).map(|v| (v.text.clone(), v.exact))
        } else {
            w.text
                .strip_prefix("--overrides=")
                .map(|v| (v.to_owned(), w.exact))
        }
    })?;
    match serde_json::from_str::<serde_json::Value>(&text) {
        Ok(v) if exact => gives_node(&v).then(|| ids::DOCKER_HOST_MOUNT.verdict()),
        _ => Some(Verdict::unknown(
            "kubectl run --overrides whose pod spec cannot be read",
        )),
    }
}

/// A host directory whose mount into a container hands the container the host: the root, the
/// system's configuration and binaries, devices, the Docker socket, root's or the user's home.
fn critical_mount_source(n: &Path, ctx: &crate::model::Context) -> bool {
    n == Path::new("/")
        || [
            "/etc",
            "/root",
            "/var/run/docker.sock",
            "/run/docker.sock",
            "/boot",
            "/usr",
            "/dev",
        ]
        .iter()
        .any(|d| hookgate_paths::is_within(n, Path::new(d)))
        || ctx.home.as_ref().is_some_and(|h| n == h)
}

/// Apptainer/Singularity (HPC containers): `exec|run|shell|instance start` with a bind
/// (`-B`/`--bind`/`--mount SRC[:DEST[:OPTS]][,…]`) of a critical host directory is `docker run
/// -v /:/host` (`docker.host_mount`): the container's command then reaches the host's files
/// under the bind's destination, which nothing on the line names.
fn apptainer_host_bind(words: &[Word], ctx: &crate::model::Context) -> Option<Verdict> {
    let mut i = 0;
    while let Some(w) = words.get(i) {
        let spec = if matches!(w.text.as_str(), "-B" | "--bind" | "--mount") {
            i += 1;
            words.get(i).map(|w| w.text.clone())
        } else {
            w.text
                .strip_prefix("--bind=")
                .or_else(|| w.text.strip_prefix("--mount="))
                .or_else(|| w.text.strip_prefix("-B").filter(|s| !s.is_empty()))
                .map(str::to_owned)
        };
        i += 1;
        let Some(spec) = spec else { continue };
        if bind_spec_is_critical(&spec, ctx) {
            return Some(ids::DOCKER_HOST_MOUNT.verdict());
        }
        // A credential file or a directory holding one (`-B ~/.aws:/c`) is read by whatever
        // the container runs: the same read as `cat` of it (as `docker run -v` is judged).
        if spec.split(',').any(|bind| {
            let source = bind.split(':').next().unwrap_or("");
            (source.starts_with('/') || source.starts_with('~'))
                && crate::targets::is_secret_normalized(
                    &hookgate_paths::normalize(source, &ctx.cwd, ctx.home.as_deref()).path,
                    ctx,
                )
        }) {
            return Some(ids::CRED_READ_SECRET_FILE.verdict());
        }
    }
    None
}

/// Whether an Apptainer bind list (`SRC[:DEST[:OPTS]][,…]`, or `src=…` mount specs) binds a
/// critical host directory.
fn bind_spec_is_critical(spec: &str, ctx: &crate::model::Context) -> bool {
    spec.split(',').any(|bind| {
        let source = bind
            .strip_prefix("src=")
            .or_else(|| bind.strip_prefix("source="))
            .unwrap_or_else(|| bind.split(':').next().unwrap_or(""));
        (source.starts_with('/') || source.starts_with('~'))
            && critical_mount_source(
                &hookgate_paths::normalize(source, &ctx.cwd, ctx.home.as_deref()).path,
                ctx,
            )
    })
}

/// `docker run -v /:/host`, `--privileged`, `--pid=host`.
fn docker_host_mount(
    args: &Args<'_>,
    words: &[Word],
    ctx: &crate::model::Context,
) -> Option<Verdict> {
    let sub = args.positionals.first().copied()?;
    if !matches!(sub, "run" | "create" | "container") {
        return None;
    }
    if args.has_any(&["--privileged", "--pid", "--cap-add"]) {
        let host_pid = words.iter().any(|w| {
            w.text == "--pid=host" || w.text == "--privileged" || w.text.starts_with("--cap-add")
        });
        if host_pid {
            return Some(ids::DOCKER_HOST_MOUNT.verdict());
        }
    }
    let mut i = 0;
    while let Some(w) = words.get(i) {
        let spec = if w.text == "-v" || w.text == "--volume" || w.text == "--mount" {
            i += 1;
            words.get(i).map(|w| w.text.clone())
        } else {
            w.text
                .strip_prefix("--volume=")
                .or_else(|| w.text.strip_prefix("--mount="))
                .or_else(|| w.text.strip_prefix("-v").filter(|s| s.starts_with('/')))
                .map(str::to_owned)
        };
        if let Some(spec) = spec {
            let source = spec
                .split(',')
                .find_map(|kv| {
                    kv.strip_prefix("source=")
                        .or_else(|| kv.strip_prefix("src="))
                })
                .unwrap_or_else(|| spec.split(':').next().unwrap_or(""));
            if source.starts_with('/') || source.starts_with('~') {
                let n = hookgate_paths::normalize(source, &ctx.cwd, ctx.home.as_deref()).path;
                if critical_mount_source(&n, ctx) {
                    return Some(ids::DOCKER_HOST_MOUNT.verdict());
                }
                // A credential file or a directory holding one (`-v ~/.kube:/k:ro`) is read by
                // whatever the container runs, read-only or not: the same read as `cat` of it.
                if crate::targets::is_secret_normalized(&n, ctx) {
                    return Some(ids::CRED_READ_SECRET_FILE.verdict());
                }
            }
        }
        i += 1;
    }
    None
}

/// Python keywords and the builtins a one-line xonsh snippet starts with.
const PY_LEADERS: &[&str] = &[
    "import", "from", "def", "class", "if", "elif", "else", "for", "while", "with", "try",
    "except", "finally", "return", "raise", "assert", "del", "pass", "break", "continue", "lambda",
    "global", "nonlocal", "yield", "async", "await", "print", "open", "len", "exec", "eval",
    "input", "help", "True", "False", "None", "not",
];

/// Whether a top-level xonsh line is Python mode: it starts with a Python keyword or
/// builtin, or its first name is followed by a call, attribute, subscript or assignment
/// (`print(…)`, `os.remove(…)`, `d["k"]`, `x = 1`, `x += 1`), or it starts with a literal or
/// bracket. Any other line (`rm -rf ~`, `kill -9 -1`, `reboot`) xonsh may run as a command.
fn xonsh_python_line(line: &str) -> bool {
    let t = line.trim_start();
    let end = t
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(t.len());
    if end == 0 {
        // `(`, `[`, `{`, a quote, a number sign, `$`…: not a command word.
        return !t.starts_with(['.', '/', '~', '-']);
    }
    let (name, rest) = t.split_at(end);
    if PY_LEADERS.contains(&name) || name.bytes().all(|b| b.is_ascii_digit()) {
        return true;
    }
    let rest = rest.trim_start();
    rest.starts_with(['(', '.', '[', ':'])
        || (rest.starts_with('=') && !rest.starts_with("=="))
        || ["+=", "-=", "*=", "/=", "|=", "&=", "%="]
            .iter()
            .any(|op| rest.starts_with(op))
}

/// xonsh code as the Python it is, and the shell commands inside it: `$NAME` and `${NAME}`
/// become `__import__('os').environ['NAME']` (the environment read they are), and each
/// subprocess capture (`$(…)`, `!(…)`, `$[…]`, `![…]`) becomes `''` with its text returned
/// as a shell command. Quotes are respected (a capture inside a Python string is text, except
/// in an f-string, where it is still text to Python and left alone). `None` when a capture is
/// not closed.
pub(crate) fn xonsh_python(code: &str) -> Option<(String, Vec<String>)> {
    let bytes = code.as_bytes();
    let mut out = String::with_capacity(code.len());
    let mut captures = Vec::new();
    let mut quote: Option<u8> = None;
    let mut at = 0;
    while at < bytes.len() {
        let byte = bytes[at];
        if let Some(q) = quote {
            if byte == b'\\' && at + 1 < bytes.len() {
                out.push_str(code.get(at..at + 2)?);
                at += 2;
                continue;
            }
            if byte == q {
                quote = None;
            }
            let ch = code.get(at..)?.chars().next()?;
            out.push(ch);
            at += ch.len_utf8();
            continue;
        }
        match byte {
            b'\'' | b'"' => {
                quote = Some(byte);
                out.push(char::from(byte));
                at += 1;
            }
            b'#' => {
                // A comment to the end of the line.
                let end = code[at..].find('\n').map_or(bytes.len(), |e| at + e);
                out.push_str(code.get(at..end)?);
                at = end;
            }
            b'$' | b'!' if matches!(bytes.get(at + 1), Some(b'(' | b'[')) => {
                let (open, close) = if bytes[at + 1] == b'(' {
                    (b'(', b')')
                } else {
                    (b'[', b']')
                };
                let start = at + 2;
                let mut depth = 1usize;
                let mut end_at = start;
                let mut inner_quote: Option<u8> = None;
                while end_at < bytes.len() && depth > 0 {
                    let c = bytes[end_at];
                    match inner_quote {
                        Some(q) if c == q => inner_quote = None,
                        None if c == b'\'' || c == b'"' => inner_quote = Some(c),
                        None if c == open => depth += 1,
                        None if c == close => depth -= 1,
                        _ => {}
                    }
                    end_at += 1;
                }
                if depth > 0 {
                    return None;
                }
                captures.push(code.get(start..end_at - 1)?.to_owned());
                out.push_str("''");
                at = end_at;
            }
            b'$' if bytes
                .get(at + 1)
                .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_' || *c == b'{') =>
            {
                let braced = bytes[at + 1] == b'{';
                let start = if braced { at + 2 } else { at + 1 };
                let mut end_at = start;
                while end_at < bytes.len()
                    && (bytes[end_at].is_ascii_alphanumeric() || bytes[end_at] == b'_')
                {
                    end_at += 1;
                }
                let name = code.get(start..end_at)?;
                if braced {
                    if bytes.get(end_at) != Some(&b'}') {
                        return None;
                    }
                    end_at += 1;
                }
                out.push_str("__import__('os').environ['");
                out.push_str(name);
                out.push_str("']");
                at = end_at;
            }
            _ => {
                let ch = code[at..].chars().next()?;
                out.push(ch);
                at += ch.len_utf8();
            }
        }
    }
    Some((out, captures))
}

/// POSIX `dirname`: trailing slashes dropped, then the last component; `.` when none is
/// left of a relative name, `/` for the root.
fn posix_dirname(path: &str) -> String {
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        return if path.is_empty() {
            ".".into()
        } else {
            "/".into()
        };
    }
    match trimmed.rfind('/') {
        None => ".".into(),
        Some(i) => {
            let head = trimmed.get(..i).unwrap_or("").trim_end_matches('/');
            if head.is_empty() {
                "/".into()
            } else {
                head.to_owned()
            }
        }
    }
}

/// POSIX `basename`: the last component without trailing slashes, and without `suffix` when
/// it ends with it and is not all of it.
fn posix_basename(path: &str, suffix: &str) -> String {
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        return if path.is_empty() {
            String::new()
        } else {
            "/".into()
        };
    }
    let base = trimmed.rsplit('/').next().unwrap_or(trimmed);
    match base.strip_suffix(suffix) {
        Some(stem) if !suffix.is_empty() && !stem.is_empty() => stem.to_owned(),
        _ => base.to_owned(),
    }
}
