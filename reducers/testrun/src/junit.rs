//! `briefly pytest --junit`: a JUnit XML report (pytest's `--junitxml`), read as a stream
//! of tags in bounded memory; the same items and stats as pytest's terminal output.
//!
//! JUnit names tests by `classname` and `name`, not by pytest node id: the node id is
//! made again from them, the module's path from the `file` attribute when the report has
//! it (`-o junit_family=xunit1`), else from the classname's dotted module before its first
//! class (`tests.test_m.TestC` → `tests/test_m.py::TestC`). The counts come from the
//! `<testsuite>` attributes (`tests`, `failures`, `errors`, `skipped`, of which the
//! `pytest.xfail` skips are xfailed); `passed` is `tests` less the others.

use crate::pytest::{Pytest, PytestItem, PytestOptions, PytestStats, Report};
use crate::TestRunError;
use briefly_core::{Emit, Flow, Framing, Outcome, Record, Reducer};
use std::collections::HashMap;

/// Longest tag kept (its attributes); the rest of a longer tag is dropped.
pub const MAX_TAG_BYTES: usize = 64 * 1024;
/// Longest text line kept inside an element.
const MAX_TEXT_LINE: usize = 4 * 1024;

#[derive(Debug, Default, Clone, Copy)]
struct Suite {
    tests: u64,
    failures: u64,
    errors: u64,
    skipped: u64,
    time: f64,
}

/// Where element text goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Capture {
    None,
    Failure,
    Output,
}

/// The JUnit XML reducer.
#[derive(Debug)]
pub struct Junit {
    pytest: Pytest,
    lines: usize,
    in_tag: bool,
    tag: Vec<u8>,
    tag_cut: bool,
    text: Vec<u8>,
    capture: Capture,
    case: Option<Case>,
    suites: Vec<Suite>,
    suite_depth: u32,
    malformed: u64,
    /// Tests skipped as expected failures (`<skipped type="pytest.xfail">`).
    xfailed: u64,
}

#[derive(Debug)]
struct Case {
    nodeid: String,
    kind: Option<&'static str>,
    message: String,
    report: Report,
}

impl Junit {
    /// A reducer with these options.
    pub fn new(options: PytestOptions) -> Result<Self, TestRunError> {
        let lines = options.lines;
        Ok(Junit {
            pytest: Pytest::new(options)?,
            lines,
            in_tag: false,
            tag: Vec::new(),
            tag_cut: false,
            text: Vec::new(),
            capture: Capture::None,
            case: None,
            suites: Vec::new(),
            suite_depth: 0,
            malformed: 0,
            xfailed: 0,
        })
    }

    fn text_line(&mut self) {
        let line = decode(&String::from_utf8_lossy(&self.text));
        self.text.clear();
        if let Some(case) = &mut self.case {
            if self.capture != Capture::None {
                let line = line.trim_end();
                case.report.push(line, briefly_severity::classify(line));
            }
        }
    }

    fn tag(&mut self, out: &mut dyn Emit<PytestItem>) {
        let tag = String::from_utf8_lossy(&self.tag).into_owned();
        self.tag.clear();
        self.tag_cut = false;
        if tag.starts_with('?') || tag.starts_with('!') {
            return;
        }
        if let Some(name) = tag.strip_prefix('/') {
            self.close(name.trim(), out);
            return;
        }
        let self_closing = tag.ends_with('/');
        let tag = tag.trim_end_matches('/');
        let (name, attributes) = tag.split_once(char::is_whitespace).unwrap_or((tag, ""));
        let attributes = parse_attributes(attributes);
        let attr = |key: &str| attributes.get(key).cloned().unwrap_or_default();
        match name {
            "testsuite" => {
                let n = |key: &str| attr(key).parse::<u64>().unwrap_or(0);
                self.suites.push(Suite {
                    tests: n("tests"),
                    failures: n("failures"),
                    errors: n("errors"),
                    skipped: n("skipped"),
                    time: attr("time").parse().unwrap_or(0.0),
                });
                self.suite_depth += 1;
            }
            "testcase" => {
                let (class, test) = (attr("classname"), attr("name"));
                let file = attributes.get("file").map(String::as_str);
                let nodeid = nodeid_of(&class, &test, file);
                self.case = Some(Case {
                    nodeid,
                    kind: None,
                    message: String::new(),
                    report: Report::new(&test, self.lines),
                });
                if self_closing {
                    self.close("testcase", out);
                }
            }
            "failure" | "error" => {
                if let Some(case) = &mut self.case {
                    case.kind
                        .get_or_insert(if name == "failure" { "failed" } else { "error" });
                    let message = attr("message");
                    case.message = message.lines().next().unwrap_or_default().to_string();
                    if !self_closing {
                        self.capture = Capture::Failure;
                    }
                }
            }
            "skipped" if attr("type") == "pytest.xfail" => self.xfailed += 1,
            "system-out" | "system-err" => {
                if let Some(case) = &mut self.case {
                    if !self_closing {
                        let which = if name == "system-out" {
                            "stdout"
                        } else {
                            "stderr"
                        };
                        // A section title: no severity to look for.
                        case.report
                            .push(&format!("----- Captured {which} -----"), None);
                        self.capture = Capture::Output;
                    }
                }
            }
            _ => {}
        }
    }

