//! `briefly cargo-test`: `cargo test` (libtest's text format, across test binaries and
//! doc-tests), `cargo nextest run`, libtest JSON (`-Z unstable-options --format json`),
//! nextest's libtest-json, and the rustc diagnostics of a build that failed.
//!
//! Totals come only from the runners' own lines (`test result: …` of each binary, a JSON
//! suite event, nextest's `Summary`); a binary that started and printed no result makes
//! them incomplete, and the summary says so. Items: compile errors first, then failing
//! tests (panic message, `file:line:col`, left/right, captured stdout excerpt), each
//! distinct kind before repeats, then flaky tests and panics of threads no test's result
//! names; warnings are counted by lint and listed only when there is nothing worse (or
//! with `warnings`).

use crate::excerpt::Excerpt;
use crate::facts::{Facts, LineFacts};
use crate::pytest::by_count;
use crate::rank::Ranker;
use crate::{remember, tally, TestRunError};
use briefly_core::{Ahead, Batch, Emit, FoldBatches, Outcome, DEFAULT_MAX_LINE_BYTES};
use briefly_severity::{multiline, Severity};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

/// Test binaries listed in `stats.binaries`.
pub const MAX_BINARIES: usize = 500;
/// Names listed in `stats.failed`.
pub const MAX_NAMES: usize = 100;
/// Names of failed tests held per binary until its result, for those without a report.
pub const MAX_PENDING_NAMES: usize = 10_000;
/// How `cargo test -q` names a failed test (Rust 1.95: `tests::a --- FAILED`), after
/// the panic printed as it happened under `--nocapture`.
const QUIET_FAILED: &str = " --- FAILED";
/// Panics printed as they happened held until their tests' outcomes; past it, the
/// oldest is let go.
const MAX_WAITING_PANICS: usize = 16;
/// Warnings held to list when nothing worse turns up.
pub const MAX_HELD_WARNINGS: usize = 200;

/// Options of `briefly cargo-test`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct CargoTestOptions {
    /// Decisive lines kept per failure excerpt (panic, frames, captured output).
    pub lines: usize,
    /// List each compiler warning as an item even when there are errors or failures.
    pub warnings: bool,
}

impl Default for CargoTestOptions {
    fn default() -> Self {
        CargoTestOptions {
            lines: 12,
            warnings: false,
        }
    }
}

/// A failing or flaky test, a compile error, a crashed binary, a thread's panic or (when
/// listed) a warning.
#[derive(Debug, Clone, Serialize, PartialEq, Default)]
pub struct CargoItem {
    /// `failed` (a test), `error` (a compile error), `crashed` (a binary with no result),
    /// `flaky`, `panic` (a thread's panic no test's result names: one a test started,
    /// not a failure of its own), `warning`.
    pub kind: &'static str,
    /// The test's name (a `panic`'s: its thread's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The test binary, when the output names it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub binary: Option<String>,
    /// The diagnostic's code (`E0308`) or lint.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// The panic message or the diagnostic's message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// `file:line:col` of the panic or the diagnostic.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// Where an assertion's long values first differ, and each around it (`char 5620:
    /// left …1233, 1234, 1235… right …1233, 7777, 1235…`): short, so that a budget that
    /// cuts the values to their (equal) beginnings keeps it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub differs_at: Option<String>,
    /// An assertion's left value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left: Option<String>,
    /// An assertion's right value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub right: Option<String>,
    /// The diagnostic's snippet and help, or the panic with the test's own frames.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub detail: String,
    /// A bounded excerpt of the test's captured stdout (error-like lines and the last ones).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub captured: String,
}

/// One test binary's result, in libtest's words.
#[derive(Debug, Clone, Serialize, PartialEq, Default)]
pub struct BinaryResult {
    /// `demo: unittests src/lib.rs`, `Doc-tests demo`, or its number when the output does not name it.
    pub binary: String,
    /// Tests it said it would run (`running N tests`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub running: Option<u64>,
    /// Its `test result:` counts; null when it printed none (crashed or cut off).
    pub result: Option<Map<String, Value>>,
}

/// The aggregates of `briefly cargo-test`.
#[derive(Debug, Clone, Serialize, Default)]
pub struct CargoStats {
    /// Sums of every binary's result (`passed`, `failed`, `ignored`, `measured`,
    /// `filtered_out`), with the outcomes a binary that stopped short of its result
    /// printed before (then `counts_known` is false), or nextest's summary; null when no
    /// result was printed.
    pub totals: Option<Map<String, Value>>,
    /// False when some binary printed no result or none printed any.
    pub counts_known: bool,
    /// Names of the failing tests (the first [`MAX_NAMES`]).
    pub failed: Vec<String>,
    /// Failing tests left out of `failed` past [`MAX_NAMES`].
    #[serde(skip_serializing_if = "briefly_core::is_zero")]
    pub names_left_out: u64,
    /// Compile errors by code (or message, when they have none).
    pub errors_by_code: BTreeMap<String, u64>,
    /// Lines cargo or nextest printed about the run as a whole (`could not compile …`, `N tests were not run …`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Compiler warnings in all.
    pub warnings: u64,
    /// Compiler warnings by lint (or message shape).
    pub warnings_by_lint: BTreeMap<String, u64>,
    /// Per-binary results (the first [`MAX_BINARIES`]).
    pub binaries: Vec<BinaryResult>,
    /// Formats recognized: `libtest`, `libtest-json`, `nextest`, `rustc`.
    pub formats: Vec<&'static str>,
    /// The target cargo stopped at, failing (`--lib`), when it stopped there: the test
    /// binaries after it (if any) did not run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_after: Option<String>,
}

/// A test's failure report, as read so far: its captured output, its panic.
#[derive(Debug, Clone)]
struct Failure {
    name: String,
    binary: Option<String>,
    captured: Excerpt,
    detail: Excerpt,
    in_panic: bool,
    location: Option<String>,
    /// The thread whose panic gave `location` (the test's own, or one it spawned).
    panic_thread: Option<String>,
    message: Vec<String>,
    /// The message's lines past [`MAX_MESSAGE_LINES`], counted.
    message_unheld: u64,
    /// What the first panic said, when its thread panicked again
    /// ([`Failure::into_first_panicked`]).
    first_panic: Option<Box<FirstPanic>>,
    /// What another thread's panic said, when the test's own thread panicked after it
    /// (its panic is the test's, unless it passes the other's on).
    other_panic: Option<Box<FirstPanic>>,
    /// Where the first error is of a doc-test that did not compile (rustc's ` -->`).
    error_place: Option<String>,
    /// How nextest says it ended, when more than that it failed: `timed out after 60.001s`.
    cause: Option<String>,
    /// Why rustdoc says a doc-test failed when it did not panic: rustc's first error in
    /// its report (it did not compile), or rustdoc's word on its executable
    /// ([`RUSTDOC_VERDICTS`]).
    doctest_cause: Option<String>,
    left: AssertedValue,
    right: AssertedValue,
    /// The value (`left: Schema {`) whose Debug goes on over the next lines, and how
    /// many brackets it has open.
    open_value: Option<(Side, i64)>,
    /// In pretty_assertions' `Diff < left / right > :` (or `assert_ne`'s `Both sides:`).
    in_diff: Option<Diff>,
    /// Blank lines since the block's last line: its end, or lines both values have empty.
    diff_blanks: usize,
}

/// Which value of an assertion.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Side {
    Left,
    Right,
}

/// The block pretty_assertions prints a failed assertion's values in.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Diff {
    /// `assert_eq`'s: each line marked `<` (left's), `>` (right's) or ` ` (both's).
    Lines,
    /// `assert_ne`'s `Both sides:`, the one value both have.
    Both,
}

/// An assertion's value (`left: …`), as read so far, line by line.
#[derive(Debug, Clone, Default)]
struct AssertedValue {
    text: Option<String>,
    /// It reached [`MAX_VALUE_BYTES`] and was cut there.
    cut: bool,
}

impl AssertedValue {
    /// One more line of it (its first, when it has none), kept up to [`MAX_VALUE_BYTES`].
    fn push_line(&mut self, line: &str) {
        if self.cut {
            return;
        }
        let text = match &mut self.text {
            Some(text) => {
                text.push('\n');
                text
            }
            None => self.text.insert(String::new()),
        };
        let kept = briefly_core::head_bytes(line, MAX_VALUE_BYTES.saturating_sub(text.len()));
        text.push_str(kept);
        if kept.len() < line.len() {
            text.push_str(VALUE_CUT);
            self.cut = true;
        }
    }
}

/// Longest assertion value kept, in bytes: the rest is cut, [`VALUE_CUT`] in its place.
pub(crate) const MAX_VALUE_BYTES: usize = 8 * 1024;

/// What ends an assertion value cut at [`MAX_VALUE_BYTES`] (the whole is in the
/// artifact).
const VALUE_CUT: &str = "…[cut]";

/// What a test's first panic said ([`Failure::into_first_panicked`]).
#[derive(Debug, Clone)]
struct FirstPanic {
    location: Option<String>,
    thread: Option<String>,
    message: Vec<String>,
    message_unheld: u64,
    left: AssertedValue,
    right: AssertedValue,
}

impl Failure {
    /// The failure as its first panic said it: a panic in a destructor while unwinding
    /// panics the thread again and aborts the binary, and the first says why (where a
    /// test that goes on past a panic it caught fails by its last).
    fn into_first_panicked(mut self) -> Failure {
        if let Some(first) = self.first_panic.take() {
            self.restore_panic(*first);
        }
        self
    }

    /// What the panic read so far said, a new panic at `location` (on `thread`) in its place.
    fn take_panic(&mut self, location: String, thread: Option<&str>) -> FirstPanic {
        self.open_value = None;
        FirstPanic {
            location: self.location.replace(location),
            thread: std::mem::replace(&mut self.panic_thread, thread.map(str::to_string)),
            message: std::mem::take(&mut self.message),
            message_unheld: std::mem::take(&mut self.message_unheld),
            left: std::mem::take(&mut self.left),
            right: std::mem::take(&mut self.right),
        }
    }

    /// The failure as `said` says it.
    fn restore_panic(&mut self, said: FirstPanic) {
        self.location = said.location;
        self.panic_thread = said.thread;
        self.message = said.message;
        self.message_unheld = said.message_unheld;
        self.left = said.left;
        self.right = said.right;
    }

    fn new(name: &str, binary: Option<String>, lines: usize) -> Self {
        Failure {
            name: name.to_string(),
            binary,
            captured: Excerpt::new(0, lines / 2, lines / 2),
            detail: Excerpt::new(0, lines, 1),
            in_panic: false,
            location: None,
            panic_thread: None,
            message: Vec::new(),
            message_unheld: 0,
            first_panic: None,
            other_panic: None,
            error_place: None,
            cause: None,
            doctest_cause: None,
            left: AssertedValue::default(),
            right: AssertedValue::default(),
            open_value: None,
            in_diff: None,
            diff_blanks: 0,
        }
    }

    /// One line of the report; `severity` gives the line's, asked only when it matters.
    fn push(&mut self, line: &str, severity: impl FnOnce() -> Option<Severity>) {
        // A `#[should_panic]` test's failure is libtest's note, not a panic.
        if let Some(note) = line.strip_prefix("note: ") {
            if let Some(rest) = note.strip_prefix(NO_PANIC) {
                self.message = vec![NO_PANIC.to_string()];
                if let Some(location) = rest.strip_prefix(" at ") {
                    self.location.get_or_insert_with(|| location.to_string());
                }
                self.in_panic = false;
                self.detail.push(line, true);
                return;
            }
            if note == WRONG_PANIC {
                // What it panicked with and what was expected follow, indented.
                self.message = vec![WRONG_PANIC.to_string()];
                self.in_panic = false;
                self.detail.push(line, true);
                return;
            }
        }
        if self.message.first().is_some_and(|m| m == WRONG_PANIC) {
            let trimmed = line.trim_start();
            if trimmed.starts_with("panic message: ") || trimmed.starts_with("expected substring: ")
            {
                self.message.push(trimmed.to_string());
                self.detail.push(line, true);
                return;
            }
        }
        if let Some(location) = panic_location(line) {
            let thread = panicking_thread(line.trim_start());
            // The same thread panicking again: the panic before was caught
            // (`catch_unwind`), this one failed the test. (A thread the test spawned
            // panics first, and the test's own thread then at its `join().unwrap()`:
            // the first says why.)
            if self.location.is_some() && thread.is_some() && thread == self.panic_thread.as_deref()
            {
                let said = self.take_panic(location, thread);
                self.first_panic.get_or_insert_with(|| Box::new(said));
            } else if self.location.is_some() && thread == Some(self.name.as_str()) {
                // The test's own thread after another's: a child run's the test printed
                // (a test binary it ran), or a thread it spawned. Its own panic is why it
                // failed, unless it passes the other's on (read with its message).
                let said = self.take_panic(location, thread);
                self.other_panic.get_or_insert_with(|| Box::new(said));
            } else if self.location.is_none() {
                self.location = Some(location);
                self.panic_thread = thread.map(str::to_string);
            }
            self.in_panic = true;
            self.detail.push(line, true);
            return;
        }
        if self.in_panic {
            let trimmed = line.trim_start();
            if line.is_empty() || line.starts_with("note: ") || line == "stack backtrace:" {
                self.in_panic = false;
                self.open_value = None;
                self.detail.push(line, false);
                return;
            }
            // libtest's own ` right: ` (its column, where a value's field is indented
            // more) ends the left value, however many brackets that left open.
            let right_opens = line.starts_with(" right: ");
            if let Some((side, open)) = self.open_value.filter(|_| !right_opens) {
                // A Debug over several lines (`{:#?}`'s, or a type's own): the value's,
                // fields named `left:` and `right:` too.
                self.value(side).push_line(line);
                let open = open + bracket_balance(line);
                self.open_value = (open > 0).then_some((side, open));
            } else if let Some(left) = trimmed.strip_prefix("left: ") {
                self.value_starts(Side::Left, left);
            } else if let Some(right) = trimmed.strip_prefix("right: ") {
                self.value_starts(Side::Right, right);
            } else if self.message.is_empty() && multiline::passes_a_panic_on(line) {
                // `handle.join().unwrap()` on a thread that panicked: that panic says why.
                if let Some(other) = self.other_panic.take() {
                    self.restore_panic(*other);
                }
                self.message.push(line.to_string());
            } else if self.message.len() < MAX_MESSAGE_LINES {
                self.message.push(line.to_string());
            } else {
                self.message_unheld += 1;
            }
            self.detail.push(line, true);
            return;
        }
        if let Some(diff) = self.in_diff {
            // A blank line ends the block, unless more of it follows: a line both values
            // have empty is ` `, read without its space.
            let more = matches!(diff, Diff::Lines)
                && matches!(line.as_bytes().first(), Some(b' ' | b'<' | b'>'));
            if line.is_empty() {
                self.diff_blanks += 1;
                self.detail.push(line, false);
                return;
            }
            if more || (self.diff_blanks == 0 && !line.starts_with("note: ")) {
                for _ in 0..std::mem::take(&mut self.diff_blanks) {
                    self.diff_line(diff, " ");
                }
                self.diff_line(diff, line);
                self.detail.push(line, true);
                return;
            }
            self.in_diff = None;
            self.diff_blanks = 0;
        }
        if self.location.is_some() {
            // pretty_assertions prints the values after the message and a blank line.
            if line.starts_with("Diff < left / right > :") {
                self.in_diff = Some(Diff::Lines);
                self.detail.push(line, true);
                return;
            }
            if line == "Both sides:" {
                self.in_diff = Some(Diff::Both);
                self.detail.push(line, true);
                return;
            }
            // After the panic: a backtrace, whose frames in the project are the decisive ones.
            let own = line.trim_start().starts_with("at ./") || line.contains(" at ./");
            self.detail.push(line, own);
            return;
        }
        // A doc-test's report holds rustc's output when it did not compile: its first
        // error is why it failed (a test of any other kind printed it itself); else
        // rustdoc's word on how its executable ended.
        if self.doctest_cause.is_none() && is_doctest(&self.name) {
            let error = matches!(diagnostic_start(line), Some((true, _, _)));
            if error || rustdoc_verdict(line).is_some() {
                self.doctest_cause = Some(line.to_string());
            }
        }
        // rustc's place of that error (` --> src/lib.rs:2:14`, which rustdoc maps to the
        // file's line; the name gives where the block starts) and its marks (`^^^^
        // expected `i32`, …`) are what a reader fixes it by.
        let place = line.trim_start().strip_prefix("--> ");
        let compile_error =
            || (self.doctest_cause.as_deref()).is_some_and(|c| diagnostic_start(c).is_some());
        if let Some(place) = place.filter(|_| self.error_place.is_none() && compile_error()) {
            self.error_place = Some(place.to_string());
        }
        let marks = || line.trim_start().starts_with('|') && line.contains('^');
        let decisive = self.captured.wants_marked()
            && (place.is_some() || marks() || severity().is_some_and(|s| s >= Severity::Warn));
        self.captured.push(line, decisive);
    }

