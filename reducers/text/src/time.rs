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
    let at = |i: usize| b.get(i).copied();
    if b.len() >= 19 && b[4] == b'-' || b.len() >= 19 && b[4] == b'/' {
        let (y, mo, d) = (num(s.get(0..4)?)?, num(s.get(5..7)?)?, num(s.get(8..10)?)?);
        let (h, mi, sec) = (
            num(s.get(11..13)?)?,
            num(s.get(14..16)?)?,
            num(s.get(17..19)?)?,
        );
        let offset = offset_seconds(&s[19..]);
        return Some(checked_civil(y, mo, d, h, mi, sec)? - offset);
    }
    // logcat's `03-17 16:13:38.811`, Proxifier's `10.30 16:49:06`: no year.
    if matches!(at(2), Some(b'-' | b'.')) && at(5) == Some(b' ') && at(8) == Some(b':') {
        let (mo, d) = (num(s.get(0..2)?)?, num(s.get(3..5)?)?);
        let (h, mi, sec) = (
            num(s.get(6..8)?)?,
            num(s.get(9..11)?)?,
            num(s.get(12..14)?)?,
        );
        return checked_civil(year, mo, d, h, mi, sec);
    }
    // Spark's `17/06/09 20:10:40`.
    if at(2) == Some(b'/') && at(5) == Some(b'/') && at(8) == Some(b' ') {
        let (y, mo, d) = (num(s.get(0..2)?)?, num(s.get(3..5)?)?, num(s.get(6..8)?)?);
        let (h, mi, sec) = (
            num(s.get(9..11)?)?,
            num(s.get(12..14)?)?,
            num(s.get(15..17)?)?,
        );
        return checked_civil(2000 + y, mo, d, h, mi, sec);
    }
    // `20171223-22:15:29:606`.
    if at(8) == Some(b'-') && b[..8].iter().all(u8::is_ascii_digit) {
        let (y, mo, d) = (num(&s[0..4])?, num(&s[4..6])?, num(&s[6..8])?);
        let mut parts = s[9..].split(':');
        let (h, mi, sec) = (
            num(parts.next()?)?,
            num(parts.next()?)?,
            num(parts.next()?)?,
        );
        return checked_civil(y, mo, d, h, mi, sec);
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
    checked_civil(y, month, num(day)?, h, mi, sec)
}

/// [`civil`] of a time that exists: no 13th month, no February 30th, no 25th hour (a
/// leap second passes).
fn checked_civil(y: i64, m: i64, d: i64, h: i64, mi: i64, s: i64) -> Option<i64> {
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days = match m {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        1..=12 => 31,
        _ => return None,
    };
    ((1..=days).contains(&d)
        && (0..24).contains(&h)
        && (0..60).contains(&mi)
        && (0..=60).contains(&s))
    .then(|| civil(y, m, d, h, mi, s))
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
        // logcat, Proxifier (no year: the one given), Spark, HealthApp.
        for (stamp, want) in [
            ("03-17 16:13:38.811", civil(2017, 3, 17, 16, 13, 38)),
            ("10.30 16:49:06", civil(2017, 10, 30, 16, 49, 6)),
            ("17/06/09 20:10:40", civil(2017, 6, 9, 20, 10, 40)),
            ("20171223-22:15:29:606", civil(2017, 12, 23, 22, 15, 29)),
        ] {
            assert_eq!(epoch_seconds(stamp, 2017), Some(want), "{stamp}");
        }
        assert_eq!(epoch_seconds("20171224-0:59", 2024), None, "no seconds");
    }

    #[test]
    fn times_that_do_not_exist_are_none() {
        for stamp in [
            "2015-13-45 00:00:00",
            "2015-02-30 00:00:00",
            "2015-02-29T00:00:00Z",
            "2016-04-31 00:00:00",
            "2016-01-01 24:00:00",
            "2016-01-01 23:60:00",
            "13-01 00:00:00",
            "Feb 30 12:00:00",
        ] {
            assert_eq!(epoch_seconds(stamp, 2015), None, "{stamp}");
        }
        assert!(
            epoch_seconds("2016-02-29 23:59:60", 2015).is_some(),
            "leap day, leap second"
        );
        assert_eq!(year_of(civil(2026, 11, 29, 0, 0, 0)), 2026);
    }
}
