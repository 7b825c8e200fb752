//! One JSON line per invocation, appended to a metrics file.

use serde::{Deserialize, Serialize};
use std::fs::OpenOptions;
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// What one invocation did with one tool result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct MetricsEvent {
    /// `tool_result_budget` for a result that went through the budget stage,
    /// `artifact_read` for `read`, `grep` and `page`.
    pub event: String,
    /// The reducer or command.
    pub tool: String,
    /// The `--id` given, if any.
    pub tool_call_id: Option<String>,
    /// Characters of raw input.
    pub raw_chars: u64,
    /// Characters printed.
    pub inline_chars: u64,
    /// `raw_chars / 4`.
    pub estimated_raw_tokens: u64,
    /// The per-result cap in force.
    pub threshold_chars: u64,
    /// Whether the raw input was kept as an artifact.
    pub persisted: bool,
    /// The artifact written or read.
    pub artifact: Option<String>,
    /// Wall time of the invocation.
    pub duration_ms: u64,
    /// Why the artifact could not be written, when it could not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artifact_error: Option<String>,
}

/// Appends `event` as one line to `path` (created 0600). One `write` per event, so
/// concurrent invocations do not interleave within a line.
pub fn append_event(path: &Path, event: &MetricsEvent) -> std::io::Result<()> {
    let mut line = serde_json::to_vec(event)?;
    line.push(b'\n');
    OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .open(path)?
        .write_all(&line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appends_one_line_per_event_with_the_contract_fields() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.jsonl");
        let event = MetricsEvent {
            event: "tool_result_budget".into(),
            tool: "spill".into(),
            ..Default::default()
        };
        append_event(&path, &event).unwrap();
        append_event(&path, &event).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 2);
        let value: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        for field in [
            "event",
            "tool",
            "tool_call_id",
            "raw_chars",
            "inline_chars",
            "estimated_raw_tokens",
            "threshold_chars",
            "persisted",
            "artifact",
            "duration_ms",
        ] {
            assert!(value.get(field).is_some(), "{field}");
        }
    }
}
