//! Tokenizing and masking of raw log lines.
//!
//! A line is split on ASCII whitespace into tokens. Inside each token, every
//! maximal run of alphanumeric characters that contains a digit (numbers, hex
//! ids, IP octets, versions, UUID parts, hostnames such as `node-17`...), or
//! that is a month or weekday abbreviation (`Jun`, `Sun`...), or a byte
//! escaped in hex (the `xdf` of `\xdf`), is replaced by the wildcard
//! [`WILDCARD`]. Wildcards joined by a single connector character (`. : - _
//! , / @ +`) collapse into one, so `10.1.2.3:8080`,
//! `2015-10-18` and `18:01:47,978` each become a single `<*>`, while the
//! surrounding structure is kept: `uid=0` becomes `uid=<*>`,
//! `sshd[24200]:` becomes `sshd[<*>]:`, `blk_-69522` becomes `blk_<*>`.
//!
//! A bracketed group of a few words (`[req-1 alice - -]`, `(stack @0x1
//! @0x2)`) and a quoted value with spaces (`tag="View Lock"`) are one token.
//! A string of bytes escaped as C escapes them, in octal or hex (strace's
//! `"\177ELF\2\1\1\0"...`), is one value: `"<*>"...`.
//! A run of identical masked tokens (`blk_<*> blk_<*> blk_<*>`, or the
//! `<*> <*> <*>` of `Jun 14 15:16:01`) is one token: lists of values and
//! timestamps of different shapes do not change the token count.
//!
//! Masking is a pure function of the line, so lines of one event that only
//! differ in such values produce byte-identical masked tokens.

/// The text that stands for a variable part in masked tokens and templates.
pub const WILDCARD: &str = "<*>";

const WILD: &[u8] = WILDCARD.as_bytes();

/// The kind of a masked token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum TokenKind {
    /// Constant plain word without any variable part, e.g. `INFO`,
    /// `closed` or `pam_unix`.
    Word,
    /// Constant text that is structured like a value: a dot, slash,
    /// backslash or `@` between alphanumerics (file names, host names,
    /// paths, class names), a quoted `key="value"`, or a bracketed group
    /// of several words.
    Value,
    /// Text with at least one variable part and some constant text, e.g.
    /// `uid=<*>`.
    Masked,
    /// The whole token is variable: exactly `<*>`.
    Wild,
}

/// Masks a whole line: the tokens the [`Miner`](crate::Miner) compares,
/// joined by single spaces.
///
/// The line is split on whitespace. Inside each token, every run of
/// alphanumeric characters that contains a digit (numbers, hex ids, IP
/// octets, versions, UUID parts, host names such as `node-17`), that is a
/// month or weekday name or that is a byte escaped in hex (`\xdf`) becomes
/// `<*>`; such wildcards joined by one connector (`. : - _ , / @ +`)
/// collapse into one, so `10.1.2.3:8080`,
/// `2015-10-18` and `18:01:47,978` are each `<*>`, while `uid=0` becomes
/// `uid=<*>` and `sshd[24200]:` becomes `sshd[<*>]:`. A bracketed group of a
/// few words (`[req-1 alice - -]`) and a quoted value with spaces
/// (`tag="View Lock"`) are one token; a run of identical masked tokens (the
/// `<*> <*> <*>` of `Jun 14 15:16:01`, a list of ids) is one token.
///
/// ```
/// assert_eq!(
///     briefly_template::mask("Jun 14 15:16:01 combo sshd[19939]: uid=0 from 10.0.0.1"),
///     "<*> combo sshd[<*>]: uid=<*> from <*>"
/// );
/// ```
pub fn mask(line: &str) -> String {
    let mut m = Masked::default();
    m.fill(line, usize::MAX, usize::MAX);
    let mut out = Vec::with_capacity(line.len() + 8);
    for i in 0..m.len() {
        if i > 0 {
            out.push(b' ');
        }
        out.extend_from_slice(m.bytes(i));
    }
    // Whole UTF-8 sequences and ASCII only (see `Masked::text`).
    String::from_utf8(out).unwrap_or_default()
}

/// A reusable buffer holding the masked tokens of one line.
///
/// Filling it does not allocate once its buffers have grown to the size of
/// the longest line seen.
#[derive(Default, Clone)]
pub(crate) struct Masked {
    /// Masked token texts, concatenated.
    buf: Vec<u8>,
    /// `(start, end, kind)` of each token in `buf`.
    spans: Vec<(u32, u32, TokenKind)>,
    /// Hash of each masked token, once [`Masked::hash_tokens`] ran.
    hashes: Vec<u64>,
    /// Hash of the whole masked token sequence.
    line_hash: u64,
    /// Non-zero when a [`crate::Masker`] gave these tokens: equal stamps, equal
    /// tokens (see [`Masked::stamp`]).
    stamp: u64,
    /// Scratch for a token with a quoted value (or a long one with a calendar name),
    /// masked apart and then copied into `buf`.
    token: Vec<u8>,
}

/// The tokens and their kinds: what two `Masked` holding the same tokens share (not
/// their stamps, nor what their buffers hold past the tokens).
impl std::fmt::Debug for Masked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries((0..self.len()).map(|i| (self.text(i), self.kind(i))))
            .finish()
    }
}

impl Masked {
    /// Replaces the content with the masked tokens of `line`.
    ///
    /// Tokens longer than `max_token_bytes` become a wildcard; after
    /// `max_tokens` tokens, the rest of the line becomes one wildcard token.
    pub(crate) fn fill(&mut self, line: &str, max_tokens: usize, max_token_bytes: usize) {
        self.spans.clear();
        self.hashes.clear();
        self.stamp = 0;
        let bytes = line.as_bytes();
        let n = bytes.len();
        // Masking at most triples a byte (`1` -> `<*>`). `buf` is scratch
        // space of at least that size (it only grows, to the longest line
        // seen): tokens are written at `o` and `spans` say where they are.
        let cap = 3 * n + 8;
        if self.buf.len() < cap {
            self.buf.resize(cap, 0);
        }
        let mut o = 0;
        let mut i = 0;
        // The token index from which the rest of the line is one token.
        let tail_at = if max_tokens == usize::MAX {
            usize::MAX
        } else {
            max_tokens.saturating_sub(1)
        };
        while i < n {
            if class(bytes[i]) & SPACE != 0 {
                i += 1;
                continue;
            }
            let start = i;
            let out_start = o;
            let kind = if self.spans.len() >= tail_at {
                // The rest of the line is one variable tail.
                i = n;
                o = put_wild(&mut self.buf, o);
                TokenKind::Wild
            } else if let Some(close) = escaped_bytes_close(bytes, start) {
                self.token.clear();
                i = mask_escaped_bytes(bytes, close, &mut self.token);
                if i - start > max_token_bytes {
                    o = put_wild(&mut self.buf, out_start);
                    TokenKind::Wild
                } else {
                    o = self.put_token(out_start);
                    TokenKind::Masked
                }
            } else if let Some((end, out_end, kind)) =
                mask_plain_token(bytes, start, &mut self.buf, o)
            {
                // The common case (a leading bracketed group too): scanned
                // and masked in one pass.
                i = end;
                if i - start > max_token_bytes {
                    o = put_wild(&mut self.buf, out_start);
                    TokenKind::Wild
                } else {
                    o = out_end;
                    kind
                }
            } else {
                let (end, flags) = scan_token(bytes, start);
                i = end;
                if i - start > max_token_bytes {
                    o = put_wild(&mut self.buf, out_start);
                    TokenKind::Wild
                } else {
                    self.token.clear();
                    let kind = mask_token_with(&bytes[start..i], flags, &mut self.token);
                    o = self.put_token(out_start);
                    kind
                }
            };
            o = self.finish_token(out_start, o, kind);
        }
        self.line_hash = self.sequence_hash(o);
    }

