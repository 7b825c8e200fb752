//! The reducer end to end over files written here with the arrow crates.

use super::*;
use briefly_core::testkit::reduce_all_chunkings;
use briefly_core::{reduce, Budget, Envelope, ItemKey, RunConfig};
use serde_json::json;
use std::ops::Range;
use std::sync::Arc;

fn config(max_chars: usize) -> RunConfig {
    RunConfig {
        budget: Budget::default().with_max_chars(max_chars).unwrap(),
        ..RunConfig::new("table")
    }
}

/// The reducer over the file at `path`, starting after item `after`.
fn file(path: &Path, options: TableOptions, max_chars: usize, after: Option<u64>) -> Envelope {
    let mut config = config(max_chars);
    config.after = after.map(|seq| ItemKey { rank: 0, seq });
    let table = Table::file(options, path).unwrap();
    reduce(table, std::io::empty(), &config).unwrap()
}

fn stream(input: &[u8], options: TableOptions) -> Envelope {
    reduce_all_chunkings(
        || Table::stream(options.clone()).unwrap(),
        input,
        &config(20_000),
    )
}

fn rows_of(envelope: &Envelope) -> Vec<u64> {
    envelope
        .items
        .iter()
        .map(|i| i[0].as_u64().unwrap())
        .collect()
}

fn column<'a>(envelope: &'a Envelope, name: &str) -> &'a Value {
    envelope.stats["column_stats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no column {name}: {}", envelope.stats))
}

fn csv(rows: u64) -> Vec<u8> {
    let mut out = b"id,name,score,active,city\n".to_vec();
    for i in 0..rows {
        out.extend_from_slice(fixtures::csv_row(i).as_bytes());
        out.push(b'\n');
    }
    out
}

/// `batch` written at `path` as an Arrow IPC file.
fn write_arrow_file(path: &Path, batch: &arrow_array::RecordBatch) {
    let file = std::fs::File::create(path).unwrap();
    let mut writer = arrow_ipc::writer::FileWriter::try_new(file, &batch.schema()).unwrap();
    writer.write(batch).unwrap();
    writer.finish().unwrap();
}

/// `batch` written at `path` as Parquet, with `properties` (parquet-rs's defaults when none).
fn write_parquet(
    path: &Path,
    batch: &arrow_array::RecordBatch,
    properties: Option<parquet::file::properties::WriterProperties>,
) {
    let file = std::fs::File::create(path).unwrap();
    let mut writer =
        parquet::arrow::ArrowWriter::try_new(file, batch.schema(), properties).unwrap();
    writer.write(batch).unwrap();
    writer.close().unwrap();
}

/// The reducer over the file at `path` with one `--where`.
fn filtered(path: &Path, filter: &str) -> Envelope {
    let options = TableOptions {
        filters: vec![filter.into()],
        ..TableOptions::default()
    };
    file(path, options, 20_000, None)
}

#[test]
fn parquet_shape_and_statistics_come_from_the_footer() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.parquet");
    fixtures::write_parquet(&path, 10_000, 3_000).unwrap();
    let e = file(&path, TableOptions::default(), 20_000, None);
    assert_eq!(e.stats["rows"], 10_000);
    assert_eq!(e.stats["row_groups"], 4);
    assert_eq!(e.stats["stats_from"], "metadata");
    assert_eq!(e.summary, "parquet: 10000 rows × 5 columns in 4 row groups");
    let id = column(&e, "id");
    assert_eq!(
        (id["type"].clone(), id["min"].clone(), id["max"].clone()),
        (json!("Int64"), json!(0), json!(9_999))
    );
    assert_eq!(column(&e, "name")["nulls"], 1_429); // every 7th of 10,000
    assert_eq!(column(&e, "city")["min"], "Hanoi");
    assert_eq!(e.items[0], json!([0, 0, null, 0.0, true, "Lisbon"]));
    assert_eq!(e.items[1], json!([1, 1, "user1", 0.25, false, "Oslo"]));
    assert_eq!(e.total_items, 10_000);
    assert!(e.truncated && e.returned_items > 50 && e.returned_items < 10_000);
    assert_eq!(e.preview, Preview::Head);
    assert_eq!(e.raw.bytes, std::fs::metadata(&path).unwrap().len());
}

#[test]
fn a_parquet_page_reads_only_the_row_group_it_needs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.parquet");
    fixtures::write_parquet(&path, 100_000, 10_000).unwrap();
    // Wreck every row group but the last: a page there must not read them.
    let metadata = ArrowReaderMetadataForTest::load(&path);
    let mut bytes = std::fs::read(&path).unwrap();
    for group in 0..9 {
        for (start, len) in metadata.column_ranges(group) {
            bytes[start as usize..(start + len) as usize].fill(0x5a);
        }
    }
    std::fs::write(&path, &bytes).unwrap();
    let e = file(&path, TableOptions::default(), 5_000, Some(94_999));
    assert!(
        e.ok && !e.items.is_empty(),
        "{} {:?} {} {}",
        e.summary,
        e.warnings,
        e.total_items,
        e.item_offset
    );
    assert_eq!(e.item_offset, 95_000);
    assert_eq!(rows_of(&e)[0], 95_000);
    assert_eq!(
        e.items[0],
        json!([95_000, 95_000, "user95000", 0.0, false, "Lisbon"])
    );
    assert_eq!(e.total_items, 100_000);
    assert!(
        e.next_cursor.is_none(),
        "no artifact configured in this test"
    );
    // From the start it fails, clearly: those row groups really are unreadable.
    let from_start = file(&path, TableOptions::default(), 5_000, None);
    assert!(!from_start.ok, "{}", from_start.summary);
    assert!(
        from_start.warnings[0].contains("stopped"),
        "{:?}",
        from_start.warnings
    );
}

/// Byte ranges of column chunks, to damage them.
struct ArrowReaderMetadataForTest(std::sync::Arc<parquet::file::metadata::ParquetMetaData>);

impl ArrowReaderMetadataForTest {
    fn load(path: &Path) -> Self {
        let file = std::fs::File::open(path).unwrap();
        let reader = parquet::file::serialized_reader::SerializedFileReader::new(file).unwrap();
        use parquet::file::reader::FileReader;
        ArrowReaderMetadataForTest(std::sync::Arc::new(reader.metadata().clone()))
    }

    fn column_ranges(&self, group: usize) -> Vec<(u64, u64)> {
        self.0
            .row_group(group)
            .columns()
            .iter()
            .map(|c| c.byte_range())
            .collect()
    }
}

#[test]
fn an_arrow_file_page_reads_from_the_batch_it_needs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.arrow");
    // Batches of 65,536 rows: rows 131,072 onwards are in the third.
    fixtures::write_arrow(&path, 200_000).unwrap();
    let whole = file(&path, TableOptions::default(), 5_000, None);
    assert_eq!(whole.stats["rows"], 200_000);
    let page = file(&path, TableOptions::default(), 5_000, Some(150_000));
    assert_eq!(page.item_offset, 150_001);
    assert_eq!(
        page.items[0],
        json!([150_001, 150_001, "user150001", 0.25, false, "Oslo"])
    );
    assert_eq!(page.total_items, 200_000);
    assert_eq!(page.stats["row_fields"], whole.stats["row_fields"]);
    // The second batch's body wrecked: a page past it still reads.
    let rows = ipc_rows_for_test(&path);
    assert_eq!(rows, vec![65_536, 65_536, 65_536, 3_392]);
    let mut bytes = std::fs::read(&path).unwrap();
    let mid = bytes.len() * 2 / 5; // inside the second batch's body
    bytes[mid..mid + 4096].fill(0xff);
    std::fs::write(&path, &bytes).unwrap();
    let page = file(&path, TableOptions::default(), 5_000, Some(150_000));
    assert!(page.ok, "{:?}", page.warnings);
    assert_eq!(page.items[0][0], 150_001);
    let from_start = file(&path, TableOptions::default(), 5_000, None);
    assert!(!from_start.ok, "reading every batch meets the wrecked one");
}

fn ipc_rows_for_test(path: &Path) -> Vec<u64> {
    super::source::ipc_batch_rows_for_test(path)
}

