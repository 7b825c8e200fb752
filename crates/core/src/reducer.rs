//! The trait a reducer implements: records are pushed in, ranked items come out.

use crate::{Ahead, Batch, Envelope, Prepare, Preview, Raw};
use serde::Serialize;

/// Where an item goes in the result: lower ranks come first; items of one rank keep the
/// order they were emitted in. Pages follow the same order.
pub type Rank = u64;

/// One framed record of the input.
#[derive(Debug, Clone, Copy)]
pub struct Record<'a> {
    /// The line as text: without its newline, invalid UTF-8 replaced by U+FFFD.
    pub text: &'a str,
    /// The raw bytes of the line (without its newline), as framed.
    pub bytes: &'a [u8],
    /// 1-based line number in the raw input (what `briefly read --offset` takes).
    pub line: u64,
    /// Byte offset of the line's start in the raw input.
    pub offset: u64,
    /// The line was longer than the framing limit and only its head is here.
    pub cut: bool,
    /// The line ended in `\r\n` (the `\r` is in neither `text` nor `bytes`).
    pub crlf: bool,
}

/// How the budget stage hands a reducer its input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Framing {
    /// Bounded lines, one [`Reducer::record`] call each (the default).
    #[default]
    Lines,
    /// The raw bytes as they arrive, in chunks of any size, one [`Reducer::chunk`] call
    /// each: for formats whose records are not lines (a JSON document, journald's
    /// binary export format), and for reducers that frame lines on another thread
    /// ([`crate::Ahead::framing`]). The reducer does its own bounded framing; the result
    /// must not depend on where the chunks split.
    Raw,
    /// No bytes at all: the reducer reads its input itself, by random access (a Parquet
    /// file from its footer, only the row groups a page needs). Nothing is pushed
    /// ([`crate::Push::reads_input`] is false); [`Reducer::raw`] says how large the input was.
    Own,
}

/// What a reducer wants after a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Keep sending records.
    Continue,
    /// Send no more records; the input is still read to its end (and kept in the
    /// artifact), then `finish` is called as usual.
    Stop,
}

/// Where a reducer's items go: the budget stage.
///
/// Every item a reducer produces goes through exactly one call of [`Emit::emit`] or
/// [`Emit::skip`], so that `total_items` counts them all and pages are stable.
pub trait Emit<I> {
    /// Offers one item at `rank`. The stage keeps it if it fits, else only counts it.
    fn emit(&mut self, rank: Rank, item: I);

    /// Whether an item emitted now at `rank` could be kept. When this is false a reducer
    /// may call [`Emit::skip`] instead of building the item: the result is the same.
    fn wants(&self, rank: Rank) -> bool;

    /// Counts an item at `rank` without building it. Only valid when `wants(rank)` is false.
    fn skip(&mut self, rank: Rank);
}

/// What a reducer reports at the end of its input.
#[derive(Debug, Clone)]
pub struct Outcome<S> {
    /// False when the source reports failure.
    pub ok: bool,
    /// One line a model can act on.
    pub summary: String,
    /// Aggregates.
    pub stats: S,
    /// What the items are a selection of.
    pub preview: Preview,
    /// True when the items, all of them, are the whole answer, so that a result showing
    /// every item leaves nothing out: a pass-through, every line of a range asked for,
    /// every match. False when the reducer folds or drops input (templates, summaries).
    pub complete: bool,
    /// Anything the reducer altered or could not read, for the envelope's warnings.
    pub warnings: Vec<String>,
    /// The items are the input (or the records the options kept) as it is, none folded,
    /// and the summary says `returned whole`: the budget stage adds to that when the
    /// items take more than one page, or one was cut to fit.
    pub returned_whole: bool,
    /// An item too long for the room the others leave on a page may end it, cut to that
    /// room, when it keeps at least half of itself; what was cut of it is on no page (the
    /// artifact has it, at its lines). For items that are records of lines whose first
    /// lines say most (a traceback, a test's failure). False where an item is of use only
    /// whole (a diff's hunk, a patch), and by default.
    pub cut_next_item: bool,
}

impl<S> Outcome<S> {
    /// A successful, ranked, lossy outcome.
    pub fn new(summary: impl Into<String>, stats: S) -> Self {
        Outcome {
            ok: true,
            summary: summary.into(),
            stats,
            preview: Preview::Ranked,
            complete: false,
            warnings: Vec::new(),
            returned_whole: false,
            cut_next_item: false,
        }
    }
}

