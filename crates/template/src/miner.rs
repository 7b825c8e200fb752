//! The streaming template miner.

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher as StdHasher};
use std::sync::{Arc, LazyLock};

use crate::align::{align, align_into, Step};
use crate::mask::{bytes_eq, hash_bytes, Masked, TokenKind, WILDCARD};
use crate::shape::Masker;

/// Identifier of a group of lines (one template).
///
/// Ids are assigned in order of first appearance, starting at 0, so the same
/// input always yields the same ids. When the miner later finds that two
/// groups are one (for example after seeing enough distinct values in a
/// position to know it is variable), the younger group is merged into the
/// older one: its id stays valid and [`Miner::resolve`] maps it to the
/// surviving id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GroupId(pub u32);

impl GroupId {
    /// The overflow group: lines that needed a new template while the miner
    /// was at its [`Config::max_templates`] cap. They are counted, never lost.
    pub const OVERFLOW: GroupId = GroupId(u32::MAX);

    /// Whether this is [`GroupId::OVERFLOW`].
    pub fn is_overflow(self) -> bool {
        self == Self::OVERFLOW
    }

    /// The id as output shows it: none for the overflow group, whose lines are in no
    /// group of lines alike.
    ///
    /// ```
    /// use briefly_template::GroupId;
    /// assert_eq!(GroupId(7).shown(), Some(7));
    /// assert_eq!(GroupId::OVERFLOW.shown(), None);
    /// ```
    pub fn shown(self) -> Option<u32> {
        (!self.is_overflow()).then_some(self.0)
    }
}

impl fmt::Display for GroupId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_overflow() {
            f.write_str("overflow")
        } else {
            write!(f, "{}", self.0)
        }
    }
}

/// A line's masked tokens, worked out apart from a [`Miner`] and added to it with
/// [`Miner::add_prepared`]. Masking is a pure function of the line, the costly part of
/// adding one, and can run ahead on another thread; the buffers are reused by each fill.
/// A [`Masker`] fills it the same way, faster on lines of repeated shapes (as
/// [`Miner::add_numbered`] does).
#[derive(Debug, Default, Clone)]
pub struct MaskedLine(pub(crate) Masked);

impl MaskedLine {
    /// Masks `line` as a miner with `config` does.
    pub fn fill(&mut self, line: &str, config: &Config) {
        self.0.fill(
            trim_newline(line),
            config.max_tokens,
            config.max_token_bytes,
        );
    }
}

/// Settings of a [`Miner`]. Every field has a documented default
/// ([`Config::default`]); the defaults are meant for any log, no per-source
/// tuning.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Maximum number of live templates (groups). A line that would need a
    /// new template beyond it goes to [`GroupId::OVERFLOW`]. Default 10,000.
    ///
    /// It also bounds the rest of the state: at most 4 fixed-length
    /// patterns per template on average, a lookup cache of 8 entries per
    /// template, and at most 16 ids ever issued per template (merged ids
    /// stay resolvable; past that, lines needing a new template go to the
    /// overflow group too).
    pub max_templates: usize,
    /// Minimum share of plain tokens (words and names without masked parts)
    /// that a line and a template must have in common for the line to join
    /// it when their other differences look like values. Measured against
    /// the larger of the two. Between 0 and 1. Default 0.7.
    pub similarity: f64,
    /// A token position becomes variable once this many lines that are
    /// otherwise identical show this many distinct words in it (`root`,
    /// `admin`, `guest`, `oracle` ...). Fewer distinct words are kept as
    /// separate templates (`GET` / `POST` / `DELETE`). Default 4.
    pub min_distinct_values: usize,
    /// Maximum difference in token count between a line and a template it
    /// may join (values that span several tokens, such as `18846 bytes
    /// (18.4 KB)`). 0 disables variable-length matching. Default 4.
    pub max_length_delta: usize,
    /// Only the first `max_tokens` tokens of a line are compared; the rest
    /// of a longer line is treated as one variable tail. Default 128.
    pub max_tokens: usize,
    /// Tokens longer than this many bytes are treated as variables. Default
    /// 512.
    pub max_token_bytes: usize,
    /// Example lines kept with templates are truncated to this many bytes.
    /// Default 4096.
    pub max_example_bytes: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_templates: 10_000,
            similarity: 0.7,
            min_distinct_values: 4,
            max_length_delta: 4,
            max_tokens: 128,
            max_token_bytes: 512,
            max_example_bytes: 4096,
        }
    }
}

/// A template: the shared text of a group of lines, with statistics.
#[derive(Clone, Debug)]
pub struct Template {
    id: GroupId,
    tokens: Vec<Text>,
    count: u64,
    first_line: u64,
    last_line: u64,
    example: String,
    /// Characters of the example's line past [`Config::max_example_bytes`].
    example_cut: u64,
    /// The display holds a key's `<*>` made of values that differed (`rhost=<*>`): a
    /// line that fits a shape of the group unseen is checked against it, since the
    /// shape's `<*>` there takes any value.
    keyed: bool,
}

impl Template {
    /// The group id (for a live template, its own root id).
    pub fn id(&self) -> GroupId {
        self.id
    }

    /// Template text: tokens joined by single spaces, variable parts shown
    /// as `<*>`.
    pub fn text(&self) -> String {
        self.tokens.join(" ")
    }

    /// Template tokens (variable parts shown as `<*>`).
    pub fn tokens(&self) -> impl Iterator<Item = &str> {
        self.tokens.iter().map(|t| &**t)
    }

    /// Number of lines in the group (including merged groups).
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Line number of the first line of the group.
    pub fn first_line(&self) -> u64 {
        self.first_line
    }

    /// Line number of the last line of the group.
    pub fn last_line(&self) -> u64 {
        self.last_line
    }

    /// The first line of the group, verbatim (without the line terminator),
    /// truncated to [`Config::max_example_bytes`].
    pub fn example(&self) -> &str {
        &self.example
    }

    /// How many characters of the example's line [`Template::example`] leaves out
    /// (0 when it is whole).
    pub fn example_cut(&self) -> u64 {
        self.example_cut
    }

    /// Makes `line` the example, cut to `max_bytes`.
    fn set_example(&mut self, line: &str, max_bytes: usize) {
        let kept = truncate(line, max_bytes);
        self.example.clear();
        self.example.push_str(kept);
        self.example_cut = line[kept.len()..].chars().count() as u64;
    }

    fn absorb(&mut self, other: &Template) {
        self.count += other.count;
        if other.first_line < self.first_line {
            self.first_line = other.first_line;
            self.example.clone_from(&other.example);
            self.example_cut = other.example_cut;
        }
        self.last_line = self.last_line.max(other.last_line);
        self.keyed |= other.keyed | merge_display(&mut self.tokens, &other.tokens, Seen::Lines);
    }
}

/// Identity hasher for keys that already are hashes.
#[derive(Default)]
struct IdHasher(u64);

impl StdHasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
    fn write_u32(&mut self, n: u32) {
        self.0 = u64::from(n);
    }
}

type IdMap<K, V> = HashMap<K, V, BuildHasherDefault<IdHasher>>;

/// A posting list: the live shapes of one length holding one word. Most hold a few
/// (a rare word's one shape), kept inline: a new template's words cost no allocation
/// each, and a list takes no more room than a `Vec`.
type Posting = smallvec::SmallVec<[u32; 4]>;

/// A token's text. Those of a new line's tokens are pieces of one copy of its masked
/// text, which they share with each other and with the shapes and displays that hold
/// them (a piece keeps its whole line alive); others (the wildcard, `key=<*>`) stand
/// alone. Most are copied from one to another as templates change, and a copy is then
/// a count. Any `Hash`, `Eq` or `Ord` must go through the text, as `PartialEq` does
/// (`Borrow<str>` says they agree).
///
/// `start..end` is a range of char boundaries of `all`: [`From<&str>`] and
/// [`Text::piece`], which make every `Text`, see to it, and `Deref` relies on it.
#[derive(Clone)]
struct Text {
    all: Arc<str>,
    start: u32,
    end: u32,
}

impl Text {
    /// `all[start..end]`, if that is a range of char boundaries of `all`.
    fn piece(all: &Arc<str>, start: u32, end: u32) -> Option<Text> {
        let boundary = |at: u32| all.is_char_boundary(at as usize);
        (start <= end && boundary(start) && boundary(end)).then(|| Text {
            all: all.clone(),
            start,
            end,
        })
    }
}

impl std::ops::Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        let (start, end) = (self.start as usize, self.end as usize);
        debug_assert!(start <= end && self.all.is_char_boundary(start));
        debug_assert!(self.all.is_char_boundary(end));
        // SAFETY: a range of char boundaries of `all` (see the type's doc). Slicing
        // would check them again on every use.
        unsafe { self.all.get_unchecked(start..end) }
    }
}

impl std::borrow::Borrow<str> for Text {
    fn borrow(&self) -> &str {
        self
    }
}

impl From<&str> for Text {
    fn from(text: &str) -> Text {
        Text {
            all: text.into(),
            start: 0,
            end: u32::try_from(text.len()).expect("a token is shorter than 4 GiB"),
        }
    }
}