    /// Copies the token masked apart (`token`) into `buf` at `out_start`, returning its
    /// end. (Masked apart and copied in, `buf` keeps its length: cut to the token and
    /// grown back, it was cleared past the token at every such token, which made a long
    /// line of `{a: 1}` groups quadratic.)
    fn put_token(&mut self, out_start: usize) -> usize {
        let end = out_start + self.token.len();
        if self.buf.len() < end {
            self.buf.resize(end, 0); // not past `fill`'s `cap`, but never a panic
        }
        self.buf[out_start..end].copy_from_slice(&self.token);
        end
    }

    /// Hash of the token sequence in `buf[..end]`: the bytes and the end
    /// of each token (tokens are contiguous in `buf`). Like the lookup of
    /// lines by their token hashes it replaces, it depends on the token
    /// texts only, not on their kinds.
    #[inline]
    fn sequence_hash(&self, end: usize) -> u64 {
        let mut h = Hasher::new(self.spans.len() as u64);
        for &(_, e, _) in &self.spans {
            h.add(u64::from(e));
        }
        let mut b = Hasher::new(end as u64);
        let mut chunks = self.buf[..end].chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            b.add(u64::from_le_bytes(w));
        }
        let r = chunks.remainder();
        if !r.is_empty() {
            b.add(load_partial(r));
        }
        h.add(b.finish());
        h.finish()
    }

    /// Computes the hash of each token ([`Masked::token_hash`]), needed
    /// when the line is compared with templates beyond a lookup of the
    /// whole line.
    pub(crate) fn hash_tokens(&mut self) {
        self.hashes.clear();
        for &(s, e, k) in &self.spans {
            self.hashes.push(if k == TokenKind::Wild {
                wild_hash()
            } else {
                hash_bytes(&self.buf[s as usize..e as usize])
            });
        }
    }

    /// Records the token written to `buf[out_start..out_end]`, or drops it
    /// when it repeats the previous masked token. Returns where the next
    /// token goes.
    #[inline]
    fn finish_token(&mut self, out_start: usize, out_end: usize, kind: TokenKind) -> usize {
        // A run of identical masked tokens (`blk_<*> blk_<*> ...`,
        // `<*> <*>`) is one variable-length value.
        if kind != TokenKind::Word && kind != TokenKind::Value {
            if let Some(&(ps, pe, pk)) = self.spans.last() {
                if pk == kind
                    && bytes_eq(
                        &self.buf[ps as usize..pe as usize],
                        &self.buf[out_start..out_end],
                    )
                {
                    return out_start;
                }
            }
        }
        self.spans.push((out_start as u32, out_end as u32, kind));
        out_end
    }

    #[cfg(test)]
    /// The original two-pass implementation of [`Masked::fill`] (tests
    /// only): replaces the content with the masked tokens of `line`.
    ///
    /// Tokens longer than `max_token_bytes` become a wildcard; after
    /// `max_tokens` tokens, the rest of the line becomes one wildcard token.
    fn fill_reference(&mut self, line: &str, max_tokens: usize, max_token_bytes: usize) {
        self.buf.clear();
        self.spans.clear();
        self.hashes.clear();
        let bytes = line.as_bytes();
        // Masking at most triples a byte (`1` -> `<*>`): no growth while
        // filling.
        self.buf.reserve(3 * bytes.len() + 8);
        let mut i = 0;
        let n = bytes.len();
        while i < n {
            while i < n && class(bytes[i]) & SPACE != 0 {
                i += 1;
            }
            if i >= n {
                break;
            }
            let start = i;
            let out_start = self.buf.len();
            let kind = if self.spans.len() + 1 >= max_tokens && max_tokens != usize::MAX {
                // The rest of the line is one variable tail.
                i = n;
                self.buf.extend_from_slice(WILD);
                TokenKind::Wild
            } else if let Some(close) = escaped_bytes_close(bytes, start) {
                i = mask_escaped_bytes(bytes, close, &mut self.buf);
                if i - start > max_token_bytes {
                    self.buf.truncate(out_start);
                    self.buf.extend_from_slice(WILD);
                    TokenKind::Wild
                } else {
                    TokenKind::Masked
                }
            } else {
                let (end, flags) = scan_token(bytes, start);
                i = end;
                if i - start > max_token_bytes {
                    self.buf.extend_from_slice(WILD);
                    TokenKind::Wild
                } else {
                    mask_token_with(&bytes[start..i], flags, &mut self.buf)
                }
            };
            let out_end = self.buf.len();
            // A run of identical masked tokens (`blk_<*> blk_<*> ...`,
            // `<*> <*>`) is one variable-length value.
            if kind != TokenKind::Word && kind != TokenKind::Value {
                if let Some(&(ps, pe, pk)) = self.spans.last() {
                    if pk == kind
                        && self.buf[ps as usize..pe as usize] == self.buf[out_start..out_end]
                    {
                        self.buf.truncate(out_start);
                        continue;
                    }
                }
            }
            self.hashes.push(if kind == TokenKind::Wild {
                wild_hash()
            } else {
                hash_bytes(&self.buf[out_start..out_end])
            });
            self.spans.push((out_start as u32, out_end as u32, kind));
        }
    }

    /// Replaces the content with `other`'s tokens, as if it had been
    /// filled with the same line; reuses the buffers.
    pub(crate) fn clone_from_tokens(&mut self, other: &Masked) {
        let end = other.spans.last().map_or(0, |s| s.1 as usize);
        if self.buf.len() < end {
            self.buf.resize(end, 0);
        }
        self.buf[..end].copy_from_slice(&other.buf[..end]);
        self.spans.clone_from(&other.spans);
        self.hashes.clear();
        self.line_hash = other.line_hash;
        self.stamp = other.stamp;
    }

    /// The masked tokens with their kinds (tests only).
    #[cfg(test)]
    pub(crate) fn tokens(&self) -> Vec<(&[u8], TokenKind)> {
        (0..self.len())
            .map(|i| (self.bytes(i), self.kind(i)))
            .collect()
    }

    /// Number of tokens.
    pub(crate) fn len(&self) -> usize {
        self.spans.len()
    }

    /// The buffer up to the end of the last token: the masked tokens back to back,
    /// token `i` at [`Masked::span`]`(i)`. `None` only if that is not UTF-8, which it
    /// always is (see [`Masked::text`]).
    pub(crate) fn all_text(&self) -> Option<&str> {
        let end = self.spans.iter().map(|span| span.1).max().unwrap_or(0);
        std::str::from_utf8(&self.buf[..end as usize]).ok()
    }

    /// Where token `i`'s masked text is in [`Masked::all_text`].
    pub(crate) fn span(&self, i: usize) -> (u32, u32) {
        let (s, e, _) = self.spans[i];
        (s, e)
    }

    /// Masked text of token `i`.
    pub(crate) fn text(&self, i: usize) -> &str {
        let (s, e, _) = self.spans[i];
        // The buffer only receives whole UTF-8 sequences copied from a `&str`
        // and ASCII text, split at ASCII bytes, so this never fails.
        std::str::from_utf8(&self.buf[s as usize..e as usize]).unwrap_or("")
    }

    /// Masked bytes of token `i`.
    #[inline]
    pub(crate) fn bytes(&self, i: usize) -> &[u8] {
        let (s, e, _) = self.spans[i];
        &self.buf[s as usize..e as usize]
    }

    /// Number of plain tokens (words and names, no masked part).
    pub(crate) fn words(&self) -> usize {
        self.spans
            .iter()
            .filter(|s| matches!(s.2, TokenKind::Word | TokenKind::Value))
            .count()
    }

    /// Kind of token `i`.
    pub(crate) fn kind(&self, i: usize) -> TokenKind {
        self.spans[i].2
    }

    /// Hash of token `i` (after [`Masked::hash_tokens`]).
    pub(crate) fn token_hash(&self, i: usize) -> u64 {
        self.hashes[i]
    }

    /// Hash of the whole masked token sequence: equal sequences have equal
    /// hashes.
    pub(crate) fn seq_hash(&self) -> u64 {
        self.line_hash
    }

    /// A number no other filling of tokens had, given by a [`crate::Masker`] when it
    /// masked a line and passed on with copies of the tokens: two `Masked` with the same
    /// non-zero stamp hold the same tokens. 0 when unknown.
    pub(crate) fn stamp(&self) -> u64 {
        self.stamp
    }

    /// Marks these tokens, just filled, with a new [`Masked::stamp`].
    pub(crate) fn new_stamp(&mut self) {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        self.stamp = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
}

