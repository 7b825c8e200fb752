//! Timestamps to seconds since the epoch, for `--since` and `--until`. The timestamps are
//! read by [`briefly_template::read_timestamp`], the reader that finds them in lines.

use briefly_template::{read_timestamp, zone_offset, Moment};

/// Seconds since the Unix epoch for a timestamp as [`briefly_template::leading_timestamp`]
/// finds it: ISO 8601 / RFC 3339 (offset honoured, UTC when none), `YYYY/MM/DD`, syslog's
/// `Mon DD HH:MM:SS` (in `year`), ctime's `Sun Dec 04 04:47:44 2005`, or epoch seconds or
/// milliseconds, and the other shapes it reads. `None` for a time of day without a date,
/// and for a time that does not exist (`2015-02-30`).
pub fn epoch_seconds(stamp: &str, year: i64) -> Option<i64> {
    epoch_seconds_read_at(stamp, year, None)
}

/// [`epoch_seconds`] of a stamp read at `now`: one without a year (syslog's, logcat's)
/// that would then be more than a day ahead of `now` is taken to be of the year before,
/// as December's lines read in January are.
pub fn epoch_seconds_read_at(stamp: &str, year: i64, now: Option<i64>) -> Option<i64> {
    match read_timestamp(stamp)? {
        Moment::Epoch(seconds) => Some(seconds),
        Moment::TimeOfDay => None,
        Moment::Civil(c) => {
            let fields = [c.month, c.day, c.hour, c.minute, c.second].map(i64::from);
            let [month, day, hour, minute, second] = fields;
            let at = |year| checked_civil(year, month, day, hour, minute, second);
            let epoch = match (c.year, now) {
                (Some(written), _) => at(i64::from(written))?,
                (None, Some(now)) => match at(year) {
                    Some(epoch) if epoch <= now + 86_400 => epoch,
                    // February 29th of this year may not exist, of last year it may.
                    _ => at(year - 1)?,
                },
                (None, None) => at(year)?,
            };
            Some(epoch - i64::from(c.offset))
        }
    }
}

/// Whether `stamp` is a date without its year (syslog's `Jun 14 15:16:01`), which
/// [`epoch_seconds_read_at`] places in a year of its choosing.
pub fn lacks_year(stamp: &str) -> bool {
    matches!(read_timestamp(stamp), Some(Moment::Civil(c)) if c.year.is_none())
}

/// What follows a time without a zone of its own, when it names one: a numeric offset
/// after a space (`2024-05-01 12:00:00 +0200`, `-05:00`, `+02`, as PostgreSQL and `date`
/// write it), or UTC by name (`UTC`, `GMT`, `Z`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ZoneAfter {
    /// Seconds east of UTC.
    Offset(i64),
    /// A zone by another name (`CEST`, `PST`): its offset is not read (abbreviations are
    /// ambiguous, and summer time moves them).
    Named,
}

/// Zones by the names logs give them, whose offsets [`zone_after`] does not read.
const ZONE_NAMES: [&str; 30] = [
    "CET", "CEST", "EET", "EEST", "WET", "WEST", "BST", "IST", "MSK", "PST", "PDT", "MST", "MDT",
    "CST", "CDT", "EST", "EDT", "AKST", "AKDT", "HST", "JST", "KST", "SGT", "HKT", "AEST", "AEDT",
    "ACST", "AWST", "NZST", "NZDT",
];

/// The zone `after` (the text after a time) opens with, if any ([`ZoneAfter`]).
pub fn zone_after(after: &str) -> Option<ZoneAfter> {
    let zone = after.strip_prefix(' ')?;
    let word = zone
        .find(|c: char| c.is_ascii_whitespace() || c == ']' || c == ',')
        .map_or(zone, |end| &zone[..end]);
    // An offset is read as a time's own zone is; none is over 14 hours.
    if let Some(offset) = zone_offset(word).filter(|offset| offset.abs() <= 14 * 3600) {
        return Some(ZoneAfter::Offset(i64::from(offset)));
    }
    match word {
        "UTC" | "GMT" => Some(ZoneAfter::Offset(0)),
        _ if ZONE_NAMES.contains(&word) => Some(ZoneAfter::Named),
        _ => None,
    }
}

/// [`epoch_seconds_read_at`] of `stamp`, followed in its line by `after`: a stamp with no
/// zone of its own takes an offset that follows it ([`zone_after`]).
pub fn epoch_seconds_in_line(stamp: &str, after: &str, year: i64, now: Option<i64>) -> Option<i64> {
    let epoch = epoch_seconds_read_at(stamp, year, now)?;
    let own_zone = stamp.ends_with('Z')
        || stamp
            .rfind(['+', '-'])
            .is_some_and(|at| at > 10 && stamp[at..].len() <= 6);
    match zone_after(after) {
        Some(ZoneAfter::Offset(offset)) if !own_zone => Some(epoch - offset),
        _ => Some(epoch),
    }
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
    civil_from_days(epoch.div_euclid(86_400)).0
}

