//! The spill preview: the head, the tail and the lines that look like errors, then
//! every other line in order for the pages.

use crate::LineItem;
use briefly_core::{
    Ahead, Batch, Emit, FoldBatches, Outcome, Prepare, Preview, Rank, Record, Records,
    DEFAULT_MAX_LINE_BYTES,
};
use briefly_severity::{classify, Inspection, Severity};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

const HEAD: Rank = 0;
/// The last line (a command's final status, often) goes right after the head: it is
/// kept however small the budget, where the rest of the tail gives way first.
const LAST: Rank = 1;
const ERROR: Rank = 2;
const TAIL: Rank = 3;
const REST: Rank = 4;

/// Bytes of input in a batch framed and classified on the other thread: four times the
/// usual. Fewer hand-overs made `spill` 1.28x as fast on a 256 MB log (benches/ab.sh,
/// five runs in turn), at about 2.5 MB more peak RSS (by hand).
const BATCH_BYTES: usize = 4 * briefly_core::BATCH_BYTES;

/// Characters of a line the preview shows (head, errors, tail), the rest cut with the
/// marker: one long line near the head would else take the page and leave the errors
/// and the last line out of it. The rest of the lines, paged, are whole.
pub const MAX_PREVIEW_CHARS: usize = briefly_core::MAX_LINE_ITEM_CHARS;

/// Whether `text` looks like an error or warning line, by the severity engine every
/// reducer shares: a stated level of warn or worse, an exception's name, or a signal
/// (traceback, panic, OOM kill, segfault, non-zero exit).
pub fn looks_like_error(text: &str) -> bool {
    is_error_like(classify(text))
}

fn is_error_like(severity: Option<Severity>) -> bool {
    severity.is_some_and(|severity| severity >= Severity::Warn)
}

/// How many lines of each kind the preview leads with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SpillOptions {
    /// Lines from the start.
    pub head: u64,
    /// Lines from the end.
    pub tail: usize,
    /// Error-looking lines from the middle.
    pub errors: u64,
}

/// The most lines of a kind [`SpillOptions`] may ask for: more than any budget shows.
const MAX_SPILL_LINES: u64 = 10_000;

impl SpillOptions {
    /// Options a preview can be made with: none asks for more than 10,000 lines
    /// (a cursor carries them, and anyone can edit one).
    pub fn validate(&self) -> Result<(), String> {
        for (name, lines) in [
            ("head", self.head),
            ("tail", self.tail as u64),
            ("errors", self.errors),
        ] {
            if lines > MAX_SPILL_LINES {
                return Err(format!(
                    "spill's {name} of {lines} lines is above the maximum of {MAX_SPILL_LINES}"
                ));
            }
        }
        Ok(())
    }
}

impl Default for SpillOptions {
    fn default() -> Self {
        SpillOptions {
            head: 5,
            tail: 5,
            errors: 20,
        }
    }
}

/// Whether each line looks like an error ([`looks_like_error`]), for a batch of lines in
/// one call. (Public only as [`Spill`]'s [`FoldBatches::Prepare`]: not exported.)
#[derive(Debug, Default)]
pub struct ErrorLike {
    inspections: Vec<Inspection>,
}

impl Prepare for ErrorLike {
    type Output = bool;

    fn prepare(&mut self, record: &Record<'_>, out: &mut bool) {
        *out = looks_like_error(record.text);
    }

    fn prepare_batch(&mut self, records: Records<'_>, outs: &mut [bool]) {
        let lines = (0..records.len()).map(|i| records.text_range(i));
        briefly_severity::inspect_lines(records.joined(), lines, &mut self.inspections);
        for (out, found) in outs.iter_mut().zip(&self.inspections) {
            *out = is_error_like(found.severity);
        }
    }
}

/// Items: every line once. First the head and the last line, then error-looking lines
/// (up to a quota), then the rest of the tail, then every other line in input order, so
/// the pages walk the rest.
#[derive(Debug)]
pub struct Spill {
    options: SpillOptions,
    /// The input framed into lines, each classified, one batch ahead on another thread.
    ahead: Ahead<ErrorLike>,
    /// The last lines seen, not yet emitted: (item, looks like an error).
    tail: VecDeque<(LineItem, bool)>,
    errors_shown: u64,
    error_lines: u64,
    first_error: Option<u64>,
    lines: u64,
    /// A line of the preview was cut to [`MAX_PREVIEW_CHARS`].
    shown_cut: bool,
}

/// What `Spill` counts.
#[derive(Debug, Clone, Serialize)]
pub struct SpillStats {
    /// Lines in the input.
    pub lines: u64,
    /// Lines that look like errors or warnings.
    pub error_like_lines: u64,
    /// The first of them.
    pub first_error_line: Option<u64>,
}