    /// A blank line of a report that leaves its blank lines out (nextest's, around the
    /// binary's frame): it still ends a panic's message and pretty_assertions' block.
    fn blank(&mut self) {
        if self.in_panic || self.in_diff.is_some() {
            self.push("", || None);
        }
    }

    /// `left: VALUE` or `right: VALUE` opens the panic's value of `side` (the first such
    /// line, when a report has several).
    fn value_starts(&mut self, side: Side, value: &str) {
        self.open_value = None;
        let asserted = self.value(side);
        if asserted.text.is_none() {
            asserted.push_line(value);
            let open = bracket_balance(value);
            self.open_value = (open > 0).then_some((side, open));
        }
    }

    /// The value of `side`.
    fn value(&mut self, side: Side) -> &mut AssertedValue {
        match side {
            Side::Left => &mut self.left,
            Side::Right => &mut self.right,
        }
    }

    /// One line of pretty_assertions' block: its values, line by line, are the left's and
    /// the right's.
    fn diff_line(&mut self, diff: Diff, line: &str) {
        let (left, right) = match (diff, line.as_bytes().first()) {
            (Diff::Both, _) => (true, true),
            (Diff::Lines, Some(b'<')) => (true, false),
            (Diff::Lines, Some(b'>')) => (false, true),
            (Diff::Lines, Some(b' ')) => (true, true),
            (Diff::Lines, _) => return,
        };
        let text = match diff {
            Diff::Both => line,
            Diff::Lines => &line[1..],
        };
        if left {
            self.left.push_line(text);
        }
        if right {
            self.right.push_line(text);
        }
    }

    /// The panic message, as the item gives it; a doc-test's compile error or rustdoc's
    /// verdict when it had none.
    fn message(&self) -> Option<String> {
        let doctest_cause = match self.message.is_empty() {
            true => self.doctest_cause.as_ref(),
            false => None,
        };
        let said = message_excerpt(&self.message, self.message_unheld);
        let lines = said.iter().map(String::as_str);
        let lines = lines
            .chain(doctest_cause.map(String::as_str))
            .chain(self.cause.as_deref());
        let message = lines.collect::<Vec<_>>().join("\n");
        (!message.is_empty()).then(|| briefly_core::cut_str(&message, 1_000).into_owned())
    }

    /// The item, with its [`Failure::message`].
    fn item(self, message: Option<String>) -> CargoItem {
        // A doc-test's panic is placed in the file rustdoc built it in (a temporary one
        // under edition 2024): its own place is in its name.
        let location = self.location.or(self.error_place);
        let location = match (&location, doctest_place(&self.name)) {
            (Some(at), Some(own))
                if at.contains("rustdoctest") || at.contains("doctest_bundle") =>
            {
                Some(own)
            }
            (None, own) => own,
            _ => location,
        };
        CargoItem {
            kind: "failed",
            name: Some(self.name),
            binary: self.binary,
            message,
            location,
            differs_at: first_difference(self.left.text.as_deref(), self.right.text.as_deref()),
            left: self.left.text,
            right: self.right.text,
            detail: self.detail.text(),
            captured: self.captured.text(),
            ..CargoItem::default()
        }
    }
}

/// A panic message's lines held, at most (the detail has its lines too).
const MAX_MESSAGE_LINES: usize = 64;
/// A panic message's first lines, always said.
const MESSAGE_HEAD: usize = 4;
/// Lines past the head said when no other line of the message has their shape, at most.
const MESSAGE_RARE: usize = 4;

/// A panic message as its item says it: its first lines, and past them those no other
/// line is like (`field `port`: value 70000 exceeds maximum` among forty
/// `field `fN`: ok`), `… N lines …` for the rest (the `unheld` lines past those held
/// too).
fn message_excerpt(lines: &[String], unheld: u64) -> Vec<String> {
    if lines.len() <= MESSAGE_HEAD && unheld == 0 {
        return lines.to_vec();
    }
    // A line's shape: names in backticks ([`message_shape`]) and runs of digits masked.
    let shape = |line: &str| {
        let masked = message_shape(line);
        let mut shape = String::with_capacity(masked.len());
        for c in masked.chars() {
            match c.is_ascii_digit() {
                true if shape.ends_with('#') => {}
                true => shape.push('#'),
                false => shape.push(c),
            }
        }
        shape
    };
    let shapes: Vec<String> = lines.iter().map(|line| shape(line)).collect();
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for shape in &shapes {
        *counts.entry(shape).or_default() += 1;
    }
    let mut said: Vec<String> = lines[..MESSAGE_HEAD.min(lines.len())].to_vec();
    let (mut rare, mut skipped) = (0, 0u64);
    for (line, shape) in lines.iter().zip(&shapes).skip(MESSAGE_HEAD) {
        if rare < MESSAGE_RARE && counts[shape.as_str()] == 1 {
            if skipped > 0 {
                said.push(crate::excerpt::gap(skipped).trim_end().to_string());
                skipped = 0;
            }
            said.push(line.clone());
            rare += 1;
        } else {
            skipped += 1;
        }
    }
    if skipped + unheld > 0 {
        said.push(crate::excerpt::gap(skipped + unheld).trim_end().to_string());
    }
    said
}

/// Values at most this long (characters) are read whole: no `differs_at`.
const SHORT_VALUE: usize = 200;
/// `differs_at` shows this many characters of each value before the first difference,
/// and [`AFTER_DIFFERENCE`] from it.
const BEFORE_DIFFERENCE: usize = 12;
const AFTER_DIFFERENCE: usize = 28;

/// Where two assertion values first differ, when either is long, and each around it:
/// `char 5620: left …1233, 1234, 1235… right …1233, 7777, 1235…`.
fn first_difference(left: Option<&str>, right: Option<&str>) -> Option<String> {
    let (left, right) = (left?, right?);
    let long = |text: &str| text.chars().nth(SHORT_VALUE).is_some();
    if !long(left) && !long(right) {
        return None;
    }
    let at = left
        .chars()
        .zip(right.chars())
        .position(|(l, r)| l != r)
        .or_else(|| (left != right).then(|| left.chars().count().min(right.chars().count())))?;
    let from = at.saturating_sub(BEFORE_DIFFERENCE);
    let around = |text: &str| {
        let window: String = text
            .chars()
            .skip(from)
            .take(at - from + AFTER_DIFFERENCE)
            .collect();
        let before = if from > 0 { "…" } else { "" };
        let after = match text.chars().nth(at + AFTER_DIFFERENCE) {
            Some(_) => "…",
            None => "",
        };
        format!("{before}{window}{after}")
    };
    Some(format!(
        "char {at}: left {} right {}",
        around(left),
        around(right)
    ))
}

/// How many more brackets (`{`, `[`, `(`) `text` opens than it closes, outside quoted
/// strings and characters (`"a]"`, `']'`, `'"'`): a Debug value goes on over the next
/// lines while some are open.
fn bracket_balance(text: &str) -> i64 {
    let mut balance = 0;
    let mut quoted = false;
    let mut escaped = false;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        rest = &rest[c.len_utf8()..];
        match (quoted, c) {
            (true, _) if escaped => escaped = false,
            (true, '\\') => escaped = true,
            (_, '"') => quoted = !quoted,
            (false, '\'') => rest = after_char_literal(rest),
            (false, '{' | '[' | '(') => balance += 1,
            (false, '}' | ']' | ')') => balance -= 1,
            _ => {}
        }
    }
    balance
}

/// `rest`, what follows a `'`, past the character literal it opens (`']'`, `'\''`,
/// `'\u{7f}'`) when it opens one; else `rest` unchanged.
fn after_char_literal(rest: &str) -> &str {
    // The longest escape after its `\x` (`\u{10ffff}`'s `{10ffff}`).
    const MAX_ESCAPE_TAIL: usize = "{10ffff}".len();
    let mut chars = rest.char_indices();
    let end = match chars.next() {
        // An escape: up to the next `'`.
        Some((_, '\\')) => rest
            .get(2..)
            .and_then(|r| r.find('\''))
            .filter(|&at| at <= MAX_ESCAPE_TAIL)
            .map(|at| at + 2),
        Some(_) => chars.next().filter(|&(_, c)| c == '\'').map(|(at, _)| at),
        None => None,
    };
    end.map_or(rest, |at| &rest[at + 1..])
}

/// libtest's note on a `#[should_panic]` test that did not panic (then ` at
/// src/lib.rs:8:4` since Rust 1.82).
const NO_PANIC: &str = "test did not panic as expected";

/// libtest's note on a `#[should_panic(expected = …)]` test whose panic's message lacked
/// what was expected.
const WRONG_PANIC: &str = "panic did not contain expected string";

/// `thread 'x' (123) panicked at src/lib.rs:8:9:` (and the older `panicked at 'msg', src/lib.rs:8:9`).
fn panic_location(line: &str) -> Option<String> {
    let line = line.trim_start();
    if !line.starts_with("thread '") {
        return None;
    }
    let (_, rest) = line.split_once(" panicked at ")?;
    let location = match rest.strip_suffix(':') {
        Some(location) => location,
        None => rest.rsplit(", ").next()?,
    };
    Some(location.to_string())
}

/// A rustc diagnostic, as read so far.
#[derive(Debug, Clone)]
struct Diagnostic {
    error: bool,
    code: Option<String>,
    message: String,
    location: Option<String>,
    lint: Option<String>,
    snippet: Excerpt,
    /// A build script's panic message, said after `message` in the item (not in its
    /// count's key), and whether it is being read (the lines after `panicked at`).
    cause: String,
    reading_cause: bool,
}

impl Diagnostic {
    /// A diagnostic as its first line opens it; its snippet keeps up to `lines` lines.
    fn new(error: bool, code: Option<String>, message: String, lines: usize) -> Self {
        Diagnostic {
            error,
            code,
            message,
            location: None,
            lint: None,
            snippet: Excerpt::new(0, lines, 2),
            cause: String::new(),
            reading_cause: false,
        }
    }
}

/// `error[E0308]: mismatched types` → (error, Some(E0308), message); cargo's own lines are not diagnostics.
fn diagnostic_start(line: &str) -> Option<(bool, Option<String>, String)> {
    let (error, rest) = if let Some(rest) = line.strip_prefix("error") {
        (true, rest)
    } else if let Some(rest) = line.strip_prefix("warning") {
        (false, rest)
    } else {
        return None;
    };
    let (code, message) = if let Some(rest) = rest.strip_prefix('[') {
        let (code, message) = rest.split_once("]: ")?;
        (Some(code.to_string()), message)
    } else {
        (None, rest.strip_prefix(": ")?)
    };
    const CARGO_OWN: [&str; 13] = [
        "no tests to run",
        "could not compile",
        "test failed, to rerun",
        "doctest failed, to rerun",
        "build failed, waiting",
        "aborting due to",
        "test run failed",
        "no library targets found",
        "unused manifest key",
        "Recipe",
        "failed to",
        "1 target failed",
        "running ",
    ];
    if code.is_none()
        && (CARGO_OWN.iter().any(|own| message.starts_with(own))
            || (message.contains(" generated ") && message.contains(" warning"))
            || (message.contains(" targets failed"))
            || message.contains("tests were not run"))
    {
        return None;
    }
    Some((error, code, message.to_string()))
}

