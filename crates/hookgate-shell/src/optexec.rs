//! Options whose value is a command line: `gdb -ex 'shell …'`, `ssh -o ProxyCommand=…`,
//! `rsync -e '…'`, `make --eval '…'` (and a makefile on stdin), `zip -TT '…'`, `man -P '…'`,
//! `tcpdump -z …`. One table of `(tools, options, how the value is read, programs meant for
//! the role)`; the value is analysed as the code it is with the construct in `via`
//! (the recursion `sh -c` already has), so its own dangers keep their verdict.
//!
//! Invariant: a command-valued option that runs anything other than a program meant for the
//! role (an ssh proxy for `ProxyCommand`, ssh for `rsync -e`, a pager for `man -P`) is at least
//! `ask` (`rce.option_exec`): these options are the classic way to get a shell out of a tool
//! (GTFOBins), and `id` or `/bin/sh` there is not ordinary work even though `id` alone is.

use crate::deferred::part;
use crate::interp::Lang;
use crate::model::{Class, Verdict};
use crate::state::Val;
use crate::taxonomy::ids;
use crate::walk::{Producer, Scope, Walker, Word, WordShape};

/// How an option's value is read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Value {
    /// A shell command line.
    Shell,
    /// A gdb command (`shell CMD`, `!CMD`, `python CODE`, `pipe CMD | SHELL`).
    Gdb,
    /// Makefile text (recipes and `$(shell …)` are shell).
    Make,
    /// An ssh `-o Key=Value` option; the command-valued keys are shell.
    SshOption,
    /// less's initial commands (`+CMD`): `!CMD` and `|…CMD` run shell.
    LessCommand,
    /// A hook: a shell command the tool exists to run for the user (`certbot --deploy-hook`,
    /// `yt-dlp --exec`, `split --filter`). Judged as if typed directly, with no role ask:
    /// `--exec 'echo hi'` is ordinary, `--exec 'rm -rf ~'` is the deletion it is.
    Hook,
    /// A command whose output the tool reads as its password (`restic --password-command
    /// 'pass show restic'`): a hook whose credential read is the option's purpose — the
    /// secret goes to the tool, not to the agent, so a password store's read there is
    /// ordinary; anything else it does (a deletion, a secret sent to the network) keeps its
    /// verdict.
    PasswordCommand,
    /// fzf key bindings: `execute(CMD)`, `become(CMD)`, `reload(CMD)`, … are hooks.
    FzfBind,
    /// rpm macro text: `%(CMD)` is a hook.
    RpmMacro,
    /// A native library or plugin the tool loads into itself (`curl --engine ./x.so`,
    /// `openssl -engine`, `ssh-keygen -D`, bash's `enable -f`): code the guard cannot read.
    /// Engine names (`pkcs11`) and libraries under the system's library directories are the
    /// installed ones; any other path asks (`rce.option_exec`).
    Library,
    /// A module the runtime loads before the program (`node --require F`, `--import`,
    /// `--loader`, `ruby -rF`): an installed package by name (`ts-node/register`,
    /// `dotenv/config`) or a file of the project is ordinary; a file elsewhere (`/tmp/x.js`,
    /// the home), a `data:` URL or a value known only at run time is code loaded from
    /// where the project cannot vouch for it, so it asks (`rce.option_exec`).
    Module,
}

struct OptExec {
    tools: &'static [&'static str],
    /// Option names; `-x` also matches the value attached (`-xVALUE`), `--x` also `--x=VALUE`.
    options: &'static [&'static str],
    value: Value,
    /// Programs meant for the role; empty = none is (any command asks).
    roles: &'static [&'static str],
}

const SSH_PROXIES: &[&str] = &[
    "ssh",
    "nc",
    "ncat",
    "netcat",
    "socat",
    "connect",
    "connect-proxy",
    "corkscrew",
    "proxytunnel",
    "cloudflared",
    "aws",
    "gcloud",
    "az",
    "sshpass",
    "tsh",
    "teleport",
    "boundary",
    "true",
];

