//! `briefly grep`: the lines of an artifact that match a pattern, with context.

use briefly_core::{Emit, Flow, Outcome, Preview, Record, Reducer};
use regex::{Regex, RegexBuilder};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// The most context lines on each side of a match.
pub const MAX_CONTEXT: usize = 50;

/// What to look for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GrepOptions {
    /// A regular expression (Rust `regex` syntax).
    pub pattern: String,
    /// Lines of context before and after each match.
    #[serde(default)]
    pub context: usize,
    /// Match without regard to case.
    #[serde(default)]
    pub ignore_case: bool,
}

/// One match: the line, and its context as `[line, text]` pairs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Match {
    /// 1-based line number.
    pub line: u64,
    /// The matching line; one over 1,000 characters, the part around its first match,
    /// cut markers before and after it saying how much is left out.
    pub text: String,
    /// Where the first match starts in the line (1-based, in characters), when `text` is
    /// that part of a long line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u64>,
    /// Lines before it, those the match before it did not show (as `grep -C` shows
    /// each line once).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub before: Vec<(u64, String)>,
    /// Lines after it, up to the next match (which shows its own line).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub after: Vec<(u64, String)>,
}

/// A matching line longer than this (characters) is shown as the part around its first
/// match: a budget that cuts an item from its end would cut the match off a long line's.
const MATCH_WINDOW_CHARS: usize = 1_000;
/// Characters kept before the match in such a part.
const LEAD_CHARS: usize = 200;

/// `text` as a match shows it: whole, or when longer than [`MATCH_WINDOW_CHARS`] the part
/// from a little before the match at byte `at`, with that column.
fn around(text: &str, at: usize) -> (String, Option<u64>) {
    let chars = text.chars().count();
    if chars <= MATCH_WINDOW_CHARS {
        return (text.to_string(), None);
    }
    let column = text[..at].chars().count();
    let start = column.saturating_sub(LEAD_CHARS);
    let end = (start + MATCH_WINDOW_CHARS).min(chars);
    let byte = |n: usize| text.char_indices().nth(n).map_or(text.len(), |(b, _)| b);
    let mut shown = String::new();
    if start > 0 {
        shown.push_str(&briefly_core::with_cut_marker("", start as u64));
    }
    shown.push_str(&text[byte(start)..byte(end)]);
    if end < chars {
        shown = briefly_core::with_cut_marker(&shown, (chars - end) as u64);
    }
    (shown, Some(column as u64 + 1))
}

/// Items: every match in order, with context.
#[derive(Debug, Clone)]
pub struct Grep {
    regex: Regex,
    options: GrepOptions,
    before: VecDeque<(u64, String)>,
    /// The match still collecting its after-context.
    pending: Option<Match>,
    /// The last line a match showed (its own, or one after it): the next shows none
    /// before it again.
    last_shown: u64,
    matches: u64,
    lines: u64,
    /// Lines cut by the framing limit: searched in their head only.
    cut_lines: u64,
    /// Lines searched (and shown) without their ANSI codes.
    ansi_lines: u64,
    /// Matching lines shown in part ([`around`]).
    shown_in_part: u64,
}

/// What `Grep` counts.
#[derive(Debug, Clone, Serialize)]
pub struct GrepStats {
    /// Matching lines.
    pub matches: u64,
    /// Lines searched.
    pub lines: u64,
    /// The pattern searched for.
    pub pattern: String,
    /// Lines longer than `--max-line-bytes`, searched in their first bytes only.
    #[serde(skip_serializing_if = "briefly_core::is_zero")]
    pub cut_lines: u64,
    /// Lines searched and shown without their ANSI escape codes.
    #[serde(skip_serializing_if = "briefly_core::is_zero")]
    pub ansi_lines: u64,
}

impl Grep {
    /// A search for `options.pattern`; an invalid pattern or a context over
    /// [`MAX_CONTEXT`] is an error.
    pub fn new(options: GrepOptions) -> Result<Grep, String> {
        if options.context > MAX_CONTEXT {
            return Err(format!(
                "context {} is over the maximum of {MAX_CONTEXT}",
                options.context
            ));
        }
        // Lines never hold a newline: a pattern that needs one would match nothing.
        if names_a_newline(&options.pattern) {
            return Err(
                "the pattern matches a newline, which no line holds: grep searches line by line"
                    .into(),
            );
        }
        let regex = RegexBuilder::new(&options.pattern)
            .case_insensitive(options.ignore_case)
            .size_limit(10 << 20)
            .build()
            .map_err(|e| format!("invalid pattern: {e}"))?;
        Ok(Grep {
            regex,
            before: VecDeque::with_capacity(options.context),
            pending: None,
            last_shown: 0,
            options,
            matches: 0,
            lines: 0,
            cut_lines: 0,
            ansi_lines: 0,
            shown_in_part: 0,
        })
    }
}

