//! Bounded excerpts of long text (tracebacks, captured output) that keep the decisive
//! lines wherever they are, not just the head.

use briefly_core::cut_str;
use std::collections::VecDeque;

/// Longest line kept in an excerpt, in characters.
pub const MAX_LINE_CHARS: usize = 240;

/// Collects the lines of one block in bounded memory: the first `head` lines, up to
/// `marked` lines the caller marks as decisive (the first half of them and the last,
/// so that a traceback's raising line stays however many frames come before it), and
/// the last `tail` lines; the rest is counted, and shown as `… N lines …` where it was
/// left out.
#[derive(Debug, Clone)]
pub struct Excerpt {
    head: usize,
    marked: usize,
    tail: usize,
    kept: Vec<(u64, String)>,
    marked_kept: usize,
    /// The last decisive lines past the first ones, at most [`Excerpt::last_marked_cap`].
    last_marked: VecDeque<(u64, String)>,
    last: VecDeque<(u64, String)>,
    lines: u64,
}

impl Excerpt {
    /// An empty excerpt keeping `head` first lines, `marked` decisive lines and `tail` last lines.
    pub fn new(head: usize, marked: usize, tail: usize) -> Self {
        Excerpt {
            head,
            marked,
            tail,
            kept: Vec::new(),
            marked_kept: 0,
            last_marked: VecDeque::new(),
            last: VecDeque::new(),
            lines: 0,
        }
    }

    /// Adds one line; `decisive` lines are kept (up to the cap) wherever they fall.
    pub fn push(&mut self, line: &str, decisive: bool) {
        let index = self.lines;
        self.lines += 1;
        if (index as usize) < self.head || (decisive && self.marked_kept < self.first_marked()) {
            if index as usize >= self.head {
                self.marked_kept += 1;
            }
            self.kept.push((index, cut_line(line).into_owned()));
        } else if decisive && self.last_marked_cap() > 0 {
            let cap = self.last_marked_cap();
            push_ring(&mut self.last_marked, cap, index, line);
        } else if self.tail > 0 {
            push_ring(&mut self.last, self.tail, index, line);
        }
    }

    /// The decisive lines kept from the first on: half of them, rounded up.
    fn first_marked(&self) -> usize {
        self.marked - self.last_marked_cap()
    }

    /// The last decisive lines kept past the first ones.
    fn last_marked_cap(&self) -> usize {
        self.marked / 2
    }

    /// Whether a line marked decisive now would be kept as such (for a while, at least):
    /// when false, a caller need not work out whether a line is decisive.
    pub fn wants_marked(&self) -> bool {
        self.marked_kept < self.first_marked() || self.last_marked_cap() > 0
    }

    /// Lines pushed.
    pub fn lines(&self) -> u64 {
        self.lines
    }

    /// True when nothing was pushed.
    pub fn is_empty(&self) -> bool {
        self.lines == 0
    }

    /// The excerpt as text, with `… N lines …` where lines were left out.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let mut next = 0u64;
        // In input order: a decisive line kept may come after lines the tail holds.
        let mut kept: Vec<&(u64, String)> = (self.kept.iter())
            .chain(&self.last_marked)
            .chain(&self.last)
            .collect();
        kept.sort_by_key(|(index, _)| *index);
        for (index, line) in kept {
            if *index < next {
                continue;
            }
            if *index > next {
                out.push_str(&gap(index - next));
            }
            out.push_str(line);
            out.push('\n');
            next = index + 1;
        }
        if self.lines > next {
            out.push_str(&gap(self.lines - next));
        }
        while out.ends_with('\n') {
            out.pop();
        }
        out
    }
}

/// Pushes `line`, number `index`, on `ring`, which holds the last `cap` lines; the string
/// of the one it drops is reused: most lines pass through a ring, few stay.
fn push_ring(ring: &mut VecDeque<(u64, String)>, cap: usize, index: u64, line: &str) {
    let mut slot = match ring.len() == cap {
        true => ring.pop_front().map(|(_, s)| s).unwrap_or_default(),
        false => String::new(),
    };
    slot.clear();
    slot.push_str(&cut_line(line));
    ring.push_back((index, slot));
}

/// `… 3 lines …`, a run of lines left out.
pub(crate) fn gap(lines: u64) -> String {
    let plural = if lines == 1 { "" } else { "s" };
    format!("… {lines} line{plural} …\n")
}

fn cut_line(line: &str) -> std::borrow::Cow<'_, str> {
    let line = line.trim_end();
    // No line of fewer bytes than the limit has more characters than it.
    if line.len() <= MAX_LINE_CHARS {
        return std::borrow::Cow::Borrowed(line);
    }
    cut_str(line, MAX_LINE_CHARS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_head_marked_and_tail_with_gaps_counted() {
        // The first decisive line and the last.
        let mut excerpt = Excerpt::new(1, 2, 2);
        for i in 0..100 {
            excerpt.push(&format!("line {i}"), i == 50 || i == 60 || i == 70);
        }
        assert_eq!(
            excerpt.text(),
            "line 0\n… 49 lines …\nline 50\n… 19 lines …\nline 70\n… 27 lines …\nline 98\nline 99"
        );
        // Of 3 kept, the first 2 and the last.
        let mut excerpt = Excerpt::new(0, 3, 0);
        for i in 0..10 {
            excerpt.push(&format!("line {i}"), true);
        }
        assert_eq!(excerpt.text(), "line 0\nline 1\n… 7 lines …\nline 9");
    }

    #[test]
    fn a_decisive_line_after_lines_the_tail_holds_keeps_them() {
        // pytest's captured stdout, then its stderr's title and warning (decisive).
        let mut excerpt = Excerpt::new(1, 25, 25);
        for (line, decisive) in [
            ("[Captured stdout call]", true),
            ("connecting", false),
            ("retrying", false),
            ("[Captured stderr call]", true),
            ("warning: slow", true),
        ] {
            excerpt.push(line, decisive);
        }
        assert_eq!(
            excerpt.text(),
            "[Captured stdout call]\nconnecting\nretrying\n[Captured stderr call]\nwarning: slow"
        );
    }

    #[test]
    fn short_blocks_are_whole() {
        let mut excerpt = Excerpt::new(2, 2, 2);
        ["a", "b", "c"].iter().for_each(|l| excerpt.push(l, false));
        assert_eq!(excerpt.text(), "a\nb\nc");
    }
}
