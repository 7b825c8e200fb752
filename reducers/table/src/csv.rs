//! CSV/TSV framed push by push (csv-core: quoted fields, quoted newlines, `""` escapes),
//! in batches of records bounded in count and bytes, whatever the chunking.

use csv_core::{ReadRecordResult, Reader, ReaderBuilder};
use std::borrow::Cow;

/// Records per batch.
const BATCH_RECORDS: usize = 1024;
/// Field bytes per batch: a batch ends early when its records hold this much.
const BATCH_BYTES: usize = 4 << 20;

/// A batch of parsed records: field bytes and where each field ends.
#[derive(Debug, Default)]
pub struct Records {
    data: Vec<u8>,
    /// Per record: where its bytes start in `data`, and the range of `ends` holding its
    /// fields' end offsets into `data`.
    records: Vec<(usize, usize, usize)>,
    ends: Vec<usize>,
    /// Per record: the 1-based line it starts on.
    pub lines: Vec<u64>,
}

impl Records {
    /// Records held.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether none are held.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The fields of record `i`, as bytes.
    pub fn fields(&self, i: usize) -> impl Iterator<Item = &[u8]> + '_ {
        let (mut start, from, to) = self.records[i];
        self.ends[from..to].iter().map(move |&end| {
            let field = &self.data[start..end];
            start = end;
            field
        })
    }

    /// The fields of record `i` as text, borrowed from `valid` (this batch's bytes,
    /// when they are UTF-8: checked once a batch, not once a field), else each made
    /// valid on its own (invalid bytes replaced: `Cow::Owned`).
    pub fn text_fields<'a>(
        &'a self,
        i: usize,
        valid: Option<&'a str>,
    ) -> impl Iterator<Item = Cow<'a, str>> + 'a {
        let (mut start, from, to) = self.records[i];
        self.ends[from..to].iter().map(move |&end| {
            let range = start..end;
            start = end;
            // Fields split at ASCII delimiters, so their ends are character boundaries.
            match valid.and_then(|text| text.get(range.clone())) {
                Some(text) => Cow::Borrowed(text),
                None => String::from_utf8_lossy(&self.data[range]),
            }
        })
    }

    /// This batch's bytes as text, when they are valid UTF-8.
    pub fn utf8(&self) -> Option<&str> {
        std::str::from_utf8(&self.data).ok()
    }

    /// Fields in record `i`.
    pub fn width(&self, i: usize) -> usize {
        let (_, from, to) = self.records[i];
        to - from
    }
}

/// A push parser: bytes in, batches of records out.
pub struct CsvParser {
    reader: Reader,
    batch: Records,
    /// Fields of the record being parsed (offsets into `batch.data`).
    field_ends: Vec<usize>,
    record_start: usize,
    record_line: u64,
    /// The record in progress outgrew `max_record_bytes`: it is dropped when it ends.
    overlong: bool,
    max_record_bytes: usize,
    /// Records dropped for being too long, and the line of the first.
    pub dropped: (u64, Option<u64>),
    /// Quote characters read: an odd count at the end means one was never closed.
    quotes: u64,
    /// The last record's first line, and the lines it took.
    last_record: (u64, u64),
    /// The last record ended at a `\r`: a `\n` after it (CRLF) is counted in the next
    /// record's first line, which csv-core counts only once it reads on.
    after_cr: bool,
    /// The last record ran to the end of the input in a quoted field never closed: its
    /// first line, and the lines it took (the rest of the input, held in one field).
    pub unclosed: Option<(u64, u64)>,
    delimiter: u8,
    /// The first record's fields (the header's).
    width: Option<usize>,
    /// Records with a field over several lines, a line of which is a whole record's
    /// worth of fields, and the first one's line: a quote meant as text (psql's or
    /// cut's TSV, `"Hello`) joined rows into one field.
    pub joined: (u64, Option<u64>),
}

impl CsvParser {
    /// A parser for fields separated by `delimiter`; records longer than
    /// `max_record_bytes` are dropped (and counted).
    pub fn new(delimiter: u8, max_record_bytes: usize) -> Self {
        CsvParser {
            reader: ReaderBuilder::new().delimiter(delimiter).build(),
            batch: Records::default(),
            field_ends: Vec::with_capacity(64),
            record_start: 0,
            record_line: 1,
            overlong: false,
            max_record_bytes,
            dropped: (0, None),
            quotes: 0,
            last_record: (0, 0),
            after_cr: false,
            unclosed: None,
            delimiter,
            width: None,
            joined: (0, None),
        }
    }

