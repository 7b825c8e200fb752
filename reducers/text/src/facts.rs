//! What a line says by itself, worked out ahead of the folding on [`Ahead`]'s threads:
//! its text as a terminal shows it (without ANSI codes, a progress bar's last state;
//! a `go test -json` event's output), severity, timestamp, masked tokens and whether it
//! matches `--grep`.
//!
//! [`Ahead`]: briefly_core::Ahead

use crate::gotest::{go_test_event, GoTestEvent};
use crate::severity::{self, Opens, Severity};
use briefly_core::{last_drawn, strip_ansi, Prepare, Record, Records};
use briefly_template::{container_prefix, timestamp_range, MaskedLine, Masker};
use regex::Regex;
use std::ops::Range;

/// Works out what a line says by itself ([`LineFacts`]); runs ahead of the folding.
#[derive(Clone)]
pub struct Facts {
    /// Masks as the miner does.
    masker: Masker,
    grep: Option<Regex>,
    /// Severities of a batch's lines, from one call ([`Prepare::prepare_batch`]).
    inspections: Vec<severity::Inspection>,
}

/// What a line says by itself, whatever came before it.
#[derive(Debug, Default)]
pub struct LineFacts {
    /// The line as a terminal shows it, when that differs: without its ANSI codes, and
    /// a line redrawn with carriage returns in its last state, or a worse one it drew
    /// over ([`drawn_state`]); a `go test -json` event's output line.
    pub(crate) stripped: Option<String>,
    /// It had ANSI codes.
    pub(crate) ansi: bool,
    /// It was redrawn with carriage returns.
    pub(crate) redrawn: bool,
    pub(crate) severity: Option<Severity>,
    pub(crate) opens: Option<Opens>,
    /// Where its timestamp is ([`timestamp_range`]).
    pub(crate) stamp: Option<Range<usize>>,
    /// Where its message starts, when a time or a container's name opens it
    /// ([`opening`]).
    pub(crate) message: Option<usize>,
    /// The container's name that opens it ([`container_prefix`]), when one does.
    pub(crate) source: Option<Range<usize>>,
    pub(crate) masked: MaskedLine,
    /// It matches `--grep` (or there is none).
    pub(crate) grep_match: bool,
    /// It holds a NUL byte: binary data, not text.
    pub(crate) nul: bool,
    /// It is a `go test -json` event ([`go_test_event`]): what it is to the folding.
    pub(crate) go_test_event: Option<EventLine>,
}

/// What a `go test -json` event's line is to the folding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EventLine {
    /// It carries an output line, read as the line (in [`LineFacts::stripped`]).
    Output,
    /// It carries none: there is nothing of it to fold. `failed`: it is a failure's
    /// (`fail`, `build-fail`).
    Bare { failed: bool },
}

impl Prepare for Facts {
    type Output = LineFacts;

    fn prepare(&mut self, record: &Record<'_>, out: &mut LineFacts) {
        match go_test_event(record.text) {
            Some(event) => self.read_event(event, out),
            None => {
                out.go_test_event = None;
                self.read_line(record.text, out);
            }
        }
    }

    /// A batch without ANSI codes, carriage returns or NUL bytes (nearly every one) has its lines'
    /// severities found in one call over the batch's text ([`severity::inspect_lines`]).
    fn prepare_batch(&mut self, records: Records<'_>, outs: &mut [LineFacts]) {
        let joined = records.joined();
        if memchr::memchr3(0x1b, b'\r', 0, joined.as_bytes()).is_some() {
            for (i, out) in outs.iter_mut().enumerate() {
                self.prepare(&records.get(i), out);
            }
            return;
        }
        let lines = (0..records.len()).map(|i| records.text_range(i));
        severity::inspect_lines(joined, lines, &mut self.inspections);
        for (i, out) in outs.iter_mut().enumerate() {
            let text = &joined[records.text_range(i)];
            if let Some(event) = go_test_event(text) {
                self.read_event(event, out);
                continue;
            }
            out.stripped = None;
            out.ansi = false;
            out.redrawn = false;
            out.nul = false;
            out.go_test_event = None;
            self.fill(text, self.inspections[i], out);
        }
    }
}

impl Facts {
    /// Facts for a miner with `config`, and `--grep`'s pattern.
    pub(crate) fn new(config: &briefly_template::Config, grep: Option<Regex>) -> Facts {
        Facts {
            masker: Masker::new(config),
            grep,
            inspections: Vec::new(),
        }
    }

