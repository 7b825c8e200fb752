#!/usr/bin/env bash
# `briefly docker` on a large generated json-file log beside `jq -c
# 'select(.stream=="stderr")'` (and jaq, when installed or installable) on the same file
# in the same run; then `briefly journal` on `journalctl -o json`-shaped lines beside
# `jq -c 'select(.PRIORITY<="3")'`. Medians of RUNS, time ratios, peak RSS.
#
#   benches/logs.sh [SIZE_MB=1024] [RUNS=3]
#
# BENCH_JAQ=0 skips jaq; otherwise a jaq not on PATH is installed once with
# `cargo install jaq --root benches/.tools` (gitignored).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
size_mb=${1:-1024}
runs=${2:-3}
command -v jq >/dev/null || { echo "needs jq: apt-get install -y jq" >&2; exit 2; }

docker_log="$work/docker-${size_mb}mb-json.log"
if [ ! -s "$docker_log" ]; then
  echo "generating $docker_log ..." >&2
  # json-file driver lines: mostly stdout requests (some as JSON payloads), warnings and
  # errors on stderr, a Python traceback over several lines now and then.
  awk -v target=$((size_mb * 1024 * 1024)) 'BEGIN {
    srand(7); bytes = 0; i = 0
    while (bytes < target) {
      i++
      t = sprintf("2026-11-29T12:%02d:%02d.%09dZ", (i / 60000) % 60, (i / 1000) % 60, (i % 1000) * 1000003)
      if (i % 4999 == 0) {
        line = sprintf("{\"log\":\"Traceback (most recent call last):\\n\",\"stream\":\"stderr\",\"time\":\"%s\"}\n{\"log\":\"  File \\\"/app/db.py\\\", line %d, in query\\n\",\"stream\":\"stderr\",\"time\":\"%s\"}\n{\"log\":\"psycopg2.OperationalError: server closed the connection unexpectedly\\n\",\"stream\":\"stderr\",\"time\":\"%s\"}", t, i % 300, t, t)
      } else if (i % 211 == 0) {
        line = sprintf("{\"log\":\"%s WARN worker-%d slow request id=%08x took %dms\\n\",\"stream\":\"stderr\",\"time\":\"%s\"}", t, i % 16, i * 2654435761 % 4294967296, 900 + i % 997, t)
      } else if (i % 3 == 0) {
        line = sprintf("{\"log\":\"{\\\"level\\\":\\\"info\\\",\\\"msg\\\":\\\"served request\\\",\\\"path\\\":\\\"/api/v1/items/%d\\\",\\\"ms\\\":%d}\\n\",\"stream\":\"stdout\",\"time\":\"%s\"}", i % 100000, i % 997, t)
      } else {
        line = sprintf("{\"log\":\"%s INFO worker-%d request id=%08x path=/api/v1/items/%d took %dms status=200\\n\",\"stream\":\"stdout\",\"time\":\"%s\"}", t, i % 16, i * 2654435761 % 4294967296, i % 100000, i % 997, t)
      }
      print line
      bytes += length(line) + 1
    }
  }' > "$docker_log"
fi

cargo build --release -q --manifest-path "$root/Cargo.toml"
briefly="$root/target/release/briefly"

jaq=$(command -v jaq || true)
if [ -z "$jaq" ] && [ "${BENCH_JAQ:-1}" != 0 ]; then
  tools="$root/benches/.tools"
  if [ ! -x "$tools/bin/jaq" ]; then
    echo "installing jaq into $tools (once) ..." >&2
    cargo install -q jaq --root "$tools" >&2 || echo "jaq could not be installed: skipped" >&2
  fi
  [ -x "$tools/bin/jaq" ] && jaq="$tools/bin/jaq"
fi

echo "== briefly docker vs jq (json-file log)"
side_by_side "$runs" "$docker_log" \
  "jq -c 'select(.stream==\"stderr\")' FILE" "jq -c 'select(.stream==\"stderr\")' \"$docker_log\"" \
  "briefly docker FILE" "\"$briefly\" docker \"$docker_log\""
if [ -n "$jaq" ]; then
  echo "== briefly docker vs jaq (json-file log)"
  side_by_side "$runs" "$docker_log" \
    "jaq -c 'select(.stream==\"stderr\")' FILE" "\"$jaq\" -c 'select(.stream==\"stderr\")' \"$docker_log\"" \
    "briefly docker FILE" "\"$briefly\" docker \"$docker_log\""
fi

journal_mb=$(( size_mb / 4 > 0 ? size_mb / 4 : 1 ))
journal_log="$work/journal-${journal_mb}mb.json"
if [ ! -s "$journal_log" ]; then
  echo "generating $journal_log ..." >&2
  # Lines shaped as `journalctl -o json` prints them.
  awk -v target=$((journal_mb * 1024 * 1024)) 'BEGIN {
    bytes = 0; i = 0
    split("nginx.service sshd.service app.service cron.service", units, " ")
    while (bytes < target) {
      i++
      p = (i % 9973 == 0) ? 3 : ((i % 211 == 0) ? 4 : 6)
      u = units[i % 4 + 1]
      line = sprintf("{\"__CURSOR\":\"s=0123456789abcdef0123456789abcdef;i=%x;b=0123456789abcdef0123456789abcdef;m=%x;t=%x;x=%x\",\"__REALTIME_TIMESTAMP\":\"%d\",\"__MONOTONIC_TIMESTAMP\":\"%d\",\"_BOOT_ID\":\"0123456789abcdef0123456789abcdef\",\"PRIORITY\":\"%d\",\"_SYSTEMD_UNIT\":\"%s\",\"SYSLOG_IDENTIFIER\":\"%s\",\"_PID\":\"%d\",\"_HOSTNAME\":\"host\",\"MESSAGE\":\"request %d from 10.0.%d.%d took %d ms\"}",
        i, i * 1000, 1795946400000000 + i * 1000, i, 1795946400000000 + i * 1000, i * 1000, p, u, u, 1000 + i % 50, i, i % 256, i % 200, i % 997)
      print line
      bytes += length(line) + 1
    }
  }' > "$journal_log"
fi
echo "== briefly journal vs jq (journalctl -o json lines)"
side_by_side "$runs" "$journal_log" \
  "jq -c 'select(.PRIORITY<=\"3\")' FILE" "jq -c 'select(.PRIORITY<=\"3\")' \"$journal_log\"" \
  "briefly journal FILE" "\"$briefly\" journal \"$journal_log\""
