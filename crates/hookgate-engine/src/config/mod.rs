//! Configuration: two on-disk shapes (docker-agent YAML, Meerkat TOML), one model, layered.

pub mod expand;
pub mod load;
pub mod model;
mod raw;
mod shorthand;

pub use load::{
    ConfigError, ConfigLayer, ConfigNote, Discovery, Format, Loaded, Source, apply_overrides, load,
    load_with_notes, merge, merge_with_notes, parse_file, parse_text, user_config_dir,
};
pub use model::{HookEntry, HooksConfig, Layer, Origin, RunOverrides, RuntimeSpec, Settings};
pub use shorthand::{ADD_DATE_EVENTS, REDACT_SECRETS_EVENTS, SNAPSHOT_EVENTS};