const TABLE: &[OptExec] = &[
    OptExec {
        tools: &["node", "nodejs"],
        options: &[
            "-r",
            "--require",
            "--import",
            "--loader",
            "--experimental-loader",
        ],
        value: Value::Module,
        roles: &[],
    },
    OptExec {
        tools: &["bun"],
        options: &["-r", "--preload"],
        value: Value::Module,
        roles: &[],
    },
    OptExec {
        tools: &["ruby"],
        options: &["-r"],
        value: Value::Module,
        roles: &[],
    },
    OptExec {
        tools: &["curl"],
        options: &["--engine"],
        value: Value::Library,
        roles: &[],
    },
    OptExec {
        tools: &["openssl"],
        options: &["-engine", "-keygen_engine", "-provider-path"],
        value: Value::Library,
        roles: &[],
    },
    // ssh-keygen's `-s` is a CA key and `-S` a moduli start point: not libraries.
    OptExec {
        tools: &["ssh-keygen"],
        options: &["-D", "-w"],
        value: Value::Library,
        roles: &[],
    },
    OptExec {
        tools: &["ssh-add"],
        options: &["-s", "-S"],
        value: Value::Library,
        roles: &[],
    },
    OptExec {
        tools: &["ssh", "scp", "sftp"],
        options: &["-I"],
        value: Value::Library,
        roles: &[],
    },
    OptExec {
        tools: &["enable"],
        options: &["-f"],
        value: Value::Library,
        roles: &[],
    },
    OptExec {
        tools: &["gdb", "cgdb", "gdb-multiarch"],
        options: &[
            "-ex",
            "--ex",
            "-eval-command",
            "--eval-command",
            "-iex",
            "--iex",
            "-init-eval-command",
            "--init-eval-command",
        ],
        value: Value::Gdb,
        roles: &[],
    },
    // radare2's and rizin's commands given on the command line (`-c CMD`): `!CMD` runs a
    // shell line there as in gdb.
    OptExec {
        tools: &["r2", "radare2", "rizin"],
        // (`-qc CMD`: quiet with a command, the usual spelling.)
        options: &["-c", "-qc"],
        value: Value::Gdb,
        roles: &[],
    },
    // lldb's commands given on the command line (`-o`, before the file `-O`, on a crash `-k`).
    OptExec {
        tools: &["lldb"],
        options: &[
            "-o",
            "--one-line",
            "-O",
            "--one-line-before-file",
            "-k",
            "--one-line-on-crash",
        ],
        value: Value::Gdb,
        roles: &[],
    },
    OptExec {
        tools: &["ssh", "scp", "sftp", "autossh", "sshfs"],
        options: &["-o"],
        value: Value::SshOption,
        roles: SSH_PROXIES,
    },
    OptExec {
        tools: &["scp", "sftp"],
        options: &["-S"],
        value: Value::Shell,
        roles: SSH_PROXIES,
    },
    OptExec {
        tools: &["rsync"],
        options: &["--rsync-path"],
        value: Value::Shell,
        roles: &["rsync", "sudo", "doas", "nice", "ionice"],
    },
    OptExec {
        tools: &["rsync"],
        options: &["-e", "--rsh"],
        value: Value::Shell,
        roles: &[
            "ssh", "rsh", "autossh", "sshpass", "kubectl", "oc", "docker", "podman",
        ],
    },
    OptExec {
        tools: &["make", "gmake", "bmake"],
        options: &["--eval", "-E"],
        value: Value::Make,
        roles: &[],
    },
    OptExec {
        tools: &["zip"],
        options: &["-TT", "--unzip-command"],
        value: Value::Shell,
        roles: &["unzip"],
    },
    OptExec {
        tools: &["man"],
        options: &["-P", "--pager"],
        value: Value::Shell,
        roles: &[
            "less", "more", "most", "cat", "bat", "batcat", "col", "w3m", "lynx",
        ],
    },
    OptExec {
        tools: &["man"],
        options: &["-H", "--html"],
        value: Value::Shell,
        roles: &[
            "firefox",
            "chromium",
            "google-chrome",
            "lynx",
            "w3m",
            "xdg-open",
            "open",
        ],
    },
    OptExec {
        tools: &["less", "more"],
        options: &["+"],
        value: Value::LessCommand,
        roles: &[],
    },
    OptExec {
        tools: &["restic"],
        options: &["--password-command"],
        value: Value::PasswordCommand,
        roles: &[],
    },
    OptExec {
        tools: &["dnsmasq"],
        options: &["--conf-script", "--dhcp-script"],
        value: Value::Hook,
        roles: &[],
    },
    OptExec {
        tools: &["certbot"],
        options: &[
            "--pre-hook",
            "--post-hook",
            "--deploy-hook",
            "--manual-auth-hook",
            "--manual-cleanup-hook",
        ],
        value: Value::Hook,
        roles: &[],
    },
    OptExec {
        tools: &["openvpn"],
        options: &[
            "--up",
            "--down",
            "--route-up",
            "--route-pre-down",
            "--ipchange",
            "--client-connect",
            "--client-disconnect",
            "--learn-address",
            "--auth-user-pass-verify",
            "--tls-verify",
        ],
        value: Value::Hook,
        roles: &[],
    },
    OptExec {
        tools: &["yt-dlp", "youtube-dl"],
        options: &["--exec", "--exec-before-download"],
        value: Value::Hook,
        roles: &[],
    },
    OptExec {
        tools: &["scrot"],
        options: &["-e", "--exec"],
        value: Value::Hook,
        roles: &[],
    },
    OptExec {
        tools: &["split"],
        options: &["--filter"],
        value: Value::Hook,
        roles: &[],
    },
    OptExec {
        tools: &["enscript"],
        options: &["-I", "--filter"],
        value: Value::Hook,
        roles: &[],
    },
    OptExec {
        tools: &["dhclient"],
        options: &["-sf"],
        value: Value::Hook,
        roles: &[],
    },
    OptExec {
        tools: &["plymouth"],
        options: &["--command"],
        value: Value::Hook,
        roles: &[],
    },
    OptExec {
        tools: &["borg"],
        options: &["--rsh"],
        value: Value::Shell,
        roles: SSH_PROXIES,
    },
    OptExec {
        tools: &["latexmk"],
        options: &[
            "-pdflatex",
            "-latex",
            "-lualatex",
            "-xelatex",
            "-dvipdf",
            "-ps2pdf",
            "-pdf_previewer",
        ],
        value: Value::Hook,
        roles: &[],
    },
    OptExec {
        tools: &["gem"],
        options: &["-e", "--editor"],
        value: Value::Hook,
        roles: &[],
    },
    OptExec {
        tools: &["pip", "pip3"],
        options: &["--editor"],
        value: Value::Hook,
        roles: &[],
    },
    OptExec {
        tools: &["fzf"],
        options: &["--bind"],
        value: Value::FzfBind,
        roles: &[],
    },
    OptExec {
        tools: &["fzf"],
        options: &["--preview"],
        value: Value::Hook,
        roles: &[],
    },
    OptExec {
        tools: &[
            "rpm",
            "rpmdb",
            "rpmquery",
            "rpmverify",
            "rpmbuild",
            "rpmspec",
        ],
        options: &["--eval", "-E", "--define", "-D"],
        value: Value::RpmMacro,
        roles: &[],
    },
    OptExec {
        tools: &["rpm"],
        options: &["--pipe"],
        value: Value::Hook,
        roles: &[],
    },
    OptExec {
        tools: &["aria2c"],
        options: &[
            "--on-download-complete",
            "--on-download-error",
            "--on-download-start",
            "--on-download-stop",
            "--on-download-pause",
            "--on-bt-download-complete",
        ],
        value: Value::Hook,
        roles: &[],
    },
    OptExec {
        tools: &["zic"],
        options: &["-y"],
        value: Value::Hook,
        roles: &[],
    },
    OptExec {
        tools: &["tcpdump"],
        options: &["-z"],
        value: Value::Shell,
        roles: &["gzip", "bzip2", "xz", "zstd", "pigz", "lz4"],
    },
];

