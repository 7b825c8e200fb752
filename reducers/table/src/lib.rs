//! briefly's table reducer: what a data engineer looks at first in a table (shape,
//! schema, column statistics, a few rows) from Parquet, Arrow IPC (file and stream) and
//! CSV/TSV.
//!
//! Items are rows, `[row, value, …]` (0-based row number first; `stats.row_fields`
//! names the values), offered in order to the budget stage, which keeps what fits.
//!
//! Two ways in, one reducer:
//! - a byte stream (standard input: CSV or an Arrow IPC stream) is pushed through the
//!   pipeline with its tee, like any other reducer ([`briefly_core::Framing::Raw`]);
//! - a file ([`Table::file`]) is read by the reducer itself ([`briefly_core::Framing::Own`]):
//!   Parquet from its footer, by row group, so that a page at row 900,000 decodes only
//!   the row group that holds it. The file is its own artifact.

mod cell;
mod csv;
mod filter;
mod ipc;
mod scan;
mod source;
mod stats;

pub use cell::Cell;
pub use filter::{Condition, Op, Verdict};
pub use stats::ColumnSummary;

use briefly_core::{Emit, Flow, Framing, Outcome, Preview, Raw, Record, Reducer};
use scan::{Pick, Scan};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// What went wrong reading a table.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A `--where` that does not parse.
    #[error("--where {0}")]
    Filter(String),
    /// A column named in `--columns` or `--where` that the table does not have.
    #[error("no column {name:?} (the table has: {have})")]
    NoColumn {
        /// The name asked for.
        name: String,
        /// The columns there are.
        have: String,
    },
    /// The input is none of the formats read.
    #[error("not a table: {0}")]
    NotATable(String),
    /// The input is empty.
    #[error("not a table: the input is empty")]
    Empty,
    /// A Parquet file that cannot be read.
    #[error("not a readable Parquet file ({0})")]
    Parquet(#[from] parquet::errors::ParquetError),
    /// Arrow data that cannot be read: Arrow IPC's, or a Parquet file's row groups as
    /// they are decoded (the error names which).
    #[error("not readable ({0})")]
    Arrow(#[from] arrow_schema::ArrowError),
    /// Data the Parquet or Arrow reader broke on (it panicked: a length or an offset the
    /// file states that its data does not bear out).
    #[error("not readable: malformed data the reader stopped at ({0})")]
    Malformed(String),
    /// The file itself.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The file changed since the cursor was made.
    #[error("{0} changed since this cursor was made ({1}): run `briefly table` on it again")]
    Changed(String, String),
    /// Options that do not go together.
    #[error("{0}")]
    Options(String),
}

/// The input formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InputFormat {
    /// Apache Parquet.
    Parquet,
    /// Arrow IPC file (Feather v2).
    Arrow,
    /// Arrow IPC stream.
    ArrowStream,
    /// Comma- (or otherwise) separated values.
    Csv,
    /// Tab-separated values.
    Tsv,
}

impl InputFormat {
    /// The name used in stats and summaries.
    pub fn name(self) -> &'static str {
        match self {
            InputFormat::Parquet => "parquet",
            InputFormat::Arrow => "arrow",
            InputFormat::ArrowStream => "arrow-stream",
            InputFormat::Csv => "csv",
            InputFormat::Tsv => "tsv",
        }
    }
}

/// A file's size and modification time: a cursor over the file itself carries them,
/// so that a page of a file that changed is refused rather than wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprint {
    /// Bytes.
    pub size: u64,
    /// Modification time, nanoseconds since the epoch.
    pub mtime_ns: u128,
}

impl Fingerprint {
    /// The fingerprint of the file at `path`.
    pub fn of(path: &Path) -> std::io::Result<Fingerprint> {
        let meta = std::fs::metadata(path)?;
        let mtime_ns = meta
            .modified()?
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        Ok(Fingerprint {
            size: meta.len(),
            mtime_ns,
        })
    }
}

fn default_max_columns() -> usize {
    20
}

fn default_max_value_chars() -> usize {
    80
}

