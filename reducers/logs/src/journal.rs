//! `briefly journal`: journald entries, from `journalctl -o json` (one object a line) or
//! `-o export` (binary-safe, length-prefixed fields), told apart by their first bytes.
//!
//! Fields read: `PRIORITY` (0 emerg … 7 debug) as the level (with the level a line states
//! when worse, for a service's output, `_TRANSPORT=stdout`), `__REALTIME_TIMESTAMP` (µs)
//! as the time, the unit (the container that wrote it, `CONTAINER_NAME`; else the user's
//! unit, `_SYSTEMD_USER_UNIT`; else `_SYSTEMD_UNIT`, `SYSLOG_IDENTIFIER` or `_COMM`),
//! `_PID`, `MESSAGE` (a string; an array of bytes when not UTF-8; null when too large;
//! an array when repeated) and `__CURSOR`, the last of which goes in the envelope's
//! `source_cursor` so a caller can go on with `journalctl --after-cursor`. A service's
//! output lines, which journald stores one an entry, are joined back into the records
//! they were written as (a traceback is one entry again).

use crate::docker::MAX_JOINED;
use crate::fold::{Entry, Fold, FoldStats, Names, MAX_GROUPS};
use crate::time::Span;
use crate::{OptionError, TextItems, MAX_RECORD_LINES, MAX_RECORD_PAUSE_MICROS};
use briefly_core::{
    count_newlines, counted, plural, strip_ansi, Emit, Envelope, Flow, Framing, LineFramer,
    Outcome, Record, Reducer,
};
use briefly_severity::multiline::{Indented, MultiLine};
use briefly_severity::{inspect, Inspection, Severity};
use briefly_text::{Text, TextOptions};
use serde::de::{Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

/// The longest JSON line read whole by default (`--max-line-bytes` sets it); the head of
/// a longer one is read (and fails).
pub const MAX_JSON_LINE: usize = briefly_core::DEFAULT_MAX_LINE_BYTES;
/// The most bytes of one export field kept; the rest is skipped (and counted).
pub const MAX_FIELD_BYTES: usize = 64 * 1024;
/// The most output records joined at once, one a process (the workers of a service
/// writing tracebacks at the same time); a record past them closes the one written to
/// longest ago.
const MAX_OPEN_RECORDS: usize = 8;
/// Bytes looked at to tell JSON from export from text.
const SNIFF_BYTES: usize = 4096;

/// Level names, by priority; index 8 is an entry without a valid `PRIORITY`.
pub const PRIORITIES: [&str; 9] = [
    "emerg", "alert", "crit", "err", "warning", "notice", "info", "debug", "unset",
];
const UNSET: usize = 8;

const NAMES: Names = Names {
    group: "unit",
    level: "priority",
    levels: &PRIORITIES,
    levels_key: "priorities",

    worst_first: true,
    level_severities: &PRIORITY_SEVERITIES,
};

/// The severity each of [`PRIORITIES`] names ([`severity_of`]); `unset` none.
const PRIORITY_SEVERITIES: [Option<Severity>; PRIORITIES.len()] = {
    let mut severities = [None; PRIORITIES.len()];
    let mut priority = 0;
    while priority < UNSET {
        severities[priority] = Some(severity_of(priority));
        priority += 1;
    }
    severities
};

/// What to look at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct JournalOptions {
    /// Only entries at this priority or more urgent (0 emerg … 7 debug). An entry
    /// without a `PRIORITY` takes the one its message implies (info when none).
    pub max_priority: Option<u8>,
    /// Only entries at or after this time (seconds since the epoch).
    pub since: Option<i64>,
    /// Only entries before this time (seconds since the epoch).
    pub until: Option<i64>,
    /// Only entries of this unit (as entries are grouped: by container, user unit,
    /// `_SYSTEMD_UNIT`, `SYSLOG_IDENTIFIER` or `_COMM`; or their `_SYSTEMD_UNIT`); a
    /// name without a type is a service's, as `journalctl -u` reads it.
    pub unit: Option<String>,
    /// Entries whose messages take at most this many characters (one more for
    /// each) are returned whole: each an item, none folded. 0: never.
    pub whole_chars: usize,
}

impl Default for JournalOptions {
    fn default() -> Self {
        JournalOptions {
            max_priority: None,
            since: None,
            until: None,
            unit: None,
            whole_chars: briefly_text::WHOLE_CHARS,
        }
    }
}

/// `--level`'s value as a priority: a journald name (`err`, `warning`), a number 0-7, or
/// a severity name as `briefly text` takes (`error`, `warn`, `fatal`, `trace`).
pub fn parse_priority(text: &str) -> Result<u8, OptionError> {
    let lower = text.trim().to_ascii_lowercase();
    if let Ok(n) = lower.parse::<u8>() {
        return if n <= 7 {
            Ok(n)
        } else {
            Err(OptionError::Level(text.to_string()))
        };
    }
    if let Some(i) = PRIORITIES[..UNSET].iter().position(|p| *p == lower) {
        return Ok(i as u8);
    }
    let severity: Severity = lower
        .parse()
        .map_err(|_| OptionError::Level(text.to_string()))?;
    Ok(priority_of(severity))
}

/// The priority a severity corresponds to.
fn priority_of(severity: Severity) -> u8 {
    match severity {
        Severity::Fatal => 2,
        Severity::Error => 3,
        Severity::Warn => 4,
        Severity::Info => 6,
        Severity::Debug | Severity::Trace => 7,
    }
}

/// The severity a priority corresponds to.
const fn severity_of(priority: usize) -> Severity {
    match priority {
        0..=2 => Severity::Fatal,
        3 => Severity::Error,
        4 => Severity::Warn,
        5 | 6 => Severity::Info,
        _ => Severity::Debug,
    }
}

/// How the input is read, once its first bytes have told.
enum Mode {
    /// Not known yet: the first bytes, up to a newline or [`SNIFF_BYTES`].
    Sniffing(Vec<u8>),
    Json(LineFramer),
    Export(Box<ExportParser>),
    /// Neither: `briefly text` reduces it.
    Text(LineFramer, Box<Text>),
}

/// What went wrong in the input, counted.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Problems {
    /// Lines that are not JSON objects (truncated, or not JSON at all).
    pub bad_lines: u64,
    /// JSON lines (or json-pretty entries) longer than the line limit, read as lines
    /// that are no entry.
    pub long_lines: u64,
    /// Entries kept without a `MESSAGE`.
    pub missing_message: u64,
    /// Entries kept whose `MESSAGE` is null (journalctl's mark for a field too large).
    pub null_message: u64,
    /// Entries kept whose `MESSAGE` is binary (not UTF-8): shown with U+FFFD for bad bytes.
    pub binary_message: u64,
    /// Entries kept without a valid `__REALTIME_TIMESTAMP`.
    pub bad_time: u64,
    /// Entries kept whose `PRIORITY` is not 0-7 (counted as `unset`).
    pub bad_priority: u64,
    /// Export fields longer than [`MAX_FIELD_BYTES`], or export input cut short.
    pub cut_fields: u64,
    /// Lines of export input that are no field (journalctl's own message on its
    /// stderr, merged in by `2>&1`; JSON after it): skipped.
    pub stray_lines: u64,
}

/// Statistics of `briefly journal`.
#[derive(Debug, Clone, Serialize)]
pub struct JournalStats {
    /// `json` or `export`.
    pub format: &'static str,
    /// Entries read (before the filters).
    pub entries_read: u64,
    /// Entries left out by `--level`, `--since`, `--until` or `--unit`.
    pub filtered_out: u64,
    /// The earliest and latest times of the entries read, before the filters.
    pub read_time_span: Option<(String, String)>,
    /// Entries kept without a PRIORITY whose text reads as an error or worse (`ERROR:`,
    /// a traceback): counted in their group's `errors`, and under `unset` in `levels`.
    #[serde(skip_serializing_if = "briefly_core::is_zero")]
    pub unset_errors: u64,
    /// Entries kept without a PRIORITY whose text reads as a warning.
    #[serde(skip_serializing_if = "briefly_core::is_zero")]
    pub unset_warnings: u64,
    /// Entries kept that a service wrote to its stdout or stderr (`_TRANSPORT=stdout`)
    /// whose text reads as an error or worse at a less urgent PRIORITY (journald gives
    /// such lines the unit's level, info): ranked and counted in their group's `errors`
    /// as errors, shown with their PRIORITY (a record of joined entries once).
    #[serde(skip_serializing_if = "briefly_core::is_zero")]
    pub output_errors: u64,
    /// The same whose text reads as a warning.
    #[serde(skip_serializing_if = "briefly_core::is_zero")]
    pub output_warnings: u64,
    /// Entries kept that are lines of the entry above them: a service's output lines
    /// (a traceback and its frames) that journald stored one an entry, joined back into
    /// the record they were written as, by the rules `docker` reads records by (counted
    /// in `entries`; the record is one item, at its first entry's line and time, and
    /// `groups`, the levels and `time_span` count it once).
    #[serde(skip_serializing_if = "briefly_core::is_zero")]
    pub joined_entries: u64,
    /// What was folded.
    #[serde(flatten)]
    pub fold: FoldStats,
    /// Problems in the input.
    pub problems: Problems,
}

/// Units named, those with most entries, when `--unit` keeps none.
const TOP_UNITS_NAMED: usize = 5;

/// The journald reducer.
pub struct Journal {
    options: JournalOptions,
    mode: Mode,
    fold: Fold,
    read: u64,
    /// The times of the entries read, before the filters.
    read_span: Span,
    /// Under `--unit`: the entries read of each unit (the first [`MAX_GROUPS`]), to name
    /// those there are when it keeps none (a unit's name mistyped).
    read_units: Option<HashMap<String, u64>>,
    filtered_out: u64,
    /// Entries kept without a PRIORITY whose text reads as an error or worse.
    unset_errors: u64,
    /// Entries kept without a PRIORITY whose text reads as a warning.
    unset_warnings: u64,
    /// Entries kept a service wrote to its output whose text reads as an error or worse,
    /// and as a warning, at a less urgent PRIORITY.
    output_errors: u64,
    output_warnings: u64,
    /// Services' output lines being joined into records: one open record a process, at
    /// most [`MAX_OPEN_RECORDS`], in the order they were opened.
    output: Vec<OutputRecord>,
    /// Entries kept that were joined to the entry above them.
    joined_entries: u64,
    problems: Problems,
    last_cursor: Option<String>,
    /// Scratch for a message made of bytes or repeated fields.
    scratch: String,
    /// A message without its ANSI codes, the buffer kept for the next.
    stripped: Option<String>,
    /// `-o json-pretty`'s entry being read, over lines from `{` to `}`: its first line
    /// and its text so far (at most `max_line` bytes).
    pretty: Option<(u64, Vec<u8>)>,
    /// The longest line (or json-pretty entry) read whole: [`MAX_JSON_LINE`] unless the
    /// pipeline says otherwise ([`Reducer::line_limit`]).
    max_line: usize,
    /// Whether an entry came as `-o json-pretty` writes it.
    pretty_seen: bool,
}

impl Journal {
    /// A journal reducer.
    pub fn new(options: JournalOptions) -> Result<Journal, OptionError> {
        if let Some(p) = options.max_priority {
            if p > 7 {
                return Err(OptionError::Level(p.to_string()));
            }
        }
        let mut fold = Fold::new(NAMES);
        fold.return_whole_up_to(options.whole_chars);
        let narrowing = [options.since, options.until].iter().any(Option::is_some)
            || options.max_priority.is_some()
            || options.unit.is_some();
        if narrowing {
            fold.narrowed();
        }
        let read_units = options.unit.is_some().then(HashMap::new);
        Ok(Journal {
            read_units,
            options,
            mode: Mode::Sniffing(Vec::new()),
            fold,
            read: 0,
            read_span: Span::default(),
            filtered_out: 0,
            unset_errors: 0,
            unset_warnings: 0,
            output_errors: 0,
            output_warnings: 0,
            output: Vec::new(),
            joined_entries: 0,
            problems: Problems::default(),
            last_cursor: None,
            scratch: String::new(),
            stripped: None,
            pretty: None,
            pretty_seen: false,
            max_line: MAX_JSON_LINE,
        })
    }

