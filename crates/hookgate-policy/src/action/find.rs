//! `find` expressions, evaluated against the entries a protected path consists of.
//!
//! `find . -name '*.pyc' -delete` deletes nothing of the guard; `find . -name '*.json'
//! -delete` deletes `.claude/settings.json`. Which one a call is cannot be read off the start
//! path, so the expression itself is kept ([`FindFilter`]) and judged per protected entry:
//! would the action of interest (`-delete`, an `-exec`, or printing the name for `xargs`) run
//! on it? Tests are evaluated in three-valued logic: names and paths are known (`-name`,
//! `-iname`, `-path`, `-ipath`, `-regex`, depth, `-prune`), state is not (`-type` without a
//! known type, `-mtime`, `-size`, `-newer` …: "may match"). A primary this module does not
//! understand, or a word only known at run time, makes the filter *opaque*: where the answer
//! then hangs on it, the caller asks instead of allowing.
//!
//! Invariant protected: a filter only ever narrows a whole-tree operation to entries it
//! provably cannot reach; anything it cannot decide counts as reached.

/// Three-valued truth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum K {
    /// Holds.
    True,
    /// Does not hold.
    False,
    /// May hold (depends on file state or on what could not be evaluated).
    Maybe,
}

impl K {
    fn and(self, o: K) -> K {
        match (self, o) {
            (K::False, _) | (_, K::False) => K::False,
            (K::True, K::True) => K::True,
            _ => K::Maybe,
        }
    }

    fn or(self, o: K) -> K {
        match (self, o) {
            (K::True, _) | (_, K::True) => K::True,
            (K::False, K::False) => K::False,
            _ => K::Maybe,
        }
    }

    fn not(self) -> K {
        match self {
            K::True => K::False,
            K::False => K::True,
            K::Maybe => K::Maybe,
        }
    }
}

/// Which action of the expression the caller cares about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Interest {
    /// `-delete`.
    Delete,
    /// `-exec`/`-execdir`/`-ok`/`-okdir` (the command the analyzer extracted).
    Exec,
    /// Printing the name on stdout (`-print`, `-print0`, `-printf`, `-ls`, or the implicit
    /// `-print`), for an `xargs` fed by the find.
    Print,
}

/// The kind of an entry, when known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EntryKind {
    File,
    Dir,
    Link,
}

/// One entry as `find` would see it.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    /// The path as find prints it (the start path as written, then `/name`…).
    pub shown: String,
    /// Depth below the start path (the start path is 0).
    pub depth: usize,
    /// File, directory or link, when known.
    pub kind: Option<EntryKind>,
    /// Whether `-empty` holds (an empty directory or a zero-size file), when known: a
    /// directory on the way to a protected entry holds it, so is never empty.
    pub empty: Option<bool>,
}

impl Entry {
    fn name(&self) -> &str {
        let t = self.shown.trim_end_matches('/');
        if t.is_empty() {
            return "/";
        }
        t.rsplit('/').next().unwrap_or(t)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Test {
    Name {
        pattern: String,
        fold: bool,
    },
    Path {
        pattern: String,
        fold: bool,
    },
    Regex {
        regex: String,
        fold: bool,
    },
    Type(String),
    Const(bool),
    /// Depends on file state (times, sizes, owners, permissions, contents).
    State,
    /// `-empty`: an empty directory or a zero-size file ([`Entry::empty`]).
    Empty,
    /// Cannot be evaluated here.
    Opaque,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Act {
    Delete,
    Exec,
    Print,
    Prune,
    /// Writes elsewhere or stops (`-fprint F`, `-quit`): fires nothing of interest.
    Other,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Node {
    And(Box<Node>, Box<Node>),
    Or(Box<Node>, Box<Node>),
    Comma(Box<Node>, Box<Node>),
    Not(Box<Node>),
    Test(Test),
    Act(Act),
}

/// A parsed `find` expression with its global options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FindFilter {
    expr: Node,
    min_depth: usize,
    max_depth: Option<usize>,
    /// `-depth` (or `-delete`, which implies it): `-prune` has no effect.
    depth_first: bool,
    /// The expression has a primary or word that cannot be evaluated.
    pub opaque: bool,
    pub interest: Interest,
}

/// Tests that only depend on file state ("may match") and take a value as the next word.
const STATE_TESTS: &[&str] = &[
    "-amin",
    "-anewer",
    "-atime",
    "-cmin",
    "-cnewer",
    "-ctime",
    "-fstype",
    "-gid",
    "-group",
    "-inum",
    "-links",
    "-lname",
    "-ilname",
    "-mmin",
    "-mtime",
    "-newer",
    "-perm",
    "-samefile",
    "-size",
    "-uid",
    "-used",
    "-user",
    "-context",
    "-xtype",
];

/// Tests that only depend on file state and take no value.
const STATE_FLAGS: &[&str] = &[
    "-empty",
    "-executable",
    "-nogroup",
    "-nouser",
    "-readable",
    "-writable",
];

/// Global options and positional options (true for a node, nothing else).
const OPTIONS: &[&str] = &[
    "-depth",
    "-d",
    "-xdev",
    "-mount",
    "-follow",
    "-noleaf",
    "-ignore_readdir_race",
    "-noignore_readdir_race",
    "-daystart",
    "-warn",
    "-nowarn",
];

/// A word only known at run time (the analyzer keeps `$X`, `$(…)` as written).
fn computed(w: &str) -> bool {
    w.contains(['$', '`'])
}

struct Parser<'a> {
    words: &'a [String],
    i: usize,
    filter: FindFilter,
    has_action: bool,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<&'a str> {
        self.words.get(self.i).map(String::as_str)
    }

    fn next(&mut self) -> Option<&'a str> {
        let w = self.peek();
        self.i += 1;
        w
    }

