//! `--where PATH=VALUE` conditions (also `!=`, `>`, `>=`, `<`, `<=`, `~regex`, `!~regex`) and the
//! keys `--sort` orders by.

use crate::path::{Path, Step};
use crate::tape::{Kind, TapeValue, WideRead};
use crate::JsonError;
use briefly_core::whole_against_double;
use regex::Regex;
use std::cmp::Ordering;

/// How a condition compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `=`: equal (strings as text, numbers as numbers; a missing value is `null`).
    Eq,
    /// `!=`: no value at the path is equal.
    Ne,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `~`: the regular expression matches the value's text.
    Match,
    /// `!~`: the regular expression matches no value's text (a missing value's neither).
    NotMatch,
}

/// One `--where` condition.
#[derive(Debug, Clone)]
pub struct Condition {
    /// The path, as given.
    pub path: Path,
    /// The comparison.
    pub op: Op,
    /// The value as given.
    pub text: String,
    number: Option<f64>,
    /// The value as an integer, when it is one: ids past 2^53 are told apart exactly.
    integer: Option<i128>,
    regex: Option<Regex>,
    /// The value was in quotes: a string, which only a string equals.
    quoted: bool,
    /// Strings that are no number, met by an order against a number (`"N/A"` by
    /// `d>1000`): they meet no such condition, and are counted for a warning.
    not_numbers: std::cell::Cell<u64>,
}

impl Condition {
    /// Parses `PATH=VALUE`, `PATH!=VALUE`, `PATH>N`, `PATH>=N`, `PATH<N`, `PATH<=N`,
    /// `PATH~REGEX`, `PATH!~REGEX`, spaces around the operator allowed (`v > 5`). A value in double
    /// quotes is a JSON string (`status="a b"`, `name=" padded "` to keep its spaces); in
    /// single quotes, the text between them (`status='a b'`), a string too.
    pub fn parse(text: &str) -> Result<Condition, JsonError> {
        let bad = |why: String| JsonError::Where {
            condition: text.to_string(),
            why,
        };
        let at = text
            .find(['=', '!', '<', '>', '~'])
            .ok_or_else(|| bad("no operator (=, !=, >, >=, <, <=, ~, !~)".into()))?;
        let rest = &text[at..];
        let (op, len) = if rest.starts_with("!=") {
            (Op::Ne, 2)
        } else if rest.starts_with("!~") {
            // As `briefly table` and awk write it.
            (Op::NotMatch, 2)
        } else if rest.starts_with("==") {
            // As jq and most languages write equality (and `briefly table` takes).
            (Op::Eq, 2)
        } else if rest.starts_with(">=") {
            (Op::Ge, 2)
        } else if rest.starts_with("<=") {
            (Op::Le, 2)
        } else {
            match rest.as_bytes()[0] {
                b'=' => (Op::Eq, 1),
                b'>' => (Op::Gt, 1),
                b'<' => (Op::Lt, 1),
                b'~' => (Op::Match, 1),
                _ => return Err(bad("'!' must be followed by '=' or '~'".into())),
            }
        };
        let path = Path::parse(text[..at].trim())?;
        let mut value = text[at + len..].trim().to_string();
        // In single quotes, as a shell's or SQL's string is written: the text between, as
        // it is (`name='a b'`, `briefly table` reads it so too).
        let single = value.len() >= 2 && value.starts_with('\'') && value.ends_with('\'');
        let quoted = single || value.starts_with('"');
        if single {
            value = value[1..value.len() - 1].to_string();
        } else if quoted {
            value = serde_json::from_str(&value)
                .map_err(|e| bad(format!("quoted value is not a JSON string: {e}")))?;
        }
        let regex = match op {
            Op::Match | Op::NotMatch => Some(Regex::new(&value).map_err(|e| bad(e.to_string()))?),
            _ => None,
        };
        // A quoted value is a string: it compares as text.
        let number = (!quoted).then(|| as_number(&value)).flatten();
        let integer = (!quoted).then(|| as_integer(&value)).flatten();
        if matches!(op, Op::Gt | Op::Ge | Op::Lt | Op::Le) && value.is_empty() {
            return Err(bad("nothing to compare with".into()));
        }
        Ok(Condition {
            path,
            op,
            text: value,
            number,
            integer,
            regex,
            quoted,
            not_numbers: std::cell::Cell::new(0),
        })
    }

