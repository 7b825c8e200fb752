//! What `go test -v` prints of each test before its result. Verbose, a test's output
//! (`    ledger_test.go:88: balance mismatch`) comes between its `=== RUN` and its `---
//! FAIL:`, a record before the failure's (a subtest's result comes after its parent's
//! `--- FAIL:`, in that record); without `-v` it follows the failure, in its record.
//! These lines are held per test until its result, so that a failure's item shows them
//! as the lines before it.

use serde::de::IgnoredAny;
use serde::Deserialize;
use std::borrow::Cow;
use std::collections::{HashMap, VecDeque};

/// Most output lines held, of all the tests still running (a table test's subtests all
/// run before its `--- FAIL:`, their results after it). Past it, a line like another
/// held (`case 7: ok`, `case 8: ok`) goes first, then the oldest: with hundreds of
/// subtests logging alike lines, an early failure's may go.
const MAX_HELD_LINES: usize = 256;

/// The output of the tests `go test -v` has started and not yet passed.
#[derive(Debug, Default)]
pub(crate) struct GoTestOutput {
    /// The test whose output the next lines are (named by the last `=== RUN`, `=== CONT`
    /// or `=== NAME`).
    current: Option<String>,
    /// Output lines held, oldest first.
    held: VecDeque<Held>,
    /// How many held lines have each shape.
    shapes: HashMap<u64, u32>,
    /// The output of the failure just read, for [`GoTestOutput::take_failed`].
    failed: Vec<(u64, String)>,
}

#[derive(Debug)]
struct Held {
    test: String,
    line: u64,
    text: String,
    /// A hash of the text without its digits: lines alike have the same.
    shape: u64,
}

impl GoTestOutput {
    /// Reads line `line`, `text` (held as `kept` gives it). At a failure's result,
    /// `--- FAIL: name (0.00s)`, the output held of that test is set apart for
    /// [`GoTestOutput::take_failed`].
    pub(crate) fn read(&mut self, line: u64, text: &str, kept: impl FnOnce() -> String) {
        // Most lines open with none of `=`, `-` and indentation: one byte rules them out.
        let Some(first @ (b'=' | b'-' | b' ' | b'\t')) = text.as_bytes().first().copied() else {
            return;
        };
        let trimmed = match first {
            b' ' | b'\t' => text.trim_start(),
            _ => text,
        };
        match trimmed.as_bytes().first() {
            Some(b'=') if trimmed.starts_with("=== ") => {
                let name = ["RUN ", "CONT ", "NAME "]
                    .iter()
                    .find_map(|marker| trimmed[4..].strip_prefix(marker));
                self.current = name.map(|name| name.trim().to_string());
            }
            Some(b'-') if trimmed.starts_with("--- ") => {
                let Some((result, rest)) = trimmed[4..].split_once(": ") else {
                    return;
                };
                let name = rest.split(" (").next().unwrap_or(rest).trim();
                match result {
                    // Its subtests' results came before it.
                    "PASS" | "SKIP" => {
                        self.drop_where(|test| {
                            test.strip_prefix(name)
                                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
                        });
                    }
                    "FAIL" => self.take(name),
                    _ => {}
                }
                self.current = None;
            }
            _ if self.current.is_some() && text.starts_with([' ', '\t']) && !trimmed.is_empty() => {
                if self.held.len() == MAX_HELD_LINES {
                    self.evict();
                }
                let text = kept();
                let shape = shape_of(&text);
                *self.shapes.entry(shape).or_default() += 1;
                self.held.push_back(Held {
                    test: self.current.clone().unwrap_or_default(),
                    line,
                    shape,
                    text,
                });
            }
            _ => {}
        }
    }

    /// Whether a failure's output waits for [`GoTestOutput::take_failed`].
    pub(crate) fn has_failed(&self) -> bool {
        !self.failed.is_empty()
    }

    /// The output of the failure just read, moved to `out` after the lines it has (by
    /// number, once each); dropped when `out` is `None` (the line was no Go test
    /// failure's record).
    pub(crate) fn take_failed(&mut self, out: Option<&mut Vec<(u64, String)>>) {
        let Some(out) = out else {
            self.failed.clear();
            return;
        };
        let before = out.len();
        for (line, text) in self.failed.drain(..) {
            if !out[..before].iter().any(|(seen, _)| *seen == line) {
                out.push((line, text));
            }
        }
        out.sort_by_key(|(line, _)| *line);
    }