/// If a bracketed group (`[req-1 alice - -]`, `(stack @0x1 @0x2)`) opens
/// at `start` and closes within a short distance, the index of its closing
/// bracket: the group is then one token. `None` when the group does not
/// contain whitespace, does not close, or is long.
fn bracket_close(bytes: &[u8], start: usize) -> Option<usize> {
    let open = bytes[start];
    let close = match open {
        b'[' => b']',
        b'(' => b')',
        b'{' => b'}',
        _ => return None,
    };
    let span = &bytes[start..bytes.len().min(start + MAX_GROUP_BYTES)];
    // Whitespace but ' ' (`\t`, `\n`, `\x0b`, `\x0c`, `\r`: 9 to 13) is rare in a line:
    // without it, only the brackets and the spaces need a look, found by memchr3 a
    // vector at a time instead of a byte at a time. (A fold, not `any`: it vectorizes.)
    let other_space = span
        .iter()
        .fold(false, |seen, &b| seen | (b.wrapping_sub(9) < 5));
    if other_space {
        return group_close(open, close, span.iter().copied().enumerate()).map(|j| start + j);
    }
    let found = memchr::memchr3_iter(open, close, b' ', span).map(|j| (j, span[j]));
    group_close(open, close, found).map(|j| start + j)
}

/// [`bracket_close`] over the bytes of a span that opens with `open`, as `bytes` gives
/// them with their indexes: at least every bracket and whitespace byte, in order.
fn group_close(open: u8, close: u8, bytes: impl Iterator<Item = (usize, u8)>) -> Option<usize> {
    let mut depth = 0usize;
    let mut spaces = 0usize;
    for (j, b) in bytes {
        if b == open {
            depth += 1;
        } else if b == close {
            depth -= 1;
            if depth == 0 {
                return (spaces > 0).then_some(j);
            }
        } else if is_space(b) {
            spaces += 1;
            if spaces > MAX_GROUP_SPACES {
                return None;
            }
        }
    }
    None
}

/// Longest span of a bracketed group or quoted value, in bytes.
pub(crate) const MAX_GROUP_BYTES: usize = 512;
/// Most whitespace bytes inside a bracketed group or quoted value.
const MAX_GROUP_SPACES: usize = 12;

/// If a quoted value (`tag="View Lock"`) opens at `start` (a `"`), the index
/// of its closing quote when it contains whitespace and is short.
fn quote_close(bytes: &[u8], start: usize) -> Option<usize> {
    let mut spaces = 0usize;
    let end = bytes.len().min(start + MAX_GROUP_BYTES);
    for (j, &b) in bytes.iter().enumerate().take(end).skip(start + 1) {
        if b == b'"' {
            return (spaces > 0).then_some(j);
        } else if is_space(b) {
            spaces += 1;
            if spaces > MAX_GROUP_SPACES {
                return None;
            }
        }
    }
    None
}

/// If a string of bytes escaped as C escapes them opens at `start` (a `"`), the index
/// of its closing quote: strace's buffers, `"\177ELF\2\1\1\0"...`, whose bytes are any
/// (a template per buffer, else). Such a string escapes a byte in octal or hex (`\0`,
/// `\247`, `\x9a`, `\xdf`: a backslash, then a run of word bytes that holds a digit or
/// is [`is_hex_escape`]'s, not followed by a terminal's `[`, all of which a line's shape
/// keeps, [`crate::shape`]) and closes within [`MAX_GROUP_BYTES`] and
/// [`MAX_GROUP_SPACES`].
#[inline]
fn escaped_bytes_close(bytes: &[u8], start: usize) -> Option<usize> {
    if bytes[start] != b'"' {
        return None;
    }
    let end = bytes.len().min(start + MAX_GROUP_BYTES);
    let (mut escaped, mut spaces) = (false, 0);
    let mut j = start + 1;
    while j < end {
        match bytes[j] {
            b'"' => return escaped.then_some(j),
            b'\\' => {
                let len = (bytes[j + 1..end].iter())
                    .take_while(|&&b| class(b) & WORD != 0)
                    .count();
                let run = &bytes[j + 1..j + 1 + len];
                // Not a terminal's colour (`\33[31m`, `\x1b[0m`): text in colour is text.
                let colour = bytes.get(j + 1 + len) == Some(&b'[');
                escaped |=
                    !colour && (run.iter().any(u8::is_ascii_digit) || is_hex_escape(b'\\', run));
                // An escaped quote or backslash, else the run.
                j += 1 + len.max(1);
            }
            b if is_space(b) => {
                spaces += 1;
                if spaces > MAX_GROUP_SPACES {
                    return None;
                }
                j += 1;
            }
            _ => j += 1,
        }
    }
    None
}

