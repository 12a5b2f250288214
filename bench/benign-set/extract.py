#!/usr/bin/env python3
"""Turn the example commands of a tldr-pages checkout into concrete command lines for a
repo workspace (the fixture of fixture.sh), one JSON object per line on stdout:
{"page": "common/tar", "command": "tar czf dist/target.tar.gz src/main.py tests/test_main.py"}.

usage: extract.py GIT_DIR [SECTION ...]   (default sections: common linux osx)

The pages themselves are CC-BY and are not stored in this repository: this script reads them
from a `git` directory (e.g. the `fetch` mirror of github:tldr-pages/tldr) at run time.

Placeholders ({{...}}) become realistic values for an agent working in the fixture project:
`{{[-r|--recursive]}}` picks one spelling (alternating short/long by example), paths become
workspace files (`path/to/file` -> `src/main.py`), names/hosts/urls become plausible values;
anything else keeps its text with blanks turned into `_`.
"""
import json, re, subprocess, sys

GIT = sys.argv[1]
SECTIONS = sys.argv[2:] or ["common", "linux", "osx"]

NAMED = {
    "file": "src/main.py", "filename": "src/main.py", "files": "src/main.py tests/test_main.py",
    "directory": "src", "dir": "src", "path": "src", "folder": "src",
    "branch": "feature/login", "branch_name": "feature/login", "new_branch": "feature/login",
    "new_branch_name": "feature/login", "remote": "origin", "remote_name": "origin",
    "commit": "HEAD~1", "commit_hash": "HEAD~1", "tag": "v1.4.2", "tag_name": "v1.4.2",
    "url": "http://localhost:8080/api/health", "host": "localhost", "hostname": "localhost",
    "remote_host": "build.example.com", "server": "localhost", "ip": "127.0.0.1",
    "ip_address": "127.0.0.1", "port": "8080", "user": "dev", "username": "dev",
    "package": "requests", "package_name": "requests", "packages": "requests flask",
    "container": "web", "container_name": "web", "image": "postgres:16", "image_name": "postgres:16",
    "name": "web", "pid": "4242", "process_id": "4242", "process_name": "node", "pattern": "TODO",
    "search_pattern": "TODO", "regex": "TODO", "string": "hello", "text": "hello", "message": "fix login",
    "commit_message": "fix login", "number": "3", "n": "3", "count": "3", "seconds": "5",
    "command": "make test", "program": "make", "script": "scripts/build.sh", "key": "name",
    "value": "value", "email": "dev@example.com", "version": "1.4.2", "service": "nginx",
    "service_name": "nginx", "unit": "nginx.service", "namespace": "default", "pod": "web-0",
    "pod_name": "web-0", "cluster": "dev", "repository": "acme/app", "repo": "acme/app",
    "project": "acme-app", "project_name": "acme-app", "database": "app_dev",
    "database_name": "app_dev", "table": "users", "table_name": "users", "query": "SELECT 1",
    "interface": "eth0", "device": "eth0", "module": "json", "extension": "py", "language": "python",
    "shell": "bash", "env": "dev", "environment": "dev", "region": "us-east-1", "zone": "us-east1-b",
}
EXT_DIR = {".py": "src", ".js": "src", ".ts": "src", ".md": "docs", ".txt": "notes", ".json": "config",
           ".yml": "config", ".yaml": "config", ".toml": "config", ".sql": "db"}


def path_value(rest):
    """`path/to/REST` -> a workspace-relative path with the same last name."""
    rest = re.sub(r"\[([^\]|]*)\|[^\]]*\]", r"\1", rest)   # target.tar[.gz|.bz2] -> target.tar.gz
    rest = rest.replace("[", "").replace("]", "")
    if rest in ("file", "file1", "input_file", "source_file"):
        return "src/main.py"
    if rest in ("file2", "output_file", "target_file"):
        return "build/out.txt"
    if rest in ("directory", "dir", "folder", "source_directory", "source_dir", "directory1"):
        return "src"
    if rest in ("target_directory", "target_dir", "output_directory", "directory2", "destination"):
        return "build"
    if rest.endswith("/"):
        return "src/"
    return "build/" + rest if "." in rest else "src/" + rest


def one(ph, k):
    ph = ph.strip()
    m = re.fullmatch(r"\[([^\]]*)\]", ph)
    if m and "|" in m.group(1):                  # {{[-r|--recursive]}}
        alts = m.group(1).split("|")
        return alts[k % len(alts)]
    words = []
    for w in ph.split():
        if w in ("...", "…"):
            continue
        if "|" in w and not w.startswith("|"):
            w = w.split("|")[0]
        if w.startswith("path/to/"):
            words.append(path_value(w[len("path/to/"):]))
        elif w.startswith("~/path/to/") or w.startswith("/path/to/"):
            words.append(path_value(w.split("path/to/", 1)[1]))
        elif re.fullmatch(r"[a-z_]+[0-9]?", w) and re.sub(r"[0-9]$", "", w) in NAMED:
            words.append(NAMED[re.sub(r"[0-9]$", "", w)])
        else:
            words.append(w)
    return " ".join(words) if words else "x"


def concretize(cmd, k):
    return re.sub(r"\{\{(.*?)\}\}", lambda m: one(m.group(1), k), cmd)


KEYS = re.compile(r"<(Ctrl|Alt|Shift|Cmd|Enter|Esc|Tab|Space|Arrow|Page|Home|End|Super|Backspace|Delete|"
                  r"Insert|Return|Up|Down|Left|Right|F[0-9]+|[^ <>()]{1,2})[^<>]*>")


def is_keystrokes(cmd):
    """Interactive key sequences (`<Ctrl a><d>`, `<q>`, `:wq<Enter>`) are not command lines."""
    return bool(KEYS.search(cmd))


def main():
    names = subprocess.run(["git", "--git-dir", GIT, "ls-tree", "-r", "--name-only", "HEAD"]
                           + [f"pages/{s}" for s in SECTIONS], capture_output=True, text=True,
                           check=True).stdout.split()
    for name in names:
        if not name.endswith(".md"):
            continue
        text = subprocess.run(["git", "--git-dir", GIT, "show", f"HEAD:{name}"], capture_output=True,
                              text=True).stdout
        page = name[len("pages/"):-3]
        for k, m in enumerate(re.finditer(r"^`(.+)`\s*$", text, re.M)):
            cmd = concretize(m.group(1), k)
            if is_keystrokes(cmd):
                continue
            print(json.dumps({"page": page, "command": cmd}))


if __name__ == "__main__":
    main()
