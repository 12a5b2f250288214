//! Rule-table tests: every rule's examples and negative examples, plus the global guarantees.

use std::collections::HashSet;

use serde_json::json;

use crate::rules::{EXAMPLES, RULES};
use crate::{REDACTED, Scanner, redact, redact_json, scan};

#[test]
fn every_rule_regex_compiles_in_ascii_mode() {
    let s = Scanner::new();
    let broken: Vec<&str> = (0..RULES.len())
        .filter(|&i| s.regex_for_test(i).is_none())
        .map(|i| RULES[i].id)
        .collect();
    assert!(broken.is_empty(), "rules that do not compile: {broken:?}");
}

#[test]
fn every_rule_example_is_reported_with_exactly_its_secret() {
    let mut failures = Vec::new();
    for rule in EXAMPLES {
        for (text, secret) in rule.examples {
            let found = scan(text);
            let ok = found
                .iter()
                .any(|f| f.rule_id == rule.id && &text[f.span.clone()] == *secret);
            if !ok {
                let got: Vec<(&str, &str)> = found
                    .iter()
                    .map(|f| (f.rule_id, &text[f.span.clone()]))
                    .collect();
                failures.push(format!("{}: {text:?} -> {got:?}", rule.id));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_rule_negative_example_is_not_reported_by_that_rule() {
    let mut failures = Vec::new();
    for rule in EXAMPLES {
        for text in rule.negatives {
            let hits: Vec<&str> = scan(text)
                .iter()
                .filter(|f| f.rule_id == rule.id)
                .map(|f| &text[f.span.clone()])
                .collect();
            if !hits.is_empty() {
                failures.push(format!("{}: {text:?} -> {hits:?}", rule.id));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_rule_example_redacts_to_a_clean_text() {
    for rule in EXAMPLES {
        for (text, secret) in rule.examples {
            let r = redact(text);
            assert!(!r.contains(secret), "{}: secret survived in {r:?}", rule.id);
            assert!(scan(&r).is_empty(), "{}: {r:?}", rule.id);
        }
    }
}

#[test]
fn rule_table_has_at_least_150_rules_in_every_family() {
    assert!(RULES.len() >= 150, "{}", RULES.len());
    let families: HashSet<_> = RULES.iter().map(|r| r.family).collect();
    assert_eq!(families.len(), 11, "{families:?}");
    let ids: HashSet<_> = RULES.iter().map(|r| r.id).collect();
    assert_eq!(ids.len(), RULES.len());
}

#[test]
fn placeholder_keys_are_never_findings() {
    for text in [
        "aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "AWS_ACCESS_KEY_ID=AKIA...",
        "OPENAI_API_KEY=sk-...",
        "ANTHROPIC_API_KEY=sk-ant-api03-...",
        "GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "GITHUB_TOKEN=ghp_000000000000000000000000000000000000",
        "token: <your-token>",
        "Authorization: Bearer <your-token>",
        "Authorization: Bearer YOUR_TOKEN_HERE_0000000000",
        "STRIPE_SECRET_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx",
        "STRIPE_SECRET_KEY=sk_test_0000000000000000000000000",
        "SLACK_BOT_TOKEN=xoxb-0000000000-0000000000000-xxxxxxxxxxxxxxxxxxxxxxxx",
        "DATABASE_URL=postgres://user:password@localhost:5432/db",
        "DATABASE_URL=postgres://user:${DB_PASSWORD}@localhost:5432/db",
        "DATABASE_URL=postgres://user:<password>@localhost:5432/db",
        "-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----",
        "HF_TOKEN=hf_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    ] {
        let f = scan(text);
        assert!(f.is_empty(), "{text:?} -> {f:?}");
    }
}

#[test]
fn github_token_with_a_wrong_checksum_is_not_a_finding() {
    // Right shape, random tail: the CRC32 check rejects it.
    assert!(scan("ghp_Zq3mP9xL2vB7nK4tR8wY1cF6hJ0sD5gA2eUo").is_empty());
}

#[test]
fn redaction_marker_never_matches_and_redaction_is_idempotent() {
    let text = "GH=ghp_xxx and postgres://app:[REDACTED]@db/x and key [REDACTED]";
    assert!(scan(text).is_empty());
    let example = EXAMPLES
        .iter()
        .find(|r| r.id == "github-pat")
        .map(|r| r.examples[0].0)
        .unwrap();
    let once = redact(example).into_owned();
    assert!(once.contains(REDACTED));
    assert_eq!(redact(&once), once);
}

#[test]
fn connection_string_redaction_keeps_everything_but_the_password() {
    let r = redact("DATABASE_URL=postgres://app:Sup3r-S3cret!x@db.internal:5432/prod");
    assert_eq!(
        r,
        "DATABASE_URL=postgres://app:[REDACTED]@db.internal:5432/prod"
    );
}

#[test]
fn clean_text_is_borrowed_not_copied() {
    let text = "fn main() { let url = \"https://example.com\"; println!(\"{url}\"); }";
    assert!(matches!(redact(text), std::borrow::Cow::Borrowed(_)));
}

#[test]
fn redact_json_walks_arrays_and_objects_and_leaves_keys_alone() {
    let secret = EXAMPLES
        .iter()
        .find(|r| r.id == "slack-bot-token")
        .map(|r| r.examples[0].1)
        .unwrap();
    let v = json!({
        "command": format!("curl -H 'x: {secret}'"),
        secret: "key is untouched",
        "nested": [1, true, null, {"deep": secret}],
        "clean": "nothing here",
    });
    let r = redact_json(&v).unwrap();
    assert_eq!(r["command"], json!("curl -H 'x: [REDACTED]'"));
    assert_eq!(r["nested"][3]["deep"], json!(REDACTED));
    assert_eq!(r[secret], json!("key is untouched"));
    assert_eq!(r["clean"], json!("nothing here"));
    assert_eq!(r["nested"][0], json!(1));
    assert!(redact_json(&r).is_none(), "second pass must change nothing");
    assert!(redact_json(&json!({"a": ["b", 1]})).is_none());
}

#[test]
fn findings_are_on_char_boundaries_next_to_multibyte_text() {
    let secret = EXAMPLES
        .iter()
        .find(|r| r.id == "postgres-url-password")
        .map(|r| r.examples[0].0)
        .unwrap();
    let text = format!("é{secret}ü postgres://u:pässwörd€x@h/");
    for f in scan(&text) {
        assert!(text.is_char_boundary(f.span.start) && text.is_char_boundary(f.span.end));
    }
    let r = redact(&text);
    assert!(scan(&r).is_empty());
}

#[test]
fn finding_serializes_in_snake_case() {
    let f = scan("DATABASE_URL=postgres://app:Sup3r-S3cret!x@db/prod");
    let v = serde_json::to_value(&f[0]).unwrap();
    assert_eq!(v["rule_id"], json!("postgres-url-password"));
    assert_eq!(v["family"], json!("connection_string"));
    assert!(v["span"]["start"].is_u64());
    assert_eq!(v["preview"], json!(REDACTED));
}

mod properties {
    use proptest::prelude::*;

    use crate::rules::EXAMPLES;
    use crate::{REDACTED, redact, redact_json, scan};

    /// Texts built from rule examples, negatives, markers and noise, so that secrets sit next
    /// to each other, next to markers and inside multi-byte text.
    fn mixed_text() -> impl Strategy<Value = String> {
        let example = (0..EXAMPLES.len(), 0usize..4).prop_map(|(r, i)| {
            let ex = EXAMPLES[r].examples;
            ex[i % ex.len()].0.to_owned()
        });
        let negative = (0..EXAMPLES.len(), 0usize..4).prop_map(|(r, i)| {
            let n = EXAMPLES[r].negatives;
            n[i % n.len()].to_owned()
        });
        let piece = prop_oneof![
            4 => example,
            2 => negative,
            1 => Just(REDACTED.to_owned()),
            1 => "[ -~]{0,12}",
            1 => "\\PC{0,6}",
            1 => prop_oneof![Just(String::new()), Just(" ".into()), Just("\n".into()), Just("\"".into()), Just(":".into()), Just("=".into()), Just("@".into())],
        ];
        proptest::collection::vec(piece, 0..8).prop_map(|v| v.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

        #[test]
        fn redact_is_idempotent(text in mixed_text()) {
            let once = redact(&text).into_owned();
            let twice = redact(&once).into_owned();
            prop_assert_eq!(once, twice);
        }

        #[test]
        fn redacted_output_contains_no_finding(text in mixed_text()) {
            let out = redact(&text);
            let left = scan(&out);
            prop_assert!(left.is_empty(), "{:?} left {:?}", out, left);
            for f in scan(&text) {
                let secret = &text[f.span.clone()];
                if secret.len() >= 16 {
                    prop_assert!(!out.contains(secret), "{} survived", secret);
                }
            }
        }

        #[test]
        fn scan_never_panics_and_spans_are_char_boundaries(text in "\\PC{0,300}|[ -~\\n]{0,300}") {
            for f in scan(&text) {
                prop_assert!(f.span.start < f.span.end && f.span.end <= text.len());
                prop_assert!(text.is_char_boundary(f.span.start) && text.is_char_boundary(f.span.end));
            }
            let _ = redact(&text);
        }

        #[test]
        fn redact_json_is_idempotent(a in mixed_text(), b in mixed_text()) {
            let v = serde_json::json!({"a": a, "list": [b, 1, {"k": "v"}]});
            if let Some(r) = redact_json(&v) {
                prop_assert!(redact_json(&r).is_none());
            }
        }
    }
}

#[test]
fn passwords_of_databases_on_the_loopback_host_are_not_secrets() {
    for text in [
        "DATABASE_URL=postgres://postgres:dev@localhost:5432/app_test",
        "DATABASE_URL=postgresql://app:s3cr3tLocal!x@127.0.0.1/app",
        "mysql://root:rootpw@[::1]:3306/test",
        "redis://:hunter2xyz@localhost:6379/0",
        "mongodb://u:Pw0rdLocal99@db.localhost/x",
    ] {
        assert!(
            scan(text)
                .iter()
                .all(|f| f.family != crate::rules::Family::ConnectionString),
            "{text}: {:?}",
            scan(text)
        );
    }
    // Any other host keeps the finding, names and addresses alike.
    for text in [
        "DATABASE_URL=postgres://app:p59qKL!T5fa71@db.internal:5432/prod",
        "postgres://app:p59qKL!T5fa71@localhost.evil.example/db",
        "postgres://app:p59qKL!T5fa71@10.0.0.5/db",
        "postgres://app:p59qKL!T5fa71@127.0.0.1.evil.example/db",
    ] {
        assert!(
            scan(text)
                .iter()
                .any(|f| f.family == crate::rules::Family::ConnectionString),
            "{text}"
        );
    }
}
