//! The spill preview: the head, the tail and the lines that look like errors (errors,
//! then warnings), then every other line in order for the pages.

use crate::LineItem;
use briefly_core::{
    Ahead, Batch, Emit, FoldBatches, Outcome, Prepare, Preview, Rank, Record, Records,
    DEFAULT_MAX_LINE_BYTES,
};
use briefly_severity::{classify, Inspection, Severity};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// The first line (the command, often).
const FIRST: Rank = 0;
/// The last line (a command's final status, often) goes right after the first: it is
/// kept however small the budget, where the rest of the tail gives way first.
const LAST: Rank = 1;
/// The first line that looks like an error, before the rest of the head: under a
/// small budget (`--max-chars 1000`), the head's lines would take its place.
const FIRST_ERROR: Rank = 2;
const HEAD: Rank = 3;
const ERROR: Rank = 4;
/// Warnings after the errors, however many came first: a thousand deprecation warnings
/// do not take the error's place.
const WARNING: Rank = 5;
const TAIL: Rank = 6;
const REST: Rank = 7;

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
    Looks::of(classify(text)) != Looks::Fine
}

/// How a line looks: like an error (or worse), like a warning, or like neither. (Public
/// only as [`ErrorLike`]'s output: not exported.)
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Looks {
    /// Neither.
    #[default]
    Fine,
    /// A warning.
    Warning,
    /// An error or worse.
    Error,
}

impl Looks {
    fn of(severity: Option<Severity>) -> Looks {
        match severity {
            Some(severity) if severity >= Severity::Error => Looks::Error,
            Some(Severity::Warn) => Looks::Warning,
            _ => Looks::Fine,
        }
    }
}

/// How many lines of each kind the preview leads with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SpillOptions {
    /// Lines from the start.
    pub head: u64,
    /// Lines from the end.
    pub tail: usize,
    /// Error-looking lines from the middle: as many errors, then as many warnings.
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

/// How each line looks ([`Looks`], by [`looks_like_error`]'s engine), for a batch of
/// lines in one call. (Public only as [`Spill`]'s [`FoldBatches::Prepare`]: not
/// exported.)
#[derive(Debug, Default)]
pub struct ErrorLike {
    inspections: Vec<Inspection>,
}

impl Prepare for ErrorLike {
    type Output = Looks;

    fn prepare(&mut self, record: &Record<'_>, out: &mut Looks) {
        *out = Looks::of(classify(record.text));
    }

    fn prepare_batch(&mut self, records: Records<'_>, outs: &mut [Looks]) {
        let lines = (0..records.len()).map(|i| records.text_range(i));
        briefly_severity::inspect_lines(records.joined(), lines, &mut self.inspections);
        for (out, found) in outs.iter_mut().zip(&self.inspections) {
            *out = Looks::of(found.severity);
        }
    }
}

/// Items: every line once. First the first line, the last and the first error, then the
/// rest of the head, then error-looking lines (errors up to a quota, then warnings up to
/// as many), then the rest of the tail, then every other line in input order, so the
/// pages walk the rest.
#[derive(Debug)]
pub struct Spill {
    options: SpillOptions,
    /// The input framed into lines, each classified, one batch ahead on another thread.
    ahead: Ahead<ErrorLike>,
    /// The last lines seen, not yet emitted, with how each looks.
    tail: VecDeque<(LineItem, Looks)>,
    errors_shown: u64,
    warnings_shown: u64,
    /// Lines that look like errors or warnings, the first of them, and of them the
    /// errors and the first error.
    error_like_lines: u64,
    first_error_like: Option<u64>,
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
    /// Of them, the lines that look like errors (or worse).
    pub error_lines: u64,
    /// The first of those.
    pub first_error_at: Option<u64>,
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
            warnings_shown: 0,
            error_like_lines: 0,
            first_error_like: None,
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

    /// The rank a line that looks so is previewed at, when the quota has room for it.
    fn preview_rank(&self, looks: Looks) -> Option<Rank> {
        match looks {
            Looks::Error => (self.errors_shown < self.options.errors).then_some(ERROR),
            Looks::Warning => (self.warnings_shown < self.options.errors).then_some(WARNING),
            Looks::Fine => None,
        }
    }

    /// [`Spill::preview_rank`], the line then counted against its quota; the first error
    /// ranks [`FIRST_ERROR`].
    fn take_preview_rank(&mut self, looks: Looks, line: u64) -> Option<Rank> {
        let rank = self.preview_rank(looks)?;
        match looks {
            Looks::Error => self.errors_shown += 1,
            _ => self.warnings_shown += 1,
        }
        Some(self.first_error_or(line, rank))
    }

