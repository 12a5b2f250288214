//! Runner wrappers: project and package tools whose arguments are a command they run
//! (`uv run -- CMD`, `poetry run`, `npx PKG`, `nix-shell --run 'CMD'`, `direnv exec DIR CMD`),
//! and the npm binaries that are deletions (`npx rimraf ~` is `rm -rf ~`).
//!
//! Invariant: the command a runner runs is judged like the same command typed directly (with
//! the runner in `via`). Each runner's options are a data table; an option the table does not
//! know may or may not take a value, so both readings are judged, never just the harmless one.

// `argv` (the whole command) and `args` (its arguments) are this module's vocabulary, as in
// `resolve.rs`.
#![allow(clippy::similar_names)]

use crate::targets::Cwd;
use crate::walk::{Producer, Scope, Walker, Word};

/// What the first operand after a runner's options is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Operand {
    /// The command itself (`uv run CMD ARGS`).
    Command,
    /// A package whose binary runs (`npx rimraf@5 ~`), unless a package option named the
    /// package, then the command (`npx -p del-cli del ~`).
    Package,
    /// A directory, then the command (`direnv exec DIR CMD`).
    Directory,
    /// Tool specs (`node@20`) up to `--`, then the command (`mise exec node@20 -- CMD`).
    Tools,
    /// Nothing runs from operands; only a code option does (`nix-shell -p x --run CMD`).
    CodeOnly,
    /// One word (a lock or log file, a fake time), then the command (`setlock FILE CMD`,
    /// `envdir DIR CMD`, `faketime TIME CMD`).
    Skip,
}

/// One runner: how to find the command in its arguments.
#[derive(Debug)]
struct Runner {
    /// Command name (basename).
    name: &'static str,
    /// The subcommands that run a command (`run`, `exec`); empty: the tool itself does.
    sub: &'static [&'static str],
    /// Options before the subcommand that take a value (`uv --directory D run`).
    globals: &'static [&'static str],
    /// Options after the subcommand that take a value.
    values: &'static [&'static str],
    /// Options known to take no value.
    flags: &'static [&'static str],
    /// Options whose value is shell code (`--run`, `-c`).
    code: &'static [&'static str],
    /// Options whose value is the directory the command runs in.
    chdir: &'static [&'static str],
    /// Options naming the package (the operand is then the command).
    package: &'static [&'static str],
    /// Options after which every remaining word is the command (`nix develop -c CMD ARGS`).
    rest: &'static [&'static str],
    /// A word between the options and the command that is skipped (`dotenv … run CMD`).
    skip_word: Option<&'static str>,
    /// Flags after which the operands, joined, are shell code (`pnpm exec -c 'a && b'`).
    shell: &'static [&'static str],
    /// The command runs on other machines (`pssh -h hosts CMD`): judged as `ssh host CMD`
    /// is, in a scope whose directory is unknown and whose paths are the remote host's.
    remote: bool,
    /// The operands may always be shell code as well (`yarn exec` runs them through yarn's
    /// shell): both readings are judged.
    always_shell: bool,
    operand: Operand,
}

const NONE: &[&str] = &[];

/// Options of the Python project tools' `run`.
const UV_VALUES: &[&str] = &[
    "--with",
    "--with-editable",
    "--with-requirements",
    "--python",
    "-p",
    "--package",
    "--extra",
    "--group",
    "--no-group",
    "--only-group",
    "--env-file",
    "--index",
    "--default-index",
    "--index-url",
    "-i",
    "--extra-index-url",
    "--find-links",
    "-f",
    "--directory",
    "--project",
    "--config-file",
    "--cache-dir",
    "--color",
    "--python-preference",
    "--index-strategy",
    "--keyring-provider",
    "--resolution",
    "--prerelease",
    "--exclude-newer",
    "--link-mode",
    "--refresh-package",
    "--reinstall-package",
    "--upgrade-package",
    "-P",
    "--no-binary-package",
    "--no-build-package",
    "--config-setting",
    "-C",
    "--allow-insecure-host",
    "--from",
];

const UV_FLAGS: &[&str] = &[
    "--frozen",
    "--locked",
    "--no-sync",
    "--isolated",
    "--no-project",
    "--all-extras",
    "--no-dev",
    "--dev",
    "--active",
    "--exact",
    "--offline",
    "-q",
    "--quiet",
    "-v",
    "--verbose",
    "--no-cache",
    "-n",
    "--script",
    "-s",
    "--gui-script",
    "--no-env-file",
    "--refresh",
    "--upgrade",
    "-U",
    "--reinstall",
    "--compile-bytecode",
    "--no-editable",
    "--all-packages",
    "--no-config",
    "--preview",
    "--native-tls",
    "--managed-python",
    "--no-managed-python",
    "--no-python-downloads",
    "--no-sources",
    "--module",
    "-m",
];

const NPX_FLAGS: &[&str] = &[
    "--yes",
    "-y",
    "--no",
    "--no-install",
    "--ignore-existing",
    "-q",
    "--quiet",
    "--prefer-online",
    "--prefer-offline",
    "--offline",
    "--silent",
    "-s",
    "--bun",
    "--workspaces",
    "-ws",
    "--include-workspace-root",
    "-r",
    "--recursive",
    "--parallel",
];

