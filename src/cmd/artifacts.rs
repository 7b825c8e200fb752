//! Commands over artifacts: `page`, `read`, `grep` and `gc`. None of them spills: their
//! input is an artifact already.

use super::{open_file, pump, Event, Reply};
use crate::reducers::{self, ReducerSpec};
use crate::session::Session;
use anyhow::{anyhow, bail, Result};
use briefly_core::{
    parse_duration, sidecar_path, ArtifactMeta, Artifacts, Budget, Cursor, End, Envelope,
};
use briefly_plain::{piece_chars_for, GrepOptions, LinesOptions};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// `briefly page CURSOR`.
pub fn page(session: &Session, text: &str) -> Result<i32> {
    page_reply(session, text)?.print(session)
}

/// The page a cursor names.
pub fn page_reply(session: &Session, text: &str) -> Result<Reply> {
    let cursor = Cursor::decode(text)?;
    let spec = reducers::find(&cursor.reducer).ok_or_else(|| {
        anyhow!(
            "the cursor names reducer {:?}, which this briefly does not have",
            cursor.reducer
        )
    })?;
    let path = PathBuf::from(&cursor.artifact);
    let mut warnings = Vec::new();
    let meta = read_sidecar(&path);
    match &meta {
        Some(meta) if !meta.sha256.starts_with(&cursor.sha256) || rewritten(&path, meta) => {
            warnings.push(
                "the artifact changed since the cursor was made: this page may not follow the last"
                    .into(),
            )
        }
        // A file of the user's (no sidecar): its fingerprint then and now.
        None if cursor.sha256.starts_with(FINGERPRINT)
            && fingerprint(&path).as_deref() != Some(cursor.sha256.as_str()) =>
        {
            warnings.push(
                "the file changed since the cursor was made (its size or modification time): this page may not follow the last"
                    .into(),
            )
        }
        None if cursor.sha256.starts_with(FINGERPRINT) => {}
        None if !cursor.sha256.is_empty() => {
            warnings.push("the artifact's sidecar is missing: cannot check it is unchanged".into())
        }
        _ => {}
    }
    // A page of a command's output is of a command that exited so (`run`'s sidecar).
    let exit_code = meta.as_ref().and_then(|m| m.exit_code);
    let ended_by = meta.as_ref().and_then(|m| m.ended_by.clone());
    let mut config = session.config(
        &cursor.reducer,
        cursor.options()?,
        Artifacts::Existing {
            path: path.clone(),
            sha256: meta.map(|m| m.sha256).unwrap_or(cursor.sha256.clone()),
        },
    );
    config.after = cursor.after;
    config.max_line_bytes = cursor.max_line_bytes;
    if !session.budget_given() {
        // A cursor is text anyone can edit: its budget no less than any other's.
        config.budget = Budget {
            per_result_chars: cursor.max_chars.max(briefly_core::MIN_RESULT_CHARS),
            ..config.budget
        };
    }
    if session.global.tokenizer.is_none() {
        config.tokenizer = cursor.tokenizer.parse()?;
    }
    let end = End {
        exit_code,
        ended_by,
        warnings,
        ..End::default()
    };
    reduce_artifact(
        session,
        spec,
        &path,
        config.options.clone(),
        config,
        end,
        "page",
    )
}

/// What opens a file's [`fingerprint`], where an artifact's cursor has its hash.
const FINGERPRINT: char = '~';

/// For a file briefly did not write (no sidecar, no hash): 16 characters that change
/// with its size, modification time or inode, for a cursor to notice that the file it
/// pages changed (a log that grew, a file written again) without reading it whole.
fn fingerprint(path: &std::path::Path) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(path).ok()?;
    let seen = format!(
        "{}:{}:{}:{}",
        meta.size(),
        meta.mtime(),
        meta.mtime_nsec(),
        meta.ino()
    );
    // FNV-1a: the same in every build, so a cursor pages in another one.
    let hash = seen.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    });
    Some(format!("{FINGERPRINT}{:015x}", hash >> 4))
}

/// Whether the artifact at `path` is not the file its sidecar `meta` describes: of
/// another size, or written after the sidecar (which is written once the artifact is
/// complete). Hashing it again would cost a pass over the whole artifact for every page.
fn rewritten(path: &Path, meta: &ArtifactMeta) -> bool {
    let Ok(file) = std::fs::metadata(path) else {
        return false;
    };
    let modified = |file: &std::fs::Metadata| file.modified().ok();
    let sidecar = std::fs::metadata(sidecar_path(path)).ok();
    file.len() != meta.bytes
        || matches!(
            (modified(&file), sidecar.as_ref().and_then(modified)),
            (Some(artifact), Some(sidecar)) if artifact > sidecar
        )
}

