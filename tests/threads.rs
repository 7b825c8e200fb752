//! The reducers that work one batch ahead on a second thread (`text`, `docker`,
//! `pytest`, `cargo-test`, `spill`) give exactly the result they give on one thread
//! (`BRIEFLY_THREADS=1`), on inputs long enough for the thread to start.
//!
//! Uses the loghub sample logs in ../shared/data/loghub (https://github.com/logpai/loghub;
//! Zhu et al., "Loghub: A Large Collection of System Log Datasets for AI-driven Log
//! Analytics", ISSRE 2023; see the LICENSE there).

mod common;

use common::{assert_warns, feed, Briefly};
use serde_json::Value;
use std::path::PathBuf;

/// The envelope of `briefly ARGS` over `input`, on one thread or two, without what
/// names the run's own artifact.
fn reduced(briefly: &Briefly, args: &[&str], input: &[u8], one_thread: bool) -> Value {
    let mut command = briefly.command(args);
    if one_thread {
        command.env("BRIEFLY_THREADS", "1");
    } else {
        command.env_remove("BRIEFLY_THREADS");
    }
    let output = feed(command, input);
    let mut envelope: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&output.stderr)));
    let object = envelope.as_object_mut().expect("an object");
    object.remove("artifact_path");
    object.remove("next_cursor");
    // When the artifact expires depends on the second it was written.
    object.remove("artifact_expires");
    envelope
}

fn same_on_one_thread_and_two(args: &[&str], input: &[u8]) -> Value {
    let briefly = Briefly::new();
    let two = reduced(&briefly, args, input, false);
    let one = reduced(&briefly, args, input, true);
    assert_eq!(one, two, "{args:?}");
    two
}

fn loghub(set: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../shared/data/loghub/{set}/{set}_2k.log"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn text_folds_the_same_on_two_threads() {
    // 12,000 real lines, with colour codes, a traceback and a panic among them.
    let mut input = String::new();
    for set in ["HDFS", "Spark", "Zookeeper", "OpenStack", "Linux", "Apache"] {
        input.push_str(&loghub(set));
    }
    input.push_str("\x1b[31mERROR\x1b[0m coloured failure\n");
    input.push_str(
        "Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\nKeyError: 'x'\n",
    );
    input.push_str("thread 'main' panicked at src/main.rs:2:5:\nboom\n");
    input.push_str(&loghub("BGL"));
    let envelope = same_on_one_thread_and_two(&["text"], input.as_bytes());
    assert!(envelope["stats"]["lines"].as_u64().unwrap() > 12_000);
    // --grep and --level are worked out ahead too.
    same_on_one_thread_and_two(
        &["text", "--grep", "block|Exception", "--level", "info"],
        input.as_bytes(),
    );

    // Which lines were folded together is the same, line by line.
    let briefly = Briefly::new();
    let groups = |one_thread: bool| {
        let file = briefly
            .dir
            .path()
            .join(format!("groups-{one_thread}.jsonl"));
        reduced(
            &briefly,
            &["text", "--emit-groups", file.to_str().unwrap()],
            input.as_bytes(),
            one_thread,
        );
        std::fs::read_to_string(file).unwrap()
    };
    let (two, one) = (groups(false), groups(true));
    assert_eq!(two.lines().count(), input.lines().count());
    assert!(two == one, "--emit-groups differ");
}

#[test]
fn docker_folds_the_same_on_two_threads() {
    let mut input = String::new();
    for i in 0..6_000u32 {
        let time = format!(
            "2026-11-29T10:{:02}:{:02}.{:09}Z",
            i / 3600 % 60,
            i / 60 % 60,
            i
        );
        let (log, stream) = match i % 500 {
            7 => ("Traceback (most recent call last):\n".to_string(), "stderr"),
            8 => (
                "  File \"/app/db.py\", line 3, in query\n".to_string(),
                "stderr",
            ),
            9 => ("OperationalError: closed\n".to_string(), "stderr"),
            // Split by the driver at 16 KiB: no newline until the last part.
            20 => ("x".repeat(16_384), "stdout"),
            21 => ("tail of the long line\n".to_string(), "stdout"),
            n if n % 3 == 0 => (
                format!("{{\"level\":\"info\",\"msg\":\"served\",\"path\":\"/items/{i}\"}}\n"),
                "stdout",
            ),
            n if n % 97 == 0 => (format!("level=error msg=\"db down\" try={i}\r\n"), "stderr"),
            _ => (
                format!(
                    "{time} INFO worker-{} request id={i:08x} took {}ms\n",
                    i % 16,
                    i % 997
                ),
                "stdout",
            ),
        };
        input
            .push_str(&serde_json::json!({"log": log, "stream": stream, "time": time}).to_string());
        input.push('\n');
    }
    input.push_str("not a json-file line\n");
    let envelope = same_on_one_thread_and_two(&["docker"], input.as_bytes());
    assert_eq!(envelope["stats"]["problems"]["joined_partials"], 12);
    assert_eq!(envelope["stats"]["problems"]["bad_lines"], 1);
    same_on_one_thread_and_two(
        &["docker", "--stream", "stderr", "--tail", "50"],
        input.as_bytes(),
    );
}