const fn runner(name: &'static str, sub: &'static [&'static str], operand: Operand) -> Runner {
    Runner {
        name,
        sub,
        globals: NONE,
        values: NONE,
        flags: NONE,
        code: NONE,
        chdir: NONE,
        package: NONE,
        rest: NONE,
        skip_word: None,
        shell: NONE,
        always_shell: false,
        remote: false,
        operand,
    }
}

/// Apptainer and its former name Singularity: `exec IMAGE CMD` (one table for both).
const fn apptainer(name: &'static str) -> Runner {
    Runner {
        values: &[
            "-B",
            "--bind",
            "--mount",
            "-H",
            "--home",
            "--env",
            "--env-file",
            "-W",
            "--workdir",
            "--overlay",
            "-o",
            "-S",
            "--scratch",
            "--pwd",
            "--app",
            "--network",
            "--security",
            "--fusemount",
            "--hostname",
            "--dns",
        ],
        flags: &[
            "-c",
            "--contain",
            "-C",
            "--containall",
            "-e",
            "--cleanenv",
            "--fakeroot",
            "-f",
            "-w",
            "--writable",
            "--writable-tmpfs",
            "--nv",
            "--rocm",
            "--no-home",
            "-u",
            "--userns",
            "--no-mount",
            "--compat",
        ],
        ..runner(name, &["exec"], Operand::Skip)
    }
}

/// `conda run` and its clones (`mamba`, `micromamba`): `-n ENV`/`-p PREFIX`, `--cwd DIR`.
const fn conda(name: &'static str) -> Runner {
    Runner {
        values: &["-n", "--name", "-p", "--prefix", "--cwd"],
        flags: &[
            "--no-capture-output",
            "--live-stream",
            "-a",
            "--attach",
            "-v",
            "--verbose",
            "--debug",
        ],
        chdir: &["--cwd"],
        ..runner(name, &["run"], Operand::Command)
    }
}

/// The runners, by command name. `sub` lists alternatives (`npm exec` or `npm x`).
static RUNNERS: &[Runner] = &[
    Runner {
        globals: &[
            "--directory",
            "--project",
            "--config-file",
            "--cache-dir",
            "--color",
        ],
        values: UV_VALUES,
        flags: UV_FLAGS,
        chdir: &["--directory"],
        ..runner("uv", &["run"], Operand::Command)
    },
    Runner {
        values: UV_VALUES,
        flags: UV_FLAGS,
        package: &["--from"],
        ..runner("uvx", NONE, Operand::Package)
    },
    Runner {
        globals: &["-C", "--directory", "-P", "--project"],
        flags: &[
            "-q",
            "--quiet",
            "-v",
            "-vv",
            "-vvv",
            "-n",
            "--no-interaction",
            "--ansi",
        ],
        chdir: &["-C", "--directory"],
        ..runner("poetry", &["run"], Operand::Command)
    },
    Runner {
        globals: &["--python"],
        ..runner("pipenv", &["run"], Operand::Command)
    },
    Runner {
        globals: &["-p", "--project", "-c", "--config"],
        flags: &["-s", "--site-packages", "-l", "--list", "-v", "-q"],
        ..runner("pdm", &["run"], Operand::Command)
    },
    Runner {
        values: &["--pyproject"],
        ..runner("rye", &["run"], Operand::Command)
    },
    Runner {
        globals: &[
            "-e",
            "--env",
            "-p",
            "--project",
            "--data-dir",
            "--cache-dir",
            "--config",
        ],
        ..runner("hatch", &["run"], Operand::Command)
    },
    conda("conda"),
    conda("mamba"),
    conda("micromamba"),
    Runner {
        values: &["-e", "--environment", "--manifest-path"],
        flags: &["--frozen", "--locked", "-v", "-q"],
        ..runner("pixi", &["run", "exec"], Operand::Command)
    },
    Runner {
        values: &["--spec", "--python", "--index-url", "--pip-args"],
        flags: &["--no-cache", "--verbose", "--pypackages", "--editable"],
        package: &["--spec"],
        ..runner("pipx", &["run"], Operand::Package)
    },
    Runner {
        globals: &["-C", "--dir", "--filter", "-F", "--workspace-dir"],
        flags: NPX_FLAGS,
        chdir: &["-C", "--dir"],
        shell: &["-c", "--shell-mode"],
        ..runner("pnpm", &["exec"], Operand::Command)
    },
    Runner {
        globals: &["-C", "--dir"],
        values: &["--package"],
        flags: NPX_FLAGS,
        chdir: &["-C", "--dir"],
        package: &["--package"],
        ..runner("pnpm", &["dlx"], Operand::Package)
    },
    Runner {
        values: &["--package"],
        flags: NPX_FLAGS,
        package: &["--package"],
        ..runner("pnpx", NONE, Operand::Package)
    },
    Runner {
        globals: &["--cwd"],
        flags: NPX_FLAGS,
        chdir: &["--cwd"],
        always_shell: true,
        ..runner("yarn", &["exec"], Operand::Command)
    },
    Runner {
        globals: &["--cwd"],
        values: &["-p", "--package"],
        flags: NPX_FLAGS,
        chdir: &["--cwd"],
        package: &["-p", "--package"],
        ..runner("yarn", &["dlx"], Operand::Package)
    },
    Runner {
        globals: &["--prefix", "-w", "--workspace"],
        values: &["-p", "--package", "-c", "--call", "--node-options"],
        flags: NPX_FLAGS,
        code: &["-c", "--call"],
        package: &["-p", "--package"],
        ..runner("npm", &["exec", "x"], Operand::Package)
    },
    Runner {
        values: &[
            "-p",
            "--package",
            "-c",
            "--call",
            "--cache",
            "--node-options",
        ],
        flags: NPX_FLAGS,
        code: &["-c", "--call"],
        package: &["-p", "--package"],
        ..runner("npx", NONE, Operand::Package)
    },
    Runner {
        values: &["-p", "--package"],
        flags: NPX_FLAGS,
        package: &["-p", "--package"],
        ..runner("bunx", NONE, Operand::Package)
    },
    Runner {
        values: &["-p", "--package"],
        flags: NPX_FLAGS,
        package: &["-p", "--package"],
        ..runner("bun", &["x"], Operand::Package)
    },
    Runner {
        globals: &["-C", "--cd", "-E", "--env"],
        values: &["-j", "--jobs"],
        flags: &["--raw", "-q", "--quiet", "-v", "--verbose", "-y", "--yes"],
        code: &["-c", "--command"],
        chdir: &["-C", "--cd"],
        ..runner("mise", &["exec", "x"], Operand::Tools)
    },
    runner("asdf", &["exec"], Operand::Command),
    runner("direnv", &["exec"], Operand::Directory),
    Runner {
        values: &["-e", "-v", "-c", "-p", "-f", "--file"],
        flags: &["--debug", "--quiet", "-o", "--override", "--no-override"],
        skip_word: Some("run"),
        ..runner("dotenv", NONE, Operand::Command)
    },
    Runner {
        values: &[
            "-p",
            "--packages",
            "-A",
            "--attr",
            "-I",
            "--include",
            "-E",
            "--expr",
        ],
        flags: &[
            "--pure",
            "--impure",
            "-v",
            "--verbose",
            "-Q",
            "--no-build-output",
        ],
        code: &["--run", "--command"],
        ..runner("nix-shell", NONE, Operand::CodeOnly)
    },
    Runner {
        rest: &["-c", "--command"],
        ..runner("nix", &["develop", "shell"], Operand::CodeOnly)
    },
    Runner {
        values: &["--gemfile"],
        flags: &["--keep-file-descriptors"],
        ..runner("bundle", &["exec"], Operand::Command)
    },
    runner("shx", NONE, Operand::Command),
    // Command prefixes: tools that exec their operands as a command after changing how it
    // runs (a profile, a limit, a proxy, a fake root, a loader). GTFOBins lists each as a way
    // to "spawn a shell"; for the agent the danger is the command, judged as typed directly.
    Runner {
        values: &["-p", "--profile", "-n", "--namespace"],
        flags: &["-i", "--immediate", "-v", "--verbose", "-d", "--debug"],
        ..runner("aa-exec", NONE, Operand::Command)
    },
    runner("aoss", NONE, Operand::Command),
    runner("padsp", NONE, Operand::Command),
    runner("pasuspender", NONE, Operand::Command),
    Runner {
        values: &["-n", "--adjust", "-p", "--pid"],
        ..runner("choom", NONE, Operand::Command)
    },
    Runner {
        values: &["-l", "--limit", "-p", "--pid", "-e", "--exe", "-c", "--cpu"],
        flags: &[
            "-f",
            "--foreground",
            "-z",
            "--lazy",
            "-k",
            "--kill",
            "-r",
            "--restore",
            "-v",
            "-q",
        ],
        ..runner("cpulimit", NONE, Operand::Command)
    },
    runner("distcc", NONE, Operand::Command),
    Runner {
        values: &["-n", "-s", "-i", "-o"],
        flags: &["-q", "-v"],
        ..runner("multitime", NONE, Operand::Command)
    },
    runner("pexec", NONE, Operand::Command),
    Runner {
        values: &[
            "-e",
            "--event",
            "-o",
            "--output",
            "-r",
            "--repeat",
            "-G",
            "--cgroup",
            "-C",
            "--cpu",
            "-x",
            "--field-separator",
        ],
        flags: &[
            "-a",
            "--all-cpus",
            "-d",
            "--detailed",
            "-g",
            "--call-graph",
            "-q",
            "--quiet",
            "-v",
            "--verbose",
            "-n",
            "--null",
        ],
        ..runner("perf", &["stat", "record", "trace"], Operand::Command)
    },
    Runner {
        values: &[
            "-a",
            "-b",
            "-f",
            "-H",
            "-l",
            "-o",
            "-p",
            "-P",
            "-s",
            "-S",
            "-t",
            "-w",
            "-z",
            "--logfile",
            "--histsize",
            "--file",
            "--history-filename",
            "--prompt-colour",
            "--pre-given",
            "--substitute-prompt",
            "--set-term-name",
            "--polling",
        ],
        flags: &[
            "-A",
            "-c",
            "-C",
            "-D",
            "-e",
            "-i",
            "-m",
            "-n",
            "-N",
            "-r",
            "-R",
            "-v",
            "--ansi-colour-aware",
            "--remember",
            "--renice",
            "--no-warnings",
        ],
        ..runner("rlwrap", NONE, Operand::Command)
    },
    Runner {
        flags: &[
            "-3",
            "-B",
            "-F",
            "-I",
            "-L",
            "-R",
            "-S",
            "-T",
            "-X",
            "-Z",
            "-v",
            "--verbose",
            "--addr-no-randomize",
            "--uname-2.6",
            "--32bit",
            "--short-inode",
            "--whole-seconds",
            "--sticky-timeouts",
            "--read-implies-exec",
            "--addr-compat-layout",
            "--mmap-page-zero",
            "--fdpic-funcptrs",
        ],
        ..runner("setarch", NONE, Operand::Command)
    },
    Runner {
        flags: &["-n", "-N", "-x", "-X"],
        ..runner("setlock", NONE, Operand::Skip)
    },
    runner("envdir", NONE, Operand::Skip),
    Runner {
        values: &[
            "-m", "-d", "-s", "-l", "-a", "-o", "-p", "-f", "-c", "-r", "-t",
        ],
        ..runner("softlimit", NONE, Operand::Command)
    },
    Runner {
        values: &["-a", "-E", "-t", "-P", "-O"],
        flags: &["-c", "-s", "-D", "-d"],
        ..runner("ssh-agent", NONE, Operand::Command)
    },
    Runner {
        values: &["-p", "-f", "-d", "-P"],
        flags: &["-e", "-v", "-V", "-h"],
        ..runner("sshpass", NONE, Operand::Command)
    },
    runner("torify", NONE, Operand::Command),
    Runner {
        values: &[
            "-u",
            "--user",
            "-p",
            "--pass",
            "-a",
            "--address",
            "-P",
            "--port",
        ],
        flags: &[
            "-i",
            "--isolate",
            "-d",
            "--debug",
            "-q",
            "--quiet",
            "--shell",
        ],
        ..runner("torsocks", NONE, Operand::Command)
    },
    runner("proxychains", NONE, Operand::Command),
    Runner {
        values: &["-f"],
        flags: &["-q"],
        ..runner("proxychains4", NONE, Operand::Command)
    },
    runner("tsocks", NONE, Operand::Command),
    runner("valgrind", NONE, Operand::Command),
    Runner {
        values: &["--args"],
        flags: &["--sync", "--terms"],
        ..runner("xdotool", &["exec"], Operand::Command)
    },
    Runner {
        flags: &["--pty", "-e", "--stderr", "-s", "--stdout"],
        ..runner("grc", NONE, Operand::Command)
    },
    Runner {
        values: &["-l", "-i", "-s", "-b"],
        flags: &["-u", "-h", "-v"],
        ..runner("fakeroot", NONE, Operand::Command)
    },
    Runner {
        values: &[
            "-n",
            "--server-num",
            "-s",
            "--server-args",
            "-f",
            "--auth-file",
            "-e",
            "--error-file",
            "-p",
            "--xauth-protocol",
        ],
        flags: &["-a", "--auto-servernum", "-w", "--wait"],
        ..runner("xvfb-run", NONE, Operand::Command)
    },
    runner("dbus-run-session", NONE, Operand::Command),
    runner("dbus-launch", NONE, Operand::Command),
    Runner {
        values: &["-g"],
        flags: &["--sticky"],
        ..runner("cgexec", NONE, Operand::Command)
    },
    // File watchers run their operands on every change (and once at start with `entr -n`'s
    // siblings `-r`, `watchexec`'s default): the command is judged as if typed.
    Runner {
        flags: &["-a", "-c", "-d", "-n", "-p", "-r", "-z"],
        shell: &["-s"],
        ..runner("entr", NONE, Operand::Command)
    },
    Runner {
        values: &[
            "-w",
            "--watch",
            "-W",
            "--watch-non-recursive",
            "-e",
            "--exts",
            "-f",
            "--filter",
            "--filter-file",
            "-i",
            "--ignore",
            "--ignore-file",
            "-d",
            "--debounce",
            "--delay-run",
            "--signal",
            "--stop-signal",
            "--stop-timeout",
            "--on-busy-update",
            "--shell",
            "--project-origin",
            "-E",
            "--env",
            "--emit-events-to",
            "--poll",
            "--color",
            "--log-file",
        ],
        flags: &[
            "-c",
            "--clear",
            "-r",
            "--restart",
            "-N",
            "--notify",
            "-p",
            "--postpone",
            "-n",
            "-1",
            "-o",
            "-q",
            "--quiet",
        ],
        chdir: &["--workdir"],
        always_shell: true,
        ..runner("watchexec", NONE, Operand::Command)
    },
    Runner {
        values: &["--what", "--who", "--why", "--mode"],
        ..runner("systemd-inhibit", NONE, Operand::Command)
    },
    Runner {
        values: &["-p", "--pid"],
        ..runner("prlimit", NONE, Operand::Command)
    },
    Runner {
        values: &["-f", "-s"],
        flags: &["-m", "--exclude-monotonic", "--no-cache"],
        ..runner("faketime", NONE, Operand::Skip)
    },
    // The dynamic loader run directly: `ld.so PROG ARGS` runs PROG (and `--preload LIB`).
    loader("ld.so"),
    loader("ld-linux.so.2"),
    loader("ld-linux-x86-64.so.2"),
    loader("ld-linux-aarch64.so.1"),
    Runner {
        values: &["--project-file", "--project-dir", "--builddir"],
        ..runner("cabal", &["exec"], Operand::Command)
    },
    // Escapes from a sandbox or a subsystem to the host (invariant: a wrapper's command is
    // judged like the same command typed directly): `flatpak-spawn --host CMD` leaves the
    // Flatpak sandbox, `host-spawn`/`distrobox-host-exec` leave a toolbox or distrobox
    // container, `distrobox enter`/`toolbox run` enter one that shares the user's home, and
    // `wsl.exe` (called from WSL or Windows) runs a Linux command, through the distribution's
    // shell unless `-e`/`--exec` names the program.
    Runner {
        flags: &[
            "--host",
            "--watch-bus",
            "--expose-pids",
            "--share-pids",
            "--clear-env",
            "--latest-version",
            "--no-network",
            "--sandbox",
            "--verbose",
            "-v",
        ],
        chdir: &["--directory"],
        ..runner("flatpak-spawn", NONE, Operand::Command)
    },
    Runner {
        values: &["-env"],
        flags: &["-no-pty", "-pty", "-v"],
        chdir: &["-cwd"],
        ..runner("host-spawn", NONE, Operand::Command)
    },
    runner("distrobox-host-exec", NONE, Operand::Command),
    distrobox_enter("distrobox", &["enter"]),
    distrobox_enter("distrobox-enter", NONE),
    Runner {
        values: &["-c", "--container", "-d", "--distro", "-r", "--release"],
        ..runner("toolbox", &["run"], Operand::Command)
    },
    Runner {
        values: &[
            "-d",
            "--distribution",
            "--distribution-id",
            "-u",
            "--user",
            "--shell-type",
        ],
        flags: &["--system"],
        chdir: &["--cd"],
        rest: &["-e", "--exec"],
        always_shell: true,
        ..runner("wsl", NONE, Operand::Command)
    },
    // Privilege wrappers other than sudo/doas: polkit's `pkexec` and systemd's `run0` run
    // their command as root (or `--user`), `machinectl shell MACHINE CMD` in a container or
    // on `.host`.
    Runner {
        values: &["--user"],
        flags: &["--disable-internal-agent", "--keep-cwd"],
        ..runner("pkexec", NONE, Operand::Command)
    },
    Runner {
        values: &[
            "-u",
            "--user",
            "-g",
            "--group",
            "-M",
            "--machine",
            "--unit",
            "-p",
            "--property",
            "--description",
            "--slice",
            "--slice-inherit",
            "--nice",
            "--setenv",
            "--background",
            "--pty-late",
        ],
        flags: &["--no-ask-password", "-q", "--quiet", "--via-shell", "-i"],
        chdir: &["-D", "--chdir"],
        ..runner("run0", NONE, Operand::Command)
    },
    Runner {
        values: &["--uid", "-E", "--setenv", "-M", "--machine", "-H", "--host"],
        flags: &["-q", "--quiet"],
        ..runner("machinectl", &["shell"], Operand::Skip)
    },
    // Ray's job submission runs the entrypoint after `--` on the cluster (`ray job submit
    // --address http://ray.prod:8265 -- bash -c 'rm -rf /mnt/shared/*'`): a remote command.
    Runner {
        values: &[
            "--address",
            "--job-id",
            "--submission-id",
            "--runtime-env",
            "--runtime-env-json",
            "--working-dir",
            "--entrypoint-num-cpus",
            "--entrypoint-num-gpus",
            "--entrypoint-memory",
            "--entrypoint-resources",
            "--metadata-json",
            "--log-style",
            "--log-color",
            "--headers",
        ],
        flags: &["--no-wait", "-v", "--verbose"],
        remote: true,
        // `job`, then `submit [OPTIONS] -- ENTRYPOINT`: the command is what follows `--`.
        ..runner("ray", &["job"], Operand::Tools)
    },
    // Ad-hoc commands on many hosts at once: the operands are the command line each host's
    // shell runs (`ssh host CMD`, times the inventory).
    pssh("pssh"),
    pssh("parallel-ssh"),
    Runner {
        values: &["-w", "-x", "-R", "-l", "-t", "-u", "-f", "-g", "-X", "-N"],
        flags: &["-S", "-b", "-d", "-L", "-V", "-q", "-a", "-A"],
        always_shell: true,
        remote: true,
        ..runner("pdsh", NONE, Operand::Command)
    },
    Runner {
        values: &[
            "-w", "-x", "-g", "-X", "-l", "-f", "-t", "-u", "-O", "--option",
        ],
        flags: &[
            "-a", "--all", "-b", "-B", "-L", "-N", "-q", "-S", "-v", "-d",
        ],
        always_shell: true,
        remote: true,
        ..runner("clush", NONE, Operand::Command)
    },
    // Batch and cluster launchers: the job is the command (or script) they are given, run on
    // compute nodes that share this machine's home and project filesystems, so it is judged
    // as if typed here (`srun rm -rf ~` deletes the same home). `sbatch --wrap 'CMD'` wraps
    // shell code; `sbatch job.sh` runs the script. Unknown options (`-N4`) are read both
    // ways, as for every runner.
    Runner {
        code: &["--wrap"],
        ..slurm("sbatch")
    },
    slurm("srun"),
    slurm("salloc"),
    // Apptainer/Singularity `exec IMAGE CMD`: the container shares the host's home, the
    // working directory and /tmp by default (HPC containers are no isolation), so the command
    // is judged as if typed here (`apptainer exec img.sif rm -rf ~/.ssh` deletes this home).
    // Binds of critical host directories are `docker.host_mount` (resolve.rs).
    apptainer("apptainer"),
    apptainer("singularity"),
    // Grid Engine / PBS `qsub -b y CMD` (or `qsub -- CMD`) and LSF `bsub CMD`: the words go
    // through the job's shell; without `-b y` the operand is a job script, run the same way.
    Runner {
        values: &[
            "-N",
            "-q",
            "-l",
            "-o",
            "-e",
            "-j",
            "-A",
            "-W",
            "-v",
            "-P",
            "-pe",
            "-wd",
            "-b",
            "-S",
            "-M",
            "-m",
            "-t",
            "-hold_jid",
            "-sync",
            "-p",
            "-a",
            "-c",
            "-C",
            "-r",
            "-u",
            "-R",
            "-js",
            "-binding",
            "-now",
            "-shell",
        ],
        flags: &["-V", "-cwd", "-I", "-X", "-h", "-z", "-terse", "-notify"],
        chdir: &["-wd"],
        always_shell: true,
        ..runner("qsub", NONE, Operand::Command)
    },
    Runner {
        values: &[
            "-n", "-q", "-J", "-o", "-e", "-oo", "-eo", "-W", "-R", "-M", "-P", "-G", "-m", "-u",
            "-w", "-gpu", "-cwd", "-app", "-sla", "-Ep", "-E", "-L", "-g", "-i", "-c", "-D", "-S",
            "-v", "-C", "-Jd", "-We", "-sp", "-data",
        ],
        flags: &[
            "-I", "-Ip", "-Is", "-K", "-B", "-N", "-x", "-H", "-r", "-rn", "-tty",
        ],
        chdir: &["-cwd"],
        always_shell: true,
        ..runner("bsub", NONE, Operand::Command)
    },
    Runner {
        values: &[
            "-N",
            "--nodes",
            "-n",
            "--ntasks",
            "-c",
            "--cores-per-task",
            "-g",
            "--gpus-per-task",
            "-t",
            "--time-limit",
            "-o",
            "--setopt",
            "-S",
            "--setattr",
            "-q",
            "--queue",
            "--job-name",
            "--output",
            "--error",
            "--input",
            "--cwd",
            "--env",
            "--env-remove",
            "--urgency",
            "--dependency",
            "--begin-time",
            "--requires",
            "-B",
            "--bank",
        ],
        flags: &[
            "--wait",
            "--exclusive",
            "-v",
            "--verbose",
            "--watch",
            "--unbuffered",
            "-l",
            "--label-io",
        ],
        chdir: &["--cwd"],
        ..runner(
            "flux",
            &["run", "submit", "alloc", "batch"],
            Operand::Command,
        )
    },
    mpi("mpirun"),
    mpi("mpiexec"),
    mpi("mpiexec.hydra"),
    mpi("orterun"),
    mpi("prterun"),
    Runner {
        values: &[
            "-n", "-N", "-d", "-cc", "-j", "-S", "-L", "-m", "-p", "-q", "-r", "-e",
        ],
        ..runner("aprun", NONE, Operand::Command)
    },
    Runner {
        values: &[
            "-n",
            "--nrs",
            "-a",
            "--tasks_per_rs",
            "-c",
            "--cpu_per_rs",
            "-g",
            "--gpu_per_rs",
            "-r",
            "--rs_per_host",
            "-b",
            "--bind",
            "-d",
            "--launch_distribution",
            "-h",
            "--chdir",
        ],
        chdir: &["-h", "--chdir"],
        ..runner("jsrun", NONE, Operand::Command)
    },
    // Secret managers' runners: `op run -- CMD`, `doppler run -- CMD` (or `--command 'sh
    // code'`), `infisical run --env prod -- CMD`, `dotenvx run -- CMD`, `aws-vault exec
    // PROFILE -- CMD`, `teller run -- CMD` run CMD here with the secrets in its environment:
    // judged as the command typed here (its `$STRIPE_SECRET_KEY` is the secret).
    Runner {
        values: &["--env-file", "--account", "--environment"],
        flags: &["--no-masking"],
        ..runner("op", &["run"], Operand::Command)
    },
    Runner {
        values: &[
            "-p",
            "--project",
            "-c",
            "--config",
            "--token",
            "--fallback",
            "--name-transformer",
            "--mount",
        ],
        flags: &["--preserve-env", "--watch", "--forward-signals"],
        code: &["--command"],
        ..runner("doppler", &["run"], Operand::Command)
    },
    Runner {
        values: &[
            "--env",
            "--projectId",
            "--path",
            "--token",
            "--domain",
            "--tags",
        ],
        flags: &["--expand", "--include-imports", "--silent", "--watch"],
        code: &["--command"],
        ..runner("infisical", &["run"], Operand::Command)
    },
    Runner {
        values: &["-f", "--env-file", "-e", "--env", "--convention"],
        flags: &["--overload", "--strict", "--quiet", "--verbose", "--debug"],
        ..runner("dotenvx", &["run"], Operand::Command)
    },
    Runner {
        values: &[
            "-d",
            "--duration",
            "--region",
            "-t",
            "--mfa-token",
            "--ec2-server",
        ],
        flags: &[
            "--no-session",
            "-n",
            "--server",
            "-s",
            "--json",
            "-j",
            "--prompt",
        ],
        ..runner("aws-vault", &["exec"], Operand::Skip)
    },
    runner("teller", &["run"], Operand::Command),
    // `railway run CMD` runs CMD here with the linked environment's variables (production
    // database URLs included): judged as the command typed here.
    Runner {
        values: &["-s", "--service", "-e", "--environment"],
        ..runner("railway", &["run"], Operand::Command)
    },
];

/// Slurm's `sbatch`/`srun`/`salloc`: the options that take a value and those that do not.
const fn slurm(name: &'static str) -> Runner {
    Runner {
        values: &[
            "-A",
            "--account",
            "-p",
            "--partition",
            "-N",
            "--nodes",
            "-n",
            "--ntasks",
            "-c",
            "--cpus-per-task",
            "-t",
            "--time",
            "-J",
            "--job-name",
            "-o",
            "--output",
            "-e",
            "--error",
            "-i",
            "--input",
            "--mem",
            "--mem-per-cpu",
            "--mem-per-gpu",
            "--gres",
            "--gpus",
            "-G",
            "--gpus-per-node",
            "--gpus-per-task",
            "-a",
            "--array",
            "-D",
            "--chdir",
            "-q",
            "--qos",
            "-C",
            "--constraint",
            "--mail-type",
            "--mail-user",
            "--ntasks-per-node",
            "-d",
            "--dependency",
            "-w",
            "--nodelist",
            "-x",
            "--exclude",
            "--export",
            "--time-min",
            "-b",
            "--begin",
            "--reservation",
            "--wckey",
            "--comment",
            "-M",
            "--clusters",
            "--cpu-bind",
            "-m",
            "--distribution",
            "--signal",
            "-L",
            "--licenses",
            "--mpi",
        ],
        flags: &[
            "--exclusive",
            "--requeue",
            "--no-requeue",
            "-H",
            "--hold",
            "--parsable",
            "-Q",
            "--quiet",
            "-v",
            "--verbose",
            "-O",
            "--overcommit",
            "-s",
            "--oversubscribe",
            "--test-only",
            "--pty",
            "-l",
            "--label",
            "-u",
            "--unbuffered",
            "-K",
            "--kill-on-bad-exit",
            "-X",
            "--disable-status",
            "--contiguous",
            "-k",
            "--no-kill",
        ],
        chdir: &["-D", "--chdir"],
        ..runner(name, NONE, Operand::Command)
    }
}

/// MPI launchers (Open MPI, MPICH/Hydra, PRRTE): every rank runs the command.
const fn mpi(name: &'static str) -> Runner {
    Runner {
        values: &[
            "-np",
            "-n",
            "-c",
            "-N",
            "-npernode",
            "--npernode",
            "-ppn",
            "--hostfile",
            "-hostfile",
            "--machinefile",
            "-machinefile",
            "-f",
            "-host",
            "--host",
            "-hosts",
            "-H",
            "--map-by",
            "--bind-to",
            "--rank-by",
            "-x",
            "-wdir",
            "--wdir",
            "-wd",
            "--prefix",
            "-launcher",
            "-bootstrap",
            "-iface",
            "--output-filename",
        ],
        flags: &[
            "--oversubscribe",
            "--allow-run-as-root",
            "-v",
            "--verbose",
            "--tag-output",
            "--timestamp-output",
            "-q",
            "--quiet",
            "--report-bindings",
            "--display-map",
            "-l",
            "-prepend-rank",
        ],
        chdir: &["-wdir", "--wdir", "-wd"],
        ..runner(name, NONE, Operand::Command)
    }
}

/// How a remote verb's code option carries its command lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CodeForm {
    /// The value is one command line (`--command 'CMD'`).
    Line,
    /// Parameters or settings whose KEY (the first of these found) holds the command lines,
    /// in the CLI's shorthand (`commands='CMD'`, `commands=["A","B"]`) or JSON
    /// (`{"commands":["A"]}`, `{"commandToExecute":"CMD"}`).
    Keyed(&'static [&'static str]),
    /// Instance metadata whose `startup-script` key is a script the VM runs at its next
    /// boot (or at once, through the guest agent, for a running one).
    StartupScript,
}

