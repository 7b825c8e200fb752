//! Where rows come from: the format's detection, CSV and Arrow IPC streams pushed in
//! chunks, and files read by the reducer itself (Parquet by row group, Arrow IPC files).

use crate::cell::BatchCells;
use crate::csv::{sniff_delimiter, CsvParser, Records};
use crate::ipc::{bad_ipc, check_stated, compressed_buffers, StreamGuard};
use crate::scan::{sample_rows, Pick, Rows, ROW};
use crate::stats::{bounded_text, ColumnSummary};
use crate::{Cell, Error, InputFormat, Table, TableOptions, TableStats};
use arrow_array::{Array, RecordBatch};
use arrow_ipc::reader::{FileReader, StreamDecoder};
use arrow_schema::DataType;
use briefly_core::{Emit, InputDecoder, Outcome, Raw};
use parquet::arrow::arrow_reader::statistics::StatisticsConverter;
use parquet::arrow::arrow_reader::{
    ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReaderBuilder, RowSelection,
    RowSelector,
};
use parquet::arrow::ProjectionMask;
use serde_json::Value;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::Read;
use std::ops::Range;
use std::path::Path;

/// Bytes looked at to tell the format of a stream (and the CSV delimiter).
const SNIFF_BYTES: usize = 64 * 1024;
/// CSV records longer than this are dropped (and counted).
const MAX_RECORD_BYTES: usize = 8 << 20;
/// Rows per Arrow batch read from Parquet.
const BATCH_ROWS: usize = 1024;
const PARQUET_MAGIC: &[u8] = b"PAR1";
const ARROW_MAGIC: &[u8] = b"ARROW1";
const IPC_CONTINUATION: &[u8] = &[0xFF, 0xFF, 0xFF, 0xFF];

/// A pushed byte stream's state.
pub struct Stream {
    forced: Option<InputFormat>,
    delimiter: Option<u8>,
    no_header: bool,
    sniff: Vec<u8>,
    state: State,
    /// CSV: records with another number of fields than the header: count, first line,
    /// its fields.
    ragged: (u64, Option<(u64, usize)>),
    /// CSV: fields with invalid UTF-8.
    replaced: u64,
}

enum State {
    Sniffing,
    Csv {
        parser: Box<CsvParser>,
        header: Option<Vec<String>>,
        /// The first line is Excel's `sep=;`, which names the delimiter: not the
        /// header, and not read yet.
        excel_sep: bool,
    },
    Ipc {
        decoder: Box<StreamDecoder>,
        guard: StreamGuard,
    },
}

impl Stream {
    pub fn new(options: &TableOptions) -> Stream {
        Stream {
            forced: options.input_format,
            delimiter: options.delimiter.map(|d| d as u8),
            no_header: options.no_header,
            sniff: Vec::new(),
            state: State::Sniffing,
            ragged: (0, None),
            replaced: 0,
        }
    }
}

/// The format of the file at `path`: `forced`, else its magic bytes, else its extension,
/// else CSV when it looks like text.
pub fn detect_file(path: &Path, forced: Option<InputFormat>) -> Result<InputFormat, Error> {
    let mut file = File::open(path)?;
    let mut head = vec![0u8; 8192];
    let mut n = 0;
    while n < head.len() {
        match file.read(&mut head[n..])? {
            0 => break,
            k => n += k,
        }
    }
    head.truncate(n);
    if let Some(format) = forced {
        binary_given_as_text(format, &head)?;
        return Ok(format);
    }
    if head.starts_with(PARQUET_MAGIC) {
        return Ok(InputFormat::Parquet);
    }
    if head.starts_with(ARROW_MAGIC) {
        return Ok(InputFormat::Arrow);
    }
    if head.starts_with(IPC_CONTINUATION) {
        return Ok(InputFormat::ArrowStream);
    }
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    // UTF-16 text has a NUL in every other byte: it is read decoded.
    if !briefly_core::utf16::is_utf16(&head) {
        looks_like_text(&head)?;
    }
    Ok(match ext.as_deref() {
        Some("tsv" | "tab") => InputFormat::Tsv,
        _ => InputFormat::Csv,
    })
}

fn looks_like_text(head: &[u8]) -> Result<(), Error> {
    if head.is_empty() {
        return Err(Error::Empty);
    }
    if is_binary(head) {
        return Err(Error::NotATable(
            "binary data that is neither Parquet nor Arrow IPC (expected Parquet, Arrow IPC, CSV or TSV)"
                .into(),
        ));
    }
    Ok(())
}

/// An error when `--input-format` says CSV or TSV of input that starts with binary
/// data (NUL bytes, not UTF-16 text): its rows would be noise.
fn binary_given_as_text(format: InputFormat, head: &[u8]) -> Result<(), Error> {
    let text = matches!(format, InputFormat::Csv | InputFormat::Tsv);
    if text && is_binary(head) && !briefly_core::utf16::is_utf16(head) {
        return Err(Error::NotATable(format!(
            "binary data given as {}: not a table of text (a Parquet or Arrow file is read by its own format)",
            if format == InputFormat::Csv { "CSV" } else { "TSV" }
        )));
    }
    Ok(())
}

/// Whether the input's first bytes are binary data: NUL bytes, but for a stray one in
/// UTF-8 text without other control characters (one, or one in a thousand bytes: a bad
/// export's row, read as any other, not the file refused).
fn is_binary(head: &[u8]) -> bool {
    let nuls = head.iter().filter(|&&b| b == 0).count();
    if nuls == 0 {
        return false;
    }
    // Control characters text does not hold (tab, line ends, form feed and ANSI's
    // escape it does).
    let controls = (head.iter())
        .filter(|&&b| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c | 0x1b)) || b == 0x7f)
        .count();
    // (The head may end inside a character.)
    let utf8 = std::str::from_utf8(head).map_or_else(|e| e.error_len().is_none(), |_| true);
    !(utf8 && controls <= (head.len() / 1000).max(1))
}

