//! A streaming scanner over JSON bytes: finds where values begin and end without
//! parsing them, and hands out the values that are units (top-level values, the
//! elements of the record array, an oversized document's members) as byte ranges.
//!
//! It keeps one frame per open container, bounded by the nesting limit, and the bytes
//! of the unit being read, bounded by the unit limit: memory never depends on the
//! input. It checks structure (brackets, commas, colons, where strings end) and leaves
//! scalars to the parser that reads each unit.

use crate::path::Step;
use memchr::memchr2;

/// Which values are units.
#[derive(Debug, Clone)]
pub(crate) enum Split {
    /// Every top-level value.
    TopLevel,
    /// The values these steps lead to from a top-level value (ending in `[]`: records).
    Records(Vec<Step>),
    /// A document too large to hold, in pieces: the elements of a top-level array; an
    /// object's members, and the elements of members that are arrays.
    Members,
    /// The records of arrays read without a record path: the elements of each top-level
    /// array, and each top-level value that is not an array (as a value held in memory
    /// is read).
    Elements,
}

/// What the scanner found.
#[derive(Debug)]
pub(crate) enum Event {
    /// A whole unit.
    Unit(Unit),
    /// A unit over the limit: its bytes are not kept.
    Oversize {
        /// Where it starts.
        offset: u64,
        /// Its length.
        len: u64,
    },
    /// A top-level unit went over the limit ([`Split::TopLevel`] only), or broke inside
    /// one of its values over several lines: its bytes so far, from `offset`, for a
    /// scanner that splits it.
    Overflow {
        /// Where it starts.
        offset: u64,
        /// Its bytes so far.
        bytes: Vec<u8>,
        /// Where and why it broke, when it did (it is not over the limit then).
        broke: Option<(u64, String)>,
    },
    /// A container outside any unit has opened.
    Open {
        /// Its path (`items`, `[]`; empty at the top).
        path: String,
        /// An object (else an array).
        object: bool,
    },
    /// An array outside any unit has closed.
    Array {
        /// Its path (`items`, `[]`).
        path: String,
        /// Its elements.
        len: u64,
    },
    /// A top-level bare word that is no JSON scalar (`Error`, `(node:42)`, `2024-01-05`),
    /// with the value before it on its line (`123 packages`), or a line's bracketed tag
    /// (`[WARN`): the start of a line of text among the values. The scanner stops after
    /// it, for its reader to take the rest of the line.
    Text {
        /// Where it starts.
        offset: u64,
        /// Its bytes.
        bytes: Vec<u8>,
    },
    /// A top-level value failed on the line it began on: the line so far (from the
    /// value), and why. The scanner stops past the failing byte, for its reader to take
    /// the rest of the line as a bad one and read on after it.
    BadLine {
        /// Where the value starts.
        offset: u64,
        /// The line's bytes from there to the failing byte, with it.
        bytes: Vec<u8>,
        /// The failing byte.
        failed_at: u64,
        /// What went wrong.
        message: String,
    },
    /// A top-level value over several lines failed, with [`Scanner::lines_around`] set:
    /// the line it failed on, up to the failing byte, and why. The scanner stops at the
    /// failing byte, for its reader to read on by lines from that line.
    BadLines {
        /// Where the line it failed on starts.
        line_start: u64,
        /// That line's bytes before the failing byte.
        line: Vec<u8>,
        /// The failing byte.
        failed_at: u64,
        /// What went wrong.
        message: String,
    },
    /// The input is not JSON from here on; the scanner stops.
    Error {
        /// The byte where it went wrong.
        offset: u64,
        /// What went wrong.
        message: String,
    },
}

/// One unit's bytes.
#[derive(Debug)]
pub(crate) struct Unit {
    /// Where it starts in the input.
    pub offset: u64,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// The path of the units' container, array indexes as `[]` (`items[]`; empty for a
    /// top-level value).
    pub prefix: String,
}

#[derive(Debug)]
struct Frame {
    object: bool,
    /// Where it opened.
    start: u64,
    /// The current member's key (objects), decoded when it holds escapes.
    key: Vec<u8>,
    key_escaped: bool,
    /// Elements begun (arrays).
    count: u64,
    /// It opened outside any unit.
    outside: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Value,
    Key,
    Colon,
    After,
    Str { key: bool, escaped: bool },
    Scalar,
}

#[derive(Debug)]
struct Open {
    start: u64,
    depth: usize,
    bytes: Vec<u8>,
    /// Still within the limit (bytes are kept).
    keeping: bool,
    prefix: String,
    /// A top-level scalar a split that takes none is held for, to tell it from text.
    held_word: bool,
}

/// Keys longer than this are cut (a path cannot name them).
const MAX_KEY_BYTES: usize = 4096;

/// The scanner. Feed it bytes with [`Scanner::feed`], then call [`Scanner::finish`].
#[derive(Debug)]
pub(crate) struct Scanner {
    split: Split,
    max_unit: usize,
    max_depth: usize,
    offset: u64,
    frames: Vec<Frame>,
    state: State,
    unit: Option<Open>,
    failed: bool,
    /// The last byte read, but for whitespace, was a comma between values: a closing
    /// bracket may not follow (`[1,]`, `{"a":1,}` are not JSON).
    after_comma: bool,
    /// Stop feeding after the next top-level unit ends (to look at the first value).
    pub pause_after_unit: bool,
    /// The input is NDJSON around the value being read (one printed over several lines
    /// among NDJSON lines): a failure inside it is an [`Event::BadLines`], not the end.
    pub lines_around: bool,
    /// A top-level scalar, string or array on one line ([`Split::TopLevel`]), with the
    /// spaces after it (up to the unit limit), held while its line goes on: a word after
    /// it that is no JSON makes the line text (`123 packages installed`, `[1]+ Done`,
    /// `true story`), not a value and then text; and so does a colon (`"a": 1`, a
    /// member whose object's opening was lost).
    line_value: Option<Open>,
    /// The unit open when the scanner failed, for [`Scanner::failed_line`].
    failed_unit: Option<Open>,
    /// A record that broke JSON inside it, read past to its end ([`Scanner::fail`]).
    skipping: Option<Skip>,
    /// The byte a record broke at is read again, as the skipped record's.
    skip_began: bool,
    /// Where the byte after the last string's closing quote is.
    string_closed_at: u64,
}

