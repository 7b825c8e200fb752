//! Reading a json-file line ahead of the folding, on [`Ahead`]'s threads: the fast path
//! for the driver's own layout, and what the line's payload says.
//!
//! [`Ahead`]: briefly_core::Ahead

use super::MAX_JOINED;
use crate::payload;
use crate::time::parse_rfc3339_micros;
use briefly_core::{Prepare, Record};
use briefly_severity::{Opens, Severity};
use briefly_template::{MaskedLine, Masker};
use std::ops::Range;

/// A json-file driver line as the driver writes it, `{"log":"…","stream":"…","time":"…"}`
/// in that order and nothing more, read without serde: `log` unescaped into `log`, and
/// where `stream` and `time` are in `line` returned. `None` for anything else (`attrs`,
/// another order, an escape it does not know), which serde then reads.
pub(super) fn fast_json_file(line: &str, log: &mut String) -> Option<(Range<usize>, Range<usize>)> {
    const LOG: &str = r#"{"log":""#;
    let rest = line.strip_prefix(LOG)?;
    log.clear();
    let b = rest.as_bytes();
    let mut i = 0;
    loop {
        let at = i + memchr::memchr2(b'"', b'\\', &b[i..])?;
        log.push_str(&rest[i..at]);
        if b[at] == b'"' {
            i = at + 1;
            break;
        }
        let (c, used) = unescape(&rest[at..])?;
        log.push(c);
        i = at + used;
    }
    let stream = string_after(line, LOG.len() + i, r#","stream":""#)?;
    let time = string_after(line, stream.end, r#"","time":""#)?;
    (&line[time.end..] == "\"}").then_some((stream, time))
}

/// Where the string without escapes that follows `prefix` at `at` in `line` is, up to
/// its closing quote.
fn string_after(line: &str, at: usize, prefix: &str) -> Option<Range<usize>> {
    let start = at + prefix.len();
    if line.get(at..start)? != prefix {
        return None;
    }
    let len = memchr::memchr2(b'"', b'\\', &line.as_bytes()[start..])?;
    // A backslash: an escape, left to serde.
    (line.as_bytes()[start + len] == b'"').then_some(start..start + len)
}

/// The character a JSON escape at the start of `text` stands for, and its length.
fn unescape(text: &str) -> Option<(char, usize)> {
    let b = text.as_bytes();
    let c = match *b.get(1)? {
        b'n' => '\n',
        b't' => '\t',
        b'r' => '\r',
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'u' => {
            let high = u32::from_str_radix(text.get(2..6)?, 16).ok()?;
            if (0xD800..0xDC00).contains(&high) {
                if text.get(6..8)? != "\\u" {
                    return None;
                }
                let low = u32::from_str_radix(text.get(8..12)?, 16).ok()?;
                if !(0xDC00..0xE000).contains(&low) {
                    return None;
                }
                let c = char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))?;
                return Some((c, 12));
            }
            return Some((char::from_u32(high)?, 6));
        }
        _ => return None,
    };
    Some((c, 2))
}

/// Reads what a json-file line says by itself ([`LineFacts`]); runs ahead of the folding.
#[derive(Clone)]
pub struct Facts {
    /// Masks as the fold's miner does.
    pub(super) masker: Masker,
}

/// What a json-file line says by itself, when the fast path reads it.
#[derive(Debug, Default)]
pub struct LineFacts {
    /// The fast path read it: the fields below are set.
    pub(super) read: bool,
    /// `log`, unescaped.
    pub(super) log: String,
    /// Where `stream` and `time` are in the line.
    pub(super) stream: Range<usize>,
    pub(super) time: Range<usize>,
    /// For a whole record (`log` ends its line): its time, and what its payload says.
    pub(super) micros: Option<i64>,
    pub(super) severity: Option<Severity>,
    pub(super) opens: Option<Opens>,
    pub(super) structured: bool,
    /// The message, at most [`MAX_JOINED`] bytes.
    pub(super) message: String,
    /// The message masked for the miner, when it is one line.
    pub(super) masked: MaskedLine,
    pub(super) masked_ok: bool,
}

impl Prepare for Facts {
    type Output = LineFacts;

    fn prepare(&mut self, record: &Record<'_>, out: &mut LineFacts) {
        let text = record.text;
        let Some((stream, time)) = fast_json_file(text, &mut out.log) else {
            out.read = false;
            return;
        };
        out.read = true;
        out.micros = parse_rfc3339_micros(&text[time.clone()]);
        (out.stream, out.time) = (stream, time);
        // A record the driver split (no `\n`) is joined first: read when whole.
        let Some(log) = out.log.strip_suffix('\n') else {
            out.masked_ok = false;
            return;
        };
        let log = log.strip_suffix('\r').unwrap_or(log);
        let read = payload::read(log);
        out.severity = read.severity;
        out.opens = read.opens;
        out.structured = read.structured;
        out.message.clear();
        out.message
            .push_str(briefly_core::head_bytes(&read.message, MAX_JOINED));
        out.masked_ok = memchr::memchr(b'\n', out.message.as_bytes()).is_none();
        if out.masked_ok {
            self.masker
                .fill(out.message.trim_end_matches('\r'), &mut out.masked);
        }
    }
}
