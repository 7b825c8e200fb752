//! The shape of JSON values: every path with its types, counts, nulls, a few example
//! values and, for arrays, the range of their lengths.

use crate::tape::{Kind, TapeValue};
use briefly_core::cut_str;
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};

/// Example values kept per path.
const EXAMPLES: usize = 3;
/// Example strings are cut to this many characters.
const EXAMPLE_CHARS: usize = 40;

/// One path of the shape, as an item.
#[derive(Debug, Clone, Serialize)]
pub struct PathShape {
    /// The path, array indexes as `[]`.
    pub path: String,
    /// Its types, `|`-separated, most frequent first.
    #[serde(rename = "type")]
    pub types: String,
    /// Values seen at it.
    pub count: u64,
    /// Of which null.
    #[serde(skip_serializing_if = "briefly_core::is_zero")]
    pub nulls: u64,
    /// A few distinct scalar values.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<Value>,
    /// For arrays: the shortest and longest length, `min..max`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub len: Option<String>,
}

#[derive(Debug, Default)]
struct Seen {
    path: String,
    count: u64,
    kinds: BTreeMap<Kind, u64>,
    examples: Vec<Value>,
    len: Option<(u64, u64)>,
}

/// The shape so far, bounded: at most `max_paths` paths are tracked.
#[derive(Debug)]
pub(crate) struct Shape {
    index: HashMap<String, usize>,
    seen: Vec<Seen>,
    max_paths: usize,
    /// Values at paths past the limit.
    pub untracked: u64,
}

impl Shape {
    pub fn new(max_paths: usize) -> Self {
        Shape {
            index: HashMap::new(),
            seen: Vec::new(),
            max_paths,
            untracked: 0,
        }
    }

    /// Adds `value`, found at `path`, and everything inside it. Callers bound the depth.
    pub fn add(&mut self, value: TapeValue<'_, '_>, path: &mut String) {
        let kind = value.kind();
        let Some(at) = self.slot(path) else {
            return;
        };
        let seen = &mut self.seen[at];
        seen.count += 1;
        *seen.kinds.entry(kind).or_default() += 1;
        match kind {
            Kind::Object => {
                let len = path.len();
                for (key, member) in value.members() {
                    if !path.is_empty() {
                        path.push('.');
                    }
                    if crate::path::is_plain(key) {
                        path.push_str(key);
                    } else {
                        path.push_str(&format!("[{}]", Value::from(key)));
                    }
                    self.add(member, path);
                    path.truncate(len);
                }
            }
            Kind::Array => {
                self.array_len(at, value.len() as u64);
                let len = path.len();
                path.push_str("[]");
                for element in value.elements() {
                    self.add(element, path);
                }
                path.truncate(len);
            }
            Kind::Null => {}
            _ => {
                let seen = &mut self.seen[at];
                if seen.examples.len() < EXAMPLES {
                    let example = match value.as_str() {
                        Some(s) => Value::String(cut_str(s, EXAMPLE_CHARS).into_owned()),
                        None => value.to_json(&mut crate::tape::Convert::new(EXAMPLE_CHARS)),
                    };
                    if !seen.examples.contains(&example) {
                        seen.examples.push(example);
                    }
                }
            }
        }
    }

    /// A container at `path` whose members or elements are added one by one.
    pub fn add_container(&mut self, path: &str, object: bool) {
        if let Some(at) = self.slot(path) {
            let seen = &mut self.seen[at];
            seen.count += 1;
            let kind = if object { Kind::Object } else { Kind::Array };
            *seen.kinds.entry(kind).or_default() += 1;
        }
    }

    /// The array at `path` added by [`Shape::add_container`] had `len` elements.
    pub fn array_closed(&mut self, path: &str, len: u64) {
        if let Some(&at) = self.index.get(path) {
            self.array_len(at, len);
        }
    }

    fn array_len(&mut self, at: usize, len: u64) {
        let seen = &mut self.seen[at];
        seen.len = Some(match seen.len {
            None => (len, len),
            Some((lo, hi)) => (lo.min(len), hi.max(len)),
        });
    }

    /// The index of `path`'s entry, made if there is room.
    fn slot(&mut self, path: &str) -> Option<usize> {
        if let Some(&at) = self.index.get(path) {
            return Some(at);
        }
        if self.seen.len() >= self.max_paths {
            self.untracked += 1;
            return None;
        }
        self.index.insert(path.to_string(), self.seen.len());
        self.seen.push(Seen {
            path: path.to_string(),
            ..Seen::default()
        });
        Some(self.seen.len() - 1)
    }

    /// The array with the most elements (its path and length), if any.
    pub fn largest_array(&self) -> Option<(&str, u64)> {
        self.seen
            .iter()
            .filter_map(|seen| seen.len.map(|(_, hi)| (seen.path.as_str(), hi)))
            .max_by(|a, b| a.1.cmp(&b.1).then(b.0.len().cmp(&a.0.len())))
    }

    /// The paths, in the order first seen.
    pub fn paths(&self) -> Vec<PathShape> {
        self.seen
            .iter()
            .map(|seen| {
                let mut kinds: Vec<(&Kind, &u64)> = seen.kinds.iter().collect();
                kinds.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
                PathShape {
                    path: if seen.path.is_empty() {
                        ".".into()
                    } else {
                        seen.path.clone()
                    },
                    types: kinds
                        .iter()
                        .map(|(k, _)| k.name())
                        .collect::<Vec<_>>()
                        .join("|"),
                    count: seen.count,
                    nulls: seen.kinds.get(&Kind::Null).copied().unwrap_or(0),
                    examples: seen.examples.clone(),
                    len: seen.len.map(|(lo, hi)| {
                        if lo == hi {
                            lo.to_string()
                        } else {
                            format!("{lo}..{hi}")
                        }
                    }),
                }
            })
            .collect()
    }
}
