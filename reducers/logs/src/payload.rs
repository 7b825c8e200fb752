//! What an application wrote inside a log line: JSON (`{"level":"info","msg":…}`),
//! logfmt (`level=error msg="…"`), or plain text, read for its level and message.

use crate::find;
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
    let trimmed = trim(line);
    if trimmed.starts_with('{') && trimmed.ends_with('}') {
        if let Some(payload) = json(trimmed) {
            return Some(payload);
        }
    }
    logfmt(trimmed)
}

/// [`read`] and [`read_structured`] with buffers kept from line to line: a JSON payload
/// that is one flat object of strings without escapes, integers, booleans and nulls (what
/// structured loggers write) is read by a scanner of its own into them, with no
/// allocation; anything else goes to the functions above. The payloads are the same.
#[derive(Debug, Clone, Default)]
pub struct Reader {
    /// The fields after the message, as ` key=value`.
    fields: String,
    /// The message, when it is more than the `msg` value.
    message: String,
}

impl Reader {
    /// [`read`], reusing the reader's buffers.
    pub fn read<'a>(&'a mut self, line: &'a str) -> Payload<'a> {
        match self.read_structured(line) {
            Some(payload) => payload,
            None => plain(line, inspect(line)),
        }
    }

    /// [`read_structured`], reusing the reader's buffers.
    pub fn read_structured<'a>(&'a mut self, line: &'a str) -> Option<Payload<'a>> {
        let trimmed = trim(line);
        if !(trimmed.starts_with('{') && trimmed.ends_with('}')) {
            return logfmt(trimmed);
        }
        let Some(parts) = scan_flat(trimmed, &mut self.fields) else {
            // Not a flat object the scanner reads: serde reads it.
            return read_structured(line);
        };
        if parts.level.is_none() && parts.msg.is_none() {
            return logfmt(trimmed);
        }
        let severity = parts.level.as_ref().and_then(Level::severity);
        let message = match parts.msg {
            None => Cow::Borrowed(trimmed),
            Some(msg) if self.fields.is_empty() && parts.error.is_none() => Cow::Borrowed(msg),
            Some(msg) => {
                self.message.clear();
                self.message.push_str(msg);
                self.message.push_str(&self.fields);
                if let Some(error) = parts.error {
                    self.message.push('\n');
                    self.message.push_str(error);
                }
                Cow::Borrowed(self.message.as_str())
            }
        };
        Some(Payload {
            severity,
            message,
            structured: true,
            opens: None,
        })
    }
}

/// What [`scan_flat`] found in a flat JSON object.
struct FlatParts<'a> {
    level: Option<Level<'a>>,
    msg: Option<&'a str>,
    error: Option<&'a str>,
}

/// A value [`scan_flat`] reads.
enum Scalar<'a> {
    /// A string without escapes.
    Str(&'a str),
    /// A non-negative integer, and its digits.
    Unsigned(u64, &'a str),
    /// A negative integer, `true`, `false` or `null`, as written.
    Other(&'a str),
}

/// Reads `object` (trimmed, from `{` to `}`) as [`JsonLine`]'s visitor does, writing the
/// kept fields to `fields` as [`with_fields`] does; `None` for anything it does not
/// read the same (escapes, control characters, floats, nested values, bad JSON), which
/// serde then reads.
fn scan_flat<'a>(object: &'a str, fields: &mut String) -> Option<FlatParts<'a>> {
    let b = object.as_bytes();
    let mut parts = FlatParts {
        level: None,
        msg: None,
        error: None,
    };
    fields.clear();
    let mut kept = 0;
    let mut i = skip_space(b, 1);
    if b.get(i) == Some(&b'}') {
        return (i + 1 == b.len()).then_some(parts);
    }
    loop {
        let (key, after) = scan_string(object, i)?;
        i = skip_space(b, after);
        if b.get(i) != Some(&b':') {
            return None;
        }
        let (value, after) = scan_scalar(object, skip_space(b, i + 1))?;
        i = skip_space(b, after);
        match json_key(key) {
            JsonKey::Level => {
                parts.level = Some(match value {
                    Scalar::Unsigned(n, _) => Level::Number(n),
                    Scalar::Str(word) => Level::Word(Cow::Borrowed(word)),
                    // serde fails the line on any other level.
                    Scalar::Other(_) => return None,
                })
            }
            JsonKey::Message => parts.msg = Some(value.text()),
            JsonKey::Error => parts.error = Some(value.text()),
            JsonKey::Field if kept < MAX_FIELDS => {
                kept += 1;
                push_field(fields, key, value.text());
            }
            JsonKey::Time | JsonKey::Field => {}
        }
        match b.get(i) {
            Some(b',') => i = skip_space(b, i + 1),
            Some(b'}') if i + 1 == b.len() => return Some(parts),
            _ => return None,
        }
    }
}

