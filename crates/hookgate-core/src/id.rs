//! Typed identifiers.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The configured identity of one hook.
///
/// INVARIANT: a decision is always attributed to the id the *configuration* gave the hook, never
/// to an id a hook claims in its own output (a Meerkat response carries a `hook_id` that we
/// overwrite), so a hook cannot impersonate another in the audit trail.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct HookId(String);

impl HookId {
    /// Wraps a string as a hook id.
    pub fn new(id: impl Into<String>) -> Self {
        Self(id.into())
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for HookId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for HookId {
    fn from(value: &str) -> Self {
        Self::new(value)
    }
}

impl From<String> for HookId {
    fn from(value: String) -> Self {
        Self(value)
    }
}