/// ssh options whose value is a command run on this machine (`ssh_command` is sshfs's).
const SSH_COMMAND_KEYS: &[&str] = &[
    "proxycommand",
    "localcommand",
    "knownhostscommand",
    "ssh_command",
];

/// Options whose value is a file the tool writes (`sort -o F`, `strace -o F`, `tcpdump -w F`,
/// `gcc -o F`): the file is judged like a `>` redirect's target (`judge_write`), so a tool
/// asked to put its output in a shell profile or `authorized_keys` is the write it is.
///
/// Invariant: a write a tool makes through an output option reaches nothing `> FILE` may not
/// (GTFOBins' file-write entries are mostly these options).
struct OutputOption {
    tools: &'static [&'static str],
    /// Same matching as [`OptExec::options`].
    options: &'static [&'static str],
}

const OUTPUTS: &[OutputOption] = &[
    // `ssh-keygen -f FILE` writes the key pair there when it generates or rewrites one (`-t`,
    // `-p`, `-c`); its reading modes are skipped in `output_options`.
    OutputOption {
        tools: &["ssh-keygen"],
        options: &["-f"],
    },
    OutputOption {
        tools: &["sort", "shuf", "iconv", "pandoc", "uconv"],
        options: &["-o", "--output"],
    },
    OutputOption {
        tools: &[
            "strace", "ltrace", "csvtool", "gtester", "objcopy", "ld", "as",
        ],
        options: &["-o", "--output"],
    },
    OutputOption {
        tools: &[
            "gcc", "cc", "clang", "g++", "c++", "clang++", "rustc", "tcc", "gfortran", "nvcc",
        ],
        options: &["-o"],
    },
    OutputOption {
        tools: &["openssl"],
        options: &["-out", "-keyout"],
    },
    OutputOption {
        tools: &["tcpdump", "tshark", "dumpcap"],
        options: &["-w"],
    },
    OutputOption {
        tools: &["rlwrap"],
        options: &["-l", "--logfile"],
    },
    OutputOption {
        tools: &["screen"],
        options: &["-Logfile"],
    },
    OutputOption {
        tools: &["tsc"],
        options: &["--outFile", "--out"],
    },
    OutputOption {
        tools: &["mypy"],
        options: &["--junit-xml"],
    },
    OutputOption {
        tools: &["nmap"],
        options: &["-oN", "-oX", "-oG", "-oS", "-oA"],
    },
    OutputOption {
        tools: &["dmidecode"],
        options: &["--dump-bin"],
    },
];

