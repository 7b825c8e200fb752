//! Line shapes, and a masker that remembers the masked tokens of recent ones.
//!
//! Masking ([`crate::mask`]) replaces every alphanumeric run that holds a
//! digit by `<*>` and decides everything else from the bytes around such
//! runs: whitespace, punctuation, brackets, quotes and the words without
//! digits. So two lines that differ only inside such runs mask to the same
//! tokens, however long the runs are. The *shape* of a line is the line with
//! each of these runs replaced by the single byte `0`: equal shapes, equal
//! masked tokens. (A `0` in a shape always stands for a run: every digit of
//! the line is inside one.)
//!
//! That holds for lines of at most [`MAX_SHAPE_BYTES`] bytes, and no longer
//! than a miner's `max_token_bytes`. Past those lengths the masking rules
//! look at byte counts: a bracketed group or quoted value is looked for
//! within 512 bytes ([`MAX_GROUP_BYTES`], which covers the rest of a line
//! that short), and a token longer than `max_token_bytes` is a wildcard
//! whatever its bytes.
//!
//! Finding a shape costs a few vector instructions per 16 bytes (per 64
//! with AVX-512) and has no branch that depends on the text; masking costs a
//! few unpredictable branches per token. [`Masker`] finds the shape first and
//! looks it up.

use crate::mask::{hash_bytes, is_word, Masked, MAX_GROUP_BYTES};
use crate::miner::{trim_newline, Config, MaskedLine};

/// Longest line whose masked tokens a [`Masker`] looks up by shape. (512:
/// three lines in four of OpenStack's log are 257 to 451 bytes long.)
pub(crate) const MAX_SHAPE_BYTES: usize = 512;
// A group found in a line that short is found whatever the lengths of its runs.
const _: () = assert!(MAX_SHAPE_BYTES <= MAX_GROUP_BYTES);

/// Room for a shape: the SSSE3 kernel's stores of 8 bytes may pass its end.
const SHAPE_ROOM: usize = MAX_SHAPE_BYTES + 16;

/// Remembered shapes: a direct-mapped table, indexed by the top bits of the
/// shape's hash.
const SLOTS: usize = 1024;
const SLOT_SHIFT: u32 = 64 - SLOTS.trailing_zeros();

/// Lines per look at the hit rate.
const WINDOW: u32 = 1024;
/// Lines masked without a lookup after a window in which most lookups
/// missed (the lines have more shapes than the table holds).
const BYPASS: u32 = 32 * WINDOW;

/// Masks lines exactly as [`MaskedLine::fill`] does, faster on input whose
/// lines repeat a limited number of shapes, as logs do.
///
/// It remembers the masked tokens of the last line of each of up to 1,024
/// shapes (see the module doc). A line whose shape it holds gets a copy of
/// them; any other line is masked and remembered. The result is the same
/// either way, so the table only saves time. When most lines miss (input
/// with thousands of shapes), it masks the next lines without looking them
/// up and tries again later.
///
/// Memory: the table holds at most 1,024 shapes of at most 512 bytes, each
/// with its masked tokens, whatever the input's size.
///
/// ```
/// use briefly_template::{Config, Masker, MaskedLine, Miner};
///
/// let config = Config::default();
/// let mut masker = Masker::new(&config);
/// let mut miner = Miner::new(config);
/// let mut masked = MaskedLine::default();
/// let mut ids = Vec::new();
/// for (n, line) in ["took 7 ms", "took 1234 ms", "closed"].into_iter().enumerate() {
///     masker.fill(line, &mut masked);
///     ids.push(miner.add_prepared(&mut masked, line, n as u64 + 1));
/// }
/// assert_eq!(ids[0], ids[1]);
/// assert_ne!(ids[0], ids[2]);
/// assert_eq!(miner.get(ids[0]).unwrap().text(), "took <*> ms");
/// ```
#[derive(Clone, Debug)]
pub struct Masker {
    max_tokens: usize,
    max_token_bytes: usize,
    /// Longest line looked up by shape.
    limit: usize,
    /// How shapes are found on this CPU.
    kernel: Kernel,
    /// The shape of the line being masked.
    shape: Box<[u8; SHAPE_ROOM]>,
    slots: Vec<Slot>,
    window_lines: u32,
    window_misses: u32,
    /// Lines left to mask without a lookup.
    bypass: u32,
}