impl From<String> for Text {
    fn from(text: String) -> Text {
        Text::from(text.as_str())
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        **self == **other
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

/// One token of a shape.
#[derive(Clone, Debug)]
struct Tok {
    text: Text,
    kind: TokenKind,
    hash: u64,
}

impl Tok {
    fn wild() -> Tok {
        static WILD: LazyLock<Tok> = LazyLock::new(|| Tok {
            text: WILDCARD.into(),
            kind: TokenKind::Wild,
            hash: hash_bytes(WILDCARD.as_bytes()),
        });
        WILD.clone()
    }
}

/// A fixed-length token pattern. A group owns one or more shapes (several
/// when lines of one event have different token counts).
#[derive(Clone, Debug)]
struct Shape {
    toks: Vec<Tok>,
    /// Sorted hashes of the plain tokens, for quick similarity bounds.
    words: Box<[u64]>,
    group: u32,
    live: bool,
    /// Made by merging many distinct words or values ([`MANY_DISTINCT_VALUES`]): few
    /// constants may be left, so it unifies only where two stay ([`unifiable`]).
    many: bool,
}

/// The streaming template miner. See the [crate documentation](crate).
#[derive(Debug)]
pub struct Miner {
    config: Config,
    /// Masks the lines given whole ([`Miner::add_numbered`]) into `masked`.
    masker: Masker,
    masked: MaskedLine,
    shapes: Vec<Shape>,
    /// Slots of dead shapes, reused first.
    free_shapes: Vec<u32>,
    live_shapes: usize,
    /// Union-find parent of each group; `parent[g] == g` for roots.
    parent: Vec<u32>,
    /// Template of each group; meaningful for roots only.
    groups: Vec<Template>,
    live_groups: usize,
    /// Live shapes by token count.
    by_len: IdMap<u32, Vec<u32>>,
    /// (token count, plain word) -> live shapes of that length holding the
    /// word; shapes without plain words are listed under word 0. Candidate
    /// templates for a line are those sharing a word with it.
    postings: IdMap<u64, Posting>,
    /// Plain word (0 for none) -> the lengths it has postings at; no entry when none.
    lengths: IdMap<u64, Lengths>,
    /// Masked-line hash -> shape that the line fits.
    cache: IdMap<u64, u32>,
    /// Stamped masked lines ([`Masked::stamp`]) that fit a shape, while no shape changes.
    fitted: Fitted,
    /// (position, word) -> number of templates created with that word at
    /// that position, for the first positions only (header fields).
    fields: IdMap<u64, u32>,
    /// Words that just became known field values, to merge on.
    promoted: Vec<(usize, u64)>,
    cache_capacity: usize,
    overflow: Template,
    /// Last line number used.
    last_line_no: u64,
    /// Lines added.
    total: u64,
    /// Scratch buffers for comparisons across lengths.
    scratch: Scratch,
    /// Scratch for [`Miner::candidates`], which only reads the miner otherwise.
    tally: std::cell::RefCell<Tally>,
}

/// Words shared with a line, counted per shape ([`Miner::candidates`]).
#[derive(Debug, Default)]
struct Tally {
    /// By shape index; zero again after each use.
    counts: Vec<u16>,
    /// (shape, count) of the shapes counted.
    counted: Vec<(u32, u16)>,
    /// (entries, key) of the posting lists holding the line's words.
    lists: Vec<(usize, u64)>,
}

#[derive(Debug, Default)]
struct Scratch {
    /// Sorted hashes of the plain words of the line being placed.
    words: Vec<u64>,
    /// How many of them are known header fields.
    line_fields: usize,
    /// How many of them are values of a key that name something by parts
    /// ([`named_value_key`]): a template with another value there may match them by the
    /// key.
    line_keyed: usize,
    /// Sorted hashes of every token of the line being placed, of any kind, for
    /// [`Miner::cannot_align`].
    tokens: Vec<u64>,
    /// Per nearby length, how many of the line's words have postings at it
    /// ([`Miner::find_other_len`]).
    words_at: Vec<usize>,
    /// Candidate shapes of the line's length ([`Miner::line_words`]).
    cands: Vec<u32>,
    /// The entries of the posting lists of the line's words at its length, in all
    /// (what `candidates` returns): at most [`MAX_POSTINGS`], none was cut short.
    postings: usize,
    /// Candidate shapes of another length ([`Miner::find_other_len`]).
    other: Vec<u32>,
    /// The plain words each candidate shares with the line ([`common`]), worked out once
    /// for the searches that read them.
    shared: Vec<usize>,
    dp: Vec<u16>,
    steps: Vec<Step>,
}

impl Default for Miner {
    fn default() -> Self {
        Miner::new(Config::default())
    }
}

/// The other side of a comparison: a masked line or a template.
#[derive(Clone, Copy)]
enum Side<'a> {
    Line(&'a Masked),
    Shape(&'a [Tok]),
}

impl Side<'_> {
    fn kind(&self, i: usize) -> TokenKind {
        match self {
            Side::Line(m) => m.kind(i),
            Side::Shape(t) => t[i].kind,
        }
    }

    fn hash(&self, i: usize) -> u64 {
        match self {
            Side::Line(m) => m.token_hash(i),
            Side::Shape(t) => t[i].hash,
        }
    }

    fn bytes(&self, i: usize) -> &[u8] {
        match self {
            Side::Line(m) => m.bytes(i),
            Side::Shape(t) => t[i].text.as_bytes(),
        }
    }
}

/// A table with room for [`PRESIZED`] entries, or `bound` if fewer.
fn presized<K, V>(bound: usize) -> IdMap<K, V> {
    IdMap::with_capacity_and_hasher(bound.min(PRESIZED), Default::default())
}

/// How many entries [`Miner::new`] makes room for in its tables up front.
const PRESIZED: usize = 2048;

/// Result of comparing a line with a shape.
struct Candidate {
    shape: u32,
    score: u32,
}

impl Miner {
    /// A miner with the given settings.
    pub fn new(config: Config) -> Self {
        let cache_capacity = config.max_templates.saturating_mul(8).max(1024);
        let max_templates = config.max_templates;
        Miner {
            masker: Masker::new(&config),
            config,
            masked: MaskedLine::default(),
            shapes: Vec::new(),
            free_shapes: Vec::new(),
            live_shapes: 0,
            parent: Vec::new(),
            groups: Vec::new(),
            live_groups: 0,
            by_len: IdMap::default(),
            // Room for the words of the first hundred or so templates, which would
            // otherwise be moved each time a table doubles. Only a control byte per
            // slot is written before use, so a short input costs little more.
            postings: presized(max_templates),
            lengths: presized(max_templates),
            cache: presized(cache_capacity),
            fitted: Fitted::new(),
            fields: IdMap::default(),
            promoted: Vec::new(),
            tally: Default::default(),
            cache_capacity,
            overflow: Template {
                id: GroupId::OVERFLOW,
                tokens: vec![Tok::wild().text],
                count: 0,
                first_line: 0,
                last_line: 0,
                example: String::new(),
                example_cut: 0,
                keyed: false,
            },
            last_line_no: 0,
            total: 0,
            scratch: Scratch::default(),
        }
    }

    /// The settings in use.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Adds the next line and returns its group id (already resolved).
    ///
    /// Lines are numbered 1, 2, 3 ... in the order of calls to `add` (or as
    /// given to [`Miner::add_numbered`]). A trailing `\r` / `\n` is ignored.
    pub fn add(&mut self, line: &str) -> GroupId {
        let n = self.last_line_no + 1;
        self.add_numbered(line, n)
    }

    /// Adds a line with an explicit line number (used for
    /// [`Template::first_line`] / [`Template::last_line`]); later calls to
    /// [`Miner::add`] continue from `line_no + 1`.
    pub fn add_numbered(&mut self, line: &str, line_no: u64) -> GroupId {
        let mut masked = std::mem::take(&mut self.masked);
        self.masker.fill(line, &mut masked);
        let id = self.add_filled(&mut masked.0, line, line_no);
        self.masked = masked;
        id
    }

    /// [`Miner::add_numbered`] for a line masked beforehand ([`MaskedLine::fill`], with
    /// this miner's config): the same result, with the masking done elsewhere (on
    /// another thread, say).
    pub fn add_prepared(&mut self, masked: &mut MaskedLine, line: &str, line_no: u64) -> GroupId {
        self.add_filled(&mut masked.0, line, line_no)
    }

    fn add_filled(&mut self, masked: &mut Masked, line: &str, line_no: u64) -> GroupId {
        self.last_line_no = line_no;
        self.total += 1;
        let line = trim_newline(line);
        // The fastest path: these very tokens (a masker's stamp says so) fit a
        // shape, and no shape changed since.
        if let Some(s) = self.fitted.get(masked.stamp()) {
            return self.hit(self.shapes[s as usize].group, line, line_no);
        }
        // The fast path: the masked line was seen before and still fits
        // the same template. One lookup, no allocation, no token hashes.
        let h = masked.seq_hash();
        if let Some(&s) = self.cache.get(&h) {
            let shape = &self.shapes[s as usize];
            if shape.live && fits(&shape.toks, masked) {
                self.fitted.insert(masked.stamp(), s);
                return self.hit(shape.group, line, line_no);
            }
        }
        masked.hash_tokens();
        self.add_masked(masked, h, line, line_no)
    }

    /// The rest of [`Miner::add_numbered`], for a line whose masked form
    /// (with hash `h`) is not in the lookup cache.
    fn add_masked(&mut self, m: &Masked, h: u64, line: &str, line_no: u64) -> GroupId {
        self.line_words(m);
        if let Some(s) = self.find_fit(m) {
            self.remember(h, s);
            let root = self.find(self.shapes[s as usize].group);
            let template = &mut self.groups[root as usize];
            if template.keyed {
                merge_display(&mut template.tokens, &texts_of(m), Seen::Lines);
            }
            return self.hit(root, line, line_no);
        }
        if let Some(c) = self.find_same_len(m) {
            self.generalize_to(c.shape, m);
            self.remember(h, c.shape);
            let g = self.shapes[c.shape as usize].group;
            let id = self.hit(g, line, line_no);
            self.absorb_subsumed(c.shape);
            return self.resolve(id);
        }
        if let Some(c) = self.find_other_len(m) {
            let g = self.shapes[c.shape as usize].group;
            let root = self.find(g);
            if self.live_shapes < self.max_shapes() {
                let texts = texts_of(m);
                let s = self.push_shape(m, toks_of(m, &texts), root);
                self.remember(h, s);
                let template = &mut self.groups[root as usize];
                template.keyed |= merge_display(&mut template.tokens, &texts, Seen::Lines);
            }
            let id = self.hit(root, line, line_no);
            self.merge_promoted();
            return self.resolve(id);
        }
        if self.live_groups >= self.config.max_templates
            || self.live_shapes >= self.max_shapes()
            || self.groups.len() >= self.max_ids()
        {
            return self.hit_overflow(line, line_no);
        }
        let texts = texts_of(m);
        let toks = toks_of(m, &texts);
        let g = self.new_group(texts, line, line_no);
        let s = self.push_shape(m, toks, g);
        self.remember(h, s);
        self.hit(g, line, line_no);
        self.merge_distinct(s);
        self.merge_promoted();
        self.resolve(GroupId(g))
    }

    /// Live shapes (fixed-length patterns; a template has one or a few).
    fn max_shapes(&self) -> usize {
        self.config.max_templates.saturating_mul(4).max(1)
    }

    /// Ids ever issued (each costs a few bytes for [`Miner::resolve`],
    /// even after a merge).
    fn max_ids(&self) -> usize {
        self.config
            .max_templates
            .saturating_mul(16)
            .min(u32::MAX as usize - 1)
    }

    /// Maps a group id returned earlier to the id of the group it belongs to
    /// now (itself unless it was merged). [`GroupId::OVERFLOW`] maps to
    /// itself, as do unknown ids.
    pub fn resolve(&self, id: GroupId) -> GroupId {
        if (id.0 as usize) < self.parent.len() {
            GroupId(self.find(id.0))
        } else {
            id
        }
    }

    /// The template of a group: any id is resolved first. `None` for ids
    /// never returned; the overflow group is returned for
    /// [`GroupId::OVERFLOW`] (with count 0 while empty).
    pub fn get(&self, id: GroupId) -> Option<&Template> {
        if id.is_overflow() {
            return Some(&self.overflow);
        }
        if (id.0 as usize) < self.parent.len() {
            Some(&self.groups[self.find(id.0) as usize])
        } else {
            None
        }
    }

    /// How many lines share the template of `id` (resolved first): 1 for a line in
    /// the overflow group, which shares none, and for an id never returned.
    pub fn count_alike(&self, id: GroupId) -> u64 {
        match self.resolve(id) {
            id if id.is_overflow() => 1,
            id => self.get(id).map_or(1, |t| t.count()),
        }
    }

    /// The live templates, in order of id (first appearance). The overflow
    /// group is not included: see [`Miner::overflow`].
    pub fn templates(&self) -> impl Iterator<Item = &Template> {
        self.groups
            .iter()
            .enumerate()
            .filter(|(i, _)| self.parent[*i] as usize == *i)
            .map(|(_, t)| t)
    }

    /// The live templates, most frequent first; ties in order of first appearance.
    pub fn templates_by_count(&self) -> Vec<&Template> {
        let mut templates: Vec<_> = self.templates().collect();
        templates.sort_by(|a, b| {
            b.count()
                .cmp(&a.count())
                .then(a.first_line().cmp(&b.first_line()))
        });
        templates
    }

    /// Number of live templates.
    pub fn len(&self) -> usize {
        self.live_groups
    }

    /// Whether no template exists yet.
    pub fn is_empty(&self) -> bool {
        self.live_groups == 0
    }

    /// The overflow group (lines that found no template while at the cap).
    pub fn overflow(&self) -> &Template {
        &self.overflow
    }

    /// Number of lines in the overflow group.
    pub fn overflow_count(&self) -> u64 {
        self.overflow.count
    }

    /// Number of lines added (including the overflow group).
    pub fn lines(&self) -> u64 {
        self.total
    }

    // ---- internals ----

    fn find(&self, mut g: u32) -> u32 {
        while self.parent[g as usize] != g {
            g = self.parent[g as usize];
        }
        g
    }

    fn remember(&mut self, h: u64, s: u32) {
        if self.cache.len() >= self.cache_capacity {
            self.cache.clear();
        }
        self.cache.insert(h, s);
    }

    fn hit(&mut self, g: u32, line: &str, line_no: u64) -> GroupId {
        let root = self.find(g);
        // Path compression keeps later lookups short.
        let mut x = g;
        while self.parent[x as usize] != root {
            let next = self.parent[x as usize];
            self.parent[x as usize] = root;
            x = next;
        }
        let t = &mut self.groups[root as usize];
        t.count += 1;
        t.last_line = t.last_line.max(line_no);
        if line_no < t.first_line {
            t.first_line = line_no;
            t.set_example(line, self.config.max_example_bytes);
        }
        GroupId(root)
    }

    fn hit_overflow(&mut self, line: &str, line_no: u64) -> GroupId {
        let t = &mut self.overflow;
        if t.count == 0 {
            t.first_line = line_no;
            t.set_example(line, self.config.max_example_bytes);
        }
        t.count += 1;
        t.last_line = t.last_line.max(line_no);
        GroupId::OVERFLOW
    }

    /// A group of one line whose display is `tokens`.
    fn new_group(&mut self, tokens: Vec<Text>, line: &str, line_no: u64) -> u32 {
        let g = self.groups.len() as u32;
        self.parent.push(g);
        let mut template = Template {
            id: GroupId(g),
            tokens,
            count: 0,
            first_line: line_no,
            last_line: line_no,
            example: String::new(),
            example_cut: 0,
            keyed: false,
        };
        template.set_example(line, self.config.max_example_bytes);
        self.groups.push(template);
        self.live_groups += 1;
        g
    }

    /// A shape of the masked line `m` (its tokens `toks`, made by [`toks_of`]) in `group`.
    fn push_shape(&mut self, m: &Masked, toks: Vec<Tok>, group: u32) -> u32 {
        let shape = Shape {
            words: Box::new([]),
            toks,
            group,
            live: true,
            many: false,
        };
        // Reuse the slot of a dead shape: memory follows the live shapes.
        let s = match self.free_shapes.pop() {
            Some(s) => {
                self.shapes[s as usize] = shape;
                s
            }
            None => {
                self.shapes.push(shape);
                (self.shapes.len() - 1) as u32
            }
        };
        self.by_len.entry(m.len() as u32).or_default().push(s);
        self.live_shapes += 1;
        self.set_words(s);
        for i in 0..m.len().min(FIELD_POSITIONS) {
            if m.kind(i) == TokenKind::Word {
                let key = field_key(i, m.token_hash(i));
                if let Some(n) = self.fields.get_mut(&key) {
                    *n = n.saturating_add(1);
                    if *n == FIELD_MIN_TEMPLATES {
                        self.promoted.push((i, m.token_hash(i)));
                    }
                } else if self.fields.len() < self.cache_capacity {
                    self.fields.insert(key, 1);
                }
            }
        }
        s
    }

    /// Recomputes the plain words of shape `s` from its tokens and updates
    /// the word index. Every shape made or changed comes here, so the
    /// stamps known to fit a shape are forgotten here too.
    fn set_words(&mut self, s: u32) {
        self.fitted.forget_all();
        let shape = &mut self.shapes[s as usize];
        let len = shape.toks.len() as u32;
        let new = word_hashes(&shape.toks);
        let old = std::mem::replace(&mut shape.words, new);
        self.unindex(s, len, &old);
        let words = std::mem::take(&mut self.shapes[s as usize].words);
        let mut index = |w: u64| {
            let list = self.postings.entry(posting_key(len, w)).or_default();
            if list.is_empty() {
                self.lengths.entry(w).or_default().add(len);
            }
            list.push(s);
        };
        let mut prev = None;
        for &w in words.iter() {
            if prev != Some(w) {
                index(w);
                prev = Some(w);
            }
        }
        if words.is_empty() {
            index(0);
        }
        self.shapes[s as usize].words = words;
    }

    fn unindex(&mut self, s: u32, len: u32, words: &[u64]) {
        let mut remove = |w: u64| {
            let key = posting_key(len, w);
            if let Some(v) = self.postings.get_mut(&key) {
                if let Some(p) = v.iter().position(|&x| x == s) {
                    v.swap_remove(p);
                }
                if v.is_empty() {
                    self.postings.remove(&key);
                    if let Some(lengths) = self.lengths.get_mut(&w) {
                        lengths.remove(len);
                        if lengths.bits == 0 {
                            self.lengths.remove(&w);
                        }
                    }
                }
            }
        };
        let mut prev = None;
        for &w in words {
            if prev != Some(w) {
                remove(w);
                prev = Some(w);
            }
        }
        if words.is_empty() {
            remove(0);
        }
    }

    /// Live shapes of length `len` sharing a plain word with `words` (sorted)
    /// or without plain words, into `out`: the [`MAX_CANDIDATES`] sharing
    /// the most words, by index. Bounds the work per new line however many
    /// templates there are. Returns how many entries those lists hold in all, those
    /// left out too when they are more than [`MAX_POSTINGS`].
    fn candidates(&self, len: usize, words: &[u64], out: &mut Vec<u32>) -> usize {
        out.clear();
        let len = len as u32;
        let distinct = || {
            let mut prev = None;
            words.iter().chain(std::iter::once(&0)).filter(move |&&w| {
                let new = prev != Some(w);
                prev = Some(w);
                new
            })
        };
        let mut tally = self.tally.borrow_mut();
        let Tally {
            counts,
            counted,
            lists,
        } = &mut *tally;
        // The words that have a list, with how many entries it holds.
        lists.clear();
        lists.extend(distinct().filter_map(|&w| {
            let key = posting_key(len, w);
            self.postings.get(&key).map(|l| (l.len(), key))
        }));
        let list = |key| &self.postings[&key];
        let postings = lists.iter().map(|l| l.0).sum::<usize>();
        if postings <= MAX_POSTINGS {
            for &(_, key) in lists.iter() {
                out.extend_from_slice(list(key));
            }
        } else {
            // Rare words first; very common words add little and cost much.
            lists.sort_by_key(|l| l.0);
            for &(n, key) in lists.iter() {
                if !out.is_empty() && out.len() + n > MAX_POSTINGS {
                    break;
                }
                out.extend_from_slice(&list(key)[..n.min(MAX_POSTINGS)]);
            }
        }
        if out.len() <= MAX_CANDIDATES {
            out.sort_unstable();
            out.dedup();
            return postings;
        }
        // Count shared words per shape in one pass (at most MAX_POSTINGS entries, so
        // a count fits), keep the best.
        debug_assert!(out.len() <= MAX_POSTINGS && MAX_POSTINGS <= u16::MAX as usize);
        if counts.len() < self.shapes.len() {
            counts.resize(self.shapes.len(), 0);
        }
        counted.clear();
        for &s in out.iter() {
            let count = &mut counts[s as usize];
            if *count == 0 {
                counted.push((s, 0));
            }
            *count += 1;
        }
        for (s, n) in counted.iter_mut() {
            *n = std::mem::take(&mut counts[*s as usize]);
        }
        if counted.len() > MAX_CANDIDATES {
            counted.select_nth_unstable_by(MAX_CANDIDATES - 1, |a, b| {
                b.1.cmp(&a.1).then(a.0.cmp(&b.0))
            });
            counted.truncate(MAX_CANDIDATES);
        }
        out.clear();
        out.extend(counted.iter().map(|c| c.0));
        out.sort_unstable();
        postings
    }

    fn kill_shape(&mut self, s: u32) {
        let shape = &mut self.shapes[s as usize];
        if !shape.live {
            return;
        }
        self.fitted.forget_all();
        shape.live = false;
        let len = shape.toks.len() as u32;
        let words = std::mem::take(&mut shape.words);
        shape.toks = Vec::new();
        self.unindex(s, len, &words);
        self.live_shapes -= 1;
        if let Some(v) = self.by_len.get_mut(&len) {
            if let Some(p) = v.iter().position(|&x| x == s) {
                v.remove(p);
            }
        }
        self.free_shapes.push(s);
    }

    /// Unions the groups of `a` and `b`; the older id survives.
    fn union(&mut self, a: u32, b: u32) -> u32 {
        let ra = self.find(a);
        let rb = self.find(b);
        if ra == rb {
            return ra;
        }
        let (keep, gone) = if ra < rb { (ra, rb) } else { (rb, ra) };
        self.parent[gone as usize] = keep;
        let other = std::mem::replace(
            &mut self.groups[gone as usize],
            Template {
                id: GroupId(gone),
                tokens: Vec::new(),
                count: 0,
                first_line: 0,
                last_line: 0,
                example: String::new(),
                example_cut: 0,
                keyed: false,
            },
        );
        self.groups[keep as usize].absorb(&other);
        self.live_groups -= 1;
        keep
    }

    /// A live shape of the line's length that the line fits (constant
    /// tokens equal, variables anything); the most specific one wins.
    fn find_fit(&self, m: &Masked) -> Option<u32> {
        let mut best: Option<(u32, usize)> = None;
        for (&s, &shared) in self.scratch.cands.iter().zip(&self.scratch.shared) {
            let shape = &self.shapes[s as usize];
            // Every plain word of the template must be in the line.
            if shared < shape.words.len() {
                continue;
            }
            let toks = &shape.toks;
            if fits(toks, m) {
                let lits = toks.iter().filter(|t| t.kind != TokenKind::Wild).count();
                if best.is_none_or(|(_, b)| lits > b) {
                    best = Some((s, lits));
                }
            }
        }
        best.map(|(s, _)| s)
    }

    /// A shape of the same length that the line matches except in
    /// positions whose tokens look like values.
    fn find_same_len(&self, m: &Masked) -> Option<Candidate> {
        let mut best: Option<Candidate> = None;
        let line_words = m.words();
        for (&s, &u) in self.scratch.cands.iter().zip(&self.scratch.shared) {
            let shape = &self.shapes[s as usize];
            // Upper bound first: equal words are common words.
            let tw = shape.words.len();
            // (A value of the same key counts as a word alike.)
            let similar = match self.scratch.line_keyed {
                0 => self.similar(u as u32, tw, line_words),
                keyed => self.similar_with((u + keyed) as u32, tw, line_words, MIN_MATCHED_NAMES),
            };
            if !similar
                && (line_words - u > self.scratch.line_fields
                    || tw - u > self.fields_in(&shape.toks))
            {
                continue;
            }
            let Some(score) = self.same_len_score(&shape.toks, tw, Side::Line(m), line_words)
            else {
                continue;
            };
            if best.as_ref().is_none_or(|b| score > b.score) {
                best = Some(Candidate { shape: s, score });
            }
        }
        best
    }

    /// Compares a template with a line (or another template) of the same
    /// length: `Some(equal plain words)` when they are one event, that is
    /// when every difference looks like a value and enough words match.
    /// `tw` and `ow` are the numbers of plain words of each side.
    fn same_len_score(&self, toks: &[Tok], tw: usize, other: Side<'_>, ow: usize) -> Option<u32> {
        if tw == 0 || ow == 0 {
            return None;
        }
        let mut matched = 0u32;
        // Whether a matched word has a letter (not only `=` or `-`).
        let mut named = false;
        let mut differ = 0u32;
        // Differences where a known field value (a word seen at this
        // position in several templates: a host name, a level) faces a
        // masked value or another field value; `field_t` / `field_o` count
        // their plain words on each side.
        let (mut field_t, mut field_o) = (0usize, 0usize);
        let mut only_fields = true;
        let mut last_differs = false;
        for (i, t) in toks.iter().enumerate() {
            let (ok, oh, ob) = (other.kind(i), other.hash(i), other.bytes(i));
            if t.kind == TokenKind::Wild || ok == TokenKind::Wild && matches!(other, Side::Shape(_))
            {
                continue;
            }
            if t.hash == oh && t.text.as_bytes() == ob {
                if is_word(t.kind) {
                    matched += 1;
                    named = named || names(&t.text);
                }
                last_differs = false;
            } else if evidenced(t.kind, t.text.as_bytes(), ok, ob) {
                differ += 1;
                // The same key with another value (klog's `service="default/api"`,
                // `service="payments/web"`): the key is a word alike.
                matched += u32::from(same_field(t.text.as_bytes(), ob));
                last_differs = t.kind == TokenKind::Word;
                if t.kind == TokenKind::Word && self.is_field(i, t.hash) {
                    field_t += 1;
                } else if ok == TokenKind::Word && self.is_field(i, oh) {
                    field_o += 1;
                } else {
                    only_fields = false;
                }
            } else if t.kind == TokenKind::Word
                && ok == TokenKind::Word
                && self.is_field(i, t.hash)
                && self.is_field(i, oh)
            {
                // Two known values of a header field (levels, states).
                differ += 1;
                field_t += 1;
                field_o += 1;
                last_differs = true;
            } else {
                return None;
            }
        }
        // A line ends in its message: a different final word is a
        // different message (`... HTTPS` / `... SOCKS5`), while header
        // fields (hosts, ids) come first.
        if last_differs || differ == 0 {
            return None;
        }
        let similar = if only_fields {
            self.similar_but_fields(
                matched,
                named,
                tw.saturating_sub(field_t),
                ow.saturating_sub(field_o),
            )
        } else if (matched as usize) < MIN_MATCHED_WORDS {
            // (The words looked up last: this is asked of every candidate.)
            self.similar_with(matched, tw, ow, MIN_MATCHED_NAMES)
                && self.names_matched(toks, &other) >= MIN_MATCHED_NAMES
        } else {
            self.similar(matched, tw, ow)
        };
        similar.then_some(matched)
    }

    /// How many plain words that name something and are no known header field (a level,
    /// a logger's name) `toks` and `other` have equal in place. (Asked only of patterns
    /// with few words in common: each word is looked up.)
    fn names_matched(&self, toks: &[Tok], other: &Side<'_>) -> usize {
        (toks.iter().enumerate())
            .filter(|(i, t)| {
                let (bytes, other_bytes) = (t.text.as_bytes(), other.bytes(*i));
                let equal = t.hash == other.hash(*i) && bytes == other_bytes && names(&t.text);
                is_word(t.kind)
                    && (equal || same_field(bytes, other_bytes))
                    && !self.is_field(*i, t.hash)
            })
            .count()
    }

    /// Fills the scratch with the sorted plain-word hashes of the line.
    fn line_words(&mut self, m: &Masked) {
        let mut words = std::mem::take(&mut self.scratch.words);
        words.clear();
        words.extend(
            (0..m.len())
                .filter(|&i| is_word(m.kind(i)))
                .map(|i| m.token_hash(i)),
        );
        words.sort_unstable();
        let mut cands = std::mem::take(&mut self.scratch.cands);
        self.scratch.postings = self.candidates(m.len(), &words, &mut cands);
        let mut shared = std::mem::take(&mut self.scratch.shared);
        shared.clear();
        shared.extend(
            cands
                .iter()
                .map(|&s| common(&self.shapes[s as usize].words, &words)),
        );
        self.scratch.cands = cands;
        self.scratch.shared = shared;
        self.scratch.words = words;
        self.scratch.line_keyed = (0..m.len())
            .filter(|&i| m.kind(i) == TokenKind::Value && named_value_key(m.bytes(i)).is_some())
            .count();
        self.scratch.line_fields = (0..m.len().min(FIELD_POSITIONS))
            .filter(|&i| m.kind(i) == TokenKind::Word && self.is_field(i, m.token_hash(i)))
            .count();
    }

    /// Runs [`Miner::merge_on_field`] for words that just became fields.
    fn merge_promoted(&mut self) {
        while let Some((pos, h)) = self.promoted.pop() {
            self.merge_on_field(pos, h);
        }
    }

    /// After a word became a known field value at `pos`: templates holding
    /// it there may now be one event with templates that differ only in
    /// such fields (lines seen before the field was known). Merges them.
    fn merge_on_field(&mut self, pos: usize, h: u64) {
        let mut lens: Vec<u32> = self
            .by_len
            .keys()
            .copied()
            .filter(|&l| l as usize > pos)
            .collect();
        lens.sort_unstable();
        let mut cands = Vec::new();
        for len in lens {
            let Some(posting) = self.postings.get(&posting_key(len, h)) else {
                continue;
            };
            let mut holders: Vec<u32> = posting
                .iter()
                .copied()
                .filter(|&s| {
                    let t = &self.shapes[s as usize].toks[pos];
                    t.kind == TokenKind::Word && t.hash == h
                })
                .collect();
            holders.sort_unstable();
            for s in holders {
                if !self.shapes[s as usize].live {
                    continue;
                }
                let me = &self.shapes[s as usize];
                self.candidates(len as usize, &me.words, &mut cands);
                let others: Vec<u32> = cands
                    .iter()
                    .copied()
                    .filter(|&o| {
                        let other = &self.shapes[o as usize];
                        o != s
                            && self
                                .same_len_score(
                                    &me.toks,
                                    me.words.len(),
                                    Side::Shape(&other.toks),
                                    other.words.len(),
                                )
                                .is_some()
                    })
                    .collect();
                for o in others {
                    if !self.shapes[o as usize].live || !self.shapes[s as usize].live {
                        continue;
                    }
                    let (keep, gone) = if s < o { (s, o) } else { (o, s) };
                    let other = std::mem::take(&mut self.shapes[gone as usize].toks);
                    for (t, u) in self.shapes[keep as usize].toks.iter_mut().zip(&other) {
                        if t.kind != TokenKind::Wild && (t.hash != u.hash || t.text != u.text) {
                            *t = Tok::wild();
                        }
                    }
                    self.shapes[gone as usize].toks = other;
                    self.set_words(keep);
                    let (ga, gb) = (
                        self.shapes[keep as usize].group,
                        self.shapes[gone as usize].group,
                    );
                    let root = self.union(ga, gb);
                    self.kill_shape(gone);
                    let toks: Vec<Text> = self.shapes[keep as usize]
                        .toks
                        .iter()
                        .map(|t| t.text.clone())
                        .collect();
                    let template = &mut self.groups[root as usize];
                    template.keyed |= merge_display(&mut template.tokens, &toks, Seen::Shape);
                    self.absorb_subsumed(keep);
                    if gone == s || !self.shapes[s as usize].live {
                        break;
                    }
                }
            }
        }
    }

    /// Whether the plain word with hash `h` was seen at position `pos` in
    /// at least [`FIELD_MIN_TEMPLATES`] templates.
    fn is_field(&self, pos: usize, h: u64) -> bool {
        pos < FIELD_POSITIONS
            && self
                .fields
                .get(&field_key(pos, h))
                .is_some_and(|&n| n >= FIELD_MIN_TEMPLATES)
    }

    /// Number of plain words of a pattern that are known header fields.
    fn fields_in(&self, toks: &[Tok]) -> usize {
        toks.iter()
            .take(FIELD_POSITIONS)
            .enumerate()
            .filter(|(i, t)| t.kind == TokenKind::Word && self.is_field(*i, t.hash))
            .count()
    }

    /// Whether `matched` equal plain tokens are enough for two patterns
    /// with `a` and `b` plain tokens.
    fn similar(&self, matched: u32, a: usize, b: usize) -> bool {
        self.similar_with(matched, a, b, MIN_MATCHED_WORDS)
    }

    /// [`Miner::similar`] with at least `min` equal plain tokens.
    fn similar_with(&self, matched: u32, a: usize, b: usize, min: usize) -> bool {
        matched as usize >= min && f64::from(matched) >= self.config.similarity * a.max(b) as f64
    }

    /// [`Miner::similar`] for two patterns that differ only in header fields, `a` and
    /// `b` plain tokens besides them: one matched word may do (`kernel[0]:
    /// AppleCamIn::wakeEventHandlerThread` on two hosts), if one that names something
    /// (`named`: a matched word has a letter). strace's `<... close resumed>) = 0` and
    /// `getrandom("…", 8, GRND_NONBLOCK) = 8` have two fields each (words seen in that
    /// place in several templates) and only `=` in common: merged, they made `<*> <*>
    /// <*> <*> = <*>`, which every syscall of that length then joined.
    fn similar_but_fields(&self, matched: u32, named: bool, a: usize, b: usize) -> bool {
        named && f64::from(matched) >= self.config.similarity * a.max(b) as f64
    }

    /// A shape of a nearby length that aligns with the line, all unaligned
    /// stretches looking like values.
    fn find_other_len(&mut self, m: &Masked) -> Option<Candidate> {
        let n = m.len();
        let d = self.config.max_length_delta;
        if d == 0 || n == 0 {
            return None;
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        let line_words = scratch.words.len();
        let line_fields = scratch.line_fields;
        // Filled for the first candidate that needs them.
        scratch.tokens.clear();
        let mut best: Option<Candidate> = None;
        let mut aligned = 0;
        let lo = n.saturating_sub(d).max(1);
        // Per length, the line's words (with repeats, as `common` counts them) that
        // have postings at it: no shape of that length shares more with the line.
        let at = &mut scratch.words_at;
        at.clear();
        at.resize(n + d + 1 - lo, 0);
        for w in &scratch.words {
            let bits = self.lengths.get(w).map_or(0, |lengths| lengths.bits);
            for (k, count) in at.iter_mut().enumerate() {
                *count += usize::from(bits & length_bit((lo + k) as u32) != 0);
            }
        }
        for len in lo..=n + d {
            // No live shape of that length: no candidate (the index holds live ones).
            if len == n || self.by_len.get(&(len as u32)).is_none_or(Vec::is_empty) {
                continue;
            }
            // Too few words in common for any of its shapes (the bounds below).
            let most = scratch.words_at[len - lo];
            if most == 0
                || !self.similar(most as u32, 0, line_words) && line_words - most > line_fields
            {
                continue;
            }
            let mut cands = std::mem::take(&mut scratch.other);
            self.candidates(len, &scratch.words, &mut cands);
            for &s in &cands {
                let shape = &self.shapes[s as usize];
                let tw = shape.words.len();
                // Upper bounds first: aligned words are common words; with
                // fewer than the similarity rules need, every word left
                // over must be a header field.
                let u = common(&shape.words, &scratch.words);
                if u == 0 {
                    continue;
                }
                if !self.similar(u as u32, tw, line_words)
                    && (line_words - u > line_fields || tw - u > self.fields_in(&shape.toks))
                {
                    continue;
                }
                if scratch.tokens.is_empty() {
                    scratch.tokens.extend((0..n).map(|i| m.token_hash(i)));
                    scratch.tokens.sort_unstable();
                }
                if self.cannot_align(&shape.toks, &scratch.tokens) {
                    continue;
                }
                if aligned == MAX_ALIGNMENTS {
                    break;
                }
                aligned += 1;
                if let Some(score) = self.cross_score(&shape.toks, m, &mut scratch) {
                    if best.as_ref().is_none_or(|b| score > b.score) {
                        best = Some(Candidate { shape: s, score });
                    }
                }
            }
            scratch.other = cands;
        }
        self.scratch = scratch;
        best
    }

    /// Whether [`Miner::cross_score`] refuses the pair for a reason seen without the
    /// alignment, which costs the product of the lengths: a word of the template that
    /// no token of the line equals (`line_tokens`: their hashes, sorted) is left
    /// unaligned, where only a header field or a unit may stand.
    fn cannot_align(&self, toks: &[Tok], line_tokens: &[u64]) -> bool {
        toks.iter().enumerate().any(|(i, t)| {
            t.kind == TokenKind::Word
                && line_tokens.binary_search(&t.hash).is_err()
                && !self.is_field(i, t.hash)
                && !is_unit(&t.text)
        })
    }

    fn cross_score(&self, toks: &[Tok], m: &Masked, scratch: &mut Scratch) -> Option<u32> {
        // Equal tokens weigh more than a variable standing for anything.
        let score = |i: usize, j: usize| {
            let t = &toks[i];
            if tok_eq(t, m, j) {
                2
            } else {
                u16::from(t.kind == TokenKind::Wild)
            }
        };
        align_into(
            toks.len(),
            m.len(),
            score,
            &mut scratch.dp,
            &mut scratch.steps,
        );
        let mut matched = 0u32;
        let mut named = false;
        let (mut field_a, mut field_b) = (0usize, 0usize);
        let mut only_fields = true;
        for st in &scratch.steps {
            match *st {
                Step::Match(i, _) if is_word(toks[i].kind) => {
                    matched += 1;
                    named = named || names(&toks[i].text);
                }
                Step::Match(..) => {}
                Step::Gap { a0, a1, b0, b1 } => {
                    if a1 - a0 > MAX_GAP || b1 - b0 > MAX_GAP {
                        return None;
                    }
                    // Every unaligned token must look like a value, a unit
                    // or a known header field.
                    let insertion = a0 == a1 || b0 == b1;
                    for (i, t) in toks.iter().enumerate().take(a1).skip(a0) {
                        if t.kind == TokenKind::Wild {
                            // A pure variable: a list of values of varying
                            // length.
                        } else if self.is_field(i, t.hash) && t.kind == TokenKind::Word {
                            field_a += 1;
                        } else if gap_token(t.kind, &t.text, insertion) {
                            only_fields = false;
                        } else {
                            return None;
                        }
                    }
                    for j in b0..b1 {
                        if m.kind(j) == TokenKind::Wild {
                        } else if m.kind(j) == TokenKind::Word && self.is_field(j, m.token_hash(j))
                        {
                            field_b += 1;
                        } else if gap_token(m.kind(j), m.text(j), insertion) {
                            only_fields = false;
                        } else {
                            return None;
                        }
                    }
                }
            }
        }
        let (tw, lw) = (words(toks), m.words());
        let similar = if only_fields {
            self.similar_but_fields(matched, named, tw - field_a, lw - field_b)
        } else {
            self.similar(matched, tw, lw)
        };
        similar.then_some(matched)
    }

    /// Turns the positions where `m` differs from shape `s` into variables.
    fn generalize_to(&mut self, s: u32, m: &Masked) {
        let shape = &mut self.shapes[s as usize];
        for (i, t) in shape.toks.iter_mut().enumerate() {
            if t.kind != TokenKind::Wild && !(tok_eq(t, m, i)) {
                *t = Tok::wild();
            }
        }
        // The display learns from the line's own tokens where the shape has none: a
        // value of a key (`rhost=<*>`) stays one.
        let toks: Vec<Text> = (shape.toks.iter().enumerate())
            .map(|(i, t)| match t.kind {
                TokenKind::Wild => m.text(i).into(),
                _ => t.text.clone(),
            })
            .collect();
        let group = shape.group;
        self.set_words(s);
        let root = self.find(group);
        let template = &mut self.groups[root as usize];
        template.keyed |= merge_display(&mut template.tokens, &toks, Seen::Lines);
    }

    /// After shape `s` became more general, merges every other live shape
    /// of its length that it now covers.
    fn absorb_subsumed(&mut self, s: u32) {
        let len = self.shapes[s as usize].toks.len() as u32;
        loop {
            let Some(bucket) = self.by_len.get(&len) else {
                return;
            };
            let me = &self.shapes[s as usize].toks;
            let Some(o) = bucket.iter().copied().find(|&o| {
                let other = &self.shapes[o as usize];
                let least = match self.shapes[s as usize].many || other.many {
                    true => 2,
                    false => 1,
                };
                o != s && unifiable(me, &other.toks, least)
            }) else {
                return;
            };
            // Lines fitting both shapes exist: one event. Keep the union.
            let other = std::mem::take(&mut self.shapes[o as usize].toks);
            for (t, u) in self.shapes[s as usize].toks.iter_mut().zip(&other) {
                if u.kind == TokenKind::Wild {
                    *t = Tok::wild();
                }
            }
            self.shapes[o as usize].toks = other;
            self.shapes[s as usize].many |= self.shapes[o as usize].many;
            self.set_words(s);
            let (ga, gb) = (self.shapes[s as usize].group, self.shapes[o as usize].group);
            self.union(ga, gb);
            self.kill_shape(o);
            let root = self.find(self.shapes[s as usize].group);
            let toks: Vec<Text> = self.shapes[s as usize]
                .toks
                .iter()
                .map(|t| t.text.clone())
                .collect();
            let template = &mut self.groups[root as usize];
            template.keyed |= merge_display(&mut template.tokens, &toks, Seen::Shape);
        }
    }

    /// The "distinct values" rule: when `min_distinct_values` live shapes of
    /// one length are identical except in one position holding distinct
    /// literal words, that position is variable: they merge into one.
    ///
    /// Shapes equal but in names at that position ([`is_a_name`]) need the rest
    /// of their words similar (both of a line of three tokens' other two: `>
    /// Task <*>`); others all their words, that position's included: states and
    /// verbs (`Job deploy failed` among `Job build queued`) and states of
    /// machines by their ids (OpenStack's `[instance: …] VM Paused`, `… VM
    /// Resumed`) are events of their own.
    ///
    /// For shape `s` just made of the line [`Miner::line_words`] looked at, no other
    /// shape changed since: it takes that line's candidates.
    fn merge_distinct(&mut self, s: u32) {
        let k = self.config.min_distinct_values;
        if k < 2 {
            return;
        }
        let shape = &self.shapes[s as usize];
        let (len, words) = (shape.toks.len(), &shape.words);
        // The line's candidates ([`Miner::line_words`]) and the shape just made of it
        // are what `candidates` gives now (the shape added itself to a list per distinct
        // word), while no list is cut short and all candidates are kept, not the best.
        let mut bucket = std::mem::take(&mut self.scratch.cands);
        let added = words.chunk_by(|a, b| a == b).count().max(1);
        if self.scratch.postings + added <= MAX_POSTINGS && bucket.len() < MAX_CANDIDATES {
            let at = bucket.partition_point(|&o| o < s);
            bucket.insert(at, s);
            debug_assert_eq!(bucket, {
                let mut fresh = Vec::new();
                self.candidates(len, words, &mut fresh);
                fresh
            });
        } else {
            self.candidates(len, words, &mut bucket);
        }
        self.merge_distinct_among(s, &bucket);
        self.scratch.cands = bucket;
    }

    fn merge_distinct_among(&mut self, s: u32, bucket: &[u32]) {
        let k = self.config.min_distinct_values;
        // Position -> shapes that differ from `s` in plain words only there
        // (other differences must be evidenced value differences).
        let mut per_pos: Vec<(usize, Vec<Similar>)> = Vec::new();
        let me = &self.shapes[s as usize].toks;
        // Shapes that differ from `s` in values only.
        let mut values_only: Vec<u32> = Vec::new();
        // Many distinct words or values need a line that opens with a word, as a build's
        // progress does (`Compiling`, `CC`): a log's line opens with its time, and its
        // header's fields (a program's name, a method's) say which event it is.
        let opens_with_a_word = me.first().is_some_and(|t| t.kind != TokenKind::Wild);
        for &o in bucket {
            if o == s {
                continue;
            }
            let other = &self.shapes[o as usize].toks;
            let mut word_diff = None;
            let mut n_word = 0;
            let mut matched = 0u32;
            // The shapes differ in values too (or hold variables).
            let mut valued = false;
            for (i, (a, b)) in me.iter().zip(other.iter()).enumerate() {
                if a.kind == TokenKind::Wild || b.kind == TokenKind::Wild {
                    valued = true;
                    continue;
                }
                if a.hash == b.hash && a.text == b.text {
                    matched += u32::from(is_word(a.kind));
                } else if evidenced(a.kind, a.text.as_bytes(), b.kind, b.text.as_bytes()) {
                    valued = true;
                } else {
                    n_word += 1;
                    word_diff = Some(i);
                    if n_word > 1 {
                        break;
                    }
                }
            }
            let Some(p) = word_diff.filter(|_| n_word == 1) else {
                if n_word == 0 {
                    values_only.push(o);
                }
                continue;
            };
            // Shapes equal but in names at the position the rule is about are similar in
            // the rest.
            let names = is_a_name(&me[p].text) && is_a_name(&other[p].text);
            let similar = match valued || !names {
                false => {
                    let (a, b) = (words(me).saturating_sub(1), words(other).saturating_sub(1));
                    self.similar_with(matched, a, b, MIN_MATCHED_NAMES)
                }
                true => self.similar(matched, words(me), words(other)),
            };
            // Many distinct words merge where each follows the same constant, as a name
            // its verb (`Compiling serde`); a state follows its thing's id (`job 4101
            // canceled`, `Container ci-4821-worker-1  Exited`).
            let after_a_constant = p > 0 && {
                let (a, b) = (&me[p - 1], &other[p - 1]);
                a.kind != TokenKind::Wild && a.hash == b.hash && a.text == b.text
            };
            let shape = Similar {
                shape: o,
                similar,
                many: after_a_constant,
            };
            match per_pos.iter_mut().find(|(q, _)| *q == p) {
                Some((_, v)) => v.push(shape),
                None => per_pos.push((p, vec![shape])),
            }
        }
        // Count distinct words per position, of the similar shapes and of all; keep the
        // best position.
        let distinct = |p: usize, v: &[Similar], all: bool| {
            let mut words: Vec<u64> = (v.iter())
                .filter(|o| o.similar || (all && o.many))
                .map(|o| self.shapes[o.shape as usize].toks[p].hash)
                .chain(std::iter::once(me[p].hash))
                .collect();
            words.sort_unstable();
            words.dedup();
            words.len()
        };
        let mut best: Option<(usize, Vec<u32>, usize, bool)> = None;
        for (p, v) in per_pos {
            let (similar, all) = (distinct(p, &v, false), distinct(p, &v, true));
            let (count, many) = match similar >= k {
                true => (similar, false),
                false => (all, true),
            };
            // Not in that word (it says what happened), and only words said once or
            // twice, as a name is in a build's progress: a state repeats (`Running`,
            // `Exited`, `200 OK`).
            let verb = p > 0 && opens_with_a_word;
            let named = || {
                (v.iter()).filter(|o| o.many).all(|o| {
                    let group = self.find(self.shapes[o.shape as usize].group);
                    self.groups[group as usize].count <= MAX_LINES_OF_A_NAME
                })
            };
            if (similar >= k || (verb && all >= MANY_DISTINCT_VALUES && named()))
                && best.as_ref().is_none_or(|b| count > b.2)
            {
                let members = (v.into_iter())
                    .filter(|o| o.similar || (many && o.many))
                    .map(|o| o.shape)
                    .collect();
                best = Some((p, members, count, many));
            }
        }
        let (p, mut members, many) = match best {
            Some((p, members, _, many)) => (Some(p), members, many),
            None if opens_with_a_word && values_only.len() + 1 >= MANY_DISTINCT_VALUES => {
                (None, values_only, true)
            }
            None => return,
        };
        members.push(s);
        members.sort_unstable();
        let target = members[0];
        // The generalized template: variable wherever members differ.
        let mut merged = self.shapes[target as usize].toks.clone();
        for &o in &members[1..] {
            for (t, u) in merged.iter_mut().zip(&self.shapes[o as usize].toks) {
                if t.kind != TokenKind::Wild
                    && (u.kind == TokenKind::Wild || u.hash != t.hash || u.text != t.text)
                {
                    *t = Tok::wild();
                }
            }
        }
        // Keep enough constant text: a template of nothing but variables
        // and a header would swallow unrelated lines. (Names, `> Task <*>`, need less.)
        let names = p.is_some_and(|p| {
            (members.iter()).all(|&o| is_a_name(&self.shapes[o as usize].toks[p].text))
        });
        if let Some(p) = p {
            merged[p] = Tok::wild();
        }
        let constants = merged.iter().filter(|t| t.kind != TokenKind::Wild).count();
        let least = match many {
            true => 1,
            false => MIN_CONSTANTS_AFTER_MERGE - usize::from(names),
        };
        if constants < least {
            return;
        }
        self.shapes[target as usize].toks = merged;
        self.shapes[target as usize].many |= many;
        self.set_words(target);
        for &o in &members[1..] {
            let (ga, gb) = (
                self.shapes[target as usize].group,
                self.shapes[o as usize].group,
            );
            self.union(ga, gb);
            self.kill_shape(o);
        }
        let root = self.find(self.shapes[target as usize].group);
        let toks: Vec<Text> = self.shapes[target as usize]
            .toks
            .iter()
            .map(|t| t.text.clone())
            .collect();
        let template = &mut self.groups[root as usize];
        template.keyed |= merge_display(&mut template.tokens, &toks, Seen::Shape);
        self.absorb_subsumed(target);
    }
}

/// The distinct-values rule takes shapes equal but at one position, however few their
/// other words, once they hold this many distinct words there (a build's `Compiling
/// <*> <*>`, `Built target <*>`, one line per crate or target), and this many shapes
/// that differ in values only, too few words left for a line to join (`CC <*>`, one
/// per file), when their lines open with a word.
const MANY_DISTINCT_VALUES: usize = 8;

/// A shape the distinct-values rule may merge, that differs from the new one in a word
/// at one position, and whether it is similar in the rest (else only many distinct
/// words there merge it, [`MANY_DISTINCT_VALUES`]).
#[derive(Clone, Copy)]
struct Similar {
    shape: u32,
    similar: bool,
    /// Whether many distinct words may merge it: its word follows the same constant.
    many: bool,
}

/// The most lines of a template the distinct-values rule takes as a name's, not a
/// state's, among many distinct words ([`MANY_DISTINCT_VALUES`]): a build names a crate
/// or a target once or twice.
const MAX_LINES_OF_A_NAME: u64 = 2;

/// Header fields are looked for in the first positions only.
const FIELD_POSITIONS: usize = 8;

/// A word seen at one position in this many templates is a field value.
const FIELD_MIN_TEMPLATES: u32 = 3;

fn field_key(pos: usize, h: u64) -> u64 {
    (h ^ (pos as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)).rotate_left(17)
}

/// Fewest equal plain tokens (words, names) for two patterns to be
/// similar.
const MIN_MATCHED_WORDS: usize = 3;

/// Fewest equal plain tokens for two patterns of the same length to be similar when
/// that many of them name something and are no header field (a level, a logger's name):
/// a short line's words, `Refreshing state...`, `Running` in a table's row.
const MIN_MATCHED_NAMES: usize = 2;

/// Longest unaligned stretch (tokens) between a line and a template of
/// another length.
const MAX_GAP: usize = 4;

/// Whether a token kind is constant text without masked parts.
fn is_word(k: TokenKind) -> bool {
    matches!(k, TokenKind::Word | TokenKind::Value)
}

/// Number of plain tokens in a pattern.
fn words(toks: &[Tok]) -> usize {
    toks.iter().filter(|t| is_word(t.kind)).count()
}

/// The distinct-values rule never leaves a template with fewer constant
/// tokens than this, or one fewer where the values are names ([`is_a_name`]:
/// Gradle's `> Task <*>`). A template of a constant or two and variables
/// takes every line of its length that holds them there: states and verbs,
/// `Job deploy failed` among `Job build queued`.
const MIN_CONSTANTS_AFTER_MERGE: usize = 3;

/// Whether a word is a name of something, not prose: punctuation between its
/// letters (`:core:jar`, `[id=acme-orders]`; `api.example.com` facing a plain
/// word: two such names are values already, [`evidenced`]). A state or
/// a verb (`failed`, `stopped.`, `UP-TO-DATE`) is none: the distinct-values
/// rule holds it to the stricter similarity, so that `Run state: failure` is
/// not folded into a template of `Run state: running`.
fn is_a_name(word: &str) -> bool {
    word.as_bytes().windows(3).any(|w| {
        w[0].is_ascii_alphanumeric()
            && matches!(w[1], b':' | b'/' | b'.' | b'=' | b'@')
            && w[2].is_ascii_alphanumeric()
    })
}

/// Whether template token `t` equals token `i` of the masked line.
#[inline]
fn tok_eq(t: &Tok, m: &Masked, i: usize) -> bool {
    t.hash == m.token_hash(i) && bytes_eq(t.text.as_bytes(), m.bytes(i))
}

/// Sorted hashes of the plain tokens of a pattern.
fn word_hashes(toks: &[Tok]) -> Box<[u64]> {
    let mut v: Vec<u64> = toks
        .iter()
        .filter(|t| is_word(t.kind))
        .map(|t| t.hash)
        .collect();
    v.sort_unstable();
    v.into_boxed_slice()
}

/// Most templates of one length compared with a new line (those sharing
/// the most words with it).
const MAX_CANDIDATES: usize = 32;

/// Most candidates of other lengths a line is aligned with ([`Miner::find_other_len`]):
/// each alignment costs the product of the lengths, and a log whose every line is a new
/// shape (wide keyed lines, a state at each of many keys) would pay it with every
/// candidate of every nearby length.
const MAX_ALIGNMENTS: usize = 64;

/// Most index entries gathered when looking for candidates.
const MAX_POSTINGS: usize = 256;

/// The lengths a word has posting lists at ([`Miner::lengths`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Lengths {
    /// A bit per length ([`length_bit`]).
    bits: u64,
    /// How many lists it has at lengths from 63 up, which share the last bit.
    long: u32,
}

impl Lengths {
    /// A list at `len` was made.
    fn add(&mut self, len: u32) {
        self.bits |= length_bit(len);
        self.long += u32::from(len >= 63);
    }

    /// The list at `len` went.
    fn remove(&mut self, len: u32) {
        if len >= 63 {
            // Saturating: only colliding posting keys (a chance of 2^-64) could make
            // more removals than lists made.
            self.long = self.long.saturating_sub(1);
            if self.long > 0 {
                return;
            }
        }
        self.bits &= !length_bit(len);
    }
}

/// A length's bit in [`Lengths`]: lengths from 63 up share the last one.
fn length_bit(len: u32) -> u64 {
    1 << len.min(63)
}

fn posting_key(len: u32, w: u64) -> u64 {
    (w ^ u64::from(len).wrapping_mul(0xc2b2_ae3d_27d4_eb4f)).rotate_left(23)
}

/// Size of the multiset intersection of two sorted slices.
fn common(a: &[u64], b: &[u64]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        n += usize::from(x == y);
        i += usize::from(x <= y);
        j += usize::from(y <= x);
    }
    n
}

/// Stamped masked lines ([`Masked::stamp`]) known to fit a shape: a direct-mapped table
/// whose entries hold while no shape is made, changed or killed (an epoch says which
/// entries are current, so forgetting them all costs one increment).
#[derive(Debug)]
struct Fitted {
    /// (stamp, shape, epoch); stamp 0 is no entry.
    entries: Box<[(u64, u32, u64)]>,
    epoch: u64,
}

impl Fitted {
    const SLOTS: usize = 1024;

