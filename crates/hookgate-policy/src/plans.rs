//! Saved infrastructure plans: danger decided when the plan is made, carried out later.
//!
//! `terraform plan -destroy -out=tf.plan` only prints a plan (benign), and `terraform apply
//! tf.plan` applies whatever the plan file says without any `-destroy` on its own line: the
//! destroy was decided in the first call and runs in the second. Judged one call at a time
//! both pass. This module reads the plan-file shape of the tools that have one ([`PLANNERS`],
//! one table) so that
//!
//! - the session remembers the destroy plans it made ([`crate::SessionState::plans`],
//!   written by [`note_plans`]), and follows them through copies and moves;
//! - applying a plan file is judged by where the plan came from ([`saved_destroy`]): a
//!   destroy plan made earlier in the session, or earlier on the same line, is judged as the
//!   tool's `apply -destroy` (the shell analyzer's verdict and taxonomy id,
//!   `iac.apply_destroy`), never as a plain apply.
//!
//! Invariants: a record only ever says "this file holds a destroy plan"; it makes a later
//! apply stricter, never looser. A plan of unknown provenance keeps the default judgement of
//! `apply PLANFILE`. Any later write of the plan file by something else drops the record
//! (`SessionState::note_written`) — after which the file is a plan of unknown provenance
//! again — except a copy or move of a recorded plan, whose destination is recorded too.

use std::path::{Path, PathBuf};

/// A tool whose `plan` verb can save a plan that its `apply` verb carries out later.
struct Planner {
    /// Program names (`argv[0]`'s file name).
    names: &'static [&'static str],
    /// Options before the verb that take a value in the next word (`-chdir` is read apart:
    /// it moves where relative plan paths are).
    global_value: &'static [&'static str],
    /// Options of `plan`/`apply` that take a value in the next word when not given as
    /// `-opt=value` (Go's flag package: one or two dashes, `=` or the next word).
    verb_value: &'static [&'static str],
    /// Options that make the tool run elsewhere than the line says (terragrunt's working
    /// directory): a plan path cannot be placed, so nothing is recorded or matched.
    elsewhere: &'static [&'static str],
}

/// The tools with terraform's plan-file shape: `plan [-destroy] -out=FILE`, then `apply FILE`.
/// OpenTofu is terraform's fork (`tofu`), terragrunt passes both verbs through to it.
/// (Pulumi's `preview --save-plan` is experimental and has no destroy form; cdktf and
/// CloudFormation change sets are not plan files on disk.)
const PLANNERS: &[Planner] = &[
    Planner {
        names: &["terraform", "tofu", "opentofu"],
        global_value: &[],
        verb_value: &[
            "out",
            "var",
            "var-file",
            "target",
            "replace",
            "lock-timeout",
            "parallelism",
            "state",
            "state-out",
            "backup",
            "generate-config-out",
        ],
        elsewhere: &[],
    },
    Planner {
        names: &["terragrunt"],
        global_value: &[],
        verb_value: &[
            "out",
            "var",
            "var-file",
            "target",
            "replace",
            "lock-timeout",
            "parallelism",
            "state",
            "state-out",
            "backup",
            "generate-config-out",
            "terragrunt-config",
            "config",
            "terragrunt-iam-role",
            "iam-assume-role",
        ],
        elsewhere: &[
            "terragrunt-working-dir",
            "working-dir",
            "terragrunt-download-dir",
            "download-dir",
            "terragrunt-source",
            "source",
        ],
    },
];

/// What one command does with a plan file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PlanUse {
    /// `plan … -out=FILE`: FILE now holds a plan, a destroy plan when `destroy`.
    Saved { path: PathBuf, destroy: bool },
    /// `apply … FILE`: carries out the plan FILE holds.
    Applied { path: PathBuf },
}

/// An option word split as Go's flag package reads it: name without dashes, inline value.
fn flag(word: &str) -> Option<(&str, Option<&str>)> {
    let body = word.strip_prefix("--").or_else(|| word.strip_prefix('-'))?;
    if body.is_empty() {
        return None;
    }
    Some(
        body.split_once('=')
            .map_or((body, None), |(n, v)| (n, Some(v))),
    )
}

/// Whether a boolean flag's inline value turns it on (`-destroy`, `-destroy=true`).
fn on(value: Option<&str>) -> bool {
    value.is_none_or(|v| matches!(v, "true" | "1" | "t" | "T" | "TRUE" | "True"))
}

