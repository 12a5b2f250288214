//! Round 25 (wt-perf): the catalog's shortcuts give the answers of the full matching.
//!
//! `classify_where`/`classify_subtree_where` skip the entries a caller's question cannot
//! select; `Glob` rejects a path by its first byte and by the first bytes its components
//! start with; `glob::components` splits Unix paths on bytes; the home and workspace anchors
//! are not folded again when they are folded already. Each table line is one path (or one
//! pattern and path), with what it exercises.

use std::path::{Component, Path, PathBuf};

use hookgate_paths::glob::{component_count, component_firsts, components};
use hookgate_paths::{
    Access, Category, Glob, PathContext, classify, classify_subtree, classify_subtree_where,
    classify_where,
};

/// Paths across the catalog's anchors: workspace files, home credentials, system files,
/// scratch, odd spellings (case, dots, doubled slashes, `..`, non-ASCII).
const PATHS: &[(&str, &str)] = &[
    ("/work/proj/README.md", "a workspace file no entry names"),
    ("/work/proj/certs/server.key", "a workspace private key"),
    ("/work/proj/certs/fullchain.pem", "an excluded certificate"),
    ("/work/proj/.env", "a workspace dotenv"),
    ("/work/proj/.git/config", "a git config in the workspace"),
    ("/work/proj/.claude/settings.json", "an agent hook config"),
    ("/home/u/.ssh/id_rsa", "a home SSH key"),
    ("/home/u/.ssh/id_rsa.pub", "an excluded public half"),
    ("/home/u/.SSH/ID_RSA", "case folded"),
    ("/home/u/.aws/credentials", "cloud credentials"),
    ("/home/u/.gnupg/private-keys-v1.d/x.key", "a keyring"),
    ("/home/u/.config/age/keys.txt", "an age identity"),
    ("/home/u/.m2", "a directory holding settings.xml"),
    ("/home/u", "home itself"),
    ("/home/other/.ssh/id_ed25519", "another user's home"),
    ("/root/.kube/config", "root's home"),
    ("/etc/ssh/ssh_host_ed25519_key", "a host key"),
    ("/etc/shadow", "an account database"),
    ("/etc", "a system tree"),
    ("/tmp/status.txt", "scratch"),
    ("/tmp/krb5cc_1000", "a ticket cache in scratch"),
    ("/var/run/docker.sock", "an engine socket"),
    ("/usr/local/bin/tool", "a system binary"),
    ("/", "the root"),
    ("/work/proj/./src//main.rs", "dots and doubled slashes"),
    ("/work/proj/src/../.env", "a parent step"),
    ("/work/proj/données/clé.pem", "non-ASCII components"),
];

fn ctx() -> PathContext {
    PathContext {
        cwd: PathBuf::from("/work/proj"),
        workspace: Some(PathBuf::from("/work/proj")),
        home: Some(PathBuf::from("/home/u")),
    }
}

/// Which entries a question selects, by category and access.
type Keep = fn(Category, Access) -> bool;

/// The questions the shell asks of the catalog.
fn questions() -> Vec<(&'static str, Keep)> {
    vec![
        ("private key, read", |c, a| {
            c == Category::PrivateKey && a.covers(Access::Read)
        }),
        ("credential, read", |c, a| {
            a.covers(Access::Read)
                && matches!(
                    c,
                    Category::PrivateKey
                        | Category::CloudCredentials
                        | Category::CredentialStore
                        | Category::EnvFile
                )
        }),
        ("everything", |_, _| true),
        ("nothing", |_, _| false),
    ]
}

#[test]
fn classify_where_is_classify_filtered_by_the_question() {
    for (path, why) in PATHS {
        let full = classify(Path::new(path), &ctx());
        for (question, keep) in questions() {
            let expected: Vec<_> = full
                .iter()
                .filter(|m| keep(m.category, m.access))
                .cloned()
                .collect();
            assert_eq!(
                classify_where(Path::new(path), &ctx(), keep),
                expected,
                "{path} ({why}), {question}"
            );
        }
    }
}

#[test]
fn classify_subtree_where_is_classify_subtree_filtered_by_the_question() {
    for (path, why) in PATHS {
        let full = classify_subtree(Path::new(path), &ctx());
        for (question, keep) in questions() {
            let expected: Vec<_> = full
                .iter()
                .filter(|m| keep(m.category, m.access))
                .cloned()
                .collect();
            assert_eq!(
                classify_subtree_where(Path::new(path), &ctx(), keep),
                expected,
                "{path} ({why}), {question}"
            );
        }
    }
}