    fn close(&mut self, name: &str, out: &mut dyn Emit<PytestItem>) {
        match name {
            "failure" | "error" | "system-out" | "system-err" => {
                if !self.text.is_empty() {
                    self.text_line();
                }
                self.capture = Capture::None;
            }
            "testcase" => {
                if let Some(case) = self.case.take() {
                    if let Some(kind) = case.kind {
                        self.pytest.emit_report(
                            Some(case.report),
                            case.nodeid,
                            Some((kind, case.message.as_str())),
                            out,
                        );
                    }
                }
            }
            "testsuite" => self.suite_depth = self.suite_depth.saturating_sub(1),
            _ => {}
        }
    }
}

/// Whether `head`, an input's first bytes, opens as a JUnit XML report does: a
/// `<testsuites>` or `<testsuite>` element, after an XML declaration, a byte order mark
/// or blank space. Other XML (a coverage report) is not one.
///
/// ```
/// use briefly_testrun::junit::is_junit_report;
///
/// assert!(is_junit_report(b"<?xml version=\"1.0\" encoding=\"utf-8\"?><testsuites>"));
/// assert!(is_junit_report(b"\xef\xbb\xbf  <testsuite name=\"pytest\">"));
/// assert!(!is_junit_report(b"<?xml version=\"1.0\" ?>\n<coverage version=\"7.4\">"));
/// assert!(!is_junit_report(b"============ test session starts ============"));
/// ```
pub fn is_junit_report(head: &[u8]) -> bool {
    let head = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
    let mut head = head.trim_ascii_start();
    if head.starts_with(b"<?xml") {
        let Some(end) = head.windows(2).position(|pair| pair == b"?>") else {
            return false;
        };
        head = head[end + 2..].trim_ascii_start();
    }
    head.starts_with(b"<testsuite")
}

/// A pytest node id from a test case's `classname`, `name` and, when the report has it,
/// `file`: `tests.test_m.TestC`, `test_a` → `tests/test_m.py::TestC::test_a`.
fn nodeid_of(class: &str, test: &str, file: Option<&str>) -> String {
    // A module's own node (its collection failed): pytest names it by its dotted path,
    // `tests.test_m`, with no class.
    if class.is_empty() {
        return match file {
            Some(file) if file.ends_with(".py") => file.to_string(),
            _ if !test.is_empty() && !test.contains(['/', ' ', '[', ':']) => {
                format!("{}.py", test.replace('.', "/"))
            }
            _ => test.to_string(),
        };
    }
    let (module, classes) = match file {
        Some(file) if file.ends_with(".py") => {
            let dotted = file.trim_end_matches(".py").replace('/', ".");
            let classes = (class.strip_prefix(dotted.as_str()))
                .filter(|rest| rest.is_empty() || rest.starts_with('.'))
                .unwrap_or(class);
            (
                file.to_string(),
                classes.trim_start_matches('.').to_string(),
            )
        }
        // Modules are lower case by custom and classes capitalised (`TestC`).
        _ => {
            let parts: Vec<&str> = class.split('.').collect();
            let first_class = (parts.iter())
                .position(|part| part.starts_with(|c: char| c.is_ascii_uppercase()))
                .unwrap_or(parts.len());
            let module = format!("{}.py", parts[..first_class].join("/"));
            (module, parts[first_class..].join("::"))
        }
    };
    match classes.is_empty() {
        true => format!("{module}::{test}"),
        false => format!("{module}::{}::{test}", classes.replace('.', "::")),
    }
}

/// `a="1" b='x &amp; y'` → {a: 1, b: x & y}.
fn parse_attributes(text: &str) -> HashMap<String, String> {
    let mut attributes = HashMap::new();
    let mut rest = text.trim();
    while let Some((name, after)) = rest.split_once('=') {
        let after = after.trim_start();
        let Some(quote) = after.chars().next().filter(|q| *q == '"' || *q == '\'') else {
            break;
        };
        let Some((value, tail)) = after[1..].split_once(quote) else {
            break;
        };
        attributes.insert(name.trim().to_string(), decode(value));
        rest = tail.trim_start();
    }
    attributes
}

