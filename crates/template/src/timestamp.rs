//! Detection of a timestamp at the start of a log line.
//!
//! A small hand-written scanner (no regex) for the common shapes:
//!
//! | shape | example |
//! | --- | --- |
//! | ISO 8601 / RFC 3339 | `2024-01-05T10:00:01.123Z`, `2015-10-18 18:01:47,978` |
//! | slashed dates | `2016/09/28 04:30:30`, `17/06/09 20:10:40` |
//! | compact dates | `20171223-22:15:29:606`, `20240105T100001Z` |
//! | month-day with time | `03-17 16:13:38.811`, `10.30 16:49:06` |
//! | syslog / ctime | `Jun 14 15:16:01`, `Sun Dec 04 04:47:44 2005` |
//! | time of day | `16:49:06.123` |
//! | unix epoch | `1117838570`, `1117838570.123`, `1700000000000` |
//!
//! An opening `[` before the timestamp is skipped (`[10.30 16:49:06]`).

/// The timestamp at the start of `line`, as a slice of it, if there is one.
///
/// Leading whitespace and one opening `[` are skipped; the returned text
/// excludes them and any closing bracket. Recognized shapes: ISO 8601 /
/// RFC 3339 (`2024-01-05T10:00:01.123Z`, `2015-10-18 18:01:47,978`),
/// slashed and dotted dates (`2016/09/28 04:30:30`, `17/06/09 20:10:40`),
/// compact dates with a time (`20171223-22:15:29:606`, `20240105T100001Z`),
/// month-day with a time (`03-17 16:13:38.811`, `10.30 16:49:06`), syslog
/// and ctime (`Jun 14 15:16:01`, `Sun Dec 04 04:47:44 2005`), a time of
/// day (`16:49:06.123`) and unix epochs in seconds or milliseconds
/// (`1117838570`, `1700000000000`). The text is returned as is (no time
/// zone conversion), which is enough to show a first / last time.
///
/// ```
/// use briefly_template::leading_timestamp;
/// assert_eq!(
///     leading_timestamp("2015-10-18 18:01:47,978 INFO [main] started"),
///     Some("2015-10-18 18:01:47,978")
/// );
/// assert_eq!(leading_timestamp("Jun 14 15:16:01 combo sshd[1]: x"), Some("Jun 14 15:16:01"));
/// assert_eq!(leading_timestamp("no time here"), None);
/// ```
pub fn leading_timestamp(line: &str) -> Option<&str> {
    leading_timestamp_range(line).map(|range| &line[range])
}

/// Where [`leading_timestamp`] is in `line`, for a caller that keeps the line apart from
/// what it found.
///
/// ```
/// assert_eq!(briefly_template::leading_timestamp_range("[12:00:01] up"), Some(1..9));
/// ```
pub fn leading_timestamp_range(line: &str) -> Option<std::ops::Range<usize>> {
    let b = line.as_bytes();
    let mut p = 0;
    while p < b.len() && (b[p] == b' ' || b[p] == b'\t') {
        p += 1;
    }
    if p < b.len() && b[p] == b'[' {
        p += 1;
    }
    let end = iso_date_time(b, p).or_else(|| full_reading(b, p))?;
    // Must end at a token boundary.
    if end < b.len() && (b[end].is_ascii_alphanumeric()) {
        return None;
    }
    Some(p..end)
}

/// Number of ASCII digits at `p` (at most `max`).
fn digits(b: &[u8], p: usize, max: usize) -> usize {
    b[p.min(b.len())..]
        .iter()
        .take(max)
        .take_while(|c| c.is_ascii_digit())
        .count()
}

/// Value of `n` digits at `p`.
fn number(b: &[u8], p: usize, n: usize) -> u32 {
    b[p..p + n]
        .iter()
        .fold(0u32, |v, &c| v * 10 + u32::from(c - b'0'))
}

fn at(b: &[u8], p: usize) -> u8 {
    b.get(p).copied().unwrap_or(0)
}

/// Where a timestamp of any recognized shape that starts at `p` ends.
fn full_reading(b: &[u8], p: usize) -> Option<usize> {
    date_time(b, p)
        .or_else(|| syslog(b, p))
        .or_else(|| time_of_day(b, p))
        .or_else(|| epoch(b, p))
}

/// `YYYY-MM-DD[T ]HH:MM:SS`, the commonest shape, read at fixed places: what
/// [`full_reading`] finds there, found sooner. `None` leaves the line to it.
fn iso_date_time(b: &[u8], p: usize) -> Option<usize> {
    let head: &[u8; 20] = b.get(p..)?.first_chunk()?;
    let digit = |i: usize| head[i].is_ascii_digit();
    let fixed = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18].into_iter().all(digit)
        && head[4] == b'-'
        && head[7] == b'-'
        && matches!(head[10], b'T' | b' ')
        && head[13] == b':'
        && head[16] == b':'
        // A third digit of seconds is another shape.
        && !digit(19);
    let two = |i: usize| u32::from(head[i] - b'0') * 10 + u32::from(head[i + 1] - b'0');
    let valid = fixed
        && (1..=12).contains(&two(5))
        && (1..=31).contains(&two(8))
        && two(11) <= 24
        && two(14) <= 59;
    valid.then(|| fraction_and_zone(b, p + 19))
}