    /// expr := alt (',' alt)*
    fn comma(&mut self, depth: usize) -> Node {
        let mut left = self.alt(depth);
        while self.peek() == Some(",") {
            self.i += 1;
            let right = self.alt(depth);
            left = Node::Comma(Box::new(left), Box::new(right));
        }
        left
    }

    /// alt := seq (-o seq)*
    fn alt(&mut self, depth: usize) -> Node {
        let mut left = self.seq(depth);
        while matches!(self.peek(), Some("-o" | "-or")) {
            self.i += 1;
            let right = self.seq(depth);
            left = Node::Or(Box::new(left), Box::new(right));
        }
        left
    }

    /// seq := unary ((-a)? unary)*
    fn seq(&mut self, depth: usize) -> Node {
        let mut left = self.unary(depth);
        loop {
            match self.peek() {
                None | Some(")" | "-o" | "-or" | ",") => return left,
                Some("-a" | "-and") => self.i += 1,
                Some(_) => {}
            }
            let right = self.unary(depth);
            left = Node::And(Box::new(left), Box::new(right));
        }
    }

    fn unary(&mut self, depth: usize) -> Node {
        if depth > 64 {
            self.filter.opaque = true;
            self.i = self.words.len();
            return Node::Test(Test::Opaque);
        }
        match self.peek() {
            Some("!" | "-not") => {
                self.i += 1;
                Node::Not(Box::new(self.unary(depth + 1)))
            }
            Some("(") => {
                self.i += 1;
                let inner = self.comma(depth + 1);
                if self.peek() == Some(")") {
                    self.i += 1;
                } else {
                    self.filter.opaque = true;
                }
                inner
            }
            _ => self.primary(),
        }
    }

