//! The shape of JSON values: every path with its types, counts, nulls, a few example
//! values, every value with its count at a path of few values (a status, a level: the
//! two errors among 50,000 `ok`s) and, for arrays, the range of their lengths.

use crate::tape::{Kind, TapeValue};
use briefly_core::cut_str;
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};

/// Example values kept per path.
const EXAMPLES: usize = 3;
/// Example strings are cut to this many characters.
const EXAMPLE_CHARS: usize = 40;
/// Distinct scalar values a path has at most for each to be counted ([`PathShape::values`]):
/// past that, or at a string longer than [`EXAMPLE_CHARS`], its values are not a handful
/// of kinds but data (ids, times, messages).
pub const MAX_VALUES: usize = 10;

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
    /// Every scalar value with its count, most frequent first (ties in the order first
    /// seen), when the path has at most `MAX_VALUES` (10) of them, none longer than an
    /// example, and one is repeated.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<(Value, u64)>,
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
    /// Each scalar value and its count, while they are few ([`MAX_VALUES`]).
    values: Vec<(Value, u64)>,
    /// Its values are too many or too long to count each.
    values_many: bool,
    len: Option<(u64, u64)>,
}

impl Seen {
    /// Counts a scalar value, while the path's are few.
    fn count_value(&mut self, value: TapeValue<'_, '_>) {
        if self.values_many {
            return;
        }
        // A string is compared as it is, made a value only when new.
        let (known, value) = match value.as_str() {
            Some(s) if s.chars().nth(EXAMPLE_CHARS).is_some() => (None, None),
            Some(s) => match self
                .values
                .iter()
                .position(|(seen, _)| seen.as_str() == Some(s))
            {
                Some(at) => (Some(at), None),
                None => (None, Some(Value::String(s.to_string()))),
            },
            None => {
                let value = value.to_json(&mut crate::tape::Convert::new(EXAMPLE_CHARS));
                let value = one_number(value);
                let at = self.values.iter().position(|(seen, _)| *seen == value);
                (at, Some(value))
            }
        };
        match (known, value) {
            (Some(at), _) => self.values[at].1 += 1,
            (None, Some(value)) if self.values.len() < MAX_VALUES => self.values.push((value, 1)),
            _ => {
                self.values_many = true;
                self.values = Vec::new();
            }
        }
    }
}

/// A whole number written as a float (`1.0`, `-0.0`, `7e0`) as the integer: one value
/// however written, as `--count-by` groups them.
fn one_number(value: Value) -> Value {
    match value.as_f64() {
        Some(f) if value.is_f64() && f.fract() == 0.0 && f.abs() < 2f64.powi(53) => {
            Value::from(f as i64)
        }
        _ => value,
    }
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
                seen.count_value(value);
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
                    values: {
                        let mut values = seen.values.clone();
                        // Stable: ties stay in the order first seen.
                        values.sort_by_key(|(_, count)| std::cmp::Reverse(*count));
                        let repeated = values.first().is_some_and(|(_, count)| *count > 1);
                        if repeated {
                            values
                        } else {
                            Vec::new()
                        }
                    },
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