    /// This condition with its path relative to records at `prefix`.
    pub fn relative_to(&self, prefix: &Path) -> Condition {
        Condition {
            path: self.path.relative_to(prefix),
            ..self.clone()
        }
    }

    /// Whether `record` meets it: some value at the path does (`!=`: none is equal). The
    /// values read past a double's digits are noted in `wide`, the keys on the path its
    /// object has twice counted in `duplicated`.
    pub fn matches(
        &self,
        record: TapeValue<'_, '_>,
        wide: &mut WideRead,
        duplicated: &mut u64,
    ) -> bool {
        self.matches_at(record, &self.path.steps, wide, duplicated)
    }

    /// [`Condition::matches`] with its path's `steps` from `value` on (the rest of the
    /// path, from an array's element).
    fn matches_at(
        &self,
        value: TapeValue<'_, '_>,
        steps: &[Step],
        wide: &mut WideRead,
        duplicated: &mut u64,
    ) -> bool {
        let mut any = false;
        let mut found = false;
        value.select_counting(
            steps,
            &mut |value| {
                found = true;
                wide.note(value.wide());
                if !any {
                    any = match self.op {
                        Op::Eq | Op::Ne => self.equals(value),
                        Op::Match | Op::NotMatch => self
                            .regex
                            .as_ref()
                            .is_some_and(|re| re.is_match(&value.text(4096))),
                        op => self.compare(value).is_some_and(|ord| match op {
                            Op::Gt => ord == Ordering::Greater,
                            Op::Ge => ord != Ordering::Less,
                            Op::Lt => ord == Ordering::Less,
                            _ => ord != Ordering::Greater,
                        }),
                    };
                }
            },
            duplicated,
        );
        if !found {
            // Missing is null.
            any = matches!(self.op, Op::Eq | Op::Ne) && self.is_literal("null");
        }
        if matches!(self.op, Op::Ne | Op::NotMatch) {
            !any
        } else {
            any
        }
    }

    /// Whether no one value could meet both it and `other` (at the same path): one asks
    /// it to equal a value the other's equality, regex, `!=` or order rules out (`t=a`
    /// and `t=b`, `name=web` and `name~^s`, `n=5` and `n>9`).
    fn excludes(&self, other: &Condition) -> bool {
        let (equal, other) = match (self.op, other.op) {
            (Op::Eq, _) => (self, other),
            (_, Op::Eq) => (other, self),
            _ => return false,
        };
        let same = match (equal.number, other.number) {
            (Some(a), Some(b)) => a == b,
            _ => equal.text == other.text,
        };
        let matched = || {
            other
                .regex
                .as_ref()
                .is_some_and(|re| re.is_match(&equal.text))
        };
        // An order against a number is met by numbers alone (a string that writes one,
        // `"7"`, as that number: as an element is judged).
        let ordered = |holds: fn(f64, f64) -> bool| {
            let Some(bound) = other.number else {
                return false;
            };
            match equal.number.or_else(|| as_number(&equal.text)) {
                Some(value) => !holds(value, bound),
                None => true,
            }
        };
        match other.op {
            Op::Eq => !same,
            Op::Ne => same,
            Op::Match => !matched(),
            Op::NotMatch => matched(),
            Op::Gt => ordered(|value, bound| value > bound),
            Op::Ge => ordered(|value, bound| value >= bound),
            Op::Lt => ordered(|value, bound| value < bound),
            Op::Le => ordered(|value, bound| value <= bound),
        }
    }

    /// Values that are no number (strings that are none, nulls, booleans, containers)
    /// met by this order against a number ([`Op::Gt`] …).
    pub fn not_numbers(&self) -> u64 {
        self.not_numbers.get()
    }

    /// Whether the value is JSON's `literal` (`null`, `true`, `false`) unquoted.
    fn is_literal(&self, literal: &str) -> bool {
        !self.quoted && self.text == literal
    }