/// Masks the token that opens with a string of bytes closing at `close`
/// ([`escaped_bytes_close`]) into `out`, returning its end (exclusive): the string is
/// one value, whatever its bytes (spaces too), then what follows its quote (strace's
/// `...,`) masks as a token does.
fn mask_escaped_bytes(bytes: &[u8], close: usize, out: &mut Vec<u8>) -> usize {
    let rest = &bytes[close + 1..];
    let rest = &rest[..rest.iter().take_while(|&&b| !is_space(b)).count()];
    out.extend_from_slice(b"\"<*>\"");
    let flags = rest.iter().fold(0, |flags, &b| flags | class(b));
    mask_token_with(rest, flags, out);
    close + 1 + rest.len()
}

/// End (exclusive) of the token starting at `start`, and the union of the
/// byte classes seen in it (with [`GROUPED`] for a bracketed group or
/// quoted value with whitespace inside): the next whitespace ends a token,
/// except inside a leading bracketed group or a quoted `key="value"`.
fn scan_token(bytes: &[u8], start: usize) -> (usize, u8) {
    let n = bytes.len();
    let open = bytes[start];
    let close = match open {
        b'[' => b']',
        b'(' => b')',
        b'{' => b'}',
        _ => 0,
    };
    let mut depth = 0i32;
    let mut i = start;
    let mut flags = 0u8;
    while i < n {
        let b = bytes[i];
        let c = class(b);
        if c & SPACE != 0 {
            break;
        }
        flags |= c;
        if c & PUNCT != 0 && b == b'"' && i > start && matches!(bytes[i - 1], b'=' | b':') {
            if let Some(q) = quote_close(bytes, i) {
                i = q;
                flags |= GROUPED;
            }
        } else if close != 0 {
            if b == open {
                depth += 1;
            } else if b == close {
                depth -= 1;
            }
        }
        i += 1;
    }
    // A leading bracket still open at the whitespace: the group may extend
    // over several words.
    if depth > 0 && i < n {
        if let Some(c) = bracket_close(bytes, start) {
            i = c;
            flags |= GROUPED;
            while i < n && class(bytes[i]) & SPACE == 0 {
                i += 1;
            }
        }
    }
    (i, flags)
}

/// Scans and masks the token starting at `start` in one pass, writing
/// the masked text to `out` from `o` (`out` has room for three times the
/// rest of the line): `Some((end, out_end, kind))`, exactly what
/// [`scan_token`] and [`mask_token_with`] give, for the common tokens and
/// leading bracketed groups; `None` for the rare ones that need them: a
/// quoted value with whitespace inside, or a calendar word in a long token
/// without digits.
#[inline]
fn mask_plain_token(
    bytes: &[u8],
    start: usize,
    out: &mut [u8],
    mut o: usize,
) -> Option<(usize, usize, TokenKind)> {
    let n = bytes.len();
    let first = bytes[start];
    let close = CLOSERS[first as usize];
    let out_start = o;
    let mut depth = 0i32;
    // Union of the classes of the bytes that decide the kind, and the
    // `ANY_VAR` / `CALENDAR` state bits (no byte class uses them here).
    let mut flags = 0u8;
    const ANY_VAR: u8 = SPACE;
    // A word was masked only for being a calendar name.
    const CALENDAR: u8 = GROUPED;
    // The closing bracket of a leading group with whitespace inside, once
    // found at the first whitespace: the token runs over whitespace to it.
    let mut group_close_at = None;
    let mut i = start;
    while i < n {
        let b = bytes[i];
        let c = class(b);
        if c & WORD != 0 {
            let s = i;
            let mut seen = c;
            i += 1;
            while i < n {
                let c = class(bytes[i]);
                if c & WORD == 0 {
                    break;
                }
                seen |= c;
                i += 1;
            }
            let word = &bytes[s..i];
            let digit = seen & DIGIT != 0;
            let escape = !digit && s > start && is_hex_escape(bytes[s - 1], word);
            let generated = !digit
                && s > start
                && bytes[s - 1] == b'-'
                && is_generated_name_part(word, bytes.get(i).copied());
            // Calendar names start with a capital.
            if digit || escape || generated || (c & UPPER != 0 && is_calendar_word(word)) {
                flags |= seen
                    | ANY_VAR
                    | if digit || escape || generated {
                        0
                    } else {
                        CALENDAR
                    };
                o = push_wild(out, out_start, o);
            } else {
                o = copy_word(out, o, bytes, s, i);
            }
        } else if c & SPACE != 0 {
            match group_close_at {
                Some(close_at) if i < close_at => {}
                Some(_) => break,
                None if depth > 0 => match bracket_close(bytes, start) {
                    Some(close_at) => group_close_at = Some(close_at),
                    None => break,
                },
                None => break,
            }
            // Inside the group: one space per run, as `mask_token_with` writes it.
            out[o] = b' ';
            o += 1;
            while i < n && class(bytes[i]) & SPACE != 0 {
                i += 1;
            }
        } else {
            if group_close_at.is_none()
                && b == b'"'
                && i > start
                && matches!(bytes[i - 1], b'=' | b':')
            {
                if quote_close(bytes, i).is_some() {
                    return None;
                }
            } else if close != 0 {
                if b == first {
                    depth += 1;
                } else if b == close {
                    depth -= 1;
                }
            }
            flags |= c;
            out[o] = b;
            o += 1;
            i += 1;
        }
    }
    // Calendar names are masked in short tokens or tokens with digits only,
    // and in every word of a group (see `mask_token_with`).
    if group_close_at.is_none() && flags & (CALENDAR | DIGIT) == CALENDAR && i - start > 8 {
        return None;
    }
    let tok = &out[out_start..o];
    let kind = if flags & ANY_VAR == 0 {
        if flags & PUNCT == 0 && group_close_at.is_none() {
            TokenKind::Word
        } else {
            literal_kind(tok)
        }
    } else if tok == WILD {
        TokenKind::Wild
    } else {
        TokenKind::Masked
    };
    Some((i, o, kind))
}

/// Writes [`WILDCARD`] at `o`, returning the end.
#[inline]
fn put_wild(out: &mut [u8], o: usize) -> usize {
    out[o..o + 3].copy_from_slice(WILD);
    o + 3
}

/// Copies `src[s..e]` to `out` at `o`, returning the end. A short word
/// (the common case) is copied as 16 bytes when both sides have room:
/// `out` is scratch space, bytes past the end are overwritten later.
#[inline]
fn copy_word(out: &mut [u8], o: usize, src: &[u8], s: usize, e: usize) -> usize {
    let len = e - s;
    if len <= 16 && s + 16 <= src.len() && o + 16 <= out.len() {
        out[o..o + 16].copy_from_slice(&src[s..s + 16]);
    } else {
        out[o..o + len].copy_from_slice(&src[s..e]);
    }
    o + len
}

/// Writes a wildcard for a variable word run at `o` in the token being
/// masked into `out` (which started at `start`), collapsing it with a
/// wildcard just before and one connector (`<*>.<*>` is `<*>`) and taking
/// a sign (`-42`). Returns the end.
#[inline]
fn push_wild(out: &mut [u8], start: usize, o: usize) -> usize {
    if o >= start + 4 && is_connector(out[o - 1]) && &out[o - 4..o - 1] == WILD {
        o - 1
    } else if o > start
        && matches!(out[o - 1], b'-' | b'+')
        && (o == start + 1 || !is_word(out[o - 2]))
    {
        // A sign belongs to the number: `blk_-42`, `-1`.
        put_wild(out, o - 1)
    } else {
        put_wild(out, o)
    }
}

