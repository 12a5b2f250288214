//! hookgate-secrets (being written).
