//! What an application wrote inside a log line: JSON (`{"level":"info","msg":…}`),
//! logfmt (`level=error msg="…"`), or plain text, read for its level and message.

use briefly_severity::{inspect, Inspection, Opens, Severity};
use serde::Deserialize;
use serde_json::Value;
use std::borrow::Cow;
use std::fmt::Write as _;

/// A log line's level and message.
#[derive(Debug, Clone, PartialEq)]
pub struct Payload<'a> {
    /// The level it states (or, for plain text, implies).
    pub severity: Option<Severity>,
    /// The message: the `msg` of a structured line (with its error, if any, on the next
    /// line), else the line itself.
    pub message: Cow<'a, str>,
    /// The line was JSON or logfmt with a level or message key.
    pub structured: bool,
    /// The multi-line record a plain line begins (a Python traceback, a panic).
    pub opens: Option<Opens>,
}

/// Reads `line`'s level and message.
pub fn read(line: &str) -> Payload<'_> {
    // One pass finds both the severity and whether a traceback starts here.
    read_structured(line).unwrap_or_else(|| plain(line, inspect(line)))
}

/// [`read`] for a JSON or logfmt line; `None` for plain text, whose severity is then
/// [`inspect`]'s (for many lines at once, [`briefly_severity::inspect_lines`]'s).
pub fn read_structured(line: &str) -> Option<Payload<'_>> {
    let trimmed = line.trim();
    if trimmed.starts_with('{') && trimmed.ends_with('}') {
        if let Some(payload) = json(trimmed) {
            return Some(payload);
        }
    }
    logfmt(trimmed)
}

/// [`read`] for a plain line, given what [`inspect`] says of it.
pub fn plain(line: &str, inspection: Inspection) -> Payload<'_> {
    Payload {
        severity: inspection.severity,
        message: Cow::Borrowed(line),
        structured: false,
        opens: inspection.opens,
    }
}

/// The keys structured loggers use (logrus, zap, zerolog, pino, bunyan, slog,
/// python-json-logger, Serilog's compact form) for the level, the message, an error and
/// the time; the other keys are kept as fields.
#[derive(Default)]
struct JsonLine<'a> {
    level: Option<Level<'a>>,
    msg: Option<Cow<'a, str>>,
    error: Option<Cow<'a, str>>,
    fields: Vec<(Cow<'a, str>, Cow<'a, str>)>,
}

/// Fields kept after the message, at most.
const MAX_FIELDS: usize = 16;
/// Characters of a field's value kept.
const MAX_FIELD_CHARS: usize = 200;

fn is_time_key(key: &str) -> bool {
    matches!(
        key,
        "time" | "ts" | "timestamp" | "@t" | "@timestamp" | "t" | "date"
    )
}

impl<'de: 'a, 'a> Deserialize<'de> for JsonLine<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct LineVisitor<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for LineVisitor<'a> {
            type Value = JsonLine<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(
                self,
                mut map: M,
            ) -> Result<Self::Value, M::Error> {
                let mut line = JsonLine::default();
                while let Some(Text(key)) = map.next_key::<Text<'a>>()? {
                    match &*key {
                        "level" | "lvl" | "severity" | "levelname" | "log.level" | "@l" => {
                            line.level = Some(map.next_value()?)
                        }
                        "msg" | "message" | "@m" | "@mt" => {
                            line.msg = Some(map.next_value::<Text<'a>>()?.0)
                        }
                        "err" | "error" | "exception" | "exc_info" | "stack" | "stacktrace"
                        | "@x" => line.error = Some(map.next_value::<Text<'a>>()?.0),
                        k if is_time_key(k) || line.fields.len() >= MAX_FIELDS => {
                            map.next_value::<serde::de::IgnoredAny>()?;
                        }
                        _ => {
                            let Text(value) = map.next_value::<Text<'a>>()?;
                            line.fields.push((key, value));
                        }
                    }
                }
                Ok(line)
            }
        }
        deserializer.deserialize_map(LineVisitor(std::marker::PhantomData))
    }
}