#[test]
fn parquet_projection_tail_and_sample() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.parquet");
    fixtures::write_parquet(&path, 5_000, 1_000).unwrap();
    let projected = TableOptions {
        columns: vec!["city".into(), "id".into()],
        rows: Some(3),
        ..TableOptions::default()
    };
    let e = file(&path, projected, 20_000, None);
    assert_eq!(e.stats["row_fields"], json!(["row", "city", "id"]));
    assert_eq!(
        e.items,
        vec![
            json!([0, "Lisbon", 0]),
            json!([1, "Oslo", 1]),
            json!([2, "Quito", 2])
        ]
    );
    assert_eq!(
        (e.total_items, e.truncated),
        (3, true),
        "the rows asked for, all of them; the rest of the file left out"
    );

    let tail = TableOptions {
        tail: true,
        rows: Some(2),
        ..TableOptions::default()
    };
    let e = file(&path, tail, 20_000, None);
    assert_eq!(rows_of(&e), vec![4_998, 4_999]);
    assert_eq!(e.preview, Preview::Tail);

    let sample = |seed| TableOptions {
        sample: Some(5),
        seed,
        ..TableOptions::default()
    };
    let a = file(&path, sample(1), 20_000, None);
    assert_eq!(rows_of(&a).len(), 5);
    assert_eq!(
        a.items,
        file(&path, sample(1), 20_000, None).items,
        "same seed, same rows"
    );
    assert_ne!(rows_of(&a), rows_of(&file(&path, sample(2), 20_000, None)));
    for item in &a.items {
        let row = item[0].as_u64().unwrap();
        assert_eq!(item[1], json!(row), "each sampled row is the row it says");
    }
}

#[test]
fn parquet_where_scan_and_unknown_columns() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.parquet");
    fixtures::write_parquet(&path, 2_000, 500).unwrap();
    let options = TableOptions {
        filters: vec!["city = Oslo".into(), "id >= 1000".into()],
        scan: true,
        ..TableOptions::default()
    };
    let e = file(&path, options, 20_000, None);
    assert_eq!(e.stats["matched_rows"], 200);
    assert!(
        e.summary
            .contains("; 200 rows match city = Oslo and id >= 1000"),
        "{}",
        e.summary
    );
    assert_eq!(e.total_items, 200);
    assert_eq!(rows_of(&e)[0], 1_001);
    let one = TableOptions {
        filters: vec!["id = 1001".into()],
        ..TableOptions::default()
    };
    let single = file(&path, one, 20_000, None);
    let summary = &single.summary;
    assert!(summary.contains("; 1 row matches id = 1001"), "{summary}");
    assert!(e.items.iter().all(|i| i[5] == "Oslo"));
    assert_eq!(e.preview, Preview::Matches);
    assert_eq!(e.stats["stats_from"], "scan");
    assert_eq!(column(&e, "city")["distinct"], 5);
    assert_eq!(column(&e, "city")["top"][0], json!(["Hanoi", 400]));

    let bad = TableOptions {
        columns: vec!["nope".into()],
        ..TableOptions::default()
    };
    let table = Table::file(bad, &path).unwrap();
    let e = reduce(table, std::io::empty(), &config(20_000)).unwrap();
    assert!(
        !e.ok && e.summary.contains("no column \"nope\""),
        "{}",
        e.summary
    );
}

#[test]
fn times_in_a_named_zone_compressed_ipc_and_filters_on_times() {
    use arrow_array::{RecordBatch, TimestampMicrosecondArray};
    use arrow_schema::{DataType, Field, Schema, TimeUnit};
    use std::sync::Arc;
    // pandas writes a zone-aware column in a named zone; pyarrow's Feather compresses.
    let day = 86_400_000_000_i64;
    let times = TimestampMicrosecondArray::from_iter_values(
        (0..100).map(|d| 1_704_067_200_000_000 + d * day),
    )
    .with_timezone("UTC");
    let schema = Arc::new(Schema::new(vec![Field::new(
        "ts",
        DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into())),
        false,
    )]));
    let batch = RecordBatch::try_new(schema.clone(), vec![Arc::new(times)]).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.arrow");
    let options = arrow_ipc::writer::IpcWriteOptions::default()
        .try_with_compression(Some(arrow_ipc::CompressionType::LZ4_FRAME))
        .unwrap();
    let mut writer = arrow_ipc::writer::FileWriter::try_new_with_options(
        std::fs::File::create(&path).unwrap(),
        &schema,
        options,
    )
    .unwrap();
    writer.write(&batch).unwrap();
    writer.finish().unwrap();
    let e = file(&path, TableOptions::default(), 20_000, None);
    assert!(e.ok, "{}", e.summary);
    assert_eq!(e.items[0], json!([0, "2024-01-01T00:00:00Z"]));
    assert_eq!(column(&e, "ts")["max"], "2024-04-09T00:00:00Z");
    // 2024-03-01 is day 60: after it in time, 39 days; before it, 60.
    for (condition, rows) in [("ts > 2024-03-01", 39), ("ts < 2024-03-01", 60)] {
        let options = TableOptions {
            filters: vec![condition.into()],
            ..TableOptions::default()
        };
        let e = file(&path, options, 20_000, None);
        assert_eq!(e.stats["matched_rows"], rows, "{condition}");
    }
}

/// A Parquet file of an Int64 column `id` (1, 2, 3) and a column `n` of type Null, `n`
/// first when `null_first`; with statistics unless `properties` say otherwise.
fn write_with_a_null_column(
    path: &std::path::Path,
    null_first: bool,
    properties: Option<parquet::file::properties::WriterProperties>,
) {
    use arrow_array::{ArrayRef, Int64Array, NullArray, RecordBatch};
    use arrow_schema::{DataType, Field, Schema};
    use std::sync::Arc;
    let mut columns: Vec<(Field, ArrayRef)> = vec![
        (
            Field::new("id", DataType::Int64, false),
            Arc::new(Int64Array::from(vec![1, 2, 3])),
        ),
        // pyarrow's `pa.nulls(3)`: a column of type Null, without validity bits.
        (
            Field::new("n", DataType::Null, true),
            Arc::new(NullArray::new(3)),
        ),
    ];
    if null_first {
        columns.reverse();
    }
    let (fields, arrays): (Vec<Field>, Vec<ArrayRef>) = columns.into_iter().unzip();
    let schema = Arc::new(Schema::new(fields));
    let batch = RecordBatch::try_new(schema, arrays).unwrap();
    write_parquet(path, &batch, properties);
}

#[test]
fn a_column_of_type_null_is_null_in_rows_stats_and_filters() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nulls.parquet");
    write_with_a_null_column(&path, false, None);
    let e = file(&path, TableOptions::default(), 20_000, None);
    assert_eq!(e.items[0], json!([0, 1, null]), "{}", e.to_json());
    let options = TableOptions {
        filters: vec!["n = null".into()],
        scan: true,
        ..TableOptions::default()
    };
    let e = file(&path, options, 20_000, None);
    assert_eq!(e.stats["matched_rows"], 3, "{}", e.to_json());
    assert_eq!(column(&e, "n")["nulls"], 3, "{}", e.to_json());
    // From the footer too: all null, and the last column to show, wherever it is. pyarrow
    // writes no statistics for such a column: none at all here.
    let path = dir.path().join("nulls-first.parquet");
    let properties = parquet::file::properties::WriterProperties::builder()
        .set_statistics_enabled(parquet::file::properties::EnabledStatistics::None)
        .build();
    write_with_a_null_column(&path, true, Some(properties));
    let options = TableOptions {
        max_columns: 1,
        ..TableOptions::default()
    };
    let e = file(&path, options, 20_000, None);
    assert_eq!(
        e.stats["row_fields"],
        json!(["row", "id"]),
        "{}",
        e.to_json()
    );
}

#[test]
fn arrow_ipc_file_and_stream_read_the_same_rows() {
    let dir = tempfile::tempdir().unwrap();
    let (ipc, ipc_stream) = (dir.path().join("t.arrow"), dir.path().join("t.arrows"));
    fixtures::write_arrow(&ipc, 3_000).unwrap();
    fixtures::write_arrow_stream(&ipc_stream, 3_000).unwrap();
    let from_file = file(&ipc, TableOptions::default(), 20_000, None);
    let bytes = std::fs::read(&ipc_stream).unwrap();
    let from_stream = stream(&bytes, TableOptions::default());
    assert_eq!(from_file.items, from_stream.items);
    assert_eq!(from_file.stats["rows"], 3_000);
    assert_eq!(from_stream.stats["format"], "arrow-stream");
    assert_eq!(column(&from_stream, "city")["distinct"], 5);
    assert_eq!(column(&from_stream, "name")["nulls"], 429);
    assert_eq!(column(&from_stream, "score")["max"], 249.75);
    // A stream file named as such reads the same too.
    assert_eq!(
        file(&ipc_stream, TableOptions::default(), 20_000, None).items,
        from_stream.items
    );
}