/// Pushes stream bytes (`[]` at the end) through the format's decoder into the scan.
pub fn push(table: &mut Table, bytes: &[u8], out: &mut dyn Emit<Value>) -> Result<(), Error> {
    let end = bytes.is_empty();
    if matches!(table.stream.state, State::Sniffing) {
        table.stream.sniff.extend_from_slice(bytes);
        let sniff = &table.stream.sniff;
        let decided = end || sniff.len() >= SNIFF_BYTES || sniff.contains(&b'\n');
        let magic_decided = sniff.len() >= ARROW_MAGIC.len();
        if !(decided && (magic_decided || end)) {
            return Ok(());
        }
        let sniff = std::mem::take(&mut table.stream.sniff);
        start(table, &sniff)?;
        feed(table, &sniff, out)?;
        if end {
            feed(table, &[], out)?;
        }
        return Ok(());
    }
    feed(table, bytes, out)
}

/// Decides the stream's format from its first bytes.
fn start(table: &mut Table, head: &[u8]) -> Result<(), Error> {
    let stream = &mut table.stream;
    let format = match stream.forced {
        Some(format) => {
            binary_given_as_text(format, head)?;
            format
        }
        None if head.starts_with(IPC_CONTINUATION) => InputFormat::ArrowStream,
        None if head.starts_with(PARQUET_MAGIC) || head.starts_with(ARROW_MAGIC) => {
            return Err(Error::NotATable(
                "a Parquet or Arrow IPC file needs random access: pass its path (briefly table FILE) rather than standard input".into(),
            ))
        }
        None => {
            looks_like_text(head)?;
            InputFormat::Csv
        }
    };
    // A file's was warned of as its format was found ([`Table::file`]).
    if table.format.replace(format).is_none() {
        table
            .warnings
            .extend(crate::unheeded_scan(&table.options, format));
    }
    stream.state = match format {
        InputFormat::ArrowStream => State::Ipc {
            decoder: Box::new(StreamDecoder::new()),
            guard: StreamGuard::default(),
        },
        InputFormat::Csv | InputFormat::Tsv => {
            let excel_sep = excel_delimiter(head);
            let sniffed = excel_sep.or_else(|| sniff_delimiter(head));
            let single =
                stream.delimiter.is_none() && format == InputFormat::Csv && sniffed.is_none();
            let delimiter = match (stream.delimiter, format) {
                (Some(delimiter), _) => delimiter,
                (None, InputFormat::Tsv) => b'\t',
                // One column: a line's commas are its value's (no text holds a NUL).
                (None, _) if single => 0,
                (None, _) => sniffed.unwrap_or(b','),
            };
            if single {
                table.warnings.push(
                    "no delimiter (, tab ; |) in the first record: read as a single column".into(),
                );
            }
            if delimiter == b'\t' {
                table.format = Some(InputFormat::Tsv);
            }
            State::Csv {
                parser: Box::new(CsvParser::new(delimiter, MAX_RECORD_BYTES)),
                header: None,
                excel_sep: excel_sep.is_some(),
            }
        }
        InputFormat::Parquet | InputFormat::Arrow => {
            return Err(Error::NotATable(
                "a Parquet or Arrow IPC file needs random access: pass its path".into(),
            ))
        }
    };
    Ok(())
}

fn feed(table: &mut Table, bytes: &[u8], out: &mut dyn Emit<Value>) -> Result<(), Error> {
    match &mut table.stream.state {
        State::Sniffing => Ok(()),
        State::Csv { parser, .. } => {
            let mut batches = Vec::new();
            parser.push(bytes, &mut |records| batches.push(records));
            for records in batches {
                csv_batch(table, &records, out)?;
            }
            Ok(())
        }
        State::Ipc { decoder, guard } => {
            let mut batches = Vec::new();
            // A corrupt length stops the reading where the reader would act on it.
            let (bytes, mut corrupt) = match guard.check(bytes) {
                Ok(()) => (bytes, None),
                Err((safe, error)) => (&bytes[..safe], Some(error)),
            };
            if bytes.is_empty() && corrupt.is_none() {
                decoder.finish().map_err(|e| {
                    Error::NotATable(format!("the Arrow IPC stream ends mid-message ({e})"))
                })?;
            } else {
                let mut buffer = arrow_buffer::Buffer::from(bytes.to_vec());
                while !buffer.is_empty() {
                    match decoder.decode(&mut buffer) {
                        Ok(batch) => batches.extend(batch),
                        // The batches before it are read, as in any chunking.
                        Err(e) => {
                            corrupt = corrupt.or(Some(e.into()));
                            break;
                        }
                    }
                }
                if batches.is_empty() && table.scan.is_none() {
                    if let Some(schema) = decoder.schema() {
                        let empty = RecordBatch::new_empty(schema);
                        batches.push(empty);
                    }
                }
            }
            for batch in batches {
                arrow_batch(table, &batch, true, out)?;
            }
            corrupt.map_or(Ok(()), Err)
        }
    }
}

/// Names a header repeats listed in its warning; the rest are counted.
const MAX_REPEATED_LISTED: usize = 10;

/// The warning for column names `whose` (`the header`, `the schema`) repeats: a
/// condition or `--columns` names the first column of each.
fn repeated_names(names: &[String], whose: &str) -> Option<String> {
    // A set: a header of many thousand names is read in linear time.
    let mut seen = HashSet::with_capacity(names.len());
    let repeated: Vec<&str> = names
        .iter()
        .filter(|name| !seen.insert(name.as_str()))
        .map(String::as_str)
        .collect();
    if repeated.is_empty() {
        return None;
    }
    let mut listed: Vec<String> = repeated
        .iter()
        .take(MAX_REPEATED_LISTED)
        .map(|name| format!("{name:?}"))
        .collect();
    if repeated.len() > MAX_REPEATED_LISTED {
        listed.push(format!("{} more", repeated.len() - MAX_REPEATED_LISTED));
    }
    Some(format!(
        "{whose} repeats {}: --columns and --where name the first column of each",
        listed.join(", ")
    ))
}

