//! Output thrown away: a command whose only harm is what it prints, with its standard output
//! sent to `/dev/null`.
//!
//! Agents check that a credential is *there* without looking at it (`op read
//! op://dev/app/URL >/dev/null && echo resolvable`, `gh auth token >/dev/null 2>&1 || gh
//! auth login`, `cat ~/.aws/credentials >/dev/null && echo readable`). The secret is read
//! and dropped; nothing reaches the agent, a file or the network. Asking about these is
//! noise, and a user taught to wave such questions through waves through the real ones.
//!
//! Invariant: the relaxation applies only where printing is the command's whole effect — a
//! closed table of pure printers ([`PURE_PRINTERS`]) and of taxonomy rules whose harm is what
//! they print ([`PRINT_ONLY_RULES`]) — and only when the *effective* standard output after every
//! redirection, in order, is `/dev/null` (`2>&1 >/dev/null` discards stdout; `>/dev/null 1>&2`
//! does not). A program that can also write a file (`op read -o F`, `sort -o`, `sed w`), run a
//! program (`rg --pre`, `awk system()`), or print its input on standard error (`jq 'error(.)'`
//! unless stderr is discarded too) is not in the table or is refused by its options.

use tree_sitter::Node;

use crate::model::{ExecutedCommand, Verdict};

/// Where a standard descriptor points after the redirections seen so far.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Target {
    /// Where it pointed before the command's redirections (terminal, pipe, the agent).
    Inherited,
    /// `/dev/null`, or closed (`>&-`): what is written there is lost.
    Null,
    /// A file or another descriptor.
    Elsewhere,
}

