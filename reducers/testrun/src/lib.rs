//! briefly's test-run reducers: what passed and what failed, and each failure's decisive
//! lines, from pytest's output ([`Pytest`], [`junit::Junit`]) and from `cargo test` /
//! `cargo nextest run` ([`CargoTest`]).
//!
//! The worst outcome for a test reducer is a wrong summary ("0 failed" for a run that
//! failed), so counts come only from the runner's own totals; when it printed none (`-qq`,
//! an interrupted run, a build that failed) the summary and stats say they are unknown.
//! Items are the failures, ranked so that each distinct kind (exception type, panic
//! kind, error code) comes before repeats; fitting them is the budget stage's job.

mod cargo;
mod excerpt;
pub mod junit;
mod pytest;
mod rank;

pub use cargo::{BinaryResult, CargoItem, CargoStats, CargoTest, CargoTestOptions};
pub use excerpt::{strip_ansi, Excerpt, MAX_LINE_CHARS};
pub use junit::Junit;
pub use pytest::{parse_counts, Pytest, PytestItem, PytestOptions, PytestStats};
pub use rank::Ranker;

/// What can go wrong before a test reducer reads anything.
#[derive(Debug, thiserror::Error)]
pub enum TestRunError {
    /// An option out of range.
    #[error("{0}")]
    Option(String),
}

impl From<TestRunError> for String {
    fn from(error: TestRunError) -> String {
        error.to_string()
    }
}
