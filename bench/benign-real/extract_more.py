#!/usr/bin/env python3
"""Extract commands from the sources extract.py does not read, for ecosystems it under-covers:
  - Dockerfile RUN lines (shell form; `exec form` JSON arrays joined), split like a script;
  - devcontainer.json postCreateCommand / postStartCommand / onCreateCommand / updateContentCommand
    (string or list form; the object form's values);
  - tox.ini `commands =` / `commands_pre =` (tox substitutions {posargs}/{envdir} kept as words);
  - noxfile.py `session.run("a", "b", ...)` calls rebuilt as a command line (literal strings only);
  - Jupyter notebooks: `!cmd` lines and `%%bash`/`%%sh` cells of code cells;
  - .gitlab-ci.yml `script:`/`before_script:` lists.
Plus everything extract.py reads (run it too; `seen` is per invocation, so dedupe when merging).

usage: extract_more.py MIRROR_DIR... > more.jsonl
"""
import ast, json, os, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from extract import emit, git, split_script, yaml_scripts  # noqa: E402



def dockerfile(d, path):
    text = git(d, "show", f"HEAD:{path}").replace("\\\r\n", "\\\n")
    lines, cur = [], []
    for ln in text.split("\n"):
        if cur:
            cur.append(ln)
            if not ln.rstrip().endswith("\\"):
                lines.append("\n".join(cur)); cur = []
            continue
        if re.match(r"^\s*RUN\s", ln, re.I):
            body = re.sub(r"^\s*RUN\s+(--\S+\s+)*", "", ln, flags=re.I)
            if ln.rstrip().endswith("\\"):
                cur = [body]
            else:
                lines.append(body)
    if cur:
        lines.append("\n".join(cur))
    for body in lines:
        b = body.strip()
        if b.startswith("["):
            try:
                yield " ".join(json.loads(b)); continue
            except ValueError:
                pass
        if "<<" in b and re.match(r"^<<", b):
            continue  # heredoc RUN: the script follows as a document
        joined = re.sub(r"\\\n", " ", b)
        joined = "\n".join(l for l in joined.split("\n") if not l.strip().startswith("#"))
        yield from split_script(joined)


def devcontainer(d, path):
    text = git(d, "show", f"HEAD:{path}")
    text = re.sub(r"^\s*//.*$", "", text, flags=re.M)
    text = re.sub(r",(\s*[}\]])", r"\1", text)
    try:
        doc = json.loads(text)
    except ValueError:
        return
    for k in ("postCreateCommand", "postStartCommand", "onCreateCommand", "updateContentCommand",
              "postAttachCommand", "initializeCommand"):
        v = doc.get(k) if isinstance(doc, dict) else None
        vals = v.values() if isinstance(v, dict) else [v]
        for x in vals:
            if isinstance(x, list):
                yield " ".join(str(w) for w in x)
            elif isinstance(x, str):
                yield from split_script(x)


def toxini(d, path):
    text = git(d, "show", f"HEAD:{path}")
    cur = None
    for ln in text.split("\n"):
        m = re.match(r"^\s*(commands(?:_pre|_post)?)\s*=\s*(.*)$", ln)
        if m:
            cur = True
            if m.group(2).strip():
                yield m.group(2).strip()
            continue
        if cur and ln.startswith((" ", "\t")) and ln.strip() and not ln.strip().startswith("#"):
            yield ln.strip().lstrip("-").strip()
        else:
            cur = None


def noxfile(d, path):
    try:
        tree = ast.parse(git(d, "show", f"HEAD:{path}"))
    except SyntaxError:
        return
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("run", "install", "run_always")):
            words = []
            for a in node.args:
                if isinstance(a, ast.Constant) and isinstance(a.value, str):
                    words.append(a.value if re.fullmatch(r"[\w@%+=:,./-]+", a.value) else "'" + a.value.replace("'", "") + "'")
                else:
                    words = None
                    break
            if words:
                if node.func.attr == "install":
                    words = ["python", "-m", "pip", "install"] + words
                yield " ".join(words)


def notebook(d, path):
    try:
        doc = json.loads(git(d, "show", f"HEAD:{path}"))
    except ValueError:
        return
    for cell in doc.get("cells", []) if isinstance(doc, dict) else []:
        if cell.get("cell_type") != "code":
            continue
        src = cell.get("source")
        src = "".join(src) if isinstance(src, list) else (src or "")
        if re.match(r"^\s*%%(bash|sh)\b", src):
            yield from split_script(src.split("\n", 1)[1] if "\n" in src else "")
            continue
        for ln in src.split("\n"):
            s = ln.strip()
            if s.startswith("!") and len(s) > 1:
                yield s[1:].strip()


def gitlab(d, path):
    yield from yaml_scripts(d, path, ("script", "before_script", "after_script"))


def sources(d):
    for f in git(d, "ls-tree", "-r", "--name-only", "HEAD").split("\n"):
        base = os.path.basename(f); low = base.lower()
        if low == "dockerfile" or low.startswith("dockerfile.") or low.endswith(".dockerfile"):
            yield "docker", f, dockerfile
        elif low in ("devcontainer.json", ".devcontainer.json"):
            yield "devcontainer", f, devcontainer
        elif low == "tox.ini":
            yield "tox", f, toxini
        elif low == "noxfile.py":
            yield "nox", f, noxfile
        elif low.endswith(".ipynb") and f.count("/") <= 4:
            yield "notebook", f, notebook
        elif low == ".gitlab-ci.yml":
            yield "gitlab", f, gitlab


def main():
    emit(sys.argv[1:], sources)


if __name__ == "__main__":
    main()
