//! Input in UTF-16, read as the UTF-8 every reducer reads.
//!
//! Windows PowerShell 5 writes UTF-16LE (`cmd > out.log`, `Out-File`, `Set-Content
//! -Encoding Unicode`), and so do `cmd /U` and some Windows tools. Read as bytes, each
//! ASCII character is followed by a NUL and `\r\0\n` is a line redrawn by a carriage
//! return: every line looks like `\0`, and the error in it is lost. The budget stage
//! decodes such input before framing, while the artifact keeps the bytes as they came.
//!
//! The input is UTF-16 when it opens with a byte-order mark (`FF FE`, `FE FF`), or, with
//! none, when its first [`SNIFF_BYTES`] (at least [`MIN_UNITS_WITHOUT_MARK`] code units)
//! are all characters below U+0100 other than NUL, as two bytes each: no UTF-8 text has
//! a NUL in every other byte. Anything else passes as it came; UTF-32, whose marks open
//! with UTF-16's, too, said in a warning.

/// How many bytes are read before deciding: input shorter than that is decided at its end.
pub const SNIFF_BYTES: usize = 64;

/// Code units that decide for UTF-16 without a byte-order mark.
pub const MIN_UNITS_WITHOUT_MARK: usize = 8;

/// A byte order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Order {
    Little,
    Big,
}

/// How the input is read.
#[derive(Debug)]
enum State {
    /// Its first bytes, held until there are [`SNIFF_BYTES`] of them.
    Sniffing(Vec<u8>),
    /// As it came.
    AsIs,
    /// As it came, in an encoding not decoded: UTF-32, by its byte-order mark.
    Undecoded(&'static str),
    /// Decoded from UTF-16.
    Utf16(Utf16),
}

/// UTF-16 being decoded, from chunks split anywhere.
#[derive(Debug)]
struct Utf16 {
    order: Order,
    /// It opened with a byte-order mark.
    marked: bool,
    /// The first byte of a code unit the last chunk ended in.
    odd_byte: Option<u8>,
    /// A high surrogate the last chunk ended in.
    high: Option<u16>,
    /// Code units (unpaired surrogates, an odd last byte) read as U+FFFD.
    replaced: u64,
}

/// Decodes UTF-16 input to UTF-8 and passes any other input as it came
/// (see the module doc).
///
/// The budget stage reads every input through one; a reducer that reads a file itself
/// ([`crate::Framing::Own`]) can too.
///
/// Memory: what it holds between chunks is at most [`SNIFF_BYTES`]; what one call
/// writes is at most twice the chunk it is given.
///
/// ```
/// use briefly_core::InputDecoder;
///
/// let input: Vec<u8> = [0xFEFF].into_iter()
///     .chain("ERROR boom\r\n".encode_utf16())
///     .flat_map(u16::to_le_bytes)
///     .collect();
/// let mut decoder = InputDecoder::default();
/// let (mut text, mut out) = (Vec::new(), Vec::new());
/// for chunk in input.chunks(5) {
///     let rest = decoder.push(chunk, &mut out);
///     text.extend_from_slice(&out);
///     text.extend_from_slice(&chunk[rest..]);
/// }
/// decoder.finish(&mut out);
/// text.extend_from_slice(&out);
/// assert_eq!(text, b"ERROR boom\r\n");
/// assert!(decoder.warnings()[0].starts_with("the input is UTF-16LE"));
/// ```
#[derive(Debug)]
pub struct InputDecoder {
    state: State,
}

impl Default for InputDecoder {
    fn default() -> Self {
        InputDecoder {
            state: State::Sniffing(Vec::with_capacity(SNIFF_BYTES)),
        }
    }
}

impl InputDecoder {
    /// Reads `bytes`, the next chunk of input. `out` is cleared, then holds text to be
    /// read; the return value is where the rest of `bytes` starts, which is read as it
    /// came, after `out`.
    pub fn push(&mut self, bytes: &[u8], out: &mut Vec<u8>) -> usize {
        out.clear();
        match &mut self.state {
            State::AsIs | State::Undecoded(_) => 0,
            State::Utf16(utf16) => {
                utf16.decode(bytes, out);
                bytes.len()
            }
            State::Sniffing(held) => {
                let taken = bytes.len().min(SNIFF_BYTES - held.len());
                held.extend_from_slice(&bytes[..taken]);
                if held.len() < SNIFF_BYTES {
                    return bytes.len();
                }
                self.decide(out);
                match &mut self.state {
                    State::Utf16(utf16) => {
                        utf16.decode(&bytes[taken..], out);
                        bytes.len()
                    }
                    _ => taken,
                }
            }
        }
    }

