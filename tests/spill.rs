//! `briefly spill`: unchanged within the budget, a bounded preview and the artifact above it.

mod common;

use common::{assert_warns, numbered, sha256_hex, Briefly};
use serde_json::Value;

const CAP: usize = 19_660; // the per-result cap at the default 32,768 tokens

#[test]
fn below_the_cap_comes_back_byte_for_byte() {
    let b = Briefly::new();
    for input in [
        &b""[..],
        b"one line, no newline",
        b"a\r\nb\r\n",
        "ünïcödé ✓\n".as_bytes(),
        b"bad \xff utf8\n",
    ] {
        let out = b.run(&["spill"], input);
        assert!(out.status.success());
        assert_eq!(out.stdout, input);
    }
    assert!(
        b.artifact_files().is_empty(),
        "nothing left out, nothing kept"
    );
}

#[test]
fn exactly_at_the_cap_is_unchanged_and_one_more_spills() {
    let b = Briefly::new();
    // Two-byte characters: the cap counts characters, not bytes.
    let at_cap = "é".repeat(CAP);
    assert_eq!(
        b.run(&["spill"], at_cap.as_bytes()).stdout,
        at_cap.as_bytes()
    );
    let over = format!("{at_cap}x");
    let envelope = b.envelope(&["spill"], over.as_bytes(), CAP);
    assert_eq!(envelope["truncated"], true);
    let artifact = envelope["artifact_path"].as_str().unwrap();
    assert_eq!(std::fs::read(artifact).unwrap(), over.as_bytes());
}

