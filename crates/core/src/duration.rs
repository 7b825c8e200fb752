//! Human durations: `500ms`, `30s`, `2h`, `1h30m`, `7d`.

use crate::Error;
use std::time::Duration;

/// Parses a duration such as `30s`, `2h`, `1h 30m` or `7d`; a bare number means seconds.
pub fn parse_duration(text: &str) -> Result<Duration, Error> {
    let text = text.trim();
    if let Ok(secs) = text.parse::<u64>() {
        return Ok(Duration::from_secs(secs));
    }
    humantime::parse_duration(text)
        .map_err(|e| Error::Option(format!("invalid duration {text:?}: {e} (try 30s, 2h, 7d)")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_common_forms() {
        assert_eq!(parse_duration("30").unwrap(), Duration::from_secs(30));
        assert_eq!(parse_duration("500ms").unwrap(), Duration::from_millis(500));
        assert_eq!(parse_duration("2h").unwrap(), Duration::from_secs(7200));
        assert_eq!(parse_duration("1h30m").unwrap(), Duration::from_secs(5400));
        assert_eq!(
            parse_duration("7d").unwrap(),
            Duration::from_secs(7 * 86400)
        );
    }

    #[test]
    fn rejects_garbage_with_a_hint() {
        let err = parse_duration("soon").unwrap_err().to_string();
        assert!(err.contains("soon") && err.contains("30s"), "{err}");
        assert!(parse_duration("-5s").is_err());
    }
}