    /// Parses `input` (empty at the end of the input); calls `on_batch` with each full
    /// batch, and at the end with the last one.
    pub fn push(&mut self, mut input: &[u8], on_batch: &mut dyn FnMut(Records)) {
        let end = input.is_empty();
        self.quotes += input.iter().filter(|&&b| b == b'"').count() as u64;
        let mut out = [0u8; 16 * 1024];
        let mut ends = [0usize; 256];
        loop {
            // csv-core reads an empty input as the end of the data: only say so at the end.
            if input.is_empty() && !end {
                return;
            }
            if let Some(&first) = input.first().filter(|_| self.after_cr) {
                self.after_cr = false;
                self.record_line += u64::from(first == b'\n');
            }
            let (result, read, written, ended) =
                self.reader.read_record(input, &mut out, &mut ends);
            let terminator = input[..read].last().copied();
            input = &input[read..];
            if !self.overlong {
                self.batch.data.extend_from_slice(&out[..written]);
                // csv-core counts ends from the start of the record's output.
                let record_start = self.record_start;
                self.field_ends
                    .extend(ends[..ended].iter().map(|&e| record_start + e));
                if self.batch.data.len() - self.record_start > self.max_record_bytes {
                    self.overlong = true;
                    self.batch.data.truncate(self.record_start);
                    self.field_ends.clear();
                }
            }
            match result {
                ReadRecordResult::InputEmpty => {
                    if !end {
                        return;
                    }
                }
                ReadRecordResult::OutputFull | ReadRecordResult::OutputEndsFull => {}
                ReadRecordResult::Record => {
                    self.end_record();
                    self.after_cr = terminator == Some(b'\r');
                    if self.batch.len() >= BATCH_RECORDS || self.batch.data.len() >= BATCH_BYTES {
                        on_batch(std::mem::take(&mut self.batch));
                        self.record_start = 0;
                    }
                }
                ReadRecordResult::End => {
                    // Only a quoted field holds a newline: a record of several lines at
                    // the end of input with a quote left open took the rest.
                    let (line, lines) = self.last_record;
                    if self.quotes % 2 == 1 && lines > 1 {
                        self.unclosed = Some((line, lines));
                    }
                    if !self.batch.is_empty() {
                        on_batch(std::mem::take(&mut self.batch));
                        self.record_start = 0;
                    }
                    return;
                }
            }
        }
    }

    fn end_record(&mut self) {
        let line = self.record_line;
        self.record_line = self.reader.line();
        self.last_record = (line, self.record_line - line);
        if self.overlong {
            self.overlong = false;
            self.dropped.0 += 1;
            self.dropped.1.get_or_insert(line);
            self.field_ends.clear();
            return;
        }
        // Only a quoted field holds a newline; a line of it with as many delimiters as a
        // record has (an address's `Springfield, IL` has fewer) is likely a row a stray
        // quote joined to the field.
        let width = *self.width.get_or_insert(self.field_ends.len());
        if self.record_line - line > 1 && width > 1 {
            let starts = std::iter::once(self.record_start).chain(self.field_ends.iter().copied());
            let joined = starts.zip(&self.field_ends).any(|(start, &end)| {
                let field = &self.batch.data[start..end];
                let mut lines = field.split(|&b| b == b'\n').skip(1);
                lines.any(|after| {
                    after.iter().filter(|&&b| b == self.delimiter).count() >= width - 1
                })
            });
            if joined {
                self.joined.0 += 1;
                self.joined.1.get_or_insert(line);
            }
        }
        let from = self.batch.ends.len();
        self.batch.ends.extend_from_slice(&self.field_ends);
        self.field_ends.clear();
        self.batch
            .records
            .push((self.record_start, from, self.batch.ends.len()));
        self.batch.lines.push(line);
        self.record_start = self.batch.data.len();
    }
}

