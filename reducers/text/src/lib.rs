//! `briefly text`: evidence-first reduction of any text or log output.
//!
//! Lines fold into templates ([`briefly_template::Miner`], the engine every log reducer
//! shares); multi-line records (tracebacks, Java stacks, Rust and Go panics) stay one
//! item with their header; severity ([`severity::classify`]) and rarity rank the
//! evidence. Items, most likely evidence first:
//!
//! 1. error and fatal records, then warnings, verbatim with line numbers (rarest
//!    template first, at most [`PER_TEMPLATE`] per template: an error template's second
//!    record after every error template's first, before the warnings, a warning's after
//!    the first and last lines);
//! 2. the first and last lines of the input (the command, the final status);
//! 3. rare templates (at most [`RARE`] records), an example of each verbatim, those
//!    seen once first;
//! 4. every other template by count, with one example, then the "other" group of the
//!    records past the miner's caps;
//! 5. more records of the serious templates (up to [`MORE_PER_TEMPLATE`] each), for
//!    the values a template folds: which symbols are undefined, which files failed.
//!
//! Input of at most [`TextOptions::whole_chars`] characters is not reduced: every record
//! comes back verbatim, serious ones first, then the rest in order as runs of lines
//! ([`LinesItem`]).
//!
//! Memory is bounded by configuration: the miner's template cap, [`MAX_KEPT`] verbatim
//! records of at most [`MAX_RECORD_LINES`] lines each, the context window, every kept
//! line cut to [`MAX_KEPT_CHARS`] (the artifact has it whole), and the input held while
//! it may be returned whole, and the places of a list of paths or of lines at files'
//! lines ([`places`]).

mod facts;
mod gotest;
pub mod places;
pub mod time;

pub use briefly_severity as severity;
pub use facts::drawn_state;

use crate::facts::{EventLine, Facts, LineFacts};
use crate::gotest::GoTestOutput;
use crate::places::{LocatedStats, PathStats, PlaceItem, Places};
use briefly_core::{
    counted, cut_middle, cut_str, plural, Ahead, Batch, Emit, Envelope, FoldBatches, Gap,
    KeptLines, Outcome, Preview, Rank, Record, WholeChars, LINE_CUT_MARKER,
};
use briefly_template::{timestamp_range, GroupId, MaskedLine, Miner, Template};
use regex::Regex;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use severity::multiline::{
    is_cause, is_compiler_context, is_diagnostic_header, is_go_test_frame,
    is_java_util_logging_header, names_a_java_exception, numbered_title, passes_a_panic_on,
    what_went_wrong, without_indent, Indented, MultiLine,
};
use severity::verdict::{verdict, Verdict};
use severity::{classify, KeptLevels, Severity};
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::hash::BuildHasherDefault;
use std::io::{BufWriter, Read, Seek, Write};
use std::ops::Range;
use std::path::PathBuf;

/// Bytes of lines in a batch whose facts are found on the other threads: four times the
/// usual. With four threads on two cores (folding, the artifact's, two finding facts),
/// fewer hand-overs: with [`same_source`], `benches/ab.sh` measured `briefly text` 1.23x
/// as fast on a 256 MB log (at fb518e4); alone, by hand with builds in turn, about 1.17x
/// on 1 GB. Peak RSS rose about 6 MB (by hand).
const BATCH_BYTES: usize = 4 * briefly_core::BATCH_BYTES;

/// Verbatim records kept at most.
pub const MAX_KEPT: usize = 500;
/// Characters kept of each line held for an item (record lines and context).
pub const MAX_KEPT_CHARS: usize = briefly_core::MAX_LINE_ITEM_CHARS;

/// Input returned whole at the least, in characters, unless `--whole-chars` says
/// otherwise ([`TextOptions::whole_chars`]): what the least page holds whole.
pub const WHOLE_CHARS: usize = 4000;

/// A template of at most this many records is rare: an example of it is shown verbatim,
/// before the templates by count.
pub const RARE: u64 = 2;
/// Verbatim records of a serious template ranked with the evidence.
pub const PER_TEMPLATE: u32 = 2;
/// Verbatim records of a serious template kept at most: those past [`PER_TEMPLATE`] come
/// after every template, as the budget allows; they only fill room, and are the first to
/// give way to another template's when [`MAX_KEPT`] are held.
pub const MORE_PER_TEMPLATE: u32 = 20;
/// An error template of at most this many records has them all ranked with the evidence
/// (three `Permission denied` lines of one template together, not the third after every
/// template).
pub const FEW_ERRORS: u64 = 5;
/// Lines of a multi-line record kept after its first at most: its first lines, its last
/// ones and the decisive lines between them ([`KeptLines`]); the rest are counted where
/// they were left out.
pub const MAX_RECORD_LINES: usize = KeptLines::MAX_LINES;
/// Most context lines on each side.
pub const MAX_CONTEXT: usize = 20;
/// The rank of each record the options keep (`--level`, `--since`/`--until`, `--grep`)
/// that no ranked item shows, listed after them all in input order (a serious record kept
/// verbatim, as it gives way to another): when options narrow an input too large to
/// return whole, every record they keep is on a page, once, not only the first few of its
/// template.
pub const LISTED_RANK: Rank = 6;
/// Bytes of text a [`LinesItem`] holds at most, unless its one record is longer: small
/// enough that a page of 1,500 characters holds a run of short lines whole (as JSON,
/// where each newline takes two), so that the budget can page through a long input
/// returned whole (`tests/page.rs`); at 1,000 bytes the runs were cut, and their last
/// lines were on no page. Smaller budgets take smaller runs ([`block_chars_for`]); a
/// record too long for a page is still cut, the artifact has its lines, by their numbers.
pub const BLOCK_BYTES: usize = 400;

/// The runs of records returned whole under a per-result budget of `per_result_chars`
/// ([`TextOptions::layout_chars`]): [`BLOCK_BYTES`], less at budgets whose pages hold
/// less beside the envelope's other fields (a cursor, an artifact's path), so that a
/// run fits a page whole even at the least budget.
pub fn block_chars_for(per_result_chars: usize) -> usize {
    briefly_core::item_chars_for(per_result_chars).clamp(100, BLOCK_BYTES)
}

/// The characters the lines of a multi-line record its item keeps may take under a
/// per-result budget of `per_result_chars` ([`TextOptions::layout_chars`]): half of it,
/// less 400 for the item's other fields (and the least budget's cursor and path). Its
/// lines are kept within them ([`KeptLines::with_max_chars`]), [`MAX_RECORD_LINES`] at
/// most: a record of short lines comes whole where one of long lines keeps its first,
/// decisive and last ones, rather than every line cut.
pub fn record_chars_for(per_result_chars: usize) -> usize {
    (per_result_chars / 2).saturating_sub(400)
}

/// How a log's times stand, for its span: dates first (`2024-05-01…`) of one length sort
/// as their text does, so the earliest and latest are found as they come (a merged log's
/// are not in order).
#[derive(Debug)]
enum TimeOrder {
    /// In order so far, or none yet: the first and last are the span.
    InOrder,
    /// Such times, out of order: the earliest and latest so far.
    OutOfOrder(String, String),
    /// Times of another kind, or of two lengths: the span is the first and the last.
    Unsorted,
}

/// Input is binary when one line in this many or more holds NUL bytes,
const BINARY_SHARE: u64 = 10;
/// and at least this many lines, or half of them, do: one line with a NUL in a log of
/// three is a log.
const BINARY_LINES: u64 = 8;

/// Lines of no record that may follow the one an output ends in (Node's `Node.js v20.1.0`
/// after its stack, a shell's prompt).
const ENDING_SLACK: u64 = 3;

/// The most the summary says of a record: its first line and what went wrong, its
/// middle cut when longer ([`cut_middle`]).
const SAID_CHARS: usize = 200;

/// The test a test runner's progress line says failed, whose report, later, says why:
/// unittest's `test_cache (t.T.test_cache) ... ERROR`, libtest's `test tests::sums ...
/// FAILED` (`tests::sums`), and with `-q`, `tests::sums --- FAILED`; pytest's `-v`
/// `test_calc.py::test_total FAILED   [100%]`. Read of the line's message, after a time
/// that opens it (a CI job's log stamps every line).
fn failed_test_named(line: &str) -> Option<&str> {
    let line = facts::message(line).trim();
    // pytest's percentage after the verdict, its node id before it.
    if let Some((progress, _)) = line.strip_suffix("%]").and_then(|l| l.rsplit_once('[')) {
        let (name, verdict) = progress.trim_end().rsplit_once(' ')?;
        let name = name.trim();
        return (matches!(verdict, "FAILED" | "ERROR") && name.contains("::")).then_some(name);
    }
    let (name, verdict) = (line.rsplit_once(" ... ")).or_else(|| line.rsplit_once(" --- "))?;
    let name = name.trim();
    let name = name.strip_prefix("test ").unwrap_or(name);
    (matches!(verdict, "FAILED" | "FAIL" | "ERROR") && !name.is_empty()).then_some(name)
}

/// The source file a line opens with as a compiler's diagnostic does, before its line
/// number ([`places::located_file`]) or gcc's context: `src/C1.java` of `src/C1.java:12:
/// error: …`, `a.c` of `a.c:3:5: …` and of `a.c: In function ‘main’:`.
fn source_place(line: &str) -> Option<&str> {
    let line = line.trim_start();
    places::located_file(line).or_else(|| {
        let (path, _) = line.split_once(": ")?;
        (is_compiler_context(line) && !path.contains(' ')).then_some(path)
    })
}

/// Whether `message` is a numbered report past a list's first, as Mocha lists its failures
/// (`2) suite`, after `1) suite`).
fn is_numbered_past_first(message: &str) -> bool {
    numbered_title(message).is_some_and(|(number, _)| number != "1")
}

/// What a record says, hashed: its message past its time (and a container's name), and
/// its other lines.
fn said_hash(item: &LineItem) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    facts::message(&item.text).hash(&mut hasher);
    item.more.hash(&mut hasher);
    hasher.finish()
}

/// What a record says but for its numbers, hashed: [`said_hash`] with each run of
/// digits, or of hex digits with a digit among them, hashed as one, and each line from
/// its first letter. The same failure logged again for another document, by another
/// process, at another time or port, hashes alike, and so does BuildKit's reprint of a
/// failed step's output without the step's number (`#9 10.0 ERROR: …`, then `10.0
/// ERROR: …` in its box); another symbol undefined (`sym0`, `sym1`), another file
/// (`pkg50`), or another message does not.
fn said_alike_hash(item: &LineItem) -> u64 {
    use std::hash::Hasher;
    // The record's lines with each number as `0`, hashed at once.
    let mut said = Vec::new();
    let more = item.more.iter().map(String::as_str);
    for line in std::iter::once(facts::message(&item.text)).chain(more) {
        let bytes = line.as_bytes();
        let mut i = bytes
            .iter()
            .position(u8::is_ascii_alphabetic)
            .unwrap_or(bytes.len());
        while i < bytes.len() {
            if !bytes[i].is_ascii_alphanumeric() {
                said.push(bytes[i]);
                i += 1;
                continue;
            }
            let end = (bytes[i..].iter())
                .position(|b| !b.is_ascii_alphanumeric())
                .map_or(bytes.len(), |run| i + run);
            let run = &bytes[i..end];
            let number =
                run.iter().any(u8::is_ascii_digit) && run.iter().all(u8::is_ascii_hexdigit);
            said.extend_from_slice(if number { b"0" } else { run });
            i = end;
        }
        said.push(b'\n');
    }
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    hasher.write(&said);
    hasher.finish()
}

/// Whether `item` is a tool's verdict on what it printed before it
/// ([`Verdict::SumsUp`]): ranked and named after the errors it sums up.
fn sums_up(item: &LineItem) -> bool {
    verdict(facts::message(&item.text)) == Some(Verdict::SumsUp)
}

/// Whether `lines` of which `nul_lines` hold NUL bytes are binary data.
fn is_binary(nul_lines: u64, lines: u64) -> bool {
    nul_lines > 0
        && nul_lines * BINARY_SHARE >= lines
        && (nul_lines >= BINARY_LINES || nul_lines * 2 >= lines)
}

/// Whether a line holds none of binary data's bytes (NUL, or invalid UTF-8, replaced):
/// such lines alone are shown of binary input.
fn is_text(line: &str) -> bool {
    !line.contains(['\0', '\u{FFFD}'])
}

/// Whether every line of a record is text ([`is_text`]).
fn all_text(item: &LineItem) -> bool {
    is_text(&item.text) && item.more.iter().all(|l| is_text(l))
}

/// What to look at and how much.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TextOptions {
    /// Only records at or above this severity (unmarked lines count as info).
    pub level: Option<Severity>,
    /// Only records at or after this time (seconds since the epoch).
    pub since: Option<i64>,
    /// Only records before this time (seconds since the epoch).
    pub until: Option<i64>,
    /// Only records matching this regular expression.
    pub grep: Option<String>,
    /// Templates listed in `stats.top_templates`.
    pub top: usize,
    /// Lines of context around each verbatim record.
    pub context: usize,
    /// Input of at most this many characters (lines and their ends) is returned whole:
    /// every record verbatim, the serious ones first, then the rest in order; none
    /// folded. 0 never does. None: half the page it is laid out for (`layout_chars`),
    /// at least [`WHOLE_CHARS`] ([`TextOptions::whole_chars_or_default`]): what a page
    /// holds whole with its stats, where a folded result of as many characters would
    /// hold less.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub whole_chars: Option<usize>,
    /// The year for timestamps without one (syslog's `Jun 14 15:16:01`).
    pub year: i64,
    /// When the input is read (seconds since the epoch): a stamp without a year that
    /// `year` would put more than a day later is of the year before.
    pub now: Option<i64>,
    /// Write `{"line": n, "group": id}` for every input line here.
    #[serde(skip)]
    pub emit_groups: Option<PathBuf>,
    /// The per-result budget, in characters, the first page had: it sizes the runs of
    /// records returned whole ([`block_chars_for`]) and the lines a record's item keeps
    /// ([`record_chars_for`]). Kept in the cursor, so that every page of one result lays
    /// them out alike; `None`: [`BLOCK_BYTES`] and [`MAX_RECORD_LINES`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub layout_chars: Option<usize>,
    /// The per-result budget of the page being made, when another page (a cursor's) may
    /// have less than the first: a record's item keeps what it holds. Not in cursors:
    /// the number of items, which the first page's layout fixes, does not change by it.
    #[serde(skip)]
    pub page_chars: Option<usize>,
}

impl TextOptions {
    /// [`TextOptions::whole_chars`], or its default: half the page it is laid out for, at
    /// least [`WHOLE_CHARS`].
    pub fn whole_chars_or_default(&self) -> usize {
        let half_page = self.layout_chars.map_or(0, |page| page / 2);
        self.whole_chars.unwrap_or(half_page.max(WHOLE_CHARS))
    }

    /// These options laid out for a per-result budget of `per_result_chars`, unless they
    /// already are ([`TextOptions::layout_chars`]), and what is returned whole said
    /// ([`TextOptions::whole_chars_or_default`]): a cursor's pages read the same.
    pub fn laid_out_for(self, per_result_chars: usize) -> TextOptions {
        let laid_out = TextOptions {
            layout_chars: self.layout_chars.or(Some(per_result_chars)),
            ..self
        };
        TextOptions {
            whole_chars: Some(laid_out.whole_chars_or_default()),
            ..laid_out
        }
    }

    /// Bytes of text a run of records returned whole holds at most.
    fn block_chars(&self) -> usize {
        self.layout_chars.map_or(BLOCK_BYTES, block_chars_for)
    }

    /// What a multi-line record's item keeps of its lines after its first: at most
    /// [`MAX_RECORD_LINES`], within the characters of the budget, if one is known.
    fn record_kept(&self) -> KeptLines {
        let budget = [self.layout_chars, self.page_chars]
            .into_iter()
            .flatten()
            .min();
        match budget {
            Some(chars) => KeptLines::default().with_max_chars(record_chars_for(chars)),
            None => KeptLines::default(),
        }
    }
}

impl Default for TextOptions {
    fn default() -> Self {
        TextOptions {
            level: None,
            since: None,
            until: None,
            grep: None,
            top: 10,
            context: 0,
            whole_chars: None,
            year: 1970,
            now: None,
            emit_groups: None,
            layout_chars: None,
            page_chars: None,
        }
    }
}

/// One verbatim record.
#[derive(Debug, Clone, Serialize)]
pub struct LineItem {
    /// `line`.
    pub kind: &'static str,
    /// Line number of the record's first line.
    pub line: u64,
    /// Its severity, when it states or implies one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub severity: Option<Severity>,
    /// The first line, ANSI codes stripped.
    pub text: String,
    /// The rest of a multi-line record.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub more: Vec<String>,
    /// Lines of the record beyond those kept.
    #[serde(skip_serializing_if = "briefly_core::is_zero")]
    pub more_cut: u64,
    /// Where those lines were left out, when not all after `more`: a long record keeps its
    /// first lines, its last ones and the last decisive line between them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub more_gaps: Vec<Gap>,
    /// Its timestamp as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time: Option<String>,
    /// Its template's id (as in `--emit-groups`); none for a record past the template
    /// cap, which has no template of its own (the `other` group's records are unlike
    /// one another).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub template: Option<u32>,
    /// How many records share the template; 1 for a record past the template cap. A
    /// record listed after the ranked items ([`LISTED_RANK`]) is emitted as it is read,
    /// with the count and id of then; the page gives both as at the end ([`Text`]'s
    /// `fitted`).
    pub count: u64,
    /// How many of those are at its severity, when not all: the one `503` among 300
    /// requests of one template.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub severity_count: Option<u64>,
    /// Context before, as `[line, text]`; for a Go test's failure, the output its test
    /// printed before it (`go test -v`), however far before.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub before: Vec<(u64, String)>,
    /// Context after, as `[line, text]`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub after: Vec<(u64, String)>,
    /// The record's last line, when lines in no record lie among its own (`go test
    /// -json`'s events that carry no output): past `line` by more than its lines.
    #[serde(skip)]
    last_line: u64,
}

impl LineItem {
    /// The first and last line numbers of the record.
    fn lines(&self) -> (u64, u64) {
        let counted = self.line + self.more.len() as u64 + self.more_cut;
        (self.line, counted.max(self.last_line))
    }

    /// Line `line` with `text`, nothing else known yet.
    pub fn new(line: u64, text: String) -> LineItem {
        LineItem {
            kind: "line",
            line,
            severity: None,
            text,
            more: Vec::new(),
            more_cut: 0,
            more_gaps: Vec::new(),
            time: None,
            template: None,
            count: 0,
            severity_count: None,
            before: Vec::new(),
            after: Vec::new(),
            last_line: line,
        }
    }
}

/// Lines of an input returned whole, as they are: adjacent records none of which is a
/// warning or worse.
#[derive(Debug, Clone, Serialize)]
pub struct LinesItem {
    /// `lines`.
    pub kind: &'static str,
    /// The first line's number.
    pub line: u64,
    /// The last line's number.
    pub last: u64,
    /// The lines, ANSI codes stripped, joined by `\n`.
    pub text: String,
    /// Context before, as `[line, text]` (when options left records out).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub before: Vec<(u64, String)>,
    /// Context after, as `[line, text]`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub after: Vec<(u64, String)>,
}

/// One template with its count and an example.
#[derive(Debug, Clone, Serialize)]
pub struct TemplateItem {
    /// `template`; `other` for the records past the miner's caps.
    pub kind: &'static str,
    /// The template's id (as in `--emit-groups`); none for the `other` group.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
    /// Its text, `<*>` for the variable parts.
    pub template: String,
    /// Records that fold into it.
    pub count: u64,
    /// The worst severity among them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub severity: Option<Severity>,
    /// How many records are at that severity, when not all.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub severity_count: Option<u64>,
    /// How many records are at each severity (`unmarked` for none), when they are at
    /// more than one: an access log's template, whatever the status, has its 5xx
    /// errors and its requests served; a linter's summaries, `(0 errors, 3 warnings)`,
    /// warnings and errors.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub severities: Option<BTreeMap<&'static str, u64>>,
    /// First and last line numbers.
    pub first_line: u64,
    /// Last line number.
    pub last_line: u64,
    /// First timestamp seen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_time: Option<String>,
    /// Last timestamp seen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_time: Option<String>,
    /// One line verbatim.
    pub example: String,
}

/// An item of `briefly text`.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum TextItem {
    /// A record verbatim.
    Line(LineItem),
    /// A template.
    Template(TemplateItem),
    /// Adjacent records of input returned whole, as they are.
    Lines(LinesItem),
    /// A directory or file of a list of paths or of lines at files' lines, with how many
    /// are in it.
    Place(PlaceItem),
}

/// What the reducer knows of each template beyond the miner's count.
#[derive(Debug, Clone, Default)]
struct TemplateInfo {
    severity: Option<Severity>,
    /// Records by severity, as the histogram counts them.
    by_severity: [u64; 7],
    /// The first and the last time seen, each with its record's line number: templates
    /// the miner merged are folded together by them.
    first_time: Option<(u64, String)>,
    last_time: Option<(u64, String)>,
    /// Its records kept, by severity: which of them a worse record of the template takes
    /// the place of.
    kept: KeptLevels,
    /// The first and last lines of its first record: an example of a record over several
    /// lines says how many more it has.
    first_record: Option<(u64, u64)>,
    /// The first line of its first record, when a later line of it names the template
    /// (CMake's `CMake Warning at …:` over the message that names it): a rare template's
    /// example, that later line, is listed under it.
    first_heading: Option<String>,
    /// Its first record is listed ([`LISTED_RANK`]): no rare template's example repeats it.
    first_listed: bool,
    /// Its records kept name each a file of their own, or none ([`Text::keep_elsewhere`]):
    /// a record at another file takes no place.
    places_spread: bool,
    /// What its records kept say ([`said_hash`]), up to [`MORE_PER_TEMPLATE`] of them: a
    /// record that says the same again, at another time, shows nothing its count does not.
    kept_said: Vec<u64>,
}

impl TemplateInfo {
    /// Its records by severity (`unmarked` for none), when they are at more than one.
    fn severities(&self) -> Option<BTreeMap<&'static str, u64>> {
        let at: BTreeMap<_, _> = (self.by_severity.iter().enumerate())
            .filter(|(_, records)| **records > 0)
            .map(|(slot, records)| {
                // The inverse of `slot_of`.
                let name = slot
                    .checked_sub(1)
                    .map_or("unmarked", |s| Severity::ALL[s].name());
                (name, *records)
            })
            .collect();
        (at.len() > 1).then_some(at)
    }

    /// Of the template's `count` records, how many are at `severity`, when it is one and
    /// not all of them are.
    fn severity_count(&self, severity: Option<Severity>, count: u64) -> Option<u64> {
        let at = self.by_severity[slot_of(Some(severity?))];
        (at < count).then_some(at)
    }
}

/// The record being assembled.
#[derive(Debug)]
struct Pending {
    /// It holds a record; when not, its buffers wait for the next one.
    open: bool,
    item: LineItem,
    /// It is within `--since`/`--until` (judged by its first line's time).
    in_time: bool,
    /// A line of it matches `--grep` (or there is none).
    grep_matched: bool,
    /// Its first line's severity.
    first_severity: Option<Severity>,
    /// It holds the exception its first line names (`Resolved [java.lang.X: …]`), the
    /// stack that line logged.
    logs_exception: bool,
    /// It holds a stack's frames (`\tat …`, Python's `  File "…", line 3`).
    frames: bool,
    /// Its first line's tokens.
    header: MaskedLine,
    /// The line that names it, when one does: a traceback's exception line, a panic's
    /// message, a Java exception under the line that logged it. Its tokens, text and
    /// number: its template is the record's, so that records are told apart by what went
    /// wrong, not where.
    name: MaskedLine,
    name_text: String,
    name_line: Option<u64>,
    /// Its last cause (a Java stack's `Caused by:`, .NET's ` ---> `), its root: a serious
    /// record's template is its naming line's and this, so that one exception with
    /// different root causes is not one template.
    cause: String,
    /// Which lines continue it.
    multiline: MultiLine,
    /// Its lines past the head of `item.more`, while it is assembled.
    kept: KeptLines,
    /// Its last line opened with a time or a container's name ([`facts::opening`]): a
    /// line that does too may continue it, by its message.
    stamped_lines: bool,
    /// The container's name that opens its first line, or nothing: a line continues it
    /// only from the same container.
    source: String,
}

/// The generic text reducer.
pub struct Text {
    options: TextOptions,
    /// `--grep`'s pattern: the lines it matches are kept in a long record's middle.
    grep: Option<Regex>,
    /// What each line says by itself, worked out one batch ahead on a second thread.
    ahead: Ahead<Facts>,
    miner: Miner,
    info: HashMap<GroupId, TemplateInfo, BuildHasherDefault<IdHasher>>,
    /// The record being assembled. It stays in place, open or not, so one record's
    /// buffers serve the next and nothing moves per line.
    pending: Pending,
    /// Serious records kept verbatim: (generation, record, template). A slot reused for
    /// a worse record gets a new generation, so late context is never misfiled.
    kept: Vec<(u64, LineItem, GroupId)>,
    /// Whether each kept record was kept past [`PER_TEMPLATE`] of its template, and the
    /// slots of those (some stale: `kept_extra` says), the first to give way.
    kept_extra: Vec<bool>,
    extra_slots: Vec<usize>,
    /// What `go test -v` printed of the tests running, for their failures' items.
    go_tests: GoTestOutput,
    /// The last `context` lines, for the context before a record.
    recent: VecDeque<(u64, String)>,
    /// Kept records still collecting context after them: (slot, generation, lines left).
    awaiting: VecDeque<(usize, u64, usize)>,
    /// Records listed at [`LISTED_RANK`] still collecting context after them (lines left),
    /// in input order: emitted when the first of them has its context.
    listing: VecDeque<(LineItem, usize)>,
    /// The lines of the first and of the last record listed ([`LISTED_RANK`]): no edge
    /// repeats them.
    listed_edges: Option<[(u64, u64); 2]>,
    first_line: Option<Edge>,
    last_line: Edge,
    /// A blank line under a serious log line, held until the next line says whether it
    /// sets apart the exception that line logged ([`MultiLine::may_set_apart_an_exception`]).
    held_blank: Option<HeldBlank>,
    /// Records by severity: unmarked, then [`Severity::ALL`] in order.
    histogram: [u64; 7],
    lines: u64,
    records: u64,
    filtered_out: u64,
    multiline: u64,
    ansi_lines: u64,
    redrawn_lines: u64,
    /// Lines that were `go test -json` events, read as the output they carry.
    go_test_events: u64,
    /// Of them, events that carry no output (`run`, `pass`, …): not folded.
    bare_events: u64,
    /// Of those, failures' (`fail`, `build-fail`).
    bare_failures: u64,
    /// Lines that ended in CRLF, read and shown without the `\r`.
    crlf_lines: u64,
    /// Lines holding NUL bytes.
    nul_lines: u64,
    /// Records the options kept, not listed for holding binary data's bytes while the
    /// input looked binary.
    binary_unlisted: u64,
    /// The line being folded is the head of a longer line the framing cut.
    line_cut: bool,
    first_time: Option<String>,
    last_time: Option<String>,
    /// What the times' span is, past the first and the last ([`TimeOrder`]).
    time_order: TimeOrder,
    last_epoch: Option<i64>,
    /// Records `--since`/`--until` could not place in time (no time read on them or
    /// before them): kept, and said in a warning.
    untimed: u64,
    /// Records whose time names a zone `--since`/`--until` do not read (`CEST`).
    unread_zones: u64,
    /// Records whose time has no year, placed in one for `--since`/`--until`.
    yearless: u64,
    /// A line of a kept record was cut (the artifact has it whole): a record's first line
    /// when it is kept, a later line of any record.
    shown_cut: bool,
    generation: u64,
    groups: Option<GroupWriter>,
    /// The input while it is small enough to be returned whole.
    whole: Option<Whole>,
    /// The input's lines by place, while it looks like a list of paths or of lines at
    /// files' lines.
    places: Places,
    warnings: Vec<String>,
}

