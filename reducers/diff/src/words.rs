//! A word diff's lines (`git diff --word-diff`): the words a line lost in `[-…-]` and
//! those it gained in `{+…+}`, inline, with no mark opening the line; or, in its
//! porcelain form, each run of words on a line of its own.

/// Which sides a word diff's `line` is on as a changed line, as `git diff --stat` counts
/// it: `(added, removed)`; `None` when nothing in it is marked (a line both sides
/// share). A line with words of its own besides the marked ones is a line changed, on
/// both sides (`seven {+eight+}`); one made of gained words alone was added
/// (`{+nine+}`), and of lost words alone, removed.
///
/// ```text
/// one [-two-]{+2+} three  (true, true)
/// {+nine+}                (true, false)
/// [-gone-]                (false, true)
/// four five               None
/// ```
pub(crate) fn changed_sides(line: &str) -> Option<(bool, bool)> {
    let (mut added, mut removed, mut kept) = (false, false, false);
    let mut rest = line;
    loop {
        let mark = [("[-", "-]"), ("{+", "+}")]
            .into_iter()
            .filter_map(|(open, close)| {
                let at = rest.find(open)?;
                let len = rest[at + open.len()..].find(close)?;
                Some((at, open, at + open.len() + len + close.len()))
            })
            .min_by_key(|(at, ..)| *at);
        let Some((at, open, end)) = mark else {
            kept |= !rest.trim().is_empty();
            break;
        };
        kept |= !rest[..at].trim().is_empty();
        if open == "[-" {
            removed = true;
        } else {
            added = true;
        }
        rest = &rest[end..];
    }
    sides(added, removed, kept)
}

/// A line of the file with words `added` and `removed`, and words of its own if `kept`:
/// which sides it is on ([`changed_sides`]).
fn sides(added: bool, removed: bool, kept: bool) -> Option<(bool, bool)> {
    match (added || removed, kept) {
        (false, _) => None,
        (true, true) => Some((true, true)),
        (true, false) => Some((added, removed)),
    }
}

/// A line of the file in a porcelain word diff (`--word-diff=porcelain`), as its pieces
/// come: one piece per line, opened by `+` (words gained), `-` (words lost) or a space
/// (words both sides share), and a line of `~` where the file's line ends.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct PorcelainLine {
    added: bool,
    removed: bool,
    kept: bool,
}

impl PorcelainLine {
    /// Reads one piece: at `~`, which sides the file's line it ends is on, as
    /// [`changed_sides`] says of a plain word diff's line, and the next line begins;
    /// `None` before, and for a line both sides share.
    pub(crate) fn read(&mut self, piece: &str) -> Option<(bool, bool)> {
        match piece.as_bytes().first() {
            Some(b'+') => self.added = true,
            Some(b'-') => self.removed = true,
            Some(b'~') => {
                let line = std::mem::take(self);
                return sides(line.added, line.removed, line.kept);
            }
            _ => self.kept |= !piece.trim().is_empty(),
        }
        None
    }
}

/// A line of a colour word diff (`--color-words`, `--word-diff=color`) as a plain word
/// diff writes it: its red words (lost) in `[-…-]`, its green ones (gained) in `{+…+}`,
/// and other codes left out. `None` for a line that is no colour word diff's: no red or
/// green words, or a unified diff's coloured line (its colour opening it with `+` or
/// `-`), or codes other than SGR's.
///
/// ```text
/// hello ESC[32mthere ESC[m world   hello {+there+} world
/// ESC[31m-gone ESC[m               None (a unified diff's removed line)
/// ```
pub(crate) fn marked_from_colours(line: &str) -> Option<String> {
    let mut marked = Marked::default();
    let mut colour = None;
    let mut rest = line;
    while let Some(at) = rest.find('\x1b') {
        marked.push(&rest[..at], colour);
        let params = rest[at..].strip_prefix("\x1b[")?;
        let end = params.find(|c: char| !(c.is_ascii_digit() || c == ';'))?;
        if params.as_bytes()[end] != b'm' {
            return None;
        }
        let mut codes = params[..end].split(';');
        while let Some(code) = codes.next() {
            colour = match code.parse::<u16>().unwrap_or(0) {
                0 | 39 => None,
                31 | 91 => Some(Side::Lost),
                32 | 92 => Some(Side::Gained),
                // 38;5;N and 38;2;R;G;B: a colour of the palette, of neither side; the
                // same for the background (48) and the underline (58), whose numbers are
                // no colour of the words'.
                code @ (38 | 48 | 58) => {
                    let args = if codes.next() == Some("2") { 3 } else { 1 };
                    codes.by_ref().take(args).for_each(drop);
                    if code == 38 {
                        None
                    } else {
                        colour
                    }
                }
                30..=37 | 90..=97 => None,
                _ => colour,
            };
        }
        rest = &params[end + 1..];
    }
    marked.push(rest, colour);
    marked.push("", None);
    match marked.first_run? {
        (true, '+' | '-') => None,
        _ => Some(marked.text),
    }
}