/// The reducer's options (kept in cursors).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TableOptions {
    /// Only these columns, in this order (pushed down into the Parquet reader).
    pub columns: Vec<String>,
    /// Only rows passing every one of these `COL OP VALUE` conditions.
    #[serde(rename = "where")]
    pub filters: Vec<String>,
    /// At most this many rows as items (default: all of them, head first; 20 with `tail`).
    pub rows: Option<u64>,
    /// The last rows instead of the first.
    pub tail: bool,
    /// This many rows drawn at random (reproducibly from `seed`) instead of the first.
    pub sample: Option<u64>,
    /// The seed of `sample`.
    pub seed: u64,
    /// At most this many columns in rows and stats; the most informative are kept.
    pub max_columns: usize,
    /// Values longer than this are cut with a marker.
    pub max_value_chars: usize,
    /// The format, when not taken from the magic bytes and the extension.
    pub input_format: Option<InputFormat>,
    /// CSV: the field delimiter (default: sniffed from the first record).
    pub delimiter: Option<char>,
    /// CSV: the first line is data; columns are named c1, c2, ….
    pub no_header: bool,
    /// Parquet: also read every row for distinct counts and top values (by default
    /// the statistics come from the file's metadata, without reading rows).
    pub scan: bool,
    /// The file's fingerprint when the first result was made (file input only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<Fingerprint>,
}

impl Default for TableOptions {
    fn default() -> Self {
        TableOptions {
            columns: Vec::new(),
            filters: Vec::new(),
            rows: None,
            tail: false,
            sample: None,
            seed: 0,
            max_columns: default_max_columns(),
            max_value_chars: default_max_value_chars(),
            input_format: None,
            delimiter: None,
            no_header: false,
            scan: false,
            fingerprint: None,
        }
    }
}

impl TableOptions {
    fn pick(&self) -> Pick {
        match (self.sample, self.tail) {
            (Some(n), _) => Pick::Sample(n, self.seed),
            (None, true) => Pick::Tail(self.rows.unwrap_or(20)),
            (None, false) => Pick::Head(self.rows.unwrap_or(u64::MAX)),
        }
    }

    fn preview(&self) -> Preview {
        if !self.filters.is_empty() {
            Preview::Matches
        } else if self.tail {
            Preview::Tail
        } else if self.sample.is_some() {
            Preview::Ranked
        } else {
            Preview::Head
        }
    }
}

/// The reducer's aggregates.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct TableStats {
    /// The format read.
    pub format: String,
    /// Rows in the table (exact; from the metadata where the format has it).
    pub rows: u64,
    /// Columns in the table (after `--columns`).
    pub columns: usize,
    /// Rows passing `--where`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched_rows: Option<u64>,
    /// What each item holds: `row` (0-based) and the shown columns.
    pub row_fields: Vec<String>,
    /// The shown columns, most informative first: type, nulls, min/max, distinct, top.
    pub column_stats: Vec<ColumnSummary>,
    /// Columns left out of rows and column_stats (too many to show), as `name: type`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub omitted_columns: Vec<String>,
    /// Parquet: row groups in the file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row_groups: Option<usize>,
    /// Where the column statistics come from: `metadata` (Parquet) or `scan`.
    pub stats_from: String,
}

/// The table reducer.
pub struct Table {
    options: TableOptions,
    conditions: Vec<Condition>,
    /// The file read by the reducer itself; `None` for a pushed byte stream.
    file: Option<PathBuf>,
    stream: source::Stream,
    scan: Option<Scan>,
    format: Option<InputFormat>,
    raw: Option<Raw>,
    warnings: Vec<String>,
    /// What stopped the reading, the first thing that did.
    error: Option<Error>,
    row_groups: Option<usize>,
    /// Column summaries from Parquet metadata (instead of the scan's).
    metadata_stats: Option<Vec<ColumnSummary>>,
    /// Under `--scan`, the metadata's summaries all the same: what is shown if the scan
    /// stops short of the end (its counts would be the part read, as if the whole).
    footer_stats: Option<Vec<ColumnSummary>>,
    /// Rows in the table when known before reading them.
    total_rows: Option<u64>,
    /// Parquet: the columns in the file (the scan sees only those it reads).
    total_columns: Option<usize>,
    /// Parquet: columns not shown, as `name: type`.
    omitted_parquet: Vec<String>,
    /// Where the statistics come from, when neither the metadata nor a full scan.
    stats_from: Option<&'static str>,
}

