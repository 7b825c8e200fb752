//! Reducers that treat their input as plain lines, without interpreting it:
//! [`Spill`] (the preview behind `briefly spill` and `run`'s fallback), [`Lines`]
//! (`briefly read`) and [`Grep`] (`briefly grep`).

mod grep;
mod lines;
mod spill;

pub use grep::{Grep, GrepOptions, Match, MAX_CONTEXT};
pub use lines::{piece_chars_for, Lines, LinesOptions};
pub use spill::{looks_like_error, Spill, SpillOptions};

use briefly_core::Record;
use serde::Serialize;

/// One line of the input, as an item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LineItem {
    /// 1-based line number in the raw input.
    pub line: u64,
    /// The line's text.
    pub text: String,
    /// The line was longer than the framing limit; its head is shown.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub cut: bool,
    /// When `text` is a piece of a long line (`briefly read`): the column, in
    /// characters from 1, where it starts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u64>,
    /// With `column`: the whole line's length in characters (its framed head's, when
    /// `cut`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_chars: Option<u64>,
}

impl LineItem {
    /// The item for `record`.
    pub fn of(record: &Record<'_>) -> LineItem {
        LineItem {
            line: record.line,
            text: record.text.to_string(),
            cut: record.cut,
            column: None,
            line_chars: None,
        }
    }
}

/// What a terminal shows of `text`: without its ANSI escape codes, when it has any
/// (`read` and `grep` show, and match, what the output showed; the file keeps them).
pub(crate) fn visible(text: &str) -> std::borrow::Cow<'_, str> {
    match briefly_core::strip_ansi(text, None) {
        Some(stripped) => std::borrow::Cow::Owned(stripped),
        None => std::borrow::Cow::Borrowed(text),
    }
}

/// The warning for `lines` lines shown without their ANSI codes, if any.
pub(crate) fn ansi_warning(lines: u64) -> Option<String> {
    (lines > 0).then(|| {
        format!(
            "ANSI escape codes removed from {} (the file keeps them)",
            briefly_core::plural(lines, "line")
        )
    })
}

#[cfg(test)]
pub(crate) mod test_support {
    use briefly_core::{Envelope, Reducer, RunConfig};

    /// [`briefly_core::testkit::reduce_all_chunkings`] for a reducer that can be cloned.
    pub fn reduce_all_chunkings<R: Reducer + Clone>(
        reducer: R,
        input: &[u8],
        config: &RunConfig,
    ) -> Envelope {
        briefly_core::testkit::reduce_all_chunkings(|| reducer.clone(), input, config)
    }
}
