//! The hash of the taxonomy's program-name index, shared by `build.rs` (which lays the table
//! out) and `taxonomy.rs` (which probes it), so both always agree.
//!
//! Why a hash and not a search: every simple command looks its program up several times
//! (value options, rules, read-only patterns, long options), and binary searches over string
//! tables cost ~8 `memcmp` calls each (7 % of all instructions on the bench mix before). A
//! probe costs one hash of a short name and, almost always, one comparison.

/// FNV-1a (32 bit) of `bytes`: a few instructions per byte, well spread for short names.
pub(crate) fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5, |hash: u32, &b| {
        (hash ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}