/// Whether two byte strings are equal; inline for short ones (the tokens
/// compared on every line are a few bytes long).
#[inline]
pub(crate) fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let n = a.len();
    match n {
        0 => true,
        1..=7 => load_partial(a) == load_partial(b),
        8..=16 => load8(a, 0) == load8(b, 0) && load8(a, n - 8) == load8(b, n - 8),
        _ => a == b,
    }
}

/// The closing bracket of each opening bracket, 0 for other bytes.
const CLOSERS: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'[' as usize] = b']';
    t[b'(' as usize] = b')';
    t[b'{' as usize] = b'}';
    t
};

/// Byte classes (bit set).
const SPACE: u8 = 1;
const DIGIT: u8 = 2;
const UPPER: u8 = 4;
/// `.` `/` `\` `@` `=` `:` `"`: may make a literal look like a value.
const PUNCT: u8 = 8;
const LOWER: u8 = 16;
/// Bytes of multi-byte UTF-8 sequences: treated as letters.
const HIGH: u8 = 32;
const CONNECTOR: u8 = 64;
const WORD: u8 = DIGIT | UPPER | LOWER | HIGH;
/// Not a byte class: set by [`scan_token`] for groups with whitespace.
const GROUPED: u8 = 128;

const CLASSES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = match c {
            b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c => SPACE,
            b'0'..=b'9' => DIGIT,
            b'A'..=b'Z' => UPPER,
            b'a'..=b'z' => LOWER,
            0x80..=0xff => HIGH,
            // Connectors that are also value punctuation.
            b'.' | b'/' | b'@' | b':' => PUNCT | CONNECTOR,
            b'-' | b'_' | b',' | b'+' => CONNECTOR,
            b'\\' | b'=' | b'"' => PUNCT,
            _ => 0,
        };
        b += 1;
    }
    t
};

#[inline]
fn class(b: u8) -> u8 {
    CLASSES[b as usize]
}

#[inline]
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'\x0b' | b'\x0c')
}

#[inline]
pub(crate) fn is_word(b: u8) -> bool {
    class(b) & WORD != 0
}

#[inline]
fn is_connector(b: u8) -> bool {
    class(b) & CONNECTOR != 0
}

/// Whether a word run after the byte `before` is a byte escaped in hex (`\xdf`), a
/// value as much as `\x9a` is: random bytes as strace shows them
/// (`getrandom("\x9a\xdf\xe6…", 8, GRND_NONBLOCK)`) were a template per call.
#[inline]
fn is_hex_escape(before: u8, word: &[u8]) -> bool {
    before == b'\\'
        && word.len() == 3
        && word[0] == b'x'
        && word[1].is_ascii_hexdigit()
        && word[2].is_ascii_hexdigit()
}

/// Whether a word run of no digit, right after a `-` and followed by the byte
/// `next`, is a part Kubernetes generated for a name: a pod's suffix
/// (`kube-proxy-tmslj`, `api-7d9f8b6c5-qwpxx`) or its replica set's hash
/// (`coredns-ddtlpjtdd-pgnnb`). Kubernetes draws them from an alphabet with no
/// vowel and no `y`, so words are not mistaken for them; one suffix in five
/// has no digit, and such pods made a template each. A suffix is 5 letters
/// and ends the name; a hash is 6 to 10, before the suffix's `-`.
#[inline]
fn is_generated_name_part(word: &[u8], next: Option<u8>) -> bool {
    let fits = match word.len() {
        5 => next != Some(b'-'),
        6..=10 => next == Some(b'-'),
        _ => false,
    };
    // Kubernetes' `rand.String` alphabet, its letters: bit `i` for the `i`th.
    const ALPHABET: u32 = {
        let letters = b"bcdfghjklmnpqrstvwxz";
        let mut bits = 0;
        let mut i = 0;
        while i < letters.len() {
            bits |= 1 << (letters[i] - b'a');
            i += 1;
        }
        bits
    };
    fits && word
        .iter()
        .all(|&b| b.is_ascii_lowercase() && ALPHABET & 1 << (b - b'a') != 0)
}

/// Whether `tok` holds a run that [`is_generated_name_part`] masks.
fn has_generated_name_part(tok: &[u8]) -> bool {
    memchr::memchr_iter(b'-', tok).any(|dash| {
        let start = dash + 1;
        let end = tok[start..]
            .iter()
            .position(|&b| !is_word(b))
            .map_or(tok.len(), |len| start + len);
        is_generated_name_part(&tok[start..end], tok.get(end).copied())
    })
}

/// Month and weekday abbreviations and names are parts of timestamps.
#[inline]
fn is_calendar_word(w: &[u8]) -> bool {
    // All of them are a capital and lowercase letters: most words fail on
    // the first two bytes.
    if w.len() < 3
        || w.len() > 4
        || !w[0].is_ascii_uppercase()
        || !w[1..].iter().all(u8::is_ascii_lowercase)
    {
        return false;
    }
    let key = u32::from_le_bytes([w[0], w[1], w[2], w.get(3).copied().unwrap_or(0)]);
    CALENDAR_KEYS.contains(&key)
}

/// [`CALENDAR_WORDS`] as little-endian words, zero-padded.
const CALENDAR_KEYS: [u32; 20] = {
    let mut k = [0u32; 20];
    let mut i = 0;
    while i < 20 {
        let w = CALENDAR_WORDS[i];
        let b3 = if w.len() > 3 { w[3] } else { 0 };
        k[i] = u32::from_le_bytes([w[0], w[1], w[2], b3]);
        i += 1;
    }
    k
};

const CALENDAR_WORDS: [&[u8]; 20] = [
    b"Jan", b"Feb", b"Mar", b"Apr", b"May", b"Jun", b"Jul", b"Aug", b"Sep", b"Sept", b"Oct",
    b"Nov", b"Dec", b"Mon", b"Tue", b"Wed", b"Thu", b"Fri", b"Sat", b"Sun",
];

/// Masks one token into `out`, returning its kind (tests only; the miner
/// scans classes while finding token ends).
#[cfg(test)]
fn mask_token(tok: &[u8], out: &mut Vec<u8>) -> TokenKind {
    let flags = tok.iter().fold(0u8, |f, &b| f | class(b))
        | if tok.iter().any(|&b| is_space(b)) {
            GROUPED
        } else {
            0
        };
    mask_token_with(tok, flags & !SPACE, out)
}

