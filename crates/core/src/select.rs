//! The budget stage's selection: which items fit, counted and ordered by key.

use crate::shrink::{json_chars, shrink_to_fit};
use crate::{Emit, ItemKey, Rank, Tokenizer};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// What one printed result may take.
#[derive(Debug, Clone)]
pub struct Limit {
    /// Characters.
    pub max_chars: usize,
    /// Counts tokens too when it is a real tokenizer: at most `max_chars / 4` of them.
    pub tokenizer: Tokenizer,
}

impl Limit {
    /// Whether `printed` fits.
    pub fn fits(&self, printed: &str) -> bool {
        // Bytes bound chars from above: most results fit without counting.
        let chars_ok = printed.len() <= self.max_chars || printed.chars().count() <= self.max_chars;
        chars_ok
            && (!self.tokenizer.is_exact() || self.tokenizer.count(printed) <= self.max_chars / 4)
    }
}

/// One kept item.
#[derive(Debug, Clone)]
pub(crate) struct Kept {
    pub value: Value,
    pub chars: usize,
    /// Long strings in it were cut to make it fit.
    pub cut: bool,
}

/// The items that fit so far: the longest prefix, in key order, of the items after
/// `after` whose sizes add up to at most `items_chars`, or the first alone, of up to
/// `alone_chars`. Memory is bounded by the two.
#[derive(Debug)]
pub(crate) struct Selection {
    after: Option<ItemKey>,
    items_chars: usize,
    /// How long an item alone may be (the whole budget): longer ones are cut. The final
    /// fit cuts it further only when the fixed part leaves too little room, since the
    /// rest of a cut item is on no page.
    alone_chars: usize,
    pub kept: BTreeMap<ItemKey, Kept>,
    /// The item right after those kept, left out for want of room (the one at
    /// `boundary`), when it came: the fit may show it cut at the page's end.
    pub next: Option<(ItemKey, Kept)>,
    used: usize,
    /// The smallest key left out for want of room: nothing after it can be kept.
    boundary: Option<ItemKey>,
    next_seq: u64,
    /// Items emitted in all.
    pub total: u64,
    /// Items at or before `after` (returned by earlier pages).
    pub before: u64,
}

impl Selection {
    pub fn new(after: Option<ItemKey>, items_chars: usize, alone_chars: usize) -> Self {
        Selection {
            after,
            items_chars,
            alone_chars: alone_chars.max(items_chars),
            kept: BTreeMap::new(),
            next: None,
            used: 0,
            boundary: None,
            next_seq: 0,
            total: 0,
            before: 0,
        }
    }

    /// Items neither kept nor returned earlier.
    pub fn left_out(&self) -> u64 {
        self.total - self.before - self.kept.len() as u64
    }

    fn next_key(&self, rank: Rank) -> ItemKey {
        ItemKey {
            rank,
            seq: self.next_seq,
        }
    }

    fn is_earlier_page(&self, key: ItemKey) -> bool {
        self.after.is_some_and(|after| key <= after)
    }

    fn is_past_boundary(&self, key: ItemKey) -> bool {
        self.boundary.is_some_and(|boundary| key > boundary)
    }

    fn leave_out(&mut self, key: ItemKey) {
        let boundary = self.boundary.map_or(key, |b| b.min(key));
        self.boundary = Some(boundary);
        if self
            .next
            .as_ref()
            .is_some_and(|(next, _)| *next != boundary)
        {
            self.next = None;
        }
    }

    /// See [`Emit::wants`].
    pub fn wants(&self, rank: Rank) -> bool {
        let key = self.next_key(rank);
        !self.is_earlier_page(key) && !self.is_past_boundary(key)
    }

    /// See [`Emit::skip`].
    pub fn skip(&mut self, rank: Rank) {
        let key = self.next_key(rank);
        self.next_seq += 1;
        self.total += 1;
        if self.is_earlier_page(key) {
            self.before += 1;
        } else if !self.is_past_boundary(key) {
            // Misuse (skipping an item that was wanted): count it as left out.
            self.leave_out(key);
        }
    }
}

impl<I: Serialize> Emit<I> for Selection {
    fn emit(&mut self, rank: Rank, item: I) {
        let key = self.next_key(rank);
        self.next_seq += 1;
        self.total += 1;
        if self.is_earlier_page(key) {
            self.before += 1;
            return;
        }
        if self.is_past_boundary(key) {
            return;
        }
        let value = serde_json::to_value(item)
            .unwrap_or_else(|e| Value::String(format!("unserializable item: {e}")));
        // One char less than the room, for the comma counted below.
        let (value, cut) = match shrink_to_fit(&value, self.alone_chars.saturating_sub(1)) {
            Some(shrunk) => (shrunk, true),
            None => (value, false),
        };
        let chars = json_chars(&value) + 1; // and a comma
        self.used += chars;
        self.kept.insert(key, Kept { value, chars, cut });
        // The first item stays however long, so a page that has any item left keeps one.
        while self.used > self.items_chars && self.kept.len() > 1 {
            let (key, last) = self
                .kept
                .pop_last()
                .expect("used > 0 means something is kept");
            self.used -= last.chars;
            self.leave_out(key);
            // Kept items come before the boundary: this one is at it now.
            self.next = Some((key, last));
        }
    }

