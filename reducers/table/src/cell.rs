//! One value of a table, whatever it came from (an Arrow array or a CSV field), and how
//! it is rendered in a row.

use arrow_array::cast::AsArray;
use arrow_array::temporal_conversions::date64_to_datetime;
use arrow_array::timezone::Tz;
use arrow_array::types::{Date64Type, RunEndIndexType};
use arrow_array::types::{
    Float16Type, Float32Type, Float64Type, Int16Type, Int32Type, Int64Type, Int8Type, UInt16Type,
    UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{Array, ArrayRef, RecordBatch, RunArray};
use arrow_buffer::ArrowNativeType;
use arrow_cast::display::{ArrayFormatter, FormatOptions};
use arrow_schema::{DataType, TimeUnit};
use serde_json::Value;
use std::borrow::Cow;
use std::cmp::Ordering;

/// One value.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell<'a> {
    /// Missing (an Arrow null, an empty CSV field).
    Null,
    /// A boolean.
    Bool(bool),
    /// A signed integer.
    Int(i64),
    /// An unsigned integer too large for `Int`.
    UInt(u64),
    /// A floating-point number.
    Float(f64),
    /// Text: a string column, a CSV field, or any other type as Arrow displays it.
    Text(Cow<'a, str>),
}

impl Cell<'_> {
    /// The value as JSON for a row: numbers as numbers (a CSV field too, when it is one
    /// exactly as written), text cut to `max_chars` with the core's marker.
    pub fn render(&self, max_chars: usize, from_text: bool) -> (Value, bool) {
        match self {
            Cell::Null => (Value::Null, false),
            Cell::Bool(b) => (Value::Bool(*b), false),
            Cell::Int(i) => (Value::from(*i), false),
            Cell::UInt(u) => (Value::from(*u), false),
            Cell::Float(f) => (float(*f), false),
            Cell::Text(text) => {
                if from_text {
                    if let Some(number) = canonical_number(text) {
                        return (number, false);
                    }
                }
                let cut = briefly_core::cut_str(text, max_chars);
                let was_cut = matches!(cut, Cow::Owned(_));
                (Value::String(cut.into_owned()), was_cut)
            }
        }
    }

    /// The value as text (for string comparisons and min/max of text).
    pub fn text(&self) -> Cow<'_, str> {
        match self {
            Cell::Null => Cow::Borrowed(""),
            Cell::Bool(b) => Cow::Owned(b.to_string()),
            Cell::Int(i) => Cow::Owned(i.to_string()),
            Cell::UInt(u) => Cow::Owned(u.to_string()),
            Cell::Float(f) => Cow::Owned(f.to_string()),
            Cell::Text(t) => Cow::Borrowed(t),
        }
    }

    /// The value as a number, when it is one (text that parses as one counts).
    pub fn number(&self) -> Option<Number> {
        match self {
            Cell::Int(i) => Some(Number::Int(i128::from(*i))),
            Cell::UInt(u) => Some(Number::Int(i128::from(*u))),
            Cell::Float(f) => Some(Number::Float(*f)),
            Cell::Text(t) => Number::parse(t),
            Cell::Null | Cell::Bool(_) => None,
        }
    }
}

/// A number as read: an integer exactly (an `i64`, a `u64`, digits in a CSV field), a
/// number written with a decimal point exactly (a CSV field, an Arrow decimal), else a
/// float. Integers past 2^53 and decimals past a float's 17 digits are told apart, as a
/// float would not.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Number {
    /// A whole number, exactly.
    Int(i128),
    /// A number written with a decimal point and no exponent (`-12.50`), exactly.
    Decimal(Decimal),
    /// Any other (`1e9`; a float column's value).
    Float(f64),
}

impl Number {
    /// `text` as a number when it is written as one ([`parse_number`]): an integer when it
    /// is digits alone, a [`Decimal`] when it has a decimal point and no exponent.
    pub fn parse(text: &str) -> Option<Number> {
        let t = text.trim();
        if let Ok(i) = t.parse::<i128>() {
            return Some(Number::Int(i));
        }
        if let Some(d) = Decimal::parse(t) {
            return Some(Number::Decimal(d));
        }
        parse_number(t).map(Number::Float)
    }

