//! Command-line grammars of the tools whose options decide what they touch (curl, wget,
//! HTTPie/xh, `gh api`, GNU tar): one reader per tool for every question the guard asks about a call
//! (where it sends data, what it uploads, which file it writes, which method it uses).
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
mod gh_api;
mod httpie;
mod tar;
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

/// One table row: `opt("output", Some('o'), true)`.
const fn opt(long: &'static str, short: Option<char>, takes_value: bool) -> CliOption {
    CliOption {
        long,
        short,
        takes_value,
    }
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
    /// A unique prefix of a long option names it (curl, GNU getopt, Python's argparse);
    /// spf13/pflag (`gh`) knows only whole names.
    abbreviations: bool,
    /// `--no-NAME` turns a switch off (curl, wget, HTTPie); pflag has no such form.
    negations: bool,
    /// `-X=VALUE` is `-X VALUE` (pflag); elsewhere the `=` is part of the value.
    short_equals: bool,
}

/// curl's grammar.
pub const CURL: Grammar = Grammar {
    options: curl::OPTIONS,
    newer: curl::NEWER,
    equals: false,
    expand: true,
    abbreviations: true,
    negations: true,
    short_equals: false,
};

/// wget's grammar.
pub const WGET: Grammar = Grammar {
    options: wget::OPTIONS,
    newer: &[],
    equals: true,
    expand: false,
    abbreviations: true,
    negations: true,
    short_equals: false,
};

/// HTTPie's and xh's grammar (`http`, `https`, `xh`, `xhs`): argparse, so abbreviations and
/// `--name=value`; the operands are `[METHOD] URL [ITEM…]`.
pub const HTTPIE: Grammar = Grammar {
    options: httpie::OPTIONS,
    newer: &[],
    equals: true,
    expand: false,
    abbreviations: true,
    negations: true,
    short_equals: false,
};

/// GNU tar's long options (argp: abbreviations, `--name=value`); its short options and the
/// traditional `tar xzf` form are read by the callers.
pub const TAR: Grammar = Grammar {
    options: tar::OPTIONS,
    newer: &[],
    equals: true,
    expand: false,
    abbreviations: true,
    negations: false,
    short_equals: false,
};

/// `gh api`'s grammar (pflag: whole long names only, `-X=VALUE`); its first operand is the
/// word `api` itself when the line is read from after `gh`.
pub const GH_API: Grammar = Grammar {
    options: gh_api::OPTIONS,
    newer: &[],
    equals: true,
    expand: false,
    abbreviations: false,
    negations: false,
    short_equals: true,
};

/// The grammar of an HTTP client the guard reads with its own option table.
#[must_use]
pub(crate) fn http_grammar(tool: &str) -> Option<&'static Grammar> {
    match tool {
        "curl" => Some(&CURL),
        "wget" => Some(&WGET),
        "http" | "https" | "xh" | "xhs" | "httpie" => Some(&HTTPIE),
        _ => None,
    }
}

