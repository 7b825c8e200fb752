//! `briefly pytest`: pytest's terminal output at any verbosity, colour or not, with or
//! without `-r` summaries, with pytest-xdist.
//!
//! Counts are taken only from pytest's own final line (`37 failed, 123 passed in 4.1s`);
//! when there is none (`-qq`, an interrupted or cut-off run) they are reported unknown,
//! never reconstructed. Items are the failure and error reports (the `FAILURES` and
//! `ERRORS` sections, and short-summary lines that have no report), each with its
//! decisive traceback lines and a bounded excerpt of its captured output; under
//! `--collect-only`, the tests it listed ([`crate::collect`]).

use crate::collect::{is_file_path, is_listed_nodeid, Collection};
use crate::excerpt::Excerpt;
use crate::facts::{Facts, LineFacts};
use crate::rank::Ranker;
use crate::{remember, tally, TestRunError};
use briefly_core::{counted, Ahead, Batch, Emit, FoldBatches, Outcome, DEFAULT_MAX_LINE_BYTES};
use briefly_severity::{multiline::PYTHON_CHAIN, Severity};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

/// Failure reports held until the short summary names their tests; older ones are
/// emitted with the node id read from their traceback.
pub const MAX_PENDING: usize = 2_000;
/// Node ids listed in `stats.failed` / `stats.errors`.
pub const MAX_NAMES: usize = 100;

/// Options of `briefly pytest`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PytestOptions {
    /// Decisive lines kept per traceback (and per captured-output excerpt).
    pub lines: usize,
    /// The input is a JUnit XML report (`--junitxml`), not terminal output.
    pub junit: bool,
}

impl Default for PytestOptions {
    fn default() -> Self {
        PytestOptions {
            lines: 12,
            junit: false,
        }
    }
}

impl PytestOptions {
    /// Checks the options.
    pub fn validate(&self) -> Result<(), TestRunError> {
        if self.lines == 0 {
            return Err(TestRunError::Option("--lines must be at least 1".into()));
        }
        Ok(())
    }
}

/// One failed or erroring test (or module that failed to collect).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PytestItem {
    /// pytest's node id (`tests/test_a.py::TestX::test_y[1]`), or the module for a
    /// collection error; empty for the output's end.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub nodeid: String,
    /// The test's file; empty for the output's end.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub file: String,
    /// The line in the test's file where it failed, when the traceback says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    /// Where it failed, `file:line`, when the traceback places it in no line of the
    /// test's file (a fixture in `conftest.py`, a helper module).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// `failed` or `error`; after them, as the short summary and the warnings summary
    /// name them, `skipped` (`file`, `line`, the reason as `message`), `xfailed` and
    /// `warning` (its category as `exception`); `collected`: a test `--collect-only`
    /// listed (under `-qq`, a file, its tests counted in `message`); or `end`: the
    /// output's last lines (in `traceback`, each after its line number), when pytest
    /// printed neither a counts line nor a report (it hung, timed out or crashed);
    /// `crashed`: the interpreter died (`Fatal Python error: …`); `timeout`:
    /// pytest-timeout's thread method stopped the run in a test (its frames, the
    /// innermost where it hung, in `traceback`); `pytest-error`: pytest
    /// itself said what went wrong (a path or node id not found, an unknown option, a
    /// conftest that failed to import, a plugin's verdict: its message, and its lines in
    /// `traceback`); `internalerror`:
    /// pytest itself failed (`INTERNALERROR> …`: its exception, message and `location`,
    /// the first frame in the project's code, a plugin's or conftest's hook).
    pub kind: &'static str,
    /// For errors: `collection`, `setup` or `teardown`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phase: Option<&'static str>,
    /// The exception's type (`AssertionError`, `KeyError`, …), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exception: Option<String>,
    /// Its message (the first `E` line, or the short summary's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The decisive traceback lines: the failing line (`>`), the `E` lines, the frames
    /// in the test's own files; the rest counted as `… N lines …`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub traceback: String,
    /// A bounded excerpt of the captured output: error-like lines and the last lines.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub captured: String,
    /// For a warning: how many times pytest counted it, when more than once (the tests
    /// its summary lists over it, or its `test_a.py: 20 warnings`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
}

impl PytestItem {
    /// A skipped test, an expected failure, a warning, or the output's end, with its
    /// reason or message.
    fn noted(
        kind: &'static str,
        nodeid: &str,
        file: &str,
        line: Option<u64>,
        message: &str,
    ) -> PytestItem {
        PytestItem {
            nodeid: nodeid.to_string(),
            file: file.to_string(),
            line,
            location: None,
            kind,
            phase: None,
            exception: None,
            message: (!message.is_empty()).then(|| message.to_string()),
            traceback: String::new(),
            captured: String::new(),
            count: None,
        }
    }
}

/// The aggregates of `briefly pytest`.
#[derive(Debug, Clone, Serialize, Default)]
pub struct PytestStats {
    /// pytest's final counts, as it printed them (`failed`, `passed`, `errors`, …);
    /// null when it printed none.
    pub counts: Option<Map<String, Value>>,
    /// False when pytest printed no final counts: then `counts` is null and only what
    /// the reports show is known.
    pub counts_known: bool,
    /// Why pytest stopped early (`stopping after 1 failures`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    /// What pytest itself said went wrong, `ERROR: …` before or after its session (a
    /// path or node id not found, an unknown option, a conftest that failed to import,
    /// a plugin's verdict such as pytest-cov's `Coverage failure: …`), and its line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pytest_error: Option<String>,
    /// What interrupted the run (`Interrupted: 1 error during collection`, `KeyboardInterrupt`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interrupted: Option<String>,
    /// The test running when the output stopped, without counts (hung, timed out or
    /// killed): a `-v` progress line naming a test with no outcome after it, last.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub running: Option<String>,
    /// Of a session that printed no counts (the last), what the progress marked failed
    /// (`F`) and errors (`E`) in each file (`test_a.py .FF`), when no report named them
    /// (or pytest-timeout stopped it): the first [`MAX_NAMES`] files.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub progress_marked: BTreeMap<String, [u64; 2]>,
    /// Node ids of the failed tests (the first [`MAX_NAMES`]).
    pub failed: Vec<String>,
    /// Node ids (or modules) with errors (the first [`MAX_NAMES`]).
    pub errors: Vec<String>,
    /// Names left out of `failed` and `errors` past [`MAX_NAMES`].
    #[serde(skip_serializing_if = "briefly_core::is_zero")]
    pub names_left_out: u64,
    /// Node ids that passed unexpectedly (`XPASS` lines of the short summary).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub xpassed: Vec<String>,
    /// Failure and error reports read, by exception type.
    pub by_exception: BTreeMap<String, u64>,
    /// Failure and error reports read, by module.
    pub by_module: BTreeMap<String, u64>,
    /// The run's duration as pytest printed it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration: Option<String>,
    /// Tests collected, as pytest printed it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub collected: Option<u64>,
    /// Under `--collect-only`, entries of its listing left out past
    /// [`crate::collect::MAX_COLLECTED`] (the artifact has them).
    #[serde(skip_serializing_if = "briefly_core::is_zero")]
    pub collected_left_out: u64,
    /// Under `--collect-only`, files with tests listed (of the entries held).
    #[serde(skip_serializing_if = "briefly_core::is_zero")]
    pub collected_files: u64,
    /// Under `--collect-only`, tests listed per file: the [`MAX_NAMES`] files with the
    /// most.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub collected_by_file: BTreeMap<String, u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    Top,
    Reports,
    Passes,
    ShortSummary,
    /// `warnings summary`: each warning under the tests that raised it.
    Warnings,
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Call,
    Collection,
    Setup,
    Teardown,
}

/// One report of the `FAILURES` / `ERRORS` sections, as read so far.
#[derive(Debug, Clone)]
pub(crate) struct Report {
    /// What the `___ headline ___` names: `test_x`, `TestX.test_y[1]`, a module for collection.
    name: String,
    phase: Phase,
    traceback: Excerpt,
    captured: Excerpt,
    in_captured: bool,
    /// Locations (`file:line`) in the traceback, outside installed libraries: the first few.
    locations: Vec<(String, u64)>,
    /// The line before was a frame of the project's own in a native traceback: this one
    /// is its source.
    after_own_frame: bool,
    exception: Option<String>,
    message: Option<String>,
    /// How deep in an exception group's gutter (`  | `) the exception named in a
    /// native traceback was: one deeper (a sub-exception) does not replace it.
    exception_depth: usize,
    /// The last frames' lines (`test_a.py:2: in f`, and the `>` line each was at), at
    /// most [`RECENT_FRAMES`]: one of them again (a recursion's, `f` calling `g` calling
    /// `f` too) is not decisive, so that its thousand frames leave room for the line that
    /// raised.
    recent_frames: VecDeque<String>,
    /// The part of pytest's explanation of an assertion the `E` lines are in: the items
    /// two dicts have in common say nothing of how they differ.
    explaining: Explaining,
}

/// A part of pytest's explanation of a failed comparison, under its `E` lines.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Explaining {
    /// Anything else: every `E` line is decisive.
    Other,
    /// `Common items:`: the items both sides have, not decisive.
    Common,
    /// `Full diff:`: its `-`, `+` and `?` lines are decisive, its context not.
    FullDiff,
}

impl Explaining {
    /// What an `E` line's text (after the `E` and its spaces) makes of the part it is in,
    /// and whether it is decisive.
    fn read(self, e: &str) -> (Explaining, bool) {
        match e {
            _ if e.starts_with("Common items:") => (Explaining::Common, false),
            _ if e.starts_with("Full diff:") => (Explaining::FullDiff, true),
            _ if [
                "Differing items:",
                "Left contains ",
                "Right contains ",
                "Omitting ",
            ]
            .iter()
            .any(|heading| e.starts_with(heading)) =>
            {
                (Explaining::Other, true)
            }
            _ => match self {
                Explaining::Other => (self, true),
                Explaining::Common => (self, false),
                Explaining::FullDiff => (self, e.starts_with(['-', '+', '?'])),
            },
        }
    }
}

/// Frame lines a recursion's repeats are found among: a cycle of 8 frames in
/// `--tb=long`, which gives each frame two (its place and its `>` line).
const RECENT_FRAMES: usize = 16;

/// A line of an exception group's traceback without its gutter (`  | `, deeper for a
/// sub-exception's), and how deep it was; a line outside a group as it is, at depth 0.
/// The group's rules between sub-exceptions (`  +-+---- 1 ----`) are `None`.
fn ungrouped(line: &str) -> Option<(&str, usize)> {
    let inner = line.trim_start_matches(' ');
    let indent = line.len() - inner.len();
    if inner.starts_with("+-") {
        return None;
    }
    match inner
        .strip_prefix("| ")
        .or(inner.strip_prefix('|').filter(|r| r.is_empty()))
    {
        Some(rest) => Some((rest, indent / 2 + 1)),
        None if inner.starts_with("+ Exception Group Traceback") => Some((&inner[2..], 1)),
        None => Some((line, 0)),
    }
}

impl Report {
    pub(crate) fn new(headline: &str, lines: usize) -> Self {
        let (phase, name) = if let Some(module) = headline.strip_prefix("ERROR collecting ") {
            (Phase::Collection, module)
        } else if let Some(test) = headline.strip_prefix("ERROR at setup of ") {
            (Phase::Setup, test)
        } else if let Some(test) = headline.strip_prefix("ERROR at teardown of ") {
            (Phase::Teardown, test)
        } else {
            (Phase::Call, headline)
        };
        Report {
            name: name.to_string(),
            phase,
            traceback: Excerpt::new(0, lines, 2),
            captured: Excerpt::new(1, lines / 2, lines / 2),
            in_captured: false,
            locations: Vec::new(),
            after_own_frame: false,
            explaining: Explaining::Other,
            exception: None,
            message: None,
            exception_depth: 0,
            recent_frames: VecDeque::new(),
        }
    }

    /// A line of what the test printed, under a `Captured …` heading, with its severity.
    pub(crate) fn push_output(&mut self, line: &str, severity: Option<Severity>) {
        let decisive =
            self.captured.wants_marked() && severity.is_some_and(|s| s >= Severity::Warn);
        self.captured.push(line, decisive);
    }

    /// `line` gives a place in the traceback, `file` at `number`: one in the project's
    /// files is remembered (the first few), and is decisive unless a recursion's again.
    fn place(&mut self, line: &str, file: &str, number: u64) -> bool {
        if is_library(file) {
            return false;
        }
        if self.locations.len() < 8 {
            self.locations.push((file.to_string(), number));
        }
        self.new_frame(line)
    }

