//! The abstract shell state carried through a command line: variables assigned on the line,
//! positional parameters, the directory stack, aliases and functions — what lets
//! `d=.claude; rm -rf "$d"`, `for d in .claude .codex; do …`, `f(){ rm -rf "$1"; }; f .claude`
//! and `cd && rm .claude.json` be judged on the paths they really touch.
//!
//! Invariant (soundness): a value is `Known` only when every path through the line that
//! reaches the use assigns that same literal value. Whatever the analysis cannot follow —
//! input (`read`), substitutions, a branch or loop that may or may not assign, a sourced file,
//! a name reference — makes the value `Unknown`, which the judges treat as unresolved (ask),
//! never as a literal. A variable the line never assigns comes from the environment and is
//! unknown too (except `HOME`, `PWD`, `TMPDIR` and `OLDPWD`, which the context and the `cd`
//! tracking know).

use std::path::PathBuf;
use std::rc::Rc;

use crate::model::WorkDir;
use crate::targets::Cwd;
use crate::walk::{Scope, Word};

/// What the analysis knows about a variable's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Val {
    /// Every path to this point assigned this literal value (`unset` is the empty string).
    Known(String),
    /// Only known at run time.
    Unknown,
    /// Several paths: the files a search selects below a root (`find ROOT … -exec sh -c
    /// '…$1…' _ {} \;`, `find ROOT | xargs sh -c '…' _`; shape `Descendants`) or a glob's
    /// matches (`sh -c '…$1…' _ *.py`; shape `Glob`). Not one literal value (`known` is
    /// `None`), but a word of that shape where it is expanded, judged like `find`'s own `{}`
    /// or the glob written in its place.
    Found(String, crate::walk::WordShape),
    /// This literal or the empty string: paths that assigned it and paths where the producer
    /// of `x=$(P)` failed before printing (`tmp=$(mktemp) && …; rm -f "$tmp"` after the
    /// failure of `mktemp`). Not a known value (`known` is `None`); only a word that is this
    /// expansion alone resolves to it (an empty argument names nothing), while `"$x"/*` or a
    /// directory (`cd ""`, `git -C ""` stay where they are) stays unresolved.
    OrEmpty(String),
    /// An indexed array assigned literal elements (`files=(~/.ssh/id_ed25519 .env)`): each
    /// element known, so `"${files[@]}"` is these words and `${files[1]}` one of them, as
    /// bash expands them. `$files` alone is element 0, left unresolved here (rarely meant).
    Array(Vec<String>),
}

impl Val {
    pub(crate) fn known(&self) -> Option<&str> {
        match self {
            Self::Known(s) => Some(s),
            Self::Unknown | Self::Found(..) | Self::OrEmpty(_) | Self::Array(_) => None,
        }
    }

    /// The elements of an array whose elements are all known.
    pub(crate) fn elements(&self) -> Option<&[String]> {
        match self {
            Self::Array(e) => Some(e),
            Self::Known(_) | Self::Unknown | Self::Found(..) | Self::OrEmpty(_) => None,
        }
    }

    /// `a ⊔ b` of two different values: a literal and the empty string (or a literal that may
    /// be empty) stay [`Self::OrEmpty`]; anything else is unknown.
    fn either(a: &Self, b: &Self) -> Self {
        match (a, b) {
            (Self::Known(e), Self::Known(p) | Self::OrEmpty(p))
            | (Self::Known(p) | Self::OrEmpty(p), Self::Known(e))
                if e.is_empty() && !p.is_empty() =>
            {
                Self::OrEmpty(p.clone())
            }
            (Self::Known(p), Self::OrEmpty(q)) | (Self::OrEmpty(q), Self::Known(p)) if p == q => {
                Self::OrEmpty(p.clone())
            }
            _ => Self::Unknown,
        }
    }

    /// The word this value stands for when it is several paths ([`Self::Found`]).
    pub(crate) fn found(&self) -> Option<crate::walk::Word> {
        match self {
            Self::Found(text, shape) => Some(crate::walk::Word::paths(text, *shape)),
            Self::Known(_) | Self::Unknown | Self::OrEmpty(_) | Self::Array(_) => None,
        }
    }