/// How far into a skipped record the scanner is: its brackets still open (it ends when
/// none is), and whether inside a string, so that brackets there do not count.
#[derive(Debug)]
struct Skip {
    open: usize,
    in_string: bool,
    escaped: bool,
}

impl Skip {
    /// Reads byte `b` of the record; true when it closed the record.
    fn ends_at(&mut self, b: u8) -> bool {
        if self.in_string {
            match b {
                // No string holds a raw newline: the quote that seemed to open this one was
                // a stray (`"name": "a"b",` broke the record), and pairing the quotes after
                // it the other way round would read the brackets of every record after it
                // as strings'. A pretty document's strings end with their line.
                b'\n' => {
                    self.in_string = false;
                    self.escaped = false;
                }
                _ if self.escaped => self.escaped = false,
                b'\\' => self.escaped = true,
                b'"' => self.in_string = false,
                _ => {}
            }
            return false;
        }
        match b {
            b'"' => self.in_string = true,
            b'{' | b'[' => self.open += 1,
            b'}' | b']' => {
                self.open -= 1;
                return self.open == 0;
            }
            _ => {}
        }
        false
    }
}

impl Scanner {
    /// A scanner at byte `offset` of the input, outside any value.
    pub fn new(split: Split, max_unit: usize, max_depth: usize, offset: u64) -> Self {
        Scanner {
            split,
            max_unit,
            max_depth,
            offset,
            frames: Vec::new(),
            state: State::Value,
            unit: None,
            failed: false,
            after_comma: false,
            pause_after_unit: false,
            lines_around: false,
            line_value: None,
            failed_unit: None,
            skipping: None,
            skip_began: false,
            string_closed_at: u64::MAX,
        }
    }