/// A cloud, orchestration or fleet CLI verb that runs a command on another machine: a VM
/// (`gcloud compute ssh VM --command CMD`, `az vm run-command invoke --scripts CMD`, `aws
/// ssm send-command`), a workload (`nomad alloc exec`, `aws ecs execute-command`, `lxc
/// exec`), or a fleet (`knife ssh`, `bolt command run`, `dsh`). The command is judged as
/// `ssh host CMD` is (DISAGREEMENTS wt-r7a): in a scope whose paths are the remote's.
#[derive(Debug)]
struct RemoteVerb {
    name: &'static str,
    /// Subcommand words, in order, as the first operands (`["compute", "ssh"]`).
    path: &'static [&'static str],
    /// Options that take a value (before or after the path).
    values: &'static [&'static str],
    /// Options whose value is a command line the remote runs.
    code: &'static [&'static str],
    /// A code option takes every following non-option word (`--scripts A B`).
    multi: bool,
    form: CodeForm,
    /// Operands before the command (a host, an allocation, a container); `None`: the
    /// operands are not a command.
    operands: Option<usize>,
    /// After `--` (and the operands) the words are the command.
    dashdash: bool,
    /// The remote runs the command words through a shell (`ssh`-like): judged as joined code.
    shell: bool,
    /// The remote is Windows: the command runs through `cmd.exe`.
    windows: bool,
    /// A local VM that mounts the user's home at the same path (Lima, Colima, OrbStack):
    /// its paths are this machine's files, so the command is judged as if typed here.
    shared_home: bool,
}

