//! The core's error type.

use std::path::PathBuf;

/// What can go wrong in the core. Malformed input is never an error: it is counted and
/// reported in the envelope's warnings.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading the input failed.
    #[error("reading input: {0}")]
    Read(#[source] std::io::Error),
    /// An artifact or its directory could not be used.
    #[error("artifact {path}: {source}")]
    Artifact {
        /// The file or directory concerned.
        path: PathBuf,
        /// The underlying failure.
        #[source]
        source: std::io::Error,
    },
    /// The artifact directory is not safe to use (a link, another owner, open to others).
    #[error("artifact directory {path} is unsafe: {why}")]
    UnsafeDir {
        /// The directory.
        path: PathBuf,
        /// Why it was refused.
        why: String,
    },
    /// A cursor that is not one briefly made, or that was damaged.
    #[error("invalid cursor: {0}")]
    Cursor(String),
    /// A malformed option value (a duration, a budget specification, a tokenizer name).
    #[error("{0}")]
    Option(String),
}