    /// A resolved word's value: known only when the word is exact and stands for itself (a
    /// glob or `find`'s `{}` stands for paths not known here).
    pub(crate) fn of(word: &Word) -> Self {
        match word.shape {
            _ if !word.exact => Self::Unknown,
            crate::walk::WordShape::Exact => Self::Known(word.text.clone()),
            shape => Self::Found(word.text.clone(), shape),
        }
    }
}

/// One variable assigned on the line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Var {
    pub name: String,
    pub value: Val,
    /// Child processes (`bash -c`, interpreters) see it.
    pub exported: bool,
    /// The assignment generation that last set it (see [`Shell::generation`]).
    pub stamp: u64,
}

/// A function defined on the line: its body is analysed again at every call with the call's
/// arguments (bash functions see the caller's variables and directory).
#[derive(Debug, Clone)]
pub(crate) struct Function {
    pub name: String,
    /// Source of the body (`{ …; }`), parsed again at each call.
    pub body: Rc<str>,
    /// Index of the walker's pending analysis of the body with unknown arguments.
    pub id: usize,
    /// `export -f`: child bash processes see it.
    pub exported: bool,
    /// The body contains `return`/`exit`/`break`/`continue`.
    pub jumps: bool,
}

/// The variable-like state of one shell process at one point of the line.
#[derive(Debug, Clone)]
pub(crate) struct Shell {
    vars: Vec<Var>,
    /// Every variable not assigned since is unknown (after `declare -n`, `source` of a file
    /// the analysis cannot see, `eval` of text built at run time).
    opaque: bool,
    /// `$1…`; `None` when not even their number is known (the top level of the line).
    pub params: Option<Vec<Val>>,
    /// `$0`.
    pub zero: Val,
    /// The directory before the last `cd` (`cd -`, `~-`, `$OLDPWD`).
    pub oldpwd: Cwd,
    /// `pushd`'s stack below the current directory, top first; `None` when unknown.
    pub dirs: Option<Vec<Cwd>>,
    /// `alias name=body` definitions, newest last.
    pub aliases: Vec<(String, Word)>,
    /// Function definitions, newest last.
    pub functions: Vec<Function>,
    /// `set -a`: every assignment is exported.
    pub allexport: bool,
    /// `local`/`declare` inside a function call: the caller's value to restore, per call.
    pub frames: Vec<Vec<(String, Option<Var>)>>,
    /// Bumped by every assignment and directory change; a region of the line assigned
    /// exactly the variables whose `stamp` is above the value at its start.
    generation: u64,
    /// Generation of the last directory change.
    pub cwd_gen: u64,
    /// Generation of the last change to the parameters, the directory stack or `set -a`.
    other_stamp: u64,
}

/// Names whose value the context supplies; never made unknown wholesale.
const CONTEXT_VARIABLES: &[&str] = &["HOME", "PWD", "TMPDIR", "OLDPWD"];

impl Shell {
    pub(crate) fn new() -> Self {
        Self {
            vars: Vec::new(),
            opaque: false,
            params: None,
            zero: Val::Unknown,
            oldpwd: Cwd::Unknown,
            dirs: Some(Vec::new()),
            aliases: Vec::new(),
            functions: Vec::new(),
            allexport: false,
            frames: Vec::new(),
            generation: 0,
            cwd_gen: 0,
            other_stamp: 0,
        }
    }

    /// What the line assigned to `name`: `None` when it never did (the environment's value).
    pub(crate) fn get(&self, name: &str) -> Option<&Val> {
        match self.vars.iter().find(|v| v.name == name) {
            Some(v) => Some(&v.value),
            None if self.opaque && !CONTEXT_VARIABLES.contains(&name) => Some(&Val::Unknown),
            None => None,
        }
    }

    /// Assigns `name`. `export`: `Some(true)` exports it, `Some(false)` un-exports it, `None`
    /// keeps its flag (`set -a` exports every assignment).
    pub(crate) fn set(&mut self, name: &str, value: Val, export: Option<bool>) {
        self.generation += 1;
        let stamp = self.generation;
        let allexport = self.allexport;
        match self.vars.iter_mut().find(|v| v.name == name) {
            Some(v) => {
                v.value = value;
                v.stamp = stamp;
                v.exported = export.unwrap_or(v.exported || allexport);
            }
            None => self.vars.push(Var {
                name: name.to_owned(),
                value,
                exported: export.unwrap_or(allexport),
                stamp,
            }),
        }
    }