/// `briefly read ARTIFACT`; `-` reads standard input ([`from_stdin`]).
pub fn read(
    session: &Session,
    path: &Path,
    offset: u64,
    column: u64,
    limit: Option<u64>,
) -> Result<i32> {
    let options = read_options(session, offset, column, limit)?;
    named_or_stdin(session, "read", path, options)
}

/// Lines of an artifact from `offset` (its characters from `column`); a line too long
/// for a page comes in pieces that later pages go on with.
pub fn read_reply(
    session: &Session,
    path: &Path,
    offset: u64,
    column: u64,
    limit: Option<u64>,
) -> Result<Reply> {
    let options = read_options(session, offset, column, limit)?;
    existing(session, "read", path, options)
}

fn read_options(session: &Session, offset: u64, column: u64, limit: Option<u64>) -> Result<Value> {
    // A limit of none would give an empty page whose next offset is its own.
    if limit == Some(0) {
        bail!("the limit must be at least 1 line");
    }
    if offset == 0 {
        bail!("the offset counts from 1");
    }
    if column == 0 {
        bail!("the column counts from 1");
    }
    Ok(serde_json::to_value(LinesOptions {
        offset,
        column,
        limit,
        piece_chars: Some(piece_chars_for(session.budget.per_result_chars)),
    })?)
}

/// `briefly grep ARTIFACT PATTERN`; `-` reads standard input (as [`read`] does).
pub fn grep(
    session: &Session,
    path: &Path,
    pattern: &str,
    context: usize,
    ignore_case: bool,
) -> Result<i32> {
    let options = grep_options(pattern, context, ignore_case)?;
    named_or_stdin(session, "grep", path, options)
}

/// Lines of an artifact that match `pattern`.
pub fn grep_reply(
    session: &Session,
    path: &Path,
    pattern: &str,
    context: usize,
    ignore_case: bool,
) -> Result<Reply> {
    let options = grep_options(pattern, context, ignore_case)?;
    existing(session, "grep", path, options)
}

fn grep_options(pattern: &str, context: usize, ignore_case: bool) -> Result<Value> {
    let options = GrepOptions {
        pattern: pattern.to_string(),
        context,
        ignore_case,
    };
    briefly_plain::Grep::new(options.clone()).map_err(|e| anyhow!(e))?;
    Ok(serde_json::to_value(options)?)
}

/// `read PATH` and `grep PATH`: a file read in place, or, for `-` and a path that cannot
/// be read twice (a pipe: `<(kubectl logs …)`, `/dev/stdin`), a stream ([`streamed`]).
fn named_or_stdin(session: &Session, reducer: &str, path: &Path, options: Value) -> Result<i32> {
    let Some(path) = super::named_file(Some(path)) else {
        return streamed(session, reducer, "-", options, &mut std::io::stdin().lock());
    };
    // (Not a file here at all: `existing` looks in the artifact directory, or says so.)
    if super::is_stream(path) {
        let mut input = super::open_file(path)?;
        let name = path.display().to_string();
        return streamed(session, reducer, &name, options, &mut input);
    }
    existing(session, reducer, path, options)?.print(session)
}

/// `read` and `grep` of a stream, `input`: kept as an artifact whatever the page shows,
/// so that the next page (`--offset`) or another search has a file to read.
fn streamed(
    session: &Session,
    reducer: &str,
    name: &str,
    options: Value,
    input: &mut dyn std::io::Read,
) -> Result<i32> {
    let mut artifacts = session.tee(session.global.id.clone(), vec![name.into()]);
    if let Artifacts::Tee { keep, .. } = &mut artifacts {
        *keep = true;
    }
    let spec = reducers::find(reducer).expect("a built-in reducer");
    let mut config = session.config(reducer, options.clone(), artifacts);
    config.max_line_bytes = read_line_limit(session);
    let pipeline = (spec.build)(&options, config).map_err(|e| anyhow!(e))?;
    super::reduce_reply(session, reducer, pipeline, input)?.print(session)
}

