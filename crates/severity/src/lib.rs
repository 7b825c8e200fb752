//! Severity recognized across common log formats, as a ranking signal: stated levels
//! (`ERROR`, `level=warn`, `[error]`, `E1129`), exception and error names, and signals
//! such as tracebacks, panics, OOM kills, segfaults and non-zero exit reports.
//!
//! One engine for every reducer: `spill` marks error-looking lines with it, `text` ranks
//! records by it.

use aho_corasick::packed;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::Range;
use std::str::FromStr;
use std::sync::LazyLock;

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
    /// WARN, WARNING, W.
    Warn,
    /// ERROR, ERR, E, exceptions, tracebacks, panics, OOM kills, non-zero exits.
    Error,
    /// FATAL, CRITICAL, PANIC, SEVERE, EMERG, ALERT, F, segfaults.
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
        level_word(s.to_ascii_lowercase().as_bytes())
            .ok_or_else(|| format!("unknown level {s:?} (trace, debug, info, warn, error, fatal)"))
    }
}

/// The level a word names, in lower case: `error`, `warning`, `crit`, …
fn level_word(lower: &[u8]) -> Option<Severity> {
    Some(match lower {
        b"trace" | b"verbose" => Severity::Trace,
        b"debug" | b"dbg" => Severity::Debug,
        b"info" | b"notice" | b"information" => Severity::Info,
        b"warn" | b"warning" | b"warnings" => Severity::Warn,
        b"error" | b"err" | b"errors" => Severity::Error,
        b"fatal" | b"critical" | b"crit" | b"panic" | b"severe" | b"emerg" | b"emergency"
        | b"alert" => Severity::Fatal,
        _ => return None,
    })
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

/// The severity a line states or implies, if any.
///
/// A level word counts when it is written as a level: in capitals (`ERROR`), in brackets
/// or after `level=` (`[error]`, `level=warn`, `"level":"error"`), or followed by a colon
/// (`error:`, `Warning:`, `error[E0308]:`); a lone capital letter among the first words
/// (`E1129`, logcat's ` E `) counts too. A stated level outranks an exception's name in
/// the message (`INFO … KeeperException`); signals outrank both: tracebacks,
/// `Caused by:`, Rust's `panicked at`, OOM kills, segfaults, non-zero exit reports.
///
/// One pass of a SIMD search finds the candidates; only they are looked at closely, so
/// that a line costs little more than the scan.
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
}

/// What one pass over a line finds: its severity (as [`classify`]) and the multi-line
/// record it begins, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Inspection {
    /// As [`classify`] gives it.
    pub severity: Option<Severity>,
    /// The record the line begins.
    pub opens: Option<Opens>,
}

/// [`classify`], and whether the line begins a traceback or a panic, in the same pass.
pub fn inspect(line: &str) -> Inspection {
    let bytes = line.as_bytes();
    let (searcher, _) = &*CANDIDATES;
    let mut found = Findings::begin(bytes, letter_column(bytes));
    for hit in searcher.find_iter(bytes) {
        found.hit(bytes, hit.start(), hit.end(), hit.pattern().as_usize());
    }
    found.end()
}