/// Dates with digits first, optionally followed by a time.
fn date_time(b: &[u8], p: usize) -> Option<usize> {
    let d1 = digits(b, p, 9);
    let sep = at(b, p + d1);
    let date_end = match d1 {
        // 2024-01-05, 2016/9/27, 2005.06.03
        4 if matches!(sep, b'-' | b'/' | b'.') => {
            let q = p + 5;
            let m = digits(b, q, 3);
            let sep2 = at(b, q + m);
            let d = digits(b, q + m + 1, 3);
            if !(1..=2).contains(&m) || sep2 != sep || !(1..=2).contains(&d) {
                return None;
            }
            if !(1..=12).contains(&number(b, q, m)) || !(1..=31).contains(&number(b, q + m + 1, d))
            {
                return None;
            }
            q + m + 1 + d
        }
        // 17/06/09 (year first) or 03-17 / 10.30 (month-day, time required)
        2 if matches!(sep, b'-' | b'/' | b'.') => {
            let q = p + 3;
            let m = digits(b, q, 3);
            if m != 2 {
                return None;
            }
            if at(b, q + 2) == sep && digits(b, q + 3, 3) == 2 {
                q + 5
            } else {
                // Month-day: needs a time to be a timestamp.
                if !(1..=12).contains(&number(b, p, 2)) || !(1..=31).contains(&number(b, q, 2)) {
                    return None;
                }
                let t = q + 2;
                if at(b, t) != b' ' {
                    return None;
                }
                return time_of_day(b, t + 1);
            }
        }
        // 20171223
        8 => {
            if !(1..=12).contains(&number(b, p + 4, 2)) || !(1..=31).contains(&number(b, p + 6, 2))
            {
                return None;
            }
            p + 8
        }
        _ => return None,
    };
    // Optional time after `T`, a space, `-` or `_`.
    if matches!(at(b, date_end), b'T' | b' ' | b'-' | b'_' | b':') {
        if let Some(e) = time_of_day(b, date_end + 1) {
            return Some(e);
        }
        // Compact time: 20240105T100001Z
        if at(b, date_end) == b'T' && digits(b, date_end + 1, 7) == 6 {
            return Some(zone(b, date_end + 7));
        }
    }
    // A bare compact date is too ambiguous to be a timestamp.
    if d1 == 8 {
        return None;
    }
    Some(date_end)
}

/// `HH:MM[:SS][.frac|,frac|:frac][zone]`.
fn time_of_day(b: &[u8], p: usize) -> Option<usize> {
    let h = digits(b, p, 3);
    if !(1..=2).contains(&h) || at(b, p + h) != b':' || number(b, p, h) > 24 {
        return None;
    }
    let mut e = p + h + 1;
    if digits(b, e, 3) != 2 || number(b, e, 2) > 59 {
        return None;
    }
    e += 2;
    if at(b, e) == b':' && digits(b, e + 1, 3) == 2 {
        return Some(fraction_and_zone(b, e + 3));
    }
    Some(zone(b, e))
}

/// The end of a time's optional fraction (`.123`, `,978`, `:606`) and zone, after its
/// seconds end at `e`.
fn fraction_and_zone(b: &[u8], mut e: usize) -> usize {
    if matches!(at(b, e), b'.' | b',' | b':') {
        let f = digits(b, e + 1, 10);
        if f > 0 {
            e += 1 + f;
        }
    }
    zone(b, e)
}

/// Optional zone right after a time: `Z`, `+01:00`, `-0500`.
fn zone(b: &[u8], e: usize) -> usize {
    match at(b, e) {
        b'Z' => e + 1,
        b'+' | b'-' if digits(b, e + 1, 3) == 2 => {
            if at(b, e + 3) == b':' && digits(b, e + 4, 3) == 2 {
                e + 6
            } else if digits(b, e + 1, 5) == 4 {
                e + 5
            } else {
                e + 3
            }
        }
        _ => e,
    }
}

const MONTHS: [&[u8]; 12] = [
    b"Jan", b"Feb", b"Mar", b"Apr", b"May", b"Jun", b"Jul", b"Aug", b"Sep", b"Oct", b"Nov", b"Dec",
];
const DAYS: [&[u8]; 7] = [b"Mon", b"Tue", b"Wed", b"Thu", b"Fri", b"Sat", b"Sun"];