/// The cells of a batch of CSV records, with missing fields as nulls.
struct CsvRows<'a> {
    fields: Vec<Option<Cow<'a, str>>>,
    width: usize,
    rows: usize,
}

impl Rows for CsvRows<'_> {
    fn len(&self) -> usize {
        self.rows
    }

    fn cell(&self, column: usize, row: usize) -> Cell<'_> {
        match &self.fields[row * self.width + column] {
            Some(text) if !text.is_empty() => Cell::Text(Cow::Borrowed(text)),
            _ => Cell::Null,
        }
    }
}

/// Whether a header's name is a number as a row's cell would be (`0`, `-1.5`, `2e3`).
fn is_number(name: &str) -> bool {
    let b = name.as_bytes();
    b.first()
        .is_some_and(|&c| c.is_ascii_digit() || matches!(c, b'-' | b'+' | b'.'))
        && b.iter().any(u8::is_ascii_digit)
        && name.parse::<f64>().is_ok()
}

/// The delimiter Excel's first line names (`sep=;`, then the header), if `head` opens
/// with one.
fn excel_delimiter(head: &[u8]) -> Option<u8> {
    let line = head.strip_prefix(b"sep=")?;
    match line {
        [delimiter, b'\n', ..] | [delimiter, b'\r', b'\n', ..] if *delimiter != b'"' => {
            Some(*delimiter)
        }
        _ => None,
    }
}

fn csv_batch(table: &mut Table, records: &Records, out: &mut dyn Emit<Value>) -> Result<(), Error> {
    let State::Csv {
        header, excel_sep, ..
    } = &mut table.stream.state
    else {
        unreachable!("a CSV batch comes from the CSV state")
    };
    let mut first = 0;
    if *excel_sep && !records.is_empty() {
        *excel_sep = false;
        first = 1;
    }
    if header.is_none() && first < records.len() {
        let names: Vec<String> = if table.stream.no_header {
            (1..=records.width(first))
                .map(|i| format!("c{i}"))
                .collect()
        } else {
            first += 1;
            let written: Vec<String> = (records.fields(first - 1))
                .map(|f| String::from_utf8_lossy(f).trim().to_string())
                .collect();
            // An empty name is its place's (`c2`), or one more `_` after it while another
            // column has that name (`c2,,c3`: `c2_`), so that every column can be named.
            let positional = |i: usize| {
                let mut name = format!("c{}", i + 1);
                while written.contains(&name) {
                    name.push('_');
                }
                name
            };
            (written.iter().enumerate())
                .map(|(i, name)| match name.is_empty() {
                    true => positional(i),
                    false => name.clone(),
                })
                .collect()
        };
        let width = names.len();
        // Numbers as names: most often a first line of data (`sqlite3 -csv`, `psql -At`
        // print no header), one row the table would otherwise lose unsaid.
        let numbers: Vec<&str> = (names.iter())
            .filter(|name| is_number(name))
            .take(3)
            .map(String::as_str)
            .collect();
        if !table.stream.no_header && !numbers.is_empty() {
            table.warnings.push(format!(
                "the first line is read as the header, but {} {}: if it is a row of data, pass --no-header",
                numbers.join(", "),
                if numbers.len() == 1 { "is a number" } else { "are numbers" }
            ));
        }
        table.warnings.extend(repeated_names(&names, "the header"));
        *header = Some(names.clone());
        let scan = table.make_scan(
            names,
            vec!["string".into(); width],
            vec![true; width],
            true,
            true,
        )?;
        table.scan = Some(scan);
    }
    let width = table.scan.as_ref().map_or(0, |s| s.names.len());
    let valid = records.utf8();
    let mut fields = Vec::with_capacity((records.len() - first) * width);
    for i in first..records.len() {
        let got = records.width(i);
        if got != width {
            table.stream.ragged.0 += 1;
            table.stream.ragged.1.get_or_insert((records.lines[i], got));
        }
        let start = fields.len();
        for text in records.text_fields(i, valid).take(width) {
            if let Cow::Owned(_) = text {
                table.stream.replaced += 1;
            }
            fields.push(Some(text));
        }
        fields.resize(start + width, None);
    }
    let rows = CsvRows {
        rows: records.len() - first,
        fields,
        width,
    };
    if rows.rows > 0 {
        if let Some(scan) = &mut table.scan {
            scan.batch(&rows, out);
        }
    }
    Ok(())
}

/// An Arrow batch (IPC stream or file, or Parquet when scanning) into the scan.
fn arrow_batch(
    table: &mut Table,
    batch: &RecordBatch,
    with_stats: bool,
    out: &mut dyn Emit<Value>,
) -> Result<(), Error> {
    if table.scan.is_none() {
        let schema = batch.schema();
        let scan = table.make_arrow_scan(&schema, with_stats)?;
        table.scan = Some(scan);
        // Parquet's are told of from its footer's schema, before the batches.
        if table.format != Some(InputFormat::Parquet) {
            let names: Vec<String> = schema.fields().iter().map(|f| f.name().clone()).collect();
            table.warnings.extend(repeated_names(&names, "the schema"));
        }
    }
    if batch.num_rows() > 0 {
        let cells = ArrowRows(BatchCells::new(batch));
        table.scan.as_mut().expect("made above").batch(&cells, out);
    }
    Ok(())
}

struct ArrowRows<'a>(BatchCells<'a>);

impl Rows for ArrowRows<'_> {
    fn len(&self) -> usize {
        self.0.rows()
    }

    fn cell(&self, column: usize, row: usize) -> Cell<'_> {
        self.0.cell(column, row)
    }
}