/// Whether `pattern` holds a newline, as itself or as the escape `\n` (not a `\\`
/// followed by `n`, which is a backslash and an n).
fn names_a_newline(pattern: &str) -> bool {
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '\n' => return true,
            '\\' if chars.next() == Some('n') => return true,
            _ => {}
        }
    }
    false
}

impl Reducer for Grep {
    type Item = Match;
    type Stats = GrepStats;

    fn record(&mut self, record: &Record<'_>, out: &mut dyn Emit<Match>) -> Flow {
        self.lines += 1;
        self.cut_lines += u64::from(record.cut);
        // What the output showed is what is searched for, and shown.
        let text = crate::visible(record.text);
        self.ansi_lines += u64::from(matches!(text, std::borrow::Cow::Owned(_)));
        let context = self.options.context;
        let found = self.regex.find(&text);
        if let Some(mut pending) = self.pending.take() {
            if found.is_none() {
                pending.after.push((record.line, text.to_string()));
                self.last_shown = record.line;
            }
            // A match shows its own line: the one before ends at it, else with its context.
            if found.is_some() || pending.after.len() >= context {
                out.emit(0, pending);
            } else {
                self.pending = Some(pending);
            }
        }
        if let Some(found) = found {
            self.matches += 1;
            let (shown, column) = around(&text, found.start());
            self.shown_in_part += u64::from(column.is_some());
            let last_shown = self.last_shown;
            let found = Match {
                line: record.line,
                text: shown,
                column,
                before: (self.before.iter())
                    .filter(|(line, _)| *line > last_shown)
                    .cloned()
                    .collect(),
                after: Vec::new(),
            };
            self.last_shown = record.line;
            if context == 0 {
                out.emit(0, found);
            } else {
                self.pending = Some(found);
            }
        }
        if context > 0 {
            if self.before.len() == context {
                self.before.pop_front();
            }
            self.before.push_back((record.line, text.into_owned()));
        }
        Flow::Continue
    }