/// [`inspect`] for many lines at once: `out[i]` becomes what `inspect` says of
/// `&text[lines[i].clone()]`, from one search over `text` (on short lines, starting a
/// search costs more than the line itself).
///
/// The ranges must be in order, not overlap, and each must be followed in `text` by a
/// newline (after nothing but whitespace, so a line may be a trimmed one) or by the end
/// of `text`. Patterns are printable ASCII and none holds a newline or ends with a
/// space, so no hit spans two lines and each line's hits are the ones a search of it
/// alone finds. A line may hold newlines itself.
pub fn inspect_lines(
    text: &str,
    lines: impl IntoIterator<Item = Range<usize>>,
    out: &mut Vec<Inspection>,
) {
    out.clear();
    let bytes = text.as_bytes();
    let (searcher, _) = &*CANDIDATES;
    let mut hits = searcher.find_iter(bytes).peekable();
    // Level letters for the columns, found in the whole text at once too.
    let mut letters = [
        memchr::memchr3_iter(b'E', b'W', b'F', bytes).peekable(),
        memchr::memchr3_iter(b'I', b'D', b'V', bytes).peekable(),
    ];
    for range in lines {
        debug_assert!(
            bytes[range.end..]
                .iter()
                .find(|&&b| b == b'\n' || b.is_ascii_graphic())
                .is_none_or(|&b| b == b'\n'),
            "a line must be followed by a newline"
        );
        // Hits before this line lie between lines (only at a caller's mistake).
        while hits.next_if(|hit| hit.start() < range.start).is_some() {}
        let line = &bytes[range.clone()];
        let head = &line[..line.len().min(COLUMN_WINDOW)];
        let [upper, lower] = &mut letters;
        let column = earlier(
            first_column(upper, range.start, head),
            first_column(lower, range.start, head),
        );
        let stated = glog_letter(line).or_else(|| letter_level(head[column?]));
        let mut found = Findings::begin(line, stated);
        while let Some(hit) = hits.next_if(|hit| hit.end() <= range.end) {
            found.hit(
                line,
                hit.start() - range.start,
                hit.end() - range.start,
                hit.pattern().as_usize(),
            );
        }
        out.push(found.end());
    }
}

/// What the hits in one line say so far.
struct Findings {
    opens: Option<Opens>,
    /// The level the line states (`ERROR`, `level=warn`, a letter column).
    stated: Option<Severity>,
    /// An error or exception's name in it.
    named: Option<Severity>,
    /// A signal: traceback, panic, OOM kill, segfault, non-zero exit.
    signalled: Option<Severity>,
}

impl Findings {
    /// A line's findings before its hits: `stated` is its letter column's level.
    fn begin(bytes: &[u8], stated: Option<Severity>) -> Findings {
        Findings {
            opens: None,
            stated,
            named: None,
            signalled: bytes.starts_with(b"Caused by:").then_some(Severity::Error),
        }
    }

    /// The searcher's pattern `pattern` found at `bytes[start..end]`.
    fn hit(&mut self, bytes: &[u8], start: usize, end: usize, pattern: usize) {
        let (_, kinds) = &*CANDIDATES;
        match kinds[pattern] {
            Candidate::Signal(phrase, severity) => {
                let exact = &bytes[start..end] == phrase.as_bytes();
                // An exit report counts only with a non-zero code after it.
                if exact && (!phrase.starts_with("exit") || nonzero_code(&bytes[end..])) {
                    self.signalled = self.signalled.max(Some(severity));
                }
                match phrase {
                    "Traceback (most recent call last)" if exact => {
                        self.opens = Some(Opens::Traceback)
                    }
                    "panicked at" if exact => self.opens = self.opens.or(Some(Opens::Panic)),
                    _ => {}
                }
            }
            Candidate::Word if start < LEVEL_WINDOW => {
                let word_start = bytes[..start]
                    .iter()
                    .rposition(|b| !is_word_byte(*b))
                    .map_or(0, |p| p + 1);
                let word_end = bytes[start..]
                    .iter()
                    .position(|b| !is_word_byte(*b))
                    .map_or(bytes.len(), |p| start + p);
                match word_level(bytes, word_start, word_end, &bytes[word_start..word_end]) {
                    Some(Found::Stated(level)) => self.stated = self.stated.max(Some(level)),
                    Some(Found::Named) => self.named = Some(Severity::Error),
                    None => {}
                }
            }
            Candidate::Word => {}
        }
    }

