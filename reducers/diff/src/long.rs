//! Changes inside long lines (minified code, a lock file's line, a JSON document on one
//! line): a patch line of 40,000 characters is cut long before the change in it, so each
//! pair of long removed and added lines is shown as the window around where they differ.

use briefly_core::cut_str;
use serde::Serialize;

/// A removed and an added line both at least this long (in bytes) are a long pair.
pub const LONG_LINE_BYTES: usize = 500;
/// Long pairs shown per file at most; the rest are counted.
pub const MAX_LONG_CHANGES: usize = 3;
/// Characters shown before and after the part of a long line that differs.
const AROUND_CHARS: usize = 60;
/// Characters shown of the part that differs, on each side.
const DIFFERING_CHARS: usize = 300;

/// Where a long line changed, and the change with the characters around it on each side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LongChange {
    /// The added line's number in the new file.
    pub line: u64,
    /// The first character that differs, from 1.
    pub column: usize,
    /// The removed line's window: `…` where the line goes on.
    pub removed: String,
    /// The added line's window.
    pub added: String,
}

/// The long pairs of a hunk's `lines` (each with its `-`, `+` or ` ` and its end), the
/// first added line numbered `new_start`: in each run of removed lines and the added
/// lines after it, the n-th removed line with the n-th added one.
pub fn long_changes(lines: &[String], new_start: u64) -> Vec<LongChange> {
    let mut changes = Vec::new();
    if lines.iter().all(|line| line.len() <= LONG_LINE_BYTES) {
        return changes;
    }
    let mut line = new_start;
    let mut removed: Vec<&str> = Vec::new();
    let mut added = 0;
    for text in lines {
        let body = text.get(1..).unwrap_or_default();
        let body = body.trim_end_matches(['\n', '\r']);
        match text.as_bytes().first() {
            Some(b'-') => {
                if added > 0 {
                    removed.clear();
                    added = 0;
                }
                removed.push(body);
            }
            Some(b'+') => {
                if let Some(old) = removed.get(added) {
                    if old.len() >= LONG_LINE_BYTES && body.len() >= LONG_LINE_BYTES {
                        changes.extend(window(old, body, line));
                    }
                }
                added += 1;
                line += 1;
            }
            Some(b' ') => {
                removed.clear();
                added = 0;
                line += 1;
            }
            _ => {}
        }
    }
    changes
}

/// The window of `old` and `new` around where they differ; none when they do not.
fn window(old: &str, new: &str, line: u64) -> Option<LongChange> {
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let mut start = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    if start == a.len() && start == b.len() {
        return None;
    }
    while !old.is_char_boundary(start) || !new.is_char_boundary(start) {
        start -= 1;
    }
    // The common end, not reaching into the common start.
    let most = a.len().min(b.len()) - start;
    let mut end = (a.iter().rev().zip(b.iter().rev()))
        .take(most)
        .take_while(|(x, y)| x == y)
        .count();
    while !old.is_char_boundary(a.len() - end) || !new.is_char_boundary(b.len() - end) {
        end -= 1;
    }
    let side = |text: &str| {
        let (head, rest) = text.split_at(start);
        let (differing, tail) = rest.split_at(rest.len() - end);
        let before = match head.char_indices().rev().nth(AROUND_CHARS - 1) {
            Some((at, _)) => format!("…{}", &head[at..]),
            None => head.to_string(),
        };
        let after = match tail.char_indices().nth(AROUND_CHARS) {
            Some((at, _)) => format!("{}…", &tail[..at]),
            None => tail.to_string(),
        };
        format!("{before}{}{after}", cut_str(differing, DIFFERING_CHARS))
    };
    Some(LongChange {
        line,
        column: old[..start].chars().count() + 1,
        removed: side(old),
        added: side(new),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hunk(lines: &[&str]) -> Vec<String> {
        lines.iter().map(|line| format!("{line}\n")).collect()
    }

    /// `var a0=0;var a1=1;…` up to `n`, with `a{at}`'s value `value`.
    fn minified(n: usize, at: usize, value: &str) -> String {
        (0..n)
            .map(|i| match i == at {
                true => format!("var a{i}={value};"),
                false => format!("var a{i}={i};"),
            })
            .collect()
    }

    #[test]
    fn a_change_deep_in_a_long_line_is_shown_where_it_is() {
        let old = minified(3000, 1500, "1500");
        let new = minified(3000, 1500, "\"BROKEN\"");
        let lines = hunk(&[" first", &format!("-{old}"), &format!("+{new}"), " last"]);
        let changes = long_changes(&lines, 10);
        let column = old.find("var a1500=").unwrap() + "var a1500=".len() + 1;
        let before = "1496;var a1497=1497;var a1498=1498;var a1499=1499;var a1500=";
        let after = ";var a1501=1501;var a1502=1502;var a1503=1503;var a1504=1504";
        assert_eq!(
            changes,
            [LongChange {
                line: 11,
                column,
                // 60 characters on each side of what differs.
                removed: format!("…{before}1500{after}…"),
                added: format!("…{before}\"BROKEN\"{after}…"),
            }]
        );
    }

    #[test]
    fn long_pairs_are_paired_in_their_runs() {
        let (a, b, c) = ("a".repeat(600), "b".repeat(600), "c".repeat(600));
        let lines = hunk(&[
            &format!("-{a}x"),
            &format!("-{b}x"),
            &format!("+{a}y"),
            &format!("+{b}y"),
            // A third added line has no removed one; a short pair is no long one.
            &format!("+{c}"),
            "-short x",
            "+short y",
            &format!(" {c}"),
            // A run after context, its removed line's pair past a run of added ones.
            &format!("-{c}x"),
            &format!("+{c}y"),
        ]);
        let changes = long_changes(&lines, 1);
        let lines: Vec<(u64, usize)> = changes.iter().map(|c| (c.line, c.column)).collect();
        assert_eq!(lines, [(1, 601), (2, 601), (6, 601)]);
        assert_eq!(changes[0].removed, format!("…{}x", "a".repeat(60)));
        assert_eq!(changes[0].added, format!("…{}y", "a".repeat(60)));
        // The same line on both sides (its end aside) changed nothing.
        let same = format!("-{a}\r\n");
        assert_eq!(long_changes(&[same, format!("+{a}\n")], 1), []);
    }

    #[test]
    fn a_long_change_is_cut_and_characters_stay_whole() {
        // A change of 1,000 characters inside multi-byte ones: the part that differs cut.
        let old = format!(
            "{}{}{}",
            "é".repeat(400),
            "x".repeat(1000),
            "日".repeat(300)
        );
        let new = format!(
            "{}{}{}",
            "é".repeat(400),
            "ü".repeat(1000),
            "日".repeat(300)
        );
        let changes = long_changes(&hunk(&[&format!("-{old}"), &format!("+{new}")]), 7);
        assert_eq!(changes[0].column, 401);
        let added = &changes[0].added;
        assert!(
            added.starts_with(&format!(
                "…{}{}…[cut 700 chars]",
                "é".repeat(60),
                "ü".repeat(300)
            )),
            "{added}"
        );
        assert!(added.ends_with(&format!("{}…", "日".repeat(60))), "{added}");
        // Where one side only adds: the common end does not reach into the common start.
        let longer = format!("{old}{}", "日".repeat(5));
        let changes = long_changes(&hunk(&[&format!("-{old}"), &format!("+{longer}")]), 1);
        assert_eq!(changes[0].column, 1701);
        assert_eq!(changes[0].removed, format!("…{}", "日".repeat(60)));
        assert_eq!(changes[0].added, format!("…{}", "日".repeat(65)));
    }
}