    /// Some variable holds `text` or the empty string ([`Val::OrEmpty`]): a directory named by
    /// such a word is not known (`cd ""` stays, `cd $x` goes home).
    pub(crate) fn may_be_empty(&self, text: &str) -> bool {
        self.vars
            .iter()
            .any(|v| matches!(&v.value, Val::OrEmpty(p) if p == text))
    }

    /// Marks `name` exported without changing its value.
    pub(crate) fn export(&mut self, name: &str) {
        self.generation += 1;
        let stamp = self.generation;
        if let Some(v) = self.vars.iter_mut().find(|v| v.name == name) {
            v.exported = true;
            v.stamp = stamp;
        }
    }

    /// Records a change to the parameters, the directory stack or `set -a` (see
    /// `Scope::forget_since`).
    pub(crate) fn touch(&mut self) {
        self.generation += 1;
        self.other_stamp = self.generation;
    }

    /// `local name`: remembers the caller's value, restored when the call returns.
    pub(crate) fn make_local(&mut self, name: &str) {
        let saved = self.vars.iter().find(|v| v.name == name).cloned();
        if let Some(frame) = self.frames.last_mut()
            && !frame.iter().any(|(n, _)| n == name)
        {
            frame.push((name.to_owned(), saved));
        }
    }

    /// Returns from a function call: its `local` variables get the caller's values back.
    pub(crate) fn pop_frame(&mut self) {
        let Some(frame) = self.frames.pop() else {
            return;
        };
        self.generation += 1;
        for (name, saved) in frame.into_iter().rev() {
            self.vars.retain(|v| v.name != name);
            if let Some(v) = saved {
                self.vars.push(v);
            }
        }
    }

    /// Something the analysis cannot see may have assigned any variable.
    pub(crate) fn poison(&mut self) {
        self.generation += 1;
        let stamp = self.generation;
        for v in &mut self.vars {
            if !CONTEXT_VARIABLES.contains(&v.name.as_str()) {
                v.value = Val::Unknown;
                v.stamp = stamp;
            }
        }
        self.opaque = true;
    }

    /// The current generation (see [`Self::assigned_since`]).
    pub(crate) fn generation(&self) -> u64 {
        self.generation
    }

    /// Names assigned since generation `mark`.
    pub(crate) fn assigned_since(&self, mark: u64) -> Vec<String> {
        self.vars
            .iter()
            .filter(|v| v.stamp > mark)
            .map(|v| v.name.clone())
            .collect()
    }

    /// Makes every name in `names` unknown (a loop or a jump may or may not have run the
    /// assignment).
    pub(crate) fn forget(&mut self, names: &[String]) {
        for name in names {
            self.generation += 1;
            let stamp = self.generation;
            match self.vars.iter_mut().find(|v| &v.name == name) {
                Some(v) => {
                    v.value = Val::Unknown;
                    v.stamp = stamp;
                }
                None => self.set(name, Val::Unknown, None),
            }
        }
    }

    /// The variable as it is now (to put back with [`Self::restore`]).
    pub(crate) fn snapshot(&self, name: &str) -> Option<Var> {
        self.vars.iter().find(|v| v.name == name).cloned()
    }

    /// Puts back what [`Self::snapshot`] saw (`None`: the line had not assigned it).
    pub(crate) fn restore(&mut self, name: &str, var: Option<Var>) {
        self.generation += 1;
        self.vars.retain(|v| v.name != name);
        if let Some(v) = var {
            self.vars.push(v);
        }
    }

    /// Records a directory change (for [`Self::assigned_since`]-style checks on `cwd`).
    pub(crate) fn moved(&mut self) {
        self.generation += 1;
        self.cwd_gen = self.generation;
    }

