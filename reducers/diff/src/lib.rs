//! `briefly diff`: a unified diff (`git diff`, `git show`, `git format-patch`, `diff -u`)
//! as the map of changed files first, then the hunks that matter, as valid patches.
//! A merge's combined diff (`diff --cc`, `@@@` hunks: `git show` of a merge, `git diff`
//! of a conflicted file) is read too, its counts against the first parent as `git diff
//! --stat` gives them, a file a merge left in conflict `U` with its conflicts counted;
//! so is a coloured diff (`--color=always`), without its codes, and a word diff
//! (`--word-diff`, plain or porcelain), its lines counted by their marks. Input without
//! patches, git's `--stat`, `--numstat`, `--name-status` or `--shortstat`, has its
//! files as git lists them.
//!
//! Items are files (`stats.files` counts them, always exact), then the lines outside any
//! file's patch that nothing else reads, `{"kind": "line", "line", "text"}` (a commit's
//! message, `diff -r`'s `Only in a: x`, input that is no diff). A file's item is
//! `{"path", "change", "from"?, "commit"?, "against"?, "patch"?, "binary_patch_lines"?,
//! "changed"?}` (`binary_patch_lines` for a binary file's `GIT binary patch`, its data not
//! shown; `changed` for changes inside lines of 500 bytes or more, each side's window
//! around what differs) where `commit` is the short hash of the commit the file's change
//! belongs to (`git log -p`, `git show`, `git format-patch`), listed in `stats.commits`,
//! `against` the parent a merge's file is diffed against (`git log -m`, a block for each
//! parent), and `change` packs the status
//! and counts compactly (`M +3 -1`, `A +10`, `R096 +0 -0`, `M binary`, `M mode
//! 100644->100755`, `conflicts N` when it adds conflict markers, and `#N` when the file's
//! change is repeated pattern `N`). Ranked:
//!
//! 1. files named by `--path`, and files with conflicts, with their patch;
//! 2. files with their own changes, smallest first, with their patch (headers included:
//!    `git apply --check` accepts it);
//! 3. files without hunks (renames, mode changes, binary files);
//! 4. files whose every change repeats across at least [`PATTERN_FILES`] files (a rename
//!    done everywhere): listed with the pattern's number, whose example and count are in
//!    `stats.patterns`; the first file of each has the example too (`pattern`), so that
//!    a page reaches what a pattern is when the stats, cut to the budget, do not.
//!
//! With `--file PATH` the items are that file's hunks, in order, each a patch of its
//! own with the file's headers, and `line` where it starts in the raw diff: pages walk
//! them one by one, and `briefly read ARTIFACT --offset LINE` has any hunk whole.
//!
//! Memory is bounded by configuration: the text of the patches held is capped per file
//! and in all; past [`MAX_FILES_HELD`] files, files are listed as they come, unranked.

mod commit;
mod context;
mod long;
mod parse;
mod words;

use crate::context::ContextDiff;
pub use parse::{
    header, hunk_header, is_users_own, unquote, Header, HunkHeader, Prefixes, MNEMONIC_PREFIXES,
};

use briefly_core::{
    cut_str, strip_ansi, Emit, Envelope, Flow, Outcome, Preview, Rank, Record, Reducer,
    MAX_LINE_ITEM_CHARS,
};
use commit::{commit_line, merge_parent, oneline_commit, Commit};
use globset::{Glob, GlobSet, GlobSetBuilder};
use parse::{
    combined_hunk_header, name_status_line, numstat_line, stat_line, stat_totals, summary_line,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, BinaryHeap, HashMap};
use std::hash::{Hash, Hasher};

/// A change repeated in this many files is mechanical.
pub const PATTERN_FILES: u32 = 3;
/// Files ranked at the end; files after these are listed as they come.
pub const MAX_FILES_HELD: usize = 20_000;
/// Patch text held for one file.
pub const MAX_PATCH_BYTES: usize = 64 * 1024;

/// Directories listed in the stats, those with the most changed files.
pub const MAX_DIRECTORIES_LISTED: usize = 10;
/// Patch text held in all.
pub const MAX_HELD_BYTES: usize = 16 * 1024 * 1024;
/// Distinct changed-line pairs tracked for patterns.
const MAX_PAIRS: usize = 200_000;
/// Commits listed in `stats.commits`; later ones are counted.
pub const MAX_COMMITS_LISTED: usize = 50;
/// A commit's hash as items name it.
/// Hex digits of a hash as items name it.
const SHORT_HASH: usize = 12;

/// Options of `briefly diff`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct DiffOptions {
    /// The map only: no patches.
    pub stat_only: bool,
    /// Globs of paths to show first.
    pub paths: Vec<String>,
    /// Hunks longer than this many lines are left out of a file's patch (and said so).
    pub max_hunk_lines: usize,
    /// Context lines kept around each hunk's changes (fewer than the diff has).
    pub context: Option<usize>,
    /// Only this file, with all its hunks.
    pub file: Option<String>,
    /// The per-result budget of the first page, which sizes `--file`'s parts of a long
    /// hunk ([`part_chars_for`]): kept in the cursor, so every page cuts alike. None: the
    /// most, [`MAX_PART_CHARS`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub layout_chars: Option<usize>,
}

impl Default for DiffOptions {
    fn default() -> Self {
        DiffOptions {
            stat_only: false,
            paths: Vec::new(),
            max_hunk_lines: 400,
            context: None,
            file: None,
            layout_chars: None,
        }
    }
}

/// What kind of change a file had.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    Modified,
    Added,
    Deleted,
    Renamed,
    Copied,
    /// A file a merge left in conflict (a combined diff of the work tree with conflict
    /// markers), as `git status` says `UU`.
    Unmerged,
}

impl Status {
    fn letter(self) -> char {
        match self {
            Status::Modified => 'M',
            Status::Added => 'A',
            Status::Deleted => 'D',
            Status::Renamed => 'R',
            Status::Copied => 'C',
            Status::Unmerged => 'U',
        }
    }
}

/// One hunk: its header and its body lines (newlines included).
#[derive(Debug, Clone)]
struct Hunk {
    /// Line of its `@@` header in the raw diff (for `briefly read --offset`).
    line: u64,
    header: HunkHeader,
    section: String,
    lines: Vec<String>,
    /// Old and new lines still expected.
    old_left: u64,
    new_left: u64,
    /// A merge's hunk in a combined diff (`diff --cc`), `header` its first parent's and
    /// the result's ranges.
    combined: Option<Combined>,
    /// A word diff's hunk (`--word-diff`): its lines are not counted by its header's
    /// ranges, and it ends where the next header begins.
    words: bool,
    /// A porcelain word diff's hunk (`--word-diff=porcelain`): the file's line being read.
    porcelain: Option<words::PorcelainLine>,
    /// Where its lines that fit no unified diff's reading begin, until a word diff's
    /// marks show them to be its lines; not the hunk's lines if none do.
    unread: Option<usize>,
    /// Its header's line ended in CRLF: the header written again ends so too.
    crlf: bool,
}

/// What a combined diff's hunk has besides a unified one's.
#[derive(Debug, Clone)]
struct Combined {
    /// Its `@@@ … @@@` line as written.
    header: String,
    /// The lines each parent after the first still expects.
    others_left: Vec<u64>,
}

impl Hunk {
    /// Its `@@` line.
    fn header_line(&self) -> String {
        match &self.combined {
            Some(combined) => combined.header.clone(),
            None => self.header.line(&self.section),
        }
    }

    /// Appends the hunk as patch text: its `@@` line, then its body.
    fn write_to(&self, out: &mut String) {
        out.push_str(&self.header_line());
        out.push_str(self.header_end());
        self.lines.iter().for_each(|line| out.push_str(line));
    }

    /// How its header's line ends, as written.
    fn header_end(&self) -> &'static str {
        if self.crlf {
            "\r\n"
        } else {
            "\n"
        }
    }

    /// Whether every line its header counts has come.
    fn is_complete(&self) -> bool {
        self.words
            || self.old_left == 0
                && self.new_left == 0
                && self
                    .combined
                    .as_ref()
                    .is_none_or(|c| c.others_left.iter().all(|&left| left == 0))
    }
}

/// One file of the diff, as far as it has been read.
#[derive(Debug, Clone)]
struct FileDiff {
    index: u64,
    /// The commit it belongs to (`git log -p`, `git format-patch`): its short hash.
    commit: Option<String>,
    /// The parent it is diffed against, for a merge's file under `git log -m`.
    against: Option<String>,
    git_paths: (Option<String>, Option<String>),
    /// Its sides' prefixes, when its `diff --git` line has others than `a/` and `b/`.
    prefixes: Option<Prefixes>,
    old_path: Option<String>,
    new_path: Option<String>,
    status: Status,
    similarity: Option<u8>,
    old_mode: Option<String>,
    new_mode: Option<String>,
    binary: bool,
    binary_patch: bool,
    /// Lines of its `GIT binary patch` data: not shown, counted.
    binary_patch_lines: u64,
    added: u64,
    removed: u64,
    header: String,
    hunks: Vec<Hunk>,
    hunk: Option<Hunk>,
    hunks_seen: u64,
    /// Hunks not held: over `max_hunk_lines`, or over the byte caps.
    hunks_left_out: u64,
    /// The first of its hunks the input cut short (`git diff | head`), as it came
    /// ([`CUT_HUNK_CHARS`] at most): shown beside the patch, which cannot hold it.
    cut_hunk: Option<String>,
    /// Conflicts it adds: lines a merge's conflict opens with (`<<<<<<< HEAD`).
    conflicts: u64,
    held_bytes: usize,
    /// Hashes of (removed line, added line) pairs; `unpaired` when some change is not a pair.
    pairs: Vec<u64>,
    unpaired: bool,
    run_removed: Vec<String>,
    run_added: Vec<String>,
    /// Changes inside long lines, the first [`long::MAX_LONG_CHANGES`], and how many more.
    long_changes: Vec<long::LongChange>,
    long_changes_more: u64,
}

impl FileDiff {
    /// `path`, of side `side` (0: old, 1: new), without the prefix its `diff --git` line
    /// gave that side, when not `a/` or `b/` (those went with the line's reading).
    fn without_prefix(&self, path: String, side: usize) -> String {
        let prefix = (self.prefixes.as_ref()).map(|(old, new)| [old, new][side]);
        match prefix.and_then(|prefix| path.strip_prefix(prefix)) {
            Some(rest) => rest.to_string(),
            None => path,
        }
    }

    /// A renamed or copied file's prefixes, when its `diff --git` line's two paths only
    /// suggested them (`src/x.c lib/x.c`: under `--no-prefix`, a move, not prefixes
    /// `src/` and `lib/`): its `rename from` line names its paths whole.
    fn forget_guessed_prefixes(&mut self, seen: Option<&Prefixes>) {
        let guessed = (self.prefixes.as_ref())
            .is_some_and(|prefixes| is_users_own(prefixes) && seen != Some(prefixes));
        if guessed {
            self.prefixes = None;
        }
    }

    fn new(index: u64, commit: Option<String>) -> Self {
        FileDiff {
            index,
            commit,
            against: None,
            git_paths: (None, None),
            prefixes: None,
            old_path: None,
            new_path: None,
            status: Status::Modified,
            similarity: None,
            old_mode: None,
            new_mode: None,
            binary: false,
            binary_patch: false,
            binary_patch_lines: 0,
            added: 0,
            removed: 0,
            header: String::new(),
            hunks: Vec::new(),
            hunk: None,
            hunks_seen: 0,
            hunks_left_out: 0,
            cut_hunk: None,
            long_changes: Vec::new(),
            long_changes_more: 0,
            conflicts: 0,
            held_bytes: 0,
            pairs: Vec::new(),
            unpaired: false,
            run_removed: Vec::new(),
            run_added: Vec::new(),
        }
    }

    /// The path a reader knows the file by: the new one, else the old one.
    fn path(&self) -> String {
        self.new_path
            .clone()
            .or_else(|| self.old_path.clone())
            .or_else(|| self.git_paths.1.clone())
            .or_else(|| self.git_paths.0.clone())
            .unwrap_or_default()
    }

    fn from(&self) -> Option<String> {
        match self.status {
            Status::Renamed | Status::Copied => {
                self.old_path.clone().or_else(|| self.git_paths.0.clone())
            }
            _ => None,
        }
    }