const fn remote(name: &'static str, path: &'static [&'static str]) -> RemoteVerb {
    RemoteVerb {
        name,
        path,
        values: NONE,
        code: NONE,
        multi: false,
        form: CodeForm::Line,
        operands: None,
        dashdash: false,
        shell: true,
        windows: false,
        shared_home: false,
    }
}

/// Global options of the cloud CLIs that take a value (they may precede the subcommand).
const AWS_VALUES: &[&str] = &[
    "--region",
    "--profile",
    "--output",
    "--endpoint-url",
    "--query",
    "--cli-input-json",
    "--cli-read-timeout",
    "--cli-connect-timeout",
    "--color",
    "--ca-bundle",
];
const GCLOUD_VALUES: &[&str] = &[
    "--project",
    "--zone",
    "--region",
    "--account",
    "--configuration",
    "--format",
    "--verbosity",
    "--impersonate-service-account",
    "--ssh-key-file",
    "--ssh-flag",
    "--container",
    "--strict-host-key-checking",
    "--internal-ip",
    "--worker",
];
const AZ_VALUES: &[&str] = &[
    "-g",
    "--resource-group",
    "-n",
    "--name",
    "--subscription",
    "-o",
    "--output",
    "--query",
    "--command-id",
    "--parameters",
    "--ids",
    "--vm-name",
    "--instance-id",
    "--location",
    "-l",
    "--container-name",
];

/// The remote verbs (data; one line per tool verb).
const REMOTE_VERBS: &[RemoteVerb] = &[
    RemoteVerb {
        values: &[
            "--region",
            "--profile",
            "--output",
            "--endpoint-url",
            "--query",
            "--document-name",
            "--document-version",
            "--targets",
            "--instance-ids",
            "--comment",
            "--timeout-seconds",
            "--output-s3-bucket-name",
            "--output-s3-key-prefix",
            "--max-concurrency",
            "--max-errors",
            "--service-role-arn",
            "--cloud-watch-output-config",
        ],
        code: &["--parameters"],
        form: CodeForm::Keyed(SSM_KEYS),
        ..remote("aws", &["ssm", "send-command"])
    },
    RemoteVerb {
        values: AWS_VALUES,
        code: &["--command"],
        ..remote("aws", &["ecs", "execute-command"])
    },
    RemoteVerb {
        values: &[
            "--region",
            "--profile",
            "--output",
            "--endpoint-url",
            "--target",
            "--document-name",
            "--reason",
        ],
        code: &["--parameters"],
        form: CodeForm::Keyed(SSM_KEYS),
        ..remote("aws", &["ssm", "start-session"])
    },
    // Code a new or existing VM runs at boot or through its agent: EC2 user data, GCE
    // startup scripts, Azure's Custom Script extension (`commandToExecute`).
    RemoteVerb {
        values: &[
            "--image-id",
            "--instance-type",
            "--key-name",
            "--count",
            "--subnet-id",
            "--security-group-ids",
            "--region",
            "--profile",
            "--iam-instance-profile",
            "--tag-specifications",
        ],
        code: &["--user-data"],
        ..remote("aws", &["ec2", "run-instances"])
    },
    RemoteVerb {
        values: GCLOUD_VALUES,
        code: &["--metadata"],
        form: CodeForm::StartupScript,
        ..remote("gcloud", &["compute", "instances", "create"])
    },
    RemoteVerb {
        values: AZ_VALUES,
        code: &["--settings", "--protected-settings"],
        form: CodeForm::Keyed(&["commandToExecute"]),
        ..remote("az", &["vm", "extension", "set"])
    },
    RemoteVerb {
        values: AZ_VALUES,
        code: &["--settings", "--protected-settings"],
        form: CodeForm::Keyed(&["commandToExecute"]),
        ..remote("az", &["vmss", "extension", "set"])
    },
    RemoteVerb {
        values: AZ_VALUES,
        code: &["--command"],
        ..remote("az", &["aks", "command", "invoke"])
    },
    RemoteVerb {
        values: AZ_VALUES,
        code: &["--command"],
        ..remote("az", &["containerapp", "exec"])
    },
    RemoteVerb {
        values: &[
            "--ssh-key-path",
            "--ssh-user",
            "--ssh-port",
            "-t",
            "--access-token",
            "--context",
            "-o",
            "--output",
        ],
        code: &["--ssh-command"],
        ..remote("doctl", &["compute", "ssh"])
    },
    RemoteVerb {
        values: &[
            "-u",
            "--user",
            "-p",
            "--port",
            "--context",
            "-o",
            "--output",
        ],
        operands: Some(1),
        dashdash: true,
        ..remote("hcloud", &["server", "ssh"])
    },
    RemoteVerb {
        values: &[
            "-n",
            "--number",
            "-i",
            "--instance",
            "--profile",
            "--region",
            "-e",
            "--custom",
        ],
        code: &["--command"],
        ..remote("eb", &["ssh"])
    },
    RemoteVerb {
        values: &["--native-ssh"],
        operands: Some(1),
        dashdash: true,
        ..remote("docker-machine", &["ssh"])
    },
    RemoteVerb {
        values: &[
            "-node",
            "-service",
            "-tag",
            "-wait",
            "-wait-repl",
            "-http-addr",
            "-token",
            "-token-file",
            "-datacenter",
            "-prefix",
        ],
        operands: Some(0),
        ..remote("consul", &["exec"])
    },
    RemoteVerb {
        values: &["-l", "-p"],
        operands: Some(1),
        ..remote("rsh", &[])
    },
    RemoteVerb {
        values: &["--workdir", "--shell"],
        operands: Some(1),
        dashdash: true,
        shell: false,
        shared_home: true,
        ..remote("limactl", &["shell"])
    },
    RemoteVerb {
        values: &["--workdir", "--shell"],
        operands: Some(0),
        dashdash: true,
        shell: false,
        shared_home: true,
        ..remote("lima", &[])
    },
    RemoteVerb {
        values: &["-p", "--profile"],
        operands: Some(0),
        dashdash: true,
        shell: false,
        shared_home: true,
        ..remote("colima", &["ssh"])
    },
    RemoteVerb {
        values: &["-m", "--machine", "-u", "--user", "-w", "--workdir"],
        operands: Some(0),
        dashdash: true,
        shell: false,
        shared_home: true,
        ..remote("orbctl", &["run"])
    },
    RemoteVerb {
        values: &["-m", "--machine", "-u", "--user", "-w", "--workdir"],
        operands: Some(0),
        dashdash: true,
        shell: false,
        shared_home: true,
        ..remote("orb", &[])
    },
    RemoteVerb {
        values: GCLOUD_VALUES,
        code: &["--command"],
        dashdash: true,
        ..remote("gcloud", &["compute", "ssh"])
    },
    RemoteVerb {
        values: GCLOUD_VALUES,
        code: &["--command"],
        dashdash: true,
        ..remote("gcloud", &["compute", "tpus", "tpu-vm", "ssh"])
    },
    RemoteVerb {
        values: GCLOUD_VALUES,
        code: &["--command"],
        dashdash: true,
        ..remote("gcloud", &["cloud-shell", "ssh"])
    },
    RemoteVerb {
        values: GCLOUD_VALUES,
        code: &["--metadata"],
        form: CodeForm::StartupScript,
        ..remote("gcloud", &["compute", "instances", "add-metadata"])
    },
    RemoteVerb {
        values: AZ_VALUES,
        code: &["--scripts"],
        multi: true,
        ..remote("az", &["vm", "run-command", "invoke"])
    },
    RemoteVerb {
        values: AZ_VALUES,
        code: &["--scripts"],
        multi: true,
        ..remote("az", &["vmss", "run-command", "invoke"])
    },
    RemoteVerb {
        values: AZ_VALUES,
        code: &["--script"],
        ..remote("az", &["vm", "run-command", "create"])
    },
    RemoteVerb {
        values: AZ_VALUES,
        code: &["--exec-command"],
        ..remote("az", &["container", "exec"])
    },
    RemoteVerb {
        values: &[
            "-task",
            "-e",
            "-namespace",
            "-address",
            "-region",
            "-token",
            "-ca-cert",
            "-ca-path",
            "-client-cert",
            "-client-key",
            "-tls-server-name",
        ],
        operands: Some(1),
        dashdash: true,
        shell: false,
        ..remote("nomad", &["alloc", "exec"])
    },
    RemoteVerb {
        values: &[
            "-l",
            "--login",
            "-p",
            "--port",
            "-L",
            "--forward",
            "-J",
            "--jumphost",
            "--proxy",
            "--cluster",
            "--user",
            "-o",
            "--option",
            "--request-reason",
            "--request-id",
            "--auth",
        ],
        operands: Some(1),
        dashdash: true,
        ..remote("tsh", &["ssh"])
    },
    RemoteVerb {
        values: &[
            "-target-id",
            "-target-name",
            "-target-scope-id",
            "-target-scope-name",
            "-addr",
            "-token",
            "-username",
            "-host-id",
            "-style",
            "-authz-token",
            "-listen-addr",
            "-listen-port",
        ],
        dashdash: true,
        ..remote("boundary", &["connect", "ssh"])
    },
    RemoteVerb {
        code: &["-c", "--command"],
        ..remote("vagrant", &["ssh"])
    },
    RemoteVerb {
        values: &["-d", "--working-directory"],
        operands: Some(1),
        dashdash: true,
        shell: false,
        ..remote("multipass", &["exec"])
    },
    RemoteVerb {
        values: &["--env", "--user", "--group", "--cwd", "--mode", "--project"],
        operands: Some(1),
        dashdash: true,
        shell: false,
        ..remote("lxc", &["exec"])
    },
    RemoteVerb {
        values: &["--env", "--user", "--group", "--cwd", "--mode", "--project"],
        operands: Some(1),
        dashdash: true,
        shell: false,
        ..remote("incus", &["exec"])
    },
    RemoteVerb {
        values: &["--timeout", "-r", "--runtime-endpoint", "-e"],
        operands: Some(1),
        dashdash: true,
        shell: false,
        ..remote("crictl", &["exec"])
    },
    RemoteVerb {
        values: &[
            "--unit",
            "-u",
            "--machine",
            "--application",
            "-a",
            "--app",
            "--timeout",
            "--format",
            "-o",
            "--output",
            "-m",
            "--model",
        ],
        operands: Some(0),
        dashdash: true,
        ..remote("juju", &["exec"])
    },
    RemoteVerb {
        values: &["-m", "--model", "--container"],
        operands: Some(1),
        dashdash: true,
        ..remote("juju", &["ssh"])
    },
    RemoteVerb {
        values: &[
            "-n",
            "--name",
            "--workdir",
            "--env",
            "--env-file",
            "--num-nodes",
            "--gpus",
            "--cloud",
            "--region",
            "--zone",
        ],
        operands: Some(1),
        ..remote("sky", &["exec"])
    },
    RemoteVerb {
        values: &[
            "-H",
            "--hosts",
            "-i",
            "--identity",
            "-c",
            "--collection",
            "-r",
            "--search-root",
            "-S",
            "--ssh-config",
            "-f",
            "--config",
            "-u",
            "--user",
            "-x",
            "--exclude-hosts",
        ],
        dashdash: true,
        ..remote("fab", &[])
    },
    RemoteVerb {
        values: &[
            "--user",
            "--port",
            "--key",
            "--key-password",
            "--password",
            "--sudo-user",
            "--su-user",
            "--limit",
            "--data",
            "--group-data",
            "--config",
            "--chdir",
            "--parallel",
        ],
        dashdash: true,
        ..remote("pyinfra", &[])
    },
    RemoteVerb {
        values: &[
            "-x",
            "--ssh-user",
            "-a",
            "--attribute",
            "-i",
            "--ssh-identity-file",
            "-p",
            "--ssh-port",
            "-C",
            "--concurrency",
            "-G",
            "--ssh-gateway",
            "-P",
            "--ssh-password",
        ],
        operands: Some(1),
        ..remote("knife", &["ssh"])
    },
    RemoteVerb {
        values: &[
            "-t",
            "--targets",
            "-q",
            "--query",
            "--rerun",
            "-u",
            "--user",
            "-p",
            "--password",
            "--run-as",
            "-i",
            "--inventoryfile",
            "--env-var",
            "--transport",
            "--concurrency",
        ],
        operands: Some(0),
        ..remote("bolt", &["command", "run"])
    },
    RemoteVerb {
        values: &["-p", "--project", "-F", "--filter", "-C", "--threadcount"],
        dashdash: true,
        ..remote("rd", &["adhoc"])
    },
    RemoteVerb {
        values: &[
            "--ssh",
            "-p",
            "--port",
            "--server",
            "--client",
            "--predict",
            "--family",
            "--bind-server",
            "--experimental-remote-ip",
        ],
        operands: Some(1),
        dashdash: true,
        shell: false,
        ..remote("mosh", &[])
    },
    RemoteVerb {
        values: &[
            "-m",
            "--machine",
            "-g",
            "--group",
            "-r",
            "--remoteshell",
            "-o",
            "--remoteshellopt",
            "-F",
            "--forklimit",
            "-f",
            "--file",
            "-N",
        ],
        operands: Some(0),
        dashdash: true,
        ..remote("dsh", &[])
    },
    RemoteVerb {
        values: &[
            "-h", "-H", "-l", "-L", "-o", "-t", "-m", "-s", "-i", "-C", "-po",
        ],
        code: &["-c"],
        ..remote("mussh", &[])
    },
    RemoteVerb {
        values: &[
            "-P",
            "-l",
            "-pw",
            "-pwfile",
            "-i",
            "-m",
            "-L",
            "-R",
            "-D",
            "-hostkey",
            "-proxycmd",
            "-sercfg",
            "-loghost",
            "-sshlog",
            "-sshrawlog",
        ],
        operands: Some(1),
        ..remote("plink", &[])
    },
    RemoteVerb {
        values: &["-u", "-p", "-w", "-n", "-h", "-a", "-r", "-f"],
        operands: Some(1),
        shell: false,
        ..remote("psexec", &[])
    },
    RemoteVerb {
        operands: Some(0),
        windows: true,
        ..remote("winrs", &[])
    },
    // A device's shell over the Android debug bridge (and HarmonyOS's `hdc`): the words
    // after `shell`/`exec-out` are one command line the device's `sh` runs, like ssh's.
    RemoteVerb {
        values: ADB_VALUES,
        operands: Some(0),
        ..remote("adb", &["shell"])
    },
    RemoteVerb {
        values: ADB_VALUES,
        operands: Some(0),
        ..remote("adb", &["exec-out"])
    },
    RemoteVerb {
        values: &["-t", "-s"],
        operands: Some(0),
        ..remote("hdc", &["shell"])
    },
    // Fly.io: `fly ssh console -a APP -C CMD` runs CMD on the app's machine.
    fly_ssh("fly"),
    fly_ssh("flyctl"),
    // Zowe: `zowe zos-uss issue ssh 'rm -rf /u/app'` runs a command line in the mainframe's
    // z/OS UNIX shell (the group and verb have short aliases: `uss`, `iss`).
    zowe_ssh(&["zos-uss", "issue", "ssh"]),
    zowe_ssh(&["zos-uss", "iss", "ssh"]),
    zowe_ssh(&["uss", "issue", "ssh"]),
    zowe_ssh(&["uss", "iss", "ssh"]),
];

/// `fly ssh console -C CMD` (the CLI is installed as `fly` and `flyctl`).
const fn fly_ssh(name: &'static str) -> RemoteVerb {
    RemoteVerb {
        values: &[
            "-a",
            "--app",
            "-r",
            "--region",
            "-s",
            "--select",
            "-u",
            "--user",
            "--machine",
            "--process-group",
        ],
        code: &["-C", "--command"],
        ..remote(name, &["ssh", "console"])
    }
}

/// `zowe GROUP VERB ssh COMMAND`: the first operand is the remote shell's command line.
const fn zowe_ssh(path: &'static [&'static str]) -> RemoteVerb {
    RemoteVerb {
        values: &[
            "--cwd",
            "--zosmf-profile",
            "--ssh-profile",
            "--host",
            "--port",
            "--user",
            "--password",
            "--privateKey",
            "--keyPassphrase",
            "--handshakeTimeout",
        ],
        operands: Some(0),
        ..remote("zowe", path)
    }
}

