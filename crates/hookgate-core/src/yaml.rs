//! How hookgate reads YAML that a cloned repository may control (`.hookgate/hooks.yaml`,
//! `.hookgate/policy.yaml`, drop-ins): one budget and one error shape for every loader.
//!
//! Invariant protected: no YAML file can make a loader allocate or recurse without bound (no
//! billion laughs, no absurd depth or size), and every loader reports the same `line:column:
//! message`, so the config and the policy cannot drift apart on what they accept.

/// Parser options for untrusted YAML: duplicate keys are errors (a second key could hide the
/// first from a reviewer), and depth, aliases, anchors, nodes and scalar bytes are bounded.
pub fn untrusted_options() -> serde_saphyr::Options {
    let mut options = serde_saphyr::Options::default();
    options.with_snippet = false;
    options.duplicate_keys = serde_saphyr::DuplicateKeyPolicy::Error;
    let mut budget = serde_saphyr::Budget::default();
    budget.max_depth = 64;
    budget.max_aliases = 64;
    budget.max_anchors = 64;
    budget.max_nodes = 100_000;
    budget.max_total_scalar_bytes = 4 * 1024 * 1024;
    options.budget = Some(budget);
    options
}

/// A YAML error reduced to what a user needs: where (1-based, when known) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
    /// 1-based line.
    pub line: Option<u64>,
    /// 1-based column.
    pub column: Option<u64>,
    /// The message alone (the parser's trailing " at line L column C" removed).
    pub message: String,
}

impl From<&serde_saphyr::Error> for YamlError {
    fn from(err: &serde_saphyr::Error) -> Self {
        let rendered = err.to_string();
        let message = rendered
            .lines()
            .next()
            .unwrap_or("invalid YAML")
            .split(" at line ")
            .next()
            .unwrap_or("invalid YAML")
            .trim()
            .to_owned();
        let location = err.location();
        Self {
            line: location.map(|l| l.line()).filter(|l| *l > 0),
            column: location.map(|l| l.column()).filter(|c| *c > 0),
            message,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn untrusted_yaml_with_an_alias_bomb_is_refused_with_a_location() {
        let bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n";
        let err =
            serde_saphyr::from_str_with_options::<serde_json::Value>(bomb, untrusted_options())
                .unwrap_err();
        let e = YamlError::from(&err);
        assert!(
            !e.message.is_empty() && !e.message.contains(" at line "),
            "{e:?}"
        );
    }

    #[test]
    fn duplicate_keys_are_errors() {
        let err = serde_saphyr::from_str_with_options::<serde_json::Value>(
            "a: 1\na: 2\n",
            untrusted_options(),
        )
        .unwrap_err();
        assert_eq!(YamlError::from(&err).line, Some(2));
    }
}
