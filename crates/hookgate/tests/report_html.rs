//! `hookgate report` through the binary, and its HTML page in a real headless Chromium (issue
//! 10 C): records made by real `hookgate hook` calls, the page's script run by the browser,
//! the rendered DOM read back (`--dump-dom`) and a screenshot taken and checked.
//!
//! Chromium comes from the Debian package `chromium`, installed by `.ci/setup-test-tools`
//! (run by `.ci/run`). Where it is missing the browser tests skip with a message — unless `CI`
//! is set: there a missing browser fails them, because a skipped test is not a passed one.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::collections::{BTreeMap, BTreeSet};
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A command an attacker controls, recorded as a target: if any of it became markup, the DOM
/// would hold an `<img>` element or a `data-pwned` attribute.
const HOSTILE: &str = r#"echo "</script><img src=x onerror=alert(1)><script>document.body.setAttribute('data-pwned','1')</script>""#;

mod support;

use support::{Env, missing};

/// Two agents, two sessions, allowed and denied calls, and the hostile command.
fn seeded() -> Env {
    let env = Env::new();
    for (agent, session, command) in [
        ("claude", "session-one", "git status"),
        ("claude", "session-one", "git push --force origin main"),
        ("claude", "session-one", HOSTILE),
        ("codex", "session-two", "rm -rf /"),
        ("codex", "session-two", "ls -la"),
    ] {
        Env::with_stdin(
            env.command(&["hook", agent]),
            &env.pre_tool_use(session, command),
        );
    }
    env
}

/// `$HOOKGATE_TEST_CHROMIUM`, or `chromium` on the PATH.
fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("HOOKGATE_TEST_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("chromium"))
            .find(|p| p.is_file())
    })
}

