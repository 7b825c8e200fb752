//! How many characters a result, and a whole turn of results, may take.

use crate::Error;
use serde::Serialize;

/// The smallest per-result budget that still holds an envelope with a preview.
pub const MIN_RESULT_CHARS: usize = 1_000;

/// The largest per-result budget `--max-chars` may set: far past any model's context
/// window (about 4 million tokens). A result's memory grows with what it prints (its
/// items are held until the page is fitted), so a budget past every input let it grow
/// without bound.
pub const MAX_RESULT_CHARS: usize = 16 * 1024 * 1024;

/// The smallest per-result budget under a real tokenizer: its token limit, a quarter of
/// it, must hold a cursor (base64, which tokenizes densely) and the fixed part beside an
/// item. At 1,000 chars a cl100k result held no item and its page never moved (the
/// test in tests/budget.rs refuses that budget).
pub const MIN_TOKENIZED_CHARS: usize = 2_000;

/// Context window assumed when none is given (tokens).
pub const DEFAULT_CONTEXT_TOKENS: u64 = 32_768;

/// The preview a spilled result keeps inline (characters).
pub const PREVIEW_CHARS: usize = 1_500;

/// Characters of one line an item shows at most (a record's lines, a preview's), the
/// rest cut with the marker: one line of a log that held a whole file must not take a
/// page. Shared by every reducer that shows lines, so they cut alike.
pub const MAX_LINE_ITEM_CHARS: usize = 1_000;

/// The characters one item laid out for a page of `per_result_chars` may take so that
/// the page holds it whole: half the page, less what the envelope's other fields take
/// (its summary and stats, a cursor, an artifact's path). Items cut to fit lose their
/// rest to no page, so a reducer that lays out its items in pieces (text's runs, diff's
/// parts of a long hunk) sizes them by this.
pub fn item_chars_for(per_result_chars: usize) -> usize {
    (per_result_chars / 2).saturating_sub(350)
}

/// Budgets derived from a model's context window.
///
/// Characters are the unit throughout (about four to a token); a real tokenizer, where
/// asked for, adds a token limit of a quarter of the character budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Budget {
    /// The context window, in tokens.
    pub context_tokens: u64,
    /// What one printed result may take: max(8,000, min(100,000, N×4×0.15)).
    pub per_result_chars: usize,
    /// What all results of one turn may take together: max(16,000, min(200,000, N×4×0.30)).
    pub per_turn_chars: usize,
    /// What a spilled result keeps inline.
    pub preview_chars: usize,
}

impl Budget {
    /// The budgets for a context window of `context_tokens`.
    pub fn for_context(context_tokens: u64) -> Budget {
        // N×4×0.15 = N×3/5 and N×4×0.30 = N×6/5, in integers so no rounding surprises.
        let per_result = (context_tokens.saturating_mul(3) / 5).clamp(8_000, 100_000);
        let per_turn = (context_tokens.saturating_mul(6) / 5).clamp(16_000, 200_000);
        Budget {
            context_tokens,
            per_result_chars: per_result as usize,
            per_turn_chars: per_turn as usize,
            preview_chars: PREVIEW_CHARS,
        }
    }

    /// Sets the per-result cap directly (`--max-chars`).
    pub fn with_max_chars(mut self, max_chars: usize) -> Result<Budget, Error> {
        if max_chars < MIN_RESULT_CHARS {
            return Err(Error::Option(format!(
                "--max-chars {max_chars} is below the minimum of {MIN_RESULT_CHARS} (an envelope needs room)"
            )));
        }
        if max_chars > MAX_RESULT_CHARS {
            return Err(Error::Option(format!(
                "--max-chars {max_chars} is above the maximum of {MAX_RESULT_CHARS} (a result's memory grows with what it prints; no context window holds more)"
            )));
        }
        self.per_result_chars = max_chars;
        self.preview_chars = self.preview_chars.min(max_chars / 2);
        Ok(self)
    }