/// True for commands with a command-valued option in the table.
pub(crate) fn handles(name: &str) -> bool {
    // A `match` on the name (every command is asked); a unit test checks it covers TABLE.
    matches!(
        name,
        "gdb"
            | "lldb"
            | "r2"
            | "radare2"
            | "rizin"
            | "node"
            | "nodejs"
            | "bun"
            | "ruby"
            | "curl"
            | "ssh-keygen"
            | "ssh-add"
            | "enable"
            | "cgdb"
            | "gdb-multiarch"
            | "ssh"
            | "scp"
            | "sftp"
            | "autossh"
            | "sshfs"
            | "rsync"
            | "make"
            | "gmake"
            | "bmake"
            | "just"
            | "task"
            | "go-task"
            | "zip"
            | "man"
            | "less"
            | "more"
            | "tcpdump"
            | "restic"
            | "dnsmasq"
            | "certbot"
            | "openvpn"
            | "yt-dlp"
            | "youtube-dl"
            | "scrot"
            | "split"
            | "enscript"
            | "dhclient"
            | "plymouth"
            | "borg"
            | "latexmk"
            | "gem"
            | "pip"
            | "pip3"
            | "fzf"
            | "rpm"
            | "rpmdb"
            | "rpmquery"
            | "rpmverify"
            | "rpmbuild"
            | "rpmspec"
            | "tex"
            | "latex"
            | "pdflatex"
            | "pdftex"
            | "xelatex"
            | "lualatex"
            | "luatex"
            | "aria2c"
            | "zic"
            | "sort"
            | "shuf"
            | "iconv"
            | "pandoc"
            | "uconv"
            | "csvtool"
            | "gtester"
            | "objcopy"
            | "ld"
            | "as"
            | "gcc"
            | "cc"
            | "clang"
            | "g++"
            | "c++"
            | "clang++"
            | "rustc"
            | "tcc"
            | "gfortran"
            | "nvcc"
            | "openssl"
            | "tshark"
            | "dumpcap"
            | "tsc"
            | "mypy"
            | "nmap"
            | "dmidecode"
    )
}

/// The values of `entry`'s options in `args` (`-o V`, `-oV`, `--eval=V`, `--eval V`).
fn values(entry: &OptExec, args: &[Word]) -> Vec<Word> {
    option_values(entry.options, entry.value == Value::LessCommand, args)
}

/// The values of `options` in `args`; `plus`: less's `+CMD` words instead.
fn option_values(options: &[&str], plus: bool, args: &[Word]) -> Vec<Word> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(w) = args.get(i) {
        i += 1;
        if plus {
            if let Some(cmd) = w.text.strip_prefix('+').filter(|_| w.exact) {
                out.push(part(w, cmd));
            }
            continue;
        }
        if !w.exact || !w.text.starts_with('-') {
            continue;
        }
        if w.text == "--" {
            break;
        }
        for opt in options {
            if w.text == *opt {
                out.extend(args.get(i).cloned());
                i += 1;
                break;
            }
            let attached = if opt.starts_with("--") {
                w.text.strip_prefix(opt).and_then(|r| r.strip_prefix('='))
            } else if opt.len() == 2 {
                w.text.strip_prefix(opt).filter(|r| !r.is_empty())
            } else {
                w.text.strip_prefix(opt).and_then(|r| r.strip_prefix('='))
            };
            if let Some(v) = attached {
                out.push(part(w, v));
                break;
            }
        }
    }
    out
}

/// The shell code of a gdb command, or Python code (`python …`), if it runs any.
fn gdb_command(line: &str) -> Option<(Option<Lang>, &str)> {
    let line = line.trim_start();
    if let Some(rest) = line.strip_prefix('!') {
        return Some((None, rest));
    }
    if let Some(rest) = line.strip_prefix('|') {
        return Some((None, rest.rsplit('|').next().unwrap_or(rest)));
    }
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    match word {
        "shell" | "she" | "shel" => Some((None, rest)),
        "pipe" => Some((None, rest.rsplit('|').next().unwrap_or(rest))),
        // lldb's `script CODE` is Python too.
        "python" | "py" | "python-interactive" | "pi" | "script" => {
            Some((Some(Lang::Python), rest))
        }
        // lldb: `platform shell CMD` runs a shell line.
        "platform" => rest
            .trim_start()
            .strip_prefix("shell")
            .filter(|r| r.starts_with(char::is_whitespace))
            .map(|r| (None, r)),
        _ => None,
    }
}

/// The bodies of `$(shell …)` in one makefile line (balanced parentheses; `$$` is `$` to
/// the shell): code make runs when it reads the file, whatever the goal.
pub fn shell_calls(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("$(shell ") {
        let body = &rest[at + "$(shell ".len()..];
        let mut depth = 1usize;
        let mut end = body.len();
        for (k, c) in body.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = k;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.push(body[..end].replace("$$", "$"));
        rest = body.get(end..).unwrap_or("");
    }
    out
}

