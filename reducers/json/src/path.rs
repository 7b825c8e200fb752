//! Paths into a JSON value: `a.b`, `items[].status`, `items[0].name`, `[]`, `["a.b"].c`.

use crate::JsonError;
use std::fmt;

/// One step of a [`Path`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// The member of an object with this key.
    Key(String),
    /// The element of an array at this index.
    Index(usize),
    /// Every element of an array (`[]`).
    Each,
}

/// A parsed path. The empty path is the value itself.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Path {
    /// The steps, outermost first.
    pub steps: Vec<Step>,
}

impl Path {
    /// Parses `a.b`, `items[].status`, `items[0]`, `[]`, `.a` (jq's leading dot), `["a.b"]`.
    /// `.` and the empty string are the value itself.
    pub fn parse(text: &str) -> Result<Path, JsonError> {
        let bad = |why: &str| JsonError::Path {
            path: text.to_string(),
            why: why.to_string(),
        };
        let bytes = text.as_bytes();
        let mut steps = Vec::new();
        let mut i = 0;
        if bytes.first() == Some(&b'.') {
            i = 1;
        }
        while i < bytes.len() {
            match bytes[i] {
                b'[' => {
                    let after = &text[i + 1..];
                    let quoted = after.trim_start();
                    let close = if quoted.starts_with('"') {
                        // The key's own `]`s are its (`["a[]"]`): its string's end is read.
                        let at = i + 1 + after.len() - quoted.len();
                        let mut strings =
                            serde_json::Deserializer::from_str(quoted).into_iter::<String>();
                        let key = strings.next().and_then(Result::ok);
                        let key = key.ok_or_else(|| bad("a quoted key must be a JSON string"))?;
                        let end = at + strings.byte_offset();
                        let rest = &text[end..];
                        if !rest.trim_start().starts_with(']') {
                            return Err(bad("a quoted key must be a JSON string"));
                        }
                        steps.push(Step::Key(key));
                        end + rest.find(']').expect("starts with it")
                    } else {
                        let close = after.find(']').map(|at| i + 1 + at);
                        let close = close.ok_or_else(|| bad("unclosed ["))?;
                        let inner = text[i + 1..close].trim();
                        if inner.is_empty() {
                            steps.push(Step::Each);
                        } else {
                            let index = inner
                                .parse()
                                .map_err(|_| bad("[…] holds an index, a \"key\" or nothing"))?;
                            steps.push(Step::Index(index));
                        }
                        close
                    };
                    i = close + 1;
                    if bytes.get(i) == Some(&b'.') {
                        i += 1;
                        if i == bytes.len() {
                            return Err(bad("ends with a dot"));
                        }
                    }
                }
                b'.' => return Err(bad("empty key between dots")),
                _ => {
                    let end = text[i..].find(['.', '[']).map_or(bytes.len(), |at| i + at);
                    steps.push(Step::Key(text[i..end].to_string()));
                    i = end;
                    if bytes.get(i) == Some(&b'.') {
                        i += 1;
                        if i == bytes.len() {
                            return Err(bad("ends with a dot"));
                        }
                    }
                }
            }
        }
        Ok(Path { steps })
    }

    /// The steps up to and including the first `[]`, if any: the array whose elements
    /// are records.
    pub fn record_prefix(&self) -> Option<Path> {
        let each = self.steps.iter().position(|s| *s == Step::Each)?;
        Some(Path {
            steps: self.steps[..=each].to_vec(),
        })
    }

    /// This path relative to a record at `prefix`: the steps after it when it starts
    /// with it, else the whole path (`--fields name` with records at `items[]`).
    pub fn relative_to(&self, prefix: &Path) -> Path {
        if self.steps.len() >= prefix.steps.len()
            && self.steps[..prefix.steps.len()] == prefix.steps[..]
        {
            Path {
                steps: self.steps[prefix.steps.len()..].to_vec(),
            }
        } else {
            self.clone()
        }
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.steps.is_empty() {
            return f.write_str(".");
        }
        for (i, step) in self.steps.iter().enumerate() {
            match step {
                Step::Key(key) if is_plain(key) => {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    f.write_str(key)?;
                }
                Step::Key(key) => write!(f, "[{}]", serde_json::Value::from(key.as_str()))?,
                Step::Index(index) => write!(f, "[{index}]")?,
                Step::Each => f.write_str("[]")?,
            }
        }
        Ok(())
    }
}

/// A key written bare in a path.
pub(crate) fn is_plain(key: &str) -> bool {
    !key.is_empty() && !key.contains(['.', '[', ']', '"'])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(text: &str) -> Vec<Step> {
        Path::parse(text).unwrap().steps
    }

    #[test]
    fn parses_keys_indexes_and_each() {
        use Step::*;
        assert_eq!(steps("a.b"), [Key("a".into()), Key("b".into())]);
        assert_eq!(steps(".a"), [Key("a".into())]);
        assert_eq!(
            steps("items[].status"),
            [Key("items".into()), Each, Key("status".into())]
        );
        assert_eq!(steps("items[2]"), [Key("items".into()), Index(2)]);
        assert_eq!(steps("[].x"), [Each, Key("x".into())]);
        assert_eq!(steps(r#"["a.b"].c"#), [Key("a.b".into()), Key("c".into())]);
        assert_eq!(steps("."), []);
        assert_eq!(steps(""), []);
        // A quoted key's own `]` and `"` are its: the path the shape prints reads back.
        assert_eq!(steps(r#"["a[]"]"#), [Key("a[]".into())]);
        assert_eq!(
            steps(r#"x[ "b]\"]" ][0]"#),
            [Key("x".into()), Key("b]\"]".into()), Index(0)]
        );
        assert_eq!(
            Path::parse(r#"["a[]"].b"#).unwrap().to_string(),
            r#"["a[]"].b"#
        );
        for bad in [
            "a..b",
            "a.",
            "a[",
            "a[x]",
            "[].",
            r#"[""#,
            r#"["a""#,
            r#"["a"x]"#,
        ] {
            assert!(Path::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn splits_at_the_record_array_and_prints_back() {
        let path = Path::parse("items[].meta.name").unwrap();
        let prefix = path.record_prefix().unwrap();
        assert_eq!(prefix.to_string(), "items[]");
        assert_eq!(path.relative_to(&prefix).to_string(), "meta.name");
        assert_eq!(
            Path::parse("name")
                .unwrap()
                .relative_to(&prefix)
                .to_string(),
            "name"
        );
        assert_eq!(Path::parse("a.b").unwrap().record_prefix(), None);
        assert_eq!(
            Path::parse(r#"x["a.b"][3]"#).unwrap().to_string(),
            r#"x["a.b"][3]"#
        );
    }
}
