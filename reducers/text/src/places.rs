//! Lists of paths (`find`, `git ls-files`, `fd`, `rg --files`) and of lines at files'
//! lines (`grep -rn`, `git grep -n`, `rg -n`, a linter's `src/a.py:12: …`), counted by
//! directory and file.
//!
//! Templates fold lines that differ in their variable parts; paths differ in their names,
//! so a list of 20,000 files makes thousands of templates, and its items are little more
//! than its head. When nearly every line is a path, the reducer also counts the paths by
//! directory and lists the directories that hold most of them; when nearly every line
//! opens with a file and a line number, it counts the lines by file and lists the
//! files and directories that hold most of them: a map of where things are, each place
//! with its count and its first line.

use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// Distinct places (directories of paths, files of lines) counted; lines of others are
/// counted apart.
pub const MAX_PLACES: usize = 4096;
/// Directories at most [`SHALLOW`] deep counted past [`MAX_PLACES`], at most, so that
/// a path whose directory is not counted apart is counted under one above it.
const SHALLOW_PLACES: usize = 256;
/// How deep a directory counted past [`MAX_PLACES`] may be (`/usr/share`, `src/app`).
const SHALLOW: usize = 2;
/// Places listed as items, at most.
pub const LISTED: usize = 24;
/// Fewer lines are not a list worth a map.
const MIN_LINES: u64 = 64;
/// The share of non-blank lines, in tenths, that must be of the list's kind.
const LIST_TENTHS: u64 = 9;
/// Lines read before the share is first looked at; it is looked at again every as many.
const LOOK_EVERY: u64 = 256;
/// A longer path is no path.
const MAX_PATH_BYTES: usize = 4096;
/// A place's first line is kept to this many characters (a grep's match may be a
/// minified file's whole line).
const MAX_EXAMPLE_CHARS: usize = 300;

/// A place of a list as an item: a directory and the paths or lines under it (at any
/// depth), or, with `rest`, what the places listed leave of it; or a file and its
/// lines. The items of one input never count a line twice, and hold every line counted
/// unless there are more than [`LISTED`] top places.
#[derive(Debug, Clone, Serialize)]
pub struct PlaceItem {
    /// `directory` or `file`.
    pub kind: &'static str,
    /// The directory, as the lines spell it, ending in its separator (`./` for paths
    /// without one); or the file.
    pub path: String,
    /// Paths (a list of paths) or lines (a list of lines at files' lines) in it.
    pub count: u64,
    /// The count is of what the places listed leave of the directory: the paths right in
    /// it, and what is in its smaller subdirectories when not all of them are listed.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub rest: bool,
    /// The line of the first of them.
    pub first_line: u64,
    /// The first of them.
    pub example: String,
}

/// What a list of paths adds up to, for the stats.
#[derive(Debug, Clone, Serialize)]
pub struct PathStats {
    /// Lines that are paths.
    pub paths: u64,
    /// Directories they are in (at most [`MAX_PLACES`] counted apart, and a few
    /// shallow ones above those past them).
    pub directories: usize,
    /// Paths in directories past the ones counted apart, counted in the nearest
    /// directory above theirs that is.
    #[serde(skip_serializing_if = "briefly_core::is_zero")]
    pub counted_above: u64,
    /// Paths in directories past the ones counted, with none above them counted either.
    #[serde(skip_serializing_if = "briefly_core::is_zero")]
    pub uncounted: u64,
}

/// What a list of lines at files' lines adds up to, for the stats.
#[derive(Debug, Clone, Serialize)]
pub struct LocatedStats {
    /// Lines that open with a file and a line number.
    pub lines: u64,
    /// Files they name (at most [`MAX_PLACES`] counted).
    pub files: usize,
    /// Lines of files past the ones counted.
    #[serde(skip_serializing_if = "briefly_core::is_zero")]
    pub uncounted: u64,
}

/// What a line of a list is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A path: counted in its directory.
    Path,
    /// A line at a file's line (`src/a.rs:12:…`): counted in its file.
    Located,
}

