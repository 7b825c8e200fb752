//! Cursors: where the next page starts, as an opaque string.

use crate::artifact::{is_options_hash, options_path, read_options};
use crate::{Error, Rank};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::Path;

/// An item's place in a reducer's output order: by rank, then by order of emission.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ItemKey {
    /// The rank the reducer gave the item.
    pub rank: Rank,
    /// The item's emission number (0-based, over all items).
    pub seq: u64,
}

const PREFIX: &str = "b1.";

/// Everything `briefly page` needs to compute the next page from the artifact: which
/// reducer with which options, and after which item. Same cursor, same page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cursor {
    /// The artifact holding the raw input.
    #[serde(rename = "a")]
    pub artifact: String,
    /// The first 16 hex digits of the artifact's sha256, to notice a changed file.
    #[serde(rename = "h")]
    pub sha256: String,
    /// The reducer's name (the `source`).
    #[serde(rename = "r")]
    pub reducer: String,
    /// The reducer's options, as the reducer serializes them; `Null` when they are kept
    /// in a file instead (see `options_sha256`): read them with [`Cursor::options`].
    #[serde(rename = "o", default, skip_serializing_if = "Value::is_null")]
    pub options: Value,
    /// For options too long to carry: the first 16 hex digits of their sha256, which
    /// name their file (beside the artifact, or in `options_dir`) and check it.
    #[serde(rename = "p", default, skip_serializing_if = "Option::is_none")]
    pub options_sha256: Option<String>,
    /// The directory of the options file, when it is not beside the artifact.
    #[serde(rename = "d", default, skip_serializing_if = "Option::is_none")]
    pub options_dir: Option<String>,
    /// The last item already returned; `None` when the next page starts at the first item.
    #[serde(rename = "k", default, skip_serializing_if = "Option::is_none")]
    pub after: Option<ItemKey>,
    /// The per-result cap the pages are cut to.
    #[serde(rename = "c")]
    pub max_chars: usize,
    /// The tokenizer's name; left out when it is the default's.
    #[serde(rename = "t", default = "chars4", skip_serializing_if = "is_chars4")]
    pub tokenizer: String,
    /// The line framing limit; left out when it is the default.
    #[serde(
        rename = "m",
        default = "default_max_line_bytes",
        skip_serializing_if = "is_default_max_line_bytes"
    )]
    pub max_line_bytes: usize,
}

fn chars4() -> String {
    "chars4".to_string()
}

fn is_chars4(name: &str) -> bool {
    name == "chars4"
}

fn default_max_line_bytes() -> usize {
    crate::DEFAULT_MAX_LINE_BYTES
}

fn is_default_max_line_bytes(max: &usize) -> bool {
    *max == crate::DEFAULT_MAX_LINE_BYTES
}

impl Cursor {
    /// The cursor as an opaque, shell-safe string.
    pub fn encode(&self) -> String {
        let json = serde_json::to_vec(self).expect("a cursor always serializes");
        format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(json))
    }

    /// Reads a string made by [`Cursor::encode`].
    pub fn decode(text: &str) -> Result<Cursor, Error> {
        let body = text.trim().strip_prefix(PREFIX).ok_or_else(|| {
            Error::Cursor("not a briefly cursor (expected it to start with b1.)".into())
        })?;
        let json = URL_SAFE_NO_PAD
            .decode(body)
            .map_err(|e| Error::Cursor(format!("damaged ({e})")))?;
        let cursor: Cursor =
            serde_json::from_slice(&json).map_err(|e| Error::Cursor(format!("damaged ({e})")))?;
        // Its budget no more than `--max-chars` may ask for (a cursor is text anyone can
        // edit): what a page prints, and holds, is bounded.
        if cursor.max_chars > crate::MAX_RESULT_CHARS {
            return Err(Error::Cursor(format!(
                "damaged (its budget of {} characters is above the maximum of {})",
                cursor.max_chars,
                crate::MAX_RESULT_CHARS
            )));
        }
        // The hash becomes part of a file name: nothing but hex digits may get there.
        if let Some(hash) = &cursor.options_sha256 {
            if !is_options_hash(hash) {
                return Err(Error::Cursor("damaged (options hash)".into()));
            }
        }
        Ok(cursor)
    }

    /// The reducer's options: carried in the cursor, or read from their file and checked
    /// against the cursor's hash.
    pub fn options(&self) -> Result<Value, Error> {
        match &self.options_sha256 {
            None => Ok(self.options.clone()),
            Some(hash) => {
                let path = options_path(
                    Path::new(&self.artifact),
                    self.options_dir.as_deref().map(Path::new),
                    hash,
                );
                read_options(&path, hash)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Cursor {
        Cursor {
            artifact: "/tmp/briefly-0/x-0123456789ab".into(),
            sha256: "00112233445566778".into(),
            reducer: "spill".into(),
            options: serde_json::json!({"head": 5}),
            options_sha256: None,
            options_dir: None,
            after: Some(ItemKey { rank: 3, seq: 41 }),
            max_chars: 19_660,
            tokenizer: "chars4".into(),
            max_line_bytes: 1 << 20,
        }
    }

    #[test]
    fn round_trips_and_is_shell_safe() {
        let text = sample().encode();
        assert!(
            text.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)),
            "{text}"
        );
        assert_eq!(Cursor::decode(&text).unwrap(), sample());
        // The defaults are left out, and read back as the defaults.
        let json = URL_SAFE_NO_PAD.decode(&text[PREFIX.len()..]).unwrap();
        let json: Value = serde_json::from_slice(&json).unwrap();
        assert_eq!((json.get("t"), json.get("m")), (None, None), "{json}");
        let other = Cursor {
            tokenizer: "o200k".into(),
            max_line_bytes: 4096,
            ..sample()
        };
        assert_eq!(Cursor::decode(&other.encode()).unwrap(), other);
    }

    #[test]
    fn keys_order_by_rank_then_emission() {
        let a = ItemKey { rank: 0, seq: 9 };
        let b = ItemKey { rank: 1, seq: 0 };
        let c = ItemKey { rank: 1, seq: 1 };
        assert!(a < b && b < c);
    }

    #[test]
    fn rejects_foreign_and_damaged_text() {
        assert!(Cursor::decode("hello")
            .unwrap_err()
            .to_string()
            .contains("not a briefly cursor"));
        assert!(Cursor::decode("b1.!!!")
            .unwrap_err()
            .to_string()
            .contains("damaged"));
        assert!(Cursor::decode("b1.e30")
            .unwrap_err()
            .to_string()
            .contains("damaged"));
    }
}