#[test]
fn anchors_spelled_unfolded_classify_as_folded_ones() {
    // A context whose home and workspace are not folded (trailing slash, `.`, `..`) is folded
    // before use; a folded one is used as it is. Both must judge alike.
    let unfolded = PathContext {
        cwd: PathBuf::from("/work/proj/"),
        workspace: Some(PathBuf::from("/work/./x/../proj/")),
        home: Some(PathBuf::from("/home//u/")),
    };
    for (path, why) in PATHS {
        assert_eq!(
            classify(Path::new(path), &unfolded),
            classify(Path::new(path), &ctx()),
            "{path} ({why})"
        );
    }
}

#[test]
fn components_on_bytes_are_the_normal_components() {
    for (path, why) in PATHS
        .iter()
        .chain(&[("relative/./a/../b", "relative"), ("", "empty")])
    {
        let walked: Vec<&[u8]> = Path::new(path)
            .components()
            .filter_map(|c| match c {
                Component::Normal(s) => Some(s.as_encoded_bytes()),
                _ => None,
            })
            .collect();
        assert_eq!(components(Path::new(path)), walked, "{path} ({why})");
        assert_eq!(
            component_count(Path::new(path)),
            walked.len(),
            "{path} ({why})"
        );
    }
}

/// Patterns by the shape of their first and named components; each is matched against every
/// path's tail (as an anchor would cut it).
const PATTERNS: &[(&str, &str)] = &[
    (".ssh/{id_*,*_rsa,*_ed25519_sk,identity}", "last starred"),
    ("**/.git/{hooks/**,config}", "a named component after **"),
    ("**/{.env,*.env}", "one alternative with no literal lead"),
    ("{tmp,var/tmp}/krb5cc*", "two first bytes"),
    ("etc/ssh/ssh_host_*_key", "absolute, all literal leads"),
    ("[.]ssh/**", "a class first"),
    ("?ssh/**", "a one-character wildcard first"),
    ("**", "everything"),
    ("données/**", "a non-ASCII first byte"),
    ("**/CLÉ.pem", "case folded ASCII only"),
];

#[test]
fn glob_first_and_required_bytes_never_reject_a_match() {
    for (pattern, why) in PATTERNS {
        let Ok(glob) = Glob::compile(pattern) else {
            panic!("{pattern} ({why}) does not compile");
        };
        for (path, _) in PATHS {
            let all = components(Path::new(path));
            let firsts = component_firsts(&all);
            for start in 0..=all.len() {
                let rel = &all[start..];
                if glob.matches(rel) {
                    assert!(
                        glob.may_match_firsts(&firsts),
                        "{pattern} ({why}) matches {path} from component {start} but its bytes rule it out"
                    );
                }
            }
        }
    }
}

#[test]
fn glob_matches_keep_their_answers_on_known_cases() {
    #[rustfmt::skip]
    let table: &[(&str, &str, bool, &str)] = &[
        (".ssh/{id_*,*_rsa}", "project/README.md", false, "first byte"),
        (".ssh/{id_*,*_rsa}", ".ssh/id_rsa", true, "named"),
        (".ssh/{id_*,*_rsa}", ".SSH/ID_RSA", true, "case folded"),
        ("**/.git/config", "tmp/status.txt", false, "no component starts with ."),
        ("**/.git/config", "a/b/.git/config", true, "found below **"),
        ("{tmp,var/tmp}/krb5cc*", "var/tmp/krb5cc_0", true, "second alternative"),
        ("[.]ssh/**", ".ssh/x", true, "a class first is not filtered"),
        ("données/**", "données/x", true, "non-ASCII first byte"),
        ("données/**", "DONNÉES/x", false, "ASCII case folded, É exact"),
        ("données/**", "Données/x", true, "ASCII case folded"),
        ("**/CLÉ.pem", "a/clÉ.pem", true, "ASCII letters folded"),
        ("**/CLÉ.pem", "a/clé.pem", false, "non-ASCII letters exact"),
    ];
    for (pattern, path, expected, why) in table {
        let Ok(glob) = Glob::compile(pattern) else {
            panic!("{pattern} does not compile");
        };
        let parts: Vec<&str> = path.split('/').collect();
        assert_eq!(
            glob.matches(&parts),
            *expected,
            "{pattern} vs {path}: {why}"
        );
    }
}
