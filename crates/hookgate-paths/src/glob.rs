//! hookgate's one glob engine: every path pattern — the sensitive-location catalog and the
//! `paths:` of policy rules — is compiled and matched here, so a pattern means the same thing
//! wherever it is written.
//!
//! **The rule** (documented in the README, "Path globs"):
//! * Matching is on path *components* of a normalised path (`.`/`..` folded first, so
//!   `src/../.env` is judged as `.env`); never on a string, so `/etcx` is not `/etc`.
//! * `*` and `?` stay inside one component (`?` is one character); `**` is any number of whole
//!   components, zero included, and must be a component of its own (`a/**/b`, never `a**`).
//! * `[abc]`, `[a-z]`, `[!a-z]` (or `[^a-z]`) are character classes; an unclosed `[` is an error.
//! * `{a,b}` alternates, nested, at most [`MAX_ALTERNATIVES`] alternatives per pattern; an
//!   unclosed `{` is an error; `,` outside braces and a lone `}` are literal.
//! * **ASCII case-insensitive**, always: macOS and Windows file systems are case-insensitive,
//!   so a deny of `.env` must also catch `.ENV` (the same file there); on a case-sensitive
//!   system this makes an allow slightly wider, never a deny narrower. Non-ASCII letters are
//!   compared exactly.
//! * `..` is not allowed in a pattern (a glob can never reach out of its anchor).
//! * Anchoring ([`PathGlob`], policy rules): a leading `/` is the file-system root, a leading
//!   `~/` the home directory, anything else the workspace (project root); a pattern without any
//!   `/` matches a name at any depth below the workspace (`*.pem`, as in `.gitignore`); a
//!   trailing `/` is the directory and everything below it. The catalog names its anchor per
//!   entry and uses [`Glob`], the same matcher without the anchoring.
//!
//! Hand-written rather than `globset` because the catalog also needs
//! [`Glob::contains_match_below`] (does a directory hold something a pattern names?), which a
//! string matcher cannot answer, and because it must be cheap to build in a per-call process.
//! Matching is iterative with one backtrack point per `*`/`**`, so a hostile pattern costs
//! O(n·m), never exponential.

use std::path::{Component, Path, PathBuf};

/// Most alternatives one pattern's braces may expand to (`{a,b}{c,d}…` grows multiplicatively).
pub const MAX_ALTERNATIVES: usize = 256;

/// Why a pattern was refused. A policy file with such a pattern fails to load (the guard then
/// takes its fail mode); nothing is silently matched differently from what was written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GlobError {
    /// The pattern is empty.
    #[error("an empty path glob")]
    Empty,
    /// A `{` without its `}`.
    #[error("`{0}`: unclosed `{{`")]
    UnclosedBrace(String),
    /// A `[` without its `]`.
    #[error("`{0}`: unclosed `[` character class")]
    UnclosedClass(String),
    /// `**` glued to other characters.
    #[error("`{0}`: `**` must be a whole path component (`a/**/b`)")]
    PartialDoubleStar(String),
    /// A `..` component.
    #[error("`{0}`: `..` is not allowed in a path glob")]
    ParentComponent(String),
    /// The braces expand to too many alternatives.
    #[error("`{0}`: more than {MAX_ALTERNATIVES} brace alternatives")]
    TooManyAlternatives(String),
}

/// One token of a component pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    /// One byte, ASCII-lowercased.
    Byte(u8),
    /// `?`: one character.
    One,
    /// `*`: any run of characters inside the component.
    Star,
    /// `[…]`: one character in (or, negated, not in) the ranges.
    Class {
        negate: bool,
        ranges: Vec<(char, char)>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    /// `**`: zero or more whole components.
    Any,
    /// One component.
    Component(Vec<Token>),
}

/// One brace-free alternative, split into segments.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Segments(Vec<Segment>);

/// A compiled, unanchored component glob (all its brace alternatives): matched against the
/// components of a path *relative to* an anchor the caller chose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Glob {
    alternatives: Vec<Segments>,
    /// When every alternative ends in a literal byte (`**/{id_rsa,*.pem,.env}`): those bytes,
    /// ASCII-lowercased, as a bit set. A path whose last byte is not in it cannot match, which
    /// rules out most catalog patterns for a path with one test instead of one per alternative.
    last_bytes: Option<[u64; 4]>,
    /// The same for the first byte, when every alternative starts with a component whose first
    /// token is a literal byte (`.ssh/{id_*,*_rsa,…}`): a path whose first component does not
    /// start with one cannot match. The catalog's home entries are matched against every path
    /// below home, and their `*`-led last components cost far more to reject one by one.
    first_bytes: Option<[u64; 4]>,
    /// One literal first byte per alternative, of a named component it must match somewhere
    /// (`**/.git/{hooks/**,config}` needs a component starting with `.`), when every
    /// alternative has such a component: a path none of whose components starts with one of
    /// these bytes cannot match ([`Glob::may_match_firsts`]). The catalog's `**/…` entries
    /// are matched against every path judged, and most paths share no such byte with them.
    required_bytes: Option<[u64; 4]>,
}