/// The shell code in makefile text: recipe lines (tab-led, or after `target: ;`) and the
/// bodies of `$(shell …)`. `$$` is `$` to the shell.
fn make_code(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let recipe = if let Some(r) = line.strip_prefix('\t') {
            Some(r)
        } else if let Some((head, tail)) = line.split_once(':')
            && !head.contains('=')
            && let Some((_, r)) = tail.split_once(';')
        {
            Some(r)
        } else {
            None
        };
        if let Some(r) = recipe {
            out.push(
                r.trim_start_matches(['@', '-', '+', ' '])
                    .replace("$$", "$"),
            );
        }
        out.extend(shell_calls(line));
    }
    out
}

/// The bodies that follow `opener` in `text`, up to the bracket that balances `open`/`close`
/// (`%(…)` in rpm macros, `\write18{…}` in TeX). An unbalanced body runs to the end.
fn enclosed<'t>(text: &'t str, opener: &str, open: char, close: char) -> Vec<&'t str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(opener) {
        let body = &rest[at + opener.len()..];
        let mut depth = 1usize;
        let mut end = body.len();
        for (i, c) in body.char_indices() {
            if c == open {
                depth += 1;
            } else if c == close {
                depth -= 1;
                if depth == 0 {
                    end = i;
                    break;
                }
            }
        }
        out.push(&body[..end]);
        rest = body.get(end..).unwrap_or("");
    }
    out
}

/// fzf actions that run a command: `execute(CMD)`, `execute-silent[CMD]`, `become:CMD` (the
/// colon form runs to the end of the binding list).
fn fzf_actions(bind: &str) -> Vec<&str> {
    const ACTIONS: &[&str] = &[
        "execute-silent",
        "execute-multi",
        "execute",
        "become",
        "reload-sync",
        "reload",
        "preview",
        "change-preview",
        "transform",
        "bg-transform",
    ];
    let mut out = Vec::new();
    let mut rest = bind;
    while !rest.is_empty() {
        let Some((at, action)) = ACTIONS
            .iter()
            .filter_map(|a| rest.find(a).map(|i| (i, *a)))
            .min_by_key(|(i, a)| (*i, std::cmp::Reverse(a.len())))
        else {
            break;
        };
        let body = &rest[at + action.len()..];
        let pair = match body.chars().next() {
            Some('(') => Some(')'),
            Some('[') => Some(']'),
            Some('{') => Some('}'),
            Some('<') => Some('>'),
            Some(':') => None,
            _ => {
                rest = body;
                continue;
            }
        };
        let inner = body.get(1..).unwrap_or("");
        let Some(close) = pair else {
            out.push(inner);
            break;
        };
        let end = inner.find(close).unwrap_or(inner.len());
        out.push(inner.get(..end).unwrap_or(inner));
        rest = inner.get(end..).unwrap_or("");
    }
    out
}