/// A file the reducer reads itself.
pub fn read_file(table: &mut Table, path: &Path, out: &mut dyn Emit<Value>) -> Result<(), Error> {
    let size = std::fs::metadata(path)?.len();
    let binary = Raw {
        bytes: size,
        lines: 0,
        chars: size,
    };
    match table.format.expect("detected when the reducer was made") {
        InputFormat::Parquet => {
            table.raw = Some(binary);
            read_parquet(table, path, out)
        }
        InputFormat::Arrow => {
            table.raw = Some(binary);
            // A page of the head (its first row was returned before) seeks to its batch.
            let is_page = !out.wants(ROW);
            if is_page && table.conditions.is_empty() {
                if let Pick::Head(limit) = table.options.pick() {
                    return arrow_page(table, path, limit, out);
                }
            }
            // Read for its checks of what the footer states, which the reader trusts.
            ipc_batch_rows(path)?;
            let reader = FileReader::try_new(File::open(path)?, None)?;
            let schema = reader.schema();
            for batch in reader {
                arrow_batch(table, &batch?, true, out)?;
            }
            if table.scan.is_none() {
                arrow_batch(table, &RecordBatch::new_empty(schema), true, out)?;
            }
            Ok(())
        }
        format @ (InputFormat::ArrowStream | InputFormat::Csv | InputFormat::Tsv) => {
            table.stream.forced = Some(format);
            let mut file = File::open(path)?;
            let mut buf = vec![0u8; 256 * 1024];
            let mut raw = Raw::default();
            let mut last = None;
            // What the budget stage does for input it is given: UTF-16 is read decoded.
            let mut decoder = InputDecoder::default();
            let mut decoded = Vec::new();
            let mut read = |table: &mut Table, text: &[u8], raw: &mut Raw| {
                // No bytes would say the input ended (`push`): a record read over two
                // chunks would be cut in two.
                if text.is_empty() {
                    return Ok(());
                }
                raw.lines += text.iter().filter(|&&b| b == b'\n').count() as u64;
                raw.chars += briefly_core::count_chars(text);
                if let Some(&b) = text.last() {
                    last = Some(b);
                }
                push(table, text, out)
            };
            loop {
                let n = match file.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e.into()),
                };
                let bytes = &buf[..n];
                raw.bytes += n as u64;
                let rest = match format {
                    InputFormat::ArrowStream => 0,
                    _ => decoder.push(bytes, &mut decoded),
                };
                read(table, &decoded, &mut raw)?;
                read(table, &bytes[rest..], &mut raw)?;
            }
            if format != InputFormat::ArrowStream {
                decoder.finish(&mut decoded);
                read(table, &decoded, &mut raw)?;
            }
            table.warnings.extend(decoder.warnings());
            // A last line without a newline counts, as the line framer counts it.
            raw.lines += u64::from(last.is_some_and(|b| b != b'\n'));
            table.raw = Some(raw);
            push(table, &[], out)
        }
    }
}

/// A page of an Arrow IPC file's head: the batch that holds its first row is found from
/// the footer and the batches' message headers, and read from there; the statistics
/// pass is the first page's alone.
fn arrow_page(
    table: &mut Table,
    path: &Path,
    limit: u64,
    out: &mut dyn Emit<Value>,
) -> Result<(), Error> {
    let batch_rows = ipc_batch_rows(path)?;
    let total: u64 = batch_rows.iter().sum();
    table.total_rows = Some(total);
    table.stats_from = Some("schema only: a page skips the statistics (see the first page)");
    let mut reader = FileReader::try_new(File::open(path)?, None)?;
    // The same columns as the first page: chosen from the first batch.
    if let Some(first) = reader.next() {
        let first = first?;
        arrow_batch(table, &RecordBatch::new_empty(first.schema()), false, out)?;
        let scan = table.scan.as_mut().expect("made above");
        scan.choose_from(&ArrowRows(BatchCells::new(&first)));
    } else {
        return arrow_batch(table, &RecordBatch::new_empty(reader.schema()), false, out);
    }
    let n = limit.min(total);
    let mut start = 0;
    while start < n && !out.wants(ROW) {
        out.skip(ROW);
        start += 1;
    }
    let (mut index, mut at) = (0, 0);
    while index < batch_rows.len() && at + batch_rows[index] <= start {
        at += batch_rows[index];
        index += 1;
    }
    let scan = table.scan.as_mut().expect("made above");
    scan.rows = total;
    scan.matched = total;
    let mut next = start;
    if index < batch_rows.len() {
        reader.set_index(index)?;
        'read: for batch in reader {
            let batch = batch?;
            let cells = ArrowRows(BatchCells::new(&batch));
            for r in 0..batch.num_rows() {
                let row = at + r as u64;
                if row < start {
                    continue;
                }
                if row >= n || !out.wants(ROW) {
                    break 'read;
                }
                scan.offer(&cells, r, row, out);
                next += 1;
            }
            at += batch.num_rows() as u64;
        }
    }
    for _ in next..n {
        out.skip(ROW);
    }
    Ok(())
}

/// The footer of the Arrow IPC file `file` of `size` bytes, as stored (its length checked
/// against the file's first: a corrupt one is not read).
fn ipc_footer(file: &mut File, size: u64) -> Result<Vec<u8>, Error> {
    use std::io::{Seek, SeekFrom};
    let mut trailer = [0u8; 10];
    file.seek(SeekFrom::End(-10))?;
    file.read_exact(&mut trailer)?;
    let footer_len = arrow_ipc::reader::read_footer_length(trailer)?;
    if footer_len as u64 + 10 > size {
        return Err(bad_ipc(format!(
            "a footer of {footer_len} bytes in a file of {size}"
        )));
    }
    let mut footer = vec![0u8; footer_len];
    file.seek(SeekFrom::End(-10 - footer_len as i64))?;
    file.read_exact(&mut footer)?;
    Ok(footer)
}

