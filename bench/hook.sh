#!/usr/bin/env bash
# Latency of a whole guard call: `hookgate hook claude` on a PreToolUse Bash payload with the
# default policy and the SQLite store, for an allowed and a denied command, beside spawning
# /bin/true and beside a peer guard from npm (cc-safety-net) in the same run.
#
#   bench/hook.sh [--runs N] [--json FILE]
#
# Needs hyperfine (installed from Debian's packages if missing) and, for the peer, npm (the peer
# row is left out with a notice if npm cannot install it).
set -euo pipefail

runs=300
json_out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --json) json_out="$2"; shift 2 ;;
    *) echo "usage: $0 [--runs N] [--json FILE]" >&2; exit 1 ;;
  esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v hyperfine >/dev/null; then
  echo "installing hyperfine..." >&2
  (apt-get install -y hyperfine >/dev/null 2>&1 || { apt-get update >/dev/null 2>&1 && apt-get install -y hyperfine >/dev/null; }) \
    || cargo install --locked hyperfine
fi
cargo build --release -q -p hookgate --manifest-path "$root/Cargo.toml"
bin="$root/target/release/hookgate"
# The same binary linked statically (glibc static-pie): no dynamic loader work at start-up.
# `--target` keeps the flag off build scripts and proc-macros.
host=$(rustc -vV | sed -n 's/^host: //p')
RUSTFLAGS="-C target-feature=+crt-static" cargo build --release -q -p hookgate \
  --manifest-path "$root/Cargo.toml" --target "$host" --target-dir "$root/target/static"
static_bin="$root/target/static/$host/release/hookgate"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/project"
payload() {
  printf '{"session_id":"bench","transcript_path":"/tmp/t.jsonl","cwd":"%s","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"%s","description":"bench"},"tool_use_id":"toolu_bench"}' "$work/project" "$1"
}
payload "cargo test --workspace" > "$work/allow.json"
payload "git push --force origin main" > "$work/deny.json"

peer_dir="${HOOKGATE_PEER_DIR:-$root/target/peer}"
peer="$peer_dir/node_modules/.bin/cc-safety-net"
if [ ! -x "$peer" ]; then
  npm install --silent --prefix "$peer_dir" cc-safety-net@2.4.5 >/dev/null 2>&1 || true
fi

export HOOKGATE_HOME="$work/home"
export HOOKGATE_CONFIG_DIR="$work/no-user-config"
cd "$work/project"
# Sanity: the allowed call is silent with exit 0, the denied one answers deny.
[ -z "$("$bin" hook claude < "$work/allow.json")" ] || { echo "allowed call was not silent" >&2; exit 1; }
"$bin" hook claude < "$work/deny.json" | grep -q '"deny"' || { echo "denied call was not denied" >&2; exit 1; }

# `--version` rows: the process start-up alone (loader, relocation, std and argument set-up),
# the reference the hook rows are read against.
cmds=(-n true "/bin/true"
      -n hookgate_version "$bin --version"
      -n hookgate_allow "$bin hook claude --input $work/allow.json"
      -n hookgate_deny "$bin hook claude --input $work/deny.json"
      -n hookgate_static_version "$static_bin --version"
      -n hookgate_static_allow "$static_bin hook claude --input $work/allow.json"
      -n hookgate_static_deny "$static_bin hook claude --input $work/deny.json")
if [ -x "$peer" ]; then
  # The peer reads its payload from stdin only, and this hyperfine cannot redirect without a
  # shell, so it runs through `sh -c` (about 0.6 ms of its figure is that shell).
  cmds+=(-n cc_safety_net_allow "sh -c '$peer hook --claude-code < $work/allow.json'")
else
  echo "notice: cc-safety-net could not be installed from npm; the peer row is left out" >&2
fi
hyperfine -N --runs "$runs" --warmup 20 --export-json "$work/result.json" "${cmds[@]}" >/dev/null

python3 - "$work/result.json" "$json_out" <<'PY'
import json, sys
data = {r["command"]: r["median"] * 1000 for r in json.load(open(sys.argv[1]))["results"]}
base = data["true"]
labels = {
    "true": "/bin/true (process floor)",
    "hookgate_version": "hookgate --version (start-up alone)",
    "hookgate_allow": "hookgate hook claude, allowed command",
    "hookgate_deny": "hookgate hook claude, denied command",
    "hookgate_static_version": "static: hookgate --version",
    "hookgate_static_allow": "static: hook claude, allowed command",
    "hookgate_static_deny": "static: hook claude, denied command",
    "cc_safety_net_allow": "cc-safety-net hook (npm, via sh -c), allowed",
}
print(f"{'case':<44} {'median ms':>10} {'x /bin/true':>12}")
for key, label in labels.items():
    if key in data:
        print(f"{label:<44} {data[key]:>10.3f} {data[key]/base:>12.2f}")
if sys.argv[2]:
    json.dump({"median_ms": data, "ratio_to_true": {k: v / base for k, v in data.items()}}, open(sys.argv[2], "w"), indent=2)
PY
