//! briefly's core: everything every reducer stands on.
//!
//! The data path runs one way:
//!
//! ```text
//! bytes ─┬─ tee ─────────────────────────────────────► artifact (raw bytes, byte for byte)
//!        └─ InputDecoder (UTF-16 read as UTF-8) ── LineFramer (bounded)
//!              ── Reducer ─items─► Selection (budget stage) ─► Envelope
//! ```
//!
//! A reducer ranks ([`Reducer`]); the budget stage ([`Pipeline`]) is the only place that
//! decides what fits. A custom reducer implements [`Reducer`] and calls [`reduce`]:
//!
//! ```
//! use briefly_core::{reduce, Emit, Flow, Outcome, Record, Reducer, RunConfig};
//!
//! /// Keeps the lines that mention "error", most recent first.
//! struct Errors { seen: u64 }
//!
//! impl Reducer for Errors {
//!     type Item = String;
//!     type Stats = u64;
//!     fn record(&mut self, record: &Record<'_>, out: &mut dyn Emit<String>) -> Flow {
//!         self.seen += 1;
//!         if record.text.contains("error") {
//!             // Lower ranks come first; later lines get lower ranks here.
//!             out.emit(u64::MAX - record.line, record.text.to_string());
//!         }
//!         Flow::Continue
//!     }
//!     fn finish(&mut self, _out: &mut dyn Emit<String>) -> Outcome<u64> {
//!         Outcome::new(format!("{} lines", self.seen), self.seen)
//!     }
//! }
//!
//! let input = "ok\nerror: a\nok\nerror: b\n";
//! let envelope = reduce(Errors { seen: 0 }, input.as_bytes(), &RunConfig::new("errors")).unwrap();
//! assert_eq!(envelope.items, vec!["error: b", "error: a"]);
//! assert_eq!(envelope.total_items, 2);
//! // The other lines were left out: a reducer that drops input is lossy.
//! assert!(envelope.truncated);
//! assert_eq!(envelope.next_cursor, None);
//! ```

mod ahead;
mod ansi;
mod artifact;
mod budget;
mod contain;
mod cursor;
mod duration;
mod envelope;
mod error;
mod frame;
mod kept;
mod metrics;
mod number;
mod pipeline;
mod records;
mod reducer;
mod select;
mod shrink;
mod surrogates;
pub mod testkit;
mod tokenize;
pub mod utf16;
mod whole;

pub use ahead::{Ahead, Batch, Prepare, Records, BATCH_BYTES, BATCH_LINES};
pub use ansi::{last_drawn, strip_ansi};
pub use artifact::{
    sidecar_path, ArtifactDir, ArtifactMeta, ArtifactWriter, GcReport, SavedArtifact, DEFAULT_TTL,
    GC_INTERVAL,
};
pub use budget::{
    item_chars_for, Budget, Remaining, DEFAULT_CONTEXT_TOKENS, MAX_LINE_ITEM_CHARS,
    MAX_RESULT_CHARS, MIN_RESULT_CHARS, MIN_TOKENIZED_CHARS, PREVIEW_CHARS,
};
pub use contain::{contain, quiet_contained_panics};
pub use cursor::{Cursor, ItemKey};
pub use duration::parse_duration;
pub use envelope::{counted, is_zero, plural, Envelope, Preview, Raw};
pub use error::Error;
pub use frame::{
    count_chars, count_newlines, FramedLine, LineFramer, DEFAULT_MAX_LINE_BYTES, LINE_CUT_MARKER,
    UTF8_BOM,
};
pub use kept::{cut_record_lines, Gap, KeptLines};
pub use metrics::{append_event, MetricsEvent};
pub use number::whole_against_double;
pub use pipeline::{reduce, Artifacts, End, KeepWhole, Pipeline, Push, RunConfig};
pub use records::{Alterations, RecordFramer};
pub use reducer::{Emit, Flow, FoldBatches, Framing, Outcome, Rank, Record, Reducer};
pub use select::Limit;
pub use shrink::{
    cut_line_head, cut_middle, cut_str, head_bytes, json_chars, shrink_to_fit, split_cut,
    with_cut_marker, CUT_MARKER,
};
pub use surrogates::{replace_lone_surrogates, LoneSurrogates};
pub use tokenize::Tokenizer;
pub use utf16::InputDecoder;
pub use whole::WholeChars;