    /// How `self` compares with `other`, exactly (but for a float beside a decimal, which
    /// compares with the decimal's nearest float); `None` with NaN.
    pub fn compare(self, other: Number) -> Option<Ordering> {
        match (self, other) {
            (Number::Int(a), Number::Int(b)) => Some(a.cmp(&b)),
            (Number::Int(a), Number::Float(b)) => int_with_float(a, b),
            (Number::Float(a), Number::Int(b)) => int_with_float(b, a).map(Ordering::reverse),
            (Number::Float(a), Number::Float(b)) => a.partial_cmp(&b),
            (Number::Decimal(a), Number::Decimal(b)) => Some(a.cmp(&b)),
            (Number::Int(a), Number::Decimal(b)) => Some(Decimal::of_int(a).cmp(&b)),
            (Number::Decimal(a), Number::Int(b)) => Some(a.cmp(&Decimal::of_int(b))),
            (Number::Decimal(a), Number::Float(b)) => a.approx.partial_cmp(&b),
            (Number::Float(a), Number::Decimal(b)) => a.partial_cmp(&b.approx),
        }
    }
}

/// A number written in decimal digits with at most one decimal point and no exponent,
/// held exactly: a whole part a `u128` holds (39 digits, an `i128` too) and up to 38
/// digits after the point (any Arrow `Decimal128`; past that, [`Decimal::parse`] gives
/// none and the number is read as a float).
#[derive(Debug, Clone, Copy)]
pub struct Decimal {
    /// Below zero (never for zero itself, `-0.0`).
    negative: bool,
    /// The digits before the point.
    whole: u128,
    /// The digits after the point, in units of 10^-38.
    fraction: u128,
    /// The nearest float.
    approx: f64,
}

/// Digits a [`Decimal`] holds after the point.
const DECIMAL_DIGITS: usize = 38;

impl Decimal {
    /// `text` (`12.50`, `-0.001`, `+3.`, `.5`, `42`) when it is a decimal number that
    /// a [`Decimal`] holds.
    pub fn parse(text: &str) -> Option<Decimal> {
        let (negative, digits) = match text.as_bytes().first()? {
            b'-' => (true, &text[1..]),
            b'+' => (false, &text[1..]),
            _ => (false, text),
        };
        let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
        let all_digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
        if whole.len() + fraction.len() == 0 || !all_digits(whole) || !all_digits(fraction) {
            return None;
        }
        let (whole, fraction) = (
            whole.trim_start_matches('0'),
            fraction.trim_end_matches('0'),
        );
        if fraction.len() > DECIMAL_DIGITS {
            return None;
        }
        let number = |t: &str| {
            if t.is_empty() {
                Some(0)
            } else {
                t.parse::<u128>().ok()
            }
        };
        let scale = 10u128.pow((DECIMAL_DIGITS - fraction.len()) as u32);
        let (whole, fraction) = (number(whole)?, number(fraction)? * scale);
        Some(Decimal {
            negative: negative && (whole, fraction) != (0, 0),
            whole,
            fraction,
            approx: text.parse::<f64>().ok()?,
        })
    }

    /// The whole number `n`.
    pub fn of_int(n: i128) -> Decimal {
        Decimal {
            negative: n < 0,
            whole: n.unsigned_abs(),
            fraction: 0,
            approx: n as f64,
        }
    }

    /// `text` as a decimal when no float stands for it: it has more than the 15 digits
    /// every float reads back as written, and its nearest float is written otherwise.
    /// Cheap for the rest, which is most numbers.
    pub fn parse_past_float(text: &str) -> Option<Decimal> {
        if text.bytes().filter(u8::is_ascii_digit).count() <= 15 {
            return None;
        }
        Decimal::parse(text).filter(|d| !d.is_float())
    }

    /// Its sign (below zero), digits before the point and after (in units of 10^-38):
    /// equal decimals have equal parts.
    pub fn parts(&self) -> (bool, u128, u128) {
        (self.negative, self.whole, self.fraction)
    }

    /// The nearest float.
    pub fn approx(&self) -> f64 {
        self.approx
    }

    /// The number, when it is whole and an `i128` holds it.
    pub fn whole(&self) -> Option<i128> {
        let n = i128::try_from(self.whole)
            .ok()
            .filter(|_| self.fraction == 0)?;
        Some(if self.negative { -n } else { n })
    }

    /// Whether its nearest float, written as JSON writes it (the fewest digits that read
    /// back as that float), is this very number: `0.1` is; `0.30000000000000001` and
    /// `12345678901234567890.123456789` are not.
    pub fn is_float(&self) -> bool {
        self.approx.is_finite() && Decimal::parse(&self.approx.to_string()) == Some(*self)
    }
}

