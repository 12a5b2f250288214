//! Variables that name what a tool runs or reads: a command line it runs
//! (`RESTIC_PASSWORD_COMMAND`, `CARGO_TARGET_<TRIPLE>_RUNNER`, `RUSTC_WRAPPER`, `CC`), a place
//! it reads its configuration from (`CURL_HOME`, `WGETRC`, `XDG_CONFIG_HOME`,
//! `NPM_CONFIG_USERCONFIG`, `PIP_CONFIG_FILE`, `KUBECONFIG`, `GIT_CONFIG_GLOBAL`), or where the
//! dynamic linker looks for libraries (`LD_LIBRARY_PATH`, `DYLD_LIBRARY_PATH`). One data table
//! of variable → what it names; the value is judged like the command or file used directly.
//!
//! Why: setting such a variable is how a command gets a tool to run code the line does not
//! show (`RESTIC_PASSWORD_COMMAND='sh /tmp/x' restic snapshots`, a `.curlrc` in `/tmp` with
//! `upload-file = ~/.ssh/id_rsa`), yet the same variables are everyday work with the program
//! or place they are meant for (`CARGO_TARGET_…_RUNNER=qemu-aarch64`, `CURL_HOME=.`,
//! `LD_LIBRARY_PATH=$PWD/build/lib ./app`).
//!
//! Invariant (`rce.env_hijack`): a command-naming variable whose value runs anything but a
//! program meant for the role, or code known only at run time, asks; its own dangers are
//! recorded by the analysis of the value as shell (`sh -c` recursion). A config or library
//! location asks unless it is one the user vouches for: the workspace, the home directory, the
//! system's installed places, `/dev/null`. Shared temporary directories and values known only
//! at run time ask. An empty value names nothing and is ordinary.

use crate::model::Verdict;
use crate::targets::Cwd;
use crate::taxonomy::ids;
use crate::walk::{Scope, Walker, Word};

/// What a variable's value names.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Named {
    /// A command line the tool runs; the programs meant for the role (`*` at the end: any
    /// name with that prefix, `*` at the start: any name with that suffix).
    Command(&'static [&'static str]),
    /// A file or directory the tool reads configuration (which can name commands) from.
    Config,
    /// A `:`-separated search path for native libraries every program loads.
    Libraries,
}

/// Programs meant to supply a password or secret to a backup tool.
const PASSWORD_PROGRAMS: &[&str] = &[
    "pass",
    "gopass",
    "gpg",
    "gpg2",
    "op",
    "bw",
    "rbw",
    "lpass",
    "security",
    "secret-tool",
    "keepassxc-cli",
    "vault",
    "sops",
    "age",
    "cat",
    "echo",
    "printf",
    "systemd-creds",
    "pwgen",
];

/// Cargo's registry credential providers: its built-ins (`cargo:token`,
/// `cargo:libsecret`, …), the `cargo-credential-*` programs and the password programs.
const CREDENTIAL_PROVIDERS: &[&str] = &[
    "cargo:*",
    "cargo-credential-*",
    "pass",
    "gopass",
    "op",
    "security",
    "secret-tool",
    "vault",
];

/// Programs meant to run a cross-compiled or instrumented binary for cargo.
const RUNNER_PROGRAMS: &[&str] = &[
    "valgrind",
    "qemu-*",
    "wine",
    "wine64",
    "wasmtime",
    "wasmer",
    "wasm-bindgen-test-runner",
    "node",
    "probe-rs",
    "probe-run",
    "espflash",
    "cargo-*",
    "cross-*",
    "miri",
    "heaptrack",
    "strace",
    "ltrace",
    "perf",
    "gdb",
    "lldb",
    "flamegraph",
    "taskset",
    "nice",
    "time",
    "env",
    "true",
];