    /// Feeds bytes to the mode's parser.
    fn feed(&mut self, bytes: &[u8], out: &mut dyn Emit<Value>) {
        if let Mode::Sniffing(head) = &mut self.mode {
            let newline = memchr::memchr(b'\n', bytes);
            let take = newline.map_or(bytes.len(), |at| at + 1);
            head.extend_from_slice(&bytes[..take]);
            if newline.is_none() && head.len() < SNIFF_BYTES {
                return;
            }
            let head = std::mem::take(head);
            self.mode = self.choose(&head);
            self.feed(&head, out);
            self.feed(&bytes[take..], out);
            return;
        }
        let mut mode = std::mem::replace(&mut self.mode, Mode::Sniffing(Vec::new()));
        match &mut mode {
            Mode::Sniffing(_) => unreachable!("handled above"),
            Mode::Json(framer) => framer.push(bytes, |line| {
                self.json_line(line.bytes, line.line, line.cut)
            }),
            Mode::Export(parser) => parser.push(bytes, &mut |fields| self.entry(fields)),
            Mode::Text(framer, text) => framer.push(bytes, |line| text_line(text, &line, out)),
        }
        self.mode = mode;
    }

    /// The mode the first bytes call for (blank lines before JSON are skipped over).
    fn choose(&self, head: &[u8]) -> Mode {
        let first = head.iter().find(|b| !b.is_ascii_whitespace());
        // `-o json-seq` opens each entry with RS.
        if matches!(first, Some(b'{' | 0x1e)) {
            return Mode::Json(LineFramer::new_with_max_length(self.max_line));
        }
        let key_end = head
            .iter()
            .position(|b| *b == b'=' || *b == b'\n')
            .unwrap_or(head.len());
        if is_field_name(&head[..key_end]) {
            return Mode::Export(Box::default());
        }
        let text = Text::new(TextOptions {
            level: self.options.max_priority.map(|p| severity_of(p as usize)),
            since: self.options.since,
            until: self.options.until,
            whole_chars: Some(self.options.whole_chars),
            ..TextOptions::default()
        })
        .expect("no grep pattern, no context, no file");
        Mode::Text(
            LineFramer::new_with_max_length(self.max_line),
            Box::new(text),
        )
    }

    /// A line of `-o json` (an entry), `-o json-seq` (the same after RS) or `-o
    /// json-pretty` (an entry over lines, from `{` alone to `}` alone).
    fn json_line(&mut self, bytes: &[u8], line: u64, cut: bool) {
        let bytes = bytes.strip_prefix(b"\x1e").unwrap_or(bytes);
        let alone = bytes.trim_ascii();
        if let Some((_, held)) = &mut self.pretty {
            if cut || held.len() + bytes.len() >= self.max_line {
                // Too long for an entry: what was held is a bad line, and so is each
                // line up to its end.
                let (first, held) = self.pretty.take().expect("held");
                self.json_entry(&held, first, true);
                self.json_entry(bytes, line, true);
                return;
            }
            held.extend_from_slice(bytes);
            held.push(b'\n');
            if alone == b"}" {
                let (first, held) = self.pretty.take().expect("held");
                self.pretty_seen = true;
                self.json_entry(&held, first, false);
            }
            return;
        }
        if alone == b"{" {
            self.pretty = Some((line, b"{\n".to_vec()));
            return;
        }
        self.json_entry(bytes, line, cut);
    }

    /// An entry of `-o json` at `line`, or a bad line.
    fn json_entry(&mut self, bytes: &[u8], line: u64, cut: bool) {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        let object = crate::is_json_object(bytes);
        match serde_json::from_slice::<JsonEntry<'_>>(bytes) {
            Ok(json) if !cut && object => {
                let pid = json.pid.text();
                let about_unit = Fields::about_unit(
                    json.manager_unit.text(),
                    json.coredump_unit.text(),
                    json.object_unit.text(),
                    pid.as_deref(),
                );
                self.entry(Fields {
                    line,
                    message: json.message,
                    priority: json.priority.text(),
                    unit: json.unit.text(),
                    user_unit: json.user_unit.text(),
                    container: json.container.text(),
                    identifier: json.identifier.text(),
                    comm: json.comm.text(),
                    pid,
                    // When journald's own time is missing, the one the client gave.
                    realtime: json.realtime.text().or(json.source_realtime.text()),
                    cursor: json.cursor.text(),
                    about_unit,
                    transport: json.transport.text(),
                });
            }
            _ => {
                // Not an entry: counted, and shown as an unset entry so nothing is lost.
                match cut {
                    true => self.problems.long_lines += 1,
                    false => self.problems.bad_lines += 1,
                }
                let text = String::from_utf8_lossy(bytes);
                self.entry(Fields {
                    line,
                    message: FieldValue::Text(text),
                    ..Fields::default()
                });
            }
        }
    }

    /// One entry, from either format.
    fn entry(&mut self, fields: Fields<'_>) {
        // Lent out, as a message made in it is held while the entry is folded.
        let mut scratch = std::mem::take(&mut self.scratch);
        self.entry_with(fields, &mut scratch);
        self.scratch = scratch;
    }

    /// [`Journal::entry`], with `scratch` for a message made of bytes or repeated fields.
    fn entry_with(&mut self, fields: Fields<'_>, scratch: &mut String) {
        self.read += 1;
        if let Some(cursor) = fields.cursor.as_deref() {
            let last = self.last_cursor.get_or_insert_with(String::new);
            last.clear();
            last.push_str(cursor);
        }
        scratch.clear();
        let reuse = self.stripped.take();
        // How the message is shown, counted for the entries kept (the filters' own are
        // not shown): none, null, bytes.
        let mut shown_as = [0; 3];
        let message: &str = match &fields.message {
            FieldValue::Missing => {
                shown_as[0] = 1;
                ""
            }
            FieldValue::Null => {
                shown_as[1] = 1;
                "(MESSAGE too large: null in journalctl's JSON)"
            }
            FieldValue::Text(text) => text,
            value => {
                shown_as[2] = u64::from(value.has_invalid_utf8());
                value.join_into(scratch);
                scratch
            }
        };
        // Colour codes (journalctl writes a message with them as bytes) are no part of
        // what it says: `\x1b[31mERROR` is an error.
        let stripped = strip_ansi(message, reuse);
        let ansi = stripped.is_some();
        let message = stripped.as_deref().unwrap_or(message);
        // A bad time or priority is counted of the entries kept, as a message's problems
        // are (the options' own are not shown).
        let micros = (fields.realtime.as_deref()).and_then(|us| us.parse::<i64>().ok());
        let (level, bad_priority) = match fields.priority.as_deref().map(str::parse::<usize>) {
            Some(Ok(p)) if p < UNSET => (p, false),
            Some(_) => (UNSET, true),
            None => (UNSET, false),
        };
        // What the text states counts for an entry without a PRIORITY, and for a
        // service's output line when worse than its unit's level (read once: a record
        // joined of such lines is read by it too).
        let found = (level == UNSET || fields.is_output_line()).then(|| inspect(message));
        let stated = found.and_then(|found| found.severity);
        let severity = match level {
            UNSET => stated,
            _ => Some(severity_of(level)).max(stated),
        };
        if let Some(micros) = micros {
            self.read_span.see(micros);
        }
        let unit = group_of(&fields);
        if let Some(units) = &mut self.read_units {
            if let Some(n) = units.get_mut(unit) {
                *n += 1;
            } else if units.len() < MAX_GROUPS {
                units.insert(unit.to_string(), 1);
            }
        }
        // A service's output line, whole and well-formed, may go on the record above it.
        let joins = fields.is_output_line() && shown_as == [0; 3] && !bad_priority;
        let pid = fields.pid.as_deref();
        if let (true, Some(micros), Some(found)) = (joins, micros, found) {
            let own = self
                .output
                .iter_mut()
                .find(|record| record.is_of(unit, pid));
            if let Some(record) = own.filter(|r| r.continues_with(unit, pid, micros, message)) {
                record.push(message, found, micros, ansi);
                self.stripped = stripped;
                return;
            }
            self.close_output(|record| record.is_of(unit, pid) || record.paused_at(micros));
            // The one written to longest ago gives way.
            if self.output.len() == MAX_OPEN_RECORDS {
                let oldest = (0..self.output.len()).min_by_key(|&at| self.output[at].last_micros);
                self.close_output_at(oldest.expect("full"));
            }
            self.output.push(OutputRecord::start(
                &fields, unit, micros, level, message, found, ansi,
            ));
            self.stripped = stripped;
            return;
        }
        // Another process's entry between a record's lines (cron's, the kernel's, another
        // worker's) leaves it open, as `journalctl -u` or `_PID=` would not show it there;
        // its own or a later one closes it.
        match micros {
            Some(micros) => {
                self.close_output(|record| record.is_of(unit, pid) || record.paused_at(micros))
            }
            None => self.close_output(|_| true),
        }
        let entry = Entry {
            line: fields.line,
            micros,
            level,
            severity,
            group: unit,
            pid,
            message,
            ansi,
        };
        let system_units = [fields.unit.as_deref(), fields.about_unit.as_deref()];
        let [missing, null, binary] = shown_as;
        let problems = Problems {
            bad_time: u64::from(micros.is_none()),
            bad_priority: u64::from(bad_priority),
            missing_message: missing,
            null_message: null,
            binary_message: binary,
            ..Problems::default()
        };
        self.fold_entry(&entry, system_units, 0, problems);
        self.stripped = stripped;
    }

    /// Folds the open output records that `ended` says no later entry goes on, each as one
    /// entry (its lines joined), in the order they were opened.
    fn close_output(&mut self, ended: impl Fn(&OutputRecord) -> bool) {
        let mut at = 0;
        while at < self.output.len() {
            if ended(&self.output[at]) {
                self.close_output_at(at);
            } else {
                at += 1;
            }
        }
    }

    /// Folds the open output record at `at` as one entry (its lines joined).
    fn close_output_at(&mut self, at: usize) {
        let record = self.output.remove(at);
        // What its lines state, when worse than the unit's level.
        let severity = Some(severity_of(record.level)).max(record.multiline.severity());
        let entry = Entry {
            line: record.line,
            micros: Some(record.micros),
            level: record.level,
            severity,
            group: &record.group,
            pid: record.pid.as_deref(),
            message: &record.message,
            ansi: record.ansi,
        };
        let system_units = [record.unit.as_deref(), record.about_unit.as_deref()];
        if self.fold_entry(&entry, system_units, record.joined, Problems::default()) {
            // Its last line's time ends the span, if it is the latest.
            self.fold.see_time(record.last_micros);
        }
    }

    /// Folds an entry the options keep, with `joined` more entries joined to it as lines
    /// of one record and the `problems` of its fields (counted of the entries kept);
    /// whether they kept it.
    fn fold_entry(
        &mut self,
        entry: &Entry<'_>,
        system_units: [Option<&str>; 2],
        joined: u64,
        problems: Problems,
    ) -> bool {
        let Entry {
            level,
            severity,
            micros,
            group: unit,
            ..
        } = *entry;
        if !self.wanted(level, severity, micros, unit, system_units) {
            self.filtered_out += 1 + joined;
            return false;
        }
        self.joined_entries += joined;
        let read_as = match level {
            UNSET => Some([&mut self.unset_errors, &mut self.unset_warnings]),
            _ if severity > Some(severity_of(level)) => {
                Some([&mut self.output_errors, &mut self.output_warnings])
            }
            _ => None,
        };
        if let Some([errors, warnings]) = read_as {
            match severity {
                Some(s) if s >= Severity::Error => *errors += 1,
                Some(Severity::Warn) => *warnings += 1,
                _ => {}
            }
        }
        let p = &mut self.problems;
        p.bad_time += problems.bad_time;
        p.bad_priority += problems.bad_priority;
        p.missing_message += problems.missing_message;
        p.null_message += problems.null_message;
        p.binary_message += problems.binary_message;
        self.fold.add(entry);
        true
    }

    /// Whether the options keep an entry; `unit` is its group, `system_units` its
    /// `_SYSTEMD_UNIT` (`--unit docker` keeps the containers' entries dockerd logged) and
    /// the unit it was written of ([`Fields::about_unit`]).
    fn wanted(
        &self,
        level: usize,
        severity: Option<Severity>,
        micros: Option<i64>,
        unit: &str,
        system_units: [Option<&str>; 2],
    ) -> bool {
        let options = &self.options;
        if let Some(max) = options.max_priority {
            // An entry's priority, or what its message states when worse (a service's
            // output line: `severity` is then the worse of the two).
            let priority = match level {
                UNSET => severity.map_or(6, priority_of),
                _ => (level as u8).min(severity.map_or(7, priority_of)),
            };
            if priority > max {
                return false;
            }
        }
        if let Some(micros) = micros {
            let secs = micros.div_euclid(1_000_000);
            if options.since.is_some_and(|s| secs < s) || options.until.is_some_and(|u| secs >= u) {
                return false;
            }
        }
        options.unit.as_deref().is_none_or(|u| {
            unit_matches(u, unit) || system_units.iter().flatten().any(|s| unit_matches(u, s))
        })
    }
}