impl PartialEq for Decimal {
    fn eq(&self, other: &Decimal) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Decimal {}

impl PartialOrd for Decimal {
    fn partial_cmp(&self, other: &Decimal) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Decimal {
    fn cmp(&self, other: &Decimal) -> Ordering {
        let magnitude = (self.whole, self.fraction).cmp(&(other.whole, other.fraction));
        match (self.negative, other.negative) {
            (false, false) => magnitude,
            (true, true) => magnitude.reverse(),
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
        }
    }
}

/// How the integer `a` compares with the float `b`, exactly; `None` with NaN.
fn int_with_float(a: i128, b: f64) -> Option<Ordering> {
    (!b.is_nan()).then(|| briefly_core::whole_against_double(a, b))
}

/// A finite float as a JSON number; NaN and infinities as strings.
pub fn float(f: f64) -> Value {
    let f = if f == 0.0 { 0.0 } else { f }; // -0.0 (Parquet's min statistics) reads as 0
    serde_json::Number::from_f64(f).map_or_else(|| Value::String(f.to_string()), Value::Number)
}

/// `text` as a number when it is written as a plain decimal number (`12`, `-3.5`, `1e9`)
/// or an infinity as pandas and R write one (`inf`, `-Inf`; JavaScript's `Infinity`),
/// not `0x1f` or `NaN`.
pub fn parse_number(text: &str) -> Option<f64> {
    let t = text.trim();
    let unsigned = t.strip_prefix(['-', '+']).unwrap_or(t);
    if unsigned.eq_ignore_ascii_case("inf") || unsigned.eq_ignore_ascii_case("infinity") {
        return Some(match t.starts_with('-') {
            true => f64::NEG_INFINITY,
            false => f64::INFINITY,
        });
    }
    let first = *t.as_bytes().first()?;
    if !(first.is_ascii_digit() || first == b'-' || first == b'.' || first == b'+') {
        return None;
    }
    t.parse::<f64>().ok().filter(|f| f.is_finite())
}

/// `text` as a JSON number when rendering it back gives the very same text (so `007`,
/// `1.50` and `1e3` stay strings: nothing the file says is changed).
fn canonical_number(text: &str) -> Option<Value> {
    if let Ok(i) = text.parse::<i64>() {
        return (i.to_string() == text).then(|| Value::from(i));
    }
    if let Ok(u) = text.parse::<u64>() {
        return (u.to_string() == text).then(|| Value::from(u));
    }
    let f = parse_number(text)?;
    let value = float(f);
    let shown = value.to_string();
    (shown.as_str() == text).then_some(value)
}

/// The columns of one record batch, ready to read cell by cell.
pub struct BatchCells<'a> {
    columns: Vec<ColumnCells<'a>>,
    rows: usize,
}

/// One column of a batch.
struct ColumnCells<'a> {
    array: &'a ArrayRef,
    /// For types without a native cell (dates, decimals, lists…): Arrow's own display.
    formatter: Option<ArrayFormatter<'a>>,
    /// A dictionary's or a run-end encoded array's values, each row read at its value's
    /// index: its cells are its values' (numbers, a run's null), not their display.
    encoded: Option<Box<Encoded<'a>>>,
    /// A timestamp column's zone, read once.
    zone: Option<Tz>,
}

/// The values of an encoded column and, for each of its rows, the index of its value.
struct Encoded<'a> {
    index: Vec<usize>,
    values: ColumnCells<'a>,
}

impl<'a> ColumnCells<'a> {
    fn new(array: &'a ArrayRef) -> Self {
        let encoded = match array.data_type() {
            DataType::Dictionary(..) => {
                let dictionary = array.as_any_dictionary();
                Some((dictionary.normalized_keys(), dictionary.values()))
            }
            DataType::RunEndEncoded(ends, _) => match ends.data_type() {
                DataType::Int16 => Some(run_values(array.as_run::<Int16Type>())),
                DataType::Int32 => Some(run_values(array.as_run::<Int32Type>())),
                DataType::Int64 => Some(run_values(array.as_run::<Int64Type>())),
                _ => None,
            },
            _ => None,
        };
        let formatter = match native(array.data_type()) || encoded.is_some() {
            true => None,
            false => ArrayFormatter::try_new(array.as_ref(), &FormatOptions::default()).ok(),
        };
        let zone = match array.data_type() {
            DataType::Timestamp(_, Some(zone)) => zone.parse().ok(),
            _ => None,
        };
        ColumnCells {
            array,
            formatter,
            zone,
            encoded: encoded.map(|(index, values)| {
                Box::new(Encoded {
                    index,
                    values: ColumnCells::new(values),
                })
            }),
        }
    }

