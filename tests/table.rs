//! `briefly table` end to end: Parquet, Arrow IPC and CSV files written at test time with
//! the arrow crates (and by pyarrow, a second writer), read through the binary.

mod common;

use briefly_table::fixtures;
use common::{assert_warns, Briefly};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

const CAP: usize = 19_660;

fn path_str(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn column<'a>(envelope: &'a Value, name: &str) -> &'a Value {
    envelope["stats"]["column_stats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no column {name}"))
}

fn first_row(envelope: &Value) -> u64 {
    envelope["items"][0][0].as_u64().unwrap()
}

/// Pages from `envelope` to the end; returns every row number seen, in order.
fn page_all(briefly: &Briefly, mut envelope: Value, cap: usize) -> Vec<u64> {
    let mut rows = Vec::new();
    loop {
        rows.extend(
            envelope["items"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| i[0].as_u64().unwrap()),
        );
        let Some(cursor) = envelope["next_cursor"].as_str() else {
            return rows;
        };
        envelope = briefly.envelope(&["page", cursor], b"", cap);
    }
}

#[test]
fn parquet_inline_has_the_shape_schema_and_first_rows_and_pages_seek() {
    let briefly = Briefly::new();
    let path = briefly.dir.path().join("big.parquet");
    fixtures::write_parquet(&path, 1_000_000, 100_000).unwrap();
    let e = briefly.envelope(&["table", path_str(&path)], b"", CAP);
    assert_eq!(e["stats"]["rows"], 1_000_000);
    assert_eq!(e["stats"]["columns"], 5);
    for (name, ty) in [
        ("id", "Int64"),
        ("name", "Utf8"),
        ("score", "Float64"),
        ("active", "Boolean"),
        ("city", "Utf8"),
    ] {
        assert_eq!(column(&e, name)["type"], ty);
    }
    assert_eq!(e["items"][0], json!([0, 0, null, 0.0, true, "Lisbon"]));
    assert_eq!(e["total_items"], 1_000_000);
    // The input file is its own artifact: nothing is copied.
    let canonical = std::fs::canonicalize(&path).unwrap();
    assert_eq!(e["artifact_path"], path_str(&canonical));
    assert!(briefly.artifact_files().is_empty(), "no copy of the file");

    // Page 2 follows page 1 exactly.
    let cursor = e["next_cursor"].as_str().unwrap();
    let page = briefly.envelope(&["page", cursor], b"", CAP);
    assert_eq!(page["item_offset"], e["returned_items"]);
    assert_eq!(first_row(&page), e["returned_items"].as_u64().unwrap());

    // A page that starts at row 900,000 (a cursor as `page` makes it, with the key of
    // item 899,999) holds row 900,000 onwards.
    let mut decoded = common::decode_cursor(cursor);
    decoded["k"] = json!({"rank": 0, "seq": 899_999});
    let far = briefly.envelope(&["page", &common::encode_cursor(&decoded)], b"", CAP);
    assert_eq!(far["item_offset"], 900_000);
    assert_eq!(
        far["items"][0],
        json!([900_000, 900_000, "user900000", 0.0, true, "Lisbon"])
    );
}

#[test]
fn pages_cover_every_row_once_for_every_format() {
    let briefly = Briefly::new();
    let dir = briefly.dir.path();
    let files: Vec<PathBuf> = ["t.parquet", "t.arrow", "t.arrows", "t.csv"]
        .iter()
        .map(|n| dir.join(n))
        .collect();
    fixtures::write_parquet(&files[0], 3_000, 700).unwrap();
    fixtures::write_arrow(&files[1], 3_000).unwrap();
    fixtures::write_arrow_stream(&files[2], 3_000).unwrap();
    fixtures::write_csv(&files[3], 3_000).unwrap();
    for file in &files {
        let e = briefly.envelope(
            &["--max-chars", "6000", "table", path_str(file)],
            b"",
            6_000,
        );
        assert_eq!(e["stats"]["rows"], 3_000, "{}", file.display());
        let rows = page_all(&briefly, e, 6_000);
        assert_eq!(rows, (0..3_000).collect::<Vec<u64>>(), "{}", file.display());
    }
}

