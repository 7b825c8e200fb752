#!/usr/bin/env bash
# `briefly pytest` and `briefly cargo-test` on ~SIZE_MB test logs shaped like real runs,
# beside `grep -c FAILED` on the same file, in the same run (medians of RUNS), with
# peak RSS; and beside `briefly spill` (framing and the artifact, no reducer), to show
# what the reducer itself adds.
#
#   benches/testrun.sh [SIZE_MB=100] [RUNS=5]
#
# The pytest log is one run as pytest -q prints it: progress lines, a FAILURES section
# whose reports have a traceback (two frames, `E` lines) and 150 lines of captured
# stdout, the short test summary and the counts line. The cargo log is one `cargo test
# 2>&1` over many test binaries: `Running`, `running N tests`, `test … ok/FAILED` lines,
# failure reports with 400 captured lines and the panic (left/right), `test result:`.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
size_mb=${1:-100}
runs=${2:-5}
pytest_log="$work/pytest-${size_mb}mb.log"
cargo_log="$work/cargo-test-${size_mb}mb.log"
if [ ! -s "$pytest_log" ]; then
  echo "generating $pytest_log ..." >&2
  awk -v target=$((size_mb * 1024 * 1024)) 'BEGIN {
    bytes = 0; f = 0; n = 0
    print "============================= test session starts =============================="
    for (p = 0; p < 40; p++) print ".F...F...F...F...F...F...F...F...F...F...F...F...F...F...F...F...F...F.. [ " p "%]"
    print "=================================== FAILURES ==================================="
    while (bytes < target) {
      f++; m = f % 50
      kind = (f % 5 == 0) ? "KeyError" : "AssertionError"
      out = sprintf("_________________________________ test_case_%d __________________________________\n\n    def test_case_%d():\n        for k in range(150):\n            print(f\"noise {k}\")\n", f, f)
      if (kind == "KeyError")
        out = out sprintf(">       lookup({\"a\": 1}, \"missing_%d\")\n\ntests/test_mod%d.py:%d: \n_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ \n\n    def lookup(d, k):\n>       return d[k]\nE       KeyError: \"missing_%d\"\n\ntests/helpers.py:2: KeyError\n", f, m, f % 400 + 1, f)
      else
        out = out sprintf(">       assert %d * 2 == %d, \"doubling %d\"\nE       AssertionError: doubling %d\nE       assert (%d * 2) == %d\n\ntests/test_mod%d.py:%d: AssertionError\n", f, 2 * f + 1, f, f, f, 2 * f + 1, m, f % 400 + 1)
      out = out "----------------------------- Captured stdout call -----------------------------\n"
      for (k = 0; k < 150; k++) out = out sprintf("noise %d line %d\n", f, k)
      printf "%s", out; bytes += length(out)
    }
    print "=========================== short test summary info ============================"
    for (i = 1; i <= f; i++) printf "FAILED tests/test_mod%d.py::test_case_%d - %s\n", i % 50, i, (i % 5 == 0) ? "KeyError: \"missing_" i "\"" : "AssertionError: doubling " i
    printf "%d failed, %d passed in 912.40s (0:15:12)\n", f, 3 * f
  }' > "$pytest_log"
fi
if [ ! -s "$cargo_log" ]; then
  echo "generating $cargo_log ..." >&2
  awk -v target=$((size_mb * 1024 * 1024)) 'BEGIN {
    bytes = 0; b = 0
    while (bytes < target) {
      b++
      out = sprintf("     Running tests/suite_%d.rs (target/debug/deps/suite_%d-8348ca7a80742723)\n\nrunning 200 tests\n", b, b)
      for (t = 0; t < 200; t++) out = out sprintf("test tests::case_%03d ... %s\n", t, (t % 67 == 17) ? "FAILED" : "ok")
      out = out "\nfailures:\n\n"
      for (t = 17; t < 200; t += 67) {
        out = out sprintf("---- tests::case_%03d stdout ----\n", t)
        for (k = 0; k < 400; k++) out = out sprintf("noise %d line %d\n", t, k)
        out = out sprintf("\nthread '\''tests::case_%03d'\'' (%d) panicked at tests/suite_%d.rs:%d:9:\nassertion `left == right` failed: doubling %d\n  left: %d\n right: %d\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n\n", t, 2500 + t, b, 89 + t, t, 2 * t, 2 * t + 1)
      }
      out = out "\nfailures:\n    tests::case_017\n    tests::case_084\n    tests::case_151\n\ntest result: FAILED. 197 passed; 3 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.26s\n\n"
      printf "%s", out; bytes += length(out)
    }
  }' > "$cargo_log"
fi
# cpu_seconds RUNS CMD: the median user+sys CPU seconds of CMD (steadier than the wall
# clock on a shared machine; what it leaves out is waiting for a core).
cpu_seconds() {
  local runs=$1 cmd=$2 all=() run
  for ((run = 1; run <= runs; run++)); do
    rm -rf "$work/artifacts"
    all+=("$({ BRIEFLY_ARTIFACT_DIR="$work/artifacts" "$timer" -f '%U %S' sh -c "$cmd" > /dev/null; } 2>&1 | tail -n 1 | awk '{ print $1 + $2 }')")
  done
  rm -rf "$work/artifacts"
  median "${all[@]}"
}

cargo build --release -q --manifest-path "$root/Cargo.toml"
briefly="$root/target/release/briefly"
echo "== pytest"
"$briefly" pytest "$pytest_log" | head -c 300; echo
side_by_side "$runs" "$pytest_log" \
  "grep -c FAILED FILE" "grep -c FAILED \"$pytest_log\"" \
  "briefly pytest FILE" "\"$briefly\" pytest \"$pytest_log\""
echo "(context: the core pipeline alone, framing and the artifact, as briefly spill)"
side_by_side "$runs" "$pytest_log" \
  "briefly spill FILE" "\"$briefly\" spill \"$pytest_log\"" \
  "briefly pytest FILE" "\"$briefly\" pytest \"$pytest_log\""
echo "== cargo-test"
"$briefly" cargo-test "$cargo_log" | head -c 300; echo
side_by_side "$runs" "$cargo_log" \
  "grep -c FAILED FILE" "grep -c FAILED \"$cargo_log\"" \
  "briefly cargo-test FILE" "\"$briefly\" cargo-test \"$cargo_log\""
echo "(context: the core pipeline alone, framing and the artifact, as briefly spill)"
side_by_side "$runs" "$cargo_log" \
  "briefly spill FILE" "\"$briefly\" spill \"$cargo_log\"" \
  "briefly cargo-test FILE" "\"$briefly\" cargo-test \"$cargo_log\""
echo "== CPU seconds (user+sys), medians of $runs"
for reducer in "pytest $pytest_log" "cargo-test $cargo_log"; do
  set -- $reducer
  printf '%-44s %9s\n' "briefly $1 FILE" "$(cpu_seconds "$runs" "\"$briefly\" $1 \"$2\"")"
  printf '%-44s %9s\n' "briefly spill FILE (same file)" "$(cpu_seconds "$runs" "\"$briefly\" spill \"$2\"")"
done
