#!/usr/bin/env bash
# Instructions a whole `briefly text` run executes on one thread, counted by callgrind:
# deterministic where the clock of a shared machine is not, so a small cost of a change
# (a rule read at every line, a record's start) shows against the same run of another
# build. On the first 8 MB of the generated log (as benches/text.sh makes it), on
# the 16 loghub sets in one file, and on 60,000 lines of words that repeat no shape
# (past the miner's cap of templates, where each line is a search that finds none). The sha256 of the artifact runs callgrind's software
# path (no SHA instructions under valgrind): the same in both builds.
#
#   benches/instructions.sh [BASE_BIN]
#
# BASE_BIN, another build's release binary (say, of the change's base, built in a
# worktree), is counted on the same inputs, and the ratio printed.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
command -v valgrind > /dev/null || { echo "needs valgrind: apt-get install -y valgrind" >&2; exit 2; }
cargo build --release -q --manifest-path "$root/Cargo.toml"
head_bin="$root/target/release/briefly"
base_bin=${1:-}
log=$(generate_log 64)
head -c 8000000 "$log" > "$work/log-8mb.log"
loghub="$work/loghub-2k.log"
[ -s "$loghub" ] || cat "$root"/../shared/data/loghub/*/*_2k.log > "$loghub"
distinct="$work/distinct-60k.log"
if [ ! -s "$distinct" ]; then
  # Eight words a line from 5,000 made-up ones, the same every time (srand's seed).
  awk 'BEGIN {
    srand(3)
    for (w = 0; w < 5000; w++) {
      word = ""
      for (c = 0; c < 6; c++) word = word sprintf("%c", 97 + int(rand() * 26))
      words[w] = word
    }
    for (i = 0; i < 60000; i++) {
      line = words[int(rand() * 5000)]
      for (k = 1; k < 8; k++) line = line " " words[int(rand() * 5000)]
      print line
    }
  }' > "$distinct"
fi

# count BIN FILE: the instructions of one whole run.
count() {
  local out="$work/callgrind.out" artifacts="$work/instructions-artifacts"
  BRIEFLY_THREADS=1 valgrind --tool=callgrind --callgrind-out-file="$out" \
    "$1" --artifact-dir "$artifacts" text "$2" 2>&1 > /dev/null |
    awk '/Collected :/ { print $NF }'
  rm -rf "$out" "$artifacts"
}

printf '%-16s %16s %16s %8s\n' input head base head/base
for file in "$work/log-8mb.log" "$loghub" "$distinct"; do
  head_count=$(count "$head_bin" "$file")
  if [ -n "$base_bin" ]; then
    base_count=$(count "$base_bin" "$file")
    ratio=$(awk -v h="$head_count" -v b="$base_count" 'BEGIN { printf "%.4f", h / b }')
  else
    base_count=- ratio=-
  fi
  printf '%-16s %16s %16s %8s\n' "$(basename "$file")" "$head_count" "$base_count" "$ratio"
done