/// C/C++ compilers, linkers and the caches that wrap them.
const COMPILER_PROGRAMS: &[&str] = &[
    "cc",
    "c++",
    "gcc",
    "g++",
    "clang",
    "clang++",
    "*-gcc",
    "*-g++",
    "*-clang",
    "*-clang++",
    "*-cc",
    "*-c++",
    "*-ld",
    "gcc-*",
    "g++-*",
    "clang-*",
    "clang++-*",
    "ld",
    "ld.lld",
    "ld.gold",
    "ld.bfd",
    "lld",
    "rust-lld",
    "mold",
    "sold",
    "zig",
    "tcc",
    "icc",
    "icx",
    "icpx",
    "emcc",
    "em++",
    "musl-gcc",
    "ccache",
    "sccache",
    "distcc",
    "cachepot",
    "cl",
    "cl.exe",
    "clang-cl",
    "lld-link",
    "link.exe",
];

/// Rust compiler wrappers (`RUSTC_WRAPPER`): build caches and the compiler itself.
const RUSTC_PROGRAMS: &[&str] = &[
    "sccache",
    "cachepot",
    "ccache",
    "rustc",
    "clippy-driver",
    "cargo-*",
];

/// What fzf's default command is meant to be: a file lister.
const LISTER_PROGRAMS: &[&str] = &["find", "fd", "fdfind", "rg", "ag", "git", "ls", "cat"];

/// `less`'s input preprocessor (`LESSOPEN='|lesspipe %s'`).
const LESSPIPE_PROGRAMS: &[&str] = &[
    "lesspipe",
    "lesspipe.sh",
    "lessfilter",
    "src-hilite-lesspipe.sh",
    "bat",
    "batcat",
    "pygmentize",
    "highlight",
];

/// External diff programs (`GIT_EXTERNAL_DIFF`, `KUBECTL_EXTERNAL_DIFF`).
const DIFF_PROGRAMS: &[&str] = &[
    "difft",
    "difftastic",
    "delta",
    "diff",
    "colordiff",
    "icdiff",
    "meld",
    "vimdiff",
    "nvimdiff",
    "kdiff3",
    "dyff",
    "git",
];

/// Remote shells (`RSYNC_RSH`, `SVN_SSH`, like `rsync -e`).
const REMOTE_SHELLS: &[&str] = &["ssh", "sshpass", "autossh", "tsh", "mosh"];

/// Editors and pagers under other tools' names (`KUBE_EDITOR`, `AWS_PAGER`): the role
/// programs of `EDITOR`/`PAGER`, judged by the same list.
const EDITOR_OR_PAGER: &[&str] = &[];