    /// `null`, `true` and `false` unquoted are JSON's, and in quotes strings: each equals
    /// only its own kind (`t="null"` is not met by a null, `t=null` not by the text).
    fn equals(&self, value: TapeValue<'_, '_>) -> bool {
        let literal = ["null", "true", "false"].iter().any(|l| self.is_literal(l));
        match value.kind() {
            Kind::String => !literal && value.as_str() == Some(self.text.as_str()),
            Kind::Number => match (value.as_i128(), self.integer) {
                (Some(a), Some(b)) => a == b,
                _ => self.number.is_some() && value.as_f64() == self.number,
            },
            _ => !self.quoted && value.text(self.text.len() + 1) == self.text,
        }
    }

    /// The value against the condition's: numbers as numbers (a number written as a
    /// string, `"count": "100"`, too, against a number), other strings as text.
    fn compare(&self, value: TapeValue<'_, '_>) -> Option<Ordering> {
        match value.kind() {
            Kind::Number => match (value.as_i128(), self.integer) {
                (Some(a), Some(b)) => Some(a.cmp(&b)),
                _ => value.as_f64()?.partial_cmp(&self.number?),
            },
            Kind::String => {
                let text = value.as_str()?;
                // Whole numbers exactly (64-bit ids are written as strings for that).
                if let (Some(limit), Some(n)) = (self.integer, as_integer(text)) {
                    return Some(n.cmp(&limit));
                }
                match (as_number(text), self.number) {
                    (Some(number), Some(limit)) => number.partial_cmp(&limit),
                    // Text that is no number is not more or less than one (`N/A` and
                    // 1000); against text (a date), it orders as text.
                    (None, Some(_)) => {
                        self.not_numbers.set(self.not_numbers.get() + 1);
                        None
                    }
                    _ => Some(text.cmp(self.text.as_str())),
                }
            }
            // A null, a boolean, an array or an object is no number either.
            _ => {
                if self.number.is_some() {
                    self.not_numbers.set(self.not_numbers.get() + 1);
                }
                None
            }
        }
    }
}

/// How a record is checked against the `--where` conditions: each alone, but those whose
/// paths go through the same array inside the record and on into its elements
/// (`Instances[].State=running` and `Instances[].Type=t3`) together, on each element: the
/// record meets them when one element meets them all (an instance that is a running
/// t3), as jq's `any(.Instances[]; .State == "running" and .Type == "t3")` says. So
/// again inside the element, for paths through a further array they share.
#[derive(Debug, Clone)]
pub enum Test {
    /// The condition at this index, its path's steps from here on.
    One(usize, Vec<Step>),
    /// Some element of the array these steps lead to (the last is [`Step::Each`]) passes
    /// every test.
    Element(Vec<Step>, Vec<Test>),
}

/// A condition's index, and the steps left of its path.
type ConditionAt = (usize, Vec<Step>);

impl Test {
    /// The tests of `conditions`, from the record on.
    /// But conditions that ask one value of an element to equal two (`…Type=t3.micro` and
    /// `…Type=t3.small`: a reservation with both), or to equal one the other rules out
    /// (`…name=web` and `…name~^s`), cannot be met by one element: those
    /// through that array are each met by any element, and listed, by their indexes, in
    /// the groups returned beside the tests.
    pub fn plan(conditions: &[Condition]) -> (Vec<Test>, Vec<Vec<usize>>) {
        let paths = conditions.iter().enumerate();
        let mut apart = Vec::new();
        let paths = paths.map(|(i, c)| (i, c.path.steps.clone())).collect();
        let tests = Test::group(conditions, paths, &mut apart);
        (tests, apart)
    }