    /// `M +3 -1`, `R096 +0 -0`, `A +10 binary`, `M mode 100644->100755 +0 -0`, `U +4 -0
    /// conflicts 1`, `… #2`.
    fn change(&self, pattern: Option<usize>) -> String {
        let mut change = String::from(self.status.letter());
        if let Some(similarity) = self.similarity {
            change.push_str(&format!("{similarity:03}"));
        }
        if self.binary {
            change.push_str(" binary");
        } else {
            change.push_str(&format!(" +{} -{}", self.added, self.removed));
        }
        if let (Some(old), Some(new)) = (&self.old_mode, &self.new_mode) {
            change.push_str(&format!(" mode {old}->{new}"));
        }
        if self.conflicts > 0 {
            change.push_str(&format!(" conflicts {}", self.conflicts));
        }
        if let Some(pattern) = pattern {
            change.push_str(&format!(" #{pattern}"));
        }
        change
    }

    /// Pairs the pending run of removed lines with the run of added lines after it.
    fn close_run(&mut self) {
        if self.run_removed.is_empty() && self.run_added.is_empty() {
            return;
        }
        if self.run_removed.len() == self.run_added.len() {
            for (removed, added) in self.run_removed.iter().zip(&self.run_added) {
                self.pairs.push(pair_hash(removed, added));
            }
        } else {
            self.unpaired = true;
        }
        self.run_removed.clear();
        self.run_added.clear();
    }

    /// Reads the hunk being read again as a word diff's (`porcelain`: in its porcelain
    /// form): its lines counted by their marks, not as a unified diff's.
    fn read_hunk_as_word_diff(&mut self, porcelain: bool) {
        let Some(hunk) = self.hunk.as_mut() else {
            return;
        };
        hunk.words = true;
        hunk.porcelain = porcelain.then(words::PorcelainLine::default);
        let unified = hunk.unread.take().unwrap_or(hunk.lines.len());
        let lines = std::mem::take(&mut hunk.lines);
        for line in &lines[..unified] {
            match line.as_bytes().first() {
                Some(b'+') => {
                    self.added -= 1;
                    self.conflicts -= u64::from(opens_a_conflict(&line[1..]));
                }
                Some(b'-') => self.removed -= 1,
                _ => {}
            }
        }
        for line in &lines {
            count_word_diff_line(self, line.trim_end_matches(['\n', '\r']));
        }
        self.run_added.clear();
        self.run_removed.clear();
        self.hunk.as_mut().expect("read above").lines = lines;
    }

    /// The file's patch as held, its headers and the hunks kept, within about `room`
    /// characters as JSON writes them ([`json_chars`]): the hunks that fit,
    /// in order, whole, so that it still applies; and how many hunks it leaves out.
    /// No patch when it has hunks and none fits: its headers alone would not apply.
    fn patch_within(&self, room: usize) -> (Option<String>, u64) {
        let mut patch = self.header.clone();
        let mut used = json_chars(&patch);
        let mut shown = 0;
        for hunk in &self.hunks {
            let start = patch.len();
            hunk.write_to(&mut patch);
            used += json_chars(&patch[start..]);
            if used > room {
                patch.truncate(start);
                break;
            }
            shown += 1;
        }
        let left_out = (self.hunks.len() - shown) as u64;
        let applies = shown > 0 || self.hunks.is_empty();
        (applies.then_some(patch), left_out)
    }
}

fn pair_hash(removed: &str, added: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    removed.trim().hash(&mut hasher);
    added.trim().hash(&mut hasher);
    hasher.finish()
}

/// A change repeated across files: how many, and its first changed-line pair.
struct Pattern {
    files: u64,
    example: Option<(String, String)>,
}

/// In how many files a changed-line pair occurs.
#[derive(Debug, Clone, Copy)]
struct PairSeen {
    files: u32,
}

/// The diff reducer.
pub struct Diff {
    options: DiffOptions,
    paths: Option<GlobSet>,
    file: Option<FileDiff>,
    files: Vec<FileDiff>,
    pairs: HashMap<u64, PairSeen>,
    held_bytes: usize,
    files_seen: u64,
    /// Prefixes other than git's own that a file's `diff --git` line showed and its
    /// headers did not belie (not a rename): a renamed file's line has them too.
    custom_prefixes: Option<Prefixes>,
    /// Changes of a path's type (a file become a symlink), each read as a deletion then
    /// an addition of the path: two files read, one changed.
    typechanges: u64,
    /// The path (and commit) of the last file read when it was deleted: a typechange's
    /// first half.
    deleted_last: Option<(String, Option<String>)>,
    overflow_files: u64,
    added: u64,
    removed: u64,
    by_status: BTreeMap<&'static str, u64>,
    binary: u64,
    mode_changes: u64,
    /// Conflicts added, the files adding them, and the first [`NAMED_CONFLICTED`]
    /// files' paths.
    conflicts: u64,
    conflicted_files: u64,
    conflicted_paths: Vec<String>,
    directories: HashMap<String, (u64, u64, u64)>,
    outside_lines: u64,
    truncated_hunks: u64,
    /// `diff -r`'s `Only in DIR: NAME` lines: files in one of the trees only.
    only_in: u64,
    /// Reads a context diff as the unified diff it stands for.
    context_diff: ContextDiff,
    /// The lines it gave for the last line read (kept for their room).
    context_lines: Vec<context::Line>,
    /// Hunks `--context` left as they are: a merge's combined hunks, a word diff's.
    context_kept: u64,
    /// The `--- X` line of a plain `diff -u`, waiting for its `+++ Y`.
    pending_old: Option<(u64, String, Option<String>)>,
    /// The commits listed (at most [`MAX_COMMITS_LISTED`]).
    commits: Vec<Commit>,
    /// The commit being read when it is past those listed: its fields are read (and
    /// dropped, counted in `commits_total`), so that only its message is lines outside.
    unlisted: Option<Commit>,
    commits_seen: u64,
    /// The short hash of the commit whose files are being read, and the parent they are
    /// diffed against (a merge's, under `git log -m`).
    commit: Option<String>,
    against: Option<String>,
    /// Commit lines that repeat the commit before for another parent (`git log -m`).
    merge_blocks: u64,
    /// A commit's headers and message are being read: no file of it yet.
    in_commit_header: bool,
    /// The commit being read is a mail (format-patch's): its message is not indented.
    in_mail: bool,
    /// A line opened with an ANSI colour code: the diff is coloured.
    coloured: bool,
    /// Lines that had ANSI colour codes (`git diff --color=always`), read without them.
    ansi_lines: u64,
    /// The diff is a word diff (`--word-diff`): seen at its first marked line.
    word_diff: bool,
    /// In its porcelain form (`--word-diff=porcelain`): seen at its first `~` line.
    porcelain: bool,
    /// Lines of a colour word diff (`--color-words`) were read as a plain one's.
    colour_words: bool,
    /// Files `--file` or `--path` named.
    files_named: u64,
    /// Files as git's `--stat` or `--numstat` lists them, outside any file's patch: the
    /// items of an input without patches, the first [`MAX_FILES_HELD`].
    listed: Vec<Value>,
    /// The files those lists name, their lines, and what they count (a `--stat` total's
    /// files, insertions and deletions; a `--numstat`'s lines summed).
    listed_files: u64,
    listed_lines: u64,
    listed_totals: Option<(u64, u64, u64)>,
    listed_counts: (u64, u64),
    /// Of the files listed, the binary ones (`Bin 0 -> 1234 bytes`, `-\t-\t`).
    listed_binary: u64,
    /// Of the files listed, those `--name-status` lists, which counts no lines.
    listed_uncounted: u64,
    /// Files of combined diffs (`diff --cc`), which show no hunk merged cleanly.
    combined_files: u64,
    /// The last of them without its codes; its buffer is reused.
    plain: Option<String>,
    /// Lines outside any file's patch that no commit's fields hold and no list counts
    /// (a commit's message, `diff -r`'s `Only in a: x` and `Binary files … differ`, a
    /// submodule's log, what is no diff at all): the first [`MAX_OTHER_LINES`] by line,
    /// each cut to [`MAX_OTHER_CHARS`], shown after the files; the rest counted.
    other: BinaryHeap<(u64, String)>,
    other_left_out: u64,
    other_cut: bool,
    /// In a mail's signature (`-- ` and git's version under it): read as nothing.
    in_signature: bool,
}

/// Lines outside the files' patches shown at most ([`Diff`]'s `other`).
pub const MAX_OTHER_LINES: usize = 200;
/// Characters kept of each.
const MAX_OTHER_CHARS: usize = 500;

/// How many lines that fit no unified diff's hunk are held, waiting for a word diff's
/// marks, before they are taken for what follows a truncated hunk.
const MAX_UNREAD_LINES: usize = 1_000;

/// How many conflicted files the summary names.
const NAMED_CONFLICTED: usize = 3;

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Statistics of `briefly diff`.
#[derive(Debug, Clone, Serialize)]
pub struct DiffStats {
    /// Files changed.
    pub files: u64,
    /// Lines added.
    pub added: u64,
    /// Lines removed.
    pub removed: u64,
    /// Files by status.
    pub by_status: BTreeMap<&'static str, u64>,
    /// Binary files.
    pub binary: u64,
    /// Files whose mode changed.
    pub mode_changes: u64,
    /// Merge conflicts the diff adds (lines opening with git's `<<<<<<<` marker): a
    /// work tree's unmerged files, or markers left in a file; absent when none.
    #[serde(skip_serializing_if = "is_zero")]
    pub conflicts: u64,
    /// Changes repeated across files: `{id, files, removed, added}`.
    pub patterns: Vec<Value>,
    /// The directories with the most changed files: `{dir, files, added, removed}`, the
    /// first [`MAX_DIRECTORIES_LISTED`].
    pub directories: Vec<Value>,
    /// Directories in all, when more than are listed (up to 10,000 are told apart).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub directories_total: Option<u64>,
    /// Lines outside any file's diff (commits' headers and messages, diffstats).
    pub other_lines: u64,
    /// The commits the files belong to (`git log -p`, `git format-patch`), in input
    /// order: `{commit, author, date, subject, files, added, removed}`; the first
    /// [`MAX_COMMITS_LISTED`].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub commits: Vec<Value>,
    /// Commits in all, when more than are listed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commits_total: Option<u64>,
}

impl Diff {
    /// A diff reducer; an invalid `--path` glob is an error.
    pub fn new(options: DiffOptions) -> Result<Diff, String> {
        let paths = if options.paths.is_empty() {
            None
        } else {
            let mut builder = GlobSetBuilder::new();
            for pattern in &options.paths {
                builder.add(Glob::new(pattern).map_err(|e| format!("--path {pattern:?}: {e}"))?);
            }
            Some(builder.build().map_err(|e| e.to_string())?)
        };
        Ok(Diff {
            options,
            paths,
            file: None,
            files: Vec::new(),
            pairs: HashMap::new(),
            held_bytes: 0,
            files_seen: 0,
            typechanges: 0,
            deleted_last: None,
            custom_prefixes: None,
            overflow_files: 0,
            added: 0,
            removed: 0,
            by_status: BTreeMap::new(),
            binary: 0,
            mode_changes: 0,
            conflicts: 0,
            conflicted_files: 0,
            conflicted_paths: Vec::new(),
            directories: HashMap::new(),
            outside_lines: 0,
            context_diff: ContextDiff::default(),
            context_lines: Vec::new(),
            truncated_hunks: 0,
            only_in: 0,
            context_kept: 0,
            pending_old: None,
            commits: Vec::new(),
            unlisted: None,
            commits_seen: 0,
            commit: None,
            against: None,
            merge_blocks: 0,
            in_commit_header: false,
            in_mail: false,
            coloured: false,
            ansi_lines: 0,
            word_diff: false,
            porcelain: false,
            colour_words: false,
            files_named: 0,
            listed: Vec::new(),
            listed_files: 0,
            listed_lines: 0,
            listed_totals: None,
            listed_counts: (0, 0),
            listed_uncounted: 0,
            listed_binary: 0,
            combined_files: 0,
            plain: None,
            other: BinaryHeap::new(),
            other_left_out: 0,
            other_cut: false,
            in_signature: false,
        })
    }

