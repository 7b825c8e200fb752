//! Severity recognized across common log formats, as a ranking signal: stated levels
//! (`ERROR`, `level=warn`, `[error]`, `E1129`), exception and error names, and signals
//! such as tracebacks, panics, OOM kills, segfaults and non-zero exit reports.
//!
//! One engine for every reducer: `spill` marks error-looking lines with it, `text` ranks
//! records by it.

use aho_corasick::packed;
use serde::{Deserialize, Serialize};
use std::fmt;
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
    let mut opens = None;
    let mut stated = letter_column(bytes);
    let mut named = None;
    let mut signalled = bytes.starts_with(b"Caused by:").then_some(Severity::Error);
    let (searcher, kinds) = &*CANDIDATES;
    for hit in searcher.find_iter(bytes) {
        match kinds[hit.pattern().as_usize()] {
            Candidate::Signal(phrase, severity) => {
                let exact = &bytes[hit.start()..hit.end()] == phrase.as_bytes();
                // An exit report counts only with a non-zero code after it.
                if exact && (!phrase.starts_with("exit") || nonzero_code(&bytes[hit.end()..])) {
                    signalled = signalled.max(Some(severity));
                }
                match phrase {
                    "Traceback (most recent call last)" if exact => opens = Some(Opens::Traceback),
                    "panicked at" if exact => opens = opens.or(Some(Opens::Panic)),
                    _ => {}
                }
            }
            Candidate::Word if hit.start() < LEVEL_WINDOW => {
                let start = bytes[..hit.start()]
                    .iter()
                    .rposition(|b| !is_word_byte(*b))
                    .map_or(0, |p| p + 1);
                let end = bytes[hit.start()..]
                    .iter()
                    .position(|b| !is_word_byte(*b))
                    .map_or(bytes.len(), |p| hit.start() + p);
                match word_level(bytes, start, end, &bytes[start..end]) {
                    Some(Found::Stated(level)) => stated = stated.max(Some(level)),
                    Some(Found::Named) => named = Some(Severity::Error),
                    None => {}
                }
            }
            Candidate::Word => {}
        }
    }
    Inspection {
        severity: stated.or(named).max(signalled),
        opens,
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

/// A single-letter level as a column near the start: glog's `E1129 …`, logcat's ` E `.
fn letter_column(bytes: &[u8]) -> Option<Severity> {
    if bytes.len() > 5 && bytes[1..5].iter().all(u8::is_ascii_digit) {
        if let Some(level) = letter_level(bytes[0]) {
            return Some(level);
        }
    }
    let head = &bytes[..bytes.len().min(64)];
    let column = |i: usize| {
        (i + 1 < head.len() && matches!(head[i + 1], b' ' | b'/'))
            .then(|| letter_level(head[i]))
            .flatten()
    };
    if head.len() < 32 {
        // Too short for a SIMD search to pay off.
        return (1..head.len())
            .filter(|&i| head[i - 1] == b' ')
            .find_map(column);
    }
    // From space to space: a handful of steps where a byte-by-byte walk takes 64.
    memchr::memchr_iter(b' ', head).find_map(|space| column(space + 1))
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
    fn parses_level_names() {
        assert_eq!("warn".parse::<Severity>().unwrap(), Warn);
        assert_eq!("ERROR".parse::<Severity>().unwrap(), Error);
        assert!("loud".parse::<Severity>().is_err());
        assert!(Fatal > Error && Error > Warn && Warn > Info);
    }
}