    fn end(self) -> Inspection {
        Inspection {
            severity: self.stated.or(self.named).max(self.signalled),
            opens: self.opens,
        }
    }
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// What a candidate hit may be.
#[derive(Clone, Copy)]
enum Candidate {
    /// A phrase that is a signal when its case matches.
    Signal(&'static str, Severity),
    /// The start of a level word, or of `…Error`/`…Exception`.
    Word,
}

/// What the searcher looks for. Signals first: at one position the first listed
/// pattern wins ("Traceback (most recent call last)" before "tra"). Level words are found
/// by their first three letters, `…Error`/`…Exception` names by "err"/"exc".
const CANDIDATE_TABLE: [(&str, Candidate); 28] = [
    (
        "Segmentation fault",
        Candidate::Signal("Segmentation fault", Severity::Fatal),
    ),
    ("segfault", Candidate::Signal("segfault", Severity::Fatal)),
    (
        "core dumped",
        Candidate::Signal("core dumped", Severity::Fatal),
    ),
    (
        "Traceback (most recent call last)",
        Candidate::Signal("Traceback (most recent call last)", Severity::Error),
    ),
    (
        "panicked at",
        Candidate::Signal("panicked at", Severity::Error),
    ),
    (
        "Killed process",
        Candidate::Signal("Killed process", Severity::Error),
    ),
    (
        "Out of memory",
        Candidate::Signal("Out of memory", Severity::Error),
    ),
    ("oom-kill", Candidate::Signal("oom-kill", Severity::Error)),
    ("OOM", Candidate::Signal("OOM", Severity::Error)),
    (
        "non-zero exit",
        Candidate::Signal("non-zero exit", Severity::Error),
    ),
    ("exit code", Candidate::Signal("exit code", Severity::Error)),
    (
        "exit status",
        Candidate::Signal("exit status", Severity::Error),
    ),
    (
        "exited with code",
        Candidate::Signal("exited with code", Severity::Error),
    ),
    ("tra", Candidate::Word),
    ("ver", Candidate::Word),
    ("deb", Candidate::Word),
    ("dbg", Candidate::Word),
    ("inf", Candidate::Word),
    ("not", Candidate::Word),
    ("war", Candidate::Word),
    ("err", Candidate::Word),
    ("fat", Candidate::Word),
    ("cri", Candidate::Word),
    ("pan", Candidate::Word),
    ("sev", Candidate::Word),
    ("eme", Candidate::Word),
    ("ale", Candidate::Word),
    ("exc", Candidate::Word),
];

/// The searcher, and what each of its patterns is. Level words are matched in lower,
/// Capitalized and UPPER case, spelled out: case-sensitive patterns, at most 64 of them,
/// let it use its SIMD (Teddy) search, several times faster than a case-insensitive
/// automaton on lines that are mostly `INFO`. The packed searcher is used alone: as an
/// automaton's prefilter it costs a second, confirming search at every candidate.
static CANDIDATES: LazyLock<(packed::Searcher, Vec<Candidate>)> = LazyLock::new(|| {
    let mut patterns = Vec::new();
    let mut kinds = Vec::new();
    for (pattern, kind) in CANDIDATE_TABLE {
        let variants = match kind {
            Candidate::Signal(..) => vec![pattern.to_string()],
            Candidate::Word => {
                let mut capitalized = pattern.to_string();
                capitalized[..1].make_ascii_uppercase();
                vec![
                    pattern.to_string(),
                    capitalized,
                    pattern.to_ascii_uppercase(),
                ]
            }
        };
        for variant in variants {
            patterns.push(variant);
            kinds.push(kind);
        }
    }
    let searcher = packed::Config::new()
        .match_kind(packed::MatchKind::LeftmostFirst)
        .builder()
        .extend(&patterns)
        .build()
        .expect("at most 64 patterns, none empty");
    (searcher, kinds)
});

/// How many bytes of a line are searched for a letter column.
const COLUMN_WINDOW: usize = 64;

/// A single-letter level as a column near the start: glog's `E1129 …`, logcat's ` E `.
fn letter_column(bytes: &[u8]) -> Option<Severity> {
    if let Some(level) = glog_letter(bytes) {
        return Some(level);
    }
    let head = &bytes[..bytes.len().min(COLUMN_WINDOW)];
    // The six capitals are rare in most heads: two vectorised searches find them, where
    // a walk takes a step per byte.
    let first = |a, b, c| memchr::memchr3_iter(a, b, c, head).find(|&i| is_column(head, i));
    let at = earlier(first(b'E', b'W', b'F'), first(b'I', b'D', b'V'))?;
    letter_level(head[at])
}

/// The earlier of two positions found apart (the two sets of level letters).
fn earlier(a: Option<usize>, b: Option<usize>) -> Option<usize> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, y) => x.or(y),
    }
}

