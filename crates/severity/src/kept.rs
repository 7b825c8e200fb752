//! Which record a reducer keeps verbatim gives way to a worse one of its template.

use crate::Severity;

/// The records of one template a reducer keeps verbatim (its warnings and worse), counted
/// by severity: when it keeps as many as it may, which of them gives way to another
/// record ([`gives_way_to`]).
/// `text` and the log reducers keep a template's serious records by it.
///
/// ```
/// use briefly_severity::{KeptLevels, Severity::*};
///
/// let mut kept = KeptLevels::default();
/// kept.add(Warn);
/// kept.add(Warn);
/// // An error among a template's warnings: one warning gives way.
/// assert_eq!(kept.gives_way_to(Error), Some(Warn));
/// kept.remove(Warn);
/// kept.add(Error);
/// // The last warning kept stays, a template shows a record of each level it has...
/// assert_eq!(kept.gives_way_to(Error), None);
/// // ... but its worst first.
/// assert_eq!(kept.gives_way_to(Fatal), Some(Warn));
/// // A level none of which is kept takes the place of one of several.
/// kept.add(Error);
/// assert_eq!(kept.gives_way_to(Fatal), Some(Error));
/// assert_eq!(kept.gives_way_to(Info), Some(Error));
/// ```
///
/// [`gives_way_to`]: KeptLevels::gives_way_to
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct KeptLevels([u32; Severity::ALL.len()]);

impl KeptLevels {
    /// Counts one more record of `severity` kept.
    pub fn add(&mut self, severity: Severity) {
        self.0[severity as usize] += 1;
    }

    /// Counts one record of `severity` fewer (none fewer than none).
    pub fn remove(&mut self, severity: Severity) {
        let kept = &mut self.0[severity as usize];
        *kept = kept.saturating_sub(1);
    }

    /// Counts the records `other` counts too (of templates merged into one).
    pub fn merge(&mut self, other: KeptLevels) {
        for (sum, n) in self.0.iter_mut().zip(other.0) {
            *sum += n;
        }
    }

    /// The records kept.
    pub fn total(&self) -> u32 {
        self.0.iter().sum()
    }

    /// The severity of the least severe record kept, when any is.
    pub fn least(&self) -> Option<Severity> {
        self.levels().next()
    }

    /// The severity of the records of which one gives way to a record of `severity`:
    /// the least below it of which several are kept, or, when none of its level is kept,
    /// the least of which several are, whatever its level, so that one of each level
    /// stays; else, when `severity` is worse than all kept, the least, so that the worst
    /// is kept. `None` when none gives way.
    pub fn gives_way_to(&self, severity: Severity) -> Option<Severity> {
        let new_level = self.0[severity as usize] == 0;
        let several = self
            .levels()
            .take_while(|level| *level < severity || new_level)
            .find(|level| self.0[*level as usize] >= 2);
        let worse_than_all = self.levels().last().is_some_and(|worst| worst < severity);
        several.or(self.least().filter(|_| worse_than_all))
    }

    /// The severities of the records kept, least first.
    fn levels(&self) -> impl DoubleEndedIterator<Item = Severity> + '_ {
        (Severity::ALL.into_iter())
            .zip(self.0)
            .filter(|(_, kept)| *kept > 0)
            .map(|(level, _)| level)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Severity::*;

    fn kept(levels: &[Severity]) -> KeptLevels {
        let mut kept = KeptLevels::default();
        levels.iter().for_each(|level| kept.add(*level));
        kept
    }

    #[test]
    fn one_of_several_at_the_least_level_below_gives_way() {
        assert_eq!(kept(&[Warn, Warn, Error]).gives_way_to(Error), Some(Warn));
        assert_eq!(kept(&[Warn, Error, Error]).gives_way_to(Fatal), Some(Error));
        assert_eq!(kept(&[Warn, Error, Error]).gives_way_to(Error), None);
        // None is less severe than it, and one of its level is kept.
        assert_eq!(kept(&[Error, Error]).gives_way_to(Error), None);
        assert_eq!(kept(&[Warn, Error, Error]).gives_way_to(Warn), None);
        assert_eq!(kept(&[]).gives_way_to(Fatal), None);
        // None of its level is kept: one of several of another level gives way.
        assert_eq!(kept(&[Error, Error]).gives_way_to(Warn), Some(Error));
        assert_eq!(kept(&[Warn, Error, Error]).gives_way_to(Fatal), Some(Error));
        assert_eq!(kept(&[Warn, Error]).gives_way_to(Info), None);
    }

    #[test]
    fn the_least_gives_way_to_a_record_worse_than_all() {
        assert_eq!(kept(&[Warn, Error]).gives_way_to(Fatal), Some(Warn));
        assert_eq!(kept(&[Warn]).gives_way_to(Error), Some(Warn));
        assert_eq!(kept(&[Warn, Fatal]).gives_way_to(Error), None);
    }

    #[test]
    fn counts_add_up_and_merge() {
        let mut counts = kept(&[Warn, Error]);
        counts.merge(kept(&[Error]));
        assert_eq!((counts.total(), counts.least()), (3, Some(Warn)));
        counts.remove(Warn);
        counts.remove(Warn);
        assert_eq!((counts.total(), counts.least()), (2, Some(Error)));
        assert_eq!(KeptLevels::default().least(), None);
    }
}