/// Masks one token into `out`, returning its kind; `flags` are the byte
/// classes of the token (see [`scan_token`]).
fn mask_token_with(tok: &[u8], flags: u8, out: &mut Vec<u8>) -> TokenKind {
    // Fast path: tokens without digits and that cannot hold a calendar
    // word are copied verbatim.
    let calendar = flags & UPPER != 0
        && tok.len() <= 8
        && tok.windows(3).any(|w| {
            w[0].is_ascii_uppercase() && w[1].is_ascii_lowercase() && w[2].is_ascii_lowercase()
        });
    if flags & (DIGIT | GROUPED) == 0
        && !calendar
        && memchr::memmem::find(tok, b"\\x").is_none()
        && !has_generated_name_part(tok)
    {
        out.extend_from_slice(tok);
        return if flags & PUNCT == 0 {
            TokenKind::Word
        } else {
            literal_kind(tok)
        };
    }
    // Fast path: plain numbers, dates, times, IPs.
    if flags & (UPPER | GROUPED) == 0 && is_number(tok) {
        out.extend_from_slice(WILD);
        return TokenKind::Wild;
    }
    let start = out.len();
    let mut any_var = false;
    let mut i = 0;
    let n = tok.len();
    while i < n {
        let b = tok[i];
        if is_word(b) {
            let s = i;
            let mut seen = 0u8;
            while i < n {
                let c = class(tok[i]);
                if c & WORD == 0 {
                    break;
                }
                seen |= c;
                i += 1;
            }
            let digit = seen & DIGIT != 0;
            let word = &tok[s..i];
            if digit
                || s > 0 && is_hex_escape(tok[s - 1], word)
                || s > 0 && tok[s - 1] == b'-' && is_generated_name_part(word, tok.get(i).copied())
                || (seen & UPPER != 0 && is_calendar_word(word))
            {
                any_var = true;
                // Collapse `<*>` + one connector + new variable into one.
                let len = out.len();
                if len >= start + 4 && is_connector(out[len - 1]) && &out[len - 4..len - 1] == WILD
                {
                    out.pop();
                } else if len > start
                    && matches!(out[len - 1], b'-' | b'+')
                    && (len == start + 1 || !is_word(out[len - 2]))
                {
                    // A sign belongs to the number: `blk_-42`, `-1`.
                    out.pop();
                    out.extend_from_slice(WILD);
                } else {
                    out.extend_from_slice(WILD);
                }
            } else {
                out.extend_from_slice(word);
            }
        } else if is_space(b) {
            // Inside a bracketed group: one space per run.
            out.push(b' ');
            while i < n && is_space(tok[i]) {
                i += 1;
            }
        } else {
            out.push(b);
            i += 1;
        }
    }
    if !any_var {
        literal_kind(&out[start..])
    } else if &out[start..] == WILD {
        TokenKind::Wild
    } else {
        TokenKind::Masked
    }
}

/// Whether the token is digits joined by single connectors, with an
/// optional sign (`42`, `-1`, `2015-10-18`, `18:01:47,978`, `10.0.0.1:80`):
/// it masks to exactly `<*>`.
fn is_number(tok: &[u8]) -> bool {
    let mut i = usize::from(matches!(tok.first(), Some(b'-' | b'+')));
    if i >= tok.len() {
        return false;
    }
    let mut after_connector = true;
    while i < tok.len() {
        let b = tok[i];
        if b.is_ascii_digit() {
            after_connector = false;
        } else if is_connector(b) && !after_connector {
            after_connector = true;
        } else {
            return false;
        }
        i += 1;
    }
    !after_connector
}

/// [`TokenKind::Value`] or [`TokenKind::Word`] for a token without variables.
fn literal_kind(tok: &[u8]) -> TokenKind {
    let n = tok.len();
    for i in 0..n {
        let b = tok[i];
        let next_alnum = i + 1 < n && tok[i + 1].is_ascii_alphanumeric();
        let structured = match b {
            // Names: `a.b`, `a@b`.
            b'.' | b'@' => i > 0 && tok[i - 1].is_ascii_alphanumeric() && next_alnum,
            // Paths: `/a`, `a/b`, `C:\\a`.
            b'/' | b'\\' => next_alnum,
            // Quoted values: `key="v"`.
            b'=' | b':' => i + 1 < n && tok[i + 1] == b'"',
            // A bracketed group of several words.
            b' ' => true,
            _ => false,
        };
        if structured {
            return TokenKind::Value;
        }
    }
    TokenKind::Word
}

/// A small, fast, deterministic 64-bit hasher (FxHash-like, with a final
/// avalanche).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hasher(u64);

const K: u64 = 0x517c_c1b7_2722_0a95;

impl Hasher {
    /// A hasher seeded with `seed`.
    #[inline]
    pub(crate) const fn new(seed: u64) -> Self {
        Hasher(seed.wrapping_mul(K) ^ 0x9e37_79b9_7f4a_7c15)
    }

    /// Mixes in one word.
    #[inline]
    pub(crate) const fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(K);
    }

    /// The final hash.
    #[inline]
    pub(crate) const fn finish(self) -> u64 {
        let mut x = self.0;
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^= x >> 33;
        x
    }
}

/// Hash of [`WILDCARD`].
#[inline]
pub(crate) fn wild_hash() -> u64 {
    const H: u64 = const_hash(WILD);
    H
}

/// Hash of a byte string.
#[inline]
pub(crate) fn hash_bytes(b: &[u8]) -> u64 {
    // The same value as `const_hash`, with whole-word loads.
    let mut h = Hasher::new(b.len() as u64);
    let mut chunks = b.chunks_exact(8);
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        h.add(u64::from_le_bytes(w));
    }
    let r = chunks.remainder();
    if !r.is_empty() {
        h.add(load_partial(r));
    }
    h.finish()
}

/// The 8 bytes of `b` from `i` as a little-endian word.
#[inline]
fn load8(b: &[u8], i: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[i..i + 8]);
    u64::from_le_bytes(w)
}

/// The 1 to 7 bytes of `r` as a little-endian word, zero-padded.
#[inline]
fn load_partial(r: &[u8]) -> u64 {
    let n = r.len();
    if n >= 4 {
        let lo = u32::from_le_bytes([r[0], r[1], r[2], r[3]]);
        let hi = u32::from_le_bytes([r[n - 4], r[n - 3], r[n - 2], r[n - 1]]);
        u64::from(lo) | (u64::from(hi) << ((n - 4) * 8))
    } else {
        u64::from(r[0])
            | (u64::from(r[n / 2]) << (n / 2 * 8))
            | (u64::from(r[n - 1]) << ((n - 1) * 8))
    }
}

