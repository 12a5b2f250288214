//! Constructs that run code later or elsewhere: `trap`, `coproc`, `alias`, editors' `-c`
//! commands, sed's `e`, `rg --pre`, tar's command options and `--remove-files`, `history -a`
//! into a file, git's command-valued configuration (`-c`, `git config`, aliases,
//! `--upload-pack`/`--receive-pack`, URL rewrites), `at`/`batch` and `systemd-run`.
//!
//! Invariant: the deferred code is parsed and judged as the code it is (a handler string is
//! shell, a vim `:py3` line is Python), with the construct recorded in `via`; what cannot be
//! read statically is `unknown` (ask), never dropped.

// `argv` (the whole command) and `args` (its arguments) are this module's vocabulary, as in
// `resolve.rs`.
#![allow(clippy::similar_names)]

use crate::model::Verdict;
use crate::resolve::redirect_write;
use crate::sed;
use crate::taxonomy::{self, Args, LongOption, ids};
use crate::walk::{Producer, Scope, Walker, Word, WordShape};

/// Programs meant for tar's command options: compressors, checksums, remote shells.
const TAR_FILTERS: &[&str] = &[
    "gzip",
    "gunzip",
    "pigz",
    "zstd",
    "unzstd",
    "xz",
    "unxz",
    "pixz",
    "bzip2",
    "bunzip2",
    "pbzip2",
    "lbzip2",
    "lz4",
    "lzop",
    "lzip",
    "plzip",
    "brotli",
    "cat",
    "sha256sum",
    "sha1sum",
    "md5sum",
    "wc",
    "ssh",
    "rsh",
    "rmt",
];

/// A `trap` handler waiting for the end of the shell that set it.
#[derive(Debug)]
pub(crate) struct ExitTrap {
    argv: Vec<Word>,
    handler: Word,
    /// The state when the trap was set.
    set: Box<Scope>,
    /// The shell process that set it (see `Walker::in_shell`).
    shell: u32,
}

impl ExitTrap {
    /// The states the handler may run in when its shell ends in `end` (see
    /// `Walker::run_exit_traps`): the end state, and the state when the trap was set when a
    /// variable the line had set then (or the directory) changed since.
    fn states_at_exit(&self, end: &Scope) -> Vec<Scope> {
        let mark = self.set.stamp();
        let mut at_exit = end.clone();
        let changed = end.sh.assigned_since(mark);
        let moved = end.sh.cwd_gen > mark;
        let bumps = end.stamp().saturating_sub(mark);
        let once = usize::try_from(bumps).is_ok_and(|b| b == changed.len() + usize::from(moved));
        if !once {
            // Something changed twice (or a call, loop or `eval` changed it): the values in
            // between are not known.
            at_exit.forget_since(mark);
            return vec![at_exit];
        }
        let mut at_set: Option<Scope> = None;
        for name in &changed {
            if let Some(before) = self.set.sh.get(name)
                && Some(before) != end.sh.get(name)
            {
                at_set
                    .get_or_insert_with(|| end.clone())
                    .sh
                    .set(name, before.clone(), None);
            }
        }
        if moved && (self.set.cwd != end.cwd || self.set.either != end.either) {
            let at = at_set.get_or_insert_with(|| end.clone());
            at.cwd = self.set.cwd.clone();
            at.either.clone_from(&self.set.either);
        }
        let mut states = vec![at_exit];
        states.extend(at_set);
        states
    }
}

/// Commands whose arguments carry code that runs later or elsewhere (handled here).
pub(crate) fn handles(name: &str) -> bool {
    matches!(
        name,
        "trap"
            | "alias"
            | "coproc"
            | "sed"
            | "gsed"
            | "rg"
            | "tar"
            | "gtar"
            | "history"
            | "git"
            | "dvc"
            | "at"
            | "batch"
            | "systemd-run"
            | "tmux"
            | "screen"
            | "crontab"
            | "ed"
    ) || is_vim(name)
}

fn is_vim(name: &str) -> bool {
    matches!(
        name,
        "vim" | "vi" | "nvim" | "ex" | "view" | "gvim" | "vimdiff" | "nvi" | "rvim" | "rview"
    )
}

/// A word made of part of an exact word (a `--opt=value` value, an alias body).
pub(crate) fn part(w: &Word, text: &str) -> Word {
    Word {
        text: text.to_owned(),
        exact: w.exact,
        shape: WordShape::Exact,
        substs: w.substs.clone(),
    }
}

/// One option occurrence found by [`scan`]: its normalised name and value.
pub(crate) struct Opt {
    pub name: String,
    pub value: Option<Word>,
}

/// Splits GNU-style arguments into options (short clusters, `--long[=value]`, long options
/// normalised against the tool's table so `--to-c` is `--to-command`) and operands.
/// `short_values` are the short letters taking a value; `long_values` the long options that do.
pub(crate) fn scan(
    name: &str,
    args: &[Word],
    short_values: &str,
    long_values: &[&str],
) -> (Vec<Opt>, Vec<Word>) {
    scan_in(name, "", args, short_values, long_values)
}

/// [`scan`] for a subcommand with its own option table (`git rebase`, `git difftool`).
pub(crate) fn scan_in(
    name: &str,
    sub: &str,
    args: &[Word],
    short_values: &str,
    long_values: &[&str],
) -> (Vec<Opt>, Vec<Word>) {
    let mut opts = Vec::new();
    let mut operands = Vec::new();
    let mut i = 0;
    let mut only_operands = false;
    while let Some(w) = args.get(i) {
        i += 1;
        let t = w.text.as_str();
        if only_operands || !w.exact || !t.starts_with('-') || t == "-" {
            operands.push(w.clone());
            continue;
        }
        if t == "--" {
            only_operands = true;
            continue;
        }
        if let Some(long) = t.strip_prefix("--") {
            let (flag_part, inline) = match long.split_once('=') {
                Some((f, v)) => (f, Some(part(w, v))),
                None => (long, None),
            };
            let flag = format!("--{flag_part}");
            let names: Vec<String> = match taxonomy::long_option(name, sub, &flag) {
                LongOption::Unlisted => vec![flag],
                LongOption::Exact(full) => vec![full.to_owned()],
                LongOption::Ambiguous(all) => all.into_iter().map(str::to_owned).collect(),
            };
            let wants_value = names.iter().any(|n| long_values.contains(&n.as_str()));
            let value = match inline {
                Some(v) => Some(v),
                None if wants_value => {
                    i += 1;
                    args.get(i - 1).cloned()
                }
                None => None,
            };
            for n in names {
                opts.push(Opt {
                    name: n,
                    value: value.clone(),
                });
            }
            continue;
        }
        let letters: Vec<char> = t.chars().skip(1).collect();
        for (k, ch) in letters.iter().enumerate() {
            if short_values.contains(*ch) {
                let rest: String = letters.get(k + 1..).unwrap_or(&[]).iter().collect();
                let value = if rest.is_empty() {
                    i += 1;
                    args.get(i - 1).cloned()
                } else {
                    Some(part(w, &rest))
                };
                opts.push(Opt {
                    name: format!("-{ch}"),
                    value,
                });
                break;
            }
            opts.push(Opt {
                name: format!("-{ch}"),
                value: None,
            });
        }
    }
    (opts, operands)
}