/// What `argv`, run in `dir`, does with a plan file (see [`PlanUse`]); `None` for anything
/// else, and for a line whose plan path cannot be placed.
pub(crate) fn plan_use(argv: &[String], dir: &Path, home: Option<&Path>) -> Option<PlanUse> {
    let prog = argv.first()?;
    let name = prog.rsplit('/').next().unwrap_or(prog);
    let planner = PLANNERS.iter().find(|p| p.names.contains(&name))?;
    let mut dir = dir.to_path_buf();
    let mut words = argv[1..].iter();
    // Global options, then the verb.
    let verb = loop {
        let w = words.next()?;
        let Some((name, value)) = flag(w) else {
            break w.as_str();
        };
        if name == "chdir" {
            let v = match value {
                Some(v) => v,
                None => words.next()?.as_str(),
            };
            dir = hookgate_paths::normalize(v, &dir, home).path;
        } else if planner.elsewhere.contains(&name) {
            return None;
        } else if value.is_none() && planner.global_value.contains(&name) {
            words.next()?;
        }
    };
    if !matches!(verb, "plan" | "apply") {
        return None;
    }
    let mut out: Option<&str> = None;
    let mut destroy = false;
    let mut operands: Vec<&str> = Vec::new();
    while let Some(w) = words.next() {
        if w == "--" {
            operands.extend(words.by_ref().map(String::as_str));
            break;
        }
        let Some((name, value)) = flag(w) else {
            operands.push(w);
            continue;
        };
        if planner.elsewhere.contains(&name) {
            return None;
        }
        let value = match value {
            None if planner.verb_value.contains(&name) => Some(words.next()?.as_str()),
            v => v,
        };
        match name {
            "out" => out = value,
            "destroy" => destroy = on(value),
            _ => {}
        }
    }
    let place = |p: &str| hookgate_paths::normalize(p, &dir, home).path;
    match verb {
        "plan" => out.filter(|o| !o.is_empty()).map(|o| PlanUse::Saved {
            path: place(o),
            destroy,
        }),
        // `apply -destroy FILE` is the analyzer's already; a second operand is not the shape.
        _ => match operands.as_slice() {
            [file] if !destroy => Some(PlanUse::Applied { path: place(file) }),
            _ => None,
        },
    }
}

/// The files this call copies or moves a recorded destroy plan to (`cp tf.plan keep.plan`,
/// `mv tf.plan p`): the content goes with it. Read before the call's writes are noted (a
/// move's source is written too, and that drops its record).
pub(crate) fn plan_copies(
    facts: &crate::action::Facts<'_>,
    state: &crate::SessionState,
) -> Vec<String> {
    use hookgate_core::PathOp;
    if state.destroy_plans.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for item in &facts.items {
        let from_plan = item
            .paths
            .iter()
            .filter(|p| matches!(p.op, PathOp::Read | PathOp::Move))
            .any(|p| state.destroy_plan(&p.path.to_string_lossy()));
        if from_plan {
            out.extend(
                item.paths
                    .iter()
                    .filter(|p| p.op == PathOp::Write)
                    .map(|p| p.path.to_string_lossy().into_owned()),
            );
        }
    }
    out
}

/// Records what this call does with plan files (see [`crate::SessionState::destroy_plans`]):
/// the copies [`plan_copies`] found, then the plans it saves. Called after the call's writes
/// were noted (which drop the record of every path written again), so a plan records itself
/// last. Called whatever the call's answer: a record only makes a later apply stricter.
pub(crate) fn note_plans(
    facts: &crate::action::Facts<'_>,
    home: Option<&Path>,
    copies: Vec<String>,
    state: &mut crate::SessionState,
) {
    for to in copies {
        state.note_plan(&to, true);
    }
    for i in 0..facts.items.len() {
        let (Some(argv), Some(dir)) = (facts.argv(i), facts.command_dir(i)) else {
            continue;
        };
        if let Some(PlanUse::Saved { path, destroy }) = plan_use(argv, dir, home) {
            state.note_plan(&path.to_string_lossy(), destroy);
        }
    }
}

