//! `briefly budget`: the budgets for this window and the standard ones.

use crate::session::Session;
use anyhow::Result;
use briefly_core::{Budget, Envelope};
use serde_json::json;

/// The windows the table always shows.
const STANDARD_WINDOWS: [u64; 6] = [8_192, 16_384, 32_768, 65_536, 131_072, 200_000];

pub fn run(session: &Session) -> Result<i32> {
    let b = session.budget;
    let mut envelope = Envelope::new(
        "budget",
        format!(
            "at {} tokens: per-result {} chars, per-turn {} chars, preview {} chars",
            b.context_tokens, b.per_result_chars, b.per_turn_chars, b.preview_chars
        ),
    );
    envelope.stats = json!({"current": b, "tokenizer": session.tokenizer.name()});
    envelope.items = STANDARD_WINDOWS
        .iter()
        .map(|&n| {
            let row = Budget::for_context(n);
            json!({"context_tokens": n, "per_result_chars": row.per_result_chars, "per_turn_chars": row.per_turn_chars, "preview_chars": row.preview_chars})
        })
        .collect();
    envelope.total_items = envelope.items.len() as u64;
    envelope.returned_items = envelope.total_items;
    envelope.preview = briefly_core::Preview::Summary;
    envelope
        .warnings
        .extend(session.budget_warning.iter().cloned());
    // The table's last rows give way to a small budget.
    super::fit_rows(session, &mut envelope, "standard windows");
    session.print(&envelope)?;
    Ok(0)
}