    /// Sets the lines of test `name` apart (not its subtests': their results say).
    fn take(&mut self, name: &str) {
        for held in self.drop_where(|test| test == name) {
            self.failed.push((held.line, held.text));
        }
    }

    /// Removes the lines of the tests `test` is true of; returns them.
    fn drop_where(&mut self, test: impl Fn(&str) -> bool) -> Vec<Held> {
        let mut dropped = Vec::new();
        for held in std::mem::take(&mut self.held) {
            if test(&held.test) {
                self.forget_shape(&held.shape);
                dropped.push(held);
            } else {
                self.held.push_back(held);
            }
        }
        dropped
    }

    /// Makes room for a line: the oldest line like another held goes, else the oldest.
    fn evict(&mut self) {
        let alike = self
            .held
            .iter()
            .position(|held| self.shapes.get(&held.shape).is_some_and(|&n| n > 1));
        if let Some(held) = self.held.remove(alike.unwrap_or(0)) {
            self.forget_shape(&held.shape);
        }
    }

    fn forget_shape(&mut self, shape: &u64) {
        if let Some(count) = self.shapes.get_mut(shape) {
            *count -= 1;
            if *count == 0 {
                self.shapes.remove(shape);
            }
        }
    }
}

/// FNV-1a of `text` without its digits: lines alike (`case 7: ok`, `case 8: ok`) hash
/// the same.
fn shape_of(text: &str) -> u64 {
    text.bytes()
        .filter(|b| !b.is_ascii_digit())
        .fold(0xcbf2_9ce4_8422_2325, |hash, b| {
            (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        })
}

/// A line of `go test -json` (test2json's events, one JSON object a line), by what it
/// carries of the test's output: the concatenation of the events' `Output` fields is
/// exactly what `go test -v` prints, so an event is read as its line of that output.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum GoTestEvent {
    /// An `output` (or `bench`, `build-output`) event: its output line, without the
    /// newline that ends it.
    Output(String),
    /// An event that carries no output (`start`, `run`, `pass`, `fail` …): what it says
    /// is in the output lines too (`=== RUN`, `--- FAIL: …`, `FAIL\tpkg`). `failed`: a
    /// test's, a package's or a build's failure (`fail`, `build-fail`).
    Bare { failed: bool },
}

/// The events' actions (`go doc cmd/test2json`; `build-output`, `build-fail` since Go
/// 1.24).
const ACTIONS: [&str; 12] = [
    "start",
    "run",
    "pause",
    "cont",
    "pass",
    "bench",
    "fail",
    "output",
    "skip",
    "build-output",
    "build-fail",
    "attr",
];

#[derive(Deserialize)]
struct Event<'a> {
    #[serde(rename = "Action", borrow)]
    action: Cow<'a, str>,
    #[serde(rename = "Package", default)]
    package: Option<Cow<'a, str>>,
    #[serde(rename = "ImportPath", default)]
    import_path: Option<Cow<'a, str>>,
    #[serde(rename = "Output", default)]
    output: Option<String>,
    #[serde(rename = "Test", default, borrow)]
    test: Option<Cow<'a, str>>,
    #[serde(rename = "Elapsed", default)]
    elapsed: Option<IgnoredAny>,
}

/// The keys a test2json event may have (`go doc cmd/test2json`; `Key` and `Value` of an
/// `attr` event, `OutputType` since Go 1.25): an event of `go tool test2json` run
/// without `-p`, which names no package, is told from an application's JSON by having
/// no other.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code, non_snake_case)]
struct EventKeys {
    Time: Option<IgnoredAny>,
    Action: Option<IgnoredAny>,
    Test: Option<IgnoredAny>,
    Elapsed: Option<IgnoredAny>,
    Output: Option<IgnoredAny>,
    FailedBuild: Option<IgnoredAny>,
    Key: Option<IgnoredAny>,
    Value: Option<IgnoredAny>,
    OutputType: Option<IgnoredAny>,
}

