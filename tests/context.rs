//! `briefly context measure|compact`: a 90-turn session, measured and compacted.

mod common;

use common::{assert_warns, Briefly};
use serde_json::{json, Value};

/// A session: a system prompt, the task, then `turns` turns of user → assistant tool call
/// → tool result (large) → assistant answer.
fn session(turns: usize) -> Vec<Value> {
    sized_session(turns, 40)
}

/// The same with tool results of at least `lines_base` lines (about 12 tokens a line).
fn sized_session(turns: usize, lines_base: usize) -> Vec<Value> {
    let mut messages = vec![
        json!({"role": "system", "content": "You are a careful engineer."}),
        json!({"role": "user", "content": "Find why the nightly build fails."}),
    ];
    for t in 0..turns {
        if t > 0 {
            messages.push(json!({"role": "user", "content": format!("Go on with step {t}.")}));
        }
        let id = format!("call_{t}");
        let tool = if t % 3 == 0 {
            "read_file"
        } else {
            "run_command"
        };
        messages.push(json!({"role": "assistant", "content": null, "tool_calls": [
            {"id": id, "type": "function", "function": {"name": tool, "arguments": format!("{{\"step\":{t}}}")}}
        ]}));
        let lines: String = (0..(lines_base + t % 7 * 20))
            .map(|i| format!("turn {t} output line {i}: some build log text here\n"))
            .collect();
        messages.push(json!({"role": "tool", "tool_call_id": id, "content": lines}));
        messages.push(json!({"role": "assistant", "content": format!("Step {t} looked at; nothing conclusive yet.")}));
    }
    messages
}

fn compact(b: &Briefly, history: &[Value], args: &[&str]) -> (Vec<Value>, Value) {
    let report = b.dir.path().join("report.json");
    let mut all = vec!["context", "compact", "--report", report.to_str().unwrap()];
    all.extend_from_slice(args);
    let out = b.run(&all, serde_json::to_string(history).unwrap().as_bytes());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let messages: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    let report: Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    (messages, report)
}

/// `history` compacted in a 16K window where only `summarizer`'s summaries can make room
/// (no collapsing, no placeholders), with `more` options.
fn summarized(
    b: &Briefly,
    history: &[Value],
    summarizer: &str,
    more: &[&str],
) -> (Vec<Value>, Value) {
    let mut args = vec![
        "--collapse-tokens",
        "1000000",
        "--placeholder-tokens",
        "1000000",
        "--context-tokens",
        "16384",
        "--summarizer-cmd",
        summarizer,
    ];
    args.extend_from_slice(more);
    compact(b, history, &args)
}

fn users(messages: &[Value]) -> Vec<usize> {
    messages
        .iter()
        .enumerate()
        .filter(|(_, m)| m["role"] == "user")
        .map(|(i, _)| i)
        .collect()
}

/// Every tool result has its call before it, and every call its result.
fn assert_pairs_intact(messages: &[Value]) {
    let mut open = std::collections::BTreeSet::new();
    for (i, m) in messages.iter().enumerate() {
        for call in m["tool_calls"].as_array().into_iter().flatten() {
            open.insert(call["id"].as_str().unwrap().to_string());
        }
        if m["role"] == "tool" {
            let id = m["tool_call_id"].as_str().unwrap();
            assert!(open.remove(id), "message {i}: result {id} without its call");
        }
    }
    assert!(open.is_empty(), "calls without results: {open:?}");
}

