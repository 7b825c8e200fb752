//! `briefly read`: lines of an artifact from an offset, as many as fit.

use crate::LineItem;
use briefly_core::{Emit, Envelope, Flow, Outcome, Preview, Record, Reducer};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Which lines to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LinesOptions {
    /// The first line (1-based).
    pub offset: u64,
    /// At most this many lines; all that fit when `None`.
    pub limit: Option<u64>,
}

impl Default for LinesOptions {
    fn default() -> Self {
        LinesOptions {
            offset: 1,
            limit: None,
        }
    }
}

/// Items: the lines from `offset` on, in order (up to `limit`).
#[derive(Debug, Clone)]
pub struct Lines {
    options: LinesOptions,
    lines: u64,
    /// Lines shown without their ANSI codes.
    ansi_lines: u64,
}

/// What `Lines` reports.
#[derive(Debug, Clone, Serialize)]
pub struct LinesStats {
    /// Lines in the whole file.
    pub total_lines: u64,
    /// The first line asked for.
    pub offset: u64,
    /// Pass as `--offset` to read on; `null` at the end.
    pub next_offset: Option<u64>,
    /// Lines shown without their ANSI escape codes.
    #[serde(skip_serializing_if = "briefly_core::is_zero")]
    pub ansi_lines: u64,
}

impl Lines {
    /// A reader with these options.
    pub fn new(options: LinesOptions) -> Self {
        Lines {
            options: LinesOptions {
                offset: options.offset.max(1),
                ..options
            },
            lines: 0,
            ansi_lines: 0,
        }
    }

    fn in_range(&self, line: u64) -> bool {
        line >= self.options.offset
            && self
                .options
                .limit
                .is_none_or(|limit| line - self.options.offset < limit)
    }
}

impl Reducer for Lines {
    type Item = LineItem;
    type Stats = LinesStats;

    fn record(&mut self, record: &Record<'_>, out: &mut dyn Emit<LineItem>) -> Flow {
        self.lines += 1;
        if self.in_range(record.line) {
            if out.wants(0) {
                let mut item = LineItem::of(record);
                if let std::borrow::Cow::Owned(shown) = crate::visible(record.text) {
                    self.ansi_lines += 1;
                    item.text = shown;
                }
                out.emit(0, item);
            } else {
                out.skip(0);
            }
        }
        Flow::Continue
    }

    fn finish(&mut self, _out: &mut dyn Emit<LineItem>) -> Outcome<LinesStats> {
        let summary = format!("{} lines from line {}", self.lines, self.options.offset);
        let stats = LinesStats {
            total_lines: self.lines,
            offset: self.options.offset,
            next_offset: None,
            ansi_lines: self.ansi_lines,
        };
        let mut outcome = Outcome {
            preview: Preview::Head,
            complete: true,
            ..Outcome::new(summary, stats)
        };
        outcome
            .warnings
            .extend(crate::ansi_warning(self.ansi_lines));
        if self.options.offset > self.lines {
            outcome.warnings.push(format!(
                "--offset {} is past the end: the input has {}",
                self.options.offset,
                briefly_core::plural(self.lines, "line")
            ));
        }
        outcome
    }

    /// The lines shown, in the summary (`lines 100–113 of 2000`), and the next offset:
    /// the line after the last one shown, or null at the end of the file.
    fn fitted(&self, envelope: &mut Envelope) {
        let first = self.options.offset + envelope.item_offset;
        envelope.summary = match envelope.returned_items {
            0 => format!("no lines from line {first} of {}", self.lines),
            1 => format!("line {first} of {}", self.lines),
            n => format!("lines {first}–{} of {}", first + n - 1, self.lines),
        };
        let next = self.options.offset + envelope.item_offset + envelope.returned_items;
        if let Some(stats) = envelope.stats.as_object_mut() {
            let next = (next <= self.lines).then_some(next);
            stats.insert("next_offset".into(), next.map_or(Value::Null, Value::from));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::reduce_all_chunkings;
    use briefly_core::{Budget, RunConfig};

    #[test]
    fn reads_from_the_offset_up_to_the_limit() {
        let input: String = (1..=50).map(|i| format!("row {i}\n")).collect();
        let reader = Lines::new(LinesOptions {
            offset: 10,
            limit: Some(3),
        });
        let envelope = reduce_all_chunkings(reader, input.as_bytes(), &RunConfig::new("read"));
        let texts: Vec<&str> = envelope
            .items
            .iter()
            .map(|i| i["text"].as_str().unwrap())
            .collect();
        assert_eq!(texts, ["row 10", "row 11", "row 12"]);
        assert_eq!(envelope.summary, "lines 10–12 of 50");
        // Shown as the terminal showed them.
        let coloured = "\x1b[32mok\x1b[0m\nplain\n";
        let reader = Lines::new(LinesOptions::default());
        let shown = reduce_all_chunkings(reader, coloured.as_bytes(), &RunConfig::new("read"));
        assert_eq!(shown.items[0]["text"], "ok");
        assert_eq!(shown.stats["ansi_lines"], 1);
        assert_eq!(envelope.total_items, 3);
        assert_eq!(envelope.stats["total_lines"], 50);
        assert_eq!(
            envelope.stats["next_offset"], 13,
            "the line after the last shown"
        );
        // Past the end: nothing, and said so.
        let reader = Lines::new(LinesOptions {
            offset: 51,
            limit: None,
        });
        let envelope = reduce_all_chunkings(reader, input.as_bytes(), &RunConfig::new("read"));
        assert_eq!(envelope.total_items, 0);
        assert_eq!(envelope.stats["next_offset"], Value::Null);
        assert_eq!(
            envelope.warnings,
            ["--offset 51 is past the end: the input has 50 lines"]
        );
    }

    #[test]
    fn as_many_as_fit_without_a_limit() {
        let input: String = (1..=5000)
            .map(|i| format!("a fairly long line number {i} of the file\n"))
            .collect();
        let mut config = RunConfig::new("read");
        config.budget = Budget::for_context(8_192);
        let envelope = reduce_all_chunkings(
            Lines::new(LinesOptions::default()),
            input.as_bytes(),
            &config,
        );
        assert!(envelope.returned_items > 50 && envelope.returned_items < 5000);
        assert_eq!(envelope.total_items, 5000);
        assert!(envelope.truncated);
        assert_eq!(envelope.stats["next_offset"], 1 + envelope.returned_items);
    }
}
