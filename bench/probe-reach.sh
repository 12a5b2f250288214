#!/bin/bash
# Runs bench/probe-reach.txt through `hookgate explain` and prints misses.
# D = should be denied or asked; B = should be allowed. Usage: probe-reach.sh BIN [FILE]
BIN=${1:-target/debug/hookgate}; FILE=${2:-bench/probe-reach.txt}
mkdir -p /tmp/reachproj
dm=0; dt=0; bm=0; bt=0
while IFS=$'\t' read -r kind cmd; do
  case "$kind" in D|B) ;; *) continue;; esac
  "$BIN" explain --no-user-hooks --cwd /tmp/reachproj "$cmd" >/dev/null 2>&1; rc=$?
  if [ "$kind" = D ]; then dt=$((dt+1)); [ $rc -eq 2 ] || { dm=$((dm+1)); echo "MISS	$cmd"; }
  else bt=$((bt+1)); [ $rc -eq 0 ] || { bm=$((bm+1)); echo "FP	$cmd"; }; fi
done < "$FILE"
echo "dangerous blocked: $((dt-dm))/$dt   benign flagged: $bm/$bt"