    /// Scans `bytes`, pushing what it finds to `events`; returns how many bytes it took
    /// (fewer than all after an [`Event::Overflow`], [`Event::Text`] or
    /// [`Event::BadLine`], or a unit with `pause_after_unit`).
    pub fn feed(&mut self, bytes: &[u8], events: &mut Vec<Event>) -> usize {
        if self.failed {
            return bytes.len();
        }
        let base = self.offset;
        // Where in `bytes` the open unit's bytes not yet kept begin.
        let mut keep_from = 0;
        let mut i = 0;
        let top_level = matches!(self.split, Split::TopLevel);
        while i < bytes.len() {
            let b = bytes[i];
            let at = base + i as u64;
            // A top-level value still open past the limit overflows here, whatever the
            // chunks: before any error or end found later in the same chunk.
            if top_level
                && self
                    .unit
                    .as_ref()
                    .is_some_and(|open| at > open.start + self.max_unit as u64)
            {
                let mut open = self.unit.take().expect("checked");
                open.bytes.extend_from_slice(&bytes[keep_from..i]);
                events.extend(self.line_value_unit());
                events.push(Event::Overflow {
                    offset: open.start,
                    bytes: open.bytes,
                    broke: None,
                });
                self.failed = true;
                self.offset = at;
                return i;
            }
            if let Some(skip) = &mut self.skipping {
                if skip.ends_at(b) {
                    // The record is over: what follows is read as after any value.
                    self.skipping = None;
                    self.state = State::After;
                }
                i += 1;
                continue;
            }
            if !top_level
                && matches!(b, b' ' | b'\n' | b'\r' | b'\t')
                && !matches!(self.state, State::Str { .. } | State::Scalar)
            {
                // Whitespace between tokens changes no state: pretty JSON's indentation
                // is skipped a run at a time (a top-level scanner checks its limit at
                // every byte, so it reads them one by one).
                i += 1;
                while i < bytes.len() && matches!(bytes[i], b' ' | b'\n' | b'\r' | b'\t') {
                    i += 1;
                }
                continue;
            }
            match self.state {
                State::Str { key, escaped } => {
                    let mut j = i;
                    let mut esc = escaped;
                    if esc {
                        j += 1;
                        esc = false;
                    }
                    let end = loop {
                        match memchr2(b'"', b'\\', &bytes[j.min(bytes.len())..]) {
                            None => break None,
                            Some(k) if bytes[j + k] == b'\\' => {
                                if j + k + 1 >= bytes.len() {
                                    esc = true;
                                    break None;
                                }
                                j += k + 2;
                            }
                            Some(k) => break Some(j + k),
                        }
                    };
                    let stop = end.unwrap_or(bytes.len());
                    if key {
                        self.key_bytes(&bytes[i..stop]);
                    }
                    match end {
                        None => {
                            self.state = State::Str { key, escaped: esc };
                            i = bytes.len();
                            continue;
                        }
                        Some(close) => {
                            i = close;
                            self.string_closed_at = base + close as u64 + 1;
                            if key {
                                self.state = State::Colon;
                                self.decode_key();
                            } else if self.end_value(
                                base + close as u64 + 1,
                                bytes,
                                &mut keep_from,
                                close + 1,
                                events,
                            ) {
                                return close + 1;
                            }
                        }
                    }
                }
                State::Scalar => {
                    if ends_a_word(b) {
                        if self.bracketed_text(at, bytes, keep_from, i, events)
                            || self.end_value(at, bytes, &mut keep_from, i, events)
                        {
                            return i;
                        }
                        continue; // the delimiter is read in the state after the value
                    }
                }
                State::Value | State::After if self.frames.is_empty() => {
                    if let Some(value) = &mut self.line_value {
                        if b != b'\n' && b.is_ascii_whitespace() {
                            if value.bytes.len() < self.max_unit {
                                value.bytes.push(b);
                            }
                            i += 1;
                            continue;
                        }
                        // A key and its colon, the object's opening lost (`INFO {` on the
                        // line before): no value, but a line of text.
                        if b == b':' {
                            let mut bytes = std::mem::take(&mut value.bytes);
                            bytes.push(b);
                            events.push(Event::Text {
                                offset: value.start,
                                bytes,
                            });
                            self.line_value = None;
                            self.offset = at + 1;
                            return i + 1;
                        }
                        // The line ends, or a value that is no bare word begins: the held
                        // value is one. (A bare word is told when it ends: `end_value`.)
                        if !begins_a_word(b) && self.release_line_value(at, events) {
                            return i;
                        }
                    }
                    if !b.is_ascii_whitespace() {
                        self.begin_value(b, at, i, &mut keep_from, events);
                    }
                }
                State::Value => match b {
                    b' ' | b'\n' | b'\r' | b'\t' => {}
                    b']' if !self.top().object => {
                        self.trailing_comma(at, events);
                        if self.close(b, at, bytes, &mut keep_from, i, events) {
                            return i + 1;
                        }
                    }
                    _ => {
                        self.after_comma = false;
                        self.begin_value(b, at, i, &mut keep_from, events);
                    }
                },
                State::Key => match b {
                    b' ' | b'\n' | b'\r' | b'\t' => {}
                    b'"' => {
                        self.after_comma = false;
                        let top = self.top_mut();
                        top.key.clear();
                        top.key_escaped = false;
                        self.state = State::Str {
                            key: true,
                            escaped: false,
                        };
                    }
                    b'}' => {
                        self.trailing_comma(at, events);
                        if self.close(b, at, bytes, &mut keep_from, i, events) {
                            return i + 1;
                        }
                    }
                    _ => self.fail(at, format!("expected a key, found {}", shown(b)), events),
                },
                State::Colon => match b {
                    b' ' | b'\n' | b'\r' | b'\t' => {}
                    b':' => self.state = State::Value,
                    _ => self.fail_past_string(
                        at,
                        b,
                        format!("expected ':', found {}", shown(b)),
                        events,
                    ),
                },
                State::After => match b {
                    b' ' | b'\n' | b'\r' | b'\t' => {}
                    b',' => {
                        self.after_comma = true;
                        self.state = if self.top().object {
                            State::Key
                        } else {
                            State::Value
                        }
                    }
                    b'}' | b']' => {
                        if self.close(b, at, bytes, &mut keep_from, i, events) {
                            return i + 1;
                        }
                    }
                    _ => self.fail_past_string(
                        at,
                        b,
                        format!("expected ',' or a closing bracket, found {}", shown(b)),
                        events,
                    ),
                },
            }
            if self.failed {
                return self.failed_line(bytes, keep_from, i, events);
            }
            if std::mem::take(&mut self.skip_began) {
                continue;
            }
            i += 1;
        }
        self.offset = base + bytes.len() as u64;
        if let Some(open) = &mut self.unit {
            if open.keeping {
                open.bytes.extend_from_slice(&bytes[keep_from..]);
            }
            let len = self.offset - open.start;
            if len > self.max_unit as u64 && open.keeping {
                if matches!(self.split, Split::TopLevel) {
                    let open = self.unit.take().expect("open");
                    events.extend(self.line_value_unit());
                    events.push(Event::Overflow {
                        offset: open.start,
                        bytes: open.bytes,
                        broke: None,
                    });
                    self.failed = true; // this scanner is done: a splitting one takes over
                } else {
                    open.keeping = false;
                    open.bytes = Vec::new();
                }
            }
        }
        bytes.len()
    }

    /// End of input: a value left open is an error; a scalar at the end is complete.
    pub fn finish(&mut self, events: &mut Vec<Event>) {
        if self.failed {
            return;
        }
        self.pause_after_unit = false;
        if self.state == State::Scalar {
            let mut keep_from = 0;
            self.end_value(self.offset, &[], &mut keep_from, 0, events);
        }
        self.release_line_value(self.offset, events);
        let at = self.offset;
        if let State::Str { .. } = self.state {
            self.fail(at, "input ends inside a string".into(), events);
        } else if let Some(frame) = self.frames.last() {
            let what = if frame.object {
                "an object"
            } else {
                "an array"
            };
            let message = format!(
                "input ends inside {what} opened at byte {} ({} levels deep): truncated",
                frame.start,
                self.frames.len()
            );
            self.fail(at, message, events);
        }
        self.failed = true;
    }

    /// The start and bytes so far of a top-level value still open and kept
    /// ([`Split::TopLevel`]), for a reader that holds what follows without scanning it.
    pub fn open_unit(&self) -> Option<(u64, &[u8])> {
        if self.failed || !matches!(self.split, Split::TopLevel) {
            return None;
        }
        self.unit
            .as_ref()
            .filter(|open| open.keeping)
            .map(|open| (open.start, open.bytes.as_slice()))
    }

    /// The offset of the next byte it would read.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// `finish` was called, or it stopped.
    pub fn finished(&self) -> bool {
        self.failed
    }

    fn top(&self) -> &Frame {
        self.frames.last().expect("inside a container")
    }