// `argv` (the whole command) and `args` (its arguments) are this module's vocabulary, as in
// `resolve.rs`.
#[allow(clippy::similar_names)]
impl Walker<'_> {
    /// Analyses the command-valued options of `name` (see the module header) after the
    /// command itself was classified.
    pub(crate) fn option_exec(
        &mut self,
        name: &str,
        argv: &[Word],
        args: &[Word],
        scope: &mut Scope,
        stdin: &Producer,
    ) {
        for entry in TABLE.iter().filter(|e| e.tools.contains(&name)) {
            for value in values(entry, args) {
                match entry.value {
                    Value::Shell => self.option_code(argv, &value, scope, name, entry.roles),
                    Value::SshOption => {
                        let (key, v) = value
                            .text
                            .split_once(['=', ' '])
                            .unwrap_or((value.text.as_str(), ""));
                        if SSH_COMMAND_KEYS.contains(&key.to_ascii_lowercase().as_str()) {
                            let code = part(&value, v.trim_start_matches(['=', ' ']));
                            self.option_code(argv, &code, scope, name, entry.roles);
                        }
                    }
                    Value::Gdb => {
                        if let Some((lang, code)) = gdb_command(&value.text) {
                            let code = part(&value, code);
                            match lang {
                                Some(lang) => self.foreign(lang, argv, &code, scope, "gdb python"),
                                None => self.option_code(argv, &code, scope, name, entry.roles),
                            }
                        }
                    }
                    Value::Make => self.makefile(argv, &value, scope),
                    Value::Hook => {
                        let input = self.hook_input(name, args, stdin, scope);
                        let mut hook_scope = scope.clone();
                        if name == "split" {
                            // split runs the filter with `$FILE` set to the piece's name: the
                            // prefix (`x` by default) and a suffix, in the working directory.
                            let prefix = split_prefix(args)
                                .map_or_else(|| Val::Known("x".to_owned()), |p| Val::of(&p));
                            let piece = match prefix {
                                Val::Known(p) => Val::Known(format!("{p}aa")),
                                other => other,
                            };
                            hook_scope.sh.set("FILE", piece, Some(true));
                        }
                        self.with_shell_stdin(input, |w| {
                            w.hook(argv, &value, &hook_scope, name);
                        });
                    }
                    Value::PasswordCommand => {
                        let before = self.commands.len();
                        self.hook(argv, &value, scope, name);
                        for c in self.commands.get_mut(before..).unwrap_or(&mut []) {
                            if c.verdict.category.as_deref() == Some("credential_access") {
                                c.verdict =
                                    Verdict::normal(format!("prints the password {name} reads"));
                            }
                        }
                    }
                    Value::FzfBind => {
                        for code in fzf_actions(&value.text) {
                            self.hook(argv, &part(&value, code), scope, name);
                        }
                    }
                    Value::RpmMacro => {
                        for code in enclosed(&value.text, "%(", '(', ')') {
                            self.hook(argv, &part(&value, code), scope, name);
                        }
                    }
                    Value::Library => self.library_option(argv, &value, scope, name),
                    Value::Module => self.module_option(argv, &value, scope, name),
                    Value::LessCommand => {
                        let cmd = value.text.trim_start_matches(['+', ':']);
                        if let Some(code) = cmd.strip_prefix('!') {
                            self.option_code(argv, &part(&value, code), scope, name, entry.roles);
                        }
                    }
                }
            }
        }
        self.output_options(name, argv, args, scope);
        // TeX with `--shell-escape`: `\write18{CMD}` in the document text runs CMD.
        if matches!(
            name,
            "tex" | "latex" | "pdflatex" | "pdftex" | "xelatex" | "lualatex" | "luatex"
        ) && args
            .iter()
            .any(|w| matches!(w.text.as_str(), "--shell-escape" | "-shell-escape"))
        {
            for w in args.iter().filter(|w| !w.text.starts_with('-')) {
                for code in enclosed(&w.text, "\\write18{", '{', '}') {
                    self.hook(argv, &part(w, code), scope, name);
                }
            }
        }
        // `make -f /dev/stdin` / `-f -` with the makefile on stdin.
        if matches!(name, "make" | "gmake" | "bmake") {
            let reads_stdin = args.windows(2).any(|p| {
                matches!(p[0].text.as_str(), "-f" | "--file" | "--makefile")
                    && matches!(p[1].text.as_str(), "-" | "/dev/stdin" | "/proc/self/fd/0")
            }) || args
                .iter()
                .any(|w| matches!(w.text.as_str(), "-f-" | "-f/dev/stdin" | "--file=-"));
            // `make -f <(printf …)`, `make -f <(curl …)`: the make file is what the process
            // substitution prints, as if fed on standard input.
            let substituted: Vec<Producer> = task_file_values(args, MAKE_FILE_OPTIONS)
                .filter(|w| w.is_process_substitution())
                .flat_map(|w| w.substs.iter().cloned())
                .collect();
            let fed = reads_stdin.then(|| stdin.clone());
            for input in fed.into_iter().chain(substituted) {
                match input {
                    Producer::Text { text, exact } => {
                        let w = Word {
                            text,
                            exact,
                            shape: WordShape::Exact,
                            substs: Vec::new(),
                        };
                        self.makefile(argv, &w, scope);
                    }
                    Producer::Nothing | Producer::LocalFile => {}
                    _ => self.record(argv, scope, ids::RCE_OPAQUE_CODE.verdict()),
                }
            }
        }
        // Other task runners given their task file by a process substitution (`just -f
        // <(curl …)`, `task -t <(printf …)`): code nobody reads here — the text a `printf`
        // prints included, since justfile and Taskfile recipes are read only by the policy,
        // from a file on disk or a heredoc — so it is asked (it passed while the same text
        // given as a heredoc was judged). An empty or local-file substitution runs nothing
        // new.
        if let Some((_, options)) = TASK_FILE_OPTIONS.iter().find(|(n, _)| n.contains(&name)) {
            let opaque = task_file_values(args, options)
                .filter(|w| w.is_process_substitution())
                .flat_map(|w| w.substs.iter())
                .any(|p| !matches!(p, Producer::Nothing | Producer::LocalFile));
            if opaque {
                self.record(argv, scope, ids::RCE_OPAQUE_CODE.verdict());
            }
        }
    }

    /// Judges the files `name`'s output options in `options` write (see [`OUTPUTS`]);
    /// wrappers (`strace -o F CMD`, `screen -Logfile F CMD`) pass only their own options.
    pub(crate) fn output_options(
        &mut self,
        name: &str,
        argv: &[Word],
        options: &[Word],
        scope: &Scope,
    ) {
        if scope.remote {
            return;
        }
        // ssh-keygen's modes that only read the `-f` file: fingerprint, public key, export,
        // show a certificate, search or hash known_hosts, verify and find principals.
        if name == "ssh-keygen"
            && options.iter().any(|w| {
                w.exact
                    && w.text.starts_with('-')
                    && !w.text.starts_with("--")
                    && w.text
                        .chars()
                        .skip(1)
                        .any(|c| matches!(c, 'l' | 'y' | 'e' | 'L' | 'F' | 'B' | 'Q' | 'D' | 'Y'))
            })
        {
            return;
        }
        for entry in OUTPUTS.iter().filter(|e| e.tools.contains(&name)) {
            for file in option_values(entry.options, false, options) {
                if let Some(rule) =
                    crate::targets::judge_write(&file.text, file.exact, &scope.cwd, self.ctx)
                {
                    self.record(argv, scope, rule.verdict());
                }
            }
        }
    }

    /// A hook option's command, judged as if typed directly (see [`Value::Hook`]).
    /// What a tool's command-valued option reads on its standard input: `split
    /// --filter=CMD FILE` pipes FILE's pieces into CMD (`split --filter='curl -T - URL' .env`
    /// sends the file). Other hooks read nothing of the tool's data (tar's `--to-command` is
    /// `deferred.rs`'s).
    fn hook_input(&self, tool: &str, args: &[Word], stdin: &Producer, scope: &Scope) -> Producer {
        match tool {
            "split" => match split_operands(args).first() {
                Some(file) if !(file.exact && file.text == "-") => self.file_content(file, scope),
                _ => stdin.clone(),
            },
            _ => Producer::Nothing,
        }
    }

    fn hook(&mut self, argv: &[Word], code: &Word, scope: &Scope, tool: &str) {
        let mut child = scope.clone();
        self.run_code_string(argv, code, &mut child, &format!("{tool} hook"));
    }

    fn makefile(&mut self, argv: &[Word], text: &Word, scope: &mut Scope) {
        for code in make_code(&text.text) {
            let w = part(text, &code);
            self.run_code_string(argv, &w, scope, "make recipe");
        }
    }

    /// Runs `code` as shell for the option of `tool`; unless every part is ordinary work by a
    /// program in `roles`, also asks (`rce.option_exec`).
    pub(crate) fn option_code(
        &mut self,
        argv: &[Word],
        code: &Word,
        scope: &mut Scope,
        tool: &str,
        roles: &[&str],
    ) {
        let before = self.commands.len();
        let mut child = scope.clone();
        self.run_code_string(argv, code, &mut child, &format!("{tool} option"));
        self.escape_asks(argv, scope, before, roles);
    }

    /// `curl --engine ./x.so`: a library named by a path outside the system's library
    /// directories (or not known statically) is loaded unread, so it asks.
    fn library_option(&mut self, argv: &[Word], value: &Word, scope: &Scope, tool: &str) {
        const SYSTEM_LIBS: &[&str] = &[
            "/usr/lib/",
            "/usr/lib64/",
            "/usr/local/lib/",
            "/lib/",
            "/lib64/",
            "/opt/homebrew/lib/",
            "/Library/",
            "/System/Library/",
        ];
        let v = value.text.as_str();
        let named = !v.contains('/') && !v.contains('.');
        let system = SYSTEM_LIBS.iter().any(|d| v.starts_with(d)) && !v.contains("/../");
        if value.exact && (named || system) {
            return;
        }
        self.loads_unread(
            argv,
            scope,
            &format!("`{tool}` loads the library or plugin `{v}` into itself (code the guard cannot read)"),
        );
    }

    /// Records `rce.option_exec` for code a tool loads that the guard cannot vouch for.
    fn loads_unread(&mut self, argv: &[Word], scope: &Scope, what: &str) {
        let mut verdict = ids::RCE_OPTION_EXEC.verdict();
        verdict.reason = format!("{}: {what}", verdict.reason);
        self.record(argv, scope, verdict);
    }

    /// `node --require F` and the like (see [`Value::Module`]).
    fn module_option(&mut self, argv: &[Word], value: &Word, scope: &Scope, tool: &str) {
        let v = value.text.as_str();
        let path = v.strip_prefix("file://").unwrap_or(v);
        let package = !v.is_empty()
            && !v.contains(':')
            && !v.starts_with(['.', '/', '~', '$', '`'])
            && !v.split('/').any(|c| c == "..");
        let in_project = !v.contains(':') || v.starts_with("file://");
        if value.exact && (package || in_project && self.in_workspace(path, scope)) {
            return;
        }
        self.loads_unread(
            argv,
            scope,
            &format!("`{tool}` loads the module `{v}` first (code from outside the project)"),
        );
    }

    /// After a shell escape's code was analysed (its commands recorded from `before`): when
    /// it all looked like ordinary work, asks anyway unless every part is a program in
    /// `roles`. A part that is already flagged keeps its own, more specific verdict.
    pub(crate) fn escape_asks(
        &mut self,
        argv: &[Word],
        scope: &Scope,
        before: usize,
        roles: &[&str],
    ) {
        let added = self.commands.get(before..).unwrap_or(&[]);
        let ordinary = added
            .iter()
            .all(|c| matches!(c.verdict.class, Class::Safe | Class::Normal));
        let fits = !added.is_empty()
            && added.iter().all(|c| {
                c.argv.first().is_some_and(|p| {
                    let base = p.rsplit('/').next().unwrap_or(p.as_str());
                    roles.contains(&base)
                })
            });
        if ordinary && !fits {
            self.record(argv, scope, ids::RCE_OPTION_EXEC.verdict());
        }
    }
}

