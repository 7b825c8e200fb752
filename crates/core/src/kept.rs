//! The lines of a long multi-line record that its item keeps: its head, its end, and
//! the last decisive line between them, with where the rest were left out.

use crate::frame::count_chars;
use crate::shrink::{json_chars, largest};
use serde::Serialize;
use serde_json::{json, Value};
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
/// of the lines pushed as decisive that fell between them (a Java stack's `Caused by:`,
/// a failed subtest's `--- FAIL:` in its parent's long record), the first
/// [`KeptLines::PINNED`] − 1 and the last (the root cause). A long traceback cut after
/// its first lines would lose its exception.
///
/// Lines up to the head go onto the item's own `more` as they come, so a short record
/// costs nothing here; [`KeptLines::finish`] appends the rest and says where lines were
/// left out. Memory: at most `TAIL + PINNED` lines besides the head; a line of the
/// tail's buffer is reused for the next.
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
#[derive(Debug)]
pub struct KeptLines {
    /// Lines kept from the start, from the end, and decisive ones between, at most.
    head: usize,
    tail_lines: usize,
    pinned_lines: usize,
    /// The last lines past the head: (their index among the lines pushed, text, decisive).
    tail: VecDeque<(u64, String, bool)>,
    /// Decisive lines that fell out of the tail, with their indexes, in order: the first
    /// `PINNED - 1` and the last.
    pinned: Vec<(u64, String)>,
    /// Lines pushed since the record began.
    pushed: u64,
    /// Which lines of the head (on the item's `more`) were pushed as decisive.
    head_decisive: Vec<bool>,
    /// The most characters the lines kept may take, if bounded
    /// ([`KeptLines::with_max_chars`]).
    max_chars: Option<usize>,
}

impl Default for KeptLines {
    /// At most [`KeptLines::MAX_LINES`]: [`KeptLines::HEAD`], [`KeptLines::PINNED`] and
    /// [`KeptLines::TAIL`].
    fn default() -> Self {
        KeptLines::new_with_max_lines(Self::MAX_LINES)
    }
}

impl KeptLines {
    /// Lines kept from the start of a record (after its first).
    pub const HEAD: usize = 20;
    /// Lines kept from its end.
    pub const TAIL: usize = 19;
    /// Decisive lines kept between them, at most.
    pub const PINNED: usize = 8;
    /// All of them.
    pub const MAX_LINES: usize = Self::HEAD + Self::PINNED + Self::TAIL;

    /// Keeps at most `max` lines of a record after its first (at least 3, at most
    /// [`Self::MAX_LINES`]), shared as the default's are: a small budget's records come
    /// whole in fewer lines, their decisive ones kept, rather than cut line by line.
    pub fn new_with_max_lines(max: usize) -> KeptLines {
        let max = max.clamp(3, Self::MAX_LINES);
        let head = (max * Self::HEAD / Self::MAX_LINES).max(1);
        let pinned_lines = (max * Self::PINNED / Self::MAX_LINES).max(1);
        KeptLines {
            head,
            tail_lines: max - head - pinned_lines,
            pinned_lines,
            tail: VecDeque::new(),
            pinned: Vec::new(),
            pushed: 0,
            head_decisive: Vec::new(),
            max_chars: None,
        }
    }

    /// Keeps no more of a record's lines than take `max_chars` characters (each line
    /// counted with 3 more, for its quotes and comma), fewer lines than the
    /// most when they are long: a record of short lines comes whole where a line count
    /// fitted to long ones would cut it. The lines left are those
    /// [`KeptLines::new_with_max_lines`] of fewer lines keeps (the first, the decisive
    /// ones, the last), as many as fit; never fewer than 3 (the budget stage cuts those
    /// further when they must be).
    pub fn with_max_chars(mut self, max_chars: usize) -> KeptLines {
        self.max_chars = Some(max_chars);
        self
    }

