//! Reading a context diff (`diff -c`, `diff -C 1`, `diff -c -r`) as the unified diff it
//! stands for: each file's `*** a.txt` and `--- b.txt` header, and each hunk (its old
//! side, `- ` and `! ` lines among its context, then its new side, `+ ` and `! ` lines)
//! made the unified lines `diff -u` would print, which the diff's reader then reads as
//! it reads those.

/// The rule a context diff opens each hunk with.
pub const HUNK_RULE: &str = "***************";

/// Lines, and bytes, of one hunk held until its new side ends; past either, the hunk is
/// left as it came (lines outside the patches).
const MAX_HUNK_LINES: usize = 20_000;
const MAX_HUNK_BYTES: usize = 16 << 20;

/// Where in a context diff the last line was.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Outside one.
    #[default]
    Idle,
    /// After a `*** a.txt` line, which a `--- b.txt` line must follow.
    OldHeader,
    /// After both, which the hunk rule must follow.
    NewHeader,
    /// After a hunk rule, which the old side's range must follow (`*** 1,4 ****`).
    Rule,
    /// In the old side.
    Old,
    /// In the new side (after `--- 1,5 ----`), `new_left` lines more at most.
    New,
}

/// A line of a hunk's side: its mark (`b' '`, `b'-'`, `b'+'`, `b'!'`), its text, its
/// line in the input, whether it ended in `\r\n`, and the `\ No newline at end of file`
/// under it, if one was.
#[derive(Debug, Clone)]
struct SideLine {
    mark: u8,
    text: String,
    line: u64,
    crlf: bool,
    no_newline: Option<(u64, String)>,
}

/// A line to read in the input's place: its line, its text, and whether it ended in
/// `\r\n`.
pub type Line = (u64, String, bool);

/// Turns a context diff's lines into the unified diff's they stand for; any other line
/// passes as it is.
#[derive(Debug, Default)]
pub struct ContextDiff {
    state: State,
    /// The lines read since the state left [`State::Idle`] or the last hunk ended, as
    /// they came, given back as they are when they turn out not to be a context diff's.
    held: Vec<Line>,
    /// Their bytes, and the sides' (each line is held twice).
    held_bytes: usize,
    old_start: u64,
    new_start: u64,
    new_left: u64,
    old: Vec<SideLine>,
    new: Vec<SideLine>,
}

impl ContextDiff {
    /// Reads `text`, the input's line `line`: pushes to `out` the lines to read in its
    /// place and before it, in order (unified lines, or lines held and given back).
    /// Whether it was taken: when not, the caller reads it, after those.
    pub fn push(&mut self, line: u64, text: &str, crlf: bool, out: &mut Vec<Line>) -> bool {
        match self.state {
            State::Idle => {
                let header = text.starts_with("*** ") && range(text, "*** ", " ****").is_none();
                if !header {
                    return false;
                }
                self.hold(line, text, crlf, State::OldHeader);
                true
            }
            State::OldHeader if text.starts_with("--- ") => {
                self.hold(line, text, crlf, State::NewHeader);
                true
            }
            State::NewHeader if text == HUNK_RULE => {
                // `*** a.txt\t2024-…` and `--- b.txt\t2024-…`: unified's `---` and `+++`.
                let (old_line, old, old_crlf) = self.held.remove(0);
                let (new_line, new, new_crlf) = self.held.remove(0);
                out.push((old_line, format!("--- {}", &old[4..]), old_crlf));
                out.push((new_line, format!("+++ {}", &new[4..]), new_crlf));
                self.held.clear();
                self.state = State::Rule;
                true
            }
            State::Rule => match range(text, "*** ", " ****") {
                Some((start, _)) => {
                    self.old_start = start;
                    self.hold(line, text, crlf, State::Old);
                    true
                }
                None => self.give_back(line, text, crlf, out),
            },
            State::Old => {
                if let Some((start, count)) = range(text, "--- ", " ----") {
                    self.new_start = start;
                    // (A one-line range is its first number alone.)
                    self.new_left = count.unwrap_or(1);
                    self.hold(line, text, crlf, State::New);
                    return true;
                }
                if text.starts_with("\\ ") && self.no_newline(false, line, text, crlf) {
                    return true;
                }
                match side_line(text, b"-! ") {
                    Some(mark) if self.has_room() => {
                        self.old.push(SideLine::new(mark, text, line, crlf));
                        self.hold(line, text, crlf, State::Old);
                        true
                    }
                    _ => self.give_back(line, text, crlf, out),
                }
            }
            State::New if text.starts_with("\\ ") && !self.new.is_empty() => {
                self.no_newline(true, line, text, crlf)
            }
            State::New => match side_line(text, b"+! ") {
                Some(mark) if self.new_left > 0 && self.has_room() => {
                    self.new.push(SideLine::new(mark, text, line, crlf));
                    self.new_left -= 1;
                    self.hold(line, text, crlf, State::New);
                    true
                }
                _ => {
                    self.end_hunk(out);
                    if text == HUNK_RULE {
                        self.state = State::Rule;
                        return true;
                    }
                    self.push(line, text, crlf, out)
                }
            },
            State::OldHeader | State::NewHeader => self.give_back(line, text, crlf, out),
        }
    }