/// Any JSON value as text: a string as it is, anything else as compact JSON.
struct Text<'a>(Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TextVisitor<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for TextVisitor<'a> {
            type Value = Text<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Text(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Text(Cow::Owned(v.to_string())))
            }
            fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
                Ok(Text(Cow::Owned(v)))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
                Ok(Text(Cow::Owned(v.to_string())))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
                Ok(Text(Cow::Owned(v.to_string())))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
                Ok(Text(Cow::Owned(v.to_string())))
            }
            fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
                Ok(Text(Cow::Borrowed(if v { "true" } else { "false" })))
            }
            fn visit_unit<E>(self) -> Result<Self::Value, E> {
                Ok(Text(Cow::Borrowed("null")))
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(
                self,
                map: M,
            ) -> Result<Self::Value, M::Error> {
                let value = Value::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(Text(Cow::Owned(value.to_string())))
            }
            fn visit_seq<S: serde::de::SeqAccess<'de>>(
                self,
                seq: S,
            ) -> Result<Self::Value, S::Error> {
                let value = Value::deserialize(serde::de::value::SeqAccessDeserializer::new(seq))?;
                Ok(Text(Cow::Owned(value.to_string())))
            }
        }
        deserializer.deserialize_any(TextVisitor(std::marker::PhantomData))
    }
}

/// A level as a word or as pino / bunyan's number.
enum Level<'a> {
    Number(u64),
    Word(Cow<'a, str>),
}

/// By hand rather than `#[serde(untagged)]`, which buffers every value it reads: one
/// visitor, no copy of a string without escapes. Any other type fails the line's parse.
impl<'de: 'a, 'a> Deserialize<'de> for Level<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct LevelVisitor<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for LevelVisitor<'a> {
            type Value = Level<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a level name or number")
            }
            fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
                Ok(Level::Number(v))
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Level::Word(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Level::Word(Cow::Owned(v.to_string())))
            }
        }
        deserializer.deserialize_any(LevelVisitor(std::marker::PhantomData))
    }
}

impl Level<'_> {
    fn severity(&self) -> Option<Severity> {
        match self {
            Level::Number(n) => Some(match n {
                0..=10 => Severity::Trace,
                11..=20 => Severity::Debug,
                21..=30 => Severity::Info,
                31..=40 => Severity::Warn,
                41..=50 => Severity::Error,
                _ => Severity::Fatal,
            }),
            Level::Word(w) => w.parse().ok(),
        }
    }
}

fn json(line: &str) -> Option<Payload<'_>> {
    let parsed: JsonLine<'_> = serde_json::from_str(line).ok()?;
    if parsed.level.is_none() && parsed.msg.is_none() {
        return None;
    }
    let severity = parsed.level.as_ref().and_then(Level::severity);
    let message = match parsed.msg {
        Some(msg) => with_fields(msg, &parsed.fields, parsed.error),
        None => Cow::Borrowed(line),
    };
    Some(Payload {
        severity,
        message,
        structured: true,
        opens: None,
    })
}

fn logfmt(line: &str) -> Option<Payload<'_>> {
    // Cheap tests first: most lines are not logfmt, and a logfmt line starts with a
    // `key=value` pair (so a message that mentions `msg=` is not taken for one).
    let first_word = line.split([' ', '\t']).next().unwrap_or_default();
    if !first_word.contains('=')
        || !(line.contains("level=") || line.contains("lvl=") || line.contains("msg="))
    {
        return None;
    }
    let mut severity = None;
    let mut message: Option<Cow<'_, str>> = None;
    let mut error: Option<Cow<'_, str>> = None;
    let mut fields = Vec::new();
    let mut rest = line;
    let mut any = false;
    while let Some((key, value, after)) = next_pair(rest) {
        rest = after;
        any = true;
        match key {
            "level" | "lvl" | "severity" => severity = value.parse().ok(),
            "msg" | "message" => message = Some(value),
            "err" | "error" => error = Some(value),
            k if is_time_key(k) => {}
            _ if fields.len() < MAX_FIELDS => fields.push((Cow::Borrowed(key), value)),
            _ => {}
        }
    }
    if !any || (severity.is_none() && message.is_none()) {
        return None;
    }
    let message = match message {
        Some(msg) => with_fields(msg, &fields, error),
        None => Cow::Borrowed(line),
    };
    Some(Payload {
        severity,
        message,
        structured: true,
        opens: None,
    })
}