/// A service's output lines that journald stored one an entry each, joined back into
/// the record they were written as (a Python traceback and its frames, a Java stack), by
/// the rules `docker` reads records by ([`MultiLine`], an indented line going on the one
/// above): the lines of one process, each written within [`MAX_RECORD_PAUSE_MICROS`]
/// after the last; one open a process, other processes' entries between its lines.
struct OutputRecord {
    line: u64,
    micros: i64,
    last_micros: i64,
    level: usize,
    group: String,
    pid: Option<String>,
    unit: Option<String>,
    about_unit: Option<String>,
    message: String,
    ansi: bool,
    multiline: MultiLine,
    /// Entries joined after the first.
    joined: u64,
}

impl OutputRecord {
    fn start(
        fields: &Fields<'_>,
        group: &str,
        micros: i64,
        level: usize,
        message: &str,
        found: Inspection,
        ansi: bool,
    ) -> OutputRecord {
        let mut multiline = MultiLine::new(Indented::Continue);
        multiline.start(message, found.severity, found.opens);
        OutputRecord {
            line: fields.line,
            micros,
            last_micros: micros,
            level,
            group: group.to_string(),
            pid: fields.pid.as_deref().map(str::to_string),
            unit: fields.unit.as_deref().map(str::to_string),
            about_unit: fields.about_unit.as_deref().map(str::to_string),
            message: message.to_string(),
            ansi,
            multiline,
            joined: 0,
        }
    }

    /// Whether `message`, of an output entry of `group` and `pid` at `micros`, goes on
    /// this record.
    fn continues_with(&self, group: &str, pid: Option<&str>, micros: i64, message: &str) -> bool {
        self.is_of(group, pid)
            && !self.paused_at(micros)
            && self.multiline.lines() + 1 < MAX_RECORD_LINES
            && self.message.len() + message.len() < MAX_JOINED
            && self.multiline.continues(message)
    }

    /// Whether an entry of `group` and `pid` is of this record's process.
    fn is_of(&self, group: &str, pid: Option<&str>) -> bool {
        group == self.group && pid == self.pid.as_deref()
    }

    /// Whether a line at `micros` is past the record's end: written before its last
    /// line (`journalctl -r` writes the newest first) or after a pause.
    fn paused_at(&self, micros: i64) -> bool {
        !(0..=MAX_RECORD_PAUSE_MICROS).contains(&micros.saturating_sub(self.last_micros))
    }

    fn push(&mut self, message: &str, found: Inspection, micros: i64, ansi: bool) {
        self.multiline.push(message, found.severity, found.opens);
        self.message.push('\n');
        self.message.push_str(message);
        self.last_micros = micros;
        self.ansi |= ansi;
        self.joined += 1;
    }
}

/// What an entry is grouped by: the container that wrote it (`CONTAINER_NAME`, docker's
/// and podman's journald log driver, whose entries are all `docker.service`'s), the
/// user's unit that did (`_SYSTEMD_USER_UNIT`, under the `user@1000.service` manager),
/// else its `_SYSTEMD_UNIT`, `SYSLOG_IDENTIFIER` or `_COMM`.
fn group_of<'f>(fields: &'f Fields<'_>) -> &'f str {
    let system = fields.unit.as_deref();
    let user_unit = fields
        .user_unit
        .as_deref()
        .filter(|_| system.is_none_or(|unit| unit.starts_with("user@")));
    fields
        .container
        .as_deref()
        .or(user_unit)
        .or(system)
        .or(fields.identifier.as_deref())
        .or(fields.comm.as_deref())
        .unwrap_or("-")
}

/// Whether an entry of `unit` is one of `--unit wanted`, as `journalctl -u` reads it: a
/// name without a type is a service's (`db` is `db.service`); a pattern (`web*`,
/// `app-?.service`, `db[12]`) is matched against the whole name.
fn unit_matches(wanted: &str, unit: &str) -> bool {
    if wanted.contains(['*', '?', '[']) {
        return glob_matches(wanted.as_bytes(), unit.as_bytes());
    }
    wanted == unit || (!wanted.contains('.') && unit.strip_suffix(".service") == Some(wanted))
}

/// A shell pattern's match of all of `text`: `*` any run, `?` any one byte, `[…]` one of
/// a set (ranges `a-z`, `!` or `^` first for none of it); an unclosed `[` is itself.
fn glob_matches(pattern: &[u8], text: &[u8]) -> bool {
    // The last `*` seen and where in `text` it was tried up to: on a mismatch it takes
    // one more byte (linear in practice, never exponential).
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        let step = match pattern.get(p) {
            Some(b'*') => {
                star = Some((p, t));
                p += 1;
                continue;
            }
            Some(b'?') => Some(1),
            Some(b'[') => match class_matches(&pattern[p..], text[t]) {
                Some((matched, len)) => matched.then_some(len),
                None => (text[t] == b'[').then_some(1),
            },
            Some(&c) => (c == text[t]).then_some(1),
            None => None,
        };
        match (step, star) {
            (Some(len), _) => {
                p += len;
                t += 1;
            }
            (None, Some((at, tried))) => {
                p = at + 1;
                t = tried + 1;
                star = Some((at, tried + 1));
            }
            (None, None) => return false,
        }
    }
    pattern[p..].iter().all(|&c| c == b'*')
}

/// Whether `byte` is in the set `[…]` that `pattern` opens with, and the set's length;
/// `None` when the `[` is not closed.
fn class_matches(pattern: &[u8], byte: u8) -> Option<(bool, usize)> {
    let mut i = 1;
    let negated = matches!(pattern.get(i), Some(b'!' | b'^'));
    i += usize::from(negated);
    let mut matched = false;
    let mut first = true;
    while let Some(&c) = pattern.get(i) {
        if c == b']' && !first {
            return Some((matched != negated, i + 1));
        }
        first = false;
        match (pattern.get(i + 1), pattern.get(i + 2)) {
            (Some(b'-'), Some(&end)) if end != b']' => {
                matched |= (c..=end).contains(&byte);
                i += 3;
            }
            _ => {
                matched |= c == byte;
                i += 1;
            }
        }
    }
    None
}

/// A line of input that fell back to `briefly text`.
fn text_line(text: &mut Text, line: &briefly_core::FramedLine<'_>, out: &mut dyn Emit<Value>) {
    let decoded = String::from_utf8_lossy(line.bytes);
    let record = Record {
        text: &decoded,
        bytes: line.bytes,
        line: line.line,
        offset: line.offset,
        cut: line.cut,
        crlf: line.crlf,
    };
    text.record(&record, &mut TextItems(out));
}

impl Reducer for Journal {
    type Item = Value;
    type Stats = Value;

    fn record(&mut self, _record: &Record<'_>, _out: &mut dyn Emit<Value>) -> Flow {
        unreachable!("raw framing: the pipeline calls chunk()")
    }

    fn framing(&self) -> Framing {
        Framing::Raw
    }

    fn line_limit(&mut self, max_line_bytes: usize) {
        self.max_line = max_line_bytes;
    }

    fn chunk(&mut self, bytes: &[u8], _offset: u64, out: &mut dyn Emit<Value>) -> Flow {
        self.feed(bytes, out);
        self.fold.emit_listed(None, out);
        Flow::Continue
    }

    fn finish(&mut self, out: &mut dyn Emit<Value>) -> Outcome<Value> {
        if let Mode::Sniffing(head) = &mut self.mode {
            let head = std::mem::take(head);
            if head.is_empty() {
                // Nothing came: no format to name, nor to miss.
                let stats = serde_json::json!({"entries": 0});
                let mut outcome = Outcome::new("no entries: the input is empty", stats);
                outcome.complete = true;
                outcome.warnings.push("no input".into());
                return outcome;
            }
            self.mode = self.choose(&head);
            self.feed(&head, out);
        }
        let mut mode = std::mem::replace(&mut self.mode, Mode::Sniffing(Vec::new()));
        let format = match &mut mode {
            Mode::Sniffing(_) => unreachable!("chosen above"),
            Mode::Json(framer) => {
                framer.finish(|line| self.json_line(line.bytes, line.line, line.cut));
                // An entry never closed: a bad line, shown.
                if let Some((first, held)) = self.pretty.take() {
                    self.json_entry(&held, first, true);
                }
                match self.pretty_seen {
                    true => "json-pretty",
                    false => "json",
                }
            }
            Mode::Export(parser) => {
                parser.finish(&mut |fields| self.entry(fields));
                self.problems.cut_fields += parser.cut_fields;
                self.problems.stray_lines += parser.stray_lines;
                "export"
            }
            Mode::Text(framer, text) => {
                framer.finish(|line| text_line(text, &line, out));
                let outcome = text.finish(&mut TextItems(out));
                let mut result = Outcome::new(
                    format!(
                        "not journald JSON or export, read as text: {}",
                        outcome.summary
                    ),
                    serde_json::to_value(&outcome.stats).unwrap_or(Value::Null),
                );
                result.complete = outcome.complete;
                result.warnings = outcome.warnings;
                result.warnings.insert(
                    0,
                    "input is neither `journalctl -o json` nor `-o export`: reduced as text"
                        .to_string(),
                );
                return result;
            }
        };
        self.close_output(|_| true);
        let mut emit = |rank, item| out.emit(rank, item);
        let (mut fold, worst) = self.fold.finish(&mut emit);
        // Entries joined as lines of the one above them are entries kept too.
        fold.entries += self.joined_entries;
        let mut warnings = self.fold.warnings();
        let p = &self.problems;
        let (entry, entries) = ("entry has", "entries have");
        for (n, one, many, what) in [
            (
                p.bad_lines,
                "line is not a JSON journal entry",
                "lines are not JSON journal entries",
                "(shown as unset entries)",
            ),
            (
                p.long_lines,
                "line is",
                "lines are",
                &format!(
                    "longer than the line limit ({} bytes; --max-line-bytes sets it), not \
                     read as entries (shown as unset entries)",
                    self.max_line
                ),
            ),
            (p.missing_message, entry, entries, "no MESSAGE"),
            (
                p.null_message,
                entry,
                entries,
                "a null MESSAGE (too large for journalctl's JSON; `journalctl --all` shows it)",
            ),
            (
                p.binary_message,
                entry,
                entries,
                "a binary MESSAGE (invalid UTF-8 shown as U+FFFD)",
            ),
            (p.bad_time, entry, entries, "no valid __REALTIME_TIMESTAMP"),
            (
                p.bad_priority,
                entry,
                entries,
                "a PRIORITY outside 0-7 (counted as unset)",
            ),
            (
                p.cut_fields,
                "export field was",
                "export fields were",
                "cut (over 64 KiB, or the input ended inside one)",
            ),
            (
                p.stray_lines,
                "line is not an export field",
                "lines are not export fields",
                "(skipped: the artifact keeps every line)",
            ),
        ] {
            if n > 0 {
                warnings.push(format!("{} {what}", counted(n, one, many)));
            }
        }
        let entries = |n: u64| match n {
            1 => "1 entry".to_string(),
            n => format!("{n} entries"),
        };
        let mut summary = match self.filtered_out {
            0 => entries(fold.entries),
            _ => format!(
                "{} of {} kept by the options",
                fold.entries,
                entries(self.read)
            ),
        };
        summary.push_str(&format!(
            " from {}",
            plural(fold.distinct_groups as u64, "unit")
        ));
        if let Some((a, b)) = &fold.time_span {
            summary.push_str(&format!(", {a} … {b}"));
        }
        let serious: Vec<String> = PRIORITIES[..5]
            .iter()
            .filter_map(|p| fold.levels.get(p).map(|n| format!("{n} {p}")))
            .collect();
        let read_as = [
            (self.unset_errors, self.unset_warnings),
            (self.output_errors, self.output_warnings),
        ];
        match (serious.is_empty(), read_as.iter().any(|&(e, w)| e + w > 0)) {
            (true, false) => summary.push_str("; nothing at warning or above"),
            (true, true) => summary.push_str("; no PRIORITY at warning or above"),
            (false, _) => summary.push_str(&format!("; {}", serious.join(", "))),
        }
        // Their text's severity ranks them and counts in `groups`: the summary says so
        // rather than disagree with it.
        let [unset, output] = read_as;
        for ((errors, warnings), one, many) in [
            (unset, "unset entry reads as", "unset entries read as"),
            (
                output,
                "output line (a unit's stdout or stderr) reads as",
                "output lines (units' stdout or stderr) read as",
            ),
        ] {
            let read: Vec<String> = [
                (errors, "an error", "errors"),
                (warnings, "a warning", "warnings"),
            ]
            .iter()
            .filter(|(n, ..)| *n > 0)
            .map(|&(n, one, many)| match n {
                1 => one.to_string(),
                n => format!("{n} {many}"),
            })
            .collect();
            if !read.is_empty() {
                let entries = counted(errors + warnings, one, many);
                summary.push_str(&format!("; {entries} {}", read.join(" and ")));
            }
        }
        if self.filtered_out > 0 {
            summary.push_str(" among them");
        }
        if self.fold.returned_whole() {
            summary.push_str(match self.filtered_out {
                0 => "; returned whole",
                _ => "; the entries kept returned whole",
            });
        }
        if let Some(worst) = worst {
            summary.push_str(&crate::fold::worst_clause(&worst, &NAMES));
        }
        let read_span = self.read_span.formatted();
        if self.filtered_out > 0 {
            summary.push_str(&format!("; {} filtered out", self.filtered_out));
        }
        if fold.entries == 0 && self.read > 0 {
            // What the options had to choose from: the units with most entries, the times.
            let mut input = Vec::new();
            if let Some(units) = &self.read_units {
                let mut most: Vec<(&String, &u64)> = units.iter().collect();
                most.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
                let named = most.iter().take(TOP_UNITS_NAMED);
                let mut listed: Vec<String> =
                    named.map(|(unit, n)| format!("{n} {unit}")).collect();
                if most.len() > TOP_UNITS_NAMED {
                    listed.push(format!("{} more units", most.len() - TOP_UNITS_NAMED));
                }
                input.push(listed.join(", "));
            }
            input.extend(read_span.as_ref().map(|(a, b)| format!("{a} … {b}")));
            summary.push_str(&format!(" (the input: {})", input.join("; ")));
        }
        let stats = JournalStats {
            format,
            entries_read: self.read,
            filtered_out: self.filtered_out,
            read_time_span: read_span,
            unset_errors: self.unset_errors,
            unset_warnings: self.unset_warnings,
            output_errors: self.output_errors,
            output_warnings: self.output_warnings,
            joined_entries: self.joined_entries,
            fold,
            problems: self.problems.clone(),
        };
        let mut outcome = Outcome::new(summary, serde_json::to_value(stats).unwrap_or(Value::Null));
        outcome.warnings = warnings;
        outcome.returned_whole = self.fold.returned_whole();
        outcome.cut_next_item = true;
        outcome
    }