/// A Parquet file and an Arrow IPC file of 3,000 rows in `dir`, each with its format.
fn parquet_and_arrow_files(dir: &Path) -> [(PathBuf, &'static str); 2] {
    let (parquet, arrow) = (dir.join("t.parquet"), dir.join("t.arrow"));
    fixtures::write_parquet(&parquet, 3_000, 700).unwrap();
    fixtures::write_arrow(&arrow, 3_000).unwrap();
    [(parquet, "parquet"), (arrow, "arrow")]
}

#[test]
fn parquet_and_arrow_files_on_standard_input_are_read_from_an_artifact() {
    let briefly = Briefly::new();
    let dir = briefly.dir.path();
    for (file, format) in parquet_and_arrow_files(dir) {
        let bytes = std::fs::read(file).unwrap();
        let e = briefly.envelope(&["--max-chars", "6000", "table"], &bytes, 6_000);
        assert_eq!(e["stats"]["rows"], 3_000, "{e}");
        assert_eq!(e["stats"]["format"], format);
        // The copy read is the artifact: byte for byte, with its sidecar; pages read it.
        let artifact = e["artifact_path"]
            .as_str()
            .expect("an artifact")
            .to_string();
        assert_eq!(std::fs::read(&artifact).unwrap(), bytes);
        let sidecar: Value =
            serde_json::from_slice(&std::fs::read(format!("{artifact}.meta.json")).unwrap())
                .unwrap();
        assert_eq!(sidecar["sha256"], common::sha256_hex(Path::new(&artifact)));
        let rows = page_all(&briefly, e, 6_000);
        assert_eq!(rows, (0..3_000).collect::<Vec<u64>>(), "{format}");
    }
    // A result that leaves nothing out keeps no copy.
    let small = dir.join("small.parquet");
    fixtures::write_parquet(&small, 3, 3).unwrap();
    let before = briefly.artifact_files().len();
    let e = briefly.envelope(&["table"], &std::fs::read(&small).unwrap(), CAP);
    assert_eq!(e["stats"]["rows"], 3, "{e}");
    assert_eq!(e["truncated"], false);
    assert_eq!(briefly.artifact_files().len(), before);
}

#[test]
fn a_commands_parquet_or_arrow_output_is_read_from_its_artifact() {
    let briefly = Briefly::new();
    let dir = briefly.dir.path();
    for (file, format) in parquet_and_arrow_files(dir) {
        // The command fails after writing the file, and says why on its stderr.
        let script = format!("cat '{}'; echo 'upload failed' >&2; exit 3", file.display());
        let args = [
            "--max-chars",
            "6000",
            "run",
            "--reducer",
            "table",
            "--",
            "sh",
            "-c",
        ];
        let e = briefly.envelope(&[&args[..], &[&script]].concat(), b"", 6_000);
        assert_eq!(e["stats"]["rows"], 3_000, "{e}");
        assert_eq!(e["stats"]["format"], format);
        assert_eq!(e["exit_code"], 3);
        assert_eq!(e["ok"], false);
        assert_eq!(e["stderr"]["text"], "upload failed\n", "{e}");
        let summary = e["summary"].as_str().unwrap();
        assert!(summary.starts_with(&format!("{format}: 3000 rows")), "{e}");
        assert!(summary.ends_with("upload failed"), "{e}");
        let artifact = e["artifact_path"].as_str().expect("an artifact");
        assert_eq!(
            std::fs::read(artifact).unwrap(),
            std::fs::read(file).unwrap()
        );
        let rows = page_all(&briefly, e, 6_000);
        assert_eq!(rows, (0..3_000).collect::<Vec<u64>>(), "{format}");
    }
    // A result that leaves nothing out keeps no copy.
    let small = dir.join("small.parquet");
    fixtures::write_parquet(&small, 3, 3).unwrap();
    let before = briefly.artifact_files().len();
    let command = ["run", "--reducer", "table", "--", "cat", path_str(&small)];
    let e = briefly.envelope(&command, b"", CAP);
    assert_eq!(e["stats"]["rows"], 3, "{e}");
    assert_eq!((&e["truncated"], &e["ok"]), (&json!(false), &json!(true)));
    assert_eq!(briefly.artifact_files().len(), before);
}

#[test]
fn standard_input_streams_csv_and_arrow_with_the_tee() {
    let briefly = Briefly::new();
    let csv = std::fs::read({
        let p = briefly.dir.path().join("t.csv");
        fixtures::write_csv(&p, 2_000).unwrap();
        p
    })
    .unwrap();
    let e = briefly.envelope(&["--max-chars", "5000", "table"], &csv, 5_000);
    assert_eq!(e["stats"]["format"], "csv");
    assert_eq!(e["raw"]["bytes"], csv.len());
    let artifact = e["artifact_path"].as_str().unwrap();
    assert_eq!(
        std::fs::read(artifact).unwrap(),
        csv,
        "the tee kept the input byte for byte"
    );
    let rows = page_all(&briefly, e, 5_000);
    assert_eq!(rows, (0..2_000).collect::<Vec<u64>>());

    let stream = briefly.dir.path().join("t.arrows");
    fixtures::write_arrow_stream(&stream, 500).unwrap();
    let bytes = std::fs::read(&stream).unwrap();
    let e = briefly.envelope(&["table", "--rows", "2"], &bytes, CAP);
    assert_eq!(e["stats"]["format"], "arrow-stream");
    assert_eq!(e["stats"]["rows"], 500);
    assert_eq!(
        e["items"],
        json!([
            [0, 0, null, 0.0, true, "Lisbon"],
            [1, 1, "user1", 0.25, false, "Oslo"]
        ])
    );
    // The rows --rows leaves out are the input's too: kept in the artifact, as --limit
    // keeps json's records.
    assert_eq!(e["truncated"], true, "{e}");
    let kept = std::fs::read(e["artifact_path"].as_str().unwrap()).unwrap();
    assert_eq!(kept, bytes);
    assert!(
        e["summary"]
            .as_str()
            .unwrap()
            .ends_with("; the first 2 shown (--rows)"),
        "{e}"
    );

    // A small table fits whole: nothing is left out, no artifact.
    let e = briefly.envelope(&["table"], b"a,b\n1,x\n2,y\n", CAP);
    assert_eq!(
        (e["truncated"].clone(), e["artifact_path"].clone()),
        (json!(false), Value::Null)
    );
    assert_eq!(e["items"], json!([[0, 1, "x"], [1, 2, "y"]]));
}

#[test]
fn a_header_alone_and_a_column_named_twice() {
    let briefly = Briefly::new();
    // No rows to choose the columns by: the columns asked for are shown, none omitted.
    let e = briefly.envelope(&["table"], b"id,name\n", CAP);
    assert_eq!(e["summary"], "csv: 0 rows × 2 columns", "{e}");
    assert_eq!(e["stats"]["row_fields"], json!(["row", "id", "name"]));
    // A column named twice is shown once.
    let e = briefly.envelope(&["table", "--columns", "id,id"], b"id,name\n1,a\n", CAP);
    assert_eq!(e["stats"]["row_fields"], json!(["row", "id"]), "{e}");
    assert_eq!(e["items"], json!([[0, 1]]));
    assert_eq!(e["summary"], "csv: 1 row × 1 column");
}

#[test]
fn every_option_through_the_binary() {
    let briefly = Briefly::new();
    let path = briefly.dir.path().join("t.parquet");
    fixtures::write_parquet(&path, 10_000, 2_500).unwrap();
    let p = path_str(&path);

    let e = briefly.envelope(
        &["table", p, "--columns", "city,id", "--rows", "2"],
        b"",
        CAP,
    );
    assert_eq!(e["stats"]["row_fields"], json!(["row", "city", "id"]));
    assert_eq!(e["items"], json!([[0, "Lisbon", 0], [1, "Oslo", 1]]));

    let e = briefly.envelope(
        &[
            "table",
            p,
            "--where",
            "city = Perth",
            "--where",
            "score > 200",
        ],
        b"",
        CAP,
    );
    assert!(e["items"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r[5] == "Perth" && r[3].as_f64().unwrap() > 200.0));
    // Perth is every 5th row, score > 200 is rows 801–999 of each thousand: 40 a thousand.
    assert_eq!(e["stats"]["matched_rows"], 400);
    assert_eq!(e["preview"], "matches");

    let e = briefly.envelope(&["table", p, "--tail", "--rows", "3"], b"", CAP);
    assert_eq!(e["truncated"], true);
    assert_eq!(e["artifact_path"], p, "a file is its own artifact");
    assert_eq!(
        e["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r[0].as_u64().unwrap())
            .collect::<Vec<_>>(),
        vec![9_997, 9_998, 9_999]
    );

    let sample = |seed: &str| {
        briefly.envelope(&["table", p, "--sample", "4", "--seed", seed], b"", CAP)["items"].clone()
    };
    assert_eq!(sample("3"), sample("3"));
    assert_ne!(sample("3"), sample("4"));
    assert_eq!(sample("3").as_array().unwrap().len(), 4);

    let e = briefly.envelope(&["table", p, "--scan", "--columns", "city"], b"", CAP);
    assert_eq!(column(&e, "city")["distinct"], 5);
    assert_eq!(column(&e, "city")["top"][0], json!(["Hanoi", 2_000]));

    let e = briefly.envelope(&["table", p, "--max-columns", "2"], b"", CAP);
    assert_eq!(e["stats"]["omitted_columns"].as_array().unwrap().len(), 3);

    // Whole numbers past 2^53 compare exactly; a value that is no number is not
    // ordered against one, and said so.
    let csv =
        b"id,mixed\n1234567890123456788,60\n1234567890123456789,N/A\n1234567890123456790,40\n";
    let e = briefly.envelope(&["table", "--where", "id=1234567890123456789"], csv, CAP);
    assert_eq!(e["stats"]["matched_rows"], 1, "{e}");
    assert_eq!(column(&e, "id")["distinct"], 3, "{e}");
    let e = briefly.envelope(&["table", "--where", "mixed > 50"], csv, CAP);
    assert_eq!(e["stats"]["matched_rows"], 1, "{e}");
    assert!(
        e["warnings"]
            .to_string()
            .contains("mixed > 50: 1 value is not a number in column \\\"mixed\\\""),
        "{e}"
    );
    // And so is a value that is no date against one.
    let csv = b"id,shipped\n1,2024-01-05\n2,N/A\n3,2023-12-01\n4,pending\n5,2024-02-10\n";
    let e = briefly.envelope(&["table", "--where", "shipped > 2024-01-01"], csv, CAP);
    assert_eq!(e["stats"]["matched_rows"], 2, "{e}");
    assert_eq!(
        e["warnings"][0],
        "shipped > 2024-01-01: 2 values are not dates or times in column \"shipped\": not ordered against one, left out"
    );

    // A repeated column name, and a quote never closed, are warned of.
    let e = briefly.envelope(&["table"], b"a,a,b\n1,2,3\n", CAP);
    assert!(
        e["warnings"]
            .to_string()
            .contains("the header repeats \\\"a\\\""),
        "{e}"
    );
    let e = briefly.envelope(&["table"], b"a,b\n1,\"oops\n2,3\n4,5\n", CAP);
    assert!(
        e["warnings"]
            .to_string()
            .contains("a quote in the record at line 2 is never closed"),
        "{e}"
    );

    let csv = b"k;v\n1;\"a long value here, long enough to cut\"\n";
    let e = briefly.envelope(
        &["table", "--delimiter", ";", "--max-value-chars", "6"],
        csv,
        CAP,
    );
    assert_eq!(e["items"][0], json!([0, 1, "a long…[cut 31 chars]"]));
    let e = briefly.envelope(&["table", "--no-header"], b"1,2\n", CAP);
    assert_eq!(e["stats"]["row_fields"], json!(["row", "c1", "c2"]));
    let tsv = briefly.dir.path().join("data.txt");
    std::fs::write(&tsv, "a\tb\n1\t2\n").unwrap();
    let e = briefly.envelope(
        &["table", path_str(&tsv), "--input-format", "tsv"],
        b"",
        CAP,
    );
    assert_eq!(e["items"][0], json!([0, 1, 2]));
    // A tab as a shell passes `'\t'`, or named; two characters are refused.
    for tab in ["\\t", "tab"] {
        let args = ["table", path_str(&tsv), "--delimiter", tab];
        let e = briefly.envelope(&args, b"", CAP);
        assert_eq!(e["items"][0], json!([0, 1, 2]), "{tab}: {e}");
    }
    let two = briefly.run(&["table", "--delimiter", ";;"], b"a;b\n");
    assert_eq!(two.status.code(), Some(2));

    let out = briefly.run(&["--format", "text", "table", p, "--rows", "1"], b"");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("parquet: 10000 rows × 5 columns"), "{text}");
}

#[test]
fn bad_input_is_a_clear_error_never_a_panic() {
    let briefly = Briefly::new();
    let dir = briefly.dir.path();
    let good = dir.join("t.parquet");
    fixtures::write_parquet(&good, 1_000, 100).unwrap();
    let bytes = std::fs::read(&good).unwrap();
    let cut = dir.join("cut.parquet");
    std::fs::write(&cut, &bytes[..bytes.len() - 20]).unwrap();
    let e = briefly.envelope(&["table", path_str(&cut)], b"", CAP);
    assert_eq!(e["ok"], false);
    assert!(
        e["summary"]
            .as_str()
            .unwrap()
            .contains("not a readable Parquet file"),
        "{}",
        e["summary"]
    );

    let binary = dir.join("blob.bin");
    std::fs::write(&binary, [0x7f, b'E', b'L', b'F', 0, 0, 1]).unwrap();
    let out = briefly.run(&["table", path_str(&binary)], b"");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("not a table: binary data"), "{stderr}");
    assert!(!stderr.contains("panicked"));

    // An empty file is answered as empty standard input is: an envelope saying so.
    let empty = dir.join("empty.csv");
    std::fs::write(&empty, b"").unwrap();
    let from_file = briefly.envelope(&["table", path_str(&empty)], b"", CAP);
    let from_stdin = briefly.envelope(&["table"], b"", CAP);
    assert_eq!(from_file["ok"], false);
    assert_eq!(
        from_file["summary"],
        "table: not a table: the input is empty"
    );
    assert_eq!(from_file["summary"], from_stdin["summary"]);
    assert_eq!(from_file["truncated"], false);
    assert_eq!(from_file["artifact_path"], Value::Null);

    // Parquet given as CSV, on stdin or as a file: binary, not rows of noise.
    for (args, stdin) in [
        (vec!["table", "--input-format", "csv"], bytes.as_slice()),
        (
            vec!["table", "--input-format", "tsv", path_str(&good)],
            b"".as_slice(),
        ),
    ] {
        // A file is refused before anything is read (exit 2); a stream, as it is read
        // (`ok: false`, as any stream that is not a table).
        let out = briefly.run(&args, stdin);
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stderr),
            String::from_utf8_lossy(&out.stdout)
        );
        assert!(said.contains("binary data given as"), "{args:?}: {said}");
        assert!(!said.contains("\"items\":[[0,"), "no rows: {said}");
    }

    let out = briefly.run(&["table", "--where", "nonsense"], b"a\n1\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--where \"nonsense\""));

    // Only the input shows the column missing: the envelope says so, as README promises.
    let out = briefly.run(&["table", path_str(&good), "--columns", "nope"], b"");
    assert_eq!(out.status.code(), Some(0));
    let e: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(e["ok"], false);
    assert!(
        e["summary"]
            .as_str()
            .unwrap()
            .contains("no column \"nope\""),
        "{}",
        e["summary"]
    );

    let ragged = b"a,b,c\n1,\"multi\nline\",3\n4,5\n6,7,8,9\nx,y,z\n";
    let e = briefly.envelope(&["table"], ragged, CAP);
    assert_eq!(e["stats"]["rows"], 4);
    assert_eq!(e["items"][0], json!([0, 1, "multi\nline", 3]));
    assert_warns(
        &e,
        &[
            "2 records do not have as many fields",
            "column \\\"a\\\" holds numbers and 1 non-numeric",
        ],
    );
}

