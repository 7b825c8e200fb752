//! A word diff's lines (`git diff --word-diff`): the words a line lost in `[-…-]` and
//! those it gained in `{+…+}`, inline, with no mark opening the line.

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
    match (added || removed, kept) {
        (false, _) => None,
        (true, true) => Some((true, true)),
        (true, false) => Some((added, removed)),
    }
}

#[cfg(test)]
mod tests {
    use super::changed_sides;

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