    /// The budget under a real tokenizer (`exact`): one narrowed below
    /// [`MIN_TOKENIZED_CHARS`] by what is left of the window is held there, with a
    /// warning; `--max-chars` below it (`given`) is an error.
    pub fn for_tokenizer(
        mut self,
        exact: bool,
        given: bool,
    ) -> Result<(Budget, Option<String>), Error> {
        if !exact || self.per_result_chars >= MIN_TOKENIZED_CHARS {
            return Ok((self, None));
        }
        if given {
            return Err(Error::Option(format!(
                "--max-chars {} is below the minimum of {MIN_TOKENIZED_CHARS} with a tokenizer (a quarter of it in tokens must hold a cursor and an item)",
                self.per_result_chars
            )));
        }
        let warning = format!(
            "results are held to the minimum of {MIN_TOKENIZED_CHARS} chars with a tokenizer, above the {} left",
            self.per_result_chars
        );
        self.per_result_chars = MIN_TOKENIZED_CHARS;
        self.per_turn_chars = self.per_turn_chars.max(MIN_TOKENIZED_CHARS);
        self.preview_chars = PREVIEW_CHARS.min(MIN_TOKENIZED_CHARS / 2);
        Ok((self, Some(warning)))
    }

    /// Narrows the turn budget to what is left of the window (`--remaining-from`):
    /// `min(cap, (N − S − T − H − R − M) × 0.40)` tokens, at four characters a token.
    /// A result never gets more than the turn. Returns a warning when what is left is
    /// below [`MIN_RESULT_CHARS`] and the floor applies.
    pub fn with_remaining(mut self, remaining: &Remaining) -> (Budget, Option<String>) {
        let used = remaining.total();
        let left = self.context_tokens.saturating_sub(used);
        let turn_chars = (left.saturating_mul(4).saturating_mul(2) / 5) as usize;
        self.per_turn_chars = self.per_turn_chars.min(turn_chars);
        self.per_result_chars = self.per_result_chars.min(self.per_turn_chars);
        let mut warning = None;
        if self.per_result_chars < MIN_RESULT_CHARS {
            warning = Some(format!(
                "only {left} tokens of {} are left (used {used}); results are held to the minimum of {MIN_RESULT_CHARS} chars",
                self.context_tokens
            ));
            self.per_result_chars = MIN_RESULT_CHARS;
            self.per_turn_chars = self.per_turn_chars.max(MIN_RESULT_CHARS);
        }
        self.preview_chars = self.preview_chars.min(self.per_result_chars / 2);
        (self, warning)
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget::for_context(DEFAULT_CONTEXT_TOKENS)
    }
}

/// What of the context window is already taken, in tokens (`--remaining-from`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Remaining {
    /// The system prompt.
    pub system: u64,
    /// Tool schemas.
    pub schemas: u64,
    /// The conversation so far.
    pub history: u64,
    /// Kept free for the model's answer.
    pub reserve: u64,
    /// A safety margin.
    pub margin: u64,
}

