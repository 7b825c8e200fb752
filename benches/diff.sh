#!/usr/bin/env bash
# `briefly diff` on a large generated diff: throughput and peak RSS beside
# `git apply --stat` on the same file, in the same run (medians of RUNS).
#
#   benches/diff.sh [SIZE_MB=256] [RUNS=3]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
size_mb=${1:-256}
runs=${2:-3}
diff="$work/diff-${size_mb}mb.patch"
if [ ! -s "$diff" ]; then
  echo "generating $diff ..." >&2
  awk -v target=$((size_mb * 1024 * 1024)) 'BEGIN {
    bytes = 0; f = 0
    while (bytes < target) {
      f++
      path = sprintf("src/dir%d/file%d.rs", f % 200, f)
      out = sprintf("diff --git a/%s b/%s\nindex 0000001..0000002 100644\n--- a/%s\n+++ b/%s\n", path, path, path, path)
      for (h = 0; h < 8; h++) {
        start = 1 + h * 40
        out = out sprintf("@@ -%d,7 +%d,7 @@ fn f%d()\n     let a = %d;\n     let b = a + %d;\n     let c = b * 2;\n-    call_old(a, b, c);\n+    call_new(a, b, c);\n     let d = c - %d;\n     println!(\"{}\", d);\n", start, start, h, f, h, f)
      }
      printf "%s", out
      bytes += length(out)
    }
  }' > "$diff"
fi
cargo build --release -q --manifest-path "$root/Cargo.toml"
side_by_side "$runs" "$diff" \
  "git apply --stat FILE" "git apply --stat \"$diff\"" \
  "briefly diff FILE" "\"$root/target/release/briefly\" diff \"$diff\""