    /// Whether `line`, a frame, is none of the last frames again; remembers it.
    fn new_frame(&mut self, line: &str) -> bool {
        if self.recent_frames.iter().any(|frame| frame == line) {
            return false;
        }
        let mut frame = match self.recent_frames.len() {
            RECENT_FRAMES => self.recent_frames.pop_front().unwrap_or_default(),
            _ => String::new(),
        };
        frame.clear();
        frame.push_str(line);
        self.recent_frames.push_back(frame);
        true
    }

    /// One line of the report, with its severity.
    pub(crate) fn push(&mut self, line: &str, severity: Option<Severity>) {
        if let Some(title) = dashed_title(line) {
            self.in_captured = true;
            self.captured.push(&format!("[{title}]"), true);
            return;
        }
        if self.in_captured {
            self.push_output(line, severity);
            return;
        }
        if line.trim().is_empty() {
            return;
        }
        // A strict xfail that passed: its report is this line and its reason.
        if let Some(reason) = line.strip_prefix("[XPASS(strict)]") {
            self.exception
                .get_or_insert_with(|| "XPASS(strict)".to_string());
            let reason = reason.trim();
            if !reason.is_empty() {
                self.message.get_or_insert_with(|| reason.to_string());
            }
        }
        // pytest-xdist heads a crashed worker's report by the test's file: the test is
        // named here.
        if let Some(nodeid) = line
            .strip_prefix("worker '")
            .and_then(|rest| rest.split_once("' crashed while running '"))
            .and_then(|(_, rest)| rest.strip_suffix('\''))
        {
            self.name = headline_of(nodeid);
            self.message.get_or_insert_with(|| line.to_string());
        }
        let mut decisive = std::mem::take(&mut self.after_own_frame);
        let Some((inner, depth)) = ungrouped(line) else {
            self.traceback.push(line, false);
            return;
        };
        // What follows is the exception the test failed with (`raise … from e`, or one
        // raised while handling another).
        if PYTHON_CHAIN.contains(&inner.trim()) {
            // The exception the test failed with follows: what the ones before said is
            // their own.
            decisive = true;
            self.exception = None;
            self.message = None;
            self.exception_depth = 0;
            self.locations.clear();
        } else if let Some(e) = line.strip_prefix('E').filter(|rest| rest.starts_with(' ')) {
            let e = e.trim();
            (self.explaining, decisive) = self.explaining.read(e);
            // A syntax error's place, in its message (`E     File "test_a.py", line 1`).
            if let Some((file, number, _)) = native_frame(e) {
                decisive |= self.place(line, file, number);
            }
            // pytest's own error, which it reports without its name.
            let fixture = (e.starts_with("fixture '") && e.ends_with("' not found"))
                .then_some(("FixtureLookupError", e));
            let named = exception_prefix(e).or(fixture);
            // The first `E` line says what failed, unless a later one names the exception
            // and none did: a collection error's `SyntaxError: invalid syntax` under its
            // `File "test_a.py", line 1`.
            let better = self.exception.is_none() && named.is_some();
            if (self.message.is_none() || better) && !e.is_empty() {
                match named {
                    Some((name, message)) => {
                        self.exception.get_or_insert_with(|| name.to_string());
                        self.message = Some(message.to_string());
                    }
                    None => self.message = Some(e.to_string()),
                }
            }
        } else if line.starts_with('>') {
            // The line each frame was at: a recursion's again and again.
            decisive = self.new_frame(line);
        } else if let Some((file, number, rest)) = location(line) {
            decisive = self.place(line, file, number);
            // `file:line: KeyError` ends a long traceback and names the exception.
            if is_exception_name(rest) {
                self.exception = Some(rest.to_string());
            }
        } else if let Some((file, number)) = bare_location(line) {
            decisive = self.place(line, file, number);
        } else if let Some((file, number, _)) = native_frame(inner) {
            // `--tb=native`: Python's own traceback. A frame in the project's files, and
            // its source line under it, say where the test failed.
            decisive = self.place(line, file, number);
            self.after_own_frame = decisive;
        } else if let Some((name, message)) = exception_prefix(inner)
            .filter(|_| !inner.starts_with(' ') && (depth > 0 || !self.locations.is_empty()))
        {
            // A native traceback ends with its exception, unindented: the last one
            // printed is the test's, but not a group's sub-exception over the group.
            decisive = true;
            if self.exception.is_none() || depth <= self.exception_depth {
                self.exception = Some(name.to_string());
                self.message = (!message.is_empty()).then(|| message.to_string());
                self.exception_depth = depth;
            }
        }
        // A doctest's report is its example, what was expected and what came: all of it
        // says what failed.
        decisive |= self.name.starts_with(DOCTEST);
        self.traceback.push(line, decisive);
    }

    /// `--tb=line`'s whole report of a failure, one line: the crash's place and the first
    /// line of its message (`/src/test_a.py:3: AssertionError: too small`). Which test it
    /// is, only the order tells: the short summary names the failures in the same order.
    fn crash_line(line: &str, severity: Option<Severity>, lines: usize) -> Self {
        let mut report = Report::new("", lines);
        // The place, the line as the traceback, an `[XPASS(strict)] reason`.
        report.push(line, severity);
        if let Some((_, _, rest)) = location(line) {
            if report.message.is_none() && !rest.is_empty() {
                match exception_prefix(rest) {
                    Some((name, message)) => {
                        report.exception.get_or_insert_with(|| name.to_string());
                        report.message = Some(message.to_string());
                    }
                    None => report.message = Some(rest.to_string()),
                }
            }
        }
        report
    }

    /// What a short-summary node id must give ([`report_key`]) to name this report.
    fn key(&self) -> String {
        match self.phase {
            Phase::Collection => format!("{}\u{0}", self.name),
            // A doctest's headline names it as its summary line does, marked.
            _ => self
                .name
                .strip_prefix(DOCTEST)
                .unwrap_or(&self.name)
                .to_string(),
        }
    }

    /// The node id as far as the report itself tells: its first own frame's file and the
    /// headline; none for a `--tb=line` report.
    fn derived_nodeid(&self) -> String {
        if self.phase == Phase::Collection || self.name.is_empty() {
            return self.name.clone();
        }
        let (name, params) = match self.name.find('[') {
            Some(at) => self.name.split_at(at),
            None => (self.name.as_str(), ""),
        };
        let path = name.replace('.', "::") + params;
        // The test's module: the first place in the traceback outside a conftest.py (a
        // fixture's error may show none: the test's name alone then, not the
        // conftest's).
        let module = self
            .locations
            .iter()
            .find(|(file, _)| file.rsplit('/').next() != Some("conftest.py"));
        match module {
            Some((file, _)) => format!("{file}::{path}"),
            None => path,
        }
    }
}

/// The key of the report a short-summary node id names: a module for a collection
/// error, else the test's headline.
fn report_key(nodeid: &str) -> String {
    if nodeid.contains("::") {
        headline_of(nodeid)
    } else {
        format!("{nodeid}\u{0}")
    }
}

/// Reports waiting for the short summary to name their tests: oldest first, and found
/// by key in constant time (a summary of thousands of lines must not scan them all).
#[derive(Debug, Default)]
struct Pending {
    next: u64,
    order: VecDeque<u64>,
    reports: HashMap<u64, Report>,
    by_key: HashMap<String, VecDeque<u64>>,
}

impl Pending {
    fn len(&self) -> usize {
        self.reports.len()
    }

    fn push(&mut self, report: Report) {
        let seq = self.next;
        self.next += 1;
        self.by_key.entry(report.key()).or_default().push_back(seq);
        self.order.push_back(seq);
        self.reports.insert(seq, report);
        // Taken reports leave their number in `order`; drop them now and then.
        if self.order.len() > 2 * MAX_PENDING {
            let reports = &self.reports;
            self.order.retain(|seq| reports.contains_key(seq));
        }
    }

    fn pop_oldest(&mut self) -> Option<Report> {
        while let Some(seq) = self.order.pop_front() {
            if let Some(report) = self.reports.remove(&seq) {
                let key = report.key();
                if let Some(seqs) = self.by_key.get_mut(&key) {
                    seqs.retain(|s| *s != seq);
                    if seqs.is_empty() {
                        self.by_key.remove(&key);
                    }
                }
                return Some(report);
            }
        }
        None
    }

    /// Whether a report of a test's call is held under `key`.
    fn has_call(&self, key: &str) -> bool {
        self.position(key, true).is_some()
    }

    /// Where under `key` the oldest report of a test's call is when `call`, else of its
    /// setup or teardown.
    fn position(&self, key: &str, call: bool) -> Option<usize> {
        self.by_key.get(key)?.iter().position(|seq| {
            self.reports
                .get(seq)
                .is_some_and(|r| (r.phase == Phase::Call) == call)
        })
    }

    /// The oldest report under `key`, of a test's call when `call` (a `FAILED` line's),
    /// else of its setup or teardown (an `ERROR` line's) when there is one: a test that
    /// fails and then errors in teardown has both.
    fn take(&mut self, key: &str, call: bool) -> Option<Report> {
        let at = self.position(key, call).unwrap_or(0);
        let seqs = self.by_key.get_mut(key)?;
        let report = seqs.remove(at).and_then(|seq| self.reports.remove(&seq));
        if seqs.is_empty() {
            self.by_key.remove(key);
        }
        report
    }
}

/// How pytest heads a doctest's report: `[doctest] module.function`.
const DOCTEST: &str = "[doctest] ";

/// `test_a.py::TestX::test_y[1]` → `TestX.test_y[1]`, as pytest heads its report.
fn headline_of(nodeid: &str) -> String {
    let (path, params) = match nodeid.find('[') {
        Some(at) => nodeid.split_at(at),
        None => (nodeid, ""),
    };
    match path.split_once("::") {
        Some((_, rest)) => rest.replace("::", ".") + params,
        None => nodeid.to_string(),
    }
}

/// Adds each count of `counts` (`failed: 2`) to `sums`.
fn add_counts(sums: &mut Map<String, Value>, counts: &Map<String, Value>) {
    for (kind, n) in counts {
        let sum = sums.get(kind).and_then(Value::as_u64).unwrap_or(0) + n.as_u64().unwrap_or(0);
        sums.insert(kind.clone(), sum.into());
    }
}

/// `----- Captured stdout call -----` → `Captured stdout call`.
fn dashed_title(line: &str) -> Option<&str> {
    if line.len() > 6 && line.starts_with("---") && line.ends_with("---") {
        let title = line.trim_matches('-').trim();
        (!title.is_empty()).then_some(title)
    } else {
        None
    }
}

/// The section a heading of pytest's own opens (`==== FAILURES ====`, `==== test session
/// starts ====`); `None` for any other title.
fn pytest_section(title: &str) -> Option<Section> {
    Some(match title {
        "FAILURES" | "ERRORS" => Section::Reports,
        "PASSES" => Section::Passes,
        "short test summary info" => Section::ShortSummary,
        "warnings summary" => Section::Warnings,
        "test session starts" => Section::Other,
        _ => return None,
    })
}

/// `==== title ====` → `title`.
fn section_title(line: &str) -> Option<&str> {
    if line.len() > 6 && line.bytes().all(|b| b == b'=') {
        return Some("");
    }
    fenced(line, '=')
}

/// `____ headline ____` → `headline` (not the `_ _ _` separator between frames).
fn report_headline(line: &str) -> Option<&str> {
    fenced(line, '_').filter(|headline| !headline.bytes().all(|b| b == b'_' || b == b' '))
}

/// The title between runs of `fence`, each side set apart by a space: pytest fills its
/// width with them, so a long title has one on each side (`= 1200 passed, … in 312.45s =`,
/// `_ test_a[long id] _`).
fn fenced(line: &str, fence: char) -> Option<&str> {
    let inner = line.strip_prefix(fence)?.trim_start_matches(fence);
    let inner = inner.strip_suffix(fence)?.trim_end_matches(fence);
    let title = inner.strip_prefix(' ')?.strip_suffix(' ')?.trim();
    (!title.is_empty()).then_some(title)
}

/// `path/to/file.py:12: rest` → its parts.
fn location(line: &str) -> Option<(&str, u64, &str)> {
    if line.starts_with(' ') {
        return None;
    }
    let (head, rest) = line.split_once(": ").or_else(|| {
        line.strip_suffix(':')
            .map(|head| (head, ""))
            .filter(|_| !line.ends_with("::"))
    })?;
    let (file, number) = head.rsplit_once(':')?;
    let number: u64 = number.parse().ok()?;
    (file.ends_with(".py") || file.contains('/') || file.contains('.')).then_some((
        file,
        number,
        rest.trim(),
    ))
}

