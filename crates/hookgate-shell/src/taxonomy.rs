//! The taxonomy (`taxonomy.toml`, compiled to statics by `build.rs`) and argv matching.
//!
//! Matching works on a parsed argv: the command's basename, its leading positionals
//! (subcommands) with the command's global value-options skipped, and its flags with short
//! clusters split (`-rf` is `-r` and `-f`) and `--opt=value` reduced to `--opt`. There are no
//! regexes over raw text anywhere.

use crate::model::{BlastRadius, Class, Verdict};

/// One taxonomy rule.
#[derive(Debug)]
pub(crate) struct RuleDef {
    pub id: &'static str,
    pub category: &'static str,
    pub blast: BlastRadius,
    pub reason: &'static str,
    pub suggestion: Option<&'static str>,
    pub matcher: Option<Matcher>,
}

/// The argv pattern of a data-matched rule (see the header of `taxonomy.toml`).
#[derive(Debug)]
pub(crate) struct Matcher {
    pub sub: &'static [&'static [&'static str]],
    pub flags_any: &'static [&'static str],
    pub flags_all: &'static [&'static str],
    pub flags_none: &'static [&'static str],
    pub args_any: &'static [&'static str],
    pub arg_prefix_any: &'static [&'static str],
    /// Every remaining positional must differ from these (an allow-list inside a rule:
    /// `aws configure get region` is not a secret, any key not listed is).
    pub args_none: &'static [&'static str],
    pub no_args: bool,
    /// The tool reads its operands as package-name patterns (`apt remove 'libc6*'`, `dnf
    /// remove 'glibc*'`): a glob operand matches `args_any` when it selects one of them.
    pub args_glob: bool,
    /// A verb of this family names the action: one of the first [`Self::verb_depth`]
    /// remaining positionals has one as its first or last word part (see [`names_verb`]).
    /// Cloud and service CLIs spell one verb many ways (`delete`, `apps:destroy`,
    /// `delete-stack`, `service-instance-delete`, `DeleteInstance`, `delete_queue`), so a
    /// family of verbs across a family of tools is one rule instead of one per spelling.
    pub verb_any: &'static [&'static str],
    /// How many leading positionals (after `sub`) are the tool's subcommand path: verbs come
    /// before the operands they act on, so a resource named `delete-me` after the verb of a
    /// read (`hcloud server describe delete-me`) is not read as one.
    pub verb_depth: usize,
}

/// A read-only command pattern.
#[derive(Debug)]
pub(crate) struct SafeDef {
    pub sub: &'static [&'static [&'static str]],
    pub deny_flags: &'static [&'static str],
    pub required_flags: &'static [&'static str],
    pub max_args: Option<usize>,
}

/// Index into [`RULES`]; the generated `ids` module holds one constant per rule id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RuleRef(pub usize);

/// Everything the taxonomy says about one program, gathered by `build.rs` so a command looks
/// its program up once ([`command`]) instead of searching five string tables.
#[derive(Debug)]
pub(crate) struct CommandDef {
    pub name: &'static str,
    /// `name_hash::fnv1a(name)`: a probe compares it before the name.
    pub hash: u32,
    /// Indices into [`RULES`] of the rules naming this program, in taxonomy order.
    pub rules: &'static [usize],
    /// Candidate rules by first positional ([`short_first`] order): the rules whose first
    /// `sub` lists that word, merged (in taxonomy order) with [`Self::rules_any`].
    pub rules_by_first: &'static [(&'static str, &'static [usize])],
    /// Rules that may match whatever the first positional is (no `sub`, or a wildcard).
    pub rules_any: &'static [usize],
    /// The same split of the program's read-only patterns (indices into [`SAFE`]).
    pub safe_by_first: &'static [(&'static str, &'static [usize])],
    pub safe_any: &'static [usize],
    /// Options that take the next word as their value (`[[cli]]`).
    pub value_options: &'static [&'static str],
    /// Value options whose value cannot change the verdict (`[[cli]] inert_options`: the
    /// host, account, password or interface a BMC or device tool talks to).
    pub inert_options: &'static [&'static str],
    /// Long-option tables by subcommand (`""`: any position), [`short_first`] order.
    pub long_options: &'static [(&'static str, &'static [&'static str])],
    /// Shell set-up subcommands (`[[shell_init]]`).
    pub shell_init: Option<&'static [&'static str]>,
}

include!(concat!(env!("OUT_DIR"), "/taxonomy.rs"));

/// The taxonomy's entry for program `name`, if it names it anywhere.
pub(crate) fn command(name: &str) -> Option<&'static CommandDef> {
    let hash = crate::name_hash::fnv1a(name.as_bytes());
    let mask = COMMAND_SLOTS.len() - 1;
    let mut slot = usize::try_from(hash).unwrap_or(0) & mask;
    // At most half the slots are full, so a probe sequence always reaches an empty one; the
    // bound only guards against a malformed generated table.
    for _ in 0..COMMAND_SLOTS.len() {
        let entry = usize::from(*COMMAND_SLOTS.get(slot)?);
        let def = COMMANDS.get(entry.checked_sub(1)?)?;
        if def.hash == hash && def.name == name {
            return Some(def);
        }
        slot = (slot + 1) & mask;
    }
    None
}

