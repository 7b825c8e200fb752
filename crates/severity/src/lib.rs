//! Severity recognized across common log formats, as a ranking signal: stated levels
//! (`ERROR`, `level=warn`, `[error]`, `E1129`), exception and error names, and signals
//! such as tracebacks, panics, OOM kills, segfaults, non-zero exit reports, make's
//! failures, systemd's reports of failed units, an access log's server errors (a status
//! of 5xx), and what a terminal shows of a failed command (`--- FAIL:`, `Killed`,
//! `command not found`, `No such file or directory`).
//!
//! One engine for every reducer: `spill` marks error-looking lines with it, `text` ranks
//! records by it. Which lines make up one record (a traceback and its frames, a panic
//! and its backtrace) is [`multiline`]'s, shared by `text` and `docker`.

mod checkers;
mod kept;
pub mod multiline;
pub mod verdict;

pub use kept::KeptLevels;
pub use multiline::in_go_trace;
use multiline::TRACEBACK;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::Range;
use std::str::FromStr;

/// How bad a line says it is. Ordered: `Trace < … < Fatal`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// TRACE, V (verbose).
    Trace,
    /// DEBUG, D.
    Debug,
    /// INFO, NOTICE, I.
    Info,
    /// WARN, WARNING, W, systemd's `Failed with result`, `Dependency failed for` and `Start
    /// request repeated too quickly`, `npm warn`.
    Warn,
    /// ERROR, ERR, E, exceptions, tracebacks, panics, OOM kills, non-zero exits, make
    /// failures, systemd's `Failed to start`, failed tests, the shell's and system
    /// calls' errors.
    Error,
    /// FATAL, CRITICAL, PANIC, SEVERE, EMERG, ALERT, F, segfaults, kernel panics, core
    /// dumps, Go's `panic:` and `fatal error:`.
    Fatal,
}

impl Severity {
    /// Every severity, lowest first.
    pub const ALL: [Severity; 6] = [
        Severity::Trace,
        Severity::Debug,
        Severity::Info,
        Severity::Warn,
        Severity::Error,
        Severity::Fatal,
    ];

    /// The lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Trace => "trace",
            Severity::Debug => "debug",
            Severity::Info => "info",
            Severity::Warn => "warn",
            Severity::Error => "error",
            Severity::Fatal => "fatal",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Severity {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        level_word(s.as_bytes())
            .ok_or_else(|| format!("unknown level {s:?} (trace, debug, info, warn, error, fatal)"))
    }
}

/// The words that name a level, in lower case, with the level each names (Serilog's
/// three letters among them, `[VRB]`, `[WRN]`, `[FTL]`; not `INF`, which says infinity
/// as often).
const LEVEL_WORDS: [(&str, Severity); 27] = [
    ("trace", Severity::Trace),
    // log15's (Go: geth's `EROR[03-01|10:00:00.000]`, `lvl=eror`).
    ("trce", Severity::Trace),
    ("dbug", Severity::Debug),
    ("eror", Severity::Error),
    ("verbose", Severity::Trace),
    ("vrb", Severity::Trace),
    ("debug", Severity::Debug),
    ("dbg", Severity::Debug),
    ("info", Severity::Info),
    ("wrn", Severity::Warn),
    ("ftl", Severity::Fatal),
    ("notice", Severity::Info),
    ("information", Severity::Info),
    ("warn", Severity::Warn),
    ("warning", Severity::Warn),
    ("warnings", Severity::Warn),
    ("error", Severity::Error),
    ("err", Severity::Error),
    ("errors", Severity::Error),
    ("fatal", Severity::Fatal),
    ("critical", Severity::Fatal),
    ("crit", Severity::Fatal),
    ("panic", Severity::Fatal),
    ("severe", Severity::Fatal),
    ("emerg", Severity::Fatal),
    ("emergency", Severity::Fatal),
    ("alert", Severity::Fatal),
];

/// A word's bytes as one number, each with bit 5 set: that lowers a letter, and makes no
/// other byte a lower-case letter. 0 for a word longer than any level word.
const fn packed(word: &[u8]) -> u128 {
    if word.len() > 16 {
        return 0;
    }
    let mut key = 0;
    let mut i = 0;
    while i < word.len() {
        key |= ((word[i] | 0x20) as u128) << (8 * i);
        i += 1;
    }
    key
}

/// [`LEVEL_WORDS`], packed: a word is matched as one number.
const PACKED_LEVEL_WORDS: [(u128, Severity); LEVEL_WORDS.len()] = {
    let mut out = [(0, Severity::Trace); LEVEL_WORDS.len()];
    let mut i = 0;
    while i < out.len() {
        out[i] = (packed(LEVEL_WORDS[i].0.as_bytes()), LEVEL_WORDS[i].1);
        i += 1;
    }
    out
};

/// The level a word names, in any case: `error`, `WARNING`, `Crit`, …
fn level_word(word: &[u8]) -> Option<Severity> {
    let key = packed(word);
    PACKED_LEVEL_WORDS
        .iter()
        .find(|&&(level_key, _)| level_key == key)
        .map(|&(_, level)| level)
}

fn letter_level(letter: u8) -> Option<Severity> {
    Some(match letter {
        b'V' => Severity::Trace,
        b'D' => Severity::Debug,
        b'I' => Severity::Info,
        b'W' => Severity::Warn,
        b'E' => Severity::Error,
        b'F' => Severity::Fatal,
        _ => return None,
    })
}

/// How many bytes of a line are searched for a level word: levels sit near the start.
const LEVEL_WINDOW: usize = 240;

/// How many bytes of a line are searched for a letter column.
const COLUMN_WINDOW: usize = 64;

/// The severity a line states or implies, if any.
///
/// A level word counts when it is written as a level: in capitals (`ERROR`), in brackets
/// or after `level=` (`[error]`, Apache's `[proxy:error]`, `level=warn`,
/// `"level":"error"`, pino's `"level": 50`), followed by a colon (`error:`, `Warning:`,
/// `error[E0308]:`) or by a compiler's code and a colon (tsc's `error TS2322:`, csc's
/// `error CS0103:`), capitalized in a table's column, before two spaces or a tab
/// (kubectl's `Warning  BackOff`, Windows' CBS log's `04:30:31, Error  CSI`), in
/// ESLint's table after a line and a column (`  12:5  error  …`), or in lower case right
/// after the line's time (zap's console `2024-12-07T08:26:40.000Z\terror\t…`, Node's
/// `[2024-12-07T08:26:40.000Z] info  …`); a lone capital letter
/// among the first words (`E1129`, logcat's ` E `) and syslog's priority opening a line
/// (`<3>`, `<34>Oct 11 …`) count too. The worst level stated counts (a line relayed in
/// another's, `[info] … [main] ERROR …`, is as bad as it says), but a word in lower case
/// before a colon after the first level is its message's prose (`INFO retrying after
/// error: timeout`, klog's `I1205 … sync error:`), unless it opens a line relayed right
/// after it (`INFO:app:error: …`); a level after its key (`level=info`,
/// `"level":"warn"`) is the line's, whatever the message says. A stated level outranks
/// an exception's name in the message (`INFO … KeeperException`); signals outrank both:
/// tracebacks, `Caused by:`,
/// Rust's `panicked at`, OOM kills, segfaults, non-zero exit reports,
/// make's `make: *** [all] Error 2`, systemd's `code=exited, status=1/FAILURE` and
/// `Failed to start`, the kernel's `I/O error`s, file system errors, machine checks and
/// hung tasks, Go's `panic:` and `fatal error:` opening a line, PHP's `Fatal error:`,
/// docker's `Error response from daemon`, kubectl's `CrashLoopBackOff`,
/// `ImagePullBackOff`, `ErrImagePull`, `InvalidImageName`, `Init:Error` and `Evicted`
/// (these three as a column), an access log's status of 5xx after its
/// request (`"GET / HTTP/1.1" 502`), before it in a load balancer's (HAProxy's after its
/// timers, `0/0/1/179/377 500`; AWS ALB's after its timings, `0.000 -1 -1 503`) or in a
/// response's status line (`HTTP/1.1 503`),
/// valgrind's reports in its own words (`==1234== Invalid write of size 4`, a leak's loss
/// record; its `ERROR SUMMARY` by what it counts: `0 errors` is none) and a sanitizer's
/// `SUMMARY:`. A system call's error ending the message (`cat: x: No such file or
/// directory`) counts only when the line states no level, and so do the last words of a
/// failed command (an error given as the cause, `connect: connection refused`; a failed
/// assertion; Ansible's recap of a failed host) and a line that ends in `failed` or
/// `failure` (`Build failed.`, `Run state: failure`; not `0 failed`, nor a login's,
/// `authentication failure`).
///
/// A line of source code a search found (`src/a.rs:12: fn f() -> Result<(), JsonError>`)
/// has a level only from what a tool says first of that place (`a.c:3:5: error: …`,
/// pytest's `tests/t.py:6: AssertionError`). A logger's line that opens with its caller's
/// place and its level in capitals or brackets (Go's `log.Lshortfile`, helm's `--debug`:
/// `main.go:42: ERROR …`, `wait.go:70: [debug] …`) is read as any log line.
///
/// Level words and exception names count when they start within the first 240 bytes;
/// signals count anywhere, at the start of a word (`OOM`, not `ROOM`). Words are runs of
/// ASCII letters, digits and `_`.
///
/// The words are found 64 bytes at a time with a few vector instructions; only those
/// whose first three letters could begin a level or a signal, or that end like
/// `…Error`, are looked at closely, so a line costs little more than the scan.
pub fn classify(line: &str) -> Option<Severity> {
    inspect(line).severity
}

/// A multi-line record a line begins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opens {
    /// `Traceback (most recent call last):` — indented frames and the exception follow.
    Traceback,
    /// Rust's `thread '…' panicked at` — the message and a backtrace may follow.
    Panic,
    /// Go's `panic: …` or `fatal error: …` at the start of a line — the goroutines'
    /// stacks follow ([`in_go_trace`]).
    GoPanic,
    /// asyncio's `Task exception was never retrieved` at the start of a line — the task
    /// (`future: <Task …>`) and its traceback follow.
    AsyncioTask,
}

/// asyncio's report of a task that failed and was never awaited.
const ASYNCIO_TASK: &[u8] = b"Task exception was never retrieved";

/// What one pass over a line finds: its severity (as [`classify`]) and the multi-line
/// record it begins, if any.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Inspection {
    /// As [`classify`] gives it.
    pub severity: Option<Severity>,
    /// The record the line begins.
    pub opens: Option<Opens>,
    /// The line states a level (`ERROR`, `level=warn`, glog's `I`), as a logger's line
    /// does: not a line of an exception's message, say.
    pub stated: bool,
}

/// [`classify`], and whether the line begins a traceback or a panic, in the same pass.
pub fn inspect(line: &str) -> Inspection {
    inspect_in(line.as_bytes(), 0..line.len())
}

/// What [`inspect`] reads at the start of a line alone, said of `message`: Go's `panic: `
/// and `fatal error: ` (fatal, opening a goroutine dump), `Caused by:` (an error) and
/// PHP's `PHP Deprecated:` (a warning; its log's `[07-Dec-2026 12:00:09 UTC] PHP
/// Deprecated:  …`). For a line whose message follows its time (`2024-01-05T10:00:00Z
/// panic: …`, as a CI job's log stamps every line), where `inspect` reads the time
/// instead.
///
/// ```
/// use briefly_severity::{inspect, opening, Opens, Severity};
///
/// let line = "2024-01-05T10:00:00Z panic: boom";
/// assert_eq!(inspect(line).opens, None);
/// assert_eq!(opening(&line[21..]).opens, Some(Opens::GoPanic));
/// assert_eq!(opening("Caused by: java.io.IOException").severity, Some(Severity::Error));
/// assert_eq!(opening("PHP Deprecated:  strlen(): …").severity, Some(Severity::Warn));
/// assert_eq!(opening("INFO started").severity, None);
/// ```
pub fn opening(message: &str) -> Inspection {
    let found = Findings::begin(message.as_bytes());
    let php = || match message.as_bytes() {
        [b'P', b'H', b'P', b' ', rest @ ..] => php_level(rest),
        _ => None,
    };
    Inspection {
        severity: found.signalled.or_else(php),
        opens: found.opens,
        stated: false,
    }
}

/// What a memory checker says of `message` in its own words, when one wrote it, as
/// [`inspect`] reads it at the start of a line: valgrind's reports (`==1234== Invalid
/// read of size 4`; its `ERROR SUMMARY: 0 errors` is none, whatever its capitals say)
/// and a sanitizer's `SUMMARY:` and ThreadSanitizer's `WARNING:` report. For a line whose message follows its time, where the
/// verdict outranks what the line's words say (`ERROR`).
///
/// ```
/// use briefly_severity::{checker_verdict, Severity};
///
/// assert_eq!(checker_verdict("==7== Invalid read of size 4"), Some(Some(Severity::Error)));
/// assert_eq!(checker_verdict("==7== ERROR SUMMARY: 0 errors from 0 contexts"), Some(None));
/// assert_eq!(checker_verdict("ERROR SUMMARY: 0 errors"), None);
/// ```
pub fn checker_verdict(message: &str) -> Option<Option<Severity>> {
    checkers::verdict(message.as_bytes())
}

/// [`inspect`] of `text[line]`. Bytes after the line are read with it (a vector load
/// needs no copy then), and left out.
fn inspect_in(text: &[u8], line: Range<usize>) -> Inspection {
    let bytes = &text[line.clone()];
    if is_shell_trace(bytes) {
        return Inspection::default();
    }
    let mut found = Findings::begin(bytes);
    // Each window's bits, and the next window's for the words that end at its end.
    let mut bits = window_bits(text, line.start, bytes.len());
    let mut before = 0;
    let mut at = 0;
    while at < bytes.len() {
        let next = window_bits(
            text,
            line.start + at + 64,
            bytes.len().saturating_sub(at + 64),
        );
        let word = bits.word;
        let mut starts = word & !((word << 1) | before);
        let lasts = word & !((word >> 1) | (next.word << 63));
        if at == 0 {
            // A letter column is a word of one letter.
            let mut singles = starts & lasts;
            while singles != 0 {
                found.single(bytes, singles.trailing_zeros() as usize);
                singles &= singles - 1;
            }
        }
        // Words that start with a letter, and of those the ones whose first three letters
        // may begin a level word or a signal: marked without a branch, then looked at.
        starts &= bits.letter;
        let mut candidates = 0;
        while starts != 0 {
            let start = starts.trailing_zeros();
            candidates |=
                u64::from(may_begin_a_level_or_signal(bytes, at + start as usize)) << start;
            starts &= starts - 1;
        }
        while candidates != 0 {
            found.word(bytes, at + candidates.trailing_zeros() as usize);
            candidates &= candidates - 1;
        }
        // Only a word ending in `r` or `n` may be an exception's name.
        let mut lasts = lasts & bits.r_or_n;
        while lasts != 0 {
            found.word_end(bytes, at + lasts.trailing_zeros() as usize);
            lasts &= lasts - 1;
        }
        before = word >> 63;
        bits = next;
        at += 64;
    }
    found.end(bytes)
}

/// Whether `line` is a shell's trace of a command it runs (`set -x`: `+ grep -c ERROR
/// app.log`, `++ date`): the command's words, which name no level of its own. Not
/// strace's report of an exit between its marks (`+++ exited with 3 +++`).
fn is_shell_trace(line: &[u8]) -> bool {
    // (Its first byte rules out nearly every line: this is read at every line.)
    if line.first() != Some(&b'+') {
        return false;
    }
    let plus = line.iter().take_while(|&&b| b == b'+').count();
    plus > 0 && line.get(plus) == Some(&b' ') && !line.trim_ascii_end().ends_with(b" +++")
}

/// [`inspect`] for many lines at once: `out` is cleared, then `out[i]` becomes what
/// `inspect` says of `&text[lines[i].clone()]`. Cheaper than `inspect` on each line
/// alone: a line's last bytes are read in place in `text`, where `inspect` copies them
/// to fill a vector.
pub fn inspect_lines(
    text: &str,
    lines: impl IntoIterator<Item = Range<usize>>,
    out: &mut Vec<Inspection>,
) {
    out.clear();
    out.extend(
        lines
            .into_iter()
            .map(|range| inspect_in(text.as_bytes(), range)),
    );
}

/// What the words of one line say so far.
struct Findings {
    opens: Option<Opens>,
    /// The level the line states in words (`ERROR`, `[warn]`, `error:`): the worst of
    /// them, but a word in lower case before a colon after the first (`INFO retrying
    /// after error: timeout`), unless it opens a line relayed right after it ([`relays`]).
    stated: Option<Severity>,
    /// Where the last word counted in [`Findings::stated`] ends.
    stated_end: usize,
    /// The worst level its words state as a level is written, not as prose's `error:`.
    written: Option<Severity>,
    /// The level given by its key (`level=warn`, `"level":"error"`): the first.
    keyed: Option<Severity>,
    /// The level of its first letter column (logcat's ` E `).
    column: Option<Severity>,
    /// An error or exception's name in it.
    named: Option<Severity>,
    /// A signal: traceback, panic, OOM kill, segfault, non-zero exit, make or systemd failure.
    signalled: Option<Severity>,
    /// A system call's error (`No such file or directory`), a count of what failed (`1
    /// failed`, `2 warnings`) or a registry's `denied:`, the worst of them: it counts when
    /// no level is stated, as in `cat: x: No such file or directory`, not in `DEBUG stat
    /// x: No such file or directory`.
    hinted: Option<Severity>,
}

impl Findings {
    /// A line's findings before its words are looked at.
    fn begin(bytes: &[u8]) -> Findings {
        let none = Findings {
            opens: None,
            stated: None,
            stated_end: 0,
            written: None,
            keyed: None,
            column: None,
            named: None,
            signalled: None,
            hinted: None,
        };
        // What is read below opens with one of these bytes: a log's time rules it all out.
        if !matches!(
            bytes.first(),
            Some(b'p' | b'f' | b'T' | b'C' | b' ' | 0xc3 | 0xe2 | b'U' | b'l' | b'/' | b'#' | b'(')
        ) {
            return none;
        }
        let go_panic = bytes.starts_with(b"panic: ") || bytes.starts_with(b"fatal error: ");
        let asyncio_task = bytes.first() == Some(&b'T') && bytes.starts_with(ASYNCIO_TASK);
        Findings {
            opens: match (go_panic, asyncio_task) {
                (true, _) => Some(Opens::GoPanic),
                (_, true) => Some(Opens::AsyncioTask),
                _ => None,
            },
            stated: None,
            stated_end: 0,
            written: None,
            keyed: None,
            column: None,
            named: None,
            signalled: if bytes.starts_with(b"Caused by:") || asyncio_task {
                Some(Severity::Error)
            } else if go_panic {
                Some(Severity::Fatal)
            } else if is_failure_mark(bytes)
                || (matches!(bytes.first(), Some(b'U' | b'l' | b'/')) && is_uncaught_error(bytes))
                || (bytes.first() == Some(&b'#') && is_tap_failure_count(bytes))
            {
                Some(Severity::Error)
            } else if bytes.first() == Some(&b'(') && is_node_warning(bytes) {
                Some(Severity::Warn)
            } else {
                None
            },
            hinted: None,
        }
    }

    /// A word of one byte is at `bytes[at]`; called in order of `at`.
    fn single(&mut self, bytes: &[u8], at: usize) {
        if self.column.is_none() && is_column(bytes, at) {
            self.column = letter_level(bytes[at]);
        }
    }

    /// A word starts at `bytes[start]`.
    fn word(&mut self, bytes: &[u8], start: usize) {
        let Some(prefix) = lowered_prefix(bytes, start) else {
            return;
        };
        let slot = PrefixFilter::slot(prefix);
        for signal in SIGNAL_INDEX.matching(slot, prefix) {
            self.signal(bytes, start, SIGNALS[signal]);
        }
        if LEVEL_INDEX.matching(slot, prefix).next().is_some() {
            self.level_word_at(bytes, start);
        }
    }

    /// The word at `start` may be a level word ([`level_word`]).
    fn level_word_at(&mut self, bytes: &[u8], start: usize) {
        if start >= LEVEL_WINDOW {
            return;
        }
        let end = bytes[start..]
            .iter()
            .position(|b| !is_word_byte(*b))
            .map_or(bytes.len(), |p| start + p);
        match word_level(bytes, start, end, &bytes[start..end]) {
            Some(Found::Keyed(level)) => self.keyed = self.keyed.or(Some(level)),
            // A word in lower case before a colon after the first level stated is its
            // message's prose (`INFO retrying after error: timeout`), unless it opens a
            // line relayed right after it (Python's `INFO:app:error: …`); a mild one
            // after a comma is a key among the message's (HAProxy's `reason: …, info:
            // "Connection refused"`), no level.
            Some(Found::Stated { level, prose })
                if (!prose || self.stated.is_none() || relays(&bytes[self.stated_end..start]))
                    && !(level < Severity::Warn
                        && ((prose && is_listed_key(bytes, start))
                            || (level == Severity::Trace
                                && is_stack_trace(bytes, start, end)))) =>
            {
                self.stated = self.stated.max(Some(level));
                self.stated_end = end;
                if !prose {
                    self.written = self.written.max(Some(level));
                }
            }
            Some(Found::Named) => self.named = Some(Severity::Error),
            Some(Found::Stated { .. }) | None => {}
        }
    }

    /// A signal's phrase may start at `start`.
    fn signal(&mut self, bytes: &[u8], start: usize, (phrase, severity): (&str, Severity)) {
        let (before, rest) = bytes.split_at(start);
        if !rest.starts_with(phrase.as_bytes()) || !confirmed(phrase, before, &rest[phrase.len()..])
        {
            return;
        }
        // A file named so (`segfault_handler.c`, `OOM.java`), as `find` and `ls` list it;
        // a phrase of words only (not `HTTP/1.1" 5`).
        let end = start + phrase.len();
        let word_end = end
            + bytes[end..]
                .iter()
                .take_while(|b| is_word_byte(**b))
                .count();
        if phrase
            .as_bytes()
            .last()
            .is_some_and(u8::is_ascii_alphabetic)
            && names_a_file(bytes, start, word_end)
        {
            return;
        }
        if counts_unless_stated(phrase) {
            // The worst of them: `(2 errors, 1 warning)`.
            self.hinted = self.hinted.max(Some(severity));
            return;
        }
        self.signalled = self.signalled.max(Some(severity));
        match phrase {
            // Python writes it as its own line's end, its frames on the lines after: in a
            // one-line record (JSON's `"exc_info": "Traceback …:\n  File …"`, `failed;
            // Traceback (most recent call last): see sentry`) it opens nothing.
            TRACEBACK if matches!(rest[phrase.len()..].trim_ascii(), b"" | b":") => {
                self.opens = Some(Opens::Traceback);
            }
            "panicked at" => self.opens = self.opens.or(Some(Opens::Panic)),
            _ => {}
        }
    }

    /// A word ends at `bytes[last]`: it may be an exception's name (`KeyError`).
    fn word_end(&mut self, bytes: &[u8], last: usize) {
        let word = &bytes[..=last];
        let exception = word.ends_with(b"Exception")
            && match (last - 8).checked_sub(1).map(|p| bytes[p]) {
                Some(b) if is_word_byte(b) => true,
                // The base class by its qualified name: Java's `java.lang.Exception`,
                // .NET's `System.Exception`; or alone, opening the line: `Exception: boom`.
                Some(b'.') => last >= 10 && is_word_byte(bytes[last - 10]),
                None => bytes.get(last + 1) == Some(&b':'),
                Some(_) => false,
            };
        let named =
            (word.ends_with(b"Error") && last >= 5 && is_word_byte(bytes[last - 5])) || exception;
        let start = || {
            word.iter()
                .rposition(|b| !is_word_byte(*b))
                .map_or(0, |p| p + 1)
        };
        if named && start() < LEVEL_WINDOW && !names_a_file(bytes, start(), last + 1) {
            self.named = Some(Severity::Error);
        }
    }

    fn end(self, bytes: &[u8]) -> Inspection {
        // `ls -l`'s entry: its last word is a file's name (`error`, `FATAL`), whatever
        // it says; a test that passed, whatever its name says (Jest's and Mocha's `✓
        // throws TypeError on bad input`, pytest's `t.py::test[ERROR x] PASSED`).
        if is_long_listing(bytes) || is_passed_test(bytes) || is_passed_pytest(bytes) {
            return Inspection::default();
        }
        // A test that failed as `node --test`'s spec reporter lists it, whatever its name
        // says (`✖ rounds totals (1.6ms)`); PHPUnit's assertion that failed (`Failed
        // asserting that 4 matches expected 3.`).
        let phpunit =
            || bytes.first() == Some(&b'F') && bytes.starts_with(b"Failed asserting that ");
        if multiline::is_node_test_failure(bytes) || phpunit() {
            return Inspection {
                severity: Some(Severity::Error),
                opens: self.opens,
                stated: false,
            };
        }
        // A Go test's log: a passing test logs the errors it expects; its verdict (`---
        // FAIL:`) says whether it failed. A crash still counts.
        if is_go_test_log(bytes) {
            return Inspection {
                severity: self.signalled.filter(|s| *s == Severity::Fatal),
                opens: self.opens,
                stated: false,
            };
        }
        // cargo's count of a crate's warnings, each of which came before it; Maven's
        // heading of the compiler's errors and its advice after a failure, at ERROR
        // though they are not what went wrong.
        if bytes
            .strip_prefix(b"warning:")
            .is_some_and(is_cargo_warning_count)
            || bytes.strip_prefix(b"[ERROR]").is_some_and(is_maven_aside)
        {
            return Inspection::default();
        }
        if let Some(severity) = checkers::verdict(bytes) {
            return Inspection {
                severity,
                opens: self.opens,
                stated: false,
            };
        }
        // A line of source in a diagnostic's gutter (rustc's, ruff's: `77 |     raise
        // TypeError(`, `   |     ^^^`) quotes code: what its words name is the code's.
        if is_gutter_line(bytes) {
            return Inspection::default();
        }
        // A line of source code a search found (`src/a.rs:12: fn f() -> Result<(),
        // JsonError>`) says nothing went wrong, whatever its words name; a tool's finding
        // at a place in a source file says so first (`a.c:3:5: error: …`, pytest's
        // `tests/t.py:6: AssertionError`).
        // (Nested, what it says in its own words only: `go test`'s log is indented,
        // `    store_test.go:12: …`, and says nothing went wrong by its place.)
        // (Not a logger's line that opens with its caller's place, Go's `log.Lshortfile`
        // and helm's `--debug`, `main.go:42: ERROR …`, `wait.go:70: [debug] …`: read on.)
        if let Some(code) = quoted_code(bytes).filter(|code| !opens_a_log_line(code)) {
            return Inspection {
                severity: code_opening(code.text, code.indent)
                    .or_else(|| placed_finding(&code.place).filter(|_| !code.nested)),
                opens: None,
                stated: false,
            };
        }
        // A level by its key is the logger's own, whatever the message says. A level that
        // opens the line (glog's letter, logcat's column, apt's `E: `) is stated before
        // any word: the message's prose after it is words (klog's `I1205 … sync error:
        // boom`), a level written as one is a line relayed (`[info] … [main] ERROR …`).
        // A syslog priority may be a relay's (docker's syslog driver sends stdout at
        // info): the worse of it and what the message states.
        let level = (self.keyed)
            .or_else(|| numeric_level(bytes))
            .or_else(|| mongodb_level(bytes))
            .or_else(|| {
                let leading = glog_letter(bytes)
                    .or_else(|| opening_level(bytes))
                    .or(self.column)
                    .or_else(|| redis_level(bytes))
                    // A level written as one (`INFO`) is the line's, or a relay's: its tag
                    // is looked for in lines that write none (this is read of every line).
                    .or_else(|| {
                        if self.written.is_some() {
                            return None;
                        }
                        let message = tagged_message(bytes)?;
                        glog_letter(message).or_else(|| opening_level(message))
                    });
                let words = if leading.is_some() {
                    self.written
                } else {
                    self.stated
                };
                leading.max(words).max(syslog_priority(bytes))
            });
        // A stack's frame names code: `    at genericNodeError (node:internal/…)` is a
        // function, `\tat app.ValidationError.<init>(…)` a constructor, not an error.
        let named = self.named.filter(|_| !is_indented_frame(bytes));
        let severity = level.or(named).max(self.signalled);
        // A test that passed behind a CI job's time or a container's name (`2026-…Z     ✓
        // throws TypeError`), looked for only where a warning or worse was found (looked
        // for at every stamped INFO line, instructions.sh counted 0.5% more on its log).
        if severity >= Some(Severity::Warn) && is_passed_test_behind_a_prefix(bytes) {
            return Inspection::default();
        }
        Inspection {
            stated: level.is_some(),
            severity: severity
                .or(self.hinted)
                // `go vet` puts its name before a package's type errors.
                .or_else(|| {
                    let bytes = bytes.strip_prefix(b"vet: ").unwrap_or(bytes);
                    place(bytes).and_then(|place| placed_finding(&place))
                })
                .or_else(|| reported_state(bytes))
                .or_else(|| closing_failure(bytes))
                .or_else(|| is_strace_crash_signal(bytes).then_some(Severity::Error))
                .or_else(|| checkers::glued_valgrind_error(bytes).map(|_| Severity::Error)),
            opens: self.opens,
        }
    }
}

/// strace's report of a signal that crashes a program, as it is delivered (after `-f`'s
/// `[pid 15971] ` and `-tt`'s time): `--- SIGSEGV {si_signo=SIGSEGV, si_code=SEGV_MAPERR,
/// si_addr=NULL} ---`, its `+++ killed by SIGSEGV +++` after it; not one a program
/// handles or ignores as a rule (`--- SIGCHLD {…} ---`).
fn is_strace_crash_signal(bytes: &[u8]) -> bool {
    let Some(at) = find(bytes, b"--- SIG") else {
        return false;
    };
    let rest = &bytes[at + 4..];
    ["SIGSEGV ", "SIGBUS ", "SIGILL ", "SIGFPE ", "SIGABRT "]
        .iter()
        .any(|signal| rest.starts_with(signal.as_bytes()))
}

