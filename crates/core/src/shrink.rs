//! Cutting long strings (and, at need, long arrays) with an explicit marker.

use serde_json::Value;
use std::borrow::Cow;

/// Every cut leaves this marker, followed by how much was cut: `…[cut 123 chars]`.
pub const CUT_MARKER: &str = "…[cut ";

/// `text` with at most `max_chars` characters kept, the rest replaced by a marker that
/// says how many characters were cut; whole when that would not be shorter (then at
/// most `max_chars` and a marker's length). Never splits a character. A text cut before (it
/// ends with a marker) is cut again from its kept head, and the new marker counts every
/// character cut from the original: the earlier marker's count and the head's now.
pub fn cut_str(text: &str, max_chars: usize) -> Cow<'_, str> {
    // No more bytes than that means no more characters: nothing to count.
    if text.len() <= max_chars {
        return Cow::Borrowed(text);
    }
    let Some((at, _)) = text.char_indices().nth(max_chars) else {
        return Cow::Borrowed(text);
    };
    let (head, earlier) = earlier_cut(text, " chars]");
    if at >= head.len() {
        // Only the earlier marker is past the limit: the text is as cut as it can be.
        return Cow::Borrowed(text);
    }
    let cut = original_chars(&head[at..]) + earlier;
    let shorter = with_cut_marker(&head[..at], cut);
    // A cut of fewer characters than its marker takes would lengthen the text.
    if shorter.chars().count() >= text.chars().count() {
        return Cow::Borrowed(text);
    }
    Cow::Owned(shorter)
}

/// `text` with at most `max_chars` characters kept, its first two thirds and its last
/// third, and a marker between them that says how many characters were cut
/// (`head…[cut 12 chars]…tail`): for a line read as one, a summary's, whose end often
/// says why (a chain of wrapped errors ends in its root cause, Node's rejection in its
/// reason). Whole when that would not be shorter. A text cut before is cut as
/// [`cut_str`] cuts it, its marker last.
///
/// ```
/// use briefly_core::cut_middle;
/// let said = "dial tcp 10.0.0.5:5432: connect: connection refused";
/// assert_eq!(cut_middle(said, 30), "dial tcp 10.0.0.5:54…[cut 21 chars]…on refused");
/// ```
pub fn cut_middle(text: &str, max_chars: usize) -> Cow<'_, str> {
    if text.len() <= max_chars || split_cut(text).is_some() {
        return cut_str(text, max_chars);
    }
    let chars = text.chars().count();
    if chars <= max_chars {
        return Cow::Borrowed(text);
    }
    let tail = max_chars / 3;
    let head = max_chars - tail;
    let at = |n: usize| text.char_indices().nth(n).map_or(text.len(), |(at, _)| at);
    let cut = chars - head - tail;
    let shorter = format!(
        "{}{CUT_MARKER}{cut} chars]…{}",
        &text[..at(head)],
        &text[at(chars - tail)..]
    );
    // A cut of fewer characters than its marker takes would lengthen the text.
    if shorter.chars().count() >= chars {
        return Cow::Borrowed(text);
    }
    Cow::Owned(shorter)
}

/// The first `max_chars` characters of `head`, the start of a line of `line_bytes` bytes
/// read only in part, and a marker that says so (its characters were not all read, so
/// not counted): `…[a line of 300000 bytes, cut]`.
pub fn cut_line_head(head: &str, max_chars: usize, line_bytes: u64) -> String {
    let shown: String = head.chars().take(max_chars).collect();
    format!("{shown}…[a line of {line_bytes} bytes, cut]")
}

/// What a text cut with [`cut_str`] kept, and how many characters its marker says were
/// cut after it; `None` for a text not cut.
///
/// ```
/// use briefly_core::{cut_str, split_cut};
/// let cut = cut_str("abcdefghijklmnopqrstuvwxyz0123456789", 4);
/// assert_eq!(split_cut(&cut), Some(("abcd", 32)));
/// assert_eq!(split_cut("whole"), None);
/// ```
pub fn split_cut(text: &str) -> Option<(&str, u64)> {
    match earlier_cut(text, " chars]") {
        (_, 0) => None,
        cut => Some(cut),
    }
}

