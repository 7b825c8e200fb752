//! The engine both reducers share: structured entries in, ranked items and aggregates
//! out. Messages fold into templates through [`briefly_template::Miner`] (the engine
//! `briefly text` uses); severity and rarity rank the evidence.
//!
//! Items, most likely evidence first (the rank each gets):
//!
//! 0. warnings and worse, verbatim, one of each template (worst, rarest, earliest first);
//! 1. the first and the last entry;
//! 2. further warnings and worse (at most [`PER_TEMPLATE`] per template in all; a worse
//!    entry takes the place of a less severe one kept, one of each level staying:
//!    [`KeptLevels`]);
//! 3. entries whose template occurs once, verbatim;
//! 4. every other template by count, with an example;
//! 6. when the reducer's options narrowed the entries ([`Fold::narrowed`]), every entry
//!    folded in that no item above shows, in input order ([`LISTED_RANK`]), so that
//!    paging reaches each entry the options kept.
//!
//! Entries whose messages take at most [`Fold::return_whole_up_to`]'s characters are not
//! reduced: each is an item, verbatim and whole, warnings and worse first (worst, then
//! earliest), then the others in order.
//!
//! Memory is bounded by configuration: the miner's template cap, [`MAX_KEPT`] verbatim
//! entries of at most [`MAX_ENTRY_LINES`] lines of [`MAX_KEPT_CHARS`] characters,
//! [`MAX_GROUPS`] units or streams, [`MAX_PAIRS`] (group, template) counters, and the
//! entries held while they may be returned whole.

use crate::time::{format_micros, Span};
use briefly_core::{counted, Emit, Gap, KeptLines, WholeChars};
use briefly_severity::multiline::{is_cause, is_go_test_frame, what_went_wrong, TRACEBACK};
use briefly_severity::{classify, KeptLevels, Severity};
use briefly_template::{GroupId, MaskedLine, Miner};
use serde::Serialize;
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, HashMap};

/// The rank of each entry folded in that no ranked item shows, listed after them all in
/// input order (an entry kept verbatim, as it gives way to another), when the reducer's
/// options narrowed the entries ([`Fold::narrowed`]).
pub const LISTED_RANK: u64 = 6;

/// Verbatim entries kept at most.
pub const MAX_KEPT: usize = 500;
/// Entries listed that wait at most for one folded in later that starts before them
/// ([`Fold::emit_listed`]); past that they are emitted out of order.
pub const MAX_LISTED_WAITING: usize = 500;
/// Characters kept of each line of a kept entry.
pub const MAX_KEPT_CHARS: usize = briefly_core::MAX_LINE_ITEM_CHARS;
/// Lines of a multi-line entry kept after its first at most: its first lines, its last
/// ones and the causes and errors between them ([`KeptLines`]); the rest are counted
/// where they were left out.
pub const MAX_ENTRY_LINES: usize = KeptLines::HEAD + KeptLines::PINNED + KeptLines::TAIL;
/// Verbatim entries kept per template.
pub const PER_TEMPLATE: u32 = 2;
/// Distinct units (or streams, services) counted by name; the rest count as `(other)`.
pub const MAX_GROUPS: usize = 1_000;
/// (group, template) pairs counted for the per-unit templates; the rest are left out.
pub const MAX_PAIRS: usize = 50_000;
/// Groups listed in the stats, and templates listed for each.
pub const TOP_GROUPS: usize = 10;
const TOP_PER_GROUP: usize = 3;
/// A map with [`FastHasher`]: its lookups run for every entry.
type FastMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<FastHasher>>;

/// FxHash's rotate-multiply: fast for short keys (ids, unit names) that are not chosen
/// by an adversary (the cap on groups bounds what one could do).
#[derive(Default)]
struct FastHasher(u64);

impl std::hash::Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.add(u64::from_le_bytes(chunk.try_into().expect("8 bytes")));
        }
        for &b in chunks.remainder() {
            self.add(u64::from(b));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
}

impl FastHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// The name entries past [`MAX_GROUPS`] are counted under.
const OTHER_GROUP: &str = "(other)";
/// What the entries past the template cap are, in place of a template.
const OTHER_TEMPLATE: &str = "(entries past the template cap, not told apart)";

/// One entry of a log, as a reducer hands it to the [`Fold`].
#[derive(Debug, Clone, Copy)]
pub struct Entry<'a> {
    /// Line of the raw input the entry starts on (for `briefly read --offset`).
    pub line: u64,
    /// Microseconds since the Unix epoch, when the entry has a valid time.
    pub micros: Option<i64>,
    /// Index into the reducer's level names (priority, or severity).
    pub level: usize,
    /// How serious it is, for ranking.
    pub severity: Option<Severity>,
    /// The unit, identifier or stream it came from.
    pub group: &'a str,
    /// The process id, when the source has one.
    pub pid: Option<&'a str>,
    /// The message; lines after the first are the rest of a multi-line entry.
    pub message: &'a str,
    /// The message had ANSI escape codes (colours), read and shown without them.
    pub ansi: bool,
}

/// How items and stats name things: the reducer's vocabulary.
#[derive(Debug, Clone, Copy)]
pub struct Names {
    /// The items' key for an entry's group (`unit`, `stream`).
    pub group: &'static str,
    /// The items' key for its level (`priority`, `level`).
    pub level: &'static str,
    /// The names of the levels, indexed by [`Entry::level`] (at most [`MAX_LEVELS`]).
    pub levels: &'static [&'static str],
    /// The key of a template's counts by level (`priorities`, `levels`).
    pub levels_key: &'static str,
    /// Whether `levels` names the most urgent first (journald's priorities: `emerg`
    /// before `crit`, both fatal), else last: what ranks entries of one severity.
    pub worst_first: bool,
    /// The severity each level names, indexed as `levels`; empty where the levels are
    /// the severities. An entry ranked by a worse one than its level's (what a service's
    /// output line states at journald's `info`) says so in its item (`severity`).
    pub level_severities: &'static [Option<Severity>],
}

/// Levels a reducer may name.
pub const MAX_LEVELS: usize = 9;

/// An entry held verbatim.
#[derive(Debug, Clone)]
struct Kept {
    line: u64,
    micros: Option<i64>,
    level: usize,
    severity: Option<Severity>,
    group: u32,
    pid: Option<String>,
    text: String,
    more: Vec<String>,
    more_cut: u64,
    more_gaps: Vec<Gap>,
    template: GroupId,
    /// Listed: its template's count when it was ([`Fold::list`]), its template resolved
    /// then. A fold event, where the time it is emitted depends on how the input came
    /// in chunks: the same input gives the same item.
    listed_count: Option<u64>,
}

impl Default for Kept {
    fn default() -> Kept {
        Kept {
            line: 0,
            micros: None,
            level: 0,
            severity: None,
            group: 0,
            pid: None,
            text: String::new(),
            more: Vec::new(),
            more_cut: 0,
            more_gaps: Vec::new(),
            template: GroupId(0),
            listed_count: None,
        }
    }
}

/// The earlier of two times, where either may be unknown.
fn earliest(a: Option<i64>, b: Option<i64>) -> Option<i64> {
    [a, b].into_iter().flatten().min()
}

