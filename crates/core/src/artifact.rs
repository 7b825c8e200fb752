//! Artifacts: the raw input, kept byte for byte, in a private directory.

use crate::Error;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fs;
use std::io::{self, Read, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime};

/// How long an artifact lives by default: `briefly gc` removes older ones, and so does
/// [`ArtifactDir::create`] now and then.
pub const DEFAULT_TTL: Duration = Duration::from_secs(24 * 3600);

/// How often at most [`ArtifactDir::create`] removes expired files.
pub const GC_INTERVAL: Duration = Duration::from_secs(3600);

/// The file whose modification time says when expired files were last removed.
const GC_STAMP: &str = ".gc-stamp";

/// Longest readable part of an artifact's name (before its hash).
const MAX_NAME_CHARS: usize = 48;

/// The directory artifacts live in: private to the user (0700), files 0600.
#[derive(Debug, Clone)]
pub struct ArtifactDir {
    path: PathBuf,
    /// Whether [`ArtifactDir::create`] removes expired files now and then.
    auto_gc: bool,
}

impl ArtifactDir {
    /// The default location: `$XDG_RUNTIME_DIR/briefly`, else `<temp>/briefly-<uid>`.
    pub fn default_path() -> PathBuf {
        match std::env::var_os("XDG_RUNTIME_DIR").filter(|d| !d.is_empty()) {
            Some(runtime) => PathBuf::from(runtime).join("briefly"),
            None => std::env::temp_dir().join(format!("briefly-{}", unsafe { libc::geteuid() })),
        }
    }