/// A streaming reducer: records are pushed in, ranked items come out through an [`Emit`],
/// and an [`Outcome`] at the end.
///
/// Memory is bounded by configuration (top-k sizes, caps), never by input size: items
/// are pushed out as they are found, or held in bounded structures until `finish`.
/// Ranking is the reducer's job (it knows the source); fitting is the budget stage's
/// (it knows the window). The same records must give the same items in the same order,
/// since `briefly page` reruns the reducer over the artifact to find the next page.
pub trait Reducer {
    /// One piece of evidence.
    type Item: Serialize;
    /// The aggregates: an object whose members come most telling first. When the budget
    /// has no room for all of them, it cuts the largest to the room the others leave, or,
    /// when that would leave nothing of it, drops the last member and tries again.
    type Stats: Serialize;

    /// One record of the input (with [`Framing::Lines`]).
    fn record(&mut self, record: &Record<'_>, out: &mut dyn Emit<Self::Item>) -> Flow;

    /// How this reducer wants its input; asked once, before any input.
    fn framing(&self) -> Framing {
        Framing::Lines
    }

    /// With [`Framing::Raw`], told once before any input: the longest line the budget
    /// stage keeps (`RunConfig::max_line_bytes`), for a reducer that frames lines itself
    /// as the stage would ([`crate::Ahead::framing`]). Others need nothing here.
    fn line_limit(&mut self, _max_line_bytes: usize) {}

    /// The next raw bytes of the input, which start at byte `offset` (with
    /// [`Framing::Raw`]; never called otherwise).
    fn chunk(&mut self, _bytes: &[u8], _offset: u64, _out: &mut dyn Emit<Self::Item>) -> Flow {
        Flow::Continue
    }

    /// End of input: emit what was held back, return the summary and aggregates.
    fn finish(&mut self, out: &mut dyn Emit<Self::Item>) -> Outcome<Self::Stats>;

    /// The size of the input when the reducer read it itself ([`Framing::Own`]), asked
    /// after `finish`; `None` (the default) means the bytes pushed are counted.
    fn raw(&self) -> Option<Raw> {
        None
    }

    /// Called by the budget stage on each envelope it tries, once the items are chosen,
    /// for what depends on which ones were (where the next page starts, say); what it
    /// adds is measured with the rest. Most reducers need nothing here.
    fn fitted(&self, _envelope: &mut Envelope) {}
}

/// A reducer that works out what each line says by itself on [`Ahead`]'s threads, and
/// folds the lines in input order, a batch at a time. Implementing it implements
/// [`Reducer`]:
///
/// - the input goes to [`FoldBatches::ahead_mut`]: lines framed by the budget stage,
///   pushed one by one (an `Ahead` made with [`Ahead::new`] or [`Ahead::parallel`]), or
///   raw bytes that the `Ahead` frames on its own thread ([`Ahead::framing`]; the
///   reducer's framing is then [`Framing::Raw`]);
/// - every batch that comes back, in input order, goes to [`FoldBatches::fold`];
/// - at the end of input, the last batches go to `fold` too, then
///   [`FoldBatches::outcome`] gives the outcome.
pub trait FoldBatches {
    /// What works out each line's facts, ahead of the folding.
    type Prepare: Prepare;
    /// As [`Reducer::Item`].
    type Item: Serialize;
    /// As [`Reducer::Stats`].
    type Stats: Serialize;

    /// The reducer's [`Ahead`].
    fn ahead(&self) -> &Ahead<Self::Prepare>;

    /// The same, to push input into.
    fn ahead_mut(&mut self) -> &mut Ahead<Self::Prepare>;

    /// Folds a batch of lines, each with its facts, in order. The batch then goes back
    /// to the `Ahead`, so that its buffers serve again.
    fn fold(
        &mut self,
        batch: &mut Batch<<Self::Prepare as Prepare>::Output>,
        out: &mut dyn Emit<Self::Item>,
    );

    /// End of input, every batch folded: emit what was held back, return the summary
    /// and aggregates (as [`Reducer::finish`]).
    fn outcome(&mut self, out: &mut dyn Emit<Self::Item>) -> Outcome<Self::Stats>;

