//! Interpreter code a command line carries (`python -c`, `node -e`, `ruby -e`, `perl -e`,
//! `php -r`, `deno eval`, `bun -e`, and the same languages fed by heredoc, here-string or pipe),
//! parsed with the language's real tree-sitter grammar.
//!
//! Why a parser and not a lexer: what a one-liner does depends on structure the text hides —
//! aliased imports (`import shutil as s; s.rmtree(…)`, `const {rmSync: r} = require('fs')`),
//! constant concatenation and path joins (`'/ho' + 'me'`, `os.path.join('a', 'b')`), the mode
//! argument of `open`, and whether a name is called at all or only mentioned inside a string
//! (`print("open('x','w')")` is data). Each grammar is lowered to one small expression model
//! ([`Expr`]) and judged by one evaluator against per-language API tables, so every language
//! gets the same rules: aliases and variables are followed, literals are decoded with the
//! language's escapes, and a target that is not a compile-time constant becomes an effect with
//! `path: None` (invariant: never dropped — the caller asks instead of allowing it).
//!
//! Bounds: parsing is tree-sitter's (iterative); the walk over the tree is iterative; lowering an
//! expression recurses at most [`MAX_DEPTH`] levels (deeper is "dynamic"); at most
//! [`MAX_FINDINGS`] findings are kept (more is "dynamic"). No panics, no I/O.

use std::collections::HashMap;

use tree_sitter::{Node, Parser};

use crate::interp::{Finding, Lang};
use crate::model::EffectOp;

/// Deepest expression lowered; deeper subtrees count as values computed at run time.
const MAX_DEPTH: usize = 48;
/// Most findings kept for one snippet; more is reported as dynamic.
const MAX_FINDINGS: usize = 256;
/// Most alias/variable hops followed when resolving a name.
const MAX_HOPS: usize = 8;

/// Most items of a literal collection a loop is unrolled over ([`Scanner::unroll`]).
const MAX_UNROLLED_ITEMS: usize = 16;

/// Most extra walks of loop bodies in one piece of code ([`Scanner::unroll`]).
const MAX_UNROLLED_WALKS: usize = 32;

/// A value in the code, as far as it is statically known.
#[derive(Debug, Clone, PartialEq)]
enum Expr {
    /// A string constant after escape processing.
    Str(String),
    /// Computed at run time (interpolated string, variable of unknown value, arithmetic…).
    Dyn,
    /// A bare name: identifier, constant, bareword, `$scalar`.
    Name(String),
    /// `object.attr`, `Mod::Name`, `Class->method` (as callee).
    Attr(Box<Expr>, String),
    /// A call with positional and keyword arguments.
    Call {
        callee: Box<Expr>,
        args: Vec<Expr>,
        kwargs: Vec<(String, Expr)>,
    },
    /// `a + b` / `a . b` / adjacent literals.
    Concat(Vec<Expr>),
    /// Python's `Path(a) / b`.
    Join(Box<Expr>, Box<Expr>),
    /// `[a, b]` / `(a, b)` / `qw(a b)`.
    List(Vec<Expr>),
    /// `os.environ['X']`, `ENV['X']`, `$ENV{X}`.
    Index(Box<Expr>, Box<Expr>),
    /// A dict/object/hash literal: its keys (when literal) and values, so data placed in a
    /// request body (`{body: JSON.stringify(process.env)}`) is still seen.
    Object(Vec<(String, Expr)>),
}

/// What the evaluator knows about names: aliases from imports and simple variable bindings.
#[derive(Default)]
struct Env {
    /// Name → canonical dotted name (`s` → `shutil`, `r` → `fs.rmSync`).
    aliases: HashMap<String, String>,
    /// Name → the expression last assigned to it.
    vars: HashMap<String, Expr>,
    /// Names bound to an element of an enumeration of every process on the machine (a loop
    /// or callback over `os.listdir('/proc')`, `psutil.process_iter()`): a signal sent to
    /// one of them is a signal to all of them.
    procs: Vec<String>,
    /// Ruby modules mixed in with `include`/`extend`: a bare call may be one of theirs.
    included: Vec<String>,
    /// Loop variables and callback parameters bound to an element of a collection a
    /// networked client returned (`for b in boto3.resource('s3').buckets.all()`), by the
    /// collection's canonical name: a destroying method on the element is the client's.
    origins: HashMap<String, String>,
}

/// A resolved callee: its canonical dotted name and, for a method on a constructed value
/// (`Path('x').unlink()`), the constructor's arguments.
struct Callee {
    name: String,
    receiver: Vec<Expr>,
}

/// The grammar for a language, or `None` for the languages still lexed (awk, mongo).
fn grammar(lang: Lang) -> Option<tree_sitter::Language> {
    Some(match lang {
        Lang::Python => tree_sitter_python::LANGUAGE.into(),
        Lang::Node => tree_sitter_javascript::LANGUAGE.into(),
        Lang::Ruby => tree_sitter_ruby::LANGUAGE.into(),
        // `php -r` code has no `<?php` tag.
        Lang::Php => tree_sitter_php::LANGUAGE_PHP_ONLY.into(),
        Lang::Perl => tree_sitter_perl::LANGUAGE.into(),
        Lang::Awk | Lang::Mongo | Lang::Lua | Lang::R | Lang::Other(_) => return None,
    })
}

/// One parser per interpreter language, created the first time a snippet of that language
/// appears: the hook path pays for the grammars it uses, not for all of them, and a reused
/// [`crate::Analyzer`] pays for each at most once.
#[derive(Default)]
#[allow(
    clippy::struct_field_names,
    reason = "`parsers` is what the struct holds; the other fields are its scan results"
)]
pub(crate) struct Parsers {
    parsers: Vec<(Lang, Parser)>,
    /// What the last [`Parsers::scan`] found for [`Parsers::bulk_delete`].
    last_bulk: Option<String>,
    /// Whether the next scan looks for bulk deletes (only framework runners ask).
    want_bulk: bool,
    /// What the last [`Parsers::scan`] found for [`Parsers::destructive_sql`].
    last_sql: Option<DestructiveSql>,
    /// What the last [`Parsers::scan`] found for [`Parsers::remote_call`].
    last_remote: Option<crate::sdk::Remote>,
}

impl Parsers {
    /// Parses `code` as `lang` and returns what it does. `None` when the language has no
    /// grammar here (the caller keeps the lexer for it).
    ///
    /// A snippet the grammar rejects is still walked (tree-sitter recovers around the error)
    /// and additionally gets [`Finding::Unparsed`], so the caller can union it with the lexer
    /// and never allow code whose structure it could not read.
    pub(crate) fn scan(&mut self, lang: Lang, code: &str) -> Option<Vec<Finding>> {
        if let Lang::Other(t) = lang {
            return Some(crate::tongues::scan(t, code));
        }
        if matches!(lang, Lang::Lua | Lang::R) {
            return Some(call_scan(lang, code));
        }
        if lang == Lang::Python && crate::plain_python::is_plain_python(code) {
            // Nothing to find, by the fast path's invariant (see `crate::plain_python`).
            self.last_bulk = None;
            self.last_sql = None;
            self.last_remote = None;
            return Some(Vec::new());
        }
        self.scan_grammar(lang, code)
    }

    /// [`Parsers::scan`] by the grammar alone (the plain-Python fast path's reference).
    fn scan_grammar(&mut self, lang: Lang, code: &str) -> Option<Vec<Finding>> {
        let language = grammar(lang)?;
        let index = if let Some(i) = self.parsers.iter().position(|(l, _)| *l == lang) {
            i
        } else {
            let mut parser = Parser::new();
            if parser.set_language(&language).is_err() {
                return Some(vec![Finding::Unparsed]);
            }
            self.parsers.push((lang, parser));
            self.parsers.len() - 1
        };
        let (_, parser) = self.parsers.get_mut(index)?;
        let Some(tree) = parser.parse(code, None) else {
            return Some(vec![Finding::Unparsed]);
        };
        let root = tree.root_node();
        let mut scanner = Scanner {
            lang,
            src: code,
            env: Env::default(),
            out: Vec::new(),
            bulk: None,
            want_bulk: self.want_bulk,
            sql: None,
            remote: None,
            chdir: Chdir::Start,
            unroll_budget: MAX_UNROLLED_WALKS,
        };
        scanner.walk(root);
        self.last_bulk = scanner.bulk.take();
        self.last_sql = scanner.sql.take();
        self.last_remote = scanner.remote.take();
        if root.has_error() {
            scanner.out.push(Finding::Unparsed);
        }
        if scanner.out.len() > MAX_FINDINGS {
            scanner.out.truncate(MAX_FINDINGS);
            scanner
                .out
                .push(Finding::Dynamic("does more than can be listed"));
        }
        Some(scanner.out)
    }
}

impl Parsers {
    /// The first call in framework code (`rails runner`, `manage.py shell -c`) that deletes
    /// or truncates whole tables: ORM bulk deletes (`delete_all`, `destroy_all`,
    /// `objects.all().delete()`, `truncate`, `drop_table`) and SQL run through the ORM's
    /// connection that drops or empties tables.
    /// The destructive SQL call the last [`Parsers::scan`] found, if any (taken).
    pub(crate) fn destructive_sql(&mut self) -> Option<DestructiveSql> {
        self.last_sql.take()
    }

    /// The first call the last [`Parsers::scan`] found that destroys or replaces something
    /// on a remote service through a client library or an HTTP client (taken).
    pub(crate) fn remote_call(&mut self) -> Option<crate::sdk::Remote> {
        self.last_remote.take()
    }

    pub(crate) fn bulk_delete(&mut self, lang: Lang, code: &str) -> Option<String> {
        self.want_bulk = true;
        let scanned = self.scan(lang, code);
        self.want_bulk = false;
        scanned?;
        self.last_bulk.take()
    }
}

/// SQL run from code that drops, truncates or empties tables (see
/// [`Parsers::destructive_sql`]).
pub(crate) struct DestructiveSql {
    /// The call, for the message (`execute("DROP TABLE users")`).
    pub call: String,
    /// Run through a connection a networked client library made (`psycopg2.connect(…)`):
    /// the database is a server's, never a scratch file the snippet opened.
    pub networked: bool,
}

struct Scanner<'s> {
    lang: Lang,
    src: &'s str,
    env: Env,
    out: Vec<Finding>,
    /// The first ORM or SQL call that deletes every row of a table (`User.delete_all`,
    /// `Model.objects.all().delete()`, `connection.execute('DROP TABLE …')`).
    bulk: Option<String>,
    /// Whether to look for [`Scanner::bulk`] at all.
    want_bulk: bool,
    /// The first call that runs literal SQL dropping, truncating or emptying tables
    /// (`conn.execute('DROP TABLE users')`), in any code.
    sql: Option<DestructiveSql>,
    /// The first call that destroys or replaces something on a remote service.
    remote: Option<crate::sdk::Remote>,
    /// Where the code has moved with `os.chdir`/`process.chdir`/`Dir.chdir`/`chdir`. Later
    /// relative targets are relative to it (`os.chdir('.claude'); os.remove('settings.json')`
    /// deletes `.claude/settings.json`).
    chdir: Chdir,
    /// Loop bodies still allowed to be walked once more per literal item
    /// ([`Scanner::unroll`]): bounds nested unrolling (8 items deep in 8 loops is 8^8 walks
    /// otherwise).
    unroll_budget: usize,
}

/// Where interpreter code runs relative to the command's own directory.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Chdir {
    /// It has not moved.
    Start,
    /// It moved here (relative to the start, or absolute).
    At(String),
    /// It moved somewhere only known at run time.
    Unknown,
}

fn text<'s>(node: Node<'_>, src: &'s str) -> &'s str {
    src.get(node.byte_range()).unwrap_or("")
}