    /// The state a child process (`bash -c`, a pipe into `sh`) starts with: exported
    /// variables keep their values; others may still be in the environment (an exported
    /// variable reassigned keeps its export), so they are unknown; aliases and non-exported
    /// functions are not inherited.
    pub(crate) fn child(&self) -> Self {
        Self {
            vars: self
                .vars
                .iter()
                .map(|v| Var {
                    value: if v.exported {
                        v.value.clone()
                    } else {
                        Val::Unknown
                    },
                    ..v.clone()
                })
                .collect(),
            opaque: self.opaque,
            params: Some(Vec::new()),
            zero: Val::Unknown,
            oldpwd: Cwd::Unknown,
            dirs: Some(Vec::new()),
            aliases: Vec::new(),
            functions: self
                .functions
                .iter()
                .filter(|f| f.exported)
                .cloned()
                .collect(),
            allexport: false,
            frames: Vec::new(),
            generation: self.generation,
            cwd_gen: self.cwd_gen,
            other_stamp: self.other_stamp,
        }
    }

    /// The state after one of two paths ran: values both agree on stay, others are unknown;
    /// aliases and functions of either path may be defined.
    pub(crate) fn join(&mut self, other: &Self) {
        for v in &mut self.vars {
            let theirs = other.vars.iter().find(|o| o.name == v.name);
            match theirs {
                Some(o) => {
                    if o.value != v.value {
                        v.value = Val::either(&v.value, &o.value);
                    }
                    // A child sees the value only if both paths exported it.
                    v.exported &= o.exported;
                    v.stamp = v.stamp.max(o.stamp);
                }
                None => v.value = Val::Unknown,
            }
        }
        for o in &other.vars {
            if !self.vars.iter().any(|v| v.name == o.name) {
                self.vars.push(Var {
                    value: Val::Unknown,
                    ..o.clone()
                });
            }
        }
        self.opaque |= other.opaque;
        if self.params != other.params {
            self.params = None;
        }
        if self.zero != other.zero {
            self.zero = Val::Unknown;
        }
        if !same_dir(&self.oldpwd, &other.oldpwd) {
            self.oldpwd = Cwd::Unknown;
        }
        if self.dirs != other.dirs {
            self.dirs = None;
        }
        for a in &other.aliases {
            if !self.aliases.contains(a) {
                self.aliases.push(a.clone());
            }
        }
        for f in &other.functions {
            if !self.functions.iter().any(|g| g.id == f.id) {
                self.functions.push(f.clone());
            }
        }
        self.allexport &= other.allexport;
        for (mine, theirs) in self.frames.iter_mut().zip(&other.frames) {
            for entry in theirs {
                if !mine.iter().any(|(n, _)| *n == entry.0) {
                    mine.push(entry.clone());
                }
            }
        }
        self.generation = self.generation.max(other.generation);
        self.cwd_gen = self.cwd_gen.max(other.cwd_gen);
        self.other_stamp = self.other_stamp.max(other.other_stamp);
    }
}

impl Scope {
    /// The working directory for [`crate::model::ExecutedCommand::cwd`] (no allocation
    /// while the line has not moved).
    pub(crate) fn cwd_path(&self) -> WorkDir {
        match &self.cwd {
            Cwd::Known(_) if !self.moved => WorkDir::Call,
            Cwd::Known(p) => WorkDir::Moved(p.clone()),
            Cwd::Unknown => self
                .cwd_candidates()
                .map_or(WorkDir::Unknown, |dirs| WorkDir::Either(dirs.to_vec())),
        }
    }

    /// The directories an unknown `cwd` is one of (see [`Scope::either`]): `None` when the
    /// directory is known, unknown for another reason, or on another machine.
    pub(crate) fn cwd_candidates(&self) -> Option<&[PathBuf]> {
        match (&self.cwd, &self.either) {
            (Cwd::Unknown, Some(dirs)) if !self.remote => Some(dirs),
            _ => None,
        }
    }

    /// Changes directory (`cd`, `pushd`, `popd`): the old one becomes `OLDPWD`.
    pub(crate) fn chdir(&mut self, to: Cwd) {
        self.either = None;
        self.sh.oldpwd = std::mem::replace(&mut self.cwd, to);
        self.moved = true;
        self.sh.moved();
    }

    /// Sets the directory a wrapped command runs in (`env -C`, `uv run --directory`).
    pub(crate) fn set_cwd(&mut self, to: Cwd) {
        self.either = None;
        self.cwd = to;
        self.moved = true;
    }

