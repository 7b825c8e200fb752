//! `briefly page`, `read` and `grep`: the rest of a result, from its artifact.

mod common;

use common::{feed, numbered, Briefly};
use serde_json::{json, Value};
use std::collections::BTreeSet;

const CAP: usize = 19_660;

fn lines_of(envelope: &Value) -> Vec<u64> {
    envelope["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["line"].as_u64().unwrap())
        .collect()
}

#[test]
fn paging_returns_every_line_exactly_once() {
    let b = Briefly::new();
    let input = numbered(20_000);
    let mut envelope = b.envelope(&["spill"], input.as_bytes(), CAP);
    let artifact = envelope["artifact_path"].as_str().unwrap().to_string();
    let mut seen = lines_of(&envelope);
    let mut pages = 0;
    while let Some(cursor) = envelope["next_cursor"].as_str().map(String::from) {
        envelope = b.envelope(&["page", &cursor], b"", CAP);
        assert_eq!(
            envelope["item_offset"].as_u64().unwrap_or(0),
            seen.len() as u64
        );
        if envelope["truncated"] == true {
            assert_eq!(
                envelope["artifact_path"],
                artifact.as_str(),
                "pages point at the same artifact"
            );
        }
        seen.extend(lines_of(&envelope));
        pages += 1;
        assert!(pages < 100, "paging must move forward");
    }
    assert!(
        pages > 5,
        "a page holds up to the per-result cap: {pages} pages"
    );
    assert_eq!(seen.len(), 20_000);
    assert_eq!(
        seen.iter().copied().collect::<BTreeSet<_>>(),
        (1..=20_000).collect()
    );
    // Paging wrote nothing new.
    assert_eq!(b.artifact_files().len(), 2, "{:?}", b.artifact_files());
}

#[test]
fn same_cursor_same_page() {
    let b = Briefly::new();
    let first = b.envelope(&["spill"], numbered(20_000).as_bytes(), CAP);
    let cursor = first["next_cursor"].as_str().unwrap();
    let a = b.run(&["page", cursor], b"");
    let c = b.run(&["page", cursor], b"");
    assert_eq!(a.stdout, c.stdout);
    // The cursor carries its budget: a smaller one given explicitly wins.
    let small = b.envelope(&["page", cursor, "--max-chars", "2000"], b"", 2_000);
    assert!(
        small["returned_items"].as_u64()
            < serde_json::from_slice::<Value>(&a.stdout).unwrap()["returned_items"].as_u64()
    );
    // A budget from the environment is a default: the cursor's own wins over it, and
    // one given on the command line over both.
    let chars = |args: &[&str], env: Option<&str>| {
        let mut command = b.command(args);
        if let Some(tokens) = env {
            command.env("BRIEFLY_CONTEXT_TOKENS", tokens);
        }
        String::from_utf8(common::feed(command, b"").stdout)
            .unwrap()
            .chars()
            .count()
    };
    let first = b.envelope(
        &["spill", "--max-chars", "3000"],
        numbered(20_000).as_bytes(),
        3_000,
    );
    let cursor = first["next_cursor"].as_str().unwrap();
    let paged = chars(&["page", cursor], Some("200000"));
    assert!(paged <= 3_000, "{paged}");
    assert!(chars(&["page", cursor, "--max-chars", "2000"], Some("200000")) <= 2_000);
    assert!(chars(&["page", cursor, "--context-tokens", "200000"], None) > 3_000);
}

#[test]
fn bad_cursors_and_missing_artifacts_are_clear_errors() {
    let b = Briefly::new();
    for cursor in ["garbage", "b1.%%%", "b1.e30"] {
        let out = b.run(&["page", cursor], b"");
        assert_eq!(out.status.code(), Some(2));
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("invalid cursor"),
            "{cursor}"
        );
    }
    let first = b.envelope(&["spill"], numbered(20_000).as_bytes(), CAP);
    std::fs::remove_file(first["artifact_path"].as_str().unwrap()).unwrap();
    let out = b.run(&["page", first["next_cursor"].as_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("expire a day after"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // A file of the user's that is missing is only missing.
    let out = b.run(&["read", "/nonexistent/notes.txt"], b"");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("No such file") && !said.contains("expire"),
        "{said}"
    );
}

#[test]
fn an_artifact_named_alone_is_read_from_the_artifact_directory() {
    let b = Briefly::new();
    let first = b.envelope(&["spill"], numbered(20_000).as_bytes(), CAP);
    let path = std::path::Path::new(first["artifact_path"].as_str().unwrap());
    let name = path.file_name().unwrap().to_str().unwrap();
    let read = b.envelope(&["read", name, "--offset", "7", "--limit", "1"], b"", CAP);
    assert_eq!(read["items"][0]["line"], 7, "{read}");
}

#[test]
fn a_relative_artifact_dir_gives_paths_that_work_from_anywhere() {
    let b = Briefly::new();
    let mut first = b.command(&["spill", "--artifact-dir", "rel"]);
    first.current_dir(b.dir.path());
    let output = feed(first, numbered(20_000).as_bytes());
    let envelope: Value = serde_json::from_slice(&output.stdout).unwrap();
    let artifact = envelope["artifact_path"].as_str().unwrap();
    assert!(
        artifact.starts_with(b.dir.path().join("rel").to_str().unwrap()),
        "{artifact}"
    );
    let cursor = envelope["next_cursor"].as_str().unwrap();
    let page = b.envelope(&["page", cursor], b"", CAP);
    assert!(page["returned_items"].as_u64().unwrap() > 0, "{page}");
}

/// `page` warns that the artifact changed since the cursor was made.
fn assert_changed(page: &Value) {
    assert!(
        page["warnings"]
            .to_string()
            .contains("changed since the cursor"),
        "{page}"
    );
}

#[test]
fn a_changed_artifact_is_noticed() {
    let b = Briefly::new();
    let first = b.envelope(&["spill"], numbered(20_000).as_bytes(), CAP);
    let artifact = first["artifact_path"].as_str().unwrap();
    let sidecar = format!("{artifact}.meta.json");
    let mut meta: Value = serde_json::from_slice(&std::fs::read(&sidecar).unwrap()).unwrap();
    meta["sha256"] = "0".repeat(64).into();
    std::fs::write(&sidecar, meta.to_string()).unwrap();
    let page = b.envelope(&["page", first["next_cursor"].as_str().unwrap()], b"", CAP);
    assert_changed(&page);

    // The artifact itself appended to, its sidecar as it was.
    let second = b.envelope(&["spill"], numbered(20_000).as_bytes(), CAP);
    let cursor = second["next_cursor"].as_str().unwrap();
    let unchanged = b.envelope(&["page", cursor], b"", CAP);
    assert_eq!(unchanged["warnings"], serde_json::json!([]), "{unchanged}");
    let artifact = second["artifact_path"].as_str().unwrap();
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(artifact)
        .unwrap();
    std::io::Write::write_all(&mut file, b"one more line\n").unwrap();
    let page = b.envelope(&["page", cursor], b"", CAP);
    assert_changed(&page);

    // Rewritten in place, to the same size, after its sidecar was written.
    let third = b.envelope(&["spill"], numbered(20_000).as_bytes(), CAP);
    let cursor = third["next_cursor"].as_str().unwrap();
    let artifact = third["artifact_path"].as_str().unwrap();
    let sidecar_written = std::fs::metadata(format!("{artifact}.meta.json"))
        .unwrap()
        .modified()
        .unwrap();
    let rewritten = std::fs::read(artifact).unwrap().to_ascii_uppercase();
    std::fs::write(artifact, &rewritten).unwrap();
    // A file system's clock may tick coarsely: the rewrite is set a second later.
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(artifact)
        .unwrap();
    file.set_modified(sidecar_written + std::time::Duration::from_secs(1))
        .unwrap();
    let page = b.envelope(&["page", cursor], b"", CAP);
    assert_changed(&page);
}

#[test]
fn of_no_input_nothing_is_left_out() {
    // The test reducers cannot know the counts of empty output, json finds no value:
    // still, nothing was left out, and there is nothing to keep.
    let b = Briefly::new();
    for reducer in [
        "text",
        "pytest",
        "cargo-test",
        "json",
        "diff",
        "journal",
        "docker",
        "table",
    ] {
        let envelope = b.envelope(&[reducer], b"", CAP);
        assert_eq!(envelope["truncated"], false, "{reducer}: {envelope}");
        assert_eq!(envelope["artifact_path"], Value::Null, "{reducer}");
    }
    assert!(b.artifact_files().is_empty(), "{:?}", b.artifact_files());
}

#[test]
fn a_file_read_by_a_relative_path_pages_from_any_directory() {
    let b = Briefly::new();
    let numbers: String = (1..=1000).map(|i| format!("{i}\n")).collect();
    std::fs::write(b.dir.path().join("numbers.txt"), numbers).unwrap();
    let mut read = b.command(&["read", "numbers.txt", "--max-chars", "1000"]);
    read.current_dir(b.dir.path());
    let out = common::feed(read, b"");
    let first: Value = serde_json::from_slice(&out.stdout).unwrap();
    let cursor = first["next_cursor"].as_str().expect("more pages");
    let mut page = b.command(&["page", cursor]);
    page.current_dir("/");
    let out = common::feed(page, b"");
    let next: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(next["item_offset"], first["returned_items"], "{next}");
}

#[test]
fn read_is_line_aware_bounded_and_never_spills() {
    let b = Briefly::new();
    let input = numbered(50_000);
    let first = b.envelope(&["spill"], input.as_bytes(), CAP);
    let artifact = first["artifact_path"].as_str().unwrap();
    let before = b.artifact_files();

    let some = b.envelope(
        &["read", artifact, "--offset", "100", "--limit", "3"],
        b"",
        CAP,
    );
    let texts: Vec<&str> = some["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["line 100", "line 101", "line 102"]);
    assert_eq!(some["stats"]["next_offset"], 103);
    let none = b.run(&["read", artifact, "--limit", "0"], b"");
    assert_eq!(none.status.code(), Some(2));
    assert_eq!(some["stats"]["total_lines"], 50_000);

    let bounded = b.envelope(&["read", artifact, "--max-chars", "3000"], b"", 3_000);
    let next = bounded["stats"]["next_offset"].as_u64().unwrap();
    assert_eq!(next, 1 + bounded["returned_items"].as_u64().unwrap());
    assert!(bounded["next_cursor"].is_string());

    let end = b.envelope(&["read", artifact, "--offset", "49999"], b"", CAP);
    assert_eq!(lines_of(&end), [49_999, 50_000]);
    assert_eq!(end["stats"]["next_offset"], Value::Null);
    assert_eq!(end["truncated"], false);

    // Paging a read goes on from where it stopped.
    let page = b.envelope(
        &["page", bounded["next_cursor"].as_str().unwrap()],
        b"",
        CAP,
    );
    assert_eq!(lines_of(&page)[0], next);
    assert_eq!(b.artifact_files(), before, "read never writes an artifact");
}

#[test]
fn grep_counts_and_shows_matches_with_context() {
    let b = Briefly::new();
    let mut input = numbered(30_000);
    input = input
        .replace("line 777\n", "line 777 Timeout talking to db\n")
        .replace("line 25000\n", "line 25000 timeout again\n");
    let first = b.envelope(&["spill"], input.as_bytes(), CAP);
    let artifact = first["artifact_path"].as_str().unwrap();
    let found = b.envelope(&["grep", artifact, "timeout", "-i", "-C", "2"], b"", CAP);
    assert_eq!(found["total_items"], 2);
    assert_eq!(found["stats"]["matches"], 2);
    assert_eq!(found["preview"], "matches");
    assert_eq!(found["items"][0]["line"], 777);
    assert_eq!(
        found["items"][0]["before"],
        serde_json::json!([[775, "line 775"], [776, "line 776"]])
    );
    assert_eq!(
        found["items"][1]["after"][1],
        serde_json::json!([25002, "line 25002"])
    );
    let many = b.envelope(
        &["grep", artifact, "^line", "--max-chars", "2000"],
        b"",
        2_000,
    );
    assert_eq!(many["total_items"], 30_000);
    assert!(many["next_cursor"].is_string());
    let bad = b.run(&["grep", artifact, "(unclosed"], b"");
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("invalid pattern"));
}

/// Sets the modification time of `path` `hours` back.
fn hours_old(path: &std::path::Path, hours: u64) {
    let file = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    let at = std::time::SystemTime::now() - std::time::Duration::from_secs(hours * 3600);
    file.set_modified(at).unwrap();
}

#[test]
fn new_artifacts_remove_expired_ones_unless_told_not_to() {
    let b = Briefly::new();
    let first = b.envelope(&["spill"], numbered(20_000).as_bytes(), CAP);
    let expired = std::path::PathBuf::from(first["artifact_path"].as_str().unwrap());
    let expire = || {
        hours_old(&expired, 25);
        hours_old(
            &std::path::PathBuf::from(format!("{}.meta.json", expired.display())),
            25,
        );
    };
    let others = b.artifacts().join("notes.txt");
    std::fs::write(&others, "mine").unwrap();
    hours_old(&others, 48);
    // The first run's gc was due (no stamp yet), so it ran then: make it due again.
    let stamp = b.artifacts().join(".gc-stamp");
    hours_old(&stamp, 2);
    expire();
    let mut by_env = b.command(&["spill"]);
    by_env.env("BRIEFLY_NO_GC", "1");
    for (how, command) in [
        ("--no-gc", b.command(&["--no-gc", "spill"])),
        ("BRIEFLY_NO_GC=1", by_env),
    ] {
        let out = feed(command, numbered(20_000).as_bytes());
        assert!(out.status.success());
        assert!(expired.exists(), "{how}: kept");
    }
    b.envelope(&["spill"], numbered(20_000).as_bytes(), CAP);
    assert!(!expired.exists(), "expired: removed by a new artifact");
    assert!(others.exists(), "not briefly's: never removed");
    let report = b.envelope(&["gc"], b"", CAP);
    assert_eq!(report["stats"]["others"], 1, "{report}");
    assert!(
        report["summary"]
            .as_str()
            .unwrap()
            .contains("not briefly's"),
        "{report}"
    );
}

#[test]
fn gc_removes_old_artifacts() {
    let b = Briefly::new();
    b.envelope(&["spill"], numbered(20_000).as_bytes(), CAP);
    assert_eq!(b.artifact_files().len(), 2);
    let kept = b.envelope(&["gc"], b"", CAP);
    assert_eq!(kept["stats"]["removed_files"], 0);
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let removed = b.envelope(&["gc", "--older-than", "1s"], b"", CAP);
    assert_eq!(removed["stats"]["removed_files"], 2);
    assert!(b.artifact_files().is_empty());
    assert_eq!(
        b.run(&["gc", "--older-than", "soon"], b"").status.code(),
        Some(2)
    );
    // A directory that is not there is not made to find nothing in it.
    let missing = b.dir.path().join("never-made");
    let none = b.envelope(
        &["--artifact-dir", missing.to_str().unwrap(), "gc"],
        b"",
        CAP,
    );
    assert_eq!(none["stats"]["removed_files"], 0, "{none}");
    assert!(!missing.exists());
}

/// Every page from `envelope` on at `cap` (each checked by `Briefly::envelope`), failing
/// on a page that has a cursor but no item; returns every item.
fn walk(b: &Briefly, mut envelope: Value, cap: usize) -> Vec<Value> {
    let max = cap.to_string();
    let mut items = envelope["items"].as_array().unwrap().clone();
    while let Some(cursor) = envelope["next_cursor"].as_str().map(String::from) {
        assert!(
            envelope["returned_items"].as_u64() > Some(0),
            "a page with a cursor must move forward (after {} items)",
            items.len()
        );
        envelope = b.envelope(&["page", &cursor, "--max-chars", &max], b"", cap);
        assert_eq!(envelope["item_offset"], items.len());
        items.extend(envelope["items"].as_array().unwrap().iter().cloned());
    }
    assert_eq!(envelope["total_items"], items.len());
    items
}

#[test]
fn an_input_returned_whole_pages_through_every_line_at_a_small_budget() {
    // 500 short lines, returned whole in runs of lines: each run small enough to fit a
    // page of 1,500 chars whole (runs of 1,000 bytes were cut, and their last lines
    // were on no page).
    let b = Briefly::new();
    let input: String = (1..=500).map(|i| format!("{i}\n")).collect();
    let first = b.envelope(&["text", "--max-chars", "1500"], input.as_bytes(), 1_500);
    assert!(
        first["summary"]
            .as_str()
            .unwrap()
            .ends_with("; returned whole, over pages (next_cursor)"),
        "{first}"
    );
    let items = walk(&b, first, 1_500);
    let mut lines = Vec::new();
    for item in &items {
        assert_eq!(item["kind"], "lines", "{item}");
        let text = item["text"].as_str().unwrap();
        let first_line = item["line"].as_u64().unwrap();
        assert_eq!(
            item["last"].as_u64().unwrap() - first_line + 1,
            text.lines().count() as u64
        );
        lines.extend(text.lines().map(|l| l.parse::<u64>().unwrap()));
    }
    assert_eq!(lines, (1..=500).collect::<Vec<_>>());
}

#[test]
fn long_lines_returned_whole_are_each_on_a_page_at_the_least_budgets() {
    // Lines of ~115 chars: runs of 400 bytes (four lines) were cut to fit a page of
    // 1,000 or 1,200 chars, and the next page began at the next run: 21 of 30 lines, or
    // 14, on no page.
    let b = Briefly::new();
    let input: String = (0..30)
        .map(|i| {
            format!(
                "2024-01-05 10:00:{i:02}.123  INFO 4242 --- [nio-8080-exec-{}] \
                 c.e.shop.web.OrderController : GET /orders/{i} served in {i}ms\n",
                i % 10
            )
        })
        .collect();
    for max in [1_000, 1_200] {
        let args = ["text", "--max-chars", &max.to_string()];
        let first = b.envelope(&args, input.as_bytes(), max);
        let items = walk(&b, first, max);
        let shown: Vec<&str> = items
            .iter()
            .flat_map(|item| item["text"].as_str().unwrap().lines())
            .collect();
        assert_eq!(shown, input.lines().collect::<Vec<_>>(), "at {max} chars");
    }
    // `run`'s text, and its pages, alike.
    let file = b.dir.path().join("orders.log");
    std::fs::write(&file, &input).unwrap();
    let path = file.to_str().unwrap();
    let args = [
        "run",
        "--max-chars",
        "1000",
        "--reducer",
        "text",
        "--",
        "cat",
        path,
    ];
    let first = b.envelope(&args, b"", 1_000);
    let items = walk(&b, first, 1_000);
    let shown: Vec<&str> = items
        .iter()
        .flat_map(|item| item["text"].as_str().unwrap().lines())
        .collect();
    assert_eq!(shown, input.lines().collect::<Vec<_>>(), "run");
}

#[test]
fn at_the_least_budget_pages_show_their_items_whole() {
    // Entries of ~200 chars beside a fixed part of ~800 (the cursor, the artifact's
    // path): the fixed part gives way, not the item, whose rest would be on no page.
    let b = Briefly::new();
    let input: String = (0..300)
        .map(|i| {
            let priority = if i == 5 { "0" } else { "6" };
            format!(
                "{{\"__REALTIME_TIMESTAMP\":\"{}\",\"PRIORITY\":\"{priority}\",\"_SYSTEMD_UNIT\":\"unit{}.service\",\"MESSAGE\":\"worker {i} finished batch\"}}\n",
                1_700_000_000_000_000u64 + i * 1_000_000,
                i % 3
            )
        })
        .collect();
    let first = b.envelope(&["journal", "--max-chars", "1000"], input.as_bytes(), 1_000);
    assert_eq!(first["items"][0]["priority"], "emerg", "{first}");
    let items = walk(&b, first, 1_000);
    assert!(items.len() > 1);
    for item in &items {
        assert!(item.is_object(), "whole, not a cut marker: {item}");
    }
}

#[test]
fn paging_moves_forward_when_an_item_takes_all_the_room() {
    // At 1,000 chars the items get 275: a line item of exactly that ({"line":N,"text":…}
    // with 255 chars of text) took one more with its comma and was left out, and every
    // page was empty with the same cursor.
    let b = Briefly::new();
    let input = format!("{}\n", "t".repeat(255)).repeat(9);
    let spilled = b.envelope(&["spill", "--max-chars", "1000"], input.as_bytes(), 1_000);
    let artifact = spilled["artifact_path"].as_str().unwrap();
    let first = b.envelope(&["read", artifact, "--max-chars", "1000"], b"", 1_000);
    let items = walk(&b, first, 1_000);
    // At this budget a line of 255 chars comes in two pieces.
    let mut lines: Vec<(u64, String)> = Vec::new();
    for item in &items {
        let (line, text) = (
            item["line"].as_u64().unwrap(),
            item["text"].as_str().unwrap(),
        );
        match lines.last_mut() {
            Some((last, joined)) if *last == line => joined.push_str(text),
            _ => lines.push((line, text.to_string())),
        }
    }
    let expected: Vec<(u64, String)> = (1..=9).map(|n| (n, "t".repeat(255))).collect();
    assert_eq!(lines, expected);
}

#[test]
fn a_long_grep_pattern_keeps_the_envelope_within_budget_and_pages() {
    // The options travel in the cursor: a long pattern made every envelope with a cursor
    // longer than the budget (31,221 chars against 19,660 for a 23 KB one).
    let b = Briefly::new();
    let input: String = (1..=100)
        .map(|i| {
            format!(
                "2024-01-01 12:00:{:02} kernel: event {i} on device {}\n",
                i % 60,
                i % 7
            )
        })
        .collect();
    let file = b.dir.path().join("kernel.log");
    std::fs::write(&file, &input).unwrap();
    let file = file.to_str().unwrap();
    let artifact = write_numbered(&b, 1_000);
    let alternatives: Vec<String> = (0..3_000).map(|i| format!("zzq{i}")).collect();
    let text_pattern = format!("kernel|{}", alternatives.join("|"));
    let grep_pattern = format!("line|{}", alternatives.join("|"));
    let runs = [
        (vec!["text", file, "--grep", &text_pattern], 1_000),
        (vec!["grep", &artifact, &grep_pattern], 1_000),
        (vec!["grep", &artifact, &grep_pattern], CAP),
    ];
    for (args, cap) in runs {
        let max = cap.to_string();
        let args = [&args[..], &["--max-chars", &max]].concat();
        let first = b.envelope(&args, b"", cap);
        let cursor = first["next_cursor"].as_str().unwrap().to_string();
        assert!(cursor.len() < 500, "{} chars", cursor.len());
        // Same cursor, same page.
        let again = b.run(&["page", &cursor, "--max-chars", &max], b"");
        assert_eq!(
            again.stdout,
            b.run(&["page", &cursor, "--max-chars", &max], b"").stdout
        );
        let items = walk(&b, first, cap);
        assert!(items.len() > 1, "{items:?}");
    }
    // Beside each artifact and its sidecar, a file of options per pattern, which gc
    // takes with the artifact.
    let files = b.artifact_files();
    let options = files
        .iter()
        .filter(|f| f.to_string_lossy().contains(".options-"))
        .count();
    assert_eq!((files.len(), options), (6, 2), "{files:?}");
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let removed = b.envelope(&["gc", "--older-than", "1s"], b"", CAP);
    assert_eq!(removed["stats"]["removed_files"], 6);
    assert!(b.artifact_files().is_empty());
}

#[test]
fn a_changed_options_file_is_refused() {
    let b = Briefly::new();
    let pattern = format!("line|{}", "x|".repeat(200));
    let first = b.envelope(
        &[
            "grep",
            "--max-chars",
            "2000",
            &write_numbered(&b, 1_000),
            &pattern,
        ],
        b"",
        2_000,
    );
    let cursor = first["next_cursor"].as_str().unwrap();
    let options = b
        .artifact_files()
        .into_iter()
        .find(|f| f.to_string_lossy().contains(".options-"))
        .unwrap();
    std::fs::write(
        &options,
        r#"{"pattern":"other","context":0,"ignore_case":false}"#,
    )
    .unwrap();
    let out = b.run(&["page", cursor], b"");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("does not match the cursor"), "{stderr}");
}

/// A spilled artifact of `n` numbered lines.
fn write_numbered(b: &Briefly, n: usize) -> String {
    let spilled = b.envelope(
        &["spill", "--max-chars", "1000"],
        numbered(n).as_bytes(),
        1_000,
    );
    spilled["artifact_path"].as_str().unwrap().to_string()
}

#[test]
fn every_page_with_a_cursor_moves_forward_whatever_the_artifact_paths_length() {
    let root = tempfile::tempdir().unwrap();
    // Over the budget, so that spill does not pass it through unchanged.
    let input = numbered(300);
    for length in [150, 200, 250] {
        // A long artifact directory: its path is in artifact_path and in each cursor.
        let dir = root.path().join("d".repeat(length));
        let b = Briefly::new();
        let page = |args: &[&str], stdin: &[u8]| -> Value {
            let mut all = vec![
                "--artifact-dir",
                dir.to_str().unwrap(),
                "--max-chars",
                "1000",
            ];
            all.extend_from_slice(args);
            let out = b.run(&all, stdin);
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let chars = String::from_utf8_lossy(&out.stdout)
                .trim_end()
                .chars()
                .count();
            assert!(chars <= 1_000, "{length}: {chars} chars");
            serde_json::from_slice(&out.stdout).unwrap()
        };
        for reducer in ["text", "spill"] {
            let mut envelope = page(&[reducer], input.as_bytes());
            for _ in 0..5_000 {
                let Some(cursor) = envelope["next_cursor"].as_str().map(String::from) else {
                    break;
                };
                assert!(
                    envelope["returned_items"].as_u64().unwrap() > 0,
                    "{length} {reducer}: {envelope}"
                );
                envelope = page(&["page", &cursor], b"");
            }
            assert_eq!(
                envelope["next_cursor"],
                Value::Null,
                "{length} {reducer}: pages end"
            );
            if envelope["returned_items"] == 0 {
                // Nothing fits beside the path: no cursor, but the artifact holds it all.
                assert_eq!(envelope["truncated"], true);
                assert!(envelope["artifact_path"].is_string());
            }
        }
    }
}

#[test]
fn a_read_cursor_notices_that_its_file_changed() {
    let b = Briefly::new();
    let file = b.dir.path().join("growing.log");
    std::fs::write(&file, numbered(20_000)).unwrap();
    let first = b.envelope(&["read", file.to_str().unwrap()], b"", CAP);
    let cursor = first["next_cursor"].as_str().unwrap().to_string();
    let unchanged = b.envelope(&["page", &cursor], b"", CAP);
    assert_eq!(unchanged["warnings"], serde_json::json!([]));
    std::fs::write(&file, numbered(30_000)).unwrap();
    let changed = b.envelope(&["page", &cursor], b"", CAP);
    common::assert_warns(&changed, &["the file changed since the cursor was made"]);
}

#[test]
fn read_and_grep_reach_the_end_of_a_line_of_megabytes() {
    // A minified document of 2 MB on one line, past the 1 MiB other commands read of a
    // line: `read` and `grep` are the way back to its bytes.
    let b = Briefly::new();
    let file = b.dir.path().join("minified.json");
    let line = format!(
        "{{\"a\":\"{}\",\"end\":\"FAILED_AT_END\"}}",
        "x".repeat(2_000_000)
    );
    std::fs::write(&file, format!("{line}\nnext line\n")).unwrap();
    let path = file.to_str().unwrap();
    let found = b.envelope(&["grep", path, "FAILED_AT_END"], b"", CAP);
    assert_eq!(found["stats"]["matches"], 1, "{found}");
    let column = (line.len() - 20).to_string();
    let read = b.envelope(
        &["read", path, "--column", &column, "--limit", "1"],
        b"",
        CAP,
    );
    let text = read["items"][0]["text"].as_str().unwrap();
    assert!(text.contains("FAILED_AT_END"), "{read}");
    // Given, --max-line-bytes holds for them too.
    let cut = b.envelope(
        &["--max-line-bytes", "1048576", "grep", path, "FAILED_AT_END"],
        b"",
        CAP,
    );
    assert_eq!(cut["stats"]["matches"], 0, "{cut}");
}

#[test]
fn an_edited_cursors_budget_and_options_are_bounded() {
    // A cursor is text anyone can edit: past the bounds the command line sets, it is an
    // error of briefly's (exit 2), never an abort or a page of any size.
    let b = Briefly::new();
    let first = b.envelope(&["spill"], numbered(20_000).as_bytes(), CAP);
    let cursor = common::decode_cursor(first["next_cursor"].as_str().unwrap());
    for (key, value, said) in [
        ("c", json!(100_000_000), "above the maximum of 16777216"),
        (
            "o",
            json!({"tail": 10_000_000_000_000_u64}),
            "tail of 10000000000000 lines",
        ),
    ] {
        let mut edited = cursor.clone();
        edited[key] = value;
        let out = b.run(&["page", &common::encode_cursor(&edited)], b"");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{key}: {stderr}");
        assert!(stderr.contains(said), "{key}: {stderr}");
    }
}

#[test]
fn a_cursors_budget_is_no_less_than_the_least() {
    let b = Briefly::new();
    let first = b.envelope(&["spill"], numbered(20_000).as_bytes(), CAP);
    let mut edited = common::decode_cursor(first["next_cursor"].as_str().unwrap());
    edited["c"] = 10.into();
    let out = b.run(&["page", &common::encode_cursor(&edited)], b"");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed = String::from_utf8(out.stdout).unwrap();
    let page: Value = serde_json::from_str(&printed).unwrap();
    assert!(page["returned_items"].as_u64().unwrap() > 0, "{page}");
    assert!(printed.chars().count() <= 1_000);
}

#[test]
fn a_long_line_is_read_in_pieces_that_pages_go_on_with() {
    // A minified file's one long line: before, its head was shown cut and no page or
    // option reached the rest.
    let b = Briefly::new();
    let long: String = (0..9_000).map(|i| format!("w{i}é日 ")).collect();
    let file = b.dir.path().join("min.js");
    std::fs::write(&file, format!("first\n{long}\nlast\n")).unwrap();
    let file = file.to_str().unwrap();
    for cap in [1_000, 3_000, CAP] {
        let max = cap.to_string();
        let first = b.envelope(&["read", file, "--max-chars", &max], b"", cap);
        assert_eq!(first["items"][0]["text"], "first");
        let items = walk(&b, first, cap);
        let pieces: Vec<&Value> = items.iter().filter(|i| i["line"] == 2).collect();
        assert!(pieces.len() > 1, "at {cap}: {}", pieces.len());
        let mut column = 1;
        let mut joined = String::new();
        for piece in &pieces {
            assert_eq!(piece["column"], column, "at {cap}: {piece}");
            assert_eq!(piece["line_chars"], long.chars().count());
            let text = piece["text"].as_str().unwrap();
            column += text.chars().count();
            joined.push_str(text);
        }
        assert_eq!(joined, long, "at {cap}: every character once, in order");
        assert_eq!(items.last().unwrap()["text"], "last");
    }
    // A page ending inside the line says where the next one starts, and `--column`
    // starts there.
    let first = b.envelope(&["read", file, "--max-chars", "3000"], b"", 3_000);
    let (next, column) = (
        &first["stats"]["next_offset"],
        &first["stats"]["next_column"],
    );
    assert_eq!(next, 2, "{first}");
    let last = first["items"].as_array().unwrap().last().unwrap();
    let end =
        last["column"].as_u64().unwrap() + last["text"].as_str().unwrap().chars().count() as u64;
    assert_eq!(column.as_u64(), Some(end));
    let summary = first["summary"].as_str().unwrap();
    assert_eq!(
        summary,
        format!(
            "lines 1–2 of 3, line 2 to character {} of {}",
            end - 1,
            long.chars().count()
        )
    );
    let column = column.to_string();
    let on = b.envelope(
        &[
            "read",
            file,
            "--offset",
            "2",
            "--column",
            &column,
            "--max-chars",
            "3000",
        ],
        b"",
        3_000,
    );
    let page = b.envelope(
        &[
            "page",
            first["next_cursor"].as_str().unwrap(),
            "--max-chars",
            "3000",
        ],
        b"",
        3_000,
    );
    assert_eq!(on["items"][0], page["items"][0]);
    assert_eq!(on["items"][0]["column"], first["stats"]["next_column"]);
    // The page's stats are of the page: from its own first line, as that read's are.
    assert_eq!(page["stats"]["offset"], 2, "{page}");
    assert_eq!(page["stats"], on["stats"]);
    // Past the line's end: said, and the next lines read.
    let past = b.envelope(&["read", file, "--offset", "3", "--column", "5"], b"", CAP);
    assert_eq!(
        past["warnings"][0],
        "--column 5 is past the end of line 3: it has 4 characters"
    );
    assert_eq!(past["returned_items"], 0);
    // Past what the framing read of a line longer than --max-line-bytes: said so, with
    // what would read on.
    let at_column_150 = |max_line_bytes: &str| {
        let args = [
            "--max-line-bytes",
            max_line_bytes,
            "read",
            file,
            "--offset",
            "2",
        ];
        b.envelope(&[&args[..], &["--column", "150"]].concat(), b"", CAP)
    };
    let past = at_column_150("100");
    assert!(
        past["warnings"].as_array().unwrap().iter().any(|w| {
            let w = w.as_str().unwrap();
            w.starts_with("--column 150 is past what was read of line 2: its first ")
                && w.ends_with(" characters; the line is longer than --max-line-bytes, which a larger one reads on")
        }),
        "{past}"
    );
    assert_eq!(at_column_150("4000")["items"][0]["column"], 150);
    let bad = b.run(&["read", file, "--column", "0"], b"");
    assert!(!bad.status.success());
    // Lines count from 1 too.
    let bad = b.run(&["read", file, "--offset", "0"], b"");
    assert_eq!(bad.status.code(), Some(2));
}