    /// The input ended: what is held, pushed to `out` (a whole last hunk made unified).
    pub fn finish(&mut self, out: &mut Vec<Line>) {
        match self.state {
            State::New => self.end_hunk(out),
            State::Idle => {}
            _ => {
                out.append(&mut self.held);
                self.reset();
            }
        }
    }

    fn hold(&mut self, line: u64, text: &str, crlf: bool, state: State) {
        self.held.push((line, text.to_string(), crlf));
        self.held_bytes += 2 * text.len();
        self.state = state;
    }

    /// `text`, diff's `\ No newline at end of file`, under the last line of the new
    /// side or the old: noted on that line, and held. Whether there was one.
    fn no_newline(&mut self, new_side: bool, line: u64, text: &str, crlf: bool) -> bool {
        let side = if new_side {
            &mut self.new
        } else {
            &mut self.old
        };
        let Some(last) = side.last_mut() else {
            return false;
        };
        last.no_newline = Some((line, text.to_string()));
        let state = self.state;
        self.hold(line, text, crlf, state);
        true
    }

    /// Whether another line of a hunk may be held.
    fn has_room(&self) -> bool {
        self.held.len() < MAX_HUNK_LINES && self.held_bytes < MAX_HUNK_BYTES
    }

    /// The lines held, and `text`, were not a context diff's after all: given back, and
    /// `text` read again from [`State::Idle`].
    fn give_back(&mut self, line: u64, text: &str, crlf: bool, out: &mut Vec<Line>) -> bool {
        out.append(&mut self.held);
        self.reset();
        self.push(line, text, crlf, out)
    }

    fn reset(&mut self) {
        self.held.clear();
        self.held_bytes = 0;
        self.old.clear();
        self.new.clear();
        self.state = State::Idle;
    }

    /// The hunk read, as unified lines: its header, then its lines in order, a change's
    /// old lines before its new ones. A side left out (only additions, or only
    /// removals) is the other's context.
    fn end_hunk(&mut self, out: &mut Vec<Line>) {
        let context = |side: &[SideLine]| -> Vec<SideLine> {
            (side.iter())
                .filter(|side| side.mark == b' ')
                .cloned()
                .collect()
        };
        if self.old.is_empty() {
            self.old = context(&self.new);
        } else if self.new.is_empty() {
            self.new = context(&self.old);
        }
        let (header_line, header_crlf) = self.held.first().map_or((0, false), |h| (h.0, h.2));
        out.push((
            header_line,
            format!(
                "@@ -{},{} +{},{} @@",
                self.old_start,
                self.old.len(),
                self.new_start,
                self.new.len()
            ),
            header_crlf,
        ));
        let (old, new) = (&self.old, &self.new);
        let (mut i, mut j) = (0, 0);
        let line = |mark: char, side: &SideLine, out: &mut Vec<Line>| {
            out.push((side.line, format!("{mark}{}", side.text), side.crlf));
            if let Some((at, text)) = &side.no_newline {
                out.push((*at, text.clone(), false));
            }
        };
        while i < old.len() || j < new.len() {
            let (o, n) = (old.get(i).map(|l| l.mark), new.get(j).map(|l| l.mark));
            if o == Some(b'-') {
                line('-', &old[i], out);
                i += 1;
            } else if n == Some(b'+') {
                line('+', &new[j], out);
                j += 1;
            } else if o == Some(b'!') || n == Some(b'!') {
                // A change: its old lines, then its new ones.
                while old.get(i).is_some_and(|l| l.mark == b'!') {
                    line('-', &old[i], out);
                    i += 1;
                }
                while new.get(j).is_some_and(|l| l.mark == b'!') {
                    line('+', &new[j], out);
                    j += 1;
                }
            } else if o == Some(b' ') && n == Some(b' ') {
                line(' ', &old[i], out);
                i += 1;
                j += 1;
            } else {
                // Sides that do not agree (a hand-edited or cut hunk): the rest as it is.
                old[i..].iter().for_each(|l| line('-', l, out));
                new[j..].iter().for_each(|l| line('+', l, out));
                break;
            }
        }
        self.reset();
    }
}