    /// Uses `path`, made absolute (creating it 0700 if missing), after checking that it
    /// is a real directory owned by this user. An existing one others can write to is
    /// closed to their writing (they could plant files where cursors lead); the rest of
    /// its mode is the user's to choose, since the files in it are 0600.
    pub fn open(path: impl Into<PathBuf>) -> Result<ArtifactDir, Error> {
        let path = path.into();
        // Artifact paths and cursors are used from other directories: they are absolute.
        let path = std::path::absolute(&path).unwrap_or(path);
        let artifact_err = |source| Error::Artifact {
            path: path.clone(),
            source,
        };
        match fs::DirBuilder::new()
            .mode(0o700)
            .recursive(false)
            .create(&path)
        {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                // A missing parent: make it as usual, and our own directory 0700.
                if let Some(parent) = path.parent() {
                    fs::create_dir_all(parent).map_err(artifact_err)?;
                }
                match fs::DirBuilder::new().mode(0o700).create(&path) {
                    Ok(()) => {}
                    Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                    Err(e) => return Err(artifact_err(e)),
                }
            }
            Err(e) => return Err(artifact_err(e)),
        }
        let meta = fs::symlink_metadata(&path).map_err(artifact_err)?;
        let unsafe_dir = |why: &str| Error::UnsafeDir {
            path: path.clone(),
            why: why.into(),
        };
        if meta.file_type().is_symlink() {
            return Err(unsafe_dir("it is a symbolic link"));
        }
        if !meta.is_dir() {
            return Err(unsafe_dir("it is not a directory"));
        }
        if meta.uid() != unsafe { libc::geteuid() } {
            return Err(unsafe_dir("it belongs to another user"));
        }
        if meta.mode() & 0o022 != 0 {
            let closed = fs::Permissions::from_mode(meta.mode() & 0o7755);
            fs::set_permissions(&path, closed).map_err(artifact_err)?;
        }
        Ok(ArtifactDir {
            path,
            auto_gc: true,
        })
    }

    /// Whether [`ArtifactDir::create`] removes files older than [`DEFAULT_TTL`], at most
    /// once per [`GC_INTERVAL`] (on unless turned off here): the expiry every envelope
    /// states then holds without anyone running `briefly gc`.
    pub fn with_auto_gc(mut self, on: bool) -> ArtifactDir {
        self.auto_gc = on;
        self
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Starts a new artifact named after `id` (a tool-call id, say), or a fresh unique
    /// name. Its bytes go to a private temporary file until [`ArtifactWriter::save`].
    pub fn create(&self, id: Option<&str>) -> Result<ArtifactWriter, Error> {
        if self.auto_gc {
            self.gc_if_due();
        }
        let id = match id {
            Some(id) => id.to_string(),
            None => unique_id(),
        };
        let name = artifact_name(&id);
        let file = tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .suffix(".part")
            .tempfile_in(&self.path)
            .map_err(|source| Error::Artifact {
                path: self.path.clone(),
                source,
            })?;
        Ok(ArtifactWriter::start(self.path.clone(), name, file))
    }

    /// [`ArtifactDir::gc`] of files older than [`DEFAULT_TTL`], unless it ran less than
    /// [`GC_INTERVAL`] ago. Its stamp is written first, so that commands starting
    /// meanwhile do not do it too; a directory where it cannot be written is left as it
    /// is. What this removes had expired, and what it fails to remove `briefly gc` reports.
    fn gc_if_due(&self) {
        let stamp = self.path.join(GC_STAMP);
        let due = fs::symlink_metadata(&stamp)
            .and_then(|meta| meta.modified())
            // A stamp from the future (the clock was set back) is due too.
            .map_or(true, |at| {
                at.elapsed().map_or(true, |age| age >= GC_INTERVAL)
            });
        if !due {
            return;
        }
        let touched = fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&stamp)
            .and_then(|file| file.set_modified(SystemTime::now()));
        if touched.is_ok() {
            let _ = self.gc(DEFAULT_TTL);
        }
    }

    /// Removes artifacts (and their sidecars and abandoned partial files) last written
    /// more than `older_than` ago, and with an artifact the files that hold its cursors'
    /// options (which are younger than it: written by its first page). Only briefly's
    /// own files go, known by their names (artifacts, sidecars, options files, partial
    /// files): anything else in the directory is left alone and counted, whatever its age.
    pub fn gc(&self, older_than: Duration) -> Result<GcReport, Error> {
        let now = SystemTime::now();
        let mut report = GcReport::default();
        let entries = fs::read_dir(&self.path).map_err(|source| Error::Artifact {
            path: self.path.clone(),
            source,
        })?;
        let mut files = Vec::new();
        for entry in entries.flatten() {
            let Ok(meta) = entry.metadata() else { continue };
            if !meta.is_file() {
                continue;
            }
            let age = meta
                .modified()
                .ok()
                .and_then(|m| now.duration_since(m).ok())
                .unwrap_or_default();
            let name = entry.file_name().to_string_lossy().into_owned();
            if name == GC_STAMP {
                continue;
            }
            if !is_own_file(&self.path, &name) {
                report.others += 1;
                continue;
            }
            // A file being written is a running command's, whatever age was asked for:
            // its writes keep it young, and one left by a command that died ages.
            let limit = match name.starts_with('.') {
                true => older_than.max(PART_FILE_GRACE),
                false => older_than,
            };
            files.push((entry.path(), name, meta.len(), age > limit));
        }
        // Options files go with their artifact, so no stray one outlives it.
        let removed: std::collections::HashSet<String> = files
            .iter()
            .filter(|(_, name, _, old)| *old && options_owner(name).is_none())
            .map(|(_, name, _, _)| name.clone())
            .collect();
        for (path, name, len, old) in files {
            let goes = old || options_owner(&name).is_some_and(|owner| removed.contains(owner));
            if !goes {
                report.kept_files += 1;
                continue;
            }
            match fs::remove_file(path) {
                Ok(()) => {
                    report.removed_files += 1;
                    report.removed_bytes += len;
                }
                // Another command's gc took it meanwhile.
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(_) => report.failed += 1,
            }
        }
        Ok(report)
    }
}

/// How long a file being written (`.<artifact>.<random>.part`) is left by `gc`, however
/// young a file it was asked to remove: a command still writing it touches it.
pub const PART_FILE_GRACE: Duration = Duration::from_secs(3600);

/// What `briefly gc` did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct GcReport {
    /// Files removed (artifacts, sidecars, partial files).
    pub removed_files: u64,
    /// Bytes those files held.
    pub removed_bytes: u64,
    /// briefly's files young enough to keep.
    pub kept_files: u64,
    /// Files that are not briefly's (by their names): left alone.
    pub others: u64,
    /// Files that could not be removed.
    pub failed: u64,
}

/// The sidecar written beside every saved artifact (`<artifact>.meta.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct ArtifactMeta {
    /// The reducer or command that made it.
    pub source: String,
    /// The tool-call id, when one was given.
    pub id: Option<String>,
    /// The command line of the command whose output it is (for `run`).
    pub argv: Vec<String>,
    /// The command's exit code (for `run`).
    pub exit_code: Option<i32>,
    /// Why the command ended, when not of its own accord (`run`: `timed out after 1s`,
    /// `killed by SIGKILL`): for its pages' summaries as for the first's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended_by: Option<String>,
    /// Size in bytes.
    pub bytes: u64,
    /// Lines.
    pub lines: u64,
    /// sha256 of the raw bytes (hex); equal to the artifact file's.
    pub sha256: String,
    /// When it was written (RFC 3339, UTC).
    pub created: String,
    /// When `briefly gc` with its default age removes it (RFC 3339, UTC).
    pub expires: String,
}