    /// Keeps `text`, at `line`, outside any file's patch and read as nothing else
    /// ([`Diff`]'s `other`), unless it is blank or a mail's signature.
    fn keep_other(&mut self, line: u64, text: &str) {
        if text == "-- " && self.in_mail {
            self.in_signature = true;
        }
        // `diff -r`'s command line above each file's `---`: its paths follow; git's
        // `---` under a commit's message, above the diffstat.
        let command = text.starts_with("diff -") && !text.starts_with("diff --git ");
        let rule = text == "---";
        if self.in_signature || command || rule || text.trim().is_empty() {
            return;
        }
        // `diff -r`'s file in one directory only (`Only in a/src: old.c`): a change too.
        self.only_in += u64::from(text.starts_with("Only in ") && text.contains(": "));
        // The first lines by number: a truncated hunk's lines come back after later ones.
        self.other_left_out += u64::from(self.other.len() == MAX_OTHER_LINES);
        if self.other.len() == MAX_OTHER_LINES {
            if self.other.peek().is_some_and(|(last, _)| line > *last) {
                return;
            }
            self.other.pop();
        }
        let kept = briefly_core::cut_str(text, MAX_OTHER_CHARS);
        self.other_cut |= matches!(kept, std::borrow::Cow::Owned(_));
        self.other.push((line, kept.into_owned()));
    }

    /// A `---` line held for a `+++` line that did not come (a context diff's, `diff -c`):
    /// a line outside the patches, as any other.
    fn release_pending_old(&mut self) {
        if let Some((line, text, _)) = self.pending_old.take() {
            self.outside_lines += 1;
            self.keep_other(line, &text);
        }
    }

    /// A commit's first line: the files that follow are its.
    fn start_commit(&mut self, mut commit: Commit, out: &mut dyn Emit<Value>) {
        self.finish_file(out);
        self.release_pending_old();
        self.in_signature = false;
        self.commits_seen += 1;
        commit.hash.truncate(SHORT_HASH);
        // A merge under `git log -m` comes once for each parent: one commit.
        let again = commit.against.is_some() && self.commit.as_ref() == Some(&commit.hash);
        self.merge_blocks += u64::from(again);
        self.commit = Some(commit.hash.clone());
        self.against = commit.against.clone();
        self.in_commit_header = true;
        self.in_mail = commit.mail;
        self.unlisted = None;
        if self.commits.len() < MAX_COMMITS_LISTED {
            self.commits.push(commit);
        } else {
            self.unlisted = Some(commit);
        }
    }

    fn start_file(&mut self, out: &mut dyn Emit<Value>) {
        self.finish_file(out);
        self.files_seen += 1;
        self.in_commit_header = false;
        let mut file = FileDiff::new(self.files_seen, self.commit.clone());
        file.against = self.against.clone();
        self.file = Some(file);
    }

    /// The characters a file's patch may take: what a page holds of an item whole, so
    /// that the budget stage need not cut it (a patch cut mid-hunk would not apply).
    fn patch_room(&self) -> usize {
        self.options.layout_chars.map_or(usize::MAX, part_chars_for)
    }

    /// Files the options leave out of the items (all but `--file`'s).
    fn listed(&self, file: &FileDiff) -> bool {
        match &self.options.file {
            Some(wanted) => file.path() == *wanted || file.from().as_deref() == Some(wanted),
            None => true,
        }
    }

    fn finish_file(&mut self, out: &mut dyn Emit<Value>) {
        let Some(mut file) = self.file.take() else {
            return;
        };
        self.end_hunk(&mut file, out);
        file.close_run();
        if file.old_path.is_none()
            && file.git_paths.0.is_some()
            && file.status == Status::Modified
            && file.new_path.is_some()
        {
            file.old_path = file.git_paths.0.clone();
        }
        self.added += file.added;
        self.removed += file.removed;
        if !matches!(file.status, Status::Renamed | Status::Copied) && file.prefixes.is_some() {
            self.custom_prefixes = file.prefixes.clone().filter(is_users_own);
        }
        let path = file.path();
        // A change of the path's type: git writes the deletion of the file, then the
        // addition of the link, and counts one file, `T`.
        let deleted_last = self.deleted_last.take();
        let typechange = file.status == Status::Added
            && deleted_last
                .is_some_and(|(deleted, commit)| deleted == path && commit == file.commit);
        if file.status == Status::Deleted {
            self.deleted_last = Some((path.clone(), file.commit.clone()));
        }
        // Its commit is the last one read, listed unless past the cap.
        if let Some(commit) = self
            .commits
            .last_mut()
            .filter(|c| file.commit.as_ref() == Some(&c.hash))
        {
            commit.files += u64::from(!typechange);
            commit.added += file.added;
            commit.removed += file.removed;
        }
        if typechange {
            self.typechanges += 1;
            let deleted = status_name(Status::Deleted);
            if let Some(count) = self.by_status.get_mut(deleted) {
                *count -= 1;
                if *count == 0 {
                    self.by_status.remove(deleted);
                }
            }
            *self.by_status.entry("typechange").or_default() += 1;
        } else {
            *self.by_status.entry(status_name(file.status)).or_default() += 1;
        }
        self.binary += u64::from(file.binary);
        self.mode_changes += u64::from(file.old_mode.is_some() && file.new_mode.is_some());
        if file.conflicts > 0 {
            self.conflicts += file.conflicts;
            self.conflicted_files += 1;
            if self.conflicted_paths.len() < NAMED_CONFLICTED {
                self.conflicted_paths.push(path.clone());
            }
        }
        let dir = path
            .rsplit_once('/')
            .map_or(".", |(dir, _)| dir)
            .to_string();
        if self.directories.len() < 10_000 || self.directories.contains_key(&dir) {
            let entry = self.directories.entry(dir).or_default();
            entry.0 += u64::from(!typechange);
            entry.1 += file.added;
            entry.2 += file.removed;
        }
        file.pairs.sort_unstable();
        file.pairs.dedup();
        if !file.unpaired {
            for &pair in &file.pairs {
                if let Some(seen) = self.pairs.get_mut(&pair) {
                    seen.files += 1;
                } else if self.pairs.len() < MAX_PAIRS {
                    self.pairs.insert(pair, PairSeen { files: 1 });
                }
            }
        }
        if !self.listed(&file) {
            return;
        }
        if self.options.file.is_some() {
            self.files_named += 1;
            if file.hunks_seen == 0 {
                out.emit(0, file_item(&file, None, Some(self.patch_room())));
            }
            return;
        }
        // What is held until the end: no scratch, and headers only of files that can
        // show a patch (hunks held, or no hunks at all: renames, mode changes).
        file.run_removed = Vec::new();
        file.run_added = Vec::new();
        if file.hunks.is_empty() && file.hunks_seen > 0 {
            file.header = String::new();
        }
        file.header.shrink_to_fit();
        if self.files.len() < MAX_FILES_HELD {
            self.files.push(file);
        } else {
            // Past the cap: listed as it comes, without ranking or patch.
            self.overflow_files += 1;
            out.emit(5, file_item(&file, None, None));
        }
    }

    fn end_hunk(&mut self, file: &mut FileDiff, out: &mut dyn Emit<Value>) {
        let Some(mut hunk) = file.hunk.take() else {
            return;
        };
        file.close_run();
        // Lines held apart that no word diff's marks claimed: not the hunk's.
        if let Some(unread) = hunk.unread {
            self.outside_lines += (hunk.lines.len() - unread) as u64;
            for (i, line) in hunk.lines.drain(unread..).enumerate() {
                let text = line.trim_end_matches(['\n', '\r']);
                self.keep_other(hunk.line + 1 + (unread + i) as u64, text);
            }
        }
        if !hunk.is_complete() {
            self.truncated_hunks += 1;
            file.hunks_left_out += 1;
            if file.cut_hunk.is_none() {
                let mut text = String::new();
                hunk.write_to(&mut text);
                let text = text.trim_end_matches(['\n', '\r']);
                file.cut_hunk = Some(briefly_core::cut_str(text, CUT_HUNK_CHARS).into_owned());
            }
            return;
        }
        // A change inside a long line, where it is: its patch line is cut long before.
        let changes = match hunk.combined.is_none() && !hunk.words && !self.options.stat_only {
            true => long::long_changes(&hunk.lines, hunk.header.new_start),
            false => Vec::new(),
        };
        if let Some(context) = self.options.context {
            // A combined hunk is kept whole: its header has a range for each parent; so is
            // a word diff's, whose lines have no marks of context.
            if hunk.combined.is_none() && !hunk.words {
                trim_context(&mut hunk, context);
            } else {
                self.context_kept += 1;
            }
        }
        // `--file`: its hunks are the items, each a patch of its own, as they come; a hunk
        // over `max_hunk_lines` comes in parts that say so, so pages walk the rest of it.
        if self.options.file.is_some() {
            if self.listed(file) {
                let part_chars = self
                    .options
                    .layout_chars
                    .map_or(MAX_PART_CHARS, part_chars_for);
                let max_lines = self.options.max_hunk_lines.max(1);
                let mut items = hunk_items(file, &hunk, max_lines, part_chars);
                if let Some(first) = items.first_mut().filter(|_| !changes.is_empty()) {
                    first["changed"] = json!(changes);
                }
                for item in items {
                    out.emit(0, item);
                }
            }
            return;
        }
        for change in changes {
            match file.long_changes.len() < long::MAX_LONG_CHANGES {
                true => file.long_changes.push(change),
                false => file.long_changes_more += 1,
            }
        }
        let body = hunk.lines.len();
        let bytes: usize =
            hunk.lines.iter().map(String::len).sum::<usize>() + hunk.section.len() + 32;
        let too_long = self.options.file.is_none() && body > self.options.max_hunk_lines;
        let too_big =
            file.held_bytes + bytes > MAX_PATCH_BYTES || self.held_bytes + bytes > MAX_HELD_BYTES;
        if self.options.stat_only || too_long || too_big {
            file.hunks_left_out += 1;
            return;
        }
        file.held_bytes += bytes;
        self.held_bytes += bytes;
        file.hunks.push(hunk);
    }

    fn hunk_line(&mut self, record: &Record<'_>) -> bool {
        let Some(file) = self.file.as_mut() else {
            return false;
        };
        let Some(hunk) = file.hunk.as_mut() else {
            return false;
        };
        let text = record.text;
        let first = text.as_bytes().first().copied();
        // `\ No newline at end of file` follows the line it speaks of, even the last one.
        if first == Some(b'\\') {
            push_line(hunk, record);
            return true;
        }
        if hunk.words {
            if ends_a_word_diffs_hunk(text) {
                return false;
            }
            count_word_diff_line(file, text);
            push_line(file.hunk.as_mut().expect("read above"), record);
            return true;
        }
        // A word diff shows itself at its first marked line that fits no unified diff's
        // reading, or comes after such lines: the hunk is read again as a word diff's.
        // (A marked line opening with a space, `+` or `-` may be a unified diff's.)
        if hunk.combined.is_none()
            && (hunk.unread.is_some() || !matches!(first, Some(b' ' | b'+' | b'-')))
            && words::changed_sides(text).is_some()
        {
            self.word_diff = true;
            file.read_hunk_as_word_diff(false);
            count_word_diff_line(file, text);
            push_line(file.hunk.as_mut().expect("read above"), record);
            return true;
        }
        // `~` ends a line of the file in a porcelain word diff, and in no unified diff.
        if hunk.combined.is_none() && text == "~" {
            self.word_diff = true;
            self.porcelain = true;
            file.read_hunk_as_word_diff(true);
            count_word_diff_line(file, text);
            push_line(file.hunk.as_mut().expect("read above"), record);
            return true;
        }
        if let Some(unread) = hunk.unread {
            if ends_a_word_diffs_hunk(text) || hunk.lines.len() - unread >= MAX_UNREAD_LINES {
                return false;
            }
            push_line(hunk, record);
            return true;
        }
        if hunk.is_complete() {
            return false;
        }
        if let Some(combined) = &mut hunk.combined {
            let Some(marks) = text.as_bytes().get(..=combined.others_left.len()) else {
                return false;
            };
            if !marks.iter().all(|m| matches!(m, b' ' | b'+' | b'-')) {
                return false;
            }
            // A line with a `-` is a parent's the result dropped; any other is the
            // result's, and a parent's where its mark is a space.
            let in_result = !marks.contains(&b'-');
            let in_parent = |mark: u8| {
                if in_result {
                    mark == b' '
                } else {
                    mark == b'-'
                }
            };
            if in_result && hunk.new_left == 0 {
                return false;
            }
            hunk.new_left -= u64::from(in_result);
            if in_parent(marks[0]) {
                hunk.old_left = hunk.old_left.saturating_sub(1);
            }
            for (left, &mark) in combined.others_left.iter_mut().zip(&marks[1..]) {
                if in_parent(mark) {
                    *left = left.saturating_sub(1);
                }
            }
            if in_result && marks.contains(&b'+') && opens_a_conflict(&text[marks.len()..]) {
                file.conflicts += 1;
                file.status = Status::Unmerged;
            }
            // Counted against the first parent, as `git diff --stat` counts a merge.
            file.added += u64::from(in_result && marks[0] == b'+');
            file.removed += u64::from(marks[0] == b'-');
            // Its changes are not paired: a merge's lines are no edit of one file.
            file.unpaired = true;
            push_line(hunk, record);
            return true;
        }
        match first {
            Some(b' ') | None => {
                hunk.old_left = hunk.old_left.saturating_sub(1);
                hunk.new_left = hunk.new_left.saturating_sub(1);
                push_line(hunk, record);
                file.close_run();
            }
            Some(b'-') if hunk.old_left > 0 => {
                hunk.old_left -= 1;
                file.removed += 1;
                push_line(hunk, record);
                if !file.run_added.is_empty() {
                    file.close_run();
                }
                if file.run_removed.len() < 1_000 {
                    file.run_removed.push(text[1..].to_string());
                } else {
                    file.unpaired = true;
                }
            }
            Some(b'+') if hunk.new_left > 0 => {
                hunk.new_left -= 1;
                file.added += 1;
                file.conflicts += u64::from(opens_a_conflict(&text[1..]));
                push_line(hunk, record);
                if file.run_added.len() < 1_000 {
                    file.run_added.push(text[1..].to_string());
                } else {
                    file.unpaired = true;
                }
            }
            // A line no unified diff's hunk has: a truncated hunk's end, or a word diff's
            // line before its first marked one. Held apart until one of them shows.
            Some(_) if hunk.combined.is_none() && !ends_a_word_diffs_hunk(text) => {
                hunk.unread = Some(hunk.lines.len());
                push_line(hunk, record);
            }
            _ => return false,
        }
        true
    }