    fn fitted(&self, envelope: &mut Envelope) {
        envelope.source_cursor.clone_from(&self.last_cursor);
    }
}

/// One field's value, as journalctl's JSON writes it.
#[derive(Debug, Clone, Default)]
enum FieldValue<'a> {
    /// Not in the entry.
    #[default]
    Missing,
    /// `null`: too large to show.
    Null,
    /// A string.
    Text(Cow<'a, str>),
    /// An array of numbers: bytes that are not UTF-8, or text with control characters
    /// (journalctl writes both so).
    Bytes(Vec<u8>),
    /// An array of values: a field repeated in one entry.
    Many(Vec<FieldValue<'a>>),
    /// A number (inside a byte array).
    Number(u64),
}

impl<'a> FieldValue<'a> {
    /// The value as text, for a field where one value is enough (the first).
    fn text(self) -> Option<Cow<'a, str>> {
        match self {
            FieldValue::Text(t) => Some(t),
            FieldValue::Bytes(b) => Some(Cow::Owned(String::from_utf8_lossy(&b).into_owned())),
            FieldValue::Many(values) => values.into_iter().find_map(FieldValue::text),
            FieldValue::Number(n) => Some(Cow::Owned(n.to_string())),
            FieldValue::Missing | FieldValue::Null => None,
        }
    }

    /// Whether bytes in it are not UTF-8 (shown with U+FFFD).
    fn has_invalid_utf8(&self) -> bool {
        match self {
            FieldValue::Bytes(bytes) => std::str::from_utf8(bytes).is_err(),
            FieldValue::Many(values) => values.iter().any(FieldValue::has_invalid_utf8),
            _ => false,
        }
    }

    /// Every value, lines joined by `\n`, into `out`.
    fn join_into(&self, out: &mut String) {
        match self {
            FieldValue::Text(t) => out.push_str(t),
            FieldValue::Bytes(b) => out.push_str(&String::from_utf8_lossy(b)),
            FieldValue::Number(n) => out.push_str(&n.to_string()),
            FieldValue::Many(values) => {
                for (i, v) in values.iter().enumerate() {
                    if i > 0 {
                        out.push('\n');
                    }
                    v.join_into(out);
                }
            }
            FieldValue::Missing | FieldValue::Null => {}
        }
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for FieldValue<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct FieldVisitor<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for FieldVisitor<'a> {
            type Value = FieldValue<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a journal field: a string, null, or an array")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(FieldValue::Text(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
                Ok(FieldValue::Text(Cow::Owned(v.to_string())))
            }
            fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
                Ok(FieldValue::Text(Cow::Owned(v)))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
                Ok(FieldValue::Number(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
                Ok(FieldValue::Text(Cow::Owned(v.to_string())))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
                Ok(FieldValue::Text(Cow::Owned(v.to_string())))
            }
            fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
                Ok(FieldValue::Text(Cow::Owned(v.to_string())))
            }
            fn visit_unit<E>(self) -> Result<Self::Value, E> {
                Ok(FieldValue::Null)
            }
            fn visit_none<E>(self) -> Result<Self::Value, E> {
                Ok(FieldValue::Null)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut values = Vec::new();
                while let Some(v) = seq.next_element::<FieldValue<'a>>()? {
                    values.push(v);
                }
                if !values.is_empty()
                    && values
                        .iter()
                        .all(|v| matches!(v, FieldValue::Number(n) if *n < 256))
                {
                    let bytes = values
                        .iter()
                        .map(|v| match v {
                            FieldValue::Number(n) => *n as u8,
                            _ => unreachable!("checked"),
                        })
                        .collect();
                    return Ok(FieldValue::Bytes(bytes));
                }
                Ok(FieldValue::Many(values))
            }
        }
        deserializer.deserialize_any(FieldVisitor(std::marker::PhantomData))
    }
}

/// The fields of a JSON entry that are read; the rest are skipped unparsed.
#[derive(Deserialize)]
struct JsonEntry<'a> {
    #[serde(rename = "MESSAGE", default, borrow)]
    message: FieldValue<'a>,
    #[serde(rename = "PRIORITY", default, borrow)]
    priority: FieldValue<'a>,
    #[serde(rename = "_SYSTEMD_UNIT", default, borrow)]
    unit: FieldValue<'a>,
    #[serde(rename = "_SYSTEMD_USER_UNIT", default, borrow)]
    user_unit: FieldValue<'a>,
    #[serde(rename = "CONTAINER_NAME", default, borrow)]
    container: FieldValue<'a>,
    #[serde(rename = "SYSLOG_IDENTIFIER", default, borrow)]
    identifier: FieldValue<'a>,
    #[serde(rename = "_COMM", default, borrow)]
    comm: FieldValue<'a>,
    #[serde(rename = "_PID", default, borrow)]
    pid: FieldValue<'a>,
    #[serde(rename = "__REALTIME_TIMESTAMP", default, borrow)]
    realtime: FieldValue<'a>,
    #[serde(rename = "__CURSOR", default, borrow)]
    cursor: FieldValue<'a>,
    #[serde(rename = "UNIT", default, borrow)]
    manager_unit: FieldValue<'a>,
    #[serde(rename = "COREDUMP_UNIT", default, borrow)]
    coredump_unit: FieldValue<'a>,
    #[serde(rename = "OBJECT_SYSTEMD_UNIT", default, borrow)]
    object_unit: FieldValue<'a>,
    #[serde(rename = "_SOURCE_REALTIME_TIMESTAMP", default, borrow)]
    source_realtime: FieldValue<'a>,
    #[serde(rename = "_TRANSPORT", default, borrow)]
    transport: FieldValue<'a>,
}

/// An entry's fields, from either format.
#[derive(Debug, Default)]
struct Fields<'a> {
    line: u64,
    message: FieldValue<'a>,
    priority: Option<Cow<'a, str>>,
    unit: Option<Cow<'a, str>>,
    user_unit: Option<Cow<'a, str>>,
    container: Option<Cow<'a, str>>,
    identifier: Option<Cow<'a, str>>,
    comm: Option<Cow<'a, str>>,
    pid: Option<Cow<'a, str>>,
    realtime: Option<Cow<'a, str>>,
    cursor: Option<Cow<'a, str>>,
    /// The unit another process wrote of (`journalctl -u` shows these entries with the
    /// unit's own): systemd's (`UNIT`, from PID 1: `Failed to start db.service`),
    /// systemd-coredump's (`COREDUMP_UNIT`), or a privileged program's
    /// (`OBJECT_SYSTEMD_UNIT`).
    about_unit: Option<Cow<'a, str>>,
    /// How journald received it (`_TRANSPORT`): `stdout` for a line a service wrote to
    /// its output ([`Fields::is_output_line`]).
    transport: Option<Cow<'a, str>>,
}

impl<'a> Fields<'a> {
    /// [`Fields::about_unit`] of an entry's fields: `UNIT` counts from PID 1 alone.
    fn about_unit(
        manager_unit: Option<Cow<'a, str>>,
        coredump_unit: Option<Cow<'a, str>>,
        object_unit: Option<Cow<'a, str>>,
        pid: Option<&str>,
    ) -> Option<Cow<'a, str>> {
        coredump_unit
            .or(object_unit)
            .or(manager_unit.filter(|_| pid == Some("1")))
    }

    /// Whether a service wrote it to its stdout or stderr: journald gives each such line
    /// the unit's `SyslogLevel=` (info) unless the line opens with a `<3>` prefix, which
    /// few programs write, so its `PRIORITY` says little of it (a Python service's
    /// `ERROR:app:…` and traceback are all `info`).
    fn is_output_line(&self) -> bool {
        self.transport.as_deref() == Some("stdout")
    }
}

/// The fields of the export format that are read, by key.
const EXPORT_KEYS: [&[u8]; 15] = [
    b"MESSAGE",
    b"PRIORITY",
    b"_SYSTEMD_UNIT",
    b"_SYSTEMD_USER_UNIT",
    b"CONTAINER_NAME",
    b"SYSLOG_IDENTIFIER",
    b"_COMM",
    b"_PID",
    b"__REALTIME_TIMESTAMP",
    b"__CURSOR",
    b"UNIT",
    b"COREDUMP_UNIT",
    b"OBJECT_SYSTEMD_UNIT",
    b"_SOURCE_REALTIME_TIMESTAMP",
    b"_TRANSPORT",
];
/// The longest key read; a longer one is not a key (journald's are 64 bytes at most).
const MAX_KEY: usize = 256;

