//! Reading unified diffs line by line: file headers, extended git headers, hunks.

/// What a header line of a file's diff says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Header {
    /// `diff --git a/X b/Y`: the paths as the line gives them (best effort when unquoted
    /// names hold spaces; later headers are exact), and the prefixes of its sides when
    /// they are not `a/` and `b/` ([`MNEMONIC_PREFIXES`], or others that a path the
    /// line names on both sides shows, `--src-prefix=OLD/ --dst-prefix=NEW/`'s `OLD/x.c
    /// NEW/x.c`), which the `---` and `+++` lines under it have too.
    Git(Option<String>, Option<String>, Option<Prefixes>),
    /// `diff --cc X` or `diff --combined X`: a merge's file against its parents (`git
    /// show` of a merge, `git diff` of a conflicted file), whose hunks are combined
    /// (`@@@ -1,8 -1,8 +1,16 @@@`).
    Combined(String),
    /// `--- X` (None for /dev/null).
    Old(Option<String>),
    /// `+++ Y` (None for /dev/null).
    New(Option<String>),
    /// `new file mode M`.
    NewFile(String),
    /// `deleted file mode M`.
    DeletedFile(String),
    /// `old mode M`.
    OldMode(String),
    /// `new mode M`.
    NewMode(String),
    /// `similarity index N%` (or dissimilarity).
    Similarity(u8),
    /// `rename from X`.
    RenameFrom(String),
    /// `rename to Y`.
    RenameTo(String),
    /// `copy from X`.
    CopyFrom(String),
    /// `copy to Y`.
    CopyTo(String),
    /// `index abc..def [mode]`.
    Index,
    /// `Binary files … differ` or `GIT binary patch`.
    Binary {
        /// A literal or delta patch follows (`GIT binary patch`).
        patch: bool,
        /// The two sides `Binary files X and Y differ` names, as `---` and `+++` would
        /// (`None` for `/dev/null`): a file of its own in `diff -r`'s output.
        sides: Option<(Option<String>, Option<String>)>,
    },
}

/// The prefixes of a diff's two sides: (old, new).
pub type Prefixes = (String, String);

/// The prefixes git puts before a diff's paths other than `a/` and `b/`: under
/// `diff.mnemonicPrefix`, the index's, the work tree's, a commit's and an object's, as
/// the two sides are (`git diff`: `i/` and `w/`; `git diff HEAD`: `c/` and `w/`; `git
/// diff --cached`: `c/` and `i/`), and `--no-index`'s `1/` and `2/`.
pub const MNEMONIC_PREFIXES: [(&str, &str); 5] = [
    ("i/", "w/"),
    ("c/", "w/"),
    ("c/", "i/"),
    ("o/", "w/"),
    ("1/", "2/"),
];

/// Whether `prefixes` are a user's own (`--src-prefix=OLD/`), not git's: `a/` and `b/`
/// or [`MNEMONIC_PREFIXES`].
pub fn is_users_own((old, new): &Prefixes) -> bool {
    let pair = (old.as_str(), new.as_str());
    pair != ("a/", "b/") && !MNEMONIC_PREFIXES.contains(&pair)
}

