#!/usr/bin/env bash
# `briefly mcp` per-call leaks: the heap still in use when the server exits, under
# valgrind, after SMALL and then LARGE tool calls (text, run, spill in turn). Equal
# figures mean nothing is kept per call; RSS over many calls (benches/mcp.sh) also moves
# with the allocator's own caches, which this does not count.
#
#   benches/mcp_heap.sh [SMALL=30] [LARGE=300]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
small=${1:-30}
large=${2:-300}
py="$root/.ci/venv/bin/python"
[ -x "$py" ] || { echo "run .ci/setup first (it makes $py)" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "valgrind is needed (apt-get install valgrind)" >&2; exit 2; }
cargo build --release -q --manifest-path "$root/Cargo.toml"
export BRIEFLY_ARTIFACT_DIR="$work/mcp-heap-artifacts"
mixed='[["text", {"text": "INFO start\nERROR disk full on /dev/sda1\nINFO done\n"}], ["run", {"command": ["seq", "1", "2000"]}], ["spill", {"text": "a line\n"}]]'
wrapper="$work/valgrind-briefly"
cat > "$wrapper" <<WRAP
#!/bin/sh
exec valgrind --leak-check=full --log-file="$work/heap-%p.log" "$root/target/release/briefly" "\$@"
WRAP
chmod +x "$wrapper"
for calls in "$small" "$large"; do
  rm -f "$work"/heap-*.log
  "$py" "$root/benches/mcp_driver.py" calls "$calls" "$mixed" -- "$wrapper" mcp > /dev/null
  # The server's own log is the one with a leak summary (the commands it ran exec away).
  log=$(grep -l "in use at exit" "$work"/heap-*.log | xargs grep -l "definitely lost" | head -1)
  echo "after $calls calls:"
  grep -E "in use at exit|definitely lost|indirectly lost|still reachable" "$log" | sed 's/^==[0-9]*==/ /'
done
rm -rf "$BRIEFLY_ARTIFACT_DIR" "$work"/heap-*.log
