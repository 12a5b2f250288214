//! Command-line grammars of the tools whose options decide what they touch (curl, wget):
//! one reader per tool for every question the guard asks about a call (where it sends data,
//! what it uploads, which file it writes, which method it uses).
//!
//! Why one reader: the guard used to read curl in three places, each with its own list of
//! "options that take a value", and the lists disagreed — a value one list did not know was
//! read as a URL by one rule and skipped by another — and none knew the tools' abbreviations:
//! curl and wget accept any unique prefix of a long option, so `curl --output-d .claude -O
//! URL/settings.json` and `wget --output-d=.claude/settings.json URL` wrote there unseen. Nor
//! curl's `--expand-` forms (curl 8.3+: `--expand-output '{{f}}'` takes its value from a
//! `--variable`).
//!
//! Invariant protected: **a word is an option, its value or an operand exactly as the tool
//! reads it.** An option the tool would reject (unknown, ambiguous) is [`Word::Rejected`], not
//! guessed: the tool then fails before any transfer, and the callers decide what that means.

mod curl;
mod wget;

/// One option of a tool: its long name (without `--`), its one-letter form, whether it takes a
/// value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CliOption {
    /// The long name, without `--`.
    pub long: &'static str,
    /// The short form (`o` for `-o`).
    pub short: Option<char>,
    /// Whether the option takes a value (the rest of a short cluster, `=VALUE` where the tool
    /// allows it, or the next word).
    pub takes_value: bool,
}

/// How one tool reads its command line.
#[derive(Debug, Clone, Copy)]
pub struct Grammar {
    /// Every option, sorted by long name.
    options: &'static [CliOption],
    /// Options added after the version the table was taken from: a prefix they made ambiguous
    /// still abbreviates the one option an older version knows (`curl --upload-f`:
    /// `upload-file` to curl 7.88, rejected by 8.13+, which also has `upload-flags`) — the
    /// reading that can do something.
    newer: &'static [&'static str],
    /// `--name=value` (GNU getopt: wget); curl takes values only as the next word.
    equals: bool,
    /// `--expand-NAME` (curl 8.3+).
    expand: bool,
}

/// curl's grammar.
pub const CURL: Grammar = Grammar {
    options: curl::OPTIONS,
    newer: curl::NEWER,
    equals: false,
    expand: true,
};

/// wget's grammar.
pub const WGET: Grammar = Grammar {
    options: wget::OPTIONS,
    newer: &[],
    equals: true,
    expand: false,
};

