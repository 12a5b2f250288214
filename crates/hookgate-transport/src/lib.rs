//! hookgate-transport (being written).