/// Length first, then bytes: the order of the generated keyed slices (see `build.rs`).
fn short_first(a: &str, b: &str) -> std::cmp::Ordering {
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

/// The value keyed by `word` in a [`short_first`]-ordered slice.
fn keyed<T: Copy>(table: &'static [(&'static str, T)], word: &str) -> Option<T> {
    table
        .binary_search_by(|(key, _)| short_first(key, word))
        .ok()
        .and_then(|i| table.get(i))
        .map(|(_, v)| *v)
}

impl CommandDef {
    /// The rules that may match when the first positional is `first`, in taxonomy order.
    fn rules_for(&self, first: Option<&str>) -> &'static [usize] {
        first
            .and_then(|w| keyed(self.rules_by_first, w))
            .unwrap_or(self.rules_any)
    }

    /// The read-only patterns that may match when the first positional is `first`.
    fn safe_for(&self, first: Option<&str>) -> &'static [usize] {
        first
            .and_then(|w| keyed(self.safe_by_first, w))
            .unwrap_or(self.safe_any)
    }
}

impl RuleRef {
    pub(crate) fn def(self) -> &'static RuleDef {
        // The generated constants are indices into the generated table, so this never misses;
        // fall back to the first rule rather than panic if it ever did.
        RULES.get(self.0).unwrap_or(&RULES[0])
    }

    pub(crate) fn verdict(self) -> Verdict {
        let def = self.def();
        Verdict {
            class: Class::Dangerous,
            blast_radius: def.blast,
            category: Some(def.category.to_owned()),
            reason: def.reason.to_owned(),
            suggestion: def.suggestion.map(str::to_owned),
            rule_id: Some(def.id.to_owned()),
            flow: None,
        }
    }
}

/// An argv split into positionals and flags, for matching.
#[derive(Debug)]
pub(crate) struct Args<'a> {
    pub positionals: Vec<&'a str>,
    pub flags: Vec<&'a str>,
    /// How many positionals came before a `--`: the words after it are operands (often the
    /// argv of a command the tool runs, `doppler run -- rm -rf dist`), never its subcommands.
    pub before_dashdash: usize,
    /// The taxonomy's entry for the program parsed for, so [`match_rules`] and [`is_safe`]
    /// do not look it up again.
    command: Option<&'static CommandDef>,
}

impl<'a> Args<'a> {
    /// Whether the taxonomy names the program these arguments were parsed for (its entry was
    /// looked up once, by the parse).
    pub(crate) fn catalogued(&self) -> bool {
        self.command.is_some()
    }

    /// Parses `args` (argv without the command name) for command `name`.
    pub(crate) fn parse(name: &str, args: &'a [String]) -> Self {
        Self::parse_by(name, args, String::as_str)
    }