    /// The end of input: `out` is cleared, then holds the text still to be read.
    pub fn finish(&mut self, out: &mut Vec<u8>) {
        out.clear();
        if let State::Sniffing(_) = self.state {
            self.decide(out);
        }
        if let State::Utf16(utf16) = &mut self.state {
            utf16.finish(out);
        }
    }

    /// Whether any code unit was read as U+FFFD: the text read is not all there was.
    pub fn replaced(&self) -> bool {
        matches!(&self.state, State::Utf16(utf16) if utf16.replaced > 0)
    }

    /// What the decoding did, for the envelope's warnings.
    pub fn warnings(&self) -> Vec<String> {
        let utf16 = match &self.state {
            State::Utf16(utf16) => utf16,
            State::Undecoded(encoding) => {
                return vec![format!(
                    "the input is {encoding} (by its byte-order mark): not decoded, read as it came"
                )]
            }
            _ => return Vec::new(),
        };
        let order = match utf16.order {
            Order::Little => "UTF-16LE",
            Order::Big => "UTF-16BE",
        };
        let how = match utf16.marked {
            true => "by its byte-order mark",
            false => "a NUL in every other byte",
        };
        let mut warnings = vec![format!(
            "the input is {order} ({how}): decoded, and read as UTF-8 text"
        )];
        if utf16.replaced > 0 {
            warnings.push(format!(
                "{} of the UTF-16 input replaced by U+FFFD (unpaired surrogates, an odd last byte)",
                crate::counted(utf16.replaced, "code unit was", "code units were")
            ));
        }
        warnings
    }

    /// Decides how the held bytes are read, and writes them to `out` as text.
    fn decide(&mut self, out: &mut Vec<u8>) {
        let State::Sniffing(held) = &mut self.state else {
            return;
        };
        let held = std::mem::take(held);
        let (order, marked) = match held.as_slice() {
            // UTF-32's marks open with UTF-16's.
            [0xFF, 0xFE, 0, 0, ..] | [0, 0, 0xFE, 0xFF, ..] => {
                out.extend_from_slice(&held);
                self.state = State::Undecoded(match held[0] {
                    0xFF => "UTF-32LE",
                    _ => "UTF-32BE",
                });
                return;
            }
            [0xFF, 0xFE, ..] => (Some(Order::Little), true),
            [0xFE, 0xFF, ..] => (Some(Order::Big), true),
            _ => (unmarked_order(&held), false),
        };
        self.state = match order {
            Some(order) => {
                let mut utf16 = Utf16 {
                    order,
                    marked,
                    odd_byte: None,
                    high: None,
                    replaced: 0,
                };
                utf16.decode(&held[if marked { 2 } else { 0 }..], out);
                State::Utf16(utf16)
            }
            None => {
                out.extend_from_slice(&held);
                State::AsIs
            }
        };
    }
}

/// A reader of input through an [`InputDecoder`]: UTF-16 comes out as UTF-8, anything
/// else as it came. For a command that reads a document with a parser of its own
/// (`context`'s history, `turn`'s results) rather than through the budget stage.
///
/// ```
/// use briefly_core::utf16::DecodingReader;
/// use std::io::Read;
///
/// let input: Vec<u8> = [0xFEFF].into_iter()
///     .chain("[1, 2]".encode_utf16())
///     .flat_map(u16::to_le_bytes)
///     .collect();
/// let mut reader = DecodingReader::new(&input[..]);
/// let mut text = String::new();
/// reader.read_to_string(&mut text).unwrap();
/// assert_eq!(text, "[1, 2]");
/// assert!(reader.warnings()[0].starts_with("the input is UTF-16LE"));
/// ```
pub struct DecodingReader<R> {
    inner: R,
    decoder: InputDecoder,
    /// Text decoded and not yet read, from `at`.
    decoded: Vec<u8>,
    at: usize,
    chunk: Vec<u8>,
    ended: bool,
}

impl<R: std::io::Read> DecodingReader<R> {
    /// Reads `inner` through a decoder.
    pub fn new(inner: R) -> Self {
        DecodingReader {
            inner,
            decoder: InputDecoder::default(),
            decoded: Vec::new(),
            at: 0,
            chunk: vec![0; 8 * 1024],
            ended: false,
        }
    }

