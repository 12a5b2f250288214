#!/usr/bin/env python3
"""Recall of the shell analyzer on GTFOBins, in the agent's threat model.

Reads the GTFOBins catalogue from a local checkout (not vendored: its content is GPL-3.0),
turns each entry of the functions an agent could abuse into one dangerous case (and, for
command-carrying entries, one benign neighbour), runs them through the analyzer (the `table`
example of hookgate-shell) and prints recall per function plus the misses.

    python3 bench/gtfobins.py DIR_WITH__gtfobins [--misses] [--json]

Placeholders are filled in for the agent context (home /home/user, workspace /home/user/project):
* reverse-shell / bind-shell: as written (a socket wired to a shell) -> must be flagged;
* upload: the input file is a private key, DATA a credential file's contents -> flagged;
* download: the output file is then executed (`sh FILE`) -> flagged;
* command / shell: the command (or `/bin/sh`) becomes `rm -rf /home/user` -> flagged,
  and `echo hi` for the benign neighbour -> must stay allowed;
* file-write: the output file is ~/.bashrc -> flagged; a workspace file for the neighbour;
* library-load: a library the session built in the workspace -> flagged.
suid/sudo/capabilities contexts are ignored (not the agent's threat model).
"""
import json, os, subprocess, sys, collections
import yaml

HOME = "/home/user"
DANGER_CMD = "rm -rf /home/user"
BENIGN_CMD = "echo hi"
FUNCS = ["reverse-shell", "bind-shell", "upload", "download", "command", "shell",
         "file-write", "library-load"]


def fill(code, fn, benign=False):
    cmd = BENIGN_CMD if benign else DANGER_CMD
    c = code
    c = c.replace("/path/to/input-file", HOME + "/.ssh/id_ed25519")
    if fn == "file-write":
        c = c.replace("/path/to/output-file",
                      HOME + ("/project/notes.txt" if benign else "/.bashrc"))
    elif fn == "download":
        c = c.replace("/path/to/output-file", "./payload.sh")
    else:
        c = c.replace("/path/to/output-file", "/tmp/out")
    if fn in ("command",):
        c = c.replace("/path/to/command", cmd)
    if fn == "shell":
        c = c.replace("/bin/sh", "/bin/" + cmd)
    if fn == "upload":
        c = c.replace("DATA", "$(cat ~/.aws/credentials)")
    c = c.replace("/path/to/lib.so", "./lib.so").replace("/path/to/lib", "./lib")
    c = c.replace("/path/to/temp-file", "/tmp/x").replace("/path/to/temp-dir", "/tmp/d")
    c = c.replace("/path/to/dir", "/tmp/d")
    if fn == "download":
        c = c + "\nsh ./payload.sh"
    if fn == "library-load":
        c = "cc -shared -fPIC -o lib.so x.c\n" + c
    return c


def cases(root):
    d = os.path.join(root, "_gtfobins")
    for name in sorted(os.listdir(d)):
        docs = [x for x in yaml.safe_load_all(open(os.path.join(d, name))) if x]
        if not docs:
            continue
        for fn, entries in (docs[0].get("functions") or {}).items():
            if fn not in FUNCS:
                continue
            for i, e in enumerate(entries or []):
                if not isinstance(e, dict) or "code" not in e:
                    continue
                if "unprivileged" not in (e.get("contexts") or {}):
                    continue
                code = e["code"]
                yield dict(bin=name, fn=fn, i=i, cmd=fill(code, fn), expect="flag")
                if fn in ("command", "shell", "file-write"):
                    yield dict(bin=name, fn=fn + "/benign", i=i,
                               cmd=fill(code, fn, benign=True), expect="allow")


def run(rows, exe):
    data = "\0".join(r["cmd"] for r in rows).encode()
    out = subprocess.run([exe], input=data, capture_output=True, check=True).stdout
    for r, line in zip(rows, out.decode().splitlines()):
        r.update(json.loads(line))


def main():
    root = sys.argv[1]
    here = os.path.dirname(os.path.abspath(__file__))
    exe = os.path.join(here, "..", "target", "debug", "examples", "table")
    rows = [r for r in cases(root) if r["cmd"].strip()]
    run(rows, exe)
    stats = collections.defaultdict(lambda: [0, 0])
    for r in rows:
        ok = (r["action"] != "allow") if r["expect"] == "flag" else (r["action"] == "allow")
        r["ok"] = ok
        stats[r["fn"]][0] += ok
        stats[r["fn"]][1] += 1
    if "--json" in sys.argv:
        json.dump(rows, sys.stdout, indent=1)
        return
    tot = [0, 0]
    for fn in sorted(stats):
        ok, n = stats[fn]
        print(f"{fn:<22} {ok:>4}/{n:<4} {100*ok/n:5.1f}%")
        if not fn.endswith("/benign"):
            tot[0] += ok; tot[1] += n
    print(f"{'dangerous total':<22} {tot[0]:>4}/{tot[1]:<4} {100*tot[0]/tot[1]:5.1f}%")
    if "--misses" in sys.argv:
        for r in rows:
            if not r["ok"]:
                print(f"\n# {r['fn']} {r['bin']}#{r['i']} -> {r['action']} {r['rule_id']}\n{r['cmd']}")


if __name__ == "__main__":
    main()