/// The rows of each record batch of an Arrow IPC file, from its footer and each batch's
/// message header (the bodies are not read but for the first bytes of compressed
/// buffers). Every block the footer lists is checked first to lie within the file, and
/// every compressed buffer to state a length within
/// [`crate::ipc::MAX_IPC_BUFFER_BYTES`]: the reader
/// trusts both.
fn ipc_batch_rows(path: &Path) -> Result<Vec<u64>, Error> {
    use std::io::{Seek, SeekFrom};
    let mut file = File::open(path)?;
    let size = file.metadata()?.len();
    let footer = ipc_footer(&mut file, size)?;
    let footer = arrow_ipc::root_as_footer(&footer).map_err(|e| bad_ipc(e.to_string()))?;
    let batches = footer.recordBatches();
    let dictionaries = footer.dictionaries();
    let blocks = batches.iter().flatten().map(|b| (b, true));
    let blocks = blocks.chain(dictionaries.iter().flatten().map(|b| (b, false)));
    let mut rows = Vec::new();
    for (block, counted) in blocks {
        let (offset, meta, body) = (block.offset(), block.metaDataLength(), block.bodyLength());
        let end = u64::try_from(offset)
            .ok()
            .zip(u64::try_from(meta).ok())
            .zip(u64::try_from(body).ok())
            .and_then(|((offset, meta), body)| offset.checked_add(meta)?.checked_add(body));
        if end.is_none_or(|end| end > size) {
            return Err(bad_ipc(format!(
                "a block at byte {offset} of {meta} + {body} bytes in a file of {size}"
            )));
        }
        let mut header = vec![0u8; meta as usize];
        file.seek(SeekFrom::Start(offset as u64))?;
        file.read_exact(&mut header)?;
        // A continuation marker and a length come before the message.
        let skip = if header.starts_with(IPC_CONTINUATION) {
            8
        } else {
            4
        };
        let message = header
            .get(skip..)
            .ok_or_else(|| bad_ipc("a record batch block too short".into()))
            .and_then(|m| arrow_ipc::root_as_message(m).map_err(|e| bad_ipc(e.to_string())))?;
        // Each compressed buffer opens with its length decompressed.
        let body_start = offset as u64 + meta as u64;
        for buffer in compressed_buffers(&message) {
            let at = body_start
                .checked_add(buffer)
                .filter(|&at| at + 8 <= size)
                .ok_or_else(|| bad_ipc(format!("a buffer at {buffer} past the file")))?;
            let mut stated = [0u8; 8];
            file.seek(SeekFrom::Start(at))?;
            file.read_exact(&mut stated)?;
            check_stated(stated, at)?;
        }
        if counted {
            let batch = message
                .header_as_record_batch()
                .ok_or_else(|| bad_ipc("a block that is not a record batch".into()))?;
            rows.push(batch.length().max(0) as u64);
        }
    }
    Ok(rows)
}

/// Whether a row group's string bounds of Parquet column `leaf` may be cut by the file's
/// writer: not marked exact, and as long as writers cut them to (64 bytes). pyarrow marks
/// its bounds exact; polars marks none, its short ones exact all the same.
fn footer_bounds_cut(meta: &parquet::file::metadata::ParquetMetaData, leaf: usize) -> bool {
    use parquet::file::statistics::Statistics;
    const CUT_BYTES: usize = 64;
    let may_be_cut =
        |bound: Option<usize>, exact: bool| !exact && bound.is_some_and(|n| n >= CUT_BYTES);
    meta.row_groups().iter().any(|group| {
        match group
            .columns()
            .get(leaf)
            .and_then(|chunk| chunk.statistics())
        {
            Some(Statistics::ByteArray(s)) => {
                may_be_cut(s.min_opt().map(|b| b.len()), s.min_is_exact())
                    || may_be_cut(s.max_opt().map(|b| b.len()), s.max_is_exact())
            }
            Some(Statistics::FixedLenByteArray(s)) => {
                may_be_cut(s.min_opt().map(|b| b.len()), s.min_is_exact())
                    || may_be_cut(s.max_opt().map(|b| b.len()), s.max_is_exact())
            }
            _ => false,
        }
    })
}

/// `metadata` reading a column that the Arrow schema stored in the file names as a
/// dictionary (pandas' categoricals) as its values: the Parquet reader decodes some
/// dictionaries of values (booleans, decimals) as no dictionary array, and fails on the
/// whole file. A Parquet column is dictionary encoded whatever the Arrow type says.
fn plain_values(metadata: ArrowReaderMetadata) -> Result<ArrowReaderMetadata, Error> {
    let schema = metadata.schema();
    if !(schema.fields().iter()).any(|f| matches!(f.data_type(), DataType::Dictionary(..))) {
        return Ok(metadata);
    }
    let fields: Vec<arrow_schema::FieldRef> = (schema.fields().iter())
        .map(|field| match field.data_type() {
            DataType::Dictionary(_, values) => std::sync::Arc::new(
                field
                    .as_ref()
                    .clone()
                    .with_data_type(values.as_ref().clone()),
            ),
            _ => field.clone(),
        })
        .collect();
    let plain = arrow_schema::Schema::new_with_metadata(fields, schema.metadata().clone());
    let options = ArrowReaderOptions::new().with_schema(std::sync::Arc::new(plain));
    Ok(ArrowReaderMetadata::try_new(
        metadata.metadata().clone(),
        options,
    )?)
}

/// The reader of the footer's statistics of the file's column `c`: by its name, as
/// arrow finds a column's leaf, but by its place when the name is another column's too
/// (pyarrow writes `x, y, x`: by name, both `x` would be the first's).
fn footer_statistics<'a>(
    c: usize,
    repeated: bool,
    schema: &'a arrow_schema::Schema,
    parquet_schema: &'a parquet::schema::types::SchemaDescriptor,
) -> parquet::errors::Result<StatisticsConverter<'a>> {
    let field = schema.field(c);
    if !repeated {
        return StatisticsConverter::try_new(field.name(), schema, parquet_schema);
    }
    // A column of its own leaf alone (no list, no struct), which is the leaf whose root
    // is the column.
    let mut leaves = (0..parquet_schema.num_columns())
        .filter(|&leaf| parquet_schema.get_column_root_idx(leaf) == c);
    match (leaves.next(), leaves.next(), field.data_type().is_nested()) {
        (Some(leaf), None, false) => {
            StatisticsConverter::from_column_index(leaf, field, parquet_schema)
        }
        _ => Err(parquet::errors::ParquetError::General(format!(
            "no statistics of the repeated column {:?}",
            field.name()
        ))),
    }
}