/// A place pytest gives without a message: a fixture's error's `file /src/test_a.py,
/// line 1` above the test's signature and `/src/test_a.py:1` below it.
fn bare_location(line: &str) -> Option<(&str, u64)> {
    let (file, number) = match line.strip_prefix("file ") {
        Some(rest) => rest.rsplit_once(", line ")?,
        None => line
            .rsplit_once(':')
            .filter(|(file, _)| !file.contains(' '))?,
    };
    let number = number.parse().ok()?;
    file.ends_with(".py").then_some((file, number))
}

/// `  File "/src/test_a.py", line 8, in test_fail`: a frame of Python's own traceback
/// (`--tb=native`, pytest-timeout's stacks; faulthandler's `line 7 in test_crash`), as
/// its file, line and function (empty when it names none).
fn native_frame(line: &str) -> Option<(&str, u64, &str)> {
    let rest = line.trim_start().strip_prefix("File \"")?;
    let (file, rest) = rest.split_once("\", line ")?;
    let digits = rest.split(|c: char| !c.is_ascii_digit()).next()?;
    let after = rest[digits.len()..].trim_start_matches(',').trim_start();
    Some((
        file,
        digits.parse().ok()?,
        after.strip_prefix("in ").unwrap_or(""),
    ))
}

/// Whether a traceback's `file` (absolute in a native one) is the node id's `nodeid_file`
/// (relative to pytest's root).
fn same_file(file: &str, nodeid_file: &str) -> bool {
    file == nodeid_file
        || file
            .strip_suffix(nodeid_file)
            .is_some_and(|head| head.ends_with('/'))
}

/// Installed code, not the project's (`…/site-packages/…`, Debian's `dist-packages`,
/// `/usr/lib/python3.11/…`, `<frozen runpy>`): frames there are not the test's own.
fn is_library(file: &str) -> bool {
    file.contains("site-packages")
        || file.contains("dist-packages")
        || file.contains("/lib/python")
        || file.starts_with("<frozen")
}

/// `KeyError`, `mod.CustomError`, `Failed` …: a dotted identifier naming an exception.
fn is_exception_name(word: &str) -> bool {
    let last = word.rsplit('.').next().unwrap_or(word);
    !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        && last.starts_with(|c: char| c.is_ascii_uppercase())
        && [
            "Error",
            "Exception",
            "Exit",
            "Interrupt",
            "Failed",
            "Failure",
            "Warning",
            "Iteration",
            "Timeout",
            "ExceptionGroup",
        ]
        .iter()
        .any(|suffix| last.ends_with(suffix))
}

/// `KeyError: 'x'` → (`KeyError`, `'x'`).
pub(crate) fn exception_prefix(text: &str) -> Option<(&str, &str)> {
    let (name, message) = text
        .split_once(": ")
        .or_else(|| Some((text, "")).filter(|_| is_exception_name(text)))?;
    is_exception_name(name).then_some((name, message))
}

/// Parses pytest's final counts line (`37 failed, 123 passed, 2 skipped in 4.10s (0:00:04)`).
pub fn parse_counts(line: &str) -> Option<(Map<String, Value>, String)> {
    if !counts_shaped(line) {
        return None;
    }
    parse_counts_shaped(line)
}

/// Whether `line` is a counts line ([`parse_counts`]).
#[inline]
fn is_counts(line: &str) -> bool {
    counts_shaped(line) && parse_counts_shaped(line).is_some()
}

/// Whether a line may be a counts line, at a glance: nearly every line ends otherwise,
/// and most are asked (pytest's output may print one inside a report).
#[inline]
fn counts_shaped(line: &str) -> bool {
    line.ends_with('s') || line.ends_with(')')
}

fn parse_counts_shaped(line: &str) -> Option<(Map<String, Value>, String)> {
    let (counts, duration) = line.rsplit_once(" in ")?;
    let duration = duration.trim();
    let seconds = duration.split_whitespace().next()?;
    // (pytest before 5.1 wrote `in 0.01 seconds`.)
    let spelled_out = (duration.strip_suffix(" seconds")).is_some_and(|n| n.parse::<f64>().is_ok());
    let short = seconds.ends_with('s') && seconds[..seconds.len() - 1].parse::<f64>().is_ok();
    if !(short || spelled_out) {
        return None;
    }
    let mut map = Map::new();
    if counts.trim() == "no tests ran" {
        return Some((map, duration.to_string()));
    }
    for part in counts.split(", ") {
        if let Some(listed) = collect_only_counts(part.trim()) {
            map.extend(listed);
            continue;
        }
        let (n, word) = part.trim().split_once(' ')?;
        let n: u64 = n.parse().ok()?;
        let word = match word {
            "error" | "errors" => "errors",
            "warning" | "warnings" => "warnings",
            "rerun" | "reruns" => "rerun",
            "failed" | "passed" | "skipped" | "deselected" | "xfailed" | "xpassed" => word,
            "subtests passed" | "subtests failed" | "subtests skipped" => word,
            _ => return None,
        };
        map.insert(word.to_string(), Value::from(n));
    }
    (!map.is_empty()).then(|| (map, duration.to_string()))
}

/// `--collect-only`'s counts: `6 tests collected`, `1 test collected`, `5/6 tests
/// collected (1 deselected)`, `no tests collected`, `no tests collected (6 deselected)`;
/// as `collected` (the tests selected) and `deselected`.
fn collect_only_counts(part: &str) -> Option<Map<String, Value>> {
    let (head, deselected) = match part.split_once(" (") {
        Some((head, rest)) => (
            head,
            Some(rest.strip_suffix(" deselected)")?.parse::<u64>().ok()?),
        ),
        None => (part, None),
    };
    let n = head
        .strip_suffix(" tests collected")
        .or(head.strip_suffix(" test collected"))?;
    // `5/6`: the tests selected of those collected.
    let (selected, of) = n.split_once('/').unwrap_or((n, "0"));
    let selected: u64 = match selected {
        "no" => 0,
        selected => selected.parse().ok()?,
    };
    of.parse::<u64>().ok()?;
    let mut map = Map::new();
    map.insert("collected".into(), Value::from(selected));
    if let Some(deselected) = deselected {
        map.insert("deselected".into(), Value::from(deselected));
    }
    Some(map)
}

/// The pytest reducer.
#[derive(Debug)]
pub struct Pytest {
    options: PytestOptions,
    /// The input framed into lines, each without its ANSI codes and with its severity,
    /// one batch ahead on another thread.
    ahead: Ahead<Facts>,
    section: Section,
    report: Option<Report>,
    /// The width of the first report's headline, which pytest fills to its terminal's:
    /// one of another width in what a test printed is what it printed.
    headline_width: Option<usize>,
    /// Lines read before any section's heading, in which a report's headline was then
    /// found (the output opens inside the reports, `pytest | tail -n 60`): how many
    /// lines, of a report whose headline was cut, came before it.
    headless_reports: Option<u64>,
    /// Lines read before any section's heading (not blank).
    top_lines: u64,
    pending: Pending,
    /// `--tb=line` reports, in order, until the short summary names their tests.
    crash_lines: VecDeque<Report>,
    /// `--tb=line` reports let go past the cap: the first tests the summary names.
    crash_lines_dropped: u64,
    /// pytest 9's `--tb=line`: the messages (`E   assert 1 == 2`) written above the report
    /// to come, with what the test printed between them: a chained exception's each
    /// (`E   KeyError: 'k'`, then `E   TypeError: wrapped`, which the report places), at
    /// most [`MAX_CRASH_MESSAGES`].
    crash_messages: Vec<String>,
    /// The last `--tb=line` report held if it had no place (`[XPASS(strict)] reason`):
    /// pytest 9 writes such a report twice in a row.
    unplaced_report: Option<String>,
    emitted: HashSet<String>,
    ranker: Ranker,
    counts_line: Option<String>,
    /// A counts line inside a report: pytest's own only if nothing follows it.
    tentative_counts: Option<String>,
    /// A session a test ran within this one (pytester's `runpytest`) is being read in
    /// its report's captured output, up to its counts line: its lines are the report's.
    nested_session: bool,
    /// Failures named by `-v` progress lines, for runs that print no report of them.
    progress: Vec<(&'static str, String)>,
    stats: PytestStats,
    /// Failure and error reports read, all of them (`stats` names the first ones).
    reports_read: [u64; 2],
    /// The output's last lines, with their numbers (their buffers reused).
    end: VecDeque<(u64, String)>,
    /// The sessions before the last.
    earlier_sessions: Sessions,
    /// In the `warnings summary`, the tests that raised the warning to come (the first
    /// named), and how many times they did.
    warned_by: Option<String>,
    warned_times: u64,
    /// The warning read last, and its message's lines after its first: emitted once
    /// they have all come.
    warning: Option<(PytestItem, usize)>,
    /// Python's faulthandler's report of the crash that ended the run, if one did.
    fatal: Option<Crash>,
    /// pytest-timeout's report of the test that ran past its timeout, if one did.
    timeout: Option<ThreadTimeout>,
    /// The timeout pytest-timeout's header names (`timeout: 1.0s`), and its method
    /// (`timeout method: thread`).
    timeout_setting: Option<String>,
    timeout_method: Option<String>,
    /// Reading a session's header (or the output's first lines).
    in_header: bool,
    /// The session's tests have run ([`Pytest::pytest_error_line`]).
    tests_ran: bool,
    /// The session header's `rootdir: /src/app`, with a slash after it: what frames'
    /// paths are made relative to, as pytest's reports write them.
    rootdir: Option<String>,
    /// pytest's own crash, its `INTERNALERROR>` lines: their exception (the last line of
    /// it) and the first frames of the project's code (a plugin's or conftest's hook).
    internal_error: Option<Crash>,
    /// What pytest itself said went wrong, if it did ([`PytestError`]).
    pytest_said: Option<PytestError>,
    /// What `--collect-only` listed, if that is what ran.
    collection: Collection,
    /// The input opens as a JUnit XML report does ([`crate::junit::is_junit_report`]):
    /// said so, as [`crate::Junit`] reads it.
    junit_input: bool,
}

/// A crash's report, with its line and the frames of the tests' own code below it (not
/// the interpreter's library's or an installed package's): the interpreter's,
/// `Fatal Python error: Segmentation fault` (Python's faulthandler, as it dies: pytest
/// prints nothing after it), or pytest's own, its `INTERNALERROR>` lines (`text` the
/// exception they end in).
#[derive(Debug, Default)]
struct Crash {
    line: u64,
    text: String,
    /// `File "/src/test_crash.py", line 7 in test_crash`, the first few.
    frames: Vec<String>,
    /// The first of them: its file and line.
    place: Option<(String, u64)>,
    /// The test `-v` named as running when it died: on the line the report opens
    /// (stderr with stdout), or the line before.
    nodeid: Option<String>,
}

/// Messages of a chained exception a `--tb=line` report of pytest 9's may follow.
const MAX_CRASH_MESSAGES: usize = 8;

/// What pytest itself said went wrong, first or after its counts: why it would not run
/// the tests (its `UsageError`, exit code 4: `ERROR: file or directory not found:
/// tests/a.py`, `ERROR: not found: …::test_x`, an unknown option, `ERROR: usage: …`
/// then `pytest: error: unrecognized arguments: --x`, a conftest that failed to import,
/// `ImportError while loading conftest '…/conftest.py'.` then its traceback and `E
/// ModuleNotFoundError: …`), or a plugin's verdict after them (pytest-cov's `ERROR:
/// Coverage failure: …`, or its `FAIL Required test coverage of 90% not reached. …`
/// above them).
#[derive(Debug)]
struct PytestError {
    line: u64,
    /// What it says went wrong.
    message: String,
    /// Its lines (the first [`PYTEST_ERROR_LINES`]), with their numbers.
    lines: Vec<String>,
    /// A heading came after it: its lines are all read.
    ended: bool,
}

/// How pytest-cov says the run failed `--cov-fail-under` (7.x, in its `tests coverage`
/// section; its `ERROR: Coverage failure: …` comes amid the progress then).
const COVERAGE_FAIL: &str = "FAIL Required test coverage of ";

/// Lines of a [`PytestError`] kept.
const PYTEST_ERROR_LINES: usize = 12;

impl PytestError {
    /// Opens one at `text`, the output's line `line`, if it is one's first line.
    fn open(line: u64, text: &str) -> Option<PytestError> {
        // (Its `UsageError`'s, and a plugin's: pytest writes both so.)
        let message = match text.strip_prefix("ERROR: ") {
            Some(message) => message,
            None if text.starts_with("ImportError while loading conftest '") => text,
            None if text.starts_with(COVERAGE_FAIL) => text,
            None => return None,
        };
        Some(PytestError {
            line,
            message: briefly_core::cut_str(message, MAX_END_LINE_CHARS).into_owned(),
            lines: vec![format!("{line}: {text}")],
            ended: false,
        })
    }