impl Spill {
    /// A spill preview with these options.
    pub fn new(options: SpillOptions) -> Self {
        Spill {
            options,
            ahead: Ahead::framing(ErrorLike::default(), DEFAULT_MAX_LINE_BYTES)
                .with_batch_bytes(BATCH_BYTES),
            tail: VecDeque::with_capacity(options.tail + 1),
            errors_shown: 0,
            error_lines: 0,
            first_error: None,
            lines: 0,
            shown_cut: false,
        }
    }

    /// `item` as the preview shows it: at most [`MAX_PREVIEW_CHARS`] of its line.
    fn previewed(&mut self, mut item: LineItem) -> LineItem {
        if let std::borrow::Cow::Owned(cut) = briefly_core::cut_str(&item.text, MAX_PREVIEW_CHARS) {
            item.text = cut;
            self.shown_cut = true;
        }
        item
    }

    fn release(&mut self, (item, is_error): (LineItem, bool), out: &mut dyn Emit<LineItem>) {
        if is_error && self.errors_shown < self.options.errors {
            self.errors_shown += 1;
            let item = self.previewed(item);
            out.emit(ERROR, item);
        } else {
            out.emit(REST, item);
        }
    }

    fn line(&mut self, record: &Record<'_>, is_error: bool, out: &mut dyn Emit<LineItem>) {
        self.lines += 1;
        if is_error {
            self.error_lines += 1;
            self.first_error.get_or_insert(record.line);
        }
        if record.line <= self.options.head {
            let item = self.previewed(LineItem::of(record));
            out.emit(HEAD, item);
            return;
        }
        if self.options.tail == 0 {
            self.release((LineItem::of(record), is_error), out);
            return;
        }
        let mut spare = None;
        if self.tail.len() == self.options.tail {
            let oldest = self.tail.pop_front().expect("the tail is full");
            // A line leaving the tail that would rank REST and is not wanted is only counted.
            let shown_as_error = oldest.1 && self.errors_shown < self.options.errors;
            if shown_as_error || out.wants(REST) {
                self.release(oldest, out);
            } else {
                out.skip(REST);
                spare = Some(oldest.0);
            }
        }
        // The buffer of a line only counted serves the next: no allocation per line.
        let item = match spare {
            Some(mut item) => {
                item.line = record.line;
                item.text.clear();
                item.text.push_str(record.text);
                item.cut = record.cut;
                item
            }
            None => LineItem::of(record),
        };
        self.tail.push_back((item, is_error));
    }
}

impl FoldBatches for Spill {
    type Prepare = ErrorLike;
    type Item = LineItem;
    type Stats = SpillStats;

    fn ahead(&self) -> &Ahead<ErrorLike> {
        &self.ahead
    }

    fn ahead_mut(&mut self) -> &mut Ahead<ErrorLike> {
        &mut self.ahead
    }

    /// A batch of lines, each with whether it looks like an error.
    fn fold(&mut self, batch: &mut Batch<bool>, out: &mut dyn Emit<LineItem>) {
        for i in 0..batch.len() {
            self.line(&batch.record(i), *batch.output(i), out);
        }
    }

