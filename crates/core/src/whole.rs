//! How much input a reducer holds to return it whole (`--whole-chars`).

/// A limit on the characters of input held to be returned whole: texts (lines, messages)
/// are taken while theirs, one more for each, stay within it. Counting is bounded too: a
/// text of more bytes than four times what is left (a character takes four at most) is
/// over the limit without being counted to its end.
///
/// ```
/// use briefly_core::WholeChars;
/// let mut whole = WholeChars::new(8);
/// assert!(whole.take("été")); // 3 characters and the line's end: 4
/// assert!(whole.take("abc"));
/// assert!(!whole.take(""));
/// ```
#[derive(Debug, Clone)]
pub struct WholeChars {
    limit: usize,
    taken: usize,
}

impl WholeChars {
    /// Room for `limit` characters.
    pub fn new(limit: usize) -> WholeChars {
        WholeChars { limit, taken: 0 }
    }

    /// Takes `text` and its end; false when that goes over the limit. Once it has, the
    /// input is no longer whole: the caller drops what it held.
    pub fn take(&mut self, text: &str) -> bool {
        let left = self.limit.saturating_sub(self.taken);
        let chars = match text.len() > left.saturating_mul(4) {
            true => left + 1,
            false => text.chars().count() + 1,
        };
        self.taken = self.taken.saturating_add(chars);
        self.taken <= self.limit
    }
}