/// `[Weekday ]Mon DD HH:MM:SS[ YYYY]`.
fn syslog(b: &[u8], mut p: usize) -> Option<usize> {
    let word = |p: usize| b.get(p..p + 3);
    if word(p).is_some_and(|w| DAYS.contains(&w)) && at(b, p + 3) == b' ' {
        p += 4;
    }
    if !word(p).is_some_and(|w| MONTHS.contains(&w)) || at(b, p + 3) != b' ' {
        return None;
    }
    let mut q = p + 4;
    while at(b, q) == b' ' {
        q += 1;
    }
    let d = digits(b, q, 3);
    if !(1..=2).contains(&d) || at(b, q + d) != b' ' {
        return None;
    }
    let e = time_of_day(b, q + d + 1)?;
    if at(b, e) == b' ' && digits(b, e + 1, 5) == 4 {
        return Some(e + 5);
    }
    Some(e)
}

/// Unix time in seconds (10 digits) or milliseconds (13 digits).
fn epoch(b: &[u8], p: usize) -> Option<usize> {
    let n = digits(b, p, 14);
    if n != 10 && n != 13 {
        return None;
    }
    let mut e = p + n;
    if n == 10 && at(b, e) == b'.' {
        let f = digits(b, e + 1, 10);
        if f > 0 {
            e += 1 + f;
        }
    }
    Some(e)
}

#[cfg(test)]
mod tests {
    use super::leading_timestamp as ts;

    #[test]
    fn the_iso_shortcut_finds_what_the_full_reading_finds() {
        let base = *b"2024-01-05T10:00:01.123Z x";
        let swaps = b"0123456789T -:/.,Z+x";
        let mut seed = 5u64;
        let mut shortcut = 0;
        for _ in 0..50_000 {
            let mut line = base.to_vec();
            // One to three bytes changed, and sometimes the line cut short.
            for _ in 0..1 + seed % 3 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let at = (seed >> 40) as usize % line.len();
                line[at] = swaps[(seed >> 20) as usize % swaps.len()];
            }
            if seed % 7 == 0 {
                line.truncate((seed >> 50) as usize % line.len());
            }
            let line = String::from_utf8(line).expect("ASCII");
            let b = line.as_bytes();
            if let Some(end) = super::iso_date_time(b, 0) {
                assert_eq!(Some(end), super::full_reading(b, 0), "{line:?}");
                shortcut += 1;
            }
        }
        assert!(
            shortcut > 10_000,
            "{shortcut}: too few lines take the shortcut"
        );
    }

    #[test]
    fn iso_and_variants() {
        assert_eq!(
            ts("2024-01-05T10:00:01.123Z x"),
            Some("2024-01-05T10:00:01.123Z")
        );
        assert_eq!(
            ts("2024-01-05T10:00:01+01:00 x"),
            Some("2024-01-05T10:00:01+01:00")
        );
        assert_eq!(
            ts("2015-10-18 18:01:47,978 INFO"),
            Some("2015-10-18 18:01:47,978")
        );
        assert_eq!(ts("2016-09-28 04:30:30, Info"), Some("2016-09-28 04:30:30"));
        assert_eq!(
            ts("2015-07-29 17:41:44,747 - INFO"),
            Some("2015-07-29 17:41:44,747")
        );
        assert_eq!(ts("2024-01-05 x"), Some("2024-01-05"));
        assert_eq!(ts("17/06/09 20:10:40 INFO"), Some("17/06/09 20:10:40"));
        assert_eq!(
            ts("20171223-22:15:29:606|Step"),
            Some("20171223-22:15:29:606")
        );
        assert_eq!(ts("20240105T100001Z x"), Some("20240105T100001Z"));
    }

    #[test]
    fn month_day_and_syslog() {
        assert_eq!(ts("03-17 16:13:38.811  1702"), Some("03-17 16:13:38.811"));
        assert_eq!(ts("[10.30 16:49:06] chrome.exe"), Some("10.30 16:49:06"));
        assert_eq!(ts("Jul  1 09:00:55 host"), Some("Jul  1 09:00:55"));
        assert_eq!(
            ts("[Sun Dec 04 04:47:44 2005] [notice]"),
            Some("Sun Dec 04 04:47:44 2005")
        );
        assert_eq!(ts("12:00:01.5 started"), Some("12:00:01.5"));
    }

    #[test]
    fn epochs() {
        assert_eq!(ts("1117838570 2005.06.03"), Some("1117838570"));
        assert_eq!(ts("1700000000000 x"), Some("1700000000000"));
        assert_eq!(ts("1117838570.25 x"), Some("1117838570.25"));
    }

    #[test]
    fn not_timestamps() {
        assert_eq!(ts(""), None);
        assert_eq!(ts("hello 2024-01-05"), None);
        assert_eq!(ts("12345 items"), None);
        assert_eq!(ts("2024-13-05 x"), None);
        assert_eq!(ts("03-17 x"), None);
        assert_eq!(ts("1.2.3 version"), None);
        assert_eq!(ts("20171223 x"), None);
        assert_eq!(ts("2024-01-05abc"), None);
        assert_eq!(ts("Jun 14 later"), None);
    }
}
