//! `--where 'COL OP VALUE'`: simple row filters, all of which a row must pass.

use crate::cell::{Cell, Number};
use crate::Error;
use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::cmp::Ordering;

/// A comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Op {
    /// `=` or `==`; `= null` tests for null.
    Eq,
    /// `!=`; `!= null` tests for a value.
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `~`: the value's text matches the regular expression VALUE (somewhere in it, as
    /// `json --where` and `text --grep` match).
    Matches,
    /// `!~`: the value's text does not match VALUE.
    NotMatches,
}

/// One parsed `--where` ([`Condition::parse`] makes it, the regex compiled).
#[derive(Debug, Clone)]
pub struct Condition {
    /// The column's name.
    pub column: String,
    /// The comparison.
    pub op: Op,
    /// The value compared with; `None` for `null`.
    pub value: Option<String>,
    /// The value as an instant, when it is an ISO date or time: read once, here.
    at: Option<DateTime<Utc>>,
    /// The value as a span of time in seconds, when it is an ISO 8601 duration (`PT90S`,
    /// `P1DT2H`), as Arrow shows a duration column's values: read once, here.
    span: Option<f64>,
    /// The value as a number, when it is one: read once, here.
    number: Option<Number>,
    /// The value as a regular expression, for `~` and `!~`: compiled once, here.
    regex: Option<Regex>,
}

/// Operators, longest first so that `<=` is not read as `<`.
const OPS: &[(&str, Op)] = &[
    ("!=", Op::Ne),
    ("<>", Op::Ne),
    ("==", Op::Eq),
    ("<=", Op::Le),
    (">=", Op::Ge),
    ("!~", Op::NotMatches),
    ("=", Op::Eq),
    ("<", Op::Lt),
    (">", Op::Gt),
    ("~", Op::Matches),
];

impl Condition {
    /// Parses `COL OP VALUE` (`price >= 10`, `name ~ 'smith'`, `email = null`).
    pub fn parse(text: &str) -> Result<Condition, Error> {
        let bad = |why: &str| Error::Filter(format!("{text:?}: {why}"));
        let (at, symbol, op) = text
            .char_indices()
            .find_map(|(i, _)| {
                OPS.iter()
                    .find(|(symbol, _)| text[i..].starts_with(symbol))
                    .map(|(symbol, op)| (i, *symbol, *op))
            })
            .ok_or_else(|| bad("expected COL OP VALUE with OP one of = != < <= > >= ~ !~"))?;
        let column = unquote(text[..at].trim());
        let raw = text[at + symbol.len()..].trim();
        if column.is_empty() {
            return Err(bad("no column before the operator"));
        }
        if raw.is_empty() {
            return Err(bad(
                "no value after the operator (null compares with a missing one)",
            ));
        }
        let value = match raw {
            "null" | "NULL" => None,
            _ => Some(unquote(raw).to_string()),
        };
        if value.is_none() && !matches!(op, Op::Eq | Op::Ne) {
            return Err(bad("null can only be compared with = or !="));
        }
        let at = value.as_deref().and_then(instant);
        let span = value.as_deref().and_then(seconds);
        let number = value.as_deref().and_then(Number::parse);
        let regex = match (op, &value) {
            (Op::Matches | Op::NotMatches, Some(pattern)) => {
                Some(Regex::new(pattern).map_err(|e| bad(&format!("not a regex: {e}")))?)
            }
            _ => None,
        };
        Ok(Condition {
            column: column.to_string(),
            op,
            value,
            at,
            span,
            number,
            regex,
        })
    }

    /// Whether the value compared with is a number.
    pub fn is_numeric(&self) -> bool {
        self.number.is_some()
    }

    /// Whether the value compared with is a date or a time (and no number).
    pub fn is_time(&self) -> bool {
        self.at.is_some() && self.number.is_none()
    }

    /// Whether an order by text alone (its value neither a number nor a date or time:
    /// `id > 1OO`, `ts > 2024-13-45`) met `cell`, a CSV field that is one: it was
    /// ordered as text, as a CSV field is, which such a value may not mean.
    pub fn ordered_as_text(&self, cell: &Cell<'_>) -> bool {
        let by_text = matches!(self.op, Op::Lt | Op::Le | Op::Gt | Op::Ge)
            && self.number.is_none()
            && self.at.is_none();
        by_text
            && match cell {
                Cell::Text(text) => cell.number().is_some() || instant(text).is_some(),
                _ => false,
            }
    }

