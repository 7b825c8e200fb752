#!/usr/bin/env bash
# `briefly json` beside jq and jaq, the same filter on the same file in the same run:
# a large NDJSON file (--where status=failed, the one failing record in many) and a
# pretty-printed 10,000-item document (--where items[].status=failed). Medians of RUNS,
# time ratios, peak RSS (the NDJSON target: under 64 MB).
#
#   benches/json.sh [NDJSON_MB=1024] [RUNS=3]
#   COUNT=1 adds --count-by beside jq | sort | uniq -c; BIG=1 adds a document holding
#   one 500 MB string (bad input: streamed past, named, memory bounded).
#
# jaq is installed once into benches/.tools (gitignored) with `cargo install`.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
size_mb=${1:-1024}
runs=${2:-3}
tools="$root/benches/.tools"
command -v jq > /dev/null || { echo "needs jq: apt-get install -y jq" >&2; exit 2; }
if [ ! -x "$tools/bin/jaq" ]; then
  echo "installing jaq into $tools ..." >&2
  cargo install jaq --locked --root "$tools" -q
fi
jaq="$tools/bin/jaq"

ndjson="$work/jobs-${size_mb}mb.ndjson"
if [ ! -s "$ndjson" ]; then
  echo "generating $ndjson ..." >&2
  # Job records; exactly one has status "failed", two thirds of the way in.
  awk -v target=$((size_mb * 1024 * 1024)) 'BEGIN {
    srand(7); bytes = 0; i = 0; fail = int(target / 190 * 2 / 3)
    split("info warn error", levels, " "); split("eu us ap", regions, " ")
    while (bytes < target) {
      line = sprintf("{\"id\":%d,\"name\":\"job-%d\",\"status\":\"%s\",\"level\":\"%s\",\"ms\":%d,\"meta\":{\"region\":\"%s\",\"tags\":[\"a\",\"b\"],\"node\":\"node-%d\"}}",
        i, i, (i == fail) ? "failed" : "ok", levels[i % 3 + 1], (i * 37) % 1001, regions[i % 3 + 1], i % 64)
      print line
      bytes += length(line) + 1; i++
    }
  }' > "$ndjson"
fi
doc="$work/jobs-10000.json"
if [ ! -s "$doc" ]; then
  python3 -c '
import json, sys
items = [{"id": i, "name": "job-%d" % i, "status": "failed" if i == 7000 else "ok",
          "level": ["info", "warn", "error"][i % 3], "ms": (i * 37) % 1001,
          "meta": {"region": ["eu", "us", "ap"][i % 3], "tags": ["a", "b"], "node": "node-%d" % (i % 64)}}
         for i in range(10000)]
json.dump({"kind": "List", "items": items}, open(sys.argv[1], "w"), indent=2)' "$doc"
fi
cargo build --release -q --manifest-path "$root/Cargo.toml"
briefly="$root/target/release/briefly"
export BRIEFLY_ARTIFACT_DIR="$work/artifacts"

# measure_cpu CMD ARGS...: "seconds peak_kb cpu_seconds" for one run (cpu: user + sys,
# which the other jobs on a shared machine disturb less than the wall clock).
measure_cpu() {
  { "$timer" -f '%e %M %U %S' "$@" > /dev/null; } 2>&1 | tail -n 1 | awk '{ print $1, $2, $3 + $4 }'
}