/// XML entities and character references decoded.
fn decode(text: &str) -> String {
    if !text.contains('&') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let Some(end) = rest.find(';').filter(|&end| end <= 10) else {
            out.push('&');
            rest = &rest[1..];
            continue;
        };
        let entity = &rest[1..end];
        let decoded = match entity {
            "lt" => Some('<'),
            "gt" => Some('>'),
            "amp" => Some('&'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ => entity
                .strip_prefix("#x")
                .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                .or_else(|| entity.strip_prefix('#').and_then(|d| d.parse().ok()))
                .and_then(char::from_u32),
        };
        match decoded {
            Some(c) => {
                out.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

impl Reducer for Junit {
    type Item = PytestItem;
    type Stats = PytestStats;

    fn framing(&self) -> Framing {
        Framing::Raw
    }

    fn record(&mut self, _record: &Record<'_>, _out: &mut dyn Emit<PytestItem>) -> Flow {
        Flow::Continue
    }

    fn chunk(&mut self, bytes: &[u8], _offset: u64, out: &mut dyn Emit<PytestItem>) -> Flow {
        for &byte in bytes {
            if self.in_tag {
                if byte == b'>' {
                    self.in_tag = false;
                    self.tag(out);
                } else if self.tag.len() < MAX_TAG_BYTES {
                    self.tag.push(byte);
                } else {
                    self.tag_cut = true;
                }
            } else if byte == b'<' {
                if self.capture != Capture::None && !self.text.is_empty() {
                    self.text_line();
                }
                self.text.clear();
                self.in_tag = true;
            } else if self.capture != Capture::None {
                if byte == b'\n' {
                    self.text_line();
                } else if self.text.len() < MAX_TEXT_LINE {
                    self.text.push(byte);
                }
            }
        }
        Flow::Continue
    }

    fn finish(&mut self, out: &mut dyn Emit<PytestItem>) -> Outcome<PytestStats> {
        if self.in_tag || self.case.is_some() {
            self.malformed += 1;
        }
        if let Some(case) = self.case.take() {
            if let Some(kind) = case.kind {
                self.pytest.emit_report(
                    Some(case.report),
                    case.nodeid,
                    Some((kind, &case.message)),
                    out,
                );
            }
        }
        if !self.suites.is_empty() {
            let sum = self.suites.iter().fold(Suite::default(), |a, s| Suite {
                tests: a.tests + s.tests,
                failures: a.failures + s.failures,
                errors: a.errors + s.errors,
                skipped: a.skipped + s.skipped,
                time: a.time + s.time,
            });
            let passed = sum
                .tests
                .saturating_sub(sum.failures + sum.errors + sum.skipped);
            let xfailed = self.xfailed.min(sum.skipped);
            let mut parts = Vec::new();
            for (n, word) in [
                (sum.failures, "failed"),
                (passed, "passed"),
                (sum.skipped - xfailed, "skipped"),
                (xfailed, "xfailed"),
                (sum.errors, if sum.errors == 1 { "error" } else { "errors" }),
            ] {
                if n > 0 {
                    parts.push(format!("{n} {word}"));
                }
            }
            let counts = if parts.is_empty() {
                "no tests ran".to_string()
            } else {
                parts.join(", ")
            };
            self.pytest
                .set_counts_line(format!("{counts} in {:.2}s", sum.time));
        }
        let mut outcome = self.pytest.finish(out);
        outcome.summary = format!("JUnit report: {}", outcome.summary);
        if self.suites.is_empty() {
            outcome.ok = false;
            outcome
                .warnings
                .push("no <testsuite> element: not a JUnit report, or cut off".into());
        }
        if self.malformed > 0 {
            outcome
                .warnings
                .push("the XML ends inside an element: the report is cut off".into());
        }
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_ids_are_made_again_from_classname_name_and_file() {
        let cases = [
            (
                "tests.test_m.TestC",
                "test_a",
                None,
                "tests/test_m.py::TestC::test_a",
            ),
            ("test_m", "test_a", None, "test_m.py::test_a"),
            (
                "tests.test_m.TestC",
                "test_a",
                Some("tests/test_m.py"),
                "tests/test_m.py::TestC::test_a",
            ),
            // The file's module ends where a name does: test_a is not test_ab's.
            (
                "tests.test_ab.TestC",
                "test_a",
                Some("tests/test_a.py"),
                "tests/test_a.py::tests::test_ab::TestC::test_a",
            ),
            // A module whose collection failed: its own node, named by its dotted path.
            ("", "tests.test_m", None, "tests/test_m.py"),
            ("", "test_m", Some("test_m.py"), "test_m.py"),
            ("", "weird name", None, "weird name"),
        ];
        for (class, test, file, nodeid) in cases {
            assert_eq!(nodeid_of(class, test, file), nodeid);
        }
    }

    #[test]
    fn decodes_entities_and_attributes() {
        assert_eq!(
            decode("a &lt;b&gt; &amp; &#10;&#x41;&quot;"),
            "a <b> & \nA\""
        );
        let attributes = parse_attributes(r#"name="t&amp;1" line='3'"#);
        assert_eq!(attributes["name"], "t&1");
        assert_eq!(attributes["line"], "3");
    }
}