/// Node's process warnings: `(node:4242) [DEP0005] DeprecationWarning: Buffer() is
/// deprecated`, `(node:4242) ExperimentalWarning: …`, `(node:4242) Warning: …`.
fn is_node_warning(bytes: &[u8]) -> bool {
    let Some(rest) = bytes.strip_prefix(b"(node:") else {
        return false;
    };
    let pid = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    let Some(mut rest) = rest[pid..].strip_prefix(b") ").filter(|_| pid > 0) else {
        return false;
    };
    // A deprecation's code: `[DEP0005] `.
    if rest.first() == Some(&b'[') {
        match rest.iter().position(|&b| b == b']') {
            Some(close) if rest.get(close + 1) == Some(&b' ') => rest = &rest[close + 2..],
            _ => return false,
        }
    }
    let word = rest.iter().take_while(|&&b| is_word_byte(b)).count();
    rest[..word].ends_with(b"Warning") && rest.get(word) == Some(&b':')
}

/// A line of a Go test's log as `go test` writes it (`t.Log`, `t.Errorf`), indented under
/// its test (4 spaces, 8 under a subtest) with its file and line: `    p_test.go:5: got
/// expected error: connection refused`.
fn is_go_test_log(bytes: &[u8]) -> bool {
    // Its first bytes rule out nearly every line: this is read at every line.
    bytes.starts_with(b"    ")
        && std::str::from_utf8(bytes).is_ok_and(|line| multiline::is_go_test_log(line.trim_start()))
}

/// A test that passed as Jest, Vitest and Mocha list it: a check mark (`✓`, `✔`, `√` on
/// Windows), a space and its name, indented or not.
fn is_passed_test(bytes: &[u8]) -> bool {
    // The marks' UTF-8 all begin with 0xE2: one byte rules out nearly every line.
    if !matches!(bytes.first(), Some(b' ' | b'\t' | 0xE2)) {
        return false;
    }
    let name = bytes.trim_ascii_start();
    name.first() == Some(&0xE2)
        && ["✓ ", "✔ ", "√ "]
            .iter()
            .any(|mark| name.starts_with(mark.as_bytes()))
}

/// A test that passed or was skipped as `pytest -v` lists it, whatever its parameters
/// say (`tests/t.py::test_parse[ERROR boom] PASSED  [ 50%]`), or as its summary of `-rA`
/// does (`PASSED tests/t.py::test_parse[ERROR boom]`): a node id, `::` in it.
fn is_passed_pytest(bytes: &[u8]) -> bool {
    // (Read of every line: its last and first bytes rule out nearly all.)
    let last = bytes.last().copied().unwrap_or_default();
    let may_end = matches!(last, b'D' | b']') || last.is_ascii_whitespace();
    if !may_end && !matches!(bytes.first(), Some(b'P' | b'S')) {
        return false;
    }
    let line = bytes.trim_ascii_end();
    // Its progress, `[ 50%]`, after the outcome.
    let progress = line.strip_suffix(b"%]").and_then(|head| {
        let from = head.len().saturating_sub(5);
        memchr::memrchr(b'[', &head[from..]).map(|at| head[..from + at].trim_ascii_end())
    });
    let line = progress.unwrap_or(line);
    let outcome = |word: &[u8]| {
        line.ends_with(word) && line.len() > word.len() && line[line.len() - word.len() - 1] == b' '
    };
    let passed = outcome(b"PASSED") || outcome(b"SKIPPED");
    let summed_up = line.starts_with(b"PASSED ") || line.starts_with(b"SKIPPED ");
    (passed || summed_up) && memchr::memmem::find(line, b"::").is_some()
}

/// [`is_passed_test`] behind a prefix a log puts on every line: one word (a time) or a
/// container's name and its bar (`api-1  | `), then blank space.
#[inline(never)] // Read of serious lines only: kept out of the scan's loop.
fn is_passed_test_behind_a_prefix(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(128)];
    let Some(mark) = memchr::memchr(0xE2, head) else {
        return false;
    };
    let prefix = head[..mark].trim_ascii();
    let one_word = !prefix.is_empty() && !prefix.iter().any(u8::is_ascii_whitespace);
    (one_word || prefix.ends_with(b"|"))
        && head[..mark].last().is_some_and(u8::is_ascii_whitespace)
        && is_passed_test(&bytes[mark - 1..])
}

/// An entry of `ls -l`: its type and permissions (`drwxr-xr-x`, `-rw-r--r--.`), then its
/// count of links.
fn is_long_listing(bytes: &[u8]) -> bool {
    let Some((mode, rest)) = bytes.split_first_chunk::<10>() else {
        return false;
    };
    // An SELinux context's `.`, an ACL's `+`, macOS's attributes' `@`.
    let rest = match rest.first() {
        Some(b'.' | b'+' | b'@') => &rest[1..],
        _ => rest,
    };
    let links = rest.trim_ascii_start();
    matches!(mode[0], b'-' | b'd' | b'l' | b'c' | b'b' | b'p' | b's')
        && mode[1..]
            .iter()
            .all(|b| matches!(b, b'r' | b'w' | b'x' | b's' | b'S' | b't' | b'T' | b'-'))
        && links.len() < rest.len()
        && digits(links) > 0
        && links.get(digits(links)) == Some(&b' ')
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// What 64 bytes of a line are, a bit per byte (bit `k` for the window's byte `k`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Bits {
    /// A word byte ([`is_word_byte`]).
    word: u64,
    /// An ASCII letter.
    letter: u64,
    /// `r` or `n`, the last letters of `…Error` and `…Exception`.
    r_or_n: u64,
}

impl Bits {
    const NONE: Bits = Bits {
        word: 0,
        letter: 0,
        r_or_n: 0,
    };
}

/// The [`Bits`] of the `len` bytes at `text[at..]` (`len` may exceed 64); bytes past
/// them count as none of the kinds.
fn window_bits(text: &[u8], at: usize, len: usize) -> Bits {
    if len == 0 {
        return Bits::NONE;
    }
    let rest = &text[at..];
    let bits = match rest.first_chunk::<64>() {
        Some(window) => bits_of(window),
        None => {
            let mut window = [0; 64];
            window[..rest.len()].copy_from_slice(rest);
            bits_of(&window)
        }
    };
    if len >= 64 {
        return bits;
    }
    let kept = (1 << len) - 1;
    Bits {
        word: bits.word & kept,
        letter: bits.letter & kept,
        r_or_n: bits.r_or_n & kept,
    }
}

/// The [`Bits`] of a window, with SSE2 (part of every x86-64 CPU).
#[cfg(target_arch = "x86_64")]
fn bits_of(window: &[u8; 64]) -> Bits {
    use std::arch::x86_64::*;
    let mut bits = Bits::NONE;
    for (k, part) in window.chunks_exact(16).enumerate() {
        // SAFETY: SSE2 is part of x86-64; `part` has 16 bytes, and unaligned loads are
        // allowed.
        let (word, letter, r_or_n) = unsafe {
            let x = _mm_loadu_si128(part.as_ptr().cast());
            let d = _mm_sub_epi8(x, _mm_set1_epi8(b'0' as i8));
            let digit = _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d);
            let l = _mm_sub_epi8(
                _mm_or_si128(x, _mm_set1_epi8(0x20)),
                _mm_set1_epi8(b'a' as i8),
            );
            let letter = _mm_cmpeq_epi8(_mm_min_epu8(l, _mm_set1_epi8(25)), l);
            let underscore = _mm_cmpeq_epi8(x, _mm_set1_epi8(b'_' as i8));
            let r_or_n = _mm_or_si128(
                _mm_cmpeq_epi8(x, _mm_set1_epi8(b'r' as i8)),
                _mm_cmpeq_epi8(x, _mm_set1_epi8(b'n' as i8)),
            );
            (
                _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(digit, letter), underscore)),
                _mm_movemask_epi8(letter),
                _mm_movemask_epi8(r_or_n),
            )
        };
        bits.word |= u64::from(word as u16) << (16 * k);
        bits.letter |= u64::from(letter as u16) << (16 * k);
        bits.r_or_n |= u64::from(r_or_n as u16) << (16 * k);
    }
    bits
}

/// The [`Bits`] of a window, a byte at a time.
#[cfg(not(target_arch = "x86_64"))]
fn bits_of(window: &[u8; 64]) -> Bits {
    bits_of_scalar(window)
}

/// The reference for the vector [`bits_of`].
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn bits_of_scalar(window: &[u8; 64]) -> Bits {
    let set = |k: usize, yes: bool| u64::from(yes) << k;
    window
        .iter()
        .enumerate()
        .fold(Bits::NONE, |bits, (k, &b)| Bits {
            word: bits.word | set(k, is_word_byte(b)),
            letter: bits.letter | set(k, b.is_ascii_alphabetic()),
            r_or_n: bits.r_or_n | set(k, b == b'r' || b == b'n'),
        })
}

/// The first three bytes from `start`, each with bit 5 set (as [`packed`] does).
fn lowered_prefix(bytes: &[u8], start: usize) -> Option<[u8; 3]> {
    let &[a, b, c] = bytes.get(start..)?.first_chunk::<3>()?;
    Some([a | 0x20, b | 0x20, c | 0x20])
}

/// Whether the word at `start` may begin with a level word or a signal.
fn may_begin_a_level_or_signal(bytes: &[u8], start: usize) -> bool {
    lowered_prefix(bytes, start).is_some_and(|prefix| PREFIXES.may_hold(prefix))
}

/// A set of three-letter prefixes as a 1,024-bit filter, indexed by a hash: a word
/// whose prefix is not in it is passed over after one multiplication and one load.
struct PrefixFilter([u64; 16]);

impl PrefixFilter {
    const fn new(sets: &[&[[u8; 3]]]) -> PrefixFilter {
        let mut bits = [0; 16];
        let mut set = 0;
        while set < sets.len() {
            let mut i = 0;
            while i < sets[set].len() {
                let slot = Self::slot(sets[set][i]);
                bits[slot / 64] |= 1 << (slot % 64);
                i += 1;
            }
            set += 1;
        }
        PrefixFilter(bits)
    }

    const fn slot(prefix: [u8; 3]) -> usize {
        let key = prefix[0] as u32 | (prefix[1] as u32) << 8 | (prefix[2] as u32) << 16;
        (key.wrapping_mul(0x9e37_79b1) >> 22) as usize
    }

    /// False when `prefix` is not one of the set; true when it may be.
    fn may_hold(&self, prefix: [u8; 3]) -> bool {
        let slot = Self::slot(prefix);
        self.0[slot / 64] & (1 << (slot % 64)) != 0
    }
}

/// The first three bytes of each of `words`, each with bit 5 set (as [`packed`] does).
const fn prefixes<const N: usize>(words: [(&str, Severity); N]) -> [[u8; 3]; N] {
    let mut out = [[0; 3]; N];
    let mut i = 0;
    while i < N {
        let word = words[i].0.as_bytes();
        out[i] = [word[0] | 0x20, word[1] | 0x20, word[2] | 0x20];
        i += 1;
    }
    out
}

/// The first three letters of each signal, lowered.
const SIGNAL_PREFIXES: [[u8; 3]; SIGNALS.len()] = prefixes(SIGNALS);

/// The first three letters of each level word.
const LEVEL_PREFIXES: [[u8; 3]; LEVEL_WORDS.len()] = prefixes(LEVEL_WORDS);

/// Both sets of prefixes, for a first look at every word.
static PREFIXES: PrefixFilter = PrefixFilter::new(&[&SIGNAL_PREFIXES, &LEVEL_PREFIXES]);

/// Which signals a word that passed the first look may begin, found by its prefix.
static SIGNAL_INDEX: PrefixIndex<{ SIGNALS.len() }> = PrefixIndex::new(SIGNAL_PREFIXES);

/// Whether a word that passed the first look may be a level word.
static LEVEL_INDEX: PrefixIndex<{ LEVEL_WORDS.len() }> = PrefixIndex::new(LEVEL_PREFIXES);

/// Up to 128 prefixes by [`PrefixFilter::slot`]: a word's candidates are those of its
/// slot, so a word is compared with the few phrases it may begin, not with all of them.
struct PrefixIndex<const N: usize> {
    prefixes: [[u8; 3]; N],
    /// For each slot, a bit for each prefix in it.
    slots: [u128; 1024],
}

impl<const N: usize> PrefixIndex<N> {
    const fn new(prefixes: [[u8; 3]; N]) -> Self {
        assert!(N <= 128, "a bit for each prefix");
        let mut slots = [0; 1024];
        let mut i = 0;
        while i < N {
            slots[PrefixFilter::slot(prefixes[i])] |= 1 << i;
            i += 1;
        }
        PrefixIndex { prefixes, slots }
    }

    /// The indexes of the prefixes equal to `prefix`, whose slot is `slot`, in order.
    fn matching(&self, slot: usize, prefix: [u8; 3]) -> impl Iterator<Item = usize> + '_ {
        let mut bits = self.slots[slot];
        std::iter::from_fn(move || {
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if self.prefixes[i] == prefix {
                    return Some(i);
                }
            }
            None
        })
    }
}

/// The signals, each at the start of a word, with the severity it implies.
const SIGNALS: [(&str, Severity); 93] = [
    ("Segmentation fault", Severity::Fatal),
    ("segfault", Severity::Fatal),
    ("core dumped", Severity::Fatal),
    (TRACEBACK, Severity::Error),
    ("panicked at", Severity::Error),
    ("Killed process", Severity::Error),
    ("Out of memory", Severity::Error),
    ("oom-kill", Severity::Error),
    ("OOM", Severity::Error),
    ("Kernel panic", Severity::Fatal),
    ("BUG:", Severity::Error),
    ("general protection fault", Severity::Error),
    // The kernel's reports of a failing disk or file system, of a machine check, and of
    // a task hung (`INFO: task x blocked for more than 120 seconds.`).
    ("I/O error", Severity::Error),
    ("EXT4-fs error", Severity::Error),
    ("BTRFS error", Severity::Error),
    ("Hardware Error", Severity::Error),
    ("blocked for more than", Severity::Warn),
    ("non-zero", Severity::Error),
    // `exit code 2`, `exit status 1`, `Exit code: 3`, `exited with code 137`, `exited
    // with status 1`: one phrase for each case of its first letter, each taking one of
    // the index's 64 bits.
    ("exit", Severity::Error),
    ("Exit", Severity::Error),
    ("make", Severity::Error),
    ("gmake", Severity::Error),
    // systemd's reports of a unit's main process and of the unit, which state no level
    // in a journal read as text: `code=exited, status=1/FAILURE`, `Failed to start x`
    // (logged at err) and `Failed with result 'exit-code'` (logged at warning), of a
    // unit that did not start for another's failure, `Dependency failed for x` (logged
    // at warning; `[DEPEND]` on the console), and of one restarted until systemd gave
    // up, `Start request repeated too quickly.` (logged at warning; found by its last
    // words: a slot of the word filter for `Start` cost 0.9% of the instructions on
    // benches/instructions.sh's 8 MB log).
    ("code=exited", Severity::Error),
    ("code=killed", Severity::Error),
    ("code=dumped", Severity::Fatal),
    ("Failed to start", Severity::Error),
    ("Failed with result", Severity::Warn),
    ("Dependency failed for", Severity::Warn),
    ("repeated too quickly", Severity::Warn),
    // What a terminal shows of a failed command: a test runner's verdict (`--- FAIL:`,
    // `test result: FAILED.`), the shell's `Killed` and `command not found`, C++'s
    // uncaught exception, npm's, curl's and kubectl's error reports, and a system
    // call's error at the end of a message (`cat: x: No such file or directory`).
    ("FAIL", Severity::Error),
    ("Killed", Severity::Error),
    // strace's report of a process a signal ended: `+++ killed by SIGKILL +++`.
    ("killed by SIG", Severity::Error),
    // A Java thread dump's (jstack's, `kill -3`'s) finding, by the words that open it
    // (`Found` has its slot of the word filter already).
    ("Found one Java-level deadlock", Severity::Error),
    ("terminate called after throwing", Severity::Error),
    // Python's uncaught exception in a thread, over its traceback (Java's names the
    // exception on the line).
    ("Exception in thread", Severity::Error),
    // CTest's result of a test that did not pass: `  57/120 Test  #57: polygon_area
    // ....***Failed    0.04 sec`, `***Exception: SegFault`, after its three stars
    // (`Failed` and `Exception` have their slots of the word filter already; a slot for
    // its `***Timeout` cost 0.7% of the instructions on a log of `time`s and `took`s).
    ("Failed", Severity::Error),
    ("Exception:", Severity::Error),
    ("npm error", Severity::Error),
    ("npm warn", Severity::Warn),
    ("curl: (", Severity::Error),
    ("Error from server", Severity::Error),
    ("Error response from daemon", Severity::Error),
    // kubectl's statuses of a pod that does not run (`web-0  0/1  CrashLoopBackOff  5`).
    ("CrashLoopBackOff", Severity::Error),
    ("ImagePullBackOff", Severity::Error),
    ("ErrImagePull", Severity::Error),
    ("InvalidImageName", Severity::Error),
    ("Init:Error", Severity::Error),
    ("Evicted", Severity::Error),
    // PHP's `PHP Fatal error:  Uncaught …`, and others' `Fatal error: …`.
    ("Fatal error", Severity::Fatal),
    // Rust's runtime aborting the process: `thread 'parser' (19404) has overflowed its
    // stack`, then `fatal runtime error: stack overflow, aborting` (`fatal` has its slot
    // of the word filter already).
    ("overflowed its stack", Severity::Fatal),
    ("fatal runtime error:", Severity::Fatal),
    // Input cut short: gzip's `stdin: unexpected end of file`, tar's `Unexpected EOF in
    // archive`, bash's `syntax error: unexpected end of file`.
    ("unexpected end of file", Severity::Error),
    ("Unexpected EOF", Severity::Error),
    ("command not found", Severity::Error),
    ("No such file or directory", Severity::Error),
    ("Permission denied", Severity::Error),
    ("Connection refused", Severity::Error),
    ("No space left on device", Severity::Error),
    // An access log's request that failed on the server: `"GET / HTTP/1.1" 502 157`.
    ("HTTP/", Severity::Error),
    // Rails' log of a request that failed on the server, at INFO.
    ("Completed 5", Severity::Error),
    // The linker's errors, which name no level (`main.o: in function `main': undefined
    // reference to `foo'`, a symbol defined twice, code that cannot be linked as it was
    // compiled; macOS ld's), and Maven's and Gradle's verdicts, Maven's logged at INFO.
    // Each by a word whose first letters the filter holds already or that few words
    // share (`multiple …` would share its slot with `request`): a look at every word.
    ("undefined reference to", Severity::Error),
    ("first defined here", Severity::Error),
    ("recompile with -f", Severity::Error),
    ("failed to set dynamic section sizes", Severity::Error),
    ("Undefined symbols for architecture", Severity::Error),
    ("BUILD FAILURE", Severity::Error),
    ("FAILURE: Build", Severity::Error),
    ("What went wrong:", Severity::Error),
    // pnpm's error codes (`ERR_PNPM_NO_MATCHING_VERSION  No matching version …`), and
    // the count of errors a checker found (mypy's, ruff's, tsc's `Found 2 errors …`) or
    // a bundler met (webpack's `compiled with 1 error in 120 ms`).
    ("ERR_", Severity::Error),
    ("Found", Severity::Error),
    ("compiled with", Severity::Error),
    // A test runner's or a linter's count of what failed or warned, when no level is
    // stated: pytest's `=== 1 failed, 2 passed in 0.12s ===`, Jest's `Tests:  1 failed`,
    // Mocha's `2 failing`, ESLint's `✖ 3 problems (2 errors, 1 warning)`; TAP's `not ok
    // 3 - x`.
    ("fail", Severity::Error),
    ("error", Severity::Error),
    ("warning", Severity::Warn),
    ("not ok", Severity::Error),
    // A registry's refusal (`docker push`'s `denied: requested access to the resource is
    // denied`), CMake's error, git's refused push and its merge conflict.
    ("denied:", Severity::Error),
    ("CMake Error", Severity::Error),
    ("CMake Warning", Severity::Warn),
    ("CMake Deprecation Warning", Severity::Warn),
    ("rejected]", Severity::Error),
    ("CONFLICT (", Severity::Error),
    // The kernel's words for a machine in trouble that state no level: a CPU hung
    // (`NMI watchdog: Watchdog detected hard LOCKUP on cpu 2`), a file system's damage
    // (XFS's `Corruption detected. Unmount and run xfs_repair`), memory the network
    // stack or the connection tracker ran out of (`TCP: out of memory -- consider
    // tuning tcp_mem`, `nf_conntrack: table full, dropping packet`), a memory
    // controller's uncorrected error (EDAC's `1 UE memory read error on …`).
    ("hard LOCKUP", Severity::Error),
    ("Corruption detected", Severity::Error),
    ("out of memory", Severity::Error),
    ("table full, dropping packet", Severity::Error),
    ("memory read error", Severity::Error),
    // The linker's failure on macOS (`ld: symbol(s) not found for architecture arm64`)
    // and pip's of a package's build (`Command "python setup.py egg_info" failed with
    // error code 1 in /tmp/…`).
    ("symbol(s) not found", Severity::Error),
    ("failed with error code", Severity::Error),
    // HAProxy's server out of its backend and a backend with none left (`Server be/s1 is
    // DOWN, reason: Layer4 connection problem, …`, `backend be has no server
    // available!`); uWSGI's worker killed for its time and its death (`*** HARAKIRI ON
    // WORKER 2 (pid: 1202, try: 1) ***`, `DAMN ! worker 2 (pid: 1202) died, killed by
    // signal 9 :(`).
    ("DOWN, reason:", Severity::Error),
    ("no server available", Severity::Error),
    ("HARAKIRI ON WORKER", Severity::Error),
    ("DAMN ! worker", Severity::Error),
    // A database's deadlock, whatever level it is logged at (InnoDB's at `[Note]`).
    ("deadlock detected", Severity::Error),
];

/// Whether a signal's phrase, found between `before` and `after`, says what it signals:
/// an exit report
/// needs a non-zero code after it, `non-zero` an exit, status, code or return value,
/// `make` its failure report (`make: *** …`), and systemd's `code=…` the status beside
/// it, non-zero when the process exited. `FAIL` and `FAILED` are a whole word, not a
/// key or a count of none (`FAILED=0`, `# FAIL:  0`); `Killed`, and kubectl's statuses
/// `Evicted`, `Init:Error` and `InvalidImageName`, end the line or are
/// followed by a column's spaces (bash's `[1]+  Killed    sleep 100`); the kernel's
/// `BUG:` says what it found (`BUG: kernel NULL pointer dereference`, not a commit's
/// `BUG: fix …`); a system call's error ends the message (a parenthesis may follow:
/// `Permission denied (publickey).`), zsh names the command after its `command not
/// found: `, a count of errors (`Found 2 errors`, `compiled with 1 error`) is not of
/// none, `ERR_` opens a code in capitals, `fail`, `error` and `warning` end as words of
/// a count do (`failed`, `failing`, `failures`, `errors`, `warnings`) after a count that
/// is not of none, and TAP's `not ok` opens its line (after indentation) and is followed
/// by a space or nothing.
fn confirmed(phrase: &str, before: &[u8], after: &[u8]) -> bool {
    match phrase {
        "FAIL" => {
            let after = after.strip_prefix(b"ED").unwrap_or(after);
            // Ansible's task retried (`FAILED - RETRYING: [web1]: wait (5 retries
            // left).`): a warning, read where the line opens ([`opening_level`]).
            if after.starts_with(b" - RETRYING: ") {
                return false;
            }
            match after.first() {
                None | Some(b' ' | b'\t' | b'.' | b'!' | b']' | b')') => true,
                Some(b':') => !counts_none(&after[1..]),
                Some(_) => false,
            }
        }
        "Failed" | "Exception:" => is_ctest_result(before, after),
        // As Rust's runtime writes them: the thread's line ends so, the abort opens its own.
        "overflowed its stack" => after.trim_ascii_end().is_empty(),
        "fatal runtime error:" => before.is_empty(),
        "Killed" | "Evicted" | "Init:Error" | "InvalidImageName" => {
            after.trim_ascii_end().is_empty() || after.starts_with(b"  ")
        }
        "BUG:" => [
            &b" kernel"[..],
            b" unable to handle",
            b" soft lockup",
            b" KASAN",
            b" scheduling while atomic",
            b" Bad page",
            b" workqueue lockup",
            b" sleeping function called",
        ]
        .iter()
        .any(|what| after.starts_with(what)),
        "command not found" => ends_the_message(after) || after.starts_with(b": "),
        phrase if is_system_error(phrase) => ends_the_message(after),
        "make" | "gmake" => make_failure(after),
        "code=exited" => after.strip_prefix(b", status").is_some_and(nonzero_code),
        "code=killed" | "code=dumped" => after.starts_with(b", status="),
        "non-zero" => [&b" exit"[..], b" status", b" code", b" return"]
            .iter()
            .any(|what| after.starts_with(what)),
        // strace's `+++ exited with 3 +++` last: `exited with code 0` is no failure.
        "exit" | "Exit" => [
            &b" code"[..],
            b" status",
            b"ed with code",
            b"ed with status",
            b"ed with",
        ]
        .iter()
        .find_map(|what| after.strip_prefix(*what))
        .is_some_and(nonzero_code),
        "HTTP/" => {
            server_error_status(after)
                || ((before.is_empty() || before == b"< ") && status_line_error(after))
                || balancer_error_status(before)
        }
        // Rails' `Completed 500 Internal Server Error in 12ms`.
        "Completed 5" => {
            matches!(after, [b'0'..=b'9', b'0'..=b'9', b' ', ..])
        }
        "Fatal error" => after.starts_with(b":"),
        "Found" | "compiled with" => {
            let count = after.strip_prefix(b" ").unwrap_or_default();
            nonzero(count) && count[digits(count)..].starts_with(b" error")
        }
        // Node's error codes: `ERR_MODULE_NOT_FOUND`, pnpm's `ERR_PNPM_…`.
        "ERR_" => after.first().is_some_and(u8::is_ascii_uppercase),
        "fail" => {
            let Some((ending, rest)) = [&b"ed"[..], b"ing", b"ures", b"ure"]
                .iter()
                .find_map(|ending| Some((*ending, after.strip_prefix(*ending)?)))
            else {
                return false;
            };
            let ends_the_line = matches!(rest.trim_ascii_end(), b"" | b"." | b"!");
            (counted(before) && ends_a_count(rest))
                || (matches!(ending, b"ed" | b"ure") && ends_the_line && verdict_after(before))
        }
        "error" | "warning" => {
            counted(before) && ends_a_count(after.strip_prefix(b"s").unwrap_or(after))
        }
        "not ok" => {
            before.iter().all(|&b| b == b' ') && (after.is_empty() || after.starts_with(b" "))
        }
        _ => true,
    }
}

/// Whether `after`, what follows an access log's `HTTP/`, is the request's version, its
/// closing quote and a status of 500 to 599: `1.1" 503 -`. Not a status of 4xx: a
/// client's mistake (a 404) is the server's routine. (Graded as warnings, as lnav grades
/// them, a scanner's 404s filled `spill`'s preview of serious lines before the 500s and
/// tracebacks after them, and `docker`'s two entries kept of a template.)
fn server_error_status(after: &[u8]) -> bool {
    let version = after
        .iter()
        .take(4)
        .take_while(|b| b.is_ascii_digit() || **b == b'.')
        .count();
    let Some(status) = after[version..].strip_prefix(b"\" ") else {
        return false;
    };
    version > 0
        && matches!(status, [b'5', b'0'..=b'9', b'0'..=b'9', ..])
        && matches!(status.get(3), None | Some(b' '))
}

/// Whether `before`, what comes before an access log's `HTTP/`, holds a load balancer's
/// status of 500 to 599 before the request: HAProxy's after its five timers
/// (`0/0/1/179/377 500 6166 - - ---- … "GET /a HTTP/1.1"`, `0/-1/-1/-1/2 503`) and AWS
/// ALB's and ELB's after their three (`0.000 60.001 -1 504 - 123 272 "GET … HTTP/1.1"`).
/// Their status comes before the request, where an nginx log's comes after it
/// ([`server_error_status`]).
fn balancer_error_status(before: &[u8]) -> bool {
    // Each ` 5` is looked at (an access log's line is long; its fields are numbers), and
    // the three tokens before it.
    memchr::memchr_iter(b'5', before).any(|five| {
        // (None before a `5` that opens `before`.)
        let at = five.wrapping_sub(1);
        if !matches!(
            before.get(at..),
            Some([b' ', b'5', b'0'..=b'9', b'0'..=b'9', b' ', ..])
        ) {
            return false;
        }
        let mut tokens = (before[..at].rsplit(|&b| b == b' ')).filter(|token| !token.is_empty());
        let before_status: [Option<&[u8]>; 3] = [tokens.next(), tokens.next(), tokens.next()];
        before_status[0].is_some_and(is_haproxy_timers)
            || before_status
                .iter()
                .all(|token| token.is_some_and(is_elb_timing))
    })
}

/// Whether `token` is HAProxy's five timers of a request, each a count of milliseconds or
/// `-1` (`0/0/1/179/377`, `0/-1/-1/-1/2`, `+` before one logged as it ended).
fn is_haproxy_timers(token: &[u8]) -> bool {
    let mut fields = 0;
    token.split(|&b| b == b'/').all(|field| {
        fields += 1;
        let unsigned = field.strip_prefix(b"-").or(field.strip_prefix(b"+"));
        let number = unsigned.unwrap_or(field);
        !number.is_empty() && digits(number) == number.len()
    }) && fields == 5
}

