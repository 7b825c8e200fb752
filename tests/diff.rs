//! `briefly diff` on diffs made by real git in repositories made at test time.

mod common;

use common::Briefly;
use serde_json::{json, Value};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::Command;

const CAP: usize = 19_660;

/// A git repository in a temporary directory.
struct Repo {
    dir: tempfile::TempDir,
}

impl Repo {
    fn new() -> Repo {
        let repo = Repo {
            dir: tempfile::tempdir().unwrap(),
        };
        repo.git(&["init", "-q"]);
        repo.git(&["config", "user.email", "t@example.invalid"]);
        repo.git(&["config", "user.name", "test"]);
        repo.git(&["config", "core.autocrlf", "false"]);
        repo
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn write(&self, name: &str, content: impl AsRef<[u8]>) {
        let path = self.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }

    fn git(&self, args: &[&str]) -> Vec<u8> {
        let out = Command::new("git")
            .args(args)
            .current_dir(self.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    }

    fn commit_all(&self) {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "-m", "change"]);
    }

    /// `git apply --check` of `patch` against the tree at HEAD~1 (before the change).
    fn applies_to_parent(&self, patch: &str) -> Result<(), String> {
        let check = tempfile::tempdir().unwrap();
        let worktree = check.path().join("old");
        self.git(&[
            "worktree",
            "add",
            "-q",
            "--detach",
            worktree.to_str().unwrap(),
            "HEAD~1",
        ]);
        let patch_file = check.path().join("p.patch");
        std::fs::write(&patch_file, patch).unwrap();
        let out = Command::new("git")
            .args(["apply", "--check", patch_file.to_str().unwrap()])
            .current_dir(&worktree)
            .output()
            .unwrap();
        self.git(&["worktree", "remove", "--force", worktree.to_str().unwrap()]);
        if out.status.success() {
            Ok(())
        } else {
            Err(String::from_utf8_lossy(&out.stderr).into_owned())
        }
    }
}

fn diff_of(b: &Briefly, diff: &[u8], args: &[&str]) -> Value {
    let mut all = vec!["diff"];
    all.extend_from_slice(args);
    b.envelope(&all, diff, CAP)
}

fn items(envelope: &Value) -> &Vec<Value> {
    envelope["items"].as_array().unwrap()
}

#[test]
fn a_patch_cut_to_fit_says_where_its_hunks_are_whole() {
    let b = Briefly::new();
    let mut diff = String::from("diff --git a/f.py b/f.py\n--- a/f.py\n+++ b/f.py\n");
    for h in 0..200 {
        let at = 10 + h * 20;
        diff.push_str(&format!(
            "@@ -{at},4 +{at},4 @@ def fn{h}():\n ctx a\n-    old = {h}\n+    new = {h} + 1\n ctx b\n ctx c\n"
        ));
    }
    // Laid out to fit, the patch holds the whole hunks that fit, uncut: what it shows
    // applies, and the hunks it leaves out are counted.
    for budget in [1_000, 1_500, 3_000] {
        let max_chars = budget.to_string();
        let envelope = b.envelope(
            &["diff", "--max-chars", &max_chars],
            diff.as_bytes(),
            budget,
        );
        let item = &items(&envelope)[0];
        let patch = item["patch"].as_str().unwrap();
        assert!(!patch.contains("…[cut "), "{patch}");
        let hunks = patch.matches("\n@@ -").count();
        assert!(hunks > 0, "{patch}");
        assert_eq!(patch.matches("\n ctx c\n").count(), hunks, "{patch}");
        assert!(patch.ends_with("\n ctx c\n"), "{budget}: {patch}");
        assert_eq!(item["hunks_left_out"], 200 - hunks as u64, "{item}");
        assert_eq!(envelope["truncated"], true);
    }
    // A hunk no page holds whole: no patch, the hunk counted as left out (it was cut
    // mid-line, a patch that did not apply).
    let mut long =
        String::from("diff --git a/g.py b/g.py\n--- a/g.py\n+++ b/g.py\n@@ -1,150 +1,150 @@\n");
    for i in 0..150 {
        long.push_str(&format!(
            "-CONST_{i} = {:?}\n+CONST_{i} = {:?}\n",
            "a".repeat(60),
            "b".repeat(60)
        ));
    }
    let envelope = b.envelope(&["diff"], long.as_bytes(), CAP);
    assert_eq!(items(&envelope)[0]["hunks_left_out"], 1, "{envelope}");
    assert_eq!(items(&envelope)[0].get("patch"), None, "{envelope}");
    assert!(
        envelope["warnings"]
            .to_string()
            .contains("`briefly diff --file g.py`"),
        "{envelope}"
    );
    // A file without hunks (a rename, a mode change) is its headers, a patch that applies.
    let rename =
        "diff --git a/a.py b/b.py\nsimilarity index 100%\nrename from a.py\nrename to b.py\n";
    let envelope = b.envelope(&["diff", "--max-chars", "1000"], rename.as_bytes(), 1_000);
    assert_eq!(items(&envelope)[0]["patch"], rename, "{envelope}");
    let envelope = b.envelope(&["diff", "--max-chars", "3000"], diff.as_bytes(), 3_000);
    let warning = "the patch of f.py was cut, or hunks of it left out (over --max-hunk-lines, or to fit): `briefly diff --file f.py` of the artifact has its hunks";
    assert!(
        envelope["warnings"].to_string().contains(warning),
        "{envelope}"
    );
    // Its hunks, paged: every one, each a whole patch.
    let artifact = envelope["artifact_path"].as_str().unwrap();
    let mut page = b.envelope(
        &["diff", "--max-chars", "3000", "--file", "f.py", artifact],
        b"",
        3_000,
    );
    let mut hunks = 0;
    loop {
        for item in items(&page) {
            assert!(
                !item["patch"].as_str().unwrap().contains("…[cut "),
                "{item}"
            );
            hunks += 1;
        }
        let Some(cursor) = page["next_cursor"].as_str().map(String::from) else {
            break;
        };
        page = b.envelope(&["page", &cursor, "--max-chars", "3000"], b"", 3_000);
    }
    assert_eq!(hunks, 200);
    // Whole, no warning.
    let small: String = diff
        .lines()
        .take(3 + 6 * 3)
        .map(|l| format!("{l}\n"))
        .collect();
    let whole = diff_of(&b, small.as_bytes(), &[]);
    assert_eq!(items(&whole)[0]["patch"], small.as_str());
    assert!(
        !whole["warnings"].to_string().contains("cut to fit"),
        "{whole}"
    );
    // A new file of one hunk too long to show: its hunk left out, and where it is said;
    // not under --stat-only, which leaves every hunk out as asked.
    let mut added = String::from("diff --git a/big file.txt b/big file.txt\nnew file mode 100644\n--- /dev/null\n+++ b/big file.txt\n@@ -0,0 +1,5000 @@\n");
    added.extend((0..5000).map(|i| format!("+line {i}\n")));
    let envelope = b.envelope(&["diff", "--max-chars", "3000"], added.as_bytes(), 3_000);
    assert_eq!(items(&envelope)[0]["hunks_left_out"], 1, "{envelope}");
    let hint = "`briefly diff --file 'big file.txt'`";
    assert!(
        envelope["warnings"].to_string().contains(hint),
        "{envelope}"
    );
    let stat = b.envelope(&["diff", "--stat-only"], added.as_bytes(), CAP);
    assert!(!stat["warnings"].to_string().contains("--file"), "{stat}");
}

