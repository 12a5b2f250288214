//! Why a payload could not be read.

/// Why a hook payload could not be turned into a [`crate::Parsed`].
///
/// Every variant is a reason to apply the caller's fail mode, never to allow silently: a
/// payload hookgate cannot read is a payload it cannot vouch for. Messages are lowercase and
/// name the offending field, so they can go straight into the audit record.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ParseError {
    /// Nothing (or only whitespace) on stdin.
    #[error("payload is empty")]
    Empty,
    /// More bytes than [`crate::MAX_PAYLOAD_BYTES`]; refused before any parsing.
    #[error("payload is {size} bytes, over the {limit}-byte limit")]
    TooLarge {
        /// The payload's size.
        size: usize,
        /// The limit it exceeds.
        limit: usize,
    },
    /// The bytes are not UTF-8 (JSON must be).
    #[error("payload is not utf-8 (invalid byte at offset {valid_up_to})")]
    NotUtf8 {
        /// Length of the valid prefix.
        valid_up_to: usize,
    },
    /// The text is not JSON.
    #[error("payload is not json: {0}")]
    NotJson(#[source] serde_json::Error),
    /// The JSON is valid but not an object.
    #[error("payload is not a json object")]
    NotObject,
    /// No event name in the payload, and none could be inferred from its fields.
    #[error("payload names no hook event")]
    MissingEvent,
    /// An event name the detected dialect does not define (or hookgate does not map).
    #[error("unknown event `{0}`")]
    UnknownEvent(String),
    /// A field the event requires is absent.
    #[error("field `{0}` is missing")]
    MissingField(&'static str),
    /// A field has the wrong JSON type.
    #[error("field `{field}` must be {expected}")]
    WrongType {
        /// The field, as the agent spells it.
        field: &'static str,
        /// What was expected, in words.
        expected: &'static str,
    },
}
