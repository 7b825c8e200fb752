//! JSON text with lone surrogate escapes (`"\ud83d"`, half of a character a JavaScript or
//! Python writer cut in two) made readable: each such escape becomes `\ufffd`, of the same
//! length, where a strict parser (serde_json's) would refuse the whole document.

use std::io::{self, Read};

/// Rewrites each escape of a lone surrogate in the JSON text `bytes` (`\ud83d` with no
/// low half after it, or a low half alone) as `\ufffd`, of the same length; returns
/// where the first was. An escape cut off by the end is left as it is (to the parser).
pub fn replace_lone_surrogates(bytes: &mut [u8]) -> Option<usize> {
    let (first, _, _) = replace_in(bytes, true);
    first
}

/// [`replace_lone_surrogates`] of `bytes`, the whole input when `complete`, else a piece
/// of it that more follows: then an escape the end may cut is not read. Returns where
/// the first was, how many were replaced and how many bytes were read (all, when
/// `complete`; else up to the escape the end may cut).
fn replace_in(bytes: &mut [u8], complete: bool) -> (Option<usize>, u64, usize) {
    let hex = |at: usize, bytes: &[u8]| -> Option<u16> {
        let digits = std::str::from_utf8(bytes.get(at..at + 4)?).ok()?;
        u16::from_str_radix(digits, 16).ok()
    };
    let (mut first, mut count) = (None, 0);
    let mut i = 0;
    // Outside strings valid JSON holds no backslash: each found opens an escape.
    while let Some(found) = bytes.get(i..).and_then(|rest| memchr::memchr(b'\\', rest)) {
        let at = i + found;
        // The longest escape read at once: a pair, `\ud83d\ude00`.
        if !complete && at + 12 > bytes.len() {
            return (first, count, at);
        }
        if bytes.get(at + 1) != Some(&b'u') {
            i = at + 2; // another escape, `\\` among them
            continue;
        }
        i = at + 6;
        let Some(unit) = hex(at + 2, bytes) else {
            continue;
        };
        let lone = match unit {
            0xD800..=0xDBFF => {
                let low = (bytes.get(at + 6..at + 8) == Some(b"\\u"))
                    .then(|| hex(at + 8, bytes))
                    .flatten();
                let paired = low.is_some_and(|low| (0xDC00..=0xDFFF).contains(&low));
                if paired {
                    i = at + 12;
                }
                !paired
            }
            0xDC00..=0xDFFF => true,
            _ => false,
        };
        if lone {
            bytes[at + 2..at + 6].copy_from_slice(b"fffd");
            first.get_or_insert(at);
            count += 1;
        }
    }
    (first, count, bytes.len())
}

/// A reader of JSON text that replaces its lone surrogate escapes as it reads
/// ([`replace_lone_surrogates`]), holding back at most the 11 bytes of an escape a read
/// may have cut (memory: those and one read of 8 KiB); [`LoneSurrogates::replaced`] says how many it replaced and where the
/// first was, for a warning.
pub struct LoneSurrogates<R> {
    inner: R,
    buf: Vec<u8>,
    /// `buf[ready..read]` is replaced and not handed out yet; `buf[read..]` waits for
    /// more bytes (an escape a read cut).
    ready: usize,
    read: usize,
    /// Bytes handed out before `buf`.
    offset: u64,
    replaced: u64,
    first: Option<u64>,
    eof: bool,
}

impl<R: Read> LoneSurrogates<R> {
    /// Reads `inner`.
    pub fn new(inner: R) -> Self {
        LoneSurrogates {
            inner,
            buf: Vec::new(),
            ready: 0,
            read: 0,
            offset: 0,
            replaced: 0,
            first: None,
            eof: false,
        }
    }

    /// How many escapes were replaced so far, and the byte offset of the first.
    pub fn replaced(&self) -> (u64, Option<u64>) {
        (self.replaced, self.first)
    }

    /// The reader it reads.
    pub fn get_ref(&self) -> &R {
        &self.inner
    }
}

impl<R: Read> Read for LoneSurrogates<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        while self.ready == self.read && !(self.eof && self.read == self.buf.len()) {
            // Past what was handed out: what waits moves to the front, then more.
            self.offset += self.read as u64;
            self.buf.drain(..self.read);
            (self.ready, self.read) = (0, 0);
            let mut chunk = [0; 8192];
            let n = self.inner.read(&mut chunk)?;
            self.buf.extend_from_slice(&chunk[..n]);
            self.eof = n == 0;
            let (first, count, read) = replace_in(&mut self.buf, self.eof);
            if let Some(first) = first {
                self.first.get_or_insert(self.offset + first as u64);
            }
            self.replaced += count;
            (self.ready, self.read) = (0, read);
        }
        let n = out.len().min(self.read - self.ready);
        out[..n].copy_from_slice(&self.buf[self.ready..self.ready + n]);
        self.ready += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lone_surrogate_escape_is_u_fffd_and_a_pair_stays() {
        let mut bytes =
            br#"{"s":"a\ud83dx","t":"\ud83d\ude00","u":"\\ud83d","v":"\udc00"}"#.to_vec();
        assert_eq!(replace_lone_surrogates(&mut bytes), Some(7));
        assert_eq!(
            std::str::from_utf8(&bytes).unwrap(),
            r#"{"s":"a\ufffdx","t":"\ud83d\ude00","u":"\\ud83d","v":"\ufffd"}"#
        );
        let mut plain = br#"{"a":"\u00e9\n"}"#.to_vec();
        assert_eq!(replace_lone_surrogates(&mut plain), None);
        // A cut escape at the end is left to the parser.
        assert_eq!(replace_lone_surrogates(&mut br#""\ud8"#.to_vec()), None);
    }

    /// Reads all of `reader`, `chunk` bytes at a time from below.
    fn read_all(input: &[u8], chunk: usize) -> (Vec<u8>, (u64, Option<u64>)) {
        struct Chunks<'a>(&'a [u8], usize);
        impl Read for Chunks<'_> {
            fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
                let n = self.0.len().min(self.1).min(out.len());
                out[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut reader = LoneSurrogates::new(Chunks(input, chunk));
        let mut out = Vec::new();
        reader.read_to_end(&mut out).unwrap();
        (out, reader.replaced())
    }

    #[test]
    fn a_reader_replaces_as_the_whole_does_however_its_input_is_cut() {
        let mut input = Vec::new();
        for n in 0..200 {
            input.extend_from_slice(
                format!(r#"{{"n":{n},"s":"a\ud83dx\ud83d\ude00\\ud800\udc00\n"}}"#).as_bytes(),
            );
            input.push(b'\n');
        }
        let mut whole = input.clone();
        let first = replace_lone_surrogates(&mut whole);
        assert_eq!(first, Some(13));
        for chunk in [1, 7, 8192, usize::MAX] {
            let (out, (count, first)) = read_all(&input, chunk);
            assert!(out == whole, "chunk {chunk}");
            assert_eq!((count, first), (400, Some(13)), "chunk {chunk}");
        }
        // A cut escape at the very end is handed on as it is.
        assert_eq!(read_all(br#""\ud8"#, 1).0, br#""\ud8"#);
    }
}
