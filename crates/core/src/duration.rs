//! Human durations: `500ms`, `30s`, `2h`, `1h30m`, `7d`.

use crate::Error;
use std::time::Duration;

/// Parses a duration such as `30s`, `2h`, `1h 30m` or `7d`; a bare number means seconds,
/// with a fraction too (`0.5`, as GNU timeout reads it).
pub fn parse_duration(text: &str) -> Result<Duration, Error> {
    let text = text.trim();
    if let Ok(secs) = text.parse::<u64>() {
        return Ok(Duration::from_secs(secs));
    }
    // Digits and one point only: not `inf`, `NaN` or `1e9`, which f64 reads.
    let decimal = text.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && text.bytes().filter(|&b| b == b'.').count() == 1
        && text.len() > 1;
    if let Some(secs) = decimal.then(|| text.parse::<f64>().ok()).flatten() {
        return Duration::try_from_secs_f64(secs)
            .map_err(|e| Error::Option(format!("invalid duration {text:?}: {e}")));
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
        assert_eq!(parse_duration("0.5").unwrap(), Duration::from_millis(500));
        assert_eq!(parse_duration("1.25").unwrap(), Duration::from_millis(1250));
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
        for odd in [".", "1.2.3", "inf", "1e9", "-0.5"] {
            assert!(parse_duration(odd).is_err(), "{odd}");
        }
    }
}