    fn value(&mut self) -> Option<&'a str> {
        let v = self.next();
        if v.is_none_or(computed) {
            self.filter.opaque = true;
        }
        v
    }

    fn primary(&mut self) -> Node {
        let Some(w) = self.next() else {
            // `find . -name` with a missing operand, or `! )`.
            self.filter.opaque = true;
            return Node::Test(Test::Opaque);
        };
        let test = |t| Node::Test(t);
        match w {
            "-name" | "-iname" | "-path" | "-ipath" | "-wholename" | "-iwholename" => {
                let pattern = self.value().unwrap_or_default().to_owned();
                let fold = w.starts_with("-i");
                if w.ends_with("name") && !w.ends_with("wholename") {
                    test(Test::Name { pattern, fold })
                } else {
                    test(Test::Path { pattern, fold })
                }
            }
            "-regex" | "-iregex" => {
                let regex = self.value().unwrap_or_default().to_owned();
                test(Test::Regex {
                    regex,
                    fold: w == "-iregex",
                })
            }
            "-regextype" => {
                // Only the default (emacs) and extended syntaxes are translated.
                if !matches!(
                    self.value(),
                    Some(
                        "emacs" | "posix-extended" | "posix-egrep" | "egrep" | "findutils-default"
                    )
                ) {
                    self.filter.opaque = true;
                }
                test(Test::Const(true))
            }
            "-type" => {
                let t = self.value().unwrap_or_default().to_owned();
                test(Test::Type(t))
            }
            "-true" => test(Test::Const(true)),
            "-false" => test(Test::Const(false)),
            "-maxdepth" | "-mindepth" => {
                let n = self.value().and_then(|v| v.parse::<usize>().ok());
                match (w, n) {
                    ("-maxdepth", Some(n)) => self.filter.max_depth = Some(n),
                    ("-mindepth", Some(n)) => self.filter.min_depth = n,
                    _ => self.filter.opaque = true,
                }
                test(Test::Const(true))
            }
            o if OPTIONS.contains(&o) => {
                if matches!(o, "-depth" | "-d") {
                    self.filter.depth_first = true;
                }
                test(Test::Const(true))
            }
            "-files0-from" => {
                self.value();
                test(Test::Const(true))
            }
            s if STATE_TESTS.contains(&s) => {
                self.value();
                test(Test::State)
            }
            "-empty" => test(Test::Empty),
            s if STATE_FLAGS.contains(&s) => test(Test::State),
            "-delete" => {
                self.has_action = true;
                self.filter.depth_first = true;
                Node::Act(Act::Delete)
            }
            "-exec" | "-execdir" | "-ok" | "-okdir" => {
                self.has_action = true;
                while let Some(x) = self.next() {
                    if x == ";" || x == "+" {
                        break;
                    }
                }
                Node::Act(Act::Exec)
            }
            "-print" | "-print0" | "-ls" => {
                self.has_action = true;
                Node::Act(Act::Print)
            }
            "-printf" => {
                self.has_action = true;
                self.value();
                Node::Act(Act::Print)
            }
            "-fprint" | "-fprint0" | "-fls" => {
                self.has_action = true;
                self.value();
                Node::Act(Act::Other)
            }
            "-fprintf" => {
                self.has_action = true;
                self.value();
                self.value();
                Node::Act(Act::Other)
            }
            "-prune" => Node::Act(Act::Prune),
            "-quit" => Node::Act(Act::Other),
            _ => {
                self.filter.opaque = true;
                test(Test::Opaque)
            }
        }
    }
}

impl FindFilter {
    /// Parses the expression part of a find argv (everything after the start paths).
    pub(crate) fn parse(words: &[String], interest: Interest) -> Self {
        let mut p = Parser {
            words,
            i: 0,
            filter: FindFilter {
                expr: Node::Test(Test::Const(true)),
                min_depth: 0,
                max_depth: None,
                depth_first: false,
                opaque: false,
                interest,
            },
            has_action: false,
        };
        let expr = if words.is_empty() {
            Node::Test(Test::Const(true))
        } else {
            p.comma(0)
        };
        if p.i < words.len() {
            // A stray `)` or trailing words: the structure is not what find would read.
            p.filter.opaque = true;
        }
        let mut filter = p.filter;
        filter.expr = if p.has_action {
            expr
        } else {
            Node::And(Box::new(expr), Box::new(Node::Act(Act::Print)))
        };
        filter
    }

    /// The same selection narrowed further by a test that cannot be evaluated here: what a
    /// file holds (`grep -rl --include='*.json' PAT .` prints only the matching files among
    /// those the name test selects). An entry the names exclude stays excluded; one they
    /// select "may" be reached, which the caller asks about instead of denying.
    #[must_use]
    pub(crate) fn depending_on_contents(mut self) -> Self {
        let expr = std::mem::replace(&mut self.expr, Node::Test(Test::Const(true)));
        self.expr = Node::And(Box::new(Node::Test(Test::Opaque)), Box::new(expr));
        self.opaque = true;
        self
    }

    /// Whether the action of interest runs on `entry`, given its ancestors between the start
    /// path (included) and the entry (excluded), each of which find visits first.
    pub(crate) fn reaches(&self, ancestors: &[Entry], entry: &Entry) -> K {
        if self.max_depth.is_some_and(|m| entry.depth > m) || entry.depth < self.min_depth {
            return K::False;
        }
        let mut visited = K::True;
        if !self.depth_first {
            // Levels above `-mindepth` are walked but not tested: they prune nothing.
            for a in ancestors.iter().filter(|a| a.depth >= self.min_depth) {
                let (_, _, pruned) = self.eval(&self.expr, a);
                visited = visited.and(pruned.not());
            }
        }
        let (_, fired, _) = self.eval(&self.expr, entry);
        visited.and(fired)
    }

