#!/usr/bin/env bash
# Spilling a large input: throughput and peak RSS of `briefly spill`, beside
# `cat FILE > /dev/null` on the same file in the same run.
#
#   benches/spill.sh [SIZE_MB=1024] [RUNS=3]
#
# Prints medians over RUNS (these machines are shared: compare the ratio, not the
# absolute times) and checks the issue's bound: peak RSS under 64 MB.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
size_mb=${1:-1024}
runs=${2:-3}
input=$(generate_log "$size_mb")
cargo build --release -q --manifest-path "$root/Cargo.toml"
briefly="$root/target/release/briefly"
export BRIEFLY_ARTIFACT_DIR="$work/artifacts"

cat_s=() cat_kb=() spill_s=() spill_kb=()
for ((run = 1; run <= runs; run++)); do
  read -r s kb < <(measure cat "$input"); cat_s+=("$s"); cat_kb+=("$kb")
  rm -rf "$BRIEFLY_ARTIFACT_DIR"
  read -r s kb < <(measure sh -c "\"$briefly\" spill < \"$input\""); spill_s+=("$s"); spill_kb+=("$kb")
done
rm -rf "$BRIEFLY_ARTIFACT_DIR"

bytes=$(stat -c %s "$input")
cs=$(median "${cat_s[@]}"); ss=$(median "${spill_s[@]}"); sk=$(median "${spill_kb[@]}")
echo "input: $((bytes / 1048576)) MB, $runs runs, medians"
header
row "cat FILE > /dev/null" "$bytes" "$cs" "$(median "${cat_kb[@]}")"
row "briefly spill < FILE (tee + preview)" "$bytes" "$ss" "$sk"
awk -v a="$ss" -v b="$cs" -v k="$sk" 'BEGIN {
  printf "briefly/cat time ratio: %.1fx\n", a / (b > 0 ? b : 0.01)
  printf "peak RSS under 64 MB: %s\n", (k / 1024 < 64) ? "yes" : "NO" }'
