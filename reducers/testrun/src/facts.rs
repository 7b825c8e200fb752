//! What a line of test output says by itself, worked out one batch ahead of the parsing
//! (on [`Ahead`](briefly_core::Ahead)'s thread): the line without its ANSI codes and the
//! severity of that text.

use briefly_core::{strip_ansi, Prepare, Record, Records};
use briefly_severity::{Inspection, Severity};

/// Reads [`LineFacts`] for each line.
#[derive(Debug, Default)]
pub struct Facts {
    /// Also classify the text after a four-space indent (nextest's captured output).
    indented: bool,
    /// Scratch for the severities of a batch's lines.
    inspections: Vec<Inspection>,
    /// Scratch: whether each line of a batch is free of ANSI codes.
    plain: Vec<bool>,
}

impl Facts {
    /// Facts with [`LineFacts::indented_severity`] when `indented`.
    pub(crate) fn new(indented: bool) -> Self {
        Facts {
            indented,
            inspections: Vec::new(),
            plain: Vec::new(),
        }
    }
}

/// A line without its ANSI codes (when it had some), and the severity of that text
/// without its trailing space.
#[derive(Debug, Default)]
pub struct LineFacts {
    stripped: Option<String>,
    /// The severity of the line's text without trailing space.
    pub(crate) severity: Option<Severity>,
    /// The severity of that text after its four-space indent, when it has one and the
    /// facts were asked for it.
    pub(crate) indented_severity: Option<Severity>,
}

impl LineFacts {
    /// The line's text without ANSI codes; `text` is the record's.
    pub(crate) fn text<'a>(&'a self, text: &'a str) -> &'a str {
        self.stripped.as_deref().unwrap_or(text)
    }

    /// The facts of a line that is no record of the input (a diagnostic cargo's JSON
    /// renders), found here rather than ahead.
    pub(crate) fn of(text: &str) -> LineFacts {
        let stripped = strip_ansi(text, None);
        let severity = briefly_severity::classify(stripped.as_deref().unwrap_or(text).trim_end());
        LineFacts {
            stripped,
            severity,
            indented_severity: None,
        }
    }

    fn fill(&mut self, record: &Record<'_>, indented: bool) {
        self.stripped = strip_ansi(record.text, self.stripped.take());
        let text = self.stripped.as_deref().unwrap_or(record.text);
        self.severity = briefly_severity::classify(text.trim_end());
        self.indented_severity = indented_severity(text, indented);
    }
}

fn indented_severity(text: &str, asked: bool) -> Option<Severity> {
    if !asked {
        return None;
    }
    let content = text.trim_end().strip_prefix("    ")?;
    briefly_severity::classify(content)
}

impl Prepare for Facts {
    type Output = LineFacts;

    fn prepare(&mut self, record: &Record<'_>, out: &mut LineFacts) {
        out.fill(record, self.indented);
    }

    /// Lines without ANSI codes (nearly all) are classified in one call over the
    /// batch's text; the others one by one, once stripped.
    fn prepare_batch(&mut self, records: Records<'_>, outs: &mut [LineFacts]) {
        let joined = records.joined();
        let coloured = memchr::memchr(0x1b, joined.as_bytes()).is_some();
        self.plain.clear();
        self.plain.extend((0..records.len()).map(|i| {
            !coloured || memchr::memchr(0x1b, joined[records.text_range(i)].as_bytes()).is_none()
        }));
        let trimmed = |i: usize| {
            let range = records.text_range(i);
            range.start..range.start + joined[range].trim_end().len()
        };
        let plain = &self.plain;
        let lines = (0..records.len()).filter(|&i| plain[i]).map(trimmed);
        briefly_severity::inspect_lines(joined, lines, &mut self.inspections);
        let mut inspections = self.inspections.iter();
        for (i, out) in outs.iter_mut().enumerate() {
            if self.plain[i] {
                out.stripped = None;
                out.severity = inspections.next().and_then(|found| found.severity);
                out.indented_severity =
                    indented_severity(&joined[records.text_range(i)], self.indented);
            } else {
                out.fill(&records.get(i), self.indented);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use briefly_core::testkit::assert_batch_prepares_as_each;

    #[test]
    fn a_batch_is_prepared_as_its_lines_one_by_one() {
        let lines = "test a ... ok\n\
            FAILED tests/test_x.py::test_y - AssertionError: 1 != 2 \t\n\
            \x1b[31merror[E0308]\x1b[0m: mismatched types\n\
                \x20   thread 'main' panicked at src/lib.rs:3:5:\n\
                \x20   ERROR indented\n\
            E   assert 1 == 2\n\
            \n\
            process exited with code 2\r\n";
        for indented in [false, true] {
            assert_batch_prepares_as_each(|| Facts::new(indented), lines);
            // A batch without ANSI codes takes the one-search path for every line.
            let plain: String = lines
                .lines()
                .filter(|l| !l.contains('\x1b'))
                .map(|l| format!("{l}\n"))
                .collect();
            assert_batch_prepares_as_each(|| Facts::new(indented), &plain);
        }
    }
}
