#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use super::*;

#[test]
fn base64_matches_rfc_4648_vectors() {
    for (input, expected) in [
        ("", ""),
        ("f", "Zg=="),
        ("fo", "Zm8="),
        ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="),
        ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ] {
        assert_eq!(base64(input.as_bytes()), expected, "{input:?}");
    }
}

#[test]
fn csp_hash_is_the_base64_sha256_browsers_compute() {
    assert_eq!(
        csp_hash(""),
        "sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="
    );
}

#[test]
fn embedded_json_cannot_close_its_script_element_and_still_parses() {
    let hostile = "</script><script>alert(1)</script><!-- & \u{2028}";
    let json = serde_json::to_string(&serde_json::json!({ "cmd": hostile })).unwrap();
    let safe = json_for_script(&json);
    for forbidden in ['<', '>', '&', '\u{2028}'] {
        assert!(!safe.contains(forbidden), "{safe}");
    }
    let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
    assert_eq!(back["cmd"], hostile);
}

#[test]
fn escape_neutralises_markup_and_attribute_quotes() {
    assert_eq!(
        escape(r#"<a href="x" onclick='y'>&</a>"#),
        "&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;"
    );
}

fn overview_with(command: &str) -> Overview {
    let dir = tempfile::tempdir().unwrap();
    let store = hookgate_audit::Store::open(dir.path(), hookgate_audit::Backend::Jsonl).unwrap();
    let mut r = hookgate_audit::Record::new("claude", "s<1>", "pre_tool_use");
    r.targets = vec![command.to_owned()];
    r.decision = hookgate_audit::RecordDecision::Deny;
    r.rules = vec!["git.force_push".to_owned()];
    store.record(&r).unwrap();
    hookgate_audit::Reader::open(dir.path())
        .unwrap()
        .overview(&hookgate_audit::Filter::default())
        .unwrap()
}

#[test]
fn page_allows_only_its_own_script_and_style_and_fetches_nothing() {
    let page = render_html(
        &overview_with("git push --force"),
        &PageInfo {
            generated_ms: 0,
            store: "/tmp/<store>",
            unstored: None,
        },
    )
    .unwrap();
    assert!(page.contains(&format!("script-src '{}'", csp_hash(JS))));
    assert!(page.contains(&format!("style-src '{}'", csp_hash(CSS))));
    assert!(page.contains("default-src 'none'"));
    assert!(
        page.contains(&format!("<script>{JS}</script>")),
        "the hashed body verbatim"
    );
    assert!(page.contains("store /tmp/&lt;store&gt;"));
    for remote in ["http://", "https://", "src=", "@import", "url("] {
        let outside_data = page.replace("http://www.w3.org/2000/svg", "");
        assert!(
            !outside_data.contains(remote),
            "the page references {remote}"
        );
    }
}

#[test]
fn agent_text_reaches_the_page_only_inside_the_escaped_data_block() {
    let hostile = "echo </script><img src=x onerror=alert(1)>";
    let page = render_html(
        &overview_with(hostile),
        &PageInfo {
            generated_ms: 0,
            store: "s",
            unstored: None,
        },
    )
    .unwrap();
    assert!(!page.contains("<img"), "no markup from the command");
    assert_eq!(
        page.matches("</script>").count(),
        2,
        "only the page's own two scripts close"
    );
    assert!(page.contains("echo \\u003c/script\\u003e\\u003cimg src=x onerror=alert(1)\\u003e"));
}
