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
    /// The column of line `offset` to read from (1-based, in characters): where a page
    /// that ended inside a long line goes on (`next_column`).
    pub column: u64,
    /// At most this many lines; all that fit when `None`.
    pub limit: Option<u64>,
    /// A line longer than this many characters comes as pieces of it, one item each
    /// (with their `column`), so that a page can end inside it and the next go on from
    /// there; `None` keeps every line one item. Set from the budget the first page had
    /// ([`piece_chars_for`]), so that every page of one read cuts the same pieces.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub piece_chars: Option<u64>,
}

impl Default for LinesOptions {
    fn default() -> Self {
        LinesOptions {
            offset: 1,
            column: 1,
            limit: None,
            piece_chars: None,
        }
    }
}

/// The pieces a long line is read in under a per-result budget of `per_result_chars`:
/// half of it less what the envelope's other fields (a cursor, an artifact's path) may
/// take, so that a piece fits a page whole even at the least budget (200 characters).
pub fn piece_chars_for(per_result_chars: usize) -> u64 {
    (per_result_chars as u64 / 2).saturating_sub(300).max(100)
}

/// Items: the lines from `offset` on, in order (up to `limit`).
#[derive(Debug, Clone)]
pub struct Lines {
    options: LinesOptions,
    lines: u64,
    /// Lines shown without their ANSI codes.
    ansi_lines: u64,
    /// Lines read in pieces.
    pieced_lines: u64,
    /// `--column` was past the end of line `offset`: its length in characters, and
    /// whether the framing cut it (the length is then of its head).
    column_past: Option<(u64, bool)>,
}