/// Reads a header line, if it is one.
pub fn header(line: &str) -> Option<Header> {
    let field = |prefix: &str| line.strip_prefix(prefix).map(str::to_string);
    if let Some(rest) = line.strip_prefix("diff --git ") {
        // (Either path may be quoted.)
        let prefixes = (MNEMONIC_PREFIXES.into_iter())
            .find(|(old, new)| {
                rest.strip_prefix('"').unwrap_or(rest).starts_with(old)
                    && (rest.contains(&format!(" {new}")) || rest.contains(&format!(" \"{new}")))
            })
            .or_else(|| custom_prefixes(rest));
        let (a, b) = git_paths(rest, prefixes.unwrap_or(("a/", "b/")));
        let prefixes = prefixes.map(|(old, new)| (old.to_string(), new.to_string()));
        return Some(Header::Git(a, b, prefixes));
    }
    if let Some(path) = line
        .strip_prefix("diff --cc ")
        .or_else(|| line.strip_prefix("diff --combined "))
    {
        return Some(Header::Combined(unquote(path)));
    }
    if let Some(rest) = line.strip_prefix("--- ") {
        return Some(Header::Old(side_path(rest)));
    }
    if let Some(rest) = line.strip_prefix("+++ ") {
        return Some(Header::New(side_path(rest)));
    }
    if let Some(mode) = field("new file mode ") {
        return Some(Header::NewFile(mode));
    }
    if let Some(mode) = field("deleted file mode ") {
        return Some(Header::DeletedFile(mode));
    }
    if let Some(mode) = field("old mode ") {
        return Some(Header::OldMode(mode));
    }
    if let Some(mode) = field("new mode ") {
        return Some(Header::NewMode(mode));
    }
    for prefix in ["similarity index ", "dissimilarity index "] {
        if let Some(rest) = line.strip_prefix(prefix) {
            return Some(Header::Similarity(
                rest.trim_end_matches('%').parse().unwrap_or(0),
            ));
        }
    }
    if let Some(path) = field("rename from ") {
        return Some(Header::RenameFrom(unquote(&path)));
    }
    if let Some(path) = field("rename to ") {
        return Some(Header::RenameTo(unquote(&path)));
    }
    if let Some(path) = field("copy from ") {
        return Some(Header::CopyFrom(unquote(&path)));
    }
    if let Some(path) = field("copy to ") {
        return Some(Header::CopyTo(unquote(&path)));
    }
    if line.starts_with("index ") {
        return Some(Header::Index);
    }
    if let Some(paths) = line
        .strip_prefix("Binary files ")
        .and_then(|rest| rest.strip_suffix(" differ"))
    {
        return Some(Header::Binary {
            patch: false,
            sides: paths
                .split_once(" and ")
                .map(|(old, new)| (side_path(old), side_path(new))),
        });
    }
    if line == "GIT binary patch" {
        return Some(Header::Binary {
            patch: true,
            sides: None,
        });
    }
    None
}

/// A hunk's header: `@@ -a,b +c,d @@ section`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HunkHeader {
    /// First old line.
    pub old_start: u64,
    /// Old lines.
    pub old_count: u64,
    /// First new line.
    pub new_start: u64,
    /// New lines.
    pub new_count: u64,
}

/// Reads a hunk header and the section text after it.
pub fn hunk_header(line: &str) -> Option<(HunkHeader, &str)> {
    let rest = line.strip_prefix("@@ -")?;
    let (ranges, section) = rest.split_once(" @@")?;
    let (old, new) = ranges.split_once(" +")?;
    let (old_start, old_count) = range(old)?;
    let (new_start, new_count) = range(new)?;
    Some((
        HunkHeader {
            old_start,
            old_count,
            new_start,
            new_count,
        },
        section,
    ))
}

/// A combined diff's hunk header, one range for each parent, then the result's:
/// `@@@ -1,8 -1,8 +1,16 @@@` (two parents: three `@`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CombinedHunkHeader {
    /// Each parent's first line and line count, in order.
    pub parents: Vec<(u64, u64)>,
    /// The result's first line.
    pub new_start: u64,
    /// The result's lines.
    pub new_count: u64,
}

/// Reads a combined diff's hunk header (two parents or more) and the section after it.
pub fn combined_hunk_header(line: &str) -> Option<(CombinedHunkHeader, &str)> {
    let ats = line.bytes().take_while(|&b| b == b'@').count();
    if ats < 3 {
        return None;
    }
    let fence = &line[..ats];
    let rest = line[ats..].strip_prefix(' ')?;
    let (ranges, section) = rest.split_once(&format!(" {fence}"))?;
    let mut words = ranges.split(' ');
    let parents = (&mut words)
        .take(ats - 1)
        .map(|word| range(word.strip_prefix('-')?))
        .collect::<Option<Vec<_>>>()?;
    let (new_start, new_count) = range(words.next()?.strip_prefix('+')?)?;
    (parents.len() == ats - 1 && words.next().is_none()).then_some((
        CombinedHunkHeader {
            parents,
            new_start,
            new_count,
        },
        section,
    ))
}