fn named_children(node: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

/// `node`'s child in field `name`. Looked up by the field's id, which is cached per grammar
/// and name: `child_by_field_name` searches the grammar's field-name table with `strncmp` on
/// every call, and the scan asks for fields on nearly every node. `name` is `'static` because
/// the cache knows a name by its address and length (a literal's never changes meaning).
fn field<'t>(node: Node<'t>, name: &'static str) -> Option<Node<'t>> {
    let id = field_id(&node.language(), name)?;
    node.child_by_field_id(id.get())
}

/// A cached field id: the grammar and the name (by address and length) it is for.
struct FieldSlot {
    language: Option<tree_sitter::Language>,
    name: (usize, usize),
    id: Option<std::num::NonZeroU16>,
}

/// Slots of the field-id cache (a power of two; a name's slot is picked from its address).
const FIELD_SLOTS: usize = 128;

thread_local! {
    /// Direct-mapped: a slot holds the last (grammar, name) that hashed to it. A miss costs
    /// one table search, as `child_by_field_name` does every time.
    static FIELD_IDS: std::cell::RefCell<[FieldSlot; FIELD_SLOTS]> = const {
        std::cell::RefCell::new(
            [const { FieldSlot { language: None, name: (0, 0), id: None } }; FIELD_SLOTS],
        )
    };
}

/// The id of field `name` in `language` (see [`field`]).
fn field_id(language: &tree_sitter::Language, name: &'static str) -> Option<std::num::NonZeroU16> {
    let key = (name.as_ptr().addr(), name.len());
    // Literals are at least byte-aligned anywhere: mix the bits above the lowest few.
    let slot = ((key.0 >> 3) ^ (key.0 >> 10) ^ key.1) % FIELD_SLOTS;
    FIELD_IDS
        .try_with(|cache| {
            let mut cache = cache.try_borrow_mut().ok()?;
            let entry = cache.get_mut(slot)?;
            if entry.name != key || entry.language.as_ref() != Some(language) {
                *entry = FieldSlot {
                    language: Some(language.clone()),
                    name: key,
                    id: language.field_id_for_name(name),
                };
            }
            Some(entry.id)
        })
        .ok()
        .flatten()
        .unwrap_or_else(|| language.field_id_for_name(name))
}

impl Scanner<'_> {
    /// Pre-order walk over every node (iterative, so hostile nesting costs no stack).
    fn walk(&mut self, root: Node<'_>) {
        let mut cursor = root.walk();
        loop {
            let node = cursor.node();
            self.visit(node);
            if cursor.goto_first_child() {
                continue;
            }
            loop {
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    return;
                }
            }
        }
    }

    #[allow(
        clippy::unnested_or_patterns,
        reason = "one (language, node kind) pair per line is the grammar table; merging tuples hides which grammar a kind belongs to"
    )]
    fn visit(&mut self, node: Node<'_>) {
        // The kind is read once per node (`Node::kind` measures and validates the C string).
        let kind = node.kind();
        if let Some(what) = self.huge_allocation(node, kind) {
            self.push(Finding::Exhaust { what });
        }
        match (self.lang, kind) {
            // `[p.unlink() for p in Path.home().glob('.ssh/*')]`: the loop variable is bound
            // before the body is visited (the body comes first in the source).
            (
                Lang::Python,
                "list_comprehension"
                | "set_comprehension"
                | "generator_expression"
                | "dictionary_comprehension",
            ) => {
                for clause in named_children(node)
                    .into_iter()
                    .filter(|c| c.kind() == "for_in_clause")
                {
                    self.bind_loop(clause);
                }
            }
            (Lang::Python, "for_statement") => self.bind_loop(node),
            // `unlink for glob …`: the postfix loop follows the statement it drives, so `$_`
            // is bound before the statement is visited.
            (Lang::Perl, "single_line_statement") => {
                if let Some(l) = named_children(node)
                    .into_iter()
                    .find(|c| c.kind() == "for_simple_statement")
                {
                    self.bind_loop_any(l);
                }
            }
            // `for (const f of files)`, `foreach (glob(…) as $f)`, `for f in list`, Perl's
            // `for my $f (LIST)` and `… for LIST` (binding `$_`).
            (Lang::Node, "for_in_statement")
            | (Lang::Php, "foreach_statement")
            | (Lang::Ruby, "for")
            | (Lang::Perl, "for_statement_2" | "for_simple_statement") => self.bind_loop_any(node),
            // `with urlopen(u) as r, open(p, 'wb') as f:` binds `r` and `f` like assignments.
            (Lang::Python, "as_pattern") => self.bind_as(node),
            // Imports and aliases.
            (Lang::Python, "import_statement" | "import_from_statement") => self.py_import(node),
            (Lang::Node, "import_statement") => self.js_import(node),
            (Lang::Perl, "use_no_statement") => self.pl_use(node),
            // `include 'http://…'` runs fetched code (allow_url_include).
            (
                Lang::Php,
                "include_expression"
                | "include_once_expression"
                | "require_expression"
                | "require_once_expression",
            ) => {
                let target = named_children(node)
                    .first()
                    .map_or(Expr::Dyn, |c| self.lower(*c, 0));
                if url_prefixed(&target, &self.env, 0) {
                    self.push(Finding::FetchEval {
                        call: node.kind().trim_end_matches("_expression").to_owned(),
                    });
                }
            }
            // `include FileUtils` / `extend FileUtils` at the top: the module's methods are
            // then called by their bare names (`rm_rf(…)`).
            (Lang::Ruby, "call")
                if field(node, "receiver").is_none()
                    && field(node, "method")
                        .is_some_and(|m| matches!(text(m, self.src), "include" | "extend")) =>
            {
                if let Some(list) = field(node, "arguments") {
                    for m in named_children(list) {
                        if matches!(m.kind(), "constant" | "scope_resolution") {
                            let name = text(m, self.src).replace("::", ".");
                            self.env.included.push(name);
                        }
                    }
                }
            }
            // Assignments: variables, and environment variables set.
            (Lang::Python, "assignment" | "augmented_assignment")
            | (Lang::Node, "assignment_expression" | "augmented_assignment_expression")
            | (Lang::Ruby, "assignment" | "operator_assignment")
            | (Lang::Php, "assignment_expression" | "augmented_assignment_expression") => {
                self.assignment(node, "left", "right");
            }
            (Lang::Node, "variable_declarator") => self.assignment(node, "name", "value"),
            (Lang::Perl, "binary_expression")
                if node
                    .child_by_field_name("operator")
                    .is_some_and(|o| text(o, self.src) == "=") =>
            {
                self.pl_assignment(node);
            }
            // Calls.
            (Lang::Python, "call")
            | (Lang::Node, "call_expression" | "new_expression")
            | (Lang::Ruby, "call")
            | (
                Lang::Php,
                "function_call_expression"
                | "member_call_expression"
                | "scoped_call_expression"
                | "object_creation_expression",
            )
            | (
                Lang::Perl,
                "call_expression_with_args_with_brackets"
                | "call_expression_with_spaced_args"
                | "method_invocation"
                | "call_expression_with_bareword"
                | "call_expression_recursive"
                | "func1op_call_expression"
                | "func0op_call_expression",
            ) => {
                // A bareword that is the callee of an enclosing call is not a call itself.
                if self.lang == Lang::Perl
                    && node.kind() == "call_expression_with_bareword"
                    && node.parent().is_some_and(|p| {
                        p.kind().starts_with("call_expression_with_")
                            && p.named_child(0).is_some_and(|c| c.id() == node.id())
                    })
                {
                    return;
                }
                let call = self.lower(node, 0);
                if self.want_bulk && self.bulk.is_none() {
                    self.bulk = self.bulk_call(&call);
                }
                if self.remote.is_none() {
                    self.remote = self.remote_call(&call);
                }
                if self.sql.is_none() && self.remote.is_none() {
                    self.sql = self.destructive_sql(&call);
                }
                self.bind_then_parameter(node, &call);
                self.bind_callback(node, &call);
                if self.chdir_call(&call) {
                    return;
                }
                let mut found = Vec::new();
                if let Some(shell) = self.tagged_shell(node) {
                    found.push(shell);
                }
                if let Some(what) = self.huge_call(&call, node) {
                    found.push(Finding::Exhaust { what });
                }
                self.call(&call, Some(node), 0, &mut found);
                if self.spawns_async(&call) && in_unbounded_loop(self.lang, node, self.src) {
                    found.push(Finding::ForkLoop);
                }
                for f in found {
                    self.push(f);
                }
            }
            // Ruby's `fork` with no arguments and no receiver is an identifier.
            (Lang::Ruby, "identifier")
                if text(node, self.src) == "fork"
                    && in_unbounded_loop(self.lang, node, self.src) =>
            {
                self.push(Finding::ForkLoop);
            }
            // Ruby's `cmd` with no receiver and no arguments is an identifier; with a block or
            // arguments it is a call (handled above). Backticks and `%x()`:
            (Lang::Ruby, "subshell")
            | (Lang::Php, "shell_command_expression")
            | (Lang::Perl, "backtick_quoted" | "command_qx_quoted") => {
                let exact = !has_interpolation(node);
                let inner = shell_literal_text(node, self.src);
                self.push(Finding::Shell { code: inner, exact });
            }
            _ => {}
        }
    }

    fn push(&mut self, f: Finding) {
        if self.out.len() <= MAX_FINDINGS {
            let f = self.under_chdir(f);
            self.out.push(f);
        }
    }

    /// A finding as seen from the directory the code moved to: relative file targets are
    /// joined to it (or become unplaced when it is only known at run time), and a command
    /// line it runs starts there.
    fn under_chdir(&self, f: Finding) -> Finding {
        let dir = match &self.chdir {
            Chdir::Start => return f,
            Chdir::At(d) => Some(d),
            Chdir::Unknown => None,
        };
        let relative = |p: &str| !(p.starts_with('/') || p.starts_with('~'));
        match f {
            Finding::Effect {
                op,
                path: Some(p),
                recursive,
            } if relative(&p)
                && !matches!(op, EffectOp::Spawn | EffectOp::Network | EffectOp::SetEnv) =>
            {
                Finding::Effect {
                    op,
                    path: dir.map(|d| join_paths(&[d.clone(), p])),
                    recursive,
                }
            }
            Finding::Shell { code, exact } => match dir {
                Some(d) => Finding::Shell {
                    code: format!(
                        "cd {} && {code}",
                        crate::interp::shell_join(std::slice::from_ref(d))
                    ),
                    exact,
                },
                None => Finding::Shell { code, exact: false },
            },
            other => other,
        }
    }

    /// `os.chdir(d)` and its spellings: moves where later relative paths point.
    fn chdir_call(&mut self, call: &Expr) -> bool {
        let Expr::Call {
            callee,
            args,
            kwargs,
        } = call
        else {
            return false;
        };
        let Some(c) = qualify(callee, &self.env, 0) else {
            return false;
        };
        let name = normalize(self.lang, &c.name);
        let is_chdir = matches!(
            (self.lang, name.as_str()),
            (Lang::Python, "os.chdir")
                | (Lang::Node, "process.chdir" | "Deno.chdir")
                | (Lang::Ruby, "Dir.chdir" | "FileUtils.cd" | "FileUtils.chdir")
                | (Lang::Php | Lang::Perl, "chdir")
        );
        if !is_chdir {
            return false;
        }
        let target = args
            .first()
            .or_else(|| kwargs.iter().find(|(k, _)| k == "path").map(|(_, v)| v))
            .and_then(|e| static_str(e, &self.env, 0));
        self.chdir = match (&self.chdir, target) {
            (_, None) | (Chdir::Unknown, Some(_)) => Chdir::Unknown,
            (Chdir::At(prev), Some(t)) if !(t.starts_with('/') || t.starts_with('~')) => {
                Chdir::At(join_paths(&[prev.clone(), t]))
            }
            (_, Some(t)) => Chdir::At(t),
        };
        true
    }

    /// `import('fs').then(m => m.unlinkSync(…))`: the callback's first parameter is the module
    /// the promise resolves to, bound like an import alias.
    fn bind_then_parameter(&mut self, node: Node<'_>, call: &Expr) {
        if self.lang != Lang::Node {
            return;
        }
        let Expr::Call { callee, .. } = call else {
            return;
        };
        let Expr::Attr(promise, method) = callee.as_ref() else {
            return;
        };
        if method != "then" || !matches!(promise.as_ref(), Expr::Call { .. }) {
            return;
        }
        let Some(module) = qualify(promise, &self.env, 0)
            .map(|c| c.name)
            .filter(|m| !m.ends_with(')'))
        else {
            return;
        };
        let Some(callback) = field(node, "arguments").and_then(|a| a.named_child(0)) else {
            return;
        };
        let param = field(callback, "parameter")
            .or_else(|| field(callback, "parameters").and_then(|p| p.named_child(0)));
        match param {
            Some(p) if p.kind() == "identifier" => {
                self.env
                    .aliases
                    .insert(text(p, self.src).to_owned(), module);
            }
            // `import('fs').then(({rmSync}) => rmSync(…))`: destructured as `const {…} =`.
            Some(p) if p.kind() == "object_pattern" => self.bind(&Expr::Dyn, Expr::Name(module), p),
            _ => {}
        }
    }

    fn effect(&mut self, op: EffectOp, path: Option<String>, recursive: bool) {
        self.push(eff(op, path, recursive));
    }

    // ---------------------------------------------------------------- imports

    fn py_import(&mut self, node: Node<'_>) {
        let module = field(node, "module_name").map(|m| text(m, self.src).to_owned());
        let mut cursor = node.walk();
        let names: Vec<Node<'_>> = node.children_by_field_name("name", &mut cursor).collect();
        for n in names {
            let (full, alias) = if n.kind() == "aliased_import" {
                let name = field(n, "name").map_or("", |x| text(x, self.src));
                let alias = field(n, "alias").map_or("", |x| text(x, self.src));
                (name.to_owned(), alias.to_owned())
            } else {
                let name = text(n, self.src).to_owned();
                // `import os.path` binds `os`.
                let bound = name.split('.').next().unwrap_or("").to_owned();
                match &module {
                    None => (bound.clone(), bound),
                    Some(_) => (name.clone(), name),
                }
            };
            let canonical = match &module {
                Some(m) => format!("{m}.{full}"),
                None => full,
            };
            if !alias.is_empty() {
                self.env.aliases.insert(alias, canonical);
            }
        }
        if module.is_some()
            && named_children(node)
                .iter()
                .any(|c| c.kind() == "wildcard_import")
        {
            // `from os import *`: bare names may be that module's; recorded as a star import.
            if let Some(m) = module {
                self.env.aliases.insert(format!("*{m}"), m);
            }
        }
    }

    fn js_import(&mut self, node: Node<'_>) {
        let Some(source) = field(node, "source").map(|s| self.lower(s, 0)) else {
            return;
        };
        let Some(module) = static_str(&source, &self.env, 0).map(|m| js_module(&m)) else {
            return;
        };
        let mut stack = named_children(node);
        while let Some(n) = stack.pop() {
            match n.kind() {
                "import_clause" | "named_imports" => stack.extend(named_children(n)),
                "namespace_import" | "identifier" => {
                    let id = named_children(n)
                        .into_iter()
                        .find(|c| c.kind() == "identifier")
                        .map_or_else(|| text(n, self.src), |c| text(c, self.src));
                    self.env.aliases.insert(id.to_owned(), module.clone());
                }
                "import_specifier" => {
                    let name = field(n, "name").map_or("", |x| text(x, self.src));
                    let alias = field(n, "alias").map_or(name, |x| text(x, self.src));
                    self.env
                        .aliases
                        .insert(alias.to_owned(), format!("{module}.{name}"));
                }
                _ => {}
            }
        }
    }

    fn pl_use(&mut self, node: Node<'_>) {
        let Some(pkg) = field(node, "package_name") else {
            return;
        };
        let module = text(pkg, self.src).replace("::", ".");
        // `use LWP::Simple;` / `use File::Path qw(rmtree);` export functions into the script:
        // each exported name is an alias of the qualified one.
        let listed: Vec<String> = named_children(node)
            .into_iter()
            .filter(|c| c.kind() == "word_list_qw")
            .flat_map(named_children)
            .filter(|c| c.kind() == "list_item")
            .map(|c| text(c, self.src).to_owned())
            .collect();
        let exports: Vec<String> = if listed.is_empty() {
            perl_default_exports(&module)
                .iter()
                .map(|s| (*s).to_owned())
                .collect()
        } else {
            listed
        };
        for name in exports {
            self.env
                .aliases
                .insert(name.clone(), format!("{module}.{name}"));
        }
    }

    // ------------------------------------------------------------ assignments

    fn assignment(&mut self, node: Node<'_>, left: &'static str, right: &'static str) {
        let (Some(l), Some(r)) = (field(node, left), field(node, right)) else {
            return;
        };
        let target = self.lower(l, 0);
        let value = self.lower(r, 0);
        self.bind(&target, value, l);
    }

    fn pl_assignment(&mut self, node: Node<'_>) {
        let kids = named_children(node);
        let (Some(l), Some(r)) = (kids.first(), kids.last()) else {
            return;
        };
        let target = self.lower(*l, 0);
        let value = self.lower(*r, 0);
        self.bind(&target, value, *l);
    }

    fn bind(&mut self, target: &Expr, value: Expr, target_node: Node<'_>) {
        match target {
            Expr::Name(n) => {
                self.env.vars.insert(n.clone(), value);
            }
            // `const {rmSync: r} = require('fs')`
            Expr::Dyn if target_node.kind() == "object_pattern" => {
                let Some(base) = qualify(&value, &self.env, 0).map(|c| c.name) else {
                    return;
                };
                for p in named_children(target_node) {
                    let (key, alias) = match p.kind() {
                        "shorthand_property_identifier_pattern" => {
                            (text(p, self.src), text(p, self.src))
                        }
                        "pair_pattern" => (
                            field(p, "key").map_or("", |k| text(k, self.src)),
                            field(p, "value").map_or("", |v| text(v, self.src)),
                        ),
                        _ => continue,
                    };
                    if !alias.is_empty() {
                        self.env
                            .aliases
                            .insert(alias.to_owned(), format!("{base}.{key}"));
                    }
                }
            }
            Expr::Index(obj, key) if is_environ(obj, &self.env) => {
                let name = static_str(key, &self.env, 0);
                self.effect(EffectOp::SetEnv, name, false);
            }
            Expr::Attr(obj, name) if is_environ(obj, &self.env) => {
                self.effect(EffectOp::SetEnv, Some(name.clone()), false);
            }
            _ => {}
        }
    }

    /// `for X in ITER`: X is bound to an element of ITER when ITER lists paths (`glob`,
    /// `rglob`, `iterdir` of a `Path`, `glob.glob(pattern)`): the element is that pattern, so
    /// what the body does to X is judged on the files it can be.
    fn bind_loop(&mut self, node: Node<'_>) {
        let (Some(left), Some(right)) = (field(node, "left"), field(node, "right")) else {
            return;
        };
        if left.kind() != "identifier" {
            return;
        }
        let iter = self.lower(right, 0);
        let element = match &iter {
            Expr::Call { callee, args, .. } => {
                let c = qualify(callee, &self.env, 0);
                let name = c.as_ref().map(|c| normalize(self.lang, &c.name));
                let pattern = args.first().and_then(|a| static_str(a, &self.env, 0));
                match name.as_deref() {
                    Some("glob.glob" | "glob.iglob") => pattern.map(Expr::Str),
                    Some(n)
                        if n.rsplit('.')
                            .next()
                            .is_some_and(|m| matches!(m, "glob" | "rglob" | "iterdir")) =>
                    {
                        let base = c
                            .as_ref()
                            .and_then(|c| c.receiver.first())
                            .and_then(|r| static_str(r, &self.env, 0));
                        let tail = if n.rsplit('.').next() == Some("iterdir") {
                            Some("*".to_owned())
                        } else if n.rsplit('.').next() == Some("rglob") {
                            pattern.map(|p| format!("**/{p}"))
                        } else {
                            pattern
                        };
                        match (base, tail) {
                            (Some(b), Some(t))
                                if c.as_ref()
                                    .is_some_and(|c| c.name.starts_with("pathlib.Path()")) =>
                            {
                                Some(Expr::Call {
                                    callee: Box::new(Expr::Name("pathlib.Path".into())),
                                    args: vec![Expr::Str(join_paths(&[b, t]))],
                                    kwargs: Vec::new(),
                                })
                            }
                            _ => None,
                        }
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        let name = text(left, self.src).to_owned();
        let procs = self.enumerates_processes(&iter, 0);
        self.note_origin(&name, &iter);
        // A comprehension's body is the comprehension's own expression; a loop's, its block.
        let body = if node.kind() == "for_in_clause" {
            node.parent().and_then(|c| field(c, "body"))
        } else {
            field(node, "body")
        };
        let element = match element {
            Some(e) => e,
            None => self.unroll(&name, &iter, body),
        };
        self.bind_element(&name, element, procs);
    }

    /// A loop over a literal collection (`for f in ['.ssh/id_rsa', '.aws/credentials']`,
    /// `['a', 'b'].map(f => …)`, `for (const f of ['.env', 'x'])`): its variable takes each
    /// item in turn, so the body is walked once more for every item after the first, with the
    /// variable bound to it — the way shell `for` lists are unrolled — and the first item is
    /// returned for the ordinary walk. A collection that is not a literal list of 1 to
    /// [`MAX_UNROLLED_ITEMS`] items, or a budget spent ([`MAX_UNROLLED_WALKS`]), gives
    /// [`Expr::Dyn`] as before.
    fn unroll(&mut self, name: &str, coll: &Expr, body: Option<Node<'_>>) -> Expr {
        let mut items = coll;
        for _ in 0..MAX_HOPS {
            match items {
                Expr::Name(n) => match self.env.vars.get(n) {
                    Some(v) => items = v,
                    None => return Expr::Dyn,
                },
                _ => break,
            }
        }
        let Expr::List(list) = items else {
            return Expr::Dyn;
        };
        if !(1..=MAX_UNROLLED_ITEMS).contains(&list.len()) {
            return Expr::Dyn;
        }
        let list = list.clone();
        if let Some(body) = body {
            for item in list.iter().skip(1) {
                if self.unroll_budget == 0 {
                    break;
                }
                self.unroll_budget -= 1;
                self.env.vars.insert(name.to_owned(), item.clone());
                self.walk(body);
            }
        }
        list.first().cloned().unwrap_or(Expr::Dyn)
    }

    /// Binds a loop variable or callback parameter to one element of a collection, and
    /// records whether the collection is every process (see [`Env::procs`]).
    fn bind_element(&mut self, name: &str, element: Expr, procs: bool) {
        self.env.procs.retain(|n| n != name);
        if procs {
            self.env.procs.push(name.to_owned());
        }
        self.env.vars.insert(name.to_owned(), element);
    }

    /// The loops of the other grammars: the variable is bound to an element of the
    /// collection (`foreach (glob('~/.aws/*') as $f)`, `for my $f (glob …)`, and `$_` for
    /// Perl's variable-less and postfix `for`).
    fn bind_loop_any(&mut self, node: Node<'_>) {
        let kids = named_children(node);
        let (var, coll) = match (self.lang, node.kind()) {
            (Lang::Node, _) => (field(node, "left"), field(node, "right")),
            (Lang::Ruby, _) => (field(node, "pattern"), field(node, "value")),
            // `foreach (COLL as $v)` / `foreach (COLL as $k => $v)`.
            (Lang::Php, _) => {
                let var = kids.get(1).map(|v| {
                    if v.kind() == "pair" {
                        v.named_child(1).unwrap_or(*v)
                    } else {
                        *v
                    }
                });
                (var, kids.first().copied())
            }
            (Lang::Perl, "for_simple_statement") => (None, field(node, "list")),
            (Lang::Perl, _) => (
                kids.iter().find(|k| k.kind() == "scalar_variable").copied(),
                kids.iter()
                    .find(|k| matches!(k.kind(), "array" | "arguments" | "list_expression"))
                    .copied(),
            ),
            _ => return,
        };
        let Some(coll) = coll else { return };
        let coll = self.lower(coll, 0);
        let name = match var {
            Some(v) if matches!(v.kind(), "identifier" | "variable_name" | "scalar_variable") => {
                text(v, self.src).to_owned()
            }
            // `for (const f of …)`: the identifier inside the declaration.
            Some(v) => match named_children(v)
                .into_iter()
                .find(|c| c.kind() == "identifier")
            {
                Some(i) => text(i, self.src).to_owned(),
                None if self.lang == Lang::Node && v.kind() == "identifier" => {
                    text(v, self.src).to_owned()
                }
                None => return,
            },
            None if self.lang == Lang::Perl => "$_".to_owned(),
            None => return,
        };
        let element = match self.element(&coll) {
            Expr::Dyn => self.unroll(&name, &coll, field(node, "body")),
            e => e,
        };
        let procs = self.enumerates_processes(&coll, 0);
        self.note_origin(&name, &coll);
        self.bind_element(&name, element, procs);
    }

    /// `with open(p, 'wb') as f:` binds `f` to the call, as `f = open(p, 'wb')` would.
    fn bind_as(&mut self, node: Node<'_>) {
        let (Some(value), Some(alias)) = (node.named_child(0), field(node, "alias")) else {
            return;
        };
        let Some(name) = named_children(alias)
            .into_iter()
            .find(|c| c.kind() == "identifier")
        else {
            return;
        };
        let value = self.lower(value, 0);
        self.env.vars.insert(text(name, self.src).to_owned(), value);
    }

    /// A callback handed to a higher-order call (`files.forEach(f => fs.rmSync(f))`,
    /// `Dir.glob(p).each { |f| File.delete(f) }`, `array_map(function($f){…}, glob(p))`,
    /// `map(lambda f: os.remove(f), …)`, Perl's `map { unlink } LIST`): its first parameter
    /// is bound to an element of the collection before the body is visited, as a loop
    /// variable is.
    fn bind_callback(&mut self, node: Node<'_>, call: &Expr) {
        let Expr::Call { callee, args, .. } = call else {
            return;
        };
        let Some((_, items)) = self.higher_order(callee, args) else {
            return;
        };
        let collection = match items {
            Some(c) => c.clone(),
            // Perl's `map { … } LIST`: the list is the call's arguments.
            None if self.lang == Lang::Perl => Expr::List(args.clone()),
            None => Expr::Dyn,
        };
        let mut slots: Vec<Node<'_>> = Vec::new();
        if let Some(a) = field(node, "arguments").or_else(|| field(node, "args")) {
            slots.push(a);
        }
        if let Some(b) = field(node, "block") {
            slots.push(b);
        }
        if self.lang == Lang::Perl {
            slots.extend(named_children(node));
        }
        let mut callback = None;
        for slot in slots {
            let mut candidates = vec![slot];
            candidates.extend(named_children(slot));
            candidates.extend(
                named_children(slot)
                    .into_iter()
                    .filter(|c| c.kind() == "argument")
                    .filter_map(|c| c.named_child(0)),
            );
            callback = candidates.into_iter().find(|c| {
                matches!(
                    c.kind(),
                    "arrow_function"
                        | "function_expression"
                        | "function"
                        | "lambda"
                        | "anonymous_function"
                        | "anonymous_function_creation_expression"
                        | "block"
                        | "do_block"
                )
            });
            if callback.is_some() {
                break;
            }
        }
        let Some(cb) = callback else { return };
        let param = if self.lang == Lang::Perl {
            Some("$_".to_owned())
        } else {
            field(cb, "parameter")
                .or_else(|| field(cb, "parameters").and_then(|p| p.named_child(0)))
                .map(|p| match p.kind() {
                    "simple_parameter" => field(p, "name").unwrap_or(p),
                    _ => p,
                })
                .filter(|p| matches!(p.kind(), "identifier" | "variable_name"))
                .map(|p| text(p, self.src).to_owned())
        };
        let Some(param) = param else { return };
        let element = match self.element(&collection) {
            Expr::Dyn => self.unroll(&param, &collection, field(cb, "body")),
            e => e,
        };
        let procs = self.enumerates_processes(&collection, 0);
        self.note_origin(&param, &collection);
        self.bind_element(&param, element, procs);
    }

    /// For a call that applies a function to each element of a collection or to given
    /// arguments: the function argument and the collection (`None` when the arguments are
    /// given directly, as for `call_user_func`). Keyed by the higher-order function, not by
    /// what is passed.
    fn higher_order<'e>(
        &self,
        callee: &'e Expr,
        args: &'e [Expr],
    ) -> Option<(Option<&'e Expr>, Option<&'e Expr>)> {
        let method = match callee {
            Expr::Attr(_, m) => Some(m.as_str()),
            _ => None,
        };
        let receiver = match callee {
            Expr::Attr(o, _) => Some(o.as_ref()),
            _ => None,
        };
        let name = qualify_name(callee, &self.env, 0).map(|n| normalize(self.lang, &n));
        let name = name.as_deref().unwrap_or("");
        match self.lang {
            Lang::Python => {
                if matches!(name, "map" | "filter" | "itertools.filterfalse")
                    || matches!(
                        method,
                        Some("map" | "imap" | "imap_unordered" | "map_async")
                    )
                {
                    Some((args.first(), args.get(1)))
                } else {
                    None
                }
            }
            Lang::Node => matches!(
                method,
                Some(
                    "forEach"
                        | "map"
                        | "filter"
                        | "flatMap"
                        | "some"
                        | "every"
                        | "find"
                        | "findIndex"
                        | "reduce"
                )
            )
            .then_some((args.first(), receiver)),
            Lang::Ruby => matches!(
                method,
                Some(
                    "each"
                        | "map"
                        | "collect"
                        | "select"
                        | "filter"
                        | "reject"
                        | "flat_map"
                        | "filter_map"
                        | "each_with_index"
                        | "each_entry"
                        | "find"
                        | "each_child"
                )
            )
            .then_some((args.last(), receiver)),
            Lang::Php => match name.to_ascii_lowercase().as_str() {
                "array_map" => Some((args.first(), args.get(1))),
                "array_walk" | "array_walk_recursive" | "array_filter" | "usort" => {
                    Some((args.get(1), args.first()))
                }
                _ => None,
            },
            Lang::Perl => matches!(name, "map" | "grep").then(|| (None, None)),
            Lang::Awk | Lang::Mongo | Lang::Lua | Lang::R | Lang::Other(_) => None,
        }
    }

    /// What a function passed as a value names, as a callee: a PHP function name string
    /// (`'unlink'`), a reference (`os.remove`, `fs.unlinkSync`), Ruby's `File.method(:delete)`
    /// and `method(:system)`, Python's `functools.partial(os.system, …)`. Only functions the
    /// API tables know are returned; anything else is left to the callback binding.
    fn callable(&self, f: &Expr) -> Option<Expr> {
        let named = match f {
            // A PHP function named by a string is called as that function; one the tables do
            // not know is an ordinary call (`call_user_func('strtoupper', $x)`).
            Expr::Str(s)
                if self.lang == Lang::Php
                    && !s.is_empty()
                    && s.trim_start_matches('\\')
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_') =>
            {
                return Some(Expr::Name(s.trim_start_matches('\\').to_owned()));
            }
            Expr::Name(_) | Expr::Attr(..) => f.clone(),
            Expr::Call { callee, args, .. } => match (self.lang, callee.as_ref()) {
                (Lang::Ruby, Expr::Attr(obj, m)) if m == "method" => {
                    let m = args.first().and_then(|a| static_str(a, &self.env, 0))?;
                    Expr::Attr(obj.clone(), m)
                }
                (Lang::Ruby, Expr::Name(m)) if m == "method" => {
                    Expr::Name(args.first().and_then(|a| static_str(a, &self.env, 0))?)
                }
                (Lang::Python, c)
                    if qualify(c, &self.env, 0).is_some_and(|c| {
                        matches!(c.name.as_str(), "functools.partial" | "partial")
                    }) =>
                {
                    args.first()?.clone()
                }
                _ => return None,
            },
            _ => return None,
        };
        let name = normalize(self.lang, &qualify(&named, &self.env, 0)?.name);
        api(self.lang, &name).is_some().then_some(named)
    }

    /// Judges each application of a function passed as a value (see [`Scanner::callable`])
    /// as a direct call on an element of the collection, or on the given arguments
    /// (`call_user_func('system', …)`, `functools.partial(os.system, …)`,
    /// `threading.Thread(target=…, args=…)`). True when the call was such an application
    /// (then it needs no other judgement: `call_user_func` with a known name is no `eval`).
    fn applies_callable(
        &self,
        callee: &Expr,
        args: &[Expr],
        kwargs: &[(String, Expr)],
        node: Option<Node<'_>>,
        hops: usize,
        out: &mut Vec<Finding>,
    ) -> bool {
        let name = qualify_name(callee, &self.env, 0).map(|n| normalize(self.lang, &n));
        let name = name.as_deref().unwrap_or("");
        let direct: Option<(Option<&Expr>, Vec<Expr>)> = match (self.lang, name) {
            (Lang::Php, n)
                if matches!(
                    n.to_ascii_lowercase().as_str(),
                    "call_user_func" | "register_shutdown_function"
                ) =>
            {
                Some((args.first(), args.iter().skip(1).cloned().collect()))
            }
            (Lang::Php, n) if n.eq_ignore_ascii_case("call_user_func_array") => Some((
                args.first(),
                match args.get(1) {
                    Some(Expr::List(items)) => items.clone(),
                    _ => vec![Expr::Dyn],
                },
            )),
            (Lang::Python, "functools.partial" | "partial") => {
                Some((args.first(), args.iter().skip(1).cloned().collect()))
            }
            (Lang::Python, "threading.Thread" | "threading.Timer" | "multiprocessing.Process") => {
                let target = kwargs.iter().find(|(k, _)| k == "target").map(|(_, v)| v);
                let a = match kwargs.iter().find(|(k, _)| k == "args").map(|(_, v)| v) {
                    Some(Expr::List(items)) => items.clone(),
                    Some(_) => vec![Expr::Dyn],
                    None => Vec::new(),
                };
                Some((target, a))
            }
            _ => None,
        };
        let (f, arg_lists) = if let Some((f, a)) = direct {
            (f, vec![a])
        } else if let Some((f, coll)) = self.higher_order(callee, args) {
            let element = coll.map_or(Expr::Dyn, |c| self.element(c));
            (f, vec![vec![element]])
        } else {
            return false;
        };
        let Some(target) = f.and_then(|f| self.callable(f)) else {
            return false;
        };
        let enumerated = match self.higher_order(callee, args) {
            Some((_, Some(coll))) => self.enumerates_processes(coll, 0),
            _ => false,
        };
        for a in arg_lists {
            let synth = Expr::Call {
                callee: Box::new(target.clone()),
                args: a,
                kwargs: Vec::new(),
            };
            if enumerated
                && let Some(Api::Kill(_)) = qualify(&target, &self.env, 0)
                    .and_then(|c| api(self.lang, &normalize(self.lang, &c.name)))
            {
                self.kill_all(node, out);
            }
            self.call(&synth, node, hops + 1, out);
        }
        true
    }

    /// One element of a collection, as a value: the pattern of a glob (`glob('~/.aws/*')`,
    /// `Dir.glob`, `glob.glob`), `DIR/*` for a directory listing (`os.listdir`,
    /// `fs.readdirSync`, `scandir`, `Dir.children`), the item of a one-item literal list, the
    /// collection a filter or sort passes through; anything else is a run-time value.
    fn element(&self, coll: &Expr) -> Expr {
        self.element_at(coll, 0)
    }

    fn element_at(&self, coll: &Expr, hops: usize) -> Expr {
        if hops > MAX_HOPS {
            return Expr::Dyn;
        }
        match coll {
            Expr::Name(n) => self
                .env
                .vars
                .get(n)
                .map_or(Expr::Dyn, |v| self.element_at(v, hops + 1)),
            // Perl flattens lists: `for (glob …)` iterates over what `glob` returns.
            Expr::List(items) if items.len() == 1 => match &items[0] {
                c @ Expr::Call { .. } if self.lang == Lang::Perl => self.element_at(c, hops + 1),
                item => item.clone(),
            },
            Expr::Call { callee, args, .. } => {
                let c = qualify(callee, &self.env, 0);
                let name = c.as_ref().map(|c| normalize(self.lang, &c.name));
                let first = || args.first().and_then(|a| static_str(a, &self.env, 0));
                match name.as_deref().unwrap_or("") {
                    "glob.glob" | "glob.iglob" | "glob" | "Dir.glob" | "Dir.[]" => {
                        first().map_or(Expr::Dyn, Expr::Str)
                    }
                    // PHP's SPL walk: `new RecursiveIteratorIterator(new
                    // RecursiveDirectoryIterator($d))` yields the entries under `$d`.
                    "RecursiveIteratorIterator" | "IteratorIterator" => args
                        .first()
                        .map_or(Expr::Dyn, |a| self.element_at(a, hops + 1)),
                    "os.listdir"
                    | "os.scandir"
                    | "fs.readdirSync"
                    | "fs.readdir"
                    | "scandir"
                    | "Dir.children"
                    | "Dir.entries"
                    | "Dir.each_child"
                    | "Deno.readDirSync"
                    | "Deno.readDir"
                    | "RecursiveDirectoryIterator"
                    | "DirectoryIterator"
                    | "FilesystemIterator" => {
                        let dir = if args.is_empty() {
                            Some(".".to_owned())
                        } else {
                            first()
                        };
                        dir.map_or(Expr::Dyn, |d| Expr::Str(join_paths(&[d, "*".into()])))
                    }
                    "sorted" | "list" | "reversed" | "set" | "tuple" | "array_values"
                    | "array_filter" | "array_unique" | "Array.from" => args
                        .first()
                        .map_or(Expr::Dyn, |a| self.element_at(a, hops + 1)),
                    "grep" | "map" | "sort" | "reverse" if self.lang == Lang::Perl => {
                        self.element_at(&Expr::List(args.clone()), hops + 1)
                    }
                    "filter" | "itertools.filterfalse" => args
                        .get(1)
                        .map_or(Expr::Dyn, |a| self.element_at(a, hops + 1)),
                    // `x.filter(…)`, `x.select { … }`, `x.sort`: the receiver's elements.
                    n if matches!(
                        n.rsplit('.').next(),
                        Some("filter" | "select" | "reject" | "sort" | "uniq" | "slice" | "to_a")
                    ) =>
                    {
                        match callee.as_ref() {
                            Expr::Attr(o, _) => self.element_at(o, hops + 1),
                            _ => Expr::Dyn,
                        }
                    }
                    _ => Expr::Dyn,
                }
            }
            _ => Expr::Dyn,
        }
    }

    /// True when `e` lists every process: `psutil.process_iter()`, `psutil.pids()`, a
    /// listing of `/proc` (`os.listdir('/proc')`, `glob('/proc/[0-9]*')`,
    /// `fs.readdirSync('/proc')`, `Dir.children('/proc')`), or a value computed from one.
    fn enumerates_processes(&self, e: &Expr, hops: usize) -> bool {
        if hops > MAX_HOPS {
            return false;
        }
        let h = hops + 1;
        match e {
            Expr::Name(n) => self
                .env
                .vars
                .get(n)
                .is_some_and(|v| self.enumerates_processes(v, h)),
            Expr::Attr(o, _) | Expr::Index(o, _) => self.enumerates_processes(o, h),
            Expr::List(xs) | Expr::Concat(xs) => xs.iter().any(|x| self.enumerates_processes(x, h)),
            Expr::Call { callee, args, .. } => {
                let name = qualify_name(callee, &self.env, 0).map(|n| normalize(self.lang, &n));
                if name
                    .as_deref()
                    .is_some_and(|n| matches!(n, "psutil.process_iter" | "psutil.pids"))
                {
                    return true;
                }
                if matches!(self.element(e), Expr::Str(p) if is_proc_listing(&p)) {
                    return true;
                }
                // The output of `ps -e`/`ps aux` (`os.popen('ps -eo pid=').read().split()`,
                // `check_output(['ps', '-A', '-o', 'pid'])`): every process's PID.
                if let Some(n) = name.as_deref()
                    && matches!(api(self.lang, n), Some(Api::Spawn(_) | Api::SpawnArgv(_)))
                    && args.first().is_some_and(|a| self.lists_all_processes(a))
                {
                    return true;
                }
                // `Path('/proc').iterdir()`.
                if let Some(c) = qualify(callee, &self.env, 0)
                    && c.name.starts_with("pathlib.Path()")
                    && matches!(c.name.rsplit('.').next(), Some("iterdir" | "glob"))
                    && c.receiver
                        .first()
                        .and_then(|r| static_str(r, &self.env, 0))
                        .is_some_and(|p| p.trim_end_matches('/') == "/proc")
                {
                    return true;
                }
                self.enumerates_processes(callee, h)
                    || args.iter().any(|a| self.enumerates_processes(a, h))
            }
            _ => false,
        }
    }

    /// True when a spawned command (a string or an argv list) is `ps` selecting every
    /// process (`-e`, `-A`, BSD `ax`/`aux`).
    fn lists_all_processes(&self, cmd: &Expr) -> bool {
        let words: Vec<String> = match cmd {
            Expr::List(items) => items
                .iter()
                .filter_map(|i| static_str(i, &self.env, 0))
                .collect(),
            other => static_str(other, &self.env, 0)
                .map(|s| s.split_whitespace().map(str::to_owned).collect())
                .unwrap_or_default(),
        };
        let Some((first, rest)) = words.split_first() else {
            return false;
        };
        first.rsplit('/').next() == Some("ps")
            && rest.iter().any(|w| {
                let flags = w.trim_start_matches('-');
                (w.starts_with('-') && !w.starts_with("--") && flags.contains(['e', 'A']))
                    || (!w.starts_with('-') && flags.contains('a') && flags.contains('x'))
            })
    }

    /// True when `e` is computed from a name bound to an element of every process
    /// (`int(p)`, `p.pid`, `p.info['pid']`, `(int)$p`).
    fn mentions_proc(&self, e: &Expr, hops: usize) -> bool {
        if hops > MAX_HOPS {
            return false;
        }
        let h = hops + 1;
        match e {
            Expr::Name(n) => self.env.procs.iter().any(|p| p == n),
            Expr::Attr(o, _) => self.mentions_proc(o, h),
            Expr::Index(a, b) | Expr::Join(a, b) => {
                self.mentions_proc(a, h) || self.mentions_proc(b, h)
            }
            Expr::List(xs) | Expr::Concat(xs) => xs.iter().any(|x| self.mentions_proc(x, h)),
            Expr::Call { callee, args, .. } => {
                self.mentions_proc(callee, h) || args.iter().any(|a| self.mentions_proc(a, h))
            }
            _ => false,
        }
    }

    /// A signal sent to every process the enumeration lists: judged as the shell's
    /// `kill -9 -1`, unless the call sits under a condition that selects processes (by
    /// name, command line, user: `if p.info['name'] == 'node'`), which is `pkill NAME`'s
    /// targeted kill and left to it. A condition that only checks that a `/proc` entry is
    /// numeric selects nothing.
    fn kill_all(&self, node: Option<Node<'_>>, out: &mut Vec<Finding>) {
        if node.is_some_and(|n| selects_processes(n, self.src)) {
            return;
        }
        let f = Finding::Shell {
            code: "kill -9 -1".to_owned(),
            exact: true,
        };
        if !out.contains(&f) {
            out.push(f);
        }
    }

    /// The path a call fills with data from the network, for download-then-run inside one
    /// program: a download API's destination (`urlretrieve(u, p)`, `getstore(u, p)`,
    /// `wget.download(u, out=p)`), a file write (`open(p, 'wb').write(…)`, `File.write(p, …)`,
    /// `file_put_contents(p, …)`, `fs.writeFileSync(p, …)`, a copy to `p`) whose data is
    /// read from the network, `res.pipe(fs.createWriteStream(p))` from a response, or a
    /// write inside a callback or block of a network call (`https.get(u, r => …)`,
    /// `URI.open(u) { |r| … }`).
    fn download_target(
        &self,
        name: &str,
        c: &Callee,
        callee: &Expr,
        args: &[Expr],
        kwargs: &[(String, Expr)],
        node: Option<Node<'_>>,
    ) -> Option<String> {
        let env = &self.env;
        let kw = |k: &str, i: usize| {
            kwargs
                .iter()
                .find(|(n, _)| n == k)
                .map(|(_, v)| v)
                .or_else(|| args.get(i))
                .and_then(|e| static_str(e, env, 0))
        };
        match name {
            "urllib.request.urlretrieve" | "urllib.urlretrieve" => return kw("filename", 1),
            "wget.download" => return kw("out", 1),
            "LWP.Simple.getstore" | "LWP.Simple.mirror" | "getstore" | "mirror" => {
                return kw("", 1);
            }
            _ => {}
        }
        let networked = |data: Vec<&Expr>| {
            data.into_iter()
                .any(|e| self.fetches(e, 0) || static_str(e, env, 0).is_some_and(|u| is_url(&u)))
                || node.is_some_and(|n| self.in_network_call(n))
        };
        // `.pipe(fs.createWriteStream(p))` on a response.
        if let Expr::Attr(recv, m) = callee
            && m == "pipe"
        {
            let dst = args.first().and_then(|a| self.write_target(a))?;
            return (self.fetches(recv, 0) || node.is_some_and(|n| self.in_network_call(n)))
                .then_some(dst);
        }
        // `open(p, 'wb').write(data)`, `f.write(data)` with `f` an opened file.
        if let Some(prefix) = ["write", "writelines", "write_bytes", "write_text", "end"]
            .iter()
            .find_map(|m| c.name.strip_suffix(&format!("().{m}")))
            && matches!(
                api(self.lang, &normalize(self.lang, prefix)),
                Some(Api::Open { .. } | Api::Op(Write, _))
            )
        {
            let p = c.receiver.first().and_then(|r| static_str(r, env, 0))?;
            return networked(args.iter().collect()).then_some(p);
        }
        match api(self.lang, name)? {
            Api::Op(Write, Arg::Pos(i)) => {
                let p = args.get(i).and_then(|e| static_str(e, env, 0))?;
                let data = args
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != i)
                    .map(|(_, e)| e)
                    .chain(kwargs.iter().map(|(_, v)| v));
                networked(data.collect()).then_some(p)
            }
            Api::Op(Write, Arg::Recv) => {
                let p = c.receiver.first().and_then(|r| static_str(r, env, 0))?;
                networked(args.iter().collect()).then_some(p)
            }
            Api::Copy(Arg::Pos(s), Arg::Pos(d)) => {
                let dst = args.get(d).and_then(|e| self.write_target(e))?;
                networked(args.get(s).into_iter().collect()).then_some(dst)
            }
            _ => None,
        }
    }

    /// The file a value writes to: a literal path, or an opened-for-write file
    /// (`open(p, 'wb')`, `fs.createWriteStream(p)`, `File.open(p, 'wb')`).
    fn write_target(&self, e: &Expr) -> Option<String> {
        if let Some(p) = static_str(e, &self.env, 0) {
            return Some(p);
        }
        let mut v = e;
        for _ in 0..MAX_HOPS {
            match v {
                Expr::Name(n) => v = self.env.vars.get(n)?,
                _ => break,
            }
        }
        let Expr::Call {
            callee,
            args,
            kwargs,
        } = v
        else {
            return None;
        };
        let name = normalize(self.lang, &qualify_name(callee, &self.env, 0)?);
        match api(self.lang, &name)? {
            Api::Op(Write, Arg::Pos(i)) => args.get(i).and_then(|a| static_str(a, &self.env, 0)),
            Api::Open {
                path: Arg::Pos(i) | Arg::Kw(_, i),
                ..
            } => {
                let _ = kwargs;
                args.get(i).and_then(|a| static_str(a, &self.env, 0))
            }
            _ => None,
        }
    }

    /// True when `node` sits inside the arguments, callback or block of a call that reads
    /// the network (`https.get(u, res => …)`, `fetch(u).then(b => …)`,
    /// `URI.open(u) { |r| … }`): what it writes there came from the response.
    fn in_network_call(&self, node: Node<'_>) -> bool {
        let mut cur = node.parent();
        for _ in 0..24 {
            let Some(n) = cur else { return false };
            if matches!(
                n.kind(),
                "call" | "call_expression" | "function_call_expression" | "member_call_expression"
            ) {
                let lowered = self.lower(n, 0);
                if let Expr::Call { callee, args, .. } = &lowered {
                    let head = Expr::Call {
                        callee: callee.clone(),
                        args: args
                            .iter()
                            .filter(|a| matches!(a, Expr::Str(_)))
                            .cloned()
                            .collect(),
                        kwargs: Vec::new(),
                    };
                    if self.fetches(&head, 0) {
                        return true;
                    }
                }
            }
            cur = n.parent();
        }
        false
    }

    // ------------------------------------------------------------------ calls

    fn call(&self, call: &Expr, node: Option<Node<'_>>, hops: usize, out: &mut Vec<Finding>) {
        let Expr::Call {
            callee,
            args,
            kwargs,
        } = call
        else {
            return;
        };
        // A method that signals a process object (`p.kill()`, `proc.terminate()`) whose
        // receiver is an element of an enumeration of every process.
        if let Expr::Attr(obj, m) = callee.as_ref()
            && matches!(m.as_str(), "kill" | "terminate" | "send_signal" | "suspend")
            && self.mentions_proc(obj, 0)
        {
            self.kill_all(node, out);
        }
        // Ruby's `obj.send(:m, a…)` / `public_send` / `__send__`, with a literal method name,
        // is `obj.m(a…)`: judged as the call it makes, not as dynamic code.
        if hops < MAX_HOPS
            && let Some(synth) = sent_call(callee, args, kwargs, &self.env)
        {
            self.call(&synth, node, hops + 1, out);
            return;
        }
        // Functions passed by name or as values (`array_map('unlink', …)`,
        // `map(os.remove, …)`, `files.forEach(fs.unlinkSync)`, `.each(&File.method(:delete))`):
        // each application is judged as the call it is.
        if hops < MAX_HOPS && self.applies_callable(callee, args, kwargs, node, hops, out) {
            return;
        }
        let Some(c) = qualify(callee, &self.env, 0) else {
            return;
        };
        let mut name = normalize(self.lang, &c.name);
        // A bare call may be a method of a module mixed in with `include` (Ruby).
        if matches!(callee.as_ref(), Expr::Name(_))
            && api(self.lang, &name).is_none()
            && let Some(mixed) = self
                .env
                .included
                .iter()
                .map(|m| format!("{m}.{name}"))
                .find(|n| api(self.lang, n).is_some())
        {
            name = mixed;
        }
        let env = &self.env;
        // `import('https://…')` (Deno, Bun) fetches a module and runs it.
        if self.lang == Lang::Node
            && name == "require"
            && args.first().is_some_and(|a| url_prefixed(a, env, 0))
        {
            out.push(Finding::FetchEval {
                call: "import".to_owned(),
            });
            return;
        }
        // `__import__('shutil')`, `importlib.import_module('os')` with a literal name import
        // a module; what is called on it is judged by name (see `qualify`).
        if matches!(name.as_str(), "__import__" | "importlib.import_module")
            && args.first().and_then(|a| static_str(a, env, 0)).is_some()
        {
            return;
        }
        // `getattr(os, 'remove')` with a literal name is the attribute itself (see `qualify`).
        if name == "getattr" && args.get(1).and_then(|a| static_str(a, env, 0)).is_some() {
            return;
        }
        let arg = |a: Arg| -> Option<&Expr> {
            match a {
                Arg::Pos(i) => args.get(i),
                Arg::Recv => c.receiver.first(),
                Arg::Kw(k, i) => kwargs
                    .iter()
                    .find(|(n, _)| n == k)
                    .map(|(_, v)| v)
                    .or_else(|| args.get(i)),
            }
        };
        let path_of = |a: Arg| arg(a).and_then(|e| static_str(e, env, 0));
        // `AutoModel.from_pretrained('someone/model', trust_remote_code=True)`,
        // `load_dataset(…, trust_remote_code=True)`, `pipeline(…, trust_remote_code=True)`:
        // Hugging Face's loaders then import the Python files of the repository they fetch —
        // code from the hub, run unread. Not when the source is a literal local directory
        // (`./checkpoints/x`, `/models/x`): its code is already on this machine.
        if self.lang == Lang::Python
            && kwargs
                .iter()
                .any(|(k, v)| k == "trust_remote_code" && last_name(v) == Some("True"))
            && !args
                .first()
                .or_else(|| {
                    kwargs
                        .iter()
                        .find(|(k, _)| k == "pretrained_model_name_or_path" || k == "path")
                        .map(|(_, v)| v)
                })
                .and_then(|e| static_str(e, env, 0))
                .is_some_and(|p| p.starts_with(['.', '/', '~']))
        {
            out.push(Finding::FetchEval {
                call: format!("{name}(trust_remote_code=True)"),
            });
        }
        // `torch.hub.load('someone/repo', 'model')` (and `.list`, `.help`): with the default
        // `source='github'` torch downloads the repository and imports its `hubconf.py` — code
        // from GitHub, run unread. `source='local'` or a literal local directory loads code
        // already on this machine.
        if self.lang == Lang::Python
            && matches!(
                name.as_str(),
                "torch.hub.load" | "torch.hub.list" | "torch.hub.help"
            )
            && kwargs
                .iter()
                .find(|(k, _)| k == "source")
                .and_then(|(_, v)| static_str(v, env, 0))
                .is_none_or(|s| s != "local")
            && !args
                .first()
                .or_else(|| {
                    kwargs
                        .iter()
                        .find(|(k, _)| k == "repo_or_dir" || k == "github")
                        .map(|(_, v)| v)
                })
                .and_then(|e| static_str(e, env, 0))
                .is_some_and(|p| p.starts_with(['.', '/', '~']))
        {
            out.push(Finding::FetchEval { call: name.clone() });
        }
        if let Some(path) = self.download_target(&name, &c, callee, args, kwargs, node) {
            out.push(Finding::Downloaded { path });
        }
        // `fetch(u).then(r => r.text()).then(eval)`: `eval` handed over as a function.
        if args
            .iter()
            .any(|a| matches!(a, Expr::Name(n) if is_dynamic_name(self.lang, n) && !env.vars.contains_key(n)))
        {
            if self.fetches(callee, 0) {
                out.push(Finding::FetchEval { call: name.clone() });
            } else {
                out.push(Finding::Dynamic("passes an evaluator as a function"));
            }
        }
        // The environment dumped through a method (`ENV.to_h`, `ENV.inspect`, `getenv()`,
        // `Deno.env.toObject()`) inside any argument, or a credential variable written to a
        // stream (`sock.write(…)`, `print $s $ENV{TOKEN}`): one-liners that also reach the
        // network send it.
        let written = match callee.as_ref() {
            // `sock.write(…)`, `TCPSocket.new(…).puts(…)`, `ua->post(…)`.
            Expr::Attr(obj, m) => is_data_sink_method(m) && self.is_connection(obj, 0),
            // `print $sock …`, `fwrite($s, …)`: the stream is the first argument.
            _ => {
                is_data_sink_method(&name) && args.first().is_some_and(|a| self.is_connection(a, 0))
            }
        };
        if let Some(source) = args
            .iter()
            .chain(kwargs.iter().map(|(_, v)| v))
            .filter(|a| !is_environ(a, env))
            .find_map(|a| env_source(a, env, 0))
        {
            if written || matches!(source, crate::model::FlowSource::Environment { .. }) {
                out.push(Finding::Source(source));
            } else if prints_to_stdout(self.lang, &name)
                && let Some(shown) = args
                    .iter()
                    .chain(kwargs.iter().map(|(_, v)| v))
                    .filter(|a| !is_environ(a, env) && !is_measure(a))
                    .find_map(|a| env_source(a, env, 0))
            {
                // `print(len(os.environ['TOKEN']))` prints a length, as `${#TOKEN}` does.
                out.push(Finding::Printed(shown));
            }
        }
        // The whole environment handed to any call (`dict(os.environ)`, `JSON.stringify(
        // process.env)`): one-liners that also reach the network send it.
        if args.iter().any(|a| is_environ(a, env)) {
            out.push(Finding::Source(crate::model::FlowSource::Environment {
                by: qualify(
                    args.iter()
                        .find(|a| is_environ(a, env))
                        .unwrap_or(&Expr::Dyn),
                    env,
                    0,
                )
                .map_or_else(|| "the environment".to_owned(), |c| c.name),
            }));
        }
        let Some(api) = api(self.lang, &name).or_else(|| unknown_receiver_api(self.lang, &name))
        else {
            if is_dynamic_name(self.lang, &name) {
                self.dynamic(&name, args, out);
            }
            return;
        };
        match api {
            // `file_get_contents('http://…?k=' . getenv('TOKEN'))`, `open(url)`: a file API
            // given a URL reads the network, and what the URL carries is sent.
            Api::Op(EffectOp::Read, a) if arg(a).is_some_and(|e| url_prefixed(e, env, 0)) => {
                out.push(eff(EffectOp::Network, path_of(a), false));
                if let Some(source) = arg(a).and_then(|e| env_source(e, env, 0)) {
                    out.push(Finding::Exfil {
                        source,
                        call: name.clone(),
                    });
                }
            }
            Api::Op(op, a) => {
                let p = path_of(a);
                // `Deno.remove(p, {recursive: true})`, `fs.rmdirSync(p, {recursive: true})`:
                // the options make a one-entry delete a tree delete.
                let recursive = op == EffectOp::Delete
                    && args.iter().any(|e| {
                        matches!(e, Expr::Object(kv) if kv.iter().any(|(k, v)| {
                            k == "recursive" && !matches!(v, Expr::Name(f) if f == "false")
                        }))
                    });
                out.push(eff(op, p, recursive));
            }
            Api::Each(op, from) => {
                let mut targets: Vec<&Expr> = args.iter().skip(from).collect();
                // Perl's `unlink` with no arguments works on `$_` (`unlink for glob …`).
                if targets.is_empty()
                    && self.lang == Lang::Perl
                    && let Some(topic) = env.vars.get("$_")
                {
                    targets.push(topic);
                }
                if targets.is_empty() {
                    out.push(eff(op, None, false));
                }
                for t in targets {
                    for p in flatten(t, env) {
                        let v = static_str(p, env, 0);
                        out.push(eff(op, v, false));
                    }
                }
            }
            Api::Tree(a) => {
                let targets: Vec<&Expr> = match a {
                    Arg::Pos(0) if self.lang == Lang::Perl => args
                        .iter()
                        .filter(|a| !matches!(a, Expr::Object(_)))
                        .collect(),
                    _ => arg(a).into_iter().collect(),
                };
                if targets.is_empty() {
                    out.push(eff(EffectOp::Delete, None, true));
                }
                for t in targets {
                    for p in flatten(t, env) {
                        let v = static_str(p, env, 0);
                        out.push(eff(EffectOp::Delete, v, true));
                    }
                }
            }
            Api::Open { path, mode, write } => {
                let p = path_of(path);
                let op = match arg(mode).map(|m| static_str(m, env, 0)) {
                    None => write,
                    Some(Some(m)) => {
                        if m.contains(['w', 'a', 'x', '+'])
                            || m.contains("O_WRONLY")
                            || m.contains("O_RDWR")
                        {
                            EffectOp::Write
                        } else {
                            EffectOp::Read
                        }
                    }
                    // A mode computed at run time may write.
                    Some(None) => EffectOp::Write,
                };
                out.push(eff(op, p, false));
            }
            Api::PerlOpen => self.perl_open(args, out),
            Api::Copy(src, dst) => {
                let s = path_of(src);
                let d = path_of(dst);
                out.push(eff(EffectOp::Read, s, false));
                out.push(eff(EffectOp::Write, d, false));
            }
            Api::Move(src, dst) => {
                let s = path_of(src);
                let d = path_of(dst);
                out.push(eff(EffectOp::Move, s, false));
                out.push(eff(EffectOp::Write, d, false));
            }
            // Perl's and Ruby's `system("rm", "-rf", "/x")`, PHP's `pcntl_exec`: several
            // arguments are the argv itself (a leading environment hash is skipped).
            Api::Spawn(Pos(0))
                if matches!(self.lang, Lang::Perl | Lang::Ruby)
                    && args
                        .iter()
                        .filter(|a| !matches!(a, Expr::Object(_)))
                        .count()
                        > 1
                    && !matches!(args.get(1), Some(Expr::List(_))) =>
            {
                let list = Expr::List(
                    args.iter()
                        .filter(|a| !matches!(a, Expr::Object(_)))
                        .cloned()
                        .collect(),
                );
                self.spawn(Some(&list), None, out);
            }
            Api::Spawn(a) => {
                // PHP's second argument is descriptors or a mode (`proc_open(cmd, [], $p)`,
                // `popen(cmd, 'r')`), not arguments; only `pcntl_exec(path, args)` has them.
                let rest = match a {
                    _ if self.lang == Lang::Php && name != "pcntl_exec" => None,
                    Pos(i) => args.get(i + 1),
                    _ => args.get(1),
                };
                self.spawn(arg(a), rest, out);
            }
            Api::SpawnArgv(from) => {
                let list = Expr::List(args.iter().skip(from).cloned().collect());
                self.spawn(Some(&list), None, out);
            }
            Api::Load(a) => {
                // `CDLL(None)` is the running program itself (`dlopen(NULL)`), no file.
                let own = node
                    .and_then(|n| field(n, "arguments"))
                    .and_then(|l| named_children(l).into_iter().next())
                    .is_some_and(|f| matches!(f.kind(), "none" | "null" | "nil"));
                if !own && path_of(a).is_none_or(|p| p.contains('/')) {
                    out.push(Finding::Dynamic(
                        "loads a native library from a file (code the guard cannot read)",
                    ));
                }
            }
            Api::Network(a) => {
                let p = path_of(a);
                out.push(eff(EffectOp::Network, p, false));
                // Credentials are sent where they belong in headers and auth parameters.
                let mut data = args.iter().chain(
                    kwargs
                        .iter()
                        .filter(|(k, _)| !is_auth_key(k))
                        .map(|(_, v)| v),
                );
                if let Some(source) = data.find_map(|e| env_source(e, env, 0)) {
                    out.push(Finding::Exfil {
                        source,
                        call: name.clone(),
                    });
                }
            }
            Api::PutEnv => {
                let v = args.first().and_then(|e| static_str(e, env, 0));
                let name = v.map(|s| s.split('=').next().unwrap_or("").to_owned());
                out.push(eff(EffectOp::SetEnv, name, false));
            }
            Api::SetEnvKw => {
                if let Some(first) = args.first() {
                    let n = static_str(first, env, 0);
                    out.push(eff(EffectOp::SetEnv, n, false));
                }
                for (k, _) in kwargs {
                    out.push(eff(EffectOp::SetEnv, Some(k.clone()), false));
                }
                if args.is_empty() && kwargs.is_empty() {
                    out.push(eff(EffectOp::SetEnv, None, false));
                }
            }
            Api::Eval => self.dynamic(&name, args, out),
            Api::Deserialize(unsafe_when) => {
                let value = |kw: &str, pos: Option<usize>| {
                    kwargs
                        .iter()
                        .find(|(k, _)| k == kw)
                        .map(|(_, v)| v)
                        .or_else(|| pos.and_then(|p| args.get(p)))
                        .and_then(last_name)
                };
                let runs_code = match unsafe_when {
                    Unsafe::Always => true,
                    Unsafe::Unless(kw, pos, safe) => {
                        !value(kw, pos).is_some_and(|v| safe.contains(&v))
                    }
                    Unsafe::When(kw, values) => {
                        value(kw, None).is_some_and(|v| values.contains(&v))
                    }
                };
                // The data is fetched: a network call's result, a URL the loader opens, or a
                // file this program downloaded before (`urlretrieve(u, p)` then
                // `torch.load(p)`, `pickle.load(open(p, 'rb'))`).
                let downloaded = |e: &Expr| {
                    let path = match e {
                        Expr::Call { callee, args, .. }
                            if qualify(callee, env, 0).is_some_and(|c| {
                                matches!(c.name.as_str(), "open" | "io.open" | "builtins.open")
                            }) =>
                        {
                            args.first()
                        }
                        other => Some(other),
                    };
                    path.and_then(|p| static_str(p, env, 0)).is_some_and(|p| {
                        self.out
                            .iter()
                            .chain(out.iter())
                            .any(|f| matches!(f, Finding::Downloaded { path } if *path == p))
                    })
                };
                let fetched = args.iter().any(|a| self.fetches(a, 0))
                    || args
                        .first()
                        .and_then(|a| static_str(a, env, 0))
                        .is_some_and(|u| is_url(&u))
                    || args.first().is_some_and(downloaded);
                if runs_code && fetched {
                    out.push(Finding::FetchEval { call: name.clone() });
                }
            }
            // `os.kill(1, 9)`, `process.kill(-1)`, `Process.kill(:KILL, 0)`: the same targets
            // as the shell's `kill`, judged by the shell's rules (PID 1, 0, -1).
            Api::Kill(a) => {
                let from = match a {
                    Pos(i) => i,
                    _ => 0,
                };
                if args.iter().skip(from).any(|e| self.mentions_proc(e, 0)) {
                    self.kill_all(node, out);
                }
                // `os.killpg(os.getpgrp(), …)`: the caller's own group, as `killpg(0, …)`.
                let own_group = name == "os.killpg"
                    && args.first().is_some_and(|e| {
                        matches!(e, Expr::Call { callee, .. }
                        if qualify(callee, env, 0).is_some_and(|c| {
                            matches!(c.name.as_str(), "os.getpgrp" | "os.getpgid")
                        }))
                    });
                if own_group {
                    out.push(Finding::Shell {
                        code: "kill -9 -- 0".to_owned(),
                        exact: true,
                    });
                }
                for pid in args.iter().skip(from).filter_map(|e| static_str(e, env, 0)) {
                    if matches!(pid.as_str(), "1" | "0" | "-1") {
                        out.push(Finding::Shell {
                            code: format!("kill -9 -- {pid}"),
                            exact: true,
                        });
                    }
                }
            }
            Api::Database(a) => {
                // A database opened from code may be written (`.execute('delete …')`)
                // unless it is opened read-only by URI (`file:x.db?mode=ro`).
                let (op, p) = match path_of(a) {
                    Some(uri) if uri.starts_with("file:") => {
                        let rest = &uri["file:".len()..];
                        let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
                        let ro = query.split('&').any(|kv| kv == "mode=ro");
                        (if ro { Read } else { Write }, Some(path.to_owned()))
                    }
                    other => (Write, other),
                };
                out.push(eff(op, p, false));
            }
        }
    }

    /// A database driver call (`execute`, `executescript`, `exec`, `query`, `prepare`, `run`)
    /// whose literal SQL drops, truncates or empties tables (`interp::scan_sql`).
    fn destructive_sql(&self, call: &Expr) -> Option<DestructiveSql> {
        let Expr::Call { callee, args, .. } = call else {
            return None;
        };
        let Expr::Attr(receiver, method) = callee.as_ref() else {
            return None;
        };
        // A connection or cursor a networked client library made (`psycopg2.connect(…)`,
        // `pymysql`, `sqlalchemy`): its database is not a file of the snippet's.
        let networked = || {
            qualify(receiver, &self.env, 0).is_some_and(|c| {
                crate::sdk::client_family(&normalize(self.lang, &c.name)).is_some()
            })
        };
        // ORM schema drops: Flask-SQLAlchemy/SQLAlchemy `drop_all`, TypeORM `dropDatabase`.
        if matches!(
            method.as_str(),
            "drop_all" | "dropDatabase" | "drop_database" | "dropAllTables" | "dropSchema"
        ) {
            return Some(DestructiveSql {
                call: format!("{method}()"),
                networked: networked(),
            });
        }
        if !matches!(
            method.as_str(),
            "execute"
                | "executescript"
                | "executemany"
                | "exec"
                | "query"
                | "prepare"
                | "run"
                | "raw"
                | "exec_query"
                | "execute_batch"
                | "exec_driver_sql"
                | "sql"
        ) {
            return None;
        }
        let sql = static_str(args.first()?, &self.env, 0)?;
        (crate::interp::scan_sql(&sql) != crate::interp::SqlRisk::None).then(|| DestructiveSql {
            call: format!("{method}({sql:?})"),
            networked: networked(),
        })
    }

    /// Records (or clears) the client a loop variable's collection came from.
    fn note_origin(&mut self, name: &str, collection: &Expr) {
        let origin = qualify(collection, &self.env, 0)
            .map(|c| normalize(self.lang, &c.name))
            .filter(|n| crate::sdk::client_family(n).is_some());
        match origin {
            Some(o) => {
                self.env.origins.insert(name.to_owned(), o);
            }
            None => {
                self.env.origins.remove(name);
            }
        }
    }

    /// A call that destroys or replaces something on a remote service (see [`crate::sdk`]):
    /// an HTTP client's DELETE/PUT/PATCH, or a destroying method of a networked client
    /// library — on a value the client made, or on a loop variable over a collection it
    /// returned. A value the code built itself (a dict, a `Map`, a `Path`) is not a client.
    fn remote_call(&self, call: &Expr) -> Option<crate::sdk::Remote> {
        use crate::sdk::{self as sdk, Remote};
        let Expr::Call {
            callee,
            args,
            kwargs,
        } = call
        else {
            return None;
        };
        if let Some(r) = self.http_call(callee, args, kwargs) {
            return Some(r);
        }
        let method = match callee.as_ref() {
            Expr::Attr(_, m) => m.as_str(),
            // `new DeleteBucketCommand({…})`, a destructured `deleteBucket(…)`.
            Expr::Name(n) => n.as_str(),
            _ => return None,
        };
        let name = qualify_name(callee, &self.env, 0).map(|n| normalize(self.lang, &n));
        let family = name.as_deref().and_then(sdk::client_family);
        let (family, shown) = if let (Some(f), Some(n)) = (family, name) {
            (f, n)
        } else {
            {
                // A loop variable over a client's collection: `b.objects.all().delete()`.
                let root = root_name(callee)?;
                let origin = self.env.origins.get(root)?;
                let f = sdk::client_family(origin)?;
                (f, format!("{origin}[…]{}", callee_tail(callee)))
            }
        };
        let method = method.rsplit([':', '>']).next().unwrap_or(method);
        // Redis clients' raw command calls (`execute_command('FLUSHALL')`,
        // `sendCommand(['FLUSHDB'])`, `call('flushall')`): the command word is the verb.
        let raw = (family == sdk::Family::Redis && sdk::raw_command_method(method))
            .then(|| {
                args.iter()
                    .flat_map(|a| flatten(a, &self.env))
                    .filter_map(|a| static_str(a, &self.env, 0))
                    .collect::<Vec<_>>()
            })
            .filter(|w| !w.is_empty());
        let (method, shown) = match &raw {
            Some(words) => (
                words.first().map_or("", String::as_str),
                format!("{shown}({})", words.join(" ")),
            ),
            None => (method, shown),
        };
        let acts = if family == sdk::Family::Industrial {
            sdk::actuating(method)
        } else {
            sdk::destroying(method, true)
        };
        if !acts {
            return None;
        }
        let mut endpoints = Vec::new();
        self.endpoints(callee, 0, &mut endpoints);
        // A raw command's words are the command, not database names.
        let names = args
            .iter()
            .filter(|_| raw.is_none())
            .filter_map(|a| static_str(a, &self.env, 0))
            .filter(|n| !n.is_empty() && !n.contains(char::is_whitespace))
            .collect();
        Some(Remote::Sdk {
            family,
            verb: method.to_owned(),
            call: shown,
            endpoints,
            names,
        })
    }

    /// The servers the client in a callee chain was made with (see
    /// [`crate::sdk::ENDPOINT_KEYS`]): URIs among a call's arguments, endpoint keywords and
    /// option fields, following variables the chain starts from. A positional argument known
    /// only at run time to a constructor (`Redis.from_url(os.environ['URL'])`,
    /// `new MongoClient(process.env.URI)`) is an endpoint that cannot be placed.
    fn endpoints(&self, e: &Expr, hops: usize, out: &mut Vec<Option<String>>) {
        if hops > MAX_HOPS {
            out.push(None);
            return;
        }
        let env = &self.env;
        let endpoint_key = |k: &str| crate::sdk::ENDPOINT_KEYS.contains(&k);
        match e {
            Expr::Name(n) => {
                if let Some(v) = env.vars.get(n) {
                    self.endpoints(v, hops + 1, out);
                }
            }
            Expr::Attr(o, _) => self.endpoints(o, hops + 1, out),
            Expr::Call {
                callee,
                args,
                kwargs,
            } => {
                self.endpoints(callee, hops + 1, out);
                let constructor = match callee.as_ref() {
                    Expr::Attr(_, m) | Expr::Name(m) => {
                        m.starts_with(|c: char| c.is_ascii_uppercase())
                            || matches!(
                                m.as_str(),
                                "from_url"
                                    | "fromUrl"
                                    | "connect"
                                    | "createClient"
                                    | "create_client"
                                    | "StrictRedis"
                                    | "new"
                            )
                    }
                    _ => false,
                };
                for (i, a) in args.iter().enumerate() {
                    match a {
                        Expr::Object(fields) => {
                            for (k, v) in fields {
                                if endpoint_key(k) {
                                    out.push(static_str(v, env, 0));
                                }
                            }
                        }
                        // `Mongo::Client.new(['db:27017'])`, `hosts=[…]` given positionally.
                        Expr::List(items) if constructor && i == 0 => {
                            out.extend(items.iter().map(|h| static_str(h, env, 0)));
                        }
                        Expr::List(_) => {}
                        other => match static_str(other, env, 0) {
                            Some(s) if s.contains("://") => out.push(Some(s)),
                            // `ModbusTcpClient('10.50.1.20')`, `LogixDriver('plc-3.lan')`:
                            // a constructor's first argument shaped as a host.
                            Some(s) if constructor && i == 0 && host_shaped(&s) => {
                                out.push(Some(s));
                            }
                            None if constructor && i == 0 => out.push(None),
                            Some(_) | None => {}
                        },
                    }
                }
                for (k, v) in kwargs {
                    if endpoint_key(k) {
                        out.push(static_str(v, env, 0));
                    }
                }
            }
            _ => {}
        }
    }

    /// An HTTP request whose method changes or deletes a resource: a client method named
    /// after it (`requests.delete(u)`, `axios.put(u, d)`), or a method given as data
    /// (`requests.request('DELETE', u)`, `Request(u, method='DELETE')`,
    /// `fetch(u, {method: 'DELETE'})`, `axios({method: 'delete', url: u})`,
    /// `Net::HTTP::Delete.new(path)`).
    fn http_call(
        &self,
        callee: &Expr,
        args: &[Expr],
        kwargs: &[(String, Expr)],
    ) -> Option<crate::sdk::Remote> {
        use crate::sdk::{self as sdk, Remote};
        let env = &self.env;
        let name = normalize(self.lang, &qualify_name(callee, env, 0)?);
        let last = name.rsplit('.').next().unwrap_or(&name);
        let str_at = |i: usize| args.get(i).and_then(|a| static_str(a, env, 0));
        let object_method = |e: &Expr| match e {
            Expr::Object(fields) => fields
                .iter()
                .find(|(k, _)| k == "method")
                .and_then(|(_, v)| static_str(v, env, 0)),
            _ => None,
        };
        let object_url = |e: &Expr| match e {
            Expr::Object(fields) => fields
                .iter()
                .find(|(k, _)| k == "url")
                .and_then(|(_, v)| static_str(v, env, 0)),
            _ => None,
        };
        let kw_method = kwargs
            .iter()
            .find(|(k, _)| k == "method")
            .and_then(|(_, v)| static_str(v, env, 0));
        let (method, url) = if matches!(name.as_str(), "axios" | "got" | "ky" | "superagent") {
            // `axios({method: 'delete', url})`: the module itself called with options.
            let o = args.iter().find(|a| matches!(a, Expr::Object(_)))?;
            (
                sdk::changing_method(&object_method(o)?)?,
                object_url(o).or_else(|| str_at(0)),
            )
        } else if sdk::http_client(&name) {
            if let Some(m) = sdk::method_of(last) {
                (m, str_at(0))
            } else if matches!(last, "request" | "request_async") {
                // `requests.request('DELETE', u)`, `axios.request({method, url})`,
                // `Net::HTTP::Delete.new(u)` is read below.
                match (str_at(0), args.first()) {
                    (Some(m), _) => (sdk::changing_method(&m)?, str_at(1)),
                    (None, Some(o)) => (sdk::changing_method(&object_method(o)?)?, object_url(o)),
                    (None, None) => (sdk::changing_method(&kw_method?)?, None),
                }
            } else if let Some(m) = name
                .strip_prefix("Net.HTTP.")
                .and_then(|r| r.strip_suffix(".new"))
            {
                (sdk::changing_method(m)?, str_at(0))
            } else {
                return None;
            }
        } else if matches!(
            name.as_str(),
            "fetch" | "window.fetch" | "globalThis.fetch" | "node-fetch" | "undici.fetch"
        ) {
            let m = args.get(1).and_then(object_method)?;
            (sdk::changing_method(&m)?, str_at(0))
        } else if matches!(
            name.as_str(),
            "urllib.request.Request" | "urllib2.Request" | "Request" | "requests.Request"
        ) {
            (sdk::changing_method(&kw_method?)?, str_at(0))
        } else {
            return None;
        };
        Some(Remote::Http {
            method: method.to_owned(),
            url,
            call: name,
        })
    }

    /// An ORM call that deletes every row of a table, or SQL run through a connection that
    /// drops or empties tables (see [`Parsers::bulk_delete`]).
    fn bulk_call(&self, call: &Expr) -> Option<String> {
        let Expr::Call { callee, args, .. } = call else {
            return None;
        };
        let name = qualify_name(callee, &self.env, 0)?;
        let last = name.rsplit(['.', ':', '>']).next().unwrap_or(&name);
        let bulk = match last {
            "delete_all" | "destroy_all" | "truncate" | "truncate_all" | "drop_table"
            | "drop_database" | "dropIfExists" | "dropAllTables" | "wipe" => true,
            // Django: `Model.objects.all().delete()`, not a filtered queryset's.
            "delete" => name.ends_with("objects.all().delete") || name.ends_with("objects.delete"),
            "execute" | "exec_query" | "exec_update" | "exec_delete" | "statement"
            | "unprepared" | "executescript" | "raw" => args
                .first()
                .and_then(|a| static_str(a, &self.env, 0))
                .is_some_and(|sql| crate::interp::scan_sql(&sql) != crate::interp::SqlRisk::None),
            _ => false,
        };
        bulk.then_some(name)
    }

    /// `eval("…")`/`exec("…")` of a literal is code in the same language (scanned again by
    /// the caller); of anything else it cannot be checked.
    fn dynamic(&self, name: &str, args: &[Expr], out: &mut Vec<Finding>) {
        let last = name.rsplit('.').next().unwrap_or(name);
        if args.iter().any(|a| self.fetches(a, 0)) {
            out.push(Finding::FetchEval {
                call: name.to_owned(),
            });
            return;
        }
        match args.first() {
            None => {}
            Some(e) if matches!(last, "eval" | "exec") => match static_str(e, &self.env, 0) {
                Some(code) => out.push(Finding::Code { code }),
                None => out.push(Finding::Dynamic("evaluates code built at run time")),
            },
            Some(_) => out.push(Finding::Dynamic("evaluates or decodes code at run time")),
        }
    }

    fn spawn(&self, cmd: Option<&Expr>, rest: Option<&Expr>, out: &mut Vec<Finding>) {
        let env = &self.env;
        // Options objects carry the argv: `new Deno.Command('sh', {args: [...]})`,
        // `Deno.run({cmd: [...]})`.
        let option = |e: Option<&Expr>, key: &str| match e {
            Some(Expr::Object(kv)) => kv.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone()),
            _ => None,
        };
        let cmd_list = option(cmd, "cmd");
        let cmd = cmd_list.as_ref().or(cmd);
        let args_list = option(rest, "args");
        let rest = args_list.as_ref().or(rest);
        let literal = match cmd {
            Some(Expr::List(items)) => items
                .iter()
                .map(|i| static_str(i, env, 0))
                .collect::<Option<Vec<String>>>()
                .map(|argv| crate::interp::shell_join(&argv)),
            Some(e) => static_str(e, env, 0).map(|program| match rest {
                // spawn('rm', ['-rf', '/']): program plus an argument list.
                Some(Expr::List(items)) => {
                    let mut argv = vec![program];
                    for i in items {
                        argv.push(static_str(i, env, 0).unwrap_or_else(|| "$DYNAMIC".into()));
                    }
                    crate::interp::shell_join(&argv)
                }
                _ => program,
            }),
            None => None,
        };
        if let Some(code) = literal {
            let exact = !code.contains("$DYNAMIC");
            out.push(Finding::Shell { code, exact });
        } else {
            out.push(eff(EffectOp::Spawn, None, false));
            out.push(Finding::Dynamic("runs a command built at run time"));
        }
    }

    /// Perl's `open(FH, MODE, PATH)` and two-argument `open(FH, '>PATH')`.
    fn perl_open(&self, args: &[Expr], out: &mut Vec<Finding>) {
        let env = &self.env;
        match args {
            [_, mode, path, ..] => {
                let m = static_str(mode, env, 0);
                let p = static_str(path, env, 0);
                match m.as_deref().map(str::trim) {
                    Some(m) if m.starts_with('|') || m.ends_with('|') || m == "-|" => {
                        self.spawn(Some(path), args.get(3), out);
                    }
                    Some(m) if m.starts_with('<') => out.push(eff(EffectOp::Read, p, false)),
                    _ => out.push(eff(EffectOp::Write, p, false)),
                }
            }
            [_, spec] => match static_str(spec, env, 0) {
                Some(s) => {
                    let t = s.trim();
                    if let Some(cmd) = t.strip_prefix('|') {
                        out.push(Finding::Shell {
                            code: cmd.trim().to_owned(),
                            exact: true,
                        });
                    } else if let Some(cmd) = t.strip_suffix('|') {
                        out.push(Finding::Shell {
                            code: cmd.trim().to_owned(),
                            exact: true,
                        });
                    } else if let Some(p) = t.strip_prefix("+<").or_else(|| t.strip_prefix('+')) {
                        out.push(eff(
                            EffectOp::Write,
                            Some(p.trim_start_matches(['<', '>']).trim().to_owned()),
                            false,
                        ));
                    } else if let Some(p) = t.strip_prefix('>') {
                        out.push(eff(
                            EffectOp::Write,
                            Some(p.trim_start_matches('>').trim().to_owned()),
                            false,
                        ));
                    } else {
                        let p = t.strip_prefix('<').unwrap_or(t).trim();
                        out.push(eff(EffectOp::Read, Some(p.to_owned()), false));
                    }
                }
                None => out.push(eff(EffectOp::Write, None, false)),
            },
            _ => {}
        }
    }

    // ------------------------------------------------------------------ flows

    /// True when evaluating `e` reads from the network: a network API call anywhere in it
    /// (`urlopen(u).read()`, `Net::HTTP.get(…)`, `fetch(u).then(…)`), or a file API given a
    /// URL (`file_get_contents('http://…')`).
    fn fetches(&self, e: &Expr, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        let d = depth + 1;
        match e {
            Expr::Call {
                callee,
                args,
                kwargs,
            } => {
                let name = qualify_name(callee, &self.env, 0).map(|n| normalize(self.lang, &n));
                let network = name.as_deref().is_some_and(|n| {
                    matches!(api(self.lang, n), Some(Api::Network(_)))
                        || (matches!(
                            api(self.lang, n),
                            Some(Api::Op(EffectOp::Read, _) | Api::Open { .. })
                        ) && args
                            .first()
                            .and_then(|a| static_str(a, &self.env, 0))
                            .is_some_and(|u| is_url(&u)))
                });
                network
                    || self.fetches(callee, d)
                    || args.iter().any(|a| self.fetches(a, d))
                    || kwargs.iter().any(|(_, v)| self.fetches(v, d))
            }
            Expr::Attr(o, _) => self.fetches(o, d),
            Expr::Name(n) => self
                .env
                .vars
                .get(n)
                .is_some_and(|v| depth < MAX_HOPS && self.fetches(v, d + MAX_DEPTH / MAX_HOPS)),
            Expr::Concat(xs) | Expr::List(xs) => xs.iter().any(|x| self.fetches(x, d)),
            Expr::Object(kv) => kv.iter().any(|(_, v)| self.fetches(v, d)),
            Expr::Index(a, b) | Expr::Join(a, b) => self.fetches(a, d) || self.fetches(b, d),
            Expr::Str(_) | Expr::Dyn => false,
        }
    }

    /// A call that starts a process without waiting for it (`fork`, `Popen`, node's
    /// asynchronous `spawn`): in an endless loop, that exhausts the process table.
    fn spawns_async(&self, call: &Expr) -> bool {
        let Expr::Call { callee, .. } = call else {
            return false;
        };
        let Some(c) = qualify(callee, &self.env, 0) else {
            return false;
        };
        let name = normalize(self.lang, &c.name);
        let last = name.rsplit('.').next().unwrap_or(&name);
        last.contains("fork")
            || last == "Popen"
            || name == "Deno.Command().spawn"
            || matches!(
                name.as_str(),
                "child_process.spawn"
                    | "child_process.exec"
                    | "child_process.execFile"
                    | "spawn"
                    | "Process.spawn"
                    | "Bun.spawn"
                    | "os.spawnl"
                    | "os.spawnv"
                    | "os.posix_spawn"
                    | "os.posix_spawnp"
            )
    }

    // --------------------------------------------------------------- lowering

    /// Lowers a syntax node to the expression model. Bounded by [`MAX_DEPTH`].
    #[allow(
        clippy::unnested_or_patterns,
        reason = "one (language, node kind) pair per line is the grammar table; merging tuples hides which grammar a kind belongs to"
    )]
    fn lower(&self, node: Node<'_>, depth: usize) -> Expr {
        if depth > MAX_DEPTH {
            return Expr::Dyn;
        }
        let d = depth + 1;
        let src = self.src;
        let lower_field =
            |name: &'static str| field(node, name).map_or(Expr::Dyn, |n| self.lower(n, d));
        match (self.lang, node.kind()) {
            // Grouping.
            (_, "parenthesized_expression" | "parenthesized_argument" | "expression_statement")
            | (Lang::Php, "argument")
            | (Lang::Ruby, "begin_block" | "parenthesized_statements") => named_children(node)
                .into_iter()
                .find(|c| c.kind() != "comment")
                .map_or(Expr::Dyn, |c| self.lower(c, d)),
            // Strings.
            (Lang::Python, "string") => self.py_string(node, d),
            (Lang::Python, "concatenated_string") => Expr::Concat(
                named_children(node)
                    .into_iter()
                    .map(|c| self.lower(c, d))
                    .collect(),
            ),
            (Lang::Node, "string" | "template_string")
            | (Lang::Ruby, "string")
            | (Lang::Php, "string" | "encapsed_string") => self.plain_string(node, d),
            (Lang::Ruby, "simple_symbol") => {
                Expr::Str(text(node, src).trim_start_matches(':').to_owned())
            }
            (Lang::Perl, "string_single_quoted") => {
                Expr::Str(single_quoted(strip_quotes(text(node, src))))
            }
            (Lang::Perl, "string_double_quoted") => {
                if has_interpolation(node) {
                    perl_interpolated(strip_quotes(text(node, src)))
                } else {
                    Expr::Str(unescape(strip_quotes(text(node, src)), false))
                }
            }
            (Lang::Perl, "word_list_qw") => Expr::List(
                named_children(node)
                    .into_iter()
                    .filter(|c| c.kind() == "list_item")
                    .map(|c| Expr::Str(text(c, src).to_owned()))
                    .collect(),
            ),
            // Names.
            (Lang::Python | Lang::Node | Lang::Ruby, "identifier" | "constant")
            | (Lang::Node, "property_identifier" | "shorthand_property_identifier")
            | (Lang::Php, "name" | "qualified_name") => {
                Expr::Name(text(node, src).trim_start_matches('\\').to_owned())
            }
            (Lang::Node, "this") => Expr::Name("this".into()),
            // Dynamic `import('fs')` loads a module as `require('fs')` does.
            (Lang::Node, "import") => Expr::Name("require".into()),
            (Lang::Node, "await_expression") => named_children(node)
                .into_iter()
                .next()
                .map_or(Expr::Dyn, |c| self.lower(c, d)),
            // `each(&File.method(:delete))`: the block is the value after `&`.
            (Lang::Ruby, "block_argument") => named_children(node)
                .into_iter()
                .next()
                .map_or(Expr::Dyn, |c| self.lower(c, d)),
            // `(int)$p` is `$p` for what it names.
            (Lang::Php, "cast_expression") => lower_field("value"),
            (
                Lang::Perl,
                "scalar_variable" | "array_variable" | "hash_variable" | "special_scalar_variable",
            )
            | (Lang::Php, "variable_name")
            // Python's constants, by name: a keyword value a call's meaning turns on
            // (`weights_only=True`).
            | (Lang::Python, "true" | "false" | "none") => Expr::Name(text(node, src).to_owned()),
            // `\%ENV`: a reference carries the data it refers to.
            (Lang::Perl, "to_reference") => lower_field("variable"),
            (Lang::Perl, "unary_expression")
                if named_children(node)
                    .first()
                    .is_some_and(|c| c.kind() == "to_reference") =>
            {
                named_children(node)
                    .first()
                    .map_or(Expr::Dyn, |c| self.lower(*c, d))
            }
            // `{safe => 0}`: an options hash (File::Path's last argument), not a path.
            (Lang::Perl, "hash_ref") => {
                let kids: Vec<Node<'_>> = named_children(node)
                    .into_iter()
                    .filter(|c| !matches!(c.kind(), "fat_comma" | "normal_comma" | "comment"))
                    .collect();
                Expr::Object(
                    kids.chunks(2)
                        .map(|kv| {
                            let key = kv
                                .first()
                                .map_or_else(String::new, |k| text(*k, src).to_owned());
                            let value = kv.get(1).map_or(Expr::Dyn, |v| self.lower(*v, d));
                            (key, value)
                        })
                        .collect(),
                )
            }
            (Lang::Perl, "variable_declaration") => field(node, "variable_name")
                .or_else(|| named_children(node).into_iter().last())
                .map_or(Expr::Dyn, |v| self.lower(v, d)),
            (Lang::Perl, "package_name" | "identifier") => {
                Expr::Name(text(node, src).replace("::", "."))
            }
            (Lang::Ruby, "scope_resolution") => {
                let name = field(node, "name").map_or("", |n| text(n, src)).to_owned();
                match field(node, "scope") {
                    Some(s) => Expr::Attr(Box::new(self.lower(s, d)), name),
                    None => Expr::Name(name),
                }
            }
            // Member access.
            (Lang::Python, "attribute") => Expr::Attr(
                Box::new(lower_field("object")),
                field(node, "attribute")
                    .map_or("", |n| text(n, src))
                    .to_owned(),
            ),
            (Lang::Node, "member_expression") => Expr::Attr(
                Box::new(lower_field("object")),
                field(node, "property")
                    .map_or("", |n| text(n, src))
                    .to_owned(),
            ),
            (Lang::Python, "subscript") => Expr::Index(
                Box::new(lower_field("value")),
                Box::new(lower_field("subscript")),
            ),
            (Lang::Node, "subscript_expression") => {
                let obj = lower_field("object");
                let index = lower_field("index");
                // `fs['rmSync']` is `fs.rmSync`.
                match static_str(&index, &self.env, 0) {
                    Some(s) => Expr::Attr(Box::new(obj), s),
                    None => Expr::Index(Box::new(obj), Box::new(index)),
                }
            }
            (Lang::Ruby, "element_reference") => {
                let kids = named_children(node);
                let obj = kids.first().map_or(Expr::Dyn, |n| self.lower(*n, d));
                let idx = kids.get(1).map_or(Expr::Dyn, |n| self.lower(*n, d));
                Expr::Index(Box::new(obj), Box::new(idx))
            }
            (Lang::Php, "subscript_expression") => {
                let kids = named_children(node);
                let obj = kids.first().map_or(Expr::Dyn, |n| self.lower(*n, d));
                let idx = kids.get(1).map_or(Expr::Dyn, |n| self.lower(*n, d));
                Expr::Index(Box::new(obj), Box::new(idx))
            }
            (Lang::Perl, "hash_access_variable_simple" | "hash_access_variable") => {
                let obj = field(node, "hash_variable").map_or(Expr::Dyn, |n| {
                    // `$ENV{X}` names the hash `%ENV`.
                    Expr::Name(text(n, src).replacen('$', "%", 1))
                });
                let key = field(node, "key").map_or(Expr::Dyn, |k| {
                    if k.kind() == "identifier" {
                        Expr::Str(text(k, src).to_owned())
                    } else {
                        self.lower(k, d)
                    }
                });
                Expr::Index(Box::new(obj), Box::new(key))
            }
            // Operators.
            (Lang::Python | Lang::Ruby, "binary_operator" | "binary")
            | (Lang::Node | Lang::Php | Lang::Perl, "binary_expression") => {
                let op = field(node, "operator").map_or("", |o| text(o, src));
                let kids = named_children(node);
                let (l, r) = match self.lang {
                    Lang::Perl => (kids.first().copied(), kids.last().copied()),
                    _ => (field(node, "left"), field(node, "right")),
                };
                let l = l.map_or(Expr::Dyn, |n| self.lower(n, d));
                let r = r.map_or(Expr::Dyn, |n| self.lower(n, d));
                match (self.lang, op) {
                    (Lang::Python | Lang::Node | Lang::Ruby, "+")
                    | (Lang::Php | Lang::Perl, ".") => Expr::Concat(vec![l, r]),
                    (Lang::Python, "/") => Expr::Join(Box::new(l), Box::new(r)),
                    // `a || b`, `a or die`: the value is the left side for our purposes.
                    (_, "||" | "or" | "??" | "//") => l,
                    _ => Expr::Dyn,
                }
            }
            // Collections.
            (Lang::Python, "list" | "tuple" | "expression_list")
            | (Lang::Node, "array")
            | (Lang::Ruby, "array")
            | (Lang::Perl, "array" | "arguments") => Expr::List(
                named_children(node)
                    .into_iter()
                    .filter(|c| !matches!(c.kind(), "comment" | "normal_comma"))
                    .map(|c| self.lower(c, d))
                    .collect(),
            ),
            (Lang::Php, "array_creation_expression") => Expr::List(
                named_children(node)
                    .into_iter()
                    .filter_map(|c| c.named_child(0))
                    .map(|c| self.lower(c, d))
                    .collect(),
            ),
            // `{k: v for k, v in os.environ.items() if 'TOKEN' in k}`, `[v for v in
            // os.environ.values()]`: a comprehension over the environment carries (part of)
            // it, whatever the filter keeps; it stands for the environment it iterates.
            (
                Lang::Python,
                "dictionary_comprehension"
                | "list_comprehension"
                | "set_comprehension"
                | "generator_expression",
            ) => named_children(node)
                .into_iter()
                .filter(|c| c.kind() == "for_in_clause")
                .find_map(|c| {
                    let iterable = field(c, "right").map(|r| self.lower(r, d))?;
                    let base = match &iterable {
                        Expr::Call { callee, args, .. } if args.is_empty() => match callee.as_ref()
                        {
                            Expr::Attr(base, m)
                                if matches!(m.as_str(), "items" | "keys" | "values") =>
                            {
                                base.as_ref().clone()
                            }
                            _ => iterable.clone(),
                        },
                        _ => iterable.clone(),
                    };
                    is_environ(&base, &self.env).then_some(base)
                })
                .unwrap_or(Expr::Dyn),
            (Lang::Python, "dictionary") | (Lang::Node, "object") | (Lang::Ruby, "hash") => {
                Expr::Object(
                    named_children(node)
                        .into_iter()
                        .filter_map(|c| match c.kind() {
                            "pair" => {
                                let key = field(c, "key").map_or_else(String::new, |k| {
                                    static_str(&self.lower(k, d), &self.env, 0).unwrap_or_else(
                                        || text(k, src).trim_end_matches(':').to_owned(),
                                    )
                                });
                                Some((
                                    key,
                                    field(c, "value").map_or(Expr::Dyn, |v| self.lower(v, d)),
                                ))
                            }
                            "shorthand_property_identifier" => {
                                Some((text(c, src).to_owned(), self.lower(c, d)))
                            }
                            _ => None,
                        })
                        .collect(),
                )
            }
            // Calls.
            // A call's callee sits in `function` (Python calls, JS calls) or `constructor`
            // (JS `new`); its arguments are lowered alike.
            (Lang::Python, "call") | (Lang::Node, "call_expression" | "new_expression") => {
                let callee = if node.kind() == "new_expression" {
                    "constructor"
                } else {
                    "function"
                };
                let (args, kwargs) = field(node, "arguments")
                    .map(|a| self.arguments(a, d))
                    .unwrap_or_default();
                Expr::Call {
                    callee: Box::new(lower_field(callee)),
                    args,
                    kwargs,
                }
            }
            (Lang::Ruby, "call") => {
                let method = field(node, "method")
                    .map_or("", |m| text(m, src))
                    .to_owned();
                let callee = match field(node, "receiver") {
                    Some(r) => Expr::Attr(Box::new(self.lower(r, d)), method),
                    None => Expr::Name(method),
                };
                let (args, kwargs) = field(node, "arguments")
                    .map(|a| self.arguments(a, d))
                    .unwrap_or_default();
                Expr::Call {
                    callee: Box::new(callee),
                    args,
                    kwargs,
                }
            }
            (Lang::Php, "function_call_expression") => {
                let (args, kwargs) = field(node, "arguments")
                    .map(|a| self.arguments(a, d))
                    .unwrap_or_default();
                Expr::Call {
                    callee: Box::new(lower_field("function")),
                    args,
                    kwargs,
                }
            }
            (Lang::Php, "member_call_expression" | "scoped_call_expression") => {
                let obj = field(node, "object")
                    .or_else(|| field(node, "scope"))
                    .map_or(Expr::Dyn, |o| self.lower(o, d));
                let name = field(node, "name").map_or("", |n| text(n, src)).to_owned();
                let (args, kwargs) = field(node, "arguments")
                    .map(|a| self.arguments(a, d))
                    .unwrap_or_default();
                Expr::Call {
                    callee: Box::new(Expr::Attr(Box::new(obj), name)),
                    args,
                    kwargs,
                }
            }
            (Lang::Php, "object_creation_expression") => {
                let kids = named_children(node);
                let class = kids
                    .iter()
                    .find(|c| matches!(c.kind(), "name" | "qualified_name"))
                    .map_or(Expr::Dyn, |c| self.lower(*c, d));
                let (args, kwargs) = kids
                    .iter()
                    .find(|c| c.kind() == "arguments")
                    .map(|a| self.arguments(*a, d))
                    .unwrap_or_default();
                Expr::Call {
                    callee: Box::new(class),
                    args,
                    kwargs,
                }
            }
            (Lang::Perl, "call_expression_with_bareword") => {
                let name = self.perl_callee(node);
                Expr::Call {
                    callee: Box::new(Expr::Name(name)),
                    args: Vec::new(),
                    kwargs: Vec::new(),
                }
            }
            (
                Lang::Perl,
                "call_expression_with_args_with_brackets"
                | "call_expression_with_spaced_args"
                | "call_expression_recursive"
                | "func1op_call_expression"
                | "func0op_call_expression",
            ) => {
                let callee_node = named_children(node)
                    .into_iter()
                    .find(|c| c.kind() == "call_expression_with_bareword");
                let name = match callee_node {
                    Some(c) => self.perl_callee(c),
                    None => field(node, "function_name")
                        .map_or_else(|| self.perl_callee(node), |f| text(f, src).to_owned()),
                };
                // `map { … } LIST` has two `args` fields: the block (code, visited on its own)
                // and the list.
                let mut cursor = node.walk();
                let mut args: Vec<Expr> = node
                    .children_by_field_name("args", &mut cursor)
                    .filter(|a| a.kind() != "block")
                    .flat_map(|a| match self.lower(a, d) {
                        Expr::List(items) => items,
                        other => vec![other],
                    })
                    .collect();
                // A list operator without parentheses takes the whole comma list to its
                // right (`open my $f, '>', $p or die`), which the grammar leaves as siblings.
                if node.kind() == "call_expression_with_spaced_args" {
                    let mut next = node.next_sibling();
                    while let Some(comma) = next.filter(|n| n.kind() == "normal_comma") {
                        let Some(item) = comma.next_named_sibling() else {
                            break;
                        };
                        args.push(self.lower(item, d));
                        next = item.next_sibling();
                    }
                }
                Expr::Call {
                    callee: Box::new(Expr::Name(name)),
                    args,
                    kwargs: Vec::new(),
                }
            }
            (Lang::Perl, "method_invocation") => {
                let obj = field(node, "package_name")
                    .or_else(|| named_children(node).into_iter().next())
                    .map_or(Expr::Dyn, |o| self.lower(o, d));
                let name = field(node, "function_name")
                    .map_or("", |n| text(n, src))
                    .to_owned();
                let args = field(node, "args").map_or_else(Vec::new, |a| {
                    let inner = named_children(a)
                        .into_iter()
                        .find(|c| c.kind() == "arguments")
                        .unwrap_or(a);
                    match self.lower(inner, d) {
                        Expr::List(items) => items,
                        other => vec![other],
                    }
                });
                Expr::Call {
                    callee: Box::new(Expr::Attr(Box::new(obj), name)),
                    args,
                    kwargs: Vec::new(),
                }
            }
            // Integer literals (`os.kill(1, 9)`, `process.kill(-1)`) are their decimal text.
            _ => integer_literal(node, src).map_or(Expr::Dyn, Expr::Str),
        }
    }

    fn perl_callee(&self, node: Node<'_>) -> String {
        let f = field(node, "function_name").map_or("", |f| text(f, self.src));
        match field(node, "package_name") {
            Some(p) => format!("{}.{f}", text(p, self.src).replace("::", ".")),
            None => f.to_owned(),
        }
    }

    /// Positional and keyword arguments of an argument list.
    fn arguments(&self, node: Node<'_>, depth: usize) -> (Vec<Expr>, Vec<(String, Expr)>) {
        let mut args = Vec::new();
        let mut kwargs = Vec::new();
        for c in named_children(node) {
            match c.kind() {
                "comment" => {}
                "keyword_argument" | "pair" => {
                    let k = field(c, "name")
                        .or_else(|| field(c, "key"))
                        .map_or("", |k| text(k, self.src))
                        .trim_end_matches(':')
                        .trim_matches(['"', '\''])
                        .to_owned();
                    let v = field(c, "value").map_or(Expr::Dyn, |v| self.lower(v, depth));
                    kwargs.push((k, v));
                }
                "argument" if self.lang == Lang::Php => {
                    let name = field(c, "name").map(|n| text(n, self.src).to_owned());
                    let v = named_children(c)
                        .into_iter()
                        .rfind(|x| x.kind() != "name")
                        .map_or(Expr::Dyn, |x| self.lower(x, depth));
                    match name {
                        Some(n) => kwargs.push((n, v)),
                        None => args.push(v),
                    }
                }
                // `f(*xs)`, `f(...xs)`, `**kw`: the positions after it are unknown.
                "list_splat"
                | "dictionary_splat"
                | "spread_element"
                | "splat_argument"
                | "hash_splat_argument" => args.push(Expr::Dyn),
                _ => args.push(self.lower(c, depth)),
            }
        }
        (args, kwargs)
    }

    fn py_string(&self, node: Node<'_>, depth: usize) -> Expr {
        let mut raw = false;
        let mut out = String::new();
        let mut parts = Vec::new();
        for c in named_children(node) {
            match c.kind() {
                "string_start" => {
                    let p = text(c, self.src);
                    raw = p.contains(['r', 'R']);
                }
                "interpolation" => {
                    // `f"{x!r}"`, `f"{x:>8}"`: a conversion or format changes the text.
                    let plain = named_children(c).len() == 1;
                    let value = match c.named_child(0) {
                        Some(e) if plain => self.lower(e, depth + 1),
                        _ => Expr::Dyn,
                    };
                    parts.push(Expr::Str(std::mem::take(&mut out)));
                    parts.push(value);
                }
                "string_content" => {
                    // escape_sequence children carry the escapes; the rest is literal.
                    let mut last = c.start_byte();
                    for e in named_children(c) {
                        out.push_str(self.src.get(last..e.start_byte()).unwrap_or(""));
                        let esc = text(e, self.src);
                        if raw || e.kind() != "escape_sequence" {
                            out.push_str(esc);
                        } else {
                            out.push_str(&unescape(esc, true));
                        }
                        last = e.end_byte();
                    }
                    out.push_str(self.src.get(last..c.end_byte()).unwrap_or(""));
                }
                _ => {}
            }
        }
        if parts.is_empty() {
            return Expr::Str(out);
        }
        parts.push(Expr::Str(out));
        Expr::Concat(parts)
    }

    /// A JS/Ruby/PHP string: the text between the delimiters, escapes decoded; any
    /// interpolation makes it dynamic.
    fn plain_string(&self, node: Node<'_>, depth: usize) -> Expr {
        if has_interpolation(node) {
            return self.interpolated(node, depth);
        }
        let raw = text(node, self.src);
        let single = raw.starts_with('\'');
        // Ruby and PHP single quotes only know `\\` and `\'`.
        if single && matches!(self.lang, Lang::Ruby | Lang::Php) {
            return Expr::Str(single_quoted(strip_quotes(raw)));
        }
        let Some(inner) = inner_text(node, self.src) else {
            return Expr::Str(String::new());
        };
        Expr::Str(unescape(inner, self.lang == Lang::Php))
    }
}

