//! Checks applied to a regex match before it becomes a finding.
//!
//! All functions are total over arbitrary bytes: they return `false`/`0.0` instead of failing.

const BASE62: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// CRC-32 (IEEE 802.3, reflected, as zlib computes it). Bitwise rather than table-driven:
/// it only runs on the 30 bytes of a candidate token, so a table would be wasted start-up.
fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            let mask = (crc & 1).wrapping_neg();
            crc = (crc >> 1) ^ (0xEDB8_8320 & mask);
        }
    }
    !crc
}

fn base62_value(b: u8) -> Option<u64> {
    BASE62.iter().position(|&c| c == b).map(|p| p as u64)
}

/// True when `token` (`ghp_…`, `gho_…`, `ghu_…`, `ghs_…`, `npm_…`: a 4-byte prefix, 30 random
/// base62 bytes, 6 base62 checksum bytes) carries a correct CRC32 checksum.
///
/// GitHub documents the checksum so scanners can reject look-alikes without calling the API;
/// a random 36-char string passes with probability about 2^-32.
pub fn github_checksum_ok(token: &str) -> bool {
    let bytes = token.as_bytes();
    if bytes.len() != 40 || bytes.get(3) != Some(&b'_') {
        return false;
    }
    let (body, check) = bytes[4..].split_at(30);
    let mut value: u64 = 0;
    for &b in check {
        let Some(digit) = base62_value(b) else {
            return false;
        };
        value = value * 62 + digit;
    }
    value == u64::from(crc32(body))
}

fn base64url_decode(s: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let mut acc: u32 = 0;
    let mut bits = 0u32;
    for &c in s {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'-' | b'+' => 62,
            b'_' | b'/' => 63,
            b'=' => break,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push(((acc >> bits) & 0xFF) as u8);
        }
    }
    Some(out)
}

/// True when `token` is `header.payload.signature` with a base64url JSON-object header whose
/// `alg` is a string other than `none`, and a base64url JSON-object payload.
///
/// Unsigned (`alg: none`) tokens carry no secret, and random dotted base64 is not a JWT.
pub fn jwt_structure_ok(token: &str) -> bool {
    let mut parts = token.split('.');
    let (Some(h), Some(p), Some(_sig), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    let Some(header) = base64url_decode(h.as_bytes()) else {
        return false;
    };
    let Ok(serde_json::Value::Object(header)) =
        serde_json::from_slice::<serde_json::Value>(&header)
    else {
        return false;
    };
    match header.get("alg") {
        Some(serde_json::Value::String(alg)) if !alg.eq_ignore_ascii_case("none") => {}
        _ => return false,
    }
    let Some(payload) = base64url_decode(p.as_bytes()) else {
        return false;
    };
    matches!(
        serde_json::from_slice::<serde_json::Value>(&payload),
        Ok(serde_json::Value::Object(_))
    )
}

/// Shannon entropy of `s` in bits per byte (0.0 for empty input).
pub fn shannon_entropy(s: &[u8]) -> f64 {
    if s.is_empty() {
        return 0.0;
    }
    let mut counts = [0u32; 256];
    for &b in s {
        counts[usize::from(b)] += 1;
    }
    #[allow(clippy::cast_precision_loss)]
    let len = s.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = f64::from(c) / len;
            -p * p.log2()
        })
        .sum()
}

/// Words that, as a whole secret, mean "fill this in" rather than a credential.
const PLACEHOLDER_WORDS: &[&str] = &[
    "password",
    "passwd",
    "pass",
    "pwd",
    "secret",
    "changeme",
    "changeit",
    "test",
    "testing",
    "example",
    "placeholder",
    "dummy",
    "fake",
    "sample",
    "redacted",
    "mask",
    "masked",
    "null",
    "none",
    "token",
    "apikey",
    "api_key",
    "your_password",
    "yourpassword",
    "mypassword",
    "replace_me",
    "replaceme",
    "todo",
    "tbd",
    "foo",
    "bar",
    "foobar",
    "xxx",
];

