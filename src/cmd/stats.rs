//! `briefly stats FILE`: what a metrics file says about the tools that fed the model.

use super::open_file;
use crate::session::Session;
use anyhow::Result;
use briefly_core::{
    plural, Artifacts, Emit, End, Flow, MetricsEvent, Outcome, Pipeline, Record, Reducer,
};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// Distinct tools tracked before the rest are pooled as `(other)`.
const MAX_TOOLS: usize = 10_000;

/// Per tool: how much it produced and how often it was spilled.
#[derive(Debug, Default, Clone, Serialize)]
pub struct ToolStats {
    pub tool: String,
    pub results: u64,
    pub raw_chars: u64,
    pub inline_chars: u64,
    pub spilled: u64,
    pub write_failures: u64,
    pub artifact_reads: u64,
}

/// Totals over the whole file.
#[derive(Debug, Default, Clone, Serialize)]
pub struct Totals {
    pub events: u64,
    pub results: u64,
    pub spilled: u64,
    pub write_failures: u64,
    pub artifact_reads: u64,
    pub raw_chars: u64,
    pub inline_chars: u64,
    pub malformed_lines: u64,
}

/// Items: one per tool, noisiest (most raw characters) first.
#[derive(Debug, Default)]
pub struct MetricsSummary {
    tools: BTreeMap<String, ToolStats>,
    totals: Totals,
}

impl Reducer for MetricsSummary {
    type Item = ToolStats;
    type Stats = Totals;

    fn record(&mut self, record: &Record<'_>, _out: &mut dyn Emit<ToolStats>) -> Flow {
        if record.text.trim().is_empty() {
            return Flow::Continue;
        }
        let Ok(event) = serde_json::from_str::<MetricsEvent>(record.text) else {
            self.totals.malformed_lines += 1;
            return Flow::Continue;
        };
        self.totals.events += 1;
        let name = if self.tools.len() < MAX_TOOLS || self.tools.contains_key(&event.tool) {
            event.tool.clone()
        } else {
            "(other)".to_string()
        };
        let tool = self.tools.entry(name.clone()).or_insert_with(|| ToolStats {
            tool: name,
            ..ToolStats::default()
        });
        if event.event == "artifact_read" {
            tool.artifact_reads += 1;
            self.totals.artifact_reads += 1;
            return Flow::Continue;
        }
        let spilled = u64::from(event.persisted);
        let failed = u64::from(event.artifact_error.is_some());
        tool.results += 1;
        tool.raw_chars += event.raw_chars;
        tool.inline_chars += event.inline_chars;
        tool.spilled += spilled;
        tool.write_failures += failed;
        self.totals.results += 1;
        self.totals.raw_chars += event.raw_chars;
        self.totals.inline_chars += event.inline_chars;
        self.totals.spilled += spilled;
        self.totals.write_failures += failed;
        Flow::Continue
    }

    fn finish(&mut self, out: &mut dyn Emit<ToolStats>) -> Outcome<Totals> {
        let mut tools: Vec<ToolStats> = std::mem::take(&mut self.tools).into_values().collect();
        tools.sort_by(|a, b| {
            b.raw_chars
                .cmp(&a.raw_chars)
                .then_with(|| a.tool.cmp(&b.tool))
        });
        let t = &self.totals;
        let noisiest = tools
            .first()
            .map(|top| {
                format!(
                    "; noisiest: {} ({} raw chars in {})",
                    top.tool,
                    top.raw_chars,
                    plural(top.results, "result")
                )
            })
            .unwrap_or_default();
        let summary = format!(
            "{}, {} spilled, {}, {}{noisiest}",
            plural(t.results, "result"),
            t.spilled,
            plural(t.write_failures, "artifact write failure"),
            plural(t.artifact_reads, "artifact read")
        );
        for tool in tools {
            out.emit(0, tool);
        }
        let mut outcome = Outcome::new(summary, self.totals.clone());
        if t.malformed_lines > 0 {
            outcome.warnings.push(briefly_core::counted(
                t.malformed_lines,
                "line is not a metrics event",
                "lines are not metrics events",
            ));
        }
        outcome
    }
}

pub fn run(session: &Session, path: &Path) -> Result<i32> {
    let mut file = open_file(path)?;
    // The file is the artifact: by its absolute path, a cursor pages it from anywhere.
    let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let existing = Artifacts::Existing {
        path,
        sha256: String::new(),
    };
    let config = session.config("stats", serde_json::Value::Null, existing);
    let mut pipeline = Pipeline::new(MetricsSummary::default(), config);
    super::pump(&mut file, &mut pipeline, session)?;
    session.print(&pipeline.finish(End::default()))?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use briefly_core::{reduce, RunConfig};

    #[test]
    fn ranks_the_noisiest_and_counts_failures_and_reads() {
        let lines = [
            r#"{"event":"tool_result_budget","tool":"spill","tool_call_id":null,"raw_chars":100,"inline_chars":100,"estimated_raw_tokens":25,"threshold_chars":19660,"persisted":false,"artifact":null,"duration_ms":1}"#,
            r#"{"event":"tool_result_budget","tool":"run:pytest","tool_call_id":"a","raw_chars":900000,"inline_chars":1800,"estimated_raw_tokens":225000,"threshold_chars":19660,"persisted":true,"artifact":"/x","duration_ms":9}"#,
            r#"{"event":"tool_result_budget","tool":"spill","tool_call_id":null,"raw_chars":50000,"inline_chars":1700,"estimated_raw_tokens":12500,"threshold_chars":19660,"persisted":false,"artifact":null,"duration_ms":1,"artifact_error":"disk full"}"#,
            r#"{"event":"artifact_read","tool":"read","tool_call_id":null,"raw_chars":900000,"inline_chars":19000,"estimated_raw_tokens":0,"threshold_chars":19660,"persisted":false,"artifact":"/x","duration_ms":3}"#,
            "not json",
        ];
        let input = lines.join("\n");
        let envelope = reduce(
            MetricsSummary::default(),
            input.as_bytes(),
            &RunConfig::new("stats"),
        )
        .unwrap();
        assert_eq!(envelope.items[0]["tool"], "run:pytest");
        assert_eq!(envelope.items[1]["tool"], "spill");
        assert_eq!(envelope.items[1]["write_failures"], 1);
        assert_eq!(envelope.stats["spilled"], 1);
        assert_eq!(envelope.stats["artifact_reads"], 1);
        assert_eq!(envelope.stats["malformed_lines"], 1);
        assert_eq!(
            envelope.summary,
            "3 results, 1 spilled, 1 artifact write failure, 1 artifact read; noisiest: run:pytest (900000 raw chars in 1 result)"
        );
        assert_eq!(envelope.warnings, ["1 line is not a metrics event"]);
    }
}
