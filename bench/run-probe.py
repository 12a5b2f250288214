#!/usr/bin/env python3
"""Run a probe list (D|cmd / B|cmd) through `hookgate explain --json`; print misses and totals."""
import json, subprocess, sys, concurrent.futures as cf
H = sys.argv[1]; path = sys.argv[2]; cwd = sys.argv[3] if len(sys.argv) > 3 else "/tmp/vproj"
cases = [l.rstrip("\n").split("|", 1) for l in open(path) if l[:2] in ("D|", "B|")]
def run(c):
    kind, cmd = c
    p = subprocess.run([H, "explain", "--json", "--no-user-hooks", "--cwd", cwd, cmd], capture_output=True, text=True)
    try:
        j = json.loads(p.stdout); d = j["verdict"]["decision"] or "allow"; r = j["verdict"].get("reason", "")
    except Exception:
        d, r = "error", p.stderr[:100]
    return kind, cmd, d, r
res = list(cf.ThreadPoolExecutor(3).map(run, cases))
dm = bm = dn = bn = 0
for kind, cmd, d, r in res:
    if kind == "D":
        dn += 1
        if d not in ("deny", "ask"):
            dm += 1; print(f"MISS  {cmd}   [{d}]")
    else:
        bn += 1
        if d != "allow":
            bm += 1; print(f"FP    {cmd}   [{d}: {r[:120]}]")
print(f"dangerous caught {dn-dm}/{dn}; benign flagged {bm}/{bn}")
