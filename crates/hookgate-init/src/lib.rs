//! hookgate-init (being written).
