//! Bytes to [`Record`]s, as the budget stage hands lines to a reducer: bounded lines
//! ([`LineFramer`]), checked as UTF-8 (invalid bytes replaced) and for NUL bytes, with
//! counts of what was altered. The stage frames this way on its own thread; a reducer
//! that takes raw chunks may frame the same way elsewhere (on [`crate::Ahead`]'s thread).

use crate::{LineFramer, Record};
use std::borrow::Cow;

/// Frames pushed bytes into checked records. The same bytes give the same records and
/// counts whatever the chunking.
#[derive(Debug)]
pub struct RecordFramer {
    framer: LineFramer,
    replaced_lines: u64,
    nul_lines: u64,
}

/// What framing altered, and how much it framed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Alterations {
    /// Lines framed.
    pub lines: u64,
    /// Lines longer than `max_line_bytes`, cut.
    pub cut_lines: u64,
    /// The framing limit.
    pub max_line_bytes: usize,
    /// Lines whose invalid UTF-8 was replaced by U+FFFD.
    pub replaced_lines: u64,
    /// Lines holding NUL bytes.
    pub nul_lines: u64,
}

impl Alterations {
    /// Whether a record differs from its input line (cut, or bytes replaced): the input
    /// is then only whole in the artifact.
    pub fn lossy(&self) -> bool {
        self.cut_lines > 0 || self.replaced_lines > 0
    }

    /// The envelope's warnings for them.
    pub fn warnings(&self) -> Vec<String> {
        let mut warnings = Vec::new();
        if self.cut_lines > 0 {
            warnings.push(format!(
                "{} longer than {} bytes {} cut (whole in the artifact): only the head was read, for levels, --grep and templates too",
                crate::plural(self.cut_lines, "line"),
                self.max_line_bytes,
                if self.cut_lines == 1 { "was" } else { "were" }
            ));
        }
        if self.replaced_lines > 0 {
            warnings.push(format!(
                "{} invalid UTF-8, replaced by U+FFFD (raw bytes in the artifact)",
                crate::counted(self.replaced_lines, "line held", "lines held")
            ));
        }
        if self.nul_lines > 0 {
            warnings.push(format!(
                "input looks binary: {} NUL bytes",
                crate::counted(self.nul_lines, "line holds", "lines hold")
            ));
        }
        warnings
    }
}

impl RecordFramer {
    /// A framer that keeps at most `max` bytes of any line (as [`LineFramer`]).
    pub fn new_with_max_length(max: usize) -> Self {
        RecordFramer {
            framer: LineFramer::new_with_max_length(max),
            replaced_lines: 0,
            nul_lines: 0,
        }
    }

    /// Frames `chunk`, calling `on_record` for every line it completes.
    pub fn push(&mut self, chunk: &[u8], mut on_record: impl FnMut(&Record<'_>)) {
        let RecordFramer {
            framer,
            replaced_lines,
            nul_lines,
        } = self;
        let checked = Checked::of(chunk);
        framer.push(chunk, |line| {
            check(line, &checked, replaced_lines, nul_lines, &mut on_record)
        });
    }

    /// Ends the input: a last line without a newline.
    pub fn finish(&mut self, mut on_record: impl FnMut(&Record<'_>)) {
        let RecordFramer {
            framer,
            replaced_lines,
            nul_lines,
        } = self;
        let checked = Checked::default();
        framer.finish(|line| check(line, &checked, replaced_lines, nul_lines, &mut on_record));
    }

    /// Counts `chunk`'s bytes and lines without framing them ([`LineFramer::count`]), for
    /// a reducer that takes raw chunks.
    pub fn count(&mut self, chunk: &[u8]) {
        self.framer.count(chunk);
    }

    /// Bytes pushed so far.
    pub fn bytes(&self) -> u64 {
        self.framer.bytes()
    }

    /// Lines framed (or counted) so far, and a last one without a newline once finished.
    pub fn lines(&self) -> u64 {
        self.framer.lines()
    }

    /// What was altered so far.
    pub fn alterations(&self) -> Alterations {
        Alterations {
            lines: self.framer.lines(),
            cut_lines: self.framer.cut_lines(),
            max_line_bytes: self.framer.max_length(),
            replaced_lines: self.replaced_lines,
            nul_lines: self.nul_lines,
        }
    }
}

fn check(
    line: crate::FramedLine<'_>,
    checked: &Checked,
    replaced_lines: &mut u64,
    nul_lines: &mut u64,
    on_record: &mut impl FnMut(&Record<'_>),
) {
    let (valid, no_nul) = checked.known(line.bytes);
    let text = match valid {
        // SAFETY: `line.bytes` lies in the validated part of the chunk and starts and ends
        // at character boundaries: at the chunk's start or after a newline, before a
        // newline or a `\r` (lines the framer cut or joined are in its own buffer).
        true => Cow::Borrowed(unsafe { std::str::from_utf8_unchecked(line.bytes) }),
        // simdutf8 validates valid UTF-8 (nearly every line) several times faster than std.
        false => match simdutf8::basic::from_utf8(line.bytes) {
            Ok(text) => Cow::Borrowed(text),
            Err(_) => {
                *replaced_lines += 1;
                String::from_utf8_lossy(line.bytes)
            }
        },
    };
    if !no_nul && memchr::memchr(0, line.bytes).is_some() {
        *nul_lines += 1;
    }
    on_record(&Record {
        text: &text,
        bytes: line.bytes,
        line: line.line,
        offset: line.offset,
        cut: line.cut,
        crlf: line.crlf,
    });
}

/// What one pass over a pushed chunk says of the lines framed from it, so that a line
/// inside it is not checked again by itself: per-line checks cost most on short lines.
#[derive(Debug, Default)]
struct Checked {
    /// The chunk's address range (empty when there is none).
    start: usize,
    end: usize,
    /// Where its valid UTF-8 ends, and its first NUL byte.
    valid_end: usize,
    first_nul: usize,
}

impl Checked {
    fn of(chunk: &[u8]) -> Checked {
        let start = chunk.as_ptr() as usize;
        let valid = match simdutf8::compat::from_utf8(chunk) {
            Ok(_) => chunk.len(),
            Err(e) => e.valid_up_to(),
        };
        let nul = memchr::memchr(0, chunk).unwrap_or(chunk.len());
        Checked {
            start,
            end: start + chunk.len(),
            valid_end: start + valid,
            first_nul: start + nul,
        }
    }

    /// (valid UTF-8, free of NUL bytes), each true when known from the chunk; a line
    /// outside it (joined across chunks) is not known.
    fn known(&self, line: &[u8]) -> (bool, bool) {
        if line.is_empty() {
            return (true, true);
        }
        let start = line.as_ptr() as usize;
        let end = start + line.len();
        let inside = self.start < self.end && start >= self.start && end <= self.end;
        (
            inside && end <= self.valid_end,
            inside && end <= self.first_nul,
        )
    }
}