    /// The tests of the conditions at these indexes, with these steps left of their
    /// paths; the groups of them left apart added to `apart`.
    fn group(
        conditions: &[Condition],
        paths: Vec<ConditionAt>,
        apart: &mut Vec<Vec<usize>>,
    ) -> Vec<Test> {
        // Each path by the array it first goes through, when it goes on past it.
        let array_of = |steps: &[Step]| {
            let each = steps.iter().position(|step| *step == Step::Each)?;
            (each + 1 < steps.len()).then(|| steps[..=each].to_vec())
        };
        let mut tests = Vec::new();
        let mut arrays: Vec<(Vec<Step>, Vec<ConditionAt>)> = Vec::new();
        for (i, steps) in paths {
            match array_of(&steps) {
                Some(array) => {
                    let rest = steps[array.len()..].to_vec();
                    match arrays.iter_mut().find(|(seen, _)| *seen == array) {
                        Some((_, members)) => members.push((i, rest)),
                        None => arrays.push((array, vec![(i, rest)])),
                    }
                }
                None => tests.push(Test::One(i, steps)),
            }
        }
        for (array, members) in arrays {
            // (An element's value past any further array is one value.)
            let both = |(a, rest): &ConditionAt, (b, other): &ConditionAt| {
                rest == other
                    && !rest.contains(&Step::Each)
                    && conditions[*a].excludes(&conditions[*b])
            };
            let impossible = (members.iter().enumerate())
                .any(|(n, a)| members[n + 1..].iter().any(|b| both(a, b)));
            if members.len() == 1 || impossible {
                if impossible {
                    apart.push(members.iter().map(|(i, _)| *i).collect());
                }
                for (i, rest) in members {
                    tests.push(Test::One(i, [array.clone(), rest].concat()));
                }
            } else {
                tests.push(Test::Element(
                    array,
                    Test::group(conditions, members, apart),
                ));
            }
        }
        tests
    }

    /// Whether `value` passes it, by `conditions` (those [`Test::plan`] was given); the
    /// values read noted as [`Condition::matches`] notes them.
    pub fn passes(
        &self,
        conditions: &[Condition],
        value: TapeValue<'_, '_>,
        wide: &mut WideRead,
        duplicated: &mut u64,
    ) -> bool {
        match self {
            Test::One(i, steps) => conditions[*i].matches_at(value, steps, wide, duplicated),
            Test::Element(array, tests) => {
                let mut any = false;
                let mut duplicates = 0;
                value.select_counting(
                    array,
                    &mut |element| {
                        any = any
                            || (tests.iter())
                                .all(|t| t.passes(conditions, element, wide, &mut duplicates));
                    },
                    duplicated,
                );
                *duplicated += duplicates;
                any
            }
        }
    }
}

/// `text` read as a whole number, as a condition's value and a string compared with
/// it are: exactly, past 2^53 too.
fn as_integer(text: &str) -> Option<i128> {
    text.trim().parse().ok()
}

/// `text` read as a finite number, as a condition's value and a string compared with it are.
fn as_number(text: &str) -> Option<f64> {
    text.trim().parse::<f64>().ok().filter(|n| n.is_finite())
}

/// What `--sort` orders by: numbers, then strings, then booleans, then null or missing.
#[derive(Debug, Clone, PartialEq)]
pub enum SortKey {
    /// A number.
    Number(Number),
    /// A string (its first 256 characters).
    Text(String),
    /// A boolean.
    Bool(bool),
    /// Null, missing, or a container.
    Null,
}

impl SortKey {
    /// The key of the first value at `path` in `record`, noted in `wide` if it is read
    /// past a double's digits (the keys on the path its object has twice counted in
    /// `duplicated`).
    pub fn of(
        record: TapeValue<'_, '_>,
        path: &Path,
        wide: &mut WideRead,
        duplicated: &mut u64,
    ) -> SortKey {
        match record.first(&path.steps, duplicated) {
            None => SortKey::Null,
            Some(value) => match value.kind() {
                Kind::Number => {
                    wide.note(value.wide());
                    match (value.as_i128(), value.as_f64()) {
                        (Some(whole), _) => SortKey::Number(Number::Whole(whole)),
                        // -0 is 0, as a whole number is.
                        (None, Some(double)) => SortKey::Number(Number::Double(double + 0.0)),
                        (None, None) => SortKey::Null,
                    }
                }
                Kind::String => {
                    SortKey::Text(value.as_str().unwrap_or("").chars().take(256).collect())
                }
                Kind::Bool => SortKey::Bool(value.text(5) == "true"),
                _ => SortKey::Null,
            },
        }
    }

    /// The order of `--sort --desc`: the largest first within a kind, the kinds in
    /// [`Ord`]'s order still (numbers, strings, booleans), so null and missing values come
    /// last whichever way the records are sorted.
    pub fn cmp_descending(&self, other: &SortKey) -> Ordering {
        self.class()
            .cmp(&other.class())
            .then_with(|| other.cmp(self))
    }

    fn class(&self) -> u8 {
        match self {
            SortKey::Number(_) => 0,
            SortKey::Text(_) => 1,
            SortKey::Bool(_) => 2,
            SortKey::Null => 3,
        }
    }
}