/// A warning's message with the names in backticks masked (its numbers kept): its group
/// when it has no lint note.
fn message_shape(message: &str) -> String {
    let mut shape = String::new();
    for (i, part) in message.split('`').enumerate() {
        shape.push_str(if i % 2 == 1 { "`_`" } else { part });
    }
    shape
}

/// What kind of panic a message is, for ranking distinct kinds first.
fn panic_kind(message: Option<&str>) -> String {
    let message = message.unwrap_or("no panic message");
    let first = message.lines().next().unwrap_or_default();
    if first.starts_with("assertion") {
        first.split(" failed").next().unwrap_or(first).to_string()
    } else if first.starts_with("called `") {
        first.split(" value").next().unwrap_or(first).to_string()
    } else {
        message_shape(first).chars().take(40).collect()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Normal,
    /// Inside a libtest `---- name stdout ----` report.
    LibtestReport,
    /// Inside a nextest `FAIL [...]` report (indented).
    NextestReport,
    /// Inside an older nextest's report of a failure: its output under `--- STDOUT:
    /// binary name ---` and `--- STDERR: … ---`, not indented, up to nextest's next line.
    NextestOldReport,
    /// After a nextest `START` (under `--no-capture`): the test's output as it runs,
    /// inside libtest's frame for that one test, up to nextest's status of it.
    NextestOutput,
    /// After `failures:`: the names of the failed tests, indented.
    FailureList,
    Diagnostic,
    /// After cargo's `error: failed to run custom build command for …`: its `Caused by:`
    /// and the build script's output, indented, which say why (its panic).
    BuildScript,
    /// A test's panic printed as it happened (`--nocapture`), up to the test's `FAILED`
    /// (its report) or `ok` (a panic the test expected or caught: none), or up to another
    /// line of libtest's (a result, a JSON event), where it waits for its test's outcome.
    InlinePanic,
}

/// A build script's panic message said after cargo's words in its item's message, at
/// most (bytes, about; the detail has the lines).
const MAX_BUILD_SCRIPT_CAUSE: usize = 2000;

/// Lines kept of how a test binary crashed.
const MAX_CRASH_LINES: usize = 5;

/// A test's result, counted for a binary that stops before its own.
#[derive(Debug, Clone, Copy)]
enum TestOutcome {
    Passed,
    Failed,
    Ignored,
}

/// A libtest JSON event (both libtest's own and nextest's libtest-json).
#[derive(Debug, Deserialize)]
struct JsonEvent {
    #[serde(rename = "type")]
    kind: String,
    event: String,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    stdout: Option<String>,
    /// libtest's own note on a failure (a `#[should_panic]` test's), as the text
    /// format prints it after `note: `.
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    test_count: Option<u64>,
    #[serde(flatten)]
    rest: Map<String, Value>,
}

/// The cargo-test reducer.
#[derive(Debug)]
pub struct CargoTest {
    options: CargoTestOptions,
    /// The input framed into lines, each without its ANSI codes and with its severity,
    /// one batch ahead on another thread.
    ahead: Ahead<Facts>,
    mode: Mode,
    /// The binary the next `running N tests` belongs to, from cargo's `Running …` line.
    next_binary: Option<String>,
    /// Index in `binaries` of the binary running now (none past [`MAX_BINARIES`]).
    current: Option<usize>,
    /// The name of the binary running now.
    current_label: Option<String>,
    binaries: Vec<BinaryResult>,
    binaries_seen: u64,
    /// A binary has started and not yet ended.
    current_open: bool,
    /// The binary running now printed its result.
    current_has_result: bool,
    /// What the running binary's output says of how it stopped, when it did short of
    /// its result (at most [`MAX_CRASH_LINES`]).
    crash: Vec<String>,
    /// The test libtest (on one thread) named last, before any outcome of it.
    running_test: Option<String>,
    /// The failure read now began at a block of nextest's output that no status line
    /// announced (`--status-level=none`): it is named by what its test binary printed
    /// in it, and the next `stdout ───` block is the next test's.
    unannounced_output: bool,
    /// The tests libtest's JSON said started and gave no outcome of yet (at most
    /// [`MAX_RUNNING`]).
    started: Vec<String>,
    /// The first crashed binary's first such line, for the summary.
    first_crash: Option<String>,
    totals: Map<String, Value>,
    any_result: bool,
    without_result: Vec<String>,
    binaries_without_result: u64,
    /// The outcomes libtest printed (by [`TestOutcome`]) in the binary being read, and in
    /// those that stopped before their result: what is known of their counts.
    outcomes: [u64; 3],
    outcomes_without_result: [u64; 3],
    nextest_summary: Option<Map<String, Value>>,
    nextest_done: bool,
    /// nextest's `error: no tests to run` (a filter that matched none: exit code 4).
    no_tests_to_run: bool,
    /// The target cargo last said failed (`error: test failed, to rerun pass
    /// `--lib``), while no binary has started after it and no closing list of the
    /// failed targets came: cargo stopped there, as it does without `--no-fail-fast`.
    stopped_after: Option<String>,
    /// How many targets cargo's closing list says failed (`error: 4 targets failed:`).
    targets_failed: Option<u64>,
    /// Failures named only by nextest's closing list, their reports not in the input
    /// (cut off above it: `| tail`).
    named_only: u64,
    failure: Option<Failure>,
    /// The failure being read is an attempt nextest retries (`TRY 1 FAIL`): held, not
    /// reported, until the test's last attempt says whether it failed or was flaky.
    failure_retried: bool,
    /// Attempts that failed and were retried, by test (at most [`MAX_RETRIED`]).
    retried: HashMap<String, Failure>,
    /// Within `successes:` (`--show-output`): the reports there are of tests that passed.
    in_successes: bool,
    /// The line read last, when it was a returned error as libtest prints it (`Error:
    /// "…"`), and the one before the line read now ([`Self::test_failed`]'s).
    error_line: Option<String>,
    error_before: Option<String>,
    /// The last line of a libtest report read was blank: libtest sets its list of
    /// failures apart from the last report so, where a test's own `failures:` is not.
    report_line_blank: bool,
    /// A `failures:` in a libtest report, held until the next line that is not blank
    /// says whose it is (the run's, or a child run's the test printed); the blank lines
    /// since, counted.
    held_list: Option<usize>,
    /// Hashes of the diagnostics read (rendered in cargo's JSON messages, or as text), to
    /// show each once.
    rendered_seen: HashSet<String>,
    failed_names: Vec<String>,
    /// Failing tests reported (items made), all of them.
    failures: u64,
    reported: HashSet<String>,
    /// Names marked FAILED in the binary running now, to report those without a report.
    pending_names: Vec<String>,
    /// Panics printed as they happened (`--nocapture`) whose tests' outcomes have not
    /// come yet, another test's line having come between (tests run on threads): each is
    /// its test's report at its `... FAILED` (or JSON `failed` event; a doc-test's, on
    /// thread `main`, the next failed doc-test's), and nothing at its `... ok` (a panic
    /// the test expected). At most [`MAX_WAITING_PANICS`].
    waiting_panics: VecDeque<Failure>,
    /// Under `--nocapture`, why each doc-test that failed and whose result has not come
    /// yet failed, as rustdoc printed it when the doc-test ended (doc-tests run on
    /// threads; their results come in the same order): rustc's first error when it did
    /// not compile, else rustdoc's verdict ([`RUSTDOC_VERDICTS`]; a panic's follows
    /// it). At most [`MAX_WAITING_PANICS`].
    doctest_causes: VecDeque<String>,
    /// rustc's errors of a doc-test are being read, up to rustdoc's `Couldn't compile
    /// the test.`, which is of the same doc-test.
    doctest_compiling: bool,
    diagnostic: Option<Diagnostic>,
    lint_of_shape: HashMap<String, String>,
    held_warnings: Vec<CargoItem>,
    ranker: Ranker,
    stats: CargoStats,
    formats: Vec<&'static str>,
    json_errors: u64,
}

impl CargoTest {
    /// A reducer with these options.
    pub fn new(options: CargoTestOptions) -> Result<Self, TestRunError> {
        if options.lines == 0 {
            return Err(TestRunError::Option("--lines must be at least 1".into()));
        }
        Ok(CargoTest {
            options,
            ahead: Ahead::framing(Facts::new(true), DEFAULT_MAX_LINE_BYTES),
            mode: Mode::Normal,
            next_binary: None,
            current: None,
            current_label: None,
            binaries: Vec::new(),
            binaries_seen: 0,
            current_open: false,
            current_has_result: false,
            crash: Vec::new(),
            running_test: None,
            unannounced_output: false,
            started: Vec::new(),
            first_crash: None,
            totals: Map::new(),
            any_result: false,
            without_result: Vec::new(),
            binaries_without_result: 0,
            outcomes: [0; 3],
            outcomes_without_result: [0; 3],
            nextest_summary: None,
            no_tests_to_run: false,
            stopped_after: None,
            targets_failed: None,
            nextest_done: false,
            named_only: 0,
            failure: None,
            failure_retried: false,
            retried: HashMap::new(),
            rendered_seen: HashSet::new(),
            in_successes: false,
            error_line: None,
            error_before: None,
            report_line_blank: false,
            held_list: None,
            failed_names: Vec::new(),
            failures: 0,
            reported: HashSet::new(),
            pending_names: Vec::new(),
            waiting_panics: VecDeque::new(),
            doctest_causes: VecDeque::new(),
            doctest_compiling: false,
            diagnostic: None,
            lint_of_shape: HashMap::new(),
            held_warnings: Vec::new(),
            ranker: Ranker::default(),
            stats: CargoStats::default(),
            formats: Vec::new(),
            json_errors: 0,
        })
    }

    fn format(&mut self, format: &'static str) {
        if !self.formats.contains(&format) {
            self.formats.push(format);
        }
    }

    fn binary_name(&self) -> Option<String> {
        self.current_label.clone()
    }

    /// Whether libtest's JSON events were read (a line of one is then libtest's, not
    /// what a test printed).
    fn reads_json(&self) -> bool {
        has_json(&self.formats)
    }

    /// A JSON event's test name → its binary and its name. nextest's libtest-json names
    /// tests `crate::binary$path::to::test`; its human report (on stderr, often read
    /// with it) names a library's unit tests' binary by its crate alone (`demo`, not
    /// `demo::demo`): named alike, a failure reported both ways is one.
    fn json_test_name(&self, full: String) -> (Option<String>, String) {
        match full.split_once('$') {
            Some((binary, name)) => {
                let binary = match binary.split_once("::") {
                    Some((krate, target)) if krate == target => krate,
                    _ => binary,
                };
                (Some(binary.to_string()), name.to_string())
            }
            None => (self.binary_name(), full),
        }
    }

    /// What cargo's (or nextest's) `error: …` line says of the run as a whole: a target
    /// that failed (`test failed, to rerun pass `--lib``), how many did (`4 targets
    /// failed:`), or that no test was run.
    fn cargo_verdict(&mut self, error: &str) {
        let rerun = [
            "test failed, to rerun pass ",
            "doctest failed, to rerun pass ",
        ];
        if let Some(target) = rerun.iter().find_map(|words| error.strip_prefix(words)) {
            self.stopped_after = Some(target.trim().to_string());
        } else if let Some(n) = error
            .strip_suffix(" targets failed:")
            .and_then(|n| n.parse().ok())
            .or((error == "1 target failed:").then_some(1))
        {
            self.targets_failed = Some(n);
            self.stopped_after = None;
        } else if error == "no tests to run" {
            self.no_tests_to_run = true;
        }
    }

    fn start_binary(&mut self, running: Option<u64>, out: &mut dyn Emit<CargoItem>) {
        self.end_binary(out);
        self.stopped_after = None;
        self.doctest_causes.clear();
        self.doctest_compiling = false;
        self.binaries_seen += 1;
        let binary = self
            .next_binary
            .take()
            .unwrap_or_else(|| format!("binary {}", self.binaries_seen));
        self.current_label = Some(binary.clone());
        if self.binaries.len() < MAX_BINARIES {
            self.binaries.push(BinaryResult {
                binary,
                running,
                result: None,
            });
            self.current = Some(self.binaries.len() - 1);
        } else {
            self.current = None;
        }
        self.current_open = true;
    }

    /// Keeps a line of the running binary's output that says how it stopped.
    fn crash_line(&mut self, line: &str) {
        if self.current_open && self.crash.len() < MAX_CRASH_LINES {
            self.crash
                .push(briefly_core::cut_str(line, 300).into_owned());
        }
    }

    /// Whether `line`, a libtest report's heading (`---- name stdout ----`) inside a
    /// report, is what the test printed: it names no test the run marked FAILED, while
    /// it named them all (not `-q`'s dots, not past the cap).
    fn printed_heading(&self, line: &str) -> bool {
        let name = line
            .strip_prefix("---- ")
            .and_then(|r| r.strip_suffix(" stdout ----"));
        name.is_some_and(|name| self.knows_failed_names() && !self.marked_failed(name))
    }

    /// The run named every test it marked FAILED (not `-q`'s dots, not past the cap).
    fn knows_failed_names(&self) -> bool {
        (1..MAX_PENDING_NAMES).contains(&self.pending_names.len())
    }

    /// Test `name` is marked FAILED in the binary running now.
    fn marked_failed(&self, name: &str) -> bool {
        self.pending_names.iter().any(|n| n == name)
    }

    /// The binary running now ends (its result or the next binary's start).
    fn end_binary(&mut self, out: &mut dyn Emit<CargoItem>) {
        let stopped = self.current_open
            && !self.current_has_result
            && self
                .current
                .and_then(|i| self.binaries.get(i))
                .is_none_or(|b| b.result.is_none());
        // A panic printed as it happened, then the runtime's word that it could not
        // unwind, in a binary that stopped short of its result: its test is the one the
        // binary stopped in, one item with the crash.
        let aborted_by_panic = self.crash.iter().any(|line| line == NON_UNWINDING);
        let stopped_in = match (stopped && aborted_by_panic, self.mode) {
            // Its first panic, when that one waited (another test's line came between):
            // the cause, where the panic read now is the one that could not unwind.
            (true, Mode::InlinePanic) => (self.failure.take())
                .map(|last| (self.waited_panic(&last.name).unwrap_or(last)).into_first_panicked()),
            _ => None,
        };
        self.close_failure(out);
        // One test without an outcome in libtest's JSON: the one it stopped in (of
        // several, none can be told).
        let started = std::mem::take(&mut self.started);
        if let [name] = started.as_slice() {
            self.running_test.get_or_insert_with(|| name.clone());
        }
        if let Some(name) = self.running_test.take() {
            self.crash_line(&format!(
                "test {name} ... (no outcome: it was running when the output stopped)"
            ));
        }
        // A panic still waiting had no outcome of its own read. It is a failure's report
        // when the binary stopped short or the list of failures names its test (output
        // ran into its result line); an item of its own, not a failure, when the tests'
        // results were named (not `-q`'s dots, which hide a `should_panic` test's `ok`)
        // but none was its: a thread a test started (`worker`: often the cause). Not a
        // doc-test's (thread `main`, which names no test).
        let results_named = self.outcomes.iter().sum::<u64>() > 0;
        for panic in std::mem::take(&mut self.waiting_panics) {
            if stopped || self.pending_names.contains(&panic.name) {
                self.emit_failure(panic, out);
            } else if results_named && panic.name != "main" {
                self.emit_after_failures("panic", panic, out);
            }
        }
        // Tests marked FAILED with no report of their own still get an item.
        // (`emit_failure` skips those that had one.)
        for name in std::mem::take(&mut self.pending_names) {
            let failure = Failure::new(&name, self.binary_name(), self.options.lines);
            self.emit_failure(failure, out);
        }
        self.current_open = false;
        if stopped {
            let name = self
                .binary_name()
                .unwrap_or_else(|| format!("binary {}", self.binaries_seen));
            // An item of its own, with why it stopped when the output says.
            let crash = std::mem::take(&mut self.crash);
            let item = match stopped_in {
                Some(failure) => {
                    let message = failure.message().into_iter().chain(crash.iter().cloned());
                    let message = message.collect::<Vec<_>>().join("\n");
                    let mut item = failure.item(Some(message));
                    item.kind = "crashed";
                    item.binary = Some(name.clone());
                    for line in &crash {
                        item.detail.push('\n');
                        item.detail.push_str(line);
                    }
                    item
                }
                None => CargoItem {
                    kind: "crashed",
                    name: crash.iter().find_map(|line| crashed_test(line)),
                    binary: Some(name.clone()),
                    message: crash.first().cloned(),
                    detail: crash.join("\n"),
                    ..CargoItem::default()
                },
            };
            if self.first_crash.is_none() {
                self.first_crash = crash.first().map(|first| match &item.name {
                    Some(test) if !first.contains(test.as_str()) => {
                        format!("{first} (in {test})")
                    }
                    _ => first.clone(),
                });
            }
            let rank = self.ranker.rank(1, "crashed");
            if out.wants(rank) {
                out.emit(rank, item);
            } else {
                out.skip(rank);
            }
            if self.without_result.len() < MAX_BINARIES {
                self.without_result.push(name);
            }
            self.binaries_without_result += 1;
            for (sum, n) in self.outcomes_without_result.iter_mut().zip(self.outcomes) {
                *sum += n;
            }
        }
        self.outcomes = [0; 3];
        self.current_has_result = false;
        self.crash.clear();
    }

    fn result(&mut self, counts: Map<String, Value>, out: &mut dyn Emit<CargoItem>) {
        if !self.current_open {
            self.start_binary(None, out);
        }
        for (key, value) in &counts {
            let sum = self.totals.get(key).and_then(Value::as_u64).unwrap_or(0)
                + value.as_u64().unwrap_or(0);
            self.totals.insert(key.clone(), Value::from(sum));
        }
        self.any_result = true;
        self.current_has_result = true;
        if let Some(binary) = self.current.and_then(|i| self.binaries.get_mut(i)) {
            binary.result = Some(counts);
        }
        self.end_binary(out);
    }

    /// The panic printed as it happened (the failure read now) waits for its test's
    /// outcome.
    fn wait_for_outcome(&mut self) {
        let Some(failure) = self.failure.take() else {
            return;
        };
        if self.waiting_panics.len() == MAX_WAITING_PANICS {
            self.waiting_panics.pop_front();
        }
        self.waiting_panics.push_back(failure);
    }

    /// The panic of test `name` that waited for its outcome, no longer waiting.
    fn waited_panic(&mut self, name: &str) -> Option<Failure> {
        let at = self.waiting_panics.iter().position(|f| f.name == name)?;
        self.waiting_panics.remove(at)
    }

    /// The panic of test `name`, which failed, that waited for its outcome, if any. A
    /// doc-test runs as a process of its own, whose panic (printed before its result
    /// under `--nocapture`) names its thread `main`: a failed doc-test's is taken to be
    /// the first such panic waiting (`should_panic` doc-tests' let go at their `ok`;
    /// under `-q`, which prints none, or when doc-tests end in another order than they
    /// printed, it may be another's).
    fn take_waited_panic(&mut self, name: &str) -> Option<Failure> {
        self.waited_panic(name).or_else(|| {
            let mut panic = is_doctest(name).then(|| self.waited_panic("main"))??;
            panic.name = name.to_string();
            Some(panic)
        })
    }

    /// Why a doc-test failed, as it ended ([`CargoTest::doctest_causes`]).
    fn push_doctest_cause(&mut self, cause: &str) {
        if self.doctest_causes.len() == MAX_WAITING_PANICS {
            self.doctest_causes.pop_front();
        }
        self.doctest_causes.push_back(cause.to_string());
    }

    /// Test `name` failed (libtest's `... FAILED`, `-q`'s `--- FAILED`): its panic that
    /// waited, if any, is its report; with none, it gets an item at the binary's end
    /// (from the names marked FAILED).
    fn test_failed(&mut self, name: &str, out: &mut dyn Emit<CargoItem>) {
        // Each failed doc-test printed its cause: the first one waiting is this one's.
        // One whose cause is known panicked only if it exited as a panic does.
        let cause = match is_doctest(name) {
            true => self.doctest_causes.pop_front(),
            false => None,
        };
        let panicked = cause.as_deref().is_none_or(|c| c == PANICKED_VERDICT);
        let panic = match panicked {
            true => self.take_waited_panic(name),
            false => self.waited_panic(name),
        };
        if let Some(panic) = panic {
            self.emit_failure(panic, out);
        } else if let Some(cause) = cause {
            let mut failure = Failure::new(name, self.binary_name(), self.options.lines);
            failure.doctest_cause = Some(cause);
            self.emit_failure(failure, out);
        } else if let Some(error) = self.error_before.take() {
            let mut failure = Failure::new(name, self.binary_name(), self.options.lines);
            failure.message = vec![error];
            self.emit_failure(failure, out);
        }
        self.mark_failed(name);
    }

    /// Test `shown` (its name as libtest's progress shows it, with its mode) ended, and
    /// `failed`.
    fn test_ended(&mut self, shown: &str, failed: bool, out: &mut dyn Emit<CargoItem>) {
        let name = without_test_mode(shown);
        let should_panic = shown.ends_with(" - should panic");
        match failed {
            // A `should_panic` test fails when it did not panic as it was to: the panic it
            // printed (`--nocapture`) is no cause; its report in the list of failures says
            // what was expected (`note: panic did not contain expected string`).
            true if should_panic && !is_doctest(name) => {
                self.waited_panic(name);
                self.mark_failed(name);
            }
            true => self.test_failed(name, out),
            false => {
                self.waited_panic(name);
                // A `should_panic` doc-test's expected panic, printed under `--nocapture`
                // (rustdoc lets its process write to the terminal), is no other's report.
                if should_panic && is_doctest(name) {
                    self.waited_panic("main");
                }
            }
        }
    }

    /// Test `name` is marked FAILED in the binary running now (by its result or the list
    /// of failures): it gets an item at the binary's end if it had no report.
    fn mark_failed(&mut self, name: &str) {
        if !self.pending_names.iter().any(|n| n == name)
            && self.pending_names.len() < MAX_PENDING_NAMES
        {
            self.pending_names.push(name.to_string());
        }
    }

    fn close_failure(&mut self, out: &mut dyn Emit<CargoItem>) {
        let Some(failure) = self.failure.take() else {
            return;
        };
        if std::mem::take(&mut self.failure_retried) {
            let key = retried_key(failure.binary.as_deref(), &failure.name);
            if self.retried.len() < MAX_RETRIED || self.retried.contains_key(&key) {
                self.retried.insert(key, failure);
                return;
            }
        }
        self.emit_failure(failure, out);
    }

    /// `failure` as an item of `kind`, after the failures (not counted as one): a flaky
    /// test's failed attempt, a panic on a thread no test's result names (one a test
    /// started, `worker`: its test's result says whether the test failed, but it is
    /// often the cause of one).
    fn emit_after_failures(
        &mut self,
        kind: &'static str,
        failure: Failure,
        out: &mut dyn Emit<CargoItem>,
    ) {
        let rank = self.ranker.rank(2, kind);
        if !out.wants(rank) {
            out.skip(rank);
            return;
        }
        let message = failure.message();
        let mut item = failure.item(message);
        item.kind = kind;
        out.emit(rank, item);
    }

    /// A test's last attempt under `--retries` passed: the attempt that failed is
    /// reported as flaky, after the failures.
    fn flaky(&mut self, binary: Option<&str>, name: &str, out: &mut dyn Emit<CargoItem>) {
        let key = retried_key(binary, name);
        if let Some(failure) = self.retried.remove(&key) {
            remember(&mut self.reported, &format!("flaky\u{0}{key}"));
            self.emit_after_failures("flaky", failure, out);
        }
    }

    /// A line of the list nextest closes with, after its `Summary`: each test that failed
    /// or was flaky, again. One whose report is in the input was reported from it; one
    /// whose report was cut off above the list (`| tail -n 30`) is named from here.
    fn closing_list(
        &mut self,
        status: NextestLine<'_>,
        binary: Option<String>,
        name: &str,
        out: &mut dyn Emit<CargoItem>,
    ) {
        let held = self.retried.remove(&retried_key(binary.as_deref(), name));
        // A failure whose earlier attempt's report was read is reported from that.
        let from_list = held.is_none();
        match status.outcome {
            // Reported from its output, which named no binary (`--status-level=none`).
            Nextest::Failed if self.reported.contains(&self.failure_key(None, name)) => {}
            Nextest::Failed => {
                let failure = held.unwrap_or_else(|| {
                    let mut failure = Failure::new(name, binary, self.options.lines);
                    failure.cause = status.cause();
                    failure
                });
                let new = self.emit_failure(failure, out);
                self.named_only += u64::from(from_list && new);
            }
            Nextest::Passed if status.status == "FLAKY" => {
                let key = format!("flaky\u{0}{}", retried_key(binary.as_deref(), name));
                if remember(&mut self.reported, &key) {
                    let failure =
                        held.unwrap_or_else(|| Failure::new(name, binary, self.options.lines));
                    self.emit_after_failures("flaky", failure, out);
                }
            }
            _ => {}
        }
    }

    /// What tells a failure of test `name` in `binary` from the others reported. The same
    /// test name in another binary is another failure. nextest names each binary;
    /// libtest's own output may not, and its binaries are told apart by when they ran.
    fn failure_key(&self, binary: Option<&str>, name: &str) -> String {
        let run = match self.formats.iter().any(|format| format.contains("nextest")) {
            true => 0,
            false => self.binaries_seen,
        };
        format!("{run}\u{0}{}\u{0}{name}", binary.unwrap_or(""))
    }

    /// Reports `failure`; false when its test was reported before (and it is not again).
    fn emit_failure(&mut self, failure: Failure, out: &mut dyn Emit<CargoItem>) -> bool {
        let key = self.failure_key(failure.binary.as_deref(), &failure.name);
        if !remember(&mut self.reported, &key) {
            return false;
        }
        self.failures += 1;
        if self.failed_names.len() < MAX_NAMES {
            self.failed_names.push(failure.name.clone());
        }
        let message = failure.message();
        let rank = self.ranker.rank(1, &panic_kind(message.as_deref()));
        if !out.wants(rank) {
            // Past what fits: counted without writing out its excerpts.
            out.skip(rank);
            return true;
        }
        out.emit(rank, failure.item(message));
        true
    }

    fn close_diagnostic(&mut self, out: &mut dyn Emit<CargoItem>) {
        let Some(diagnostic) = self.diagnostic.take() else {
            return;
        };
        // The same diagnostic again, as an older cargo prints it for the library and for
        // its tests' build (`(lib)`, then `(lib test)`): one error to fix, told once.
        let detail = diagnostic.snippet.text();
        let key = hash_key(&(
            diagnostic.error,
            &diagnostic.code,
            &diagnostic.message,
            &diagnostic.location,
            &detail,
        ));
        if !remember(&mut self.rendered_seen, &key) {
            return;
        }
        let shape = message_shape(&diagnostic.message);
        let item = CargoItem {
            kind: if diagnostic.error { "error" } else { "warning" },
            code: diagnostic.code.clone().or(diagnostic.lint.clone()),
            message: Some(match diagnostic.cause.is_empty() {
                true => diagnostic.message.clone(),
                false => format!("{}:{}", diagnostic.message, diagnostic.cause),
            }),
            location: diagnostic.location.clone(),
            detail,
            ..CargoItem::default()
        };
        if diagnostic.error {
            let key = diagnostic.code.unwrap_or(shape);
            tally(&mut self.stats.errors_by_code, &key);
            let rank = self.ranker.rank(0, &key);
            out.emit(rank, item);
            return;
        }
        let lint = match diagnostic.lint {
            Some(lint) => {
                if self.lint_of_shape.len() < 10_000 {
                    self.lint_of_shape.insert(shape.clone(), lint.clone());
                }
                lint
            }
            None => self.lint_of_shape.get(&shape).cloned().unwrap_or(shape),
        };
        self.stats.warnings += 1;
        tally(&mut self.stats.warnings_by_lint, &lint);
        if self.options.warnings {
            let rank = self.ranker.rank(3, &lint);
            out.emit(rank, item);
        } else if self.held_warnings.len() < MAX_HELD_WARNINGS {
            self.held_warnings.push(item);
        }
    }

    fn json(&mut self, line: &str, out: &mut dyn Emit<CargoItem>) -> bool {
        let Ok(event) = serde_json::from_str::<JsonEvent>(line) else {
            if line.contains("\"type\"") && line.contains("\"event\"") {
                self.json_errors += 1;
            }
            return false;
        };
        self.format(if line.starts_with("{ ") {
            "libtest-json"
        } else {
            "libtest-json (nextest)"
        });
        match (event.kind.as_str(), event.event.as_str()) {
            ("suite", "started") => self.start_binary(event.test_count, out),
            ("test", "started") => {
                if let Some(name) = event.name.filter(|_| self.started.len() < MAX_RUNNING) {
                    self.started.push(name);
                }
            }
            ("suite", "ok" | "failed") => {
                let mut counts = Map::new();
                for key in ["passed", "failed", "ignored", "measured", "filtered_out"] {
                    if let Some(n) = event.rest.get(key).and_then(Value::as_u64) {
                        counts.insert(key.to_string(), Value::from(n));
                    }
                }
                self.result(counts, out);
            }
            // libtest's word that a test has run for over 60 seconds (it goes on), as
            // its text format's line is read.
            ("test", "timeout") => {
                let name = event.name.unwrap_or_default();
                self.crash_line(&format!("test {name} has been running for over 60 seconds"));
            }
            ("test", outcome) if outcome != "failed" => {
                self.started
                    .retain(|name| Some(name) != event.name.as_ref());
                match outcome {
                    "ok" => self.outcomes[TestOutcome::Passed as usize] += 1,
                    "ignored" => self.outcomes[TestOutcome::Ignored as usize] += 1,
                    _ => {}
                }
                // Passed: a panic it printed as it happened was expected (`should_panic`).
                let (_, name) = self.json_test_name(event.name.unwrap_or_default());
                self.waited_panic(&name);
            }
            ("test", _) => {
                self.outcomes[TestOutcome::Failed as usize] += 1;
                let full = event.name.unwrap_or_default();
                self.started.retain(|name| *name != full);
                let (binary, name) = self.json_test_name(full);
                // Its panic printed as it happened (`--nocapture`: no `stdout` in the
                // event) is its report.
                let mut failure = match self.take_waited_panic(&name) {
                    Some(panic) => Failure { binary, ..panic },
                    None => Failure::new(&name, binary, self.options.lines),
                };
                for line in event.stdout.as_deref().unwrap_or_default().lines() {
                    // Read as the text output's lines are, without colour codes
                    // (pretty_assertions' diff has them).
                    let stripped = briefly_core::strip_ansi(line, None);
                    let line = stripped.as_deref().unwrap_or(line);
                    failure.push(line, || briefly_severity::classify(line));
                }
                let note = event.message.as_deref().unwrap_or_default();
                for (i, line) in note.lines().enumerate() {
                    let line = match i {
                        0 => format!("note: {line}"),
                        _ => line.to_string(),
                    };
                    failure.push(&line, || None);
                }
                self.emit_failure(failure, out);
            }
            _ => {}
        }
        true
    }

    /// One line without ANSI codes, and what was found of it ahead.
    fn line(&mut self, raw: &str, facts: &LineFacts, out: &mut dyn Emit<CargoItem>) {
        let mut line = raw.trim_end();
        if matches!(self.mode, Mode::Normal | Mode::InlinePanic) {
            line = without_progress(line);
        }
        match self.mode {
            Mode::LibtestReport => {
                if let Some(blanks) = self.held_list.take() {
                    if line.is_empty() {
                        self.held_list = Some(blanks + 1);
                        return;
                    }
                    let listed = line
                        .strip_prefix("---- ")
                        .and_then(|r| r.strip_suffix(" stdout ----"))
                        .or_else(|| line.strip_prefix("    "));
                    if listed.is_some_and(|name| self.marked_failed(name)) {
                        // The run's list of failures (or their reports): read as such.
                        self.close_failure(out);
                        self.mode = Mode::Normal;
                        self.normal("failures:", out);
                        return self.line(raw, facts, out);
                    }
                    // A child run's list, the test's output.
                    if let Some(failure) = &mut self.failure {
                        failure.push("failures:", || None);
                        for _ in 0..blanks {
                            failure.push("", || None);
                        }
                    }
                }
                // A report ends at the next, or at the list of failures (or of successes,
                // under --show-output) before the binary's result: a `test result:` line
                // within is what the test printed, and so is a report's heading naming
                // no test marked FAILED, when the run named them. A `failures:` the test
                // printed (a test binary it ran as a child, its output printed) names no
                // such test on its next line that is not blank.
                let next = line.starts_with("---- ") && !self.printed_heading(line);
                let list = matches!(line, "failures:" | "successes:") && self.report_line_blank;
                self.report_line_blank = line.is_empty();
                if list && line == "failures:" && self.knows_failed_names() {
                    self.held_list = Some(0);
                    return;
                }
                if next || list {
                    self.close_failure(out);
                    self.mode = Mode::Normal;
                } else {
                    if let Some(failure) = &mut self.failure {
                        failure.push(line, || facts.severity);
                    }
                    return;
                }
            }
            Mode::NextestReport | Mode::NextestOldReport if is_old_nextest_header(line) => {
                self.mode = Mode::NextestOldReport;
                return;
            }
            Mode::NextestOldReport => {
                let trimmed = line.trim_start();
                let nextests = nextest_status(trimmed).is_some()
                    || trimmed.starts_with("Summary [")
                    || line.starts_with("------------");
                if !nextests {
                    if let Some(failure) = &mut self.failure {
                        if line.is_empty() {
                            failure.blank();
                        } else if !is_libtest_frame(line, &failure.name) {
                            failure.push(line, || facts.severity);
                        }
                    }
                    return;
                }
                self.close_failure(out);
                self.mode = Mode::Normal;
            }
            Mode::NextestReport => {
                let content = line.strip_prefix("    ");
                let header = is_nextest_output_header(line);
                if header && self.unannounced_output && line.trim_start().starts_with("stdout") {
                    self.close_failure(out);
                    self.failure = Some(Failure::new("", None, self.options.lines));
                    return;
                }
                if let (Some(failure), Some(content), true) =
                    (&mut self.failure, content, self.unannounced_output)
                {
                    if failure.name.is_empty() {
                        let libtests = content
                            .strip_prefix("test ")
                            .and_then(|rest| rest.strip_suffix(" ... FAILED"))
                            .map(without_test_mode);
                        if let Some(name) = libtests.or_else(|| panicking_thread(content)) {
                            failure.name = name.to_string();
                        }
                    }
                }
                if line.is_empty() || header || content.is_some_and(|c| nextest_status(c).is_none())
                {
                    if let (Some(failure), true) = (&mut self.failure, line.is_empty()) {
                        failure.blank();
                    }
                    if let (Some(failure), Some(content)) = (&mut self.failure, content) {
                        // The test binary's own frame around the output says nothing new:
                        // its list of failures names the test, indented (a value's
                        // Debug, indented too, is not the frame's).
                        let frame = content.starts_with("running ")
                            || content.starts_with("test ")
                            || content == "failures:"
                            || content.strip_prefix("    ") == Some(failure.name.as_str());
                        if !frame {
                            failure.push(content, || facts.indented_severity);
                        }
                    }
                    return;
                }
                self.close_failure(out);
                self.unannounced_output = false;
                self.mode = Mode::Normal;
            }
            Mode::NextestOutput => {
                match nextest_status(line.trim_start()) {
                    // Its failure, with what it printed: nextest's report of it (none
                    // under `--no-capture`) goes on with it.
                    Some(
                        status @ NextestLine {
                            outcome: Nextest::Failed,
                            ..
                        },
                    ) => {
                        self.failure_retried = status.retried;
                        if let Some(failure) = &mut self.failure {
                            failure.cause = status.cause();
                        }
                        self.mode = Mode::NextestReport;
                        return;
                    }
                    Some(_) => {
                        self.failure = None;
                        self.mode = Mode::Normal;
                    }
                    None => {
                        if let Some(failure) = &mut self.failure {
                            if !is_libtest_frame(line, &failure.name) {
                                failure.push(line, || facts.severity);
                            }
                        }
                        return;
                    }
                }
            }
            Mode::FailureList => {
                let name = line.strip_prefix("    ");
                if let Some(name) = name.filter(|n| !n.contains(' ') || is_doctest(n)) {
                    self.mark_failed(name);
                    return;
                }
                if !line.is_empty() {
                    self.mode = Mode::Normal;
                }
            }
            Mode::Diagnostic => {
                let trimmed = line.trim_start();
                if line.is_empty() || is_cargo_status(trimmed) || diagnostic_start(line).is_some() {
                    self.close_diagnostic(out);
                    self.mode = Mode::Normal;
                    if line.is_empty() {
                        return;
                    }
                } else {
                    if let Some(diagnostic) = &mut self.diagnostic {
                        if let Some(location) = trimmed.strip_prefix("--> ") {
                            diagnostic
                                .location
                                .get_or_insert_with(|| location.to_string());
                        }
                        if let Some(lint) = lint_note(trimmed) {
                            diagnostic.lint.get_or_insert(lint);
                        }
                        // A snippet is short and all of it matters, up to the cap.
                        diagnostic
                            .snippet
                            .push(line, !trimmed.is_empty() && trimmed != "|");
                    }
                    return;
                }
            }
            Mode::BuildScript => match self.diagnostic.as_mut() {
                Some(diagnostic) if line.is_empty() || line == "Caused by:" => {
                    // A blank line ends a panic's message.
                    diagnostic.reading_cause = false;
                    return;
                }
                Some(diagnostic) if line.starts_with("  ") => {
                    let trimmed = line.trim_start();
                    // The script's panic: where, and its message (the lines after it)
                    // said after cargo's words.
                    if let Some(at) = panic_location(trimmed) {
                        diagnostic.location.get_or_insert(at);
                        diagnostic.reading_cause = diagnostic.cause.is_empty();
                    } else if diagnostic.reading_cause
                        && !trimmed.starts_with("note: ")
                        && diagnostic.cause.len() < MAX_BUILD_SCRIPT_CAUSE
                    {
                        diagnostic.cause.push(' ');
                        diagnostic.cause.push_str(trimmed);
                    }
                    let decisive = trimmed.contains("panicked at")
                        || trimmed.starts_with("error")
                        || trimmed.contains("exit status");
                    diagnostic.snippet.push(trimmed, decisive);
                    return;
                }
                _ => {
                    self.close_diagnostic(out);
                    self.mode = Mode::Normal;
                }
            },
            // How the binary stopped, and cargo's words on it, are not the panic's: read
            // below, the panic's test kept as the one the binary stopped in.
            Mode::InlinePanic
                if is_crash_line(line.trim_start())
                    || line.starts_with("error: test failed")
                    || line == "Caused by:" => {}
            // Another test's panic: the one before it waits for its test's outcome.
            Mode::InlinePanic
                if panicking_thread(line).is_some_and(|name| {
                    self.failure
                        .as_ref()
                        .is_some_and(|failure| failure.name != name)
                }) =>
            {
                self.wait_for_outcome();
            }
            // `-q`'s count at a failure (and every 88 tests), printed between the panic's
            // lines (stdout beside stderr): not the panic's.
            Mode::InlinePanic if is_progress_count(line) => return,
            Mode::InlinePanic => {
                // A doc-test's panic (its process's thread `main`), on one thread: its
                // test was named before it, and its `FAILED` is that test's.
                let doctest_running = (self.running_test.as_deref())
                    .is_some_and(|test| is_doctest(without_test_mode(test)));
                // A `should_panic` test's panic, on one thread: no cause of its failure
                // (its report in the list of failures says what was expected).
                let should_panic = (self.running_test.as_deref())
                    .is_some_and(|test| test.ends_with(" - should panic"));
                if line == "FAILED" && (doctest_running || should_panic) {
                    self.wait_for_outcome();
                    self.mode = Mode::Normal;
                    self.normal(line, out);
                    return;
                }
                if line == "FAILED" {
                    // Its test is marked FAILED: its report's heading in the list after
                    // (`---- name stdout ----`) heads a report, not another's output.
                    if let Some(name) = self.failure.as_ref().map(|f| f.name.clone()) {
                        self.mark_failed(&name);
                    }
                    self.close_failure(out);
                    self.mode = Mode::Normal;
                    return;
                }
                let ends = line == "ok"
                    || (self.reads_json() && is_json_event(line))
                    || rustdoc_verdict(line).is_some()
                    || line.starts_with("test ")
                    || line == "failures:"
                    || line.starts_with("---- ")
                    || line.ends_with(QUIET_FAILED);
                if !ends {
                    if let Some(failure) = &mut self.failure {
                        failure.push(line, || facts.severity);
                    }
                    return;
                }
                // A bare `ok` ends a `should_panic` test's expected panic (one thread:
                // `test x - should panic ... ` came before it). Any other line (a result,
                // the list of failures): the panic waits for its test's outcome, which
                // this line may be (read below), or a later one, or none.
                if line == "ok" {
                    self.failure = None;
                } else {
                    self.wait_for_outcome();
                }
                self.mode = Mode::Normal;
            }
            Mode::Normal => {}
        }
        self.normal(line, out);
    }

    fn normal(&mut self, line: &str, out: &mut dyn Emit<CargoItem>) {
        // A test that returned `Err` has it printed, `Error: "…"`, right before its
        // `... FAILED` (under `--nocapture`; captured, in its report): for its item.
        let error = line.starts_with("Error: ").then(|| line.to_string());
        self.error_before = std::mem::replace(&mut self.error_line, error);
        // libtest's JSON event after a test's output that did not end its line
        // (`--nocapture`).
        let glued = || line.find(LIBTEST_JSON_START).filter(|&at| at > 0);
        if let Some(at) = glued().filter(|_| self.reads_json()) {
            if self.json(&line[at..], out) {
                return;
            }
        }
        if line.starts_with('{') {
            // `cargo test --message-format=json`: a diagnostic is read as rustc renders it.
            if let Some(rendered) = rendered_diagnostic(line) {
                // The same diagnostic of the library and of its tests' build, once, as
                // cargo's text output shows it.
                if !remember(&mut self.rendered_seen, &hash_key(&rendered)) {
                    return;
                }
                for line in rendered.lines() {
                    self.line(line, &LineFacts::of(line), out);
                }
                return;
            }
            if self.json(line, out) {
                return;
            }
        }
        // `cargo test -- --show-output`: what tests that passed printed, no failure.
        match line {
            "successes:" => self.in_successes = true,
            "failures:" => self.in_successes = false,
            _ if line.starts_with("test result: ") => self.in_successes = false,
            _ => {}
        }
        if let Some(name) = line
            .strip_prefix("---- ")
            .and_then(|r| r.strip_suffix(" stdout ----"))
            .filter(|_| !self.in_successes)
        {
            self.close_failure(out);
            self.failure = Some(Failure::new(name, self.binary_name(), self.options.lines));
            self.mode = Mode::LibtestReport;
            self.report_line_blank = false;
            return;
        }
        // A panic printed as it happened (`cargo test -- --nocapture`), named by its
        // thread, which is its test's.
        if let Some(name) = panicking_thread(line) {
            self.close_failure(out);
            let mut failure = Failure::new(name, self.binary_name(), self.options.lines);
            failure.push(line, || Some(Severity::Error));
            self.failure = Some(failure);
            self.mode = Mode::InlinePanic;
            return;
        }
        if line.starts_with("test result: ") {
            self.format("libtest");
            if let Some(counts) = libtest_counts(line) {
                self.result(counts, out);
            }
            return;
        }
        if let Some(rest) = line.strip_prefix("running ") {
            if let Some(n) = rest.strip_suffix(" tests").or(rest.strip_suffix(" test")) {
                if let Ok(n) = n.parse() {
                    self.format("libtest");
                    self.start_binary(Some(n), out);
                    return;
                }
            }
        }
        if line == "failures:" {
            self.mode = Mode::FailureList;
            return;
        }
        if let Some(rest) = line.strip_prefix("test ") {
            // Counted, for a binary that stops before its result.
            if let Some((_, after)) = rest.split_once(" ... ") {
                let outcome = [
                    ("ok", TestOutcome::Passed),
                    ("FAILED", TestOutcome::Failed),
                    ("ignored", TestOutcome::Ignored),
                ]
                .into_iter()
                .find(|(word, _)| after.starts_with(word));
                if let Some((_, outcome)) = outcome {
                    self.outcomes[outcome as usize] += 1;
                }
            }
            if let Some(shown) = rest.strip_suffix(" ... FAILED") {
                self.test_ended(shown, true, out);
                return;
            }
            if let Some(shown) = rest.strip_suffix(" ... ok") {
                self.test_ended(shown, false, out);
            }
            // On one thread libtest names a test before its outcome: one the output
            // stopped in (hung, killed) has none, or what was written after its name
            // instead (cargo's `error: test failed` when it aborted). On more, it names
            // those running long.
            let rest = rest.trim_end();
            self.running_test = match rest.split_once(" ... ") {
                Some((name, after)) if !is_outcome(after) => {
                    // A test that returned `Err` on one thread: `test t ... Error: "…"`,
                    // its `FAILED` on the next line.
                    if after.starts_with("Error: ") {
                        self.error_line = Some(after.to_string());
                    }
                    Some(name.to_string())
                }
                Some(_) => None,
                None => rest.strip_suffix(" ...").map(str::to_string),
            };
            if rest.ends_with(" has been running for over 60 seconds") {
                self.crash_line(line);
                return;
            }
            // What a doc-test printed as it ended, after its name (one thread,
            // `--nocapture`): rustdoc's verdict, and libtest's `FAILED` glued to it.
            if let Some((name, after)) = rest.split_once(" ... ") {
                if is_doctest(without_test_mode(name)) && rustdoc_verdict(after).is_some() {
                    self.normal(after, out);
                    return;
                }
            }
        }
        // Under `--nocapture`, doc-tests print why they failed as they end: rustdoc's
        // verdict (some without a newline: libtest's result follows on the same line;
        // a verdict-like line a unit test printed is let go with its binary), and for
        // one that does not compile, rustc's errors before it, as it is built while the
        // doc-tests run (no errors of the build).
        if let Some((verdict, rest)) = rustdoc_verdict(line) {
            if verdict == COULD_NOT_COMPILE && self.doctest_compiling {
                self.doctest_compiling = false;
            } else {
                self.push_doctest_cause(verdict);
            }
            if !rest.is_empty() {
                self.normal(rest, out);
            }
            return;
        }
        if let Some(name) = line.strip_suffix(QUIET_FAILED) {
            self.test_failed(name, out);
            return;
        }
        // On one thread, the outcome of the test named before what it printed.
        if line == "FAILED" || line == "ok" {
            if let Some(shown) = self.running_test.take() {
                let failed = line == "FAILED";
                let outcome = match failed {
                    true => TestOutcome::Failed,
                    false => TestOutcome::Passed,
                };
                self.outcomes[outcome as usize] += 1;
                self.test_ended(&shown, failed, out);
            }
            return;
        }
        // (`-q` names no binary: one of them may be the doc-tests.)
        let doctests_running = self.current_open
            && (self.current_label.as_deref())
                .is_some_and(|l| l.starts_with("Doc-tests ") || l.starts_with("binary "));
        // rustc's last word on a doc-test's errors is no note on the run.
        if doctests_running && self.doctest_compiling && line.starts_with("error: aborting due to")
        {
            return;
        }
        if let Some((true, _, _)) = diagnostic_start(line).filter(|_| doctests_running) {
            if !self.doctest_compiling {
                self.push_doctest_cause(line);
                self.doctest_compiling = true;
            }
            return;
        }
        if let Some(package) = line.strip_prefix("error: failed to run custom build command for ") {
            self.close_diagnostic(out);
            let message = format!("failed to run custom build command for {package}");
            self.diagnostic = Some(Diagnostic::new(true, None, message, self.options.lines));
            self.mode = Mode::BuildScript;
            return;
        }
        // A test binary cargo ran (or rustdoc, for the doc-tests) that stopped before it
        // named its tests: what it wrote (libtest's `error: the option `Z` is only
        // accepted on the nightly compiler`, an unknown flag) is its own error, not the
        // build's. (A doc-test's compile errors come in its report, after.)
        if self.next_binary.is_some() && matches!(diagnostic_start(line), Some((true, None, _))) {
            self.start_binary(None, out);
            self.crash_line(line);
            return;
        }
        if let Some((error, code, message)) = diagnostic_start(line) {
            self.close_diagnostic(out);
            self.format("rustc");
            self.diagnostic = Some(Diagnostic::new(error, code, message, self.options.lines));
            self.mode = Mode::Diagnostic;
            return;
        }
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix("Running ") {
            self.next_binary = Some(binary_label(rest));
            return;
        }
        if let Some(rest) = trimmed.strip_prefix("Doc-tests ") {
            self.next_binary = Some(format!("Doc-tests {rest}"));
            return;
        }
        // A failed test's output with no status line before it (`--status-level=none`).
        if is_nextest_output_header(line) && !self.nextest_done {
            self.format("nextest");
            self.close_failure(out);
            self.failure = Some(Failure::new("", None, self.options.lines));
            self.unannounced_output = true;
            self.mode = Mode::NextestReport;
            return;
        }
        if let Some(status) = nextest_status(trimmed) {
            let NextestLine { name, retried, .. } = status;
            self.format("nextest");
            let (binary, name) = match name.split_once(' ') {
                Some((binary, name)) => (Some(binary.to_string()), name),
                None => (None, name),
            };
            if self.nextest_done {
                self.closing_list(status, binary, name, out);
                return;
            }
            self.close_failure(out);
            match status.outcome {
                // Under `--no-capture` the test's output follows its `START`.
                Nextest::Start => {
                    self.failure = Some(Failure::new(name, binary, self.options.lines));
                    self.mode = Mode::NextestOutput;
                }
                Nextest::Passed => self.flaky(binary.as_deref(), name, out),
                Nextest::Noted => {}
                Nextest::Failed => {
                    // Its last attempt failed: the attempts before it are this failure.
                    self.retried.remove(&retried_key(binary.as_deref(), name));
                    let mut failure = Failure::new(name, binary, self.options.lines);
                    failure.cause = status.cause();
                    self.failure = Some(failure);
                    self.failure_retried = retried;
                    self.mode = Mode::NextestReport;
                }
            }
            return;
        }
        if let Some(rest) = trimmed.strip_prefix("Summary [") {
            self.format("nextest");
            if let Some(summary) = rest.split_once("] ").and_then(|(_, s)| nextest_counts(s)) {
                self.nextest_summary = Some(summary);
                self.nextest_done = true;
            }
            return;
        }
        // Why a test binary stopped short of its result: its runtime's last words, a
        // thread's overflowed stack, cargo's account of the signal.
        if is_crash_line(trimmed) && self.current_open {
            self.crash_line(trimmed);
            return;
        }
        if let Some(error) = line.strip_prefix("error: ") {
            self.cargo_verdict(error);
        }
        if (line.starts_with("error: ") || line.starts_with("warning: "))
            && self.stats.notes.len() < 20
        {
            self.stats
                .notes
                .push(briefly_core::cut_str(line, 300).into_owned());
        }
    }
}

/// nextest's heading of a block of a test's output: `  stdout ───`, `  stderr ───`,
/// `  output ───` (both, interleaved), or with the block's kind after the rule.
fn is_nextest_output_header(line: &str) -> bool {
    let trimmed = line.trim_start();
    matches!(
        trimmed.trim_end(),
        "stdout ───" | "stderr ───" | "output ───"
    ) || trimmed.starts_with("stdout ─")
        || trimmed.starts_with("stderr ─")
}

/// An older nextest's heading of a failed test's output: `--- STDOUT:     binary name ---`
/// (and `STDERR`), under `--retries` with its attempt: `--- TRY 1 STDOUT:  binary name ---`.
fn is_old_nextest_header(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("--- ") else {
        return false;
    };
    let rest = match rest.strip_prefix("TRY ") {
        Some(attempt) => attempt
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim_start(),
        None => rest,
    };
    (rest.starts_with("STDOUT:") || rest.starts_with("STDERR:")) && line.ends_with(" ---")
}

/// Whether `line`, printed while the test `name` ran alone under libtest (nextest's
/// `--no-capture`), is libtest's frame around its output: `running 1 test`, its result
/// line, the list of failures naming it, the closing counts, blank lines.
fn is_libtest_frame(line: &str, name: &str) -> bool {
    line.is_empty()
        || line == "failures:"
        || line.starts_with("test result: ")
        || line
            .strip_prefix("running ")
            .is_some_and(|rest| rest.ends_with(" test") || rest.ends_with(" tests"))
        || line
            .strip_prefix("test ")
            .and_then(|rest| rest.strip_prefix(name))
            .is_some_and(|rest| rest.starts_with(" ... "))
        || line.strip_prefix("    ") == Some(name)
}

/// What a nextest status line says of its test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Nextest {
    /// `START`: it runs now (printed under `--no-capture`, where its output follows).
    Start,
    /// It passed (`PASS`, `FLAKY`, `LEAK`): under `--retries`, after an attempt failed.
    Passed,
    /// A notice that is no result (`SKIP`, `SLOW`, `RETRY 2/3`).
    Noted,
    /// It failed (`FAIL`, `TIMEOUT`, a signal).
    Failed,
}