/// The input held while it takes at most [`TextOptions::whole_chars`].
#[derive(Debug)]
struct Whole {
    /// Its lines, ANSI codes stripped: line `n` is `lines[n - 1]`.
    lines: Vec<String>,
    /// Its records in order.
    records: Vec<WholeRecord>,
    /// The characters its lines take of the limit.
    chars: WholeChars,
}

/// One record of a [`Whole`] input.
#[derive(Debug)]
struct WholeRecord {
    first: u64,
    last: u64,
    severity: Option<Severity>,
    time: Option<String>,
    /// Its template, or nothing when the options leave it out.
    group: Option<GroupId>,
    /// Lines shown before it that are not its context: a Go test's output before its
    /// failure.
    held_before: Vec<(u64, String)>,
}

impl Text {
    /// A text reducer; an invalid `--grep` pattern, a context over [`MAX_CONTEXT`] or an
    /// `--emit-groups` file that cannot be written is an error.
    pub fn new(options: TextOptions) -> Result<Text, String> {
        Text::with_miner(options, briefly_template::Config::default())
    }

    /// [`Text::new`] with a miner of `config` (its caps, in tests).
    fn with_miner(options: TextOptions, config: briefly_template::Config) -> Result<Text, String> {
        if options.context > MAX_CONTEXT {
            return Err(format!(
                "--context {} is over the maximum of {MAX_CONTEXT}",
                options.context
            ));
        }
        let whole_chars = options.whole_chars_or_default();
        let grep = match &options.grep {
            Some(pattern) => {
                Some(Regex::new(pattern).map_err(|e| format!("invalid --grep pattern: {e}"))?)
            }
            None => None,
        };
        let groups = match &options.emit_groups {
            Some(path) => Some(GroupWriter::new(path.clone())?),
            None => None,
        };
        let miner = Miner::new(config);
        Ok(Text {
            ahead: Ahead::parallel(Facts::new(miner.config(), grep.clone()))
                .with_batch_bytes(BATCH_BYTES),
            grep,
            miner,
            info: HashMap::default(),
            pending: Pending {
                open: false,
                item: LineItem::new(0, String::new()),
                in_time: false,
                grep_matched: false,
                first_severity: None,
                logs_exception: false,
                frames: false,
                header: MaskedLine::default(),
                name: MaskedLine::default(),
                name_text: String::new(),
                name_line: None,
                cause: String::new(),
                multiline: MultiLine::new(Indented::ByRule),
                kept: options.record_kept(),
                stamped_lines: false,
                source: String::new(),
            },
            kept: Vec::new(),
            kept_extra: Vec::new(),
            extra_slots: Vec::new(),
            go_tests: GoTestOutput::default(),
            recent: VecDeque::with_capacity(options.context + 1),
            awaiting: VecDeque::new(),
            listing: VecDeque::new(),
            listed_edges: None,
            first_line: None,
            last_line: Edge::default(),
            held_blank: None,
            histogram: [0; 7],
            lines: 0,
            records: 0,
            filtered_out: 0,
            multiline: 0,
            ansi_lines: 0,
            redrawn_lines: 0,
            go_test_events: 0,
            bare_events: 0,
            bare_failures: 0,
            crlf_lines: 0,
            nul_lines: 0,
            binary_unlisted: 0,
            line_cut: false,
            first_time: None,
            last_time: None,
            time_order: TimeOrder::InOrder,
            last_epoch: None,
            untimed: 0,
            unread_zones: 0,
            yearless: 0,
            shown_cut: false,
            generation: 0,
            groups,
            whole: (whole_chars > 0).then(|| Whole {
                lines: Vec::new(),
                records: Vec::new(),
                chars: WholeChars::new(whole_chars),
            }),
            places: Places::default(),
            warnings: Vec::new(),
            options,
        })
    }

    /// Whether a record whose first line has this time stamp passes `--since` and
    /// `--until`.
    fn in_time(&mut self, text: &str, stamp: Option<Range<usize>>) -> bool {
        if self.options.since.is_some() || self.options.until.is_some() {
            let (year, now) = (self.options.year, self.options.now);
            let read = stamp.and_then(|range| {
                let after = text.get(range.end..).unwrap_or_default();
                if time::zone_after(after) == Some(time::ZoneAfter::Named) {
                    self.unread_zones += 1;
                }
                let stamp = text.get(range)?;
                let epoch = time::epoch_seconds_in_line(stamp, after, year, now)?;
                if time::lacks_year(stamp) {
                    self.yearless += 1;
                }
                Some(epoch)
            });
            if let Some(epoch) = read {
                self.last_epoch = Some(epoch);
            }
            // A record without a time of its own takes the last one seen.
            match self.last_epoch {
                Some(epoch) => {
                    if self.options.since.is_some_and(|since| epoch < since)
                        || self.options.until.is_some_and(|until| epoch >= until)
                    {
                        return false;
                    }
                }
                None => self.untimed += 1,
            }
        }
        true
    }

    /// Widens the earliest-to-latest span by a record's time ([`TimeOrder`]), before the
    /// time is the last one: while the times come in order, the first and last are the
    /// span, and nothing is copied.
    fn widen_span(&mut self, stamp: &str) {
        let Some(last) = &self.last_time else {
            // The first time says what kind they are: a date first, and no zone's offset
            // (`+0200`), which makes the text sort apart from the time.
            let date_first = stamp
                .as_bytes()
                .get(..5)
                .is_some_and(|head| head[..4].iter().all(u8::is_ascii_digit) && head[4] == b'-');
            let offset = (stamp.as_bytes().get(19..))
                .is_some_and(|zone| zone.iter().any(|&b| b == b'+' || b == b'-'));
            if !date_first || offset {
                self.time_order = TimeOrder::Unsorted;
            }
            return;
        };
        if stamp.len() != last.len() {
            self.time_order = TimeOrder::Unsorted;
            return;
        }
        match &mut self.time_order {
            TimeOrder::Unsorted => {}
            TimeOrder::OutOfOrder(earliest, latest) => {
                if stamp < earliest.as_str() {
                    earliest.clear();
                    earliest.push_str(stamp);
                } else if stamp > latest.as_str() {
                    latest.clear();
                    latest.push_str(stamp);
                }
            }
            // The first time out of order: the span so far is the first to the last.
            TimeOrder::InOrder if stamp < last.as_str() => {
                let first = self.first_time.as_deref().unwrap_or_default();
                let earliest = first.min(stamp).to_string();
                self.time_order = TimeOrder::OutOfOrder(earliest, last.clone());
            }
            TimeOrder::InOrder => {}
        }
    }

    /// Starts a record at `text`, whose `message` the rules of records read.
    fn start_record(&mut self, line: u64, text: &str, message: &str, facts: &mut LineFacts) {
        let severity = facts.severity;
        let in_time = self.in_time(text, facts.stamp.clone());
        let stamp = (facts.stamp.clone())
            .and_then(|range| text.get(range))
            .map(shown_time);
        // Mined when the record closes: its tokens wait here.
        std::mem::swap(&mut self.pending.header, &mut facts.masked);
        if let Some(stamp) = stamp {
            self.first_time.get_or_insert_with(|| stamp.to_string());
            self.widen_span(stamp);
            let last = self.last_time.get_or_insert_with(String::new);
            last.clear();
            last.push_str(stamp);
        }
        // The last record's buffers are reused: this runs for nearly every line.
        let pending = &mut self.pending;
        pending.open = true;
        pending.in_time = in_time;
        pending.grep_matched = facts.grep_match;
        pending.first_severity = severity;
        pending.logs_exception = false;
        pending.frames = false;
        pending.name_line = None;
        pending.cause.clear();
        // java.util.logging's header is its time and source: read whole (its class may
        // be in no package, `… 9:54:19 AM Main main`, which the source alone cannot say).
        let opening = match facts.message {
            // Its time ends with `AM` or `PM`: one byte rules out nearly every line.
            Some(at)
                if text.as_bytes()[..at].trim_ascii_end().ends_with(b"M")
                    && is_java_util_logging_header(text) =>
            {
                text
            }
            // Ruby's logger's serious line with a Rails request's tag is read whole: the
            // tag's lines under it are its record.
            Some(_)
                if message.starts_with('[')
                    && matches!(text.as_bytes(), [b'E' | b'F', b',', b' ', b'[', ..]) =>
            {
                text
            }
            _ => message,
        };
        pending.multiline.start(opening, severity, facts.opens);
        pending.source.clear();
        pending.source.push_str(source_of(text, facts));
        let item = &mut pending.item;
        item.line = line;
        item.last_line = line;
        item.severity = severity;
        item.text.clear();
        item.text.push_str(text);
        if self.line_cut {
            item.text.push_str(LINE_CUT_MARKER);
        }
        item.more.clear();
        item.more_cut = 0;
        item.more_gaps.clear();
        match (stamp, &mut item.time) {
            (Some(stamp), Some(time)) => {
                time.clear();
                time.push_str(stamp);
            }
            (stamp, time) => *time = stamp.map(str::to_string),
        }
        item.before.clear();
        item.before.extend(self.recent.iter().cloned());
        item.after.clear();
    }

    /// Whether a line, `text`, continues the pending record, by its `message`. A line with
    /// a time of its own starts one, another thread's record and not the next frame,
    /// unless the time opens it and the record's last line opened with one too: such a
    /// log stamps every line (a CI job's), and the messages decide. A container's line
    /// continues only that container's record.
    fn continues(&self, text: &str, message: &str, facts: &LineFacts) -> bool {
        let pending = &self.pending;
        // Under a line with its time, an indented line without one is its message going on
        // (a validation's list, a database's `DETAIL`); with a time of its own (a CI job's
        // log stamps every line), or under a line with none, it may be a step's or a
        // table's, and the rules of records decide.
        let detail = || {
            facts.stamp.is_none()
                && pending.item.time.is_some()
                && message.starts_with([' ', '\t'])
                && !message.trim_start().is_empty()
                && !severity::multiline::is_exception_group_heading(message)
        };
        // (A line of a Rails request's error with a time of its own goes on with it only
        // where the error opened with its tag alone, as Rails logs one line by line, and
        // at its level: another level's, or a line under one that said something, is
        // another call of the logger.)
        let stamped_goes_on = || {
            facts.message.is_some()
                && (pending.stamped_lines || pending.multiline.continues_after_unstamped(message))
                && !(pending.multiline.is_rails_tagged()
                    && (facts.severity != pending.first_severity
                        || !pending.item.text.trim_end().ends_with(']')))
        };
        pending.open
            && (facts.stamp.is_none() || stamped_goes_on())
            && same_source(source_of(text, facts), &pending.source)
            && (pending.multiline.continues(message) || detail())
    }

    /// Adds `text`, whose `message` the rules of records read, to the pending record;
    /// says whether it names what went wrong.
    fn continue_record(&mut self, text: &str, message: &str, facts: &LineFacts) -> bool {
        let pending = &mut self.pending;
        // The exception a line names and logs under it (and its causes) is of that line's
        // level: `WARN … Resolved [java.lang.IllegalArgumentException: …]` and its stack
        // are a warning, not an error. One it does not name may be a crash after it.
        let trimmed = message.trim_start();
        if pending.first_severity.is_some() && names_a_java_exception(trimmed) {
            let class = trimmed.split(": ").next().unwrap_or(trimmed);
            pending.logs_exception |= pending.item.text.contains(class);
        }
        let logged =
            pending.logs_exception && (names_a_java_exception(trimmed) || is_cause(message));
        let severity = match logged {
            true => facts.severity.min(pending.first_severity),
            false => facts.severity,
        };
        pending.frames |= severity::multiline::is_stack_frame(message);
        let names = pending.multiline.push(message, severity, facts.opens);
        pending.item.severity = pending.multiline.severity();
        let mut line = cut_str(text, MAX_KEPT_CHARS);
        self.shown_cut |= line.len() != text.len();
        if self.line_cut {
            line.to_mut().push_str(LINE_CUT_MARKER);
        }
        // What names it is kept in a long record's middle, as its decisive lines are,
        // and so is where it went wrong and a line `--grep` matched: what the record was
        // kept for.
        let matched = self.grep.is_some() && facts.grep_match;
        let at_fault = pending.multiline.at_fault();
        // npm's `npm ERR! ` puts every line of its report at error: what it quotes
        // says whether a line is. So does a line's message where its source states the
        // level of every line of the record (logcat's `E AndroidRuntime`).
        let said = pending.multiline.said(message);
        let said_severity = match said.len() == message.len() && facts.source.is_none() {
            true => facts.severity,
            false => classify(said),
        };
        let decisive = names || matched || at_fault || is_decisive(said, said_severity);
        pending.kept.push(&mut pending.item.more, &line, decisive);
        names
    }

    /// Closes the pending record: counts it, and keeps it verbatim when it may be evidence.
    fn close_record(&mut self, out: &mut dyn Emit<TextItem>) {
        if !self.pending.open {
            return;
        }
        self.pending.open = false;
        let pending = &mut self.pending;
        let item = &mut pending.item;
        item.more_cut = pending.kept.finish(&mut item.more, &mut item.more_gaps);
        // An error with its stack's frames under a warning is what the warning logged
        // (`log.warn("…", e)`, Python's `exc_info`): the logger said how bad it was. One
        // printed under it without frames may be a crash after it; a fatal one is worse.
        if pending.first_severity == Some(Severity::Warn)
            && pending.frames
            && item.severity == Some(Severity::Error)
        {
            item.severity = pending.first_severity;
        }
        let level = self.options.level;
        let kept = pending.in_time
            && pending.grep_matched
            && level.is_none_or(|level| pending.item.severity.unwrap_or(Severity::Info) >= level);
        // Mined now that the options know whether they keep it: any of its lines may
        // match `--grep` or raise it to `--level`.
        let serious = pending.item.severity >= Some(Severity::Warn);
        let group = kept.then(|| {
            let (masked, text, line) = match pending.name_line {
                Some(line) => (&mut pending.name, &pending.name_text, line),
                None => (&mut pending.header, &pending.item.text, pending.item.line),
            };
            if serious && !pending.cause.is_empty() {
                let named = format!("{text} … {}", pending.cause);
                self.miner.add_numbered(&named, line)
            } else {
                self.miner.add_prepared(masked, text, line)
            }
        });
        let item = &mut self.pending.item;
        let (first, last) = item.lines();
        if let Some(whole) = &mut self.whole {
            let context = first.saturating_sub(self.options.context as u64)..first;
            whole.records.push(WholeRecord {
                first,
                last,
                severity: item.severity,
                time: item.time.clone(),
                group,
                held_before: (item.before.iter())
                    .filter(|(n, _)| !context.contains(n))
                    .cloned()
                    .collect(),
            });
        }
        if let Some(groups) = &mut self.groups {
            groups.push(group, first, last);
        }
        for edge in self.first_line.iter_mut().chain([&mut self.last_line]) {
            if (first..=last).contains(&edge.line) {
                edge.group = group;
            }
        }
        self.records += 1;
        let severity_slot = slot_of(item.severity);
        self.histogram[severity_slot] += 1;
        if !item.more.is_empty() {
            self.multiline += 1;
        }
        let Some(group) = group else {
            self.filtered_out += 1;
            return;
        };
        let info = self.info.entry(group).or_default();
        info.severity = info.severity.max(item.severity);
        info.by_severity[severity_slot] += 1;
        if info.first_record.is_none() {
            info.first_record = Some((first, last));
            if self.pending.name_line.is_some_and(|named| named > first) {
                info.first_heading = Some(item.text.clone());
            }
        }
        if let Some(time) = &item.time {
            info.first_time
                .get_or_insert_with(|| (item.line, time.clone()));
            let last = info.last_time.get_or_insert_with(Default::default);
            last.0 = item.line;
            last.1.clear();
            last.1.push_str(time);
        }
        let kept = serious && self.keep(group, out);
        if !kept && self.listing() {
            self.list_pending(group, out);
        }
    }

    /// Keeps the pending record, serious and of `group`, verbatim when it may be evidence;
    /// says whether it did. A record it takes the place of is listed, when the options
    /// narrow the input ([`LISTED_RANK`]).
    fn keep(&mut self, group: GroupId, out: &mut dyn Emit<TextItem>) -> bool {
        // (The records past the miner's caps are each unlike the others.)
        let said = (!group.is_overflow()).then(|| said_hash(&self.pending.item));
        if said.is_some_and(|said| self.info[&group].kept_said.contains(&said)) {
            return false;
        }
        let kept = self.keep_record(group, out);
        let info = self.info.get_mut(&group).expect("noted before it is kept");
        if let Some(said) =
            said.filter(|_| kept && info.kept_said.len() < MORE_PER_TEMPLATE as usize)
        {
            info.kept_said.push(said);
        }
        kept
    }

    /// [`Text::keep`], of a record that says something no record kept of its template says.
    fn keep_record(&mut self, group: GroupId, out: &mut dyn Emit<TextItem>) -> bool {
        let info = &self.info[&group];
        let item = &mut self.pending.item;
        // The records past the miner's caps are not told apart: each serious one is kept
        // (up to MAX_KEPT in all), not some of them.
        let overflow = group == GroupId::OVERFLOW;
        if info.kept.total() >= MORE_PER_TEMPLATE && !overflow {
            // As severe as its least: it may show another file.
            let least = info.kept.least();
            if least.is_some() && least == item.severity {
                return self.keep_elsewhere(group, out);
            }
            // A record worse than one its template kept takes that one's place (the
            // error among a file's warnings), else the worst is on no page; not the last
            // kept of its level, so that a template shows one of each level it has (a
            // linter's summary of warnings among those of errors), and a record of a
            // level none of which is kept takes the place of one of several.
            let Some(replaced) = item.severity.and_then(|s| info.kept.gives_way_to(s)) else {
                return false;
            };
            return match least_kept(&self.kept, |of, severity| {
                of == group && severity == Some(replaced)
            }) {
                Some((slot, _)) => self.keep_at(Some(slot), false, group, out),
                None => false,
            };
        }
        // One past those of its template shown with the evidence: it only fills room,
        // taking no other's place.
        let extra = info.kept.total() >= PER_TEMPLATE && !overflow;
        let full = self.kept.len() == MAX_KEPT;
        if extra && full {
            return false;
        }
        // When full, an extra record gives way to it (the latest kept), else the least
        // severe if it is worse.
        while self
            .extra_slots
            .last()
            .is_some_and(|&slot| !self.kept_extra[slot])
        {
            self.extra_slots.pop();
        }
        let least_kept = match self.extra_slots.last() {
            _ if !full => None,
            Some(&slot) => Some((slot, self.kept[slot].1.severity)),
            None => least_kept(&self.kept, |_, _| true),
        };
        let gives_way = |(slot, least): (usize, Option<Severity>)| {
            self.kept_extra[slot] || item.severity > least
        };
        if least_kept.is_some_and(|least| !gives_way(least)) {
            return false;
        }
        self.keep_at(least_kept.map(|(slot, _)| slot), extra, group, out)
    }

    /// Keeps the pending record, of `group`, whose template kept its most already, when
    /// it is at a file ([`source_place`]) none of them is at: in place of the latest kept
    /// of as severe a record at a file another kept is at. A compiler's errors folded
    /// into one template (`src/<*>.java:<*>: error: cannot find symbol`) show every file
    /// they are in, not the first file's first 20. Scans the records kept (at most
    /// [`MAX_KEPT`]) until each of the template's names a file of its own.
    fn keep_elsewhere(&mut self, group: GroupId, out: &mut dyn Emit<TextItem>) -> bool {
        let item = &self.pending.item;
        let Some(place) = source_place(&item.text) else {
            return false;
        };
        if self.info[&group].places_spread {
            return false;
        }
        let mut places: Vec<&str> = Vec::new();
        let mut gives_way = None;
        for (slot, (_, kept, of)) in self.kept.iter().enumerate() {
            if *of != group || kept.severity != item.severity {
                continue;
            }
            let Some(at) = source_place(&kept.text) else {
                continue;
            };
            if at == place {
                return false;
            }
            if places.contains(&at) {
                gives_way = Some(slot);
            } else {
                places.push(at);
            }
        }
        match gives_way {
            Some(slot) => self.keep_at(Some(slot), false, group, out),
            None => {
                if let Some(info) = self.info.get_mut(&group) {
                    info.places_spread = true;
                }
                false
            }
        }
    }

    /// Keeps the pending record, of `group`, in place of the one at `replaced` or in a
    /// new slot; `extra` when it is one past those of its template shown with the
    /// evidence.
    fn keep_at(
        &mut self,
        replaced: Option<usize>,
        extra: bool,
        group: GroupId,
        out: &mut dyn Emit<TextItem>,
    ) -> bool {
        // Kept: the record takes its buffers along.
        let item = &mut self.pending.item;
        let severity = item.severity;
        let mut item = std::mem::replace(item, LineItem::new(0, String::new()));
        if item.text.len() > MAX_KEPT_CHARS {
            let kept = kept_line(&item.text);
            self.shown_cut |= kept != item.text;
            item.text = kept;
        }
        let slot = if let Some(slot) = replaced {
            // A worse record replaces a less severe one kept.
            let (old_generation, mut old, old_group) =
                std::mem::replace(&mut self.kept[slot], (0, item, group));
            if let Some((noted, severity)) = self.info.get_mut(&old_group).zip(old.severity) {
                noted.kept.remove(severity);
            }
            self.kept_extra[slot] = extra;
            if self.listing() {
                // With the context after it it has so far, and waits for the rest.
                let left = (self.awaiting.iter())
                    .find(|&&(s, generation, _)| s == slot && generation == old_generation)
                    .map_or(0, |&(_, _, left)| left);
                self.note_listed(old_group, old.lines());
                let old_group = self.miner.resolve(old_group);
                old.template = old_group.shown();
                old.count = self.miner.count_alike(old_group);
                self.list(old, left, out);
            }
            slot
        } else {
            self.kept.push((0, item, group));
            self.kept_extra.push(extra);
            self.kept.len() - 1
        };
        if extra {
            self.extra_slots.push(slot);
        }
        self.generation += 1;
        self.kept[slot].0 = self.generation;
        let info = self.info.get_mut(&group).expect("inserted above");
        if let Some(severity) = severity {
            info.kept.add(severity);
        }
        if self.options.context > 0 {
            self.awaiting
                .push_back((slot, self.generation, self.options.context));
        }
        true
    }

    /// Whether the options narrow the input to some of its records: each record they
    /// keep is then on a page ([`LISTED_RANK`]) once the input is too large to return
    /// whole.
    fn narrows(&self) -> bool {
        let options = &self.options;
        options.level.is_some()
            || options.since.is_some()
            || options.until.is_some()
            || options.grep.is_some()
    }

    /// Whether records no ranked item shows are listed now: the options narrow the input
    /// and it is too large to return whole.
    fn listing(&self) -> bool {
        self.whole.is_none() && self.narrows()
    }

    /// Lists the pending record, of `group`, which the options kept and no ranked item
    /// shows.
    fn list_pending(&mut self, group: GroupId, out: &mut dyn Emit<TextItem>) {
        self.note_listed(group, self.pending.item.lines());
        let context = self.options.context;
        if context == 0 && self.listing.is_empty() && !out.wants(LISTED_RANK) {
            out.skip(LISTED_RANK);
            return;
        }
        let mut item = self.pending.item.clone();
        if item.text.len() > MAX_KEPT_CHARS {
            item.text = kept_line(&item.text);
            self.shown_cut = true;
        }
        item.template = group.shown();
        item.count = self.miner.count_alike(group);
        self.list(item, context, out);
    }

    /// Notes that the record over `lines`, of `group` as it was mined, is listed
    /// ([`LISTED_RANK`]), on this page or a later one: the ranked items do not repeat it.
    fn note_listed(&mut self, group: GroupId, lines: (u64, u64)) {
        if let Some(info) = self.info.get_mut(&group) {
            info.first_listed |= info.first_record == Some(lines);
        }
        // Records given way to are listed late: the first and last by their lines.
        let edges = self.listed_edges.get_or_insert([lines; 2]);
        edges[0] = edges[0].min(lines);
        edges[1] = edges[1].max(lines);
    }

    /// Lists a record ([`LISTED_RANK`]) once `left` more lines of context after it are in
    /// ([`Text::remember`]), after the records listed before it.
    ///
    /// A record of binary data's bytes is not listed while the input looks binary (as
    /// it would not be shown at the end, see [`Text::outcome`]).
    fn list(&mut self, item: LineItem, left: usize, out: &mut dyn Emit<TextItem>) {
        if is_binary(self.nul_lines, self.lines) && !all_text(&item) {
            self.binary_unlisted += 1;
            return;
        }
        if left == 0 && self.listing.is_empty() {
            out.emit(LISTED_RANK, TextItem::Line(item));
        } else {
            self.listing.push_back((item, left));
        }
    }