    /// The facts of `text`, a line as it came or the output a `go test -json` event
    /// carried: as a terminal shows it, without ANSI codes, in its last drawn state.
    fn read_line(&mut self, text: &str, out: &mut LineFacts) {
        out.nul = memchr::memchr(0, text.as_bytes()).is_some();
        let stripped = strip_ansi(text, out.stripped.take());
        out.ansi = stripped.is_some();
        let unstyled = stripped.as_deref().unwrap_or(text);
        let last = drawn_state(unstyled).map(str::to_string);
        out.redrawn = last.is_some();
        let shown = last.or(stripped);
        let text = shown.as_deref().unwrap_or(text);
        self.fill(text, severity::inspect(text), out);
        out.stripped = shown;
    }

    /// The facts of a `go test -json` event: those of the output line it carries.
    fn read_event(&mut self, event: GoTestEvent, out: &mut LineFacts) {
        match event {
            GoTestEvent::Output(output) => {
                self.read_line(&output, out);
                if out.stripped.is_none() {
                    out.stripped = Some(output);
                }
                out.go_test_event = Some(EventLine::Output);
            }
            GoTestEvent::Bare { failed } => {
                out.stripped = None;
                out.go_test_event = Some(EventLine::Bare { failed });
            }
        }
    }

    /// The facts of a line (ANSI codes stripped) besides its stripped text, given its
    /// severity.
    fn fill(&mut self, text: &str, inspection: severity::Inspection, out: &mut LineFacts) {
        out.stamp = timestamp_range(text);
        (out.source, out.message) = opening(text, out.stamp.as_ref());
        (out.severity, out.opens) = graded(text, out.message, inspection);
        self.masker.fill(text, &mut out.masked);
        out.grep_match = self.grep.as_ref().is_none_or(|re| re.is_match(text));
    }
}

/// The severity of `text`, and what it opens, given what [`severity::inspect`] found
/// in it (`inspection`) and where its message starts ([`opening`]): what a line's start
/// says is said at its message's, when its time comes first.
fn graded(
    text: &str,
    message: Option<usize>,
    inspection: severity::Inspection,
) -> (Option<Severity>, Option<Opens>) {
    let message = match message {
        Some(at) if at > 0 => Some(&text[at..]),
        _ => None,
    };
    let opening = message.map_or_else(severity::Inspection::default, severity::opening);
    let severity = match message.and_then(severity::checker_verdict) {
        // A memory checker's own words outrank the line's (valgrind's `ERROR SUMMARY:
        // 0 errors` is none).
        Some(verdict) => verdict,
        None => inspection.severity.max(opening.severity),
    };
    (severity, inspection.opens.or(opening.opens))
}

/// The severity of a line as its record's first line has it ([`LineFacts::severity`]):
/// for a line read apart from the others (the input's first and last).
pub(crate) fn line_severity(text: &str) -> Option<Severity> {
    let (_, message) = opening(text, timestamp_range(text).as_ref());
    graded(text, message, severity::inspect(text)).0
}

/// The state of a line redrawn with carriage returns (a progress bar) to read and show
/// it by: its last ([`last_drawn`]), unless one it drew over was worse (`Progress
/// 10%\rERROR: disk full\rProgress 100%`: the error happened, whatever the bar wrote over
/// it), then the first of the worst. `None` when the line was not redrawn.
///
/// ```
/// use briefly_text::drawn_state;
/// assert_eq!(drawn_state("get 10%\rget 100%"), Some("get 100%"));
/// assert_eq!(drawn_state("10%\rERROR: disk full\r100%"), Some("ERROR: disk full"));
/// assert_eq!(drawn_state("plain"), None);
/// ```
pub fn drawn_state(line: &str) -> Option<&str> {
    let last = last_drawn(line)?;
    let mut worst = (last, severity::classify(last));
    for state in line.split('\r') {
        let level = severity::classify(state);
        if level > worst.1 {
            worst = (state, level);
        }
    }
    Some(worst.0)
}

/// The message of `line` ([`opening`]), or all of it when nothing opens it.
pub(crate) fn message(line: &str) -> &str {
    match opening(line, timestamp_range(line).as_ref()) {
        (_, Some(at)) => &line[at..],
        (_, None) => line,
    }
}

