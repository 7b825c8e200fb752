//! `briefly turn`: a turn's results under the per-turn budget, largest spilled first.

mod common;

use common::Briefly;
use serde_json::{json, Value};

const TURN_CAP: usize = 39_321;

fn turn(b: &Briefly, input: &str, args: &[&str]) -> Vec<Value> {
    let mut all = vec!["turn"];
    all.extend_from_slice(args);
    let out = b.run(&all, input.as_bytes());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    if text.trim_start().starts_with('[') {
        serde_json::from_str(&text).unwrap()
    } else {
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }
}

fn total(results: &[Value]) -> usize {
    results
        .iter()
        .map(|r| r["content"].as_str().map_or(0, |s| s.chars().count()))
        .sum()
}

#[test]
fn spills_the_largest_first_until_the_turn_fits() {
    let b = Briefly::new();
    let contents: Vec<String> = [12_000, 30_000, 9_000, 25_000, 500]
        .iter()
        .enumerate()
        .map(|(i, &n)| format!("result {i}\n{}", "x".repeat(n)))
        .collect();
    let input: Vec<Value> = contents
        .iter()
        .enumerate()
        .map(|(i, c)| json!({"id": format!("call_{i}"), "content": c, "extra": i}))
        .collect();
    let out = turn(&b, &serde_json::to_string(&input).unwrap(), &[]);
    // Same list, same order, unknown fields kept.
    assert_eq!(
        out.iter().map(|r| r["id"].clone()).collect::<Vec<_>>(),
        input.iter().map(|r| r["id"].clone()).collect::<Vec<_>>()
    );
    assert!(out.iter().enumerate().all(|(i, r)| r["extra"] == i));
    // 76,500 chars over a 39,321 cap: the 30,000 and then the 25,000 go, nothing else.
    let spilled: Vec<bool> = out
        .iter()
        .map(|r| r.get("persisted") == Some(&Value::Bool(true)))
        .collect();
    assert_eq!(spilled, [false, true, false, true, false]);
    assert!(total(&out) <= TURN_CAP);
    for (i, r) in out.iter().enumerate() {
        if spilled[i] {
            let path = r["artifact_path"].as_str().unwrap();
            assert_eq!(
                std::fs::read_to_string(path).unwrap(),
                contents[i],
                "recoverable byte for byte"
            );
            assert!(
                r["content"].as_str().unwrap().contains(path),
                "the stub names the artifact"
            );
            assert!(r["content"].as_str().unwrap().chars().count() <= 2_500);
            assert_eq!(r["original_chars"], contents[i].chars().count());
        } else {
            assert_eq!(r["content"], contents[i].as_str());
        }
    }
}

#[test]
fn a_real_tokenizer_counts_a_results_tokens_against_the_budgets() {
    // Hex digits: about 0.7 cl100k tokens a character. 18,000 of them fit the per-result
    // budget's 19,660 characters, not its 4,915 tokens.
    let mut digits = String::new();
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    while digits.len() < 18_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        digits.push_str(&format!("{x:016x}"));
    }
    digits.truncate(18_000);
    let input = json!([{"id": "1", "content": digits}]).to_string();
    let b = Briefly::new();
    let by_chars = turn(&b, &input, &[]);
    assert_eq!(by_chars[0]["content"], digits.as_str());
    let out = b.run(&["--tokenizer", "cl100k", "turn"], input.as_bytes());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let by_tokens: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(by_tokens[0]["persisted"], true, "{:?}", by_tokens[0]);
}

#[test]
fn a_turn_in_utf16_is_read() {
    let b = Briefly::new();
    let text = json!([{"id": "a", "content": "x"}]).to_string();
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    let out = b.run(&["turn"], &utf16);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let results: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(results[0]["content"], "x");
    assert!(String::from_utf8_lossy(&out.stderr).contains("the input is UTF-16LE"));
}