/// split's operands, `[INPUT [PREFIX]]`, past its options and their values.
pub(crate) fn split_operands(args: &[Word]) -> Vec<&Word> {
    const VALUES: &[&str] = &[
        "-a",
        "-b",
        "-C",
        "-l",
        "-n",
        "-t",
        "--suffix-length",
        "--bytes",
        "--line-bytes",
        "--lines",
        "--number",
        "--separator",
        "--additional-suffix",
        "--filter",
    ];
    let mut operands = Vec::new();
    let mut i = 0;
    let mut options_done = false;
    while let Some(w) = args.get(i) {
        i += 1;
        if !options_done && w.exact && w.text == "--" {
            options_done = true;
            continue;
        }
        if !options_done && w.exact && w.text.starts_with('-') && w.text.len() > 1 {
            if VALUES.contains(&w.text.as_str()) {
                i += 1;
            }
            continue;
        }
        operands.push(w);
    }
    operands
}

/// The prefix of split's pieces (its second operand), if given.
fn split_prefix(args: &[Word]) -> Option<Word> {
    split_operands(args).get(1).map(|w| (*w).clone())
}

/// make's options naming a make file.
const MAKE_FILE_OPTIONS: &[&str] = &["-f", "--file", "--makefile"];

/// Task runners (besides make) and their options naming the task file.
const TASK_FILE_OPTIONS: &[(&[&str], &[&str])] = &[
    (&["just"], &["-f", "--justfile"]),
    (&["task", "go-task"], &["-t", "--taskfile"]),
];