    /// The blank line held ([`Text::held_blank`]), once the record was told the next line
    /// ([`MultiLine::blank_followed_by`]).
    fn fold_held(&mut self, mut held: HeldBlank, out: &mut dyn Emit<TextItem>) {
        let text = std::str::from_utf8(&held.bytes).unwrap_or_default();
        let record = Record {
            text,
            bytes: &held.bytes,
            line: held.line,
            offset: held.offset,
            cut: false,
            crlf: held.crlf,
        };
        self.fold_line(&record, &mut held.facts, out);
    }

    /// Counts a `go test -json` event that carries no output, in no record. (Input held
    /// whole stops being held at the next line: [`Text::hold`] takes lines in a row.)
    fn skip_bare_event(&mut self, failed: bool) {
        self.lines += 1;
        self.go_test_events += 1;
        self.bare_events += 1;
        self.bare_failures += u64::from(failed);
    }

    /// One line, in input order: it continues the record being assembled or starts one.
    fn fold_line(
        &mut self,
        record: &Record<'_>,
        facts: &mut LineFacts,
        out: &mut dyn Emit<TextItem>,
    ) {
        self.lines += 1;
        let stripped = facts.stripped.take();
        self.ansi_lines += u64::from(facts.ansi);
        self.nul_lines += u64::from(facts.nul);
        self.redrawn_lines += u64::from(facts.redrawn);
        self.crlf_lines += u64::from(record.crlf);
        let text = stripped.as_deref().unwrap_or(record.text);
        let message = facts.message.map_or(text, |at| &text[at..]);
        self.line_cut = record.cut;
        self.hold(record.line, text, out);
        self.places.push(record.line, text);
        if self.continues(text, message, facts) {
            self.pending.grep_matched |= facts.grep_match;
            self.pending.item.last_line = record.line;
            if self.continue_record(text, message, facts) {
                // Its template is the record's: records are told apart by what went
                // wrong, not where.
                let pending = &mut self.pending;
                std::mem::swap(&mut pending.name, &mut facts.masked);
                pending.name_text.clear();
                pending.name_text.push_str(text);
                pending.name_line = Some(record.line);
            } else if is_cause(message) {
                let cause = &mut self.pending.cause;
                cause.clear();
                cause.push_str(message.trim_start());
            }
        } else {
            self.close_record(out);
            self.start_record(record.line, text, message, facts);
        }
        self.pending.stamped_lines = facts.message.is_some();
        // A verbose Go test's output came before its failure: shown before it, when the
        // failure's line is in a Go test failure's record.
        self.go_tests.read(record.line, message, || kept_line(text));
        if self.go_tests.has_failed() {
            let pending = &mut self.pending;
            let failure = pending.multiline.is_go_test_failure();
            self.go_tests
                .take_failed(failure.then_some(&mut pending.item.before));
        }
        if self.first_line.is_none() {
            // Its group is set when its record closes.
            let mut text = text.to_string();
            if record.cut {
                text.push_str(LINE_CUT_MARKER);
            }
            self.first_line = Some(Edge {
                line: record.line,
                text,
                group: None,
            });
        }
        self.remember(record.line, text, out);
        // Kept for `fold`, which copies the batch's last line.
        facts.stripped = stripped;
    }

    /// Emits the items of an input reduced: serious records, the first and last lines,
    /// rare templates' examples, the other templates by count.
    fn emit_ranked(
        &self,
        kept: Vec<(LineItem, GroupId)>,
        info: &HashMap<GroupId, TemplateInfo>,
        templates: &[&Template],
        out: &mut dyn Emit<TextItem>,
    ) {
        let miner = &self.miner;
        // The lines of the records shown whole, first to last.
        let mut shown_lines: Vec<(u64, u64)> = kept.iter().map(|(i, _)| i.lines()).collect();
        shown_lines.extend(self.listed_edges.into_iter().flatten());
        let shown = |lines: &[(u64, u64)], line: u64| {
            lines
                .iter()
                .any(|&(first, last)| (first..=last).contains(&line))
        };
        // One record of each serious template first, so a frequent alert is not crowded
        // out by many rare ones; the template's count says how often it happened. An
        // error's second record (another symbol undefined, another mismatch of the same
        // words), and every record of an error template of few, before the warnings and a
        // tool's verdict: `kept` is worst first.
        let mut shown_of: HashMap<GroupId, u32> = HashMap::new();
        let mut extras = Vec::new();
        let mut seconds = Vec::new();
        // A record that says what one of its template before it said but for its values
        // (the same failure again, from another process, at another time) comes after
        // every template, where the template's count says how often: not before the
        // warning that caused it, nor before a rare line.
        // (Hashed only where a template kept several.)
        let mut kept_of: HashMap<GroupId, u32> = HashMap::new();
        for (_, group) in &kept {
            *kept_of.entry(*group).or_default() += 1;
        }
        let mut said: HashSet<(GroupId, u64)> = HashSet::new();
        for (item, group) in kept {
            if !group.is_overflow()
                && kept_of[&group] > 1
                && !said.insert((group, said_alike_hash(&item)))
            {
                extras.push(item);
                continue;
            }
            let shown = shown_of.entry(group).or_default();
            *shown += 1;
            let error = item.severity >= Some(Severity::Error) && !group.is_overflow();
            match *shown {
                1 => {
                    // (A tool's verdict on the errors comes after them all.)
                    if !error || sums_up(&item) {
                        for second in seconds.drain(..) {
                            out.emit(0, TextItem::Line(second));
                        }
                    }
                    out.emit(0, TextItem::Line(item))
                }
                n if error && (n <= PER_TEMPLATE || item.count <= FEW_ERRORS) => seconds.push(item),
                n if n <= PER_TEMPLATE || group.is_overflow() => out.emit(2, TextItem::Line(item)),
                // 5. After every template.
                _ => extras.push(item),
            }
        }
        for second in seconds {
            out.emit(0, TextItem::Line(second));
        }

        // 2. The first and last lines, unless the options leave their records out.
        let edges = self
            .first_line
            .iter()
            .chain(Some(&self.last_line).filter(|last| last.line > 1));
        for edge in edges {
            let Some(group) = edge.group.map(|g| miner.resolve(g)) else {
                continue;
            };
            if shown(&shown_lines, edge.line) || edge.text.trim().is_empty() {
                continue;
            }
            shown_lines.push((edge.line, edge.line));
            let severity = facts::line_severity(&edge.text);
            let count = miner.count_alike(group);
            out.emit(
                1,
                TextItem::Line(LineItem {
                    severity,
                    time: timestamp_range(&edge.text).map(|range| edge.text[range].to_string()),
                    template: group.shown(),
                    count,
                    severity_count: info
                        .get(&group)
                        .and_then(|noted| noted.severity_count(severity, count)),
                    ..LineItem::new(edge.line, edge.text.clone())
                }),
            );
        }

        // A list of paths or of lines at files' lines: where they are.
        if self.filtered_out == 0 {
            for place in self.places.listed() {
                out.emit(1, TextItem::Place(place));
            }
        }

        // 3. Rare templates, an example verbatim, once-seen first; 4. the others by count,
        // the records past the miner's caps as one group, then blank lines' template,
        // which says only how many there are.
        let (blank, templates): (Vec<&Template>, Vec<&Template>) =
            templates.iter().partition(|t| is_blank(t));
        let mut rare: Vec<_> = templates
            .iter()
            .filter(|t| t.count() <= RARE && !shown(&shown_lines, t.first_line()))
            .filter(|t| !info.get(&t.id()).is_some_and(|noted| noted.first_listed))
            .collect();
        rare.sort_by_key(|t| (t.count(), t.first_line()));
        for t in &rare {
            let mut noted = info.get(&t.id()).cloned().unwrap_or_default();
            // The lines of its record left out: `briefly read` has them.
            let named = t.first_line();
            let mut item = match (noted.first_record, noted.first_heading.take()) {
                // Its first line, the example under it, and where the lines between and
                // after them were left out.
                (Some((first, last)), Some(heading)) if first < named && named <= last => {
                    let between = named - first - 1;
                    let after = last - named;
                    let more_gaps = match (between, after) {
                        (0, _) => Vec::new(),
                        (_, 0) => vec![Gap {
                            after: 0,
                            lines: between,
                        }],
                        _ => vec![
                            Gap {
                                after: 0,
                                lines: between,
                            },
                            Gap {
                                after: 1,
                                lines: after,
                            },
                        ],
                    };
                    LineItem {
                        more: vec![example(t)],
                        more_cut: between + after,
                        more_gaps,
                        ..LineItem::new(first, heading)
                    }
                }
                (Some((first, last)), _) if (first..=last).contains(&named) => LineItem {
                    more_cut: last - named,
                    ..LineItem::new(named, example(t))
                },
                _ => LineItem::new(named, example(t)),
            };
            item.severity = noted.severity;
            item.severity_count = noted.severity_count(noted.severity, t.count());
            item.time = noted.first_time.map(|(_, time)| time);
            item.template = t.id().shown();
            item.count = t.count();
            out.emit(3, TextItem::Line(item));
        }
        let item = |kind: &'static str, t: &Template, template: String| {
            let noted = info.get(&t.id()).cloned().unwrap_or_default();
            TextItem::Template(TemplateItem {
                kind,
                id: t.id().shown(),
                template,
                count: t.count(),
                severity: noted.severity,
                severity_count: noted.severity_count(noted.severity, t.count()),
                severities: noted.severities(),
                first_line: t.first_line(),
                last_line: t.last_line(),
                first_time: noted.first_time.map(|(_, time)| time),
                last_time: noted.last_time.map(|(_, time)| time),
                example: example(t),
            })
        };
        // The `other` group among them by its count.
        let other = miner.overflow();
        let mut other_item = (other.count() > 0).then(|| item("other", other, OTHER.to_string()));
        for t in &templates {
            let kept = info
                .get(&t.id())
                .map_or(0, |noted| u64::from(noted.kept.total()));
            if t.count() > RARE && kept < t.count() {
                if t.count() < other.count() {
                    if let Some(other_item) = other_item.take() {
                        out.emit(4, other_item);
                    }
                }
                out.emit(4, item("template", t, t.text()));
            }
        }
        if let Some(other_item) = other_item {
            out.emit(4, other_item);
        }
        for t in blank {
            out.emit(4, item("template", t, t.text()));
        }
        for item in extras {
            out.emit(5, TextItem::Line(item));
        }
    }

    /// Emits an input held whole: every record the options keep, verbatim and whole. The
    /// serious ones come first (worst, then earliest), each an item of its own; the others
    /// follow in order, runs of adjacent records as one [`LinesItem`] (of
    /// [`block_chars_for`] at most), so a line costs its text and no fields of its
    /// own. When the options left records out, each item has `--context`'s lines around it.
    ///
    /// Returns whether a record was longer than a page holds (the layout's
    /// [`record_chars_for`]): its item keeps its first lines, its decisive ones and its
    /// last, as a record's does past the whole input's size, and the input is no longer
    /// returned whole.
    fn emit_whole(&self, whole: Whole, out: &mut dyn Emit<TextItem>) -> bool {
        let miner = &self.miner;
        let mut shortened = false;
        let line = |n: u64| whole.lines[n as usize - 1].clone();
        let context = match self.filtered_out {
            0 => 0,
            _ => self.options.context as u64,
        };
        let last_line = whole.lines.len() as u64;
        let before = |first: u64| -> Vec<(u64, String)> {
            (first.saturating_sub(context).max(1)..first)
                .map(|n| (n, line(n)))
                .collect()
        };
        let after = |last: u64| -> Vec<(u64, String)> {
            (last + 1..=(last + context).min(last_line))
                .map(|n| (n, line(n)))
                .collect()
        };
        let block_chars = self.options.block_chars();
        let mut serious: Vec<LineItem> = Vec::new();
        let mut blocks: Vec<LinesItem> = Vec::new();
        for record in &whole.records {
            let Some(group) = record.group.map(|g| miner.resolve(g)) else {
                continue;
            };
            if record.severity >= Some(Severity::Warn) {
                let (more, more_cut, more_gaps) = kept_lines(
                    (record.first + 1..=record.last).map(line),
                    self.options.record_kept(),
                    self.grep.as_ref(),
                );
                shortened |= more_cut > 0;
                serious.push(LineItem {
                    severity: record.severity,
                    more,
                    more_cut,
                    more_gaps,
                    time: record.time.clone(),
                    template: group.shown(),
                    count: miner.count_alike(group),
                    before: {
                        let mut lines = before(record.first);
                        lines.extend(record.held_before.iter().cloned());
                        lines.sort_by_key(|(n, _)| *n);
                        lines
                    },
                    after: after(record.last),
                    ..LineItem::new(record.first, line(record.first))
                });
                continue;
            }
            let lines: Vec<&str> = (record.first..=record.last)
                .map(|n| whole.lines[n as usize - 1].as_str())
                .collect();
            let text = lines.join("\n");
            match blocks.last_mut().filter(|block| {
                block.last + 1 == record.first && block.text.len() + 1 + text.len() <= block_chars
            }) {
                Some(block) => {
                    block.text.push('\n');
                    block.text.push_str(&text);
                    block.last = record.last;
                    block.after = after(record.last);
                }
                None => blocks.push(LinesItem {
                    kind: "lines",
                    line: record.first,
                    last: record.last,
                    text,
                    before: before(record.first),
                    after: after(record.last),
                }),
            }
        }
        // A tool's verdict on what it printed (`make: *** … Error 1`) after the rest.
        serious.sort_by_cached_key(|item| {
            (std::cmp::Reverse(item.severity), sums_up(item), item.line)
        });
        for item in serious {
            out.emit(0, TextItem::Line(item));
        }
        for block in blocks {
            out.emit(1, TextItem::Lines(block));
        }
        shortened
    }

    /// Holds line `line` while the input is small enough to be returned whole.
    fn hold(&mut self, line: u64, text: &str, out: &mut dyn Emit<TextItem>) {
        let Some(whole) = &mut self.whole else {
            return;
        };
        // A line the framing cut is not the input whole.
        if self.line_cut || !whole.chars.take(text) || line != whole.lines.len() as u64 + 1 {
            self.stop_holding(out);
            return;
        }
        whole.lines.push(text.to_string());
    }

    /// Stops holding the input whole: it is too large to return so. When the options
    /// narrow it, each record held that they kept and no ranked item will show is listed
    /// ([`LISTED_RANK`]), as those after it will be.
    fn stop_holding(&mut self, out: &mut dyn Emit<TextItem>) {
        let Some(whole) = self.whole.take() else {
            return;
        };
        if !self.listing() {
            return;
        }
        let shown: HashSet<u64> = self.kept.iter().map(|(_, item, _)| item.line).collect();
        let context = self.options.context as u64;
        let line = |n: u64| whole.lines[n as usize - 1].clone();
        let held_lines = whole.lines.len() as u64;
        for record in &whole.records {
            let Some(mined) = record.group else {
                continue;
            };
            if shown.contains(&record.first) {
                continue;
            }
            self.note_listed(mined, (record.first, record.last));
            let group = self.miner.resolve(mined);
            if context == 0 && self.listing.is_empty() && !out.wants(LISTED_RANK) {
                out.skip(LISTED_RANK);
                continue;
            }
            let (more, more_cut, more_gaps) = kept_lines(
                (record.first + 1..=record.last).map(line),
                self.options.record_kept(),
                self.grep.as_ref(),
            );
            let after: Vec<(u64, String)> = (record.last + 1
                ..=(record.last + context).min(held_lines))
                .map(|n| (n, line(n)))
                .collect();
            let left = context as usize - after.len();
            let item = LineItem {
                severity: record.severity,
                more,
                more_cut,
                more_gaps,
                time: record.time.clone(),
                template: group.shown(),
                count: self.miner.count_alike(group),
                before: (record.first.saturating_sub(context).max(1)..record.first)
                    .map(|n| (n, line(n)))
                    .collect(),
                after,
                ..LineItem::new(record.first, line(record.first))
            };
            self.list(item, left, out);
        }
    }

    fn remember(&mut self, line: u64, text: &str, out: &mut dyn Emit<TextItem>) {
        let context = self.options.context;
        if context == 0 {
            return;
        }
        for (item, left) in self.listing.iter_mut().filter(|(_, left)| *left > 0) {
            item.after.push((line, kept_line(text)));
            *left -= 1;
        }
        while self.listing.front().is_some_and(|(_, left)| *left == 0) {
            let (item, _) = self.listing.pop_front().expect("a front");
            out.emit(LISTED_RANK, TextItem::Line(item));
        }
        for (slot, generation, left) in self.awaiting.iter_mut() {
            if self.kept[*slot].0 == *generation && *left > 0 {
                self.kept[*slot].1.after.push((line, kept_line(text)));
                *left -= 1;
            }
        }
        while self
            .awaiting
            .front()
            .is_some_and(|(slot, generation, left)| *left == 0 || self.kept[*slot].0 != *generation)
        {
            self.awaiting.pop_front();
        }
        if self.recent.len() == context {
            self.recent.pop_front();
        }
        self.recent.push_back((line, kept_line(text)));
    }
}

/// Hashes a template id (already a small unique number) by one multiply.
#[derive(Default)]
struct IdHasher(u64);

impl std::hash::Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.0 = u64::from(n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// The slot of the least severe record kept that `of` takes, by its template and
/// severity (the latest of them), and its severity.
fn least_kept(
    kept: &[(u64, LineItem, GroupId)],
    of: impl Fn(GroupId, Option<Severity>) -> bool,
) -> Option<(usize, Option<Severity>)> {
    kept.iter()
        .enumerate()
        .filter(|(_, (_, item, group))| of(*group, item.severity))
        .min_by_key(|(i, (_, k, _))| (k.severity, std::cmp::Reverse(*i)))
        .map(|(i, (_, k, _))| (i, k.severity))
}

/// Where a record of `severity` is counted in a histogram by severity: unmarked, then
/// [`Severity::ALL`] in order.
fn slot_of(severity: Option<Severity>) -> usize {
    severity.map_or(0, |s| s as usize + 1)
}

/// Whether a template is blank lines' (or lines of spaces): it has no words.
fn is_blank(t: &Template) -> bool {
    t.example().trim().is_empty()
}

/// A template's example as shown: with a marker where the miner cut it (which
/// [`briefly_core::cut_str`] counts in, cutting it further).
pub fn example(t: &Template) -> String {
    match t.example_cut() {
        0 => t.example().to_string(),
        cut => briefly_core::with_cut_marker(t.example(), cut),
    }
}

/// The container's name that opens `text` (its [`LineFacts::source`]), or nothing.
fn source_of<'a>(text: &'a str, facts: &LineFacts) -> &'a str {
    facts.source.clone().map_or("", |name| &text[name])
}

/// Whether two lines' container names are the same. Nearly every line has none: two
/// empty names are told apart by their lengths alone, because an empty string's pointer
/// may be dangling and glibc's `memcmp` reads at it with a masked load even for no bytes,
/// which costs a fault-suppression assist (on AMD Zen, about a quarter of the folding
/// thread's samples in `perf` when this ran for every line: measured by hand).
fn same_source(a: &str, b: &str) -> bool {
    a.len() == b.len() && (a.is_empty() || a == b)
}

/// A line's time as items and the time span show it: glog's without the level letter
/// its stamp is read with (`I0514 09:00:00.000000` is `0514 09:00:00.000000`).
fn shown_time(stamp: &str) -> &str {
    let b = stamp.as_bytes();
    let glog = b.len() > 5
        && matches!(b[0], b'I' | b'W' | b'E' | b'F')
        && b[1..5].iter().all(u8::is_ascii_digit)
        && b[5] == b' ';
    if glog {
        &stamp[1..]
    } else {
        stamp
    }
}

/// Whether a line after a record's first, of `severity`, is kept in a long record's
/// middle: a cause, an error in it (a failed subtest's `--- FAIL:` in its parent's
/// record; not a chained traceback's `Traceback (most recent call last):`, an exception
/// group's behind its bar too, whose exception says what went wrong) or a Go test's own
/// frame in a goroutine dump.
fn is_decisive(message: &str, severity: Option<Severity>) -> bool {
    is_cause(message)
        || (severity >= Some(Severity::Error)
            && !(message.trim_start_matches([' ', '|']))
                .starts_with(severity::multiline::TRACEBACK))
        || is_go_test_frame(message)
}

/// The lines of a record after its first that `kept` keeps
/// ([`KeptLines`]: the first, the decisive ones ([`is_decisive`]) and those `grep`
/// matches, and the last), with how many were left out and where.
fn kept_lines(
    lines: impl Iterator<Item = String>,
    mut kept: KeptLines,
    grep: Option<&Regex>,
) -> (Vec<String>, u64, Vec<Gap>) {
    let mut more = Vec::new();
    for line in lines {
        let matched = grep.is_some_and(|grep| grep.is_match(&line));
        let decisive = matched || is_decisive(&line, classify(&line));
        kept.push(&mut more, &line, decisive);
    }
    let mut gaps = Vec::new();
    let cut = kept.finish(&mut more, &mut gaps);
    (more, cut, gaps)
}

/// A blank line held for one line ([`Text::held_blank`]): what its record needs.
#[derive(Debug)]
struct HeldBlank {
    line: u64,
    offset: u64,
    crlf: bool,
    /// Its bytes (spaces and tabs at most).
    bytes: Vec<u8>,
    facts: LineFacts,
}

/// A line as held for an item: at most [`MAX_KEPT_CHARS`], cut with a marker.
fn kept_line(text: &str) -> String {
    briefly_core::cut_str(text, MAX_KEPT_CHARS).into_owned()
}

/// Statistics of `briefly text`.
#[derive(Debug, Clone, Serialize)]
pub struct TextStats {
    /// Input lines.
    pub lines: u64,
    /// Records (a multi-line record counts once).
    pub records: u64,
    /// Templates mined.
    pub templates: usize,
    /// Records by severity.
    pub severity: BTreeMap<&'static str, u64>,
    /// The earliest and latest timestamps, when every one is a date first of one length
    /// (they sort as their text does); else the first and last seen.
    pub time_span: Option<(String, String)>,
    /// Records left out by `--level`, `--since`, `--until` or `--grep`.
    pub filtered_out: u64,
    /// Records past the template cap, counted in an "other" group.
    pub other_records: u64,
    /// Records of more than one line.
    pub multiline_records: u64,
    /// The input is a list of paths: how many, in how many directories.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path_list: Option<PathStats>,
    /// The input is a list of lines at files' lines (`grep -rn`): how many, in how many
    /// files.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub located_lines: Option<LocatedStats>,
    /// The most frequent templates.
    pub top_templates: Vec<Value>,
    /// Lines with ANSI colour codes (stripped for matching).
    pub ansi_lines: u64,
    /// Lines redrawn with carriage returns (progress bars): their last state is read.
    #[serde(skip_serializing_if = "briefly_core::is_zero")]
    pub redrawn_lines: u64,
    /// Lines that ended in CRLF: read and shown without the `\r`.
    #[serde(skip_serializing_if = "briefly_core::is_zero")]
    pub crlf_lines: u64,
    /// Lines that were `go test -json` events, read as the output line each carries
    /// (what `go test -v` prints).
    #[serde(skip_serializing_if = "briefly_core::is_zero")]
    pub go_test_events: u64,
    /// Of them, events that carry no output (`start`, `run`, `pass`, `fail` …; their
    /// output lines say the same): in no record or template.
    #[serde(skip_serializing_if = "briefly_core::is_zero")]
    pub bare_events: u64,
}

impl FoldBatches for Text {
    type Prepare = Facts;
    type Item = TextItem;
    type Stats = TextStats;

    fn ahead(&self) -> &Ahead<Facts> {
        &self.ahead
    }

    fn ahead_mut(&mut self) -> &mut Ahead<Facts> {
        &mut self.ahead
    }

    /// Folds a batch of lines whose facts are ready, in order.
    fn fold(&mut self, batch: &mut Batch<LineFacts>, out: &mut dyn Emit<TextItem>) {
        let mut last_shown = None;
        for i in 0..batch.len() {
            let (record, facts) = batch.entry(i);
            match facts.go_test_event {
                Some(EventLine::Bare { failed }) => {
                    self.skip_bare_event(failed);
                    continue;
                }
                Some(EventLine::Output) => self.go_test_events += 1,
                None => {}
            }
            last_shown = Some(i);
            if let Some(held) = self.held_blank.take() {
                let text = facts.stripped.as_deref().unwrap_or(record.text);
                let message = facts.message.map_or(text, |at| &text[at..]);
                self.pending.multiline.blank_followed_by(message);
                self.fold_held(held, out);
            }
            // (The record's state first: it rules out nearly every line.)
            let held = self.pending.open
                && self.pending.multiline.may_set_apart_an_exception()
                && record.text.trim().is_empty()
                && facts.stripped.is_none();
            if held {
                self.held_blank = Some(HeldBlank {
                    line: record.line,
                    offset: record.offset,
                    crlf: record.crlf,
                    bytes: record.bytes.to_vec(),
                    facts: std::mem::take(facts),
                });
                continue;
            }
            self.fold_line(&record, facts, out);
        }
        // The last line is kept once per batch, not copied for every line.
        if let Some(i) = last_shown {
            let (record, facts) = batch.entry(i);
            let last = &mut self.last_line;
            last.line = record.line;
            last.text.clear();
            last.text
                .push_str(facts.stripped.as_deref().unwrap_or(record.text));
            if record.cut {
                last.text.push_str(LINE_CUT_MARKER);
            }
            // Set when its record closes.
            last.group = None;
        }
    }

    /// A record listed as it was read (`--grep`, `--since`) has its template's count and
    /// id as at the end, as every other item of the template says them.
    fn fitted(&self, envelope: &mut Envelope) {
        for item in &mut envelope.items {
            let Some(id) = item.get("template").and_then(Value::as_u64) else {
                continue;
            };
            let Ok(id) = u32::try_from(id) else {
                continue;
            };
            let group = GroupId(id);
            item["template"] = json!(self.miner.resolve(group).shown());
            item["count"] = json!(self.miner.count_alike(group));
        }
    }

