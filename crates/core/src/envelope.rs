//! The one result shape every reducer and tool command prints.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What the `items` of an envelope are a selection of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Preview {
    /// The first items of the input, in order.
    #[serde(rename = "head")]
    Head,
    /// The last items of the input, in order.
    #[serde(rename = "tail")]
    Tail,
    /// The first and last items, and (for `spill`) the lines that look like errors.
    #[serde(rename = "head+tail")]
    HeadTail,
    /// The items that matched a pattern or filter.
    #[serde(rename = "matches")]
    Matches,
    /// Items ordered by how likely they are to be the evidence.
    #[default]
    #[serde(rename = "ranked")]
    Ranked,
    /// Aggregates only: the items summarize the input.
    #[serde(rename = "summary")]
    Summary,
}

/// Size of the raw input an envelope was made from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Raw {
    /// Bytes read.
    pub bytes: u64,
    /// Lines read (a last line without a newline counts).
    pub lines: u64,
    /// Characters read (as UTF-8; each invalid byte counts as one).
    #[serde(default)]
    pub chars: u64,
}

impl Raw {
    /// The size of `bytes`, input read whole, counted as the pipeline counts what it
    /// reads.
    ///
    /// ```
    /// use briefly_core::Raw;
    ///
    /// let raw = Raw::of("a\né\nlast".as_bytes());
    /// assert_eq!((raw.bytes, raw.lines, raw.chars), (9, 3, 8));
    /// assert_eq!(Raw::of(b"a\n").lines, 1);
    /// assert_eq!(Raw::of(b"").lines, 0);
    /// ```
    pub fn of(bytes: &[u8]) -> Raw {
        let newlines = crate::count_newlines(bytes);
        Raw {
            bytes: bytes.len() as u64,
            lines: newlines + u64::from(bytes.last().is_some_and(|&b| b != b'\n')),
            chars: crate::frame::count_chars(bytes),
        }
    }
}

/// The standard result: a summary, aggregates, the evidence, and where the rest is.
///
/// Invariants (held by the budget stage, checked by tests on every reducer):
/// `returned_items == items.len() <= total_items`; `truncated` iff something was left
/// out; `next_cursor` is set iff more items exist and can be paged from the artifact;
/// `artifact_path` is set iff something was left out and the artifact was written; the
/// printed envelope never exceeds the per-result budget.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Envelope {
    /// False when the source reports failure (failed tests, non-zero exit, parse error).
    pub ok: bool,
    /// The reducer or command that made it.
    pub source: String,
    /// One line a model can act on.
    pub summary: String,
    /// Reducer-specific aggregates: counts, histograms, top-N.
    pub stats: Value,
    /// The evidence, most important first.
    pub items: Vec<Value>,
    /// How many items the reducer produced in all (across every page).
    pub total_items: u64,
    /// `items.len()`.
    pub returned_items: u64,
    /// Whether anything of the input was left out of this result.
    pub truncated: bool,
    /// Pass to `briefly page` for the next items; `None` when nothing is left.
    pub next_cursor: Option<String>,
    /// The full raw input, byte for byte, when anything was left out.
    pub artifact_path: Option<String>,
    /// What the items are a selection of.
    pub preview: Preview,
    /// The exit code of the command `briefly run` ran.
    pub exit_code: Option<i32>,
    /// Size of the raw input.
    pub raw: Raw,
    /// What was altered or could not be done: cut lines, replaced bytes, a failed write.
    pub warnings: Vec<String>,
    /// How many items earlier pages returned (the position of `items[0]`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub item_offset: u64,
    /// When `briefly gc` with its default age will remove the artifact (RFC 3339, UTC).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artifact_expires: Option<String>,
    /// For `run`: the command's standard error, bounded separately from its output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr: Option<Value>,
    /// The source's own position after the last record read (journald's `__CURSOR`),
    /// for continuing from the source itself (`journalctl --after-cursor`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_cursor: Option<String>,
    /// Where the artifact is when it was kept on request (`--keep`) though nothing was
    /// left out: `artifact_path` names it only when something was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept_artifact: Option<String>,
}

/// Whether a count is zero: for `#[serde(skip_serializing_if = "briefly_core::is_zero")]`
/// on counts that are noise when nothing happened.
pub fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// `{n} {what}`, with an `s` unless `n` is 1: a summary's counts.
///
/// ```
/// assert_eq!(briefly_core::plural(1, "error"), "1 error");
/// assert_eq!(briefly_core::plural(0, "warning"), "0 warnings");
/// ```
pub fn plural(n: u64, what: &str) -> String {
    match n {
        1 => format!("1 {what}"),
        _ => format!("{n} {what}s"),
    }
}

/// `{n} {one}` when `n` is 1, else `{n} {many}`: a warning's count with its noun and verb
/// agreeing.
///
/// ```
/// use briefly_core::counted;
/// assert_eq!(counted(1, "entry has", "entries have"), "1 entry has");
/// assert_eq!(counted(3, "entry has", "entries have"), "3 entries have");
/// ```
pub fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

impl Envelope {
    /// An envelope with no items, for `source`.
    pub fn new(source: impl Into<String>, summary: impl Into<String>) -> Self {
        Envelope {
            ok: true,
            source: source.into(),
            summary: summary.into(),
            stats: Value::Object(Default::default()),
            items: Vec::new(),
            total_items: 0,
            returned_items: 0,
            truncated: false,
            next_cursor: None,
            artifact_path: None,
            preview: Preview::Ranked,
            exit_code: None,
            raw: Raw::default(),
            warnings: Vec::new(),
            item_offset: 0,
            artifact_expires: None,
            stderr: None,
            source_cursor: None,
            kept_artifact: None,
        }
    }

    /// The envelope as one line of compact JSON (no trailing newline).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("an envelope always serializes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serializes_every_contract_field() {
        let envelope = Envelope::new("spill", "nothing");
        let value: Value = serde_json::from_str(&envelope.to_json()).unwrap();
        for field in [
            "ok",
            "source",
            "summary",
            "stats",
            "items",
            "total_items",
            "returned_items",
            "truncated",
            "next_cursor",
            "artifact_path",
            "preview",
            "exit_code",
            "raw",
            "warnings",
        ] {
            assert!(value.get(field).is_some(), "missing {field}");
        }
        assert_eq!(value["next_cursor"], Value::Null);
        assert_eq!(value["raw"]["bytes"], 0);
    }

    #[test]
    fn preview_names_match_the_contract() {
        let names: Vec<String> = [
            Preview::Head,
            Preview::Tail,
            Preview::HeadTail,
            Preview::Matches,
            Preview::Ranked,
            Preview::Summary,
        ]
        .iter()
        .map(|p| serde_json::to_string(p).unwrap())
        .collect();
        assert_eq!(
            names,
            [
                "\"head\"",
                "\"tail\"",
                "\"head+tail\"",
                "\"matches\"",
                "\"ranked\"",
                "\"summary\""
            ]
        );
    }

    #[test]
    fn round_trips() {
        let mut envelope = Envelope::new("x", "y");
        envelope.items.push(serde_json::json!({"line": 1}));
        envelope.item_offset = 3;
        let back: Envelope = serde_json::from_str(&envelope.to_json()).unwrap();
        assert_eq!(back, envelope);
    }
}