/// A side of a word diff's change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Lost,
    Gained,
}

/// A line being marked ([`marked_from_colours`]).
#[derive(Debug, Default)]
struct Marked {
    text: String,
    /// The side whose mark is open.
    open: Option<Side>,
    /// Whether the first marked run opens the line, and its first character.
    first_run: Option<(bool, char)>,
}

impl Marked {
    /// Appends `text` of `side`; an empty text of no side closes the open mark.
    fn push(&mut self, text: &str, side: Option<Side>) {
        if self.open != side && (side.is_none() || !text.is_empty()) {
            self.text.push_str(match self.open {
                Some(Side::Lost) => "-]",
                Some(Side::Gained) => "+}",
                None => "",
            });
            if let Some(side) = side {
                let opens_line = self.text.is_empty();
                self.text
                    .push_str(if side == Side::Lost { "[-" } else { "{+" });
                let first = text.chars().next().unwrap_or(' ');
                self.first_run.get_or_insert((opens_line, first));
            }
            self.open = side;
        }
        self.text.push_str(text);
    }
}

#[cfg(test)]
mod tests {
    use super::{changed_sides, marked_from_colours, PorcelainLine};

    #[test]
    fn a_colour_word_diffs_line_is_marked_as_a_plain_ones() {
        for (line, marked) in [
            (
                "hello \x1b[32mthere\x1b[m world",
                Some("hello {+there+} world"),
            ),
            (
                "line \x1b[31mtwo\x1b[m\x1b[32m2\x1b[m",
                Some("line [-two-]{+2+}"),
            ),
            ("\x1b[1;31mgone\x1b[0m", Some("[-gone-]")),
            ("\x1b[31mgone\x1b[m\x1b[32mnew", Some("[-gone-]{+new+}")),
            // The palette's colours (38;5;N, 38;2;R;G;B) are of neither side.
            ("a \x1b[38;5;32mb\x1b[m \x1b[38;2;31;0;0mc", None),
            ("a \x1b[38;5;1m\x1b[32mb", Some("a {+b+}")),
            ("hello \x1b[48;5;31mthere\x1b[m world", None),
            ("a \x1b[32;48;2;31;32;0mb", Some("a {+b+}")),
            ("a \x1b[58;5;31mb", None),
            // A unified diff's coloured lines, and lines without the sides' colours.
            ("\x1b[31m-two\x1b[m", None),
            ("\x1b[32m+two\x1b[m\x1b[41m  \x1b[m", None),
            ("\x1b[36m@@ -1 +1 @@\x1b[m", None),
            ("three\x1b[m", None),
            // A code other than a colour's.
            ("a \x1b[2K\x1b[32mb", None),
        ] {
            assert_eq!(marked_from_colours(line).as_deref(), marked, "{line:?}");
        }
    }

    #[test]
    fn a_porcelain_lines_pieces_say_which_sides_it_is_on() {
        let mut line = PorcelainLine::default();
        let read = |line: &mut PorcelainLine, pieces: &[&str]| {
            let sides: Vec<_> = pieces.iter().map(|p| line.read(p)).collect();
            assert!(sides[..pieces.len() - 1].iter().all(Option::is_none));
            sides[pieces.len() - 1]
        };
        assert_eq!(
            read(&mut line, &[" hello ", "+there", "  world", "~"]),
            Some((true, true))
        );
        assert_eq!(read(&mut line, &["+new line", "~"]), Some((true, false)));
        assert_eq!(read(&mut line, &["-gone", "~"]), Some((false, true)));
        assert_eq!(
            read(&mut line, &["  ", "-a", "+b", "~"]),
            Some((true, true))
        );
        assert_eq!(read(&mut line, &[" shared", "~"]), None);
        assert_eq!(read(&mut line, &["~"]), None);
    }

    #[test]
    fn a_lines_marks_say_which_sides_it_is_on() {
        for (line, sides) in [
            ("one [-two-]{+2+} three", Some((true, true))),
            ("seven {+eight+}", Some((true, true))),
            ("[-a-] b", Some((true, true))),
            ("{+nine+}", Some((true, false))),
            ("  {+x+} {+y+}", Some((true, false))),
            ("[-gone-]", Some((false, true))),
            ("[-a-]{+b+}", Some((true, true))),
            ("four five", None),
            ("", None),
            // An opening without its close marks nothing.
            ("a [- b", None),
            ("x {+ y", None),
            ("[-a-] {+ unclosed", Some((true, true))),
        ] {
            assert_eq!(changed_sides(line), sides, "{line:?}");
        }
    }
}