impl Glob {
    /// Compiles `pattern` by the module's rule (leading and trailing `/` are ignored: the
    /// caller anchors).
    pub fn compile(pattern: &str) -> Result<Self, GlobError> {
        let trimmed = pattern.trim();
        if trimmed.is_empty() {
            return Err(GlobError::Empty);
        }
        let alternatives = expand_braces(trimmed)?
            .iter()
            .map(|alt| compile_segments(trimmed, alt))
            .collect::<Result<Vec<_>, _>>()?;
        let last_bytes = last_byte_set(&alternatives);
        let first_bytes = first_byte_set(&alternatives);
        let required_bytes = required_byte_set(&alternatives);
        Ok(Self {
            alternatives,
            last_bytes,
            first_bytes,
            required_bytes,
        })
    }

    /// True when `components` (relative to the anchor) match the whole pattern.
    pub fn matches<C: AsRef<[u8]>>(&self, components: &[C]) -> bool {
        if let Some(set) = &self.last_bytes {
            let last = components.last().and_then(|c| c.as_ref().last().copied());
            if !last.is_some_and(|b| in_set(set, b.to_ascii_lowercase())) {
                return false;
            }
        }
        if let Some(set) = &self.first_bytes {
            let first = components.first().and_then(|c| c.as_ref().first().copied());
            if !first.is_some_and(|b| in_set(set, b.to_ascii_lowercase())) {
                return false;
            }
        }
        self.alternatives
            .iter()
            .any(|alt| last_may_match(&alt.0, components) && match_segments(&alt.0, components))
    }

    /// A necessary condition for [`Glob::matches`] on any run of components drawn from a
    /// path whose [`component_firsts`] are `firsts`: false only when no alternative can match
    /// there (each needs a component starting with a byte the path's components lack). One
    /// set test per pattern, with the path's set computed once for the whole catalog.
    pub fn may_match_firsts(&self, firsts: &[u64; 4]) -> bool {
        self.required_bytes
            .is_none_or(|req| req.iter().zip(firsts).any(|(r, f)| r & f != 0))
    }

    /// True when `components` name a location *at or above* something this pattern matches,
    /// judged by the pattern's own words: some extension of `components` matches, and the
    /// components got there by matching at least one named segment (not only `**`). Empty
    /// components (the anchor itself, or a directory above it) count when the pattern starts
    /// with a named segment, i.e. names a definite place under the anchor.
    ///
    /// Why the named-segment condition: `**/.claude/settings.json` can in principle lie below
    /// any directory, so "could contain" without it would make every directory protected;
    /// `work/proj/.claude` *names* the protected directory and is caught.
    pub fn contains_match_below<C: AsRef<[u8]>>(&self, components: &[C]) -> bool {
        self.alternatives.iter().any(|alt| {
            if components.is_empty() {
                matches!(alt.0.first(), Some(Segment::Component(_)))
            } else {
                below_segments(&alt.0, components, false)
            }
        })
    }
}

/// Where a [`PathGlob`] alternative is rooted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Root {
    Workspace,
    Home,
    Absolute,
}

/// A compiled, anchored path glob (policy rules' `paths:`): see the module's rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathGlob {
    text: String,
    alternatives: Vec<(Root, Segments)>,
}

impl PathGlob {
    /// Compiles `text`; each brace alternative is anchored on its own
    /// (`{~/.ssh,/etc/ssh}/**` is one home and one absolute alternative).
    pub fn compile(text: &str) -> Result<Self, GlobError> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(GlobError::Empty);
        }
        let mut alternatives = Vec::new();
        for alt in expand_braces(trimmed)? {
            let (root, rest) = if alt == "~" {
                (Root::Home, "**".to_owned())
            } else if let Some(rest) = alt.strip_prefix("~/") {
                (Root::Home, rest.to_owned())
            } else if let Some(rest) = alt.strip_prefix('/') {
                (Root::Absolute, rest.to_owned())
            } else if !alt.trim_end_matches('/').contains('/') {
                (Root::Workspace, format!("**/{alt}"))
            } else {
                (Root::Workspace, alt.clone())
            };
            let rest = if rest.ends_with('/') {
                format!("{rest}**")
            } else {
                rest
            };
            alternatives.push((root, compile_segments(trimmed, &rest)?));
        }
        Ok(Self {
            text: trimmed.to_owned(),
            alternatives,
        })
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether an absolute, normalised path matches; `home` unknown means no `~/` alternative
    /// matches.
    pub fn matches(&self, path: &Path, workspace: &Path, home: Option<&Path>) -> bool {
        self.alternatives.iter().any(|(root, segs)| {
            let base = match root {
                Root::Absolute => Some(Path::new("/")),
                Root::Workspace => Some(workspace),
                Root::Home => home,
            };
            base.and_then(|b| path.strip_prefix(b).ok())
                .is_some_and(|rel| match_segments(&segs.0, &components(rel)))
        })
    }
}

/// The `Normal` components of a path as bytes (`/`, `.` and prefixes dropped).
pub fn components(path: &Path) -> Vec<&[u8]> {
    // On Unix the normal components are the `/`-separated segments other than empty ones,
    // `.` and `..` (what `Path::components` yields as `Normal`), split here without its
    // component walk: the catalog splits every path it judges.
    if cfg!(unix) {
        return path
            .as_os_str()
            .as_encoded_bytes()
            .split(|&b| b == b'/')
            .filter(|c| !c.is_empty() && *c != b"." && *c != b"..")
            .collect();
    }
    path.components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.as_encoded_bytes()),
            _ => None,
        })
        .collect()
}