    fn top_mut(&mut self) -> &mut Frame {
        self.frames.last_mut().expect("inside a container")
    }

    fn key_bytes(&mut self, bytes: &[u8]) {
        let top = self.top_mut();
        let room = MAX_KEY_BYTES.saturating_sub(top.key.len());
        top.key.extend_from_slice(&bytes[..bytes.len().min(room)]);
        top.key_escaped |= bytes.contains(&b'\\');
    }

    fn decode_key(&mut self) {
        let top = self.top_mut();
        if top.key_escaped {
            let mut quoted = Vec::with_capacity(top.key.len() + 2);
            quoted.push(b'"');
            quoted.extend_from_slice(&top.key);
            quoted.push(b'"');
            if let Ok(key) = serde_json::from_slice::<String>(&quoted) {
                top.key = key.into_bytes();
            }
        }
    }

    /// A closing bracket at `offset`: after a comma (`[1,]`, `{"a":1,}`) it is an error,
    /// said once, outside a record (a record's own parse says it of that record alone);
    /// the reading goes on as if the comma were not there, so the records before it stay.
    fn trailing_comma(&mut self, offset: u64, events: &mut Vec<Event>) {
        if std::mem::take(&mut self.after_comma) && self.unit.is_none() {
            events.push(Event::Error {
                offset,
                message: "trailing comma".into(),
            });
        }
    }

    fn fail(&mut self, offset: u64, message: String, events: &mut Vec<Event>) {
        // A record (of a split, not a top-level value, whose line is bad) that breaks
        // JSON inside it (`{"a": 2,, "b": 1}`, a comma missing): that record is skipped
        // to its closing bracket, an error where it broke, and the records after it read.
        if !matches!(self.split, Split::TopLevel) {
            if let Some(open) = self.unit.take_if(|open| self.frames.len() > open.depth) {
                self.skipping = Some(Skip {
                    open: self.frames.len() - open.depth,
                    in_string: false,
                    escaped: false,
                });
                self.skip_began = true;
                self.frames.truncate(open.depth);
                events.push(Event::Error {
                    offset,
                    message: format!("{message}: the record at byte {} skipped", open.start),
                });
                return;
            }
        }
        self.failed = true;
        self.failed_unit = self.unit.take();
        events.push(Event::Error { offset, message });
    }

    /// [`Scanner::fail`] at byte `b`, where a key or a value was over. Right after a
    /// string's closing quote, that quote was more likely a stray one inside the string
    /// (`"name": "a"b",`, `"na"me": 1`, or a closing quote missing before it) than its end:
    /// a record skipped for it is read from inside the string on, so that its quotes pair
    /// as they were meant to. Not when `b` is a quote itself (`"a""b"`: a comma missing).
    fn fail_past_string(&mut self, offset: u64, b: u8, message: String, events: &mut Vec<Event>) {
        self.fail(offset, message, events);
        if let Some(skip) = &mut self.skipping {
            skip.in_string = offset == self.string_closed_at && b != b'"';
        }
    }

    /// After a failure at chunk index `i`: a top-level value ([`Split::TopLevel`]) that
    /// failed on the line it began on makes that line bad, not the rest of the input
    /// (`{notjson} hello` before NDJSON): its error becomes an [`Event::BadLine`], and
    /// feeding stops past the failing byte, for the reader to take the rest of the line
    /// and read on after it. Returns how many bytes were taken.
    fn failed_line(
        &mut self,
        bytes: &[u8],
        keep_from: usize,
        i: usize,
        events: &mut Vec<Event>,
    ) -> usize {
        let Some(mut open) = self.failed_unit.take() else {
            return bytes.len();
        };
        if !matches!(self.split, Split::TopLevel) || open.depth != 0 || !open.keeping {
            return bytes.len();
        }
        let before = open.bytes.len();
        // With the failing byte (never a newline: whitespace fails nowhere), so that the
        // line so far is never empty.
        open.bytes.extend_from_slice(&bytes[keep_from.min(i)..=i]);
        if open.bytes.contains(&b'\n') {
            if self.lines_around {
                match events.pop() {
                    Some(Event::Error { offset, message }) => {
                        // The failing byte is read again, on its line.
                        let line = &open.bytes[..open.bytes.len() - 1];
                        let from = memchr::memrchr(b'\n', line).map_or(0, |at| at + 1);
                        events.push(Event::BadLines {
                            line_start: open.start + from as u64,
                            line: line[from..].to_vec(),
                            failed_at: offset,
                            message,
                        });
                        self.offset += i as u64;
                        return i;
                    }
                    other => events.extend(other),
                }
            }
            // A document over several lines broke inside one of its values (a record's
            // stray comma): a splitting scanner reads it again from its start, which
            // skips that value alone ([`Scanner::fail`]), up to the failing byte here.
            if self.frames.len() >= 2 && matches!(events.last(), Some(Event::Error { .. })) {
                let broke = match events.pop() {
                    Some(Event::Error { offset, message }) => Some((offset, message)),
                    _ => None,
                };
                open.bytes.truncate(before + i - keep_from.min(i));
                events.push(Event::Overflow {
                    offset: open.start,
                    bytes: open.bytes,
                    broke,
                });
                self.offset += i as u64;
                return i;
            }
            return bytes.len();
        }
        // A failure's last event is its error.
        match events.pop() {
            Some(Event::Error { offset, message }) => events.push(Event::BadLine {
                offset: open.start,
                bytes: open.bytes,
                failed_at: offset,
                message,
            }),
            other => {
                events.extend(other);
                return bytes.len();
            }
        }
        self.offset += i as u64 + 1;
        i + 1
    }