/// What `Lines` reports.
#[derive(Debug, Clone, Serialize)]
pub struct LinesStats {
    /// Lines in the whole file.
    pub total_lines: u64,
    /// The first line asked for: on a page (`briefly page`), the page's own first line.
    pub offset: u64,
    /// Pass as `--offset` to read on; `null` at the end.
    pub next_offset: Option<u64>,
    /// With `next_offset`, when the page ended inside that line: pass as `--column`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_column: Option<u64>,
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
                column: options.column.max(1),
                piece_chars: options.piece_chars.map(|n| n.max(1)),
                ..options
            },
            lines: 0,
            ansi_lines: 0,
            pieced_lines: 0,
            column_past: None,
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
        if !self.in_range(record.line) {
            return Flow::Continue;
        }
        let shown = crate::visible(record.text);
        self.ansi_lines += u64::from(matches!(shown, std::borrow::Cow::Owned(_)));
        let from = match record.line == self.options.offset {
            true => self.options.column,
            false => 1,
        };
        // Bytes bound characters: only a line that long is counted.
        let long = self.options.piece_chars.filter(|&n| shown.len() as u64 > n);
        if from == 1 && long.is_none() {
            if out.wants(0) {
                let mut item = LineItem::of(record);
                item.text = shown.into_owned();
                out.emit(0, item);
            } else {
                out.skip(0);
            }
            return Flow::Continue;
        }
        let line_chars = shown.chars().count() as u64;
        if from > line_chars {
            self.column_past = Some((line_chars, record.cut));
            return Flow::Continue;
        }
        self.pieced_lines += 1;
        let piece = long.unwrap_or(u64::MAX);
        let mut chars = shown.char_indices().skip(from as usize - 1).peekable();
        let mut column = from;
        while let Some(&(start, _)) = chars.peek() {
            let end = chars
                .nth(piece.min(line_chars) as usize - 1)
                .and_then(|_| chars.peek().map(|&(at, _)| at))
                .unwrap_or(shown.len());
            if out.wants(0) {
                out.emit(
                    0,
                    LineItem {
                        line: record.line,
                        text: shown[start..end].to_string(),
                        // What the framing cut is after the last piece.
                        cut: record.cut && end == shown.len(),
                        column: Some(column),
                        line_chars: Some(line_chars),
                    },
                );
            } else {
                out.skip(0);
            }
            column += piece.min(line_chars);
        }
        Flow::Continue
    }

    fn finish(&mut self, _out: &mut dyn Emit<LineItem>) -> Outcome<LinesStats> {
        let summary = self.summary();
        let stats = LinesStats {
            total_lines: self.lines,
            offset: self.options.offset,
            next_offset: None,
            next_column: None,
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
        // (Line 1 of an empty input is where it ends: no warning for the default.)
        if self.options.offset > self.lines.max(1) {
            outcome.warnings.push(format!(
                "--offset {} is past the end: the input has {}",
                self.options.offset,
                briefly_core::plural(self.lines, "line")
            ));
        }
        match self.column_past {
            Some((chars, false)) => outcome.warnings.push(format!(
                "--column {} is past the end of line {}: it has {}",
                self.options.column,
                self.options.offset,
                briefly_core::plural(chars, "character")
            )),
            Some((chars, true)) => outcome.warnings.push(format!(
                "--column {} is past what was read of line {}: its first {}; the line is \
                 longer than --max-line-bytes, which a larger one reads on",
                self.options.column,
                self.options.offset,
                briefly_core::plural(chars, "character")
            )),
            None => {}
        }
        outcome
    }

    /// The lines shown, in the summary (`lines 100–113 of 2000`, with the characters of
    /// a line shown in part), the first line shown (`offset`), and where the next page
    /// starts: the line after the last one shown, or the rest of a long line
    /// (`next_column`); null at the end.
    fn fitted(&self, envelope: &mut Envelope) {
        let (first, last) = match (envelope.items.first(), envelope.items.last()) {
            (Some(first), Some(last)) => (Shown::of(first), Shown::of(last)),
            _ => {
                self.fitted_none(envelope);
                return;
            }
        };
        let lines = match first.line == last.line {
            true => format!("line {} of {}", first.line, self.lines),
            false => format!("lines {}–{} of {}", first.line, last.line, self.lines),
        };
        let piece = self.options.piece_chars.unwrap_or(u64::MAX);
        let last_end = last.column.map(|column| {
            let end = (column - 1).saturating_add(piece).min(last.line_chars);
            (end, end < last.line_chars)
        });
        // The characters of a line shown in part: from where the first item starts,
        // to where the last ends.
        let from = first.column.filter(|&column| column > 1);
        let to = last_end.filter(|&(_, inside)| inside).map(|(end, _)| end);
        let shown = match (from, to) {
            (None, None) => lines,
            (from, to) if first.line == last.line => format!(
                "{lines}, characters {}–{} of {}",
                from.unwrap_or(1),
                to.unwrap_or(last.line_chars),
                last.line_chars
            ),
            (from, to) => {
                let mut parts = vec![lines];
                if let Some(from) = from {
                    parts.push(format!("line {} from character {from}", first.line));
                }
                if let Some(to) = to {
                    let of = last.line_chars;
                    parts.push(format!("line {} to character {to} of {of}", last.line));
                }
                parts.join(", ")
            }
        };
        self.resummarize(envelope, shown);
        set_offset(envelope, first.line);
        let (next, column) = match last_end {
            Some((end, true)) => (Some(last.line), Some(end + 1)),
            _ => ((last.line < self.lines).then_some(last.line + 1), None),
        };
        set_next(envelope, next, column);
    }
}

impl Lines {
    /// The summary before the budget stage: what [`Reducer::fitted`] says better.
    fn summary(&self) -> String {
        match self.lines {
            0 => "no lines: the input is empty".to_string(),
            lines => format!("{lines} lines from line {}", self.options.offset),
        }
    }

    /// Puts `shown` in the place of [`Lines::summary`], keeping what was added after it
    /// (`run`'s `; stderr ends: …`).
    fn resummarize(&self, envelope: &mut Envelope, shown: String) {
        envelope.summary = match envelope.summary.strip_prefix(&self.summary()) {
            Some(rest) => format!("{shown}{rest}"),
            None => shown,
        };
    }

    /// [`Reducer::fitted`] for a page with no item: from the line it starts at, which
    /// the page's place among the items gives when every line is one item.
    fn fitted_none(&self, envelope: &mut Envelope) {
        if self.lines == 0 {
            // The summary given (`run`'s `no output (exit code 127); cannot run …`).
            return;
        }
        if self.pieced_lines > 0 && envelope.item_offset > 0 {
            self.resummarize(envelope, format!("no lines fit, of {}", self.lines));
            return;
        }
        let first = self.options.offset + envelope.item_offset;
        set_offset(envelope, first);
        self.resummarize(
            envelope,
            format!("no lines from line {first} of {}", self.lines),
        );
        let column = (self.pieced_lines > 0).then_some(self.options.column);
        set_next(envelope, (first <= self.lines).then_some(first), column);
    }
}

