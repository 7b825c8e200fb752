//! The lines of a long multi-line record that its item keeps: its head, its end, and
//! the last decisive line between them, with where the rest were left out.

use serde::Serialize;
use std::collections::VecDeque;

/// Where lines of a record were left out of its item's `more`, when not all at its end:
/// `lines` lines after the first `after` entries of `more`. An item's gaps add up to its
/// `more_cut`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Gap {
    /// Entries of `more` before the gap.
    pub after: usize,
    /// Lines left out there.
    pub lines: u64,
}

/// The lines after a record's first, kept for its item within a bound: the first
/// [`KeptLines::HEAD`] (where it says what happened and where), the last
/// [`KeptLines::TAIL`] (where a traceback names its exception and a stack ends), and,
/// when it fell between them, the last line pushed as decisive (a Java stack's root
/// `Caused by:`). A long traceback cut after its first lines would lose its exception.
///
/// Lines up to the head go onto the item's own `more` as they come, so a short record
/// costs nothing here; [`KeptLines::finish`] appends the rest and says where lines were
/// left out. Memory: at most `TAIL + 1` lines besides the head; a line of the tail's
/// buffer is reused for the next.
///
/// ```
/// use briefly_core::{Gap, KeptLines};
///
/// let mut kept = KeptLines::default();
/// let mut more = Vec::new();
/// for n in 1..=100 {
///     let line = if n == 50 { "Caused by: java.io.IOException: disk full".to_string() } else { format!("\tat f{n}") };
///     kept.push(&mut more, &line, n == 50);
/// }
/// let mut gaps = Vec::new();
/// let cut = kept.finish(&mut more, &mut gaps);
/// assert_eq!(more.len(), KeptLines::HEAD + 1 + KeptLines::TAIL);
/// assert_eq!(more[KeptLines::HEAD], "Caused by: java.io.IOException: disk full");
/// assert_eq!(more.last().unwrap(), "\tat f100");
/// assert_eq!(cut, 100 - more.len() as u64);
/// assert_eq!(gaps, [Gap { after: 20, lines: 29 }, Gap { after: 21, lines: 31 }]);
/// ```
#[derive(Debug, Default)]
pub struct KeptLines {
    /// The last lines past the head: (their index among the lines pushed, text, decisive).
    tail: VecDeque<(u64, String, bool)>,
    /// The last decisive line that fell out of the tail, with its index.
    pinned: Option<(u64, String)>,
    /// Lines pushed since the record began.
    pushed: u64,
}

impl KeptLines {
    /// Lines kept from the start of a record (after its first).
    pub const HEAD: usize = 20;
    /// Lines kept from its end.
    pub const TAIL: usize = 19;

    /// The record's next line, `decisive` when it says what went wrong (a traceback's
    /// exception, a `Caused by:`): onto `more` while it holds fewer than [`Self::HEAD`],
    /// else held for [`Self::finish`]. `more` is the item's, empty when the record began.
    pub fn push(&mut self, more: &mut Vec<String>, line: &str, decisive: bool) {
        self.pushed += 1;
        if more.len() < Self::HEAD {
            more.push(line.to_string());
            return;
        }
        let mut text = if self.tail.len() == Self::TAIL {
            let (index, text, decisive) = self.tail.pop_front().expect("full");
            if decisive {
                match &mut self.pinned {
                    Some((at, held)) => {
                        *at = index;
                        std::mem::replace(held, text)
                    }
                    None => {
                        self.pinned = Some((index, text));
                        String::new()
                    }
                }
            } else {
                text
            }
        } else {
            String::new()
        };
        text.clear();
        text.push_str(line);
        self.tail.push_back((self.pushed - 1, text, decisive));
    }

    /// Appends the lines held to `more` (which holds the head), sets `gaps` to where
    /// lines were left out, and returns how many were: all of them lie before the last
    /// line pushed, which is kept. Ready for the next record after.
    pub fn finish(&mut self, more: &mut Vec<String>, gaps: &mut Vec<Gap>) -> u64 {
        gaps.clear();
        self.pushed = 0;
        // Nearly every record: all its lines in the head (a line is pinned only from a
        // full tail).
        if self.tail.is_empty() {
            return 0;
        }
        // The index of the first line not yet accounted for.
        let mut next = more.len() as u64;
        let mut skip_to = |more: &Vec<String>, next: &mut u64, to: u64| {
            if to > *next {
                gaps.push(Gap {
                    after: more.len(),
                    lines: to - *next,
                });
            }
            *next = to;
        };
        if let Some((index, text)) = self.pinned.take() {
            skip_to(more, &mut next, index);
            more.push(text);
            next += 1;
        }
        if let Some(&(first, _, _)) = self.tail.front() {
            skip_to(more, &mut next, first);
        }
        more.extend(self.tail.drain(..).map(|(_, text, _)| text));
        gaps.iter().map(|gap| gap.lines).sum()
    }
}
