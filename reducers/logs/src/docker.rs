//! `briefly docker`: container logs, from the json-file log driver's lines
//! (`{"log":"…\n","stream":"stderr","time":"RFC 3339"}`) or `docker logs --timestamps`
//! output (`2026-11-29T10:00:00.123456789Z message`, with compose's `service | ` prefix
//! when there is one), told apart by the first 16 lines (a line cut short or a note of
//! compose's among them does not decide); anything else is plain `docker logs` output and
//! is reduced as `briefly text` would.
//!
//! Lines the json-file driver split at 16 KiB (no trailing `\n` in `log`) are joined
//! again (up to [`MAX_JOINED`] bytes); the level and message come from the JSON or
//! logfmt an application writes ([`crate::payload`]); a multi-line record (a Python
//! traceback, a Java stack) spread over several lines of one stream is one entry, by
//! the rules `text` reads records by ([`briefly_severity::multiline`]), and any indented
//! line goes on the entry above it.

mod facts;

use crate::fold::{Entry, Fold, FoldStats, Names};
use crate::payload;
use crate::time::{parse_rfc3339_micros, Span};
use crate::{OptionError, TextItems, MAX_RECORD_LINES, MAX_RECORD_PAUSE_MICROS};
use briefly_core::{
    counted, plural, strip_ansi, Ahead, Batch, Emit, FoldBatches, Outcome, Record, Reducer,
};
use briefly_severity::multiline::{Indented, MultiLine};
use briefly_severity::{inspect, Severity};
use briefly_template::MaskedLine;
use briefly_text::{Text, TextOptions};
use facts::{Facts, LineFacts};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::borrow::Cow;
use std::collections::VecDeque;

/// The largest `--tail`: the records it holds are bounded by it.
pub const MAX_TAIL: usize = 10_000;
/// Bytes of a record held for `--tail` (so that the held records stay within 20 MiB).
const MAX_TAIL_RECORD: usize = 2048;
/// The most bytes of one record kept, partial lines joined and continuation lines
/// included; the rest is counted.
pub const MAX_JOINED: usize = 256 * 1024;

/// Level names, by severity; index 0 is a record that states none.
pub const LEVELS: [&str; 7] = [
    "unmarked", "trace", "debug", "info", "warn", "error", "fatal",
];

const NAMES: Names = Names {
    group: "stream",
    level: "level",
    levels: &LEVELS,
    levels_key: "levels",

    worst_first: false,
    level_severities: &[],
};

fn level_index(severity: Option<Severity>) -> usize {
    severity.map_or(0, |s| s as usize + 1)
}

/// What to look at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct DockerOptions {
    /// Only records at or after this time (seconds since the epoch).
    pub since: Option<i64>,
    /// Only records before this time (seconds since the epoch).
    pub until: Option<i64>,
    /// Only this stream: `stdout` or `stderr` (json-file input only).
    pub stream: Option<String>,
    /// Only records at or above this severity (unmarked counts as info).
    pub level: Option<Severity>,
    /// Only the last N records (after the other filters).
    pub tail: Option<usize>,
    /// Records whose messages take at most this many characters (one more for
    /// each) are returned whole: each an item, none folded. 0: never.
    pub whole_chars: usize,
}

impl Default for DockerOptions {
    fn default() -> Self {
        DockerOptions {
            since: None,
            until: None,
            stream: None,
            level: None,
            tail: None,
            whole_chars: briefly_text::WHOLE_CHARS,
        }
    }
}

/// The streams a record can come from.
const STREAMS: [&str; 4] = ["stdout", "stderr", "output", "unknown"];
const STDOUT: usize = 0;
const STDERR: usize = 1;
/// `docker logs --timestamps` output: stdout and stderr merged.
const OUTPUT: usize = 2;
/// A line of json-file input that is not a json-file record.
const UNKNOWN: usize = 3;
/// Compose's containers gathered apart (each a record of its own being gathered, so that
/// one's traceback between another's lines stays whole), the first this many; the lines
/// of those after share one, a record ending at another container's line.
const MAX_CONTAINERS: usize = 32;

/// Lines not blank that tell the input's format, at most.
const SNIFF_LINES: usize = 16;
/// Bytes of the first lines held to tell the input's format, at most.
const SNIFF_BYTES: usize = 256 * 1024;

/// How the input is read, once its first lines have told.
enum Mode {
    /// Not known yet: the first lines, held until [`SNIFF_LINES`] that are not blank
    /// (or [`SNIFF_BYTES`]) say which format most of them are in.
    Unknown,
    JsonFile,
    Timestamps,
    Text(Box<Text>),
}

/// A record being gathered: its first line and the lines that continue it.
#[derive(Debug, Default)]
struct Pending {
    /// It holds a record; when not, its buffers wait for the stream's next one.
    open: bool,
    line: u64,
    micros: Option<i64>,
    /// The time of its last line that had one.
    last_micros: Option<i64>,
    /// A compose service name, else the stream's name.
    group: String,
    message: String,
    /// Which lines continue it; its severity.
    multiline: ContainerLines,
    cut_bytes: u64,
    /// The message masked for the miner ahead of time, while it is one line as read.
    masked: MaskedLine,
    masked_ok: bool,
    /// A line of it had ANSI escape codes, read without them.
    ansi: bool,
}

impl Pending {
    /// The worst severity of its lines.
    fn severity(&self) -> Option<Severity> {
        self.multiline.0.severity()
    }
}

/// A record's lines as a container's output has them: an indented line is the message
/// above it going on.
#[derive(Debug)]
struct ContainerLines(MultiLine);

impl Default for ContainerLines {
    fn default() -> Self {
        ContainerLines(MultiLine::new(Indented::Continue))
    }
}

/// A json-file record split at 16 KiB, being joined.
#[derive(Debug, Default)]
struct Partial {
    line: u64,
    time: String,
    log: String,
    cut: bool,
    /// A part read ahead had ANSI codes, stripped there.
    ansi: bool,
}

/// What went wrong in the input, counted.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Problems {
    /// Lines that are not json-file records (truncated, not JSON, no `log`): kept as
    /// entries of the `unknown` stream.
    pub bad_lines: u64,
    /// Records without a valid time.
    pub bad_time: u64,
    /// Records split by the json-file driver and joined again.
    pub joined_partials: u64,
    /// Records over [`MAX_JOINED`] bytes, cut.
    pub cut_records: u64,
    /// Lines the framing cut (over the line limit).
    pub cut_lines: u64,
}

/// Statistics of `briefly docker`.
#[derive(Debug, Clone, Serialize)]
pub struct DockerStats {
    /// `json-file` or `timestamps`.
    pub format: &'static str,
    /// Input lines.
    pub lines: u64,
    /// Records (a multi-line record counts once) before the filters.
    pub records_read: u64,
    /// Records left out by `--since`, `--until`, `--stream`, `--level` or `--tail`.
    pub filtered_out: u64,
    /// The earliest and latest times of the records read, before the filters.
    pub read_time_span: Option<(String, String)>,
    /// Records whose application wrote JSON or logfmt with a level or message.
    pub structured: u64,
    /// What was folded.
    #[serde(flatten)]
    pub fold: FoldStats,
    /// Problems in the input.
    pub problems: Problems,
}

