# Shared by the benchmark scripts: a generated log, timing with peak RSS, medians.
# shellcheck shell=bash

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=${BENCH_DIR:-$root/target/bench}
timer=/usr/bin/time
[ -x "$timer" ] || { echo "needs GNU time: apt-get install -y time" >&2; exit 2; }
mkdir -p "$work"

# generate_log SIZE_MB: prints the path of a log-like file of about SIZE_MB, made once.
generate_log() {
  local size_mb=$1 path="$work/log-$1mb.log"
  if [ ! -s "$path" ]; then
    echo "generating $path ..." >&2
    # Log-like lines with varying numbers, a warning now and then, an error rarely.
    awk -v target=$((size_mb * 1024 * 1024)) 'BEGIN {
      srand(7); bytes = 0; i = 0
      while (bytes < target) {
        i++
        level = (i % 9973 == 0) ? "ERROR" : ((i % 211 == 0) ? "WARN" : "INFO")
        line = sprintf("2026-11-29T12:%02d:%02d.%03dZ %s worker-%d request id=%08x path=/api/v1/items/%d took %dms status=%d",
          (i / 60000) % 60, (i / 1000) % 60, i % 1000, level, i % 16, i * 2654435761 % 4294967296, i % 100000, i % 997, (level == "ERROR") ? 500 : 200)
        print line
        bytes += length(line) + 1
      }
    }' > "$path"
  fi
  echo "$path"
}

# measure CMD ARGS...: prints "seconds peak_kb" for one run, output discarded.
measure() {
  { "$timer" -f '%e %M' "$@" > /dev/null; } 2>&1 | tail -n 1
}

# median N...: the median of the numbers given.
median() {
  printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

# side_by_side RUNS INPUT REF_LABEL REF_CMD BRIEFLY_LABEL BRIEFLY_CMD: runs both shell
# commands RUNS times, alternating (briefly with a fresh artifact directory), and prints
# medians, the time ratio and whether briefly's peak RSS stayed under 64 MB.
side_by_side() {
  local runs=$1 input=$2 ref_label=$3 ref_cmd=$4 briefly_label=$5 briefly_cmd=$6
  local ref_s=() ref_kb=() b_s=() b_kb=() s kb run
  export BRIEFLY_ARTIFACT_DIR="$work/artifacts"
  for ((run = 1; run <= runs; run++)); do
    read -r s kb < <(measure sh -c "$ref_cmd"); ref_s+=("$s"); ref_kb+=("$kb")
    rm -rf "$BRIEFLY_ARTIFACT_DIR"
    read -r s kb < <(measure sh -c "$briefly_cmd"); b_s+=("$s"); b_kb+=("$kb")
  done
  rm -rf "$BRIEFLY_ARTIFACT_DIR"
  local bytes rs bs bk
  bytes=$(stat -c %s "$input")
  rs=$(median "${ref_s[@]}"); bs=$(median "${b_s[@]}"); bk=$(median "${b_kb[@]}")
  echo "input: $((bytes / 1048576)) MB, $runs runs, medians"
  header
  row "$ref_label" "$bytes" "$rs" "$(median "${ref_kb[@]}")"
  row "$briefly_label" "$bytes" "$bs" "$bk"
  awk -v a="$bs" -v b="$rs" -v k="$bk" 'BEGIN {
    r = a / (b > 0 ? b : 0.01)
    if (r >= 1) printf "briefly/reference time ratio: %.2fx\n", r
    else printf "briefly/reference time ratio: %.2fx (the reference takes %.1fx as long)\n", r, 1 / r
    printf "peak RSS under 64 MB: %s\n", (k / 1024 < 64) ? "yes" : "NO" }'
}

# row NAME BYTES SECONDS KB: one table row.
row() {
  local name=$1 bytes=$2 seconds=$3 kb=$4
  awk -v n="$name" -v b="$bytes" -v s="$seconds" -v k="$kb" 'BEGIN {
    printf "%-44s %9.2f %10.0f %14.1f\n", n, s, b / 1048576 / (s > 0 ? s : 0.01), k / 1024 }'
}

header() {
  printf "%-44s %9s %10s %14s\n" "command" "seconds" "MB/s" "peak RSS (MB)"
}

# in_turn RUNS INPUT LABEL CMD [LABEL CMD]...: runs the shell commands in turn RUNS
# times and prints their medians, each with its time as a multiple of the first's.
in_turn() {
  local runs=$1 input=$2 bytes run i s kb
  shift 2
  local labels=() cmds=()
  while [ $# -ge 2 ]; do labels+=("$1"); cmds+=("$2"); shift 2; done
  local -A times=() rss=()
  for ((run = 1; run <= runs; run++)); do
    for i in "${!cmds[@]}"; do
      read -r s kb < <(measure sh -c "${cmds[$i]}")
      times[$i]+="$s "; rss[$i]+="$kb "
    done
  done
  bytes=$(stat -c %s "$input")
  echo "input: $((bytes / 1048576)) MB, $runs runs in turn, medians"
  printf "%-44s %9s %10s %14s %9s\n" "command" "seconds" "MB/s" "peak RSS (MB)" "× first"
  local first
  for i in "${!cmds[@]}"; do
    # shellcheck disable=SC2086 # the lists are numbers, split on purpose
    s=$(median ${times[$i]}); kb=$(median ${rss[$i]})
    first=${first:-$s}
    awk -v n="${labels[$i]}" -v b="$bytes" -v s="$s" -v k="$kb" -v f="$first" 'BEGIN {
      printf "%-44s %9.2f %10.0f %14.1f %8.1fx\n", n, s, b / 1048576 / (s > 0 ? s : 0.01),
        k / 1024, s / (f > 0 ? f : 0.01) }'
  done
}