#[test]
fn a_stubs_cursor_pages_at_the_full_budget() {
    let b = Briefly::new();
    let lines: String = (1..=5_000).map(|i| format!("log line {i}\n")).collect();
    let input = json!([{"id": "call_0", "content": lines}]).to_string();
    let out = turn(&b, &input, &["--context-tokens", "8192"]);
    let stub = out[0]["content"].as_str().unwrap();
    let cursor = stub
        .split("next: briefly page ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("a cursor in {stub}"));
    // The stub keeps a preview of about 1,500 chars; its next page, the full 8,000.
    let page = b.envelope(&["page", cursor], b"", 8_000);
    let shown = page.to_string().chars().count();
    assert!(shown > 6_000, "{shown} chars in a page");
}

#[test]
fn persisted_results_are_skipped_and_jsonl_works() {
    let b = Briefly::new();
    let lines = [
        json!({"id": "a", "content": "y".repeat(50_000), "persisted": true}),
        json!({"id": "b", "content": "z".repeat(20_000)}),
        json!({"id": "c", "content": "small"}),
    ];
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let out = turn(&b, &input, &[]);
    assert_eq!(out.len(), 3);
    assert_eq!(
        out[0]["content"].as_str().unwrap().len(),
        50_000,
        "already persisted: left alone"
    );
    assert_eq!(out[1]["persisted"], true);
    assert_eq!(out[2]["content"], "small");
}

#[test]
fn nothing_changes_when_the_turn_fits() {
    let b = Briefly::new();
    let input =
        json!([{"id": 1, "content": "a"}, {"id": 2, "content": [{"type": "text", "text": "b"}]}]);
    assert_eq!(
        turn(&b, &input.to_string(), &[]),
        input.as_array().unwrap().clone()
    );
    assert!(b.artifact_files().is_empty());
}

#[test]
fn the_turn_budget_follows_the_window() {
    let b = Briefly::new();
    let input = json!([{"id": "a", "content": "q".repeat(30_000)}]);
    let small = turn(&b, &input.to_string(), &["--context-tokens", "8192"]);
    assert_eq!(small[0]["persisted"], true, "16,000-char turn cap at 8K");
    let large = turn(&b, &input.to_string(), &["--context-tokens", "131072"]);
    assert!(
        large[0].get("persisted").is_none(),
        "157,286-char turn cap at 128K"
    );
}

#[test]
fn bad_input_is_a_clear_error() {
    let b = Briefly::new();
    for (input, says) in [
        ("[{\"id\": 1, \"content\": \"a\"", "reading the JSON array"),
        ("[1, 2]", "not an object with a \"content\" field"),
        ("{\"id\": 1}", "not an object with a \"content\" field"),
        (
            "[{\"id\":1,\"content\":\"a\"}] trailing",
            "after the JSON array",
        ),
    ] {
        let out = b.run(&["turn"], input.as_bytes());
        assert_eq!(out.status.code(), Some(2), "{input}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(says), "{input}: {stderr}");
    }
}

#[test]
fn results_just_under_a_stubs_largest_size_are_spilled_when_the_turn_is_over() {
    // Twelve results of about 2,100 characters, 25,000 in all, over the 16,000 of an
    // 8K window: each stub is smaller than its result, so enough of them go to fit.
    let b = Briefly::new();
    let input: String = (0..12)
        .map(|i| {
            let content: String = (0..124)
                .map(|n| format!("row {i} {n:04} value\n"))
                .collect();
            format!("{}\n", json!({"id": format!("c{i}"), "content": content}))
        })
        .collect();
    let out = turn(&b, &input, &["--context-tokens", "8192"]);
    assert!(total(&out) <= 16_000, "{}", total(&out));
    assert!(out.iter().any(|r| r["persisted"] == true));
    assert!(
        out.iter().any(|r| r.get("persisted").is_none()),
        "only what it takes"
    );
}

#[test]
fn each_result_keeps_within_the_per_result_budget() {
    let b = Briefly::new();
    // One result over the per-result budget, in a turn well within its own.
    let input =
        json!([{"id": "x", "content": "X".repeat(25_000)}, {"id": "y", "content": "small"}]);
    let out = turn(&b, &input.to_string(), &["--max-chars", "1000"]);
    assert_eq!(out[0]["persisted"], true, "{}", out[0]);
    assert!(
        out[0]["content"].as_str().unwrap().chars().count() <= 1_000,
        "{}",
        out[0]
    );
    assert_eq!(out[1]["content"], "small");
    // Stubs of results spilled for the turn's budget are within it too.
    let input: Vec<Value> = [30_000, 12_000, 8_000]
        .iter()
        .map(|&n| json!({"id": format!("r{n}"), "content": "word ".repeat(n / 5)}))
        .collect();
    let args = ["--max-chars", "1000", "--context-tokens", "8192"];
    for r in turn(&b, &serde_json::to_string(&input).unwrap(), &args) {
        assert!(
            r["content"].as_str().unwrap().chars().count() <= 1_000,
            "{r}"
        );
    }
}

#[test]
fn a_result_no_artifact_can_keep_stays_whole_and_says_why() {
    let b = Briefly::new();
    let input = json!([{"id": "a", "content": "A".repeat(30_000)}]).to_string();
    let args = [
        "--artifact-dir",
        "/dev/null",
        "--context-tokens",
        "8192",
        "turn",
    ];
    let out = common::feed(b.command(&args), input.as_bytes());
    assert!(out.status.success());
    let results: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(results[0]["content"].as_str().unwrap().len(), 30_000);
    assert_eq!(results[0].get("persisted"), None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("result 0 kept whole: artifact not written"),
        "{stderr}"
    );
}

#[test]
fn a_byte_order_mark_is_read_past_and_persisted_must_be_a_bool() {
    let b = Briefly::new();
    let out = turn(&b, "\u{feff}[{\"id\":\"a\",\"content\":\"x\"}]", &[]);
    assert_eq!(out[0]["content"], "x");
    let refused = b.run(
        &["turn"],
        br#"[{"id":"a","content":"x","persisted":"yes"}]"#,
    );
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains(r#""persisted" is "yes", not true or false"#),
        "{stderr}"
    );
}

#[test]
fn every_result_of_the_turn_is_an_event_in_the_metrics() {
    let b = Briefly::new();
    let metrics = b.dir.path().join("metrics.jsonl");
    let metrics = metrics.to_str().unwrap();
    let input = json!([
        {"id": "a", "content": "small"},
        {"id": "b", "content": "X".repeat(60_000)},
        {"id": "c", "content": "also small"}
    ]);
    turn(&b, &input.to_string(), &["--metrics", metrics]);
    let events: Vec<Value> = std::fs::read_to_string(metrics)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let mut ids: Vec<&str> = events
        .iter()
        .map(|e| e["tool_call_id"].as_str().unwrap())
        .collect();
    ids.sort();
    assert_eq!(ids, ["a", "b", "c"]);
    let spilled: Vec<bool> = events.iter().map(|e| e["persisted"] == true).collect();
    assert_eq!(spilled.iter().filter(|s| **s).count(), 1);
    let stats = b.envelope(&["stats", metrics], b"", 19_660);
    assert!(
        stats["summary"]
            .as_str()
            .unwrap()
            .starts_with("3 results, 1 spilled"),
        "{stats}"
    );
}

#[test]
fn a_tool_messages_tool_call_id_names_its_artifact() {
    let b = Briefly::new();
    let input =
        json!([{"role": "tool", "tool_call_id": "call_abc", "content": "X".repeat(60_000)}]);
    let out = turn(&b, &input.to_string(), &[]);
    let path = out[0]["artifact_path"].as_str().unwrap();
    assert!(path.contains("call_abc"), "{path}");
    assert_eq!(out[0]["role"], "tool", "its other fields kept");
}

#[test]
fn a_bad_json_line_names_its_result_and_where_it_is() {
    let b = Briefly::new();
    let out = b.run(
        &["turn"],
        b"{\"id\":\"a\",\"content\":\"x\"}\n\n{\"id\":\"b\",\n",
    );
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("turn: reading result 1: EOF while parsing a value at line 4"),
        "{said}"
    );
}

#[test]
fn content_given_as_text_blocks_is_spilled_by_its_text_and_stays_blocks() {
    let b = Briefly::new();
    let mut log: String = (0..900)
        .map(|i| format!("INFO handled request {i}\n"))
        .collect();
    log.insert_str(log.len() / 2, "ERROR db password rejected for user app\n");
    // As Anthropic's tool_result, OpenAI's content parts and MCP's results give it.
    let input = json!([{"id": "toolu_01", "content": [{"type": "text", "text": log}]}]);
    let out = turn(&b, &input.to_string(), &["--max-chars", "3000"]);
    assert_eq!(out[0]["persisted"], true, "{}", out[0]);
    let blocks = out[0]["content"].as_array().expect("blocks stay blocks");
    assert_eq!(blocks.len(), 1);
    assert_eq!(blocks[0]["type"], "text");
    let stub = blocks[0]["text"].as_str().unwrap();
    assert!(stub.contains("ERROR db password rejected"), "{stub}");
    assert!(stub.chars().count() <= 3_000);
    // The artifact holds the text, not its JSON.
    let artifact = out[0]["artifact_path"].as_str().unwrap();
    assert_eq!(std::fs::read_to_string(artifact).unwrap(), log);
}

#[test]
fn a_lone_surrogate_escape_is_read_as_u_fffd_not_a_failed_turn() {
    // A JavaScript harness that cut a string inside a character writes half of it:
    // `\ud83d`. The turn is read, the half replaced and said, its pair kept (in an
    // array, and in JSON lines cut between reads by the reader's chunks).
    let b = Briefly::new();
    let padding = "x".repeat(10_000);
    for input in [
        format!(r#" [{{"id":"a","content":"cut \ud83d"}},{{"id":"b","content":"pair \ud83d\ude00 {padding}"}}]"#),
        format!("{{\"id\":\"b\",\"content\":\"{padding}\"}}\n{{\"id\":\"a\",\"content\":\"cut \\ud83d\"}}\n"),
    ] {
        let out = b.run(&["turn"], input.as_bytes());
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(stdout.contains("cut \u{fffd}"), "{stdout}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("1 lone surrogate escape (half of a UTF-16 pair) replaced by U+FFFD"),
            "{stderr}"
        );
        if input.starts_with(' ') {
            assert!(stdout.contains("pair \u{1f600}"), "{stdout}");
            assert!(stderr.contains("the first at byte 27"), "{stderr}");
        }
    }
}

#[test]
fn an_image_block_stays_as_it_is_and_takes_nothing_of_the_budgets() {
    // A screenshot beside a log (MCP's `{"type": "image", "data": …, "mimeType": …}`):
    // its base64 is no text to reduce. It counted as 400,000 characters of JSON, was
    // spilled first and came back as the JSON's text.
    let b = Briefly::new();
    let image =
        json!({"type": "image", "mimeType": "image/png", "data": "iVBORw0K".repeat(50_000)});
    let mut log: String = (0..900)
        .map(|i| format!("INFO handled request {i}\n"))
        .collect();
    log.insert_str(log.len() / 2, "ERROR db password rejected for user app\n");
    let text = |t: &str| json!({"type": "text", "text": t});
    let input = json!([
        {"id": "shot", "content": [image.clone()]},
        {"id": "small", "content": [text("page rendered"), image.clone()]},
        {"id": "log", "content": [text(&log), image.clone(), text("exit 0")]},
    ]);
    let out = turn(&b, &input.to_string(), &["--max-chars", "3000"]);
    // Only their text counts: the image alone and the small text with one stay.
    assert_eq!(out[0]["content"], json!([image]), "{}", out[0]);
    assert_eq!(out[0].get("persisted"), None);
    assert_eq!(
        out[1]["content"],
        json!([text("page rendered"), image.clone()])
    );
    // The log is spilled: one text block of its stub, the image after it.
    assert_eq!(out[2]["persisted"], true, "{}", out[2]);
    let blocks = out[2]["content"].as_array().unwrap();
    assert_eq!(blocks.len(), 2, "{blocks:?}");
    let stub = blocks[0]["text"].as_str().unwrap();
    assert!(stub.contains("ERROR db password rejected"), "{stub}");
    assert!(stub.chars().count() <= 3_000);
    assert_eq!(blocks[1], image);
    let artifact = out[2]["artifact_path"].as_str().unwrap();
    assert_eq!(
        std::fs::read_to_string(artifact).unwrap(),
        format!("{log}\nexit 0")
    );
    // A turn over its budget by what is persisted already: what has no text (the image
    // alone, an empty result) stays as it is, and the turn is said to be over.
    let persisted = "x".repeat(100_000);
    let over = json!([
        {"id": "done", "content": persisted, "persisted": true},
        {"id": "shot", "content": [image.clone()]},
        {"id": "empty", "content": ""},
    ]);
    let output = b.run(
        &["turn", "--max-chars", "3000"],
        over.to_string().as_bytes(),
    );
    assert!(output.status.success(), "{output:?}");
    let out: Vec<Value> = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(out[1]["content"], json!([image]));
    assert_eq!(out[2]["content"], "");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("over its budget"), "{said}");
    // Text kept by other kinds of block counts and is spilled alike: an embedded
    // resource's (MCP), a plain-text document's (Anthropic), an `input_text` part's.
    let resource =
        json!({"type": "resource", "resource": {"uri": "file:///var/log/app.log", "text": log}});
    let document = json!({"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": log}});
    let part = json!({"type": "input_text", "text": log});
    for block in [resource, document, part] {
        let input = json!([{"id": "read", "content": [block, image.clone()]}]);
        let out = turn(&b, &input.to_string(), &["--max-chars", "3000"]);
        assert_eq!(out[0]["persisted"], true, "{}", out[0]);
        let blocks = out[0]["content"].as_array().unwrap();
        assert_eq!(blocks.len(), 2, "{blocks:?}");
        assert!(blocks[0]["text"]
            .as_str()
            .unwrap()
            .contains("ERROR db password"));
        assert_eq!(blocks[1], image);
    }
    // Content that is no blocks (an element without a type) counts whole, as JSON.
    let untyped = json!([{"id": "odd", "content": [{"note": "x".repeat(20_000)}]}]);
    let out = turn(&b, &untyped.to_string(), &["--max-chars", "3000"]);
    assert_eq!(out[0]["persisted"], true, "{}", out[0]);
}