#[test]
fn pytest_reads_the_same_on_two_threads() {
    let mut input = String::from(
        "============================= test session starts ==============================\n",
    );
    input.push_str("collected 400 items\n\n");
    input.push_str(&format!("tests/test_a.py {}\n\n", ".F".repeat(200)));
    input.push_str(
        "=================================== FAILURES ===================================\n",
    );
    for t in 0..200 {
        input.push_str(&format!("\x1b[31m\x1b[1m_________________________________ test_{t} __________________________________\x1b[0m\n\n"));
        input.push_str(&format!("    def test_{t}():\n>       assert {t} == 0\n\x1b[1m\x1b[31mE       assert {t} == 0\x1b[0m\n\n"));
        input.push_str(&format!("tests/test_a.py:{}: AssertionError\n", t + 1));
        input.push_str(
            "----------------------------- Captured stdout call -----------------------------\n",
        );
        for k in 0..20 {
            let level = if k == 13 { "ERROR" } else { "INFO" };
            input.push_str(&format!("{level} step {k} of test {t}\n"));
        }
    }
    input.push_str(
        "=========================== short test summary info ============================\n",
    );
    for t in 0..200 {
        input.push_str(&format!(
            "FAILED tests/test_a.py::test_{t} - assert {t} == 0\n"
        ));
    }
    input.push_str(
        "======================== 200 failed, 200 passed in 1.23s ========================\n",
    );
    let envelope = same_on_one_thread_and_two(&["pytest"], input.as_bytes());
    assert!(
        envelope["summary"]
            .as_str()
            .unwrap()
            .starts_with("200 failed, 200 passed"),
        "{}",
        envelope["summary"]
    );
}

#[test]
fn cargo_test_reads_the_same_on_two_threads() {
    // 40 binaries of 50 tests, 2 failing in each with 60 captured lines (a warning among
    // them, some coloured), then a line cut at --max-line-bytes and a byte that is not UTF-8.
    let mut input = String::new();
    for b in 0..40 {
        input.push_str(&format!(
            "     Running tests/suite_{b}.rs (target/debug/deps/suite_{b}-0123456789abcdef)\n\nrunning 50 tests\n"
        ));
        for t in 0..50 {
            let status = if t % 25 == 3 {
                "\x1b[31mFAILED\x1b[0m"
            } else {
                "ok"
            };
            input.push_str(&format!("test tests::case_{t:02} ... {status}\n"));
        }
        input.push_str("\nfailures:\n\n");
        for t in [3, 28] {
            input.push_str(&format!("---- tests::case_{t:02} stdout ----\n"));
            for k in 0..60 {
                let level = if k == 41 { "WARN" } else { "INFO" };
                input.push_str(&format!("{level} step {k} of case {t} in suite {b}\n"));
            }
            input.push_str(&format!(
                "\nthread 'tests::case_{t:02}' panicked at tests/suite_{b}.rs:{}:9:\n\
                 assertion `left == right` failed\n  left: {t}\n right: 0\n\n",
                t + 10
            ));
        }
        input.push_str(&format!(
            "\nfailures:\n    tests::case_03\n    tests::case_28\n\n\
             test result: FAILED. 48 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; \
             finished in 0.0{b}s\n\n"
        ));
    }
    input.push_str(&format!("{}\n", "y".repeat(3_000)));
    let mut input = input.into_bytes();
    input.extend_from_slice(b"bad \xff byte\n");
    let envelope = same_on_one_thread_and_two(&["--max-line-bytes", "1000", "cargo-test"], &input);
    assert_eq!(envelope["stats"]["totals"]["failed"], 80, "{envelope}");
    assert_warns(
        &envelope,
        &["1 line longer than 1000 bytes", "1 line held invalid UTF-8"],
    );
}

#[test]
fn spill_previews_the_same_on_two_threads() {
    // Real lines well over the budget, so that the preview is a selection.
    let mut input = String::new();
    for set in ["HDFS", "BGL", "Thunderbird", "Linux"] {
        input.push_str(&loghub(set));
    }
    let envelope = same_on_one_thread_and_two(&["spill"], input.as_bytes());
    let lines = input.lines().count();
    assert_eq!(envelope["stats"]["lines"], lines, "{}", envelope["stats"]);
    assert!(envelope["stats"]["error_like_lines"].as_u64().unwrap() > 0);
}