/// The values of `options` among `args` (`-f FILE`, `--file=FILE`).
fn task_file_values<'a>(
    args: &'a [Word],
    options: &'a [&'a str],
) -> impl Iterator<Item = &'a Word> + 'a {
    args.windows(2)
        .filter(|p| options.contains(&p[0].text.as_str()))
        .map(|p| &p[1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_covers_every_tool_of_the_table() {
        for entry in TABLE {
            for tool in entry.tools {
                assert!(handles(tool), "{tool}");
            }
        }
    }

    #[test]
    fn handles_covers_every_tool_with_an_output_option() {
        for entry in OUTPUTS {
            for tool in entry.tools {
                // Wrappers judge their own options before peeling (resolve.rs, deferred.rs).
                let wrapper = matches!(*tool, "strace" | "ltrace" | "screen")
                    || crate::runners::handles(tool);
                assert!(handles(tool) || wrapper, "{tool}");
            }
        }
    }

    #[test]
    fn makefile_recipes_and_shell_functions_are_code() {
        assert_eq!(make_code("all: ; rm -rf ~"), vec!["rm -rf ~"]);
        assert_eq!(make_code("x:\n\t@curl a | sh"), vec!["curl a | sh"]);
        assert_eq!(make_code("V := $(shell id)"), vec!["id"]);
        assert!(make_code("FOO=bar").is_empty());
    }

    #[test]
    fn fzf_bindings_that_run_commands_are_found() {
        assert_eq!(fzf_actions("enter:execute(rm -rf ~)"), vec!["rm -rf ~"]);
        assert_eq!(
            fzf_actions("ctrl-a:select-all,ctrl-o:become:vim {}"),
            vec!["vim {}"]
        );
        assert_eq!(fzf_actions("f1:execute-silent[id]+abort"), vec!["id"]);
        assert!(fzf_actions("ctrl-a:select-all").is_empty());
    }

    #[test]
    fn rpm_and_tex_bodies_balance_their_brackets() {
        assert_eq!(enclosed("%(echo (a))x", "%(", '(', ')'), vec!["echo (a)"]);
        assert_eq!(
            enclosed("\\immediate\\write18{id}\\end", "\\write18{", '{', '}'),
            vec!["id"]
        );
        assert!(enclosed("%{_libdir}", "%(", '(', ')').is_empty());
    }

    #[test]
    fn gdb_commands_that_run_code_are_found() {
        assert_eq!(gdb_command("shell id"), Some((None, "id")));
        assert_eq!(gdb_command("!sh"), Some((None, "sh")));
        assert!(matches!(
            gdb_command("python import os"),
            Some((Some(_), _))
        ));
        assert_eq!(gdb_command("break main"), None);
        assert_eq!(
            gdb_command("platform shell rm -rf x"),
            Some((None, " rm -rf x"))
        );
        assert_eq!(gdb_command("platform select remote-linux"), None);
    }
}