    /// (value, fires the action of interest, prunes).
    fn eval(&self, node: &Node, e: &Entry) -> (K, K, K) {
        match node {
            Node::Test(t) => (Self::test(t, e), K::False, K::False),
            Node::Act(a) => {
                let fires = match (a, self.interest) {
                    (Act::Delete, Interest::Delete)
                    | (Act::Exec, Interest::Exec)
                    | (Act::Print, Interest::Print) => K::True,
                    _ => K::False,
                };
                let value = if *a == Act::Exec { K::Maybe } else { K::True };
                let prunes = if *a == Act::Prune { K::True } else { K::False };
                (value, fires, prunes)
            }
            Node::Not(inner) => {
                let (value, fires, prunes) = self.eval(inner, e);
                (value.not(), fires, prunes)
            }
            Node::And(a, b) => {
                let (va, fa, pa) = self.eval(a, e);
                if va == K::False {
                    return (va, fa, pa);
                }
                let (vb, fb, pb) = self.eval(b, e);
                (va.and(vb), fa.or(va.and(fb)), pa.or(va.and(pb)))
            }
            Node::Or(a, b) => {
                let (va, fa, pa) = self.eval(a, e);
                if va == K::True {
                    return (va, fa, pa);
                }
                let (vb, fb, pb) = self.eval(b, e);
                let gate = va.not();
                (va.or(vb), fa.or(gate.and(fb)), pa.or(gate.and(pb)))
            }
            Node::Comma(a, b) => {
                let (_, fa, pa) = self.eval(a, e);
                let (vb, fb, pb) = self.eval(b, e);
                (vb, fa.or(fb), pa.or(pb))
            }
        }
    }

    fn test(t: &Test, e: &Entry) -> K {
        let known = |b: bool| if b { K::True } else { K::False };
        match t {
            Test::Const(b) => known(*b),
            Test::State | Test::Opaque => K::Maybe,
            Test::Empty => e.empty.map_or(K::Maybe, known),
            Test::Name { pattern, fold } => {
                if computed(pattern) {
                    return K::Maybe;
                }
                known(fnmatch(pattern, e.name(), *fold))
            }
            Test::Path { pattern, fold } => {
                if computed(pattern) {
                    return K::Maybe;
                }
                known(fnmatch(pattern, &e.shown, *fold))
            }
            Test::Regex { regex, fold } => match emacs_regex(regex, *fold) {
                Some(re) => known(re.is_match(&e.shown)),
                None => K::Maybe,
            },
            Test::Type(types) => {
                let Some(kind) = e.kind else {
                    return K::Maybe;
                };
                let letter = match kind {
                    EntryKind::File => 'f',
                    EntryKind::Dir => 'd',
                    EntryKind::Link => 'l',
                };
                known(types.split(',').any(|t| t.starts_with(letter)))
            }
        }
    }
}

/// find's `-regex` (emacs syntax by default: `\(`, `\|`, `\{` are operators and the bare
/// characters literal), matched against the whole path. Patterns using the emacs operators
/// are not translated (the caller gets "may match").
fn emacs_regex(pattern: &str, fold: bool) -> Option<regex::Regex> {
    if computed(pattern) {
        return None;
    }
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next()? {
                '(' | ')' | '|' | '{' | '}' => return None,
                n => {
                    out.push('\\');
                    out.push(n);
                }
            },
            '(' | ')' | '|' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    regex::RegexBuilder::new(&format!("^(?:{out})$"))
        .case_insensitive(fold)
        .size_limit(1 << 20)
        .build()
        .ok()
}