/// Runs headless Chromium on `page` with `args`, killed after two minutes (a hung browser
/// must fail the test, not hang it). Returns stdout.
fn browse(browser: &Path, profile: &Path, page: &Path, args: &[&str]) -> Vec<u8> {
    let mut child = Command::new(browser)
        .args([
            "--headless",
            // The tests run as root in CI, where Chromium's sandbox refuses to start.
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(format!("file://{}", page.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut bytes).unwrap();
        bytes
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium {args:?} did not finish within two minutes");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "chromium {args:?}: {status}");
    reader.join().unwrap()
}

/// The start tags named `tag` in serialised HTML, each as its attributes. Enough for the DOM
/// Chromium serialises: attribute values are double-quoted with `"` and `>` escaped.
fn elements(dom: &str, tag: &str) -> Vec<BTreeMap<String, String>> {
    let open = format!("<{tag}");
    let mut out = Vec::new();
    let mut rest = dom;
    while let Some(at) = rest.find(&open) {
        rest = &rest[at + open.len()..];
        if !rest.starts_with([' ', '>', '/']) {
            continue;
        }
        let end = rest.find('>').unwrap();
        let mut attrs = BTreeMap::new();
        let mut text = &rest[..end];
        while let Some(eq) = text.find("=\"") {
            let name = text[..eq].trim().rsplit(' ').next().unwrap().to_owned();
            let value_end = text[eq + 2..].find('"').unwrap();
            attrs.insert(name, text[eq + 2..eq + 2 + value_end].to_owned());
            text = &text[eq + 2 + value_end + 1..];
        }
        out.push(attrs);
        rest = &rest[end..];
    }
    out
}

/// The text right after the start tag whose `id` is `id`.
fn text_of(dom: &str, id: &str) -> String {
    let marker = format!("id=\"{id}\"");
    let at = dom
        .find(&marker)
        .unwrap_or_else(|| panic!("no #{id} in the DOM"));
    let after = &dom[at..];
    let start = after.find('>').unwrap() + 1;
    let len = after[start..].find('<').unwrap();
    after[start..start + len].to_owned()
}

#[test]
fn report_counts_are_the_stats_counts_for_the_same_filters() {
    let env = seeded();
    for filters in [
        &[][..],
        &["--agent", "codex"][..],
        &["--decision", "deny"][..],
    ] {
        let mut stats_args = vec!["stats", "--json", "--since", "1d"];
        stats_args.extend_from_slice(filters);
        let mut report_args = vec!["report", "--json", "--since", "1d"];
        report_args.extend_from_slice(filters);
        let mut stats = env.json(&stats_args);
        // Store-wide counters (records the store could not take, records the size cap
        // evicted) are not counts of the filtered records the report draws.
        stats.as_object_mut().unwrap().remove("unstored");
        stats.as_object_mut().unwrap().remove("evicted");
        let report = env.json(&report_args);
        assert_eq!(report["stats"], stats, "{filters:?}");
        let calls: u64 = report["sessions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["records"].as_array().unwrap().len() as u64)
            .sum();
        assert_eq!(calls, stats["total"].as_u64().unwrap(), "{filters:?}");
    }
    let report = env.json(&["report", "--json"]);
    assert_eq!(
        report["stats"]["total"], 5,
        "the default window (7d) holds today's calls"
    );
    assert_eq!(
        report["denied"]["total"], report["stats"]["by_decision"]["deny"],
        "top denied rules count the denied records"
    );
}

#[test]
fn report_html_file_is_written_owner_only_and_whole() {
    let env = seeded();
    let page = env.path("out/report.html");
    std::fs::create_dir_all(page.parent().unwrap()).unwrap();
    std::fs::write(&page, "old").unwrap();
    let out = env.run(&["report", "--html", page.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("wrote"));
    let meta = std::fs::metadata(&page).unwrap();
    assert_eq!(
        meta.permissions().mode() & 0o777,
        0o600,
        "commands and paths are private"
    );
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    let leftovers: Vec<_> = std::fs::read_dir(page.parent().unwrap())
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .filter(|n| n != "report.html")
        .collect();
    assert!(
        leftovers.is_empty(),
        "no temporary file left: {leftovers:?}"
    );
    let missing_dir = env
        .command(&["report", "--html", "/nonexistent-dir/r.html"])
        .output()
        .unwrap();
    assert_eq!(
        missing_dir.status.code(),
        Some(1),
        "an unwritable FILE is an error"
    );
}

#[test]
fn report_html_renders_the_stores_counts_timeline_and_sessions_in_headless_chromium() {
    let Some(browser) = chromium() else {
        missing("report browser", "chromium is not installed");
        return;
    };
    let env = seeded();
    let stats = env.json(&["stats", "--json"]);
    let report = env.json(&["report", "--json"]);
    let page = env.path("report.html");
    env.run(&["report", "--html", page.to_str().unwrap()]);

    let dom = String::from_utf8(browse(
        &browser,
        &env.path("chromium-profile"),
        &page,
        &["--dump-dom"],
    ))
    .unwrap();
    let total = stats["total"].as_u64().unwrap();
    assert_eq!(total, 5);

    // The script ran to the end and drew one row and one dot per call.
    let main = elements(&dom, "main");
    assert_eq!(main[0]["data-rendered-calls"], total.to_string(), "{dom}");
    let dots: Vec<_> = elements(&dom, "circle")
        .into_iter()
        .filter(|a| a.get("class").is_some_and(|c| c == "call-dot"))
        .collect();
    assert_eq!(dots.len() as u64, total);
    let rows = elements(&dom, "tr")
        .into_iter()
        .filter(|a| a.get("class").is_some_and(|c| c == "call"))
        .count();
    assert_eq!(rows as u64, total);

    // The counts on the page are the store's (`stats`), decision by decision.
    assert_eq!(text_of(&dom, "count-total"), total.to_string());
    for decision in ["deny", "ask", "allow", "none", "error"] {
        let expected = stats["by_decision"][decision].as_u64().unwrap_or(0);
        assert_eq!(
            text_of(&dom, &format!("count-{decision}")),
            expected.to_string(),
            "{decision}"
        );
        let drawn = dots
            .iter()
            .filter(|a| a["data-decision"] == decision)
            .count();
        assert_eq!(drawn as u64, expected, "{decision} dots");
    }
    assert_eq!(text_of(&dom, "count-sessions"), "2");
    assert_eq!(
        elements(&dom, "details")
            .iter()
            .filter(|a| a.get("class").is_some_and(|c| c == "session"))
            .count(),
        2
    );
    let shown_rules: BTreeSet<String> = elements(&dom, "tr")
        .into_iter()
        .filter_map(|a| a.get("data-rule").cloned())
        .collect();
    let denied_rules: BTreeSet<String> = report["denied"]["by_rule"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert!(!denied_rules.is_empty());
    assert_eq!(shown_rules, denied_rules, "top denied rules");
    let p99 = stats["latency_us"]["p99"].as_u64().unwrap();
    assert_eq!(
        elements(&dom, "td")
            .iter()
            .find(|a| a.get("id").is_some_and(|i| i == "latency-p99"))
            .unwrap()["data-us"],
        p99.to_string()
    );

    // The hostile command is text on the page, never markup.
    assert!(
        elements(&dom, "img").is_empty(),
        "the command injected an element"
    );
    assert!(
        !elements(&dom, "body")[0].contains_key("data-pwned"),
        "the command's script ran"
    );
    assert_eq!(
        elements(&dom, "script").len(),
        2,
        "only the page's own scripts"
    );
    assert!(
        dom.contains("&lt;img src=x onerror=alert(1)&gt;"),
        "the command is shown as text"
    );

    // A screenshot, written where a human can look at it, and checked: the page is not blank
    // and the chart and the denied-rules bars are drawn in the deny colour.
    let shot_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("report-html");
    std::fs::create_dir_all(&shot_dir).unwrap();
    let shot = shot_dir.join("report.png");
    let _ = std::fs::remove_file(&shot);
    browse(
        &browser,
        &env.path("chromium-profile"),
        &page,
        &[
            "--window-size=1280,1400",
            &format!("--screenshot={}", shot.display()),
        ],
    );
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&shot).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let frame = reader.next_frame(&mut pixels).unwrap();
    assert_eq!((frame.width, frame.height), (1280, 1400));
    let channels = frame.color_type.samples();
    assert!(channels >= 3, "{:?}", frame.color_type);
    let mut colours = BTreeSet::new();
    let mut deny_red = 0usize;
    for px in pixels[..frame.buffer_size()].chunks(channels) {
        colours.insert((px[0], px[1], px[2]));
        if (px[0], px[1], px[2]) == (0xc6, 0x28, 0x28) {
            deny_red += 1;
        }
    }
    assert!(
        colours.len() > 50,
        "the screenshot looks blank: {} colours",
        colours.len()
    );
    assert!(
        deny_red > 1000,
        "deny dots and bars not drawn: {deny_red} deny-red pixels"
    );
    eprintln!("screenshot: {}", shot.display());
}