/// Hash of a byte string, usable in constants.
const fn const_hash(b: &[u8]) -> u64 {
    let mut h = Hasher::new(b.len() as u64);
    let mut i = 0;
    while i + 8 <= b.len() {
        h.add(u64::from_le_bytes([
            b[i],
            b[i + 1],
            b[i + 2],
            b[i + 3],
            b[i + 4],
            b[i + 5],
            b[i + 6],
            b[i + 7],
        ]));
        i += 8;
    }
    if i < b.len() {
        let mut w = [0u8; 8];
        let mut j = 0;
        while i + j < b.len() {
            w[j] = b[i + j];
            j += 1;
        }
        h.add(u64::from_le_bytes(w));
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pseudo-random numbers from `seed`, the same every run.
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    #[test]
    fn a_groups_close_is_found_alike_by_its_brackets_and_spaces_and_byte_by_byte() {
        // Random spans of brackets, spaces (a tab now and then) and words, and longer
        // than the limit: the close memchr3 finds is the one a look at every byte finds.
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        let alphabet = b"[[]](){}    ab1-\t";
        for _ in 0..3_000 {
            let len = (next() % 300) as usize + 1;
            let mut bytes: Vec<u8> = (0..len)
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                .collect();
            if next().is_multiple_of(2) {
                bytes.retain(|&b| b != b'\t');
            }
            for start in 0..bytes.len() {
                let expected = match bytes[start] {
                    b'[' => Some(b']'),
                    b'(' => Some(b')'),
                    b'{' => Some(b'}'),
                    _ => None,
                }
                .and_then(|close| {
                    let span = &bytes[start..bytes.len().min(start + MAX_GROUP_BYTES)];
                    group_close(bytes[start], close, span.iter().copied().enumerate())
                })
                .map(|j| start + j);
                assert_eq!(bracket_close(&bytes, start), expected, "{bytes:?} {start}");
            }
        }
    }

    fn tok(s: &str) -> (String, TokenKind) {
        let mut out = Vec::new();
        let k = mask_token(s.as_bytes(), &mut out);
        (String::from_utf8(out).unwrap(), k)
    }

    #[test]
    fn numbers_and_addresses_collapse() {
        assert_eq!(tok("10.251.73.220:50010").0, "<*>");
        assert_eq!(tok("2015-10-18").0, "<*>");
        assert_eq!(tok("18:01:47,978").0, "<*>");
        assert_eq!(tok("0x7fed806eb5d").0, "<*>");
        assert_eq!(tok("12").1, TokenKind::Wild);
    }

    #[test]
    fn number_fast_path_agrees() {
        for t in [
            "42",
            "-1",
            "+7",
            "1.5",
            "2015-10-18",
            "1:2",
            "1..2",
            "1.",
            "-",
            "1-a",
            ".5",
        ] {
            let fast = is_number(t.as_bytes());
            let mut out = Vec::new();
            let flags = t.bytes().fold(0u8, |f, b| f | class(b));
            let k = mask_token_with(t.as_bytes(), flags | UPPER, &mut out);
            assert_eq!(fast, k == TokenKind::Wild, "{t}");
        }
    }

    #[test]
    fn structure_is_kept() {
        assert_eq!(tok("uid=0"), ("uid=<*>".to_string(), TokenKind::Masked));
        assert_eq!(tok("sshd[24200]:").0, "sshd[<*>]:");
        assert_eq!(tok("blk_-6952295868487656571").0, "blk_<*>");
        assert_eq!(tok("-1").0, "<*>");
        assert_eq!(tok("x=+5").0, "x=<*>");
        assert_eq!(tok("(HWID=1973)").0, "(HWID=<*>)");
        assert_eq!(tok("calvisitor-10-105-160-95").0, "calvisitor-<*>");
        assert_eq!(
            tok("IOThunderboltSwitch<0>(0x0)::listenerCallback").0,
            "IOThunderboltSwitch<<*>>(<*>)::listenerCallback"
        );
    }

    #[test]
    fn words_stay_literal() {
        assert_eq!(tok("closed"), ("closed".to_string(), TokenKind::Word));
        assert_eq!(tok("INFO").1, TokenKind::Word);
        assert_eq!(tok("completion.").1, TokenKind::Word);
        assert_eq!(tok("chrome.exe").1, TokenKind::Value);
        assert_eq!(tok("/var/run/x").1, TokenKind::Value);
        assert_eq!(tok("user=root").1, TokenKind::Word);
        assert_eq!(tok("ret:false").1, TokenKind::Word);
        assert_eq!(tok("/ws/*").1, TokenKind::Value);
        assert_eq!(tok("tag=\"a b\",").1, TokenKind::Value);
        assert_eq!(tok("Maybe").0, "Maybe");
    }

    #[test]
    fn names_kubernetes_generated_are_variable() {
        // A pod's suffix and its replica set's hash, with digits or without.
        assert_eq!(
            tok("api-4snkjt2th-tmslj"),
            ("api-<*>".into(), TokenKind::Masked)
        );
        assert_eq!(tok("coredns-ddtlpjtdd-pgnnb").0, "coredns-<*>");
        assert_eq!(tok("coredns-ddtlpjtdd-p5nnb").0, "coredns-<*>");
        assert_eq!(tok("kube-proxy-tmslj").0, "kube-proxy-<*>");
        assert_eq!(tok("pod/api-7d9f8b6c5-qwpxx:").0, "pod/api-<*>:");
        // A hash is at most 10 letters; the suffix after a longer run is still one.
        assert_eq!(tok("web-ddtlpjtddbc-pgnnb").0, "web-ddtlpjtddbc-<*>");
        // Not words, nor runs of other lengths or places, nor capitals: the alphabet has
        // no vowel and no `y`.
        for literal in [
            "kube-proxy",
            "tmslj",
            "--https-only",
            "x-bcdf",
            "ab-tmsljx",
            "a-strncmp",
            "api-TMSLJ",
            "web-ddtlpjtdd",
            "ns-rhythm",
            "job-batch",
            "svc-crypt",
        ] {
            assert_eq!(tok(literal).0, literal);
        }
    }

    #[test]
    fn bytes_escaped_in_hex_are_variable() {
        // strace's random bytes: one template for every call, not one each.
        assert_eq!(
            mask("getrandom(\"\\x9a\\xdf\\xe6\", 8, GRND_NONBLOCK) = 8"),
            mask("getrandom(\"\\xdf\\xab\\xfe\", 8, GRND_NONBLOCK) = 8"),
        );
        assert_eq!(tok("\"\\xdf\\xab\",").0, "\"\\<*>\\<*>\",");
        // The same masked by the path of rarer tokens (a quoted value with a space).
        assert_eq!(tok("a=\"\\xdf q\"").0, "a=\"\\<*> q\"");
        // In a long token with a calendar word, masked by the path of rarer tokens too.
        assert_eq!(mask("Jun-\\xdf-abcdef"), "<*>-\\<*>-abcdef");
        // Only a backslash, an `x` and two hex digits.
        for kept in ["\\xdfx", "\\xd", "\\xgg", "\\xag", "xab", "/xab"] {
            assert_eq!(tok(kept).0, kept);
            assert_eq!(mask(kept), kept);
        }
        assert_eq!(mask("\\xdf/xab"), "\\<*>/xab");
    }

    #[test]
    fn strings_of_bytes_escaped_as_c_escapes_them_are_one_value() {
        // strace's buffers, whatever their bytes: one template for every call.
        for buffer in [
            r#""\177ELF\2\1\1\0\0\0\0\0\0\0\0\0\3\0>\0\1\0\0\0""#,
            r#""\247\r\r\n\0\0\0\0\305\343\376iS'\0\0\343 \0\"x""#,
            r#""\xdf\xab\xfe""#,
            r#""ab\x9a""#,
        ] {
            assert_eq!(
                mask(&format!("read(3, {buffer}..., 832) = 832")),
                "read(<*>, \"<*>\"..., <*>) = <*>",
                "{buffer}"
            );
        }
        assert_eq!(
            mask(r#"write(1, "\0 a", 3) = 3"#),
            "write(<*>, \"<*>\", <*>) = <*>"
        );
        // Text: its words are the template's, in colour too (as a token masks them).
        for (text, masked) in [
            (
                r#""\33[31mFAIL\33[0m t.py: boom\n""#,
                r#""\<*>[<*>\<*>[<*> t.py: boom\n""#,
            ),
            (r#""\x1b[32mPASS\x1b[0m ok""#, r#""\<*>[<*>\<*>[<*> ok""#),
            (r#""/tmp/s63\n""#, r#""/tmp/<*>\n""#),
            (r#""\nif [ -z \"x\" ]""#, r#""\nif [ -z \"x\" ]""#),
            (r#""a\\0b""#, r#""a\\<*>""#),
            // Not closed, or closed past too many spaces.
            (r#""\0 a"#, r#""\<*> a"#),
        ] {
            assert_eq!(
                mask(&format!("write(1, {text}, 9)")),
                format!("write(<*>, {masked}, <*>)")
            );
        }
        let spaced = format!("\"\\0{}\"", " a".repeat(MAX_GROUP_SPACES + 1));
        assert!(mask(&spaced).starts_with("\"\\<*> a"), "{}", mask(&spaced));
    }

    #[test]
    fn calendar_words_are_variable() {
        assert_eq!(tok("Jun").1, TokenKind::Wild);
        assert_eq!(tok("[Sun").0, "[<*>");
        assert_eq!(
            mask("[Sun Dec 04 04:47:44 2005] [notice]"),
            "[<*> <*> <*> <*> <*>] [notice]"
        );
    }

    #[test]
    fn mask_line_normalizes_whitespace() {
        assert_eq!(mask("  a   b\t12\r\n"), "a b <*>");
        assert_eq!(mask(""), "");
    }

    #[test]
    fn bracket_groups_are_one_token() {
        assert_eq!(mask("x [req-1a2b alice  - -] y"), "x [req-<*> alice - -] y");
        let mut m = Masked::default();
        m.fill("a [b c] (d (e f)) [unclosed g", usize::MAX, usize::MAX);
        assert_eq!(m.len(), 5);
        assert_eq!(m.text(1), "[b c]");
        assert_eq!(m.text(2), "(d (e f))");
        assert_eq!(m.text(3), "[unclosed");
        m.fill(
            "tag=\"View Lock\", x=\"a\" \"GET /x HTTP\"",
            usize::MAX,
            usize::MAX,
        );
        assert_eq!(m.len(), 5);
        assert_eq!(m.text(0), "tag=\"View Lock\",");
        assert_eq!(m.text(2), "\"GET");
    }

    #[test]
    fn non_ascii_is_kept() {
        assert_eq!(mask("héllo wörld 3"), "héllo wörld <*>");
    }

    #[test]
    fn hash_bytes_matches_const_hash() {
        let data: Vec<u8> = (0..40u8).map(|b| b.wrapping_mul(37) ^ 0x5a).collect();
        for a in 0..data.len() {
            for b in a..data.len() {
                assert_eq!(hash_bytes(&data[a..b]), const_hash(&data[a..b]));
            }
        }
        assert_eq!(wild_hash(), hash_bytes(WILD));
    }

    fn assert_same_fill(line: &str, max_tokens: usize, max_token_bytes: usize) {
        let (mut a, mut b) = (Masked::default(), Masked::default());
        a.fill(line, max_tokens, max_token_bytes);
        a.hash_tokens();
        b.fill_reference(line, max_tokens, max_token_bytes);
        let texts = |m: &Masked| {
            (0..m.len())
                .map(|i| m.text(i).to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(texts(&a), texts(&b), "{line:?}");
        assert_eq!(a.spans, b.spans, "{line:?}");
        assert_eq!(a.hashes, b.hashes, "{line:?}");
    }

    #[test]
    fn one_pass_fill_matches_two_pass() {
        let fixed = [
            "Jun 14 15:16:01 combo sshd[19939]: uid=0 from 10.0.0.1",
            "[Sun Dec 04 04:47:44 2005] [notice] x",
            "Sunday-Monday [Sun-extra] Junebug Jun-x Jun1 xJun SunX Sun. Sun-Mon-Tue",
            "tag=\"View Lock\", x=\"a\" \"GET /x HTTP\" a:\"b c\" =\"q r\"",
            "a [b c] (d (e f)) [unclosed g {x y} (( a ) b",
            "blk_-69522 -1 +7 1.5 x=+5 a--1 a-+1 1..2 1. .5 - + -- 0x7f 10.1.2.3:8080",
            "héllo wörld 3 é1 1é \u{0} \\a\\b C:\\x",
            "  a   b\t12\r\n",
            "<*> <*>1 <<*>> a.b a@b /x/y x/ ./ id=1 id=a id=a.b",
            "f(\"\\x9a\\xdf\\xe6\", 8) \\xdfx \\xd \\xg1 x\\xab a=\"\\xdf q\\xab\" [\\xab c]",
            "ns/api-ddtlpjtdd-pgnnb [a-bcdfg x] Jun-tmslj a-tmslj-b -tmslj- a--bcdfgh-",
        ];
        for l in fixed {
            for (mt, mb) in [(usize::MAX, usize::MAX), (128, 256), (3, 5), (1, 1), (2, 8)] {
                assert_same_fill(l, mt, mb);
            }
        }
        // Random lines over an alphabet of bytes that matter to masking.
        const ALPHA: &[&str] = &[
            " ", " ", " ", "\t", "a", "b", "Z", "J", "un", "Sun", "Jun", "Sept", "Mon", "1", "42",
            "0x", ".", "/", "\\", "@", "=", ":", "\"", "-", "_", ",", "+", "[", "]", "(", ")", "{",
            "}", "<", ">", "*", "é", "#", "<*>", "=\"", "key=", "id=", "\\x", "df", "e", "tmslj",
            "bcdfgh",
        ];
        let mut next = xorshift(0x1234_5678_9abc_def0);
        for _ in 0..20_000 {
            let len = (next() % 40) as usize;
            let line: String = (0..len)
                .map(|_| ALPHA[(next() % ALPHA.len() as u64) as usize])
                .collect();
            assert_same_fill(&line, usize::MAX, usize::MAX);
            assert_same_fill(&line, 1 + (next() % 6) as usize, 1 + (next() % 12) as usize);
        }
    }

    #[test]
    fn calendar_words() {
        for w in CALENDAR_WORDS {
            assert!(is_calendar_word(w));
        }
        for w in [
            "Ju", "June", "JUN", "jun", "Sep.", "Sepx", "Sun\0", "Mo", "Sunday", "Tues",
        ] {
            assert!(!is_calendar_word(w.as_bytes()), "{w}");
        }
    }

    #[test]
    fn bytes_eq_is_equality() {
        let data: Vec<u8> = (0..40u8).map(|b| b % 5).collect();
        for a in 0..data.len() {
            for b in a..data.len().min(a + 24) {
                for c in 0..data.len() {
                    for d in c..data.len().min(c + 24) {
                        let (x, y) = (&data[a..b], &data[c..d]);
                        assert_eq!(bytes_eq(x, y), x == y);
                    }
                }
            }
        }
    }
}