/// The signals a test may die of, by the names nextest gives them (`SIGSEGV`; under
/// `--retries`, `TRY 2 SEGV`).
const SIGNALS: [&str; 15] = [
    "SIGSEGV", "SIGABRT", "SIGBUS", "SIGKILL", "SIGILL", "SIGFPE", "SIGTERM", "SIGTRAP", "SIGPIPE",
    "SIGSYS", "SIGQUIT", "SIGHUP", "SIGINT", "SIGXCPU", "SIGXFSZ",
];

/// A nextest status line: `FAIL [   0.047s] ( 19/200) demo tests::case_017`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct NextestLine<'a> {
    outcome: Nextest,
    /// Its status word: `FAIL`, `TIMEOUT`, `SIGSEGV`, … (`TRY 2 FAIL`'s is `FAIL`).
    status: &'a str,
    /// How long the test ran, as nextest wrote it: `0.047s`.
    time: &'a str,
    /// The binary and the test: `demo tests::case_017`.
    name: &'a str,
    /// An attempt nextest may retry (`TRY 1 FAIL`), not counted yet.
    retried: bool,
}

impl NextestLine<'_> {
    /// How a failed test ended, when its status says more than that it failed.
    fn cause(&self) -> Option<String> {
        let time = self.time;
        match self.status {
            "TIMEOUT" | "TMT" => Some(format!("timed out after {time} (nextest's TIMEOUT)")),
            "LEAK-FAIL" | "LKFAIL" => {
                Some("leaked handles: a failure under nextest's leak policy (LEAK-FAIL)".into())
            }
            "ABORT" => Some(format!("aborted after {time} (nextest's ABORT)")),
            signal if signal.starts_with("SIG") => Some(format!("killed by {signal} after {time}")),
            _ => None,
        }
    }
}