# compare RUNS INPUT LABEL CMD [LABEL CMD]...: every command RUNS times, in turn; medians
# of wall and CPU seconds, and how many times faster the last (briefly) is than each.
compare() {
  local runs=$1 input=$2; shift 2
  local labels=() cmds=() n i run s kb cpu
  while [ $# -gt 0 ]; do labels+=("$1"); cmds+=("$2"); shift 2; done
  n=${#cmds[@]}
  declare -A secs kbs cpus
  for ((run = 1; run <= runs; run++)); do
    for ((i = 0; i < n; i++)); do
      rm -rf "$BRIEFLY_ARTIFACT_DIR"
      read -r s kb cpu < <(measure_cpu sh -c "${cmds[$i]}")
      secs[$i]="${secs[$i]:-} $s"; kbs[$i]="${kbs[$i]:-} $kb"; cpus[$i]="${cpus[$i]:-} $cpu"
    done
  done
  local bytes medians=() cpu_medians=()
  bytes=$(stat -c %s "$input")
  echo "input: $input ($((bytes / 1048576)) MB), $runs runs, medians"
  printf "%-44s %9s %10s %14s %9s\n" "command" "seconds" "MB/s" "peak RSS (MB)" "CPU s"
  for ((i = 0; i < n; i++)); do
    # shellcheck disable=SC2086
    medians[$i]=$(median ${secs[$i]})
    # shellcheck disable=SC2086
    cpu_medians[$i]=$(median ${cpus[$i]})
    # shellcheck disable=SC2086
    printf "%s %9.2f\n" "$(row "${labels[$i]}" "$bytes" "${medians[$i]}" "$(median ${kbs[$i]})")" "${cpu_medians[$i]}"
  done
  for ((i = 0; i < n - 1; i++)); do
    awk -v a="${medians[$i]}" -v b="${medians[$((n - 1))]}" -v ca="${cpu_medians[$i]}" \
      -v cb="${cpu_medians[$((n - 1))]}" -v l="${labels[$i]}" 'BEGIN {
      printf "briefly is %.1fx faster than %s (CPU time: %.1fx)\n", a / (b > 0 ? b : 0.01), l, ca / (cb > 0 ? cb : 0.01) }'
  done
  echo
}

# The answers must agree before timing means anything.
want=$(jq -c 'select(.status == "failed")' "$ndjson")
got=$("$briefly" json --where status=failed "$ndjson" | jq -c '.items[0]')
[ "$want" = "$got" ] || { echo "briefly and jq disagree: $got vs $want" >&2; exit 1; }
got=$("$briefly" json --where 'items[].status=failed' "$doc" | jq -c '.items[0]')
[ "$(jq -c '.items[] | select(.status == "failed")' "$doc")" = "$got" ] || { echo "disagree on $doc" >&2; exit 1; }

compare "$runs" "$ndjson" \
  "jq -c 'select(.status == \"failed\")'" "jq -c 'select(.status == \"failed\")' \"$ndjson\"" \
  "jaq -c 'select(.status == \"failed\")'" "\"$jaq\" -c 'select(.status == \"failed\")' \"$ndjson\"" \
  "briefly json --where status=failed" "\"$briefly\" json --where status=failed \"$ndjson\""
# COUNT=1: also --count-by beside jq/jaq | sort | uniq -c (slow: off by default).
[ "${COUNT:-0}" = 1 ] && compare "$runs" "$ndjson" \
  "jq -c '.meta.region' | sort | uniq -c" "jq -c '.meta.region' \"$ndjson\" | sort | uniq -c" \
  "jaq -c '.meta.region' | sort | uniq -c" "\"$jaq\" -c '.meta.region' \"$ndjson\" | sort | uniq -c" \
  "briefly json --count-by meta.region" "\"$briefly\" json --count-by meta.region \"$ndjson\""
# The document is small: each command runs 20 times per measurement.
loop() { echo "for i in \$(seq 20); do $1 > /dev/null; done"; }
echo "(the document: each measurement is 20 runs in a row)"
compare "$runs" "$doc" \
  "jq '.items[] | select(.status == \"failed\")'" "$(loop "jq '.items[] | select(.status == \"failed\")' \"$doc\"")" \
  "jaq '.items[] | select(.status == \"failed\")'" "$(loop "\"$jaq\" '.items[] | select(.status == \"failed\")' \"$doc\"")" \
  "briefly json --where items[].status=failed" "$(loop "\"$briefly\" json --where 'items[].status=failed' \"$doc\"")"
# Streamed: the same document over a 100 kB --max-document-bytes.
compare "$runs" "$doc" \
  "jq (as above)" "$(loop "jq '.items[] | select(.status == \"failed\")' \"$doc\"")" \
  "briefly json … --max-document-bytes 100000" "$(loop "\"$briefly\" json --where 'items[].status=failed' --max-document-bytes 100000 \"$doc\"")"
# BIG=1: bad input, a document holding one 500 MB string (over the 64 MB document and
# 16 MB record limits by default): briefly streams past it and names it; time, peak RSS.
if [ "${BIG:-0}" = 1 ]; then
  big="$work/one-500mb-string.json"
  if [ ! -s "$big" ]; then
    echo "generating $big ..." >&2
    { printf '{"items": [{"id": 1, "blob": "'; head -c $((500 * 1024 * 1024)) /dev/zero | tr '\0' x
      printf '"}, {"id": 2, "status": "failed"}]}'; } > "$big"
  fi
  echo "input: $big ($(($(stat -c %s "$big") / 1048576)) MB), one run each"
  header
  for args in "--where items[].status=failed" ""; do
    rm -rf "$BRIEFLY_ARTIFACT_DIR"
    read -r s kb < <(measure sh -c "\"$briefly\" json $args \"$big\"")
    row "briefly json ${args:-(shape)}" "$(stat -c %s "$big")" "$s" "$kb"
    "$briefly" json $args "$big" | jq -c '{summary, items, warnings}' | cut -c1-400
  done
  rm -rf "$BRIEFLY_ARTIFACT_DIR"
fi
rm -rf "$BRIEFLY_ARTIFACT_DIR"