/// Parquet: the shape and statistics from the footer; rows by row group and selection,
/// only those that can be shown (a page decodes only the row groups it needs).
fn read_parquet(table: &mut Table, path: &Path, out: &mut dyn Emit<Value>) -> Result<(), Error> {
    let file = File::open(path)?;
    let metadata = plain_values(ArrowReaderMetadata::load(&file, ArrowReaderOptions::new())?)?;
    let schema = metadata.schema().clone();
    let parquet_meta = metadata.metadata().clone();
    let total = parquet_meta.file_metadata().num_rows().max(0) as u64;
    table.total_rows = Some(total);
    table.row_groups = Some(parquet_meta.num_row_groups());

    let names: Vec<String> = schema.fields().iter().map(|f| f.name().clone()).collect();
    table.total_columns = Some(names.len());
    // Checks the columns named in --columns and --where.
    table.make_arrow_scan(&schema, false)?;
    table.warnings.extend(repeated_names(&names, "the schema"));
    let parquet_schema = metadata.parquet_schema();

    // Column statistics from the footer, for the columns asked for.
    // Each name's first column, and the names the schema repeats (once, for a schema
    // of thousands of columns). A name repeated names its first column, as a scan's
    // `--columns` does.
    let mut first_of: HashMap<&str, usize> = HashMap::with_capacity(names.len());
    let mut repeated: HashSet<&str> = HashSet::new();
    for (c, name) in names.iter().enumerate() {
        if first_of.entry(name).or_insert(c) != &c {
            repeated.insert(name);
        }
    }
    let named = |c: usize| {
        table.options.columns.contains(&names[c]) && first_of.get(names[c].as_str()) == Some(&c)
    };
    let candidates: Vec<usize> = (0..names.len())
        .filter(|&c| table.options.columns.is_empty() || named(c))
        .collect();
    let mut summaries: Vec<(usize, ColumnSummary, u8)> = Vec::new();
    for &c in &candidates {
        let field = schema.field(c);
        let mut summary = ColumnSummary {
            name: field.name().clone(),
            data_type: field.data_type().to_string(),
            nullable: field.is_nullable(),
            nulls: None,
            min: Value::Null,
            max: Value::Null,
            distinct: None,
            distinct_estimated: false,
            top: Vec::new(),
            top_at_least: false,
            bounds_cut: false,
            nans: None,
        };
        let mut score = 2;
        if *field.data_type() == DataType::Null {
            // Every value null (`pa.nulls`), and no statistics to say so: it says nothing.
            summary.nulls = Some(total);
            score = 0;
        } else if let Ok(converter) = footer_statistics(
            c,
            repeated.contains(names[c].as_str()),
            &schema,
            parquet_schema,
        ) {
            let groups = parquet_meta.row_groups().iter();
            if let Ok(nulls) = converter.row_group_null_counts(groups.clone()) {
                if nulls.null_count() == 0 {
                    summary.nulls = Some(nulls.values().iter().sum());
                }
            }
            // Decimals display as text but order as numbers.
            let numeric = matches!(
                field.data_type(),
                DataType::Decimal32(..)
                    | DataType::Decimal64(..)
                    | DataType::Decimal128(..)
                    | DataType::Decimal256(..)
            );
            let bound = |array: Result<arrow_array::ArrayRef, _>, lowest: bool| {
                let array = array.ok()?;
                let batch = RecordBatch::try_from_iter([("v", array)]).ok()?;
                let cells = BatchCells::new(&batch);
                if batch.column(0).null_count() > 0 {
                    return None; // a row group without statistics: no bound for the file
                }
                let mut best: Option<Cell> = None;
                for r in 0..cells.rows() {
                    let cell = cells.cell(0, r);
                    let better = best.as_ref().is_none_or(|b| {
                        let order = compare(&cell, b, numeric);
                        if lowest {
                            order.is_lt()
                        } else {
                            order.is_gt()
                        }
                    });
                    if better {
                        best = Some(cell);
                    }
                }
                best.map(|b| match b {
                    Cell::Text(t) => bounded_text(&t),
                    other => other.render(usize::MAX, false).0,
                })
            };
            summary.min = bound(converter.row_group_mins(groups.clone()), true).unwrap_or_default();
            summary.max = bound(converter.row_group_maxes(groups), false).unwrap_or_default();
            summary.bounds_cut = (converter.parquet_column_index())
                .is_some_and(|leaf| footer_bounds_cut(&parquet_meta, leaf));
            if summary.nulls == Some(total) {
                score = 0;
            } else if !summary.min.is_null() && summary.min == summary.max {
                score = 1;
            }
        }
        summaries.push((c, summary, score));
    }
    // The most informative columns first, as many as may be shown.
    let mut ranked = summaries.clone();
    if table.options.columns.is_empty() {
        // Of more columns than are shown, one `--where` names first: its rows are read
        // for it.
        let wide = ranked.len() > table.options.max_columns;
        let filtered = |c: usize| wide && table.conditions.iter().any(|f| f.column == names[c]);
        ranked.sort_by_key(|(c, _, score)| std::cmp::Reverse((filtered(*c), *score)));
    } else {
        ranked.sort_by_key(|(c, _, _)| table.options.columns.iter().position(|n| *n == names[*c]));
    }
    ranked.truncate(table.options.max_columns);
    let shown: Vec<usize> = ranked.iter().map(|(c, _, _)| *c).collect();
    let footer_stats = Some(ranked.into_iter().map(|(_, s, _)| s).collect());
    match table.options.scan {
        false => table.metadata_stats = footer_stats,
        true => table.footer_stats = footer_stats,
    }

    // Read only the columns shown or filtered on.
    let filtering = !table.options.filters.is_empty();
    let mut needed: Vec<usize> = shown.clone();
    for condition in &table.conditions {
        if let Some(c) = names.iter().position(|n| *n == condition.column) {
            needed.push(c);
        }
    }
    needed.sort_unstable();
    needed.dedup();
    let mask = ProjectionMask::roots(metadata.parquet_schema(), needed.iter().copied());
    // The scan reads batches of the needed columns only: remap its column numbers.
    let remap = |c: usize| needed.iter().position(|&n| n == c).expect("needed");
    let mut scan = table.make_scan(
        needed.iter().map(|&c| names[c].clone()).collect(),
        needed
            .iter()
            .map(|&c| schema.field(c).data_type().to_string())
            .collect(),
        needed
            .iter()
            .map(|&c| schema.field(c).is_nullable())
            .collect(),
        false,
        table.options.scan,
    )?;
    scan.show(shown.iter().map(|&c| remap(c)).collect());
    let omitted: Vec<usize> = candidates
        .iter()
        .copied()
        .filter(|c| !shown.contains(c))
        .collect();
    table.omitted_parquet = omitted
        .iter()
        .map(|&c| format!("{}: {}", names[c], schema.field(c).data_type()))
        .collect();

    let group_rows: Vec<u64> = parquet_meta
        .row_groups()
        .iter()
        .map(|g| g.num_rows().max(0) as u64)
        .collect();
    let reader = |ranges: &[Range<u64>]| {
        let (groups, selection) = select(&group_rows, ranges);
        ParquetRecordBatchReaderBuilder::new_with_metadata(file.try_clone()?, metadata.clone())
            .with_row_groups(groups)
            .with_row_selection(selection)
            .with_projection(mask.clone())
            .with_batch_size(BATCH_ROWS)
            .build()
            .map_err(Error::from)
    };

    if filtering || table.options.scan {
        // Every row is read: the filter (or the statistics) need them all.
        table.scan = Some(scan);
        for batch in reader(std::slice::from_ref(&(0..total)))? {
            arrow_batch(table, &batch?, table.options.scan, out)?;
        }
        return Ok(());
    }
    let rows_at = |ranges: &[Range<u64>]| -> Vec<u64> {
        ranges.iter().flat_map(|r| r.clone()).collect::<Vec<u64>>()
    };
    let pick = table.options.pick();
    // Held by the table while reading, so that an error keeps what was read.
    scan.rows = total;
    scan.matched = total;
    let scan = table.scan.insert(scan);
    match pick {
        Pick::Head(n) => {
            // Earlier pages' rows are counted, not read: find where this page starts.
            let n = n.min(total);
            let mut start = 0;
            while start < n && !out.wants(ROW) {
                out.skip(ROW);
                start += 1;
            }
            let mut next = start;
            if start < n {
                scan.first_row = start;
                'read: for batch in reader(std::slice::from_ref(&(start..n)))? {
                    let batch = batch?;
                    let cells = ArrowRows(BatchCells::new(&batch));
                    for r in 0..batch.num_rows() {
                        if !out.wants(ROW) {
                            break 'read; // the page is full: read no further
                        }
                        scan.offer(&cells, r, next, out);
                        next += 1;
                    }
                }
            }
            for _ in next..n {
                out.skip(ROW);
            }
        }
        Pick::Tail(k) => {
            let range = total - k.min(total)..total;
            emit_rows(
                scan,
                reader(std::slice::from_ref(&range))?,
                &rows_at(&[range]),
                out,
            )?;
        }
        Pick::Sample(k, seed) => {
            let rows = sample_rows(total, k, seed);
            let ranges: Vec<Range<u64>> = rows.iter().map(|&r| r..r + 1).collect();
            emit_rows(scan, reader(&ranges)?, &rows, out)?;
        }
    }
    Ok(())
}

