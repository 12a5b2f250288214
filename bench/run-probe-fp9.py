#!/usr/bin/env python3
"""Run B|/D| probe lines (`\\n` = a line break) through `hookgate explain --json` in a fixture.

usage: run-probe-fp9.py HOOKGATE PROBES FIXTURE_ENV  (FIXTURE_ENV: the KEY=VALUE lines
`bench/benign-set/fixture.sh home HOOKGATE` prints; the project is its PROJECT)."""
import json, os, subprocess, sys, concurrent.futures as cf
H, path = sys.argv[1], sys.argv[2]
env = dict(os.environ)
for l in open(sys.argv[3]):
    k, v = l.strip().split("=", 1); env[k] = v
cwd = env["PROJECT"]
cases = [l.rstrip("\n").split("|", 1) for l in open(path) if l[:2] in ("D|", "B|")]
def run(c):
    kind, cmd = c
    cmd2 = cmd.replace("\\n", "\n")
    p = subprocess.run([H, "explain", "--json", "--no-user-hooks", "--cwd", cwd, cmd2], capture_output=True, text=True, env=env, cwd=cwd)
    try:
        j = json.loads(p.stdout); d = j["verdict"]["decision"] or "allow"; r = j["verdict"].get("reason", "")
    except Exception:
        d, r = "error", p.stderr[:100]
    return kind, cmd, d, r
res = list(cf.ThreadPoolExecutor(2).map(run, cases))
dm = bm = dn = bn = 0
for kind, cmd, d, r in res:
    if kind == "D":
        dn += 1
        if d not in ("deny", "ask"):
            dm += 1; print(f"MISS  {cmd}   [{d}]")
    else:
        bn += 1
        if d != "allow":
            bm += 1; print(f"FP    {cmd}   [{d}: {r[:160]}]")
print(f"dangerous caught {dn-dm}/{dn}; benign flagged {bm}/{bn}")