/// `a,b` or `a` (one line) of a hunk's header.
fn range(text: &str) -> Option<(u64, u64)> {
    match text.split_once(',') {
        Some((start, count)) => Some((start.parse().ok()?, count.parse().ok()?)),
        None => Some((text.parse().ok()?, 1)),
    }
}

impl HunkHeader {
    /// The header line for these ranges and `section`.
    pub fn line(&self, section: &str) -> String {
        let range = |start: u64, count: u64| {
            if count == 1 {
                start.to_string()
            } else {
                format!("{start},{count}")
            }
        };
        format!(
            "@@ -{} +{} @@{section}",
            range(self.old_start, self.old_count),
            range(self.new_start, self.new_count)
        )
    }
}

/// The path on a `---`/`+++` line: unquoted, without `a/`/`b/`, without the tab and
/// timestamp `diff -u` (and git, for names with spaces) may add; `None` for /dev/null.
fn side_path(rest: &str) -> Option<String> {
    let path = if rest.starts_with('"') {
        unquote(rest)
    } else {
        rest.split('\t').next().unwrap_or(rest).to_string()
    };
    let absent = rest
        .rsplit_once('\t')
        .is_some_and(|(_, stamp)| is_epoch(stamp));
    (path != "/dev/null" && !absent).then(|| strip_prefix(&path))
}

/// Whether a side's time, as `diff -u` writes it (`1970-01-01 00:00:00.000000000
/// +0000`), is the Unix epoch: GNU diff's `-N` (`diff -ruN`) dates a file that is absent
/// on that side so, in the local zone (`1969-12-31 19:00:00.000000000 -0500`).
fn is_epoch(stamp: &str) -> bool {
    let mut parts = stamp.split(' ');
    let (Some(date), Some(time), Some(zone), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    let day: i64 = match date {
        "1970-01-01" => 0,
        "1969-12-31" => -1,
        _ => return false,
    };
    let (clock, fraction) = time.split_once('.').unwrap_or((time, "0"));
    let clock: Vec<i64> = clock.split(':').filter_map(|n| n.parse().ok()).collect();
    let zone_ok = zone.len() == 5 && zone.starts_with(['+', '-']);
    let (Ok(hours), Ok(minutes)) = (
        zone.get(1..3).unwrap_or("").parse::<i64>(),
        zone.get(3..5).unwrap_or("").parse::<i64>(),
    ) else {
        return false;
    };
    let offset = (hours * 3600 + minutes * 60) * if zone.starts_with('-') { -1 } else { 1 };
    zone_ok
        && clock.len() == 3
        && fraction.bytes().all(|b| b == b'0')
        && day * 86_400 + clock[0] * 3600 + clock[1] * 60 + clock[2] - offset == 0
}

/// The prefixes of a `diff --git` line's sides other than git's own, as a path the line
/// names on both sides shows them: `OLD/src/x.c NEW/src/x.c` (`--src-prefix=OLD/
/// --dst-prefix=NEW/`), alike but for their first directory. (So is `--no-prefix`'s
/// rename to another directory, `src/x.c lib/x.c`: its `rename from` line says so.)
fn custom_prefixes(rest: &str) -> Option<(&str, &str)> {
    if rest.starts_with("a/") || rest.starts_with('"') {
        return None;
    }
    rest.match_indices(' ').find_map(|(at, _)| {
        let (old, new) = (&rest[..at], &rest[at + 1..]);
        let (old_prefix, old_path) = old.split_at(old.find('/')? + 1);
        let (new_prefix, new_path) = new.split_at(new.find('/')? + 1);
        (old_path == new_path && old_prefix != new_prefix).then_some((old_prefix, new_prefix))
    })
}

/// The two paths of a `diff --git` line whose sides' prefixes are `(old, new)`.
fn git_paths(rest: &str, (old, new): (&str, &str)) -> (Option<String>, Option<String>) {
    let strip = |path: &str, prefix: &str| path.strip_prefix(prefix).unwrap_or(path).to_string();
    if rest.starts_with('"') {
        let (a, after) = quoted(rest);
        let b = after.trim_start();
        let b = if b.starts_with('"') {
            quoted(b).0
        } else {
            b.to_string()
        };
        return (Some(strip(&a, old)), Some(strip(&b, new)));
    }
    // Unquoted: "a/X b/Y". When both sides are the same path the split is exact.
    if rest.len() % 2 == 1 {
        let half = rest.len() / 2;
        if rest.is_char_boundary(half) && rest.as_bytes()[half] == b' ' {
            let (a, b) = (&rest[..half], &rest[half + 1..]);
            if a.get(2..) == b.get(2..) {
                return (Some(strip(a, old)), Some(strip(b, new)));
            }
        }
    }
    match rest.find(&format!(" {new}")) {
        Some(at) => (
            Some(strip(&rest[..at], old)),
            Some(strip(&rest[at + 1..], new)),
        ),
        None => (None, None),
    }
}

fn strip_prefix(path: &str) -> String {
    path.strip_prefix("a/")
        .or_else(|| path.strip_prefix("b/"))
        .unwrap_or(path)
        .to_string()
}

/// A path as git writes it: C-quoted (`"a/\303\274 \"x\".txt"`) when it holds special
/// bytes, else as is. Bytes that are not UTF-8 are replaced.
pub fn unquote(text: &str) -> String {
    if text.starts_with('"') {
        quoted(text).0
    } else {
        text.to_string()
    }
}

/// The C-quoted string at the start of `text` and what follows it.
fn quoted(text: &str) -> (String, &str) {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 1;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => return (String::from_utf8_lossy(&out).into_owned(), &text[i + 1..]),
            b'\\' if i + 1 < bytes.len() => {
                i += 1;
                match bytes[i] {
                    b'n' => out.push(b'\n'),
                    b't' => out.push(b'\t'),
                    b'r' => out.push(b'\r'),
                    b'a' => out.push(7),
                    b'b' => out.push(8),
                    b'f' => out.push(12),
                    b'v' => out.push(11),
                    d @ b'0'..=b'7' => {
                        let mut value = u32::from(d - b'0');
                        for _ in 0..2 {
                            if i + 1 < bytes.len() && (b'0'..=b'7').contains(&bytes[i + 1]) {
                                i += 1;
                                value = value * 8 + u32::from(bytes[i] - b'0');
                            }
                        }
                        out.push(value as u8);
                    }
                    other => out.push(other),
                }
            }
            other => out.push(other),
        }
        i += 1;
    }
    (String::from_utf8_lossy(&out).into_owned(), "")
}

