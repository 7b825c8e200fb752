//! Ranking shared by the test reducers: every distinct kind of failure before repeats.

use briefly_core::Rank;
use std::collections::HashMap;

/// Kinds tracked; past this, new kinds rank as repeats.
const MAX_KINDS: usize = 10_000;
/// Categories a reducer may use (0 comes first among items of one repeat round).
pub const CATEGORIES: u64 = 4;

/// Ranks the n-th item of a kind in round n: the first of each kind (in category order,
/// then the order found), then the second of each, and so on.
#[derive(Debug, Default)]
pub struct Ranker {
    seen: HashMap<(u64, String), u64>,
}

impl Ranker {
    /// The rank of the next item of `kind` in `category` (below [`CATEGORIES`]).
    pub fn rank(&mut self, category: u64, kind: &str) -> Rank {
        let key = (category, kind.to_string());
        let full = self.seen.len() >= MAX_KINDS;
        let round = match self.seen.get_mut(&key) {
            Some(n) => {
                *n += 1;
                *n
            }
            None if full => 1,
            None => {
                self.seen.insert(key, 0);
                0
            }
        };
        round * CATEGORIES + category.min(CATEGORIES - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_kinds_come_before_repeats() {
        let mut ranker = Ranker::default();
        let a1 = ranker.rank(2, "AssertionError");
        let a2 = ranker.rank(2, "AssertionError");
        let k1 = ranker.rank(2, "KeyError");
        let c1 = ranker.rank(0, "ImportError");
        assert!(c1 < a1 && a1 == k1 && k1 < a2);
    }
}