#[test]
fn csv_stream_with_statistics_filters_tail_and_sample() {
    let input = csv(3_000);
    let e = stream(&input, TableOptions::default());
    assert_eq!(e.stats["rows"], 3_000);
    assert_eq!(e.items[1], json!([1, 1, "user1", 0.25, "false", "Oslo"]));
    assert_eq!(column(&e, "id")["type"], "int");
    assert_eq!(column(&e, "score")["type"], "float");
    assert_eq!(column(&e, "active")["type"], "bool");
    assert_eq!(column(&e, "name")["nulls"], 429);
    assert_eq!(column(&e, "city")["top"][0], json!(["Hanoi", 600]));
    assert!(
        column(&e, "name").get("top").is_none(),
        "unique values have no top"
    );

    let filtered = TableOptions {
        filters: vec!["name ~ user29".into()],
        ..TableOptions::default()
    };
    let e = stream(&input, filtered);
    // 29, 290–299 and 2900–2999 (111), less the 15 multiples of 7 (null names).
    assert_eq!(e.stats["matched_rows"], 96);
    assert!(!e.truncated);

    let tail = TableOptions {
        tail: true,
        rows: Some(3),
        ..TableOptions::default()
    };
    assert_eq!(rows_of(&stream(&input, tail)), vec![2_997, 2_998, 2_999]);
    let sample = TableOptions {
        sample: Some(4),
        seed: 9,
        ..TableOptions::default()
    };
    let rows = rows_of(&stream(&input, sample.clone()));
    assert_eq!(rows.len(), 4);
    assert_eq!(rows, rows_of(&stream(&input, sample)));
}

#[test]
fn awkward_csv_is_read_with_warnings() {
    let input = b"a,b,c\n1,\"two\nlines\",x\n2,short\n3,y,z,extra\nnot a number,q,w\n5,\"say \"\"hi\"\"\",e\n";
    let e = stream(input, TableOptions::default());
    assert_eq!(e.stats["rows"], 5);
    assert_eq!(e.items[0], json!([0, 1, "two\nlines", "x"]));
    assert_eq!(e.items[1], json!([1, 2, "short", null]));
    assert_eq!(e.items[2], json!([2, 3, "y", "z"]));
    assert_eq!(e.items[4], json!([4, 5, "say \"hi\"", "e"]));
    assert!(e.truncated, "extra fields were left out");
    let warnings = e.warnings.join("\n");
    assert!(
        warnings.contains(
            "2 records do not have as many fields as the header (first at line 4: 2 fields)"
        ),
        "{warnings}"
    );
    assert!(
        warnings.contains(
            "column \"a\" holds numbers and 1 non-numeric value (first at row 3: \"not a number\")"
        ),
        "{warnings}"
    );
    assert_eq!(column(&e, "a")["type"], "mixed");
}

#[test]
fn invalid_utf8_and_records_too_long_are_warned_of() {
    let mut input = b"a,b\n1,caf\xe9\n".to_vec();
    input.extend(b"2,\"");
    input.extend(std::iter::repeat_n(b'x', 8 << 20));
    input.extend(b"\"\n3,ok\n");
    // One chunking: each of the others reads 8 MiB again.
    let table = Table::stream(TableOptions::default()).unwrap();
    let e = reduce(table, &input[..], &config(20_000)).unwrap();
    assert_eq!(rows_of(&e), vec![0, 1]);
    assert_eq!(e.items[0], json!([0, 1, "caf\u{fffd}"]));
    assert_eq!(
        e.warnings,
        [
            "1 field held invalid UTF-8, replaced by U+FFFD",
            "1 record was left out: longer than 8388608 bytes (first at line 3)",
        ]
    );
}

#[test]
fn tsv_headerless_and_delimiters() {
    let e = stream(b"x\ty\n1\t2\n", TableOptions::default());
    assert_eq!(e.stats["format"], "tsv");
    assert_eq!(e.stats["row_fields"], json!(["row", "x", "y"]));
    let options = TableOptions {
        no_header: true,
        delimiter: Some(';'),
        ..TableOptions::default()
    };
    let e = stream(b"1;2\n3;4\n", options);
    assert_eq!(e.stats["row_fields"], json!(["row", "c1", "c2"]));
    // Sniffed from the first record, whose quoted header holds a newline (and a comma).
    let quoted = stream(
        b"\"first\nname, given\";age;city\nAda;36;London\n",
        TableOptions::default(),
    );
    assert_eq!(
        quoted.stats["row_fields"],
        json!(["row", "first\nname, given", "age", "city"])
    );
    assert_eq!(quoted.items, vec![json!([0, "Ada", 36, "London"])]);
    assert_eq!(e.items, vec![json!([0, 1, 2]), json!([1, 3, 4])]);
    assert!(e.warnings.is_empty(), "{:?}", e.warnings);
    // Without --no-header, a first line of numbers is warned of.
    let e = stream(b"0,0.2072,z\n1,0.2569,x\n", TableOptions::default());
    assert_eq!(e.stats["row_fields"], json!(["row", "0", "0.2072", "z"]));
    assert_eq!(
        e.warnings,
        ["the first line is read as the header, but 0, 0.2072 are numbers: if it is a row of data, pass --no-header"]
    );
    let e = stream(b"id,x2,inf,-\n1,2,3,4\n", TableOptions::default());
    assert!(e.warnings.is_empty(), "{:?}", e.warnings);
    let e = stream(b"just words\nmore words\n", TableOptions::default());
    assert!(
        e.warnings[0].contains("read as a single column"),
        "{:?}",
        e.warnings
    );
    // One column: a later line's comma is its value's, not a second field.
    let e = stream(b"name\nalice\nbob, jr\n", TableOptions::default());
    assert_eq!(e.items, vec![json!([0, "alice"]), json!([1, "bob, jr"])]);
    assert_eq!(e.warnings.len(), 1, "{:?}", e.warnings);
}

#[test]
fn wide_tables_show_the_most_informative_columns_and_name_the_rest() {
    let mut input = (0..30)
        .map(|c| format!("c{c}"))
        .collect::<Vec<_>>()
        .join(",");
    input.push('\n');
    for r in 0..50 {
        // Even columns vary, odd ones are constant, c29 is empty, c27 holds a value in
        // some rows only.
        let row: Vec<String> = (0..30)
            .map(|c| match c {
                29 => String::new(),
                27 if r % 10 == 3 => "ERR".into(),
                27 => String::new(),
                c if c % 2 == 0 => format!("{}", r * c),
                _ => "same".into(),
            })
            .collect();
        input.push_str(&row.join(","));
        input.push('\n');
    }
    let options = TableOptions {
        max_columns: 16,
        ..TableOptions::default()
    };
    let e = stream(input.as_bytes(), options);
    let fields = e.stats["row_fields"].as_array().unwrap();
    assert_eq!(fields.len(), 17);
    // c2, c4 … c28 vary, and so does c27 (`ERR` or nothing); c0 (all 0) and c1 are
    // constant, then come in file order.
    let mut expected: Vec<Value> = (2..27).step_by(2).map(|c| json!(format!("c{c}"))).collect();
    expected.extend([json!("c27"), json!("c28"), json!("c0")]);
    assert_eq!(fields[1..], expected[..], "varied columns first");
    let omitted = e.stats["omitted_columns"].as_array().unwrap();
    assert_eq!(omitted.len(), 14);
    // By name alone: a CSV column's type is inferred from values, which an omitted one
    // has none of (each was said to be a string, numbers too).
    assert!(omitted.contains(&json!("c29")), "{omitted:?}");
    assert!(
        e.summary.contains("16 of 30 columns shown"),
        "{}",
        e.summary
    );
    assert!(e.truncated);
}

#[test]
fn columns_asked_past_max_columns_are_the_first_asked_in_their_order() {
    let mut input = String::from("c0,c1,c2,c3,c4,c5\n");
    for r in 0..20 {
        // c1 and c3 constant, the others vary: asked for, the order asked decides.
        input.push_str(&format!("{r},same,{},same,{},{}\n", r * 2, r * 3, r * 5));
    }
    let options = TableOptions {
        columns: ["c3", "c5", "c1", "c0"].map(String::from).to_vec(),
        max_columns: 3,
        ..TableOptions::default()
    };
    let e = stream(input.as_bytes(), options);
    let fields = e.stats["row_fields"].as_array().unwrap();
    assert_eq!(fields[1..], [json!("c3"), json!("c5"), json!("c1")]);
    assert_eq!(e.stats["omitted_columns"], json!(["c0"]));
    assert_eq!(e.items[1], json!([1, "same", 5, "same"]));
}