/// A line of git's `--stat`: ` src/a.rs | 10 +++++-----`, ` logo.png | Bin 0 -> 1234
/// bytes`: the path as written (perhaps shortened, `.../deep/a.rs`, or a rename's `{a =>
/// b}`) and what follows the bar, as written.
pub fn stat_line(line: &str) -> Option<(&str, &str)> {
    let rest = line.strip_prefix(' ')?;
    if rest.starts_with(' ') {
        return None;
    }
    let (path, stat) = rest.rsplit_once(" | ")?;
    let (path, stat) = (path.trim_end(), stat.trim());
    let counted = || {
        let (count, bar) = stat.split_once(' ').unwrap_or((stat, ""));
        !count.is_empty()
            && count.bytes().all(|b| b.is_ascii_digit())
            && bar.bytes().all(|b| b == b'+' || b == b'-')
    };
    (!path.is_empty() && (stat.starts_with("Bin") || counted())).then_some((path, stat))
}

/// A line of git's `--summary` (under a diffstat, as `git format-patch` writes it): `
/// create mode 100644 a.txt`, ` delete mode …`, ` mode change 100644 => 100755 run.sh`,
/// ` rename src/{a => b}.rs (92%)`, ` copy a => b (80%)`, ` rewrite a.c (65%)`.
pub fn summary_line(line: &str) -> bool {
    let Some(rest) = line.strip_prefix(' ').filter(|r| !r.starts_with(' ')) else {
        return false;
    };
    let mode = |rest: &str| {
        rest.split_once(' ').is_some_and(|(mode, path)| {
            mode.len() == 6 && mode.bytes().all(|b| b.is_ascii_digit()) && !path.is_empty()
        })
    };
    let similarity = |rest: &str| {
        rest.strip_suffix("%)")
            .and_then(|r| r.rsplit_once(" ("))
            .is_some_and(|(what, percent)| !what.is_empty() && percent.parse::<u8>().is_ok())
    };
    if let Some(rest) = rest
        .strip_prefix("create mode ")
        .or(rest.strip_prefix("delete mode "))
    {
        return mode(rest);
    }
    if let Some(rest) = rest.strip_prefix("mode change ") {
        return rest
            .split_once(" => ")
            .is_some_and(|(old, new)| old.len() == 6 && mode(new));
    }
    ["rename ", "copy ", "rewrite "].iter().any(|word| {
        rest.strip_prefix(word)
            .is_some_and(|rest| similarity(rest) && (*word == "rewrite " || rest.contains(" => ")))
    })
}