    /// Whether `cell`, a CSV field written with leading zeros that reads as a number
    /// (`02134`), met an equality with a number (`zip = 2134`): compared by its text, as
    /// an identifier, it is not equal to the number it reads as.
    pub fn compared_as_identifier(&self, cell: &Cell<'_>) -> bool {
        matches!(self.op, Op::Eq | Op::Ne)
            && self.number.is_some()
            && matches!(cell, Cell::Text(t) if zero_led(t))
            && cell.number().is_some()
    }

    /// The condition as written, `COL OP VALUE`.
    pub fn text(&self) -> String {
        let op = OPS
            .iter()
            .find(|(_, op)| *op == self.op)
            .map_or("?", |(symbol, _)| symbol);
        format!(
            "{} {op} {}",
            self.column,
            self.value.as_deref().unwrap_or("null")
        )
    }

    /// Whether `cell` passes ([`Condition::judge`]).
    pub fn test(&self, cell: &Cell<'_>) -> bool {
        self.judge(cell) == Verdict::Pass
    }

    /// What the condition says of `cell`. Numbers compare as numbers when both sides are
    /// numbers (whole ones exactly, past 2^53 too), else as text; a null passes only `=
    /// null` and `!= VALUE`. An order (`<`, `<=`, `>`, `>=`) with a number of what is not
    /// one (`N/A > 50`, or `12 > abc`), or with a time of what is not one (`N/A >
    /// 2024-01-01`), is not judged: the value does not pass, and is
    /// [`Verdict::Incomparable`] for a warning.
    pub fn judge(&self, cell: &Cell<'_>) -> Verdict {
        Verdict::from(self.holds(cell))
    }

    fn holds(&self, cell: &Cell<'_>) -> Option<bool> {
        let Some(value) = &self.value else {
            return Some((self.op == Op::Eq) == (*cell == Cell::Null));
        };
        if *cell == Cell::Null {
            return Some(matches!(self.op, Op::Ne | Op::NotMatches));
        }
        let text = cell.text();
        if let Some(regex) = &self.regex {
            return Some(regex.is_match(&text) == (self.op == Op::Matches));
        }
        let ordered = matches!(self.op, Op::Lt | Op::Le | Op::Gt | Op::Ge);
        // A field written with leading zeros is an identifier (a ZIP code, `02134`; a
        // code, `0000123`): equal to the same text only, not to any number it reads as.
        let identifier = match cell {
            Cell::Text(t) => !ordered && (zero_led(t) || zero_led(value)),
            _ => false,
        };
        // A boolean equal to a number as 1 and 0, as pandas and SQL have it (`b = 1`
        // matched nothing, silently); ordered by one, it is none (and warned of).
        let number = match cell {
            Cell::Bool(b) if !ordered => Some(Number::Int(i128::from(*b))),
            _ => cell.number(),
        };
        let ordering = match (number, self.number) {
            (Some(a), Some(b)) if !identifier => a.compare(b),
            // A number to order by: the value is meant as a number; and a numbers'
            // column (Parquet's, Arrow's) ordered by what is no number nor a time
            // (`id > abc`) is not ordered as text. A CSV field is text first.
            (None, Some(_)) if ordered => return None,
            (Some(_), None) if ordered && self.at.is_none() && !matches!(cell, Cell::Text(_)) => {
                return None
            }
            // A time to order by: what is no time (`N/A`, `03/01/2024`, a number) is not
            // ordered as text against it.
            _ if ordered && self.is_time() && instant(&text).is_none() => return None,
            // Spans of time by their length, not as text (`PT600S` is longer than
            // `PT60S`); what is none is not ordered against one.
            _ if self.span.is_some() => match seconds(&text) {
                Some(a) => a.partial_cmp(&self.span?),
                None if ordered => return None,
                None => Some(text.as_ref().cmp(value.as_str())),
            },
            // Times in time, not as text: `2024-03-01T00:00:00Z` is not after
            // `2024-03-01`, and offsets count.
            _ => match (cell, self.at.and_then(|b| Some((instant(&text)?, b)))) {
                (_, Some((a, b))) => Some(a.cmp(&b)),
                (Cell::Bool(b), None) => {
                    Some(b.to_string().as_str().cmp(value.to_lowercase().as_str()))
                }
                // A CSV column of booleans as pandas writes them (`True`): `= true` holds.
                (Cell::Text(t), None) if is_boolean(t) && is_boolean(value) => {
                    Some(t.to_lowercase().cmp(&value.to_lowercase()))
                }
                (_, None) => Some(text.as_ref().cmp(value.as_str())),
            },
        };
        let Some(ordering) = ordering else {
            return Some(self.op == Op::Ne); // NaN
        };
        Some(match self.op {
            Op::Eq => ordering == Ordering::Equal,
            Op::Ne => ordering != Ordering::Equal,
            Op::Lt => ordering == Ordering::Less,
            Op::Le => ordering != Ordering::Greater,
            Op::Gt => ordering == Ordering::Greater,
            Op::Ge => ordering != Ordering::Less,
            Op::Matches | Op::NotMatches => unreachable!("handled above"),
        })
    }
}

