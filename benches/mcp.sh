#!/usr/bin/env bash
# `briefly mcp` and `briefly mcp-proxy`: startup (spawn to the initialize answer) and
# RSS over many tool calls, beside a server made with the official Python SDK (the
# tests' tests/mcp/server.py), in the same run. Needs .ci/setup (its virtualenv has
# the SDK).
#
#   benches/mcp.sh [RUNS=21] [CALLS=1000]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
runs=${1:-21}
calls=${2:-1000}
py="$root/.ci/venv/bin/python"
[ -x "$py" ] || { echo "run .ci/setup first (it makes $py)" >&2; exit 2; }
cargo build --release -q --manifest-path "$root/Cargo.toml"
briefly="$root/target/release/briefly"
driver="$root/benches/mcp_driver.py"
server=("$py" "$root/tests/mcp/server.py")
export BRIEFLY_ARTIFACT_DIR="$work/mcp-artifacts"
rm -rf "$BRIEFLY_ARTIFACT_DIR"

echo "startup: median ms from spawn to the initialize answer, $runs runs"
printf '  %-36s %8s\n' "server" "ms"
printf '  %-36s %8s\n' "briefly mcp" "$("$py" "$driver" startup "$runs" -- "$briefly" mcp)"
py_ms=$("$py" "$driver" startup "$(( (runs + 2) / 3 ))" -- "${server[@]}")
printf '  %-36s %8s\n' "python SDK server (reference)" "$py_ms"
proxy_ms=$("$py" "$driver" startup "$(( (runs + 2) / 3 ))" -- "$briefly" mcp-proxy -- "${server[@]}")
printf '  %-36s %8s\n' "briefly mcp-proxy -- python server" "$proxy_ms"

echo
echo "RSS (kB) of the server process after call 1, $((calls / 10)), $((calls / 4)), $((calls / 2)), $((3 * calls / 4)), $calls; ms a call"
mixed='[["text", {"text": "INFO start\nERROR disk full on /dev/sda1\nINFO done\n"}], ["run", {"command": ["seq", "1", "20000"]}], ["spill", {"text": "a line\n"}]]'
printf '  %-36s %s\n' "briefly mcp (text, run, spill)" "$("$py" "$driver" calls "$calls" "$mixed" -- "$briefly" mcp)"
printf '  %-36s %s\n' "python SDK server: small" "$("$py" "$driver" calls "$calls" '[["small", {}]]' -- "${server[@]}")"
printf '  %-36s %s\n' "briefly mcp-proxy: small, big 5000" "$("$py" "$driver" calls "$calls" '[["small", {}], ["big", {"lines": 5000}]]' -- "$briefly" mcp-proxy -- "${server[@]}")"
rm -rf "$BRIEFLY_ARTIFACT_DIR"