    fn header_line(&mut self, record: &Record<'_>, header: Header, out: &mut dyn Emit<Value>) {
        if let Header::Git(a, b, prefixes) = &header {
            self.start_file(out);
            let file = self.file.as_mut().expect("just started");
            file.git_paths = (a.clone(), b.clone());
            file.prefixes = prefixes.clone();
            // A renamed file's line (`OLD/x.c NEW/y.c`) shows no prefixes: those an
            // earlier file's did, when its sides have them.
            if let Some((old, new)) = self.custom_prefixes.as_ref().filter(|_| prefixes.is_none()) {
                let rest = record.text.strip_prefix("diff --git ").unwrap_or_default();
                if rest.starts_with(old.as_str()) && rest.contains(&format!(" {new}")) {
                    file.prefixes = self.custom_prefixes.clone();
                }
            }
        }
        if let Header::Combined(path) = &header {
            self.combined_files += 1;
            self.start_file(out);
            let file = self.file.as_mut().expect("just started");
            file.git_paths = (Some(path.clone()), Some(path.clone()));
        }
        // `diff -r`'s binary file is a file of its own, after another's hunks (git's is
        // under its `diff --git` header, before any).
        if let Header::Binary {
            sides: Some((old, new)),
            ..
        } = &header
        {
            if self.file.as_ref().is_none_or(|f| f.hunks_seen > 0) {
                self.start_file(out);
                let file = self.file.as_mut().expect("just started");
                file.status = match (old, new) {
                    (None, _) => Status::Added,
                    (_, None) => Status::Deleted,
                    _ => file.status,
                };
                file.old_path = old.clone();
                file.new_path = new.clone();
            }
        }
        let Some(file) = self.file.as_mut() else {
            return;
        };
        match header {
            Header::Git(..) | Header::Combined(_) | Header::Index => {}
            Header::Old(path) => {
                if path.is_none() {
                    file.status = Status::Added;
                }
                file.old_path = path.map(|path| file.without_prefix(path, 0));
            }
            Header::New(path) => {
                if path.is_none() {
                    file.status = Status::Deleted;
                }
                file.new_path = path.map(|path| file.without_prefix(path, 1));
            }
            Header::NewFile(_) => file.status = Status::Added,
            Header::DeletedFile(_) => file.status = Status::Deleted,
            Header::OldMode(mode) => file.old_mode = Some(mode),
            Header::NewMode(mode) => file.new_mode = Some(mode),
            Header::Similarity(similarity) => file.similarity = Some(similarity),
            Header::RenameFrom(path) => {
                file.status = Status::Renamed;
                file.forget_guessed_prefixes(self.custom_prefixes.as_ref());
                file.old_path = Some(path);
            }
            Header::RenameTo(path) => {
                file.status = Status::Renamed;
                file.new_path = Some(path);
            }
            Header::CopyFrom(path) => {
                file.status = Status::Copied;
                file.forget_guessed_prefixes(self.custom_prefixes.as_ref());
                file.old_path = Some(path);
            }
            Header::CopyTo(path) => {
                file.status = Status::Copied;
                file.new_path = Some(path);
            }
            Header::Binary { patch, .. } => {
                file.binary = true;
                file.binary_patch |= patch;
            }
        }
        if file.header.len() < 4_096 {
            file.header.push_str(record.text);
            file.header
                .push_str(if record.crlf { "\r\n" } else { "\n" });
        }
    }
}

fn push_line(hunk: &mut Hunk, record: &Record<'_>) {
    let mut line = String::with_capacity(record.text.len() + 2);
    line.push_str(record.text);
    // A line the framing cut: the patch says so where it is (it no longer applies).
    if record.cut {
        line.push_str(briefly_core::LINE_CUT_MARKER);
    }
    line.push_str(if record.crlf { "\r\n" } else { "\n" });
    hunk.lines.push(line);
}

/// Drops context lines beyond `context` at either end of a hunk, and fixes its header.
fn trim_context(hunk: &mut Hunk, context: usize) {
    let is_context = |line: &String| line.starts_with(' ') || line == "\n" || line == "\r\n";
    let leading = hunk.lines.iter().take_while(|l| is_context(l)).count();
    let drop_front = leading.saturating_sub(context);
    let trailing = hunk
        .lines
        .iter()
        .rev()
        .take_while(|l| is_context(l))
        .count();
    let drop_back = if trailing == hunk.lines.len() {
        0
    } else {
        trailing.saturating_sub(context)
    };
    if drop_front + drop_back >= hunk.lines.len() {
        return;
    }
    hunk.lines.drain(hunk.lines.len() - drop_back..);
    hunk.lines.drain(..drop_front);
    let dropped = (drop_front + drop_back) as u64;
    // A side left with no line names the line before the change, as diff and git
    // write it (`@@ -3,0 +4 @@` inserts after line 3): patch applies it there.
    let trim = |start: &mut u64, count: &mut u64| {
        let had_lines = *count > 0;
        *start += drop_front as u64;
        *count -= dropped;
        if had_lines && *count == 0 {
            *start -= 1;
        }
    };
    let header = &mut hunk.header;
    trim(&mut header.old_start, &mut header.old_count);
    trim(&mut header.new_start, &mut header.new_count);
}

/// Counts a word diff's `line` as `git diff --stat` would ([`words::changed_sides`],
/// [`words::PorcelainLine`]); its changes are not paired: its lines are no edit's halves.
fn count_word_diff_line(file: &mut FileDiff, line: &str) {
    let porcelain = file.hunk.as_mut().and_then(|hunk| hunk.porcelain.as_mut());
    let sides = match porcelain {
        Some(porcelain) => porcelain.read(line),
        None => words::changed_sides(line),
    };
    if let Some((added, removed)) = sides {
        file.added += u64::from(added);
        file.removed += u64::from(removed);
        file.unpaired = true;
    }
}

/// Whether `line` ends a word diff's hunk: a hunk's, a file's or a commit's header.
fn ends_a_word_diffs_hunk(line: &str) -> bool {
    hunk_header(line).is_some()
        || combined_hunk_header(line).is_some()
        || header(line).is_some()
        || commit_line(line).is_some()
}

/// `text` as one word of a POSIX shell: as it is when it has no character the shell
/// reads, else in single quotes.
fn shell_quoted(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+=:@%,".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        return text.to_string();
    }
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// Whether a line of a file opens a merge's conflict: git's marker, `<<<<<<<` and the
/// side's name.
fn opens_a_conflict(line: &str) -> bool {
    line.strip_prefix("<<<<<<<")
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
}

fn status_name(status: Status) -> &'static str {
    match status {
        Status::Modified => "modified",
        Status::Added => "added",
        Status::Deleted => "deleted",
        Status::Renamed => "renamed",
        Status::Copied => "copied",
        Status::Unmerged => "unmerged",
    }
}

/// One hunk of `--file`'s file as items: a patch of its own, headers included; or, over
/// `max_lines`, parts of at most that many lines, each marked as a part (not a patch).
fn hunk_items(file: &FileDiff, hunk: &Hunk, max_lines: usize, part_chars: usize) -> Vec<Value> {
    let mut items = hunk_parts(file, hunk, max_lines, part_chars);
    for item in &mut items {
        if let Some(commit) = &file.commit {
            item["commit"] = json!(commit);
        }
        if let Some(parent) = &file.against {
            item["against"] = json!(parent);
        }
    }
    items
}

/// A hunk's items (see [`hunk_items`]) without its commit.
fn hunk_parts(file: &FileDiff, hunk: &Hunk, max_lines: usize, part_chars: usize) -> Vec<Value> {
    let number = file.hunks_seen;
    let header = hunk.header_line();
    // Parts of at most `max_lines` lines and about `part_chars` characters (a line's
    // end counted twice, as JSON writes it; other escapes not), each line in one part: a
    // part a small page holds whole (the rest of a part cut would be on no page). A line
    // longer than that is a part of its own.
    let chars = |line: &String| json_chars(line);
    let mut parts: Vec<&[String]> = Vec::new();
    // The first part holds the hunk's header, and the file's unless that alone takes
    // more than a part: a long path's would crowd the hunk out of a small page's part
    // (whose rest would be on no page); the item's `path` names the file.
    let file_chars = file.header.chars().count();
    let (file_header, headers) = match file_chars <= part_chars {
        true => (
            file.header.as_str(),
            file_chars + header.chars().count() + 2,
        ),
        false => ("", header.chars().count() + 1),
    };
    let (mut start, mut held) = (0, headers);
    for (i, line) in hunk.lines.iter().enumerate() {
        if i > start && (i - start == max_lines || held + chars(line) > part_chars) {
            parts.push(&hunk.lines[start..i]);
            (start, held) = (i, 0);
        }
        held += chars(line);
    }
    parts.push(&hunk.lines[start..]);
    // Whole, a patch; but a hunk whose file's header would crowd it out is a part of one.
    if parts.len() == 1 && !file_header.is_empty() {
        let mut patch = file.header.clone();
        hunk.write_to(&mut patch);
        return vec![
            json!({"path": file.path(), "hunk": number, "line": hunk.line, "patch": patch}),
        ];
    }
    let count = parts.len();
    // The hunk's header is one line, then each part's body lines.
    let mut line = hunk.line + 1;
    parts
        .into_iter()
        .enumerate()
        .map(|(i, part)| {
            let mut text = match i {
                0 => format!("{file_header}{header}{}", hunk.header_end()),
                _ => String::new(),
            };
            part.iter().for_each(|line| text.push_str(line));
            let item = json!({"path": file.path(), "hunk": number, "part": format!("{}/{count}", i + 1), "line": line, "lines": text});
            line += part.len() as u64;
            item
        })
        .collect()
}

/// About the characters `text` takes as a JSON string: a line's end counted twice (`\n`),
/// other escapes not. How patches and parts are sized to fit a page.
fn json_chars(text: &str) -> usize {
    text.chars().count() + text.matches('\n').count()
}

/// About how many characters of a hunk's lines one of its parts under `--file` holds
/// when no budget says ([`DiffOptions::layout_chars`]): what a small page holds whole.
pub const MAX_PART_CHARS: usize = 2_000;

/// The characters of a hunk's lines one of `--file`'s parts holds under a per-result
/// budget of `per_result_chars` ([`DiffOptions::layout_chars`]): what a page holds of an
/// item whole ([`briefly_core::item_chars_for`]), at least 100.
pub fn part_chars_for(per_result_chars: usize) -> usize {
    briefly_core::item_chars_for(per_result_chars).max(100)
}

