#!/usr/bin/env bash
# Two builds of briefly side by side: the same command on the same file, RUNS times in
# turn (each with a fresh artifact directory), medians of wall and CPU seconds, and
# the one-thread figure (BRIEFLY_THREADS=1) of each. For before/after figures of a
# change: build the base commit in a worktree with its own target directory first.
#
#   [HEAD_BRIEFLY=BIN] benches/ab.sh BASE_BRIEFLY RUNS FILE COMMAND [ARGS...]
#   e.g. benches/ab.sh ../wt-base/target/release/briefly 5 target/bench/log-64mb.log text
set -euo pipefail
source "$(dirname "$0")/lib.sh"
[ $# -ge 4 ] || { sed -n 2,8p "$0" >&2; exit 2; }
base=$1 runs=$2 input=$3
shift 3
# HEAD_BRIEFLY names a head build made before (the tree may have changed since).
head_bin=${HEAD_BRIEFLY:-$root/target/release/briefly}
[ -n "${HEAD_BRIEFLY:-}" ] || cargo build --release -q --manifest-path "$root/Cargo.toml"
export BRIEFLY_ARTIFACT_DIR="$work/artifacts"

labels=("base" "base, BRIEFLY_THREADS=1" "head" "head, BRIEFLY_THREADS=1")
bins=("$base" "$base" "$head_bin" "$head_bin")
threads=("" 1 "" 1)
declare -A secs cpus
for ((run = 1; run <= runs; run++)); do
  for i in 0 1 2 3; do
    rm -rf "$BRIEFLY_ARTIFACT_DIR"
    read -r s c < <({ BRIEFLY_THREADS=${threads[$i]} "$timer" -f '%e %U %S' \
      "${bins[$i]}" "$@" "$input" > /dev/null; } 2>&1 | tail -n 1 | awk '{ print $1, $2 + $3 }')
    secs[$i]="${secs[$i]:-} $s"; cpus[$i]="${cpus[$i]:-} $c"
  done
done
rm -rf "$BRIEFLY_ARTIFACT_DIR"
echo "briefly $* FILE on $input ($(($(stat -c %s "$input") / 1048576)) MB), $runs runs in turn, medians"
printf "%-28s %9s %9s\n" "build" "seconds" "CPU s"
declare -a med
for i in 0 1 2 3; do
  # shellcheck disable=SC2086
  med[$i]=$(median ${secs[$i]})
  # shellcheck disable=SC2086
  printf "%-28s %9.2f %9.2f\n" "${labels[$i]}" "${med[$i]}" "$(median ${cpus[$i]})"
done
awk -v a="${med[0]}" -v b="${med[2]}" 'BEGIN { printf "head is %.2fx as fast as base\n", a / (b > 0 ? b : 0.01) }'
