//! The decision lattice.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A hook's verdict on the operation at hand.
///
/// The lattice is `deny > ask > allow`, with "no opinion" (`None` where a `Decision` is
/// optional) below all three. The ordering of the variants *is* the lattice: `Ord` is derived
/// so that `max` picks the most restrictive verdict. Do not reorder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// Approve without asking (advisory in the default chain mode).
    Allow,
    /// A human must decide.
    Ask,
    /// Block the operation.
    Deny,
}

impl Decision {
    /// The wire word for the decision.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Allow => "allow",
            Self::Ask => "ask",
            Self::Deny => "deny",
        }
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lattice_orders_deny_over_ask_over_allow_over_no_opinion() {
        assert!(Decision::Deny > Decision::Ask);
        assert!(Decision::Ask > Decision::Allow);
        assert!(Some(Decision::Allow) > None);
        assert_eq!(
            [Decision::Allow, Decision::Deny, Decision::Ask]
                .into_iter()
                .max(),
            Some(Decision::Deny)
        );
    }
}
