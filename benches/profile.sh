#!/usr/bin/env bash
# Where `briefly text`'s time goes on a generated log, by perf (linux-perf): the share of
# samples per thread (main, the tee that hashes and writes the artifact, the Ahead
# workers) and per function. The throughput bench (text.sh) says how fast; this says
# what the time is spent on.
#
#   benches/profile.sh [SIZE_MB=256] [TOP=25]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
size_mb=${1:-256}
top=${2:-25}
command -v perf > /dev/null || { echo "needs perf: apt-get install -y linux-perf" >&2; exit 2; }
input=$(generate_log "$size_mb")
cargo build --release -q --manifest-path "$root/Cargo.toml"
data="$work/profile.perf"
rm -rf "$work/profile-artifacts"
# From the page cache, as the throughput bench reads it (a cold read is the kernel's copy).
cat "$input" > /dev/null
perf record -q -o "$data" "$root/target/release/briefly" \
  --artifact-dir "$work/profile-artifacts" text "$input" > /dev/null
rm -rf "$work/profile-artifacts"
echo "input: $((size_mb)) MB; share of samples per thread (threads of one name summed):"
perf report -i "$data" --no-children --sort comm --stdio 2>/dev/null | grep '%' | grep -v '^#'
echo "per thread, as each ran:"
perf report -i "$data" --no-children --sort pid --stdio 2>/dev/null | grep '%' | grep -v '^#'
echo "top $top functions:"
perf report -i "$data" --no-children --sort comm,symbol --stdio 2>/dev/null \
  | grep '%' | grep -v '^#' | head -n "$top"
