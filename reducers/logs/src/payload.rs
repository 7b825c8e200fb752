//! What an application wrote inside a log line: JSON (`{"level":"info","msg":…}`),
//! logfmt (`level=error msg="…"`), or plain text, read for its level and message.

use briefly_severity::{inspect, Opens, Severity};
use serde::Deserialize;
use std::borrow::Cow;

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
    let trimmed = line.trim();
    if trimmed.starts_with('{') && trimmed.ends_with('}') {
        if let Some(payload) = json(trimmed) {
            return payload;
        }
    }
    if let Some(payload) = logfmt(trimmed) {
        return payload;
    }
    // One pass finds both the severity and whether a traceback starts here.
    let inspection = inspect(line);
    Payload {
        severity: inspection.severity,
        message: Cow::Borrowed(line),
        structured: false,
        opens: inspection.opens,
    }
}

/// The keys structured loggers use (logrus, zap, zerolog, pino, bunyan, slog,
/// python-json-logger, Serilog's compact form).
#[derive(Deserialize)]
struct JsonLine<'a> {
    #[serde(
        default,
        alias = "lvl",
        alias = "severity",
        alias = "levelname",
        alias = "log.level",
        alias = "@l"
    )]
    level: Option<Level<'a>>,
    #[serde(default, borrow, alias = "message", alias = "@m", alias = "@mt")]
    msg: Option<Cow<'a, str>>,
    #[serde(
        default,
        borrow,
        alias = "err",
        alias = "exception",
        alias = "exc_info",
        alias = "stack",
        alias = "stacktrace",
        alias = "@x"
    )]
    error: Option<Cow<'a, str>>,
}

/// A level as a word or as pino / bunyan's number.
#[derive(Deserialize)]
#[serde(untagged)]
enum Level<'a> {
    Number(u64),
    #[serde(borrow)]
    Word(Cow<'a, str>),
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
    let message = match (parsed.msg, parsed.error) {
        (Some(msg), Some(error)) => Cow::Owned(format!("{msg}\n{error}")),
        (Some(msg), None) => msg,
        (None, _) => Cow::Borrowed(line),
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
    let mut rest = line;
    let mut any = false;
    while let Some((key, value, after)) = next_pair(rest) {
        rest = after;
        any = true;
        match key {
            "level" | "lvl" | "severity" => severity = value.parse().ok(),
            "msg" | "message" => message = Some(value),
            "err" | "error" => error = Some(value),
            _ => {}
        }
    }
    if !any || (severity.is_none() && message.is_none()) {
        return None;
    }
    let message = match (message, error) {
        (Some(msg), Some(error)) => Cow::Owned(format!("{msg}\n{error}")),
        (Some(msg), None) => msg,
        (None, _) => Cow::Borrowed(line),
    };
    Some(Payload {
        severity,
        message,
        structured: true,
        opens: None,
    })
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
        assert_eq!(p.message, "db down\nconnection refused");
        let p = read(r#"{"level":50,"time":1,"msg":"pino says"}"#);
        assert_eq!(p.severity, Some(Severity::Error));
        assert_eq!(p.message, "pino says");
        let p = read(r#"{"levelname":"WARNING","message":"python json"}"#);
        assert_eq!(p.severity, Some(Severity::Warn));
        // JSON without a level or message is plain text.
        let p = read(r#"{"a":1}"#);
        assert!(!p.structured);
        // Broken JSON is plain text too, never an error.
        let p = read(r#"{"level":"error","msg":"cut"#);
        assert!(!p.structured);
    }

    #[test]
    fn logfmt_payloads() {
        let p = read(r#"time=2026-11-29T10:00:00Z level=warn msg="disk \"a\" at 91%" disk=sda"#);
        assert_eq!(p.severity, Some(Severity::Warn));
        assert_eq!(p.message, "disk \"a\" at 91%");
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