/// Substrings that mark documentation or templating rather than a real credential.
const PLACEHOLDER_PARTS: &[&str] = &[
    "example",
    "xxxx",
    "...",
    "your",
    "placeholder",
    "redacted",
    "replace",
    "insert",
    "dummy",
    "12345678",
    "abcdefgh",
    "<",
    ">",
    "${",
    "{{",
    "}}",
    "%s",
    "%(",
    "$(",
    "***",
];

/// True when `secret` is a documented placeholder or template, not a credential.
///
/// Long secrets (PEM bodies, session tokens) are only checked for the markers that cannot
/// plausibly occur in random base64 by chance, so a real key is not dropped because its body
/// happens to contain `xxxx`.
pub(crate) fn is_placeholder(secret: &[u8]) -> bool {
    let lower: Vec<u8> = secret.iter().map(u8::to_ascii_lowercase).collect();
    let lower = lower.as_slice();
    if secret.first() == Some(&b'$')
        || (secret.first() == Some(&b'{') && secret.last() == Some(&b'}'))
        || secret.contains(&b'\0')
    {
        return true;
    }
    if PLACEHOLDER_WORDS.iter().any(|w| w.as_bytes() == lower) {
        return true;
    }
    let parts: &[&str] = if secret.len() > 200 {
        &["example", "...", "<", ">", "${", "{{", "redacted"]
    } else {
        PLACEHOLDER_PARTS
    };
    if parts.iter().any(|p| contains(lower, p.as_bytes())) {
        return true;
    }
    // "All-same-character" bodies (`ghp_aaaa…`, `sk_test_0000…`): one byte making up half or
    // more of an 8+ byte secret never happens in a random token.
    if secret.len() >= 8 {
        let mut counts = [0usize; 256];
        for &b in secret {
            counts[usize::from(b)] += 1;
        }
        let max = counts.iter().copied().max().unwrap_or(0);
        if max * 2 >= secret.len() {
            return true;
        }
    }
    false
}

pub(crate) fn contains(hay: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty() && hay.windows(needle.len()).any(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_matches_the_zlib_reference_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn github_checksum_rejects_a_flipped_character() {
        // Built with the documented scheme: crc32(body) in base62, left-padded to 6.
        let body = "abcdefghijklmnopqrstuvwxyz0123";
        let mut v = crc32(body.as_bytes());
        let mut check = Vec::new();
        while v > 0 {
            check.push(BASE62[(v % 62) as usize]);
            v /= 62;
        }
        while check.len() < 6 {
            check.push(b'0');
        }
        check.reverse();
        let token = format!("ghp_{body}{}", String::from_utf8(check).unwrap());
        assert!(github_checksum_ok(&token));
        let flipped = token.replacen('a', "b", 1);
        assert!(!github_checksum_ok(&flipped));
        assert!(!github_checksum_ok("ghp_short"));
        assert!(!github_checksum_ok("ghp_é"));
    }

    #[test]
    fn jwt_with_alg_none_is_not_a_secret() {
        // {"alg":"none"} . {"sub":"1"} . ""
        assert!(!jwt_structure_ok("eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0."));
        // {"alg":"HS256"} . {"sub":"1"} . sig
        assert!(jwt_structure_ok(
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"
        ));
        assert!(!jwt_structure_ok("eyJhbGciOiJIUzI1NiJ9.bm90anNvbg.c2ln"));
        assert!(!jwt_structure_ok("a.b"));
    }

    #[test]
    fn entropy_of_uniform_and_constant_strings() {
        assert!(shannon_entropy(b"aaaa").abs() < f64::EPSILON);
        assert!((shannon_entropy(b"abcd") - 2.0).abs() < 1e-9);
    }

    #[test]
    fn placeholder_keys_are_never_findings_at_the_filter_level() {
        for p in [
            "AKIAIOSFODNN7EXAMPLE",
            "sk-...",
            "xxxxxxxxxxxxxxxx",
            "<your-token>",
            "ghp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            "${DB_PASSWORD}",
            "password",
            "[REDACTED]",
        ] {
            assert!(is_placeholder(p.as_bytes()), "{p}");
        }
        assert!(!is_placeholder(b"q8Vn2LmZ4rT7wK1p"));
    }
}
