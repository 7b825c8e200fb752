//! `briefly budget`: the budgets for this window and the standard ones.

use super::rows::{reduce_rows, RowsOptions};
use crate::session::Session;
use anyhow::Result;
use briefly_core::{Budget, Raw};
use serde_json::json;

/// The windows the table always shows.
const STANDARD_WINDOWS: [u64; 6] = [8_192, 16_384, 32_768, 65_536, 131_072, 200_000];

pub fn run(session: &Session) -> Result<i32> {
    let b = session.budget;
    let options = RowsOptions {
        summary: format!(
            "at {} tokens: per-result {} chars, per-turn {} chars, preview {} chars",
            b.context_tokens, b.per_result_chars, b.per_turn_chars, b.preview_chars
        ),
        stats: json!({"current": b, "tokenizer": session.tokenizer.name()}),
        raw: Raw::default(),
    };
    let rows = STANDARD_WINDOWS.iter().map(|&n| {
        let row = Budget::for_context(n);
        json!({"context_tokens": n, "per_result_chars": row.per_result_chars, "per_turn_chars": row.per_turn_chars, "preview_chars": row.preview_chars})
    });
    reduce_rows(session, "budget", options, rows, Vec::new())?.print(session)
}