impl Walker<'_> {
    /// Entry point from `exec` for the commands [`handles`] accepts.
    pub(crate) fn deferred(
        &mut self,
        name: &str,
        argv: &[Word],
        args: &[Word],
        scope: &mut Scope,
        stdin: Producer,
    ) -> Producer {
        match name {
            "trap" => self.trap(argv, args, scope),
            "alias" => self.alias(argv, args, scope),
            "coproc" => return self.coproc(argv, args, scope, stdin),
            "sed" | "gsed" => return self.sed(name, argv, args, scope, &stdin),
            "rg" => self.rg(argv, args, scope),
            "tar" | "gtar" => self.tar(name, argv, args, scope),
            "history" => self.history(argv, args, scope),
            "git" => self.git(argv, args, scope),
            "dvc" => {
                self.classify_plain("dvc", argv, scope);
                self.dvc_remote_destination(argv, args, scope);
            }
            "at" | "batch" => {
                self.at(argv, args, scope, stdin);
                return Producer::Opaque;
            }
            "systemd-run" => return self.systemd_run(argv, args, scope, stdin),
            "tmux" => self.tmux(argv, args, scope),
            "screen" => return self.screen(argv, args, scope, stdin),
            "crontab" => {
                self.crontab(argv, args, scope, stdin);
                return Producer::Opaque;
            }
            "ed" => {
                self.ed(argv, scope, stdin);
                return Producer::Opaque;
            }
            _ => {
                self.vim(name, argv, args, scope, stdin);
                return Producer::Opaque;
            }
        }
        // What the command itself writes to stdout (`tar czf - ~/.ssh`, `git credential
        // fill`, `history`) is data for the flow model like any other command's.
        self.producer_of(name, args, &stdin, scope)
    }

    /// `trap 'handler' SIGNAL…`: the handler is shell code run when the signal (or `EXIT`)
    /// arrives — which for `EXIT` is always.
    fn trap(&mut self, argv: &[Word], args: &[Word], scope: &mut Scope) {
        self.record(argv, scope, Verdict::normal("sets a signal handler"));
        let rest: Vec<&Word> = args
            .iter()
            .skip_while(|w| w.exact && w.text == "--")
            .collect();
        if rest
            .first()
            .is_some_and(|w| w.exact && w.text.starts_with('-'))
        {
            // `-l`, `-p`, and `-` (reset) run nothing.
            return;
        }
        if let [handler, _signal, ..] = rest.as_slice() {
            // The handler runs in this shell, later (at its exit, or when a signal arrives):
            // it is judged when this shell ends, with the values its variables can hold then
            // (see `Walker::run_exit_traps`).
            self.exit_traps.push(ExitTrap {
                argv: argv.to_vec(),
                handler: (*handler).clone(),
                set: Box::new(scope.clone()),
                shell: self.shell,
            });
        }
    }

    /// Runs `walk` as a separate shell process (a subshell, a pipeline stage, a
    /// substitution, `bash -c`): the traps it sets are judged when it ends, with its state,
    /// and never leak into the parent's (bash resets traps in subshells).
    pub(crate) fn in_shell<R>(
        &mut self,
        scope: &mut Scope,
        walk: impl FnOnce(&mut Self, &mut Scope) -> R,
    ) -> R {
        let parent = self.shell;
        self.shells += 1;
        self.shell = self.shells;
        let out = walk(self, scope);
        self.run_exit_traps(scope);
        self.shell = parent;
        out
    }

    /// The current shell ends with state `end`: the handlers its `trap`s set run now (or ran
    /// at a signal between the `trap` and here). Each variable a handler reads holds the
    /// value it had when the trap was set or the one it has at the end; a variable the line
    /// reassigned more than once after the trap (or set before it and changed since) may
    /// hold either or an intermediate one, so it is unknown. Invariant: a handler is never
    /// judged with a value the variable cannot hold at some point after the trap — `trap
    /// 'rm -rf "$d"' EXIT; d=$HOME` deletes the home directory.
    pub(crate) fn run_exit_traps(&mut self, end: &Scope) {
        if self.exit_traps.is_empty() {
            return;
        }
        let shell = self.shell;
        let mut mine = Vec::new();
        self.exit_traps.retain_mut(|t| {
            if t.shell == shell {
                mine.push(std::mem::replace(
                    t,
                    ExitTrap {
                        argv: Vec::new(),
                        handler: Word::lit(""),
                        set: Box::new(Scope::new(crate::targets::Cwd::Unknown)),
                        shell,
                    },
                ));
                false
            } else {
                true
            }
        });
        for t in mine {
            for mut state in t.states_at_exit(end) {
                self.eval_code(&t.argv, &t.handler, &mut state, "trap");
            }
        }
    }

    /// Traps whose shell's end the walk did not see: judged with every variable unknown.
    pub(crate) fn run_orphan_traps(&mut self) {
        for t in std::mem::take(&mut self.exit_traps) {
            let mut later = *t.set;
            later.sh.poison();
            self.eval_code(&t.argv, &t.handler, &mut later, "trap");
        }
    }

    /// `alias name='body'`: the body is shell code that runs wherever the name is used. It
    /// is judged here (the arguments a use appends are not known yet) and kept, so each later
    /// use on the line runs it again with that use's arguments (`Walker::expand_alias`).
    fn alias(&mut self, argv: &[Word], args: &[Word], scope: &mut Scope) {
        self.record(argv, scope, Verdict::safe("defines or lists aliases"));
        for w in args {
            if let Some((name, body)) = w.text.split_once('=') {
                let body = part(w, body);
                let mut inner = scope.clone();
                self.eval_code(argv, &body, &mut inner, "alias");
                if w.exact && !name.is_empty() {
                    scope.sh.aliases.retain(|(n, _)| n != name);
                    scope.sh.aliases.push((name.to_owned(), body));
                } else if !w.exact {
                    // A name only known at run time: any command may now be an alias.
                    self.unknown("an alias whose name is only known at run time");
                }
            }
        }
    }

    /// `coproc [NAME] command` (tree-sitter-bash reads it as a plain command word): the
    /// command runs in the background; `{`/`}` of a grouped body are dropped.
    fn coproc(
        &mut self,
        argv: &[Word],
        args: &[Word],
        scope: &mut Scope,
        stdin: Producer,
    ) -> Producer {
        let mut rest = args;
        // `coproc NAME { …; }` names the job; bash sets `NAME_PID` (`COPROC_PID` unnamed) to
        // its process id — the line's own background job, as `$!` is, so `kill $NAME_PID`
        // stops what the line started.
        let named = rest
            .get(1)
            .is_some_and(|w| w.exact && (w.text == "{" || w.text == "("));
        let name = if named {
            rest.first()
                .filter(|w| w.exact)
                .map_or_else(|| "COPROC".to_owned(), |w| w.text.clone())
        } else {
            "COPROC".to_owned()
        };
        scope.sh.set(
            &format!("{name}_PID"),
            crate::state::Val::Known("$!".to_owned()),
            None,
        );
        if named {
            rest = rest.get(1..).unwrap_or(&[]);
        }
        while rest
            .first()
            .is_some_and(|w| w.exact && (w.text == "{" || w.text == "("))
        {
            rest = rest.get(1..).unwrap_or(&[]);
        }
        while rest
            .last()
            .is_some_and(|w| w.exact && (w.text == "}" || w.text == ")"))
        {
            rest = rest.get(..rest.len() - 1).unwrap_or(&[]);
        }
        self.peel(argv, rest, "coproc", scope, stdin)
    }

    /// sed: `-i` targets are judged by `classify_plain`; the script is parsed for `e`
    /// (commands), `s///e` (the edited line as a command), `w` (file writes).
    fn sed(
        &mut self,
        name: &str,
        argv: &[Word],
        args: &[Word],
        scope: &mut Scope,
        stdin: &Producer,
    ) -> Producer {
        self.classify_plain("sed", argv, scope);
        let (opts, operands) = scan(
            "sed",
            args,
            "efl",
            &["--expression", "--file", "--line-length"],
        );
        if opts.iter().any(|o| o.name == "--sandbox") {
            // --sandbox makes sed refuse e, r and w.
            return self.producer_of(name, args, stdin, scope);
        }
        let mut pieces: Vec<Word> = opts
            .iter()
            .filter(|o| o.name == "-e" || o.name == "--expression")
            .filter_map(|o| o.value.clone())
            .collect();
        let from_file = opts.iter().any(|o| o.name == "-f" || o.name == "--file");
        if pieces.is_empty() && !from_file {
            pieces.extend(operands.first().cloned());
        }
        if from_file {
            // A script file is not read here (no I/O): it may hold `e`, `s///e` or `w`.
            self.record(
                argv,
                scope,
                Verdict::unknown(
                    "the sed script is read from a file, so whether it runs commands (e) or writes files (w) is unknown",
                ),
            );
        }
        for piece in &pieces {
            self.sed_script(argv, piece, scope);
        }
        self.producer_of(name, args, stdin, scope)
    }

    /// A script with expansions (`"s/old/$NEW/"`) is read with the expansions as written:
    /// if that text parses, its commands are what runs (an expansion inside a replacement or
    /// regex stays data); if it does not, the script is unknown (ask).
    fn sed_script(&mut self, argv: &[Word], script: &Word, scope: &mut Scope) {
        let actions = match sed::actions(&script.text) {
            Ok(a) => a,
            Err(_) if !script.exact => {
                self.record(
                    argv,
                    scope,
                    Verdict::unknown("the sed script is built at run time (it may run commands)"),
                );
                return;
            }
            Err(e) => {
                self.record(
                    argv,
                    scope,
                    Verdict::unknown(format!("the sed script could not be read: {e}")),
                );
                return;
            }
        };
        for action in actions {
            match action {
                sed::Action::Exec(code) | sed::Action::SubstExec(Some(code)) => {
                    self.run_code_string(argv, &part(script, &code), scope, "sed e");
                }
                sed::Action::ExecPatternSpace | sed::Action::SubstExec(None) => {
                    self.record(argv, scope, ids::RCE_OPAQUE_CODE.verdict());
                }
                sed::Action::Write(file) => {
                    if !matches!(file.as_str(), "/dev/stdout" | "/dev/stderr") {
                        redirect_write(self, &part(script, &file), scope, false);
                    }
                }
                sed::Action::Read(_) | sed::Action::Insert(_) => {}
            }
        }
    }

    /// `rg --pre PROGRAM`: PROGRAM runs once per searched file, with the path as argument.
    /// It is judged as that command; anything but a known read-only filter asks, since it
    /// runs an unreviewed program over every file.
    fn rg(&mut self, argv: &[Word], args: &[Word], scope: &mut Scope) {
        self.classify_plain("rg", argv, scope);
        let (opts, operands) = scan(
            "rg",
            args,
            "efgtTAmMBCjE",
            &[
                "--pre",
                "--pre-glob",
                "--regexp",
                "--file",
                "--glob",
                "--iglob",
                "--type",
                "--type-not",
                "--max-count",
                "--context",
                "--before-context",
                "--after-context",
                "--threads",
                "--encoding",
                "--replace",
                "--max-depth",
                "--sort",
                "--sortr",
                "--colors",
                "--type-add",
                "--max-filesize",
                "--ignore-file",
                "--path-separator",
            ],
        );
        let Some(pre) = opts
            .iter()
            .rev()
            .find(|o| o.name == "--pre")
            .and_then(|o| o.value.clone())
        else {
            return;
        };
        if pre.exact && pre.text.is_empty() {
            return;
        }
        let pattern_given = opts
            .iter()
            .any(|o| matches!(o.name.as_str(), "-e" | "--regexp" | "-f" | "--file"));
        let paths: Vec<Word> = operands
            .into_iter()
            .skip(usize::from(!pattern_given))
            .collect();
        let roots = if paths.is_empty() {
            vec![Word::lit(".")]
        } else {
            paths
        };
        let before = self.commands.len();
        for root in roots {
            let item = Word {
                shape: WordShape::Descendants,
                ..root
            };
            self.peel(
                argv,
                &[pre.clone(), item],
                "rg --pre",
                scope,
                Producer::LocalFile,
            );
        }
        let read_only = self
            .commands
            .get(before..)
            .unwrap_or(&[])
            .iter()
            .all(|c| c.verdict.class == crate::model::Class::Safe);
        if !read_only {
            self.record(argv, scope, ids::EXEC_PREPROCESSOR.verdict());
        }
    }

    /// tar: command-valued options (`--to-command`, `--checkpoint-action=exec=`,
    /// `--use-compress-program`/`-I`, `--info-script`/`-F`, `--new-volume-script`,
    /// `--rsh-command`) are shell code; `--remove-files` deletes what it archives.
    fn tar(&mut self, name: &str, argv: &[Word], args: &[Word], scope: &mut Scope) {
        self.classify_plain(name, argv, scope);
        // Old-style first argument (`tar xzf a.tgz`): a bundle of letters without a dash.
        let mut normalized: Vec<Word> = args.to_vec();
        if let Some(first) = normalized.first_mut()
            && first.exact
            && !first.text.starts_with('-')
            && !first.text.is_empty()
            && first.text.chars().all(|c| c.is_ascii_alphabetic())
        {
            first.text.insert(0, '-');
        }
        let (opts, operands) = scan(
            "tar",
            &normalized,
            "fCIFTXbgHKLNV",
            &[
                "--file",
                "--directory",
                "--to-command",
                "--checkpoint-action",
                "--use-compress-program",
                "--info-script",
                "--new-volume-script",
                "--rsh-command",
                "--rmt-command",
                "--exclude",
                "--exclude-from",
                "--files-from",
                "--transform",
                "--xform",
                "--strip-components",
                "--owner",
                "--group",
                "--mode",
                "--mtime",
                "--format",
                "--warning",
                "--index-file",
                "--blocking-factor",
                "--record-size",
                "--tape-length",
                "--label",
                "--listed-incremental",
                "--sort",
            ],
        );
        for o in &opts {
            let code = match o.name.as_str() {
                "--to-command"
                | "--use-compress-program"
                | "-I"
                | "--info-script"
                | "-F"
                | "--new-volume-script"
                | "--rsh-command"
                | "--rmt-command" => o.value.clone(),
                "--checkpoint-action" => o.value.as_ref().and_then(|v| {
                    v.text
                        .strip_prefix("exec=")
                        .or_else(|| v.text.strip_prefix("exec "))
                        .map(|c| part(v, c))
                }),
                _ => None,
            };
            if let Some(code) = code {
                self.option_code(argv, &code, scope, "tar", TAR_FILTERS);
            }
        }
        if opts.iter().any(|o| o.name == "--remove-files") {
            let cwd = opts
                .iter()
                .rev()
                .find(|o| o.name == "-C" || o.name == "--directory")
                .and_then(|o| o.value.clone());
            for target in &operands {
                let target = match &cwd {
                    Some(dir) if !target.text.starts_with('/') => Word {
                        text: format!("{}/{}", dir.text, target.text),
                        exact: dir.exact && target.exact,
                        shape: target.shape,
                        substs: Vec::new(),
                    },
                    _ => target.clone(),
                };
                let verdict = crate::targets::judge_delete(
                    &target.text,
                    target.exact,
                    target.shape(),
                    true,
                    &scope.cwd,
                    self.ctx,
                )
                .map_or_else(
                    || Verdict::normal("deletes archived files inside the workspace or temp dir"),
                    crate::taxonomy::RuleRef::verdict,
                );
                self.record(
                    &[Word::lit("tar --remove-files"), target.clone()],
                    scope,
                    verdict,
                );
            }
        }
    }

    /// `git remote add NAME URL`, `git remote set-url NAME URL` and `git config
    /// remote.NAME.url URL` (or `.pushurl`) remember NAME; `git push NAME …` to such a remote
    /// (a bare `git push` when `origin` was pointed elsewhere), or to a URL given on the
    /// command line, sends the repository (and any secret committed in it) to a destination
    /// that is not one the repository had before the line.
    fn git_remote_destination(&mut self, argv: &[Word], sub: &str, rest: &[Word], scope: &Scope) {
        let operands: Vec<&Word> = rest
            .iter()
            .filter(|w| !(w.exact && w.text.starts_with('-')))
            .collect();
        match sub {
            "remote" => {
                if let [verb, name, _url, ..] = operands.as_slice()
                    && verb.exact
                    && matches!(verb.text.as_str(), "add" | "set-url")
                {
                    self.files.new_remotes.push(name.text.clone());
                }
            }
            "config" => {
                let kv = match operands.as_slice() {
                    [set, key, _value, ..] if set.exact && set.text == "set" => Some(*key),
                    [key, _value, ..] => Some(*key),
                    _ => None,
                };
                if let Some(key) = kv.filter(|k| k.exact)
                    && let Some(rest) = key
                        .text
                        .get(..7)
                        .filter(|p| p.eq_ignore_ascii_case("remote."))
                        .and_then(|_| key.text.get(7..))
                    && let Some((name, field)) = rest.rsplit_once('.')
                    && (field.eq_ignore_ascii_case("url") || field.eq_ignore_ascii_case("pushurl"))
                {
                    self.files.new_remotes.push(name.to_owned());
                }
            }
            // `git add -f .env`, `git add key` (a copy of `~/.ssh/id_rsa` made on the line): a
            // credential staged for the history, where every clone and push carries it.
            "add" | "stage" => {
                let staged = operands.iter().filter(|w| w.exact).find_map(|w| {
                    crate::flow::read_source(&w.text, &scope.cwd, self.ctx, &self.files)
                });
                if staged.is_some() {
                    self.record(argv, scope, ids::CRED_COMMIT_SECRET.verdict());
                }
            }
            "push" => {
                if let Some(dest) = operands.first() {
                    let t = dest.text.as_str();
                    let url = t.contains("://")
                        || (t.contains('@') && t.contains(':'))
                        || t.starts_with("ext::");
                    if url || self.files.new_remotes.iter().any(|r| r == t) {
                        self.record(argv, scope, ids::GIT_PUSH_NEW_REMOTE.verdict());
                    }
                } else if self.files.new_remotes.iter().any(|r| r == "origin") {
                    self.record(argv, scope, ids::GIT_PUSH_NEW_REMOTE.verdict());
                }
            }
            _ => {}
        }
    }

    /// DVC's counterpart of [`Self::git_remote_destination`]: `dvc remote add NAME URL` and
    /// `dvc remote modify NAME url URL` point a data remote somewhere new; a `dvc push` to it
    /// (`-r NAME`, or without `-r` once any remote was pointed on the line: the default remote
    /// may be the one changed) uploads the tracked datasets and models there.
    fn dvc_remote_destination(&mut self, argv: &[Word], args: &[Word], scope: &Scope) {
        let mut remote: Option<String> = None;
        let mut operands: Vec<&Word> = Vec::new();
        let mut it = args.iter();
        while let Some(w) = it.next() {
            let t = w.text.as_str();
            if w.exact && matches!(t, "-r" | "--remote") {
                remote = it.next().map(|v| v.text.clone());
            } else if let Some(v) = t.strip_prefix("--remote=").filter(|_| w.exact) {
                remote = Some(v.to_owned());
            } else if !(w.exact && t.starts_with('-')) {
                operands.push(w);
            }
        }
        match operands.as_slice() {
            [remote_cmd, verb, name, rest @ ..]
                if remote_cmd.text == "remote"
                    && (verb.text == "add"
                        || (verb.text == "modify"
                            && rest.first().is_some_and(|k| k.text == "url"))) =>
            {
                self.files.new_remotes.push(format!("dvc:{}", name.text));
            }
            [push, ..] if push.text == "push" => {
                let to_new = match remote {
                    Some(r) => {
                        let key = format!("dvc:{r}");
                        self.files.new_remotes.contains(&key)
                    }
                    None => self.files.new_remotes.iter().any(|n| n.starts_with("dvc:")),
                };
                if to_new {
                    self.record(argv, scope, ids::GIT_PUSH_NEW_REMOTE.verdict());
                }
            }
            _ => {}
        }
    }

    /// `history -a FILE` / `-w FILE` write the session's history (attacker-chosen lines
    /// included) to FILE: into a shell profile that is code for every future shell.
    fn history(&mut self, argv: &[Word], args: &[Word], scope: &mut Scope) {
        self.classify_plain("history", argv, scope);
        let mut writes = false;
        for w in args {
            if w.exact && w.text.starts_with('-') && w.text.len() > 1 {
                writes |= w.text.contains(['a', 'w']);
                continue;
            }
            if writes {
                redirect_write(self, w, scope, false);
            }
        }
    }

    /// `at`/`batch`: commands from stdin (or `-f file`) run later.
    fn at(&mut self, argv: &[Word], args: &[Word], scope: &mut Scope, stdin: Producer) {
        let (opts, _) = scan("at", args, "fqtM", &[]);
        if opts
            .iter()
            .any(|o| matches!(o.name.as_str(), "-l" | "-d" | "-r" | "-c"))
        {
            self.record(argv, scope, Verdict::safe("lists or removes queued jobs"));
            return;
        }
        if opts.iter().any(|o| o.name == "-f") {
            self.record(argv, scope, Verdict::normal("schedules a local script"));
            return;
        }
        self.judge_code_input(argv, stdin, None, scope, "at");
    }

    /// `systemd-run [options] COMMAND…`: runs COMMAND as a transient unit (later, with
    /// `--on-calendar`/`--on-active`).
    fn systemd_run(
        &mut self,
        argv: &[Word],
        args: &[Word],
        scope: &mut Scope,
        stdin: Producer,
    ) -> Producer {
        let mut i = 0;
        while let Some(w) = args.get(i) {
            if !(w.exact && w.text.starts_with('-')) {
                break;
            }
            i += 1;
            let takes_value = !w.text.contains('=')
                && matches!(
                    w.text.as_str(),
                    "-p" | "--property"
                        | "-u"
                        | "--unit"
                        | "-d"
                        | "--description"
                        | "--slice"
                        | "-E"
                        | "--setenv"
                        | "--uid"
                        | "--gid"
                        | "--nice"
                        | "-H"
                        | "--host"
                        | "-M"
                        | "--machine"
                        | "--working-directory"
                        | "--on-active"
                        | "--on-boot"
                        | "--on-startup"
                        | "--on-unit-active"
                        | "--on-unit-inactive"
                        | "--on-calendar"
                        | "--on-timezone-change"
                        | "--timer-property"
                        | "--path-property"
                        | "--socket-property"
                        | "--service-type"
                );
            if takes_value {
                i += 1;
            }
        }
        self.peel(
            argv,
            args.get(i..).unwrap_or(&[]),
            "systemd-run",
            scope,
            stdin,
        )
    }

    /// vim/nvim/ex/vi: `-c CMD`, `+CMD`, `--cmd CMD` and ex commands on stdin in ex mode are
    /// ex commands; `:!cmd`, `:r !cmd`, `:w !cmd`, `:terminal cmd` run shell, `:py3`/`:perl`/
    /// `:ruby` run interpreter code, vimscript evaluation (`:call`, `:exe`, …) asks.
    /// `rvim`/`-Z` (restricted mode) cannot run external commands.
    fn vim(
        &mut self,
        name: &str,
        argv: &[Word],
        args: &[Word],
        scope: &mut Scope,
        stdin: Producer,
    ) {
        self.classify_plain(name, argv, scope);
        let mut commands: Vec<Word> = Vec::new();
        let mut restricted = matches!(name, "rvim" | "rview");
        let mut ex_mode = name == "ex";
        let mut i = 0;
        while let Some(w) = args.get(i) {
            i += 1;
            if !w.exact {
                continue;
            }
            let t = w.text.as_str();
            match t {
                "-c" | "--cmd" => {
                    commands.extend(args.get(i).cloned());
                    i += 1;
                }
                "-Z" => restricted = true,
                "-e" | "-E" | "-es" | "-Es" => ex_mode = true,
                "-S" | "-u" | "-U" | "-i" | "-T" | "-w" | "-W" | "-t" | "-q" | "--listen"
                | "--server" | "--servername" => i += 1,
                _ => {
                    if let Some(cmd) = t.strip_prefix('+')
                        && !cmd.is_empty()
                        && !cmd.starts_with('/')
                        && !cmd.chars().all(|c| c.is_ascii_digit())
                    {
                        commands.push(part(w, cmd));
                    } else if let Some(cmd) = t.strip_prefix("--cmd=") {
                        commands.push(part(w, cmd));
                    } else if let Some(cluster) = t.strip_prefix('-')
                        && !cluster.starts_with('-')
                    {
                        // vim reads short options as a cluster: `-sc CMD`, `-escq`, `-c!id`:
                        // `c` takes the rest of the word, or the next word, as a command.
                        for (k, ch) in cluster.char_indices() {
                            match ch {
                                'c' => {
                                    let rest = &cluster[k + 1..];
                                    if rest.is_empty() {
                                        commands.extend(args.get(i).cloned());
                                        i += 1;
                                    } else {
                                        commands.push(part(w, rest));
                                    }
                                    break;
                                }
                                'e' | 'E' => ex_mode = true,
                                'Z' => restricted = true,
                                'S' | 'u' | 'U' | 'i' | 'T' | 'w' | 'W' | 't' => {
                                    if cluster[k + 1..].is_empty() {
                                        i += 1;
                                    }
                                    break;
                                }
                                _ => {}
                            }
                        }
                    }
                }
            }
        }
        if restricted {
            return;
        }
        if ex_mode {
            match stdin {
                Producer::Text { exact: false, .. } => {
                    self.record(argv, scope, ids::RCE_OPAQUE_CODE.verdict());
                }
                Producer::Text { text, exact } => {
                    commands.extend(text.lines().map(|l| Word {
                        text: l.to_owned(),
                        exact,
                        shape: WordShape::Exact,
                        substs: Vec::new(),
                    }));
                }
                Producer::Nothing | Producer::LocalFile => {}
                _ => self.record(argv, scope, ids::RCE_OPAQUE_CODE.verdict()),
            }
        }
        for c in &commands {
            self.ex_command(argv, c, scope, 0);
        }
    }

    /// `ed` reads its commands on standard input: a script the line spells out (`printf
    /// '…' | ed -s f`, `ed f <<< …`) is read for shell escapes ([`crate::ex::ed_items`]); a
    /// script from another program's output cannot be read (ask); a file or the terminal is
    /// the user's editing. (`red`, the restricted ed, cannot run commands.)
    fn ed(&mut self, argv: &[Word], scope: &mut Scope, stdin: Producer) {
        self.classify_plain("ed", argv, scope);
        match stdin {
            Producer::Text { text, exact: true } => {
                let script = Word {
                    text,
                    exact: true,
                    shape: WordShape::Exact,
                    substs: Vec::new(),
                };
                let items = crate::ex::ed_items(&script.text);
                self.editor_items(argv, &script, items, scope);
            }
            Producer::Text { exact: false, .. } => {
                self.record(argv, scope, ids::RCE_OPAQUE_CODE.verdict());
            }
            Producer::Nothing | Producer::LocalFile => {}
            _ => self.record(argv, scope, ids::RCE_OPAQUE_CODE.verdict()),
        }
    }

    fn ex_command(&mut self, argv: &[Word], command: &Word, scope: &mut Scope, depth: usize) {
        if !command.exact {
            self.record(
                argv,
                scope,
                Verdict::unknown("an editor command is built at run time"),
            );
            return;
        }
        let items = crate::ex::items(&command.text, depth);
        self.editor_items(argv, command, items, scope);
    }

    /// What an editor's commands do beyond editing (see [`crate::ex::Item`]), judged.
    fn editor_items(
        &mut self,
        argv: &[Word],
        command: &Word,
        items: Vec<crate::ex::Item>,
        scope: &mut Scope,
    ) {
        for item in items {
            match item {
                crate::ex::Item::Shell(code) => {
                    // A shell escape from the editor's command line is a shell escape whatever
                    // it runs (`vi -c '!sh'`): judged as its code, and at least asked.
                    let before = self.commands.len();
                    self.run_code_string(argv, &part(command, &code), scope, "vim :!");
                    self.escape_asks(argv, scope, before, &[]);
                }
                crate::ex::Item::ShellFedBuffer(code) => {
                    let before = self.commands.len();
                    self.run_code_string(argv, &part(command, &code), scope, "vim :w !");
                    // The buffer is the command's stdin: into a shell or interpreter it is code.
                    let runs_buffer = self
                        .commands
                        .get(before)
                        .and_then(|c| c.argv.first())
                        .is_some_and(|p| {
                            let base = p.rsplit('/').next().unwrap_or(p);
                            crate::resolve::is_code_runner(base)
                        });
                    if runs_buffer {
                        self.record(argv, scope, ids::RCE_OPAQUE_CODE.verdict());
                    }
                }
                crate::ex::Item::Lang(lang, code) => {
                    self.foreign(lang, argv, &part(command, &code), scope, "vim :py");
                }
                crate::ex::Item::Write(file) => {
                    redirect_write(self, &part(command, &file), scope, false);
                }
                crate::ex::Item::Script(what) => self.record(
                    argv,
                    scope,
                    Verdict::unknown(format!(
                        "the editor evaluates script code ({what}), which can run commands"
                    )),
                ),
            }
        }
    }

    /// git: the command itself through the taxonomy, then every place where git takes a
    /// command line from its arguments: `-c key=value` and `git config key value` for
    /// command-valued keys, aliases (a `!` alias is shell; a plain alias expands to a git
    /// command line that is judged again), `--upload-pack`/`--receive-pack`/`--exec`, and URL
    /// rewrites (`url.<base>.insteadOf`), which send later fetches and pushes elsewhere.
    fn git(&mut self, argv: &[Word], args: &[Word], scope: &mut Scope) {
        self.classify_plain("git", argv, scope);
        let parsed = Args::parse_by("git", args, |w| w.text.as_str());
        let sub = parsed.positionals.first().copied().unwrap_or("");
        let mut aliases: Vec<(String, Word)> = Vec::new();
        // Global options before the subcommand.
        let mut i = 0;
        let mut sub_index = None;
        while let Some(w) = args.get(i) {
            i += 1;
            let t = w.text.as_str();
            if !w.exact || !t.starts_with('-') {
                sub_index = Some(i - 1);
                break;
            }
            if t == "-c" {
                if let Some(kv) = args.get(i) {
                    i += 1;
                    if let Some((key, value)) = kv.text.split_once('=') {
                        self.git_config_value(argv, key, &part(kv, value), scope, &mut aliases);
                        // `git -c remote.x.url=URL push x`: a remote defined for this one
                        // command is a destination nobody reviewed, as `git remote add` is.
                        if kv.exact
                            && let Some(name) = key
                                .get(..7)
                                .filter(|p| p.eq_ignore_ascii_case("remote."))
                                .and_then(|_| key.get(7..))
                                .and_then(|r| r.rsplit_once('.'))
                                .filter(|(_, f)| {
                                    f.eq_ignore_ascii_case("url")
                                        || f.eq_ignore_ascii_case("pushurl")
                                })
                                .map(|(n, _)| n.to_owned())
                        {
                            self.files.new_remotes.push(name);
                        }
                    }
                }
            } else if t == "--config-env" || t.starts_with("--config-env=") {
                if t == "--config-env" {
                    i += 1;
                }
                self.record(argv, scope, ids::GIT_EXEC_CONFIG.verdict());
            } else if matches!(
                t,
                "-C" | "--git-dir" | "--work-tree" | "--namespace" | "--super-prefix"
            ) {
                i += 1;
            } else if t.starts_with("--exec-path=") {
                // git's own sub-programs (`git-upload-pack`, …) taken from another directory.
                self.record(argv, scope, ids::GIT_EXEC_CONFIG.verdict());
            }
        }
        let rest = sub_index.and_then(|k| args.get(k + 1..)).unwrap_or(&[]);
        self.git_remote_destination(argv, sub, rest, scope);
        // Subcommand options that name a program to run.
        let mut k = 0;
        while let Some(w) = rest.get(k) {
            k += 1;
            if !w.exact || !w.text.starts_with("--") {
                if sub == "clone" && w.exact && w.text == "-u" {
                    if let Some(v) = rest.get(k)
                        && !self.runs_role_program(v, scope, "git --upload-pack")
                    {
                        self.record(argv, scope, ids::GIT_EXEC_CONFIG.verdict());
                    }
                    k += 1;
                } else if sub == "clone" && w.exact && w.text == "-c" {
                    if let Some(kv) = rest.get(k)
                        && let Some((key, value)) = kv.text.split_once('=')
                    {
                        self.git_config_value(argv, key, &part(kv, value), scope, &mut aliases);
                    }
                    k += 1;
                } else if w.text.starts_with("ext::") {
                    self.record(argv, scope, ids::GIT_EXEC_CONFIG.verdict());
                }
                continue;
            }
            let (flag_part, inline) = match w.text.split_once('=') {
                Some((f, v)) => (f.to_owned(), Some(part(w, v))),
                None => (w.text.clone(), None),
            };
            let names: Vec<&str> = match taxonomy::long_option("git", sub, &flag_part) {
                LongOption::Unlisted => vec![],
                LongOption::Exact(full) => vec![full],
                LongOption::Ambiguous(all) => all,
            };
            // `--exec` names the remote pack program for transport commands; for `rebase` it
            // is a command run after each commit (judged in `git_subcommand_code`).
            let runs = names.iter().any(|n| {
                matches!(*n, "--upload-pack" | "--receive-pack")
                    || (*n == "--exec" && sub != "rebase")
            });
            let config = names.contains(&"--config") && sub == "clone";
            if runs || config {
                let value = inline.or_else(|| {
                    k += 1;
                    rest.get(k - 1).cloned()
                });
                if let Some(v) = value {
                    if config {
                        if let Some((key, val)) = v.text.split_once('=') {
                            self.git_config_value(argv, key, &part(&v, val), scope, &mut aliases);
                        }
                    } else if !self.runs_role_program(&v, scope, "git --upload-pack") {
                        self.record(argv, scope, ids::GIT_EXEC_CONFIG.verdict());
                    }
                }
            }
        }
        if sub == "config" {
            self.git_config_command(argv, rest, scope);
        }
        self.git_subcommand_code(argv, sub, rest, scope);
        // An alias defined on this command line and used as the subcommand.
        if let Some((_, body)) = aliases.iter().find(|(n, _)| n == sub) {
            let body = body.clone();
            if let Some(code) = body.text.strip_prefix('!') {
                let mut line = code.to_owned();
                for w in rest {
                    line.push(' ');
                    line.push_str(&w.text);
                }
                self.run_code_string(argv, &part(&body, &line), scope, "git alias");
            } else {
                let mut expanded = vec![Word::lit("git")];
                expanded.extend(
                    split_cmdline(&body.text)
                        .into_iter()
                        .map(|t| part(&body, &t)),
                );
                expanded.extend(rest.iter().cloned());
                if scope.via.iter().filter(|v| *v == "git alias").count() < 4 {
                    self.peel(argv, &expanded, "git alias", scope, Producer::Nothing);
                }
            }
        }
    }

    /// git subcommands whose arguments are commands: `submodule foreach CMD` (shell),
    /// `bisect run CMD ARGS…` (a program), `rebase -x/--exec CMD` (shell, after each commit),
    /// `difftool -x/--extcmd CMD`.
    fn git_subcommand_code(&mut self, argv: &[Word], sub: &str, rest: &[Word], scope: &mut Scope) {
        match sub {
            "submodule" => {
                let mut words = rest
                    .iter()
                    .skip_while(|w| w.exact && w.text.starts_with('-'));
                if words.next().is_some_and(|w| w.exact && w.text == "foreach") {
                    let code: Vec<&Word> = words
                        .skip_while(|w| w.exact && w.text.starts_with("--"))
                        .collect();
                    if let Some(first) = code.first() {
                        let joined = Word {
                            text: code
                                .iter()
                                .map(|w| w.text.as_str())
                                .collect::<Vec<_>>()
                                .join(" "),
                            exact: code.iter().all(|w| w.exact),
                            ..(*first).clone()
                        };
                        self.run_code_string(argv, &joined, scope, "git submodule foreach");
                    }
                }
            }
            "bisect" if rest.first().is_some_and(|w| w.exact && w.text == "run") => {
                let program = rest.get(1..).unwrap_or(&[]);
                self.peel(argv, program, "git bisect run", scope, Producer::Nothing);
            }
            "rebase" | "difftool" => {
                let (opts, _) = scan_in("git", sub, rest, "xt", &["--exec", "--extcmd", "--tool"]);
                for o in opts {
                    if matches!(o.name.as_str(), "-x" | "--exec" | "--extcmd")
                        && let Some(code) = o.value
                    {
                        self.run_code_string(argv, &code, scope, "git rebase --exec");
                    }
                }
            }
            _ => {}
        }
    }

    /// `tmux new-session|new-window|split-window|respawn-pane|run-shell [opts] CMD` runs CMD
    /// with the shell; `send-keys … Enter` types a command line into a pane and runs it.
    fn tmux(&mut self, argv: &[Word], args: &[Word], scope: &mut Scope) {
        self.record(
            argv,
            scope,
            Verdict::normal("controls terminal multiplexer sessions"),
        );
        let Some(pos) = args
            .iter()
            .position(|w| !(w.exact && w.text.starts_with('-')))
        else {
            return;
        };
        let verb = args.get(pos).map_or("", |w| w.text.as_str());
        let rest = args.get(pos + 1..).unwrap_or(&[]);
        match verb {
            "new-session" | "new" | "new-window" | "neww" | "split-window" | "splitw"
            | "respawn-pane" | "respawnp" | "respawn-window" | "respawnw" | "run-shell" | "run" => {
                let (_, operands) = scan("tmux", rest, "cstnxyFeflpbwTS", &[]);
                if !operands.is_empty() {
                    self.joined_code(argv, &operands, scope, "tmux");
                }
            }
            "send-keys" | "send" => {
                let (_, keys) = scan("tmux", rest, "tNc", &[]);
                let enter = keys
                    .iter()
                    .any(|k| k.exact && matches!(k.text.as_str(), "Enter" | "C-m" | "KPEnter"));
                let typed: Vec<Word> = keys
                    .into_iter()
                    .filter(|k| {
                        !(k.exact && matches!(k.text.as_str(), "Enter" | "C-m" | "KPEnter"))
                    })
                    .collect();
                if enter && !typed.is_empty() {
                    self.joined_code(argv, &typed, scope, "tmux send-keys");
                }
            }
            _ => {}
        }
    }

    /// `screen [-dmS name] CMD ARGS…`: runs CMD (a program, not a shell string).
    fn screen(
        &mut self,
        argv: &[Word],
        args: &[Word],
        scope: &mut Scope,
        stdin: Producer,
    ) -> Producer {
        let mut i = 0;
        let mut remote_command = false;
        while let Some(w) = args.get(i) {
            if !(w.exact && w.text.starts_with('-')) {
                break;
            }
            i += 1;
            // `-S name`, and clusters ending in a value letter (`-dmS name`).
            let t = w.text.as_str();
            if !t.starts_with("--") && t.ends_with('X') {
                // `-X CMD ARGS…`: a screen command sent to a running session.
                remote_command = true;
                break;
            }
            if t == "-Logfile"
                || (!t.starts_with("--") && t.ends_with(['S', 'c', 'e', 'h', 'p', 's', 'T', 't']))
            {
                i += 1;
            }
        }
        self.output_options("screen", argv, args.get(..i).unwrap_or(&[]), scope);
        let rest = args.get(i..).unwrap_or(&[]);
        if remote_command {
            // `screen -X stuff 'TEXT\n'` types TEXT into the session's shell; `-X exec CMD`
            // runs CMD in the window. Both are shell run elsewhere.
            match rest {
                [cmd, text, ..] if cmd.exact && cmd.text == "stuff" => {
                    let typed = text
                        .text
                        .trim_end_matches("\\n")
                        .trim_end_matches("\\r")
                        .trim_end_matches("^M")
                        .trim_end_matches(['\n', '\r']);
                    let code = part(text, typed);
                    self.classify_plain("screen", argv, scope);
                    self.run_code_string(argv, &code, scope, "screen -X stuff");
                    return Producer::Opaque;
                }
                [cmd, program @ ..] if cmd.exact && cmd.text == "exec" && !program.is_empty() => {
                    return self.peel(argv, program, "screen -X exec", scope, stdin);
                }
                _ => {
                    self.classify_plain("screen", argv, scope);
                    return Producer::Opaque;
                }
            }
        }
        self.peel(argv, rest, "screen", scope, stdin)
    }

    /// `crontab FILE|-`: installs jobs; each job's command is shell run later. Jobs on stdin
    /// are read line by line (five time fields or an `@keyword`, then the command).
    fn crontab(&mut self, argv: &[Word], args: &[Word], scope: &mut Scope, stdin: Producer) {
        self.classify_plain("crontab", argv, scope);
        let operands: Vec<&Word> = args
            .iter()
            .filter(|w| !(w.exact && w.text.starts_with('-') && w.text != "-"))
            .collect();
        let lists_or_removes = args
            .iter()
            .any(|w| w.exact && matches!(w.text.as_str(), "-l" | "-r" | "-e" | "-i"));
        if lists_or_removes {
            return;
        }
        let from_stdin = operands.is_empty() || operands.iter().any(|w| w.exact && w.text == "-");
        if !from_stdin {
            self.record(
                argv,
                scope,
                Verdict::normal("installs jobs from a local file"),
            );
            return;
        }
        match stdin {
            Producer::Text { text, exact } => {
                for line in text.lines() {
                    let line = line.trim();
                    if line.is_empty() || line.starts_with('#') || is_cron_variable(line) {
                        continue;
                    }
                    let fields = if line.starts_with('@') { 1 } else { 5 };
                    let command: Vec<&str> = line.split_whitespace().skip(fields).collect();
                    let code = Word {
                        text: command.join(" "),
                        exact,
                        shape: WordShape::Exact,
                        substs: Vec::new(),
                    };
                    self.run_code_string(argv, &code, scope, "crontab job");
                }
            }
            Producer::Nothing | Producer::LocalFile => {}
            other => self.judge_code_input(argv, other, None, scope, "crontab"),
        }
    }

    /// Runs several words as one shell command line (`tmux new 'a b'`, `tmux new a b`).
    fn joined_code(&mut self, argv: &[Word], words: &[Word], scope: &mut Scope, via: &str) {
        self.run_code_string(argv, &Word::joined(words), scope, via);
    }

    /// `git config [scope] key value` (and `git config set key value`): a command-valued key
    /// stores code that every later git command runs.
    fn git_config_command(&mut self, argv: &[Word], rest: &[Word], scope: &mut Scope) {
        let mut operands: Vec<&Word> = Vec::new();
        let mut reading = false;
        let mut i = 0;
        while let Some(w) = rest.get(i) {
            i += 1;
            if w.exact && w.text.starts_with("--") {
                let flag = w.text.split('=').next().unwrap_or("");
                let name = match taxonomy::long_option("git", "config", flag) {
                    LongOption::Exact(full) => full,
                    _ => flag,
                };
                if matches!(
                    name,
                    "--get"
                        | "--get-all"
                        | "--get-regexp"
                        | "--get-urlmatch"
                        | "--list"
                        | "--unset"
                        | "--unset-all"
                        | "--remove-section"
                        | "--rename-section"
                        | "--get-color"
                        | "--get-colorbool"
                        | "--edit"
                ) {
                    reading = true;
                }
                if !w.text.contains('=')
                    && matches!(
                        name,
                        "--file" | "--blob" | "--type" | "--default" | "--comment" | "--value"
                    )
                {
                    i += 1;
                }
                continue;
            }
            if w.exact && w.text.starts_with('-') && w.text.len() > 1 {
                if matches!(w.text.as_str(), "-f" | "-t") {
                    i += 1;
                }
                if matches!(w.text.as_str(), "-l" | "-e") {
                    reading = true;
                }
                continue;
            }
            operands.push(w);
        }
        if operands.first().is_some_and(|w| {
            matches!(
                w.text.as_str(),
                "set" | "get" | "unset" | "list" | "edit" | "rename-section" | "remove-section"
            )
        }) {
            let verb = operands.remove(0);
            reading = verb.text != "set";
        }
        if reading {
            return;
        }
        if let [key, value, ..] = operands.as_slice() {
            let mut aliases = Vec::new();
            self.git_config_value(argv, &key.text, value, scope, &mut aliases);
        }
    }

    /// Judges one configuration assignment. Command-valued keys have their value analysed as
    /// shell (so `core.pager=cat` is fine and `core.fsmonitor='rm -rf ~'` is not); URL
    /// rewrites and keys that load code from elsewhere ask.
    fn git_config_value(
        &mut self,
        argv: &[Word],
        key: &str,
        value: &Word,
        scope: &mut Scope,
        aliases: &mut Vec<(String, Word)>,
    ) {
        let key = key.to_ascii_lowercase();
        if let Some(alias) = key.strip_prefix("alias.") {
            aliases.push((alias.to_owned(), value.clone()));
            if value.text.starts_with('!') {
                // Judged where it is used; defined and never used, it is still stored code.
                let code = value.text.trim_start_matches('!');
                self.run_code_string(argv, &part(value, code), scope, "git alias");
            }
            return;
        }
        if key.starts_with("url.")
            && (key.ends_with(".insteadof") || key.ends_with(".pushinsteadof"))
        {
            // `url.https://github.com/.insteadOf=git@github.com:`: the same server reached by
            // another transport (SSH ↔ HTTPS) is no redirect; any other host or path prefix, or one
            // the line does not spell out, is.
            let base = key
                .strip_prefix("url.")
                .and_then(|k| {
                    k.strip_suffix(".pushinsteadof")
                        .or_else(|| k.strip_suffix(".insteadof"))
                })
                .unwrap_or("");
            // The whole prefix must match, not only the host: `url.https://github.com/attacker/
            // .insteadOf=https://github.com/victim/` sends the victim's repositories' fetches to
            // the attacker's on the same host.
            let same_place = value.exact
                && url_place(base).is_some_and(|(bh, bp)| {
                    url_place(&value.text).is_some_and(|(vh, vp)| {
                        vh.eq_ignore_ascii_case(bh) && vp.eq_ignore_ascii_case(bp)
                    })
                });
            if !same_place {
                self.record(argv, scope, ids::GIT_URL_REWRITE.verdict());
            }
            return;
        }
        // `key` is lower-cased already; these are dotted config-key suffixes, not extensions.
        let ends = |suffix: &str| key.ends_with(suffix);
        let command_valued = matches!(
            key.as_str(),
            "core.pager"
                | "core.editor"
                | "core.sshcommand"
                | "core.askpass"
                | "core.gitproxy"
                | "diff.external"
                | "sequence.editor"
                | "gpg.program"
                | "gpg.ssh.program"
                | "gpg.x509.program"
                | "uploadpack.packobjectshook"
                | "core.alternaterefscommand"
                | "sendemail.sendmailcmd"
                | "sendemail.tocmd"
                | "sendemail.cccmd"
                | "web.browser"
                | "merge.tool"
                | "diff.tool"
        ) || key.starts_with("pager.")
            || ends(".textconv")
            || ends(".command")
            || ends(".driver")
            || ends(".program")
            || ends(".cmd")
            || (key.starts_with("filter.")
                && (ends(".clean") || ends(".smudge") || ends(".process")));
        let fsmonitor_hook = key == "core.fsmonitor"
            && !matches!(
                value.text.to_ascii_lowercase().as_str(),
                "true" | "false" | "yes" | "no" | "on" | "off" | "1" | "0" | ""
            );
        let helper = key == "credential.helper"
            || (key.starts_with("credential.") && key.ends_with(".helper"));
        // `submodule.NAME.update = !CMD` runs CMD on `git submodule update` (in `.gitmodules`
        // too, where a clone brings it); the other values are merge strategies.
        let submodule_command = key.starts_with("submodule.") && ends(".update");
        let code = if command_valued || fsmonitor_hook {
            Some(value.clone())
        } else if submodule_command {
            value
                .text
                .strip_prefix('!')
                .map(|code| part(value, code))
                .or_else(|| (!value.exact).then(|| value.clone()))
        } else if helper {
            // `!cmd` is shell; a bare name is `git credential-NAME`; a path is a program.
            match value.text.strip_prefix('!') {
                Some(code) => Some(part(value, code)),
                None if value.text.contains('/') || !value.exact => Some(value.clone()),
                None => None,
            }
        } else {
            None
        };
        // A textconv or a clean/smudge filter turns file content into other content: the
        // converters made for that (`jupyter nbconvert`, `nbstripout`, `pdftotext`) are what
        // such a key is meant to name, as editors are for `core.editor`.
        let converts = ends(".textconv")
            || (key.starts_with("filter.") && (ends(".clean") || ends(".smudge")));
        if let Some(code) = code {
            let meant = |base: &str| {
                crate::argdanger::is_role_program(base) || (converts && is_converter(base))
            };
            if !self.runs_only(&code, scope, "git config command", &meant) {
                self.record(argv, scope, ids::GIT_EXEC_CONFIG.verdict());
            }
        } else if key == "core.hookspath"
            && value.exact
            && crate::contained::project_hooks_dir(&value.text)
            && !argv.iter().any(|w| {
                matches!(w.text.as_str(), "--global" | "--system" | "--file" | "-f")
                    || w.text.starts_with("--file=")
            })
        {
            // A tracked hooks directory of the repository (`.githooks`, `.husky`): what
            // runs from it is judged when a later git command loads it (the policy's
            // `loaded` hooks), as the default `.git/hooks` is.
        } else if matches!(
            key.as_str(),
            "core.hookspath"
                | "include.path"
                | "protocol.ext.allow"
                | "core.worktree"
                // Templates are copied into every repository `git init`/`git clone` makes,
                // their `hooks/` included: code that runs in repositories yet to exist.
                | "init.templatedir"
        ) || key.starts_with("includeif.")
        {
            self.record(argv, scope, ids::GIT_EXEC_CONFIG.verdict());
        }
    }
}