/// `(names, what the value names)`. A name with `*` in it matches any text there
/// (`CARGO_TARGET_*_RUNNER`). Editors and pagers of the common tools are in
/// `argdanger::PROGRAM_VARIABLES`; the names here extend that mechanism to the tools that
/// read a command or a config location from their own variables.
const TABLE: &[(&[&str], Named)] = &[
    (
        &[
            "RESTIC_PASSWORD_COMMAND",
            "BORG_PASSCOMMAND",
            "BORG_NEW_PASSCOMMAND",
        ],
        Named::Command(PASSWORD_PROGRAMS),
    ),
    (&["CARGO_TARGET_*_RUNNER"], Named::Command(RUNNER_PROGRAMS)),
    (
        &[
            "CARGO_REGISTRY_CREDENTIAL_PROVIDER",
            "CARGO_REGISTRY_GLOBAL_CREDENTIAL_PROVIDERS",
            "CARGO_REGISTRIES_*_CREDENTIAL_PROVIDER",
        ],
        Named::Command(CREDENTIAL_PROVIDERS),
    ),
    (
        &[
            "CARGO_TARGET_*_LINKER",
            "CC",
            "CXX",
            "LD",
            "HOSTCC",
            "HOSTCXX",
            "CC_*",
            "CXX_*",
            "TARGET_CC",
            "TARGET_CXX",
        ],
        Named::Command(COMPILER_PROGRAMS),
    ),
    (
        &[
            "RUSTC_WRAPPER",
            "RUSTC_WORKSPACE_WRAPPER",
            "CARGO_BUILD_RUSTC_WRAPPER",
            "CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER",
            "RUSTC",
            "CARGO_BUILD_RUSTC",
        ],
        Named::Command(RUSTC_PROGRAMS),
    ),
    (&["FZF_DEFAULT_COMMAND"], Named::Command(LISTER_PROGRAMS)),
    (
        &["LESSOPEN", "LESSCLOSE"],
        Named::Command(LESSPIPE_PROGRAMS),
    ),
    (
        &["GIT_EXTERNAL_DIFF", "KUBECTL_EXTERNAL_DIFF"],
        Named::Command(DIFF_PROGRAMS),
    ),
    (
        &["RSYNC_RSH", "SVN_SSH", "CVS_RSH"],
        Named::Command(REMOTE_SHELLS),
    ),
    (
        &[
            "KUBE_EDITOR",
            "SYSTEMD_EDITOR",
            "SVN_EDITOR",
            "HGEDITOR",
            "GH_EDITOR",
            "SUDO_EDITOR",
            "AWS_PAGER",
            "GH_PAGER",
            "GLAB_PAGER",
            "SYSTEMD_PAGER",
            "PSQL_PAGER",
            "BAT_PAGER",
            "DELTA_PAGER",
        ],
        Named::Command(EDITOR_OR_PAGER),
    ),
    (
        &[
            "CURL_HOME",
            "WGETRC",
            "XDG_CONFIG_HOME",
            "NPM_CONFIG_USERCONFIG",
            "npm_config_userconfig",
            "NPM_CONFIG_GLOBALCONFIG",
            "npm_config_globalconfig",
            "YARN_RC_FILENAME",
            "PIP_CONFIG_FILE",
            "GIT_CONFIG_GLOBAL",
            "GIT_CONFIG_SYSTEM",
            "GIT_CONFIG",
            "GIT_DIR",
            "KUBECONFIG",
            "DOCKER_CONFIG",
            "RIPGREP_CONFIG_PATH",
            "CARGO_HOME",
            "RUSTUP_HOME",
            "ZDOTDIR",
            "INPUTRC",
            "MYVIMRC",
            "VIMINIT",
            "EXINIT",
            "SSH_CONFIG",
            "BUNDLE_GEMFILE",
            "GEMRC",
            "CONDARC",
            "PYTHONUSERBASE",
        ],
        Named::Config,
    ),
    (
        &[
            "LD_LIBRARY_PATH",
            "DYLD_LIBRARY_PATH",
            "DYLD_FALLBACK_LIBRARY_PATH",
            "DYLD_FRAMEWORK_PATH",
            "DYLD_FALLBACK_FRAMEWORK_PATH",
        ],
        Named::Libraries,
    ),
];

/// What `name`'s value names, when the table knows the variable.
pub(crate) fn variable(name: &str) -> Option<Named> {
    TABLE
        .iter()
        .find(|(names, _)| names.iter().any(|n| name_matches(n, name)))
        .map(|(_, named)| *named)
}

/// `pattern` is a name or a name with one `*` standing for a non-empty part.
fn name_matches(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((pre, post)) => {
            name.len() > pre.len() + post.len() && name.starts_with(pre) && name.ends_with(post)
        }
    }
}

/// `base` is one of `roles` (see [`Named::Command`]).
pub(crate) fn role_matches(roles: &[&str], base: &str) -> bool {
    roles.iter().any(|r| {
        if let Some(prefix) = r.strip_suffix('*') {
            base.len() > prefix.len() && base.starts_with(prefix)
        } else if let Some(suffix) = r.strip_prefix('*') {
            base.len() > suffix.len() && base.ends_with(suffix)
        } else {
            base == *r
        }
    })
}

/// `$NAME` or `${NAME}` alone.
fn own_reference(entry: &str, name: &str) -> bool {
    entry
        .strip_prefix("${")
        .and_then(|e| e.strip_suffix('}'))
        .or_else(|| entry.strip_prefix('$'))
        .is_some_and(|v| v == name)
}

/// Places programs and libraries are installed to by the system or a package manager.
const SYSTEM_PLACES: &[&str] = &[
    "/usr",
    "/lib",
    "/lib32",
    "/lib64",
    "/opt",
    "/etc",
    "/nix/store",
    "/snap",
    "/Library",
    "/System",
    "/Applications",
    "/Developer",
];