impl Scanner<'_> {
    /// A JS template, Ruby or PHP string with interpolation, as the concatenation it is:
    /// literal pieces (escapes decoded) and the interpolated expressions, so a value the
    /// code knows (`${os.homedir()}`, `#{Dir.home}`, `{$_SERVER['HOME']}`) keeps the path
    /// known. An interpolation nested deeper than a direct child, or one that is not a
    /// single expression, is a run-time value (fail closed: the effect is unplaced).
    fn interpolated(&self, node: Node<'_>, depth: usize) -> Expr {
        let mut parts = Vec::new();
        for c in named_children(node) {
            match c.kind() {
                "interpolation" | "template_substitution" => {
                    let kids: Vec<Node<'_>> = named_children(c)
                        .into_iter()
                        .filter(|k| k.kind() != "comment")
                        .collect();
                    parts.push(match kids.as_slice() {
                        [one] => self.lower(*one, depth + 1),
                        _ => Expr::Dyn,
                    });
                }
                "string_content" | "string_fragment" | "escape_sequence" | "string_value" => {
                    if has_interpolation(c) {
                        return Expr::Dyn;
                    }
                    parts.push(Expr::Str(unescape(
                        text(c, self.src),
                        self.lang == Lang::Php,
                    )));
                }
                "variable_name" | "subscript_expression" | "member_access_expression"
                    if self.lang == Lang::Php =>
                {
                    parts.push(self.lower(c, depth + 1));
                }
                _ => return Expr::Dyn,
            }
        }
        Expr::Concat(parts)
    }
}

