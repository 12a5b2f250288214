//! Variables that name the running user (`$USER`, `$LOGNAME`, `$UID`, `$EUID`) inside paths.
//!
//! `rm -rf "/tmp/pytest-of-$USER"` deletes one directory in /tmp whatever the user is called:
//! a login name (and a numeric id) is exactly one path component — never empty, never `.` or
//! `..`, never holding a `/`. So where the line itself did not assign the variable, its
//! expansion inside a path is modelled as a pattern for one component (`*`; `[0-9]*` for the
//! ids) and the word is judged like the glob `/tmp/pytest-of-*` by the existing place rules,
//! the sensitive catalog and the protected set: `/home/$USER` is `/home/*` (it can be a home
//! directory: still dangerous), `/tmp/hookgate-$UID` still names the guard's own state.
//!
//! Invariant kept: the analysis stays pure (same line, same verdict) — nothing is read from
//! the environment; a pattern stands for every value the variable could have. Where the
//! word is no path (no `/`: `$USER@host`, `chown $USER`, a command name), holds a quoted
//! wildcard the pattern would reinterpret, or is a here-document's text, the expansion stays
//! unresolved exactly as before (an unknown value, never a guess).

use tree_sitter::Node;

use crate::walk::{Scope, Word, WordShape};

/// Starts the placeholder an identity expansion leaves in a word's text until the word is
/// complete and [`settle`] decides what it becomes (a private-use code point: not text a
/// command line carries; if one ever does, it is only widened into a pattern or left
/// unresolved, both of which judge more, never less).
const MARK: char = '\u{E000}';
/// Ends the placeholder (after the variable's name).
const END: char = '\u{E001}';
/// Opens a token substitution's name inside a placeholder (its source text follows).
const TOKEN: char = '\u{E002}';

/// The component pattern for `$NAME`/`${NAME}` when `NAME` names the running user and the
/// line did not assign it (assigned, it has its known value or is unknown); for a token
/// substitution's placeholder ([`TOKEN`] then its source text: see [`push_token`]), one
/// component.
fn pattern(name: &str) -> Option<&'static str> {
    if name.starts_with(TOKEN) {
        return Some("*");
    }
    match name {
        "USER" | "LOGNAME" => Some("*"),
        // Bash keeps them read-only: always the process's numeric ids.
        "UID" | "EUID" => Some("[0-9]*"),
        _ => None,
    }
}

/// Appends the placeholder for an unresolved plain `$USER`-like expansion to `w`; false when
/// `node` is no such expansion (the caller treats it as any unknown value).
pub(crate) fn push(node: Node<'_>, src: &str, scope: &Scope, w: &mut Word) -> bool {
    let plain = node.kind() == "simple_expansion" || node.child_count() == 3;
    let Some(name) = crate::walk::expansion_name(node, src) else {
        return false;
    };
    if !plain || pattern(name).is_none() || scope.sh.get(name).is_some() {
        return false;
    }
    w.text.push(MARK);
    w.text.push_str(name);
    w.text.push(END);
    true
}

/// Appends the placeholder for a command substitution whose output is one name-safe token
/// (see [`token_producer`]): `raw` is its source text, put back if the word is no path.
pub(crate) fn push_token(raw: &str, w: &mut Word) {
    w.text.push(MARK);
    w.text.push(TOKEN);
    w.text.push_str(raw);
    w.text.push(END);
}