/// Whether `text` is a number written with a zero before its first digit
/// (`02134`, `-007`), as identifiers are and numbers are not (`0`, `0.5`).
fn zero_led(text: &str) -> bool {
    let digits = text.trim_start_matches(['-', '+']).as_bytes();
    digits.len() > 1 && digits[0] == b'0' && digits[1].is_ascii_digit()
}

/// What a [`Condition`] says of a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// It passes.
    Pass,
    /// It does not.
    Fail,
    /// An order between a number and what is not one: it does not pass.
    Incomparable,
}

impl From<Option<bool>> for Verdict {
    fn from(holds: Option<bool>) -> Verdict {
        match holds {
            Some(true) => Verdict::Pass,
            Some(false) => Verdict::Fail,
            None => Verdict::Incomparable,
        }
    }
}

/// `true` or `false`, in any case.
fn is_boolean(text: &str) -> bool {
    text.eq_ignore_ascii_case("true") || text.eq_ignore_ascii_case("false")
}

/// `text` as an instant when it is an ISO 8601 date (`2024-03-01`, its midnight) or date
/// and time (`T` or a space between, seconds' fractions, `Z` or an offset); one without
/// a zone is read as UTC, as a timestamp column without one is shown.
fn instant(text: &str) -> Option<DateTime<Utc>> {
    let text = text.trim();
    if !text.as_bytes().first()?.is_ascii_digit() {
        return None;
    }
    if let Ok(date) = NaiveDate::parse_from_str(text, "%Y-%m-%d") {
        return Some(date.and_hms_opt(0, 0, 0)?.and_utc());
    }
    let time = match text.contains(' ') {
        true => Cow::Owned(text.replacen(' ', "T", 1)),
        false => Cow::Borrowed(text),
    };
    if let Ok(at) = DateTime::parse_from_rfc3339(&time) {
        return Some(at.with_timezone(&Utc));
    }
    if let Some(at) = with_offset_seconds(&time) {
        return Some(at);
    }
    ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%dT%H:%M"]
        .iter()
        .find_map(|format| NaiveDateTime::parse_from_str(&time, format).ok())
        .map(|at| at.and_utc())
}

/// `time` as an instant when its offset has seconds, as a zone's local mean time is shown
/// (`1900-01-01T12:00:00+05:21:10`; chrono reads no such offset).
fn with_offset_seconds(time: &str) -> Option<DateTime<Utc>> {
    let split = time.len().checked_sub(9)?;
    let (local, offset) = (time.get(..split)?, time.get(split..)?.as_bytes());
    let sign = match offset {
        [b'+', _, _, b':', _, _, b':', _, _] => 1,
        [b'-', _, _, b':', _, _, b':', _, _] => -1,
        _ => return None,
    };
    let number = |at: usize| {
        std::str::from_utf8(&offset[at..at + 2])
            .ok()?
            .parse::<i64>()
            .ok()
    };
    let seconds = number(1)? * 3_600 + number(4)? * 60 + number(7)?;
    let local = NaiveDateTime::parse_from_str(local, "%Y-%m-%dT%H:%M:%S%.f").ok()?;
    Some((local - chrono::TimeDelta::seconds(sign * seconds)).and_utc())
}