/// The most of a hunk the input cut short that a file's item shows.
const CUT_HUNK_CHARS: usize = 500;

/// A file as an item: path, change, and, given `patch_room`, its patch within that many
/// characters ([`FileDiff::patch_within`]: the hunks that do not fit are left out).
fn file_item(file: &FileDiff, pattern: Option<usize>, patch_room: Option<usize>) -> Value {
    let with_patch = patch_room.is_some();
    let mut hunks_left_out = file.hunks_left_out;
    let mut item = json!({"path": file.path(), "change": file.change(pattern)});
    if let Some(commit) = &file.commit {
        item["commit"] = json!(commit);
    }
    if let Some(parent) = &file.against {
        item["against"] = json!(parent);
    }
    if let Some(from) = file.from() {
        item["from"] = json!(from);
    }
    // A binary file's patch cannot be applied from the text shown: no patch, and its
    // data's lines counted (the artifact has them).
    if let Some(room) = patch_room.filter(|_| !file.binary && !file.header.is_empty()) {
        let (patch, left_out) = file.patch_within(room);
        if let Some(patch) = patch {
            item["patch"] = json!(patch);
        }
        hunks_left_out += left_out;
    }
    if with_patch && file.binary_patch_lines > 0 {
        item["binary_patch_lines"] = json!(file.binary_patch_lines);
    }
    if hunks_left_out > 0 && (with_patch || pattern.is_none()) {
        item["hunks_left_out"] = json!(hunks_left_out);
        if let Some(cut) = &file.cut_hunk {
            item["cut_hunk"] = json!(cut);
        }
    }
    if !file.long_changes.is_empty() && (with_patch || pattern.is_none()) {
        item["changed"] = json!(file.long_changes);
        if file.long_changes_more > 0 {
            item["changed_more"] = json!(file.long_changes_more);
        }
    }
    item
}

impl Reducer for Diff {
    type Item = Value;
    type Stats = DiffStats;

    fn record(&mut self, record: &Record<'_>, out: &mut dyn Emit<Value>) -> Flow {
        // A coloured diff (`git diff --color=always`, `color.ui = always`) is read, and
        // its patches shown, without the codes. git's colour opens its first line; in a
        // diff without colour, a code is a file's content (a fixture's), kept.
        self.coloured |= record.text.starts_with('\x1b');
        if !self.coloured {
            return self.read_record(record, out);
        }
        let Some(mut plain) = strip_ansi(record.text, self.plain.take()) else {
            return self.read_record(record, out);
        };
        self.ansi_lines += 1;
        // In a hunk, a colour word diff's line (`--color-words`) is read as a plain
        // word diff's, its colours made marks.
        let in_hunk = self.file.as_ref().is_some_and(|file| file.hunk.is_some());
        if in_hunk && !ends_a_word_diffs_hunk(&plain) {
            if let Some(marked) = words::marked_from_colours(record.text) {
                plain = marked;
                self.colour_words = true;
            }
        }
        let flow = self.read_record(
            &Record {
                text: &plain,
                ..*record
            },
            out,
        );
        self.plain = Some(plain);
        flow
    }

    fn finish(&mut self, out: &mut dyn Emit<Value>) -> Outcome<DiffStats> {
        let mut lines = Vec::new();
        self.context_diff.finish(&mut lines);
        self.read_unified(lines, 0, out);
        self.outcome(out)
    }

    /// A patch the budget cut in a later hunk keeps its whole hunks only. A file's patch
    /// the budget cut, and a file whose hunks were left out as too long (not under
    /// `--stat-only`, nor cut short in a truncated diff): where its hunks are, whole.
    fn fitted(&self, envelope: &mut Envelope) {
        // A patch cut to fit keeps its whole hunks only, so that it still applies.
        for item in &mut envelope.items {
            if let Some(Value::String(patch)) = item.get_mut("patch") {
                if let Some(whole) = whole_hunks(patch) {
                    *patch = whole;
                }
            }
        }
        let pageable = !self.options.stat_only && self.truncated_hunks == 0;
        let mut cut = envelope.items.iter().filter_map(|item| {
            let path = item.get("path")?.as_str()?;
            let patch = item.get("patch").and_then(Value::as_str);
            let cut = patch.is_some_and(|patch| patch.contains(briefly_core::CUT_MARKER));
            let left_out = item.get("hunks_left_out").and_then(Value::as_u64) > Some(0);
            (item.get("hunk").is_none() && (cut || (left_out && pageable))).then_some(path)
        });
        let Some(first) = cut.next() else {
            return;
        };
        let others = match cut.count() {
            0 => String::new(),
            n => format!(
                " (and of {} more)",
                briefly_core::counted(n as u64, "file", "files")
            ),
        };
        envelope.warnings.push(format!(
            "the patch of {first}{others} was cut, or hunks of it left out (over --max-hunk-lines, or to fit): `briefly diff --file {}` of the artifact has its hunks, a page at a time",
            shell_quoted(first)
        ));
    }
}

/// A patch cut mid-hunk, cut back to the end of its last whole hunk (the marker counting
/// what more it cuts), when it has one: what is left still applies. `None` when it
/// was not cut, or was cut in its first hunk.
fn whole_hunks(patch: &str) -> Option<String> {
    let (kept, cut) = briefly_core::split_cut(patch)?;
    let last = kept.rfind("\n@@")? + 1;
    if is_whole_hunk(&kept[last..]) {
        return None;
    }
    let first = kept.find("\n@@")? + 1;
    (last > first).then(|| {
        let (whole, rest) = kept.split_at(last);
        briefly_core::with_cut_marker(whole, cut + rest.chars().count() as u64)
    })
}

/// Whether `hunk` (its header, then its lines) holds every line its header counts.
fn is_whole_hunk(hunk: &str) -> bool {
    let mut lines = hunk.split_inclusive('\n');
    let Some((header, _)) = lines.next().and_then(hunk_header) else {
        return false;
    };
    let (mut old, mut new) = (0, 0);
    for line in lines {
        if !line.ends_with('\n') {
            return false;
        }
        match line.as_bytes()[0] {
            b' ' => (old, new) = (old + 1, new + 1),
            b'-' => old += 1,
            b'+' => new += 1,
            _ => {}
        }
    }
    (old, new) == (header.old_count, header.new_count)
}

impl Diff {
    /// One line of the diff, without colour codes.
    fn read_record(&mut self, record: &Record<'_>, out: &mut dyn Emit<Value>) -> Flow {
        // A context diff's lines are read as the unified diff's they stand for.
        let mut lines = std::mem::take(&mut self.context_lines);
        let taken = (self.context_diff).push(record.line, record.text, record.crlf, &mut lines);
        let flow = self.read_unified(lines, record.offset, out);
        if taken || flow != Flow::Continue {
            return flow;
        }
        self.read_line(record, out)
    }

    /// Reads `lines` ([`ContextDiff::push`]'s), each at its line, then leaves the
    /// vector empty for the next.
    fn read_unified(
        &mut self,
        mut lines: Vec<context::Line>,
        offset: u64,
        out: &mut dyn Emit<Value>,
    ) -> Flow {
        let mut flow = Flow::Continue;
        for (line, text, crlf) in lines.drain(..) {
            let record = Record {
                text: &text,
                bytes: text.as_bytes(),
                line,
                offset,
                cut: false,
                crlf,
            };
            if flow == Flow::Continue {
                flow = self.read_line(&record, out);
            }
        }
        self.context_lines = lines;
        flow
    }

    /// One line of a unified diff (or any other), without colour codes.
    fn read_line(&mut self, record: &Record<'_>, out: &mut dyn Emit<Value>) -> Flow {
        if self.hunk_line(record) {
            return Flow::Continue;
        }
        let text = record.text;
        if self.pending_old.is_some() && !matches!(header(text), Some(Header::New(_))) {
            self.release_pending_old();
        }
        let in_binary_patch = self.file.as_ref().is_some_and(|f| f.binary_patch);
        let hunk = match hunk_header(text) {
            Some((header, section)) => Some((header, section, None)),
            None => combined_hunk_header(text).map(|(header, section)| {
                let (old_start, old_count) = header.parents[0];
                let first = HunkHeader {
                    old_start,
                    old_count,
                    new_start: header.new_start,
                    new_count: header.new_count,
                };
                let combined = Combined {
                    header: text.to_string(),
                    others_left: header.parents[1..].iter().map(|&(_, n)| n).collect(),
                };
                (first, section, Some(combined))
            }),
        };
        if let Some((header, section, combined)) = hunk {
            if let Some(mut file) = self.file.take() {
                self.end_hunk(&mut file, out);
                file.hunks_seen += 1;
                file.hunk = Some(Hunk {
                    line: record.line,
                    header,
                    section: section.to_string(),
                    lines: Vec::new(),
                    old_left: header.old_count,
                    new_left: header.new_count,
                    words: self.word_diff && combined.is_none(),
                    porcelain: (self.porcelain && combined.is_none())
                        .then(words::PorcelainLine::default),
                    unread: None,
                    combined,
                    crlf: record.crlf,
                });
                self.file = Some(file);
                return Flow::Continue;
            }
        }
        match header(text) {
            // A plain `diff -u` starts a file with `---` then `+++`.
            Some(Header::Old(path))
                if self.file.as_ref().is_none_or(|f| {
                    // A binary file has no hunks: what follows is another's.
                    f.hunk.is_some() || !f.hunks.is_empty() || f.hunks_seen > 0 || f.binary
                }) =>
            {
                self.pending_old = Some((record.line, text.to_string(), path));
            }
            Some(Header::New(path)) if self.pending_old.is_some() => {
                let (_, old_line, old_path) = self.pending_old.take().expect("checked");
                self.start_file(out);
                let file = self.file.as_mut().expect("just started");
                file.header.push_str(&old_line);
                file.header.push('\n');
                file.header.push_str(text);
                file.header.push('\n');
                if old_path.is_none() {
                    file.status = Status::Added;
                }
                if path.is_none() {
                    file.status = Status::Deleted;
                }
                file.old_path = old_path;
                file.new_path = path;
            }
            Some(header)
                if !in_binary_patch || matches!(header, Header::Git(..) | Header::Combined(_)) =>
            {
                self.header_line(record, header, out);
            }
            _ => {
                // A commit's first line ends a binary patch's data too: its alphabet
                // has no space.
                let commit = match commit_line(text) {
                    Some((hash, mail)) => {
                        let mut commit = Commit::new(hash, mail);
                        commit.against = merge_parent(text).map(str::to_string);
                        Some(commit)
                    }
                    // A mail's message is not indented: a line of it is no commit.
                    None if !self.in_mail && !in_binary_patch => {
                        oneline_commit(text).map(|(hash, subject)| Commit::oneline(hash, subject))
                    }
                    None => None,
                };
                if let Some(commit) = commit {
                    self.outside_lines += 1;
                    self.start_commit(commit, out);
                    return Flow::Continue;
                }
                if self.file.is_none() && self.read_listed(text) {
                    return Flow::Continue;
                }
                if in_binary_patch {
                    if let Some(file) = &mut self.file {
                        file.binary_patch_lines += 1;
                    }
                    return Flow::Continue;
                }
                self.outside_lines += 1;
                // A commit's fields are in its stats; those of commits past the ones
                // listed are counted with them.
                let commit = match &mut self.unlisted {
                    Some(unlisted) => Some(unlisted),
                    None => self.commits.last_mut(),
                };
                if !(self.in_commit_header && commit.is_some_and(|c| c.header_line(text))) {
                    self.keep_other(record.line, text);
                }
            }
        }
        Flow::Continue
    }