#[test]
fn numbers_ordered_as_text_by_a_value_that_is_none_are_warned_of() {
    let input = "id,ts\n5,2024-03-01\n150,2024-04-01\nabc,x\n";
    for (filter, warned) in [
        (
            "id > 1OO",
            "id > 1OO: 2 numbers or times in column \"id\" ordered as text",
        ),
        (
            "ts > 2024-13-45",
            "ts > 2024-13-45: 2 numbers or times in column \"ts\"",
        ),
    ] {
        let options = TableOptions {
            filters: vec![filter.into()],
            ..TableOptions::default()
        };
        let e = stream(input.as_bytes(), options);
        assert!(
            e.warnings.iter().any(|w| w.starts_with(warned)),
            "{filter}: {:?}",
            e.warnings
        );
    }
    let options = TableOptions {
        filters: vec!["id > 100".into()],
        ..TableOptions::default()
    };
    let e = stream(input.as_bytes(), options);
    assert!(
        !e.warnings.iter().any(|w| w.contains("ordered as text")),
        "{:?}",
        e.warnings
    );
}

#[test]
fn long_values_are_cut_with_the_marker() {
    let input = format!("k,v\n1,{}\n", "z".repeat(500));
    let options = TableOptions {
        max_value_chars: 20,
        ..TableOptions::default()
    };
    let e = stream(input.as_bytes(), options);
    assert_eq!(
        e.items[0][2],
        json!(format!("{}…[cut 480 chars]", "z".repeat(20)))
    );
    assert!(e.truncated);
}

#[test]
fn bad_input_is_a_clear_error_never_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.parquet");
    fixtures::write_parquet(&path, 1_000, 100).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let truncated = dir.path().join("cut.parquet");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let e = file(&truncated, TableOptions::default(), 20_000, None);
    assert!(
        !e.ok && e.summary.contains("not a readable Parquet file"),
        "{}",
        e.summary
    );

    let binary = dir.path().join("x.bin");
    std::fs::write(&binary, [0u8, 1, 2, 3, 0, 7]).unwrap();
    let err = Table::file(TableOptions::default(), &binary).err().unwrap();
    assert!(
        err.to_string().starts_with("not a table: binary data"),
        "{err}"
    );

    let e = stream(b"\x00\x01\x02binary\n", TableOptions::default());
    assert!(!e.ok && e.summary.contains("not a table"), "{}", e.summary);
    let e = stream(&bytes, TableOptions::default());
    assert!(
        !e.ok && e.summary.contains("needs random access"),
        "{}",
        e.summary
    );

    let ipc = dir.path().join("t.arrows");
    fixtures::write_arrow_stream(&ipc, 1_000).unwrap();
    let ipc = std::fs::read(&ipc).unwrap();
    let e = stream(&ipc[..ipc.len() - 100], TableOptions::default());
    assert!(
        !e.ok && e.warnings[0].contains("ends mid-message"),
        "{:?}",
        e.warnings
    );

    assert!(Table::stream(TableOptions {
        filters: vec!["x".into()],
        ..TableOptions::default()
    })
    .is_err());
    let e = stream(b"", TableOptions::default());
    assert!(!e.ok && e.summary.contains("empty"), "{}", e.summary);
}

#[test]
fn a_changed_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.csv");
    std::fs::write(&path, csv(10)).unwrap();
    let options = TableOptions {
        fingerprint: Some(Fingerprint::of(&path).unwrap()),
        ..TableOptions::default()
    };
    assert!(Table::file(options.clone(), &path).is_ok());
    std::fs::write(&path, csv(11)).unwrap();
    let err = Table::file(options, &path).err().unwrap();
    assert!(
        err.to_string()
            .contains("changed since this cursor was made"),
        "{err}"
    );
}

#[test]
fn csv_files_and_streams_agree() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.csv");
    std::fs::write(&path, csv(500)).unwrap();
    let a = file(&path, TableOptions::default(), 20_000, None);
    let b = stream(&csv(500), TableOptions::default());
    assert_eq!((&a.items, &a.stats), (&b.items, &b.stats));
    assert_eq!(a.raw, b.raw);
    // Without a last newline too.
    let mut unterminated = csv(3);
    unterminated.pop();
    std::fs::write(&path, &unterminated).unwrap();
    let a = file(&path, TableOptions::default(), 20_000, None);
    let b = stream(&unterminated, TableOptions::default());
    assert_eq!((&a.items, a.raw), (&b.items, b.raw));
    assert_eq!(a.raw.lines, 4);
}

#[test]
fn a_corrupt_parquet_row_group_is_warned_of_as_parquet() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.parquet");
    fixtures::write_parquet(&path, 20_000, 5_000).unwrap();
    // Noise over the middle of the data pages, the footer intact.
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    for b in &mut bytes[middle - 2_000..middle + 2_000] {
        *b = b.wrapping_mul(31).wrapping_add(7);
    }
    std::fs::write(&path, &bytes).unwrap();
    let options = TableOptions {
        scan: true,
        ..TableOptions::default()
    };
    let e = file(&path, options, 20_000, None);
    let said = format!("{} {:?}", e.summary, e.warnings);
    assert!(said.contains("Parquet"), "{said}");
    assert!(!said.contains("Arrow IPC"), "{said}");
}

#[test]
fn decimals_past_a_floats_digits_are_told_apart_bounded_and_filtered_exactly() {
    use arrow_array::{ArrayRef, Decimal128Array, RecordBatch};
    use std::sync::Arc;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("decimals.parquet");
    // 12345678901234567890.123456787, …788, …789 at scale 9: one float, three values.
    let amounts: Vec<i128> = (787..=789)
        .map(|last| 12_345_678_901_234_567_890_123_456_000 + last)
        .collect();
    let amounts = Decimal128Array::from(amounts)
        .with_precision_and_scale(38, 9)
        .unwrap();
    let batch = RecordBatch::try_from_iter([("amount", Arc::new(amounts) as ArrayRef)]).unwrap();
    write_parquet(&path, &batch, None);

    let scan = TableOptions {
        scan: true,
        ..TableOptions::default()
    };
    let e = file(&path, scan.clone(), 20_000, None);
    let amount = column(&e, "amount");
    assert_eq!(amount["distinct"], 3, "{}", e.to_json());
    assert_eq!(amount["min"], "12345678901234567890.123456787");
    assert_eq!(amount["max"], "12345678901234567890.123456789");
    let matched = |filter: &str| {
        let options = TableOptions {
            filters: vec![filter.into()],
            ..scan.clone()
        };
        let e = file(&path, options, 20_000, None);
        e.stats["matched_rows"].clone()
    };
    assert_eq!(matched("amount > 12345678901234567890.123456788"), 1);
    assert_eq!(matched("amount >= 12345678901234567890.123456788"), 2);
    assert_eq!(matched("amount = 12345678901234567890.12345678800"), 1);
    assert_eq!(matched("amount < 12345678901234567891"), 3);
    // A CSV column of them too.
    let e = stream(
        b"amount\n12345678901234567890.123456789\n12345678901234567890.123456788\n0.5\n",
        TableOptions::default(),
    );
    let amount = column(&e, "amount");
    assert_eq!(amount["type"], "float");
    assert_eq!(amount["distinct"], 3, "{}", e.to_json());
    assert_eq!(amount["min"], 0.5);
    assert_eq!(amount["max"], "12345678901234567890.123456789");
}

#[test]
fn scan_is_warned_of_where_it_changes_nothing() {
    let options = TableOptions {
        scan: true,
        ..TableOptions::default()
    };
    let e = stream(b"a,b\n1,2\n", options.clone());
    assert_eq!(
        e.warnings,
        ["--scan is for Parquet, whose statistics come from its footer: a csv is read whole anyway"]
    );
    assert_eq!(e.items, vec![json!([0, 1, 2])]);
    let e = stream(b"a,b\n1,2\n", TableOptions::default());
    assert!(e.warnings.is_empty(), "{:?}", e.warnings);
    // A file alike; a Parquet file heeds it.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.tsv");
    std::fs::write(&path, "a\tb\n1\t2\n").unwrap();
    let e = file(&path, options.clone(), 20_000, None);
    assert_eq!(
        e.warnings,
        ["--scan is for Parquet, whose statistics come from its footer: a tsv is read whole anyway"]
    );
    let path = dir.path().join("t.parquet");
    fixtures::write_parquet(&path, 10, 10).unwrap();
    let e = file(&path, options, 20_000, None);
    assert!(e.warnings.is_empty(), "{:?}", e.warnings);
}