/// A saved artifact.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedArtifact {
    /// Where it is.
    pub path: PathBuf,
    /// Its sidecar, as written.
    pub meta: ArtifactMeta,
}

/// Bytes gathered before a batch goes to the writing thread. Small, so that a batch is
/// still in the cache when that thread hashes and writes it: by benches/ab.sh against
/// batches of 256 KiB (8 in flight), `text` 1.05–1.19× and `spill` 1.11× as fast on a
/// 1 GB log, with less CPU time.
const BATCH: usize = 64 * 1024;
/// Batches in flight at most: bounds the memory the writer holds.
const IN_FLIGHT: usize = 16;

/// The raw input on its way to disk: bytes are written and hashed as they arrive, on a
/// thread of their own so that reducing and writing overlap, with at most
/// `IN_FLIGHT × BATCH` bytes between them. Dropped without [`ArtifactWriter::save`], it
/// leaves nothing behind.
#[derive(Debug)]
pub struct ArtifactWriter {
    dir: PathBuf,
    name: String,
    bytes: u64,
    batch: Vec<u8>,
    sender: Option<SyncSender<Vec<u8>>>,
    /// Batches the thread is done with, to be filled again: fresh ones would each cost
    /// the kernel a page fault per page.
    emptied: Receiver<Vec<u8>>,
    worker: Option<JoinHandle<io::Result<(tempfile::NamedTempFile, String)>>>,
}

impl ArtifactWriter {
    fn start(dir: PathBuf, name: String, mut file: tempfile::NamedTempFile) -> ArtifactWriter {
        let (sender, receiver) = mpsc::sync_channel::<Vec<u8>>(IN_FLIGHT);
        let (give_back, emptied) = mpsc::channel();
        let worker = std::thread::spawn(move || {
            let mut hasher = Sha256::new();
            for mut batch in receiver {
                file.write_all(&batch)?;
                hasher.update(&batch);
                batch.clear();
                // None come back once the writer is done: then they are dropped here.
                let _ = give_back.send(batch);
            }
            file.flush()?;
            Ok((file, hex(&hasher.finalize())))
        });
        ArtifactWriter {
            dir,
            name,
            bytes: 0,
            batch: Vec::with_capacity(BATCH),
            sender: Some(sender),
            emptied,
            worker: Some(worker),
        }
    }

    /// Appends raw bytes. An error means the artifact is lost: stop writing.
    pub fn write(&mut self, mut bytes: &[u8]) -> io::Result<()> {
        self.bytes += bytes.len() as u64;
        while !bytes.is_empty() {
            let (now, rest) = bytes.split_at(bytes.len().min(BATCH - self.batch.len()));
            self.batch.extend_from_slice(now);
            bytes = rest;
            if self.batch.len() == BATCH {
                self.send()?;
            }
        }
        Ok(())
    }

    /// Bytes written so far.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    fn send(&mut self) -> io::Result<()> {
        let next = (self.emptied.try_recv()).unwrap_or_else(|_| Vec::with_capacity(BATCH));
        let batch = std::mem::replace(&mut self.batch, next);
        let sent = self.sender.as_ref().map(|s| s.send(batch));
        match sent {
            Some(Ok(())) => Ok(()),
            // The thread stopped: it says why when joined.
            _ => Err(self
                .join()
                .err()
                .unwrap_or_else(|| io::Error::other("artifact writer stopped"))),
        }
    }

    fn join(&mut self) -> io::Result<(tempfile::NamedTempFile, String)> {
        self.sender = None;
        match self.worker.take().map(JoinHandle::join) {
            Some(Ok(result)) => result,
            Some(Err(_)) => Err(io::Error::other("artifact writer panicked")),
            None => Err(io::Error::other("artifact writer already stopped")),
        }
    }

    /// Completes the file, gives it its name (never replacing another file: a taken
    /// name gets a `-2`, `-3`… suffix), and writes the sidecar. `meta`'s size, hash and
    /// times are filled in here.
    pub fn save(mut self, mut meta: ArtifactMeta) -> Result<SavedArtifact, Error> {
        let io_err = |dir: &Path, name: &str, source| Error::Artifact {
            path: dir.join(name),
            source,
        };
        if !self.batch.is_empty() {
            self.send().map_err(|e| io_err(&self.dir, &self.name, e))?;
        }
        let (file, sha256) = self.join().map_err(|e| io_err(&self.dir, &self.name, e))?;
        let (dir, name, bytes) = (self.dir.clone(), self.name.clone(), self.bytes);
        let mut temp = file.into_temp_path();
        let mut path = dir.join(&name);
        for n in 2.. {
            match temp.persist_noclobber(&path) {
                Ok(()) => break,
                Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists && n < 1000 => {
                    temp = e.path;
                    path = dir.join(format!("{name}-{n}"));
                }
                Err(e) => return Err(io_err(&dir, &name, e.error)),
            }
        }
        let created = SystemTime::now();
        meta.bytes = bytes;
        meta.sha256 = sha256;
        meta.created = humantime::format_rfc3339_seconds(created).to_string();
        meta.expires = humantime::format_rfc3339_seconds(created + DEFAULT_TTL).to_string();
        let sidecar = sidecar_path(&path);
        let json = serde_json::to_vec_pretty(&meta).unwrap_or_default();
        let written = write_new_file(&sidecar, &json, |file, json| file.write_all(json));
        if let Err(source) = written {
            let _ = fs::remove_file(&path);
            return Err(Error::Artifact {
                path: sidecar,
                source,
            });
        }
        Ok(SavedArtifact { path, meta })
    }
}