/// The lines of one place.
#[derive(Debug)]
struct Place {
    kind: Kind,
    count: u64,
    first_line: u64,
    example: String,
}

impl Place {
    /// A place of `kind` whose first line is input line `line`, `text`.
    fn first(kind: Kind, line: u64, text: &str) -> Place {
        Place {
            kind,
            count: 1,
            first_line: line,
            example: briefly_core::cut_str(text, MAX_EXAMPLE_CHARS).into_owned(),
        }
    }
}

/// Counts the lines of an input by place while it looks like a list.
#[derive(Debug, Default)]
pub(crate) struct Places {
    /// It stopped looking: too many lines are of neither kind.
    done: bool,
    lines: u64,
    paths: u64,
    located: u64,
    counted: HashMap<String, Place>,
    /// Paths counted in a directory above theirs ([`Places::count_above`]).
    counted_above: u64,
    /// Lines of each kind in places past the ones counted.
    uncounted: [u64; 2],
}

impl Places {
    /// Reads input line `line`, `text`.
    pub(crate) fn push(&mut self, line: u64, text: &str) {
        if self.done || text.trim().is_empty() {
            return;
        }
        self.lines += 1;
        if let Some((place, kind)) = place_of(text) {
            match kind {
                Kind::Path => self.paths += 1,
                Kind::Located => self.located += 1,
            }
            let full = self.counted.len() >= MAX_PLACES;
            if let Some(counted) = self.counted.get_mut(place) {
                match counted.kind == kind {
                    true => counted.count += 1,
                    false => self.uncounted[kind as usize] += 1,
                }
            } else if !full {
                self.counted
                    .insert(place.to_string(), Place::first(kind, line, text));
            } else if kind == Kind::Path && self.count_above(place, line, text) {
                self.counted_above += 1;
            } else {
                self.uncounted[kind as usize] += 1;
            }
        }
        if self.lines.is_multiple_of(LOOK_EVERY) && self.kind().is_none() {
            self.done = true;
            self.counted = HashMap::new();
        }
    }

    /// Counts the path `text` (input line `line`), whose directory `place` is past the
    /// ones counted apart, in the directory at most [`SHALLOW`] deep above it, counted
    /// anew while there is room for it, or else in the nearest directory above it that
    /// is counted: `find /` has its first thousands of directories in one tree, and the
    /// paths of every other are counted at least under `/usr/share` or `/var/lib`.
    /// Whether it was counted.
    fn count_above(&mut self, place: &str, line: u64, text: &str) -> bool {
        // The nearest directory above counted, and the deepest at most SHALLOW deep
        // below it.
        let mut above = parent(place);
        let mut shallow = None;
        while let Some(dir) = above {
            if self.counted.contains_key(dir) {
                break;
            }
            if shallow.is_none() && depth(dir) <= SHALLOW {
                shallow = Some(dir);
            }
            above = parent(dir);
        }
        let room = self.counted.len() < MAX_PLACES + SHALLOW_PLACES;
        if let Some(dir) = shallow.filter(|_| room) {
            self.counted
                .insert(dir.to_string(), Place::first(Kind::Path, line, text));
            return true;
        }
        match above.and_then(|dir| self.counted.get_mut(dir)) {
            Some(counted) if counted.kind == Kind::Path => {
                counted.count += 1;
                true
            }
            _ => false,
        }
    }

    /// The kind of nearly every line, when there is one.
    fn kind(&self) -> Option<Kind> {
        let (kind, count) = match self.paths >= self.located {
            true => (Kind::Path, self.paths),
            false => (Kind::Located, self.located),
        };
        (count * 10 >= self.lines * LIST_TENTHS).then_some(kind)
    }

    /// The kind of the list, when the input is one.
    fn list(&self) -> Option<Kind> {
        self.kind()
            .filter(|_| !self.done && self.paths.max(self.located) >= MIN_LINES)
    }

    /// The places of the list's kind.
    fn places(&self, kind: Kind) -> impl Iterator<Item = (&String, &Place)> {
        self.counted
            .iter()
            .filter(move |(_, place)| place.kind == kind)
    }