/// One word of a command line as the tool reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Word<'a> {
    /// An option, by its canonical long name, with its value when it takes one.
    Option {
        /// The option's long name (`output` for `-o`, `--output`, `--output-do` when unique, …).
        long: &'static str,
        /// The value (`None` for a switch, or a value-taking option at the end of the line).
        value: Option<&'a str>,
        /// `--no-NAME` (a switch turned off).
        negated: bool,
        /// `--expand-NAME` (curl): the value is expanded from `--variable`s when curl runs,
        /// so its text is not what curl uses.
        expanded: bool,
    },
    /// An operand (for curl and wget, a URL): every non-option word, and every word after `--`.
    Operand(&'a str),
    /// An option the tool rejects (unknown or an ambiguous abbreviation): it stops with an
    /// error before doing anything.
    Rejected(&'a str),
}

impl Grammar {
    /// The option named `name` (without `--`, without `=value`): exact, else the only option
    /// it abbreviates.
    #[must_use]
    pub fn long_option(&self, name: &str) -> Option<&'static CliOption> {
        if let Ok(i) = self.options.binary_search_by(|o| o.long.cmp(name)) {
            return self.options.get(i);
        }
        if name.is_empty() {
            return None;
        }
        let unique = |newer_too: bool| {
            let mut found = self.options.iter().filter(|o| {
                o.long.starts_with(name) && (newer_too || !self.newer.contains(&o.long))
            });
            match (found.next(), found.next()) {
                (Some(only), None) => Some(only),
                _ => None,
            }
        };
        unique(true).or_else(|| unique(false))
    }

    /// The option whose short form is `c`.
    #[must_use]
    pub fn short_option(&self, c: char) -> Option<&'static CliOption> {
        self.options.iter().find(|o| o.short == Some(c))
    }

    /// Reads `args` (the words after the program name) as the tool does.
    #[must_use]
    pub fn parse<'a, S: AsRef<str>>(&self, args: &'a [S]) -> Vec<Word<'a>> {
        let mut out = Vec::with_capacity(args.len());
        let mut words = args.iter().map(AsRef::as_ref);
        while let Some(word) = words.next() {
            if word == "--" {
                out.extend(words.by_ref().map(Word::Operand));
                break;
            }
            if let Some(name) = word.strip_prefix("--") {
                out.push(self.long_word(word, name, &mut words));
            } else if let Some(cluster) = word.strip_prefix('-').filter(|c| !c.is_empty()) {
                self.short_cluster(word, cluster, &mut words, &mut out);
            } else {
                out.push(Word::Operand(word));
            }
        }
        out
    }

    /// `--NAME`, `--NAME=VALUE` (where allowed), `--no-NAME`, `--expand-NAME`, taking the next
    /// word as the value when due.
    fn long_word<'a>(
        &self,
        word: &'a str,
        name: &'a str,
        rest: &mut impl Iterator<Item = &'a str>,
    ) -> Word<'a> {
        let (name, attached) = match name.split_once('=') {
            Some((name, value)) if self.equals => (name, Some(value)),
            _ => (name, None),
        };
        let (option, negated, expanded) = match self.long_option(name) {
            Some(o) => (o, false, false),
            None => match (name.strip_prefix("no-"), name.strip_prefix("expand-")) {
                (Some(base), _) => match self.long_option(base) {
                    Some(o) if !o.takes_value => (o, true, false),
                    _ => return Word::Rejected(word),
                },
                (_, Some(base)) if self.expand => match self.long_option(base) {
                    Some(o) if o.takes_value => (o, false, true),
                    _ => return Word::Rejected(word),
                },
                _ => return Word::Rejected(word),
            },
        };
        let value = match (option.takes_value, attached) {
            (true, Some(value)) => Some(value),
            (true, None) => rest.next(),
            // A switch given a value: GNU getopt rejects it.
            (false, Some(_)) => return Word::Rejected(word),
            (false, None) => None,
        };
        Word::Option {
            long: option.long,
            value,
            negated,
            expanded,
        }
    }

    /// `-abc`, `-oFILE`, `-so FILE`: switches until one takes a value, which is the rest of
    /// the word or else the next word.
    fn short_cluster<'a>(
        &self,
        word: &'a str,
        cluster: &'a str,
        rest: &mut impl Iterator<Item = &'a str>,
        out: &mut Vec<Word<'a>>,
    ) {
        for (at, c) in cluster.char_indices() {
            let Some(option) = self.short_option(c) else {
                out.push(Word::Rejected(word));
                return;
            };
            if option.takes_value {
                let attached = cluster.get(at + c.len_utf8()..).unwrap_or_default();
                let value = if attached.is_empty() {
                    rest.next()
                } else {
                    Some(attached)
                };
                out.push(Word::Option {
                    long: option.long,
                    value,
                    negated: false,
                    expanded: false,
                });
                return;
            }
            out.push(Word::Option {
                long: option.long,
                value: None,
                negated: false,
                expanded: false,
            });
        }
    }
}