/// `FAIL [   0.047s] ( 19/200) demo tests::case_017` → `Failed`, `"demo tests::case_017"`;
/// `PASS [...] …` → `Passed`; `START [         ] (2/3) demo t` → `Start`, `"demo t"`.
/// Under `--retries`, an attempt's status says which (`TRY 2 FAIL`), and a retry's start
/// how many there are (`RETRY 2/3`).
fn nextest_status(line: &str) -> Option<NextestLine<'_>> {
    let (status, rest) = line.split_once(" [")?;
    let status = status.trim();
    let attempt = status.strip_prefix("TRY ");
    let status = match attempt {
        Some(attempt) => attempt.split_once(' ')?.1,
        None => status,
    };
    // `RETRY 2/3`, and `FLAKY 2/2` in the list that closes a run.
    let status = match status.split_once(' ') {
        Some((word @ ("RETRY" | "FLAKY"), _)) => word,
        _ => status,
    };
    // A signal's name: `SIGSEGV`, and under `TRY n` without its `SIG`, `SEGV`.
    let signal = SIGNALS.iter().find(|name| {
        **name == status || (attempt.is_some() && name.strip_prefix("SIG") == Some(status))
    });
    let (outcome, status) = match (status, signal) {
        (_, Some(signal)) => (Nextest::Failed, *signal),
        ("START", _) => (Nextest::Start, status),
        ("PASS" | "FLAKY" | "LEAK", _) => (Nextest::Passed, status),
        ("SKIP" | "SLOW" | "RETRY", _) => (Nextest::Noted, status),
        // (`FAIL + LEAK`: it failed, and leaked handles too.)
        ("FAIL" | "FAIL + LEAK" | "TIMEOUT" | "TMT" | "LEAK-FAIL" | "LKFAIL" | "ABORT", _) => {
            (Nextest::Failed, status)
        }
        _ => return None,
    };
    let (time, after) = rest.split_once("] ")?;
    // An attempt to be retried is not counted yet: `(───)`, not `(2/3)`. Without the
    // counter (nextest's docs, older versions) any attempt may be retried: held until a
    // later attempt or the end of the run says.
    let (name, retried) = match after.strip_prefix('(') {
        Some(counted) => {
            let (count, name) = counted.split_once(") ")?;
            (
                name,
                !count.trim_start().starts_with(|c: char| c.is_ascii_digit()),
            )
        }
        None => (after, attempt.is_some()),
    };
    Some(NextestLine {
        outcome,
        status,
        time: time.trim(),
        name: name.trim(),
        retried,
    })
}

