#!/usr/bin/env python3
"""usage: merge.py BASE.jsonl NEW.jsonl... > OUT.jsonl
Concatenate extract*.py outputs, keep each command once, and leave out every command already in
BASE (so a new set and the round-16 set are disjoint). Drop rule (the only one): commands from
capture-the-flag demonstrations (`/ctf/` in the source path) are left out — they attack remote
targets on purpose. Other dangerous commands stay in the file and land in classify.py's
`justified` bucket, which is reported apart and not counted as false positives."""
import json, sys

seen = {json.loads(l)["command"] for l in open(sys.argv[1])}
for f in sys.argv[2:]:
    for line in open(f):
        r = json.loads(line)
        if r["command"] in seen or "/ctf/" in r["source"]:
            continue
        seen.add(r["command"])
        print(json.dumps(r))
