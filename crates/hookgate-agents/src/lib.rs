//! hookgate-agents (being written).
