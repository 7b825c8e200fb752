//! Lists of paths (`find`, `git ls-files`, `fd`, `rg --files`), counted by directory.
//!
//! Templates fold lines that differ in their variable parts; paths differ in their names,
//! so a list of 20,000 files makes thousands of templates, and its items are little more
//! than its head. When nearly every line is a path, the reducer also counts the paths by
//! directory and lists the directories that hold most of them: a map of where the files
//! are, each directory with its count and the first path under it.

use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// Distinct directories counted; paths in others are counted apart.
pub const MAX_DIRECTORIES: usize = 4096;
/// Directories listed as items, at most.
pub const LISTED: usize = 24;
/// Fewer paths are not a list worth a map.
const MIN_PATHS: u64 = 64;
/// The share of non-blank lines, in tenths, that must be paths.
const PATH_TENTHS: u64 = 9;
/// Lines read before the share is first looked at; it is looked at again every as many.
const LOOK_EVERY: u64 = 256;
/// A longer line is no path.
const MAX_PATH_BYTES: usize = 4096;

/// A directory of the list as an item: the paths under it (at any depth), or, with
/// `direct_only`, the paths right in it (its subdirectories are listed apart). The
/// items of one input never count a path twice, and hold every path counted unless
/// there are more than [`LISTED`] top directories.
#[derive(Debug, Clone, Serialize)]
pub struct DirectoryItem {
    /// `directory`.
    pub kind: &'static str,
    /// The directory, as the paths spell it, ending in its separator (`./` for paths
    /// without one).
    pub dir: String,
    /// Paths under it.
    pub paths: u64,
    /// The paths counted are only those right in it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub direct_only: bool,
    /// The line of the first of them.
    pub first_line: u64,
    /// The first of them.
    pub example: String,
}

/// What the list adds up to, for the stats.
#[derive(Debug, Clone, Serialize)]
pub struct PathStats {
    /// Lines that are paths.
    pub paths: u64,
    /// Directories they are in (at most [`MAX_DIRECTORIES`] counted).
    pub directories: usize,
    /// Paths in directories past the ones counted.
    #[serde(skip_serializing_if = "briefly_core::is_zero")]
    pub uncounted: u64,
}

/// Paths right in one directory.
#[derive(Debug)]
struct Directory {
    paths: u64,
    first_line: u64,
    example: String,
}

/// Counts the paths of an input by directory while the input looks like a list of them.
#[derive(Debug, Default)]
pub(crate) struct PathList {
    /// It stopped looking: too many lines are not paths.
    done: bool,
    lines: u64,
    paths: u64,
    directories: HashMap<String, Directory>,
    uncounted: u64,
}

impl PathList {
    /// Reads input line `line`, `text`.
    pub(crate) fn push(&mut self, line: u64, text: &str) {
        if self.done || text.trim().is_empty() {
            return;
        }
        self.lines += 1;
        if let Some(dir) = directory_of(text) {
            self.paths += 1;
            let full = self.directories.len() >= MAX_DIRECTORIES;
            match self.directories.get_mut(dir) {
                Some(directory) => directory.paths += 1,
                None if !full => {
                    let directory = Directory {
                        paths: 1,
                        first_line: line,
                        example: text.to_string(),
                    };
                    self.directories.insert(dir.to_string(), directory);
                }
                None => self.uncounted += 1,
            }
        }
        if self.lines.is_multiple_of(LOOK_EVERY) && !self.is_a_list() {
            self.done = true;
            self.directories = HashMap::new();
        }
    }

    /// Nearly every line is a path.
    fn is_a_list(&self) -> bool {
        self.paths * 10 >= self.lines * PATH_TENTHS
    }

    /// The stats of a list of paths; nothing when the input is not one.
    pub(crate) fn stats(&self) -> Option<PathStats> {
        (!self.done && self.paths >= MIN_PATHS && self.is_a_list()).then_some(PathStats {
            paths: self.paths,
            directories: self.directories.len(),
            uncounted: self.uncounted,
        })
    }