    /// [`Args::parse`] over any argv whose items hold their text (`&[Word]`:
    /// `Args::parse_by(name, words, |w| w.text.as_str())`), so a caller need not copy the
    /// words into `String`s first (one allocation per word, per call).
    pub(crate) fn parse_by<T>(name: &str, args: &'a [T], text: impl Fn(&'a T) -> &'a str) -> Self {
        let command = self::command(name);
        let value_options = command.map_or(&[][..], |c| c.value_options);
        // One allocation each: short clusters (`-la`) add a flag per letter.
        let mut out = Args {
            positionals: Vec::with_capacity(args.len()),
            flags: Vec::with_capacity(args.len() * 2),
            before_dashdash: usize::MAX,
            command,
        };
        let mut i = 0;
        while let Some(arg) = args.get(i) {
            i += 1;
            let arg = text(arg);
            if arg == "--" {
                out.flags.push("--");
                out.before_dashdash = out.positionals.len();
                out.positionals
                    .extend(args.get(i..).unwrap_or(&[]).iter().map(&text));
                break;
            }
            let takes_value = |opt: &str, i: usize| {
                value_options.contains(&opt)
                    && args.get(i).is_some_and(|next| !text(next).starts_with('-'))
            };
            if let Some(long) = arg.strip_prefix("--") {
                // `--dry-run=false`, `--force=no`: a boolean turned off is the option absent
                // (`0` is not read as false: `--vacuum-size=0` is a size).
                // `--dry-run` and `--help` exempt a call from every destructive rule, so a
                // value keeps them only when it is a clear yes (`--dry-run=client`): Go's flag
                // parser reads `--dry-run=0`/`=f` and `--help=0` as false, kubectl's
                // `--dry-run=none` is the real run.
                if long.split_once('=').is_some_and(|(n, v)| {
                    ["false", "no", "off"]
                        .iter()
                        .any(|f| v.eq_ignore_ascii_case(f))
                        || (matches!(n, "dry-run" | "dryrun" | "help")
                            && !matches!(
                                v.to_ascii_lowercase().as_str(),
                                "true" | "t" | "1" | "yes" | "client" | "server"
                            ))
                }) {
                    continue;
                }
                let name_part = long.split('=').next().unwrap_or(long);
                let flag = arg.get(..name_part.len() + 2).unwrap_or(arg);
                let sub = out.positionals.first().copied().unwrap_or("");
                // A later `--no-X` cancels an earlier `--X` (git's parse-options, npm's nopt:
                // the last word wins): `npm publish --dry-run --no-dry-run` publishes. A tool
                // without the negation refuses the word, so dropping `--X` loses nothing.
                if let Some(negated) = flag.strip_prefix("--no-")
                    && !negated.is_empty()
                {
                    let positive = format!("--{negated}");
                    let full = match long_option_in(command, sub, &positive) {
                        LongOption::Exact(full) => full,
                        LongOption::Unlisted | LongOption::Ambiguous(_) => positive.as_str(),
                    };
                    out.flags.retain(|f| *f != full && *f != positive.as_str());
                }
                match long_option_in(command, sub, flag) {
                    LongOption::Unlisted => out.flags.push(flag),
                    LongOption::Exact(full) => out.flags.push(full),
                    LongOption::Ambiguous(all) => out.flags.extend(all),
                }
                if !long.contains('=') && takes_value(flag, i) {
                    i += 1;
                }
            } else if arg.len() > 1
                && arg.starts_with('-')
                && !arg[1..].bytes().all(|b| b.is_ascii_digit())
            {
                out.flags.push(arg);
                if takes_value(arg, i) {
                    i += 1;
                    continue;
                }
                // Short cluster: record each letter as its own flag too.
                for ch in arg.chars().skip(1) {
                    out.flags.push(short_flag(ch));
                }
            } else {
                out.positionals.push(arg);
            }
        }
        if name == "npm"
            && let Some(first) = out.positionals.first_mut()
        {
            *first = npm_command(first);
        }
        out
    }

    /// `--help` with nothing but subcommand words (`docker image rm --help`): the call prints
    /// usage. With an operand (`rm -rf / --help`, `docker rm web --help`) it is not taken as
    /// help: a tool that stops reading options at its first operand (BSD `rm`) acts on it.
    ///
    /// `-help` too: the Go `flag` package's spelling (`terraform destroy -help`, `vault kv
    /// delete -help`, `packer build -help`) — for GNU-style tools it is a cluster no
    /// destructive short option spells (`-h -e -l -p`).
    pub(crate) fn asks_for_help(&self) -> bool {
        (self.has_flag("--help") || self.has_flag("-help"))
            && self.positionals.len() <= 3
            && self.positionals.iter().all(|p| {
                p.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
                    && p.bytes().all(|b| {
                        b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'-' | b':')
                    })
            })
    }

    pub(crate) fn has_flag(&self, flag: &str) -> bool {
        self.flags.contains(&flag)
    }

    pub(crate) fn has_any(&self, flags: &[&str]) -> bool {
        flags.iter().any(|f| self.has_flag(f))
    }

    /// The taxonomy's entry for `name`: the one found when parsing, if parsed for `name`.
    fn command_for(&self, name: &str) -> Option<&'static CommandDef> {
        match self.command {
            Some(c) if c.name == name => Some(c),
            _ => command(name),
        }
    }
}