#[test]
fn a_mass_rename_is_one_pattern_and_the_semantic_change_comes_first() {
    let repo = Repo::new();
    for i in 0..300 {
        repo.write(&format!("src/m{i}.rs"), format!("use crate::old_name;\n\npub fn f{i}() -> u32 {{\n    old_name::value() + {i}\n}}\n"));
    }
    repo.write(
        "src/config.rs",
        "pub const LIMIT: u32 = 10;\npub const NAME: &str = \"x\";\n",
    );
    repo.commit_all();
    for i in 0..300 {
        repo.write(&format!("src/m{i}.rs"), format!("use crate::new_name;\n\npub fn f{i}() -> u32 {{\n    old_name::value() + {i}\n}}\n"));
    }
    repo.write(
        "src/config.rs",
        "pub const LIMIT: u32 = 20;\npub const NAME: &str = \"x\";\n",
    );
    repo.commit_all();
    let diff = repo.git(&["show", "--format=", "HEAD"]);

    let b = Briefly::new();
    let envelope = diff_of(&b, &diff, &[]);
    assert_eq!(envelope["total_items"], 301);
    assert_eq!(
        envelope["returned_items"], 301,
        "every file is listed inline"
    );
    assert_eq!(envelope["stats"]["files"], 301);
    assert_eq!(envelope["stats"]["added"], 301);
    assert_eq!(envelope["stats"]["removed"], 301);
    let first = &items(&envelope)[0];
    assert_eq!(first["path"], "src/config.rs", "the semantic change first");
    assert_eq!(first["change"], "M +1 -1");
    let patterns = envelope["stats"]["patterns"].as_array().unwrap();
    assert_eq!(patterns.len(), 1);
    assert_eq!(patterns[0]["files"], 300);
    assert_eq!(patterns[0]["removed"], "-use crate::old_name;");
    assert_eq!(patterns[0]["added"], "+use crate::new_name;");
    assert!(items(&envelope)[1..]
        .iter()
        .all(|i| i["change"] == "M +1 -1 #1" && i.get("patch").is_none()));
    // The pattern's first file says what it is, on whatever page it comes.
    let pattern = json!({"removed": "-use crate::old_name;", "added": "+use crate::new_name;"});
    assert_eq!(items(&envelope)[1]["pattern"], pattern);
    assert!(items(&envelope)[2..]
        .iter()
        .all(|i| i.get("pattern").is_none()));
    repo.applies_to_parent(first["patch"].as_str().unwrap())
        .unwrap();
}

