#!/usr/bin/env bash
# Per-line costs of the two engines behind `briefly text`, on the generated log that
# benches/text.sh uses: severity classification, the template miner's steady state, and
# masking alone (`MaskedLine::fill`, and `Masker::fill`, which looks lines up by shape).
# (No reference tool runs these parts alone: compare them with each other and over time.)
#
#   benches/components.sh [SIZE_MB=64]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
size_mb=${1:-64}
input=$(generate_log "$size_mb")
cd "$root"
echo "severity classification:"
cargo run --release -q -p briefly-severity --example classify_speed -- "$input"
echo "template miner (add_numbered) and masking (MaskedLine::fill, Masker::fill):"
cargo run --release -q -p briefly-template --example throughput -- "$input" --mask