    fn new() -> Fitted {
        Fitted {
            entries: vec![(0, 0, 0); Self::SLOTS].into_boxed_slice(),
            epoch: 0,
        }
    }

    fn slot(stamp: u64) -> usize {
        (stamp.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - Self::SLOTS.trailing_zeros())) as usize
    }

    /// The shape that tokens with `stamp` fit, if known and still current.
    fn get(&self, stamp: u64) -> Option<u32> {
        let (known, shape, epoch) = self.entries[Self::slot(stamp)];
        (stamp != 0 && known == stamp && epoch == self.epoch).then_some(shape)
    }

    /// Tokens with `stamp` fit live shape `shape`.
    fn insert(&mut self, stamp: u64, shape: u32) {
        if stamp != 0 {
            self.entries[Self::slot(stamp)] = (stamp, shape, self.epoch);
        }
    }

    /// A shape changed: no entry holds any more.
    fn forget_all(&mut self) {
        self.epoch += 1;
    }
}

/// Whether the masked line fits the shape: same length, every constant
/// token equal. Compares bytes only: it does not need the token hashes. A shape of
/// variables only (of a line of values: `0a:c0:65`, `42`) fits lines of values only
/// (`ab:cd:65`), not every line of its length (`CA:TRUE`, `DNS:localhost`).
fn fits(toks: &[Tok], m: &Masked) -> bool {
    toks.len() == m.len()
        && toks
            .iter()
            .enumerate()
            .all(|(i, t)| t.kind == TokenKind::Wild || bytes_eq(t.text.as_bytes(), m.bytes(i)))
        && (toks.iter().any(|t| t.kind != TokenKind::Wild)
            || (0..m.len()).all(|i| !is_word(m.kind(i))))
}

