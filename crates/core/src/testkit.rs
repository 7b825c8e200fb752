//! For reducer authors' tests: one call that feeds an input in chunks of 1, 7 and 8192
//! bytes, checks the envelopes are the same, and checks the envelope's invariants.

use crate::{reduce, Envelope, Reducer, RunConfig};
use std::io::Read;

/// Reduces `input` with a fresh reducer from `make`, fed in chunks of 1, 7 and 8192
/// bytes; panics unless the three envelopes are equal (artifact paths and cursors aside,
/// as they name each run's own artifact) and the invariants hold: `returned_items ==
/// items.len()`, `item_offset + returned_items <= total_items`, and the printed result
/// (by `config.render`) within the per-result budget. Returns the envelope.
pub fn reduce_all_chunkings<R: Reducer>(
    make: impl Fn() -> R,
    input: &[u8],
    config: &RunConfig,
) -> Envelope {
    let envelopes: Vec<Envelope> = [1, 7, 8192]
        .iter()
        .map(|&chunk| {
            reduce(make(), Chunked { data: input, chunk }, config).expect("reading memory")
        })
        .collect();
    let comparable = |e: &Envelope| Envelope {
        artifact_path: None,
        artifact_expires: None,
        next_cursor: None,
        ..e.clone()
    };
    assert_eq!(
        comparable(&envelopes[0]),
        comparable(&envelopes[1]),
        "chunks of 1 and 7 bytes"
    );
    assert_eq!(
        comparable(&envelopes[1]),
        comparable(&envelopes[2]),
        "chunks of 7 and 8192 bytes"
    );
    let envelope = envelopes.into_iter().next().expect("three");
    assert_eq!(envelope.returned_items as usize, envelope.items.len());
    assert!(envelope.item_offset + envelope.returned_items <= envelope.total_items);
    let printed = (config.render)(&envelope).chars().count();
    assert!(
        printed <= config.budget.per_result_chars,
        "printed {printed} chars"
    );
    envelope
}

/// A reader that hands out at most `chunk` bytes a call.
struct Chunked<'a> {
    data: &'a [u8],
    chunk: usize,
}

impl Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.chunk.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}