/// Whether `key` may name a journal field: journald's are upper-case letters, digits and
/// `_` (`MESSAGE`, `__CURSOR`), not opening with a digit. A line of prose (`Journal file
/// … is truncated, ignoring file.`) or of JSON is not one, and its bytes are no field's
/// length: read as one, it would swallow the entries after it.
fn is_field_name(key: &[u8]) -> bool {
    key.first().is_some_and(|b| !b.is_ascii_digit())
        && key
            .iter()
            .all(|&b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// Where the export parser is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum State {
    /// At the start of a line: a key, or an empty line that ends the entry.
    #[default]
    LineStart,
    /// In a key.
    Key,
    /// In a text value (after `=`), up to the newline.
    Text,
    /// In the 8-byte little-endian length of a binary value.
    Length,
    /// In a binary value.
    Binary,
    /// Expecting the newline after a binary value.
    BinaryEnd,
    /// In a line that is not a field ([`is_field_name`]): skipped to its newline.
    Garbage,
}

/// journald's export format, parsed incrementally with bounded buffers: a field is
/// `KEY=value\n`, or `KEY\n` + 64-bit little-endian length + bytes + `\n` when the value
/// may hold newlines or binary; an empty line ends an entry.
#[derive(Debug, Default)]
struct ExportParser {
    state: State,
    key: Vec<u8>,
    /// Which of [`EXPORT_KEYS`] the current field is, if any.
    field: Option<usize>,
    value: Vec<u8>,
    /// The current value is over [`MAX_FIELD_BYTES`] (and counted once).
    value_cut: bool,
    length: [u8; 8],
    length_have: usize,
    remaining: u64,
    /// The read fields of the current entry, by index in [`EXPORT_KEYS`].
    values: [Option<Vec<u8>>; EXPORT_KEYS.len()],
    /// The entry has at least one field.
    started: bool,
    /// 1-based line of the next byte, and the line the current entry starts on.
    line: u64,
    entry_line: u64,
    cut_fields: u64,
    /// Lines that are no field, skipped.
    stray_lines: u64,
}

impl ExportParser {
    fn push(&mut self, mut bytes: &[u8], on_entry: &mut dyn FnMut(Fields<'_>)) {
        if self.line == 0 {
            self.line = 1;
        }
        while !bytes.is_empty() {
            match self.state {
                State::LineStart => {
                    if bytes[0] == b'\n' {
                        self.line += 1;
                        bytes = &bytes[1..];
                        self.end_entry(on_entry);
                    } else {
                        self.key.clear();
                        self.state = State::Key;
                    }
                }
                State::Key => {
                    let stop = memchr::memchr2(b'=', b'\n', bytes);
                    let take = stop.unwrap_or(bytes.len());
                    self.key.extend_from_slice(&bytes[..take.min(MAX_KEY + 1)]);
                    if self.key.len() > MAX_KEY {
                        self.stray_lines += 1;
                        self.state = State::Garbage;
                        continue;
                    }
                    bytes = &bytes[take..];
                    let Some(&sep) = bytes.first() else { continue };
                    if !is_field_name(&self.key) {
                        self.stray_lines += 1;
                        self.state = State::Garbage;
                        continue;
                    }
                    bytes = &bytes[1..];
                    if !self.started {
                        self.started = true;
                        self.entry_line = self.line;
                    }
                    self.field = EXPORT_KEYS.iter().position(|k| *k == self.key.as_slice());
                    self.value.clear();
                    self.value_cut = false;
                    if sep == b'=' {
                        self.state = State::Text;
                    } else {
                        self.line += 1;
                        self.length_have = 0;
                        self.state = State::Length;
                    }
                }
                State::Text => {
                    let stop = memchr::memchr(b'\n', bytes);
                    let take = stop.unwrap_or(bytes.len());
                    self.keep(&bytes[..take]);
                    bytes = &bytes[take..];
                    if stop.is_some() {
                        bytes = &bytes[1..];
                        self.line += 1;
                        self.end_field();
                        self.state = State::LineStart;
                    }
                }
                State::Length => {
                    let take = (8 - self.length_have).min(bytes.len());
                    self.length[self.length_have..self.length_have + take]
                        .copy_from_slice(&bytes[..take]);
                    self.length_have += take;
                    self.line += count_newlines(&bytes[..take]);
                    bytes = &bytes[take..];
                    if self.length_have == 8 {
                        self.remaining = u64::from_le_bytes(self.length);
                        self.state = if self.remaining == 0 {
                            State::BinaryEnd
                        } else {
                            State::Binary
                        };
                    }
                }
                State::Binary => {
                    let take = self.remaining.min(bytes.len() as u64) as usize;
                    self.keep(&bytes[..take]);
                    self.line += count_newlines(&bytes[..take]);
                    self.remaining -= take as u64;
                    bytes = &bytes[take..];
                    if self.remaining == 0 {
                        self.state = State::BinaryEnd;
                    }
                }
                State::BinaryEnd => {
                    if bytes[0] == b'\n' {
                        self.line += 1;
                        bytes = &bytes[1..];
                    } else {
                        // Not the newline the format promises: the field still counts.
                        self.cut_fields += 1;
                    }
                    self.end_field();
                    self.state = State::LineStart;
                }
                State::Garbage => {
                    let stop = memchr::memchr(b'\n', bytes);
                    let take = stop.map_or(bytes.len(), |at| at + 1);
                    bytes = &bytes[take..];
                    if stop.is_some() {
                        self.line += 1;
                        self.state = State::LineStart;
                    }
                }
            }
        }
    }

    /// Keeps a value's bytes, up to [`MAX_FIELD_BYTES`], when the field is read.
    fn keep(&mut self, bytes: &[u8]) {
        if self.field.is_none() {
            return;
        }
        let room = MAX_FIELD_BYTES.saturating_sub(self.value.len());
        if bytes.len() > room && !self.value_cut {
            self.value_cut = true;
            self.cut_fields += 1;
        }
        self.value
            .extend_from_slice(&bytes[..bytes.len().min(room)]);
    }

    fn end_field(&mut self) {
        let Some(field) = self.field.take() else {
            return;
        };
        let value = std::mem::take(&mut self.value);
        match &mut self.values[field] {
            Some(held) if field == 0 => {
                // A repeated MESSAGE: every value, one a line.
                held.push(b'\n');
                held.extend_from_slice(&value);
            }
            Some(_) => {} // other repeated fields: the first is enough
            slot => *slot = Some(value),
        }
    }

    fn end_entry(&mut self, on_entry: &mut dyn FnMut(Fields<'_>)) {
        if !self.started {
            return; // blank lines between entries
        }
        self.started = false;
        let mut values = std::mem::take(&mut self.values);
        let text = |v: Option<Vec<u8>>| {
            v.map(|v| match String::from_utf8(v) {
                Ok(s) => Cow::Owned(s),
                Err(e) => Cow::Owned(String::from_utf8_lossy(e.as_bytes()).into_owned()),
            })
        };
        let message = match values[0].take() {
            None => FieldValue::Missing,
            Some(bytes) => match String::from_utf8(bytes) {
                Ok(text) => FieldValue::Text(Cow::Owned(text)),
                Err(e) => FieldValue::Bytes(e.into_bytes()),
            },
        };
        let [_, priority, unit, user_unit, container, identifier, comm, pid, realtime, cursor, manager_unit, coredump_unit, object_unit, source_realtime, transport] =
            values;
        let pid = text(pid);
        let about_unit = Fields::about_unit(
            text(manager_unit),
            text(coredump_unit),
            text(object_unit),
            pid.as_deref(),
        );
        on_entry(Fields {
            line: self.entry_line,
            message,
            priority: text(priority),
            unit: text(unit),
            user_unit: text(user_unit),
            container: text(container),
            identifier: text(identifier),
            comm: text(comm),
            pid,
            realtime: text(realtime).or_else(|| text(source_realtime)),
            cursor: text(cursor),
            about_unit,
            transport: text(transport),
        });
    }

    /// End of input: an entry without its closing empty line still counts; one cut off
    /// inside a field is counted as cut.
    fn finish(&mut self, on_entry: &mut dyn FnMut(Fields<'_>)) {
        if self.state != State::LineStart {
            self.cut_fields += 1;
            if self.state == State::Text {
                self.end_field();
            }
            self.state = State::LineStart;
        }
        self.end_entry(on_entry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use briefly_core::testkit::reduce_all_chunkings;
    use briefly_core::RunConfig;

    fn export_entry(out: &mut Vec<u8>, us: u64, unit: &str, priority: u8, message: &[u8]) {
        out.extend_from_slice(
            format!(
                "__CURSOR=c{us}\n__REALTIME_TIMESTAMP={us}\n_SYSTEMD_UNIT={unit}\nPRIORITY={priority}\n_PID=7\n"
            )
            .as_bytes(),
        );
        if message.contains(&b'\n') || std::str::from_utf8(message).is_err() {
            out.extend_from_slice(b"MESSAGE\n");
            out.extend_from_slice(&(message.len() as u64).to_le_bytes());
            out.extend_from_slice(message);
            out.push(b'\n');
        } else {
            out.extend_from_slice(b"MESSAGE=");
            out.extend_from_slice(message);
            out.push(b'\n');
        }
        out.push(b'\n');
    }

    /// `-o json` lines of text fields as `-o export` writes the same entries.
    fn as_export(json: &str) -> Vec<u8> {
        let mut export = Vec::new();
        for line in json.lines() {
            let fields: serde_json::Map<String, Value> = serde_json::from_str(line).unwrap();
            for (key, value) in fields {
                export.extend_from_slice(format!("{key}={}\n", value.as_str().unwrap()).as_bytes());
            }
            export.push(b'\n');
        }
        export
    }

    fn export_fixture() -> Vec<u8> {
        let mut input = Vec::new();
        for i in 0..300u64 {
            let message = format!("request {i} served in {} ms", i % 13);
            export_entry(
                &mut input,
                1_764_410_400_000_000 + i * 1_000_000,
                "web.service",
                6,
                message.as_bytes(),
            );
            if i == 150 {
                export_entry(
                    &mut input,
                    1_764_410_400_000_000 + i * 1_000_000,
                    "db.service",
                    3,
                    b"disk full\nat /var/lib/db\n\x00binary\xff",
                );
            }
        }
        input
    }

    #[test]
    fn a_template_says_how_many_of_its_entries_are_at_its_severity() {
        let mut input = Vec::new();
        for i in 0..150u64 {
            // One in ten at err (3), the rest at notice (5); another template all at err.
            let priority = if i % 10 == 0 { 3 } else { 5 };
            let message = format!(
                "Failed password for root from 10.0.0.{i} port {} ssh2",
                1000 + i
            );
            let us = 1_764_410_400_000_000 + i * 1_000_000;
            export_entry(&mut input, us, "sshd.service", priority, message.as_bytes());
            if i % 30 == 0 {
                export_entry(
                    &mut input,
                    us,
                    "db.service",
                    3,
                    format!("disk {i} full").as_bytes(),
                );
            }
        }
        let envelope = reduce_all_chunkings(
            || Journal::new(JournalOptions::default()).unwrap(),
            &input,
            &RunConfig::new("journal"),
        );
        let json = envelope.to_json();
        let template = |count: u64| {
            (envelope.items.iter())
                .find(|i| i["kind"] == "template" && i["count"] == count)
                .unwrap_or_else(|| panic!("{json}"))
        };
        assert_eq!(template(150)["severity"], "error");
        assert_eq!(template(150)["severity_count"], 15, "{json}");
        assert_eq!(template(5)["severity"], "error");
        assert_eq!(template(5).get("severity_count"), None, "{json}");
        // Its entries kept at err say it too (the last entry, at notice, does not); those
        // of a template all at err do not.
        let entries = |unit: &str| {
            (envelope.items.iter())
                .filter(|i| i["kind"] == "entry" && i["unit"] == unit && i["priority"] == "err")
                .collect::<Vec<_>>()
        };
        assert!(!entries("sshd.service").is_empty(), "{json}");
        for entry in entries("sshd.service") {
            assert_eq!(entry["severity_count"], 15, "{json}");
        }
        assert!(!entries("db.service").is_empty(), "{json}");
        for entry in entries("db.service") {
            assert_eq!(entry.get("severity_count"), None, "{json}");
        }
    }

    #[test]
    fn export_is_the_same_for_every_chunking() {
        let input = export_fixture();
        let envelope = reduce_all_chunkings(
            || Journal::new(JournalOptions::default()).unwrap(),
            &input,
            &RunConfig::new("journal"),
        );
        assert_eq!(envelope.stats["format"], "export");
        assert_eq!(envelope.stats["entries"], 301);
        assert_eq!(envelope.stats["levels"]["err"], 1);
        assert_eq!(envelope.stats["levels"]["info"], 300);
        let first = &envelope.items[0];
        assert_eq!(first["unit"], "db.service");
        assert_eq!(first["priority"], "err");
        assert_eq!(first["message"], "disk full");
        assert_eq!(first["more"][0], "at /var/lib/db");
        assert_eq!(first["time"], "2025-11-29T10:02:30.000000Z");
        assert_eq!(envelope.source_cursor.as_deref(), Some("c1764410699000000"));
        assert_eq!(envelope.stats["problems"]["binary_message"], 1);
    }

    #[test]
    fn a_line_that_is_no_export_field_is_skipped_not_read_as_a_binary_fields_name() {
        // journalctl's own message on stderr, merged in by `2>&1`, between entries, then
        // JSON inside an entry: each a line skipped, no entry lost.
        let mut input = Vec::new();
        export_entry(&mut input, 1_764_410_400_000_000, "a.service", 6, b"one");
        input.extend_from_slice(
            b"Journal file /var/log/journal/0123/system@0005f1-2b.journal~ is truncated, ignoring file.\n",
        );
        export_entry(&mut input, 1_764_410_401_000_000, "a.service", 6, b"two");
        input.truncate(input.len() - 1);
        input.extend_from_slice(b"{\"MESSAGE\":\"x\"}\n\n");
        for i in 0..50u64 {
            export_entry(
                &mut input,
                1_764_410_402_000_000 + i,
                "b.service",
                3,
                b"disk full",
            );
        }
        input.extend_from_slice(b"-- No entries --\n\n");
        let envelope = reduce_all_chunkings(
            || Journal::new(JournalOptions::default()).unwrap(),
            &input,
            &RunConfig::new("journal"),
        );
        assert_eq!(envelope.stats["entries_read"], 52, "{envelope:?}");
        assert_eq!(envelope.stats["levels"]["err"], 50);
        assert_eq!(envelope.stats["problems"]["stray_lines"], 3);
        assert_eq!(envelope.stats["problems"]["missing_message"], 0);
        assert!(
            (envelope.warnings.iter())
                .any(|w| w
                    == "3 lines are not export fields (skipped: the artifact keeps every line)"),
            "{:?}",
            envelope.warnings
        );
        assert_eq!(envelope.items[0]["message"], "disk full");
    }

    #[test]
    fn an_entry_longer_than_the_line_limit_is_said_so_and_the_limit_is_the_pipelines() {
        let message = "x".repeat(3000);
        let input = format!(
            "{{\"__REALTIME_TIMESTAMP\":\"1000000\",\"PRIORITY\":\"3\",\"MESSAGE\":\"{message}\"}}\n"
        );
        let run = |max_line_bytes| {
            let mut config = RunConfig::new("journal");
            config.max_line_bytes = max_line_bytes;
            reduce_all_chunkings(
                || Journal::new(JournalOptions::default()).unwrap(),
                input.as_bytes(),
                &config,
            )
        };
        let envelope = run(2000);
        assert_eq!(envelope.stats["problems"]["long_lines"], 1);
        assert_eq!(envelope.stats["problems"]["bad_lines"], 0);
        assert!(
            envelope.warnings.contains(
                &"1 line is longer than the line limit (2000 bytes; --max-line-bytes sets it), \
                  not read as entries (shown as unset entries)"
                    .to_string()
            ),
            "{:?}",
            envelope.warnings
        );
        let envelope = run(4000);
        assert_eq!(envelope.stats["levels"]["err"], 1, "{envelope:?}");
        assert_eq!(envelope.stats["problems"]["long_lines"], 0);
    }

    #[test]
    fn an_entry_below_its_templates_worst_counts_its_own_priority() {
        let input: String = (0..12)
            .map(|i| {
                let priority = if i < 8 { 5 } else { 7 };
                format!(
                    "{{\"MESSAGE\":\"checkpoint complete: wrote {i} buffers\",\"PRIORITY\":\"{priority}\",\"_SYSTEMD_UNIT\":\"pg.service\",\"__REALTIME_TIMESTAMP\":\"{}\"}}\n",
                    1_000_000 * (i + 1)
                )
            })
            .collect();
        let options = JournalOptions {
            whole_chars: 0,
            ..JournalOptions::default()
        };
        let envelope = reduce_all_chunkings(
            || Journal::new(options.clone()).unwrap(),
            input.as_bytes(),
            &RunConfig::new("journal"),
        );
        let counts: Vec<(&str, &Value)> = (envelope.items.iter())
            .filter(|item| item["kind"] == "entry")
            .map(|item| (item["priority"].as_str().unwrap(), &item["severity_count"]))
            .collect();
        assert_eq!(
            counts,
            [("notice", &Value::from(8)), ("debug", &Value::from(4))],
            "{:?}",
            envelope.items
        );
    }

    #[test]
    fn entries_listed_under_a_filter_are_the_same_for_every_chunking() {
        // --level lists every entry kept that no ranked item shows, as it goes: each
        // item's count is its template's when it was listed, not when it was emitted.
        let input: String = (0..3000u64)
            .map(|i| {
                let (priority, message) = match i % 100 {
                    7 => (3, format!("disk {i} failed")),
                    _ => (6, format!("GET /api/items/{i} 200 {}", i % 977)),
                };
                format!(
                    "{{\"MESSAGE\":\"{message}\",\"PRIORITY\":\"{priority}\",\"_SYSTEMD_UNIT\":\"web.service\",\"__REALTIME_TIMESTAMP\":\"{}\"}}\n",
                    1_000_000 * (i + 1)
                )
            })
            .collect();
        let options = JournalOptions {
            max_priority: Some(6),
            ..JournalOptions::default()
        };
        let envelope = reduce_all_chunkings(
            || Journal::new(options.clone()).unwrap(),
            input.as_bytes(),
            &RunConfig::new("journal"),
        );
        assert!(envelope.total_items > 100, "{}", envelope.total_items);
    }

    #[test]
    fn an_entrys_problems_are_counted_when_the_options_keep_it() {
        let input = concat!(
            r#"{"MESSAGE":"odd","PRIORITY":"9","_SYSTEMD_UNIT":"a.service"}"#,
            "\n",
            r#"{"MESSAGE":"ok","PRIORITY":"6","_SYSTEMD_UNIT":"b.service","__REALTIME_TIMESTAMP":"1000000"}"#,
            "\n",
        );
        let options = JournalOptions {
            unit: Some("b".into()),
            ..JournalOptions::default()
        };
        let envelope = reduce_all_chunkings(
            || Journal::new(options.clone()).unwrap(),
            input.as_bytes(),
            &RunConfig::new("journal"),
        );
        assert_eq!(
            envelope.stats["problems"]["bad_priority"], 0,
            "{envelope:?}"
        );
        assert_eq!(envelope.stats["problems"]["bad_time"], 0);
        assert!(envelope.warnings.is_empty(), "{:?}", envelope.warnings);
        // journald's own time missing, the client's is read.
        let input = r#"{"MESSAGE":"x","PRIORITY":"6","_SOURCE_REALTIME_TIMESTAMP":"2000000"}"#;
        for input in [input.as_bytes().to_vec(), as_export(input)] {
            let envelope = reduce_all_chunkings(
                || Journal::new(JournalOptions::default()).unwrap(),
                &input,
                &RunConfig::new("journal"),
            );
            assert_eq!(
                envelope.items[0]["time"], "1970-01-01T00:00:02.000000Z",
                "{envelope:?}"
            );
        }
    }

    #[test]
    fn no_input_is_said_so_not_read_as_a_format_it_is_not() {
        let envelope = reduce_all_chunkings(
            || Journal::new(JournalOptions::default()).unwrap(),
            b"",
            &RunConfig::new("journal"),
        );
        assert_eq!(envelope.summary, "no entries: the input is empty");
        assert_eq!(envelope.warnings, ["no input"]);
        assert!(!envelope.truncated);
    }

    #[test]
    fn export_line_numbers_count_newlines_in_binary_fields() {
        let mut input = Vec::new();
        export_entry(&mut input, 1, "a", 6, b"one\ntwo\nthree");
        let second_line = input.iter().filter(|b| **b == b'\n').count() as u64 + 1;
        export_entry(&mut input, 2, "a", 3, b"boom");
        let envelope = briefly_core::reduce(
            Journal::new(JournalOptions::default()).unwrap(),
            &input[..],
            &RunConfig::new("journal"),
        )
        .unwrap();
        assert_eq!(envelope.items[0]["message"], "boom");
        assert_eq!(envelope.items[0]["line"], second_line);
    }

    #[test]
    fn emerg_ranks_before_crit_though_both_are_fatal() {
        let entry = |at: u64, priority: u8, message: &str| {
            format!(
                "{{\"__REALTIME_TIMESTAMP\":\"{at}\",\"PRIORITY\":\"{priority}\",\"MESSAGE\":\"{message}\"}}\n"
            )
        };
        let mut input = entry(1_700_000_000_000_000, 2, "crit thing");
        input.push_str(&entry(1_700_000_001_000_000, 0, "emerg thing"));
        for whole_chars in [4000, 0] {
            let options = JournalOptions {
                whole_chars,
                ..JournalOptions::default()
            };
            let envelope = reduce_all_chunkings(
                || Journal::new(options.clone()).unwrap(),
                input.as_bytes(),
                &RunConfig::new("journal"),
            );
            assert_eq!(envelope.items[0]["message"], "emerg thing", "{whole_chars}");
            assert!(
                envelope.summary.contains("; first emerg at "),
                "{}",
                envelope.summary
            );
        }
    }

    #[test]
    fn containers_and_user_units_are_grouped_by_their_own_names() {
        // docker's journald driver logs as docker.service, naming the container; a user
        // unit runs under its user's manager.
        let json = concat!(
            r#"{"MESSAGE":"GET /","PRIORITY":"6","_SYSTEMD_UNIT":"docker.service","CONTAINER_NAME":"web","__REALTIME_TIMESTAMP":"1000000"}"#,
            "\n",
            r#"{"MESSAGE":"synced","PRIORITY":"6","_SYSTEMD_UNIT":"user@1000.service","_SYSTEMD_USER_UNIT":"syncthing.service","__REALTIME_TIMESTAMP":"2000000"}"#,
            "\n",
            r#"{"MESSAGE":"Started Docker","PRIORITY":"6","_SYSTEMD_UNIT":"docker.service","__REALTIME_TIMESTAMP":"3000000"}"#,
            "\n",
            // A user unit's name under a system unit that is no user's manager is not it.
            r#"{"MESSAGE":"odd","PRIORITY":"6","_SYSTEMD_UNIT":"cron.service","_SYSTEMD_USER_UNIT":"x.service","__REALTIME_TIMESTAMP":"4000000"}"#,
            "\n",
        );
        let export = as_export(json);
        let run = |input: &[u8], unit: Option<&str>| {
            let options = JournalOptions {
                unit: unit.map(str::to_string),
                ..JournalOptions::default()
            };
            reduce_all_chunkings(
                || Journal::new(options.clone()).unwrap(),
                input,
                &RunConfig::new("journal"),
            )
        };
        for input in [json.as_bytes(), &export] {
            let envelope = run(input, None);
            let units: Vec<_> = envelope.items.iter().map(|i| i["unit"].clone()).collect();
            assert_eq!(
                units,
                ["web", "syncthing.service", "docker.service", "cron.service"],
                "{envelope:?}"
            );
            // --unit takes the group's name, and the system unit's: docker's takes its
            // containers' entries too.
            assert_eq!(run(input, Some("web")).items.len(), 1);
            assert_eq!(run(input, Some("syncthing")).items.len(), 1);
            assert_eq!(run(input, Some("docker")).items.len(), 2);
        }
    }

    #[test]
    fn unit_takes_what_systemd_and_others_wrote_of_the_unit() {
        // As `journalctl -u nginx` shows them: PID 1's `UNIT`, systemd-coredump's
        // `COREDUMP_UNIT`, a privileged program's `OBJECT_SYSTEMD_UNIT`; not `UNIT` from
        // another process.
        let json = concat!(
            r#"{"MESSAGE":"bind() failed","PRIORITY":"3","_SYSTEMD_UNIT":"nginx.service","_PID":"902","__REALTIME_TIMESTAMP":"1000000"}"#,
            "\n",
            r#"{"MESSAGE":"Failed to start nginx.service","PRIORITY":"3","_SYSTEMD_UNIT":"init.scope","_PID":"1","UNIT":"nginx.service","__REALTIME_TIMESTAMP":"2000000"}"#,
            "\n",
            r#"{"MESSAGE":"Process 902 (nginx) dumped core.","PRIORITY":"2","_SYSTEMD_UNIT":"systemd-coredump@0.service","_PID":"7","COREDUMP_UNIT":"nginx.service","__REALTIME_TIMESTAMP":"3000000"}"#,
            "\n",
            r#"{"MESSAGE":"reloaded","PRIORITY":"6","_SYSTEMD_UNIT":"polkit.service","_PID":"8","OBJECT_SYSTEMD_UNIT":"nginx.service","__REALTIME_TIMESTAMP":"4000000"}"#,
            "\n",
            r#"{"MESSAGE":"about nginx","PRIORITY":"6","_SYSTEMD_UNIT":"app.service","_PID":"9","UNIT":"nginx.service","__REALTIME_TIMESTAMP":"5000000"}"#,
            "\n",
        );
        let export = as_export(json);
        for input in [json.as_bytes(), &export] {
            let options = JournalOptions {
                unit: Some("nginx".into()),
                ..JournalOptions::default()
            };
            let envelope = reduce_all_chunkings(
                || Journal::new(options.clone()).unwrap(),
                input,
                &RunConfig::new("journal"),
            );
            let mut lines: Vec<_> = envelope.items.iter().map(|i| i["line"].clone()).collect();
            lines.sort_by_key(|line| line.as_u64());
            let expected = match input == json.as_bytes() {
                true => [1, 2, 3, 4],
                false => [1, 7, 14, 21],
            };
            assert_eq!(lines, expected, "{envelope:?}");
            assert_eq!(envelope.stats["filtered_out"], 1);
        }
    }

    #[test]
    fn json_field_shapes() {
        let input = concat!(
            r#"{"MESSAGE":"plain","PRIORITY":"6","_SYSTEMD_UNIT":"a.service","__REALTIME_TIMESTAMP":"1000000","__CURSOR":"c1"}"#,
            "\n",
            r#"{"MESSAGE":[104,105,255],"PRIORITY":"4","SYSLOG_IDENTIFIER":"kernel","__REALTIME_TIMESTAMP":"2000000"}"#,
            "\n",
            r#"{"MESSAGE":null,"PRIORITY":"3","_COMM":"big","__REALTIME_TIMESTAMP":"3000000"}"#,
            "\n",
            // journalctl writes a message with control characters (colour codes) as bytes
            // too: UTF-8 text, not binary.
            r#"{"MESSAGE":[27,91,51,49,109,111,107,27,91,48,109],"PRIORITY":"6","__REALTIME_TIMESTAMP":"3500000"}"#,
            "\n",
            r#"{"MESSAGE":["first","second"],"PRIORITY":"2","_SYSTEMD_UNIT":["x.service","y.service"],"__REALTIME_TIMESTAMP":"4000000","__CURSOR":"c4"}"#,
            "\n",
            r#"{"PRIORITY":"9","__REALTIME_TIMESTAMP":"soon"}"#,
            "\n",
            r#"{"MESSAGE":"cut off"#,
            "\n",
            "not json at all\n",
            // An array, not an entry: its values are no fields by position.
            r#"["disk", "0", "sda"]"#,
            "\n",
        );
        let envelope = reduce_all_chunkings(
            || Journal::new(JournalOptions::default()).unwrap(),
            input.as_bytes(),
            &RunConfig::new("journal"),
        );
        let s = &envelope.stats;
        assert_eq!(s["format"], "json");
        assert_eq!(s["entries_read"], 9);
        assert_eq!(s["problems"]["binary_message"], 1);
        assert_eq!(s["ansi_entries"], 1);
        assert_eq!(s["problems"]["null_message"], 1);
        assert_eq!(s["problems"]["missing_message"], 1);
        assert_eq!(s["problems"]["bad_priority"], 1);
        assert_eq!(s["problems"]["bad_lines"], 3);
        assert_eq!(s["problems"]["bad_time"], 4);
        assert_eq!(s["levels"]["unset"], 4);
        assert_eq!(envelope.source_cursor.as_deref(), Some("c4"));
        let messages: Vec<&str> = envelope
            .items
            .iter()
            .filter_map(|i| i["message"].as_str())
            .collect();
        assert!(messages.contains(&"hi\u{fffd}"), "{messages:?}");
        assert!(messages.contains(&"first"), "{messages:?}");
        assert!(messages.contains(&"not json at all"), "{messages:?}");
        assert!(
            messages.contains(&"ok"),
            "colour codes read past: {messages:?}"
        );
        let repeated = envelope
            .items
            .iter()
            .find(|i| i["message"] == "first")
            .unwrap();
        assert_eq!(repeated["more"][0], "second");
        // Of entries the filters leave out, how their messages would show is not told.
        let a_only = reduce_all_chunkings(
            || {
                Journal::new(JournalOptions {
                    unit: Some("a.service".into()),
                    ..JournalOptions::default()
                })
                .unwrap()
            },
            input.as_bytes(),
            &RunConfig::new("journal"),
        );
        let problems = &a_only.stats["problems"];
        assert_eq!(
            [
                &problems["binary_message"],
                &problems["null_message"],
                &problems["missing_message"]
            ],
            [0, 0, 0],
            "{a_only:?}"
        );
        assert!(
            !a_only.warnings.iter().any(|w| w.contains("MESSAGE")),
            "{:?}",
            a_only.warnings
        );
        assert_eq!(repeated["unit"], "x.service");
        assert!(
            envelope
                .warnings
                .iter()
                .any(|w| w.contains("3 lines are not JSON")),
            "{:?}",
            envelope.warnings
        );
    }

    #[test]
    fn filters() {
        let mut input = String::new();
        for (i, (unit, p)) in [("a", 6), ("a", 3), ("b", 4), ("b", 7), ("a", 2)]
            .iter()
            .enumerate()
        {
            input.push_str(&format!(
                "{{\"MESSAGE\":\"m{i}\",\"PRIORITY\":\"{p}\",\"_SYSTEMD_UNIT\":\"{unit}\",\"__REALTIME_TIMESTAMP\":\"{}\"}}\n",
                (i as u64 + 1) * 10_000_000
            ));
        }
        let run = |options: JournalOptions| {
            let e = briefly_core::reduce(
                Journal::new(options).unwrap(),
                input.as_bytes(),
                &RunConfig::new("journal"),
            )
            .unwrap();
            (
                e.stats["entries"].as_u64().unwrap(),
                e.stats["filtered_out"].as_u64().unwrap(),
            )
        };
        assert_eq!(
            run(JournalOptions {
                max_priority: Some(4),
                ..Default::default()
            }),
            (3, 2)
        );
        assert_eq!(
            run(JournalOptions {
                since: Some(20),
                until: Some(40),
                ..Default::default()
            }),
            (2, 3)
        );
        assert_eq!(
            run(JournalOptions {
                unit: Some("b".into()),
                ..Default::default()
            }),
            (2, 3)
        );
        // As `journalctl -u` reads a unit's name: `db` is `db.service`, not `db.socket`.
        assert!(unit_matches("db", "db.service"));
        assert!(unit_matches("db.socket", "db.socket"));
        assert!(!unit_matches("db", "db.socket"));
        assert!(!unit_matches("db.service", "db"));
        // A pattern, as journalctl takes one: the whole name matched.
        assert!(unit_matches("web*", "web.service"));
        assert!(unit_matches("web*", "web-api.socket"));
        assert!(!unit_matches("web*", "aweb.service"));
        assert!(unit_matches("app-?.service", "app-1.service"));
        assert!(!unit_matches("app-?.service", "app-12.service"));
        assert!(unit_matches("db[12].service", "db2.service"));
        assert!(!unit_matches("db[!12].service", "db2.service"));
        assert!(unit_matches("db[a-c]*", "dbb.socket"));
        assert!(unit_matches("*.timer", "backup.timer"));
        assert!(!unit_matches("*.timer", "backup.service"));
        assert!(unit_matches("x[", "x["), "an unclosed [ is itself");
        assert!(unit_matches("*a*b*", "xxaxxbxx"));
        assert!(!unit_matches("*a*b", "xxaxxbxx"));
        assert_eq!(parse_priority("warning"), Ok(4));
        assert_eq!(parse_priority("error"), Ok(3));
        assert_eq!(parse_priority("0"), Ok(0));
        assert!(parse_priority("8").is_err());
        assert!(parse_priority("loud").is_err());
    }

    #[test]
    fn other_text_falls_back_to_the_text_reducer() {
        let input = "Nov 29 10:00:00 host app[1]: started\nNov 29 10:00:01 host app[1]: ERROR failed to bind\n";
        let envelope = reduce_all_chunkings(
            || Journal::new(JournalOptions::default()).unwrap(),
            input.as_bytes(),
            &RunConfig::new("journal"),
        );
        assert!(
            envelope.summary.starts_with("not journald JSON or export"),
            "{}",
            envelope.summary
        );
        assert_eq!(envelope.items[0]["severity"], "error");
    }

    #[test]
    fn an_export_field_over_the_limit_is_cut_and_counted() {
        let mut input = Vec::new();
        export_entry(&mut input, 1, "a", 6, &vec![b'x'; MAX_FIELD_BYTES + 10]);
        input.extend_from_slice(b"__REALTIME_TIMESTAMP=5\nMESSAGE=cut short at the end");
        let envelope = reduce_all_chunkings(
            || Journal::new(JournalOptions::default()).unwrap(),
            &input,
            &RunConfig::new("journal"),
        );
        assert_eq!(envelope.stats["entries"], 2);
        assert_eq!(envelope.stats["problems"]["cut_fields"], 2);
    }

    /// A JSON entry of `shop.service`'s at info that journald got by `transport`
    /// (`stdout`: a line the service wrote to its output).
    fn shop_entry(us: u64, pid: u32, message: &str, transport: &str) -> String {
        let entry = serde_json::json!({
            "__REALTIME_TIMESTAMP": us.to_string(),
            "_SYSTEMD_UNIT": "shop.service",
            "_PID": pid.to_string(),
            "PRIORITY": "6",
            "_TRANSPORT": transport,
            "MESSAGE": message,
        });
        format!("{entry}\n")
    }

    /// `input` reduced with `options`, the same in every chunking.
    fn reduce_with(options: JournalOptions, input: &[u8]) -> briefly_core::Envelope {
        reduce_all_chunkings(
            || Journal::new(options.clone()).unwrap(),
            input,
            &RunConfig::new("journal"),
        )
    }

    #[test]
    fn a_services_output_line_is_read_at_the_level_it_states_when_worse() {
        // A Python service under systemd: journald gives each line it writes to stderr
        // the unit's level, info, so its error and traceback read as nothing at all.
        let base = 1_700_000_000_000_000;
        let mut json: String = (0..200)
            .map(|i| shop_entry(base + i, 812, &format!("INFO:shop:served {i}"), "stdout"))
            .collect();
        for (i, message) in [
            "ERROR:shop:order 7 failed",
            "IndexError: list index out of range",
            "WARNING:shop:retrying",
        ]
        .iter()
        .enumerate()
        {
            json.push_str(&shop_entry(
                base + 1_000_000 + i as u64,
                812,
                message,
                "stdout",
            ));
        }
        // A line it sent to syslog itself at info: its PRIORITY stands.
        json.push_str(&shop_entry(
            base + 2_000_000,
            812,
            "ERROR counts reset",
            "syslog",
        ));
        for input in [json.as_bytes().to_vec(), as_export(&json)] {
            let reduce = |options: JournalOptions| reduce_with(options, &input);
            let envelope = reduce(JournalOptions::default());
            assert_eq!(envelope.stats["output_errors"], 2);
            assert_eq!(envelope.stats["output_warnings"], 1);
            assert_eq!(envelope.stats["groups"]["shop.service"]["errors"], 2);
            assert!(
                envelope.summary.contains(
                    "; no PRIORITY at warning or above; 3 output lines (units' stdout or \
                     stderr) read as 2 errors and a warning; first error (priority info) at"
                ),
                "{}",
                envelope.summary
            );
            assert!(
                envelope.summary.ends_with("ERROR:shop:order 7 failed"),
                "{}",
                envelope.summary
            );
            let first = &envelope.items[0];
            assert_eq!(first["message"], "ERROR:shop:order 7 failed");
            assert_eq!(first["priority"], "info");
            assert_eq!(first["severity"], "error");
            // An entry at the level its priority names says no more.
            let info = envelope.items.iter().find(|i| i["line"] == 1).unwrap();
            assert_eq!(info.get("severity"), None, "{info}");
            // `--level err` keeps what reads as an error, not the syslog line.
            let errors = reduce(JournalOptions {
                max_priority: Some(3),
                ..JournalOptions::default()
            });
            assert_eq!(errors.stats["entries"], 2, "{}", errors.summary);
            let warnings = reduce(JournalOptions {
                max_priority: Some(4),
                ..JournalOptions::default()
            });
            assert_eq!(warnings.stats["entries"], 3, "{}", warnings.summary);
        }
    }

    #[test]
    fn a_traceback_journald_stored_a_line_an_entry_is_one_record_again() {
        // A Python service's stderr under systemd: journald stores each line of its
        // traceback as an entry of its own, microseconds apart.
        let traceback = [
            "ERROR:shop:order 7 failed",
            "Traceback (most recent call last):",
            "  File \"/srv/shop/app.py\", line 88, in handle",
            "    total = price(order)",
            "IndexError: list index out of range",
        ];
        let base = 1_700_000_000_000_000;
        let mut json = String::new();
        for i in 0..200 {
            json.push_str(&shop_entry(
                base + i,
                812,
                &format!("INFO:shop:served {i}"),
                "stdout",
            ));
        }
        for (i, line) in traceback.iter().enumerate() {
            json.push_str(&shop_entry(
                base + 1_000_000 + i as u64,
                812,
                line,
                "stdout",
            ));
        }
        // Another process's frame, a frame 3 s later, and one journald got by syslog:
        // each an entry of its own.
        json.push_str(&shop_entry(
            base + 5_000_000,
            812,
            "Traceback (most recent call last):",
            "stdout",
        ));
        json.push_str(&shop_entry(
            base + 5_000_001,
            900,
            "  File \\\"/srv/other.py\\\", line 1, in f",
            "stdout",
        ));
        json.push_str(&shop_entry(
            base + 9_000_000,
            812,
            "Traceback (most recent call last):",
            "stdout",
        ));
        json.push_str(&shop_entry(
            base + 12_000_000,
            812,
            "    late = True",
            "stdout",
        ));
        json.push_str(&shop_entry(
            base + 15_000_000,
            812,
            "Traceback (most recent call last):",
            "syslog",
        ));
        json.push_str(&shop_entry(
            base + 15_000_001,
            812,
            "    sent = True",
            "syslog",
        ));
        let lines = json.lines().count() as u64;
        for input in [json.as_bytes().to_vec(), as_export(&json)] {
            let reduce = |options: JournalOptions| reduce_with(options, &input);
            let envelope = reduce(JournalOptions::default());
            assert_eq!(envelope.stats["joined_entries"], 4, "{}", envelope.summary);
            assert_eq!(envelope.stats["entries"], lines);
            let record = &envelope.items[0];
            assert_eq!(record["message"], traceback[0], "{}", envelope.summary);
            assert_eq!(record["more"], serde_json::json!(traceback[1..]));
            assert!(
                envelope
                    .summary
                    .ends_with("ERROR:shop:order 7 failed … IndexError: list index out of range"),
                "{}",
                envelope.summary
            );
            for apart in ["/srv/other.py", "late = True", "sent = True"] {
                assert!(
                    envelope
                        .items
                        .iter()
                        .any(|i| i["message"].as_str().is_some_and(|m| m.contains(apart))),
                    "{apart} is an entry of its own: {:?}",
                    envelope.items
                );
            }
            // The options take or leave the record whole, by its first entry's time.
            let level = reduce(JournalOptions {
                max_priority: Some(3),
                ..JournalOptions::default()
            });
            // (With the two output lines apart that open a traceback: errors too.)
            assert_eq!(level.stats["entries"], 5 + 2, "{}", level.summary);
            assert_eq!(level.stats["joined_entries"], 4);
            assert_eq!(level.stats["filtered_out"], lines - 7);
            let since = reduce(JournalOptions {
                since: Some((base as i64 + 1_000_001) / 1_000_000 + 1),
                ..JournalOptions::default()
            });
            assert_eq!(since.stats["filtered_out"], 205, "{}", since.summary);
        }
        // `journalctl -r` writes the newest first: no line goes on a later one.
        let reversed: String = json.lines().rev().map(|l| format!("{l}\n")).collect();
        let envelope = reduce_with(JournalOptions::default(), reversed.as_bytes());
        assert_eq!(
            envelope.stats.get("joined_entries"),
            None,
            "{}",
            envelope.summary
        );
        // cron's entry by syslog among the frames leaves the record open.
        let mut lines: Vec<String> = json.lines().map(|l| format!("{l}\n")).collect();
        let cron = serde_json::json!({
            "__REALTIME_TIMESTAMP": (base + 1_000_002).to_string(),
            "_SYSTEMD_UNIT": "cron.service",
            "_PID": "90",
            "PRIORITY": "6",
            "_TRANSPORT": "syslog",
            "MESSAGE": "(root) CMD (run-parts /etc/cron.hourly)",
        });
        lines.insert(203, format!("{cron}\n"));
        let envelope = reduce_with(JournalOptions::default(), lines.concat().as_bytes());
        assert_eq!(envelope.stats["joined_entries"], 4, "{}", envelope.summary);
        assert_eq!(envelope.items[0]["more"], serde_json::json!(traceback[1..]));
        // A record the input ends with is folded too.
        let ending: String = json.lines().take(205).map(|l| format!("{l}\n")).collect();
        let envelope = reduce_with(JournalOptions::default(), ending.as_bytes());
        assert_eq!(envelope.stats["entries"], 205);
        assert_eq!(envelope.items[0]["more"], serde_json::json!(traceback[1..]));
    }

    #[test]
    fn workers_tracebacks_written_at_once_are_each_one_record() {
        // Gunicorn's workers (one unit, a pid each) fail at the same moment: their lines
        // interleave in the journal.
        let traceback = |worker: usize| {
            [
                format!("ERROR:shop:worker {worker} failed"),
                "Traceback (most recent call last):".to_string(),
                format!("  File \"/srv/shop/w{worker}.py\", line 8, in run"),
                format!("ValueError: worker {worker}"),
            ]
        };
        let base = 1_700_000_000_000_000;
        let interleaved = |workers: usize| {
            let mut json = String::new();
            for line in 0..4 {
                for worker in 0..workers {
                    let us = base + (line * workers + worker) as u64;
                    let message = &traceback(worker)[line];
                    json.push_str(&shop_entry(us, 800 + worker as u32, message, "stdout"));
                }
            }
            json
        };
        let envelope = reduce_with(JournalOptions::default(), interleaved(3).as_bytes());
        assert_eq!(
            envelope.stats["joined_entries"],
            3 * 3,
            "{}",
            envelope.summary
        );
        // The span ends at the last line's time, not at its record's first line's.
        crate::fold::assert_span_ends_at_last_line(&envelope.stats, |end| {
            end.ends_with(".000011Z")
        });
        for worker in 0..3 {
            let lines = traceback(worker);
            let record = envelope
                .items
                .iter()
                .find(|i| i["message"] == lines[0].as_str())
                .unwrap_or_else(|| panic!("worker {worker}: {:?}", envelope.items));
            assert_eq!(record["more"], serde_json::json!(lines[1..]));
        }
        // One worker more than are joined at once: each new one closes the oldest, so
        // each record holds its first line only.
        let envelope = reduce_with(
            JournalOptions::default(),
            interleaved(MAX_OPEN_RECORDS + 1).as_bytes(),
        );
        assert_eq!(
            envelope.stats.get("joined_entries"),
            None,
            "{}",
            envelope.summary
        );
        // Eight workers' single lines among one's traceback: the record written to longest
        // ago gives way, not the traceback opened first.
        let mut json = shop_entry(base, 900, "Traceback (most recent call last):", "stdout");
        for worker in 0..MAX_OPEN_RECORDS as u64 {
            let us = base + 1 + worker;
            json.push_str(&shop_entry(us, 800 + worker as u32, "GET / 200", "stdout"));
            if worker == 3 {
                json.push_str(&shop_entry(
                    us,
                    900,
                    "  File \"a.py\", line 1, in f",
                    "stdout",
                ));
            }
        }
        json.push_str(&shop_entry(base + 20, 900, "KeyError: 'k'", "stdout"));
        let envelope = reduce_with(JournalOptions::default(), json.as_bytes());
        assert_eq!(envelope.stats["joined_entries"], 2, "{}", envelope.summary);
        // An entry a worker sent otherwise (by syslog) between two of its lines ends its
        // record; another worker's output does not.
        let json = [
            shop_entry(base, 801, "Traceback (most recent call last):", "stdout"),
            shop_entry(
                base + 1,
                800,
                "Traceback (most recent call last):",
                "stdout",
            ),
            shop_entry(base + 2, 800, "connected", "syslog"),
            shop_entry(base + 3, 801, "  File \"a.py\", line 1, in f", "stdout"),
            shop_entry(base + 4, 800, "  File \"b.py\", line 1, in g", "stdout"),
        ]
        .concat();
        let envelope = reduce_with(JournalOptions::default(), json.as_bytes());
        assert_eq!(envelope.stats["joined_entries"], 1, "{}", envelope.summary);
        assert_eq!(envelope.stats["entries"], 5);
        // So does any entry without a time: it may be anywhere between them.
        let untimed = r#"{"_SYSTEMD_UNIT":"cron.service","PRIORITY":"6","MESSAGE":"tick"}"#;
        let mut lines: Vec<&str> = json.lines().collect();
        lines[2] = untimed;
        let envelope = reduce_with(JournalOptions::default(), lines.join("\n").as_bytes());
        assert_eq!(
            envelope.stats.get("joined_entries"),
            None,
            "{}",
            envelope.summary
        );
    }

    #[test]
    fn entries_without_a_priority_that_read_as_errors_are_in_the_summary() {
        let entry = |message: &str, priority: Option<u8>| {
            let priority = priority.map_or(String::new(), |p| format!(r#","PRIORITY":"{p}""#));
            format!(
                r#"{{"__REALTIME_TIMESTAMP":"1700000000000000","_SYSTEMD_UNIT":"app.service","MESSAGE":"{message}"{priority}}}"#
            ) + "\n"
        };
        let reduce = |input: &str| {
            reduce_all_chunkings(
                || Journal::new(JournalOptions::default()).unwrap(),
                input.as_bytes(),
                &RunConfig::new("journal"),
            )
        };
        // No PRIORITY: the text's severity counts in the unit's errors, and the summary
        // says so rather than "nothing at warning or above".
        let one =
            reduce(&(entry("ERROR: database unreachable", None) + &entry("started", Some(6))));
        assert_eq!(one.stats["groups"]["app.service"]["errors"], 1);
        assert_eq!(one.stats["unset_errors"], 1);
        assert_eq!(one.stats.get("unset_warnings"), None);
        assert!(
            one.summary
                .contains("; no PRIORITY at warning or above; 1 unset entry reads as an error;"),
            "{}",
            one.summary
        );
        let input = [
            entry("ERROR: a", None),
            entry("ERROR: b", None),
            entry("WARNING: disk 91% full", None),
            entry("plain", None),
            entry("oops", Some(3)),
        ]
        .concat();
        let many = reduce(&input);
        assert_eq!(many.stats["unset_errors"], 2);
        assert_eq!(many.stats["unset_warnings"], 1);
        assert!(
            many.summary
                .contains("; 1 err; 3 unset entries read as 2 errors and a warning;"),
            "{}",
            many.summary
        );
        // Unset entries of no severity change nothing.
        let plain = reduce(&entry("started", None));
        assert!(
            plain.summary.contains("; nothing at warning or above;"),
            "{}",
            plain.summary
        );
        assert_eq!(plain.stats.get("unset_errors"), None);
    }
}
