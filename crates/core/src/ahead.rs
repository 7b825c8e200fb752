//! A reducer's per-record work that depends on the record alone, done on a second thread
//! one batch ahead of the rest.
//!
//! Most of what a log reducer does to a line — classifying its severity, masking its
//! variable parts — is a pure function of the line; only the folding that follows
//! depends on the lines before it. [`Ahead`] runs the pure part ([`Prepare`]) on a
//! worker thread over batches of records while the reducer folds the previous batch, and
//! hands the batches back in input order, so the result is exactly what doing both in
//! turn gives. Memory is bounded: with one worker, at most three batches of
//! [`BATCH_LINES`] records or about [`BATCH_BYTES`] bytes (or what
//! [`Ahead::with_batch_bytes`] sets) hold records at once, and two emptied ones are kept
//! for reuse; [`Ahead::parallel`]'s two workers hold at most two more, and keep one more.
//!
//! A reducer may also hand over its raw input ([`Ahead::framing`], with
//! [`crate::Framing::Raw`]): the worker then frames the lines too, exactly as the budget
//! stage would ([`crate::RecordFramer`]), and the caller's thread is left with the
//! folding alone. A batch is then the records of [`BATCH_BYTES`] of input, however many
//! (a piece of blank lines is one per byte), plus a line carried over from the piece
//! before, at most the framing limit long. A preparer whose work is cheaper over many
//! lines at once (one pass over the batch's text instead of one per short line) does it
//! in [`Prepare::prepare_batch`].
//!
//! ```
//! use briefly_core::{Ahead, Prepare, Record};
//!
//! /// The length of each line, worked out on the other thread.
//! struct Length;
//!
//! impl Prepare for Length {
//!     type Output = usize;
//!     fn prepare(&mut self, record: &Record<'_>, out: &mut usize) {
//!         *out = record.text.len();
//!     }
//! }
//!
//! let mut ahead = Ahead::new(Length);
//! let mut lengths = Vec::new();
//! for (n, text) in ["a", "bb", "ccc"].into_iter().enumerate() {
//!     let record = Record { text, bytes: text.as_bytes(), line: n as u64 + 1, offset: 0, cut: false, crlf: false };
//!     // A batch comes back once the worker is done with it; here, at the end.
//!     if let Some(batch) = ahead.push(&record) {
//!         lengths.extend((0..batch.len()).map(|i| *batch.output(i)));
//!     }
//! }
//! for batch in ahead.finish() {
//!     lengths.extend((0..batch.len()).map(|i| *batch.output(i)));
//! }
//! assert_eq!(lengths, [1, 2, 3]);
//! ```

use crate::{Alterations, Record, RecordFramer};
use std::collections::VecDeque;
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::thread::JoinHandle;

/// Records in a batch at most, when they are pushed one by one: short lines go in large
/// batches, so that handing them over costs little per line.
pub const BATCH_LINES: usize = 4096;
/// Bytes of text in a batch before it is sent (a longer line goes alone), unless
/// [`Ahead::with_batch_bytes`] says otherwise: small enough that a batch and what was
/// found for it stay in the cache until the caller reads them.
pub const BATCH_BYTES: usize = 64 * 1024;

/// The part of a reducer's work on a record that depends on that record alone.
pub trait Prepare: Send + 'static {
    /// What it finds. Outputs are reused from batch to batch, so the buffers inside one
    /// grow to what the longest record needs and are not allocated again.
    type Output: Default + Send + 'static;

    /// Fills `out` for `record`; what `out` held before is stale.
    fn prepare(&mut self, record: &Record<'_>, out: &mut Self::Output);

    /// Fills `outs[i]` for each record `i` of a batch. By default [`Prepare::prepare`]
    /// for each in turn; a preparer whose work is cheaper over many records at once (one
    /// pass over [`Records::joined`] instead of one per short line) does it here.
    fn prepare_batch(&mut self, records: Records<'_>, outs: &mut [Self::Output]) {
        for (i, out) in outs.iter_mut().enumerate() {
            self.prepare(&records.get(i), out);
        }
    }
}

/// The records of a batch, as [`Prepare::prepare_batch`] sees them.
#[derive(Debug, Clone, Copy)]
pub struct Records<'a> {
    text: &'a str,
    raw: &'a [u8],
    slots: &'a [Slot],
}