    fn cell(&self, row: usize) -> Cell<'a> {
        let a = self.array;
        // A column of type Null (pyarrow's `pa.nulls(n)`) has no validity bits: every
        // value is null all the same.
        if a.is_null(row) || a.data_type() == &DataType::Null {
            return Cell::Null;
        }
        if let Some(encoded) = &self.encoded {
            return match encoded.index.get(row) {
                Some(&at) => encoded.values.cell(at),
                None => Cell::Null,
            };
        }
        match a.data_type() {
            DataType::Boolean => Cell::Bool(a.as_boolean().value(row)),
            DataType::Int8 => Cell::Int(a.as_primitive::<Int8Type>().value(row).into()),
            DataType::Int16 => Cell::Int(a.as_primitive::<Int16Type>().value(row).into()),
            DataType::Int32 => Cell::Int(a.as_primitive::<Int32Type>().value(row).into()),
            DataType::Int64 => Cell::Int(a.as_primitive::<Int64Type>().value(row)),
            DataType::UInt8 => Cell::Int(a.as_primitive::<UInt8Type>().value(row).into()),
            DataType::UInt16 => Cell::Int(a.as_primitive::<UInt16Type>().value(row).into()),
            DataType::UInt32 => Cell::Int(a.as_primitive::<UInt32Type>().value(row).into()),
            DataType::UInt64 => {
                let u = a.as_primitive::<UInt64Type>().value(row);
                i64::try_from(u).map_or(Cell::UInt(u), Cell::Int)
            }
            DataType::Float16 => Cell::Float(widened(a.as_primitive::<Float16Type>().value(row))),
            DataType::Float32 => Cell::Float(widened(a.as_primitive::<Float32Type>().value(row))),
            DataType::Float64 => Cell::Float(a.as_primitive::<Float64Type>().value(row)),
            DataType::Utf8 => Cell::Text(Cow::Borrowed(a.as_string::<i32>().value(row))),
            DataType::LargeUtf8 => Cell::Text(Cow::Borrowed(a.as_string::<i64>().value(row))),
            DataType::Utf8View => Cell::Text(Cow::Borrowed(a.as_string_view().value(row))),
            DataType::List(_)
            | DataType::LargeList(_)
            | DataType::FixedSizeList(..)
            | DataType::Struct(_)
            | DataType::Map(..) => Cell::Text(Cow::Owned(nested_json(a.as_ref(), row).to_string())),
            // A date in milliseconds, as a date is written (Arrow's display adds the time
            // of day: a value off midnight keeps it).
            DataType::Date64 => {
                let millis = a.as_primitive::<Date64Type>().value(row);
                match date64_to_datetime(millis).filter(|_| millis % MILLIS_A_DAY == 0) {
                    Some(midnight) => Cell::Text(Cow::Owned(midnight.date().to_string())),
                    None => self.formatted(row),
                }
            }
            DataType::Timestamp(unit, Some(_)) => {
                match (self.zone).and_then(|zone| zoned_with_seconds(a, unit, zone, row)) {
                    Some(shown) => Cell::Text(Cow::Owned(shown)),
                    None => self.formatted(row),
                }
            }
            _ => self.formatted(row),
        }
    }

    /// Arrow's display of the value at `row`.
    fn formatted(&self, row: usize) -> Cell<'a> {
        match &self.formatter {
            Some(formatter) => Cell::Text(Cow::Owned(formatter.value(row).to_string())),
            None => Cell::Text(Cow::Owned(format!("<{}>", self.array.data_type()))),
        }
    }
}

/// A float narrower than a double as the double its shortest decimal names: `0.1` for
/// the `f32` nearest 0.1, not 0.10000000149011612. What it was written as, and what a
/// filter's `0.1` is compared with, as pandas and DuckDB show and compare it.
fn widened(value: impl std::fmt::Display) -> f64 {
    value.to_string().parse().unwrap_or(f64::NAN)
}

