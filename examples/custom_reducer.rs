//! A reducer of your own, behind briefly's budget stage.
//!
//! Counts HTTP status codes in an access log and keeps the 5xx lines as evidence,
//! newest first. Run it with:
//!
//! ```sh
//! printf 'GET / 200\nGET /a 503\nGET /b 200\n' | cargo run --example custom_reducer
//! ```

use briefly_core::{
    reduce, ArtifactDir, Artifacts, Emit, Flow, Outcome, Record, Reducer, RunConfig,
};
use serde::Serialize;
use std::collections::BTreeMap;

/// Keeps memory bounded: a map from status code (at most 1,000 keys) to a count.
#[derive(Default)]
struct StatusCodes {
    counts: BTreeMap<u16, u64>,
}

#[derive(Serialize)]
struct ServerError {
    line: u64,
    text: String,
}

impl Reducer for StatusCodes {
    type Item = ServerError;
    type Stats = BTreeMap<u16, u64>;

    fn record(&mut self, record: &Record<'_>, out: &mut dyn Emit<ServerError>) -> Flow {
        let status = record
            .text
            .split_whitespace()
            .filter_map(|w| w.parse::<u16>().ok())
            .find(|s| (100..600).contains(s));
        if let Some(status) = status {
            *self.counts.entry(status).or_default() += 1;
            if status >= 500 {
                // Lower ranks come first: the newest 5xx line leads.
                let rank = u64::MAX - record.line;
                if out.wants(rank) {
                    out.emit(
                        rank,
                        ServerError {
                            line: record.line,
                            text: record.text.to_string(),
                        },
                    );
                } else {
                    out.skip(rank);
                }
            }
        }
        Flow::Continue
    }

    fn finish(&mut self, _out: &mut dyn Emit<ServerError>) -> Outcome<Self::Stats> {
        let errors: u64 = self.counts.range(500..).map(|(_, n)| n).sum();
        let mut outcome = Outcome::new(format!("{errors} server errors"), self.counts.clone());
        outcome.ok = errors == 0;
        outcome
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut config = RunConfig::new("status-codes");
    // Keep the raw log when anything is left out, as the briefly binary does.
    config.artifacts = Artifacts::Tee {
        dir: ArtifactDir::open(ArtifactDir::default_path())?,
        id: None,
        keep: false,
        argv: std::env::args().collect(),
    };
    let envelope = reduce(StatusCodes::default(), std::io::stdin().lock(), &config)?;
    println!("{}", envelope.to_json());
    Ok(())
}
