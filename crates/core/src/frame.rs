//! Bounded line framing: bytes in, lines out, no line longer than the limit in memory.

/// Ends the text of a line the framing cut (`--max-line-bytes`), wherever a reducer shows
/// it (a log's line, a diff's patch): its head is all that was read, the artifact has the
/// rest.
pub const LINE_CUT_MARKER: &str = "…[line cut: whole in the artifact]";

/// The longest line kept whole by default; the rest of a longer line is counted, not kept.
pub const DEFAULT_MAX_LINE_BYTES: usize = 1 << 20;

/// One framed line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FramedLine<'a> {
    /// The line without its `\n` (or `\r\n`), and the first without a UTF-8 byte-order
    /// mark opening the input; at most the framer's limit, cut back to a UTF-8 character
    /// boundary when `cut`.
    pub bytes: &'a [u8],
    /// 1-based line number.
    pub line: u64,
    /// Byte offset of the line's start in the input.
    pub offset: u64,
    /// Bytes the line took in the input, newline included.
    pub len: u64,
    /// The line was longer than the limit: `bytes` holds its head, the rest was skipped.
    pub cut: bool,
    /// The line ended in `\r\n`; the `\r` is not in `bytes`.
    pub crlf: bool,
}

/// The UTF-8 byte-order mark, which Windows tools (PowerShell's `Out-File`) write first.
pub const UTF8_BOM: &[u8] = b"\xef\xbb\xbf";

/// Splits a byte stream into lines, pushed in chunks of any size.
///
/// Like tokio-util's `LinesCodec::new_with_max_length`, the limit is in the constructor
/// and going over it is recoverable: the line's first `max` bytes are kept, the rest is
/// skipped up to the next newline, the line is marked `cut`, and framing goes on. The
/// same bytes give the same lines whatever the chunking.
#[derive(Debug)]
pub struct LineFramer {
    max: usize,
    /// The head of the current line when it spans chunks (at most `max` bytes).
    partial: Vec<u8>,
    partial_len: u64,
    cut: bool,
    line: u64,
    offset: u64,
    bytes: u64,
    cut_lines: u64,
}

impl LineFramer {
    /// A framer that keeps at most `max` bytes of any line (`max` ≥ 1).
    pub fn new_with_max_length(max: usize) -> Self {
        LineFramer {
            max: max.max(1),
            partial: Vec::new(),
            partial_len: 0,
            cut: false,
            line: 0,
            offset: 0,
            bytes: 0,
            cut_lines: 0,
        }
    }

