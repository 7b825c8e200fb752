//! What `pytest --collect-only` lists, in each of its forms: node ids one per line
//! (`-q`), the tree of collectors (`<Module test_a.py>`, `  <Function test_x>`), and the
//! tests per file (`-qq`: `tests/test_a.py: 4`).
//!
//! A bare node id on a line of its own is also what `-v` prints before a test's outcome
//! (with `-s`, the test's output follows it): only the final counts line tells a listing
//! from a run, so what was listed is held, up to a bound, until then.

/// Tests (or files, under `-qq`) held until the counts line; past it, counted only.
pub const MAX_COLLECTED: usize = 10_000;

/// One entry of a listing: a test's node id, or (under `-qq`) a file and its tests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Collected {
    /// The node id (`tests/test_a.py::TestX::test_y[1]`), or the file under `-qq`.
    pub nodeid: String,
    /// Under `-qq`: how many tests the file holds.
    pub tests: Option<u64>,
}

/// A listing read so far.
#[derive(Debug, Default)]
pub struct Collection {
    /// The last directory of the `rootdir:` header: the tree's root collector, which
    /// node ids are relative to.
    root: Option<String>,
    entries: Vec<Collected>,
    /// Entries past [`MAX_COLLECTED`].
    left_out: u64,
    /// The tree's collectors above the node read last: (indent, name, whether a
    /// directory's).
    parents: Vec<(usize, String, bool)>,
    /// The tree's node read last, a test if the next is not deeper: (indent, name,
    /// whether a directory's).
    last: Option<(usize, String, bool)>,
}

impl Collection {
    /// Reads `line` of the output's top (before any report); false when it is none of a
    /// listing's. A bare node id is kept and still false (it may be `-v`'s progress).
    pub fn line(&mut self, line: &str) -> bool {
        if let Some(rest) = line.strip_prefix("rootdir: ") {
            let dir = rest
                .split(", ")
                .next()
                .unwrap_or(rest)
                .trim_end_matches('/');
            self.root = dir.rsplit('/').next().map(str::to_string);
            return false;
        }
        if let Some((indent, kind, name)) = tree_node(line) {
            self.node(indent, kind, name);
            return true;
        }
        self.end_tree();
        if let Some((file, tests)) = file_tests(line) {
            self.push(file.to_string(), Some(tests));
            return true;
        }
        false
    }

    /// A bare node id (`tests/test_a.py::test_x[1]`).
    pub fn nodeid(&mut self, nodeid: &str) {
        self.end_tree();
        self.push(nodeid.to_string(), None);
    }

    /// The entries read, and how many more were left out past [`MAX_COLLECTED`].
    pub fn finish(mut self) -> (Vec<Collected>, u64) {
        self.end_tree();
        (self.entries, self.left_out)
    }

    fn push(&mut self, nodeid: String, tests: Option<u64>) {
        if self.entries.len() < MAX_COLLECTED {
            self.entries.push(Collected { nodeid, tests });
        } else {
            self.left_out += 1;
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
        // The root collector is the rootdir, which node ids start below.
        let root = indent == 0 && directory && self.root.as_deref() == Some(name);
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

/// `-qq`'s `tests/test_a.py: 4` → the file and its tests.
fn file_tests(line: &str) -> Option<(&str, u64)> {
    let (file, tests) = line.rsplit_once(": ")?;
    let plain = !file.is_empty() && !file.contains(char::is_whitespace) && file.contains('.');
    plain.then_some(())?;
    Some((file, tests.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed(lines: &str) -> Vec<String> {
        let mut collection = Collection::default();
        for line in lines.lines() {
            collection.line(line);
        }
        let (entries, _) = collection.finish();
        entries.into_iter().map(|e| e.nodeid).collect()
    }

    #[test]
    fn the_tree_gives_node_ids_below_the_rootdir() {
        // pytest 8.4's `--collect-only`.
        let tree = "rootdir: /tmp/pyc
<Dir pyc>
  <Package tests>
    <Dir sub>
      <Module test_b.py>
        <Function test_b>
    <Module test_a.py>
      <Class TestX>
        <Function test_one>
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
        // pytest 7's: no root collector, the module named by its path.
        let tree = "rootdir: /src, configfile: pytest.ini
<Module tests/test_a.py>
  <Function test_x>
<DoctestTextfile README.txt>
  <DoctestItem README.txt>
";
        assert_eq!(
            listed(tree),
            ["tests/test_a.py::test_x", "README.txt::README.txt"]
        );
    }

    #[test]
    fn files_with_their_tests_and_the_bound() {
        let mut collection = Collection::default();
        assert!(collection.line("tests/test_a.py: 4"));
        assert!(!collection.line("collected 4 items"));
        for i in 0..MAX_COLLECTED + 2 {
            collection.nodeid(&format!("t.py::test_{i}"));
        }
        let (entries, left_out) = collection.finish();
        assert_eq!(entries.len(), MAX_COLLECTED);
        assert_eq!(
            entries[0],
            Collected {
                nodeid: "tests/test_a.py".into(),
                tests: Some(4)
            }
        );
        assert_eq!(left_out, 3);
    }
}