/// What a long flag means to a tool that accepts unique prefixes of its long options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum LongOption {
    /// The tool has no table, or the flag prefixes none of its options: taken as written.
    Unlisted,
    /// The flag is an option or a unique prefix of one.
    Exact(&'static str),
    /// The flag prefixes several options; the tool refuses it, every reading is reported.
    Ambiguous(Vec<&'static str>),
}

/// Normalises `flag` (`--har`, without any `=value`) against the long-option table of `name`
/// (and its subcommand `sub`, for git), so `git reset --har` matches the rule for `--hard`.
/// Invariant: a flag that any listed option starts with never stays unrecognised.
pub(crate) fn long_option(name: &str, sub: &str, flag: &str) -> LongOption {
    long_option_in(command(name), sub, flag)
}

/// [`long_option`] for a program already looked up.
fn long_option_in(command: Option<&'static CommandDef>, sub: &str, flag: &str) -> LongOption {
    let table =
        command.and_then(|c| keyed(c.long_options, sub).or_else(|| keyed(c.long_options, "")));
    let Some(options) = table else {
        return LongOption::Unlisted;
    };
    if flag.len() <= 2 {
        return LongOption::Unlisted;
    }
    if let Some(exact) = options.iter().find(|o| **o == flag) {
        return LongOption::Exact(exact);
    }
    let candidates: Vec<&'static str> = options
        .iter()
        .copied()
        .filter(|o| o.starts_with(flag))
        .collect();
    match candidates.as_slice() {
        [] => LongOption::Unlisted,
        [one] => LongOption::Exact(one),
        // npm's nopt does not refuse an ambiguous prefix: it sets a config key of that literal
        // name and goes on (`npm publish --d` publishes), so the word means only itself.
        _ if command.is_some_and(|c| c.name == "npm") => LongOption::Unlisted,
        _ => LongOption::Ambiguous(candidates),
    }
}

/// npm's commands (npm 10 `cmd-list`), sorted: npm runs any unique prefix of one of them
/// (`npm publi`, `npm pub` are `npm publish`), so rules name the full command only.
const NPM_COMMANDS: &[&str] = &[
    "access",
    "adduser",
    "audit",
    "bugs",
    "cache",
    "ci",
    "completion",
    "config",
    "dedupe",
    "deprecate",
    "diff",
    "dist-tag",
    "docs",
    "doctor",
    "edit",
    "exec",
    "explain",
    "explore",
    "find-dupes",
    "fund",
    "get",
    "help",
    "help-search",
    "hook",
    "init",
    "install",
    "install-ci-test",
    "install-test",
    "link",
    "ll",
    "login",
    "logout",
    "ls",
    "org",
    "outdated",
    "owner",
    "pack",
    "ping",
    "pkg",
    "prefix",
    "profile",
    "prune",
    "publish",
    "query",
    "rebuild",
    "repo",
    "restart",
    "root",
    "run-script",
    "sbom",
    "search",
    "set",
    "shrinkwrap",
    "star",
    "stars",
    "start",
    "stop",
    "team",
    "test",
    "token",
    "undeprecate",
    "uninstall",
    "unpublish",
    "unstar",
    "update",
    "version",
    "view",
    "whoami",
];

/// The npm command `word` names: itself when it is a command or not a unique prefix of one
/// (aliases such as `i`, `rm` are npm's own and left as written), else the one command it
/// prefixes. Invariant: a prefix that reaches exactly one command is that command.
fn npm_command(word: &str) -> &str {
    if word.len() < 2 || NPM_COMMANDS.binary_search(&word).is_ok() {
        return word;
    }
    let mut found = NPM_COMMANDS.iter().filter(|c| c.starts_with(word));
    match (found.next(), found.next()) {
        (Some(one), None) => one,
        _ => word,
    }
}

/// The shell set-up subcommands of a well-known tool (`pyenv` → `init`, …), from
/// `[[shell_init]]` in `taxonomy.toml`.
pub(crate) fn shell_init_subcommands(name: &str) -> Option<&'static [&'static str]> {
    command(name)?.shell_init
}

/// Standard user and system binary directories (`~/` = home), from `user_bin_dirs`.
pub(crate) fn user_bin_dirs() -> &'static [&'static str] {
    USER_BIN_DIRS
}

/// Workspace directories a package manager fills (`node_modules/.bin`, `.venv/bin`), relative
/// to the workspace root (`*` = one name), from `workspace_bin_dirs`.
pub(crate) fn workspace_bin_dirs() -> &'static [&'static str] {
    WORKSPACE_BIN_DIRS
}

/// `-x` for an ASCII letter, as a static string (no allocation per flag).
fn short_flag(ch: char) -> &'static str {
    const SHORT: [&str; 62] = [
        "-a", "-b", "-c", "-d", "-e", "-f", "-g", "-h", "-i", "-j", "-k", "-l", "-m", "-n", "-o",
        "-p", "-q", "-r", "-s", "-t", "-u", "-v", "-w", "-x", "-y", "-z", "-A", "-B", "-C", "-D",
        "-E", "-F", "-G", "-H", "-I", "-J", "-K", "-L", "-M", "-N", "-O", "-P", "-Q", "-R", "-S",
        "-T", "-U", "-V", "-W", "-X", "-Y", "-Z", "-0", "-1", "-2", "-3", "-4", "-5", "-6", "-7",
        "-8", "-9",
    ];
    let index = match ch {
        'a'..='z' => ch as usize - 'a' as usize,
        'A'..='Z' => 26 + ch as usize - 'A' as usize,
        '0'..='9' => 52 + ch as usize - '0' as usize,
        _ => return "-?",
    };
    SHORT.get(index).copied().unwrap_or("-?")
}

/// Whether the leading positionals match `sub`. A position whose alternatives start with `!`
/// (`"!ls|list|find"`) matches any word but those: a tool whose bare operand is the thing it
/// prints (`pass github/token` shows the entry) lists the subcommands that do not.
fn sub_matches(sub: &[&[&str]], positionals: &[&str]) -> bool {
    sub.len() <= positionals.len()
        && sub.iter().zip(positionals).all(|(alts, word)| {
            if alts.first().is_some_and(|a| a.starts_with('!')) {
                return !alts.iter().any(|alt| alt.trim_start_matches('!') == *word);
            }
            alts.iter().any(|alt| match alt.strip_suffix('*') {
                Some(prefix) => word.starts_with(prefix),
                None => alt == word,
            })
        })
}

