#!/usr/bin/env bash
# Grouping accuracy and throughput of briefly's template miner against Drain3
# on the loghub 2k sets (raw lines, default settings for both).
#
# Data: loghub (https://github.com/logpai/loghub; Zhu et al., "Loghub: A Large Collection
# of System Log Datasets for AI-driven Log Analytics", ISSRE 2023), read in place under
# its LICENSE, never copied.
#
# Usage: benches/loghub/run.sh [LOGHUB_DIR]
#   LOGHUB_DIR defaults to ../shared/data/loghub relative to the repo root.
#   Creates benches/.venv (Drain3 pinned) when missing. Honors CARGO_TARGET_DIR.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
LOGHUB="${1:-$ROOT/../shared/data/loghub}"
LOGHUB="$(cd "$LOGHUB" && pwd)"
VENV="$ROOT/benches/.venv"
DRAIN3_VERSION="0.9.11"

if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c "import drain3" 2>/dev/null; then
    echo "creating $VENV (drain3==$DRAIN3_VERSION)" >&2
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet "drain3==$DRAIN3_VERSION"
fi

MANIFEST="$ROOT/crates/template/Cargo.toml"
cargo build --quiet --release --example loghub --manifest-path "$MANIFEST"
TARGET="$(cargo metadata --quiet --format-version 1 --no-deps --manifest-path "$MANIFEST" \
    | "$VENV/bin/python" -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
BRIEFLY_JSON="$("$TARGET/release/examples/loghub" "$LOGHUB" --json)"
DRAIN3_JSON="$("$VENV/bin/python" "$ROOT/benches/loghub/drain3_accuracy.py" "$LOGHUB" 2>/dev/null)"
# The reducer end to end: `briefly text --emit-groups`, default settings.
cargo build --quiet --release --bin briefly --manifest-path "$ROOT/Cargo.toml"
TEXT_JSON="$(cd "$ROOT/benches/loghub" && "$VENV/bin/python" text_accuracy.py "$LOGHUB" "$TARGET/release/briefly")"

"$VENV/bin/python" - "$BRIEFLY_JSON" "$DRAIN3_JSON" "$TEXT_JSON" <<'EOF'
import json
import sys

b = json.loads(sys.argv[1])
d = json.loads(sys.argv[2])
t = json.loads(sys.argv[3])
dsets = {s["set"]: s for s in d["sets"]}
tsets = {s["set"]: s for s in t["sets"]}
head = ("set", "miner GA", "text GA", "drain3 GA raw", "drain3 GA content",
        "miner lines/s", "drain3 lines/s", "ratio")
fmt = "{:<12} {:>8} {:>8} {:>13} {:>17} {:>13} {:>14} {:>6}"
print(fmt.format(*head))
for s in b["sets"]:
    x = dsets[s["set"]]
    print(fmt.format(
        s["set"], f"{s['accuracy']:.4f}", f"{tsets[s['set']]['accuracy']:.4f}",
        f"{x['accuracy_raw']:.4f}", f"{x['accuracy_content']:.4f}",
        f"{s['lines_per_sec']:,.0f}", f"{x['lines_per_sec']:,.0f}",
        f"{s['lines_per_sec'] / x['lines_per_sec']:.1f}x"))
print(fmt.format(
    "average", f"{b['average_accuracy']:.4f}", f"{t['average_accuracy']:.4f}",
    f"{d['average_accuracy_raw']:.4f}", f"{d['average_accuracy_content']:.4f}",
    f"{b['lines_per_sec']:,.0f}", f"{d['lines_per_sec']:,.0f}",
    f"{b['lines_per_sec'] / d['lines_per_sec']:.1f}x"))
ratios = sorted(s["lines_per_sec"] / dsets[s["set"]]["lines_per_sec"] for s in b["sets"])
geo = 1.0
for r in ratios:
    geo *= r
geo **= 1 / len(ratios)
mid = len(ratios) // 2
median = ratios[mid] if len(ratios) % 2 else (ratios[mid - 1] + ratios[mid]) / 2
print(f"per-set speed ratio: min {ratios[0]:.1f}x, median {median:.1f}x, "
      f"geometric mean {geo:.1f}x, max {ratios[-1]:.1f}x")
best = sorted(s["best_lines_per_sec"] / dsets[s["set"]]["best_lines_per_sec"] for s in b["sets"])
print(f"the same by each side's fastest round: {b['best_lines_per_sec'] / d['best_lines_per_sec']:.1f}x "
      f"over all sets, per set min {best[0]:.1f}x, median {best[len(best) // 2]:.1f}x, "
      f"{sum(r < 10 for r in best)} under 10x")
print(f"(drain3 {d['drain3_version']}, default TemplateMiner config; average row: "
      "mean GA, lines/s over all sets; lines/s in each side's median round, a fresh miner "
      "per round, lines in memory)")
EOF