impl Walker<'_> {
    /// Judges a value assigned to a variable of [`TABLE`] (see the module doc); `None` when it
    /// is ordinary.
    pub(crate) fn named_verdict(
        &mut self,
        named: Named,
        name: &str,
        value: &Word,
        scope: &Scope,
    ) -> Option<Verdict> {
        if value.exact && value.text.trim().is_empty() {
            return None;
        }
        let ordinary = match named {
            Named::Command(roles) => {
                // `LESSOPEN='|lesspipe %s'`: the `|`/`||` (pipe mode) and `-` (also for pipes)
                // markers are less's, not shell. `cargo:token-from-stdout CMD`: the
                // provider runs CMD.
                let text = if name.starts_with("LESS") {
                    value.text.trim_start().trim_start_matches(['|', '-'])
                } else {
                    value
                        .text
                        .strip_prefix("cargo:token-from-stdout ")
                        .unwrap_or(&value.text)
                };
                let code = Word {
                    text: text.to_owned(),
                    ..value.clone()
                };
                let meant = |base: &str| {
                    if roles.is_empty() {
                        crate::argdanger::is_role_program(base)
                    } else {
                        role_matches(roles, base)
                    }
                };
                let before = self.commands.len();
                let ok = value.exact && self.runs_only(&code, &mut scope.clone(), name, &meant);
                ok || (value.exact
                    // The password and credential-provider roles (both name `pass`).
                    && role_matches(roles, "pass")
                    && self.password_read_for_the_tool(before, &meant))
            }
            Named::Config => value.exact && self.vouched_place(value.text.trim(), scope),
            // Each entry: the variable's own earlier value, or a vouched place (`$PWD/…` is the
            // working directory's; any other run-time part is not vouched for).
            Named::Libraries => value.text.split(':').all(|entry| {
                own_reference(entry, name) || self.vouched_place(&pwd_relative(entry), scope)
            }),
        };
        (!ordinary).then(|| ids::RCE_ENV_HIJACK.verdict())
    }

    /// A program named by a bare name (found on `PATH`, whose own hijack is judged apart) or
    /// by a path to where programs are installed: the system's places or the home directory
    /// (`~/.local/bin/nvim`). Not a relative path nor one in the workspace or a temporary
    /// directory: a program of a role's name there is whatever the agent wrote.
    /// A password or credential-provider command (`RESTIC_PASSWORD_COMMAND='pass show x'`)
    /// prints the secret to the tool that runs it, not to the agent: that is what the
    /// variable is for. The store reads it recorded (`credential_access`) become ordinary,
    /// and the setting is ordinary when every command is then ordinary work by a program
    /// meant for the role. Anything else it does keeps its verdict.
    fn password_read_for_the_tool(&mut self, before: usize, meant: &dyn Fn(&str) -> bool) -> bool {
        let mut added: Vec<String> = Vec::new();
        for c in self.commands.get_mut(before..).unwrap_or(&mut []) {
            if c.verdict.category.as_deref() == Some("credential_access") {
                c.verdict = Verdict::normal("prints a password the tool reads");
            }
            if !matches!(
                c.verdict.class,
                crate::model::Class::Safe | crate::model::Class::Normal
            ) {
                return false;
            }
            added.extend(c.argv.first().cloned());
        }
        added.len() == self.commands.len().saturating_sub(before)
            && !added.is_empty()
            && added.iter().all(|p| {
                meant(p.rsplit('/').next().unwrap_or(p.as_str())) && self.installed_program(p)
            })
    }

    pub(crate) fn installed_program(&self, program: &str) -> bool {
        if !program.contains('/') {
            return true;
        }
        let path = std::path::Path::new(program);
        path.is_absolute()
            && !program.split('/').any(|c| c == "..")
            && !hookgate_paths::is_within(path, &self.ctx.cwd)
            && !self.in_temp_dir(path)
            && (self
                .ctx
                .home
                .as_deref()
                .is_some_and(|h| hookgate_paths::is_within(path, h))
                || ["/bin", "/sbin"]
                    .iter()
                    .chain(SYSTEM_PLACES)
                    .any(|s| hookgate_paths::is_within(path, std::path::Path::new(s))))
    }

    fn in_temp_dir(&self, path: &std::path::Path) -> bool {
        self.ctx
            .temp_dirs
            .iter()
            .chain(self.ctx.tmpdir.iter())
            .any(|t| hookgate_paths::is_within(path, t))
            || ["/tmp", "/var/tmp", "/dev/shm"]
                .iter()
                .any(|t| hookgate_paths::is_within(path, std::path::Path::new(t)))
    }

    /// Where `entry` (absolute, `~/…`, or relative to where the command runs; empty is the
    /// working directory) points; `None` with `..`, a glob or a run-time part, or relative to
    /// a working directory not known.
    fn place(&self, entry: &str, scope: &Scope) -> Option<std::path::PathBuf> {
        if entry.contains(['$', '`', '*', '?', '[']) || entry.split('/').any(|c| c == "..") {
            return None;
        }
        if let Some(rest) = entry.strip_prefix("~/").or((entry == "~").then_some("")) {
            return self.ctx.home.as_ref().map(|h| h.join(rest));
        }
        if entry.starts_with('/') {
            return Some(std::path::PathBuf::from(entry));
        }
        match &scope.cwd {
            Cwd::Known(dir) => Some(dir.join(entry)),
            Cwd::Unknown => None,
        }
    }

    /// A path inside the workspace (see [`Self::place`]).
    pub(crate) fn in_workspace(&self, entry: &str, scope: &Scope) -> bool {
        self.place(entry, scope)
            .is_some_and(|p| hookgate_paths::is_within(&p, &self.ctx.cwd))
    }

    /// A place the user vouches for as a source of configuration or libraries: the
    /// workspace (relative places only from a working directory inside it), the home
    /// directory, the system's installed places, `/dev/null`. Not a shared temporary
    /// directory, nor a place with `..`, a glob or a run-time part.
    fn vouched_place(&self, entry: &str, scope: &Scope) -> bool {
        let entry = entry.trim_end_matches('/');
        if entry == "/dev/null" {
            return true;
        }
        let Some(path) = self.place(entry, scope) else {
            return false;
        };
        if hookgate_paths::is_within(&path, &self.ctx.cwd) {
            return true;
        }
        // A relative place outside the workspace is where the agent happened to `cd`.
        if !entry.starts_with(['/', '~']) || self.in_temp_dir(&path) {
            return false;
        }
        self.ctx
            .home
            .as_deref()
            .is_some_and(|h| hookgate_paths::is_within(&path, h))
            || SYSTEM_PLACES
                .iter()
                .any(|s| hookgate_paths::is_within(&path, std::path::Path::new(s)))
    }
}

