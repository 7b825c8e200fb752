//! The budget stage: drives a reducer over framed input, tees the raw bytes to an
//! artifact, and fits the result into the per-result budget.

use crate::artifact::{
    options_path, options_sha256, write_options, ArtifactDir, ArtifactMeta, ArtifactWriter,
};
use crate::kept::cut_record_lines;
use crate::select::{Kept, Limit, Selection};
use crate::shrink::{cut_str, json_chars, largest, lost_members, shrink_to_fit, with_cut_marker};
use crate::utf16::InputDecoder;
use crate::{
    Budget, Cursor, Envelope, Error, Framing, ItemKey, Raw, Record, RecordFramer, Reducer,
    Tokenizer, CUT_MARKER, DEFAULT_MAX_LINE_BYTES,
};
use serde_json::Value;
use std::cell::Cell;
use std::io::{ErrorKind, Read};
use std::path::{Path, PathBuf};

/// What happens to the raw input.
#[derive(Debug, Clone)]
pub enum Artifacts {
    /// Nothing is kept: what is left out cannot be paged (library use, tests).
    Off,
    /// The raw input is teed into a new artifact in `dir`, saved iff something is left
    /// out (or `keep`), with `id` in its name and `argv` in its sidecar.
    Tee {
        /// Where.
        dir: ArtifactDir,
        /// The tool-call id.
        id: Option<String>,
        /// Save it even when nothing was left out.
        keep: bool,
        /// The command line, for the sidecar.
        argv: Vec<String>,
    },
    /// An artifact was wanted but cannot be written (the reason): what is left out is
    /// marked as lost in the warnings.
    Unavailable(String),
    /// The input is an artifact already (`page`, `read`, `grep`): it is never spilled again.
    Existing {
        /// Where it is.
        path: PathBuf,
        /// Its sha256 (hex) from its sidecar, for the cursors; empty when unknown.
        sha256: String,
    },
}

/// How one reduction runs.
#[derive(Debug, Clone)]
pub struct RunConfig {
    /// The reducer's name: the envelope's `source`, and how `page` finds it again.
    pub source: String,
    /// The reducer's options, kept in cursors so `page` rebuilds the same reducer.
    pub options: Value,
    /// The budgets.
    pub budget: Budget,
    /// How tokens are counted.
    pub tokenizer: Tokenizer,
    /// A tighter budget for the items alone (a spilled result's preview).
    pub items_chars: Option<usize>,
    /// The budget the cursor's pages take, when not the result's own: a stub's cursor
    /// (`turn`'s, the MCP proxy's) pages at the full per-result budget, not the stub's.
    pub page_chars: Option<usize>,
    /// The line framing limit.
    pub max_line_bytes: usize,
    /// What happens to the raw input.
    pub artifacts: Artifacts,
    /// Where options too long for a cursor are kept when the artifact is not in this
    /// directory (an existing file read in place); `None`: beside the artifact.
    pub options_dir: Option<ArtifactDir>,
    /// Resume after this item (a page).
    pub after: Option<ItemKey>,
    /// How the envelope will be printed: the budget applies to exactly this text.
    pub render: fn(&Envelope) -> String,
}

impl RunConfig {
    /// Defaults: the 32K-token budget, chars4, no artifacts, JSON output.
    pub fn new(source: impl Into<String>) -> Self {
        RunConfig {
            source: source.into(),
            options: Value::Null,
            budget: Budget::default(),
            tokenizer: Tokenizer::Chars4,
            items_chars: None,
            page_chars: None,
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
            artifacts: Artifacts::Off,
            options_dir: None,
            after: None,
            render: Envelope::to_json,
        }
    }
}

/// A reduction in progress, with the reducer's types erased: bytes in, an envelope out.
pub trait Push {
    /// Raw input, in chunks of any size.
    fn push(&mut self, bytes: &[u8]);
    /// End of input. `exit_code`, `warnings` and `stderr` come from the caller (`run`)
    /// and are fitted into the budget with the rest.
    fn finish(self: Box<Self>, end: End) -> Envelope;

    /// Whether the reduction wants its input pushed; false when the reducer reads it
    /// itself ([`Framing::Own`]), so a caller need not read the file at all.
    fn reads_input(&self) -> bool {
        true
    }
}

/// Writes the whole of a field the caller gave (`run`'s stderr, held whole) to an
/// artifact of its own. Called only when the fit cuts the field: the artifact's path,
/// or why it was not written.
pub type KeepWhole = Box<dyn FnOnce() -> Result<String, String>>;

/// What the caller adds at the end of a reduction.
#[derive(Default)]
pub struct End {
    /// The command's exit code (`run`); non-zero makes the envelope not ok.
    pub exit_code: Option<i32>,
    /// Why the command ended when not of its own accord, in a few words (`timed out
    /// after 1s`, `killed by SIGKILL`): after its exit code in the summary.
    pub ended_by: Option<String>,
    /// Warnings of the caller's own.
    pub warnings: Vec<String>,
    /// The command's bounded standard error (`run`).
    pub stderr: Option<Value>,
    /// What the summary adds of the standard error kept apart (`run`): after the
    /// reducer's summary of the output, with `; `, or, when the command wrote no output
    /// and failed, in its place, after its exit code.
    pub stderr_summary: Option<String>,
    /// Keeps `stderr` whole when the fit cuts it, for a `stderr` the caller held whole
    /// (one it cut already says where its whole is): the path goes into the field's
    /// `artifact_path`.
    pub keep_stderr: Option<KeepWhole>,
}

impl std::fmt::Debug for End {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("End")
            .field("exit_code", &self.exit_code)
            .field("ended_by", &self.ended_by)
            .field("warnings", &self.warnings)
            .field("stderr", &self.stderr)
            .field("stderr_summary", &self.stderr_summary)
            .field("keep_stderr", &self.keep_stderr.is_some())
            .finish()
    }
}

/// Runs `reducer` over `input` to the end and returns the fitted envelope.
pub fn reduce<R: Reducer>(
    reducer: R,
    mut input: impl Read,
    config: &RunConfig,
) -> Result<Envelope, Error> {
    let mut pipeline = Pipeline::new(reducer, config.clone());
    let mut buf = vec![0u8; 256 * 1024];
    loop {
        match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => pipeline.push(&buf[..n]),
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(Error::Read(e)),
        }
    }
    Ok(pipeline.finish(End::default()))
}

/// A reducer behind the budget stage.
pub struct Pipeline<R: Reducer> {
    reducer: R,
    config: RunConfig,
    framer: RecordFramer,
    /// The reducer takes raw chunks ([`Framing::Raw`]); the framer then only counts.
    raw: bool,
    /// The reducer reads its input itself ([`Framing::Own`]): pushed bytes are ignored.
    own: bool,
    selection: Selection,
    tee: Option<ArtifactWriter>,
    tee_error: Option<String>,
    stopped: bool,
    /// Raw bytes pushed: the artifact's size.
    bytes: u64,
    chars: u64,
    /// Reads UTF-16 input as UTF-8 ([`InputDecoder`]).
    decoder: InputDecoder,
    /// What the decoder last wrote, kept for its capacity.
    decoded: Vec<u8>,
}

impl<R: Reducer> Pipeline<R> {
    /// A pipeline for `reducer`; an artifact to tee into is created at once (a failure
    /// becomes a warning).
    pub fn new(mut reducer: R, config: RunConfig) -> Self {
        let (tee, tee_error) = match &config.artifacts {
            Artifacts::Tee { dir, id, .. } => match dir.create(id.as_deref()) {
                Ok(writer) => (Some(writer), None),
                Err(e) => (None, Some(e.to_string())),
            },
            _ => (None, None),
        };
        let items_chars = items_budget(&config);
        let own = reducer.framing() == Framing::Own;
        let raw = own || reducer.framing() == Framing::Raw;
        // With raw framing the framer only counts bytes and lines: it keeps one byte.
        let max_line = if raw { 1 } else { config.max_line_bytes };
        if raw && !own {
            reducer.line_limit(config.max_line_bytes);
        }
        Pipeline {
            raw,
            own,
            reducer,
            framer: RecordFramer::new_with_max_length(max_line),
            selection: Selection::new(config.after, items_chars, config.budget.per_result_chars),
            config,
            tee,
            tee_error,
            stopped: false,
            bytes: 0,
            chars: 0,
            decoder: InputDecoder::default(),
            decoded: Vec::new(),
        }
    }

    /// Raw input, in chunks of any size.
    pub fn push(&mut self, bytes: &[u8]) {
        if self.own {
            return;
        }
        if let Some(tee) = &mut self.tee {
            if let Err(e) = tee.write(bytes) {
                // Stop writing at the first failure: no retry loop, the envelope says so.
                self.tee_error = Some(e.to_string());
                self.tee = None;
            }
        }
        self.bytes += bytes.len() as u64;
        let mut decoded = std::mem::take(&mut self.decoded);
        let rest = self.decoder.push(bytes, &mut decoded);
        self.read(&decoded);
        self.read(&bytes[rest..]);
        self.decoded = decoded;
    }

    /// Text as the reducer reads it (UTF-16 input decoded), in chunks of any size.
    fn read(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        self.chars += crate::count_chars(bytes);
        if self.raw {
            let offset = self.framer.bytes();
            self.framer.count(bytes);
            if !self.stopped
                && self.reducer.chunk(bytes, offset, &mut self.selection) == crate::Flow::Stop
            {
                self.stopped = true;
            }
        } else {
            self.frame(Some(bytes));
        }
    }

