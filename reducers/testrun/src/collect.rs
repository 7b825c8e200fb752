//! What `pytest --collect-only` lists, in each of its forms: node ids one per line
//! (`-q`), the tree of collectors (`<Module test_a.py>`, `  <Function test_x>`, with
//! docstrings under them from `-v` on), and the tests per file (`-qq`:
//! `tests/test_a.py: 4`).
//!
//! A run prints lines of the same shapes (`-v` prints a bare node id before a test's
//! outcome; with `-s`, a test prints what it likes): only the session's counts line
//! tells a listing from a run, so what may be a listing is held, up to a bound, until
//! then ([`Collection::confirm`], [`Collection::discard`]). `-qq` prints no counts line:
//! its files are a listing when nothing else came before them
//! ([`Collection::confirm_files`]).

/// Tests (or files, under `-qq`) held; past it, counted only.
pub const MAX_COLLECTED: usize = 10_000;

/// One entry of a listing: a test's node id, or (under `-qq`) a file and its tests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Collected {
    /// The node id (`tests/test_a.py::TestX::test_y[1]`), or the file under `-qq`.
    pub nodeid: String,
    /// Under `-qq`: how many tests the file holds.
    pub tests: Option<u64>,
}

/// The listings read, and what the session read now may list.
#[derive(Debug, Default)]
pub struct Collection {
    /// The last directory of the `rootdir:` header: pytest 7's root collector, when it
    /// is a package, which node ids are relative to.
    root: Option<String>,
    /// Entries of sessions whose counts line said they were listings.
    listed: Vec<Collected>,
    /// Entries of the session read now, which may be one.
    pending: Vec<Collected>,
    /// Entries past [`MAX_COLLECTED`], listed and pending.
    listed_left_out: u64,
    pending_left_out: u64,
    /// The session read now printed a line that is none of a listing's (a header, a
    /// progress line, what a test printed): its `file: N` lines are no `-qq` listing.
    other_lines: bool,
    /// The tree's collectors above the node read last: (indent, name, whether a
    /// directory's).
    parents: Vec<(usize, String, bool)>,
    /// The tree's node read last, a test if the next is not deeper: (indent, name,
    /// whether a directory's).
    last: Option<(usize, String, bool)>,
}

impl Collection {
    /// Reads `line` of the output's top (before any report). Returns whether it was
    /// read as part of a listing (a tree's node or docstring, a `-qq` file); a bare node
    /// id is the caller's to tell ([`Collection::nodeid`]).
    pub fn line(&mut self, line: &str) -> bool {
        if let Some((indent, kind, name)) = tree_node(line) {
            self.node(indent, kind, name);
            return true;
        }
        // A docstring (`--collect-only -v`) is indented under its node.
        if let Some((indent, _, _)) = &self.last {
            if line.trim().is_empty() || line.len() - line.trim_start().len() > *indent {
                return true;
            }
        }
        self.end_tree();
        if let Some(dir) = line.strip_prefix("rootdir: ") {
            // pytest 7 put the config file on the line too.
            let dir = dir.split(", configfile: ").next().unwrap_or(dir);
            let dir = dir.trim_end_matches(['/', '\\']);
            self.root = dir.rsplit(['/', '\\']).next().map(str::to_string);
        }
        if let Some((file, tests)) = file_tests(line) {
            self.push(file.to_string(), Some(tests));
            return true;
        }
        if !line.trim().is_empty() {
            self.other_lines = true;
        }
        false
    }

    /// A bare node id (`tests/test_a.py::test_x[1]`, `README.txt::README.txt`).
    pub fn nodeid(&mut self, nodeid: &str) {
        self.end_tree();
        self.push(nodeid.to_string(), None);
    }

    /// The session's counts line says it was a listing: what it printed is listed.
    pub fn confirm(&mut self) {
        self.end_tree();
        self.listed.append(&mut self.pending);
        self.listed_left_out += std::mem::take(&mut self.pending_left_out);
        self.other_lines = false;
    }