impl<'a> Scalar<'a> {
    /// The value as [`Text`] reads it: an integer [`scan_scalar`] takes is written back
    /// as it was written.
    fn text(&self) -> &'a str {
        match *self {
            Scalar::Str(text) | Scalar::Unsigned(_, text) | Scalar::Other(text) => text,
        }
    }
}

/// ` key=value` after a message: the value cut to [`MAX_FIELD_CHARS`], JSON-quoted when
/// it is empty or holds whitespace (so that the fields still read apart).
fn push_field(out: &mut String, key: &str, value: &str) {
    let value = briefly_core::cut_str(value, MAX_FIELD_CHARS);
    out.push(' ');
    out.push_str(key);
    out.push('=');
    if !(value.contains(char::is_whitespace) || value.is_empty()) {
        out.push_str(&value);
    } else if value.bytes().any(|c| c == b'"' || c == b'\\' || c < 0x20) {
        let _ = write!(out, "{}", Value::from(value.as_ref()));
    } else {
        // Nothing to escape (as in every value the scanner reads): quotes are enough.
        out.push('"');
        out.push_str(&value);
        out.push('"');
    }
}

fn skip_space(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// The string without escapes or control characters that starts at `at` (its opening
/// quote), and where it ends (after its closing quote).
fn scan_string(text: &str, at: usize) -> Option<(&str, usize)> {
    let b = text.as_bytes();
    if b.get(at) != Some(&b'"') {
        return None;
    }
    let start = at + 1;
    let len = find::quote_or_backslash(&b[start..])?;
    let end = start + len;
    if b[end] != b'"' || b[start..end].iter().any(|&c| c < 0x20) {
        return None;
    }
    Some((&text[start..end], end + 1))
}

/// The scalar value at `at` and where it ends: a string (as [`scan_string`] reads it),
/// an integer of at most 18 digits without a leading zero, `true`, `false` or `null`.
fn scan_scalar(text: &str, at: usize) -> Option<(Scalar<'_>, usize)> {
    let b = text.as_bytes();
    match *b.get(at)? {
        b'"' => scan_string(text, at).map(|(s, end)| (Scalar::Str(s), end)),
        b't' | b'f' | b'n' => ["true", "false", "null"]
            .into_iter()
            .find(|word| text[at..].starts_with(word))
            .map(|word| (Scalar::Other(word), at + word.len())),
        b'-' | b'0'..=b'9' => {
            let negative = b[at] == b'-';
            let start = at + usize::from(negative);
            let len = b[start..].iter().take_while(|c| c.is_ascii_digit()).count();
            let end = start + len;
            // serde reads `-0`, floats and long integers its own way: left to it.
            let plain = (1..=18).contains(&len) && (b[start] != b'0' || (len == 1 && !negative));
            if !plain || matches!(b.get(end), Some(b'.' | b'e' | b'E')) {
                return None;
            }
            let digits = &text[at..end];
            Some(match negative {
                true => (Scalar::Other(digits), end),
                false => (Scalar::Unsigned(digits.parse().ok()?, digits), end),
            })
        }
        _ => None,
    }
}

/// `line` without the whitespace around it; at once when it has none at its ends.
fn trim(line: &str) -> &str {
    let ends = [line.as_bytes().first(), line.as_bytes().last()];
    match ends.iter().all(|c| c.is_some_and(u8::is_ascii_graphic)) {
        true => line,
        false => line.trim(),
    }
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

/// What a JSON line's key holds.
enum JsonKey {
    Level,
    Message,
    Error,
    /// Left out: the record has its own time.
    Time,
    /// Kept after the message (up to [`MAX_FIELDS`]).
    Field,
}

fn json_key(key: &str) -> JsonKey {
    match key {
        "level" | "lvl" | "severity" | "levelname" | "log.level" | "@l" => JsonKey::Level,
        "msg" | "message" | "@m" | "@mt" => JsonKey::Message,
        "err" | "error" | "exception" | "exc_info" | "stack" | "stacktrace" | "@x" => {
            JsonKey::Error
        }
        k if is_time_key(k) => JsonKey::Time,
        _ => JsonKey::Field,
    }
}

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
                    match json_key(&key) {
                        JsonKey::Level => line.level = Some(map.next_value()?),
                        JsonKey::Message => line.msg = Some(map.next_value::<Text<'a>>()?.0),
                        JsonKey::Error => line.error = Some(map.next_value::<Text<'a>>()?.0),
                        JsonKey::Field if line.fields.len() < MAX_FIELDS => {
                            let Text(value) = map.next_value::<Text<'a>>()?;
                            line.fields.push((key, value));
                        }
                        JsonKey::Time | JsonKey::Field => {
                            map.next_value::<serde::de::IgnoredAny>()?;
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
    let severity = (parsed.level.as_ref().and_then(Level::severity))
        .or_else(|| briefly_severity::mongodb_level(line.as_bytes()));
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
    let mut first_word = line.bytes().take_while(|&c| c != b' ' && c != b'\t');
    if !first_word.any(|c| c == b'=')
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
        push_field(&mut message, key, value);
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
        // MongoDB 4.4's: its level is `"s"` after its time.
        let mongo = read(
            r#"{"t":{"$date":"2026-11-29T10:00:00.000+00:00"},"s":"W","c":"STORAGE","id":22430,"ctx":"initandlisten","msg":"Recovering data"}"#,
        );
        assert_eq!(mongo.severity, Some(Severity::Warn));
        assert!(
            mongo.message.starts_with("Recovering data"),
            "{}",
            mongo.message
        );
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
        // A quoted value keeps its escapes.
        let p = read(r#"{"msg":"m","q":"say \"hi\" now","e":""}"#);
        assert_eq!(p.message, r#"m q="say \"hi\" now" e="""#);
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

    /// The reader's scanner gives what serde gives, on flat objects it reads and on the
    /// ones it leaves to serde: random objects of the keys and values loggers write,
    /// and of the ones it must not read itself.
    #[test]
    fn the_reader_reads_as_serde_does() {
        // What the scanner reads, and (one pick in sixteen) what it leaves to serde.
        const KEYS: [&[&str]; 2] = [
            &[
                "level", "lvl", "msg", "message", "err", "error", "ts", "path", "ms", "ok", "",
            ],
            &["l\\u0065vel"],
        ];
        const VALUES: [&[&str]; 2] = [
            &[
                "\"info\"",
                "\"ERROR\"",
                "\"warn\"",
                "30",
                "50",
                "0",
                "-3",
                "true",
                "false",
                "null",
                "\"\"",
                "\"a request\"",
                "\"/api/v1/items/7\"",
                "\"é ünïcode\"",
                "123456789012345678",
            ],
            &[
                "-0",
                "007",
                "18446744073709551615",
                "1.5",
                "2e3",
                "\"a\\\"quoted\\\"\"",
                "\"tab\\there\"",
                "{\"id\":7}",
                "[1,2]",
                "\"x\u{1}y\"",
                "tru",
            ],
        ];
        const STARTS: [&[&str]; 2] = [&["{", " { ", "{\t"], &[]];
        const COMMAS: [&[&str]; 2] = [&[",", " , ", ",\n"], &[]];
        const COLONS: [&[&str]; 2] = [&[":", " : "], &[]];
        const ENDS: [&[&str]; 2] = [&["}", " }"], &["} x", "},", ""]];
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let mut pick = |[usual, odd]: [&[&'static str]; 2]| {
            let from = if odd.is_empty() || next(16) > 0 {
                usual
            } else {
                odd
            };
            from[next(from.len())]
        };
        let mut reader = Reader::default();
        let mut scanned = 0;
        for n in 0..20_000 {
            let mut line = String::from(pick(STARTS));
            for i in 0..n % 8 {
                if i > 0 {
                    line.push_str(pick(COMMAS));
                }
                line.push_str(&format!("\"{}\"{}", pick(KEYS), pick(COLONS)));
                line.push_str(pick(VALUES));
            }
            line.push_str(pick(ENDS));
            scanned += usize::from(scan_flat(trim(&line), &mut String::new()).is_some());
            let read_alone = read_structured(&line);
            assert_eq!(reader.read_structured(&line), read_alone, "{line}");
            assert_eq!(reader.read(&line), read(&line), "{line}");
        }
        // Most lines are read by the scanner, not all.
        assert!((10_000..19_000).contains(&scanned), "{scanned}");
        // Long values are cut as serde's path cuts them, quoted when they hold spaces.
        let long = format!(r#"{{"msg":"m","a":"{0}","b":"{0} {0}"}}"#, "x".repeat(150));
        assert!(scan_flat(&long, &mut String::new()).is_some());
        assert_eq!(reader.read(&long), read(&long));
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