impl Eq for SortKey {}

impl PartialOrd for SortKey {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for SortKey {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (SortKey::Number(a), SortKey::Number(b)) => a.cmp(b),
            (SortKey::Text(a), SortKey::Text(b)) => a.cmp(b),
            (SortKey::Bool(a), SortKey::Bool(b)) => a.cmp(b),
            _ => self.class().cmp(&other.class()),
        }
    }
}

/// A number as a sort key: a whole one as written, exactly (ids past 2^53 told apart,
/// which a double is not), else a double; the two kinds ordered by their exact values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Number {
    /// A whole number.
    Whole(i128),
    /// Any other (finite, never -0).
    Double(f64),
}

impl Number {
    fn cmp(&self, other: &Number) -> Ordering {
        match (*self, *other) {
            (Number::Whole(a), Number::Whole(b)) => a.cmp(&b),
            (Number::Double(a), Number::Double(b)) => a.total_cmp(&b),
            (Number::Whole(a), Number::Double(b)) => whole_against_double(a, b),
            (Number::Double(a), Number::Whole(b)) => whole_against_double(b, a).reverse(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(condition: &str, json: &str) -> bool {
        let mut bytes = json.as_bytes().to_vec();
        let tape = simd_json::to_tape(&mut bytes).unwrap();
        Condition::parse(condition).unwrap().matches(
            TapeValue::root(&tape.0),
            &mut WideRead::default(),
            &mut 0,
        )
    }

    #[test]
    fn compares_strings_numbers_and_missing_values() {
        let rec =
            r#"{"status":"failed","code":500,"ok":false,"tags":["a","b"],"n":null,"s":"200"}"#;
        assert!(check("status=failed", rec));
        assert!(check("status == failed", rec), "`==` as jq writes it");
        assert!(check("code==500", rec));
        assert!(!check("status=ok", rec));
        assert!(check("status!=ok", rec));
        assert!(check("code=500", rec));
        assert!(check("code=5e2", rec));
        assert!(check("code>499", rec));
        assert!(check("code>=500", rec));
        assert!(!check("code<500", rec));
        assert!(check("code<=500", rec));
        assert!(check("ok=false", rec));
        assert!(check("tags[]=b", rec));
        assert!(!check("tags[]!=b", rec));
        assert!(check("status~^fail", rec));
        assert!(check("code~^5", rec));
        // `!~`: no value matches, a missing one neither; any tag matching fails it.
        assert!(!check("status!~^fail", rec));
        assert!(check("status !~ ^ok", rec));
        assert!(check("missing!~x", rec));
        assert!(!check("tags[]!~^b$", rec));
        assert!(check("tags[]!~^z$", rec));
        assert!(check("n=null", rec));
        assert!(check("missing=null", rec));
        assert!(!check("missing=x", rec));
        assert!(check("missing!=x", rec));
        assert!(check("s=200", rec));
        assert!(check("s>1", rec), "strings compare as text");
        assert!(check(r#"status="failed""#, rec));
        // Integers compare exactly, past what a double holds.
        let ids = r#"{"id":9007199254740993,"big":12345678901234567891}"#;
        assert!(check("id=9007199254740993", ids));
        assert!(!check("id=9007199254740992", ids));
        assert!(check("id>9007199254740992", ids));
        assert!(!check("big=12345678901234567890", ids));
        assert!(check("big>12345678901234567890", ids));
        assert!(
            check("id=9.007199254740993e15", ids),
            "a double compares as one"
        );
    }

    #[test]
    fn a_number_written_as_a_string_orders_as_a_number() {
        let nine = r#"{"v": "9", "d": "2024-05-01"}"#;
        assert!(!check("v>50", nine), "9 is not above 50");
        assert!(check("v<50", nine));
        assert!(
            check("v>50", r#"{"v": "100"}"#),
            "as text, \"100\" < \"50\""
        );
        // Text that is no number still orders as text against text; against a number
        // it is neither more nor less.
        assert!(check("d>2024-01-01", nine));
        assert!(!check("d>1000", nine));
        assert!(!check("d<1000", nine));
        assert!(!check("v>1000", r#"{"v": "N/A"}"#));
        // Whole numbers exactly; a quoted condition compares as text.
        assert!(check(
            "id>9007199254740992",
            r#"{"id": "9007199254740993"}"#
        ));
        assert!(check(r#"v>"50""#, nine), "as text, \"9\" > \"50\"");
    }

    #[test]
    fn null_true_and_false_in_quotes_are_strings() {
        let null = r#"{"t": null, "b": true}"#;
        let text = r#"{"t": "null", "b": "true"}"#;
        assert!(check("t=null", null));
        assert!(!check("t=null", text));
        assert!(check(r#"t="null""#, text));
        assert!(!check(r#"t="null""#, null));
        assert!(check("b=true", null));
        assert!(!check("b=true", text));
        assert!(check(r#"b="true""#, text));
        assert!(!check(r#"b="true""#, null));
        // Missing is null, not the text.
        assert!(check("gone=null", null));
        assert!(!check(r#"gone="null""#, null));
        assert!(check(r#"t!="null""#, null));
    }

    #[test]
    fn spaces_around_the_operator_are_not_the_values() {
        let rec = r#"{"v": "10", "n": 9, "s": " padded "}"#;
        for condition in ["v = 10", "v=10 ", "n > 5", "n <= 9", "v ~ ^1"] {
            assert!(check(condition, rec), "{condition}");
        }
        assert!(check(r#"s=" padded ""#, rec), "quoted, the spaces stay");
        // In single quotes too, and a string then: `v='10'` is not the number 10.
        assert!(check("s=' padded '", rec));
        assert!(check("v='10'", rec) && !check("n='9'", rec));
        assert!(
            check("v = 'it's'", r#"{"v": "it's"}"#),
            "the text between, as it is"
        );
        assert!(check("v='", r#"{"v": "'"}"#), "one quote is the value");
    }

    #[test]
    fn rejects_malformed_conditions() {
        for bad in [
            "status",
            "a!b",
            "x~(",
            "x!~(",
            "x>",
            "a..b=1",
            r#"x="unclosed"#,
        ] {
            assert!(Condition::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn sort_keys_order_numbers_strings_bools_then_null() {
        let mut keys = vec![
            SortKey::Null,
            SortKey::Bool(true),
            SortKey::Text("b".into()),
            SortKey::Number(Number::Double(2.5)),
            SortKey::Text("a".into()),
            SortKey::Number(Number::Whole(-1)),
        ];
        let mut descending = keys.clone();
        descending.sort_by(SortKey::cmp_descending);
        assert_eq!(
            descending,
            [
                SortKey::Number(Number::Double(2.5)),
                SortKey::Number(Number::Whole(-1)),
                SortKey::Text("b".into()),
                SortKey::Text("a".into()),
                SortKey::Bool(true),
                SortKey::Null,
            ]
        );
        keys.sort();
        assert_eq!(
            keys,
            [
                SortKey::Number(Number::Whole(-1)),
                SortKey::Number(Number::Double(2.5)),
                SortKey::Text("a".into()),
                SortKey::Text("b".into()),
                SortKey::Bool(true),
                SortKey::Null
            ]
        );
    }

    #[test]
    fn numbers_sort_by_their_exact_values() {
        use Number::{Double, Whole};
        // Ids past 2^53, which one double holds all of; whole numbers beside doubles.
        let mut numbers = vec![
            Whole(1_234_567_890_123_460_701),
            Whole(1_234_567_890_123_460_342),
            Double(1_234_567_890_123_460_454.0),
            Whole(1_234_567_890_123_460_454),
            Double(2.5),
            Whole(2),
            Whole(3),
            Double(-0.5),
            Whole(0),
            Whole(-1),
            Double(1e300),
            Double(-1e300),
        ];
        numbers.sort_by(Number::cmp);
        assert_eq!(
            numbers,
            [
                Double(-1e300),
                Whole(-1),
                Double(-0.5),
                Whole(0),
                Whole(2),
                Double(2.5),
                Whole(3),
                Whole(1_234_567_890_123_460_342),
                // The double is 1234567890123460352: above the whole 342, below 454.
                Double(1_234_567_890_123_460_454.0),
                Whole(1_234_567_890_123_460_454),
                Whole(1_234_567_890_123_460_701),
                Double(1e300),
            ]
        );
    }
}
