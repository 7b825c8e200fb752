//! `briefly json`: JSON and NDJSON by shape, projection, filter and count.
//!
//! The input is one JSON document, a stream of documents, or NDJSON (one value a line:
//! detected when the first value fits on its first line). Records are the values a
//! reducer answers about: the elements of the array a `[]` path names (`items[].status`
//! walks `items`), else the elements of a top-level array, else each top-level value.
//!
//! - No options: the shape, one item per path (`{path, type, count, nulls, examples,
//!   values, len}`); input whose values take at most `whole_chars` is returned whole
//!   instead.
//! - `--where` keeps matching records; `--fields` projects them; `--limit` stops after N.
//! - `--count-by PATH` makes the items groups (`{value, count}`), largest first; `--top`.
//! - `--sort PATH` (`--desc`) orders the first `--limit` (default [`SORT_KEEP`]) records.
//!
//! Memory is bounded by configuration: NDJSON is read a line at a time (at most
//! `max_record_bytes`); a document is held whole only up to `max_document_bytes`, and
//! above that a streaming scanner hands out its records (or, for the shape, its pieces)
//! one by one, each at most `max_record_bytes`. Values are parsed with simd-json into a
//! tape that filters and counts read in place; only records shown become trees.

mod filter;
mod path;
mod scan;
mod shape;
mod tape;

pub use filter::{Condition, Op, SortKey, Test};
pub use path::{Path, Step};
pub use shape::PathShape;
pub use tape::{Convert, Kind, Tally, TapeValue, WideRead};

use briefly_core::{
    count_newlines, counted, replace_lone_surrogates, Emit, Flow, Framing, Outcome, Preview,
    Record, Reducer,
};
use scan::{Event, Scanner, Split, Unit};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use shape::Shape;
use std::cell::Cell;
use std::collections::{BinaryHeap, HashMap};

/// Records `--sort` keeps without `--limit`.
pub const SORT_KEEP: usize = 1000;
/// Groups `--count-by` counts exactly. Past them, counting goes on as Misra and Gries
/// count frequent items: a new value when the table is full takes one from every group
/// (groups at none leave it), so a value more frequent than what was taken is still
/// there, its count at most that under.
pub const MAX_GROUPS: usize = 100_000;
/// Group values are told apart by this many characters (memory: at most
/// [`MAX_GROUPS`] keys of this size).
pub const GROUP_KEY_CHARS: usize = 256;
/// Paths the shape tracks.
pub const MAX_PATHS: usize = 2000;
/// Bytes of an overflowing document handed to the streaming scanner at a time.
const STREAM_PIECE: usize = 256 * 1024;
/// Error messages kept for the warnings.
const MAX_ERRORS: usize = 5;

/// What can be wrong with the options.
#[derive(Debug, thiserror::Error)]
pub enum JsonError {
    /// A path that does not parse.
    #[error("path {path:?}: {why}")]
    Path {
        /// The path as given.
        path: String,
        /// Why.
        why: String,
    },
    /// A `--where` condition that does not parse.
    #[error("--where {condition:?}: {why}")]
    Where {
        /// The condition as given.
        condition: String,
        /// Why.
        why: String,
    },
    /// Options that do not go together.
    #[error("{0}")]
    Options(String),
}

/// The deepest nesting `--max-depth` allows: values are converted and printed
/// recursively, and a thread's stack (2 MiB for the MCP server's) holds about this many
/// levels with room to spare.
pub const MAX_DEPTH: usize = 1000;

/// Options of `briefly json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct JsonOptions {
    /// Paths to keep of each record (`a.b`, `items[].status`).
    pub fields: Vec<String>,
    /// Conditions every record shown meets (`PATH=VALUE`, `!=`, `>`, `>=`, `<`, `<=`, `~`).
    #[serde(rename = "where")]
    pub conditions: Vec<String>,
    /// Count records by the value at this path.
    pub count_by: Option<String>,
    /// With `count_by`: only the largest N groups.
    pub top: Option<usize>,
    /// Order records by the value at this path.
    pub sort: Option<String>,
    /// Largest first.
    pub desc: bool,
    /// At most this many records.
    pub limit: Option<usize>,
    /// What the records are, named outright: the array whose elements they are
    /// (`items[]`, `[]`), or `.` for each value of the input as it comes (an NDJSON
    /// line, a document, arrays too), whatever the other paths go through. Unset, the
    /// first `[]` path of `--where`, `--count-by` or `--sort` names the array.
    pub records: Option<String>,
    /// A record (an NDJSON line, an element of a streamed array) longer than this is skipped.
    pub max_record_bytes: usize,
    /// A document longer than this is streamed, not held.
    pub max_document_bytes: usize,
    /// Containers nested deeper than this are an error; at most [`MAX_DEPTH`].
    pub max_depth: usize,
    /// Strings in the items longer than this are cut.
    pub max_string_chars: usize,
    /// Without options, input whose values take at most this many characters is
    /// returned whole instead of its shape.
    pub whole_chars: usize,
    /// A value returned whole is one item, which no page splits: none of more than this
    /// many characters is (set from the per-result budget, and kept in a cursor so that
    /// its pages decide the same).
    pub whole_value_chars: Option<usize>,
}

impl Default for JsonOptions {
    fn default() -> Self {
        JsonOptions {
            fields: Vec::new(),
            conditions: Vec::new(),
            count_by: None,
            top: None,
            sort: None,
            desc: false,
            limit: None,
            records: None,
            max_record_bytes: 16 << 20,
            max_document_bytes: 64 << 20,
            max_depth: 512,
            max_string_chars: 1000,
            whole_chars: 4000,
            whole_value_chars: None,
        }
    }
}

/// What the items are.
#[derive(Debug, Clone, PartialEq)]
enum Mode {
    Shape,
    Records,
    CountBy(Path),
    Sort(Path),
}

/// The options, parsed.
#[derive(Debug, Clone)]
struct Plan {
    mode: Mode,
    /// The array whose elements are records (ends in `[]`), when a path names one.
    record: Option<Path>,
    /// `--records .`: each value of the input is a record, an array too (no array is
    /// taken as holding them).
    values_are_records: bool,
    conditions: Vec<Condition>,
    /// How a record is checked against them.
    tests: Vec<Test>,
    /// Conditions, by index, through an array that one element could not meet together
    /// ([`Test::plan`]).
    apart: Vec<Vec<usize>>,
    fields: Vec<(String, Path)>,
    /// Every path the options name.
    named: Vec<Named>,
}

/// A path an option names.
#[derive(Debug, Clone)]
struct Named {
    /// The option and the path as written (`--where ns`).
    text: String,
    /// The path relative to the records.
    path: Path,
    /// The path does not go through the records' array, which a `[]` path chose (not
    /// `--records`): it is read in each element all the same.
    beside_records: bool,
}

impl Plan {
    fn new(options: &JsonOptions) -> Result<Plan, JsonError> {
        if options.max_depth > MAX_DEPTH {
            return Err(JsonError::Options(format!(
                "--max-depth must be at most {MAX_DEPTH}: a value nested deeper would \
                 overflow the stack where it is read and printed"
            )));
        }
        let conditions = options
            .conditions
            .iter()
            .map(|c| Condition::parse(c))
            .collect::<Result<Vec<_>, _>>()?;
        let fields = options
            .fields
            .iter()
            .flat_map(|f| f.split(','))
            .filter(|f| !f.trim().is_empty())
            .map(|f| Path::parse(f.trim()))
            .collect::<Result<Vec<_>, _>>()?;
        let count_by = options.count_by.as_deref().map(Path::parse).transpose()?;
        let sort = options.sort.as_deref().map(Path::parse).transpose()?;
        let all: Vec<&Path> = conditions
            .iter()
            .map(|c| &c.path)
            .chain(&count_by)
            .chain(&sort)
            .chain(&fields)
            .collect();
        // The records are the elements of the first array a path names (`items[]`) in
        // --where, --count-by or --sort; named by --fields alone, only when every path
        // goes through it (`--fields items[].id,items[].status`): beside others
        // (`--fields number,labels[].name`), it is an array in each record.
        let chosen = options.records.as_deref().map(records_path).transpose()?;
        let values_are_records = chosen.as_ref().is_some_and(Option::is_none);
        let record = match chosen {
            Some(record) => record,
            None => all.iter().find_map(|p| p.record_prefix()).filter(|prefix| {
                let named_elsewhere = conditions
                    .iter()
                    .map(|c| &c.path)
                    .chain(&count_by)
                    .chain(&sort)
                    .any(|p| p.record_prefix().as_ref() == Some(prefix));
                named_elsewhere || all.iter().all(|p| p.relative_to(prefix) != **p)
            }),
        };
        let prefix = record.clone().unwrap_or_default();
        let paths = conditions
            .iter()
            .map(|c| ("--where", &c.path))
            .chain(count_by.iter().map(|p| ("--count-by", p)))
            .chain(sort.iter().map(|p| ("--sort", p)))
            .chain(fields.iter().map(|p| ("--fields", p)));
        let named = paths
            .map(|(option, path)| {
                let relative = path.relative_to(&prefix);
                Named {
                    text: format!("{option} {path}"),
                    beside_records: options.records.is_none()
                        && record.is_some()
                        && relative == *path,
                    path: relative,
                }
            })
            .collect();
        let mode = match (count_by, sort) {
            (Some(_), Some(_)) => {
                return Err(JsonError::Options(
                    "--count-by and --sort do not go together".into(),
                ))
            }
            (Some(path), None) => {
                if !fields.is_empty() || options.limit.is_some() {
                    return Err(JsonError::Options(
                        "--count-by gives groups: --fields and --limit do not apply (--top N keeps the largest groups)".into(),
                    ));
                }
                Mode::CountBy(path.relative_to(&prefix))
            }
            (None, Some(path)) => Mode::Sort(path.relative_to(&prefix)),
            (None, None)
                if conditions.is_empty()
                    && fields.is_empty()
                    && options.limit.is_none()
                    && options.records.is_none() =>
            {
                Mode::Shape
            }
            (None, None) => Mode::Records,
        };
        if options.top.is_some() && !matches!(mode, Mode::CountBy(_)) {
            return Err(JsonError::Options(
                "--top applies to --count-by groups".into(),
            ));
        }
        if options.desc && !matches!(mode, Mode::Sort(_)) {
            return Err(JsonError::Options("--desc applies to --sort".into()));
        }
        let conditions: Vec<Condition> =
            conditions.iter().map(|c| c.relative_to(&prefix)).collect();
        let (tests, apart) = Test::plan(&conditions);
        Ok(Plan {
            mode,
            tests,
            apart,
            conditions,
            fields: fields
                .iter()
                .map(|f| {
                    let relative = f.relative_to(&prefix);
                    (relative.to_string(), relative)
                })
                .collect(),
            record,
            values_are_records,
            named,
        })
    }
}

/// `--records`' path: the array whose elements are the records (`Some`), or `.`, the
/// input's values themselves (`None`).
fn records_path(text: &str) -> Result<Option<Path>, JsonError> {
    if text.trim() == "." {
        return Ok(None);
    }
    let path = Path::parse(text.trim()).map_err(|error| match error {
        JsonError::Path { why, .. } => JsonError::Options(format!("--records {text:?}: {why}")),
        other => other,
    })?;
    match path.record_prefix() {
        Some(prefix) if prefix == path => Ok(Some(path)),
        _ => Err(JsonError::Options(format!(
            "--records {text:?}: name the array whose elements are the records, a path \
             with one [], at its end (items[], or [] for the input's own array), or . for \
             each value of the input (each NDJSON line) as it comes"
        ))),
    }
}

/// How the input is being read.
#[derive(Debug)]
enum Input {
    /// Values found by the scanner.
    Scan(Box<Scanner>),
    /// NDJSON: a line at a time.
    Lines(Lines),
    /// Nothing more can be read (the reason is in the errors).
    Done,
}

/// NDJSON framing: the line being read, bounded.
#[derive(Debug, Default)]
struct Lines {
    partial: Vec<u8>,
    /// Where the line being read starts, and its number.
    start: u64,
    line: u64,
    /// The line is over the limit: skipped up to its newline.
    overlong: bool,
    /// The line is text, skipped and quoted, and the input read afresh after it, as a
    /// document or as NDJSON ([`Json::skip_text`]): before any JSON (a tool's notice),
    /// or, `among`, after a value (kubectl's `Error from server (Forbidden)`).
    skip: bool,
    among: bool,
    /// With `skip`: the line is a value that failed on it, not text (`{notjson} hello`):
    /// where and why, for its warning.
    failure: Option<(u64, String)>,
}

/// Statistics of `briefly json`.
#[derive(Debug, Clone, Serialize)]
pub struct JsonStats {
    /// `json` (one document), `json-stream` (several), or `ndjson`.
    pub format: &'static str,
    /// Top-level values read, and those over max-record-bytes; not a line that did not
    /// parse (in `invalid`).
    pub values: u64,
    /// Records read.
    pub records: u64,
    /// The array whose elements are the records, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record_path: Option<String>,
    /// Records that met the `--where` conditions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched: Option<u64>,
    /// Groups (`--count-by`), and the records in groups not shown by `--top` or past
    /// [`MAX_GROUPS`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub groups: Option<u64>,
    /// See `groups`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other_records: Option<u64>,
    /// Past [`MAX_GROUPS`] values: how much any group's count may be under its value's
    /// records (a value with more records than this has its group).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counts_under_by_at_most: Option<u64>,
    /// Paths in the shape (no options).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paths: Option<usize>,
    /// Values that did not parse, or the point where the input stopped being JSON; lines
    /// of text before any JSON too.
    pub invalid: u64,
    /// Of those, lines of text before any JSON (a tool's notice), skipped.
    #[serde(skip_serializing_if = "briefly_core::is_zero")]
    pub text_before: u64,
    /// Of those, lines of text after a value, among or after the JSON (an error a tool
    /// printed after its output), skipped; the warnings quote them.
    #[serde(skip_serializing_if = "briefly_core::is_zero")]
    pub text_among: u64,
    /// Lines whose JSON object came after text on the same line (a timestamp from
    /// `docker logs -t` or `kubectl logs --timestamps`, a `[WARN]` tag): read past that
    /// text, which the items leave out.
    #[serde(skip_serializing_if = "briefly_core::is_zero")]
    pub prefixed: u64,
    /// Records over `max_record_bytes`, skipped.
    #[serde(skip_serializing_if = "briefly_core::is_zero")]
    pub oversize: u64,
    /// Members dropped for a later one with the same key (the last is kept).
    #[serde(skip_serializing_if = "briefly_core::is_zero")]
    pub duplicate_keys: u64,
    /// Strings cut in the items.
    #[serde(skip_serializing_if = "briefly_core::is_zero")]
    pub cut_strings: u64,
    /// The document was larger than `max_document_bytes` and read by streaming.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub streamed: bool,
}

/// The JSON reducer.
pub struct Json {
    options: JsonOptions,
    plan: Plan,
    input: Input,
    events: Vec<Event>,
    scratch: Vec<u8>,
    /// The parser's buffers, kept between values (taken while a value is parsed: a
    /// default one would allocate for every line).
    buffers: Option<simd_json::Buffers>,
    /// The tape's nodes, kept between values for their allocation.
    nodes: Vec<simd_json::Node<'static>>,
    convert: Convert,
    /// Numbers past a double's digits that `--where`, `--count-by` or `--sort` read.
    wide_read: WideRead,
    /// Keys the options' paths read that their object has twice (the last one read).
    duplicated_read: u64,
    /// A document that did not parse whole is being read in pieces ([`Json::salvage`]).
    salvaging: bool,
    shape: Shape,
    /// Without options: the values while they are small enough to return whole.
    whole: Option<(Vec<Value>, usize)>,
    groups: HashMap<String, (Value, u64)>,
    other_records: u64,
    /// Rounds of taking one from every group, past [`MAX_GROUPS`].
    groups_taken: u64,
    sorted: BinaryHeap<Held>,
    sort_seq: u64,
    ndjson: bool,
    values: u64,
    records: u64,
    matched: u64,
    shown: u64,
    invalid: u64,
    oversize: u64,
    replaced_utf8: u64,
    /// Numbers beyond a double's range (`1e400`) read as the nearest double; the first:
    /// where, and as written.
    huge_numbers: Tally<String>,
    /// `NaN`, `Infinity` and `-Infinity` (no JSON) read as strings; the first: where, and
    /// as written.
    non_json_numbers: Tally<String>,
    without_records: u64,
    /// One of those was an array: the path was meant in its elements.
    array_without_records: bool,
    implicit_array: bool,
    streamed: bool,
    /// The scanner hands out pieces of a document split up (streamed, or salvaged),
    /// not top-level values.
    split_units: bool,
    errors: Vec<String>,
    /// A multi-line top-level value held without scanning (see [`Json::defer`]).
    deferred: Option<Deferred>,
    /// The start of the open top-level value known to span lines.
    newline_in: Option<u64>,
    /// A value printed over several lines among NDJSON lines is being read (by the
    /// scanner): NDJSON lines follow it.
    lines_around: bool,
    /// Whether values may be deferred (off only to test that it changes nothing).
    defer: bool,
    /// The paths the options name that no record had so far (a typo reads as "no
    /// data" otherwise).
    unseen: Vec<Named>,
    /// The input's first bytes, held while they may be a byte-order mark.
    opening: Vec<u8>,
    /// Past the input's first bytes.
    opened: bool,
    /// The line of the next byte the scanner reads, when known (not after a line whose
    /// number is not known).
    scan_line: Option<u64>,
    /// Lines of text before any JSON, skipped.
    text_before: u64,
    /// Lines of text after a value, skipped.
    text_among: u64,
    /// The warning of the last line of text skipped past [`MAX_ERRORS`] warnings.
    last_text: Option<String>,
    /// Lines whose JSON came after text on the same line, read past it.
    prefixed: u64,
    /// Bytes of input so far.
    input_bytes: u64,
    /// The first of them: where, and the text read past.
    first_prefix: Option<(String, String)>,
}

use briefly_core::UTF8_BOM as BOM;

/// A top-level value's bytes held unscanned: what the scanner kept of it, then the
/// chunks after, which the scanner has not seen.
#[derive(Debug)]
struct Deferred {
    /// Where the value starts in the input.
    start: u64,
    /// Its bytes so far.
    bytes: Vec<u8>,
    /// How many of them the scanner has read.
    scanned: usize,
}

/// How a streaming scanner splits a document that opens with `first`, under `plan`:
/// into the records a `[]` path names, the members the shape reads, or (no path named)
/// an array's elements; `None` for anything else (a document that is one record under
/// `--records .`).
fn split_for(plan: &Plan, first: Option<u8>) -> Option<Split> {
    match (&plan.record, &plan.mode) {
        (Some(record), _) => Some(Split::Records(record.steps.clone())),
        (None, Mode::Shape) => Some(Split::Members),
        (None, _) if first == Some(b'[') && !plan.values_are_records => Some(Split::Elements),
        (None, _) => None,
    }
}

/// A record `--sort` holds: ordered so that the heap's top is the one to drop first.
#[derive(Debug)]
struct Held {
    key: SortKey,
    desc: bool,
    seq: u64,
    item: Value,
}

impl Held {
    fn order(&self, other: &Self) -> std::cmp::Ordering {
        let by_key = if self.desc {
            self.key.cmp_descending(&other.key)
        } else {
            self.key.cmp(&other.key)
        };
        by_key.then(self.seq.cmp(&other.seq))
    }
}

impl PartialEq for Held {
    fn eq(&self, other: &Self) -> bool {
        self.order(other).is_eq()
    }
}
impl Eq for Held {}
impl PartialOrd for Held {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Held {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.order(other)
    }
}

/// Where a parsed value came from.
#[derive(Debug, Clone, Copy)]
enum Origin<'a> {
    /// A whole top-level value.
    Top,
    /// A unit of a streamed document at this path prefix.
    Piece(&'a str),
}

impl Json {
    /// A JSON reducer; options that do not parse or go together are an error.
    pub fn new(options: JsonOptions) -> Result<Json, JsonError> {
        let plan = Plan::new(&options)?;
        let unseen = plan.named.clone();
        let scanner = top_scanner(&options, 0);
        Ok(Json {
            whole: (plan.mode == Mode::Shape).then(|| (Vec::new(), 0)),
            convert: Convert::new(options.max_string_chars),
            wide_read: WideRead::default(),
            duplicated_read: 0,
            plan,
            input: Input::Scan(scanner),
            events: Vec::new(),
            scratch: Vec::new(),
            buffers: None,
            nodes: Vec::new(),
            salvaging: false,
            shape: Shape::new(MAX_PATHS),
            groups: HashMap::new(),
            other_records: 0,
            groups_taken: 0,
            sorted: BinaryHeap::new(),
            sort_seq: 0,
            ndjson: false,
            values: 0,
            records: 0,
            matched: 0,
            shown: 0,
            invalid: 0,
            oversize: 0,
            replaced_utf8: 0,
            huge_numbers: Tally::default(),
            non_json_numbers: Tally::default(),
            without_records: 0,
            array_without_records: false,
            implicit_array: false,
            streamed: false,
            split_units: false,
            errors: Vec::new(),
            deferred: None,
            newline_in: None,
            lines_around: false,
            defer: true,
            unseen,
            opening: Vec::new(),
            opened: false,
            scan_line: Some(1),
            text_before: 0,
            text_among: 0,
            prefixed: 0,
            first_prefix: None,
            input_bytes: 0,
            last_text: None,
            options,
        })
    }

    /// The input's first bytes: a byte-order mark is read past, as jq does (the artifact
    /// keeps it); other bytes go on as they came, in any chunking.
    fn open(&mut self, bytes: &[u8], offset: u64, out: &mut dyn Emit<Value>) {
        let (head, rest) = bytes.split_at((BOM.len() - self.opening.len()).min(bytes.len()));
        self.opening.extend_from_slice(head);
        if self.opening.len() < BOM.len() && BOM.starts_with(&self.opening) {
            return;
        }
        self.opened = true;
        let held = std::mem::take(&mut self.opening);
        let rest_at = offset + head.len() as u64;
        if held == BOM {
            // Offsets count the mark: they are the artifact's.
            self.input = Input::Scan(top_scanner(&self.options, rest_at));
        } else {
            self.take(&held, rest_at - held.len() as u64, out);
        }
        if !rest.is_empty() {
            self.take(rest, rest_at, out);
        }
    }

    fn error(&mut self, message: String) {
        self.error_by(|| message);
    }

    /// [`Json::error`], its message made only when it is listed.
    fn error_by(&mut self, message: impl FnOnce() -> String) {
        self.invalid += 1;
        if self.errors.len() < MAX_ERRORS {
            self.errors.push(message());
        }
    }