    /// Reads `text`, outside any file's patch, when it is a line of git's `--stat`,
    /// `--numstat` or `--name-status` list of files or a `--stat` total (`git diff
    /// --stat`, `git log --stat`, `git show --numstat`). Whether it was.
    fn read_listed(&mut self, text: &str) -> bool {
        if let Some((files, added, removed)) = stat_totals(text) {
            let totals = self.listed_totals.get_or_insert((0, 0, 0));
            *totals = (totals.0 + files, totals.1 + added, totals.2 + removed);
            if let Some(commit) = self
                .commits
                .last_mut()
                .filter(|c| self.commit.as_ref() == Some(&c.hash))
            {
                commit.stat_totals = Some((files, added, removed));
            }
            self.listed_lines += 1;
            return true;
        }
        // `--summary`'s account of creations, deletions, renames under the diffstat: the
        // patches say it again.
        if summary_line(text) {
            self.listed_lines += 1;
            return true;
        }
        let mut from = None;
        let (path, change) = if let Some((path, stat)) = stat_line(text) {
            (path, stat.to_string())
        } else if let Some((status, path, old)) = name_status_line(text) {
            from = old;
            self.listed_uncounted += 1;
            (path, status.to_string())
        } else if let Some((counts, path)) = numstat_line(text) {
            let change = match counts {
                Some((added, removed)) => {
                    self.listed_counts.0 += added;
                    self.listed_counts.1 += removed;
                    format!("+{added} -{removed}")
                }
                None => "binary".to_string(),
            };
            (path, change)
        } else {
            return false;
        };
        self.listed_lines += 1;
        self.listed_files += 1;
        self.listed_binary += u64::from(change == "binary" || change.starts_with("Bin "));
        if self.listed.len() < MAX_FILES_HELD {
            let mut item = json!({"path": path, "change": change});
            if let Some(from) = from {
                item["from"] = json!(from);
            }
            if let Some(commit) = &self.commit {
                item["commit"] = json!(commit);
            }
            self.listed.push(item);
        }
        true
    }

    /// The outcome once the input has ended: its last file, the patterns, the stats.
    fn outcome(&mut self, out: &mut dyn Emit<Value>) -> Outcome<DiffStats> {
        let dangling_old = self.pending_old.is_some();
        self.release_pending_old();
        self.finish_file(out);
        self.files_seen -= self.typechanges;
        // No patches, only git's lists of files (`--stat`, `--numstat`, `--shortstat`):
        // the files as listed, counted as git counts them.
        let listed_only = self.files_seen == 0 && self.listed_lines > 0;
        if listed_only {
            (self.files_seen, self.added, self.removed) = self.listed_totals.unwrap_or((
                self.listed_files,
                self.listed_counts.0,
                self.listed_counts.1,
            ));
            self.binary = self.listed_binary;
            for item in std::mem::take(&mut self.listed) {
                out.emit(0, item);
            }
            for commit in &mut self.commits {
                if let Some(totals) = commit.stat_totals {
                    (commit.files, commit.added, commit.removed) = totals;
                }
            }
        } else {
            // Beside the patches, a diffstat is lines outside them.
            self.outside_lines += self.listed_lines;
        }
        // Patterns: changed-line pairs found in enough files.
        let common = |pairs: &HashMap<u64, PairSeen>, pair: &u64| {
            pairs.get(pair).is_some_and(|p| p.files >= PATTERN_FILES)
        };
        let mut pattern_ids: HashMap<Vec<u64>, usize> = HashMap::new();
        // Complete when every file is shown with its whole patch.
        let mut complete = !self.options.stat_only && self.overflow_files == 0;
        let mut patterns: Vec<Pattern> = Vec::new();
        let mut ranked: Vec<(Rank, u64, Value)> = Vec::with_capacity(self.files.len());
        let stat_only = self.options.stat_only;
        let patch_room = self.patch_room();
        // A file whose every change repeats across files, and how many files make those
        // changes and no others: a pattern is a change repeated, not one file's mix of
        // changes each made elsewhere.
        let is_mechanical = |file: &FileDiff| {
            !file.unpaired
                && !file.pairs.is_empty()
                && file.pairs.iter().all(|p| common(&self.pairs, p))
        };
        let mut sharing: HashMap<Vec<u64>, u64> = HashMap::new();
        for file in self.files.iter().filter(|file| is_mechanical(file)) {
            *sharing.entry(file.pairs.clone()).or_default() += 1;
        }
        for file in std::mem::take(&mut self.files) {
            let named = self.paths.as_ref().is_some_and(|set| {
                set.is_match(file.path()) || file.from().is_some_and(|from| set.is_match(from))
            });
            self.files_named += u64::from(named);
            let mechanical = is_mechanical(&file) && sharing[&file.pairs] > 1;
            let (rank, order, item) = if stat_only {
                // In input order, those `--path` names (and conflicted ones) first.
                let rank = u64::from(!named && file.conflicts == 0);
                (rank, file.index, file_item(&file, None, None))
            } else if named || file.conflicts > 0 {
                (0, file.index, file_item(&file, None, Some(patch_room)))
            } else if mechanical {
                let next = pattern_ids.len() + 1;
                let id = *pattern_ids.entry(file.pairs.clone()).or_insert(next);
                let mut item = file_item(&file, Some(id), None);
                if id > patterns.len() {
                    let example = first_pair_example(&file);
                    // Its first file says what it is, where a page's cursor reaches it
                    // (stats.patterns, on every page, are cut to the budget).
                    if let Some((removed, added)) = &example {
                        let cut = |line: &str| cut_str(line, MAX_LINE_ITEM_CHARS).into_owned();
                        item["pattern"] = json!({"removed": cut(removed), "added": cut(added)});
                    }
                    patterns.push(Pattern { files: 0, example });
                }
                patterns[id - 1].files += 1;
                (3, file.index, item)
            } else {
                // Smallest patch first: a file with none (a rename, a mode change, a
                // binary, hunks left out) lists it at little cost, so that a small page
                // still lists most files, then the small changes, the evidence.
                let item = file_item(&file, None, Some(patch_room));
                let size = item
                    .get("patch")
                    .and_then(Value::as_str)
                    .map_or(0, str::len);
                (1, size as u64, item)
            };
            // (A patch leaves out hunks over --max-hunk-lines, and those past its room.)
            complete &= rank != 3 && !file.binary && item.get("hunks_left_out").is_none();
            ranked.push((rank, order, item));
        }
        ranked.sort_by_key(|(rank, order, _)| (*rank, *order));
        for (rank, _, item) in ranked {
            out.emit(rank, item);
        }
        // What is no file's patch, in order, after the files (not among one file's
        // hunks, `--file`).
        let others = self.other.len() as u64 + self.other_left_out;
        let other = std::mem::take(&mut self.other).into_sorted_vec();
        for (line, text) in other.into_iter().filter(|_| self.options.file.is_none()) {
            out.emit(4, json!({"kind": "line", "line": line, "text": text}));
        }
        complete &= self.other_left_out == 0 && !self.other_cut;

        let mut directories: Vec<(String, (u64, u64, u64))> = self.directories.drain().collect();
        directories.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.0.cmp(&b.0)));
        let directories_total = directories.len() as u64;
        let directories = directories
            .into_iter()
            .take(MAX_DIRECTORIES_LISTED)
            .map(|(dir, (files, added, removed))| json!({"dir": dir, "files": files, "added": added, "removed": removed}))
            .collect();
        let pattern_files: u64 = patterns.iter().map(|p| p.files).sum();
        let patterns: Vec<Value> = patterns
            .into_iter()
            .enumerate()
            .map(|(i, pattern)| {
                let (removed, added) = pattern.example.unwrap_or_default();
                json!({"id": i + 1, "files": pattern.files, "removed": removed, "added": added})
            })
            .collect();
        let mut summary = git_stat_words(self.files_seen, self.added, self.removed);
        // `--name-status` alone counts no lines: none are said.
        if listed_only && self.listed_uncounted == self.listed_files && self.listed_totals.is_none()
        {
            summary = match self.files_seen {
                1 => "1 file changed (--name-status: no lines counted)".to_string(),
                n => format!("{n} files changed (--name-status: no lines counted)"),
            };
        }
        let commits = self.commits_seen - self.merge_blocks;
        if commits > 1 {
            // Each commit's files, summed: a file two commits change is two changes.
            let changes = match self.files_seen {
                1 => "1 file change".to_string(),
                n => format!("{n} file changes"),
            };
            let (_, rest) = summary.split_once(" changed").unwrap_or(("", &summary));
            summary = format!("{commits} commits: {changes}{rest}");
        }
        if self.only_in > 0 {
            summary.push_str(&format!(
                "; {} one tree only (`Only in …`, listed after the files)",
                briefly_core::counted(
                    self.only_in,
                    "file or directory in",
                    "files or directories in"
                )
            ));
        }
        if self.merge_blocks > 0 {
            // The files counted once for each parent.
            summary.push_str(&format!(
                "; merges diffed against each parent (-m): {} more",
                briefly_core::counted(self.merge_blocks, "diff", "diffs")
            ));
        }
        let no_diff = self.files_seen == 0 && self.listed_files == 0;
        if no_diff && commits > 0 {
            // `git log`, `git show -s`: commits and no patch, said so, not "0 files
            // changed".
            summary = format!(
                "no diff in the input: {} without a patch (`git log -p` and `git show` print one)",
                briefly_core::counted(commits, "commit", "commits")
            );
        } else if no_diff && others > 0 {
            // Not a diff (`git diff --name-only`, `git show HEAD:a.txt`).
            summary = format!(
                "no diff in the input: {} as {} (briefly text folds them)",
                briefly_core::counted(others, "line", "lines"),
                if self.other_left_out > 0 {
                    "they are, the first shown"
                } else {
                    "they are"
                },
            );
        } else if no_diff {
            summary = "no diff in the input: it is empty".to_string();
        } else if others > self.only_in {
            // (`Only in …` lines were said above.)
            summary.push_str(&format!(
                "; {} outside the files' patches and the commits' headers (a commit's message, `Binary files … differ`)",
                briefly_core::counted(others - self.only_in, "other line", "other lines")
            ));
        }
        if self.conflicts > 0 {
            let more = self.conflicted_files - self.conflicted_paths.len() as u64;
            summary.push_str(&format!(
                "; {} unresolved in {}: {}{}",
                briefly_core::counted(self.conflicts, "conflict", "conflicts"),
                briefly_core::counted(self.conflicted_files, "file", "files"),
                self.conflicted_paths.join(", "),
                if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                },
            ));
        }
        if pattern_files > 0 {
            let own = self.files_seen - pattern_files;
            summary.push_str(&format!(
                "; {pattern_files} files only repeat {} (see stats.patterns); {own} {} {} own",
                briefly_core::counted(patterns.len() as u64, "change", "changes"),
                if own == 1 { "file has" } else { "files have" },
                if own == 1 { "its" } else { "their" },
            ));
        }
        let mut outcome = Outcome::new(
            summary,
            DiffStats {
                files: self.files_seen,
                added: self.added,
                removed: self.removed,
                by_status: std::mem::take(&mut self.by_status),
                binary: self.binary,
                mode_changes: self.mode_changes,
                conflicts: self.conflicts,
                patterns,
                directories,
                directories_total: (directories_total > MAX_DIRECTORIES_LISTED as u64)
                    .then_some(directories_total),
                other_lines: self.outside_lines,
                commits: self.commits.iter().map(Commit::to_json).collect(),
                commits_total: (self.commits_seen > self.commits.len() as u64)
                    .then_some(self.commits_seen),
            },
        );
        outcome.preview = Preview::Ranked;
        outcome.complete = match self.options.file {
            Some(_) => self.truncated_hunks == 0,
            None => complete,
        };
        if self.truncated_hunks > 0 {
            outcome.warnings.push(format!(
                "{} before {} header's line counts: the diff looks truncated (each file's \
                 first such hunk is its item's `cut_hunk`, as it came; no patch holds one)",
                briefly_core::counted(self.truncated_hunks, "hunk ends", "hunks end"),
                if self.truncated_hunks == 1 {
                    "its"
                } else {
                    "their"
                }
            ));
        }
        if self.options.context == Some(0) && self.files_seen > 0 {
            // git checks a hunk's place by its context: with none, only so.
            outcome.warnings.push(
                "--context 0: the patches have no context lines; `git apply --unidiff-zero` \
                 applies them"
                    .into(),
            );
        }
        if self.combined_files > 0 {
            outcome.warnings.push(format!(
                "{} (`diff --cc`, a merge's): git leaves out of one the hunks merged cleanly \
                 from one parent, so they are not in the counts either (`git diff --stat` \
                 counts them, against the first parent)",
                briefly_core::counted(
                    self.combined_files,
                    "file is a combined diff",
                    "files are combined diffs"
                )
            ));
        }
        if self.context_kept > 0 {
            outcome.warnings.push(format!(
                "--context: {} as it was (a merge's combined hunks and a word diff's are \
                 not trimmed)",
                briefly_core::counted(self.context_kept, "hunk is", "hunks are")
            ));
        }
        if self.overflow_files > 0 {
            outcome.warnings.push(format!(
                "{} files past the first {MAX_FILES_HELD} are listed in input order, without patches",
                self.overflow_files
            ));
        }
        if dangling_old {
            outcome
                .warnings
                .push("a `---` line at the end had no `+++` line after it".into());
        }
        // A name mistyped reads as a file without hunks, or a diff without the file.
        let asked = match &self.options.file {
            Some(file) => Some(format!("--file {file}: no file in the diff has this path")),
            None if self.paths.is_some() => Some(format!(
                "--path {}: no file in the diff matches",
                self.options.paths.join(", ")
            )),
            None => None,
        };
        if let Some(warning) = asked.filter(|_| self.files_named == 0 && self.files_seen > 0) {
            outcome.warnings.push(warning);
        }
        if listed_only {
            let listed = match self.listed_files {
                0 => "its total".to_string(),
                1 => "the file as git lists it".to_string(),
                n if n > MAX_FILES_HELD as u64 => format!(
                    "the first {MAX_FILES_HELD} of its {n} files as git lists them (the rest \
                     in the artifact)"
                ),
                n => format!("the {n} files as git lists them"),
            };
            outcome.warnings.push(format!(
                "no patches, only git's summary of them (--stat, --numstat, --name-status or \
                 --shortstat): \
                 {listed}, with the counts it gives; `git diff` without the option has the hunks"
            ));
        }
        if self.word_diff {
            let marks = if self.porcelain {
                "porcelain marks (`+`, `-`, a space; `~` ending a line)"
            } else if self.colour_words {
                "colours (red and green), shown as [-…-] and {+…+} marks"
            } else {
                "[-…-] and {+…+} marks"
            };
            outcome.warnings.push(format!(
                "a word diff (--word-diff): its lines are counted by their {marks}, \
                 and its patches show the words changed; they do not apply"
            ));
        }
        if self.ansi_lines > 0 {
            outcome.warnings.push(format!(
                "{} lines had ANSI colour codes: read, and patches shown, without them",
                self.ansi_lines
            ));
        }
        outcome
    }
}