/// `components(path).len()`, without collecting them (the catalog cuts every path it judges
/// at its anchor's depth).
pub fn component_count(path: &Path) -> usize {
    if cfg!(unix) {
        return path
            .as_os_str()
            .as_encoded_bytes()
            .split(|&b| b == b'/')
            .filter(|c| !c.is_empty() && *c != b"." && *c != b"..")
            .count();
    }
    components(path).len()
}

fn compile_segments(whole: &str, alt: &str) -> Result<Segments, GlobError> {
    let mut segments = Vec::new();
    for seg in alt.split('/').filter(|s| !s.is_empty() && *s != ".") {
        if seg == ".." {
            return Err(GlobError::ParentComponent(whole.to_owned()));
        }
        if seg == "**" {
            segments.push(Segment::Any);
            continue;
        }
        if seg.contains("**") {
            return Err(GlobError::PartialDoubleStar(whole.to_owned()));
        }
        segments.push(Segment::Component(tokens(whole, seg)?));
    }
    Ok(Segments(segments))
}

fn tokens(whole: &str, seg: &str) -> Result<Vec<Token>, GlobError> {
    let chars: Vec<char> = seg.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        match c {
            '*' => out.push(Token::Star),
            '?' => out.push(Token::One),
            '[' => {
                let (token, next) =
                    class(&chars, i).ok_or_else(|| GlobError::UnclosedClass(whole.to_owned()))?;
                out.push(token);
                i = next;
                continue;
            }
            other => {
                let mut buf = [0u8; 4];
                out.extend(
                    other
                        .encode_utf8(&mut buf)
                        .bytes()
                        .map(|b| Token::Byte(b.to_ascii_lowercase())),
                );
            }
        }
        i += 1;
    }
    Ok(out)
}

/// The class starting at `chars[start] == '['`, and the index after its `]`. A `]` right
/// after `[` (or `[!`) is a member, as in shells.
fn class(chars: &[char], start: usize) -> Option<(Token, usize)> {
    let mut i = start + 1;
    let negate = matches!(chars.get(i), Some('!' | '^'));
    if negate {
        i += 1;
    }
    let mut ranges = Vec::new();
    let mut first = true;
    while let Some(&c) = chars.get(i) {
        if c == ']' && !first {
            return Some((Token::Class { negate, ranges }, i + 1));
        }
        first = false;
        match (chars.get(i + 1), chars.get(i + 2)) {
            (Some('-'), Some(&end)) if end != ']' => {
                ranges.push((c, end));
                i += 3;
            }
            _ => {
                ranges.push((c, c));
                i += 1;
            }
        }
    }
    None
}

/// `{a,b}` alternation, nested, bounded by [`MAX_ALTERNATIVES`].
fn expand_braces(text: &str) -> Result<Vec<String>, GlobError> {
    let mut out = Vec::new();
    let mut work = vec![text.to_owned()];
    while let Some(p) = work.pop() {
        let Some(open) = p.find('{') else {
            out.push(p);
            continue;
        };
        let mut depth = 0usize;
        let mut close = None;
        let mut commas = Vec::new();
        for (i, ch) in p[open..].char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(open + i);
                        break;
                    }
                }
                ',' if depth == 1 => commas.push(open + i),
                _ => {}
            }
        }
        let close = close.ok_or_else(|| GlobError::UnclosedBrace(text.to_owned()))?;
        let (head, tail) = (&p[..open], &p[close + 1..]);
        let mut start = open + 1;
        // Pushed in reverse so alternatives come out in the order written.
        let mut alts = Vec::with_capacity(commas.len() + 1);
        for end in commas.into_iter().chain(std::iter::once(close)) {
            alts.push(format!("{head}{}{tail}", &p[start..end]));
            start = end + 1;
        }
        // Every pending pattern yields at least one alternative.
        if out.len() + work.len() + alts.len() > MAX_ALTERNATIVES {
            return Err(GlobError::TooManyAlternatives(text.to_owned()));
        }
        work.extend(alts.into_iter().rev());
    }
    Ok(out)
}

/// The set of last bytes of a glob's alternatives, when each ends in a literal byte: a
/// component matched by `…b` ends with `b` (case-insensitively), since the match consumes the
/// last token on the last byte. `None` when some alternative ends otherwise (`*`, `?`, a class,
/// `**`).
fn last_byte_set(alternatives: &[Segments]) -> Option<[u64; 4]> {
    let mut set = [0u64; 4];
    for alt in alternatives {
        let Some(Segment::Component(tokens)) = alt.0.last() else {
            return None;
        };
        let Some(Token::Byte(b)) = tokens.last() else {
            return None;
        };
        set[usize::from(*b >> 6)] |= 1 << (*b & 63);
    }
    Some(set)
}

/// The set of first bytes of a glob's alternatives, when each starts with a named component
/// whose first token is a literal byte: such an alternative matches only paths whose first
/// component starts with that byte (case-insensitively; a `**` or a leading `*`, `?` or class
/// gives `None`). An empty path matches none of them.
fn first_byte_set(alternatives: &[Segments]) -> Option<[u64; 4]> {
    let mut set = [0u64; 4];
    for alt in alternatives {
        let Some(Segment::Component(tokens)) = alt.0.first() else {
            return None;
        };
        let Some(Token::Byte(b)) = tokens.first() else {
            return None;
        };
        set[usize::from(*b >> 6)] |= 1 << (*b & 63);
    }
    Some(set)
}

