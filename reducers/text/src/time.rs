//! Timestamps to seconds since the epoch, for `--since` and `--until`.

/// Seconds since the Unix epoch for a timestamp as [`briefly_template::leading_timestamp`]
/// finds it: ISO 8601 / RFC 3339 (offset honoured, UTC when none), `YYYY/MM/DD`, syslog's
/// `Mon DD HH:MM:SS` (in `year`), ctime's `Sun Dec 04 04:47:44 2005`, or epoch seconds or
/// milliseconds. `None` for shapes without a date.
pub fn epoch_seconds(stamp: &str, year: i64) -> Option<i64> {
    let s = stamp.trim();
    if s.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        let whole: i64 = s.split('.').next()?.parse().ok()?;
        return Some(if whole > 100_000_000_000 {
            whole / 1000
        } else {
            whole
        });
    }
    let b = s.as_bytes();
    if b.len() >= 19 && b[4] == b'-' || b.len() >= 19 && b[4] == b'/' {
        let (y, mo, d) = (num(&s[0..4])?, num(&s[5..7])?, num(&s[8..10])?);
        let (h, mi, sec) = (num(&s[11..13])?, num(&s[14..16])?, num(&s[17..19])?);
        let offset = offset_seconds(&s[19..]);
        return Some(civil(y, mo, d, h, mi, sec) - offset);
    }
    // "Jun 14 15:16:01" or "Sun Dec 04 04:47:44 2005"
    let words: Vec<&str> = s.split_whitespace().collect();
    let (month_word, day, time, y) = match words.as_slice() {
        [m, d, t] => (*m, *d, *t, year),
        [_, m, d, t, y] => (*m, *d, *t, num(y)?),
        _ => return None,
    };
    let month = month_number(month_word)?;
    let mut parts = time.split(':');
    let (h, mi, sec) = (
        num(parts.next()?)?,
        num(parts.next()?)?,
        num(parts.next()?.get(..2)?)?,
    );
    Some(civil(y, month, num(day)?, h, mi, sec))
}

fn num(s: &str) -> Option<i64> {
    s.parse().ok()
}

fn month_number(word: &str) -> Option<i64> {
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let lower = word.get(..3)?.to_ascii_lowercase();
    MONTHS
        .iter()
        .position(|m| *m == lower)
        .map(|i| i as i64 + 1)
}

/// `Z`, `+02:00`, `-0500` after the seconds (fractions skipped).
fn offset_seconds(rest: &str) -> i64 {
    let rest = rest.trim_start_matches(|c: char| c == '.' || c == ',' || c.is_ascii_digit());
    let sign = match rest.as_bytes().first() {
        Some(b'+') => 1,
        Some(b'-') => -1,
        _ => return 0,
    };
    let digits: String = rest[1..]
        .chars()
        .filter(char::is_ascii_digit)
        .take(4)
        .collect();
    if digits.len() < 4 {
        return 0;
    }
    let (h, m) = (
        digits[..2].parse::<i64>().unwrap_or(0),
        digits[2..].parse::<i64>().unwrap_or(0),
    );
    sign * (h * 3600 + m * 60)
}

/// Seconds since the epoch of a UTC civil time (Howard Hinnant's days-from-civil).
pub fn civil(y: i64, m: i64, d: i64, h: i64, mi: i64, s: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    days * 86_400 + h * 3600 + mi * 60 + s
}

/// The civil year of `epoch` (UTC).
pub fn year_of(epoch: i64) -> i64 {
    // Close enough for assigning a year to syslog stamps: 365.2425 days a year.
    1970 + (epoch as f64 / 31_556_952.0).floor() as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_shapes() {
        assert_eq!(epoch_seconds("1970-01-01T00:00:00Z", 2024), Some(0));
        assert_eq!(
            epoch_seconds("2024-01-05T10:00:01.123Z", 2024),
            Some(1_704_448_801)
        );
        assert_eq!(
            epoch_seconds("2024-01-05T12:00:01+02:00", 2024),
            Some(1_704_448_801)
        );
        assert_eq!(
            epoch_seconds("2015-10-18 18:01:47,978", 2024),
            Some(1_445_191_307)
        );
        assert_eq!(epoch_seconds("1117838570", 2024), Some(1_117_838_570));
        assert_eq!(epoch_seconds("1117838570123", 2024), Some(1_117_838_570));
        assert_eq!(
            epoch_seconds("Jun 14 15:16:01", 2005),
            Some(civil(2005, 6, 14, 15, 16, 1))
        );
        assert_eq!(
            epoch_seconds("Sun Dec 04 04:47:44 2005", 2024),
            Some(civil(2005, 12, 4, 4, 47, 44))
        );
        assert_eq!(epoch_seconds("16:49:06", 2024), None);
        assert_eq!(year_of(civil(2026, 11, 29, 0, 0, 0)), 2026);
    }
}