    /// The directories that hold most of the paths, at most [`LISTED`], largest first;
    /// nothing when the input is not a list of paths.
    ///
    /// From the top directories down, the one holding most paths is replaced by its
    /// subdirectories (and itself for the paths right in it) while they fit in the list.
    pub(crate) fn directories(&self) -> Vec<DirectoryItem> {
        if self.stats().is_none() {
            return Vec::new();
        }
        // Every directory counted, and each of its ancestors, with the paths under it.
        let mut tree: BTreeMap<&str, Node> = BTreeMap::new();
        for (dir, directory) in &self.directories {
            let mut at = Some(dir.as_str());
            let mut child: Option<&str> = None;
            while let Some(path) = at {
                let node = tree.entry(path).or_default();
                node.paths += directory.paths;
                if node
                    .first
                    .is_none_or(|(line, _)| directory.first_line < line)
                {
                    node.first = Some((directory.first_line, &directory.example));
                }
                if let Some(child) = child {
                    node.children.push(child);
                } else {
                    node.direct = Some(directory);
                }
                child = Some(path);
                at = parent(path);
            }
        }
        for node in tree.values_mut() {
            node.children.sort_unstable();
            node.children.dedup();
        }
        let mut listed: Vec<(&str, bool)> = tree
            .iter()
            .filter(|(path, _)| parent(path).is_none())
            .map(|(path, _)| (*path, false))
            .collect();
        loop {
            // The largest directory that is not one directory and nothing else.
            let open = listed
                .iter()
                .enumerate()
                .filter(|(_, (path, direct_only))| !direct_only && !tree[path].children.is_empty())
                .max_by_key(|(_, (path, _))| (tree[path].paths, std::cmp::Reverse(*path)));
            let Some((at, &(path, _))) = open else { break };
            let node = &tree[path];
            let grows = node.children.len() - 1 + usize::from(node.direct.is_some());
            let lone = node.children.len() == 1 && node.direct.is_none();
            if !lone && listed.len() + grows > LISTED {
                break;
            }
            listed.swap_remove(at);
            listed.extend(node.children.iter().map(|child| (*child, false)));
            if node.direct.is_some() {
                listed.push((path, true));
            }
        }
        let mut items: Vec<DirectoryItem> = listed
            .into_iter()
            .map(|(path, direct_only)| {
                let node = &tree[path];
                let (paths, (first_line, example)) = match (direct_only, node.direct) {
                    (true, Some(d)) => (d.paths, (d.first_line, d.example.as_str())),
                    _ => (
                        node.paths,
                        node.first.expect("every node has a path under it"),
                    ),
                };
                DirectoryItem {
                    kind: "directory",
                    dir: shown(path),
                    paths,
                    direct_only,
                    first_line,
                    example: example.to_string(),
                }
            })
            .collect();
        items.sort_by(|a, b| b.paths.cmp(&a.paths).then(a.first_line.cmp(&b.first_line)));
        // Many top directories: the largest.
        items.truncate(LISTED);
        items
    }
}

/// A directory of the tree built from the paths.
#[derive(Debug, Default)]
struct Node<'a> {
    paths: u64,
    /// The first path under it, with its line.
    first: Option<(u64, &'a str)>,
    children: Vec<&'a str>,
    /// The paths right in it.
    direct: Option<&'a Directory>,
}

/// The directory `text` is in, when it is a path: no spaces or tabs, no URL, no `ls -R`
/// heading (`dir:`), a letter in it; a separator, or else a name with an extension
/// (`README.md`, in `.`).
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
    let separator = if text.contains('/') { '/' } else { '\\' };
    match text.trim_end_matches(separator).rsplit_once(separator) {
        Some(("", _)) => Some(&text[..1]),
        Some((dir, _)) => Some(dir),
        // A top directory, written with its separator (`src/`).
        None if text.contains(separator) => Some("."),
        None => text.contains('.').then_some("."),
    }
}

