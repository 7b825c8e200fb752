//! Reducers that treat their input as plain lines, without interpreting it:
//! [`Spill`] (the preview behind `briefly spill` and `run`'s fallback), [`Lines`]
//! (`briefly read`) and [`Grep`] (`briefly grep`).

mod grep;
mod lines;
mod spill;

pub use grep::{Grep, GrepOptions, Match};
pub use lines::{Lines, LinesOptions, NEXT_OFFSET_PLACEHOLDER};
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
}

impl LineItem {
    /// The item for `record`.
    pub fn of(record: &Record<'_>) -> LineItem {
        LineItem {
            line: record.line,
            text: record.text.to_string(),
            cut: record.cut,
        }
    }
}

#[cfg(test)]
pub(crate) mod test_support {
    use briefly_core::{reduce, Envelope, Reducer, RunConfig};

    /// Reduces `input` fed in chunks of 1, 7 and 8192 bytes, checks the three envelopes
    /// are equal and the invariants hold, and returns one.
    pub fn reduce_all_chunkings<R: Reducer + Clone>(
        reducer: R,
        input: &[u8],
        config: &RunConfig,
    ) -> Envelope {
        let envelopes: Vec<Envelope> = [1, 7, 8192]
            .iter()
            .map(|&chunk| {
                let reader = Chunked { data: input, chunk };
                reduce(reducer.clone(), reader, config).unwrap()
            })
            .collect();
        assert_eq!(envelopes[0], envelopes[1]);
        assert_eq!(envelopes[1], envelopes[2]);
        let e = envelopes.into_iter().next().unwrap();
        assert_eq!(e.returned_items as usize, e.items.len());
        assert!(e.returned_items + e.item_offset <= e.total_items);
        assert!(e.to_json().chars().count() <= config.budget.per_result_chars);
        e
    }

    struct Chunked<'a> {
        data: &'a [u8],
        chunk: usize,
    }

    impl std::io::Read for Chunked<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.chunk.min(buf.len()).min(self.data.len());
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }
}