/// The later of two times, where either may be unknown.
fn latest(a: Option<i64>, b: Option<i64>) -> Option<i64> {
    [a, b].into_iter().flatten().max()
}

/// What is known of a template beyond the miner's count.
#[derive(Debug, Clone)]
struct Note {
    severity: Option<Severity>,
    /// The earliest and the latest time of its entries: docker's records of two streams
    /// and of compose's containers are folded in as they end, not in the order of time.
    first_micros: Option<i64>,
    last_micros: Option<i64>,
    /// Its first entry, for a template seen once: (line, level, group, pid).
    first: (u64, usize, u32, Option<String>),
    /// Its entries kept verbatim, and the last line of those.
    kept: KeptLevels,
    kept_last: u64,
    /// Its first entry is listed ([`LISTED_RANK`]): no item of a template seen once
    /// repeats it.
    first_listed: bool,
    /// Entries by level: one template may be logged at several.
    levels: [u64; MAX_LEVELS],
    /// Entries at its severity, the worst (levels of one severity together: journald's
    /// `crit` and `alert` are both fatal).
    at_severity: u64,
}

impl Note {
    // (No entry of no level is serious enough to keep: `None` counts nothing.)

    /// Counts one more entry of `severity` kept.
    fn add_kept(&mut self, severity: Option<Severity>) {
        if let Some(severity) = severity {
            self.kept.add(severity);
        }
    }

    /// Counts one entry of `severity` fewer kept: it gave its place to another.
    fn remove_kept(&mut self, severity: Option<Severity>) {
        if let Some(severity) = severity {
            self.kept.remove(severity);
        }
    }
}

/// Entries per group, by how serious.
#[derive(Debug, Clone, Default, Serialize)]
pub struct GroupCounts {
    /// Entries in all.
    pub entries: u64,
    /// Errors and worse.
    pub errors: u64,
    /// Warnings.
    pub warnings: u64,
}

/// The aggregates a [`Fold`] reports.
#[derive(Debug, Clone, Default, Serialize)]
pub struct FoldStats {
    /// Entries folded (those that passed the filters).
    pub entries: u64,
    /// Entries by level name (only levels seen).
    pub levels: BTreeMap<&'static str, u64>,
    /// Entries per group, the largest [`TOP_GROUPS`] (and `(more)` for the rest).
    pub groups: BTreeMap<String, GroupCounts>,
    /// Distinct groups seen.
    pub distinct_groups: usize,
    /// First and last entry times (RFC 3339, UTC).
    pub time_span: Option<(String, String)>,
    /// Templates mined.
    pub templates: usize,
    /// Entries past the template cap, counted in an "other" group.
    pub other_entries: u64,
    /// Entries of more than one line.
    pub multiline_entries: u64,
    /// Entries redrawn with carriage returns (progress bars): their last state is read.
    #[serde(skip_serializing_if = "briefly_core::is_zero")]
    pub redrawn_entries: u64,
    /// Entries whose messages had ANSI escape codes (colours): read without them.
    #[serde(skip_serializing_if = "briefly_core::is_zero")]
    pub ansi_entries: u64,
    /// The most frequent templates of the largest groups.
    pub top_templates: BTreeMap<String, Vec<Value>>,
}

/// The shared folding engine.
pub struct Fold {
    names: Names,
    miner: Miner,
    level_counts: Vec<u64>,
    group_index: FastMap<String, u32>,
    groups: Vec<(String, GroupCounts)>,
    pairs: FastMap<(u32, GroupId), u64>,
    pairs_left_out: u64,
    notes: FastMap<GroupId, Note>,
    /// Serious entries kept verbatim.
    kept: Vec<Kept>,
    first: Option<Kept>,
    last: Kept,
    entries: u64,
    multiline: u64,
    span: Span,
    /// Entries redrawn with carriage returns.
    redrawn: u64,
    /// Entries whose messages had ANSI escape codes.
    ansi: u64,
    /// The entries, while they may be returned whole.
    whole: Option<Whole>,
    returned_whole: bool,
    /// The reducer's options narrowed the entries: each one no ranked item shows is
    /// listed.
    narrowed: bool,
    /// Entries to list, until [`Fold::emit_listed`] emits them.
    listed: Vec<Kept>,
    /// The lines of the first and of the last entry listed: no edge repeats them.
    listed_edges: Option<[u64; 2]>,
}

/// Entries held while their messages are within the limit.
#[derive(Debug)]
struct Whole {
    entries: Vec<Kept>,
    /// The characters their messages take of the limit.
    chars: WholeChars,
}

impl Fold {
    /// An empty fold naming things as `names` says.
    pub fn new(names: Names) -> Fold {
        Fold {
            miner: Miner::new(briefly_template::Config::default()),
            level_counts: vec![0; names.levels.len()],
            names,
            group_index: FastMap::default(),
            groups: Vec::new(),
            pairs: FastMap::default(),
            pairs_left_out: 0,
            notes: FastMap::default(),
            kept: Vec::new(),
            first: None,
            last: Kept::default(),
            entries: 0,
            multiline: 0,
            span: Span::default(),
            redrawn: 0,
            ansi: 0,
            whole: None,
            returned_whole: false,
            narrowed: false,
            listed: Vec::new(),
            listed_edges: None,
        }
    }

    /// Says that the reducer's options (a level, a time window, a unit or stream) left
    /// entries out: once the entries are too many to return whole, each one folded in
    /// that no ranked item shows is listed ([`LISTED_RANK`]), so that paging reaches every
    /// entry the options kept, not only the first of each template. The reducer emits
    /// them as they are folded in ([`Fold::emit_listed`]).
    pub fn narrowed(&mut self) {
        self.narrowed = true;
    }

    /// Emits the entries listed since it last did that start before line `before` (all of
    /// them for `None`), in input order (an entry a worse one took the place of among
    /// those kept verbatim, when it did). Called as entries are folded in, so that few
    /// wait; [`Fold::finish`] emits those left. A reducer whose entries are folded in out
    /// of order (docker's two streams) says where the first entry still open starts: those
    /// after it wait for it, [`MAX_LISTED_WAITING`] at most.
    pub fn emit_listed(&mut self, before: Option<u64>, out: &mut dyn Emit<Value>) {
        let mut listed = std::mem::take(&mut self.listed);
        // Nearly in order: a stable sort of a few.
        listed.sort_by_key(|k| k.line);
        let ready = before.map_or(listed.len(), |line| {
            listed.partition_point(|k| k.line < line)
        });
        let ready = ready.max(listed.len().saturating_sub(MAX_LISTED_WAITING));
        for k in listed.drain(..ready) {
            if out.wants(LISTED_RANK) {
                out.emit(LISTED_RANK, self.listed_value(&k));
            } else {
                out.skip(LISTED_RANK);
            }
        }
        // Those waiting, and the buffer, serve again.
        self.listed = listed;
    }

    /// A listed entry's item: its template and count as they are when it is listed.
    fn listed_value(&self, k: &Kept) -> Value {
        entry_value(k, &self.miner, self.names, &self.groups, None)
    }

