//! Tables written with the arrow crates, for tests and benchmarks: the same rows as
//! Parquet, Arrow IPC (file and stream) or CSV.

use arrow_array::{ArrayRef, BooleanArray, Float64Array, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

/// The five columns: `id` (int64, 0..), `name` (string, every 7th null), `score`
/// (float64), `active` (bool) and `city` (string, one of five).
pub fn schema() -> Arc<Schema> {
    Arc::new(Schema::new(vec![
        Field::new("id", DataType::Int64, false),
        Field::new("name", DataType::Utf8, true),
        Field::new("score", DataType::Float64, false),
        Field::new("active", DataType::Boolean, false),
        Field::new("city", DataType::Utf8, false),
    ]))
}

const CITIES: [&str; 5] = ["Lisbon", "Oslo", "Quito", "Hanoi", "Perth"];

/// Row `i`'s values, as CSV fields.
pub fn csv_row(i: u64) -> String {
    let name = if i.is_multiple_of(7) {
        String::new()
    } else {
        format!("user{i}")
    };
    format!(
        "{i},{name},{},{},{}",
        score(i),
        i.is_multiple_of(3),
        CITIES[(i % 5) as usize]
    )
}

fn score(i: u64) -> f64 {
    (i % 1000) as f64 / 4.0
}

/// Rows `from..to` as one batch.
pub fn batch(from: u64, to: u64) -> RecordBatch {
    let ids: Vec<i64> = (from..to).map(|i| i as i64).collect();
    let names: Vec<Option<String>> = (from..to)
        .map(|i| (i % 7 != 0).then(|| format!("user{i}")))
        .collect();
    let columns: Vec<ArrayRef> = vec![
        Arc::new(Int64Array::from(ids)),
        Arc::new(StringArray::from(names)),
        Arc::new(Float64Array::from_iter_values((from..to).map(score))),
        Arc::new(BooleanArray::from_iter(
            (from..to).map(|i| Some(i % 3 == 0)),
        )),
        Arc::new(StringArray::from_iter_values(
            (from..to).map(|i| CITIES[(i % 5) as usize]),
        )),
    ];
    RecordBatch::try_new(schema(), columns).expect("columns match the schema")
}

fn batches(rows: u64) -> impl Iterator<Item = RecordBatch> {
    let step = 64 * 1024;
    (0..rows)
        .step_by(step as usize)
        .map(move |from| batch(from, (from + step).min(rows)))
}

/// Writes `rows` rows as Parquet (snappy) in row groups of `group_rows`.
pub fn write_parquet(path: &Path, rows: u64, group_rows: usize) -> Result<(), crate::Error> {
    write_parquet_compressed(path, rows, group_rows, Compression::SNAPPY)
}

/// [`write_parquet`] with another codec.
pub fn write_parquet_compressed(
    path: &Path,
    rows: u64,
    group_rows: usize,
    compression: Compression,
) -> Result<(), crate::Error> {
    let props = WriterProperties::builder()
        .set_compression(compression)
        .set_max_row_group_row_count(Some(group_rows))
        .build();
    let mut writer = ArrowWriter::try_new(std::fs::File::create(path)?, schema(), Some(props))?;
    for batch in batches(rows) {
        writer.write(&batch)?;
    }
    writer.close()?;
    Ok(())
}

/// Writes `rows` rows as an Arrow IPC file.
pub fn write_arrow(path: &Path, rows: u64) -> Result<(), crate::Error> {
    let file = std::fs::File::create(path)?;
    let mut writer = arrow_ipc::writer::FileWriter::try_new(file, &schema())?;
    for batch in batches(rows) {
        writer.write(&batch)?;
    }
    writer.finish()?;
    Ok(())
}

/// Writes `rows` rows as an Arrow IPC stream.
pub fn write_arrow_stream(path: &Path, rows: u64) -> Result<(), crate::Error> {
    let file = std::fs::File::create(path)?;
    let mut writer = arrow_ipc::writer::StreamWriter::try_new(file, &schema())?;
    for batch in batches(rows) {
        writer.write(&batch)?;
    }
    writer.finish()?;
    Ok(())
}

/// Writes `rows` rows as CSV with a header.
pub fn write_csv(path: &Path, rows: u64) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    writeln!(out, "id,name,score,active,city")?;
    for i in 0..rows {
        writeln!(out, "{}", csv_row(i))?;
    }
    out.flush()
}
