//! What `go test -v` prints of each test before its result. Verbose, a test's output
//! (`    ledger_test.go:88: balance mismatch`) comes between its `=== RUN` and its `---
//! FAIL:`, a record before the failure's (a subtest's result comes after its parent's
//! `--- FAIL:`, in that record); without `-v` it follows the failure, in its record.
//! These lines are held per test until its result, so that a failure's item shows them
//! as the lines before it.

use std::collections::{HashMap, VecDeque};

/// Most output lines held, of all the tests still running. Past it, a line like another
/// held (`case 7: ok`, `case 8: ok`) goes first, then the oldest.
const MAX_HELD_LINES: usize = 32;

/// The output of the tests `go test -v` has started and not yet passed.
#[derive(Debug, Default)]
pub(crate) struct GoTestOutput {
    /// The test whose output the next lines are (named by the last `=== RUN`, `=== CONT`
    /// or `=== NAME`).
    current: Option<String>,
    /// Output lines held, oldest first.
    held: VecDeque<Held>,
    /// How many held lines have each shape.
    shapes: HashMap<String, u32>,
}

#[derive(Debug)]
struct Held {
    test: String,
    line: u64,
    text: String,
    /// The text without its digits: lines alike have the same.
    shape: String,
}

impl GoTestOutput {
    /// Reads line `line`, `text` (held as `kept` gives it). At a failure's result,
    /// `--- FAIL: name (0.00s)`, the output held of that test is moved to `failed`,
    /// after the lines it has, by number and once each.
    pub(crate) fn read(
        &mut self,
        line: u64,
        text: &str,
        kept: impl FnOnce() -> String,
        failed: &mut Vec<(u64, String)>,
    ) {
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
                    "FAIL" => self.take(name, failed),
                    _ => {}
                }
                self.current = None;
            }
            _ if self.current.is_some() && text.starts_with([' ', '\t']) && !trimmed.is_empty() => {
                if self.held.len() == MAX_HELD_LINES {
                    self.evict();
                }
                let text = kept();
                let shape: String = text.chars().filter(|c| !c.is_ascii_digit()).collect();
                *self.shapes.entry(shape.clone()).or_default() += 1;
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

    /// Moves the lines of test `name` (not its subtests': their results say) to `out`.
    fn take(&mut self, name: &str, out: &mut Vec<(u64, String)>) {
        let before = out.len();
        for held in self.drop_where(|test| test == name) {
            if !out[..before].iter().any(|(line, _)| *line == held.line) {
                out.push((held.line, held.text));
            }
        }
        if out.len() > before {
            out.sort_by_key(|(line, _)| *line);
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

    fn forget_shape(&mut self, shape: &str) {
        if let Some(count) = self.shapes.get_mut(shape) {
            *count -= 1;
            if *count == 0 {
                self.shapes.remove(shape);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{GoTestOutput, MAX_HELD_LINES};

    /// Reads `lines`; the lines taken at each failure, by the failure's line.
    fn read(lines: &[&str]) -> Vec<(u64, Vec<(u64, String)>)> {
        let mut output = GoTestOutput::default();
        let mut failures = Vec::new();
        for (i, text) in lines.iter().enumerate() {
            let mut taken = Vec::new();
            output.read(i as u64 + 1, text, || text.to_string(), &mut taken);
            if !taken.is_empty() {
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
            output.read(i as u64 + 1, text, || text.to_string(), &mut taken);
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