#[test]
fn a_critical_session_comes_back_under_the_target_with_its_invariants() {
    let b = Briefly::new();
    // Tool results of 1,250 to 2,750 tokens, 90 turns: about 190,000 tokens in a 64K window.
    let history = sized_session(90, 100);
    let window = ["--context-tokens", "65536"];
    let input = serde_json::to_string(&history).unwrap();
    let before = b.envelope(
        &["context", "measure", window[0], window[1]],
        input.as_bytes(),
        39_321,
    );
    assert_eq!(
        before["stats"]["status"], "critical",
        "{}",
        before["summary"]
    );

    let (after, report) = compact(&b, &history, &window);
    assert_eq!(report["met_target"], true, "{report}");
    assert!(report["after"]["utilization"].as_f64().unwrap() <= 0.60);
    assert_eq!(report["steps"][0]["step"], "collapse");

    // Never touched: the system prompt, the task, the last 6 turns.
    assert_eq!(after[0], history[0]);
    assert_eq!(after[1], history[1]);
    let tail_in = users(&history)[users(&history).len() - 6];
    let tail_out = users(&after)[users(&after).len() - 6];
    assert_eq!(&after[tail_out..], &history[tail_in..]);
    assert_pairs_intact(&after);
    assert_eq!(after.len(), history.len(), "collapsing keeps every message");

    // Every collapsed result is recoverable byte for byte.
    let mut recovered = 0;
    for (m_in, m_out) in history.iter().zip(&after) {
        if m_in == m_out || m_out["role"] != "tool" {
            continue;
        }
        let text = m_out["content"].as_str().unwrap();
        let path = text
            .split("`briefly read ")
            .nth(1)
            .unwrap()
            .trim_end_matches(")]")
            .trim_end_matches('`');
        assert_eq!(
            std::fs::read_to_string(path).unwrap(),
            m_in["content"].as_str().unwrap()
        );
        recovered += 1;
    }
    assert!(recovered > 10, "{recovered}");
}

/// An agent's session: the system prompt, one task, then `rounds` rounds of an assistant's
/// tool call and its result, with no user message between them.
fn agent_session(rounds: usize) -> Vec<Value> {
    let mut messages = vec![
        json!({"role": "system", "content": "You are a careful engineer."}),
        json!({"role": "user", "content": "Make the test suite pass."}),
    ];
    for t in 0..rounds {
        let id = format!("call_{t}");
        messages.push(json!({"role": "assistant", "content": null, "tool_calls": [
            {"id": id, "type": "function", "function": {"name": "run_command", "arguments": "{}"}}
        ]}));
        let lines: String = (0..200)
            .map(|i| format!("round {t} line {i}: FAILED tests/test_x.py::test_{i}\n"))
            .collect();
        messages.push(json!({"role": "tool", "tool_call_id": id, "content": lines}));
    }
    messages.push(json!({"role": "assistant", "content": "Status?"}));
    messages
}

#[test]
fn an_agents_rounds_are_its_turns() {
    let b = Briefly::new();
    // One user message, 60 rounds of about 3,000 tokens: 180,000 tokens in a 64K window.
    let history = agent_session(60);
    let (after, report) = compact(&b, &history, &["--context-tokens", "65536"]);
    assert_eq!(report["met_target"], true, "{report}");
    assert_pairs_intact(&after);
    // The last 6 rounds (from the 6th last tool call on) are as they were.
    let tail = history.len() - 1 - 2 * 6;
    assert_eq!(after[tail..], history[tail..]);
    // Oldest first: the first round's result was collapsed.
    assert_ne!(after[3], history[3]);
    // Turns kept past what fits: not met, and why said.
    let (_, report) = compact(
        &b,
        &history,
        &["--context-tokens", "65536", "--keep-turns", "100"],
    );
    assert_eq!(report["met_target"], false);
    assert!(
        report["warnings"][0]
            .as_str()
            .unwrap()
            .starts_with("the target was not met: 60 tool results of"),
        "{report}"
    );
}

#[test]
fn an_unmet_target_is_reported_not_hidden() {
    let b = Briefly::new();
    // Results of about 500 to 1,000 tokens: too small for placeholders, and no summarizer.
    let (after, report) = compact(&b, &session(90), &[]);
    assert_eq!(report["met_target"], false);
    assert!(report["after"]["utilization"].as_f64().unwrap() > 0.60);
    assert_eq!(report["steps"][2]["skipped"], "no --summarizer-cmd given");
    assert_pairs_intact(&after);
}