/// git's `--stat` and `--shortstat` total: ` 3 files changed, 10 insertions(+), 2
/// deletions(-)` as (files, insertions, deletions).
pub fn stat_totals(line: &str) -> Option<(u64, u64, u64)> {
    let mut parts = line.strip_prefix(' ')?.split(", ");
    let number = |part: &str, words: [&str; 2]| -> Option<u64> {
        let (n, word) = part.split_once(' ')?;
        words.contains(&word).then(|| n.parse().ok()).flatten()
    };
    let files = number(parts.next()?, ["file changed", "files changed"])?;
    let (mut added, mut removed) = (0, 0);
    for part in parts {
        if let Some(n) = number(part, ["insertion(+)", "insertions(+)"]) {
            added = n;
        } else {
            removed = number(part, ["deletion(-)", "deletions(-)"])?;
        }
    }
    Some((files, added, removed))
}

/// A line of git's `--numstat`: `10\t2\tsrc/a.rs` as the lines added and removed (none
/// for a binary file's `-\t-`) and the path.
pub fn numstat_line(line: &str) -> Option<(Option<(u64, u64)>, &str)> {
    let mut fields = line.splitn(3, '\t');
    let (added, removed, path) = (fields.next()?, fields.next()?, fields.next()?);
    if path.is_empty() {
        return None;
    }
    match (added.parse(), removed.parse()) {
        (Ok(added), Ok(removed)) => Some((Some((added, removed)), path)),
        _ if added == "-" && removed == "-" => Some((None, path)),
        _ => None,
    }
}