    /// Whether a value beginning now with `first` is a unit.
    fn is_unit(&self, first: u8) -> bool {
        let depth = self.frames.len();
        match &self.split {
            Split::TopLevel => depth == 0,
            Split::Records(steps) => {
                depth == steps.len()
                    && steps
                        .iter()
                        .zip(&self.frames)
                        .all(|(step, frame)| match step {
                            Step::Key(key) => frame.object && frame.key == key.as_bytes(),
                            Step::Index(index) => !frame.object && frame.count == *index as u64 + 1,
                            Step::Each => !frame.object,
                        })
            }
            Split::Elements => match depth {
                0 => first != b'[',
                1 => !self.frames[0].object,
                _ => false,
            },
            Split::Members => match depth {
                0 => first != b'{' && first != b'[',
                1 => !(self.frames[0].object && first == b'['),
                2 => self.frames[0].object && !self.frames[1].object,
                _ => false,
            },
        }
    }

    /// Whether a top-level container opening with `first` cannot hold the records of
    /// a [`Split::Records`] (an object where they are an array's elements).
    fn holds_no_record(&self, first: u8) -> bool {
        match &self.split {
            Split::Records(steps) => match steps.first() {
                Some(Step::Key(_)) => first == b'[',
                Some(_) => first == b'{',
                None => false,
            },
            _ => false,
        }
    }

    fn prefix(&self) -> String {
        let mut prefix = String::new();
        for frame in &self.frames {
            if frame.object {
                let key = String::from_utf8_lossy(&frame.key);
                if crate::path::is_plain(&key) {
                    if !prefix.is_empty() {
                        prefix.push('.');
                    }
                    prefix.push_str(&key);
                } else {
                    prefix.push_str(&format!("[{}]", serde_json::Value::from(key.as_ref())));
                }
            } else {
                prefix.push_str("[]");
            }
        }
        prefix
    }

