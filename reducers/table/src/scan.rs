//! One pass over a table's rows, whatever their source: statistics of the shown columns,
//! the filter, and the rows offered to the budget stage (head, tail or a sample).

use crate::cell::Cell;
use crate::filter::{Condition, Verdict};
use crate::stats::{hash, ColumnStats, ColumnSummary};
use briefly_core::{Emit, Rank};
use serde_json::Value;
use std::collections::VecDeque;

/// Every row is an item of this rank: items keep the rows' order.
pub const ROW: Rank = 0;

/// A batch of rows, cell by cell.
pub trait Rows {
    /// Rows in the batch.
    fn len(&self) -> usize;
    /// The cell at `column`, `row` (columns as the scan's `names` count them).
    fn cell(&self, column: usize, row: usize) -> Cell<'_>;
}

/// Which rows become items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick {
    /// The first `n` (matching) rows.
    Head(u64),
    /// The last `n`.
    Tail(u64),
    /// `n` rows drawn uniformly, reproducibly from `seed`.
    Sample(u64, u64),
}

/// A tiny, seeded generator (splitmix64): the same seed draws the same rows.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// The next number.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next() as u128 * n as u128) >> 64) as u64
    }
}

/// The scan's state.
pub struct Scan {
    /// Every column of the batches, by index.
    pub names: Vec<String>,
    /// Their types.
    pub types: Vec<String>,
    /// Whether each may be null.
    pub nullable: Vec<bool>,
    /// Values are CSV text.
    from_text: bool,
    /// The columns the user asked for (all when none), in the order asked.
    candidates: Vec<usize>,
    /// The candidates are the columns asked for (`--columns`), in the order asked: the
    /// first `max_columns` are shown, not the most informative.
    asked: bool,
    max_columns: usize,
    /// The columns shown in rows and stats, most informative first; chosen at the first
    /// batch unless given.
    pub shown: Option<Vec<usize>>,
    /// Statistics of the shown columns, when computed from the rows.
    stats: Option<Vec<ColumnStats>>,
    filters: Vec<(usize, Condition)>,
    /// For each filter, the values it could not order (a number against text): they
    /// did not pass.
    incomparable: Vec<u64>,
    /// For each filter, the numbers and times in CSV fields it ordered as text
    /// ([`Condition::ordered_as_text`]).
    ordered_as_text: Vec<u64>,
    /// For each filter, the CSV fields written with leading zeros it compared by their
    /// text with a number ([`Condition::compared_as_identifier`]).
    compared_as_identifier: Vec<u64>,
    pick: Pick,
    held: VecDeque<(u64, Value)>,
    rng: Rng,
    max_value_chars: usize,
    /// Rows read.
    pub rows: u64,
    /// Rows that passed the filters.
    pub matched: u64,
    /// Some value was cut.
    pub values_cut: bool,
    /// Row numbers are offset by this (a scan that starts mid-file).
    pub first_row: u64,
}