    /// The stats of a list of paths; nothing when the input is not one.
    pub(crate) fn path_stats(&self) -> Option<PathStats> {
        (self.list() == Some(Kind::Path)).then(|| PathStats {
            paths: self.paths,
            directories: self.places(Kind::Path).count(),
            counted_above: self.counted_above,
            uncounted: self.uncounted[Kind::Path as usize],
        })
    }

    /// The stats of a list of lines at files' lines; nothing when the input is not one.
    pub(crate) fn located_stats(&self) -> Option<LocatedStats> {
        (self.list() == Some(Kind::Located)).then(|| LocatedStats {
            lines: self.located,
            files: self.places(Kind::Located).count(),
            uncounted: self.uncounted[Kind::Located as usize],
        })
    }

    /// The places that hold most of the list's lines, at most [`LISTED`], largest first;
    /// nothing when the input is not a list.
    ///
    /// From the top directories down, the one holding most lines is replaced by what is
    /// in it (its subdirectories and files, and itself for the paths right in it) while
    /// they fit in the list; then the next one by its largest places and itself for the
    /// rest, as far as they fit.
    pub(crate) fn listed(&self) -> Vec<PlaceItem> {
        let Some(kind) = self.list() else {
            return Vec::new();
        };
        // Every place counted, and each directory above it, with the lines under it.
        let mut tree: BTreeMap<&str, Node> = BTreeMap::new();
        for (key, place) in self.places(kind) {
            let mut at = Some(key.as_str());
            let mut child: Option<&str> = None;
            while let Some(path) = at {
                let node = tree.entry(path).or_default();
                node.count += place.count;
                if node.first.is_none_or(|(line, _)| place.first_line < line) {
                    node.first = Some((place.first_line, &place.example));
                }
                if let Some(child) = child {
                    node.children.push(child);
                } else {
                    node.direct = Some(place);
                }
                child = Some(path);
                at = parent(path);
            }
        }
        for node in tree.values_mut() {
            node.children.sort_unstable();
            node.children.dedup();
        }
        let mut listed: Vec<Listed> = tree
            .keys()
            .filter(|path| parent(path).is_none())
            .map(|path| whole(&tree, path))
            .collect();
        loop {
            // The largest place that holds others.
            let open = listed
                .iter()
                .enumerate()
                .filter(|(_, l)| !l.rest && !tree[l.path].children.is_empty())
                .max_by_key(|(_, l)| (l.count, std::cmp::Reverse(l.path)));
            let Some((at, &Listed { path, .. })) = open else {
                break;
            };
            let node = &tree[path];
            let mut children: Vec<Listed> = node.children.iter().map(|c| whole(&tree, c)).collect();
            children.sort_by(|a, b| b.count.cmp(&a.count).then(a.first_line.cmp(&b.first_line)));
            // Its places in the room left, largest first; what they leave, itself.
            let room = LISTED + 1 - listed.len();
            let lone = children.len() == 1 && node.direct.is_none();
            let all = children.len() + usize::from(node.direct.is_some());
            let shown = match (lone, all <= room) {
                (true, _) | (_, true) => children.len().min(room),
                _ if room >= 2 => room - 1,
                _ => break,
            };
            listed.swap_remove(at);
            let rest: Vec<Listed> = children.split_off(shown);
            listed.extend(children);
            if node.direct.is_some() || !rest.is_empty() {
                let direct = node
                    .direct
                    .map(|d| (d.count, d.first_line, d.example.as_str()));
                let others = rest.iter().map(|l| (l.count, l.first_line, l.example));
                let (count, first_line, example) = direct.into_iter().chain(others).fold(
                    (0, u64::MAX, ""),
                    |(count, line, example), (n, first, text)| match first < line {
                        true => (count + n, first, text),
                        false => (count + n, line, example),
                    },
                );
                listed.push(Listed {
                    path,
                    rest: true,
                    count,
                    first_line,
                    example,
                });
            }
            if !rest.is_empty() {
                break;
            }
        }
        let mut items: Vec<PlaceItem> = listed
            .into_iter()
            .map(|l| {
                // A file is a place counted that holds nothing else.
                let file = kind == Kind::Located && !l.rest && tree[l.path].direct.is_some();
                PlaceItem {
                    kind: if file { "file" } else { "directory" },
                    path: if file {
                        l.path.to_string()
                    } else {
                        shown(l.path)
                    },
                    count: l.count,
                    rest: l.rest,
                    first_line: l.first_line,
                    example: l.example.to_string(),
                }
            })
            .collect();
        items.sort_by(|a, b| b.count.cmp(&a.count).then(a.first_line.cmp(&b.first_line)));
        // Many top places (drives, or `/` and `.`): the largest.
        items.truncate(LISTED);
        items
    }
}