/// For each alternative, the first byte of its first named component that starts with a
/// literal byte: every named component of an alternative matches exactly one component of the
/// path (a `**` takes whole components), and one led by `b` only a component starting with
/// `b` (case-insensitively). `None` when some alternative has no such component (`**`,
/// `**/*.pem`).
fn required_byte_set(alternatives: &[Segments]) -> Option<[u64; 4]> {
    let mut set = [0u64; 4];
    for alt in alternatives {
        let b = alt.0.iter().find_map(|seg| match seg {
            Segment::Component(tokens) => match tokens.first() {
                Some(Token::Byte(b)) => Some(*b),
                _ => None,
            },
            Segment::Any => None,
        })?;
        set[usize::from(b >> 6)] |= 1 << (b & 63);
    }
    Some(set)
}

/// The set of the (ASCII-lowercased) first bytes of `components`, for
/// [`Glob::may_match_firsts`].
pub fn component_firsts<C: AsRef<[u8]>>(components: &[C]) -> [u64; 4] {
    let mut set = [0u64; 4];
    for b in components
        .iter()
        .filter_map(|c| c.as_ref().first().map(u8::to_ascii_lowercase))
    {
        set[usize::from(b >> 6)] |= 1 << (b & 63);
    }
    set
}

fn in_set(set: &[u64; 4], b: u8) -> bool {
    set[usize::from(b >> 6)] & (1 << (b & 63)) != 0
}

/// A necessary condition for [`match_segments`], checked first because it is cheap: a pattern
/// ending in a named segment matches only if that segment matches the last component (the
/// catalog's `**/{id_rsa,*.pem,…}` alternatives then cost one component comparison each
/// instead of one per component of the path).
fn last_may_match<C: AsRef<[u8]>>(segs: &[Segment], parts: &[C]) -> bool {
    match segs.last() {
        Some(Segment::Component(t)) => parts.last().is_some_and(|p| match_component(t, p.as_ref())),
        Some(Segment::Any) | None => true,
    }
}

/// Whole-pattern match over components: the classic two-pointer wildcard match lifted to
/// components, one backtrack point per `**`.
fn match_segments<C: AsRef<[u8]>>(segs: &[Segment], parts: &[C]) -> bool {
    let (mut p, mut s) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while s < parts.len() {
        match segs.get(p) {
            Some(Segment::Any) => {
                star = Some((p, s));
                p += 1;
            }
            Some(Segment::Component(t)) if match_component(t, parts[s].as_ref()) => {
                p += 1;
                s += 1;
            }
            _ => match star {
                Some((sp, ss)) => {
                    p = sp + 1;
                    s = ss + 1;
                    star = Some((sp, ss + 1));
                }
                None => return false,
            },
        }
    }
    segs[p.min(segs.len())..].iter().all(|x| *x == Segment::Any)
}

fn below_segments<C: AsRef<[u8]>>(segs: &[Segment], comps: &[C], named: bool) -> bool {
    let Some((first, crest)) = comps.split_first() else {
        // Every component is consumed; the rest of the pattern lies below (or is empty: the
        // path itself matches).
        return named;
    };
    match segs.split_first() {
        None => false,
        Some((Segment::Any, rest)) => {
            below_segments(rest, comps, named) || below_segments(segs, crest, named)
        }
        Some((Segment::Component(t), rest)) => {
            match_component(t, first.as_ref()) && below_segments(rest, crest, true)
        }
    }
}

/// The character at `text[at..]` and its length in bytes; an invalid UTF-8 byte is one
/// character of its own (`None`), matched only by `?`, `*` and negated classes.
fn next_char(text: &[u8], at: usize) -> (Option<char>, usize) {
    let lead = text[at];
    let len = match lead {
        0x00..=0x7f => return (Some(char::from(lead)), 1),
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => return (None, 1),
    };
    match text
        .get(at..at + len)
        .and_then(|b| std::str::from_utf8(b).ok())
        .and_then(|s| s.chars().next())
    {
        Some(c) => (Some(c), len),
        None => (None, 1),
    }
}

fn class_matches(negate: bool, ranges: &[(char, char)], c: Option<char>) -> bool {
    let hit = c.is_some_and(|c| {
        [c, c.to_ascii_lowercase(), c.to_ascii_uppercase()]
            .iter()
            .any(|x| ranges.iter().any(|(lo, hi)| lo <= x && x <= hi))
    });
    hit != negate
}

/// One component against its tokens: iterative, backtracking on the last `*` only.
fn match_component(pat: &[Token], text: &[u8]) -> bool {
    let (mut p, mut t) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        let (c, len) = next_char(text, t);
        let step = match pat.get(p) {
            Some(Token::Star) => {
                star = Some((p, t));
                p += 1;
                continue;
            }
            Some(Token::One) => Some(len),
            Some(Token::Class { negate, ranges }) => {
                class_matches(*negate, ranges, c).then_some(len)
            }
            Some(Token::Byte(b)) => (*b == text[t].to_ascii_lowercase()).then_some(1),
            None => None,
        };
        match step {
            Some(n) => {
                p += 1;
                t += n;
            }
            None => match star {
                Some((sp, st)) => {
                    let skip = next_char(text, st).1;
                    p = sp + 1;
                    t = st + skip;
                    star = Some((sp, st + skip));
                }
                None => return false,
            },
        }
    }
    pat[p.min(pat.len())..].iter().all(|x| *x == Token::Star)
}