    /// Returns the entries whole when their messages take at most `chars` characters
    /// (one more for each entry): every one an item, none folded. 0: never.
    pub fn return_whole_up_to(&mut self, chars: usize) {
        self.whole = (chars > 0).then(|| Whole {
            entries: Vec::new(),
            chars: WholeChars::new(chars),
        });
    }

    /// Whether [`Fold::finish`] returned the entries whole.
    pub fn returned_whole(&self) -> bool {
        self.returned_whole
    }

    /// Entries folded so far.
    pub fn entries(&self) -> u64 {
        self.entries
    }

    fn group_of(&mut self, name: &str) -> u32 {
        if let Some(&i) = self.group_index.get(name) {
            return i;
        }
        let name = if self.groups.len() < MAX_GROUPS {
            name
        } else {
            OTHER_GROUP
        };
        if let Some(&i) = self.group_index.get(name) {
            return i;
        }
        let i = self.groups.len() as u32;
        self.groups.push((name.to_string(), GroupCounts::default()));
        self.group_index.insert(name.to_string(), i);
        i
    }

    /// Widens the time span of the entries folded to `micros`: the time of a line of an
    /// entry joined of several, after its first.
    pub fn see_time(&mut self, micros: i64) {
        self.span.see(micros);
    }

    /// Folds one entry in.
    pub fn add(&mut self, entry: &Entry<'_>) {
        self.add_masked(entry, None);
    }

    /// [`Fold::add`] for an entry whose message, a single line, was masked beforehand
    /// ([`briefly_template::MaskedLine::fill`] with [`Fold::miner_config`]); `masked` is
    /// not used for a multi-line message.
    pub fn add_prepared(&mut self, entry: &Entry<'_>, masked: &mut MaskedLine) {
        self.add_masked(entry, Some(masked));
    }

    /// The template miner's configuration, for masking messages beforehand.
    pub fn miner_config(&self) -> &briefly_template::Config {
        self.miner.config()
    }