/// A time in a named zone whose offset then had seconds (local mean time: Kolkata's
/// +05:21:10 before 1906, Monrovia's −00:44:30 until 1972), with them: Arrow's display
/// cuts the offset to minutes and keeps the local time, another instant. `None` for every
/// other time, which Arrow's display shows right.
fn zoned_with_seconds(array: &ArrayRef, unit: &TimeUnit, zone: Tz, row: usize) -> Option<String> {
    use arrow_array::types::{
        TimestampMicrosecondType, TimestampMillisecondType, TimestampNanosecondType,
        TimestampSecondType,
    };
    use chrono::Offset;
    // No zone has had such an offset since 1972: later times are not looked up.
    const SINCE_1973: i64 = 94_694_400;
    let (value, per_second) = match unit {
        TimeUnit::Second => (array.as_primitive::<TimestampSecondType>().value(row), 1),
        TimeUnit::Millisecond => (
            array.as_primitive::<TimestampMillisecondType>().value(row),
            1_000,
        ),
        TimeUnit::Microsecond => (
            array.as_primitive::<TimestampMicrosecondType>().value(row),
            1_000_000,
        ),
        TimeUnit::Nanosecond => (
            array.as_primitive::<TimestampNanosecondType>().value(row),
            1_000_000_000,
        ),
    };
    let seconds = value.div_euclid(per_second);
    if seconds >= SINCE_1973 {
        return None;
    }
    let nanos = value.rem_euclid(per_second) * (1_000_000_000 / per_second);
    let at = chrono::DateTime::from_timestamp(seconds, nanos as u32)?.with_timezone(&zone);
    let offset = at.offset().fix().local_minus_utc();
    (offset % 60 != 0).then(|| at.format("%Y-%m-%dT%H:%M:%S%.f%::z").to_string())
}

/// Milliseconds in a day (a Date64 is a whole number of them).
const MILLIS_A_DAY: i64 = 86_400_000;

impl<'a> BatchCells<'a> {
    /// The cells of `batch`.
    pub fn new(batch: &'a RecordBatch) -> Self {
        BatchCells {
            columns: batch.columns().iter().map(ColumnCells::new).collect(),
            rows: batch.num_rows(),
        }
    }

    /// Rows in the batch.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The cell at `column`, `row`.
    pub fn cell(&self, column: usize, row: usize) -> Cell<'a> {
        self.columns[column].cell(row)
    }
}

/// Each row's index among a run-end encoded array's values, and the values.
fn run_values<R: RunEndIndexType>(runs: &RunArray<R>) -> (Vec<usize>, &ArrayRef) {
    let mut index = Vec::with_capacity(runs.len());
    let mut start = 0;
    // (An array sliced from the middle of a run starts at its offset.)
    for (run, end) in runs.run_ends().values().iter().enumerate() {
        let end = end.as_usize().saturating_sub(runs.offset()).min(runs.len());
        index.extend(std::iter::repeat_n(run, end.saturating_sub(start)));
        start = start.max(end);
    }
    (index, runs.values())
}

