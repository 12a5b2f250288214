//! hookgate-shell (being written).
