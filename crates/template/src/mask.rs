//! Tokenizing and masking of raw log lines.
//!
//! A line is split on ASCII whitespace into tokens. Inside each token, every
//! maximal run of alphanumeric characters that contains a digit (numbers, hex
//! ids, IP octets, versions, UUID parts, hostnames such as `node-17`...), or
//! that is a month or weekday abbreviation (`Jun`, `Sun`...), is replaced by
//! the wildcard [`WILDCARD`]. Wildcards joined by a single connector
//! character (`. : - _ , / @ +`) collapse into one, so `10.1.2.3:8080`,
//! `2015-10-18` and `18:01:47,978` each become a single `<*>`, while the
//! surrounding structure is kept: `uid=0` becomes `uid=<*>`,
//! `sshd[24200]:` becomes `sshd[<*>]:`, `blk_-69522` becomes `blk_<*>`.
//!
//! A bracketed group of a few words (`[req-1 alice - -]`, `(stack @0x1
//! @0x2)`) and a quoted value with spaces (`tag="View Lock"`) are one token.
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
/// octets, versions, UUID parts, host names such as `node-17`) or that is a
/// month or weekday name becomes `<*>`; such wildcards joined by one
/// connector (`. : - _ , / @ +`) collapse into one, so `10.1.2.3:8080`,
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
    let mut out = String::with_capacity(m.buf.len() + m.spans.len());
    for i in 0..m.len() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(m.text(i));
    }
    out
}

/// A reusable buffer holding the masked tokens of one line.
///
/// Filling it does not allocate once its buffers have grown to the size of
/// the longest line seen.
#[derive(Debug, Default, Clone)]
pub(crate) struct Masked {
    /// Masked token texts, concatenated.
    buf: Vec<u8>,
    /// `(start, end, kind)` of each token in `buf`.
    spans: Vec<(u32, u32, TokenKind)>,
    /// Hash of each masked token.
    hashes: Vec<u64>,
}

impl Masked {
    /// Replaces the content with the masked tokens of `line`.
    ///
    /// Tokens longer than `max_token_bytes` become a wildcard; after
    /// `max_tokens` tokens, the rest of the line becomes one wildcard token.
    pub(crate) fn fill(&mut self, line: &str, max_tokens: usize, max_token_bytes: usize) {
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

    /// Number of tokens.
    pub(crate) fn len(&self) -> usize {
        self.spans.len()
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

    /// Hash of token `i`.
    pub(crate) fn token_hash(&self, i: usize) -> u64 {
        self.hashes[i]
    }

    /// Hash of the whole masked token sequence.
    pub(crate) fn seq_hash(&self) -> u64 {
        let mut h = Hasher::new(self.hashes.len() as u64);
        for &t in &self.hashes {
            h.add(t);
        }
        h.finish()
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
    let mut depth = 0usize;
    let mut spaces = 0usize;
    let end = bytes.len().min(start + MAX_GROUP_BYTES);
    for (j, &b) in bytes.iter().enumerate().take(end).skip(start) {
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
const MAX_GROUP_BYTES: usize = 256;
/// Most whitespace runs inside a bracketed group or quoted value.
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
fn is_word(b: u8) -> bool {
    class(b) & WORD != 0
}

#[inline]
fn is_connector(b: u8) -> bool {
    class(b) & CONNECTOR != 0
}

/// Month and weekday abbreviations and names are parts of timestamps.
fn is_calendar_word(w: &[u8]) -> bool {
    const WORDS: [&[u8]; 19] = [
        b"Jan", b"Feb", b"Mar", b"Apr", b"May", b"Jun", b"Jul", b"Aug", b"Sep", b"Sept", b"Oct",
        b"Nov", b"Dec", b"Mon", b"Tue", b"Wed", b"Thu", b"Fri", b"Sat",
    ];
    if w.len() < 3 || w.len() > 4 {
        return false;
    }
    w == b"Sun" || WORDS.contains(&w)
}

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
    if flags & (DIGIT | GROUPED) == 0 && !calendar {
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
            if digit || (seen & UPPER != 0 && is_calendar_word(word)) {
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
    const_hash(b)
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
}
