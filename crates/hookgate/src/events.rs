//! `hookgate events`.

use std::fmt::Write as _;

use hookgate_core::alias::aliases_of;
use hookgate_core::{CATALOG, ContextUse, Contract, Rewrite};
use serde::Serialize;

use crate::{Failure, print, to_json};

#[derive(Serialize)]
struct EventView<'a> {
    name: &'static str,
    #[serde(flatten)]
    contract: &'a Contract,
    aliases: Vec<&'static hookgate_core::alias::Alias>,
}

fn rewrite(r: Rewrite) -> &'static str {
    match r {
        Rewrite::Nothing => "-",
        Rewrite::ToolInput => "tool input",
        Rewrite::ToolResponse => "tool response",
        Rewrite::Messages => "messages",
        Rewrite::Summary => "summary",
        Rewrite::Prompt => "prompt",
    }
}

fn context(c: ContextUse) -> &'static str {
    match c {
        ContextUse::None => "-",
        ContextUse::Transient => "transient",
        ContextUse::Persisted => "persisted",
        ContextUse::CompactionPrompt => "compaction prompt",
        ContextUse::User => "shown to user",
    }
}

pub(crate) fn run(json: bool) -> Result<u8, Failure> {
    if json {
        let views: Vec<EventView<'_>> = CATALOG
            .iter()
            .map(|c| EventView {
                name: c.event.name(),
                contract: c,
                aliases: aliases_of(c.event).collect(),
            })
            .collect();
        print(&to_json(&views)?)?;
        return Ok(0);
    }
    let yes = |b: bool| if b { "yes" } else { "-" };
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<30} {:<5} {:<5} {:<5} {:<6} {:<13} {:<17} {:<4}  aliases",
        "event", "tool", "block", "perm", "closed", "rewrite", "context", "meta"
    );
    for c in CATALOG {
        let aliases: Vec<String> = aliases_of(c.event)
            .map(|a| format!("{}:{}", a.vocabulary.as_str(), a.name))
            .collect();
        let _ = writeln!(
            s,
            "{:<30} {:<5} {:<5} {:<5} {:<6} {:<13} {:<17} {:<4}  {}",
            c.event.name(),
            yes(c.tool_matched),
            yes(c.can_block),
            yes(c.permission),
            yes(c.fail_closed),
            rewrite(c.rewrite),
            context(c.context),
            yes(c.metadata),
            aliases.join(" ")
        );
    }
    s.push_str("\ntool: matchers apply to the tool name; block: a deny is honoured; perm: allow/ask/deny\n");
    s.push_str("permission decisions; closed: a failing hook blocks; meta: metadata is merged.\n");
    print(&s)?;
    Ok(0)
}