/// adb's global options that take a value (device serial, transport id, server host, port,
/// socket) and `shell`'s escape character.
const ADB_VALUES: &[&str] = &["-s", "-t", "-H", "-P", "-L", "-e"];

/// True for the commands of [`REMOTE_VERBS`] (a `match`: asked for every command; a unit
/// test checks it covers the table).
fn has_remote_verbs(name: &str) -> bool {
    matches!(
        name,
        "aws"
            | "gcloud"
            | "az"
            | "nomad"
            | "tsh"
            | "boundary"
            | "vagrant"
            | "multipass"
            | "lxc"
            | "incus"
            | "crictl"
            | "juju"
            | "sky"
            | "fab"
            | "pyinfra"
            | "knife"
            | "bolt"
            | "rd"
            | "mosh"
            | "dsh"
            | "mussh"
            | "plink"
            | "psexec"
            | "winrs"
            | "doctl"
            | "hcloud"
            | "eb"
            | "docker-machine"
            | "consul"
            | "rsh"
            | "limactl"
            | "lima"
            | "colima"
            | "orbctl"
            | "orb"
            | "adb"
            | "hdc"
            | "zowe"
            | "fly"
            | "flyctl"
    )
}

/// SSM documents' command keys: `commands` (AWS-RunShellScript) or `command`
/// (AWS-StartInteractiveCommand).
const SSM_KEYS: &[&str] = &["commands", "command"];

/// The command lines a parameter text holds under the first of `keys` it names: a list of
/// strings (JSON or the CLI's `[a,b]`), one JSON string, or the shorthand's comma-separated
/// lines.
fn keyed_commands(text: &str, keys: &[&str]) -> Vec<String> {
    let Some((at, key)) = keys.iter().find_map(|k| text.find(k).map(|at| (at, *k))) else {
        return Vec::new();
    };
    let rest = text.get(at + key.len()..).unwrap_or("");
    // The key's closing quote, then the separator (`=`, `:`).
    let rest = rest.strip_prefix('"').unwrap_or(rest);
    let rest = rest.trim_start_matches(['\'', ' ', ':', '=']);
    let quoted = rest.starts_with(['[', '"']);
    if !quoted {
        return rest.split(',').map(str::to_owned).collect();
    }
    // One JSON string value (`"commandToExecute":"CMD"`): that string alone.
    let single = rest.starts_with('"');
    // The strings of a JSON list (backslash escapes kept as written but for `\"`).
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    let mut escaped = false;
    for c in rest.chars() {
        match (&mut current, c) {
            (Some(s), _) if escaped => {
                s.push(c);
                escaped = false;
            }
            (Some(_), '\\') => escaped = true,
            (Some(_), '"') => {
                out.extend(current.take());
                if single {
                    break;
                }
            }
            (Some(s), _) => s.push(c),
            (None, '"') => current = Some(String::new()),
            (None, ']' | '}') => break,
            (None, _) => {}
        }
    }
    if out.is_empty() {
        // `commands=[rm -rf /etc]`: the shorthand list without quotes.
        let inner = rest.trim_start_matches('[');
        let inner = inner.split(']').next().unwrap_or(inner);
        out.extend(inner.split(',').map(str::to_owned));
    }
    out
}

/// What one invocation of a remote verb runs: code option values and the command words.
#[derive(Default)]
struct RemoteRun {
    code: Vec<Word>,
    command: Option<Vec<Word>>,
}

/// Reads `args` against `verb`; `None` when the subcommand path does not match.
fn remote_run(verb: &RemoteVerb, args: &[Word]) -> Option<RemoteRun> {
    let mut run = RemoteRun::default();
    let mut path = verb.path.iter().peekable();
    let mut operands = 0usize;
    let mut options_done = false;
    let mut i = 0;
    // gcloud's release tracks come before the command group (`gcloud beta compute ssh`).
    let track = |w: &Word| verb.name == "gcloud" && matches!(w.text.as_str(), "alpha" | "beta");
    while let Some(w) = args.get(i) {
        i += 1;
        let option = !options_done && is_option(w);
        if option && w.text == "--" {
            if path.peek().is_some() {
                return None;
            }
            options_done = true;
            if verb.dashdash && verb.operands.is_none_or(|n| operands >= n) {
                run.command = Some(args.get(i..).unwrap_or(&[]).to_vec());
                break;
            }
            continue;
        }
        if option {
            let (flag, inline) = match w.text.split_once('=') {
                Some((f, v)) => (f, Some(v)),
                None => (w.text.as_str(), None),
            };
            if verb.code.contains(&flag) {
                if let Some(v) = inline {
                    run.code.push(Word {
                        text: v.to_owned(),
                        ..w.clone()
                    });
                } else {
                    while let Some(v) = args.get(i).filter(|v| !is_option(v)) {
                        run.code.push(v.clone());
                        i += 1;
                        if !verb.multi {
                            break;
                        }
                    }
                }
            } else if inline.is_none() && verb.values.contains(&flag) {
                i += 1;
            }
            continue;
        }
        if let Some(word) = path.peek() {
            if w.exact && w.text == **word {
                path.next();
                continue;
            }
            if i == 1 && track(w) {
                continue;
            }
            return None;
        }
        match verb.operands {
            Some(n) if operands >= n => {
                run.command = Some(args.get(i - 1..).unwrap_or(&[]).to_vec());
                break;
            }
            _ => operands += 1,
        }
    }
    path.peek().is_none().then_some(run)
}

impl Walker<'_> {
    /// A remote verb (see [`RemoteVerb`]): the tool's own judgement, then the command it
    /// has the remote run, judged as `ssh host CMD` is. `None` when this invocation is
    /// another verb of the tool (`aws s3 ls`, `gcloud compute instances list`).
    fn remote_verb(
        &mut self,
        name: &str,
        argv: &[Word],
        args: &[Word],
        scope: &mut Scope,
    ) -> Option<Producer> {
        let (verb, run) = REMOTE_VERBS
            .iter()
            .filter(|v| v.name == name)
            .find_map(|v| remote_run(v, args).map(|r| (v, r)))?;
        self.classify_plain(name, argv, scope);
        if run.code.is_empty() && run.command.is_none() {
            return Some(Producer::Opaque);
        }
        let label = if verb.path.is_empty() {
            name.to_owned()
        } else {
            format!("{name} {}", verb.path.join(" "))
        };
        let mut inner = on_other_hosts(scope, !verb.shared_home);
        if verb.shared_home {
            inner.cwd = Cwd::Unknown;
        }
        // The last code string's secret output, if any (see `Walker::code_output`).
        let mut printed: Option<Producer> = None;
        // A Windows document or command id (`AWS-RunPowerShellScript`, `RunPowerShellScript`)
        // runs the lines as PowerShell on the instance, as ansible's `win_shell` does.
        let powershell = matches!(name, "aws" | "az")
            && args
                .iter()
                .any(|w| w.text.to_ascii_lowercase().contains("powershell"));
        for code in &run.code {
            match verb.form {
                CodeForm::Line | CodeForm::Keyed(_) if powershell => {
                    let lines = match verb.form {
                        CodeForm::Keyed(keys) => keyed_commands(&code.text, keys),
                        _ => vec![code.text.clone()],
                    };
                    for line in lines {
                        let code = Word {
                            text: line,
                            ..code.clone()
                        };
                        let words = [Word::lit("powershell"), Word::lit("-Command"), code];
                        self.peel(argv, &words, &label, &mut inner, Producer::Nothing);
                    }
                }
                CodeForm::Line => {
                    self.run_code_string(argv, code, &mut inner, &label);
                    printed = crate::resolve::secret_output(self.code_output.take()).or(printed);
                }
                CodeForm::StartupScript => {
                    let script = code
                        .text
                        .split_once("startup-script=")
                        .map(|(_, script)| script);
                    if let Some(script) = script {
                        let script = Word {
                            text: script.to_owned(),
                            ..code.clone()
                        };
                        self.run_code_string(argv, &script, &mut inner, &label);
                    }
                }
                CodeForm::Keyed(keys) => {
                    for line in keyed_commands(&code.text, keys) {
                        let line = Word {
                            text: line,
                            ..code.clone()
                        };
                        self.run_code_string(argv, &line, &mut inner, &label);
                    }
                }
            }
        }
        if let Some(command) = run.command.filter(|c| !c.is_empty()) {
            if verb.windows {
                let mut words = vec![Word::lit("cmd"), Word::lit("/c")];
                words.extend(command);
                self.peel(argv, &words, &label, &mut inner, Producer::Nothing);
            } else if verb.shell {
                self.run_code_string(argv, &Word::joined(&command), &mut inner, &label);
                printed = crate::resolve::secret_output(self.code_output.take()).or(printed);
            } else {
                self.peel(argv, &command, &label, &mut inner, Producer::Nothing);
            }
        }
        // The device's own secrets printed back (`adb shell 'cat /data/data/APP/…'`): paths
        // that mean nothing on this machine, so the remote walk cannot see them.
        if name == "adb"
            && let Some(source) = crate::flow::device_app_data(args, self.ctx)
        {
            return Some(Producer::Secret(source));
        }
        // `fly ssh console -C printenv | curl -d @-`: what the remote printed is the output.
        Some(printed.unwrap_or(Producer::Opaque))
    }
}