/// A place as listed: all under it, or what the places listed leave of it.
#[derive(Debug, Clone, Copy)]
struct Listed<'a> {
    path: &'a str,
    rest: bool,
    count: u64,
    first_line: u64,
    example: &'a str,
}

/// `path`, all under it.
fn whole<'a>(tree: &BTreeMap<&'a str, Node<'a>>, path: &'a str) -> Listed<'a> {
    let node = &tree[path];
    let (first_line, example) = node.first.expect("every node has a line under it");
    Listed {
        path,
        rest: false,
        count: node.count,
        first_line,
        example,
    }
}

/// A place of the tree built from the list.
#[derive(Debug, Default)]
struct Node<'a> {
    count: u64,
    /// The first line under it, with its number.
    first: Option<(u64, &'a str)>,
    children: Vec<&'a str>,
    /// The lines counted right in it.
    direct: Option<&'a Place>,
}

/// Where `text` is counted when it is a line of a list: the file it opens with, when a
/// line number follows (`src/a.rs:12:…`, `src/a.rs:12:5:…`); else its directory, when
/// it is a path.
fn place_of(text: &str) -> Option<(&str, Kind)> {
    match located_file(text) {
        Some(file) => Some((file, Kind::Located)),
        None => directory_of(text).map(|dir| (dir, Kind::Path)),
    }
}

/// The file `text` opens with when a line number follows it: `src/a.rs:12:…` (`grep
/// -n`), `C:\src\a.rs:12:5:…`. Not `12:00:01 up`, nor a time after a date, nor one at
/// the end of a name (OpenStack's `nova-api.log.1.2017-05-16_13:53:08 2017-…`).
pub(crate) fn located_file(text: &str) -> Option<&str> {
    let bytes = &text.as_bytes()[..text.len().min(MAX_PATH_BYTES)];
    for colon in memchr::memchr_iter(b':', bytes) {
        let path = &bytes[..colon];
        if path
            .iter()
            .any(|b| b.is_ascii_whitespace() || b.is_ascii_control())
        {
            return None;
        }
        let digits = bytes[colon + 1..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if digits > 0 && bytes.get(colon + 1 + digits) == Some(&b':') {
            let named = path.iter().any(u8::is_ascii_alphabetic)
                && path.iter().any(|b| matches!(b, b'.' | b'/' | b'\\'));
            let two_digits = |at: &[u8]| at.len() >= 2 && at[..2].iter().all(u8::is_ascii_digit);
            let time = digits == 2
                && two_digits(&path[path.len().saturating_sub(2)..])
                && two_digits(&bytes[colon + 4..]);
            return (named && !time).then(|| &text[..colon]);
        }
    }
    None
}

/// The directory `text` is in, when it is a path: no spaces or tabs, no URL, no `ls -R`
/// heading (`dir:`), a letter in it; a separator, or else a name with an extension that
/// has a letter and only letters and digits (`README.md`, in `.`; not sqlite3's row
/// `1|cust1|1.5`, nor `222|u@example.com|118.48|paid`).
fn directory_of(text: &str) -> Option<&str> {
    let bytes = text.as_bytes();
    let clean = bytes.len() <= MAX_PATH_BYTES
        && !bytes
            .iter()
            .any(|b| b.is_ascii_whitespace() || b.is_ascii_control())
        && !text.ends_with(':')
        && !text.contains("://")
        && !text.starts_with(['-', '+', '#'])
        && bytes.iter().any(u8::is_ascii_alphabetic);
    if !clean {
        return None;
    }
    let separator = separator_of(text);
    match text.trim_end_matches(separator).rsplit_once(separator) {
        Some(("", _)) => Some(&text[..1]),
        Some((dir, _)) => Some(dir),
        // A top directory, written with its separator (`src/`).
        None if text.contains(separator) => Some("."),
        None => text
            .rsplit_once('.')
            .is_some_and(|(_, extension)| {
                extension.bytes().any(|b| b.is_ascii_alphabetic())
                    && extension
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'_')
            })
            .then_some("."),
    }
}