/// A short-option cluster of `tool` (`-sH`, `-fsSLu`, `-sHAuthorization: x`) read as the tool
/// reads it: the value-taking option it ends in, as its one-letter form (`-H`), and whether
/// the value is attached in the same word. `None` for a word that is not such a cluster (a
/// long option, a lone switch, a letter the tool rejects, a cluster of switches only), so a
/// caller that looks options up by name (`-H`, `-u`) sees `-sH` as the `-H` it is.
#[must_use]
pub(crate) fn cluster_value_option(tool: &str, word: &str) -> Option<(&'static str, bool)> {
    /// Every one-letter option spelled `-X`, two bytes each, so the answer is `'static`.
    const FLAGS: &str = "-a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-q-r-s-t-u-v-w-x-y-z\
                         -A-B-C-D-E-F-G-H-I-J-K-L-M-N-O-P-Q-R-S-T-U-V-W-X-Y-Z-0-1-2-3-4-5-6-7-8-9-#-:";
    let grammar = http_grammar(tool)?;
    let cluster = word.strip_prefix('-').filter(|c| !c.starts_with('-'))?;
    for (i, c) in cluster.char_indices() {
        let option = grammar.short_option(c)?;
        if option.takes_value {
            let attached = !cluster
                .get(i + c.len_utf8()..)
                .unwrap_or_default()
                .is_empty();
            let at = FLAGS.find(&format!("-{c}") as &str)?;
            return Some((FLAGS.get(at..at + 2)?, attached));
        }
    }
    None
}

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
        if name.is_empty() || !self.abbreviations {
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

    /// Every option `name` abbreviates when it abbreviates more than one (`curl --req`:
    /// `request` and `request-target`). The tool rejects such a word; a caller judging what
    /// an older tool, whose table lacked the newer candidates, would have done reads it as
    /// each of them.
    #[must_use]
    pub fn ambiguous(&self, name: &str) -> Vec<&'static CliOption> {
        if !self.abbreviations || name.is_empty() || self.long_option(name).is_some() {
            return Vec::new();
        }
        let options: &'static [CliOption] = self.options;
        options
            .iter()
            .filter(|o| o.long.starts_with(name))
            .collect()
    }

    /// The option whose short form is `c`.
    #[must_use]
    pub fn short_option(&self, c: char) -> Option<&'static CliOption> {
        self.options.iter().find(|o| o.short == Some(c))
    }

    /// Reads `args` (the words after the program name) as the tool does.
    #[must_use]
    pub fn parse<'a, S: AsRef<str>>(&self, args: &'a [S]) -> Vec<Word<'a>> {
        self.parse_indexed(args)
            .into_iter()
            .map(|(_, w)| w)
            .collect()
    }

    /// [`Grammar::parse`], each word with the index in `args` of the word it ends on (an
    /// option's value word when the value is the next word), so a caller holding richer words
    /// (the shell analyzer's, which know whether their text is exact) can look them up.
    #[must_use]
    pub fn parse_indexed<'a, S: AsRef<str>>(&self, args: &'a [S]) -> Vec<(usize, Word<'a>)> {
        let mut out = Vec::with_capacity(args.len());
        let mut words = args.iter().map(AsRef::as_ref).enumerate();
        while let Some((at, word)) = words.next() {
            if word == "--" {
                out.extend(words.by_ref().map(|(i, w)| (i, Word::Operand(w))));
                break;
            }
            if let Some(name) = word.strip_prefix("--") {
                let mut last = at;
                let item = self.long_word(
                    word,
                    name,
                    &mut words.by_ref().inspect(|(i, _)| last = *i).map(|(_, w)| w),
                );
                out.push((last, item));
            } else if let Some(cluster) = word.strip_prefix('-').filter(|c| !c.is_empty()) {
                self.short_cluster(at, word, cluster, &mut words, &mut out);
            } else {
                out.push((at, Word::Operand(word)));
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
            None => match (
                name.strip_prefix("no-").filter(|_| self.negations),
                name.strip_prefix("expand-"),
            ) {
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

    /// `-abc`, `-oFILE`, `-so FILE` (and pflag's `-o=FILE`): switches until one takes a
    /// value, which is the rest of the word or else the next word.
    fn short_cluster<'a>(
        &self,
        at: usize,
        word: &'a str,
        cluster: &'a str,
        rest: &mut impl Iterator<Item = (usize, &'a str)>,
        out: &mut Vec<(usize, Word<'a>)>,
    ) {
        for (i, c) in cluster.char_indices() {
            let Some(option) = self.short_option(c) else {
                out.push((at, Word::Rejected(word)));
                return;
            };
            if option.takes_value {
                let attached = cluster.get(i + c.len_utf8()..).unwrap_or_default();
                let attached = if self.short_equals {
                    attached.strip_prefix('=').unwrap_or(attached)
                } else {
                    attached
                };
                let (end, value) = if attached.is_empty() {
                    rest.next().map_or((at, None), |(j, v)| (j, Some(v)))
                } else {
                    (at, Some(attached))
                };
                out.push((
                    end,
                    Word::Option {
                        long: option.long,
                        value,
                        negated: false,
                        expanded: false,
                    },
                ));
                return;
            }
            out.push((
                at,
                Word::Option {
                    long: option.long,
                    value: None,
                    negated: false,
                    expanded: false,
                },
            ));
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
        for grammar in [CURL, WGET, HTTPIE, GH_API, TAR] {
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

    #[test]
    fn indexed_words_point_at_the_word_that_ends_them() {
        let w = CURL.parse_indexed(&["-sX", "DELETE", "--max-t", "5", "u", "-XPUT"]);
        assert_eq!(w[1].0, 1);
        assert_eq!(
            w[2],
            (
                3,
                Word::Option {
                    long: "max-time",
                    value: Some("5"),
                    negated: false,
                    expanded: false
                }
            )
        );
        assert_eq!(w[3], (4, Word::Operand("u")));
        assert_eq!(w[4].0, 5);
    }

    #[test]
    fn ambiguous_abbreviations_list_every_candidate_and_unique_ones_none() {
        let c: Vec<&str> = CURL.ambiguous("req").iter().map(|o| o.long).collect();
        assert_eq!(c, ["request", "request-target"]);
        assert!(CURL.ambiguous("request").is_empty());
        assert!(CURL.ambiguous("write-o").is_empty());
        assert!(GH_API.ambiguous("meth").is_empty());
    }

    #[test]
    fn pflag_knows_whole_names_only_and_reads_short_equals() {
        assert_eq!(
            GH_API.parse(&["--meth", "DELETE"])[0],
            Word::Rejected("--meth")
        );
        assert_eq!(
            GH_API.parse(&["--no-silent"])[0],
            Word::Rejected("--no-silent")
        );
        assert_eq!(
            opt_value(&GH_API.parse(&["-X=DELETE"]), "method"),
            Some("DELETE")
        );
        assert_eq!(
            opt_value(&GH_API.parse(&["-iXDELETE"]), "method"),
            Some("DELETE")
        );
        assert_eq!(
            opt_value(&GH_API.parse(&["--method=PUT"]), "method"),
            Some("PUT")
        );
        // curl keeps the `=`: `-X=DELETE` sends the method `=DELETE`.
        assert_eq!(
            opt_value(&CURL.parse(&["-X=DELETE"]), "request"),
            Some("=DELETE")
        );
    }

    #[test]
    fn httpie_reads_argparse_abbreviations_and_its_value_options() {
        assert_eq!(
            opt_value(&HTTPIE.parse(&["-pHB", "u"]), "print"),
            Some("HB")
        );
        assert!(matches!(
            HTTPIE.parse(&["-v", "DELETE"])[1],
            Word::Operand("DELETE")
        ));
        assert_eq!(
            opt_value(&HTTPIE.parse(&["--verif=no"]), "verify"),
            Some("no")
        );
        assert!(matches!(
            HTTPIE.parse(&["--sess", "s"])[0],
            Word::Rejected(_)
        ));
    }
}