impl<'a> Records<'a> {
    /// The number of records.
    #[inline]
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Record `i`, as it was pushed.
    pub fn get(&self, i: usize) -> Record<'a> {
        record_of(self.text, self.raw, &self.slots[i])
    }

    /// The texts of all records in order, each followed by a `\n` (a text may hold
    /// newlines too): record `i`'s text is `&joined()[text_range(i)]`.
    pub fn joined(&self) -> &'a str {
        self.text
    }

    /// Where record `i`'s text is in [`Records::joined`].
    pub fn text_range(&self, i: usize) -> std::ops::Range<usize> {
        let (start, end) = self.slots[i].text;
        start..end
    }
}

/// Where one record of a batch is.
#[derive(Debug, Clone, Copy)]
struct Slot {
    text: (usize, usize),
    /// Where its raw bytes are in `Batch::raw`, when they differ from its text.
    raw: Option<(usize, usize)>,
    line: u64,
    offset: u64,
    cut: bool,
    crlf: bool,
}

/// Records, copied, with what [`Prepare`] found for each.
#[derive(Debug, Default)]
pub struct Batch<O> {
    text: String,
    raw: Vec<u8>,
    slots: Vec<Slot>,
    outputs: Vec<O>,
    /// Input bytes the preparing side frames into records ([`Ahead::push_chunk`]).
    chunk: Vec<u8>,
    /// The input ends with this batch: its framer's last line goes in it.
    last: bool,
    /// What the framing had altered once this batch was framed.
    alterations: Alterations,
}

#[inline]
fn record_of<'a>(text: &'a str, raw: &'a [u8], slot: &Slot) -> Record<'a> {
    let text = &text[slot.text.0..slot.text.1];
    Record {
        text,
        bytes: slot
            .raw
            .map_or(text.as_bytes(), |(start, end)| &raw[start..end]),
        line: slot.line,
        offset: slot.offset,
        cut: slot.cut,
        crlf: slot.crlf,
    }
}

impl<O: Default> Batch<O> {
    /// The number of records.
    #[inline]
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Record `i`, as it was pushed.
    #[inline]
    pub fn record(&self, i: usize) -> Record<'_> {
        record_of(&self.text, &self.raw, &self.slots[i])
    }

    /// What was found for record `i`.
    #[inline]
    pub fn output(&self, i: usize) -> &O {
        &self.outputs[i]
    }

    /// Record `i` and what was found for it, which the reducer may take apart.
    #[inline]
    pub fn entry(&mut self, i: usize) -> (Record<'_>, &mut O) {
        (
            record_of(&self.text, &self.raw, &self.slots[i]),
            &mut self.outputs[i],
        )
    }

    fn push(&mut self, record: &Record<'_>) {
        let start = self.text.len();
        self.text.push_str(record.text);
        let end = self.text.len();
        // Records end in a newline, as `Records::joined` promises.
        self.text.push('\n');
        // A text borrowed from its bytes is them: no need to compare the contents.
        let same = std::ptr::eq(record.bytes, record.text.as_bytes())
            || record.bytes == record.text.as_bytes();
        let raw = (!same).then(|| {
            let start = self.raw.len();
            self.raw.extend_from_slice(record.bytes);
            (start, self.raw.len())
        });
        self.slots.push(Slot {
            text: (start, end),
            raw,
            line: record.line,
            offset: record.offset,
            cut: record.cut,
            crlf: record.crlf,
        });
    }

    fn full(&self, bytes: usize) -> bool {
        self.slots.len() >= BATCH_LINES || self.text.len() >= bytes || self.chunk.len() >= bytes
    }

    fn clear(&mut self) {
        self.text.clear();
        self.raw.clear();
        self.slots.clear();
        self.chunk.clear();
        self.last = false;
    }

    /// Frames the batch's input bytes into its records (when it has any), then prepares
    /// the records.
    fn prepare<P: Prepare<Output = O>>(&mut self, preparer: &mut Preparer<P>) {
        if let Some(framer) = &mut preparer.framer {
            let chunk = std::mem::take(&mut self.chunk);
            framer.push(&chunk, |record| self.push(record));
            if self.last {
                framer.finish(|record| self.push(record));
            }
            self.chunk = chunk;
            self.alterations = framer.alterations();
        }
        let prepare = &mut preparer.prepare;
        // Outputs of an earlier use are kept, with their buffers, but not beyond a
        // batch's usual size: a batch of many short lines must not pin them for good.
        self.outputs.truncate(self.slots.len().max(BATCH_LINES));
        if self.outputs.len() < self.slots.len() {
            self.outputs.resize_with(self.slots.len(), O::default);
        }
        let records = Records {
            text: &self.text,
            raw: &self.raw,
            slots: &self.slots,
        };
        prepare.prepare_batch(records, &mut self.outputs[..self.slots.len()]);
    }
}