/// The first apply of a destroy plan in the call: a plan file saved by a `plan -destroy` earlier
/// on the same line, or recorded in the session and not written since on this line by
/// anything else. Returns the applying command's index, its argv and the plan file.
pub(crate) fn saved_destroy<'f>(
    facts: &'f crate::action::Facts<'_>,
    home: Option<&Path>,
    state: &crate::SessionState,
    written_on_line: impl Fn(&Path) -> bool,
) -> Option<(usize, &'f [String], PathBuf)> {
    use hookgate_core::PathOp;
    // Plans saved on this line so far: path → destroy.
    let mut line: Vec<(PathBuf, bool)> = Vec::new();
    for i in 0..facts.actions.len() {
        // A copy or move of a destroy plan made on this line or recorded in the session
        // (`plan -destroy -out=a && cp a b && apply b`) is that plan: its writes are noted as
        // destroy plans of the line, as `plan_copies` notes them for later calls.
        if let Some(item) = facts.items.get(i) {
            let from_plan = item
                .paths
                .iter()
                .filter(|p| matches!(p.op, PathOp::Read | PathOp::Move))
                .any(|p| {
                    line.iter().any(|(l, d)| *d && *l == p.path)
                        || (state.destroy_plan(&p.path.to_string_lossy())
                            && !written_on_line(&p.path))
                });
            if from_plan {
                for p in item.paths.iter().filter(|p| p.op == PathOp::Write) {
                    line.retain(|(l, _)| *l != p.path);
                    line.push((p.path.clone(), true));
                }
            }
        }
        let (Some(argv), Some(dir)) = (facts.argv(i), facts.command_dir(i)) else {
            continue;
        };
        match plan_use(argv, dir, home) {
            Some(PlanUse::Saved { path, destroy }) => {
                line.retain(|(p, _)| *p != path);
                line.push((path, destroy));
            }
            Some(PlanUse::Applied { path }) => {
                let destroy = match line.iter().find(|(p, _)| *p == path) {
                    Some((_, d)) => *d,
                    None => state.destroy_plan(&path.to_string_lossy()) && !written_on_line(&path),
                };
                if destroy {
                    return Some((i, argv, path));
                }
            }
            None => {}
        }
    }
    None
}

/// `argv` (an `apply PLANFILE`) as the `apply -destroy` it carries out: `-destroy` inserted
/// after the verb, so the shell analyzer judges it by the destroy rule of its tool.
pub(crate) fn as_destroy(argv: &[String]) -> Vec<String> {
    let mut out = argv.to_vec();
    if let Some(at) = out.iter().position(|w| w == "apply") {
        out.insert(at + 1, "-destroy".to_owned());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|w| (*w).to_owned()).collect()
    }

    #[test]
    fn plan_files_are_read_in_terraforms_flag_shape() {
        let d = Path::new("/w");
        let saved = |p: &str, destroy| {
            Some(PlanUse::Saved {
                path: PathBuf::from(p),
                destroy,
            })
        };
        let cases: &[(&[&str], Option<PlanUse>)] = &[
            (
                &["terraform", "plan", "-destroy", "-out=tf.plan"],
                saved("/w/tf.plan", true),
            ),
            (
                &["tofu", "plan", "-out", "p", "--destroy"],
                saved("/w/p", true),
            ),
            (
                &["terraform", "-chdir=infra", "plan", "-destroy", "-out=p"],
                saved("/w/infra/p", true),
            ),
            (
                &["terraform", "plan", "-destroy=false", "-out=p"],
                saved("/w/p", false),
            ),
            (
                &["terraform", "plan", "-var", "x=1", "-out=p"],
                saved("/w/p", false),
            ),
            (&["terraform", "plan", "-destroy"], None),
            (
                &["terraform", "apply", "tf.plan"],
                Some(PlanUse::Applied {
                    path: PathBuf::from("/w/tf.plan"),
                }),
            ),
            (
                &["/usr/bin/terragrunt", "apply", "-auto-approve", "p"],
                Some(PlanUse::Applied {
                    path: PathBuf::from("/w/p"),
                }),
            ),
            (
                &["terragrunt", "--terragrunt-working-dir", "x", "apply", "p"],
                None,
            ),
            (&["terraform", "apply"], None),
            (&["terraform", "apply", "-destroy", "p"], None),
            (&["terraform", "show", "p"], None),
        ];
        for (argv, want) in cases {
            assert_eq!(plan_use(&s(argv), d, None), *want, "{argv:?}");
        }
    }

    #[test]
    fn an_applied_plan_becomes_the_destroy_it_carries_out() {
        assert_eq!(
            as_destroy(&s(&["terraform", "-chdir=x", "apply", "p"])),
            s(&["terraform", "-chdir=x", "apply", "-destroy", "p"])
        );
    }
}