/// Whether two shapes can match a common line and say one event: same length,
/// every position equal or variable in one of them, a plain word with a letter equal
/// in both, and at least `least` tokens constant in both (two where one shape was made
/// of many distinct words: `[INFO] <*> [jar]` of Maven's modules and `[INFO] Running
/// <*>` of its tests, unified, would take its `[INFO] BUILD SUCCESS`). Shapes that
/// share no word (`<*> status <*> <*>`, `<*> <*> <*> <none>`), or only `=`, say nothing
/// in common: unified, every line of their length would fold into them.
fn unifiable(a: &[Tok], b: &[Tok], least: usize) -> bool {
    let same = |x: &Tok, y: &Tok| x.hash == y.hash && x.text == y.text;
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.kind == TokenKind::Wild || y.kind == TokenKind::Wild || same(x, y))
        && a.iter()
            .zip(b)
            .any(|(x, y)| x.kind == TokenKind::Word && same(x, y) && names(&x.text))
        && (a.iter().zip(b))
            .filter(|(x, y)| x.kind != TokenKind::Wild && y.kind != TokenKind::Wild)
            .count()
            >= least
}

/// Whether a plain word names something: it has a letter (not `=`, `-`, `|`).
fn names(word: &str) -> bool {
    word.bytes().any(|b| b.is_ascii_alphabetic())
}