#[test]
fn a_name_the_schema_repeats_is_warned_of_and_each_column_keeps_its_statistics() {
    use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
    use arrow_schema::{DataType, Field, Schema};
    // pyarrow writes `x, y, x`; so does the arrow crate.
    let schema = Arc::new(Schema::new(vec![
        Field::new("x", DataType::Int64, true),
        Field::new("y", DataType::Utf8, true),
        Field::new("x", DataType::Int64, true),
    ]));
    let columns: Vec<ArrayRef> = vec![
        Arc::new(Int64Array::from(vec![1, 2, 3])),
        Arc::new(StringArray::from(vec!["a", "b", "c"])),
        Arc::new(Int64Array::from(vec![10, 20, 30])),
    ];
    let batch = RecordBatch::try_new(schema, columns).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let parquet = dir.path().join("t.parquet");
    write_parquet(&parquet, &batch, None);
    let arrow = dir.path().join("t.arrow");
    write_arrow_file(&arrow, &batch);
    let bounds = |e: &Envelope| -> Vec<(Value, Value)> {
        (e.stats["column_stats"].as_array().unwrap().iter())
            .filter(|c| c["name"] == "x")
            .map(|c| (c["min"].clone(), c["max"].clone()))
            .collect()
    };
    let warning = r#"the schema repeats "x": --columns and --where name the first column of each"#;
    let e = file(&parquet, TableOptions::default(), 20_000, None);
    assert_eq!(e.warnings, [warning]);
    assert_eq!(bounds(&e), [(json!(1), json!(3)), (json!(10), json!(30))]);
    // Scanned, the batches' schema is told of once, the footer's.
    let scan = TableOptions {
        scan: true,
        ..TableOptions::default()
    };
    assert_eq!(file(&parquet, scan, 20_000, None).warnings, [warning]);
    // `--columns x` is the first, in Parquet as in Arrow.
    for path in [&parquet, &arrow] {
        let options = TableOptions {
            columns: vec!["x".into()],
            ..TableOptions::default()
        };
        let e = file(path, options, 20_000, None);
        assert_eq!(e.warnings, [warning], "{path:?}");
        assert_eq!(e.stats["row_fields"], json!(["row", "x"]), "{path:?}");
        assert_eq!(bounds(&e), [(json!(1), json!(3))], "{path:?}");
    }
}

#[test]
fn a_stray_nul_in_a_csv_is_a_value_wherever_it_is() {
    // One NUL in the first line read (the format is decided on it) or past it.
    for at in [1, 3, 500] {
        let mut csv = b"id,name\n".to_vec();
        for i in 0..1000 {
            let nul = if i == at { "\0" } else { "" };
            csv.extend_from_slice(format!("{i},na{nul}me{i}\n").as_bytes());
        }
        let e = stream(&csv, TableOptions::default());
        assert!(e.ok, "{at}: {e:?}");
        assert_eq!(e.stats["rows"], 1000);
    }
    // Two NULs in a short head, or one with other control characters: binary.
    for binary in [&b"a,b\n\0\0\n"[..], b"\x00\x01\x02binary\n", b"a\xff\0,b\n"] {
        let e = stream(binary, TableOptions::default());
        assert!(!e.ok, "{binary:?}");
        assert!(e.summary.contains("binary data"), "{}", e.summary);
    }
}

#[test]
fn rows_a_stray_quote_joined_into_one_field_are_warned_of() {
    // psql's or cut's TSV: quotes are text; read as CSV quoting, rows 3 and 4 are in
    // row 2's field.
    let tsv = b"id\tquote\tauthor\n1\t\"To be\" is a line\tShakespeare\n2\t\"Hello\tanon\n\
        3\tplain\tx\n4\tshe said \"hi\"\ty\n5\tlast\tz\n";
    let e = stream(tsv, TableOptions::default());
    assert_eq!(e.stats["rows"], 3, "{e:?}");
    assert_eq!(
        e.warnings,
        ["1 record has a field in quotes over several lines, a line of which holds a record's worth of delimiters (first at line 3): if a quote there is text, not quoting (`\"Hello` in psql's or cut's output), it joined rows into that field; the raw lines are in the artifact"]
    );
    // A field over lines that is one (an address) is no such thing.
    let csv = b"id,addr,n\n1,\"Smith, John, Jr.\n12 Main St\nSpringfield, IL\",3\n2,x,4\n";
    let e = stream(csv, TableOptions::default());
    assert_eq!(e.stats["rows"], 2);
    assert!(e.warnings.is_empty(), "{:?}", e.warnings);
}

#[test]
fn a_column_where_names_is_shown_among_more_than_fit() {
    use arrow_array::{ArrayRef, Int64Array, RecordBatch};
    use arrow_schema::{DataType, Field, Schema};
    // 25 columns, the last constant (the least informative): shown all the same when
    // --where names it, in CSV and in Parquet.
    let names: Vec<String> = (0..25).map(|c| format!("c{c}")).collect();
    let value = |r: i64, c: usize| if c == 24 { 7 } else { r * 31 + c as i64 };
    let mut csv = format!("{}\n", names.join(","));
    for r in 0..50 {
        let row: Vec<String> = (0..25).map(|c| value(r, c).to_string()).collect();
        csv.push_str(&format!("{}\n", row.join(",")));
    }
    let schema = Arc::new(Schema::new(
        (names.iter())
            .map(|n| Field::new(n, DataType::Int64, false))
            .collect::<Vec<_>>(),
    ));
    let columns: Vec<ArrayRef> = (0..25)
        .map(|c| Arc::new(Int64Array::from_iter_values((0..50).map(|r| value(r, c)))) as ArrayRef)
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let parquet = dir.path().join("wide.parquet");
    write_parquet(
        &parquet,
        &RecordBatch::try_new(schema, columns).unwrap(),
        None,
    );
    let shown = |e: &Envelope| -> bool {
        let fields = e.stats["row_fields"].as_array().unwrap();
        fields.len() == 21 && fields.contains(&json!("c24"))
    };
    let filtered = || TableOptions {
        filters: vec!["c24 = 7".into()],
        ..TableOptions::default()
    };
    let from_csv = stream(csv.as_bytes(), filtered());
    assert!(shown(&from_csv), "{:?}", from_csv.stats["row_fields"]);
    let from_parquet = file(&parquet, filtered(), 50_000, None);
    assert!(
        shown(&from_parquet),
        "{:?}",
        from_parquet.stats["row_fields"]
    );
    // Unfiltered, it is the one left out.
    let plain = stream(csv.as_bytes(), TableOptions::default());
    assert!(!shown(&plain), "{:?}", plain.stats["row_fields"]);
    let plain = file(&parquet, TableOptions::default(), 50_000, None);
    assert!(!shown(&plain), "{:?}", plain.stats["row_fields"]);
}

#[test]
fn a_float_columns_nans_are_counted_in_its_statistics() {
    use arrow_array::{ArrayRef, Float64Array, RecordBatch};
    use arrow_schema::{DataType, Field, Schema};
    let schema = Arc::new(Schema::new(vec![Field::new("f", DataType::Float64, true)]));
    let values: ArrayRef = Arc::new(Float64Array::from(vec![
        Some(1.0),
        Some(f64::NAN),
        None,
        Some(-0.0),
        Some(0.0),
    ]));
    let batch = RecordBatch::try_new(schema.clone(), vec![values]).unwrap();
    let mut bytes = Vec::new();
    let mut writer = arrow_ipc::writer::StreamWriter::try_new(&mut bytes, &schema).unwrap();
    writer.write(&batch).unwrap();
    writer.finish().unwrap();
    drop(writer);
    let e = stream(&bytes, TableOptions::default());
    let f = &e.stats["column_stats"][0];
    assert_eq!(
        (&f["nans"], &f["nulls"], &f["distinct"], &f["max"]),
        (&json!(1), &json!(1), &json!(3), &json!(1.0)),
        "{f}"
    );
    // None, no field.
    let csv = stream(b"f\n1.5\n2\n", TableOptions::default());
    assert!(csv.stats["column_stats"][0].get("nans").is_none());
}