#[test]
fn the_summarizer_replaces_whole_middle_turns() {
    let b = Briefly::new();
    let history = session(30);
    // No collapsing or placeholders: only a summary can make room.
    let summarized_by =
        |summarizer: &str, more: &[&str]| summarized(&b, &history, summarizer, more);
    let (after, report) = summarized_by("wc -c | sed 's/^ */summary of this many bytes: /'", &[]);
    let summarized = &report["steps"][2];
    assert_eq!(summarized["step"], "summarize");
    assert!(
        summarized["changed"].as_array().unwrap().len() > 10,
        "{report}"
    );
    let summary = after
        .iter()
        .find(|m| {
            m["content"]
                .as_str()
                .is_some_and(|c| c.contains("summary of this many bytes"))
        })
        .unwrap();
    assert_eq!(summary["role"], "user");
    // The newline that ends what it printed is no part of the summary, nor a cut.
    let content = summary["content"].as_str().unwrap();
    assert!(
        content.ends_with(|c: char| c.is_ascii_digit()) && !content.contains("…[cut"),
        "{content}"
    );
    assert_pairs_intact(&after);
    assert_eq!(after[1], history[1]);
    // The messages it replaced are kept whole, and the summary says where.
    let content = summary["content"].as_str().unwrap();
    let path = content
        .split("they are whole in ")
        .nth(1)
        .and_then(|rest| rest.split(" (JSON)").next())
        .unwrap_or_else(|| panic!("{content}"));
    let kept: Vec<Value> = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let changed = summarized["changed"].as_array().unwrap();
    let first = changed[0].as_u64().unwrap() as usize;
    assert_eq!(kept, history[first..first + changed.len()]);

    let no_summarizer = [
        "--collapse-tokens",
        "1000000",
        "--placeholder-tokens",
        "1000000",
    ];
    let (_, without) = compact(&b, &history, &no_summarizer);
    assert_eq!(without["steps"][2]["skipped"], "no --summarizer-cmd given");
    let (_, failing) = summarized_by("exit 3", &[]);
    assert!(failing["steps"][2]["skipped"]
        .as_str()
        .unwrap()
        .contains("the summarizer failed"));
    // One that hangs is killed at --summarizer-timeout, with what it started (the
    // `sleep` holds its stdout open), and the turns are kept; one that prints without
    // end is read bounded.
    let (kept, hung) = summarized_by("sleep 31.7 & wait", &["--summarizer-timeout", "1s"]);
    let skipped = hung["steps"][2]["skipped"].as_str().unwrap();
    assert!(
        skipped.contains("ran past --summarizer-timeout (1s): killed"),
        "{skipped}"
    );
    assert_eq!(kept.len(), history.len());
    // What it started is gone too.
    let sleeping = std::fs::read_dir("/proc").unwrap().flatten().any(|entry| {
        std::fs::read(entry.path().join("cmdline")).is_ok_and(|c| c == b"sleep\x0031.7\x00")
    });
    assert!(!sleeping, "the summarizer's sleep was not killed");
    let (after, endless) = summarized_by("cat > /dev/null; yes summary | head -c 50000000", &[]);
    assert!(endless["steps"][2]["skipped"].is_null(), "{endless}");
    let summary = after
        .iter()
        .filter_map(|m| m["content"].as_str())
        .find(|c| c.contains("summary\nsummary\n"))
        .unwrap_or_else(|| panic!("{endless}"));
    assert!(
        summary.chars().count() < 21_000,
        "{}",
        summary.chars().count()
    );
    // The cut counts what it printed, not what was read of it.
    assert!(
        summary.contains("…[cut 4998"),
        "{}",
        &summary[summary.len() - 40..]
    );
    // A timeout that is no duration is refused.
    let out = b.run(
        &["context", "compact", "--summarizer-timeout", "soon"],
        b"[]",
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_system_message_in_the_middle_parts_the_turns_summarized_not_ends_them() {
    let b = Briefly::new();
    let mut history = session(30);
    // A reminder after the fourth turn: the turns before it and after it are summarized
    // apart, each stretch whole, and the reminder stays where it was.
    let at = users(&history)[4];
    let reminder = json!({"role": "system", "content": "Reminder: keep the build green."});
    history.insert(at, reminder.clone());
    let (after, report) = summarized(&b, &history, "cat > /dev/null; echo summary", &[]);
    let changed: Vec<usize> = report["steps"][2]["changed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i.as_u64().unwrap() as usize)
        .collect();
    assert!(
        changed.first() < Some(&at) && changed.last() > Some(&at) && !changed.contains(&at),
        "{report}"
    );
    assert!(after.contains(&reminder));
    let summaries: Vec<&str> = after
        .iter()
        .filter_map(|m| m["content"].as_str())
        .filter(|c| c.starts_with("[briefly: a summary of messages "))
        .collect();
    assert_eq!(summaries.len(), 2, "{summaries:?}");
    // Numbered as the history given has them.
    let first = format!("[briefly: a summary of messages {}–{} ", changed[0], at - 1);
    assert!(summaries[0].starts_with(&first), "{}", summaries[0]);
    assert_pairs_intact(&after);
}

#[test]
fn old_results_become_placeholders() {
    let b = Briefly::new();
    let history = session(40);
    let (after, report) = compact(
        &b,
        &history,
        &[
            "--collapse-tokens",
            "1000000",
            "--placeholder-tokens",
            "500",
            "--placeholder-age",
            "10",
        ],
    );
    let placed = report["steps"][1]["changed"].as_array().unwrap();
    assert!(!placed.is_empty(), "{report}");
    let first = placed[0].as_u64().unwrap() as usize;
    let placeholder = after[first]["content"].as_str().unwrap();
    assert!(placeholder.starts_with("[briefly: an old tool result of"));
    let path = placeholder
        .split("`briefly read ")
        .nth(1)
        .unwrap()
        .trim_end_matches("`)]");
    assert_eq!(
        std::fs::read_to_string(path).unwrap(),
        history[first]["content"].as_str().unwrap(),
        "recoverable"
    );
    assert_pairs_intact(&after);
}

#[test]
fn at_critical_unused_tool_schemas_are_dropped() {
    let b = Briefly::new();
    let history = session(20);
    let mut tools: Vec<Value> = ["read_file", "run_command"]
        .iter()
        .map(|n| json!({"type": "function", "function": {"name": n, "description": "used", "parameters": {}}}))
        .collect();
    for i in 0..30 {
        tools.push(json!({"type": "function", "function": {"name": format!("unused_{i}"), "description": "x".repeat(2000), "parameters": {}}}));
    }
    let tools_file = b.dir.path().join("tools.json");
    std::fs::write(&tools_file, serde_json::to_vec(&tools).unwrap()).unwrap();
    let kept_file = b.dir.path().join("kept.json");
    let args = [
        "--tools",
        tools_file.to_str().unwrap(),
        "--tools-out",
        kept_file.to_str().unwrap(),
        "--collapse-tokens",
        "1000000",
        "--placeholder-tokens",
        "1000000",
        "--context-tokens",
        "20000",
    ];
    let (_, report) = compact(&b, &history, &args);
    assert_eq!(
        report["steps"][3]["changed"].as_array().unwrap().len(),
        30,
        "{report}"
    );
    let kept: Vec<Value> = serde_json::from_slice(&std::fs::read(&kept_file).unwrap()).unwrap();
    let names: Vec<&str> = kept
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["read_file", "run_command"]);
}

#[test]
fn measure_by_role_with_presets() {
    let b = Briefly::new();
    let history = json!([
        {"role": "system", "content": "s".repeat(400)},
        {"role": "user", "content": [{"type": "text", "text": "u".repeat(400)}, {"type": "image_url", "image_url": {"url": "data:x"}}]},
        {"role": "assistant", "content": "a".repeat(800)}
    ]);
    let input = history.to_string();
    let m = b.envelope(
        &["context", "measure", "--context-tokens", "700"],
        input.as_bytes(),
        19_660,
    );
    assert_eq!(m["stats"]["by_role"]["system"], 104);
    assert_eq!(m["stats"]["by_role"]["user"], 104 + 85);
    assert_eq!(m["stats"]["by_role"]["assistant"], 204);
    assert_eq!(m["stats"]["total"], 497);
    assert_eq!(m["stats"]["usable"], 560);
    assert_eq!(m["stats"]["status"], "compress", "497 of 560");
    assert_eq!(m["items"][0]["role"], "assistant", "largest first");
    let status = |args: &[&str]| {
        let mut all = vec!["context", "measure"];
        all.extend_from_slice(args);
        b.envelope(&all, input.as_bytes(), 19_660)["stats"]["status"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(
        status(&["--context-tokens", "2000"]),
        "nominal",
        "497 of 1,600"
    );
    assert_eq!(status(&["--context-tokens", "1000"]), "watch", "497 of 800");
    assert_eq!(
        status(&["--context-tokens", "700", "--model-class", "reasoning"]),
        "critical",
        "497 of 490"
    );
    assert_eq!(
        status(&["--context-tokens", "700", "--model-class", "fast"]),
        "compress",
        "497 of 595"
    );
    assert_eq!(
        status(&["--context-tokens", "1000", "--reserve", "0.5"]),
        "critical",
        "497 of 500"
    );
}

#[test]
fn tool_schemas_and_real_tokenizers_count() {
    let b = Briefly::new();
    let history = json!([{"role": "user", "content": "日本語のテキストを数える。".repeat(50)}]);
    let input = history.to_string();
    let chars4 = b.envelope(&["context", "measure"], input.as_bytes(), 19_660);
    let cl100k = b.envelope(
        &["context", "measure", "--tokenizer", "cl100k"],
        input.as_bytes(),
        19_660,
    );
    assert!(
        cl100k["stats"]["total"].as_u64() > chars4["stats"]["total"].as_u64(),
        "CJK: about a token a character"
    );
    let tools = b.dir.path().join("tools.json");
    std::fs::write(
        &tools,
        json!([{"type": "function", "function": {"name": "x", "description": "d".repeat(400)}}])
            .to_string(),
    )
    .unwrap();
    let with_tools = b.envelope(
        &["context", "measure", "--tools", tools.to_str().unwrap()],
        input.as_bytes(),
        19_660,
    );
    assert!(
        with_tools["stats"]["by_role"]["tool_schemas"]
            .as_u64()
            .unwrap()
            > 100
    );
    assert_eq!(
        with_tools["stats"]["total"].as_u64().unwrap(),
        chars4["stats"]["total"].as_u64().unwrap()
            + with_tools["stats"]["by_role"]["tool_schemas"]
                .as_u64()
                .unwrap()
    );
}

#[test]
fn bad_histories_are_clear() {
    let b = Briefly::new();
    for (input, says) in [
        ("{\"role\": \"user\"}", "JSON array"),
        ("[{\"role\": \"user\"}, 7]", "message 1"),
        ("[{\"content\": \"x\"}]", "message 0 has no string \"role\""),
        ("[1, 2", "not valid JSON"),
    ] {
        let out = b.run(&["context", "measure"], input.as_bytes());
        assert_eq!(out.status.code(), Some(2), "{input}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(says),
            "{input}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let odd = json!([
        {"role": "wizard", "content": "x"},
        {"role": "tool", "tool_call_id": "ghost", "content": "y"}
    ]);
    let m = b.envelope(&["context", "measure"], odd.to_string().as_bytes(), 19_660);
    assert_warns(
        &m,
        &[
            "message 0: unknown role",
            "message 1: tool result \\\"ghost\\\" has no matching call",
        ],
    );
    for bad in [
        &["context", "measure", "--model-class", "huge"][..],
        &["context", "measure", "--reserve", "1.5"],
        &["context", "compact", "--target", "2"],
    ] {
        assert_eq!(b.run(bad, b"[]").status.code(), Some(2), "{bad:?}");
    }
}

#[test]
fn keep_turns_target_and_largest() {
    let b = Briefly::new();
    let history = sized_session(30, 100);
    let window = ["--context-tokens", "65536"];
    // A lower target needs more collapsing; more kept turns leave more untouched.
    let (_, at_60) = compact(&b, &history, &window);
    let (_, at_30) = compact(&b, &history, &[window[0], window[1], "--target", "0.3"]);
    let collapsed = |r: &Value| r["steps"][0]["changed"].as_array().unwrap().len();
    assert!(
        collapsed(&at_30) > collapsed(&at_60),
        "{} vs {}",
        collapsed(&at_30),
        collapsed(&at_60)
    );
    let (after, _) = compact(
        &b,
        &history,
        &[
            window[0],
            window[1],
            "--target",
            "0.1",
            "--keep-turns",
            "20",
        ],
    );
    let tail_in = users(&history)[users(&history).len() - 20];
    let tail_out = users(&after)[users(&after).len() - 20];
    assert_eq!(
        &after[tail_out..],
        &history[tail_in..],
        "the last 20 turns untouched"
    );
    let input = serde_json::to_string(&history).unwrap();
    let three = b.envelope(
        &["context", "measure", "--largest", "3"],
        input.as_bytes(),
        19_660,
    );
    assert_eq!(three["items"].as_array().unwrap().len(), 3);
    assert_eq!(three["stats"].get("largest"), None, "the items, not twice");
    let narrowed = b.envelope(
        &["--remaining-from", "history=1000", "context", "measure"],
        input.as_bytes(),
        19_660,
    );
    assert_warns(&narrowed, &["--remaining-from is not used"]);
    // Asked for more than fit: within the budget, the rest counted.
    let many = b.envelope(
        &[
            "--max-chars",
            "1000",
            "context",
            "measure",
            "--largest",
            "1000",
        ],
        input.as_bytes(),
        1_000,
    );
    let shown = many["items"].as_array().unwrap().len();
    assert!(shown > 0, "{many}");
    let asked = serde_json::from_str::<Vec<Value>>(&input)
        .unwrap()
        .len()
        .min(1_000);
    // The rest are kept as an artifact and paged, as any reducer's items are.
    assert_eq!(many["total_items"], asked, "{many}");
    assert_eq!(many["truncated"], true);
    let listed = b.all_items(&many, 1_000);
    let tokens: Vec<u64> = listed
        .iter()
        .map(|m| m["tokens"].as_u64().unwrap())
        .collect();
    assert_eq!(tokens.len(), asked);
    assert!(tokens.windows(2).all(|w| w[0] >= w[1]), "largest first");
    // What was read: its bytes, lines and characters, as every result says them.
    assert_eq!(many["raw"]["bytes"], input.len());
    assert_eq!(many["raw"]["chars"], input.chars().count());
    assert_eq!(many["raw"]["lines"], input.lines().count());
}

#[test]
fn a_lone_surrogate_escape_in_the_history_is_read_as_u_fffd() {
    let b = Briefly::new();
    let history = br#"[{"role":"user","content":"cut \ud83d"}]"#;
    let envelope = b.envelope(
        &["context", "measure", "--context-tokens", "8000"],
        history,
        100_000,
    );
    let warning = envelope["warnings"][0].as_str().unwrap();
    assert!(
        warning
            .starts_with("the history: a lone surrogate escape (half of a UTF-16 pair) at byte 31"),
        "{warning}"
    );
    assert_eq!(envelope["total_items"], 1, "{envelope}");
}

#[test]
fn a_history_in_utf16_or_with_a_byte_order_mark_or_bad_bytes_is_read() {
    // Windows PowerShell 5's `>` writes UTF-16LE after its mark; other tools a UTF-8 mark.
    let b = Briefly::new();
    let history = json!([
        {"role": "system", "content": "You are an agent."},
        {"role": "user", "content": "hello from powershell"}
    ])
    .to_string();
    let plain = b.envelope(&["context", "measure"], history.as_bytes(), 19_660);
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(history.encode_utf16().flat_map(u16::to_le_bytes));
    let utf8_marked = [briefly_core::UTF8_BOM, history.as_bytes()].concat();
    for (input, said) in [(utf16, Some("the input is UTF-16LE")), (utf8_marked, None)] {
        let measured = b.envelope(&["context", "measure"], &input, 19_660);
        assert_eq!(
            measured["stats"]["by_role"], plain["stats"]["by_role"],
            "{measured}"
        );
        match said {
            Some(said) => assert_warns(&measured, &[said]),
            None => assert_eq!(measured["warnings"], json!([]), "{measured}"),
        }
    }
    let mut bad = history.into_bytes();
    let at = bad.iter().position(|&b| b == b'p').unwrap();
    bad[at] = 0xFF;
    let measured = b.envelope(&["context", "measure"], &bad, 19_660);
    assert_warns(&measured, &["invalid UTF-8 from byte"]);
}

#[test]
fn a_compaction_is_one_metrics_event() {
    let b = Briefly::new();
    let metrics = b.dir.path().join("metrics.jsonl");
    let history = session(90);
    let (messages, report) = compact(
        &b,
        &history,
        &[
            "--metrics",
            metrics.to_str().unwrap(),
            "--context-tokens",
            "32768",
        ],
    );
    let events: Vec<Value> = std::fs::read_to_string(&metrics)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0]["tool"], "context compact");
    let collapsed = report["steps"][0]["changed"].as_array().map_or(0, Vec::len);
    assert!(collapsed > 0, "{report}");
    assert_eq!(events[0]["persisted"], true, "{report}");
    let printed = serde_json::to_string(&messages).unwrap().chars().count();
    assert_eq!(events[0]["inline_chars"], printed);
}