    /// The record's next line, `decisive` when it says what went wrong (a traceback's
    /// exception, a `Caused by:`, an error): onto `more` while it holds fewer than the
    /// head's lines, else held for [`Self::finish`]. `more` is the item's, empty when
    /// the record began.
    pub fn push(&mut self, more: &mut Vec<String>, line: &str, decisive: bool) {
        self.pushed += 1;
        if more.len() < self.head {
            more.push(line.to_string());
            self.head_decisive.push(decisive);
            return;
        }
        let mut text = if self.tail.len() == self.tail_lines {
            let (index, text, decisive) = self.tail.pop_front().expect("full");
            if decisive {
                self.pin(index, text)
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

    /// Keeps a decisive line that fell out of the tail; returns a buffer to reuse.
    fn pin(&mut self, index: u64, text: String) -> String {
        if self.pinned.len() < self.pinned_lines {
            self.pinned.push((index, text));
            return String::new();
        }
        // Full: the newest replaces the last, the first ones stay.
        let last = self.pinned.last_mut().expect("full");
        last.0 = index;
        std::mem::replace(&mut last.1, text)
    }

    /// Appends the lines held to `more` (which holds the head), sets `gaps` to where
    /// lines were left out, and returns how many were: all of them lie before the last
    /// line pushed, which is kept. Ready for the next record after.
    pub fn finish(&mut self, more: &mut Vec<String>, gaps: &mut Vec<Gap>) -> u64 {
        gaps.clear();
        let pushed = std::mem::take(&mut self.pushed);
        let head_decisive = std::mem::take(&mut self.head_decisive);
        let fits = |lines: &mut dyn Iterator<Item = &String>| {
            self.max_chars
                .is_none_or(|max| lines.map(|line| chars(line)).sum::<usize>() <= max)
        };
        // Nearly every record: all its lines in the head (a line is pinned only from a
        // full tail), and within the characters.
        if self.tail.is_empty() && fits(&mut more.iter()) {
            return 0;
        }
        // Every line held, with its index among those pushed and whether it is decisive.
        let mut lines: Vec<(u64, String, bool)> = (more.drain(..).zip(head_decisive))
            .enumerate()
            .map(|(index, (text, decisive))| (index as u64, text, decisive))
            .collect();
        lines.extend(
            self.pinned
                .drain(..)
                .map(|(index, text)| (index, text, true)),
        );
        lines.extend(self.tail.drain(..));
        if !fits(&mut lines.iter().map(|(_, text, _)| text)) {
            let max = self.max_chars.unwrap_or(usize::MAX);
            let held = lines.len();
            // Each line counted once, for every share tried.
            let widths: Vec<usize> = lines.iter().map(|(_, text, _)| chars(text)).collect();
            // The most lines whose share fits; the least share when none does.
            let keep = (Self::LEAST..held)
                .rev()
                .map(|n| self.share(&lines, pushed, n))
                .find(|keep| {
                    let taken = widths.iter().zip(keep).filter(|(_, &kept)| kept);
                    taken.map(|(width, _)| width).sum::<usize>() <= max
                })
                .unwrap_or_else(|| self.share(&lines, pushed, Self::LEAST));
            let mut keep = keep.into_iter();
            lines.retain(|_| keep.next().unwrap_or(false));
        }
        let mut next = 0;
        for (index, text, _) in lines {
            if index > next {
                gaps.push(Gap {
                    after: more.len(),
                    lines: index - next,
                });
            }
            more.push(text);
            next = index + 1;
        }
        gaps.iter().map(|gap| gap.lines).sum()
    }

    /// The least a record keeps of its lines after its first.
    const LEAST: usize = 3;

    /// Which of the `lines` held (of `pushed` in all) a record keeping `n` lines keeps,
    /// shared as [`KeptLines::new_with_max_lines`] shares them: its first, of the
    /// decisive ones between the first `n − 1` and the last, its last.
    fn share(&self, lines: &[(u64, String, bool)], pushed: u64, n: usize) -> Vec<bool> {
        let most = self.head + self.pinned_lines + self.tail_lines;
        let head = (n * self.head / most).max(1) as u64;
        let pinned = (n * self.pinned_lines / most).max(1);
        let tail = n.saturating_sub(head as usize + pinned) as u64;
        let tail_from = pushed.saturating_sub(tail);
        let between = |index: u64| index >= head && index < tail_from;
        let decisive: Vec<u64> = (lines.iter())
            .filter(|&&(index, _, decisive)| decisive && between(index))
            .map(|&(index, _, _)| index)
            .collect();
        let last = decisive.last().copied();
        let first = &decisive[..decisive.len().min(pinned - 1)];
        lines
            .iter()
            .map(|&(index, _, _)| !between(index) || Some(index) == last || first.contains(&index))
            .collect()
    }
}

/// What a line kept for an item takes of a result, besides its characters: its quotes
/// and the comma after it.
const LINE_OVERHEAD: usize = 3;

/// The characters a line kept takes of a result.
fn chars(line: &str) -> usize {
    count_chars(line.as_bytes()) as usize + LINE_OVERHEAD
}

/// `item`, a record's (its lines after the first in `more`, with `more_cut` and
/// `more_gaps` as [`KeptLines`] gives them), with lines left out of the middle of its
/// `more` until its compact JSON takes at most `max_chars`: its first lines and its
/// last stay (what happened, a traceback's exception), and the lines left out are told
/// as the record's others are, in `more_gaps` and `more_cut`, so that they are numbered
/// as before. As many lines as fit; `None` when it has no `more`, or when it does not
/// fit even with none of them.
///
/// ```
/// use briefly_core::cut_record_lines;
/// use serde_json::json;
/// let mut more: Vec<String> = (0..40).map(|i| format!("  File \"m{i}.py\", line {i}, in f{i}")).collect();
/// more.push("KeyError: 'k'".into());
/// let record = json!({"line": 7, "text": "Traceback (most recent call last):", "more": more});
/// let cut = cut_record_lines(&record, 600).unwrap();
/// assert_eq!(cut["more"].as_array().unwrap().last().unwrap(), "KeyError: 'k'");
/// let gap = &cut["more_gaps"][0];
/// assert_eq!(gap["lines"], cut["more_cut"]);
/// assert!(cut.to_string().chars().count() <= 600);
/// ```
pub fn cut_record_lines(item: &Value, max_chars: usize) -> Option<Value> {
    let more = item.get("more")?.as_array()?;
    let gaps: Vec<(u64, u64)> = (item.get("more_gaps").and_then(Value::as_array))
        .into_iter()
        .flatten()
        .filter_map(|gap| Some((gap.get("after")?.as_u64()?, gap.get("lines")?.as_u64()?)))
        .collect();
    let cut_before = item.get("more_cut").and_then(Value::as_u64).unwrap_or(0);
    let len = more.len();
    if len == 0 {
        return None;
    }
    // `keep` of the lines, their first half first and their second last.
    let kept = |keep: usize| {
        let tail = keep / 2;
        let head = keep - tail;
        let (head_at, tail_at) = (head as u64, (len - tail) as u64);
        let removed = (len - keep) as u64;
        // Gaps within the lines left out, or at either end of them, are one with them;
        // those after them move up.
        let before = gaps.iter().filter(|&&(after, _)| after < head_at);
        let past = gaps.iter().filter(|&&(after, _)| after > tail_at);
        let within = gaps
            .iter()
            .filter(|&&(after, _)| (head_at..=tail_at).contains(&after));
        let joined = removed + within.map(|&(_, lines)| lines).sum::<u64>();
        // Lines left out at the end are told by `more_cut` alone.
        let new = (tail > 0).then_some((head_at, joined));
        let more_gaps: Vec<Value> = (before.copied())
            .chain(new)
            .chain(past.map(|&(after, lines)| (after - removed, lines)))
            .map(|(after, lines)| json!({"after": after, "lines": lines}))
            .collect();
        let mut cut = item.clone();
        let lines = more[..head].iter().chain(&more[len - tail..]).cloned();
        cut["more"] = Value::Array(lines.collect());
        cut["more_cut"] = json!(cut_before + removed);
        if let Some(fields) = cut.as_object_mut() {
            match more_gaps.is_empty() {
                true => fields.shift_remove("more_gaps"),
                false => fields.insert("more_gaps".into(), Value::Array(more_gaps)),
            };
        }
        cut
    };
    let fits = |keep: usize| Some(kept(keep)).filter(|cut| json_chars(cut) <= max_chars);
    largest(0, len - 1, fits).map(|(_, cut)| cut)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_records_lines_cut_from_its_middle_join_the_gaps_there() {
        // Lines 2 to 11 kept of a record of line 1, with 5 left out after the first two
        // entries and 3 after the eighth.
        let more: Vec<String> = (0..10).map(|i| format!("l{i}")).collect();
        let record = json!({
            "line": 1,
            "text": "ERROR",
            "more": more,
            "more_cut": 8,
            "more_gaps": [{"after": 2, "lines": 5}, {"after": 8, "lines": 3}],
        });
        let of = |more: &[&str], cut: u64, gaps: Value| json!({"line": 1, "text": "ERROR", "more": more, "more_cut": cut, "more_gaps": gaps});
        // Six kept: the four between the gaps go, a gap of their own between the others.
        let six = of(
            &["l0", "l1", "l2", "l7", "l8", "l9"],
            12,
            json!([{"after": 2, "lines": 5}, {"after": 3, "lines": 4}, {"after": 4, "lines": 3}]),
        );
        assert_eq!(cut_record_lines(&record, json_chars(&six)), Some(six));
        // Four kept: the gaps at either end of the lines that go join them.
        let four = of(
            &["l0", "l1", "l8", "l9"],
            14,
            json!([{"after": 2, "lines": 14}]),
        );
        assert_eq!(cut_record_lines(&record, json_chars(&four)), Some(four));
        // One kept: the rest is cut at its end, told by `more_cut` alone.
        let one = json!({"line": 1, "text": "ERROR", "more": ["l0"], "more_cut": 17});
        assert_eq!(cut_record_lines(&record, json_chars(&one)), Some(one));
        // Not even the first line fits; a record of no lines has none to cut.
        assert_eq!(cut_record_lines(&record, 20), None);
        assert_eq!(
            cut_record_lines(&json!({"text": "x", "more": []}), 100),
            None
        );
        assert_eq!(cut_record_lines(&json!({"text": "x"}), 5), None);
    }

    /// The lines kept of a record of `lines` lines after its first, those at `decisive`
    /// pushed as decisive, and its gaps.
    fn keep(lines: u64, decisive: &[u64]) -> (Vec<String>, Vec<Gap>, u64) {
        let mut kept = KeptLines::default();
        let mut more = Vec::new();
        for n in 0..lines {
            kept.push(&mut more, &n.to_string(), decisive.contains(&n));
        }
        let mut gaps = Vec::new();
        let cut = kept.finish(&mut more, &mut gaps);
        (more, gaps, cut)
    }

    #[test]
    fn the_first_decisive_lines_and_the_last_are_kept_between_head_and_tail() {
        let decisive: Vec<u64> = (0..12).map(|k| 100 + 10 * k).collect();
        let (more, gaps, cut) = keep(1000, &decisive);
        let kept: Vec<u64> = more.iter().map(|line| line.parse().unwrap()).collect();
        // The head, the first seven decisive lines and the last, the tail.
        let mut expected: Vec<u64> = (0..20).collect();
        expected.extend([100, 110, 120, 130, 140, 150, 160, 210]);
        expected.extend(981..1000);
        assert_eq!(kept, expected);
        assert_eq!(cut, 1000 - kept.len() as u64);
        assert_eq!(gaps.iter().map(|gap| gap.lines).sum::<u64>(), cut);
        assert_eq!(
            gaps[0],
            Gap {
                after: 20,
                lines: 80
            }
        );
        assert_eq!(
            gaps[7],
            Gap {
                after: 27,
                lines: 49
            }
        );
        assert_eq!(
            gaps[8],
            Gap {
                after: 28,
                lines: 770
            }
        );
        // A decisive line in the head or the tail is kept there, once.
        let (more, _, _) = keep(100, &[5, 95]);
        assert_eq!(more.len(), 20 + 19);
        // Ready for the next record: nothing carried over.
        let mut kept = KeptLines::default();
        let mut more = Vec::new();
        for n in 0..200 {
            kept.push(&mut more, "x", n == 50);
        }
        kept.finish(&mut more, &mut Vec::new());
        let mut more = Vec::new();
        for _ in 0..100 {
            kept.push(&mut more, "y", false);
        }
        kept.finish(&mut more, &mut Vec::new());
        assert!(more.iter().all(|line| line == "y"), "{more:?}");
    }

    #[test]
    fn within_characters_short_lines_stay_and_long_ones_give_way_as_fewer_lines_do() {
        let record = |kept: KeptLines, width: usize, lines: u64| {
            let mut kept = kept;
            let mut more = Vec::new();
            for n in 0..lines {
                let line = format!("{n:0width$}");
                kept.push(&mut more, &line, n == lines / 2);
            }
            let mut gaps = Vec::new();
            let cut = kept.finish(&mut more, &mut gaps);
            (more, gaps, cut)
        };
        // 30 lines of 7 characters (10 counted): whole within 300 characters.
        let (more, gaps, cut) = record(KeptLines::default().with_max_chars(300), 7, 30);
        assert_eq!((more.len(), cut), (30, 0));
        assert!(gaps.is_empty());
        // Of 97 characters (100 counted), 6 lines fit 600: as 6 lines share them, the
        // decisive one in the middle kept.
        let (more, gaps, cut) = record(KeptLines::default().with_max_chars(600), 97, 100);
        let (six, ..) = record(KeptLines::new_with_max_lines(6), 97, 100);
        assert_eq!(more, six);
        assert_eq!(more.len(), 6);
        assert!(more.contains(&format!("{:097}", 50)), "{more:?}");
        assert_eq!(cut, 94);
        assert_eq!(gaps.iter().map(|gap| gap.lines).sum::<u64>(), cut);
        // A decisive line among the first 20, past the 2 of 6 lines' head, is kept too.
        let mut kept = KeptLines::default().with_max_chars(600);
        let mut more = Vec::new();
        for n in 0..30 {
            kept.push(&mut more, &format!("{n:097}"), n == 10);
        }
        kept.finish(&mut more, &mut Vec::new());
        let kept: Vec<u64> = more.iter().map(|line| line.parse().unwrap()).collect();
        assert_eq!(kept, [0, 1, 10, 27, 28, 29]);
        // 12 lines of 50 counted: 5 of the head, of the decisive ones the first and the
        // last, 5 of the tail.
        let mut kept = KeptLines::default().with_max_chars(600);
        let mut more = Vec::new();
        for n in 0..100 {
            kept.push(&mut more, &format!("{n:047}"), [30, 40, 50].contains(&n));
        }
        kept.finish(&mut more, &mut Vec::new());
        let kept: Vec<u64> = more.iter().map(|line| line.parse().unwrap()).collect();
        assert_eq!(kept, [0, 1, 2, 3, 4, 30, 50, 95, 96, 97, 98, 99]);
        // A short record of long lines is cut too, its last line kept; never below 3.
        let (more, gaps, cut) = record(KeptLines::default().with_max_chars(10), 97, 12);
        assert_eq!(more.len(), 3);
        assert_eq!(more.last().unwrap(), &format!("{:097}", 11));
        assert_eq!((cut, gaps.iter().map(|gap| gap.lines).sum::<u64>()), (9, 9));
        // Ready for the next record.
        let mut kept = KeptLines::default().with_max_chars(300);
        let mut more = Vec::new();
        for n in 0..100 {
            kept.push(&mut more, &"x".repeat(50), n == 7);
        }
        kept.finish(&mut more, &mut Vec::new());
        let mut more = Vec::new();
        for _ in 0..5 {
            kept.push(&mut more, "y", false);
        }
        assert_eq!(kept.finish(&mut more, &mut Vec::new()), 0);
        assert_eq!(more, ["y"; 5]);
    }

    #[test]
    fn fewer_lines_are_shared_alike_and_keep_the_root_cause() {
        let record = |kept: &mut KeptLines| {
            let mut more = Vec::new();
            for n in 0..100u64 {
                kept.push(&mut more, &n.to_string(), n == 50);
            }
            kept.finish(&mut more, &mut Vec::new());
            more
        };
        // 6 lines: 2 of the head, 1 decisive, 3 of the tail.
        let more = record(&mut KeptLines::new_with_max_lines(6));
        assert_eq!(more, ["0", "1", "50", "97", "98", "99"]);
        // The least is 3; past the most, the default's.
        assert_eq!(
            record(&mut KeptLines::new_with_max_lines(0)),
            ["0", "50", "99"]
        );
        let most = record(&mut KeptLines::new_with_max_lines(1_000));
        assert_eq!(most, record(&mut KeptLines::default()));
        assert_eq!(most.len(), KeptLines::HEAD + 1 + KeptLines::TAIL);
    }
}