#[test]
fn statuses_renames_binary_modes_and_quoted_names() {
    let repo = Repo::new();
    repo.write("f.txt", "a\nb\nc\n");
    repo.write("sp ace.txt", "x");
    repo.write("bin.dat", [0u8, 1, 2]);
    repo.write("old.txt", "hello there, this is a file to rename\n");
    repo.write("m.sh", "echo\n");
    repo.write("q\"uote.txt", "q\n");
    repo.commit_all();
    repo.write("f.txt", "a\nB\nc\n");
    repo.git(&["mv", "old.txt", "new.txt"]);
    repo.write("bin.dat", [0u8, 9, 2]);
    std::fs::set_permissions(
        repo.path().join("m.sh"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    repo.write("ü.txt", "u\n");
    std::fs::remove_file(repo.path().join("sp ace.txt")).unwrap();
    repo.write("q\"uote.txt", "q2\n");
    repo.commit_all();
    let diff = repo.git(&["show", "-M", "--format=", "HEAD"]);

    let b = Briefly::new();
    let envelope = diff_of(&b, &diff, &[]);
    let change = |path: &str| {
        items(&envelope)
            .iter()
            .find(|i| i["path"] == path)
            .unwrap_or_else(|| panic!("{path} missing: {envelope}"))
            .clone()
    };
    assert_eq!(envelope["total_items"], 7);
    assert_eq!(change("f.txt")["change"], "M +1 -1");
    assert_eq!(change("new.txt")["change"], "R100 +0 -0");
    assert_eq!(change("new.txt")["from"], "old.txt");
    assert_eq!(change("bin.dat")["change"], "M binary");
    assert!(
        change("bin.dat").get("patch").is_none(),
        "a binary patch cannot be shown as text"
    );
    assert_eq!(change("m.sh")["change"], "M +0 -0 mode 100644->100755");
    assert_eq!(change("ü.txt")["change"], "A +1 -0");
    assert_eq!(change("sp ace.txt")["change"], "D +0 -1");
    assert_eq!(change("q\"uote.txt")["change"], "M +1 -1");
    assert_eq!(envelope["stats"]["binary"], 1);
    assert_eq!(envelope["stats"]["mode_changes"], 1);
    // Every patch shown applies to the tree before the change.
    for item in items(&envelope) {
        if let Some(patch) = item["patch"].as_str() {
            repo.applies_to_parent(patch)
                .unwrap_or_else(|e| panic!("{}: {e}\n{patch}", item["path"]));
        }
    }

    // Under diff.mnemonicPrefix the sides' prefixes say what they are (a commit's `c/`,
    // the work tree's `w/`, the index's `i/`): the paths are the same.
    let changes = |envelope: &Value| {
        let mut changes: Vec<String> = (items(envelope).iter())
            .map(|i| format!("{} {} {}", i["path"], i["change"], i["from"]))
            .collect();
        changes.sort();
        changes
    };
    for args in [
        &["diff", "-M", "HEAD~1"][..],
        &["diff", "-M", "--cached", "HEAD~1"],
    ] {
        let mut mnemonic = vec!["-c", "diff.mnemonicPrefix=true"];
        mnemonic.extend_from_slice(args);
        let diff = repo.git(&mnemonic);
        assert!(
            diff.starts_with(b"diff --git c/"),
            "{}",
            String::from_utf8_lossy(&diff)
        );
        let prefixed = diff_of(&b, &diff, &[]);
        assert_eq!(changes(&prefixed), changes(&envelope), "{args:?}");
        let file = diff_of(&b, &diff, &["--file", "f.txt"]);
        assert_eq!(items(&file).len(), 1, "{file}");
    }
}

#[test]
fn options_stat_only_path_file_max_hunk_lines_and_context() {
    let repo = Repo::new();
    let long: String = (0..100).map(|i| format!("line {i}\n")).collect();
    repo.write("big.txt", &long);
    repo.write("small.txt", "one\ntwo\nthree\nfour\nfive\nsix\nseven\n");
    repo.write("docs/readme.md", "hello\n");
    repo.commit_all();
    repo.write("big.txt", long.replace("line ", "LINE "));
    repo.write("small.txt", "one\ntwo\nthree\nFOUR\nfive\nsix\nseven\n");
    repo.write("docs/readme.md", "hello world\n");
    repo.commit_all();
    let diff = repo.git(&["show", "--format=", "HEAD"]);
    let b = Briefly::new();

    let stat = diff_of(&b, &diff, &["--stat-only"]);
    assert_eq!(stat["total_items"], 3);
    assert!(items(&stat).iter().all(|i| i.get("patch").is_none()));

    let named = diff_of(&b, &diff, &["--path", "docs/*"]);
    assert_eq!(items(&named)[0]["path"], "docs/readme.md");
    // Under --stat-only too, the rest in input order.
    let named = diff_of(&b, &diff, &["--stat-only", "--path", "small.txt"]);
    let paths: Vec<&Value> = items(&named).iter().map(|i| &i["path"]).collect();
    assert_eq!(paths, ["small.txt", "big.txt", "docs/readme.md"]);

    let capped = diff_of(&b, &diff, &["--max-hunk-lines", "50"]);
    let big = items(&capped)
        .iter()
        .find(|i| i["path"] == "big.txt")
        .unwrap();
    assert_eq!(big["hunks_left_out"], 1);
    assert!(
        big.get("patch").is_none(),
        "its only hunk is left out: no patch to show"
    );

    let only = diff_of(&b, &diff, &["--file", "big.txt", "--max-hunk-lines", "50"]);
    // Its one hunk of 200 lines comes in 4 parts of 50, marked as parts.
    assert_eq!(only["total_items"], 4);
    let parts: Vec<&str> = items(&only)
        .iter()
        .map(|i| i["part"].as_str().unwrap())
        .collect();
    assert_eq!(parts, ["1/4", "2/4", "3/4", "4/4"]);
    assert!(items(&only)[0]["lines"]
        .as_str()
        .unwrap()
        .starts_with("diff --git a/big.txt"));
    assert!(items(&only)[3]["lines"]
        .as_str()
        .unwrap()
        .contains("+LINE 99"));
    let whole = diff_of(&b, &diff, &["--file", "big.txt"]);
    assert_eq!(
        whole["total_items"], 1,
        "under the default of 400 lines: one patch"
    );
    assert!(items(&whole)[0]["patch"]
        .as_str()
        .unwrap()
        .contains("+LINE 99"));
    assert_eq!(
        only["stats"]["files"], 3,
        "the stats still count every file"
    );

    let tight = diff_of(&b, &diff, &["--context", "1", "--path", "small.txt"]);
    let patch = items(&tight)[0]["patch"].as_str().unwrap();
    assert!(
        patch.contains("@@ -3,3 +3,3 @@\n three\n-four\n+FOUR\n five\n"),
        "{patch}"
    );
    repo.applies_to_parent(patch).unwrap();

    assert_eq!(
        b.run(&["diff", "--path", "[unclosed"], &diff).status.code(),
        Some(2)
    );
}

#[test]
fn crlf_truncated_plain_and_format_patch_input() {
    let repo = Repo::new();
    repo.write("dos.txt", "one\r\ntwo\r\nthree\r\n");
    repo.commit_all();
    repo.write("dos.txt", "one\r\nTWO\r\nthree\r\n");
    repo.commit_all();
    let b = Briefly::new();

    let crlf = repo.git(&["show", "--format=", "HEAD"]);
    let envelope = diff_of(&b, &crlf, &[]);
    assert_eq!(items(&envelope)[0]["change"], "M +1 -1");
    repo.applies_to_parent(items(&envelope)[0]["patch"].as_str().unwrap())
        .unwrap();

    let mail = repo.git(&["format-patch", "-1", "--stdout", "HEAD"]);
    let envelope = diff_of(&b, &mail, &[]);
    assert_eq!(envelope["total_items"], 1);
    assert!(
        envelope["stats"]["other_lines"].as_u64().unwrap() > 3,
        "mail headers are counted, not parsed"
    );

    let truncated = &crlf[..crlf.len() - 12];
    let envelope = diff_of(&b, truncated, &[]);
    assert!(
        envelope["warnings"].to_string().contains("truncated"),
        "{}",
        envelope["warnings"]
    );

    let dir = tempfile::tempdir().unwrap();
    let (a, c): (PathBuf, PathBuf) = (dir.path().join("a.txt"), dir.path().join("c.txt"));
    std::fs::write(&a, "x\ny\n").unwrap();
    std::fs::write(&c, "x\nz\n").unwrap();
    let plain = Command::new("diff")
        .args(["-u", a.to_str().unwrap(), c.to_str().unwrap()])
        .output()
        .unwrap();
    let envelope = diff_of(&b, &plain.stdout, &[]);
    assert_eq!(envelope["total_items"], 1);
    assert_eq!(items(&envelope)[0]["change"], "M +1 -1");
    assert_eq!(items(&envelope)[0]["path"], c.to_str().unwrap());

    // `diff -ruN`: a file absent on one side is dated at the epoch there, in the local
    // zone: added and deleted, not modified.
    let (old, new) = (dir.path().join("old"), dir.path().join("new"));
    std::fs::create_dir_all(old.join("db")).unwrap();
    std::fs::create_dir_all(new.join("db")).unwrap();
    std::fs::write(old.join("db/gone"), "x\n").unwrap();
    std::fs::write(new.join("db/made"), "y\n").unwrap();
    for zone in ["UTC0", "EST5"] {
        let recursive = Command::new("diff")
            .args(["-ruN", "old", "new"])
            .current_dir(dir.path())
            .env("TZ", zone)
            .output()
            .unwrap();
        let envelope = diff_of(&b, &recursive.stdout, &[]);
        let mut changes: Vec<_> = items(&envelope)
            .iter()
            .map(|item| {
                format!(
                    "{} {}",
                    item["change"].as_str().unwrap(),
                    item["path"].as_str().unwrap()
                )
            })
            .collect();
        changes.sort();
        assert_eq!(
            changes,
            ["A +1 -0 new/db/made", "D +0 -1 old/db/gone"],
            "{zone}: {envelope}"
        );
    }
}

#[test]
fn run_picks_diff_for_git_diff() {
    let repo = Repo::new();
    repo.write("a.txt", "1\n");
    repo.commit_all();
    repo.write("a.txt", "2\n");
    let b = Briefly::new();
    let out = b
        .command(&[
            "run",
            "--",
            "git",
            "-C",
            repo.path().to_str().unwrap(),
            "diff",
        ])
        .output()
        .unwrap();
    let envelope: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(envelope["source"], "diff", "git's -C is looked through");
    let out = b
        .command(&["run", "--", "git", "diff"])
        .current_dir(repo.path())
        .output()
        .unwrap();
    let envelope: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(envelope["source"], "diff");
    assert_eq!(envelope["items"][0]["change"], "M +1 -1");
}

#[test]
fn binary_patches_copies_and_names_that_are_not_utf8() {
    let repo = Repo::new();
    let body: String = (0..40)
        .map(|i| format!("a line of text number {i}\n"))
        .collect();
    repo.write("orig.txt", &body);
    repo.write("pic.bin", [0u8, 159, 146, 150, 0, 1]);
    repo.commit_all();
    repo.write("copy.txt", &body);
    repo.write("pic.bin", [0u8, 159, 146, 150, 0, 2, 3]);
    let odd = std::ffi::OsStr::from_bytes(b"odd\xffname.txt");
    std::fs::write(repo.path().join(odd), "x\n").unwrap();
    repo.commit_all();
    let diff = repo.git(&[
        "show",
        "--binary",
        "-C",
        "--find-copies-harder",
        "--format=",
        "HEAD",
    ]);

    let b = Briefly::new();
    let envelope = diff_of(&b, &diff, &[]);
    assert_eq!(envelope["total_items"], 3, "{envelope}");
    let by_path = |p: &str| items(&envelope).iter().find(|i| i["path"] == p).cloned();
    let copy = by_path("copy.txt").expect("the copy");
    assert!(copy["change"].as_str().unwrap().starts_with('C'), "{copy}");
    assert_eq!(copy["from"], "orig.txt");
    let pic = by_path("pic.bin").expect("the binary");
    assert_eq!(pic["change"], "M binary");
    assert!(pic.get("patch").is_none());
    // Its data, not shown, is counted: nothing is left out without a word.
    let data = diff
        .split(|&b| b == b'\n')
        .skip_while(|line| *line != b"GIT binary patch")
        .skip(1)
        .take_while(|line| !line.starts_with(b"diff --git"))
        .count();
    assert!(data > 2, "{data}");
    assert_eq!(pic["binary_patch_lines"], data as u64 - 1, "{pic}");
    let odd = items(&envelope)
        .iter()
        .find(|i| i["path"].as_str().unwrap().starts_with("odd"))
        .unwrap();
    assert_eq!(
        odd["path"], "odd\u{fffd}name.txt",
        "git's quoted bytes, replaced where not UTF-8"
    );
    assert_eq!(odd["change"], "A +1 -0");
    assert_eq!(
        envelope["stats"]["other_lines"], 0,
        "the binary patch's data is not stray text"
    );
}

#[test]
fn file_pages_walk_its_hunks_each_a_patch() {
    let repo = Repo::new();
    let body: String = (0..300).map(|i| format!("line {i}\n")).collect();
    repo.write("long.txt", &body);
    repo.write("other.txt", "x\n");
    repo.commit_all();
    let changed = body
        .replace("line 10\n", "LINE 10\n")
        .replace("line 150\n", "LINE 150\n")
        .replace("line 290\n", "LINE 290\n");
    repo.write("long.txt", changed);
    repo.write("other.txt", "y\n");
    repo.commit_all();
    let diff = repo.git(&["show", "--format=", "HEAD"]);
    let b = Briefly::new();

    let first = b.envelope(
        &["diff", "--file", "long.txt", "--max-chars", "1500"],
        &diff,
        1_500,
    );
    assert_eq!(first["total_items"], 3, "three hunks");
    let mut hunks: Vec<Value> = items(&first).clone();
    let mut cursor = first["next_cursor"].as_str().map(String::from);
    assert!(
        cursor.is_some(),
        "a 1,500-char budget does not hold three hunks"
    );
    while let Some(c) = cursor {
        let page = b.envelope(&["page", &c], b"", 1_500);
        hunks.extend(items(&page).iter().cloned());
        cursor = page["next_cursor"].as_str().map(String::from);
    }
    let numbers: Vec<u64> = hunks.iter().map(|h| h["hunk"].as_u64().unwrap()).collect();
    assert_eq!(numbers, [1, 2, 3]);
    for hunk in &hunks {
        assert!(hunk["line"].as_u64().unwrap() > 1);
        assert!(
            !hunk["patch"].as_str().unwrap().contains("…[cut "),
            "whole hunks: {hunk}"
        );
        repo.applies_to_parent(hunk["patch"].as_str().unwrap())
            .unwrap();
    }
}

/// The `lines` of `--file`'s parts from `page` on, paged at `budget`, each whole (none
/// cut), and the parts.
fn parts_text(b: &Briefly, mut page: Value, budget: usize) -> (String, Vec<Value>) {
    let (mut text, mut parts) = (String::new(), Vec::new());
    loop {
        for part in items(&page) {
            let lines = part["lines"].as_str().expect("in parts");
            assert!(!lines.contains("…[cut "), "whole at {budget}: {part}");
            text.push_str(lines);
            parts.push(part.clone());
        }
        match page["next_cursor"].as_str() {
            Some(cursor) => page = b.envelope(&["page", cursor], b"", budget),
            None => return (text, parts),
        }
    }
}

#[test]
fn a_long_hunks_parts_fit_a_small_page_whole() {
    // 1,200 lines of one hunk: parts of at most --max-hunk-lines lines and of what half
    // the page holds, so that pages hold each whole (400-line parts were cut at 3,000
    // chars, 2,000-char parts at the least budget, and their rest was on no page), the
    // file's git header in the first.
    let mut diff = String::from(
        "diff --git a/src/big.txt b/src/big.txt\nindex 48f3994..63e988c 100644\n\
         --- a/src/big.txt\n+++ b/src/big.txt\n@@ -1,200 +1,1000 @@ fn main() {\n",
    );
    diff.extend((0..200).map(|i| format!("-old line {i}\n")));
    diff.extend((0..1000).map(|i| format!("+new line {i}\n")));
    let b = Briefly::new();
    for budget in [1_000, 1_500, 3_000] {
        let max_chars = budget.to_string();
        let args = ["diff", "--file", "src/big.txt", "--max-chars", &max_chars];
        let page = b.envelope(&args, diff.as_bytes(), budget);
        let (text, _) = parts_text(&b, page, budget);
        assert_eq!(text, diff, "at {budget}");
    }
}

#[test]
fn a_long_paths_header_does_not_crowd_its_hunks_off_a_small_page() {
    // A path of 160 characters: its git header, four lines, takes more than half of a
    // small page's part; the parts hold the hunks' headers and lines whole without it.
    let path = format!(
        "src/{}/module.py",
        ["very_long_directory_name"; 6].join("/")
    );
    let header = format!(
        "diff --git a/{path} b/{path}\nindex c73d065..f9c5c1d 100644\n--- a/{path}\n+++ b/{path}\n"
    );
    let mut hunks = String::new();
    for start in [47, 147, 247] {
        hunks.push_str(&format!("@@ -{start},7 +{start},7 @@\n"));
        hunks.extend((0..3).map(|i| format!(" line {} {}\n", start + i, "q".repeat(40))));
        hunks.push_str(&format!("-line {} {}\n", start + 3, "q".repeat(40)));
        hunks.push_str(&format!("+line {} {} X\n", start + 3, "q".repeat(40)));
        hunks.extend((4..7).map(|i| format!(" line {} {}\n", start + i, "q".repeat(40))));
    }
    let diff = format!("{header}{hunks}");
    let b = Briefly::new();
    for budget in [1_000, 1_500] {
        let max_chars = budget.to_string();
        let args = ["diff", "--file", &path, "--max-chars", &max_chars];
        let page = b.envelope(&args, diff.as_bytes(), budget);
        let (text, parts) = parts_text(&b, page, budget);
        assert_eq!(text, hunks, "at {budget}");
        assert!(parts.iter().all(|part| part["path"] == path.as_str()));
    }
    // At a budget whose parts hold it, each hunk is a patch with the file's header.
    let whole = b.envelope(&["diff", "--file", &path], diff.as_bytes(), CAP);
    let patch = items(&whole)[0]["patch"].as_str().unwrap();
    assert!(patch.starts_with(&header), "{whole}");
}

#[test]
fn each_file_names_its_commit_in_git_log_and_format_patch() {
    let repo = Repo::new();
    repo.write("a.txt", "1\n");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "-m", "first"]);
    repo.write("a.txt", "1\n2\n");
    repo.write("b.txt", "b\n");
    repo.git(&["add", "-A"]);
    // Long and not ASCII: format-patch folds and encodes it.
    let subject = format!("caf\u{e9}: {}", "x".repeat(90));
    // A mail's message is not indented: its line that opens with a hash is no commit.
    repo.git(&[
        "commit",
        "-q",
        "-m",
        &subject,
        "-m",
        "The body.",
        "-m",
        "1a2b3c4d was reverted.",
    ]);
    repo.write("a.txt", "1\n2\n3\n");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "-m", "third"]);
    let hash = |rev: &str| String::from_utf8(repo.git(&["rev-parse", "--short=12", rev])).unwrap();
    let (second, third) = (hash("HEAD~1"), hash("HEAD"));
    let b = Briefly::new();
    for input in [
        repo.git(&["log", "-p", "-2"]),
        repo.git(&["format-patch", "--stdout", "-2"]),
    ] {
        let envelope = diff_of(&b, &input, &[]);
        assert!(
            envelope["summary"]
                .as_str()
                .unwrap()
                .starts_with("2 commits: 3 file changes"),
            "{envelope}"
        );
        let commits = envelope["stats"]["commits"].as_array().unwrap();
        let listed: Vec<(&str, &str, u64)> = commits
            .iter()
            .map(|c| {
                let commit = c["commit"].as_str().unwrap();
                (
                    commit,
                    c["subject"].as_str().unwrap(),
                    c["files"].as_u64().unwrap(),
                )
            })
            .collect();
        // git log shows the latest first; format-patch the oldest.
        let mut expected = vec![
            (third.trim(), "third", 1),
            (second.trim(), subject.as_str(), 2),
        ];
        if commits[0]["subject"] != "third" {
            expected.reverse();
        }
        assert_eq!(listed, expected);
        assert!(commits[0]["author"]
            .as_str()
            .unwrap()
            .starts_with("test <t@example.invalid>"));
        assert!(commits[0]["date"].is_string());
        let of = |path: &str| {
            items(&envelope)
                .iter()
                .filter(|i| i["path"] == path)
                .map(|i| i["commit"].as_str().unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(of("b.txt"), [second.trim()]);
        let mut a = of("a.txt");
        a.sort();
        let mut both = vec![second.trim(), third.trim()];
        both.sort();
        assert_eq!(a, both);
        // One file's hunks, each with its commit.
        let hunks = diff_of(&b, &input, &["--file", "a.txt"]);
        let commits: Vec<&str> = items(&hunks)
            .iter()
            .map(|i| i["commit"].as_str().unwrap())
            .collect();
        assert_eq!(commits.len(), 2, "{hunks}");
        assert_ne!(commits[0], commits[1]);
    }
    // `git log --oneline`: each commit's hash and subject on one line, the refs that
    // point at it between them.
    let oneline = repo.git(&["log", "--oneline", "--decorate", "--abbrev=12", "-p", "-2"]);
    assert!(String::from_utf8_lossy(&oneline).contains(" (HEAD -> "));
    let envelope = diff_of(&b, &oneline, &[]);
    let commits: Vec<(&str, &str)> = envelope["stats"]["commits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["commit"].as_str().unwrap(),
                c["subject"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        commits,
        [(third.trim(), "third"), (second.trim(), subject.as_str())],
        "{envelope}"
    );
    let b_file = items(&envelope)
        .iter()
        .find(|i| i["path"] == "b.txt")
        .unwrap();
    assert_eq!(b_file["commit"], second.trim());
    // A plain diff has no commits.
    let envelope = diff_of(&b, &repo.git(&["diff", "HEAD~2"]), &[]);
    assert!(envelope["stats"].get("commits").is_none(), "{envelope}");
    assert!(items(&envelope)[0].get("commit").is_none());
}

#[test]
fn a_merge_diffed_against_each_parent_is_one_commit() {
    let b = Briefly::new();
    let repo = Repo::new();
    repo.write("base.txt", "1\n");
    repo.commit_all();
    repo.git(&["checkout", "-q", "-b", "side"]);
    repo.write("side.txt", "s\n");
    repo.commit_all();
    repo.git(&["checkout", "-q", "-"]);
    repo.write("main.txt", "m\n");
    repo.commit_all();
    repo.git(&["merge", "-q", "--no-edit", "side"]);
    let parents =
        String::from_utf8(repo.git(&["log", "-1", "--format=%p", "--abbrev=12"])).unwrap();
    let parents: Vec<&str> = parents.split_whitespace().collect();
    // `git log -m -p`: the merge once for each parent, each with the files it changes.
    let envelope = diff_of(&b, &repo.git(&["log", "-m", "-p", "-1"]), &[]);
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.starts_with("2 files changed"),
        "one commit: {summary}"
    );
    assert!(summary.contains("1 diff more"), "{summary}");
    let against: Vec<(Value, Value)> = items(&envelope)
        .iter()
        .map(|item| (item["path"].clone(), item["against"].clone()))
        .collect();
    assert_eq!(
        against,
        [
            (json!("side.txt"), json!(parents[0])),
            (json!("main.txt"), json!(parents[1]))
        ],
        "{envelope}"
    );
}

#[test]
fn a_merges_combined_diff_keeps_its_hunks() {
    let b = Briefly::new();
    let repo = Repo::new();
    let body = |second: &str, last: &str| format!("a\n{second}\nc\nd\ne\nf\ng\n{last}\n");
    repo.write("f.txt", body("b", "h"));
    repo.commit_all();
    repo.git(&["checkout", "-q", "-b", "side"]);
    repo.write("f.txt", body("B-side", "H-side"));
    repo.commit_all();
    repo.git(&["checkout", "-q", "-"]);
    repo.write("f.txt", body("B-main", "H-main"));
    repo.commit_all();
    let merge = Command::new("git")
        .args(["merge", "-q", "side"])
        .current_dir(repo.path())
        .output()
        .unwrap();
    assert!(!merge.status.success(), "a conflict");

    // `git diff` of the conflicted file: a combined diff, the markers and both sides.
    let conflict = repo.git(&["diff"]);
    let stat = String::from_utf8(repo.git(&["diff", "--stat"])).unwrap();
    assert!(stat.contains("1 file changed, 8 insertions(+)"), "{stat}");
    let envelope = diff_of(&b, &conflict, &[]);
    let file = &items(&envelope)[0];
    // Unmerged, as `git status` says `UU`, with its two conflicts.
    assert_eq!(
        file["change"], "U +8 -0 conflicts 2",
        "as git counts it: {envelope}"
    );
    assert_eq!(envelope["stats"]["by_status"], json!({"unmerged": 1}));
    // What a combined diff leaves out (here nothing: both hunks conflict) is said.
    assert!(
        envelope["warnings"][0]
            .as_str()
            .unwrap()
            .starts_with("1 file is a combined diff (`diff --cc`, a merge's)"),
        "{envelope}"
    );
    assert_eq!(envelope["stats"]["conflicts"], 2);
    assert!(
        envelope["summary"]
            .as_str()
            .unwrap()
            .ends_with("; 2 conflicts unresolved in 1 file: f.txt"),
        "{envelope}"
    );
    assert_eq!(envelope["stats"]["other_lines"], 0, "{envelope}");
    let patch = file["patch"].as_str().unwrap();
    assert!(patch.starts_with("diff --cc f.txt\n"), "{patch}");
    assert!(patch.contains("@@@ -1,8 -1,8 +1,16 @@@\n"), "{patch}");
    assert!(
        patch.contains("++<<<<<<< HEAD\n +B-main\n++=======\n+ B-side\n++>>>>>>> side\n"),
        "{patch}"
    );
    assert!(patch.contains(" +H-main\n"), "{patch}");
    // Kept whole under `--context 0` (its header has a range for each parent); its own
    // page under `--file`.
    let trimmed = diff_of(&b, &conflict, &["--context", "0"]);
    assert_eq!(items(&trimmed)[0]["patch"], file["patch"]);
    common::assert_warns(&trimmed, &["--context: 1 hunk is as it was"]);
    assert_eq!(
        envelope["warnings"].as_array().unwrap().len(),
        1,
        "{envelope}"
    );
    let pages = diff_of(&b, &conflict, &["--file", "f.txt"]);
    let hunk = &items(&pages)[0];
    assert!(
        hunk["patch"]
            .as_str()
            .unwrap()
            .contains("@@@ -1,8 -1,8 +1,16 @@@\n"),
        "{pages}"
    );

    // The merge committed: `git show`'s combined diff against both parents, counted
    // against the first.
    repo.write("f.txt", body("B-merged", "H-main"));
    repo.commit_all();
    let show = repo.git(&["show", "HEAD"]);
    let envelope = diff_of(&b, &show, &[]);
    let file = &items(&envelope)[0];
    assert_eq!(file["change"], "M +1 -1", "{envelope}");
    assert!(envelope["stats"].get("conflicts").is_none(), "{envelope}");
    let patch = file["patch"].as_str().unwrap();
    assert!(
        patch.contains("- B-main\n -B-side\n++B-merged\n"),
        "{patch}"
    );
}

#[test]
fn conflict_markers_left_in_a_file_come_first() {
    let b = Briefly::new();
    let repo = Repo::new();
    repo.write("a.txt", "one\n");
    repo.write("z.txt", "x\ny\n");
    repo.commit_all();
    repo.write("a.txt", "one\ntwo\n");
    // Markers committed by mistake, and a line that only looks like one.
    repo.write(
        "z.txt",
        "x\n<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> feature\n<<<<<<<< not one\ny\n",
    );
    repo.commit_all();
    let envelope = diff_of(&b, &repo.git(&["show", "HEAD"]), &[]);
    let listed: Vec<_> = items(&envelope)
        .iter()
        .map(|item| {
            item["change"].as_str().unwrap().to_string() + " " + item["path"].as_str().unwrap()
        })
        .collect();
    assert_eq!(
        listed,
        ["M +6 -0 conflicts 1 z.txt", "M +1 -0 a.txt"],
        "{envelope}"
    );
    assert_eq!(envelope["stats"]["conflicts"], 1);
    assert_eq!(envelope["stats"]["by_status"], json!({"modified": 2}));
    assert!(
        envelope["summary"]
            .as_str()
            .unwrap()
            .contains("; 1 conflict unresolved in 1 file: z.txt"),
        "{envelope}"
    );
}

#[test]
fn a_coloured_diff_is_read_as_the_plain_one() {
    let b = Briefly::new();
    let repo = Repo::new();
    repo.write("a.txt", "one\ntwo\nthree\n");
    repo.write("fixture.txt", "\x1b[31mred\x1b[0m\nplain\n");
    repo.commit_all();
    repo.write("a.txt", "one\n2\nthree\nfour\n");
    repo.write("fixture.txt", "\x1b[31mred\x1b[0m\n\x1b[32mgreen\x1b[0m\n");
    repo.commit_all();
    let coloured_show = |name: &str| -> Vec<u8> {
        let plain = repo.git(&["show", "--format=", "HEAD", "--", name]);
        let coloured = repo.git(&["show", "--format=", "--color=always", "HEAD", "--", name]);
        assert_ne!(plain, coloured);
        coloured
    };
    // `git show --color=always` (or `color.ui = always`): the same files and patches.
    let plain = diff_of(
        &b,
        &repo.git(&["show", "--format=", "HEAD", "--", "a.txt"]),
        &[],
    );
    let coloured = diff_of(&b, &coloured_show("a.txt"), &[]);
    assert_eq!(items(&coloured), items(&plain), "{coloured}");
    assert_eq!(coloured["stats"], plain["stats"]);
    assert!(
        coloured["warnings"][0]
            .as_str()
            .unwrap()
            .contains("ANSI colour codes"),
        "{coloured}"
    );
    let warned = |envelope: &Value| {
        envelope["warnings"]
            .as_array()
            .is_some_and(|w| !w.is_empty())
    };
    assert!(!warned(&plain), "{plain}");
    // A file's own codes, in a plain diff, stay in its patch, which applies.
    let both = diff_of(&b, &repo.git(&["show", "--format=", "HEAD"]), &[]);
    assert!(!warned(&both), "{both}");
    for item in items(&both) {
        repo.applies_to_parent(item["patch"].as_str().unwrap())
            .unwrap_or_else(|e| panic!("{e}: {item}"));
    }
    assert!(
        items(&both)
            .iter()
            .any(|i| i["patch"].as_str().unwrap().contains("+\x1b[32mgreen")),
        "{both}"
    );
}

#[test]
fn a_word_diff_is_counted_as_git_counts_its_lines() {
    let b = Briefly::new();
    let repo = Repo::new();
    let long: String = (1..=30).map(|i| format!("line {i}\n")).collect();
    repo.write("z.txt", "one two three\nfour five\nsix\nseven\n");
    repo.write("b.py", format!("def f():\n    return x\n{long}"));
    repo.commit_all();
    repo.write("z.txt", "one 2 three\nfour five\nsix\nseven eight\nnine\n");
    repo.write(
        "b.py",
        format!(
            "def f():\n    return y\n{}line 30 and more\n",
            &long[..long.len() - 8]
        ),
    );
    let stat = String::from_utf8(repo.git(&["diff", "--stat"])).unwrap();
    assert!(
        stat.contains("2 files changed, 5 insertions(+), 4 deletions(-)"),
        "{stat}"
    );
    let words = repo.git(&["diff", "--word-diff"]);
    let envelope = diff_of(&b, &words, &[]);
    let changes: Vec<_> = items(&envelope)
        .iter()
        .map(|item| item["change"].as_str().unwrap())
        .collect();
    // b.py's two hunks, each opening with a line no unified diff has: its first read as
    // a word diff's once its indented line's marks show, its second as one from the
    // start. z.txt's patch is the shorter: it comes first.
    assert_eq!(changes, ["M +3 -2", "M +2 -2"], "{envelope}");
    assert_eq!(envelope["stats"]["added"], 5);
    assert_eq!(envelope["stats"]["removed"], 4);
    assert_eq!(envelope["truncated"], false, "{envelope}");
    let b_patch = items(&envelope)[1]["patch"].as_str().unwrap();
    assert!(b_patch.contains("    return [-x-]{+y+}\n"), "{b_patch}");
    assert!(b_patch.contains("line 30 {+and more+}\n"), "{b_patch}");
    let z_patch = items(&envelope)[0]["patch"].as_str().unwrap();
    assert!(
        z_patch.ends_with("one [-two-]{+2+} three\nfour five\nsix\nseven {+eight+}\n{+nine+}\n"),
        "{z_patch}"
    );
    let warnings = envelope["warnings"].to_string();
    assert!(warnings.contains("a word diff (--word-diff)"), "{warnings}");
    assert!(!warnings.contains("truncated"), "{warnings}");
    // A hunk whose first lines open with `-` or `+` (a list's items) is read as a
    // unified diff's until its marked line shows, then read again.
    let list = Repo::new();
    list.write("list.md", "- a\n+ b\nplain c\n");
    list.commit_all();
    list.write("list.md", "- a\n+ b\nplain d\n");
    let listed = diff_of(&b, &list.git(&["diff", "--word-diff"]), &[]);
    assert_eq!(items(&listed)[0]["change"], "M +1 -1", "{listed}");
    // Its hunks are kept whole under `--context`: no line of theirs is context by a mark.
    let trimmed = diff_of(&b, &words, &["--context", "0"]);
    assert_eq!(items(&trimmed), items(&envelope));
    // The porcelain form, a run of words per line and `~` ending the file's line,
    // counts the same: git's --stat.
    let porcelain = diff_of(&b, &repo.git(&["diff", "--word-diff=porcelain"]), &[]);
    let mut changes: Vec<_> = items(&porcelain)
        .iter()
        .map(|item| {
            (
                item["path"].as_str().unwrap(),
                item["change"].as_str().unwrap(),
            )
        })
        .collect();
    changes.sort();
    assert_eq!(
        changes,
        [("b.py", "M +2 -2"), ("z.txt", "M +3 -2")],
        "{porcelain}"
    );
    assert_eq!(porcelain["truncated"], false, "{porcelain}");
    let warnings = porcelain["warnings"].to_string();
    assert!(warnings.contains("porcelain marks"), "{warnings}");
    assert!(!warnings.contains("truncated"), "{warnings}");
    let z = items(&porcelain)
        .iter()
        .find(|item| item["path"] == "z.txt");
    let z_patch = z.unwrap()["patch"].as_str().unwrap();
    assert!(
        z_patch.ends_with(" seven \n+eight\n~\n+nine\n~\n"),
        "{z_patch}"
    );
    // The colour form (`--color-words`, `--word-diff=color`): its red and green words
    // read as a plain word diff's marks, and shown so.
    for option in ["--color-words", "--word-diff=color"] {
        let coloured = diff_of(&b, &repo.git(&["diff", option]), &[]);
        assert_eq!(items(&coloured), items(&envelope), "{option}: {coloured}");
        assert_eq!(coloured["truncated"], false, "{coloured}");
        let warnings = coloured["warnings"].to_string();
        assert!(warnings.contains("colours (red and green)"), "{warnings}");
    }

    // A unified diff whose context holds what looks like marks is read as one.
    repo.write("z.txt", "x\n");
    repo.write("c.txt", "keep {+this+} as is\nold\n");
    repo.commit_all();
    repo.write("c.txt", "keep {+this+} as is\nnew\n");
    let plain = repo.git(&["diff"]);
    let envelope = diff_of(&b, &plain, &[]);
    assert_eq!(items(&envelope)[0]["change"], "M +1 -1", "{envelope}");
    assert!(
        !envelope["warnings"].to_string().contains("word diff"),
        "{envelope}"
    );
    // A hunk cut short, then lines of prose (a few, or more than are held waiting for
    // a word diff's marks), then a whole diff: the hunk left out as truncated, the prose
    // counted outside any file, the diff after it read.
    let plain = String::from_utf8(plain).unwrap();
    let cut = plain.strip_suffix("+new\n").unwrap();
    for prose in [3, 1_500] {
        let mut text = cut.to_string();
        text.extend((0..prose).map(|i| format!("note {i}: not a diff\n")));
        text.push_str(&String::from_utf8(repo.git(&["diff", "--", "c.txt"])).unwrap());
        let envelope = diff_of(&b, text.as_bytes(), &[]);
        let warnings = envelope["warnings"].to_string();
        assert!(warnings.contains("1 hunk ends before its"), "{warnings}");
        assert!(!warnings.contains("word diff"), "{warnings}");
        // What the hunk cut short held, as it came, beside the file's patch.
        let cut_file = items(&envelope).iter().find(|i| i["change"] == "M +0 -1");
        assert_eq!(
            cut_file.map(|i| &i["cut_hunk"]),
            Some(&json!("@@ -1,2 +1,2 @@\n keep {+this+} as is\n-old")),
            "{envelope}"
        );
        assert_eq!(envelope["stats"]["other_lines"], prose, "{envelope}");
        assert_eq!(envelope["stats"]["files"], 2, "{envelope}");
        let changes: Vec<_> = items(&envelope)
            .iter()
            .filter_map(|item| item.get("change"))
            .collect();
        assert_eq!(changes, ["M +0 -1", "M +1 -1"], "{envelope}");
        // The prose is shown after the files, as far as the diff holds it.
        let first_note = items(&envelope).iter().find_map(|item| item.get("text"));
        assert_eq!(first_note, Some(&json!("note 0: not a diff")), "{envelope}");
    }
}

#[test]
fn a_file_or_path_the_diff_lacks_is_warned_of() {
    let b = Briefly::new();
    let repo = Repo::new();
    repo.write("src/a.rs", "fn a() {}\n");
    repo.commit_all();
    repo.write("src/a.rs", "fn a() { }\n");
    let diff = repo.git(&["diff"]);
    for (args, warning) in [
        (
            &["--file", "src/b.rs"][..],
            Some("--file src/b.rs: no file in the diff has this path"),
        ),
        (
            &["--path", "*.py", "--path", "docs/**"],
            Some("--path *.py, docs/**: no file in the diff matches"),
        ),
        (&["--file", "src/a.rs"], None),
        (&["--path", "src/*.rs"], None),
    ] {
        let envelope = diff_of(&b, &diff, args);
        let warnings = envelope["warnings"].as_array().unwrap();
        match warning {
            Some(warning) => assert_eq!(warnings, &[json!(warning)], "{args:?}"),
            None => assert!(warnings.is_empty(), "{args:?}: {envelope}"),
        }
    }
}

#[test]
fn gits_lists_of_files_without_patches_are_read() {
    let b = Briefly::new();
    let repo = Repo::new();
    repo.write("a.txt", "1\n2\n3\n");
    repo.write("logo.png", [0u8, 1, 2, 3]);
    repo.commit_all();
    repo.write("a.txt", "1\ntwo\n3\n4\n");
    repo.write("b/c.txt", "new\n");
    repo.write("logo.png", [0u8, 9, 9, 9, 9]);
    repo.commit_all();
    repo.write("a.txt", "1\n");
    repo.commit_all();

    // `git diff --stat`: each file with git's count and bar, git's totals.
    let envelope = diff_of(&b, &repo.git(&["diff", "--stat", "HEAD~2", "HEAD~1"]), &[]);
    let listed: Vec<_> = items(&envelope)
        .iter()
        .map(|item| {
            format!(
                "{} {}",
                item["path"].as_str().unwrap(),
                item["change"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        listed,
        ["a.txt 3 ++-", "b/c.txt 1 +", "logo.png Bin 4 -> 5 bytes"],
        "{envelope}"
    );
    assert_eq!(
        envelope["summary"],
        "3 files changed, 3 insertions(+), 1 deletion(-)"
    );
    assert_eq!(envelope["stats"]["other_lines"], 0);
    assert_eq!(envelope["stats"]["binary"], 1);
    let warnings = envelope["warnings"].to_string();
    assert!(
        warnings.contains("no patches, only git's summary of them"),
        "{warnings}"
    );
    assert!(
        warnings.contains("the 3 files as git lists them"),
        "{warnings}"
    );

    // `--numstat`: exact counts, a binary file's none; `--shortstat`: the total alone.
    let envelope = diff_of(
        &b,
        &repo.git(&["diff", "--numstat", "HEAD~2", "HEAD~1"]),
        &[],
    );
    let changes: Vec<_> = items(&envelope)
        .iter()
        .map(|item| item["change"].clone())
        .collect();
    assert_eq!(changes, [json!("+2 -1"), json!("+1 -0"), json!("binary")]);
    assert_eq!(envelope["stats"]["added"], 3);
    assert_eq!(envelope["stats"]["binary"], 1);
    // `--name-status`: each file's status as git writes it, a rename's old path; no
    // lines counted, none said.
    repo.git(&["mv", "b/c.txt", "b/d.txt"]);
    let envelope = diff_of(
        &b,
        &repo.git(&["diff", "--name-status", "-M", "HEAD~2", "--cached"]),
        &[],
    );
    let listed: Vec<_> = items(&envelope)
        .iter()
        .map(|item| {
            (
                item["path"].clone(),
                item["change"].clone(),
                item.get("from").cloned(),
            )
        })
        .collect();
    assert_eq!(
        listed,
        [
            (json!("a.txt"), json!("M"), None),
            (json!("b/d.txt"), json!("A"), None),
            (json!("logo.png"), json!("M"), None)
        ],
        "{envelope}"
    );
    assert_eq!(
        envelope["summary"],
        "3 files changed (--name-status: no lines counted)"
    );
    let renamed = diff_of(
        &b,
        &repo.git(&["diff", "--name-status", "-M", "HEAD", "--cached"]),
        &[],
    );
    assert_eq!(
        (&items(&renamed)[0]["change"], &items(&renamed)[0]["from"]),
        (&json!("R100"), &json!("b/c.txt")),
        "{renamed}"
    );
    repo.git(&["mv", "b/d.txt", "b/c.txt"]);
    let shortstat = repo.git(&["diff", "--shortstat", "HEAD~2"]);
    assert_eq!(
        String::from_utf8_lossy(&shortstat).trim(),
        "3 files changed, 1 insertion(+), 2 deletions(-)"
    );
    let envelope = diff_of(&b, &shortstat, &[]);
    assert_eq!(
        envelope["summary"], "3 files changed, 1 insertion(+), 2 deletions(-)",
        "in git's own words"
    );

    // `git log --stat`: each commit's files and counts as its total says.
    let envelope = diff_of(&b, &repo.git(&["log", "--stat", "-2"]), &[]);
    let commits = envelope["stats"]["commits"].as_array().unwrap();
    let counts: Vec<_> = commits
        .iter()
        .map(|c| (c["files"].clone(), c["added"].clone(), c["removed"].clone()))
        .collect();
    assert_eq!(
        counts,
        [
            (json!(1), json!(0), json!(3)),
            (json!(3), json!(3), json!(1))
        ],
        "{envelope}"
    );
    assert_eq!(envelope["total_items"], 4);
    assert!(items(&envelope)
        .iter()
        .all(|item| item.get("commit").is_some()));

    // With the patches too, the patches count; the diffstat is lines outside them.
    let with_patch = diff_of(&b, &repo.git(&["show", "--stat", "-p", "HEAD~1"]), &[]);
    let patch_only = diff_of(&b, &repo.git(&["show", "-p", "HEAD~1"]), &[]);
    assert_eq!(items(&with_patch), items(&patch_only));
    assert_eq!(with_patch["summary"], patch_only["summary"]);
    assert_eq!(
        with_patch["stats"]["other_lines"],
        // Its three files' lines, its total, the blank line after them.
        patch_only["stats"]["other_lines"].as_u64().unwrap() + 5
    );
}

#[test]
fn a_file_mixing_changes_made_elsewhere_keeps_its_patch() {
    let b = Briefly::new();
    let repo = Repo::new();
    for i in 1..=3 {
        repo.write(&format!("a{i}.rs"), "use crate::old_a;\n");
        repo.write(&format!("b{i}.rs"), "use crate::old_b;\n");
    }
    repo.write("both.rs", "use crate::old_a;\nuse crate::old_b;\n");
    repo.commit_all();
    for i in 1..=3 {
        repo.write(&format!("a{i}.rs"), "use crate::new_a;\n");
        repo.write(&format!("b{i}.rs"), "use crate::new_b;\n");
    }
    repo.write("both.rs", "use crate::new_a;\nuse crate::new_b;\n");
    let envelope = diff_of(&b, &repo.git(&["diff"]), &[]);
    let patterns = envelope["stats"]["patterns"].as_array().unwrap();
    let files: Vec<_> = patterns.iter().map(|p| p["files"].clone()).collect();
    assert_eq!(files, [json!(3), json!(3)], "{envelope}");
    let both = items(&envelope)
        .iter()
        .find(|item| item["path"] == "both.rs")
        .unwrap();
    assert_eq!(
        both["change"], "M +2 -2",
        "its own, no pattern's number: {envelope}"
    );
    assert!(both["patch"]
        .as_str()
        .unwrap()
        .contains("+use crate::new_b;"));
    assert!(
        envelope["summary"]
            .as_str()
            .unwrap()
            .ends_with("; 6 files only repeat 2 changes (see stats.patterns); 1 file has its own"),
        "{envelope}"
    );
}

#[test]
fn a_line_the_framing_cut_is_marked_in_its_patch() {
    // Past --max-line-bytes only a line's head is read: its patch says so where it is
    // (it looked whole, and no longer applies).
    let long = "b".repeat(3_000);
    let diff = format!("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-a\n+{long}\n c\n");
    let b = Briefly::new();
    let envelope = diff_of(&b, diff.as_bytes(), &["--max-line-bytes", "1000"]);
    let patch = items(&envelope)[0]["patch"].as_str().unwrap();
    let cut = patch.lines().find(|line| line.starts_with("+b")).unwrap();
    assert!(cut.ends_with("…[line cut: whole in the artifact]"), "{cut}");
    assert!(cut.len() < 1_100, "{}", cut.len());
    assert!(patch.ends_with("\n c\n"), "{patch}");
}

#[test]
fn a_crlf_diffs_patch_keeps_its_line_ends_its_hunk_header_too() {
    let diff =
        "diff --git a/x b/x\r\n--- a/x\r\n+++ b/x\r\n@@ -1,2 +1,2 @@ fn f()\r\n-a\r\n+b\r\n c\r\n";
    let b = Briefly::new();
    let envelope = diff_of(&b, diff.as_bytes(), &[]);
    assert_eq!(items(&envelope)[0]["patch"], diff);
    let envelope = diff_of(&b, diff.as_bytes(), &["--file", "x"]);
    assert_eq!(items(&envelope)[0]["patch"], diff);
}

#[test]
fn a_change_inside_a_long_line_is_shown_where_it_is() {
    // A minified file of one 40 kB line, one value changed in the middle of it.
    let line = |value: &str| -> String {
        (0..3_000)
            .map(|i| match i {
                1_500 => format!("var a{i}={value};"),
                _ => format!("var a{i}={};", i * 7 % 1000),
            })
            .collect()
    };
    let (old, new) = (line("500"), line("\"BROKEN\""));
    let diff = format!(
        "diff --git a/app.min.js b/app.min.js\n--- a/app.min.js\n+++ b/app.min.js\n\
         @@ -1,2 +1,2 @@\n-{old}\n+{new}\n //# sourceMappingURL=app.js.map\n"
    );
    let column = old.find("var a1500=").unwrap() as u64 + 11;
    let b = Briefly::new();
    for args in [&[][..], &["--max-chars", "2000"], &["--file", "app.min.js"]] {
        let envelope = diff_of(&b, diff.as_bytes(), args);
        let changed = &items(&envelope)[0]["changed"];
        assert_eq!(changed[0]["line"], 1, "{args:?}");
        assert_eq!(changed[0]["column"], column);
        let added = changed[0]["added"].as_str().unwrap();
        assert!(added.contains("var a1500=\"BROKEN\";var a1501="), "{added}");
        assert!(added.starts_with('…') && added.ends_with('…'), "{added}");
        let removed = changed[0]["removed"].as_str().unwrap();
        assert!(removed.contains("var a1500=500;var a1501="), "{removed}");
        assert!(removed.len() < 200, "{removed}");
    }
    // The first three of a file, and how many more.
    let pairs: String = (1..=4)
        .map(|n| format!("@@ -{n} +{n} @@\n-{old}\n+{n}{new}\n"))
        .collect();
    let four = format!("diff --git a/m.js b/m.js\n--- a/m.js\n+++ b/m.js\n{pairs}");
    let envelope = diff_of(&b, four.as_bytes(), &[]);
    let file = &items(&envelope)[0];
    let lines: Vec<u64> = (file["changed"].as_array().unwrap().iter())
        .map(|change| change["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [1, 2, 3]);
    assert_eq!(file["changed"][0]["column"], 1);
    assert_eq!(file["changed_more"], 1);
    // The warning names where the hunks are, not as each whole: a long line is cut.
    let envelope = diff_of(&b, diff.as_bytes(), &[]);
    common::assert_warns(
        &envelope,
        &["`briefly diff --file app.min.js` of the artifact has its hunks, a page at a time"],
    );
}

#[test]
fn a_context_diff_reads_as_the_unified_diff_of_the_same_files() {
    // Two trees of files changed at random (a fixed seed): `diff -c`, `-C 1`, `-C 0` and
    // `-r` read as `diff -u` of the same context reads.
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (dir.path().join("a"), dir.path().join("b"));
    std::fs::create_dir_all(&old).unwrap();
    std::fs::create_dir_all(&new).unwrap();
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |n: u64| {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        (seed >> 33) % n
    };
    for f in 0..24 {
        let lines: Vec<String> = (0..next(40)).map(|i| format!("line {i} of {f}")).collect();
        let mut changed = Vec::new();
        for line in &lines {
            match next(10) {
                0 => {}                                              // removed
                1 => changed.push(format!("{line} changed")),        // changed
                2 => changed.extend([line.clone(), "added".into()]), // added after
                _ => changed.push(line.clone()),
            }
        }
        if f % 7 == 3 {
            changed.clear(); // emptied
        }
        let name = format!("f{f:02}.txt");
        std::fs::write(old.join(&name), lines.join("\n") + "\n").unwrap();
        std::fs::write(new.join(&name), changed.join("\n") + "\n").unwrap();
    }
    // CRLF lines, a last line without its newline, binary files, a file in one tree.
    let files: [(&str, &[u8], &[u8]); 5] = [
        ("crlf.txt", b"x\r\ny\r\n", b"x\r\nz\r\n"),
        ("nonl.txt", b"no newline", b"no newline!"),
        ("bin.dat", b"\x00\x01bin", b"\x00\x02bin"),
        ("tail.txt", b"a\nb\nc", b"a\nb\nc\nd\n"),
        ("both.txt", b"a\nb\nc", b"a\nX\nc"),
    ];
    for (name, before, after) in files {
        std::fs::write(old.join(name), before).unwrap();
        std::fs::write(new.join(name), after).unwrap();
    }
    std::fs::write(old.join("gone.txt"), "gone\n").unwrap();
    std::fs::write(new.join("new.txt"), "new\n").unwrap();
    let b = Briefly::new();
    let styles = [("-c", "-u"), ("-C1", "-U1"), ("-C0", "-U0"), ("-cN", "-uN")];
    for (context, unified) in styles {
        let run = |style: &str| {
            let out = Command::new("diff")
                .args(["-r", style, "a", "b"])
                .current_dir(dir.path())
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(1), "{style}");
            diff_of(&b, &out.stdout, &[])
        };
        let (read, expected) = (run(context), run(unified));
        assert_eq!(read["summary"], expected["summary"], "{context}");
        assert_eq!(read["stats"], expected["stats"], "{context}");
        // (Lines outside the patches, `Only in …`, are at other lines of the input.)
        let unplaced = |e: &Value| -> Vec<Value> {
            let mut items = items(e).clone();
            (items.iter_mut()).for_each(|i| _ = i.as_object_mut().unwrap().remove("line"));
            items
        };
        assert_eq!(unplaced(&read), unplaced(&expected), "{context}");
        assert!(
            !read["summary"].as_str().unwrap().starts_with("no diff"),
            "{read}"
        );
    }
}