#[test]
fn a_page_of_a_file_that_changed_is_refused() {
    let briefly = Briefly::new();
    let path = briefly.dir.path().join("t.csv");
    fixtures::write_csv(&path, 3_000).unwrap();
    let e = briefly.envelope(&["table", path_str(&path)], b"", CAP);
    let cursor = e["next_cursor"].as_str().unwrap().to_string();
    fixtures::write_csv(&path, 3_001).unwrap();
    let out = briefly.run(&["page", &cursor], b"");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("changed since this cursor was made"),
        "{stderr}"
    );
}

#[test]
fn parquet_written_by_pyarrow_reads_with_its_types() {
    let python = common::python();
    let briefly = Briefly::new();
    let path = briefly.dir.path().join("py.parquet");
    let script = r#"
import sys, datetime, decimal
import pyarrow as pa, pyarrow.parquet as pq
n = 5000
t = pa.table({
    "ts": pa.array([datetime.datetime(2024, 1, 1) + datetime.timedelta(minutes=i) for i in range(n)], pa.timestamp("ms")),
    "amount": pa.array([decimal.Decimal(i) / 100 for i in range(n)], pa.decimal128(10, 2)),
    "tags": pa.array([["a", "b"][: i % 3] for i in range(n)], pa.list_(pa.string())),
    "level": pa.array(["info", "warn", "error", "info"] * (n // 4)).dictionary_encode(),
})
pq.write_table(t, sys.argv[1], compression="zstd", row_group_size=1000)
"#;
    let status = Command::new(&python)
        .args(["-c", script, path_str(&path)])
        .status()
        .unwrap();
    assert!(status.success());
    let e = briefly.envelope(&["table", path_str(&path), "--rows", "2"], b"", CAP);
    assert_eq!(e["stats"]["rows"], 5_000);
    assert_eq!(e["stats"]["row_groups"], 5);
    assert_eq!(
        e["items"][1],
        json!([1, "2024-01-01T00:01:00", "0.01", "[\"a\"]", "warn"])
    );
    assert_eq!(column(&e, "ts")["min"], "2024-01-01T00:00:00");
    assert_eq!(column(&e, "amount")["max"], "49.99");
    let e = briefly.envelope(
        &[
            "table",
            path_str(&path),
            "--where",
            "level = error",
            "--rows",
            "1",
        ],
        b"",
        CAP,
    );
    assert_eq!(e["stats"]["matched_rows"], 1_250);
}

#[test]
fn utf16_text_tables_are_read_decoded_from_a_file_and_a_pipe() {
    let b = Briefly::new();
    // Excel's "Unicode Text" and Windows PowerShell 5's `>`: UTF-16LE after its mark.
    let rows: Vec<String> = std::iter::once("name\tqty".to_string())
        .chain((0..20).map(|i| format!("caf\u{e9}{i}\t{i}")))
        .collect();
    let text = rows.join("\r\n") + "\r\n";
    let mut input = vec![0xFF, 0xFE];
    input.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    let path = b.dir.path().join("export.tsv");
    std::fs::write(&path, &input).unwrap();
    let from_file = b.envelope(&["table", path_str(&path)], b"", CAP);
    let piped = b.envelope(&["table"], &input, CAP);
    // A pipe named as the file (`<(cat export.tsv)`) is read as standard input is.
    let named_pipe = b.envelope(&["table", "/dev/stdin"], &input, CAP);
    for envelope in [&from_file, &piped, &named_pipe] {
        assert_eq!(envelope["stats"]["rows"], 20, "{envelope}");
        assert_eq!(column(envelope, "name")["min"], "caf\u{e9}0");
        assert_eq!(column(envelope, "qty")["max"], 19);
        assert_eq!(envelope["raw"]["bytes"], input.len());
        assert_eq!(envelope["raw"]["chars"], text.chars().count());
        assert_warns(
            envelope,
            &["the input is UTF-16LE (by its byte-order mark)"],
        );
    }
}

#[test]
fn a_csv_file_over_many_reads_keeps_every_row_whole() {
    let briefly = Briefly::new();
    // About 1.3 MB: records cross the file's reads (256 KiB each) wherever they fall.
    let mut csv = String::from("a,b,c\n");
    for i in 0..60_000 {
        csv.push_str(&format!("{i},xxxx,\"q{i}\"\n"));
    }
    let path = briefly.dir.path().join("big.csv");
    std::fs::write(&path, &csv).unwrap();
    for input in [&[path_str(&path)][..], &[]] {
        let args = [&["table", "--rows", "1"], input].concat();
        let stdin = if input.is_empty() {
            csv.as_bytes()
        } else {
            b""
        };
        let e = briefly.envelope(&args, stdin, CAP);
        assert_eq!(e["stats"]["rows"], 60_000, "{input:?}: {e}");
        assert_eq!(e["warnings"], json!([]), "{input:?}: {e}");
        assert_eq!(column(&e, "b")["nulls"], 0, "{input:?}: {e}");
    }
}