/// The characters `text` stood for before any middle cut in it ([`cut_middle`]'s
/// `…[cut N chars]…`, counted as the N it took).
fn original_chars(text: &str) -> u64 {
    let mut chars = 0;
    let mut rest = text;
    while let Some(at) = rest.find(CUT_MARKER) {
        let after = &rest[at + CUT_MARKER.len()..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        let marker_end = after[digits..].strip_prefix(" chars]…");
        match (after[..digits].parse::<u64>(), marker_end) {
            (Ok(n), Some(tail)) => {
                chars += rest[..at].chars().count() as u64 + n;
                rest = tail;
            }
            _ => {
                let end = at + CUT_MARKER.len();
                chars += rest[..end].chars().count() as u64;
                rest = &rest[end..];
            }
        }
    }
    chars + rest.chars().count() as u64
}

/// A text cut before, as what it kept and the count its marker (`…[cut N` then `end`)
/// gives; a text without one, whole, and 0.
fn earlier_cut<'a>(text: &'a str, end: &str) -> (&'a str, u64) {
    text.strip_suffix(end)
        .and_then(|rest| {
            let at = rest.rfind(CUT_MARKER)?;
            let n = rest[at + CUT_MARKER.len()..].parse().ok()?;
            Some((&text[..at], n))
        })
        .unwrap_or((text, 0))
}

/// `head`, the part of a text that is kept, and the marker saying how many characters
/// after it were cut.
pub fn with_cut_marker(head: &str, cut_chars: u64) -> String {
    format!("{head}{CUT_MARKER}{cut_chars} chars]")
}

