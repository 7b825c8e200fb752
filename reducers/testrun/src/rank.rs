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
    /// Per category, the repeats seen of each kind.
    seen: [HashMap<String, u64>; CATEGORIES as usize],
    kinds: usize,
}

impl Ranker {
    /// The rank of the next item of `kind` in `category` (below [`CATEGORIES`]).
    pub fn rank(&mut self, category: u64, kind: &str) -> Rank {
        let category = category.min(CATEGORIES - 1);
        let seen = &mut self.seen[category as usize];
        // Looked up by the borrowed name: most kinds are repeats.
        let round = match seen.get_mut(kind) {
            Some(n) => {
                *n += 1;
                *n
            }
            None if self.kinds >= MAX_KINDS => 1,
            None => {
                seen.insert(kind.to_string(), 0);
                self.kinds += 1;
                0
            }
        };
        round * CATEGORIES + category
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