/// The docker reducer.
pub struct Docker {
    options: DockerOptions,
    /// What each json-file line says by itself, worked out one batch ahead.
    ahead: Ahead<Facts>,
    mode: Mode,
    fold: Fold,
    /// Per stream ([`STREAMS`]), then per compose container ([`Docker::containers`]): the
    /// record being gathered. Each stays in place, open or not, so a record's buffers
    /// serve the next one and nothing bigger than them moves.
    pending: Vec<Pending>,
    /// The compose containers with a slot of their own in `pending`, after the streams'.
    containers: Vec<String>,
    /// Per stream (stdout, stderr): a record split at 16 KiB, being joined.
    partial: [Option<Partial>; 2],
    /// Records held for `--tail`, by first line.
    tail: VecDeque<Pending>,
    /// Records `--tail` no longer holds, for their buffers.
    spare: Vec<Pending>,
    /// Reads the payloads of lines not read ahead.
    payloads: payload::Reader,
    blank_lines: Vec<u64>,
    /// The first lines, while the mode is not known: (line, text, cut, CRLF).
    sniffed: Vec<(u64, String, bool, bool)>,
    /// Of those, the bytes, and the lines not blank.
    sniffed_bytes: usize,
    sniffed_told: usize,
    lines: u64,
    read: u64,
    /// Of the records read (before the filters): per stream, and their times.
    read_streams: [u64; 4],
    read_span: Span,
    filtered_out: u64,
    structured: u64,
    last_micros: Option<i64>,
    problems: Problems,
}

impl Docker {
    /// A docker reducer; a `--tail` over [`MAX_TAIL`] or an unknown `--stream` is an error.
    pub fn new(options: DockerOptions) -> Result<Docker, OptionError> {
        if let Some(n) = options.tail {
            if n > MAX_TAIL {
                return Err(OptionError::Tail(n));
            }
        }
        if let Some(stream) = &options.stream {
            if stream != "stdout" && stream != "stderr" {
                return Err(OptionError::Stream(stream.clone()));
            }
        }
        let mut fold = Fold::new(NAMES);
        fold.return_whole_up_to(options.whole_chars);
        let narrowing = [options.since, options.until].iter().any(Option::is_some)
            || options.stream.is_some()
            || options.level.is_some()
            || options.tail.is_some();
        if narrowing {
            fold.narrowed();
        }
        Ok(Docker {
            options,
            ahead: Ahead::parallel(Facts::new(fold.miner_config())),
            mode: Mode::Unknown,
            fold,
            pending: (0..STREAMS.len()).map(|_| Pending::default()).collect(),
            containers: Vec::new(),
            partial: Default::default(),
            tail: VecDeque::new(),
            spare: Vec::new(),
            payloads: payload::Reader::default(),
            blank_lines: Vec::new(),
            sniffed: Vec::new(),
            sniffed_bytes: 0,
            sniffed_told: 0,
            lines: 0,
            read: 0,
            read_streams: [0; 4],
            read_span: Span::default(),
            filtered_out: 0,
            structured: 0,
            last_micros: None,
            problems: Problems::default(),
        })
    }

    /// The mode the first lines call for: json-file when a quarter of them are its
    /// records (no other text parses as one; a file cut short and `docker logs`'s own
    /// notes leave bad lines among them), timestamps when half of them have docker's (a
    /// line cut by `tail -c`, compose's `Attaching to api-1` are not the log's format).
    fn choose(&self, lines: &[(u64, String, bool, bool)]) -> Mode {
        let lines: Vec<&str> = (lines.iter())
            .map(|(_, text, _, _)| text.as_str())
            .filter(|text| !text.trim().is_empty())
            .collect();
        let json_file = (lines.iter())
            .filter(|text| {
                text.starts_with('{') && serde_json::from_str::<JsonFileLine<'_>>(text).is_ok()
            })
            .count();
        let stamped = lines
            .iter()
            .filter(|text| split_timestamp(text).is_some())
            .count();
        if json_file > 0 && 4 * json_file >= lines.len() && json_file >= stamped {
            return Mode::JsonFile;
        }
        if stamped > 0 && 2 * stamped >= lines.len() {
            return Mode::Timestamps;
        }
        let text = Text::new(TextOptions {
            level: self.options.level,
            since: self.options.since,
            until: self.options.until,
            whole_chars: Some(self.options.whole_chars),
            ..TextOptions::default()
        })
        .expect("no grep pattern, no context, no file");
        Mode::Text(Box::new(text))
    }