    /// A line after its first: kept, and read for what went wrong when the first did
    /// not say (argparse's `pytest: error: …` under `ERROR: usage: …`; a conftest's
    /// exception, `E   ModuleNotFoundError: …`).
    fn push(&mut self, line: u64, text: &str) {
        if text.is_empty() || self.lines.len() == PYTEST_ERROR_LINES {
            return;
        }
        // (The program's name is `pytest`, or `__main__.py` under `python -m pytest`.)
        let said = (text.split_once(": error: "))
            .filter(|(program, _)| !program.contains(' ') && self.message.starts_with("usage: "))
            .map(|(_, said)| said)
            .or_else(|| {
                (text.strip_prefix("E   "))
                    .filter(|_| {
                        self.message
                            .starts_with("ImportError while loading conftest")
                    })
                    .map(str::trim_start)
            });
        if let Some(said) = said {
            self.message = briefly_core::cut_str(said, MAX_END_LINE_CHARS).into_owned();
        }
        self.lines.push(format!(
            "{line}: {}",
            briefly_core::cut_str(text, MAX_END_LINE_CHARS)
        ));
    }
}

/// How pytest prefixes each line of its own crash's traceback.
const INTERNAL_ERROR: &str = "INTERNALERROR> ";

/// Frames of the tests' own code a [`Crash`] keeps.
const CRASH_FRAMES: usize = 3;

impl Crash {
    /// A line after the report's: a frame of the tests' own code is kept.
    fn frame(&mut self, line: &str) {
        // (faulthandler's `, line 7 in test_crash`; a traceback's `, line 3, in hook`.)
        let Some((file, number, _)) = native_frame(line) else {
            return;
        };
        if is_library(file) || self.frames.len() == CRASH_FRAMES {
            return;
        }
        self.place.get_or_insert_with(|| (file.to_string(), number));
        self.frames
            .push(briefly_core::cut_str(line.trim(), MAX_END_LINE_CHARS).into_owned());
    }
}

/// pytest-timeout's report of a test that ran past its `--timeout` under the thread
/// method (`--timeout-method=thread`, or where there is no `SIGALRM`): the test's
/// captured output and every thread's stack between two `+++ Timeout +++` banners, and
/// then it ends the process, so no report and no counts follow. (The signal method
/// fails the test instead, and its report says so.)
#[derive(Debug, Default)]
struct ThreadTimeout {
    /// The first banner's line.
    line: u64,
    /// The test `-v` named on the banner's line or the line before.
    nodeid: Option<String>,
    /// Else the test file the progress named before the banner (`tests/test_a.py `).
    module: Option<String>,
    /// The part of the report being read.
    part: TimeoutPart,
    /// The second banner was read: the report is whole.
    closed: bool,
    /// The main thread's frames read.
    frames_read: usize,
    /// The first frame of the project's code whose function is named as a test's
    /// (`test_x`: past a decorator's wrapper, `mock.patch`'s), and the first of the
    /// project's code at all (a fixture's): file, line and function.
    test: Option<Frame>,
    first_own: Option<Frame>,
    /// Frames of the project's code (the first [`TIMEOUT_OWN_FRAMES`]) and the last
    /// [`CRASH_FRAMES`] frames, each its `File …` line and its code, by their place in
    /// the stack.
    own_frames: Vec<(usize, String)>,
    last_frames: VecDeque<(usize, String)>,
    /// What the test printed, as the report gives it: its first [`TIMEOUT_CAPTURED_LINES`].
    captured: Vec<String>,
    /// What the session's progress marked failed and errors, when the report closed.
    marked: BTreeMap<String, [u64; 2]>,
}

/// A frame of a Python stack: its file, line and function.
type Frame = (String, u64, String);

/// Frames of the project's code a [`ThreadTimeout`] keeps.
const TIMEOUT_OWN_FRAMES: usize = 8;

/// Lines of a timed-out test's captured output kept.
const TIMEOUT_CAPTURED_LINES: usize = 20;

/// The part of a [`ThreadTimeout`]'s report a line is in.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum TimeoutPart {
    #[default]
    Other,
    /// `~~~ Captured stdout ~~~`, `~~~ Captured stderr ~~~`.
    Captured,
    /// `~~~ Stack of MainThread (…) ~~~`.
    MainStack,
}

impl ThreadTimeout {
    /// A line after the first banner, up to the second.
    fn push(&mut self, line: &str) {
        if timeout_banner_at(line).is_some() {
            self.closed = true;
            return;
        }
        if let Some(title) = (line.strip_prefix("~~~"))
            .map(|rest| rest.trim_matches('~').trim())
            .filter(|_| line.ends_with("~~~"))
        {
            self.part = match title {
                _ if title.starts_with("Stack of MainThread ") => TimeoutPart::MainStack,
                _ if title.starts_with("Captured ") => TimeoutPart::Captured,
                _ => TimeoutPart::Other,
            };
            if self.part == TimeoutPart::Captured && self.captured.len() < TIMEOUT_CAPTURED_LINES {
                self.captured.push(format!("[{title}]"));
            }
            return;
        }
        match self.part {
            TimeoutPart::Other => {}
            TimeoutPart::Captured => {
                if self.captured.len() < TIMEOUT_CAPTURED_LINES {
                    self.captured
                        .push(briefly_core::cut_str(line, MAX_END_LINE_CHARS).into_owned());
                }
            }
            TimeoutPart::MainStack => self.stack_line(line),
        }
    }

    /// A line of the main thread's stack: a frame's `File …` line, or its code under it.
    fn stack_line(&mut self, line: &str) {
        let kept = briefly_core::cut_str(line, MAX_END_LINE_CHARS);
        if !line.trim_start().starts_with("File \"") {
            // The frame's code, under its `File` line.
            let last = self
                .last_frames
                .back_mut()
                .filter(|(at, _)| *at + 1 == self.frames_read);
            if let Some((at, frame)) = last.filter(|_| line.starts_with("    ")) {
                frame.push('\n');
                frame.push_str(&kept);
                if let Some((_, own)) = self.own_frames.last_mut().filter(|(own, _)| own == at) {
                    own.push('\n');
                    own.push_str(&kept);
                }
            }
            return;
        };
        let at = self.frames_read;
        self.frames_read += 1;
        if self.last_frames.len() == CRASH_FRAMES {
            self.last_frames.pop_front();
        }
        self.last_frames.push_back((at, kept.to_string()));
        let Some((file, number, function)) = native_frame(line) else {
            return;
        };
        // The project's code, not a script's top level (the `pytest` command's).
        if is_library(file) || function == "<module>" {
            return;
        }
        let frame = || (file.to_string(), number, function.to_string());
        self.first_own.get_or_insert_with(frame);
        if self.test.is_none() && function.starts_with("test") {
            self.test = Some(frame());
        }
        if self.own_frames.len() < TIMEOUT_OWN_FRAMES {
            self.own_frames.push((at, kept.to_string()));
        }
    }

    /// Its frames kept, in the stack's order, `…` where some were left out.
    fn frames(&self) -> Vec<String> {
        let mut frames: Vec<&(usize, String)> =
            self.own_frames.iter().chain(&self.last_frames).collect();
        frames.sort_by_key(|(at, _)| *at);
        frames.dedup_by_key(|(at, _)| *at);
        let mut lines = Vec::new();
        let mut next = 0;
        for (at, frame) in frames {
            if *at > next {
                lines.push("  …".to_string());
            }
            lines.push(frame.clone());
            next = at + 1;
        }
        lines
    }
}

/// Where pytest-timeout's banner, `+++… Timeout +++…`, starts in `line`, after what the
/// line held before it (the progress: `test_to.py ` or `-v`'s `test_to.py::test_hangs `).
fn timeout_banner_at(line: &str) -> Option<usize> {
    let (before, after) = line.trim_end().split_once(" Timeout ")?;
    let fence = |run: &str| run.len() >= 3 && run.bytes().all(|b| b == b'+');
    let plus = before.trim_end_matches('+');
    (fence(&before[plus.len()..]) && fence(after)).then_some(plus.len())
}

/// The rank category of skipped tests, expected failures and warnings, whose ranks
/// start past those of any failure.
const NOTED: u64 = 3;
const AFTER_FAILURES: u64 = 1 << 40;

/// The shortest line read as a report's headline outside the reports' sections.
const MIN_HEADLINE_CHARS: usize = 60;

/// Sessions whose counts lines are named in the summary: the last ones.
const MAX_SESSIONS: usize = 20;

/// The counts of the sessions before the last one in an output, summed, and the last
/// [`MAX_SESSIONS`] of their counts lines.
#[derive(Debug, Default)]
struct Sessions {
    count: u64,
    sums: Map<String, Value>,
    lines: VecDeque<String>,
}

impl Sessions {
    fn add(&mut self, counts_line: String) {
        self.count += 1;
        if let Some((counts, _)) = parse_counts(&counts_line) {
            add_counts(&mut self.sums, &counts);
        }
        if self.lines.len() == MAX_SESSIONS - 1 {
            self.lines.pop_front();
        }
        self.lines.push_back(counts_line);
    }
}

/// Lines of the output's end kept, for a run that printed no counts and no report.
const END_LINES: usize = 30;
/// Characters kept of each of them.
const MAX_END_LINE_CHARS: usize = 300;

/// Lines of a warning's message after its first kept.
const MAX_WARNING_LINES: usize = 8;

impl Pytest {
    /// A reducer with these options.
    pub fn new(options: PytestOptions) -> Result<Self, TestRunError> {
        options.validate()?;
        Ok(Pytest {
            options,
            ahead: Ahead::framing(Facts::new(false), DEFAULT_MAX_LINE_BYTES),
            section: Section::Top,
            report: None,
            pending: Pending::default(),
            crash_lines: VecDeque::new(),
            crash_lines_dropped: 0,
            crash_messages: Vec::new(),
            unplaced_report: None,
            emitted: HashSet::new(),
            ranker: Ranker::default(),
            counts_line: None,
            tentative_counts: None,
            nested_session: false,
            headline_width: None,
            headless_reports: None,
            top_lines: 0,
            progress: Vec::new(),
            stats: PytestStats::default(),
            reports_read: [0; 2],
            end: VecDeque::with_capacity(END_LINES),
            earlier_sessions: Sessions::default(),
            warned_by: None,
            warned_times: 0,
            warning: None,
            fatal: None,
            timeout: None,
            timeout_setting: None,
            timeout_method: None,
            in_header: true,
            tests_ran: false,
            rootdir: None,
            internal_error: None,
            pytest_said: None,
            collection: Collection::default(),
            junit_input: false,
        })
    }

    /// The output's line `line`, `text`, read for a [`PytestError`]: one opens at the
    /// output's first line or after a session's counts (pytest prints it then), or at
    /// pytest-cov's verdict outside the tests' reports once they ran, and takes the lines
    /// after it up to a heading.
    fn pytest_error_line(&mut self, line: u64, text: &str) {
        // The tests ran: the progress reached `[100%]`, pytest-cov's report began (`----
        // coverage: platform …`), or a heading after the session's first came.
        match section_title(text) {
            Some("test session starts") => self.tests_ran = false,
            Some(_) => self.tests_ran = true,
            None => {
                self.tests_ran |= text.ends_with("[100%]") || text.contains("coverage: platform ")
            }
        }
        match &mut self.pytest_said {
            Some(said) if said.ended => return,
            Some(said) if section_title(text).is_some() => said.ended = true,
            Some(said) => return said.push(line, text),
            None => {}
        }
        let first = self.section == Section::Top && self.top_lines == 0;
        // (Under `-s`, a test's own line among the progress is not it.)
        let coverage = text.starts_with(COVERAGE_FAIL)
            && self.tests_ran
            && !matches!(self.section, Section::Reports | Section::Passes);
        if first || coverage || (self.counts_line.is_some() && self.section == Section::Other) {
            if let Some(usage) = PytestError::open(line, text) {
                self.pytest_said = Some(usage);
            }
        }
    }

    /// A line of pytest's internal error after its `INTERNALERROR> ` (the output's line
    /// `line`): a frame, or the exception, which its last such line is.
    fn internal_error_line(&mut self, line: u64, rest: &str) {
        let internal = self.internal_error.get_or_insert_with(|| Crash {
            line,
            ..Crash::default()
        });
        let chained = [
            "Traceback (most recent call last)",
            "During handling ",
            "The above ",
        ];
        if rest.starts_with([' ', '\t']) {
            internal.frame(rest);
        } else if !rest.is_empty() && !chained.iter().any(|c| rest.starts_with(c)) {
            internal.line = line;
            internal.text = briefly_core::cut_str(rest, MAX_END_LINE_CHARS).into_owned();
        }
    }