/// Whether a word holds a shell wildcard (`*`, `?`, `[`): the shell expands it against the
/// file system before the program sees it.
pub fn has_wildcard(text: &str) -> bool {
    text.contains(['*', '?', '['])
}

/// Where a shell pattern's expansion lies relative to a concrete path ([`ShellPattern::reach`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatternReach {
    /// Some expansion is the path itself or lies below it (`.cl?ude`, `.claude/*.json`).
    Within,
    /// Some expansion is a directory above the path (`.c*` holds `.claude/settings.json`).
    Holds,
}

/// A command-line word's path pattern as the shell expands it (`rm -rf .c*`): made absolute
/// and folded by [`crate::normalize`] first, then matched component by component against
/// concrete paths, so the question "does this glob name a protected path?" is answered
/// without listing a directory (a glob only ever expands to entries that exist, so comparing
/// it with the protected entries that exist is the whole answer).
///
/// Shell rules kept: `*`, `?` and a leading `**` component do not match a name starting with
/// `.` unless that component of the pattern starts with a literal `.` (bash without
/// `dotglob`, zsh without `GLOB_DOTS`) — [`ShellPattern::dotglob`] lifts it. Wider than the
/// shell, never narrower: `**` is recursive (zsh, bash `globstar`), matching is ASCII
/// case-insensitive (see the module's rule), a `[` class may match a leading dot.
#[derive(Debug, Clone)]
pub struct ShellPattern {
    /// One entry per path component: the compiled component (`None` for `**`), and whether it
    /// may match a name starting with `.`.
    parts: Vec<(Option<Vec<Token>>, bool)>,
    /// The components as written, and whether each holds a wildcard.
    words: Vec<(std::ffi::OsString, bool)>,
    dotglob: bool,
}

impl ShellPattern {
    /// The pattern of an absolute, normalised path, or `None` when no component holds a
    /// wildcard (or one does not compile: an unclosed `[` is literal to the shell too).
    pub fn new(path: &Path) -> Option<Self> {
        let mut parts = Vec::new();
        let mut words = Vec::new();
        let mut wild = false;
        for c in path.components() {
            let Component::Normal(os) = c else { continue };
            let c = os.as_encoded_bytes();
            let text = String::from_utf8_lossy(c);
            if text == "**" {
                wild = true;
                parts.push((None, false));
                words.push((os.to_owned(), true));
                continue;
            }
            let compiled = if has_wildcard(&text) {
                tokens(&text, &text).ok()
            } else {
                None
            };
            words.push((os.to_owned(), compiled.is_some()));
            let tokens = match compiled {
                Some(t) => {
                    wild = true;
                    t
                }
                None => literal(c),
            };
            // A leading literal `.` (or a class, which may hold one) may match a dot name.
            let dot_ok = matches!(
                tokens.first(),
                Some(Token::Byte(b'.') | Token::Class { .. })
            );
            parts.push((Some(tokens), dot_ok));
        }
        wild.then_some(Self {
            parts,
            words,
            dotglob: false,
        })
    }

    /// The same pattern with names starting with `.` matched by wildcards too (the line
    /// enabled `dotglob`/`GLOB_DOTS`).
    #[must_use]
    pub fn dotglob(mut self, on: bool) -> Self {
        self.dotglob = on;
        self
    }

    /// Whether some expansion of the pattern is `path` or below it ([`PatternReach::Within`]),
    /// else a directory above it ([`PatternReach::Holds`]); `None` when neither.
    pub fn reach(&self, path: &Path) -> Option<PatternReach> {
        let comps = components(path);
        let visible = |c: &[u8], dot_ok: bool| self.dotglob || dot_ok || c.first() != Some(&b'.');
        // dp[i][j]: the first i pattern parts match the first j components.
        let (n, m) = (self.parts.len(), comps.len());
        let mut dp = vec![vec![false; m + 1]; n + 1];
        dp[0][0] = true;
        for (i, (part, dot_ok)) in self.parts.iter().enumerate() {
            for j in 0..=m {
                dp[i + 1][j] = match part {
                    // `**`: zero components, or one more visible one.
                    None => dp[i][j] || (j > 0 && dp[i + 1][j - 1] && visible(comps[j - 1], false)),
                    Some(tokens) => {
                        j > 0
                            && dp[i][j - 1]
                            && visible(comps[j - 1], *dot_ok)
                            && match_component(tokens, comps[j - 1])
                    }
                };
            }
        }
        if (0..=n).any(|i| dp[i][m]) {
            Some(PatternReach::Within)
        } else if (0..m).any(|j| dp[n][j]) {
            Some(PatternReach::Holds)
        } else {
            None
        }
    }
}

