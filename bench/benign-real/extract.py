#!/usr/bin/env python3
"""Extract the shell commands developers and CI actually run from public repository snapshots.

Sources read from each bare git dir (`git --git-dir=D show HEAD:path`):
  - GitHub Actions workflows: every `run:` step, split into the commands a shell would run
    (backslash continuations joined, here-documents and open if/for/while/case blocks kept whole);
  - Makefile recipes (leading @/-/+ stripped, $(VAR) -> ${VAR}, $$ -> $);
  - package.json "scripts";
  - justfile recipes and Taskfile.yml `cmds`;
  - ```bash/```sh/```shell/```console code blocks of README/CONTRIBUTING/docs markdown
    (`$ ` prompts stripped; output lines after a prompt dropped).
`${{ expr }}` (Actions templates, pasted before the shell runs) becomes the word `ghvalue`.

usage: extract.py MIRROR_DIR... > commands.jsonl
Each line: {"repo", "source" (kind:path), "command"}. Duplicates (same command) are kept once.
The extracted data is not committed (it is third-party text); regenerate it as README.md says.
"""
import json, os, re, subprocess, sys

import yaml


def git(d, *a):
    p = subprocess.run(["git", "--git-dir", d, *a], capture_output=True)
    return p.stdout.decode("utf-8", "replace") if p.returncode == 0 else ""


OPEN = re.compile(r"^\s*(if|for|while|until|case|function\b|[A-Za-z_][\w-]*\s*\(\)\s*\{?)\b")
HEREDOC = re.compile(r"<<-?\s*['\"]?([A-Za-z_][A-Za-z0-9_]*)['\"]?")


def split_script(text):
    """Split a multi-line script into the commands a shell reads one after the other: joins `\\`
    continuations, keeps here-docs and compound blocks (if/for/while/case/function, `{`/`(`
    groups) whole, drops comments and blank lines."""
    lines = text.replace("\r", "").split("\n")
    out, cur, depth, here = [], [], 0, None
    for ln in lines:
        if here is not None:
            cur.append(ln)
            if ln.strip() == here:
                here = None
                if depth <= 0:
                    out.append("\n".join(cur)); cur = []
            continue
        s = ln.strip()
        if not cur and (not s or s.startswith("#")):
            continue
        cur.append(ln)
        if s.endswith("\\"):
            continue
        m = HEREDOC.search(ln)
        if m and "<<<" not in ln:
            here = m.group(1)
            continue
        words = re.findall(r"[A-Za-z_]+|[{}()]", re.sub(r"#.*$", "", s))
        for w in words:
            if w in ("if", "for", "while", "until", "case", "{", "("):
                depth += 1
            elif w in ("fi", "done", "esac", "}", ")"):
                depth -= 1
        if depth <= 0 and not s.endswith(("&&", "||", "|")):
            depth = 0
            cmd = "\n".join(cur).strip()
            if cmd:
                out.append(cmd)
            cur = []
    if cur:
        out.append("\n".join(cur).strip())
    return [c for c in out if c]


def yaml_scripts(d, path, keys):
    """The shell scripts under any of `keys` (a string or a list of strings) anywhere in a YAML
    file, split into commands."""
    try:
        doc = yaml.safe_load(git(d, "show", f"HEAD:{path}"))
    except yaml.YAMLError:
        return
    def walk(x):
        if isinstance(x, dict):
            for k, v in x.items():
                if k in keys:
                    for c in (v if isinstance(v, list) else [v]):
                        if isinstance(c, str):
                            yield from split_script(c)
                else:
                    yield from walk(v)
        elif isinstance(x, list):
            for v in x:
                yield from walk(v)
    yield from walk(doc)


def workflows(d, path):
    yield from yaml_scripts(d, path, ("run",))


MAKEVAR = re.compile(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)")


def makefile(d, path):
    text = git(d, "show", f"HEAD:{path}")
    recipe = []
    def flush():
        if recipe:
            yield from split_script("\n".join(recipe))
            recipe.clear()
    for ln in text.split("\n"):
        if ln.startswith("\t"):
            body = ln[1:].lstrip("@-+ \t")
            if "$(shell" in body or "$(call" in body or "$(foreach" in body or "$(if" in body:
                continue  # make functions are not shell text
            body = MAKEVAR.sub(r"${\1}", body).replace("$$", "$").replace("$@", "target").replace("$<", "src")
            if recipe and recipe[-1].endswith("\\"):
                recipe[-1] = recipe[-1][:-1] + " " + body
            else:
                recipe.append(body)
        else:
            yield from flush()
    yield from flush()


