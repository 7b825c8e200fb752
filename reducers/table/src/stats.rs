//! Per-column statistics in one bounded pass: nulls, min/max, a distinct estimate
//! (HyperLogLog) and the most frequent strings (space-saving), each of fixed size.

use crate::cell::{float, parse_number, Cell, Decimal, Number};
use serde::Serialize;
use serde_json::Value;
use std::collections::HashMap;

/// HyperLogLog precision: 2^12 one-byte registers (4 KiB a column), ~1.6% error.
const HLL_BITS: u32 = 12;
/// Counters kept for the most frequent strings.
const TOP_COUNTERS: usize = 32;
/// Top values listed in the stats.
const TOP_SHOWN: usize = 5;
/// Of a frequent string, this many first bytes are kept (it is counted by all of them).
const TOP_KEY_BYTES: usize = 120;
/// Min/max strings are kept to this many characters.
const BOUND_CHARS: usize = 60;
/// When every one of this many strings was distinct, the column is taken as unique and
/// top values are no longer counted (they would all be 1).
const UNIQUE_PROBE: u64 = 10_000;

/// Distinct values of a column counted exactly, at most; an estimate past them. (A
/// key column of a small table is told unique, not `63` of 64 estimated; 8 KiB of
/// hashes a column shown, at most.)
const EXACT_DISTINCT: usize = 1024;

/// A distinct-count estimator in fixed memory.
#[derive(Debug, Clone)]
pub struct Hll {
    registers: Vec<u8>,
}

impl Default for Hll {
    fn default() -> Self {
        Hll {
            registers: vec![0; 1 << HLL_BITS],
        }
    }
}

impl Hll {
    /// Adds one hashed value.
    pub fn add(&mut self, hash: u64) {
        let index = (hash >> (64 - HLL_BITS)) as usize;
        let rest = (hash << HLL_BITS) | (1 << (HLL_BITS - 1));
        let rank = rest.leading_zeros() as u8 + 1;
        if self.registers[index] < rank {
            self.registers[index] = rank;
        }
    }