/// Whether two differing tokens at one position are evidence of a variable:
/// one side is fully variable, or both look like values (masked values,
/// file or host names, paths), or a masked value faces a plain word (a host
/// name with and without digits, say). Two different plain words are no
/// evidence (`opened` / `closed`); they need the distinct-values rule.
///
/// `key=...` pairs with different keys (`count=3` / `requested=false`) are
/// no evidence either: they are different fields.
fn evidenced(a: TokenKind, at: &[u8], b: TokenKind, bt: &[u8]) -> bool {
    use TokenKind::*;
    let kinds = match (a, b) {
        (Wild, _) | (_, Wild) => return true,
        (Word, Word) | (Word, Value) | (Value, Word) => false,
        _ => true,
    };
    kinds
        && same_key(at, bt)
        && !(a == Masked
            && b == Masked
            && is_grouped(at)
            && is_grouped(bt)
            && !share_a_word(at, bt))
}

/// Whether a token is a group of several words (`(2: No such file or directory),`).
fn is_grouped(t: &[u8]) -> bool {
    t.contains(&b' ')
}

/// Whether two tokens have a word (two letters or more) in common, or one has none: two
/// groups of words and values that share none say different things (nginx's `(2: No
/// such file or directory),` and `(13: Permission denied),`), whatever values they hold;
/// a group of values only (`( 3552 3534 )`) is a value. (Groups of words alone, a
/// thread's name, `[AsyncDispatcher event handler]`, are header fields.)
fn share_a_word(a: &[u8], b: &[u8]) -> bool {
    fn words(t: &[u8]) -> impl Iterator<Item = &[u8]> + Clone {
        t.split(|c| !c.is_ascii_alphabetic())
            .filter(|w| w.len() > 1)
    }
    let (mut a, b) = (words(a), words(b));
    a.clone().next().is_none() || b.clone().next().is_none() || a.any(|w| b.clone().any(|v| v == w))
}

/// Whether two tokens do not have different keys.
fn same_key(a: &[u8], b: &[u8]) -> bool {
    match (key_of(a), key_of(b)) {
        (Some(ka), Some(kb)) => ka == kb,
        _ => true,
    }
}

/// Whether two `key=value` tokens are values of one key that name something by parts
/// ([`named_value_key`]).
fn same_field(a: &[u8], b: &[u8]) -> bool {
    named_value_key(a).is_some_and(|key| named_value_key(b) == Some(key))
}

/// The key of a `key=value` token whose value names something by parts (`default/api`,
/// `web-tls`, `api.example.com`): not a line's message (logfmt's `msg="…"`), whose value
/// is what the line says, nor a word alone (`status="error"`, `reason="BackOff"`,
/// `action="delete_repository"`), a state or a kind whose values are different events.
fn named_value_key(t: &[u8]) -> Option<&[u8]> {
    let key = key_of(t).filter(|key| !matches!(*key, b"msg" | b"message" | b"event" | b"text"))?;
    let eq = t.iter().position(|&c| c == b'=')?;
    let value = t[eq + 1..].trim_ascii_end();
    let value = value.strip_prefix(b"\"").unwrap_or(value);
    let value = value.strip_suffix(b"\"").unwrap_or(value);
    let by_parts = value.windows(3).any(|w| {
        w[0].is_ascii_alphanumeric()
            && matches!(w[1], b'/' | b'.' | b'-' | b':' | b'@')
            && w[2].is_ascii_alphanumeric()
    });
    by_parts.then_some(key)
}