/// glog's `E1129 …`: a level letter, then the date's four digits.
fn glog_letter(bytes: &[u8]) -> Option<Severity> {
    if bytes.len() > 5 && bytes[1..5].iter().all(u8::is_ascii_digit) {
        return letter_level(bytes[0]);
    }
    None
}

/// Whether the letter at `i` stands as a column: after a space, before a space or a slash.
fn is_column(head: &[u8], i: usize) -> bool {
    i > 0 && head[i - 1] == b' ' && i + 1 < head.len() && matches!(head[i + 1], b' ' | b'/')
}

/// The first of `letters` (positions in the whole text) that stands as a column in
/// `head`, the head of a line starting at `start`; the letters up to the head's end are
/// taken.
fn first_column(
    letters: &mut std::iter::Peekable<memchr::Memchr3<'_>>,
    start: usize,
    head: &[u8],
) -> Option<usize> {
    while letters.next_if(|&i| i < start).is_some() {}
    let mut first = None;
    while let Some(i) = letters.next_if(|&i| i < start + head.len()) {
        if first.is_none() && is_column(head, i - start) {
            first = Some(i - start);
        }
    }
    first
}

/// What a word says of its line.
enum Found {
    /// A level, written as one.
    Stated(Severity),
    /// An error or exception type's name.
    Named,
}

fn word_level(bytes: &[u8], start: usize, end: usize, word: &[u8]) -> Option<Found> {
    if word.len() > 11 {
        return camel_error(word);
    }
    let mut lower = [0u8; 11];
    let lower = &mut lower[..word.len()];
    lower.copy_from_slice(word);
    lower.make_ascii_lowercase();
    let Some(level) = level_word(lower) else {
        return camel_error(word);
    };
    let capitals = word.iter().all(|b| !b.is_ascii_lowercase());
    let before = start.checked_sub(1).map(|p| bytes[p]);
    let after = bytes.get(end).copied();
    let bracketed = matches!(before, Some(b'[' | b'<' | b'(' | b'|'))
        && matches!(after, Some(b']' | b'>' | b')' | b'|'));
    let keyed =
        before.is_some_and(|b| b == b'=' || b == b'"') && preceded_by_level_key(bytes, start);
    let colon = matches!(after, Some(b':' | b'['));
    (capitals || bracketed || keyed || colon).then_some(Found::Stated(level))
}