impl Scan {
    /// A scan of batches with these columns.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        names: Vec<String>,
        types: Vec<String>,
        nullable: Vec<bool>,
        from_text: bool,
        candidates: Vec<usize>,
        asked: bool,
        max_columns: usize,
        filters: Vec<(usize, Condition)>,
        pick: Pick,
        with_stats: bool,
        max_value_chars: usize,
    ) -> Self {
        let seed = match pick {
            Pick::Sample(_, seed) => seed,
            _ => 0,
        };
        Scan {
            names,
            types,
            nullable,
            from_text,
            candidates,
            asked,
            max_columns,
            shown: None,
            stats: with_stats.then(Vec::new),
            incomparable: vec![0; filters.len()],
            ordered_as_text: vec![0; filters.len()],
            compared_as_identifier: vec![0; filters.len()],
            filters,
            pick,
            held: VecDeque::new(),
            rng: Rng::new(seed),
            max_value_chars,
            rows: 0,
            matched: 0,
            values_cut: false,
            first_row: 0,
        }
    }

    /// Shows `columns` (from metadata, say) instead of choosing at the first batch.
    pub fn show(&mut self, columns: Vec<usize>) {
        self.stats = self.stats.take().map(|_| {
            columns
                .iter()
                // Decimals are read as text; their statistics parse them as numbers.
                .map(|&c| ColumnStats::new(self.from_text || self.types[c].starts_with("Decimal")))
                .collect()
        });
        self.shown = Some(columns);
    }

    /// Columns the user asked for but not shown: too many to show.
    pub fn omitted(&self) -> Vec<usize> {
        let shown = self.shown_columns();
        self.candidates
            .iter()
            .copied()
            .filter(|c| !shown.contains(c))
            .collect()
    }

    /// [`Scan::omitted`] as named in the stats: `name: type`, or the name alone where
    /// the type would be inferred from values (CSV), which an omitted column has none of.
    pub fn omitted_names(&self) -> Vec<String> {
        self.omitted()
            .iter()
            .map(|&c| match self.from_text {
                true => self.names[c].clone(),
                false => format!("{}: {}", self.names[c], self.types[c]),
            })
            .collect()
    }

    /// The columns shown: those chosen from the first rows, or, with no rows to choose
    /// by, the first `max_columns` asked for.
    pub fn shown_columns(&self) -> Vec<usize> {
        match &self.shown {
            Some(shown) => shown.clone(),
            None => self
                .candidates
                .iter()
                .copied()
                .take(self.max_columns)
                .collect(),
        }
    }

    /// Chooses the shown columns from `rows` (the first batch): all when few enough,
    /// else the first asked for (`--columns`), in their order, or those `--where` names
    /// and then the most informative (varied, or present in some rows only, before
    /// constant before all-null), most informative first.
    pub fn choose_from(&mut self, rows: &dyn Rows) {
        let mut order = self.candidates.clone();
        if self.asked {
            order.truncate(self.max_columns);
        } else if order.len() > self.max_columns {
            // Values that differ, or a value in some rows only (`ERR` or nothing), tell
            // rows apart; one value in every row does not.
            let score = |c: usize| {
                let mut first = None;
                let mut nulls = false;
                for r in 0..rows.len() {
                    let cell = rows.cell(c, r);
                    if cell == Cell::Null {
                        nulls = true;
                        continue;
                    }
                    let h = hash(0, cell.text().as_bytes());
                    match first {
                        None => first = Some(h),
                        Some(f) if f != h => return 2,
                        _ => {}
                    }
                }
                match (first, nulls) {
                    (Some(_), true) => 2,
                    (Some(_), false) => 1,
                    (None, _) => 0,
                }
            };
            let scores: Vec<u8> = order.iter().map(|&c| score(c)).collect();
            let mut ranked: Vec<(usize, usize)> = order.iter().copied().enumerate().collect();
            // A column `--where` names first: its rows are read for it.
            let filtered = |c: usize| self.filters.iter().any(|(f, _)| *f == c);
            ranked.sort_by_key(|&(i, c)| std::cmp::Reverse((filtered(c), scores[i])));
            order = ranked
                .into_iter()
                .map(|(_, c)| c)
                .take(self.max_columns)
                .collect();
        }
        self.show(order);
    }

    /// One batch of rows.
    pub fn batch(&mut self, rows: &dyn Rows, out: &mut dyn Emit<Value>) {
        if self.shown.is_none() {
            self.choose_from(rows);
        }
        let shown = self.shown.clone().expect("chosen");
        for r in 0..rows.len() {
            let row = self.first_row + self.rows;
            self.rows += 1;
            if let Some(stats) = &mut self.stats {
                for (s, &c) in stats.iter_mut().zip(&shown) {
                    s.add(&rows.cell(c, r), row);
                }
            }
            let (counts, identifiers) =
                (&mut self.ordered_as_text, &mut self.compared_as_identifier);
            let failed = self.filters.iter().enumerate().find_map(|(i, (c, f))| {
                let cell = rows.cell(*c, r);
                counts[i] += u64::from(f.ordered_as_text(&cell));
                identifiers[i] += u64::from(f.compared_as_identifier(&cell));
                match f.judge(&cell) {
                    Verdict::Pass => None,
                    verdict => Some((i, verdict)),
                }
            });
            if let Some((i, verdict)) = failed {
                self.incomparable[i] += u64::from(verdict == Verdict::Incomparable);
                continue;
            }
            let m = self.matched;
            self.matched += 1;
            match self.pick {
                Pick::Head(n) if m < n => {
                    if out.wants(ROW) {
                        let item = self.render(rows, r, row, &shown);
                        out.emit(ROW, item);
                    } else {
                        out.skip(ROW);
                    }
                }
                Pick::Head(_) => {}
                Pick::Tail(n) => {
                    if n > 0 {
                        if self.held.len() as u64 == n {
                            self.held.pop_front();
                        }
                        let item = self.render(rows, r, row, &shown);
                        self.held.push_back((row, item));
                    }
                }
                Pick::Sample(n, _) => {
                    // Reservoir sampling (algorithm R): every row equally likely.
                    let slot = if m < n {
                        Some(m)
                    } else {
                        Some(self.rng.below(m + 1))
                    };
                    if let Some(slot) = slot.filter(|&s| s < n) {
                        let item = self.render(rows, r, row, &shown);
                        if (slot as usize) < self.held.len() {
                            self.held[slot as usize] = (row, item);
                        } else {
                            self.held.push_back((row, item));
                        }
                    }
                }
            }
        }
    }

    /// Offers row `r` of `rows`, numbered `row`, as an item (rows read by position,
    /// without the scan's pick: Parquet pages).
    pub fn offer(&mut self, rows: &dyn Rows, r: usize, row: u64, out: &mut dyn Emit<Value>) {
        let shown = std::mem::take(&mut self.shown).unwrap_or_default();
        let item = self.render(rows, r, row, &shown);
        self.shown = Some(shown);
        out.emit(ROW, item);
    }

    fn render(&mut self, rows: &dyn Rows, r: usize, row: u64, shown: &[usize]) -> Value {
        let mut values = Vec::with_capacity(shown.len() + 1);
        values.push(Value::from(row));
        for &c in shown {
            let (value, cut) = rows.cell(c, r).render(self.max_value_chars, self.from_text);
            self.values_cut |= cut;
            values.push(value);
        }
        Value::Array(values)
    }

    /// End of the rows: the held ones (tail, sample) go out in row order.
    pub fn finish(&mut self, out: &mut dyn Emit<Value>) {
        let mut held: Vec<(u64, Value)> = std::mem::take(&mut self.held).into();
        held.sort_by_key(|(row, _)| *row);
        for (_, item) in held {
            out.emit(ROW, item);
        }
    }

    /// The summaries of the shown columns, from the scan's own statistics.
    pub fn summaries(&self) -> Vec<ColumnSummary> {
        let shown = self.shown.clone().unwrap_or_default();
        shown
            .iter()
            .enumerate()
            .map(|(i, &c)| {
                let stats = self.stats.as_ref().map(|s| &s[i]);
                let mut summary = ColumnSummary {
                    name: self.names[c].clone(),
                    data_type: self.types[c].clone(),
                    nullable: self.nullable[c],
                    nulls: None,
                    min: Value::Null,
                    max: Value::Null,
                    distinct: None,
                    distinct_estimated: false,
                    top: Vec::new(),
                    top_at_least: false,
                    bounds_cut: false,
                    nans: None,
                };
                if let Some(stats) = stats {
                    summary.nans = Some(stats.nans()).filter(|&n| n > 0);
                    if self.from_text {
                        summary.data_type = stats.inferred_type().to_string();
                        summary.nullable = stats.nulls() > 0;
                    }
                    summary.nulls = Some(stats.nulls());
                    (summary.min, summary.max) = stats.bounds();
                    summary.distinct = Some(stats.distinct());
                    summary.distinct_estimated = stats.distinct_estimated();
                    summary.top = stats.top();
                    summary.top_at_least = !summary.top.is_empty() && stats.top_at_least();
                }
                summary
            })
            .collect()
    }

    /// Warnings about filters that met values they could not order.
    pub fn incomparable_warnings(&self) -> Vec<String> {
        self.filters
            .iter()
            .zip(&self.incomparable)
            .filter(|(_, n)| **n > 0)
            .map(|((_, f), n)| match (f.is_numeric(), f.is_time()) {
                (true, _) => format!(
                    "{}: {} in column {:?}: not ordered against one, left out",
                    f.text(),
                    briefly_core::counted(*n, "value is not a number", "values are not numbers"),
                    f.column,
                ),
                (false, true) => format!(
                    "{}: {} in column {:?}: not ordered against one, left out",
                    f.text(),
                    briefly_core::counted(
                        *n,
                        "value is not a date or time",
                        "values are not dates or times"
                    ),
                    f.column,
                ),
                (false, false) => format!(
                    "{}: {} in column {:?}, not ordered against {:?}, which is none: left out",
                    f.text(),
                    briefly_core::counted(*n, "value is a number", "values are numbers"),
                    f.column,
                    f.value.as_deref().unwrap_or_default(),
                ),
            })
            .collect()
    }

    /// Warnings about filters that ordered numbers or times as text, by a value that is
    /// neither (a typo's `1OO`, an impossible `2024-13-45`).
    pub fn ordered_as_text_warnings(&self) -> Vec<String> {
        (self.filters.iter().zip(&self.ordered_as_text))
            .filter(|(_, n)| **n > 0)
            .map(|((_, f), n)| {
                format!(
                    "{}: {} in column {:?} ordered as text against {:?}, which is no number, date or time",
                    f.text(),
                    briefly_core::counted(*n, "number or time", "numbers or times"),
                    f.column,
                    f.value.as_deref().unwrap_or_default(),
                )
            })
            .collect()
    }

    /// Warnings about filters that compared a number with fields written with leading
    /// zeros by their text (`zip = 2134` does not find `02134`).
    pub fn identifier_warnings(&self) -> Vec<String> {
        (self.filters.iter().zip(&self.compared_as_identifier))
            .filter(|(_, n)| **n > 0)
            .map(|((_, f), n)| {
                format!(
                    "{}: {} in column {:?} written with leading zeros, compared as text: an \
                     identifier's digits, not a number (write the value as the column does)",
                    f.text(),
                    briefly_core::counted(*n, "value", "values"),
                    f.column,
                )
            })
            .collect()
    }

    /// Warnings about mixed columns (CSV).
    pub fn mixed_warnings(&self) -> Vec<String> {
        let (Some(stats), Some(shown)) = (&self.stats, &self.shown) else {
            return Vec::new();
        };
        stats
            .iter()
            .zip(shown)
            .filter_map(|(s, &c)| {
                let (texts, row, text) = s.mixed()?;
                Some(format!(
                    "column {:?} holds numbers and {} (first at row {row}: {:?}); its min/max are of the numbers",
                    self.names[c],
                    briefly_core::plural(texts, "non-numeric value"),
                    briefly_core::cut_str(text, 40)
                ))
            })
            .collect()
    }
}

/// `n` distinct row numbers below `total`, drawn from `seed`, in order (Floyd's
/// algorithm: `n` draws, whatever `total`).
pub fn sample_rows(total: u64, n: u64, seed: u64) -> Vec<u64> {
    let n = n.min(total);
    let mut rng = Rng::new(seed);
    let mut chosen = std::collections::BTreeSet::new();
    for j in total - n..total {
        let t = rng.below(j + 1);
        if !chosen.insert(t) {
            chosen.insert(j);
        }
    }
    chosen.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_are_reproducible_distinct_and_in_range() {
        let a = sample_rows(1_000_000, 10, 7);
        assert_eq!(a, sample_rows(1_000_000, 10, 7));
        assert_ne!(a, sample_rows(1_000_000, 10, 8));
        assert_eq!(a.len(), 10);
        assert!(a.windows(2).all(|w| w[0] < w[1]) && a[9] < 1_000_000);
        assert_eq!(sample_rows(3, 10, 1), vec![0, 1, 2]);
    }
}