    /// The estimated number of distinct values added.
    pub fn estimate(&self) -> u64 {
        let m = self.registers.len() as f64;
        let sum: f64 = self.registers.iter().map(|&r| 2f64.powi(-(r as i32))).sum();
        let raw = 0.7213 / (1.0 + 1.079 / m) * m * m / sum;
        let zeros = self.registers.iter().filter(|&&r| r == 0).count();
        let estimate = if raw <= 2.5 * m && zeros > 0 {
            m * (m / zeros as f64).ln() // linear counting for small sets
        } else {
            raw
        };
        estimate.round() as u64
    }
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0100_0000_01b3;

/// FNV-1a with a final mix: fast, stable across runs and platforms.
pub fn hash(tag: u8, bytes: &[u8]) -> u64 {
    let mut hasher = FnvHasher(FNV_OFFSET ^ tag as u64);
    std::hash::Hasher::write(&mut hasher, bytes);
    std::hash::Hasher::finish(&hasher)
}

/// [`hash`] as a `Hasher`, also for the top values' map (SipHash is needlessly slow
/// there: a fixed number of slots, looked up once a value).
struct FnvHasher(u64);

impl Default for FnvHasher {
    fn default() -> Self {
        FnvHasher(FNV_OFFSET)
    }
}

impl std::hash::Hasher for FnvHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(FNV_PRIME);
        }
    }

    fn finish(&self) -> u64 {
        // murmur3's fmix64: spreads the bits FNV leaves clustered.
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

type FnvMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<FnvHasher>>;
type FnvSet<K> = std::collections::HashSet<K, std::hash::BuildHasherDefault<FnvHasher>>;

/// The most frequent strings, approximately (space-saving: exact while there are at
/// most `TOP_COUNTERS` distinct values, an upper bound on each count after that).
#[derive(Debug, Default, Clone)]
struct TopValues {
    counters: Vec<Counter>,
    /// Each counter's by the hash of its whole value.
    index: FnvMap<u64, usize>,
    evictions: u64,
}

/// One value counted.
#[derive(Debug, Clone)]
struct Counter {
    /// Its first [`TOP_KEY_BYTES`]: what is shown of it.
    head: Box<str>,
    /// The hash of the whole of it: long values alike in their heads (paths, URLs) are
    /// counted apart.
    hash: u64,
    count: u64,
    /// The count it inherited from the value it replaced: its overestimate.
    inherited: u64,
}

impl TopValues {
    /// Counts `text`, whose hash is `hash` (of the whole of it).
    fn add(&mut self, text: &str, hash: u64) {
        if let Some(&i) = self.index.get(&hash) {
            self.counters[i].count += 1;
            return;
        }
        let head = briefly_core::head_bytes(text, TOP_KEY_BYTES).into();
        if self.counters.len() < TOP_COUNTERS {
            self.index.insert(hash, self.counters.len());
            self.counters.push(Counter {
                head,
                hash,
                count: 1,
                inherited: 0,
            });
            return;
        }
        // Replace the least counted; the newcomer inherits its count (an upper bound).
        let (i, _) = (self.counters.iter().enumerate())
            .min_by_key(|(_, counter)| counter.count)
            .expect("full");
        self.evictions += 1;
        let counter = &mut self.counters[i];
        self.index.remove(&counter.hash);
        self.index.insert(hash, i);
        *counter = Counter {
            head,
            hash,
            count: counter.count + 1,
            inherited: counter.count,
        };
    }

    /// Whether the counts are exact: no value was ever evicted.
    fn exact(&self) -> bool {
        self.evictions == 0
    }

    fn top(&self) -> Vec<(String, u64)> {
        // Once values were evicted, a value not counted now may have been seen as often
        // as the least counted one, and one counted as often as its count (an upper
        // bound): a value is surely among the `TOP_SHOWN` most frequent when it was
        // surely seen more often than the least counted, and fewer than `TOP_SHOWN`
        // others may have been seen more often. Near-uniform values have none such, and
        // their guaranteed counts (a lower bound) would be far below the true ones.
        let floor = match self.exact() {
            true => 1,
            false => self.counters.iter().map(|c| c.count).min().unwrap_or(0),
        };
        let surely = |(i, counter): &(usize, &Counter)| {
            let seen = counter.count - counter.inherited;
            let more_often = (self.counters.iter().enumerate())
                .filter(|&(j, other)| j != *i && other.count > seen)
                .count();
            seen > floor && more_often < TOP_SHOWN
        };
        let mut top: Vec<(String, u64)> = (self.counters.iter().enumerate())
            .filter(surely)
            .map(|(_, c)| (c.head.to_string(), c.count - c.inherited))
            .collect();
        top.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        top.truncate(TOP_SHOWN);
        top
    }
}

/// The statistics of one column, accumulated value by value.
#[derive(Debug, Clone)]
pub struct ColumnStats {
    /// Values are CSV text: their type is inferred from what they hold.
    from_text: bool,
    values: u64,
    nulls: u64,
    ints: u64,
    floats: u64,
    bools: u64,
    texts: u64,
    /// CSV: the first value that is not a number (text, or `true`, `false`), for a
    /// column that is otherwise numeric.
    first_text: Option<(u64, String)>,
    /// The least and greatest number, exactly: a whole one past `i64::MAX` (Arrow's
    /// `UInt64`, CSV's `18446744073709551615`) and a decimal past a float's digits too.
    low: Option<Bound>,
    high: Option<Bound>,
    text_min: Option<String>,
    text_max: Option<String>,
    /// CSV: the least and greatest of every value as written, for a column of text that
    /// holds numbers or booleans too (`yes`, `no`, `TRUE`).
    written_min: Option<String>,
    written_max: Option<String>,
    nans: u64,
    hll: Hll,
    /// The hashes of the distinct values, while there are at most [`EXACT_DISTINCT`]
    /// of them: `None` past that.
    seen: Option<FnvSet<u64>>,
    top: TopValues,
    top_off: bool,
}

impl ColumnStats {
    /// Empty statistics; `from_text` for CSV fields.
    pub fn new(from_text: bool) -> Self {
        ColumnStats {
            from_text,
            values: 0,
            nulls: 0,
            ints: 0,
            floats: 0,
            bools: 0,
            texts: 0,
            first_text: None,
            low: None,
            high: None,
            text_min: None,
            text_max: None,
            written_min: None,
            written_max: None,
            nans: 0,
            hll: Hll::default(),
            seen: Some(FnvSet::default()),
            top: TopValues::default(),
            top_off: false,
        }
    }

    /// Adds the value of row `row`.
    pub fn add(&mut self, cell: &Cell<'_>, row: u64) {
        self.values += 1;
        match cell {
            Cell::Null => self.nulls += 1,
            Cell::Bool(b) => {
                self.bools += 1;
                self.distinct_value(hash(1, &[*b as u8]));
            }
            Cell::Int(i) => self.int(*i),
            Cell::UInt(u) => self.uint(*u),
            Cell::Float(f) => self.float(*f),
            Cell::Text(text) if self.from_text => {
                keep_bounds(&mut self.written_min, &mut self.written_max, text);
                // Digits with a leading zero name something (a zip code, `00501`, an
                // id): text, as the rows show it.
                let named =
                    text.len() > 1 && text.starts_with('0') && text.as_bytes()[1].is_ascii_digit();
                if named {
                    if self.first_text.is_none() {
                        self.first_text = Some((row, text.to_string()));
                    }
                    self.text(text);
                } else if text.eq_ignore_ascii_case("true") || text.eq_ignore_ascii_case("false") {
                    if self.first_text.is_none() {
                        self.first_text = Some((row, text.to_string()));
                    }
                    self.bools += 1;
                    self.distinct_value(hash(1, &[text.eq_ignore_ascii_case("true") as u8]));
                } else if let Ok(i) = text.parse::<i64>() {
                    self.int(i);
                } else if let Ok(u) = text.parse::<u64>() {
                    self.uint(u);
                } else if let Ok(n) = text.parse::<i128>() {
                    self.whole(n);
                    self.distinct_value(hash(4, &n.to_le_bytes()));
                } else if let Some(d) = Decimal::parse_past_float(text.trim()) {
                    self.decimal(d, text.trim());
                } else if let Some(f) = parse_number(text) {
                    self.float(f);
                } else {
                    if self.first_text.is_none() {
                        self.first_text = Some((row, text.to_string()));
                    }
                    self.text(text);
                }
            }
            Cell::Text(text) => self.text(text),
        }
    }

    fn int(&mut self, i: i64) {
        self.whole(i128::from(i));
        // An integer and the same float hash alike (CSV `1` and `1.0` are one value);
        // one past 2^53, which no float holds, by its own bytes.
        let float = i as f64;
        self.distinct_value(match float as i64 == i && float.abs() < 2f64.powi(53) {
            true => hash(2, &float.to_bits().to_le_bytes()),
            false => hash(4, &i.to_le_bytes()),
        });
    }

    fn uint(&mut self, u: u64) {
        match i64::try_from(u) {
            Ok(i) => self.int(i),
            Err(_) => {
                self.whole(i128::from(u));
                self.distinct_value(hash(4, &u.to_le_bytes()));
            }
        }
    }

    /// A whole number's count and bounds.
    fn whole(&mut self, n: i128) {
        self.ints += 1;
        self.number(Number::Int(n), None);
    }

    fn float(&mut self, f: f64) {
        self.floats += 1;
        self.nans += u64::from(f.is_nan());
        self.number(Number::Float(f), None);
        // One value however written: `-0.0` is `0.0` (shown so), a NaN any NaN.
        let f = if f == 0.0 {
            0.0
        } else if f.is_nan() {
            f64::NAN
        } else {
            f
        };
        self.distinct_value(hash(2, &f.to_bits().to_le_bytes()));
    }

    /// Floats read that were NaN.
    pub fn nans(&self) -> u64 {
        self.nans
    }

    /// A decimal that no float stands for, `written` so.
    fn decimal(&mut self, d: Decimal, written: &str) {
        self.floats += 1;
        self.number(Number::Decimal(d), Some(written));
        let (negative, whole, fraction) = d.parts();
        let key = [
            &[u8::from(negative)][..],
            &whole.to_le_bytes(),
            &fraction.to_le_bytes(),
        ]
        .concat();
        self.distinct_value(hash(5, &key));
    }

    /// A value, by its hash: estimated among all, counted while they are few.
    fn distinct_value(&mut self, h: u64) {
        self.hll.add(h);
        if let Some(seen) = &mut self.seen {
            if !seen.contains(&h) {
                if seen.len() == EXACT_DISTINCT {
                    self.seen = None;
                } else {
                    seen.insert(h);
                }
            }
        }
    }

    /// `number` into the bounds (NaN into none), `written` kept for a decimal.
    fn number(&mut self, number: Number, written: Option<&str>) {
        let bound = || Bound {
            number,
            written: written.map(str::to_string),
        };
        let Some(low) = &self.low else {
            if number.compare(number).is_some() {
                (self.low, self.high) = (Some(bound()), Some(bound()));
            }
            return;
        };
        if number.compare(low.number) == Some(std::cmp::Ordering::Less) {
            self.low = Some(bound());
        }
        let high = self.high.as_ref().map(|b| b.number);
        if high.and_then(|h| number.compare(h)) == Some(std::cmp::Ordering::Greater) {
            self.high = Some(bound());
        }
    }

    fn text(&mut self, text: &str) {
        self.texts += 1;
        let hashed = hash(3, text.as_bytes());
        self.distinct_value(hashed);
        keep_bounds(&mut self.text_min, &mut self.text_max, text);
        if !self.top_off {
            self.top.add(text, hashed);
            if self.texts == UNIQUE_PROBE && self.top.counters.iter().all(|c| c.count == 1) {
                self.top_off = true;
            }
        }
    }

    /// Nulls seen.
    pub fn nulls(&self) -> u64 {
        self.nulls
    }

    /// The estimated number of distinct non-null values.
    pub fn distinct(&self) -> u64 {
        let non_null = self.values - self.nulls;
        self.counted_distinct()
            .unwrap_or_else(|| self.hll.estimate().min(non_null))
    }

    /// The distinct non-null values counted, not estimated: while there are at most
    /// [`EXACT_DISTINCT`].
    fn counted_distinct(&self) -> Option<u64> {
        self.seen.as_ref().map(|seen| seen.len() as u64)
    }

    /// For CSV: the type the values hold (`int`, `float`, `bool`, `string`, or `empty`).
    pub fn inferred_type(&self) -> &'static str {
        let numbers = self.ints + self.floats;
        if self.mixed().is_some() {
            "mixed"
        } else if self.not_numbers() > 0 {
            "string"
        } else if self.floats > 0 {
            "float"
        } else if self.ints > 0 {
            "int"
        } else if self.bools > 0 && numbers == 0 {
            "bool"
        } else {
            "empty"
        }
    }

    /// For CSV: a column of numbers with some text in it: (count of texts, first row, first text).
    pub fn mixed(&self) -> Option<(u64, u64, &str)> {
        let numbers = self.ints + self.floats;
        let others = self.not_numbers();
        // Mostly numbers: at least as many numbers as texts.
        if self.from_text && numbers > 0 && others > 0 && numbers >= others {
            let (row, text) = self.first_text.as_ref()?;
            return Some((others, *row, text));
        }
        None
    }

    /// The values that make a column of numbers something else: its texts and, beside
    /// numbers in CSV, its `true` and `false` (a column of `1`, `2`, `true` is no `int`).
    fn not_numbers(&self) -> u64 {
        let numbers = self.ints + self.floats;
        match self.from_text && numbers > 0 {
            true => self.texts + self.bools,
            false => self.texts,
        }
    }

    /// The smallest and largest value, as JSON (numbers for a numeric column; for a CSV
    /// column of text, every value as written, numbers and booleans among them too).
    pub fn bounds(&self) -> (Value, Value) {
        let text_bound = |t: &Option<String>| t.as_deref().map_or(Value::Null, bounded_text);
        if self.not_numbers() > 0 && self.mixed().is_none() {
            return match self.from_text {
                true => (text_bound(&self.written_min), text_bound(&self.written_max)),
                false => (text_bound(&self.text_min), text_bound(&self.text_max)),
            };
        }
        let shown = |bound: &Option<Bound>| match bound {
            None => Value::Null,
            Some(b) => match (b.number, &b.written) {
                (Number::Int(n), _) if self.floats == 0 => whole_value(n),
                (Number::Int(n), _) => float(n as f64),
                (Number::Decimal(_), Some(written)) => Value::String(written.clone()),
                (Number::Decimal(d), None) => float(d.approx()),
                (Number::Float(f), _) => float(f),
            },
        };
        (shown(&self.low), shown(&self.high))
    }

    /// Whether [`ColumnStats::distinct`] is the HyperLogLog estimate, not a count.
    pub fn distinct_estimated(&self) -> bool {
        self.counted_distinct().is_none()
    }

    /// Whether [`ColumnStats::top`]'s counts are lower bounds, not exact counts.
    pub fn top_at_least(&self) -> bool {
        !self.top.exact()
    }

    /// The most frequent strings with their counts (values seen more than once). Exact
    /// while the column has at most 32 distinct values; past that only values surely
    /// among the most frequent, each with how often it was surely seen
    /// ([`ColumnStats::top_at_least`]).
    pub fn top(&self) -> Vec<(String, u64)> {
        if self.top_off {
            return Vec::new();
        }
        self.top
            .top()
            .into_iter()
            .map(|(k, n)| (briefly_core::cut_str(&k, BOUND_CHARS).into_owned(), n))
            .collect()
    }
}

