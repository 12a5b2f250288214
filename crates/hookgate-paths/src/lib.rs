//! Canonical file paths for security decisions.
//!
//! Every allow/deny decision about a path must compare *canonical* paths by *components*:
//! `/sandbox/../etc/passwd` is `/etc/passwd`, and `/sandboxed/x` is not inside `/sandbox`.
//! This crate never decides policy and never writes to the file system; the only I/O it may
//! do is reading symlinks of the part of a path that exists (see [`lexical`] for the pure part).

pub mod lexical;

pub use lexical::{is_within, normalize, Normalized};
