//! `briefly table`: a table's shape, schema, column statistics and rows.

use super::{open_file, reduce_named, Reply};
use crate::session::Session;
use anyhow::{bail, Context, Result};
use briefly_core::{ArtifactMeta, Artifacts, End, Envelope};
use briefly_table::{Fingerprint, InputFormat, TableOptions};
use std::io::Read;
use std::path::{Path, PathBuf};

/// `--input-format`'s value.
pub fn input_format(name: &str) -> Result<InputFormat> {
    Ok(match name {
        "parquet" => InputFormat::Parquet,
        "arrow" | "ipc" | "feather" => InputFormat::Arrow,
        "arrow-stream" | "ipc-stream" => InputFormat::ArrowStream,
        "csv" => InputFormat::Csv,
        "tsv" => InputFormat::Tsv,
        _ => bail!("--input-format {name:?}: expected parquet, arrow, arrow-stream, csv or tsv"),
    })
}

/// Standard input streams through the pipeline with its tee, but for a Parquet or Arrow
/// IPC file, which is saved as an artifact first and read from there; a file is read by
/// the reducer itself ([`file_reply`]).
pub fn run(session: &Session, file: Option<&Path>, options: TableOptions) -> Result<i32> {
    match super::named_file(file) {
        None => streamed(
            session,
            "standard input",
            &mut std::io::stdin().lock(),
            options,
        ),
        // A pipe named as the file (`<(cat t.csv)`) is read once, as standard input is.
        Some(path) if super::is_stream(path) => {
            let name = path.display().to_string();
            streamed(session, &name, &mut super::open_file(path)?, options)
        }
        Some(path) => file_reply(session, path, options)?.print(session),
    }
}

/// A table read once, from standard input or a pipe: streamed, or saved first when it
/// must be read out of order.
fn streamed(
    session: &Session,
    name: &str,
    input: &mut dyn Read,
    options: TableOptions,
) -> Result<i32> {
    let mut head = Vec::with_capacity(MAGIC_BYTES);
    input
        .take(MAGIC_BYTES as u64)
        .read_to_end(&mut head)
        .with_context(|| format!("cannot read {name}"))?;
    if needs_random_access(&head, options.input_format) {
        let saved = save_input(session, &head, input)?;
        let envelope = saved_envelope(session, &saved, options, ended(session))?;
        return Reply::of("table", envelope).print(session);
    }
    let options = serde_json::to_value(options)?;
    let mut input = std::io::Cursor::new(head).chain(input);
    reduce_named(session, "table", options, &mut input, Vec::new())?.print(session)
}

/// The end of a reduction with no command: the session's own warnings.
fn ended(session: &Session) -> End {
    End {
        warnings: session.budget_warning.iter().cloned().collect(),
        ..End::default()
    }
}

/// Bytes that tell a Parquet (`PAR1`) or Arrow IPC file (`ARROW1`) by its start.
const MAGIC_BYTES: usize = 6;

/// Whether input that starts with `head` is a file that must be read out of order.
pub fn needs_random_access(head: &[u8], forced: Option<InputFormat>) -> bool {
    match forced {
        Some(format) => matches!(format, InputFormat::Parquet | InputFormat::Arrow),
        None => head.starts_with(b"PAR1") || head.starts_with(b"ARROW1"),
    }
}

/// Saves standard input (`head` already read, then the rest) as an artifact: a file to
/// read in any order, and what cursors page through.
fn save_input(session: &Session, head: &[u8], rest: &mut dyn Read) -> Result<PathBuf> {
    let unavailable = "a Parquet or Arrow IPC file on standard input is read from a copy in the artifact directory";
    let dir = session.artifact_dir().context(unavailable)?;
    let mut writer = dir
        .create(session.global.id.as_deref())
        .context(unavailable)?;
    writer.write(head).context(unavailable)?;
    let mut buffer = vec![0; 64 * 1024];
    loop {
        match rest.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => writer.write(&buffer[..n]).context(unavailable)?,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e).context("cannot read standard input"),
        }
    }
    let meta = ArtifactMeta {
        source: "table".into(),
        id: session.global.id.clone(),
        argv: vec!["-".into()],
        ..ArtifactMeta::default()
    };
    Ok(writer.save(meta).context(unavailable)?.path)
}

/// The table at `path`, read by the reducer itself (Parquet by row group) and its own
/// artifact: a cursor carries its size and mtime, so a page of a file that changed is
/// refused.
pub fn file_reply(session: &Session, path: &Path, options: TableOptions) -> Result<Reply> {
    let envelope = file_envelope(session, path, options, ended(session))?;
    Ok(Reply::of("table", envelope))
}

/// The table in `saved`, a copy briefly made of its input (standard input, a command's
/// output): the copy is kept only when the result leaves some of it out, as every input
/// is.
pub fn saved_envelope(
    session: &Session,
    saved: &Path,
    options: TableOptions,
    end: End,
) -> Result<Envelope> {
    let envelope = file_envelope(session, saved, options, end)?;
    if !envelope.truncated && !session.global.keep {
        let _ = std::fs::remove_file(briefly_core::sidecar_path(saved));
        let _ = std::fs::remove_file(saved);
    }
    Ok(envelope)
}

/// [`file_reply`]'s envelope, with `end` added.
fn file_envelope(
    session: &Session,
    path: &Path,
    mut options: TableOptions,
    end: End,
) -> Result<Envelope> {
    open_file(path)?;
    let path =
        std::fs::canonicalize(path).with_context(|| format!("cannot read {}", path.display()))?;
    options.fingerprint = Some(Fingerprint::of(&path)?);
    let options = serde_json::to_value(options)?;
    let config = session.config(
        "table",
        options.clone(),
        Artifacts::Existing {
            path: path.clone(),
            sha256: String::new(),
        },
    );
    let spec = crate::reducers::find("table").expect("a built-in reducer");
    let pipeline = (spec.build)(&options, config).map_err(anyhow::Error::msg)?;
    Ok(pipeline.finish(end))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_access_by_the_magic_bytes_unless_the_format_is_given() {
        assert!(needs_random_access(b"PAR1\x15\x04", None));
        assert!(needs_random_access(b"ARROW1", None));
        assert!(!needs_random_access(b"a,b\n1,", None));
        assert!(!needs_random_access(b"\xff\xff\xff\xff", None));
        assert!(needs_random_access(b"a,b", Some(InputFormat::Parquet)));
        assert!(needs_random_access(b"", Some(InputFormat::Arrow)));
        assert!(!needs_random_access(b"PAR1", Some(InputFormat::Csv)));
        assert!(!needs_random_access(
            b"ARROW1",
            Some(InputFormat::ArrowStream)
        ));
    }
}
