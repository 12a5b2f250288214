#!/usr/bin/env python3
"""Run every command of an extract.py file through `hookgate hook claude` inside the fixture
(fixture.sh "home" variant under $BENIGN_ROOT), the way Claude Code calls it, and write one JSON
result per line: page, command, decision (allow|ask|deny|error), rule (the [id] of the reason).

usage: BENIGN_ROOT=DIR [BENIGN_VARIANT=home|tmphome|globalcfg] measure.py BINARY COMMANDS.jsonl OUT.jsonl [-j N]
Then: summarize.py OUT.jsonl   (flagged share and clusters by rule id).
`@PROJECT@` in a command (extract_agents.py: the agent's own project root) stands for the
fixture's project directory.
"""
import json, os, re, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

binary, src, out = sys.argv[1:4]
jobs = int(sys.argv[5]) if len(sys.argv) > 5 and sys.argv[4] == "-j" else 2
root = os.environ["BENIGN_ROOT"]
here = os.path.dirname(os.path.abspath(__file__))
variant = os.environ.get("BENIGN_VARIANT", "home")  # fixture.sh variant: home | tmphome | globalcfg
fx = dict(l.split("=", 1) for l in subprocess.run([f"{here}/fixture.sh", variant, binary], check=True,
          capture_output=True, text=True).stdout.split())
env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": fx["HOME"], "USER": "dev", "SHELL": "/bin/bash",
       "LANG": "C.UTF-8", "HOOKGATE_HOME": fx["HOOKGATE_HOME"], "HOOKGATE_CONFIG_DIR": fx["HOOKGATE_CONFIG_DIR"]}
RULE = re.compile(r"\[([a-z0-9_.\-]+)\]")


def run(item):
    i, row = item
    payload = {"session_id": f"b{i}", "transcript_path": f"/tmp/benign-transcripts/b{i}.jsonl",
               "cwd": fx["PROJECT"], "permission_mode": "default", "hook_event_name": "PreToolUse",
               "tool_name": "Bash", "tool_input": {"command": row["command"].replace("@PROJECT@", fx["PROJECT"])}, "tool_use_id": f"t{i}"}
    p = subprocess.run([binary, "hook", "claude"], input=json.dumps(payload), capture_output=True,
                       text=True, env=env, cwd=fx["PROJECT"], timeout=30)
    decision, reason = "allow", ""
    if p.returncode == 2:
        decision, reason = "deny", p.stderr[:400]
    elif p.stdout.strip():
        try:
            h = json.loads(p.stdout).get("hookSpecificOutput", {})
            decision = h.get("permissionDecision", "allow")
            reason = h.get("permissionDecisionReason", "")
        except json.JSONDecodeError:
            decision, reason = "error", p.stdout[:300]
    elif p.returncode != 0:
        decision, reason = "error", p.stderr[:300]
    m = RULE.search(reason)
    return dict(row, decision=decision, rule=m.group(1) if m else "", reason=reason.split(". to let")[0][:300])


rows = [json.loads(l) for l in open(src)]
with ThreadPoolExecutor(jobs) as ex, open(out, "w") as f:
    for r in ex.map(run, enumerate(rows)):
        f.write(json.dumps(r) + "\n")