/// Whether `token` is one of an AWS load balancer's timings, seconds with a fraction or
/// `-1` (`0.000`, `60.001`).
fn is_elb_timing(token: &[u8]) -> bool {
    let whole = digits(token);
    token == b"-1"
        || (whole > 0
            && token.get(whole) == Some(&b'.')
            && token.len() > whole + 1
            && digits(&token[whole + 1..]) == token.len() - whole - 1)
}

/// Whether `after`, what follows `HTTP/` opening a line, is a response's status line
/// with a status of 500 to 599, as `curl -i` prints it: `1.1 503 Service Unavailable`,
/// `2 500`.
fn status_line_error(after: &[u8]) -> bool {
    let version = after
        .iter()
        .take(3)
        .take_while(|b| b.is_ascii_digit() || **b == b'.')
        .count();
    version > 0
        && after[version..].strip_prefix(b" ").is_some_and(|status| {
            matches!(status, [b'5', b'0'..=b'9', b'0'..=b'9', ..])
                && matches!(status.get(3), None | Some(b' '))
        })
}

/// The signals that count only when no level is stated: a system call's error
/// ([`is_system_error`]), a count of what failed or warned, a registry's `denied:`.
fn counts_unless_stated(phrase: &str) -> bool {
    is_system_error(phrase) || matches!(phrase, "fail" | "error" | "warning" | "denied:")
}

/// Whether the word between `before` and `after` is CTest's outcome of a test, after its
/// three stars, the test's number and its name padded with dots: `  57/120 Test  #57:
/// polygon_area ....***Failed    0.04 sec`, `***Exception: SegFault  0.12 sec`.
fn is_ctest_result(before: &[u8], after: &[u8]) -> bool {
    let Some(head) = before.strip_suffix(b"***") else {
        return false;
    };
    let test = memchr::memmem::find(head, b"Test ").is_some_and(|at| head[at..].contains(&b'#'));
    test && (head.ends_with(b".") || head.ends_with(b" "))
        && after.first().is_none_or(|&b| b == b' ' || b == b'\t')
}

/// The signals that are a system call's error, which end the message they close.
fn is_system_error(phrase: &str) -> bool {
    matches!(
        phrase,
        "command not found"
            | "No such file or directory"
            | "Permission denied"
            | "Connection refused"
            | "No space left on device"
    )
}

/// Whether a test runner's mark of a failed test opens `bytes`, after its indentation:
/// Jest's `✕` and its failed test's header `● Suite › test`
/// ([`multiline::is_jest_failure`]), Vitest's `×`, others' `✗` and `✘`.
fn is_failure_mark(bytes: &[u8]) -> bool {
    let indent = bytes.iter().take_while(|&&b| b == b' ').count();
    let mark = &bytes[indent..];
    // Each mark's first byte is one of two: most lines are ruled out by it.
    matches!(mark.first(), Some(0xc3 | 0xe2))
        && (["✕ ", "✗ ", "✘ ", "× "]
            .iter()
            .any(|m| mark.starts_with(m.as_bytes()))
            || multiline::is_jest_failure(mark))
}

/// TAP's count of failed tests at its end, when not none: `# fail 2` (`node --test`).
fn is_tap_failure_count(bytes: &[u8]) -> bool {
    bytes.strip_prefix(b"# fail ").is_some_and(|count| {
        let count = count.trim_ascii_end();
        !count.is_empty() && count.iter().all(u8::is_ascii_digit) && nonzero(count)
    })
}

/// A runtime's report of an error nothing caught, at the start of a line: Dart's
/// `Unhandled exception:` above the exception, and what Lua's interpreter says as it
/// exits with an error, after its own name (`lua: app.lua:3: attempt to index a nil
/// value`, `luajit: …`, `/usr/bin/lua5.4: …`).
#[inline(never)] // read at the start of every line: its first byte rules most out
fn is_uncaught_error(bytes: &[u8]) -> bool {
    match bytes.first() {
        Some(b'U') => bytes.trim_ascii_end() == multiline::DART_UNHANDLED.as_bytes(),
        Some(b'l' | b'/') => {
            let Some(colon) = find(&bytes[..bytes.len().min(64)], b": ") else {
                return false;
            };
            let program = &bytes[..colon];
            let name = program.rsplit(|&b| b == b'/').next().unwrap_or(program);
            let version = |rest: &[u8]| {
                rest.is_empty()
                    || rest == b"jit"
                    || (rest.len() == 3 && rest[0].is_ascii_digit() && rest[1] == b'.')
            };
            !program.contains(&b' ') && name.strip_prefix(b"lua").is_some_and(version)
        }
        _ => false,
    }
}

/// Whether `after`, what follows a count's word (`1 failed`), ends the count: the line
/// ends, a list of counts goes on (`, 3 passed`, `; 0 ignored`, ` | 3 passed`, `)`), a
/// time follows (` in 0.12s`) or the total ends the line (Vitest's `Test Files  1
/// failed (1)`). Not a message's `pid 445 failed to act`.
fn ends_a_count(after: &[u8]) -> bool {
    let total = || {
        after.strip_prefix(b" (").is_some_and(|rest| {
            let digits = digits(rest);
            digits > 0 && rest[digits..].trim_ascii_end() == b")"
        })
    };
    after.trim_ascii_end().is_empty()
        || [&b","[..], b";", b")", b" |", b" in "]
            .iter()
            .any(|next| after.starts_with(next))
        || total()
}

/// Whether `failed` (or `failure`) ending a line after `before` is its verdict: after
/// a word that is no count and says nothing of it (`not`, `if`): `Job deploy failed`,
/// `Build failed.`, `Run state: failure`. A program's verdict in its own words; not `0
/// failed`, `if it failed`, nor a login's (`sshd[7]: authentication failure`, `Kerberos
/// authentication failed`): a client's mistake, the server's routine, as an access log's
/// 4xx.
fn verdict_after(before: &[u8]) -> bool {
    let Some(before) = before.strip_suffix(b" ") else {
        return false;
    };
    // The word before, past a colon (`state: failure`).
    let word = (before.split(|b| !b.is_ascii_alphanumeric()))
        .rfind(|word| !word.is_empty())
        .unwrap_or_default();
    word.first().is_some_and(u8::is_ascii_alphabetic)
        && !matches!(
            word,
            b"not" | b"never" | b"if" | b"unless" | b"whether" | b"it" | b"authentication"
        )
}

/// Whether `before` ends with a number that is not zero and a space (`Tests: 1 `,
/// `(2 `), the number after a space, a parenthesis or nothing (not a version's `1.2 `
/// or a place's `12:5 `).
fn counted(before: &[u8]) -> bool {
    let Some(before) = before.strip_suffix(b" ") else {
        return false;
    };
    let digits = before
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_digit())
        .count();
    let (head, number) = before.split_at(before.len() - digits);
    nonzero(number) && matches!(head.last(), None | Some(b' ' | b'\t' | b'('))
}

/// Whether `after` is a count of none: ` 0`, `  0 `.
fn counts_none(after: &[u8]) -> bool {
    let after = after.trim_ascii_start();
    after.first() == Some(&b'0') && !after.get(1).is_some_and(u8::is_ascii_digit)
}

/// Whether `after` holds nothing more than a period or a parenthesis.
fn ends_the_message(after: &[u8]) -> bool {
    let after = after.trim_ascii_end();
    let after = after.strip_suffix(b".").unwrap_or(after);
    after.is_empty() || (after.starts_with(b" (") && after.ends_with(b")"))
}

/// What follows `make` in its failure reports, `make: *** [all] Error 2`,
/// `make[1]: *** [Makefile:5: x.o] Error 1` and `make: *** No rule to make target 'x'.
/// Stop.`; not in `make: [all] Error 1 (ignored)` or `make[1]: *** Waiting for
/// unfinished jobs....`, which report no failure of their own.
fn make_failure(after: &[u8]) -> bool {
    let after = match after.strip_prefix(b"[") {
        Some(depth) => match depth.iter().position(|&b| b == b']') {
            Some(end) if end > 0 && depth[..end].iter().all(u8::is_ascii_digit) => {
                &depth[end + 1..]
            }
            _ => return false,
        },
        None => after,
    };
    if !after.starts_with(b": *** ") {
        return false;
    }
    let line = after.trim_ascii_end();
    let digits = line.iter().rev().take_while(|b| b.is_ascii_digit()).count();
    let (head, code) = line.split_at(line.len() - digits);
    line.ends_with(b"Stop.")
        || (head.ends_with(b"] Error ") && nonzero_code(code))
        // `make -k` goes on without its `Stop.`.
        || after.starts_with(b": *** No rule to make target ")
}

/// glog's `E1129 …`: a level letter, then the date's four digits.
fn glog_letter(bytes: &[u8]) -> Option<Severity> {
    if bytes.len() > 5 && bytes[1..5].iter().all(u8::is_ascii_digit) {
        return letter_level(bytes[0]);
    }
    None
}

/// The message after syslog's tag, `ident[pid]: `, within a line's first
/// [`TAG_WINDOW`] bytes: a service's line as journalctl and rsyslog write it (`Dec 05
/// 10:00:01 node1 kubelet[1234]: E1205 …`), whose level opens the message, not the line.
fn tagged_message(bytes: &[u8]) -> Option<&[u8]> {
    let head = &bytes[..bytes.len().min(TAG_WINDOW)];
    let mut from = 0;
    while let Some(found) = memchr::memchr(b']', &head[from..]) {
        let close = from + found;
        from = close + 1;
        let pid = head[..close]
            .iter()
            .rev()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let Some(open) = (close - pid).checked_sub(1) else {
            continue;
        };
        let tagged = pid > 0
            && head[open] == b'['
            && open
                .checked_sub(1)
                .is_some_and(|p| !head[p].is_ascii_whitespace())
            && bytes[close + 1..].starts_with(b": ");
        if tagged {
            return Some(&bytes[close + 3..]);
        }
    }
    None
}

/// How far into a line [`tagged_message`] looks for syslog's tag: past a time, a host
/// and a service's name.
const TAG_WINDOW: usize = 128;

/// The level of syslog's priority opening a line, `<PRI>` with PRI = facility × 8 +
/// severity (0 to 191): RFC 3164's `<34>Oct 11 22:14:15 host su: …`, RFC 5424's
/// `<165>1 2003-10-11T22:14:15Z …`, and the kernel's and systemd's `<3>message` (as
/// `/dev/kmsg` and a service's stderr with level prefixes write it). Its severity is
/// PRI mod 8: emergency, alert and critical are fatal; then error, warning; notice and
/// informational are info; debug.
fn syslog_priority(bytes: &[u8]) -> Option<Severity> {
    let rest = bytes.strip_prefix(b"<")?;
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    // No leading zero but `<0>` itself, as the RFCs write it; and something after.
    if !(1..=3).contains(&digits)
        || (digits > 1 && rest[0] == b'0')
        || rest.get(digits) != Some(&b'>')
        || rest.len() == digits + 1
    {
        return None;
    }
    let priority: u32 = rest[..digits]
        .iter()
        .fold(0, |n, b| n * 10 + u32::from(b - b'0'));
    (priority <= 191).then_some(match priority % 8 {
        0..=2 => Severity::Fatal,
        3 => Severity::Error,
        4 => Severity::Warn,
        5 | 6 => Severity::Info,
        _ => Severity::Debug,
    })
}

/// The level a few tools write as a line's first word: apt's and debootstrap's `E: `,
/// `W: `, `I: `, `N: `, .NET's console logger's `fail: `, `dbug: `, `trce: ` (its
/// `info:`, `warn:` and `crit:` are level words), GitHub Actions' `::error …::` and
/// `::warning …::`, Ansible's `failed: [host]` and `FAILED - RETRYING: `, dpkg's
/// errors in its own words (`dpkg: error processing package foo (--configure):`,
/// `dpkg: dependency problems prevent configuration of foo:`) and apt's heading of them
/// (`Errors were encountered while processing:`), PHP's levels that are no level words
/// (`PHP Deprecated:  …`, `Deprecated: …`, `PHP Notice:  …`; its `Warning:` and `Fatal
/// error:` are), kubectl's refusal of an object (`The Deployment "api" is invalid:
/// …`), and the heading of an Erlang/OTP report that names no level (`=CRASH
/// REPORT==== 5-Mar-2024::10:00:01 ===`, `=SUPERVISOR REPORT====`, `=PROGRESS
/// REPORT====`).
fn opening_level(bytes: &[u8]) -> Option<Severity> {
    // The bytes these open with: one rules out nearly every line (this is read of each).
    const OPENING: [bool; 256] = {
        let mut opening = [false; 256];
        let bytes = b"EFINWTDP:=efwdt";
        let mut i = 0;
        while i < bytes.len() {
            opening[bytes[i] as usize] = true;
            i += 1;
        }
        opening
    };
    if !bytes.first().is_some_and(|&b| OPENING[usize::from(b)]) {
        return None;
    }
    Some(match bytes {
        [b'E', b':', b' ', ..] | [b'f', b'a', b'i', b'l', b':', b' ', ..] => Severity::Error,
        // kotlinc's diagnostics, a file's place after them: `e: file:///a/App.kt:17:20
        // Unresolved reference`, `w: /a/B.kt: (3, 9): never used`.
        [level @ (b'e' | b'w'), b':', b' ', rest @ ..] if is_kotlin_place(rest) => match level {
            b'e' => Severity::Error,
            _ => Severity::Warn,
        },
        // yarn's: `error An unexpected error occurred: …`, `warning package.json: No
        // license field` (not prose's `error handling is …`).
        [b'e', b'r', b'r', b'o', b'r', b' ', rest @ ..] if is_yarn_message(rest) => Severity::Error,
        [b'w', b'a', b'r', b'n', b'i', b'n', b'g', b' ', rest @ ..] if is_yarn_message(rest) => {
            Severity::Warn
        }
        // GitHub Actions' workflow commands: `::error file=a.js,line=1::Missing …`.
        [b':', b':', b'e', b'r', b'r', b'o', b'r', b' ' | b':', ..] => Severity::Error,
        [b':', b':', b'w', b'a', b'r', b'n', b'i', b'n', b'g', b' ' | b':', ..] => Severity::Warn,
        [b'W', b':', b' ', ..] => Severity::Warn,
        [b'I' | b'N', b':', b' ', ..] => Severity::Info,
        [b'd', b'b', b'u', b'g', b':', b' ', ..] => Severity::Debug,
        [b't', b'r', b'c', b'e', b':', b' ', ..] => Severity::Trace,
        [b'd', b'p', b'k', b'g', b':', b' ', rest @ ..]
            if rest.starts_with(b"error ") || rest.starts_with(b"dependency problems ") =>
        {
            Severity::Error
        }
        [b'E', b'r', b'r', b'o', b'r', b's', b' ', rest @ ..]
            if rest.starts_with(b"were encountered while processing:") =>
        {
            Severity::Error
        }
        // Ansible's task that failed for a host or a loop's item (`failed: [web1]
        // (item=a.conf) => {…}`; its `fatal: [web1]: FAILED! …` states a level), and
        // one it retries (`FAILED - RETRYING: [web1]: wait (5 retries left).`).
        [b'f', b'a', b'i', b'l', b'e', b'd', b':', b' ', b'[', ..] => Severity::Error,
        _ if bytes.starts_with(b"FAILED - RETRYING: ") => Severity::Warn,
        // Their first bytes in the pattern: a syslog's `Dec 05 …` is ruled out in it.
        [b'P', b'H', b'P', b' ', rest @ ..] => return php_level(rest),
        [b'D', b'e', b'p', ..] | [b'N', b'o', b't', ..] => return php_level(bytes),
        [b'T', b'h', b'e', b' ', rest @ ..] if is_kubectl_invalid(rest) => Severity::Error,
        [b'=', rest @ ..] if rest.starts_with(b"CRASH REPORT====") => Severity::Error,
        [b'=', rest @ ..] if rest.starts_with(b"SUPERVISOR REPORT====") => Severity::Error,
        [b'=', rest @ ..] if rest.starts_with(b"PROGRESS REPORT====") => Severity::Info,
        _ => return None,
    })
}

/// PHP's levels that are no level words, at the start of its message: `Deprecated: `
/// a warning, as Python's `DeprecationWarning` is, and `Notice: ` information, as
/// syslog's `notice` is.
fn php_level(message: &[u8]) -> Option<Severity> {
    if message.starts_with(b"Deprecated: ") {
        Some(Severity::Warn)
    } else if message.starts_with(b"Notice: ") {
        Some(Severity::Info)
    } else {
        None
    }
}

/// Whether the word at `start` follows a comma or a semicolon and a space: a key in a
/// list of them (`reason: timeout, info: "Connection refused"`, `aborted; debug: see x`).
fn is_listed_key(bytes: &[u8], start: usize) -> bool {
    start >= 2 && matches!(&bytes[start - 2..start], b", " | b"; ")
}

/// Whether the word at `start` (to `end`) is the `trace` of a header of a stack's frames,
/// no level: `Stack trace:` (PHP's), `Stack Trace:` (`dotnet test`'s), the kernel's `Call
/// Trace:`, testify's `Error Trace:`. In capitals it is a level still (`Stack TRACE: x`).
fn is_stack_trace(bytes: &[u8], start: usize, end: usize) -> bool {
    let before = &bytes[..start];
    bytes[start..end].iter().any(u8::is_ascii_lowercase)
        && ["Stack ", "stack ", "Call ", "Error "]
            .iter()
            .any(|heading| before.ends_with(heading.as_bytes()))
}

/// Whether `rest`, after a line's `The `, is kubectl's refusal of an object it was
/// given: a kind, its name quoted, then ` is invalid: ` (`Deployment "api" is invalid:
/// spec.template…: Required value`).
fn is_kubectl_invalid(rest: &[u8]) -> bool {
    let kind = rest
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric())
        .count();
    let Some(name) = rest[kind..].strip_prefix(b" \"").filter(|_| kind > 0) else {
        return false;
    };
    let Some(close) = name.iter().position(|&b| b == b'"') else {
        return false;
    };
    name[close + 1..].starts_with(b" is invalid: ")
}

/// Whether `rest`, after kotlinc's `e: ` or `w: `, opens with a file's place: a URL
/// (`file:///…`), an absolute path, or a Windows one (`C:\…`).
fn is_kotlin_place(rest: &[u8]) -> bool {
    rest.starts_with(b"file:")
        || rest.first() == Some(&b'/')
        || matches!(rest, [drive, b':', b'\\' | b'/', ..] if drive.is_ascii_alphabetic())
}

/// Whether `rest`, after yarn's `error ` or `warning ` opening a line, reads as yarn's
/// message: a capital (`An unexpected error`), a quote (`"pkg > dep" has unmet peer
/// dependency`), or a word and a colon (`package.json: No license field`).
fn is_yarn_message(rest: &[u8]) -> bool {
    let word = rest.iter().take_while(|b| !b.is_ascii_whitespace()).count();
    matches!(rest.first(), Some(b'A'..=b'Z' | b'"'))
        || (word > 1 && rest[word - 1] == b':' && rest.get(word) == Some(&b' '))
}

/// The level pino and bunyan, Node's JSON loggers, write as a number: `{"level":50,…`
/// (pino's first key) and `{"name":"app",…,"level":40,…` (bunyan's, within its first
/// keys), spaced or not (`{"level": 50, …`, as Python's `json.dumps` writes them): 10
/// trace, 20 debug, 30 info, 40 warn, 50 error, 60 fatal.
fn numeric_level(bytes: &[u8]) -> Option<Severity> {
    const KEY: &[u8] = b"\"level\"";
    let body = bytes.strip_prefix(b"{")?.trim_ascii_start();
    let at = if body.starts_with(KEY) {
        0
    } else if body.starts_with(b"\"name\"") {
        find(&body[..body.len().min(160)], KEY)?
    } else {
        return None;
    };
    let value = body[at + KEY.len()..]
        .trim_ascii_start()
        .strip_prefix(b":")?
        .trim_ascii_start();
    let level = match value.get(..2)? {
        b"10" => Severity::Trace,
        b"20" => Severity::Debug,
        b"30" => Severity::Info,
        b"40" => Severity::Warn,
        b"50" => Severity::Error,
        b"60" => Severity::Fatal,
        _ => return None,
    };
    matches!(value.get(2), Some(b',' | b'}' | b' ')).then_some(level)
}

/// The level of Redis's log line (`1:M 05 Mar 2024 10:00:00.104 # Failed listening on
/// port 6379 (tcp), aborting.`): its process id, role and time, then its mark: `#` a
/// warning, `*` a notice (info), `-` verbose and `.` debug.
fn redis_level(bytes: &[u8]) -> Option<Severity> {
    // `PID:R `, then the time's fixed 24 bytes (`05 Mar 2024 10:00:00.104`) and a space.
    const TIME: usize = 24;
    let pid = digits(bytes);
    let rest = bytes.get(pid..).filter(|_| pid > 0)?;
    let [b':', b'X' | b'C' | b'S' | b'M', b' ', rest @ ..] = rest else {
        return None;
    };
    let [b' ', mark, b' ', ..] = rest.get(TIME..)? else {
        return None;
    };
    let month = rest.get(3..6)?;
    if !(rest[2] == b' ' && month.iter().all(u8::is_ascii_alphabetic) && rest[TIME - 4] == b'.') {
        return None;
    }
    match mark {
        b'#' => Some(Severity::Warn),
        b'*' => Some(Severity::Info),
        b'-' | b'.' => Some(Severity::Debug),
        _ => None,
    }
}

/// The level of MongoDB's structured log (4.4 and later), its `"s"` after its time:
/// `{"t":{"$date":"…"},"s":"E",  "c":"STORAGE", …}`: `F` fatal, `E` error, `W` warning,
/// `I` info, `D1` to `D5` debug. For a reader of JSON lines that takes their level by its
/// key (docker's payloads), where `"s"` names none elsewhere.
///
/// ```
/// use briefly_severity::{mongodb_level, Severity};
///
/// let line = br#"{"t":{"$date":"2026-11-29T10:00:00.000+00:00"},"s":"E","c":"NETWORK","msg":"x"}"#;
/// assert_eq!(mongodb_level(line), Some(Severity::Error));
/// assert_eq!(mongodb_level(br#"{"s":"E","msg":"x"}"#), None);
/// ```
pub fn mongodb_level(bytes: &[u8]) -> Option<Severity> {
    let rest = bytes.strip_prefix(b"{\"t\":{\"$date\":")?;
    let close = rest.iter().position(|&b| b == b'}')?;
    let value = rest[close + 1..].strip_prefix(b",\"s\":\"")?;
    Some(match value {
        [b'F', b'"', ..] => Severity::Fatal,
        [b'E', b'"', ..] => Severity::Error,
        [b'W', b'"', ..] => Severity::Warn,
        [b'I', b'"', ..] => Severity::Info,
        [b'D', b'1'..=b'5', b'"', ..] => Severity::Debug,
        _ => return None,
    })
}

/// Whether the byte at `i` stands as a column within the head: after a space, before a
/// space, or before a slash and a tag (logcat's `I/ActivityManager`; not `I/O`), and after
/// a column that is no word of prose (logcat's time or thread id, a tag in capitals:
/// macOS's `TBT W (2): …`; not javac's note on a type variable, `  where E is a
/// type-variable:`, `    E extends Object declared in …`).
fn is_column(bytes: &[u8], i: usize) -> bool {
    if i == 0 {
        return logcat_brief_close(bytes).is_some();
    }
    let tag = || {
        let tag = &bytes[i + 2..];
        tag.iter().take(2).filter(|b| is_word_byte(**b)).count() == 2
    };
    // A letter of a word spaced out (Maven's `[INFO]  T E S T S`): a letter alone beside it.
    let lone_letter = |at: usize| {
        bytes.get(at).is_some_and(u8::is_ascii_alphabetic)
            && at.checked_sub(1).is_none_or(|p| bytes[p] == b' ')
            && bytes.get(at + 1).is_none_or(|b| *b == b' ')
    };
    i > 0
        && bytes[i - 1] == b' '
        && i + 1 < bytes.len().min(COLUMN_WINDOW)
        && (bytes[i + 1] == b' ' || (bytes[i + 1] == b'/' && tag()))
        && bytes[..i]
            .trim_ascii_end()
            .last()
            .is_some_and(|b| !b.is_ascii_lowercase())
        && !(i.checked_sub(2).is_some_and(lone_letter) || lone_letter(i + 2))
}