    /// Feeds `bytes` to the scanner and handles what it finds; returns the rest of
    /// `bytes` when the input turns out to be NDJSON.
    fn scan<'b>(&mut self, bytes: &'b [u8], out: &mut dyn Emit<Value>) -> &'b [u8] {
        let Input::Scan(scanner) = &mut self.input else {
            return bytes;
        };
        let base = scanner.offset();
        let took = scanner.feed(bytes, &mut self.events);
        let events = std::mem::take(&mut self.events);
        let fed = &bytes[..took];
        let lines = LineOf::new(base, fed, self.scan_line);
        // (A new scanner made while its events are handled sets its own.)
        self.scan_line = self.scan_line.map(|line| line + count_newlines(fed));
        self.handle(events, lines, out);
        let rest = &bytes[took..];
        match self.input {
            _ if rest.is_empty() => rest,
            // Paused after the first value, which was not alone on its line.
            Input::Scan(_) => self.scan(rest, out),
            Input::Lines(_) => rest,
            Input::Done => &[],
        }
    }

    /// Handles the scanner's `events`, the lines of their offsets known by `lines`.
    fn handle(&mut self, events: Vec<Event>, lines: LineOf<'_>, out: &mut dyn Emit<Value>) {
        for event in events {
            match event {
                // A line of text (the scanner stopped after its first word): read to its
                // end and skipped whole, not a bad value and then the rest of its line.
                Event::Text { offset, bytes } => {
                    self.line_past_values(offset, lines.at(offset), bytes, None)
                }
                // A value that failed on the line it began on: that line is a bad one,
                // skipped as a line of text is, and the input read on after it.
                Event::BadLine {
                    offset,
                    bytes,
                    failed_at,
                    message,
                } => {
                    let line = lines.at(offset);
                    self.line_past_values(offset, line, bytes, Some((failed_at, message)))
                }
                Event::Unit(Unit {
                    offset, mut bytes, ..
                }) if !self.split_units => {
                    let first = self.values == 0;
                    let place = Place::Document(lines.start_of(offset, &bytes));
                    self.value(&mut bytes, offset, place, Origin::Top, out);
                    // A value printed over several lines among NDJSON lines, which go
                    // on after it; or the first value, which fits on its line: NDJSON
                    // from here on.
                    let lines_after = std::mem::take(&mut self.lines_around)
                        || (first && !bytes.contains(&b'\n'));
                    if let (true, Input::Scan(scanner)) = (lines_after, &self.input) {
                        self.read_ndjson(scanner.offset(), self.scan_line.unwrap_or(0));
                    }
                }
                Event::Unit(Unit {
                    offset,
                    mut bytes,
                    prefix,
                }) => {
                    // A top-level value after a split document is read as one held in
                    // memory is (the document's own count is its container's opening).
                    let from = match prefix.is_empty() {
                        true => Origin::Top,
                        false => Origin::Piece(&prefix),
                    };
                    let place = Place::Document(lines.start_of(offset, &bytes));
                    self.value(&mut bytes, offset, place, from, out);
                }
                Event::Overflow {
                    offset,
                    bytes,
                    broke,
                } => {
                    let line = lines.start_of(offset, &bytes);
                    let broke = broke.map(|(at, why)| (line_and_byte(lines.at(at), at), why));
                    self.stream(offset, line, &bytes, broke, out)
                }
                Event::Oversize { offset, len } => {
                    self.oversize += 1;
                    self.records += 1;
                    if self.errors.len() < MAX_ERRORS {
                        self.errors.push(format!(
                            "record at byte {offset} is {len} bytes, over max-record-bytes ({}): skipped",
                            self.options.max_record_bytes
                        ));
                    }
                }
                Event::Open { path, object } => {
                    // A top-level document opens: each is a value of the input, and an
                    // object is one record of the shape.
                    if path.is_empty() && self.split_units {
                        // (A salvaged document was counted as it was parsed.)
                        if !self.salvaging {
                            self.values += 1;
                        }
                        if object && self.plan.mode == Mode::Shape {
                            self.records += 1;
                        }
                    }
                    if self.plan.mode == Mode::Shape && self.streamed {
                        self.shape.add_container(&path, object);
                    }
                }
                Event::Array { path, len } => {
                    if self.plan.mode == Mode::Shape && self.streamed {
                        self.shape.array_closed(&path, len);
                    }
                }
                Event::Error { offset, message } => self
                    .error_by(|| format!("{}: {message}", line_and_byte(lines.at(offset), offset))),
                // A value printed over several lines among NDJSON lines broke: the NDJSON
                // is read on from the line it broke on.
                Event::BadLines {
                    line_start,
                    line,
                    failed_at,
                    message,
                } => {
                    let at = lines.at(failed_at);
                    self.error(format!(
                        "{}: {message}, in a value over several lines",
                        line_and_byte(at, failed_at)
                    ));
                    self.lines_around = false;
                    self.input = Input::Lines(Lines {
                        partial: line,
                        start: line_start,
                        line: at,
                        ..Lines::default()
                    });
                }
            }
        }
    }

    /// Reads the line the scanner stopped in (at `offset`, `bytes` of it so far) to its
    /// end, as text before any JSON or after a value ([`Json::skip_text`]), or as a bad
    /// value with its `failure`. What follows is read afresh.
    fn line_past_values(
        &mut self,
        offset: u64,
        line: u64,
        bytes: Vec<u8>,
        failure: Option<(u64, String)>,
    ) {
        let before = self.values == 0;
        self.input = Input::Lines(Lines {
            partial: bytes,
            start: offset,
            line,
            overlong: false,
            skip: true,
            among: !before,
            failure,
        });
    }

    /// The document at `offset` (on `line`, when known), of which `bytes` were read, is
    /// too large to hold, or `broke` inside one of its values (where, why): a streaming
    /// scanner reads it (and the rest of the input) in pieces.
    fn stream(
        &mut self,
        offset: u64,
        line: Option<u64>,
        bytes: &[u8],
        broke: Option<(String, String)>,
        out: &mut dyn Emit<Value>,
    ) {
        // The document and the values after it are counted as the scanner opens them.
        self.streamed = true;
        self.split_units = true;
        self.whole = None;
        let Some(split) = split_for(&self.plan, bytes.first().copied()) else {
            self.values += 1;
            if let Some((place, why)) = broke {
                // Not too large: broken, and no record of it can be read apart.
                self.error(format!(
                    "{place}: {why}; the input from there on is not read (the artifact keeps it)"
                ));
                self.input = Input::Done;
                return;
            }
            let why = match self.plan.values_are_records {
                true => "is one record under --records . (which holds it whole)",
                false => "is not an array",
            };
            self.error(format!(
                "the document at byte {offset} is larger than {} bytes (max-document-bytes) and {why}: name the array whose elements are the records with a [] path (e.g. --where items[].status=failed, or --records items[]); the input from it on is not read (the artifact keeps it)",
                self.options.max_document_bytes
            ));
            self.input = Input::Done;
            return;
        };
        self.implicit_array = self.plan.record.is_none() && self.plan.mode != Mode::Shape;
        self.scan_line = line;
        self.input = Input::Scan(Box::new(Scanner::new(
            split,
            self.options.max_record_bytes,
            self.options.max_depth,
            offset,
        )));
        // In pieces: the events of one feed are held until it returns, and those of
        // up to max-document-bytes of small records would take several times that.
        // (The scanner reads the same in any chunking.)
        for piece in bytes.chunks(STREAM_PIECE) {
            self.scan(piece, out);
        }
    }

    /// NDJSON lines in `bytes`, which start at `offset`. Returns where the input is to
    /// be read afresh, past a line of text before any JSON.
    fn lines(&mut self, bytes: &[u8], offset: u64, out: &mut dyn Emit<Value>) -> Option<usize> {
        let max = self.options.max_record_bytes;
        let mut from = 0;
        while from < bytes.len() {
            let Input::Lines(lines) = &mut self.input else {
                return None;
            };
            let newline = memchr::memchr(b'\n', &bytes[from..]).map(|at| from + at);
            let end = newline.unwrap_or(bytes.len());
            let piece = &bytes[from..end];
            if lines.overlong || lines.partial.len() + piece.len() > max {
                let text = lines.skip;
                if !lines.overlong {
                    lines.overlong = true;
                    match text {
                        true => lines.partial.truncate(QUOTED_BYTES),
                        false => lines.partial = Vec::new(),
                    }
                }
                if text {
                    // A line of text is only quoted: its head is kept for that.
                    let room = QUOTED_BYTES.saturating_sub(lines.partial.len());
                    let head = &piece[..room.min(piece.len())];
                    lines.partial.extend_from_slice(head);
                }
            } else if newline.is_some() && lines.partial.is_empty() {
                let (start, line) = (lines.start, lines.line);
                if opens_alone(piece) {
                    self.read_value_over_lines(start, line);
                    return Some(from);
                }
                self.line(piece, start, line, out);
            } else {
                lines.partial.extend_from_slice(piece);
            }
            let Input::Lines(lines) = &mut self.input else {
                return None;
            };
            if newline.is_some() {
                if lines.skip {
                    let text = std::mem::take(lines);
                    let line_end = offset + end as u64;
                    self.skip_text(text, line_end, line_end + 1, out);
                    return Some(end + 1);
                }
                if lines.overlong {
                    let (start, line) = (lines.start, lines.line);
                    self.overlong_line(start, line);
                } else if !lines.partial.is_empty() {
                    let mut partial = std::mem::take(&mut lines.partial);
                    let (start, line) = (lines.start, lines.line);
                    if opens_alone(&partial) {
                        self.read_value_over_lines(start, line);
                        partial.push(b'\n');
                        self.scan(&partial, out);
                        return Some(end + 1);
                    }
                    self.line(&partial, start, line, out);
                }
                let Input::Lines(lines) = &mut self.input else {
                    return None;
                };
                lines.overlong = false;
                lines.line += 1;
                lines.start = offset + end as u64 + 1;
            }
            from = end + 1;
        }
        None
    }

    /// Skips the line of text `lines` holds (before any JSON or, `among`, after a
    /// value; its number 0 when not known), which ends at `line_end`, and reads the input
    /// afresh from `next`: as a document, or as NDJSON, whichever follows. A line of
    /// text that ends with a JSON object is that object ([`json_after_text`]): before
    /// any JSON, the first line of NDJSON; one that opens a document over the lines
    /// after it is read from its bracket ([`document_after_text`]). A line with a
    /// `failure` is a bad value, not text.
    fn skip_text(&mut self, lines: Lines, line_end: u64, next: u64, out: &mut dyn Emit<Value>) {
        let Lines {
            partial: text,
            start,
            line,
            overlong: cut,
            among,
            failure,
            ..
        } = lines;
        let text = text.as_slice();
        let trimmed = text.trim_ascii_end();
        // Of a line over the limit, `text` is its head: quoted so, and not read. (Quoted
        // only when told of: a line read as JSON after all is not.)
        let quoted = || match cut {
            true => quoted_cut(text, line_end - start),
            false => quoted_head(text),
        };
        if let Some(at) = json_after_text(trimmed).filter(|_| !cut) {
            self.read_past_text(trimmed, at, start, line, out);
            if !among {
                self.read_ndjson(next, line + 1);
                return;
            }
        } else if failure.is_some()
            && !cut
            && text.first() == Some(&b'[')
            && closes_what_it_opens(text)
            && self.salvage_line(text, start, line, out)
        {
            // An array on its line with a bad record in it: its other records read.
        } else if let Some((at, why)) = failure {
            let place = line_and_byte(line, at);
            self.error(format!("{place}: {why}, in: {}", quoted()));
            if std::mem::take(&mut self.lines_around) {
                // A value that was to go on over the lines among NDJSON broke on its
                // first: the NDJSON is read on after it.
                self.read_ndjson(next, line + 1);
                return;
            }
            if !cut && !closes_what_it_opens(text) {
                // The first line of a bad document over several lines: the rest is no
                // JSON of its own.
                self.input = Input::Done;
                return;
            }
        } else if let Some(at) = document_after_text(trimmed).filter(|_| !cut) {
            // `Response: {` and a document over the lines after it: read from its bracket.
            self.note_prefix(trimmed, at, start, line);
            self.read_afresh(start + at as u64, line);
            let mut opening = text[at..].to_vec();
            opening.push(b'\n');
            self.scan(&opening, out);
            return;
        } else {
            self.count_text(start, line, quoted(), among);
        }
        // Past a value, the input is a stream (NDJSON is told by the first value), its
        // lines counted by the scanner's bytes; the next line's number is known when this
        // one's is.
        self.read_afresh(next, if line == 0 { 0 } else { line + 1 });
    }

    /// Reads the input as NDJSON lines from byte `start`, on line `line` (0 when not
    /// known).
    fn read_ndjson(&mut self, start: u64, line: u64) {
        self.ndjson = true;
        self.input = Input::Lines(Lines {
            start,
            line,
            ..Lines::default()
        });
    }

    /// Reads a value printed over several lines among NDJSON lines (jq's and most
    /// printers' first line, `{` alone), from byte `from` on line `line`, and NDJSON
    /// lines again after it, or from the line it broke on.
    fn read_value_over_lines(&mut self, from: u64, line: u64) {
        self.read_afresh(from, line);
        self.ndjson = true;
        self.lines_around = true;
        if let Input::Scan(scanner) = &mut self.input {
            scanner.lines_around = true;
        }
    }

    /// Reads the input afresh from byte `from` (on line `line`, 0 when not known): as a
    /// document, or as NDJSON, whichever follows.
    fn read_afresh(&mut self, from: u64, line: u64) {
        self.ndjson = false;
        self.newline_in = None;
        self.split_units = false;
        self.scan_line = (line > 0).then_some(line);
        self.input = Input::Scan(top_scanner(&self.options, from));
    }

    /// Counts line `line` (at `start`), text before any JSON or, `among`, after a value,
    /// and quotes it (as `quoted`) in a warning.
    fn count_text(&mut self, start: u64, line: u64, quoted: String, among: bool) {
        self.invalid += 1;
        let what = if among {
            self.text_among += 1;
            "text after a JSON value"
        } else {
            self.text_before += 1;
            "text before the JSON"
        };
        let place = line_and_byte(line, start);
        match self.errors.len() < MAX_ERRORS {
            true => self
                .errors
                .push(format!("{place}: {what}, skipped: {quoted}")),
            false => {
                let last = format!("{place}: {what} (the last such line), skipped: {quoted}");
                self.last_text = Some(last);
            }
        }
    }

    /// A line of text then a JSON object (`at` bytes in; see [`json_after_text`]): the
    /// object is read as the line's value, and the text is counted and told of once.
    fn read_past_text(
        &mut self,
        trimmed: &[u8],
        at: usize,
        start: u64,
        line: u64,
        out: &mut dyn Emit<Value>,
    ) {
        self.note_prefix(trimmed, at, start, line);
        self.parse_line(&trimmed[at..], start + at as u64, line, out);
    }

    /// Reads `bytes` (at `start`, on line `line`) as a top-level value, parsed in the
    /// scratch buffer (simd-json parses in place).
    fn parse_line(&mut self, bytes: &[u8], start: u64, line: u64, out: &mut dyn Emit<Value>) {
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        scratch.extend_from_slice(bytes);
        self.value(
            &mut scratch,
            start,
            Place::Line(line, bytes),
            Origin::Top,
            out,
        );
        self.scratch = scratch;
    }

    /// Counts line `line` (at `start`) as one whose JSON begins `at` bytes in, after
    /// text read past; the first such is told of.
    fn note_prefix(&mut self, trimmed: &[u8], at: usize, start: u64, line: u64) {
        self.prefixed += 1;
        if self.first_prefix.is_none() {
            let text = quoted_head(&trimmed[..at]);
            self.first_prefix = Some((line_and_byte(line, start), text));
        }
    }

    fn overlong_line(&mut self, start: u64, line: u64) {
        self.oversize += 1;
        self.values += 1;
        if self.errors.len() < MAX_ERRORS {
            self.errors.push(format!(
                "{} is over max-record-bytes ({}): skipped",
                line_and_byte(line, start),
                self.options.max_record_bytes
            ));
        }
    }

    /// One NDJSON line (`line` counts from the first value's line).
    fn line(&mut self, bytes: &[u8], start: u64, line: u64, out: &mut dyn Emit<Value>) {
        let lead = bytes.iter().take_while(|b| b.is_ascii_whitespace()).count();
        let trimmed = bytes[lead..].trim_ascii_end();
        if trimmed.is_empty() {
            return;
        }
        if let Some(at) = json_after_text(trimmed) {
            self.read_past_text(trimmed, at, start + lead as u64, line, out);
            return;
        }
        // A line of text among the values (`Done.`, `123 packages installed`, `[WARN] …`,
        // `[1]+ Done`): counted as text, not as a value that did not parse. A line opening
        // like an object, or an array but for those, is JSON, bad or not.
        let text = match trimmed[0] {
            b'{' => false,
            b'[' => {
                let array_then_text = memchr::memchr(b']', trimmed).is_some_and(|end| {
                    end + 1 < trimmed.len()
                        && serde_check(&trimmed[..=end]).is_ok()
                        && concatenated(trimmed).is_none()
                });
                array_then_text || scan::opens_with_a_tag(trimmed)
            }
            _ => !scan::is_scalar(trimmed) && serde_check(trimmed).is_err(),
        };
        if text {
            self.count_text(start + lead as u64, line, quoted_head(trimmed), true);
            return;
        }
        self.parse_line(trimmed, start + lead as u64, line, out);
    }

    /// Parses one value (a top-level value or a streamed piece) and reads its records.
    fn value(
        &mut self,
        bytes: &mut [u8],
        offset: u64,
        place: Place<'_>,
        from: Origin<'_>,
        out: &mut dyn Emit<Value>,
    ) {
        if matches!(from, Origin::Top) {
            self.values += 1;
        }
        let at = |index: usize| match place {
            Place::Line(line, _) => line_and_byte(line, offset + index as u64),
            Place::Document(_) => format!("byte {}", offset + index as u64),
        };
        // simd-json reads a lone surrogate's escape as NUL: made U+FFFD's first, and said.
        if let Some(first) = replace_lone_surrogates(bytes) {
            if self.errors.len() < MAX_ERRORS {
                self.errors.push(format!(
                    "{}: a lone surrogate escape (half of a UTF-16 pair) replaced by U+FFFD",
                    at(first)
                ));
            }
        }
        // simd-json unescapes strings in place (`\n` becomes a newline) before it may
        // fail: a document that fails is read again in pieces from the bytes as given.
        let kept;
        let given = match place {
            Place::Line(_, given) => Some(given),
            Place::Document(_)
                if matches!(from, Origin::Top) && memchr::memchr(b'\\', bytes).is_some() =>
            {
                kept = bytes.to_vec();
                Some(kept.as_slice())
            }
            Place::Document(_) => None,
        };
        let mut buffers = self.buffers.take().unwrap_or_default();
        let mut tape = simd_json::Tape(reuse(std::mem::take(&mut self.nodes)));
        match simd_json::fill_tape(bytes, &mut buffers, &mut tape) {
            Ok(()) => self.read_tape(tape, &at, from, out),
            // simd-json checks UTF-8 before it touches the bytes: they are as given.
            Err(e) if *e.error() == simd_json::ErrorType::InvalidUtf8 => {
                self.nodes = reuse(tape.0);
                // Keep the record readable: replace the bad bytes, and say so.
                self.replaced_utf8 += 1;
                let bad = std::str::from_utf8(bytes)
                    .err()
                    .map_or(0, |e| e.valid_up_to());
                if self.errors.len() < MAX_ERRORS {
                    self.errors
                        .push(format!("{}: invalid UTF-8 replaced by U+FFFD", at(bad)));
                }
                let mut lossy = String::from_utf8_lossy(bytes).into_owned().into_bytes();
                let mut tape = simd_json::Tape(reuse(std::mem::take(&mut self.nodes)));
                match simd_json::fill_tape(&mut lossy, &mut buffers, &mut tape) {
                    Ok(()) => self.read_tape(tape, &at, from, out),
                    Err(_) => {
                        self.nodes = reuse(tape.0);
                        self.bad_value(&lossy, offset, place);
                    }
                }
            }
            Err(_) => {
                self.nodes = reuse(tape.0);
                let bytes = given.unwrap_or(bytes);
                // A number beyond a double's range (`1e400`), which simd-json and
                // serde_json refuse though JSON allows it, and Python's `NaN` and
                // `Infinity`: read as the nearest double (and strings), and said.
                let rewritten = rewrite_numbers(bytes);
                if let Some(rewritten) = &rewritten {
                    let mut copy = rewritten.text.clone();
                    let mut tape = simd_json::Tape(reuse(std::mem::take(&mut self.nodes)));
                    if simd_json::fill_tape(&mut copy, &mut buffers, &mut tape).is_ok() {
                        self.rewritten(rewritten, bytes, offset, place);
                        self.read_tape(tape, &at, from, out);
                        self.buffers = Some(buffers);
                        return;
                    }
                    self.nodes = reuse(tape.0);
                }
                // (Pieces and errors are read from the bytes as given, for their offsets.)
                let readable = rewritten.as_ref().map_or(bytes, |r| r.text.as_slice());
                // JSON simd-json does not take (a whole number below -2^63, which JSON
                // allows): read by serde_json, its numbers as doubles, which the items'
                // warnings then tell of.
                if let Some(mut written) = serde_json::from_slice::<Value>(readable)
                    .ok()
                    .and_then(|value| serde_json::to_vec(&value).ok())
                {
                    let mut tape = simd_json::Tape(reuse(std::mem::take(&mut self.nodes)));
                    if simd_json::fill_tape(&mut written, &mut buffers, &mut tape).is_ok() {
                        if let Some(rewritten) = &rewritten {
                            self.rewritten(rewritten, bytes, offset, place);
                        }
                        self.read_tape(tape, &at, from, out);
                        self.buffers = Some(buffers);
                        return;
                    }
                    self.nodes = reuse(tape.0);
                }
                self.buffers = Some(buffers);
                // A document held whole with one bad value in it is read in pieces, the
                // good ones kept.
                let salvaged = match place {
                    Place::Document(line) if matches!(from, Origin::Top) => {
                        self.salvage(bytes, offset, line, out)
                    }
                    _ => false,
                };
                if salvaged {
                    return;
                }
                match place {
                    Place::Line(line, given) if matches!(from, Origin::Top) => {
                        match concatenated(given) {
                            // Each value of the line read alone, the line no value itself.
                            Some(values) => {
                                self.values -= 1;
                                for value in values {
                                    let at = offset + value.start as u64;
                                    self.parse_line(&given[value], at, line, out);
                                }
                            }
                            None => self.bad_value(bytes, offset, place),
                        }
                    }
                    _ => self.bad_value(bytes, offset, place),
                }
                return;
            }
        }
        self.buffers = Some(buffers);
    }

    /// Counts the numbers of a value (`bytes`, at `offset`) read as `rewritten` says.
    fn rewritten(&mut self, rewritten: &Rewritten, bytes: &[u8], offset: u64, place: Place<'_>) {
        let place = |tally: &Tally<(usize, String)>| {
            let (index, token) = tally.first.as_ref()?;
            let at = offset + *index as u64;
            let place = match place {
                Place::Line(line, _) => line_and_byte(line, at),
                Place::Document(Some(line)) => {
                    line_and_byte(line + count_newlines(&bytes[..*index]), at)
                }
                Place::Document(None) => format!("byte {at}"),
            };
            Some(format!("{place}: {token}"))
        };
        let (huge, words) = (&rewritten.huge, &rewritten.words);
        self.huge_numbers.add(huge.count, || place(huge));
        self.non_json_numbers.add(words.count, || place(words));
    }

    /// Tells of `bytes`, a value at `offset` that is not JSON. A bad NDJSON line is
    /// quoted as it was given, and is no value, as a bad first line is not
    /// ([`Event::BadLine`]).
    fn bad_value(&mut self, bytes: &[u8], offset: u64, place: Place<'_>) {
        match place {
            Place::Line(line, given) => {
                let why = explain(bytes, offset, Some(line));
                self.values -= 1;
                self.error(format!("{why}, in: {}", quoted_head(given)));
            }
            Place::Document(line) => self.error(explain(bytes, offset, line)),
        }
    }

    /// Reads a document (at `offset`, on `line` when known) that did not parse whole
    /// (`1e400` or a stray comma in one of its records) as a document too large to hold
    /// is read: record by record, each bad one an error where it is, the rest read. False
    /// when it cannot be split so.
    fn salvage(
        &mut self,
        bytes: &[u8],
        offset: u64,
        line: Option<u64>,
        out: &mut dyn Emit<Value>,
    ) -> bool {
        let first = bytes.first().copied();
        if !matches!(first, Some(b'[' | b'{')) || self.salvaging {
            return false;
        }
        let Some(split) = split_for(&self.plan, first) else {
            return false;
        };
        let mut scanner = Scanner::new(
            split,
            self.options.max_record_bytes,
            self.options.max_depth,
            offset,
        );
        self.salvaging = true;
        let streamed = std::mem::replace(&mut self.streamed, true);
        let split_units = std::mem::replace(&mut self.split_units, true);
        let implicit = self.implicit_array;
        self.implicit_array = self.plan.record.is_none() && self.plan.mode != Mode::Shape;
        self.whole = None;
        let mut events = Vec::new();
        let (mut base, mut line) = (offset, line);
        for piece in bytes.chunks(STREAM_PIECE) {
            scanner.feed(piece, &mut events);
            let lines = LineOf::new(base, piece, line);
            (base, line) = (
                base + piece.len() as u64,
                line.map(|l| l + count_newlines(piece)),
            );
            self.handle(std::mem::take(&mut events), lines, out);
        }
        scanner.finish(&mut events);
        self.handle(events, LineOf::unknown(), out);
        self.streamed = streamed;
        self.split_units = split_units;
        self.implicit_array |= implicit;
        self.salvaging = false;
        true
    }

    /// [`Json::salvage`] of a bad line `text` (at `start`, line `line`), a value of the
    /// input (a bad line is no value until then).
    fn salvage_line(
        &mut self,
        text: &[u8],
        start: u64,
        line: u64,
        out: &mut dyn Emit<Value>,
    ) -> bool {
        self.values += 1;
        let salvaged = self.salvage(text, start, (line > 0).then_some(line), out);
        if !salvaged {
            self.values -= 1;
        }
        salvaged
    }

    /// Checks a parsed value's depth, reads its records, keeps the tape's allocation.
    fn read_tape(
        &mut self,
        tape: simd_json::Tape<'_>,
        at: &dyn Fn(usize) -> String,
        from: Origin<'_>,
        out: &mut dyn Emit<Value>,
    ) {
        if self.too_deep(&tape) {
            let message = format!(
                "{}: nesting deeper than {} levels",
                at(0),
                self.options.max_depth
            );
            self.error(message);
        } else {
            self.read(TapeValue::root(&tape.0), from, out);
        }
        self.nodes = reuse(tape.0);
    }

    /// Whether a parsed value nests deeper than max-depth.
    fn too_deep(&self, tape: &simd_json::Tape<'_>) -> bool {
        // A value nests no deeper than it has nodes: most need no walk.
        tape.0.len() > self.options.max_depth && tape::deeper_than(&tape.0, self.options.max_depth)
    }

    /// The records of a parsed value.
    fn read(&mut self, root: TapeValue<'_, '_>, from: Origin<'_>, out: &mut dyn Emit<Value>) {
        if self.plan.mode == Mode::Shape {
            let mut path = match from {
                Origin::Top => String::new(),
                Origin::Piece(prefix) => prefix.to_string(),
            };
            // A record is a top-level value, or an element of a top-level array: a split
            // document's other pieces are parts of one (counted as it opens).
            self.records += match (from, root.kind()) {
                (Origin::Top, Kind::Array) => root.len() as u64,
                (Origin::Top, _) | (Origin::Piece("[]"), _) => 1,
                (Origin::Piece(_), _) => 0,
            };
            self.shape.add(root, &mut path);
            let most = self.options.whole_value_chars.unwrap_or(usize::MAX);
            if let (Some((held, chars)), Origin::Top) = (&mut self.whole, from) {
                // A value of more nodes than the room has characters cannot come whole:
                // it is not made a tree to find that out (a large document's tree takes
                // many times its bytes).
                let fits = |value_chars: usize| {
                    *chars + value_chars <= self.options.whole_chars && value_chars <= most
                };
                if fits(root.nodes()) {
                    let value = root.to_json(&mut self.convert);
                    let value_chars = value.to_string().chars().count();
                    if fits(value_chars) {
                        *chars += value_chars;
                        held.push(value);
                        return;
                    }
                }
                self.whole = None;
            } else {
                self.whole = None;
            }
            return;
        }
        match (from, &self.plan.record) {
            (Origin::Piece(_), _) => self.record(root, out),
            (Origin::Top, Some(record)) => {
                let steps = &record.steps[..record.steps.len() - 1];
                let mut arrays = Vec::new();
                root.select(steps, &mut |value| {
                    if value.kind() == Kind::Array {
                        arrays.push(value)
                    }
                });
                if arrays.is_empty() {
                    self.without_records += 1;
                    self.array_without_records |= root.kind() == Kind::Array;
                }
                for array in arrays {
                    array
                        .elements()
                        .for_each(|element| self.record(element, out));
                }
            }
            // An array's elements are the records: the first value's, and every line's
            // of NDJSON whose first line was one (its lines read alike).
            (Origin::Top, None)
                if root.kind() == Kind::Array
                    && (!self.ndjson || self.implicit_array)
                    && !self.plan.values_are_records =>
            {
                self.implicit_array = true;
                root.elements()
                    .for_each(|element| self.record(element, out));
            }
            (Origin::Top, None) => self.record(root, out),
        }
    }

    /// One record.
    fn record(&mut self, record: TapeValue<'_, '_>, out: &mut dyn Emit<Value>) {
        self.records += 1;
        if !self.unseen.is_empty() {
            self.unseen.retain(|named| {
                let mut found = false;
                record.select(&named.path.steps, &mut |_| found = true);
                !found
            });
        }
        let (wide, duplicated) = (&mut self.wide_read, &mut self.duplicated_read);
        let conditions = &self.plan.conditions;
        if !(self.plan.tests.iter()).all(|t| t.passes(conditions, record, wide, duplicated)) {
            return;
        }
        self.matched += 1;
        match &self.plan.mode {
            Mode::Shape => {}
            Mode::Records => {
                if self
                    .options
                    .limit
                    .is_some_and(|limit| self.shown >= limit as u64)
                {
                    return;
                }
                self.shown += 1;
                if out.wants(0) {
                    let item = self.item(record);
                    out.emit(0, item);
                } else {
                    out.skip(0);
                }
            }
            Mode::CountBy(path) => {
                let mut keys = Vec::new();
                let wide = &mut self.wide_read;
                let steps = &path.steps;
                record.select_counting(
                    steps,
                    &mut |value| {
                        wide.note(value.wide());
                        if !keys
                            .iter()
                            .any(|(k, _): &(String, TapeValue)| *k == group_key(value))
                        {
                            keys.push((group_key(value), value));
                        }
                    },
                    &mut self.duplicated_read,
                );
                if keys.is_empty() {
                    self.count_group(NULL_GROUP.into(), || Value::Null);
                }
                let max_chars = self.options.max_string_chars;
                for (key, value) in keys {
                    self.count_group(key, || value.to_json(&mut Convert::new(max_chars)));
                }
            }
            Mode::Sort(path) => {
                let key = SortKey::of(record, path, &mut self.wide_read, &mut self.duplicated_read);
                let keep = self.options.limit.unwrap_or(SORT_KEEP);
                if keep == 0 {
                    return;
                }
                let seq = self.sort_seq;
                self.sort_seq += 1;
                let desc = self.options.desc;
                let probe = Held {
                    key,
                    desc,
                    seq,
                    item: Value::Null,
                };
                if self.sorted.len() < keep {
                    let item = self.item(record);
                    self.sorted.push(Held { item, ..probe });
                } else if self.sorted.peek().is_some_and(|worst| probe < *worst) {
                    let item = self.item(record);
                    self.sorted.pop();
                    self.sorted.push(Held { item, ..probe });
                }
            }
        }
    }

    fn count_group(&mut self, key: String, value: impl FnOnce() -> Value) {
        if let Some(group) = self.groups.get_mut(&key) {
            group.1 += 1;
        } else if self.groups.len() < MAX_GROUPS {
            self.groups.insert(key, (value(), 1));
        } else {
            // Full: this record and one of every group's go to `other` (at most as many
            // rounds as records over the groups' number: linear in all).
            self.groups_taken += 1;
            self.other_records += 1 + self.groups.len() as u64;
            self.groups.retain(|_, group| {
                group.1 -= 1;
                group.1 > 0
            });
        }
    }

    /// A record as shown: projected to `--fields`, strings cut.
    fn item(&mut self, record: TapeValue<'_, '_>) -> Value {
        if self.plan.fields.is_empty() {
            return record.to_json(&mut self.convert);
        }
        let mut projected = Map::new();
        for (name, path) in &self.plan.fields {
            let mut found = Vec::new();
            let convert = &mut self.convert;
            let push = &mut |value| found.push(TapeValue::to_json(&value, convert));
            record.select_counting(&path.steps, push, &mut self.duplicated_read);
            let many = path.steps.contains(&Step::Each);
            match (many, found.len()) {
                (false, 0) => {}
                (false, _) => {
                    projected.insert(name.clone(), found.swap_remove(0));
                }
                (true, _) => {
                    projected.insert(name.clone(), Value::Array(found));
                }
            }
        }
        Value::Object(projected)
    }

    /// Input bytes at `offset`: scanned, then read as NDJSON lines when it turns out to be.
    fn feed(&mut self, bytes: &[u8], offset: u64, out: &mut dyn Emit<Value>) {
        let (mut bytes, mut offset) = (bytes, offset);
        loop {
            let rest = match self.input {
                Input::Scan(_) => self.scan(bytes, out),
                _ => bytes,
            };
            if matches!(self.input, Input::Lines(_)) && !rest.is_empty() {
                let at = offset + (bytes.len() - rest.len()) as u64;
                if let Some(afresh) = self.lines(rest, at, out) {
                    (bytes, offset) = (&rest[afresh..], at + afresh as u64);
                    continue;
                }
            }
            break;
        }
        self.note_newline(bytes.len());
    }

    /// Remembers whether the top-level value open after `fed` more bytes spans lines
    /// (then it cannot be the first line of NDJSON, and its end need not be looked for).
    fn note_newline(&mut self, fed: usize) {
        let Input::Scan(scanner) = &self.input else {
            return;
        };
        if let Some((start, kept)) = scanner.open_unit() {
            // Earlier bytes of the value were looked at after earlier chunks.
            let new = &kept[kept.len().saturating_sub(fed)..];
            if self.newline_in != Some(start) && memchr::memchr(b'\n', new).is_some() {
                self.newline_in = Some(start);
            }
        }
    }

    /// Holds `bytes` (at `offset`) unscanned when they continue a top-level value that
    /// spans lines and stays within half of max-document-bytes: most such input is one
    /// document, which simd-json checks at the end in one pass far faster than the
    /// byte-by-byte scanner finds its end. Anything else (more values after it, bad
    /// JSON) is scanned at the end as before, so nothing read changes. The half leaves
    /// room for the scanner's copy when it catches up: memory stays what it was.
    /// True when the bytes were taken.
    fn defer(&mut self, bytes: &[u8], offset: u64, out: &mut dyn Emit<Value>) -> bool {
        let limit = (self.options.max_document_bytes / 2) as u64;
        let end = offset + bytes.len() as u64;
        if let Some(deferred) = &mut self.deferred {
            if end - deferred.start <= limit {
                deferred.bytes.extend_from_slice(bytes);
                return true;
            }
            self.catch_up(out);
            return false;
        }
        let Input::Scan(scanner) = &self.input else {
            return false;
        };
        match scanner.open_unit() {
            Some((start, kept))
                if self.defer
                    && !self.streamed
                    && self.newline_in == Some(start)
                    && end - start <= limit =>
            {
                let mut held = Vec::with_capacity(kept.len() + bytes.len());
                held.extend_from_slice(kept);
                held.extend_from_slice(bytes);
                self.deferred = Some(Deferred {
                    start,
                    scanned: kept.len(),
                    bytes: held,
                });
                true
            }
            _ => false,
        }
    }

    /// Scans the deferred bytes the scanner has not seen.
    fn catch_up(&mut self, out: &mut dyn Emit<Value>) {
        if let Some(deferred) = self.deferred.take() {
            let at = deferred.start + deferred.scanned as u64;
            self.feed(&deferred.bytes[deferred.scanned..], at, out);
        }
    }

    /// End of input with a value deferred: when the rest of the input is that one value
    /// (and whitespace), it is read as the scanner would have handed it out; else the
    /// deferred bytes are scanned.
    fn whole_value(&mut self, mut deferred: Deferred, out: &mut dyn Emit<Value>) {
        let len = deferred.bytes.trim_ascii_end().len();
        // simd-json unescapes strings in place: keep what the scanner may still need.
        let unseen = memchr::memchr(b'\\', &deferred.bytes[..len])
            .map(|_| deferred.bytes[deferred.scanned..].to_vec());
        let mut buffers = self.buffers.take().unwrap_or_default();
        let mut tape = simd_json::Tape(reuse(std::mem::take(&mut self.nodes)));
        let parsed = simd_json::fill_tape(&mut deferred.bytes[..len], &mut buffers, &mut tape)
            .is_ok()
            && !self.too_deep(&tape);
        self.buffers = Some(buffers);
        if parsed {
            // The one value the scanner would have found: it spans lines, so it is not
            // the first line of NDJSON.
            self.values += 1;
            self.read(TapeValue::root(&tape.0), Origin::Top, out);
            self.nodes = reuse(tape.0);
            self.input = Input::Done;
            return;
        }
        self.nodes = reuse(tape.0);
        if let Some(unseen) = unseen {
            deferred.bytes.truncate(deferred.scanned);
            deferred.bytes.extend_from_slice(&unseen);
        }
        self.deferred = Some(deferred);
        self.catch_up(out);
    }

    fn record_path(&self) -> Option<String> {
        match &self.plan.record {
            Some(path) => Some(path.to_string()),
            None if self.implicit_array => Some("[]".into()),
            None => None,
        }
    }
}