/// Frames `input` into one batch and prepares it with `prepare`'s
/// [`Prepare::prepare_batch`] (for [`crate::testkit`]).
pub(crate) fn prepare_as_one_batch<P: Prepare>(prepare: P, input: &[u8]) -> Batch<P::Output> {
    let mut batch = Batch::default();
    let mut framer = RecordFramer::new_with_max_length(crate::DEFAULT_MAX_LINE_BYTES);
    framer.push(input, |record| batch.push(record));
    framer.finish(|record| batch.push(record));
    let mut preparer = Preparer {
        prepare,
        framer: None,
    };
    batch.prepare(&mut preparer);
    batch
}

/// What prepares batches, on whichever thread: the [`Prepare`], and the framer of raw
/// input when records come as bytes ([`Ahead::push_chunk`]).
#[derive(Debug)]
struct Preparer<P> {
    prepare: P,
    framer: Option<RecordFramer>,
}

/// A worker thread and the two ways to it.
#[derive(Debug)]
struct Worker<O> {
    to: Option<SyncSender<Batch<O>>>,
    from: Receiver<Batch<O>>,
    thread: Option<JoinHandle<()>>,
}

/// Runs a [`Prepare`] on a second thread, one batch ahead of the caller: records go in
/// with [`Ahead::push`], come back in batches in the order they went in, each record
/// with its output, and the last ones with [`Ahead::finish`].
///
/// Until the first batch is full, when no thread can be started, and with
/// `BRIEFLY_THREADS=1` in the environment, the work is done on the caller's thread as each
/// batch fills: the same result.
///
/// [`Ahead::parallel`] prepares on two workers, which take the batches in turn: when
/// preparing costs more than folding, one worker leaves the caller waiting on it.
#[derive(Debug)]
pub struct Ahead<P: Prepare> {
    filling: Batch<P::Output>,
    /// The workers, once started; batch `k` goes to worker `k % workers.len()`.
    workers: Vec<Worker<P::Output>>,
    /// The preparer, while it runs on this thread.
    here: Option<Preparer<P>>,
    /// Copies of the preparer for the workers after the first ([`Ahead::parallel`]).
    copies: Vec<Preparer<P>>,
    /// No thread could be started: everything is prepared here.
    no_thread: bool,
    /// Batches prepared here and not yet handed back.
    ready: VecDeque<Batch<P::Output>>,
    /// Batches sent to the workers and received back, so far.
    sent: usize,
    received: usize,
    spare: Vec<Batch<P::Output>>,
    /// Records come as raw input, framed on the preparing side ([`Ahead::framing`]).
    frames: bool,
    /// What framing had altered as of the last batch prepared ([`Ahead::push_chunk`]).
    alterations: Alterations,
    /// Bytes of text, or of raw input, in a batch before it is sent.
    batch_bytes: usize,
}

/// `BRIEFLY_THREADS=1`: no second thread; everything is prepared on the caller's (for
/// a machine with one core, and to compare).
fn one_thread() -> bool {
    static ONE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ONE.get_or_init(|| std::env::var_os("BRIEFLY_THREADS").is_some_and(|v| v == "1"))
}

/// Batches at each worker before the caller waits for the oldest: one being prepared
/// while the caller fills the next.
const DEPTH: usize = 1;

/// Workers of [`Ahead::parallel`].
const PARALLEL_WORKERS: usize = 2;

impl<P: Prepare> Ahead<P> {
    /// An `Ahead` for `prepare`. Its thread starts with the first full batch: a short
    /// input is prepared here, without one.
    pub fn new(prepare: P) -> Self {
        Ahead {
            filling: Batch::default(),
            workers: Vec::new(),
            here: Some(Preparer {
                prepare,
                framer: None,
            }),
            copies: Vec::new(),
            no_thread: one_thread(),
            ready: VecDeque::new(),
            sent: 0,
            received: 0,
            spare: Vec::new(),
            frames: false,
            alterations: Alterations::default(),
            batch_bytes: BATCH_BYTES,
        }
    }