/// The directory `path` is in, in the tree; nothing for a top one.
fn parent(path: &str) -> Option<&str> {
    let separator = if path.contains('/') { '/' } else { '\\' };
    match path.rsplit_once(separator) {
        Some(("", _)) if path.len() > 1 => Some(&path[..1]),
        Some((dir, _)) if !dir.is_empty() => Some(dir),
        _ => None,
    }
}

/// A directory as an item shows it: ending in its separator.
fn shown(path: &str) -> String {
    match path {
        "." | "" => "./".to_string(),
        "/" | "\\" => path.to_string(),
        _ => {
            let separator = if path.contains('\\') && !path.contains('/') {
                '\\'
            } else {
                '/'
            };
            format!("{path}{separator}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list_of(lines: &[String]) -> PathList {
        let mut list = PathList::default();
        for (n, line) in lines.iter().enumerate() {
            list.push(n as u64 + 1, line);
        }
        list
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
            assert_eq!(directory_of(line), Some(dir), "{line:?}");
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
        ] {
            assert_eq!(directory_of(line), None, "{line:?}");
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
        let stats = list.stats().expect("a list of paths");
        assert_eq!(
            (stats.paths, stats.directories, stats.uncounted),
            (970, 5, 0)
        );
        let items: Vec<(String, u64, bool, u64, String)> = list
            .directories()
            .into_iter()
            .map(|d| (d.dir, d.paths, d.direct_only, d.first_line, d.example))
            .collect();
        let expected = [
            ("src/a/x/", 600, false, 11, "src/a/x/f0.rs"),
            ("src/b/", 300, false, 611, "src/b/g0.rs"),
            ("src/", 40, true, 911, "src/h0.rs"),
            ("docs/", 20, false, 951, "docs/d0.md"),
            ("./", 10, false, 1, "top0.md"),
        ];
        let expected: Vec<(String, u64, bool, u64, String)> = expected
            .iter()
            .map(|(d, n, o, l, e)| (d.to_string(), *n, *o, *l, e.to_string()))
            .collect();
        assert_eq!(items, expected);
    }

    #[test]
    fn at_most_listed_directories_are_items() {
        // 100 directories of 10 paths each under one root: the root is split into them,
        // which do not fit; so it stays one item.
        let lines: Vec<String> = (0..1_000)
            .map(|i| format!("/r/d{}/f{i}", i % 100))
            .collect();
        let items = list_of(&lines).directories();
        assert_eq!(items.len(), 1);
        assert_eq!((items[0].dir.as_str(), items[0].paths), ("/r/", 1_000));
        // 100 top directories: the largest LISTED of them.
        let lines: Vec<String> = (0..1_000).map(|i| format!("d{}/f{i}", i % 100)).collect();
        assert_eq!(list_of(&lines).directories().len(), LISTED);
    }

    #[test]
    fn a_log_is_no_list_and_stops_being_read() {
        let log: Vec<String> = (0..1_000)
            .map(|i| format!("INFO GET /api/{i} 200"))
            .collect();
        let list = list_of(&log);
        assert!(list.stats().is_none() && list.directories().is_empty());
        assert!(
            list.done && list.directories.is_empty(),
            "the map is dropped"
        );
        // Paths first, then a log: no list either.
        let mut lines: Vec<String> = (0..300).map(|i| format!("src/f{i}.rs")).collect();
        lines.extend(log);
        assert!(list_of(&lines).stats().is_none());
        // Too few paths for a map.
        let lines: Vec<String> = (0..MIN_PATHS - 1).map(|i| format!("src/f{i}.rs")).collect();
        assert!(list_of(&lines).stats().is_none());
    }

    #[test]
    fn directories_past_the_cap_are_counted_apart() {
        let lines: Vec<String> = (0..MAX_DIRECTORIES + 100)
            .map(|i| format!("d/{i}/f.rs"))
            .collect();
        let list = list_of(&lines);
        let stats = list.stats().unwrap();
        assert_eq!((stats.directories, stats.uncounted), (MAX_DIRECTORIES, 100));
        let counted: u64 = list.directories().iter().map(|d| d.paths).sum();
        assert_eq!(counted, MAX_DIRECTORIES as u64);
    }
}