/// `distrobox enter NAME -- CMD` (`distrobox-enter`): the command after `--` or `-e`.
const fn distrobox_enter(name: &'static str, sub: &'static [&'static str]) -> Runner {
    Runner {
        values: &["-n", "--name", "-a", "--additional-flags"],
        flags: &[
            "-T",
            "--no-tty",
            "-nw",
            "--no-workdir",
            "-r",
            "--root",
            "-v",
            "--verbose",
        ],
        rest: &["--", "-e", "--exec"],
        ..runner(name, sub, Operand::Command)
    }
}

/// `pssh -h HOSTS CMD` (`parallel-ssh`): every host runs the operands as a command line.
const fn pssh(name: &'static str) -> Runner {
    Runner {
        values: &[
            "-h",
            "--hosts",
            "-H",
            "--host",
            "-l",
            "--user",
            "-p",
            "--par",
            "-o",
            "--outdir",
            "-e",
            "--errdir",
            "-t",
            "--timeout",
            "-O",
            "--option",
            "-x",
            "--extra-args",
            "-X",
            "--extra-arg",
        ],
        flags: &[
            "-i",
            "--inline",
            "-v",
            "--verbose",
            "-A",
            "--askpass",
            "-I",
            "--send-input",
            "-P",
            "--print",
        ],
        always_shell: true,
        remote: true,
        ..runner(name, NONE, Operand::Command)
    }
}

/// The glibc dynamic loader run as a program (`ld.so PROG ARGS`).
const fn loader(name: &'static str) -> Runner {
    Runner {
        values: LOADER_VALUES,
        flags: LOADER_FLAGS,
        ..runner(name, NONE, Operand::Command)
    }
}

/// Options of the glibc dynamic loader run as a program.
const LOADER_VALUES: &[&str] = &[
    "--library-path",
    "--preload",
    "--audit",
    "--argv0",
    "--inhibit-rpath",
    "--glibc-hwcaps-prepend",
    "--glibc-hwcaps-mask",
];
const LOADER_FLAGS: &[&str] = &[
    "--list",
    "--verify",
    "--inhibit-cache",
    "--list-tunables",
    "--list-diagnostics",
];

/// npm binaries that delete their operands recursively (data: the package's own binary
/// names). They are judged as `rm -rf` on the same operands.
const DELETERS: &[&str] = &["rimraf", "del", "del-cli", "premove", "trash", "trash-put"];

/// npm package names whose binary has another name.
const PACKAGE_BINARIES: &[(&str, &str)] = &[
    ("del-cli", "del"),
    ("trash-cli", "trash"),
    ("@changesets/cli", "changeset"),
    ("@vscode/vsce", "vsce"),
    ("vsce", "vsce"),
    ("@lerna/cli", "lerna"),
    ("@semantic-release/cli", "semantic-release"),
    ("@jsr/cli", "jsr"),
    ("@nx/cli", "nx"),
    ("@microsoft/rush", "rush"),
    ("release-it", "release-it"),
    ("supabase", "supabase"),
    ("@supabase/cli", "supabase"),
    ("prisma", "prisma"),
    ("@prisma/cli", "prisma"),
    ("@devcontainers/cli", "devcontainer"),
    ("netlify-cli", "netlify"),
    ("firebase-tools", "firebase"),
    ("@railway/cli", "railway"),
    // Cloud and platform CLIs run through a package runner (`npx aws-cdk destroy`).
    ("aws-cdk", "cdk"),
    ("@aws-amplify/cli", "amplify"),
    ("@shopify/cli", "shopify"),
    ("hasura-cli", "hasura"),
    ("@sentry/cli", "sentry-cli"),
    ("@fastly/cli", "fastly"),
    ("@upstash/cli", "upstash"),
    ("@planetscale/cli", "pscale"),
    ("@tursodatabase/cli", "turso"),
    ("@koyeb/koyeb-cli", "koyeb"),
    ("@render/cli", "render"),
    ("@strapi/cloud-cli", "strapi"),
    ("@temporalio/cli", "temporal"),
    ("@neondatabase/cli", "neonctl"),
];

/// True for commands handled here (a `match` on the name: `exec` asks this for every
/// command; a unit test checks it covers [`RUNNERS`] and [`DELETERS`]).
pub(crate) fn handles(name: &str) -> bool {
    matches!(
        name,
        "asdf"
            | "op"
            | "doppler"
            | "infisical"
            | "dotenvx"
            | "aws-vault"
            | "teller"
            | "bun"
            | "bundle"
            | "bunx"
            | "conda"
            | "del"
            | "del-cli"
            | "direnv"
            | "dotenv"
            | "hatch"
            | "mamba"
            | "micromamba"
            | "mise"
            | "nix"
            | "nix-shell"
            | "npm"
            | "npx"
            | "pdm"
            | "pipenv"
            | "pipx"
            | "pixi"
            | "pnpm"
            | "pnpx"
            | "poetry"
            | "premove"
            | "rimraf"
            | "rye"
            | "shx"
            | "trash"
            | "trash-put"
            | "uv"
            | "uvx"
            | "yarn"
            | "aa-exec"
            | "aoss"
            | "padsp"
            | "pasuspender"
            | "choom"
            | "cpulimit"
            | "distcc"
            | "multitime"
            | "pexec"
            | "perf"
            | "rlwrap"
            | "setarch"
            | "setlock"
            | "envdir"
            | "softlimit"
            | "ssh-agent"
            | "sshpass"
            | "torify"
            | "torsocks"
            | "proxychains"
            | "proxychains4"
            | "tsocks"
            | "valgrind"
            | "xdotool"
            | "grc"
            | "fakeroot"
            | "xvfb-run"
            | "dbus-run-session"
            | "dbus-launch"
            | "cgexec"
            | "entr"
            | "watchexec"
            | "hyperfine"
            | "systemd-inhibit"
            | "prlimit"
            | "faketime"
            | "ld.so"
            | "ld-linux.so.2"
            | "ld-linux-x86-64.so.2"
            | "ld-linux-aarch64.so.1"
            | "cabal"
            | "flatpak-spawn"
            | "host-spawn"
            | "distrobox-host-exec"
            | "distrobox"
            | "distrobox-enter"
            | "toolbox"
            | "wsl"
            | "pkexec"
            | "run0"
            | "machinectl"
            | "pssh"
            | "parallel-ssh"
            | "pdsh"
            | "clush"
            | "cmd"
            | "ansible"
            | "salt"
            | "salt-ssh"
            | "salt-call"
            | "sbatch"
            | "srun"
            | "salloc"
            | "apptainer"
            | "singularity"
            | "qsub"
            | "bsub"
            | "ray"
            | "flux"
            | "mpirun"
            | "mpiexec"
            | "mpiexec.hydra"
            | "orterun"
            | "prterun"
            | "aprun"
            | "jsrun"
            | "railway"
    ) || has_remote_verbs(name)
}

/// The binary an npm/PyPI package spec runs: `rimraf@5` → `rimraf`, `@scope/x@1` → `x`.
fn package_binary(spec: &str) -> String {
    // A scoped package is looked up whole first (`@changesets/cli` runs `changeset`).
    if let Some(scoped) = spec.strip_prefix('@') {
        let full_len = scoped.find('@').map_or(spec.len(), |at| at + 1);
        let full = spec.get(..full_len).unwrap_or(spec);
        if let Some((_, b)) = PACKAGE_BINARIES.iter().find(|(p, _)| *p == full) {
            return (*b).to_owned();
        }
    }
    let unscoped = spec
        .strip_prefix('@')
        .and_then(|s| s.split_once('/').map(|(_, n)| n))
        .unwrap_or(spec);
    let name = unscoped.split('@').next().unwrap_or(unscoped);
    // PyPI specs: `ruff==0.4`, `black[jupyter]`.
    let name = name
        .split(['=', '<', '>', '[', '~', '!'])
        .next()
        .unwrap_or(name);
    PACKAGE_BINARIES
        .iter()
        .find(|(p, _)| *p == name)
        .map_or(name, |(_, b)| b)
        .to_owned()
}

/// A package spec that is a URL or a repository rather than a registry name.
fn is_remote_package(spec: &str) -> bool {
    spec.contains("://")
        || ["github:", "gitlab:", "bitbucket:", "gist:", "git+", "git@"]
            .iter()
            .any(|p| spec.starts_with(p))
}

fn is_option(w: &Word) -> bool {
    w.exact && w.text.len() > 1 && w.text.starts_with('-')
}

/// What the options of one runner invocation say.
#[derive(Default)]
struct Parsed {
    /// Index of the first operand.
    end: usize,
    code: Option<Word>,
    chdir: Option<Word>,
    package: bool,
    /// A package option's value names code from a URL or a repository (`uvx --from
    /// git+https://…`, `npx -p github:user/repo`), not a registry release.
    remote_package: bool,
    /// Index right after an option the table does not know (it may have taken a value).
    ambiguous: Option<usize>,
    /// Every word from here on is the command (`nix develop -c`).
    rest: Option<usize>,
    /// A flag made the operands shell code.
    shell: bool,
}

/// Reads options from `start`: `--` ends them; `--opt=value` is unambiguous.
fn parse(runner: &Runner, args: &[Word], start: usize, values: &[&str]) -> Parsed {
    let mut parsed = Parsed::default();
    let mut at = start;
    while let Some(word) = args.get(at) {
        if !is_option(word) {
            break;
        }
        if word.text == "--" {
            at += 1;
            break;
        }
        let (flag, inline) = match word.text.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name, Some(value)),
            _ => (word.text.as_str(), None),
        };
        if runner.rest.contains(&flag) {
            parsed.rest = Some(at + 1);
            at = args.len();
            break;
        }
        let takes =
            values.contains(&flag) || runner.code.contains(&flag) || runner.chdir.contains(&flag);
        let value = match inline {
            Some(v) => Some(Word {
                text: v.to_owned(),
                ..word.clone()
            }),
            None if takes => args.get(at + 1).cloned(),
            None => None,
        };
        if runner.code.contains(&flag) {
            parsed.code.clone_from(&value);
        }
        if runner.chdir.contains(&flag) {
            parsed.chdir.clone_from(&value);
        }
        if runner.package.contains(&flag) {
            parsed.package = true;
            parsed.remote_package |= value
                .as_ref()
                .is_some_and(|v| v.exact && is_remote_package(&v.text));
        }
        if runner.shell.contains(&flag) {
            parsed.shell = true;
        }
        let known = takes
            || runner.flags.contains(&flag)
            || runner.shell.contains(&flag)
            || inline.is_some();
        if !known && parsed.ambiguous.is_none() {
            parsed.ambiguous = Some(at + 1);
        }
        at += if takes && inline.is_none() { 2 } else { 1 };
    }
    parsed.end = at.min(args.len());
    parsed
}

