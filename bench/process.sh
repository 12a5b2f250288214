#!/usr/bin/env bash
# Whole-process latency of `hookgate fire`, as ratios against baselines measured in the same run.
#
#   bench/process.sh [--runs N] [--json FILE]
#
# Baselines: spawning /bin/true (the floor for any process here) and running the hook script
# directly. Measured: hookgate with no hooks, with 10 built-in no-op hooks, and running that same
# hook script as a command hook. Needs hyperfine (installed from Debian's packages if missing).
set -euo pipefail

runs=200
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
# The binary README command 1 builds (release profile, statically linked; see bench/hook.sh).
cargo rustc --release -q -p hookgate --bin hookgate --manifest-path "$root/Cargo.toml" \
  -- -C target-feature=+crt-static
bin="$root/target/release/hookgate"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/hook.sh" <<'HOOK'
#!/bin/sh
cat "${1:--}" >/dev/null
echo '{"hook_specific_output":{"permission_decision":"allow"}}'
HOOK
chmod +x "$work/hook.sh"
echo '{"session_id":"s","cwd":"/tmp","tool_name":"shell","tool_input":{"cmd":"cargo test"}}' > "$work/input.json"
printf 'hooks: {}\n' > "$work/empty.yaml"
{
  echo "hooks:"
  echo "  pre_tool_use:"
  for i in $(seq 1 10); do printf '    - type: builtin\n      command: noop\n      args: ["%s"]\n' "$i"; done
} > "$work/builtins.yaml"
printf 'hooks:\n  pre_tool_use:\n    - type: command\n      command: %s\n      args: []\n' "$work/hook.sh" > "$work/command.yaml"

cd "$work"
export HOOKGATE_CONFIG_DIR="$work/no-user-config"
# No shell between hyperfine and the programs (-N): every row is one process tree. The script
# reads the input from a file argument when run directly, from stdin when hookgate runs it.
hyperfine -N --runs "$runs" --warmup 20 --export-json "$work/result.json" \
  -n true "/bin/true" \
  -n hook_script_directly "$work/hook.sh input.json" \
  -n hookgate_no_hooks "$bin fire pre_tool_use --config empty.yaml --input input.json" \
  -n hookgate_10_builtin_noops "$bin fire pre_tool_use --config builtins.yaml --input input.json" \
  -n hookgate_command_hook "$bin fire pre_tool_use --config command.yaml --input input.json" \
  >/dev/null

python3 - "$work/result.json" "$json_out" <<'PY'
import json, sys
data = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
med = {k: v["median"] * 1000 for k, v in data.items()}
base = med["true"]
rows = [
    ("/bin/true (process floor)", "true"),
    ("hook script run directly", "hook_script_directly"),
    ("hookgate fire, no hooks", "hookgate_no_hooks"),
    ("hookgate fire, 10 built-in no-op hooks", "hookgate_10_builtin_noops"),
    ("hookgate fire, 1 command hook (same script)", "hookgate_command_hook"),
]
print(f"{'case':<46} {'median ms':>10} {'x /bin/true':>12}")
for label, key in rows:
    print(f"{label:<46} {med[key]:>10.3f} {med[key]/base:>12.2f}")
overhead = med["hookgate_command_hook"] / med["hook_script_directly"]
print(f"\ncommand runtime overhead: hookgate running the script / the script alone = {overhead:.2f}x "
      f"(+{med['hookgate_command_hook'] - med['hook_script_directly']:.3f} ms)")
if sys.argv[2]:
    json.dump({"median_ms": med, "ratio_to_true": {k: v / base for k, v in med.items()},
               "command_overhead_ratio": overhead}, open(sys.argv[2], "w"), indent=2)
PY
