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
side_by_side "$runs" "$input" \
  "cat FILE > /dev/null" "cat \"$input\"" \
  "briefly spill < FILE (tee + preview)" "\"$root/target/release/briefly\" spill < \"$input\""