/// The worst data-matched dangerous rule for this argv, if any.
pub(crate) fn match_rules(name: &str, args: &Args<'_>) -> Option<RuleRef> {
    // A dry run of a catalogued tool (`helm uninstall --dry-run`, `aws … --dryrun`, `git push
    // --dry-run --force`) reports what it would do and does nothing: no destructive rule of
    // the catalogue applies to it. Only the tool's own options count (not words after `--`,
    // which belong to a command it runs), and an explicit `--dry-run=none|false` is the real
    // run.
    if args.has_any(&["--dry-run", "--dryrun"]) {
        return None;
    }
    // `--help` prints the tool's usage and exits before doing anything
    // (`docker image rm --help`, `terraform destroy --help`).
    if args.asks_for_help() {
        return None;
    }
    let indices = args
        .command_for(name)?
        .rules_for(args.positionals.first().copied());
    let mut best: Option<RuleRef> = None;
    for &index in indices {
        let Some(rule) = RULES.get(index) else {
            continue;
        };
        let Some(m) = &rule.matcher else { continue };
        if !sub_matches(m.sub, &args.positionals) {
            continue;
        }
        let rest = args.positionals.get(m.sub.len()..).unwrap_or(&[]);
        let ok = (m.flags_any.is_empty() || args.has_any(m.flags_any))
            && m.flags_all.iter().all(|f| args.has_flag(f))
            && !args.has_any(m.flags_none)
            && (m.args_any.is_empty()
                || rest.iter().any(|a| {
                    m.args_any
                        .iter()
                        .any(|x| x.eq_ignore_ascii_case(a) || (m.args_glob && selects(a, x)))
                }))
            && (m.arg_prefix_any.is_empty()
                || rest.iter().any(|a| {
                    m.arg_prefix_any
                        .iter()
                        .any(|p| a.starts_with(p) && a.len() > p.len())
                }))
            && (m.args_none.is_empty()
                || !rest
                    .iter()
                    .all(|a| m.args_none.iter().any(|x| x.eq_ignore_ascii_case(a))))
            && (!m.no_args || rest.is_empty())
            && (m.verb_any.is_empty() || names_verb_in_path(rest, args, m));
        if ok && best.is_none_or(|b| rank(rule.blast) > rank(b.def().blast)) {
            best = Some(RuleRef(index));
        }
    }
    best
}

/// Whether package-name pattern `pattern` (a glob: `*`, `?`, `[…]`; apt's regex spelling
/// `.*` read as `*`) selects the package `name`. A pattern with none of these is not one.
fn selects(pattern: &str, name: &str) -> bool {
    if !pattern.contains(['*', '?', '[']) {
        return false;
    }
    let glob = pattern.replace(".*", "*").to_ascii_lowercase();
    glob_match(glob.as_bytes(), name.to_ascii_lowercase().as_bytes())
}

/// Iterative glob match (`*` any run, `?` one byte, `[…]`/`[!…]` a class of bytes and ranges).
pub(crate) fn glob_match(pat: &[u8], text: &[u8]) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        match pat.get(p) {
            Some(b'*') => {
                star = Some((p, t));
                p += 1;
                continue;
            }
            Some(b'?') => {
                p += 1;
                t += 1;
                continue;
            }
            Some(b'[') => {
                if let Some((matched, next)) =
                    class_match(pat, p, text.get(t).copied().unwrap_or(0))
                    && matched
                {
                    p = next;
                    t += 1;
                    continue;
                }
            }
            Some(&c) if text.get(t) == Some(&c) => {
                p += 1;
                t += 1;
                continue;
            }
            _ => {}
        }
        match star {
            Some((sp, st)) => {
                p = sp + 1;
                t = st + 1;
                star = Some((sp, st + 1));
            }
            None => return false,
        }
    }
    pat.get(p..)
        .is_some_and(|rest| rest.iter().all(|&c| c == b'*'))
}

/// A `[…]` class at `pat[at]`: whether `c` is in it, and the index after its `]`.
fn class_match(pat: &[u8], at: usize, c: u8) -> Option<(bool, usize)> {
    let mut i = at + 1;
    let negate = matches!(pat.get(i), Some(b'!' | b'^'));
    if negate {
        i += 1;
    }
    let mut found = false;
    let mut first = true;
    loop {
        let &b = pat.get(i)?;
        if b == b']' && !first {
            return Some((found != negate, i + 1));
        }
        first = false;
        if pat.get(i + 1) == Some(&b'-') && pat.get(i + 2).is_some_and(|&e| e != b']') {
            let e = *pat.get(i + 2)?;
            found |= (b..=e).contains(&c);
            i += 3;
        } else {
            found |= b == c;
            i += 1;
        }
    }
}

/// Subcommands that run the rest of the line as a command of their own (`heroku run rake
/// db:drop`, `railway run rm -rf dist`, `fly ssh console`) or send it as a request (`tea api
/// -X DELETE …`): words after them are that command's or request's, so a verb among them is
/// not the tool's (the command is judged where it runs, the request by its HTTP method).
const RUNS_A_COMMAND: &[&str] = &[
    "run", "exec", "x", "shell", "ssh", "console", "dev:exec", "local", "sh", "env", "with", "api",
    "graphql",
];

