//! One module per command.

pub mod artifacts;
pub mod budget;
pub mod context;
pub mod run;
pub mod spill;
pub mod stats;
pub mod table;
pub mod text;
pub mod turn;

use crate::session::Session;
use anyhow::{bail, Context, Result};
use briefly_core::{End, Push};
use std::fs::File;
use std::io::{ErrorKind, Read};
use std::path::Path;

/// Chunk size for reading input.
pub const CHUNK: usize = 256 * 1024;

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

/// Reads the rest of `input` into `pipeline`, prints the envelope and records the
/// metrics event: the end of every reducer command that reads fresh input.
pub fn reduce_input(
    session: &Session,
    tool: &str,
    mut pipeline: Box<dyn Push>,
    input: &mut dyn Read,
) -> Result<i32> {
    pump(input, pipeline.as_mut())?;
    let warnings = session.budget_warning.iter().cloned().collect();
    let envelope = pipeline.finish(End {
        warnings,
        ..End::default()
    });
    let printed = session.print(&envelope)?;
    session.metrics(session.result_event(tool, &envelope, printed));
    Ok(0)
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
    let spec = crate::reducers::find(name).expect("a built-in reducer");
    let artifacts = session.tee(session.global.id.clone(), input_argv(file));
    let config = session.config(name, options.clone(), artifacts);
    let pipeline = (spec.build)(&options, config).map_err(anyhow::Error::msg)?;
    reduce_input(session, name, pipeline, &mut input)
}

/// What a reducer command records as its argv in the sidecar: the file it read, if any.
pub fn input_argv(file: Option<&Path>) -> Vec<String> {
    file.map(|f| vec![f.display().to_string()])
        .unwrap_or_default()
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

/// Characters in UTF-8 bytes (each invalid byte counts as one), as the budget counts them.
pub fn count_chars(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b & 0xC0 != 0x80).count()
}