    /// As [`Reducer::fitted`].
    fn fitted(&self, _envelope: &mut Envelope) {}
}

impl<F: FoldBatches> Reducer for F {
    type Item = F::Item;
    type Stats = F::Stats;

    fn record(&mut self, record: &Record<'_>, out: &mut dyn Emit<Self::Item>) -> Flow {
        if let Some(batch) = self.ahead_mut().push(record) {
            fold_and_recycle(self, batch, out);
        }
        Flow::Continue
    }

    fn framing(&self) -> Framing {
        if self.ahead().frames() {
            Framing::Raw
        } else {
            Framing::Lines
        }
    }

    fn line_limit(&mut self, max_line_bytes: usize) {
        self.ahead_mut().set_line_limit(max_line_bytes);
    }

    fn chunk(&mut self, mut bytes: &[u8], _offset: u64, out: &mut dyn Emit<Self::Item>) -> Flow {
        while let Some(batch) = self.ahead_mut().push_chunk(&mut bytes) {
            fold_and_recycle(self, batch, out);
        }
        Flow::Continue
    }

    fn finish(&mut self, out: &mut dyn Emit<Self::Item>) -> Outcome<Self::Stats> {
        for batch in self.ahead_mut().finish() {
            fold_and_recycle(self, batch, out);
        }
        self.outcome(out)
    }

    fn fitted(&self, envelope: &mut Envelope) {
        FoldBatches::fitted(self, envelope);
    }
}

/// Folds `batch` into `reducer`, then gives it back to the reducer's `Ahead`.
fn fold_and_recycle<F: FoldBatches>(
    reducer: &mut F,
    mut batch: Batch<<F::Prepare as Prepare>::Output>,
    out: &mut dyn Emit<F::Item>,
) {
    reducer.fold(&mut batch, out);
    reducer.ahead_mut().recycle(batch);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::reduce_all_chunkings;
    use crate::{RunConfig, DEFAULT_MAX_LINE_BYTES};

    /// Each line's length, worked out ahead.
    #[derive(Clone)]
    struct Length;

    impl Prepare for Length {
        type Output = usize;
        fn prepare(&mut self, record: &Record<'_>, out: &mut usize) {
            *out = record.text.len();
        }
    }

    /// Emits each line's number and length, then the number of lines in the summary.
    struct Lengths {
        ahead: Ahead<Length>,
        lines: u64,
    }

    impl FoldBatches for Lengths {
        type Prepare = Length;
        type Item = (u64, usize);
        type Stats = u64;

        fn ahead(&self) -> &Ahead<Length> {
            &self.ahead
        }

        fn ahead_mut(&mut self) -> &mut Ahead<Length> {
            &mut self.ahead
        }

        fn fold(&mut self, batch: &mut Batch<usize>, out: &mut dyn Emit<(u64, usize)>) {
            for i in 0..batch.len() {
                self.lines += 1;
                out.emit(0, (batch.record(i).line, *batch.output(i)));
            }
        }

        fn outcome(&mut self, _out: &mut dyn Emit<(u64, usize)>) -> Outcome<u64> {
            Outcome::new(format!("{} lines", self.lines), self.lines)
        }
    }

    #[test]
    fn batches_are_folded_in_order_however_the_lines_come() {
        let input: String = (0..10_000)
            .map(|i| format!("{}\n", "x".repeat(i % 37)))
            .collect();
        let config = RunConfig::new("lengths");
        let pushed = || Lengths {
            ahead: Ahead::parallel(Length),
            lines: 0,
        };
        let framed_there = || Lengths {
            ahead: Ahead::framing(Length, DEFAULT_MAX_LINE_BYTES),
            lines: 0,
        };
        assert_eq!(pushed().framing(), Framing::Lines);
        assert_eq!(framed_there().framing(), Framing::Raw);
        let a = reduce_all_chunkings(pushed, input.as_bytes(), &config);
        let b = reduce_all_chunkings(framed_there, input.as_bytes(), &config);
        assert_eq!(a.summary, "10000 lines");
        assert_eq!(a.total_items, 10_000);
        assert_eq!(
            (a.items.first(), a.items.last()),
            (b.items.first(), b.items.last())
        );
        assert_eq!(a.items[36], serde_json::json!([37, 36]));
    }
}