    /// A value begins with byte `b` at `at` (index `i` of the chunk); the scanner fails
    /// on a byte no value begins with there, or past the nesting limit.
    fn begin_value(
        &mut self,
        b: u8,
        at: u64,
        i: usize,
        keep_from: &mut usize,
        events: &mut Vec<Event>,
    ) {
        if let Some(frame) = self.frames.last_mut() {
            if !frame.object {
                frame.count += 1;
            }
        }
        // A top-level scalar is held by every split: a value of the input, and a bare
        // word may be text; and so is a container no record can be in.
        let word = self.frames.is_empty() && (!matches!(b, b'{' | b'[') || self.holds_no_record(b));
        if self.unit.is_none() && (word || self.is_unit(b)) {
            *keep_from = i;
            self.unit = Some(Open {
                start: at,
                depth: self.frames.len(),
                bytes: Vec::new(),
                keeping: true,
                prefix: self.prefix(),
                held_word: word && !self.is_unit(b),
            });
        }
        match b {
            b'{' | b'[' => {
                if self.frames.len() >= self.max_depth {
                    let message = format!("nesting deeper than {} levels", self.max_depth);
                    self.fail(at, message, events);
                    return;
                }
                let outside = self.unit.is_none();
                if outside {
                    events.push(Event::Open {
                        path: self.prefix(),
                        object: b == b'{',
                    });
                }
                self.frames.push(Frame {
                    object: b == b'{',
                    start: at,
                    key: Vec::new(),
                    key_escaped: false,
                    count: 0,
                    outside,
                });
                self.state = if b == b'{' { State::Key } else { State::Value };
            }
            b'"' => {
                self.state = State::Str {
                    key: false,
                    escaped: false,
                }
            }
            b'-' | b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z' | b'+' | b'.' => {
                self.state = State::Scalar
            }
            // Between top-level values, a byte no value begins with opens a bare word, as
            // a letter does: a line of text among the values (`(node:42) Warning: …`),
            // which the reader skips whole, not the end of the input's JSON. JSON's own
            // punctuation there (`[1]]`) is an error of the JSON: of its line, when the
            // value began on it (`failed_line`).
            _ if self.frames.is_empty() && !matches!(b, b']' | b'}' | b',' | b':') => {
                self.state = State::Scalar
            }
            _ => self.fail(at, format!("unexpected {}", shown(b)), events),
        }
    }

    /// Whether the bare word ending at `at` (chunk index `i`) says that the top-level
    /// array it is the first element of was a line's bracketed tag ([`opens_with_a_tag`]),
    /// on the bracket's line (`[\nWARN]` is a bad array). The line is then text, as a
    /// top-level bare word's is ([`Event::Text`]), and feeding stops there.
    fn bracketed_text(
        &mut self,
        at: u64,
        bytes: &[u8],
        keep_from: usize,
        i: usize,
        events: &mut Vec<Event>,
    ) -> bool {
        let first_of_top_array =
            matches!(self.frames.as_slice(), [frame] if !frame.object && frame.count == 1);
        let Some(open) = self
            .unit
            .as_ref()
            .filter(|open| open.depth == 0 && open.keeping && first_of_top_array)
        else {
            return false;
        };
        // The unit so far, with the byte that ended the word.
        let mut held = open.bytes.clone();
        held.extend_from_slice(&bytes[keep_from..=i]);
        if held.contains(&b'\n') || !opens_with_a_tag(&held) {
            return false;
        }
        // The line's reader takes it from the byte that ended the word.
        held.pop();
        events.push(Event::Text {
            offset: open.start,
            bytes: held,
        });
        self.unit = None;
        self.frames.clear();
        self.state = State::After;
        self.offset = at;
        true
    }

    /// Hands out the value held on its line, if any, the line having gone on with no
    /// text; stops feeding at `at` when a unit was to pause the scanner. True when
    /// feeding stops.
    fn release_line_value(&mut self, at: u64, events: &mut Vec<Event>) -> bool {
        let Some(unit) = self.line_value_unit() else {
            return false;
        };
        events.push(unit);
        if self.pause_after_unit {
            self.pause_after_unit = false;
            self.offset = at;
            return true;
        }
        false
    }

    /// The value held on its line as a unit (without the spaces after it), if any.
    fn line_value_unit(&mut self) -> Option<Event> {
        let value = self.line_value.take()?;
        let mut bytes = value.bytes;
        bytes.truncate(bytes.trim_ascii_end().len());
        Some(Event::Unit(Unit {
            offset: value.start,
            bytes,
            prefix: value.prefix,
        }))
    }

    /// Closes the innermost container with `b` at `at`. True when feeding should stop.
    fn close(
        &mut self,
        b: u8,
        at: u64,
        bytes: &[u8],
        keep_from: &mut usize,
        i: usize,
        events: &mut Vec<Event>,
    ) -> bool {
        let object = self.top().object;
        if object != (b == b'}') {
            let open = if object { "an object" } else { "an array" };
            let start = self.top().start;
            self.fail(
                at,
                format!("{} closes {open} opened at byte {start}", shown(b)),
                events,
            );
            return false;
        }
        let frame = self.frames.pop().expect("inside a container");
        if frame.outside && !frame.object {
            events.push(Event::Array {
                // Popped: the parent's path (with this array's key) is the array's.
                path: self.prefix(),
                len: frame.count,
            });
        }
        self.end_value(at + 1, bytes, keep_from, i + 1, events)
    }

    /// A value ended just before byte `end` (chunk index `i`). True when feeding stops.
    fn end_value(
        &mut self,
        end: u64,
        bytes: &[u8],
        keep_from: &mut usize,
        i: usize,
        events: &mut Vec<Event>,
    ) -> bool {
        self.state = State::After;
        let ends_unit = self
            .unit
            .as_ref()
            .is_some_and(|open| open.depth == self.frames.len());
        if !ends_unit {
            return false;
        }
        let mut open = self.unit.take().expect("checked");
        let len = end - open.start;
        if open.keeping {
            open.bytes.extend_from_slice(&bytes[*keep_from..i]);
        }
        // A top-level bare word that is no JSON scalar begins a line of text: the reader
        // takes the rest of its line from here (its other words are no values either).
        let scalar = !matches!(open.bytes.first(), Some(b'"' | b'{' | b'['));
        if open.depth == 0 && scalar && open.keeping && !is_scalar(&open.bytes) {
            // From the value held on its line, if any.
            let (offset, bytes) = match self.line_value.take() {
                Some(mut value) => {
                    value.bytes.extend_from_slice(&open.bytes);
                    (value.start, value.bytes)
                }
                None => (open.start, open.bytes),
            };
            events.push(Event::Text { offset, bytes });
            self.offset = end;
            return true;
        }
        // A scalar after the held value: both are values (`1 2`), handed out now.
        let released = self
            .line_value_unit()
            .map(|unit| events.push(unit))
            .is_some();
        if open.held_word && open.keeping {
            // A top-level scalar in a split whose units are deeper: a value of its own.
            events.push(Event::Unit(Unit {
                offset: open.start,
                bytes: open.bytes,
                prefix: open.prefix,
            }));
            return false;
        }
        let over = len > self.max_unit as u64;
        if over && open.keeping && matches!(self.split, Split::TopLevel) {
            events.push(Event::Overflow {
                offset: open.start,
                bytes: open.bytes,
                broke: None,
            });
            self.failed = true;
            self.offset = end;
            return true;
        }
        let one_line = || !open.bytes.contains(&b'\n');
        // An array that may be a line's text (`[1]+ Done`) is short and holds no
        // container: records (`[{"id":1},…]HTTP 200`, curl's `-w`) are a value.
        let text_like = match open.bytes.first() {
            Some(b'{') => false,
            Some(b'[') => {
                open.bytes.len() <= TEXT_LIKE_ARRAY_BYTES
                    && !open.bytes[1..].iter().any(|&b| b == b'[' || b == b'{')
            }
            _ => true,
        };
        if matches!(self.split, Split::TopLevel)
            && !over
            && open.keeping
            && text_like
            && !released
            && one_line()
        {
            self.line_value = Some(open);
            return false;
        }
        if over || !open.keeping {
            events.push(Event::Oversize {
                offset: open.start,
                len,
            });
        } else {
            events.push(Event::Unit(Unit {
                offset: open.start,
                bytes: open.bytes,
                prefix: open.prefix,
            }));
        }
        if self.pause_after_unit && self.frames.is_empty() {
            self.pause_after_unit = false;
            self.offset = end;
            return true;
        }
        false
    }
}

/// The longest top-level array on a line that a word after it makes text (`[1]+ Done`,
/// a shell's job); a longer one is a value, the word after it text of its own.
const TEXT_LIKE_ARRAY_BYTES: usize = 64;

/// Whether a line opens with a bracketed tag (`[WARN] …`, `[2024-01-05 10:00:00] …`),
/// not a JSON array: its first element is a bare word that is no JSON scalar, ended by
/// a `]` or a space (not a `,`: `[abc, 1,` opens a bad array over several lines, whose
/// elements are no lines of their own).
pub(crate) fn opens_with_a_tag(line: &[u8]) -> bool {
    let Some(rest) = line.strip_prefix(b"[") else {
        return false;
    };
    let rest = rest.trim_ascii_start();
    let word = rest.iter().take_while(|&&b| !ends_a_word(b)).count();
    word > 0 && matches!(rest.get(word), Some(b']' | b' ' | b'\t')) && !is_scalar(&rest[..word])
}

