//! Command patterns (`git push --force`, `rm -rf`, `sudo`) matched against *parsed* executed
//! commands, never against the raw line: `echo "git push --force"` is data.
//!
//! `hookgate-builtins`' `deny_commands` uses this same type, so a policy rule and a hook
//! built-in match a pattern alike: program base name, leading positional words as
//! subcommands, and a set of flags that must all be present however they are spelt or
//! clustered (`rm -rf` = `rm -fr` = `rm -r -f` = `rm --recursive --force`). Added here: the
//! global options of `git` (`-C dir`, `-c k=v`, `--git-dir=…`) are skipped before the
//! subcommand, so `git -C x push -f` still matches `git push --force`.

use std::collections::BTreeSet;

use hookgate_shell::ExecutedCommand;

/// A parsed command pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandPattern {
    text: String,
    program: String,
    positionals: Vec<String>,
    short: BTreeSet<char>,
    long: BTreeSet<String>,
}

#[derive(Debug, Default)]
pub(crate) struct Flags {
    pub positionals: Vec<String>,
    pub short: BTreeSet<char>,
    pub long: BTreeSet<String>,
}

/// `(program, alias, canonical short)`: long forms map onto the short letter so
/// `rm --recursive --force` matches `rm -rf`.
const FLAG_ALIASES: &[(&str, &str, char)] = &[
    ("rm", "R", 'r'),
    ("rm", "recursive", 'r'),
    ("rm", "force", 'f'),
    ("cp", "R", 'r'),
    ("cp", "recursive", 'r'),
    ("cp", "force", 'f'),
    ("git", "force", 'f'),
    ("git", "delete", 'd'),
    ("chmod", "recursive", 'R'),
    ("chown", "recursive", 'R'),
    ("shred", "remove", 'u'),
];

/// Git options that come before the subcommand and take a separate value (the one list: the
/// pattern matcher and the path model both skip them).
pub(crate) const GIT_GLOBAL_WITH_VALUE: &[&str] = &[
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--exec-path",
    "--config-env",
    "--super-prefix",
];

fn canonical_flags(program: &str, flags: &mut Flags) {
    for (p, alias, short) in FLAG_ALIASES {
        if *p != program {
            continue;
        }
        let mut chars = alias.chars();
        let single = match (chars.next(), chars.next()) {
            (Some(c), None) => Some(c),
            _ => None,
        };
        let present = match single {
            Some(c) => flags.short.remove(&c),
            None => flags.long.remove(*alias),
        };
        if present {
            flags.short.insert(*short);
        }
    }
}

pub(crate) fn split_flags(words: &[String]) -> Flags {
    let mut flags = Flags::default();
    let mut only_positionals = false;
    for word in words {
        if only_positionals {
            flags.positionals.push(word.clone());
        } else if word == "--" {
            only_positionals = true;
        } else if let Some(long) = word.strip_prefix("--") {
            flags
                .long
                .insert(long.split('=').next().unwrap_or(long).to_owned());
        } else if word.len() > 1 && word.starts_with('-') {
            flags
                .short
                .extend(word[1..].chars().filter(char::is_ascii_alphanumeric));
        } else {
            flags.positionals.push(word.clone());
        }
    }
    flags
}

/// The base name of a program word (`/usr/bin/git` → `git`, `RM.exe` → `rm`-ish is the shell
/// analyzer's job; it already strips `.exe`).
pub(crate) fn base_name(program: &str) -> &str {
    program.rsplit('/').next().unwrap_or(program)
}

/// The argument words of `argv` after the program, with git's global options removed.
pub(crate) fn args_after_globals(argv: &[String]) -> &[String] {
    let Some((program, rest)) = argv.split_first() else {
        return &[];
    };
    if base_name(program) != "git" {
        return rest;
    }
    let mut i = 0;
    while let Some(word) = rest.get(i) {
        if GIT_GLOBAL_WITH_VALUE.contains(&word.as_str()) {
            i += 2;
        } else if word.starts_with('-') {
            i += 1;
        } else {
            break;
        }
    }
    rest.get(i..).unwrap_or(&[])
}

impl CommandPattern {
    /// Parses a pattern; `None` for an empty one.
    pub fn parse(text: &str) -> Option<Self> {
        let words: Vec<String> = text.split_whitespace().map(str::to_owned).collect();
        let (program, rest) = words.split_first()?;
        let program = base_name(program).to_owned();
        let mut flags = split_flags(rest);
        canonical_flags(&program, &mut flags);
        // Extra arguments always match, so a trailing `*` (`curl *`, the spelling users reach
        // for) means nothing more than the words before it; a `*` in the middle stands for any
        // one word (`git * --force`).
        while flags.positionals.last().is_some_and(|w| w == "*") {
            flags.positionals.pop();
        }
        Some(Self {
            text: words.join(" "),
            program,
            positionals: flags.positionals,
            short: flags.short,
            long: flags.long,
        })
    }

    /// The pattern as written (whitespace normalised).
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether one executed command matches. A bare wrapper pattern (`sudo`) also matches every
    /// command run through that wrapper.
    pub fn matches(&self, command: &ExecutedCommand) -> bool {
        let via_wrapper = self.positionals.is_empty()
            && self.short.is_empty()
            && self.long.is_empty()
            && command.via.iter().any(|via| {
                via.split_whitespace()
                    .next()
                    .is_some_and(|w| base_name(w) == self.program)
            });
        via_wrapper || self.matches_argv(&command.argv)
    }

    /// Whether an argv matches (program, subcommands, flags).
    pub fn matches_argv(&self, argv: &[String]) -> bool {
        let Some(program) = argv.first() else {
            return false;
        };
        if base_name(program) != self.program {
            return false;
        }
        let mut flags = split_flags(args_after_globals(argv));
        canonical_flags(&self.program, &mut flags);
        flags.positionals.len() >= self.positionals.len()
            && flags
                .positionals
                .iter()
                .zip(&self.positionals)
                .all(|(a, b)| b == "*" || a == b)
            && self.short.is_subset(&flags.short)
            && self.long.is_subset(&flags.long)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_star_word_in_a_pattern_matches_any_word_and_a_trailing_one_anything() {
        let argv = |s: &str| s.split(' ').map(str::to_owned).collect::<Vec<_>>();
        let curl = CommandPattern::parse("curl *").unwrap();
        assert!(curl.matches_argv(&argv("curl https://example.com")));
        assert!(curl.matches_argv(&argv("curl")));
        assert!(!curl.matches_argv(&argv("wget https://example.com")));
        let push = CommandPattern::parse("git * origin --force").unwrap();
        assert!(push.matches_argv(&argv("git push origin -f")));
        assert!(!push.matches_argv(&argv("git push upstream -f")));
    }

    fn argv(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn flags_match_however_spelt_or_clustered() {
        let p = CommandPattern::parse("rm -rf").unwrap();
        for c in [
            "rm -rf x",
            "rm -fr x",
            "rm -r -f x",
            "rm --recursive --force x",
            "/bin/rm -Rf x",
        ] {
            assert!(p.matches_argv(&argv(c)), "{c}");
        }
        assert!(!p.matches_argv(&argv("rm -r x")));
    }

    #[test]
    fn git_global_options_are_skipped_before_the_subcommand() {
        let p = CommandPattern::parse("git push --force").unwrap();
        assert!(p.matches_argv(&argv("git -C repo push -f origin main")));
        assert!(p.matches_argv(&argv("git -c a=b push origin main --force")));
        assert!(!p.matches_argv(&argv("git push origin main")));
        assert!(!p.matches_argv(&argv("git commit -m push")));
    }
}