/// Where standard output and standard error end up after `redirects`, applied left to right.
/// Returns `(stdout, stderr)` as "discarded?" flags.
pub(crate) fn discarded(redirects: &[Node<'_>], src: &str) -> (bool, bool) {
    let (mut out, mut err) = (Target::Inherited, Target::Inherited);
    for r in redirects {
        if r.kind() != "file_redirect" {
            continue;
        }
        let mut descriptor: Option<&str> = None;
        let mut operator = "";
        let mut destination: Option<Node<'_>> = None;
        let mut cursor = r.walk();
        for child in r.children(&mut cursor) {
            if !child.is_named() {
                if operator.is_empty() {
                    operator = child.kind();
                }
            } else if child.kind() == "file_descriptor" && operator.is_empty() {
                descriptor = child.utf8_text(src.as_bytes()).ok();
            } else if destination.is_none() {
                destination = Some(child);
            }
        }
        // A quoted or expanded destination is not recognised (it stays "elsewhere").
        let dest = destination.and_then(|d| {
            matches!(d.kind(), "word" | "number")
                .then(|| d.utf8_text(src.as_bytes()).ok())
                .flatten()
        });
        apply(&mut out, &mut err, descriptor, operator, dest);
    }
    (out == Target::Null, err == Target::Null)
}

/// [`discarded`] for the plain fast path's redirects, each `(descriptor, operator,
/// destination)` as the grammar path reads them off a `file_redirect` node (a plain word or
/// number destination).
pub(crate) fn discarded_plain<'a>(
    redirects: impl IntoIterator<Item = (Option<&'a str>, &'a str, &'a str)>,
) -> (bool, bool) {
    let (mut out, mut err) = (Target::Inherited, Target::Inherited);
    for (descriptor, operator, dest) in redirects {
        apply(&mut out, &mut err, descriptor, operator, Some(dest));
    }
    (out == Target::Null, err == Target::Null)
}

/// One redirection applied to where stdout and stderr point (see [`discarded`]).
fn apply(
    out: &mut Target,
    err: &mut Target,
    descriptor: Option<&str>,
    operator: &str,
    dest: Option<&str>,
) {
    let file_target = |d: Option<&str>| match d {
        Some("/dev/null") => Target::Null,
        _ => Target::Elsewhere,
    };
    match operator {
        ">" | ">>" | ">|" => {
            let t = file_target(dest);
            match descriptor.unwrap_or("1") {
                "1" => *out = t,
                "2" => *err = t,
                _ => {}
            }
        }
        "&>" | "&>>" => {
            let t = file_target(dest);
            (*out, *err) = (t, t);
        }
        ">&" => {
            let t = match dest {
                Some("1") => *out,
                Some("2") => *err,
                Some("-") => Target::Null,
                Some(d) if d.bytes().all(|b| b.is_ascii_digit()) => Target::Elsewhere,
                d => {
                    // `>& FILE` without a descriptor is `&> FILE`.
                    if descriptor.is_none() {
                        let t = file_target(d);
                        (*out, *err) = (t, t);
                        return;
                    }
                    file_target(d)
                }
            };
            match descriptor.unwrap_or("1") {
                "1" => *out = t,
                "2" => *err = t,
                _ => {}
            }
        }
        ">&-" => match descriptor.unwrap_or("1") {
            "1" => *out = Target::Null,
            "2" => *err = Target::Null,
            _ => {}
        },
        // `1<>F` and `1<&3` point stdout somewhere else; input redirections leave it.
        "<>" | "<&" => match descriptor {
            Some("1") => *out = Target::Elsewhere,
            Some("2") => *err = Target::Elsewhere,
            _ => {}
        },
        _ => {}
    }
}

/// Programs whose only effect is to print their file operands (or stdin) to standard output,
/// with no option that writes a file or runs a program.
const PURE_PRINTERS: &[&str] = &[
    "cat", "tac", "nl", "head", "tail", "base64", "base32", "od", "hexdump", "strings",
];

/// Taxonomy rules whose harm is the secret they print: no file is written, nothing is sent.
/// (`cred.read_secret_file` is raised for any program reading a credential file: it is
/// dropped only for the [`PURE_PRINTERS`].)
/// (`doppler secrets download`, `gcloud secrets versions access --out-file`, `bw get
/// attachment --output` write files and are not here; `op read -o F` is refused by option.)
const PRINT_ONLY_RULES: &[&str] = &[
    "cred.gh_auth_token",
    "cred.print_token",
    "cred.gcloud_token",
    "cred.gcloud_adc_token",
    "cred.aws_configure_get",
    "cred.cloud_token_aws",
    "cred.cloud_token_azure",
    "cred.secret_store_read",
    "cred.secret_store_read_vault",
    "cred.secret_store_token_vault",
    "cred.secret_store_read_op",
    "cred.password_store_read",
    "cred.kube_secret",
    "cred.secret_store_read_sops",
];

/// Options that write the secret to a file: `op read -o|--out-file`, `sops -d --output`
/// (and sops' in-place `-i`).
fn writes_output_file(argv: &[String]) -> bool {
    argv.iter().skip(1).any(|a| {
        a == "-o"
            || a.starts_with("--out-file")
            || a.starts_with("--output")
            || a == "--in-place"
            || (a.starts_with('-') && !a.starts_with("--") && (a.contains('o') || a.contains('i')))
    })
}

/// Marks `cmd` — the command a statement ran, its standard output discarded — as printing
/// nothing anyone sees, when printing is all it does; `stderr_discarded` says whether its
/// standard error is dropped too (needed by printers that can echo their input there).
pub(crate) fn settle(cmd: &mut ExecutedCommand, stderr_discarded: bool) {
    let Some(name) = cmd.argv.first().map(|n| crate::resolve::basename(n)) else {
        return;
    };
    // `jq 'error(.)'`, `debug`, `stderr` print the input on standard error.
    let printer = PURE_PRINTERS.contains(&name) || (name == "jq" && stderr_discarded);
    let rule = cmd.verdict.rule_id.as_deref();
    // A credential file read by a program: dropped only when that program is a pure printer
    // (`jq 'error(.)' F >/dev/null` prints F on stderr, `python3 x.py ~/.aws/credentials`
    // may do anything with it).
    let print_only = match rule {
        Some("cred.read_secret_file") => printer,
        Some(r) => {
            PRINT_ONLY_RULES.contains(&r)
                && !(name == "bw"
                    || (matches!(name, "op" | "sops") && writes_output_file(&cmd.argv)))
        }
        None => false,
    };
    if printer && rule.is_none() {
        cmd.output_discarded = true;
    }
    if print_only {
        cmd.output_discarded = true;
        cmd.verdict = Verdict::normal(format!(
            "{} (to /dev/null: nothing is shown, written or sent)",
            cmd.verdict.reason
        ));
    }
}