/// The message as shown: `msg` and the other fields as `key=value` (so that an id or a
/// duration is not lost), then the error, if any, on the next line.
fn with_fields<'a>(
    msg: Cow<'a, str>,
    fields: &[(Cow<'_, str>, Cow<'_, str>)],
    error: Option<Cow<'_, str>>,
) -> Cow<'a, str> {
    if fields.is_empty() && error.is_none() {
        return msg;
    }
    let mut message = msg.into_owned();
    for (key, value) in fields {
        let value = briefly_core::cut_str(value, MAX_FIELD_CHARS);
        // Written in place: a line with fields is formatted on every record.
        let _ = if value.contains(char::is_whitespace) || value.is_empty() {
            write!(message, " {key}={}", Value::from(value.as_ref()))
        } else {
            write!(message, " {key}={value}")
        };
    }
    if let Some(error) = error {
        message.push('\n');
        message.push_str(&error);
    }
    Cow::Owned(message)
}

/// The next `key=value` of a logfmt line (values may be quoted, with `\"` escapes);
/// bare words are skipped.
fn next_pair(mut text: &str) -> Option<(&str, Cow<'_, str>, &str)> {
    let (key, after_eq) = loop {
        text = text.trim_start();
        if text.is_empty() {
            return None;
        }
        let end_of_word = text.find([' ', '\t']).unwrap_or(text.len());
        match text[..end_of_word].find('=') {
            Some(eq) => break (&text[..eq], &text[eq + 1..]),
            None => text = &text[end_of_word..],
        }
    };
    if let Some(quoted) = after_eq.strip_prefix('"') {
        let mut value = String::new();
        let mut chars = quoted.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => {
                    if let Some((_, escaped)) = chars.next() {
                        value.push(match escaped {
                            'n' => '\n',
                            't' => '\t',
                            other => other,
                        });
                    }
                }
                '"' => return Some((key, Cow::Owned(value), &quoted[i + 1..])),
                c => value.push(c),
            }
        }
        // No closing quote: the rest is the value.
        return Some((key, Cow::Owned(value), ""));
    }
    let end = after_eq.find([' ', '\t']).unwrap_or(after_eq.len());
    Some((key, Cow::Borrowed(&after_eq[..end]), &after_eq[end..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_payloads() {
        let p = read(r#"{"level":"error","msg":"db down","err":"connection refused","n":1}"#);
        assert_eq!(p.severity, Some(Severity::Error));
        assert_eq!(p.message, "db down n=1\nconnection refused");
        let p = read(r#"{"level":50,"time":1,"msg":"pino says"}"#);
        assert_eq!(p.severity, Some(Severity::Error));
        assert_eq!(p.message, "pino says");
        let p = read(r#"{"levelname":"WARNING","message":"python json"}"#);
        assert_eq!(p.severity, Some(Severity::Warn));
        // Other fields follow the message (times left out); objects as compact JSON.
        let p = read(
            r#"{"ts":1.5,"msg":"request","req":{"id":7},"path":"/a b","ok":true,"err":{"code":5}}"#,
        );
        assert_eq!(
            p.message,
            "request req={\"id\":7} path=\"/a b\" ok=true\n{\"code\":5}"
        );
        // JSON without a level or message is plain text.
        let p = read(r#"{"a":1}"#);
        assert!(!p.structured);
        // Broken JSON is plain text too, never an error.
        let p = read(r#"{"level":"error","msg":"cut"#);
        assert!(!p.structured);
        // A level with an escape is read too; a level neither a word nor a number
        // makes the line plain text.
        let p = read(r#"{"level":"\u0057ARN","msg":"escaped"}"#);
        assert_eq!(p.severity, Some(Severity::Warn));
        for odd in [r#"{"level":null,"msg":"x"}"#, r#"{"level":2.5,"msg":"x"}"#] {
            let p = read(odd);
            assert!(!p.structured, "{odd}");
            assert_eq!(p.message, odd);
        }
    }

    #[test]
    fn logfmt_payloads() {
        let p = read(r#"time=2026-11-29T10:00:00Z level=warn msg="disk \"a\" at 91%" disk=sda"#);
        assert_eq!(p.severity, Some(Severity::Warn));
        assert_eq!(p.message, "disk \"a\" at 91% disk=sda");
        let p = read("level=error msg=boom err=\"exit 1\"");
        assert_eq!(p.message, "boom\nexit 1");
        let p = read("level=info");
        assert_eq!(p.severity, Some(Severity::Info));
        assert_eq!(p.message, "level=info");
    }

    #[test]
    fn plain_text_is_classified() {
        let p = read("2026-11-29 ERROR lost the database");
        assert_eq!(p.severity, Some(Severity::Error));
        assert!(!p.structured);
        assert_eq!(read("hello").severity, None);
    }
}