/// Whether a top-level value beginning with `b` is a bare word (a number, `true`, or no
/// JSON): not whitespace, nor what opens a container or a string, nor punctuation.
fn begins_a_word(b: u8) -> bool {
    !b.is_ascii_whitespace() && !matches!(b, b'{' | b'[' | b'"' | b']' | b'}' | b',' | b':')
}

/// Whether `b` ends a bare word (a number, `true`, or no JSON) where a value may follow
/// it: a delimiter, whitespace, or what opens another value.
fn ends_a_word(b: u8) -> bool {
    matches!(
        b,
        b',' | b']' | b'}' | b' ' | b'\n' | b'\r' | b'\t' | b'"' | b'[' | b'{'
    )
}

/// Whether `word` is a JSON scalar: `true`, `false`, `null` or a number.
pub(crate) fn is_scalar(word: &[u8]) -> bool {
    if matches!(word, b"true" | b"false" | b"null") {
        return true;
    }
    let digits = |s: &[u8]| s.iter().take_while(|b| b.is_ascii_digit()).count();
    let rest = word.strip_prefix(b"-").unwrap_or(word);
    let int = digits(rest);
    if int == 0 || (int > 1 && rest[0] == b'0') {
        return false;
    }
    let mut rest = &rest[int..];
    if let Some(fraction) = rest.strip_prefix(b".") {
        let n = digits(fraction);
        if n == 0 {
            return false;
        }
        rest = &fraction[n..];
    }
    if let Some(exponent) = rest.strip_prefix(b"e").or_else(|| rest.strip_prefix(b"E")) {
        let exponent = exponent
            .strip_prefix(b"+")
            .or_else(|| exponent.strip_prefix(b"-"))
            .unwrap_or(exponent);
        let n = digits(exponent);
        if n == 0 {
            return false;
        }
        rest = &exponent[n..];
    }
    rest.is_empty()
}