/// The directory `path` is in, in the tree; nothing for a top one: `/`, `.`, a drive
/// (`C:`). A relative path's top directory is in `.`, with the files beside it.
/// How many directories deep `dir` is: `/usr/share` and `src/app` 2, `/` and `.` 0.
fn depth(dir: &str) -> usize {
    let separator = separator_of(dir);
    dir.split(separator)
        .filter(|part| !part.is_empty() && *part != ".")
        .count()
}

fn parent(path: &str) -> Option<&str> {
    match path.rsplit_once(separator_of(path)) {
        Some(("", _)) if path.len() > 1 => Some(&path[..1]),
        Some((dir, _)) if !dir.is_empty() => Some(dir),
        None if path != "." && !path.ends_with(':') => Some("."),
        _ => None,
    }
}

/// A directory as an item shows it: ending in its separator.
fn shown(path: &str) -> String {
    match path {
        "." | "" => "./".to_string(),
        "/" | "\\" => path.to_string(),
        _ => format!("{path}{}", separator_of(path)),
    }
}

/// The separator `path` is spelled with: `\` in a Windows path, else `/`.
fn separator_of(path: &str) -> char {
    match path.contains('\\') && !path.contains('/') {
        true => '\\',
        false => '/',
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list_of(lines: &[String]) -> Places {
        let mut list = Places::default();
        for (n, line) in lines.iter().enumerate() {
            list.push(n as u64 + 1, line);
        }
        list
    }

    /// A place listed: kind, path, count, rest, first line, example.
    type Row = (&'static str, String, u64, bool, u64, String);

    fn rows(rows: &[(&'static str, &str, u64, bool, u64, &str)]) -> Vec<Row> {
        rows.iter()
            .map(|(k, d, n, o, l, e)| (*k, d.to_string(), *n, *o, *l, e.to_string()))
            .collect()
    }

    /// The places listed.
    fn listed(list: &Places) -> Vec<Row> {
        list.listed()
            .into_iter()
            .map(|p| (p.kind, p.path, p.count, p.rest, p.first_line, p.example))
            .collect()
    }

    #[test]
    fn what_a_path_is_and_its_directory() {
        for (line, dir) in [
            ("/usr/lib/a.py", "/usr/lib"),
            ("/a", "/"),
            ("src/main.rs", "src"),
            ("./src/main.rs", "./src"),
            ("README.md", "."),
            ("src/", "."),
            ("pod/web-0", "pod"),
            ("C:\\Users\\ann\\notes.txt", "C:\\Users\\ann"),
        ] {
            assert_eq!(place_of(line), Some((dir, Kind::Path)), "{line:?}");
        }
        for (line, file) in [
            ("src/a.rs:12:    let x = 1;", "src/a.rs"),
            ("./src/a.rs:12:5:let x", "./src/a.rs"),
            ("C:\\src\\a.rs:7:x", "C:\\src\\a.rs"),
            ("Makefile.am:3:all:", "Makefile.am"),
        ] {
            assert_eq!(place_of(line), Some((file, Kind::Located)), "{line:?}");
        }
        for line in [
            "GET /api/items 200",
            "https://example.com/a/b",
            "./src:",
            "-old/line",
            "+new/line",
            "12/34",
            "done",
            "a/b\tc",
            "",
            "12:00:01 up 3 days",
            "2024-01-05 10:00:00 INFO x",
            "Binary file a.bin matches",
            "main:12:x",
            "1|cust1|1.5",
            "222|user222@example.com|118.48|paid",
            "v1.2",
        ] {
            assert_eq!(place_of(line), None, "{line:?}");
        }
    }

    #[test]
    fn the_largest_directories_partition_the_paths() {
        // 600 paths in src/a/x (under src/a), 300 in src/b, 40 right in src, 20 in docs,
        // 10 at the top.
        let mut lines = Vec::new();
        lines.extend((0..10).map(|i| format!("top{i}.md")));
        lines.extend((0..600).map(|i| format!("src/a/x/f{i}.rs")));
        lines.extend((0..300).map(|i| format!("src/b/g{i}.rs")));
        lines.extend((0..40).map(|i| format!("src/h{i}.rs")));
        lines.extend((0..20).map(|i| format!("docs/d{i}.md")));
        let list = list_of(&lines);
        let stats = list.path_stats().expect("a list of paths");
        assert_eq!(
            (stats.paths, stats.directories, stats.uncounted),
            (970, 5, 0)
        );
        assert!(list.located_stats().is_none());
        let expected = [
            ("directory", "src/a/x/", 600, false, 11, "src/a/x/f0.rs"),
            ("directory", "src/b/", 300, false, 611, "src/b/g0.rs"),
            ("directory", "src/", 40, true, 911, "src/h0.rs"),
            ("directory", "docs/", 20, false, 951, "docs/d0.md"),
            ("directory", "./", 10, true, 1, "top0.md"),
        ];
        assert_eq!(listed(&list), rows(&expected));
    }

    #[test]
    fn lines_at_files_lines_are_counted_by_file() {
        // `git grep -n`: files in directories; a file alone in its directory is listed
        // as the file.
        let mut lines = Vec::new();
        lines.extend((0..100).map(|i| format!("src/cmd/run.rs:{i}:x")));
        lines.extend((0..60).map(|i| format!("src/cmd/page.rs:{i}:x")));
        lines.extend((0..30).map(|i| format!("tests/a.rs:{i}:x")));
        lines.push("Binary file logo.png matches".into());
        let list = list_of(&lines);
        let stats = list.located_stats().expect("lines at files' lines");
        assert_eq!((stats.lines, stats.files, stats.uncounted), (190, 3, 0));
        assert!(list.path_stats().is_none());
        let expected = [
            (
                "file",
                "src/cmd/run.rs",
                100,
                false,
                1,
                "src/cmd/run.rs:0:x",
            ),
            (
                "file",
                "src/cmd/page.rs",
                60,
                false,
                101,
                "src/cmd/page.rs:0:x",
            ),
            ("file", "tests/a.rs", 30, false, 161, "tests/a.rs:0:x"),
        ];
        assert_eq!(listed(&list), rows(&expected));
        // A time at the end of a file's name is none of its lines.
        let lines: Vec<String> = (0..100)
            .map(|i| format!("nova-api.log.1.2017-05-16_13:53:08 2017-05-16 00:00:{i:02}.008 INFO"))
            .collect();
        assert!(list_of(&lines).located_stats().is_none());
        let lines: Vec<String> = (0..100).map(|i| format!("logs/app12:{i}:x")).collect();
        assert_eq!(list_of(&lines).located_stats().unwrap().files, 1);
    }

    #[test]
    fn at_most_listed_places_are_items() {
        // 100 directories of 10 paths each under one: 23 of them, and the rest.
        let lines: Vec<String> = (0..1_000)
            .map(|i| format!("/r/d{}/f{i}", i % 100))
            .collect();
        let items = listed(&list_of(&lines));
        assert_eq!(items.len(), LISTED);
        let rest = (
            "directory",
            "/r/".into(),
            770,
            true,
            24,
            "/r/d23/f23".into(),
        );
        assert_eq!(items[0], rest);
        let d0 = (
            "directory",
            "/r/d0/".into(),
            10,
            false,
            1,
            "/r/d0/f0".into(),
        );
        assert_eq!(items[1], d0);
        assert_eq!(items.iter().map(|i| i.2).sum::<u64>(), 1_000);
        // The same at the top of relative paths.
        let lines: Vec<String> = (0..1_000).map(|i| format!("d{}/f{i}", i % 100)).collect();
        let items = listed(&list_of(&lines));
        assert_eq!(items.len(), LISTED);
        assert_eq!(
            (items[0].1.as_str(), items[0].2, items[0].3),
            ("./", 770, true)
        );
    }

    #[test]
    fn a_log_is_no_list_and_stops_being_read() {
        let log: Vec<String> = (0..1_000)
            .map(|i| format!("INFO GET /api/{i} 200"))
            .collect();
        let list = list_of(&log);
        assert!(list.path_stats().is_none() && list.listed().is_empty());
        assert!(list.done && list.counted.is_empty(), "the map is dropped");
        // Paths first, then a log: no list either.
        let mut lines: Vec<String> = (0..300).map(|i| format!("src/f{i}.rs")).collect();
        lines.extend(log);
        assert!(list_of(&lines).path_stats().is_none());
        // Too few lines for a map; half paths and half lines at files' lines: neither.
        let lines: Vec<String> = (0..MIN_LINES - 1).map(|i| format!("src/f{i}.rs")).collect();
        assert!(list_of(&lines).path_stats().is_none());
        let lines: Vec<String> = (0..200)
            .map(|i| match i % 2 {
                0 => format!("src/f{i}.rs"),
                _ => format!("src/f{i}.rs:1:x"),
            })
            .collect();
        let list = list_of(&lines);
        assert!(list.path_stats().is_none() && list.located_stats().is_none());
    }

    #[test]
    fn a_place_s_first_line_is_kept_bounded() {
        let long = format!("dist/app.min.js:1:{}", "x".repeat(1 << 20));
        let lines: Vec<String> = (0..MIN_LINES).map(|_| long.clone()).collect();
        let items = list_of(&lines).listed();
        assert_eq!(
            (items[0].path.as_str(), items[0].count),
            ("dist/app.min.js", MIN_LINES)
        );
        assert_eq!(
            items[0].example,
            briefly_core::with_cut_marker(
                &long[..MAX_EXAMPLE_CHARS],
                (long.len() - MAX_EXAMPLE_CHARS) as u64
            )
        );
    }

    #[test]
    fn places_past_the_cap_are_counted_above() {
        // Past the cap, a path counts in a shallow directory above its own, counted
        // anew: `d`.
        let lines: Vec<String> = (0..MAX_PLACES + 100)
            .map(|i| format!("d/{i}/f.rs"))
            .collect();
        let list = list_of(&lines);
        let stats = list.path_stats().unwrap();
        assert_eq!(
            (stats.directories, stats.counted_above, stats.uncounted),
            (MAX_PLACES + 1, 100, 0)
        );
        let counted: u64 = list.listed().iter().map(|d| d.count).sum();
        assert_eq!(counted, (MAX_PLACES + 100) as u64);

        // Then in the nearest counted above it, once no more shallow ones are counted;
        // with none above it, apart.
        let mut lines: Vec<String> = (0..MAX_PLACES).map(|i| format!("a/{i}/f")).collect();
        lines.extend((0..SHALLOW_PLACES + 44).map(|j| format!("t{j}/u/v/f")));
        lines.push("a/7/deep/f".into());
        lines.push("t0/u/other/f".into());
        let list = list_of(&lines);
        let stats = list.path_stats().unwrap();
        assert_eq!(
            (stats.directories, stats.counted_above, stats.uncounted),
            (MAX_PLACES + SHALLOW_PLACES, SHALLOW_PLACES as u64 + 2, 44)
        );
    }
}
