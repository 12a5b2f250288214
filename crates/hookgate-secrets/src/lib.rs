//! Secret detection and redaction for hookgate.
//!
//! hookgate redacts secrets from tool inputs, tool outputs and audit records, and reports them
//! (`hookgate scan-secrets`). This crate is the detector: a rule set kept as data
//! (`rules/secrets.toml`, turned into statics at build time), an Aho-Corasick keyword prefilter,
//! and per-rule ASCII-mode regexes that are compiled lazily, the first time one of their
//! keywords is seen. Matches then pass placeholder, entropy and format validators (GitHub CRC32
//! checksum, JWT structure) before they become [`Finding`]s.
//!
//! What it must never do: perform I/O, panic on any input, report a documented placeholder
//! (`AKIAIOSFODNN7EXAMPLE`, `sk-...`, `<your-token>`, `xxxx`) as a secret, or produce output in
//! which [`scan`] still finds something: [`redact`] is idempotent and its `[REDACTED]` marker
//! never matches a rule.

mod engine;
mod redact;
mod rules;
mod validate;

pub use engine::{Finding, Scanner, scan};
pub use redact::{REDACTED, redact, redact_json};
pub use rules::{Family, RuleInfo, rules};
pub use validate::{github_checksum_ok, jwt_structure_ok, shannon_entropy};

#[cfg(test)]
mod tests;
