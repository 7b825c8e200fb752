//! One module per command.

pub mod artifacts;
pub mod budget;
pub mod context;
pub mod logs;
pub mod rows;
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

/// `file`, or standard input when `None` or `-` ([`named_file`]).
pub fn open_input(file: Option<&Path>) -> Result<Box<dyn Read>> {
    match named_file(file) {
        None => Ok(Box::new(std::io::stdin().lock())),
        Some(path) => Ok(Box::new(open_file(path)?)),
    }
}

/// The file a FILE argument names: none for `-`, which names standard input as it does
/// for `cat` and `grep` (a file named `-` is read as `./-`).
pub fn named_file(file: Option<&Path>) -> Option<&Path> {
    file.filter(|path| *path != Path::new("-"))
}

/// Whether `path` is a regular file that opens as a JUnit XML report does
/// ([`briefly_testrun::junit::is_junit_report`]). A pipe is not read here: its bytes
/// would be lost to the reducer.
pub fn is_junit_file(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 256];
    path.is_file()
        && File::open(path)
            .and_then(|mut file| file.read(&mut head))
            .is_ok_and(|n| briefly_testrun::junit::is_junit_report(&head[..n]))
}

/// Whether `path` names a stream, which cannot be read twice nor out of order (a pipe:
/// `<(cmd)`, `/dev/stdin`): neither a file nor a directory.
pub fn is_stream(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|meta| !meta.is_file() && !meta.is_dir())
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

impl Reply {
    /// A reducer command's `envelope`, of no command that exited (`exit_code` 0).
    pub fn of(tool: &str, envelope: Envelope) -> Reply {
        Reply {
            envelope,
            exit_code: 0,
            event: Event::Result(tool.to_string()),
        }
    }
}

/// The kind of metrics event a reply records.
pub enum Event {
    /// A result that went through the budget stage, by the tool that made it.
    Result(String),
    /// A result read back from an artifact (`page`, `read`, `grep`).
    ArtifactRead { tool: String, artifact: String },
}

impl Reply {
    /// Prints the envelope, records the metrics event, returns the exit code: also when
    /// nobody reads stdout any more, quietly (`briefly run -- make | true` keeps make's),
    /// the event then showing nothing inline.
    pub fn print(self, session: &Session) -> Result<i32> {
        let shown = match session.print(&self.envelope) {
            Ok(printed) => printed,
            Err(e) if is_broken_pipe(&e) => 0,
            Err(e) => return Err(e),
        };
        self.record(session, shown);
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
    pipeline: Box<dyn Push>,
    input: &mut dyn Read,
) -> Result<Reply> {
    reduce_warned(session, tool, pipeline, input, Vec::new())
}

/// [`reduce_reply`] for a command with `warnings` of its own, which the budget stage
/// fits with the rest.
pub fn reduce_warned(
    session: &Session,
    tool: &str,
    mut pipeline: Box<dyn Push>,
    input: &mut dyn Read,
    mut warnings: Vec<String>,
) -> Result<Reply> {
    pump(input, pipeline.as_mut(), session)?;
    warnings.extend(session.budget_warning.iter().cloned());
    let envelope = pipeline.finish(End {
        warnings,
        ..End::default()
    });
    Ok(Reply::of(tool, envelope))
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

/// A closed stdout (the reader went away) is not an error: briefly exits quietly.
pub fn is_broken_pipe(error: &anyhow::Error) -> bool {
    let broken = Some(std::io::ErrorKind::BrokenPipe);
    error.chain().any(|cause| {
        cause.downcast_ref::<std::io::Error>().map(|e| e.kind()) == broken
            // serde_json's writer holds its io::Error out of the chain.
            || cause
                .downcast_ref::<serde_json::Error>()
                .and_then(serde_json::Error::io_error_kind)
                == broken
    })
}

/// Reads `input` to its end into `push`, or until the session's call is cancelled (an
/// MCP client gave up on it: an endless input, `/dev/zero`, would be read for ever).
pub fn pump(input: &mut dyn Read, push: &mut dyn Push, session: &Session) -> Result<()> {
    let mut buf = vec![0u8; CHUNK];
    loop {
        if session.cancel.as_ref().is_some_and(|c| c.is_cancelled()) {
            bail!("the call was cancelled: its input was read no further");
        }
        match input.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => push.push(&buf[..n]),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e).context("reading input"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer whose reader went away.
    struct Closed;

    impl std::io::Write for Closed {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_closed_stdout_is_told_apart_through_serde_json_too() {
        let io = anyhow::Error::from(std::io::Error::from(std::io::ErrorKind::BrokenPipe));
        assert!(is_broken_pipe(&io));
        let json = serde_json::to_writer(Closed, &serde_json::json!({"a": 1})).unwrap_err();
        assert!(is_broken_pipe(
            &anyhow::Error::from(json).context("printing")
        ));
        let other = serde_json::from_str::<u8>("x").unwrap_err();
        assert!(!is_broken_pipe(&anyhow::Error::from(other)));
    }
}