/// The home directory's own instance of an absolute, normalised path pattern whose leading
/// components can be the home directory (`/home/*/.aws/credentials` with home `/home/u`:
/// `/home/u/.aws/credentials`; a shell word such as `/home/$USER/…` becomes that pattern), so
/// the home-anchored catalog entries judge it as the user's file it can be. `None` for a
/// literal path, a pattern that cannot reach the home directory, one with `**` there, or one
/// that already names it literally.
pub fn home_instance(path: &Path, home: &Path) -> Option<PathBuf> {
    // The common case, a literal path, costs one scan and no allocation.
    if !has_wildcard(path.to_str()?) {
        return None;
    }
    let pattern = ShellPattern::new(path)?;
    if pattern.reach(home) != Some(PatternReach::Within) {
        return None;
    }
    let depth = home.components().count();
    let lead: Vec<Component<'_>> = path.components().take(depth).collect();
    if lead.len() < depth || lead.iter().any(|c| c.as_os_str() == "**") {
        return None;
    }
    let instance: PathBuf = home
        .components()
        .chain(path.components().skip(depth))
        .collect();
    (instance != path).then_some(instance)
}

impl ShellPattern {
    /// The pattern's expansions on disk that go through or to a symbolic link, each with
    /// its target fully resolved: `(expansion, resolved)`. What [`ShellPattern::reach`]
    /// cannot see lexically — `rm -rf h?/*` where `hh` links to hookgate's store. Reads
    /// the directories the wildcard components select from, at most `budget` entries in
    /// all (`None` past it); a `**` component is not walked (its lexical answer stands).
    pub fn linked_expansions(&self, budget: usize) -> Option<Vec<(PathBuf, PathBuf)>> {
        Some(
            self.expansions(budget)?
                .into_iter()
                .filter_map(|p| {
                    // A last component that does not exist yet (a file the command creates)
                    // lands in its parent's resolved directory.
                    let resolved = std::fs::canonicalize(&p).ok().or_else(|| {
                        let parent = std::fs::canonicalize(p.parent()?).ok()?;
                        Some(parent.join(p.file_name()?))
                    })?;
                    (resolved != p).then_some((p, resolved))
                })
                .collect(),
        )
    }

    /// The pattern's expansions on disk, as the shell makes them: the directories the
    /// wildcard components select from are read, at most `budget` entries in all (`None`
    /// past it); a `**` component is not walked (no expansion is returned for it). A last
    /// literal component is kept whether or not it exists.
    pub fn expansions(&self, budget: usize) -> Option<Vec<PathBuf>> {
        let mut frontier: Vec<PathBuf> = vec![PathBuf::from("/")];
        let mut read = 0usize;
        for ((part, dot_ok), (word, wild)) in self.parts.iter().zip(&self.words) {
            let mut next = Vec::new();
            for dir in &frontier {
                match part {
                    None => return Some(Vec::new()),
                    Some(_) if !wild => next.push(dir.join(word)),
                    Some(tokens) => {
                        let Ok(entries) = std::fs::read_dir(dir) else {
                            continue;
                        };
                        for e in entries.filter_map(Result::ok) {
                            read += 1;
                            if read > budget {
                                return None;
                            }
                            let name = e.file_name();
                            let bytes = name.as_encoded_bytes();
                            let visible = self.dotglob || *dot_ok || bytes.first() != Some(&b'.');
                            if visible && match_component(tokens, bytes) {
                                next.push(dir.join(&name));
                            }
                        }
                    }
                }
            }
            frontier = next;
        }
        Some(frontier)
    }
}