    fn add_masked(&mut self, entry: &Entry<'_>, masked: Option<&mut MaskedLine>) {
        self.entries += 1;
        self.level_counts[entry.level] += 1;
        if let Some(t) = entry.micros {
            self.span.see(t);
        }
        let group = self.group_of(entry.group);
        let counts = &mut self.groups[group as usize].1;
        counts.entries += 1;
        match entry.severity {
            Some(s) if s >= Severity::Error => counts.errors += 1,
            Some(Severity::Warn) => counts.warnings += 1,
            _ => {}
        }
        // A message redrawn with carriage returns (a progress bar) is read in its last
        // state; what was masked ahead of time is of the frames.
        let redrawn = redrawn(entry.message);
        self.redrawn += u64::from(redrawn.is_some());
        self.ansi += u64::from(entry.ansi);
        let masked = masked.filter(|_| redrawn.is_none());
        let message = redrawn.as_deref().unwrap_or(entry.message);
        let (first_line, rest) = match crate::find::newline(message.as_bytes()) {
            Some(at) => (&message[..at], Some(&message[at + 1..])),
            None => (message, None),
        };
        if rest.is_some() {
            self.multiline += 1;
        }
        // The miner sees the first line (an empty message still counts as one), but a
        // Python traceback is told apart by its exception, the last line.
        let mined = match rest {
            Some(rest) if first_line.starts_with(TRACEBACK) => rest
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty() && !l.starts_with([' ', '\t']))
                .unwrap_or(first_line),
            _ => first_line,
        };
        let mined = mined.trim_end_matches('\r');
        // A serious stack's root cause tells it apart too, as `text` tells its records.
        let serious = entry.severity.is_some_and(|s| s >= Severity::Warn);
        let cause = rest
            .filter(|_| serious)
            .and_then(|rest| rest.lines().rev().find(|line| is_cause(line)));
        let template = match (masked, rest, cause) {
            (_, _, Some(cause)) => {
                let named = format!("{mined} … {}", cause.trim().trim_end_matches('\r'));
                self.miner.add_numbered(&named, entry.line)
            }
            (Some(masked), None, None) => self.miner.add_prepared(masked, mined, entry.line),
            _ => self.miner.add_numbered(mined, entry.line),
        };
        if self.pairs.len() < MAX_PAIRS || self.pairs.contains_key(&(group, template)) {
            *self.pairs.entry((group, template)).or_insert(0) += 1;
        } else {
            self.pairs_left_out += 1;
        }
        // Only a serious entry is kept: the others need not look for room.
        let room = serious && self.room_for(entry.severity);
        let note = self.notes.entry(template).or_insert_with(|| Note {
            severity: None,
            first_micros: entry.micros,
            last_micros: None,
            first: (
                entry.line,
                entry.level,
                group,
                entry.pid.map(str::to_string),
            ),
            kept: KeptLevels::default(),
            kept_last: 0,
            first_listed: false,
            levels: [0; MAX_LEVELS],
            at_severity: 0,
        });
        note.levels[entry.level] += 1;
        match entry.severity.cmp(&note.severity) {
            std::cmp::Ordering::Greater => note.at_severity = 1,
            std::cmp::Ordering::Equal => note.at_severity += 1,
            std::cmp::Ordering::Less => {}
        }
        note.severity = note.severity.max(entry.severity);
        note.first_micros = earliest(note.first_micros, entry.micros);
        note.last_micros = latest(note.last_micros, entry.micros);
        let keep_serious = room && note.kept.total() < PER_TEMPLATE;
        if keep_serious {
            note.kept_last = note.kept_last.max(entry.line);
            note.add_kept(entry.severity);
        }
        // Folded in after one of its template kept, though before it (docker's records
        // of two streams or of compose's containers end out of order): it takes that
        // one's place, so that a template shows its first entries.
        let earlier =
            serious && !keep_serious && note.kept.total() > 0 && entry.line < note.kept_last;
        // Worse than one of its template kept: it takes the place of the latest kept of
        // a level less severe, one of several kept at that level, so that a template
        // shows its worst entry and one of each level it has (a message logged at
        // warning, then at err).
        let worse = (entry.severity)
            .filter(|_| serious && !keep_serious && !earlier)
            .and_then(|severity| note.kept.gives_way_to(severity));
        // By their lines: docker's two streams' entries are folded in as they end.
        if self
            .first
            .as_ref()
            .is_none_or(|first| entry.line < first.line)
        {
            self.first = Some(kept(entry, first_line, rest, group, template));
        }
        if entry.line >= self.last.line {
            fill(&mut self.last, entry, first_line, rest, group, template);
        }
        if let Some(whole) = &mut self.whole {
            if whole.chars.take(message) {
                whole
                    .entries
                    .push(kept_whole(entry, first_line, rest, group, template));
            } else {
                self.stop_holding();
            }
        }
        if keep_serious {
            let item = kept(entry, first_line, rest, group, template);
            self.keep(item);
        } else if earlier {
            let item = kept(entry, first_line, rest, group, template);
            self.keep_earlier(item);
        } else if let Some(replaced) = worse {
            let item = kept(entry, first_line, rest, group, template);
            self.keep_worse(item, replaced);
        } else if self.listing() {
            self.list(kept(entry, first_line, rest, group, template));
        }
    }

    /// Lists an entry ([`LISTED_RANK`]): the ranked items do not repeat it.
    fn list(&mut self, mut k: Kept) {
        if let Some(note) = self.notes.get_mut(&k.template) {
            note.first_listed |= note.first.0 == k.line;
        }
        k.template = self.miner.resolve(k.template);
        k.listed_count = Some(self.miner.count_alike(k.template));
        // Entries given way to are listed late: the first and last by their lines.
        let edges = self.listed_edges.get_or_insert([k.line; 2]);
        edges[0] = edges[0].min(k.line);
        edges[1] = edges[1].max(k.line);
        self.listed.push(k);
    }

    /// Whether entries no ranked item shows are listed now: the options narrowed them
    /// and they are too many to return whole.
    fn listing(&self) -> bool {
        self.narrowed && self.whole.is_none()
    }

    /// Stops holding the entries to return them whole: they are too many. When the
    /// options narrowed them, those held that no ranked item will show are listed, as
    /// those after them will be.
    fn stop_holding(&mut self) {
        let Some(whole) = self.whole.take() else {
            return;
        };
        if !self.narrowed {
            return;
        }
        let shown: std::collections::HashSet<u64> = self.kept.iter().map(|k| k.line).collect();
        // (Held whole, their lines are not cut: they take at most the whole's limit.)
        for k in whole.entries {
            if !shown.contains(&k.line) {
                self.list(k);
            }
        }
    }

    /// Whether a serious entry of `severity` would be kept.
    fn room_for(&self, severity: Option<Severity>) -> bool {
        self.kept.len() < MAX_KEPT || self.kept.iter().any(|k| k.severity < severity)
    }

    fn keep(&mut self, item: Kept) {
        if self.kept.len() < MAX_KEPT {
            self.kept.push(item);
            return;
        }
        // Full: a worse entry replaces the latest of the least severe ones kept.
        let (slot, _) = self
            .kept
            .iter()
            .enumerate()
            .min_by_key(|(i, k)| (k.severity, std::cmp::Reverse(*i)))
            .expect("full");
        let old = std::mem::replace(&mut self.kept[slot], item);
        if let Some(note) = self.notes.get_mut(&old.template) {
            note.remove_kept(old.severity);
        }
        if self.listing() {
            self.list(old);
        }
    }

    /// Keeps `item`, worse than one its template kept, in place of the latest entry kept
    /// of that template at `replaced`; that one is listed where entries are.
    fn keep_worse(&mut self, item: Kept, replaced: Severity) {
        let template = item.template;
        let slot = (self.kept.iter())
            .rposition(|k| k.template == template && k.severity == Some(replaced));
        let Some(slot) = slot else {
            if self.listing() {
                self.list(item);
            }
            return;
        };
        let severity = item.severity;
        let old = std::mem::replace(&mut self.kept[slot], item);
        let kept_last = (self.kept.iter())
            .filter(|k| k.template == template)
            .map(|k| k.line)
            .max()
            .unwrap_or(0);
        if let Some(note) = self.notes.get_mut(&template) {
            note.remove_kept(old.severity);
            note.add_kept(severity);
            note.kept_last = kept_last;
        }
        if self.listing() {
            self.list(old);
        }
    }

    /// Keeps `item` in place of the last entry kept of its template, which comes after
    /// it; that one is listed where entries are.
    fn keep_earlier(&mut self, item: Kept) {
        let template = self.miner.resolve(item.template);
        let of_template = |k: &Kept| self.miner.resolve(k.template) == template;
        // (Not a worse one: a template's worst entry is kept.)
        let last = (self.kept.iter().enumerate())
            .filter(|(_, k)| of_template(k) && k.line > item.line && k.severity <= item.severity)
            .max_by_key(|(_, k)| k.line)
            .map(|(slot, _)| slot);
        let Some(slot) = last else {
            if self.listing() {
                self.list(item);
            }
            return;
        };
        let (template, severity) = (item.template, item.severity);
        let old = std::mem::replace(&mut self.kept[slot], item);
        let kept_last = (self.kept.iter())
            .filter(|k| of_template(k))
            .map(|k| k.line)
            .max()
            .unwrap_or(0);
        if let Some(note) = self.notes.get_mut(&old.template) {
            note.kept_last = kept_last;
            note.remove_kept(old.severity);
        }
        if let Some(note) = self.notes.get_mut(&template) {
            note.add_kept(severity);
        }
        if self.listing() {
            self.list(old);
        }
    }

    /// End of input: emits the items (as [`Value`]s) and returns the aggregates and the
    /// first entry of the worst severity seen (for the summary).
    pub fn finish(&mut self, out: &mut dyn FnMut(u64, Value)) -> (FoldStats, Option<Value>) {
        let mut listed = std::mem::take(&mut self.listed);
        listed.sort_by_key(|k| k.line);
        for k in listed {
            out(LISTED_RANK, self.listed_value(&k));
        }
        let whole = self.whole.take().filter(|w| !w.entries.is_empty());
        self.returned_whole = whole.is_some();
        // Entries returned whole are the items, instead of the ranked ones.
        let mut ranked = |rank: u64, item: Value| {
            if whole.is_none() {
                out(rank, item);
            }
        };
        let miner = &self.miner;
        let names = self.names;
        // Merged templates: fold notes kept under old ids into the survivors.
        let mut notes: HashMap<GroupId, Note> = HashMap::new();
        let mut old: Vec<(GroupId, Note)> = self.notes.drain().collect();
        old.sort_by_key(|(_, n)| n.first.0);
        for (id, note) in old {
            match notes.entry(miner.resolve(id)) {
                std::collections::hash_map::Entry::Vacant(v) => {
                    v.insert(note);
                }
                std::collections::hash_map::Entry::Occupied(mut o) => {
                    let kept = o.get_mut();
                    kept.at_severity = match note.severity.cmp(&kept.severity) {
                        std::cmp::Ordering::Greater => note.at_severity,
                        std::cmp::Ordering::Equal => kept.at_severity + note.at_severity,
                        std::cmp::Ordering::Less => kept.at_severity,
                    };
                    kept.severity = kept.severity.max(note.severity);
                    kept.kept.merge(note.kept);
                    for (sum, n) in kept.levels.iter_mut().zip(note.levels) {
                        *sum += n;
                    }
                    kept.first_micros = earliest(kept.first_micros, note.first_micros);
                    kept.last_micros = latest(kept.last_micros, note.last_micros);
                }
            }
        }
        let groups = &self.groups;
        let entry_value = |k: &Kept| entry_value(k, miner, names, groups, Some(&notes));

        // 0 and 2: serious entries, worst first, then rarest template, then earliest.
        let mut kept = std::mem::take(&mut self.kept);
        for k in &mut kept {
            k.template = miner.resolve(k.template);
        }
        // Within a severity, by the level the source names (journald's emerg first).
        let worst_first = self.names.worst_first;
        let urgency = |k: &Kept| {
            let level = match worst_first {
                true => usize::MAX - k.level,
                false => k.level,
            };
            (k.severity, level)
        };
        kept.sort_by(|a, b| {
            urgency(b)
                .cmp(&urgency(a))
                .then(
                    miner
                        .count_alike(a.template)
                        .cmp(&miner.count_alike(b.template)),
                )
                .then(a.line.cmp(&b.line))
        });
        let worst = kept
            .iter()
            .min_by_key(|k| (std::cmp::Reverse(urgency(k)), k.line))
            .map(entry_value);
        let mut shown: Vec<u64> = kept.iter().map(|k| k.line).collect();
        shown.extend(self.listed_edges.into_iter().flatten());
        let mut seen = std::collections::HashSet::new();
        let (firsts, repeats): (Vec<_>, Vec<_>) =
            kept.into_iter().partition(|k| seen.insert(k.template));
        for k in &firsts {
            ranked(0, entry_value(k));
        }
        // 1: the first and last entries.
        let mut edges: Vec<&Kept> = self.first.iter().collect();
        if self.entries > 1 {
            edges.push(&self.last);
        }
        for k in edges {
            if !shown.contains(&k.line) {
                shown.push(k.line);
                ranked(1, entry_value(k));
            }
        }
        for k in &repeats {
            ranked(2, entry_value(k));
        }

        // Per-template group counts, for templates' items and the stats.
        let mut by_template: HashMap<GroupId, Vec<(u32, u64)>> = HashMap::new();
        let mut by_group: HashMap<u32, Vec<(GroupId, u64)>> = HashMap::new();
        let mut pairs: HashMap<(u32, GroupId), u64> = HashMap::new();
        for (&(g, t), &n) in &self.pairs {
            *pairs.entry((g, miner.resolve(t))).or_insert(0) += n;
        }
        for (&(g, t), &n) in &pairs {
            by_template.entry(t).or_default().push((g, n));
            by_group.entry(g).or_default().push((t, n));
        }

        // 3: templates seen once, verbatim; 4: the others by count.
        let templates = miner.templates_by_count();
        let mut once: Vec<_> = templates
            .iter()
            .filter(|t| t.count() == 1 && !shown.contains(&t.first_line()))
            .filter(|t| !notes.get(&t.id()).is_some_and(|note| note.first_listed))
            .collect();
        once.sort_by_key(|t| {
            let note = notes.get(&t.id());
            (
                std::cmp::Reverse(note.and_then(|n| n.severity)),
                t.first_line(),
            )
        });
        for t in &once {
            let Some(note) = notes.get(&t.id()) else {
                continue;
            };
            let (line, level, group, pid) = note.first.clone();
            let item = Kept {
                line,
                micros: note.first_micros,
                level,
                severity: note.severity,
                group,
                pid,
                text: briefly_core::cut_str(&briefly_text::example(t), MAX_KEPT_CHARS).into_owned(),
                more: Vec::new(),
                more_cut: 0,
                more_gaps: Vec::new(),
                template: t.id(),
                listed_count: None,
            };
            ranked(3, entry_value(&item));
        }
        for t in &templates {
            let note = notes.get(&t.id());
            if t.count() == 1 || note.is_some_and(|n| u64::from(n.kept.total()) >= t.count()) {
                continue; // shown verbatim already
            }
            let mut item = Map::new();
            item.insert("kind".into(), "template".into());
            item.insert("id".into(), t.id().0.into());
            item.insert("template".into(), t.text().into());
            item.insert("count".into(), t.count().into());
            if let Some((severity, n)) = note.and_then(|n| Some((n.severity?, n))) {
                item.insert("severity".into(), severity.name().into());
                // How many are at it, when not all (as `text`'s templates say).
                if n.at_severity < t.count() {
                    item.insert("severity_count".into(), n.at_severity.into());
                }
            }
            if let Some(n) = note {
                // One template may be logged at several levels: how often at each.
                let levels: Map<String, Value> = names
                    .levels
                    .iter()
                    .zip(n.levels)
                    .filter(|(_, count)| *count > 0)
                    .map(|(name, count)| (name.to_string(), count.into()))
                    .collect();
                item.insert(names.levels_key.into(), Value::Object(levels));
                item.insert(
                    "first_time".into(),
                    n.first_micros.map(format_micros).into(),
                );
                item.insert("last_time".into(), n.last_micros.map(format_micros).into());
            }
            let mut spread = by_template.get(&t.id()).cloned().unwrap_or_default();
            spread.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            let listed: u64 = spread.iter().take(TOP_PER_GROUP).map(|(_, n)| *n).sum();
            let left_out = t.count().saturating_sub(listed);
            let spread: Map<String, Value> = spread
                .iter()
                .take(TOP_PER_GROUP)
                .map(|(g, n)| (groups[*g as usize].0.clone(), (*n).into()))
                .collect();
            item.insert(format!("{}s", names.group), Value::Object(spread));
            // The entries of the groups past those listed (`units_left_out`).
            if left_out > 0 {
                item.insert(format!("{}s_left_out", names.group), left_out.into());
            }
            item.insert("first_line".into(), t.first_line().into());
            item.insert(
                "example".into(),
                briefly_core::cut_str(&briefly_text::example(t), MAX_KEPT_CHARS).into(),
            );
            ranked(4, Value::Object(item));
        }

        // The stats.
        let mut order: Vec<u32> = (0..self.groups.len() as u32).collect();
        order.sort_by(|a, b| {
            let (na, nb) = (&self.groups[*a as usize], &self.groups[*b as usize]);
            nb.1.entries.cmp(&na.1.entries).then(na.0.cmp(&nb.0))
        });
        let mut groups = BTreeMap::new();
        let mut top_templates = BTreeMap::new();
        for &g in order.iter().take(TOP_GROUPS) {
            let (name, counts) = &self.groups[g as usize];
            groups.insert(name.clone(), counts.clone());
            let mut list = by_group.get(&g).cloned().unwrap_or_default();
            list.sort_by(|a, b| b.1.cmp(&a.1).then(a.0 .0.cmp(&b.0 .0)));
            let list = list
                .iter()
                .take(TOP_PER_GROUP)
                .filter_map(|(t, n)| match t.shown() {
                    Some(id) => {
                        let text = miner.get(*t).map(|t| t.text())?;
                        Some(json!({"id": id, "template": text, "count": n}))
                    }
                    None => Some(json!({"template": OTHER_TEMPLATE, "count": n})),
                })
                .collect();
            top_templates.insert(name.clone(), list);
        }
        if order.len() > TOP_GROUPS {
            let mut rest = GroupCounts::default();
            for &g in &order[TOP_GROUPS..] {
                let c = &self.groups[g as usize].1;
                rest.entries += c.entries;
                rest.errors += c.errors;
                rest.warnings += c.warnings;
            }
            groups.insert("(more)".to_string(), rest);
        }
        let stats = FoldStats {
            entries: self.entries,
            levels: names
                .levels
                .iter()
                .copied()
                .zip(self.level_counts.iter().copied())
                .filter(|(_, n)| *n > 0)
                .collect(),
            groups,
            distinct_groups: self.groups.len(),
            time_span: self.span.formatted(),
            templates: miner.len(),
            other_entries: miner.overflow_count(),
            multiline_entries: self.multiline,
            redrawn_entries: self.redrawn,
            ansi_entries: self.ansi,
            top_templates,
        };
        if let Some(whole) = whole {
            // In input order: docker's two streams' entries were folded in as they ended.
            let mut entries = whole.entries;
            entries.sort_by_key(|k| k.line);
            let (mut serious, others): (Vec<Kept>, Vec<Kept>) = entries
                .into_iter()
                .partition(|k| k.severity >= Some(Severity::Warn));
            serious.sort_by_key(|k| (std::cmp::Reverse(urgency(k)), k.line));
            for k in &serious {
                out(0, entry_value(k));
            }
            for k in &others {
                out(1, entry_value(k));
            }
        }
        (stats, worst)
    }

    /// Warnings about what the fold could not keep apart.
    pub fn warnings(&self) -> Vec<String> {
        let mut warnings = Vec::new();
        if self.miner.overflow_count() > 0 {
            warnings.push(format!(
                "{} past the cap of {} templates counted as \"other\"",
                counted(self.miner.overflow_count(), "entry is", "entries are"),
                self.miner.config().max_templates
            ));
        }
        if self.groups.len() >= MAX_GROUPS {
            warnings.push(format!(
                "more than {MAX_GROUPS} distinct {}s: the rest are counted as {OTHER_GROUP}",
                self.names.group
            ));
        }
        if self.redrawn > 0 {
            warnings.push(format!(
                "{} redrawn with carriage returns (progress bars): each is read and shown in \
                 its last state (or a worse one it drew over), the whole in the artifact",
                counted(self.redrawn, "entry was", "entries were")
            ));
        }
        if self.ansi > 0 {
            warnings.push(format!(
                "{} ANSI colour codes: read and shown without them, the whole in the artifact",
                counted(self.ansi, "entry had", "entries had")
            ));
        }
        if self.pairs_left_out > 0 {
            warnings.push(format!(
                "{} left out of the per-{} template counts (over {MAX_PAIRS} pairs)",
                counted(self.pairs_left_out, "entry is", "entries are"),
                self.names.group
            ));
        }
        warnings
    }
}

