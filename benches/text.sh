#!/usr/bin/env bash
# `briefly text` on a large log: throughput and peak RSS beside `grep -c ERROR` on the
# same file in the same run (the issue asks for within 10x of grep, aiming at 4x, and
# peak RSS under 64 MB). Then what briefly's artifact costs at the least, by other
# tools in turn with grep: copying the file (cp) and hashing it (the sidecar's sha256,
# by openssl where it is installed), briefly's pipeline and severity under `spill`,
# `briefly text` with no artifact at all, and briefly itself with its artifacts on the
# bench's file system and on tmpfs; and the copy past the page cache (dd oflag=direct).
#
#   benches/text.sh [SIZE_MB=1024] [RUNS=3]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
size_mb=${1:-1024}
runs=${2:-3}
input=$(generate_log "$size_mb")
cargo build --release -q --manifest-path "$root/Cargo.toml"
# grep's count goes to a file: on /dev/null GNU grep stops at the first match.
side_by_side "$runs" "$input" \
  "grep -c ERROR FILE" "grep -c ERROR \"$input\" > \"$work/grep.out\"" \
  "briefly text FILE (tee + templates + rank)" "\"$root/target/release/briefly\" text \"$input\""
echo "(the same on one thread, BRIEFLY_THREADS=1: what the second thread gains)"
side_by_side "$runs" "$input" \
  "grep -c ERROR FILE" "grep -c ERROR \"$input\" > \"$work/grep.out\"" \
  "briefly text FILE, one thread" "BRIEFLY_THREADS=1 \"$root/target/release/briefly\" text \"$input\""
echo "(the artifact's floor: the copy and the hash every run of briefly makes, by cp and openssl)"
floor=("grep -c ERROR FILE" "grep -c ERROR \"$input\" > \"$work/grep.out\""
  "cp FILE DIR, then rm (the artifact's copy)" "cp \"$input\" \"$work/copy.log\"; rm \"$work/copy.log\"")
# The same copy past the page cache, where the file system allows it: on a virtual
# machine the page cache's first touch of its pages may cost more than the disk.
if dd if=/dev/zero of="$work/direct.probe" bs=4096 count=1 oflag=direct 2> /dev/null; then
  floor+=("dd oflag=direct to DIR, then rm (the copy, no page cache)"
    "dd if=\"$input\" of=\"$work/direct.log\" bs=256K oflag=direct 2> /dev/null; rm \"$work/direct.log\"")
fi
rm -f "$work/direct.probe"
if command -v openssl > /dev/null; then
  floor+=("openssl dgst -sha256 FILE (its sha256)" "openssl dgst -sha256 \"$input\"")
fi
# briefly's own pipeline with the least reduction on it: the same artifact, hash and
# line framing, each line's severity, and a preview (head, tail, lines that look like
# errors); no templates, no records.
floor+=("briefly spill FILE, then rm (pipeline+severity)"
  "\"$root/target/release/briefly\" --artifact-dir \"$work/spill\" spill \"$input\"; rm -rf \"$work/spill\"")
# The reducer with no artifact at all (a directory that cannot be made: it warns and
# goes on): what the copy and the hash cost it, beside the rows with them.
floor+=("briefly text FILE, no artifact (reducer alone)"
  "\"$root/target/release/briefly\" --artifact-dir /dev/null/none text \"$input\"")
# What the artifact's file system costs: briefly with its artifacts beside the bench's
# files, then in a directory on tmpfs (where $XDG_RUNTIME_DIR usually is), each removed
# after the run as cp's copy is.
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
  shm=$(mktemp -d /dev/shm/briefly-bench.XXXXXX)
  trap 'rm -rf "$shm"' EXIT
  for dir in "$work/artifacts-in-turn" "$shm/artifacts"; do
    label="briefly text, then rm (artifacts: $(df --output=fstype "${dir%/*}" | tail -n 1))"
    floor+=("$label" "\"$root/target/release/briefly\" --artifact-dir \"$dir\" text \"$input\"; rm -rf \"$dir\"")
  done
fi
in_turn "$runs" "$input" "${floor[@]}"