/// Where logcat's columns as `-v brief` (and `-v time`, after its time) writes them
/// close, when `bytes` opens with them: its level's letter, tag and process id,
/// `E/ActivityManager( 1532): `, `I/chatty  (  812): `; the index of the `)` before
/// the colon.
///
/// ```
/// use briefly_severity::logcat_brief_close;
///
/// assert_eq!(logcat_brief_close(b"E/ActivityManager( 1532): ANR in x"), Some(23));
/// assert_eq!(logcat_brief_close(b"I/O error (5): disk"), None);
/// ```
pub fn logcat_brief_close(bytes: &[u8]) -> Option<usize> {
    const LEVELS: &[u8] = b"VDIWEFA";
    let head = &bytes[..bytes.len().min(COLUMN_WINDOW)];
    if !(head.len() > 2 && LEVELS.contains(&head[0]) && head[1] == b'/') {
        return None;
    }
    let open = 2 + head[2..].iter().position(|&b| b == b'(')?;
    let tag = head[2..open].trim_ascii_end();
    let pid_at = open + 1 + head[open + 1..].iter().take_while(|&&b| b == b' ').count();
    let digits = head[pid_at..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    let close = pid_at + digits;
    let columns =
        !tag.is_empty() && !tag.contains(&b' ') && digits > 0 && head[close..].starts_with(b"):");
    columns.then_some(close)
}

/// Whether what lies between a level stated and a later one in prose's form, `between`,
/// makes the later one open a line relayed after the first: no word (`[INFO] error: …`)
/// or one, a tool's name or a logger's (Python's `INFO:app:error: …`). Two or more are a
/// message's words (`INFO retrying after error: timeout`).
fn relays(between: &[u8]) -> bool {
    let mut words = 0;
    let mut in_word = false;
    for &b in between {
        let word = is_word_byte(b);
        if word && !in_word {
            words += 1;
            if words > 1 {
                return false;
            }
        }
        in_word = word;
    }
    true
}

/// What a word says of its line.
enum Found {
    /// A level, written as one; `prose` when only by a colon after it, in lower case
    /// (`error:`), as a message's words may be.
    Stated { level: Severity, prose: bool },
    /// A level after its key: `level=warn`, `"severity": "ERROR"`.
    Keyed(Severity),
    /// An error or exception type's name.
    Named,
}

fn word_level(bytes: &[u8], start: usize, end: usize, word: &[u8]) -> Option<Found> {
    let level = match word.len() {
        ..=11 => level_word(word),
        _ => None,
    };
    let Some(level) = level else {
        return camel_error(word).filter(|_| !names_a_file(bytes, start, end));
    };
    // A count of none: `Total errors: 0`, `ERRORS: 0`, `Error: none`, `WARNING: 0 issues`.
    if bytes.get(end) == Some(&b':') && is_count_of_none(&bytes[end + 1..]) {
        return None;
    }
    // A file's name (`FATAL.md`) or a module's (Perl's `Error::Simple`), as `ls` lists
    // them; not a level's tag (celery's `ERROR/MainProcess`).
    let extension =
        bytes.get(end) == Some(&b'.') && bytes.get(end + 1).is_some_and(u8::is_ascii_alphanumeric);
    // A path's last part too (`tree/d3/ERROR`, as `find` lists it).
    let last_part =
        start > 0 && bytes[start - 1] == b'/' && bytes.get(end).is_none_or(u8::is_ascii_whitespace);
    if extension || last_part || bytes[end..].starts_with(b"::") {
        return None;
    }
    let capitals = word.iter().all(|b| !b.is_ascii_lowercase());
    let before = start.checked_sub(1).map(|p| bytes[p]);
    let after = bytes.get(end).copied();
    let bracketed = matches!(before, Some(b'[' | b'<' | b'(' | b'|'))
        && matches!(after, Some(b']' | b'>' | b')' | b'|'));
    // Apache 2.4's error log names the module first: `[proxy:error]`, `[core:crit]`.
    let after_module = before == Some(b':')
        && after == Some(b']')
        && bytes[..start - 1]
            .iter()
            .rposition(|&b| b == b'[')
            .is_some_and(|open| {
                let module = &bytes[open + 1..start - 1];
                !module.is_empty() && module.iter().all(|&b| is_word_byte(b))
            });
    // Not the part of an Objective-C selector: `…Path:error:]`, `…:error:completion:`.
    let selector = before == Some(b':')
        && bytes
            .get(end + 1)
            .is_some_and(|b| *b == b']' || b.is_ascii_alphabetic());
    // Nor the end of a compound or a path's name: `PyYAML-6.0.dist-info:`, `egg-info:`
    // (`ls -R` lists them), unless in capitals (`app-ERROR:`); a class's is a level
    // (`java.lang.Error:`).
    let compound = match before {
        Some(b'-' | b'/') => !capitals,
        Some(b'.') => word.iter().all(|b| !b.is_ascii_uppercase()),
        _ => false,
    };
    // Nor a member of a list (dpkg -l's legend: `(Status,Err: uppercase=bad)`).
    let listed = before == Some(b',');
    let colon = matches!(after, Some(b':' | b'[')) && !selector && !compound && !listed;
    // A table's column of levels, as kubectl writes events: `Warning  BackOff  3m …`,
    // set apart on both sides by two spaces or a tab (or the line's start).
    let apart = |gap: &[u8]| gap.starts_with(b"  ") || gap.first() == Some(&b'\t');
    // Windows' CBS and CSI logs set theirs after the time and a comma: `2016-09-28
    // 04:30:31, Warning               CBS    …`.
    let after_time = |head: &[u8]| {
        let time = head.strip_suffix(b", ").and_then(|h| h.last_chunk::<8>());
        time.is_some_and(|t| {
            t.iter().enumerate().all(|(i, b)| {
                if i % 3 == 2 {
                    *b == b':'
                } else {
                    b.is_ascii_digit()
                }
            })
        })
    };
    // A plural heads a table's column (tsc's `Errors  Files`): a count, not a level.
    let plural = word.len() > 5 && word.last() == Some(&b's');
    let column = word[0].is_ascii_uppercase()
        && !plural
        && (start == 0
            || bytes[start - 1] == b'\t'
            || bytes[..start].ends_with(b"  ")
            || after_time(&bytes[..start]))
        && apart(&bytes[end..]);
    // ESLint's table, the level apart after a position: `  12:5  error  'x' is unused`,
    // behind a CI job's time too (`2026-…Z   12:5  error  …`).
    let positioned = bytes[..start].ends_with(b"  ") && apart(&bytes[end..]) && {
        let head = bytes[..start].trim_ascii();
        is_position(head)
            || head
                .iter()
                .rposition(u8::is_ascii_whitespace)
                .is_some_and(|gap| {
                    let time = head[..gap].trim_ascii();
                    !time.is_empty()
                        && !time.iter().any(u8::is_ascii_whitespace)
                        && is_position(&head[gap + 1..])
                })
    };
    // In lower case right after the line's time, set apart by a space or a tab: zap's
    // console encoder (`2024-12-07T08:26:40.000Z\terror\tmain.go:12\t…`, its epoch
    // `1.7335e+09\tinfo\t…`), Node's loggers (`[2024-12-07T08:26:40.000Z] info  http …`).
    // (Looked at last: most levels are in capitals.)
    let stamped =
        || !plural && matches!(after, Some(b' ' | b'\t')) && is_a_leading_time(&bytes[..start]);
    // A compiler's coded diagnostic: tsc's `error TS2322:`, csc's `error CS0103:`,
    // MSBuild's `warning MSB3277:`.
    let coded = after == Some(b' ') && is_diagnostic_code(&bytes[end + 1..]);
    // npm's debug log, the level after the line's number: `23 error 404 Not Found`.
    let numbered = after == Some(b' ')
        && matches!(word, b"error" | b"warn" | b"info" | b"verbose")
        && bytes[..start]
            .strip_suffix(b" ")
            .is_some_and(|number| !number.is_empty() && number.iter().all(u8::is_ascii_digit));
    // sqlite3's shell, where a script failed: `Parse error near line 5: no such column`.
    let near_line = word == b"error"
        && after == Some(b' ')
        && bytes[end..]
            .strip_prefix(b" near line ")
            .is_some_and(|rest| digits(rest) > 0 && rest.get(digits(rest)) == Some(&b':'));
    // A compiler's macro is the value it defines (`cc -DLOG_LEVEL=ERROR -c a.c`), an
    // environment variable's the value it is set to (`LOG_LEVEL=error`, as `env` lists it).
    // (The second looked for after its `=` alone: read of every level word, it cost 1% of
    // the instructions of `benches/instructions.sh`'s log.)
    if defines_a_macro(&bytes[..start])
        || (matches!(before, Some(b'=' | b'"')) && sets_a_variable(bytes, start, end))
    {
        return None;
    }
    if preceded_by_level_key(bytes, start) {
        return Some(Found::Keyed(level));
    }
    // A value in single quotes, not a level's, is a string a command or a program names
    // (make's echo of `! grep -q 'ERROR' app.log`).
    if before == Some(b'\'') && after == Some(b'\'') {
        return None;
    }
    let written = capitals
        || bracketed
        || after_module
        || column
        || positioned
        || coded
        || numbered
        || near_line
        || stamped();
    let prose = !written && colon && word[0].is_ascii_lowercase();
    (written || colon).then_some(Found::Stated { level, prose })
}

/// Whether `rest`, what follows a level word's colon, is a count of none to the line's
/// end or to the next count of a list (`Errors: 0, Skipped: 0`, `errors: 0; warnings:
/// 0`): `0`, `none`, or `0` and a plural noun (`0 issues`). Not a message that opens with
/// a zero (`0 is not a valid port`), as [`counts_none`] after `FAIL:` would have it.
fn is_count_of_none(rest: &[u8]) -> bool {
    // A list goes on with another count (`Skipped: 0`), not with a message (`ERROR: 0,
    // expected 1`).
    let count = rest
        .iter()
        .position(|b| matches!(b, b',' | b';'))
        .filter(|&at| opens_a_count(&rest[at + 1..]));
    let rest = rest[..count.unwrap_or(rest.len())].trim_ascii();
    if rest == b"0" || rest.eq_ignore_ascii_case(b"none") {
        return true;
    }
    rest.strip_prefix(b"0 ").is_some_and(|noun| {
        noun.len() > 1 && noun.ends_with(b"s") && noun.iter().all(u8::is_ascii_alphabetic)
    })
}

/// Whether `text` opens with a count of a list: a name of words, a colon or `=`, and a
/// number (` Skipped: 0`, ` warnings=2`, ` Time elapsed: 0.1 s`).
fn opens_a_count(text: &[u8]) -> bool {
    let text = text.trim_ascii_start();
    let name = text
        .iter()
        .take_while(|b| b.is_ascii_alphabetic() || **b == b' ' || **b == b'_')
        .count();
    let Some(value) = text[name..]
        .strip_prefix(b":")
        .or_else(|| text[name..].strip_prefix(b"="))
    else {
        return false;
    };
    name > 0 && digits(value.trim_ascii_start()) > 0
}

/// Whether `rest`, what follows `warning:`, is cargo's count of a crate's warnings: `
/// \`app\` (lib) generated 3 warnings` (`(bin "app")`, `(lib test)`; a note on `cargo
/// fix` may follow).
fn is_cargo_warning_count(rest: &[u8]) -> bool {
    rest.starts_with(b" `")
        && find(rest, b") generated ").is_some_and(|at| {
            let count = &rest[at + b") generated ".len()..];
            let digits = digits(count);
            digits > 0 && count[digits..].starts_with(b" warning")
        })
}

/// Whether `rest`, what follows `[ERROR]`, is what Maven prints around what failed: the
/// heading of the compiler's errors (each of which says so), and the advice under a
/// failure (`-> [Help 1]`, `Re-run Maven using the -X switch …`, a blank line).
fn is_maven_aside(rest: &[u8]) -> bool {
    const ADVICE: [&[u8]; 8] = [
        b"COMPILATION ERROR :",
        b"-> [Help ",
        b"To see the full stack trace of the errors",
        b"Re-run Maven using the -X switch",
        b"For more information about the errors and possible solutions",
        b"[Help ",
        b"After correcting the problems, you can resume the build",
        b"  mvn <args> -rf ",
    ];
    let Some(advice) = rest.strip_prefix(b" ") else {
        return rest.trim_ascii().is_empty();
    };
    advice.trim_ascii().is_empty() || ADVICE.iter().any(|start| advice.starts_with(start))
}

/// Whether `head`, all of a line before a word, is a time and the space after it: a
/// token or a date and a time (`2024-12-07 08:26:40.123`), in brackets or not, with a
/// clock's `hh:mm:ss` (`[08:26:40]`, `2024-12-07T08:26:40.000Z`, `+00:00`) or as seconds
/// since the epoch (zap's `1.7335612e+09`, `1733561200.123`).
fn is_a_leading_time(head: &[u8]) -> bool {
    let time = head.trim_ascii_end();
    if time.len() == head.len() || time.len() > 40 {
        return false;
    }
    let time = time
        .strip_prefix(b"[")
        .and_then(|t| t.strip_suffix(b"]"))
        .unwrap_or(time);
    let stamp_byte = |b: &u8| b.is_ascii_digit() || b"-/:.,TZ+ ".contains(b);
    if !time.iter().all(stamp_byte) || time.iter().filter(|&&b| b == b' ').count() > 1 {
        // (An epoch in zap's notation has an `e`: `1.7335612e+09`.)
        let (mantissa, exponent) = match time.iter().position(|&b| b == b'e') {
            Some(e) => time.split_at(e),
            None => return false,
        };
        return digits(mantissa) == 1
            && mantissa.get(1) == Some(&b'.')
            && digits(&mantissa[2..]) + 2 == mantissa.len()
            && exponent.len() == 4
            && exponent[1] == b'+'
            && digits(&exponent[2..]) == 2;
    }
    let clock = time.windows(8).any(|w| {
        w.iter().enumerate().all(|(i, b)| {
            if i % 3 == 2 {
                *b == b':'
            } else {
                b.is_ascii_digit()
            }
        })
    });
    let epoch = digits(time) == 10 && time.get(10).is_none_or(|&b| b == b'.');
    clock || epoch
}

/// Whether the word at `start..end` of `line` is all an environment variable is set to,
/// as `env` and `export -p` list it: the line is a name of capitals and digits with an
/// `_`, `=` and the word (`LOG_LEVEL=error`, `declare -x APP_LOG_LEVEL="debug"`).
fn sets_a_variable(line: &[u8], start: usize, end: usize) -> bool {
    let head = &line[..start];
    let Some(head) = (head.strip_suffix(b"\""))
        .unwrap_or(head)
        .strip_suffix(b"=")
    else {
        return false;
    };
    let name = [&b"declare -x "[..], b"export "]
        .iter()
        .find_map(|prefix| head.strip_prefix(*prefix))
        .unwrap_or(head);
    name.contains(&b'_')
        && name
            .iter()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || *b == b'_')
        && matches!(line[end..].trim_ascii_end(), b"" | b"\"")
}

/// `12:5`: a line and a column, all of `text`.
fn is_position(text: &[u8]) -> bool {
    number_and_colon(text).is_some_and(|line| {
        let column = digits(&text[line..]);
        column > 0 && line + column == text.len()
    })
}

/// Whether `rest` opens with a compiler's diagnostic code and a colon: one to four capital
/// letters and two to six digits (`TS2322:`, `CS0103:`, `MSB3277:`).
fn is_diagnostic_code(rest: &[u8]) -> bool {
    let letters = rest.iter().take_while(|b| b.is_ascii_uppercase()).count();
    let digits = digits(&rest[letters..]);
    (1..=4).contains(&letters)
        && (2..=6).contains(&digits)
        && rest.get(letters + digits) == Some(&b':')
}

/// `level=`, `"level":"`, `"level": "`, `severity: `, `lvl = ` just before `start`: a
/// level key, `=` or `:`, with optional quotes and spaces around them.
fn preceded_by_level_key(bytes: &[u8], start: usize) -> bool {
    let head = &bytes[..start];
    let head = head
        .strip_suffix(b"\"")
        .or_else(|| head.strip_suffix(b"'"))
        .unwrap_or(head)
        .trim_ascii_end();
    let (head, equals) = match head.strip_suffix(b"=") {
        Some(head) => (head, true),
        None => match head.strip_suffix(b":") {
            Some(head) => (head, false),
            None => return false,
        },
    };
    let head = head.trim_ascii_end();
    let head = head
        .strip_suffix(b"\"")
        .or_else(|| head.strip_suffix(b"'"))
        .unwrap_or(head);
    let key_start = head
        .iter()
        .rposition(|b| !b.is_ascii_alphabetic())
        .map_or(0, |p| p + 1);
    let key = &head[key_start..];
    // Serilog's compact JSON names it `@l`; Heroku's router, `at=error` (not prose's
    // `stopped at: error handling`).
    (key == b"l" && key_start > 0 && head[key_start - 1] == b'@')
        || (key == b"at" && equals)
        || [
            "level",
            "lvl",
            "severity",
            "loglevel",
            "priority",
            "levelname",
        ]
        .iter()
        .any(|name| key.eq_ignore_ascii_case(name.as_bytes()))
}

/// Whether `head`, what comes before a word, ends in a compiler's definition of a macro
/// (`-DLOG_LEVEL=`, `-DLEVEL=\"`, `-D LOG_LEVEL=`): its last word ends at `=` (and a
/// quote) and opens with `-D`, or follows `-D` alone.
fn defines_a_macro(head: &[u8]) -> bool {
    let last_word = |text: &[u8]| -> (usize, usize) {
        let start = text
            .iter()
            .rposition(u8::is_ascii_whitespace)
            .map_or(0, |p| p + 1);
        (start, text.len())
    };
    let (start, end) = last_word(head);
    let word = &head[start..end];
    let unquoted = word
        .strip_suffix(b"\\\"")
        .or_else(|| word.strip_suffix(b"\""))
        .or_else(|| word.strip_suffix(b"'"))
        .unwrap_or(word);
    if !unquoted.ends_with(b"=") {
        return false;
    }
    let before = head[..start].trim_ascii_end();
    let (previous, _) = last_word(before);
    word.starts_with(b"-D") || &before[previous..] == b"-D"
}

/// A place in a file that a line opens with: `path:line:`, and `column:` where one
/// follows (`src/a.rs:12:5:`).
struct Place<'a> {
    /// The line's first word, up to the colon.
    path: &'a [u8],
    /// A column followed the line number.
    column: bool,
    /// What follows the place's last colon.
    after: &'a [u8],
}

/// The place `bytes` opens with ([`Place`]), when its first word (up to a colon or a
/// space) is followed by a line number and a colon.
fn place(bytes: &[u8]) -> Option<Place<'_>> {
    let colon = bytes.iter().position(|&b| b == b':' || b == b' ')?;
    let rest = bytes[colon..].strip_prefix(b":")?;
    let after = &rest[number_and_colon(rest)?..];
    let column = number_and_colon(after);
    Some(Place {
        path: &bytes[..colon],
        column: column.is_some(),
        after: &after[column.unwrap_or(0)..],
    })
}

/// A line of source code a search found, or a tool's line about one: its place, its code
/// (from its first word) and how far that is indented.
struct QuotedCode<'a> {
    place: Place<'a>,
    text: &'a [u8],
    indent: usize,
    /// The line is indented: a tool's output nested in another's.
    nested: bool,
}

/// The code in a line that opens with a place in a source file: after the file's name,
/// a line number and a column where one follows (`grep -rn`, `git grep -n`, `rg -n`:
/// `src/a.rs:12:    fn f()`; `rg --vimgrep`; a compiler's `a.c:3:5: error: …`; tsc's
/// `a.ts:3:7 - error …`). `None` for any other line.
fn quoted_code(bytes: &[u8]) -> Option<QuotedCode<'_>> {
    /// Source files' extensions (not a log's, a configuration's or a document's).
    const CODE: [&str; 46] = [
        "rs", "py", "pyi", "js", "mjs", "cjs", "jsx", "ts", "tsx", "vue", "svelte", "go", "java",
        "kt", "kts", "scala", "groovy", "clj", "c", "h", "cc", "cpp", "cxx", "hpp", "hh", "cs",
        "fs", "ml", "rb", "php", "swift", "m", "mm", "dart", "ex", "exs", "erl", "hs", "zig",
        "lua", "pl", "pm", "sh", "bash", "zsh", "sql",
    ];
    // The file's name is the first word: a log's line is ruled out by its first byte (a
    // time's digit, a bracket). A tool's output nested in another's is indented (pip's
    // build's `  /tmp/…/dist.py:318: UserWarning: …`).
    let nested = bytes.iter().take(8).take_while(|&&b| b == b' ').count();
    let bytes = &bytes[nested..];
    if !bytes
        .first()
        .is_some_and(|&b| b.is_ascii_alphabetic() || matches!(b, b'.' | b'/' | b'_' | b'~'))
    {
        return None;
    }
    let place = place(bytes)?;
    let extension = &place.path[place.path.iter().rposition(|&b| b == b'.')? + 1..];
    if place.path.contains(&b'\t') || !CODE.iter().any(|code| code.as_bytes() == extension) {
        return None;
    }
    // tsc's column: `12:5 - `.
    let dashed = match place.column {
        false => {
            let digits = digits(place.after);
            match place.after[digits..].starts_with(b" - ") {
                true if digits > 0 => digits + 3,
                _ => 0,
            }
        }
        true => 0,
    };
    let code = &place.after[dashed..];
    let indent = code.iter().take_while(|b| b.is_ascii_whitespace()).count();
    Some(QuotedCode {
        text: &code[indent..],
        indent,
        place,
        nested: nested > 0,
    })
}

/// What a tool says first of a place in a source file, `code`, indented by `indent`: the
/// name of the exception that failed a test there (pytest's `AssertionError`, after one
/// space: a line of code is indented) or of a warning's category (Python's
/// `DeprecationWarning:`, a warning), or a compiler's, a type checker's or
/// a linter's level in lower case, last of a few words before a colon, a code in
/// brackets or a code and a colon (gcc's and mypy's `error:`, rustc's `error[E0425]:`,
/// `warning:`, gcc's `fatal error:` (fatal) and `internal compiler error:`, UBSan's
/// `runtime error:`, tsc's `error TS2322:`, Swift's `Fatal error:`), RuboCop's offense
/// (`W: Lint/…`, `E:`), Ruby's `syntax error, …` or its uncaught exception
/// ([`is_ruby_exception`]). Not code's `case ERROR:`.
fn code_opening(code: &[u8], indent: usize) -> Option<Severity> {
    let word = code.iter().take_while(|&&b| is_word_byte(b)).count();
    if indent <= 1 && camel_error(&code[..word]).is_some() {
        return Some(Severity::Error);
    }
    // Python's warnings: `app.py:3: DeprecationWarning: x is deprecated`.
    if indent <= 1
        && word > "Warning".len()
        && code[..word].ends_with(b"Warning")
        && code.get(word) == Some(&b':')
    {
        return Some(Severity::Warn);
    }
    // RuboCop's offenses: `C: Style/…`, `W: Lint/…`, `E:` and `F:`.
    if indent <= 1 && code.get(1..3) == Some(b": ") {
        match code[0] {
            b'C' | b'R' | b'W' => return Some(Severity::Warn),
            b'E' => return Some(Severity::Error),
            b'F' => return Some(Severity::Fatal),
            _ => {}
        }
    }
    if indent == 1 {
        if let Some(severity) = tools_finding_after_its_place(code) {
            return Some(severity);
        }
    }
    // Ruby's `a.rb:3: syntax error, unexpected …`.
    if code.starts_with(b"syntax error") && matches!(code.get(12), Some(b',' | b':')) {
        return Some(Severity::Error);
    }
    if indent == 0 && is_ruby_exception(code) {
        return Some(Severity::Error);
    }
    let mut fatal = false;
    let mut at = 0;
    for _ in 0..3 {
        // Swift's runtime error opens with a capital: `Fatal error: Index out of range`.
        let capital = at == 0 && indent <= 1 && code.first().is_some_and(u8::is_ascii_uppercase);
        let from = at + usize::from(capital);
        let end = from
            + code[from..]
                .iter()
                .take_while(|b| b.is_ascii_lowercase())
                .count();
        let rest = &code[end..];
        if end == at {
            return None;
        }
        // Not a path's `error::Error`.
        let stated = (rest.starts_with(b":") && !rest.starts_with(b"::"))
            || rest.starts_with(b"[")
            || (rest.starts_with(b" ") && is_diagnostic_code(&rest[1..]));
        if stated {
            return level_word(&code[at..end]).map(|level| match fatal {
                true => Severity::Fatal,
                false => level,
            });
        }
        if !rest.starts_with(b" ") {
            return None;
        }
        fatal |= code[at..end].eq_ignore_ascii_case(b"fatal");
        at = end + 1;
    }
    None
}

/// Whether `code`, after a place in a source file and one space, opens with a level as
/// a logger writes one, in capitals or in brackets (`ERROR failed …`, `WARN: …`, `[debug]
/// …`, `[ERROR] …`): a log's line with its caller's place (Go's `log.Lshortfile`, helm's
/// `--debug`), read as any log line is, its signals too (`ErrImagePull`). Not esbuild's
/// `ERROR: ` ([`tools_finding_after_its_place`]): that is said of the place.
fn opens_a_log_line(code: &QuotedCode<'_>) -> bool {
    if code.indent != 1 {
        return false;
    }
    let text = code.text;
    let bracketed = text.first() == Some(&b'[');
    let word = &text[usize::from(bracketed)..];
    let end = word.iter().take_while(|b| b.is_ascii_alphabetic()).count();
    let after = word.get(end).copied();
    let written = match bracketed {
        true => after == Some(b']'),
        // (Not code's assignment, `ERROR = 3`.)
        false => {
            word[..end].iter().all(u8::is_ascii_uppercase)
                && after == Some(b' ')
                && word.get(end + 1) != Some(&b'=')
        }
    };
    written && level_word(&word[..end]).is_some()
}

/// What a tool that names no level in lower case says right after a place in a source
/// file (and one space), `code`: esbuild's, in capitals (`src/Cart.tsx:48:21: ERROR:
/// Expected ")" but found "}"`, `WARNING: …`, under Vite's `Transform failed with 1
/// error:`), GoogleTest's failed assertion (`tests/polygon_test.cpp:42: Failure`), and
/// the linker's finding at a line of the source, an object built with `-g` (`src/link.c:2:
/// undefined reference to `foo'`, `multiple definition of `x'`, the symbol quoted in
/// ASCII or in a locale's marks, `‘foo’`).
fn tools_finding_after_its_place(code: &[u8]) -> Option<Severity> {
    if code.starts_with(b"ERROR: ") || code.trim_ascii_end() == GTEST_FAILURE {
        return Some(Severity::Error);
    }
    if code.starts_with(b"WARNING: ") {
        return Some(Severity::Warn);
    }
    let symbol = |rest: &[u8]| rest.starts_with(b"`") || rest.starts_with("‘".as_bytes());
    [&b"undefined reference to "[..], b"multiple definition of "]
        .iter()
        .any(|finding| code.strip_prefix(*finding).is_some_and(symbol))
        .then_some(Severity::Error)
}

/// What GoogleTest writes after the place of a failed assertion.
const GTEST_FAILURE: &[u8] = b"Failure";

/// Whether `line` is GoogleTest's failed assertion, a source file's place and
/// `Failure` (`tests/polygon_test.cpp:42: Failure`; not a log's `ERROR payment gateway:
/// Failure`): read as [`inspect`] reads it an error, by [`quoted_code`]'s place.
pub(crate) fn is_gtest_failure(line: &str) -> bool {
    quoted_code(line.as_bytes())
        .is_some_and(|code| code.indent == 1 && code.text.trim_ascii_end() == GTEST_FAILURE)
}

/// Ruby's uncaught exception after its place, its method, its message and its class in
/// parentheses: `in 'Object#foo': boom (RuntimeError)` (Ruby 3.4; before, the method in
/// `` `foo' ``), `(Errno::ECONNREFUSED)`.
fn is_ruby_exception(code: &[u8]) -> bool {
    if !(code.starts_with(b"in '") || code.starts_with(b"in `")) || !code.ends_with(b")") {
        return false;
    }
    let inner = &code[..code.len() - 1];
    let Some(open) = inner.iter().rposition(|&b| b == b'(') else {
        return false;
    };
    let class = &inner[open + 1..];
    memmem(&code[4..open], b"': ")
        && class.first().is_some_and(u8::is_ascii_uppercase)
        && class.iter().all(|&b| is_word_byte(b) || b == b':')
}

/// Whether the word at `bytes[start..end]` is a part of a path: a file's name before its
/// extension (`ParseError.ts`, `XtError.3.gz`, `segfault.c`), a directory's
/// (`errors/TimeoutError/`), or after a `/`. `find` and `ls` list such files; their names
/// are no error.
fn names_a_file(bytes: &[u8], start: usize, end: usize) -> bool {
    match bytes.get(end) {
        Some(b'/') => true,
        Some(b'.') if bytes.get(end + 1).is_some_and(u8::is_ascii_alphanumeric) => true,
        _ => start > 0 && bytes[start - 1] == b'/',
    }
}

/// Java's, .NET's and JavaScript's stack frame: an indented `at …`.
fn is_indented_frame(bytes: &[u8]) -> bool {
    let code = bytes.trim_ascii_start();
    code.len() < bytes.len() && code.starts_with(b"at ")
}

/// `KeyError`, `NullPointerException`: a name ending in a capitalized `Error`/`Exception`.
fn camel_error(word: &[u8]) -> Option<Found> {
    if !matches!(word.last(), Some(b'r' | b'n')) {
        return None;
    }
    ((word.len() > 5 && word.ends_with(b"Error"))
        || (word.len() > 9 && word.ends_with(b"Exception")))
    .then_some(Found::Named)
}

/// A finding at a place in a file, `path:line:column: message`, from a tool that names no
/// level: Go's compiler and vet (`./main.go:5:2: undefined: foo`, an error), or a linter
/// whose message opens with its rule's code (ruff's and flake8's `app.py:1:8: F401 …`,
/// pylint's `app.py:1:0: C0114: …`, a warning; pylint's error, `E1101: …`, and fatal,
/// `F0001: …`, an error). The path names a file (a `.` or a `/` in
/// it: not a time's `10:00:00`). Read only where nothing else said a severity.
fn placed_finding(place: &Place<'_>) -> Option<Severity> {
    if !place.column {
        return None;
    }
    let message = place.after.strip_prefix(b" ")?;
    let path = place.path;
    if path.len() > 3 && path.ends_with(b".go") {
        return Some(Severity::Error);
    }
    if let Some(level) = bracketed_level(message) {
        return Some(level);
    }
    // ruff's syntax error, which has no rule's code.
    if message.starts_with(b"invalid-syntax: ") {
        return Some(Severity::Error);
    }
    let letters = message
        .iter()
        .take_while(|b| b.is_ascii_uppercase())
        .count();
    let number = digits(&message[letters..]);
    let code = (1..=3).contains(&letters)
        && (2..=4).contains(&number)
        && matches!(message.get(letters + number), Some(b' ' | b':'));
    if !code || !path.iter().any(|b| matches!(b, b'.' | b'/')) {
        return None;
    }
    // pylint's message ids, a letter, four digits and a colon: `E1101:` an error,
    // `F0001:` a fatal one (the file could not be read); flake8's and ruff's `E501 ` are
    // style.
    let pylint = letters == 1 && number == 4 && message.get(5) == Some(&b':');
    match message[0] {
        b'E' | b'F' if pylint => Some(Severity::Error),
        _ if is_python_error_rule(&message[..letters + number]) => Some(Severity::Error),
        _ => Some(Severity::Warn),
    }
}

/// A line of a diagnostic's gutter: a line number or spaces, then spaces and a bar
/// (`77 |     raise TypeError(`, `   |`, `   |     ^^^ expected …`); not pm2's `0|api | …`.
fn is_gutter_line(bytes: &[u8]) -> bool {
    if !matches!(bytes.first(), Some(b' ' | b'0'..=b'9')) {
        return false;
    }
    let spaces = bytes.iter().take_while(|&&b| b == b' ').count();
    let number = digits(&bytes[spaces..]);
    let rest = &bytes[spaces + number..];
    let gap = rest.iter().take_while(|&&b| b == b' ').count();
    let bar = &rest[gap..];
    (gap > 0 || number == 0)
        && bar.first() == Some(&b'|')
        && matches!(bar.get(1), None | Some(b' '))
}

/// pycodestyle's and pyflakes' rules that find code that cannot run, as flake8 and ruff
/// report them among style findings: `E9` (`E999 SyntaxError`, `E902 IOError`) and
/// `F82` (`F821 undefined name`, `F823 local variable referenced before assignment`).
pub(crate) fn is_python_error_rule(code: &[u8]) -> bool {
    code.len() == 4 && (code.starts_with(b"E9") || code.starts_with(b"F82"))
}

/// The level ESLint's `unix` format ends a finding with: `[Error/no-undef]`,
/// `[Warning/no-console]`, `[Error]` (a rule's name may have a plugin's and slashes).
fn bracketed_level(message: &[u8]) -> Option<Severity> {
    let inner = message.trim_ascii_end().strip_suffix(b"]")?;
    let tag = &inner[inner.iter().rposition(|&b| b == b'[')? + 1..];
    match tag.split(|&b| b == b'/').next()? {
        b"Error" => Some(Severity::Error),
        b"Warning" => Some(Severity::Warn),
        _ => None,
    }
}

/// Errors a message ends with, after the `: ` that gives them as its cause: the C
/// library's (`ssh: connect to host x port 22: Connection timed out`) and Go's, in lower
/// case (`dial tcp 10.0.0.5:5432: connect: connection refused`, `open /x: permission
/// denied`, `context deadline exceeded`).
const CAUSES: [&str; 46] = [
    "Connection timed out",
    "Connection reset by peer",
    "No route to host",
    "Network is unreachable",
    "Operation not permitted",
    "Read-only file system",
    "Too many open files",
    "Cannot allocate memory",
    "Disk quota exceeded",
    "Input/output error",
    "Device or resource busy",
    "Transport endpoint is not connected",
    "Name or service not known",
    "Temporary failure in name resolution",
    "connection refused",
    "connection reset by peer",
    "connection timed out",
    "no route to host",
    "network is unreachable",
    "i/o timeout",
    "context deadline exceeded",
    "no such host",
    "permission denied",
    "no such file or directory",
    "operation not permitted",
    "read-only file system",
    "too many open files",
    "no space left on device",
    "TLS handshake timeout",
    "Is a directory",
    "Not a directory",
    "Directory not empty",
    "File exists",
    "No such process",
    "Text file busy",
    "Exec format error",
    "Bad file descriptor",
    "Invalid argument",
    "Address already in use",
    "Operation timed out",
    "No such device",
    "is a directory",
    "not a directory",
    "directory not empty",
    "file exists",
    "address already in use",
];

/// The length of the longest of [`CAUSES`].
const LONGEST_CAUSE: usize = {
    let mut longest = 0;
    let mut i = 0;
    while i < CAUSES.len() {
        if CAUSES[i].len() > longest {
            longest = CAUSES[i].len();
        }
        i += 1;
    }
    longest
};