impl Remaining {
    /// Parses `system=S,schemas=T,history=H,reserve=R,margin=M` (any subset, tokens).
    /// A key given twice, or none at all, is an error: which value was meant is unsaid.
    pub fn parse(spec: &str) -> Result<Remaining, Error> {
        let mut remaining = Remaining::default();
        let mut seen: Vec<&str> = Vec::new();
        for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part.split_once('=').ok_or_else(|| {
                Error::Option(format!(
                    "--remaining-from: expected KEY=TOKENS, got {part:?}"
                ))
            })?;
            let tokens: u64 = value.trim().replace('_', "").parse().map_err(|_| {
                Error::Option(format!(
                    "--remaining-from: {key} takes a whole number of tokens, got {value:?}"
                ))
            })?;
            let key = key.trim();
            if seen.contains(&key) {
                return Err(Error::Option(format!(
                    "--remaining-from: {key} is given twice"
                )));
            }
            seen.push(key);
            let slot = match key {
                "system" => &mut remaining.system,
                "schemas" => &mut remaining.schemas,
                "history" => &mut remaining.history,
                "reserve" => &mut remaining.reserve,
                "margin" => &mut remaining.margin,
                other => {
                    return Err(Error::Option(format!(
                        "--remaining-from: unknown key {other:?} (system, schemas, history, reserve, margin)"
                    )))
                }
            };
            *slot = tokens;
        }
        if seen.is_empty() {
            return Err(Error::Option(
                "--remaining-from: expected KEY=TOKENS, comma-separated (system, schemas, history, reserve, margin)".into(),
            ));
        }
        Ok(remaining)
    }

    /// Tokens taken in all.
    pub fn total(&self) -> u64 {
        self.system + self.schemas + self.history + self.reserve + self.margin
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_from_the_issue() {
        let expected = [
            (8_192, 8_000, 16_000),
            (16_384, 9_830, 19_660),
            (32_768, 19_660, 39_321),
            (65_536, 39_321, 78_643),
            (131_072, 78_643, 157_286),
            (200_000, 100_000, 200_000),
        ];
        for (tokens, result, turn) in expected {
            let budget = Budget::for_context(tokens);
            assert_eq!(
                (budget.per_result_chars, budget.per_turn_chars),
                (result, turn),
                "{tokens}"
            );
        }
    }

    #[test]
    fn budget_scales_with_the_window() {
        let sizes = [4_096, 20_000, 50_000, 100_000, 150_000, 1_000_000];
        let caps: Vec<usize> = sizes
            .iter()
            .map(|&n| Budget::for_context(n).per_result_chars)
            .collect();
        assert!(caps.windows(2).all(|w| w[0] <= w[1]), "{caps:?}");
        assert_eq!(caps[0], 8_000);
        assert_eq!(*caps.last().unwrap(), 100_000);
    }

    #[test]
    fn max_chars_overrides_and_rejects_tiny() {
        let budget = Budget::default().with_max_chars(5_000).unwrap();
        assert_eq!(budget.per_result_chars, 5_000);
        assert!(Budget::default().with_max_chars(10).is_err());
        assert!(Budget::default().with_max_chars(MAX_RESULT_CHARS).is_ok());
        let past = Budget::default().with_max_chars(MAX_RESULT_CHARS + 1);
        assert!(
            past.unwrap_err()
                .to_string()
                .contains("is above the maximum of 16777216"),
            "a budget past any context window"
        );
    }

    #[test]
    fn remaining_narrows_the_turn() {
        let remaining =
            Remaining::parse("system=2000,schemas=1000,history=20000,reserve=6000,margin=768")
                .unwrap();
        assert_eq!(remaining.total(), 29_768);
        let (budget, warning) = Budget::for_context(32_768).with_remaining(&remaining);
        // (32,768 − 29,768) × 0.40 = 1,200 tokens = 4,800 chars.
        assert_eq!(budget.per_turn_chars, 4_800);
        assert_eq!(budget.per_result_chars, 4_800);
        assert!(warning.is_none());
        let (roomy, _) =
            Budget::for_context(32_768).with_remaining(&Remaining::parse("history=100").unwrap());
        assert_eq!(roomy.per_turn_chars, 39_321);
        assert_eq!(roomy.per_result_chars, 19_660);
    }

    #[test]
    fn remaining_has_a_floor_and_says_so() {
        let (budget, warning) =
            Budget::for_context(8_192).with_remaining(&Remaining::parse("history=9000").unwrap());
        assert_eq!(budget.per_result_chars, MIN_RESULT_CHARS);
        assert!(warning.unwrap().contains("only 0 tokens"));
    }

    #[test]
    fn remaining_rejects_bad_specs() {
        assert!(Remaining::parse("system").is_err());
        assert!(Remaining::parse("sys=1").is_err());
        assert!(Remaining::parse("system=lots").is_err());
        // Nothing, or a key twice: which was meant is unsaid.
        assert!(Remaining::parse("").is_err());
        assert!(Remaining::parse("history=1,history=2").is_err());
    }
}