/// `text` as seconds when it is an ISO 8601 duration of days, hours, minutes and seconds
/// (`PT90S`, `-PT1.5S`, `P1DT2H30M`; not years or months, whose length varies).
fn seconds(text: &str) -> Option<f64> {
    let text = text.trim();
    let (sign, text) = match text.strip_prefix('-') {
        Some(rest) => (-1.0, rest),
        None => (1.0, text),
    };
    let rest = text.strip_prefix('P')?;
    let (date, time) = rest.split_once('T').unwrap_or((rest, ""));
    if date.is_empty() && time.is_empty() {
        return None;
    }
    // Each part: a number, then its unit.
    let parts = |text: &str, units: &[(char, f64)]| -> Option<f64> {
        let mut total = 0.0;
        let mut rest = text;
        let mut units = units.iter();
        while !rest.is_empty() {
            let end = rest.find(|c: char| !(c.is_ascii_digit() || c == '.'))?;
            let number: f64 = rest[..end].parse().ok()?;
            let unit = rest[end..].chars().next()?;
            // Units in their order, each once.
            let &(_, length) = units.find(|(u, _)| *u == unit)?;
            total += number * length;
            rest = &rest[end + unit.len_utf8()..];
        }
        Some(total)
    };
    let days = parts(date, &[('W', 604_800.0), ('D', 86_400.0)])?;
    let clock = parts(time, &[('H', 3_600.0), ('M', 60.0), ('S', 1.0)])?;
    Some(sign * (days + clock))
}

