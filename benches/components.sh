#!/usr/bin/env bash
# Per-line costs of the two engines behind `briefly text`, on the generated log that
# benches/text.sh uses: severity classification, the template miner's steady state, and
# masking alone (`MaskedLine::fill`, and `Masker::fill`, which looks lines up by shape).
# (No reference tool runs these parts alone: compare them with each other and over time.)
#
#   [BASE_TREE=DIR] [RUNS=5] benches/components.sh [SIZE_MB=64]
#
# BASE_TREE, a checkout of another commit, adds a before/after of severity: its
# `inspect_lines` and this tree's, run in turn RUNS times on the log and on the 16 loghub
# sets, with the medians of their ns/line.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
size_mb=${1:-64}
input=$(generate_log "$size_mb")
cd "$root"
echo "severity classification:"
cargo run --release -q -p briefly-severity --example classify_speed -- "$input"
echo "template miner (add_numbered) and masking (MaskedLine::fill, Masker::fill):"
cargo run --release -q -p briefly-template --example throughput -- "$input" --mask
# The same on each loghub set once its lines are known (after the example's first
# pass): what masking costs beside the rest of the miner's work on a line it has seen.
echo "on each loghub set, lines known (medians, ns/line):"
printf '%-12s %13s %17s %13s\n' set add_numbered MaskedLine::fill Masker::fill
for log in "$root"/../shared/data/loghub/*/*_2k.log; do
  out=$("$root/target/release/examples/throughput" "$log" --rounds 20 --mask)
  # The median of a line `NAME: x ns/line median, …`.
  of() { awk -v name="$1" '$1 == name { print $2 }' <<< "$out"; }
  printf '%-12s %13s %17s %13s\n' "$(basename "$log" _2k.log)" \
    "$(of add_numbered:)" "$(of MaskedLine::fill:)" "$(of Masker::fill:)"
done

if [ -n "${BASE_TREE:-}" ]; then
  runs=${RUNS:-5}
  loghub="$work/loghub-2k.log"
  [ -s "$loghub" ] || cat "$root"/../shared/data/loghub/*/*_2k.log > "$loghub"
  cargo build --release -q -p briefly-severity --example classify_speed
  cargo build --release -q --manifest-path "$BASE_TREE/Cargo.toml" \
    --target-dir "$BASE_TREE/target" -p briefly-severity --example classify_speed
  for file in "$input" "$loghub"; do
    base_ns=() head_ns=()
    for ((run = 1; run <= runs; run++)); do
      # The ns/line figure of the example's last line (its median, where it prints one).
      ns() { "$1/target/release/examples/classify_speed" "$file" | tail -n 1 |
        awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^ns\/line/) { print $(i - 1); exit } }'; }
      base_ns+=("$(ns "$BASE_TREE")")
      head_ns+=("$(ns "$root")")
    done
    echo "inspect_lines on $(basename "$file"), $runs runs in turn, medians:" \
      "base $(median "${base_ns[@]}") ns/line, head $(median "${head_ns[@]}") ns/line"
  done
fi
