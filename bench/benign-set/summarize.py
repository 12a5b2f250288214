#!/usr/bin/env python3
"""usage: summarize.py RESULTS.jsonl [N_EXAMPLES]: flagged share and clusters by rule id."""
import json, re, sys
from collections import defaultdict
rows = [json.loads(l) for l in open(sys.argv[1])]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 4
flag = [r for r in rows if r["decision"] in ("ask", "deny")]
err = [r for r in rows if r["decision"] == "error"]
print(f"{len(rows)} commands, flagged {len(flag)} = {100*len(flag)/len(rows):.2f} % "
      f"(deny {sum(r['decision']=='deny' for r in rows)}, ask {sum(r['decision']=='ask' for r in rows)}), errors {len(err)}")
by = defaultdict(list)
def key(r):
    """The reason id when the verdict names one, else the policy and its gist (numbers and
    quoted commands stripped), so one mechanism is one cluster."""
    if r["rule"]:
        return r["rule"]
    gist = r["reason"].replace("hookgate: ", "")
    gist = re.sub(r"`[^`]*`|/\S+|\d+", "…", gist)
    return gist[:80]


for r in flag: by[key(r)].append(r)
for rule, rs in sorted(by.items(), key=lambda kv: -len(kv[1])):
    print(f"\n## {rule or '(no id)'}  {len(rs)}")
    for r in rs[:n]: print(f"   {r['decision']:4} {r['command'][:150]}")