    /// Frames `chunk`, calling `on_line` for every line it completes.
    pub fn push(&mut self, chunk: &[u8], mut on_line: impl FnMut(FramedLine<'_>)) {
        self.bytes += chunk.len() as u64;
        let mut rest = chunk;
        while let Some(newline) = memchr::memchr(b'\n', rest) {
            let segment = &rest[..newline];
            rest = &rest[newline + 1..];
            if self.partial_len == 0 && segment.len() <= self.max {
                // The common case: the whole line is in this chunk; no copy.
                let len = segment.len() as u64 + 1;
                self.emit(segment, len, false, true, &mut on_line);
            } else {
                self.append(segment);
                let partial = std::mem::take(&mut self.partial);
                let (len, cut) = (self.partial_len + 1, self.cut);
                self.emit(&partial, len, cut, true, &mut on_line);
                self.partial = partial;
                self.partial.clear();
                self.partial_len = 0;
                self.cut = false;
            }
        }
        self.append(rest);
    }

    /// Counts `chunk`'s bytes and lines without framing them, for a reducer that takes
    /// raw chunks: one vectorised pass instead of work per line (short lines cost most).
    pub fn count(&mut self, chunk: &[u8]) {
        self.bytes += chunk.len() as u64;
        match memchr::memrchr(b'\n', chunk) {
            Some(last) => {
                self.line += count_newlines(chunk);
                self.partial_len = (chunk.len() - last - 1) as u64;
            }
            None => self.partial_len += chunk.len() as u64,
        }
    }

    /// Ends the input: frames a last line that had no newline.
    pub fn finish(&mut self, mut on_line: impl FnMut(FramedLine<'_>)) {
        if self.partial_len > 0 {
            let partial = std::mem::take(&mut self.partial);
            let (len, cut) = (self.partial_len, self.cut);
            self.emit(&partial, len, cut, false, &mut on_line);
            self.partial_len = 0;
            self.cut = false;
        }
    }

    /// Lines framed so far.
    pub fn lines(&self) -> u64 {
        self.line
    }

    /// Bytes pushed so far.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Lines that were longer than the limit.
    pub fn cut_lines(&self) -> u64 {
        self.cut_lines
    }

    /// The limit given to the constructor.
    pub fn max_length(&self) -> usize {
        self.max
    }

    fn append(&mut self, segment: &[u8]) {
        self.partial_len += segment.len() as u64;
        let room = self.max - self.partial.len();
        if segment.len() > room {
            self.cut = true;
        }
        self.partial
            .extend_from_slice(&segment[..segment.len().min(room)]);
    }

    /// Frames one line of `len` bytes in the input, `bytes` of it kept; `ended`: by a
    /// newline (not the input's end).
    fn emit(
        &mut self,
        bytes: &[u8],
        len: u64,
        cut: bool,
        ended: bool,
        on_line: &mut impl FnMut(FramedLine<'_>),
    ) {
        self.line += 1;
        let mut bytes = bytes;
        let mut crlf = false;
        if cut {
            self.cut_lines += 1;
            bytes = &bytes[..utf8_boundary(bytes)];
        } else if let [head @ .., b'\r'] = bytes {
            // A last line's `\r` with no newline after it is dropped too, but ends no CRLF.
            bytes = head;
            crlf = ended;
        }
        if self.line == 1 {
            // A byte-order mark is no part of the text (Windows tools write one):
            // left in, the first line would not read as it shows.
            bytes = bytes.strip_prefix(UTF8_BOM).unwrap_or(bytes);
        }
        on_line(FramedLine {
            bytes,
            line: self.line,
            offset: self.offset,
            len,
            cut,
            crlf,
        });
        self.offset += len;
    }
}

/// The newlines (`\n`) in `bytes`, as the pipeline counts lines: byte-wide counters over
/// blocks of 255, which the compiler vectorises (an iterator of matches costs a call per
/// match).
///
/// ```
/// assert_eq!(briefly_core::count_newlines(b"a\nb\r\n\nc"), 3);
/// ```
pub fn count_newlines(bytes: &[u8]) -> u64 {
    bytes
        .chunks(255)
        .map(|block| block.iter().fold(0u8, |n, &b| n + u8::from(b == b'\n')) as u64)
        .sum()
}

/// Characters in UTF-8 bytes as the budget counts them: each byte that does not continue
/// a sequence counts one (so does each invalid byte), counted as [`count_newlines`] counts.
pub fn count_chars(bytes: &[u8]) -> u64 {
    bytes
        .chunks(255)
        .map(|block| {
            // Continuation bytes are 0x80..=0xBF, below -0x40 as signed bytes.
            block
                .iter()
                .fold(0u8, |n, &b| n + u8::from(b as i8 >= -0x40)) as u64
        })
        .sum()
}

/// The length of `bytes` without a UTF-8 sequence cut short at its end.
fn utf8_boundary(bytes: &[u8]) -> usize {
    let len = bytes.len();
    // Look back at most 3 bytes for the lead byte of a sequence that does not fit.
    for back in 1..=len.min(3) {
        let b = bytes[len - back];
        if b & 0xC0 == 0x80 {
            continue; // continuation byte: keep looking for its lead
        }
        let need = match b {
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            _ => 1,
        };
        return if need > back { len - back } else { len };
    }
    len
}

#[cfg(test)]
mod tests {
    use super::*;

    type Line = (Vec<u8>, u64, u64, u64, bool);

    fn frame(input: &[u8], max: usize, chunk: usize) -> (Vec<Line>, u64) {
        let mut framer = LineFramer::new_with_max_length(max);
        let mut out = Vec::new();
        let mut collect =
            |l: FramedLine<'_>| out.push((l.bytes.to_vec(), l.line, l.offset, l.len, l.cut));
        for piece in input.chunks(chunk.max(1)) {
            framer.push(piece, &mut collect);
        }
        framer.finish(&mut collect);
        (out, framer.cut_lines())
    }

    #[test]
    fn same_lines_for_every_chunking() {
        let input = "alpha\nbeta\r\n\nvery long line over the limit\nlast é".as_bytes();
        let reference = frame(input, 12, 8192);
        for chunk in [1, 2, 3, 7, 11, 64] {
            assert_eq!(frame(input, 12, chunk), reference, "chunk {chunk}");
        }
        let (lines, cut) = reference;
        assert_eq!(lines[0], (b"alpha".to_vec(), 1, 0, 6, false));
        assert_eq!(
            lines[1],
            (b"beta".to_vec(), 2, 6, 6, false),
            "the \\r of \\r\\n is not in the line"
        );
        assert_eq!(lines[2], (b"".to_vec(), 3, 12, 1, false));
        assert_eq!(lines[3], (b"very long li".to_vec(), 4, 13, 30, true));
        assert_eq!(lines[4], ("last é".as_bytes().to_vec(), 5, 43, 7, false));
        assert_eq!(cut, 1);
    }

    #[test]
    fn a_byte_order_mark_opening_the_input_is_not_in_its_first_line() {
        let input = b"\xef\xbb\xbfERROR x\r\n\xef\xbb\xbfnext\n";
        for chunk in [1, 2, 3, 8192] {
            let (lines, _) = frame(input, 100, chunk);
            // Where the line starts and the bytes it took stay those of the input.
            assert_eq!(lines[0], (b"ERROR x".to_vec(), 1, 0, 12, false), "{chunk}");
            assert_eq!(
                lines[1].0, b"\xef\xbb\xbfnext",
                "one further in is a character of the text"
            );
        }
        assert_eq!(frame(b"\xef\xbb\xbf", 100, 1).0[0].0, b"");
    }

    #[test]
    fn offsets_and_lengths_cover_the_input() {
        let input = b"a\nbb\nccc";
        let (lines, _) = frame(input, 100, 1);
        let total: u64 = lines.iter().map(|l| l.3).sum();
        assert_eq!(total, input.len() as u64);
        assert_eq!(
            lines.last().unwrap().2 + lines.last().unwrap().3,
            input.len() as u64
        );
    }

    #[test]
    fn empty_input_has_no_lines() {
        assert!(frame(b"", 10, 1).0.is_empty());
        assert_eq!(frame(b"\n", 10, 1).0.len(), 1);
    }

    #[test]
    fn never_splits_a_character_when_cutting() {
        // "ééé" is 6 bytes; a limit of 5 must keep 4 bytes (two whole characters).
        let (lines, _) = frame("ééé\n".as_bytes(), 5, 1);
        assert_eq!(lines[0].0, "éé".as_bytes());
        let (lines, _) = frame("a€\n".as_bytes(), 3, 2);
        assert_eq!(lines[0].0, b"a");
        assert!(lines[0].4);
    }

    #[test]
    fn huge_line_is_bounded() {
        let mut input = vec![b'x'; 5_000_000];
        input.push(b'\n');
        input.extend_from_slice(b"next\n");
        let mut framer = LineFramer::new_with_max_length(1024);
        let mut seen = Vec::new();
        for piece in input.chunks(65536) {
            framer.push(piece, |l| seen.push((l.bytes.len(), l.cut, l.len)));
            assert!(
                framer.partial.capacity() <= 1024 * 2,
                "buffer grew past the limit"
            );
        }
        framer.finish(|l| seen.push((l.bytes.len(), l.cut, l.len)));
        assert_eq!(seen, vec![(1024, true, 5_000_001), (4, false, 5)]);
    }

    #[test]
    fn crlf_is_reported() {
        let mut framer = LineFramer::new_with_max_length(100);
        let mut seen = Vec::new();
        framer.push(b"a\r\nb\nc\r", |l| seen.push((l.bytes.to_vec(), l.crlf)));
        framer.finish(|l| seen.push((l.bytes.to_vec(), l.crlf)));
        assert_eq!(
            seen,
            vec![
                (b"a".to_vec(), true),
                (b"b".to_vec(), false),
                // A last `\r` is dropped, but no newline follows it.
                (b"c".to_vec(), false)
            ]
        );
    }

    #[test]
    fn counting_agrees_with_framing_in_any_chunking() {
        let mut input = Vec::new();
        for i in 0..700u32 {
            input.extend(std::iter::repeat_n(b' ', (i % 13) as usize));
            input.extend_from_slice("é{\"a\":1}".as_bytes());
            if i % 5 != 0 {
                input.push(b'\n');
            }
        }
        for cut in [0, 1, input.len() / 2, input.len()] {
            let input = &input[..cut];
            let mut framed = LineFramer::new_with_max_length(1);
            for piece in input.chunks(64) {
                framed.push(piece, |_| {});
            }
            framed.finish(|_| {});
            let want = (framed.bytes(), framed.lines());
            for chunk in [1, 7, 256, 8192] {
                let mut counted = LineFramer::new_with_max_length(1);
                for piece in input.chunks(chunk) {
                    counted.count(piece);
                }
                counted.finish(|_| {});
                assert_eq!(
                    (counted.bytes(), counted.lines()),
                    want,
                    "chunks of {chunk}"
                );
            }
            let chars = input.iter().filter(|&&b| b & 0xC0 != 0x80).count() as u64;
            assert_eq!(count_chars(input), chars);
        }
    }
}
