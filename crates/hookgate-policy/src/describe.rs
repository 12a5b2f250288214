//! The effective policy in words (`hookgate policy check` prints it): the same keys a policy
//! file uses, values as a user would write them — never a Rust `Debug` spelling — and each rule
//! as one sentence saying when it applies and what it decides.
//!
//! A project's policy file comes with the repository: every value it supplies (rule ids,
//! patterns, reasons, branches, its own path) goes through `hookgate_core::term::escape`, so
//! `policy check` cannot be made to print an escape sequence or a fake line.

use std::fmt::Write as _;

use hookgate_core::term::escape;

use crate::policy::{Effect, Mode, Policy, Switch};

fn mode_word(mode: Mode) -> &'static str {
    match mode {
        Mode::Enforce => "enforce",
        Mode::Monitor => "monitor",
    }
}

fn switch_word(switch: Switch) -> &'static str {
    match switch {
        Switch::On => "on",
        Switch::Enforce => "enforce",
        Switch::Monitor => "monitor",
        Switch::Ask => "ask",
        Switch::Off => "off",
    }
}

fn effect_word(effect: Effect) -> &'static str {
    match effect {
        Effect::Allow => "allow",
        Effect::Approve => "approve",
        Effect::Ask => "ask",
        Effect::Deny => "deny",
    }
}

/// `[a, b]` — a list as a policy file writes it.
fn list<S: AsRef<str>>(items: &[S]) -> String {
    let items: Vec<String> = items
        .iter()
        .map(|s| escape(s.as_ref()).into_owned())
        .collect();
    format!("[{}]", items.join(", "))
}

/// `a`, or `a or b` — the alternatives of one condition.
fn either<S: AsRef<str>>(items: &[S]) -> String {
    let items: Vec<String> = items
        .iter()
        .map(|s| format!("`{}`", escape(s.as_ref())))
        .collect();
    items.join(" or ")
}

impl Policy {
    /// A stable, human-readable summary (`hookgate policy check` prints it; tests compare it):
    /// the mode, the settings, every invariant's switch and every rule in evaluation order.
    #[allow(
        clippy::redundant_closure_for_method_calls,
        reason = "closures keep this renderer independent of which module owns each pattern type"
    )]
    pub fn describe(&self) -> String {
        let mut out = String::new();
        let s = &self.settings;
        let _ = writeln!(out, "mode: {}", mode_word(self.mode));
        let _ = writeln!(out, "protected_branches: {}", list(&s.protected_branches));
        let _ = writeln!(
            out,
            "network_allowlist: {}",
            s.network_allowlist
                .as_deref()
                .map_or_else(|| "not set (hosts are not checked)".to_owned(), list)
        );
        let _ = writeln!(out, "large_write_bytes: {}", s.large_write_bytes);
        let _ = writeln!(out, "blast_radius_limit: {}", s.blast_radius_limit);
        let _ = writeln!(out, "session_blast_radius: {}", s.session_blast_radius);
        let _ = writeln!(out, "invariants:");
        for (id, switch) in self.invariant_switches() {
            let _ = writeln!(out, "  {id}: {}", switch_word(switch));
        }
        if self.analyzers.is_empty() {
            let _ = writeln!(out, "analyzers: every shell analyzer rule on");
        } else {
            let _ = writeln!(out, "analyzers (every other shell analyzer rule on):");
            for (id, switch) in self.analyzer_switches() {
                let _ = writeln!(out, "  {id}: {}", switch_word(switch));
            }
        }
        if self.rules.is_empty() {
            let _ = writeln!(out, "rules: none");
        } else {
            let _ = writeln!(out, "rules (in evaluation order):");
        }
        for r in &self.rules {
            let mut when = Vec::new();
            if !r.actions.is_empty() {
                let actions: Vec<String> = r.actions.iter().map(|a| a.text()).collect();
                when.push(format!("action is {}", either(&actions)));
            }
            if !r.tool_text.is_empty() {
                when.push(format!("tool is {}", either(&r.tool_text)));
            }
            if !r.commands.is_empty() {
                let commands: Vec<&str> = r.commands.iter().map(|c| c.as_str()).collect();
                when.push(format!("command matches {}", either(&commands)));
            }
            if !r.paths.is_empty() {
                let paths: Vec<&str> = r.paths.iter().map(|p| p.as_str()).collect();
                when.push(format!("a path matches {}", either(&paths)));
            }
            if !r.branches.is_empty() {
                when.push(format!("branch is {}", either(&r.branches)));
            }
            let when = if when.is_empty() {
                "every call".to_owned()
            } else {
                when.join(" and ")
            };
            let _ = write!(
                out,
                "  rule {}: {} when {when}",
                escape(&r.id),
                effect_word(r.effect)
            );
            if let Some(mode) = r.mode {
                let _ = write!(out, "; mode {}", mode_word(mode));
            }
            if !r.overrides.is_empty() {
                let _ = write!(out, "; overrides {}", r.overrides.join(", "));
            }
            if let Some(reason) = &r.reason {
                let _ = write!(out, "; reason: {}", escape(reason));
            }
            if !r.origin.is_empty() {
                let _ = write!(out, " ({})", escape(&r.origin));
            }
            out.push('\n');
        }
        out
    }
}