/// Units (bytes, characters, elements) past which one constant allocation is memory
/// exhaustion: 2^30. A script that needs a gibibyte at once builds it from data, not from a
/// literal size; `bytearray(10**6)` stays ordinary.
pub(crate) const HUGE_ALLOCATION: u128 = 1 << 30;

/// Allocators whose argument at the index is a size in units (per language, as data):
/// byte buffers, typed arrays, pre-sized arrays, repeated strings.
fn allocator_size_arg(lang: Lang, name: &str) -> Option<usize> {
    let method = name.rsplit('.').next().unwrap_or(name);
    Some(match lang {
        Lang::Python => match name {
            "bytearray"
            | "bytes"
            | "os.urandom"
            | "secrets.token_bytes"
            | "numpy.zeros"
            | "numpy.ones"
            | "numpy.empty"
            | "array.array" => usize::from(name == "array.array"),
            _ => return None,
        },
        Lang::Node => match name {
            "Buffer.alloc"
            | "Buffer.allocUnsafe"
            | "Buffer.allocUnsafeSlow"
            | "Array"
            | "ArrayBuffer"
            | "SharedArrayBuffer"
            | "Uint8Array"
            | "Int8Array"
            | "Uint8ClampedArray"
            | "Uint16Array"
            | "Int16Array"
            | "Uint32Array"
            | "Int32Array"
            | "Float32Array"
            | "Float64Array"
            | "BigInt64Array"
            | "BigUint64Array"
            | "crypto.randomBytes" => 0,
            _ if matches!(method, "repeat" | "padStart" | "padEnd") => 0,
            _ => return None,
        },
        Lang::Ruby => match name {
            "Array.new" | "String.new" | "SecureRandom.random_bytes" | "Random.bytes" => 0,
            _ => return None,
        },
        Lang::Php => match name.to_ascii_lowercase().as_str() {
            "str_repeat" | "array_fill" | "str_pad" | "range" => 1,
            "random_bytes" | "splfixedarray" => 0,
            _ => return None,
        },
        Lang::Perl | Lang::Awk | Lang::Mongo | Lang::Lua | Lang::R | Lang::Other(_) => return None,
    })
}