/// The text rustc rendered for a diagnostic in cargo's JSON messages
/// (`{"reason":"compiler-message","message":{"rendered":"error[E0308]: …"}}`).
fn rendered_diagnostic(line: &str) -> Option<String> {
    #[derive(Deserialize)]
    struct Message {
        reason: String,
        message: Option<Diagnostic>,
    }
    #[derive(Deserialize)]
    struct Diagnostic {
        rendered: Option<String>,
    }
    if !line.contains("\"compiler-message\"") {
        return None;
    }
    let message: Message = serde_json::from_str(line).ok()?;
    (message.reason == "compiler-message").then_some(message.message?.rendered?)
}

/// The runtime's last words after a panic it could not unwind (one in a destructor while
/// unwinding, or in a function that cannot unwind): it aborts the binary.
const NON_UNWINDING: &str = "thread caused non-unwinding panic. aborting.";

/// The thread a panic's first line names (`thread 'tests::x' (12) panicked at …`):
/// libtest names a test's thread after the test.
fn panicking_thread(line: &str) -> Option<&str> {
    let (name, rest) = line.strip_prefix("thread '")?.split_once('\'')?;
    rest.contains(" panicked at ").then_some(name)
}

/// How libtest's JSON events start (nextest's libtest-json has no spaces).
const LIBTEST_JSON_START: &str = "{ \"type\": ";