/// A value of a nested type (a list, a struct, a map) as JSON: each element its own
/// value, a null `null`, a map's entries `[key, value]` pairs. (Arrow's display writes
/// `[a, , b]` for `["a", null, "b"]`, `[]` for `[null]`, and `[x, y, z]` for `["x, y",
/// "z"]`.)
fn nested_json(array: &dyn Array, row: usize) -> Value {
    if array.is_null(row) || array.data_type() == &DataType::Null {
        return Value::Null;
    }
    let elements = |values: ArrayRef| {
        Value::Array(
            (0..values.len())
                .map(|i| nested_json(values.as_ref(), i))
                .collect(),
        )
    };
    match array.data_type() {
        DataType::List(_) => elements(array.as_list::<i32>().value(row)),
        DataType::LargeList(_) => elements(array.as_list::<i64>().value(row)),
        DataType::FixedSizeList(..) => elements(array.as_fixed_size_list().value(row)),
        DataType::Struct(fields) => Value::Object(
            (fields.iter().zip(array.as_struct().columns()))
                .map(|(field, column)| (field.name().clone(), nested_json(column.as_ref(), row)))
                .collect(),
        ),
        DataType::Map(..) => {
            let entries = array.as_map().value(row);
            let pair = |i| {
                let key = nested_json(entries.column(0).as_ref(), i);
                Value::Array(vec![key, nested_json(entries.column(1).as_ref(), i)])
            };
            Value::Array((0..entries.len()).map(pair).collect())
        }
        DataType::Boolean => array.as_boolean().value(row).into(),
        DataType::Int8 => array.as_primitive::<Int8Type>().value(row).into(),
        DataType::Int16 => array.as_primitive::<Int16Type>().value(row).into(),
        DataType::Int32 => array.as_primitive::<Int32Type>().value(row).into(),
        DataType::Int64 => array.as_primitive::<Int64Type>().value(row).into(),
        DataType::UInt8 => array.as_primitive::<UInt8Type>().value(row).into(),
        DataType::UInt16 => array.as_primitive::<UInt16Type>().value(row).into(),
        DataType::UInt32 => array.as_primitive::<UInt32Type>().value(row).into(),
        DataType::UInt64 => array.as_primitive::<UInt64Type>().value(row).into(),
        DataType::Float32 => float(widened(array.as_primitive::<Float32Type>().value(row))),
        DataType::Float64 => array.as_primitive::<Float64Type>().value(row).into(),
        DataType::Utf8 => array.as_string::<i32>().value(row).into(),
        DataType::LargeUtf8 => array.as_string::<i64>().value(row).into(),
        DataType::Utf8View => array.as_string_view().value(row).into(),
        // Dates, decimals and the rest as Arrow displays them.
        _ => ArrayFormatter::try_new(array, &FormatOptions::default())
            .map_or_else(
                |_| format!("<{}>", array.data_type()),
                |f| f.value(row).to_string(),
            )
            .into(),
    }
}