    /// Sends a batch once it holds `bytes` of text (of raw input, with
    /// [`Ahead::framing`]) instead of [`BATCH_BYTES`]; a longer line still goes alone.
    /// Which size is fastest depends on the reducer: larger batches mean fewer hand-overs
    /// between threads, smaller ones stay in the cache (`benches/ab.sh` compares builds).
    /// Memory grows with it: about four batches hold records at once.
    pub fn with_batch_bytes(mut self, bytes: usize) -> Self {
        debug_assert!(
            self.workers.is_empty() && self.filling.is_empty(),
            "after input"
        );
        self.batch_bytes = bytes.max(1);
        self
    }

    /// An `Ahead` that prepares on two worker threads, each taking every other batch,
    /// for a reducer whose preparing costs more than its folding. Records are pushed
    /// framed ([`Ahead::push`]); the result is the same as with one worker.
    pub fn parallel(prepare: P) -> Self
    where
        P: Clone,
    {
        let mut ahead = Ahead::new(prepare.clone());
        ahead.copies = (1..PARALLEL_WORKERS)
            .map(|_| Preparer {
                prepare: prepare.clone(),
                framer: None,
            })
            .collect();
        ahead
    }

    /// An `Ahead` whose records come as raw input ([`Ahead::push_chunk`]) and are framed
    /// on the preparing thread as the budget stage frames them ([`RecordFramer`], lines
    /// of at most `max_line_bytes`): the caller's thread only hands bytes over, for a
    /// reducer with [`crate::Framing::Raw`].
    pub fn framing(prepare: P, max_line_bytes: usize) -> Self {
        let mut ahead = Ahead::new(prepare);
        ahead.frames = true;
        ahead.set_line_limit(max_line_bytes);
        ahead
    }

    /// Whether it takes raw input and frames it itself ([`Ahead::framing`]), rather than
    /// records framed by the caller.
    pub fn frames(&self) -> bool {
        self.frames
    }

    /// Sets the framing limit of an `Ahead` made by [`Ahead::framing`], before any input
    /// (for [`crate::Reducer::line_limit`]).
    pub fn set_line_limit(&mut self, max_line_bytes: usize) {
        debug_assert!(self.frames, "records are pushed framed");
        debug_assert!(
            self.workers.is_empty() && self.filling.chunk.is_empty(),
            "after input"
        );
        if let Some(preparer) = &mut self.here {
            preparer.framer = Some(RecordFramer::new_with_max_length(max_line_bytes));
        }
    }

    /// Starts the worker thread and hands `prepare` over to it; when no thread can be
    /// started, `prepare` comes back.
    fn start(prepare: Preparer<P>) -> Result<Worker<P::Output>, Preparer<P>> {
        let (to, inbox) = mpsc::sync_channel::<Batch<P::Output>>(DEPTH + 1);
        let (outbox, from) = mpsc::channel();
        // The preparer goes over only once the thread runs, so that it is still here
        // when none can be started.
        let (handover, arrival) = mpsc::channel::<Preparer<P>>();
        let spawned = std::thread::Builder::new()
            .name("briefly-ahead".into())
            .spawn(move || {
                let Ok(mut prepare) = arrival.recv() else {
                    return;
                };
                for mut batch in inbox {
                    batch.prepare(&mut prepare);
                    if outbox.send(batch).is_err() {
                        return;
                    }
                }
            });
        let Ok(thread) = spawned else {
            return Err(prepare);
        };
        handover.send(prepare).map_err(|mpsc::SendError(p)| p)?;
        Ok(Worker {
            to: Some(to),
            from,
            thread: Some(thread),
        })
    }

    /// Adds a record. Returns the oldest batch once its outputs are ready; the caller
    /// handles its records in order, then may give it back with [`Ahead::recycle`].
    pub fn push(&mut self, record: &Record<'_>) -> Option<Batch<P::Output>> {
        self.filling.push(record);
        if !self.filling.full(self.batch_bytes) {
            return None;
        }
        self.dispatch(true);
        if self.in_flight() > self.depth() {
            return Some(self.receive());
        }
        self.ready.pop_front()
    }