/// The first changed-line pair of a mechanical file, for its pattern's example.
fn first_pair_example(file: &FileDiff) -> Option<(String, String)> {
    let hunk = file.hunks.first()?;
    let removed = hunk.lines.iter().find(|l| l.starts_with('-'))?;
    let added = hunk.lines.iter().find(|l| l.starts_with('+'))?;
    Some((removed.trim_end().to_string(), added.trim_end().to_string()))
}

/// The totals as `git diff --stat` words them: singular for one, and a count of zero
/// left out unless both are (`1 file changed, 2 insertions(+)`).
fn git_stat_words(files: u64, added: u64, removed: u64) -> String {
    let mut words = match files {
        1 => "1 file changed".to_string(),
        n => format!("{n} files changed"),
    };
    if added > 0 || removed == 0 {
        words += &match added {
            1 => ", 1 insertion(+)".to_string(),
            n => format!(", {n} insertions(+)"),
        };
    }
    if removed > 0 || added == 0 {
        words += &match removed {
            1 => ", 1 deletion(-)".to_string(),
            n => format!(", {n} deletions(-)"),
        };
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_patch_cut_mid_hunk_keeps_its_whole_hunks() {
        use briefly_core::with_cut_marker;
        let head = "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n";
        let second = "@@ -9,2 +9,2 @@\n x\n-y\n+z\n";
        // Cut in the second hunk: back to the end of the first, the marker counting it.
        let cut = with_cut_marker(&format!("{head}{}", &second[..20]), 5);
        assert_eq!(whole_hunks(&cut), Some(with_cut_marker(head, 25)));
        // Cut right after a whole hunk, or in the first: as it is.
        assert_eq!(
            whole_hunks(&with_cut_marker(&format!("{head}{second}"), 9)),
            None
        );
        assert_eq!(whole_hunks(&with_cut_marker(&head[..30], 9)), None);
        assert_eq!(whole_hunks(head), None, "not cut");
    }

    #[test]
    fn totals_are_in_gits_words() {
        let cases = [
            ((1, 1, 1), "1 file changed, 1 insertion(+), 1 deletion(-)"),
            ((2, 3, 0), "2 files changed, 3 insertions(+)"),
            ((1, 0, 2), "1 file changed, 2 deletions(-)"),
            ((1, 0, 0), "1 file changed, 0 insertions(+), 0 deletions(-)"),
        ];
        for ((files, added, removed), words) in cases {
            assert_eq!(git_stat_words(files, added, removed), words);
        }
    }
    use briefly_core::testkit::reduce_all_chunkings;
    use briefly_core::{Envelope, RunConfig};

    #[test]
    fn a_context_diff_is_read_as_the_unified_diff_it_stands_for() {
        // `diff -c`: read as `diff -u` would have printed it.
        let context = "\
*** da/x.txt\t2026-12-05 15:40:03 +0000
--- db/x.txt\t2026-12-05 15:40:03 +0000
***************
*** 1,2 ****
! b
  c
--- 1,3 ----
! B
  c
+ e
";
        let unified = "\
--- da/x.txt\t2026-12-05 15:40:03 +0000
+++ db/x.txt\t2026-12-05 15:40:03 +0000
@@ -1,2 +1,3 @@
-b
+B
 c
+e
";
        let envelope = reduce(context.as_bytes(), DiffOptions::default());
        let expected = reduce(unified.as_bytes(), DiffOptions::default());
        assert_eq!(
            envelope.summary,
            "1 file changed, 2 insertions(+), 1 deletion(-)"
        );
        assert_eq!(
            (&envelope.summary, &envelope.stats),
            (&expected.summary, &expected.stats)
        );
        assert_eq!(envelope.items[0]["patch"], expected.items[0]["patch"]);
        assert!(envelope.warnings.is_empty(), "{:?}", envelope.warnings);
        // A `---` line at the end, alone: kept, and said.
        let dangling = reduce(b"some text\n--- dangling\n", DiffOptions::default());
        assert_eq!(dangling.items[1]["text"], "--- dangling");
        assert_eq!(
            dangling.warnings,
            ["a `---` line at the end had no `+++` line after it"]
        );
    }

    #[test]
    fn a_path_is_quoted_for_the_shell_when_it_needs_to_be() {
        assert_eq!(shell_quoted("src/a_b-c.rs"), "src/a_b-c.rs");
        assert_eq!(shell_quoted("my file.txt"), "'my file.txt'");
        assert_eq!(shell_quoted("it's `x`"), "'it'\\''s `x`'");
        assert_eq!(shell_quoted(""), "''");
    }

    const DIFF: &str = "\
diff --git a/a.txt b/a.txt
index 1..2 100644
--- a/a.txt
+++ b/a.txt
@@ -1,3 +1,3 @@
 keep
--- looks like a header but is a removed line
+++ looks like a header but is an added line
 keep
diff --git a/b.txt b/b.txt
--- a/b.txt
+++ b/b.txt
@@ -1 +1 @@
-old
+new
";

    fn reduce(input: &[u8], options: DiffOptions) -> Envelope {
        reduce_all_chunkings(
            || Diff::new(options.clone()).unwrap(),
            input,
            &RunConfig::new("diff"),
        )
    }

    #[test]
    fn what_is_no_files_patch_is_shown_after_the_files() {
        // `diff -ru a b`: a binary file first, then a text file, then what is on one
        // side only.
        let tree = "\
Binary files a/blob.bin and b/blob.bin differ
diff -ru a/n.txt b/n.txt
--- a/n.txt\t2026-12-02 10:35:34.106914408 +0000
+++ b/n.txt\t2026-12-02 10:35:34.118295826 +0000
@@ -1 +1 @@
-10
+ten
Only in a: only_a.txt
Only in b: only_b.txt
";
        let envelope = reduce(tree.as_bytes(), DiffOptions::default());
        let changes: Vec<(Value, Value)> = envelope
            .items
            .iter()
            .filter(|i| i.get("path").is_some())
            .map(|i| (i["path"].clone(), i["change"].clone()))
            .collect();
        assert_eq!(
            changes,
            [
                (json!("blob.bin"), json!("M binary")),
                (json!("n.txt"), json!("M +1 -1"))
            ]
        );
        let others: Vec<&Value> = envelope
            .items
            .iter()
            .filter_map(|i| i.get("text"))
            .collect();
        assert_eq!(
            others,
            [
                &json!("Only in a: only_a.txt"),
                &json!("Only in b: only_b.txt")
            ]
        );
        // Said once, as what they are.
        assert!(
            !envelope.summary.contains("outside the files' patches"),
            "{}",
            envelope.summary
        );
        let noted = format!("{tree}a note\n");
        let envelope = reduce(noted.as_bytes(), DiffOptions::default());
        assert!(
            (envelope.summary).ends_with(
                "; 1 other line outside the files' patches and the \
                 commits' headers (a commit's message, `Binary files … differ`)"
            ),
            "{}",
            envelope.summary
        );
        assert!(
            (envelope.summary).contains(
                "; 2 files or directories in one tree only (`Only in …`, listed after the files)"
            ),
            "{}",
            envelope.summary
        );

        // A commit's message is shown; its fields are in the stats.
        let show = "\
commit 0d3d9a10704bd7b98275aad2b00339553d678439
Author: t <a@b>
Date:   Wed Dec 2 10:35:29 2026 +0000

    Fix the parser

    It read a header as a removed line.

diff --git a/b.txt b/b.txt
--- a/b.txt
+++ b/b.txt
@@ -1 +1 @@
-old
+new
";
        let envelope = reduce(show.as_bytes(), DiffOptions::default());
        assert_eq!(envelope.stats["commits"][0]["subject"], "Fix the parser");
        let others: Vec<&Value> = envelope
            .items
            .iter()
            .filter_map(|i| i.get("text"))
            .collect();
        assert_eq!(others, [&json!("    It read a header as a removed line.")]);

        // No diff at all (`git show HEAD:a.txt`): its lines, and no "0 files changed".
        let envelope = reduce(b"first\nsecond\n", DiffOptions::default());
        assert!(
            envelope
                .summary
                .starts_with("no diff in the input: 2 lines"),
            "{}",
            envelope.summary
        );
        assert_eq!(envelope.items.len(), 2);
        // A context diff (`diff -c`) is read, of its own and beside a unified one.
        let context = "*** x1\t2026-12-06 20:58:39.961209724 +0000\n\
            --- x2\t2026-12-06 20:58:39.961209724 +0000\n***************\n*** 1,4 ****\n\
            \x20 a\n! b\n  c\n  d\n--- 1,5 ----\n  a\n! B\n  c\n  d\n+ e\n\
            ***************\n*** 9 ****\n- z\n--- 9 ----\n";
        let envelope = reduce(context.as_bytes(), DiffOptions::default());
        assert_eq!(
            envelope.summary,
            "1 file changed, 2 insertions(+), 2 deletions(-)"
        );
        let unified = "--- a.txt\n+++ a.txt\n@@ -1 +1 @@\n-x\n+y\n";
        let envelope = reduce(
            format!("{unified}{context}").as_bytes(),
            DiffOptions::default(),
        );
        assert_eq!(
            envelope.summary,
            "2 files changed, 3 insertions(+), 3 deletions(-)"
        );
        // A hunk too long to hold till its new side is left as it came.
        let mut long = String::from("*** x1\n--- x2\n***************\n*** 1,30000 ****\n");
        (0..30_000).for_each(|i| long.push_str(&format!("- {i}\n")));
        long.push_str("--- 0 ----\n");
        let envelope = reduce(long.as_bytes(), DiffOptions::default());
        assert!(
            envelope
                .summary
                .contains("other lines outside the files' patches"),
            "{}",
            envelope.summary
        );
        // (Its range and old side; its `--- 0 ----` is read as the file's `---` header.)
        assert_eq!(envelope.stats["other_lines"], 30_001, "{}", envelope.stats);
        // (A rule of stars alone is no hunk, nor a range alone, nor both without a file's
        // header: Markdown's.)
        let markdown = "# Notes\n\n***************\n*** 1,4 ****\n";
        for alone in [
            "***************\n*** note ****\n",
            "*** 1,4 ****\n  a\n",
            markdown,
        ] {
            let envelope = reduce(alone.as_bytes(), DiffOptions::default());
            assert!(
                envelope.summary.starts_with("no diff in the input: "),
                "{}",
                envelope.summary
            );
        }
        // Empty input, and commits with no patch (`git log`, `git show -s`).
        let envelope = reduce(b"", DiffOptions::default());
        assert_eq!(envelope.summary, "no diff in the input: it is empty");
        let log = "commit 1111111111111111111111111111111111111111\nAuthor: A <a@x>\n\
                   Date:   Mon Jan 1 00:00:00 2024 +0000\n\n    First\n\n\
                   commit 2222222222222222222222222222222222222222\nAuthor: A <a@x>\n\
                   Date:   Mon Jan 1 00:00:00 2024 +0000\n\n    Second\n";
        let envelope = reduce(log.as_bytes(), DiffOptions::default());
        assert!(
            envelope
                .summary
                .starts_with("no diff in the input: 2 commits without a patch"),
            "{}",
            envelope.summary
        );
    }

    #[test]
    fn hunk_counts_not_first_characters_end_a_hunk() {
        let reference = reduce(DIFF.as_bytes(), DiffOptions::default());
        assert_eq!(reference.total_items, 2);
        assert_eq!(reference.stats["added"], 2);
        assert_eq!(reference.stats["removed"], 2);
        let a = reference
            .items
            .iter()
            .find(|i| i["path"] == "a.txt")
            .unwrap();
        assert_eq!(a["change"], "M +1 -1");
        assert!(a["patch"]
            .as_str()
            .unwrap()
            .ends_with("+++ looks like a header but is an added line\n keep\n"));
        assert!(
            !reference.truncated,
            "every file shown whole: {}",
            reference.to_json()
        );
    }

    #[test]
    fn a_mails_summary_of_created_files_is_not_lines_outside_the_patches() {
        let mail = "From 6b9dbef8f1c7f54b4c8d45f877ace63098db6c10 Mon Sep 17 00:00:00 2001\nFrom: a <a@b>\nSubject: [PATCH] add\n\n---\n f1.txt | 1 +\n 1 file changed, 1 insertion(+)\n create mode 100644 f1.txt\n\ndiff --git a/f1.txt b/f1.txt\nnew file mode 100644\nindex 0000000..366f17f\n--- /dev/null\n+++ b/f1.txt\n@@ -0,0 +1 @@\n+file 1\n";
        let envelope = reduce(mail.as_bytes(), DiffOptions::default());
        assert_eq!(envelope.items.len(), 1, "{:?}", envelope.items);
        assert_eq!(envelope.summary, "1 file changed, 1 insertion(+)");
    }

    #[test]
    fn context_trimming_fixes_the_header() {
        let diff = "--- a/x\n+++ b/x\n@@ -1,7 +1,7 @@\n 1\n 2\n 3\n-4\n+four\n 5\n 6\n 7\n";
        let envelope = reduce(
            diff.as_bytes(),
            DiffOptions {
                context: Some(1),
                ..DiffOptions::default()
            },
        );
        let patch = envelope.items[0]["patch"].as_str().unwrap();
        assert!(
            patch.ends_with("@@ -3,3 +3,3 @@\n 3\n-4\n+four\n 5\n"),
            "{patch}"
        );
        // Without context, a side with no line names the line before the change, as
        // git's `-U0` does.
        for (diff, header) in [
            (
                "@@ -1,6 +1,7 @@\n a\n b\n c\n+X\n d\n e\n f\n",
                "@@ -3,0 +4 @@\n+X\n",
            ),
            (
                "@@ -1,7 +1,6 @@\n a\n b\n c\n-X\n d\n e\n f\n",
                "@@ -4 +3,0 @@\n-X\n",
            ),
            ("@@ -1,3 +1,4 @@\n+X\n a\n b\n c\n", "@@ -0,0 +1 @@\n+X\n"),
        ] {
            let diff = format!("--- a/x\n+++ b/x\n{diff}");
            let envelope = reduce(
                diff.as_bytes(),
                DiffOptions {
                    context: Some(0),
                    ..DiffOptions::default()
                },
            );
            let patch = envelope.items[0]["patch"].as_str().unwrap();
            assert!(patch.ends_with(header), "{patch}");
            // Such patches apply only so.
            assert!(
                envelope
                    .warnings
                    .iter()
                    .any(|w| w.contains("--unidiff-zero")),
                "{:?}",
                envelope.warnings
            );
        }
        let one = DiffOptions {
            context: Some(1),
            ..DiffOptions::default()
        };
        let envelope = reduce(b"--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n", one);
        assert!(envelope.warnings.is_empty(), "{:?}", envelope.warnings);
    }

    #[test]
    fn directories_past_the_listed_ones_are_counted() {
        let stats = |dirs: usize| {
            let input: String = (0..dirs)
                .map(|i| format!("diff --git a/d{i}/f b/d{i}/f\n--- a/d{i}/f\n+++ b/d{i}/f\n@@ -1 +1 @@\n-a\n+b\n"))
                .collect();
            let envelope = reduce_all_chunkings(
                || Diff::new(DiffOptions::default()).unwrap(),
                input.as_bytes(),
                &RunConfig::new("diff"),
            );
            envelope.stats
        };
        let many = stats(MAX_DIRECTORIES_LISTED + 2);
        assert_eq!(
            many["directories"].as_array().unwrap().len(),
            MAX_DIRECTORIES_LISTED
        );
        assert_eq!(many["directories_total"], MAX_DIRECTORIES_LISTED + 2);
        let few = stats(3);
        assert_eq!(few["directories"].as_array().unwrap().len(), 3);
        assert!(few.get("directories_total").is_none(), "{few}");
    }

    #[test]
    fn prefixes_of_the_users_own_are_learned_from_a_path_on_both_sides() {
        // `git diff --src-prefix=OLD/ --dst-prefix=NEW/` (git 2.39): a binary file, a mode
        // change, a rename with changes; then `--no-prefix`'s move to another directory.
        let custom = "\
diff --git OLD/data.bin NEW/data.bin
index 6e82c29..a3c6162 100644
Binary files OLD/data.bin and NEW/data.bin differ
diff --git OLD/run.sh NEW/run.sh
old mode 100644
new mode 100755
diff --git OLD/src/fnmatch.py NEW/src/fnmatch_new.py
similarity index 98%
rename from src/fnmatch.py
rename to src/fnmatch_new.py
index d5e296f..a6ae844 100644
--- OLD/src/fnmatch.py
+++ NEW/src/fnmatch_new.py
@@ -1 +1 @@
-old
+new
";
        let no_prefix = "\
diff --git src/a.c lib/a.c
similarity index 90%
rename from src/a.c
rename to lib/a.c
index d5e296f..a6ae844 100644
--- src/a.c
+++ lib/a.c
@@ -1 +1 @@
-old
+new
";
        let paths = |input: &str| -> Vec<(Value, Value)> {
            let envelope = reduce(input.as_bytes(), DiffOptions::default());
            let mut paths: Vec<_> = (envelope.items.iter())
                .map(|i| {
                    (
                        i["path"].clone(),
                        i.get("from").cloned().unwrap_or(Value::Null),
                    )
                })
                .collect();
            paths.sort_by_key(|(path, _)| path.to_string());
            paths
        };
        assert_eq!(
            paths(custom),
            [
                (json!("data.bin"), Value::Null),
                (json!("run.sh"), Value::Null),
                (json!("src/fnmatch_new.py"), json!("src/fnmatch.py")),
            ]
        );
        assert_eq!(paths(no_prefix), [(json!("lib/a.c"), json!("src/a.c"))]);
    }

    #[test]
    fn a_change_of_type_is_one_file_as_git_counts_it() {
        // `git diff` of conf.py become a symlink (git 2.39): its deletion, then its
        // addition; `git diff --stat` says 2 files changed. A deletion and an addition
        // of another path are two.
        let typechange = "\
diff --git a/conf.py b/conf.py
deleted file mode 100644
index d37da74..0000000
--- a/conf.py
+++ /dev/null
@@ -1,2 +0,0 @@
-x = 1
-y = 2
diff --git a/conf.py b/conf.py
new file mode 120000
index 0000000..8e8a3b4
--- /dev/null
+++ b/conf.py
@@ -0,0 +1 @@
+conf/base.py
\\ No newline at end of file
diff --git a/link b/link
index 1b2c3d4..5e6f7a8 120000
--- a/link
+++ b/link
@@ -1 +1 @@
-old
+new
";
        let in_commit = |diff: &str| {
            format!(
                "commit {}\nAuthor: a <a@b>\n\n    link it\n\n{diff}",
                "c".repeat(40)
            )
        };
        for input in [typechange.to_string(), in_commit(typechange)] {
            let envelope = reduce(input.as_bytes(), DiffOptions::default());
            let stats = &envelope.stats;
            assert!(
                envelope
                    .summary
                    .contains("2 files changed, 2 insertions(+), 3 deletions(-)"),
                "{}",
                envelope.summary
            );
            assert_eq!(stats["files"], 2);
            assert_eq!(stats["by_status"], json!({"modified": 1, "typechange": 1}));
            assert_eq!(stats["directories"][0]["files"], 2);
            // Both halves are shown, each with its patch.
            assert_eq!(
                envelope
                    .items
                    .iter()
                    .filter(|i| i["path"] == "conf.py")
                    .count(),
                2
            );
        }
        let envelope = reduce(in_commit(typechange).as_bytes(), DiffOptions::default());
        assert_eq!(envelope.stats["commits"][0]["files"], 2);
        // A path one commit deletes and the next adds: two changes.
        let (deletion, addition) = typechange.split_at(
            typechange
                .find("diff --git a/conf.py b/conf.py\nnew")
                .unwrap(),
        );
        let two_commits =
            in_commit(deletion) + &in_commit(addition).replace(&"c".repeat(40), &"d".repeat(40));
        let envelope = reduce(two_commits.as_bytes(), DiffOptions::default());
        assert_eq!(envelope.stats["files"], 3);
        assert_eq!(
            envelope.stats["by_status"],
            json!({"added": 1, "deleted": 1, "modified": 1})
        );
        let other = typechange
            .replacen("a/conf.py b/conf.py\nnew", "a/cfg.py b/cfg.py\nnew", 1)
            .replace("+++ b/conf.py", "+++ b/cfg.py");
        let envelope = reduce(other.as_bytes(), DiffOptions::default());
        assert_eq!(envelope.stats["files"], 3);
        assert_eq!(
            envelope.stats["by_status"],
            json!({"added": 1, "deleted": 1, "modified": 1})
        );
    }

    #[test]
    fn commits_past_the_listed_ones_are_counted_and_still_named() {
        let n = MAX_COMMITS_LISTED + 10;
        let input: String = (0..n)
            .map(|i| {
                format!(
                    "commit {i:04x}{}\nAuthor: a <a@b>\n\n    change {i}\n\n\
                     diff --git a/f{i} b/f{i}\n--- a/f{i}\n+++ b/f{i}\n@@ -1 +1 @@\n-old\n+new {i}\n",
                    "a".repeat(36)
                )
            })
            .collect();
        let envelope = reduce_all_chunkings(
            || Diff::new(DiffOptions::default()).unwrap(),
            input.as_bytes(),
            &RunConfig::new("diff"),
        );
        let stats = &envelope.stats;
        assert_eq!(
            stats["commits"].as_array().unwrap().len(),
            MAX_COMMITS_LISTED
        );
        assert_eq!(stats["commits_total"], n);
        assert_eq!(stats["commits"][1]["subject"], "change 1");
        assert_eq!(stats["commits"][1]["files"], 1);
        assert!(envelope
            .summary
            .starts_with(&format!("{n} commits: {n} file changes")));
        let last = envelope
            .items
            .iter()
            .find(|i| i["path"] == format!("f{}", n - 1))
            .unwrap();
        assert_eq!(last["commit"], format!("{:04x}aaaaaaaa", n - 1));
        // Their fields are no lines outside the patches, no more than a listed one's; a
        // message past the subject is, as of a listed commit.
        assert!(
            !envelope.summary.contains("outside"),
            "{}",
            envelope.summary
        );
        let with_body = input.replace(
            &format!("    change {}\n", n - 1),
            &format!("    change {}\n\n    why it changed\n", n - 1),
        );
        let envelope = reduce_all_chunkings(
            || Diff::new(DiffOptions::default()).unwrap(),
            with_body.as_bytes(),
            &RunConfig::new("diff"),
        );
        let others: Vec<&Value> = (envelope.items.iter())
            .filter(|i| i["kind"] == "line")
            .map(|i| &i["text"])
            .collect();
        assert_eq!(others, [&json!("    why it changed")], "{envelope:?}");
    }

    #[test]
    fn a_bad_glob_is_an_error() {
        assert!(Diff::new(DiffOptions {
            paths: vec!["[".into()],
            ..DiffOptions::default()
        })
        .is_err());
    }
}