/// Where the JSON object in a line of text begins, when the line is text and then one
/// object: `2024-01-05T10:00:00.123Z {"level":"info",…}` (`docker logs -t`, `kubectl logs
/// --timestamps`) or `[WARN] {"a":1}`. The object follows a space or a tab, ends the
/// (trimmed) line and parses, and the text before it is no JSON value (`[1] {"a":1}` is
/// two); the first of a few such candidates is taken. `None` for
/// anything else, and always for a line that may be one JSON value by itself (none
/// that ends with `}` begins with anything but `{`).
fn json_after_text(line: &[u8]) -> Option<usize> {
    /// Candidates tried: text with more ` {` in it than this is rare in logs.
    const MAX_TRIED: usize = 4;
    if line.first() == Some(&b'{') || line.last() != Some(&b'}') {
        return None;
    }
    memchr::memchr_iter(b'{', line)
        .filter(|&at| at > 0 && matches!(line[at - 1], b' ' | b'\t'))
        .take(MAX_TRIED)
        .find(|&at| serde_check(&line[..at]).is_err() && serde_check(&line[at..]).is_ok())
}

/// Where a document begins in a line of text that ends by opening it after a label
/// (`Response: {`, `data = [`): its bracket ends the (trimmed) line, after a `:` or an
/// `=` and a space. A line of code (`fn main() {`) does not: what follows it is no JSON,
/// and a document read from it would stop the reading at its next line.
fn document_after_text(line: &[u8]) -> Option<usize> {
    let at = line.len().checked_sub(1)?;
    let opens = matches!(line[at], b'{' | b'[');
    let label = line[..at].strip_suffix(b" ").unwrap_or(b"");
    (opens && matches!(label.last(), Some(b':' | b'='))).then_some(at)
}

/// Whether `line` is a bracket alone, `{` or `[` (spaces aside): the first line of a value
/// printed over several lines.
fn opens_alone(line: &[u8]) -> bool {
    matches!(line.trim_ascii(), b"{" | b"[")
}

/// Whether `line` closes as many brackets as it opens, outside strings: a line on its own
/// (`{notjson} hello`), not the first line of a document over several (`{ bad`).
fn closes_what_it_opens(line: &[u8]) -> bool {
    let (mut depth, mut in_string, mut escaped) = (0i64, false, false);
    for &b in line {
        match b {
            _ if escaped => escaped = false,
            b'\\' if in_string => escaped = true,
            b'"' => in_string = !in_string,
            b'{' | b'[' if !in_string => depth += 1,
            b'}' | b']' if !in_string => depth -= 1,
            _ => {}
        }
    }
    depth <= 0
}

/// Where each value of `line` is, when it holds values written one after another, all
/// objects or all arrays (`gh api --paginate`'s pages, `[…][…][…]`, or `{…} {…}`): two
/// at the least, nothing else on the line. Not a value before others of another kind
/// (`[1] {"a": 1}`: a tag, then a record).
fn concatenated(line: &[u8]) -> Option<Vec<std::ops::Range<usize>>> {
    let kind = *line.first()?;
    if !matches!(kind, b'{' | b'[') {
        return None;
    }
    let mut values = Vec::new();
    let mut stream =
        serde_json::Deserializer::from_slice(line).into_iter::<serde::de::IgnoredAny>();
    let mut start = 0;
    while let Some(value) = stream.next() {
        value.ok()?;
        let end = stream.byte_offset();
        let from = start
            + line[start..end]
                .iter()
                .take_while(|b| b.is_ascii_whitespace())
                .count();
        if line[from] != kind {
            return None;
        }
        values.push(from..end);
        start = end;
    }
    (values.len() > 1 && line[start..].trim_ascii().is_empty()).then_some(values)
}

/// serde_json's reading of `bytes` as one JSON value, for what it says when they are not.
fn serde_check(bytes: &[u8]) -> serde_json::Result<()> {
    let mut reader = serde_json::Deserializer::from_slice(bytes);
    serde::de::IgnoredAny::deserialize(&mut reader).and_then(|_| reader.end())
}

/// An empty vector with `nodes`' allocation, for nodes of another input: the tape is
/// filled again for each value without allocating (in-place collect reuses the buffer).
fn reuse<'b>(mut nodes: Vec<simd_json::Node<'_>>) -> Vec<simd_json::Node<'b>> {
    nodes.clear();
    nodes.into_iter().map(|_| unreachable!("cleared")).collect()
}

/// A value's text with the numbers JSON cannot hold as a double rewritten
/// ([`rewrite_numbers`]).
#[derive(Debug, Default)]
struct Rewritten {
    text: Vec<u8>,
    /// Numbers beyond a double's range (`1e400`), now the nearest double; the first: its
    /// index in the value, and as written.
    huge: Tally<(usize, String)>,
    /// `NaN`, `Infinity` and `-Infinity`, now strings; the first, so.
    words: Tally<(usize, String)>,
}

/// The largest double, as items show it: what a number beyond a double's range reads as.
const LARGEST: &str = "1.7976931348623157e+308";