/// `level=`, `"level":"`, `severity=`, `lvl=` just before `start`.
fn preceded_by_level_key(bytes: &[u8], start: usize) -> bool {
    let head = &bytes[..start];
    let head = head.strip_suffix(b"\"").unwrap_or(head);
    let head = head
        .strip_suffix(b"=")
        .or_else(|| head.strip_suffix(b":"))
        .unwrap_or(head);
    let head = head.strip_suffix(b"\"").unwrap_or(head);
    let head = head.trim_ascii_end();
    let key_start = head
        .iter()
        .rposition(|b| !b.is_ascii_alphabetic())
        .map_or(0, |p| p + 1);
    matches!(
        head[key_start..].to_ascii_lowercase().as_slice(),
        b"level" | b"lvl" | b"severity" | b"loglevel" | b"priority"
    )
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

/// `: 1`, ` 137`: a code that is not zero.
fn nonzero_code(rest: &[u8]) -> bool {
    let rest = rest.trim_ascii_start();
    let rest = rest.strip_prefix(b":").unwrap_or(rest).trim_ascii_start();
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    digits > 0 && rest[..digits].iter().any(|&d| d != b'0')
}

#[cfg(test)]
mod tests {
    use super::*;
    use Severity::*;

    #[test]
    fn stated_levels_in_common_formats() {
        let cases = [
            ("2024-01-01 10:00:00 ERROR db: connection refused", Some(Error)),
            ("2024-01-01 10:00:00,123 WARN  [main] slow", Some(Warn)),
            ("[Sun Dec 04 04:47:44 2005] [error] mod_jk child in error state 6", Some(Error)),
            ("time=2024 level=error msg=\"boom\"", Some(Error)),
            ("{\"level\":\"warn\",\"msg\":\"x\"}", Some(Warn)),
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
        ];
        for (line, want) in cases {
            assert_eq!(classify(line), want, "{line}");
        }
    }

    #[test]
    fn prose_mentions_are_not_levels() {
        assert_eq!(classify("found 0 errors in the error handling code"), None);
        assert_eq!(classify("the info desk is open"), None);
        assert_eq!(classify("Every Error has a cause"), None);
    }

    #[test]
    fn signals_without_a_level() {
        assert_eq!(classify("Traceback (most recent call last):"), Some(Error));
        assert_eq!(classify("KeyError: 'user'"), Some(Error));
        assert_eq!(
            classify("java.lang.NullPointerException: null"),
            Some(Error)
        );
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
            classify("INFO job finished, exit status 2"),
            Some(Error),
            "a signal outranks the level"
        );
    }

    #[test]
    fn inspect_says_which_record_a_line_opens() {
        let traceback = inspect("Traceback (most recent call last):");
        assert_eq!(
            (traceback.severity, traceback.opens),
            (Some(Error), Some(Opens::Traceback))
        );
        assert_eq!(
            inspect("thread 'main' panicked at src/main.rs:2:5:").opens,
            Some(Opens::Panic)
        );
        assert_eq!(inspect("ERROR nothing opens here").opens, None);
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
            (1..head.len().saturating_sub(1))
                .filter(|&i| head[i - 1] == b' ' && matches!(head[i + 1], b' ' | b'/'))
                .find_map(|i| letter_level(head[i]))
        }
        let alphabet = b" /EWFIDVx1";
        let mut seed = 7u64;
        let mut found = 0;
        let mut lines = Vec::new();
        for _ in 0..20_000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let len = (seed >> 33) as usize % 80;
            let line: Vec<u8> = (0..len)
                .map(|k| {
                    let r = seed.rotate_left(k as u32 * 7) ^ (k as u64).wrapping_mul(0x9e37);
                    alphabet[(r % alphabet.len() as u64) as usize]
                })
                .collect();
            let want = walked(&line);
            found += usize::from(want.is_some());
            assert_eq!(
                letter_column(&line),
                want,
                "{:?}",
                String::from_utf8_lossy(&line)
            );
            lines.push(String::from_utf8(line).expect("ASCII"));
        }
        assert!(
            found > 1_000,
            "{found} lines with a column: the lines are too alike"
        );
        // And where the search over many lines at once finds them.
        let text = lines.join("\n");
        let mut start = 0;
        let ranges: Vec<Range<usize>> = lines
            .iter()
            .map(|line| {
                start += line.len() + 1;
                start - line.len() - 1..start - 1
            })
            .collect();
        let mut out = Vec::new();
        inspect_lines(&text, ranges, &mut out);
        let each: Vec<Inspection> = lines.iter().map(|line| inspect(line)).collect();
        assert_eq!(out, each);
    }

    #[test]
    fn parses_level_names() {
        assert_eq!("warn".parse::<Severity>().unwrap(), Warn);
        assert_eq!("ERROR".parse::<Severity>().unwrap(), Error);
        assert!("loud".parse::<Severity>().is_err());
        assert!(Fatal > Error && Error > Warn && Warn > Info);
    }
}
