//! How much input a reducer holds to return it whole (`--whole-chars`).

/// A limit on the characters of input held to be returned whole: texts (lines, messages)
/// are taken while theirs, one more for the end of each before the last, stay within it
/// (the last line's end, which input may not have, is not counted: an input of exactly
/// the limit is whole with or without it). Counting is bounded too: a text of more bytes
/// than four times what is left (a character takes four at most) is over the limit
/// without being counted to its end.
///
/// ```
/// use briefly_core::WholeChars;
/// let mut whole = WholeChars::new(7);
/// assert!(whole.take("été")); // 3 characters
/// assert!(whole.take("abc")); // the line's end before it, and 3: 7
/// assert!(!whole.take(""));
/// ```
#[derive(Debug, Clone)]
pub struct WholeChars {
    limit: usize,
    taken: usize,
    /// A text was taken: the next one's line end before it is counted.
    any: bool,
}

impl WholeChars {
    /// Room for `limit` characters.
    pub fn new(limit: usize) -> WholeChars {
        WholeChars {
            limit,
            taken: 0,
            any: false,
        }
    }

    /// Takes `text` and the end of the one before; false when that goes over the limit.
    /// Once it has, the input is no longer whole: the caller drops what it held.
    pub fn take(&mut self, text: &str) -> bool {
        let end = usize::from(std::mem::replace(&mut self.any, true));
        self.taken = self.taken.saturating_add(end);
        let left = self.limit.saturating_sub(self.taken);
        let chars = match text.len() > left.saturating_mul(4) {
            true => left + 1,
            false => text.chars().count(),
        };
        self.taken = self.taken.saturating_add(chars);
        self.taken <= self.limit
    }
}

/// What a summary says of input returned whole (every record an item, none folded), as
/// in `"…; returned whole"` or `"…; the records kept returned whole"`.
const RETURNED_WHOLE: &str = "returned whole";

/// For an outcome [`returned whole`](crate::Outcome::returned_whole): the summary says
/// what the budget did to it (after its first [`RETURNED_WHOLE`]), when the items take
/// more than one page (every page says so, the last too) or one of those shown was cut
/// to fit.
pub(crate) fn say_fitted(envelope: &mut crate::Envelope, item_cut: bool) {
    let what = if envelope.next_cursor.is_some() || envelope.item_offset > 0 {
        ", over pages (next_cursor)"
    } else if item_cut {
        ", but cut to fit the budget (whole in the artifact)"
    } else {
        return;
    };
    if let Some(at) = envelope.summary.find(RETURNED_WHOLE) {
        envelope.summary.insert_str(at + RETURNED_WHOLE.len(), what);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn says_where_the_rest_of_what_was_returned_whole_is() {
        let mut envelope = crate::Envelope::new("text", "3 lines; returned whole");
        say_fitted(&mut envelope, false);
        assert_eq!(envelope.summary, "3 lines; returned whole");
        let mut cut = envelope.clone();
        say_fitted(&mut cut, true);
        assert_eq!(
            cut.summary,
            "3 lines; returned whole, but cut to fit the budget (whole in the artifact)"
        );
        let mut last_page = envelope.clone();
        last_page.item_offset = 3;
        say_fitted(&mut last_page, false);
        assert_eq!(
            last_page.summary,
            "3 lines; returned whole, over pages (next_cursor)"
        );
        envelope.next_cursor = Some("c1".into());
        say_fitted(&mut envelope, false);
        assert_eq!(
            envelope.summary,
            "3 lines; returned whole, over pages (next_cursor)"
        );
    }
}