/// The value of an integer constant expression (`10**12`, `1 << 40`, `2 ** 40`, `1e12`,
/// `(1024 * 1024 * 1024) * 4`), saturating; `None` when any part is not a literal.
fn const_int(node: Node<'_>, src: &str, depth: usize) -> Option<u128> {
    if depth > MAX_DEPTH {
        return None;
    }
    let kids: Vec<Node<'_>> = named_children(node)
        .into_iter()
        .filter(|c| c.kind() != "comment")
        .collect();
    match node.kind() {
        "integer" | "number" | "float" | "integer_literal" | "scientific_notation" => {
            let t: String = text(node, src).chars().filter(|&c| c != '_').collect();
            let t = t.trim_end_matches(['n', 'L', 'l']);
            if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
                return u128::from_str_radix(hex, 16).ok();
            }
            if let Ok(n) = t.parse::<u128>() {
                return Some(n);
            }
            let f = t
                .parse::<f64>()
                .ok()
                .filter(|f| f.is_finite() && *f >= 0.0)?;
            // Saturates at u128::MAX by Rust's float-to-int conversion.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            Some(f as u128)
        }
        "parenthesized_expression" | "parenthesized_statements" | "array" | "argument"
            if kids.len() == 1 =>
        {
            kids.first().and_then(|k| const_int(*k, src, depth + 1))
        }
        "binary_operator" | "binary" | "binary_expression" if kids.len() == 2 => {
            let (l, r) = (kids.first()?, kids.get(1)?);
            let op = operator_between(*l, *r, src)?;
            let a = const_int(*l, src, depth + 1)?;
            let b = const_int(*r, src, depth + 1)?;
            match op {
                "*" => Some(a.saturating_mul(b)),
                "+" => Some(a.saturating_add(b)),
                "**" => Some((0..b.min(256)).fold(1u128, |acc, _| acc.saturating_mul(a))),
                "<<" => Some(if b >= 127 {
                    u128::MAX
                } else {
                    a.saturating_mul(1u128 << b)
                }),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The operator of a binary node, read between its operands: tree-sitter-perl keeps no
/// token for `x` (nor for some other operators), so the text is the one reliable place.
fn operator_between<'s>(l: Node<'_>, r: Node<'_>, src: &'s str) -> Option<&'s str> {
    src.get(l.end_byte()..r.start_byte())
        .map(str::trim)
        .filter(|o| !o.is_empty())
}

/// A literal that a repetition operator copies (`' ' * n`, `[0] * n`, `"a" x n`).
fn is_sequence_literal(node: Node<'_>) -> bool {
    matches!(
        node.kind(),
        "string"
            | "concatenated_string"
            | "list"
            | "array"
            | "string_single_quoted"
            | "string_double_quoted"
            | "bytes"
    ) || (node.kind() == "parenthesized_expression"
        && node.named_child(0).is_some_and(is_sequence_literal))
}

impl Scanner<'_> {
    /// One allocation of a constant size past [`HUGE_ALLOCATION`]: a repetition operator on
    /// a literal (`' ' * (10**12)`, `[0] * 2**40`, Perl's `"a" x 1e12`) or a known allocator
    /// called with a constant size (`bytearray(1 << 40)`, `Buffer.alloc(1e12)`,
    /// `"x".repeat(1e12)`, `str_repeat(' ', 10**12)`, `Array.new(10**12, 0)`).
    fn huge_allocation(&self, node: Node<'_>, kind: &str) -> Option<String> {
        let src = self.src;
        let huge = |n: Node<'_>| const_int(n, src, 0).filter(|v| *v >= HUGE_ALLOCATION);
        if !matches!(self.lang, Lang::Python | Lang::Ruby | Lang::Perl) {
            return None;
        }
        match kind {
            "binary_operator" | "binary" | "binary_expression" => {
                let kids = named_children(node);
                let (l, r) = (*kids.first()?, *kids.get(1)?);
                let op = operator_between(l, r, src)?;
                let repeats = match self.lang {
                    Lang::Python | Lang::Ruby => op == "*",
                    Lang::Perl => op == "x",
                    _ => false,
                };
                if !repeats {
                    return None;
                }
                let n = if is_sequence_literal(l) {
                    huge(r)?
                } else if is_sequence_literal(r) && self.lang == Lang::Python {
                    huge(l)?
                } else {
                    return None;
                };
                Some(format!("a literal repeated {n} times"))
            }
            _ => None,
        }
    }

    /// Whether a value is a network connection or client: the result of a network API
    /// (`TCPSocket.new(…)`, `socket.create_connection(…)`, `fsockopen(…)`,
    /// `HTTP::Tiny->new`), through variables and method chains on it. Data written to one
    /// is sent; data written to stdout (`print`, `sys.stdout.write`) is not.
    fn is_connection(&self, e: &Expr, depth: usize) -> bool {
        if depth > MAX_HOPS {
            return false;
        }
        match e {
            Expr::Name(n) => self
                .env
                .vars
                .get(n)
                .is_some_and(|v| self.is_connection(v, depth + 1)),
            Expr::Attr(obj, _) => self.is_connection(obj, depth + 1),
            Expr::Call { callee, .. } => {
                qualify(callee, &self.env, 0).is_some_and(|c| {
                    matches!(
                        api(self.lang, &normalize(self.lang, &c.name)),
                        Some(Api::Network(_))
                    )
                }) || matches!(callee.as_ref(), Expr::Attr(obj, _) if self.is_connection(obj, depth + 1))
            }
            _ => false,
        }
    }

    /// A shell command written as a tagged template: Bun's `` Bun.$`rm -rf ~` `` (and `$`
    /// imported from `bun`), zx's and execa's `` $`…` ``. The template is the command line;
    /// an interpolation whose value is not known keeps it inexact (asked about).
    fn tagged_shell(&self, node: Node<'_>) -> Option<Finding> {
        if self.lang != Lang::Node || node.kind() != "call_expression" {
            return None;
        }
        let template = field(node, "arguments").filter(|a| a.kind() == "template_string")?;
        let tag = self.lower(field(node, "function")?, 0);
        let name = qualify(&tag, &self.env, 0)?.name;
        if !matches!(
            name.as_str(),
            "Bun.$" | "bun.$" | "zx.$" | "execa.$" | "execa.execaCommand" | "$"
        ) || (name == "$" && !self.env.aliases.contains_key("$"))
        {
            return None;
        }
        let value = if has_interpolation(template) {
            self.interpolated(template, 0)
        } else {
            Expr::Str(inner_text(template, self.src).unwrap_or("").to_owned())
        };
        Some(match static_str(&value, &self.env, 0) {
            Some(code) => Finding::Shell { code, exact: true },
            None => Finding::Shell {
                code: strip_quotes(text(template, self.src)).to_owned(),
                exact: false,
            },
        })
    }

    /// A known allocator called with a constant size past [`HUGE_ALLOCATION`]
    /// (`bytearray(1 << 40)`, `Buffer.alloc(1e12)`, `"x".repeat(1e12)`,
    /// `str_repeat(' ', 10**12)`, `Array.new(10**12, 0)`); `call` is `node` lowered.
    fn huge_call(&self, call: &Expr, node: Node<'_>) -> Option<String> {
        let src = self.src;
        let huge = |n: Node<'_>| const_int(n, src, 0).filter(|v| *v >= HUGE_ALLOCATION);
        let Expr::Call { callee, .. } = call else {
            return None;
        };
        let name = match callee.as_ref() {
            // `"x".repeat(n)`: a method on a literal has no module name.
            Expr::Attr(_, m) if matches!(m.as_str(), "repeat" | "padStart" | "padEnd") => m.clone(),
            c => normalize(self.lang, &qualify(c, &self.env, 0)?.name),
        };
        let index = allocator_size_arg(self.lang, &name)?;
        let arg = named_children(field(node, "arguments")?)
            .into_iter()
            .filter(|c| c.kind() != "comment")
            .nth(index)?;
        let n = huge(arg)?;
        Some(format!("`{name}` of {n} units"))
    }
}

/// A Perl double-quoted string with interpolation, read from its text (the grammar keeps
/// only the variable's sigil and name, not the subscript): `$name`, `${name}`,
/// `$ENV{HOME}` / `$h{'k'}` (a hash element), literal pieces with escapes decoded. Arrays,
/// `$x[…]`, `$x->…`, `@{[ … ]}`, punctuation variables are run-time values.
fn perl_interpolated(inner: &str) -> Expr {
    let chars: Vec<char> = inner.chars().collect();
    let mut parts = Vec::new();
    let mut lit = String::new();
    let mut i = 0;
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':';
    while let Some(&c) = chars.get(i) {
        match c {
            '\\' => {
                lit.push(c);
                if let Some(&n) = chars.get(i + 1) {
                    lit.push(n);
                }
                i += 2;
            }
            '@' if chars
                .get(i + 1)
                .is_some_and(|&n| n == '{' || n == '_' || n.is_ascii_alphabetic()) =>
            {
                return Expr::Dyn;
            }
            '$' => {
                let mut j = i + 1;
                let braced = chars.get(j) == Some(&'{');
                if braced {
                    j += 1;
                }
                let start = j;
                while chars.get(j).is_some_and(|&c| ident(c)) {
                    j += 1;
                }
                let name: String = chars.get(start..j).unwrap_or(&[]).iter().collect();
                if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
                    return Expr::Dyn;
                }
                if braced {
                    if chars.get(j) != Some(&'}') {
                        return Expr::Dyn;
                    }
                    j += 1;
                }
                parts.push(Expr::Str(unescape(&std::mem::take(&mut lit), false)));
                match chars.get(j) {
                    Some('{') if !braced => {
                        let end = chars
                            .get(j..)
                            .and_then(|r| r.iter().position(|&c| c == '}'))
                            .map(|p| j + p);
                        let Some(end) = end else {
                            return Expr::Dyn;
                        };
                        let key: String = chars.get(j + 1..end).unwrap_or(&[]).iter().collect();
                        let key = key.trim().trim_matches(['\'', '"']).to_owned();
                        if !key.chars().all(ident) {
                            return Expr::Dyn;
                        }
                        parts.push(Expr::Index(
                            Box::new(Expr::Name(format!("%{}", name.replace("::", ".")))),
                            Box::new(Expr::Str(key)),
                        ));
                        j = end + 1;
                    }
                    Some('[') if !braced => return Expr::Dyn,
                    Some('-') if !braced && chars.get(j + 1) == Some(&'>') => return Expr::Dyn,
                    _ => parts.push(Expr::Name(format!("${name}"))),
                }
                i = j;
            }
            _ => {
                lit.push(c);
                i += 1;
            }
        }
    }
    parts.push(Expr::Str(unescape(&lit, false)));
    Expr::Concat(parts)
}

fn eff(op: EffectOp, path: Option<String>, recursive: bool) -> Finding {
    Finding::Effect {
        op,
        path,
        recursive,
    }
}

/// The text between the first and the last child token of a string node.
fn inner_text<'s>(node: Node<'_>, src: &'s str) -> Option<&'s str> {
    let count = node.child_count();
    if count < 2 {
        return None;
    }
    let first = node.child(0)?;
    let last = node.child(u32::try_from(count - 1).ok()?)?;
    src.get(first.end_byte()..last.start_byte())
}

fn strip_quotes(s: &str) -> &str {
    let mut chars = s.chars();
    chars.next();
    chars.next_back();
    chars.as_str()
}

fn single_quoted(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && matches!(chars.peek(), Some('\\' | '\'')) {
            if let Some(n) = chars.next() {
                out.push(n);
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Decodes backslash escapes of a double-quoted literal. `keep_unknown`: an unknown escape
/// keeps its backslash (Python, PHP) instead of dropping it (JS, Ruby, Perl).
fn unescape(s: &str, keep_unknown: bool) -> String {
    let mut out = String::new();
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        i += 1;
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(&e) = chars.get(i) else {
            out.push('\\');
            break;
        };
        i += 1;
        let hex = |from: usize, n: usize| -> Option<char> {
            let h: String = chars.iter().skip(from).take(n).collect();
            if h.len() != n {
                return None;
            }
            u32::from_str_radix(&h, 16).ok().and_then(char::from_u32)
        };
        match e {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            '0' => out.push('\0'),
            'x' => {
                if let Some(ch) = hex(i, 2) {
                    out.push(ch);
                    i += 2;
                } else {
                    out.push_str("\\x");
                }
            }
            'u' if chars.get(i) == Some(&'{') => {
                let end = chars.iter().skip(i).position(|&c| c == '}');
                match end.and_then(|e| hex(i + 1, e.saturating_sub(1))) {
                    Some(ch) => {
                        out.push(ch);
                        i += end.unwrap_or(0) + 1;
                    }
                    None => out.push_str("\\u"),
                }
            }
            'u' => {
                if let Some(ch) = hex(i, 4) {
                    out.push(ch);
                    i += 4;
                } else {
                    out.push_str("\\u");
                }
            }
            '\n' => {}
            '\\' | '\'' | '"' | '`' | '$' | '/' => out.push(e),
            other => {
                if keep_unknown {
                    out.push('\\');
                }
                out.push(other);
            }
        }
    }
    out
}

fn has_interpolation(node: Node<'_>) -> bool {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if matches!(
            n.kind(),
            "interpolation"
                | "template_substitution"
                | "variable_name"
                | "simple_variable"
                | "dynamic_variable_name"
                | "member_access_expression"
                | "subscript_expression"
                | "scalar_variable"
                | "array_variable"
        ) {
            return true;
        }
        stack.extend(named_children(n));
    }
    false
}