/// Offers the rows read (numbered by `rows`) as items.
fn emit_rows(
    scan: &mut crate::scan::Scan,
    reader: impl Iterator<Item = Result<RecordBatch, arrow_schema::ArrowError>>,
    rows: &[u64],
    out: &mut dyn Emit<Value>,
) -> Result<(), Error> {
    let mut numbers = rows.iter();
    for batch in reader {
        let batch = batch?;
        let cells = ArrowRows(BatchCells::new(&batch));
        for r in 0..batch.num_rows() {
            let row = *numbers.next().unwrap_or(&0);
            if out.wants(ROW) {
                scan.offer(&cells, r, row, out);
            } else {
                out.skip(ROW);
            }
        }
    }
    Ok(())
}

/// The row groups holding `ranges` (sorted, disjoint) and the selection of their rows.
fn select(group_rows: &[u64], ranges: &[Range<u64>]) -> (Vec<usize>, RowSelection) {
    let mut groups = Vec::new();
    let mut selectors = Vec::new();
    let mut group_start = 0;
    for (g, &n) in group_rows.iter().enumerate() {
        let group_end = group_start + n;
        let mut at = group_start;
        for range in ranges {
            let from = range.start.max(group_start);
            let to = range.end.min(group_end);
            if from >= to {
                continue;
            }
            if at == group_start && groups.last() != Some(&g) {
                groups.push(g);
            }
            if from > at {
                selectors.push(RowSelector::skip((from - at) as usize));
            }
            selectors.push(RowSelector::select((to - from) as usize));
            at = to;
        }
        if groups.last() == Some(&g) && at < group_end {
            selectors.push(RowSelector::skip((group_end - at) as usize));
        }
        group_start = group_end;
    }
    (groups, RowSelection::from(selectors))
}

/// Orders two cells of one column: numbers (and the text of a `numeric` column) as
/// numbers, anything else as text.
fn compare(a: &Cell<'_>, b: &Cell<'_>, numeric: bool) -> std::cmp::Ordering {
    match (a.number(), b.number()) {
        (Some(x), Some(y)) if numeric || !matches!(a, Cell::Text(_)) => {
            x.compare(y).unwrap_or(std::cmp::Ordering::Equal)
        }
        _ => a.text().cmp(&b.text()),
    }
}