/// Verbs that are not destructive: the subcommand path ends at the first of them (`openstack
/// server show delete-me`, `hcloud server describe rm-test`): what follows are operands.
pub(crate) const OTHER_VERBS: &[&str] = &[
    "show",
    "get",
    "list",
    "ls",
    "describe",
    "info",
    "status",
    "view",
    "inspect",
    "cat",
    "read",
    "lookup",
    "search",
    "find",
    "watch",
    "tail",
    "diff",
    "create",
    "new",
    "add",
    "deploy",
    "push",
    "pull",
    "apply",
    "update",
    "set",
    "start",
    "restart",
    "open",
    "login",
    "logout",
    "sync",
    "build",
    "init",
    "validate",
    "check",
    "whoami",
    "help",
    "invoke",
    "promote",
    "reconcile",
    "analyze",
    "declare",
    "install",
    "reload",
    "upgrade",
    "enable",
    "connect",
    "send",
    "upload",
    "download",
    "pub",
    "publish",
    "subscribe",
    "request",
    "reply",
    "serve",
    "dev",
    "up",
];

/// Whether one of the leading positionals `rest` (after the rule's `sub`) names one of the
/// rule's verbs: within `verb_depth` words, before a `--` and before a subcommand that runs
/// a command of its own, and before the first other verb (the path ends at the verb).
fn names_verb_in_path(rest: &[&str], args: &Args<'_>, m: &Matcher) -> bool {
    for word in rest
        .iter()
        .take(args.before_dashdash.saturating_sub(m.sub.len()))
        .take_while(|word| !RUNS_A_COMMAND.contains(word))
        .take(m.verb_depth)
    {
        if names_verb(word, m.verb_any) {
            return true;
        }
        if names_verb(word, OTHER_VERBS) {
            return false;
        }
    }
    false
}

/// Whether subcommand `word` names one of `verbs`: its first or last word part, the parts
/// split at `-`, `_`, `:` and lower-to-upper case changes (`apps:destroy`, `delete-stack`,
/// `bucket-delete`, `DeleteDBInstance`, `purge_queue`), compared without case. A verb sits at
/// an end of a compound subcommand (verb-noun or noun-verb); a part in the middle
/// (`my-remove-app`) is a name, not the action.
pub(crate) fn names_verb(word: &str, verbs: &[&str]) -> bool {
    let parts = word_parts(word);
    let is_verb = |part: &&str| verbs.iter().any(|v| v.eq_ignore_ascii_case(part));
    parts.first().is_some_and(is_verb) || parts.last().is_some_and(is_verb)
}

/// `word` split at `-`, `_`, `:`, `.` and case changes (`DeleteDBInstance` → `Delete`, `DB`,
/// `Instance`; govc's `vm.destroy` → `vm`, `destroy`): an upper-case letter starts a part
/// after a lower-case one, or before a lower-case one inside an upper-case run. Words that
/// are not subcommand-shaped (paths, URLs, ids with other characters) give no parts.
fn word_parts(word: &str) -> Vec<&str> {
    if !word
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b':' | b'.'))
    {
        return Vec::new();
    }
    let mut parts = Vec::new();
    for chunk in word.split(['-', '_', ':', '.']).filter(|c| !c.is_empty()) {
        let bytes = chunk.as_bytes();
        let mut start = 0;
        for (i, pair) in bytes.windows(2).enumerate().map(|(i, w)| (i + 1, w)) {
            let (prev, cur) = match pair {
                [prev, cur] => (*prev, *cur),
                _ => continue,
            };
            let next_lower = bytes.get(i + 1).is_some_and(u8::is_ascii_lowercase);
            let boundary = cur.is_ascii_uppercase()
                && (prev.is_ascii_lowercase() || (prev.is_ascii_uppercase() && next_lower));
            if boundary {
                parts.push(chunk.get(start..i).unwrap_or(""));
                start = i;
            }
        }
        parts.push(chunk.get(start..).unwrap_or(""));
    }
    parts
}

fn rank(b: BlastRadius) -> u8 {
    match b {
        BlastRadius::None => 0,
        BlastRadius::Low => 1,
        BlastRadius::Medium => 2,
        BlastRadius::Unknown => 3,
        BlastRadius::High => 4,
    }
}

/// True when some data rule for `name` could apply with this first positional (used to refuse
/// `safe`/`normal` when an argument is only known at run time).
///
/// Rules that match only an operand's *source shape* (a package named by URL or git repository,
/// `rce.install_unvetted_*`) do not count: `pip install "$pkg"` installs what the project's
/// scripts name, and asking for every run-time package name would flag ordinary loops over
/// requirement files while the install itself stays the ordinary act it is.
///
/// A verb rule (`verb_any`) counts only when a run-time word (`$X`) stands where its verb
/// would: on the subcommand path, before the first other verb (`apt-get install -y $PKGS`,
/// `wrangler deploy --env $ENV` name their verb; `hcloud server $ACTION web` does not).
///
/// A rule excluded by a flag the line writes (`flags_none`: `pacman -S`, `rpm -q`, `gpg
/// --list-keys` are other operations than the removal) cannot match whatever the run-time
/// word holds, so it does not count either.
pub(crate) fn has_rules_for(name: &str, args: &Args<'_>) -> bool {
    let positionals = args.positionals.as_slice();
    command(name).is_some_and(|c| {
        c.rules.iter().any(|&i| {
            RULES
                .get(i)
                .filter(|r| !r.id.starts_with("rce.install_unvetted_"))
                .and_then(|r| r.matcher.as_ref())
                .is_some_and(|m| {
                    sub_could_match(m.sub, positionals)
                        && !args.has_any(m.flags_none)
                        && (m.verb_any.is_empty()
                            || run_time_verb(positionals.get(m.sub.len()..).unwrap_or(&[]), m))
                })
        })
    })
}