/// The command text of backticks / `%x()` / `qx{}` / PHP backticks.
fn shell_literal_text(node: Node<'_>, src: &str) -> String {
    let raw = text(node, src);
    let body = if let Some(r) = raw.strip_prefix("qx") {
        strip_quotes(r.trim_start())
    } else if let Some(r) = raw.strip_prefix("%x") {
        strip_quotes(r)
    } else {
        strip_quotes(raw)
    };
    body.to_owned()
}

/// Calls that print their arguments to standard output (`print(os.environ['AWS_…'])`,
/// `console.log(process.env.GITHUB_TOKEN)`, `puts ENV['X']`): a credential variable printed
/// is the one-liner's output, as `printenv AWS_SECRET_ACCESS_KEY` prints it — where that
/// output goes (`| curl -d @- …`) is the flow's to judge. Other calls given one (a request's
/// header to the variable's issuer) keep it inside the program.
fn prints_to_stdout(lang: Lang, name: &str) -> bool {
    match lang {
        Lang::Python => matches!(
            name,
            "print" | "sys.stdout.write" | "pprint" | "pprint.pprint"
        ),
        Lang::Node => matches!(
            name,
            "console.log" | "console.info" | "console.error" | "process.stdout.write"
        ),
        Lang::Ruby => matches!(
            name,
            "puts" | "print" | "p" | "pp" | "$stdout.puts" | "STDOUT.puts"
        ),
        Lang::Perl => matches!(name, "print" | "say" | "printf"),
        Lang::Php => matches!(name, "echo" | "print" | "printf" | "var_dump" | "print_r"),
        _ => false,
    }
}

/// A value's measure rather than the value: its length, size, truth, hash or type
/// (`len(x)`, `x.length`, `bool(x)`, `strlen($x)`, `x.startswith('ghp_')`). Printing one shows
/// nothing of a secret it is taken from.
fn is_measure(e: &Expr) -> bool {
    const CALLS: &[&str] = &[
        "len",
        "bool",
        "hash",
        "type",
        "id",
        "strlen",
        "count",
        "isset",
        "empty",
        "defined",
        "length",
        "mb_strlen",
    ];
    const METHODS: &[&str] = &[
        "length",
        "size",
        "count",
        "bytesize",
        "startswith",
        "endswith",
        "startsWith",
        "endsWith",
        "start_with?",
        "end_with?",
        "isEmpty",
        "empty?",
        "nil?",
        "is_a?",
        "__len__",
    ];
    match e {
        Expr::Attr(_, m) => METHODS.contains(&m.as_str()),
        Expr::Call { callee, .. } => match callee.as_ref() {
            Expr::Name(n) => CALLS.contains(&n.as_str()),
            Expr::Attr(_, m) => METHODS.contains(&m.as_str()),
            _ => false,
        },
        _ => false,
    }
}

/// Secret data an expression carries: the whole environment, or a credential-shaped variable
/// read from it (`os.environ['AWS_SECRET_ACCESS_KEY']`, `process.env.GITHUB_TOKEN`,
/// `getenv('API_TOKEN')`), anywhere inside it.
fn env_source(e: &Expr, env: &Env, depth: usize) -> Option<crate::model::FlowSource> {
    use crate::model::FlowSource;
    if depth > MAX_DEPTH {
        return None;
    }
    if is_environ(e, env) {
        return Some(FlowSource::Environment {
            by: qualify(e, env, 0).map_or_else(|| "the environment".to_owned(), |c| c.name),
        });
    }
    env_source_within(e, env, depth)
}

/// [`env_source`] of an `e` already known not to be the environment object itself. Why:
/// `is_environ` resolves a name (allocating it) and was asked up to three times per attribute
/// hop — once by each `Attr` guard and again by the recursive call on the object; the object's
/// answer is now computed once and the descent skips the repeated top-level test.
fn env_source_within(e: &Expr, env: &Env, depth: usize) -> Option<crate::model::FlowSource> {
    use crate::model::FlowSource;
    let d = depth + 1;
    let credential = |k: Option<String>| {
        k.filter(|k| crate::flow::is_credential_variable(k))
            .map(|name| FlowSource::CredentialVariable { name })
    };
    match e {
        Expr::Index(obj, key) if is_environ(obj, env) => credential(static_str(key, env, 0)),
        Expr::Attr(obj, name) => {
            if !is_environ(obj, env) {
                return (d <= MAX_DEPTH)
                    .then(|| env_source_within(obj, env, d))
                    .flatten();
            }
            // Ruby calls without parentheses: `ENV.to_h`, `ENV.inspect` hand over all of it.
            if is_env_dump_method(name) {
                Some(FlowSource::Environment {
                    by: qualify(obj, env, 0)
                        .map_or_else(|| "the environment".to_owned(), |c| c.name),
                })
            } else {
                credential(Some(name.clone()))
            }
        }
        Expr::Call {
            callee,
            args,
            kwargs,
        } => {
            let getenv = qualify_name(callee, env, 0).is_some_and(|c| {
                matches!(
                    c.as_str(),
                    "os.getenv"
                        | "os.environ.get"
                        | "getenv"
                        | "ENV.fetch"
                        | "Deno.env.get"
                        | "std.getenv"
                )
            });
            if getenv {
                // PHP's `getenv()` with no name returns every variable.
                if args.is_empty() {
                    return Some(FlowSource::Environment {
                        by: "getenv()".to_owned(),
                    });
                }
                return credential(args.first().and_then(|a| static_str(a, env, 0)));
            }
            // A method called on the environment: `.get('X')`/`.fetch('X')` read one
            // variable, any other (`copy()`, `items()`, `to_h`, `to_s`) hands over all of it.
            if let Expr::Attr(obj, method) = callee.as_ref()
                && is_environ(obj, env)
            {
                return if matches!(method.as_str(), "get" | "fetch" | "pop" | "getenv" | "key?") {
                    credential(args.first().and_then(|a| static_str(a, env, 0)))
                } else {
                    Some(FlowSource::Environment {
                        by: qualify(obj, env, 0)
                            .map_or_else(|| "the environment".to_owned(), |c| c.name),
                    })
                };
            }
            env_source(callee, env, d)
                .or_else(|| args.iter().find_map(|a| env_source(a, env, d)))
                .or_else(|| kwargs.iter().find_map(|(_, v)| env_source(v, env, d)))
        }
        Expr::Name(n) => env
            .vars
            .get(n)
            .and_then(|v| env_source(v, env, d + MAX_DEPTH / MAX_HOPS)),
        Expr::Concat(xs) | Expr::List(xs) => xs.iter().find_map(|x| env_source(x, env, d)),
        Expr::Object(kv) => kv
            .iter()
            .filter(|(k, _)| !is_auth_key(k))
            .find_map(|(_, v)| env_source(v, env, d)),
        Expr::Index(a, b) | Expr::Join(a, b) => {
            env_source(a, env, d).or_else(|| env_source(b, env, d))
        }
        Expr::Str(_) | Expr::Dyn => None,
    }
}

/// Methods of the environment object that return all of it (Ruby's `ENV.to_h` is written
/// without parentheses, so it lowers to an attribute, not a call).
fn is_env_dump_method(m: &str) -> bool {
    matches!(
        m,
        "to_h"
            | "to_hash"
            | "to_a"
            | "to_s"
            | "inspect"
            | "to_json"
            | "entries"
            | "values"
            | "each"
            | "map"
            | "select"
            | "filter"
            | "sort"
            | "toObject"
            | "items"
            | "copy"
    )
}

/// Calls and methods that write their arguments to a stream (a socket once the code
/// connects one): a credential variable given to one is data sent, not a setting.
fn is_data_sink_method(m: &str) -> bool {
    let last = m.rsplit('.').next().unwrap_or(m);
    matches!(
        last,
        "write"
            | "send"
            | "sendall"
            | "sendto"
            | "puts"
            | "print"
            | "printf"
            | "syswrite"
            | "fwrite"
            | "fputs"
            | "end"
            | "socket_write"
            | "socket_send"
            | "send_data"
            | "post"
            | "post_form"
            | "request"
    )
}

/// `obj.send(:m, a…)` (Ruby's `send`, `public_send`, `__send__`) with a literal method name,
/// rewritten as the call it makes: `FileUtils.send(:rm_rf, p)` is `FileUtils.rm_rf(p)`.
fn sent_call(callee: &Expr, args: &[Expr], kwargs: &[(String, Expr)], env: &Env) -> Option<Expr> {
    let (target, method) = match callee {
        Expr::Attr(obj, m) => (Some(obj.as_ref()), m.as_str()),
        Expr::Name(m) => (None, m.as_str()),
        _ => return None,
    };
    if !matches!(method, "send" | "public_send" | "__send__") {
        return None;
    }
    let name = static_str(args.first()?, env, 0)?;
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_alphanumeric() || "_!?".contains(c))
    {
        return None;
    }
    let callee = match target {
        Some(obj) => Expr::Attr(Box::new(obj.clone()), name),
        None => Expr::Name(name),
    };
    Some(Expr::Call {
        callee: Box::new(callee),
        args: args.get(1..).unwrap_or(&[]).to_vec(),
        kwargs: kwargs.to_vec(),
    })
}

/// The text a shell-quoting function returns for a known string (`escapeshellarg`,
/// `shlex.quote`, `Shellwords.escape`): single-quoted, so the command line built with it
/// is still a literal the shell analyzer can judge.
fn shell_quoted(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// Request parameters where a credential is used, not leaked (headers, auth).
fn is_auth_key(k: &str) -> bool {
    matches!(
        k.to_ascii_lowercase().as_str(),
        "headers" | "auth" | "authorization" | "cookies" | "cert" | "x-api-key" | "token"
    )
}

/// True when an expression's value starts with a URL literal (`'http://h/?k=' . $x`).
fn url_prefixed(e: &Expr, env: &Env, hops: usize) -> bool {
    if hops > MAX_HOPS {
        return false;
    }
    match e {
        Expr::Str(s) => is_url(s),
        Expr::Concat(parts) => parts.first().is_some_and(|p| url_prefixed(p, env, hops)),
        Expr::Name(n) => env
            .vars
            .get(n)
            .is_some_and(|v| url_prefixed(v, env, hops + 1)),
        _ => false,
    }
}

/// Whether a string starts with a URL scheme. Compared on bytes: a string whose first bytes
/// end inside a multi-byte character (`ht|p:/՚/x`) is not a URL and must not be sliced there.
fn is_url(s: &str) -> bool {
    ["http://", "https://", "ftp://", "ftps://"]
        .iter()
        .any(|p| {
            s.len() > p.len()
                && s.as_bytes()
                    .get(..p.len())
                    .is_some_and(|h| h.eq_ignore_ascii_case(p.as_bytes()))
        })
}

/// True when `node` sits in a loop that never ends by its own condition: `while True`,
/// `while(1)`, `for(;;)`, Ruby's `loop { }`, Perl's `… while 1`. Bounded walk up the tree.
fn in_unbounded_loop(lang: Lang, node: Node<'_>, src: &str) -> bool {
    let constant_true = |c: Option<Node<'_>>| {
        c.is_some_and(|c| {
            matches!(
                text(c, src).trim_matches(|ch: char| ch == '('
                    || ch == ')'
                    || ch == '['
                    || ch == ']'
                    || ch.is_whitespace()),
                "1" | "true" | "True" | "TRUE" | "!0" | "not 0"
            )
        })
    };
    let mut current = node.parent();
    let mut steps = 0;
    while let Some(n) = current {
        steps += 1;
        if steps > MAX_DEPTH * 4 {
            return false;
        }
        let endless_condition = |c: Option<Node<'_>>| {
            always_true_or_forks(c, src, 0, &|c| {
                constant_true(Some(c)) || forks(Some(c), src)
            })
        };
        let endless = match (lang, n.kind()) {
            (_, "while_statement" | "while" | "do_statement" | "while_modifier") => {
                endless_condition(field(n, "condition"))
            }
            // `[os.fork() for _ in iter(int, 1)]`, `for _ in itertools.count(): …`.
            (
                Lang::Python,
                "list_comprehension"
                | "set_comprehension"
                | "generator_expression"
                | "dictionary_comprehension",
            ) => named_children(n)
                .into_iter()
                .filter(|c| c.kind() == "for_in_clause")
                .any(|c| endless_iterator(field(c, "right"), src)),
            (Lang::Python, "for_statement") => endless_iterator(field(n, "right"), src),
            (Lang::Node | Lang::Php, "for_statement") => field(n, "condition")
                .is_none_or(|c| c.kind() == "empty_statement" || text(c, src).trim() == ";"),
            (Lang::Ruby, "call") => {
                field(n, "receiver").is_none()
                    && field(n, "method").is_some_and(|m| text(m, src) == "loop")
                    && field(n, "block").is_some()
            }
            (Lang::Perl, "single_line_statement") => named_children(n).into_iter().any(|c| {
                c.kind() == "while_simple_statement" && endless_condition(field(c, "condition"))
            }),
            _ => false,
        };
        if endless {
            return true;
        }
        current = n.parent();
    }
    false
}

/// A loop condition that never ends the loop: a constant true or a fork (`leaf`), also
/// through wrappers (`( … )`, Perl's argument list) and `||`/`or` with such a side
/// (`fork() while fork() || 1`, `while (fork() || true)`).
fn always_true_or_forks(
    c: Option<Node<'_>>,
    src: &str,
    depth: usize,
    leaf: &dyn Fn(Node<'_>) -> bool,
) -> bool {
    let Some(c) = c else {
        return false;
    };
    if depth > MAX_DEPTH || leaf(c) {
        return depth <= MAX_DEPTH;
    }
    let kids: Vec<Node<'_>> = named_children(c)
        .into_iter()
        .filter(|k| k.kind() != "comment")
        .collect();
    match (c.kind(), kids.as_slice()) {
        ("parenthesized_expression" | "arguments" | "condition" | "array", [one]) => {
            always_true_or_forks(Some(*one), src, depth + 1, leaf)
        }
        ("binary_operator" | "binary" | "binary_expression" | "boolean_operator", [l, r])
            if matches!(operator_between(*l, *r, src), Some("||" | "or")) =>
        {
            always_true_or_forks(Some(*l), src, depth + 1, leaf)
                || always_true_or_forks(Some(*r), src, depth + 1, leaf)
        }
        _ => false,
    }
}

/// A loop condition that is itself a fork (`fork while fork`, `while (fork()) {}`): every
/// turn starts a process and the loop runs as long as forking succeeds.
fn forks(condition: Option<Node<'_>>, src: &str) -> bool {
    condition.is_some_and(|c| {
        let callee = match c.kind() {
            "call" | "call_expression" | "function_call_expression" => field(c, "function")
                .or_else(|| field(c, "method"))
                .unwrap_or(c),
            _ => c,
        };
        let name =
            text(callee, src).trim_matches(|ch: char| ch == '(' || ch == ')' || ch.is_whitespace());
        let last = name.rsplit(['.', ':', '>']).next().unwrap_or(name);
        matches!(last, "fork" | "pcntl_fork" | "fork()" | "forkpty")
    })
}

/// An iterator that never ends: `iter(f, sentinel)` (two arguments), `itertools.count()`,
/// `itertools.cycle(x)`, `itertools.repeat(x)` without a count.
fn endless_iterator(iter: Option<Node<'_>>, src: &str) -> bool {
    let Some(call) = iter.filter(|n| n.kind() == "call") else {
        return false;
    };
    let name = field(call, "function").map_or("", |f| text(f, src));
    let argc = field(call, "arguments").map_or(0, |a| named_children(a).len());
    let last = name.rsplit('.').next().unwrap_or(name);
    match last {
        "iter" => argc == 2,
        "count" | "cycle" => name.starts_with("itertools") || name == last,
        "repeat" => argc == 1,
        _ => false,
    }
}

/// `os.environ`, `process.env`, `ENV`, `%ENV`, `$_ENV`, `$_SERVER`.
fn is_environ(e: &Expr, env: &Env) -> bool {
    is_environ_at(e, env, 0)
}

/// [`is_environ`] inside a lookup already `hops` deep: the hop count carries through, so a
/// self-referring variable (`fs = require(fs...)`) ends at `MAX_HOPS` instead of recursing
/// until the stack overflows (found by the `analyze` fuzz target).
fn is_environ_at(e: &Expr, env: &Env, hops: usize) -> bool {
    qualify_name(e, env, hops).is_some_and(|c| {
        matches!(
            c.as_str(),
            "os.environ"
                | "process.env"
                | "ENV"
                | "%ENV"
                | "$_ENV"
                | "$_SERVER"
                | "Deno.env"
                | "Bun.env"
                | "import.meta.env"
        )
    })
}

/// Resolves a callee expression to its canonical dotted name through aliases and variables.
fn qualify(e: &Expr, env: &Env, hops: usize) -> Option<Callee> {
    qualify_with(e, env, hops, true)
}

/// [`qualify`]'s name alone. Why: most callers compare the name only, and building the
/// receiver clones a call's whole argument list at every hop (`is_environ` runs at every level
/// of [`env_source`]'s descent). Invariant: the name never depends on the receivers (they
/// only feed `path_method`'s returned value, never which name is chosen), so this is
/// `qualify(e, env, hops).map(|c| c.name)`.
fn qualify_name(e: &Expr, env: &Env, hops: usize) -> Option<String> {
    qualify_with(e, env, hops, false).map(|c| c.name)
}

/// [`qualify`], building the receivers only when `receivers` is set (empty otherwise).
fn qualify_with(e: &Expr, env: &Env, hops: usize, receivers: bool) -> Option<Callee> {
    if hops > MAX_HOPS {
        return None;
    }
    match e {
        Expr::Name(n) => {
            if let Some(a) = env.aliases.get(n) {
                return Some(Callee {
                    name: a.clone(),
                    receiver: Vec::new(),
                });
            }
            if let Some(v) = env.vars.get(n) {
                // PHP's `$f = 'sys' . 'tem'; $f(…)` calls the function the string names.
                if n.starts_with('$')
                    && let Some(callable) = static_str(v, env, hops + 1)
                    && !callable.is_empty()
                    && callable
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == '\\')
                {
                    return Some(Callee {
                        name: callable,
                        receiver: Vec::new(),
                    });
                }
                return qualify_with(v, env, hops + 1, receivers);
            }
            Some(Callee {
                name: n.clone(),
                receiver: Vec::new(),
            })
        }
        // `(Path.home() / 'x').unlink()`: a method on a joined path is a `Path` method.
        Expr::Join(..) => Some(Callee {
            name: "pathlib.Path()".to_owned(),
            receiver: if receivers {
                vec![e.clone()]
            } else {
                Vec::new()
            },
        }),
        Expr::Attr(obj, attr) => {
            let base = qualify_with(obj, env, hops + 1, receivers)?;
            // The base's name is extended in place (one allocation per chain, not per hop).
            let mut name = base.name;
            name.push('.');
            name.push_str(attr);
            Some(Callee {
                name,
                receiver: base.receiver,
            })
        }
        Expr::Call { callee, args, .. } => {
            let inner = qualify_with(callee, env, hops + 1, receivers)?;
            // `require('fs')` is the module `fs`; so are Python's `__import__('shutil')` and
            // `importlib.import_module('os')`.
            if matches!(
                inner.name.as_str(),
                "require" | "__import__" | "importlib.import_module" | "builtins.__import__"
            ) {
                let m = args.first().and_then(|a| static_str(a, env, hops + 1))?;
                return Some(Callee {
                    name: js_module(&m),
                    receiver: Vec::new(),
                });
            }
            // `getattr(os, 'remove')` is `os.remove`.
            if inner.name == "getattr"
                && let (Some(obj), Some(attr)) = (
                    args.first(),
                    args.get(1).and_then(|a| static_str(a, env, hops + 1)),
                )
            {
                let base = qualify_with(obj, env, hops + 1, receivers)?;
                let mut name = base.name;
                name.push('.');
                name.push_str(&attr);
                return Some(Callee {
                    name,
                    receiver: base.receiver,
                });
            }
            // A `Path` method that returns a `Path` keeps the value a `Path` whose path is
            // known: `Path('~/x').expanduser()`, `Path.home().joinpath('.zshrc')`.
            if let Some(value) = path_method(&inner, args, env) {
                return Some(Callee {
                    name: "pathlib.Path()".to_owned(),
                    receiver: vec![value],
                });
            }
            let mut name = inner.name;
            name.push_str("()");
            Some(Callee {
                name,
                receiver: if receivers { args.clone() } else { Vec::new() },
            })
        }
        _ => None,
    }
}

/// The path a `pathlib` call returns when it returns a `Path`: `Path.home()`/`Path.cwd()`,
/// and `expanduser`/`resolve`/`absolute`/`joinpath`/`with_name`/… of a `Path` value (those
/// whose result cannot be computed here are a run-time value, so the effect is unresolved).
///
/// `with_name`/`with_suffix`/`with_stem` keep the directory and `parent` is it: of a path
/// known here (a literal, or a loop element over `Path('src').glob('*_old.py')`) they name
/// a file in that same directory — the name itself when `with_name` is given a plain literal
/// one, any name (`DIR/*`) otherwise — so `p.rename(p.with_name(…))` over the project's
/// files stays in the project, and the same over `~/.ssh` stays in `~/.ssh`.
fn path_method(inner: &Callee, args: &[Expr], env: &Env) -> Option<Expr> {
    let n = inner.name.as_str();
    if matches!(n, "pathlib.Path.home" | "pathlib.PosixPath.home") {
        return Some(Expr::Str("~".into()));
    }
    if matches!(n, "pathlib.Path.cwd" | "pathlib.PosixPath.cwd") {
        return Some(Expr::Str(".".into()));
    }
    let method = n
        .strip_prefix("pathlib.Path().")
        .or_else(|| n.strip_prefix("pathlib.PosixPath()."))?;
    let base = match inner.receiver.as_slice() {
        [] => Expr::Dyn,
        [one] => one.clone(),
        many => many
            .iter()
            .skip(1)
            .fold(many.first().cloned().unwrap_or(Expr::Dyn), |a, b| {
                Expr::Join(Box::new(a), Box::new(b.clone()))
            }),
    };
    Some(match method {
        "expanduser" | "resolve" | "absolute" | "expandvars" => base,
        "joinpath" => args
            .iter()
            .fold(base, |a, b| Expr::Join(Box::new(a), Box::new(b.clone()))),
        "with_name" | "with_suffix" | "with_stem" | "parent" => {
            let Some(known) = static_str(&base, env, 0) else {
                return Some(Expr::Dyn);
            };
            let name = args.first().and_then(|a| static_str(a, env, 0));
            Expr::Str(path_sibling(&known, method, name))
        }
        "relative_to" => Expr::Dyn,
        _ => return None,
    })
}

/// The name a callee chain starts from (`b` in `b.objects.all().delete`).
fn root_name(e: &Expr) -> Option<&str> {
    match e {
        Expr::Name(n) => Some(n),
        Expr::Attr(o, _) => root_name(o),
        Expr::Call { callee, .. } => root_name(callee),
        _ => None,
    }
}

/// The callee chain after its root, for naming a call (`.objects.all().delete`).
fn callee_tail(e: &Expr) -> String {
    match e {
        Expr::Attr(o, m) => format!("{}.{m}", callee_tail(o)),
        Expr::Call { callee, .. } => format!("{}()", callee_tail(callee)),
        _ => String::new(),
    }
}

/// `node:fs` → `fs`; `fs/promises` → `fs.promises`.
fn js_module(m: &str) -> String {
    let m = m.strip_prefix("node:").unwrap_or(m);
    m.replace('/', ".")
}

/// One spelling per API: promise and extra variants fold onto the base module.
fn normalize(lang: Lang, name: &str) -> String {
    match lang {
        Lang::Node => {
            let mut n = name.to_owned();
            for (from, to) in [
                ("fs.promises.", "fs."),
                ("fs-extra.", "fs."),
                ("graceful-fs.", "fs."),
                ("child_process.promises.", "child_process."),
            ] {
                if let Some(rest) = n.strip_prefix(from) {
                    n = format!("{to}{rest}");
                }
            }
            n
        }
        Lang::Ruby => name
            .strip_prefix("Kernel.")
            .or_else(|| name.strip_prefix("Object."))
            .unwrap_or(name)
            .to_owned(),
        Lang::Perl => name
            .strip_prefix("CORE.GLOBAL.")
            .or_else(|| name.strip_prefix("CORE."))
            .unwrap_or(name)
            .to_owned(),
        Lang::Python => name.strip_prefix("builtins.").unwrap_or(name).to_owned(),
        Lang::Php | Lang::Awk | Lang::Mongo | Lang::Lua | Lang::R | Lang::Other(_) => {
            name.to_owned()
        }
    }
}

/// The string value of an expression when it is a compile-time constant.
/// The directory part of a known path, as `os.path.dirname` gives it for a path with a `/`
/// (`/w/scripts/x.py` → `/w/scripts`, `scripts/x.py` → `scripts`, `/x` → `/`). A bare name or
/// a path ending in `/`, `.` or `..` (whose parent depends on what it resolves to) or holding a
/// glob is not folded: the value stays a run-time one.
/// What `with_name`/`with_suffix`/`with_stem`/`parent` make of a known path (a pattern too):
/// its directory, or a file in it — the name `with_name` is given when it is a plain literal
/// one, any name (`DIR/*`) otherwise (see [`path_method`]).
fn path_sibling(known: &str, method: &str, name: Option<String>) -> String {
    let trimmed = known.trim_end_matches('/');
    let dir = match trimmed.rsplit_once('/') {
        Some(("", _)) => "/".to_owned(),
        Some((d, _)) => d.to_owned(),
        None => ".".to_owned(),
    };
    if method == "parent" {
        return dir;
    }
    let name = name
        .filter(|n| {
            method == "with_name" && !n.is_empty() && !n.contains('/') && n != "." && n != ".."
        })
        .unwrap_or_else(|| "*".to_owned());
    join_paths(&[dir, name])
}

fn parent_path(path: &str) -> Option<String> {
    let last = path.rsplit('/').next()?;
    if matches!(last, "" | "." | "..") || path.contains(['*', '?', '[']) {
        return None;
    }
    let (dir, _) = path.rsplit_once('/')?;
    Some(if dir.is_empty() {
        "/".to_owned()
    } else {
        dir.to_owned()
    })
}