#[test]
fn parquet_in_every_codec_is_read() {
    use parquet::basic::{BrotliLevel, Compression, GzipLevel, ZstdLevel};
    let dir = tempfile::tempdir().unwrap();
    let codecs = [
        Compression::UNCOMPRESSED,
        Compression::SNAPPY,
        Compression::GZIP(GzipLevel::default()),
        Compression::BROTLI(BrotliLevel::default()),
        Compression::LZ4_RAW,
        Compression::ZSTD(ZstdLevel::default()),
    ];
    for codec in codecs {
        let path = dir.path().join("t.parquet");
        fixtures::write_parquet_compressed(&path, 1000, 300, codec).unwrap();
        let options = TableOptions {
            filters: vec!["city = Oslo".into()],
            rows: Some(0),
            ..TableOptions::default()
        };
        let e = file(&path, options, 20_000, None);
        assert!(e.ok, "{codec:?}: {e:?}");
        assert_eq!(e.stats["matched_rows"], 200, "{codec:?}");
    }
}

#[test]
fn a_parquet_scan_that_stops_short_says_its_counts_are_part_and_keeps_the_footers() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.parquet");
    fixtures::write_parquet(&path, 1000, 100).unwrap();
    // The last row group's first page header overwritten: the reader stops there.
    let at = {
        let reader =
            parquet::file::reader::SerializedFileReader::new(std::fs::File::open(&path).unwrap())
                .unwrap();
        use parquet::file::reader::FileReader;
        let metadata = reader.metadata();
        metadata.row_group(9).column(0).data_page_offset() as usize
    };
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[at..at + 16].fill(0xff);
    std::fs::write(&path, &bytes).unwrap();
    let scan = TableOptions {
        scan: true,
        rows: Some(0),
        ..TableOptions::default()
    };
    let e = file(&path, scan, 20_000, None);
    assert!(!e.ok);
    assert_eq!(
        e.stats["stats_from"],
        "metadata (the scan stopped before the end: its counts would be part of the rows)"
    );
    let id = &e.stats["column_stats"][0];
    assert_eq!(
        (&id["name"], &id["max"]),
        (&json!("id"), &json!(999)),
        "{e:?}"
    );
    // Filtered, the count is of the rows read; nothing is said picked.
    let filtered = TableOptions {
        filters: vec!["id >= 0".into()],
        rows: Some(2),
        ..TableOptions::default()
    };
    let e = file(&path, filtered, 20_000, None);
    assert!(!e.ok);
    assert!(
        e.summary
            .ends_with("rows match id >= 0 in the rows read before the read stopped (not all)"),
        "{}",
        e.summary
    );
    assert!(!e.summary.contains("shown"), "{}", e.summary);
    let tail = TableOptions {
        rows: Some(2),
        tail: true,
        ..TableOptions::default()
    };
    let e = file(&path, tail, 20_000, None);
    assert!(!e.ok);
    assert!(!e.summary.contains("shown"), "{}", e.summary);
    // Without a footer to fall back on (an Arrow stream cut short), the scan's own
    // counts, said to be partial.
    let stream_path = dir.path().join("t.arrows");
    fixtures::write_arrow_stream(&stream_path, 1000).unwrap();
    let bytes = std::fs::read(&stream_path).unwrap();
    let cut = stream(&bytes[..bytes.len() * 3 / 4], TableOptions::default());
    assert!(!cut.ok);
    assert_eq!(
        cut.stats["stats_from"], "scan, partial: the rows read before the read stopped",
        "{cut:?}"
    );
    let whole = stream(&bytes, TableOptions::default());
    assert_eq!(whole.stats["stats_from"], "scan");
}

#[test]
fn malformed_parquet_and_arrow_data_is_an_error_of_the_input_not_a_crash() {
    // Files a fuzzer made from fixtures' (helper-89): the readers panic on each.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let read = |name: &str| file(&dir.join(name), TableOptions::default(), 20_000, None);
    let e = read("float_precision.arrow");
    assert!(!e.ok);
    assert!(
        e.summary.contains(
            "not readable: malformed data the reader stopped at (FloatingPoint type with precision of <UNKNOWN 219> not supported)"
        ),
        "{}",
        e.summary
    );
    // Parquet's statistics come from the footer: the rows read before it are shown.
    let e = read("negative_column_start.parquet");
    assert!(!e.ok);
    assert_eq!(
        e.warnings,
        ["stopped: not readable: malformed data the reader stopped at (column start and length should not be negative); what was read before is shown"]
    );
    let bytes = std::fs::read(dir.join("type_none.arrows")).unwrap();
    let e = stream(&bytes, TableOptions::default());
    assert!(!e.ok);
    assert!(
        e.summary.contains("Type NONE not supported"),
        "{}",
        e.summary
    );
    // A block the footer lists past the file's end is refused before the reader sees it.
    let e = read("int_bit_width.arrow");
    assert!(
        e.summary
            .contains("a block at byte 816 of 864 + 28536 bytes in a file of 856"),
        "{}",
        e.summary
    );
}

/// 1000 whole numbers in one batch: their buffer is 8000 bytes, which a compressed buffer
/// states in its first 8 bytes.
fn thousand_numbers() -> arrow_array::RecordBatch {
    use arrow_schema::{DataType, Field, Schema};
    let schema = Arc::new(Schema::new(vec![Field::new("n", DataType::Int64, false)]));
    let values = arrow_array::Int64Array::from_iter_values((0..1000).map(|i| i * 7919 % 1013));
    arrow_array::RecordBatch::try_new(schema, vec![Arc::new(values)]).unwrap()
}

/// Arrow IPC written LZ4-compressed, as Feather is by default.
fn lz4() -> arrow_ipc::writer::IpcWriteOptions {
    arrow_ipc::writer::IpcWriteOptions::default()
        .try_with_compression(Some(arrow_ipc::CompressionType::LZ4_FRAME))
        .unwrap()
}

/// Where `bytes` (from `within`) hold `value` as 8 little-endian bytes.
fn places_of(bytes: &[u8], within: Range<usize>, value: i64) -> Vec<usize> {
    within
        .filter(|&i| i + 8 <= bytes.len() && bytes[i..i + 8] == value.to_le_bytes())
        .collect()
}

#[test]
fn an_arrow_file_stating_lengths_past_its_bytes_is_refused_before_it_is_read() {
    let batch = thousand_numbers();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.arrow");
    let mut writer = arrow_ipc::writer::FileWriter::try_new_with_options(
        std::fs::File::create(&path).unwrap(),
        &batch.schema(),
        lz4(),
    )
    .unwrap();
    writer.write(&batch).unwrap();
    writer.finish().unwrap();
    assert!(file(&path, TableOptions::default(), 20_000, None).ok);
    let good = std::fs::read(&path).unwrap();
    let at = places_of(&good, 0..good.len(), 8000);
    assert_eq!(at.len(), 1, "the buffer's stated length is found once");
    // A corrupt stated length: the allocation it asks for would abort the process.
    let mut bad = good.clone();
    bad[at[0]..at[0] + 8].copy_from_slice(&(1i64 << 56).to_le_bytes());
    std::fs::write(&path, &bad).unwrap();
    let e = file(&path, TableOptions::default(), 20_000, None);
    assert!(!e.ok);
    assert!(
        e.summary
            .contains("states 72057594037927936 bytes decompressed (over 4294967296)"),
        "{}",
        e.summary
    );
    // A page of it too.
    let e = file(&path, TableOptions::default(), 20_000, Some(0));
    assert!(!e.ok, "{}", e.summary);
    // A footer whose block runs past the file's end.
    let mut cut = good.clone();
    let trailer = cut.split_off(cut.len() - 10);
    let footer_len = u32::from_le_bytes(trailer[..4].try_into().unwrap()) as usize;
    let footer = cut.split_off(cut.len() - footer_len);
    cut.truncate(64);
    cut.extend_from_slice(&footer);
    cut.extend_from_slice(&trailer);
    std::fs::write(&path, &cut).unwrap();
    let e = file(&path, TableOptions::default(), 20_000, None);
    assert!(!e.ok);
    assert!(e.summary.contains("bytes in a file of"), "{}", e.summary);
}