impl Drop for ArtifactWriter {
    /// Waits for the thread, so that an unsaved temporary file is removed before exit.
    fn drop(&mut self) {
        let _ = self.join();
    }
}

/// Writes `bytes` to a file made at `path` (none may be there), by `write`. A file made
/// but not written whole (a full disk) is removed: a sidecar of nothing, which no gc
/// would know as briefly's, would outlive its artifact.
fn write_new_file(
    path: &Path,
    bytes: &[u8],
    write: impl FnOnce(&mut fs::File, &[u8]) -> io::Result<()>,
) -> io::Result<()> {
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)?;
    write(&mut file, bytes).inspect_err(|_| {
        let _ = fs::remove_file(path);
    })
}

/// Where an artifact's sidecar is.
pub fn sidecar_path(artifact: &Path) -> PathBuf {
    let mut name = artifact.as_os_str().to_owned();
    name.push(".meta.json");
    PathBuf::from(name)
}

/// What names an options file, between the artifact's name and its hash.
const OPTIONS_INFIX: &str = ".options-";

/// Where the long options of cursors over `artifact` are kept, by their hash (16 hex
/// digits): beside the artifact, or in `dir` when the artifact is not in an artifact
/// directory (a table file read in place), named after its path there.
pub(crate) fn options_path(artifact: &Path, dir: Option<&Path>, sha256: &str) -> PathBuf {
    let (dir, name) = match dir {
        Some(dir) => (
            dir.to_path_buf(),
            artifact_name(&artifact.to_string_lossy()),
        ),
        None => (
            artifact.parent().map(Path::to_path_buf).unwrap_or_default(),
            artifact
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        ),
    };
    dir.join(format!("{name}{OPTIONS_INFIX}{sha256}.json"))
}

/// The name of the artifact an options file belongs to, when `name` is one.
fn options_owner(name: &str) -> Option<&str> {
    let stem = name.strip_suffix(".json")?;
    let at = stem.rfind(OPTIONS_INFIX)?;
    is_options_hash(&stem[at + OPTIONS_INFIX.len()..]).then_some(&stem[..at])
}

/// Whether `name`, in the artifact directory `dir`, is a file briefly wrote: an artifact
/// or its sidecar (a name alone could be anyone's, `backup-0123456789ab`: the sidecar
/// must be there and be briefly's), an artifact's options file, or a file being written
/// (`.<artifact>.<6 random characters>.part`).
fn is_own_file(dir: &Path, name: &str) -> bool {
    if let Some(hidden) = name.strip_prefix('.') {
        return hidden
            .strip_suffix(".part")
            .and_then(|part| part.rsplit_once('.'))
            .is_some_and(|(artifact, random)| {
                random.len() == 6
                    && random.bytes().all(|b| b.is_ascii_alphanumeric())
                    && is_artifact_name(artifact)
            });
    }
    if let Some(owner) = options_owner(name) {
        return is_artifact_name(owner);
    }
    let artifact = name.strip_suffix(".meta.json").unwrap_or(name);
    is_artifact_name(artifact) && is_sidecar(&sidecar_path(&dir.join(artifact)))
}