impl Word<'_> {
    /// The value of option `long`, when this word is that option with a value.
    #[must_use]
    pub fn value_of(&self, long: &str) -> Option<&str> {
        match self {
            Word::Option {
                long: l,
                value: Some(v),
                ..
            } if *l == long => Some(v),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opt_value<'a>(words: &[Word<'a>], long: &str) -> Option<&'a str> {
        words.iter().find_map(|w| match w {
            Word::Option { long: l, value, .. } if *l == long => *value,
            _ => None,
        })
    }

    #[test]
    fn tables_are_sorted_and_short_forms_unique() {
        for grammar in [CURL, WGET] {
            let o = grammar.options;
            assert!(o.windows(2).all(|w| w[0].long < w[1].long));
            let mut shorts: Vec<char> = o.iter().filter_map(|o| o.short).collect();
            let n = shorts.len();
            shorts.sort_unstable();
            shorts.dedup();
            assert_eq!(shorts.len(), n);
        }
    }

    #[test]
    fn unique_abbreviations_name_their_option_and_ambiguous_ones_are_rejected() {
        let w = CURL.parse(&["--output-d", ".claude", "-O", "https://x/settings.json"]);
        assert_eq!(opt_value(&w, "output-dir"), Some(".claude"));
        assert!(w.contains(&Word::Operand("https://x/settings.json")));
        assert_eq!(CURL.parse(&["--outp", "f"])[0], Word::Rejected("--outp"));
        // Newer options do not take an abbreviation away from the one an older curl reads.
        assert_eq!(
            opt_value(&CURL.parse(&["--upload-f", "k", "u"]), "upload-file"),
            Some("k")
        );
        let w = WGET.parse(&["--output-d=.claude/settings.json", "u"]);
        assert_eq!(
            opt_value(&w, "output-document"),
            Some(".claude/settings.json")
        );
        assert_eq!(
            opt_value(&WGET.parse(&["--directory-p", "d"]), "directory-prefix"),
            Some("d")
        );
    }

    #[test]
    fn short_clusters_take_the_rest_of_the_word_or_the_next_word() {
        let w = CURL.parse(&["-sSLo", "out", "https://a"]);
        assert_eq!(opt_value(&w, "output"), Some("out"));
        assert_eq!(w.last(), Some(&Word::Operand("https://a")));
        assert_eq!(opt_value(&CURL.parse(&["-oFILE"]), "output"), Some("FILE"));
        assert_eq!(
            opt_value(&CURL.parse(&["-XDELETE", "u"]), "request"),
            Some("DELETE")
        );
        assert!(matches!(CURL.parse(&["-%"])[0], Word::Rejected(_)));
        assert_eq!(
            opt_value(&WGET.parse(&["-qO-", "u"]), "output-document"),
            Some("-")
        );
        assert_eq!(opt_value(&WGET.parse(&["-nv", "u"]), "n"), Some("v"));
    }

    #[test]
    fn values_are_never_operands_and_words_after_the_double_dash_always_are() {
        let w = CURL.parse(&["-H", "x: y", "--data-binary", "@-", "--", "-o"]);
        assert_eq!(opt_value(&w, "header"), Some("x: y"));
        assert_eq!(opt_value(&w, "data-binary"), Some("@-"));
        assert_eq!(w.last(), Some(&Word::Operand("-o")));
        assert_eq!(
            w.iter().filter(|w| matches!(w, Word::Operand(_))).count(),
            1
        );
    }

    #[test]
    fn equals_values_only_where_the_tool_takes_them() {
        assert_eq!(
            CURL.parse(&["--output=f", "u"])[0],
            Word::Rejected("--output=f")
        );
        assert_eq!(
            opt_value(&WGET.parse(&["--post-file=.env"]), "post-file"),
            Some(".env")
        );
        assert_eq!(WGET.parse(&["--quiet=1"])[0], Word::Rejected("--quiet=1"));
    }

    #[test]
    fn negated_switches_and_expanded_values_are_marked() {
        let w = CURL.parse(&["--no-location", "--expand-output", "{{f}}", "u"]);
        assert!(matches!(
            w[0],
            Word::Option {
                long: "location",
                negated: true,
                ..
            }
        ));
        assert!(matches!(
            w[1],
            Word::Option {
                long: "output",
                value: Some("{{f}}"),
                expanded: true,
                ..
            }
        ));
        assert_eq!(
            CURL.parse(&["--no-output", "x"])[0],
            Word::Rejected("--no-output")
        );
        assert_eq!(
            WGET.parse(&["--expand-output", "x"])[0],
            Word::Rejected("--expand-output")
        );
    }
}