#[test]
fn a_header_that_repeats_names_is_warned_of_with_the_first_ten_listed() {
    let two = stream(b"a,a,b,b,b\n1,2,3,4,5\n", TableOptions::default());
    assert!(
        two.warnings
            .contains(&"the header repeats \"a\", \"b\", \"b\": --columns and --where name the first column of each".to_string()),
        "{:?}",
        two.warnings
    );
    // Many thousand columns, every name twice: linear in the header, the list cut.
    let names: Vec<String> = (0..20_000).map(|i| format!("c{}", i / 2)).collect();
    let input = format!("{}\n", names.join(","));
    let many = stream(input.as_bytes(), TableOptions::default());
    let warning = many
        .warnings
        .iter()
        .find(|w| w.starts_with("the header repeats"))
        .expect("warned");
    assert!(
        warning.starts_with("the header repeats \"c0\", \"c1\", \"c2\", \"c3\", \"c4\", \"c5\", \"c6\", \"c7\", \"c8\", \"c9\", 9990 more:"),
        "{warning}"
    );
}

#[test]
fn an_arrow_stream_stating_a_buffer_past_any_memory_is_refused() {
    let batch = thousand_numbers();
    let schema = batch.schema();
    let write = |options| {
        let mut bytes = Vec::new();
        let mut writer =
            arrow_ipc::writer::StreamWriter::try_new_with_options(&mut bytes, &schema, options)
                .unwrap();
        writer.write(&batch).unwrap();
        writer.finish().unwrap();
        drop(writer);
        bytes
    };
    let good = write(lz4());
    assert!(stream(&good, TableOptions::default()).ok);
    let at = places_of(&good, 0..good.len(), 8000);
    assert_eq!(at.len(), 1, "the buffer's stated length is found once");
    let mut bad = good.clone();
    bad[at[0]..at[0] + 8].copy_from_slice(&(1i64 << 56).to_le_bytes());
    // The same in any chunking (the schema before it read alike): no abort.
    let e = stream(&bad, TableOptions::default());
    assert!(!e.ok, "{}", e.summary);
    assert_eq!(
        e.warnings.last().map(String::as_str),
        Some(format!("stopped: not readable (Ipc error: a compressed buffer at byte {} states 72057594037927936 bytes decompressed (over 4294967296)); what was read before is shown", at[0]).as_str()),
        "{e:?}"
    );
    // A message stating a body past any memory: its length in the batch's header. (A
    // message opens with `prefix` bytes, the last 4 its metadata's length.)
    let body_length_at = |bytes: &[u8], prefix: usize| {
        let length = |at: usize| i32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let second = prefix + length(prefix - 4);
        let meta = second + prefix..second + prefix + length(second + prefix - 4);
        let body = arrow_ipc::root_as_message(&bytes[meta.clone()])
            .unwrap()
            .bodyLength();
        places_of(bytes, meta, body)
    };
    let refused = |mut bytes: Vec<u8>, at: Vec<usize>, options: TableOptions| {
        for at in at {
            bytes[at..at + 8].copy_from_slice(&(1i64 << 40).to_le_bytes());
        }
        let e = stream(&bytes, options);
        assert!(
            e.warnings
                .iter()
                .any(|w| w.contains("states a body of 1099511627776 bytes (over 4294967296)")),
            "{e:?}"
        );
    };
    let written = body_length_at(&good, 8);
    assert_eq!(written.len(), 1, "the body's length is found once");
    refused(good, written, TableOptions::default());
    // The format before 1.0, without the continuation marker: the same.
    let old = write(
        arrow_ipc::writer::IpcWriteOptions::try_new(8, true, arrow_ipc::MetadataVersion::V4)
            .unwrap(),
    );
    // (Told by its format given: it opens with no marker to sniff.)
    let forced = TableOptions {
        input_format: Some(InputFormat::ArrowStream),
        ..TableOptions::default()
    };
    assert!(stream(&old, forced.clone()).ok);
    // (Its one buffer is as long as the body: both lengths are written so.)
    let written = body_length_at(&old, 4);
    assert_eq!(written.len(), 2, "the body's length and its buffer's");
    refused(old, written, forced);
}

#[test]
fn an_arrow_stream_that_breaks_keeps_the_batches_read_before_it() {
    // Two streams one after another (`>>`): the second's schema is no batch of the first.
    let one_stream = || {
        let mut bytes = Vec::new();
        let mut writer =
            arrow_ipc::writer::StreamWriter::try_new(&mut bytes, &fixtures::schema()).unwrap();
        for from in [0, 100] {
            writer.write(&fixtures::batch(from, from + 100)).unwrap();
        }
        writer.finish().unwrap();
        drop(writer);
        bytes
    };
    let mut both = one_stream();
    both.extend(one_stream());
    let e = stream(&both, TableOptions::default());
    assert!(!e.ok);
    assert_eq!(e.stats["rows"], 200, "{e:?}");
    assert!(
        e.warnings
            .last()
            .is_some_and(|w| w.starts_with("stopped: not readable")
                && w.ends_with("what was read before is shown")),
        "{:?}",
        e.warnings
    );
}

/// A batch of encoded columns, as pandas' categoricals and pyarrow's run-end encoding
/// write them: `flag` (a dictionary of booleans), `code` (of whole numbers), `price` (of
/// decimals), `s` (strings in runs, one a run of nulls) and `day` (a Date64 at midnight).
fn encoded_batch(with_runs: bool) -> arrow_array::RecordBatch {
    use arrow_array::types::{Int32Type, Int8Type};
    use arrow_array::{
        ArrayRef, BooleanArray, Date64Array, Decimal128Array, DictionaryArray, Int32Array,
        Int64Array, Int8Array, RunArray, StringArray,
    };
    let flags = DictionaryArray::<Int32Type>::try_new(
        Int32Array::from(vec![Some(0), Some(1), None, Some(0)]),
        Arc::new(BooleanArray::from(vec![true, false])),
    )
    .unwrap();
    let codes = DictionaryArray::<Int8Type>::try_new(
        Int8Array::from(vec![Some(0), Some(1), Some(0), None]),
        Arc::new(Int64Array::from(vec![200, 3])),
    )
    .unwrap();
    let prices = DictionaryArray::<Int32Type>::try_new(
        Int32Array::from(vec![Some(1), Some(0), Some(1), Some(1)]),
        Arc::new(
            Decimal128Array::from(vec![150, 225])
                .with_precision_and_scale(5, 2)
                .unwrap(),
        ),
    )
    .unwrap();
    let day = 86_400_000;
    let mut columns: Vec<(&str, ArrayRef)> = vec![
        ("id", Arc::new(Int64Array::from(vec![0, 1, 2, 3]))),
        ("flag", Arc::new(flags)),
        ("code", Arc::new(codes)),
        ("price", Arc::new(prices)),
        (
            "day",
            Arc::new(Date64Array::from(vec![19_723 * day, 19_724 * day, 0, 1])),
        ),
    ];
    if with_runs {
        let runs = RunArray::<Int32Type>::try_new(
            &Int32Array::from(vec![2, 3, 4]),
            &StringArray::from(vec![Some("p"), None, Some("q")]),
        )
        .unwrap();
        columns.push(("s", Arc::new(runs)));
    }
    arrow_array::RecordBatch::try_from_iter(columns).unwrap()
}

#[test]
fn encoded_columns_read_as_their_values() {
    let dir = tempfile::tempdir().unwrap();
    let parquet = dir.path().join("encoded.parquet");
    write_parquet(&parquet, &encoded_batch(false), None);
    let ipc = dir.path().join("encoded.arrow");
    write_arrow_file(&ipc, &encoded_batch(true));
    let rows = [
        json!([0, 0, true, 200, "2.25", "2024-01-01", "p"]),
        json!([1, 1, false, 3, "1.50", "2024-01-02", "p"]),
        json!([2, 2, null, 200, "2.25", "1970-01-01", null]),
        json!([3, 3, true, null, "2.25", "1970-01-01T00:00:00.001", "q"]),
    ];
    for (path, columns) in [(&parquet, 6), (&ipc, 7)] {
        for scan in [false, true] {
            let options = TableOptions {
                scan,
                ..TableOptions::default()
            };
            let e = file(path, options, 20_000, None);
            let expected: Vec<Value> = rows
                .iter()
                .map(|row| Value::from(row.as_array().unwrap()[..columns].to_vec()))
                .collect();
            assert_eq!(e.items, expected, "{path:?} {}", e.to_json());
            let code = column(&e, "code");
            assert_eq!(
                (&code["min"], &code["max"]),
                (&json!(3), &json!(200)),
                "{}",
                e.to_json()
            );
        }
    }
    // A run of nulls is null to a filter and in the stats.
    let options = TableOptions {
        filters: vec!["s = null".into()],
        scan: true,
        ..TableOptions::default()
    };
    let e = file(&ipc, options, 20_000, None);
    assert_eq!(rows_of(&e), [2], "{}", e.to_json());
    assert_eq!(column(&e, "s")["nulls"], 1, "{}", e.to_json());
}

