#!/usr/bin/env bash
# Latency of a whole guard call: `hookgate hook claude` on a PreToolUse Bash payload with the
# default policy and the SQLite store, for an allowed and a denied command, beside spawning
# /bin/true and beside a peer guard from npm (cc-safety-net) in the same run.
#
#   bench/hook.sh [--runs N] [--reps N] [--json FILE] [--builds all|readme]
#
# --builds readme measures README command 1's binary only (one release build instead of three:
# each fat-LTO build takes minutes on a 2-core machine); the default also builds the dynamic
# (`cargo install`) and static-PIE binaries and compares them in the same run.
#
# hyperfine measures its rows one after another, and on a shared machine the load drifts between
# them; so there are many short repetitions (--reps, default 15, of --runs, default 60), each
# measuring /bin/true first and last, and a row's ratio in a repetition is its median over the
# mean of those two. The table shows, per row, the median over the repetitions of its median and
# of that ratio, and the ratio's interquartile range across repetitions (how noisy it was).
#
# Needs hyperfine (installed from Debian's packages if missing) and, for the peer, npm (the peer
# row is left out with a notice if npm cannot install it).
set -euo pipefail

runs=60
reps=15
json_out=""
builds=all
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --reps) reps="$2"; shift 2 ;;
    --json) json_out="$2"; shift 2 ;;
    --builds) builds="$2"; shift 2 ;;
    *) echo "usage: $0 [--runs N] [--reps N] [--json FILE] [--builds all|readme]" >&2; exit 1 ;;
  esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v hyperfine >/dev/null; then
  echo "installing hyperfine..." >&2
  (apt-get install -y hyperfine >/dev/null 2>&1 || { apt-get update >/dev/null 2>&1 && apt-get install -y hyperfine >/dev/null; }) \
    || cargo install --locked hyperfine
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
case "$builds" in
  all | readme) ;;
  *) echo "--builds takes all or readme, not '$builds'" >&2; exit 1 ;;
esac
bins=()
if [ "$builds" = all ]; then
  # Three builds of the same release profile (fat LTO, one codegen unit), differing only in the
  # final link; each lands in target/release/hookgate and is copied out.
  # 1. Dynamically linked PIE: plain `cargo build --release` (what `cargo install` gives).
  cargo build --release -q -p hookgate --manifest-path "$root/Cargo.toml"
  cp "$root/target/release/hookgate" "$work/hookgate-dynamic"
  bin="$work/hookgate-dynamic"
  # 2. Static PIE (glibc static-pie): no loader, but the binary relocates itself at start-up.
  cargo rustc --release -q -p hookgate --bin hookgate --manifest-path "$root/Cargo.toml" \
    -- -C target-feature=+crt-static
  cp "$root/target/release/hookgate" "$work/hookgate-static-pie"
  pie_bin="$work/hookgate-static-pie"
  bins+=("$bin" "$pie_bin")
fi
# 3. README command 1 (.ci/build-release): static, fixed address, start-up functions packed.
bash "$root/.ci/build-release" >/dev/null 2>&1
cp "$root/target/release/hookgate" "$work/hookgate-static"
static_bin="$work/hookgate-static"
bins+=("$static_bin")
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
# Sanity: in every build the allowed call is silent with exit 0, the denied one answers deny.
for b in "${bins[@]}"; do
  [ -z "$("$b" hook claude < "$work/allow.json")" ] || { echo "$b: allowed call was not silent" >&2; exit 1; }
  "$b" hook claude < "$work/deny.json" | grep -q '"deny"' || { echo "$b: denied call was not denied" >&2; exit 1; }
done

# `--version` rows: the process start-up alone (loader, relocation, std and argument set-up),
# the reference the hook rows are read against.
cmds=(-n true "/bin/true"
      -n hookgate_static_version "$static_bin --version"
      -n hookgate_static_allow "$static_bin hook claude --input $work/allow.json"
      -n hookgate_static_deny "$static_bin hook claude --input $work/deny.json")
if [ "$builds" = all ]; then
  cmds+=(-n hookgate_pie_allow "$pie_bin hook claude --input $work/allow.json"
         -n hookgate_allow "$bin hook claude --input $work/allow.json")
fi
cmds+=(-n true_end "/bin/true")
if [ -x "$peer" ]; then
  # The peer reads its payload from stdin only, and this hyperfine cannot redirect without a
  # shell, so it runs through `sh -c` (about 0.6 ms of its figure is that shell).
  cmds+=(-n cc_safety_net_allow "sh -c '$peer hook --claude-code < $work/allow.json'")
else
  echo "notice: cc-safety-net could not be installed from npm; the peer row is left out" >&2
fi
for rep in $(seq 1 "$reps"); do
  hyperfine -N --runs "$runs" --warmup 20 --export-json "$work/result-$rep.json" "${cmds[@]}" >/dev/null
done

python3 - "$json_out" "$work"/result-*.json <<'PY'
import json, statistics, sys
reps = []
for path in sys.argv[2:]:
    reps.append({r["command"]: r["median"] * 1000 for r in json.load(open(path))["results"]})
keys = [k for k in reps[0] if k != "true_end"]
median_ms = {k: statistics.median(r[k] for r in reps) for k in keys}
ratios = {k: [r[k] / ((r["true"] + r["true_end"]) / 2) for r in reps] for k in keys}
ratio = {k: statistics.median(v) for k, v in ratios.items()}
labels = {
    "true": "/bin/true (process floor)",
    "hookgate_static_version": "README build: hookgate --version",
    "hookgate_static_allow": "README build: hook claude, allowed",
    "hookgate_static_deny": "README build: hook claude, denied",
    "hookgate_pie_allow": "static PIE: hook claude, allowed",
    "hookgate_allow": "dynamic (cargo install): allowed",
    "cc_safety_net_allow": "cc-safety-net hook (npm, via sh -c), allowed",
}
print(f"{len(reps)} repetitions")
print(f"{'case':<44} {'median ms':>10} {'x /bin/true':>12} {'ratio IQR':>14}")
for key, label in labels.items():
    if key in median_ms:
        q = statistics.quantiles(ratios[key], n=4) if len(ratios[key]) > 1 else [ratio[key]] * 3
        lo, hi = q[0], q[2]
        print(f"{label:<44} {median_ms[key]:>10.3f} {ratio[key]:>12.2f} {lo:>6.2f}-{hi:<7.2f}")
if sys.argv[1]:
    json.dump({"median_ms": median_ms, "ratio_to_true": ratio, "ratio_runs": ratios},
              open(sys.argv[1], "w"), indent=2)
PY