def package_json(d, path):
    try:
        doc = json.loads(git(d, "show", f"HEAD:{path}"))
    except ValueError:
        return
    scripts = doc.get("scripts") if isinstance(doc, dict) else None
    if isinstance(scripts, dict):
        for v in scripts.values():
            if isinstance(v, str):
                yield v


def justfile(d, path):
    text = git(d, "show", f"HEAD:{path}")
    for ln in text.split("\n"):
        if ln.startswith(("    ", "\t")) and not ln.strip().startswith(("#", "#!")):
            body = ln.strip().lstrip("@-")
            body = re.sub(r"\{\{\s*([A-Za-z_]+)\s*\}\}", r"${\1}", body)
            if body:
                yield body


def taskfile(d, path):
    try:
        doc = yaml.safe_load(git(d, "show", f"HEAD:{path}"))
    except yaml.YAMLError:
        return
    tasks = doc.get("tasks", {}) if isinstance(doc, dict) else {}
    for t in (tasks or {}).values():
        cmds = t.get("cmds", []) if isinstance(t, dict) else []
        for c in cmds or []:
            c = c.get("cmd") if isinstance(c, dict) else c
            if isinstance(c, str):
                c = re.sub(r"\{\{\s*\.([A-Za-z_]+)\s*\}\}", r"${\1}", c)
                yield from split_script(c)


FENCE = re.compile(r"^```\s*(bash|sh|shell|console|shell-session|zsh)\s*$(.*?)^```", re.M | re.S)


def markdown(d, path):
    text = git(d, "show", f"HEAD:{path}")
    for m in FENCE.finditer(text):
        body = m.group(2)
        if m.group(1) in ("console", "shell-session") or re.search(r"^\s*\$ ", body, re.M):
            body = "\n".join(l.strip()[2:] for l in body.split("\n") if l.strip().startswith("$ "))
        yield from split_script(body)


def sources(d):
    files = git(d, "ls-tree", "-r", "--name-only", "HEAD").split("\n")
    for f in files:
        base = os.path.basename(f)
        low = base.lower()
        if f.startswith(".github/workflows/") and low.endswith((".yml", ".yaml")):
            yield "workflow", f, workflows
        elif low in ("makefile", "gnumakefile") or low.endswith(".mk") and f.count("/") <= 1:
            yield "make", f, makefile
        elif base == "package.json" and "node_modules" not in f and f.count("/") <= 2:
            yield "npm", f, package_json
        elif low in ("justfile", ".justfile"):
            yield "just", f, justfile
        elif low in ("taskfile.yml", "taskfile.yaml"):
            yield "task", f, taskfile
        elif low.endswith(".md") and (f.count("/") == 0 or low in ("contributing.md", "development.md", "building.md")
                                      or f.startswith(("docs/", ".github/"))) and f.count("/") <= 2:
            yield "doc", f, markdown


GHEXPR = re.compile(r"\$\{\{.*?\}\}", re.S)


def emit(dirs, sources, rewrite=None):
    """Print each command of each mirror's sources once, as one JSON row. `sources(d)` yields
    (kind, path, reader) with `reader(d, path)` yielding commands; `rewrite(repo, kind)`, when
    given, returns a function applied to every command of that source."""
    seen = set()
    for d in dirs:
        repo = os.path.basename(os.path.dirname(d.rstrip("/"))).replace("+", "/")
        for kind, path, fn in sources(d):
            fix = rewrite(repo, kind) if rewrite else None
            for cmd in fn(d, path):
                # `${{ expr }}` is GitHub's template syntax, substituted before any shell reads the
                # line: stand a plain word in for the value the runner would paste.
                cmd = GHEXPR.sub("ghvalue", cmd).strip()
                if fix:
                    cmd = fix(cmd)
                if not cmd or len(cmd) > 4000 or cmd in seen:
                    continue
                seen.add(cmd)
                print(json.dumps({"repo": repo, "source": f"{kind}:{path}", "command": cmd}))


def main():
    emit(sys.argv[1:], sources)


if __name__ == "__main__":
    main()
