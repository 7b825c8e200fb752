//! `briefly table`: a table's shape, schema, column statistics and rows.

use super::{open_file, reduce_file, reduce_reply, Reply};
use crate::session::Session;
use anyhow::{bail, Context, Result};
use briefly_core::Artifacts;
use briefly_table::{Fingerprint, InputFormat, TableOptions};
use std::path::Path;

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

/// Standard input streams through the pipeline with its tee; a file is read by the
/// reducer itself ([`file_reply`]).
pub fn run(session: &Session, file: Option<&Path>, options: TableOptions) -> Result<i32> {
    match super::named_file(file) {
        None => reduce_file(session, "table", serde_json::to_value(options)?, None),
        Some(path) => file_reply(session, path, options)?.print(session),
    }
}

/// The table at `path`, read by the reducer itself (Parquet by row group) and its own
/// artifact: a cursor carries its size and mtime, so a page of a file that changed is
/// refused.
pub fn file_reply(session: &Session, path: &Path, mut options: TableOptions) -> Result<Reply> {
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
    reduce_reply(session, "table", pipeline, &mut std::io::empty())
}