/// One remembered shape and the masked tokens of a line of that shape.
#[derive(Clone, Debug, Default)]
struct Slot {
    hash: u64,
    /// Empty when unused: every line looked up has a non-empty shape.
    shape: Vec<u8>,
    masked: Masked,
}

impl Masker {
    /// A masker that masks as a [`Miner`](crate::Miner) with `config` does.
    pub fn new(config: &Config) -> Masker {
        Masker {
            max_tokens: config.max_tokens,
            max_token_bytes: config.max_token_bytes,
            limit: MAX_SHAPE_BYTES.min(config.max_token_bytes),
            kernel: Kernel::best(),
            shape: Box::new([0; SHAPE_ROOM]),
            slots: vec![Slot::default(); SLOTS],
            window_lines: 0,
            window_misses: 0,
            bypass: 0,
        }
    }

    /// Replaces `out`'s content with the masked tokens of `line`: the same
    /// as `out.fill(line, config)` with this masker's config.
    pub fn fill(&mut self, line: &str, out: &mut MaskedLine) {
        let line = trim_newline(line);
        let n = line.len();
        if n == 0 || n > self.limit || self.bypass > 0 {
            self.bypass = self.bypass.saturating_sub(1);
            out.0.fill(line, self.max_tokens, self.max_token_bytes);
            return;
        }
        let len = self.kernel.shape(line.as_bytes(), &mut self.shape);
        let shape = &self.shape[..len];
        let hash = hash_bytes(shape);
        let slot = &mut self.slots[(hash >> SLOT_SHIFT) as usize];
        if slot.hash == hash && slot.shape == shape {
            out.0.clone_from_tokens(&slot.masked);
        } else {
            out.0.fill(line, self.max_tokens, self.max_token_bytes);
            out.0.new_stamp();
            slot.hash = hash;
            slot.shape.clear();
            slot.shape.extend_from_slice(shape);
            slot.masked.clone_from_tokens(&out.0);
            self.window_misses += 1;
        }
        self.window_lines += 1;
        if self.window_lines == WINDOW {
            if self.window_misses > WINDOW / 2 {
                self.bypass = BYPASS;
            }
            self.window_lines = 0;
            self.window_misses = 0;
        }
    }
}

/// A way to find a line's shape: each gives [`shape_scalar`]'s.
///
/// A vector kernel is only had from [`Kernel::available`], which saw the CPU features
/// it needs: [`Kernel::shape`] relies on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kernel {
    /// A byte at a time.
    Scalar,
    /// 16 bytes at a time, with SSSE3 and POPCNT ([`x86::shape`]).
    #[cfg(target_arch = "x86_64")]
    Ssse3,
    /// 64 bytes at a time, with AVX-512 (BW and VBMI2, whose byte compression packs
    /// the kept bytes in one instruction) ([`x86::shape_avx512`]).
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

impl Kernel {
    /// The fastest kernel this CPU can run.
    fn best() -> Kernel {
        Kernel::available()
            .last()
            .copied()
            .unwrap_or(Kernel::Scalar)
    }