    /// pytest's internal error as an item of its own (`internalerror`: its exception and
    /// message, the first place in the project's code, its line and frames), and as what
    /// interrupted the run: the tests after it did not run, and the reports of those
    /// before it were not printed.
    fn emit_internal_error(&mut self, internal: Crash, out: &mut dyn Emit<PytestItem>) {
        let (exception, message) = match internal.text.split_once(": ") {
            Some((exception, message)) if !exception.contains(' ') => (exception, message),
            _ => (internal.text.as_str(), ""),
        };
        let mut item = PytestItem::noted("internalerror", "", "", None, message);
        item.exception = (!exception.is_empty()).then(|| exception.to_string());
        item.location = (internal.place.as_ref()).map(|(file, line)| format!("{file}:{line}"));
        item.traceback = std::iter::once(format!(
            "{}: {INTERNAL_ERROR}{}",
            internal.line, internal.text
        ))
        .chain(internal.frames.iter().cloned())
        .collect::<Vec<_>>()
        .join("\n");
        out.emit(0, item);
        self.stats.interrupted.get_or_insert_with(|| {
            let at = match &internal.place {
                Some((file, line)) => format!(" at {file}:{line}"),
                None => String::new(),
            };
            format!("pytest stopped on an INTERNALERROR ({}{at})", internal.text)
        });
    }

    /// The output's line `line`, `text`, read for a [`ThreadTimeout`] (outside the
    /// tests' reports: under the signal method its banners are a test's captured
    /// output), and for the session header's `timeout: 1.0s`, `timeout method: thread`
    /// and `rootdir: /src`; where its first banner starts, when it opens one. `running`
    /// is the test `-v` named on the line before.
    fn timeout_line(&mut self, line: u64, text: &str, running: Option<&String>) -> Option<usize> {
        match &mut self.timeout {
            Some(timeout) if !timeout.closed => {
                timeout.push(text);
                if timeout.closed {
                    timeout.marked = self.stats.progress_marked.clone();
                }
            }
            Some(_) => {}
            None if matches!(self.section, Section::Reports | Section::Passes) => {}
            // (Its header said so: the signal method's report of a test it failed, which
            // carries on, printed under `-s`.)
            None if self.timeout_method.as_deref() == Some("signal") => {}
            None => {
                if let Some(at) = timeout_banner_at(text) {
                    // `-v`'s node id before the banner, with its outcome when the test
                    // hung in its teardown (`a.py::test_x PASSED [ 50%]`), or on the line
                    // before (pytest-timeout 2.1).
                    let before = text[..at].trim_end();
                    let nodeid = (running_test(before))
                        .or_else(|| before.split(' ').next().filter(|id| id.contains(".py::")))
                        .or(running.map(String::as_str).filter(|_| before.is_empty()));
                    let module = before
                        .split(' ')
                        .next()
                        .filter(|file| file.ends_with(".py"));
                    self.timeout = Some(ThreadTimeout {
                        line,
                        nodeid: nodeid.map(str::to_string),
                        module: module.map(str::to_string),
                        ..ThreadTimeout::default()
                    });
                    return Some(at);
                }
                // The session's header, up to its `collected 3 items`.
                if section_title(text) == Some("test session starts") {
                    self.in_header = true;
                } else if text.starts_with("collect") || collected(text).is_some() {
                    self.in_header = false;
                }
                if self.in_header {
                    if let Some(setting) = text.strip_prefix("timeout: ") {
                        self.timeout_setting = Some(setting.to_string());
                    } else if let Some(method) = text.strip_prefix("timeout method: ") {
                        self.timeout_method = Some(method.to_string());
                    } else if let Some(rootdir) = text.strip_prefix("rootdir: ") {
                        // (pytest before 7 wrote `, inifile: …` after it.)
                        let rootdir = rootdir.split(", inifile: ").next().unwrap_or(rootdir);
                        let rootdir = rootdir.split(", configfile: ").next().unwrap_or(rootdir);
                        self.rootdir = Some(format!("{}/", rootdir.trim_end_matches('/')));
                    }
                }
            }
        }
        None
    }

    /// Emits the `timeout` item of pytest-timeout's report; what the summary says of it.
    /// `timeout`, its first banner cut off (`pytest | tail -n 40`): the one read closed
    /// it, and the stack's last lines, kept among the output's last, came before it.
    fn read_cut_timeout(&self, timeout: &mut ThreadTimeout) {
        if timeout.frames_read > 0 {
            return;
        }
        let mut closing = ThreadTimeout {
            part: TimeoutPart::MainStack,
            ..ThreadTimeout::default()
        };
        (self.end.iter())
            .filter(|(n, _)| *n < timeout.line)
            .for_each(|(_, text)| closing.push(text));
        // Its stack from there; the rest as read.
        let read = std::mem::take(timeout);
        *timeout = ThreadTimeout {
            line: read.line,
            nodeid: read.nodeid,
            module: read.module,
            closed: read.closed,
            captured: read.captured,
            marked: read.marked,
            ..closing
        };
    }

    fn emit_timeout(&self, timeout: ThreadTimeout, out: &mut dyn Emit<PytestItem>) -> String {
        // (A test's own marker may set another: the session's is what is known.)
        let after = match &self.timeout_setting {
            Some(setting) => format!(" (the session's: {setting})"),
            None => String::new(),
        };
        let test_frame = timeout.test.is_some();
        let mut frame = timeout.test.clone().or(timeout.first_own.clone());
        if let (Some(rootdir), Some((file, _, _))) = (&self.rootdir, &mut frame) {
            if let Some(relative) = file.strip_prefix(rootdir.as_str()) {
                *file = relative.to_string();
            }
        }
        // The test by its node id, or its function; where it hung, in another function
        // (a fixture's) when no test's frame was in the stack.
        let test = match (&timeout.nodeid, &frame, &timeout.module) {
            (Some(nodeid), _, _) => nodeid.clone(),
            (None, Some((_, _, function)), _) if test_frame => function.clone(),
            (None, _, Some(module)) => format!("a test in {module}"),
            (None, _, None) => "a test".to_string(),
        };
        let place = match &frame {
            Some((file, line, _)) if test_frame => format!(" at {file}:{line}"),
            Some((file, line, function)) => format!(" in {function} at {file}:{line}"),
            None => String::new(),
        };
        let message = format!(
            "Timeout from pytest-timeout{after}: it stopped the run in {test}{place} (thread method)"
        );
        let mut item = PytestItem::noted("timeout", "", "", None, &message);
        item.nodeid = timeout.nodeid.clone().unwrap_or_default();
        if let Some((file, line, _)) = frame {
            item.file = file;
            item.line = Some(line);
        }
        item.traceback = std::iter::once(format!("{}: +++ Timeout +++", timeout.line))
            .chain(timeout.frames())
            .collect::<Vec<_>>()
            .join("\n");
        if !timeout.captured.is_empty() {
            item.captured = timeout.captured.join("\n");
        }
        out.emit(0, item);
        format!("pytest-timeout stopped the run: {test} ran past its timeout{after}{place}")
    }

    /// Keeps `text`, line `line`, among the output's last lines.
    fn keep_end(&mut self, line: u64, text: &str) {
        let mut kept = match self.end.len() {
            END_LINES => self.end.pop_front().expect("full"),
            _ => (0, String::new()),
        };
        kept.0 = line;
        kept.1.clear();
        kept.1
            .push_str(&briefly_core::cut_str(text, MAX_END_LINE_CHARS));
        self.end.push_back(kept);
    }

    /// Whether `line`, fenced as pytest's headings and headlines are (`=== title ===`,
    /// `--- Captured stdout call ---`, `___ test_a ___`), is what a test printed: in a
    /// report's captured output, a rule alone (pytest's have a title) or of another width
    /// than the reports' headlines (pytest fills the terminal's width; a title too long
    /// for it has one fence character on each side). Never a heading of pytest's own
    /// sections ([`pytest_section`]): read as a test's, it would hide the sections after.
    fn printed_fence(&self, line: &str) -> bool {
        if !self
            .report
            .as_ref()
            .is_some_and(|report| report.in_captured)
        {
            return false;
        }
        let Some(fence) = line.chars().next().filter(|c| matches!(c, '=' | '-' | '_')) else {
            return false;
        };
        if line.len() > 6 && line.chars().all(|c| c == fence) {
            return true;
        }
        if section_title(line).and_then(pytest_section).is_some() {
            return false;
        }
        let Some(width) = self.headline_width else {
            return false;
        };
        let chars = line.chars().count();
        let overlong = chars > width
            && line[fence.len_utf8()..].starts_with(' ')
            && line.ends_with(&format!(" {fence}"));
        chars != width && !overlong
    }

    /// Sets the final counts line, as pytest would print it (for the JUnit reader).
    pub(crate) fn set_counts_line(&mut self, line: String) {
        self.counts_line = Some(line);
    }

    fn close_report(&mut self, out: &mut dyn Emit<PytestItem>) {
        if let Some(report) = self.report.take() {
            if self.section == Section::Passes {
                return;
            }
            self.pending.push(report);
            if self.pending.len() > MAX_PENDING {
                let oldest = self.pending.pop_oldest().expect("over the cap");
                let nodeid = oldest.derived_nodeid();
                self.emit_report(Some(oldest), nodeid, None, out);
            }
        }
    }

    /// Holds a `--tb=line` report until the short summary names its test. Past
    /// [`MAX_PENDING`] the oldest place is let go: its test is still named by the summary.
    /// A line of `--tb=line`'s reports, one line each. pytest 9 writes the report's
    /// message above it (`E   assert 1 == 2`) and what the test printed between them
    /// (`--- Captured stdout call ---` and its lines): the report is the line that places
    /// that message (`/src/test_a.py:2: assert 1 == 2`). A report with no place
    /// (`[XPASS(strict)] reason`) it writes twice: once in pytest 8 (two tests' alike
    /// reports in a row then count as one, the second test keeping the summary's message).
    fn tb_line(&mut self, line: &str, severity: Option<Severity>) {
        let unplaced = self.unplaced_report.take();
        if let Some(message) = line.strip_prefix("E   ") {
            // An exception's first line (its explanation is indented): the report says one
            // of them again.
            if !message.starts_with(char::is_whitespace)
                && self.crash_messages.len() < MAX_CRASH_MESSAGES
            {
                self.crash_messages.push(message.trim().to_string());
            }
            return;
        }
        if !self.crash_messages.is_empty() {
            let places_one = location(line).is_some_and(|(_, _, rest)| {
                self.crash_messages.iter().any(|message| {
                    rest == message
                        || rest.starts_with(message.as_str())
                        || message.starts_with(rest)
                })
            });
            if !places_one {
                return; // what the test printed
            }
            self.crash_messages.clear();
        }
        if location(line).is_none() {
            if unplaced.as_deref() == Some(line) {
                return;
            }
            self.unplaced_report = Some(line.to_string());
        }
        self.hold_crash_line(line, severity);
    }

    fn hold_crash_line(&mut self, line: &str, severity: Option<Severity>) {
        if self.crash_lines.len() == MAX_PENDING {
            self.crash_lines.pop_front();
            self.crash_lines_dropped += 1;
        }
        let report = Report::crash_line(line, severity, self.options.lines);
        self.crash_lines.push_back(report);
    }

    /// The `--tb=line` report of the next test the short summary names as failed.
    fn next_crash_line(&mut self) -> Option<Report> {
        if self.crash_lines_dropped > 0 {
            self.crash_lines_dropped -= 1;
            return None;
        }
        self.crash_lines.pop_front()
    }