/// `fnmatch(3)` without flags, as find's `-name`/`-path` use it: `*` and `?` match any
/// character including `/`, `[…]`/`[!…]` classes with ranges, `\` escapes. Iterative with
/// one backtrack point, so a hostile pattern costs O(n·m).
pub(crate) fn fnmatch(pattern: &str, text: &str, fold: bool) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let eq = |a: char, b: char| {
        if fold {
            a.to_lowercase().eq(b.to_lowercase())
        } else {
            a == b
        }
    };
    let (mut pi, mut ti) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        let step = match p.get(pi) {
            Some('*') => {
                star = Some((pi, ti));
                pi += 1;
                continue;
            }
            Some('?') => Some(pi + 1),
            Some('[') => class(&p, pi, t[ti], fold),
            Some('\\') if pi + 1 < p.len() => eq(p[pi + 1], t[ti]).then_some(pi + 2),
            Some(&c) => eq(c, t[ti]).then_some(pi + 1),
            None => None,
        };
        match step {
            Some(next) => {
                pi = next;
                ti += 1;
            }
            None => match star {
                Some((sp, st)) => {
                    pi = sp + 1;
                    ti = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    p[pi.min(p.len())..].iter().all(|c| *c == '*')
}

/// Matches one character against the class starting at `p[start] == '['`; returns the index
/// after the class, or `None` (no match). An unclosed `[` is a literal `[`.
fn class(p: &[char], start: usize, c: char, fold: bool) -> Option<usize> {
    let mut i = start + 1;
    let negate = matches!(p.get(i), Some('!' | '^'));
    if negate {
        i += 1;
    }
    let lower = |x: char| if fold { x.to_ascii_lowercase() } else { x };
    let c = lower(c);
    let mut matched = false;
    let mut first = true;
    while let Some(&x) = p.get(i) {
        if x == ']' && !first {
            return (matched != negate).then_some(i + 1);
        }
        first = false;
        if p.get(i + 1) == Some(&'-') && p.get(i + 2).is_some_and(|e| *e != ']') {
            let (lo, hi) = (lower(x), lower(p[i + 2]));
            matched |= lo <= c && c <= hi;
            i += 3;
        } else {
            matched |= lower(x) == c;
            i += 1;
        }
    }
    // No closing `]`: the `[` is an ordinary character.
    (c == '[').then_some(start + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    fn entry(shown: &str, depth: usize, kind: Option<EntryKind>) -> Entry {
        Entry {
            shown: shown.to_owned(),
            depth,
            kind,
            empty: None,
        }
    }

    /// Whether the action reaches `./.claude/settings.json` (a file two levels down).
    fn settings(expr: &str, interest: Interest) -> K {
        let f = FindFilter::parse(&w(expr), interest);
        f.reaches(
            &[
                entry(".", 0, Some(EntryKind::Dir)),
                entry("./.claude", 1, None),
            ],
            &entry("./.claude/settings.json", 2, Some(EntryKind::File)),
        )
    }

    #[test]
    fn fnmatch_matches_like_find() {
        assert!(fnmatch("*.json", "settings.json", false));
        assert!(!fnmatch("*.pyc", "settings.json", false));
        assert!(fnmatch("settings.*", "settings.json", false));
        assert!(fnmatch("./.claude/*", "./.claude/settings.json", false));
        assert!(fnmatch("*/.claude*", "./.claude/settings.json", false));
        assert!(fnmatch("[st]etting?.json", "settings.json", false));
        assert!(!fnmatch("[!s]*", "settings.json", false));
        assert!(fnmatch("SETTINGS.JSON", "settings.json", true));
        assert!(!fnmatch("SETTINGS.JSON", "settings.json", false));
        assert!(fnmatch("\\*", "*", false));
        assert!(fnmatch("a[", "a[", false));
    }

    #[test]
    fn find_filters_reach_only_what_their_tests_select() {
        use Interest::*;
        assert_eq!(settings("-name *.json -delete", Delete), K::True);
        assert_eq!(settings("-name settings.json -delete", Delete), K::True);
        assert_eq!(settings("-name *.pyc -delete", Delete), K::False);
        assert_eq!(settings("-type f -name *.pyc -delete", Delete), K::False);
        assert_eq!(settings("-type f -delete", Delete), K::True);
        assert_eq!(settings("-mtime +30 -delete", Delete), K::Maybe);
        assert_eq!(
            settings("-maxdepth 1 -name *.json -delete", Delete),
            K::False
        );
        assert_eq!(settings("-not -name *.md -delete", Delete), K::True);
        assert_eq!(
            settings("( -name *.pyc -o -name *.json ) -delete", Delete),
            K::True
        );
        assert_eq!(
            settings("-path ./.claude -prune -o -name *.json -print", Print),
            K::False
        );
        // `-delete` implies `-depth`: `-prune` does not protect.
        assert_eq!(
            settings("-path ./.claude -prune -o -name *.json -delete", Delete),
            K::True
        );
        assert_eq!(settings("-name *.json", Print), K::True);
        assert_eq!(settings("-name *.json -exec rm {} +", Exec), K::True);
        assert_eq!(settings("-name *.json -exec rm {} +", Print), K::False);
        assert_eq!(settings("-iname SETTINGS.JSON -delete", Delete), K::True);
        assert_eq!(settings("-regex .*\\.json -delete", Delete), K::True);
        assert_eq!(settings("-regex .*\\.py -delete", Delete), K::False);
        let opaque = FindFilter::parse(&w("-frobnicate -delete"), Delete);
        assert!(opaque.opaque);
        assert!(!FindFilter::parse(&w("-name *.pyc -delete"), Delete).opaque);
    }
}
