//! Service logs by time and severity: `briefly journal` (journald) and `briefly docker`
//! (the json-file log driver, `docker logs --timestamps`).
//!
//! Both read their source's structure (journald's fields, docker's streams and the JSON
//! or logfmt an application writes inside them) into [`fold::Entry`]s; one engine,
//! [`fold::Fold`], folds the messages into templates through [`briefly_template::Miner`]
//! (the engine `briefly text` uses) and ranks the evidence: the worst and the rarest
//! entries verbatim with their time, unit or stream and level, then templates by count.
//! Input that is not the source's structured format (`journalctl -o short`, plain
//! `docker logs`) goes to [`briefly_text::Text`] whole, so it is reduced as `briefly
//! text` would.
//!
//! Memory is bounded by configuration (the fold's caps, the framing limits, `--tail`'s
//! maximum), never by the input's size.

pub mod docker;
mod find;
pub mod fold;
pub mod journal;
pub mod payload;
pub mod time;

pub use docker::{Docker, DockerOptions};
pub use journal::{Journal, JournalOptions};

use briefly_core::{Emit, Rank};
use briefly_text::TextItem;
use serde_json::Value;

/// A bad option.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum OptionError {
    /// `--level` names no level.
    #[error("--level: unknown level {0:?} (emerg, alert, crit, err, warning, notice, info, debug, 0-7, or trace, fatal)")]
    Level(String),
    /// `--tail` is over the maximum.
    #[error("--tail {0} is over the maximum of {max}", max = docker::MAX_TAIL)]
    Tail(usize),
    /// `--stream` names no stream.
    #[error("--stream: {0:?} is neither stdout nor stderr")]
    Stream(String),
    /// The fallback text reducer refused its options.
    #[error("{0}")]
    Text(String),
}

/// Hands the text reducer's items (for input that falls back to it) on as JSON values.
struct TextItems<'a>(&'a mut dyn Emit<Value>);

impl Emit<TextItem> for TextItems<'_> {
    fn emit(&mut self, rank: Rank, item: TextItem) {
        self.0.emit(
            rank,
            serde_json::to_value(item).expect("an item always serializes"),
        );
    }

    fn wants(&self, rank: Rank) -> bool {
        self.0.wants(rank)
    }

    fn skip(&mut self, rank: Rank) {
        self.0.skip(rank)
    }
}

/// The most lines one multi-line record gathers; a longer run starts a new record.
pub(crate) const MAX_RECORD_LINES: usize = 200;
/// The longest pause between two lines of one record, by their own times: a program
/// writes a traceback's lines at once, so a line minutes after an error line is no part
/// of it, whatever it says (a traceback under an old `level=warn` line).
pub(crate) const MAX_RECORD_PAUSE_MICROS: i64 = 2_000_000;

/// Whether a line of JSON is an object, as an entry or record is: serde would read an
/// array's values into a struct's fields by position (`["disk", "0", "sda"]`).
pub(crate) fn is_json_object(line: &[u8]) -> bool {
    line.trim_ascii_start().starts_with(b"{")
}