    fn outcome(&mut self, out: &mut dyn Emit<LineItem>) -> Outcome<SpillStats> {
        let last = self.tail.pop_back();
        for (item, _) in std::mem::take(&mut self.tail) {
            let item = self.previewed(item);
            out.emit(TAIL, item);
        }
        if let Some((item, _)) = last {
            let item = self.previewed(item);
            out.emit(LAST, item);
        }
        let lines = briefly_core::plural(self.lines, "line");
        let summary = match self.first_error {
            Some(first) if self.error_lines == 1 => {
                format!("{lines}; 1 looks like an error or warning (at line {first})")
            }
            Some(first) => format!(
                "{lines}; {} look like errors or warnings (first at line {first})",
                self.error_lines
            ),
            None => format!("{lines}; none look like errors"),
        };
        let stats = SpillStats {
            lines: self.lines,
            error_like_lines: self.error_lines,
            first_error_line: self.first_error,
        };
        // A line cut or altered in framing is not the whole answer: the artifact is kept.
        let framed = self.ahead.alterations();
        Outcome {
            preview: Preview::HeadTail,
            complete: !framed.lossy() && !self.shown_cut,
            warnings: framed.warnings(),
            ..Outcome::new(summary, stats)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use briefly_core::testkit::reduce_all_chunkings;
    use briefly_core::RunConfig;

    fn lines(n: u64, error_at: &[u64]) -> String {
        (1..=n)
            .map(|i| {
                if error_at.contains(&i) {
                    format!("line {i} ERROR boom\n")
                } else {
                    format!("line {i} ok\n")
                }
            })
            .collect()
    }

    fn line_numbers(items: &[serde_json::Value]) -> Vec<u64> {
        items.iter().map(|i| i["line"].as_u64().unwrap()).collect()
    }

    #[test]
    fn head_errors_tail_then_the_rest_in_order() {
        let input = lines(100, &[50, 70]);
        let envelope = reduce_all_chunkings(
            || Spill::new(SpillOptions::default()),
            input.as_bytes(),
            &RunConfig::new("spill"),
        );
        let shown = line_numbers(&envelope.items);
        assert_eq!(&shown[..10], &[1, 2, 3, 4, 5, 100, 50, 70, 96, 97]);
        assert_eq!(&shown[12..15], &[6, 7, 8]);
        assert_eq!(envelope.total_items, 100);
        assert_eq!(
            envelope.summary,
            "100 lines; 2 look like errors or warnings (first at line 50)"
        );
        // Every line exactly once.
        let mut sorted = shown.clone();
        sorted.sort();
        assert_eq!(sorted, (1..=100).collect::<Vec<_>>());
        assert!(!envelope.truncated, "everything fits the default budget");
        // One error, and one line: counted in the singular.
        for (input, summary) in [
            (
                lines(100, &[50]),
                "100 lines; 1 looks like an error or warning (at line 50)",
            ),
            (lines(1, &[]), "1 line; none look like errors"),
        ] {
            let envelope = reduce_all_chunkings(
                || Spill::new(SpillOptions::default()),
                input.as_bytes(),
                &RunConfig::new("spill"),
            );
            assert_eq!(envelope.summary, summary);
        }
    }

    #[test]
    fn error_looking_lines_by_the_shared_engine() {
        assert!(looks_like_error("2024 [ERROR] x"));
        assert!(looks_like_error("thread 'main' panicked at src/main.rs"));
        assert!(looks_like_error(
            "Out of memory: Killed process 1234 (java)"
        ));
        assert!(looks_like_error("level=warn msg=slow"));
        assert!(looks_like_error("KeyError: 'user'"));
        assert!(looks_like_error("java.lang.NullPointerException"));
        assert!(looks_like_error("Segmentation fault (core dumped)"));
        assert!(!looks_like_error("reading stderr of terrific errands"));
        assert!(!looks_like_error(
            "found 0 errors in the error handling code"
        ));
        assert!(!looks_like_error("INFO all good"));
    }

    #[test]
    fn quota_limits_the_errors_up_front() {
        let errors: Vec<u64> = (10..90).collect();
        let input = lines(100, &errors);
        let options = SpillOptions {
            head: 2,
            tail: 2,
            errors: 3,
        };
        let envelope = reduce_all_chunkings(
            || Spill::new(options),
            input.as_bytes(),
            &RunConfig::new("spill"),
        );
        let shown = line_numbers(&envelope.items);
        // The head and the last line, the errors, then the rest of the tail.
        assert_eq!(&shown[..7], &[1, 2, 100, 10, 11, 12, 99]);
        assert_eq!(envelope.stats["error_like_lines"], 80);
    }

    /// The spill of `input` at a per-result budget of `max_chars`, in every chunking.
    fn spilled_at(input: &str, max_chars: usize) -> briefly_core::Envelope {
        let config = RunConfig {
            budget: briefly_core::Budget::default()
                .with_max_chars(max_chars)
                .unwrap(),
            ..RunConfig::new("spill")
        };
        reduce_all_chunkings(
            || Spill::new(SpillOptions::default()),
            input.as_bytes(),
            &config,
        )
    }

    #[test]
    fn a_long_line_near_the_head_leaves_room_for_the_errors_and_the_last_line() {
        let mut input = format!(
            "npm install started\n{}\nnpm ERR! code ERESOLVE\n",
            "x".repeat(30_000)
        );
        input.extend((1..=500).map(|i| format!("progress {i}\n")));
        input.push_str("npm ERR! A complete log of this run is in debug.log\n");
        let envelope = spilled_at(&input, 4_000);
        let shown = line_numbers(&envelope.items);
        assert!(shown.contains(&3) && shown.contains(&504), "{shown:?}");
        let long = envelope.items[1]["text"].as_str().unwrap();
        assert!(long.ends_with("…[cut 29000 chars]"), "{long:.40}");
        assert!(envelope.truncated);
    }

    #[test]
    fn the_last_line_is_kept_where_the_rest_of_the_tail_gives_way() {
        let mut input: String = (1..=3000)
            .map(|i| format!("compiling module {i} ok\n"))
            .collect();
        input.push_str("FINAL RESULT: 3 tests broken\n");
        let envelope = spilled_at(&input, 1_000);
        let shown = line_numbers(&envelope.items);
        assert!(shown.contains(&3001), "{shown:?}");
        assert!(
            !shown.contains(&3000),
            "the tail before it gave way: {shown:?}"
        );
    }
}
