#!/usr/bin/env bash
# Regenerates crates/hookgate/startup-order.txt: the functions a guard call runs, in the order
# they first run, which README command 1 (.ci/build-release) hands to the linker
# (`--symbol-ordering-file`) so that they sit side by side in the binary.
#
#   bench/startup-order.sh
#
# Why: a guard call is a fresh process, and the kernel maps the binary's code lazily, one
# 64 KiB window per page fault. Left where the compiler puts them, the ~600 functions of a call
# are spread over the 13 MB of code and cost ~70 faults; packed together they cost ~15.
#
# How: a release binary with symbols (the same flags as README command 1, not stripped) runs
# under valgrind's callgrind for an allowed shell call, a denied one, an edit and a read, in
# Claude Code's and Codex's formats; every function that ran is listed, first run first. Names
# are mangled with a hash of the crate's build metadata, not of its code, so the list stays
# valid across most edits; a stale or missing name only costs a fault (the linker skips names
# it does not know). That metadata covers the crate's dependencies: a change to Cargo.lock
# under a hookgate crate (a new grammar crate, a version bump) or a new rustc renames every
# function of every hookgate crate, and the list silently stops packing them (round 27's
# tree-sitter-powershell did: the allowed call went from ~90 to 144 faults, 1.34x to 1.74x
# /bin/true). Re-run it after such changes and after large changes to the hook path, and
# check the page faults with `perf stat -e page-faults` or bench/hook.sh.
#
# Needs valgrind (installed from Debian's packages if missing). Leaves target/release/hookgate
# unstripped: run README command 1 again afterwards.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v valgrind >/dev/null; then
  echo "installing valgrind..." >&2
  apt-get install -y valgrind >/dev/null 2>&1 || { apt-get update >/dev/null 2>&1 && apt-get install -y valgrind >/dev/null; }
fi
# README command 1's build (.ci/build-release), with symbols kept.
# The list is about to be replaced: the build's staleness check would refuse the old one.
HOOKGATE_SKIP_ORDER_CHECK=1 bash "$root/.ci/build-release" -C strip=none >/dev/null 2>&1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$root/target/release/hookgate" "$work/hookgate"
mkdir -p "$work/project/src"
echo 'fn main() {}' > "$work/project/src/main.rs"
claude() {
  printf '{"session_id":"order","transcript_path":"/tmp/t.jsonl","cwd":"%s","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"%s","tool_input":%s,"tool_use_id":"toolu_order"}' \
    "$work/project" "$1" "$2"
}
claude Bash '{"command":"cargo test --workspace"}' > "$work/1.json"
claude Bash '{"command":"git push --force origin main"}' > "$work/2.json"
claude Write "{\"file_path\":\"$work/project/src/main.rs\",\"content\":\"fn main() {}\"}" > "$work/3.json"
claude Read "{\"file_path\":\"$work/project/src/main.rs\"}" > "$work/4.json"
printf '{"session_id":"order","cwd":"%s","hook_event_name":"PreToolUse","model":"m","permission_mode":"default","tool_name":"Bash","tool_input":{"command":"ls -la"},"tool_use_id":"call_order"}' \
  "$work/project" > "$work/5.json"
export HOOKGATE_HOME="$work/home" HOOKGATE_CONFIG_DIR="$work/no-user-config"
cd "$work/project"
for i in 1 2 3 4; do
  valgrind --tool=callgrind --callgrind-out-file="$work/cg.$i" --compress-strings=no --demangle=no \
    "$work/hookgate" hook claude --input "$work/$i.json" >/dev/null 2>&1 || true
done
valgrind --tool=callgrind --callgrind-out-file="$work/cg.5" --compress-strings=no --demangle=no \
  "$work/hookgate" hook codex --input "$work/5.json" >/dev/null 2>&1 || true
python3 - "$root/crates/hookgate/startup-order.txt" "$work"/cg.1 "$work"/cg.2 "$work"/cg.3 "$work"/cg.4 "$work"/cg.5 <<'PY'
import sys
seen, order = set(), []
for path in sys.argv[2:]:
    for line in open(path, errors="replace"):
        if line.startswith(("fn=", "cfn=")):
            name = line.split("=", 1)[1].strip()
            # Unnamed code (addresses) cannot be ordered by name.
            if name and not name.startswith("0x") and name not in seen:
                seen.add(name)
                order.append(name)
if len(order) < 100:
    sys.exit(f"only {len(order)} functions recorded: did the hook calls run?")
open(sys.argv[1], "w").write("\n".join(order) + "\n")
print(f"{len(order)} functions written to {sys.argv[1]}")
PY