    /// Takes raw input from the front of `bytes`, to be framed into records on the
    /// preparing side (an `Ahead` made by [`Ahead::framing`]), until a batch comes back:
    /// the oldest, once two are at the worker and it is done. The caller handles it and
    /// calls again, until `None` says all of `bytes` is taken. Handing batches back
    /// while the input is still being taken keeps both threads busy.
    pub fn push_chunk(&mut self, bytes: &mut &[u8]) -> Option<Batch<P::Output>> {
        debug_assert!(self.filling.slots.is_empty(), "records and raw input mixed");
        loop {
            if let Some(batch) = self.ready.pop_front() {
                return Some(batch);
            }
            if bytes.is_empty() {
                return None;
            }
            let room = self.batch_bytes.saturating_sub(self.filling.chunk.len());
            let (piece, rest) = bytes.split_at(room.min(bytes.len()));
            self.filling.chunk.extend_from_slice(piece);
            *bytes = rest;
            if self.filling.full(self.batch_bytes) {
                self.dispatch(true);
                if self.in_flight() > self.depth() {
                    return Some(self.receive());
                }
            }
        }
    }

    /// What framing altered in the raw input ([`Ahead::push_chunk`]) up to the last
    /// batch that came back from the preparing side; all of it once [`Ahead::finish`]
    /// has returned.
    pub fn alterations(&self) -> Alterations {
        self.alterations
    }

    /// End of input: the batches not handed back yet, oldest first.
    pub fn finish(&mut self) -> Vec<Batch<P::Output>> {
        if !self.filling.is_empty() || self.frames {
            // Raw input ends with a batch that takes the framer's last line.
            self.filling.last = true;
            self.dispatch(false);
        }
        let mut rest: Vec<_> = self.ready.drain(..).collect();
        while self.in_flight() > 0 {
            rest.push(self.receive());
        }
        rest
    }

    /// Batches at the workers.
    fn in_flight(&self) -> usize {
        self.sent - self.received
    }

    /// Batches at the workers before the caller waits for the oldest.
    fn depth(&self) -> usize {
        DEPTH * self.workers.len().max(1)
    }

    /// Gives a batch back, so that its buffers serve again.
    pub fn recycle(&mut self, mut batch: Batch<P::Output>) {
        batch.clear();
        if self.spare.len() <= self.depth() {
            self.spare.push(batch);
        }
    }

    /// Sends the batch being filled to be prepared, and starts another. The thread is
    /// started for the first full batch (`more` is false for the last one).
    fn dispatch(&mut self, more: bool) {
        let next = self.spare.pop().unwrap_or_default();
        let mut batch = std::mem::replace(&mut self.filling, next);
        if more && self.workers.is_empty() && !self.no_thread {
            self.start_workers();
        }
        if let Some(prepare) = &mut self.here {
            batch.prepare(prepare);
            self.alterations = batch.alterations;
            self.ready.push_back(batch);
            return;
        }
        let at = self.sent % self.workers.len();
        let sent = match &self.workers[at].to {
            Some(to) => to.send(batch).is_ok(),
            None => false,
        };
        if !sent {
            // The worker is gone: only a panic in `prepare` ends it early.
            self.rethrow(at);
        }
        self.sent += 1;
    }

    /// Starts the workers, handing the preparer (and its copies) over. When not even one
    /// thread can be started, everything is prepared here; a copy whose thread cannot be
    /// started is dropped, and the others do its share.
    fn start_workers(&mut self) {
        let Some(prepare) = self.here.take() else {
            return;
        };
        match Self::start(prepare) {
            Ok(worker) => self.workers.push(worker),
            Err(prepare) => {
                self.here = Some(prepare);
                self.no_thread = true;
                return;
            }
        }
        for copy in std::mem::take(&mut self.copies) {
            match Self::start(copy) {
                Ok(worker) => self.workers.push(worker),
                Err(_) => break,
            }
        }
    }

    /// The oldest batch at the workers, once it is done.
    fn receive(&mut self) -> Batch<P::Output> {
        let at = self.received % self.workers.len();
        match self.workers[at].from.recv() {
            Ok(batch) => {
                self.received += 1;
                self.alterations = batch.alterations;
                batch
            }
            Err(_) => self.rethrow(at),
        }
    }

    /// Raises on this thread the panic that ended worker `at`.
    fn rethrow(&mut self, at: usize) -> ! {
        let worker = &mut self.workers[at];
        worker.to = None;
        match worker.thread.take().map(JoinHandle::join) {
            Some(Err(panic)) => std::panic::resume_unwind(panic),
            _ => panic!("the preparing thread stopped"),
        }
    }
}