#[test]
fn oversized_input_gets_a_smaller_preview_with_the_errors_from_the_middle() {
    let b = Briefly::new();
    let mut input = numbered(200_000);
    input = input.replace("line 123456\n", "line 123456 ERROR: disk quota exceeded\n");
    let out = b.run(&["spill", "--id", "call_42"], input.as_bytes());
    let printed = String::from_utf8(out.stdout).unwrap();
    let envelope: Value = serde_json::from_str(&printed).unwrap();
    common::check_invariants(&envelope, printed.chars().count(), CAP);
    assert!(
        printed.len() < 4_000,
        "the preview is small: {} chars",
        printed.len()
    );
    assert_eq!(envelope["source"], "spill");
    assert_eq!(envelope["preview"], "head+tail");
    assert_eq!(envelope["total_items"], 200_000);
    assert_eq!(envelope["raw"]["lines"], 200_000);
    let lines: Vec<u64> = envelope["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["line"].as_u64().unwrap())
        .collect();
    // The first line, the last, the error from the middle, then the rest of the head.
    assert_eq!(&lines[..7], &[1, 200_000, 123_456, 2, 3, 4, 5]);
    // The artifact is the input, byte for byte, and its sidecar says so.
    let artifact = std::path::PathBuf::from(envelope["artifact_path"].as_str().unwrap());
    assert!(artifact
        .file_name()
        .unwrap()
        .to_str()
        .unwrap()
        .starts_with("call_42-"));
    assert_eq!(std::fs::read(&artifact).unwrap(), input.as_bytes());
    let sidecar: Value = serde_json::from_slice(
        &std::fs::read(format!("{}.meta.json", artifact.display())).unwrap(),
    )
    .unwrap();
    assert_eq!(sidecar["sha256"], sha256_hex(&artifact));
    assert_eq!(sidecar["bytes"], input.len());
    assert_eq!(sidecar["source"], "spill");
    assert_eq!(sidecar["id"], "call_42");
    assert!(envelope["artifact_expires"].is_string());
}

#[test]
fn a_huge_single_line_fits_and_keeps_whole_characters() {
    let b = Briefly::new();
    let line = "日本語".repeat(10_000_000); // 30 M characters, 90 MB
    let envelope = b.envelope(&["spill"], line.as_bytes(), CAP);
    let text = envelope["items"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("日本語日本語"));
    assert!(text.contains("…[cut "), "an explicit marker");
    assert!(envelope["warnings"][0]
        .as_str()
        .unwrap()
        .contains("longer than"));
    let artifact = envelope["artifact_path"].as_str().unwrap();
    assert_eq!(
        std::fs::metadata(artifact).unwrap().len(),
        line.len() as u64
    );
}

#[test]
fn invalid_utf8_and_binary_input_are_reported() {
    let b = Briefly::new();
    let mut input = Vec::new();
    for i in 0..20_000u32 {
        input.extend_from_slice(&i.to_le_bytes());
        input.extend_from_slice(b"\xff\xfe\x00\n");
    }
    let envelope = b.envelope(&["spill"], &input, CAP);
    assert_warns(&envelope, &["invalid UTF-8", "input looks binary"]);
    assert_eq!(
        std::fs::read(envelope["artifact_path"].as_str().unwrap()).unwrap(),
        input
    );
}

#[test]
fn the_budget_scales_with_the_context_window() {
    let b = Briefly::new();
    let input = numbered(6_000); // about 63,000 characters
    let small = b.run(&["spill", "--context-tokens", "8192"], input.as_bytes());
    assert!(
        String::from_utf8(small.stdout).unwrap().starts_with('{'),
        "spilled at 8K"
    );
    let large = b.run(&["--context-tokens", "200000", "spill"], input.as_bytes());
    assert_eq!(large.stdout, input.as_bytes(), "unchanged at 200K");
    let env = b
        .command(&["spill"])
        .env("BRIEFLY_CONTEXT_TOKENS", "200000")
        .output()
        .unwrap();
    assert!(env.status.success());
    let direct = b.run(&["spill", "--max-chars", "70000"], input.as_bytes());
    assert_eq!(
        direct.stdout,
        input.as_bytes(),
        "--max-chars sets the cap directly"
    );
}

#[test]
fn a_real_tokenizer_spills_what_chars4_lets_through() {
    let b = Briefly::new();
    // 15,000 CJK characters: under the 19,660-char cap, but about a token each.
    let input = "漢字かな交じり文".repeat(1_875);
    assert_eq!(b.run(&["spill"], input.as_bytes()).stdout, input.as_bytes());
    let out = b.run(&["spill", "--tokenizer", "cl100k"], input.as_bytes());
    let envelope: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(envelope["truncated"], true);
    let bad = b.run(&["spill", "--tokenizer", "gpt9"], b"x");
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown tokenizer"));
}

#[test]
fn text_format_fits_the_same_budget() {
    let b = Briefly::new();
    let input = numbered(100_000);
    let out = b.run(
        &["spill", "--format", "text", "--max-chars", "2000"],
        input.as_bytes(),
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.chars().count() <= 2_000, "{}", text.len());
    assert!(text.starts_with("[spill] ok"));
    assert!(text.contains("next: briefly page b1."));
    assert!(text.contains("artifact: "));
}

#[test]
fn malicious_ids_stay_in_the_artifact_directory() {
    let b = Briefly::new();
    let input = numbered(50_000);
    let long = "x".repeat(10_000);
    for id in [
        "../../escape",
        "$(whoami)",
        "/etc/passwd",
        "a\u{1}b",
        long.as_str(),
    ] {
        let envelope = b.envelope(&["spill", "--id", id], input.as_bytes(), CAP);
        let path = std::path::PathBuf::from(envelope["artifact_path"].as_str().unwrap());
        assert_eq!(path.parent().unwrap(), b.artifacts(), "{id}");
        assert!(path.file_name().unwrap().len() < 80);
    }
    assert!(!b.dir.path().join("escape").exists());
}

#[test]
fn artifact_write_failure_is_marked_and_still_fits() {
    let b = Briefly::new();
    let input = numbered(50_000);
    // The artifact directory cannot be made: a file stands in its way.
    let blocker = b.dir.path().join("blocker");
    std::fs::write(&blocker, b"").unwrap();
    let out = b.run(
        &[
            "spill",
            "--artifact-dir",
            blocker.join("sub").to_str().unwrap(),
        ],
        input.as_bytes(),
    );
    assert!(out.status.success());
    let printed = String::from_utf8(out.stdout).unwrap();
    let envelope: Value = serde_json::from_str(&printed).unwrap();
    common::check_invariants(&envelope, printed.chars().count(), CAP);
    assert!(envelope["artifact_path"].is_null() && envelope["next_cursor"].is_null());
    assert!(
        envelope["warnings"]
            .to_string()
            .contains("artifact not written"),
        "{}",
        envelope["warnings"]
    );
}

#[test]
fn a_write_failing_midway_is_marked_too() {
    let b = Briefly::new();
    let input = numbered(200_000); // ~2.3 MB, over a 1 MB file size limit
    let script = format!(
        "ulimit -f 1024; trap '' XFSZ; exec {} spill",
        env!("CARGO_BIN_EXE_briefly")
    );
    let mut command = std::process::Command::new("sh");
    command
        .args(["-c", &script])
        .env("BRIEFLY_ARTIFACT_DIR", b.artifacts());
    let out = common::feed(command, input.as_bytes());
    assert!(out.status.success());
    let envelope: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        envelope["warnings"]
            .to_string()
            .contains("artifact not written"),
        "{}",
        envelope["warnings"]
    );
    assert!(envelope["artifact_path"].is_null());
    assert!(
        b.artifact_files().is_empty(),
        "no partial artifact left behind: {:?}",
        b.artifact_files()
    );
}