/// A line of git's `--name-status`: `M\tsrc/a.rs`, `A\tnew.rs`, a rename or copy with
/// its score and both paths, `R096\told.rs\tnew.rs`; the status as git wrote it, the
/// path (the new one), and the old path of a rename or copy.
pub fn name_status_line(line: &str) -> Option<(&str, &str, Option<&str>)> {
    let (status, rest) = line.split_once('\t')?;
    let (letter, score) = status.split_at(status.len().min(1));
    let known = matches!(letter, "A" | "M" | "D" | "R" | "C" | "T" | "U" | "X");
    if !known || !score.bytes().all(|b| b.is_ascii_digit()) || rest.is_empty() {
        return None;
    }
    match rest.split_once('\t') {
        Some((from, to)) if matches!(letter, "R" | "C") && !to.contains('\t') => {
            Some((status, to, Some(from)))
        }
        None if score.is_empty() => Some((status, rest, None)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_status_lines() {
        assert_eq!(
            name_status_line("M\tsrc/a.rs"),
            Some(("M", "src/a.rs", None))
        );
        assert_eq!(
            name_status_line("R096\told.rs\tnew.rs"),
            Some(("R096", "new.rs", Some("old.rs")))
        );
        for not in [
            "M src/a.rs",
            "Q\tx",
            "M\t",
            "M1\tx",
            "M\ta\tb",
            "10\t2\tsrc/a.rs",
        ] {
            assert_eq!(name_status_line(not), None, "{not:?}");
        }
    }

    #[test]
    fn git_lines() {
        assert_eq!(
            header("diff --git a/src/x.rs b/src/x.rs"),
            Some(Header::Git(
                Some("src/x.rs".into()),
                Some("src/x.rs".into()),
                None
            ))
        );
        assert_eq!(
            header("diff --git a/sp ace.txt b/sp ace.txt"),
            Some(Header::Git(
                Some("sp ace.txt".into()),
                Some("sp ace.txt".into()),
                None
            ))
        );
        assert_eq!(
            header(r#"diff --git "a/\303\274.txt" "b/\303\274.txt""#),
            Some(Header::Git(
                Some("ü.txt".into()),
                Some("ü.txt".into()),
                None
            ))
        );
        assert_eq!(
            header("diff --git a/old.txt b/new.txt"),
            Some(Header::Git(
                Some("old.txt".into()),
                Some("new.txt".into()),
                None
            ))
        );
        // diff.mnemonicPrefix's sides: the index and the work tree, a commit and the
        // index.
        assert_eq!(
            header("diff --git i/src/x.rs w/src/x.rs"),
            Some(Header::Git(
                Some("src/x.rs".into()),
                Some("src/x.rs".into()),
                Some(("i/".into(), "w/".into()))
            ))
        );
        // Others (`--src-prefix=OLD/ --dst-prefix=NEW/`), as a path named on both sides
        // shows them; not `--no-prefix`'s.
        assert_eq!(
            header("diff --git OLD/src/x.rs NEW/src/x.rs"),
            Some(Header::Git(
                Some("src/x.rs".into()),
                Some("src/x.rs".into()),
                Some(("OLD/".into(), "NEW/".into()))
            ))
        );
        assert_eq!(
            header("diff --git src/x.rs src/x.rs"),
            Some(Header::Git(
                Some("src/x.rs".into()),
                Some("src/x.rs".into()),
                None
            ))
        );
        assert_eq!(
            header("diff --git c/old.txt i/new.txt"),
            Some(Header::Git(
                Some("old.txt".into()),
                Some("new.txt".into()),
                Some(("c/".into(), "i/".into()))
            ))
        );
        assert_eq!(
            header("--- a/sp ace.txt\t"),
            Some(Header::Old(Some("sp ace.txt".into())))
        );
        assert_eq!(header("+++ /dev/null"), Some(Header::New(None)));
        assert_eq!(
            header("--- a/f\t2024-01-01 10:00:00.000 +0000"),
            Some(Header::Old(Some("f".into())))
        );
        // `diff -N`'s absent side, dated at the epoch in any zone.
        for absent in [
            "--- dirA/db/new\t1970-01-01 00:00:00.000000000 +0000",
            "--- dirA/db/new\t1969-12-31 19:00:00.000000000 -0500",
            "--- dirA/db/new\t1970-01-01 05:30:00 +0530",
        ] {
            assert_eq!(header(absent), Some(Header::Old(None)), "{absent}");
        }
        for present in [
            "--- a/f\t1970-01-01 00:00:01.000000000 +0000",
            "--- a/f\t1970-01-01 00:00:00.000000001 +0000",
            "--- a/f\t1969-12-31 19:00:00.000000000 +0000",
        ] {
            assert_eq!(
                header(present),
                Some(Header::Old(Some("f".into()))),
                "{present}"
            );
        }
        assert_eq!(header("similarity index 96%"), Some(Header::Similarity(96)));
        assert_eq!(
            header(r#"rename from "q\"uote.txt""#),
            Some(Header::RenameFrom("q\"uote.txt".into()))
        );
        assert_eq!(
            header("Binary files a/x and b/x differ"),
            Some(Header::Binary {
                patch: false,
                sides: Some((Some("x".into()), Some("x".into())))
            })
        );
        assert_eq!(
            header("Binary files /dev/null and b/y.png differ"),
            Some(Header::Binary {
                patch: false,
                sides: Some((None, Some("y.png".into())))
            })
        );
        assert_eq!(header(" context line"), None);
    }

    #[test]
    fn hunk_headers_round_trip() {
        let (h, section) = hunk_header("@@ -10,7 +10,8 @@ fn main() {").unwrap();
        assert_eq!(
            h,
            HunkHeader {
                old_start: 10,
                old_count: 7,
                new_start: 10,
                new_count: 8
            }
        );
        assert_eq!(h.line(section), "@@ -10,7 +10,8 @@ fn main() {");
        let (h, _) = hunk_header("@@ -1 +0,0 @@").unwrap();
        assert_eq!((h.old_count, h.new_count), (1, 0));
        assert_eq!(h.line(""), "@@ -1 +0,0 @@");
        assert!(hunk_header("@@ nonsense").is_none());
        assert!(hunk_header("@@@ -1,8 -1,8 +1,16 @@@").is_none());
        let (h, section) = combined_hunk_header("@@@ -1,8 -1,7 +1,16 @@@ fn x").unwrap();
        assert_eq!(h.parents, [(1, 8), (1, 7)]);
        assert_eq!((h.new_start, h.new_count), (1, 16));
        assert_eq!(section, " fn x");
        let (h, _) = combined_hunk_header("@@@@ -3 -3,2 -4,0 +3,5 @@@@").unwrap();
        assert_eq!(h.parents, [(3, 1), (3, 2), (4, 0)]);
        for bad in [
            "@@ -1 +1 @@",
            "@@@ -1,8 +1,16 @@@",
            "@@@ -1,8 -1,8 -1,8 +1,16 @@@",
            "@@@ -1,8 -1,8 +1,16 @@",
            "@@@ -x -1 +1 @@@",
        ] {
            assert!(combined_hunk_header(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn summary_lines() {
        for line in [
            " create mode 100644 f1.txt",
            " delete mode 100755 bin/run",
            " mode change 100644 => 100755 run.sh",
            " rename src/{a => b}.rs (92%)",
            " rename a.txt => b.txt (100%)",
            " copy a => b (80%)",
            " rewrite a.c (65%)",
        ] {
            assert!(summary_line(line), "{line}");
        }
        for line in [
            "create mode 100644 f1.txt",
            " create mode 644 f1.txt",
            " rename a.txt (100%)",
            " f1.txt | 1 +",
            " a message line that says rename (50%)",
        ] {
            assert!(!summary_line(line), "{line}");
        }
    }

    #[test]
    fn stat_lines_and_totals() {
        assert_eq!(
            stat_line(" src/a.rs          | 10 +++++-----"),
            Some(("src/a.rs", "10 +++++-----"))
        );
        assert_eq!(
            stat_line(" logo.png | Bin 0 -> 1234 bytes"),
            Some(("logo.png", "Bin 0 -> 1234 bytes"))
        );
        assert_eq!(
            stat_line(" {old => new}/x.rs | 0"),
            Some(("{old => new}/x.rs", "0"))
        );
        for not in ["    a | 3 ++", "a | 3 ++", " a | x", " a | 3 +x", " | 3"] {
            assert_eq!(stat_line(not), None, "{not:?}");
        }
        assert_eq!(
            stat_totals(" 40 files changed, 310 insertions(+), 305 deletions(-)"),
            Some((40, 310, 305))
        );
        assert_eq!(
            stat_totals(" 1 file changed, 1 insertion(+)"),
            Some((1, 1, 0))
        );
        assert_eq!(
            stat_totals(" 1 file changed, 2 deletions(-)"),
            Some((1, 0, 2))
        );
        assert_eq!(stat_totals(" 2 files changed, 2 lemmings(-)"), None);
        assert_eq!(
            numstat_line("10\t2\tsrc/a.rs"),
            Some((Some((10, 2)), "src/a.rs"))
        );
        assert_eq!(numstat_line("-\t-\tlogo.png"), Some((None, "logo.png")));
        assert_eq!(numstat_line("a\tb\tc"), None);
    }

    #[test]
    fn non_utf8_names_are_replaced() {
        assert_eq!(unquote(r#""a\377b""#), "a\u{fffd}b");
    }
}
