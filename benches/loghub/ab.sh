#!/usr/bin/env bash
# The template miner of two commits side by side on the loghub 2k sets: HEAD's `loghub`
# example is built against HEAD's crates/template and against BASE's (a worktree of BASE
# with HEAD's example copied in, so that both are timed alike), and the two run in turn
# RUNS times. Prints, per set, each build's median lines per second (the example's own
# figure: its median round) and their ratio; for a change's speed, where the Drain3
# comparison (run.sh) moves with the machine.
#
# With INSTRUCTIONS=1, each build runs once per set under callgrind instead (one round,
# `--rounds 1`, and the accuracy pass before it: two passes over the set's lines), counting
# the instructions of `Miner::add_numbered` alone: each set's instructions per line added
# and their ratio, deterministic where the clock of a shared machine is not. Needs
# valgrind; RUNS is not used.
#
#   [INSTRUCTIONS=1] benches/loghub/ab.sh BASE [RUNS=3] [LOGHUB_DIR]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
[ $# -ge 1 ] || { sed -n 2,9p "$0" >&2; exit 2; }
BASE=$(git -C "$ROOT" rev-parse --short "$1")
RUNS=${2:-3}
LOGHUB="$(cd "${3:-$ROOT/../shared/data/loghub}" && pwd)"
TREE="$ROOT/target/bench/loghub-ab-$BASE"
OUT="$ROOT/target/bench/loghub-ab"
rm -rf "$TREE" "$OUT"
mkdir -p "$OUT"
git -C "$ROOT" worktree add -q --detach "$TREE" "$BASE"
trap 'git -C "$ROOT" worktree remove --force "$TREE"' EXIT
cp "$ROOT/crates/template/examples/loghub.rs" "$TREE/crates/template/examples/loghub.rs"
build() { # TREE -> the example's path
  cargo build --quiet --release --example loghub --manifest-path "$1/crates/template/Cargo.toml" \
    --target-dir "$1/target"
  echo "$1/target/release/examples/loghub"
}
base_bin=$(build "$TREE")
head_bin=$(build "$ROOT")
if [ "${INSTRUCTIONS:-0}" = 1 ]; then
  sets=$("$head_bin" "$LOGHUB" --json --rounds 1 | python3 -c \
    'import json, sys; print(" ".join("%s:%s" % (s["set"], s["lines"]) for s in json.load(sys.stdin)["sets"]))')
  count() { # BIN SET -> instructions of Miner::add_numbered
    valgrind --tool=callgrind --callgrind-out-file=/dev/null \
      --toggle-collect='*Miner::add_numbered' "$1" "$LOGHUB" --set "$2" --rounds 1 2>&1 >/dev/null |
      sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
  }
  fmt="%-12s %16s %16s %7s\n"
  echo "the miner at $BASE (base) and HEAD: instructions a line added (callgrind, Miner::add_numbered)"
  printf "$fmt" set base head ratio
  total_base=0 total_head=0 total_lines=0
  for entry in $sets; do
    name=${entry%%:*} lines=$((2 * ${entry##*:}))
    b=$(count "$base_bin" "$name") h=$(count "$head_bin" "$name")
    total_base=$((total_base + b)) total_head=$((total_head + h)) total_lines=$((total_lines + lines))
    printf "$fmt" "$name" "$((b / lines))" "$((h / lines))" "$(python3 -c "print(f'{$h / $b:.3f}x')")"
  done
  printf "$fmt" "all sets" "$((total_base / total_lines))" "$((total_head / total_lines))" \
    "$(python3 -c "print(f'{$total_head / $total_base:.3f}x')")"
  exit 0
fi
for ((run = 1; run <= RUNS; run++)); do
  "$base_bin" "$LOGHUB" --json > "$OUT/base-$run.json"
  "$head_bin" "$LOGHUB" --json > "$OUT/head-$run.json"
done
python3 - "$OUT" "$RUNS" "$BASE" <<'PY'
import json, statistics, sys
out, runs, base = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def load(side):
    return [json.load(open(f"{out}/{side}-{run}.json")) for run in range(1, runs + 1)]
b, h = load("base"), load("head")
sets = [s["set"] for s in b[0]["sets"]]
def median(results, k):
    return statistics.median(r["sets"][k]["lines_per_sec"] for r in results)
fmt = "{:<12} {:>14} {:>14} {:>7}"
print(f"the miner at {base} (base) and HEAD, {runs} runs in turn, medians")
print(fmt.format("set", "base lines/s", "head lines/s", "ratio"))
ratios = []
for k, name in enumerate(sets):
    x, y = median(b, k), median(h, k)
    ratios.append(y / x)
    print(fmt.format(name, f"{x:,.0f}", f"{y:,.0f}", f"{y / x:.2f}x"))
x = statistics.median(r["lines_per_sec"] for r in b)
y = statistics.median(r["lines_per_sec"] for r in h)
print(fmt.format("all sets", f"{x:,.0f}", f"{y:,.0f}", f"{y / x:.2f}x"))
print(f"per set: min {min(ratios):.2f}x, median {statistics.median(ratios):.2f}x, max {max(ratios):.2f}x")
PY