/// bash's own error in a script or `-c`'s command, at its line: `deploy.sh: line 4: syntax
/// error near unexpected token `done'`, `bash: line 1: x: unbound variable` (how `set -u`
/// ends a script). Its warnings state their level (`… line 9: warning: here-document …`).
fn is_shell_error(line: &[u8]) -> bool {
    let Some(name) = line.iter().position(|&b| b == b':' || b == b' ') else {
        return false;
    };
    // `bash -c`'s script names itself `-c`: `bash: -c: line 1: syntax error …`.
    let rest = &line[name..];
    let rest = rest.strip_prefix(b": -c").unwrap_or(rest);
    let Some(rest) = rest.strip_prefix(b": line ") else {
        return false;
    };
    let digits = digits(rest);
    name > 0 && digits > 0 && rest[digits..].starts_with(b": ")
}

/// A tool's own report of its failure, by the words it opens with (told by its first byte
/// at once): unzip's, docker build's and exec's, zsh's of a job a signal ended,
/// systemctl's, git's failed merge, Bazel's, the go command's, sudo's, wget's, gzip's,
/// gcc's `-Werror`, R's; sed's and awk's in the script they were given (`sed: -e
/// expression #1, char 5: unterminated `s' command`, `sed: file s.sed line 2: …`, `awk:
/// line 2: missing } near end of file`, gawk's `awk: cmd. line:1: …`); glibc's abort of a
/// process that corrupted its heap or stack, and the BSDs' and macOS's failed assertion
/// (`Assertion failed: (x > 0), function main, file a.c, line 3.`), fatal.
fn tool_failure(line: &[u8]) -> Option<Severity> {
    let error = |opening: &[u8]| line.starts_with(opening).then_some(Severity::Error);
    let fatal = |opening: &[u8]| line.starts_with(opening).then_some(Severity::Fatal);
    match line[0] {
        b'u' => error(b"unzip:  cannot find or open ")
            .or_else(|| error(b"unzip:  cannot find zipfile directory"))
            .or_else(|| error(b"unable to prepare context: "))
            .or_else(|| {
                let umount = line.strip_prefix(b"u");
                umount
                    .is_some_and(is_mount_failure)
                    .then_some(Severity::Error)
            }),
        b'O' => error(b"OCI runtime "),
        b'z' => error(b"zsh: killed ").or_else(|| fatal(b"zsh: segmentation fault")),
        // Jest's coverage below its threshold, which fails the run though every test
        // passed: `Jest: Coverage for lines (22.2%) does not meet "global" threshold (90%)`
        // (Jest 27 and later), `Jest: "global" coverage threshold for lines (90%) not met`.
        b'J' if line.starts_with(b"Jest: ") => {
            memmem(line, b" threshold").then_some(Severity::Error)
        }
        b'J' if line.starts_with(b"Job for ") => {
            memmem(line, b" failed ").then_some(Severity::Error)
        }
        b'A' => error(b"Automatic merge failed; ").or_else(|| fatal(b"Assertion failed: ")),
        // Bazel's: a target that did not build, and the tally of tests that failed.
        b'T' if line.starts_with(b"Target ") => line
            .ends_with(b" failed to build")
            .then_some(Severity::Error),
        b'E' if line.starts_with(b"Executed ") => {
            let at = |place: &[u8]| {
                line.strip_suffix(place)
                    .is_some_and(|count| count.ends_with(b" fail") || count.ends_with(b" fails"))
            };
            (at(b" locally.") || at(b" remotely.")).then_some(Severity::Error)
        }
        // R's error (`Error in library(x) : there is no package called 'x'`), and its
        // script's end after one.
        b'E' => ((line.starts_with(b"Error in ") && memmem(line, b" : "))
            || line == b"Execution halted")
            .then_some(Severity::Error),
        b's' => error(b"sudo: a password is required")
            .or_else(|| error(b"sudo: a terminal is required"))
            .or_else(|| error(b"sed: -e expression #"))
            .or_else(|| error(b"sed: file ")),
        b'a' => error(b"awk: line ").or_else(|| error(b"awk: cmd. line:")),
        b'w' => error(b"wget: unable to "),
        b'g' if line.starts_with(b"gzip: ") => line
            .ends_with(b": not in gzip format")
            .then_some(Severity::Error),
        // The go command's refusals (not its `go: downloading …`).
        b'g' if line.starts_with(b"go: ") => error(b"go: cannot find main module")
            .or_else(|| error(b"go: go.mod file not found"))
            .or_else(|| error(b"go: updates to go.mod needed"))
            .or_else(|| error(b"go: errors parsing go.mod")),
        b'c' => error(b"cc1: all warnings being treated as errors")
            .or_else(|| error(b"cc1plus: all warnings being treated as errors"))
            .or_else(|| fatal(b"corrupted size vs. prev_size")),
        b'd' => fatal(b"double free or corruption"),
        b'*' => {
            fatal(b"*** stack smashing detected ***").or_else(|| fatal(b"*** Program crashed: "))
        }
        // Swift's backtrace of a crashed program (its `💣`).
        0xF0 => fatal("💣 Program crashed: ".as_bytes()),
        b'f' => fatal(b"free(): "),
        b'm' => fatal(b"malloc(): ")
            .or_else(|| fatal(b"munmap_chunk(): "))
            .or_else(|| is_mount_failure(line).then_some(Severity::Error)),
        b'r' => fatal(b"realloc(): "),
        _ => None,
    }
}

/// util-linux `mount`'s (and, less its `u`, `umount`'s) refusal, which names the mount
/// point first: `mount: /mnt: special device /dev/sdz1 does not exist.`, `umount: /mnt:
/// target is busy.`; not its verbose reports (`mount: /dev/sdb1 mounted on /mnt.`) or
/// hints (`mount: (hint) your fstab has been modified, …`).
fn is_mount_failure(line: &[u8]) -> bool {
    let Some(place) = line.strip_prefix(b"mount: /") else {
        return false;
    };
    place
        .iter()
        .position(|&b| b == b' ')
        .is_some_and(|space| space > 0 && place[space - 1] == b':')
}

/// A Bazel test's result in its summary, where it did not pass: `//app:slow_test
/// TIMEOUT in 60.0s` (an error, as `FAILED in 0.5s` is), `//app:flaky_test  FLAKY,
/// failed in 1 out of 2 in 0.9s` (a warning).
fn bazel_test_result(line: &[u8]) -> Option<Severity> {
    // Its label, `//package:name`, then the status.
    let target = line.iter().position(|&b| b == b' ')?;
    if !line[..target].contains(&b':') {
        return None;
    }
    let status = line[target..].trim_ascii_start();
    if status.starts_with(b"TIMEOUT in ") || status.starts_with(b"NO STATUS") {
        Some(Severity::Error)
    } else if status.starts_with(b"FLAKY, failed in ") {
        Some(Severity::Warn)
    } else {
        None
    }
}

/// What a failed command's last words say where nothing else gives a level: an error
/// given as the message's cause ([`CAUSES`]); kubectl and docker unable to reach their
/// server (`… was refused - did you specify the right host or port?`, `… Is the docker
/// daemon running?`); dash's `sh: 1: jq: not found`; a failed assertion, which aborts
/// the process (fatal): glibc's ``a.out: a.c:3: main: Assertion `x > 0' failed.``, the
/// BSDs' and macOS's `Assertion failed: (x > 0), function main, file a.c, line 3.`.
#[inline(never)] // Read of lines that state no level only: kept out of the scan's loop.
fn closing_failure(bytes: &[u8]) -> Option<Severity> {
    let line = bytes.trim_ascii_end();
    let (&last, _) = line.split_last()?;
    if is_shell_error(line) {
        return Some(Severity::Error);
    }
    if let Some(severity) = tool_failure(line) {
        return Some(severity);
    }
    // The go command's missing dependency, under the package that imports it (`go mod
    // tidy`'s, `go get`'s): `\tgithub.com/x/y: cannot find module providing package …`.
    if line[0] == b'\t' && memmem(line, b": cannot find module providing package ") {
        return Some(Severity::Error);
    }
    // A Bazel label opens the line: its test's result, or nothing.
    if line[0] == b'/' && line.starts_with(b"//") {
        return bazel_test_result(line);
    }
    match last {
        // make's failure at a makefile's line: `Makefile:2: *** missing separator.  Stop.`.
        b'.' if line.ends_with(b"Stop.") && memmem(line, b": *** ") => {
            return Some(Severity::Error)
        }
        // pre-commit's hook that failed: `black.......................Failed`.
        b'd' if line.ends_with(b"...Failed") => return Some(Severity::Error),
        // tar's last words after a failure.
        // (A short end first: it rules out nearly every line at once.)
        b's' if line.ends_with(b"previous errors")
            && line.ends_with(b": Exiting with failure status due to previous errors") =>
        {
            return Some(Severity::Error)
        }
        b'w' if line.ends_with(b"exiting now")
            && line.ends_with(b": Error is not recoverable: exiting now") =>
        {
            return Some(Severity::Error)
        }
        // Tcl's error trace (its `errorInfo`) opens so under the error's message.
        b'g' if line == b"    while executing" => return Some(Severity::Error),
        // A failed assertion aborts the process.
        b'.' if line.ends_with(b"' failed.") && memmem(line, b": Assertion `") => {
            return Some(Severity::Fatal)
        }
        b'?' => {
            let unreachable = line.ends_with(b"did you specify the right host or port?")
                || line.ends_with(b"Is the docker daemon running?");
            return unreachable.then_some(Severity::Error);
        }
        b'd' if line.ends_with(b": not found") => {
            let dash = [&b"sh: "[..], b"/bin/sh: ", b"dash: "]
                .iter()
                .any(|shell| line.starts_with(shell));
            return dash.then_some(Severity::Error);
        }
        b'0'..=b'9' => return ansible_recap(line),
        b'.' if is_perl_message(line) => return Some(perl_severity(line)),
        _ => {}
    }
    let message = line.strip_suffix(b".").unwrap_or(line);
    // Every cause ends with one of a few letters, or a code in parentheses follows it:
    // most lines are ruled out by their last byte.
    if !matches!(
        message.last(),
        Some(b't' | b'r' | b'e' | b'd' | b'm' | b's' | b'y' | b'n' | b')')
    ) {
        return None;
    }
    // A short code in parentheses may close it: rsync's `Disk quota exceeded (122)`.
    let message = match message.strip_suffix(b")") {
        Some(open) => {
            let near = open.len().saturating_sub(8);
            match open[near..].iter().rposition(|&b| b == b'(') {
                Some(at) if open[..near + at].ends_with(b" ") => &open[..near + at - 1],
                _ => message,
            }
        }
        None => message,
    };
    // Its last word rules out nearly every line before the causes are read.
    let last = message
        .iter()
        .rposition(|&b| b == b' ')
        .map_or(0, |space| space + 1);
    if !ends_a_cause(&message[last..]) {
        return None;
    }
    // The cause follows the last `: `, within the longest cause's length of the end, or
    // procps kill's process in parentheses (`kill: (123) - No such process`).
    let tail = &message[message.len().saturating_sub(LONGEST_CAUSE + 4)..];
    let after_colon = tail
        .windows(2)
        .rposition(|pair| pair == b": ")
        .map(|at| at + 2);
    let after_process = tail.windows(4).rposition(|w| w == b") - ").map(|at| at + 4);
    let cause = &tail[after_colon.max(after_process)?..];
    let known = CAUSES.iter().any(|known| known.as_bytes() == cause);
    known.then_some(Severity::Error)
}

/// Whether `line` is Perl's message of a `die` or a warning: it ends ` at FILE line N.`,
/// the file a script (`.pl`, `.pm`, `.t`) or `-e`, and perhaps the input's line after it
/// (`, <STDIN> line 3.`).
fn is_perl_message(line: &[u8]) -> bool {
    // A line number before the full stop rules out nearly every line at once.
    if line.len() < 2 || !line[line.len() - 2].is_ascii_digit() {
        return false;
    }
    let Some(at) = line.windows(4).rposition(|w| w == b" at ") else {
        return false;
    };
    let place = &line[at + 4..line.len() - 1];
    let Some(space) = place.iter().position(|&b| b == b' ') else {
        return false;
    };
    let (file, rest) = place.split_at(space);
    let script = [&b".pl"[..], b".pm", b".t"]
        .iter()
        .any(|extension| file.ends_with(extension))
        || file == b"-e";
    let Some(number) = rest.strip_prefix(b" line ") else {
        return false;
    };
    let digits = digits(number);
    script && digits > 0 && (digits == number.len() || number[digits..].starts_with(b", <"))
}

/// A Perl message's severity: a warning for what perldiag calls one (`Use of uninitialized
/// value …`), an error for a `die`.
fn perl_severity(line: &[u8]) -> Severity {
    const WARNINGS: [&str; 9] = [
        "Use of uninitialized value",
        "Useless use of",
        "Argument \"",
        "Odd number of elements",
        "Deep recursion",
        "Subroutine ",
        "Name \"",
        "Scalar value ",
        "Possible ",
    ];
    match WARNINGS.iter().any(|w| line.starts_with(w.as_bytes())) {
        true => Severity::Warn,
        false => Severity::Error,
    }
}

/// A state a tool reports on a line of its own: `systemctl status`'s unit (`Active:
/// failed (Result: exit-code) since …`, an error; `Active: activating (auto-restart)
/// (Result: exit-code)`, a warning: it failed and is restarted), `dotnet test`'s failed
/// test (`  Failed Api.Tests.Adds [12 ms]`) and verdict (`Failed!  - Failed:     1, …`),
/// PHPUnit's `FAILURES!` and `ERRORS!`, and `kubectl describe`'s container that ended
/// in error (`Reason:       Error`, `Exit Code:    137`; not `Exit Code:    0`).
fn reported_state(bytes: &[u8]) -> Option<Severity> {
    let indent = bytes.iter().take_while(|&&b| b == b' ').count();
    let line = bytes[indent..].trim_ascii_end();
    let value = |key: &[u8]| {
        line.strip_prefix(key)
            .filter(|rest| rest.first() == Some(&b' '))
            .map(<[u8]>::trim_ascii_start)
    };
    if indent > 0 {
        if value(b"Reason:") == Some(b"Error") {
            return Some(Severity::Error);
        }
        if let Some(code) = value(b"Exit Code:") {
            let failed = !code.is_empty() && code.iter().all(u8::is_ascii_digit) && nonzero(code);
            return failed.then_some(Severity::Error);
        }
    }
    if let Some(state) = line.strip_prefix(b"Active: ") {
        if state.starts_with(b"failed ") {
            return Some(Severity::Error);
        }
        let restarted = state.starts_with(b"activating (auto-restart) (Result: ");
        return restarted.then_some(Severity::Warn);
    }
    // RSpec's failure, under the example's name: `Failure/Error: expect(x).to eq(90)`;
    // Maven Surefire's tally of a failed class, `Tests run: 3, Failures: 2, … <<<
    // FAILURE!`.
    let failed = line.starts_with(b"Failure/Error: ")
        || line.ends_with(b"<<< FAILURE!")
        || line.ends_with(b"<<< ERROR!")
        || line.starts_with(b"Failed!  - Failed: ")
        || (line.starts_with(b"Failed ") && line.ends_with(b"s]") && memmem(line, b" ["))
        || line == b"FAILURES!"
        || line == b"ERRORS!";
    failed.then_some(Severity::Error)
}

/// Ansible's recap of a host, `web1 : ok=3 changed=1 unreachable=0 failed=1 skipped=0
/// rescued=0 ignored=0`: an error when a task failed or the host was unreachable.
fn ansible_recap(line: &[u8]) -> Option<Severity> {
    let last = line
        .iter()
        .rposition(|&b| b == b' ')
        .map_or(0, |space| space + 1);
    let last = &line[last..];
    if !(last.starts_with(b"ignored=") || last.starts_with(b"skipped=")) || !memmem(line, b" : ok=")
    {
        return None;
    }
    let count = |key: &[u8]| find(line, key).is_some_and(|at| nonzero(&line[at + key.len()..]));
    (count(b" failed=") || count(b" unreachable=")).then_some(Severity::Error)
}

/// Whether `word` is the last word of one of [`CAUSES`].
fn ends_a_cause(word: &[u8]) -> bool {
    matches!(
        word,
        b"out"
            | b"peer"
            | b"host"
            | b"unreachable"
            | b"permitted"
            | b"system"
            | b"files"
            | b"memory"
            | b"exceeded"
            | b"error"
            | b"busy"
            | b"connected"
            | b"known"
            | b"resolution"
            | b"refused"
            | b"timeout"
            | b"directory"
            | b"device"
            | b"denied"
            | b"empty"
            | b"exists"
            | b"process"
            | b"descriptor"
            | b"argument"
            | b"use"
    )
}

/// Where `needle` first is in `haystack`: read of a few lines only (a line that ends as
/// an assertion's does, valgrind's reports, a JSON logger's head).
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

/// Whether `needle` is in `haystack` ([`find`]).
fn memmem(haystack: &[u8], needle: &[u8]) -> bool {
    find(haystack, needle).is_some()
}

/// `: 1`, ` 137`, `=2`: a code that is not zero.
fn nonzero_code(rest: &[u8]) -> bool {
    let rest = rest.trim_ascii_start();
    let rest = rest
        .strip_prefix(b":")
        .or_else(|| rest.strip_prefix(b"="))
        .unwrap_or(rest)
        .trim_ascii_start();
    nonzero(rest)
}

/// How many ASCII digits `bytes` opens with.
fn digits(bytes: &[u8]) -> usize {
    bytes.iter().take_while(|b| b.is_ascii_digit()).count()
}

/// Whether `bytes` opens with a number that is not zero.
fn nonzero(bytes: &[u8]) -> bool {
    bytes[..digits(bytes)].iter().any(|&d| d != b'0')
}