/// The summary's clause for the worst entry shown: "; first LEVEL at TIME (GROUP):
/// MESSAGE", its message cut in its middle to 160 characters
/// ([`briefly_core::cut_middle`]: its end often says why), in the reducer's vocabulary; an entry
/// over several lines by its first and the line that says what went wrong (a
/// traceback's exception), as `text` names a record.
pub fn worst_clause(worst: &Value, names: &Names) -> String {
    let first = worst["message"].as_str().unwrap_or_default();
    // A traceback by what went wrong, after its first line, as `text` names it.
    let more = worst["more"].as_array().into_iter().flatten();
    let message = match what_went_wrong(first, more.filter_map(Value::as_str)) {
        Some(name) => format!(
            "{} … {}",
            briefly_core::cut_str(first, 80),
            briefly_core::cut_middle(name.trim_start(), 160)
        ),
        None => briefly_core::cut_middle(first, 160).into_owned(),
    };
    let level = worst[names.level].as_str().unwrap_or_default();
    // An entry its text ranks above its level: by both (`error (priority info)`).
    let level = match worst["severity"].as_str() {
        Some(severity) => format!("{severity} ({} {level})", names.level),
        None => level.to_string(),
    };
    format!(
        "; first {level} at {} ({}): {message}",
        worst["time"].as_str().unwrap_or("unknown time"),
        worst[names.group].as_str().unwrap_or_default(),
    )
}