/// rustdoc's word that a doc-test did not compile.
const COULD_NOT_COMPILE: &str = "Couldn't compile the test.";

/// rustdoc's word on a doc-test that panicked (a panic's exit code), its stderr after.
const PANICKED_VERDICT: &str = "Test executable failed (exit status: 101).";

/// How rustdoc's verdicts on a failed doc-test start: it did not compile, it compiled
/// but was to fail to, its errors were not the expected ones, it could not run, it
/// exited with an error (`Test executable failed (exit status: 3).`; a panic's comes
/// before its stderr), or it was to panic and did not.
const RUSTDOC_VERDICTS: [&str; 6] = [
    COULD_NOT_COMPILE,
    "Test compiled successfully, but it's marked `compile_fail`.",
    "Some expected error codes were not found: ",
    "Couldn't run the test: ",
    "Test executable failed (",
    "Test executable succeeded, but it's marked `should_panic`.",
];

/// A line that starts with rustdoc's verdict on a doc-test ([`RUSTDOC_VERDICTS`]): the
/// verdict, and what follows it on the line when rustdoc wrote no newline: libtest's
/// result (`test NAME ... FAILED`), or another doc-test's verdict.
fn rustdoc_verdict(line: &str) -> Option<(&str, &str)> {
    let verdict = RUSTDOC_VERDICTS.iter().find(|v| line.starts_with(**v))?;
    let start = verdict.len();
    // Where the verdict itself ends: a fixed one's end, an exit status's `).`, the codes'
    // `]`; libtest's word on the test may follow at once (`FAILED` on one thread, `-q`'s
    // `NAME --- FAILED`).
    let own_end = match *verdict {
        "Test executable failed (" => line.find(").").map(|at| at + 2),
        "Some expected error codes were not found: " => {
            line[start..].find(']').map(|at| start + at + 1)
        }
        "Couldn't run the test: " => None,
        fixed => Some(fixed.len()),
    };
    if let Some(end) = own_end {
        return Some((&line[..end], &line[end..]));
    }
    // (Found once: a line may be long.)
    let result_dots = line.rfind(" ... ");
    let next = |at: usize| {
        let rest = &line[at..];
        (rest.starts_with("test ") && result_dots.is_some_and(|dots| dots > at))
            || RUSTDOC_VERDICTS.iter().any(|v| rest.starts_with(v))
    };
    let end = (start..line.len())
        .filter(|&at| line.is_char_boundary(at))
        .find(|&at| next(at))
        .unwrap_or(line.len());
    Some((&line[..end], &line[end..]))
}

/// Whether `formats` (as read) hold libtest's JSON, its own or nextest's.
fn has_json(formats: &[&str]) -> bool {
    formats.iter().any(|f| f.starts_with("libtest-json"))
}

/// Whether `line` holds an event of libtest's JSON format (`-Z unstable-options
/// --format json`), maybe after a test's output that did not end its line, or of
/// nextest's.
fn is_json_event(line: &str) -> bool {
    (line.starts_with("{\"type\":") || line.contains(LIBTEST_JSON_START))
        && line.contains("\"event\"")
}

/// `cargo test -q`'s progress characters: one per result (passed, failed, ignored).
const QUIET_PROGRESS: [char; 3] = ['.', 'F', 'i'];

/// `line` without the progress characters of `cargo test -q` (`.`, `F`, `i`: one per
/// result, on stdout) written before it on the same line, when what follows them is a
/// panic's line (on stderr: a panic printed as it happened, under `--nocapture`) or
/// rustdoc's verdict on a doc-test.
fn without_progress(line: &str) -> &str {
    let rest = line.trim_start_matches(QUIET_PROGRESS);
    let panics = rest.len() < line.len()
        && (panicking_thread(rest).is_some()
            || rest == "stack backtrace:"
            || rest.starts_with("note: ")
            || is_crash_line(rest)
            || rustdoc_verdict(rest).is_some());
    if panics {
        rest
    } else {
        line
    }
}

/// `cargo test -q`'s count of tests run (` 6/7`), ending a line at a failure and
/// every 88 results (after the line's dots, when a panic's lines came before them).
fn is_progress_count(line: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    line.trim_start_matches(QUIET_PROGRESS)
        .strip_prefix(' ')
        .and_then(|count| count.split_once('/'))
        .is_some_and(|(done, total)| digits(done) && digits(total))
}

/// Why a test binary stopped short of its result, in its runtime's last words (a
/// thread's overflowed stack, a panic that could not unwind) or in cargo's account of
/// the signal.
fn is_crash_line(trimmed: &str) -> bool {
    trimmed.starts_with("fatal runtime error: ")
        || (trimmed.starts_with("thread '") && trimmed.ends_with("has overflowed its stack"))
        || trimmed == NON_UNWINDING
        || trimmed.starts_with("process didn't exit successfully: ")
}

/// The test a crash line names: the thread whose stack overflowed (libtest names a
/// test's thread after it), or the test running when the output stopped.
fn crashed_test(line: &str) -> Option<String> {
    let name = match line.strip_prefix("thread '") {
        Some(rest) if line.ends_with("has overflowed its stack") => rest.split_once('\'')?.0,
        _ => line
            .strip_prefix("test ")?
            .strip_suffix(" ... (no outcome: it was running when the output stopped)")?,
    };
    // `main`, and a thread the test spawned without a name (`<unknown>`, `<unnamed>`
    // before Rust 1.89), name no test.
    (name != "main" && !name.is_empty() && !name.starts_with('<')).then(|| name.to_string())
}

/// Whether `after`, what follows `test name ... ` on libtest's line, is its outcome.
fn is_outcome(after: &str) -> bool {
    ["ok", "FAILED", "ignored", "bench:"]
        .iter()
        .any(|outcome| after.starts_with(outcome))
}

/// Whether `name` is a doc-test's (`src/lib.rs - add (line 3)`).
fn is_doctest(name: &str) -> bool {
    doctest_place(name).is_some()
}

/// `src/lib.rs - add (line 3)`, a doc-test's name → `src/lib.rs:3`, where it is.
fn doctest_place(name: &str) -> Option<String> {
    let (item, line) = name.strip_suffix(')')?.rsplit_once(" (line ")?;
    let (file, _) = item.split_once(" - ")?;
    line.parse::<u64>()
        .ok()
        .map(|line| format!("{file}:{line}"))
}

/// Tests started and not ended that libtest's JSON is followed for.
const MAX_RUNNING: usize = 256;

/// Attempts held while their test may yet pass.
const MAX_RETRIED: usize = 256;