/// `line` read as a test2json event: a JSON object that opens with one of the keys
/// test2json writes first (`Time`; `Action` when no time is written, `ImportPath` for a
/// build's), names a known action and the package or build it is of (or, as `go tool
/// test2json` without `-p` writes them, has only test2json's keys and is a test's event,
/// output or a result). Output holding a line break inside (test2json writes one line an event) is not read: the line stays
/// as it is.
#[inline]
pub(crate) fn go_test_event(line: &str) -> Option<GoTestEvent> {
    // Read at every line: its first bytes rule out nearly every one, here.
    match line.as_bytes() {
        [b'{', b'"', ..] => decode_event(line),
        _ => None,
    }
}

fn decode_event(line: &str) -> Option<GoTestEvent> {
    // The keys rule out JSON logs' lines.
    let opens = ["{\"Time\":\"", "{\"Action\":\"", "{\"ImportPath\":\""];
    if !opens.iter().any(|key| line.starts_with(key)) {
        return None;
    }
    let event: Event<'_> = serde_json::from_str(line).ok()?;
    if !ACTIONS.contains(&&*event.action) {
        return None;
    }
    if event.package.is_none() && event.import_path.is_none() {
        // A test's event, output, or a result (with its time taken).
        let of_a_test = event.test.is_some() || event.output.is_some() || event.elapsed.is_some();
        if !of_a_test || serde_json::from_str::<EventKeys>(line).is_err() {
            return None;
        }
    }
    match event.output {
        None => Some(GoTestEvent::Bare {
            failed: matches!(&*event.action, "fail" | "build-fail"),
        }),
        Some(mut output) => {
            if output.ends_with('\n') {
                output.pop();
                if output.ends_with('\r') {
                    output.pop();
                }
            }
            (!output.contains('\n')).then_some(GoTestEvent::Output(output))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{go_test_event, GoTestEvent, GoTestOutput, MAX_HELD_LINES};

    #[test]
    fn a_test2json_event_is_read_as_the_output_it_carries() {
        let output = |s: &str| Some(GoTestEvent::Output(s.to_string()));
        for (line, expected) in [
            (
                r#"{"Time":"2026-12-06T10:00:00.1Z","Action":"output","Package":"example.com/a","Test":"TestA","Output":"    a_test.go:9: got 1\n"}"#,
                output("    a_test.go:9: got 1"),
            ),
            // A cached result's events have no time; a line written in parts, no newline.
            (
                r#"{"Action":"output","Package":"example.com/a","Output":"ok  \texample.com/a\t(cached)\r\n"}"#,
                output("ok  \texample.com/a\t(cached)"),
            ),
            (
                r#"{"Action":"output","Package":"example.com/a","Output":"partial"}"#,
                output("partial"),
            ),
            // Go 1.24's build events name the build, not a package.
            (
                r#"{"ImportPath":"example.com/a [example.com/a.test]","Action":"build-output","Output":"./a.go:3:2: undefined: x\n"}"#,
                output("./a.go:3:2: undefined: x"),
            ),
            (
                r#"{"Time":"2026-12-06T10:00:00Z","Action":"run","Package":"example.com/a","Test":"TestA"}"#,
                Some(GoTestEvent::Bare { failed: false }),
            ),
            (
                r#"{"Time":"2026-12-06T10:00:00Z","Action":"fail","Package":"example.com/a","Elapsed":0.01,"FailedBuild":"example.com/a"}"#,
                Some(GoTestEvent::Bare { failed: true }),
            ),
            // `go tool test2json` without `-p`: no package, only test2json's keys.
            (
                r#"{"Time":"2026-12-06T10:00:00Z","Action":"run","Test":"TestA"}"#,
                Some(GoTestEvent::Bare { failed: false }),
            ),
            (
                r#"{"Time":"2026-12-06T10:00:00Z","Action":"output","Output":"FAIL\n"}"#,
                output("FAIL"),
            ),
            (
                r#"{"Action":"fail","Test":"TestA","Elapsed":0.5}"#,
                Some(GoTestEvent::Bare { failed: true }),
            ),
            // No package and a key of another's, or no test; an action test2json has not,
            // two lines in one event, not JSON, another key first.
            (
                r#"{"Time":"2026-12-06T10:00:00Z","Action":"run","Test":"TestA","user":"x"}"#,
                None,
            ),
            (r#"{"Time":"2026-12-06T10:00:00Z","Action":"start"}"#, None),
            (
                r#"{"Time":"2026-12-06T10:00:00Z","Action":"pass","Elapsed":0.5}"#,
                Some(GoTestEvent::Bare { failed: false }),
            ),
            (
                r#"{"Time":"2026-12-06T10:00:00Z","Action":"login","Package":"a"}"#,
                None,
            ),
            (
                r#"{"Action":"output","Package":"a","Output":"one\ntwo\n"}"#,
                None,
            ),
            (
                r#"{"Time":"2026-12-06T10:00:00Z","Action":"run","Package":"#,
                None,
            ),
            (r#"{"level":"error","Action":"run","Package":"a"}"#, None),
            ("=== RUN   TestA", None),
        ] {
            assert_eq!(go_test_event(line), expected, "{line}");
        }
    }

    /// Reads `lines`; the lines taken at each failure, by the failure's line.
    fn read(lines: &[&str]) -> Vec<(u64, Vec<(u64, String)>)> {
        let mut output = GoTestOutput::default();
        let mut failures = Vec::new();
        for (i, text) in lines.iter().enumerate() {
            output.read(i as u64 + 1, text, || text.to_string());
            if output.has_failed() {
                let mut taken = Vec::new();
                output.take_failed(Some(&mut taken));
                failures.push((i as u64 + 1, taken));
            }
        }
        failures
    }

    #[test]
    fn a_failures_output_is_taken_at_its_result() {
        let failures = read(&[
            "=== RUN   TestAdd",
            "    add_test.go:9: adding",
            "--- PASS: TestAdd (0.00s)",
            "=== RUN   TestLedger",
            "    ledger_test.go:5: setting up",
            "=== RUN   TestLedger/deposit",
            "    ledger_test.go:12: ok so far",
            "=== RUN   TestLedger/overdraft",
            "    ledger_test.go:88: balance mismatch: got 5, want 7",
            "=== RUN   TestLedgerTotals",
            "    totals_test.go:3: other",
            "--- FAIL: TestLedger (0.00s)",
            "    --- PASS: TestLedger/deposit (0.00s)",
            "    --- FAIL: TestLedger/overdraft (0.00s)",
            "--- FAIL: TestAdd (0.00s)",
            "--- FAIL: TestLedgerTotals (0.00s)",
        ]);
        let line = |n: u64, text: &str| (n, text.to_string());
        assert_eq!(
            failures,
            [
                (12, vec![line(5, "    ledger_test.go:5: setting up")]),
                (
                    14,
                    vec![line(
                        9,
                        "    ledger_test.go:88: balance mismatch: got 5, want 7"
                    )]
                ),
                (16, vec![line(11, "    totals_test.go:3: other")]),
            ]
        );
    }

    #[test]
    fn held_lines_are_bounded_and_lines_alike_go_first() {
        let mut lines = vec!["=== RUN   TestMany".to_string()];
        for i in 0..1000 {
            lines.push(format!("=== RUN   TestMany/case_{i}"));
            lines.push(format!("    many_test.go:40: checking case {i}"));
            if i == 500 {
                lines.push("=== RUN   TestMany/overdraft".into());
                lines.push("    many_test.go:88: balance mismatch".into());
            }
        }
        lines.push("--- FAIL: TestMany (1.00s)".into());
        lines.push("    --- FAIL: TestMany/overdraft (0.00s)".into());
        lines.push("=== PAUSE TestOther".into());
        lines.push("    not a test's".into());
        lines.push("--- FAIL: TestOther (0.00s)".into());
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let mut output = GoTestOutput::default();
        let mut failures = Vec::new();
        for (i, text) in lines.iter().enumerate() {
            let mut taken = Vec::new();
            output.read(i as u64 + 1, text, || text.to_string());
            output.take_failed(Some(&mut taken));
            assert!(output.held.len() <= MAX_HELD_LINES);
            assert_eq!(
                output.shapes.values().sum::<u32>() as usize,
                output.held.len()
            );
            failures.extend(taken.into_iter().map(|(_, text)| text));
        }
        assert_eq!(failures, ["    many_test.go:88: balance mismatch"]);
    }
}