/// Whether the file at `path` is a sidecar as [`ArtifactWriter::save`] writes it.
fn is_sidecar(path: &Path) -> bool {
    let Ok(file) = fs::File::open(path) else {
        return false;
    };
    // A sidecar is small: a large file is not one, and is not read whole.
    let mut json = Vec::new();
    let read = file.take(MAX_SIDECAR_BYTES + 1).read_to_end(&mut json);
    read.is_ok()
        && json.len() as u64 <= MAX_SIDECAR_BYTES
        && serde_json::from_slice::<ArtifactMeta>(&json).is_ok()
}

/// The largest sidecar [`is_sidecar`] reads: its command line is the only long part.
const MAX_SIDECAR_BYTES: u64 = 1 << 20;

/// Whether `name` is as [`ArtifactDir::create`] names an artifact: [`artifact_name`]'s
/// `<id>-<12 hex digits>`, with `-2`, `-3`… when that was taken.
fn is_artifact_name(name: &str) -> bool {
    let name = match name.rsplit_once('-') {
        Some((named, n)) if (1..=3).contains(&n.len()) && n.bytes().all(|b| b.is_ascii_digit()) => {
            named
        }
        _ => name,
    };
    let Some((safe, hash)) = name.rsplit_once('-') else {
        return false;
    };
    hash.len() == 12
        && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        && (1..=MAX_NAME_CHARS).contains(&safe.len())
        && safe
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Whether `hash` is what [`options_sha256`] gives: 16 hex digits, and so safe in a file
/// name.
pub(crate) fn is_options_hash(hash: &str) -> bool {
    hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The first 16 hex digits of the sha256 of `json`: names and checks an options file.
pub(crate) fn options_sha256(json: &str) -> String {
    hex(&Sha256::digest(json.as_bytes()))[..16].to_string()
}

/// Writes an options file: 0600, under a temporary name then renamed without replacing
/// anything, like an artifact. One that is there already is kept if it holds the same
/// options (every page of a result writes the same file); otherwise it is an error.
pub(crate) fn write_options(path: &Path, json: &str) -> Result<(), Error> {
    let io_err = |source| Error::Artifact {
        path: path.to_path_buf(),
        source,
    };
    let holds_them = || fs::read(path).is_ok_and(|existing| existing == json.as_bytes());
    if path.exists() {
        return match holds_them() {
            true => Ok(()),
            false => Err(io_err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                "another options file is in the way",
            ))),
        };
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut file = tempfile::Builder::new()
        .prefix(".options.")
        .suffix(".part")
        .tempfile_in(dir)
        .map_err(io_err)?;
    file.write_all(json.as_bytes()).map_err(io_err)?;
    match file.into_temp_path().persist_noclobber(path) {
        Ok(()) => Ok(()),
        // Another page wrote it meanwhile: the same check as above.
        Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists && holds_them() => Ok(()),
        Err(e) => Err(io_err(e.error)),
    }
}

/// Reads the options file at `path` and checks it against the hash that named it.
pub(crate) fn read_options(path: &Path, sha256: &str) -> Result<serde_json::Value, Error> {
    let json = fs::read_to_string(path).map_err(|e| {
        Error::Cursor(format!(
            "its options file {} cannot be read ({e}); artifacts and their options expire a day after they were made",
            path.display()
        ))
    })?;
    if options_sha256(&json) != sha256 {
        return Err(Error::Cursor(format!(
            "its options file {} does not match the cursor",
            path.display()
        )));
    }
    serde_json::from_str(&json).map_err(|e| Error::Cursor(format!("damaged options ({e})")))
}

/// A file name for `id` that can never leave its directory: unsafe characters replaced,
/// length capped, and the first 12 hex digits of the id's sha256 so distinct ids differ.
pub(crate) fn artifact_name(id: &str) -> String {
    let safe: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(MAX_NAME_CHARS)
        .collect();
    let safe = safe.trim_matches('_');
    let hash = &hex(&Sha256::digest(id.as_bytes()))[..12];
    if safe.is_empty() {
        format!("out-{hash}")
    } else {
        format!("{safe}-{hash}")
    }
}

fn unique_id() -> String {
    let now = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default();
    format!("r{}-{}", now.as_nanos(), std::process::id())
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The names of the files in `dir`, sorted, but [`GC_STAMP`]: what the tests count.
#[cfg(test)]
pub(crate) fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name != GC_STAMP)
        .collect();
    names.sort();
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_never_leave_the_directory() {
        let long = "a".repeat(10_000);
        for id in [
            "../../x",
            "$(whoami)",
            "a\0b",
            "/etc/passwd",
            "..",
            "",
            long.as_str(),
            "call_1",
        ] {
            let name = artifact_name(id);
            assert!(
                !name.contains('/') && !name.contains('\0') && !name.starts_with('.'),
                "{name}"
            );
            assert!(name.len() <= MAX_NAME_CHARS + 13, "{}", name.len());
            assert!(name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
        }
        assert_eq!(artifact_name("call_1").len(), "call_1-".len() + 12);
        assert_ne!(
            artifact_name("a/b"),
            artifact_name("a_b"),
            "the hash keeps ids apart"
        );
    }

    #[test]
    fn saves_byte_for_byte_with_sidecar_and_private_modes() {
        let root = tempfile::tempdir().unwrap();
        let dir = ArtifactDir::open(root.path().join("art")).unwrap();
        assert_eq!(fs::metadata(dir.path()).unwrap().mode() & 0o777, 0o700);
        let mut writer = dir.create(Some("../../escape")).unwrap();
        writer.write(b"hello ").unwrap();
        writer.write(&[0xff, 0x00, b'\n']).unwrap();
        let saved = writer
            .save(ArtifactMeta {
                source: "spill".into(),
                ..Default::default()
            })
            .unwrap();
        assert_eq!(saved.path.parent().unwrap(), dir.path());
        assert_eq!(fs::read(&saved.path).unwrap(), b"hello \xff\x00\n");
        assert_eq!(fs::metadata(&saved.path).unwrap().mode() & 0o777, 0o600);
        assert_eq!(saved.meta.sha256, hex(&Sha256::digest(b"hello \xff\x00\n")));
        let sidecar: ArtifactMeta =
            serde_json::from_slice(&fs::read(sidecar_path(&saved.path)).unwrap()).unwrap();
        assert_eq!(sidecar.bytes, 9);
        assert_eq!(sidecar.sha256, saved.meta.sha256);
        // No partial file is left behind.
        let names = files_in(dir.path());
        assert_eq!(names.len(), 2, "{names:?}");
    }

    #[test]
    fn writes_of_any_size_across_batches_arrive_in_order() {
        let root = tempfile::tempdir().unwrap();
        let dir = ArtifactDir::open(root.path()).unwrap();
        let input: Vec<u8> = (0..BATCH * (IN_FLIGHT + 3) + 17)
            .map(|i| (i % 251) as u8)
            .collect();
        let mut writer = dir.create(None).unwrap();
        // Pieces shorter than a batch, exactly one, and many at once.
        let mut rest = &input[..];
        for size in [1, BATCH - 1, BATCH, 3 * BATCH + 5, 7].into_iter().cycle() {
            let (piece, after) = rest.split_at(size.min(rest.len()));
            writer.write(piece).unwrap();
            assert!(writer.batch.len() < BATCH, "a full batch is sent at once");
            rest = after;
            if rest.is_empty() {
                break;
            }
        }
        assert_eq!(writer.bytes(), input.len() as u64);
        let saved = writer.save(ArtifactMeta::default()).unwrap();
        assert!(fs::read(&saved.path).unwrap() == input, "bytes differ");
        assert_eq!(saved.meta.sha256, hex(&Sha256::digest(&input)));
    }

    #[test]
    fn same_id_twice_never_clobbers() {
        let root = tempfile::tempdir().unwrap();
        let dir = ArtifactDir::open(root.path()).unwrap();
        let mut paths = Vec::new();
        for text in [&b"one"[..], b"two", b"three"] {
            let mut w = dir.create(Some("same")).unwrap();
            w.write(text).unwrap();
            paths.push(w.save(ArtifactMeta::default()).unwrap().path);
        }
        assert_eq!(fs::read(&paths[0]).unwrap(), b"one");
        assert_eq!(fs::read(&paths[1]).unwrap(), b"two");
        assert!(paths[2].to_string_lossy().ends_with("-3"));
    }

    #[test]
    fn dropped_writer_leaves_nothing() {
        let root = tempfile::tempdir().unwrap();
        let dir = ArtifactDir::open(root.path()).unwrap();
        let mut w = dir.create(None).unwrap();
        w.write(b"data").unwrap();
        drop(w);
        assert_eq!(files_in(dir.path()), Vec::<String>::new());
    }

    #[test]
    fn refuses_links_and_files() {
        let root = tempfile::tempdir().unwrap();
        let target = root.path().join("target");
        fs::create_dir(&target).unwrap();
        let link = root.path().join("link");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(ArtifactDir::open(&link)
            .unwrap_err()
            .to_string()
            .contains("symbolic link"));
        let file = root.path().join("file");
        fs::write(&file, b"").unwrap();
        assert!(ArtifactDir::open(&file)
            .unwrap_err()
            .to_string()
            .contains("not a directory"));
    }

    #[test]
    fn closes_a_directory_to_others_writing_only() {
        let root = tempfile::tempdir().unwrap();
        for (mode, after) in [
            (0o777, 0o755),
            (0o770, 0o750),
            (0o755, 0o755),
            (0o711, 0o711),
        ] {
            let dir = root.path().join(format!("{mode:o}"));
            fs::create_dir(&dir).unwrap();
            fs::set_permissions(&dir, fs::Permissions::from_mode(mode)).unwrap();
            ArtifactDir::open(&dir).unwrap();
            assert_eq!(
                fs::metadata(&dir).unwrap().mode() & 0o777,
                after,
                "{mode:o}"
            );
        }
    }

    #[test]
    fn gc_removes_only_old_files() {
        let root = tempfile::tempdir().unwrap();
        let dir = ArtifactDir::open(root.path()).unwrap();
        let mut w = dir.create(Some("x")).unwrap();
        w.write(b"abc").unwrap();
        w.save(ArtifactMeta::default()).unwrap();
        let kept = dir.gc(Duration::from_secs(3600)).unwrap();
        assert_eq!((kept.removed_files, kept.kept_files), (0, 2));
        std::thread::sleep(Duration::from_millis(20));
        let gone = dir.gc(Duration::from_millis(1)).unwrap();
        assert_eq!(gone.removed_files, 2);
        assert!(gone.removed_bytes > 3, "the artifact and its sidecar");
        let left: Vec<_> = fs::read_dir(dir.path()).unwrap().flatten().collect();
        assert_eq!(left.len(), 1, "only the stamp of the gc that create ran");
        assert_eq!(left[0].file_name(), GC_STAMP);
    }

    #[test]
    fn gc_leaves_a_file_being_written_however_young_a_file_it_removes() {
        let root = tempfile::tempdir().unwrap();
        let dir = ArtifactDir::open(root.path()).unwrap().with_auto_gc(false);
        let writing = root.path().join(".x-0123456789ab.Ab3xYz.part");
        fs::write(&writing, b"x").unwrap();
        std::thread::sleep(Duration::from_millis(20));
        let report = dir.gc(Duration::from_millis(1)).unwrap();
        assert!(writing.exists(), "a running command's file");
        assert_eq!(report.removed_files, 0);
        // One its command left, older than the grace, goes.
        age(&writing, PART_FILE_GRACE + Duration::from_secs(60));
        assert_eq!(dir.gc(Duration::from_millis(1)).unwrap().removed_files, 1);
        assert!(!writing.exists());
    }

    /// Sets `path`'s modification time `age` back.
    fn age(path: &Path, age: Duration) {
        let file = fs::File::options().write(true).open(path).unwrap();
        file.set_modified(SystemTime::now() - age).unwrap();
    }

    #[test]
    fn gc_takes_only_briefly_s_own_files() {
        let root = tempfile::tempdir().unwrap();
        let dir = ArtifactDir::open(root.path()).unwrap().with_auto_gc(false);
        let sidecar = serde_json::to_vec(&ArtifactMeta::default()).unwrap();
        let own: [(&str, &[u8]); 6] = [
            ("r1796123415900928724-2095-f4a492409836", b"x"),
            ("r1796123415900928724-2095-f4a492409836.meta.json", &sidecar),
            ("build_42-0123456789ab-2", b"x"),
            ("build_42-0123456789ab-2.meta.json", &sidecar),
            ("out-0123456789ab.options-0123456789abcdef.json", b"{}"),
            (".x-0123456789ab.Ab3xYz.part", b"x"),
        ];
        let others: [(&str, &[u8]); 10] = [
            ("notes.txt", b"x"),
            ("build_42-0123456789AB", b"x"),
            ("report-2024.csv", b"x"),
            ("x-0123456789ab.meta.json.bak", &sidecar),
            (".bashrc", b"x"),
            // Named as an artifact is, but no sidecar of briefly's says it is one.
            ("backup-0123456789ab", b"x"),
            ("notes-0123456789ab", b"x"),
            ("notes-0123456789ab.meta.json", b"{\"my\": \"notes\"}"),
            // Partial files of other tools.
            (".download.part", b"x"),
            (".x-0123456789ab.download.part", b"x"),
        ];
        for (name, content) in own.iter().chain(&others) {
            fs::write(root.path().join(name), content).unwrap();
            age(&root.path().join(name), 2 * DEFAULT_TTL);
        }
        let report = dir.gc(DEFAULT_TTL).unwrap();
        assert_eq!(
            (report.removed_files, report.others, report.failed),
            (own.len() as u64, others.len() as u64, 0)
        );
        for (name, _) in others {
            assert!(root.path().join(name).exists(), "{name} is not briefly's");
        }
    }

    #[test]
    fn create_removes_expired_files_at_most_once_an_interval() {
        let root = tempfile::tempdir().unwrap();
        let dir = ArtifactDir::open(root.path()).unwrap();
        let expired = |name: &str| {
            let mut w = dir.clone().with_auto_gc(false).create(Some(name)).unwrap();
            w.write(b"old").unwrap();
            let saved = w.save(ArtifactMeta::default()).unwrap();
            age(&saved.path, DEFAULT_TTL + Duration::from_secs(60));
            age(
                &sidecar_path(&saved.path),
                DEFAULT_TTL + Duration::from_secs(60),
            );
            saved.path
        };
        let first = expired("a");
        dir.create(Some("b")).unwrap();
        assert!(!first.exists(), "expired: removed by the next create");
        assert!(root.path().join(GC_STAMP).exists());
        let second = expired("c");
        dir.create(Some("d")).unwrap();
        assert!(second.exists(), "the last gc ran less than an interval ago");
        age(&root.path().join(GC_STAMP), GC_INTERVAL);
        dir.clone().with_auto_gc(false).create(Some("e")).unwrap();
        assert!(second.exists(), "turned off");
        dir.create(Some("f")).unwrap();
        assert!(!second.exists(), "due again");
        assert!(!sidecar_path(&second).exists());
    }

    #[test]
    fn options_files_are_written_once_and_checked() {
        let root = tempfile::tempdir().unwrap();
        let artifact = root.path().join("r1-abc");
        let json = r#"{"grep":"a|b"}"#;
        let hash = options_sha256(json);
        let path = options_path(&artifact, None, &hash);
        assert_eq!(
            path,
            root.path().join(format!("r1-abc.options-{hash}.json"))
        );
        write_options(&path, json).unwrap();
        write_options(&path, json).unwrap();
        assert_eq!(fs::metadata(&path).unwrap().mode() & 0o777, 0o600);
        assert!(
            write_options(&path, r#"{"grep":"c"}"#).is_err(),
            "never replaced"
        );
        assert_eq!(read_options(&path, &hash).unwrap()["grep"], "a|b");
        assert!(read_options(&path, "0000000000000000").is_err());
        // A file read in place: named after its path, in the directory given.
        let elsewhere = options_path(Path::new("/data/t.csv"), Some(root.path()), &hash);
        assert_eq!(elsewhere.parent(), Some(root.path()));
        assert_eq!(
            options_owner(&elsewhere.file_name().unwrap().to_string_lossy())
                .map(|o| o.starts_with("data_t_csv-")),
            Some(true)
        );
        assert_eq!(options_owner("r1-abc.meta.json"), None);
    }

    #[test]
    fn a_file_not_written_whole_is_removed_and_one_there_before_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.meta.json");
        let full = |_: &mut fs::File, _: &[u8]| Err(io::Error::from(io::ErrorKind::StorageFull));
        assert!(write_new_file(&path, b"{}", full).is_err());
        assert!(!path.exists(), "a file of nothing left behind");
        fs::write(&path, b"theirs").unwrap();
        assert!(write_new_file(&path, b"{}", |f, b| f.write_all(b)).is_err());
        assert_eq!(fs::read(&path).unwrap(), b"theirs");
    }

    #[test]
    fn gc_removes_options_files_with_their_artifact() {
        let root = tempfile::tempdir().unwrap();
        let dir = ArtifactDir::open(root.path()).unwrap();
        let mut w = dir.create(Some("x")).unwrap();
        w.write(b"abc").unwrap();
        let saved = w.save(ArtifactMeta::default()).unwrap();
        std::thread::sleep(Duration::from_millis(300));
        // Written by a page, later than the artifact: younger than the age gc goes by.
        let json = r#"{"o":1}"#;
        write_options(
            &options_path(&saved.path, None, &options_sha256(json)),
            json,
        )
        .unwrap();
        let other = options_path(
            &root.path().join("y-0123456789ab"),
            None,
            &options_sha256(json),
        );
        write_options(&other, json).unwrap();
        let report = dir.gc(Duration::from_millis(150)).unwrap();
        assert_eq!(
            (report.removed_files, report.kept_files),
            (3, 1),
            "the artifact, its sidecar and its options; not another's options"
        );
        assert_eq!(files_in(dir.path()).len(), 1);
        assert!(other.exists());
    }
}