/// The reducer's outcome from what was read.
pub fn outcome(table: &mut Table) -> Outcome<Value> {
    let format = table.format.map_or("table", InputFormat::name);
    let mut warnings = std::mem::take(&mut table.warnings);
    let stream = &table.stream;
    if stream.ragged.0 > 0 {
        let (line, got) = stream.ragged.1.unwrap_or_default();
        warnings.push(format!(
            "{} as many fields as the header (first at line {line}: {got} fields); missing fields read as null, extra fields are left out (whole in the artifact)",
            briefly_core::counted(stream.ragged.0, "record does not have", "records do not have")
        ));
    }
    if stream.replaced > 0 {
        warnings.push(format!(
            "{} invalid UTF-8, replaced by U+FFFD",
            briefly_core::counted(stream.replaced, "field held", "fields held")
        ));
    }
    if let State::Csv { parser, .. } = &stream.state {
        if let (n @ 1.., Some(line)) = parser.dropped {
            warnings.push(format!(
                "{} left out: longer than {MAX_RECORD_BYTES} bytes (first at line {line})",
                briefly_core::counted(n, "record was", "records were")
            ));
        }
        if let (n @ 1.., Some(line)) = parser.joined {
            warnings.push(format!(
                "{} a field in quotes over several lines, a line of which holds a record's worth of delimiters (first at line {line}): if a quote there is text, not quoting (`\"Hello` in psql's or cut's output), it joined rows into that field; the raw lines are in the artifact",
                briefly_core::counted(n, "record has", "records have")
            ));
        }
        if let Some((line, lines)) = parser.unclosed {
            warnings.push(format!(
                "a quote in the record at line {line} is never closed: its field holds the {lines} lines to the end of the input"
            ));
        }
    }
    let Some(scan) = &table.scan else {
        let why =
            (table.error.as_ref()).map_or_else(|| "no table in the input".into(), Error::to_string);
        let mut outcome = Outcome::new(format!("{format}: {why}"), Value::Null);
        outcome.ok = false;
        // An empty file leaves nothing out (empty standard input neither).
        outcome.complete = matches!(table.error, Some(Error::Empty));
        outcome.preview = briefly_core::Preview::Summary;
        outcome.warnings = warnings;
        return outcome;
    };
    warnings.extend(scan.mixed_warnings());
    warnings.extend(scan.incomparable_warnings());
    warnings.extend(scan.ordered_as_text_warnings());
    warnings.extend(scan.identifier_warnings());
    let rows = table.total_rows.unwrap_or(scan.rows);
    let columns = if table.options.columns.is_empty() {
        table.total_columns.unwrap_or(scan.names.len())
    } else {
        table.options.columns.len()
    };
    let shown = scan.shown_columns();
    let omitted: Vec<String> = if table.omitted_parquet.is_empty() {
        scan.omitted_names()
    } else {
        table.omitted_parquet.clone()
    };
    // A scan that stopped short counted part of the rows: the metadata's, when there
    // are, say the whole.
    let stopped = table.error.is_some();
    let (column_stats, stats_from) = match (&table.metadata_stats, &table.footer_stats) {
        (Some(stats), _) => (stats.clone(), "metadata"),
        (None, Some(stats)) if stopped => (
            stats.clone(),
            "metadata (the scan stopped before the end: its counts would be part of the rows)",
        ),
        (None, _) if stopped => (
            scan.summaries(),
            "scan, partial: the rows read before the read stopped",
        ),
        (None, _) => (scan.summaries(), "scan"),
    };
    let mut row_fields = vec!["row".to_string()];
    row_fields.extend(shown.iter().map(|&c| scan.names[c].clone()));
    let filtered = !table.conditions.is_empty();
    let stats = TableStats {
        format: format.to_string(),
        rows,
        columns,
        matched_rows: filtered.then_some(scan.matched),
        row_fields,
        column_stats,
        omitted_columns: omitted.clone(),
        row_groups: table.row_groups,
        stats_from: table.stats_from.unwrap_or(stats_from).into(),
    };
    let mut summary = format!(
        "{format}: {} × {}",
        briefly_core::counted(rows, "row", "rows"),
        briefly_core::counted(columns as u64, "column", "columns")
    );
    if let Some(groups) = table.row_groups {
        summary.push_str(&format!(" in {groups} row groups"));
    }
    if filtered {
        summary.push_str(&format!(
            "; {} {}",
            briefly_core::counted(scan.matched, "row matches", "rows match"),
            table.options.filters.join(" and ")
        ));
        if stopped {
            summary.push_str(" in the rows read before the read stopped (not all)");
        }
    }
    if !omitted.is_empty() {
        summary.push_str(&format!(
            "; {} of {columns} columns shown (the most informative), {} omitted",
            shown.len(),
            omitted.len()
        ));
    }
    // Rows --rows, --tail or --sample leave out: in the artifact (a file is its own).
    let matched = if filtered { scan.matched } else { rows };
    let pick = table.options.pick();
    let picked = match pick {
        Pick::Head(n) | Pick::Tail(n) | Pick::Sample(n, _) => n.min(matched),
    };
    // Stopped, what was read is shown (its warning says so), not what was picked.
    if picked < matched && !stopped {
        summary.push_str(&match pick {
            Pick::Head(_) => format!("; the first {picked} shown (--rows)"),
            Pick::Tail(_) => format!("; the last {picked} shown (--tail)"),
            Pick::Sample(..) => format!("; {picked} sampled (--sample)"),
        });
    }
    let complete =
        warnings.is_empty() && omitted.is_empty() && !scan.values_cut && picked == matched;
    let mut outcome = Outcome::new(summary, serde_json::to_value(stats).unwrap_or(Value::Null));
    outcome.preview = table.options.preview();
    outcome.complete = complete && table.error.is_none();
    if let Some(error) = &table.error {
        outcome.ok = false;
        warnings.insert(
            0,
            format!("stopped: {error}; what was read before is shown"),
        );
    }
    outcome.warnings = warnings;
    outcome
}

#[cfg(test)]
pub fn ipc_batch_rows_for_test(path: &Path) -> Vec<u64> {
    ipc_batch_rows(path).unwrap()
}