#[test]
fn unreadable_input_is_a_one_line_error() {
    let b = Briefly::new();
    for path in ["/nonexistent/file", "/"] {
        let out = b.run(&["spill", path], b"");
        assert_eq!(out.status.code(), Some(2), "{path}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with("briefly: cannot read"), "{stderr}");
    }
}

#[test]
fn a_closed_stdout_exits_quietly() {
    let b = Briefly::new();
    // Unchanged output of 3 MB: far more than a pipe holds, so the write meets EPIPE.
    let script = format!(
        "{} spill --max-chars 10000000 | head -c 10 >/dev/null",
        env!("CARGO_BIN_EXE_briefly")
    );
    let input = numbered(300_000);
    let mut child = std::process::Command::new("bash")
        .args(["-o", "pipefail", "-c", &script])
        .env("BRIEFLY_ARTIFACT_DIR", b.artifacts())
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{:?}", out.status);
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn metrics_record_each_result() {
    let b = Briefly::new();
    let metrics = b.dir.path().join("metrics.jsonl");
    let metrics = metrics.to_str().unwrap();
    b.run(&["spill", "--metrics", metrics, "--id", "small"], b"tiny\n");
    b.run(
        &["spill", "--metrics", metrics, "--id", "big"],
        numbered(100_000).as_bytes(),
    );
    let events: Vec<Value> = std::fs::read_to_string(metrics)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(events.len(), 2);
    assert_eq!(events[0]["event"], "tool_result_budget");
    assert_eq!(events[0]["tool_call_id"], "small");
    assert_eq!(events[0]["persisted"], false);
    assert_eq!(events[0]["raw_chars"], 5);
    assert_eq!(events[1]["persisted"], true);
    assert_eq!(events[1]["threshold_chars"], CAP);
    assert!(events[1]["raw_chars"].as_u64().unwrap() > 1_000_000);
    assert!(events[1]["inline_chars"].as_u64().unwrap() < 4_000);
    assert_eq!(
        events[1]["estimated_raw_tokens"],
        events[1]["raw_chars"].as_u64().unwrap() / 4
    );
    // `briefly stats` summarizes them; the file, by a relative path too, is named by
    // its absolute one.
    let mut command = b.command(&["stats", "metrics.jsonl"]);
    let out = command.current_dir(b.dir.path()).output().unwrap();
    let stats: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(stats["summary"]
        .as_str()
        .unwrap()
        .starts_with("2 results, 1 spilled, 0 artifact write failures"));
    assert_eq!(stats["items"][0]["tool"], "spill");
    assert_eq!(stats["artifact_path"], metrics);
}

#[test]
fn keep_saves_the_artifact_even_when_nothing_is_left_out() {
    let b = Briefly::new();
    let out = b.run(&["spill", "--keep", "--id", "kept"], b"small\n");
    assert_eq!(out.stdout, b"small\n", "still unchanged");
    let stderr = String::from_utf8(out.stderr).unwrap();
    let path = stderr.trim().strip_prefix("briefly: kept ").unwrap();
    assert_eq!(std::fs::read(path).unwrap(), b"small\n");
    // Through the budget stage too: a result with nothing left out keeps its artifact.
    let envelope = b.envelope(&["read", path, "--keep"], b"", CAP);
    assert_eq!(envelope["truncated"], false);
    let text = b.envelope(&["text", "--keep"], b"one\n", CAP);
    assert_eq!(text["truncated"], false);
    // It says where (artifact_path is for what was left out).
    let kept = text["kept_artifact"].as_str().unwrap();
    assert_eq!(std::fs::read(kept).unwrap(), b"one\n");
    let run = b.envelope(&["run", "--", "echo", "hi"], b"", CAP);
    assert_eq!(run.get("kept_artifact"), None, "not asked to keep");
    assert_eq!(b.artifact_files().len(), 4, "{:?}", b.artifact_files());
}

#[test]
fn max_line_bytes_sets_the_framing_limit() {
    let b = Briefly::new();
    let input = format!("{}\n{}\n", "a".repeat(5_000), numbered(30_000));
    let envelope = b.envelope(&["spill", "--max-line-bytes", "100"], input.as_bytes(), CAP);
    assert_eq!(envelope["items"][0]["text"].as_str().unwrap().len(), 100);
    assert_eq!(envelope["items"][0]["cut"], true);
    assert!(envelope["warnings"][0]
        .as_str()
        .unwrap()
        .contains("longer than 100 bytes"));
}

#[test]
fn metrics_file_from_the_environment() {
    let b = Briefly::new();
    let metrics = b.dir.path().join("env-metrics.jsonl");
    let out = b
        .command(&["spill"])
        .env("BRIEFLY_METRICS", &metrics)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        std::fs::read_to_string(&metrics).unwrap().lines().count(),
        1
    );
}

#[test]
fn a_dash_reads_standard_input_for_every_command_that_takes_a_file() {
    let briefly = Briefly::new();
    let junit = br#"<testsuite name="t" tests="1" failures="0"><testcase classname="t" name="a"/></testsuite>"#;
    let turn = br#"[{"id":"a","content":"hello"}]"#;
    let cases: [(&[&str], &[u8]); 13] = [
        (&["spill"], b"one\ntwo\n"),
        (&["text"], b"INFO up\nERROR down\n"),
        (
            &["diff"],
            b"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n",
        ),
        (&["pytest"], b"==== 1 passed in 0.01s ====\n"),
        (&["cargo-test"], b"test result: ok. 1 passed; 0 failed\n"),
        (&["journal"], b"{\"MESSAGE\":\"up\",\"PRIORITY\":\"6\"}\n"),
        (&["docker"], b"2024-01-01T00:00:00Z up\n"),
        (&["json"], b"{\"a\": 1}"),
        (&["table"], b"a,b\n1,2\n"),
        (&["turn"], turn),
        (
            &["context", "measure"],
            br#"[{"role":"user","content":"hi"}]"#,
        ),
        (
            &["context", "compact"],
            br#"[{"role":"user","content":"hi"}]"#,
        ),
        (&["--format", "text", "text"], b"WARN low disk\n"),
    ];
    // What differs from run to run: the artifact's name and its expiry.
    let comparable = |stdout: &[u8]| {
        let text = String::from_utf8_lossy(stdout).into_owned();
        match serde_json::from_str::<Value>(&text) {
            Ok(mut value) => {
                if let Some(object) = value.as_object_mut() {
                    object.remove("artifact_path");
                    object.remove("artifact_expires");
                }
                value.to_string()
            }
            Err(_) => text,
        }
    };
    for (args, stdin) in cases {
        let piped = briefly.run(args, stdin);
        let dashed = briefly.run(&[args, &["-"]].concat(), stdin);
        assert!(piped.status.success(), "{args:?}: {piped:?}");
        assert!(dashed.status.success(), "{args:?} -: {dashed:?}");
        assert!(!dashed.stdout.is_empty(), "{args:?} -");
        assert_eq!(
            comparable(&dashed.stdout),
            comparable(&piped.stdout),
            "{args:?} -"
        );
    }
    // `--junit` takes a file: `-` reads the report from standard input.
    let report = briefly.dir.path().join("report.xml");
    std::fs::write(&report, junit).unwrap();
    let from_file = briefly.run(&["pytest", "--junit", report.to_str().unwrap()], b"");
    let dashed = briefly.run(&["pytest", "--junit", "-"], junit);
    assert!(dashed.status.success(), "--junit -: {dashed:?}");
    assert_eq!(comparable(&dashed.stdout), comparable(&from_file.stdout));
}

#[test]
fn read_and_grep_take_standard_input_and_keep_it_for_the_next_page() {
    let briefly = Briefly::new();
    let input = numbered(5000);
    let page = |args: &[&str], stdin: &[u8]| -> Value {
        let out = briefly.run(args, stdin);
        assert!(out.status.success(), "{args:?}: {out:?}");
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let first = page(&["read", "-", "--limit", "3"], input.as_bytes());
    assert_eq!(first["returned_items"], 3, "{first}");
    assert_eq!(first["stats"]["next_offset"], 4);
    // The rest is in the kept artifact, byte for byte: the next page reads it.
    let kept = first["kept_artifact"].as_str().expect("kept").to_string();
    assert_eq!(std::fs::read(&kept).unwrap(), input.as_bytes());
    let next = page(&["read", &kept, "--offset", "4", "--limit", "2"], b"");
    assert_eq!(next["items"][0]["line"], 4, "{next}");
    let found = page(&["grep", "-", "line 4999"], input.as_bytes());
    assert_eq!(found["stats"]["matches"], 1, "{found}");
    assert_eq!(found["items"][0]["line"], 4999);
    assert!(found["kept_artifact"].is_string(), "{found}");
    // A pipe named as the file (`<(cmd)`, `/dev/stdin`) is read once, as `-` is: its
    // copy is the artifact the cursor pages, not the pipe.
    for reducer in ["read", "grep"] {
        let args: &[&str] = match reducer {
            "read" => &["read", "/dev/stdin", "--limit", "3"],
            _ => &["grep", "/dev/stdin", "line 4999"],
        };
        let piped = page(args, input.as_bytes());
        let kept = piped["kept_artifact"].as_str().expect("kept");
        assert_eq!(std::fs::read(kept).unwrap(), input.as_bytes(), "{piped}");
        assert_ne!(piped["artifact_path"], "/dev/stdin", "{piped}");
    }
}

#[test]
fn emit_groups_cannot_go_to_standard_output() {
    let briefly = Briefly::new();
    let mut command = briefly.command(&["text", "--emit-groups", "-"]);
    command.current_dir(briefly.dir.path());
    let out = common::feed(command, b"ERROR x\n");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("standard output holds the result"));
    assert!(!briefly.dir.path().join("-").exists());
}