/// `$PWD/x`, `${PWD}/x`, `$(pwd)/x`, `` `pwd`/x `` as the relative `x` (the working directory
/// the command runs in); any other entry unchanged.
fn pwd_relative(entry: &str) -> String {
    ["$PWD", "${PWD}", "$(pwd)", "`pwd`"]
        .iter()
        .find_map(|p| entry.strip_prefix(p))
        .filter(|r| r.is_empty() || r.starts_with('/'))
        .map_or_else(
            || entry.to_owned(),
            |r| {
                let r = r.trim_start_matches('/');
                if r.is_empty() {
                    ".".to_owned()
                } else {
                    r.to_owned()
                }
            },
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starred_names_match_a_non_empty_middle() {
        assert!(name_matches(
            "CARGO_TARGET_*_RUNNER",
            "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER"
        ));
        assert!(!name_matches(
            "CARGO_TARGET_*_RUNNER",
            "CARGO_TARGET__RUNNER"
        ));
        assert!(!name_matches("CARGO_TARGET_*_RUNNER", "CARGO_TARGET_DIR"));
        assert!(matches!(variable("CURL_HOME"), Some(Named::Config)));
        assert!(variable("CARGO_TARGET_DIR").is_none());
    }

    #[test]
    fn roles_match_by_name_prefix_or_suffix() {
        assert!(role_matches(RUNNER_PROGRAMS, "qemu-aarch64"));
        assert!(!role_matches(RUNNER_PROGRAMS, "qemu-"));
        assert!(role_matches(COMPILER_PROGRAMS, "aarch64-linux-gnu-gcc"));
        assert!(!role_matches(COMPILER_PROGRAMS, "sh"));
    }

    #[test]
    fn pwd_prefixes_become_relative() {
        assert_eq!(pwd_relative("$PWD/build/lib"), "build/lib");
        assert_eq!(pwd_relative("${PWD}"), ".");
        assert_eq!(pwd_relative("/usr/lib"), "/usr/lib");
    }
}
