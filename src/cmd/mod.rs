//! One module per command.

pub mod artifacts;
pub mod budget;
pub mod context;
pub mod logs;
pub mod run;
pub mod spill;
pub mod stats;
mod stderr;
pub mod table;
pub mod text;
pub mod turn;

use crate::session::Session;
use anyhow::{bail, Context, Result};
use briefly_core::{End, Envelope, MetricsEvent, Push};
use std::fs::File;
use std::io::{ErrorKind, Read};
use std::path::Path;

/// Chunk size for reading input: small enough that a chunk stays in the cache while it
/// is teed, counted and framed after the read. By benches/ab.sh, against 256 KiB: `text`
/// ~10% and `pytest` ~5% faster, `docker` the same (64 KiB made docker ~15% slower).
pub const CHUNK: usize = 128 * 1024;

/// `file`, or standard input when `None`.
pub fn open_input(file: Option<&Path>) -> Result<Box<dyn Read>> {
    match file {
        None => Ok(Box::new(std::io::stdin().lock())),
        Some(path) => Ok(Box::new(open_file(path)?)),
    }
}

/// Opens a file to read, with an error that names it.
pub fn open_file(path: &Path) -> Result<File> {
    if path.is_dir() {
        bail!("cannot read {}: it is a directory", path.display());
    }
    File::open(path).with_context(|| format!("cannot read {}", path.display()))
}

/// What a command answers: its envelope, the exit code the command line returns, and
/// what its metrics event records. The command line prints it ([`Reply::print`]); the
/// MCP server returns it as a tool result.
pub struct Reply {
    pub envelope: Envelope,
    pub exit_code: i32,
    pub event: Event,
}

/// The kind of metrics event a reply records.
pub enum Event {
    /// A result that went through the budget stage, by the tool that made it.
    Result(String),
    /// A result read back from an artifact (`page`, `read`, `grep`).
    ArtifactRead { tool: String, artifact: String },
}

impl Reply {
    /// Prints the envelope, records the metrics event, returns the exit code.
    pub fn print(self, session: &Session) -> Result<i32> {
        let printed = session.print(&self.envelope)?;
        self.record(session, printed);
        Ok(self.exit_code)
    }

    /// Records the metrics event for the envelope as shown in `shown_chars` characters.
    pub fn record(&self, session: &Session, shown_chars: usize) {
        let event = match &self.event {
            Event::Result(tool) => session.result_event(tool, &self.envelope, shown_chars),
            Event::ArtifactRead { tool, artifact } => MetricsEvent {
                event: "artifact_read".into(),
                tool: tool.clone(),
                raw_chars: self.envelope.raw.chars,
                inline_chars: shown_chars as u64,
                persisted: false,
                artifact: Some(artifact.clone()),
                ..MetricsEvent::default()
            },
        };
        session.metrics(event);
    }
}

/// Reads the rest of `input` into `pipeline`, prints the envelope and records the
/// metrics event: the end of every reducer command that reads fresh input.
pub fn reduce_input(
    session: &Session,
    tool: &str,
    pipeline: Box<dyn Push>,
    input: &mut dyn Read,
) -> Result<i32> {
    reduce_reply(session, tool, pipeline, input)?.print(session)
}

/// Reads the rest of `input` into `pipeline`: the reply of a reducer over fresh input.
pub fn reduce_reply(
    session: &Session,
    tool: &str,
    mut pipeline: Box<dyn Push>,
    input: &mut dyn Read,
) -> Result<Reply> {
    pump(input, pipeline.as_mut())?;
    let warnings = session.budget_warning.iter().cloned().collect();
    let envelope = pipeline.finish(End {
        warnings,
        ..End::default()
    });
    Ok(Reply {
        envelope,
        exit_code: 0,
        event: Event::Result(tool.to_string()),
    })
}

/// The whole of a reducer command: the reducer named `name`, built from `options` as a
/// cursor would rebuild it, over `file` or standard input.
pub fn reduce_file(
    session: &Session,
    name: &str,
    options: serde_json::Value,
    file: Option<&Path>,
) -> Result<i32> {
    let mut input = open_input(file)?;
    reduce_named(session, name, options, &mut input, input_argv(file))?.print(session)
}

/// The reducer named `name`, built from `options`, over `input`; `argv` goes to the
/// artifact's sidecar.
pub fn reduce_named(
    session: &Session,
    name: &str,
    options: serde_json::Value,
    input: &mut dyn Read,
    argv: Vec<String>,
) -> Result<Reply> {
    let spec = crate::reducers::find(name)
        .ok_or_else(|| anyhow::anyhow!("briefly has no reducer {name:?}"))?;
    let artifacts = session.tee(session.global.id.clone(), argv);
    let config = session.config(name, options.clone(), artifacts);
    let pipeline = (spec.build)(&options, config).map_err(anyhow::Error::msg)?;
    reduce_reply(session, name, pipeline, input)
}

/// What a reducer command records as its argv in the sidecar: the file it read, if any.
pub fn input_argv(file: Option<&Path>) -> Vec<String> {
    file.map(|f| vec![f.display().to_string()])
        .unwrap_or_default()
}

/// For a command whose items are a table it makes itself (no input to keep as an
/// artifact, no cursor to page): its last rows give way until the envelope fits the
/// per-result budget, and a warning says how many of the `what` were left out. The
/// items are then the rows listed (`total_items`), as asked of a smaller table: with no
/// artifact and no cursor, the result cannot say `truncated`.
pub fn fit_rows(session: &Session, envelope: &mut Envelope, what: &str) {
    let render = session.renderer();
    let budget = session.budget.per_result_chars;
    let fits = |envelope: &Envelope| render(envelope).chars().count() <= budget;
    if envelope.items.is_empty() || fits(envelope) {
        return;
    }
    let rows = std::mem::take(&mut envelope.items);
    envelope.warnings.push(String::new());
    let with = |envelope: &mut Envelope, k: usize| {
        envelope.items = rows[..k].to_vec();
        envelope.returned_items = k as u64;
        envelope.total_items = k as u64;
        *envelope.warnings.last_mut().expect("pushed") = format!(
            "{} of {} {what} left out to fit the per-result budget of {budget} chars",
            rows.len() - k,
            rows.len()
        );
    };
    // The most rows that fit (a row fewer, the warning's count a digit shorter at most).
    let (mut lo, mut hi) = (0, rows.len() - 1);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        with(envelope, mid);
        if fits(envelope) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    with(envelope, lo);
}

/// Reads `input` to its end into `push`.
pub fn pump(input: &mut dyn Read, push: &mut dyn Push) -> Result<()> {
    let mut buf = vec![0u8; CHUNK];
    loop {
        match input.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => push.push(&buf[..n]),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e).context("reading input"),
        }
    }
}