/// `12:`, a number and a colon opening `bytes` (a line's or a column's in a place like
/// `main.go:12:5:`): how many bytes they take.
pub(crate) fn number_and_colon(bytes: &[u8]) -> Option<usize> {
    let digits = digits(bytes);
    (digits > 0 && bytes.get(digits) == Some(&b':')).then_some(digits + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Severity::*;

    /// Each line of `cases` is classified as its row says.
    fn assert_classified(cases: &[(&str, Option<Severity>)]) {
        for &(line, want) in cases {
            assert_eq!(classify(line), want, "{line}");
        }
    }

    #[test]
    fn windows_cbs_level_column() {
        assert_classified(&[
            (
                "2016-09-28 04:30:31, Info                  CBS    Failed to get next element [HRESULT = 0x800f080d]",
                Some(Info),
            ),
            (
                "2016-09-28 04:30:31, Warning               CBS    Unrecognized packageExtended attribute.",
                Some(Warn),
            ),
            (
                "2016-09-28 04:30:31, Error                 CSI    00000001@2016/9/27:20:30:31.455 (F) Failed",
                Some(Error),
            ),
            // A word after a comma and no time is none.
            ("we met at 10, Info  desk", None),
            ("at 10:00, Info  desk", None),
        ]);
    }

    #[test]
    fn a_level_in_lower_case_after_the_lines_time() {
        assert_classified(&[
            // zap's console encoder, by its ISO time and by its epoch.
            (
                "2024-12-07T08:26:40.000Z\terror\tmain.go:12\tdb down",
                Some(Error),
            ),
            ("1.7335612e+09\tinfo\tmain.go:12\tstarted", Some(Info)),
            ("1733561200.123 warn disk at 91%", Some(Warn)),
            // Node's loggers, a time in brackets.
            (
                "[2024-12-07T08:26:40.000Z] info  http GET /a 200",
                Some(Info),
            ),
            ("[2024-12-07T08:26:40.000Z] warn  slow query", Some(Warn)),
            ("[08:26:40] error  db down", Some(Error)),
            ("2024-12-07 08:26:40.123 error [main] db down", Some(Error)),
            ("2024-12-07 08:26:40+00:00 debug cache hit", Some(Debug)),
            // Not a time, not right after it, or a plural: no level.
            ("12:5 error handling paths", None),
            ("v1.2.3 error handling", None),
            ("2024-12-07 08:26:40 we saw an error here", None),
            ("2024-12-07 08:26:40 errors counted: 3", None),
            ("2024-12-07 web1 08:26:40 error x", None),
            ("2024-12-07 08:26:40 error", None),
            ("[08:26:40]error x", None),
            (
                "2024-12-07T08:26:40.000000000000000000000000Z error x",
                None,
            ),
            ("2024-12-07 08:26:40 1.5 error x", None),
            ("1733561200:5 info x", None),
            ("1.7e+0 error x", None),
            ("17.5e+09 info x", None),
            ("1.5x5e+09 info x", None),
            ("1.5e+009 info x", None),
            ("1.5e+09x info x", None),
            ("x.5e+09 info x", None),
            ("1.5e-09 info x", None),
            ("1.5e+0x info x", None),
        ]);
    }

    #[test]
    fn a_setting_or_a_lists_member_is_no_level() {
        assert_classified(&[
            // `env`'s listing, dpkg -l's legend.
            ("LOG_LEVEL=error", None),
            ("LOG_LEVEL=ERROR", None),
            ("APP_LOG_LEVEL=debug", None),
            ("export LOG_LEVEL=warn", None),
            ("declare -x APP_LOG_LEVEL=\"debug\"", None),
            (
                "|/ Err?=(none)/Reinst-required (Status,Err: uppercase=bad)",
                None,
            ),
            // A logger's key stays one, in any case; a level after a comma and a space.
            ("log_level=error msg=x", Some(Error)),
            ("log_level=error", Some(Error)),
            ("LEVEL=error", Some(Error)),
            ("LEVEL=ERROR msg=x", Some(Error)),
            (r#"{"log.level":"warn","msg":"x"}"#, Some(Warn)),
            ("db down, Error: timeout", Some(Error)),
            ("a,ERROR: x", Some(Error)),
        ]);
    }

    #[test]
    fn a_plural_heads_a_column() {
        assert_classified(&[
            ("Errors  Files", None),
            ("Warnings  Files", None),
            (
                "Warning  BackOff  3m  kubelet  Back-off restarting failed container",
                Some(Warn),
            ),
            ("Error  Failed  1m  kubelet  pull failed", Some(Error)),
        ]);
    }

    #[test]
    fn kubectl_describes_a_container_that_ended_in_error() {
        assert_classified(&[
            ("      Reason:       Error", Some(Error)),
            ("      Exit Code:    137", Some(Error)),
            ("      Exit Code:    1", Some(Error)),
            ("      Exit Code:    0", None),
            ("      Reason:       Completed", None),
            // Not indented under a container's state: prose.
            ("Reason: Error", None),
        ]);
    }

    #[test]
    fn a_word_spaced_out_is_no_letter_column() {
        assert_classified(&[
            ("[INFO]  T E S T S", Some(Info)),
            ("[INFO]  R E S U L T S", Some(Info)),
            ("A E B", None),
            // logcat's column stays one.
            (
                "03-17 16:13:38.811  1702  2395 E WindowManager: boom",
                Some(Error),
            ),
            ("03-17 16:13:38.811  1702  2395 W A: x", Some(Warn)),
        ]);
    }

    #[test]
    fn apache_modules_levels() {
        assert_classified(&[
            (
                "[Fri Jan 05 10:00:00.123456 2024] [proxy:error] [pid 1234:tid 140] (111)Connection refused: AH00957: attempt to connect to 127.0.0.1:8080 (backend) failed",
                Some(Error),
            ),
            (
                "[Fri Jan 05 10:00:02.123456 2024] [mpm_event:notice] [pid 1234] AH00489: configured",
                Some(Info),
            ),
            ("[Fri Jan 05 10:00:03 2024] [core:crit] [pid 9] AH00099: no listening sockets", Some(Fatal)),
            ("[Fri Jan 05 10:00:04 2024] [authz_core:warn] [pid 9] denied", Some(Warn)),
            // An Objective-C message's argument is none.
            ("[self handle:error]", None),
            ("[a b:error] done", None),
        ]);
    }

    #[test]
    fn syslog_priorities() {
        assert_classified(&[
            // The kernel's and systemd's prefix: the severity alone.
            ("<3>disk failed", Some(Error)),
            ("<4>low on space", Some(Warn)),
            ("<6>all good", Some(Info)),
            ("<5>notice this", Some(Info)),
            ("<7>probing", Some(Debug)),
            ("<0>system is unusable", Some(Fatal)),
            ("<2>fan stopped", Some(Fatal)),
            // RFC 3164 and RFC 5424: a facility times 8 (4, auth; 20, local4).
            (
                "<34>Oct 11 22:14:15 mymachine su: 'su root' on /dev/pts/8",
                Some(Fatal),
            ),
            (
                "<165>1 2003-10-11T22:14:15.003Z host app - ID47 - started",
                Some(Info),
            ),
            ("<187>Oct 11 22:14:15 host app: disk full", Some(Error)),
            // Words that state a level more grave still count.
            ("<6>ERROR in handler", Some(Error)),
            // Not a priority: past 191, a leading zero, no digits, nothing after it.
            ("<192>Oct 11 22:14:15 host app: hello", None),
            ("<03>hello", None),
            ("<>hello", None),
            ("<3>", None),
            ("<1234>hello", None),
            ("<b>bold</b>", None),
            ("x <3>hello", None),
        ]);
    }

    #[test]
    fn go_vets_type_errors() {
        assert_classified(&[
            ("vet: b/b.go:2:23: undeclared name: undefinedB", Some(Error)),
            ("b/b.go:2:23: undeclared name: undefinedB", Some(Error)),
            ("vet: checked 3 packages", None),
        ]);
    }

    #[test]
    fn perls_die_and_warnings() {
        assert_classified(&[
            (
                "invariant violated: count is 3 at die2.pl line 11.",
                Some(Error),
            ),
            ("Died at -e line 1.", Some(Error)),
            (
                "no config at lib/App/Config.pm line 40, <STDIN> line 3.",
                Some(Error),
            ),
            (
                "Use of uninitialized value $x in addition (+) at die.pl line 3.",
                Some(Warn),
            ),
            // Not Perl's: no script, no line number, or more after it.
            ("the meeting at noon line 3.", None),
            ("served at app.pl line one.", None),
            ("looked at a.pl line 3. Fine", None),
        ]);
    }

    #[test]
    fn prose_after_the_level_stated_does_not_outrank_it() {
        assert_classified(&[
            // A word in lower case before a colon, after the level: the message's words.
            ("2024-01-01 10:00:00 INFO retrying after error: timeout", Some(Info)),
            ("I1205 10:00:00.123 123 main.go:10] sync error: boom", Some(Info)),
            ("03-17 16:13:38.811  1702  2395 W Sync: retry after error: x", Some(Warn)),
            // One right after the level, or after a word, opens a line relayed.
            ("INFO:app:error: connection reset", Some(Error)),
            ("[INFO] error: a relayed line", Some(Error)),
            // A level written as one is a line relayed, or worse news: the worse counts.
            ("2024-01-01 10:00:01 INFO client sent WARNING: deprecated", Some(Warn)),
            ("2015-10-18 18:06:26,029 INFO [IPC] Diagnostics report: Error: java.net.NoRouteToHostException", Some(Error)),
            ("2016-09-28 04:30:31, Info                  CBS    SQM: Warning: Failed to upload", Some(Warn)),
            ("[INFO] [ERROR] Failed to compile", Some(Error)),
            ("[INFO] npm ERR! code E404", Some(Error)),
            ("[INFO] src/api/client.ts(12,7): error TS2322: Type 'string' is not assignable", Some(Error)),
            ("[info] 10:00:00.000 [main] ERROR com.acme.App - Failed to bind port 8080", Some(Error)),
            ("[2024-03-01, 10:00:01 UTC] {subprocess.py:93} INFO - 10:00:01,000 ERROR load: down", Some(Error)),
            ("[2024-03-01 10:00:01,500: WARNING/ForkPoolWorker-1] ERROR: could not open", Some(Error)),
            ("10:00:00.000 [INFO-pool-2] ERROR c.a.Db - Connection refused", Some(Error)),
            ("W1205 10:00:00.123 123 main.go:10] ERROR in reply", Some(Error)),
            ("- 1123030687 R00-M0-N2 NULL DISCOVERY ERROR Node card status: ALERT 0", Some(Fatal)),
            // A level by its key is the logger's, whatever the message says.
            ("{\"msg\":\"ERROR: lost\",\"level\":\"info\"}", Some(Info)),
            ("msg=\"ERROR budget exceeded\" level=debug", Some(Debug)),
            ("{\"level\":30,\"msg\":\"error: x\"}", Some(Info)),
            // A syslog priority may be a relay's: the worse of it and the message's level.
            ("<30>Dec  5 10:00:00 host app[1]: ERROR db down", Some(Error)),
            ("<27>Dec  5 10:00:00 host app[1]: INFO lost the disk", Some(Error)),
            ("<30>Dec  5 10:00:00 host app[1]: started", Some(Info)),
        ]);
    }

    #[test]
    fn stated_levels_in_common_formats() {
        let cases = [
            ("2024-01-01 10:00:00 ERROR db: connection refused", Some(Error)),
            ("2024-01-01 10:00:00,123 WARN  [main] slow", Some(Warn)),
            ("[Sun Dec 04 04:47:44 2005] [error] mod_jk child in error state 6", Some(Error)),
            ("time=2024 level=error msg=\"boom\"", Some(Error)),
            ("{\"level\":\"warn\",\"msg\":\"x\"}", Some(Warn)),
            ("{\"level\": \"error\", \"msg\": \"a\"}", Some(Error)),
            ("{\"level\" : \"error\"}", Some(Error)),
            ("{\"severity\": \"warning\"}", Some(Warn)),
            ("ts=1 lvl = error msg=x", Some(Error)),
            // log15's levels (geth's), Serilog's compact JSON, Heroku's router.
            ("t=2024-03-01T10:00:00+0000 lvl=eror msg=\"lost peer\"", Some(Error)),
            ("EROR[03-01|10:00:00.000] Failed to sync err=\"timeout\"", Some(Error)),
            ("DBUG[03-01|10:00:00.000] Dialing peer", Some(Debug)),
            ("{\"@t\":\"2024-03-01T10:00:00Z\",\"@mt\":\"Lost {Peer}\",\"@l\":\"Error\"}", Some(Error)),
            ("{\"@t\":\"2024-03-01T10:00:00Z\",\"l\":\"error\"}", None),
            ("at=error code=H12 desc=\"Request timeout\" method=GET path=\"/\"", Some(Error)),
            ("at=info method=GET path=\"/\" status=200", Some(Info)),
            ("2024-03-01 INFO stopped at: error handler", Some(Info)),
            ("level: debug", Some(Debug)),
            ("the level error was fixed", None),
            ("an error \"error\" quoted", None),
            ("src/main.rs:3:5: error[E0308]: mismatched types", Some(Error)),
            ("warning: unused variable: `x`", Some(Warn)),
            ("fatal: not a git repository", Some(Fatal)),
            ("E1129 12:00:00.000 123 file.cc:10] failed", Some(Error)),
            ("03-17 16:13:38.811  1702  2395 W WindowManager: slow", Some(Warn)),
            ("03-17 16:13:38.811  1702  2395 D WindowManager: ok", Some(Debug)),
            ("- 1117838570 2005.06.03 R02 RAS KERNEL INFO instruction cache parity error corrected", Some(Info)),
            ("APPREAD 1117869872 RAS APP FATAL ciod: failed to read message", Some(Fatal)),
            ("SEVERE: servlet failed", Some(Fatal)),
            ("CRITICAL: disk gone", Some(Fatal)),
            ("Jun 14 15:16:01 combo sshd[19939]: authentication failure", None),
            ("Jun 30 20:53:06 combo klogind[19281]: Kerberos authentication failed ", None),
            // A program's own verdict, its last word: a failure, when no level is stated.
            ("Job deploy failed", Some(Error)),
            ("Build failed.", Some(Error)),
            ("Deployment failed!", Some(Error)),
            ("Run state: failure", Some(Error)),
            ("Jun 14 15:16:01 combo netfs: Mounting other filesystems: failed", Some(Error)),
            ("INFO retry 2: the first attempt failed", Some(Info)),
            ("5 passed, 0 failed", None),
            ("what happens if it failed", None),
            ("the check did not fail, it never failed", None),
            ("if failed:", None),
            ("failed", None),
            ("the job failed to start in time", None),
            // A word of its own: not a key's value, whose key says what it is.
            ("hook=pre_commit result=failed", None),
            // A level opening the message after syslog's tag, as journalctl writes a
            // service's lines: klog's letter (kubelet), .NET's `fail: `.
            (
                "Dec 05 10:00:01 node1 kubelet[1234]: E1205 10:00:01.123456    1234 pod_workers.go:190] \"Error syncing pod\"",
                Some(Error),
            ),
            (
                "Dec 05 10:00:02 node1 kubelet[1234]: W1205 10:00:02.123456    1234 reflector.go:424] watch ended",
                Some(Warn),
            ),
            (
                "2024-12-05T10:00:03+0000 node1 kubelet[1234]: I1205 10:00:03.123456    1234 kubelet.go:2100] sync error: boom",
                Some(Info),
            ),
            ("Dec 05 10:00:04 web1 dotnet[88]: fail: Microsoft.AspNetCore.Server.Kestrel[13]", Some(Error)),
            // No pid in the brackets, a space before them, no space after the colon.
            ("12:00:00 [main]: E1205 10:00:00.1 x.go:1] boom", None),
            ("12:00:00 x [1234]: E1205 10:00:00.1 x.go:1] boom", None),
            ("12:00:00 app1234]: E1205 10:00:00.1 x.go:1] boom", None),
            ("12:00:00 app[]: E1205 10:00:00.1 x.go:1] boom", None),
            ("]: E1205 10:00:00.1 x.go:1] boom", None),
            // The tag after other brackets; a level written as one is the line's.
            ("[10:00:00] host app[12]: E1205 10:00:00.1 x.go:1] boom", Some(Error)),
            ("Dec 05 10:00:00 host app[12]: E1205 10:00:00.1 x.go:1] WARN boom", Some(Warn)),
            ("12:00:00 x[1234]:E1205 10:00:00.1 x.go:1] boom", None),
            // tsc, csc and MSBuild: the level before a code and a colon.
            ("src/app.ts(12,5): error TS2322: Type 'string' is not assignable", Some(Error)),
            ("src/app.ts:12:5 - error TS2322: Type 'string' is not assignable", Some(Error)),
            ("Program.cs(5,13): error CS0103: The name 'x' does not exist", Some(Error)),
            ("warning MSB3277: Found conflicts between versions", Some(Warn)),
            ("see error TS2322 in the docs", None),
            ("the error ts2322: lower case", None),
            ("an error T2: too short a code", None),
            // ESLint's table: the level apart after a line and a column.
            ("  12:5  error  'x' is assigned a value but never used  no-unused-vars", Some(Error)),
            ("  3:10  warning  Unexpected console statement  no-console", Some(Warn)),
            ("  12:5 error 'x' is not apart", None),
            ("  at  error  not after a position", None),
            ("  12:5x  error  not a position", None),
            // Jest's failed test, not the output a test logged.
            ("  ● adds › works", Some(Error)),
            ("● Test suite failed to run", Some(Error)),
            ("  ● Console", None),
            // A linter's rule at a place: ruff, flake8, pylint.
            ("app.py:1:8: F401 [*] `os` imported but unused", Some(Warn)),
            ("src/app.py:3:1: E302 expected 2 blank lines, found 1", Some(Warn)),
            ("app.py:1:0: C0114: Missing module docstring (missing-module-docstring)", Some(Warn)),
            // pylint's error and fatal ids; its warning's.
            ("app.py:40:8: E1101: Instance of 'Foo' has no 'bar' member (no-member)", Some(Error)),
            ("app.py:1:0: F0001: No module named app (fatal)", Some(Error)),
            ("app.py:3:4: W0612: Unused variable 'x' (unused-variable)", Some(Warn)),
            ("app.py:1:80: E501 line too long (88 > 79 characters)", Some(Warn)),
            // strace's report of a crashing signal delivered; not of another.
            ("--- SIGSEGV {si_signo=SIGSEGV, si_code=SEGV_MAPERR, si_addr=NULL} ---", Some(Error)),
            ("[pid 19404] --- SIGABRT {si_signo=SIGABRT, si_code=SI_TKILL} ---", Some(Error)),
            ("--- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_status=0} ---", None),
            ("--- SIGSEGVX", None),
            ("[pid 15971] 05:48:37.508457 --- SIGBUS {si_signo=SIGBUS} ---", Some(Error)),
            ("gzip: stdin: unexpected end of file", Some(Error)),
            ("tar: Unexpected EOF in archive", Some(Error)),
            // Rust's runtime aborting on a stack overflow.
            ("thread 'parser-3' (19404) has overflowed its stack", Some(Fatal)),
            ("fatal runtime error: stack overflow, aborting", Some(Fatal)),
            ("the buffer overflowed its stack-allocated array", None),
            ("retrying after a fatal runtime error: none", None),
            // Rules that find code that cannot run; ruff's syntax error, which has no code.
            ("./a.py:263:13: E999 SyntaxError: cannot assign to attribute here", Some(Error)),
            ("a.py:84:5: F821 undefined name '_log_merge'", Some(Error)),
            ("a.py:9:1: E902 FileNotFoundError: [Errno 2] No such file", Some(Error)),
            ("a.py:3:1: E9999 a longer code", Some(Warn)),
            ("a.py:3:1: F811 redefinition of unused 'x' from line 1", Some(Warn)),
            ("a.py:263:26: invalid-syntax: Expected `:`, found `=`", Some(Error)),
            // Source quoted in a diagnostic's gutter (rustc's, ruff's) names what the code
            // does.
            ("77 |           raise TypeError(", None),
            ("    |     except KeyError:", None),
            ("    |", None),
            ("  |            ^^^^ expected `u32`, found `&str`", None),
            ("0|api  | TypeError: x is not a function", Some(Error)),
            ("12 |TypeError: no space after the bar", Some(Error)),
            ("12| TypeError: no space before it", Some(Error)),
            ("| ERROR | a table's row", Some(Error)),
            ("10:00:00: F401 not a file", None),
            ("app.py:1:8: imported but unused", None),
            ("app.py:1:8: F4 too short a code", None),
            ("app.py:1: F401 no column", None),
            // ESLint's `unix` format: the level in brackets at the end.
            ("src/db.js:12:3: 'conn' is not defined. [Error/no-undef]", Some(Error)),
            ("src/a.ts:1:5: Unexpected any. [Warning/@typescript-eslint/no-explicit-any]", Some(Warn)),
            ("src/a.js:1:1: Parsing error: Unexpected token [Error]", Some(Error)),
            ("src/a.js:1:1: picks items[Info/x]", None),
            ("src/a.js:1: no column [Error/no-undef]", None),
            // The linker, Maven and Gradle.
            ("/usr/bin/ld: main.o: in function `main': undefined reference to `foo'", Some(Error)),
            ("d2.c:(.text+0x0): multiple definition of `dup'; /tmp/ccW.o:d1.c:(.text+0x0): first defined here", Some(Error)),
            // esbuild's.
            ("/home/dev/web/src/components/Cart.tsx:48:21: ERROR: Expected \")\" but found \"}\"", Some(Error)),
            ("src/a.ts:3:1: WARNING: Duplicate key \"x\" in object literal", Some(Warn)),
            ("src/a.ts:3:     ERROR: \"a string in code\"", None),
            // GoogleTest's failed assertion, and CTest's results of tests that did not pass.
            ("/home/dev/geo/tests/polygon_test.cpp:42: Failure", Some(Error)),
            ("tests/a.cc:7:     Failure", None),
            ("  57/120 Test  #57: polygon_area .....................***Failed    0.04 sec", Some(Error)),
            ("  99/120 Test  #99: rtree_query ......................***Exception: SegFault  0.12 sec", Some(Error)),
            ("  12/120 Test  #12: vec_add ..........................   Passed    0.01 sec", None),
            ("Failed: 0", None),
            ("Timeout after 30 s, retrying", None),
            ("INFO stats: ***Failed=0 ***Passed=12", Some(Info)),
            ("INFO ***FailedOver*** cluster state", Some(Info)),
            ("  3/9 Test  #3: a .......***FailedOver", None),
            ("# ***Exception: handling notes for the docs***", None),
            // At a line of the source, when the object has debug information.
            ("/tmp/src/link.c:2: undefined reference to `foo'", Some(Error)),
            ("src/link.c:2: undefined reference to ‘foo’", Some(Error)),
            ("d2.c:1: multiple definition of `dup'; /tmp/ccW.o:d1.c:1: first defined here", Some(Error)),
            // Not a search's hit in a comment or in code.
            ("src/a.c:2: // undefined reference to `foo' here", None),
            ("src/a.c:2:     undefined reference to `foo'", None),
            ("/usr/bin/ld: a.o: relocation R_X86_64_32 against `.rodata' can not be used when making a PIE object; recompile with -fPIE", Some(Error)),
            ("/usr/bin/ld: failed to set dynamic section sizes: bad value", Some(Error)),
            ("Undefined symbols for architecture arm64:", Some(Error)),
            ("[INFO] BUILD FAILURE", Some(Error)),
            // Maven's advice under it: not what failed.
            ("[ERROR] COMPILATION ERROR : ", None),
            ("[ERROR] -> [Help 1]", None),
            ("[ERROR] ", None),
            ("[ERROR]", None),
            ("[ERROR] Re-run Maven using the -X switch to enable full debug logging.", None),
            ("[ERROR] [Help 1] http://cwiki.apache.org/confluence/display/MAVEN/MojoFailureException", None),
            ("[ERROR]   mvn <args> -rf :shop-core", None),
            ("[ERROR] Failed to execute goal o.a.m.p:maven-compiler-plugin:3.11.0:compile", Some(Error)),
            ("FAILURE: Build failed with an exception.", Some(Error)),
            // Test runners' and linters' counts of what failed, when no level is stated;
            // not a count of none, a version, or a count a stated level explains.
            ("=== 1 failed, 2 passed in 0.12s ===", Some(Error)),
            ("Tests:       1 failed, 3 passed, 4 total", Some(Error)),
            ("  2 failing", Some(Error)),
            ("✖ 3 problems (2 errors, 1 warning)", Some(Error)),
            ("3 failures", Some(Error)),
            ("=== 2 passed in 0.12s ===", None),
            ("Tests:       0 failed, 4 passed", None),
            ("✖ 3 problems (0 errors, 3 warnings)", Some(Warn)),
            ("=== 1 passed, 2 warnings in 0.12s ===", Some(Warn)),
            ("=== 1 failed, 2 warnings in 0.12s ===", Some(Error)),
            ("✖ 3 problems (0 errors, 0 warnings)", None),
            // `node --test`'s spec reporter: a failed test, and the heading of their list.
            ("✖ rounds totals (1.638572ms)", Some(Error)),
            ("  ✖ ok when all is well (0.2ms)", Some(Error)),
            ("✖ failing tests:", None),
            ("✖ f(2ms)", None),
            // PHPUnit's assertion that failed.
            ("Failed asserting that 4 matches expected 3.", Some(Error)),
            ("upgraded to 1.2 failed over", None),
            // (A number in a name counts nothing; the verdict at the line's end is one.)
            ("build12 failed over to build13", None),
            ("build12 failed", Some(Error)),
            ("3 failedx", None),
            ("send_ping: pid 445 failed to act on a ping", None),
            ("connection 19617 failed: 3 - No network route", None),
            ("test result: ok. 3 passed; 1 failed; 0 ignored", Some(Error)),
            ("Tests  1 failed | 3 passed (4)", Some(Error)),
            // Vitest's tally of files.
            (" Test Files  1 failed (1)", Some(Error)),
            ("Test Files  2 passed (2)", None),
            ("2 failed (see above)", None),
            ("3 errorsome", None),
            ("INFO retried after 2 errors", Some(Info)),
            // TAP's failed test; a test runner's mark of one.
            ("not ok 3 - should work", Some(Error)),
            ("    not ok 1 - subtest", Some(Error)),
            ("not ok", Some(Error)),
            ("it is not ok 3 times", None),
            ("not okay", None),
            ("  ✕ renders (5 ms)", Some(Error)),
            (" × adds 1 + 2 12ms", Some(Error)),
            ("✗ lint", Some(Error)),
            ("✘ build", Some(Error)),
            ("  ✓ renders (5 ms)", None),
            ("a ✕ inside", None),
            // Node's error codes, a registry's refusal, CMake, git's push and merge.
            ("   ERR_MODULE_NOT_FOUND", Some(Error)),
            ("ERR_pnpm lower case", None),
            ("denied: requested access to the resource is denied", Some(Error)),
            ("DEBUG denied: 0", Some(Debug)),
            ("CMake Error at CMakeLists.txt:3 (project):", Some(Error)),
            (" ! [rejected]        main -> main (fetch first)", Some(Error)),
            ("CONFLICT (content): Merge conflict in a.txt", Some(Error)),
            ("* What went wrong:", Some(Error)),
            ("[INFO] BUILD SUCCESS", Some(Info)),
            ("the FAILURE: mode is documented", None),
            // Go's compiler and vet; pnpm; a checker's count of errors.
            ("./main.go:5:2: undefined: foo", Some(Error)),
            ("internal/db/db.go:12:9: cannot use x (variable of type int) as string", Some(Error)),
            ("main.go:5: no column", None),
            ("    store_test.go:12:3: indented, a test's log", None),
            ("main.go:5:2:no space", None),
            ("a main.go:5:2: in a sentence", None),
            ("ERR_PNPM_NO_MATCHING_VERSION  No matching version found for foo@9.9.9", Some(Error)),
            ("Found 1 error in 1 file (checked 3 source files)", Some(Error)),
            ("Found 12 errors in 3 files.", Some(Error)),
            ("Found 0 errors. Watching for file changes.", None),
            ("Found 3 items", None),
            ("webpack 5.88.0 compiled with 1 error in 120 ms", Some(Error)),
            ("webpack 5.88.0 compiled with 2 warnings in 120 ms", Some(Warn)),
            ("webpack 5.88.0 compiled successfully in 120 ms", None),
        ];
        assert_classified(&cases);
    }

    #[test]
    fn prose_mentions_are_not_levels() {
        assert_eq!(classify("found 0 errors in the error handling code"), None);
        assert_eq!(classify("the info desk is open"), None);
        assert_eq!(classify("Every Error has a cause"), None);
        // The end of a name, not a level: what `ls -R` lists of Python's packages.
        assert_eq!(
            classify("/usr/lib/python3/dist-packages/PyYAML-6.0.dist-info:"),
            None
        );
        assert_eq!(classify("./crcmod-1.7.egg-info:"), None);
        assert_eq!(classify("see docs/error: the page"), None);
        assert_eq!(classify("worker-ERROR: boom"), Some(Severity::Error));
        assert_eq!(classify("Error: boom"), Some(Severity::Error));
        assert_eq!(classify("java.lang.Error: boom"), Some(Severity::Error));
        assert_eq!(classify("app.error: a logger's name"), None);
    }

    #[test]
    fn a_files_name_or_a_count_of_none_is_no_error() {
        for line in [
            "src/errors/ParseError.ts",
            "src/e/TimeoutException.java",
            "/usr/share/man/man3/XtError.3.gz",
            "./target/doc/std/num/struct.ParseIntError.html",
            "src/ValueError/mod.rs",
            "GET /api/ValidationError 200",
            "Total errors: 0",
            "ERRORS: 0",
            "Errors:  0 ",
            "Error: none",
            "WARNING: 0 issues",
            // The first of a list of counts: Maven Surefire's tally, a linter's.
            "Tests run: 5, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.1 s",
            "errors: 0, warnings: 0",
            "ERRORS: 0; WARNINGS: 0",
        ] {
            assert_eq!(classify(line), None, "{line}");
        }
        for (line, level) in [
            ("raise ValueError", Error),
            ("KeyError.", Error),
            ("at com.x.ParseError.<init>(Parser.java:3)", Error),
            ("ERROR: 0 is not a valid port", Error),
            ("Errors: 2", Error),
            ("Errors: 2, Skipped: 0", Error),
            // A zero that opens a message, not a list of counts.
            ("ERROR: 0, expected 1", Error),
            ("Error: none, of the files could be opened", Error),
            ("[INFO] Tests run: 5, Failures: 0, Errors: 0", Info),
            ("WARNING: 0x1f flag unknown", Warn),
            ("warning: 0 issues found, 3 skipped", Warn),
        ] {
            assert_eq!(classify(line), Some(level), "{line}");
        }
    }

    #[test]
    fn what_build_and_test_tools_say_in_their_own_words() {
        for (line, level) in [
            // yarn's levels, lower case, opening the line.
            (
                "error An unexpected error occurred: \"x: Not found\".",
                Some(Error),
            ),
            ("error Command failed with exit code 1.", Some(Error)),
            ("warning package.json: No license field", Some(Warn)),
            (
                "warning \"react > x@1\" has unmet peer dependency \"y@2\".",
                Some(Warn),
            ),
            ("error handling is done by the caller", None),
            ("warning about this below", None),
            // kotlinc's, a file's place after them.
            (
                "e: file:///src/App.kt:17:20 Unresolved reference: Widgett",
                Some(Error),
            ),
            (
                "e: /src/App.kt: (17, 20): Unresolved reference: x",
                Some(Error),
            ),
            (
                "e: C:\\src\\App.kt:3:1 Expecting member declaration",
                Some(Error),
            ),
            (
                "w: /src/A.kt: (1, 2): Parameter 'x' is never used",
                Some(Warn),
            ),
            ("e: nothing here", None),
            // RSpec's failure under the example's name.
            (
                "     Failure/Error: expect(order.total).to eq(90)",
                Some(Error),
            ),
            // Maven Surefire's tally of a class that failed.
            (
                "Tests run: 3, Failures: 2, Errors: 0, Skipped: 0, Time elapsed: 0.1 sec <<< FAILURE!",
                Some(Error),
            ),
            // A test that passed, whatever its name says.
            ("  ✓ throws TypeError when arg is invalid (3 ms)", None),
            ("    ✔ reports OOM killed workers", None),
            ("  √ handles ENOENT", None),
            ("\t✓ tabbed TypeError", None),
            (
                "  ✕ throws TypeError when arg is invalid (3 ms)",
                Some(Error),
            ),
            // pytest's, by its node id, whatever its parameters say.
            (
                r#"tests/t.py::test_parse[10.0.0.3 - - [07/Dec/2024:10:00:00 +0000] "GET /p HTTP/1.1" 500 1] PASSED     [ 25%]"#,
                None,
            ),
            ("tests/t.py::test_level[ERROR boom] PASSED [100%]", None),
            ("tests/t.py::test_fail[ERROR x] SKIPPED", None),
            ("PASSED tests/t.py::test_level[ERROR boom]", None),
            ("tests/t.py::test_level[ERROR boom] FAILED [ 50%]", Some(Error)),
            ("tests/t.py::test_level[ERROR boom] XPASS [ 50%]", Some(Error)),
            // Not a node id, or not its outcome.
            ("ERROR build PASSED", Some(Error)),
            ("ERROR a::b PASSED to the handler", Some(Error)),
            ("ERROR a::b [ 50%]", Some(Error)),
            ("ERROR a::b UNPASSED", Some(Error)),
        ] {
            assert_eq!(classify(line), level, "{line}");
        }
    }

    #[test]
    fn signals_without_a_level() {
        assert_eq!(classify("Traceback (most recent call last):"), Some(Error));
        // The kernel's words for a machine in trouble, the macOS linker's, pip's.
        for line in [
            "kernel: NMI watchdog: Watchdog detected hard LOCKUP on cpu 2",
            "XFS (nvme1n1): Corruption detected. Unmount and run xfs_repair",
            "TCP: out of memory -- consider tuning tcp_mem",
            "nf_conntrack: table full, dropping packet",
            "EDAC MC0: 1 UE memory read error on CPU_SrcID#0_Ha#0_Chan#1_DIMM#0",
            "ld: symbol(s) not found for architecture arm64",
            "Command \"python setup.py egg_info\" failed with error code 1 in /tmp/pip-build",
        ] {
            assert_eq!(classify(line), Some(Error), "{line}");
        }
        // Runtimes' reports of an error nothing caught: Dart's header, Lua's interpreter
        // by its name; not a program whose name only begins so, nor a sentence.
        for line in [
            "Unhandled exception:",
            "lua: app.lua:3: attempt to index a nil value (global 'cfg')",
            "luajit: app.lua:3: attempt to call a nil value",
            "/usr/bin/lua5.4: cannot open nofile.lua",
        ] {
            assert_eq!(classify(line), Some(Error), "{line}");
        }
        for line in [
            "luarocks: installed busted",
            "lua is a language: small",
            "lua5: x",
            "Unhandled exceptions: none",
        ] {
            assert_eq!(classify(line), None, "{line}");
        }
        assert_eq!(classify("KeyError: 'user'"), Some(Error));
        assert_eq!(
            classify("java.lang.NullPointerException: null"),
            Some(Error)
        );
        // The base class, qualified or opening the line; not the word in a sentence.
        assert_eq!(
            classify("Exception in thread \"main\" java.lang.Exception: boom"),
            Some(Error)
        );
        assert_eq!(
            classify("Unhandled exception. System.Exception: boom"),
            Some(Error)
        );
        assert_eq!(classify("Exception: boom"), Some(Error));
        assert_eq!(classify("see Exception handling"), None);
        assert_eq!(classify("Exception handling is on"), None);
        assert_eq!(classify(".Exception x"), None);
        assert_eq!(
            classify("Caused by: java.io.IOException: closed"),
            Some(Error)
        );
        assert_eq!(
            classify("thread 'main' panicked at src/main.rs:2:5:"),
            Some(Error)
        );
        assert_eq!(
            classify("kernel: Out of memory: Killed process 4242 (java) total-vm:1024kB"),
            Some(Error)
        );
        assert_eq!(classify("Segmentation fault (core dumped)"), Some(Fatal));
        assert_eq!(classify("process exited with code 137"), Some(Error));
        assert_eq!(classify("process exited with code 0"), None);
        assert_eq!(
            classify("Kernel panic - not syncing: Attempted to kill init!"),
            Some(Fatal)
        );
        for report in [
            "subprocess returned non-zero exit status 2",
            "Command exited with non-zero status 1",
            "The command returned a non-zero code: 127",
            "Exit code: 3",
            "Process exited with status 1",
            "worker exited with code=1",
            "+++ exited with 3 +++",
            "[pid  4243] +++ killed by SIGTERM +++",
            "Found one Java-level deadlock:",
            "[pid  4242] +++ exited with 1 +++",
            "gmake: *** [all] Error 1",
            "make: *** [Makefile:12: all] Error 2",
            "make[2]: *** [CMakeFiles/app.dir/build.make:76: app.o] Error 1",
            "make: *** No rule to make target 'install'.  Stop.",
            "systemd[1]: foo.service: Main process exited, code=exited, status=1/FAILURE",
            "systemd[1]: foo.service: Main process exited, code=killed, status=9/KILL",
            "systemd[1]: Failed to start foo.service - Foo daemon.",
        ] {
            assert_eq!(classify(report), Some(Error), "{report}");
        }
        assert_eq!(
            classify("systemd[1]: foo.service: Main process exited, code=dumped, status=11/SEGV"),
            Some(Fatal)
        );
        for warning in [
            "systemd[1]: foo.service: Failed with result 'exit-code'.",
            "Dec 06 10:05:00 web1 systemd[1]: foo.service: Start request repeated too quickly.",
        ] {
            assert_eq!(classify(warning), Some(Warn), "{warning}");
        }
        for dependency in [
            "Dec 06 10:05:00 web1 systemd[1]: Dependency failed for Docker Socket for the API.",
            "[DEPEND] Dependency failed for Docker Socket for the API.",
        ] {
            assert_eq!(classify(dependency), Some(Warn), "{dependency}");
        }
        for not_a_failure in [
            "make: [Makefile:3: clean] Error 1 (ignored)",
            "make[1]: *** Waiting for unfinished jobs....",
            "make: *** [all] Error 0",
            "make[x]: *** [all] Error 2",
            "make: Nothing to be done for 'all'.",
            "please make sure the Error 2 is gone",
            "a non-zero value",
            "Exit code: 0",
            "+++ exited with 0 +++",
            "the child exited with signal 9",
            "systemd[1]: foo.service: Main process exited, code=exited, status=0/SUCCESS",
            "the code=exited field and the code=killed one",
            "Failed tests are listed below",
            "-[KSCodeSigningVerification verifyBundle:applicationId:error:] KSCodeSigning",
        ] {
            assert_eq!(classify(not_a_failure), None, "{not_a_failure}");
        }
        assert_eq!(
            classify("INFO job finished, exit status 2"),
            Some(Error),
            "a signal outranks the level"
        );
    }

    #[test]
    fn what_the_kernel_reports_of_disks_machines_and_hung_tasks() {
        let cases = [
            (
                "[12.3] EXT4-fs error (device sda1): ext4_find_entry:1455: inode #2",
                Some(Error),
            ),
            (
                "[12.3] blk_update_request: I/O error, dev sda, sector 123456 op 0x0:(READ)",
                Some(Error),
            ),
            (
                "[12.3] Buffer I/O error on dev sda1, logical block 0",
                Some(Error),
            ),
            (
                "[12.3] BTRFS error (device sda1): bdev /dev/sda1 errs: wr 1",
                Some(Error),
            ),
            (
                "[12.3] mce: [Hardware Error]: Machine check events logged",
                Some(Error),
            ),
            (
                "[12.3] INFO: task kworker/0:1:123 blocked for more than 120 seconds.",
                Some(Warn),
            ),
            // `I/O` is no logcat column (`I/Tag`), which stays one.
            ("[12.3] io scheduler mq-deadline registered for I/O", None),
            (
                "03-17 16:13:38.811 I/ActivityManager( 1702): Start proc",
                Some(Info),
            ),
            // `-v brief`'s, opening the line, its tag padded or not.
            ("E/ActivityManager( 1532): ANR in com.example", Some(Error)),
            ("F/DEBUG   ( 6350): backtrace:", Some(Fatal)),
            ("W/chatty  (  812): uid=1000 expire 3 lines", Some(Warn)),
            ("I/O stall (12): reading", None),
            ("E/Tag (x): y", None),
            ("E/Tag (): y", None),
            ("E/my tag (12): y", None),
            // Files named so, as `ls` and `find` list them.
            ("-rw-r--r-- 1 root root 0 Dec  2 10:00 segfault.c", None),
            ("./src/segfault_handler.c", None),
            ("/tmp/java/OOM.class", None),
            ("./docs/FATAL.md", None),
            (
                "-rw-r--r-- 1 root root 9 Dec  2 10:00 Error::Simple.3pm.gz",
                None,
            ),
            (
                "[2024-05-01 10:02:30,000: ERROR/MainProcess] Task failed",
                Some(Error),
            ),
            (
                "Memory cgroup out of memory: Killed process 1234 (java)",
                Some(Error),
            ),
            ("Last State: Terminated, Reason: OOMKilled", Some(Error)),
            // sqlite3's shell running a script.
            ("Parse error near line 5: no such column: totl", Some(Error)),
            (
                "Runtime error near line 4: UNIQUE constraint failed: orders.id (19)",
                Some(Error),
            ),
            ("an error near line 4 of the essay", None),
            // A type variable under javac's warning is no column.
            ("    E extends Object declared in interface List", None),
            ("  where E is a type-variable:", None),
            (
                "Jul  2 13:05:38 mbp kernel[0]: TBT W (2): 0x0040 [x]",
                Some(Warn),
            ),
            ("05-01 10:00:00.000  1234  1234 E Tag: failed", Some(Error)),
        ];
        assert_classified(&cases);
    }

    #[test]
    fn code_a_search_found_is_not_what_went_wrong() {
        let cases = [
            // `grep -rn`, `rg -n`, `rg --vimgrep` over source code.
            (
                "src/json.rs:12:pub fn parse(s: &str) -> Result<Value, JsonError> {",
                None,
            ),
            ("src/a.py:3:class ParseError(Exception):", None),
            ("src/a.py:9:        raise ValueError(\"bad\")", None),
            ("lib/log.c:40:    case ERROR: return \"error\";", None),
            ("crates/core/src/lib.rs:75:pub use error::Error;", None),
            (
                "src/t.rs:9:      AssertionError [ERR_ASSERTION]: Expected",
                None,
            ),
            ("deploy.sh:12:  echo \"ERROR: could not connect\" >&2", None),
            (
                "deploy.sh:3:5: warning: Double quote to prevent globbing. [SC2086]",
                Some(Warn),
            ),
            ("lib/log.c:41:  LOG(ERROR) << \"Segmentation fault\";", None),
            ("app/main.go:7:5:\tpanic(\"Out of memory\")", None),
            (
                "tests/t.py:2:    assert False, \"Traceback (most recent call last)\"",
                None,
            ),
            // What a tool found there says it first.
            (
                "a.c:4:20: error: 'y' undeclared (first use in this function)",
                Some(Error),
            ),
            (
                "a.c:1:10: fatal error: x.h: No such file or directory",
                Some(Fatal),
            ),
            (
                "a.c:9:1: internal compiler error: Segmentation fault",
                Some(Error),
            ),
            (
                "src/main.rs:2:5: error[E0425]: cannot find value `y` in this scope",
                Some(Error),
            ),
            (
                "app.py:3: error: Incompatible types in assignment",
                Some(Error),
            ),
            (
                "Main.java:5: warning: [removal] Integer(int) has been deprecated",
                Some(Warn),
            ),
            (
                "ub.c:3:54: runtime error: signed integer overflow",
                Some(Error),
            ),
            (
                "src/app.ts:12:5 - error TS2322: Type 'string' is not assignable",
                Some(Error),
            ),
            ("tests/test_m.py:6: AssertionError", Some(Error)),
            (
                "app/models/user.rb:3:5: C: Style/StringLiterals: Prefer single-quoted strings.",
                Some(Warn),
            ),
            (
                "app/models/user.rb:5:1: E: Lint/Syntax: unexpected token",
                Some(Error),
            ),
            ("a.rb:3: syntax error, unexpected end-of-input", Some(Error)),
            // Swift's runtime error.
            (
                "Swift/ContiguousArrayBuffer.swift:600: Fatal error: Index out of range",
                Some(Fatal),
            ),
            ("Sources/App/main.swift:3: Fatal error: boom", Some(Fatal)),
            ("src/a.py:3:Note: x", None),
            // A logger's line with its caller's place (Go's `log.Lshortfile`, helm's
            // `--debug`): read as a log line, its signals too. Code a search found is
            // not indented by one space, nor its level in lower case or bracketed.
            ("main.go:42: ERROR failed to connect to db", Some(Error)),
            ("app.py:33: WARN disk slow", Some(Warn)),
            ("worker.py:12: [ERROR] job 7 crashed", Some(Error)),
            ("server.go:88: [error] failed to bind :8080", Some(Error)),
            ("main.go:10: INFO starting", Some(Info)),
            (
                "wait.go:70: [debug] Pod api-1: Back-off pulling image \"x\": ErrImagePull: rpc error",
                Some(Error),
            ),
            ("wait.go:70: [debug] Pod api-1 ready", Some(Debug)),
            ("src/a.py:3: ERRORS = 3", None),
            ("src/a.c:9: XXX Segmentation fault when empty", None),
            ("src/a.c:9: [x] Segmentation fault when empty", None),
            ("src/a.py:3: ERROR_CODE = 3", None),
            ("src/a.c:3: ERROR(\"x\");", None),
            ("src/a.c:3: [ERROR = 1,", None),
            ("src/a.go:3:  ERROR failed", None),
            ("src/a.go:3:ERROR failed", None),
            ("    store_test.go:12: ERROR failed", None),
            // Ruby's uncaught exceptions (3.4's quotes, and the backquote before).
            ("app.rb:2:in 'Object#foo': boom (RuntimeError)", Some(Error)),
            ("app.rb:2:in `foo': boom (RuntimeError)", Some(Error)),
            (
                "/usr/lib/ruby/3.4.0/net/http.rb:1603:in 'TCPSocket#initialize': Failed to open TCP connection to localhost:9 (Connection refused - connect(2) for \"localhost\" port 9) (Errno::ECONNREFUSED)",
                Some(Error),
            ),
            ("app.rb:4:  in_use(x) # (Note)", None),
            ("app.rb:4:in 'x' (Note)", None),
            ("src/lib.rs:4:    E: Into<Error>,", None),
            (
                "/usr/lib/python3/dist-packages/x.py:3: DeprecationWarning: x is deprecated",
                Some(Warn),
            ),
            (
                "src/w.py:3:    warnings.warn(\"x\", DeprecationWarning)",
                None,
            ),
            // Nested in another tool's output, indented (pip's build log).
            (
                "  /tmp/pip-build-env-w/overlay/dist.py:318: UserWarning: Unknown option",
                Some(Warn),
            ),
            ("      src/a.c:3:5: error: expected ';'", Some(Error)),
            ("    src/a.rs:12:    panic!(\"ERROR\")", None),
            // Node's process warnings.
            (
                "(node:10055) [DEP0005] DeprecationWarning: Buffer() is deprecated due to security and usability issues.",
                Some(Warn),
            ),
            ("(node:10055) ExperimentalWarning: VM Modules is an experimental feature", Some(Warn)),
            ("(node:7) Warning: Accessing non-existent property 'x'", Some(Warn)),
            ("(node:7) UnhandledPromiseRejectionWarning: Error: boom", Some(Error)),
            ("(node:7) listening on port 3000", None),
            // `ls -l`'s entries and `find`'s paths: files' names.
            ("drwxr-xr-x  2 root root 4096 Jun 24  2025 error", None),
            ("-rw-r--r--. 1 root root  120 Jun 24 10:02 FATAL", None),
            ("-rw-r--r--  1 root root  120 Jun 24  2025 warning", None),
            ("-rw-r--r--@ 1 me  staff  120 Jun 24  2025 ERROR", None),
            ("tree/d3/ERROR", None),
            ("/usr/share/doc/fakeroot/DEBUG", None),
            ("[2024-01-05 10:00:00,123: ERROR/MainProcess] boom", Some(Error)),
            ("drwxr-xr-x is a mode, and this line says ERROR: boom", Some(Error)),
            // Python's uncaught exception in a thread, over its traceback.
            ("Exception in thread Worker-7:", Some(Error)),
            ("Exception in thread \"main\" java.lang.IllegalStateException: x", Some(Error)),
            ("(node:) DeprecationWarning: no pid", None),
            (
                "a.c:4:20: note: each undeclared identifier is reported only once",
                None,
            ),
            ("./main.go:5:2: undefined: foo", Some(Error)),
            ("app.py:1:8: F401 'os' imported but unused", Some(Warn)),
            // Not a source file's place: a log's line keeps its words.
            ("app.log:12:2024-01-05 ERROR boom", Some(Error)),
            ("config.yaml:3: KeyError", Some(Error)),
        ];
        assert_classified(&cases);
        assert_eq!(
            inspect("tests/t.py:2:    msg = \"Traceback (most recent call last):\"").opens,
            None
        );
    }

    #[test]
    fn pino_and_bunyan_state_their_level_as_a_number() {
        let cases = [
            (
                r#"{"level":30,"time":1701423000000,"pid":7,"msg":"request completed"}"#,
                Some(Info),
            ),
            (
                r#"{"level":40,"time":1701423000002,"msg":"slow"}"#,
                Some(Warn),
            ),
            (
                r#"{"level":50,"time":1701423000001,"msg":"boom"}"#,
                Some(Error),
            ),
            (
                r#"{"level":60,"time":1701423000003,"msg":"down"}"#,
                Some(Fatal),
            ),
            (r#"{"level":20,"msg":"x"}"#, Some(Debug)),
            (
                r#"{"name":"app","hostname":"web","pid":7,"level":50,"msg":"bunyan","v":0}"#,
                Some(Error),
            ),
            // Spaced, as Python's json.dumps writes them.
            (r#"{"level": 50, "msg": "payment rejected"}"#, Some(Error)),
            (r#"{ "level" : 60 }"#, Some(Fatal)),
            (
                r#"{"name": "app", "hostname": "web", "level": 40, "msg": "slow"}"#,
                Some(Warn),
            ),
            // Another number under the key, another object's key.
            (r#"{"level": 505, "msg": "x"}"#, None),
            (r#"{"level":55,"msg":"x"}"#, None),
            (r#"{"level":500,"msg":"x"}"#, None),
            (r#"{"game":"x","level":50}"#, None),
        ];
        assert_classified(&cases);
    }

    #[test]
    fn what_build_tools_shells_and_servers_say_in_their_own_words() {
        assert_classified(&[
            // make's failure at a makefile's line, and under `-k`.
            ("Makefile:2: *** missing separator.  Stop.", Some(Error)),
            ("Makefile:4: *** custom error here.  Stop.", Some(Error)),
            ("make: *** No rule to make target 'dep.o', needed by 'all'.", Some(Error)),
            ("make: Nothing to be done for 'all'.", None),
            ("the build will Stop.", None),
            // bash's own errors at a line, not its warnings.
            ("s2.sh: line 4: syntax error near unexpected token `done'", Some(Error)),
            ("bash: line 1: undefinedvar: unbound variable", Some(Error)),
            ("bash: line 1: 1/0: division by 0 (error token is \"0\")", Some(Error)),
            ("s.sh: line 9: warning: here-document at line 3 delimited by end-of-file", Some(Warn)),
            ("s.sh: line x: not a line", None),
            ("s.sh: line : no number", None),
            ("deploy: line: 4: no", None),
            (": line 4: no name", None),
            ("step one: line 4: prose", None),
            // R's error and its script's end; not prose's `Error in`.
            ("Error in library(dplyrx) : there is no package called 'dplyrx'", Some(Error)),
            ("Execution halted", Some(Error)),
            ("Error in the docs", None),
            // CMake's warnings.
            ("CMake Warning at CMakeLists.txt:4 (project):", Some(Warn)),
            ("CMake Warning (dev) at CMakeLists.txt:9 (find_package):", Some(Warn)),
            ("CMake Deprecation Warning at CMakeLists.txt:1 (cmake_minimum_required):", Some(Warn)),
            // Ansible: a loop's item failed; a task retried (not failed).
            (
                "failed: [web1] (item=a.conf) => {\"changed\": false, \"msg\": \"Could not find\"}",
                Some(Error),
            ),
            ("FAILED - RETRYING: [web1]: wait for app health (5 retries left).", Some(Warn)),
            ("FAILED - RETRIED", Some(Error)),
            ("failed: nothing in brackets", None),
            // pre-commit's hook that failed, and one that passed.
            ("black....................................................................Failed", Some(Error)),
            ("black....................................................................Passed", None),
            ("the job Failed", None),
            // MongoDB's structured log: its `"s"` after its time.
            (
                "{\"t\":{\"$date\":\"2024-03-05T10:00:00.300+00:00\"},\"s\":\"E\",  \"c\":\"STORAGE\",  \"msg\":\"WiredTiger reported a problem\"}",
                Some(Error),
            ),
            ("{\"t\":{\"$date\":\"x\"},\"s\":\"F\",  \"msg\":\"Fatal assertion\"}", Some(Fatal)),
            ("{\"t\":{\"$date\":\"x\"},\"s\":\"W\",  \"msg\":\"slow\"}", Some(Warn)),
            ("{\"t\":{\"$date\":\"x\"},\"s\":\"I\",  \"msg\":\"error: in prose\"}", Some(Info)),
            ("{\"t\":{\"$date\":\"x\"},\"s\":\"D2\", \"msg\":\"x\"}", Some(Debug)),
            ("{\"t\":{\"$date\":\"x\"},\"s\":\"D9\", \"msg\":\"x\"}", None),
            ("{\"t\":{\"$date\":\"x\"},\"c\":\"E\"}", None),
            ("{\"s\":\"E\"}", None),
            // Redis's mark after its time: `#` a warning, `*` a notice.
            ("1:M 05 Mar 2024 10:00:00.104 # Failed listening on port 6379 (tcp), aborting.", Some(Warn)),
            ("1:M 05 Mar 2024 10:00:00.104 * Ready to accept connections tcp", Some(Info)),
            ("1:C 05 Mar 2024 10:00:00.104 . debug line", Some(Debug)),
            ("1:M 05 Mar 2024 10:00:00.104 # WARNING overcommit_memory is set to 0!", Some(Warn)),
            ("1:M 05 Mar 2024 10:05:00.000 # Background saving error", Some(Warn)),
            ("1:Q 05 Mar 2024 10:00:00.104 # not a role", None),
            ("1:M 05-Mar-2024 10:00:00.104 # no time", None),
            ("1:M 05 123 2024 10:00:00.104 # no month", None),
            ("1:M 05 Mar 2024 10:00:00:104 # no fraction of a second", None),
            (":M 05 Mar 2024 10:00:00.104 # no pid", None),
            // PHP's levels that are no level words, to stderr and to its output.
            (
                "PHP Deprecated:  Creation of dynamic property App\\User::$age is deprecated in /a/User.php on line 21",
                Some(Warn),
            ),
            ("Deprecated: strlen(): Passing null to parameter #1 in /a/R.php on line 50", Some(Warn)),
            ("PHP Notice:  Only variables should be passed by reference in /a/R.php on line 40", Some(Info)),
            ("Notice: Undefined index: id in /a/R.php on line 7", Some(Info)),
            ("PHP Deprecation of nothing", None),
            ("Deprecated features are listed below", None),
            // kubectl's refusal of an object; not prose about one.
            (
                "The Deployment \"api\" is invalid: spec.template.spec.containers[0].image: Required value",
                Some(Error),
            ),
            ("The Service \"web\" is invalid: spec.ports[0].port: Invalid value: 0", Some(Error)),
            ("The \"api\" is invalid: no kind", None),
            ("The  \"api\" is invalid: no kind", None),
            // tar's last words after a failure; bash -c's own error.
            ("tar: Exiting with failure status due to previous errors", Some(Error)),
            ("tar (child): Error is not recoverable: exiting now", Some(Error)),
            ("bash: -c: line 1: syntax error near unexpected token `then'", Some(Error)),
            ("bash: -x: line 1: not -c", None),
            // sed's and awk's errors in their scripts.
            ("sed: -e expression #1, char 5: unterminated `s' command", Some(Error)),
            ("sed: file s.sed line 2: unknown command: `x'", Some(Error)),
            ("awk: line 2: missing } near end of file", Some(Error)),
            ("awk: cmd. line:1: {print $1", Some(Error)),
            ("sed: the stream editor", None),
            ("awk: a pattern language", None),
            // Tools' own reports of their failure, and glibc's abort.
            ("unzip:  cannot find or open x.zip, x.zip.zip or x.zip.ZIP.", Some(Error)),
            ("unzip:  cannot find zipfile directory in one of x.zip or", Some(Error)),
            ("unable to prepare context: path \"x\" not found", Some(Error)),
            (
                "OCI runtime exec failed: exec failed: unable to start container process: exec: \"bash\": executable file not found in $PATH: unknown",
                Some(Error),
            ),
            ("zsh: killed     python x.py", Some(Error)),
            ("zsh: segmentation fault  ./a.out", Some(Fatal)),
            (
                "Job for nginx.service failed because the control process exited with error code.",
                Some(Error),
            ),
            ("Job for nginx.service queued", None),
            ("Automatic merge failed; fix conflicts and then commit the result.", Some(Error)),
            ("sudo: a password is required", Some(Error)),
            ("sudo: a terminal is required to read the password; either use the -S option", Some(Error)),
            ("wget: unable to resolve host address 'x'", Some(Error)),
            ("gzip: x.gz: not in gzip format", Some(Error)),
            ("gzip: x.gz:\t 61.2% -- replaced with x.gz.gz", None),
            ("cc1: all warnings being treated as errors", Some(Error)),
            ("cc1plus: all warnings being treated as errors", Some(Error)),
            ("double free or corruption (out)", Some(Fatal)),
            ("*** stack smashing detected ***: terminated", Some(Fatal)),
            ("free(): invalid pointer", Some(Fatal)),
            ("malloc(): corrupted top size", Some(Fatal)),
            ("munmap_chunk(): invalid pointer", Some(Fatal)),
            ("realloc(): invalid next size", Some(Fatal)),
            ("💣 Program crashed: Bad pointer dereference at 0x0000000000000000", Some(Fatal)),
            ("*** Program crashed: System trap at 0x00005555555b1e4c ***", Some(Fatal)),
            ("💣 Program ok", None),
            ("corrupted size vs. prev_size", Some(Fatal)),
            ("unzip -l x.zip", None),
            ("go: cannot find main module, but found .git/config in /x", Some(Error)),
            ("go: go.mod file not found in current directory or any parent directory; see 'go help modules'", Some(Error)),
            ("go: updates to go.mod needed; to update it:", Some(Error)),
            ("go: errors parsing go.mod:", Some(Error)),
            ("go: downloading github.com/x/y v1.2.3", None),
            ("Target //app:main failed to build", Some(Error)),
            ("Target //app:main up-to-date:", None),
            ("Executed 3 out of 3 tests: 1 test passes and 2 fail locally.", Some(Error)),
            ("Executed 1 out of 1 test: 1 fails locally.", Some(Error)),
            ("Executed 1 out of 1 test: 1 test passes locally.", None),
            ("Executed 2 out of 2 tests: 1 test passes and 1 fail remotely.", Some(Error)),
            ("Executed 3 out of 3 tests: 3 tests pass.", None),
            ("zsh: correct 'gti' to 'git' [nyae]?", None),
            // A system call's error as the cause, after the last `: `.
            ("rm: cannot remove 'x': Is a directory", Some(Error)),
            ("mv: cannot move 'a' to 'b': Directory not empty", Some(Error)),
            ("ln: failed to create symbolic link 'x': File exists", Some(Error)),
            ("listen tcp :8080: bind: address already in use", Some(Error)),
            // A shell's trace of its commands (`set -x`) states no level.
            ("+ grep -c ERROR ./app.log", None),
            ("++ echo FATAL: disk full", None),
            ("+++ panic: x", None),
            ("+1 ERROR x", Some(Error)),
            // A Go test's log states no level: its verdict says whether it failed.
            ("    p_test.go:5: got expected error: connection refused", None),
            ("        p_test.go:12: ERROR: want 1, got 2", None),
            ("    p_test.go:5: Segmentation fault", Some(Fatal)),
            ("    p_test.go: error: x", Some(Error)),
            ("    p.go:5: error: x", Some(Error)),
            ("p_test.go:5: error: x", Some(Error)),
            // Jest's coverage below its threshold fails the run.
            ("Jest: Coverage for branches (6.25%) does not meet \"global\" threshold (80%)", Some(Error)),
            ("Jest: \"global\" coverage threshold for lines (90%) not met: 22.22%", Some(Error)),
            ("Jest: a note", None),
            // ESLint's finding behind a CI job's time.
            ("2026-12-06T08:00:20.1000000Z   4:10  error    'undefinedThing' is not defined  no-undef", Some(Error)),
            ("2026-12-06T08:00:20.1000000Z   3:3   warning  Unexpected console statement  no-console", Some(Warn)),
            ("a b   4:10  error    x", None),
            // A test that passed behind a CI job's time or a container's name.
            ("2026-12-06T08:00:20.1000000Z     ✓ throws TypeError on non-string input #0 (4 ms)", None),
            ("api-1  |     ✔ returns NotFoundError payload unchanged", None),
            ("2026-12-06T08:00:20Z ERROR ✓ TypeError", Some(Error)),
            // The go command's missing dependency (`go mod tidy`, `go get`).
            ("\tgithub.com/foo/bar: cannot find module providing package github.com/foo/bar: module lookup disabled by GOPROXY=off", Some(Error)),
            ("\tat cannot find module providing package", None),
            // A level word in single quotes is a string named (make's echo of a recipe),
            // unless a key before it names a level; a compiler's macro is the value it
            // defines.
            ("! grep -q 'ERROR' logs/l1.log", None),
            ("grep -c 'FATAL' app.log", None),
            ("cc -O2 -DDEFAULT_LOG_LEVEL=ERROR -c src/f1.c -o src/f1.o", None),
            ("g++ -DLEVEL=WARN -Wall -c x.cc", None),
            ("cc -DLOG_LEVEL=\\\"ERROR\\\" -c a.c", None),
            ("cc -DLEVEL='WARN' -c a.c", None),
            ("cc -D LOG_LEVEL=ERROR -c a.c", None),
            ("x LOG_LEVEL=ERROR boom", Some(Error)),
            ("{'levelname': 'ERROR', 'msg': 'disk full'}", Some(Error)),
            ("{'level': 'WARNING', 'msg': 'slow'}", Some(Warn)),
            ("msg='boom' level='ERROR'", Some(Error)),
            ("LOG_LEVEL=ERROR ./app", Some(Error)),
            ("ERROR 'x' failed", Some(Error)),
            // procps kill's and bash's: the process in parentheses, then the cause.
            ("kill: (123) - No such process", Some(Error)),
            ("bash: kill: (4242) - Operation not permitted", Some(Error)),
            ("kill: (123) - sent", None),
            // util-linux mount's refusals name the mount point first.
            ("mount: /mnt/x: special device /dev/sdz1 does not exist.", Some(Error)),
            ("mount: /mnt: mount point does not exist.", Some(Error)),
            ("umount: /mnt: target is busy.", Some(Error)),
            ("mount: /dev/sdb1 mounted on /mnt.", None),
            ("umount: /mnt unmounted", None),
            ("mount: (hint) your fstab has been modified, but systemd still uses the old version;", None),
            ("mount: /: wrong fs type, bad option, bad superblock on /dev/sdz1", Some(Error)),
            ("mount: /proc", None),
            ("The directory is not empty", None),
            // A Bazel test's result that is no pass.
            ("//app:slow_test                                    TIMEOUT in 60.0s", Some(Error)),
            ("//app:calc_test                                    FAILED in 0.5s", Some(Error)),
            ("//app:flaky_test                FLAKY, failed in 1 out of 2 in 0.9s", Some(Warn)),
            ("//app:util_test                                    PASSED in 0.1s", None),
            ("//app:cached_test                        (cached) PASSED in 0.1s", None),
            ("//app:t                                  NO STATUS", Some(Error)),
            ("// TIMEOUT in a comment", None),
            ("//app:t TIMEOUTS in 3 tests", None),
            ("Exiting with failure status due to previous errors", None),
            // A mild level's word as a key in a message's list: no level, so its cause
            // counts; a serious one's, or after anything else, a level still.
            (
                "Server be_app/app1 is UP, reason: Layer4 check passed, info: \"Connection refused\"",
                None,
            ),
            // HAProxy's server down and backend left with none; uWSGI's worker killed.
            (
                "Dec  6 08:04:53 lb1 haproxy[25738]: Server be_app/s1 is DOWN, reason: Layer4 connection problem, info: \"Connection refused\", check duration: 0ms.",
                Some(Error),
            ),
            ("backend be_app has no server available!", Some(Error)),
            ("*** HARAKIRI ON WORKER 2 (pid: 1202, try: 1) ***", Some(Error)),
            ("2026-12-06  8:06:00 806 [Note] InnoDB: Transactions deadlock detected, dumping detailed information.", Some(Error)),
            ("DAMN ! worker 2 (pid: 1202) died, killed by signal 9 :( trying respawn ...", Some(Error)),
            ("worker 2 (pid: 1202) is taking too much time to die...NO MERCY !!!", None),
            ("backup failed, info: Connection refused", Some(Error)),
            ("upload aborted; debug: see /tmp/x", None),
            ("request failed, error: timeout", Some(Error)),
            ("retrying, warning: slow disk", Some(Warn)),
            ("status info: up", Some(Info)),
            ("Noticed: nothing", None),
            // Tcl's error trace, under the error's message.
            ("    while executing", Some(Error)),
            ("while executing", None),
            // A stack's header is no trace level; the level word alone still is one.
            ("Stack trace:", None),
            ("stack trace: see below", None),
            ("  Stack Trace:", None),
            ("[   12.345678] Call Trace:", None),
            ("        \tError Trace:\t/home/dev/x_test.go:12", None),
            ("Trace: entering f", Some(Trace)),
            ("trace: entering f", Some(Trace)),
            ("Stack TRACE: x", Some(Trace)),
            ("The Deployment \"api\" is ready: 3 replicas", None),
            ("The Deployment api is invalid: unquoted", None),
            ("The Deployment \"api is invalid: unclosed", None),
            // Erlang/OTP's reports that name no level.
            ("=CRASH REPORT==== 5-Mar-2024::10:00:01.123789 ===", Some(Error)),
            ("=SUPERVISOR REPORT==== 5-Mar-2024::10:00:01.124000 ===", Some(Error)),
            ("=PROGRESS REPORT==== 5-Mar-2024::10:00:00.1 ===", Some(Info)),
            ("=ERROR REPORT==== 5-Mar-2024::10:00:01.123456 ===", Some(Error)),
            ("=CRASH course", None),
        ]);
    }

    #[test]
    fn what_failed_commands_say_last() {
        let cases = [
            // An error given as the message's cause, the C library's and Go's.
            ("ssh: connect to host 10.0.0.1 port 22: Connection timed out", Some(Error)),
            ("dial tcp 127.0.0.1:5432: connect: connection refused", Some(Error)),
            (
                "Get \"http://10.0.0.5:8080/healthz\": dial tcp 10.0.0.5:8080: i/o timeout",
                Some(Error),
            ),
            ("open /etc/app.yaml: permission denied", Some(Error)),
            ("rsync: write failed on \"/x\": Disk quota exceeded (122)", Some(Error)),
            ("cp: cannot create regular file '/x': Read-only file system", Some(Error)),
            ("lookup db on 10.96.0.10:53: no such host.", Some(Error)),
            // Not a cause: prose, another word before it, a level stated.
            ("the network is unreachable at night", None),
            ("Retry policy: context deadline exceeded twice", None),
            ("INFO dial tcp: connection refused", Some(Info)),
            // kubectl and docker unable to reach their server.
            (
                "The connection to the server localhost:8080 was refused - did you specify the right host or port?",
                Some(Error),
            ),
            (
                "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?",
                Some(Error),
            ),
            // dash's command not found.
            ("sh: 1: jq: not found", Some(Error)),
            ("/bin/sh: 1: ./configure: not found", Some(Error)),
            ("key: not found", None),
            // A failed assertion aborts the process.
            ("a.out: a.c:3: main: Assertion `x > 0' failed.", Some(Fatal)),
            ("Assertion failed: (x > 0), function main, file a.c, line 3.", Some(Fatal)),
            // (A failure, not an assertion's abort.)
            ("the check 'x' failed.", Some(Error)),
            // A response's status line, as `curl -i` prints it.
            ("HTTP/1.1 500 Internal Server Error", Some(Error)),
            ("HTTP/2 503 ", Some(Error)),
            ("HTTP/1.1 404 Not Found", None),
            ("HTTP/1.1 200 OK", None),
            ("see HTTP/1.1 500 in the spec", None),
            // ... and as `curl -v` prints it, behind its `< `.
            ("< HTTP/1.1 503 Service Unavailable", Some(Error)),
            ("< HTTP/1.0 404 File not found", None),
            ("<< HTTP/1.1 503 x", None),
            // Rails' request that failed on the server, logged at INFO.
            (
                "I, [2024-03-05T10:00:00.113 #4120]  INFO -- : [a1b2c3] Completed 500 Internal Server Error in 12ms",
                Some(Error),
            ),
            ("Completed 503 Service Unavailable in 3ms", Some(Error)),
            ("INFO -- : Completed 404 Not Found in 3ms", Some(Info)),
            ("Completed 5000 rows", None),
            ("Completed 5 of 7 steps", None),
            ("Completed 5xx checks", None),
            ("Completed 50x checks", None),
            // systemctl status's state of a unit.
            ("     Active: failed (Result: exit-code) since Tue 2023-12-01 10:00:00 UTC; 5s ago", Some(Error)),
            (
                "     Active: activating (auto-restart) (Result: exit-code) since Tue 2023-12-01 10:00:00 UTC; 2s ago",
                Some(Warn),
            ),
            ("     Active: active (running) since Tue 2023-12-01 10:00:00 UTC; 5s ago", None),
            ("     Active: inactive (dead)", None),
            // dotnet test's and PHPUnit's verdicts.
            ("  Failed Api.Tests.Adds [12 ms]", Some(Error)),
            (
                "Failed!  - Failed:     1, Passed:     2, Skipped:     0, Total:     3, Duration: 45 ms",
                Some(Error),
            ),
            (
                "Passed!  - Failed:     0, Passed:     3, Skipped:     0, Total:     3, Duration: 45 ms",
                None,
            ),
            ("FAILURES!", Some(Error)),
            ("ERRORS!", Some(Error)),
            ("  Failed to open [the door] in 3s", None),
            // Ansible's recap of a host.
            ("web1 : ok=3 changed=1 unreachable=0 failed=1 skipped=0 rescued=0 ignored=0", Some(Error)),
            ("db1  : ok=2 changed=0 unreachable=1 failed=0 skipped=0 rescued=0 ignored=0", Some(Error)),
            ("web2 : ok=5 changed=2 unreachable=0 failed=0 skipped=1 rescued=0 ignored=0", None),
            ("web3 : ok=5 changed=2 unreachable=0 failed=0 skipped=1", None),
            ("web4 : ok=5 changed=2 unreachable=0 failed=2 skipped=1", Some(Error)),
            ("took 10 skipped=3", None),
            // GitHub Actions' workflow commands.
            ("::error file=a.js,line=1::Missing semicolon", Some(Error)),
            ("::error::Process completed with exit code 1.", Some(Error)),
            ("::warning::Node.js 16 actions are deprecated.", Some(Warn)),
            ("::errors are not commands", None),
        ];
        assert_classified(&cases);
    }

    #[test]
    fn every_cause_is_found_by_its_last_word() {
        for cause in CAUSES {
            let last = cause.rsplit(' ').next().unwrap();
            assert!(ends_a_cause(last.as_bytes()), "{cause}");
            assert!(
                b"tredmsyn".contains(&cause.as_bytes()[cause.len() - 1]),
                "{cause}"
            );
            assert!(cause.len() <= LONGEST_CAUSE);
            let line = format!("x: {cause}");
            assert_eq!(closing_failure(line.as_bytes()), Some(Error), "{line}");
        }
    }

    #[test]
    fn what_memory_checkers_report() {
        // Lines of valgrind 3.19's memcheck and helgrind, and of gcc 12's sanitizers.
        let cases = [
            ("==28738== Invalid write of size 1", Some(Error)),
            ("==28738== Invalid read of size 4", Some(Error)),
            ("==28667== Invalid free() / delete / delete[] / realloc()", Some(Error)),
            ("==1== Mismatched free() / delete / delete []", Some(Error)),
            ("==28667== Conditional jump or move depends on uninitialised value(s)", Some(Error)),
            ("==1== Use of uninitialised value of size 8", Some(Error)),
            ("==1== Syscall param write(buf) points to uninitialised byte(s)", Some(Error)),
            ("==1== Syscall param ioctl(generic) points to unaddressable byte(s)", Some(Error)),
            ("==1== Source and destination overlap in memcpy(0x4a4b040, 0x4a4b042, 8)", Some(Error)),
            ("==1== Process terminating with default action of signal 11 (SIGSEGV)", Some(Fatal)),
            ("==28738== 8 bytes in 1 blocks are definitely lost in loss record 1 of 2", Some(Error)),
            (
                "==1== 56 (8 direct, 48 indirect) bytes in 2 blocks are definitely lost in loss record 2 of 2",
                Some(Error),
            ),
            ("==1== 16 bytes in 1 blocks are possibly lost in loss record 1 of 3", Some(Error)),
            ("==1== 48 bytes in 3 blocks are indirectly lost in loss record 2 of 3", Some(Warn)),
            ("==1== 32 bytes in 1 blocks are still reachable in loss record 3 of 3", None),
            ("==28738==    definitely lost: 56 bytes in 4 blocks", Some(Error)),
            ("==28738==    definitely lost: 0 bytes in 0 blocks", None),
            ("==1==      possibly lost: 1,024 bytes in 2 blocks", Some(Error)),
            ("==1==    indirectly lost: 48 bytes in 3 blocks", Some(Warn)),
            ("==1==    still reachable: 72,704 bytes in 1 blocks", None),
            // Its summary says what it counts, whatever its capitals say.
            ("==28738== ERROR SUMMARY: 3 errors from 3 contexts (suppressed: 0 from 0)", Some(Error)),
            ("==28738== ERROR SUMMARY: 0 errors from 0 contexts (suppressed: 0 from 0)", None),
            ("==1== Possible data race during write of size 4 at 0x10C014 by thread #3", Some(Error)),
            ("==1== Thread #1: lock order \"0x4A4B040 before 0x4A4B0A0\" violated", Some(Error)),
            ("==1== Thread #2 unlocked a not-locked lock at 0x4A4B040", Some(Error)),
            ("==1== Thread #2 was created", None),
            ("==1== Thread #1 is the program's root thread", None),
            ("==1== Conflicting store by thread 2 at 0x0601088 size 4", Some(Error)),
            // What is no report: its banner, its details, its notes.
            ("==28738== Memcheck, a memory error detector", None),
            ("==28738==    at 0x10921A: main (leak.c:7)", None),
            ("==28738==  Address 0x4a40138 is 0 bytes after a block of size 8 alloc'd", None),
            ("==28738== HEAP SUMMARY:", None),
            ("==1== Syscall param read(buf) was fine", None),
            // A report glued after output that did not end its line; a prefix mid-line
            // without one, or with a note, is no report.
            ("hit=value-2958==14157== Invalid read of size 4", Some(Error)),
            ("x==9==y==14157== Invalid write of size 1", Some(Error)),
            ("done==14157== Memcheck, a memory error detector", None),
            ("x==1== 32 bytes in 1 blocks are still reachable in loss record 3 of 3", None),
            ("if (a==1== b) Invalid read of size 4", None),
            ("a ==x== Invalid read of size 4", None),
            // A line of the kind without valgrind's prefix keeps what its words say.
            ("== ERROR SUMMARY: 0 errors", Some(Error)),
            ("==1==ERROR SUMMARY: 0 errors", Some(Error)),
            // The sanitizers state their level, and their summary reports a finding.
            ("==28763==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000078", Some(Error)),
            ("SUMMARY: AddressSanitizer: heap-buffer-overflow /tmp/ex/leak.c:7 in main", Some(Error)),
            ("SUMMARY: AddressSanitizer: 64 byte(s) leaked in 4 allocation(s).", Some(Error)),
            ("SUMMARY: ThreadSanitizer: data race /tmp/ex/race.c:4 in w", Some(Error)),
            // A race is reported as a warning, and fails the run (exit 66).
            ("WARNING: ThreadSanitizer: data race (pid=28865)", Some(Error)),
            ("WARNING: ThreadSanitizer: lock-order-inversion (potential deadlock) (pid=9)", Some(Error)),
            ("WARNING: ThreadSanitizer failed to allocate 0x1000 bytes", Some(Warn)),
            ("ub.c:3:54: runtime error: signed integer overflow: 2147483647 + 1", Some(Error)),
            ("SUMMARY: all checks passed", None),
            ("SUMMARY: Sanitizer: x", None),
        ];
        assert_classified(&cases);
        // After a time that opens the line, as a CI job's log stamps each one.
        assert_eq!(
            checker_verdict("==1== Invalid read of size 4"),
            Some(Some(Error))
        );
        assert_eq!(
            checker_verdict("SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior"),
            Some(Some(Error))
        );
        assert_eq!(checker_verdict("==1== ERROR SUMMARY: 0 errors"), Some(None));
    }

    #[test]
    fn what_kubectl_docker_and_php_report() {
        // kubectl's events and pods, docker's client, PHP.
        let cases = [
            (
                "  Warning  BackOff    3m (x12 over 5m)  kubelet  Back-off restarting failed container",
                Some(Warn),
            ),
            ("3m\tWarning\tFailedMount\tpod/web-0\tMountVolume.SetUp failed", Some(Warn)),
            ("  Normal   Pulled     5m   kubelet  Container image already present", None),
            ("Error response from daemon: No such container: web", Some(Error)),
            ("web-0   0/1     CrashLoopBackOff   5 (30s ago)   4m", Some(Error)),
            ("api-7f9c   0/1     ImagePullBackOff   0          2m", Some(Error)),
            ("api-7f9c   0/1     ErrImagePull   0          1m", Some(Error)),
            ("api-7f9c   0/1     InvalidImageName   0          1m", Some(Error)),
            ("web-0   0/1     Init:Error   2 (20s ago)   1m", Some(Error)),
            ("web-3   0/1     Evicted   0          3h", Some(Error)),
            ("  Warning  Evicted  12m  kubelet  The node was low on resource: memory.", Some(Error)),
            ("Reason:       Evicted", Some(Error)),
            ("Evicted 3 keys from the cache", None),
            ("web-1   0/1     Error   3   5m", Some(Error)),
            ("web-2   1/1     Running   0   5m", None),
            ("PHP Fatal error:  Uncaught Exception: boom in /var/www/index.php:3", Some(Fatal)),
            // Prose: a level word in a sentence, lower case before the spaces, a fatal
            // error named but not reported.
            ("the Error  was fixed", None),
            ("an error  in the docs", None),
            ("Fatal errors are rare", None),
        ];
        assert_classified(&cases);
    }

    #[test]
    fn a_stack_frame_names_code_not_an_error() {
        for frame in [
            "    at genericNodeError (node:internal/errors:983:15)",
            "    at new ValidationError (/app/errors.js:3:11)",
            "\tat com.example.ConfigError.<init>(ConfigError.java:12)",
        ] {
            assert_eq!(classify(frame), None, "{frame}");
        }
        // Not indented, it is no frame; an indented exception's line is named still.
        for named in ["at startup: KeyError: 'x'", "    KeyError: 'x'"] {
            assert_eq!(classify(named), Some(Error), "{named}");
        }
    }

    #[test]
    fn an_access_logs_server_errors() {
        for failed in [
            r#"10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET /a HTTP/1.1" 502 157 "-" "curl/8""#,
            r#"10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "POST /b HTTP/2.0" 500 -"#,
            r#"10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/2" 503"#,
            r#"INFO 127.0.0.1 - - [05/Jan/2024 10:00:00] "GET /c HTTP/1.0" 599 -"#,
            // A load balancer's, before the request: HAProxy's after its five timers,
            // AWS ALB's after its three timings.
            r#"haproxy[2211]: 10.9.0.98:34867 [01/May/2024:10:00:25.749] fe~ be/api-2 0/0/1/179/377 500 6166 - - ---- 12/12/1/0/0 0/0 "GET /a HTTP/1.1""#,
            r#"haproxy[2211]: 1.2.3.4:3 [01/May/2024:10:00:25.749] fe~ be/api-2 0/0/1/9/+37 502 6 - - ---- 1/1/1/0/0 0/0 "GET /a HTTP/1.1""#,
            r#"haproxy[2211]: 1.2.3.4:3 [01/May/2024:10:13:17.639] fe~ be/<NOSRV> 0/-1/-1/-1/2 503 217 - - SC-- 2/3/2/0/0 0/0 {a b} "GET /b HTTP/1.1""#,
            r#"https 2024-05-01T10:10:33.62Z app/alb/50dc 5.0.1.2:54205 - 0.000 -1 -1 503 - 123 326 "GET https://a:443/ HTTP/1.1" "curl/8""#,
            r#"http 2024-05-01T10:10:33.85Z app/alb/50dc 6.1.2.6:44172 10.0.3.17:8080 0.000 60.001 -1 504 - 123 272 "GET http://a/ HTTP/1.1" "-""#,
        ] {
            assert_eq!(classify(failed), Some(Error), "{failed}");
        }
        // A line's own level, worse than none, stays.
        assert_eq!(
            classify(r#"ERROR 10.0.0.1 - - [05/Jan/2024 10:00:00] "GET / HTTP/1.1" 404 -"#),
            Some(Error)
        );
        for served in [
            r#"10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET /a HTTP/1.1" 200 5000"#,
            // Refused: the server's routine.
            r#"10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET /a HTTP/1.1" 404 5000"#,
            r#"10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET /.env HTTP/1.1" 403 -"#,
            // A size of 5xx bytes, a four-digit number, no closing quote, no version.
            r#"10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET /a HTTP/1.1" 200 503"#,
            r#""GET /a HTTP/1.1" 5000 1"#,
            "GET /a HTTP/1.1 500 1",
            r#""GET /a HTTP/" 500 1"#,
            "see http://example.com/ for the 500 page",
            r#"haproxy[2211]: 10.9.0.98:34867 [01/May/2024:10:00:25.749] fe~ be/api-2 0/0/1/179/377 200 6166 - - ---- 12/12/1/0/0 0/0 "GET /a HTTP/1.1""#,
            r#"haproxy[2211]: 10.9.0.98:34867 [01/May/2024:10:00:25.749] fe~ be/api-2 0/0/1/179/377 404 6166 - - ---- 12/12/1/0/0 0/0 "GET /a HTTP/1.1""#,
            r#"https 2024-05-01T10:10:33.62Z app/alb/50dc 5.0.1.2:54205 10.0.3.18:8080 0.000 0.299 0.000 200 200 594 36120 "GET https://a:443/ HTTP/1.1" "-""#,
            r#"https 2024-05-01T10:10:33.62Z app/alb/50dc 5.0.1.2:54205 10.0.3.18:8080 0.000 0.299 0.000 460 - 594 36120 "GET https://a:443/ HTTP/1.1" "-""#,
            // Not timers or timings: four of HAProxy's fields, whole numbers, a `.5`.
            r#"fe be/api-2 0/0/1/179 500 6166 "GET /a HTTP/1.1""#,
            r#"fe be/api-2 0/0/1/179/377 5001 6166 "GET /a HTTP/1.1""#,
            r#"took 1 2 3 500 "GET /a HTTP/1.1""#,
            r#"took 0. 1.5 .5 500 "GET /a HTTP/1.1""#,
            r#"took 0/0/1/a/3 500 "GET /a HTTP/1.1""#,
            r#"took 0//1/2/3 500 "GET /a HTTP/1.1""#,
            r#"took 0. 1.5 2.5 500 "GET /a HTTP/1.1""#,
            r#"took .5 1.5 2.5 500 "GET /a HTTP/1.1""#,
        ] {
            assert_eq!(classify(served), None, "{served}");
        }
    }

    #[test]
    fn inspect_says_which_record_a_line_opens() {
        let traceback = inspect("Traceback (most recent call last):");
        assert_eq!(
            (traceback.severity, traceback.opens),
            (Some(Error), Some(Opens::Traceback))
        );
        assert_eq!(
            inspect("2024-01-05 ERROR app Traceback (most recent call last): ").opens,
            Some(Opens::Traceback)
        );
        // Inside a one-line record, with more after it, it is an error that opens nothing:
        // the next line is not its.
        for one_line in [
            r#"{"level": "error", "exc_info": "Traceback (most recent call last):
  File "x.py""}"#,
            "ERROR [worker] job 7 failed; Traceback (most recent call last): see sentry",
        ] {
            let inspection = inspect(one_line);
            assert_eq!(
                (inspection.severity, inspection.opens),
                (Some(Error), None),
                "{one_line}"
            );
        }
        assert_eq!(
            inspect("thread 'main' panicked at src/main.rs:2:5:").opens,
            Some(Opens::Panic)
        );
        for go in [
            "panic: runtime error: index out of range [5] with length 3",
            "fatal error: all goroutines are asleep - deadlock!",
        ] {
            let go = inspect(go);
            assert_eq!((go.severity, go.opens), (Some(Fatal), Some(Opens::GoPanic)));
        }
        assert_eq!(inspect("ERROR nothing opens here").opens, None);
        assert_eq!(inspect("  panic: indented, not Go's header").opens, None);
    }

    #[test]
    fn inspecting_lines_together_equals_inspecting_each() {
        let lines = [
            "2024-01-01 10:00:00 ERROR db: connection refused",
            "",
            "Traceback (most recent call last):",
            "thread 'main' panicked at src/main.rs:2:5:",
            "E1129 12:00:00.000 123 file.cc:10] failed",
            "03-17 16:13:38.811  1702  2395 W WindowManager: slow",
            "ERR",
            "OR and more",
            "process exited with code 137",
            "exit code",
            "0",
            "two lines in one\nWARN: second",
            "Caused by: java.io.IOException: closed",
            "the info desk is open",
            "{\"level\":\"warn\",\"msg\":\"x\"}",
            "x",
        ];
        // Every line, also with a long line before it (hits beyond the level window).
        let long = format!("{} ERROR late", "a ".repeat(200));
        let mut all: Vec<&str> = lines.to_vec();
        all.insert(3, &long);
        let mut text = String::new();
        let mut ranges = Vec::new();
        for line in &all {
            let start = text.len();
            text.push_str(line);
            ranges.push(start..text.len());
            text.push('\n');
        }
        let mut out = vec![inspect("stale")];
        inspect_lines(&text, ranges.iter().cloned(), &mut out);
        let each: Vec<Inspection> = all.iter().map(|line| inspect(line)).collect();
        assert_eq!(out, each);
        // The last line may end the text without a newline.
        text.pop();
        inspect_lines(&text, ranges.iter().cloned(), &mut out);
        assert_eq!(out, each);
        // Lines without their trailing space, as trimmed ones are asked.
        let spaced = "exit code 3  \t\nfoo E \u{a0}\u{b}\nERROR\n";
        let trimmed: Vec<&str> = spaced.lines().map(str::trim_end).collect();
        let ranges_trimmed = trimmed.iter().map(|line| {
            let start = line.as_ptr() as usize - spaced.as_ptr() as usize;
            start..start + line.len()
        });
        inspect_lines(spaced, ranges_trimmed, &mut out);
        let each_trimmed: Vec<Inspection> = trimmed.iter().map(|line| inspect(line)).collect();
        assert_eq!(out, each_trimmed);
        // A subset of the lines, with the others between them skipped.
        inspect_lines(&text, ranges.iter().step_by(3).cloned(), &mut out);
        let every_third: Vec<Inspection> = each.iter().step_by(3).copied().collect();
        assert_eq!(out, every_third);
    }

    /// A line of `len` bytes drawn from `alphabet` by a small generator.
    fn random_line(seed: &mut u64, alphabet: &[&str], len: usize) -> String {
        let mut line = String::new();
        while line.len() < len {
            *seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            line.push_str(alphabet[(*seed >> 33) as usize % alphabet.len()]);
        }
        line
    }

    #[test]
    fn letter_columns_are_found_where_a_walk_finds_them() {
        // The obvious walk over the head, position by position.
        fn walked(bytes: &[u8]) -> Option<Severity> {
            if bytes.len() > 5 && bytes[1..5].iter().all(u8::is_ascii_digit) {
                if let Some(level) = letter_level(bytes[0]) {
                    return Some(level);
                }
            }
            let head = &bytes[..bytes.len().min(64)];
            // A slash needs a tag of two word bytes or more after it.
            let tagged = |i: usize| {
                let tag = bytes.get(i + 2..i + 4).unwrap_or_default();
                tag.len() == 2 && tag.iter().all(|b| is_word_byte(*b))
            };
            // A letter alone, set apart by spaces or the line's ends.
            let alone = |at: Option<usize>| {
                at.is_some_and(|at| {
                    bytes.get(at).is_some_and(u8::is_ascii_alphabetic)
                        && (at == 0 || bytes[at - 1] == b' ')
                        && (at + 1 == bytes.len() || bytes.get(at + 1) == Some(&b' '))
                })
            };
            (1..head.len().saturating_sub(1))
                .filter(|&i| {
                    head[i - 1] == b' '
                        && (head[i + 1] == b' ' || (head[i + 1] == b'/' && tagged(i)))
                        && head[..i]
                            .iter()
                            .rev()
                            .find(|b| !b.is_ascii_whitespace())
                            .is_some_and(|b| !b.is_ascii_lowercase())
                        && !alone(i.checked_sub(2))
                        && !alone(Some(i + 2))
                })
                .find_map(|i| letter_level(head[i]))
        }
        let alphabet = [" ", "/", "E", "W", "F", "I", "D", "V", "x", "1"];
        let mut seed = 7u64;
        let mut found = 0;
        for n in 0..20_000 {
            let line = random_line(&mut seed, &alphabet, n % 80);
            let want = walked(line.as_bytes());
            found += usize::from(want.is_some());
            assert_eq!(classify(&line), want, "{line:?}");
        }
        assert!(
            found > 1_000,
            "{found} lines with a column: the lines are too alike"
        );
    }

    #[test]
    fn words_are_found_where_a_walk_finds_them() {
        // The obvious walk: each word in turn, a byte at a time.
        fn walked(line: &str) -> Inspection {
            let bytes = line.as_bytes();
            let mut found = Findings::begin(bytes);
            let mut i = 0;
            while i < bytes.len() {
                if !is_word_byte(bytes[i]) {
                    i += 1;
                    continue;
                }
                let start = i;
                while i < bytes.len() && is_word_byte(bytes[i]) {
                    i += 1;
                }
                found.single(bytes, start);
                found.word(bytes, start);
                found.word_end(bytes, i - 1);
            }
            found.end(bytes)
        }
        let alphabet = [
            " ",
            " ",
            "  ",
            "x",
            "_",
            "-",
            ":",
            "[",
            "]",
            "=",
            "\"",
            "é",
            "7",
            "0",
            "\t",
            "ERROR",
            "Error",
            "error",
            "eRRor",
            "WARN",
            "warning",
            "info",
            "INFO",
            "ale",
            "KeyError",
            "IOException",
            "Exception",
            "exit code",
            "exit status",
            "OOM",
            "panicked at",
            "Traceback (most recent call last)",
            "Out of memory",
            "segfault",
            "E",
            "W",
            "level",
            "Caused by:",
            "make",
            "gmake",
            ": *** [",
            "] Error ",
            "Stop.",
            "non-zero",
            " exit",
            "Exit code",
            "Kernel panic",
            ":error:]",
        ];
        let mut seed = 11u64;
        let mut severities = std::collections::BTreeSet::new();
        for n in 0..20_000 {
            // Lengths around the windows' edges (64 bytes) and the level window (240).
            let line = random_line(&mut seed, &alphabet, n % 300);
            let want = walked(&line);
            severities.insert(want.severity);
            assert_eq!(inspect(&line), want, "{line:?}");
        }
        assert!(severities.len() >= 4, "{severities:?}: too few outcomes");
    }

    #[test]
    fn bits_of_a_window_are_its_bytes_kinds() {
        let mut seed = 3u64;
        for _ in 0..10_000 {
            let mut window = [0u8; 64];
            for byte in &mut window {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                *byte = (seed >> 56) as u8;
            }
            assert_eq!(bits_of(&window), bits_of_scalar(&window));
        }
        assert_eq!(window_bits(b"ab rn", 0, 5).word, 0b11011);
        assert_eq!(window_bits(b"ab rn", 0, 5).r_or_n, 0b11000);
        assert_eq!(window_bits(b"ab rn", 2, 3).word, 0b110);
        assert_eq!(
            window_bits(b"ab rn", 0, 4).word,
            0b1011,
            "cut at its length"
        );
        assert_eq!(window_bits(b"ab c", 4, 0), Bits::NONE);
        assert_eq!(window_bits(b"a1_r", 0, 4).letter, 0b1001);
        let long = "ab ".repeat(30);
        let every_third_off = 0xb6db_6db6_db6d_b6db; // …011011
        assert_eq!(window_bits(long.as_bytes(), 3, 80).word, every_third_off);
    }

    #[test]
    fn every_level_word_and_signal_is_found() {
        for (word, level) in LEVEL_WORDS {
            for spelled in [word.to_string(), word.to_ascii_uppercase()] {
                let line = format!("12:00 [{spelled}] x");
                assert_eq!(classify(&line), Some(level), "{line}");
            }
        }
        for (phrase, severity) in SIGNALS {
            // What confirms the phrase: a code after an exit report, make's report form,
            // a server's error after a request.
            let after = match phrase {
                "make" | "gmake" => ": *** [all] Error 3",
                "code=exited" | "code=killed" | "code=dumped" => ", status=3/x",
                "non-zero" => " exit 3",
                "Killed" | "Evicted" | "Init:Error" | "InvalidImageName" => "",
                "overflowed its stack" => "",
                "exit" | "Exit" => " code 3",
                "BUG:" => " kernel NULL pointer dereference",
                "command not found"
                | "No such file or directory"
                | "Permission denied"
                | "Connection refused"
                | "No space left on device" => ".",
                "HTTP/" => "1.1\" 500 3",
                "Completed 5" => "00 Internal Server Error",
                "Fatal error" => ": boom",
                "Found" | "compiled with" => " 3 errors",
                "ERR_" => "MODULE_NOT_FOUND",
                "fail" => "ed",
                "error" | "warning" => "s",
                _ => " 3",
            };
            // A count before what failed; TAP's `not ok` opens its line.
            let before = match phrase {
                "fail" | "error" | "warning" => "x: 3 ",
                "not ok" | "fatal runtime error:" => "",
                "Failed" | "Exception:" => "Test #3: x ....***",
                _ => "x: ",
            };
            let line = format!("{before}{phrase}{after}");
            assert_eq!(classify(&line), Some(severity), "{line}");
        }
    }

    #[test]
    fn what_a_terminal_shows_of_a_failed_command() {
        for line in [
            "--- FAIL: TestParse (0.00s)",
            "FAIL\texample.com/app\t0.012s",
            "test result: FAILED. 1 passed; 1 failed",
            "test tests::sums ... FAILED",
            "FAILED tests/test_app.py::test_login - AssertionError",
            "Killed",
            "./run.sh: line 3: 12345 Killed                  python train.py",
            "[1]+  Killed                  sleep 100",
            "zsh: command not found: foo",
            "terminate called after throwing an instance of 'std::runtime_error'",
            "npm error code E404",
            "curl: (7) Failed to connect to localhost port 8080: Connection refused",
            "Error from server (NotFound): pods \"web-1\" not found",
            "bash: foo: command not found",
            "cat: /etc/x.conf: No such file or directory",
            "Permission denied (publickey).",
            "ssh: connect to host db port 22: Connection refused",
            "tar: out.tar: Cannot write: No space left on device",
            "[12345.678902] BUG: kernel NULL pointer dereference, address: 0000000000000000",
            "[12345.678903] general protection fault, probably for non-canonical address",
            "E: Unable to locate package foo",
            "dpkg: error processing package foo-daemon (--configure):",
            "dpkg: dependency problems prevent configuration of foo:",
            "Errors were encountered while processing:",
        ] {
            assert_eq!(classify(line), Some(Error), "{line}");
        }
        for line in [
            "dpkg: errors are listed below",
            "dpkg: dependency tree built",
            "Errors were counted",
        ] {
            assert_eq!(classify(line), None, "{line}");
        }
        // The tag is looked for in a line's first bytes only.
        let far = format!(
            "{} app[12]: E1205 10:00:00.1 x.go:1] boom",
            "x".repeat(TAG_WINDOW)
        );
        assert_eq!(classify(&far), None);
        assert_eq!(classify("npm warn deprecated glob@7.2.3"), Some(Warn));
        // npm's debug log (npm 11), which its last line points to.
        assert_eq!(
            classify("23 error 404 Not Found - GET https://registry.npmjs.org/x"),
            Some(Error)
        );
        assert_eq!(
            classify("5 warn config production Use `--omit=dev`"),
            Some(Warn)
        );
        assert_eq!(classify("1 info using npm@11.19.1"), Some(Info));
        assert_eq!(
            classify("0 verbose cli /usr/bin/node /usr/bin/npm"),
            Some(Trace)
        );
        // Not a count of errors, nor a level after anything but a number.
        assert_eq!(classify("0 errors generated"), None);
        // TAP's count of failed tests, when not none.
        assert_eq!(classify("# fail 2"), Some(Error));
        assert_eq!(classify("# fail 0"), None);
        assert_eq!(classify("# fail fast mode"), None);
        // cargo's count of a crate's warnings, each shown before it: no warning itself.
        for line in [
            "warning: `app` (lib) generated 3 warnings",
            "warning: `app` (bin \"app\" test) generated 1 warning (run `cargo fix --lib -p app` to apply 1 suggestion)",
        ] {
            assert_eq!(classify(line), None, "{line}");
        }
        assert_eq!(classify("warning: unused variable: `x`"), Some(Warn));
        assert_eq!(classify("warning: `x` generated code"), Some(Warn));
        assert_eq!(classify("build 2 error x"), None);
        assert_eq!(
            classify("W: Some index files failed to download"),
            Some(Warn)
        );
        assert_eq!(classify("I: Retrieving InRelease"), Some(Info));
        // A stated level outranks a system call's error.
        assert_eq!(classify("WARN retry 3: Connection refused"), Some(Warn));
        assert_eq!(
            classify("DEBUG stat /etc/app.d: No such file or directory"),
            Some(Debug)
        );
        for line in [
            "tests passed=3 FAILED=0",
            "tests passed=3 FAIL=0",
            "# FAIL:  0",
            "Fail:               0",
            "Expected Fail:      0",
            "a1b2c3 BUG: fix overflow in the parser",
            "F: not apt's",
            "FAILURES: 0",
            "status: FAILOVER done",
            "INFO Permission denied for user bob, asking again",
            "Killed 3 idle workers",
            "No such file or directory entries were skipped",
            "debug: lookup: No such file or directory found in cache, fetching",
            "A: answer",
        ] {
            assert_eq!(classify(line).filter(|s| *s > Info), None, "{line}");
        }
    }

    #[test]
    fn dotnet_console_levels() {
        for (line, level) in [
            ("fail: Microsoft.AspNetCore.Server.Kestrel[13]", Error),
            ("crit: App.Worker[0]", Fatal),
            ("warn: App.Worker[0]", Warn),
            ("dbug: App.Worker[0]", Debug),
            ("trce: App.Worker[0]", Trace),
        ] {
            assert_eq!(classify(line), Some(level), "{line}");
        }
    }

    #[test]
    fn signals_start_a_word() {
        assert_eq!(classify("BATHROOM light on"), None);
        assert_eq!(classify("light on: OOM"), Some(Error));
        assert_eq!(classify("xsegfault"), None);
        assert_eq!(classify("worker segfaulted"), Some(Fatal));
    }

    #[test]
    fn level_words_in_any_case_and_within_the_window() {
        assert_eq!(classify("[eRRoR] mixed"), Some(Error));
        let late = format!("{}ERROR", "a ".repeat(120));
        assert_eq!(classify(&late), None, "past the first 240 bytes");
        let early = format!("{}ERROR", "a ".repeat(119));
        assert_eq!(classify(&early), Some(Error));
        let late_name = format!("{} KeyError", "a ".repeat(120));
        assert_eq!(classify(&late_name), None);
    }

    #[test]
    fn parses_level_names() {
        assert_eq!("warn".parse::<Severity>().unwrap(), Warn);
        // Serilog's.
        assert_eq!(classify("2024-05-01 10:00:00 [WRN] slow"), Some(Warn));
        assert_eq!(classify("2024-05-01 10:00:00 [FTL] down"), Some(Fatal));
        assert_eq!(classify("2024-05-01 10:00:00 [VRB] x"), Some(Trace));
        assert_eq!(classify("the value is INF"), None);
        assert_eq!("ERROR".parse::<Severity>().unwrap(), Error);
        assert!("loud".parse::<Severity>().is_err());
        assert!(Fatal > Error && Error > Warn && Warn > Info);
    }
}
