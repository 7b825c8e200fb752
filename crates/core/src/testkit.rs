//! For reducer authors' tests: one call that feeds an input in chunks of 1, 7 and 8192
//! bytes, checks the envelopes are the same, and checks the envelope's invariants; and
//! one that checks a [`Prepare`]'s batch path against its line-by-line one.

use crate::{reduce, Envelope, Prepare, Reducer, RunConfig};
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

/// Frames `input` into lines and prepares them twice with fresh preparers from `make`:
/// as one batch ([`Prepare::prepare_batch`]) and one record at a time
/// ([`Prepare::prepare`]). Panics unless each line's two outputs print alike (`{:?}`):
/// a preparer that does batches its own way must find what it finds line by line.
pub fn assert_batch_prepares_as_each<P: Prepare>(make: impl Fn() -> P, input: &str)
where
    P::Output: std::fmt::Debug,
{
    let batch = crate::ahead::prepare_as_one_batch(make(), input.as_bytes());
    let mut each = make();
    for i in 0..batch.len() {
        let record = batch.record(i);
        let mut single = P::Output::default();
        each.prepare(&record, &mut single);
        let batched = batch.output(i);
        assert_eq!(
            format!("{batched:?}"),
            format!("{single:?}"),
            "line {:?}",
            record.text
        );
    }
}