impl Walker<'_> {
    /// Runs the command a runner runs (or the `rm -rf` a deleting npm binary is). `None`
    /// when this invocation runs no command (`uv pip install`, `npm install`): the caller
    /// judges it as a plain command.
    pub(crate) fn runner(
        &mut self,
        name: &str,
        argv: &[Word],
        args: &[Word],
        scope: &mut Scope,
        stdin: &Producer,
    ) -> Option<Producer> {
        match name {
            "cmd" => return Some(self.cmd_exe(argv, args, scope, stdin)),
            // `wsl --unregister DISTRO` deletes a distribution with its whole filesystem: the
            // wrapper's own verb, judged by the catalogue (`disk.wsl_unregister`). Only wsl's
            // own leading options count: after `--` or the command, `--unregister` is the
            // command's (`wsl -- rm -rf / --unregister` runs `rm`).
            "wsl"
                if args
                    .iter()
                    .take_while(|w| w.text != "--" && w.text.starts_with('-'))
                    .any(|w| w.text == "--unregister") =>
            {
                self.classify_plain(name, argv, scope);
                return Some(Producer::Opaque);
            }
            // The container's own options first (a bind of the host root is
            // `docker.host_mount`), then its command as a runner's.
            "apptainer" | "singularity" => self.classify_plain(name, argv, scope),
            // `nix shell github:x/y -c CMD`, `nix develop git+https://…`: the flake is
            // fetched code before any command runs (`hazards::nix_remote_flake`).
            "nix"
                if args
                    .iter()
                    .find(|w| !w.text.starts_with('-'))
                    .is_some_and(|w| matches!(w.text.as_str(), "shell" | "develop")) =>
            {
                if let Some(v) = crate::hazards::argument(name, args) {
                    self.record(argv, scope, v);
                }
            }
            "ansible" => return Some(self.ansible(argv, args, scope)),
            "hyperfine" => return Some(self.benchmark_commands(argv, args, scope)),
            "salt" | "salt-ssh" | "salt-call" => return Some(self.salt(name, argv, args, scope)),
            n if has_remote_verbs(n) => return self.remote_verb(n, argv, args, scope),
            _ => {}
        }
        if DELETERS.contains(&name) {
            let mut line = vec![Word::lit("rm"), Word::lit("-rf")];
            line.extend(args.iter().cloned());
            return Some(self.peel(argv, &line, name, scope, stdin.clone()));
        }
        let mut candidates = RUNNERS.iter().filter(|r| r.name == name);
        // `pnpm exec` and `pnpm dlx` are two entries: the first whose subcommand matches.
        let (r, p) = candidates.find_map(|r| {
            let mut start = 0;
            if !r.sub.is_empty() {
                let g = parse(r, args, 0, r.globals);
                let sub = args.get(g.end)?;
                if !(sub.exact && r.sub.contains(&sub.text.as_str())) {
                    return None;
                }
                start = g.end + 1;
                let mut p = parse(r, args, start, r.values);
                p.chdir = p.chdir.or(g.chdir);
                return Some((r, p));
            }
            Some((r, parse(r, args, start, r.values)))
        })?;
        // `rlwrap -l FILE CMD`: the wrapper's own output options write files.
        self.output_options(name, argv, args.get(..p.end).unwrap_or(&[]), scope);
        let label = if r.sub.is_empty() {
            r.name.to_owned()
        } else {
            let sub = args
                .iter()
                .find(|w| r.sub.contains(&w.text.as_str()))
                .map_or("", |w| w.text.as_str());
            format!("{} {sub}", r.name)
        };
        let mut inner = on_other_hosts(scope, r.remote);
        if let Some(dir) = &p.chdir {
            inner.set_cwd(self.resolve_dir(dir, scope));
        }
        if let Some(code) = &p.code {
            self.run_code_string(argv, code, &mut inner, &label);
            return Some(Producer::Opaque);
        }
        if p.shell || r.always_shell {
            let operands = args.get(p.end..).unwrap_or(&[]);
            let code = Word::joined(operands);
            if !operands.is_empty() {
                self.run_code_string(argv, &code, &mut inner, &label);
            }
            if p.shell {
                return Some(Producer::Opaque);
            }
        }
        let mut commands: Vec<Vec<Word>> = Vec::new();
        // `nix develop [installable] -c CMD …`: the option may follow operands.
        let rest = p.rest.or_else(|| {
            args.iter()
                .position(|w| w.exact && r.rest.contains(&w.text.as_str()))
                .map(|at| at + 1)
        });
        if let Some(at) = rest {
            commands.push(args.get(at..).unwrap_or(&[]).to_vec());
        } else {
            for start in std::iter::once(p.end).chain(p.ambiguous.map(|a| a + 1)) {
                // The reading where the unknown option took a value starts one word later,
                // past its value, and only if that value is not itself an option.
                if start != p.end && args.get(start - 1).is_none_or(is_option) {
                    continue;
                }
                let first = args.get(start).filter(|w| w.exact);
                if (r.operand == Operand::Package
                    && (p.remote_package
                        || (!p.package && first.is_some_and(|w| is_remote_package(&w.text)))))
                    || (r.operand == Operand::Command
                        && first.is_some_and(|w| w.text.contains("://")))
                {
                    // `npx https://…/pkg.tgz`, `bunx github:user/repo`: code straight from a
                    // URL or a repository, not a registry release. A runner of commands given a
                    // URL as the command (`uv run https://host/x.py`) fetches and runs it.
                    self.record(
                        argv,
                        &inner,
                        crate::taxonomy::ids::RCE_REMOTE_SCRIPT_BUN.verdict(),
                    );
                }
                if let Some(c) = runner_command(r, &p, args, start) {
                    commands.push(c);
                }
            }
        }
        if commands.is_empty() {
            self.record(
                argv,
                &inner,
                crate::model::Verdict::normal(format!("{label} without a command")),
            );
            return Some(Producer::Opaque);
        }
        if r.operand == Operand::Directory {
            // `direnv exec DIR cmd` loads DIR's `.envrc` first: the invocation itself is
            // recorded so a caller can judge that code (the policy reads the file).
            self.record(
                argv,
                &inner,
                crate::model::Verdict::normal(
                    "loads the directory's environment, then runs a command",
                ),
            );
        }
        let mut out = Producer::Opaque;
        for command in commands {
            out = self.peel(argv, &command, &label, &mut inner, stdin.clone());
        }
        Some(out)
    }
}

/// cmd.exe's commands whose switches make them recursive deletions, as the `rm` they are:
/// `rmdir /s` (`rd`) removes a tree, `del /s` (`erase`) removes matching files in every
/// subdirectory; without `/s` they remove one directory or the named files.
fn cmd_deletion(verb: &str, switches: &[String]) -> Option<&'static str> {
    let recursive = switches.iter().any(|s| s.eq_ignore_ascii_case("/s"));
    match verb {
        "rmdir" | "rd" | "del" | "erase" if recursive => Some("-rf"),
        "rmdir" | "rd" => Some("-d"),
        "del" | "erase" => Some("-f"),
        _ => None,
    }
}

/// A Windows path as WSL sees it: `C:\\Users\\dev` is `/mnt/c/Users/dev` (WSL's default
/// mount of the drive); other backslashes are separators. Used for cmd.exe's and
/// PowerShell's operands, so a Windows path is judged where it lands, never as a relative
/// name inside the workspace.
pub(crate) fn wsl_path(token: &str) -> String {
    let text = token.replace('\\', "/");
    let bytes = text.as_bytes();
    match (bytes.first(), bytes.get(1), bytes.get(2)) {
        (Some(d), Some(b':'), Some(b'/') | None) if d.is_ascii_alphabetic() => format!(
            "/mnt/{}/{}",
            char::from(d.to_ascii_lowercase()),
            text.get(3..).unwrap_or("")
        ),
        _ => text,
    }
}

/// A cmd.exe operand as a word: its WSL path; a path from the user's profile
/// (`%USERPROFILE%\\.ssh`) as the same place under the home
/// ([`crate::hazards::windows_home_path`]); any other `%VAR%` is expanded by cmd at run time,
/// so the word is not exact.
fn windows_word(token: &str, ctx: &crate::model::Context) -> Word {
    if let Some(p) = crate::hazards::windows_home_path(token, ctx)
        && !p.contains('%')
    {
        return Word::lit(p);
    }
    let mut word = Word::lit(wsl_path(token));
    word.exact = !token.contains('%');
    word
}

/// cmd.exe's built-in file commands as the POSIX tools they are: `type`/`more` print files
/// (`cat`), `copy` copies (`cp`), `move`/`ren` move (`mv`).
fn cmd_builtin(verb: &str) -> Option<&'static str> {
    match verb.to_ascii_lowercase().as_str() {
        "type" | "more" => Some("cat"),
        "copy" | "xcopy" | "robocopy" => Some("cp"),
        "move" | "ren" | "rename" => Some("mv"),
        _ => None,
    }
}

/// Splits a cmd.exe line into its commands (`&`, `&&`, `||`, `|`), each into words with
/// double quotes removed. cmd has no single quotes and no backslash escapes.
fn cmd_commands(line: &str) -> Vec<Vec<String>> {
    let mut commands = vec![Vec::new()];
    let mut word = String::new();
    let mut quoted = false;
    let mut started = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                started = true;
            }
            c if quoted => word.push(c),
            ' ' | '\t' | '&' | '|' => {
                if started || !word.is_empty() {
                    if let Some(last) = commands.last_mut() {
                        last.push(std::mem::take(&mut word));
                    }
                    started = false;
                }
                if c != ' ' && c != '\t' && commands.last().is_some_and(|l| !l.is_empty()) {
                    commands.push(Vec::new());
                }
            }
            c => word.push(c),
        }
    }
    if (started || !word.is_empty())
        && let Some(last) = commands.last_mut()
    {
        last.push(word);
    }
    commands.retain(|c| !c.is_empty());
    commands
}

/// The scope a command runs in: `scope` itself, or (`remote`) another machine's, as `ssh
/// host CMD` judges it — directory unknown, paths the remote host's, no local container.
fn on_other_hosts(scope: &Scope, remote: bool) -> Scope {
    let mut inner = scope.clone();
    if remote {
        inner.cwd = Cwd::Unknown;
        inner.remote = true;
        inner.local_container = false;
    }
    inner
}

/// Ansible modules whose argument string is a command line the hosts run.
const ANSIBLE_COMMAND_MODULES: &[&str] = &[
    "shell",
    "command",
    "raw",
    "ansible.builtin.shell",
    "ansible.builtin.command",
    "ansible.builtin.raw",
];

/// Ansible modules whose argument string is PowerShell code the (Windows) hosts run.
const ANSIBLE_POWERSHELL_MODULES: &[&str] = &[
    "win_shell",
    "win_command",
    "ansible.windows.win_shell",
    "ansible.windows.win_command",
];

/// Salt execution functions whose argument is a command line the minions run.
const SALT_COMMAND_FUNCTIONS: &[&str] = &[
    "cmd.run",
    "cmd.shell",
    "cmd.run_all",
    "cmd.run_stdout",
    "cmd.run_stderr",
    "cmd.run_bg",
    "cmd.retcode",
    "cmd.powershell",
];