/// The longest line `read` and `grep` take whole, unless `--max-line-bytes` says
/// otherwise: they are the way back to an artifact's bytes, and a minified JSON
/// document or a bundle is one line of megabytes. A line of more comes cut, as
/// elsewhere.
pub const READ_MAX_LINE_BYTES: usize = 16 << 20;

/// [`READ_MAX_LINE_BYTES`], or `--max-line-bytes` when given.
fn read_line_limit(session: &Session) -> usize {
    session.global.max_line_bytes.unwrap_or(READ_MAX_LINE_BYTES)
}

fn existing(session: &Session, reducer: &str, path: &Path, options: Value) -> Result<Reply> {
    // An artifact named alone (as a sidecar or a listing shows it): in the artifact
    // directory, when it is not a file here.
    let in_dir = match (path.parent(), session.artifact_dir()) {
        (Some(parent), Ok(dir)) if parent.as_os_str().is_empty() && !path.exists() => {
            Some(dir.path().join(path)).filter(|p| p.is_file())
        }
        _ => None,
    };
    let path = in_dir.as_deref().unwrap_or(path);
    // Cursors name the file: absolute, they page from any directory.
    let absolute = std::fs::canonicalize(path);
    let path = absolute.as_deref().unwrap_or(path);
    let spec = reducers::find(reducer).expect("a built-in reducer");
    let sha256 = read_sidecar(path)
        .map(|m| m.sha256)
        .or_else(|| fingerprint(path))
        .unwrap_or_default();
    let mut config = session.config(
        reducer,
        options.clone(),
        Artifacts::Existing {
            path: path.to_path_buf(),
            sha256,
        },
    );
    config.max_line_bytes = read_line_limit(session);
    reduce_artifact(
        session,
        spec,
        path,
        options,
        config,
        End::default(),
        reducer,
    )
}

fn reduce_artifact(
    session: &Session,
    spec: &ReducerSpec,
    path: &Path,
    options: Value,
    config: briefly_core::RunConfig,
    mut end: End,
    tool: &str,
) -> Result<Reply> {
    let mut file = open_file(path).map_err(|e| {
        // Only a missing file of the artifact directory may have expired.
        let in_dir = session
            .artifact_dir()
            .is_ok_and(|dir| path.parent() == Some(dir.path()));
        match in_dir && !path.exists() {
            true => anyhow!("{e:#} (artifacts expire a day after they were made: `briefly gc`, or the next new artifact, removes them)"),
            false => e,
        }
    })?;
    let mut pipeline = (spec.build)(&options, config).map_err(|e| anyhow!(e))?;
    // A reducer that reads the file itself (Parquet: only the row groups of this page).
    if pipeline.reads_input() {
        pump(&mut file, pipeline.as_mut(), session)?;
    }
    end.warnings.extend(session.budget_warning.iter().cloned());
    let envelope = pipeline.finish(end);
    Ok(Reply {
        envelope,
        exit_code: 0,
        event: Event::ArtifactRead {
            tool: tool.into(),
            artifact: path.display().to_string(),
        },
    })
}

fn read_sidecar(artifact: &Path) -> Option<ArtifactMeta> {
    let bytes = std::fs::read(sidecar_path(artifact)).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// `briefly gc`.
pub fn gc(session: &Session, older_than: &str) -> Result<i32> {
    let age = parse_duration(older_than)?;
    // A directory that is not there holds nothing to remove: it is not made for that.
    let path = session.artifact_dir_path();
    if !path.is_dir() {
        let summary = format!(
            "no artifact directory at {}: nothing to remove",
            path.display()
        );
        let mut envelope = Envelope::new("gc", summary);
        envelope.stats = json!(briefly_core::GcReport::default());
        session.print(&envelope)?;
        return Ok(0);
    }
    let dir = session.artifact_dir()?;
    let report = dir.gc(age)?;
    let mut envelope = Envelope::new(
        "gc",
        format!(
            "removed {} files ({} bytes) older than {older_than} from {}; kept {}",
            report.removed_files,
            report.removed_bytes,
            dir.path().display(),
            report.kept_files
        ),
    );
    if report.others > 0 {
        envelope.summary.push_str(&format!(
            "; left {} files that are not briefly's",
            report.others
        ));
    }
    envelope.ok = report.failed == 0;
    envelope.stats = json!(report);
    if report.failed > 0 {
        envelope
            .warnings
            .push(format!("{} files could not be removed", report.failed));
    }
    session.print(&envelope)?;
    Ok(0)
}
