//! `briefly spill`: any tool output, unchanged within the budget, else a preview.

use super::{input_argv, open_input, reduce_input, CHUNK};
use crate::session::Session;
use anyhow::{Context, Result};
use briefly_core::{ArtifactMeta, Pipeline, Push};
use briefly_plain::{Spill, SpillOptions};
use std::io::{ErrorKind, Read, Write};
use std::path::Path;

pub fn run(session: &Session, file: Option<&Path>) -> Result<i32> {
    let mut input = open_input(file)?;
    let cap = session.budget.per_result_chars;
    // Hold the input until it is known to be over the cap: at most cap characters.
    let mut held = Vec::new();
    let mut chars = 0;
    let mut buf = vec![0u8; CHUNK];
    let ended = loop {
        let n = match input.read(&mut buf) {
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e).context("reading input"),
        };
        if n == 0 {
            break true;
        }
        held.extend_from_slice(&buf[..n]);
        chars += briefly_core::count_chars(&buf[..n]) as usize;
        if chars > cap {
            break false;
        }
    };
    if ended && fits_unchanged(session, &held, chars) {
        let mut stdout = std::io::stdout().lock();
        stdout.write_all(&held)?;
        stdout.flush()?;
        let mut event =
            session.result_event("spill", &briefly_core::Envelope::new("spill", ""), chars);
        event.raw_chars = chars as u64;
        if session.global.keep {
            // Nothing was left out, but the artifact was asked for: the output is the
            // input itself, so its path goes to stderr and the metrics.
            let saved = keep(session, &held, file)?;
            say!("briefly: kept {}", saved.display());
            event.persisted = true;
            event.artifact = Some(saved.display().to_string());
        }
        session.metrics(event);
        return Ok(0);
    }

    let options = SpillOptions::default();
    let artifacts = session.tee(session.global.id.clone(), input_argv(file));
    let mut config = session.config("spill", serde_json::to_value(options)?, artifacts);
    config.items_chars = Some(session.budget.preview_chars);
    let mut pipeline: Box<dyn Push> = Box::new(Pipeline::new(Spill::new(options), config));
    pipeline.push(&held);
    drop(held);
    reduce_input(session, "spill", pipeline, &mut input)
}

fn fits_unchanged(session: &Session, held: &[u8], chars: usize) -> bool {
    chars <= session.budget.per_result_chars
        && (!session.tokenizer.is_exact()
            || session.tokenizer.count(&String::from_utf8_lossy(held))
                <= session.budget.per_result_chars / 4)
}

fn keep(session: &Session, held: &[u8], file: Option<&Path>) -> Result<std::path::PathBuf> {
    let mut writer = session
        .artifact_dir()?
        .create(session.global.id.as_deref())?;
    writer.write(held).context("writing the artifact")?;
    let meta = ArtifactMeta {
        source: "spill".into(),
        id: session.global.id.clone(),
        argv: input_argv(file),
        lines: held.iter().filter(|&&b| b == b'\n').count() as u64,
        ..ArtifactMeta::default()
    };
    Ok(writer.save(meta)?.path)
}