    /// What the decoding did ([`InputDecoder::warnings`]), once the input is read.
    pub fn warnings(&self) -> Vec<String> {
        self.decoder.warnings()
    }
}

impl<R: std::io::Read> std::io::Read for DecodingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.at == self.decoded.len() && !self.ended {
            let n = self.inner.read(&mut self.chunk)?;
            let mut out = Vec::new();
            if n == 0 {
                self.decoder.finish(&mut out);
                self.ended = true;
            } else {
                let rest = self.decoder.push(&self.chunk[..n], &mut out);
                out.extend_from_slice(&self.chunk[rest..n]);
            }
            self.decoded = out;
            self.at = 0;
        }
        let n = buf.len().min(self.decoded.len() - self.at);
        buf[..n].copy_from_slice(&self.decoded[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// Whether input that opens with `head` (its first [`SNIFF_BYTES`] or more, or all of
/// it) is read as UTF-16.
pub fn is_utf16(head: &[u8]) -> bool {
    let head = &head[..head.len().min(SNIFF_BYTES)];
    (head.starts_with(&[0xFF, 0xFE]) && !head.starts_with(&[0xFF, 0xFE, 0, 0]))
        || head.starts_with(&[0xFE, 0xFF])
        || unmarked_order(head).is_some()
}

/// The byte order of `bytes` when they read as UTF-16 without a mark (see the module doc).
fn unmarked_order(bytes: &[u8]) -> Option<Order> {
    let units = bytes.chunks_exact(2);
    if units.len() < MIN_UNITS_WITHOUT_MARK {
        return None;
    }
    let all = |first_zero: bool| {
        bytes
            .chunks_exact(2)
            .all(|unit| (unit[0] == 0) == first_zero && (unit[1] == 0) != first_zero)
    };
    if all(false) {
        Some(Order::Little)
    } else if all(true) {
        Some(Order::Big)
    } else {
        None
    }
}

impl Utf16 {
    /// Decodes `bytes`, the next chunk, appending the text to `out`.
    fn decode(&mut self, mut bytes: &[u8], out: &mut Vec<u8>) {
        out.reserve(bytes.len() * 2);
        if let Some(first) = self.odd_byte.take() {
            match bytes.split_first() {
                Some((&second, rest)) => {
                    self.unit([first, second], out);
                    bytes = rest;
                }
                None => {
                    self.odd_byte = Some(first);
                    return;
                }
            }
        }
        let units = bytes.chunks_exact(2);
        self.odd_byte = units.remainder().first().copied();
        for unit in units {
            self.unit([unit[0], unit[1]], out);
        }
    }

    /// Reads one code unit's bytes.
    fn unit(&mut self, bytes: [u8; 2], out: &mut Vec<u8>) {
        let unit = match self.order {
            Order::Little => u16::from_le_bytes(bytes),
            Order::Big => u16::from_be_bytes(bytes),
        };
        match (self.high.take(), unit) {
            (None, 0..=0x7F) => out.push(unit as u8),
            (Some(high), 0xDC00..=0xDFFF) => {
                let pair = 0x10000 + ((u32::from(high - 0xD800) << 10) | u32::from(unit - 0xDC00));
                self.push(char::from_u32(pair), out);
            }
            (high, _) => {
                if high.is_some() {
                    self.push(None, out);
                }
                match unit {
                    0xD800..=0xDBFF => self.high = Some(unit),
                    // A low surrogate alone is not a char: `from_u32` says so.
                    _ => self.push(char::from_u32(u32::from(unit)), out),
                }
            }
        }
    }

    /// Writes `c`, or U+FFFD, counted, when it is none.
    fn push(&mut self, c: Option<char>, out: &mut Vec<u8>) {
        let c = c.unwrap_or_else(|| {
            self.replaced += 1;
            char::REPLACEMENT_CHARACTER
        });
        out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
    }

    /// The end of input: a high surrogate or a byte left over is read as U+FFFD.
    fn finish(&mut self, out: &mut Vec<u8>) {
        if self.high.take().is_some() {
            self.push(None, out);
        }
        if self.odd_byte.take().is_some() {
            self.push(None, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the reducer reads of `input` pushed in chunks of `size` bytes, and the warnings.
    fn read(input: &[u8], size: usize) -> (Vec<u8>, Vec<String>) {
        let mut decoder = InputDecoder::default();
        let (mut text, mut out) = (Vec::new(), Vec::new());
        for chunk in input.chunks(size) {
            let rest = decoder.push(chunk, &mut out);
            text.extend_from_slice(&out);
            text.extend_from_slice(&chunk[rest..]);
        }
        decoder.finish(&mut out);
        text.extend_from_slice(&out);
        (text, decoder.warnings())
    }

    fn utf16(text: &str, order: Order, mark: bool) -> Vec<u8> {
        let mut bytes = Vec::new();
        for unit in mark
            .then_some(0xFEFF)
            .into_iter()
            .chain(text.encode_utf16())
        {
            match order {
                Order::Little => bytes.extend(unit.to_le_bytes()),
                Order::Big => bytes.extend(unit.to_be_bytes()),
            }
        }
        bytes
    }

    /// Every chunking of `input`, reads as `expected` with the same warnings.
    fn reads_as(input: &[u8], expected: &str) -> Vec<String> {
        let (text, warnings) = read(input, input.len().max(1));
        assert_eq!(String::from_utf8_lossy(&text), expected);
        for size in 1..=input.len().min(80) {
            assert_eq!(
                read(input, size),
                (text.clone(), warnings.clone()),
                "chunks of {size}"
            );
        }
        warnings
    }

    #[test]
    fn utf16_with_a_byte_order_mark_is_read_as_utf8() {
        // Astral characters are surrogate pairs: each chunking splits one somewhere.
        let text = "2024-01-05 ERROR caf\u{e9} \u{1F600} \u{4e2d}\r\nok\r\n";
        for order in [Order::Little, Order::Big] {
            let warnings = reads_as(&utf16(text, order, true), text);
            let name = if order == Order::Little {
                "UTF-16LE"
            } else {
                "UTF-16BE"
            };
            assert_eq!(
                warnings,
                [format!(
                    "the input is {name} (by its byte-order mark): decoded, and read as UTF-8 text"
                )]
            );
        }
        // A mark and one character: decided at the end of input.
        assert_eq!(read(&utf16("x", Order::Little, true), 1).0, b"x");
        assert_eq!(read(&utf16("", Order::Big, true), 1).0, b"");
    }

    #[test]
    fn utf16_without_a_mark_is_read_when_every_other_byte_is_nul() {
        let text = "INFO started\nERROR boom\n";
        for order in [Order::Little, Order::Big] {
            let warnings = reads_as(&utf16(text, order, false), text);
            assert!(
                warnings[0].contains("(a NUL in every other byte)"),
                "{warnings:?}"
            );
        }
        // Seven code units are too few to tell; eight are enough.
        assert_eq!(
            read(&utf16("1234567", Order::Little, false), 3).0,
            utf16("1234567", Order::Little, false)
        );
        assert_eq!(
            read(&utf16("12345678", Order::Little, false), 3).0,
            b"12345678"
        );
        // One NUL where a character should be is not UTF-16: the bytes pass as they came.
        let mut bytes = utf16(&"x".repeat(40), Order::Little, false);
        bytes[51] = b'y';
        assert_eq!(
            reads_as(&bytes, &String::from_utf8_lossy(&bytes)),
            Vec::<String>::new()
        );
    }

    #[test]
    fn other_input_passes_as_it_came() {
        for input in [
            &b""[..],
            b"short",
            b"\xef\xbb\xbfUTF-8 with its mark, longer than the bytes sniffed: 0123456789abcdef0123456789",
            b"\x00\x01\x02\xff\xfe binary at the start",
            b"\xfe",
        ] {
            let (text, warnings) = read(input, 7);
            assert_eq!(text, input);
            assert!(warnings.is_empty());
        }
        // Past the sniffed bytes the rest is handed over in place, not copied.
        let mut decoder = InputDecoder::default();
        let mut out = Vec::new();
        let input = [b'a'; 100];
        assert_eq!(decoder.push(&input, &mut out), SNIFF_BYTES);
        assert_eq!(out, &input[..SNIFF_BYTES]);
        assert_eq!(decoder.push(&input, &mut out), 0);
        assert!(out.is_empty());
    }

    #[test]
    fn utf32_is_not_taken_for_utf16() {
        // UTF-32LE's mark opens with UTF-16LE's: read as UTF-16, every character became
        // two, one of them a NUL.
        let le: Vec<u8> = "\u{feff}line ERROR\n"
            .chars()
            .flat_map(|c| u32::from(c).to_le_bytes())
            .collect();
        let be: Vec<u8> = "\u{feff}line ERROR\n"
            .chars()
            .flat_map(|c| u32::from(c).to_be_bytes())
            .collect();
        for (input, encoding) in [(le, "UTF-32LE"), (be, "UTF-32BE")] {
            assert!(!is_utf16(&input), "{encoding}");
            let (text, warnings) = read(&input, 7);
            assert_eq!(text, input, "{encoding}");
            assert_eq!(
                warnings,
                [format!("the input is {encoding} (by its byte-order mark): not decoded, read as it came")]
            );
        }
    }

    #[test]
    fn what_does_not_decode_becomes_a_replacement_character_and_is_counted() {
        let mut bytes = utf16("a", Order::Little, true);
        bytes.extend([0x00, 0xDC]); // a low surrogate alone
        bytes.extend([0x3D, 0xD8, b'b', 0]); // a high surrogate, then not a low one
        bytes.extend([0x3D, 0xD8]); // a high surrogate at the end
        bytes.push(b'c'); // half a code unit at the end
        let mut decoder = InputDecoder::default();
        let mut out = Vec::new();
        decoder.push(&bytes, &mut out);
        let mut text = out.clone();
        decoder.finish(&mut out);
        text.extend_from_slice(&out);
        assert_eq!(
            String::from_utf8(text).unwrap(),
            "a\u{fffd}\u{fffd}b\u{fffd}\u{fffd}"
        );
        assert!(decoder.replaced());
        assert_eq!(
            decoder.warnings()[1],
            "4 code units were of the UTF-16 input replaced by U+FFFD (unpaired surrogates, an odd last byte)"
        );
    }
}
