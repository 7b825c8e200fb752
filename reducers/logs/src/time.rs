//! Entry times as microseconds since the Unix epoch: parsed from RFC 3339 (docker),
//! printed as RFC 3339 UTC. Days from civil dates and back are [`briefly_text::time`]'s.

use briefly_text::time::{civil, civil_from_days};

/// The earliest and the latest of the times seen (microseconds since the epoch): entries
/// of two streams, or merged journals, are not in order.
#[derive(Debug, Clone, Copy, Default)]
pub struct Span(Option<(i64, i64)>);

impl Span {
    /// Takes a time in.
    pub fn see(&mut self, micros: i64) {
        self.0 = Some(match self.0 {
            None => (micros, micros),
            Some((a, b)) => (a.min(micros), b.max(micros)),
        });
    }

    /// The earliest and the latest, as RFC 3339 UTC ([`format_micros`]); none without
    /// times.
    pub fn formatted(&self) -> Option<(String, String)> {
        self.0.map(|(a, b)| (format_micros(a), format_micros(b)))
    }
}

/// `2026-11-29T10:00:00.123456Z` for `micros` since the epoch.
pub fn format_micros(micros: i64) -> String {
    let secs = micros.div_euclid(1_000_000);
    let frac = micros.rem_euclid(1_000_000);
    let days = secs.div_euclid(86_400);
    let rest = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{frac:06}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// Microseconds since the epoch of an RFC 3339 time (`2026-11-29T10:00:00.123456789Z`,
/// `…+02:00`; a space for the `T` too). `None` unless it is one.
pub fn parse_rfc3339_micros(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    let n = |from: usize, to: usize| -> Option<i64> {
        let mut v = 0i64;
        for &c in &b[from..to] {
            if !c.is_ascii_digit() {
                return None;
            }
            v = v * 10 + i64::from(c - b'0');
        }
        Some(v)
    };
    let (y, mo, d) = (n(0, 4)?, n(5, 7)?, n(8, 10)?);
    let (h, mi, s) = (n(11, 13)?, n(14, 16)?, n(17, 19)?);
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || s > 60 {
        return None;
    }
    let mut i = 19;
    let mut micros = 0i64;
    if b[i] == b'.' || b[i] == b',' {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            if i - start < 6 {
                micros = micros * 10 + i64::from(b[i] - b'0');
            }
            i += 1;
        }
        if i == start {
            return None;
        }
        for _ in (i - start)..6 {
            micros *= 10;
        }
    }
    let offset = match b.get(i)? {
        b'Z' | b'z' if i + 1 == b.len() => 0,
        sign @ (b'+' | b'-') if b.len() == i + 6 && b[i + 3] == b':' => {
            let secs = n(i + 1, i + 3)? * 3600 + n(i + 4, i + 6)? * 60;
            if *sign == b'+' {
                secs
            } else {
                -secs
            }
        }
        _ => return None,
    };
    Some((civil(y, mo, d, h, mi, s) - offset) * 1_000_000 + micros)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        let t = parse_rfc3339_micros("2026-11-29T10:00:01.123456789Z").unwrap();
        assert_eq!(format_micros(t), "2026-11-29T10:00:01.123456Z");
        assert_eq!(
            parse_rfc3339_micros("2026-11-29T12:00:01.123456+02:00"),
            Some(t)
        );
        assert_eq!(parse_rfc3339_micros("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(format_micros(0), "1970-01-01T00:00:00.000000Z");
        assert_eq!(format_micros(-1), "1969-12-31T23:59:59.999999Z");
        assert_eq!(
            format_micros(951_782_400_000_000),
            "2000-02-29T00:00:00.000000Z"
        );
    }

    #[test]
    fn rejects_what_is_not_a_time() {
        for bad in [
            "",
            "2026-11-29",
            "2026-13-29T10:00:00Z",
            "2026-11-29T10:00:00",
            "2026-11-29T10:00:00.Z",
            "2026-11-29T10:00:00Zjunk",
            "yesterday at noon, roughly",
        ] {
            assert_eq!(parse_rfc3339_micros(bad), None, "{bad}");
        }
    }
}