    /// A cheap fingerprint of what the analysis knows: unchanged while nothing on the line
    /// assigned a variable, moved, or changed the parameters or directory stack.
    pub(crate) fn stamp(&self) -> u64 {
        self.sh.generation()
    }

    /// What is known whatever happened since `stamp` (the join of the state at `stamp` and
    /// now, without the earlier state): everything changed since is unknown.
    pub(crate) fn forget_since(&mut self, stamp: u64) {
        self.forget_since_but(stamp, None);
    }

    /// [`Self::forget_since`] for every name but `kept`, whose value the caller sets itself
    /// (the empty value a failed `x=$(mktemp)` leaves). Forgetting it first would bump its
    /// stamp twice on this path, and a `trap` set on the success path after the assignment
    /// would read that as a change made after it (`Walker::run_exit_traps`).
    pub(crate) fn forget_since_but(&mut self, stamp: u64, kept: Option<&str>) {
        let mut names = self.sh.assigned_since(stamp);
        names.retain(|n| Some(n.as_str()) != kept);
        self.sh.forget(&names);
        if self.sh.cwd_gen > stamp {
            self.cwd = Cwd::Unknown;
            self.either = None;
            self.sh.oldpwd = Cwd::Unknown;
        }
        if self.sh.other_stamp > stamp {
            self.sh.params = None;
            self.sh.dirs = None;
            self.sh.allexport = false;
        }
    }

    /// `self` becomes the state after either `self`'s path or `other`'s ran.
    pub(crate) fn join(&mut self, other: &Self) {
        if !same_dir(&self.cwd, &other.cwd) || self.either != other.either {
            // Two known directories (or sets of them) stay a set of candidates, each judged
            // (`mkdir -p D && cd D` then a newline); an unknown one makes the set unknown.
            let mine = self.dirs_or_candidates();
            let theirs = other.dirs_or_candidates();
            self.either = match (mine, theirs) {
                (Some(mut a), Some(b)) => {
                    for d in b {
                        if !a.contains(&d) {
                            a.push(d);
                        }
                    }
                    (a.len() <= MAX_CWD_CANDIDATES).then(|| a.into_boxed_slice())
                }
                _ => None,
            };
            self.cwd = Cwd::Unknown;
        }
        self.moved |= other.moved;
        self.sh.join(&other.sh);
        for s in &other.secret_vars {
            if !self.secret_vars.contains(s) {
                self.secret_vars.push(s.clone());
            }
        }
    }

    /// The directory as a list of the candidates it may be: one when known, the set when
    /// joined from known ones, `None` when unknown.
    fn dirs_or_candidates(&self) -> Option<Vec<PathBuf>> {
        match &self.cwd {
            Cwd::Known(p) => Some(vec![p.clone()]),
            Cwd::Unknown => self.either.as_ref().map(|d| d.to_vec()),
        }
    }

    /// The scope a child shell process starts in (see [`Shell::child`]).
    pub(crate) fn child(&self) -> Self {
        Self {
            cwd: self.cwd.clone(),
            moved: self.moved,
            via: self.via.clone(),
            remote: self.remote,
            local_container: self.local_container,
            secret_vars: self.secret_vars.clone(),
            either: self.either.clone(),
            sh: self.sh.child(),
        }
    }
}

/// How many directories a joined `cwd` keeps as candidates before it is simply unknown (each
/// relative write is judged once per candidate).
const MAX_CWD_CANDIDATES: usize = 4;

/// Directories compared by their bytes (cheaper than by component; a spelling difference only
/// makes the join unknown, the sound side).
pub(crate) fn same_dir(a: &Cwd, b: &Cwd) -> bool {
    match (a, b) {
        (Cwd::Known(x), Cwd::Known(y)) => x.as_os_str() == y.as_os_str(),
        (Cwd::Unknown, Cwd::Unknown) => true,
        _ => false,
    }
}

/// `Some(a ⊔ b)`, where `None` is a path that never gets here (`exit`).
pub(crate) fn join_opt(a: Option<Scope>, b: Option<&Scope>) -> Option<Scope> {
    match (a, b) {
        (Some(mut a), Some(b)) => {
            a.join(b);
            Some(a)
        }
        (Some(a), None) => Some(a),
        (None, Some(b)) => Some(b.clone()),
        (None, None) => None,
    }
}
