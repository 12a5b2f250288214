//! Canonical file paths and sensitive locations for security decisions.
//!
//! Every allow/deny decision about a path must compare *canonical* paths by *components*:
//! `/sandbox/../etc/passwd` is `/etc/passwd`, and `/sandboxed/x` is not inside `/sandbox`.
//! [`lexical`] is the pure part; [`resolve`] follows symlinks in the part of a path that exists;
//! [`catalog`] says which locations are sensitive (keys, credentials, `.env`, shell profiles,
//! system files, CI configs, and every coding agent's hook configuration, so an agent cannot
//! switch its own guard off), kept as data in `catalog/sensitive.toml`; [`regenerable`] says
//! which locations outside a project are caches and build output whose owner recreates them
//! (`catalog/regenerable.toml`).
//!
//! This crate never decides policy and never writes to the file system; the only I/O it does
//! is `lstat`/`readlink` on the path being judged (in [`resolve`], with its TOCTOU limits).

pub mod catalog;
pub mod glob;
pub mod lexical;
pub mod regenerable;
pub mod resolve;

pub use catalog::{
    Access, Anchor, Catalog, Category, PathContext, SensitiveMatch, classify, classify_subtree,
    classify_subtree_where, classify_where,
};
pub use glob::{
    Glob, GlobError, PathGlob, PatternReach, ShellPattern, has_wildcard, home_instance,
};
pub use lexical::{Normalized, is_within, normalize};
pub use regenerable::{RegenerableMatch, regenerable};
pub use resolve::{
    ResolveError, Resolved, classify_resolved, classify_resolved_with_path, resolve,
};