/// A literal component's tokens (bytes, ASCII-lowercased as [`tokens`] makes them).
fn literal(c: &[u8]) -> Vec<Token> {
    c.iter()
        .map(|b| Token::Byte(b.to_ascii_lowercase()))
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "test code")]
    use super::*;

    fn m(pattern: &str, path: &str) -> bool {
        let comps: Vec<&[u8]> = path
            .split('/')
            .filter(|s| !s.is_empty())
            .map(str::as_bytes)
            .collect();
        Glob::compile(pattern).unwrap().matches(&comps)
    }

    #[test]
    fn home_instance_is_the_home_directorys_own_expansion_of_a_pattern() {
        let home = Path::new("/home/u");
        let inst = |p: &str| home_instance(Path::new(p), home).map(|p| p.display().to_string());
        assert_eq!(
            inst("/home/*/.aws/credentials").as_deref(),
            Some("/home/u/.aws/credentials")
        );
        assert_eq!(inst("/home/*").as_deref(), Some("/home/u"));
        assert_eq!(inst("/*/u/.ssh").as_deref(), Some("/home/u/.ssh"));
        assert_eq!(inst("/home/*/.ssh/*").as_deref(), Some("/home/u/.ssh/*"));
        // Literal, elsewhere, `**` in the home part, or already the home's own.
        assert_eq!(inst("/home/u/.aws/credentials"), None);
        assert_eq!(inst("/tmp/*/.aws/credentials"), None);
        assert_eq!(inst("/home/x*/.aws/credentials"), None);
        assert_eq!(inst("/**/.aws/credentials"), None);
        assert_eq!(inst("/home/u/.ssh/*"), None);
    }

    fn anchored(glob: &str, path: &str) -> bool {
        PathGlob::compile(glob).unwrap().matches(
            Path::new(path),
            Path::new("/w"),
            Some(Path::new("/h")),
        )
    }

    fn below(pattern: &str, path: &str) -> bool {
        let comps: Vec<&[u8]> = path
            .split('/')
            .filter(|s| !s.is_empty())
            .map(str::as_bytes)
            .collect();
        Glob::compile(pattern).unwrap().contains_match_below(&comps)
    }

    #[test]
    fn star_and_question_mark_stay_inside_one_component() {
        assert!(m(".ssh/id_*", ".ssh/id_rsa"));
        assert!(!m(".ssh/id_*", ".ssh/sub/id_rsa"));
        assert!(m("file?.txt", "file7.txt"));
        assert!(!m("file?.txt", "file/.txt"));
        assert!(
            m("file?.txt", "fileé.txt"),
            "? is one character, not one byte"
        );
        assert!(!m("**/.env", ".envx"));
    }

    #[test]
    fn double_star_spans_zero_or_more_whole_components() {
        assert!(m("**/.env", ".env"));
        assert!(m("**/.env.*", "a/b/.env.local"));
        assert!(m("src/**/*.rs", "src/a.rs"));
        assert!(m("src/**/*.rs", "src/x/y/a.rs"));
        assert!(m("a/**", "a"));
        assert!(matches!(
            Glob::compile("a/**b"),
            Err(GlobError::PartialDoubleStar(_))
        ));
    }

    #[test]
    fn braces_alternate_nest_and_are_bounded() {
        assert!(m("etc/{sudoers,sudoers.d/**}", "etc/sudoers.d/90-x"));
        assert!(m("{var/run,run}/docker.sock", "run/docker.sock"));
        assert!(m("a/{b,{c,d}}", "a/d"));
        assert!(!m("a/{b,c}", "a/bc"));
        assert!(matches!(
            Glob::compile("{a,b"),
            Err(GlobError::UnclosedBrace(_))
        ));
        let huge = "{a,b,c,d}{a,b,c,d}{a,b,c,d}{a,b,c,d}{a,b,c,d}";
        assert!(matches!(
            Glob::compile(huge),
            Err(GlobError::TooManyAlternatives(_))
        ));
        assert!(m("a}b", "a}b"), "a lone `}}` is literal");
    }

    #[test]
    fn character_classes_match_one_character_and_must_close() {
        assert!(m("file[0-9].txt", "file7.txt"));
        assert!(!m("file[!0-9].txt", "file7.txt"));
        assert!(m("file[^0-9].txt", "filex.txt"));
        assert!(m("[]x]", "]"));
        assert!(matches!(
            Glob::compile("file[0-9"),
            Err(GlobError::UnclosedClass(_))
        ));
    }

    #[test]
    fn matching_is_ascii_case_insensitive_everywhere() {
        assert!(m(".claude/settings*.json", ".Claude/Settings.Local.JSON"));
        assert!(m("[a-c]x", "Bx"));
        assert!(anchored(".env", "/w/sub/.ENV"));
        assert!(anchored("~/.SSH/*", "/h/.ssh/id_rsa"));
        assert!(!m("é", "É"), "non-ASCII letters compare exactly");
    }

    #[test]
    fn path_globs_are_anchored_at_workspace_home_or_root() {
        assert!(anchored("src/**", "/w/src/a/b.rs"));
        assert!(!anchored("src/**", "/other/src/a.rs"));
        assert!(anchored("/etc/**", "/etc/passwd"));
        assert!(anchored("~/.ssh/*", "/h/.ssh/id_rsa"));
        assert!(!anchored("~/.ssh/*", "/w/.ssh/id_rsa"));
        assert!(anchored("~", "/h/anything/below"));
        assert!(anchored("{~/.ssh,/etc/ssh}/*", "/etc/ssh/x"));
        let no_home = PathGlob::compile("~/.ssh/*").unwrap();
        assert!(!no_home.matches(Path::new("/h/.ssh/id"), Path::new("/w"), None));
    }

    #[test]
    fn a_path_glob_without_slash_matches_a_name_at_any_depth_of_the_workspace() {
        assert!(anchored("*.pem", "/w/a/b/key.pem"));
        assert!(anchored(".env", "/w/.env"));
        assert!(!anchored("*.pem", "/elsewhere/key.pem"));
    }

    #[test]
    fn a_trailing_slash_is_the_directory_and_everything_below() {
        assert!(anchored("docs/", "/w/docs/a/b.md"));
        assert!(anchored("docs/", "/w/docs"));
    }

    #[test]
    fn dot_dot_is_refused_in_a_pattern() {
        assert!(matches!(
            PathGlob::compile("../x"),
            Err(GlobError::ParentComponent(_))
        ));
        assert!(matches!(PathGlob::compile(" "), Err(GlobError::Empty)));
    }

    #[test]
    fn a_directory_contains_a_match_only_when_it_names_part_of_the_pattern() {
        assert!(below("**/.claude/settings*.json", "work/proj/.claude"));
        assert!(below(
            "**/.claude/settings*.json",
            "work/proj/.claude/settings.json"
        ));
        assert!(below("**/.github/hooks/**", "p/.github"));
        assert!(!below("**/.claude/settings*.json", "work/proj"));
        assert!(!below("**/.claude/settings*.json", "work/proj/build"));
        assert!(!below(
            "**/.claude/settings*.json",
            "work/proj/.claude/commands"
        ));
        assert!(below(".claude/**", ""));
        assert!(!below("**/.hookgate/**", ""));
        assert!(below("etc/hookgate/**", "etc"));
        assert!(!below(".claude.json", ".claude.json/x"));
    }

    #[test]
    fn stars_backtrack_in_linear_time() {
        let t = |p: &str| tokens(p, p).unwrap();
        assert!(match_component(
            &t("*.env.*.example"),
            b"x.env.prod.example"
        ));
        assert!(match_component(&t("*a*b"), b"xaxxab"));
        assert!(!match_component(&t("*a*b"), b"xaxxa"));
        assert!(match_component(&t(""), b""));
        let hostile = "*a".repeat(50);
        assert!(match_component(&t(&hostile), "a".repeat(5000).as_bytes()));
        assert!(!match_component(
            &t(&format!("{hostile}b")),
            "a".repeat(5000).as_bytes()
        ));
    }

    #[test]
    fn invalid_utf8_components_match_only_wildcards() {
        let bad: &[u8] = b"k\xffy.pem";
        let g = Glob::compile("*.pem").unwrap();
        assert!(g.matches(&[bad]));
        assert!(Glob::compile("k?y.pem").unwrap().matches(&[bad]));
        assert!(!Glob::compile("k[a-z]y.pem").unwrap().matches(&[bad]));
    }

    fn reach(pattern: &str, path: &str) -> Option<PatternReach> {
        ShellPattern::new(Path::new(pattern))
            .unwrap()
            .reach(Path::new(path))
    }

    #[test]
    fn a_shell_pattern_reaches_the_protected_entries_it_expands_to() {
        use PatternReach::{Holds, Within};
        let s = "/w/.claude/settings.json";
        for (pattern, expected) in [
            ("/w/.c*", Some(Holds)),
            ("/w/.cl?ude", Some(Holds)),
            ("/w/.[c]laude/*", Some(Within)),
            ("/w/.claude/*.json", Some(Within)),
            ("/w/.claude/settings.js?n", Some(Within)),
            ("/w/.C*", Some(Holds)),
            ("/*/.claude", Some(Holds)),
            ("/w/**/settings.json", None),
            ("/w/.*/settings.json", Some(Within)),
            ("/w/.*", Some(Holds)),
            // The shell's own rule: `*` and `?` do not match a leading dot.
            ("/w/*/settings.json", None),
            ("/w/*", None),
            ("/w/?claude", None),
            ("/w/src/*", None),
            ("/w/.cx*", None),
        ] {
            assert_eq!(reach(pattern, s), expected, "{pattern}");
        }
        assert_eq!(
            reach("/usr/local/bin/hook*", "/usr/local/bin/hookgate"),
            Some(Within)
        );
        // `dotglob` lifts the leading-dot rule.
        let p = ShellPattern::new(Path::new("/w/*/settings.json")).unwrap();
        assert_eq!(p.dotglob(true).reach(Path::new(s)), Some(Within));
        assert!(ShellPattern::new(Path::new("/w/.claude")).is_none());
        assert!(ShellPattern::new(Path::new("/w/.c[")).is_none());
    }

    #[test]
    fn a_shell_patterns_expansions_through_links_land_where_the_links_point() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("store")).unwrap();
        std::fs::create_dir_all(root.join("w/src")).unwrap();
        std::fs::write(root.join("store/audit.db"), b"").unwrap();
        std::os::unix::fs::symlink(root.join("store"), root.join("w/hh")).unwrap();
        let linked = |pattern: &str| {
            ShellPattern::new(&root.join(pattern))
                .unwrap()
                .linked_expansions(100)
                .unwrap()
        };
        assert_eq!(
            linked("w/h?/*"),
            vec![(root.join("w/hh/audit.db"), root.join("store/audit.db"))]
        );
        // A file the command would create lands in the link's target directory.
        assert_eq!(
            linked("w/h*/new.db"),
            vec![(root.join("w/hh/new.db"), root.join("store/new.db"))]
        );
        assert!(linked("w/s*/*").is_empty());
        // Past the bound: no answer (the caller keeps the lexical one).
        let p = ShellPattern::new(&root.join("w/*/*")).unwrap();
        assert_eq!(p.linked_expansions(1), None);
    }

    #[test]
    fn a_shell_patterns_expansions_are_the_entries_the_shell_would_list() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("p/.ssh")).unwrap();
        for f in ["p/.env", "p/.env.test", "p/env.md", "p/.ssh/id_rsa"] {
            std::fs::write(root.join(f), b"").unwrap();
        }
        let expand = |pattern: &str, dotglob: bool| {
            let mut got = ShellPattern::new(&root.join(pattern))
                .unwrap()
                .dotglob(dotglob)
                .expansions(100)
                .unwrap();
            got.sort();
            got
        };
        assert_eq!(
            expand("p/.env*", false),
            vec![root.join("p/.env"), root.join("p/.env.test")]
        );
        // A wildcard does not match a leading dot unless dotglob is on.
        assert_eq!(expand("p/*env*", false), vec![root.join("p/env.md")]);
        assert_eq!(expand("p/*env*", true).len(), 3);
        // Every wildcard component is expanded, not only the last.
        assert_eq!(
            expand("p/.ss*/id*", false),
            vec![root.join("p/.ssh/id_rsa")]
        );
        let p = ShellPattern::new(&root.join("p/*")).unwrap();
        assert_eq!(p.expansions(1), None);
    }
}