    fn outcome(&mut self, out: &mut dyn Emit<TextItem>) -> Outcome<TextStats> {
        if let Some(held) = self.held_blank.take() {
            self.fold_held(held, out);
        }
        self.close_record(out);
        for (item, _) in self.listing.drain(..) {
            out.emit(LISTED_RANK, TextItem::Line(item));
        }
        let miner = &self.miner;
        // Merged templates: fold what was noted under old ids into the survivors.
        let mut info: HashMap<GroupId, TemplateInfo> = HashMap::new();
        for (id, noted) in self.info.drain() {
            let entry = info.entry(miner.resolve(id)).or_default();
            entry.severity = entry.severity.max(noted.severity);
            for (sum, n) in entry.by_severity.iter_mut().zip(noted.by_severity) {
                *sum += n;
            }
            entry.kept.merge(noted.kept);
            // In the order of the input, not of the map.
            entry.first_time = [entry.first_time.take(), noted.first_time]
                .into_iter()
                .flatten()
                .min_by_key(|(line, _)| *line);
            entry.last_time = [entry.last_time.take(), noted.last_time]
                .into_iter()
                .flatten()
                .max_by_key(|(line, _)| *line);
            // Whether the first of them is listed.
            let first = [
                (entry.first_record)
                    .map(|lines| (lines, entry.first_listed, entry.first_heading.take())),
                (noted.first_record).map(|lines| (lines, noted.first_listed, noted.first_heading)),
            ];
            let first = first.into_iter().flatten().min_by_key(|(lines, ..)| *lines);
            (entry.first_record, entry.first_listed, entry.first_heading) = match first {
                Some((lines, listed, heading)) => (Some(lines), listed, heading),
                None => (None, false, None),
            };
        }

        // 1. Serious records: worst first, a compiler's diagnostic before other records
        // (Maven's `Failed to execute goal`) and a tool's verdict on what it printed after
        // every other (cargo's `could not compile`, `collect2: error: ld returned 1`,
        // `make: *** … Error 1`, javac's `2 errors`), then rarest template, then earliest.
        let mut kept: Vec<(LineItem, GroupId)> = self
            .kept
            .drain(..)
            .map(|(_, item, group)| (item, group))
            .collect();
        for (item, group) in &mut kept {
            *group = miner.resolve(*group);
            item.template = group.shown();
            item.count = miner.count_alike(*group);
            item.severity_count = info
                .get(group)
                .and_then(|noted| noted.severity_count(item.severity, item.count));
        }
        // The record the output ends in, when it is an error of several lines (an uncaught
        // traceback, a panic, a Java stack): a program's last words, why it stopped, come
        // after whatever it logged before, and are ranked first among records of their
        // severity.
        // Not so: a tool's verdict on what it printed, a compiler's diagnostic, or a test's
        // report past the first of a numbered list (Mocha's `  2) …`).
        let serious = |item: &LineItem| item.severity >= Some(Severity::Error);
        let ending = kept
            .iter()
            .filter(|(item, _)| serious(item))
            .max_by_key(|(item, _)| item.line)
            .filter(|(item, _)| {
                !item.more.is_empty() && item.lines().1 + ENDING_SLACK >= self.lines
            })
            .filter(|(item, _)| {
                let message = facts::message(&item.text).trim_start();
                verdict(message) != Some(Verdict::SumsUp)
                    && !is_diagnostic_header(message)
                    && !is_compiler_context(message)
                    && !is_numbered_past_first(message)
                    // A panic passing on another thread's, which says why.
                    && !(item.more.first()).is_some_and(|line| passes_a_panic_on(line.trim()))
            })
            .map(|(item, _)| item.line);
        kept.sort_by_cached_key(|(item, _)| {
            let message = facts::message(&item.text);
            let sums_up = verdict(message) == Some(Verdict::SumsUp);
            (
                std::cmp::Reverse(item.severity),
                Some(item.line) != ending,
                sums_up,
                !is_diagnostic_header(message) && !sums_up,
                item.count,
                // Of records as rare, one of several lines (a traceback, a test's report)
                // before a line alone (unittest's `test_x (…) ... ERROR` above its report).
                item.more.is_empty(),
                item.line,
            )
        });
        // Multi-line records shown whole: kept to the end, none of their lines left out.
        let multiline_shown = kept
            .iter()
            .filter(|(i, _)| !i.more.is_empty() && i.more_cut == 0)
            .count() as u64;
        // Binary data: its templates and lines would be noise that fills the result (the
        // artifact has it); only its serious records of text are shown (an error a
        // program wrote after it).
        let binary = is_binary(self.nul_lines, self.lines);
        if binary {
            kept.retain(|(item, _)| all_text(item));
        } else if self.binary_unlisted > 0 {
            self.warnings.push(format!(
                "{} the options kept held binary data's bytes (NUL, invalid UTF-8) while the \
                 input looked binary, and {} not listed in order (the artifact has them)",
                counted(self.binary_unlisted, "record", "records"),
                if self.binary_unlisted == 1 {
                    "was"
                } else {
                    "were"
                }
            ));
        }
        // The summary names the first record of the worst severity seen, by its first
        // line and the line that says what went wrong, when another does.
        let said = |i: &LineItem| {
            // The lines' messages, in a log that stamps every line, read without the
            // first's indentation, as its record was (pip's box holds a traceback).
            let first = facts::message(&i.text);
            let indent = first.len() - first.trim_start_matches([' ', '\t']).len();
            let messages = (i.more.iter()).map(|line| without_indent(facts::message(line), indent));
            let text = match what_went_wrong(&first[indent..], messages) {
                Some(name) => {
                    // Its first 80 characters after its time: a long prefix (PostgreSQL's
                    // `… UTC [2735] app@postgres`) leaves what failed in them.
                    let line = i.text.trim_start();
                    let stamp = line.len() - facts::message(line).len();
                    let chars = line[..stamp].chars().count() + 80;
                    format!("{} … {}", cut_str(line, chars), name.trim_start())
                }
                None => i.text.trim_start().to_string(),
            };
            (i.line, i.severity.unwrap_or(Severity::Warn), text)
        };
        // (A tool's verdict on what it printed, Mocha's `  2 failing`, names it only when
        // nothing else of its severity does.)
        let first_serious = (kept.iter().map(|(i, _)| i))
            .min_by_key(|i| (std::cmp::Reverse(i.severity), sums_up(i), i.line));
        // A test runner's line that a test failed says why only in its report, later:
        // the first serious record after it that names the test. A build's verdict
        // (Maven's `[INFO] BUILD FAILURE`) comes before the errors that say why: the
        // first of them.
        let report = first_serious.and_then(|first| {
            let after = kept
                .iter()
                .map(|(i, _)| i)
                .filter(|i| i.line > first.line && i.severity >= first.severity);
            match verdict(facts::message(&first.text)) {
                // The output's record of several lines (its traceback, a test's report)
                // says why, not the box's `× … did not run successfully.` over it or the
                // list of the tests that failed.
                Some(Verdict::ReportFollows) => {
                    return after.min_by_key(|i| (i.more.is_empty(), i.line))
                }
                Some(Verdict::ErrorsFollow) => return after.min_by_key(|i| i.line),
                _ => {}
            }
            let test = failed_test_named(&first.text)?;
            after
                .filter(|i| i.text.contains(test) && failed_test_named(&i.text).is_none())
                .min_by_key(|i| i.line)
        });
        // A verbose Go test's output comes before its `--- FAIL:` (testify's `Error: Not
        // equal:`): an error it logged is named by the failure that shows it, which names
        // the test.
        let go_failure = first_serious.and_then(|first| {
            (kept.iter().map(|(i, _)| i)).find(|i| {
                i.text.starts_with("--- FAIL: ")
                    && i.severity >= first.severity
                    && i.before.iter().any(|b| b.0 == first.line)
            })
        });
        let (first_serious, report, reported) = match go_failure {
            Some(failure) => (Some(failure), first_serious, "logged"),
            None => (first_serious, report, "reported"),
        };
        let first_serious = first_serious.map(|first| {
            let (line, severity, text) = said(first);
            let text = match report {
                Some(report) => format!(
                    "{}, {reported} at line {}: {}",
                    cut_str(&text, 80),
                    report.line,
                    cut_middle(&said(report).2, SAID_CHARS)
                ),
                None => cut_middle(&text, SAID_CHARS).into_owned(),
            };
            (line, severity, text)
        });
        // The record ranked first, when the summary names it nowhere else (not its first
        // serious record, nor that record's report): the output's last words; or an error ranked first another way, a rarer template of the same
        // severity (the one traceback among 300 of another exception, a compiler's error
        // after a service's 500s), likelier what went wrong than the first record of a
        // template seen hundreds of times.
        let top = (kept.first().map(|(i, _)| i))
            .filter(|i| first_serious.as_ref().is_some_and(|f| f.0 != i.line))
            .filter(|i| report.is_none_or(|r| r.line != i.line));
        let ended_in = top.filter(|i| Some(i.line) == ending).map(said);
        let ranked_first = (top.filter(|i| serious(i) && Some(i.line) != ending)).map(said);
        let templates = miner.templates_by_count();
        let whole = self.whole.take();
        let mut returned_whole = whole.is_some();
        match whole {
            _ if binary => {
                for (item, _) in kept {
                    out.emit(0, TextItem::Line(item));
                }
            }
            Some(whole) => returned_whole = !self.emit_whole(whole, out),
            None => self.emit_ranked(kept, &info, &templates, out),
        }

        if self.untimed > 0 {
            self.warnings.push(format!(
                "--since/--until: {} no time briefly can read, on them or on a record before \
                 them; they were kept, not filtered",
                counted(self.untimed, "record has", "records have")
            ));
        }
        if self.yearless > 0 {
            let year = self.options.year;
            self.warnings.push(format!(
                "--since/--until: {} no year, read as of {year} (or {}, for a time that would be ahead of now)",
                counted(self.yearless, "record's time has", "records' times have"),
                year - 1
            ));
        }
        if self.unread_zones > 0 {
            self.warnings.push(format!(
                "--since/--until: {} a zone by name (CEST, PST) after it, read as UTC: name the window in that zone's offset",
                counted(self.unread_zones, "record's time has", "records' times have")
            ));
        }
        if let Some(groups) = self.groups.take() {
            if let Err(e) = groups.finish(&self.miner, self.lines) {
                self.warnings.push(format!("--emit-groups: {e}"));
            }
        }
        let severity: BTreeMap<&'static str, u64> = std::iter::once("unmarked")
            .chain(Severity::ALL.iter().map(|s| s.name()))
            .zip(self.histogram)
            .filter(|(_, n)| *n > 0)
            .collect();
        let count = |name: &str| severity.get(name).copied().unwrap_or(0);
        let (errors, warns) = (count("error") + count("fatal"), count("warn"));
        let (lines, records) = (plural(self.lines, "line"), plural(self.records, "record"));
        let template_count = plural(self.miner.len() as u64, "template");
        let (errors, warns) = (plural(errors, "error"), plural(warns, "warning"));
        let mut summary = if self.filtered_out == 0 {
            format!("{lines}, {records} in {template_count}; {errors}, {warns}")
        } else {
            // The counts of the whole input, and what the options kept of it.
            format!(
                "{lines}, {records}, {} of them kept by the options, in {template_count}; \
                 {errors}, {warns} in the input",
                self.records - self.filtered_out,
            )
        };
        let (path_list, located_lines) = (self.places.path_stats(), self.places.located_stats());
        let places = match (&path_list, &located_lines) {
            (Some(list), _) => Some((
                plural(list.paths, "path"),
                counted(list.directories as u64, "directory", "directories"),
                list.counted_above,
                list.uncounted,
            )),
            (_, Some(list)) => Some((
                plural(list.lines, "line"),
                plural(list.files as u64, "file"),
                0,
                list.uncounted,
            )),
            _ => None,
        };
        if let Some((what, places, above, uncounted)) = places {
            summary.push_str(&format!("; {what} in {places}"));
            if above > 0 {
                summary.push_str(&format!(
                    " ({above} counted in a directory above their own)"
                ));
            }
            if uncounted > 0 {
                summary.push_str(&format!(" ({uncounted} in others, not counted apart)"));
            }
        }
        if binary {
            summary = format!(
                "binary data, not shown (the artifact has it): {lines}, {} of them with NUL bytes",
                self.nul_lines
            );
        } else if self.records == 0 && self.bare_events > 0 {
            // Events filtered to their results (`jq 'select(.Action == "fail")'`): what
            // they say is in no output line to show.
            summary = format!(
                "{lines}: go test -json events that carry no output, {} of them a failure \
                 (`fail`, `build-fail`); none shown: the events are whole in the artifact",
                self.bare_failures
            );
        } else if returned_whole {
            summary.push_str(match self.filtered_out {
                0 => "; returned whole",
                _ => "; the records kept returned whole",
            });
        }
        if let Some((line, severity, text)) = first_serious {
            summary.push_str(&format!("; first {severity} at line {line}: {text}"));
        }
        if let Some((line, severity, text)) = ended_in {
            let text = cut_middle(&text, SAID_CHARS);
            let article = if severity == Severity::Error {
                "an"
            } else {
                "a"
            };
            summary.push_str(&format!(
                "; the output ends in {article} {severity} at line {line}: {text}"
            ));
        }
        if let Some((line, severity, text)) = ranked_first {
            let text = cut_middle(&text, SAID_CHARS);
            summary.push_str(&format!(
                "; ranked first: {severity} at line {line}: {text}"
            ));
        }
        let top_templates = match binary {
            true => Vec::new(),
            false => {
                // The `other` group among them by its count, without an id.
                let other = self.miner.overflow();
                let mut listed: Vec<(u64, Value)> = templates
                    .iter()
                    .filter(|t| !is_blank(t))
                    .take(self.options.top)
                    .map(|t| {
                        let entry =
                            json!({"id": t.id().0, "template": t.text(), "count": t.count()});
                        (t.count(), entry)
                    })
                    .collect();
                if other.count() > 0 {
                    let at = listed.partition_point(|(count, _)| *count >= other.count());
                    let entry = json!({"template": OTHER, "count": other.count()});
                    listed.insert(at, (other.count(), entry));
                    listed.truncate(self.options.top);
                }
                listed.into_iter().map(|(_, entry)| entry).collect()
            }
        };
        let stats = TextStats {
            lines: self.lines,
            records: self.records,
            multiline_records: self.multiline,
            templates: self.miner.len(),
            other_records: self.miner.overflow_count(),
            filtered_out: self.filtered_out,
            severity,
            time_span: match &self.time_order {
                TimeOrder::OutOfOrder(earliest, latest) => Some((earliest.clone(), latest.clone())),
                _ => self.first_time.clone().zip(self.last_time.clone()),
            },
            top_templates,
            ansi_lines: self.ansi_lines,
            redrawn_lines: self.redrawn_lines,
            crlf_lines: self.crlf_lines,
            go_test_events: self.go_test_events,
            bare_events: self.bare_events,
            path_list,
            located_lines,
        };
        let mut outcome = Outcome::new(summary, stats);
        outcome.preview = Preview::Ranked;
        outcome.cut_next_item = true;
        // Complete only when every record is shown whole: returned whole, or each of its
        // own template, a one-line record verbatim (as a serious, edge or once-seen
        // line), a multi-line one as a serious record kept with all its lines; and no
        // colour codes stripped (items show the lines without them).
        let as_they_are =
            self.ansi_lines == 0 && self.redrawn_lines == 0 && self.go_test_events == 0;
        outcome.returned_whole = returned_whole && !binary;
        outcome.complete = self.filtered_out == 0 && as_they_are && returned_whole
            || self.filtered_out == 0
                && !self.shown_cut
                && as_they_are
                && self.miner.templates().all(|t| t.example_cut() == 0)
                && multiline_shown == self.multiline
                && self.miner.overflow_count() == 0
                && self.miner.templates().all(|t| t.count() == 1);
        outcome.complete &= !binary;
        if self.ansi_lines > 0 {
            outcome.warnings.push(format!(
                "{} ANSI colour codes, stripped",
                counted(self.ansi_lines, "line had", "lines had")
            ));
        }
        if self.redrawn_lines > 0 {
            outcome.warnings.push(format!(
                "{} redrawn with carriage returns (progress bars): each is read and shown in \
                 its last state (or a worse one it drew over), the whole in the artifact",
                counted(self.redrawn_lines, "line was", "lines were")
            ));
        }
        if self.go_test_events > 0 {
            outcome.warnings.push(format!(
                "{} (go test -json), each read and shown as the output line it carries{}; \
                 the events whole in the artifact",
                counted(
                    self.go_test_events,
                    "line was a test event",
                    "lines were test events"
                ),
                match self.bare_events {
                    0 => String::new(),
                    n => format!(" ({n} with no output, as run and pass, not shown)"),
                }
            ));
        }
        if self.crlf_lines > 0 {
            // The line break alone: the text is whole, so nothing counts as left out.
            outcome.warnings.push(format!(
                "{} in CRLF, read and shown without the \\r",
                counted(self.crlf_lines, "line ended", "lines ended")
            ));
        }
        if self.miner.overflow_count() > 0 {
            outcome.warnings.push(format!(
                "{} when the miner was full (at most {} templates, and bounds on shapes and \
                 ids that follow from it): they are one \"other\" group",
                counted(self.miner.overflow_count(), "record came", "records came"),
                self.miner.config().max_templates
            ));
        }
        outcome.warnings.append(&mut self.warnings);
        outcome
    }
}

/// What the `other` group is, in place of a template.
const OTHER: &str = "(records past the template cap, not told apart)";

/// The first or the last line of the input, with the group of its record (`None` when
/// the options leave that record out).
#[derive(Debug, Default)]
struct Edge {
    line: u64,
    text: String,
    group: Option<GroupId>,
}

/// `--emit-groups`: one line's group id per line, written raw while reading (4 bytes a
/// line, to a temporary file) and as resolved JSON lines at the end, so merged templates
/// show their final id.
struct GroupWriter {
    path: PathBuf,
    raw: BufWriter<std::fs::File>,
    /// Lines written.
    lines: u64,
}

const NO_GROUP: u32 = u32::MAX - 1;