/// How `text`, whose timestamp is at `stamp`, opens, in a log that puts the same prefix
/// on each of its lines: the container's name that opens it, and where its message
/// starts, after that name and after a time that opens what is left ([`message_start`]).
/// docker compose and `kubectl logs --prefix` name the container (`web-1  | `,
/// `[pod/web-0/app] `), so their lines are read by their messages too, and a record is
/// one container's. A line whose time comes later in it has no message apart: a line
/// with a time of its own starts a record.
pub(crate) fn opening(
    text: &str,
    stamp: Option<&Range<usize>>,
) -> (Option<Range<usize>>, Option<usize>) {
    // A container's name and its bar take four bytes at least (`a | `): a line whose
    // time comes before has none.
    let source = match stamp {
        Some(stamp) if stamp.start < "a | ".len() => None,
        _ => container_prefix(text),
    };
    let from = source.as_ref().map_or(0, |(_, message)| *message);
    let message = match stamp {
        Some(stamp) => message_start(text, from, stamp),
        None => source.as_ref().map(|(_, message)| *message),
    };
    match (source, message, stamp) {
        // journalctl's and syslog's host and tag after the time: the process is the
        // line's source, as a container's name is, and its message follows them.
        (None, Some(at), Some(stamp)) if is_syslog_time(&text.as_bytes()[stamp.clone()]) => {
            match syslog_tag_len(&text[at..]) {
                Some(len) => (Some(at..at + len - ": ".len()), Some(at + len)),
                None => (None, Some(at)),
            }
        }
        // logcat's process, thread, level and tag, after its time or opening the line
        // (`-v brief`): a crash's lines are one record of its process's tag.
        (None, at, stamp) => match logcat_prefix(&text[at.unwrap_or(0)..]) {
            Some((source, message)) => {
                let at = at.unwrap_or(0);
                (Some(at + source.start..at + source.end), Some(at + message))
            }
            None => (None, at.or_else(|| ruby_logger_message(text, stamp?))),
        },
        (source, message, _) => (source.map(|(name, _)| name), message),
    }
}

/// Where the message starts in a line of Ruby's logger, whose time is at `stamp`: after
/// its level's letter and time, the process id, the level and the program's name (`F,
/// [2026-12-07T12:02:50.200001 #121] FATAL -- : `, `I, [… #121]  INFO -- sidekiq: `).
fn ruby_logger_message(text: &str, stamp: &Range<usize>) -> Option<usize> {
    // The level padded to 5, the program's name: both short.
    const HEAD: usize = 80;
    let b = text.as_bytes();
    let opens = stamp.start == "F, [".len()
        && matches!(
            b,
            [
                b'D' | b'I' | b'W' | b'E' | b'F' | b'A',
                b',',
                b' ',
                b'[',
                ..
            ]
        );
    if !opens {
        return None;
    }
    // (Its time's bracket closes after the process id.)
    let close = stamp.end + memchr::memchr(b']', &b[stamp.end..])?;
    let head = &b[close..b.len().min(close + HEAD)];
    let level = memchr::memmem::find(head, b" -- ")?;
    let name = memchr::memmem::find(&head[level..], b": ")?;
    Some(close + level + name + ": ".len())
}