/// The civil date of a day number (days since 1970-01-01): Howard Hinnant's
/// civil-from-days, the inverse of [`civil`].
pub fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zone_after_the_time_is_read() {
        let noon = epoch_seconds("2024-05-01T12:00:00Z", 2024).unwrap();
        let read = |line: &str| {
            let stamp = &line[..19];
            epoch_seconds_in_line(stamp, &line[19..], 2024, None).map(|e| e - noon)
        };
        assert_eq!(read("2024-05-01 12:00:00 +0200 INFO x"), Some(-7200));
        assert_eq!(read("2024-05-01 12:00:00 -05:00 INFO x"), Some(5 * 3600));
        assert_eq!(read("2024-05-01 12:00:00 +02 x"), Some(-7200));
        assert_eq!(read("2024-05-01 12:00:00 UTC x"), Some(0));
        // None, a level word, a zone by name (not read), a number that is no offset.
        for line in [
            "2024-05-01 12:00:00 INFO x",
            "2024-05-01 12:00:00 CEST [1] LOG: y",
            "2024-05-01 12:00:00 +123 x",
            "2024-05-01 12:00:00 +2500 x",
        ] {
            assert_eq!(read(line), Some(0), "{line}");
        }
        assert_eq!(zone_after(" CEST [1]"), Some(ZoneAfter::Named));
        assert_eq!(zone_after(" INFO x"), None);
        // A zone of the stamp's own comes first.
        let own = epoch_seconds_in_line("2024-05-01T12:00:00+01:00", " +0200", 2024, None);
        assert_eq!(own.map(|e| e - noon), Some(-3600));
    }

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
        // Syslog (no year: the one given), ctime, an access log (its zone applied),
        // Tomcat, glog (no year), java.util.logging, Redis, RFC 2822 (its zone applied).
        for (stamp, year, want) in [
            ("Jun 14 15:16:01", 2005, civil(2005, 6, 14, 15, 16, 1)),
            (
                "Sun Dec 04 04:47:44 2005",
                2024,
                civil(2005, 12, 4, 4, 47, 44),
            ),
            (
                "10/Oct/2000:13:55:36 -0700",
                2024,
                civil(2000, 10, 10, 20, 55, 36),
            ),
            (
                "05-Jan-2024 10:00:07.000",
                2024,
                civil(2024, 1, 5, 10, 0, 7),
            ),
            ("I0105 10:00:08.000000", 2023, civil(2023, 1, 5, 10, 0, 8)),
            // java.util.logging (12-hour clock), Redis (with its year, and without).
            ("Jan 05, 2024 1:00:06 PM", 2020, civil(2024, 1, 5, 13, 0, 6)),
            (
                "05 Jan 2024 10:00:04.123",
                2020,
                civil(2024, 1, 5, 10, 0, 4),
            ),
            ("14 Nov 07:01:22.119", 2015, civil(2015, 11, 14, 7, 1, 22)),
            (
                "Fri, 5 Jan 2024 12:00:00 +0200",
                2020,
                civil(2024, 1, 5, 10, 0, 0),
            ),
        ] {
            assert_eq!(epoch_seconds(stamp, year), Some(want), "{stamp}");
        }
        assert_eq!(epoch_seconds("16:49:06", 2024), None);
        // logcat, Proxifier (no year: the one given), Spark, HealthApp.
        for (stamp, want) in [
            ("03-17 16:13:38.811", civil(2017, 3, 17, 16, 13, 38)),
            ("10.30 16:49:06", civil(2017, 10, 30, 16, 49, 6)),
            ("17/06/09 20:10:40", civil(2017, 6, 9, 20, 10, 40)),
            ("20171223-22:15:29:606", civil(2017, 12, 23, 22, 15, 29)),
            ("20171223-23:8:9:233", civil(2017, 12, 23, 23, 8, 9)),
        ] {
            assert_eq!(epoch_seconds(stamp, 2017), Some(want), "{stamp}");
        }
        assert_eq!(
            epoch_seconds("20171224-0:59", 2024),
            Some(civil(2017, 12, 24, 0, 59, 0)),
            "no seconds"
        );
        assert_eq!(
            epoch_seconds("2016/09/28", 2024),
            Some(civil(2016, 9, 28, 0, 0, 0)),
            "a date alone is its midnight"
        );
        for stamp in ["2024-01-05 12:00:01+02", "2024-01-05 05:00:01-0500"] {
            let utc = civil(2024, 1, 5, 10, 0, 1);
            assert_eq!(epoch_seconds(stamp, 2024), Some(utc), "{stamp}");
        }
        assert_eq!(epoch_seconds("12345", 2024), None, "not an epoch's length");
        // Read in January 2027: last December's syslog lines are of 2026.
        let now = civil(2027, 1, 2, 12, 0, 0);
        for (stamp, want) in [
            ("Dec 30 10:00:00", civil(2026, 12, 30, 10, 0, 0)),
            ("Jan  2 10:00:00", civil(2027, 1, 2, 10, 0, 0)),
            ("Jan  3 10:00:00", civil(2027, 1, 3, 10, 0, 0)),
            ("12-30 10:00:00.000", civil(2026, 12, 30, 10, 0, 0)),
            ("2027-12-30 10:00:00", civil(2027, 12, 30, 10, 0, 0)),
        ] {
            assert_eq!(
                epoch_seconds_read_at(stamp, 2027, Some(now)),
                Some(want),
                "{stamp}"
            );
        }
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
            "17/13/09 10:00:00",
        ] {
            assert_eq!(epoch_seconds(stamp, 2015), None, "{stamp}");
        }
        assert!(
            epoch_seconds("2016-02-29 23:59:60", 2015).is_some(),
            "leap day, leap second"
        );
        assert_eq!(year_of(civil(2026, 11, 29, 0, 0, 0)), 2026);
        assert_eq!(year_of(civil(2027, 1, 1, 0, 0, 0)), 2027);
        assert_eq!(year_of(civil(2026, 12, 31, 23, 59, 59)), 2026);
    }
}
