//! hookgate-audit (being written).