impl Table {
    /// A reducer for a byte stream (CSV, TSV or an Arrow IPC stream) pushed to it.
    pub fn stream(options: TableOptions) -> Result<Table, Error> {
        Table::new(options, None)
    }

    /// A reducer that reads the file at `path` itself (any format; Parquet by random
    /// access). Fails at once when the file is unreadable, is not a table, or no longer
    /// matches the options' fingerprint; an empty file is reduced as empty standard
    /// input is, to an envelope that says so.
    pub fn file(options: TableOptions, path: &Path) -> Result<Table, Error> {
        if let Some(then) = options.fingerprint {
            let now = Fingerprint::of(path)?;
            if now != then {
                let what = if now.size != then.size {
                    format!("{} bytes, now {}", then.size, now.size)
                } else {
                    "modified since".to_string()
                };
                return Err(Error::Changed(path.display().to_string(), what));
            }
        }
        let mut table = Table::new(options, Some(path.to_path_buf()))?;
        match source::detect_file(path, table.options.input_format) {
            Ok(format) => {
                table.format = Some(format);
                table.warnings.extend(unheeded_scan(&table.options, format));
            }
            Err(Error::Empty) => table.fail(Error::Empty),
            Err(e) => return Err(e),
        }
        Ok(table)
    }

    fn new(mut options: TableOptions, file: Option<PathBuf>) -> Result<Table, Error> {
        // A column named twice is one column shown once.
        let mut named = std::collections::HashSet::new();
        options
            .columns
            .retain(|column| named.insert(column.clone()));
        let conditions = options
            .filters
            .iter()
            .map(|f| Condition::parse(f))
            .collect::<Result<Vec<_>, _>>()?;
        if options.sample.is_some() && options.tail {
            return Err(Error::Options(
                "--sample and --tail do not go together".into(),
            ));
        }
        if options.sample.is_some() && options.rows.is_some() {
            return Err(Error::Options(
                "--sample N already says how many rows: leave out --rows".into(),
            ));
        }
        if options.max_columns == 0 {
            return Err(Error::Options("--max-columns must be at least 1".into()));
        }
        if let Some(d) = options.delimiter {
            if !d.is_ascii() || d == '"' || d == '\n' {
                return Err(Error::Options(format!(
                    "--delimiter {d:?}: one ASCII character other than a quote or newline"
                )));
            }
        }
        Ok(Table {
            stream: source::Stream::new(&options),
            options,
            conditions,
            file,
            scan: None,
            format: None,
            raw: None,
            warnings: Vec::new(),
            error: None,
            row_groups: None,
            metadata_stats: None,
            footer_stats: None,
            total_rows: None,
            total_columns: None,
            omitted_parquet: Vec::new(),
            stats_from: None,
        })
    }

    /// [`Table::make_scan`] over an Arrow schema's fields (every one, in order).
    fn make_arrow_scan(
        &self,
        schema: &arrow_schema::Schema,
        with_stats: bool,
    ) -> Result<Scan, Error> {
        let fields = schema.fields();
        self.make_scan(
            fields.iter().map(|f| f.name().clone()).collect(),
            fields.iter().map(|f| f.data_type().to_string()).collect(),
            fields.iter().map(|f| f.is_nullable()).collect(),
            false,
            with_stats,
        )
    }