    /// Frames `bytes` (or, at the end, the last line without a newline) and feeds each
    /// line to the reducer.
    fn frame(&mut self, bytes: Option<&[u8]>) {
        let Pipeline {
            framer,
            reducer,
            selection,
            stopped,
            ..
        } = self;
        let on_record = |record: &Record<'_>| {
            if !*stopped && reducer.record(record, selection) == crate::Flow::Stop {
                *stopped = true;
            }
        };
        match bytes {
            Some(bytes) => framer.push(bytes, on_record),
            None => framer.finish(on_record),
        }
    }

    /// End of input: the reducer's outcome, fitted into the budget.
    pub fn finish(mut self, end: End) -> Envelope {
        if !self.own {
            let mut decoded = std::mem::take(&mut self.decoded);
            self.decoder.finish(&mut decoded);
            self.read(&decoded);
        }
        if self.raw {
            self.framer.finish(|_| {});
        } else {
            self.frame(None);
        }
        let outcome = self.reducer.finish(&mut self.selection);
        let returned_whole = outcome.returned_whole;
        let stats = serde_json::to_value(&outcome.stats).unwrap_or(Value::Null);
        let mut warnings = self.framing_warnings();
        warnings.extend(outcome.warnings);
        warnings.extend(end.warnings);
        // A reducer that reads its own input (a table's file) counts it in its `raw`.
        let raw = self.reducer.raw().unwrap_or(Raw {
            bytes: self.bytes,
            lines: self.framer.lines(),
            chars: self.chars,
        });
        // A command that failed before it wrote any output (`No module named pytest`, a
        // usage error): what its reducer makes of no output says nothing of why.
        let failed_silent = end.exit_code.filter(|&code| code != 0 && raw.bytes == 0);
        let ended_by = end.ended_by;
        let exit = |code: i32| match &ended_by {
            Some(why) => format!("exit code {code}, {why}"),
            None => format!("exit code {code}"),
        };
        // A command that failed after it wrote output: the line an agent acts on says so.
        let output = match end.exit_code.filter(|&code| code != 0) {
            Some(code) => format!("{}; {}", outcome.summary, exit(code)),
            None => outcome.summary,
        };
        let summary = match (failed_silent, end.stderr_summary) {
            (Some(code), Some(stderr)) => format!("no output ({}); {stderr}", exit(code)),
            (Some(code), None) => format!("no output ({})", exit(code)),
            (None, Some(stderr)) => format!("{output}; {stderr}"),
            (None, None) => output,
        };
        let mut base = Envelope::new(self.config.source.clone(), summary);
        base.ok = outcome.ok && end.exit_code.is_none_or(|code| code == 0);
        base.stats = stats;
        base.preview = outcome.preview;
        base.exit_code = end.exit_code;
        base.raw = raw;
        base.item_offset = self.selection.before;
        base.stderr = end.stderr;
        base.warnings = warnings;

        let left_out = self.selection.left_out();
        let kept: Vec<(ItemKey, Kept)> = std::mem::take(&mut self.selection.kept)
            .into_iter()
            .collect();
        // Held only for a reducer whose items may end a page cut.
        let next = (self.selection.next.take()).filter(|_| outcome.cut_next_item);
        // Of no input at all nothing can be left out, whatever the reducer could not tell
        // (one that reads its own input counts it in its `raw`, when it read any).
        let lossy = (base.raw.bytes > 0 || self.own)
            && (!outcome.complete
                || (!self.raw && self.framer.alterations().lossy())
                || self.decoder.replaced()
                || kept.iter().any(|(_, k)| k.cut));

        let mut store = match self.config.artifacts.clone() {
            Artifacts::Off => Store::None,
            Artifacts::Unavailable(why) => Store::Failed(why),
            Artifacts::Existing { path, sha256 } => Store::Saved {
                path: path.display().to_string(),
                sha256,
                expires: None,
            },
            Artifacts::Tee { keep, .. } => match self.tee.take() {
                Some(writer) if keep || lossy || left_out > 0 => {
                    self.save(writer, end.exit_code, ended_by.clone())
                }
                Some(writer) => Store::Pending(writer),
                None => Store::Failed(self.tee_error.take().unwrap_or_default()),
            },
        };
        let options = CursorOptions::new(&self.config);
        let fitted = |envelope: &mut Envelope| self.reducer.fitted(envelope);
        let fit = |store: &Store, base: &Envelope| {
            Fit {
                config: &self.config,
                fitted: &fitted,
                kept: &kept,
                next: next.as_ref(),
                left_out,
                lossy,
                returned_whole,
                store,
                options: &options,
                stderr: base.stderr.as_ref(),
            }
            .fit(base)
        };
        let mut envelope = fit(&store, &base);
        if let Some(keep) = end.keep_stderr {
            if envelope.stderr != base.stderr {
                match keep() {
                    Ok(path) => {
                        // Cut by the budget: the field says so, and where the whole is.
                        if let Some(Value::Object(stderr)) = &mut base.stderr {
                            stderr.insert(STDERR_PATH.into(), path.into());
                            stderr.insert("truncated".into(), true.into());
                        }
                    }
                    Err(why) => base.warnings.push(format!(
                        "part of stderr lost: the budget cut it, and its artifact was not written ({why})"
                    )),
                }
                envelope = fit(&store, &base);
            }
        }
        if envelope.truncated && matches!(store, Store::Pending(_)) {
            if let Store::Pending(writer) = std::mem::replace(&mut store, Store::None) {
                store = self.save(writer, end.exit_code, ended_by.clone());
                envelope = fit(&store, &base);
            }
        }
        if let Store::Failed(why) = &store {
            if envelope.truncated {
                base.warnings.push(format!(
                    "artifact not written ({why}): what was left out cannot be paged or read back"
                ));
                envelope = fit(&store, &base);
            }
        }
        // Long options go to their file only when a cursor names it.
        if let (Some(_), Some((json, _)), Some(path)) =
            (&envelope.next_cursor, &options.file, options.path(&store))
        {
            if let Err(e) = write_options(&path, json) {
                options.failed.set(true);
                base.warnings.push(format!(
                    "options file not written ({e}): what was left out cannot be paged, only read back from the artifact"
                ));
                envelope = fit(&store, &base);
            }
        }
        envelope
    }

    fn save(
        &self,
        writer: ArtifactWriter,
        exit_code: Option<i32>,
        ended_by: Option<String>,
    ) -> Store {
        let (id, argv) = match &self.config.artifacts {
            Artifacts::Tee { id, argv, .. } => (id.clone(), argv.clone()),
            _ => (None, Vec::new()),
        };
        let meta = ArtifactMeta {
            source: self.config.source.clone(),
            id,
            argv,
            exit_code,
            ended_by,
            lines: self.framer.lines(),
            ..ArtifactMeta::default()
        };
        match writer.save(meta) {
            Ok(saved) => Store::Saved {
                path: saved.path.display().to_string(),
                sha256: saved.meta.sha256,
                expires: Some(saved.meta.expires),
            },
            Err(e) => Store::Failed(e.to_string()),
        }
    }

    fn framing_warnings(&self) -> Vec<String> {
        // Raw framing only counts: the reducer frames, and says what it altered.
        let mut warnings = self.decoder.warnings();
        if !self.raw {
            warnings.extend(self.framer.alterations().warnings());
        }
        if self.stopped {
            warnings.push(
                "the reducer stopped early; the rest of the input is only in the artifact".into(),
            );
        }
        warnings
    }
}

impl<R: Reducer> Push for Pipeline<R> {
    fn push(&mut self, bytes: &[u8]) {
        Pipeline::push(self, bytes)
    }

    fn finish(self: Box<Self>, end: End) -> Envelope {
        Pipeline::finish(*self, end)
    }

    fn reads_input(&self) -> bool {
        !self.own
    }
}

/// The items' share of the per-result budget: what is left after room for the summary,
/// stats and other fields (the final fit trims any excess).
fn items_budget(config: &RunConfig) -> usize {
    let cap = config.budget.per_result_chars;
    let room = cap - cap.min(cap / 8 + 600);
    config
        .items_chars
        .map_or(room, |chars| chars.min(room))
        .max(64)
}

/// Where the raw input is.
enum Store {
    None,
    Pending(ArtifactWriter),
    Saved {
        path: String,
        sha256: String,
        expires: Option<String>,
    },
    Failed(String),
}

/// How cursors carry the reducer's options: in the cursor, or, when long, in a file the
/// cursor names by their hash, so that a cursor's length does not grow with them.
struct CursorOptions {
    /// The options' compact JSON and its hash, when they are too long to carry.
    file: Option<(String, String)>,
    /// Where that file goes when the artifact is not in this directory.
    dir: Option<PathBuf>,
    /// The file could not be written: no cursor can be made.
    failed: Cell<bool>,
}

/// Options whose compact JSON is longer than this many characters, or than an eighth of
/// the per-result budget, are kept in a file rather than in cursors, so that a cursor
/// stays short whatever the options (a long `--grep` pattern, say) and the envelope that
/// carries it within its budget. Below it, a cursor is self-contained.
const MAX_INLINE_OPTIONS_CHARS: usize = 400;

