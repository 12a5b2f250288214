//! `gh api`'s options (GitHub CLI 2.6x `gh api --help`, with the inherited `--help`). gh reads
//! its command line with spf13/pflag: no abbreviations of long options, `--name=value` and
//! `-X=value` as well as `-XVALUE` and `-X VALUE`.

use super::{CliOption, opt};

/// Every `gh api` option, sorted by long name.
pub(super) const OPTIONS: &[CliOption] = &[
    opt("cache", None, true),
    opt("field", Some('F'), true),
    opt("header", Some('H'), true),
    opt("help", None, false),
    opt("hostname", None, true),
    opt("include", Some('i'), false),
    opt("input", None, true),
    opt("jq", Some('q'), true),
    opt("method", Some('X'), true),
    opt("paginate", None, false),
    opt("preview", Some('p'), true),
    opt("raw-field", Some('f'), true),
    opt("silent", None, false),
    opt("slurp", None, false),
    opt("template", Some('t'), true),
    opt("verbose", None, false),
];