/// A short key for `value` in a set of what was seen: its hash, in hex.
fn hash_key(value: &impl std::hash::Hash) -> String {
    use std::hash::Hasher;
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    value.hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

/// A retried test's key: its binary and name.
fn retried_key(binary: Option<&str>, name: &str) -> String {
    format!("{}\u{0}{name}", binary.unwrap_or(""))
}

/// `200 tests run: 197 passed, 3 failed, 0 skipped` (and `19/200 tests run: …`).
fn nextest_counts(text: &str) -> Option<Map<String, Value>> {
    let (run, rest) = text
        .split_once(" tests run: ")
        .or(text.split_once(" test run: "))?;
    let mut counts = Map::new();
    match run.split_once('/') {
        Some((ran, of)) => {
            counts.insert("run".into(), Value::from(ran.trim().parse::<u64>().ok()?));
            counts.insert("of".into(), Value::from(of.trim().parse::<u64>().ok()?));
        }
        None => {
            counts.insert("run".into(), Value::from(run.trim().parse::<u64>().ok()?));
        }
    }
    // `2 passed (1 flaky)`: the flaky are among the passed, counted apart too.
    let parts = rest
        .split(", ")
        .flat_map(|part| part.split(" ("))
        .map(|part| part.trim().trim_start_matches('(').trim_end_matches(')'));
    for part in parts {
        let Some((n, word)) = part.split_once(' ') else {
            continue;
        };
        if let Ok(n) = n.parse::<u64>() {
            counts.insert(word.replace(' ', "_"), Value::from(n));
        }
    }
    Some(counts)
}

/// `test result: FAILED. 197 passed; 3 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.26s`.
fn libtest_counts(line: &str) -> Option<Map<String, Value>> {
    let (_, rest) = line.split_once(". ")?;
    let mut counts = Map::new();
    for part in rest.split("; ") {
        let Some((n, word)) = part.trim().split_once(' ') else {
            continue;
        };
        if let Ok(n) = n.parse::<u64>() {
            counts.insert(word.replace(' ', "_"), Value::from(n));
        }
    }
    counts.contains_key("passed").then_some(counts)
}

/// `unittests src/lib.rs (target/debug/deps/demo-8348ca7a80742723)` → `demo: unittests src/lib.rs`.
fn binary_label(running: &str) -> String {
    match running.rsplit_once(" (") {
        Some((what, path)) => {
            let file = path
                .trim_end_matches(')')
                .rsplit('/')
                .next()
                .unwrap_or(path);
            let krate = file.rsplit_once('-').map_or(file, |(name, _)| name);
            format!("{krate}: {what}")
        }
        None => running.to_string(),
    }
}

/// `= note: `#[warn(dead_code)]` on by default` → `dead_code`.
fn lint_note(line: &str) -> Option<String> {
    let rest = line.strip_prefix("= note: `#[")?;
    let (_, rest) = rest.split_once('(')?;
    let (lint, _) = rest.split_once(')')?;
    Some(lint.to_string())
}

fn is_cargo_status(trimmed: &str) -> bool {
    [
        "Compiling ",
        "Checking ",
        "Finished ",
        "Running ",
        "Doc-tests ",
        "Fresh ",
        "Blocking ",
        "Downloaded ",
        "Locking ",
        "Updating ",
        "Documenting ",
        "Executable ",
        "Starting ",
        "Summary [",
        "Nextest run ID",
    ]
    .iter()
    .any(|status| trimmed.starts_with(status))
}

impl FoldBatches for CargoTest {
    type Prepare = Facts;
    type Item = CargoItem;
    type Stats = CargoStats;

    fn ahead(&self) -> &Ahead<Facts> {
        &self.ahead
    }

    fn ahead_mut(&mut self) -> &mut Ahead<Facts> {
        &mut self.ahead
    }

    /// A batch of lines whose facts are ready, in order.
    fn fold(&mut self, batch: &mut Batch<LineFacts>, out: &mut dyn Emit<CargoItem>) {
        for i in 0..batch.len() {
            let facts = batch.output(i);
            self.line(facts.text(batch.record(i).text), facts, out);
        }
    }

    fn outcome(&mut self, out: &mut dyn Emit<CargoItem>) -> Outcome<CargoStats> {
        self.close_diagnostic(out);
        match self.mode {
            Mode::LibtestReport | Mode::NextestReport | Mode::NextestOldReport => {
                self.close_failure(out)
            }
            // A test still running where the output ends (killed, cut short) failed if it
            // panicked, and is not known to have failed if not.
            Mode::NextestOutput if self.failure.as_ref().is_some_and(|f| !f.in_panic) => {
                self.failure = None
            }
            _ => {}
        }
        // Attempts whose retry never came to an end (the run was stopped): they failed.
        let mut retried: Vec<Failure> = std::mem::take(&mut self.retried).into_values().collect();
        retried.sort_by(|a, b| a.name.cmp(&b.name));
        for failure in retried {
            self.emit_failure(failure, out);
        }
        self.end_binary(out);
        let mut stats = std::mem::take(&mut self.stats);
        stats.formats = std::mem::take(&mut self.formats);
        stats.binaries = std::mem::take(&mut self.binaries);
        stats.failed = std::mem::take(&mut self.failed_names);
        let errors: u64 = stats.errors_by_code.values().sum();
        let failures = self.failures;
        stats.names_left_out = failures.saturating_sub(stats.failed.len() as u64);
        if errors == 0 && failures == 0 && !self.options.warnings {
            for item in std::mem::take(&mut self.held_warnings) {
                let rank = self
                    .ranker
                    .rank(3, item.code.as_deref().unwrap_or_default());
                out.emit(rank, item);
            }
        }
        let mut parts = Vec::new();
        if errors > 0 {
            let codes: Vec<String> = by_count(&stats.errors_by_code)
                .iter()
                .take(5)
                .map(|(code, n)| format!("{n} {code}"))
                .collect();
            parts.push(format!(
                "build failed: {errors} error{} ({})",
                if errors == 1 { "" } else { "s" },
                codes.join(", ")
            ));
        }
        let mut counts_known = false;
        if let Some(summary) = self.nextest_summary.take() {
            let n = |k: &str| summary.get(k).and_then(Value::as_u64).unwrap_or(0);
            let run = match summary.get("of") {
                Some(of) => format!("{}/{of}", n("run")),
                None => n("run").to_string(),
            };
            // The flaky are among the passed, as nextest says: `4 passed (1 flaky)`.
            let flaky = match n("flaky") {
                0 => String::new(),
                flaky => format!(" ({flaky} flaky)"),
            };
            let mut text = format!(
                "{run} tests run: {} passed{flaky}; {} failed",
                n("passed"),
                n("failed")
            );
            for (key, value) in &summary {
                if !matches!(key.as_str(), "run" | "of" | "passed" | "failed" | "flaky") {
                    text.push_str(&format!("; {value} {}", key.replace('_', " ")));
                }
            }
            parts.push(text);
            counts_known = true;
            stats.totals = Some(summary);
        } else if self.any_result {
            let n = |k: &str| self.totals.get(k).and_then(Value::as_u64).unwrap_or(0);
            // A binary that stopped short of its result: the outcomes libtest printed
            // before, counted in, so that the totals do not read as all clear.
            let [passed, failed, ignored] = self.outcomes_without_result;
            let at_least = match self.binaries_without_result {
                0 => "",
                _ => "at least ",
            };
            let mut text = format!(
                "{at_least}{} passed; {} failed; {} ignored",
                n("passed") + passed,
                n("failed") + failed,
                n("ignored") + ignored
            );
            for key in ["measured", "filtered_out"] {
                if n(key) > 0 {
                    text.push_str(&format!("; {} {}", n(key), key.replace('_', " ")));
                }
            }
            let binaries = stats.binaries.len();
            text.push_str(&format!(
                " across {binaries} test binar{}",
                if binaries == 1 { "y" } else { "ies" }
            ));
            parts.push(text);
            counts_known = self.binaries_without_result == 0;
            for (key, n) in [("passed", passed), ("failed", failed), ("ignored", ignored)] {
                let sum = n + self.totals.get(key).and_then(Value::as_u64).unwrap_or(0);
                self.totals.insert(key.to_string(), sum.into());
            }
            stats.totals = Some(std::mem::take(&mut self.totals));
        } else if errors == 0 && stats.formats.is_empty() && stats.warnings == 0 {
            // Nothing recognized at all: most often `briefly run` given only stdout.
            parts.push(
                "no test results in the input: counts unknown (cargo prints compile errors, \
                 and nextest its whole report, on stderr: give both, e.g. 2>&1)"
                    .into(),
            );
        } else if errors == 0 && self.outcomes_without_result == [0; 3] {
            parts.push("no test results in the input: counts unknown".into());
        } else if errors == 0 {
            parts.push(if has_json(&stats.formats) {
                "no suite result (libtest's JSON) in the input".into()
            } else {
                "no `test result:` line in the input".into()
            });
        } else {
            parts.push("no test results: counts unknown".into());
        }
        if self.binaries_without_result > 0 {
            let n = self.binaries_without_result;
            let shown: Vec<&str> = self
                .without_result
                .iter()
                .take(5)
                .map(String::as_str)
                .collect();
            parts.push(format!(
                "totals incomplete: {n} binar{} printed no result (crashed or cut off): {}",
                if n == 1 { "y" } else { "ies" },
                shown.join(", ")
            ));
            let [passed, failed, ignored] = self.outcomes_without_result;
            if passed + failed + ignored > 0 && !self.any_result {
                parts.push(format!(
                    "before it stopped, libtest printed {passed} passed, {failed} failed, \
                     {ignored} ignored"
                ));
            }
            if let Some(crash) = &self.first_crash {
                parts.push(format!("it stopped: {crash}"));
            }
        }
        if let Some(target) = self.stopped_after.take() {
            parts.push(format!(
                "cargo stopped at the failing {target} (without --no-fail-fast it stops at the \
                 first test binary that fails): any binaries after it did not run"
            ));
            stats.stopped_after = Some(target);
        }
        // cargo's closing list names more failed targets than the input has reports of:
        // it was cut above them.
        let failing = (stats.binaries.iter())
            .filter(|binary| {
                (binary.result.as_ref())
                    .is_none_or(|result| result.get("failed").and_then(Value::as_u64) != Some(0))
            })
            .count() as u64;
        match self.targets_failed {
            Some(n) if n > failing && self.binaries_seen as usize <= MAX_BINARIES => {
                counts_known = false;
                parts.push(format!(
                    "totals incomplete: cargo says {n} targets failed, the input holds the \
                     reports of {failing} (cut, as by `tail`?)"
                ));
            }
            _ => {}
        }
        if self.no_tests_to_run {
            parts.push(
                "no tests to run: the filter matched none (nextest exits 4 then; \
                 --no-tests=pass makes it a pass)"
                    .into(),
            );
        }
        if failures > 0 {
            let names: Vec<&str> = stats.failed.iter().take(5).map(String::as_str).collect();
            let more = failures.saturating_sub(5);
            parts.push(format!(
                "failed: {}{}",
                names.join(", "),
                if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                }
            ));
        }
        if stats.warnings > 0 {
            let lints: Vec<String> = by_count(&stats.warnings_by_lint)
                .iter()
                .take(3)
                .map(|(lint, n)| format!("{n} {lint}"))
                .collect();
            parts.push(format!(
                "{} warning{} ({})",
                stats.warnings,
                if stats.warnings == 1 { "" } else { "s" },
                lints.join(", ")
            ));
        }
        stats.counts_known = counts_known;
        let failed_total = stats
            .totals
            .as_ref()
            .and_then(|t| t.get("failed"))
            .and_then(Value::as_u64)
            .unwrap_or(0);
        // What framing altered (cut lines, invalid UTF-8), as the stage would say it.
        let mut warnings = self.ahead.alterations().warnings();
        if self.json_errors > 0 {
            warnings.push(format!(
                "{} JSON event lines could not be read (cut or malformed); see the artifact",
                self.json_errors
            ));
        }
        if self.named_only > 0 {
            warnings.push(format!(
                "{} named only by nextest's closing list, without a report: the input starts after {} (cut, as by `tail`?)",
                briefly_core::counted(self.named_only, "failure is", "failures are"),
                if self.named_only == 1 { "it" } else { "them" }
            ));
        }
        let ok = counts_known
            && errors == 0
            && failures == 0
            && failed_total == 0
            && !self.no_tests_to_run;
        let mut outcome = Outcome::new(parts.join("; "), stats);
        outcome.ok = ok;
        outcome.warnings = warnings;
        outcome.cut_next_item = true;
        outcome
    }
}

/// A test's name as libtest's progress line shows it, without the mode it appends
/// (`tests::sp - should panic`, a doc test's `… (line 5) - compile fail`): the name its
/// list of failures and its report give.
fn without_test_mode(shown: &str) -> &str {
    [" - should panic", " - compile fail", " - compile"]
        .iter()
        .find_map(|mode| shown.strip_suffix(mode))
        .unwrap_or(shown)
}

#[cfg(test)]
mod tests {
    use super::{
        first_difference, message_excerpt, nextest_status, without_test_mode, Nextest,
        MESSAGE_HEAD, MESSAGE_RARE,
    };

    #[test]
    fn a_long_panic_message_says_its_first_lines_and_the_lines_unlike_the_others() {
        let mut lines = vec!["validation failed:".to_string()];
        lines.extend((0..40).map(|i| format!("  field `f{i}`: ok")));
        lines.insert(
            25,
            "  field `port`: value 70000 exceeds maximum 65535".into(),
        );
        assert_eq!(
            message_excerpt(&lines, 0).join("\n"),
            "validation failed:\n  field `f0`: ok\n  field `f1`: ok\n  field `f2`: ok\n\
             … 21 lines …\n  field `port`: value 70000 exceeds maximum 65535\n… 16 lines …"
        );
        // Numbers masked too: `step 12 done` is like `step 3 done`.
        let steps: Vec<String> = [1, 2, 3, 4, 5, 6, 7, 8, 123]
            .iter()
            .map(|i| format!("step {i} done"))
            .collect();
        assert_eq!(
            message_excerpt(&steps, 0).join("\n"),
            "step 1 done\nstep 2 done\nstep 3 done\nstep 4 done\n… 5 lines …"
        );
        // At most MESSAGE_RARE unlike lines past the head; a short message whole.
        let unlike: Vec<String> = (0..12).map(|i| "x".repeat(i + 1)).collect();
        let said = message_excerpt(&unlike, 0);
        assert_eq!(said.len(), MESSAGE_HEAD + MESSAGE_RARE + 1, "{said:?}");
        assert_eq!(said.last().unwrap(), "… 4 lines …");
        assert_eq!(message_excerpt(&unlike[..4], 0), &unlike[..4]);
        // Lines past those held are counted in the last gap.
        assert_eq!(
            message_excerpt(&unlike[..4], 60),
            [&unlike[..4], &["… 60 lines …".to_string()]].concat()
        );
        assert_eq!(message_excerpt(&lines, 3).last().unwrap(), "… 19 lines …");
    }

    #[test]
    fn long_values_say_where_they_first_differ() {
        let list = |changed: usize, to: usize| {
            let values: Vec<String> = (0..100)
                .map(|i| if i == changed { to } else { i }.to_string())
                .collect();
            format!("[{}]", values.join(", "))
        };
        assert_eq!(
            first_difference(Some(&list(70, 70)), Some(&list(70, 7777))).as_deref(),
            Some("char 272: left …7, 68, 69, 70, 71, 72, 73, 74, 75, 76, 7… right …7, 68, 69, 7777, 71, 72, 73, 74, 75, 76,…")
        );
        // Short values are read whole; equal ones do not differ.
        assert_eq!(first_difference(Some("[1, 2]"), Some("[1, 3]")), None);
        assert_eq!(first_difference(Some(&list(0, 0)), Some(&list(0, 0))), None);
        assert_eq!(first_difference(None, Some(&list(0, 0))), None);
        // One the other's beginning: where the shorter ends. At the first character:
        // nothing before.
        let long = "é".repeat(250);
        assert_eq!(
            first_difference(Some(&long), Some(&long[..200])).as_deref(),
            Some(
                format!(
                    "char 100: left …{}… right …{}",
                    "é".repeat(40),
                    "é".repeat(12)
                )
                .as_str()
            )
        );
        assert_eq!(
            first_difference(Some(&format!("a{long}")), Some(&format!("b{long}"))).as_deref(),
            Some(format!("char 0: left a{0}… right b{0}…", "é".repeat(27)).as_str())
        );
    }

    #[test]
    fn a_signals_short_name_is_a_status_only_under_an_attempt() {
        let status = |line| nextest_status(line).map(|l| (l.outcome, l.status, l.name));
        assert_eq!(
            status("TRY 2 SEGV [   0.008s] ( 2/4) p3::it it_segv"),
            Some((Nextest::Failed, "SIGSEGV", "p3::it it_segv"))
        );
        assert_eq!(
            status("SIGTERM [   0.008s] ( 2/4) p3::it t"),
            Some((Nextest::Failed, "SIGTERM", "p3::it t"))
        );
        assert_eq!(status("SEGV [   0.008s] ( 2/4) p3::it t"), None);
        // nextest 0.9.143: a test that failed and leaked.
        assert_eq!(
            status("FAIL + LEAK [   0.209s] (1/3) p3::leak leak_and_fail"),
            Some((Nextest::Failed, "FAIL + LEAK", "p3::leak leak_and_fail"))
        );
        assert_eq!(status("TRY 2 SIGN [   0.008s] ( 2/4) p3::it t"), None);
    }

    #[test]
    fn a_tests_name_without_the_mode_libtest_shows() {
        for (shown, name) in [
            ("tests::sp - should panic", "tests::sp"),
            (
                "src/lib.rs - f (line 5) - compile fail",
                "src/lib.rs - f (line 5)",
            ),
            (
                "src/lib.rs - f (line 9) - compile",
                "src/lib.rs - f (line 9)",
            ),
            (
                "src/lib.rs - double (line 3)",
                "src/lib.rs - double (line 3)",
            ),
            ("tests::plain", "tests::plain"),
        ] {
            assert_eq!(without_test_mode(shown), name);
        }
    }
}