    fn json_file_line(&mut self, record: &Record<'_>, facts: &mut LineFacts) {
        if facts.read && !record.cut {
            let log = std::mem::take(&mut facts.log);
            let (stream, time) = (
                &record.text[facts.stream.clone()],
                &record.text[facts.time.clone()],
            );
            self.json_file_record(record.line, &log, stream, time, Some(facts));
            facts.log = log;
            return;
        }
        let object = crate::is_json_object(record.text.as_bytes());
        match (!record.cut && object)
            .then(|| serde_json::from_str::<JsonFileLine<'_>>(record.text).ok())
            .flatten()
        {
            Some(parsed) => {
                self.json_file_record(record.line, &parsed.log, &parsed.stream, &parsed.time, None)
            }
            None => {
                self.problems.bad_lines += 1;
                self.line(UNKNOWN, None, record.line, record.text, None, None);
            }
        }
    }

    /// One json-file record: `log` as written, on `stream`, at `time`.
    /// `facts` are the line's own, read ahead, when it was read by the fast path.
    fn json_file_record(
        &mut self,
        line: u64,
        log: &str,
        stream: &str,
        time: &str,
        facts: Option<&mut LineFacts>,
    ) {
        let stream = match stream {
            "stderr" => STDERR,
            _ => STDOUT,
        };
        let (log, complete) = match log.strip_suffix('\n') {
            Some(log) => (log.strip_suffix('\r').unwrap_or(log), true),
            None => (log, false),
        };
        if !complete || self.partial[stream].is_some() {
            let partial = self.partial[stream].get_or_insert_with(|| Partial {
                line,
                time: time.to_string(),
                ..Partial::default()
            });
            let room = MAX_JOINED.saturating_sub(partial.log.len());
            if log.len() > room {
                partial.cut = true;
            }
            partial.log.push_str(briefly_core::head_bytes(log, room));
            partial.ansi |= facts.is_some_and(|facts| facts.ansi);
            if !complete {
                return;
            }
            let partial = self.partial[stream].take().expect("held");
            self.close_partial(stream, partial);
            return;
        }
        self.line(stream, Some(time), line, log, None, facts);
    }

    fn timestamps_line(&mut self, record: &Record<'_>) {
        match split_timestamp(record.text) {
            Some((service, time, message)) => {
                let slot = service.map_or(OUTPUT, |service| self.container_slot(service));
                self.line(slot, Some(time), record.line, message, service, None)
            }
            // A line without a time: a continuation, or an unmarked record.
            None => self.line(OUTPUT, None, record.line, record.text, None, None),
        }
    }

    /// The slot in `pending` of compose's container `service`: its own, made for the first
    /// [`MAX_CONTAINERS`], else the one the rest share ([`OUTPUT`]'s).
    fn container_slot(&mut self, service: &str) -> usize {
        if let Some(at) = self.containers.iter().position(|c| c == service) {
            return STREAMS.len() + at;
        }
        if self.containers.len() == MAX_CONTAINERS {
            return OUTPUT;
        }
        self.containers.push(service.to_string());
        self.pending.push(Pending::default());
        self.pending.len() - 1
    }

    /// One line of `stream` (a record's start or its continuation); `facts`, when given,
    /// were read ahead from exactly this `time` and `text`.
    fn line(
        &mut self,
        stream: usize,
        time: Option<&str>,
        line: u64,
        text: &str,
        service: Option<&str>,
        facts: Option<&mut LineFacts>,
    ) {
        let micros = match &facts {
            Some(facts) => facts.micros,
            None => time.and_then(parse_rfc3339_micros),
        };
        // Colour codes are no part of what a line says (`\x1b[31mERROR`): lines read
        // ahead had them stripped there.
        let stripped = match &facts {
            Some(_) => None,
            None => strip_ansi(text, None),
        };
        let ansi = facts
            .as_ref()
            .map_or(stripped.is_some(), |facts| facts.ansi);
        let text = stripped.as_deref().unwrap_or(text);
        if time.is_some() && micros.is_none() {
            self.problems.bad_time += 1;
        }
        let pending = &mut self.pending[stream];
        let record = &mut pending.multiline.0;
        // A record of MAX_RECORD_LINES ends there: the next line starts another; so does
        // another container's line (compose's `web-1  | `): a record is one container's.
        let same_source = service.is_none_or(|service| pending.group == service);
        let paused = match (pending.last_micros, micros) {
            (Some(last), Some(now)) => now.saturating_sub(last) > MAX_RECORD_PAUSE_MICROS,
            _ => false,
        };
        if pending.open
            && same_source
            && !paused
            && record.lines() + 1 < MAX_RECORD_LINES
            && record.continues(text)
        {
            pending.last_micros = micros.or(pending.last_micros);
            let found = inspect(text);
            record.push(text, found.severity, found.opens);
            pending.masked_ok = false;
            pending.ansi |= ansi;
            let room = MAX_JOINED.saturating_sub(pending.message.len() + 1);
            if text.len() >= room {
                pending.cut_bytes += text.len() as u64;
            } else {
                pending.message.push('\n');
                pending.message.push_str(text);
            }
            return;
        }
        self.close(stream);
        let pending = &mut self.pending[stream];
        pending.open = true;
        match facts {
            Some(facts) => {
                let record = &mut pending.multiline.0;
                record.start(&facts.message, facts.severity, facts.opens);
                // Buffers change hands instead of being copied: the facts' go on with
                // the record, the record's old ones serve the next batch.
                std::mem::swap(&mut pending.message, &mut facts.message);
                self.structured += u64::from(facts.structured);
                std::mem::swap(&mut pending.masked, &mut facts.masked);
                pending.masked_ok = facts.masked_ok;
            }
            None => {
                let read = self.payloads.read(text);
                let record = &mut pending.multiline.0;
                record.start(&read.message, read.severity, read.opens);
                pending.message.clear();
                pending
                    .message
                    .push_str(briefly_core::head_bytes(&read.message, MAX_JOINED));
                self.structured += u64::from(read.structured);
                pending.masked_ok = false;
            }
        }
        pending.line = line;
        pending.micros = micros;
        pending.last_micros = micros;
        pending.ansi = ansi;
        pending.group.clear();
        pending
            .group
            .push_str(service.unwrap_or(STREAMS[stream_of(stream)]));
        pending.cut_bytes = 0;
    }

    /// Closes `stream`'s pending record: filters it, holds it for `--tail` or folds it.
    fn close(&mut self, stream: usize) {
        let pending = &mut self.pending[stream];
        if !pending.open {
            return;
        }
        pending.open = false;
        let stream = stream_of(stream);
        self.read += 1;
        self.read_streams[stream] += 1;
        // Its first line's time and its last's.
        for micros in [pending.micros, pending.last_micros].into_iter().flatten() {
            self.read_span.see(micros);
        }
        if pending.cut_bytes > 0 {
            self.problems.cut_records += 1;
        }
        if pending.micros.is_some() {
            self.last_micros = pending.micros;
        }
        if !wanted(&self.options, self.last_micros, pending, stream) {
            self.filtered_out += 1;
            return;
        }
        match self.options.tail {
            Some(n) => {
                let fresh = self.spare.pop().unwrap_or_default();
                let mut pending = std::mem::replace(pending, fresh);
                // The N records that start last: records of two streams close out of
                // order, so the held ones are kept sorted by their first line.
                let keep = briefly_core::head_bytes(&pending.message, MAX_TAIL_RECORD).len();
                if keep < pending.message.len() {
                    pending.message.truncate(keep);
                    pending.message.push_str("…[cut for --tail]");
                }
                pending.message.shrink_to_fit();
                // Held for long: no buffers beyond the message.
                pending.masked = MaskedLine::default();
                pending.masked_ok = false;
                let at = self.tail.partition_point(|held| held.line < pending.line);
                self.tail.insert(at, pending);
                if self.tail.len() > n {
                    let old = self.tail.pop_front().expect("not empty");
                    self.filtered_out += 1;
                    self.spare.push(old);
                }
            }
            None => {
                fold_in(&mut self.fold, pending);
                pending.message.shrink_to(4096);
            }
        }
    }

    /// A record rejoined from the driver's 16 KiB chunks, counted and read as one line.
    fn close_partial(&mut self, stream: usize, partial: Partial) {
        self.problems.joined_partials += 1;
        if partial.cut {
            self.problems.cut_records += 1;
        }
        self.line(
            stream,
            Some(&partial.time),
            partial.line,
            &partial.log,
            None,
            None,
        );
        self.pending[stream].ansi |= partial.ansi;
    }

    /// One line, in input order, with what was read of it ahead.
    fn record_line(
        &mut self,
        record: &Record<'_>,
        facts: &mut LineFacts,
        out: &mut dyn Emit<Value>,
    ) {
        self.lines += 1;
        if record.cut {
            self.problems.cut_lines += 1;
        }
        if matches!(self.mode, Mode::Unknown) {
            self.sniffed.push((
                record.line,
                record.text.to_string(),
                record.cut,
                record.crlf,
            ));
            self.sniffed_bytes += record.text.len();
            self.sniffed_told += usize::from(!record.text.trim().is_empty());
            // Blank lines count too, many of them: what is held stays bounded.
            if self.sniffed_told >= SNIFF_LINES
                || self.sniffed_bytes >= SNIFF_BYTES
                || self.sniffed.len() >= 64 * SNIFF_LINES
            {
                self.decide(out);
            }
            return;
        }
        self.known_line(record, facts, out);
    }

    /// Chooses the mode by the lines held, then reads them in it: blank lines before the
    /// first that is not are the log's only as text.
    fn decide(&mut self, out: &mut dyn Emit<Value>) {
        let sniffed = std::mem::take(&mut self.sniffed);
        self.mode = self.choose(&sniffed);
        let text_mode = matches!(self.mode, Mode::Text(_));
        let mut leading = true;
        for (line, text, cut, crlf) in &sniffed {
            leading &= text.trim().is_empty();
            if leading && !text_mode {
                self.blank_lines.push(*line);
                continue;
            }
            let record = Record {
                text,
                bytes: text.as_bytes(),
                line: *line,
                offset: 0,
                cut: *cut,
                crlf: *crlf,
            };
            self.known_line(&record, &mut LineFacts::default(), out);
        }
    }

    /// One line, its mode known.
    fn known_line(
        &mut self,
        record: &Record<'_>,
        facts: &mut LineFacts,
        out: &mut dyn Emit<Value>,
    ) {
        match &mut self.mode {
            Mode::Unknown => unreachable!("chosen above"),
            Mode::JsonFile => self.json_file_line(record, facts),
            Mode::Timestamps => self.timestamps_line(record),
            Mode::Text(text) => {
                text.record(record, &mut TextItems(out));
            }
        }
    }

    /// Closes every pending record, earliest first.
    fn close_all(&mut self) {
        for stream in 0..2 {
            if let Some(partial) = self.partial[stream].take() {
                // Split at 16 KiB and never finished: the part there is still counts.
                self.close_partial(stream, partial);
            }
        }
        let mut order: Vec<(u64, usize)> = self
            .pending
            .iter()
            .enumerate()
            .filter(|(_, p)| p.open)
            .map(|(i, p)| (p.line, i))
            .collect();
        order.sort_unstable();
        for (_, stream) in order {
            self.close(stream);
        }
        while let Some(mut pending) = self.tail.pop_front() {
            fold_in(&mut self.fold, &mut pending);
        }
    }
}

/// The stream ([`STREAMS`]) of a slot in [`Docker::pending`]: a compose container's is
/// the output's.
fn stream_of(slot: usize) -> usize {
    match slot < STREAMS.len() {
        true => slot,
        false => OUTPUT,
    }
}

/// Whether the options want `pending`, a record of `stream`; one without a time is
/// taken to be at the last time seen.
fn wanted(
    options: &DockerOptions,
    last_micros: Option<i64>,
    pending: &Pending,
    stream: usize,
) -> bool {
    if let Some(level) = options.level {
        if pending.severity().unwrap_or(Severity::Info) < level {
            return false;
        }
    }
    if let Some(wanted) = &options.stream {
        if STREAMS[stream] != wanted {
            return false;
        }
    }
    if let Some(micros) = pending.micros.or(last_micros) {
        let secs = micros.div_euclid(1_000_000);
        if options.since.is_some_and(|s| secs < s) || options.until.is_some_and(|u| secs >= u) {
            return false;
        }
    }
    true
}

fn fold_in(fold: &mut Fold, pending: &mut Pending) {
    let entry = Entry {
        line: pending.line,
        micros: pending.micros,
        level: level_index(pending.severity()),
        severity: pending.severity(),
        group: &pending.group,
        pid: None,
        message: &pending.message,
        ansi: pending.ansi,
    };
    if pending.masked_ok {
        fold.add_prepared(&entry, &mut pending.masked);
    } else {
        fold.add(&entry);
    }
    // Its last line's time ends the span, if it is the latest.
    if let Some(last) = pending.last_micros {
        fold.see_time(last);
    }
}

/// `docker logs --timestamps` output: (compose service, time, message) when the line
/// starts with an RFC 3339 time, or with `service  | ` and one (compose).
fn split_timestamp(line: &str) -> Option<(Option<&str>, &str, &str)> {
    if let Some((time, message)) = stamped(line) {
        return Some((None, time, message));
    }
    let (service, at) = briefly_template::container_prefix(line)?;
    let (time, message) = stamped(&line[at..])?;
    Some((Some(&line[service]), time, message))
}

/// (time, message) of a line that starts with an RFC 3339 time and a space.
fn stamped(text: &str) -> Option<(&str, &str)> {
    let end = text.find(' ').unwrap_or(text.len());
    parse_rfc3339_micros(&text[..end])?;
    Some((&text[..end], text.get(end + 1..).unwrap_or("")))
}

/// A json-file driver line.
#[derive(Deserialize)]
struct JsonFileLine<'a> {
    #[serde(borrow)]
    log: Cow<'a, str>,
    #[serde(borrow, default)]
    stream: Cow<'a, str>,
    #[serde(borrow, default)]
    time: Cow<'a, str>,
}