/// The key of a `key=value` token (`uid` in `(uid=0)`), if it has one.
fn key_of(t: &[u8]) -> Option<&[u8]> {
    let eq = t.iter().position(|&c| c == b'=')?;
    let start = t[..eq]
        .iter()
        .rposition(|c| !(c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-')))
        .map_or(0, |p| p + 1);
    (start < eq).then(|| &t[start..eq])
}

/// Whether a token may stand in an unaligned stretch between a line and a
/// template of another length: values and unit words; only masked values
/// and units may be inserted (an extra `user=root` is another event).
fn gap_token(kind: TokenKind, text: &str, insertion: bool) -> bool {
    match kind {
        TokenKind::Wild | TokenKind::Masked => true,
        TokenKind::Value => !insertion,
        TokenKind::Word => is_unit(text),
    }
}

/// Unit words that follow a number inside a value (`18.4 KB`, `3 sec`).
fn is_unit(t: &str) -> bool {
    const UNITS: [&str; 26] = [
        "b", "kb", "mb", "gb", "tb", "kib", "mib", "gib", "tib", "bytes", "byte", "ns", "us", "ms",
        "s", "sec", "secs", "second", "seconds", "min", "mins", "minutes", "h", "hr", "hrs",
        "hours",
    ];
    let w = t.trim_matches(|c: char| !c.is_ascii_alphabetic());
    if w.len() != t.len() && w.len() + 2 < t.len() {
        return false;
    }
    UNITS.iter().any(|unit| unit.eq_ignore_ascii_case(w))
}

/// The tokens of a masked line (with hashes), its tokens' texts `texts`.
fn toks_of(m: &Masked, texts: &[Text]) -> Vec<Tok> {
    (0..m.len())
        .map(|i| Tok {
            text: texts[i].clone(),
            kind: m.kind(i),
            hash: m.token_hash(i),
        })
        .collect()
}

/// The texts of a masked line's tokens: pieces of one copy of its text, but for its
/// variables, which share the one wildcard.
fn texts_of(m: &Masked) -> Vec<Text> {
    let wild = Tok::wild().text;
    let all: Option<Arc<str>> = m.all_text().map(Into::into);
    (0..m.len())
        .map(|i| {
            if m.kind(i) == TokenKind::Wild {
                return wild.clone();
            }
            let (start, end) = m.span(i);
            all.as_ref()
                .and_then(|all| Text::piece(all, start, end))
                // Never (tokens end at ASCII bytes); a copy rather than a panic.
                .unwrap_or_else(|| m.text(i).into())
        })
        .collect()
}

/// What the tokens a display is generalized with stand for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Seen {
    /// Lines' tokens, or another display: each `<*>` is any value.
    Lines,
    /// A shape's tokens, after the displays of its groups were merged: its `<*>` holds
    /// values the display already covers, so a key's `<*>` there stays.
    Shape,
}

/// Generalizes the display tokens `a` with `b`: aligned equal tokens stay, aligned
/// values of one key (`rhost=10.0.0.1`, `rhost=ec2-…`) become the key's `rhost=<*>`,
/// other aligned tokens and unaligned stretches one `<*>` each (consecutive ones merge).
/// Returns whether a key's `<*>` was made of values that differed.
fn merge_display(a: &mut Vec<Text>, b: &[Text], seen: Seen) -> bool {
    let keeps = |x: &str, y: &str| {
        covers(x, y) || (seen == Seen::Shape && y == WILDCARD && is_key_wildcard(x))
    };
    // A key's `<*>` kept for another token stands for values that differ.
    let keyed_for = |x: &str, y: &str| x != y && is_key_wildcard(x);
    if a.len() == b.len() && a.iter().zip(b).all(|(x, y)| keeps(x, y)) {
        return a.iter().zip(b).any(|(x, y)| keyed_for(x, y));
    }
    if b.is_empty() {
        return false;
    }
    let steps = display_alignment(a, b);
    let mut keyed = false;
    let mut out: Vec<Text> = Vec::with_capacity(a.len().max(b.len()));
    for st in steps {
        let kept = match st {
            Step::Match(i, _) if &*a[i] == WILDCARD => None,
            Step::Match(i, j) if keeps(&a[i], &b[j]) => {
                keyed |= keyed_for(&a[i], &b[j]);
                Some(a[i].clone())
            }
            Step::Match(i, j) => shared_key(&a[i], &b[j]).map(|key| {
                keyed = true;
                format!("{key}{WILDCARD}").into()
            }),
            Step::Gap { .. } => None,
        };
        match kept {
            Some(token) => out.push(token),
            None if out.last().is_none_or(|t| &**t != WILDCARD) => out.push(Tok::wild().text),
            None => {}
        }
    }
    *a = out;
    keyed
}

/// The alignment [`merge_display`] merges displays `a` and `b` by: their alike front
/// and back matched as they are, and the rest aligned by [`display_steps`].
///
/// A line that differs from its template in one value (the commonest merge) leaves
/// one token to align rather than the product of the lengths. Matching the alike back
/// loses no weight (an alike pair weighs the most, and any alignment that leaves the
/// last pair unmatched can swap its last match for it); where another alignment
/// weighs as much, the back is matched at the back.
fn display_alignment(a: &[Text], b: &[Text]) -> Vec<Step> {
    let same = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let back = (a[same..].iter().rev())
        .zip(b[same..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (a_end, b_end) = (a.len() - back, b.len() - back);
    let mut steps = display_steps(&a[..a_end], &b[..b_end], same);
    steps.extend((0..back).map(|k| Step::Match(a_end + k, b_end + k)));
    steps
}

/// The alignment of displays `a` and `b`, given that their first `same` tokens are
/// alike.
///
/// Those are matched whatever follows, and only the rest is aligned: the alignment
/// `align` picks matches a pair of the top weight (2) at the front, as no pair weighs
/// more and it prefers matching early.
fn display_steps(a: &[Text], b: &[Text], same: usize) -> Vec<Step> {
    let (at, bt) = (aligned(&a[same..]), aligned(&b[same..]));
    let rest = align(a.len() - same, b.len() - same, |i, j| {
        let (x, y) = (&at[i], &bt[j]);
        let (i, j) = (same + i, same + j);
        if (x.hash == y.hash && a[i] == b[j])
            || (x.key != 0 && x.key == y.key && shared_key(&a[i], &b[j]).is_some())
        {
            2
        } else {
            u16::from(x.wild || y.wild)
        }
    });
    let mut steps: Vec<Step> = (0..same).map(|i| Step::Match(i, i)).collect();
    steps.extend(rest.into_iter().map(|st| st.shifted(same)));
    steps
}

/// What [`merge_display`]'s alignment compares of a display token, worked out once per
/// token rather than once per pair.
struct Aligned {
    hash: u64,
    /// The hash of its key ([`value_key`]), odd; 0 when it has none.
    key: u64,
    wild: bool,
}

fn aligned(tokens: &[Text]) -> Vec<Aligned> {
    let aligned = |t: &str| Aligned {
        hash: hash_bytes(t.as_bytes()),
        key: value_key(t).map_or(0, |key| hash_bytes(key.as_bytes()) | 1),
        wild: t == WILDCARD,
    };
    tokens.iter().map(|t| aligned(t)).collect()
}

/// Whether the display token `shown` stands for `token` as it is: the same, `<*>`, or
/// the values of its key (`id=<*>` for `id=ab12`).
fn covers(shown: &str, token: &str) -> bool {
    shown == token
        || shown == WILDCARD
        || (is_key_wildcard(shown) && token.starts_with(&shown[..shown.len() - WILDCARD.len()]))
}

/// The key, with its `=`, a whole token is a value of (`rhost=` of `rhost=10.0.0.1`;
/// not of `(uid=0)`, as [`key_of`] reads it): a name of word bytes, `-` and `.`.
fn value_key(token: &str) -> Option<&str> {
    let eq = token.find('=')?;
    let name = &token[..eq];
    (!name.is_empty()
        && name
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.')))
    .then_some(&token[..=eq])
}

/// Whether `token` is a key's values: `rhost=<*>`.
fn is_key_wildcard(token: &str) -> bool {
    token
        .strip_suffix(WILDCARD)
        .is_some_and(|key| value_key(token) == Some(key))
}

/// The key that the tokens `a` and `b` are both values of.
fn shared_key<'a>(a: &'a str, b: &str) -> Option<&'a str> {
    value_key(a).filter(|key| b.starts_with(key))
}

/// `s` without trailing `\n` and `\r` (as `trim_end_matches(['\n',
/// '\r'])`, a byte at a time).
#[inline]
pub(crate) fn trim_newline(s: &str) -> &str {
    let b = s.as_bytes();
    let mut end = b.len();
    while end > 0 && matches!(b[end - 1], b'\n' | b'\r') {
        end -= 1;
    }
    // Only ASCII bytes were cut: `end` is a char boundary.
    s.get(..end).unwrap_or(s)
}

fn truncate(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn miner() -> Miner {
        Miner::new(Config::default())
    }

    fn text(m: &Miner, id: GroupId) -> String {
        m.get(id).unwrap().text()
    }

    #[test]
    fn lines_masked_beforehand_fold_as_lines_added_whole() {
        let config = Config {
            max_templates: 8,
            ..Config::default()
        };
        let (mut whole, mut prepared) = (Miner::new(config.clone()), Miner::new(config.clone()));
        let mut masked = MaskedLine::default();
        for n in 0..400u64 {
            // Shapes that merge, split, and overflow the cap of 8 templates.
            let line = changing_line(n);
            masked.fill(&line, &config);
            let a = whole.add_numbered(&line, n + 1);
            let b = prepared.add_prepared(&mut masked, &line, n + 1);
            assert_eq!(a, b, "{line}");
        }
        let texts = |m: &Miner| -> Vec<(String, u64)> {
            m.templates_by_count()
                .iter()
                .map(|t| (t.text(), t.count()))
                .collect()
        };
        assert_eq!(texts(&whole), texts(&prepared));
        assert_eq!(whole.overflow_count(), prepared.overflow_count());
        assert!(whole.overflow_count() > 0, "the cap was reached");
    }

    #[test]
    fn shapes_that_share_no_word_are_not_one_event() {
        // dpkg.log: the action's word became a field, and the shapes of different
        // actions widened until they had no word in common. Unified then, every line
        // of the log ended in one template, `<*>`.
        let lines = [
            "2025-06-24 14:37:03 trigproc libc-bin:amd64 2.36-9+deb12u10 <none>",
            "2025-06-24 14:37:03 trigproc ca-certificates:all 20230311+deb12u1 <none>",
            "2025-06-24 14:39:43 configure librsvg2-2:amd64 2.54.7+dfsg-1~deb12u1 <none>",
            "2025-06-24 14:39:43 configure libatk-wrapper-java-jni:amd64 0.40.0-3 <none>",
            "2025-06-24 14:39:43 status installed libatk-wrapper-java-jni:amd64 0.40.0-3",
            "2025-06-24 14:39:43 configure gsettings-desktop-schemas:all 43.0-1 <none>",
            "2025-06-24 14:39:43 trigproc ca-certificates-java:all 20230710~deb12u1 <none>",
        ];
        let mut m = miner();
        let ids: Vec<GroupId> = lines.iter().map(|line| m.add(line)).collect();
        let status = m.resolve(ids[4]);
        assert!(
            text(&m, status).contains("status installed"),
            "{}",
            text(&m, status)
        );
        for (id, line) in ids.iter().zip(lines) {
            if !line.contains(" status ") {
                assert_ne!(m.resolve(*id), status, "{line}");
            }
        }
        for t in m.templates() {
            assert_ne!(t.text(), WILDCARD, "{} lines", t.count());
        }
    }

    /// Lines that make templates, then widen and merge them as new words come.
    fn changing_line(n: u64) -> String {
        const WORDS: [&str; 12] = [
            "root", "alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan",
            "judy", "mallory",
        ];
        match n % 6 {
            0 => format!(
                "Accepted password for user{} from 10.0.0.{}",
                n % 7,
                n % 250
            ),
            1 => format!(
                "session {n} opened for {}",
                WORDS[(n / 30) as usize % WORDS.len()]
            ),
            2 => format!(
                "kind{} event with {} words",
                n % 13,
                "w ".repeat(n as usize % 4)
            ),
            3 => format!("GET /api/v{}/items/{n} 200\r\n", n % 3),
            4 => format!(
                "job {} finished {} {}",
                n % 11,
                WORDS[(n / 50) as usize % WORDS.len()],
                WORDS[(n / 70) as usize % WORDS.len()]
            ),
            _ => format!("{n}"),
        }
    }

    #[test]
    fn stamped_lines_from_two_maskers_fold_as_unstamped_ones() {
        // As two workers mask every other batch: their stamps let the miner skip the
        // token comparison, which must not change any result while shapes change.
        let config = Config::default();
        // The reference: tokens without a stamp, compared every time.
        let (mut whole, mut prepared) = (Miner::new(config.clone()), Miner::new(config.clone()));
        let mut maskers = [Masker::new(&config), Masker::new(&config)];
        let (mut unstamped, mut masked) = (MaskedLine::default(), MaskedLine::default());
        for n in 0..3_000u64 {
            let line = changing_line(n);
            unstamped.fill(&line, &config);
            maskers[(n / 7) as usize % 2].fill(&line, &mut masked);
            assert_eq!(unstamped.0.stamp(), 0);
            let a = whole.add_prepared(&mut unstamped, &line, n + 1);
            let b = prepared.add_prepared(&mut masked, &line, n + 1);
            assert_eq!(a, b, "{line}");
        }
        assert!(
            prepared.fitted.epoch > 10,
            "{}: too few shape changes",
            prepared.fitted.epoch
        );
        let texts = |m: &Miner| -> Vec<(String, u64, u64, u64)> {
            m.templates_by_count()
                .iter()
                .map(|t| (t.text(), t.count(), t.first_line(), t.last_line()))
                .collect()
        };
        assert_eq!(texts(&whole), texts(&prepared));
    }

    #[test]
    fn values_fold_into_one_template() {
        let mut m = miner();
        let a = m.add("2024-01-01 10:00:01 INFO worker 7 started in 35 ms on 10.0.0.1:80");
        let b = m.add("2024-01-02 11:22:33 INFO worker 12 started in 4 ms on 10.0.0.2:8080");
        assert_eq!(a, b);
        assert_eq!(text(&m, a), "<*> INFO worker <*> started in <*> ms on <*>");
        assert_eq!(m.get(a).unwrap().count(), 2);
        assert_eq!(m.len(), 1);
    }

    #[test]
    fn lines_alike_in_header_fields_and_punctuation_only_stay_apart() {
        // strace: `<...` and `resumed>)` in the first, `NONBLOCK)` in the second become
        // fields (words seen in that place in several templates); only `=` is left in
        // common. All of it had folded into `<*> = <*>`.
        let mut m = miner();
        let resumed = ["close", "getpid", "execve", "exit_group"]
            .map(|call| m.add(&format!("11073 <... {call} resumed>) = 0")));
        for call in ["getrandom", "read", "write", "pread"] {
            m.add(&format!("11072 {call}(3, \"a1\", NONBLOCK) = 8"));
        }
        let lseek = m.add("11074 lseek(3, \"b2\", NONBLOCK) = 8");
        assert_ne!(m.resolve(lseek), m.resolve(resumed[0]));
        assert_eq!(text(&m, resumed[0]), "<*> <... <*> resumed>) = <*>");
        assert_eq!(text(&m, lseek), "<*> lseek(<*>, \"<*>\", NONBLOCK) = <*>");
        assert_eq!(m.len(), 6);

        // The same across lengths (`strace -f -tt`).
        let mut m = miner();
        let resumed = ["rseq", "set_robust_list", "mmap", "close"]
            .map(|call| m.add(&format!("[pid 11] 05:48:37.1 <... {call} resumed>) = 0")));
        let close = m.add("[pid 15] 05:48:37.5 close(4)    = 0");
        assert_ne!(m.resolve(close), m.resolve(resumed[0]));
        assert_eq!(text(&m, close), "[pid <*>] <*> close(<*>) = <*>");
    }

    #[test]
    fn shapes_alike_in_punctuation_only_are_not_one_event() {
        // ltrace: `strcoll("a", <*> = <*>` and a shape of `strchr`'s with its call
        // variable had only `=` in common; unified, every call of that length joined.
        let shape = |line: &str, wild: &[usize]| {
            let mut m = MaskedLine::default();
            m.fill(line, &Config::default());
            m.0.hash_tokens();
            let mut toks = toks_of(&m.0, &texts_of(&m.0));
            for &i in wild {
                toks[i] = Tok::wild();
            }
            toks
        };
        let strcoll = shape("100 strcoll(\"a\", \"b\") = 5", &[0, 2, 4]);
        let strchr = shape("100 strchr(\"c1\", '%') = nil", &[0, 1]);
        assert!(!unifiable(&strcoll, &strchr, 1));
        let strcoll_too = shape("100 strcoll(\"a\", \"d\") = 7", &[0, 4]);
        assert!(unifiable(&strcoll, &strcoll_too, 1));
    }

    #[test]
    fn a_line_of_values_is_joined_by_values_only() {
        // `openssl x509 -text`: the key's hex rows, and the fields among them.
        let mut m = miner();
        let hex = m.add("                    0a:c0:65");
        assert_eq!(m.add("                    ab:cd:65"), hex);
        for field in ["                CA:TRUE", "                DNS:localhost"] {
            assert_ne!(m.add(field), hex, "{field}");
        }
        assert_eq!(text(&m, hex), "<*>");
    }

    #[test]
    fn groups_of_values_that_share_no_word_stay_apart() {
        let mut m = miner();
        let line = |n: u32, reason: &str| {
            format!("2026/12/07 08:24:13 [error] 966#966: *{n} open() \"/srv/f{n}.js\" failed ({reason}), client: 10.0.0.{n}")
        };
        let missing = m.add(&line(4, "2: No such file or directory"));
        let denied = m.add(&line(8, "13: Permission denied"));
        assert_ne!(m.resolve(missing), m.resolve(denied));
        let again = m.add(&line(9, "2: No such file or directory"));
        assert_eq!(m.resolve(again), m.resolve(missing));
        // Hosts of different names, a token each; a group of values only, another list
        // of them; a thread's name, another thread.
        let a = m.add("12:00:01 node-17 kernel: link up on eth0 now");
        let b = m.add("12:00:02 web-3 kernel: link up on eth0 now");
        assert_eq!(m.resolve(a), m.resolve(b));
        let a = m.add("12:00:01 fan 7 speeds (3552 3534 3375) ok");
        let b = m.add("12:00:02 fan 8 speeds (3552 3534 3375 4245) ok");
        assert_eq!(m.resolve(a), m.resolve(b));
        let a =
            m.add("12:00:01 INFO [AsyncDispatcher event handler] rack: Resolved h1 to /default");
        let b = m.add("12:00:02 INFO [RMCommunicator Allocator] rack: Resolved h2 to /default");
        assert_eq!(m.resolve(a), m.resolve(b));
    }

    #[test]
    fn different_words_stay_apart() {
        let mut m = miner();
        let a = m.add("Jun 14 15:16:01 host sshd[1]: session opened for user root");
        let b = m.add("Jun 14 15:16:02 host sshd[2]: session closed for user root");
        let c = m.add("Jun 14 15:16:03 host api[3]: \"GET /a HTTP/1.1\" status: 200");
        let d = m.add("Jun 14 15:16:04 host api[3]: \"POST /a HTTP/1.1\" status: 200");
        let ids = [a, b, c, d].map(|x| m.resolve(x));
        for i in 0..4 {
            for j in i + 1..4 {
                assert_ne!(ids[i], ids[j], "{i} {j}");
            }
        }
    }

    #[test]
    fn many_distinct_words_make_a_variable() {
        let mut m = miner();
        let users = ["admin", "oracle", "test", "guest", "ubuntu"];
        let line = |i: usize| {
            format!(
                "Dec 10 06:55:{i:02} LabSZ sshd[24200]: Invalid user {} from 1.2.3.{i}",
                users[i]
            )
        };
        let mut ids: Vec<GroupId> = (0..3).map(|i| m.add(&line(i))).collect();
        // Three distinct words are not enough ...
        assert_eq!(m.len(), 3);
        assert_ne!(m.resolve(ids[0]), m.resolve(ids[2]));
        // ... the fourth merges them; old ids resolve to the oldest.
        ids.push(m.add(&line(3)));
        ids.push(m.add(&line(4)));
        let root = m.resolve(ids[0]);
        assert_eq!(root, ids[0]);
        for id in &ids {
            assert_eq!(m.resolve(*id), root);
        }
        assert_eq!(
            ids[4], root,
            "a later line joins the merged template directly"
        );
        let t = m.get(ids[1]).unwrap();
        assert_eq!(t.count(), 5);
        assert_eq!(t.text(), "<*> LabSZ sshd[<*>]: Invalid user <*> from <*>");
        assert_eq!(m.templates().count(), 1);
    }

    #[test]
    fn short_lines_fold_by_two_words_that_name_something() {
        // Terraform's refresh of resources whose names hold a digit (`s3`): two words in
        // common, the rest a value.
        let mut m = miner();
        let ids: Vec<GroupId> = ["orders", "users", "audit"]
            .map(|name| m.add(&format!("aws_s3_bucket.{name}: Refreshing state...")))
            .into();
        assert!(ids.iter().all(|&id| m.resolve(id) == m.resolve(ids[0])));
        assert_eq!(text(&m, ids[0]), "<*> Refreshing state...");
        // Not when one of the two names nothing (`-`).
        let mut m = miner();
        for name in ["orders", "users", "audit"] {
            m.add(&format!("aws_s3_bucket.{name}: - Refreshed"));
        }
        assert_eq!(m.templates().count(), 3);
        // Two words in common that are header fields (a level, a logger's name, seen in
        // that place in three templates) are not enough: Android's `I NotificationManager:
        // cancelNotification,index:0` and `… cancelNotificationLocked:…` are two events.
        let mut m = miner();
        for message in [
            "queue drained fully now",
            "cache warmed up ok",
            "config loaded from disk",
        ] {
            m.add(&format!("12:00:01 I Svc: {message}"));
        }
        let a = m.add("12:00:04 I Svc: cancel,index:0");
        let b = m.add("12:00:05 I Svc: cancelLocked:0|pkg|null");
        assert_ne!(m.resolve(a), m.resolve(b));
    }

    #[test]
    fn many_distinct_words_make_a_variable_in_lines_that_open_with_their_verb() {
        // A build's progress, one line per target, crate or package: eight distinct
        // words in one place make it variable, however few words the lines share.
        let targets = [
            "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta",
        ];
        let folded = |lines: Vec<String>| {
            let mut m = miner();
            let ids: Vec<GroupId> = lines.iter().map(|line| m.add(line)).collect();
            let one = ids.iter().all(|&id| m.resolve(id) == m.resolve(ids[0]));
            (one, m.templates().count(), text(&m, ids[0]))
        };
        let built = |n: usize| {
            targets[..n]
                .iter()
                .map(|t| format!("Built target {t}"))
                .collect()
        };
        assert_eq!(folded(built(8)), (true, 1, "Built target <*>".into()));
        // Seven are not many.
        assert_eq!(folded(built(7)).1, 7);
        // cargo's, each crate of its version.
        let compiling = (targets.iter().enumerate())
            .map(|(i, t)| format!("   Compiling {t} v1.{i}.0"))
            .collect();
        assert!(folded(compiling).0);
        // A log's line opens with its time: the words after its header say which event
        // it is (Android's `V AudioManager: getMode...`, `… isMusicActive...`).
        let logged = (targets.iter().enumerate())
            .map(|(i, t)| format!("03-17 16:13:{i:02}.811 V AudioManager: {t}..."))
            .collect();
        assert_eq!(folded(logged).1, 8);
        // Nor when they differ in values only, too few words left for them to join
        // (`CC <*>`, two tokens): eight such shapes opening with one word are one.
        let objects = |n: usize, opening: &str| {
            (targets[..n].iter())
                .map(|t| format!("{opening}  CC      lib/{t}.o"))
                .collect()
        };
        assert_eq!(folded(objects(8, "")), (true, 1, "CC <*>".into()));
        assert_eq!(folded(objects(7, "")).1, 7);
        assert_eq!(folded(objects(8, "10:00:01")).1, 8);
        // Nor states beside their thing's id, each said once: a state follows an id, a
        // name its verb.
        let outcomes = [
            "failed", "canceled", "passed", "created", "pending", "manual", "timeout", "skipped",
        ];
        let by_id = (outcomes.iter().enumerate())
            .map(|(i, outcome)| format!("job {} {outcome}", 4101 + i))
            .collect();
        assert_eq!(folded(by_id).1, 8);
        let by_host = (outcomes.iter().zip(targets))
            .map(|(outcome, host)| format!("deploy {host}.example.com {outcome}"))
            .collect();
        assert_eq!(folded(by_host).1, 8);
        // Not when they differ in two words.
        let states = ["queued", "started", "failed", "stopped"];
        let jobs = (targets.iter().enumerate())
            .map(|(i, t)| format!("Job {t} {}", states[i % 4]))
            .collect();
        assert_eq!(folded(jobs).1, 8);
        // Nor states, which repeat where names do not: eight states of three lines each
        // stay eight templates; names said twice each (cargo's build script, then its
        // crate) merge.
        let repeated = |times: usize| {
            (targets.iter())
                .flat_map(|t| std::iter::repeat_n(format!("worker status {t}"), times))
                .collect()
        };
        assert_eq!(folded(repeated(3)).1, 8);
        assert_eq!(folded(repeated(2)).1, 1);
        // Maven: its reactor's modules (eight names), then its tests (`Running <*>`),
        // then its verdict, which stays itself: the modules' and the tests' templates
        // are not one, `[INFO] <*> <*>`, which it would join.
        let mut maven: Vec<String> = (targets.iter())
            .map(|t| format!("[INFO] acme-{t}  [jar]"))
            .collect();
        maven.extend(targets.map(|t| format!("[INFO] Running com.acme.{t}.AppTest")));
        maven.push("[INFO] BUILD SUCCESS".into());
        let mut m = miner();
        let ids: Vec<GroupId> = maven.iter().map(|line| m.add(line)).collect();
        assert_eq!(text(&m, ids[0]), "[INFO] <*> [jar]");
        assert_eq!(text(&m, ids[8]), "[INFO] Running <*>");
        assert_eq!(text(&m, ids[16]), "[INFO] BUILD SUCCESS");
        // Nor do eight verbs of one thing: the verb is what happened.
        let verbs = [
            "Compiling",
            "Checking",
            "Documenting",
            "Running",
            "Fresh",
            "Building",
            "Linking",
            "Testing",
        ];
        assert_eq!(folded(verbs.map(|verb| format!("{verb} core")).into()).1, 8);
    }

    #[test]
    fn shapes_that_share_one_word_unify() {
        // `git log --oneline`: subjects alike but in their words fold by the word they
        // share (a rare subject, a revert, then stands out), as they did before the
        // rule of many distinct words, whose own templates need two words in common.
        let greek = [
            "alpha", "beta", "gamma", "delta", "rho", "tau", "phi", "psi",
        ];
        let (kinds, verbs) = (
            ["feat", "fix", "docs", "chore"],
            ["update", "remove", "add"],
        );
        let things = ["parser", "config", "cache", "client"];
        let mut seed = 7u64;
        let mut pick = |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        let mut m = miner();
        for i in 0..150 {
            let line = format!(
                "{:07x} {}({}): {} {} {}",
                0x5f9d40a + i * 7919,
                kinds[pick(4)],
                greek[pick(8)],
                verbs[pick(3)],
                greek[pick(8)],
                things[pick(4)]
            );
            m.add(&line);
        }
        assert!(m.templates().count() <= 8, "{}", m.templates().count());
    }

    #[test]
    fn distinct_words_make_a_variable_in_lines_of_three_tokens() {
        // Gradle's tasks: the task's name is the only difference, the fourth name merges
        // them (two constants left, `>` and `Task`).
        let mut m = miner();
        let ids: Vec<GroupId> = [
            ":core:jar",
            ":api:test",
            ":web:classes",
            ":auth:compileJava",
        ]
        .map(|task| m.add(&format!("> Task {task}")))
        .into();
        assert!(ids.iter().all(|&id| m.resolve(id) == m.resolve(ids[0])));
        assert_eq!(text(&m, ids[0]), "> Task <*>");
        // Not states or verbs, which say what happened: `Job deploy failed` among `Job
        // build queued`.
        let mut m = miner();
        for state in ["queued", "started", "failed", "cancelled", "stopped"] {
            m.add(&format!("service api {state}"));
        }
        assert_eq!(m.templates().count(), 5);
        // Nor when a value the lines share is no word (`step-1`), however they spell the
        // state.
        let mut m = miner();
        for state in ["IDLE_WAIT", "TRANSIENT_FAILURE", "UP-TO-DATE", "NO-SOURCE"] {
            m.add(&format!("Run step-1 state: {state}"));
        }
        assert_eq!(m.templates().count(), 4);
        for (word, name) in [
            (":core:jar", true),
            ("[id=acme-orders]", true),
            ("api.example.com", true),
            ("user@host", true),
            ("failed.", false),
            ("UP-TO-DATE", false),
            ("TRANSIENT_FAILURE", false),
            (".hidden", false),
            ("..b", false),
            ("ok..", false),
        ] {
            assert_eq!(is_a_name(word), name, "{word}");
        }
        // Lines that differ in a value too are held to all their words: states of
        // machines on different hosts (`VM Resumed`, `VM Paused`) stay apart.
        let mut m = miner();
        let ids: Vec<GroupId> = [
            ("node", "Resumed"),
            ("web", "Paused"),
            ("db", "Started"),
            ("api", "Stopped"),
        ]
        .map(|(host, state)| m.add(&format!("{host}-1 VM state {state}")))
        .into();
        assert_eq!(m.templates().count(), 4, "{ids:?}");
        // And so are lines with a value in common (a request's id, OpenStack's `[instance:
        // …] VM Resumed (Lifecycle Event)`).
        let mut m = miner();
        for (n, state) in ["Resumed", "Paused", "Started", "Stopped"]
            .into_iter()
            .enumerate()
        {
            m.add(&format!("{} VM state {state}", 4000 + n));
        }
        assert_eq!(m.templates().count(), 4);
    }

    #[test]
    fn sizes_with_extra_tokens_join() {
        let mut m = miner();
        let a = m.add("[10.30 16:49:07] chrome.exe - proxy:5070 close, 403 bytes sent, 426 bytes received, lifetime <1 sec");
        let b = m.add("[10.30 16:49:08] chrome.exe - proxy:5070 close, 451 bytes sent, 18846 bytes (18.4 KB) received, lifetime <1 sec");
        let c = m.add("[10.30 16:49:09] chrome.exe - proxy:5070 close, 0 bytes sent, 0 bytes received, lifetime 00:01");
        assert_eq!(m.resolve(a), m.resolve(b));
        assert_eq!(m.resolve(a), m.resolve(c));
        // An extra plain word is another event.
        let d = m.add("[10.30 16:49:09] chrome.exe - proxy:5070 close, 0 bytes sent, 0 bytes received, lifetime 00:01 aborted");
        assert_ne!(m.resolve(a), m.resolve(d));
    }

    #[test]
    fn host_with_and_without_digits_join() {
        let mut m = miner();
        let a = m.add("Jul  1 09:01:05 calvisitor-10-105-160-95 kernel[0]: Thermal pressure state: 1 Memory pressure state: 0");
        let b = m.add("Jul  1 09:02:05 authorMacBook-Pro kernel[0]: Thermal pressure state: 0 Memory pressure state: 0");
        assert_eq!(m.resolve(a), m.resolve(b));
    }

    #[test]
    fn header_fields_merge_once_known() {
        // A state column with a few values, each seen with several messages.
        let mut m = miner();
        let mut ids = Vec::new();
        for (i, msg) in ["Link ok", "Link error", "Link in reset", "Fan failed"]
            .iter()
            .enumerate()
        {
            for state in ["error", "bcast-error"] {
                ids.push(m.add(&format!(
                    "{i}00 Interconnect-0T0{i} switch_module {state} 10{i} 1 {msg}"
                )));
            }
        }
        // Once `error` / `bcast-error` are known fields, the same message
        // under either state is one template ...
        assert_eq!(m.resolve(ids[0]), m.resolve(ids[1]));
        assert_eq!(m.resolve(ids[2]), m.resolve(ids[3]));
        // ... and different messages stay apart.
        assert_ne!(m.resolve(ids[0]), m.resolve(ids[2]));
        assert_ne!(m.resolve(ids[2]), m.resolve(ids[4]));
    }

    #[test]
    fn a_pair_refused_before_aligning_is_one_the_alignment_refuses() {
        // `cannot_align` spares `cross_score` its alignment: it may refuse only what
        // that refuses. Every pair of lines of nearby lengths, with header fields
        // known (the states of `header_fields_merge_once_known`) and unit words.
        let config = Config::default();
        let mut m = Miner::new(config.clone());
        let mut lines: Vec<String> = (0..120).map(changing_line).collect();
        for (i, msg) in ["Link ok", "Link error", "Link in reset", "Fan failed"]
            .iter()
            .enumerate()
        {
            for state in ["error", "bcast-error"] {
                lines.push(format!(
                    "{i}00 Interconnect-0T0{i} switch_module {state} 10{i} 1 {msg}"
                ));
                lines.push(format!("{i}00 Interconnect-0T0{i} 10{i} 1 {msg}"));
            }
        }
        for size in ["18.4 KB", "1024", "3 MiB"] {
            lines.push(format!("copied {size} to backup in 3 sec"));
            lines.push(format!("copied {size} to backup in 3"));
        }
        for line in &lines {
            m.add(line);
        }
        let masked: Vec<Masked> = lines
            .iter()
            .map(|line| {
                let mut masked = MaskedLine::default();
                masked.fill(line, &config);
                masked.0.hash_tokens();
                masked.0
            })
            .collect();
        let (mut refused, mut aligned) = (0, 0);
        let mut scratch = Scratch::default();
        for a in &masked {
            let toks = toks_of(a, &texts_of(a));
            for b in &masked {
                if a.len() == b.len() || a.len().abs_diff(b.len()) > config.max_length_delta {
                    continue;
                }
                let mut hashes: Vec<u64> = (0..b.len()).map(|i| b.token_hash(i)).collect();
                hashes.sort_unstable();
                let score = m.cross_score(&toks, b, &mut scratch);
                if m.cannot_align(&toks, &hashes) {
                    assert_eq!(score, None, "{:?} / {:?}", texts_of(a), texts_of(b));
                    refused += 1;
                } else if score.is_some() {
                    aligned += 1;
                }
            }
        }
        assert!(
            refused > 1000 && aligned > 20,
            "{refused} refused, {aligned} aligned"
        );
    }

    #[test]
    fn a_line_joins_a_template_of_another_length() {
        // The same message with a value of more tokens, and with a header of known
        // fields before it: its words are fewer than the similarity rule asks of the
        // longer line, its other words all header fields.
        let mut m = miner();
        let short = m.add("copied 12 bytes to backup disk in 3 sec");
        let long = m.add("copied 18846 bytes (18.4 KB) to backup disk in 3 sec");
        assert_eq!(m.resolve(short), m.resolve(long));
        let bare = m.add("disk check passed");
        for message in ["alpha beta gamma", "delta epsilon zeta", "eta theta iota"] {
            m.add(&format!("calvisitor INFO {message}"));
        }
        let headed = m.add("calvisitor INFO disk check passed");
        assert_eq!(m.resolve(bare), m.resolve(headed));
        assert_eq!(m.len(), 5);
    }

    #[test]
    fn a_new_shape_in_a_freed_slot_is_compared_with_those_after_it() {
        // `merge_distinct` takes the line's candidates and the new shape as they come
        // from `candidates`, in order of slot: a merge frees slots, and a new shape
        // takes one below a live shape it shares words with. (The debug assertion that
        // compares fails this test; a release build runs it without.)
        let mut m = miner();
        for user in ["alice", "bob", "carol"] {
            m.add(&format!("user {user} logged in from console"));
        }
        m.add("user admin logged out from terminal");
        let merged = m.add("user dave logged in from console");
        assert_eq!(text(&m, merged), "user <*> logged in from console");
        // Three slots freed; the last freed is taken first, by another line.
        assert_eq!(m.free_shapes.len(), 3);
        m.add("disk check passed");
        let erin = m.add("user erin logged out from console");
        let slot_of = |word: &str| {
            let holds = |shape: &Shape| shape.live && &*shape.toks[1].text == word;
            m.shapes.iter().position(holds)
        };
        let (slot, admin) = (slot_of("erin"), slot_of("admin"));
        assert!(slot < admin, "{slot:?} {admin:?}");
        assert_eq!(text(&m, erin), "user erin logged out from console");
        assert_eq!(m.len(), 4);
    }

    #[test]
    fn lengths_are_those_of_the_live_shapes() {
        // `find_other_len` skips a length when few of the line's words have postings
        // at it; `lengths` says which, exactly, as shapes are made, widened, merged and
        // dropped, so that it holds no more words than the live shapes. A cap of 8
        // templates sends lines to the overflow. Distinct words in one place (`user
        // alice`, `user bob`, ...) make shapes that merge, all but one dropped: short
        // lines, and lines of 63 tokens and more (whose lengths share a bit).
        let (mut dropped, mut cleared) = (0, 0);
        for max_templates in [8, 10_000] {
            let mut m = Miner::new(Config {
                max_templates,
                ..Config::default()
            });
            for n in 0..3000 {
                let (live, before) = (m.live_shapes, m.lengths.clone());
                m.add(&changing_line(n));
                let user = ["root", "alice", "bob", "carol", "dave"][n as usize / 7 % 5];
                m.add(&format!("user {user} logged in from console {}", n % 3));
                let long = "x ".repeat(58 + n as usize % 6);
                m.add(&format!("user {user} sent {long}to console"));
                let mut expected: IdMap<u64, Lengths> = IdMap::default();
                let mut lists = std::collections::HashSet::new();
                for shape in m.shapes.iter().filter(|shape| shape.live) {
                    let len = shape.toks.len() as u32;
                    let none = shape.words.is_empty().then_some(0);
                    for w in shape.words.iter().copied().chain(none) {
                        if lists.insert((w, len)) {
                            expected.entry(w).or_default().add(len);
                        }
                    }
                }
                assert_eq!(m.lengths, expected, "line {n}");
                dropped += usize::from(m.live_shapes < live);
                let now = |w| m.lengths.get(w).map_or(0, |lengths| lengths.bits);
                cleared += before
                    .iter()
                    .filter(|(w, was)| was.bits & !now(w) != 0)
                    .count();
            }
        }
        // Shapes were dropped, and their lengths cleared, not only set.
        assert!(
            dropped > 0 && cleared > 0,
            "{dropped} dropped, {cleared} cleared"
        );
    }

    #[test]
    fn different_keys_are_different_fields() {
        let mut m = miner();
        let a = m.add("D Display: stopScan mWifiDisplayScanRequestCount=0 now");
        let b = m.add("D Display: stopScan record.mWifiDisplayScanRequested=false now");
        assert_ne!(m.resolve(a), m.resolve(b));
        assert_eq!(key_of(b"(uid=0)"), Some(&b"uid"[..]));
        assert_eq!(key_of(b"=x"), None);
        assert_eq!(key_of(b"plain"), None);
    }

    #[test]
    fn values_of_one_key_are_one_events_values() {
        // klog's structured lines: a short message and its values, each quoted. Two
        // values of one key that name something by parts (of letters only: nothing
        // masks them) are the same event's.
        let klog = |at: &str, message: &str, value: &str| {
            format!("I1207 12:00:00.140891       1 {at}] {message} {value}")
        };
        let mut m = miner();
        let services = [
            "default/api",
            "payments/web",
            "search/indexer",
            "kube-system/dns",
        ];
        let ids: Vec<GroupId> = (services.iter())
            .map(|s| {
                let line = klog("endpointslice_controller.go:211", "\"Syncing service\"", "");
                m.add(&format!("{line}service=\"{s}\""))
            })
            .collect();
        assert!(ids.iter().all(|&id| m.resolve(id) == m.resolve(ids[0])));
        let replicas = |set: &str| {
            klog(
                "replica_set.go:100",
                "msg=\"Too few replicas\"",
                &format!("replicaSet=\"{set}\" need=3 creating=2"),
            )
        };
        let (a, b) = (
            m.add(&replicas("default/grafana")),
            m.add(&replicas("search/web")),
        );
        assert_eq!(m.resolve(a), m.resolve(b));
        assert_eq!(
            text(&m, a),
            "<*> replica_set.go:<*>] msg=\"Too few replicas\" replicaSet=<*> need=<*> creating=<*>"
        );
        // A word alone is a state or a kind: another is another event.
        let synced = |state: &str| klog("a.go:7", "\"Synced\"", &format!("state=\"{state}\""));
        let (ok, error) = (m.add(&synced("ok")), m.add(&synced("error")));
        assert_ne!(m.resolve(ok), m.resolve(error));
        // A message's key says nothing alike: another message is another event.
        let logfmt = |message: &str| format!("level=info msg=\"{message}\" component=\"api/v1\"");
        let (c, d) = (
            m.add(&logfmt("cache warmed")),
            m.add(&logfmt("listener closed")),
        );
        assert_ne!(m.resolve(c), m.resolve(d));
        // Nor do different keys.
        let (e, f) = (
            m.add(&klog("a.go:1", "\"Synced\"", "pod=\"web\"")),
            m.add(&klog("a.go:1", "\"Synced\"", "node=\"web\"")),
        );
        assert_ne!(m.resolve(e), m.resolve(f));
    }

    #[test]
    fn overflow_counts_lines_beyond_the_cap() {
        let mut m = Miner::new(Config {
            max_templates: 2,
            ..Config::default()
        });
        assert!(m.is_empty());
        let a = m.add("alpha beta gamma");
        let b = m.add("delta epsilon zeta eta");
        let c = m.add("one two three four five");
        let d = m.add("alpha beta gamma");
        assert!(!a.is_overflow() && !b.is_overflow());
        assert!(c.is_overflow());
        assert_eq!(c.to_string(), "overflow");
        assert_eq!(d, a, "existing templates keep matching at the cap");
        assert_eq!(m.overflow_count(), 1);
        assert_eq!(m.overflow().example(), "one two three four five");
        assert_eq!(m.overflow().first_line(), 3);
        assert_eq!(m.len(), 2);
        assert_eq!(m.lines(), 4);
        let total: u64 = m.templates().map(Template::count).sum::<u64>() + m.overflow_count();
        assert_eq!(total, 4);
    }

    #[test]
    fn deterministic() {
        let lines: Vec<String> = (0..300)
            .map(|i| match i % 5 {
                0 => format!("2024-01-01 00:00:{:02} INFO user u{} logged in", i % 60, i),
                1 => format!(
                    "2024-01-01 00:00:{:02} WARN disk {} almost full",
                    i % 60,
                    ["sda", "sdb", "sdc", "sdd", "sde"][i % 3]
                ),
                2 => format!(
                    "2024-01-01 00:00:{:02} INFO request id={} took {} ms",
                    i % 60,
                    i * 7,
                    i % 13
                ),
                3 => format!(
                    "2024-01-01 00:00:{:02} ERROR peer {} reset connection",
                    i % 60,
                    ["alice", "bob", "carol", "dave", "erin", "frank"][i % 6]
                ),
                _ => format!("2024-01-01 00:00:{:02} DEBUG tick", i % 60),
            })
            .collect();
        let run = || {
            let mut m = miner();
            let ids: Vec<GroupId> = lines.iter().map(|l| m.add(l)).collect();
            let resolved: Vec<GroupId> = ids.iter().map(|&i| m.resolve(i)).collect();
            let texts: Vec<String> = m.templates().map(Template::text).collect();
            (ids, resolved, texts)
        };
        assert_eq!(run(), run());
    }

    #[test]
    fn line_numbers_and_examples() {
        let mut m = miner();
        let a = m.add("x 1 y\r\n");
        m.add("unrelated words here");
        let b = m.add_numbered("x 22 y", 10);
        let c = m.add("x 333 y");
        assert_eq!(a, b);
        assert_eq!(a, c);
        let t = m.get(a).unwrap();
        assert_eq!(t.id(), a);
        assert_eq!((t.first_line(), t.last_line(), t.count()), (1, 11, 3));
        assert_eq!(t.example(), "x 1 y");
        assert_eq!(t.tokens().collect::<Vec<_>>(), ["x", "<*>", "y"]);
        assert!(m.get(GroupId(99)).is_none());
        assert_eq!(m.resolve(GroupId(99)), GroupId(99));
    }

    #[test]
    fn long_lines_are_bounded() {
        let mut m = Miner::new(Config {
            max_tokens: 4,
            max_token_bytes: 8,
            max_example_bytes: 5,
            ..Config::default()
        });
        let a = m.add("a b c d e f g");
        let b = m.add("a b c x y");
        assert_eq!(a, b, "tokens past max_tokens are one variable tail");
        let c = m.add("p verylongtoken_one q");
        let d = m.add("p verylongtoken_two q");
        assert_eq!(c, d, "over-long tokens are variables");
        assert_eq!(m.get(a).unwrap().example(), "a b c");
        assert_eq!(m.get(a).unwrap().example_cut(), 8, "\" d e f g\" left out");
        let e = m.add("é é é");
        assert_eq!(m.get(e).unwrap().example(), "é é");
        assert_eq!(m.get(e).unwrap().example_cut(), 2);
        let whole = m.add("k");
        assert_eq!(m.get(whole).unwrap().example_cut(), 0);
    }

    #[test]
    fn empty_and_blank_lines() {
        let mut m = miner();
        let a = m.add("");
        let b = m.add("   ");
        assert_eq!(a, b);
        assert_eq!(m.get(a).unwrap().text(), "");
    }

    #[test]
    fn odd_input_does_not_panic() {
        let pieces = [
            "é",
            "[",
            "]",
            "(",
            ")",
            "{",
            "}",
            "\"",
            "=",
            ":",
            "=\"",
            "12",
            "0x1f",
            "-",
            "+",
            " ",
            "\t",
            "Jun",
            "a.b",
            "/x",
            "KB",
            "日本",
            "<*>",
            "blk_",
            "key=v",
            "x=\"a b\"",
            "\r",
        ];
        let mut x: u64 = 7;
        let mut m = Miner::new(Config {
            max_templates: 50,
            ..Config::default()
        });
        for _ in 0..3000 {
            let mut line = String::new();
            let n = (x % 24) as usize;
            for _ in 0..n {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                line.push_str(pieces[(x % pieces.len() as u64) as usize]);
                if x.is_multiple_of(3) {
                    line.push(' ');
                }
            }
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let id = m.add(&line);
            assert!(id.is_overflow() || m.get(id).is_some());
            let _ = crate::leading_timestamp(&line);
        }
        assert_eq!(m.lines(), 3000);
        let total: u64 = m.templates().map(Template::count).sum::<u64>() + m.overflow_count();
        assert_eq!(total, 3000);
        assert!(m.len() <= 50);
    }

    #[test]
    fn a_piece_of_a_text_is_a_range_of_its_char_boundaries() {
        let all: Arc<str> = "aé b".into();
        assert_eq!(Text::piece(&all, 0, 3).as_deref(), Some("aé"));
        assert_eq!(Text::piece(&all, 4, 5).as_deref(), Some("b"));
        assert_eq!(Text::piece(&all, 5, 5).as_deref(), Some(""));
        for (start, end) in [(0, 2), (2, 3), (3, 1), (4, 6), (6, 6)] {
            assert!(Text::piece(&all, start, end).is_none(), "{start}..{end}");
        }
    }

    #[test]
    fn displays_alike_at_the_front_align_as_whole_ones_do() {
        const TOKENS: &[&str] = &["a", "b", "<*>", "k=1", "k=2", "k=<*>", "id=x", "x=", "=1"];
        let mut rng = 0x5eed_0fd1_5b1a_7500_u64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let (mut fronts, mut skipped) = (0, 0);
        for _ in 0..20_000 {
            // A front alike, then each side's own tokens.
            let front: Vec<Text> = (0..next() % 4)
                .map(|_| TOKENS[(next() % TOKENS.len() as u64) as usize].into())
                .collect();
            let mut side = || {
                let mut t = front.clone();
                t.extend(
                    (0..next() % 6).map(|_| TOKENS[(next() % TOKENS.len() as u64) as usize].into()),
                );
                t
            };
            let (a, b) = (side(), side());
            let same = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
            assert_eq!(
                display_steps(&a, &b, same),
                display_steps(&a, &b, 0),
                "{a:?} {b:?}"
            );
            fronts += usize::from(same > 0);
            skipped += usize::from(same > 0 && same < a.len().min(b.len()));
        }
        assert!(fronts > 10_000 && skipped > 5_000, "{fronts} {skipped}");
    }

    #[test]
    fn displays_alike_at_the_back_align_as_well_as_whole_ones_do() {
        const TOKENS: &[&str] = &["a", "b", "<*>", "k=1", "k=2", "k=<*>", "id=x", "x=", "=1"];
        let mut rng = 0x0bac_0fd1_5b1a_7500_u64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let token = |r: u64| -> Text { TOKENS[(r % TOKENS.len() as u64) as usize].into() };
        // The weight of an alignment, and that it walks both sides in order, each
        // token once.
        let weight = |a: &[Text], b: &[Text], steps: &[Step]| {
            let (mut i, mut j, mut w) = (0, 0, 0);
            for st in steps {
                match *st {
                    Step::Match(x, y) => {
                        assert_eq!((x, y), (i, j), "{a:?} {b:?} {steps:?}");
                        w += if a[x] == b[y]
                            || value_key(&a[x]).is_some_and(|k| value_key(&b[y]) == Some(k))
                        {
                            2
                        } else {
                            assert!(&*a[x] == WILDCARD || &*b[y] == WILDCARD);
                            1
                        };
                        (i, j) = (x + 1, y + 1);
                    }
                    Step::Gap { a0, a1, b0, b1 } => {
                        assert_eq!((a0, b0), (i, j), "{a:?} {b:?} {steps:?}");
                        (i, j) = (a1, b1);
                    }
                }
            }
            assert_eq!((i, j), (a.len(), b.len()), "{a:?} {b:?} {steps:?}");
            w
        };
        let mut backs = 0;
        for _ in 0..20_000 {
            let back: Vec<Text> = (0..next() % 4).map(|_| token(next())).collect();
            let mut side = || {
                let mut t: Vec<Text> = (0..next() % 6).map(|_| token(next())).collect();
                t.extend(back.iter().cloned());
                t
            };
            let (a, b) = (side(), side());
            let trimmed = display_alignment(&a, &b);
            let whole = display_steps(&a, &b, 0);
            assert_eq!(
                weight(&a, &b, &trimmed),
                weight(&a, &b, &whole),
                "{a:?} {b:?}"
            );
            backs += usize::from(!back.is_empty() && a != b);
        }
        assert!(backs > 10_000, "{backs}");
    }

    #[test]
    fn display_merges_lengths() {
        let mut t: Vec<Text> = ["a", "b", "c"].map(Into::into).to_vec();
        merge_display(&mut t, &["a", "x", "y", "c"].map(Into::into), Seen::Lines);
        assert_eq!(t.join(" "), "a <*> c");
        merge_display(&mut t, &["a", "q", "c"].map(Into::into), Seen::Lines);
        assert_eq!(t.join(" "), "a <*> c");
        merge_display(&mut t, &["a", "q", "d"].map(Into::into), Seen::Lines);
        assert_eq!(t.join(" "), "a <*>");
    }

    #[test]
    fn a_template_keeps_the_key_of_values_while_its_lines_have_it() {
        let mut m = miner();
        let head = "pam auth failure logname= uid=0 tty=ssh";
        let a = m.add(&format!("{head} rhost=10.0.0.1"));
        assert_eq!(m.add(&format!("{head} rhost=ec2-1-2.example.com")), a);
        assert_eq!(
            text(&m, a),
            "pam auth failure logname= uid=<*> tty=ssh rhost=<*>"
        );
        assert_eq!(m.add(&format!("{head} rhost=db-7.example.org")), a);
        assert_eq!(
            text(&m, a),
            "pam auth failure logname= uid=<*> tty=ssh rhost=<*>"
        );
        // A line the template's shape takes, with no such key: the display says so.
        assert_eq!(m.add(&format!("{head} 10.0.0.9")), a);
        assert_eq!(text(&m, a), "pam auth failure logname= uid=<*> tty=ssh <*>");
    }

    #[test]
    fn display_keeps_the_key_of_values_that_differ() {
        let tokens = |line: &str| line.split(' ').map(Into::into).collect::<Vec<Text>>();
        let mut t = tokens("ruser= rhost=10.0.0.1");
        merge_display(
            &mut t,
            &tokens("ruser= rhost=ec2-52-80.example.com"),
            Seen::Lines,
        );
        assert_eq!(t.join(" "), "ruser= rhost=<*>");
        // Values of the key go on without a change; a longer line's extra token is apart.
        merge_display(&mut t, &tokens("ruser= rhost=host-b"), Seen::Lines);
        assert_eq!(t.join(" "), "ruser= rhost=<*>");
        let mut longer = tokens("ruser= rhost=10.0.0.1 user=root");
        merge_display(
            &mut longer,
            &tokens("ruser= rhost=a.example user=admin"),
            Seen::Lines,
        );
        assert_eq!(longer.join(" "), "ruser= rhost=<*> user=<*>");
        // Other keys, and no key, are values as before.
        let mut t = tokens("a x=1 b");
        merge_display(&mut t, &tokens("a y=1 b"), Seen::Lines);
        assert_eq!(t.join(" "), "a <*> b");
        let mut t = tokens("a =1 b");
        merge_display(&mut t, &tokens("a =2 b"), Seen::Lines);
        assert_eq!(t.join(" "), "a <*> b");
    }
}