/// `message` as a terminal shows it when a line of it was redrawn with carriage returns:
/// each such line in its last state, or a worse one it drew over
/// ([`briefly_text::drawn_state`]); `None` when none was (a line's ending `\r` is no
/// redrawing).
fn redrawn(message: &str) -> Option<String> {
    memchr::memchr(b'\r', message.as_bytes())?;
    let lines = || message.split('\n').map(|line| line.trim_end_matches('\r'));
    if !lines().any(|line| line.contains('\r')) {
        return None;
    }
    let shown = lines().map(|line| briefly_text::drawn_state(line).unwrap_or(line));
    Some(shown.collect::<Vec<_>>().join("\n"))
}

/// An entry's item. `notes` (the templates', merged) add how many of its template are at
/// its severity; without them, as for an entry listed as it is folded in, its template
/// and count are as they are then.
fn entry_value(
    k: &Kept,
    miner: &Miner,
    names: Names,
    groups: &[(String, GroupCounts)],
    notes: Option<&HashMap<GroupId, Note>>,
) -> Value {
    let id = match k.listed_count {
        Some(_) => k.template,
        None => miner.resolve(k.template),
    };
    let mut item = Map::new();
    item.insert("kind".into(), "entry".into());
    item.insert("line".into(), k.line.into());
    item.insert("time".into(), k.micros.map(format_micros).into());
    item.insert(
        names.group.into(),
        groups[k.group as usize].0.as_str().into(),
    );
    item.insert(names.level.into(), names.levels[k.level].into());
    let named = names.level_severities.get(k.level).copied().flatten();
    if let Some(severity) = k.severity.filter(|_| !names.level_severities.is_empty()) {
        if Some(severity) > named {
            item.insert("severity".into(), severity.name().into());
        }
    }
    if let Some(pid) = &k.pid {
        item.insert("pid".into(), pid.as_str().into());
    }
    item.insert("message".into(), k.text.as_str().into());
    if !k.more.is_empty() {
        item.insert("more".into(), k.more.clone().into());
    }
    if k.more_cut > 0 {
        item.insert("more_cut".into(), k.more_cut.into());
    }
    if !k.more_gaps.is_empty() {
        item.insert("more_gaps".into(), json!(k.more_gaps));
    }
    // Past the template cap an entry has no template of its own.
    if let Some(id) = id.shown() {
        item.insert("template".into(), id.into());
    }
    let count = k.listed_count.unwrap_or_else(|| miner.count_alike(id));
    item.insert("count".into(), count.into());
    // How many are at its severity, when not all and it is its template's worst
    // (as the template's item says): `[error, ×15 of 151]`; below that, how many are at
    // its level (journald's 4 `debug` of a template of 8 `notice` and them).
    if let Some(note) = notes.and_then(|notes| notes.get(&id)) {
        let at = match note.severity == k.severity {
            true => k.severity.map(|_| note.at_severity),
            false => note.levels.get(k.level).copied(),
        };
        if let Some(at) = at.filter(|&at| at < count) {
            item.insert("severity_count".into(), at.into());
        }
    }
    Value::Object(item)
}

/// An entry held to be returned whole: its lines as they are, none cut or left out.
fn kept_whole(
    entry: &Entry<'_>,
    first: &str,
    rest: Option<&str>,
    group: u32,
    template: GroupId,
) -> Kept {
    let more = rest.into_iter().flat_map(|rest| rest.split('\n'));
    Kept {
        line: entry.line,
        micros: entry.micros,
        level: entry.level,
        severity: entry.severity,
        group,
        pid: entry.pid.map(str::to_string),
        text: first.to_string(),
        more: more.map(|l| l.trim_end_matches('\r').to_string()).collect(),
        more_cut: 0,
        more_gaps: Vec::new(),
        template,
        listed_count: None,
    }
}