fn static_str(e: &Expr, env: &Env, hops: usize) -> Option<String> {
    if hops > MAX_HOPS {
        return None;
    }
    match e {
        Expr::Str(s) => Some(s.clone()),
        // Structure recursion is bounded by the lowering depth; only name lookups count hops.
        Expr::Concat(parts) => parts
            .iter()
            .map(|p| static_str(p, env, hops))
            .collect::<Option<Vec<_>>>()
            .map(|v| v.concat()),
        Expr::Name(n) => env.vars.get(n).and_then(|v| static_str(v, env, hops + 1)),
        Expr::Join(a, b) => {
            let a = static_str(a, env, hops)?;
            let b = static_str(b, env, hops)?;
            Some(join_paths(&[a, b]))
        }
        Expr::Index(obj, key) if is_environ_at(obj, env, hops + 1) => {
            let k = static_str(key, env, hops + 1)?;
            (k == "HOME").then(|| "~".to_owned())
        }
        Expr::Attr(obj, attr) if is_environ_at(obj, env, hops + 1) && attr == "HOME" => {
            Some("~".to_owned())
        }
        // A `Path`'s parent (`Path(__file__).resolve().parent.parent / 'tmp'`): the path
        // without its last component, when the path is known and has one.
        Expr::Attr(obj, attr) if attr == "parent" => parent_path(&static_str(obj, env, hops + 1)?),
        // The running interpreter's own path (`subprocess.call([sys.executable, '-m',
        // 'pytest'])`, `spawn(process.execPath, ['x.js'])`): the interpreter the line started,
        // so its arguments are judged as that interpreter's command line.
        Expr::Attr(..) => match qualify_name(e, env, hops + 1)?.as_str() {
            "sys.executable" => Some("python3".to_owned()),
            "process.execPath" => Some("node".to_owned()),
            _ => None,
        },
        // Strings joined from literal pieces (`['f','s'].join('')`, `''.join(['o','s'])`):
        // the text is known, so a module or program name built that way
        // is read as written.
        Expr::Call { callee, args, .. }
            if matches!(callee.as_ref(), Expr::Attr(_, m) if m == "join")
                && literal_join(callee, args, env, hops).is_some() =>
        {
            literal_join(callee, args, env, hops)
        }
        // A known string with a known part replaced (`'/root/.npmrc'.replace('/root',
        // os.path.expanduser('~'))`): Python replaces every occurrence, JavaScript's string
        // pattern the first, so the text is folded only when the part occurs once (then both
        // agree); `replaceAll` and Ruby's `sub`/`gsub` of a string the same way.
        Expr::Call { callee, args, .. }
            if matches!(callee.as_ref(), Expr::Attr(_, m) if matches!(m.as_str(), "replace" | "replaceAll" | "sub" | "gsub"))
                && args.len() == 2 =>
        {
            let Expr::Attr(receiver, _) = callee.as_ref() else {
                return None;
            };
            let text = static_str(receiver, env, hops + 1)?;
            let from = static_str(args.first()?, env, hops + 1)?;
            let to = static_str(args.get(1)?, env, hops + 1)?;
            (!from.is_empty() && text.matches(from.as_str()).count() == 1)
                .then(|| text.replacen(from.as_str(), &to, 1))
        }
        Expr::Call { callee, args, .. } => {
            let c = qualify(callee, env, hops + 1)?;
            let values = || {
                args.iter()
                    .map(|a| static_str(a, env, hops + 1))
                    .collect::<Option<Vec<_>>>()
            };
            match c.name.as_str() {
                "os.path.join" | "posixpath.join" | "path.join" | "path.resolve"
                | "path.posix.join" | "File.join" | "pathlib.Path" | "pathlib.PurePath"
                | "pathlib.PosixPath" | "Pathname.new" | "File.Spec.catfile"
                | "File.Spec.catdir" => {
                    let v = values()?;
                    (!v.is_empty()).then(|| join_paths(&v))
                }
                "os.path.dirname" | "posixpath.dirname" | "path.dirname" | "File.dirname" => {
                    let v = values()?;
                    match v.as_slice() {
                        [one] => parent_path(one),
                        _ => None,
                    }
                }
                "os.path.realpath" | "os.path.expanduser" | "os.path.abspath"
                | "os.path.normpath" | "path.normalize" | "File.expand_path" | "str" | "String"
                | "os.fspath" | "realpath" | "glob" => values()?.into_iter().next(),
                "escapeshellarg"
                | "shlex.quote"
                | "pipes.quote"
                | "Shellwords.escape"
                | "Shellwords.shellescape" => values()?.first().map(|v| shell_quoted(v)),
                "pathlib.Path.home" | "os.homedir" | "Dir.home" => Some("~".to_owned()),
                // The system temp directory, and a fresh directory made in it under the
                // library's own name pattern (`tmp` + random for Python, `d` + date for
                // Ruby; Node's is the prefix it is given): scratch space, which deleting is
                // normal work — as `rm -rf "$(mktemp -d)"` is. Given other arguments (`dir=`,
                // a prefix not known) the place is not known.
                "tempfile.gettempdir" | "os.tmpdir" | "Dir.tmpdir" | "sys_get_temp_dir"
                    if args.is_empty() =>
                {
                    Some("/tmp".to_owned())
                }
                "tempfile.mkdtemp" | "tempfile.mktemp" if args.is_empty() => {
                    Some("/tmp/tmp*".to_owned())
                }
                "Dir.mktmpdir" if args.is_empty() => Some("/tmp/d*".to_owned()),
                "fs.mkdtempSync" | "fs.promises.mkdtemp" | "fsPromises.mkdtemp" => {
                    let v = values()?;
                    let prefix = v.first().filter(|p| p.starts_with("/tmp/"))?;
                    (v.len() == 1 && prefix.len() > "/tmp/".len()).then(|| format!("{prefix}*"))
                }
                "os.getenv" | "os.environ.get" | "getenv" | "ENV.fetch" | "Deno.env.get"
                | "std.getenv" => {
                    let v = values()?;
                    (v.first().map(String::as_str) == Some("HOME")).then(|| "~".to_owned())
                }
                // `p.with_name(…)`, `.with_suffix(…)`, `.with_stem(…)` of a known path (a
                // loop element over a project glob): a file in the same directory.
                n if n.ends_with(").with_name")
                    || n.ends_with(").with_suffix")
                    || n.ends_with(").with_stem") =>
                {
                    let [receiver] = c.receiver.as_slice() else {
                        return None;
                    };
                    let known = static_str(receiver, env, hops + 1)?;
                    let method = n.rsplit('.').next().unwrap_or("");
                    let name = args.first().and_then(|a| static_str(a, env, hops + 1));
                    Some(path_sibling(&known, method, name))
                }
                // `Path('~/x').expanduser()`, `.resolve()`, `.absolute()`.
                n if n.ends_with(").expanduser")
                    || n.ends_with(").resolve")
                    || n.ends_with(").absolute") =>
                {
                    let v = c
                        .receiver
                        .iter()
                        .map(|a| static_str(a, env, hops + 1))
                        .collect::<Option<Vec<_>>>()?;
                    (!v.is_empty()).then(|| join_paths(&v))
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// `LIST.join(SEP)` (JavaScript, Ruby) or `SEP.join(LIST)` (Python) over known strings. A
/// join without a separator is not read (JavaScript's default is `,`, Ruby's empty).
fn literal_join(callee: &Expr, args: &[Expr], env: &Env, hops: usize) -> Option<String> {
    let Expr::Attr(receiver, _) = callee else {
        return None;
    };
    let known = |xs: &[Expr]| {
        xs.iter()
            .map(|x| static_str(x, env, hops + 1))
            .collect::<Option<Vec<_>>>()
    };
    match (receiver.as_ref(), args) {
        (Expr::List(xs), [sep]) | (sep, [Expr::List(xs)]) => {
            Some(known(xs)?.join(&static_str(sep, env, hops + 1)?))
        }
        _ => None,
    }
}

/// A glob or directory-listing pattern whose elements are the process directories of
/// `/proc` (`/proc/*`, `/proc/[0-9]*`, `/proc/`).
fn is_proc_listing(pattern: &str) -> bool {
    let Some(rest) = pattern.strip_prefix("/proc") else {
        return false;
    };
    let rest = rest.trim_start_matches('/');
    rest.is_empty() || rest.starts_with('*') || rest.starts_with('[')
}

/// Whether a call sits under a condition that picks processes out of an enumeration (by
/// name, command line, user, a comparison), as opposed to one that only checks that a
/// `/proc` entry is a number (`p.isdigit()`, `ctype_digit($p)`, `/^\d+$/`) or skips the
/// current process. The conditions read are the `if` clauses of enclosing comprehensions
/// and the conditions of enclosing `if`s, ternaries and modifiers.
fn selects_processes(node: Node<'_>, src: &str) -> bool {
    let mut conditions: Vec<Node<'_>> = Vec::new();
    let mut cur = node.parent();
    for _ in 0..24 {
        let Some(n) = cur else { break };
        match n.kind() {
            "list_comprehension"
            | "set_comprehension"
            | "generator_expression"
            | "dictionary_comprehension" => conditions.extend(
                named_children(n)
                    .into_iter()
                    .filter(|c| c.kind() == "if_clause"),
            ),
            "if_statement"
            | "if"
            | "unless"
            | "if_modifier"
            | "unless_modifier"
            | "conditional_expression"
            | "ternary_expression"
            | "conditional" => {
                conditions.push(field(n, "condition").unwrap_or(n));
            }
            _ => {}
        }
        cur = n.parent();
    }
    conditions.into_iter().any(|c| {
        let t = text(c, src);
        let numeric_only = [
            "isdigit",
            "isnumeric",
            "isdecimal",
            "ctype_digit",
            "is_numeric",
            "\\d",
            "[0-9]",
        ]
        .iter()
        .any(|k| t.contains(k));
        let excludes_self = t.contains("getpid") || t.contains("$$") || t.contains("process.pid");
        let selects = t.contains("==")
            || t.contains("===")
            || t.contains(" in ")
            || t.contains("name")
            || t.contains("cmdline")
            || t.contains("username")
            || t.contains("startswith")
            || t.contains("include")
            || t.contains("match")
            || t.contains("=~");
        if numeric_only || excludes_self {
            // Checks like `p.isdigit() and int(p) != os.getpid()` select every process.
            let t2 = t.replace("!=", "").replace("!==", "");
            t2.contains("==") || t.contains(" in ")
        } else {
            selects
        }
    })
}

/// Joins path components the way `os.path.join` does: an absolute component restarts.
fn join_paths(parts: &[String]) -> String {
    let mut out = String::new();
    for p in parts {
        if p.starts_with('/') || out.is_empty() {
            out.clone_from(p);
        } else {
            if !out.ends_with('/') {
                out.push('/');
            }
            out.push_str(p);
        }
    }
    out
}

/// The elements of a list argument (`unlink @files` with a literal list), else itself.
fn flatten<'e>(e: &'e Expr, _env: &Env) -> Vec<&'e Expr> {
    match e {
        Expr::List(items) => items.iter().collect(),
        other => vec![other],
    }
}

/// Which argument holds a path.
#[derive(Debug, Clone, Copy)]
enum Arg {
    Pos(usize),
    /// The first argument of the constructor the method is called on (`Path('x').unlink()`).
    Recv,
    /// A keyword argument, or the given position.
    Kw(&'static str, usize),
}

/// When a deserialiser runs code from its data.
#[derive(Debug, Clone, Copy)]
enum Unsafe {
    /// Always (`pickle.load`, `joblib.load`, `pandas.read_pickle`).
    Always,
    /// Unless the keyword (or the given position) names one of these (`torch.load(…,
    /// weights_only=True)`, `yaml.load(…, Loader=yaml.SafeLoader)`).
    Unless(&'static str, Option<usize>, &'static [&'static str]),
    /// Only when the keyword names one of these (`numpy.load(…, allow_pickle=True)`).
    When(&'static str, &'static [&'static str]),
}

/// The last name of an argument value (`yaml.SafeLoader` → `SafeLoader`, `True`).
fn last_name(e: &Expr) -> Option<&str> {
    match e {
        Expr::Name(n) => Some(n.rsplit(['.', ':']).next().unwrap_or(n)),
        Expr::Attr(_, a) => Some(a),
        _ => None,
    }
}

/// What a known API does.
#[derive(Debug, Clone, Copy)]
enum Api {
    /// One effect on one argument.
    Op(EffectOp, Arg),
    /// One effect on every argument from the given position (`unlink 'a', 'b'`).
    Each(EffectOp, usize),
    /// A recursive delete.
    Tree(Arg),
    /// Open with a mode argument: write when the mode writes; `write` when there is none.
    Open {
        path: Arg,
        mode: Arg,
        write: EffectOp,
    },
    /// Perl's `open`.
    PerlOpen,
    /// Copies: reads the first, writes the second.
    Copy(Arg, Arg),
    /// Renames: moves the first away, writes the second.
    Move(Arg, Arg),
    /// Starts a process; a literal command line is analysed as shell.
    Spawn(Arg),
    /// Starts a process whose argv is the arguments from the given position (`os.execl`).
    SpawnArgv(usize),
    /// Network access.
    Network(Arg),
    /// `putenv('X=1')`.
    PutEnv,
    /// `os.environ.update(X=…)`, `os.putenv('X', …)`, `ENV.store('X', …)`.
    SetEnvKw,
    /// Evaluates code (`eval`, `exec`, `Function`).
    Eval,
    /// Opens an SQLite database (written unless opened read-only by URI).
    Database(Arg),
    /// Sends a signal to the process (or group) in this argument; every later argument is
    /// a target too (Ruby's and Perl's `kill SIG, PID…`).
    Kill(Arg),
    /// Deserialises a format whose data can run code as it loads (pickle and its kin, unsafe
    /// YAML, PHP `unserialize`): fetched data given to it is fetched code.
    Deserialize(Unsafe),
    /// Loads a native library (`ctypes.CDLL(p)`, `Fiddle.dlopen(p)`, `dl(p)`): its code runs
    /// in the interpreter unread. A bare soname (`libc.so.6`) comes from the system's library
    /// path and is not reported; a path or a computed name is a file someone placed (ask).
    Load(Arg),
}

/// The decimal text of an integer literal node, with a leading minus (`-1`): node kinds of
/// every grammar (`integer`, `number`, unary minus).
fn integer_literal(node: Node<'_>, src: &str) -> Option<String> {
    if !matches!(
        node.kind(),
        "integer"
            | "number"
            | "unary_operator"
            | "unary_expression"
            | "unary"
            | "unary_op_expression"
    ) {
        return None;
    }
    let t: String = text(node, src)
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    t.parse::<i64>().ok().map(|n| n.to_string())
}

/// A file method called on a value whose type is only known at run time — a loop variable
/// over `rglob(…)`, the module a dynamic `import()` resolves to — read by its name where the
/// name belongs to one file API only (`unlinkSync` is `fs`'s, `write_text` is `pathlib`'s).
/// The receiver's path is then unknown (an unplaced effect: asked about, never dropped).
fn unknown_receiver_api(lang: Lang, name: &str) -> Option<Api> {
    let (_, method) = name.rsplit_once('.')?;
    match lang {
        Lang::Python => matches!(
            method,
            "unlink"
                | "rmdir"
                | "write_text"
                | "write_bytes"
                | "touch"
                | "chmod"
                | "lchmod"
                | "symlink_to"
                | "hardlink_to"
        )
        .then(|| python_api(&format!("pathlib.Path().{method}")))
        .flatten(),
        Lang::Node => {
            let base = method.strip_suffix("Sync").unwrap_or(method);
            matches!(
                base,
                "writeFile"
                    | "appendFile"
                    | "unlink"
                    | "rmdir"
                    | "rm"
                    | "rename"
                    | "chmod"
                    | "chown"
                    | "lchown"
                    | "truncate"
                    | "copyFile"
                    | "cp"
                    | "symlink"
                    | "link"
                    | "createWriteStream"
                    | "outputFile"
                    | "emptyDir"
            )
            .then(|| node_api(&format!("fs.{method}")))
            .flatten()
        }
        // Lua and R are read by a token scanner, not a tree-sitter grammar: no receiver types.
        Lang::Ruby
        | Lang::Php
        | Lang::Perl
        | Lang::Awk
        | Lang::Mongo
        | Lang::Lua
        | Lang::R
        | Lang::Other(_) => None,
    }
}

use Arg::{Kw, Pos, Recv};
use EffectOp::{Chmod, Delete, Read, Spawn, Write};

/// The API tables, keyed by canonical name. Model the families, not single spellings.
///
/// Decoders (`base64.b64decode`, `zlib.decompress`, `atob`, `Base64.decode64`,
/// `base64_decode`, `gzinflate`, `decode_base64`) are not in them since round 27: decoding
/// data runs nothing. What the decoded value reaches is judged there — `exec(…)`/`eval(…)` of
/// it is code built at run time, `os.system(…)` of it a command known only at run time — so a
/// one-liner that decodes and prints is not asked about.
fn api(lang: Lang, name: &str) -> Option<Api> {
    match lang {
        Lang::Python => python_api(name),
        Lang::Node => node_api(name),
        Lang::Ruby => ruby_api(name),
        Lang::Php => php_api(name),
        Lang::Perl => perl_api(name),
        Lang::Awk | Lang::Mongo | Lang::Lua | Lang::R | Lang::Other(_) => None,
    }
}

fn python_api(name: &str) -> Option<Api> {
    // Methods on a `pathlib.Path(...)` value.
    if let Some(m) = name
        .strip_prefix("pathlib.Path().")
        .or_else(|| name.strip_prefix("pathlib.PosixPath()."))
    {
        return Some(match m {
            "write_text" | "write_bytes" | "touch" | "mkdir" | "symlink_to" | "hardlink_to" => {
                Api::Op(Write, Recv)
            }
            "unlink" | "rmdir" => Api::Op(Delete, Recv),
            "rename" | "replace" => Api::Move(Recv, Pos(0)),
            "chmod" | "lchmod" => Api::Op(Chmod, Recv),
            "open" => Api::Open {
                path: Recv,
                mode: Kw("mode", 0),
                write: Read,
            },
            "read_text" | "read_bytes" => Api::Op(Read, Recv),
            _ => return None,
        });
    }
    Some(match name {
        "open" | "io.open" | "codecs.open" | "os.fdopen" => Api::Open {
            path: Kw("file", 0),
            mode: Kw("mode", 1),
            write: Read,
        },
        "os.open" => Api::Open {
            path: Kw("path", 0),
            mode: Kw("flags", 1),
            write: Read,
        },
        "os.remove" | "os.unlink" | "os.rmdir" | "os.removedirs" | "pathlib.Path.unlink" => {
            Api::Op(Delete, Kw("path", 0))
        }
        "shutil.rmtree" => Api::Tree(Kw("path", 0)),
        "os.rename" | "os.replace" | "os.renames" | "shutil.move" => Api::Move(Pos(0), Pos(1)),
        "shutil.copy" | "shutil.copy2" | "shutil.copyfile" | "shutil.copytree"
        | "shutil.copyfileobj" | "os.link" | "os.symlink" => Api::Copy(Pos(0), Pos(1)),
        "os.truncate" | "os.mkdir" | "os.makedirs" | "os.mkfifo" | "os.mknod" => {
            Api::Op(Write, Pos(0))
        }
        // libc's own calls reached through ctypes are the same calls as `os.*`'s
        // (`ctypes.CDLL(None).chmod(b"/etc/x", 0o777)`).
        "os.chmod"
        | "os.chown"
        | "os.lchown"
        | "os.lchmod"
        | "shutil.chown"
        | "ctypes.CDLL().chmod"
        | "ctypes.cdll.LoadLibrary().chmod"
        | "ctypes.cdll.libc.chmod" => Api::Op(Chmod, Pos(0)),
        "sqlite3.connect" | "sqlite3.dbapi2.connect" => Api::Database(Kw("database", 0)),
        "os.system"
        | "os.popen"
        | "subprocess.run"
        | "subprocess.call"
        | "subprocess.check_call"
        | "subprocess.check_output"
        | "subprocess.Popen"
        | "subprocess.getoutput"
        | "subprocess.getstatusoutput"
        | "pty.spawn"
        | "asyncio.create_subprocess_shell"
        | "commands.getoutput" => Api::Spawn(Kw("args", 0)),
        // libc's `system` reached through ctypes runs a shell command line.
        "asyncio.create_subprocess_exec"
        | "ctypes.CDLL().system"
        | "ctypes.cdll.LoadLibrary().system"
        | "ctypes.PyDLL().system"
        | "ctypes.cdll.libc.system"
        | "ctypes.CDLL().popen" => Api::Spawn(Pos(0)),
        "ctypes.CDLL"
        | "ctypes.PyDLL"
        | "ctypes.WinDLL"
        | "ctypes.OleDLL"
        | "ctypes.cdll.LoadLibrary"
        | "ctypes.pydll.LoadLibrary"
        | "_ctypes.dlopen"
        | "cffi.FFI().dlopen" => Api::Load(Pos(0)),
        "os.execv" | "os.execve" | "os.execvp" | "os.execvpe" | "os.posix_spawn"
        | "os.posix_spawnp" => Api::Spawn(Pos(1)),
        "os.execl" | "os.execle" | "os.execlp" | "os.execlpe" => Api::SpawnArgv(1),
        // libc through ctypes: the same calls (`ctypes.CDLL(None).kill(-1, 9)`).
        "os.kill"
        | "os.killpg"
        | "signal.pthread_kill"
        | "ctypes.CDLL().kill"
        | "ctypes.cdll.LoadLibrary().kill"
        | "ctypes.PyDLL().kill"
        | "ctypes.cdll.libc.kill"
        | "ctypes.CDLL().killpg"
        | "ctypes.cdll.LoadLibrary().killpg" => Api::Kill(Pos(0)),
        "ctypes.CDLL().unlink"
        | "ctypes.CDLL().remove"
        | "ctypes.CDLL().rmdir"
        | "ctypes.cdll.LoadLibrary().unlink"
        | "ctypes.cdll.LoadLibrary().remove"
        | "ctypes.cdll.LoadLibrary().rmdir"
        | "ctypes.cdll.libc.unlink"
        | "ctypes.cdll.libc.remove" => Api::Op(Delete, Pos(0)),
        "os.spawnv" | "os.spawnve" | "os.spawnvp" | "os.spawnvpe" => Api::Spawn(Pos(2)),
        "os.spawnl" | "os.spawnle" | "os.spawnlp" | "os.spawnlpe" => Api::SpawnArgv(2),
        "os.fork" | "os.forkpty" => Api::Op(Spawn, Pos(usize::MAX)),
        // Archives read the tree they pack (`make_archive(base, 'zip', '~/.ssh')`).
        "shutil.make_archive" => Api::Op(Read, Kw("root_dir", 2)),
        "os.putenv" | "os.environ.update" | "os.environ.setdefault" | "os.environ.__setitem__" => {
            Api::SetEnvKw
        }
        "urllib.request.urlopen"
        | "urllib.request.urlretrieve"
        | "urllib.urlopen"
        | "urllib2.urlopen"
        | "requests.get"
        | "requests.post"
        | "requests.put"
        | "requests.delete"
        | "requests.patch"
        | "requests.head"
        | "requests.request"
        | "httpx.get"
        | "httpx.post"
        | "httpx.put"
        | "httpx.delete"
        | "httpx.request"
        | "http.client.HTTPConnection"
        | "http.client.HTTPSConnection"
        | "socket.create_connection"
        | "urllib.request.Request"
        | "ftplib.FTP"
        | "smtplib.SMTP"
        | "telnetlib.Telnet" => Api::Network(Pos(0)),
        "socket.socket" => Api::Network(Pos(usize::MAX)),
        "eval"
        | "exec"
        | "compile"
        | "__import__"
        | "getattr"
        | "importlib.import_module"
        | "marshal.loads"
        | "pickle.loads" => Api::Eval,
        "pickle.load"
        | "pickle.Unpickler"
        | "_pickle.load"
        | "_pickle.loads"
        | "cPickle.load"
        | "cPickle.loads"
        | "dill.load"
        | "dill.loads"
        | "cloudpickle.load"
        | "cloudpickle.loads"
        | "joblib.load"
        | "jsonpickle.decode"
        | "pandas.read_pickle"
        | "marshal.load"
        | "yaml.unsafe_load"
        | "yaml.unsafe_load_all" => Api::Deserialize(Unsafe::Always),
        "torch.load" => Api::Deserialize(Unsafe::Unless("weights_only", None, &["True"])),
        "yaml.load" | "yaml.load_all" => Api::Deserialize(Unsafe::Unless(
            "Loader",
            Some(1),
            &["SafeLoader", "CSafeLoader", "BaseLoader"],
        )),
        "numpy.load" => Api::Deserialize(Unsafe::When("allow_pickle", &["True"])),
        _ => return None,
    })
}

fn node_api(name: &str) -> Option<Api> {
    Some(match name {
        "process.kill" => Api::Kill(Pos(0)),
        "process.dlopen" => Api::Load(Pos(1)),
        "fs.writeFileSync"
        | "fs.writeFile"
        | "fs.appendFileSync"
        | "fs.appendFile"
        | "fs.createWriteStream"
        | "fs.truncateSync"
        | "fs.truncate"
        | "fs.mkdirSync"
        | "fs.mkdir"
        | "fs.outputFile"
        | "fs.outputFileSync"
        | "fs.outputJson"
        | "fs.outputJsonSync"
        | "fs.writeJson"
        | "fs.writeJsonSync"
        | "fs.ensureFile"
        | "fs.ensureFileSync"
        | "fs.utimesSync"
        | "Deno.writeTextFile"
        | "Deno.writeTextFileSync"
        | "Deno.writeFile"
        | "Deno.writeFileSync"
        | "Deno.truncate"
        | "Deno.truncateSync"
        | "Deno.mkdir"
        | "Deno.create"
        | "Deno.createSync"
        | "Bun.write" => Api::Op(Write, Pos(0)),
        "fs.openSync" | "fs.open" | "Deno.open" | "Deno.openSync" => Api::Open {
            path: Pos(0),
            mode: Pos(1),
            write: Read,
        },
        "fs.rmSync" | "fs.rm" | "fs.removeSync" | "fs.remove" | "fs.emptyDirSync"
        | "fs.emptyDir" | "rimraf" | "rimraf.sync" | "rimraf.rimraf" | "rimraf.rimrafSync"
        | "del" | "del.deleteSync" | "del.sync" => Api::Tree(Pos(0)),
        "fs.unlinkSync" | "fs.unlink" | "fs.rmdirSync" | "fs.rmdir" | "Deno.remove"
        | "Deno.removeSync"
        | "os.remove" => Api::Op(Delete, Pos(0)),
        "fs.renameSync" | "fs.rename" | "fs.moveSync" | "fs.move" | "Deno.rename"
        | "Deno.renameSync" => Api::Move(Pos(0), Pos(1)),
        "fs.copyFileSync" | "fs.copyFile" | "fs.cpSync" | "fs.cp" | "fs.copySync" | "fs.copy"
        | "fs.symlinkSync" | "fs.symlink" | "fs.linkSync" | "fs.link" | "Deno.copyFile"
        | "Deno.copyFileSync" | "Deno.symlink" => Api::Copy(Pos(0), Pos(1)),
        "fs.chmodSync" | "fs.chmod" | "fs.chownSync" | "fs.chown" | "fs.lchownSync"
        | "fs.lchmodSync" | "Deno.chmod" | "Deno.chmodSync" | "Deno.chown" => {
            Api::Op(Chmod, Pos(0))
        }
        "fs.readFileSync"
        | "fs.readFile"
        | "fs.createReadStream"
        | "Deno.readTextFile"
        | "Deno.readTextFileSync"
        | "Deno.readFile"
        | "Bun.file"
        | "std.loadFile"
        | "std.open" => Api::Op(Read, Pos(0)),
        "child_process.exec"
        | "child_process.execSync"
        | "child_process.spawn"
        | "child_process.spawnSync"
        | "child_process.execFile"
        | "child_process.execFileSync"
        | "child_process.fork"
        | "execa"
        | "execa.execa"
        | "execa.execaSync"
        | "execa.execaCommand"
        | "shelljs.exec"
        | "Bun.spawn"
        | "Bun.spawnSync"
        | "Deno.run"
        | "Deno.Command"
        // QuickJS (`qjs --std`): `os.exec([argv…])`, `std.popen(line, mode)`.
        | "os.exec"
        | "std.popen" => Api::Spawn(Pos(0)),
        // JXA (`osascript -l JavaScript`): the standard additions' shell line on any
        // application object (`Application.currentApplication().doShellScript("…")`).
        _ if name == "doShellScript" || name.ends_with(".doShellScript") => Api::Spawn(Pos(0)),
        // JXA's Objective-C bridge: after `ObjC.import('stdlib')`, `$.system(line)` is libc's
        // system(3), a shell line; `$.popen(line, mode)` likewise.
        "$.system" | "$.popen" => Api::Spawn(Pos(0)),
        "fetch"
        | "http.request"
        | "http.get"
        | "https.request"
        | "https.get"
        | "net.connect"
        | "net.createConnection"
        | "tls.connect"
        | "dgram.createSocket"
        | "axios"
        | "axios.get"
        | "axios.post"
        | "axios.put"
        | "axios.delete"
        | "axios.request"
        | "WebSocket"
        | "XMLHttpRequest"
        | "Deno.connect"
        | "Bun.connect"
        | "std.urlGet" => Api::Network(Pos(0)),
        "net.Socket" | "net.Socket().connect" => Api::Network(Pos(usize::MAX)),
        "eval"
        | "Function"
        | "vm.runInThisContext"
        | "vm.runInNewContext"
        | "vm.Script" => Api::Eval,
        "Deno.env.set" => Api::SetEnvKw,
        "better-sqlite3" | "sqlite3.Database" | "sqlite.DatabaseSync" | "bun:sqlite.Database" => {
            Api::Database(Pos(0))
        }
        _ => return None,
    })
}

fn ruby_api(name: &str) -> Option<Api> {
    Some(match name {
        "Process.kill" => Api::Kill(Pos(1)),
        "Fiddle.dlopen" | "Fiddle.Handle.new" | "DL.dlopen" | "FFI.Library.ffi_lib" | "ffi_lib" => {
            Api::Load(Pos(0))
        }
        "File.write" | "IO.write" | "File.binwrite" | "IO.binwrite" | "FileUtils.touch"
        | "FileUtils.mkdir_p" | "FileUtils.mkdir" | "File.truncate" | "Dir.mkdir" => {
            Api::Op(Write, Pos(0))
        }
        "SQLite3.Database.new" | "SQLite3.Database.open" => Api::Database(Pos(0)),
        "File.open" | "File.new" | "open" | "IO.open" | "IO.sysopen" => Api::Open {
            path: Pos(0),
            mode: Kw("mode", 1),
            write: Read,
        },
        "File.delete"
        | "File.unlink"
        | "FileUtils.rm"
        | "FileUtils.rm_f"
        | "FileUtils.remove"
        | "FileUtils.remove_file"
        | "Dir.rmdir"
        | "Dir.delete"
        | "Dir.unlink"
        | "FileUtils.rmdir" => Api::Each(Delete, 0),
        "Pathname.new().delete" | "Pathname.new().unlink" | "Pathname.new().rmdir" => {
            Api::Op(Delete, Recv)
        }
        "Pathname.new().write" | "Pathname.new().binwrite" => Api::Op(Write, Recv),
        "FileUtils.rm_rf"
        | "FileUtils.rm_r"
        | "FileUtils.rmtree"
        | "FileUtils.remove_dir"
        | "FileUtils.remove_entry"
        | "FileUtils.remove_entry_secure" => Api::Tree(Pos(0)),
        "Pathname.new().rmtree" => Api::Tree(Recv),
        "File.rename" | "FileUtils.mv" | "FileUtils.move" => Api::Move(Pos(0), Pos(1)),
        "FileUtils.cp"
        | "FileUtils.copy"
        | "FileUtils.cp_r"
        | "FileUtils.copy_file"
        | "FileUtils.copy_entry"
        | "FileUtils.install"
        | "FileUtils.ln"
        | "FileUtils.ln_s"
        | "FileUtils.ln_sf"
        | "File.symlink"
        | "File.link"
        | "IO.copy_stream" => Api::Copy(Pos(0), Pos(1)),
        "File.chmod" | "File.lchmod" | "File.chown" | "File.lchown" | "FileUtils.chmod"
        | "FileUtils.chmod_R" | "FileUtils.chown" | "FileUtils.chown_R" => Api::Each(Chmod, 1),
        "File.read" | "IO.read" | "File.readlines" | "IO.readlines" | "File.binread"
        | "IO.foreach" => Api::Op(Read, Pos(0)),
        "system" | "exec" | "spawn" | "sh" | "FileUtils.sh" | "IO.popen" | "Open3.capture2"
        | "Open3.capture2e" | "Open3.capture3" | "Open3.popen2" | "Open3.popen2e"
        | "Open3.popen3" | "Open3.pipeline" | "Process.spawn" | "Process.exec" | "PTY.spawn" => {
            Api::Spawn(Pos(0))
        }
        // `fork` runs this program's own code (a block), no command.
        "fork" | "Process.fork" => Api::Op(Spawn, Pos(usize::MAX)),
        "ENV.store" | "ENV.update" | "ENV.merge!" | "ENV.replace" => Api::SetEnvKw,
        "Net.HTTP.get"
        | "Net.HTTP.get_response"
        | "Net.HTTP.post"
        | "Net.HTTP.post_form"
        | "Net.HTTP.start"
        | "Net.HTTP.new"
        | "URI.open"
        | "TCPSocket.new"
        | "TCPSocket.open"
        | "UDPSocket.new"
        | "Socket.tcp"
        | "HTTParty.get"
        | "HTTParty.post"
        | "Faraday.get"
        | "Faraday.post"
        | "RestClient.get"
        | "RestClient.post"
        | "Net.FTP.open" => Api::Network(Pos(0)),
        "eval" | "instance_eval" | "class_eval" | "module_eval" | "send" | "public_send"
        | "const_get" | "Marshal.load" => Api::Eval,
        "YAML.unsafe_load" | "Psych.unsafe_load" | "YAML.unsafe_load_file" => {
            Api::Deserialize(Unsafe::Always)
        }
        _ => return None,
    })
}

fn php_api(name: &str) -> Option<Api> {
    let lower = name.to_ascii_lowercase();
    Some(match lower.as_str() {
        "posix_kill" => Api::Kill(Pos(0)),
        "dl" | "ffi::load" => Api::Load(Pos(0)),
        "file_put_contents" | "touch" | "mkdir" | "tempnam" => Api::Op(Write, Pos(0)),
        "fopen" | "splfileobject" | "gzopen" => Api::Open {
            path: Pos(0),
            mode: Pos(1),
            write: Read,
        },
        "unlink" | "rmdir" => Api::Op(Delete, Pos(0)),
        "sqlite3" | "sqlite3.open" => Api::Database(Pos(0)),
        "rename" => Api::Move(Pos(0), Pos(1)),
        "copy" | "symlink" | "link" | "move_uploaded_file" => Api::Copy(Pos(0), Pos(1)),
        "chmod" | "chown" | "chgrp" | "lchown" | "lchgrp" => Api::Op(Chmod, Pos(0)),
        "fsockopen" | "pfsockopen" | "stream_socket_client" | "curl_init" | "get_headers" => {
            Api::Network(Pos(0))
        }
        "file_get_contents" | "readfile" | "file" => {
            // Reads a file, or the network when the argument is a URL / a host.
            Api::Op(Read, Pos(0))
        }
        "system" | "exec" | "shell_exec" | "passthru" | "popen" | "proc_open" | "pcntl_exec" => {
            Api::Spawn(Pos(0))
        }
        "pcntl_fork" => Api::Op(Spawn, Pos(usize::MAX)),
        "putenv" => Api::PutEnv,
        "curl_exec" | "curl_setopt" | "socket_connect" | "socket_create" | "mail" => {
            Api::Network(Pos(usize::MAX))
        }
        "eval" | "assert" | "create_function" | "call_user_func" | "call_user_func_array" => {
            Api::Eval
        }
        "unserialize" => Api::Deserialize(Unsafe::Always),
        _ => return None,
    })
}

fn perl_api(name: &str) -> Option<Api> {
    Some(match name {
        "kill" => Api::Kill(Pos(1)),
        "open" | "sysopen" => Api::PerlOpen,
        "unlink" | "rmdir" => Api::Each(Delete, 0),
        "rmtree" | "remove_tree" | "File.Path.rmtree" | "File.Path.remove_tree" => {
            Api::Tree(Pos(0))
        }
        "rename" | "File.Copy.move" | "File.Copy.mv" | "move" | "mv" => Api::Move(Pos(0), Pos(1)),
        "File.Copy.copy" | "File.Copy.cp" | "copy" | "cp" | "symlink" | "link" => {
            Api::Copy(Pos(0), Pos(1))
        }
        "chmod" | "chown" => Api::Each(Chmod, if name == "chmod" { 1 } else { 2 }),
        "mkdir" | "truncate" | "make_path" | "mkpath" | "File.Path.make_path" => {
            Api::Op(Write, Pos(0))
        }
        "system" | "exec" | "readpipe" | "IPC.Open3.open3" | "open3" | "open2" => {
            Api::Spawn(Pos(0))
        }
        "fork" => Api::Op(Spawn, Pos(usize::MAX)),
        "LWP.Simple.get"
        | "LWP.Simple.getstore"
        | "LWP.Simple.getprint"
        | "LWP.Simple.mirror"
        | "LWP.Simple.head"
        | "LWP.UserAgent.new"
        | "HTTP.Tiny.new"
        | "IO.Socket.INET.new"
        | "IO.Socket.IP.new"
        | "IO.Socket.SSL.new"
        | "Net.FTP.new"
        | "Net.SMTP.new"
        | "socket" => Api::Network(Pos(0)),
        "eval" => Api::Eval,
        _ => return None,
    })
}

/// Names that evaluate code even when no table entry matched (a method of that name on an
/// unknown object is not one: only bare or well-known names count).
fn is_dynamic_name(lang: Lang, name: &str) -> bool {
    match lang {
        Lang::Python => matches!(name, "eval" | "exec"),
        Lang::Node => matches!(name, "eval" | "Function"),
        Lang::Ruby | Lang::Perl => name == "eval",
        Lang::Php => matches!(name, "eval" | "assert"),
        Lang::Awk | Lang::Mongo | Lang::Lua | Lang::R | Lang::Other(_) => false,
    }
}

/// The `use` line Perl runs for a `-M`/`-m` flag (perlrun): `-MFoo` is `use Foo;`,
/// `-MFoo=a,b` is `use Foo qw(a b);` (what `split(/,/, q{a,b})` yields), `-mFoo` is
/// `use Foo ();` (nothing imported), `-M-Foo` is `no Foo;` (nothing imported either).
/// `None` for any other word, and for a bare `-M`/`-m` (its module is the next word).
/// Why: `perl -MFile::Path=rmtree -e 'rmtree(…)'` calls the module's function by its bare
/// name, so the code can only be read with the import the flag makes.
pub(crate) fn perl_module_flag(word: &str) -> Option<String> {
    let (import, rest) = if let Some(r) = word.strip_prefix("-M") {
        (true, r)
    } else {
        (false, word.strip_prefix("-m")?)
    };
    if rest.is_empty() || rest.starts_with('-') {
        return (!rest.is_empty()).then(String::new);
    }
    if !import {
        let module = rest.split_once('=').map_or(rest, |(m, _)| m);
        return Some(format!("use {module} ();\n"));
    }
    Some(match rest.split_once('=') {
        Some((module, list)) => format!("use {module} qw({});\n", list.replace(',', " ")),
        None => format!("use {rest};\n"),
    })
}

/// Functions a `use Module;` without a list exports.
fn perl_default_exports(module: &str) -> &'static [&'static str] {
    match module {
        "LWP.Simple" => &["get", "getstore", "getprint", "mirror", "head"],
        "File.Path" => &["rmtree", "mkpath"],
        "File.Copy" => &["copy", "move"],
        "IPC.Open3" => &["open3"],
        "MIME.Base64" => &["decode_base64"],
        _ => &[],
    }
}

/// A token of Lua source (Redis `EVAL` scripts): names with their dots, string literals,
/// punctuation. Comments (`--`, `--[[ ]]`) are skipped; long strings `[[…]]` are literals.
#[derive(Debug, Clone, PartialEq, Eq)]
enum LuaTok {
    Name(String),
    Str(String),
    Punct(char),
}

fn lua_tokens(code: &str) -> Vec<LuaTok> {
    tokens(Lang::Lua, code)
}

/// Tokens of Lua or R source (R: `#` comments, no long strings).
fn tokens(lang: Lang, code: &str) -> Vec<LuaTok> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let long_close = |from: usize| -> usize {
        let mut j = from;
        while j + 1 < chars.len() && !(chars[j] == ']' && chars[j + 1] == ']') {
            j += 1;
        }
        j
    };
    while let Some(&c) = chars.get(i) {
        let next = chars.get(i + 1).copied();
        if c.is_whitespace() {
            i += 1;
        } else if c == '#' && lang == Lang::R {
            while chars.get(i).is_some_and(|&c| c != '\n') {
                i += 1;
            }
        } else if c == '-' && next == Some('-') && lang == Lang::Lua {
            if chars.get(i + 2) == Some(&'[') && chars.get(i + 3) == Some(&'[') {
                i = long_close(i + 4) + 2;
            } else {
                while chars.get(i).is_some_and(|&c| c != '\n') {
                    i += 1;
                }
            }
        } else if c == '[' && next == Some('[') && lang == Lang::Lua {
            let end = long_close(i + 2);
            out.push(LuaTok::Str(
                chars.get(i + 2..end).unwrap_or(&[]).iter().collect(),
            ));
            i = end + 2;
        } else if c == '\'' || c == '"' {
            let mut value = String::new();
            i += 1;
            while let Some(&d) = chars.get(i) {
                i += 1;
                if d == c {
                    break;
                }
                if d == '\\' {
                    if let Some(&e) = chars.get(i) {
                        value.push(crate::tongues::escaped(e));
                        i += 1;
                    }
                    continue;
                }
                value.push(d);
            }
            out.push(LuaTok::Str(value));
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while chars
                .get(i)
                .is_some_and(|&d| d.is_alphanumeric() || d == '_' || d == '.' || d == ':')
            {
                i += 1;
            }
            out.push(LuaTok::Name(
                chars.get(start..i).unwrap_or(&[]).iter().collect(),
            ));
        } else {
            out.push(LuaTok::Punct(c));
            i += 1;
        }
    }
    out
}

/// The Redis commands a Lua script for `EVAL` runs with literal names: each
/// `redis.call('FLUSHALL')` / `redis.pcall("del", "k")` gives its leading literal arguments.
/// A call whose command name is not a literal gives `["EVAL-DYNAMIC"]`, which no rule
/// matches (the script's other commands are still judged).
pub(crate) fn redis_script_commands(script: &str) -> Vec<Vec<String>> {
    let toks = lua_tokens(script);
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let LuaTok::Name(n) = t else { continue };
        if !matches!(
            n.as_str(),
            "redis.call" | "redis.pcall" | "server.call" | "server.pcall"
        ) {
            continue;
        }
        if toks.get(i + 1) != Some(&LuaTok::Punct('(')) {
            continue;
        }
        let mut words = Vec::new();
        let mut j = i + 2;
        while let Some(LuaTok::Str(v)) = toks.get(j) {
            words.push(v.clone());
            j += 1;
            if toks.get(j) == Some(&LuaTok::Punct(',')) {
                j += 1;
            } else {
                break;
            }
        }
        if !words.is_empty() {
            out.push(words);
        }
    }
    out
}

/// Lua and R one-liners, read as calls (`name(args)`, Lua's `name"str"`) with literal
/// arguments: shell-outs (`os.execute`, `io.popen`, `system`, `system2`), deletions
/// (`os.remove`, `unlink(…, recursive = TRUE)`, `file.remove`), sockets (`require 'socket'`,
/// `socket.tcp`, `socketConnection`), fetched code (`source('http…')`) and dynamic evaluation
/// (`load`, `loadstring`, `eval(parse(…))`). A call whose argument is not a literal is a
/// run-time value (the caller asks).
fn call_scan(lang: Lang, code: &str) -> Vec<Finding> {
    let toks = tokens(lang, code);
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let LuaTok::Name(name) = t else { continue };
        let paren = toks.get(i + 1) == Some(&LuaTok::Punct('('));
        let bare_str = lang == Lang::Lua && matches!(toks.get(i + 1), Some(LuaTok::Str(_)));
        if !paren && !bare_str {
            continue;
        }
        let start = if paren { i + 2 } else { i + 1 };
        // Literal arguments up to the closing parenthesis (named `recursive = TRUE` kept).
        let mut lits: Vec<String> = Vec::new();
        let mut literal_first = false;
        let mut recursive = false;
        let mut computed = false;
        let mut depth = 0usize;
        let mut j = start;
        while let Some(tok) = toks.get(j) {
            match tok {
                LuaTok::Punct('(') => depth += 1,
                LuaTok::Punct(')') if depth == 0 => break,
                LuaTok::Punct(')') => depth -= 1,
                LuaTok::Str(v) => {
                    // One literal only when nothing joins it to more (`"rm -rf " .. HOME`,
                    // R's `paste0` aside): an operator after it computes the argument.
                    // (`f "x" .. y` calls `f` with the literal alone.)
                    if j == start {
                        literal_first = !paren
                            || !matches!(
                                toks.get(j + 1),
                                Some(LuaTok::Punct(c)) if !matches!(c, ',' | ')')
                            );
                    }
                    lits.push(v.clone());
                }
                LuaTok::Name(n) if n == "recursive" => {
                    recursive =
                        matches!(toks.get(j + 2), Some(LuaTok::Name(v)) if v == "TRUE" || v == "T");
                }
                // A value computed inside the arguments (`c("-rf", Sys.getenv("HOME"))`): its
                // literals are not the whole argument vector. Vector builders, constants and
                // keyword names (`stdout = TRUE`) are not values.
                LuaTok::Name(n)
                    if !matches!(
                        n.as_str(),
                        "c" | "list" | "TRUE" | "FALSE" | "T" | "F" | "NULL"
                    ) && toks.get(j + 1) != Some(&LuaTok::Punct('=')) =>
                {
                    computed = true;
                }
                _ => {}
            }
            if !paren {
                break;
            }
            j += 1;
        }
        let first = lits.first().filter(|_| literal_first).cloned();
        // The home spelled the language's way in a computed first argument
        // (`os.getenv("HOME") .. "/.ssh"`, `Sys.getenv("HOME")`, `path.expand("~")`): read
        // only for the calls that act on it.
        let home_of = || {
            if first.is_some() || !paren {
                return (None, None);
            }
            let mut parts = Vec::new();
            let mut depth = 0usize;
            for tok in toks.iter().skip(start) {
                match tok {
                    LuaTok::Punct('(') => depth += 1,
                    LuaTok::Punct(')' | ',') if depth == 0 => break,
                    LuaTok::Punct(')') => depth -= 1,
                    _ => {}
                }
                parts.push(match tok {
                    LuaTok::Name(n) => crate::tongues::Part::Name(n),
                    LuaTok::Str(v) => crate::tongues::Part::Str(v),
                    LuaTok::Punct(c) => crate::tongues::Part::Punct(*c),
                });
            }
            if parts.is_empty() {
                (None, None)
            } else {
                crate::tongues::home_of_parts(&parts)
            }
        };
        let dynamic = |out: &mut Vec<Finding>, why| {
            out.push(Finding::Effect {
                op: EffectOp::Spawn,
                path: None,
                recursive: false,
            });
            out.push(Finding::Dynamic(why));
        };
        // Neovim's Lua (`nvim -l`, `:lua`): `vim.fn.system("line")` runs a shell line,
        // `vim.fn.system({argv…})`, `vim.system({…})` and `jobstart` an argument vector.
        let nvim_spawn = lang == Lang::Lua
            && matches!(
                name.as_str(),
                "vim.fn.system"
                    | "vim.fn.systemlist"
                    | "vim.fn.jobstart"
                    | "vim.fn.termopen"
                    | "vim.system"
                    | "vim.loop.spawn"
                    | "vim.uv.spawn"
            );
        if nvim_spawn && first.is_none() && !lits.is_empty() {
            out.push(Finding::Shell {
                code: crate::interp::shell_join(&lits),
                exact: !computed,
            });
            continue;
        }
        let shell = nvim_spawn
            || matches!(
                (lang, name.as_str()),
                (Lang::Lua, "os.execute" | "io.popen")
                    | (Lang::R, "system" | "shell" | "pipe" | "system2")
            );
        let delete = matches!(
            (lang, name.as_str()),
            (Lang::Lua, "os.remove" | "vim.fn.delete" | "vim.fs.rm")
                | (
                    Lang::R,
                    "unlink" | "file.remove" | "fs::file_delete" | "fs::dir_delete"
                )
        );
        let network = matches!(
            (lang, name.as_str()),
            (
                Lang::Lua,
                "socket.tcp" | "socket.udp" | "socket.connect" | "socket.bind" | "http.request"
            ) | (
                Lang::R,
                "socketConnection"
                    | "url"
                    | "download.file"
                    | "httr::GET"
                    | "httr::POST"
                    | "httr::PUT"
                    | "httr::PATCH"
                    | "httr::VERB"
                    | "POST"
                    | "PUT"
                    | "PATCH"
                    | "VERB"
                    | "curl::curl"
                    | "curl::curl_fetch_memory"
                    | "curl::curl_fetch_disk"
                    | "curl::curl_upload"
                    | "curl_fetch_memory"
                    | "curl_fetch_disk"
                    | "curl_upload"
                    | "RCurl::postForm"
                    | "RCurl::getURL"
                    | "RCurl::httpPOST"
                    | "postForm"
                    | "httr2::req_perform"
                    | "req_perform"
            )
        ) || (name == "require"
            && first.as_deref().is_some_and(|m| m.starts_with("socket")));
        if shell {
            match first {
                Some(cmd) if name == "system2" => {
                    // R quotes `command` (`shQuote`) but pastes `args` into the shell line
                    // as they are (R's `?system2`): `system2("psql", c("-c", "\"DROP
                    // DATABASE x\""))` runs `'psql' -c "DROP DATABASE x"` through `sh`.
                    let mut code = crate::interp::shell_join(&[cmd]);
                    for arg in lits.into_iter().skip(1) {
                        code.push(' ');
                        code.push_str(&arg);
                    }
                    out.push(Finding::Shell {
                        code,
                        exact: !computed,
                    });
                }
                Some(cmd) => out.push(Finding::Shell {
                    code: cmd,
                    exact: true,
                }),
                None => match home_of().1 {
                    // `os.execute("rm -rf " .. os.getenv("HOME"))`.
                    Some(line) => out.push(Finding::Shell {
                        code: line,
                        exact: true,
                    }),
                    None => dynamic(&mut out, "runs a shell command built at run time"),
                },
            }
        } else if delete {
            let path = first.clone().or_else(|| home_of().0);
            out.push(Finding::Delete {
                exact: path.is_some(),
                path: path.unwrap_or_default(),
                recursive: recursive
                    || name == "fs::dir_delete"
                    || name == "vim.fs.rm"
                    || (name == "vim.fn.delete" && lits.iter().any(|l| l.contains('r'))),
            });
        } else if network {
            // R's `download.file(url, destfile)`: the file holds what was fetched, so running
            // it later (`system("sh /tmp/s.sh")`) is download-then-run.
            if lang == Lang::R
                && name == "download.file"
                && literal_first
                && let [url, dest, ..] = lits.as_slice()
                && is_url(url)
            {
                out.push(Finding::Downloaded { path: dest.clone() });
            }
            out.push(Finding::Effect {
                op: EffectOp::Network,
                path: first.filter(|f| f.contains("://")),
                recursive: false,
            });
        } else if name == "source" && first.as_deref().is_some_and(is_url) {
            out.push(Finding::FetchEval { call: name.clone() });
        } else if matches!(
            (lang, name.as_str()),
            (Lang::Lua, "load" | "loadstring" | "dofile" | "loadfile")
                | (Lang::R, "eval" | "evalq" | "parse")
        ) && !(lang == Lang::R && name == "parse" && first.is_none() && lits.is_empty())
        {
            out.push(Finding::Dynamic("evaluates code built at run time"));
        } else if lang == Lang::R && name == "Sys.setenv" {
            out.push(Finding::Effect {
                op: EffectOp::SetEnv,
                path: None,
                recursive: false,
            });
        }
    }
    crate::tongues::fetched_eval(&mut out);
    out
}

impl Parsers {
    /// The grammar path's findings for `code` (bulk deletes looked for too), and whether it
    /// left a bulk delete, destructive SQL or remote call behind: the reference the
    /// plain-Python fast path is checked against.
    pub(crate) fn grammar_reference(
        &mut self,
        lang: Lang,
        code: &str,
    ) -> (Option<Vec<Finding>>, bool) {
        self.want_bulk = true;
        let found = self.scan_grammar(lang, code);
        self.want_bulk = false;
        let side = self.last_bulk.take().is_some()
            || self.last_sql.take().is_some()
            || self.last_remote.take().is_some();
        (found, side)
    }
}

/// Whether a string is a bare host: an IP literal, `localhost`, or a dotted name of host
/// characters (`plc-3.plant.lan`), with an optional `:port` — not a path, a name or prose.
fn host_shaped(s: &str) -> bool {
    let host = s
        .rsplit_once(':')
        .filter(|(_, p)| p.bytes().all(|b| b.is_ascii_digit()))
        .map_or(s, |(h, _)| h);
    host.parse::<std::net::IpAddr>().is_ok()
        || host == "localhost"
        || (host.contains('.')
            && !host.starts_with('.')
            && !host.ends_with('.')
            && host
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-'))
            && host
                .rsplit('.')
                .next()
                .is_some_and(|tld| tld.bytes().all(|b| b.is_ascii_alphabetic())))
}