/// The delimiter of a CSV/TSV that opens with `head`: the most frequent of tab, comma,
/// semicolon and pipe outside quotes in its first record, up to its first newline
/// outside quotes (a quoted header may hold one). None when none occurs.
pub fn sniff_delimiter(head: &[u8]) -> Option<u8> {
    let mut counts = [0usize; 4];
    let candidates = [b'\t', b',', b';', b'|'];
    let mut quoted = false;
    for &b in head {
        if b == b'"' {
            quoted = !quoted;
        } else if b == b'\n' && !quoted {
            break;
        } else if !quoted {
            if let Some(i) = candidates.iter().position(|&c| c == b) {
                counts[i] += 1;
            }
        }
    }
    let (i, &n) = counts
        .iter()
        .enumerate()
        .max_by_key(|(i, n)| (**n, 3 - i))?;
    (n > 0).then_some(candidates[i])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(input: &[u8], chunk: usize) -> Vec<Vec<String>> {
        let mut parser = CsvParser::new(b',', 1 << 20);
        let mut rows = Vec::new();
        let mut take = |records: Records| {
            for i in 0..records.len() {
                rows.push(
                    records
                        .fields(i)
                        .map(|f| String::from_utf8_lossy(f).into_owned())
                        .collect(),
                );
            }
        };
        for piece in input.chunks(chunk) {
            parser.push(piece, &mut take);
        }
        parser.push(&[], &mut take);
        rows
    }

    #[test]
    fn quoted_fields_and_newlines_whatever_the_chunking() {
        let input = b"a,b\n\"x,1\",\"two\nlines\"\n\"say \"\"hi\"\"\",3\nlast,";
        let expected = vec![
            vec!["a", "b"],
            vec!["x,1", "two\nlines"],
            vec!["say \"hi\"", "3"],
            vec!["last", ""],
        ];
        for chunk in [1, 3, 7, 1000] {
            assert_eq!(parse(input, chunk), expected, "chunks of {chunk}");
        }
    }

    #[test]
    fn each_record_has_its_first_line_whatever_the_line_ends() {
        let lines = |input: &[u8], chunk: usize| {
            let mut parser = CsvParser::new(b',', 1 << 20);
            let mut lines = Vec::new();
            let mut take = |records: Records| lines.extend_from_slice(&records.lines);
            for piece in input.chunks(chunk) {
                parser.push(piece, &mut take);
            }
            parser.push(&[], &mut take);
            lines
        };
        for chunk in [1, 2, 3, 1000] {
            for input in [
                &b"a,b,c\n1,\"x\ny\",3\n4,5\n6,7,8\n"[..],
                b"a,b,c\r\n1,\"x\ny\",3\r\n4,5\r\n6,7,8\r\n",
            ] {
                let shown = String::from_utf8_lossy(input);
                assert_eq!(lines(input, chunk), [1, 2, 4, 5], "{shown:?} by {chunk}");
            }
        }
    }

    #[test]
    fn many_records_span_batches() {
        let input: String = (0..3000).map(|i| format!("{i},{}\n", i * 2)).collect();
        let rows = parse(input.as_bytes(), 4096);
        assert_eq!(rows.len(), 3000);
        assert_eq!(rows[2999], vec!["2999", "5998"]);
    }

    #[test]
    fn records_too_long_are_dropped_and_counted() {
        let mut parser = CsvParser::new(b',', 10);
        let mut n = 0;
        let input = format!("a,b\n{},x\nc,d\n", "y".repeat(50));
        parser.push(input.as_bytes(), &mut |r| n += r.len());
        parser.push(&[], &mut |r| n += r.len());
        assert_eq!(n, 2);
        assert_eq!(parser.dropped, (1, Some(2)));
    }

    #[test]
    fn a_quote_never_closed_is_found() {
        let unclosed = |input: &str| {
            let mut parser = CsvParser::new(b',', 1 << 20);
            parser.push(input.as_bytes(), &mut |_| {});
            parser.push(&[], &mut |_| {});
            parser.unclosed
        };
        assert_eq!(unclosed("a,b\n1,\"oops\n2,3\n4,5\n"), Some((2, 3)));
        assert_eq!(unclosed("a,b\n1,\"two\nlines\"\n2,3\n"), None);
        assert_eq!(unclosed("a,b\n1,5\" screen\n2,3\n"), None);
    }

    #[test]
    fn sniffs_the_delimiter() {
        assert_eq!(sniff_delimiter(b"a\tb\tc"), Some(b'\t'));
        assert_eq!(sniff_delimiter(b"a;b;\"c,d,e\""), Some(b';'));
        assert_eq!(sniff_delimiter(b"a,b"), Some(b','));
        assert_eq!(sniff_delimiter(b"just text"), None);
        // The first record, not the first line: a quoted header may hold a newline.
        assert_eq!(sniff_delimiter(b"\"a\nb\";c;d\n1;2;3"), Some(b';'));
        assert_eq!(sniff_delimiter(b"a;b\nc,d,e,f"), Some(b';'));
    }
}
