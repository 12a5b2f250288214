//! `hookgate report --html`: one self-contained HTML page over an [`Overview`].
//!
//! The page must open anywhere, offline, and must not become an attack surface for the text
//! it shows (commands, paths and reasons an agent supplied). So:
//!
//! - Nothing is fetched: the stylesheet, the script and the chart (SVG built by the script)
//!   are inline, and the Content-Security-Policy is `default-src 'none'` plus exactly the
//!   page's own script and style by SHA-256 — an injected `<script>`, handler attribute or
//!   remote image would be refused by the browser even if it reached the markup.
//! - Agent text never reaches the markup: the data travels as JSON in a non-executable
//!   `<script type="application/json">` block with `<`, `>`, `&`, U+2028 and U+2029 escaped
//!   (so no `</script>` can end it early), and the script puts it on the page only through
//!   text nodes and attribute values. The few server-rendered strings go through [`escape`].
//! - The numbers are the store's: [`Overview`] carries `hookgate stats`' own counts and
//!   percentiles; the page only lays them out.

use std::fmt::Write as _;

use hookgate_audit::{Overview, UnstoredSummary};
use serde::Serialize;
use sha2::{Digest as _, Sha256};

const CSS: &str = include_str!("report.css");
const JS: &str = include_str!("report.js");

/// Why a page could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// The overview did not serialise (a trace holding something JSON cannot represent).
    #[error("cannot encode the report data: {0}")]
    Encode(#[from] serde_json::Error),
}

/// What the page says about itself, beside the overview.
#[derive(Debug, Clone, Copy)]
pub struct PageInfo<'a> {
    /// When the report was made (epoch ms), shown in the header.
    pub generated_ms: u64,
    /// The store it was read from, shown in the header.
    pub store: &'a str,
    /// Records the store refused (kept in fallback files, not in these counts).
    pub unstored: Option<&'a UnstoredSummary>,
}

#[derive(Serialize)]
struct PageData<'a> {
    generated_ms: u64,
    overview: &'a Overview,
}

/// The whole page.
pub fn render_html(overview: &Overview, info: &PageInfo<'_>) -> Result<String, ReportError> {
    let data = json_for_script(&serde_json::to_string(&PageData {
        generated_ms: info.generated_ms,
        overview,
    })?);
    let csp = format!(
        "default-src 'none'; script-src '{}'; style-src '{}'; img-src data:; base-uri 'none'; form-action 'none'",
        csp_hash(JS),
        csp_hash(CSS)
    );
    let window = overview.since_ms.map_or_else(
        || "all records".to_owned(),
        |ms| format!("records since {}", local(ms)),
    );
    let notice = info
        .unstored
        .and_then(UnstoredSummary::notice)
        .map(|n| format!("<p class=\"notice\">{}</p>", escape(&n)))
        .unwrap_or_default();
    let mut page = String::with_capacity(data.len() + CSS.len() + JS.len() + 4096);
    let _ = write!(
        page,
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>hookgate report</title>
<style>{CSS}</style>
</head>
<body>
<header><h1>hookgate report</h1><p>{window} · generated {generated} · store {store}</p></header>
<main>
<noscript><p class="notice">This report draws its tables and chart with JavaScript; allow scripts for this file to see them.</p></noscript>
{notice}
<section><h2>Decisions</h2><div class="cards" id="cards"></div></section>
<section><h2>Timeline by agent and session</h2>
<p class="legend muted"><span class="deny">● deny</span><span class="ask">● ask</span><span class="allow">● allow</span><span class="none">● none</span><span class="error">● error</span> — click a dot to open its session</p>
<div id="timeline"></div></section>
<section><h2>Top denied rules</h2><table><thead><tr><th>rule or invariant id</th><th class="num">denied calls</th><th></th></tr></thead><tbody id="denied-rules"></tbody></table></section>
<section><h2>Latency (whole evaluation)</h2><table class="latency"><tbody id="latency-table"></tbody></table></section>
<section><h2>Sessions</h2><div id="session-list"></div></section>
</main>
<script type="application/json" id="hookgate-data">{data}</script>
<script>{JS}</script>
</body>
</html>
"#,
        generated = local(info.generated_ms),
        store = escape(info.store),
    );
    Ok(page)
}

/// Text for HTML element content and double-quoted attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// JSON made safe inside a `<script>` element: `<`, `>` and `&` only ever occur inside JSON
/// strings, where their `\u` escapes mean the same, so `</script>` and `<!--` cannot appear;
/// U+2028/U+2029 are escaped for older JavaScript parsers.
fn json_for_script(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// A CSP source expression allowing exactly `body` as an inline script or style.
fn csp_hash(body: &str) -> String {
    format!("sha256-{}", base64(&Sha256::digest(body.as_bytes())))
}

/// Standard base64 with padding (RFC 4648 §4), as CSP hashes are written.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk.first().copied().unwrap_or(0),
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                let index = (n >> (18 - 6 * i)) & 63;
                out.push(char::from(ALPHABET[index as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The page's own times (header) in the reader's zone with its offset, by the audit crate's one
/// time formatter; the script shows each record's time in the zone of whoever opens the page.
fn local(ms: u64) -> String {
    hookgate_audit::format_time_with_offset(ms, &hookgate_audit::local_zone())
}

#[cfg(test)]
mod tests;
