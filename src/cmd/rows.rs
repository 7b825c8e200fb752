//! Rows a command lists itself (`budget`'s table of windows, `context measure`'s
//! largest messages), put through the budget stage as any reducer's items are: the stage
//! alone decides which fit, keeps all of them as an artifact when some are left out, and
//! pages the rest.

use super::Reply;
use crate::session::Session;
use anyhow::Result;
use briefly_core::{Emit, Flow, Outcome, Preview, Raw, Record, Reducer};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What a command says of its rows, and what they were made from: kept in the cursor, so
/// that a page says the same.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct RowsOptions {
    /// The envelope's summary.
    pub summary: String,
    /// The envelope's stats.
    pub stats: Value,
    /// The input the rows were made from (a history file), if any: the envelope's `raw`.
    pub raw: Raw,
}

/// Items: each line of the input, a JSON value, in order.
#[derive(Debug, Clone)]
pub struct Rows {
    options: RowsOptions,
}

impl Rows {
    /// A reducer that lists its input's rows, under `options`' summary and stats.
    pub fn new(options: RowsOptions) -> Rows {
        Rows { options }
    }
}

impl Reducer for Rows {
    type Item = Value;
    type Stats = Value;

    fn record(&mut self, record: &Record<'_>, out: &mut dyn Emit<Value>) -> Flow {
        if out.wants(0) {
            // Rows are briefly's own JSON; a line that is not (an artifact edited) is
            // shown as the text it is.
            let row = serde_json::from_str(record.text)
                .unwrap_or_else(|_| Value::String(record.text.to_string()));
            out.emit(0, row);
        } else {
            out.skip(0);
        }
        Flow::Continue
    }

    fn finish(&mut self, _out: &mut dyn Emit<Value>) -> Outcome<Value> {
        Outcome {
            preview: Preview::Summary,
            complete: true,
            ..Outcome::new(self.options.summary.clone(), self.options.stats.clone())
        }
    }

    fn raw(&self) -> Option<Raw> {
        Some(self.options.raw)
    }
}

/// The reply of the command `source`: `rows` as its items under the budget stage, with
/// `options`' summary and stats, and `warnings` of its own.
pub fn reduce_rows(
    session: &Session,
    source: &str,
    options: RowsOptions,
    rows: impl IntoIterator<Item = Value>,
    warnings: Vec<String>,
) -> Result<Reply> {
    let mut input = Vec::new();
    for row in rows {
        serde_json::to_writer(&mut input, &row)?;
        input.push(b'\n');
    }
    let spec = crate::reducers::find(source).expect("a built-in reducer");
    let options = serde_json::to_value(options)?;
    let artifacts = session.tee(session.global.id.clone(), Vec::new());
    let config = session.config(source, options.clone(), artifacts);
    let pipeline = (spec.build)(&options, config).map_err(anyhow::Error::msg)?;
    super::reduce_warned(session, source, pipeline, &mut input.as_slice(), warnings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use briefly_core::RunConfig;
    use serde_json::json;

    #[test]
    fn rows_are_the_items_in_order_under_the_commands_summary_and_stats() {
        let options = RowsOptions {
            summary: "two windows".into(),
            stats: json!({"current": 1}),
            raw: Raw {
                bytes: 42,
                ..Raw::default()
            },
        };
        let input = b"{\"n\":1}\nnot json\n{\"n\":2}\n";
        let envelope = briefly_core::testkit::reduce_all_chunkings(
            || Rows::new(options.clone()),
            input,
            &RunConfig::new("budget"),
        );
        assert_eq!(
            envelope.items,
            [json!({"n": 1}), json!("not json"), json!({"n": 2})]
        );
        assert_eq!(envelope.summary, "two windows");
        assert_eq!(envelope.stats, json!({"current": 1}));
        assert_eq!(envelope.raw.bytes, 42, "what the rows were made from");
        assert!(!envelope.truncated);
    }
}