/// Whether a word only partly known at run time (`re"$X"`, `del${S}`) stands on the
/// subcommand path of one of `name`'s rules, after the path's literal levels: it may complete
/// the subcommand (`git re"$X" --hard` is `git reset --hard` when X is `set`). Words wholly
/// run-time (`$X`) are [`has_rules_for`]'s; elsewhere (a commit message, `-m "fix $X"`) a
/// partly known word decides nothing.
pub(crate) fn run_time_word_on_sub_path(name: &str, args: &Args<'_>) -> bool {
    let positionals = args.positionals.as_slice();
    command(name).is_some_and(|c| {
        c.rules.iter().any(|&i| {
            RULES
                .get(i)
                .and_then(|r| r.matcher.as_ref())
                .is_some_and(|m| {
                    for (level, alts) in m.sub.iter().enumerate() {
                        let Some(word) = positionals.get(level) else {
                            return false;
                        };
                        if word.contains('$') {
                            return true;
                        }
                        if !sub_matches(std::slice::from_ref(alts), std::slice::from_ref(word)) {
                            return false;
                        }
                    }
                    false
                })
        })
    })
}

/// Whether a rule's subcommand path could match words some of which are only known at run
/// time: each level must hold one of its alternatives, until a run-time word (`$X`) stands on
/// the path — it may be any subcommand, and, split into several words or taken as an option
/// with a value, it may shift every level after it, so from there on anything may match. A
/// literal word off the path rules the rule out (`gh pr view $PR` cannot be `gh pr merge`).
fn sub_could_match(sub: &[&[&str]], positionals: &[&str]) -> bool {
    for (level, alts) in sub.iter().enumerate() {
        let Some(word) = positionals.get(level) else {
            return false;
        };
        if word.starts_with('$') {
            return true;
        }
        if !sub_matches(std::slice::from_ref(alts), std::slice::from_ref(word)) {
            return false;
        }
    }
    true
}

/// Whether a run-time word (`$X`) stands on the subcommand path of a verb rule, where its
/// verb would be (the path as [`names_verb_in_path`] reads it).
fn run_time_verb(rest: &[&str], m: &Matcher) -> bool {
    for word in rest
        .iter()
        .take_while(|word| !RUNS_A_COMMAND.contains(word))
        .take(m.verb_depth)
    {
        if word.starts_with('$') {
            return true;
        }
        if names_verb(word, OTHER_VERBS) {
            return false;
        }
    }
    false
}