impl FoldBatches for Docker {
    type Prepare = Facts;
    type Item = Value;
    type Stats = Value;

    fn ahead(&self) -> &Ahead<Facts> {
        &self.ahead
    }

    fn ahead_mut(&mut self) -> &mut Ahead<Facts> {
        &mut self.ahead
    }

    /// Folds a batch of lines whose facts are ready, in order.
    fn fold(&mut self, batch: &mut Batch<LineFacts>, out: &mut dyn Emit<Value>) {
        for i in 0..batch.len() {
            let (record, facts) = batch.entry(i);
            self.record_line(&record, facts, out);
        }
        // A record of one stream still open holds back those of the other listed after it.
        let open = self.pending.iter().filter(|p| p.open).map(|p| p.line);
        let joining = self.partial.iter().flatten().map(|p| p.line);
        self.fold.emit_listed(open.chain(joining).min(), out);
    }

    fn outcome(&mut self, out: &mut dyn Emit<Value>) -> Outcome<Value> {
        if matches!(self.mode, Mode::Unknown) && !self.sniffed.is_empty() {
            self.decide(out);
        }
        if let Mode::Text(text) = &mut self.mode {
            let outcome = text.finish(&mut TextItems(out));
            let mut result = Outcome::new(
                format!(
                    "plain docker logs (no --timestamps), read as text: {}",
                    outcome.summary
                ),
                serde_json::to_value(&outcome.stats).unwrap_or(Value::Null),
            );
            result.complete = outcome.complete;
            result.warnings = outcome.warnings;
            if self.options.stream.is_some() || self.options.tail.is_some() {
                result.warnings.push("--stream and --tail need json-file or --timestamps input: ignored for plain text".into());
            }
            return result;
        }
        self.close_all();
        let format = match self.mode {
            Mode::Timestamps => "timestamps",
            _ => "json-file",
        };
        let mut emit = |rank, item| out.emit(rank, item);
        let (fold, worst) = self.fold.finish(&mut emit);
        let mut warnings = self.fold.warnings();
        let p = &self.problems;
        for (n, one, many, what) in [
            (
                p.bad_lines,
                "line is not a json-file record",
                "lines are not json-file records",
                "(kept as entries of the \"unknown\" stream)",
            ),
            (p.bad_time, "record has", "records have", "an invalid time"),
            (
                p.cut_records,
                "record was",
                "records were",
                "over 256 KiB and cut",
            ),
            (
                p.cut_lines,
                "line was",
                "lines were",
                "over the line limit and cut",
            ),
        ] {
            if n > 0 {
                warnings.push(format!("{} {what}", counted(n, one, many)));
            }
        }
        if format == "timestamps" && self.options.stream.is_some() {
            warnings.push(
                "--stream needs json-file input: `docker logs` output has no stream, so nothing matched"
                    .into(),
            );
        }
        if !self.blank_lines.is_empty() {
            warnings.push(format!(
                "{} blank lines before the first record skipped",
                self.blank_lines.len()
            ));
        }
        let mut summary = match self.filtered_out {
            0 => format!("{} ({format})", plural(fold.entries, "record")),
            _ => format!(
                "{} of {} kept by the options ({format})",
                fold.entries,
                plural(self.read, "record")
            ),
        };
        let streams: Vec<String> = fold
            .groups
            .iter()
            .map(|(name, c)| format!("{} {name}", c.entries))
            .collect();
        if !streams.is_empty() {
            summary.push_str(&format!(": {}", streams.join(", ")));
        }
        if let Some((a, b)) = &fold.time_span {
            summary.push_str(&format!(", {a} … {b}"));
        }
        let count = |name: &str| fold.levels.get(name).copied().unwrap_or(0);
        summary.push_str(&format!(
            "; {}, {}",
            plural(count("error") + count("fatal"), "error"),
            plural(count("warn"), "warning")
        ));
        if self.filtered_out > 0 {
            summary.push_str(" among them");
        }
        if self.fold.returned_whole() {
            summary.push_str(match self.filtered_out {
                0 => "; returned whole",
                _ => "; the records kept returned whole",
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
            // What the options had to choose from.
            let streams = (STREAMS.iter().zip(self.read_streams))
                .filter(|(_, n)| *n > 0)
                .map(|(name, n)| format!("{n} {name}"));
            let mut input: Vec<String> = streams.collect();
            input.extend(read_span.as_ref().map(|(a, b)| format!("{a} … {b}")));
            summary.push_str(&format!(" (the input: {})", input.join(", ")));
        }
        let stats = DockerStats {
            format,
            lines: self.lines,
            records_read: self.read,
            filtered_out: self.filtered_out,
            read_time_span: read_span,
            structured: self.structured,
            fold,
            problems: self.problems.clone(),
        };
        let mut outcome = Outcome::new(summary, serde_json::to_value(stats).unwrap_or(Value::Null));
        outcome.warnings = warnings;
        outcome.returned_whole = self.fold.returned_whole();
        outcome.cut_next_item = true;
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use briefly_core::testkit::reduce_all_chunkings;
    use briefly_core::{reduce, KeptLines, RunConfig};

    fn json_line(log: &str, stream: &str, second: u32) -> String {
        format!(
            "{}\n",
            serde_json::json!({"log": log, "stream": stream, "time": format!("2026-11-29T10:{:02}:{:02}.123456789Z", second / 60, second % 60)})
        )
    }

    /// The default options, with input never returned whole: for the rules of folding.
    fn folding() -> DockerOptions {
        DockerOptions {
            whole_chars: 0,
            ..DockerOptions::default()
        }
    }

    fn reduce_with(input: &str, options: DockerOptions) -> briefly_core::Envelope {
        reduce(
            Docker::new(options).unwrap(),
            input.as_bytes(),
            &RunConfig::new("docker"),
        )
        .unwrap()
    }

    #[test]
    fn the_summary_cuts_a_long_message_in_its_middle_keeping_why() {
        let mut input = String::new();
        for i in 0..100 {
            input.push_str(&json_line(
                &format!("INFO served request {i}\n"),
                "stdout",
                i,
            ));
        }
        let cause = "dial tcp 10.0.0.5:5432: connect: connection refused";
        let failed = format!(
            "ERROR sync failed: loading the tenants' settings for the nightly billing run from \
             the primary database: opening a pooled connection after 3 retries: {cause}\n"
        );
        input.push_str(&json_line(&failed, "stderr", 100));
        let summary = reduce_with(&input, folding()).summary;
        assert!(summary.contains("(stderr): ERROR sync failed"), "{summary}");
        assert!(summary.contains("chars]…"), "{summary}");
        assert!(summary.ends_with("connection refused"), "{summary}");
    }

    #[test]
    fn a_records_last_line_ends_the_time_span() {
        // The output ends in a traceback written over 900 ms: the span ends at its last
        // line, not at its first.
        let input = "2024-01-05T10:00:00.000000000Z INFO start\n\
                     2024-01-05T10:00:01.000000000Z Traceback (most recent call last):\n\
                     2024-01-05T10:00:01.500000000Z   File \"a.py\", line 1, in f\n\
                     2024-01-05T10:00:01.900000000Z ValueError: x\n";
        let envelope = reduce_with(input, DockerOptions::default());
        assert_eq!(envelope.stats["records_read"], 2, "{}", envelope.stats);
        crate::fold::assert_span_ends_at_last_line(&envelope.stats, |end| {
            end.starts_with("2024-01-05T10:00:01.9")
        });
    }

    #[test]
    fn json_file_with_partials_tracebacks_and_payloads() {
        let mut input = String::new();
        for i in 0..200 {
            input.push_str(&json_line(
                &format!("{{\"level\":\"info\",\"msg\":\"served request {i}\"}}\n"),
                "stdout",
                i,
            ));
        }
        // A record split at 16 KiB: two partial chunks and the end.
        let long = "x".repeat(16 * 1024);
        input.push_str(&json_line(
            &format!("level=warn msg=\"big {long}"),
            "stdout",
            100,
        ));
        input.push_str(&json_line(&long, "stdout", 100));
        input.push_str(&json_line("\"\n", "stdout", 100));
        // A traceback over several lines of stderr, interleaved with stdout.
        input.push_str(&json_line(
            "Traceback (most recent call last):\n",
            "stderr",
            101,
        ));
        input.push_str(&json_line(
            "  File \"app.py\", line 3, in <module>\n",
            "stderr",
            101,
        ));
        input.push_str(&json_line("served request 999\n", "stdout", 101));
        input.push_str(&json_line("    main()\n", "stderr", 101));
        input.push_str(&json_line("ValueError: bad input\n", "stderr", 101));
        input.push_str(&json_line("after the traceback\n", "stderr", 102));
        let envelope = reduce_all_chunkings(
            || Docker::new(DockerOptions::default()).unwrap(),
            input.as_bytes(),
            &RunConfig::new("docker"),
        );
        let s = &envelope.stats;
        assert_eq!(s["format"], "json-file");
        assert_eq!(s["records_read"], 204, "{s}");
        assert_eq!(s["groups"]["stdout"]["entries"], 202);
        assert_eq!(s["groups"]["stderr"]["entries"], 2);
        assert_eq!(s["problems"]["joined_partials"], 1);
        assert_eq!(s["structured"], 201);
        let first = &envelope.items[0];
        assert_eq!(first["stream"], "stderr");
        assert_eq!(first["level"], "error");
        assert_eq!(first["message"], "Traceback (most recent call last):");
        assert_eq!(first["more"].as_array().unwrap().len(), 3);
        assert_eq!(first["more"][2], "ValueError: bad input");
        assert_eq!(first["time"], "2026-11-29T10:01:41.123456Z");
        let warn = envelope
            .items
            .iter()
            .find(|i| i["level"] == "warn")
            .unwrap();
        assert_eq!(warn["message"].as_str().unwrap().len(), MAX_KEPT_TEST);
    }

    #[test]
    fn a_go_panic_keeps_its_goroutines() {
        let mut input = String::new();
        input.push_str(&json_line("listening on :8080\n", "stdout", 1));
        for line in [
            "panic: assignment to entry in nil map\n",
            "\n",
            "goroutine 1 [running]:\n",
            "main.main()\n",
            "\t/app/main.go:9 +0x2c\n",
        ] {
            input.push_str(&json_line(line, "stderr", 2));
            // The other stream goes on meanwhile.
            input.push_str(&json_line("tick\n", "stdout", 2));
        }
        input.push_str(&json_line("exit status 2\n", "stderr", 3));
        let envelope = reduce_all_chunkings(
            || Docker::new(DockerOptions::default()).unwrap(),
            input.as_bytes(),
            &RunConfig::new("docker"),
        );
        let first = &envelope.items[0];
        assert_eq!(first["level"], "fatal", "{first}");
        assert_eq!(first["message"], "panic: assignment to entry in nil map");
        assert_eq!(first["more"].as_array().unwrap().len(), 4, "{first}");
        assert_eq!(first["more"][3], "\t/app/main.go:9 +0x2c");
        assert_eq!(envelope.stats["groups"]["stderr"]["entries"], 2);
    }

    #[test]
    fn records_end_where_texts_do() {
        // The rules `text` reads records by (briefly_severity::multiline): a Java
        // exception under the line that logged it, a compiler's annotated source and
        // java.util.logging's level line stay with their header, though none is
        // indented.
        let mut input = String::new();
        for line in [
            "ERROR request failed\n",
            "java.io.IOException: closed\n",
            "\tat a.B.c(B.java:1)\n",
            "error[E0308]: mismatched types\n",
            " --> src/main.rs:4:18\n",
            "4 |     let x: u32 = \"a\";\n",
            "  |                  ^^^ expected\n",
            "Jan 05, 2024 10:00:07 AM org.example.Db connect\n",
            "SEVERE: Connection refused\n",
            "done\n",
        ] {
            input.push_str(&json_line(line, "stderr", 1));
        }
        let envelope = reduce_with(&input, DockerOptions::default());
        assert_eq!(envelope.stats["groups"]["stderr"]["entries"], 4);
        let more = |i: usize| envelope.items[i]["more"].as_array().unwrap().len();
        assert_eq!(
            (more(0), more(1), more(2)),
            (1, 2, 3),
            "{:?}",
            envelope.items
        );
    }

    const MAX_KEPT_TEST: usize = crate::fold::MAX_KEPT_CHARS + "…[cut 31754 chars]".len();

    #[test]
    fn tracebacks_fold_by_their_exception() {
        let mut input = String::new();
        for (i, exception) in [
            "ValueError: bad value 17",
            "KeyError: 'id'",
            "ValueError: bad value 42",
        ]
        .iter()
        .enumerate()
        {
            for line in [
                "Traceback (most recent call last):",
                "  File \"a.py\", line 1, in f",
                exception,
            ] {
                input.push_str(&json_line(&format!("{line}\n"), "stderr", i as u32));
            }
        }
        let envelope = reduce_with(&input, folding());
        assert_eq!(envelope.stats["entries"], 3);
        let counts: Vec<u64> = envelope
            .items
            .iter()
            .map(|i| i["count"].as_u64().unwrap())
            .collect();
        assert_eq!(counts, [1, 2, 2], "{:?}", envelope.items);
        assert_eq!(envelope.items[1]["more"][1], "ValueError: bad value 17");
    }

    #[test]
    fn a_line_long_after_a_record_begins_its_own() {
        // A traceback 8 minutes after a warning on the same stream is no part of it; one
        // a second after the error line that logged it is.
        let traceback = [
            "Traceback (most recent call last):",
            "  File \"/app/db.py\", line 88, in connect",
            "ConnectionRefusedError: [Errno 111] Connection refused",
        ];
        let mut json_file = json_line("level=warn msg=\"slow query\"\n", "stderr", 0);
        json_file += &json_line("GET /items/1 200\n", "stdout", 1);
        let mut timestamps = String::from("2026-11-29T10:00:00.5Z level=warn msg=\"slow query\"\n");
        for line in traceback {
            json_file += &json_line(&format!("{line}\n"), "stderr", 493);
            timestamps += &format!("2026-11-29T10:08:13.5Z {line}\n");
        }
        json_file += &json_line("ERROR reconnect failed\n", "stderr", 600);
        timestamps += "2026-11-29T10:10:00.5Z ERROR reconnect failed\n";
        for line in traceback {
            json_file += &json_line(&format!("{line}\n"), "stderr", 601);
            timestamps += &format!("2026-11-29T10:10:01.5Z {line}\n");
        }
        for (input, records) in [(json_file, 4), (timestamps, 3)] {
            let envelope = reduce_with(&input, folding());
            assert_eq!(envelope.stats["entries"], records, "{:?}", envelope.items);
            assert_eq!(envelope.stats["levels"]["warn"], 1, "{:?}", envelope.stats);
            let first_lines: Vec<&str> = (envelope.items.iter())
                .filter_map(|item| item["message"].as_str())
                .collect();
            assert!(first_lines.contains(&traceback[0]), "{first_lines:?}");
            assert!(
                first_lines.contains(&"ERROR reconnect failed"),
                "{first_lines:?}"
            );
            assert!(!first_lines.contains(&"Traceback (most recent call last):\n"));
        }
    }

    #[test]
    fn a_templates_times_are_its_earliest_and_latest() {
        // Records of two streams are folded in as they end: stderr's first here.
        let input = [
            json_line("job 1 done\n", "stdout", 10),
            json_line("job 2 done\n", "stderr", 20),
            json_line("job 3 done\n", "stderr", 30),
            json_line("job 4 done\n", "stdout", 40),
        ]
        .concat();
        let envelope = reduce_with(&input, folding());
        let template = (envelope.items.iter())
            .find(|item| item["kind"] == "template")
            .expect("a template");
        assert_eq!(template["count"], 4, "{template}");
        assert_eq!(template["first_time"], "2026-11-29T10:00:10.123456Z");
        assert_eq!(template["last_time"], "2026-11-29T10:00:40.123456Z");
    }

    #[test]
    fn a_template_keeps_its_first_entries_though_they_end_last() {
        // stdout's traceback ends with the input; stderr's errors of its template end
        // before it, one by one: the traceback, first by its line, is kept and named.
        let mut input = String::new();
        for line in [
            "Traceback (most recent call last):",
            "  File \"a.py\", line 1, in f",
            "ValueError: bad 0",
        ] {
            input += &json_line(&format!("{line}\n"), "stdout", 1);
        }
        for i in 1..5 {
            input += &json_line(&format!("ValueError: bad {i}\n"), "stderr", 2 + i);
        }
        let envelope = reduce_with(&input, folding());
        let lines: Vec<u64> = (envelope.items.iter())
            .filter(|item| item["kind"] == "entry" && item["level"] == "error")
            .filter_map(|item| item["line"].as_u64())
            .collect();
        assert!(lines.contains(&1), "{:?}", envelope.items);
        assert!(!lines.contains(&5), "{:?}", envelope.items);
        assert!(
            (envelope.summary)
                .contains("(stdout): Traceback (most recent call last): … ValueError: bad 0"),
            "{}",
            envelope.summary
        );
    }

    #[test]
    fn the_fast_path_reads_what_serde_reads() {
        let mut log = String::new();
        // `stream` and `time` as the text they are in the line.
        let fast_json_file = |line: &str, log: &mut String| {
            let (stream, time) = super::facts::fast_json_file(line, log)?;
            Some((line[stream].to_string(), line[time].to_string()))
        };
        let fields = |stream: &str, time: &str| Some((stream.to_string(), time.to_string()));
        for text in [
            "plain\n",
            "quote \" back\\slash /\t\r\u{8}\u{c}\n",
            "ü € 𝄞 \u{1}\n",
            "",
        ] {
            let line =
                serde_json::json!({"log": text, "stream": "stderr", "time": "t"}).to_string();
            assert_eq!(
                fast_json_file(&line, &mut log),
                fields("stderr", "t"),
                "{line}"
            );
            assert_eq!(log, text);
        }
        // Escapes as other writers write them: \uXXXX, surrogate pairs, \/.
        let line = r#"{"log":"\u00fc\ud834\udd1e\/x\n","stream":"stdout","time":"t"}"#;
        assert_eq!(fast_json_file(line, &mut log), fields("stdout", "t"));
        assert_eq!(log, "ü𝄞/x\n");
        // Anything else is left to serde.
        for other in [
            r#"{"log":"x\n","stream":"stdout","time":"t","attrs":{"a":"b"}}"#,
            r#"{"stream":"stdout","log":"x\n","time":"t"}"#,
            r#"{"log":"\ud834x","stream":"stdout","time":"t"}"#,
            r#"{"log":"cut"#,
            r#"{"log":"x\n","stream":"std\u006fut","time":"t"}"#,
            r#"{"log":"x\n","stream":"stdout","time":"t\u0031"}"#,
            r#"{"log":"x\n","stream":"stdout","time":"t"} "#,
        ] {
            assert_eq!(fast_json_file(other, &mut log), None, "{other}");
        }
    }

    #[test]
    fn colour_codes_are_read_and_shown_without_them() {
        let red = |text: &str| format!("\x1b[31m{text}\x1b[0m");
        let mut json_file = json_line(&format!("{} disk full\n", red("ERROR")), "stdout", 0);
        json_file.push_str(&json_line(&format!("{} slow\n", red("WARN")), "stderr", 1));
        // A line the driver split is read whole by the slow path.
        let long = format!("{} {} {}\n", red("ERROR"), "x".repeat(40), red("y"));
        json_file.push_str(&json_line(&long[..20], "stdout", 2));
        json_file.push_str(&json_line(&long[20..], "stdout", 2));
        let long = format!("ERROR {} {}\n", "x".repeat(40), red("y"));
        json_file.push_str(&json_line(&long[..20], "stdout", 2));
        json_file.push_str(&json_line(&long[20..], "stdout", 2));
        json_file.push_str(&json_line("INFO plain\n", "stdout", 3));
        // A code cut short at the line's end takes nothing after it.
        json_file.push_str(&json_line("INFO cut \x1b[31\n", "stdout", 4));
        let timestamps = format!(
            "2026-11-29T10:00:00.1Z {} disk full\n2026-11-29T10:00:01.1Z INFO plain\n",
            red("ERROR")
        );
        for (input, ansi) in [(json_file, 5), (timestamps, 1)] {
            let envelope = reduce_all_chunkings(
                || Docker::new(DockerOptions::default()).unwrap(),
                input.as_bytes(),
                &RunConfig::new("docker"),
            );
            let s = &envelope.stats;
            assert_eq!(s["ansi_entries"], ansi, "{}", envelope.to_json());
            assert!(
                envelope.summary.contains("first error at"),
                "{}",
                envelope.summary
            );
            assert!(
                !envelope.to_json().contains("\\u001b"),
                "{}",
                envelope.to_json()
            );
            assert_eq!(envelope.items[0]["message"], "ERROR disk full");
            assert!(envelope
                .warnings
                .iter()
                .any(|w| w.contains("had ANSI colour codes")));
        }
    }

    #[test]
    fn bad_lines_are_counted_and_kept() {
        let mut input = json_line("starting\n", "stdout", 0);
        input.push_str("{\"log\":\"truncat\n");
        input.push_str("garbage in the middle\n");
        input.push_str("{\"stream\":\"stdout\"}\n");
        // An array, not a record: its values are no fields by position.
        input.push_str("[\"FATAL made up\\n\",\"stderr\",\"2026-11-29T10:00:00Z\"]\n");
        input.push_str(
            &json_line("bad time\n", "stdout", 0).replace("2026-11-29T10", "2026-99-29T10"),
        );
        input.push_str(&json_line("the end\n", "stdout", 5));
        let envelope = reduce_all_chunkings(
            || Docker::new(DockerOptions::default()).unwrap(),
            input.as_bytes(),
            &RunConfig::new("docker"),
        );
        let s = &envelope.stats;
        assert_eq!(s["records_read"], 7);
        assert_eq!(s["problems"]["bad_lines"], 4);
        assert_eq!(s["problems"]["bad_time"], 1);
        assert_eq!(s["groups"]["unknown"]["entries"], 4);
        assert!(envelope
            .warnings
            .iter()
            .any(|w| w.starts_with("4 lines are not json-file")));
        let shown: Vec<&str> = envelope
            .items
            .iter()
            .filter_map(|i| i["message"].as_str())
            .collect();
        assert!(shown.contains(&"garbage in the middle"), "{shown:?}");
    }

    #[test]
    fn a_long_stack_keeps_its_end_and_its_last_cause() {
        let mut input = json_line("java.lang.IllegalStateException: outer\n", "stderr", 1);
        for i in 1..=30 {
            input.push_str(&json_line(
                &format!("\tat a.B.f{i}(B.java:{i})\n"),
                "stderr",
                1,
            ));
        }
        input.push_str(&json_line(
            "Caused by: java.io.IOException: disk full\n",
            "stderr",
            1,
        ));
        for i in 31..=80 {
            input.push_str(&json_line(
                &format!("\tat a.B.f{i}(B.java:{i})\n"),
                "stderr",
                1,
            ));
        }
        input.push_str(&json_line("\t... 3 more\n", "stderr", 1));
        let envelope = reduce_with(&input, folding());
        let first = &envelope.items[0];
        assert_eq!(first["message"], "java.lang.IllegalStateException: outer");
        let more = first["more"].as_array().unwrap();
        // The head, the cause, the tail.
        let kept = KeptLines::HEAD + 1 + KeptLines::TAIL;
        assert_eq!(more.len(), kept, "{first}");
        assert_eq!(
            more[KeptLines::HEAD],
            "Caused by: java.io.IOException: disk full"
        );
        assert_eq!(more[kept - 1], "\t... 3 more");
        assert_eq!(first["more_cut"], 82 - kept);
        assert_eq!(
            first["more_gaps"],
            serde_json::json!([{"after": 20, "lines": 10}, {"after": 21, "lines": 32}])
        );
        // An error in the middle of a long record is kept there too.
        let mut input = json_line("--- FAIL: TestMany (0.05s)\n", "stdout", 1);
        for i in 0..200 {
            let verdict = if i == 100 { "FAIL" } else { "PASS" };
            let line = format!("    --- {verdict}: TestMany/case_{i:03} (0.00s)\n");
            input.push_str(&json_line(&line, "stdout", 1));
        }
        let envelope = reduce_with(&input, folding());
        let more = envelope.items[0]["more"].as_array().unwrap();
        assert_eq!(
            more[KeptLines::HEAD],
            "    --- FAIL: TestMany/case_100 (0.00s)"
        );
    }

    #[test]
    fn one_exception_with_different_root_causes_is_told_apart() {
        let mut input = String::new();
        for n in 0..6u32 {
            for i in 0..50 {
                input.push_str(&json_line(&format!("served {i}\n"), "stdout", n * 60 + i));
            }
            let cause = match n {
                4 => "org.postgresql.util.PSQLException: relation \"orders_v2\" does not exist",
                _ => "java.sql.SQLTransientConnectionException: pool timed out",
            };
            for line in [
                "org.example.DataAccessException: could not execute query".to_string(),
                "\tat a.B.f(B.java:1)".to_string(),
                format!("Caused by: {cause}"),
                "\t... 3 more".to_string(),
            ] {
                input.push_str(&json_line(&format!("{line}\n"), "stderr", n * 60 + 50));
            }
        }
        let envelope = reduce_with(&input, folding());
        let shown = envelope.to_json();
        assert!(shown.contains("orders_v2"), "{shown}");
        let templates = envelope.stats["top_templates"].to_string();
        assert!(templates.contains("PSQLException"), "{templates}");
    }

    #[test]
    fn timestamps_and_compose_output() {
        let input = "2026-11-29T10:00:00.000000001Z starting\n2026-11-29T10:00:01.5Z level=error msg=\"db down\"\n    at frame one\n2026-11-29T10:00:02Z done\n";
        let envelope = reduce_with(input, DockerOptions::default());
        assert_eq!(envelope.stats["format"], "timestamps");
        assert_eq!(envelope.stats["records_read"], 3);
        assert_eq!(envelope.items[0]["message"], "db down");
        assert_eq!(envelope.items[0]["more"][0], "    at frame one");
        assert_eq!(envelope.items[0]["stream"], "output");
        let compose =
            "web-1  | 2026-11-29T10:00:00Z hello\ndb-1   | 2026-11-29T10:00:01Z ERROR: oops\n";
        let envelope = reduce_with(compose, DockerOptions::default());
        assert_eq!(envelope.stats["groups"]["web-1"]["entries"], 1);
        assert_eq!(envelope.items[0]["stream"], "db-1");
    }

    #[test]
    fn a_first_line_out_of_format_does_not_make_the_log_text() {
        // `tail -c` cut the first record; compose says what it attaches to first.
        let mut cut = String::from("\": \"half a record\\n\", \"stream\": \"stdout\"}\n");
        for i in 0..20 {
            cut.push_str(&json_line(&format!("WARN slow {i}\n"), "stdout", i));
        }
        let mut compose = String::from("Attaching to api-1\n");
        for i in 0..20 {
            compose.push_str(&format!(
                "api-1  | 2026-11-29T10:00:{i:02}.000000000Z WARN slow {i}\n"
            ));
        }
        for (input, format) in [(cut, "json-file"), (compose, "timestamps")] {
            let options = DockerOptions {
                tail: Some(5),
                ..DockerOptions::default()
            };
            let envelope = reduce_all_chunkings(
                || Docker::new(options.clone()).unwrap(),
                input.as_bytes(),
                &RunConfig::new("docker"),
            );
            assert_eq!(envelope.stats["format"], format, "{envelope:?}");
            assert_eq!(envelope.stats["entries"], 5, "--tail holds: {envelope:?}");
            assert_eq!(envelope.stats["levels"]["warn"], 5, "{envelope:?}");
        }
        // Text with a stamped line or two is still text.
        let text = "starting\n2026-11-29T10:00:00.000000000Z up\nready\nERROR gone\n";
        let envelope = reduce_with(text, DockerOptions::default());
        assert!(
            envelope.summary.starts_with("plain docker logs"),
            "{}",
            envelope.summary
        );
    }

    #[test]
    fn plain_output_falls_back_to_text() {
        let input = "\nstarting up\nERROR cannot bind :80\n";
        let envelope = reduce_all_chunkings(
            || Docker::new(DockerOptions::default()).unwrap(),
            input.as_bytes(),
            &RunConfig::new("docker"),
        );
        assert!(
            envelope.summary.starts_with("plain docker logs"),
            "{}",
            envelope.summary
        );
        assert_eq!(envelope.items[0]["severity"], "error");
        assert_eq!(envelope.items[0]["line"], 3);
    }

    #[test]
    fn filters() {
        let mut input = String::new();
        for i in 0..10 {
            let (log, stream) = if i % 3 == 0 {
                ("ERROR failed\n", "stderr")
            } else {
                ("ok\n", "stdout")
            };
            input.push_str(&json_line(log, stream, i));
        }
        let count = |options: DockerOptions| {
            let e = reduce_with(&input, options);
            (
                e.stats["entries"].as_u64().unwrap(),
                e.stats["filtered_out"].as_u64().unwrap(),
            )
        };
        let since = briefly_text::time::civil(2026, 11, 29, 10, 0, 5);
        assert_eq!(
            count(DockerOptions {
                since: Some(since),
                ..Default::default()
            }),
            (5, 5)
        );
        assert_eq!(
            count(DockerOptions {
                until: Some(since),
                ..Default::default()
            }),
            (5, 5)
        );
        assert_eq!(
            count(DockerOptions {
                stream: Some("stderr".into()),
                ..Default::default()
            }),
            (4, 6)
        );
        assert_eq!(
            count(DockerOptions {
                level: Some(Severity::Error),
                ..Default::default()
            }),
            (4, 6)
        );
        assert_eq!(
            count(DockerOptions {
                tail: Some(3),
                ..Default::default()
            }),
            (3, 7)
        );
        let tailed = reduce_with(
            &input,
            DockerOptions {
                tail: Some(3),
                ..Default::default()
            },
        );
        assert_eq!(tailed.stats["time_span"][0], "2026-11-29T10:00:07.123456Z");
        assert!(Docker::new(DockerOptions {
            tail: Some(MAX_TAIL + 1),
            ..Default::default()
        })
        .is_err());
        assert!(Docker::new(DockerOptions {
            stream: Some("stdin".into()),
            ..Default::default()
        })
        .is_err());
    }
}