    /// The kernels this CPU can run, slowest first.
    fn available() -> Vec<Kernel> {
        #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
        let mut kernels = vec![Kernel::Scalar];
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            if has!("ssse3") && has!("popcnt") {
                kernels.push(Kernel::Ssse3);
            }
            if has!("avx512f") && has!("avx512bw") && has!("avx512vbmi2") && has!("popcnt") {
                kernels.push(Kernel::Avx512);
            }
        }
        kernels
    }

    /// Writes the shape of `line` (at most [`MAX_SHAPE_BYTES`] bytes) to `out`,
    /// returning its length.
    ///
    /// A longer line is checked for in debug builds only (beside 6214104 in
    /// `benches/loghub/ab.sh`, an `assert` here measured 0.96× over all sets, HDFS 0.85×,
    /// and this 1.04×): every kernel then stops at an array's bounds, a panic, before it
    /// reads or writes past anything.
    fn shape(self, line: &[u8], out: &mut [u8; SHAPE_ROOM]) -> usize {
        debug_assert!(line.len() <= MAX_SHAPE_BYTES);
        match self {
            Kernel::Scalar => shape_scalar(line, &mut out[..]),
            // SAFETY: the CPU has SSSE3 and POPCNT (the type's doc); the line's length
            // is seen to above.
            #[cfg(target_arch = "x86_64")]
            Kernel::Ssse3 => unsafe { x86::shape(line, out) },
            // SAFETY: the CPU has AVX-512 F, BW, VBMI2 and POPCNT (the type's doc); the
            // line's length is seen to above.
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => unsafe { x86::shape_avx512(line, out) },
        }
    }
}

/// Writes the shape of `line` to `out`, returning its length: the
/// reference for the vector kernels ([`Kernel`]), and the path where they cannot run.
fn shape_scalar(line: &[u8], out: &mut [u8]) -> usize {
    let n = line.len();
    let mut o = 0;
    let mut i = 0;
    while i < n {
        if !is_word(line[i]) {
            out[o] = line[i];
            o += 1;
            i += 1;
            continue;
        }
        let start = i;
        let mut digit = false;
        while i < n && is_word(line[i]) {
            digit |= line[i].is_ascii_digit();
            i += 1;
        }
        if digit {
            out[o] = b'0';
            o += 1;
        } else {
            out[o..o + i - start].copy_from_slice(&line[start..i]);
            o += i - start;
        }
    }
    o
}

/// Bit `i` set in each 64-bit block: a bit set per byte of a line of at most
/// [`MAX_SHAPE_BYTES`] bytes.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
type Bits = [u64; MAX_SHAPE_BYTES / 64];

/// The bits of `word` that belong to a run of set bits holding a bit of
/// `digit` (`digit` is within `word`): the alphanumeric runs with a digit.
/// Only the first `blocks` blocks are looked at.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[inline(always)]
fn runs_with_digit(word: &Bits, digit: &Bits, blocks: usize) -> Bits {
    let mut out = [0u64; MAX_SHAPE_BYTES / 64];
    // Spread each digit towards the run's end (higher bits), block by
    // block: a run that reaches bit 63 goes on at bit 0 of the next block.
    let mut carry = 0;
    for b in 0..blocks {
        let up = spread_up(digit[b] | (carry & word[b] & 1), word[b]);
        out[b] = up;
        carry = up >> 63;
    }
    // And towards its start.
    let mut carry = 0;
    for b in (0..blocks).rev() {
        let down = spread_down(digit[b] | ((carry << 63) & word[b]), word[b]);
        out[b] |= down;
        carry = down & 1;
    }
    out
}

/// `seed` spread to higher bits along the runs of `within`: log-step
/// doubling, where `m` holds the bits whose last `2k` bits are all in a run.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[inline(always)]
fn spread_up(mut seed: u64, within: u64) -> u64 {
    let mut m = within;
    for k in [1, 2, 4, 8, 16, 32] {
        seed |= (seed << k) & m;
        m &= m << k;
    }
    seed
}

/// The bytes of block `b` of a line of `n` bytes that are the line's (`64 * b < n`).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[inline(always)]
fn block_bytes(n: usize, b: usize) -> u64 {
    match n - 64 * b {
        v if v >= 64 => u64::MAX,
        v => (1u64 << v) - 1,
    }
}