    fn wants(&self, rank: Rank) -> bool {
        Selection::wants(self, rank)
    }

    fn skip(&mut self, rank: Rank) {
        Selection::skip(self, rank)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(selection: &Selection) -> Vec<(Rank, u64)> {
        selection.kept.keys().map(|k| (k.rank, k.seq)).collect()
    }

    #[test]
    fn keeps_the_best_ranked_prefix_that_fits() {
        // Items of 10 chars ("\"aaaaaaa\"" is 9, plus a comma): room for three.
        let mut s = Selection::new(None, 30, 30);
        for rank in [5, 1, 4, 0, 3, 2] {
            s.emit(rank, "a".repeat(7));
        }
        assert_eq!(keys(&s), vec![(0, 3), (1, 1), (2, 5)]);
        assert_eq!((s.total, s.left_out()), (6, 3));
        assert!(!s.wants(3), "rank 3 sorts after a left-out rank-3 item");
        assert!(s.wants(1));
    }

    #[test]
    fn a_prefix_even_when_a_later_item_is_small() {
        let mut s = Selection::new(None, 30, 30);
        s.emit(0, "a".repeat(7));
        s.emit(1, "b".repeat(40)); // cut to fit, then evicted by the third
        s.emit(2, "c".repeat(7));
        let kept: Vec<_> = s.kept.keys().map(|k| k.rank).collect();
        assert_eq!(kept, vec![0], "never skip over a left-out item");
    }

    #[test]
    fn the_item_right_after_those_kept_is_held_for_the_fit() {
        let mut s = Selection::new(None, 30, 100);
        s.emit(0, "a".repeat(7));
        s.emit(2, "b".repeat(40));
        let next = |s: &Selection| {
            s.next
                .as_ref()
                .map(|(key, kept)| (key.rank, kept.value.clone()))
        };
        assert_eq!(next(&s), Some((2, Value::String("b".repeat(40)))));
        // One left out before it: it is no longer the next.
        s.skip(1);
        assert_eq!(next(&s), None);
    }

    #[test]
    fn pages_continue_after_the_key() {
        let mut s = Selection::new(Some(ItemKey { rank: 1, seq: 1 }), 1000, 1000);
        for rank in [0, 1, 1, 2] {
            s.emit(rank, rank);
        }
        assert_eq!(keys(&s), vec![(1, 2), (2, 3)]);
        assert_eq!(s.before, 2);
        assert!(!s.wants(0));
    }

    #[test]
    fn skip_counts_without_building() {
        let mut s = Selection::new(None, 12, 12);
        s.emit(0, "a".repeat(9));
        s.emit(0, "b".repeat(9));
        assert!(!s.wants(0));
        s.skip(0);
        assert_eq!((s.total, s.left_out()), (3, 2));
    }

    #[test]
    fn oversized_items_are_cut_to_fit_and_marked() {
        let mut s = Selection::new(None, 100, 100);
        s.emit(0, "z".repeat(10_000));
        let kept = s.kept.values().next().unwrap();
        assert!(kept.cut && kept.chars <= 100);
    }

    #[test]
    fn an_item_cut_to_the_whole_budget_is_kept() {
        // As long as the budget, it took one char more with its comma, and was evicted: a
        // page with no item and a cursor that never moved.
        for budget in [64, 100, 363] {
            // Exactly the budget as JSON (with its quotes), then more than it.
            for len in [budget - 2, 10_000] {
                let mut s = Selection::new(None, budget, budget);
                s.emit(0, "x".repeat(len));
                assert_eq!(keys(&s), vec![(0, 0)], "budget {budget}, {len} chars");
                assert!(s.kept[&ItemKey { rank: 0, seq: 0 }].chars <= budget);
            }
        }
    }

    #[test]
    fn an_item_alone_is_kept_whole_up_to_the_whole_budget() {
        // Room for items of 30 chars, 100 for one alone: a first item of 60 stays whole
        // (it may fit beside a smaller fixed part), and the next is left out.
        let mut s = Selection::new(None, 30, 100);
        s.emit(1, "a".repeat(58));
        s.emit(2, "b".repeat(7));
        assert_eq!(keys(&s), vec![(1, 0)]);
        let kept = &s.kept[&ItemKey { rank: 1, seq: 0 }];
        assert!(!kept.cut && kept.chars == 61, "{kept:?}");
        // An earlier one that fits takes its place: the prefix in key order.
        s.emit(0, "c".repeat(7));
        assert_eq!(keys(&s), vec![(0, 2)]);
        // Past the whole budget, cut to it.
        let mut s = Selection::new(None, 30, 100);
        s.emit(0, "z".repeat(10_000));
        let kept = s.kept.values().next().unwrap();
        assert!(kept.cut && kept.chars <= 100);
    }

    #[test]
    fn limit_counts_chars_not_bytes() {
        let limit = Limit {
            max_chars: 4,
            tokenizer: Tokenizer::Chars4,
        };
        assert!(limit.fits("éééé"));
        assert!(!limit.fits("ééééé"));
    }
}