impl Walker<'_> {
    /// `cmd.exe /c LINE` (or `/k`, `/r`) runs LINE through Windows' command interpreter,
    /// reached from WSL through interop: each of its commands is judged like the Linux
    /// command it amounts to (`rmdir /s /q C:\Users\dev\Documents` is `rm -rf
    /// /mnt/c/Users/dev/Documents`), and the rest (`powershell …`, `reg add …`, `schtasks …`)
    /// as typed. Invariant: a wrapper never hides the command it runs. cmd without a command
    /// is an interactive prompt.
    fn cmd_exe(
        &mut self,
        argv: &[Word],
        args: &[Word],
        scope: &mut Scope,
        stdin: &Producer,
    ) -> Producer {
        let at = args.iter().position(|w| {
            ["/c", "/k", "/r"]
                .iter()
                .any(|s| w.text.eq_ignore_ascii_case(s))
        });
        let Some(at) = at else {
            self.record(argv, scope, crate::model::Verdict::normal("starts cmd.exe"));
            return Producer::Opaque;
        };
        let rest = args.get(at + 1..).unwrap_or(&[]);
        if rest.iter().any(|w| !w.exact) {
            self.record(
                argv,
                scope,
                crate::model::Verdict::unknown("cmd.exe runs a command line computed at run time"),
            );
        }
        let line = Word::joined(rest).text;
        let mut out = Producer::Opaque;
        for command in cmd_commands(&line) {
            // `start [/b /wait /min …] ["title"] CMD`: CMD runs (in a new window or not).
            let command: Vec<String> = match command.first() {
                Some(v) if v.eq_ignore_ascii_case("start") => command
                    .iter()
                    .skip(1)
                    .skip_while(|t| t.starts_with('/') || t.is_empty())
                    .cloned()
                    .collect(),
                _ => command,
            };
            let Some((verb, operands)) = command.split_first() else {
                continue;
            };
            let verb_name = crate::resolve::command_name(verb);
            let (switches, paths): (Vec<String>, Vec<String>) = operands
                .iter()
                .cloned()
                .partition(|t| t.starts_with('/') && t.len() <= 3);
            let words: Vec<Word> = if let Some(flag) = cmd_deletion(&verb_name, &switches) {
                let mut words = vec![Word::lit("rm"), Word::lit(flag), Word::lit("--")];
                words.extend(paths.iter().map(|p| windows_word(p, self.ctx)));
                words
            } else if let Some(tool) = cmd_builtin(&verb_name) {
                let mut words = vec![Word::lit(tool), Word::lit("--")];
                words.extend(paths.iter().map(|p| windows_word(p, self.ctx)));
                words
            } else {
                command.iter().map(|t| Word::lit(t.clone())).collect()
            };
            // What the line prints is what its last command prints.
            out = self.peel(argv, &words, "cmd /c", scope, stdin.clone());
        }
        out
    }

    /// `hyperfine 'CMD1' 'CMD2' …`: each operand is a command line the benchmark runs through
    /// a shell, as are the values of `--prepare`, `--setup`, `--conclude` and `--cleanup`;
    /// each is judged as if typed (options with one value are skipped, `-L NAME VALUES` has
    /// two; `{NAME}` placeholders stay in the text).
    fn benchmark_commands(&mut self, argv: &[Word], args: &[Word], scope: &mut Scope) -> Producer {
        const CODE: &[&str] = &[
            "-p",
            "--prepare",
            "-s",
            "--setup",
            "-c",
            "--cleanup",
            "--conclude",
        ];
        const ONE: &[&str] = &[
            "-w",
            "--warmup",
            "-m",
            "--min-runs",
            "-M",
            "--max-runs",
            "-r",
            "--runs",
            "-S",
            "--shell",
            "--style",
            "--sort",
            "-u",
            "--time-unit",
            "--export-asciidoc",
            "--export-csv",
            "--export-json",
            "--export-markdown",
            "--export-orgmode",
            "-n",
            "--command-name",
            "--output",
            "--input",
            "-D",
            "--parameter-step-size",
        ];
        const TWO: &[&str] = &["-L", "--parameter-list"];
        let mut i = 0;
        let mut only_operands = false;
        while let Some(w) = args.get(i) {
            let t = w.text.as_str();
            if !only_operands && t == "--" {
                only_operands = true;
            } else if !only_operands && CODE.contains(&t) {
                if let Some(code) = args.get(i + 1) {
                    self.run_child_code(argv, code, scope, "hyperfine", None);
                }
                i += 1;
            } else if !only_operands && ONE.contains(&t) {
                i += 1;
            } else if !only_operands && TWO.contains(&t) {
                i += 2;
            } else if !only_operands && (t == "-P" || t == "--parameter-scan") {
                i += 3;
            } else if only_operands || !t.starts_with('-') {
                self.run_child_code(argv, w, scope, "hyperfine", None);
            }
            i += 1;
        }
        Producer::Opaque
    }

    /// `ansible HOSTS -m shell -a 'CMD'`: the hosts run CMD (`command`, `raw` and the
    /// default module alike), judged as `ssh host CMD` is; `-m file -a 'path=P
    /// state=absent'` deletes P there. On `localhost` or with `-c local` the command runs
    /// on this machine and is judged here.
    fn ansible(&mut self, argv: &[Word], args: &[Word], scope: &mut Scope) -> Producer {
        let value = |short: &str, long: &str| -> Option<String> {
            let mut found = None;
            let mut i = 0;
            while let Some(w) = args.get(i) {
                let t = w.text.as_str();
                if t == short || t == long {
                    found = args.get(i + 1).map(|v| v.text.clone());
                    i += 1;
                } else if let Some(v) = t.strip_prefix(long).and_then(|v| v.strip_prefix('=')) {
                    found = Some(v.to_owned());
                } else if let Some(v) = t.strip_prefix(short).filter(|v| !v.is_empty()) {
                    found = Some(v.to_owned());
                }
                i += 1;
            }
            found
        };
        let module = value("-m", "--module-name").unwrap_or_else(|| "command".to_owned());
        let module_args = value("-a", "--args");
        let pattern = args
            .first()
            .filter(|w| !w.text.starts_with('-'))
            .map(|w| w.text.as_str());
        let local = value("-c", "--connection").as_deref() == Some("local")
            || matches!(pattern, Some("localhost" | "127.0.0.1"));
        let mut inner = on_other_hosts(scope, !local);
        let Some(module_args) = module_args else {
            self.record(
                argv,
                scope,
                crate::model::Verdict::normal("runs an Ansible module"),
            );
            return Producer::Opaque;
        };
        let exact = args.iter().all(|w| w.exact);
        if ANSIBLE_COMMAND_MODULES.contains(&module.as_str()) {
            let code = Word {
                text: module_args,
                exact,
                ..Word::lit("")
            };
            self.run_code_string(argv, &code, &mut inner, "ansible");
        } else if ANSIBLE_POWERSHELL_MODULES.contains(&module.as_str()) {
            let mut code = Word::lit(module_args);
            code.exact = exact;
            let words = [Word::lit("powershell"), Word::lit("-Command"), code];
            self.peel(argv, &words, "ansible", &mut inner, Producer::Nothing);
        } else if matches!(module.as_str(), "file" | "ansible.builtin.file") {
            let pairs: Vec<(&str, &str)> = module_args
                .split_whitespace()
                .filter_map(|kv| kv.split_once('='))
                .collect();
            let path = pairs
                .iter()
                .find(|(k, _)| matches!(*k, "path" | "dest" | "name"))
                .map(|(_, v)| *v);
            if let (Some(path), true) = (path, pairs.contains(&("state", "absent"))) {
                let mut target = Word::lit(path);
                target.exact = exact;
                let words = [Word::lit("rm"), Word::lit("-rf"), Word::lit("--"), target];
                self.peel(argv, &words, "ansible", &mut inner, Producer::Nothing);
            } else {
                self.record(
                    argv,
                    scope,
                    crate::model::Verdict::normal("runs an Ansible module"),
                );
            }
        } else {
            self.record(
                argv,
                scope,
                crate::model::Verdict::normal("runs an Ansible module"),
            );
        }
        Producer::Opaque
    }

    /// `salt TARGET cmd.run 'CMD'` (and `salt-ssh`): the minions run CMD, judged as `ssh
    /// host CMD` is; `salt-call` runs the function on this machine. `file.remove P` deletes
    /// P recursively.
    fn salt(&mut self, name: &str, argv: &[Word], args: &[Word], scope: &mut Scope) -> Producer {
        let mut inner = on_other_hosts(scope, name != "salt-call");
        // A comma list runs several functions (`test.ping,cmd.run`): any of them counts.
        let function = args.iter().position(|w| {
            w.text
                .split(',')
                .any(|f| SALT_COMMAND_FUNCTIONS.contains(&f) || f == "file.remove")
        });
        let Some(at) = function else {
            let verdict = if salt_read_only(args) {
                crate::model::Verdict::safe("runs a read-only Salt function")
            } else {
                crate::model::Verdict::normal("runs a Salt function")
            };
            self.record(argv, scope, verdict);
            return Producer::Opaque;
        };
        // A comma list of functions takes comma-separated argument groups (`salt '*'
        // test.ping,cmd.run ,'rm -rf /'`: none for `test.ping`, `rm -rf /` for `cmd.run`):
        // every group of every operand is judged as a command the minions may run.
        if args.get(at).is_some_and(|w| w.text.contains(',')) {
            let mut judged = false;
            for w in args.get(at + 1..).unwrap_or(&[]) {
                if w.text.starts_with('-') {
                    continue;
                }
                for group in w.text.split(',').filter(|g| !g.trim().is_empty()) {
                    let code = Word {
                        text: group.to_owned(),
                        ..w.clone()
                    };
                    self.run_code_string(argv, &code, &mut inner.clone(), name);
                    judged = true;
                }
            }
            if !judged {
                self.record(
                    argv,
                    scope,
                    crate::model::Verdict::normal("runs a Salt function"),
                );
            }
            return Producer::Opaque;
        }
        // The first operand after the function that is not a `key=value` keyword.
        let operand = args.get(at + 1..).unwrap_or(&[]).iter().find(|w| {
            !w.text.starts_with('-') && w.text.split_once('=').is_none_or(|(k, _)| k.contains(' '))
        });
        let Some(operand) = operand else {
            self.record(
                argv,
                scope,
                crate::model::Verdict::normal("runs a Salt function"),
            );
            return Producer::Opaque;
        };
        if args.get(at).is_some_and(|w| w.text == "file.remove") {
            let words = [
                Word::lit("rm"),
                Word::lit("-rf"),
                Word::lit("--"),
                operand.clone(),
            ];
            self.peel(argv, &words, name, &mut inner, Producer::Nothing);
        } else {
            self.run_code_string(argv, operand, &mut inner, name);
        }
        Producer::Opaque
    }
}

/// Salt execution functions that only report (Salt's module documentation): a minion's
/// liveness, grains, status, disk and network figures, installed packages and services, the
/// function docs, and what a state *would* do. `pillar.*` is not here: pillars hold secrets.
const SALT_READ_ONLY: &[&str] = &[
    "test.ping",
    "test.version",
    "test.versions_report",
    "test.echo",
    "test.true",
    "grains.items",
    "grains.item",
    "grains.get",
    "grains.ls",
    "disk.usage",
    "disk.percent",
    "disk.inodeusage",
    "network.interfaces",
    "network.ip_addrs",
    "network.active_tcp",
    "pkg.list_pkgs",
    "pkg.version",
    "pkg.latest_version",
    "pkg.list_upgrades",
    "service.status",
    "service.get_all",
    "service.get_running",
    "service.available",
    "sys.doc",
    "sys.list_functions",
    "sys.list_modules",
    "sys.list_state_modules",
    "saltutil.running",
    "state.show_sls",
    "state.show_highstate",
    "state.show_top",
    "state.show_lowstate",
];

/// Whether a `salt`/`salt-call`/`salt-ssh` line only reports: every function it names (a
/// comma list runs several: `salt '*' test.ping,grains.items`) is one of
/// [`SALT_READ_ONLY`], any `status.*` report, or a `state.*` run with `test=True` (Salt's dry
/// run). Words known only at run time, options other than output formatting and targeting,
/// and any other function say no.
fn salt_read_only(args: &[Word]) -> bool {
    if !args.iter().all(|w| w.exact) {
        return false;
    }
    let dry = args.iter().any(|w| {
        w.text
            .split_once('=')
            .is_some_and(|(k, v)| k == "test" && v.eq_ignore_ascii_case("true"))
    });
    let mut functions = args
        .iter()
        .filter(|w| !w.text.starts_with('-') && !w.text.contains(['*', '@', '=']))
        .flat_map(|w| w.text.split(','))
        .filter(|f| f.contains('.') && !f.contains('/'))
        .peekable();
    functions.peek().is_some()
        && functions.all(|f| {
            SALT_READ_ONLY.contains(&f)
                || f.strip_prefix("status.")
                    .is_some_and(|rest| !rest.is_empty())
                || (dry && f.starts_with("state."))
        })
}

/// The argv a runner runs, its operands starting at `start`.
fn runner_command(r: &Runner, p: &Parsed, args: &[Word], start: usize) -> Option<Vec<Word>> {
    let mut rest = args.get(start..)?;
    if let (Some(skip), Some(first)) = (r.skip_word, rest.first())
        && first.exact
        && first.text == skip
    {
        rest = rest.get(1..)?;
    }
    if rest.first().is_some_and(|w| w.exact && w.text == "--") {
        rest = rest.get(1..)?;
    }
    let first = rest.first()?;
    match r.operand {
        Operand::Command if r.name == "hatch" && first.exact && first.text.contains(':') => {
            // `hatch run ENV:CMD ARGS`.
            let mut line = rest.to_vec();
            if let Some(w) = line.first_mut() {
                w.text = w.text.split_once(':').map(|(_, c)| c.to_owned())?;
            }
            Some(line)
        }
        Operand::Command => Some(rest.to_vec()),
        Operand::Package if p.package => Some(rest.to_vec()),
        Operand::Package => {
            let mut line = rest.to_vec();
            if let Some(w) = line.first_mut().filter(|w| w.exact) {
                w.text = package_binary(&w.text);
            }
            Some(line)
        }
        Operand::Directory | Operand::Skip => {
            // `aws-vault exec PROFILE -- CMD`: a `--` after the skipped operand ends the
            // runner's options as one before it does.
            let mut line = rest.get(1..)?;
            if line.first().is_some_and(|w| w.exact && w.text == "--") {
                line = line.get(1..)?;
            }
            Some(line.to_vec())
        }
        Operand::Tools => {
            let line = if let Some(at) = rest.iter().position(|w| w.exact && w.text == "--") {
                rest.get(at + 1..)?
            } else {
                let skip = rest
                    .iter()
                    .take_while(|w| w.exact && w.text.contains('@'))
                    .count();
                rest.get(skip..)?
            };
            (!line.is_empty()).then(|| line.to_vec())
        }
        Operand::CodeOnly => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_runner_and_deleter_is_handled() {
        for name in RUNNERS
            .iter()
            .map(|r| r.name)
            .chain(DELETERS.iter().copied())
        {
            assert!(handles(name), "{name}");
        }
        for verb in REMOTE_VERBS {
            assert!(has_remote_verbs(verb.name), "{}", verb.name);
        }
        for name in ["git", "cargo", "ls", "make", "python"] {
            assert!(!handles(name), "{name}");
        }
    }

    #[test]
    fn package_specs_name_their_binary() {
        for (spec, bin) in [
            ("rimraf", "rimraf"),
            ("rimraf@5.0.1", "rimraf"),
            ("@scope/tool@1", "tool"),
            ("del-cli", "del"),
            ("ruff==0.4", "ruff"),
            ("black[jupyter]", "black"),
        ] {
            assert_eq!(package_binary(spec), bin, "{spec}");
        }
    }
}