    /// `rank`, or [`FIRST_ERROR`] for the first line that looks like an error (the first
    /// line keeps [`FIRST`], the last [`LAST`]).
    fn first_error_or(&self, line: u64, rank: Rank) -> Rank {
        match self.first_error == Some(line) {
            true => FIRST_ERROR,
            false => rank,
        }
    }

    fn release(&mut self, (item, looks): (LineItem, Looks), out: &mut dyn Emit<LineItem>) {
        match self.take_preview_rank(looks, item.line) {
            Some(rank) => {
                let item = self.previewed(item);
                out.emit(rank, item);
            }
            None => out.emit(REST, item),
        }
    }

    fn line(&mut self, record: &Record<'_>, looks: Looks, out: &mut dyn Emit<LineItem>) {
        self.lines += 1;
        if looks != Looks::Fine {
            self.error_like_lines += 1;
            self.first_error_like.get_or_insert(record.line);
        }
        if looks == Looks::Error {
            self.error_lines += 1;
            self.first_error.get_or_insert(record.line);
        }
        if record.line <= self.options.head {
            let item = self.previewed(LineItem::of(record));
            let rank = match record.line {
                1 => FIRST,
                line => self.first_error_or(line, HEAD),
            };
            out.emit(rank, item);
            return;
        }
        if self.options.tail == 0 {
            self.release((LineItem::of(record), looks), out);
            return;
        }
        let mut spare = None;
        if self.tail.len() == self.options.tail {
            let oldest = self.tail.pop_front().expect("the tail is full");
            // A line leaving the tail that would rank REST and is not wanted is only counted.
            if self.preview_rank(oldest.1).is_some() || out.wants(REST) {
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
        self.tail.push_back((item, looks));
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

    /// A batch of lines, each with how it looks.
    fn fold(&mut self, batch: &mut Batch<Looks>, out: &mut dyn Emit<LineItem>) {
        for i in 0..batch.len() {
            self.line(&batch.record(i), *batch.output(i), out);
        }
    }

    fn outcome(&mut self, out: &mut dyn Emit<LineItem>) -> Outcome<SpillStats> {
        let last = self.tail.pop_back();
        for (item, looks) in std::mem::take(&mut self.tail) {
            let item = self.previewed(item);
            // An error among the last lines ranks with the errors, before the warnings
            // (npm's `npm ERR!` lines after its warnings); it keeps its place otherwise.
            let rank = match looks {
                Looks::Error => self.take_preview_rank(looks, item.line),
                _ => None,
            };
            out.emit(rank.unwrap_or(TAIL), item);
        }
        if let Some((item, _)) = last {
            let item = self.previewed(item);
            out.emit(LAST, item);
        }
        let lines = briefly_core::plural(self.lines, "line");
        let mut summary = match self.first_error_like {
            Some(first) if self.error_like_lines == 1 => {
                format!("{lines}; 1 looks like an error or warning (at line {first})")
            }
            Some(first) => format!(
                "{lines}; {} look like errors or warnings (first at line {first})",
                self.error_like_lines
            ),
            None => format!("{lines}; none look like errors"),
        };
        // Where the first error is, when warnings came before it.
        match self
            .first_error
            .filter(|&at| Some(at) != self.first_error_like)
        {
            Some(first) if self.error_lines == 1 => {
                summary.push_str(&format!("; 1 error, at line {first}"));
            }
            Some(first) => summary.push_str(&format!(
                "; {} errors, the first at line {first}",
                self.error_lines
            )),
            None => {}
        }
        let stats = SpillStats {
            lines: self.lines,
            error_like_lines: self.error_like_lines,
            first_error_line: self.first_error_like,
            error_lines: self.error_lines,
            first_error_at: self.first_error,
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
        let envelope = spilled(&input, SpillOptions::default());
        let shown = line_numbers(&envelope.items);
        // The first line, the last, the first error, the rest of the head, the other errors.
        assert_eq!(&shown[..10], &[1, 100, 50, 2, 3, 4, 5, 70, 96, 97]);
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
            let envelope = spilled(&input, SpillOptions::default());
            assert_eq!(envelope.summary, summary);
        }
    }

    #[test]
    fn errors_come_before_warnings_however_many_came_first() {
        // A thousand deprecation warnings, then the error (two, for the plural).
        let input = |errors: &[u64]| -> String {
            (1..=1200)
                .map(|i| match i {
                    _ if errors.contains(&i) => format!("line {i} ERROR db down\n"),
                    _ if i % 2 == 0 && i < 1100 => format!("line {i} WARN deprecated call\n"),
                    _ => format!("line {i} ok\n"),
                })
                .collect()
        };
        let envelope = spilled(&input(&[1150]), SpillOptions::default());
        let shown = line_numbers(&envelope.items);
        // The head and the last line, the error, then the warnings, up to as many.
        assert_eq!(&shown[..9], &[1, 1200, 1150, 2, 3, 4, 5, 6, 8], "{shown:?}");
        let warnings = &shown[7..27];
        assert!(warnings.iter().all(|line| line % 2 == 0 && *line < 1100));
        assert_eq!(shown[27], 1196, "then the rest of the tail");
        assert_eq!(
            envelope.summary,
            "1200 lines; 550 look like errors or warnings (first at line 2); 1 error, at line 1150"
        );
        assert_eq!(envelope.stats["error_lines"], 1);
        assert_eq!(envelope.stats["first_error_at"], 1150);
        assert_eq!(envelope.stats["first_error_line"], 2);
        // An error among the last lines, too (the last line stays with the head).
        let envelope = spilled(&input(&[1197, 1200]), SpillOptions::default());
        let shown = line_numbers(&envelope.items);
        assert_eq!(&shown[..8], &[1, 1200, 1197, 2, 3, 4, 5, 6], "{shown:?}");
        assert_eq!(&shown[27..31], &[1196, 1198, 1199, 7], "{shown:?}");
        let envelope = spilled(&input(&[1150, 1160]), SpillOptions::default());
        assert!(
            envelope
                .summary
                .ends_with("; 2 errors, the first at line 1150"),
            "{}",
            envelope.summary
        );
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
        let envelope = spilled(&input, options);
        let shown = line_numbers(&envelope.items);
        // The head and the last line, the errors, then the rest of the tail.
        assert_eq!(&shown[..7], &[1, 100, 10, 2, 11, 12, 99]);
        assert_eq!(envelope.stats["error_like_lines"], 80);
        // The errors among the last lines count against the same quota: past it, an error
        // keeps its place in the tail, after the warnings.
        let input = lines(100, &[96, 97, 98]).replace("line 50 ok", "line 50 WARN slow");
        let options = SpillOptions {
            head: 2,
            tail: 5,
            errors: 2,
        };
        let envelope = spilled(&input, options);
        let shown = line_numbers(&envelope.items);
        assert_eq!(&shown[..8], &[1, 100, 96, 2, 97, 50, 98, 99], "{shown:?}");
    }

    /// The spill of `input` with `options`, in every chunking.
    fn spilled(input: &str, options: SpillOptions) -> briefly_core::Envelope {
        reduce_all_chunkings(
            || Spill::new(options),
            input.as_bytes(),
            &RunConfig::new("spill"),
        )
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
        // After the first line, the last and the first error (line 3).
        assert_eq!(&shown[..4], &[1, 504, 3, 2], "{shown:?}");
        let long = envelope.items[3]["text"].as_str().unwrap();
        assert!(long.ends_with("…[cut 29000 chars]"), "{long:.40}");
        assert!(envelope.truncated);
    }

    #[test]
    fn the_first_error_comes_before_the_rest_of_the_head() {
        // Under the smallest budget, the first line, the last and the error fit; the rest
        // of the head does not.
        let mut input: String = (1..=3000)
            .map(|i| format!("compiling module {i} ok\n"))
            .collect();
        input = input.replace(
            "compiling module 1500 ok",
            "ERROR: module 1500 failed to link",
        );
        let shown = line_numbers(&spilled_at(&input, 1_000).items);
        assert_eq!(&shown[..3], &[1, 3000, 1500], "{shown:?}");
        // The first error in the head ranks so too, and one on the first line is shown
        // there: a later error ranks with the other errors.
        let order = |errors: &[u64]| {
            let envelope = spilled(&lines(100, errors), SpillOptions::default());
            line_numbers(&envelope.items)[..8].to_vec()
        };
        assert_eq!(order(&[3, 50]), [1, 100, 3, 2, 4, 5, 50, 96]);
        assert_eq!(order(&[1, 50]), [1, 100, 2, 3, 4, 5, 50, 96]);
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