fn shown(b: u8) -> String {
    if b.is_ascii_graphic() {
        format!("'{}'", b as char)
    } else {
        format!("byte 0x{b:02x}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tells_json_scalars_from_bare_words() {
        for word in ["true", "null", "0", "-1", "12.5", "1e9", "-0.5E-3", "2E+2"] {
            assert!(is_scalar(word.as_bytes()), "{word}");
        }
        for word in [
            "True",
            "nul",
            "01",
            "-",
            "1.",
            ".5",
            "1e",
            "2024-01-01",
            "0x10",
            "NaN",
            "",
        ] {
            assert!(!is_scalar(word.as_bytes()), "{word}");
        }
    }

    #[test]
    fn pauses_after_a_bare_word_between_top_level_values() {
        let mut scanner = Scanner::new(Split::TopLevel, 1000, 100, 0);
        let mut events = Vec::new();
        let input = b"{} true Error: x\n(y)";
        // `Error:` is no value: the rest is not scanned, and the line is text from the
        // scalar before it on the line.
        let took = scanner.feed(input, &mut events);
        assert_eq!(took, 14, "{events:?}");
        assert_eq!(events.len(), 2, "{events:?}");
        let Event::Text { bytes, offset } = &events[1] else {
            panic!("{events:?}")
        };
        assert_eq!((bytes.as_slice(), *offset), (&b"true Error:"[..], 3));
        // A byte no value begins with is a bare word there, not the end of the JSON; in
        // a split document's scanner too, whose units are deeper.
        for split in [
            Split::TopLevel,
            Split::Elements,
            Split::Records(vec![Step::Each]),
        ] {
            let mut scanner = Scanner::new(split, 1000, 100, 0);
            let mut events = Vec::new();
            scanner.feed(b"[1] 7 (y) 1", &mut events);
            let words: Vec<_> = events
                .iter()
                .filter_map(|e| match e {
                    Event::Unit(u) if u.prefix.is_empty() => Some(("unit", u.bytes.clone())),
                    Event::Text { bytes, .. } => Some(("text", bytes.clone())),
                    _ => None,
                })
                .collect();
            assert_eq!(
                words[words.len() - 2..],
                [("unit", b"7".to_vec()), ("text", b"(y)".to_vec())],
                "{events:?}"
            );
        }
    }

    #[test]
    fn a_value_held_on_its_line_is_bounded_and_never_lost() {
        // The spaces after it are kept up to the unit limit.
        let mut scanner = Scanner::new(Split::TopLevel, 100, 100, 0);
        let mut events = Vec::new();
        let line = format!("1{}word\n", " ".repeat(1000));
        scanner.feed(line.as_bytes(), &mut events);
        let Some(Event::Text { bytes, offset: 0 }) = events.first() else {
            panic!("{events:?}")
        };
        assert!(bytes.starts_with(b"1 ") && bytes.ends_with(b" word"));
        assert!(bytes.len() <= 100 + 4, "{}", bytes.len());
        // A word after it that overflows: the value comes first.
        let mut scanner = Scanner::new(Split::TopLevel, 10, 100, 0);
        let mut events = Vec::new();
        scanner.feed(format!("1 {}", "a".repeat(50)).as_bytes(), &mut events);
        assert!(
            matches!(&events[..], [Event::Unit(u), Event::Overflow { offset: 2, .. }] if u.bytes == b"1"),
            "{events:?}"
        );
    }

    #[test]
    fn finds_top_level_values() {
        let mut scanner = Scanner::new(Split::TopLevel, 1000, 100, 0);
        let mut events = Vec::new();
        let input = b"{\"a\":1,\n\"b\":[1,2]}";
        let took = scanner.feed(input, &mut events);
        assert_eq!(took, input.len());
        scanner.finish(&mut events);
        assert!(
            matches!(&events[0], Event::Unit(u) if u.bytes == input),
            "{events:?}"
        );
    }

    /// Units found feeding `input` in chunks of `chunk` bytes.
    fn units(split: Split, input: &[u8], chunk: usize) -> Vec<(u64, String, String)> {
        let mut scanner = Scanner::new(split, 100, 100, 0);
        let mut events = Vec::new();
        for piece in input.chunks(chunk) {
            if scanner.feed(piece, &mut events) < piece.len() {
                // A bad line: its reader reads on, not the scanner.
                assert!(matches!(events.last(), Some(Event::BadLine { .. })));
                break;
            }
        }
        scanner.finish(&mut events);
        events
            .into_iter()
            .filter_map(|event| match event {
                Event::Unit(unit) => Some((
                    unit.offset,
                    unit.prefix,
                    String::from_utf8(unit.bytes).unwrap(),
                )),
                Event::Oversize { offset, len } => {
                    Some((offset, "oversize".into(), len.to_string()))
                }
                Event::Error { offset, message }
                | Event::BadLine {
                    failed_at: offset,
                    message,
                    ..
                } => Some((offset, "error".into(), message)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn walks_the_record_array_past_tricky_strings_in_any_chunking() {
        let input = br#"{"x": "]}\"{", "it\"ems": 0, "items": [ {"a": "}]\\"}, 12, "s", [1, [2]], {"b": "long string over one hundred bytes ......................................................................"} ], "after": [1]}"#;
        // Offsets and lengths as Python's str.index counts them on the same text.
        let steps = vec![Step::Key("items".into()), Step::Each];
        let expected = vec![
            (40, "items[]".to_string(), r#"{"a": "}]\\"}"#.to_string()),
            (55, "items[]".into(), "12".into()),
            (59, "items[]".into(), r#""s""#.into()),
            (64, "items[]".into(), "[1, [2]]".into()),
            (74, "oversize".into(), "114".into()),
        ];
        for chunk in [1, 2, 7, input.len()] {
            assert_eq!(
                units(Split::Records(steps.clone()), input, chunk),
                expected,
                "chunks of {chunk}"
            );
        }
    }

    #[test]
    fn runs_of_whitespace_across_chunks_read_as_one_chunk_reads_them() {
        let input = b"{ \"kind\" :\t\"List\" ,\r\n  \"items\" :  [\n    {\n      \"a\" : 1 ,\n      \"b\" : [ 1 ,  2 ]\n    } ,\n    7   ,\n  \"s \"  ,   null\n  ]  ,\n  \"n\" :  {  }  \n}\n  \n";
        let steps = vec![Step::Key("items".into()), Step::Each];
        for split in [Split::Records(steps), Split::Members] {
            let whole = units(split.clone(), input, input.len());
            assert!(whole.len() >= 3, "{whole:?}");
            for chunk in 1..=9 {
                assert_eq!(
                    units(split.clone(), input, chunk),
                    whole,
                    "chunks of {chunk}"
                );
            }
        }
        // An error after a run is still found where it is.
        let errors = units(Split::Members, b"{\"a\": 1,   \n   ]", 2);
        assert_eq!(
            errors,
            [
                (6, "a".to_string(), "1".to_string()),
                (
                    15,
                    "error".to_string(),
                    "expected a key, found ']'".to_string()
                )
            ]
        );
    }

    #[test]
    fn a_record_broken_by_a_stray_quote_is_skipped_alone_in_any_chunking() {
        // The quote after `a` ends no string, and the one after `b` is not an opening
        // one; both records after it are read. (Offsets as Python's bytes.index gives.)
        let input =
            b"[{\"a\": 1},\n {\"s\": \"a\"b\", \"t\": [\"]\"]},\n {\"a\": 2},\n {\"a\": 3}]";
        let expected = vec![
            (1, "[]".to_string(), r#"{"a": 1}"#.to_string()),
            (
                21,
                "error".into(),
                "expected ',' or a closing bracket, found 'b': the record at byte 12 skipped"
                    .into(),
            ),
            (39, "[]".into(), r#"{"a": 2}"#.into()),
            (50, "[]".into(), r#"{"a": 3}"#.into()),
        ];
        for chunk in 1..=input.len() {
            let got = units(Split::Records(vec![Step::Each]), input, chunk);
            assert_eq!(got, expected, "chunk {chunk}");
        }
    }

    #[test]
    fn splits_a_document_into_members_and_reports_errors_where_they_are() {
        let input = br#"{"kind": "List", "items": [{"a": 1}, {"a": 2}], "n": null}"#;
        let pieces: Vec<String> = units(Split::Members, input, 3)
            .into_iter()
            .map(|u| format!("{}={}", u.1, u.2))
            .collect();
        assert_eq!(
            pieces,
            [
                "kind=\"List\"",
                r#"items[]={"a": 1}"#,
                r#"items[]={"a": 2}"#,
                "n=null"
            ]
        );
        let errors = units(Split::TopLevel, b"[1, 2} ", 1);
        assert_eq!(
            errors,
            [(
                5,
                "error".to_string(),
                "'}' closes an array opened at byte 0".to_string()
            )]
        );
        let errors = units(Split::TopLevel, b"{\"a\" 1}", 4);
        assert_eq!(
            errors,
            [(
                5,
                "error".to_string(),
                "expected ':', found '1'".to_string()
            )]
        );
        let truncated = units(Split::TopLevel, b"{\"a\": \"b", 4);
        assert_eq!(
            truncated,
            [(
                8,
                "error".to_string(),
                "input ends inside a string".to_string()
            )]
        );
    }
}