/// `text` with every number beyond a double's range (`1e400`, `-2.5E999`: JSON, which
/// sets no limit) written as the nearest double, `±1.7976931348623157e+308`, and
/// Python's `NaN`, `Infinity` and `-Infinity` (no JSON, which `json.dumps` writes) as
/// strings, `"NaN"` (as the table reducer shows them: no number stands for them);
/// `None` when it has none of them. Strings are left as they are, and so is anything
/// else.
fn rewrite_numbers(text: &[u8]) -> Option<Rewritten> {
    let mut out: Option<Rewritten> = None;
    // Where the bytes not yet copied to `out` begin.
    let mut copied = 0;
    let (mut i, mut in_string) = (0, false);
    while i < text.len() {
        let b = text[i];
        if in_string {
            match b {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        if b == b'"' {
            in_string = true;
            i += 1;
            continue;
        }
        if !(b == b'-' || b.is_ascii_alphanumeric()) {
            i += 1;
            continue;
        }
        let len = text[i..]
            .iter()
            .skip(1)
            .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.')))
            .map_or(text.len() - i, |n| n + 1);
        let token = &text[i..i + len];
        let (sign, written, huge) = match token {
            b"NaN" | b"Infinity" | b"-Infinity" => ("\"", token, false),
            _ if is_json_number(token)
                && std::str::from_utf8(token)
                    .ok()
                    .and_then(|s| s.parse::<f64>().ok())
                    .is_some_and(f64::is_infinite) =>
            {
                let sign = if token[0] == b'-' { "-" } else { "" };
                (sign, LARGEST.as_bytes(), true)
            }
            _ => {
                i += len;
                continue;
            }
        };
        let rewritten = out.get_or_insert_with(|| Rewritten {
            text: Vec::with_capacity(text.len() + 32),
            ..Rewritten::default()
        });
        rewritten.text.extend_from_slice(&text[copied..i]);
        rewritten.text.extend_from_slice(sign.as_bytes());
        rewritten.text.extend_from_slice(written);
        if !huge {
            rewritten.text.push(b'"');
        }
        let tally = match huge {
            true => &mut rewritten.huge,
            false => &mut rewritten.words,
        };
        tally.note(Some((i, String::from_utf8_lossy(token).into_owned())));
        i += len;
        copied = i;
    }
    let mut rewritten = out?;
    rewritten.text.extend_from_slice(&text[copied..]);
    Some(rewritten)
}

/// Whether `literal` is a number as JSON writes one: `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`.
fn is_json_number(literal: &[u8]) -> bool {
    let digits = |at: usize| {
        literal[at.min(literal.len())..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let mut at = usize::from(literal.first() == Some(&b'-'));
    match digits(at) {
        0 => return false,
        n if n > 1 && literal[at] == b'0' => return false,
        n => at += n,
    }
    if literal.get(at) == Some(&b'.') {
        match digits(at + 1) {
            0 => return false,
            n => at += 1 + n,
        }
    }
    if matches!(literal.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(literal.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        match digits(at) {
            0 => return false,
            n => at += n,
        }
    }
    at == literal.len()
}

/// Why `bytes` (a value at `offset`, on `line` when known) is not JSON, where: simd-json
/// says only that it failed, serde_json says why and at which line and column.
fn explain(bytes: &[u8], offset: u64, line: Option<u64>) -> String {
    // Nesting is bounded before this (the scanner, or the depth check after simd-json).
    let (at, why) = match serde_check(bytes) {
        Ok(()) => (0, "invalid JSON".to_string()),
        Err(e) => {
            let mut why = e.to_string();
            if let Some(cut) = why.rfind(" at line ") {
                why.truncate(cut);
            }
            (byte_at(bytes, e.line(), e.column()), why)
        }
    };
    // (A line of text among JSON lines is counted and quoted as text: `line`.)
    let line = line.map_or(0, |line| {
        line + count_newlines(&bytes[..at.min(bytes.len())])
    });
    format!("{}: {why}", line_and_byte(line, offset + at as u64))
}

/// Where a warning's line is: `line 3 (byte 40)`, or `byte 40` for line 0 (not known).
fn line_and_byte(line: u64, byte: u64) -> String {
    match line {
        0 => format!("byte {byte}"),
        line => format!("line {line} (byte {byte})"),
    }
}

/// A line of text a warning quotes: its first [`QUOTED_CHARS`] characters, trimmed.
fn quoted_head(text: &[u8]) -> String {
    let text = String::from_utf8_lossy(text.trim_ascii());
    briefly_core::cut_str(&text, QUOTED_CHARS).into_owned()
}

/// The head of a line of `whole` bytes a warning quotes, of which `head` was kept.
fn quoted_cut(head: &[u8], whole: u64) -> String {
    let head = String::from_utf8_lossy(head.trim_ascii_start());
    briefly_core::cut_line_head(&head, QUOTED_CHARS, whole)
}

/// Characters of a line of text a warning quotes.
const QUOTED_CHARS: usize = 200;

/// Bytes of a line of text over the line limit kept to quote it: enough for
/// [`QUOTED_CHARS`] characters of any UTF-8, and the cut's marker.
const QUOTED_BYTES: usize = 4 * QUOTED_CHARS + 4;

/// The byte index of 1-based `line` and `column` in `bytes`.
fn byte_at(bytes: &[u8], line: usize, column: usize) -> usize {
    let start = if line <= 1 {
        0
    } else {
        memchr::memchr_iter(b'\n', bytes)
            .nth(line - 2)
            .map_or(bytes.len(), |at| at + 1)
    };
    (start + column.saturating_sub(1)).min(bytes.len())
}

/// A value's group for `--count-by`: strings by their text (`"200"` is not `200`),
/// numbers by their value (`7`, `7.0` and `7e0` are one, as `--where v=7` finds all
/// three), anything else by its JSON, its objects' keys in order and its numbers by
/// value (`{"b":1,"a":2.0}` is `{"a":2,"b":1}`).
fn group_key(value: TapeValue<'_, '_>) -> String {
    match (value.as_str(), value.as_f64()) {
        (Some(s), _) => format!("s{}", briefly_core::cut_str(s, GROUP_KEY_CHARS)),
        // Integers past 2^53 are not all doubles: their own text tells them apart.
        (_, Some(n)) if n.fract() == 0.0 && n.abs() < 9_007_199_254_740_992.0 => {
            format!("n{}", n as i64)
        }
        (_, Some(n)) if n.is_finite() && n.abs() < 9_007_199_254_740_992.0 => format!("n{n}"),
        _ => {
            let json = value.to_json(&mut tape::Convert::new(GROUP_KEY_CHARS));
            let text = grouped(json).to_string();
            format!("j{}", briefly_core::cut_str(&text, GROUP_KEY_CHARS))
        }
    }
}

/// `value` as [`group_key`] tells values apart: objects' keys sorted, whole numbers
/// written as doubles (`2.0`) as integers.
fn grouped(value: Value) -> Value {
    match value {
        Value::Object(members) => {
            let mut members: Vec<(String, Value)> = members.into_iter().collect();
            members.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(members.into_iter().map(|(k, v)| (k, grouped(v))).collect())
        }
        Value::Array(elements) => Value::Array(elements.into_iter().map(grouped).collect()),
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() < 9_007_199_254_740_992.0 => {
                Value::from(f as i64)
            }
            _ => Value::Number(n),
        },
        other => other,
    }
}

/// Where a top-level value was read, for its warnings.
#[derive(Clone, Copy)]
enum Place<'a> {
    /// An NDJSON line: its number, and the line as given.
    Line(u64, &'a [u8]),
    /// A document, or a value of a stream: the line it begins on, when known.
    Document(Option<u64>),
}

/// Which line an offset of the scanner's events is on: `line` is that of `base`, where
/// `fed`, the bytes the scanner was just given, begin. An event at an offset before them
/// is on their first line (the text before it in a line of text, or a bad line, has no
/// newline).
struct LineOf<'a> {
    base: u64,
    fed: &'a [u8],
    line: Option<u64>,
    /// How far into `fed` newlines were counted, and the line there: events come in
    /// the order of their offsets, so that many events cost one count over `fed`.
    counted: Cell<(usize, u64)>,
}

impl<'a> LineOf<'a> {
    /// `fed`, the bytes from `base` on, its first byte on `line` (when known).
    fn new(base: u64, fed: &'a [u8], line: Option<u64>) -> LineOf<'a> {
        LineOf {
            base,
            fed,
            line,
            counted: Cell::new((0, line.unwrap_or(0))),
        }
    }

    /// For events whose lines are not known: every offset's line is 0.
    fn unknown() -> LineOf<'static> {
        LineOf::new(0, &[], None)
    }

    /// The line of `offset`, or 0 when not known.
    fn at(&self, offset: u64) -> u64 {
        let Some(first) = self.line else {
            return 0;
        };
        let before = usize::try_from(offset.saturating_sub(self.base)).unwrap_or(usize::MAX);
        let before = before.min(self.fed.len());
        let (mut at, mut line) = self.counted.get();
        if before < at {
            (at, line) = (0, first);
        }
        line += count_newlines(&self.fed[at..before]);
        self.counted.set((before, line));
        line
    }

    /// The line of `held`, the bytes the scanner holds from `offset` on (it was given
    /// them: they end in what was fed), when known.
    fn start_of(&self, offset: u64, held: &[u8]) -> Option<u64> {
        let line = self.at(offset + held.len() as u64);
        (line > 0).then(|| line - count_newlines(held))
    }
}

/// A scanner of top-level values from byte `offset` on, which pauses after each (the
/// first tells NDJSON from a document).
fn top_scanner(options: &JsonOptions, offset: u64) -> Box<Scanner> {
    let mut scanner = Scanner::new(
        Split::TopLevel,
        options.max_document_bytes,
        options.max_depth,
        offset,
    );
    scanner.pause_after_unit = true;
    Box::new(scanner)
}

/// The group of records without the value: one with those where it is null, as both
/// show as null.
const NULL_GROUP: &str = "jnull";

impl Json {
    /// Input after its first bytes ([`Json::open`]).
    fn take(&mut self, bytes: &[u8], offset: u64, out: &mut dyn Emit<Value>) {
        if self.defer(bytes, offset, out) {
            return;
        }
        // Scanned up to its first newline only, the rest of the chunk may be deferred
        // (the scanner reads the same in any chunking).
        let newline = match self.input {
            Input::Scan(_) if self.defer && !self.streamed => memchr::memchr(b'\n', bytes),
            _ => None,
        };
        match newline {
            Some(at) if at + 1 < bytes.len() => {
                let (head, tail) = bytes.split_at(at + 1);
                self.feed(head, offset, out);
                let tail_at = offset + head.len() as u64;
                if !self.defer(tail, tail_at, out) {
                    self.feed(tail, tail_at, out);
                }
            }
            _ => self.feed(bytes, offset, out),
        }
    }
}

impl Reducer for Json {
    type Item = Value;
    type Stats = JsonStats;

    fn framing(&self) -> Framing {
        Framing::Raw
    }

    fn record(&mut self, _record: &Record<'_>, _out: &mut dyn Emit<Value>) -> Flow {
        Flow::Continue
    }

    fn chunk(&mut self, bytes: &[u8], offset: u64, out: &mut dyn Emit<Value>) -> Flow {
        self.input_bytes = offset + bytes.len() as u64;
        if self.opened {
            self.take(bytes, offset, out);
        } else {
            self.open(bytes, offset, out);
        }
        Flow::Continue
    }

    fn finish(&mut self, out: &mut dyn Emit<Value>) -> Outcome<JsonStats> {
        // An input shorter than a byte-order mark.
        if !self.opened {
            self.opened = true;
            let held = std::mem::take(&mut self.opening);
            if !held.is_empty() {
                self.take(&held, 0, out);
            }
        }
        if let Some(deferred) = self.deferred.take() {
            self.whole_value(deferred, out);
        }
        // Ending a scanner can hand out a last value, or (a scalar too large to hold) a
        // scanner that splits it, which must end in turn.
        while let Input::Scan(scanner) = &mut self.input {
            // The input ends inside the document held whole (cut off): its records up to
            // the cut are read as a streaming scanner reads them, rather than none.
            // (A scalar open at the end is whole: it ends there.)
            if let Some((start, kept)) = scanner.open_unit() {
                if matches!(kept.first(), Some(b'{' | b'['))
                    && split_for(&self.plan, kept.first().copied()).is_some()
                {
                    let kept = kept.to_vec();
                    // The scanner's line is that of the input's end, where `kept` ends.
                    let line = self.scan_line.map(|line| line - count_newlines(&kept));
                    self.stream(start, line, &kept, None, out);
                    continue;
                }
            }
            let Input::Scan(scanner) = &mut self.input else {
                break;
            };
            // What ends with the input is on its last line (a line of text, a value or a
            // bad line has no newline between its start and the end).
            let end = LineOf::new(scanner.offset(), &[], self.scan_line);
            scanner.finish(&mut self.events);
            let events = std::mem::take(&mut self.events);
            self.handle(events, end, out);
            if let Input::Scan(scanner) = &self.input {
                if scanner.finished() {
                    self.input = Input::Done;
                }
            }
        }
        match std::mem::replace(&mut self.input, Input::Done) {
            Input::Lines(mut lines) => {
                if lines.skip {
                    // The last line, text, without its newline.
                    let end = self.input_bytes;
                    self.skip_text(std::mem::take(&mut lines), end, end, out);
                    // What it began (`Response: {`) ends here too.
                    if let Input::Scan(scanner) = &mut self.input {
                        scanner.finish(&mut self.events);
                        let events = std::mem::take(&mut self.events);
                        self.handle(events, LineOf::unknown(), out);
                    }
                    self.input = Input::Done;
                } else if lines.overlong {
                    self.overlong_line(lines.start, lines.line);
                } else if !lines.partial.is_empty() {
                    let partial = std::mem::take(&mut lines.partial);
                    self.line(&partial, lines.start, lines.line, out);
                }
            }
            Input::Scan(_) | Input::Done => {}
        }
        self.finish_items(out)
    }
}

impl Json {
    fn finish_items(&mut self, out: &mut dyn Emit<Value>) -> Outcome<JsonStats> {
        // A line alone is a document on one line; beside a bad line, it is NDJSON.
        let one_line_document =
            self.ndjson && self.values == 1 && self.invalid == self.text_before + self.text_among;
        let mut stats = JsonStats {
            format: if self.ndjson && !one_line_document {
                "ndjson"
            } else if self.values > 1 {
                "json-stream"
            } else {
                "json"
            },
            values: self.values,
            records: self.records,
            record_path: self.record_path(),
            matched: (!self.plan.conditions.is_empty()).then_some(self.matched),
            groups: None,
            other_records: None,
            counts_under_by_at_most: None,
            paths: None,
            invalid: self.invalid,
            text_before: self.text_before,
            text_among: self.text_among,
            prefixed: self.prefixed,
            oversize: self.oversize,
            duplicate_keys: self.convert.duplicate_keys,
            cut_strings: self.convert.cut_strings,
            streamed: self.streamed,
        };
        let what = match stats.format {
            _ if self.values == 0 && self.text_before > 0 => "no JSON in the input".to_string(),
            _ if one_line_document => "JSON document (one line)".to_string(),
            "ndjson" => format!("NDJSON, {}", counted(self.values, "value", "values")),
            "json-stream" => format!("{} JSON values", self.values),
            _ => "JSON document".to_string(),
        };
        let records = match &stats.record_path {
            Some(path) => format!("{} at {path}", counted(self.records, "record", "records")),
            None => counted(self.records, "record", "records"),
        };
        let conditions = self.options.conditions.join(" and ");
        let mut complete = true;
        let mut returned_whole = false;
        let (summary, preview) = match self.plan.mode.clone() {
            Mode::Shape => match (self.whole.take())
                .filter(|_| self.values > 0 && self.invalid == self.text_before + self.text_among)
            {
                Some((values, _)) => {
                    for value in values {
                        out.emit(0, value);
                    }
                    // Strings cut to --max-string-chars the summary names already.
                    returned_whole = self.convert.cut_strings == 0;
                    let summary = match self.convert.cut_strings {
                        0 => format!("{what}, returned whole"),
                        n => format!(
                            "{what}, returned whole but for {} cut (whole in the artifact)",
                            counted(n, "long string", "long strings")
                        ),
                    };
                    (summary, Preview::Head)
                }
                None => {
                    complete = false;
                    let paths = self.shape.paths();
                    stats.paths = Some(paths.len());
                    let n = paths.len();
                    for path in paths {
                        out.emit(0, serde_json::to_value(path).unwrap_or(Value::Null));
                    }
                    let paths = counted(n as u64, "path", "paths");
                    let mut summary =
                        format!("{what}: shape of {paths} (path, type, count, examples)");
                    if let Some((path, len)) = self.shape.largest_array() {
                        let path = if path.is_empty() { "." } else { path };
                        let len = counted(len, "element", "elements");
                        summary.push_str(&format!("; largest array {path} ({len})"));
                    }
                    if self.shape.untracked > 0 {
                        summary.push_str(&format!(
                            "; values at {} more paths not tracked",
                            self.shape.untracked
                        ));
                    }
                    (summary, Preview::Summary)
                }
            },
            Mode::Records => {
                let mut summary = if conditions.is_empty() {
                    format!("{what}: {records}")
                } else {
                    format!("{what}: {} of {records} match {conditions}", self.matched)
                };
                if self.shown < self.matched {
                    summary.push_str(&format!("; first {} shown (--limit)", self.shown));
                }
                (
                    summary,
                    if conditions.is_empty() {
                        Preview::Head
                    } else {
                        Preview::Matches
                    },
                )
            }
            Mode::CountBy(path) => {
                let mut groups: Vec<(Value, u64)> =
                    self.groups.drain().map(|(_, group)| group).collect();
                groups.sort_by(|a, b| {
                    b.1.cmp(&a.1)
                        .then_with(|| a.0.to_string().cmp(&b.0.to_string()))
                });
                stats.groups = Some(groups.len() as u64);
                let top = self.options.top.unwrap_or(usize::MAX);
                let other: u64 =
                    groups.iter().skip(top).map(|g| g.1).sum::<u64>() + self.other_records;
                stats.other_records = Some(other);
                let largest = groups
                    .first()
                    .map(|(value, count)| {
                        format!(
                            "; largest {} ({count})",
                            briefly_core::cut_str(&value.to_string(), 60)
                        )
                    })
                    .unwrap_or_default();
                let n = groups.len();
                for (value, count) in groups.into_iter().take(top) {
                    out.emit(0, serde_json::json!({"value": value, "count": count}));
                }
                // Groups past --top are counted, not named: the artifact has them.
                if self.other_records > 0 || n > top {
                    complete = false;
                }
                let counted = if conditions.is_empty() {
                    records.clone()
                } else {
                    format!("{} of {records} matching {conditions}", self.matched)
                };
                let mut shown = match n > top {
                    true => format!("; the {top} largest shown (--top)"),
                    false => String::new(),
                };
                let mut in_groups = briefly_core::plural(n as u64, "group");
                if self.groups_taken > 0 {
                    let under = self.groups_taken;
                    stats.counts_under_by_at_most = Some(under);
                    in_groups = format!("over {MAX_GROUPS} groups");
                    let records = briefly_core::plural(under, "record");
                    shown.push_str(&format!(
                        "; counts at most {under} under, values of at most {records} may be missing"
                    ));
                    self.errors.push(format!(
                        "--count-by {path}: over {MAX_GROUPS} distinct values; the {} kept to the end count at most {under} under their values' records",
                        briefly_core::plural(n as u64, "group")
                    ));
                }
                (
                    format!("{what}: {counted} in {in_groups} by {path}{largest}{shown}"),
                    Preview::Ranked,
                )
            }
            Mode::Sort(path) => {
                let held = std::mem::take(&mut self.sorted).into_sorted_vec();
                let n = held.len();
                for held in held {
                    out.emit(0, held.item);
                }
                let matching = if conditions.is_empty() {
                    records.clone()
                } else {
                    format!("{} of {records} matching {conditions}", self.matched)
                };
                let order = if self.options.desc {
                    "largest"
                } else {
                    "smallest"
                };
                let direction = if self.options.desc {
                    ", largest first"
                } else {
                    ""
                };
                let mut summary = format!("{what}: {matching}, sorted by {path}{direction}");
                if (n as u64) < self.matched {
                    summary.push_str(&format!("; the {n} {order} kept"));
                }
                (summary, Preview::Ranked)
            }
        };
        let mut warnings = std::mem::take(&mut self.errors);
        // Each invalid or oversized value has its warning, up to MAX_ERRORS of them, and
        // the last line of text past them (a tool's error comes after its notices).
        let listed = warnings.len() as u64;
        warnings.extend(self.last_text.take());
        if self.invalid > listed {
            let text_lines = self.text_before + self.text_among;
            let values = self.invalid - text_lines;
            let mut parts = Vec::new();
            if values > 0 {
                parts.push(format!(
                    "{} did not parse",
                    counted(values, "value", "values")
                ));
            }
            if text_lines > 0 {
                let lines = counted(text_lines, "line of text", "lines of text");
                parts.push(format!("{lines} skipped"));
            }
            warnings.push(format!("{} in all", parts.join(" and ")));
        }
        for apart in &self.plan.apart {
            let paths: Vec<String> = (apart.iter())
                .map(|&i| self.options.conditions[i].clone())
                .collect();
            warnings.push(format!(
                "--where {}: one value asked to equal two, or one another condition rules out, so no \
                 element of the array they go through could meet them all: each is met by any \
                 element",
                paths.join(", ")
            ));
        }
        match &self.plan.mode {
            Mode::CountBy(path) if path.steps.contains(&Step::Each) && self.records > 0 => {
                warnings.push(format!(
                    "--count-by {path} goes through an array inside the records: a record is \
                     counted in the group of each of its elements' values, so the groups may \
                     add up to more than the records"
                ));
            }
            Mode::Sort(path) if path.steps.contains(&Step::Each) && self.records > 0 => {
                warnings.push(format!(
                    "--sort {path} goes through an array inside the records: a record is \
                     ordered by its first element's value"
                ));
            }
            _ => {}
        }
        for condition in &self.plan.conditions {
            let n = condition.not_numbers();
            if n > 0 {
                warnings.push(format!(
                    "--where {}: {} no number, left out (neither more nor less than {})",
                    condition.path,
                    counted(n, "value was", "values were"),
                    condition.text
                ));
            }
        }
        if self.records > 0 {
            for named in &self.unseen {
                // A path beside the array a `[]` path made the records is read in each
                // element: meant in each value (an NDJSON line's `ns` beside its
                // `containers[]`), it needs the records named.
                let hint = match (named.beside_records, &self.plan.record) {
                    (true, Some(record)) => format!(
                        "; the records are the elements of {record} and it is read in each: --records . makes each value of the input a record, {record} inside it"
                    ),
                    _ => String::new(),
                };
                warnings.push(format!(
                    "{}: no record has this path{hint} (`briefly json` without options lists the paths there are)",
                    named.text
                ));
            }
        }
        if self.convert.duplicate_keys > 0 {
            // The values dropped are the input's: the artifact keeps them.
            complete = false;
            warnings.push(format!(
                "{} in the items: the last value of each is kept (the raw input is in the artifact)",
                counted(self.convert.duplicate_keys, "duplicate key", "duplicate keys")
            ));
        }
        if self.duplicated_read > 0 {
            // Which value a filter, a count or a sort took decides its answer.
            complete = false;
            warnings.push(format!(
                "{} of a key its object has twice or more, by --where, --count-by, --sort or \
                 --fields: the last value was taken (the raw input is in the artifact)",
                counted(self.duplicated_read, "read", "reads")
            ));
        }
        // Whole numbers of 2^63 or more, and the first (`, the first 1e+23`).
        let wide = |tally: &Tally<f64>| {
            let first = (tally.first)
                .and_then(serde_json::Number::from_f64)
                .map_or_else(String::new, |n| format!(", the first {n}"));
            (counted(tally.count, "whole number", "whole numbers"), first)
        };
        if self.convert.wide.count > 0 {
            // Not the input's digits: the artifact keeps them.
            complete = false;
            let (numbers, first) = wide(&self.convert.wide);
            warnings.push(format!(
                "{numbers} of 2^63 or more in the items shown as the nearest double{first}: digits past the 17th may differ from the input's (the raw input is in the artifact)",
            ));
        }
        if self.wide_read.count > 0 {
            let (numbers, first) = wide(&self.wide_read);
            warnings.push(format!(
                "{numbers} of 2^63 or more compared, grouped or sorted by their nearest double{first}: numbers alike in their first 17 digits count as equal (the raw input is in the artifact)",
            ));
        }
        if let Some((place, text)) = self.first_prefix.take() {
            // The timestamps or tags are the input's: the artifact keeps them.
            complete = false;
            warnings.push(format!(
                "{} text before {} JSON, read past it (the items leave it out; the raw input is in the artifact); the first, {place}: {text}",
                counted(self.prefixed, "line began with", "lines began with"),
                if self.prefixed == 1 { "its" } else { "their" }
            ));
        }
        if let Some(first) = &self.huge_numbers.first {
            // Not the input's numbers: the artifact keeps them.
            complete = false;
            warnings.push(format!(
                "{} beyond a double's range read as the nearest double, ±{LARGEST} (the raw input is in the artifact); the first, {first}",
                counted(self.huge_numbers.count, "number", "numbers"),
            ));
        }
        if let Some(first) = &self.non_json_numbers.first {
            complete = false;
            warnings.push(format!(
                "{} NaN or Infinity (no JSON; Python's json.dumps writes them) read as strings, \"NaN\" (the raw input is in the artifact); the first, {first}",
                counted(self.non_json_numbers.count, "number written", "numbers written"),
            ));
        }
        if self.convert.cut_strings > 0 {
            complete = false;
        }
        if self.oversize > 0 || self.invalid > 0 || self.replaced_utf8 > 0 {
            complete = false;
        }
        if self.without_records > 0 {
            let record = (self.plan.record.as_ref())
                .map(|p| p.to_string())
                .unwrap_or_default();
            // A path meant in each element of the input's array, written without it.
            let hint = match self.array_without_records {
                true => format!(
                    " (the input is an array: `[].{record}` is that path in each of its elements)"
                ),
                false => String::new(),
            };
            warnings.push(format!(
                "{} no array at {record}{hint}",
                briefly_core::counted(self.without_records, "value has", "values have"),
            ));
        }
        let left_out = match self.plan.mode {
            Mode::Sort(_) => self.sorted_kept() as u64,
            Mode::Records => self.shown,
            _ => self.matched,
        } < self.matched;
        if left_out {
            // Past --limit (or the records --sort keeps): the raw input keeps them.
            complete = false;
        }
        let mut summary = summary;
        let no_json = self.values == 0 && self.text_before > 0;
        if self.values == 0 && self.invalid == 0 && self.oversize == 0 && self.prefixed == 0 {
            // Nothing was given to shape: no failure, but not a document of no paths;
            // and whitespace left out is nothing left out.
            complete = true;
            summary = match self.input_bytes {
                0 => "no JSON: the input is empty".to_string(),
                _ => "no JSON: the input is only whitespace".to_string(),
            };
        } else if no_json {
            // Nothing to shape, filter or count: the text is all there is.
            summary = format!(
                "no JSON in the input: {} skipped",
                counted(self.text_before, "line of text", "lines of text")
            );
        } else if self.text_before > 0 {
            summary.push_str(&format!(
                "; {} before it skipped",
                counted(self.text_before, "line of text", "lines of text")
            ));
        }
        if self.prefixed > 0 {
            summary.push_str(&format!(
                "; text before the JSON on {} read past",
                counted(self.prefixed, "line", "lines")
            ));
        }
        if self.text_among > 0 {
            summary.push_str(&format!(
                "; {} after a value skipped",
                counted(self.text_among, "line of text", "lines of text")
            ));
        }
        let text_lines = self.text_before + self.text_among;
        if self.invalid > text_lines {
            summary.push_str(&format!("; {} invalid", self.invalid - text_lines));
        }
        if self.oversize > 0 {
            // Neither matched nor counted as not matching: read, but not looked into.
            summary.push_str(&format!(
                "; {} over max-record-bytes, skipped",
                counted(self.oversize, "record", "records")
            ));
        }
        if self.oversize > 0 && self.invalid + self.oversize > listed {
            warnings.push(format!(
                "{} over max-record-bytes ({}) skipped in all (the raw input is in the artifact)",
                counted(self.oversize, "record", "records"),
                self.options.max_record_bytes
            ));
        }
        Outcome {
            // A tool's notice before its JSON (`npm warn …`) is no failure of the JSON;
            // text after a value may be one (kubectl's `Error from server`).
            ok: self.invalid == self.text_before && !no_json,
            summary,
            stats,
            preview,
            complete,
            warnings,
            returned_whole,
            // A record is of use whole: one cut would read as another's values.
            cut_next_item: false,
        }
    }

    fn sorted_kept(&self) -> usize {
        self.options.limit.unwrap_or(SORT_KEEP)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use briefly_core::testkit::reduce_all_chunkings;
    use briefly_core::{Envelope, RunConfig};
    use serde_json::json;

    fn run(input: &[u8], options: JsonOptions) -> Envelope {
        let config = RunConfig::new("json");
        reduce_all_chunkings(|| Json::new(options.clone()).unwrap(), input, &config)
    }

    fn with(f: impl FnOnce(&mut JsonOptions)) -> JsonOptions {
        let mut options = JsonOptions::default();
        f(&mut options);
        options
    }

    #[test]
    fn a_key_the_options_read_twice_in_its_object_is_warned_of_and_kept() {
        // `{"status":"ok","status":"failed"}`: the last is read, as parsers keep it; the
        // answer depends on it, so it is said, and the input kept.
        let input = br#"[{"id":1,"status":"ok","status":"failed"},{"id":2,"status":"ok"}]"#;
        let options: [fn(&mut JsonOptions); 4] = [
            |o| o.conditions = vec!["status=ok".into()],
            |o| o.count_by = Some("status".into()),
            |o| o.sort = Some("status".into()),
            |o| o.fields = vec!["status".into()],
        ];
        for set in options {
            let envelope = run(input, with(set));
            assert!(
                (envelope.warnings.iter())
                    .any(|w| w.starts_with("1 read of a key its object has twice or more")),
                "{:?}",
                envelope.warnings
            );
            assert!(envelope.truncated, "the input is kept");
        }
        // A path through no key its object has twice: the record shown says it has one.
        let envelope = run(input, with(|o| o.conditions = vec!["id=1".into()]));
        assert_eq!(
            envelope.warnings,
            ["1 duplicate key in the items: the last value of each is kept (the raw input is in the artifact)"]
        );
    }

    #[test]
    fn conditions_through_an_arrays_elements_are_met_by_one_element() {
        // AWS's `Reservations[].Instances[]`: the records are the reservations; the
        // first has a running m5 and a stopped t3, no running t3.
        let input = br#"{"Reservations":[{"Instances":[{"State":"running","Type":"m5","Tags":[{"Key":"Name","Value":"db"},{"Key":"env","Value":"web"}]},{"State":"stopped","Type":"t3"}]},{"Instances":[{"State":"running","Type":"t3","Tags":[{"Key":"Name","Value":"web"}]}]}]}"#;
        let matched = |conditions: &[&str]| {
            let options =
                with(|o| o.conditions = conditions.iter().map(|c| c.to_string()).collect());
            let envelope = run(input, options);
            let known = |w: &String| w.contains("Groups[].Name: no record has this path");
            assert!(
                envelope.warnings.iter().all(known),
                "{:?}",
                envelope.warnings
            );
            envelope.stats["matched"].as_u64().unwrap()
        };
        let running = "Reservations[].Instances[].State=running";
        assert_eq!(matched(&[running, "Reservations[].Instances[].Type=t3"]), 1);
        assert_eq!(matched(&[running, "Reservations[].Instances[].Type=m5"]), 1);
        assert_eq!(matched(&[running]), 2);
        // `!=` on the element: a t3 that is not running; alone, no instance running.
        let not_running = "Reservations[].Instances[].State!=running";
        assert_eq!(
            matched(&[not_running, "Reservations[].Instances[].Type=t3"]),
            1
        );
        assert_eq!(matched(&[not_running]), 0);
        // Together again inside the element: one tag that is Name=web (the first
        // reservation's instance has a Name and a web, in different tags).
        let tag = |key: &str, value: &str| {
            [
                format!("Reservations[].Instances[].Tags[].Key={key}"),
                format!("Reservations[].Instances[].Tags[].Value={value}"),
            ]
        };
        let [key, value] = tag("Name", "web");
        assert_eq!(matched(&[&key, &value]), 1);
        let [key, value] = tag("env", "web");
        assert_eq!(matched(&[&key, &value, running]), 1);
        // One value asked to equal two: no element could; each by any, said so.
        let both = with(|o| {
            o.conditions = vec![
                "Reservations[].Instances[].Type=t3".into(),
                "Reservations[].Instances[].Type=m5".into(),
                running.into(),
            ]
        });
        let envelope = run(input, both);
        assert_eq!(envelope.stats["matched"], 1);
        assert_eq!(
            envelope.warnings,
            [
                "--where Reservations[].Instances[].Type=t3, Reservations[].Instances[].Type=m5, \
              Reservations[].Instances[].State=running: one value asked to equal two, or one \
              another condition rules out, so no element of the array they go through could \
              meet them all: each is met by any element"
            ]
        );
        // So with one it equals that a regex, or `!=`, rules out; not one it allows.
        // (Apart, `~^m` is met by a record with a t3 and an m5; `!~` and `!=` by one
        // with none, so by no record with a t3; together, `~^t` by each t3.)
        let cases = [
            ("Type~^m", 1),
            ("Type!~^t", 0),
            ("Type!=t3", 0),
            ("Type~^t", 2),
            // An order against a number no text meets (apart: each by any element;
            // none is a number).
            ("Type>1", 0),
        ];
        for (other, matched) in cases {
            let conditions = vec![
                "Reservations[].Instances[].Type=t3".to_string(),
                format!("Reservations[].Instances[].{other}"),
            ];
            let envelope = run(input, with(|o| o.conditions = conditions.clone()));
            let apart = other != "Type~^t";
            assert_eq!(
                (envelope.warnings.iter()).any(|w| w.contains("one value asked to equal two")),
                apart,
                "{other}: {:?}",
                envelope.warnings
            );
            assert_eq!(envelope.stats["matched"], matched, "{other}");
        }
        // An order the equal value fails: apart, each by any element (one element 1,
        // another 12: met); one it meets, together.
        let orders = br#"[{"a":[{"n":1},{"n":12}]},{"a":[{"n":5}]}]"#;
        for (order, apart, matched) in [
            ("[].a[].n>9", true, 1),
            ("[].a[].n>1", true, 1),
            ("[].a[].n>=1", false, 1),
            ("[].a[].n<=1", false, 1),
            ("[].a[].n<1", true, 0),
            ("[].a[].n<=0.5", true, 0),
            ("[].a[].n<2", false, 1),
        ] {
            let conditions = vec!["[].a[].n=1".to_string(), order.to_string()];
            let envelope = run(orders, with(|o| o.conditions = conditions.clone()));
            assert_eq!(
                !envelope.warnings.is_empty(),
                apart,
                "{order}: {envelope:?}"
            );
            assert_eq!(envelope.stats["matched"], matched, "{order}");
        }
        // A string that writes a number is met by an order as that number.
        let written = br#"[{"a":[{"n":"7"}]}]"#;
        let conditions = vec![r#"[].a[].n="7""#.to_string(), "[].a[].n>5".to_string()];
        let envelope = run(written, with(|o| o.conditions = conditions.clone()));
        assert!(envelope.warnings.is_empty(), "{:?}", envelope.warnings);
        assert_eq!(envelope.stats["matched"], 1);
        // Numbers equal as numbers.
        let numbers = br#"[{"a":[{"n":1,"m":2}]}]"#;
        let same = with(|o| o.conditions = vec!["[].a[].n=1".into(), "[].a[].n=1.0".into()]);
        let envelope = run(numbers, same);
        assert!(envelope.warnings.is_empty(), "{:?}", envelope.warnings);
        assert_eq!(envelope.stats["matched"], 1);
        // Two tags' keys: one instance, each tag its own.
        let [name, _] = tag("Name", "");
        let [env, _] = tag("env", "");
        let keys = with(|o| o.conditions = vec![name.clone(), env.clone(), running.into()]);
        let envelope = run(input, keys);
        assert_eq!(envelope.stats["matched"], 1);
        assert!(envelope.warnings[0].starts_with(&format!("--where {name}, {env}: one value")));
        // An array's values themselves: each condition by any of them.
        let tags = br#"[{"t":["a","b"]},{"t":["a"]}]"#;
        let both = with(|o| o.conditions = vec!["[].t[]=a".into(), "[].t[]=b".into()]);
        assert_eq!(run(tags, both).stats["matched"], 1);
        // Conditions through different arrays: each alone.
        let apart = [
            "Reservations[].Instances[].Type=t3",
            "Reservations[].Groups[].Name=web",
        ];
        assert_eq!(matched(&apart), 0);
        // A sort through the array orders a record by its first element.
        let sort = with(|o| o.sort = Some("Reservations[].Instances[].Type".into()));
        assert_eq!(
            run(input, sort).warnings,
            [
                "--sort Instances[].Type goes through an array inside the records: a record is \
              ordered by its first element's value"
            ]
        );
        // A count through the array counts a record in each element's group.
        let count = with(|o| o.count_by = Some("Reservations[].Instances[].State".into()));
        let envelope = run(input, count);
        assert!(
            (envelope.warnings.iter()).any(|w| w.contains("add up to more than the records")),
            "{:?}",
            envelope.warnings
        );
    }

    fn document(n: usize) -> String {
        let items: Vec<Value> = (0..n)
            .map(|i| json!({"id": i, "status": if i == n / 2 { "failed" } else { "ok" }, "n": i % 7}))
            .collect();
        serde_json::to_string_pretty(&json!({"kind": "List", "items": items})).unwrap()
    }

    /// `doc` reduced with `--where items[].status=failed` and this document limit.
    fn failed_items(doc: &str, max_document_bytes: usize) -> Envelope {
        let options = with(|o| {
            o.conditions = vec!["items[].status=failed".into()];
            o.max_document_bytes = max_document_bytes;
        });
        run(doc.as_bytes(), options)
    }

    #[test]
    fn one_group_is_one() {
        let envelope = run(
            b"{\"a\": 1}\n{\"a\": 1}\n",
            with(|o| o.count_by = Some("a".into())),
        );
        assert!(
            envelope.summary.contains("2 records in 1 group by a"),
            "{}",
            envelope.summary
        );
    }

    #[test]
    fn ids_past_two_to_the_53_sort_exactly() {
        let input = b"{\"id\":1234567890123460701}\n{\"id\":1234567890123460342}\n{\"id\":1234567890123460454}\n";
        let envelope = run(
            input,
            with(|o| {
                o.sort = Some("id".into());
                o.desc = true;
            }),
        );
        let ids: Vec<String> = (envelope.items.iter())
            .map(|item| item["id"].to_string())
            .collect();
        assert_eq!(
            ids,
            [
                "1234567890123460701",
                "1234567890123460454",
                "1234567890123460342"
            ]
        );
        assert!(
            envelope.summary.ends_with("sorted by id, largest first"),
            "{}",
            envelope.summary
        );
    }

    #[test]
    fn values_written_one_after_another_on_a_line_are_each_read() {
        let a = with(|o| o.fields = vec!["a".into()]);
        let records = [json!({"a": 1}), json!({"a": 2}), json!({"a": 3})];
        // `gh api --paginate`'s pages; objects with or without spaces; on a later line.
        for input in [
            &b"[{\"a\":1}][{\"a\":2}][{\"a\":3}]"[..],
            b"[{\"a\":1}]\n[{\"a\":2}] [{\"a\":3}]\n",
            b"{\"a\":1}{\"a\":2}{\"a\":3}",
            b"{\"a\":1}\n{\"a\":2} {\"a\":3}\n",
        ] {
            let envelope = run(input, a.clone());
            let input = String::from_utf8_lossy(input);
            assert_eq!(envelope.items, records, "{input}: {envelope:?}");
            assert_eq!(envelope.stats["values"], 3, "{input}");
            assert!(envelope.warnings.is_empty(), "{input}: {envelope:?}");
        }
        // Not values of one kind, or not all values: the line as before.
        assert_eq!(concatenated(b"[1] {\"a\": 1}"), None);
        assert_eq!(concatenated(b"{\"a\": 1} {\"a\": 2} x"), None);
        assert_eq!(concatenated(b"{\"a\": 1}"), None);
        assert_eq!(concatenated(b"[1]  [2]"), Some(vec![0..3, 5..8]));
    }

    #[test]
    fn a_record_path_missing_from_an_arrays_elements_names_the_path_in_them() {
        let input = br#"[{"n": 1, "labels": [{"name": "bug"}]}, {"n": 2, "labels": []}]"#;
        let count_by = with(|o| o.count_by = Some("labels[].name".into()));
        let envelope = run(input, count_by);
        assert_eq!(
            envelope.warnings,
            ["1 value has no array at labels[] (the input is an array: `[].labels[]` is that path in each of its elements)"]
        );
        // An object without the array: no hint.
        let envelope = run(
            br#"{"n": 1}"#,
            with(|o| o.fields = vec!["labels[].name".into()]),
        );
        assert_eq!(envelope.warnings, ["1 value has no array at labels[]"]);
    }

    #[test]
    fn a_document_returned_whole_but_for_long_strings_says_so() {
        let doc = format!(
            "{{\"a\": \"{}\", \"b\": \"{}\"}}",
            "x".repeat(50),
            "y".repeat(5)
        );
        let cut = run(doc.as_bytes(), with(|o| o.max_string_chars = 20));
        assert_eq!(
            cut.summary,
            "JSON document (one line), returned whole but for 1 long string cut (whole in the artifact)"
        );
        assert!(cut.truncated);
        let whole = run(doc.as_bytes(), JsonOptions::default());
        assert_eq!(whole.summary, "JSON document (one line), returned whole");
    }

    #[test]
    fn a_whole_number_below_minus_2_63_is_read_as_a_double_not_refused() {
        // JSON allows it; simd-json refuses it: the record was lost as "invalid JSON".
        let input =
            b"{\"e\":-9223372036854775809,\"x\":1}\n{\"e\":-18446744073709551615,\"x\":2}\n";
        let envelope = run(input, with(|o| o.conditions = vec!["x>=1".into()]));
        assert_eq!(envelope.stats["invalid"], 0, "{envelope:?}");
        assert_eq!(envelope.items.len(), 2);
        assert_eq!(envelope.items[0]["e"].as_f64(), Some(-9.223372036854776e18));
        assert!(
            envelope.warnings[0].starts_with("2 whole numbers of 2^63 or more"),
            "{:?}",
            envelope.warnings
        );
        // A whole document too.
        let whole = run(&input[..33], JsonOptions::default());
        assert_eq!(whole.items.len(), 1, "{whole:?}");
        // Beside a number past a double's range, which is read as the nearest double.
        let both = run(
            b"{\"e\":-9223372036854775809,\"x\":1e400}\n",
            with(|o| o.conditions = vec!["x>=1".into()]),
        );
        assert_eq!(both.stats["invalid"], 0, "{both:?}");
        assert_eq!(both.items[0]["x"].as_f64(), Some(f64::MAX));
        assert!(
            both.warnings[1].ends_with("line 1 (byte 30): 1e400"),
            "{:?}",
            both.warnings
        );
    }

    #[test]
    fn numbers_past_a_doubles_digits_that_options_read_are_warned_of() {
        // 2^64 and 2^64 + 1: one double.
        let input = b"{\"v\": 18446744073709551616}\n{\"v\": 18446744073709551617}\n{\"v\": 7}\n";
        let warned = |options| run(input, options).warnings;
        let expected = "2 whole numbers of 2^63 or more compared, grouped or sorted by their nearest double, the first 1.8446744073709552e+19";
        for options in [
            with(|o| o.count_by = Some("v".into())),
            with(|o| o.conditions = vec!["v>1".into()]),
            with(|o| o.sort = Some("v".into())),
        ] {
            let warnings = warned(options);
            assert!(
                warnings.iter().any(|w| w.starts_with(expected)),
                "{warnings:?}"
            );
        }
        // Read by no option, they are not.
        let shape = warned(JsonOptions::default());
        assert!(!shape.iter().any(|w| w.contains("compared")), "{shape:?}");
        let small = run(
            b"{\"v\": 7}\n{\"v\": 1e3}\n",
            with(|o| o.count_by = Some("v".into())),
        );
        assert!(small.warnings.is_empty(), "{:?}", small.warnings);
    }

    #[test]
    fn count_by_groups_equal_objects_and_arrays_however_written() {
        let input = b"{\"l\": {\"team\": \"db\", \"env\": \"prod\"}}\n\
            {\"l\": {\"env\": \"prod\", \"team\": \"db\"}}\n\
            {\"l\": [1, 2.0]}\n{\"l\": [1, 2]}\n{\"l\": [2, 1]}\n{\"l\": {\"env\": \"prod\"}}\n";
        let envelope = run(input, with(|o| o.count_by = Some("l".into())));
        let counts: Vec<(&Value, &Value)> = (envelope.items.iter())
            .map(|item| (&item["value"], &item["count"]))
            .collect();
        assert_eq!(
            counts,
            [
                (&json!([1, 2.0]), &json!(2)),
                (&json!({"team": "db", "env": "prod"}), &json!(2)),
                (&json!([2, 1]), &json!(1)),
                (&json!({"env": "prod"}), &json!(1)),
            ],
            "{envelope:?}"
        );
    }

    #[test]
    fn a_value_comes_whole_up_to_whole_chars_exactly() {
        let whole = |input: &[u8], options| run(input, options).summary.contains("returned whole");
        // Compact, 18 characters in 8 nodes; pretty, many more bytes: what counts is the
        // compact JSON, over every value.
        for input in [
            &b"[0,[],{\"a\":[1,2]}]"[..],
            b"[\n  0,\n  [],\n  {\"a\": [1, 2]}\n]\n",
        ] {
            let chars = |n| with(move |o| o.whole_chars = n);
            let most = |n| with(move |o| o.whole_value_chars = Some(n));
            assert!(whole(input, chars(18)) && !whole(input, chars(17)));
            assert!(whole(input, most(18)) && !whole(input, most(17)));
        }
        // A digit is a value of one node in one character.
        assert!(whole(b"7", with(|o| o.whole_chars = 1)));
        let values = b"[1,2]\n[3]\n";
        assert!(whole(values, with(|o| o.whole_chars = 8)));
        assert!(!whole(values, with(|o| o.whole_chars = 7)));
    }

    #[test]
    fn the_summary_counts_in_the_singular_and_names_an_empty_input() {
        let one = run(b"{\"items\": [1]}", with(|o| o.whole_chars = 0));
        assert_eq!(
            one.summary,
            "JSON document (one line): shape of 3 paths (path, type, count, examples); \
             largest array items (1 element)"
        );
        let scalar = run(b"7", with(|o| o.whole_chars = 0));
        assert!(scalar.summary.contains("shape of 1 path "), "{scalar:?}");
        for (input, summary) in [
            (&b""[..], "no JSON: the input is empty"),
            (b" \n\r\n\t", "no JSON: the input is only whitespace"),
        ] {
            for options in [
                JsonOptions::default(),
                with(|o| o.fields = vec!["a".into()]),
            ] {
                let envelope = run(input, options);
                assert_eq!(envelope.summary, summary);
                assert!(envelope.ok && envelope.items.is_empty());
                assert!(!envelope.truncated && envelope.artifact_path.is_none());
            }
        }
        let record = run(b"{\"a\": 1}\n", with(|o| o.fields = vec!["a".into()]));
        assert_eq!(record.summary, "JSON document (one line): 1 record");
        assert_eq!(record.stats["format"], "json", "as its summary says");
        let at = run(
            b"{\"r\": [{\"a\": 1}]}",
            with(|o| o.fields = vec!["r[].a".into()]),
        );
        assert_eq!(at.summary, "JSON document (one line): 1 record at r[]");
    }

    #[test]
    fn a_path_no_record_has_is_warned_of() {
        let input =
            b"{\"a\": 1, \"u\": {\"login\": \"x\"}}\n{\"a\": 2, \"u\": {\"login\": \"y\"}}\n";
        let warned = |options: JsonOptions| {
            let envelope = run(input, options);
            envelope
                .warnings
                .iter()
                .filter(|w| w.contains("no record has this path"))
                .cloned()
                .collect::<Vec<_>>()
        };
        assert_eq!(
            warned(with(|o| o.conditions = vec!["stat=open".into()])),
            ["--where stat: no record has this path (`briefly json` without options lists the paths there are)"]
        );
        assert_eq!(
            warned(with(|o| o.count_by = Some("usr.login".into()))).len(),
            1
        );
        assert_eq!(warned(with(|o| o.fields = vec!["a,nope".into()])).len(), 1);
        // Paths that some record has: no warning.
        assert!(warned(with(|o| o.count_by = Some("u.login".into()))).is_empty());
        assert!(warned(with(|o| o.conditions = vec!["a=2".into()])).is_empty());
    }

    #[test]
    fn records_named_outright_are_the_values_or_the_array_given() {
        // Pods, one a line: `ns` beside each pod's `containers[]`.
        let pods = concat!(
            r#"{"name":"api-1","ns":"a","containers":[{"name":"app","ready":true},{"name":"side","ready":false}]}"#,
            "\n",
            r#"{"name":"api-2","ns":"a","containers":[{"name":"app","ready":true}]}"#,
            "\n",
            r#"{"name":"db-1","ns":"b","containers":[{"name":"pg","ready":false}]}"#,
            "\n",
        )
        .as_bytes();
        let names = |envelope: &Envelope| -> Vec<String> {
            (envelope.items.iter())
                .map(|item| item["name"].as_str().unwrap_or("?").to_string())
                .collect()
        };
        let not_ready_in_a = |records: Option<&str>| {
            run(
                pods,
                with(|o| {
                    o.records = records.map(str::to_string);
                    o.conditions = vec!["ns=a".into(), "containers[].ready=false".into()];
                }),
            )
        };
        // The first `[]` path makes the containers the records: `ns` is read in each,
        // and the warning says how to read it in each line.
        let chosen = not_ready_in_a(None);
        assert_eq!(chosen.stats["matched"], 0);
        assert_eq!(
            chosen.warnings,
            ["--where ns: no record has this path; the records are the elements of containers[] and it is read in each: --records . makes each value of the input a record, containers[] inside it (`briefly json` without options lists the paths there are)"]
        );
        // Named: each line is a record, a container of it not ready.
        let lines = not_ready_in_a(Some("."));
        assert_eq!(names(&lines), ["api-1"], "{lines:?}");
        assert_eq!(lines.stats["records"], 3);
        assert!(lines.stats.get("record_path").is_none(), "{lines:?}");
        assert!(lines.warnings.is_empty(), "{lines:?}");
        // A path named beside `--records`' own array is read in each element, unwarned
        // of a choice the user made (it is no path the containers have: the usual
        // warning alone).
        let given = not_ready_in_a(Some("containers[]"));
        assert_eq!(
            given.warnings,
            ["--where ns: no record has this path (`briefly json` without options lists the paths there are)"]
        );
        // `--records` alone lists the records, not the shape.
        let listed = run(pods, with(|o| o.records = Some("containers[]".into())));
        assert_eq!(names(&listed), ["app", "side", "app", "pg"], "{listed:?}");
        assert_eq!(listed.stats["record_path"], "containers[]");
        // An array is one record under `.`, its elements under `[]`.
        let array = br#"[{"n":1},{"n":2}]"#;
        let whole = run(array, with(|o| o.records = Some(".".into())));
        assert_eq!(whole.items, [json!([{"n": 1}, {"n": 2}])], "{whole:?}");
        let elements = run(
            array,
            with(|o| {
                o.records = Some("[]".into());
                o.conditions = vec!["n=2".into()];
            }),
        );
        assert_eq!(elements.items, [json!({"n": 2})], "{elements:?}");
        // NDJSON lines that are arrays: each line one record, not its elements.
        let lines_of_arrays = run(b"[1,2]\n[3]\n", with(|o| o.records = Some(".".into())));
        assert_eq!(lines_of_arrays.items, [json!([1, 2]), json!([3])]);
        // Counted and sorted by what is in the lines.
        let counted = run(
            pods,
            with(|o| {
                o.records = Some(".".into());
                o.count_by = Some("ns".into());
            }),
        );
        assert_eq!(
            counted.items,
            [
                json!({"value": "a", "count": 2}),
                json!({"value": "b", "count": 1})
            ]
        );
    }

    #[test]
    fn records_must_name_an_array_or_the_values() {
        for bad in ["containers", "containers[].name", "a[].b[]", "a..b", ""] {
            let error = Json::new(with(|o| o.records = Some(bad.into())))
                .err()
                .unwrap_or_else(|| panic!("{bad:?} was taken"));
            assert!(error.to_string().contains("--records"), "{bad:?}: {error}");
        }
        for good in [".", " . ", "[]", "items[]", "a.b[]"] {
            assert!(
                Json::new(with(|o| o.records = Some(good.into()))).is_ok(),
                "{good}"
            );
        }
    }

    #[test]
    fn a_document_too_large_to_hold_that_is_one_record_says_so() {
        let input = br#"[{"n":1},{"n":2},{"n":3}]"#;
        let envelope = run(
            input,
            with(|o| {
                o.records = Some(".".into());
                o.conditions = vec!["[].n=2".into()];
                o.max_document_bytes = 8;
            }),
        );
        assert!(
            (envelope.warnings.iter()).any(|w| w.contains("is one record under --records .")),
            "{envelope:?}"
        );
        assert!(!envelope.ok);
        // Its elements named the records, it streams.
        let streamed = run(
            input,
            with(|o| {
                o.records = Some("[]".into());
                o.conditions = vec!["n=2".into()];
                o.max_document_bytes = 8;
            }),
        );
        assert_eq!(streamed.items, [json!({"n": 2})], "{streamed:?}");
    }

    #[test]
    fn a_line_of_text_after_a_document_is_one_quoted_warning_and_the_json_goes_on() {
        // kubectl's JSON, then its error: the error is said whole, not as bad values.
        let kubectl = b"{\n  \"items\": [\n    {\"a\": 1}\n  ]\n}\nError from server (Forbidden): pods is forbidden\n";
        let envelope = run(kubectl, JsonOptions::default());
        assert_eq!(
            envelope.warnings,
            ["line 6 (byte 34): text after a JSON value, skipped: Error from server (Forbidden): pods is forbidden"]
        );
        assert_eq!(envelope.stats["text_among"], 1, "{envelope:?}");
        assert_eq!(envelope.stats["invalid"], 1);
        assert_eq!(envelope.stats["values"], 1);
        assert!(!envelope.ok);
        assert!(
            envelope
                .summary
                .ends_with("; 1 line of text after a value skipped"),
            "{}",
            envelope.summary
        );
        // A line opening with a byte no value begins with (it stopped the reading), and
        // documents after it; a line of scalars stays values.
        let among = b"{\n \"a\": 1\n}\n(node:42) Warning: x\n{\n \"a\": 2\n}\ntrue  null\n-7.5e3\n";
        let envelope = run(among, with(|o| o.fields = vec!["a".into()]));
        assert_eq!(envelope.stats["values"], 5, "{envelope:?}");
        assert_eq!(envelope.stats["text_among"], 1);
        assert_eq!(
            envelope.warnings,
            ["line 4 (byte 12): text after a JSON value, skipped: (node:42) Warning: x"]
        );
        assert_eq!(envelope.items[..2], [json!({"a": 1}), json!({"a": 2})]);
        // JSON lines after it: read on as a stream.
        let ndjson = run(
            b"{\n\"a\": 1\n}\noops\n{\"a\": 2}\n{bad\n",
            with(|o| o.fields = vec!["a".into()]),
        );
        assert_eq!(
            ndjson.items,
            [json!({"a": 1}), json!({"a": 2})],
            "{ndjson:?}"
        );
        assert_eq!(
            ndjson.warnings,
            [
                "line 4 (byte 11): text after a JSON value, skipped: oops",
                "line 6 (byte 26): expected a key, found 'b', in: {bad"
            ]
        );
    }

    #[test]
    fn the_last_line_of_text_is_said_past_the_listed_warnings_and_a_document_is_whole() {
        // kubectl with 2>&1: a deprecation notice before each namespace's list, then
        // the error that matters.
        let mut input = String::new();
        for ns in 0..8 {
            input.push_str(&format!(
                "Warning: v1 ComponentStatus is deprecated ({ns})\n"
            ));
            input.push_str("{\n  \"items\": [\n    {\"phase\": \"Running\"}\n  ]\n}\n");
        }
        input.push_str("Error from server (Forbidden): pods is forbidden\n");
        let envelope = run(
            input.as_bytes(),
            with(|o| o.count_by = Some("items[].phase".into())),
        );
        assert_eq!(envelope.warnings.len(), MAX_ERRORS + 2, "{envelope:?}");
        assert!(
            envelope.warnings[MAX_ERRORS].ends_with(
                ": text after a JSON value (the last such line), skipped: Error from server (Forbidden): pods is forbidden"
            ),
            "{:?}",
            envelope.warnings
        );
        assert_eq!(
            envelope.warnings[MAX_ERRORS + 1],
            "9 lines of text skipped in all"
        );
        // A small document with a line of text after it is returned whole, the line
        // said: its values are what the caller wants.
        let pod = "{\n  \"status\": {\"phase\": \"Failed\"}\n}\nError from server (NotFound): x\n";
        let envelope = run(pod.as_bytes(), JsonOptions::default());
        assert_eq!(
            envelope.items,
            [json!({"status": {"phase": "Failed"}})],
            "{envelope:?}"
        );
        assert_eq!(
            envelope.summary,
            "JSON document, returned whole; 1 line of text after a value skipped"
        );
    }

    #[test]
    fn values_after_a_streamed_document_are_counted_and_read_as_in_memory() {
        let mut input = String::from("[");
        for i in 0..300 {
            input.push_str(&format!("{}{{\"a\": {i}}}\n", if i > 0 { "," } else { "" }));
        }
        // Then arrays, an object, scalars, a string and a line of text between them.
        input.push_str("]\n[{\"a\": 1000}]\n{\"a\": 2000}\n7\n\"s\"\n");
        input.push_str("Error from server (Forbidden): x\n[{\"a\": 3000}]\n");
        for options in [
            with(|o| o.conditions = vec!["a>=299".into()]),
            with(|o| o.conditions = vec!["[].a>=299".into()]),
            with(|o| o.whole_chars = 0),
            with(|o| o.count_by = Some("a".into())),
        ] {
            let held = run(input.as_bytes(), options.clone());
            let mut small = options;
            small.max_document_bytes = 1000;
            let streamed = run(input.as_bytes(), small);
            assert_eq!(streamed.stats["streamed"], true, "{streamed:?}");
            assert_eq!(held.stats["values"], 6, "{held:?}");
            assert_eq!(held.stats["text_among"], 1, "{held:?}");
            for key in ["values", "records", "matched", "format", "invalid"] {
                assert_eq!(
                    held.stats.get(key),
                    streamed.stats.get(key),
                    "{key}: {streamed:?}"
                );
            }
            assert_eq!(held.items, streamed.items);
            assert_eq!(held.warnings, streamed.warnings);
            // Its line counted through the document, streamed or not.
            assert_eq!(
                streamed.warnings[0],
                "line 306 (byte 3524): text after a JSON value, skipped: Error from server (Forbidden): x"
            );
        }
        let matched = run(
            input.as_bytes(),
            with(|o| {
                o.conditions = vec!["a>=299".into()];
                o.max_document_bytes = 1000;
            }),
        );
        // The record of the top-level object after the arrays is read too, and the
        // array's after the line of text.
        assert_eq!(
            matched.items,
            [
                json!({"a": 299}),
                json!({"a": 1000}),
                json!({"a": 2000}),
                json!({"a": 3000})
            ]
        );
    }

    #[test]
    fn json_after_a_timestamp_or_a_tag_on_its_line_is_read_past_the_text() {
        // `kubectl logs --timestamps`: every line, the first too.
        let stamped = b"2024-01-05T10:00:00.1Z {\"level\":\"info\"}\r\n2024-01-05T10:00:01.2Z {\"level\":\"error\"}\n";
        let envelope = run(stamped, with(|o| o.fields = vec!["level".into()]));
        assert_eq!(
            envelope.items,
            [json!({"level": "info"}), json!({"level": "error"})]
        );
        assert_eq!(envelope.stats["format"], "ndjson");
        assert_eq!(envelope.stats["prefixed"], 2);
        assert_eq!(envelope.stats["invalid"], 0);
        assert!(envelope.ok);
        assert_eq!(
            envelope.summary,
            "NDJSON, 2 values: 2 records; text before the JSON on 2 lines read past"
        );
        // What was read past is said, and kept in the artifact.
        assert_eq!(
            envelope.warnings,
            ["2 lines began with text before their JSON, read past it (the items leave it out; the raw input is in the artifact); the first, line 1 (byte 0): 2024-01-05T10:00:00.1Z"]
        );
        assert!(envelope.truncated);
        // Among NDJSON lines and after a notice; a tag; text with a brace before the
        // object; a bad object after text stays a bad line; `{…} x` is no such line,
        // and `{…} {…}` two values.
        let mixed = b"npm warn x\n{\"a\": 1}\n[WARN] {\"a\": 2}\nsaw {b} at\t{\"a\": 3}\nat 4 {\"a\":}\n{\"a\": 5} {\"a\": 6}\n{\"a\": 7} x\n";
        let envelope = run(mixed, with(|o| o.fields = vec!["a".into()]));
        let a = |n| json!({ "a": n });
        assert_eq!(envelope.items, [a(1), a(2), a(3), a(5), a(6)]);
        assert_eq!(envelope.stats["prefixed"], 2);
        assert_eq!(envelope.stats["text_before"], 1);
        assert_eq!(envelope.stats["invalid"], 3);
        assert!(
            envelope.warnings[3].starts_with("2 lines began with"),
            "{envelope:?}"
        );
        assert!(envelope.warnings[3].ends_with("line 3 (byte 20): [WARN]"));
        // One line, alone: the singular.
        let one = run(b"[INFO] {\"a\": 1}", JsonOptions::default());
        assert_eq!(one.items, [json!({"a": 1})]);
        assert!(one.warnings[0].starts_with("1 line began with text before its JSON"));
        // Text that opens a document over the lines after it, after a label: read from
        // its bracket.
        for (input, value) in [
            (&b"data = {\n  \"a\": 1\n}\n"[..], json!({"a": 1})),
            (b"Response: [\r\n 1,\r\n 2\r\n]\r\n", json!([1, 2])),
        ] {
            let document = run(input, JsonOptions::default());
            assert_eq!(document.items, [value], "{document:?}");
            assert_eq!(document.stats["format"], "json");
            assert_eq!(document.stats["prefixed"], 1);
        }
        // A line of code is no label: its next lines are text, and the JSON after them
        // is read.
        let code = run(
            b"fn main() {\n    run();\n}\n{\"a\": 1}\n",
            with(|o| o.fields = vec!["a".into()]),
        );
        assert_eq!(code.items, [json!({"a": 1})], "{code:?}");
        // The input ends inside the document its last line opens: said.
        let open = run(b"Response: {", JsonOptions::default());
        assert!(!open.ok, "{open:?}");
        assert!(
            open.warnings[0].contains("input ends inside an object"),
            "{open:?}"
        );
        // A line of text over the line limit is quoted by its head, with its length.
        let long = format!("INFO {{\"a\":\"{}\"}}\n{{\"b\":1}}\n", "x".repeat(2000));
        let cut = run(long.as_bytes(), with(|o| o.max_record_bytes = 100));
        assert_eq!(cut.items, [json!({"b": 1})]);
        let warning = &cut.warnings[0];
        assert!(
            warning
                .starts_with("line 1 (byte 0): text before the JSON, skipped: INFO {\"a\":\"xxx"),
            "{warning}"
        );
        assert!(
            warning.ends_with("x…[a line of 2013 bytes, cut]"),
            "{warning}"
        );
        // After a document (a stream of values), a stamped line is a value too.
        let stream = run(
            b"{\n\"a\": 1\n}\nT1 {\"a\": 2}\n",
            with(|o| o.fields = vec!["a".into()]),
        );
        assert_eq!(stream.items, [json!({"a": 1}), json!({"a": 2})]);
        assert_eq!(stream.stats["prefixed"], 1);
        assert_eq!(stream.stats["invalid"], 0);
    }

    #[test]
    fn an_order_against_a_number_counts_each_value_that_is_none() {
        let input = b"{\"v\": 1}\n{\"v\": 10}\n{\"v\": \"abc\"}\n{\"v\": null}\n{\"v\": true}\n{\"v\": [5]}\n{\"v\": {\"a\": 5}}\n{\"w\": 7}\n";
        let envelope = run(input, with(|o| o.conditions = vec!["v>5".into()]));
        assert_eq!(envelope.items, [json!({"v": 10})]);
        // The string, the null, the boolean, the array and the object; not the record
        // without the value.
        assert_eq!(
            envelope.warnings,
            ["--where v: 5 values were no number, left out (neither more nor less than 5)"]
        );
    }

    #[test]
    fn a_line_opening_with_a_number_or_a_bracket_then_a_word_is_text() {
        let notices = b"123 packages installed\ntrue story\n[1]+ Done  make\n[42] INFO x\nnull pointer\n{\"a\": 1}\n{\"a\": 2}\n";
        let envelope = run(notices, JsonOptions::default());
        assert_eq!(envelope.items, [json!({"a": 1}), json!({"a": 2})]);
        assert_eq!(envelope.stats["text_before"], 5);
        assert_eq!(envelope.stats["values"], 2);
        assert!(envelope.ok);
        // Each is quoted whole, from its first byte.
        assert_eq!(
            envelope.warnings[..3],
            [
                "line 1 (byte 0): text before the JSON, skipped: 123 packages installed",
                "line 2 (byte 23): text before the JSON, skipped: true story",
                "line 3 (byte 34): text before the JSON, skipped: [1]+ Done  make"
            ]
        );
        // Values side by side on a line are values still, and so is one at the end.
        for (input, values) in [
            (&b"1 2\n"[..], vec![json!(1), json!(2)]),
            (b"[1] {\"a\": 1}\n", vec![json!([1]), json!({"a": 1})]),
            (b"[3, 4]  ", vec![json!([3, 4])]),
        ] {
            let envelope = run(input, JsonOptions::default());
            assert_eq!(envelope.items, values);
            assert_eq!(envelope.stats["invalid"], 0);
        }
        // A string then a word is text too; and a key and its colon, whose object's
        // opening was on a line of text: no string value is made up of it.
        let opening_lost = run(
            b"\"str\" word\nINFO {\n  \"a\": 1\n}\n{\"b\": 2}\n",
            with(|o| o.fields = vec!["b".into()]),
        );
        assert_eq!(opening_lost.items, [json!({"b": 2})], "{opening_lost:?}");
        assert_eq!(opening_lost.stats["text_before"], 3);
        assert_eq!(opening_lost.stats["values"], 1);
        // A word on the next line is no part of the value's line.
        let next_line = run(b"7\nok\n", JsonOptions::default());
        assert_eq!(
            next_line.warnings,
            ["line 2 (byte 2): text after a JSON value, skipped: ok"]
        );
        // Among NDJSON lines, JSON before an object is no text to read past, and the
        // line (an array, then more) is text after a value: NDJSON has one value a line.
        let ndjson = run(
            b"{\"a\": 0}\n[1] {\"a\": 1}\n",
            with(|o| o.fields = vec!["a".into()]),
        );
        assert_eq!(ndjson.items, [json!({"a": 0})]);
        assert_eq!(
            (
                ndjson.stats["text_among"].as_u64(),
                ndjson.stats.get("prefixed")
            ),
            (Some(1), None)
        );
        // After a document: the line is text among the values, from its number on.
        let among = run(
            b"{\n\"a\": 1}\n7 apples\n{\"b\": 2}\n",
            JsonOptions::default(),
        );
        assert_eq!(among.items, [json!({"a": 1}), json!({"b": 2})]);
        assert_eq!(among.stats["text_among"], 1);
        assert_eq!(
            among.warnings,
            ["line 3 (byte 10): text after a JSON value, skipped: 7 apples"]
        );
        // An array of records, or a long one, then a word on its line (curl's `-w
        // 'HTTP %{http_code}'`): the array is a value, the word text after it.
        let long: Vec<u32> = (0..40).collect();
        for (input, items) in [
            (
                b"[{\"a\": 1}, {\"a\": 2}]HTTP 200\n".to_vec(),
                vec![json!({"a": 1}), json!({"a": 2})],
            ),
            (
                format!("{}HTTP 200\n", json!(long)).into_bytes(),
                long[..10].iter().map(|&n| json!(n)).collect(),
            ),
        ] {
            let envelope = run(&input, with(|o| o.limit = Some(10)));
            assert_eq!(envelope.items, items, "{envelope:?}");
            assert_eq!(envelope.stats["text_among"], 1, "{envelope:?}");
        }
    }

    #[test]
    fn a_value_bad_on_its_own_line_costs_that_line_not_the_json_after_it() {
        let fields = || with(|o| o.fields = vec!["a".into()]);
        let before = run(b"{notjson} hello\n{\"a\": 1}\n{\"a\": 2}\n", fields());
        assert_eq!(before.items, [json!({"a": 1}), json!({"a": 2})]);
        assert_eq!(
            before.warnings,
            ["line 1 (byte 1): expected a key, found 'n', in: {notjson} hello"]
        );
        // Failing at its first byte: one warning.
        let closing = run(b"}\n{\"a\": 2}\n", fields());
        assert_eq!(closing.items, [json!({"a": 2})]);
        assert_eq!(closing.warnings, ["line 1 (byte 0): unexpected '}', in: }"]);
        // A bad value is no notice: the JSON failed.
        assert_eq!(before.stats["invalid"], 1);
        assert!(!before.ok);
        // After a document, and a string's brackets are no brackets.
        let after = run(b"{\n\"a\": 1}\n{\"s\": \"{{\", x}\n{\"a\": 2}\n", fields());
        assert_eq!(after.items, [json!({"a": 1}), json!({"a": 2})]);
        assert_eq!(
            after.warnings,
            ["line 3 (byte 22): expected a key, found 'x', in: {\"s\": \"{{\", x}"]
        );
        // The first line of a document over several lines (or a later one): the rest
        // is no JSON of its own, and the reading stops there as before.
        for input in [
            &b"{\n\"a\": 1,\nbad}\n{\"a\": 3}\n"[..],
            &b"{ bad\n \"a\": 1\n}\n{\"a\": 3}\n"[..],
            b"{\"s\": \"}\", bad\n\"x\"}\n{\"a\": 3}\n",
        ] {
            let document = run(input, fields());
            assert!(document.items.is_empty(), "{document:?}");
            assert_eq!(document.warnings.len(), 1, "{document:?}");
            assert_eq!(document.stats["format"], "json");
        }
    }

    #[test]
    fn a_line_of_text_before_ndjson_is_one_bad_line_and_the_records_are_read() {
        let fields = || with(|o| o.fields = vec!["a".into()]);
        let envelope = run(b"starting up\n{\"a\": 1}\n{\"a\": 2}\n", fields());
        assert_eq!(envelope.items, [json!({"a": 1}), json!({"a": 2})]);
        assert_eq!(envelope.stats["format"], "ndjson");
        assert_eq!(envelope.stats["invalid"], 1);
        assert_eq!(envelope.stats["text_before"], 1);
        // What the text says is kept: it may be what matters.
        assert_eq!(
            envelope.warnings,
            ["line 1 (byte 0): text before the JSON, skipped: starting up"]
        );
        assert_eq!(
            envelope.summary,
            "NDJSON, 2 values: 2 records; 1 line of text before it skipped"
        );
        // A tool's notice before its JSON is no failure of the JSON.
        assert!(envelope.ok);
        // After blank lines, and beginning like a number: the lines are counted.
        let dated = run(b"\n\n2024-01-01 boot\n{\"a\": 1}\n{bad\n", fields());
        assert_eq!(dated.items, [json!({"a": 1})]);
        assert_eq!(
            dated.warnings,
            [
                "line 3 (byte 2): text before the JSON, skipped: 2024-01-01 boot",
                "line 5 (byte 28): key must be a string, in: {bad"
            ]
        );
        // The bad line is no value, as a bad first line is not.
        assert_eq!(dated.stats["values"], 1);
        assert_eq!(dated.stats["invalid"], 2);
        assert_eq!(
            dated.summary,
            "NDJSON, 1 value: 1 record; 1 line of text before it skipped; 1 invalid"
        );
        // Before a document over several lines (a tool's notice, then its JSON): the
        // document is read, and returned whole when small.
        let notice = b"npm warn config production Use `--omit=dev`\n\n{\n  \"a\": [1,\n 2]\n}\n";
        let document = run(notice, JsonOptions::default());
        assert_eq!(document.items, [json!({"a": [1, 2]})], "{document:?}");
        assert_eq!(
            document.summary,
            "JSON document, returned whole; 1 line of text before it skipped"
        );
        let shape = run(notice, with(|o| o.whole_chars = 0));
        assert_eq!(shape.items[1]["path"], "a", "{shape:?}");
        // A line that opens with a bracketed tag is text, not a bad array; an array of
        // scalars is still JSON.
        let tagged = run(
            b"[WARN] slow\n[2024-01-05 10:00:00] up\n[notice] x\n{\"a\": 1}\n{\"a\": 2}\n",
            fields(),
        );
        assert_eq!(
            tagged.items,
            [json!({"a": 1}), json!({"a": 2})],
            "{tagged:?}"
        );
        assert_eq!(
            tagged.warnings,
            [
                "line 1 (byte 0): text before the JSON, skipped: [WARN] slow",
                "line 2 (byte 12): text before the JSON, skipped: [2024-01-05 10:00:00] up",
                "line 3 (byte 37): text before the JSON, skipped: [notice] x"
            ]
        );
        for array in [&b"[true, -1.5e3]\n"[..], b"[\n  null,\n  \"x\"\n]\n"] {
            let array = run(array, JsonOptions::default());
            assert!(array.ok && array.warnings.is_empty(), "{array:?}");
        }
        // A bad array over several lines is a bad document (its good elements read), not
        // a tag and lines: its first word ends at a comma, or on a line after the
        // bracket's.
        for bad in [&b"[abc, 1,\n 2,\n 3\n]\n"[..], b"[\nWARN] x\n{\"a\": 1}\n"] {
            let bad = run(bad, JsonOptions::default());
            assert_eq!(bad.stats.get("text_before"), None, "{bad:?}");
        }
        // Among NDJSON lines, a tagged line is text after a value, as any line of text
        // there is: counted so, not as a value.
        let among = run(
            b"{\"a\": 1}\n[WARN] slow\n{\"a\": 2}\nDone.\n[1]+ Done\n",
            fields(),
        );
        assert_eq!(
            among.warnings,
            [
                "line 2 (byte 9): text after a JSON value, skipped: [WARN] slow",
                "line 4 (byte 30): text after a JSON value, skipped: Done.",
                "line 5 (byte 36): text after a JSON value, skipped: [1]+ Done"
            ]
        );
        assert_eq!(among.stats["text_among"], 3);
        assert_eq!(among.stats["values"], 2);
        // A bad array is no text, though its first element is no JSON either.
        let bad_array = run(b"{\"a\": 1}\n[abc, 1]\n{\"a\": 2}\n", fields());
        assert_eq!(
            bad_array.warnings,
            ["line 2 (byte 10): expected value, in: [abc, 1]"]
        );
        assert_eq!(bad_array.stats["values"], 2);
        assert_eq!(bad_array.summary, "NDJSON, 2 values: 2 records; 1 invalid");
        // Text alone is no JSON; past the first lines, text is bad NDJSON lines.
        let text = run(b"a\nb\n", JsonOptions::default());
        assert_eq!(
            text.summary, "no JSON in the input: 2 lines of text skipped",
            "{text:?}"
        );
        assert!(!text.ok);
        // Without its last newline, the same.
        let unended = run(b"a\nb", JsonOptions::default());
        assert_eq!(unended.summary, text.summary);
        assert_eq!(unended.stats["text_before"], 2, "{unended:?}");
        // However many lines of text come first, and a document after them.
        let long: String = (0..40).map(|i| format!("text {i}\n")).collect();
        let text = run(long.as_bytes(), JsonOptions::default());
        assert_eq!(text.stats["text_before"], 40, "{text:?}");
        assert_eq!(text.stats["invalid"], 40, "{text:?}");
        let document = run(format!("{long}{{\n \"a\": 1\n}}\n").as_bytes(), fields());
        assert_eq!(document.items, [json!({"a": 1})], "{document:?}");
        assert_eq!(document.stats["text_before"], 40);
        // A line of text among NDJSON lines (a tool's error after its output) is quoted
        // as text; a bad JSON line, with why it is bad.
        let failed = run(
            b"{\"a\": 1}\nError from server (Forbidden): pods \"web-7\" is forbidden\n{\"a\": 2,}\n",
            fields(),
        );
        assert_eq!(
            failed.warnings,
            [
                "line 2 (byte 9): text after a JSON value, skipped: Error from server (Forbidden): pods \"web-7\" is forbidden",
                "line 3 (byte 74): key must be a string, in: {\"a\": 2,}"
            ],
            "{failed:?}"
        );
        // Scalars that are JSON stay values, even two on a line.
        let scalars = run(b"\"x\" 4\n5\n", JsonOptions::default());
        assert_eq!(scalars.items, [json!("x"), json!(4), json!(5)]);
        assert!(scalars.warnings.is_empty(), "{scalars:?}");
    }

    #[test]
    fn a_trailing_comma_is_no_json_and_costs_no_record() {
        // jq and Python refuse them; the records before it are read.
        let count_a = || with(|o| o.count_by = Some("a".into()));
        let array = run(b"[{\"a\":1},{\"a\":2},]\n", count_a());
        assert_eq!(array.stats["records"], 2, "{array:?}");
        assert_eq!(array.stats["invalid"], 1, "{array:?}");
        assert_eq!(array.warnings, ["line 1 (byte 17): trailing comma"]);
        assert!(!array.ok);
        let object = run(b"{\"a\":1,}", JsonOptions::default());
        assert_eq!(
            object.warnings,
            ["line 1 (byte 7): trailing comma"],
            "{object:?}"
        );
        // Commas between values, and empty containers, are JSON.
        let fine = run(b"[1, 2, [3,4], {\"a\":[]}, {}]", JsonOptions::default());
        assert!(fine.ok && fine.warnings.is_empty(), "{fine:?}");
    }

    #[test]
    fn a_bad_record_in_a_document_held_whole_costs_only_itself() {
        // As when the document is streamed: the good records are read.
        let count_v = || with(|o| o.count_by = Some("v".into()));
        let input = br#"[{"v":1},{"v":01},{"v":3},{"v":1,}]"#;
        let held = run(input, count_v());
        assert_eq!(
            held.items,
            [
                json!({"value": 1, "count": 1}),
                json!({"value": 3, "count": 1})
            ],
            "{held:?}"
        );
        assert_eq!(held.stats["invalid"], 2, "{held:?}");
        let streamed = run(
            input,
            with(|o| {
                o.count_by = Some("v".into());
                o.max_document_bytes = 16;
            }),
        );
        assert_eq!(held.items, streamed.items);
        // Shape mode too: the paths of the good records.
        let shape = run(input, JsonOptions::default());
        assert!(
            shape.items.iter().any(|item| item["path"] == "[].v"),
            "{shape:?}"
        );
    }

    #[test]
    fn a_document_broken_inside_that_no_path_splits_says_where_it_broke() {
        // Not "larger than max-document-bytes": it is 20 bytes.
        let broken = run(
            b"{\n\"b\": [\n1\n2\n]\n}\n{\"a\": 3}\n",
            with(|o| o.fields = vec!["a".into()]),
        );
        assert_eq!(
            broken.warnings,
            ["line 4 (byte 11): expected ',' or a closing bracket, found '2'; the input from there on is not read (the artifact keeps it)"]
        );
        assert!(!broken.ok);
    }

    #[test]
    fn a_record_that_breaks_json_inside_it_costs_only_itself() {
        // A stray comma, a missing one, a missing colon: on one line, over several
        // lines, under a record path, held whole or streamed.
        let count_v = |max_document_bytes| {
            with(|o| {
                o.count_by = Some("[].v".into());
                o.max_document_bytes = max_document_bytes;
            })
        };
        let one_line = br#"[{"v":1},{"v":2,,"w":1},{"v":3 "s": "\"]}"},{"v":4}]"#;
        let pretty = b"[\n {\"v\": 1},\n {\"v\": 2\n  \"w\": 1},\n {\"v\": 3}\n]\n";
        // A stray quote: the quotes after it, paired the other way round, would make
        // strings of the brackets of every record after it. Right after a string, or
        // later on the line (a string ends with its line); two strings with no comma
        // between them are no stray.
        let stray_quote = b"[\n {\"v\": 1},\n {\"v\": 2, \"s\": \"a\"b\"},\n {\"v\": 3}\n]\n";
        let stray_later = b"[\n {\"v\": 1},\n {\"v\": 2, \"s\": \"a\" b\"\n },\n {\"v\": 3}\n]\n";
        let no_comma = b"[\n {\"v\": 1},\n {\"v\": 2, \"s\": \"a\"\"t\": 1},\n {\"v\": 3}\n]\n";
        let stray_in_key = b"[\n {\"v\": 1},\n {\"v\": 2, \"na\"me\": 1},\n {\"v\": 3}\n]\n";
        let after_number = b"[\n {\"v\": 1},\n {\"v\": 2 3, \"s\": \"x\"},\n {\"v\": 3}\n]\n";
        let cases = [
            (&one_line[..], [1, 4], 2),
            (stray_in_key, [1, 3], 1),
            (after_number, [1, 3], 1),
            (pretty, [1, 3], 1),
            (stray_quote, [1, 3], 1),
            (stray_later, [1, 3], 1),
            (no_comma, [1, 3], 1),
        ];
        for (input, good, bad) in cases {
            for max_document_bytes in [1 << 20, 16] {
                let envelope = run(input, count_v(max_document_bytes));
                let counted = good.map(|v| json!({"value": v, "count": 1}));
                let input = String::from_utf8_lossy(input);
                assert_eq!(envelope.items, counted, "{input}: {envelope:?}");
                assert_eq!(envelope.stats["invalid"], bad, "{input}");
                assert_eq!(envelope.stats["values"], 1, "{input}");
            }
        }
        let held = run(pretty, count_v(1 << 20));
        assert_eq!(
            held.warnings,
            ["line 4 (byte 24): expected ',' or a closing bracket, found '\"': the record at byte 14 skipped"]
        );
        // Under a record path, and with the shape of the good records.
        let items = b"{\"items\": [\n {\"v\": 1, \"ok\": true},\n {\"v\": 2,, \"ok\": false},\n {\"v\": 3}\n]}\n";
        let envelope = run(items, with(|o| o.count_by = Some("items[].v".into())));
        let counted = [1, 3].map(|v| json!({"value": v, "count": 1}));
        assert_eq!(envelope.items, counted, "{envelope:?}");
        let shape = run(items, JsonOptions::default());
        assert!(
            shape.items.iter().any(|item| item["path"] == "items[].ok"),
            "{shape:?}"
        );
    }

    #[test]
    fn a_value_printed_over_lines_among_ndjson_is_one_value_and_the_lines_go_on() {
        let fields = || with(|o| o.fields = vec!["a".into()]);
        // jq's `-c` and then its pretty output; an array too, as on one line.
        let input = b"{\"a\": 1}\n{\n  \"a\": 2,\n  \"b\": \"{\\n[\"\n}\n{\"a\": 3}\n  [\n  4\n  ]\n{\"a\": 5}\n{\n\"a\": 6}\n";
        let envelope = run(input, fields());
        assert_eq!(
            envelope.items,
            [
                json!({"a": 1}),
                json!({"a": 2}),
                json!({"a": 3}),
                json!({}),
                json!({"a": 5}),
                json!({"a": 6})
            ],
            "{envelope:?}"
        );
        assert_eq!(envelope.stats["format"], "ndjson");
        assert_eq!(envelope.stats["values"], 6);
        assert!(envelope.warnings.is_empty(), "{:?}", envelope.warnings);
        // One that breaks: its error where it broke, and the lines read on from there
        // (each line after it that is no JSON is one of text).
        let broken = b"{\"a\": 1}\n{\n  \"a\": 2\n  \"b\": 1\n}\n{\"a\": 3}\n";
        let envelope = run(broken, fields());
        assert_eq!(envelope.items, [json!({"a": 1}), json!({"a": 3})]);
        assert_eq!(
            envelope.warnings,
            [
                "line 4 (byte 22): expected ',' or a closing bracket, found '\"', in a value over several lines",
                "line 4 (byte 22): text after a JSON value, skipped: \"b\": 1",
                "line 5 (byte 29): text after a JSON value, skipped: }"
            ]
        );
        assert_eq!(envelope.stats["values"], 2);
        assert_eq!(envelope.stats["format"], "ndjson");
        // Broken inside a container in it: the same (it was read again as a document too
        // large, and the lines after it were lost).
        let nested = b"{\"a\": 1}\n{\n\"b\": [\n1\n2\n]\n}\n{\"a\": 2}\n";
        let envelope = run(nested, fields());
        assert_eq!(
            envelope.items,
            [json!({"a": 1}), json!({}), json!({"a": 2})],
            "{envelope:?}"
        );
        assert_eq!(
            envelope.warnings,
            [
                "line 5 (byte 20): expected ',' or a closing bracket, found '2', in a value over several lines",
                "line 6 (byte 22): text after a JSON value, skipped: ]",
                "line 7 (byte 24): text after a JSON value, skipped: }"
            ]
        );
        // A bracket and a form feed, which is no JSON space: the value breaks on its first
        // line, and the lines after it are read (they were lost).
        let feed = run(b"{\"a\": 1}\n{\x0c\n{\"a\": 3}\n{\"a\": 4}\n", fields());
        assert_eq!(
            feed.items,
            [json!({"a": 1}), json!({"a": 3}), json!({"a": 4})]
        );
        assert_eq!(feed.stats["invalid"], 1, "{feed:?}");
        // One over the document limit that no path splits: the input from it on is not
        // read, and the warning says so.
        let big = b"{\"a\": 1}\n{\n  \"a\": 2,\n  \"b\": [1, 2, 3, 4, 5, 6, 7, 8]\n}\n{\"a\": 3}\n";
        let envelope = run(
            big,
            with(|o| {
                o.fields = vec!["a".into()];
                o.max_document_bytes = 24;
            }),
        );
        assert_eq!(envelope.items, [json!({"a": 1})]);
        assert_eq!(
            envelope.warnings,
            ["the document at byte 9 is larger than 24 bytes (max-document-bytes) and is not an array: name the array whose elements are the records with a [] path (e.g. --where items[].status=failed, or --records items[]); the input from it on is not read (the artifact keeps it)"]
        );
        // A bracket alone and then NDJSON: the NDJSON line is read.
        let opened = run(b"{\"a\": 1}\n{\n{\"a\": 3}\n", fields());
        assert_eq!(opened.items, [json!({"a": 1}), json!({"a": 3})]);
        assert_eq!(
            opened.warnings,
            ["line 3 (byte 11): expected a key, found '{', in a value over several lines"]
        );
        // Cut off at the end.
        let cut = run(b"{\"a\": 1}\n{\n  \"a\": [1,\n", fields());
        assert_eq!(cut.items, [json!({"a": 1})]);
        assert_eq!(cut.stats["format"], "ndjson");
        assert_eq!(
            cut.warnings,
            ["line 4 (byte 22): input ends inside an array opened at byte 18 (2 levels deep): truncated"]
        );
    }

    #[test]
    fn ndjson_lines_of_arrays_are_split_alike() {
        // The first line's array is split into records: every line's is.
        let input = b"[{\"a\":1},{\"a\":2}]\n[{\"a\":3}]\n[{\"a\":1}]\n";
        let envelope = run(input, with(|o| o.count_by = Some("a".into())));
        assert_eq!(
            envelope.items,
            [
                json!({"value": 1, "count": 2}),
                json!({"value": 2, "count": 1}),
                json!({"value": 3, "count": 1})
            ]
        );
        assert_eq!(envelope.stats["records"], 4);
    }

    #[test]
    fn a_scalar_ending_the_input_is_a_whole_value() {
        for input in [&b"42"[..], b"true", b"\"hi\"", b"  -1.5e3"] {
            let envelope = run(input, JsonOptions::default());
            assert_eq!(envelope.stats["values"], 1, "{envelope:?}");
            assert!(envelope.ok && envelope.warnings.is_empty(), "{envelope:?}");
            assert_eq!(envelope.stats.get("streamed"), None, "{envelope:?}");
        }
    }

    const HUGE_AT_LINE_3: &str = "1 number beyond a double's range read as the nearest double, ±1.7976931348623157e+308 (the raw input is in the artifact); the first, line 3 (byte 4): 1e400";
    const HUGE_AT_LINE_5: &str = "1 number beyond a double's range read as the nearest double, ±1.7976931348623157e+308 (the raw input is in the artifact); the first, line 5 (byte 12): 1e400";

    #[test]
    fn a_warning_s_line_is_the_same_held_or_streamed() {
        let cases: [(&[u8], &[&str]); 7] = [
            // An escaped newline is no line, and no control character in a string.
            (b"{\"a\":\"\\n\",}", &["line 1 (byte 10): trailing comma"]),
            (
                b"[{\"s\":\"a\\nb\"},\n{\"a\":2},\n{\"a\":3},]\nError x\n",
                &[
                    "line 3 (byte 32): trailing comma",
                    "line 4 (byte 34): text after a JSON value, skipped: Error x",
                ],
            ),
            // What the input's end tells: on its last line.
            (
                b"{\n}\noops",
                &["line 3 (byte 4): text after a JSON value, skipped: oops"],
            ),
            (b"{\n}\n1e400", &[HUGE_AT_LINE_3]),
            (b"[\n1\n]\n{\"a\":\n1e400}\n", &[HUGE_AT_LINE_5]),
            (
                b"{\"x\":[\n1,\n],\n\"y\":[",
                &[
                    "line 3 (byte 10): trailing comma",
                    "line 4 (byte 18): input ends inside an array opened at byte 17 (2 levels deep): truncated",
                ],
            ),
            // A bad record in a document read in pieces.
            (
                b"[{\"a\":1},\n{\"a\":2,},\n{\"a\":3}]",
                &["line 2 (byte 17): key must be a string"],
            ),
        ];
        for (input, warnings) in cases {
            let held = run(input, JsonOptions::default());
            let streamed = run(input, with(|o| o.max_document_bytes = 5));
            let text = String::from_utf8_lossy(input);
            assert_eq!(held.warnings, warnings, "{text}");
            assert_eq!(streamed.warnings, warnings, "{text}, streamed");
            assert_eq!(held.stats["records"], streamed.stats["records"], "{text}");
        }
    }

    #[test]
    fn an_event_s_line_is_counted_from_the_bytes_fed_in_any_order() {
        let lines = LineOf::new(10, b"a\nb\nc", Some(5));
        assert_eq!(lines.at(14), 7);
        assert_eq!(lines.at(12), 6, "an earlier offset after a later one");
        assert_eq!(lines.at(3), 5, "before the bytes fed: on their first line");
        assert_eq!(lines.at(100), 7, "past them: on their last");
        assert_eq!(LineOf::unknown().at(5), 0);
    }

    #[test]
    fn a_byte_order_mark_opening_the_input_is_read_past() {
        // As PowerShell writes a file; jq reads it.
        let envelope = run(b"\xef\xbb\xbf{\"a\": 1}", JsonOptions::default());
        assert_eq!(envelope.items, [json!({"a": 1})]);
        assert!(envelope.ok && envelope.warnings.is_empty(), "{envelope:?}");
        let ndjson = run(
            b"\xef\xbb\xbf{\"a\": 1}\n{\"a\": 2}\n",
            with(|o| o.fields = vec!["a".into()]),
        );
        assert_eq!(ndjson.items, [json!({"a": 1}), json!({"a": 2})]);
        // Offsets in warnings count the mark, as the artifact holds it.
        let text_after = run(
            b"\xef\xbb\xbf{\n\"a\": 1}\nError x\n",
            JsonOptions::default(),
        );
        assert_eq!(
            text_after.warnings,
            ["line 3 (byte 13): text after a JSON value, skipped: Error x"]
        );
        let bad_line = run(
            b"\xef\xbb\xbf{\"a\":1}\n{\"a\": 2,}\n",
            JsonOptions::default(),
        );
        assert_eq!(
            bad_line.warnings,
            ["line 2 (byte 19): key must be a string, in: {\"a\": 2,}"]
        );
        // Bytes that only begin like one are the input's, and as invalid as before.
        let half = run(b"\xef\xbb{\"a\": 1}", JsonOptions::default());
        assert!(!half.ok);
        assert_eq!(half.stats["invalid"], 1);
        let short = run(b"\xef\xbb", JsonOptions::default());
        assert_eq!(short.stats["invalid"], 1, "{short:?}");
        // An input shorter than a mark is read too.
        let seven = run(b"7", JsonOptions::default());
        assert_eq!(seven.items, [json!(7)], "{seven:?}");
        assert_eq!(seven.stats["invalid"], 0);
    }

    #[test]
    fn finds_the_failing_record_in_memory_and_streamed() {
        let doc = document(300);
        for max_document_bytes in [1 << 20, 2000] {
            let envelope = failed_items(&doc, max_document_bytes);
            assert_eq!(
                envelope.items,
                [json!({"id": 150, "status": "failed", "n": 3})]
            );
            assert_eq!(envelope.total_items, 1);
            assert_eq!(envelope.stats["records"], 300);
            let streamed = envelope.stats.get("streamed").is_some_and(|s| s == true);
            assert_eq!(streamed, max_document_bytes == 2000);
        }
    }

    #[test]
    fn an_integer_beyond_64_bits_is_read_as_a_double_and_warned_of() {
        // One such number used to make the whole document invalid.
        let doc = document(300).replacen("\"n\": 3", "\"n\": 100000000000000000000000", 1);
        for max_document_bytes in [1 << 20, 2000] {
            let envelope = failed_items(&doc, max_document_bytes);
            assert_eq!(envelope.stats["records"], 300, "{max_document_bytes}");
            assert_eq!(envelope.items.len(), 1, "{max_document_bytes}");
        }
        let ndjson = "{\"id\": 12345678901234567890123}\n{\"id\": 7}\n";
        let envelope = run(ndjson.as_bytes(), with(|o| o.fields = vec!["id".into()]));
        assert_eq!(
            envelope.items,
            [json!({"id": 1.2345678901234568e22}), json!({"id": 7})]
        );
        assert_eq!(envelope.stats["invalid"], 0);
        assert!(
            envelope
                .warnings
                .iter()
                .any(|w| w.starts_with("1 whole number of 2^63")
                    && w.contains("the nearest double, the first 1.2345678901234568e+22:")),
            "{:?}",
            envelope.warnings
        );
        assert!(envelope.truncated, "the input's digits are in the artifact");
        // A value alone on its line is a document, not NDJSON of one value.
        let one = run(b"{\"v\": 1}\n", with(|o| o.fields = vec!["v".into()]));
        assert!(
            one.summary.starts_with("JSON document (one line)"),
            "{}",
            one.summary
        );
    }

    #[test]
    fn numbers_past_a_doubles_range_and_pythons_nan_are_read_and_warned_of() {
        let fields = || with(|o| o.fields = vec!["a".into(), "s".into()]);
        let ndjson = b"{\"a\": 1}\n{\"a\": 1e400, \"s\": \"NaN 1e400\"}\n{\"a\": -2.5E+999}\n{\"a\": NaN}\n{\"a\": -Infinity}\n{\"a\": Infinity}\n";
        let envelope = run(ndjson, fields());
        assert_eq!(
            envelope.items,
            [
                json!({"a": 1}),
                json!({"a": f64::MAX, "s": "NaN 1e400"}),
                json!({"a": -f64::MAX}),
                json!({"a": "NaN"}),
                json!({"a": "-Infinity"}),
                json!({"a": "Infinity"}),
            ]
        );
        assert_eq!(envelope.stats["invalid"], 0);
        assert_eq!(
            envelope.warnings,
            [
                "2 numbers beyond a double's range read as the nearest double, ±1.7976931348623157e+308 (the raw input is in the artifact); the first, line 2 (byte 15): 1e400",
                "3 numbers written NaN or Infinity (no JSON; Python's json.dumps writes them) read as strings, \"NaN\" (the raw input is in the artifact); the first, line 4 (byte 63): NaN"
            ]
        );
        assert!(
            envelope.truncated,
            "the input's numbers are in the artifact"
        );
        // In a document read whole, and in one read in pieces: the same values, the
        // pieces placed where they are in the input.
        let doc = b"{\"items\": [{\"a\": 1e400}, {\"a\": NaN}, {\"a\": 2}]}";
        for max_document_bytes in [1 << 20, 30] {
            let envelope = run(
                doc,
                with(|o| {
                    o.fields = vec!["items[].a".into()];
                    o.max_document_bytes = max_document_bytes;
                }),
            );
            assert_eq!(
                envelope.items,
                [json!({"a": f64::MAX}), json!({"a": "NaN"}), json!({"a": 2})],
                "{max_document_bytes}"
            );
            assert_eq!(envelope.warnings.len(), 2, "{:?}", envelope.warnings);
            assert!(
                envelope.warnings[0].ends_with("line 1 (byte 17): 1e400"),
                "{:?}",
                envelope.warnings
            );
        }
        // Numbers JSON's grammar refuses stay errors (`01`, `1.`, `NaNa`), and with one
        // of them beside, a huge number's record is read as the rest of its document is.
        for bad in ["01", "1.", "NaNa", "-Infinityx", "1e"] {
            let line = format!("{{\"a\": 1}}\n{{\"a\": {bad}}}\n");
            let envelope = run(line.as_bytes(), with(|o| o.fields = vec!["a".into()]));
            assert_eq!(envelope.stats["invalid"], 1, "{bad}: {envelope:?}");
            assert_eq!(envelope.warnings.len(), 1, "{bad}: {envelope:?}");
        }
        let mixed = b"[\n {\"a\": 1e400},\n {\"a\": 01}\n]\n";
        let envelope = run(mixed, fields());
        assert_eq!(envelope.stats["records"], 1, "{envelope:?}");
        assert_eq!(envelope.warnings[0], "line 3 (byte 25): invalid number");
    }

    #[test]
    fn tells_json_numbers_by_the_grammar() {
        for good in ["0", "-0", "1", "12", "1.5", "-1.5e10", "1E+400", "0.0e-0"] {
            assert!(is_json_number(good.as_bytes()), "{good}");
        }
        for bad in [
            "", "-", "01", "1.", ".5", "1e", "1e+", "+1", "1.5.5", "--1", "1-",
        ] {
            assert!(!is_json_number(bad.as_bytes()), "{bad}");
        }
        let rewritten = rewrite_numbers(b"[1e400,\"1e400\\\"NaN\",NaN]").unwrap();
        assert_eq!(
            String::from_utf8_lossy(&rewritten.text),
            "[1.7976931348623157e+308,\"1e400\\\"NaN\",\"NaN\"]"
        );
        assert_eq!((rewritten.huge.count, rewritten.words.count), (1, 1));
        assert_eq!(rewritten.words.first, Some((20, "NaN".into())));
        assert!(rewritten_none(b"[1, 1e308, \"NaN\", true]"));
    }

    fn rewritten_none(text: &[u8]) -> bool {
        rewrite_numbers(text).is_none()
    }

    #[test]
    fn a_document_cut_off_gives_its_records_up_to_the_cut() {
        let doc = document(300);
        // Cut inside record 200's object: the records before it are whole.
        let cut = doc.find("\"id\": 200").unwrap();
        let doc = &doc[..cut];
        for max_document_bytes in [1 << 20, 2000] {
            let envelope = failed_items(doc, max_document_bytes);
            assert_eq!(
                envelope.items,
                [json!({"id": 150, "status": "failed", "n": 3})],
                "{max_document_bytes}"
            );
            assert_eq!(envelope.stats["records"], 200, "{max_document_bytes}");
            assert_eq!(envelope.stats["invalid"], 1, "{max_document_bytes}");
            assert!(!envelope.warnings.is_empty());
        }
        // Its shape too.
        let shape = run(doc.as_bytes(), JsonOptions::default());
        let status = shape
            .items
            .iter()
            .find(|p| p["path"] == "items[].status")
            .unwrap_or_else(|| panic!("{}", shape.to_json()));
        assert_eq!(status["count"], 200);
    }

    #[test]
    fn a_document_overflowing_by_more_than_a_piece_is_streamed_whole() {
        let doc = document(12_000);
        // The bytes read before it overflows are handed to the streaming scanner in pieces.
        let max_document_bytes = doc.len() - 1000;
        assert!(max_document_bytes > 2 * STREAM_PIECE, "{}", doc.len());
        let envelope = failed_items(&doc, max_document_bytes);
        assert_eq!(
            envelope.items,
            [json!({"id": 6000, "status": "failed", "n": 1})]
        );
        assert_eq!(envelope.stats["records"], 12_000);
        assert_eq!(envelope.stats["streamed"], true);
        // One value, as when it is held: the summary says what it is (it said "no JSON in
        // the input").
        assert_eq!(envelope.stats["values"], 1);
        assert!(
            envelope.summary.starts_with("JSON document"),
            "{}",
            envelope.summary
        );
    }

    #[test]
    fn a_path_of_few_values_counts_each() {
        let long = "x".repeat(41);
        let records: Vec<Value> = (0..40)
            .map(|i| {
                let mut record = json!({
                    "ten": i % 10, "eleven": i % 11, "long": long, "short": &long[1..],
                    "flag": i == 7,
                });
                if i < 3 {
                    record["rare"] = json!(i);
                }
                record["one"] = [json!(1), json!(1.0), json!(1), json!("1")][i % 4].clone();
                record["zero"] = [json!(0), json!(-0.0)][i % 2].clone();
                record
            })
            .collect();
        let ndjson: String = records.iter().map(|r| format!("{r}\n")).collect();
        let envelope = run(ndjson.as_bytes(), with(|o| o.whole_chars = 0));
        let values = |path: &str| {
            let shape = envelope.items.iter().find(|p| p["path"] == path).unwrap();
            shape.get("values").cloned()
        };
        let ten: Vec<Value> = (0..10).map(|n| json!([n, 4])).collect();
        assert_eq!(values("ten"), Some(Value::from(ten)));
        assert_eq!(values("flag"), Some(json!([[false, 39], [true, 1]])));
        // A number however written, as --count-by groups them; a string apart.
        assert_eq!(values("one"), Some(json!([[1, 30], ["1", 10]])));
        assert_eq!(values("zero"), Some(json!([[0, 40]])));
        assert_eq!(values("short"), Some(json!([[&long[1..], 40]])));
        // Too many, too long, none repeated: data, not kinds.
        assert_eq!(values("eleven"), None);
        assert_eq!(values("long"), None);
        assert_eq!(values("rare"), None);
    }

    #[test]
    fn shape_in_memory_and_streamed_agree_on_the_records() {
        let doc = document(200);
        let small = run(doc.as_bytes(), JsonOptions::default());
        let streamed = run(doc.as_bytes(), with(|o| o.max_document_bytes = 1000));
        for envelope in [&small, &streamed] {
            let status = envelope
                .items
                .iter()
                .find(|p| p["path"] == "items[].status")
                .expect("the path is in the shape");
            assert_eq!(status["count"], 200);
            assert_eq!(status["examples"], json!(["ok", "failed"]));
            let items = envelope
                .items
                .iter()
                .find(|p| p["path"] == "items")
                .unwrap();
            assert_eq!(items["len"], "200");
        }
    }

    #[test]
    fn a_lone_surrogate_escape_is_u_fffd_not_nul() {
        let envelope = run(b"{\"s\":\"a\\ud83dxyz\"}\n", JsonOptions::default());
        assert_eq!(envelope.items, [json!({"s": "a\u{fffd}xyz"})]);
        assert!(envelope.warnings[0]
            .ends_with("a lone surrogate escape (half of a UTF-16 pair) replaced by U+FFFD"));
    }

    #[test]
    fn count_by_past_its_groups_still_finds_the_frequent_values() {
        // Every value once up to the cap, then one value 20,000 times: it is found, its
        // count at most the rounds of taking under, and the result says so.
        let mut input = String::new();
        for i in 0..MAX_GROUPS + 10 {
            input += &format!(
                "{{\"ip\":\"10.{}.{}.{}\"}}\n",
                i >> 16,
                (i >> 8) & 255,
                i & 255
            );
        }
        for _ in 0..20_000 {
            input += "{\"ip\":\"203.0.113.66\"}\n";
        }
        let envelope = run(
            input.as_bytes(),
            with(|o| {
                o.count_by = Some("ip".into());
                o.top = Some(3);
            }),
        );
        let under = envelope.stats["counts_under_by_at_most"].as_u64().unwrap();
        assert!((1..=10).contains(&under), "{under}");
        assert_eq!(envelope.items[0]["value"], "203.0.113.66");
        let count = envelope.items[0]["count"].as_u64().unwrap();
        assert!(count <= 20_000 && count + under >= 20_000, "{count}");
        // Every record is in a group shown or in `other`.
        let shown: u64 = envelope
            .items
            .iter()
            .map(|i| i["count"].as_u64().unwrap())
            .sum();
        let other = envelope.stats["other_records"].as_u64().unwrap();
        assert_eq!(shown + other, (MAX_GROUPS + 10 + 20_000) as u64);
        assert!(
            envelope
                .summary
                .contains(&format!("in over {MAX_GROUPS} groups by ip"))
                && envelope
                    .summary
                    .contains(&format!("counts at most {under} under")),
            "{}",
            envelope.summary
        );
        assert_eq!(envelope.warnings.len(), 1, "{:?}", envelope.warnings);
    }

    #[test]
    fn ndjson_counts_sorts_projects_and_limits() {
        let lines: String = (0..50)
            .map(|i| {
                format!(
                    "{{\"id\":{i},\"level\":\"{}\",\"ms\":{}}}\n",
                    ["info", "warn", "error"][i % 3],
                    (i * 37) % 101
                )
            })
            .collect();
        let count = run(
            lines.as_bytes(),
            with(|o| o.count_by = Some("level".into())),
        );
        assert_eq!(count.stats["format"], "ndjson");
        assert_eq!(count.items[0], json!({"value": "info", "count": 17}));
        assert_eq!(count.total_items, 3);
        let top = run(
            lines.as_bytes(),
            with(|o| {
                o.count_by = Some("level".into());
                o.top = Some(1);
            }),
        );
        assert_eq!(top.items.len(), 1);
        assert_eq!(top.stats["other_records"], 33);
        // A number is one group however written; a null is the group of the missing.
        let mixed = "{\"v\":7}\n{\"v\":7.0}\n{\"v\":7e0}\n{\"v\":\"7\"}\n{\"v\":null}\n{}\n";
        let groups = run(mixed.as_bytes(), with(|o| o.count_by = Some("v".into())));
        assert_eq!(
            groups.items,
            [
                json!({"value": 7, "count": 3}),
                json!({"value": null, "count": 2}),
                json!({"value": "7", "count": 1})
            ]
        );
        let sorted = run(
            lines.as_bytes(),
            with(|o| {
                o.sort = Some("ms".into());
                o.desc = true;
                o.limit = Some(2);
                o.fields = vec!["id,ms".into()];
            }),
        );
        assert_eq!(
            sorted.items,
            [json!({"id": 30, "ms": 100}), json!({"id": 19, "ms": 97})]
        );
        let limited = run(
            lines.as_bytes(),
            with(|o| {
                o.conditions = vec!["level=error".into(), "ms>50".into()];
                o.limit = Some(3);
            }),
        );
        assert_eq!(limited.total_items, 3);
        assert!(limited.stats["matched"].as_u64().unwrap() > 3);
    }

    #[test]
    fn small_input_is_returned_whole() {
        let envelope = run(br#"{"a": [1, 2], "b": "x"}"#, JsonOptions::default());
        assert_eq!(envelope.items, [json!({"a": [1, 2], "b": "x"})]);
        assert!(!envelope.truncated);
    }

    #[test]
    fn bad_input_is_reported_with_its_offset() {
        let cases: [(&[u8], &str); 5] = [
            (
                b"{\"a\": [1, 2",
                "line 1 (byte 11): input ends inside an array",
            ),
            (b"{\"a\": 1}\n}", "line 2 (byte 9)"),
            (b"{\"a\":\n Nope}", "line 2 (byte 7): expected value"),
            (b"[\n1,\n2]]", "line 3 (byte 7): unexpected ']'"),
            (b"{\"s\": \"a\xffb\"}\n", "invalid UTF-8 replaced"),
        ];
        for (input, expected) in cases {
            let envelope = run(input, JsonOptions::default());
            let warnings = envelope.warnings.join("; ");
            assert!(
                warnings.contains(expected),
                "{:?}: {warnings}",
                String::from_utf8_lossy(input)
            );
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let mut deep = "[".repeat(100_000);
        deep.push_str(&"]".repeat(100_000));
        let envelope = run(deep.as_bytes(), JsonOptions::default());
        assert!(!envelope.ok);
        assert!(
            envelope.warnings[0].contains("(byte 512): nesting deeper than 512 levels"),
            "{:?}",
            envelope.warnings
        );
        // On one line (NDJSON's path: simd-json, then the depth check).
        let line = format!("{{\"a\":1}}\n{deep}\n");
        let envelope = run(line.as_bytes(), JsonOptions::default());
        assert!(
            envelope.warnings[0].contains("line 2 (byte 8): nesting deeper"),
            "{:?}",
            envelope.warnings
        );
    }

    #[test]
    fn long_strings_are_cut_and_oversized_records_skipped() {
        let long = "x".repeat(5000);
        // The first line may be a document (held up to max-document-bytes): lines after
        // it are records (held up to max-record-bytes).
        let input = format!("{{\"s\":\"y\"}}\n{{\"s\":\"{long}\"}}\n");
        let cut = run(input.as_bytes(), with(|o| o.limit = Some(10)));
        assert!(cut.items[1]["s"]
            .as_str()
            .unwrap()
            .ends_with("…[cut 4000 chars]"));
        assert!(cut.truncated);
        let skipped = run(
            input.as_bytes(),
            with(|o| {
                o.limit = Some(10);
                o.max_record_bytes = 1000;
            }),
        );
        assert_eq!(skipped.items, [json!({"s": "y"})]);
        assert!(
            skipped
                .summary
                .ends_with("; 1 record over max-record-bytes, skipped"),
            "{}",
            skipped.summary
        );
        assert!(
            skipped.warnings[0].contains("line 2 (byte 10) is over max-record-bytes"),
            "{:?}",
            skipped.warnings
        );
    }

    #[test]
    fn options_that_do_not_go_together_are_errors() {
        for options in [
            with(|o| {
                o.count_by = Some("a".into());
                o.sort = Some("b".into());
            }),
            with(|o| o.top = Some(3)),
            with(|o| o.desc = true),
            with(|o| o.conditions = vec!["a".into()]),
            with(|o| o.fields = vec!["a..b".into()]),
        ] {
            assert!(Json::new(options).is_err());
        }
    }

    /// A small deterministic generator.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    fn random_value(rng: &mut Rng, depth: u32, out: &mut String) {
        match rng.below(if depth > 3 { 5 } else { 8 }) {
            0 => out.push_str("null"),
            1 => out.push_str(["true", "false"][rng.below(2) as usize]),
            2 => out.push_str(&format!("{}", rng.below(1000) as i64 - 500)),
            3 => out.push_str(&format!("{}.5e-1", rng.below(100))),
            4 => out.push_str(
                ["\"ok\"", "\"failed\"", "\"a\\\"b]}\"", "\"\\u00e9\""][rng.below(4) as usize],
            ),
            5 | 6 => {
                out.push('{');
                for i in 0..rng.below(4) {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(
                        ["\"status\":", "\"items\":", "\"n\":", "\"k\\\"\":"]
                            [rng.below(4) as usize],
                    );
                    random_value(rng, depth + 1, out);
                }
                out.push('}');
            }
            _ => {
                out.push('[');
                for i in 0..rng.below(5) {
                    if i > 0 {
                        out.push_str(",\n ");
                    }
                    random_value(rng, depth + 1, out);
                }
                out.push(']');
            }
        }
    }

    #[test]
    fn random_and_broken_input_never_panics_and_is_the_same_in_any_chunking() {
        for seed in 1..=150u64 {
            let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
            let mut text = String::new();
            let values = 1 + rng.below(6);
            let pretty = rng.below(2) == 0;
            for _ in 0..values {
                random_value(&mut rng, 0, &mut text);
                text.push_str(if pretty { " \n\n" } else { "\n" });
            }
            let mut input = text.into_bytes();
            match rng.below(5) {
                0 => input.truncate(rng.below(input.len() as u64 + 1) as usize),
                1 => {
                    let at = rng.below(input.len() as u64 + 1) as usize;
                    input.insert(at, [b'}', b']', b',', 0xff, b'"'][rng.below(5) as usize]);
                }
                _ => {}
            }
            let options = with(|o| {
                match rng.below(5) {
                    0 => o.conditions = vec!["status=failed".into()],
                    1 => o.conditions = vec!["items[].status!=ok".into()],
                    2 => {
                        o.count_by =
                            Some(["status", "items[].n", "[]"][rng.below(3) as usize].into())
                    }
                    3 => o.sort = Some("n".into()),
                    _ => {}
                }
                o.max_document_bytes = [20, 200, 1 << 20][rng.below(3) as usize];
                o.max_record_bytes = [10, 100, 1 << 20][rng.below(3) as usize];
                o.max_depth = [2, 5, 512][rng.below(3) as usize];
                o.whole_chars = [0, 4000][rng.below(2) as usize];
            });
            let mut config = RunConfig::new("json");
            config.budget = briefly_core::Budget::default()
                .with_max_chars(1000 + rng.below(5000) as usize)
                .unwrap();
            reduce_all_chunkings(|| Json::new(options.clone()).unwrap(), &input, &config);
        }
    }

    /// The envelope of `input` in every chunking, with values deferred or always scanned.
    fn deferred_and_scanned(input: &[u8], options: &JsonOptions) -> (Envelope, Envelope) {
        let config = RunConfig::new("json");
        let envelope = |defer: bool| {
            let make = || {
                let mut json = Json::new(options.clone()).unwrap();
                json.defer = defer;
                json
            };
            let mut envelope = reduce_all_chunkings(make, input, &config);
            envelope.artifact_path = None;
            envelope.artifact_expires = None;
            envelope.next_cursor = None;
            envelope
        };
        (envelope(true), envelope(false))
    }

    #[test]
    fn a_deferred_document_reads_as_the_scanner_reads_it() {
        let doc = document(400);
        let escaped = doc.replace("\"ok\"", "\"o\\u006b\\n\"");
        let mut cases: Vec<Vec<u8>> = vec![
            doc.clone().into_bytes(),
            format!("\n \t{doc}\n\n  \n").into_bytes(),
            escaped.clone().into_bytes(),
            // Several documents, the first spanning lines: a stream, scanned at the end.
            format!("{doc}\n{doc}\n").into_bytes(),
            format!("{doc} 1").into_bytes(),
            format!("{escaped}\n{{\"a\":1}}").into_bytes(),
            // Bad: truncated, a stray bracket, bad UTF-8, nesting past max-depth.
            doc.as_bytes()[..doc.len() - 3].to_vec(),
            format!("{doc}]").into_bytes(),
            escaped.replacen("\"kind\"", "\"kind\" 1,", 1).into_bytes(),
            doc.replacen("List", "L\u{0}st", 1).into_bytes(),
            doc.replacen("List", "L\\qst", 1).into_bytes(),
            format!("[\n{}{}]", "[".repeat(600), "]".repeat(600)).into_bytes(),
            format!("[\n{}{}]", "[".repeat(510), "]".repeat(510)).into_bytes(),
        ];
        let mut bad_utf8 = doc.clone().into_bytes();
        bad_utf8[40] = 0xff;
        cases.push(bad_utf8);
        for input in &cases {
            for options in [
                with(|o| o.conditions = vec!["items[].status=failed".into()]),
                JsonOptions::default(),
                with(|o| o.count_by = Some("items[].n".into())),
                // Over half of it: deferred, then caught up and streamed.
                with(|o| {
                    o.conditions = vec!["items[].status=failed".into()];
                    o.max_document_bytes = input.len() * 2 / 3;
                }),
                with(|o| o.max_document_bytes = input.len() / 3),
            ] {
                let (deferred, scanned) = deferred_and_scanned(input, &options);
                assert_eq!(
                    deferred,
                    scanned,
                    "{options:?} on {:?}",
                    String::from_utf8_lossy(&input[..80.min(input.len())])
                );
            }
        }
    }

    #[test]
    fn random_input_reads_the_same_deferred_or_scanned() {
        for seed in 1..=120u64 {
            let mut rng = Rng(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1);
            let mut text = String::new();
            for _ in 0..1 + rng.below(3) {
                random_value(&mut rng, 0, &mut text);
                text.push_str(["\n", " ", "\n\n"][rng.below(3) as usize]);
            }
            let mut input = text.into_bytes();
            if rng.below(3) == 0 {
                let at = rng.below(input.len() as u64 + 1) as usize;
                input.insert(
                    at,
                    [b'}', b']', b',', 0xff, b'"', b'\\'][rng.below(6) as usize],
                );
            }
            let options = with(|o| {
                if rng.below(2) == 0 {
                    o.conditions = vec!["items[].n!=1".into()];
                }
                o.max_document_bytes = [40, 200, 1 << 20][rng.below(3) as usize];
                o.max_depth = [2, 5, 512][rng.below(3) as usize];
            });
            let (deferred, scanned) = deferred_and_scanned(&input, &options);
            assert_eq!(deferred, scanned, "seed {seed}");
        }
    }
}
