#!/usr/bin/env bash
# `briefly text` on a large log: throughput and peak RSS beside `grep -c ERROR` on the
# same file in the same run (the issue asks for within 10x of grep, aiming at 4x, and
# peak RSS under 64 MB).
#
#   benches/text.sh [SIZE_MB=1024] [RUNS=3]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
size_mb=${1:-1024}
runs=${2:-3}
input=$(generate_log "$size_mb")
cargo build --release -q --manifest-path "$root/Cargo.toml"
briefly="$root/target/release/briefly"
export BRIEFLY_ARTIFACT_DIR="$work/artifacts"

grep_s=() grep_kb=() text_s=() text_kb=()
for ((run = 1; run <= runs; run++)); do
  read -r s kb < <(measure sh -c "grep -c ERROR \"$input\" > \"$work/grep.out\""); grep_s+=("$s"); grep_kb+=("$kb")
  rm -rf "$BRIEFLY_ARTIFACT_DIR"
  read -r s kb < <(measure "$briefly" text "$input"); text_s+=("$s"); text_kb+=("$kb")
done
rm -rf "$BRIEFLY_ARTIFACT_DIR"

bytes=$(stat -c %s "$input")
gs=$(median "${grep_s[@]}"); ts=$(median "${text_s[@]}"); tk=$(median "${text_kb[@]}")
echo "input: $((bytes / 1048576)) MB, $runs runs, medians"
header
row "grep -c ERROR FILE" "$bytes" "$gs" "$(median "${grep_kb[@]}")"
row "briefly text FILE (tee + templates + rank)" "$bytes" "$ts" "$tk"
awk -v a="$ts" -v b="$gs" -v k="$tk" 'BEGIN {
  printf "briefly/grep time ratio: %.1fx (target: within 10x)\n", a / (b > 0 ? b : 0.01)
  printf "peak RSS under 64 MB: %s\n", (k / 1024 < 64) ? "yes" : "NO" }'
