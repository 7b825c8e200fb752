//! Reading a json-file line ahead of the folding, on [`Ahead`]'s threads: the fast path
//! for the driver's own layout, and what the line's payload says.
//!
//! [`Ahead`]: briefly_core::Ahead

use super::MAX_JOINED;
use crate::find;
use crate::payload;
use crate::time::parse_rfc3339_micros;
use briefly_core::{strip_ansi, Prepare, Record};
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
        let at = i + find::quote_or_backslash(&b[i..])?;
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
    let len = find::quote_or_backslash(&line.as_bytes()[start..])?;
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
    masker: Masker,
    /// Reads JSON and logfmt payloads.
    payloads: payload::Reader,
    /// Scratch: a line's plain payload, copied out of the facts it fills.
    plain: String,
    /// Scratch: a log's buffer, swapped with the log without its ANSI codes.
    stripped: Option<String>,
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
    /// `log` had ANSI escape codes: they were stripped from it.
    pub(super) ansi: bool,
}

impl Prepare for Facts {
    type Output = LineFacts;

    fn prepare(&mut self, record: &Record<'_>, out: &mut LineFacts) {
        if let Some(len) = self.read(record, out) {
            self.plain.clear();
            self.plain.push_str(&out.log[..len]);
            let inspection = briefly_severity::inspect(&self.plain);
            fill(
                &mut self.masker,
                payload::plain(&self.plain, inspection),
                out,
            );
        }
    }
}

impl Facts {
    /// Facts that mask as a miner with `config` does.
    pub(super) fn new(config: &briefly_template::Config) -> Facts {
        Facts {
            masker: Masker::new(config),
            payloads: payload::Reader::default(),
            plain: String::new(),
            stripped: None,
        }
    }

    /// Reads `record` by the fast path into `out`, and fills in what its payload says
    /// when it is JSON or logfmt. When a whole record's payload is plain text, returns
    /// its length in `out.log` (without the final `\n`, and a `\r` before it): its
    /// severity is still to be found.
    fn read(&mut self, record: &Record<'_>, out: &mut LineFacts) -> Option<usize> {
        let text = record.text;
        let Some((stream, time)) = fast_json_file(text, &mut out.log) else {
            out.read = false;
            return None;
        };
        out.read = true;
        out.micros = parse_rfc3339_micros(&text[time.clone()]);
        (out.stream, out.time) = (stream, time);
        // A record the driver split (no `\n`) is joined first: read when whole.
        if !out.log.ends_with('\n') {
            out.ansi = false;
            out.masked_ok = false;
            return None;
        }
        // Colour codes are no part of what the line says (`\x1b[31mERROR`). The `\n` is
        // kept apart: a code cut short at the end would take it.
        let body = &out.log[..out.log.len() - 1];
        out.ansi = match strip_ansi(body, self.stripped.take()) {
            Some(mut stripped) => {
                stripped.push('\n');
                self.stripped = Some(std::mem::replace(&mut out.log, stripped));
                true
            }
            None => false,
        };
        let log = out.log.strip_suffix('\n').expect("checked above");
        let len = log.strip_suffix('\r').unwrap_or(log).len();
        // The payload may borrow the log while `fill` writes the rest of `out`.
        let log = std::mem::take(&mut out.log);
        let plain = match self.payloads.read_structured(&log[..len]) {
            Some(read) => {
                fill(&mut self.masker, read, out);
                false
            }
            None => true,
        };
        out.log = log;
        plain.then_some(len)
    }
}

/// Fills in what a whole record's payload says, and masks its message with `masker`.
fn fill(masker: &mut Masker, read: payload::Payload<'_>, out: &mut LineFacts) {
    out.severity = read.severity;
    out.opens = read.opens;
    out.structured = read.structured;
    out.message.clear();
    out.message
        .push_str(briefly_core::head_bytes(&read.message, MAX_JOINED));
    out.masked_ok = find::newline(out.message.as_bytes()).is_none();
    if out.masked_ok {
        masker.fill(out.message.trim_end_matches('\r'), &mut out.masked);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use briefly_core::testkit::assert_batch_prepares_as_each;

    #[test]
    fn a_batch_is_prepared_as_its_lines_one_by_one() {
        let lines = [
            r#"{"log":"2026-11-29T12:00:00Z INFO worker-1 took 3ms\n","stream":"stdout","time":"2026-11-29T12:00:00.1Z"}"#,
            r#"{"log":"{\"level\":\"error\",\"msg\":\"db down\",\"n\":1}\n","stream":"stderr","time":"2026-11-29T12:00:01Z"}"#,
            r#"{"log":"level=warn msg=\"disk at 91%\" disk=sda\n","stream":"stdout","time":"2026-11-29T12:00:02Z"}"#,
            r#"{"log":"Traceback (most recent call last):\n","stream":"stderr","time":"2026-11-29T12:00:03Z"}"#,
            r#"{"log":"process exited with code 137 \r\n","stream":"stderr","time":"2026-11-29T12:00:04Z"}"#,
            r#"{"log":"a partial record without its newline","stream":"stdout","time":"2026-11-29T12:00:05Z"}"#,
            r#"{"log":"ERR","stream":"stdout","time":"2026-11-29T12:00:06Z"}"#,
            r#"{"log":"OR split over two entries\n","stream":"stdout","time":"2026-11-29T12:00:07Z"}"#,
            r#"{"log":"two\nlines in one entry, WARN: the second\n","stream":"stdout","time":"bad"}"#,
            r#"{"log":"escaped \u00e9 é ERROR\n","stream":"stdout","time":"2026-11-29T12:00:08Z"}"#,
            r#"{"log":"\n","stream":"stdout","time":"2026-11-29T12:00:09Z"}"#,
            "not json at all ERROR",
            r#"{"stream":"stdout","log":"fields in another order\n","time":"2026-11-29T12:00:10Z"}"#,
        ];
        let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
        let config = briefly_template::Config::default();
        assert_batch_prepares_as_each(|| Facts::new(&config), &input);
    }
}