impl GroupWriter {
    fn new(path: PathBuf) -> Result<GroupWriter, String> {
        // Only whether it can be written, now: its content is replaced at the end.
        std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| format!("--emit-groups {}: {e}", path.display()))?;
        let raw = tempfile::tempfile().map_err(|e| format!("--emit-groups: {e}"))?;
        Ok(GroupWriter {
            path,
            raw: BufWriter::new(raw),
            lines: 0,
        })
    }

    /// The group of one record's lines, `first` to `last`; lines before it in none (a
    /// `go test -json` event that carries no output is in no record).
    fn push(&mut self, group: Option<GroupId>, first: u64, last: u64) {
        self.write_through(first.saturating_sub(1), NO_GROUP);
        self.write_through(last, group.map_or(NO_GROUP, |g| g.0));
    }

    /// Writes `id` for each line up to `line`.
    fn write_through(&mut self, line: u64, id: u32) {
        for _ in self.lines..line {
            let _ = self.raw.write_all(&id.to_le_bytes());
        }
        self.lines = self.lines.max(line);
    }

    /// Writes the file of the input's `lines` lines (those after the last record in none).
    fn finish(mut self, miner: &Miner, lines: u64) -> std::io::Result<()> {
        self.write_through(lines, NO_GROUP);
        let mut raw = self.raw.into_inner().map_err(|e| e.into_error())?;
        raw.rewind()?;
        let mut raw = std::io::BufReader::new(raw);
        let mut out = BufWriter::new(std::fs::File::create(&self.path)?);
        let mut buf = [0u8; 4];
        let mut line = 0u64;
        while raw.read_exact(&mut buf).is_ok() {
            line += 1;
            let id = u32::from_le_bytes(buf);
            match id {
                NO_GROUP => writeln!(out, "{{\"line\":{line},\"group\":null}}")?,
                _ => match miner.resolve(GroupId(id)).shown() {
                    Some(id) => writeln!(out, "{{\"line\":{line},\"group\":{id}}}")?,
                    // Past the template cap: in no group of lines alike.
                    None => writeln!(out, "{{\"line\":{line},\"group\":null,\"other\":true}}")?,
                },
            }
        }
        out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use briefly_core::testkit::{assert_batch_prepares_as_each, reduce_all_chunkings};
    use briefly_core::{reduce, Reducer, RunConfig};
    use severity::multiline::is_tsc_pretty_header;

    /// The default options, with input never returned whole: for the rules of folding.
    fn folding() -> TextOptions {
        TextOptions {
            whole_chars: Some(0),
            ..TextOptions::default()
        }
    }

    /// The envelope of `input` reduced with `options`.
    fn envelope_of(options: TextOptions, input: &[u8]) -> briefly_core::Envelope {
        reduce(Text::new(options).unwrap(), input, &RunConfig::new("text")).unwrap()
    }

    /// The envelope of `input` with the default options, the same in every chunking.
    fn chunked(input: &[u8]) -> briefly_core::Envelope {
        reduce_all_chunkings(
            || Text::new(TextOptions::default()).unwrap(),
            input,
            &RunConfig::new("text"),
        )
    }

    #[test]
    fn a_dotnet_console_record_is_told_apart_by_its_message_not_its_category() {
        // ASP.NET Core's console logger: a level and a category, the message indented
        // under them. Every record has the same header; the one message that differs is
        // the evidence.
        let mut input = String::new();
        for i in 0..40 {
            let message = match i {
                20 => "Dropping message after 5 attempts: broker rejected payload".into(),
                _ => format!("Retrying publish of message {} (attempt 1)", 1000 + i),
            };
            input.push_str(&format!("warn: Shop.Outbox[0]\n      {message}\n"));
        }
        let envelope = envelope_of(folding(), input.as_bytes());
        assert_eq!(envelope.stats["templates"], 2, "{}", envelope.stats);
        let dropped = envelope.items.iter().position(|item| {
            item["line"] == 41 && item["more"].to_string().contains("Dropping message")
        });
        assert_eq!(dropped, Some(0), "{:#?}", envelope.items);
        let templates = envelope.stats["top_templates"].to_string();
        assert!(
            templates.contains("Retrying publish of message <*>"),
            "{templates}"
        );
        // The summary names a record by its message, an exception logged with it first.
        let failed =
            "fail: Api.Orders[1]\n      Request failed\n      System.TimeoutException: db\n";
        let envelope = envelope_of(folding(), format!("{input}{failed}").as_bytes());
        assert!(
            envelope
                .summary
                .contains("fail: Api.Orders[1] … System.TimeoutException: db"),
            "{}",
            envelope.summary
        );
    }

    #[test]
    fn a_traceback_journalctl_prints_is_one_record_of_its_process() {
        // `journalctl -u shop` (its short format): every line is stamped and tagged, so
        // its records are read by the message after the tag, and another process's line
        // ends one.
        let line = |tag: &str, message: &str| format!("Dec 06 10:05:00 web1 {tag}: {message}\n");
        let mut input: String = (0..300)
            .map(|i| line("shop[812]", &format!("INFO:shop:served request {i}")))
            .collect();
        for message in [
            "ERROR:shop:order 7 failed",
            "Traceback (most recent call last):",
            "  File \"/srv/shop/app.py\", line 88, in handle",
            "    total = price(order)",
            "IndexError: list index out of range",
        ] {
            input.push_str(&line("shop[812]", message));
        }
        input.push_str(&line("shop[812]", "ERROR:shop:order 8 failed"));
        input.push_str(&line("shop[812]", "Traceback (most recent call last):"));
        input.push_str(&line(
            "cron[90]",
            "  (root) CMD (run-parts /etc/cron.hourly)",
        ));
        input.push_str(&line(
            "shop[812]",
            "  File \"/srv/shop/app.py\", line 90, in handle",
        ));
        let envelope = envelope_of(folding(), input.as_bytes());
        let at = |n: u64| envelope.items.iter().find(|i| i["line"] == n).unwrap();
        let first = at(301);
        assert_eq!(first["more"].as_array().map(Vec::len), Some(4), "{first}");
        assert!(
            envelope
                .summary
                .contains("ERROR:shop:order 7 failed … IndexError: list index out of range;"),
            "{}",
            envelope.summary
        );
        // cron's line is a record of its own, and the frame after it is not shop's
        // second traceback's.
        let second = at(306);
        assert_eq!(second["more"].as_array().map(Vec::len), Some(1), "{second}");
        assert!(at(308)["more"].is_null() && at(309)["more"].is_null());
    }

    #[test]
    fn an_android_crash_logcat_prints_is_one_record_kept_by_its_causes() {
        // `adb logcat` (its default `threadtime` format and `-v time`): every line has
        // the process, thread, level and tag, so a crash's lines are read by their
        // messages, and only what they say is decisive, not the `E` every one has.
        for (line, other) in [
            (
                (|message: &str| {
                    format!("12-07 12:00:45.706  5120  5120 E AndroidRuntime: {message}\n")
                }) as fn(&str) -> String,
                "12-07 12:00:45.706  1532  1539 D WindowManager: relayout",
            ),
            (
                |message: &str| format!("12-07 12:00:45.706 E/AndroidRuntime( 5120): {message}\n"),
                "12-07 12:00:45.706 D/WindowManager( 1532): relayout",
            ),
        ] {
            let mut input: String = (0..300).map(|i| format!("{other} {i}\n")).collect();
            input.push_str(&line("FATAL EXCEPTION: main"));
            input.push_str(&line("Process: com.example.shop, PID: 5120"));
            input.push_str(&line(
                "java.lang.RuntimeException: Unable to start activity: java.lang.IllegalStateException: Cart must not be empty",
            ));
            for i in 0..40 {
                input.push_str(&line(&format!("\tat android.app.A.f{i}(A.java:{i})")));
            }
            input.push_str(&line(
                "Caused by: java.lang.IllegalStateException: Cart must not be empty",
            ));
            input.push_str(&line("\tat com.example.shop.Cart.<init>(Cart.kt:41)"));
            for i in 0..30 {
                input.push_str(&line(&format!("\tat android.app.B.g{i}(B.java:{i})")));
            }
            input.push_str(&line("\t... 12 more"));
            input.push_str(&format!("{other} last\n"));
            let envelope = envelope_of(folding(), input.as_bytes());
            let crash = &envelope.items[0];
            assert!(crash["text"]
                .as_str()
                .unwrap()
                .ends_with("FATAL EXCEPTION: main"));
            assert_eq!(crash["line"], 301);
            // 75 lines after the first: its head, its causes, its end.
            let more: Vec<&str> = (crash["more"].as_array().unwrap().iter())
                .map(|line| line.as_str().unwrap())
                .collect();
            assert_eq!(more.len() as u64 + crash["more_cut"].as_u64().unwrap(), 75);
            assert!(more[1].contains("java.lang.RuntimeException"), "{more:?}");
            assert!(
                more.iter().any(|l| l.ends_with(
                    "Caused by: java.lang.IllegalStateException: Cart must not be empty"
                )),
                "{more:?}"
            );
            assert!(more.last().unwrap().ends_with("... 12 more"));
            assert!(
                envelope.summary.contains(
                    "FATAL EXCEPTION: main … Caused by: java.lang.IllegalStateException: Cart must not be empty"
                ),
                "{}",
                envelope.summary
            );
            // The lines of no other process or tag are the crash's.
            assert_eq!(envelope.stats["records"], 302);
        }
    }

    #[test]
    fn a_rails_error_logged_line_by_line_is_one_record_named_by_its_exception() {
        // Rails' production log through Ruby's logger: every line of the error has the
        // logger's prefix and the request's tag.
        let line = |level: &str, message: &str| {
            let letter = &level[..1];
            format!("{letter}, [2026-12-07T12:02:50.200001 #121] {level:>5} -- : [04d3f020-75cc] {message}\n")
        };
        let mut input: String = (0..300)
            .map(|i| line("INFO", &format!("Completed 200 OK in {i}ms")))
            .collect();
        input.push_str(&line("FATAL", "  "));
        input.push_str(&line(
            "FATAL",
            "NoMethodError (undefined method `avatar_url' for nil:NilClass):",
        ));
        input.push_str(&line("FATAL", "  "));
        input.push_str(&line("FATAL", "app/models/user.rb:112:in `sync_avatar'"));
        input.push_str(&line(
            "FATAL",
            "app/controllers/profiles_controller.rb:23:in `update'",
        ));
        input.push_str(&line("INFO", "Started GET \"/\" for 10.0.0.1"));
        // Errors logged call by call, each saying something: records of their own.
        input.push_str(&line("ERROR", "Stripe::CardError: Your card was declined."));
        input.push_str(&line(
            "ERROR",
            "Failed to send receipt email: Net::ReadTimeout",
        ));
        let envelope = envelope_of(folding(), input.as_bytes());
        let error = &envelope.items[0];
        assert_eq!(
            (error["line"].as_u64(), error["severity"].as_str()),
            (Some(301), Some("fatal"))
        );
        assert_eq!(error["more"].as_array().map(Vec::len), Some(4), "{error}");
        assert!(
            envelope.summary.contains(
                "[04d3f020-75cc]    … NoMethodError (undefined method `avatar_url' for nil:NilClass):"
            ),
            "{}",
            envelope.summary
        );
        assert_eq!(
            envelope.stats["time_span"],
            json!(["2026-12-07T12:02:50.200001", "2026-12-07T12:02:50.200001"])
        );
        assert_eq!(envelope.stats["records"], 304);
    }

    #[test]
    fn cargos_error_keeps_its_causes_across_the_blank_line() {
        // `cargo build -v` 1.95, at its end.
        let input = "error: could not compile `app` (lib) due to 1 previous error\n\n\
            Caused by:\n\
            \x20 process didn't exit successfully: `rustc --crate-name app` (exit status: 1)\n";
        let envelope = envelope_of(folding(), input.as_bytes());
        let summary = &envelope.summary;
        assert!(
            summary.contains("1 record in 1 template; 1 error, 0 warnings; first error at line 1: error: could not compile `app` (lib) due to 1 previous error … process didn't exit successfully: `rustc --crate-name app` (exit status: 1)"),
            "{summary}"
        );
    }

    #[test]
    fn each_of_mochas_failures_is_ranked_before_the_templates() {
        // Mocha 10: failures whose headers are alike (`  3) module2`) are tests of their
        // own, told apart by their titles: none waits behind the passing tests' template.
        let titles = [
            "computes the total",
            "rejects an empty cart",
            "applies the discount",
            "rounds to cents",
            "parses the config",
            "keeps the order",
        ];
        let mut input: String = (0..300).map(|i| format!("    ✔ case {i}\n")).collect();
        input.push_str("\n  300 passing (40ms)\n  6 failing\n\n");
        for (i, title) in titles.iter().enumerate() {
            input.push_str(&format!(
                "  {}) module{i}\n       {title}:\n\n      AssertionError [ERR_ASSERTION]: \
                 Expected values to be strictly equal:\n\n{i} !== {}\n\n      \
                 at Context.<anonymous> (test/m.test.js:{}:12)\n\n",
                i + 1,
                i + 1,
                20 + i
            ));
        }
        let envelope = envelope_of(folding(), input.as_bytes());
        let first_template = (envelope.items.iter())
            .position(|item| item["kind"] == "template")
            .expect("a template");
        let failures = envelope.items[..first_template]
            .iter()
            .filter(|item| {
                item["text"]
                    .as_str()
                    .is_some_and(|t| t.contains(") module"))
            })
            .count();
        assert_eq!(failures, titles.len(), "{:?}", envelope.items);
    }

    #[test]
    fn a_postgres_error_keeps_its_parts_after_their_tabbed_lines() {
        // PostgreSQL 15's server log stamps each part of a message and indents a part's
        // further lines with a tab, unstamped: the HINT, CONTEXT and STATEMENT after them
        // are the error's still.
        let prefix = "2026-12-06 08:01:25.089 UTC [1517] postgres@postgres";
        let input = format!(
            "{prefix} LOG:  checkpoint starting\n\
             {prefix} ERROR:  deadlock detected\n\
             {prefix} DETAIL:  Process 1517 waits for ShareLock on transaction 726.\n\
             \tProcess 1515 waits for ShareLock on transaction 727.\n\
             \tProcess 1517: update acct set bal=bal-1 where id=1;\n\
             {prefix} HINT:  See server log for query details.\n\
             {prefix} STATEMENT:  update acct set bal=bal-1 where id=1;\n\
             {prefix} LOG:  checkpoint complete\n"
        );
        let envelope = envelope_of(folding(), input.as_bytes());
        let error = (envelope.items.iter())
            .find(|item| item["line"] == 2)
            .expect("the error's item");
        let more = error["more"].as_array().unwrap();
        assert_eq!(more.len(), 5, "{error}");
        assert!(more[4]
            .as_str()
            .unwrap()
            .ends_with("STATEMENT:  update acct set bal=bal-1 where id=1;"));
        assert_eq!(envelope.stats["records"], 3, "{envelope:?}");
        // The summary quotes 80 characters of its first line after its time: what failed.
        let input = format!(
            "{prefix} FATAL:  password authentication failed for user \"app\"\n\
             {prefix} DETAIL:  Connection matched pg_hba.conf line 90: \"host all all\"\n"
        );
        let envelope = envelope_of(folding(), input.as_bytes());
        assert!(
            (envelope.summary)
                .contains("FATAL:  password authentication failed for user \"app\" … "),
            "{}",
            envelope.summary
        );
    }

    #[test]
    fn innodbs_deadlock_dump_is_one_record_over_its_stamped_and_unstamped_lines() {
        // MariaDB 10.11's error log (its hour padded with a space).
        let at = "2026-12-06  8:06:00 806";
        let input = format!(
            "{at} [Note] InnoDB: Transactions deadlock detected, dumping detailed information.\n\
             {at} [Note] InnoDB: \n\
             *** (1) TRANSACTION:\n\
             \n\
             TRANSACTION 24, ACTIVE 1 sec starting index read\n\
             update acct set bal=bal-1 where id=1\n\
             {at} [Note] InnoDB: *** WAITING FOR THIS LOCK TO BE GRANTED:\n\
             \n\
             RECORD LOCKS space id 5 page no 3 n bits 320 index PRIMARY of table `shop`.`acct`\n\
             {at} [Note] InnoDB: *** WE ROLL BACK TRANSACTION (1)\n\
             \n\
             {at} [ERROR] InnoDB: Transaction was aborted due to Deadlock\n"
        );
        let envelope = envelope_of(folding(), input.as_bytes());
        let dump = (envelope.items.iter())
            .find(|item| item["line"] == 1)
            .expect("the dump's item");
        assert_eq!(dump["severity"], "error", "{dump}");
        let more = dump["more"].as_array().unwrap();
        assert!(
            more.iter()
                .any(|l| l == "update acct set bal=bal-1 where id=1"),
            "{dump}"
        );
        assert!(
            more.last()
                .unwrap()
                .as_str()
                .unwrap()
                .contains("WE ROLL BACK"),
            "{dump}"
        );
        assert!(
            (envelope.items.iter()).any(|item| item["line"] == 12),
            "the abort after it is a record of its own: {envelope:?}"
        );
    }

    #[test]
    fn pips_conflict_keeps_its_causes_across_the_blank_line() {
        // pip 23.2's, at its end.
        let input = "Collecting six\n\
            ERROR: Cannot install -r r.txt (line 18) and urllib3==1.20 because these package versions have conflicting dependencies.\n\
            \n\
            The conflict is caused by:\n\
            \x20   The user requested urllib3==1.20\n\
            \x20   requests 2.31.0 depends on urllib3<3 and >=1.21.1\n\
            \n\
            To fix this you could try to:\n";
        let envelope = envelope_of(folding(), input.as_bytes());
        let item = (envelope.items.iter())
            .find(|item| item["line"] == 2)
            .expect("the error's item");
        assert_eq!(
            item["more"][3], "    requests 2.31.0 depends on urllib3<3 and >=1.21.1",
            "{item}"
        );
        assert_eq!(envelope.stats["records"], 4, "{envelope:?}");
    }

    #[test]
    fn an_exception_group_under_a_log_line_is_its_own_record() {
        // asyncio's TaskGroup failing after its log's lines (CPython 3.11): the group's
        // report opens indented, as a log line's message may go on.
        let input = "2026-12-06 05:55:44,020 INFO poller: poll 3999: queue depth=4\n\
            \x20 + Exception Group Traceback (most recent call last):\n\
            \x20 |   File \"/app/app.py\", line 17, in <module>\n\
            \x20 | ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)\n\
            \x20 +-+---------------- 1 ----------------\n\
            \x20   | ValueError: bad frame\n\
            \x20   +------------------------------------\n";
        let envelope = envelope_of(folding(), input.as_bytes());
        let summary = &envelope.summary;
        assert!(
            summary.contains("first error at line 2: + Exception Group Traceback (most recent call last): … ExceptionGroup: unhandled errors"),
            "{summary}"
        );
    }

    #[test]
    fn a_test_runners_failed_test_is_named() {
        let named = failed_test_named;
        assert_eq!(named("test tests::sums ... FAILED"), Some("tests::sums"));
        assert_eq!(named("tests::sums --- FAILED"), Some("tests::sums"));
        assert_eq!(
            named("test_a (t.T.test_a) ... ERROR"),
            Some("test_a (t.T.test_a)")
        );
        assert_eq!(
            named("test_b (t.T.test_b) ... FAIL  "),
            Some("test_b (t.T.test_b)")
        );
        assert_eq!(named("test tests::ok ... ok"), None);
        assert_eq!(named("loading ... ERROR: disk full"), None);
        assert_eq!(named(" ... FAILED"), None);
        // Behind a CI job's time; pytest's `-v`.
        assert_eq!(
            named("2026-12-06T08:00:18.0000000Z test_total (__main__.T.test_total) ... FAIL"),
            Some("test_total (__main__.T.test_total)")
        );
        assert_eq!(
            named("test_calc.py::test_total FAILED                  [100%]"),
            Some("test_calc.py::test_total")
        );
        assert_eq!(named("test_calc.py::test_ok PASSED [ 50%]"), None);
        assert_eq!(named("downloading FAILED [ 50%]"), None);
    }

    #[test]
    fn a_rare_records_example_says_how_many_lines_follow_it() {
        let mut input: String = (1..=300).map(|i| format!("tick {i}\n")).collect();
        input.push_str(
            "INFO retried request\n    at a.b.C.run(C.java:10)\n    at a.b.D.go(D.java:20)\n",
        );
        input.extend((1..=300).map(|i| format!("tock {i}\n")));
        let envelope = envelope_of(folding(), input.as_bytes());
        let item = envelope
            .items
            .iter()
            .find(|item| item["text"] == "INFO retried request")
            .unwrap_or_else(|| panic!("{}", envelope.to_json()));
        assert_eq!(
            (item["line"].clone(), item["more_cut"].clone()),
            (json!(301), json!(2))
        );
        // A record of one line says nothing of the kind.
        let tick = envelope
            .items
            .iter()
            .find(|item| item["text"] == "tick 1")
            .unwrap();
        assert!(tick.get("more_cut").is_none(), "{tick}");
    }

    #[test]
    fn a_long_record_keeps_its_end_and_its_last_cause() {
        // A Java stack of 100 frames whose root cause is in the middle, then a Python
        // traceback of 60 frames whose exception is its last line.
        let mut input =
            String::from("ERROR request failed\njava.lang.IllegalStateException: outer\n");
        input.extend((1..=40).map(|i| format!("\tat a.B.f{i}(B.java:{i})\n")));
        input.push_str("Caused by: java.io.IOException: disk full\n");
        input.extend((41..=100).map(|i| format!("\tat a.B.f{i}(B.java:{i})\n")));
        input.push_str("\t... 3 more\nINFO next\nTraceback (most recent call last):\n");
        input.extend((1..=60).map(|i| format!("  File \"a.py\", line {i}, in f\n")));
        input.push_str("KeyError: 'k42'\n");
        input.extend((1..=300).map(|i| format!("INFO tick {i}\n")));
        let envelope = envelope_of(folding(), input.as_bytes());
        let record = |first: &str| {
            envelope
                .items
                .iter()
                .find(|item| item["text"] == first)
                .unwrap_or_else(|| panic!("{}", envelope.to_json()))
        };
        let java = record("ERROR request failed");
        let more = java["more"].as_array().unwrap();
        // The head, the cause, the tail.
        let kept = KeptLines::HEAD + 1 + KeptLines::TAIL;
        assert_eq!(more.len(), kept);
        assert_eq!(more[0], "java.lang.IllegalStateException: outer");
        assert_eq!(
            more[KeptLines::HEAD],
            "Caused by: java.io.IOException: disk full"
        );
        assert_eq!(more[kept - 1], "\t... 3 more");
        // 103 lines after the first, 40 kept: the cause is line 43 of the input.
        assert_eq!(java["more_cut"], 63);
        assert_eq!(
            java["more_gaps"],
            json!([{"after": 20, "lines": 21}, {"after": 21, "lines": 42}])
        );
        let python = record("Traceback (most recent call last):");
        let more = python["more"].as_array().unwrap();
        assert_eq!(more.last().unwrap(), "KeyError: 'k42'");
        assert_eq!((more.len(), python["more_cut"].clone()), (39, json!(22)));
        assert_eq!(python["more_gaps"], json!([{"after": 20, "lines": 22}]));
    }

    #[test]
    fn a_long_records_errors_are_kept_in_its_middle() {
        // `go test -v`: a test's 2,000 subtests listed under its `--- FAIL:`, two of
        // them failed, far from the record's head and tail.
        let mut input = String::from("=== RUN   TestMany\n--- FAIL: TestMany (0.05s)\n");
        for i in 0..2000 {
            let verdict = if i == 777 || i == 1500 {
                "FAIL"
            } else {
                "PASS"
            };
            input.push_str(&format!(
                "    --- {verdict}: TestMany/case_{i:04} (0.00s)\n"
            ));
        }
        input.push_str("FAIL\nFAIL\texample.com/many\t0.061s\n");
        let envelope = chunked(input.as_bytes());
        let record = envelope
            .items
            .iter()
            .find(|item| item["text"] == "--- FAIL: TestMany (0.05s)")
            .unwrap_or_else(|| panic!("{}", envelope.to_json()));
        let more = record["more"].as_array().unwrap();
        assert_eq!(
            more[KeptLines::HEAD],
            "    --- FAIL: TestMany/case_0777 (0.00s)"
        );
        assert_eq!(
            more[KeptLines::HEAD + 1],
            "    --- FAIL: TestMany/case_1500 (0.00s)"
        );
        assert_eq!(
            record["more_gaps"],
            json!([{"after": 20, "lines": 757}, {"after": 21, "lines": 722}, {"after": 22, "lines": 480}])
        );
    }

    #[test]
    fn an_npm_reports_error_is_kept_in_its_middle_by_what_it_says() {
        // Every line of npm's report says `npm ERR!`, every line of node-gyp's failure in
        // it `gyp ERR!`: the error in its stack is what the record is kept for.
        let mut input = String::from("npm ERR! code 1\nnpm ERR! path /app/node_modules/bcrypt\n");
        input.extend((0..40).map(|i| format!("npm ERR! gyp info spawn args [ '--arg{i}' ]\n")));
        input.extend((0..10).map(|i| format!("npm ERR! gyp ERR! cwd /app/{i}\n")));
        input.push_str(
            "npm ERR! gyp ERR! stack Error: Could not find any Python installation to use\n",
        );
        input.extend((0..30).map(|i| {
            format!("npm ERR! gyp ERR! stack     at PythonFinder.fail (/n/find-python.js:{i}:11)\n")
        }));
        input.push_str("npm ERR! gyp ERR! not ok\n");
        let error = "npm ERR! gyp ERR! stack Error: Could not find any Python installation to use";
        for max_chars in [2000, 4000, 8000] {
            let options = TextOptions {
                layout_chars: Some(max_chars),
                ..folding()
            };
            let envelope = envelope_of(options, input.as_bytes());
            let record = &envelope.items[0];
            assert_eq!(record["text"], "npm ERR! code 1", "{}", envelope.to_json());
            let more = record["more"].as_array().unwrap();
            assert!(more.contains(&json!(error)), "{max_chars}: {record}");
            assert!(envelope.summary.contains(error), "{}", envelope.summary);
        }
    }

    #[test]
    fn a_go_dumps_test_frames_are_kept_in_its_middle() {
        // `go test -timeout`: the alarm's goroutine and the testing package's fill the
        // head; the test's own frame comes after, and a hundred goroutines more.
        let mut input = String::from("panic: test timed out after 2s\n\n");
        let frames = |goroutine: u32, state: &str, own: bool| {
            let mut text = format!("goroutine {goroutine} [{state}]:\n");
            for i in 0..4 {
                text.push_str(&format!(
                    "testing.tRunner{i}(0xc0000984e0)\n\t/usr/lib/go/src/testing/testing.go:14{i}6 +0x10b\n"
                ));
            }
            if own {
                text.push_str("app.TestHang(0x0?)\n\t/app/hang_test.go:13 +0xdf\n");
            }
            text + "\n"
        };
        input.push_str(&frames(219, "running", false));
        input.push_str(&frames(1, "chan receive", false));
        input.push_str(&frames(18, "semacquire", true));
        for g in 100..200 {
            input.push_str(&frames(g, "select", false));
        }
        input.push_str("FAIL\tapp\t2.012s\n");
        let envelope = chunked(input.as_bytes());
        let record = envelope
            .items
            .iter()
            .find(|item| item["text"] == "panic: test timed out after 2s")
            .unwrap_or_else(|| panic!("{}", envelope.to_json()));
        let more = record["more"].as_array().unwrap();
        assert!(
            more.contains(&json!("\t/app/hang_test.go:13 +0xdf")),
            "{record}"
        );
    }

    #[test]
    fn a_go_panic_cut_short_keeps_the_frame_that_panicked() {
        // A nil dereference in a server: the panicking goroutine comes first, a hundred
        // idle ones after it. At a small budget the record keeps three lines after its
        // first: the signal, the frame at fault, and its last.
        let mut input = String::from(
            "panic: runtime error: invalid memory address or nil pointer dereference\n\
             [signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x6b1f2a]\n\n\
             goroutine 87 [running]:\n\
             github.com/acme/inventory/store.(*Cache).Get(0x0, {0xc0001a2f30, 0x9})\n\
             \t/home/dev/inventory/store/cache.go:42 +0x2a\n\
             net/http.HandlerFunc.ServeHTTP(0xc000110000?, {0x8a3e20?, 0xc0002a61c0?})\n\
             \t/usr/local/go/src/net/http/server.go:2136 +0x29\n\n",
        );
        for g in 1..100 {
            input.push_str(&format!(
                "goroutine {g} [IO wait]:\ninternal/poll.runtime_pollWait(0x7f3c, 0x72)\n\
                 \t/usr/local/go/src/runtime/netpoll.go:345 +0x85\n\n"
            ));
        }
        let small = TextOptions {
            layout_chars: Some(1_000),
            ..folding()
        };
        let envelope = envelope_of(small, input.as_bytes());
        let json = envelope.to_json();
        let record = (envelope.items.iter())
            .find(|item| item["severity"] == "fatal")
            .expect(&json);
        assert_eq!(
            record["more"],
            json!([
                "[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x6b1f2a]",
                "\t/home/dev/inventory/store/cache.go:42 +0x2a",
                ""
            ]),
            "{json}"
        );
    }

    #[test]
    fn java_util_loggings_records_of_a_class_in_no_package_are_whole() {
        let mut input = String::new();
        for i in 0..200 {
            input.push_str(&format!(
                "Dec 02, 2026 9:54:19 AM Main main\nINFO: processed batch {i}\n"
            ));
        }
        input.push_str("Dec 02, 2026 9:54:20 AM Main main\nWARNING: slow batch 7\n");
        let envelope = envelope_of(folding(), input.as_bytes());
        assert_eq!(envelope.stats["records"], 201, "{}", envelope.to_json());
        let warning = envelope
            .items
            .iter()
            .find(|item| item["severity"] == "warn")
            .unwrap();
        assert_eq!(warning["more"], json!(["WARNING: slow batch 7"]));
    }

    #[test]
    fn one_exception_with_different_root_causes_is_told_apart() {
        let record = |n: u32, cause: &str| {
            format!(
                "ERROR request {n} failed\norg.example.DataAccessException: could not execute query\n\tat a.B.f(B.java:1)\nCaused by: {cause}\n\t... 3 more\n"
            )
        };
        let timeout = "java.sql.SQLTransientConnectionException: pool timed out after 30000ms";
        let mut input = String::new();
        for n in 0..6 {
            input.extend((0..100).map(|i| format!("INFO tick {i}\n")));
            let cause = match n {
                4 => "org.postgresql.util.PSQLException: relation \"orders_v2\" does not exist",
                _ => timeout,
            };
            input.push_str(&record(n, cause));
        }
        let envelope = envelope_of(folding(), input.as_bytes());
        let lines: Vec<String> = envelope.items.iter().map(|i| i.to_string()).collect();
        assert!(
            lines.iter().any(|l| l.contains("orders_v2")),
            "{}",
            envelope.to_json()
        );
        let templates = envelope.stats["top_templates"].as_array().unwrap();
        let with_cause = |cause: &str| {
            templates
                .iter()
                .find(|t| t["template"].as_str().unwrap().contains(cause))
                .map(|t| t["count"].clone())
        };
        assert_eq!(
            with_cause("SQLTransientConnectionException"),
            Some(json!(5))
        );
        assert_eq!(with_cause("PSQLException"), Some(json!(1)));
    }

    /// The input's lines as the items show them, in order of their line numbers.
    fn lines_shown(items: &[Value]) -> Vec<(u64, String)> {
        let mut lines: Vec<(u64, String)> = items
            .iter()
            .flat_map(|item| {
                let first = item["line"].as_u64().unwrap();
                let text = item["text"].as_str().unwrap().split('\n').map(String::from);
                let more = item["more"].as_array().cloned().unwrap_or_default();
                let more = more.into_iter().map(|m| m.as_str().unwrap().to_string());
                (first..).zip(text.chain(more))
            })
            .collect();
        lines.sort();
        lines
    }

    #[test]
    fn a_tools_output_nested_indented_in_anothers_is_read_as_it_would_be_alone() {
        // pip indents a build's compiler output; tox and CI wrappers indent a log.
        let alone = "\
f00.c: In function \u{2018}f0\u{2019}:
f00.c:3:43: warning: suggest parentheses around assignment used as truth value [-Wparentheses]
    3 | int f0(int a) { if (a = 1) return 0; }
      |                       ^
f00.c:4:23: warning: unused variable \u{2018}unused\u{2019} [-Wunused-variable]
    4 | int g(void) { int unused; return 0; }
      |                   ^~~~~~
f00.c:9:5: error: \u{2018}undefined_symbol_xyz\u{2019} undeclared (first use in this function)
    9 |     undefined_symbol_xyz = 1;
      |     ^~~~~~~~~~~~~~~~~~~~
2026-12-02 13:51:17,893 ERROR svc.handler: request 0 failed
Traceback (most recent call last):
  File \"/app/svc.py\", line 12, in handle
    open(path)
PermissionError: [Errno 13] Permission denied: '/srv/x'
2026-12-02 13:51:18,001 INFO svc.handler: request 1 done
";
        let indented: String = alone.lines().map(|l| format!("      {l}\n")).collect();
        let reduce = |input: &str| chunked(input.as_bytes());
        let (alone, indented) = (reduce(alone), reduce(&indented));
        for stat in ["records", "multiline_records", "severity"] {
            assert_eq!(
                alone.stats[stat],
                indented.stats[stat],
                "{stat}: {}",
                indented.to_json()
            );
        }
        assert_eq!(indented.stats["records"], 5, "{}", indented.to_json());
        let error = indented
            .items
            .iter()
            .find(|i| {
                i["text"]
                    .as_str()
                    .is_some_and(|t| t.contains("undefined_symbol_xyz"))
            })
            .expect("the compiler's error is an item");
        assert_eq!(error["severity"], "error");
        let logged = indented
            .items
            .iter()
            .find(|i| i["line"] == 11)
            .expect("the logged error is an item");
        let more = logged["more"].as_array().unwrap();
        assert!(
            more.last()
                .unwrap()
                .as_str()
                .unwrap()
                .contains("PermissionError"),
            "{logged}"
        );
    }

    #[test]
    fn an_exception_python_reports_outside_the_main_flow_is_one_record_with_its_traceback() {
        // A thread's, and an asyncio task's never awaited: the header, then the traceback.
        for (header, between, exception) in [
            ("Exception in thread Worker-7:", "", "ValueError: boom"),
            (
                "Task exception was never retrieved",
                "future: <Task finished name='Task-2' coro=<job() done, defined at /x.py:5> exception=KeyError(1)>\n",
                "KeyError: 1",
            ),
        ] {
            let input = format!(
                "{header}\n{between}Traceback (most recent call last):\n  File \"/x.py\", line 6, in job\n    raise it\n{exception}\nok done\n"
            );
            let envelope = chunked(input.as_bytes());
            let first = &envelope.items[0];
            assert_eq!(first["text"], header, "{}", envelope.to_json());
            assert_eq!(first["severity"], "error");
            assert_eq!(first["more"].as_array().unwrap().last().unwrap(), exception);
            assert_eq!(envelope.stats["records"], 2);
        }
    }

    #[test]
    fn records_of_binary_data_the_options_keep_are_not_listed() {
        let grep = || {
            let options = TextOptions {
                grep: Some("disk".into()),
                ..TextOptions::default()
            };
            Text::new(options).unwrap()
        };
        let reduce = |input: &[u8]| reduce_all_chunkings(grep, input, &RunConfig::new("text"));
        // An executable's bytes holding the pattern, and an error written after them.
        let mut binary = Vec::new();
        for i in 0..400u32 {
            binary.extend_from_slice(b"\x7fELF\x02\0\0disk\x01");
            binary.extend_from_slice(i.to_string().as_bytes());
            binary.push(b'\n');
        }
        binary.extend_from_slice(b"ERROR: disk full\n");
        let envelope = reduce(&binary);
        assert!(
            envelope.summary.starts_with("binary data"),
            "{}",
            envelope.summary
        );
        let texts: Vec<&Value> = envelope.items.iter().map(|i| &i["text"]).collect();
        assert_eq!(
            texts,
            [&json!("ERROR: disk full")],
            "{}",
            envelope.to_json()
        );
        // Binary data at the start of a log: its records are not listed, and a warning
        // says so once the input turns out not binary.
        let mut log = binary[..binary.len() - "ERROR: disk full\n".len()].to_vec();
        for i in 0..5000 {
            log.extend_from_slice(format!("INFO step {i}\n").as_bytes());
        }
        log.extend_from_slice(b"INFO disk checked\n");
        let envelope = reduce(&log);
        assert!(
            !envelope.summary.starts_with("binary data"),
            "{}",
            envelope.summary
        );
        let texts: Vec<&str> = (envelope.items.iter())
            .filter_map(|i| i["text"].as_str())
            .collect();
        assert!(
            texts.contains(&"INFO disk checked"),
            "{}",
            envelope.to_json()
        );
        assert!(texts.iter().all(|t| is_text(t)), "{}", envelope.to_json());
        let warning = "records the options kept held binary data's bytes";
        assert!(
            envelope.warnings.iter().any(|w| w.contains(warning)),
            "{:?}",
            envelope.warnings
        );
    }

    #[test]
    fn binary_data_is_summarized_not_shown() {
        let reduce = |input: &[u8]| chunked(input);
        // An executable's bytes: NULs on most lines, escapes, carriage returns.
        let mut binary = Vec::new();
        for i in 0..200u32 {
            binary.extend_from_slice(b"\x7fELF\x02\x01\x01\0\0\0\x1b[0m\r");
            binary.extend_from_slice(i.to_string().as_bytes());
            binary.push(b'\n');
        }
        let envelope = reduce(&binary);
        assert!(
            envelope.summary.starts_with("binary data, not shown (the artifact has it): 200 lines, 200 of them with NUL bytes"),
            "{}",
            envelope.summary
        );
        assert!(
            envelope.items.is_empty() && envelope.truncated,
            "{}",
            envelope.to_json()
        );
        assert_eq!(envelope.stats["top_templates"], json!([]));
        // An error a program wrote after the data is still shown.
        binary.extend_from_slice(b"ERROR: disk full\n");
        let envelope = reduce(&binary);
        assert_eq!(envelope.items.len(), 1, "{}", envelope.to_json());
        assert_eq!(envelope.items[0]["text"], "ERROR: disk full");
        assert!(
            envelope
                .summary
                .ends_with("; first error at line 201: ERROR: disk full"),
            "{}",
            envelope.summary
        );
        // A short log with a NUL byte on one line is a log; a short binary is binary.
        let short = reduce(b"ERROR: disk failure on /dev/sda\na\0b\nnormal line\n");
        assert!(short.summary.starts_with("3 lines"), "{}", short.summary);
        assert!(
            short.to_json().contains("normal line"),
            "{}",
            short.to_json()
        );
        let short = reduce(b"\x7fELF\0\0\n\x01\0\x02\nxyz\n");
        assert!(
            short.summary.starts_with("binary data"),
            "{}",
            short.summary
        );
        // A log with a NUL byte on a line or two is a log.
        let mut log = String::new();
        for i in 0..100 {
            log.push_str(&format!("2024-01-05 10:00:{:02} INFO step {i}\n", i % 60));
        }
        log.push_str("2024-01-05 10:01:40 ERROR disk \0 full\n");
        let envelope = reduce(log.as_bytes());
        assert!(
            envelope.summary.starts_with("101 lines"),
            "{}",
            envelope.summary
        );
        assert!(!envelope.items.is_empty());
    }

    #[test]
    fn small_input_is_returned_whole() {
        let input = "\
> app@1.0.0 test

WARN deprecated option
  2 failing

Array
      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:
      at Context.<anonymous> (test/array.js:7:14)
  served /item/1
  served /item/2


npm ERR! Test failed.

done
";
        let envelope = chunked(input.as_bytes());
        assert!(!envelope.truncated, "{}", envelope.to_json());
        assert!(
            envelope.summary.contains("; returned whole"),
            "{}",
            envelope.summary
        );
        // Every line, each once; the repeated template is not folded.
        let expected: Vec<(u64, String)> = (1..).zip(input.lines().map(String::from)).collect();
        assert_eq!(lines_shown(&envelope.items), expected);
        // Serious records first, worst then earliest (a verdict, Mocha's `2 failing`, after
        // the rest of its severity), each an item with its lines; then the rest in order,
        // adjacent records as one run of lines.
        let items: Vec<Value> = envelope
            .items
            .iter()
            .map(|i| json!([i["kind"], i["line"], i["last"]]))
            .collect();
        let expected = json!([
            ["line", 7, null],
            ["line", 13, null],
            ["line", 4, null],
            ["line", 3, null],
            ["lines", 1, 2],
            ["lines", 5, 6],
            ["lines", 9, 12],
            ["lines", 14, 15]
        ]);
        assert_eq!(Value::from(items), expected);
        let at = |n: u64| envelope.items.iter().find(|i| i["line"] == n).unwrap();
        assert_eq!(
            at(7)["more"],
            json!(["      at Context.<anonymous> (test/array.js:7:14)"])
        );
        assert_eq!(at(9)["text"], "  served /item/1\n  served /item/2\n\n");
        assert_eq!(at(14)["text"], "\ndone");
    }

    #[test]
    fn input_returned_whole_comes_in_runs_the_budget_can_page() {
        let input: String = (0..400)
            .map(|i| format!("step {i} of the build done\n"))
            .collect();
        let options = TextOptions {
            whole_chars: Some(100_000),
            ..TextOptions::default()
        };
        let envelope = envelope_of(options, input.as_bytes());
        assert!(!envelope.truncated, "{}", envelope.to_json());
        let expected: Vec<(u64, String)> = (1..).zip(input.lines().map(String::from)).collect();
        assert_eq!(lines_shown(&envelope.items), expected);
        // 10,690 bytes: each run holds the records that keep it within BLOCK_BYTES (14
        // or 15 lines of 26 or 27 bytes), the next starts after it.
        let runs_of = |envelope: &briefly_core::Envelope, block_chars: usize| {
            let runs = &envelope.items;
            for pair in runs.windows(2) {
                let text = pair[0]["text"].as_str().unwrap();
                let next = &pair[1]["text"].as_str().unwrap().lines().next().unwrap();
                assert!(text.len() <= block_chars, "{text:?}");
                assert!(text.len() + 1 + next.len() > block_chars, "{text:?}");
                assert_eq!(pair[0]["last"].as_u64().unwrap() + 1, pair[1]["line"]);
            }
            runs.len()
        };
        assert_eq!(runs_of(&envelope, BLOCK_BYTES), 29);
        // A smaller budget's runs, as its first page set them.
        let small = TextOptions {
            whole_chars: Some(100_000),
            layout_chars: Some(1_000),
            ..TextOptions::default()
        };
        let envelope = envelope_of(small, input.as_bytes());
        assert_eq!(lines_shown(&envelope.items), expected);
        assert_eq!(runs_of(&envelope, 150), 80);
    }

    #[test]
    fn an_error_template_of_few_records_has_them_all_with_the_evidence() {
        // Three `Permission denied` of one template, of three files: all three before the
        // warnings. Six timeouts that differ only in their job's number: one, the others
        // after every template (the same failure again).
        let mut input = String::new();
        for i in 0..300 {
            input.push_str(&format!("worker {} processed job {i}\n", i % 4));
            if i % 100 == 50 {
                input.push_str(&format!("find: ‘tree/pkg{i}’: Permission denied\n"));
            }
            if i % 50 == 20 {
                input.push_str(&format!("ERROR job {i} timed out after 30s\n"));
            }
            if i == 250 {
                input.push_str("WARN disk 91% full\n");
            }
        }
        let envelope = chunked(input.as_bytes());
        let texts: Vec<&str> = (envelope.items.iter())
            .filter_map(|i| i["text"].as_str())
            .collect();
        let position = |text: &str| texts.iter().position(|t| t.contains(text)).unwrap();
        let denied: Vec<usize> = ["pkg50’", "pkg150’", "pkg250’"].map(position).into();
        let timeouts: Vec<usize> = (20..300)
            .step_by(50)
            .map(|i| position(&format!("job {i} timed")))
            .collect();
        let warning = position("disk 91% full");
        assert!(denied.iter().all(|&at| at < warning), "{texts:?}");
        assert!(timeouts[0] < warning, "{texts:?}");
        assert!(timeouts[1..].iter().all(|&at| at > warning), "{texts:?}");
    }

    #[test]
    fn buildkits_reprint_of_a_failed_steps_errors_comes_after_the_verdict() {
        // `docker build`: the step's errors, its failure, then the same errors again in
        // the box under it without the step's `#9`, and the build's verdict.
        let mut input: String = (0..200)
            .map(|i| format!("#9 {}.{i} Collecting pkg-{}=={i}.0\n", i / 10, i % 7))
            .collect();
        for line in [
            "#9 10.0 ERROR: Could not find a version that satisfies the requirement torch==2.9.9",
            "#9 10.0 ERROR: No matching distribution found for torch==2.9.9",
            "#9 ERROR: process \"/bin/sh -c pip install\" did not complete successfully: exit code: 1",
            "------",
            " > [build 2/4] RUN pip install -r requirements.txt:",
            "10.0 ERROR: Could not find a version that satisfies the requirement torch==2.9.9",
            "10.0 ERROR: No matching distribution found for torch==2.9.9",
            "------",
            "ERROR: failed to solve: process \"/bin/sh -c pip install\" did not complete successfully: exit code: 1",
        ] {
            input.push_str(line);
            input.push('\n');
        }
        let envelope = chunked(input.as_bytes());
        let lines: Vec<u64> = (envelope.items.iter())
            .filter(|item| item["severity"] == "error")
            .map(|item| item["line"].as_u64().unwrap())
            .collect();
        // The reprint (lines 206 and 207) after every error said once.
        assert_eq!(
            lines,
            [201, 202, 203, 209, 206, 207],
            "{}",
            envelope.to_json()
        );
    }

    #[test]
    fn the_summary_names_the_record_ranked_first_when_the_first_error_is_another() {
        // Six timeouts of one template, then one disk-full error: the rare one is ranked
        // first, and the summary says so beside the first error.
        let log_at = |level: &str, disk_full: bool| {
            let mut input = String::new();
            for i in 0..300 {
                input.push_str(&format!("worker {} processed job {i}\n", i % 4));
                if i % 50 == 10 {
                    input.push_str(&format!("{level} job {i} timed out after 30s\n"));
                }
                if i == 200 && disk_full {
                    input.push_str(&format!("{level} disk /var/lib/app is full\n"));
                }
            }
            input
        };
        let log = |disk_full| log_at("ERROR", disk_full);
        let envelope = chunked(log(true).as_bytes());
        let summary = &envelope.summary;
        assert!(
            summary.contains("first error at line 12: ERROR job 10 timed out after 30s"),
            "{summary}"
        );
        assert!(
            summary.ends_with("; ranked first: error at line 206: ERROR disk /var/lib/app is full"),
            "{summary}"
        );
        assert_eq!(envelope.items[0]["line"], 206);
        // The first error ranked first is named once.
        let summary = chunked(log(false).as_bytes()).summary;
        assert!(summary.contains("first error at line 12: "), "{summary}");
        assert!(!summary.contains("ranked first"), "{summary}");
        // Warnings only: the first is named, not the rarest (a warning is no failure).
        let summary = chunked(log_at("WARN", true).as_bytes()).summary;
        assert!(summary.contains("first warn at line 12: "), "{summary}");
        assert!(!summary.contains("ranked first"), "{summary}");
    }

    #[test]
    fn the_summary_cuts_a_long_line_in_its_middle_keeping_why() {
        // Go's wrapped errors end in their root cause.
        let mut input = String::new();
        for i in 0..300 {
            input.push_str(&format!("worker {} processed job {i}\n", i % 4));
        }
        let cause = "dial tcp 10.0.0.5:5432: connect: connection refused";
        input.push_str(&format!(
            "ERROR sync failed: loading the tenants' settings for the nightly billing run of \
             region eu-west-1 from the primary database (cluster orders-pg, replica set 2): \
             opening a pooled connection after 3 retries: {cause}\n"
        ));
        let envelope = chunked(input.as_bytes());
        let summary = &envelope.summary;
        assert!(
            summary.contains("first error at line 301: ERROR sync failed"),
            "{summary}"
        );
        assert!(summary.contains("chars]…"), "{summary}");
        assert!(summary.ends_with("connection refused"), "{summary}");
    }

    #[test]
    fn a_serious_record_says_how_many_of_its_template_are_as_serious() {
        let mut input = String::new();
        for i in 0..300 {
            let status = if i == 250 { 503 } else { 200 };
            input.push_str(&format!(
                "10.0.0.{} - - [05/Jan/2024:10:{:02}:{:02} +0000] \"POST /api/v1/orders HTTP/1.1\" {status} 512\n",
                i % 250,
                i / 60,
                i % 60
            ));
        }
        // A template all of whose records are errors says nothing more.
        for i in 0..3 {
            input.push_str(&format!("ERROR disk {i} failed\n"));
        }
        let envelope = chunked(input.as_bytes());
        let json = envelope.to_json();
        let served = envelope
            .items
            .iter()
            .find(|i| i["line"] == 251)
            .expect(&json);
        assert_eq!(served["severity"], "error", "{json}");
        assert_eq!(served["count"], 300);
        assert_eq!(served["severity_count"], 1);
        let template = (envelope.items.iter())
            .find(|i| i["kind"] == "template" && i["count"] == 300)
            .expect(&json);
        assert_eq!(template["severity"], "error");
        assert_eq!(template["severity_count"], 1);
        let disk = envelope
            .items
            .iter()
            .find(|i| i["line"] == 301)
            .expect(&json);
        assert_eq!(disk["count"], 3);
        assert_eq!(disk.get("severity_count"), None, "{json}");
    }

    #[test]
    fn indented_lines_under_a_stamped_line_are_its_record() {
        let options = || TextOptions {
            whole_chars: Some(0),
            ..TextOptions::default()
        };
        let mut input: String = (0..20)
            .map(|i| format!("2024-01-05 10:00:{i:02},123 INFO app: tick {i}\n"))
            .collect();
        input.push_str("2024-01-05 10:01:00,456 ERROR app: config validation failed:\n");
        input.push_str("    - field \"replicas\" must be >= 1 (got 0)\n");
        input.push_str("\tDETAIL: Process 5062 waits for ShareLock on transaction 900\n");
        input.push_str("2024-01-05 10:01:01,000 INFO app: tick 21\n");
        let envelope = envelope_of(options(), input.as_bytes());
        let json = envelope.to_json();
        assert_eq!(envelope.stats["multiline_records"], 1, "{json}");
        let error = envelope
            .items
            .iter()
            .find(|i| i["line"] == 21)
            .expect(&json);
        assert_eq!(error["more"].as_array().unwrap().len(), 2, "{json}");
        // Without times, an indented line may be a table's: a record of its own.
        let table = "NAME  READY\n  web   1/1\n  db    0/1\n";
        let envelope = envelope_of(options(), table.as_bytes());
        assert_eq!(
            envelope.stats["multiline_records"],
            0,
            "{}",
            envelope.to_json()
        );
        // A log that stamps every line (a CI job's): its indented messages are steps, each
        // a record, the error among them its own.
        let steps = [
            "Collecting numpy==1.21.0",
            "  Downloading chunk 0",
            "  Downloading chunk 1",
            "Building wheels for collected packages: numpy",
            "  error: subprocess-exited-with-error",
        ];
        let input: String = (steps.iter().enumerate())
            .map(|(i, step)| format!("2026-12-03T10:00:{i:02}.000Z {step}\n"))
            .collect();
        let envelope = envelope_of(options(), input.as_bytes());
        let json = envelope.to_json();
        assert_eq!(envelope.stats["records"], 5, "{json}");
        assert!(envelope.summary.contains("first error at line 5"), "{json}");
    }

    #[test]
    fn since_reads_the_time_after_syslogs_priority() {
        let input: String = (0..4)
            .map(|m| format!("<30>1 2024-01-05T10:0{m}:00Z web01 app 1 - - tick\n"))
            .collect();
        let options = TextOptions {
            // 2024-01-05T10:02:00Z
            since: Some(1_704_448_920),
            ..TextOptions::default()
        };
        let envelope = envelope_of(options, input.as_bytes());
        assert_eq!(envelope.stats["filtered_out"], 2, "{}", envelope.to_json());
        assert!(envelope.warnings.is_empty(), "{:?}", envelope.warnings);
    }

    #[test]
    fn since_reads_the_time_after_a_files_name() {
        // `grep -r` over two logs.
        let input: String = (0..4)
            .map(|m| format!("logs/app.log:2024-01-05 10:0{m}:00,000 INFO tick\n"))
            .chain((0..4).map(|m| format!("logs/db.log:2024-01-05 10:0{m}:30,000 INFO tock\n")))
            .collect();
        let options = TextOptions {
            // 2024-01-05T10:02:00Z
            since: Some(1_704_448_920),
            ..TextOptions::default()
        };
        let envelope = envelope_of(options, input.as_bytes());
        assert_eq!(envelope.stats["filtered_out"], 4, "{}", envelope.to_json());
        assert!(envelope.warnings.is_empty(), "{:?}", envelope.warnings);
        let span = &envelope.stats["time_span"];
        assert_eq!(span[0], "2024-01-05 10:00:00,000", "{span}");
    }

    #[test]
    fn a_diagnostics_source_file_is_read_at_its_line_or_in_gccs_context() {
        assert_eq!(
            source_place("src/C1.java:12: error: cannot find symbol"),
            Some("src/C1.java")
        );
        assert_eq!(source_place("a.c:3:5: error: x"), Some("a.c"));
        assert_eq!(source_place("a.c: In function ‘main’:"), Some("a.c"));
        for none in ["2024-01-05 10:00:01 ERROR x", "error: x", "said: In short"] {
            assert_eq!(source_place(none), None, "{none}");
        }
    }

    #[test]
    fn runs_and_records_shrink_with_the_budget() {
        assert_eq!(record_chars_for(1_000), 100);
        assert_eq!(record_chars_for(2_000), 600);
        assert_eq!(record_chars_for(8_000), 3_600);
        assert_eq!(block_chars_for(1_000), 150);
        assert_eq!(block_chars_for(1_200), 250);
        assert_eq!(block_chars_for(1_500), BLOCK_BYTES);
        assert_eq!(block_chars_for(200), 100);
        assert_eq!(block_chars_for(128_000), BLOCK_BYTES);
    }

    #[test]
    fn whole_chars_bounds_what_is_returned_whole() {
        // Characters, not bytes, with each line's end but the last's: 2 lines of 3
        // characters and 6 bytes, the same with a last newline or without.
        let input = "été\nété\n";
        let whole = |whole_chars: usize, input: &str| {
            let options = TextOptions {
                whole_chars: Some(whole_chars),
                ..TextOptions::default()
            };
            envelope_of(options, input.as_bytes())
                .summary
                .contains("returned whole")
        };
        assert!(whole(7, input));
        assert!(whole(7, input.trim_end()));
        assert!(!whole(6, input));
        assert!(!whole(6, input.trim_end()));
        assert!(!whole(0, input), "0 never returns input whole");
        // A line of more bytes than four times what is left.
        assert!(!whole(8, &"x".repeat(100_000)));
        assert!(whole(100_000, "é"));
        // By default, what half the page holds: 8,000 characters on a page of 20,000, not
        // on the least page (8,000: 4,000); as said, whatever the page.
        let input: String = (0..400).map(|i| format!("line {i:014}\n")).collect();
        assert_eq!(input.chars().count(), 8_000);
        let laid_out = |page: usize, whole_chars: Option<usize>| {
            let options = TextOptions {
                whole_chars,
                ..TextOptions::default()
            };
            let options = options.laid_out_for(page);
            envelope_of(options, input.as_bytes())
                .summary
                .contains("returned whole")
        };
        assert!(laid_out(20_000, None));
        assert!(!laid_out(8_000, None));
        assert!(!laid_out(20_000, Some(WHOLE_CHARS)));
        assert!(laid_out(8_000, Some(8_000)));
        // Colour codes stripped: whole, but what they were is in the artifact only.
        let envelope = envelope_of(TextOptions::default(), b"\x1b[31mred\x1b[0m\nplain\n");
        assert!(envelope.summary.contains("returned whole"));
        assert!(envelope.truncated);
    }

    #[test]
    fn the_records_options_keep_are_returned_whole_with_their_context() {
        let input = "a\nb\nERROR c\nd\ne\nf\nERROR g\nh\n";
        let options = TextOptions {
            grep: Some("ERROR".to_string()),
            context: 1,
            ..TextOptions::default()
        };
        let envelope = envelope_of(options, input.as_bytes());
        assert!(envelope.summary.contains("the records kept returned whole"));
        assert!(envelope.truncated, "records were left out");
        let items: Vec<Value> = envelope
            .items
            .iter()
            .map(|i| json!([i["line"], i["before"], i["after"]]))
            .collect();
        assert_eq!(
            items,
            [
                json!([3, [[2, "b"]], [[4, "d"]]]),
                json!([7, [[6, "f"]], [[8, "h"]]])
            ]
        );
        // Adjacent records kept are one run, with the context around it.
        let input = "a\nserved 1\nserved 2\nb\nc\nserved 3\nd\n";
        let options = TextOptions {
            grep: Some("served".to_string()),
            context: 1,
            ..TextOptions::default()
        };
        let envelope = envelope_of(options, input.as_bytes());
        let items: Vec<Value> = envelope
            .items
            .iter()
            .map(|i| json!([i["text"], i["before"], i["after"]]))
            .collect();
        assert_eq!(
            items,
            [
                json!(["served 1\nserved 2", [[1, "a"]], [[4, "b"]]]),
                json!(["served 3", [[5, "c"]], [[7, "d"]]])
            ]
        );
    }

    #[test]
    fn a_record_the_options_list_as_read_has_its_templates_final_count_and_id() {
        // Listed as they are read (`--grep`), the records say how many share their
        // template in all, as its item does, not how many had by then; and its id, not
        // the id of a template merged into it since (the first users' lines were three
        // templates until the fourth user).
        let users = ["admin", "oracle", "test", "guest", "ubuntu"];
        let input: String = (0..40)
            .map(|i| {
                format!(
                    "sshd[24200]: Invalid user {} from 1.2.3.{i}\n",
                    users[i % 5]
                )
            })
            .collect();
        let options = TextOptions {
            grep: Some("Invalid".to_string()),
            ..folding()
        };
        let envelope = envelope_of(options, input.as_bytes());
        let template = (envelope.items.iter())
            .find(|item| item["kind"] == "template")
            .unwrap_or_else(|| panic!("{}", envelope.to_json()));
        assert_eq!(template["count"], 40, "{template}");
        let lines: Vec<&Value> = (envelope.items.iter())
            .filter(|item| item["kind"] == "line")
            .collect();
        assert!(lines.len() > 10, "{}", envelope.to_json());
        for line in lines {
            assert_eq!(
                (&line["count"], &line["template"]),
                (&json!(40), &template["id"])
            );
        }
    }

    #[test]
    fn a_panic_that_passes_another_threads_on_is_not_the_programs_last_word() {
        // A program's last record, a panic, ranks first among the errors; not when it
        // passes on the panic of a thread it joined, which says why.
        let mut input: String = (0..300)
            .map(|i| format!("2024-06-01T12:00:{:02}Z INFO ingested batch {i}\n", i % 60))
            .collect();
        let panic = |thread: &str, at: &str, message: &str| {
            format!(
                "thread '{thread}' (7) panicked at {at}:\n{message}\nstack backtrace:\n\
                \x20  0: std::panicking::begin_panic\n\
                note: Some details are omitted, run with `RUST_BACKTRACE=full`.\n"
            )
        };
        input += &panic(
            "loader",
            "ingest.rs:2:56",
            "called `Result::unwrap()` on an `Err` value: ParseIntError { kind: InvalidDigit }",
        );
        input += &panic(
            "main",
            "ingest.rs:18:26",
            "called `Result::unwrap()` on an `Err` value: Any { .. }",
        );
        let envelope = envelope_of(folding(), input.as_bytes());
        let first = &envelope.items[0];
        assert!(
            first["text"].as_str().unwrap().contains("'loader'"),
            "{first}"
        );
        // A last panic of its own is the program's last word.
        let own = input.replace("Any { .. }", "ConfigError");
        let envelope = envelope_of(folding(), own.as_bytes());
        let first = &envelope.items[0];
        assert!(
            first["text"].as_str().unwrap().contains("'main'"),
            "{first}"
        );
    }

    #[test]
    fn an_exception_a_logger_logged_is_of_the_level_its_line_states() {
        // Spring's handler logs a client's bad request at WARN with its stack: a warning,
        // not an error; the same stack under an ERROR line, an error.
        let logged = |level: &str, i: usize| {
            format!(
                "2024-03-14 09:00:{i:02}.919 {level} [main] c.e.Handler - Resolved \
                [java.lang.IllegalArgumentException: quantity must be positive]\n\
                java.lang.IllegalArgumentException: quantity must be positive: -2\n\
                \tat app.Service.validate(Service.java:33)\n\
                Caused by: java.lang.NumberFormatException: For input string: \"x\"\n\
                \t... 2 more\n"
            )
        };
        let mut input: String = (0..200)
            .map(|i| {
                format!(
                    "2024-03-14 09:00:{:02}.100 INFO [main] c.e.Api - GET /orders/{i}\n",
                    i % 60
                )
            })
            .collect();
        input += &logged("WARN", 1);
        input += &logged("ERROR", 2);
        // After a line of no level, the exception is what says it (a record of its own);
        // under a line that does not name it, it may be a crash after it.
        input += "2024-03-14 09:00:03.500 [main] c.e.Other - request rejected\n\
            java.lang.IllegalStateException: closed\n\tat app.X.y(X.java:1)\n\
            2024-03-14 09:00:04.500 WARN [main] c.e.Up - retrying upload\n\
            java.lang.OutOfMemoryError: heap\n";
        // With its frames, though, it is what the warning logged (Kafka's `log.warn("…",
        // e)`, Python's `exc_info`): the logger said how bad it was.
        input += "2024-03-14 09:00:05.500 WARN [fetcher] Error in fetch request\n\
            java.io.IOException: Connection to 2 was disconnected\n\
            \tat org.apache.kafka.NetworkClient.poll(NetworkClient.java:99)\n\
            2024-03-14 09:00:06.500 WARNING [app] retrying after error\n\
            Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\n\
            ValueError: x\n\
            2024-03-14 09:00:07.100 INFO [main] c.e.Api - done\n";
        let envelope = envelope_of(folding(), input.as_bytes());
        let severity_of = |level: &str| {
            let item = (envelope.items.iter())
                .find(|item| item["text"].as_str().is_some_and(|t| t.contains(level)));
            item.unwrap_or_else(|| panic!("{level}: {}", envelope.to_json()))["severity"].clone()
        };
        assert_eq!(severity_of("WARN [main] c.e.Handler"), "warn");
        assert_eq!(severity_of("ERROR [main] c.e.Handler"), "error");
        assert_eq!(severity_of("IllegalStateException: closed"), "error");
        assert_eq!(severity_of("retrying upload"), "error");
        assert_eq!(severity_of("Error in fetch request"), "warn");
        assert_eq!(severity_of("retrying after error"), "warn");
        assert_eq!(
            envelope.stats["severity"]["error"], 3,
            "{}",
            envelope.summary
        );
    }

    #[test]
    fn a_list_of_paths_is_mapped_by_directory() {
        let input: String = (0..300)
            .map(|i| format!("src/{}/f{i}.rs\n", ["a", "b", "c"][i % 3]))
            .collect();
        let envelope = envelope_of(folding(), input.as_bytes());
        assert!(
            envelope.summary.ends_with("; 300 paths in 3 directories"),
            "{}",
            envelope.summary
        );
        assert_eq!(
            envelope.stats["path_list"],
            json!({"paths": 300, "directories": 3})
        );
        let kinds: Vec<&str> = envelope
            .items
            .iter()
            .map(|i| i["kind"].as_str().unwrap())
            .collect();
        // The first and last lines, the directories, then the templates.
        assert_eq!(
            &kinds[..5],
            ["line", "line", "directory", "directory", "directory"]
        );
        assert_eq!(&kinds[5..], ["template"; 3]);
        assert_eq!(
            envelope.items[2],
            json!({"kind": "directory", "path": "src/a/", "count": 100, "first_line": 1, "example": "src/a/f0.rs"})
        );
        // What the options keep is no list.
        let grep = TextOptions {
            grep: Some("f1".into()),
            ..folding()
        };
        let envelope = envelope_of(grep, input.as_bytes());
        assert!(envelope.items.iter().all(|i| i["kind"] != "directory"));
        // A log mentions paths: no map of them.
        let log: String = (0..300)
            .map(|i| format!("GET /src/a/f{i}.rs 200\n"))
            .collect();
        let envelope = envelope_of(folding(), log.as_bytes());
        assert!(envelope.stats.get("path_list").is_none());
    }

    #[test]
    fn lines_at_files_lines_are_mapped_by_file() {
        // `grep -rn`'s output: 200 lines in src/a.rs, 50 in src/b.rs, 10 in docs/c.md.
        let mut input = String::new();
        for (file, n) in [("src/a.rs", 200), ("src/b.rs", 50), ("docs/c.md", 10)] {
            for i in 0..n {
                input.push_str(&format!(
                    "{file}:{}:    let value_{i} = compute();\n",
                    i + 1
                ));
            }
        }
        let envelope = envelope_of(folding(), input.as_bytes());
        assert!(
            envelope.summary.ends_with("; 260 lines in 3 files"),
            "{}",
            envelope.summary
        );
        assert_eq!(
            envelope.stats["located_lines"],
            json!({"lines": 260, "files": 3})
        );
        assert!(envelope.stats.get("path_list").is_none());
        let places: Vec<(&str, &str, u64)> = envelope
            .items
            .iter()
            .filter(|i| i["kind"] == "file" || i["kind"] == "directory")
            .map(|i| {
                (
                    i["kind"].as_str().unwrap(),
                    i["path"].as_str().unwrap(),
                    i["count"].as_u64().unwrap(),
                )
            })
            .collect();
        assert_eq!(
            places,
            // A directory of one file is listed as the file.
            [
                ("file", "src/a.rs", 200),
                ("file", "src/b.rs", 50),
                ("file", "docs/c.md", 10)
            ]
        );
    }

    #[test]
    fn blank_lines_are_one_template_listed_last() {
        let mut input = String::from("\n");
        for i in 0..200 {
            input.push_str(&format!("line {i} of the build\n\n   \n"));
        }
        input.push_str("ERROR boom\n\t\n");
        let envelope = envelope_of(folding(), input.as_bytes());
        let top = &envelope.stats["top_templates"];
        assert_eq!(top.as_array().unwrap().len(), 2, "{top}");
        let last = envelope.items.last().unwrap();
        assert_eq!(
            (&last["template"], &last["count"]),
            (&json!(""), &json!(402)),
            "{last}"
        );
        // No other item shows a blank line: not the first line, not the last.
        let blank = |item: &&Value| item["text"] == "" || item["template"] == "";
        assert_eq!(
            envelope.items.iter().filter(blank).count(),
            1,
            "{:?}",
            envelope.items
        );
        assert_eq!(envelope.stats["templates"], 3);
    }

    #[test]
    fn kubectl_get_pods_folds_by_deployment_and_the_pod_not_running_stands_out() {
        // Kubernetes names a pod `deployment-hash-suffix` from an alphabet of no vowel, and
        // one suffix in five has no digit: such rows made a template each, and the one pod
        // Pending, which states no level, came after them.
        const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
        let mut seed = 7u64;
        let mut generated = |len: usize| -> String {
            (0..len)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ALPHABET[(seed >> 33) as usize % ALPHABET.len()] as char
                })
                .collect()
        };
        let mut input = String::from("NAMESPACE   NAME   READY   STATUS   RESTARTS   AGE\n");
        for row in 0..200 {
            let namespace = ["prod", "staging", "kube-system"][row / 4 % 3];
            let deployment = ["api", "web", "redis", "worker"][row % 4];
            let (ready, status) = if row == 120 {
                ("0/1", "Pending")
            } else {
                ("1/1", "Running")
            };
            let name = format!("{deployment}-{}-{}", generated(9), generated(5));
            input.push_str(&format!(
                "{namespace}   {name}   {ready}   {status}   0   {row}d\n"
            ));
        }
        let envelope = envelope_of(folding(), input.as_bytes());
        // The header, at most a template per namespace and deployment, the pending pod.
        let templates = envelope.stats["templates"].as_u64().unwrap();
        assert!(templates <= 2 + 3 * 4, "{:?}", envelope.stats);
        let lines: Vec<&Value> = envelope.items.iter().map(|i| &i["line"]).collect();
        assert_eq!(
            lines[..3],
            [&json!(1), &json!(201), &json!(122)],
            "{lines:?}"
        );
    }

    #[test]
    fn a_batch_is_prepared_as_its_lines_one_by_one() {
        let make = || {
            let grep = Regex::new("db-[0-9]").ok();
            Facts::new(&briefly_template::Config::default(), grep)
        };
        let plain = "2026-11-29 10:00:01 ERROR lost connection to db-7\n\
            Traceback (most recent call last):\n  File \"x.py\", line 1\nValueError: ü\n\
            \n\
            thread 'main' panicked at src/main.rs:2:5:\n\
            E1129 12:00:00.000 123 file.cc:10] failed\n\
            process exited with code 137 \r\n\
            exit code 0\n\
            [warn] disk at 91% on db-2\n\
            Killed process 4242 (java)\n\
            the info desk is open\n";
        assert_batch_prepares_as_each(make, plain);
        // One coloured line: the batch goes line by line, codes stripped.
        let coloured = format!("{plain}\x1b[31mERROR\x1b[0m red db-1\n{plain}");
        assert_batch_prepares_as_each(make, &coloured);

        // One redrawn line, and one coloured and redrawn: the same.
        let redrawn = format!("{plain}get 10%\rget 100%\n\x1b[31m1%\r\x1b[0mERROR db-1\n{plain}");
        assert_batch_prepares_as_each(make, &redrawn);

        // `go test -json`'s events, with output and without, among plain lines.
        let events = format!(
            "{plain}{}\n{}\n{}\n{plain}",
            r#"{"Time":"2026-12-06T10:00:00Z","Action":"run","Package":"a","Test":"TestA"}"#,
            r#"{"Time":"2026-12-06T10:00:00Z","Action":"output","Package":"a","Test":"TestA","Output":"--- FAIL: TestA (0.00s)\n"}"#,
            r#"{"Action":"output","Package":"a","Output":"\u001b[31mFAIL\u001b[0m\ta\t0.01s\n"}"#,
        );
        assert_batch_prepares_as_each(make, &events);
    }

    #[test]
    fn a_line_redrawn_with_carriage_returns_is_read_in_its_last_state() {
        let mut input = String::from("pip install -r requirements.txt\n");
        for i in 0..300 {
            let frames: String = (0..=10).map(|p| format!("\rpkg{i} {}%", p * 10)).collect();
            input.push_str(&format!("Downloading{frames}\n"));
        }
        input.push_str("fetch 1%\rERROR: no space left on device\n");
        input.push_str("ends with CRLF\r\n");
        let envelope = chunked(input.as_bytes());
        let json = envelope.to_json();
        // The 301 redrawn lines are read as they end: the error, and one template.
        assert_eq!(envelope.stats["redrawn_lines"], 301, "{json}");
        assert_eq!(envelope.stats["templates"], 4, "{json}");
        assert_eq!(envelope.items[0]["text"], "ERROR: no space left on device");
        assert!(!json.contains("10%"), "no frame but the last: {json}");
        assert!(envelope.truncated, "the frames are in the artifact only");
        assert!(
            envelope.warnings[0].starts_with("301 lines were redrawn"),
            "{json}"
        );
        // A line's CRLF ending is no redrawing: the lines are whole, their breaks
        // counted and told.
        let plain = envelope_of(TextOptions::default(), b"a\r\nb\r\nc\n");
        assert_eq!(plain.stats.get("redrawn_lines"), None);
        assert_eq!(plain.stats["crlf_lines"], 2);
        assert_eq!(
            plain.warnings,
            ["2 lines ended in CRLF, read and shown without the \\r"]
        );
        assert!(!plain.truncated);
        let unix = envelope_of(TextOptions::default(), b"a\nb\n");
        assert_eq!(unix.stats.get("crlf_lines"), None);
        assert!(unix.warnings.is_empty());
    }

    #[test]
    fn same_envelope_for_every_chunking_and_invariants_hold() {
        let mut input = String::new();
        for i in 0..400 {
            input.push_str(&format!(
                "2026-11-29 10:00:{:02} INFO served /item/{i} in {} ms\n",
                i % 60,
                i % 17
            ));
            if i % 97 == 0 {
                input.push_str("2026-11-29 10:00:00 ERROR lost connection to db-7\nTraceback (most recent call last):\n  File \"x.py\", line 1\nValueError: ü\n");
            }
        }
        let with_context = || {
            Text::new(TextOptions {
                context: 2,
                ..TextOptions::default()
            })
            .unwrap()
        };
        let reference =
            reduce_all_chunkings(with_context, input.as_bytes(), &RunConfig::new("text"));
        assert_eq!(reference.items[0]["severity"], "error");
    }

    #[test]
    fn kept_lines_are_bounded() {
        let long = format!(
            "ERROR {}\n  at frame {}\n",
            "x".repeat(50_000),
            "y".repeat(50_000)
        );
        let items = ranked_items(TextOptions::default(), &long);
        let (_, TextItem::Line(first)) = &items[0] else {
            panic!("a line first")
        };
        assert!(first.text.chars().count() < MAX_KEPT_CHARS + 30 && first.text.contains("…[cut "));
        assert!(first.more[0].chars().count() < MAX_KEPT_CHARS + 30);
    }

    /// Collects every item with its rank.
    struct Ranked(Vec<(briefly_core::Rank, TextItem)>);

    impl Emit<TextItem> for Ranked {
        fn emit(&mut self, rank: briefly_core::Rank, item: TextItem) {
            self.0.push((rank, item));
        }
        fn wants(&self, _rank: briefly_core::Rank) -> bool {
            true
        }
        fn skip(&mut self, _rank: briefly_core::Rank) {}
    }

    /// Every item of `input` reduced with `options`, with its rank.
    fn ranked_items(options: TextOptions, input: &str) -> Vec<(briefly_core::Rank, TextItem)> {
        let mut text = Text::new(options).unwrap();
        let mut sink = Ranked(Vec::new());
        for (i, line) in input.lines().enumerate() {
            let record = Record {
                text: line,
                bytes: line.as_bytes(),
                line: i as u64 + 1,
                offset: 0,
                cut: false,
                crlf: false,
            };
            text.record(&record, &mut sink);
        }
        text.finish(&mut sink);
        sink.0
    }

    /// The kept lines' texts of `items` at `rank`.
    fn lines_at(items: &[(briefly_core::Rank, TextItem)], rank: briefly_core::Rank) -> Vec<&str> {
        items
            .iter()
            .filter_map(|(r, item)| match item {
                TextItem::Line(line) if *r == rank => Some(line.text.as_str()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn more_records_of_a_serious_template_come_after_the_templates() {
        // 30 undefined symbols: one template, whose values are what the agent needs.
        let mut input = String::new();
        for i in 0..30 {
            input.extend((0..20).map(|n| format!("INFO step {n}\n")));
            input.push_str(&format!("ERROR undefined reference to `sym{i}'\n"));
        }
        input.push_str("WARN disk slow\n");
        let items = ranked_items(folding(), &input);
        // An error's second record before the warnings.
        assert_eq!(
            lines_at(&items, 0),
            [
                "ERROR undefined reference to `sym0'",
                "ERROR undefined reference to `sym1'",
                "WARN disk slow"
            ]
        );
        let extras = lines_at(&items, 5);
        assert_eq!(extras.len(), (MORE_PER_TEMPLATE - PER_TEMPLATE) as usize);
        assert_eq!(extras[0], "ERROR undefined reference to `sym2'");
        // Ranked after every template.
        let last_template = items
            .iter()
            .rposition(|(_, item)| matches!(item, TextItem::Template(_)))
            .unwrap();
        let first_extra = items.iter().position(|(rank, _)| *rank == 5).unwrap();
        assert!(last_template < first_extra);
    }

    #[test]
    fn a_build_scripts_panic_keeps_its_message_past_a_blank_line() {
        // cargo shows a build script's stderr as a cause of its error, indented, but not
        // its blank lines: openssl-sys's message comes after one.
        let mut input: String = (0..30)
            .map(|i| format!("   Compiling crate{i} v1.0.{i}\n"))
            .collect();
        input.push_str(
            "error: failed to run custom build command for `openssl-sys v0.9.102`\n\n\
             Caused by:\n  \
             process didn't exit successfully: `/app/build-script-main` (exit status: 101)\n  \
             --- stderr\n  \
             thread 'main' panicked at build/find_normal.rs:190:5:\n\n  \
             Could not find directory of OpenSSL installation\n\n  \
             note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n\
             warning: build failed, waiting for other jobs to finish...\n",
        );
        let envelope = envelope_of(folding(), input.as_bytes());
        let error = &envelope.items[0];
        assert_eq!(error["line"], 31, "{error}");
        let more: Vec<&str> = (error["more"].as_array().unwrap().iter())
            .filter_map(Value::as_str)
            .collect();
        assert_eq!(more.len(), 9, "{more:?}");
        assert_eq!(
            more[6],
            "  Could not find directory of OpenSSL installation"
        );
        assert_eq!(envelope.stats["severity"]["warn"], 1);
    }

    #[test]
    fn the_same_failure_again_comes_after_the_templates() {
        // Elasticsearch rejects writes after its disk watermark: the warning is the cause,
        // the errors differ only in their document's number (and a traceback only in its
        // process's). One of each before the warning, the rest after every template.
        let mut input = String::new();
        input.extend((0..40).map(|n| format!("INFO request {n} served status=200\n")));
        input.push_str("WARN disk watermark exceeded on /var/lib/data, indices read-only\n");
        for doc in [1000, 1037, 0xbee5] {
            input.push_str(&format!(
                "ERROR bulk write rejected for doc {doc:x}: blocked\n"
            ));
        }
        for (pid, file) in [(7, "w.py"), (8, "w.py"), (9, "v.py")] {
            input.push_str(&format!(
                "ERROR worker {pid} crashed\nTraceback (most recent call last):\n  \
                 File \"{file}\", line 9, in run\nKeyError: 'sms'\n"
            ));
        }
        // Another document's name is another failure, even one of hex digits alone.
        input.push_str("ERROR bulk write rejected for doc sym0: blocked\n");
        input.push_str("ERROR bulk write rejected for doc cafe: blocked\n");
        input.push_str("INFO request 41 served status=200\n");
        let items = ranked_items(folding(), &input);
        let mut first = lines_at(&items, 0);
        assert_eq!(
            first.pop(),
            Some("WARN disk watermark exceeded on /var/lib/data, indices read-only")
        );
        first.sort_unstable();
        assert_eq!(
            first,
            [
                "ERROR bulk write rejected for doc 3e8: blocked",
                "ERROR bulk write rejected for doc cafe: blocked",
                "ERROR bulk write rejected for doc sym0: blocked",
                "ERROR worker 7 crashed",
                "ERROR worker 9 crashed",
            ]
        );
        assert_eq!(
            lines_at(&items, 5),
            [
                "ERROR worker 8 crashed",
                "ERROR bulk write rejected for doc 40d: blocked",
                "ERROR bulk write rejected for doc bee5: blocked",
            ]
        );
    }

    #[test]
    fn a_record_that_says_what_one_kept_said_is_not_kept_again() {
        // 30 times the same error at another time: one record says it, the template's
        // count how often; errors of one template saying different things each shown.
        let mut input = String::new();
        for i in 0..30 {
            input.extend(
                (0..20).map(|n| format!("2024-07-09 14:{i:02}:{n:02},100 INFO step {n}\n")),
            );
            input.push_str(&format!(
                "2024-07-09 14:{i:02}:30,353 ERROR metrics: statsd:8125: Connection refused\n"
            ));
            input.push_str(&format!(
                "2024-07-09 14:{i:02}:31,000 ERROR undefined `sym{i}'\n"
            ));
            // Two things said over and over; one first line, another line under it.
            input.push_str(&format!(
                "2024-07-09 14:{i:02}:32,000 ERROR retry {}\n",
                i % 2
            ));
            input.push_str(&format!(
                "2024-07-09 14:{i:02}:33,000 ERROR job failed\n  cause: disk {} full\n",
                i % 3
            ));
        }
        input.push_str("2024-07-09 15:00:00,000 INFO done\n");
        let items = ranked_items(folding(), &input);
        let records = |what: &str| {
            (items.iter())
                .filter(
                    |(_, item)| matches!(item, TextItem::Line(line) if line.text.contains(what)),
                )
                .count()
        };
        assert_eq!(records("Connection refused"), 1);
        assert_eq!(records("retry"), 2);
        assert_eq!(records("job failed"), 3);
        assert_eq!(records("undefined"), MORE_PER_TEMPLATE as usize);
    }

    #[test]
    fn a_template_keeps_a_record_of_each_level_it_has() {
        // A linter's summary of each module is one template whatever it counts: its
        // warnings first (warnings), then its errors (errors), more than it keeps.
        let summary = |i: usize, errors: usize, warnings: usize, by: &str| {
            format!(
                "module m{i}: {} problems ({errors} errors, {warnings} warnings) by \"{by}\"\n",
                errors + warnings
            )
        };
        // (Other lines first and last: the input's edges.)
        let input = |crash: bool| -> String {
            ["lint started\n".to_string()]
                .into_iter()
                .chain((1..25).map(|i| summary(i, 0, i, "lint/8")))
                .chain((25..60).map(|i| summary(i, i, 0, "lint/8")))
                .chain(crash.then(|| summary(60, 1, 0, "segfault")))
                .chain(["lint done\n".to_string()])
                .collect()
        };
        let kept = |input: &str| {
            let items = ranked_items(folding(), input);
            let count = |severity| {
                (items.iter())
                    .filter(|(_, item)| matches!(item, TextItem::Line(l) if l.severity == Some(severity)))
                    .count()
            };
            [Severity::Warn, Severity::Error, Severity::Fatal].map(count)
        };
        assert_eq!(kept(&input(false)), [1, MORE_PER_TEMPLATE as usize - 1, 0]);
        // Errors first, then warnings: the first warning takes an error's place.
        let errors_first: String = (25..60)
            .map(|i| summary(i, i, 0, "lint/8"))
            .chain((1..25).map(|i| summary(i, 0, i, "lint/8")))
            .chain(["lint done\n".to_string()])
            .collect();
        assert_eq!(kept(&errors_first), [1, MORE_PER_TEMPLATE as usize - 1, 0]);
        // Worse than all kept: an error, one of several, gives way, not the warning.
        assert_eq!(kept(&input(true)), [1, MORE_PER_TEMPLATE as usize - 2, 1]);
        // The template says how many records are at each level, when they are at several.
        let severities = |input: &str| {
            let items = ranked_items(folding(), input);
            let mut templates = (items.into_iter()).filter_map(|(_, item)| match item {
                TextItem::Template(t) if t.count > 1 => Some(t.severities),
                _ => None,
            });
            let severities = templates.next().expect("a template");
            assert!(templates.next().is_none());
            severities
        };
        assert_eq!(
            severities(&input(true)),
            Some(BTreeMap::from([("error", 35), ("fatal", 1), ("warn", 24)]))
        );
        let warnings: String = (1..60).map(|i| summary(i, 0, i, "lint/8")).collect();
        assert_eq!(severities(&warnings), None);
    }

    #[test]
    fn a_templates_worst_record_is_kept_past_its_first_ones() {
        // ESLint's stylish output: a file's path, its problems indented under it; the
        // one error in the 40th file of 40 that are each one record of one template.
        let mut input = String::new();
        for file in 0..40 {
            input.push_str(&format!("/home/ci/app/src/mod{file}.js\n"));
            for k in 0..5 {
                input.push_str(&format!(
                    "  {}:5  warning  Unexpected console statement  no-console\n",
                    k * 10 + 3
                ));
            }
            if file == 39 {
                input.push_str("  12:3   error    'conn' is not defined  no-undef\n");
            }
            input.push('\n');
        }
        input.push_str("✖ 201 problems (1 error, 200 warnings)\n");
        let envelope = chunked(input.as_bytes());
        // With the other error (the count's line, a rarer template), first.
        let error = envelope.items[..2].iter().find(|i| i["line"] == 274);
        let error = error.unwrap_or_else(|| panic!("{envelope:?}"));
        assert_eq!(error["text"], "/home/ci/app/src/mod39.js");
        assert_eq!(error["severity"], "error");
        assert!(
            envelope
                .summary
                .contains("first error at line 274: /home/ci/app/src/mod39.js"),
            "{}",
            envelope.summary
        );
    }

    #[test]
    fn a_compilers_diagnostic_comes_before_what_ran_the_compiler() {
        // Maven prints javac's error twice, between its own lines at ERROR: its heading
        // and advice are no errors, and the diagnostic, though not the rarest, is first.
        let mut input: String = (0..300)
            .map(|i| format!("[INFO] Downloaded from central: lib{i}-1.0.jar ({i} kB)\n"))
            .collect();
        let diagnostic =
            "[ERROR] /b/Cart.java:[27,16] incompatible types: String cannot be converted to int";
        for line in [
            "[ERROR] COMPILATION ERROR : ",
            diagnostic,
            "[INFO] BUILD FAILURE",
            "[ERROR] Failed to execute goal o.a.m.p:maven-compiler-plugin:3.11.0:compile: Compilation failure",
            diagnostic,
            "[ERROR] -> [Help 1]",
            "[ERROR] ",
            "[ERROR] Re-run Maven using the -X switch to enable full debug logging.",
        ] {
            input.push_str(line);
            input.push('\n');
        }
        let envelope = chunked(input.as_bytes());
        assert_eq!(envelope.items[0]["text"], diagnostic, "{envelope:?}");
        assert_eq!(envelope.stats["severity"]["error"], 4, "{envelope:?}");
        assert!(
            (envelope.summary).contains(&format!("first error at line 302: {diagnostic}")),
            "{}",
            envelope.summary
        );
    }

    #[test]
    fn a_compilers_diagnostics_come_before_its_drivers_verdict_on_them() {
        // cargo: three E0308s of one template, then the verdict, rarer; gcc under make:
        // the linker's record, then collect2's verdict and make's line. Past what is
        // returned whole, in the input's order.
        let steps = |step: &str| -> String {
            (0..300)
                .map(|i| format!("{}\n", step.replace('N', &i.to_string())))
                .collect()
        };
        let mut cargo = steps("   Compiling depN v0.1.0");
        cargo += &(0..3)
            .map(|i| {
                format!(
                    "error[E0308]: mismatched types\n  --> src/lib.rs:{}:55\n   |\n\n",
                    401 + i
                )
            })
            .collect::<String>();
        cargo.push_str(
            "error: could not compile `rcrate` (lib) due to 3 previous errors; 600 warnings emitted\n",
        );
        let envelope = chunked(cargo.as_bytes());
        assert_eq!(
            envelope.items[0]["text"], "error[E0308]: mismatched types",
            "{envelope:?}"
        );
        let ld = steps("cc -O2 -c src/fN.c -o src/fN.o")
            + "/usr/bin/ld: src/main.o: in function `main':\n\
                  main.c:(.text+0x5): undefined reference to `missing_fn'\n\
                  collect2: error: ld returned 1 exit status\n\
                  make: *** [Makefile:4: app] Error 1\n";
        let envelope = chunked(ld.as_bytes());
        let texts: Vec<&str> = (envelope.items.iter())
            .filter_map(|item| item["text"].as_str())
            .collect();
        assert_eq!(
            texts[..3],
            [
                "/usr/bin/ld: src/main.o: in function `main':",
                "collect2: error: ld returned 1 exit status",
                "make: *** [Makefile:4: app] Error 1",
            ],
            "{envelope:?}"
        );
    }

    #[test]
    fn a_tools_verdict_comes_after_every_record_it_sums_up() {
        // A rarer verdict than the errors it sums up (a template of 30 undefined
        // references, then collect2's line; javac's tally; cargo test's verdict after two
        // panics of one template; pip's closing code after the build's output) came
        // first, the one after a record of several lines as what the output ends in.
        let steps: String = (0..300).map(|i| format!("cc -c src/f{i}.c\n")).collect();
        let linker: String = (0..30)
            .map(|i| {
                format!(
                    "/usr/bin/ld: m{i}.o: in function `caller_{i}':\n\
                     m{i}.c:(.text+0x5): undefined reference to `sym_{i}'\n"
                )
            })
            .collect();
        let eslint: String = (0..2)
            .map(|i| format!("/src/m{i}.js\n  1:10  error  'x{i}' is not defined  no-undef\n\n"))
            .collect();
        let jobs: String = (0..2).map(|i| format!("ERROR: job {i} failed\n")).collect();
        let panics: String = (0..2)
            .map(|i| {
                format!(
                    "thread 'tests::t{i}' panicked at src/lib.rs:{i}:5:\nassertion failed: ok\n"
                )
            })
            .collect();
        for (input, verdict) in [
            (
                steps.clone() + &linker + "collect2: error: ld returned 1 exit status\n",
                "collect2: error: ld returned 1 exit status",
            ),
            (
                steps.clone() + &eslint + "✖ 2 problems (2 errors, 0 warnings)\n",
                "✖ 2 problems (2 errors, 0 warnings)",
            ),
            (steps.clone() + &jobs + "2 errors\n", "2 errors"),
            (
                steps.clone() + &panics + "\nerror: test failed, to rerun pass `--lib`\n",
                "error: test failed, to rerun pass `--lib`",
            ),
            // With `--no-fail-fast`, a verdict of several lines the output ends in.
            (
                steps.clone()
                    + &panics
                    + "error: 2 targets failed:\n    `--lib`\n    `--test api`\n",
                "error: 2 targets failed:",
            ),
            (
                steps.clone()
                    + "  error: subprocess-exited-with-error\n  \n\
                       \x20 × Preparing metadata (pyproject.toml) did not run successfully.\n\
                       \x20 ╰─> [3 lines of output]\n\
                       \x20     Traceback (most recent call last):\n\
                       \x20       File \"<string>\", line 4, in <module>\n\
                       \x20     ModuleNotFoundError: No module named 'nope'\n\
                       \x20     [end of output]\n\
                       error: metadata-generation-failed\n\n\
                       × Encountered error while generating package metadata.\n\
                       ╰─> See above for output.\n",
                "error: metadata-generation-failed",
            ),
        ] {
            let envelope = chunked(input.as_bytes());
            let texts: Vec<&str> = (envelope.items.iter())
                .filter_map(|item| item["text"].as_str())
                .collect();
            let at = texts.iter().position(|text| *text == verdict);
            let serious = (envelope.items.iter())
                .take_while(|item| item["severity"] == "error")
                .count();
            assert!(
                at.is_some_and(|at| at + 1 == serious || serious == 1),
                "{verdict} after the other errors: {texts:?}"
            );
            assert!(
                !envelope.summary.contains("ends in"),
                "{}",
                envelope.summary
            );
        }
    }

    #[test]
    fn the_last_of_a_list_of_reports_is_not_what_the_output_ends_in() {
        // Mocha's list of failures and a compiler's diagnostics end the output with the
        // last of them: it is no program's last words, and the first is named first
        // (returned whole, and folded).
        for steps in [3, 300].map(|n| {
            (0..n)
                .map(|i| format!("  ok {i}: step of the suite done\n"))
                .collect::<String>()
        }) {
            let mocha = steps.clone()
            + "  298 passing (40ms)\n  2 failing\n\n\
               \x20 1) Cart\n       adds:\n     AssertionError: 1 == 2\n      at Context.<anonymous> (cart.js:3:9)\n\n\
               \x20 2) Ledger\n       parses:\n     SyntaxError: bad JSON\n      at parse (ledger.js:2:32)\n";
            let gcc = steps.clone()
            + "a.c: In function 'main':\na.c:3:5: error: 'x' undeclared\n    3 |   x = 1;\n      |   ^\n\
               b.c: In function 'f':\nb.c:9:5: error: 'y' undeclared\n    9 |   y = 1;\n      |   ^\n";
            for (input, first) in [(mocha, "  1) Cart"), (gcc, "a.c: In function 'main':")] {
                let envelope = chunked(input.as_bytes());
                assert_eq!(envelope.items[0]["text"], first, "{:?}", envelope.items);
                assert!(
                    !envelope.summary.contains("ends in"),
                    "{}",
                    envelope.summary
                );
                assert!(
                    envelope.summary.contains(&format!(
                        "first error at line {}: {}",
                        envelope.items[0]["line"],
                        first.trim_start()
                    )),
                    "{}",
                    envelope.summary
                );
            }
        }
    }

    #[test]
    fn node_tests_spec_reporter_keeps_a_failed_test_whole() {
        // `node --test`'s default reporter in a terminal (everywhere from Node 23): a
        // failed test's error, diff, stack and properties under its `✖` line, a blank
        // line of the diff indented too; its tests in a suite indented under it.
        let mut input: String = (0..80)
            .map(|i| format!("✔ adds {i} (0.0{i}ms)\n"))
            .collect();
        input.push_str(
            "▶ cart\n\
             \x20 ✔ empty (0.1ms)\n\
             \x20 ✖ rounds totals (1.638572ms)\n\
             \x20   AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\
             \x20   \n\
             \x20   8 !== 7\n\
             \x20   \n\
             \x20       at TestContext.<anonymous> (/app/cart.test.js:3:38)\n\
             \x20       at Test.run (node:internal/test_runner/test:796:25) {\n\
             \x20     generatedMessage: true,\n\
             \x20     code: 'ERR_ASSERTION',\n\
             \x20   }\n\
             \x20 ✔ sums (0.2ms)\n\
             ✖ cart (3.1ms)\n\
             \n\
             ℹ tests 83\n\
             ℹ fail 1\n",
        );
        let envelope = chunked(input.as_bytes());
        let first = &envelope.items[0];
        assert_eq!(
            first["text"], "  ✖ rounds totals (1.638572ms)",
            "{:?}",
            envelope.items
        );
        let more = first["more"].as_array().unwrap();
        assert_eq!(more.len(), 9, "{first}");
        assert_eq!(more[2], "    8 !== 7");
        assert_eq!(more[8], "    }");
        assert!(
            envelope.summary.contains(
                "first error at line 83: ✖ rounds totals (1.638572ms) … AssertionError \
                 [ERR_ASSERTION]: Expected values to be strictly equal:"
            ),
            "{}",
            envelope.summary
        );
        // The suite's verdict is an error of its own; the passing tests none.
        assert_eq!(
            envelope.stats["severity"]["error"], 2,
            "{}",
            envelope.summary
        );
    }

    #[test]
    fn a_crash_of_a_traceback_logged_before_is_what_the_output_ends_in() {
        // The same traceback handled twice, then uncaught: the program's last words.
        let traceback =
            "Traceback (most recent call last):\n  File \"/app/db.py\", line 9, in connect\n\
                         ConnectionError: db3 refused\n";
        let mut input: String = (0..300).map(|i| format!("INFO step {i} done\n")).collect();
        for _ in 0..2 {
            input.push_str("ERROR retrying\n");
            input.push_str(traceback);
            input.push_str("INFO retry scheduled\n");
        }
        input.push_str("INFO giving up\n");
        input.push_str(traceback);
        let envelope = chunked(input.as_bytes());
        let end = input.lines().count() as u64 - 2;
        assert!(
            envelope.summary.contains(&format!(
                "; the output ends in an error at line {end}: Traceback"
            )),
            "{}",
            envelope.summary
        );
    }

    #[test]
    fn tscs_pretty_diagnostic_is_one_record_with_its_source() {
        // `tsc --pretty` (its default in a terminal): the source line, unindented, and its
        // marks after a blank line were items and templates of their own.
        let mut input = String::new();
        for i in 0..120 {
            input.push_str(&format!(
                "src/m{i}.ts:1:41 - error TS2322: Type 'number' is not assignable to type 'string'.\n\n\
                 1 export function f{i}(a: number): string {{ return a; }}\n\
                 \x20                                         ~~~~~~\n\n"
            ));
        }
        input.push_str("Found 120 errors in 120 files.\n");
        let envelope = chunked(input.as_bytes());
        let first = &envelope.items[0];
        assert_eq!(
            first["more"],
            serde_json::json!([
                "",
                "1 export function f0(a: number): string { return a; }",
                "                                          ~~~~~~"
            ]),
            "{:?}",
            envelope.items
        );
        // A record each, and the blank line after it (the tally's too).
        assert_eq!(
            envelope.stats["records"],
            2 * 120 + 1,
            "{}",
            envelope.summary
        );
        assert!(
            envelope.summary.ends_with(
                "first error at line 1: src/m0.ts:1:41 - error TS2322: Type 'number' is not \
                 assignable to type 'string'."
            ),
            "{}",
            envelope.summary
        );
        assert!(!is_tsc_pretty_header("C:/a b/x.ts:3:7 - warning TS6133: x"));
        assert!(is_tsc_pretty_header(
            "a.ts:3:7 - message TS6194: Found 0 errors."
        ));
        assert!(!is_tsc_pretty_header("a.ts:3 - error TS1: x"));
    }

    #[test]
    fn phpunits_report_of_a_failed_test_is_one_record_named_by_its_assertion() {
        // Its reports are unindented and say no level but `Failed asserting that`: only
        // its verdict, `FAILURES!`, was an error.
        let dots = ".".repeat(59);
        let input = format!(
            "PHPUnit 10.5.0 by Sebastian Bergmann and contributors.\n\n\
             {dots}F 60 / 60 (100%)\n\n\
             There were 2 failures:\n\n\
             1) Tests\\CalcTest::testAdd\n\
             Failed asserting that 4 matches expected 3.\n\n\
             /app/tests/CalcTest.php:9\n\n\
             2) Tests\\CalcTest::testDiv with data set #1 (1, 0)\n\
             DivisionByZeroError: Division by zero\n\n\
             /app/src/Calc.php:12\n\
             /app/tests/CalcTest.php:15\n\n\
             FAILURES!\n\
             Tests: 60, Assertions: 60, Failures: 2.\n"
        );
        let envelope = chunked(input.as_bytes());
        let texts: Vec<&str> = (envelope.items.iter())
            .filter_map(|i| i["text"].as_str())
            .collect();
        assert_eq!(
            texts[..3],
            [
                "1) Tests\\CalcTest::testAdd",
                "2) Tests\\CalcTest::testDiv with data set #1 (1, 0)",
                "FAILURES!"
            ],
            "{:?}",
            envelope.items
        );
        assert_eq!(
            envelope.items[1]["more"],
            serde_json::json!([
                "DivisionByZeroError: Division by zero",
                "",
                "/app/src/Calc.php:12",
                "/app/tests/CalcTest.php:15",
                ""
            ])
        );
        assert!(
            envelope.summary.ends_with(
                "first error at line 7: 1) Tests\\CalcTest::testAdd … Failed asserting that 4 \
                 matches expected 3."
            ),
            "{}",
            envelope.summary
        );
    }

    #[test]
    fn jests_verdict_on_a_file_is_named_with_its_first_failed_tests_report() {
        // `FAIL test/cart.test.js` said only which file; under `--verbose` the list of
        // its tests (`✕ adds (1 ms)`) comes before the reports.
        let report = "  ● cart › adds\n\
                      \n\
                      \x20   expect(received).toEqual(expected) // deep equality\n\
                      \n\
                      \x20   Expected: -6\n\
                      \x20   Received: -5\n\
                      \n\
                      \x20     at Object.toEqual (test/cart.test.js:28:60)\n\
                      \n";
        let quiet = format!("FAIL test/cart.test.js\n{report}PASS test/a.test.js\n");
        // In colour, its mark padded (colour codes stripped).
        let coloured = format!("\x1b[7m FAIL \x1b[27m test/cart.test.js\n{report}");
        let verbose = format!(
            "FAIL test/cart.test.js (5.2 s)\n  cart\n    ✓ empty (1 ms)\n    ✕ adds (2 ms)\n\n{report}"
        );
        for input in [quiet, verbose, coloured] {
            let envelope = chunked(input.as_bytes());
            let reported = format!(
                ", reported at line {}: ● cart › adds … expect(received).toEqual(expected) // deep equality",
                input.lines().position(|l| l.starts_with("  ●")).unwrap() + 1
            );
            assert!(
                envelope.summary.contains("first error at line 1: FAIL ")
                    && envelope.summary.contains(&reported),
                "{}",
                envelope.summary
            );
        }
    }

    #[test]
    fn extra_records_give_way_to_other_templates_first_records() {
        // An error of one template 20 times, then as many errors of other templates as
        // fill every place kept: each of those keeps its first record.
        let mut input: String = (0..20)
            .map(|i| format!("ERROR undefined reference to `sym{i}'\n"))
            .collect();
        let word = |mut n: usize| -> String {
            let mut word = String::new();
            for _ in 0..4 {
                word.push((b'a' + (n % 26) as u8) as char);
                n /= 26;
            }
            word
        };
        let others: Vec<String> = (0..MAX_KEPT)
            .map(|i| format!("ERROR {} {} failed", word(i * 7919), word(i * 104_729 + 3)))
            .collect();
        for line in &others {
            input.push_str(line);
            input.push('\n');
        }
        let items = ranked_items(folding(), &input);
        let kept: Vec<&str> = [0, 2, 5]
            .iter()
            .flat_map(|rank| lines_at(&items, *rank))
            .collect();
        assert_eq!(kept.len(), MAX_KEPT);
        let undefined = kept.iter().filter(|l| l.contains("undefined")).count();
        assert!(undefined <= PER_TEMPLATE as usize, "{undefined}");
    }

    #[test]
    fn records_past_the_miners_caps_are_one_other_item() {
        let config = briefly_template::Config {
            max_templates: 3,
            ..briefly_template::Config::default()
        };
        let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"];
        let mut input: String = words
            .iter()
            .map(|w| format!("{w}\nERROR {w} lost\n"))
            .collect();
        // The last line, an edge item, is past the caps too.
        input.push_str("zulu\n");
        let envelope = reduce(
            Text::with_miner(folding(), config).unwrap(),
            input.as_bytes(),
            &RunConfig::new("text"),
        )
        .unwrap();
        let other = envelope
            .items
            .iter()
            .find(|item| item["kind"] == "other")
            .unwrap_or_else(|| panic!("an other item: {}", envelope.to_json()));
        assert_eq!(other["count"], envelope.stats["other_records"]);
        assert_eq!(other.get("id"), None, "no template's id: {other}");
        // Listed among the top templates by its count: the most records here.
        let top = &envelope.stats["top_templates"];
        assert_eq!(top[0], json!({"template": OTHER, "count": 10}), "{top}");
        assert_eq!(top.as_array().unwrap().len(), 4, "{top}");
        assert_eq!(other["severity"], "error", "an ERROR record is among them");
        // Serious records past the caps are each shown, not two of them.
        let shown = envelope.to_json();
        for word in words {
            assert!(
                shown.contains(&format!("ERROR {word} lost")),
                "{word}: {shown}"
            );
        }
        // Each once, in no template: not the `other` group's count, of records unlike it.
        let past_caps: Vec<&Value> = envelope
            .items
            .iter()
            .filter(|item| item["kind"] == "line" && item.get("template").is_none())
            .collect();
        assert!(past_caps.len() >= 2, "{shown}");
        for item in &past_caps {
            assert_eq!(item["count"], 1, "{item}: {shown}");
        }
        assert!(
            past_caps.iter().any(|item| item["text"] == "zulu"),
            "{shown}"
        );
        assert!(envelope
            .warnings
            .iter()
            .any(|w| w.contains("\"other\" group")));
    }

    #[test]
    fn the_other_group_is_ranked_among_the_templates_by_its_count() {
        // Three templates (50, 10 and 1 records), then 19 records past the cap.
        let config = briefly_template::Config {
            max_templates: 3,
            ..briefly_template::Config::default()
        };
        let mut input = String::new();
        for i in 0..50 {
            input.push_str(&format!("request {i} served\n"));
        }
        input.push_str(&"heartbeat\n".repeat(10));
        for w in ["alpha", "bravo", "charlie", "delta", "echo"] {
            for v in ["one", "two", "three", "four"] {
                input.push_str(&format!("{w} {v}\n"));
            }
        }
        let envelope = reduce(
            Text::with_miner(folding(), config).unwrap(),
            input.as_bytes(),
            &RunConfig::new("text"),
        )
        .unwrap();
        let counts: Vec<(&str, u64)> = envelope
            .items
            .iter()
            .filter(|item| item["kind"] == "template" || item["kind"] == "other")
            .map(|item| {
                (
                    item["kind"].as_str().unwrap(),
                    item["count"].as_u64().unwrap(),
                )
            })
            .collect();
        assert_eq!(counts, [("template", 50), ("other", 19), ("template", 10)]);
    }

    #[test]
    fn merged_templates_keep_their_first_and_last_times() {
        // Words the miner first tells apart, then merges into one template.
        let words = [
            "alpha", "bravo", "charlie", "delta", "echo", "fox", "golf", "hotel",
        ];
        let input: String = (0..60)
            .map(|i| {
                let word = words[(i / 3).min(7)];
                format!("2024-01-05T10:00:{i:02}Z worker {word} finished task\n")
            })
            .collect();
        let envelope = reduce(
            Text::new(folding()).unwrap(),
            input.as_bytes(),
            &RunConfig::new("text"),
        )
        .unwrap();
        let template = envelope
            .items
            .iter()
            .find(|item| item["kind"] == "template")
            .unwrap_or_else(|| panic!("one template: {}", envelope.to_json()));
        assert_eq!(template["count"], 60, "{template}");
        assert_eq!(template["first_time"], "2024-01-05T10:00:00Z", "{template}");
        assert_eq!(template["last_time"], "2024-01-05T10:00:59Z", "{template}");
    }

    #[test]
    fn spring_boots_blank_line_before_the_logged_exception_keeps_them_one_record() {
        // Spring Boot's default layout (%wEx) sets the stack apart by blank lines.
        let mut input = String::new();
        for i in 0..300 {
            input.push_str(&format!(
                "2024-05-14T09:16:{:02}.000Z  INFO 1 --- [main] c.e.App : tick {i}\n",
                i % 60
            ));
            if i % 100 == 50 {
                input.push_str("2024-05-14T09:16:40.500Z ERROR 1 --- [exec-3] c.e.Cart : Servlet.service() threw exception with root cause\n\n");
                input.push_str("java.lang.NullPointerException: item is null\n\tat com.example.Cart.total(Cart.java:42)\n\n");
            }
        }
        // A blank line under an error that logged nothing is a line of its own.
        input.push_str(
            "2024-05-14T09:17:00.000Z ERROR 1 --- [main] c.e.App : shutting down\n\nbye\n",
        );
        let envelope = envelope_of(folding(), input.as_bytes());
        assert_eq!(
            envelope.stats["severity"]["error"], 4,
            "{:?}",
            envelope.stats
        );
        let logged = envelope
            .items
            .iter()
            .find(|i| i["text"].as_str().is_some_and(|t| t.contains("root cause")))
            .unwrap_or_else(|| panic!("{:?}", envelope.items));
        assert_eq!(logged["more"][0], "");
        assert_eq!(
            logged["more"][1],
            "java.lang.NullPointerException: item is null"
        );
        let down = envelope
            .items
            .iter()
            .find(|i| {
                i["text"]
                    .as_str()
                    .is_some_and(|t| t.contains("shutting down"))
            })
            .unwrap();
        assert!(down.get("more").is_none(), "{down}");
        // In any chunking the same (the blank line is held across batches).
        assert_eq!(chunked(input.as_bytes()).stats["severity"]["error"], 4);
    }

    #[test]
    fn the_time_span_is_the_earliest_to_the_latest_when_times_sort() {
        let span =
            |input: &str| envelope_of(folding(), input.as_bytes()).stats["time_span"].clone();
        // A merged log, out of order.
        let merged = "2024-05-01T12:00:00Z INFO b\n2024-05-01T09:00:00Z INFO a\n\
                      2024-05-01T23:00:00Z INFO c\n2024-05-01T10:00:00Z INFO d\n";
        assert_eq!(
            span(merged),
            json!(["2024-05-01T09:00:00Z", "2024-05-01T23:00:00Z"])
        );
        // glog's without the level letter its stamp opens with.
        let glog = "I0514 09:00:00.000000 1 m.go:1] a\nE0514 09:34:59.650000 1 m.go:2] b\n";
        assert_eq!(
            span(glog),
            json!(["0514 09:00:00.000000", "0514 09:34:59.650000"])
        );
        // Syslog's times do not sort as text: the first and the last seen.
        let syslog = "Jun 14 15:16:01 a x\nJan 02 01:00:00 a y\nMar 03 02:00:00 a z\n";
        assert_eq!(span(syslog), json!(["Jun 14 15:16:01", "Mar 03 02:00:00"]));
        // Nor do times of two lengths.
        let mixed = "2024-05-01T12:00:00Z INFO b\n2024-05-01 09:00:00,123 INFO a\n2024-05-01T10:00:00Z INFO d\n";
        assert_eq!(
            span(mixed),
            json!(["2024-05-01T12:00:00Z", "2024-05-01T10:00:00Z"])
        );
        // Nor do times with offsets: `+0200` sorts apart from the time it shifts.
        let offsets = "2024-05-01T12:00:00+0200 INFO m1\n2024-05-01T11:00:00+0000 INFO m2\n";
        assert_eq!(
            span(offsets),
            json!(["2024-05-01T12:00:00+0200", "2024-05-01T11:00:00+0000"])
        );
    }

    #[test]
    fn a_byte_order_mark_does_not_hide_the_first_time() {
        let input = "\u{feff}2024-01-05 10:00:00 INFO start\n2024-01-05 10:00:01 INFO end\n";
        let envelope = envelope_of(folding(), input.as_bytes());
        let span = &envelope.stats["time_span"];
        assert_eq!(span[0], "2024-01-05 10:00:00", "{}", envelope.to_json());
        // The first line, shown as an edge, has its time too.
        let first = envelope.items.iter().find(|item| item["line"] == 1);
        let first = first.unwrap_or_else(|| panic!("line 1: {}", envelope.to_json()));
        assert_eq!(first["time"], "2024-01-05 10:00:00", "{first}");
    }

    #[test]
    fn small_distinct_input_is_complete() {
        let complete = |input: &[u8]| {
            let envelope = reduce(
                Text::new(TextOptions::default()).unwrap(),
                input,
                &RunConfig::new("text"),
            )
            .unwrap();
            !envelope.truncated
        };
        assert!(complete(b"alpha one\nbeta two\n"));
        // Its colour codes are not shown: they are left out.
        assert!(!complete(b"alpha one\n\x1b[31mbeta two\x1b[0m\n"));
    }

    #[test]
    fn a_multi_line_record_shown_whole_leaves_nothing_out() {
        // Whether the result is complete, and how many frames its items show.
        let reduced = |input: &str| {
            let envelope = reduce(
                Text::new(folding()).unwrap(),
                input.as_bytes(),
                &RunConfig::new("text"),
            )
            .unwrap();
            let items: String = envelope.items.iter().map(|i| i.to_string()).collect();
            (!envelope.truncated, items.matches("frame").count())
        };
        let traceback = "start\nTraceback (most recent call last):\n  \
                         File \"a.py\", line 1, in frame\n    frame()\nKeyError: 'x'\nend\n";
        assert_eq!(
            reduced(traceback),
            (true, 2),
            "a serious record is kept whole"
        );
        // Not kept (not serious): shown as its template's example, its first line only.
        let info_stack = "start\nINFO retrying\n\tat frame.A(A.java:1)\nend\n";
        assert_eq!(reduced(info_stack), (false, 0));
        // A line of the record cut for its item.
        let long = traceback.replace("frame()", &format!("frame({})", "x".repeat(2000)));
        assert_eq!(reduced(&long), (false, 2));
    }

    #[test]
    fn the_last_line_is_an_item_without_its_colour() {
        // Many batches of one template, then a coloured last line of the same one.
        let mut input = String::new();
        for i in 0..20_000 {
            input.push_str(&format!("served /item/{i} in {} ms\n", i % 17));
        }
        input.push_str("\x1b[32mserved /item/7 in 99 ms\x1b[0m\n");
        let envelope = chunked(input.as_bytes());
        let last = envelope
            .items
            .iter()
            .find(|item| item["line"] == 20_001)
            .expect("the last line is an item");
        assert_eq!(last["text"], "served /item/7 in 99 ms");
    }

    #[test]
    fn the_first_and_last_lines_are_graded_as_their_records_are() {
        // PHP's deprecation after its log's time is a warning by its message.
        let line = |i: u32| {
            format!(
                "[07-Dec-2026 12:24:{:02} UTC] PHP Deprecated:  strlen(): Passing null in /a/Str.php on line {i}\n",
                i % 60
            )
        };
        let input: String = (0..300).map(line).collect();
        let envelope = envelope_of(folding(), input.as_bytes());
        for n in [1, 300] {
            let item = (envelope.items.iter())
                .find(|item| item["kind"] == "line" && item["line"] == n)
                .unwrap_or_else(|| panic!("{}", envelope.to_json()));
            assert_eq!(item["severity"], "warn", "{item}");
        }
    }
}