/// Options as a cursor carries them: without those unset (`null`), which read back as
/// unset, so that a cursor is no longer than it needs to be.
fn without_unset(options: &Value) -> Value {
    match options {
        Value::Object(members) => Value::Object(
            (members.iter())
                .filter(|(_, value)| !value.is_null())
                .map(|(key, value)| (key.clone(), value.clone()))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// How long the options carried in a cursor may be under `budget`.
fn inline_options_chars(budget: &Budget) -> usize {
    MAX_INLINE_OPTIONS_CHARS.min(budget.per_result_chars / 8)
}

impl CursorOptions {
    fn new(config: &RunConfig) -> Self {
        let json = serde_json::to_string(&config.options).unwrap_or_default();
        let file = (json.chars().count() > inline_options_chars(&config.budget)).then(|| {
            let hash = options_sha256(&json);
            (json, hash)
        });
        CursorOptions {
            file,
            dir: config.options_dir.as_ref().map(|d| d.path().to_path_buf()),
            failed: Cell::new(false),
        }
    }

    /// The directory of the options file of cursors over `artifact`: `None` for beside it.
    fn dir_for(&self, artifact: &Path) -> Option<&Path> {
        self.dir
            .as_deref()
            .filter(|dir| artifact.parent() != Some(*dir))
    }

    /// The options file of cursors over the artifact in `store`, when there is one.
    fn path(&self, store: &Store) -> Option<PathBuf> {
        let (Some((_, hash)), Store::Saved { path, .. }) = (&self.file, store) else {
            return None;
        };
        let artifact = Path::new(path);
        Some(options_path(artifact, self.dir_for(artifact), hash))
    }
}

struct Fit<'a> {
    config: &'a RunConfig,
    /// The reducer's [`Reducer::fitted`].
    fitted: &'a dyn Fn(&mut Envelope),
    kept: &'a [(ItemKey, Kept)],
    /// The item after them, left out for want of room, when the selection has it.
    next: Option<&'a (ItemKey, Kept)>,
    left_out: u64,
    lossy: bool,
    /// The outcome was [returned whole](crate::Outcome::returned_whole).
    returned_whole: bool,
    store: &'a Store,
    options: &'a CursorOptions,
    /// `run`'s stderr field as the caller gave it: when the fit cuts it, the result
    /// leaves some of it out (what the capture cut says so in the field itself).
    stderr: Option<&'a Value>,
}

impl Fit<'_> {
    fn limit(&self) -> Limit {
        Limit {
            max_chars: self.config.budget.per_result_chars,
            tokenizer: self.config.tokenizer.clone(),
        }
    }

    fn fits(&self, envelope: &Envelope) -> bool {
        self.limit().fits(&(self.config.render)(envelope))
    }

    /// The envelope with the first `k` kept items.
    fn with(&self, base: &Envelope, k: usize) -> Envelope {
        let mut envelope = base.clone();
        envelope.items = self.kept[..k]
            .iter()
            .map(|(_, kept)| kept.value.clone())
            .collect();
        envelope.returned_items = k as u64;
        envelope.total_items = base.item_offset + self.kept.len() as u64 + self.left_out;
        let more = self.left_out + (self.kept.len() - k) as u64;
        // `base.truncated`: its summary, stats or warnings were cut to fit.
        envelope.truncated =
            more > 0 || self.lossy || base.truncated || envelope.stderr.as_ref() != self.stderr;
        if let Store::Saved {
            path,
            sha256,
            expires,
        } = self.store
        {
            if envelope.truncated {
                envelope.artifact_path = Some(path.clone());
                envelope.artifact_expires = expires.clone();
            } else if matches!(self.config.artifacts, Artifacts::Tee { keep: true, .. }) {
                envelope.kept_artifact = Some(path.clone());
                envelope.artifact_expires = expires.clone();
            }
            if more > 0 && !self.options.failed.get() {
                let after = if k > 0 {
                    Some(self.kept[k - 1].0)
                } else {
                    self.config.after
                };
                envelope.next_cursor = Some(self.cursor(path, sha256, after));
            }
        }
        if self.returned_whole {
            let item_cut = self.kept[..k].iter().any(|(_, kept)| kept.cut);
            crate::whole::say_fitted(&mut envelope, item_cut);
        }
        (self.fitted)(&mut envelope);
        envelope
    }

    fn cursor(&self, path: &str, sha256: &str, after: Option<ItemKey>) -> String {
        let (options, options_sha256, options_dir) = match &self.options.file {
            None => (without_unset(&self.config.options), None, None),
            Some((_, hash)) => (
                Value::Null,
                Some(hash.clone()),
                self.options
                    .dir_for(Path::new(path))
                    .map(|d| d.display().to_string()),
            ),
        };
        Cursor {
            artifact: path.to_string(),
            sha256: sha256.chars().take(16).collect(),
            reducer: self.config.source.clone(),
            options,
            options_sha256,
            options_dir,
            after,
            max_chars: self
                .config
                .page_chars
                .unwrap_or(self.config.budget.per_result_chars),
            tokenizer: self.config.tokenizer.name().to_string(),
            max_line_bytes: self.config.max_line_bytes,
        }
        .encode()
    }

    fn fit(&self, base: &Envelope) -> Envelope {
        let n = self.kept.len();
        let all = self.with(base, n);
        if self.fits(&all) {
            return self.next_item_cut(base, n).unwrap_or(all);
        }
        // Each cut starts from the whole fixed part, so that its markers count every
        // character cut, not those of the last cut only.
        let original = base;
        // Each warning keeps as much as the summary does, up to WARNING_CHARS: what went
        // wrong (an artifact not written: the rest is lost) outweighs another item.
        let shrunk_warned = |limit: usize, summary_chars: usize, warning_chars: usize| {
            let mut base = original.clone();
            shrink_overhead(&mut base, limit, warning_chars);
            base.summary = cut_str(&original.summary, summary_chars).into_owned();
            // What was cut of the fixed part is left out too ([`Fit::with`]).
            base.truncated = base.summary != original.summary
                || base.stats != original.stats
                || base.warnings != original.warnings;
            base
        };
        let shrunk = |limit: usize, summary_chars: usize| {
            let warning_chars = summary_chars.min(WARNING_CHARS).max(limit / 2);
            shrunk_warned(limit, summary_chars, warning_chars)
        };
        let mut base = original.clone();
        // The fixed part may take at most half the budget: the rest is for the evidence,
        // or what the evidence leaves when it needs less.
        let budget = self.config.budget.per_result_chars;
        let items_chars: usize = self.kept.iter().map(|(_, kept)| kept.chars).sum();
        let fixed = Limit {
            max_chars: budget - items_chars.min(budget / 2),
            ..self.limit()
        };
        let grown = |limit: usize| shrunk(limit, limit.max(SUMMARY_CHARS));
        // The limit the fixed part was cut to, if it was.
        let mut cut_at = None;
        for limit in [4_000, 1_000, 300, 80, 20] {
            if fixed.fits(&(self.config.render)(&self.with(&base, 0))) {
                break;
            }
            base = grown(limit);
            cut_at = Some(limit);
        }
        // The largest k that fits beside the fixed part as cut (all of them may); sizes
        // grow with k (but for a few digits of cursor).
        let (mut lo, mut hi) = (0, n);
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if self.fits(&self.with(&base, mid)) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        while lo > 0 && !self.fits(&self.with(&base, lo)) {
            lo -= 1;
        }
        // The fixed part gives way further, to a summary of 200 characters at the least,
        // where that lets another item fit: the evidence before the stats (a list of
        // templates cut to the half it may take would leave a verdict out).
        // (A limit above the one it was cut to leaves no more room.)
        if lo > 0 {
            for limit in [1_000, 300, 80] {
                if lo == n {
                    break;
                }
                let fewer = grown(limit);
                let before = lo;
                while lo < n && self.fits(&self.with(&fewer, lo + 1)) {
                    lo += 1;
                }
                if lo > before {
                    base = fewer;
                    cut_at = Some(limit);
                }
            }
        }
        if lo == 0 && n > 0 {
            // Not even the first item fits whole. The rest of an item cut is on no page (a
            // summary cut is whole on the others), so the fixed part gives way first, to
            // its least; only then is the item cut to the room left, so that a page always
            // moves forward; when not even a bare cut marker fits beside the fixed part, the
            // fixed part gives way further.
            // A summary of 20 characters at the least: less says nothing. The first warning
            // keeps its say before the least (a line cut by the framing, an artifact not
            // written).
            let warned = || shrunk_warned(20, 20, WARNING_CHARS);
            let whole = [
                shrunk(80, SUMMARY_CHARS),
                shrunk(80, 80),
                warned(),
                shrunk(20, 20),
            ]
            .into_iter()
            .map(|least| self.with(&least, 1))
            .find(|whole| self.fits(whole));
            if let Some(whole) = whole {
                return whole;
            }
            // Cut, the item keeps at least half of what the least fixed part would leave
            // it: its rest is on no page, the summary's is on every other (the summary
            // keeps its say on the cut only while the item loses little by it; beside it,
            // a record became a bare cut marker).
            // The first warning, again, before the least: the item cut is whole in the
            // artifact, what the warning says nowhere else.
            let item_chars = |envelope: &Envelope| envelope.items.first().map_or(0, json_chars);
            let with_summary = self.item_cut_to_fit(&base, 0);
            let least = [warned()]
                .into_iter()
                .chain([20, 8, 0].map(|limit| shrunk(limit, limit)));
            for least in least {
                if let Some(first) = self.item_cut_to_fit(&least, 0) {
                    return match with_summary {
                        Some(kept) if 2 * item_chars(&kept) >= item_chars(&first) => kept,
                        _ => first,
                    };
                }
            }
            if let Some(kept) = with_summary {
                return kept;
            }
            base = shrunk(0, 0);
            // No item fits beside the least fixed part (a long artifact path and its
            // cursor at the least budget): a cursor from here would name this same page
            // again, and a caller paging to the end would never get there. The artifact
            // still holds everything (`read`).
            let mut empty = self.with(&base, 0);
            empty.next_cursor = None;
            return empty;
        }
        if let Some(cut) = self.next_item_cut(&base, lo) {
            return cut;
        }
        // The items chosen, the fixed part takes back the room they left (the next item
        // does not fit however little it keeps): the least cut of it that fits beside
        // them. Sizes grow with the limit.
        if let Some(cut_at) = cut_at {
            let whole = self.with(original, lo);
            if self.fits(&whole) {
                return whole;
            }
            let (mut low, mut high) = (cut_at, GROWN_CHARS);
            while low < high {
                let mid = (low + high).div_ceil(2);
                if self.fits(&self.with(&grown(mid), lo)) {
                    low = mid;
                } else {
                    high = mid - 1;
                }
            }
            if low > cut_at {
                return self.with(&grown(low), lo);
            }
        }
        self.with(&base, lo)
    }

    /// The envelope with the kept items before `at` whole and the next one cut to the
    /// room they leave, when it keeps at least half of itself, and as much as a long
    /// record's head: its first lines (its header, what went wrong) say most of it,
    /// and the rest is in the artifact at its lines. Less would be a stub that the next
    /// page would have shown whole. `None` when it would not, or there is none.
    fn next_item_cut(&self, base: &Envelope, at: usize) -> Option<Envelope> {
        let (_, next) = self.item_after(at)?;
        let whole = json_chars(&next.value);
        self.item_cut_to_fit(base, at).filter(|cut| {
            let item = &cut.items[at];
            let kept = json_chars(item);
            2 * kept >= whole && kept >= LEAST_CUT_ITEM_CHARS
        })
    }

    /// The item after the first `at` kept: kept too, or [`Fit::next`] past the last.
    fn item_after(&self, at: usize) -> Option<&(ItemKey, Kept)> {
        self.kept.get(at).or(self.next)
    }

    /// The envelope with the kept items before `at` whole and the one after them (kept,
    /// or [`Fit::next`] past the last): whole if it fits, else cut as little as will
    /// fit (after others, by [`cut_record_lines`] first: a record's last lines, a
    /// traceback's exception, stay), down to the bare cut marker; `None` when not even
    /// that fits, or when there is no such item. The cursor goes past it: what was cut
    /// of it is on no page (the artifact has it, at its lines).
    fn item_cut_to_fit(&self, base: &Envelope, at: usize) -> Option<Envelope> {
        let (key, item) = self.item_after(at)?;
        // The items before it, and it as `value`.
        let with = |value: Value, cut: bool| {
            let mut kept = self.kept[..at].to_vec();
            let chars = json_chars(&value) + 1;
            kept.push((*key, Kept { value, chars, cut }));
            // Of the items not shown, this one is.
            let fit = Fit {
                kept: &kept,
                next: None,
                left_out: (self.left_out + (self.kept.len() - at) as u64).saturating_sub(1),
                lossy: self.lossy || cut,
                ..*self
            };
            let envelope = fit.with(base, at + 1);
            self.fits(&envelope).then_some(envelope)
        };
        if let Some(whole) = with(item.value.clone(), item.cut) {
            return Some(whole);
        }
        let size = json_chars(&item.value);
        // Alone, an item's longest strings give way first, so that its lines stay (a
        // root cause among short frames); after others, a record's lines, each whole,
        // from its middle ([`Fit::next_item_cut`]).
        let cut_to = |room: usize| {
            let cut = match at {
                0 => None,
                _ => cut_record_lines(&item.value, room),
            };
            let value = (cut.or_else(|| shrink_to_fit(&item.value, room)))
                .unwrap_or_else(|| item.value.clone());
            with(value, true)
        };
        // The least a cut item can be is the marker alone (below it, shrink_to_fit gives
        // null, which would not say what was cut).
        let least = json_chars(&Value::String(with_cut_marker("", size as u64)));
        // The most room that fits: the printed size grows with the room.
        let most = size.saturating_sub(1).max(least);
        largest(least, most, cut_to).map(|(_, envelope)| envelope)
    }
}

/// Cuts the summary, stats, stderr and warnings to about `limit` characters each (the
/// warnings to `limit * 4` in all). What is cut says so: at the least, stats and stderr
/// become a cut marker (24 chars hold one), never a silent null.
fn shrink_overhead(envelope: &mut Envelope, limit: usize, warning_chars: usize) {
    envelope.summary = cut_str(&envelope.summary, limit).into_owned();
    shrink_members(&mut envelope.stats, (limit * 2).max(MARKER_CHARS), &[]);
    if let Some(stderr) = &mut envelope.stderr {
        // Where the whole of stderr is stays, however little room is left: without it
        // the cut part could not be read back.
        let least = match stderr.get(STDERR_PATH) {
            Some(path) if path.is_string() => json_chars(&serde_json::json!({
                STDERR_PATH: path,
                CUT_MEMBERS: format!("{CUT_MARKER}99 members]"),
            })),
            _ => MARKER_CHARS,
        };
        shrink_members(stderr, limit.max(least), &[STDERR_PATH]);
    }
    let mut warnings = Vec::new();
    let mut chars = 0;
    for (i, warning) in envelope.warnings.iter().enumerate() {
        // A marker of cut warnings is kept whole, or the count it holds would be lost.
        let warning = match cut_warnings(warning) {
            Some(_) => warning.clone(),
            None => cut_str(warning, warning_chars).into_owned(),
        };
        chars += warning.chars().count();
        // One warning cut to `warning_chars` stays, with its cut marker.
        if chars > (limit * 4).max(warning_chars + MARKER_CHARS) {
            let rest: usize = envelope.warnings[i..].iter().map(|w| warnings_in(w)).sum();
            warnings.push(format!("{CUT_MARKER}{rest} warnings]"));
            break;
        }
        warnings.push(warning);
    }
    envelope.warnings = warnings;
}

/// The most the fixed part's fields are grown back to beside the items that fit
/// ([`shrink_overhead`]'s limit), when they were cut to make room.
const GROWN_CHARS: usize = 4_000;

/// The least of the summary kept while items can give way instead: what the input was,
/// its counts and its first serious line come first in it.
const SUMMARY_CHARS: usize = 200;

/// The least of each warning kept while items can give way instead (and the first
/// warning's while one item is kept whole).
const WARNING_CHARS: usize = 120;

/// The least of an item cut to end a page with ([`Fit::next_item_cut`]), in
/// characters: a record's header and the line that says what went wrong.
const LEAST_CUT_ITEM_CHARS: usize = 400;

/// Characters that hold a field's cut marker (`"…[cut 123456 chars]"`).
const MARKER_CHARS: usize = 24;

/// Cuts a field of the fixed part (`stats`, `run`'s `stderr`) to about `limit`
/// characters, so that it stays an object whose most telling members stay whole. While
/// it is too long: the largest member (stderr's text, a long list of templates) is cut
/// to the room the others leave, when that keeps some of it, not a bare cut marker nor
/// an object with members left out (a histogram keeps every count); else
/// the last member goes, as a reducer lists its stats most telling first (see
/// [`Reducer::Stats`]), and [`CUT_MEMBERS`], last, says how many went. The members left
/// keep their order. The cut marker alone when even that is too long. Members named in
/// `kept` are neither cut nor dropped.
///
/// [`Reducer::Stats`]: crate::Reducer::Stats
fn shrink_members(value: &mut Value, limit: usize, kept: &[&str]) {
    if json_chars(value) <= limit {
        return;
    }
    if let Some(fields) = value.as_object_mut() {
        let may_go = |key: &&String| !kept.contains(&key.as_str());
        let mut dropped = 0;
        loop {
            let total = json_chars(fields) + marker_chars(dropped);
            if total <= limit {
                break;
            }
            let largest = (fields.iter())
                .filter(|(key, _)| may_go(key))
                .map(|(key, member)| (json_chars(member), key))
                .max_by_key(|&(size, _)| size);
            if let Some((size, key)) = largest {
                let room = limit.saturating_sub(total - size);
                // Cut within (a long text, a long list), not by its own members: a
                // histogram keeps all its counts while later members can go instead.
                let shrunk = (room > MARKER_CHARS)
                    .then(|| shrink_to_fit(&fields[key], room))
                    .flatten()
                    .filter(|shrunk| !is_bare_marker(shrunk) && !lost_members(shrunk));
                if let Some(shrunk) = shrunk {
                    // It fits now: the others and the marker leave it `room`.
                    fields.insert(key.clone(), shrunk);
                    break;
                }
            }
            let Some(last) = fields.keys().rev().find(may_go).cloned() else {
                break;
            };
            fields.shift_remove(&last);
            dropped += 1;
        }
        if dropped > 0 {
            fields.insert(
                CUT_MEMBERS.to_string(),
                Value::String(members_marker(dropped)),
            );
        }
    }
    if let Some(cut) = shrink_to_fit(value, limit) {
        *value = cut;
    }
}

/// Whether a member cut to fit kept nothing of itself: it is the cut marker alone.
fn is_bare_marker(value: &Value) -> bool {
    value.as_str().is_some_and(|s| s.starts_with(CUT_MARKER))
}

/// The member that says how many members of a field the budget left out.
const CUT_MEMBERS: &str = "cut";

/// The value of [`CUT_MEMBERS`] for `dropped` members.
fn members_marker(dropped: usize) -> String {
    format!("{CUT_MARKER}{dropped} members]")
}

/// What [`CUT_MEMBERS`] adds to a field when `dropped` members went (the comma, the
/// key, the marker); 0 when none did.
fn marker_chars(dropped: usize) -> usize {
    if dropped == 0 {
        0
    } else {
        json_chars(&Value::String(members_marker(dropped))) + CUT_MEMBERS.len() + 4
    }
}

/// The member of `run`'s stderr field that says where its whole is.
const STDERR_PATH: &str = "artifact_path";

/// How many warnings `warning` stands for: a marker of cut warnings (from an earlier
/// shrink) stands for those it counts.
fn warnings_in(warning: &str) -> usize {
    cut_warnings(warning).unwrap_or(1)
}

/// The count in a marker of cut warnings (`…[cut 12 warnings]`).
fn cut_warnings(warning: &str) -> Option<usize> {
    warning
        .strip_prefix(CUT_MARKER)?
        .strip_suffix(" warnings]")?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Emit, Flow, Outcome, Record, Reducer};
    use serde_json::json;

    #[test]
    fn stats_give_way_by_their_largest_member_cut_or_their_last_ones_and_stay_an_object() {
        let mut stats = json!({
            "lines": 2000, "records": 1990, "severity": {"error": 3, "info": 1987},
            "top_templates": (0..50).map(|i| json!({"id": i, "template": format!("t {i} <*>"), "count": i})).collect::<Vec<_>>(),
        });
        shrink_members(&mut stats, 200, &[]);
        assert!(json_chars(&stats) <= 200, "{stats}");
        assert_eq!(
            (stats["lines"].clone(), stats["records"].clone()),
            (json!(2000), json!(1990))
        );
        assert_eq!(stats["severity"]["error"], 3, "{stats}");
        assert!(
            stats["top_templates"].to_string().contains(CUT_MARKER),
            "{stats}"
        );
        // Less room: the last members go, and the rest says how many.
        shrink_members(&mut stats, 60, &[]);
        assert!(json_chars(&stats) <= 60, "{stats}");
        assert_eq!(stats["lines"], 2000, "{stats}");
        assert!(
            stats[CUT_MEMBERS].as_str().unwrap().starts_with(CUT_MARKER),
            "{stats}"
        );
    }

    #[test]
    fn a_histogram_keeps_every_count_while_later_members_can_go() {
        // The largest member, the severities, could be cut by its members; the members
        // after it go first.
        let mut stats = json!({
            "lines": 2000,
            "severity": {"error": 40, "fatal": 355, "info": 1597, "warn": 8, "debug": 3},
            "time_span": null, "filtered_out": 0,
        });
        shrink_members(&mut stats, 110, &[]);
        assert!(json_chars(&stats) <= 110, "{stats}");
        assert_eq!(stats["severity"]["debug"], 3, "{stats}");
        assert!(stats.get("filtered_out").is_none(), "{stats}");
    }

    #[test]
    fn stats_members_go_from_the_last_back_and_the_rest_keep_their_order() {
        let stats = json!({
            "lines": 2000, "templates": 112,
            "severity": {"error": 40, "fatal": 355, "info": 1597, "warn": 8},
            "top_templates": (0..50).map(|i| json!({"id": i, "count": i})).collect::<Vec<_>>(),
            "ansi_lines": 0, "crlf_lines": 1999,
        });
        let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
        // Room for the templates' list cut: it is, and the members after it stay.
        let mut fit = stats.clone();
        shrink_members(&mut fit, 220, &[]);
        assert!(json_chars(&fit) <= 220, "{fit}");
        assert_eq!(keys(&fit), keys(&stats), "{fit}");
        assert!(
            fit["top_templates"].to_string().contains(CUT_MARKER),
            "{fit}"
        );
        assert_eq!(fit["crlf_lines"], 1999, "{fit}");
        // Not even for that: the last members go, the list with them, not the
        // severities before them (though they are larger than the last ones).
        let mut fit = stats.clone();
        shrink_members(&mut fit, 130, &[]);
        assert!(json_chars(&fit) <= 130, "{fit}");
        assert_eq!(
            keys(&fit),
            ["lines", "templates", "severity", CUT_MEMBERS],
            "{fit}"
        );
        assert_eq!(fit["severity"], stats["severity"], "{fit}");
        assert_eq!(fit[CUT_MEMBERS], "…[cut 3 members]", "{fit}");
        // At every room: the members left are the first ones, none of them a bare
        // marker (the severities were one, at some limits, while later zeros stayed).
        let stats = json!({
            "lines": 2000, "templates": 112,
            "severity": {"error": 40, "fatal": 355, "info": 1597, "warn": 8, "debug": 3},
            "time_span": null,
            "top_templates": (0..50).map(|i| json!({"id": i, "count": i})).collect::<Vec<_>>(),
            "ansi_lines": 0, "crlf_lines": 1999,
        });
        for limit in 60..400 {
            let mut fit = stats.clone();
            shrink_members(&mut fit, limit, &[]);
            assert!(json_chars(&fit) <= limit, "{limit}: {fit}");
            let left: Vec<String> = keys(&fit)
                .into_iter()
                .filter(|k| k != CUT_MEMBERS)
                .collect();
            assert_eq!(left, keys(&stats)[..left.len()], "{limit}: {fit}");
            assert!(
                left.iter().all(|k| !is_bare_marker(&fit[k])),
                "{limit}: {fit}"
            );
        }
        // Members kept after the one that goes stay in their order.
        let mut kept =
            json!({"m1": 1, "m2": "x".repeat(50), "k1": "a".repeat(20), "k2": "b".repeat(20)});
        shrink_members(&mut kept, 92, &["k1", "k2"]);
        assert_eq!(keys(&kept), ["m1", "k1", "k2", CUT_MEMBERS], "{kept}");
    }

    #[test]
    fn stderr_gives_way_by_its_text_and_keeps_where_the_whole_is() {
        // As `run` lays it out: its ends (`text`) last.
        let path = "/tmp/briefly/r1-stderr";
        let stderr = json!({
            "bytes": 50_000, "lines": 3_000, "truncated": true, "artifact_path": path,
            "error_like_lines": 9, "error_like": vec!["x".repeat(100); 9],
            "text": "e".repeat(2_000),
        });
        // Room for the error lines of the part cut and some of the ends.
        let mut fit = stderr.clone();
        shrink_members(&mut fit, 1_200, &[STDERR_PATH]);
        assert!(json_chars(&fit) <= 1_200, "{fit}");
        assert_eq!(fit["error_like"], stderr["error_like"], "{fit}");
        assert!(fit["text"].as_str().unwrap().contains(CUT_MARKER), "{fit}");
        // Less: those are cut, and what the others say stays.
        let mut fit = stderr.clone();
        shrink_members(&mut fit, 300, &[STDERR_PATH]);
        assert!(json_chars(&fit) <= 300, "{fit}");
        assert_eq!(fit["artifact_path"], path);
        assert_eq!(
            (fit["bytes"].clone(), fit["truncated"].clone()),
            (json!(50_000), json!(true))
        );
        assert!(fit["error_like"].to_string().contains(CUT_MARKER), "{fit}");
        // The least room the fit gives: where the whole is stays, the rest is counted.
        let mut envelope = Envelope::new("text", "");
        envelope.stderr =
            Some(json!({"text": "e".repeat(400), "bytes": 400, "artifact_path": path}));
        shrink_overhead(&mut envelope, 20, 10);
        let stderr = envelope.stderr.unwrap();
        assert_eq!(stderr["artifact_path"], path, "{stderr}");
        assert_eq!(stderr[CUT_MEMBERS], "…[cut 2 members]", "{stderr}");
        // Too little room for its fields: the marker.
        let mut tiny = json!({"text": "boom", "bytes": 4, "truncated": false});
        shrink_members(&mut tiny, MARKER_CHARS, &[]);
        assert!(tiny.as_str().unwrap().starts_with(CUT_MARKER), "{tiny}");
    }

    /// A reducer of an item for each record, made by its first function, and the
    /// outcome its second makes.
    struct Items<I, O>(I, O);

    impl<I, O> Reducer for Items<I, O>
    where
        I: FnMut(&Record<'_>) -> Value,
        O: FnMut() -> Outcome<Value>,
    {
        type Item = Value;
        type Stats = Value;
        fn record(&mut self, record: &Record<'_>, out: &mut dyn Emit<Value>) -> Flow {
            out.emit(0, (self.0)(record));
            Flow::Continue
        }
        fn finish(&mut self, _out: &mut dyn Emit<Value>) -> Outcome<Value> {
            (self.1)()
        }
    }

    /// Every line an item; stats as large as asked.
    #[derive(Clone)]
    struct EveryLine {
        stats_chars: usize,
        complete: bool,
        /// Warnings of 60 chars each.
        warnings: usize,
    }

    impl Reducer for EveryLine {
        type Item = Value;
        type Stats = Value;
        fn record(&mut self, record: &Record<'_>, out: &mut dyn Emit<Value>) -> Flow {
            out.emit(0, json!({"line": record.line, "text": record.text}));
            Flow::Continue
        }
        fn finish(&mut self, _out: &mut dyn Emit<Value>) -> Outcome<Value> {
            let stats = json!({"blob": "s".repeat(self.stats_chars)});
            Outcome {
                complete: self.complete,
                warnings: (0..self.warnings)
                    .map(|i| format!("warning {i:>4} {}", "w".repeat(47)))
                    .collect(),
                ..Outcome::new("summary", stats)
            }
        }
    }

    /// Every line an item, no stats, nothing folded.
    fn plain_lines() -> EveryLine {
        EveryLine {
            stats_chars: 0,
            complete: true,
            warnings: 0,
        }
    }

    /// Every line's text, and the warnings, for `input` pushed in chunks of `size`.
    fn texts_and_warnings(input: &[u8], size: usize) -> (Vec<Value>, Vec<String>) {
        let config = RunConfig {
            budget: Budget::default().with_max_chars(1 << 20).unwrap(),
            max_line_bytes: 16,
            ..RunConfig::new("every")
        };
        let mut pipeline = Pipeline::new(plain_lines(), config);
        for chunk in input.chunks(size) {
            pipeline.push(chunk);
        }
        let envelope = pipeline.finish(End::default());
        (envelope.items, envelope.warnings)
    }

    #[test]
    fn lines_checked_with_their_chunk_read_as_lines_checked_alone() {
        // Multi-byte characters, invalid bytes and NULs, on lines of every length around
        // the 16-byte framing limit (cut lines end at a character boundary).
        let mut input = Vec::new();
        for n in 0..40 {
            input.extend_from_slice("é€".repeat(n % 9).as_bytes());
            match n % 5 {
                // Not `FF FE`: input that opens with it is UTF-16 after its mark.
                0 => input.extend_from_slice(b"\xc0\xff bad"),
                1 => input.extend_from_slice(b"nul\0here"),
                2 => input.extend_from_slice("𝄞 clef".as_bytes()),
                _ => input.extend_from_slice(b"plain"),
            }
            input.push(b'\n');
        }
        let whole = texts_and_warnings(&input, input.len());
        assert!(
            whole.1.iter().any(|w| w.contains("invalid UTF-8")),
            "{:?}",
            whole.1
        );
        assert!(whole.1.iter().any(|w| w.contains("NUL")), "{:?}", whole.1);
        for size in 1..=40 {
            assert_eq!(texts_and_warnings(&input, size), whole, "chunks of {size}");
        }
    }

    fn config(dir: &std::path::Path, max_chars: usize) -> RunConfig {
        RunConfig {
            budget: Budget::default().with_max_chars(max_chars).unwrap(),
            artifacts: Artifacts::Tee {
                dir: ArtifactDir::open(dir).unwrap(),
                id: None,
                keep: false,
                argv: vec![],
            },
            ..RunConfig::new("every")
        }
    }

    fn check(envelope: &Envelope, max_chars: usize) {
        assert_eq!(envelope.returned_items as usize, envelope.items.len());
        assert!(envelope.item_offset + envelope.returned_items <= envelope.total_items);
        let more = envelope.item_offset + envelope.returned_items < envelope.total_items;
        assert_eq!(envelope.next_cursor.is_some(), more);
        assert_eq!(envelope.artifact_path.is_some(), envelope.truncated);
        assert!(
            envelope.to_json().chars().count() <= max_chars,
            "{}",
            envelope.to_json().len()
        );
    }

    #[test]
    fn an_item_too_large_for_the_least_budget_is_cut_as_little_as_it_can_be() {
        // A record with its lines beside a long summary, frames of `frame` characters.
        let record1 = |frame: usize| {
            Items(
                move |record: &Record<'_>| {
                    let more = vec![format!("\tat frame {}", "f".repeat(frame)); 3];
                    json!({"line": record.line, "text": record.text, "more": more})
                },
                || Outcome::new("s".repeat(300), json!({})),
            )
        };
        let reduce = |frame: usize| {
            let dir = tempfile::tempdir().unwrap();
            let mut pipeline = Pipeline::new(record1(frame), config(dir.path(), 1_000));
            pipeline.push(format!("ERROR {}\n", "e".repeat(600)).as_bytes());
            let envelope = pipeline.finish(End::default());
            check(&envelope, 1_000);
            assert!(envelope.items[0].is_object(), "{}", envelope.items[0]);
            let text = envelope.items[0]["text"].as_str().unwrap().to_string();
            assert!(text.starts_with("ERROR eeee"), "{text}");
            envelope.summary.chars().count()
        };
        // Cut beside its summary, the item keeps most of what it could: the summary
        // stays, saying what the input was.
        assert!(reduce(60) > 100);
        // Beside its summary the item would be a bare cut marker, on no page: the
        // summary gives way to its least instead (`tests/text.rs`, a Java record).
    }

    #[test]
    fn a_long_item_after_others_is_shown_cut_when_it_keeps_half_of_itself() {
        // Each line an item: `N` short, or a record of N lines of 60 characters; its items
        // may end a page cut, or not.
        let records = |cut_next_item: bool| {
            Items(
                |record: &Record<'_>| {
                    let lines: usize = record.text.parse().unwrap();
                    let more: Vec<String> = (0..lines)
                        .map(|i| format!("{i:02} {}", "m".repeat(57)))
                        .collect();
                    json!({"line": record.line, "text": "ERROR", "more": more})
                },
                move || Outcome {
                    cut_next_item,
                    ..Outcome::new("s", json!({}))
                },
            )
        };
        let dir = tempfile::tempdir().unwrap();
        let reduced = |input: &str, config: &RunConfig, cut_next_item: bool| {
            let envelope = reduce(records(cut_next_item), input.as_bytes(), config).unwrap();
            check(&envelope, config.budget.per_result_chars);
            envelope
        };
        let page_after = |input: &str, max_chars: usize, cursor: Option<&str>| {
            let mut config = config(dir.path(), max_chars);
            if let Some(cursor) = cursor {
                let cursor = Cursor::decode(cursor).unwrap();
                config.after = cursor.after;
                config.artifacts = Artifacts::Existing {
                    path: cursor.artifact.into(),
                    sha256: cursor.sha256,
                };
            }
            reduced(input, &config, true)
        };
        let page = |input: &str, max_chars: usize| page_after(input, max_chars, None);
        // A record of 2,600 characters after a short one, in 3,000: cut to the room
        // left, its first lines whole, the cursor past it.
        let envelope = page("2\n40\n2\n", 3_000);
        assert_eq!(envelope.returned_items, 2, "{:?}", envelope.items);
        let more = envelope.items[1]["more"].as_array().unwrap();
        assert!(more.len() > 20 && more.len() < 40, "{more:?}");
        assert!(more[0].as_str().unwrap().ends_with(&"m".repeat(57)));
        let next = page_after("2\n40\n2\n", 3_000, envelope.next_cursor.as_deref());
        assert_eq!(next.items[0]["line"], 3, "{:?}", next.items);
        // A reducer whose items are of use only whole (a diff's hunks): the next page.
        let whole_only = reduced("2\n40\n2\n", &config(dir.path(), 3_000), false);
        assert_eq!(whole_only.returned_items, 1, "{:?}", whole_only.items);
        // After a record of 1,300, it would keep less than half of itself: the next page
        // has it.
        let envelope = page("20\n40\n2\n", 3_000);
        assert_eq!(envelope.returned_items, 1, "{:?}", envelope.items);
        // Nor is a short item cut to end a page, at any budget: a stub that the next page
        // has whole.
        for max_chars in (1_200..2_600).step_by(20) {
            let envelope = page(&"10\n".repeat(20), max_chars);
            for item in &envelope.items {
                let cut = item.get("more_cut").is_some();
                assert!(
                    !cut || json_chars(item) >= LEAST_CUT_ITEM_CHARS,
                    "{max_chars}: {item}"
                );
            }
        }
    }

    #[test]
    fn the_fixed_part_gives_way_further_where_that_lets_another_item_fit() {
        // A summary of 500 chars and stats of 1,000 beside items of 900: within the half
        // of 4,000 the fixed part may take, they left room for two items; cut, three
        // fit.
        let dir = tempfile::tempdir().unwrap();
        let input = long_lines(3, 900);
        let wordy = Items(
            |record: &Record<'_>| json!({"line": record.line, "text": record.text}),
            || Outcome::new("s".repeat(500), json!({"blob": "b".repeat(1_000)})),
        );
        let envelope = reduce(wordy, input.as_bytes(), &config(dir.path(), 4_000)).unwrap();
        check(&envelope, 4_000);
        assert_eq!(envelope.returned_items, 3, "{}", envelope.to_json());
        // At its least, 200 chars of the summary.
        assert!(envelope.summary.chars().count() >= SUMMARY_CHARS);
    }

    #[test]
    fn a_warning_keeps_its_head_while_items_give_way() {
        let dir = tempfile::tempdir().unwrap();
        let reducer = EveryLine {
            stats_chars: 3_000,
            complete: true,
            warnings: 0,
        };
        let warning = format!("artifact not written (no room): {}", "w".repeat(200));
        let mut pipeline = Pipeline::new(reducer, config(dir.path(), 1_000));
        pipeline.push(long_lines(200, 20).as_bytes());
        let envelope = pipeline.finish(End {
            warnings: vec![warning.clone()],
            ..End::default()
        });
        check(&envelope, 1_000);
        assert!(envelope.returned_items > 0);
        let shown = &envelope.warnings[0];
        assert!(warning.starts_with(shown.split(CUT_MARKER).next().unwrap()));
        assert!(shown.chars().count() >= WARNING_CHARS, "{shown}");
    }

    /// Raw framing: one item per NUL-separated record, framed by the reducer itself.
    #[derive(Default)]
    struct NulRecords {
        partial: Vec<u8>,
        offsets: Vec<u64>,
    }

    impl Reducer for NulRecords {
        type Item = Value;
        type Stats = Value;
        fn record(&mut self, _: &Record<'_>, _: &mut dyn Emit<Value>) -> Flow {
            unreachable!("raw framing never frames lines")
        }
        fn framing(&self) -> crate::Framing {
            crate::Framing::Raw
        }
        fn chunk(&mut self, bytes: &[u8], offset: u64, out: &mut dyn Emit<Value>) -> Flow {
            self.offsets.push(offset);
            for &b in bytes {
                if b == 0 {
                    let text = String::from_utf8_lossy(&self.partial).into_owned();
                    out.emit(0, json!(text));
                    self.partial.clear();
                } else {
                    self.partial.push(b);
                }
            }
            Flow::Continue
        }
        fn finish(&mut self, _out: &mut dyn Emit<Value>) -> Outcome<Value> {
            Outcome {
                complete: true,
                ..Outcome::new("records", Value::Null)
            }
        }
    }

    #[test]
    fn raw_framing_hands_the_reducer_every_byte_in_order() {
        let input = b"a\nb\0two\nlines\0\0last\0";
        let envelope = crate::testkit::reduce_all_chunkings(
            NulRecords::default,
            input,
            &RunConfig::new("nul"),
        );
        assert_eq!(
            envelope.items,
            vec![json!("a\nb"), json!("two\nlines"), json!(""), json!("last")]
        );
        assert_eq!(envelope.raw.bytes, input.len() as u64);
        assert_eq!(envelope.raw.lines, 3, "lines are still counted");
        assert!(!envelope.truncated && envelope.warnings.is_empty());

        // The first bytes are held until there are enough to tell UTF-16 from the rest.
        let mut pipeline = Pipeline::new(NulRecords::default(), RunConfig::new("nul"));
        let head = "x".repeat(crate::utf16::SNIFF_BYTES - 1);
        for chunk in [head.as_bytes(), b"ab", b"c", b"de", b"\0"] {
            pipeline.push(chunk);
        }
        assert_eq!(
            pipeline.reducer.offsets,
            vec![0, 64, 65, 66, 68],
            "each chunk's offset in the input"
        );
        assert_eq!(
            pipeline.finish(End::default()).items,
            vec![json!(head + "abcde")]
        );
    }

    /// Reads its "file" itself: one item per byte of `data`, pushed bytes ignored.
    struct OwnInput {
        data: Vec<u8>,
    }

    impl Reducer for OwnInput {
        type Item = Value;
        type Stats = Value;
        fn record(&mut self, _: &Record<'_>, _: &mut dyn Emit<Value>) -> Flow {
            unreachable!("own framing never frames lines")
        }
        fn framing(&self) -> crate::Framing {
            crate::Framing::Own
        }
        fn finish(&mut self, out: &mut dyn Emit<Value>) -> Outcome<Value> {
            for &b in &self.data {
                if out.wants(0) {
                    out.emit(0, json!(b));
                } else {
                    out.skip(0);
                }
            }
            Outcome {
                complete: true,
                ..Outcome::new("own", Value::Null)
            }
        }
        fn raw(&self) -> Option<Raw> {
            Some(Raw {
                bytes: self.data.len() as u64,
                lines: 0,
                chars: self.data.len() as u64,
            })
        }
    }

    #[test]
    fn own_framing_reads_nothing_pushed_and_pages_an_existing_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("input");
        let data: Vec<u8> = (0..=255).collect();
        std::fs::write(&file, &data).unwrap();
        let mut config = RunConfig {
            budget: Budget::default().with_max_chars(1_000).unwrap(),
            artifacts: Artifacts::Existing {
                path: file.clone(),
                sha256: String::new(),
            },
            ..RunConfig::new("own")
        };
        let mut pipeline = Pipeline::new(OwnInput { data: data.clone() }, config.clone());
        assert!(!Push::reads_input(&pipeline));
        pipeline.push(b"ignored");
        let first = pipeline.finish(End::default());
        check(&first, 1_000);
        assert_eq!(first.raw.bytes, 256, "the reducer's own count");
        assert_eq!(first.artifact_path.as_deref(), file.to_str());
        let cursor = Cursor::decode(first.next_cursor.as_ref().unwrap()).unwrap();
        config.after = cursor.after;
        let second = reduce(OwnInput { data }, std::io::empty(), &config).unwrap();
        check(&second, 1_000);
        assert_eq!(second.item_offset, first.returned_items);
        assert_eq!(second.items[0], json!(first.returned_items));
    }

    #[test]
    fn nothing_left_out_means_no_artifact() {
        let dir = tempfile::tempdir().unwrap();
        let reducer = plain_lines();
        let envelope = reduce(reducer, &b"a\nb\n"[..], &config(dir.path(), 5_000)).unwrap();
        check(&envelope, 5_000);
        assert!(!envelope.truncated);
        assert_eq!(
            files_in(dir.path()),
            Vec::<String>::new(),
            "the tee was discarded"
        );
    }

    #[test]
    fn utf16_is_read_as_text_and_a_unit_replaced_keeps_the_artifact() {
        let utf16 = |units: &[u16]| -> Vec<u8> {
            [0xFEFF]
                .iter()
                .chain(units)
                .flat_map(|u| u.to_le_bytes())
                .collect()
        };
        let text: Vec<u16> = "a\nb\n".encode_utf16().collect();
        let dir = tempfile::tempdir().unwrap();
        let envelope =
            reduce(plain_lines(), &utf16(&text)[..], &config(dir.path(), 5_000)).unwrap();
        let texts = |e: &Envelope| {
            e.items
                .iter()
                .map(|i| i["text"].clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(texts(&envelope), [json!("a"), json!("b")]);
        assert_eq!((envelope.raw.bytes, envelope.raw.chars), (10, 4));
        assert!(!envelope.truncated && envelope.artifact_path.is_none());
        // A lone surrogate is read as U+FFFD: what was read is not all there was.
        let bad = [&text[..], &[0xDC00, u16::from(b'\n')]].concat();
        let envelope = reduce(plain_lines(), &utf16(&bad)[..], &config(dir.path(), 5_000)).unwrap();
        assert_eq!(texts(&envelope)[2], json!("\u{fffd}"));
        assert!(envelope.truncated, "{envelope:?}");
        let artifact = std::fs::read(envelope.artifact_path.as_ref().unwrap()).unwrap();
        assert_eq!(artifact, utf16(&bad));
    }

    #[test]
    fn left_out_items_keep_the_artifact_byte_for_byte() {
        let dir = tempfile::tempdir().unwrap();
        let input: Vec<u8> = (0..5_000)
            .flat_map(|i| format!("line {i} é\n").into_bytes())
            .collect();
        let reducer = plain_lines();
        let envelope = reduce(reducer, &input[..], &config(dir.path(), 2_000)).unwrap();
        check(&envelope, 2_000);
        assert!(envelope.truncated && envelope.returned_items > 10);
        let artifact = std::fs::read(envelope.artifact_path.as_ref().unwrap()).unwrap();
        assert_eq!(artifact, input);
        assert_eq!(envelope.raw.bytes, input.len() as u64);
        assert_eq!(envelope.raw.lines, 5_000);
    }

    #[test]
    fn huge_stats_are_cut_and_the_result_still_fits() {
        let dir = tempfile::tempdir().unwrap();
        let reducer = EveryLine {
            stats_chars: 1_000_000,
            complete: true,
            warnings: 0,
        };
        let envelope = reduce(reducer, &b"one\ntwo\n"[..], &config(dir.path(), 1_000)).unwrap();
        check(&envelope, 1_000);
        assert!(envelope.stats["blob"]
            .as_str()
            .unwrap()
            .contains(crate::CUT_MARKER));
        assert!(
            envelope.returned_items >= 1,
            "room is left for the evidence"
        );
        // Every item there, the stats not whole: something was left out, and the artifact
        // is kept (a larger budget reads it whole).
        let reducer = EveryLine {
            stats_chars: 3_000,
            complete: true,
            warnings: 0,
        };
        let envelope = reduce(reducer, &b"one\ntwo\n"[..], &config(dir.path(), 2_000)).unwrap();
        check(&envelope, 2_000);
        assert_eq!(envelope.returned_items, 2);
        assert!(
            envelope.truncated && envelope.artifact_path.is_some(),
            "{envelope:?}"
        );
    }

    #[test]
    fn the_fixed_part_takes_back_the_room_the_items_leave() {
        // The fixed part is cut to make room for items (its stats to 600 chars); when the
        // next item does not fit anyway, what is left goes back to it.
        let dir = tempfile::tempdir().unwrap();
        let reducer = EveryLine {
            stats_chars: 1_200,
            complete: true,
            warnings: 0,
        };
        let line = "x".repeat(1_100);
        let input = format!("{line}\n{line}\n{line}\n");
        let envelope = reduce(reducer, input.as_bytes(), &config(dir.path(), 2_500)).unwrap();
        check(&envelope, 2_500);
        assert_eq!(envelope.returned_items, 1);
        let blob = envelope.stats["blob"].as_str().unwrap().chars().count();
        let printed = envelope.to_json().chars().count();
        assert!(blob > 700 && printed > 2_400, "{blob}, {printed}");
    }

    #[test]
    fn a_text_cut_in_steps_counts_every_character_cut() {
        let dir = tempfile::tempdir().unwrap();
        let reducer = EveryLine {
            stats_chars: 1_000_000,
            complete: true,
            warnings: 3,
        };
        let envelope = reduce(reducer, &b"one\ntwo\n"[..], &config(dir.path(), 1_000)).unwrap();
        check(&envelope, 1_000);
        // What a marker says was cut and what is left make the whole, however many
        // steps the cut took.
        let whole = |text: &str, chars: usize| match text.split_once(CUT_MARKER) {
            Some((head, marker)) => {
                let count: usize = marker.trim_end_matches(" chars]").parse().unwrap();
                assert_eq!(head.chars().count() + count, chars, "{text}");
            }
            None => assert_eq!(text.chars().count(), chars, "{text}"),
        };
        for warning in &envelope.warnings {
            whole(warning, 60);
        }
        let blob = envelope.stats["blob"]
            .as_str()
            .unwrap_or_else(|| panic!("{}", envelope.stats));
        assert!(blob.contains(CUT_MARKER));
        whole(blob, 1_000_000);
    }

    #[test]
    fn a_single_enormous_line_is_cut_and_fits() {
        let dir = tempfile::tempdir().unwrap();
        let mut input = "é".repeat(3_000_000).into_bytes();
        input.push(b'\n');
        let mut config = config(dir.path(), 8_000);
        config.max_line_bytes = 1 << 20;
        let envelope = reduce(
            EveryLine {
                stats_chars: 10,
                complete: true,
                warnings: 0,
            },
            &input[..],
            &config,
        )
        .unwrap();
        check(&envelope, 8_000);
        let text = envelope.items[0]["text"].as_str().unwrap();
        assert!(text.starts_with("éé") && text.contains(crate::CUT_MARKER));
        assert!(envelope.truncated);
        assert!(envelope.warnings[0].contains("longer than 1048576 bytes"));
    }

    #[test]
    fn lossy_reducers_always_truncate_and_keep_the_artifact() {
        let dir = tempfile::tempdir().unwrap();
        let envelope = reduce(
            EveryLine {
                stats_chars: 0,
                complete: false,
                warnings: 0,
            },
            &b"a\n"[..],
            &config(dir.path(), 5_000),
        )
        .unwrap();
        check(&envelope, 5_000);
        assert!(envelope.truncated && envelope.next_cursor.is_none());
    }

    #[test]
    fn artifact_failure_is_marked_and_still_fits() {
        let mut config = RunConfig::new("every");
        config.artifacts = Artifacts::Unavailable("read-only file system".into());
        config.budget = Budget::default().with_max_chars(1_500).unwrap();
        let input: String = (0..1_000).map(|i| format!("{i}\n")).collect();
        let envelope = reduce(plain_lines(), input.as_bytes(), &config).unwrap();
        assert!(envelope.truncated);
        assert!(envelope.artifact_path.is_none() && envelope.next_cursor.is_none());
        assert!(
            envelope
                .warnings
                .iter()
                .any(|w| w.contains("artifact not written (read-only file system)")),
            "{:?}",
            envelope.warnings
        );
        assert!(envelope.to_json().chars().count() <= 1_500);
    }

    #[test]
    fn pages_cover_every_item_once() {
        let dir = tempfile::tempdir().unwrap();
        let input: String = (1..=3_000).map(|i| format!("{i}\n")).collect();
        let mut config = config(dir.path(), 1_500);
        let mut seen = Vec::new();
        let mut artifact = None;
        loop {
            let envelope = reduce(plain_lines(), input.as_bytes(), &config).unwrap();
            check(&envelope, 1_500);
            assert_eq!(envelope.item_offset, seen.len() as u64);
            seen.extend(envelope.items.iter().map(|i| i["line"].as_u64().unwrap()));
            let Some(cursor) = envelope.next_cursor else {
                break;
            };
            let cursor = Cursor::decode(&cursor).unwrap();
            artifact.get_or_insert(cursor.artifact.clone());
            config.after = cursor.after;
            // Pages read the artifact; they never write a new one.
            config.artifacts = Artifacts::Existing {
                path: cursor.artifact.into(),
                sha256: cursor.sha256,
            };
        }
        assert_eq!(seen, (1..=3_000).collect::<Vec<_>>());
        assert!(artifact.is_some());
    }

    #[test]
    fn text_rendering_is_what_is_measured() {
        fn long(e: &Envelope) -> String {
            // A printer twice as verbose as JSON.
            format!("{0}{0}", e.to_json())
        }
        let mut config = RunConfig::new("every");
        config.budget = Budget::default().with_max_chars(3_000).unwrap();
        config.render = long;
        let input: String = (0..500).map(|i| format!("{i}\n")).collect();
        let envelope = reduce(plain_lines(), input.as_bytes(), &config).unwrap();
        assert!(long(&envelope).chars().count() <= 3_000);
    }

    /// Every page of `input` from `config` on, each checked against the budget and
    /// against standing still; returns the items' lines in order (`None` for an item cut
    /// to the bare marker).
    fn walk(make: impl Fn() -> EveryLine, input: &[u8], mut config: RunConfig) -> Vec<Option<u64>> {
        let max_chars = config.budget.per_result_chars;
        let mut seen = Vec::new();
        loop {
            let envelope = reduce(make(), input, &config).unwrap();
            check(&envelope, max_chars);
            assert_eq!(envelope.item_offset, seen.len() as u64);
            seen.extend(envelope.items.iter().map(|i| i["line"].as_u64()));
            let Some(cursor) = envelope.next_cursor else {
                return seen;
            };
            assert!(
                envelope.returned_items > 0,
                "a page with a cursor must move forward (after {} items)",
                seen.len()
            );
            let cursor = Cursor::decode(&cursor).unwrap();
            config.after = cursor.after;
            config.options = cursor.options().unwrap();
            config.artifacts = Artifacts::Existing {
                path: cursor.artifact.into(),
                sha256: cursor.sha256,
            };
        }
    }

    fn long_lines(n: usize, chars: usize) -> String {
        (0..n)
            .map(|i| format!("{i:>5} {}\n", "word ".repeat(chars / 5)))
            .collect()
    }

    fn assert_all_lines(seen: &[Option<u64>], n: u64) {
        assert_eq!(seen.len() as u64, n);
        for (i, line) in seen.iter().enumerate() {
            assert!(line.is_none_or(|l| l == i as u64 + 1), "{i}: {line:?}");
        }
    }

    #[test]
    fn a_page_moves_forward_when_its_first_item_takes_all_the_room() {
        // An item exactly as long as the items' share of the budget took one char more
        // with its comma and was left out: a page of no items whose cursor named itself.
        let dir = tempfile::tempdir().unwrap();
        let make = || EveryLine {
            stats_chars: 600,
            complete: true,
            warnings: 0,
        };
        for max_chars in [1_000, 1_100, 1_500, 4_000] {
            let exact = config(dir.path(), max_chars);
            // {"line":N,"text":"…"} with N one digit: 20 chars and the text.
            let text = "t".repeat(items_budget(&exact) - 20);
            let input: String = (0..9).map(|_| format!("{text}\n")).collect();
            let seen = walk(make, input.as_bytes(), exact);
            assert_all_lines(&seen, 9);
            let seen = walk(
                make,
                long_lines(30, 600).as_bytes(),
                config(dir.path(), max_chars),
            );
            assert_all_lines(&seen, 30);
        }
    }

    #[test]
    fn a_page_moves_forward_when_the_fixed_part_leaves_no_room() {
        // 300 warnings cut to 10 chars each still took thrice the budget: no item fitted,
        // and the envelope was over.
        let dir = tempfile::tempdir().unwrap();
        let make = || EveryLine {
            stats_chars: 2_000,
            complete: true,
            warnings: 300,
        };
        let input = long_lines(12, 300);
        let first = reduce(make(), input.as_bytes(), &config(dir.path(), 1_000)).unwrap();
        check(&first, 1_000);
        assert_eq!(first.returned_items, 1);
        let said: usize = first.warnings.iter().map(|w| warnings_in(w)).sum();
        assert_eq!(said, 300, "cut warnings are counted: {:?}", first.warnings);
        let mut shrunk = first.clone();
        for limit in [20, 8, 0] {
            shrink_overhead(&mut shrunk, limit, limit / 2);
            let said: usize = shrunk.warnings.iter().map(|w| warnings_in(w)).sum();
            assert_eq!(said, 300, "{limit}: {:?}", shrunk.warnings);
        }
        assert!(first.warnings.iter().any(|w| w.ends_with(" warnings]")));
        let seen = walk(make, input.as_bytes(), config(dir.path(), 1_000));
        assert_all_lines(&seen, 12);
    }

    #[test]
    fn a_long_cursor_still_leaves_room_for_a_cut_item() {
        // Cursors of every length up to the file threshold, and fixed parts of every size
        // around what the budget leaves: each page holds one item, cut as far as needed
        // (never to a bare null), and fits.
        let dir = tempfile::tempdir().unwrap();
        let most = inline_options_chars(&Budget::default().with_max_chars(1_000).unwrap());
        for options_chars in (0..most - 10).step_by(15) {
            for warnings in [0, 3, 6, 9] {
                let mut config = config(dir.path(), 1_000);
                config.options = json!({ "o": "x".repeat(options_chars) });
                let make = || EveryLine {
                    stats_chars: 100,
                    complete: true,
                    warnings,
                };
                let input = long_lines(3, 2_000);
                let first = reduce(make(), input.as_bytes(), &config).unwrap();
                assert!(first.items.iter().all(|i| !i.is_null()), "{first:?}");
                let seen = walk(make, input.as_bytes(), config);
                assert_eq!(seen.len(), 3, "{options_chars} {warnings}");
            }
        }
    }

    /// The files in `dir` but the stamp of the gc that a new artifact runs.
    fn files_in(dir: &std::path::Path) -> Vec<String> {
        crate::artifact::files_in(dir)
    }

    #[test]
    fn long_options_are_kept_beside_the_artifact_and_the_cursor_stays_short() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let options = json!({"grep": "kernel|".repeat(3_000), "top": 10});
        let mut config = config(dir.path(), 1_000);
        config.options = options.clone();
        let input = long_lines(40, 100);
        let first = reduce(plain_lines(), input.as_bytes(), &config).unwrap();
        check(&first, 1_000);
        assert!(first.returned_items > 0);
        let text = first.next_cursor.clone().unwrap();
        assert!(text.len() < 400, "{} chars", text.len());
        let cursor = Cursor::decode(&text).unwrap();
        assert_eq!(cursor.options, Value::Null);
        assert_eq!(cursor.options_dir, None, "beside the artifact");
        assert_eq!(cursor.options().unwrap(), options);
        let artifact = first.artifact_path.clone().unwrap();
        let file = format!(
            "{artifact}.options-{}.json",
            cursor.options_sha256.as_ref().unwrap()
        );
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);

        // Same cursor, same page; paging writes nothing new.
        let page = |cursor: &Cursor| {
            let config = RunConfig {
                after: cursor.after,
                options: cursor.options().unwrap(),
                artifacts: Artifacts::Existing {
                    path: cursor.artifact.clone().into(),
                    sha256: cursor.sha256.clone(),
                },
                ..config.clone()
            };
            reduce(plain_lines(), input.as_bytes(), &config).unwrap()
        };
        let second = page(&cursor);
        assert_eq!(second, page(&cursor));
        assert_eq!(second.item_offset, first.returned_items);
        assert_eq!(
            second.next_cursor.as_ref().map(|c| c.len() < 400),
            Some(true)
        );
        let names = files_in(dir.path());
        assert_eq!(names.len(), 3, "artifact, sidecar, options: {names:?}");
        let seen = walk(plain_lines, input.as_bytes(), config.clone());
        assert_all_lines(&seen, 40);

        // A changed options file is noticed, not used.
        std::fs::write(&file, json!({"grep": "other"}).to_string()).unwrap();
        let err = cursor.options().unwrap_err().to_string();
        assert!(err.contains("does not match"), "{err}");
        std::fs::remove_file(&file).unwrap();
        let err = cursor.options().unwrap_err().to_string();
        assert!(err.contains("expire a day after"), "{err}");
    }

    #[test]
    fn long_options_of_a_file_read_in_place_go_to_the_artifact_directory() {
        let data = tempfile::tempdir().unwrap();
        let art = tempfile::tempdir().unwrap();
        let file = data.path().join("table.csv");
        let input = long_lines(40, 100);
        std::fs::write(&file, &input).unwrap();
        let options = json!({ "where": vec!["a = 1"; 100] });
        let config = RunConfig {
            budget: Budget::default().with_max_chars(1_000).unwrap(),
            options: options.clone(),
            artifacts: Artifacts::Existing {
                path: file.clone(),
                sha256: String::new(),
            },
            options_dir: Some(ArtifactDir::open(art.path()).unwrap()),
            ..RunConfig::new("every")
        };
        let first = reduce(plain_lines(), input.as_bytes(), &config).unwrap();
        check(&first, 1_000);
        let cursor = Cursor::decode(first.next_cursor.as_ref().unwrap()).unwrap();
        assert_eq!(
            cursor.options_dir.as_deref(),
            art.path().to_str(),
            "not beside the file"
        );
        assert_eq!(cursor.options().unwrap(), options);
        assert_eq!(files_in(data.path()), ["table.csv"]);
        assert_eq!(files_in(art.path()).len(), 1);
    }

    #[test]
    fn the_options_a_cursor_carries_are_bounded_by_the_budget() {
        let at = |chars| inline_options_chars(&Budget::default().with_max_chars(chars).unwrap());
        assert_eq!(at(1_000), 125);
        assert_eq!(at(3_200), MAX_INLINE_OPTIONS_CHARS);
        assert_eq!(at(100_000), MAX_INLINE_OPTIONS_CHARS);
    }

    #[test]
    fn short_options_stay_in_the_cursor() {
        let dir = tempfile::tempdir().unwrap();
        let mut config = config(dir.path(), 1_000);
        config.options = json!({"top": 10});
        assert!(json_chars(&config.options) <= inline_options_chars(&config.budget));
        let first = reduce(plain_lines(), long_lines(40, 100).as_bytes(), &config).unwrap();
        let cursor = Cursor::decode(first.next_cursor.as_ref().unwrap()).unwrap();
        assert_eq!(cursor.options, config.options);
        assert_eq!(cursor.options_sha256, None);
        assert_eq!(files_in(dir.path()).len(), 2, "artifact and sidecar");
    }
}