    /// The session's counts line says it ran tests: nothing it printed is listed.
    pub fn discard(&mut self) {
        self.end_tree();
        self.pending.clear();
        self.pending_left_out = 0;
        self.other_lines = false;
    }

    /// The output ended without a counts line: `-qq`'s files, when nothing else came
    /// before them in the session, are its listing; whether they were.
    pub fn confirm_files(&mut self) -> bool {
        self.end_tree();
        let files = !self.other_lines
            && !self.pending.is_empty()
            && self.pending.iter().all(|e| e.tests.is_some());
        match files {
            true => self.confirm(),
            false => self.discard(),
        }
        files
    }

    /// The entries listed, and how many more were left out past [`MAX_COLLECTED`].
    pub fn finish(self) -> (Vec<Collected>, u64) {
        (self.listed, self.listed_left_out)
    }

    fn push(&mut self, nodeid: String, tests: Option<u64>) {
        if self.listed.len() + self.pending.len() < MAX_COLLECTED {
            self.pending.push(Collected { nodeid, tests });
        } else {
            self.pending_left_out += 1;
        }
    }

    /// A node of the tree: the one before it was a test unless this one is deeper.
    fn node(&mut self, indent: usize, kind: &str, name: &str) {
        if let Some(last) = self.last.take() {
            if indent > last.0 {
                self.parents.push(last);
            } else {
                self.leaf(last);
            }
        }
        while self.parents.last().is_some_and(|p| p.0 >= indent) {
            self.parents.pop();
        }
        let directory = matches!(kind, "Dir" | "Package");
        // The root collector is the rootdir (pytest 8's `Dir`, or the `Package` it is),
        // which node ids start below.
        let root = indent == 0
            && (kind == "Dir" || (kind == "Package" && self.root.as_deref() == Some(name)));
        let name = if root { "" } else { name };
        self.last = Some((indent, name.to_string(), directory));
    }

    fn end_tree(&mut self) {
        if let Some(last) = self.last.take() {
            self.leaf(last);
        }
        self.parents.clear();
    }

    /// A test: its node id joins its directories and file by `/`, the rest by `::`.
    fn leaf(&mut self, leaf: (usize, String, bool)) {
        let mut nodeid = String::new();
        let mut in_file = false;
        for (_, name, directory) in self.parents.iter().chain(std::iter::once(&leaf)) {
            if name.is_empty() {
                continue;
            }
            if !nodeid.is_empty() {
                nodeid.push_str(if in_file { "::" } else { "/" });
            }
            nodeid.push_str(name);
            in_file |= !directory;
        }
        self.push(nodeid, None);
    }
}

/// `    <Function test_x[a b]>` → (4, `Function`, `test_x[a b]`).
fn tree_node(line: &str) -> Option<(usize, &str, &str)> {
    let inner = line.trim_start_matches(' ');
    let (kind, name) = inner
        .strip_prefix('<')?
        .strip_suffix('>')?
        .split_once(' ')?;
    let known = !kind.is_empty() && kind.bytes().all(|b| b.is_ascii_alphanumeric());
    known.then_some((line.len() - inner.len(), kind, name))
}

/// `-qq`'s `tests/test_a.py: 4` → the file (the path may hold spaces) and its tests.
fn file_tests(line: &str) -> Option<(&str, u64)> {
    let (file, tests) = line.rsplit_once(": ")?;
    is_file_path(file).then_some(())?;
    Some((file, tests.parse().ok()?))
}

/// Whether `line` may be a node id `--collect-only -q` lists: a file's path before the
/// first `::`, without a `:`, `[` or run of spaces (as a log line's
/// `WARNING  app:a.py:2 bound [::1]` has).
pub fn is_listed_nodeid(line: &str) -> bool {
    let Some((path, _)) = line.split_once("::") else {
        return false;
    };
    is_file_path(path) && !path.contains([':', '[']) && !path.contains("  ")
}