    /// The scan over columns `names`, with `--columns` and `--where` resolved to them.
    fn make_scan(
        &self,
        names: Vec<String>,
        types: Vec<String>,
        nullable: Vec<bool>,
        from_text: bool,
        with_stats: bool,
    ) -> Result<Scan, Error> {
        let find = |name: &str| {
            names
                .iter()
                .position(|n| n == name)
                .ok_or_else(|| Error::NoColumn {
                    name: name.to_string(),
                    have: briefly_core::cut_str(&names.join(", "), 300).into_owned(),
                })
        };
        let candidates = if self.options.columns.is_empty() {
            (0..names.len()).collect()
        } else {
            self.options
                .columns
                .iter()
                .map(|c| find(c))
                .collect::<Result<Vec<_>, _>>()?
        };
        let filters = self
            .conditions
            .iter()
            .map(|c| Ok((find(&c.column)?, c.clone())))
            .collect::<Result<Vec<_>, Error>>()?;
        Ok(Scan::new(
            names,
            types,
            nullable,
            from_text,
            candidates,
            !self.options.columns.is_empty(),
            self.options.max_columns,
            filters,
            self.options.pick(),
            with_stats,
            self.options.max_value_chars,
        ))
    }

    fn fail(&mut self, error: Error) {
        if self.error.is_none() {
            self.error = Some(error);
        }
    }
}

impl Reducer for Table {
    type Item = Value;
    type Stats = Value;

    fn framing(&self) -> Framing {
        if self.file.is_some() {
            Framing::Own
        } else {
            Framing::Raw
        }
    }

    fn record(&mut self, _: &Record<'_>, _: &mut dyn Emit<Value>) -> Flow {
        Flow::Continue // raw or own framing: never called
    }

    fn chunk(&mut self, bytes: &[u8], _offset: u64, out: &mut dyn Emit<Value>) -> Flow {
        if self.error.is_some() {
            return Flow::Stop;
        }
        if let Err(e) = contained(|| source::push(self, bytes, out)) {
            self.fail(e);
            return Flow::Stop;
        }
        Flow::Continue
    }

    fn finish(&mut self, out: &mut dyn Emit<Value>) -> Outcome<Value> {
        let result = match self.file.clone() {
            _ if self.error.is_some() => Ok(()),
            Some(path) => contained(|| source::read_file(self, &path, out)),
            None => contained(|| source::push(self, &[], out)),
        };
        if let Err(e) = result {
            self.fail(e);
        }
        if let Some(scan) = &mut self.scan {
            scan.finish(out);
        }
        source::outcome(self)
    }

    fn raw(&self) -> Option<Raw> {
        self.raw
    }
}

/// Runs a read through the Parquet or Arrow reader, its panic on malformed data an error
/// of the input ([`Error::Malformed`]) rather than a crash.
fn contained(read: impl FnOnce() -> Result<(), Error>) -> Result<(), Error> {
    briefly_core::contain(read).unwrap_or_else(|panic| Err(Error::Malformed(panic)))
}

/// The warning `--scan` calls for when the input is of `format`: only a Parquet file's
/// reading heeds it (its statistics come from its footer without it).
fn unheeded_scan(options: &TableOptions, format: InputFormat) -> Option<String> {
    (options.scan && format != InputFormat::Parquet).then(|| {
        format!(
            "--scan is for Parquet, whose statistics come from its footer: a {} is read whole anyway",
            format.name()
        )
    })
}

/// A CSV delimiter as written on a command line: one character, or a tab as a shell
/// passes it unexpanded (`\t`) or named (`tab`).
///
/// ```
/// use briefly_table::parse_delimiter;
/// assert_eq!(parse_delimiter(";"), Ok(';'));
/// assert_eq!(parse_delimiter("\\t"), Ok('\t'));
/// assert_eq!(parse_delimiter("tab"), Ok('\t'));
/// assert!(parse_delimiter(";;").is_err());
/// ```
pub fn parse_delimiter(text: &str) -> Result<char, String> {
    if text == "\\t" || text.eq_ignore_ascii_case("tab") {
        return Ok('\t');
    }
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Ok(c),
        _ => Err(format!("one character (or \\t, tab), not {text:?}")),
    }
}

pub mod fixtures;

#[cfg(test)]
mod tests;