    /// Emits the item for a failure: its report (if any), its node id, the short summary's message.
    pub(crate) fn emit_report(
        &mut self,
        mut report: Option<Report>,
        nodeid: String,
        summary: Option<(&'static str, &str)>,
        out: &mut dyn Emit<PytestItem>,
    ) {
        let phase = report.as_ref().map_or_else(
            || {
                if summary.is_some_and(|(kind, _)| kind == "error") && !nodeid.contains("::") {
                    Phase::Collection
                } else {
                    Phase::Call
                }
            },
            |r| r.phase,
        );
        let kind = match (phase, summary) {
            (Phase::Call, Some((kind, _))) => kind,
            (Phase::Call, None) => "failed",
            _ => "error",
        };
        // Once as failed and once as an error at most: pytest counts a test that fails
        // and then errors in teardown in both. (A `--tb=line` report no summary named
        // has no node id: each is its own.)
        if !nodeid.is_empty() && !remember(&mut self.emitted, &format!("{kind}\u{0}{nodeid}")) {
            return;
        }
        // A node id without its module (none a report's places named) has the place
        // where it failed as its file; a module's own (`tests/test_m.py`) is its file.
        let moduleless = nodeid.is_empty()
            || (phase != Phase::Collection && !nodeid.contains("::") && !nodeid.ends_with(".py"));
        // Not a conftest.py's, where a fixture failed: that is no test's module (its
        // place is the item's `location`).
        let file = match &report {
            Some(report) if moduleless => report
                .locations
                .iter()
                .map(|(f, _)| f.as_str())
                .find(|f| f.rsplit('/').next() != Some("conftest.py"))
                .unwrap_or(""),
            _ => nodeid.split("::").next().unwrap_or(&nodeid),
        }
        .to_string();
        let (mut exception, mut message) = (None, None);
        if let Some((_, text)) = summary.filter(|(_, text)| !text.is_empty()) {
            match exception_prefix(text) {
                Some((name, rest)) => {
                    exception = Some(name.to_string());
                    message = Some(rest.to_string());
                }
                None => message = Some(text.to_string()),
            }
        }
        let mut item = PytestItem {
            nodeid,
            file,
            line: None,
            location: None,
            kind,
            phase: match phase {
                Phase::Call => None,
                Phase::Collection => Some("collection"),
                Phase::Setup => Some("setup"),
                Phase::Teardown => Some("teardown"),
            },
            exception: None,
            message: None,
            traceback: String::new(),
            captured: String::new(),
            count: None,
        };
        if let Some(report) = &mut report {
            let own = report
                .locations
                .iter()
                .find(|(f, _)| same_file(f, &item.file));
            item.line = own.map(|(_, n)| *n);
            if own.is_none() {
                item.location = (report.locations.first()).map(|(f, n)| format!("{f}:{n}"));
            }
            exception = report.exception.take().or(exception);
            message = report.message.take().or(message);
        }
        if exception.is_none() && message.as_deref().is_some_and(|m| m.starts_with("assert")) {
            exception = Some("AssertionError".into());
        }
        item.exception = exception;
        item.message = message;

        let exception = item.exception.clone().unwrap_or_else(|| "unknown".into());
        tally(&mut self.stats.by_exception, &exception);
        if !item.file.is_empty() {
            tally(&mut self.stats.by_module, &item.file);
        }
        let failed = kind == "failed";
        self.reports_read[usize::from(!failed)] += 1;
        let names = if failed {
            &mut self.stats.failed
        } else {
            &mut self.stats.errors
        };
        if item.nodeid.is_empty() {
            // Not named (a `--tb=line` report without a short summary): counted only.
        } else if names.len() < MAX_NAMES {
            names.push(item.nodeid.clone());
        } else {
            self.stats.names_left_out += 1;
        }
        let category = match phase {
            Phase::Collection => 0,
            Phase::Setup | Phase::Teardown => 1,
            Phase::Call => 2,
        };
        let rank = self.ranker.rank(category, &exception);
        if !out.wants(rank) {
            // Past what fits: counted without writing out its excerpts.
            out.skip(rank);
            return;
        }
        if let Some(report) = report {
            item.traceback = report.traceback.text();
            item.captured = report.captured.text();
        }
        out.emit(rank, item);
    }

    fn short_summary(&mut self, line: &str, out: &mut dyn Emit<PytestItem>) {
        let (kind, rest) = if let Some(rest) = line.strip_prefix("FAILED ") {
            ("failed", rest)
        } else if let Some(rest) = line.strip_prefix("ERROR ") {
            ("error", rest)
        } else if let Some(rest) = line.strip_prefix("XPASS ") {
            if self.stats.xpassed.len() < MAX_NAMES {
                let nodeid = rest.split(" - ").next().unwrap_or(rest);
                let nodeid = nodeid.split(' ').next().unwrap_or(nodeid);
                self.stats.xpassed.push(nodeid.to_string());
            }
            return;
        } else if let Some(rest) = line.strip_prefix("XFAIL ") {
            let (nodeid, reason) = split_summary(rest);
            let nodeid = nodeid.trim();
            let file = nodeid.split("::").next().unwrap_or(nodeid);
            let item = PytestItem::noted("xfailed", nodeid, file, None, reason.trim());
            self.emit_noted(item, out);
            return;
        } else if let Some(rest) = line.strip_prefix("SKIPPED ") {
            // `SKIPPED [3] test_a.py:12: needs a GPU`: where, and how many tests.
            let (tests, place) = match rest.strip_prefix('[').and_then(|r| r.split_once("] ")) {
                Some((n, place)) => (n.parse::<u64>().unwrap_or(1), place),
                None => (1, rest),
            };
            let (file, line, reason) = match location(place) {
                Some((file, line, reason)) => (file, Some(line), reason.trim_start()),
                None => ("", None, place),
            };
            let reason = match tests {
                1 => reason.to_string(),
                n => format!("{reason} ({n} tests)"),
            };
            let item = PytestItem::noted("skipped", "", file, line, &reason);
            self.emit_noted(item, out);
            return;
        } else {
            return;
        };
        let (nodeid, message) = split_summary(rest);
        let nodeid = nodeid.trim();
        let key = report_key(nodeid);
        // A failure's `--tb=line` report is the next one held: a report of the same test's
        // teardown error (headed apart) is not its.
        let tb_line = !self.crash_lines.is_empty() || self.crash_lines_dropped > 0;
        let report = match kind == "failed" && tb_line && !self.pending.has_call(&key) {
            true => self.next_crash_line(),
            false => match self.pending.take(&key, kind != "error") {
                None if kind == "failed" => self.next_crash_line(),
                report => report,
            },
        };
        self.emit_report(
            report,
            nodeid.to_string(),
            Some((kind, message.trim())),
            out,
        );
    }

    /// A line of the `warnings summary`: the tests that raised a warning (`test_a.py::
    /// test_x`, `test_a.py: 12 warnings`), then the warning at its place, indented
    /// (`  /app/a.py:3: DeprecationWarning: old api`), then its source line.
    fn warnings_summary(&mut self, line: &str) {
        if line.is_empty() {
            self.warned_by = None;
            return;
        }
        // The summary's last line is its link to the docs: `pytest -q` writes its counts
        // right after it, without a title's `=`.
        if line.starts_with("-- Docs:") {
            self.warned_by = None;
            self.section = Section::Other;
            return;
        }
        if !line.starts_with(' ') {
            // The tests named, the first kept: each once, or a file's many at once
            // (`test_a.py: 20 warnings`).
            if self.warned_by.is_none() {
                self.warned_by = Some(line.to_string());
                self.warned_times = 0;
            }
            let times = (line.rsplit_once(": "))
                .and_then(|(_, n)| n.strip_suffix(" warnings"))
                .and_then(|n| n.parse().ok());
            self.warned_times += times.unwrap_or(1);
            return;
        }
        let Some(by) = self.warned_by.take() else {
            return; // the warning's source line
        };
        let Some((file, number, rest)) = location(line.trim_start()) else {
            return;
        };
        let (category, message) = rest.trim_start().split_once(": ").unwrap_or(("", rest));
        // Tests (`test_a.py::test_x`, `test_a.py: 12 warnings`), or an import's place
        // (`…/x.py:5`), which is no test.
        let nodeid = by.split(": ").next().unwrap_or(&by);
        let place = nodeid
            .rsplit_once(':')
            .is_some_and(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        let nodeid = if place { "" } else { nodeid };
        // pytest writes the warning's place absolute (`/home/me/app/tests/test_a.py`): in
        // the test's own file, it is named as the test's id names it, as failures are.
        let test_file = nodeid.split("::").next().unwrap_or("");
        let file = match !test_file.is_empty() && same_file(file, test_file) {
            true => test_file,
            false => file,
        };
        let mut item = PytestItem::noted("warning", nodeid, file, Some(number), message.trim());
        item.exception = (!category.is_empty()).then(|| category.to_string());
        item.count = (self.warned_times > 1).then_some(self.warned_times);
        // (Emitted when its message's lines have all come.)
        self.warning = Some((item, 0));
    }

    /// Whether `line` goes on the message of the warning read last: pytest indents
    /// each of its lines by two spaces (and its source line under them by four). It is
    /// added when it does, up to [`MAX_WARNING_LINES`].
    fn warning_continues(&mut self, line: &str) -> bool {
        let Some((item, lines)) = self
            .warning
            .as_mut()
            .filter(|_| self.section == Section::Warnings)
        else {
            return false;
        };
        let continues = line
            .strip_prefix("  ")
            .is_some_and(|rest| !rest.starts_with(' '));
        if continues && *lines < MAX_WARNING_LINES {
            *lines += 1;
            let message = item.message.get_or_insert_with(String::new);
            message.push('\n');
            message.push_str(&briefly_core::cut_str(
                line[2..].trim_end(),
                MAX_END_LINE_CHARS,
            ));
        }
        continues
    }

    /// Emits the warning read last, its message whole.
    fn emit_warning(&mut self, out: &mut dyn Emit<PytestItem>) {
        if let Some((item, _)) = self.warning.take() {
            self.emit_noted(item, out);
        }
    }

    /// A skipped or expected failure, a warning, or a test `--collect-only` listed:
    /// after every failure and error.
    fn emit_noted(&mut self, item: PytestItem, out: &mut dyn Emit<PytestItem>) {
        let rank = AFTER_FAILURES + self.ranker.rank(NOTED, item.kind);
        if out.wants(rank) {
            out.emit(rank, item);
        } else {
            out.skip(rank);
        }
    }

    /// A session's final counts line. Another session's came before it when one did
    /// (`make test` or tox running pytest twice).
    fn counts(&mut self, line: &str) {
        self.decide_listing(line);
        // (A session's counts count what its progress marked.)
        self.stats.progress_marked.clear();
        if let Some(earlier) = self.counts_line.replace(line.to_string()) {
            self.earlier_sessions.add(earlier);
        }
    }

    /// What the session printed is a listing if its counts line, `counts_line`, is
    /// `--collect-only`'s.
    fn decide_listing(&mut self, counts_line: &str) {
        let listing = parse_counts(counts_line).is_some_and(|(c, _)| c.contains_key("collected"));
        match listing {
            true => self.collection.confirm(),
            false => self.collection.discard(),
        }
    }

    /// One line, without ANSI codes and trailing space; `severity` is the line's.
    fn line(&mut self, line: &str, severity: Option<Severity>, out: &mut dyn Emit<PytestItem>) {
        if self.warning.is_some() && !self.warning_continues(line) {
            self.emit_warning(out);
        }
        if !line.is_empty() {
            self.stats.running = None;
        }
        // A headline before any heading opened the reports (`pytest | tail`), but the
        // session or its reports' heading comes after it: it was a line the session's
        // setup or a test printed (under `-s`), and its report none.
        if self.headless_reports.is_some() && self.section == Section::Reports {
            let title = section_title(line);
            if matches!(title, Some("test session starts" | "FAILURES" | "ERRORS")) {
                self.report = None;
                self.headless_reports = None;
            }
        }
        // (A report is open only in the reports' sections.)
        if let Some(report) = &mut self.report {
            let title = section_title(line);
            if self.nested_session || title == Some("test session starts") {
                report.push(line, severity);
                self.nested_session = !title.is_some_and(is_counts);
                return;
            }
        }
        // A test's own banner (`print("=" * 70)`, `=== phase 1 ===`) is its output, not
        // a section's heading that would end its report.
        if self.printed_fence(line) {
            if let Some(report) = &mut self.report {
                report.push_output(line, severity);
            }
            return;
        }
        if let Some(title) = section_title(line) {
            // Inside reports a counts line may be a test's own output: pytest's only if
            // nothing follows it.
            if matches!(self.section, Section::Reports | Section::Passes) && is_counts(title) {
                self.tentative_counts = Some(title.to_string());
                return;
            }
            self.close_report(out);
            self.tentative_counts = None;
            if is_counts(title) {
                self.counts(title);
                self.section = Section::Other;
                return;
            }
            self.section = pytest_section(title).unwrap_or(Section::Other);
            return;
        }
        if line.len() > 4 && line.starts_with("!!") && line.ends_with("!!") {
            self.close_report(out);
            let what = line.trim_matches('!').trim().to_string();
            if what.starts_with("stopping after") {
                self.stats.stopped = Some(what);
            } else {
                self.stats.interrupted = Some(what);
            }
            self.section = Section::Other;
            return;
        }
        if self.section == Section::Top {
            // A report's headline before any section's heading: the output opens inside
            // the reports, their `FAILURES` heading cut off. (pytest fills its width, 80
            // columns at least, with a headline's fences.)
            if line.chars().count() >= MIN_HEADLINE_CHARS && report_headline(line).is_some() {
                self.section = Section::Reports;
                self.headless_reports = Some(self.top_lines);
            } else if !line.is_empty() {
                self.top_lines += 1;
            }
        }
        match self.section {
            Section::Reports | Section::Passes => {
                let headline = report_headline(line);
                if let Some(headline) = headline {
                    self.headline_width.get_or_insert(line.chars().count());
                    self.close_report(out);
                    self.tentative_counts = None;
                    self.report = Some(Report::new(headline, self.options.lines));
                    return;
                }
                // Without trailing space, a blank line is empty.
                if !line.is_empty() {
                    self.tentative_counts = None;
                }
                if is_counts(line) {
                    self.tentative_counts = Some(line.to_string());
                }
                // `[gw0] linux -- Python 3.11 …`: which xdist worker ran it.
                if line.starts_with("[gw") {
                    return;
                }
                match &mut self.report {
                    Some(report) => report.push(line, severity),
                    // Lines before any headline: `--tb=line`, one per failure.
                    None if self.section == Section::Reports
                        && !line.is_empty()
                        && self.tentative_counts.is_none() =>
                    {
                        self.tb_line(line, severity);
                    }
                    None => {}
                }
            }
            Section::Warnings => self.warnings_summary(line),
            Section::ShortSummary => {
                if is_counts(line) {
                    self.counts(line);
                } else {
                    self.short_summary(line, out);
                }
            }
            Section::Top | Section::Other => {
                if is_counts(line) {
                    self.counts(line);
                } else if let Some(n) = collected(line) {
                    self.stats.collected = Some(n);
                } else if self.collection.line(line) {
                    // A listing's (`--collect-only`): a node of its tree, a `-qq` file.
                } else if let Some(nodeid) = running_test(line) {
                    self.stats.running = Some(nodeid.to_string());
                    self.collection.nodeid(nodeid);
                } else if is_headless_summary_line(line) {
                    // The short test summary's, its heading cut off (`pytest | tail -n 5`).
                    self.short_summary(line, out);
                } else if let Some((file, marks)) = progress_marks(line) {
                    let failed = marks.bytes().filter(|&b| b == b'F').count() as u64;
                    let errors = marks.bytes().filter(|&b| b == b'E').count() as u64;
                    let marked = &mut self.stats.progress_marked;
                    if failed + errors > 0
                        && (marked.len() < MAX_NAMES || marked.contains_key(file))
                    {
                        let counts = marked.entry(file.to_string()).or_default();
                        counts[0] += failed;
                        counts[1] += errors;
                    }
                } else if let Some((kind, nodeid)) = progress_failure(line) {
                    // A test that failed and then errored in teardown is listed twice.
                    let known = self
                        .progress
                        .iter()
                        .any(|&(k, ref id)| k == kind && id == nodeid);
                    if !known && self.progress.len() < MAX_NAMES {
                        self.progress.push((kind, nodeid.to_string()));
                    }
                } else if is_listed_nodeid(line) {
                    // `--collect-only -q`'s node id of an item in no Python file
                    // (`README.txt::README.txt`, a plugin's), or under a path with spaces.
                    self.collection.nodeid(line);
                }
            }
        }
    }

    /// `--collect-only`'s listing, after any error collecting: each test listed (or
    /// `-qq`'s file) as a `collected` item, and the stats of them. A session's counts
    /// line said whether it listed; a counts line inside a report is decided on now;
    /// with none, `-qq`'s files (`a.py: 4`) are a listing alone.
    fn emit_listing(&mut self, out: &mut dyn Emit<PytestItem>) -> Listed {
        match (&self.counts_line, &self.tentative_counts) {
            (None, Some(tentative)) => self.decide_listing(&tentative.clone()),
            (None, None) => {
                self.collection.confirm_files();
            }
            _ => self.collection.discard(),
        }
        let (entries, left_out) = std::mem::take(&mut self.collection).finish();
        let mut listed = Listed {
            any: !entries.is_empty(),
            phrase: None,
            files: entries.iter().filter(|e| e.tests.is_some()).count(),
            tests: entries.iter().filter_map(|e| e.tests).sum(),
        };
        if !listed.any {
            return listed;
        }
        self.stats.collected_left_out = left_out;
        let held = entries.len();
        let mut by_file = BTreeMap::new();
        for entry in entries {
            let file = entry.nodeid.split("::").next().unwrap_or_default();
            *by_file.entry(file.to_string()).or_default() += entry.tests.unwrap_or(1);
            let tests = entry.tests.map(|n| briefly_core::plural(n, "test"));
            let item = PytestItem::noted(
                "collected",
                &entry.nodeid,
                file,
                None,
                tests.as_deref().unwrap_or_default(),
            );
            self.emit_noted(item, out);
        }
        self.stats.collected_files = by_file.len() as u64;
        let files = briefly_core::plural(by_file.len() as u64, "file");
        listed.phrase = Some(match left_out {
            0 => format!("; in {files}"),
            more => {
                format!("; the first {held} listed in {files}, {more} more (the artifact has them)")
            }
        });
        self.stats.collected_by_file = by_count(&by_file)
            .into_iter()
            .take(MAX_NAMES)
            .map(|(file, n)| (file.to_string(), n))
            .collect();
        listed
    }
}

/// What the summary says of a `--collect-only` listing ([`Pytest::emit_listing`]).
struct Listed {
    /// Whether anything was listed.
    any: bool,
    /// `; in 3 files`, or how many more than were held the artifact has.
    phrase: Option<String>,
    /// `-qq`'s files listed, and the tests they hold.
    files: usize,
    tests: u64,
}

/// `a.py::test_x[a - b] - KeyError: 'k'` → the node id and the message: a parameter id
/// may hold ` - ` too. Its `[` comes before any space (a node id has none outside it);
/// the message's own brackets (`assert [1, 2] == [1, 3]`) are no parameter id's.
fn split_summary(rest: &str) -> (&str, &str) {
    let id = &rest[..rest.find(' ').unwrap_or(rest.len())];
    let from = id
        .find('[')
        .and_then(|open| rest[open..].find(']').map(|close| open + close + 1))
        .unwrap_or(0);
    match rest[from..].find(" - ") {
        Some(at) => (&rest[..from + at], &rest[from + at + 3..]),
        None => (rest, ""),
    }
}

/// `FAILED a.py::test_x - msg`, `ERROR a.py - ImportError: …`, `XFAIL a.py::test_y`:
/// a line of the short test summary, known without its heading by the node id after the
/// outcome: a file's path, alone or before `::`.
fn is_headless_summary_line(line: &str) -> bool {
    let Some((outcome, rest)) = line.split_once(' ') else {
        return false;
    };
    let (nodeid, _) = split_summary(rest);
    let path = nodeid.split("::").next().unwrap_or(nodeid);
    matches!(outcome, "FAILED" | "ERROR" | "XFAIL" | "XPASS")
        && is_file_path(path)
        && !path.contains([':', ' '])
}

/// Whether `text` is a test's node id as pytest prints it: its file, `::`, its name
/// (after its class's), and its parameters in brackets, which may hold anything
/// (`a.py::T::test_x[a b]`, `a.py::test_y[[]`).
fn is_nodeid(text: &str) -> bool {
    let Some((path, rest)) = text.split_once("::") else {
        return false;
    };
    let name = rest.find('[').map_or(rest, |at| &rest[..at]);
    let params_end = rest.len() == name.len() || rest.ends_with(']');
    let plain = |part: &str| !part.is_empty() && !part.contains(char::is_whitespace);
    plain(path) && plain(name) && params_end
}

/// `line` without the run's percentage that `-v` progress ends with (`  [ 10%]`), if it
/// has one.
fn without_percentage(line: &str) -> Option<&str> {
    let (head, percent) = line.rsplit_once(" [")?;
    let number = percent.strip_suffix("%]")?.trim_start();
    (!number.is_empty() && number.bytes().all(|b| b.is_ascii_digit())).then_some(head)
}

/// `-v` progress before the test's outcome is known: `a.py::test_x[a b]` alone on its
/// line (pytest writes the outcome after it when the test ends); the node id. Not a
/// test's line with its outcome and the percentage (`a.py::test_x[a] PASSED  [ 10%]`),
/// which parameters could otherwise end.
fn running_test(line: &str) -> Option<&str> {
    let module = line
        .split_once("::")
        .is_some_and(|(path, _)| path.ends_with(".py"));
    (module && is_nodeid(line) && without_percentage(line).is_none()).then_some(line)
}

/// The default progress: a test file and a mark per test that ran (`.` passed, `F`
/// failed, `E` error, `s` skipped, `x` xfailed, `X` xpassed), then the percentage
/// unless cut off (`test_a.py .FF`, `tests/test_b.py ..s.  [ 40%]`); the file and the
/// marks.
fn progress_marks(line: &str) -> Option<(&str, &str)> {
    let head = without_percentage(line).unwrap_or(line).trim_end();
    let (file, marks) = head.split_once(' ')?;
    let marked = !marks.is_empty() && marks.bytes().all(|b| b".FEsxX".contains(&b));
    (file.ends_with(".py") && marked).then_some((file, marks))
}

/// `-v` progress: `a.py::test_x FAILED   [ 10%]` (`a.py::test_x[a b] FAILED` in the
/// classic style), or with xdist `[gw0] [ 10%] FAILED a.py::test_x`; the kind and the
/// node id.
fn progress_failure(line: &str) -> Option<(&'static str, &str)> {
    let kind = |status: &str| match status {
        "FAILED" => Some("failed"),
        "ERROR" => Some("error"),
        _ => None,
    };
    if let Some(rest) = line.strip_prefix("[gw") {
        let (_, rest) = rest.split_once("] [")?;
        let (_, rest) = rest.split_once("] ")?;
        let (status, nodeid) = rest.split_once(' ')?;
        let nodeid = nodeid.trim();
        return kind(status)
            .filter(|_| is_nodeid(nodeid))
            .map(|k| (k, nodeid));
    }
    let head = without_percentage(line).unwrap_or(line);
    let (nodeid, status) = head.trim_end().rsplit_once(' ')?;
    let nodeid = nodeid.trim();
    kind(status)
        .filter(|_| is_nodeid(nodeid))
        .map(|k| (k, nodeid))
}

/// `collected 160 items`, `collected 3 items / 1 error`, `2 workers [160 items]`, and
/// `collecting ... collected 16 items` as `-v` prints it.
fn collected(line: &str) -> Option<u64> {
    let line = line.strip_prefix("collecting ... ").unwrap_or(line);
    if let Some(rest) = line.strip_prefix("collected ") {
        return rest.split(' ').next()?.parse().ok();
    }
    let (_, rest) = line.split_once(" workers [")?;
    rest.split(' ').next()?.parse().ok()
}

impl FoldBatches for Pytest {
    type Prepare = Facts;
    type Item = PytestItem;
    type Stats = PytestStats;

    fn ahead(&self) -> &Ahead<Facts> {
        &self.ahead
    }

    fn ahead_mut(&mut self) -> &mut Ahead<Facts> {
        &mut self.ahead
    }

    /// A batch of lines whose facts are ready, in order.
    fn fold(&mut self, batch: &mut Batch<LineFacts>, out: &mut dyn Emit<PytestItem>) {
        for i in 0..batch.len() {
            let facts = batch.output(i);
            let record = batch.record(i);
            let text = facts.text(record.text);
            if record.line == 1 && crate::junit::is_junit_report(text.as_bytes()) {
                self.junit_input = true;
            }
            let running = self.stats.running.clone();
            if let Some(rest) = text.strip_prefix(INTERNAL_ERROR) {
                self.internal_error_line(record.line, rest.trim_end());
            }
            self.pytest_error_line(record.line, text.trim_end());
            // (The progress before a timeout's banner on its line is read as any: `test_b.py F`.)
            let read = match self.timeout_line(record.line, text.trim_end(), running.as_ref()) {
                Some(banner) => &text[..banner],
                None => text,
            };
            self.line(read.trim_end(), facts.severity, out);
            self.keep_end(record.line, text.trim_end());
            match &mut self.fatal {
                Some(fatal) => fatal.frame(text),
                None => {
                    if let Some(at) = text.find("Fatal Python error: ") {
                        let head = running_test(text[..at].trim_end()).map(str::to_string);
                        self.fatal = Some(Crash {
                            nodeid: head.or(running),
                            line: record.line,
                            text: briefly_core::cut_str(text[at..].trim_end(), MAX_END_LINE_CHARS)
                                .into_owned(),
                            ..Crash::default()
                        });
                    }
                }
            }
        }
    }

    fn outcome(&mut self, out: &mut dyn Emit<PytestItem>) -> Outcome<PytestStats> {
        self.emit_warning(out);
        self.close_report(out);
        if let Some(internal) = self.internal_error.take() {
            self.emit_internal_error(internal, out);
        }
        let pytest_said = self.pytest_said.take();
        if let Some(usage) = &pytest_said {
            let mut item = PytestItem::noted("pytest-error", "", "", None, &usage.message);
            item.traceback = usage.lines.join("\n");
            out.emit(0, item);
            self.stats.pytest_error = Some(format!(
                "pytest said: {} (line {})",
                usage.message, usage.line
            ));
        }
        let unnamed = std::iter::from_fn(|| self.pending.pop_oldest())
            .chain(std::mem::take(&mut self.crash_lines))
            .collect::<Vec<_>>();
        for report in unnamed {
            let mut nodeid = report.derived_nodeid();
            // A name without its module (a fixture's error in a conftest.py) that `-v`
            // progress gave with it (`-rN -v`): that one, listed once.
            if !nodeid.contains("::") && report.phase != Phase::Collection {
                let kind = match report.phase {
                    Phase::Call => "failed",
                    _ => "error",
                };
                let named = self.progress.iter().position(|&(k, ref id)| {
                    k == kind && id.strip_suffix(&nodeid).is_some_and(|m| m.ends_with("::"))
                });
                if let Some(at) = named {
                    nodeid = self.progress.remove(at).1;
                }
            }
            self.emit_report(Some(report), nodeid, None, out);
        }
        // Named only by `-v` progress (`--tb=no -rN`, or a run cut off before its reports).
        for (kind, nodeid) in std::mem::take(&mut self.progress) {
            self.emit_report(None, nodeid, Some((kind, "")), out);
        }
        let listed = self.emit_listing(out);
        let counts_line = self.counts_line.take().or(self.tentative_counts.take());
        let mut stats = std::mem::take(&mut self.stats);
        let reports = stats.failed.len() + stats.errors.len() + stats.names_left_out as usize;
        let no_counts = counts_line.as_deref().and_then(parse_counts).is_none();
        // The interpreter died: where, in the tests' code, is the run's verdict (and
        // the output's end, which holds its report, is not shown again).
        let fatal = self.fatal.take().filter(|_| no_counts);
        // (Another session's counts may come before or after it: it still stopped one.)
        let mut timeout = self.timeout.take();
        if let Some(timeout) = &mut timeout {
            self.read_cut_timeout(timeout);
            // What the stopped session's progress marked, another session's counts after
            // it notwithstanding.
            for (file, marks) in std::mem::take(&mut timeout.marked) {
                stats.progress_marked.entry(file).or_insert(marks);
            }
        }
        // (A report cut off before the test's frame leaves the output's end to say more.)
        let timeout_placed =
            (timeout.as_ref()).is_some_and(|t| t.test.is_some() || t.first_own.is_some());
        let timed_out = timeout.map(|timeout| self.emit_timeout(timeout, out));
        let show_end = no_counts
            && reports == 0
            && !self.end.is_empty()
            && fatal.is_none()
            && !timeout_placed
            && pytest_said.is_none()
            && !listed.any;
        if let Some(fatal) = &fatal {
            let mut item = PytestItem::noted("crashed", "", "", None, &fatal.text);
            if let Some(nodeid) = &fatal.nodeid {
                item.nodeid = nodeid.clone();
            }
            if let Some((file, line)) = &fatal.place {
                item.file = file.clone();
                item.line = Some(*line);
            }
            item.traceback = std::iter::once(format!("{}: {}", fatal.line, fatal.text))
                .chain(fatal.frames.iter().cloned())
                .collect::<Vec<_>>()
                .join("\n");
            out.emit(0, item);
        }
        if show_end {
            // Nothing else says what happened (pytest hung, timed out or crashed): the
            // output's end, first.
            let lines: Vec<String> = self
                .end
                .iter()
                .map(|(n, text)| format!("{n}: {text}"))
                .collect();
            let mut item = PytestItem::noted("end", "", "", None, "");
            item.traceback = lines.join("\n");
            out.emit(0, item);
        }
        let said_why_unknown = no_counts && pytest_said.is_some();
        let mut summary = match counts_line.as_deref().and_then(parse_counts) {
            Some((counts, duration)) if self.earlier_sessions.count > 0 => {
                // Each session's counts in its words, and their sums in the stats.
                let mut sessions = std::mem::take(&mut self.earlier_sessions);
                add_counts(&mut sessions.sums, &counts);
                stats.counts = Some(sessions.sums);
                stats.counts_known = true;
                stats.duration = Some(duration);
                sessions.lines.push_back(counts_line.expect("parsed"));
                let listed = Vec::from(sessions.lines).join("; ");
                match sessions.count + 1 {
                    n if n as usize > MAX_SESSIONS => {
                        format!("{n} pytest sessions, the last {MAX_SESSIONS}: {listed}")
                    }
                    n => format!("{n} pytest sessions: {listed}"),
                }
            }
            Some((counts, duration)) => {
                stats.counts = Some(counts);
                stats.counts_known = true;
                stats.duration = Some(duration);
                counts_line.expect("parsed")
            }
            None => {
                let why = match &fatal {
                    Some(fatal) => match &fatal.place {
                        Some((file, line)) => {
                            format!("Python died ({}, at {file}:{line})", fatal.text)
                        }
                        None => format!("Python died ({})", fatal.text),
                    },
                    None if timed_out.is_some() => timed_out.clone().unwrap_or_default(),
                    // (Said here, not again after the counts.)
                    None if pytest_said.is_some() => stats.pytest_error.clone().unwrap_or_default(),
                    None => "pytest printed no final counts line (-qq, interrupted or cut off)"
                        .to_string(),
                };
                let mut summary = format!(
                    "counts unknown: {why}; {} failure and {} error reports read",
                    self.reports_read[0], self.reports_read[1]
                );
                if listed.files > 0 {
                    summary.push_str(&format!(
                        "; --collect-only -qq listed {} in {}",
                        briefly_core::plural(listed.tests, "test"),
                        briefly_core::plural(listed.files as u64, "file")
                    ));
                }
                summary
            }
        };
        if reports > 0 {
            let exceptions: Vec<String> = by_count(&stats.by_exception)
                .into_iter()
                .map(|(name, n)| format!("{n} {name}"))
                .collect();
            let modules = stats.by_module.len();
            summary.push_str(&format!(
                "; {} across {modules} module{}",
                exceptions.join(", "),
                if modules == 1 { "" } else { "s" }
            ));
        }
        if let Some(stopped) = &stats.stopped {
            summary.push_str(&format!("; stopped early ({stopped})"));
        }
        if let Some(phrase) = listed.phrase.filter(|_| stats.counts_known) {
            summary.push_str(&phrase);
        }
        if stats.counts_known || timed_out.is_some() {
            stats.running = None;
        } else if let Some(running) = &stats.running {
            summary.push_str(&format!("; the output stopped while {running} was running"));
        }
        // Without counts or reports, the progress's marks are all that says what failed:
        // of the last session, which ended without its counts (another's came before).
        if reports > 0 && timed_out.is_none() {
            stats.progress_marked.clear();
        } else if !stats.progress_marked.is_empty() {
            let [failed, errors] = (stats.progress_marked.values())
                .fold([0, 0], |sum, n| [sum[0] + n[0], sum[1] + n[1]]);
            let files: Vec<&str> = stats
                .progress_marked
                .keys()
                .take(5)
                .map(String::as_str)
                .collect();
            summary.push_str(&format!(
                "; the progress marked {failed} failed and {} (F, E) in {}",
                counted(errors, "error", "errors"),
                files.join(", ")
            ));
        }
        if show_end {
            summary.push_str("; the output's last lines are shown");
        }
        if let Some(said) = stats.pytest_error.as_ref().filter(|_| !said_why_unknown) {
            summary.push_str(&format!("; {said}"));
        }
        if let Some(interrupted) = &stats.interrupted {
            summary.push_str(&format!("; {interrupted}"));
        }
        if let Some(timed_out) = timed_out.as_ref().filter(|_| !no_counts) {
            summary.push_str(&format!("; {timed_out}"));
        }
        let count = |key: &str| {
            stats
                .counts
                .as_ref()
                .and_then(|c| c.get(key))
                .and_then(Value::as_u64)
                .unwrap_or(0)
        };
        // What framing altered (cut lines, invalid UTF-8), as the stage would say it.
        let mut warnings = self.ahead.alterations().warnings();
        if self.junit_input {
            warnings.push(
                "the input is a JUnit XML report, not pytest's terminal output: read it with \
                 --junit (MCP: `junit`)"
                    .to_string(),
            );
        }
        if let Some(lines) = self.headless_reports {
            let before = match lines {
                0 => String::new(),
                n => format!(
                    ": the {} before the first report's headline, of a report whose own was cut, \
                     {} not read (the artifact has {})",
                    counted(n, "line", "lines"),
                    if n == 1 { "is" } else { "are" },
                    if n == 1 { "it" } else { "them" },
                ),
            };
            warnings.push(format!(
                "the output opens inside pytest's reports, their FAILURES heading cut off \
                 (`pytest | tail`?){before}"
            ));
        }
        if stats.counts_known {
            let reported = count("failed") + count("errors");
            if (reports as u64) > reported {
                warnings.push(format!(
                    "pytest counted {reported} failed and errors but {reports} reports were read"
                ));
            }
        }
        // `no tests ran` (exit 5) is not a pass, and neither is a run whose every test was
        // deselected (`-k` matching none: exit 5 too).
        let ran_any = stats.counts.as_ref().is_some_and(|c| {
            c.iter().any(|(k, n)| {
                !matches!(k.as_str(), "deselected" | "warnings" | "warning")
                    && n.as_u64() != Some(0)
            })
        });
        // `--collect-only -qq` prints no counts: its listing of some tests, with no error
        // reported, is its verdict (`run` holds it to the exit code, too).
        let listed_alone = !stats.counts_known && listed.tests > 0;
        let ok = ((stats.counts_known && ran_any) || listed_alone)
            && count("failed") == 0
            && count("errors") == 0
            && reports == 0
            && stats.interrupted.is_none()
            && stats.pytest_error.is_none()
            && timed_out.is_none();
        let mut outcome = Outcome::new(summary, stats);
        outcome.ok = ok;
        outcome.warnings = warnings;
        outcome.cut_next_item = true;
        outcome
    }
}

/// Entries by descending count, then name.
pub(crate) fn by_count(map: &BTreeMap<String, u64>) -> Vec<(&str, u64)> {
    let mut entries: Vec<(&str, u64)> = map.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    entries.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    entries
}

#[cfg(test)]
mod tests {
    use super::{is_headless_summary_line, parse_counts, split_summary};

    #[test]
    fn a_summary_line_is_known_without_its_heading_by_its_node_id() {
        for line in [
            "FAILED a.py::test_x[a - b] - KeyError: 'k'",
            "FAILED tests/a.py::T::test_y",
            "ERROR tests/test_bad.py - ModuleNotFoundError: No module named 'x'",
            "ERROR tests/test_bad.py",
            "XFAIL a.py::test_z - not yet",
            "XPASS a.py::test_w",
        ] {
            assert!(is_headless_summary_line(line), "{line}");
        }
        for line in [
            // A log line, a test's output, another outcome, no file.
            "ERROR app.py could not bind",
            "ERROR 12:00:01 app.py:3 - bind failed",
            "ERROR app.py:3 - bind failed",
            "FAILED: 3 of 10",
            "PASSED a.py::test_x",
            "FAILED test_x - assert 0",
            "FAILED",
        ] {
            assert!(!is_headless_summary_line(line), "{line}");
        }
    }

    #[test]
    fn collect_only_counts_need_their_numbers() {
        let counts = |line| parse_counts(line).map(|(c, _)| serde_json::Value::from(c));
        let listed = serde_json::json!({"collected": 5, "deselected": 1});
        assert_eq!(
            counts("5/6 tests collected (1 deselected) in 0.01s"),
            Some(listed)
        );
        assert_eq!(counts("5/x tests collected (1 deselected) in 0.01s"), None);
        assert_eq!(
            counts("no tests collected in 0.01s"),
            Some(serde_json::json!({"collected": 0}))
        );
    }

    #[test]
    fn a_summary_line_splits_into_its_node_id_and_message() {
        for (rest, split) in [
            (
                "a.py::test_x[a - b] - KeyError: 'k'",
                ("a.py::test_x[a - b]", "KeyError: 'k'"),
            ),
            (
                "a.py::test_eq - assert [1, 2, 3] == [1, 2, 4]",
                ("a.py::test_eq", "assert [1, 2, 3] == [1, 2, 4]"),
            ),
            (
                "a.py::test_p[1-2] - assert [1] == [2]",
                ("a.py::test_p[1-2]", "assert [1] == [2]"),
            ),
            ("a.py::test_y", ("a.py::test_y", "")),
            ("a.py::test_z - ", ("a.py::test_z", "")),
        ] {
            assert_eq!(split_summary(rest), split, "{rest}");
        }
    }
}