/// A least or greatest number of a column, and how it was written when no JSON number
/// says it exactly (a decimal past a float's digits).
#[derive(Debug, Clone)]
struct Bound {
    number: Number,
    written: Option<String>,
}

/// A whole number as JSON: a number within `i64` or `u64`, else its digits as a string
/// (a float would change it).
fn whole_value(n: i128) -> Value {
    match (i64::try_from(n), u64::try_from(n)) {
        (Ok(i), _) => Value::from(i),
        (_, Ok(u)) => Value::from(u),
        _ => Value::String(n.to_string()),
    }
}

/// `text` into the least and greatest seen so far.
fn keep_bounds(min: &mut Option<String>, max: &mut Option<String>, text: &str) {
    if min.as_deref().is_none_or(|m| text < m) {
        *min = Some(text.to_string());
    }
    if max.as_deref().is_none_or(|m| text > m) {
        *max = Some(text.to_string());
    }
}

/// A min/max string, cut with the marker when long.
pub fn bounded_text(text: &str) -> Value {
    Value::String(briefly_core::cut_str(text, BOUND_CHARS).into_owned())
}

/// What the stats say of one column.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ColumnSummary {
    /// The column's name.
    pub name: String,
    /// Its type: Arrow's for Parquet and IPC, inferred (`int`, `float`, `string`…) for CSV.
    #[serde(rename = "type")]
    pub data_type: String,
    /// Whether the schema allows nulls (for CSV: whether any were seen).
    pub nullable: bool,
    /// Null values.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nulls: Option<u64>,
    /// The smallest value.
    #[serde(skip_serializing_if = "Value::is_null")]
    pub min: Value,
    /// The largest value.
    #[serde(skip_serializing_if = "Value::is_null")]
    pub max: Value,
    /// Distinct non-null values: exact when small, else estimated (HyperLogLog, ~2%
    /// error) and `distinct_estimated` says so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distinct: Option<u64>,
    /// `distinct` is an estimate.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub distinct_estimated: bool,
    /// The most frequent strings and their counts: exact while the column has few
    /// distinct values; past that only values surely among the most frequent, each with
    /// a count it surely reached, and `top_at_least` says so.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub top: Vec<(String, u64)>,
    /// `top`'s counts are lower bounds.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub top_at_least: bool,
    /// `min` and `max` are a Parquet footer's that its writer may have cut (polars and
    /// parquet-rs cut string bounds to 64 bytes, and do not mark them exact): a prefix of
    /// the least value and a bound above the greatest, perhaps no values of the column
    /// (`--scan` reads them).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub bounds_cut: bool,
    /// Floats that are NaN (no bound holds them, and no null is one), when any was
    /// read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nans: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::borrow::Cow;

    #[test]
    fn hll_estimates_within_a_few_percent() {
        for n in [10u64, 1_000, 100_000] {
            let mut hll = Hll::default();
            for i in 0..n {
                hll.add(hash(0, &i.to_le_bytes()));
                hll.add(hash(0, &i.to_le_bytes())); // duplicates change nothing
            }
            let e = hll.estimate() as f64;
            assert!((e - n as f64).abs() / (n as f64) < 0.05, "{n}: {e}");
        }
    }

    #[test]
    fn whole_numbers_past_i64_are_whole_and_exact() {
        // CSV: an unsigned 64-bit id is an int, its bounds exact (not 1.8446744073709552e19).
        let mut csv = ColumnStats::new(true);
        for (row, v) in ["5", "18446744073709551615", "9223372036854775808"]
            .iter()
            .enumerate()
        {
            csv.add(&Cell::Text(Cow::Borrowed(v)), row as u64);
        }
        assert_eq!(csv.inferred_type(), "int");
        let max = Value::from(u64::MAX);
        assert_eq!(csv.bounds(), (Value::from(5), max.clone()));
        assert_eq!(csv.distinct(), 3);
        // Arrow's UInt64, with a negative Int64 beside it (a merged column's bounds).
        let mut arrow = ColumnStats::new(false);
        for (row, cell) in [Cell::UInt(u64::MAX), Cell::Int(-3), Cell::UInt(7)]
            .iter()
            .enumerate()
        {
            arrow.add(cell, row as u64);
        }
        assert_eq!(arrow.bounds(), (Value::from(-3), max));
        // Past u64, its digits (a float would change it).
        assert_eq!(
            whole_value(i128::from(u64::MAX) + 1),
            Value::from("18446744073709551616")
        );
        let mut wide = ColumnStats::new(true);
        for (row, v) in ["1", "123456789012345678901234", "-123456789012345678901234"]
            .iter()
            .enumerate()
        {
            wide.add(&Cell::Text(Cow::Borrowed(v)), row as u64);
        }
        assert_eq!(wide.inferred_type(), "int");
        assert_eq!(
            wide.bounds(),
            (
                Value::from("-123456789012345678901234"),
                Value::from("123456789012345678901234")
            )
        );
        assert_eq!(wide.distinct(), 3);
    }

    #[test]
    fn csv_columns_infer_their_type_and_report_mixed_values() {
        let mut stats = ColumnStats::new(true);
        for (row, v) in ["1", "2", "", "x", "3"].iter().enumerate() {
            let cell = if v.is_empty() {
                Cell::Null
            } else {
                Cell::Text(Cow::Borrowed(v))
            };
            stats.add(&cell, row as u64);
        }
        assert_eq!(stats.nulls(), 1);
        assert_eq!(stats.mixed(), Some((1, 3, "x")));
        assert_eq!(stats.bounds(), (Value::from(1), Value::from(3)));
        assert_eq!(stats.distinct(), 4);
        // A column of text: every value counts in its bounds as written, booleans and
        // numbers too; digits with a leading zero are text.
        let column = |values: &[&str]| {
            let mut stats = ColumnStats::new(true);
            for (row, v) in values.iter().enumerate() {
                stats.add(&Cell::Text(Cow::Borrowed(v)), row as u64);
            }
            (stats.inferred_type(), stats.bounds())
        };
        assert_eq!(
            column(&["true", "false", "yes", "no", "TRUE"]),
            ("string", (Value::from("TRUE"), Value::from("yes")))
        );
        assert_eq!(
            column(&["00501", "10001", "02134"]),
            ("string", (Value::from("00501"), Value::from("10001")))
        );
        assert_eq!(column(&["0", "10", "0.5"]).0, "float");
        assert_eq!(column(&["true", "FALSE"]).0, "bool");
        // Numbers with a few `true`/`false`: mixed, the first of them named; mostly
        // booleans: text, bounded as written.
        let mut stats = ColumnStats::new(true);
        for (row, v) in ["1", "2", "true", "false", "3"].iter().enumerate() {
            stats.add(&Cell::Text(Cow::Borrowed(v)), row as u64);
        }
        assert_eq!(stats.mixed(), Some((2, 2, "true")));
        assert_eq!(stats.inferred_type(), "mixed");
        assert_eq!(
            column(&["true", "false", "TRUE", "7"]),
            ("string", (Value::from("7"), Value::from("true")))
        );
    }

    #[test]
    fn top_values_are_exact_while_few() {
        let mut stats = ColumnStats::new(false);
        for (i, v) in ["a", "b", "a", "c", "a", "b"].iter().enumerate() {
            stats.add(&Cell::Text(Cow::Borrowed(v)), i as u64);
        }
        assert_eq!(stats.top(), vec![("a".into(), 3), ("b".into(), 2)]);
        assert!(!stats.top_at_least());
        // Long values alike in what is kept of them are counted apart (paths, URLs).
        let mut long = ColumnStats::new(false);
        let prefix = "k".repeat(TOP_KEY_BYTES + 80);
        for (row, (end, times)) in [("a", 3), ("b", 2), ("c", 1)].into_iter().enumerate() {
            for _ in 0..times {
                long.add(
                    &Cell::Text(Cow::Owned(format!("{prefix}{end}"))),
                    row as u64,
                );
            }
        }
        let counts: Vec<u64> = long.top().iter().map(|(_, n)| *n).collect();
        assert_eq!(counts, [3, 2]);
        assert_eq!(stats.distinct(), 3);
        assert!(!stats.distinct_estimated());
        assert_eq!(stats.bounds(), (Value::from("a"), Value::from("c")));
    }

    #[test]
    fn distinct_values_of_any_type_are_counted_while_few() {
        let count = |cells: &[Cell<'_>]| {
            let mut stats = ColumnStats::new(false);
            for (row, cell) in cells.iter().enumerate() {
                stats.add(cell, row as u64);
            }
            (stats.distinct(), stats.distinct_estimated())
        };
        assert_eq!(
            count(&[Cell::Int(1), Cell::Int(2), Cell::Int(1)]),
            (2, false)
        );
        assert_eq!(count(&[Cell::Bool(true), Cell::Bool(false)]), (2, false));
        // Whole numbers past 2^53, which one float would hold all of.
        let ids = [
            Cell::Int(1_234_567_890_123_456_788),
            Cell::Int(1_234_567_890_123_456_789),
            Cell::Int(1_234_567_890_123_456_790),
            Cell::UInt(u64::MAX),
            Cell::UInt(u64::MAX - 1),
        ];
        assert_eq!(count(&ids), (5, false));
        // `1` and `1.0` are one value; `null` is none.
        assert_eq!(
            count(&[Cell::Int(1), Cell::Float(1.0), Cell::Null]),
            (1, false)
        );
        // A key column of a small table: exact up to EXACT_DISTINCT values (the estimate
        // said 63 of 64), each repeated value once.
        for n in [64, EXACT_DISTINCT as i64] {
            let keys: Vec<Cell<'_>> = (0..n).chain(0..n).map(Cell::Int).collect();
            assert_eq!(count(&keys), (n as u64, false));
        }
        // Past them: estimated.
        let many: Vec<Cell<'_>> = (0..EXACT_DISTINCT as i64 + 100).map(Cell::Int).collect();
        let (distinct, estimated) = count(&many);
        assert!(estimated && (1074..=1174).contains(&distinct), "{distinct}");
    }

    #[test]
    fn nans_are_counted_and_zero_is_one_value_whatever_its_sign() {
        let mut stats = ColumnStats::new(false);
        for (row, f) in [1.0, f64::NAN, -0.0, 0.0, -f64::NAN]
            .into_iter()
            .enumerate()
        {
            stats.add(&Cell::Float(f), row as u64);
        }
        assert_eq!(stats.nans(), 2);
        // 1, 0 and NaN.
        assert_eq!((stats.distinct(), stats.distinct_estimated()), (3, false));
        assert_eq!(stats.bounds(), (json!(0.0), json!(1.0)));
        assert_eq!(ColumnStats::new(false).nans(), 0);
    }

    /// A column of `kinds` values, each `each` times, interleaved, and `hot` as often as
    /// all of them.
    fn interleaved(kinds: u64, each: u64, hot: bool) -> ColumnStats {
        let mut stats = ColumnStats::new(false);
        let mut row = 0;
        for _ in 0..each {
            for k in 0..kinds {
                stats.add(&Cell::Text(Cow::Owned(format!("v{k}"))), row);
                row += 1;
                if hot {
                    stats.add(&Cell::Text(Cow::Borrowed("hot")), row);
                    row += 1;
                }
            }
        }
        stats
    }

    #[test]
    fn past_the_counters_only_values_surely_most_frequent_are_listed_with_sure_counts() {
        // 50 values as frequent as each other: none stands out, and the counts the
        // counters could vouch for were a hundredth of the true ones.
        let uniform = interleaved(50, 2_000, false);
        assert_eq!(uniform.top(), vec![]);
        assert!(uniform.top_at_least());
        // (Their number counted all the same.)
        assert_eq!(
            (uniform.distinct(), uniform.distinct_estimated()),
            (50, false)
        );
        // One value as frequent as the 50 others together is listed, with a count it
        // surely reached.
        let skewed = interleaved(50, 200, true);
        let top = skewed.top();
        assert_eq!(top.len(), 1, "{top:?}");
        assert_eq!(top[0].0, "hot");
        assert!((5_000..=10_000).contains(&top[0].1), "{top:?}");
        assert!(skewed.top_at_least());
    }

    #[test]
    fn a_value_listed_is_among_the_most_frequent_whatever_the_order_of_values() {
        // Four frequent values, nulls (not counted), and 40 rare ones, in many orders
        // (the counters' evictions differ): a value listed is one of the five most
        // frequent (ties counted alike), with a count it reached. The fifth is a rare
        // one, a count or two above others.
        for seed in 0..40u64 {
            let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
            let mut top = TopValues::default();
            let mut counts: HashMap<String, u64> = HashMap::new();
            for i in 0..1_000u64 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let value = match state % 6 {
                    0 => "H".to_string(),
                    1 => "L".to_string(),
                    2 => "Q".to_string(),
                    3 => "N".to_string(),
                    4 => continue,
                    _ => format!("t{}", i % 40),
                };
                top.add(&value, hash(3, value.as_bytes()));
                *counts.entry(value).or_default() += 1;
            }
            let mut sorted: Vec<u64> = counts.values().copied().collect();
            sorted.sort_unstable_by(|a, b| b.cmp(a));
            let fifth = sorted[TOP_SHOWN - 1];
            for (value, n) in top.top() {
                let truth = counts[&value];
                assert!(
                    truth >= fifth,
                    "seed {seed}: {value:?} seen {truth}, fifth {fifth}"
                );
                assert!(n <= truth, "seed {seed}: {value:?} said {n}, seen {truth}");
            }
        }
    }

    #[test]
    fn unique_columns_list_no_top_values() {
        let mut stats = ColumnStats::new(false);
        for i in 0..20_000u64 {
            stats.add(&Cell::Text(Cow::Owned(format!("id-{i}"))), i);
        }
        assert!(stats.top().is_empty());
        let d = stats.distinct() as f64;
        assert!((d - 20_000.0).abs() < 1_000.0, "{d}");
    }
}