    fn finish(&mut self, out: &mut dyn Emit<Match>) -> Outcome<GrepStats> {
        if let Some(pending) = self.pending.take() {
            out.emit(0, pending);
        }
        let mut summary = format!(
            "{} of {} for /{}/",
            briefly_core::plural(self.matches, "matching line"),
            self.lines,
            self.options.pattern
        );
        if self.cut_lines > 0 {
            // A count of none must not read as "not there".
            summary.push_str(&format!(
                "; {} searched in its first bytes only (raise --max-line-bytes to search it whole)",
                briefly_core::counted(
                    self.cut_lines,
                    "line over --max-line-bytes was",
                    "lines over --max-line-bytes were"
                )
            ));
        }
        let stats = GrepStats {
            matches: self.matches,
            lines: self.lines,
            pattern: self.options.pattern.clone(),
            cut_lines: self.cut_lines,
            ansi_lines: self.ansi_lines,
        };
        // A line shown in part leaves the rest of it out: the file has it.
        let mut outcome = Outcome {
            preview: Preview::Matches,
            complete: self.shown_in_part == 0,
            ..Outcome::new(summary, stats)
        };
        outcome
            .warnings
            .extend(crate::ansi_warning(self.ansi_lines));
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::reduce_all_chunkings;
    use briefly_core::RunConfig;

    fn grep(pattern: &str, context: usize) -> Grep {
        Grep::new(GrepOptions {
            pattern: pattern.into(),
            context,
            ignore_case: false,
        })
        .unwrap()
    }

    #[test]
    fn a_pattern_that_needs_a_newline_is_refused() {
        let refused = |pattern: &str| {
            Grep::new(GrepOptions {
                pattern: pattern.into(),
                context: 0,
                ignore_case: false,
            })
            .err()
        };
        for pattern in ["foo\\nbar", "foo\nbar", "a[\\n]b"] {
            let error = refused(pattern).unwrap_or_else(|| panic!("{pattern:?} accepted"));
            assert!(error.contains("matches a newline"), "{error}");
        }
        // A backslash, then an n: no newline.
        assert!(refused(r"C:\\new").is_none());
        assert!(refused("new").is_none());
    }

    #[test]
    fn what_the_terminal_showed_is_searched_and_shown() {
        let input = "\x1b[1;31merror:\x1b[0m build failed\nplain\n";
        let envelope = reduce_all_chunkings(
            grep("error: build failed", 1),
            input.as_bytes(),
            &RunConfig::new("grep"),
        );
        assert_eq!(envelope.total_items, 1);
        assert_eq!(envelope.items[0]["text"], "error: build failed");
        assert_eq!(envelope.stats["ansi_lines"], 1);
        assert_eq!(
            envelope.warnings,
            ["ANSI escape codes removed from 1 line (the file keeps them)"]
        );
    }

    #[test]
    fn a_long_line_shows_the_part_around_its_match() {
        let line = format!("{}FATAL_ERROR{}\n", "a".repeat(30_000), "b".repeat(20_000));
        let config = RunConfig {
            budget: briefly_core::Budget::default()
                .with_max_chars(1_000)
                .unwrap(),
            ..RunConfig::new("grep")
        };
        let envelope = reduce_all_chunkings(grep("FATAL_ERROR", 0), line.as_bytes(), &config);
        let found = &envelope.items[0];
        assert_eq!(found["column"], 30_001);
        let text = found["text"].as_str().unwrap();
        assert!(text.starts_with("…[cut 29800 chars]aaa"), "{text}");
        assert!(text.contains("FATAL_ERROR"), "{text}");
        // The rest of the line is left out, however large the budget: said so.
        let whole_budget = RunConfig::new("grep");
        let envelope = reduce_all_chunkings(grep("FATAL_ERROR", 0), line.as_bytes(), &whole_budget);
        assert_eq!(envelope.returned_items, envelope.total_items);
        assert!(envelope.truncated);
        // A short line is shown whole, with no column.
        let envelope = reduce_all_chunkings(grep("b", 0), b"abc\n", &RunConfig::new("grep"));
        assert_eq!(envelope.items[0]["text"], "abc");
        assert_eq!(envelope.items[0].get("column"), None);
        assert!(!envelope.truncated);
    }

    #[test]
    fn matches_with_context_and_counts() {
        let input = "a\nb\nERROR one\nc\nd\ne\nERROR two\n";
        let envelope =
            reduce_all_chunkings(grep("ERROR", 1), input.as_bytes(), &RunConfig::new("grep"));
        assert_eq!(envelope.total_items, 2);
        assert_eq!(envelope.items[0]["line"], 3);
        assert_eq!(envelope.items[0]["before"], serde_json::json!([[2, "b"]]));
        assert_eq!(envelope.items[0]["after"], serde_json::json!([[4, "c"]]));
        assert_eq!(envelope.items[1]["line"], 7);
        assert!(envelope.items[1].get("after").is_none(), "the file ended");
        assert_eq!(envelope.stats["matches"], 2);
        // Matches close together: each line shown once, as `grep -C` shows it.
        let input = "1\n2\nERROR 3\n4\nERROR 5\nERROR 6\n7\n8\n9\n";
        let envelope =
            reduce_all_chunkings(grep("ERROR", 2), input.as_bytes(), &RunConfig::new("grep"));
        let shown: Vec<u64> = envelope
            .items
            .iter()
            .flat_map(|item| {
                let context = |side: &str| {
                    item.get(side)
                        .and_then(|pairs| pairs.as_array())
                        .into_iter()
                        .flatten()
                        .map(|pair| pair[0].as_u64().unwrap())
                        .collect::<Vec<_>>()
                };
                let mut lines = context("before");
                lines.push(item["line"].as_u64().unwrap());
                lines.extend(context("after"));
                lines
            })
            .collect();
        assert_eq!(shown, [1, 2, 3, 4, 5, 6, 7, 8], "{:?}", envelope.items);
    }

    #[test]
    fn bad_patterns_and_context_are_errors() {
        assert!(Grep::new(GrepOptions {
            pattern: "(".into(),
            context: 0,
            ignore_case: false
        })
        .is_err());
        assert!(Grep::new(GrepOptions {
            pattern: "x".into(),
            context: 51,
            ignore_case: false
        })
        .is_err());
    }

    #[test]
    fn a_line_searched_in_its_head_only_is_said_so() {
        let input = format!("short\n{} needle\n", "x".repeat(300));
        let mut config = RunConfig::new("grep");
        config.max_line_bytes = 100;
        let envelope = reduce_all_chunkings(grep("needle", 0), input.as_bytes(), &config);
        assert_eq!(envelope.total_items, 0);
        assert_eq!(envelope.stats["cut_lines"], 1);
        assert!(
            envelope
                .summary
                .ends_with("1 line over --max-line-bytes was searched in its first bytes only (raise --max-line-bytes to search it whole)"),
            "{}",
            envelope.summary
        );
    }

    #[test]
    fn ignore_case() {
        let g = Grep::new(GrepOptions {
            pattern: "error".into(),
            context: 0,
            ignore_case: true,
        })
        .unwrap();
        let envelope = reduce_all_chunkings(g, b"Error\nok\nERROR\n", &RunConfig::new("grep"));
        assert_eq!(envelope.total_items, 2);
    }
}
