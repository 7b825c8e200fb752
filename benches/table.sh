#!/usr/bin/env bash
# `briefly table` beside pyarrow (the reference reader, in its own virtualenv at
# benches/.venv-table), on the same files, in the same run (medians of RUNS):
#   1. a 1,000,000-row, 5-column Parquet file: the inline result (shape, schema, stats
#      from the footer, first rows) and a page that starts at row 900,000;
#   2. a CSV of SIZE_MB (default 2048): one full pass with column statistics; peak RSS.
#
#   benches/table.sh [SIZE_MB=2048] [RUNS=3]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
size_mb=${1:-2048}
runs=${2:-3}

venv="$root/benches/.venv-table"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import pyarrow' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check pyarrow==26.0.1
fi
py="$venv/bin/python"

cargo build --release -q --manifest-path "$root/Cargo.toml" --bin briefly
briefly="$root/target/release/briefly"
export BRIEFLY_ARTIFACT_DIR="$work/artifacts"

# The files, written by pyarrow (a writer briefly does not share code with).
parquet="$work/table-1m.parquet"
if [ ! -s "$parquet" ]; then
  "$py" - "$parquet" <<'PY'
import sys, pyarrow as pa, pyarrow.compute as pc, pyarrow.parquet as pq
n = 1_000_000
i = pa.array(range(n), pa.int64())
cities = pa.array(["Lisbon", "Oslo", "Quito", "Hanoi", "Perth"])
t = pa.table({
    "id": i,
    # Null every 8th row.
    "name": pc.if_else(pc.equal(pc.bit_wise_and(i, 7), 0), pa.scalar(None, pa.string()),
                       pc.binary_join_element_wise("user", pc.cast(i, pa.string()), "")),
    "score": pc.divide(pc.cast(pc.bit_wise_and(i, 1023), pa.float64()), 4.0),
    "active": pc.equal(pc.bit_wise_and(i, 3), 0),
    "city": pc.take(cities, pc.bit_wise_and(i, 3)),
})
pq.write_table(t, sys.argv[1], compression="snappy", row_group_size=100_000)
PY
fi
csv="$work/table-${size_mb}mb.csv"
if [ ! -s "$csv" ]; then
  echo "generating $csv ..." >&2
  awk -v target=$((size_mb * 1024 * 1024)) 'BEGIN {
    split("Lisbon Oslo Quito Hanoi Perth", city, " ")
    print "id,name,score,active,city"; bytes = 26
    for (i = 0; bytes < target; i++) {
      line = sprintf("%d,%s,%.2f,%s,%s", i, (i % 7 == 0) ? "" : "user" i, (i % 1000) / 4, (i % 3 == 0) ? "true" : "false", city[i % 5 + 1])
      print line; bytes += length(line) + 1
    }
  }' > "$csv"
fi

# A cursor whose next page starts at row 900,000: the first page's, with the key moved
# (exactly what `page` would carry after 900,000 rows were returned).
first=$("$briefly" table "$parquet")
cursor900k=$("$py" - "$first" <<'PY'
import base64, json, sys
cursor = json.loads(sys.argv[1])["next_cursor"][3:]
body = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
body["k"] = {"rank": 0, "seq": 899_999}
print("b1." + base64.urlsafe_b64encode(json.dumps(body).encode()).decode().rstrip("="))
PY
)
check=$("$briefly" page "$cursor900k" | "$py" -c 'import json,sys; e=json.load(sys.stdin); print(e["items"][0][0], e["stats"]["rows"])')
[ "$check" = "900000 1000000" ] || { echo "page at 900,000 is wrong: $check" >&2; exit 1; }

ref_inline='
import sys, pyarrow.parquet as pq
f = pq.ParquetFile(sys.argv[1])
m = f.metadata
stats = [m.row_group(0).column(i).statistics for i in range(m.num_columns)]
first = next(f.iter_batches(batch_size=200))
print(m.num_rows, f.schema_arrow, stats, first.to_pylist())'
ref_page='
import sys, pyarrow.parquet as pq
f = pq.ParquetFile(sys.argv[1])
print(f.read_row_group(9).slice(0, 200).to_pylist())'
ref_csv='
import sys, pyarrow.csv as pc, pyarrow.compute as c
rows, nulls = 0, None
mins, maxs = {}, {}
with pc.open_csv(sys.argv[1]) as reader:
    for batch in reader:
        rows += batch.num_rows
        n = [col.null_count for col in batch.columns]
        nulls = n if nulls is None else [a + b for a, b in zip(nulls, n)]
        for name, col in zip(batch.schema.names, batch.columns):
            mm = c.min_max(col)
            mins[name] = mm["min"]; maxs[name] = mm["max"]
print(rows, nulls)'

# bench LABEL RUNS FILE REF_CMD BRIEFLY_CMD: medians of both, alternating.
bench() {
  local label=$1 n=$2 input=$3 ref_cmd=$4 b_cmd=$5
  local ref_s=() ref_kb=() b_s=() b_kb=() s kb run
  for ((run = 1; run <= n; run++)); do
    read -r s kb < <(measure sh -c "$ref_cmd"); ref_s+=("$s"); ref_kb+=("$kb")
    rm -rf "$BRIEFLY_ARTIFACT_DIR"
    read -r s kb < <(measure sh -c "$b_cmd"); b_s+=("$s"); b_kb+=("$kb")
  done
  local bytes rs bs
  bytes=$(stat -c %s "$input")
  rs=$(median "${ref_s[@]}"); bs=$(median "${b_s[@]}")
  echo
  echo "$label: $((bytes / 1048576)) MB, $n runs, medians"
  header
  row "pyarrow" "$bytes" "$rs" "$(median "${ref_kb[@]}")"
  row "briefly" "$bytes" "$bs" "$(median "${b_kb[@]}")"
  awk -v a="$bs" -v b="$rs" 'BEGIN { printf "briefly/pyarrow time ratio: %.2fx\n", a / (b > 0 ? b : 0.01) }'
  last_kb=$(median "${b_kb[@]}")
}

bench "parquet, 1,000,000 rows: inline result" $((runs * 3)) "$parquet" \
  "\"$py\" -c '$ref_inline' \"$parquet\"" "\"$briefly\" table \"$parquet\""
bench "parquet, 1,000,000 rows: page at row 900,000" $((runs * 3)) "$parquet" \
  "\"$py\" -c '$ref_page' \"$parquet\"" "\"$briefly\" page \"$cursor900k\""
bench "csv: full pass with column statistics" "$runs" "$csv" \
  "\"$py\" -c '$ref_csv' \"$csv\"" "\"$briefly\" table \"$csv\""
awk -v k="$last_kb" 'BEGIN { printf "briefly peak RSS on the CSV under 128 MB: %s (%.1f MB)\n", (k / 1024 < 128) ? "yes" : "NO", k / 1024 }'
rm -rf "$BRIEFLY_ARTIFACT_DIR"