impl<P: Prepare> Drop for Ahead<P> {
    /// Ends the workers: each stops when no more batches can come.
    fn drop(&mut self) {
        for worker in &mut self.workers {
            worker.to = None;
        }
        for worker in &mut self.workers {
            if let Some(thread) = worker.thread.take() {
                let _ = thread.join();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Upper-cases each line and remembers its number, to see order and content.
    #[derive(Clone)]
    struct Upper;

    impl Prepare for Upper {
        type Output = (u64, String);
        fn prepare(&mut self, record: &Record<'_>, out: &mut (u64, String)) {
            out.0 = record.line;
            out.1.clear();
            out.1.push_str(&record.text.to_uppercase());
        }
    }

    /// As [`Upper`], over a whole batch at once: the joined text upper-cased in one go.
    struct UpperAtOnce;

    impl Prepare for UpperAtOnce {
        type Output = (u64, String);
        fn prepare(&mut self, _: &Record<'_>, _: &mut (u64, String)) {
            unreachable!("prepared by the batch");
        }
        fn prepare_batch(&mut self, records: Records<'_>, outs: &mut [(u64, String)]) {
            assert_eq!(records.len(), outs.len());
            let upper = records.joined().to_ascii_uppercase();
            for (i, out) in outs.iter_mut().enumerate() {
                let range = records.text_range(i);
                assert_eq!(&records.joined()[range.end..=range.end], "\n");
                out.0 = records.get(i).line;
                out.1.clear();
                out.1.push_str(&upper[range]);
            }
        }
    }

    fn run<P: Prepare<Output = (u64, String)>>(
        ahead: &mut Ahead<P>,
        n: u64,
        long_every: u64,
    ) -> Vec<(u64, String, Vec<u8>, bool, String)> {
        let mut seen = Vec::new();
        let mut take = |ahead: &mut Ahead<P>, batch: Batch<(u64, String)>| {
            for i in 0..batch.len() {
                let r = batch.record(i);
                let (line, upper) = batch.output(i).clone();
                assert_eq!(line, r.line, "an output belongs to its record");
                seen.push((r.line, r.text.to_string(), r.bytes.to_vec(), r.cut, upper));
            }
            ahead.recycle(batch);
        };
        for line in 1..=n {
            let text = if line.is_multiple_of(long_every) {
                "x".repeat(BATCH_BYTES + 1)
            } else {
                format!("line {line}")
            };
            // Every seventh line had invalid bytes, replaced in its text.
            let bytes = if line.is_multiple_of(7) {
                vec![0xff, b'a']
            } else {
                text.as_bytes().to_vec()
            };
            let r = Record {
                text: &text,
                bytes: &bytes,
                line,
                offset: line * 10,
                cut: line.is_multiple_of(3),
                crlf: false,
            };
            if let Some(batch) = ahead.push(&r) {
                take(ahead, batch);
            }
        }
        for batch in ahead.finish() {
            take(ahead, batch);
        }
        seen
    }

    fn check(seen: &[(u64, String, Vec<u8>, bool, String)], n: u64) {
        assert_eq!(seen.len() as u64, n);
        for (k, (line, text, bytes, cut, upper)) in seen.iter().enumerate() {
            assert_eq!(*line, k as u64 + 1, "in input order");
            assert_eq!(*upper, text.to_uppercase());
            assert_eq!(*cut, line.is_multiple_of(3));
            if line.is_multiple_of(7) {
                assert_eq!(bytes, &[0xff, b'a'], "raw bytes apart from the text");
            } else {
                assert_eq!(bytes, text.as_bytes());
            }
        }
    }

    #[test]
    fn every_record_comes_back_once_in_order_with_its_output() {
        let b = BATCH_LINES as u64;
        for n in [0, 1, b - 1, b, b + 1, 3 * b + 7] {
            let mut ahead = Ahead::new(Upper);
            // No line over the byte bound: batches end by their count.
            let seen = run(&mut ahead, n, n + 1);
            check(&seen, n);
            // A short input is prepared without a thread.
            assert_eq!(ahead.workers.len(), usize::from(n >= b), "{n}");
        }
    }

    #[test]
    fn two_workers_give_every_record_back_once_in_order() {
        let b = BATCH_LINES as u64;
        for (n, long_every) in [
            (0, 1),
            (b, b + 1),
            (b + 1, b + 2),
            (7 * b + 7, 7 * b + 8),
            (5 * b, 1000),
        ] {
            let mut ahead = Ahead::parallel(Upper);
            if ahead.no_thread {
                // `BRIEFLY_THREADS=1`: nothing to see here.
                return;
            }
            let seen = run(&mut ahead, n, long_every);
            check(&seen, n);
            assert_eq!(
                ahead.workers.len(),
                if n >= b { PARALLEL_WORKERS } else { 0 },
                "{n}"
            );
            assert_eq!(ahead.received, ahead.sent, "every batch came back");
        }
    }

    #[test]
    fn a_whole_batch_prepared_at_once_gives_what_each_record_alone_gives() {
        for n in [1, 3 * BATCH_LINES as u64 + 7] {
            let mut ahead = Ahead::new(UpperAtOnce);
            let seen = run(&mut ahead, n, 1000);
            check(&seen, n);
        }
    }

    #[test]
    fn a_batch_of_many_short_lines_does_not_pin_its_outputs() {
        let mut batch = Batch::<(u64, String)>::default();
        let mut preparer = Preparer {
            prepare: Upper,
            framer: Some(RecordFramer::new_with_max_length(100)),
        };
        // A piece of blank lines frames into far more records than a batch usually holds.
        batch.chunk = vec![b'\n'; 3 * BATCH_LINES];
        batch.prepare(&mut preparer);
        assert_eq!(batch.len(), 3 * BATCH_LINES);
        batch.clear();
        batch.chunk = b"one line\n".to_vec();
        batch.prepare(&mut preparer);
        assert_eq!(batch.len(), 1);
        assert_eq!(
            batch.outputs.len(),
            BATCH_LINES,
            "kept for reuse up to the usual size"
        );
    }

    /// The sizes of the batches `ahead` gives back for `n` lines of a third of
    /// [`BATCH_BYTES`] each.
    fn batch_sizes(mut ahead: Ahead<Upper>, n: u64) -> Vec<usize> {
        let mut sizes = Vec::new();
        for line in 1..=n {
            let text = "y".repeat(BATCH_BYTES / 3);
            let r = Record {
                text: &text,
                bytes: text.as_bytes(),
                line,
                offset: 0,
                cut: false,
                crlf: false,
            };
            if let Some(batch) = ahead.push(&r) {
                sizes.push(batch.len());
            }
        }
        sizes.extend(ahead.finish().iter().map(Batch::len));
        assert_eq!(sizes.iter().sum::<usize>(), n as usize);
        sizes
    }

    #[test]
    fn batches_end_at_a_byte_bound_too() {
        let sizes = batch_sizes(Ahead::new(Upper), 10);
        assert!(sizes.iter().all(|&s| s <= 4), "{sizes:?}");
    }

    #[test]
    fn the_byte_bound_is_the_reducers_to_set() {
        // Twelve lines fill four times the usual bytes.
        let larger = batch_sizes(Ahead::new(Upper).with_batch_bytes(4 * BATCH_BYTES), 30);
        assert_eq!(larger, [12, 12, 6]);
        let smaller = batch_sizes(Ahead::parallel(Upper).with_batch_bytes(BATCH_BYTES / 3), 5);
        assert_eq!(smaller, [1; 5], "each line fills a batch");
    }

    #[test]
    fn without_a_thread_the_work_is_done_here_with_the_same_result() {
        let mut ahead = Ahead::new(Upper);
        // As when no thread could be started.
        ahead.no_thread = true;
        let seen = run(&mut ahead, 2 * BATCH_LINES as u64 + 5, 700);
        check(&seen, 2 * BATCH_LINES as u64 + 5);
    }

    /// A record's line, text, bytes, offset, cut, crlf, and its output.
    type FramedRecord = (u64, String, Vec<u8>, u64, bool, bool, String);

    fn framed(r: &Record<'_>, output: String) -> FramedRecord {
        let text = r.text.to_string();
        (
            r.line,
            text,
            r.bytes.to_vec(),
            r.offset,
            r.cut,
            r.crlf,
            output,
        )
    }

    /// Every record's fields and output, and the alterations, from raw `input` pushed in
    /// pieces of `size` into an `Ahead` that frames it.
    fn framed_ahead(
        input: &[u8],
        size: usize,
        threads: bool,
        batch_bytes: usize,
    ) -> (Vec<FramedRecord>, Alterations) {
        let mut ahead = Ahead::framing(Upper, 100).with_batch_bytes(batch_bytes);
        ahead.no_thread = !threads;
        let mut seen = Vec::new();
        let mut take = |ahead: &mut Ahead<Upper>, batch: Batch<(u64, String)>| {
            for i in 0..batch.len() {
                let r = batch.record(i);
                let (line, upper) = batch.output(i).clone();
                assert_eq!(line, r.line);
                seen.push(framed(&r, upper));
            }
            ahead.recycle(batch);
        };
        for mut piece in input.chunks(size.max(1)) {
            while let Some(batch) = ahead.push_chunk(&mut piece) {
                take(&mut ahead, batch);
            }
        }
        for batch in ahead.finish() {
            take(&mut ahead, batch);
        }
        (seen, ahead.alterations())
    }

    #[test]
    fn raw_input_is_framed_as_the_budget_stage_frames_it() {
        let mut input = Vec::new();
        for n in 0..30_000u32 {
            match n % 7 {
                0 => input.extend_from_slice(b"bad \xff\xfe bytes"),
                1 => input.extend_from_slice(b"nul\0here"),
                2 => input.extend_from_slice(&b"long ".repeat(30)),
                3 => input.extend_from_slice("crlf é\r".as_bytes()),
                _ => input.extend_from_slice(format!("line {n}").as_bytes()),
            }
            input.push(b'\n');
        }
        input.extend_from_slice(b"no newline at the end");
        // What the stage's framer gives.
        let mut framer = RecordFramer::new_with_max_length(100);
        let mut want = Vec::new();
        let mut keep = |r: &Record<'_>| want.push(framed(r, r.text.to_uppercase()));
        framer.push(&input, &mut keep);
        framer.finish(&mut keep);
        let alterations = framer.alterations();
        assert!(alterations.cut_lines > 0 && alterations.replaced_lines > 0);
        assert!(alterations.nul_lines > 0);
        for (size, threads, batch_bytes) in [
            (input.len(), true, BATCH_BYTES),
            (1000, true, BATCH_BYTES),
            (7, false, BATCH_BYTES),
            (65_537, false, BATCH_BYTES),
            // Batches of less than a line, and of all the input.
            (1000, true, 50),
            (65_537, true, 1 << 20),
        ] {
            let (seen, altered) = framed_ahead(&input, size, threads, batch_bytes);
            let case = format!("pieces of {size}, batches of {batch_bytes}");
            assert_eq!(altered, alterations, "{case}");
            assert_eq!(seen.len(), want.len(), "{case}");
            assert!(seen == want, "{case}");
        }
        // No input, no records; one line without a newline is one record.
        assert_eq!(framed_ahead(b"", 10, true, BATCH_BYTES).0.len(), 0);
        assert_eq!(framed_ahead(b"x", 10, true, BATCH_BYTES).0.len(), 1);
    }

    /// Panics on the line it is told.
    #[derive(Clone)]
    struct Fails(u64);

    impl Prepare for Fails {
        type Output = ();
        fn prepare(&mut self, record: &Record<'_>, _: &mut ()) {
            assert_ne!(record.line, self.0, "told to fail");
        }
    }

    #[test]
    fn a_panic_on_the_worker_is_raised_on_the_caller() {
        // The first batch goes to the first worker, the second to the second.
        for (fail_at, parallel) in [(3, false), (3, true), (BATCH_LINES as u64 + 3, true)] {
            a_panic_is_raised_on_the_caller(fail_at, parallel);
        }
    }

    fn a_panic_is_raised_on_the_caller(fail_at: u64, parallel: bool) {
        let result = std::panic::catch_unwind(|| {
            let mut ahead = if parallel {
                Ahead::parallel(Fails(fail_at))
            } else {
                Ahead::new(Fails(fail_at))
            };
            for line in 1..=4 * BATCH_LINES as u64 {
                let r = Record {
                    text: "a",
                    bytes: b"a",
                    line,
                    offset: 0,
                    cut: false,
                    crlf: false,
                };
                let _ = ahead.push(&r);
            }
            assert!(!ahead.workers.is_empty(), "prepared on the workers");
            ahead.finish().len()
        });
        let panic = result.expect_err("the worker's panic reaches the caller");
        let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
        assert!(message.contains("told to fail"), "{message}");
    }
}