/// Types read without Arrow's formatter.
fn native(data_type: &DataType) -> bool {
    use DataType::*;
    matches!(
        data_type,
        Boolean
            | Int8
            | Int16
            | Int32
            | Int64
            | UInt8
            | UInt16
            | UInt32
            | UInt64
            | Float16
            | Float32
            | Float64
            | Utf8
            | LargeUtf8
            | Utf8View
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_floats_in_a_list_are_the_decimals_they_were_written_as() {
        use arrow_array::types::Float32Type;
        use arrow_array::ListArray;
        let list =
            ListArray::from_iter_primitive::<Float32Type, _, _>([Some(vec![Some(0.1), None])]);
        assert_eq!(nested_json(&list, 0), serde_json::json!([0.1, null]));
    }

    #[test]
    fn a_slice_of_runs_reads_the_values_of_its_rows() {
        use arrow_array::{Int32Array, StringArray};
        let runs = RunArray::<Int32Type>::try_new(
            &Int32Array::from(vec![2, 3, 6]),
            &StringArray::from(vec![Some("p"), None, Some("q")]),
        )
        .unwrap();
        let rows = |array: ArrayRef| {
            let batch = RecordBatch::try_from_iter([("s", array)]).unwrap();
            let cells = BatchCells::new(&batch);
            (0..cells.rows())
                .map(|row| cells.cell(0, row).text().into_owned())
                .collect::<Vec<_>>()
        };
        let all = rows(std::sync::Arc::new(runs.clone()));
        assert_eq!(all, ["p", "p", "", "q", "q", "q"]);
        let batch =
            RecordBatch::try_from_iter([("s", std::sync::Arc::new(runs.clone()) as ArrayRef)])
                .unwrap();
        assert_eq!(BatchCells::new(&batch).cell(0, 2), Cell::Null);
        let sliced = rows(std::sync::Arc::new(runs.slice(1, 3)));
        assert_eq!(sliced, all[1..4]);
    }

    #[test]
    fn csv_numbers_render_as_numbers_only_when_unchanged() {
        let render = |t: &str| Cell::Text(Cow::Borrowed(t)).render(80, true).0;
        assert_eq!(render("12"), Value::from(12));
        assert_eq!(render("-3.5"), serde_json::json!(-3.5));
        assert_eq!(render("007"), Value::from("007"));
        assert_eq!(render("1.50"), Value::from("1.50"));
        // Past i64, an unsigned 64-bit one whole; past that, text as written.
        assert_eq!(render("18446744073709551615"), Value::from(u64::MAX));
        let past = "18446744073709551616";
        assert_eq!(render(past), Value::from(past));
        assert_eq!(render("NaN"), Value::from("NaN"));
        assert_eq!(render("abc"), Value::from("abc"));
    }

    #[test]
    fn nested_values_are_json() {
        use arrow_array::builder::{ListBuilder, StringBuilder};
        use arrow_array::{Int64Array, StructArray};
        use std::sync::Arc;
        let mut lists = ListBuilder::new(StringBuilder::new());
        lists.values().append_value("a");
        lists.values().append_null();
        lists.values().append_value("b");
        lists.append(true);
        lists.values().append_null();
        lists.append(true);
        lists.append(true);
        lists.values().append_value("x, y");
        lists.values().append_value("z");
        lists.append(true);
        lists.append(false);
        let tags: ArrayRef = Arc::new(lists.finish());
        let struct_field = arrow_schema::Field::new("b", DataType::Int64, true);
        let pair: ArrayRef = Arc::new(StructArray::from(vec![(
            Arc::new(struct_field),
            Arc::new(Int64Array::from(vec![
                Some(1),
                None,
                Some(3),
                None,
                Some(5),
            ])) as ArrayRef,
        )]));
        let batch = RecordBatch::try_from_iter([("tags", tags), ("pair", pair)]).unwrap();
        let cells = BatchCells::new(&batch);
        let shown = |column, row| match cells.cell(column, row) {
            Cell::Text(text) => text.into_owned(),
            other => format!("{other:?}"),
        };
        let tags: Vec<String> = (0..5).map(|row| shown(0, row)).collect();
        assert_eq!(
            tags,
            [
                r#"["a",null,"b"]"#,
                "[null]",
                "[]",
                r#"["x, y","z"]"#,
                "Null"
            ]
        );
        assert_eq!(shown(1, 0), r#"{"b":1}"#);
        assert_eq!(shown(1, 1), r#"{"b":null}"#);
    }

    #[test]
    fn long_text_is_cut_with_the_marker() {
        let long = "x".repeat(200);
        let (value, cut) = Cell::Text(Cow::Owned(long)).render(10, false);
        assert!(cut);
        assert_eq!(value, Value::from("xxxxxxxxxx…[cut 190 chars]"));
    }

    #[test]
    fn decimals_compare_exactly_past_a_floats_digits() {
        let d = |t: &str| Decimal::parse(t).unwrap();
        // As floats these two are one value.
        assert!(d("12345678901234567890.123456789") > d("12345678901234567890.123456788"));
        assert!(d("-12345678901234567890.123456789") < d("-12345678901234567890.123456788"));
        assert_eq!(d("1.50"), d("01.5"));
        assert_eq!(d("-0.0"), d("0"));
        assert_eq!(d(".5"), d("0.5"));
        assert!(d("-0.5") < d("0.25"));
        for bad in ["1e5", "", "-", ".", "1.2.3", "0x10", "1 2", "nan"] {
            assert!(Decimal::parse(bad).is_none(), "{bad}");
        }
        // Whole parts a u128 holds, 38 digits after the point at most.
        assert!(Decimal::parse(&format!("{}.5", "9".repeat(38))).is_some());
        assert!(Decimal::parse(&format!("{}.5", u128::MAX)).is_some());
        assert!(Decimal::parse(&format!("{}0.5", u128::MAX)).is_none());
        assert!(Decimal::parse(&format!("{}.5", "9".repeat(39))).is_none());
        assert!(Decimal::parse(&format!("0.{}", "1".repeat(39))).is_none());
        assert_eq!(d("-12.000").whole(), Some(-12));
        assert_eq!(d("12.5").whole(), None);
        assert!(d("0.1").is_float() && d("-2.5").is_float() && d("1000.0").is_float());
        assert!(!d("0.30000000000000001").is_float());
        assert!(!d("12345678901234567890.123456789").is_float());
        // Numbers of every kind, exactly.
        let n = |t: &str| Number::parse(t).unwrap();
        assert_eq!(
            n("12345678901234567890.123456789").compare(n("12345678901234567890.123456788")),
            Some(Ordering::Greater)
        );
        assert_eq!(
            n("170141183460469231731687303715884105727")
                .compare(n("170141183460469231731687303715884105726.5")),
            Some(Ordering::Greater)
        );
        assert_eq!(n("-3").compare(n("-3.0")), Some(Ordering::Equal));
        assert_eq!(n("2.5").compare(n("2.5e0")), Some(Ordering::Equal));
        assert_eq!(Number::parse("1e400"), None); // past a float: no number
    }
}
