//! Fuzzes the hooks config loader on attacker-controlled text (a cloned repository's
//! `.hookgate/hooks.yaml`, `hooks.toml`, drop-ins): YAML and TOML, arbitrary bytes must never
//! panic, hang or exhaust memory; what loads must merge and build an engine or fail with an
//! error, never a panic.
#![no_main]

use hookgate_engine::Engine;
use hookgate_engine::config::{Format, Layer, merge, parse_text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((first, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let format = if first & 1 == 0 {
        Format::Yaml
    } else {
        Format::Toml
    };
    let Ok(layer) = parse_text(text, format, None, Layer::Project) else {
        return;
    };
    if let Ok(config) = merge(vec![layer]) {
        let _ = Engine::new(config);
    }
});
