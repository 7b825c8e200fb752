#!/usr/bin/env bash
# Spilling a large input: throughput and peak RSS of `briefly spill`, beside
# `cat FILE > /dev/null` on the same file in the same run.
#
#   benches/spill.sh [SIZE_MB=1024] [RUNS=3]
#
# Prints medians over RUNS (these machines are shared: compare the ratio, not the
# absolute times) and checks the issue's bound: peak RSS under 64 MB.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
size_mb=${1:-1024}
runs=${2:-3}
work=${BENCH_DIR:-$root/target/bench}
timer=/usr/bin/time
[ -x "$timer" ] || { echo "needs GNU time: apt-get install -y time" >&2; exit 2; }
mkdir -p "$work"

input="$work/spill-${size_mb}mb.log"
if [ ! -s "$input" ]; then
  echo "generating $input ..." >&2
  # Log-like lines with varying numbers, an error now and then.
  awk -v target=$((size_mb * 1024 * 1024)) 'BEGIN {
    srand(7); bytes = 0; i = 0
    while (bytes < target) {
      i++
      level = (i % 9973 == 0) ? "ERROR" : ((i % 211 == 0) ? "WARN" : "INFO")
      line = sprintf("2026-11-29T12:%02d:%02d.%03dZ %s worker-%d request id=%08x path=/api/v1/items/%d took %dms status=%d",
        (i / 60000) % 60, (i / 1000) % 60, i % 1000, level, i % 16, i * 2654435761 % 4294967296, i % 100000, i % 997, (level == "ERROR") ? 500 : 200)
      print line
      bytes += length(line) + 1
    }
  }' > "$input"
fi

cargo build --release -q --manifest-path "$root/Cargo.toml"
briefly="$root/target/release/briefly"
export BRIEFLY_ARTIFACT_DIR="$work/artifacts"

measure() { # prints "seconds peak_kb"
  local out
  out=$( { "$timer" -f '%e %M' "$@" > /dev/null; } 2>&1 | tail -n 1)
  echo "$out"
}

declare -a cat_s cat_kb spill_s spill_kb
for ((run = 1; run <= runs; run++)); do
  read -r s kb < <(measure cat "$input")
  cat_s+=("$s"); cat_kb+=("$kb")
  rm -rf "$BRIEFLY_ARTIFACT_DIR"
  read -r s kb < <(measure sh -c "\"$briefly\" spill < \"$input\"")
  spill_s+=("$s"); spill_kb+=("$kb")
done
rm -rf "$BRIEFLY_ARTIFACT_DIR"

median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
bytes=$(stat -c %s "$input")
cs=$(median "${cat_s[@]}"); ck=$(median "${cat_kb[@]}")
ss=$(median "${spill_s[@]}"); sk=$(median "${spill_kb[@]}")
awk -v b="$bytes" -v cs="$cs" -v ck="$ck" -v ss="$ss" -v sk="$sk" -v runs="$runs" 'BEGIN {
  mb = b / 1048576
  printf "input: %.0f MB, %d runs, medians\n", mb, runs
  printf "%-36s %9s %10s %14s\n", "command", "seconds", "MB/s", "peak RSS (MB)"
  printf "%-36s %9.2f %10.0f %14.1f\n", "cat FILE > /dev/null", cs, mb / (cs > 0 ? cs : 0.01), ck / 1024
  printf "%-36s %9.2f %10.0f %14.1f\n", "briefly spill < FILE (tee + preview)", ss, mb / (ss > 0 ? ss : 0.01), sk / 1024
  printf "briefly/cat time ratio: %.1fx\n", ss / (cs > 0 ? cs : 0.01)
  printf "peak RSS under 64 MB: %s\n", (sk / 1024 < 64) ? "yes" : "NO"
}'