/// Whether `path` may be a file's path as pytest names it: not indented, its last part
/// with an extension.
pub fn is_file_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    !path.starts_with(char::is_whitespace) && name.contains('.')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed(lines: &str) -> Vec<String> {
        let mut collection = Collection::default();
        for line in lines.lines() {
            collection.line(line);
        }
        collection.confirm();
        let (entries, _) = collection.finish();
        entries.into_iter().map(|e| e.nodeid).collect()
    }

    #[test]
    fn the_tree_gives_node_ids_below_the_rootdir() {
        // pytest 8.4's `--collect-only -v`: docstrings under their nodes.
        let tree = "rootdir: /tmp/pyc
<Dir pyc>
  <Package tests>
    <Dir sub>
      <Module test_b.py>
        Module doc.

        Second paragraph.
        <Function test_b>
    <Module test_a.py>
      <Class TestX>
        <Function test_one>
          Checks one.
        <Class TestInner>
          <Function test_deep>
      <Function test_p[a b]>
      <Function test_p[a>b]>
";
        assert_eq!(
            listed(tree),
            [
                "tests/sub/test_b.py::test_b",
                "tests/test_a.py::TestX::test_one",
                "tests/test_a.py::TestX::TestInner::test_deep",
                "tests/test_a.py::test_p[a b]",
                "tests/test_a.py::test_p[a>b]",
            ]
        );
        // pytest 7's: no root collector but a package the rootdir is, the module named
        // by its path.
        let tree = "rootdir: /src/app, configfile: pytest.ini
<Package app>
  <Module test_c.py>
    <Function test_c>
<Module tests/test_a.py>
  <Function test_x>
<DoctestTextfile README.txt>
  <DoctestItem README.txt>
";
        assert_eq!(
            listed(tree),
            [
                "test_c.py::test_c",
                "tests/test_a.py::test_x",
                "README.txt::README.txt"
            ]
        );
    }

    #[test]
    fn listed_node_ids_are_told_from_other_lines_holding_two_colons() {
        for (line, listed) in [
            ("docs/guide.txt::guide.txt", true),
            ("my tests/test_s.py::test_x[a b]", true),
            (" tests/a.py::x", false),
            ("app:a.py::x", false),
            ("log [a.py::x", false),
            ("two  spaces/a.py::x", false),
            ("connecting to ::1", false),
        ] {
            assert_eq!(is_listed_nodeid(line), listed, "{line}");
        }
    }

    #[test]
    fn only_a_sessions_counts_line_makes_what_it_printed_a_listing() {
        let mut collection = Collection::default();
        collection.nodeid("t.py::test_ran");
        collection.discard();
        collection.nodeid("t.py::test_listed");
        collection.confirm();
        let (entries, _) = collection.finish();
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].nodeid, "t.py::test_listed");
    }

    #[test]
    fn files_are_a_listing_only_alone() {
        let mut collection = Collection::default();
        assert!(collection.line("tests/test_a.py: 4"));
        assert!(collection.confirm_files());
        let (entries, _) = collection.finish();
        let file = Collected {
            nodeid: "tests/test_a.py".into(),
            tests: Some(4),
        };
        assert_eq!(entries, [file]);
        // What a test printed (`pytest -s`), shaped alike, after the header.
        let mut collection = Collection::default();
        assert!(!collection.line("platform linux -- Python 3.11.7, pytest-8.4.2"));
        assert!(collection.line("db.pool_size: 5"));
        assert!(!collection.confirm_files());
        assert!(collection.finish().0.is_empty());
    }

    #[test]
    fn entries_past_the_bound_are_counted() {
        let mut collection = Collection::default();
        for i in 0..MAX_COLLECTED + 2 {
            collection.nodeid(&format!("t.py::test_{i}"));
        }
        collection.confirm();
        collection.nodeid("t.py::test_more");
        collection.confirm();
        let (entries, left_out) = collection.finish();
        assert_eq!(entries.len(), MAX_COLLECTED);
        assert_eq!(left_out, 3);
    }
}