/// logcat's columns opening `rest`, as `adb logcat` writes them after its time: by
/// default (`-v threadtime`) the process and thread ids, the level's letter and the tag
/// (`  5120  5120 E AndroidRuntime: `), or the level, tag and process id (`-v time`,
/// `-v brief`: `E/AndroidRuntime( 5120): `). Returns where the columns are, the
/// source (from the first id or the level to the tag's end), and where the message
/// starts (after `: `); `None` when `rest` opens otherwise.
fn logcat_prefix(rest: &str) -> Option<(Range<usize>, usize)> {
    const LEVELS: &[u8] = b"VDIWEFA";
    // A tag is short, and read in lines that open otherwise only as far as their
    // first bytes.
    const HEAD: usize = 128;
    let b = &rest.as_bytes()[..rest.len().min(HEAD)];
    let spaces = |from: usize| {
        b[from.min(b.len())..]
            .iter()
            .take_while(|&&c| c == b' ')
            .count()
    };
    let digits = |from: usize| {
        b[from.min(b.len())..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count()
    };
    // `-v time`'s and `-v brief`'s `E/Tag( 5120): `.
    if let Some(close) = severity::logcat_brief_close(b) {
        let tagged = b[close..].starts_with(b"): ");
        return tagged.then_some((0..close + 1, close + "): ".len()));
    }
    // `-v threadtime`'s `  5120  5120 E Tag     : `. (Nearly every line is ruled out
    // by its first byte.)
    if !matches!(b.first(), Some(b' ' | b'0'..=b'9')) {
        return None;
    }
    let pid_at = spaces(0);
    let pid = digits(pid_at);
    let tid_at = pid_at + pid + spaces(pid_at + pid);
    let tid = digits(tid_at);
    let level_at = tid_at + tid + 1;
    let columns = pid > 0
        && tid > 0
        && tid_at > pid_at + pid
        && b.get(level_at - 1) == Some(&b' ')
        && b.get(level_at).is_some_and(|c| LEVELS.contains(c))
        && b.get(level_at + 1) == Some(&b' ');
    if !columns {
        return None;
    }
    let tag_at = level_at + 2;
    let colon = tag_at + memchr::memchr(b':', &b[tag_at..])?;
    let tag = b[tag_at..colon].trim_ascii_end();
    let tagged = !tag.is_empty()
        && !tag[0].is_ascii_whitespace()
        && (colon + 1 == rest.len() || b.get(colon + 1) == Some(&b' '));
    tagged.then(|| {
        let message = (colon + ": ".len()).min(rest.len());
        (pid_at..tag_at + tag.len(), message)
    })
}

/// Whether `stamp` is a time as syslog and journalctl write one: by month first (`Dec
/// 06 10:05:00`) or weekday first (`-o short-full`'s `Sun 2026-12-06 10:05:00 UTC`), or
/// with its zone as an offset (`2026-12-06T10:05:00+0000`, rsyslog's `…+00:00`).
/// Applications' own logs mostly write `Z` or no zone: their lines are not looked at for
/// a tag.
fn is_syslog_time(stamp: &[u8]) -> bool {
    let (Some(first), Some(last)) = (stamp.first(), stamp.last()) else {
        return false;
    };
    // (A `Z` rules out nearly every application's stamped line at its last byte.)
    if first.is_ascii_alphabetic() {
        return true;
    }
    if !last.is_ascii_digit() {
        return false;
    }
    let digits = |b: &[u8]| b.iter().all(u8::is_ascii_digit);
    match stamp {
        [.., b'+' | b'-', h1, h2, m1, m2] => digits(&[*h1, *h2, *m1, *m2]),
        [.., b'+' | b'-', h1, h2, b':', m1, m2] => digits(&[*h1, *h2, *m1, *m2]),
        _ => false,
    }
}

/// The length of syslog's host and tag opening `rest` with the space after them, `web1
/// shop[812]: ` (as journalctl and rsyslog write a line after its time), or of the
/// kernel's, `web1 kernel: `; `None` when `rest` opens with neither.
fn syslog_tag_len(rest: &str) -> Option<usize> {
    let bytes = rest.as_bytes();
    // Read at nearly every line's start: memchr keeps it to a few instructions there.
    let host = memchr::memchr(b' ', bytes)?;
    let tag = &bytes[host + 1..];
    if host == 0 || tag.first().is_none_or(|&b| b == b' ' || b == b'[') {
        return None;
    }
    if tag.starts_with(b"kernel: ") {
        return Some(host + 1 + "kernel: ".len());
    }
    let open = memchr::memchr2(b'[', b' ', tag)?;
    if tag[open] != b'[' {
        return None;
    }
    let pid = (tag[open + 1..].iter())
        .take_while(|b| b.is_ascii_digit())
        .count();
    let close = open + 1 + pid;
    let tagged = pid > 0 && tag[close..].starts_with(b"]: ");
    tagged.then_some(host + 1 + close + "]: ".len())
}

/// Where the message of `text` starts when its timestamp, at `stamp`, opens it, read from
/// `from` on: after the time and the space that follows it (`2024-01-05T10:00:02Z  -->
/// src/main.rs:4:18` has the message ` --> src/main.rs:4:18`). A log that stamps every
/// line (GitHub Actions, `kubectl logs --timestamps`, `docker logs -t`) has its records'
/// lines read by their messages. A time in brackets (`[2024-01-05 10:00:00] `) opens a
/// line too, and so does one after `gh run view --log`'s job and step columns, each
/// ending in a tab.
fn message_start(text: &str, from: usize, stamp: &Range<usize>) -> Option<usize> {
    if stamp.start < from {
        return None;
    }
    // A byte-order mark opens a file, and each step's log in gh's.
    let before = match stamp.start - from {
        0 => "",
        _ => text[from..stamp.start].trim_matches('\u{feff}'),
    };
    let bracketed = before == "[";
    let columns = before.ends_with('\t') && !before.starts_with([' ', '\t']);
    if !(before.is_empty() || bracketed || columns) {
        return None;
    }
    let after = &text.as_bytes()[stamp.end..];
    // A zone's name may close the bracket (PHP's `[07-Dec-2026 12:00:09 UTC] `, or
    // its `date.timezone`'s, `Europe/Berlin`, `America/New_York`).
    let zone = match after {
        [b' ', first, rest @ ..] if bracketed && first.is_ascii_uppercase() => {
            let name = rest
                .iter()
                .take_while(|&&b| b.is_ascii_alphabetic() || b == b'/' || b == b'_')
                .count();
            match name < 32 {
                true => 2 + name,
                false => 0,
            }
        }
        _ => 0,
    };
    if bracketed && after.get(zone) != Some(&b']') {
        return None;
    }
    let close = zone + usize::from(bracketed);
    match after.get(close) {
        None => Some(text.len()),
        Some(b' ' | b'\t') => Some(stamp.end + close + 1),
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{message, opening};
    use briefly_template::timestamp_range;

    #[test]
    fn syslogs_tag_names_a_lines_source() {
        let source = |line: &str| {
            let (source, _) = opening(line, timestamp_range(line).as_ref());
            source.map(|range| line[range].to_string())
        };
        let tagged = "Dec 06 10:05:00 web1 shop[812]: Traceback (most recent call last):";
        assert_eq!(source(tagged).as_deref(), Some("web1 shop[812]"));
        assert_eq!(
            source("Dec 06 10:05:00 web1 kernel: oom").as_deref(),
            Some("web1 kernel")
        );
        assert_eq!(source("2024-01-05 10:00:00 worker retry: x"), None);
        assert_eq!(
            source("12-07 12:00:45.771  5120  5120 E AndroidRuntime: FATAL").as_deref(),
            Some("5120  5120 E AndroidRuntime")
        );
        assert_eq!(
            source("12-07 12:00:45.771  5120  5122 D OkHttp  : x").as_deref(),
            Some("5120  5122 D OkHttp")
        );
        assert_eq!(
            source("E/AndroidRuntime( 5120): FATAL").as_deref(),
            Some("E/AndroidRuntime( 5120)")
        );
        // A container's name stays the source.
        assert_eq!(
            source("web-1  | 2024-01-05 10:00:00 web1 shop[812]: x").as_deref(),
            Some("web-1")
        );
    }

    #[test]
    fn a_redrawn_line_is_read_in_its_last_state_unless_one_drawn_over_was_worse() {
        for (line, state) in [
            ("get 10%\rget 100%", "get 100%"),
            (
                "Progress 10%\rERROR: disk full\rProgress 100%",
                "ERROR: disk full",
            ),
            ("WARN: slow\rERROR: gone\rWARN: slow again", "ERROR: gone"),
            ("ERROR: a\rERROR: b", "ERROR: b"),
        ] {
            assert_eq!(super::drawn_state(line), Some(state), "{line:?}");
        }
    }

    #[test]
    fn a_message_follows_a_time_that_opens_its_line() {
        for (line, expected) in [
            (
                "2024-01-05T10:00:02Z  --> src/main.rs:4:18",
                " --> src/main.rs:4:18",
            ),
            ("[2024-01-05 10:00:00] up", "up"),
            (
                "[07-Dec-2026 12:00:09 UTC] PHP Deprecated:  x",
                "PHP Deprecated:  x",
            ),
            (
                "[07-Dec-2026 12:00:09 America/New_York] PHP Deprecated:  x",
                "PHP Deprecated:  x",
            ),
            ("\u{feff}2024-01-05 10:00:00 first", "first"),
            ("2024-01-05 10:00:00", ""),
            ("2024-01-05 10:00:00\tx", "x"),
            ("build\tRun tests\t2024-01-05T10:00:02Z x", "x"),
            ("build\t\u{feff}2024-01-05T10:00:02Z x", "x"),
            // docker compose's container names, with or without a time after them.
            ("web-1  | 2024-01-05 10:00:00 ERROR boom", "ERROR boom"),
            (
                "web-1  |   File \"a.py\", line 1",
                "  File \"a.py\", line 1",
            ),
            ("db_1 | x", "x"),
            ("web-1  |", ""),
            ("web-1  | [pid 3] no time read", "[pid 3] no time read"),
            ("0|api  | pm2's", "pm2's"),
            // journalctl's (and rsyslog's) host and tag after the time.
            (
                "Dec 06 10:05:00 web1 shop[812]:   File \"a.py\", line 1",
                "  File \"a.py\", line 1",
            ),
            (
                "2026-12-06T10:05:00+0000 web1 kernel: Out of memory: Killed process 7",
                "Out of memory: Killed process 7",
            ),
            (
                "Jun 14 15:16:01 combo sshd(pam_unix)[19939]: check pass",
                "check pass",
            ),
            // No tag: a word and a colon are the message's.
            ("2024-01-05 10:00:00 worker retry: x", "worker retry: x"),
            ("2024-01-05 10:00:00 worker [12]: x", "worker [12]: x"),
            ("2024-01-05 10:00:00 web1 app[12] x", "web1 app[12] x"),
            ("Dec 06 10:00:00 web1 app[]: x", "web1 app[]: x"),
            ("Dec 06 10:00:00 web1 app 7: x", "web1 app 7: x"),
            ("2026-12-06T10:05:00.123+00:00 web1 shop[812]: x", "x"),
            // journalctl's `-o short-full` and `-o with-unit`.
            ("Sun 2026-12-06 10:05:00 UTC web1 shop[812]: x", "x"),
            ("Sun 2026-12-06 10:05:00 CET web1 shop.service[812]: x", "x"),
            ("Sun 2026-12-06 10:05:00 +03 web1 shop[812]: x", "x"),
            // An application's own time (`Z`, no zone): its words are its message's.
            (
                "2026-12-06T10:05:00Z web1 shop[812]: x",
                "web1 shop[812]: x",
            ),
            ("2026-12-06 10:05:00 web1 shop[812]: x", "web1 shop[812]: x"),
            // logcat's columns, by default and `-v time`, and `-v brief`'s alone.
            (
                "12-07 12:00:45.771  5120  5120 E AndroidRuntime: \tat a.B.c(B.java:3)",
                "\tat a.B.c(B.java:3)",
            ),
            (
                "12-07 12:00:00.053  5120  5122 D OkHttp  : <-- 200",
                "<-- 200",
            ),
            ("12-07 12:00:00.053 12345 12346 I Tag: x", "x"),
            ("12-07 12:00:00.053  5120  5122 W Tag:", ""),
            ("12-07 12:00:45.771 E/AndroidRuntime( 5120): FATAL", "FATAL"),
            (
                "E/AndroidRuntime( 5120): \tat a.B.c(B.java:3)",
                "\tat a.B.c(B.java:3)",
            ),
            ("W/System.err(12345): x", "x"),
            // Ruby's logger's, after its level, time, process, level and program.
            (
                "F, [2026-12-07T12:02:50.200001 #121] FATAL -- : [04d3] x",
                "[04d3] x",
            ),
            (
                "I, [2026-12-07T12:02:50.200001 #121]  INFO -- sidekiq: start",
                "start",
            ),
            // Not logcat's.
            (
                "12-07 12:00:00.053  5120  5122 X Tag: x",
                " 5120  5122 X Tag: x",
            ),
            ("12-07 12:00:00.053 5120 E Tag: x", "5120 E Tag: x"),
            (
                "12-07 12:00:00.053  5120  5122 E Tag x",
                " 5120  5122 E Tag x",
            ),
            ("12-07 12:00:00.053 E/Tag: x", "E/Tag: x"),
        ] {
            assert_eq!(message(line), expected, "{line:?}");
        }
        // No time, a time elsewhere in the line, an indented line, a time glued to what
        // follows: the whole line is the message.
        for line in [
            "no time",
            r#"10.0.0.1 - - [10/Oct/2000:13:55:36 +0200] "GET / HTTP/1.1" 200 5"#,
            r#"{"ts":"2024-01-05T10:00:01Z","msg":"x"}"#,
            "  2024-01-05 10:00:00 frame",
            "\t2024-01-05 10:00:00 frame",
            "[2024-01-05 10:00:00]x",
            "[07-Dec-2026 12:00:09 UTC]x",
            "[07-Dec-2026 12:00:09 utc] x",
            "[07-Dec-2026 12:00:09 UTC+1] x",
            "[07-Dec-2026 12:00:09 Processing_all_of_the_queued_items] x",
            "2024-01-05 10:00:00,x",
            "a || b",
            "| a | b |",
            "web-1  |x",
            "I/O error: disk",
            "E/Tag(pid): x",
            "E/(12): x",
            "X, [2026-12-07T12:02:50.200001 #121] FATAL -- : x",
            "F, [2026-12-07T12:02:50.200001 #121] FATAL: x",
        ] {
            assert_eq!(message(line), line, "{line:?}");
        }
    }
}