/// For a line of `n` bytes whose runs with a digit are `var` ([`runs_with_digit`]):
/// the first byte of each run, which becomes `0`, and the bytes the shape keeps (the
/// rest of a run goes, and so do the bytes past the line).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[inline(always)]
fn starts_and_kept(var: &Bits, n: usize) -> (Bits, Bits) {
    let mut start: Bits = [0; MAX_SHAPE_BYTES / 64];
    let mut keep: Bits = [0; MAX_SHAPE_BYTES / 64];
    let mut prev = 0;
    for b in 0..n.div_ceil(64) {
        start[b] = var[b] & !((var[b] << 1) | prev);
        prev = var[b] >> 63;
        keep[b] = (!var[b] | start[b]) & block_bytes(n, b);
    }
    (start, keep)
}

/// `seed` spread to lower bits along the runs of `within`.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[inline(always)]
fn spread_down(mut seed: u64, within: u64) -> u64 {
    let mut m = within;
    for k in [1, 2, 4, 8, 16, 32] {
        seed |= (seed >> k) & m;
        m &= m >> k;
    }
    seed
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::{block_bytes, runs_with_digit, starts_and_kept, Bits, MAX_SHAPE_BYTES, SHAPE_ROOM};

    /// For each 8-bit mask, the indices of its set bits in order: a
    /// `pshufb` control that packs the kept bytes of 8.
    const PACK: [u64; 256] = {
        let mut t = [0u64; 256];
        let mut m = 0;
        while m < 256 {
            let mut k = 0;
            let mut word = 0u64;
            let mut bit = 0;
            while bit < 8 {
                if m & (1 << bit) != 0 {
                    word |= (bit as u64) << (8 * k);
                    k += 1;
                }
                bit += 1;
            }
            t[m] = word;
            m += 1;
        }
        t
    };

    /// `pshufb` controls that move a vector's bytes down by `k` and zero the top `k`:
    /// the 16 bytes from `k`.
    const SHIFT_DOWN: [u8; 32] = {
        let mut t = [0x80; 32];
        let mut i = 0;
        while i < 16 {
            t[i] = i as u8;
            i += 1;
        }
        t
    };

    /// The shape of `line`, written to `out`; returns its length.
    ///
    /// # Safety
    /// The CPU has SSSE3 and POPCNT, and `line` has at most
    /// [`MAX_SHAPE_BYTES`] bytes.
    #[target_feature(enable = "ssse3,popcnt")]
    pub(super) unsafe fn shape(line: &[u8], out: &mut [u8; SHAPE_ROOM]) -> usize {
        let n = line.len();
        let chunks = n.div_ceil(16);
        // The line in 16-byte vectors, the last one padded with zero bytes
        // (neither alphanumeric nor kept).
        let mut vectors = [_mm_setzero_si128(); MAX_SHAPE_BYTES / 16];
        for (j, v) in vectors.iter_mut().enumerate().take(n / 16) {
            *v = _mm_loadu_si128(line.as_ptr().add(16 * j).cast());
        }
        if !n.is_multiple_of(16) {
            vectors[n / 16] = if n >= 16 {
                // The line's last 16 bytes, moved down past those of the vector before:
                // a copy to the stack and a load of it would wait for the copy's stores.
                let last = _mm_loadu_si128(line.as_ptr().add(n - 16).cast());
                let down = _mm_loadu_si128(SHIFT_DOWN.as_ptr().add(16 - n % 16).cast());
                _mm_shuffle_epi8(last, down)
            } else {
                let mut tail = [0u8; 16];
                tail[..n].copy_from_slice(line);
                _mm_loadu_si128(tail.as_ptr().cast())
            };
        }
        let mut word: Bits = [0; MAX_SHAPE_BYTES / 64];
        let mut digit: Bits = [0; MAX_SHAPE_BYTES / 64];
        for (j, &x) in vectors.iter().enumerate().take(chunks) {
            let d = _mm_sub_epi8(x, _mm_set1_epi8(b'0' as i8));
            let is_digit = _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d);
            let l = _mm_sub_epi8(
                _mm_or_si128(x, _mm_set1_epi8(0x20)),
                _mm_set1_epi8(b'a' as i8),
            );
            let is_letter = _mm_cmpeq_epi8(_mm_min_epu8(l, _mm_set1_epi8(25)), l);
            // Bytes of multi-byte UTF-8 sequences (high bit set) are letters.
            let w = _mm_movemask_epi8(_mm_or_si128(is_digit, is_letter)) | _mm_movemask_epi8(x);
            let shift = 16 * (j % 4);
            word[j / 4] |= u64::from(w as u16) << shift;
            digit[j / 4] |= u64::from(_mm_movemask_epi8(is_digit) as u16) << shift;
        }
        let blocks = n.div_ceil(64);
        let var = runs_with_digit(&word, &digit, blocks);
        let (start, keep) = starts_and_kept(&var, n);
        let spread = _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1);
        let bit_of_byte = _mm_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
        let zero_char = _mm_set1_epi8(b'0' as i8);
        let high_half = 0x0808_0808_0808_0808u64;
        let mut o = 0;
        for (j, &x) in vectors.iter().enumerate().take(chunks) {
            let shift = 16 * (j % 4);
            let starts = (start[j / 4] >> shift) as u16;
            let kept = (keep[j / 4] >> shift) as u16;
            // Each run's first byte becomes `0`.
            let bits = _mm_shuffle_epi8(_mm_cvtsi32_si128(i32::from(starts)), spread);
            let is_start = _mm_cmpeq_epi8(_mm_and_si128(bits, bit_of_byte), bit_of_byte);
            let x = _mm_or_si128(
                _mm_andnot_si128(is_start, x),
                _mm_and_si128(is_start, zero_char),
            );
            let lo = usize::from(kept as u8);
            let hi = usize::from((kept >> 8) as u8);
            let packed = _mm_shuffle_epi8(x, _mm_cvtsi64_si128(PACK[lo] as i64));
            _mm_storel_epi64(out.as_mut_ptr().add(o).cast(), packed);
            o += lo.count_ones() as usize;
            let packed = _mm_shuffle_epi8(x, _mm_cvtsi64_si128((PACK[hi] + high_half) as i64));
            _mm_storel_epi64(out.as_mut_ptr().add(o).cast(), packed);
            o += hi.count_ones() as usize;
        }
        o
    }

    /// [`shape`] 64 bytes at a time.
    ///
    /// # Safety
    /// The CPU has AVX-512 (F, BW, VBMI2) and POPCNT, and `line` has at most
    /// [`MAX_SHAPE_BYTES`] bytes.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,popcnt")]
    pub(super) unsafe fn shape_avx512(line: &[u8], out: &mut [u8; SHAPE_ROOM]) -> usize {
        let n = line.len();
        let blocks = n.div_ceil(64);
        let mut vectors = [_mm512_setzero_si512(); MAX_SHAPE_BYTES / 64];
        let mut word: Bits = [0; MAX_SHAPE_BYTES / 64];
        let mut digit: Bits = [0; MAX_SHAPE_BYTES / 64];
        for b in 0..blocks {
            // Bytes past the line are not read (a masked load does not fault) and are 0.
            let x = _mm512_maskz_loadu_epi8(block_bytes(n, b), line.as_ptr().add(64 * b).cast());
            let d = _mm512_sub_epi8(x, _mm512_set1_epi8(b'0' as i8));
            let is_digit = _mm512_cmplt_epu8_mask(d, _mm512_set1_epi8(10));
            let l = _mm512_sub_epi8(
                _mm512_or_si512(x, _mm512_set1_epi8(0x20)),
                _mm512_set1_epi8(b'a' as i8),
            );
            let is_letter = _mm512_cmplt_epu8_mask(l, _mm512_set1_epi8(26));
            // Bytes of multi-byte UTF-8 sequences (high bit set) are letters.
            word[b] = is_digit | is_letter | _mm512_movepi8_mask(x);
            digit[b] = is_digit;
            vectors[b] = x;
        }
        let var = runs_with_digit(&word, &digit, blocks);
        let (start, keep) = starts_and_kept(&var, n);
        let zero_char = _mm512_set1_epi8(b'0' as i8);
        let mut o = 0;
        for b in 0..blocks {
            let x = _mm512_mask_blend_epi8(start[b], vectors[b], zero_char);
            let packed = _mm512_maskz_compress_epi8(keep[b], x);
            let kept = keep[b].count_ones() as usize;
            // Only the kept bytes are stored: 64 from `o` may pass the end of `out`. (A
            // conditional move as compiled; a shift of a `u128` measured slower.)
            let written = if kept == 64 {
                u64::MAX
            } else {
                (1u64 << kept) - 1
            };
            _mm512_mask_storeu_epi8(out.as_mut_ptr().add(o).cast(), written, packed);
            o += kept;
        }
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mask::TokenKind;

    /// A random line of the pieces masking cares about, and the same line
    /// with every alphanumeric run that holds a digit replaced by another
    /// such run (of another length): the two have one shape.
    fn line_pair(rng: &mut u64, max_len: usize) -> (String, String) {
        const PIECES: &[&str] = &[
            " ",
            "  ",
            "\t",
            "a",
            "Zq",
            "Jun",
            "Mon",
            "Sept",
            "é",
            "x_y",
            "-",
            "+",
            ".",
            ":",
            "/",
            "@",
            "=",
            "\"",
            "[",
            "]",
            "(",
            ")",
            "{",
            "}",
            ",",
            "<",
            "#",
            "\\",
            "key=\"a b\"",
            // Strings of escaped bytes (strace's buffers).
            "\\xdf",
            "\"\\",
        ];
        let mut a = String::new();
        let mut b = String::new();
        while a.len() < max_len && b.len() < max_len {
            let r = next(rng);
            if r.is_multiple_of(5) {
                // A run with a digit, and another one for the twin line;
                // glued to letters on either side half of the time.
                let glue = if r.is_multiple_of(2) { "k" } else { "" };
                a.push_str(&format!("{glue}{}", next(rng) % 1000));
                b.push_str(&format!("{glue}{:x}9z", next(rng) % 100_000));
            } else {
                let piece = PIECES[(next(rng) % PIECES.len() as u64) as usize];
                a.push_str(piece);
                b.push_str(piece);
            }
        }
        (a, b)
    }

    fn next(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    fn scalar(line: &str) -> Vec<u8> {
        let mut out = vec![0; SHAPE_ROOM];
        let n = shape_scalar(line.as_bytes(), &mut out);
        out.truncate(n);
        out
    }

    #[test]
    fn the_shape_keeps_everything_but_runs_with_digits() {
        assert_eq!(
            scalar("Jun 14 15:16:01 sshd[24200]: uid=0 id=9e37b1 é1 x_y"),
            b"Jun 0 0:0:0 sshd[0]: uid=0 id=0 0 x_y"
        );
        assert_eq!(scalar(""), b"");
    }

    #[test]
    fn the_vector_shapes_are_the_scalar_shape() {
        let kernels = Kernel::available();
        let mut out = Box::new([0u8; SHAPE_ROOM]);
        for kernel in kernels {
            let mut rng = 0x9e37_79b9_7f4a_7c15u64;
            for i in 0..20_000 {
                // Pieces are at most 10 bytes: the line stays within the limit.
                let (line, _) = line_pair(&mut rng, 1 + i % (MAX_SHAPE_BYTES - 10));
                let n = kernel.shape(line.as_bytes(), &mut out);
                assert_eq!(&out[..n], &scalar(&line)[..], "{kernel:?} {line:?}");
            }
            // Runs across 64-byte blocks, and lines of exactly the limit.
            for line in [
                format!("{}7{}", "a".repeat(100), "b".repeat(100)),
                format!("{} {}", "x".repeat(62), "12345"),
                format!("{}12{}", "x".repeat(63), "y".repeat(70)),
                "9".repeat(MAX_SHAPE_BYTES),
                format!("{}1", "q".repeat(MAX_SHAPE_BYTES - 1)),
                "-".repeat(MAX_SHAPE_BYTES),
                "é".repeat(MAX_SHAPE_BYTES / 2),
            ] {
                let n = kernel.shape(line.as_bytes(), &mut out);
                assert_eq!(&out[..n], &scalar(&line)[..], "{kernel:?} {line:?}");
            }
        }
    }

    #[test]
    fn lines_of_one_shape_mask_alike() {
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let (mut a, mut b) = (Masked::default(), Masked::default());
        for i in 0..20_000 {
            let (x, y) = line_pair(&mut rng, 1 + i % MAX_SHAPE_BYTES);
            // Pairs beyond the limit may differ, and are not looked up.
            if x.len() > MAX_SHAPE_BYTES || y.len() > MAX_SHAPE_BYTES {
                continue;
            }
            assert_eq!(scalar(&x), scalar(&y), "{x:?} {y:?}");
            a.fill(&x, usize::MAX, MAX_SHAPE_BYTES);
            b.fill(&y, usize::MAX, MAX_SHAPE_BYTES);
            assert_eq!(a.tokens(), b.tokens(), "{x:?} {y:?}");
        }
    }

    #[test]
    fn long_groups_and_tokens_are_looked_up_up_to_the_limit() {
        // Lines of each length up to the limit, each followed by its twin of one
        // shape with the shortest runs (the twin finds the line's tokens): a group
        // and a token as long as the line are one group and one token in both.
        // With a lower `max_token_bytes`, longer lines are not looked up.
        for max_token_bytes in [Config::default().max_token_bytes, 100] {
            let config = Config {
                max_token_bytes,
                ..Config::default()
            };
            let mut plain = MaskedLine::default();
            let mut cached = MaskedLine::default();
            let twin = "at [k1 v 2 w 3] k=4 end";
            for n in twin.len()..=MAX_SHAPE_BYTES {
                let mut masker = Masker::new(&config);
                let extra = n - twin.len();
                for (in_group, in_token) in [(extra, 0), (0, extra)] {
                    let (group_run, token_run) = ("5".repeat(in_group), "6".repeat(in_token));
                    let long = format!("at [k1{group_run} v 2 w 3] k=4{token_run} end");
                    for line in [long.as_str(), twin] {
                        masker.fill(line, &mut cached);
                        plain.fill(line, &config);
                        assert_eq!(cached.0.tokens(), plain.0.tokens(), "{line:?}");
                    }
                }
            }
            assert_eq!(
                plain.0.tokens(),
                [
                    (&b"at"[..], TokenKind::Word),
                    (b"[<*> v <*> w <*>]", TokenKind::Masked),
                    (b"k=<*>", TokenKind::Masked),
                    (b"end", TokenKind::Word)
                ]
            );
        }
    }

    #[test]
    fn a_masker_masks_as_fill_does() {
        let config = Config {
            max_tokens: 9,
            ..Config::default()
        };
        // Each kernel the CPU has, the scalar one everywhere.
        for kernel in Kernel::available() {
            let mut masker = Masker::new(&config);
            masker.kernel = kernel;
            let mut rng = 0x1234_5678_9abc_def1u64;
            let mut cached = MaskedLine::default();
            let mut plain = MaskedLine::default();
            // Few shapes (mostly hits), then many (misses, and the bypass).
            for i in 0..60_000 {
                let (x, y) = line_pair(&mut rng, if i < 20_000 { 12 } else { 300 });
                for line in [x, y] {
                    masker.fill(&line, &mut cached);
                    plain.fill(&line, &config);
                    assert_eq!(cached.0.tokens(), plain.0.tokens(), "{line:?}");
                    assert_eq!(cached.0.seq_hash(), plain.0.seq_hash(), "{line:?}");
                }
            }
        }
    }
}