/// Where an item shown starts.
struct Shown {
    line: u64,
    column: Option<u64>,
    line_chars: u64,
}

impl Shown {
    fn of(item: &Value) -> Shown {
        let number = |key: &str| item.get(key).and_then(Value::as_u64);
        Shown {
            line: number("line").unwrap_or(0),
            column: number("column"),
            line_chars: number("line_chars").unwrap_or(0),
        }
    }
}

/// Puts the first line the result is of in its stats (a page's, past the read's own).
fn set_offset(envelope: &mut Envelope, first: u64) {
    if let Some(stats) = envelope.stats.as_object_mut() {
        stats.insert("offset".into(), first.into());
    }
}

/// The envelope's `next_offset` and `next_column`.
fn set_next(envelope: &mut Envelope, next: Option<u64>, column: Option<u64>) {
    if let Some(stats) = envelope.stats.as_object_mut() {
        stats.insert("next_offset".into(), next.map_or(Value::Null, Value::from));
        match column.filter(|&c| c > 1 && next.is_some()) {
            Some(column) => stats.insert("next_column".into(), column.into()),
            None => stats.shift_remove("next_column"),
        };
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
            ..LinesOptions::default()
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
            ..LinesOptions::default()
        });
        let envelope = reduce_all_chunkings(reader, input.as_bytes(), &RunConfig::new("read"));
        assert_eq!(envelope.total_items, 0);
        assert_eq!(envelope.stats["next_offset"], Value::Null);
        assert_eq!(
            envelope.warnings,
            ["--offset 51 is past the end: the input has 50 lines"]
        );
        // An empty input: said so, and line 1 (the default) is no offset past its end.
        for (offset, warnings) in [
            (1, &[][..]),
            (
                3,
                &["--offset 3 is past the end: the input has 0 lines"][..],
            ),
        ] {
            let reader = Lines::new(LinesOptions {
                offset,
                ..LinesOptions::default()
            });
            let empty = reduce_all_chunkings(reader, b"", &RunConfig::new("read"));
            assert_eq!(empty.summary, "no lines: the input is empty");
            assert_eq!(empty.warnings, warnings);
        }
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

    #[test]
    fn a_long_line_comes_in_pieces_from_its_column() {
        let pieces = |options: LinesOptions, input: &str| -> Vec<(u64, Option<u64>, String)> {
            let envelope = reduce_all_chunkings(
                Lines::new(options),
                input.as_bytes(),
                &RunConfig::new("read"),
            );
            envelope
                .items
                .iter()
                .map(|i| {
                    let column = i.get("column").and_then(Value::as_u64);
                    if column.is_some() {
                        let chars = i["line_chars"].as_u64().unwrap();
                        assert_eq!(chars, 10, "{i}");
                    }
                    (
                        i["line"].as_u64().unwrap(),
                        column,
                        i["text"].as_str().unwrap().into(),
                    )
                })
                .collect()
        };
        let input = "\x1b[1mabcdé日ghij\x1b[0m\nxy\n";
        let options = LinesOptions {
            piece_chars: Some(4),
            ..LinesOptions::default()
        };
        let piece = |line, column, text: &str| (line, column, text.to_string());
        assert_eq!(
            pieces(options, input),
            [
                piece(1, Some(1), "abcd"),
                piece(1, Some(5), "é日gh"),
                piece(1, Some(9), "ij"),
                piece(2, None, "xy")
            ]
        );
        let from = LinesOptions {
            column: 6,
            ..options
        };
        assert_eq!(
            pieces(from, input),
            [
                piece(1, Some(6), "日ghi"),
                piece(1, Some(10), "j"),
                piece(2, None, "xy")
            ]
        );
        // Without pieces, a column still starts the first line there, in one item.
        let whole = LinesOptions {
            column: 9,
            ..LinesOptions::default()
        };
        assert_eq!(
            pieces(whole, input),
            [piece(1, Some(9), "ij"), piece(2, None, "xy")]
        );
    }
}