/// A command whose output is one name-safe token, never holding `/` and never `.` or `..`
/// alone: a commit id (`git rev-parse [--short] REV`, which prints the hash, or the revision
/// itself when it is not one), a date in a `/`-free format (`date +%F`, `date -u
/// +%Y%m%dT%H%M%S`), the user, the machine, the CPU count. Inside a file name it stands
/// for one component, as `$USER` does — the one list the analyzer and the policy's path
/// reading share (`out/report-$(date +%F).json`).
pub fn token_producer(argv: &[&str]) -> bool {
    let rev_safe = |r: &str| {
        !r.is_empty()
            && !r.starts_with(['.', '-'])
            && r.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '~' | '^' | '-'))
    };
    let date_safe = |f: &str| {
        let mut chars = f.chars();
        while let Some(c) = chars.next() {
            if c == '%' {
                if !chars.next().is_some_and(|d| "YmdHMSsFTjuVyGgN".contains(d)) {
                    return false;
                }
            } else if !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':')) {
                return false;
            }
        }
        true
    };
    match argv {
        ["git", "rev-parse", rest @ ..] => {
            let (flags, revs): (Vec<&str>, Vec<&str>) =
                rest.iter().partition(|w| w.starts_with('-'));
            flags.iter().all(|f| {
                matches!(*f, "--short" | "--verify" | "-q" | "--quiet")
                    || f.strip_prefix("--short=")
                        .is_some_and(|n| n.chars().all(|c| c.is_ascii_digit()))
            }) && matches!(revs.as_slice(), [r] if rev_safe(r))
        }
        ["date", fmt] | ["date", "-u" | "--utc", fmt] => {
            fmt.strip_prefix('+').is_some_and(date_safe)
        }
        ["whoami" | "nproc" | "hostname"]
        | ["id", "-u" | "-un" | "-g"]
        | ["uname", "-m" | "-s" | "-r"]
        | ["hostname", "-s"] => true,
        _ => false,
    }
}

/// Turns the placeholders of a complete word into component patterns (`path`: the word may
/// be a path, i.e. holds a `/` outside them and no quoted wildcard), or back into their
/// unresolved `$NAME` source text.
pub(crate) fn settle(w: &mut Word, path: bool) {
    if !w.text.contains(MARK) {
        return;
    }
    let mut rest = w.text.as_str();
    let mut parts: Vec<(&str, &str)> = Vec::new();
    while let Some(at) = rest.find(MARK) {
        let after = &rest[at + MARK.len_utf8()..];
        let Some(end) = after.find(END) else {
            // Not a placeholder of ours: text as written.
            break;
        };
        parts.push((&rest[..at], &after[..end]));
        rest = &after[end + END.len_utf8()..];
    }
    let literal_wild = w.shape == WordShape::Exact
        && parts
            .iter()
            .map(|(l, _)| *l)
            .chain([rest])
            .any(|l| l.contains(['*', '?', '[']));
    let slash = parts.iter().any(|(l, _)| l.contains('/')) || rest.contains('/');
    // A token substitution may print nothing (a failed `git rev-parse`): the component it
    // lands in must keep a letter or digit of its own, so the word never becomes its parent
    // directory, `.` or `..`. A file name needs no `/` to be one (`report-$(date +%F).json`),
    // but then its literal text must be name characters only: `$(id -un):$(id -g)` is an
    // owner, `--out=…` an option, and they keep their source text. The word must be
    // otherwise known (an unresolved part keeps every placeholder's source text).
    let tokens = parts.iter().any(|(_, n)| n.starts_with(TOKEN));
    let tokens_fit = !tokens || {
        let shape: String = parts
            .iter()
            .flat_map(|(l, n)| {
                [
                    *l,
                    if n.starts_with(TOKEN) {
                        "\u{E002}"
                    } else {
                        "x"
                    },
                ]
            })
            .chain([rest])
            .collect();
        let named = shape
            .split('/')
            .filter(|c| c.contains(TOKEN))
            .all(|c| c.chars().any(|ch| ch.is_ascii_alphanumeric()));
        let file_name = shape
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '.' | '_' | '-' | '+' | TOKEN));
        w.exact && named && (slash || file_name)
    };
    let as_pattern = path
        && (slash || tokens)
        && tokens_fit
        && !literal_wild
        && w.shape != WordShape::Descendants;
    let mut text = String::with_capacity(w.text.len());
    for (l, name) in parts {
        text.push_str(l);
        if let Some(p) = pattern(name).filter(|_| as_pattern) {
            text.push_str(p);
        } else if let Some(raw) = name.strip_prefix(TOKEN) {
            text.push_str(raw);
        } else {
            text.push('$');
            text.push_str(name);
        }
    }
    text.push_str(rest);
    w.text = text;
    if as_pattern {
        if w.shape == WordShape::Exact {
            w.shape = WordShape::Glob;
        }
    } else {
        w.exact = false;
    }
}
