//! hookgate-policy (being written).