#[test]
fn narrow_floats_read_as_the_decimals_they_were_written_as() {
    use arrow_array::{Float32Array, RecordBatch};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f32.arrow");
    let scores = Float32Array::from(vec![0.0, 0.1, 0.3, 0.7]);
    let batch = RecordBatch::try_from_iter([("score", Arc::new(scores) as arrow_array::ArrayRef)]);
    write_arrow_file(&path, &batch.unwrap());
    let e = filtered(&path, "score = 0.1");
    assert_eq!(e.items, [json!([1, 0.1])], "{}", e.to_json());
    assert_eq!(rows_of(&filtered(&path, "score <= 0.3")), [0, 1, 2]);
    assert_eq!(
        column(&filtered(&path, "score >= 0"), "score")["max"],
        json!(0.7)
    );
}

#[test]
fn parquet_string_bounds_a_writer_cut_are_flagged() {
    use arrow_array::{RecordBatch, StringArray};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("urls.parquet");
    let long = |i: u32| {
        format!("https://api.example.com/v1/organizations/acme/projects/widgets/builds/{i}/logs")
    };
    let batch = RecordBatch::try_from_iter([
        (
            "url",
            Arc::new(StringArray::from_iter_values((0..100).map(long))) as arrow_array::ArrayRef,
        ),
        (
            "short",
            Arc::new(StringArray::from_iter_values(
                (0..100).map(|i| format!("s{i}")),
            )),
        ),
    ])
    .unwrap();
    // parquet-rs cuts string bounds to 64 bytes by default, and marks them not exact.
    write_parquet(&path, &batch, None);
    let e = file(&path, TableOptions::default(), 20_000, None);
    assert_eq!(column(&e, "url")["bounds_cut"], true, "{}", e.to_json());
    assert_eq!(
        column(&e, "short").get("bounds_cut"),
        None,
        "{}",
        e.to_json()
    );
    // Long bounds marked exact (pyarrow's, or parquet-rs told not to cut) are not; nor
    // are short ones no flag marks exact (polars 2.1's `"a"`, `"b"`).
    let whole = parquet::file::properties::WriterProperties::builder()
        .set_statistics_truncate_length(None)
        .build();
    let exact = dir.path().join("exact.parquet");
    write_parquet(&exact, &batch, Some(whole));
    let e = file(&exact, TableOptions::default(), 20_000, None);
    assert_eq!(column(&e, "url").get("bounds_cut"), None, "{}", e.to_json());
    let polars =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/polars_short_strings.parquet");
    let e = file(&polars, TableOptions::default(), 20_000, None);
    assert_eq!(
        (&column(&e, "s")["max"], column(&e, "s").get("bounds_cut")),
        (&json!("b"), None)
    );
    let scan = TableOptions {
        scan: true,
        ..TableOptions::default()
    };
    let e = file(&path, scan, 20_000, None);
    let url = column(&e, "url");
    let max = long(99);
    let shown = format!("{}…[cut {} chars]", &max[..60], max.len() - 60);
    assert_eq!((url.get("bounds_cut"), &url["max"]), (None, &json!(shown)));
}

#[test]
fn a_number_that_finds_no_field_written_with_leading_zeros_says_so() {
    let input = b"zip,city\n02134,Boston\n10001,New York\n02134,Boston\n";
    let options = TableOptions {
        filters: vec!["zip = 2134".into()],
        ..TableOptions::default()
    };
    let e = stream(input, options);
    assert!(rows_of(&e).is_empty(), "{}", e.to_json());
    assert_eq!(
        e.warnings,
        ["zip == 2134: 2 values in column \"zip\" written with leading zeros, compared as text: an identifier's digits, not a number (write the value as the column does)"]
    );
}

#[test]
fn excels_sep_line_names_the_delimiter_and_is_no_header() {
    for input in [
        &b"sep=;\na;b\n1;2\n3;4\n"[..],
        b"sep=;\r\na;b\r\n1;2\r\n3;4\r\n",
    ] {
        let e = stream(input, TableOptions::default());
        assert_eq!(rows_of(&e), [0, 1], "{}", e.to_json());
        assert_eq!(column(&e, "b")["type"], "int", "{}", e.to_json());
        assert!(e.warnings.is_empty(), "{:?}", e.warnings);
    }
    // (`stream` reads it in every chunking: the line alone in the first batch too.)
    let e = stream(b"sep=|\nname|n\nx|1\n", TableOptions::default());
    assert_eq!(column(&e, "n")["type"], "int", "{}", e.to_json());
    // A first field that merely starts so is the header's.
    let e = stream(b"sep=x,n\n1,2\n", TableOptions::default());
    assert_eq!(column(&e, "sep=x")["type"], "int", "{}", e.to_json());
}

#[test]
fn csv_infinities_are_numbers() {
    // As pandas writes them (`inf`, `-inf`), R (`Inf`) and JavaScript (`Infinity`).
    let input = b"id,ratio\n0,0.5\n1,inf\n2,-inf\n3,2.0\n4,-Infinity\n5,Inf\n";
    let streamed = |filter: &str| {
        let options = TableOptions {
            filters: vec![filter.into()],
            ..TableOptions::default()
        };
        stream(input, options)
    };
    let e = streamed("ratio > 1");
    assert_eq!(rows_of(&e), [1, 3, 5], "{}", e.to_json());
    let ratio = column(&e, "ratio");
    assert_eq!(
        (&ratio["type"], &ratio["min"], &ratio["max"]),
        (&json!("float"), &json!("-inf"), &json!("inf")),
        "{}",
        e.to_json()
    );
    assert!(e.warnings.is_empty(), "{:?}", e.warnings);
    assert_eq!(rows_of(&streamed("ratio < 0")), [2, 4]);
}

#[test]
fn an_empty_header_cell_is_named_by_its_place_unless_that_name_is_taken() {
    let input = b"c2,,c3,\n1,x,7,a\n2,y,8,b\n";
    let e = stream(input, TableOptions::default());
    assert_eq!(
        e.stats["row_fields"],
        json!(["row", "c2", "c2_", "c3", "c4"]),
        "{}",
        e.to_json()
    );
    assert!(e.warnings.is_empty(), "{:?}", e.warnings);
    let options = TableOptions {
        filters: vec!["c2_ = y".into()],
        ..TableOptions::default()
    };
    assert_eq!(rows_of(&stream(input, options)), [1]);
}

#[test]
fn duration_columns_filter_by_length() {
    use arrow_array::{DurationMillisecondArray, DurationSecondArray, RecordBatch};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dur.arrow");
    let batch = RecordBatch::try_from_iter([
        (
            "s",
            Arc::new(DurationSecondArray::from(vec![6, 60, 90, 600, 86_400]))
                as arrow_array::ArrayRef,
        ),
        (
            "ms",
            Arc::new(DurationMillisecondArray::from(vec![
                500, 60_000, 1_500, 0, 90_000,
            ])),
        ),
    ])
    .unwrap();
    write_arrow_file(&path, &batch);
    let rows = |filter: &str| rows_of(&filtered(&path, filter));
    assert_eq!(rows("s > PT60S"), [2, 3, 4]);
    assert_eq!(rows("s >= PT1M"), [1, 2, 3, 4]);
    assert_eq!(rows("ms < PT1S"), [0, 3]);
    assert_eq!(rows("ms = PT1M30S"), [4]);
}

#[test]
fn a_zones_offset_with_seconds_keeps_them() {
    use arrow_array::{RecordBatch, TimestampSecondArray};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lmt.arrow");
    // 1900-01-01T06:38:50Z (Kolkata's local mean time, +05:21:10) and 1960-01-01T00:00Z.
    let times = TimestampSecondArray::from(vec![-2_208_964_870, -315_619_200])
        .with_timezone("Asia/Kolkata");
    let batch = RecordBatch::try_from_iter([("t", Arc::new(times) as arrow_array::ArrayRef)]);
    write_arrow_file(&path, &batch.unwrap());
    let e = file(&path, TableOptions::default(), 20_000, None);
    assert_eq!(
        e.items,
        [
            json!([0, "1900-01-01T12:00:00+05:21:10"]),
            json!([1, "1960-01-01T05:30:00+05:30"])
        ],
        "{}",
        e.to_json()
    );
    assert_eq!(rows_of(&filtered(&path, "t = 1900-01-01T06:38:50Z")), [0]);
}