/// An entry held verbatim: its lines cut to [`MAX_KEPT_CHARS`], at most
/// [`MAX_ENTRY_LINES`] of them.
fn kept(entry: &Entry<'_>, first: &str, rest: Option<&str>, group: u32, template: GroupId) -> Kept {
    let mut k = Kept::default();
    fill(&mut k, entry, first, rest, group, template);
    k
}

/// [`kept`] into an existing one, reusing its buffers (this runs for every entry).
fn fill(
    k: &mut Kept,
    entry: &Entry<'_>,
    first: &str,
    rest: Option<&str>,
    group: u32,
    template: GroupId,
) {
    k.line = entry.line;
    k.micros = entry.micros;
    k.level = entry.level;
    k.severity = entry.severity;
    k.group = group;
    match (entry.pid, &mut k.pid) {
        (Some(pid), Some(held)) => {
            held.clear();
            held.push_str(pid);
        }
        (pid, held) => *held = pid.map(str::to_string),
    }
    k.text.clear();
    push_kept(&mut k.text, first);
    k.more.clear();
    let mut lines = KeptLines::default();
    for line in rest.into_iter().flat_map(|rest| rest.split('\n')) {
        let line = line.trim_end_matches('\r');
        let kept = briefly_core::cut_str(line, MAX_KEPT_CHARS);
        // Past the head, a cause, an error and a Go test's own frame are kept in a long
        // entry's middle (as `text` keeps them).
        let decisive = k.more.len() >= KeptLines::HEAD
            && (is_cause(line)
                || is_go_test_frame(line)
                || classify(line) >= Some(Severity::Error));
        lines.push(&mut k.more, &kept, decisive);
    }
    k.more_cut = lines.finish(&mut k.more, &mut k.more_gaps);
    k.template = template;
}

/// `text` onto `out`, cut to [`MAX_KEPT_CHARS`] with a marker.
fn push_kept(out: &mut String, text: &str) {
    out.push_str(&briefly_core::cut_str(text, MAX_KEPT_CHARS));
}