impl SideLine {
    /// `text`, the input's line `line`, a side's line marked `mark`.
    fn new(mark: u8, text: &str, line: u64, crlf: bool) -> SideLine {
        let text = text[2..].to_string();
        let no_newline = None;
        SideLine {
            mark,
            text,
            line,
            crlf,
            no_newline,
        }
    }
}

/// `*** 1,4 ****` (with `open` `*** ` and `close` ` ****`) → its first line, and how
/// many lines it spans when it names its last (`Some(4)`); `None` for another line.
fn range(text: &str, open: &str, close: &str) -> Option<(u64, Option<u64>)> {
    let inner = text.strip_prefix(open)?.strip_suffix(close)?;
    match inner.split_once(',') {
        Some((first, last)) => {
            let (first, last): (u64, u64) = (first.parse().ok()?, last.parse().ok()?);
            Some((first, Some((last + 1).saturating_sub(first))))
        }
        None => Some((inner.parse().ok()?, None)),
    }
}

/// A side's line, its mark one of `marks` and a space after it (`! b`); its mark.
fn side_line(text: &str, marks: &[u8]) -> Option<u8> {
    match text.as_bytes() {
        [mark, b' ', ..] if marks.contains(mark) => Some(*mark),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unified(context: &str) -> String {
        let mut reader = ContextDiff::default();
        let mut out = Vec::new();
        let mut lines = Vec::new();
        for (i, text) in context.lines().enumerate() {
            if !reader.push(i as u64 + 1, text, false, &mut out) {
                out.push((i as u64 + 1, text.to_string(), false));
            }
            lines.append(&mut out);
        }
        reader.finish(&mut lines);
        lines.into_iter().map(|(_, t, _)| t + "\n").collect()
    }

    #[test]
    fn a_context_diff_is_the_unified_diff_it_stands_for() {
        let context = "*** x1\t2026-12-06 20:58:39 +0000\n--- x2\t2026-12-06 20:58:39 +0000\n\
            ***************\n*** 1,4 ****\n  a\n! b\n  c\n  d\n--- 1,5 ----\n  a\n! B\n  c\n  d\n+ e\n";
        assert_eq!(
            unified(context),
            "--- x1\t2026-12-06 20:58:39 +0000\n+++ x2\t2026-12-06 20:58:39 +0000\n\
             @@ -1,4 +1,5 @@\n a\n-b\n+B\n c\n d\n+e\n"
        );
        // A side left out is the other's context; an empty file's range is `0`.
        let removed =
            "*** a\n--- b\n***************\n*** 1,5 ****\n  a\n- b\n  c\n  d\n  e\n--- 1,4 ----\n";
        assert_eq!(
            unified(removed),
            "--- a\n+++ b\n@@ -1,5 +1,4 @@\n a\n-b\n c\n d\n e\n"
        );
        let created = "*** e0\n--- e1\n***************\n*** 0 ****\n--- 1,3 ----\n+ a\n+ b\n+ c\n";
        assert_eq!(
            unified(created),
            "--- e0\n+++ e1\n@@ -0,0 +1,3 @@\n+a\n+b\n+c\n"
        );
        // Its new side ends at its range's count: an indented line after it is not its.
        let then = format!("{created}  a note\n");
        assert!(
            unified(&then).ends_with("+c\n  a note\n"),
            "{}",
            unified(&then)
        );
        // Anything else passes, and what looked like one's start is given back.
        let other = "*** note\nplain\n*** a\n--- b\nno rule\n";
        assert_eq!(unified(other), other);
    }
}