/// Content converters a `diff.*.textconv` or `filter.*.clean|smudge` is meant to name: they
/// read a file (or stdin) and print another form of it. The value is still analysed as code;
/// this list only decides that a converter doing ordinary work is not a planted command.
fn is_converter(base: &str) -> bool {
    matches!(
        base,
        "jupyter"
            | "nbstripout"
            | "jupytext"
            | "pandoc"
            | "pdftotext"
            | "docx2txt"
            | "odt2txt"
            | "catdoc"
            | "xls2csv"
            | "exiftool"
            | "strings"
            | "hexdump"
            | "xxd"
            | "od"
            | "plutil"
            | "textutil"
            | "iconv"
            | "dos2unix"
            | "unix2dos"
            | "gunzip"
            | "zcat"
            | "xz"
            | "bzcat"
            | "jq"
            | "yq"
            | "sops"
            | "age"
            | "gpg"
            | "openssl"
            | "git-crypt"
            | "transcrypt"
    )
}

/// `NAME=value` lines in a crontab set variables for the jobs.
fn is_cron_variable(line: &str) -> bool {
    line.split_once('=').is_some_and(|(name, _)| {
        let name = name.trim();
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// git's `split_cmdline`: blanks separate words, `'…'` and `"…"` quote, `\` escapes.
fn split_cmdline(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut have = false;
    let mut quote: Option<char> = None;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (None, ' ' | '\t' | '\n') => {
                if have {
                    out.push(std::mem::take(&mut cur));
                    have = false;
                }
            }
            (None, '\'' | '"') => {
                quote = Some(c);
                have = true;
            }
            (Some(q), _) if c == q => quote = None,
            (Some('\''), _) => cur.push(c),
            (_, '\\') => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
                have = true;
            }
            _ => {
                cur.push(c);
                have = true;
            }
        }
    }
    if have {
        out.push(cur);
    }
    out
}

/// The host and the path prefix a git remote URL or URL prefix names: `https://github.com/`
/// → (`github.com`, ``), `ssh://git@host:22/org/` → (`host`, `org`), scp-like
/// `git@github.com:org/` → (`github.com`, `org`). `None` for anything else (a path, a bare
/// word, a `file://`).
fn url_place(url: &str) -> Option<(&str, &str)> {
    let (host_port, path) = if let Some((_, rest)) = url.split_once("://") {
        let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
        (authority.rsplit('@').next().unwrap_or(authority), path)
    } else {
        // scp-like: `[user@]host:path`, a colon before any slash.
        let (head, path) = url.split_once(':')?;
        if head.contains('/') {
            return None;
        }
        (head.rsplit('@').next().unwrap_or(head), path)
    };
    let host = host_port.split(':').next().unwrap_or(host_port);
    (!host.is_empty() && host.contains('.')).then_some((host, path.trim_matches('/')))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn git_alias_bodies_split_like_git() {
        assert_eq!(
            split_cmdline("push --force 'origin' \"a b\""),
            vec!["push", "--force", "origin", "a b"]
        );
    }
}