/// True when the command is known read-only with these arguments.
pub(crate) fn is_safe(name: &str, args: &Args<'_>) -> bool {
    let Some(command) = args.command_for(name) else {
        return false;
    };
    let indices = command.safe_for(args.positionals.first().copied());
    indices.iter().any(|&index| {
        let Some(s) = SAFE.get(index) else {
            return false;
        };
        sub_matches(s.sub, &args.positionals)
            && !args.has_any(s.deny_flags)
            && (s.required_flags.is_empty() || args.has_any(s.required_flags))
            && s.max_args
                .is_none_or(|max| args.positionals.len() <= s.sub.len() + max)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn verbs_are_the_first_or_last_part_of_a_subcommand() {
        let verbs = &["delete", "destroy", "terminate", "rm", "remove"];
        for word in [
            "delete",
            "apps:destroy",
            "delete-stack",
            "service-instance-delete",
            "DeleteDBInstance",
            "TerminateInstances",
            "delete_queue",
            "RM",
        ] {
            assert!(names_verb(word, verbs), "{word}");
        }
        for word in [
            "my-remove-app",
            "describe",
            "deleted",
            "/tmp/delete",
            "rmdir",
            "list",
        ] {
            assert!(!names_verb(word, verbs), "{word}");
        }
        assert_eq!(word_parts("DeleteDBInstance"), ["Delete", "DB", "Instance"]);
    }

    #[test]
    fn combined_short_flags_are_split() {
        let a = args(&["-rf", "/"]);
        let p = Args::parse("rm", &a);
        assert!(p.has_flag("-r") && p.has_flag("-f"));
        assert_eq!(p.positionals, vec!["/"]);
    }

    #[test]
    fn global_value_options_are_not_subcommands() {
        let a = args(&["-C", "repo", "reset", "--hard"]);
        let p = Args::parse("git", &a);
        assert_eq!(p.positionals, vec!["reset"]);
        assert!(match_rules("git", &p).is_some());
    }

    #[test]
    fn booleans_turned_off_are_absent_flags() {
        let a = args(&["publish", "--dry-run=false"]);
        let p = Args::parse("npm", &a);
        assert!(!p.has_flag("--dry-run"));
        assert!(match_rules("npm", &p).is_some());
    }

    #[test]
    fn long_flag_values_are_stripped() {
        let a = args(&["push", "--force=true", "origin", "main"]);
        let p = Args::parse("git", &a);
        assert!(p.has_flag("--force"));
    }

    #[test]
    fn unique_long_option_prefixes_match_the_full_option() {
        for (cmd, argv, flag) in [
            ("git", &["reset", "--har"][..], "--hard"),
            (
                "git",
                &["push", "--force-w", "origin"][..],
                "--force-with-lease",
            ),
            ("git", &["clean", "--f", "-d"][..], "--force"),
            ("rm", &["--rec", "x"][..], "--recursive"),
            ("rm", &["x", "--no-pres"][..], "--no-preserve-root"),
            ("journalctl", &["--vacuum-t=1s"][..], "--vacuum-time"),
        ] {
            let a = args(argv);
            let p = Args::parse(cmd, &a);
            assert!(p.has_flag(flag), "{cmd} {argv:?}: {:?}", p.flags);
        }
    }

    #[test]
    fn ambiguous_long_option_prefixes_report_every_reading() {
        let a = args(&["push", "--forc", "origin"]);
        let p = Args::parse("git", &a);
        assert!(p.has_flag("--force") && p.has_flag("--force-with-lease"));
    }

    #[test]
    fn tools_without_a_table_keep_flags_as_written() {
        let a = args(&["-X", "DELETE", "--req", "x"]);
        let p = Args::parse("curl", &a);
        assert!(p.has_flag("--req"));
    }

    #[test]
    fn long_option_tables_are_sorted_for_binary_search() {
        fn sorted<T>(table: &[(&str, T)]) -> bool {
            table
                .windows(2)
                .all(|w| short_first(w[0].0, w[1].0) == std::cmp::Ordering::Less)
        }
        for c in COMMANDS {
            assert!(sorted(c.long_options), "{}", c.name);
            assert!(sorted(c.rules_by_first), "{}", c.name);
            assert!(sorted(c.safe_by_first), "{}", c.name);
        }
        assert!(NPM_COMMANDS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn every_program_the_taxonomy_names_is_found_by_its_hash() {
        for c in COMMANDS {
            assert!(
                command(c.name).is_some_and(|f| std::ptr::eq(f, c)),
                "{}",
                c.name
            );
        }
        for absent in ["", "gi", "gitt", "not-a-listed-program", "GIT"] {
            assert!(command(absent).is_none(), "{absent}");
        }
    }

    /// The candidate lists are only an index: a rule that can match with first positional `w`
    /// must be among `w`'s candidates, in taxonomy order, or `match_rules` would miss it or
    /// pick a different best rule.
    #[test]
    fn candidate_rules_by_first_word_hold_every_rule_that_can_match() {
        let alternatives = |sub: &[&[&'static str]]| sub.first().map(|alts| alts.to_vec());
        for c in COMMANDS {
            let mut words: Vec<&str> = c.rules_by_first.iter().map(|(w, _)| *w).collect();
            words.extend(c.safe_by_first.iter().map(|(w, _)| *w));
            words.push("not-a-listed-word");
            for &i in c.rules {
                let Some(m) = RULES[i].matcher.as_ref() else {
                    continue;
                };
                for &w in &words {
                    let can = alternatives(m.sub).is_none_or(|alts| {
                        alts.iter()
                            .any(|a| a.ends_with('*') || a.starts_with('!') || *a == w)
                    });
                    if can {
                        assert!(
                            c.rules_for(Some(w)).contains(&i),
                            "{} {w}: rule {i}",
                            c.name
                        );
                    }
                }
                if m.sub.is_empty() {
                    assert!(c.rules_for(None).contains(&i), "{}: rule {i}", c.name);
                }
            }
            for &w in &words {
                assert!(c.rules_for(Some(w)).is_sorted(), "{} {w}", c.name);
                assert!(c.safe_for(Some(w)).is_sorted(), "{} {w}", c.name);
            }
        }
        for (i, s) in SAFE.iter().enumerate() {
            for c in COMMANDS {
                let listed =
                    c.safe_by_first.iter().any(|(_, l)| l.contains(&i)) || c.safe_any.contains(&i);
                if !listed {
                    continue;
                }
                match alternatives(s.sub) {
                    Some(alts) if alts.iter().all(|a| !a.ends_with('*')) => {
                        for a in alts {
                            assert!(c.safe_for(Some(a)).contains(&i), "{} {a}", c.name);
                        }
                    }
                    _ => {
                        assert!(c.safe_for(None).contains(&i), "{}", c.name);
                        assert!(c.safe_for(Some("not-a-listed-word")).contains(&i));
                    }
                }
            }
        }
    }

    #[test]
    fn every_code_raised_rule_has_reason_and_category() {
        for rule in RULES {
            assert!(
                !rule.reason.is_empty() && !rule.category.is_empty(),
                "{}",
                rule.id
            );
        }
    }
}