/// At most the first `max_bytes` bytes of `text`, cut back to a character boundary, with
/// no marker: for bounding what is held, where the marker would be added later or not at all.
pub fn head_bytes(text: &str, max_bytes: usize) -> &str {
    if text.len() <= max_bytes {
        return text;
    }
    let mut end = max_bytes;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// Characters `value` takes as compact JSON.
pub fn json_chars<T: serde::Serialize + ?Sized>(value: &T) -> usize {
    serde_json::to_string(value).map_or(0, |s| s.chars().count())
}

/// The member that stands for an object's members cut (`"…": "…[cut 12 more members]"`),
/// after those kept.
const CUT_MEMBERS_KEY: &str = "…";

/// Whether `value` is an object that [`shrink_to_fit`] cut by its members (some of them
/// left out, [`CUT_MEMBERS_KEY`] counting them).
pub(crate) fn lost_members(value: &Value) -> bool {
    value
        .as_object()
        .is_some_and(|members| members.contains_key(CUT_MEMBERS_KEY))
}

/// A copy of `value` cut until its compact JSON takes at most `max_chars` characters,
/// or `None` when it already fits. Long strings and keys are cut first (longest first,
/// by lowering one limit for all), down to 60 characters; then long arrays lose
/// their last elements, the strings left growing back into the room that frees; then
/// strings are cut further; objects lose members last. The result always fits.
///
/// A list of lines or of templates keeps its first entries readable rather than every
/// entry cut to a few characters that say nothing:
///
/// ```
/// use briefly_core::shrink_to_fit;
/// use serde_json::json;
/// let lines: Vec<String> = (0..40).map(|i| format!("{i:02} {}", "word ".repeat(30))).collect();
/// let cut = shrink_to_fit(&json!(lines), 1_000).unwrap();
/// let kept = cut.as_array().unwrap();
/// assert!(kept.len() < 40 && kept[0].as_str().unwrap().starts_with("00 word word word"));
/// assert!(kept.last().unwrap().as_str().unwrap().ends_with(" more elements]"));
/// ```
pub fn shrink_to_fit(value: &Value, max_chars: usize) -> Option<Value> {
    let size = json_chars(value);
    if size <= max_chars {
        return None;
    }
    // `value` cut to `chars` a string, `elements` an array, `members` an object, if
    // that fits.
    let fit = |chars: usize, elements: usize, members: usize| {
        let limits = Limits {
            chars,
            elements,
            members,
        };
        Some(cut_value(value, limits)).filter(|v| json_chars(v) <= max_chars)
    };
    let all = usize::MAX;
    // No limit at or past the size cuts anything.
    let floor = LEAST_TEXT_CHARS.min(size);
    let least = LEAST_CUT_CHARS.min(floor);
    let fits = largest(floor, size, |chars| fit(chars, all, all))
        .or_else(|| {
            let (elements, _) = largest(1, size, |elements| fit(floor, elements, all))?;
            largest(floor, size, |chars| fit(chars, elements, all))
        })
        .or_else(|| largest(least, floor, |chars| fit(chars, 1, all)))
        .or_else(|| largest(1, size, |members| fit(least, 1, members)));
    if let Some((_, fits)) = fits {
        return Some(fits);
    }
    let marker = Value::String(format!("{CUT_MARKER}{size} chars]"));
    Some(if json_chars(&marker) <= max_chars {
        marker
    } else {
        Value::Null
    })
}

/// The fewest characters [`shrink_to_fit`] cuts a string to while an array can lose
/// elements instead: fewer say too little to be worth a place (a template cut to
/// `<*> bastio…`).
const LEAST_TEXT_CHARS: usize = 60;

/// The fewest characters [`shrink_to_fit`] cuts a string to at all: below it, only the
/// value's own marker.
const LEAST_CUT_CHARS: usize = 8;

/// How far [`cut_value`] cuts: each string and key to `chars`, each array to `elements`
/// (and a marker), each object to `members` (and a marker).
#[derive(Debug, Clone, Copy)]
struct Limits {
    chars: usize,
    elements: usize,
    members: usize,
}

/// The largest `n` in `low..=high` for which `fit` gives a value, with that value, found
/// by bisection (what is cut shrinks as `n` does, give or take a marker's digit: the
/// value returned always fits); `None` when not even `low` does.
pub(crate) fn largest<T>(
    low: usize,
    high: usize,
    fit: impl Fn(usize) -> Option<T>,
) -> Option<(usize, T)> {
    let mut best = (low, fit(low)?);
    let (mut low, mut high) = (low, high);
    while low < high {
        let mid = low + (high - low).div_ceil(2);
        match fit(mid) {
            Some(value) => {
                best = (mid, value);
                low = mid;
            }
            None => high = mid - 1,
        }
    }
    Some(best)
}

fn cut_value(value: &Value, limits: Limits) -> Value {
    match value {
        Value::String(s) => match cut_str(s, limits.chars) {
            // A marker longer than what it stands for makes nothing smaller.
            Cow::Owned(cut) if cut.chars().count() < s.chars().count() => Value::String(cut),
            _ => Value::String(s.clone()),
        },
        Value::Array(items) => {
            // An array cut before ends with its marker: counted with what is cut now.
            let earlier = match items.last().and_then(Value::as_str) {
                Some(last) => match earlier_cut(last, " more elements]") {
                    ("", n) if n > 0 => n,
                    _ => 0,
                },
                None => 0,
            };
            let items = &items[..items.len() - usize::from(earlier > 0)];
            let mut out: Vec<Value> = items
                .iter()
                .take(limits.elements)
                .map(|v| cut_value(v, limits))
                .collect();
            let cut = items.len().saturating_sub(limits.elements) as u64 + earlier;
            if cut > 0 {
                out.push(Value::String(format!("{CUT_MARKER}{cut} more elements]")));
            }
            Value::Array(out)
        }
        Value::Object(map) => {
            // An object cut before holds its marker: counted with what is cut now.
            let earlier = match map.get(CUT_MEMBERS_KEY).and_then(Value::as_str) {
                Some(marker) => match earlier_cut(marker, " more members]") {
                    ("", n) if n > 0 => n,
                    _ => 0,
                },
                None => 0,
            };
            // The marker is its last member (the map keeps its members' order): reached
            // only when every member is, then replaced below.
            let mut out = serde_json::Map::new();
            for (key, v) in map.iter().take(limits.members) {
                // A long key is cut as a string is, unless its cut is another key's.
                let cut = match cut_str(key, limits.chars) {
                    Cow::Owned(cut) if !map.contains_key(&cut) && !out.contains_key(&cut) => cut,
                    _ => key.clone(),
                };
                out.insert(cut, cut_value(v, limits));
            }
            let members = map.len() - usize::from(earlier > 0);
            let cut = members.saturating_sub(limits.members) as u64 + earlier;
            if cut > 0 {
                out.insert(
                    CUT_MEMBERS_KEY.into(),
                    Value::String(format!("{CUT_MARKER}{cut} more members]")),
                );
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// `value` cut as [`cut_value`] cuts it: strings to `chars`, arrays and objects alike
    /// to `entries`.
    fn cut_at(value: &Value, chars: usize, entries: usize) -> Value {
        let limits = Limits {
            chars,
            elements: entries,
            members: entries,
        };
        cut_value(value, limits)
    }

    #[test]
    fn cut_str_marks_and_keeps_whole_characters() {
        assert_eq!(cut_str("short", 10), "short");
        assert_eq!(cut_str("exactly", 7), "exactly");
        assert_eq!(cut_str("ééé", 4), "ééé");
        assert_eq!(cut_str(&"é".repeat(40), 2), "éé…[cut 38 chars]");
        assert_eq!(cut_str(&"日本語".repeat(10), 1), "日…[cut 29 chars]");
        // A cut that would take fewer characters than its marker adds leaves it whole.
        let a20 = "a".repeat(20);
        assert_eq!(cut_str(&a20, 15), a20);
        assert_eq!(cut_str("ééééé", 2), "ééééé");
    }

    #[test]
    fn cut_middle_keeps_both_ends_and_whole_characters() {
        assert_eq!(cut_middle("short", 10), "short");
        let line = format!("{}{}", "é".repeat(40), "日".repeat(20));
        assert_eq!(
            cut_middle(&line, 30),
            format!("{}…[cut 30 chars]…{}", "é".repeat(20), "日".repeat(10))
        );
        // Not shorter with its marker: whole.
        let a40 = "a".repeat(40);
        assert_eq!(cut_middle(&a40, 30), a40);
        // Cut before: cut again from its head, every character cut counted.
        let once = cut_str(&"a".repeat(5_000), 1_000).into_owned();
        assert_eq!(
            cut_middle(&once, 300),
            format!("{}…[cut 4700 chars]", "a".repeat(300))
        );
        // A middle cut cut again at its end counts what the middle cut took too.
        let middle = cut_middle(&"b".repeat(600), 300).into_owned();
        assert_eq!(
            middle,
            format!("{}…[cut 300 chars]…{}", "b".repeat(200), "b".repeat(100))
        );
        assert_eq!(
            cut_str(&middle, 50),
            format!("{}…[cut 550 chars]", "b".repeat(50))
        );
    }

    #[test]
    fn a_second_cut_counts_what_the_first_cut_too() {
        let once = cut_str(&"a".repeat(5_000), 1_000).into_owned();
        assert_eq!(once, format!("{}…[cut 4000 chars]", "a".repeat(1_000)));
        assert_eq!(
            cut_str(&once, 300),
            format!("{}…[cut 4700 chars]", "a".repeat(300))
        );
        // Only the marker past the limit: nothing more to cut.
        assert_eq!(cut_str(&once, 1_005), once);
        let many = json!((0..100).collect::<Vec<u32>>());
        let once = cut_at(&many, usize::MAX, 50);
        assert_eq!(once[50], "…[cut 50 more elements]");
        let twice = cut_at(&once, usize::MAX, 4);
        assert_eq!(twice, json!([0, 1, 2, 3, "…[cut 96 more elements]"]));
        // An object's members alike.
        let wide: serde_json::Map<String, Value> =
            (0..100).map(|k| (format!("k{k:03}"), json!(k))).collect();
        let once = cut_at(&Value::Object(wide), usize::MAX, 50);
        assert_eq!(once[CUT_MEMBERS_KEY], "…[cut 50 more members]");
        let twice = cut_at(&once, usize::MAX, 4);
        assert_eq!(twice.as_object().unwrap().len(), 5, "{twice}");
        assert_eq!(twice[CUT_MEMBERS_KEY], "…[cut 96 more members]");
        // Cut again where all that is left fits: the marker stays, its count too.
        assert_eq!(cut_at(&twice, usize::MAX, 10), twice);
        // The members before the marker are kept in their order; a member of the
        // marker's key whose value is no marker is a member.
        let after = json!({"a": 1, "日": 2, CUT_MEMBERS_KEY: "…[cut 1 more members]"});
        assert_eq!(cut_at(&after, usize::MAX, 2), after);
        let odd = json!({"a": 1, CUT_MEMBERS_KEY: "x…[cut 3 more members]"});
        assert_eq!(cut_at(&odd, usize::MAX, 5), odd);
    }

    #[test]
    fn shrinks_long_strings_to_fit() {
        let big = json!({"line": 7, "text": "x".repeat(10_000), "tag": "keep"});
        let small = shrink_to_fit(&big, 500).unwrap();
        assert!(json_chars(&small) <= 500);
        assert_eq!(small["line"], 7);
        assert_eq!(small["tag"], "keep");
        assert!(small["text"].as_str().unwrap().contains(CUT_MARKER));
        assert!(shrink_to_fit(&json!({"a": 1}), 500).is_none());
    }

    #[test]
    fn a_string_is_cut_only_where_the_cut_makes_it_shorter() {
        let value = json!(["Float64", "x".repeat(30)]);
        assert_eq!(
            cut_at(&value, 6, usize::MAX),
            json!(["Float64", "xxxxxx…[cut 24 chars]"])
        );
    }

    #[test]
    fn shrinks_long_arrays_when_strings_are_not_enough() {
        let many: Vec<u32> = (0..10_000).collect();
        let small = shrink_to_fit(&json!({ "n": many }), 300).unwrap();
        assert!(json_chars(&small) <= 300, "{small}");
        assert!(small.to_string().contains("more elements"));
    }

    #[test]
    fn long_keys_and_wide_objects_are_cut_too() {
        // A record under a key of 3,000 characters keeps its other members.
        let long_key = json!({"id": 7, "k".repeat(3_000): 1});
        let small = shrink_to_fit(&long_key, 300).unwrap();
        assert!(json_chars(&small) <= 300, "{small}");
        assert_eq!(small["id"], 7, "{small}");
        assert!(small.to_string().contains("[cut 2"), "{small}");
        // Two keys alike up to the cut: neither is lost.
        let alike = json!({"a".repeat(50) + "x": 1, "a".repeat(50) + "y": 2});
        let cut = cut_at(&alike, 10, usize::MAX);
        assert_eq!(cut.as_object().unwrap().len(), 2, "{cut}");
        // An object of many members: its first kept, the rest counted.
        let wide: serde_json::Map<String, Value> =
            (0..5_000).map(|i| (format!("m{i}"), json!(i))).collect();
        let small = shrink_to_fit(&Value::Object(wide), 400).unwrap();
        assert!(json_chars(&small) <= 400, "{small}");
        assert_eq!(small["m0"], 0, "{small}");
        let marker = small[CUT_MEMBERS_KEY].as_str().unwrap();
        assert!(marker.ends_with(" more members]"), "{small}");
    }

    #[test]
    fn always_fits_even_when_tiny() {
        let big = json!({"a": "y".repeat(1000)});
        for max in [0, 1, 5, 30] {
            let small = shrink_to_fit(&big, max).unwrap();
            assert!(json_chars(&small) <= max.max(4), "{max}: {small}");
        }
    }
}