/// Asserts that an envelope's `stats` have the span of the entries folded end where the
/// span of those read does, at a time `end` accepts: a record's last line's, not its
/// first's (docker's and journal's tests of records of several lines).
#[cfg(test)]
pub(crate) fn assert_span_ends_at_last_line(stats: &Value, end: impl Fn(&str) -> bool) {
    assert_eq!(stats["time_span"], stats["read_time_span"], "{stats}");
    assert!(stats["time_span"][1].as_str().is_some_and(end), "{stats}");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Entries count under their group's name; past [`MAX_GROUPS`] names, under
    /// `(other)`.
    #[test]
    fn groups_are_counted_by_name_up_to_the_cap() {
        let mut fold = Fold::new(Names {
            group: "unit",
            level: "level",
            levels: &["info"],
            levels_key: "levels",

            worst_first: false,
            level_severities: &[],
        });
        let mut add = |group: &str| {
            fold.add(&Entry {
                line: 1,
                micros: None,
                level: 0,
                severity: None,
                group,
                pid: None,
                message: "started",
                ansi: false,
            })
        };
        for n in 0..MAX_GROUPS + 5 {
            add(&format!("unit{n}"));
            add(&format!("unit{n}"));
        }
        add("unit3");
        add(&format!("unit{}", MAX_GROUPS + 2));
        add("(other)");
        let count = |name: &str| {
            let (_, counts) = fold.groups.iter().find(|(n, _)| n == name).expect(name);
            counts.entries
        };
        assert_eq!(fold.groups.len(), MAX_GROUPS + 1);
        assert_eq!(count("unit3"), 3);
        assert_eq!(count(&format!("unit{}", MAX_GROUPS - 1)), 2);
        assert_eq!(count(OTHER_GROUP), 5 * 2 + 2);
        assert_eq!(fold.entries(), 2 * (MAX_GROUPS as u64 + 5) + 3);
    }

    #[test]
    fn a_templates_units_past_those_listed_are_counted() {
        let mut fold = Fold::new(Names {
            group: "unit",
            level: "level",
            levels: &["info"],
            levels_key: "levels",

            worst_first: false,
            level_severities: &[],
        });
        // 4 units log the same message, 40, 30, 20 and 10 times.
        for (unit, times) in [("a", 40), ("b", 30), ("c", 20), ("d", 10)] {
            for n in 0..times {
                fold.add(&Entry {
                    line: n,
                    micros: None,
                    level: 0,
                    severity: None,
                    group: unit,
                    pid: None,
                    message: "request done",
                    ansi: false,
                });
            }
        }
        let mut templates = Vec::new();
        fold.finish(&mut |_, item| {
            if item["kind"] == "template" {
                templates.push(item);
            }
        });
        let template = &templates[0];
        assert_eq!(
            template["units"],
            json!({"a": 40, "b": 30, "c": 20}),
            "{template}"
        );
        assert_eq!(template["units_left_out"], 10);
    }

    #[test]
    fn a_templates_worse_entry_takes_the_place_of_one_of_several_kept() {
        // The entries kept of one template's, at these levels (0 warn, 1 error, 2 fatal)
        // on these lines, each by its line and level.
        let kept_on = |entries: &[(u64, usize)]| {
            let mut fold = Fold::new(Names {
                group: "stream",
                level: "level",
                levels: &["warn", "error", "fatal"],
                levels_key: "levels",
                worst_first: false,
                level_severities: &[],
            });
            let messages: Vec<String> = (0..entries.len())
                .map(|n| format!("request {n} done"))
                .collect();
            for (n, &(line, level)) in entries.iter().enumerate() {
                fold.add(&Entry {
                    line,
                    micros: None,
                    level,
                    severity: Some(Severity::ALL[level + 3]),
                    group: "stdout",
                    pid: None,
                    message: &messages[n],
                    ansi: false,
                });
            }
            let mut kept = Vec::new();
            fold.finish(&mut |rank, item| {
                if item["kind"] == "entry" && rank != 1 {
                    kept.push((item["line"].as_u64().unwrap(), item["level"].clone()));
                }
            });
            kept.sort_by_key(|(line, _)| *line);
            kept
        };
        let kept_of = |levels: &[usize]| {
            let entries: Vec<_> = (1..).zip(levels.iter().copied()).collect();
            kept_on(&entries)
        };
        // Warnings first, more than it keeps: the first error takes a warning's place,
        // the others none (the last kept of its level is left).
        assert_eq!(
            kept_of(&[0, 0, 0, 1, 1, 1]),
            [(1, json!("warn")), (4, json!("error"))]
        );
        // Worse than all kept, the least severe one's.
        assert_eq!(
            kept_of(&[0, 0, 0, 1, 1, 1, 2]),
            [(4, json!("error")), (7, json!("fatal"))]
        );
        assert_eq!(
            kept_of(&[0, 0, 1, 1]),
            [(1, json!("warn")), (3, json!("error"))]
        );
        // Errors first: the first warning takes an error's place, one of each level.
        assert_eq!(
            kept_of(&[1, 1, 0, 0]),
            [(1, json!("error")), (3, json!("warn"))]
        );
        // Folded in late though it came first (another stream's), a warning takes the
        // place of the latest warning kept after it, not of the error.
        assert_eq!(
            kept_on(&[(10, 0), (11, 1), (3, 0)]),
            [(3, json!("warn")), (11, json!("error"))]
        );
    }

    #[test]
    fn entries_past_the_template_cap_have_no_template() {
        let mut fold = Fold::new(Names {
            group: "unit",
            level: "level",
            levels: &["info", "error"],
            levels_key: "levels",

            worst_first: false,
            level_severities: &[],
        });
        fold.miner = Miner::new(briefly_template::Config {
            max_templates: 2,
            ..briefly_template::Config::default()
        });
        let messages = ["request done"; 5].into_iter().chain([
            "heartbeat",
            "disk lost",
            "fan lost",
            "power lost",
        ]);
        for (line, message) in (1..).zip(messages) {
            let serious = message.ends_with("lost");
            fold.add(&Entry {
                line,
                micros: None,
                level: usize::from(serious),
                severity: serious.then_some(Severity::Error),
                group: "a",
                pid: None,
                message,
                ansi: false,
            });
        }
        let mut entries = Vec::new();
        let (stats, _) = fold.finish(&mut |_, item| {
            if item["kind"] == "entry" && item["message"].as_str().unwrap().ends_with("lost") {
                entries.push(item);
            }
        });
        assert_eq!(entries.len(), 3, "{entries:?}");
        for entry in &entries {
            assert_eq!(entry.get("template"), None, "{entry}");
            assert_eq!(entry["count"], 1, "{entry}");
        }
        assert_eq!(
            stats.top_templates["a"][0],
            json!({"id": 0, "template": "request done", "count": 5})
        );
        assert!(
            stats.top_templates["a"].contains(&json!({"template": OTHER_TEMPLATE, "count": 3})),
            "{:?}",
            stats.top_templates
        );
    }

    /// What `fold` emits at its end, as (rank, line, message).
    fn emitted(fold: &mut Fold) -> Vec<(u64, u64, String)> {
        let mut items = Vec::new();
        fold.finish(&mut |rank, item| {
            let message = item["message"].as_str().unwrap_or("(template)").to_string();
            items.push((rank, item["line"].as_u64().unwrap_or(0), message));
        });
        items
    }

    #[test]
    fn entries_whose_messages_are_small_come_back_whole() {
        let names = Names {
            group: "unit",
            level: "level",
            levels: &["info", "warn", "error"],
            levels_key: "levels",

            worst_first: false,
            level_severities: &[],
        };
        let long_line = "x".repeat(MAX_KEPT_CHARS + 10);
        let many_lines = "at frame\n".repeat(MAX_ENTRY_LINES + 5);
        let traceback = format!("Traceback:\n{many_lines}{long_line}");
        let entries: [(usize, Option<Severity>, &str); 5] = [
            (0, None, "served 1"),
            (1, Some(Severity::Warn), "slow"),
            (0, None, "served 2"),
            (2, Some(Severity::Error), &traceback),
            (0, None, "served 3"),
        ];
        // Each message, and the end of each before the last.
        let chars = entries
            .iter()
            .map(|e| e.2.chars().count() + 1)
            .sum::<usize>()
            - 1;
        let fold_with = |limit: usize| {
            let mut fold = Fold::new(names);
            fold.return_whole_up_to(limit);
            for (i, &(level, severity, message)) in entries.iter().enumerate() {
                fold.add(&Entry {
                    line: i as u64 + 1,
                    micros: None,
                    level,
                    severity,
                    group: "app",
                    pid: None,
                    message,
                    ansi: false,
                });
            }
            fold
        };
        let mut whole = fold_with(chars);
        let items = emitted(&mut whole);
        assert!(whole.returned_whole());
        // Every entry once: warnings and worse first, worst first; then the rest in order.
        let order: Vec<(u64, u64)> = items.iter().map(|(rank, line, _)| (*rank, *line)).collect();
        assert_eq!(order, [(0, 4), (0, 2), (1, 1), (1, 3), (1, 5)]);
        // Nothing cut, however long or many its lines.
        let mut more = Vec::new();
        whole = fold_with(chars);
        whole.finish(&mut |_, item| {
            if item["line"] == 4 {
                more = item["more"].as_array().unwrap().clone();
                assert_eq!(item.get("more_cut"), None);
            }
        });
        assert_eq!(more.len(), MAX_ENTRY_LINES + 6);
        assert_eq!(more.last().unwrap().as_str(), Some(long_line.as_str()));
        // A character more than the limit, or a limit of 0: folded and ranked.
        for limit in [chars - 1, 0] {
            let mut folded = fold_with(limit);
            let items = emitted(&mut folded);
            assert!(!folded.returned_whole(), "{limit}");
            assert!(items.iter().any(|(_, _, m)| m == "(template)"), "{items:?}");
        }
    }

    #[test]
    fn a_message_redrawn_with_carriage_returns_is_read_in_its_last_state() {
        let mut fold = Fold::new(Names {
            group: "stream",
            level: "level",
            levels: &["info"],
            levels_key: "levels",

            worst_first: false,
            level_severities: &[],
        });
        fold.return_whole_up_to(1_000);
        let messages = [
            "get 1%\rget 50%\rget 100%",
            "a\rb\nc\rd",
            "crlf\r",
            "plain",
            "10%\rERROR: disk full\r100%",
        ];
        for (i, message) in messages.into_iter().enumerate() {
            let entry = Entry {
                line: i as u64 + 1,
                micros: None,
                level: 0,
                severity: None,
                group: "stdout",
                pid: None,
                message,
                ansi: false,
            };
            // What was masked ahead of time is of the raw message, frames and all.
            let mut masked = MaskedLine::default();
            masked.fill(message, fold.miner_config());
            fold.add_prepared(&entry, &mut masked);
        }
        let mut shown = Vec::new();
        let (stats, _) = fold.finish(&mut |_, item| shown.push(item));
        let text = |line: u64| {
            let item = shown.iter().find(|i| i["line"] == line).unwrap();
            (item["message"].clone(), item.get("more").cloned())
        };
        assert_eq!(text(1).0, "get 100%");
        assert_eq!(text(2), (json!("b"), Some(json!(["d"]))));
        // An error a progress bar drew over is what its line shows.
        assert_eq!(text(5).0, "ERROR: disk full");
        assert_eq!(
            stats.redrawn_entries, 3,
            "a line's ending \\r is no redrawing"
        );
        assert!(fold.warnings()[0].starts_with("3 entries were redrawn"));
        let templates: Vec<String> = fold.miner.templates().map(|t| t.text()).collect();
        assert!(templates.contains(&"get <*>%".to_string()), "{templates:?}");
    }
}