fn unquote(text: &str) -> &str {
    for q in ['\'', '"'] {
        if text.len() >= 2 && text.starts_with(q) && text.ends_with(q) {
            return &text[1..text.len() - 1];
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(t: &str) -> Cell<'_> {
        Cell::Text(Cow::Borrowed(t))
    }

    #[test]
    fn parses_operators_and_quotes() {
        let c = Condition::parse("price >= 10").unwrap();
        assert_eq!(
            (c.column.as_str(), c.op, c.value.as_deref()),
            ("price", Op::Ge, Some("10"))
        );
        let c = Condition::parse("\"full name\"~'a b'").unwrap();
        assert_eq!(
            (c.column.as_str(), c.op, c.value.as_deref()),
            ("full name", Op::Matches, Some("a b"))
        );
        assert_eq!(Condition::parse("x = null").unwrap().value, None);
        assert!(Condition::parse("no operator").is_err());
        assert!(Condition::parse("= 3").is_err());
        assert!(Condition::parse("x < null").is_err());
        assert!(Condition::parse("i >").is_err());
        assert!(
            Condition::parse("s = ''").is_ok(),
            "an empty string, quoted"
        );
    }

    #[test]
    fn a_tilde_matches_a_regex() {
        let starts = Condition::parse("name ~ ^a").unwrap();
        assert!(starts.test(&text("abc")) && !starts.test(&text("cab")));
        assert!(!starts.test(&text("^a")), "a pattern, not the text");
        let not = Condition::parse("name !~ ^a").unwrap();
        assert!(not.test(&text("cab")) && !not.test(&text("abc")));
        assert!(not.test(&Cell::Null), "a null does not match");
        assert!(!starts.test(&Cell::Null));
        // Somewhere in the text, as grep; of a number, its text.
        assert!(Condition::parse("n ~ 4.$").unwrap().test(&Cell::Int(1042)));
        let bad = Condition::parse("name ~ (").unwrap_err().to_string();
        assert!(bad.contains("not a regex"), "{bad}");
    }

    #[test]
    fn numbers_compare_as_numbers_and_text_as_text() {
        let ge = Condition::parse("n >= 9").unwrap();
        assert!(ge.test(&Cell::Int(10)));
        assert!(ge.test(&text("10")), "CSV text that is a number");
        assert!(!ge.test(&Cell::Float(8.5)));
        let lt = Condition::parse("s < b").unwrap();
        assert!(lt.test(&text("abc")) && !lt.test(&text("c")));
        let null = Condition::parse("s = null").unwrap();
        assert!(null.test(&Cell::Null) && !null.test(&text("")));
        let ne = Condition::parse("s != x").unwrap();
        assert!(ne.test(&Cell::Null) && !ne.test(&text("x")));
        assert!(Condition::parse("b = TRUE")
            .unwrap()
            .test(&Cell::Bool(true)));
        // CSV booleans as pandas writes them; other words stay case-sensitive.
        let t = Condition::parse("b = true").unwrap();
        assert!(t.test(&text("True")) && !t.test(&text("False")));
        assert!(Condition::parse("b != false").unwrap().test(&text("True")));
        assert!(!Condition::parse("s = abc").unwrap().test(&text("ABC")));
    }

    #[test]
    fn a_field_with_leading_zeros_is_equal_to_its_text_only() {
        // ZIP codes and codes in CSV: `= 2134` is not `02134`.
        let zip = Condition::parse("zip = 2134").unwrap();
        assert!(!zip.test(&text("02134")) && zip.test(&text("2134")));
        assert!(Condition::parse("zip = 02134")
            .unwrap()
            .test(&text("02134")));
        assert!(!Condition::parse("zip = 02134").unwrap().test(&text("2134")));
        assert!(Condition::parse("code != 123")
            .unwrap()
            .test(&text("0000123")));
        // Numbers as numbers still: `0.5`, `0`, a number column, and an order.
        assert!(Condition::parse("x = .5").unwrap().test(&text("0.5")));
        assert!(Condition::parse("x = 0").unwrap().test(&text("0")));
        assert!(Condition::parse("x = 02134")
            .unwrap()
            .test(&Cell::Int(2134)));
        assert!(Condition::parse("zip > 2000").unwrap().test(&text("02134")));
        // Said, for a warning: the fields the number did not find for it.
        assert!(zip.compared_as_identifier(&text("02134")));
        assert!(!zip.compared_as_identifier(&text("2134")));
        assert!(!Condition::parse("zip = ab")
            .unwrap()
            .compared_as_identifier(&text("02134")));
        assert!(!Condition::parse("zip > 2000")
            .unwrap()
            .compared_as_identifier(&text("02134")));
    }

    #[test]
    fn whole_numbers_compare_exactly_and_an_order_needs_numbers() {
        let eq = Condition::parse("id = 1234567890123456789").unwrap();
        assert!(eq.test(&Cell::Int(1_234_567_890_123_456_789)));
        assert!(!eq.test(&Cell::Int(1_234_567_890_123_456_788)));
        assert!(
            !eq.test(&text("1234567890123456790")),
            "CSV digits, exactly"
        );
        let gt = Condition::parse("id > 1234567890123456788").unwrap();
        assert!(gt.test(&Cell::Int(1_234_567_890_123_456_789)));
        assert!(!gt.test(&Cell::Int(1_234_567_890_123_456_788)));
        assert!(Condition::parse("u > 9223372036854775807")
            .unwrap()
            .test(&Cell::UInt(u64::MAX)));
        // A whole number against a float, and a float with a fraction.
        assert!(Condition::parse("x < 2.5").unwrap().test(&Cell::Int(2)));
        assert!(Condition::parse("x = 3").unwrap().test(&Cell::Float(3.0)));
        assert!(!Condition::parse("x > 3").unwrap().test(&Cell::Float(3.0)));
        // `N/A` is no number to order against 50: not passed, and said so.
        let over = Condition::parse("mixed > 50").unwrap();
        assert_eq!(over.judge(&text("N/A")), Verdict::Incomparable);
        // A number ordered by what is not one is not ordered as text either.
        let by_word = Condition::parse("id > abc").unwrap();
        assert_eq!(by_word.judge(&Cell::Int(12)), Verdict::Incomparable);
        assert_eq!(by_word.judge(&Cell::Float(1.5)), Verdict::Incomparable);
        assert_eq!(by_word.judge(&text("xyz")), Verdict::Pass, "text with text");
        assert_eq!(over.judge(&Cell::Bool(true)), Verdict::Incomparable);
        // Equal to a number, a boolean is 1 or 0; to a word, `true` or `false`.
        let one = Condition::parse("b = 1").unwrap();
        assert_eq!(one.judge(&Cell::Bool(true)), Verdict::Pass);
        assert_eq!(one.judge(&Cell::Bool(false)), Verdict::Fail);
        let not_zero = Condition::parse("b != 0").unwrap();
        assert_eq!(not_zero.judge(&Cell::Bool(true)), Verdict::Pass);
        assert_eq!(not_zero.judge(&Cell::Bool(false)), Verdict::Fail);
        let word = Condition::parse("b = True").unwrap();
        assert_eq!(word.judge(&Cell::Bool(true)), Verdict::Pass);
        assert_eq!(
            Condition::parse("b = 2").unwrap().judge(&Cell::Bool(true)),
            Verdict::Fail
        );
        assert_eq!(over.judge(&text("51")), Verdict::Pass);
        assert_eq!(over.judge(&Cell::Null), Verdict::Fail);
        assert!(Condition::parse("mixed != 50").unwrap().test(&text("N/A")));
        assert_eq!(over.text(), "mixed > 50");
        // A CSV field that is a number or a time, ordered by what is neither, is ordered
        // as text, and said to be.
        let typo = Condition::parse("id > 1OO").unwrap();
        assert_eq!(typo.judge(&text("1500")), Verdict::Fail, "`5` before `O`");
        assert!(typo.ordered_as_text(&text("1500")));
        assert!(typo.ordered_as_text(&text("2024-03-01")));
        assert!(!typo.ordered_as_text(&text("abc")));
        assert!(!typo.ordered_as_text(&Cell::Null));
        assert!(!Condition::parse("id = 1OO")
            .unwrap()
            .ordered_as_text(&text("1500")));
        assert!(!Condition::parse("id > 100")
            .unwrap()
            .ordered_as_text(&text("1500")));
        let date = Condition::parse("ts > 2024-03-01").unwrap();
        assert!(!date.ordered_as_text(&text("2024-04-01")));
    }

    #[test]
    fn durations_compare_by_their_length() {
        for (written, length) in [
            ("PT90S", Some(90.0)),
            ("-PT1.5S", Some(-1.5)),
            ("P1DT2H30M", Some(95_400.0)),
            ("P2W", Some(1_209_600.0)),
            ("PT1M30S", Some(90.0)),
            ("P1M", None),
            ("PT30S1M", None),
            ("PT", None),
            ("P", None),
            ("PTS", None),
            ("90", None),
        ] {
            assert_eq!(seconds(written), length, "{written}");
        }
        let longer = Condition::parse("dur > PT60S").unwrap();
        assert!(
            longer.test(&text("PT600S")),
            "longer, though before it as text"
        );
        assert!(!longer.test(&text("PT6S")));
        assert!(longer.test(&text("P1D")));
        assert!(Condition::parse("dur = PT1M").unwrap().test(&text("PT60S")));
        assert_eq!(longer.judge(&text("soon")), Verdict::Incomparable);
        assert!(!Condition::parse("dur = PT1M").unwrap().test(&text("soon")));
    }

    #[test]
    fn times_compare_as_instants() {
        // A zone's local mean time has seconds in its offset.
        let lmt = Condition::parse("ts = 1900-01-01T06:38:50Z").unwrap();
        assert!(lmt.test(&text("1900-01-01T12:00:00+05:21:10")));
        assert!(Condition::parse("ts < 1970-06-01T12:44:31Z")
            .unwrap()
            .test(&text("1970-06-01T12:00:00-00:44:30")));
        assert!(!Condition::parse("ts < 1970-06-01T12:44:30Z")
            .unwrap()
            .test(&text("1970-06-01T12:00:00-00:44:30")));
        let after = Condition::parse("ts > 2024-03-01").unwrap();
        assert!(
            !after.test(&text("2024-03-01T00:00:00Z")),
            "its midnight, not after"
        );
        assert!(!after.test(&text("2024-03-01T00:00:00")), "no zone: UTC");
        assert!(after.test(&text("2024-03-01 00:00:01")));
        assert!(after.test(&text("2024-03-01T00:30:00-05:00")), "05:30 UTC");
        assert!(
            !after.test(&text("2024-03-01T04:59:59+05:00")),
            "before midnight UTC"
        );
        let at = Condition::parse("ts = 2024-03-01T05:30:00+05:30").unwrap();
        assert!(at.test(&text("2024-03-01T00:00:00.000Z")));
        // Text that is no time compares as text.
        assert!(Condition::parse("s < b").unwrap().test(&text("2024")) == ("2024" < "b"));
        // Against a time, what is no time is not ordered: left out, and told of.
        for no_time in ["N/A", "pending", "03/01/2024", "1709251200"] {
            assert_eq!(
                after.judge(&text(no_time)),
                Verdict::Incomparable,
                "{no_time}"
            );
        }
        assert_eq!(
            Condition::parse("ts = 2024-03-01")
                .unwrap()
                .judge(&text("N/A")),
            Verdict::Fail
        );
    }
}
