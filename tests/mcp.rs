//! `briefly mcp` and `briefly mcp-proxy` driven by a real MCP client: the official
//! Python SDK (tests/mcp/client.py), around a server made with the same SDK
//! (tests/mcp/server.py).

mod common;

use common::{check_invariants, python, Briefly};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The per-result and per-turn budgets at the default 32,768-token window.
const PER_RESULT: usize = 19_660;
const PER_TURN: usize = 39_321;

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/mcp")
        .join(name)
}

/// Runs the client's `scenario` against `server` (a command line) and returns its report.
fn client(briefly: &Briefly, scenario: &str, server: &[&str]) -> Value {
    let output = Command::new(python())
        .arg(script("client.py"))
        .arg(scenario)
        .arg("env")
        .arg(format!(
            "BRIEFLY_ARTIFACT_DIR={}",
            briefly.artifacts().display()
        ))
        .args(server)
        .env("BRIEFLY_TEST_DIR", briefly.dir.path())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "client failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

fn chars(text: &Value) -> usize {
    text.as_str().unwrap().chars().count()
}

/// Characters of a tool result a model reads: its texts and its structured content.
fn shown(result: &Value) -> usize {
    let texts: usize = result["texts"].as_array().unwrap().iter().map(chars).sum();
    let structured = &result["structured"];
    texts
        + if structured.is_null() {
            0
        } else {
            structured.to_string().chars().count()
        }
}

fn error_of(result: &Value) -> &str {
    result["error"]
        .as_str()
        .unwrap_or_else(|| panic!("expected an error: {result}"))
}

/// The pid a command writes to `path`, once it has. (A generous deadline: it waits for
/// an event, it times nothing.)
fn pid_written(path: &std::path::Path) -> u32 {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let pid = std::fs::read_to_string(path).ok();
        if let Some(pid) = pid.and_then(|s| s.trim().parse().ok()) {
            return pid;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the command never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Waits for process `pid` to end (or to be a zombie no one reaps yet, in a container
/// whose init does not), failing after a generous deadline: `what` outlived its end.
fn ended(pid: u32, what: &str) {
    let running = || {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            (stat.rsplit_once(") ")).is_some_and(|(_, rest)| !rest.starts_with('Z'))
        })
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while running() {
        assert!(
            std::time::Instant::now() < deadline,
            "{what} ({pid}) ran on"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn the_python_sdk_runs_a_command_and_reads_the_rest_back() {
    let briefly = Briefly::new();
    let report = client(&briefly, "briefly", &[env!("CARGO_BIN_EXE_briefly"), "mcp"]);
    assert_eq!(report["server"], "briefly");
    let tools = report["tools"].as_object().unwrap();
    for name in ["run", "text", "diff", "spill", "page", "read", "grep"] {
        assert_eq!(tools[name]["type"], "object", "{name}");
    }
    // A client may approve calls by these: `run` runs any command, the rest only read.
    let annotations = &report["annotations"];
    assert_eq!(annotations["run"]["destructiveHint"], true, "{annotations}");
    assert_eq!(annotations["run"]["readOnlyHint"], false);
    assert_eq!(annotations["text"]["destructiveHint"], false);
    assert_eq!(annotations["read"]["readOnlyHint"], true);
    // One tool per reducer over fresh input, each with a closed schema of its options
    // beside `path`, `text` and `context_tokens`; `run` takes each as its reducer.
    let options = [
        ("pytest", &["junit", "lines"][..]),
        ("cargo_test", &["lines", "warnings"]),
        (
            "journal",
            &["level", "since", "until", "unit", "whole_chars"],
        ),
        (
            "docker",
            &["since", "until", "stream", "level", "tail", "whole_chars"],
        ),
        (
            "json",
            &[
                "fields",
                "where",
                "count_by",
                "top",
                "sort",
                "desc",
                "limit",
                "records",
                "max_record_bytes",
                "max_document_bytes",
                "max_depth",
                "max_string_chars",
                "whole_chars",
            ],
        ),
        (
            "table",
            &[
                "columns",
                "where",
                "rows",
                "tail",
                "sample",
                "seed",
                "max_columns",
                "max_value_chars",
                "input_format",
                "delimiter",
                "no_header",
                "scan",
            ],
        ),
    ];
    for (name, expected) in options {
        let schema = &tools[name];
        assert_eq!(schema["type"], "object", "{name}");
        assert_eq!(schema["additionalProperties"], false, "{name}");
        let mut properties: Vec<&str> = schema["properties"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        properties.sort_unstable();
        let mut expected = [&["path", "text", "context_tokens"][..], expected].concat();
        expected.sort_unstable();
        assert_eq!(properties, expected, "{name}");
    }
    assert_eq!(tools["pytest"]["properties"]["junit"]["type"], "boolean");
    assert_eq!(
        tools["docker"]["properties"]["stream"]["enum"],
        serde_json::json!(["stdout", "stderr"])
    );
    assert_eq!(
        tools["run"]["properties"]["reducer"]["enum"],
        serde_json::json!([
            "text",
            "diff",
            "spill",
            "pytest",
            "cargo-test",
            "journal",
            "docker",
            "json",
            "table"
        ])
    );

    // 1 MB of output: an envelope within the budget, as text and as structured content.
    let run = &report["run"];
    assert_eq!(run["is_error"], false, "{run}");
    let envelope = &run["structured"];
    let text = run["texts"][0].as_str().unwrap();
    assert_eq!(&serde_json::from_str::<Value>(text).unwrap(), envelope);
    check_invariants(envelope, text.chars().count(), PER_RESULT);
    assert_eq!(envelope["truncated"], true);
    assert_eq!(envelope["exit_code"], 0);
    let artifact = envelope["artifact_path"].as_str().unwrap();
    let seq = Command::new("seq").args(["1", "150000"]).output().unwrap();
    assert_eq!(std::fs::read(artifact).unwrap(), seq.stdout);

    // `read` from the first line not shown, then `page`: every line of the rest.
    let from = report["read_from"].as_u64().unwrap();
    let expected: Vec<Value> = (from..=150_000).map(|n| n.to_string().into()).collect();
    assert!(
        report.get("read_failed").is_none(),
        "{}",
        report["read_failed"]
    );
    assert_eq!(report["read_lines"].as_array().unwrap(), &expected);
    assert!(report["read_calls"].as_u64().unwrap() > 1, "paged");
    // Each read at 200,000 tokens a call: 100,000 characters at most.
    for chars in report["read_text_chars"].as_array().unwrap() {
        assert!(chars.as_u64().unwrap() <= 100_000, "{chars}");
    }

    // A failing command: isError, its exit code and stderr kept.
    let failing = &report["failing"];
    assert_eq!(failing["is_error"], true);
    assert_eq!(failing["structured"]["exit_code"], 3);
    assert_eq!(failing["structured"]["stderr"]["text"], "boom\n");
    // A program that cannot start: the envelope the CLI prints, its summary saying why.
    let missing = &report["missing"];
    assert_eq!(missing["is_error"], true);
    assert_eq!(missing["structured"]["exit_code"], 127);
    assert_eq!(missing["structured"]["ok"], false);
    assert!(missing["structured"]["summary"]
        .as_str()
        .unwrap()
        .contains("command not found"));
    assert!(missing["texts"][0]
        .as_str()
        .unwrap()
        .contains("command not found"));

    // A reducer over inline text; arguments the schema does not know are an error.
    let reduced = &report["text"];
    assert_eq!(reduced["is_error"], false);
    assert_eq!(reduced["structured"]["source"], "text");
    assert!(reduced["structured"]["summary"]
        .as_str()
        .unwrap()
        .contains("1 error, "));
    let bad = &report["bad_args"];
    assert_eq!(bad["is_error"], true);
    assert!(
        bad["texts"][0].as_str().unwrap().contains("colour"),
        "{bad}"
    );

    let grep = &report["grep"]["structured"];
    assert_eq!(grep["total_items"], 10);
    assert_eq!(grep["items"][9]["text"], "149999");
}

#[test]
fn the_python_sdk_calls_each_reducer_tool() {
    let briefly = Briefly::new();
    let csv = briefly.dir.path().join("scores.csv");
    let rows: String = (1..=3000)
        .map(|i| format!("{i},user{i},{}\n", i % 97))
        .collect();
    std::fs::write(&csv, format!("id,name,score\n{rows}")).unwrap();
    let report = client(
        &briefly,
        "reducers",
        &[env!("CARGO_BIN_EXE_briefly"), "mcp"],
    );
    let envelope = |key: &str| -> &Value {
        let result = &report[key];
        assert!(result.get("error").is_none(), "{key}: {result}");
        let envelope = &result["structured"];
        let text = result["texts"][0].as_str().unwrap();
        assert_eq!(
            &serde_json::from_str::<Value>(text).unwrap(),
            envelope,
            "{key}"
        );
        check_invariants(envelope, text.chars().count(), PER_RESULT);
        envelope
    };

    // json: records filtered by `where`, projected by `fields`.
    let json = envelope("json");
    assert_eq!(report["json"]["is_error"], false);
    assert_eq!(json["source"], "json");
    assert_eq!(
        json["items"],
        serde_json::json!([{"name": "lint"}, {"name": "test"}])
    );
    assert!(json["summary"]
        .as_str()
        .unwrap()
        .contains("2 of 3 records match status=failed"));

    // table over a path: read by the reducer itself, the file its own artifact, paged.
    let table = envelope("table");
    assert_eq!(table["source"], "table");
    assert_eq!(table["stats"]["rows"], 3000);
    assert_eq!(table["total_items"], 3000);
    assert_eq!(table["truncated"], true);
    assert_eq!(table["items"][0], serde_json::json!([0, 1, "user1", 1]));
    assert_eq!(
        Path::new(table["artifact_path"].as_str().unwrap()),
        csv.canonicalize().unwrap()
    );
    let whole = std::fs::read(&csv).unwrap();
    assert!(
        briefly
            .artifact_files()
            .iter()
            .all(|f| f.is_dir() || std::fs::read(f).unwrap() != whole),
        "the file is not copied into an artifact"
    );
    let returned = table["returned_items"].as_u64().unwrap();
    let page = &report["table_page"]["structured"];
    assert_eq!(page["source"], "table");
    assert_eq!(page["items"][0][0], returned, "the page goes on");
    // table over inline CSV: the stream path.
    let inline = envelope("table_text");
    assert_eq!(inline["items"], serde_json::json!([[1, "bob", 45]]));

    // pytest, as terminal output and as a JUnit report: the failure with its evidence.
    let pytest = envelope("pytest");
    assert_eq!(pytest["source"], "pytest");
    assert_eq!(pytest["ok"], false);
    assert_eq!(pytest["stats"]["counts"]["failed"], 1);
    assert_eq!(
        pytest["items"][0]["nodeid"],
        "tests/test_math.py::test_divide"
    );
    assert_eq!(pytest["items"][0]["message"], "assert 2.0 == 3");
    let junit = envelope("junit");
    assert!(junit["summary"]
        .as_str()
        .unwrap()
        .starts_with("JUnit report: 1 failed, 1 passed"));
    assert_eq!(junit["items"][0]["exception"], "AssertionError");

    // cargo_test: the failing test's panic.
    let cargo = envelope("cargo_test");
    assert_eq!(cargo["source"], "cargo-test");
    assert_eq!(cargo["ok"], false);
    assert_eq!(cargo["stats"]["totals"]["failed"], 1);
    assert_eq!(cargo["items"][0]["name"], "tests::divides");
    assert_eq!(cargo["items"][0]["location"], "src/lib.rs:12:9");

    // docker and journal over inline lines, with their filters.
    let docker = envelope("docker");
    assert_eq!(docker["source"], "docker");
    assert_eq!(docker["stats"]["format"], "json-file");
    assert_eq!(docker["total_items"], 1, "stderr only");
    assert_eq!(
        docker["items"][0]["message"],
        "ERROR connection refused to db:5432"
    );
    assert_eq!(docker["items"][0]["level"], "error");
    let journal = envelope("journal");
    assert_eq!(journal["source"], "journal");
    assert_eq!(journal["stats"]["entries"], 2, "nginx.service only");
    assert_eq!(journal["items"][0]["priority"], "err");
    assert_eq!(journal["items"][0]["unit"], "nginx.service");

    // An option the reducer refuses: the call's error, before any input is read.
    let bad = &report["bad_option"];
    assert_eq!(bad["is_error"], true, "{bad}");
    assert!(bad["texts"][0].as_str().unwrap().contains("xlsx"), "{bad}");
}

#[test]
fn the_proxy_bounds_results_and_answers_for_a_broken_server() {
    let briefly = Briefly::new();
    let server = script("server.py");
    let metrics = briefly.dir.path().join("metrics.jsonl");
    let report = client(
        &briefly,
        "proxy",
        &[
            env!("CARGO_BIN_EXE_briefly"),
            "mcp-proxy",
            "--metrics",
            metrics.to_str().unwrap(),
            "--",
            python().to_str().unwrap(),
            server.to_str().unwrap(),
        ],
    );
    // One metrics event per result, named by the server's tool: the big one spilled, the
    // small one not.
    let events: Vec<Value> = std::fs::read_to_string(&metrics)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let of = |tool: &str| -> Vec<&Value> { events.iter().filter(|e| e["tool"] == tool).collect() };
    let (big, small) = (of("big"), of("small"));
    assert_eq!((big.len(), small.len()), (1, 1), "{events:?}");
    assert_eq!(big[0]["persisted"], true);
    assert!(
        big[0]["raw_chars"].as_u64().unwrap() > 1_000_000,
        "{}",
        big[0]
    );
    assert!(
        big[0]["inline_chars"].as_u64().unwrap() <= PER_RESULT as u64,
        "{}",
        big[0]
    );
    assert_eq!(small[0]["persisted"], false);
    assert_eq!(small[0]["raw_chars"], small[0]["inline_chars"]);
    assert!(of("mcp-proxy").is_empty(), "{events:?}");
    assert_eq!(report["server"], "briefly-test-server");
    let tools = report["tools"].as_object().unwrap();
    for name in ["small", "big", "read", "page"] {
        assert!(tools.contains_key(name), "{name} listed");
    }

    // Small results pass unchanged.
    assert_eq!(report["small"]["texts"][0], "hello from the test server");
    assert_eq!(
        report["small"]["structured"]["result"],
        "hello from the test server"
    );

    // 2 MB: a bounded result, with the artifact path to follow.
    let big = &report["big"];
    assert_eq!(big["is_error"], false, "{big}");
    assert!(shown(big) <= PER_RESULT, "{} chars shown", shown(big));
    let whole: String = (1..=70_000)
        .map(|i| format!("line {i} of the big result\n"))
        .collect();
    let artifact = report["big_artifact"].as_str().expect("an artifact path");
    assert_eq!(std::fs::read_to_string(artifact).unwrap(), whole);
    // Its next page takes the proxy's per-result budget, not the preview's.
    let page = chars(&report["page"]["texts"][0]);
    assert!(
        (PER_RESULT / 2..=PER_RESULT).contains(&page),
        "{page} chars in a page"
    );
    let read = &report["read"]["structured"];
    assert_eq!(read["items"][0]["line"], 69_990);
    assert_eq!(read["items"][10]["text"], "line 70000 of the big result");

    // Four overlapping results that each fit: together within the turn's budget.
    let parallel = report["parallel"].as_array().unwrap();
    let total: usize = parallel.iter().map(shown).sum();
    assert!(total <= PER_TURN, "{total} chars in one turn");
    let spilled = parallel
        .iter()
        .filter(|r| {
            r["texts"][0]
                .as_str()
                .unwrap()
                .contains("mcp-proxy: this result was")
        })
        .count();
    assert!((1..4).contains(&spilled), "{spilled} of 4 spilled");

    // Notifications and requests pass both ways.
    assert_eq!(report["chatty"]["texts"][0], "roots: file:///work/project");
    assert_eq!(report["logs"], serde_json::json!(["chatty is working"]));
    assert_eq!(
        report["progress"],
        serde_json::json!([[1.0, 2.0, "half way"]])
    );

    // Images pass through.
    assert_eq!(report["picture"]["types"], serde_json::json!(["image"]));

    // A malformed answer, then a crash mid-call: errors, not hangs.
    assert!(error_of(&report["garbage"]).contains("malformed"));
    assert!(error_of(&report["crash"]).contains("exited"));
    assert!(error_of(&report["after_crash"]).contains("exited"));
    let last = &report["read_after_crash"]["structured"];
    assert_eq!(last["items"][0]["text"], "line 70000 of the big result");
}

#[test]
fn the_proxy_keeps_an_over_long_message_whole_and_answers_with_its_path() {
    let briefly = Briefly::new();
    let server = script("server.py");
    let report = client(
        &briefly,
        "overlong",
        &[
            env!("CARGO_BIN_EXE_briefly"),
            "mcp-proxy",
            "--max-message-bytes",
            "100000",
            "--",
            python().to_str().unwrap(),
            server.to_str().unwrap(),
        ],
    );
    let error = error_of(&report["big"]);
    assert!(error.contains("over --max-message-bytes"), "{error}");
    let path = error
        .split("artifact ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .expect("the artifact's path");
    let message = std::fs::read_to_string(path).unwrap();
    let message: Value = serde_json::from_str(&message).unwrap();
    assert!(message["result"]["content"][0]["text"]
        .as_str()
        .unwrap()
        .ends_with("line 70000 of the big result\n"));
    // The server goes on: the next call is answered.
    assert_eq!(report["small"]["texts"][0], "hello from the test server");
}

#[test]
fn mcp_proxy_needs_a_server_that_starts_and_room_for_a_message() {
    let briefly = Briefly::new();
    let output = briefly.run(&["mcp-proxy", "--", "/nonexistent/server"], b"");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot start the MCP server"));
    let output = briefly.run(
        &["mcp-proxy", "--max-message-bytes", "10", "--", "cat"],
        b"",
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("too small"));
}

#[test]
fn what_the_proxied_server_left_running_ends_with_the_proxy() {
    let briefly = Briefly::new();
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pid");
    // A server that starts a process of its own, then reads until its input closes.
    let script = format!(
        "sleep 300 > /dev/null 2>&1 & echo $! > {}; cat > /dev/null",
        pid_file.display()
    );
    let output = briefly.run(&["mcp-proxy", "--", "sh", "-c", &script], b"");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    ended(pid_written(&pid_file), "the server's `sleep 300`");
}

#[test]
fn run_takes_a_reducer_a_directory_and_a_timeout_and_the_reducers_take_their_options() {
    let briefly = Briefly::new();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("marker.txt"), "x").unwrap();
    let mut mcp = Raw::start(&briefly, &["mcp"]);
    let run = mcp.call(
        1,
        "run",
        serde_json::json!({"command": ["ls"], "cwd": dir.path(), "reducer": "spill"}),
    );
    assert_eq!(run["structuredContent"]["source"], "spill");
    assert!(run["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("marker.txt"));
    let slow = mcp.call(
        2,
        "run",
        serde_json::json!({"command": ["sleep", "30"], "timeout": "200ms"}),
    );
    assert_eq!(slow["isError"], true);
    assert_eq!(slow["structuredContent"]["exit_code"], 124);
    let nowhere = mcp.call(
        3,
        "run",
        serde_json::json!({"command": ["ls"], "cwd": "/nonexistent"}),
    );
    assert_eq!(nowhere["isError"], true);
    assert!(nowhere["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("not a directory"));

    let patch = dir.path().join("change.patch");
    std::fs::write(
        &patch,
        "diff --git a/a.rs b/a.rs\n--- a/a.rs\n+++ b/a.rs\n@@ -1 +1 @@\n-old\n+new\n",
    )
    .unwrap();
    let diff = mcp.call(
        4,
        "diff",
        serde_json::json!({"path": patch, "stat_only": true}),
    );
    let envelope = &diff["structuredContent"];
    assert_eq!(envelope["source"], "diff");
    assert_eq!(envelope["items"][0]["path"], "a.rs");
    assert!(envelope["items"][0].get("patch").is_none(), "stat only");
    let both = mcp.call(5, "text", serde_json::json!({"path": patch, "text": "x"}));
    assert_eq!(both["isError"], true);
    let unknown = mcp.request(
        6,
        "tools/call",
        serde_json::json!({"name": "nope", "arguments": {}}),
    );
    assert_eq!(unknown["error"]["code"], -32602);
}

#[test]
fn a_message_the_server_cannot_read_is_answered_with_its_error() {
    use std::io::{BufRead, Write};
    let briefly = Briefly::new();
    let mut mcp = Raw::start(&briefly, &["mcp"]);
    let mut answer = |raw: &[u8]| -> Value {
        mcp.stdin.write_all(raw).unwrap();
        mcp.stdin.write_all(b"\n").unwrap();
        mcp.stdin.flush().unwrap();
        let mut line = String::new();
        assert!(mcp.stdout.read_line(&mut line).unwrap() > 0, "closed");
        serde_json::from_str(&line).unwrap()
    };
    let not_json = answer(b"not json");
    assert_eq!(
        (&not_json["id"], &not_json["error"]["code"]),
        (&Value::Null, &(-32700).into())
    );
    let bad_utf8 = answer(b"{\"jsonrpc\":\"2.0\",\"id\":13,\"method\":\"ping\",\"x\":\"\xff\"}");
    assert_eq!(
        (&bad_utf8["id"], &bad_utf8["error"]["code"]),
        (&13.into(), &(-32700).into())
    );
    // A lone surrogate's escape (a client cut a string inside a character): said so.
    let surrogate =
        answer(br#"{"jsonrpc":"2.0","id":42,"method":"ping","params":{"x":"a \ud83d b"}}"#);
    assert_eq!(surrogate["id"], 42, "{surrogate}");
    let why = surrogate["error"]["message"].as_str().unwrap();
    assert!(why.contains("lone UTF-16 surrogate"), "{why}");
    let no_method = answer(b"{\"jsonrpc\":\"2.0\",\"id\":11}");
    assert_eq!(
        (&no_method["id"], &no_method["error"]["code"]),
        (&11.into(), &(-32600).into())
    );
    // A batch is answered as one (MCP 2025-03-26 has them): a ping, before the
    // session is initialized, too.
    let batch = answer(b"[{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}]");
    assert_eq!(
        batch,
        serde_json::json!([{"jsonrpc": "2.0", "id": 2, "result": {}}])
    );
    let empty = answer(b"[]");
    assert_eq!(empty["error"]["code"], -32600, "{empty}");
    let long = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{{\"name\":\"text\",\"arguments\":{{\"text\":\"{}\"}}}}}}",
        "x".repeat(17 << 20)
    );
    let over = answer(long.as_bytes());
    assert_eq!(
        (&over["id"], &over["error"]["code"]),
        (&7.into(), &(-32600).into())
    );
    assert!(over["error"]["message"]
        .as_str()
        .unwrap()
        .contains("over the limit"));
    // And the server reads on.
    let ping = mcp.request(8, "ping", serde_json::json!({}));
    assert!(ping["result"].is_object(), "{ping}");
}

#[test]
fn a_message_out_of_turn_or_out_of_form_is_answered_by_its_id_and_the_server_serves_on() {
    use std::io::{BufRead, Write};
    use std::process::Stdio;
    let briefly = Briefly::new();
    let mut child = briefly
        .command(&["mcp"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut exchange = |line: &str| -> Value {
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
        let mut answer = String::new();
        assert!(
            stdout.read_line(&mut answer).unwrap() > 0,
            "closed after {line}"
        );
        serde_json::from_str(&answer).unwrap()
    };
    let error_of = |answer: &Value| (answer["id"].clone(), answer["error"]["code"].clone());
    // Before initialize: a stray notification and a stray answer are dropped (the next
    // answer is the ping's), a ping is answered, any other request refused by its id.
    let pong = exchange(
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n\
         {\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}\n\
         {\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":\"ping\"}",
    );
    assert_eq!(
        (&pong["id"], &pong["result"]),
        (&json!("p"), &json!({})),
        "{pong}"
    );
    let early = exchange(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#);
    assert_eq!(error_of(&early), (json!(1), json!(-32002)), "{early}");
    // A call's params are not read before the session: it is not initialized.
    let early_call = exchange(
        r#"{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"text","arguments":[1]}}"#,
    );
    assert_eq!(
        error_of(&early_call),
        (json!("c"), json!(-32002)),
        "{early_call}"
    );
    // An initialize that cannot be read is refused, and the session waits for another.
    for (id, params) in [
        (20, json!({})),
        (21, json!({"capabilities": {}})),
        (
            22,
            json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t"}}),
        ),
    ] {
        let line = json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": params});
        let refused = exchange(&line.to_string());
        assert_eq!(error_of(&refused), (json!(id), json!(-32602)), "{refused}");
        let why = refused["error"]["message"].as_str().unwrap();
        assert!(why.starts_with("initialize needs params"), "{why}");
    }
    let without_params = exchange(r#"{"jsonrpc":"2.0","id":23,"method":"initialize"}"#);
    assert_eq!(
        error_of(&without_params),
        (json!(23), json!(-32602)),
        "{without_params}"
    );
    let init = exchange(
        r#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
    );
    assert!(
        init["result"]["capabilities"]["tools"].is_object(),
        "{init}"
    );
    // No notifications/initialized: the first request still gets its answer.
    let ping = exchange(r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#);
    assert_eq!(ping["result"], json!({}), "{ping}");
    // Out of form: invalid request by the id when it can be read, null when not;
    // tools/call's params wrong, invalid params.
    for (line, id, code) in [
        (
            r#"{"jsonrpc":"1.0","id":11,"method":"ping"}"#,
            json!(11),
            -32600,
        ),
        (
            r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
            Value::Null,
            -32600,
        ),
        (r#""str""#, Value::Null, -32600),
        (r#"42"#, Value::Null, -32600),
        (
            r#"{"jsonrpc":"2.0","id":8,"method":"tools/list","params":"bad"}"#,
            json!(8),
            -32600,
        ),
        (
            r#"{"jsonrpc":"2.0","id":9,"method":"tools/call"}"#,
            json!(9),
            -32602,
        ),
        (
            r#"{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"text","arguments":"str"}}"#,
            json!(10),
            -32602,
        ),
        // What rmcp reads as no message it knows (it answered without the id).
        (
            r#"{"jsonrpc":"2.0","id":51,"method":"tools/list","params":{"_meta":5}}"#,
            json!(51),
            -32602,
        ),
        (
            r#"{"jsonrpc":"2.0","id":52,"method":"tools/list","params":{"_meta":[]}}"#,
            json!(52),
            -32602,
        ),
    ] {
        let answer = exchange(line);
        assert_eq!(error_of(&answer), (id, json!(code)), "{line}: {answer}");
        assert!(answer.as_object().unwrap().contains_key("id"), "{answer}");
    }
    // A key given twice is read once, the last, as the message was checked.
    let twice = exchange(r#"{"jsonrpc":"2.0","id":54,"method":"ping","id":54}"#);
    assert_eq!(
        (&twice["id"], &twice["result"]),
        (&json!(54), &json!({})),
        "{twice}"
    );
    let call = exchange(
        r#"{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"text","arguments":{"text":"hello"}}}"#,
    );
    assert_eq!(
        call["result"]["structuredContent"]["source"], "text",
        "{call}"
    );
    // A number under its schema's minimum is refused, as a negative one is.
    let zero = exchange(
        r#"{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"text","arguments":{"text":"x","context_tokens":0}}}"#,
    );
    assert_eq!(zero["result"]["isError"], true, "{zero}");
    let said = zero["result"]["content"][0]["text"].as_str().unwrap();
    assert!(said.contains("`context_tokens` is at least 1"), "{said}");
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

#[test]
fn format_text_is_said_to_be_unused() {
    let briefly = Briefly::new();
    // No client (its input ends at once): what it says at startup is what counts here.
    let out = briefly.run(&["mcp", "--format", "text"], b"");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("--format text is not used"), "{said}");
}

/// A server on pipes, spoken to in raw JSON-RPC lines (for what needs no SDK).
struct Raw {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: std::io::BufReader<std::process::ChildStdout>,
}

/// Ends a server that has not answered in time (so that a read of its answers fails, not
/// hangs), unless dropped before.
struct Watchdog(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.0.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

impl Raw {
    /// A [`Watchdog`] over this server for `seconds`.
    fn watchdog(&self, seconds: u64) -> Watchdog {
        let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (seen, pid) = (done.clone(), self.child.id());
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_secs(seconds));
            if !seen.load(std::sync::atomic::Ordering::SeqCst) {
                let _ = std::process::Command::new("kill")
                    .arg(pid.to_string())
                    .status();
            }
        });
        Watchdog(done)
    }

    fn start(briefly: &Briefly, args: &[&str]) -> Raw {
        use std::process::Stdio;
        let mut child = briefly
            .command(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut raw = Raw {
            child,
            stdin,
            stdout,
        };
        let init = raw.request(
            0,
            "initialize",
            serde_json::json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}),
        );
        assert!(
            init["result"]["capabilities"]["tools"].is_object(),
            "{init}"
        );
        raw.send(serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        raw
    }

    /// `mcp-proxy` at 8K tokens in front of a `briefly mcp` at 200K (whose results are
    /// larger than the proxy's budget), initialized.
    fn proxied_briefly(briefly: &Briefly) -> Raw {
        let inner = env!("CARGO_BIN_EXE_briefly");
        let proxy = ["mcp-proxy", "--context-tokens", "8192", "--"];
        let server = ["mcp", "--context-tokens", "200000"];
        let args: Vec<&str> = proxy.into_iter().chain([inner]).chain(server).collect();
        Raw::start(briefly, &args)
    }

    fn send(&mut self, message: Value) {
        use std::io::Write;
        writeln!(self.stdin, "{message}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Sends a request and returns its answer (other messages are skipped).
    fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        use std::io::BufRead;
        self.send(
            serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}),
        );
        loop {
            let mut line = String::new();
            assert!(self.stdout.read_line(&mut line).unwrap() > 0, "closed");
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["id"] == id && message.get("method").is_none() {
                return message;
            }
        }
    }

    fn call(&mut self, id: u64, tool: &str, arguments: Value) -> Value {
        let answer = self.request(
            id,
            "tools/call",
            serde_json::json!({"name": tool, "arguments": arguments}),
        );
        answer["result"].clone()
    }
}

impl Drop for Raw {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Characters a raw tool result shows: its texts and its structured content.
fn raw_shown(result: &Value) -> usize {
    let texts: usize = result["content"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|block| block["text"].as_str())
        .map(|text| text.chars().count())
        .sum();
    texts
        + result
            .get("structuredContent")
            .map_or(0, |s| s.to_string().chars().count())
}

#[test]
fn context_tokens_at_startup_sets_the_budget_and_a_call_overrides_it() {
    let briefly = Briefly::new();
    let mut mcp = Raw::start(&briefly, &["mcp", "--context-tokens", "8192"]);
    let run = mcp.call(
        1,
        "run",
        serde_json::json!({"command": ["seq", "1", "100000"]}),
    );
    let artifact = run["structuredContent"]["artifact_path"]
        .as_str()
        .expect("an artifact")
        .to_string();
    let read = mcp.call(2, "read", serde_json::json!({"artifact": artifact}));
    let text = read["content"][0]["text"].as_str().unwrap();
    check_invariants(&read["structuredContent"], text.chars().count(), 8_000);
    assert!(text.chars().count() > 4_000, "the budget is used");
    let wider = mcp.call(
        3,
        "read",
        serde_json::json!({"artifact": artifact, "context_tokens": 65536}),
    );
    let text = wider["content"][0]["text"].as_str().unwrap();
    check_invariants(&wider["structuredContent"], text.chars().count(), 39_321);
    assert!(text.chars().count() > 8_000, "the call's window wins");
}

#[test]
fn the_proxy_bounds_a_wrapped_briefly_and_renames_its_own_tools() {
    let briefly = Briefly::new();
    let mut proxy = Raw::proxied_briefly(&briefly);
    // Before any list, a `briefly_…` name is the proxy's (listed so in an earlier session).
    let dir = tempfile::tempdir().unwrap();
    let small = dir.path().join("small.log");
    std::fs::write(&small, "one\ntwo\n").unwrap();
    let early = proxy.call(9, "briefly_read", serde_json::json!({"artifact": small}));
    assert_eq!(early["structuredContent"]["source"], "read", "{early}");
    let early_page = proxy.call(10, "briefly_page", serde_json::json!({"cursor": "b1.x"}));
    let said = early_page["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(said.contains("cursor"), "{early_page}");
    let list = proxy.request(1, "tools/list", serde_json::json!({}));
    let names: Vec<&str> = list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    // The server has `read` and `page` of its own: the proxy's are renamed.
    for name in ["run", "read", "page", "briefly_read", "briefly_page"] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    let run = proxy.call(
        2,
        "run",
        serde_json::json!({"command": ["seq", "1", "100000"]}),
    );
    let artifact = run["structuredContent"]["artifact_path"]
        .as_str()
        .unwrap()
        .to_string();
    // The inner read answers up to 100,000 chars; the proxy holds it to 8,000.
    let read = proxy.call(3, "read", serde_json::json!({"artifact": artifact}));
    assert!(raw_shown(&read) <= 8_000, "{} chars", raw_shown(&read));
    let stub = read["content"][0]["text"].as_str().unwrap();
    assert!(stub.contains("call the `briefly_read` tool"), "{stub}");
    // Its structured content is cut to fit, still an envelope, kept whole apart.
    assert_eq!(read["structuredContent"]["source"], "read");
    let note = read["content"][1]["text"].as_str().unwrap();
    assert!(note.contains("structuredContent was cut to fit"), "{note}");
    let spilled = stub
        .split("\"artifact\": \"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap();
    // The proxy's own read, on the artifact of the spilled text.
    let own = proxy.call(
        4,
        "briefly_read",
        serde_json::json!({"artifact": spilled, "offset": 1}),
    );
    assert_eq!(own["isError"], false, "{own}");
    let text = own["content"][0]["text"].as_str().unwrap();
    check_invariants(&own["structuredContent"], text.chars().count(), 8_000);
    assert!(own["structuredContent"]["items"][0]["text"]
        .as_str()
        .unwrap()
        .starts_with("{\"ok\":true,\"source\":\"read\""));
}

#[test]
fn a_cancelled_run_ends_the_command() {
    let briefly = Briefly::new();
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pid");
    let mut mcp = Raw::start(&briefly, &["mcp"]);
    let script = format!("echo $$ > {}; exec sleep 60", pid_file.display());
    mcp.send(
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "run", "arguments": {"command": ["sh", "-c", script]}}}),
    );
    let pid = pid_written(&pid_file);
    mcp.send(
        serde_json::json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 1, "reason": "the user gave up"}}),
    );
    ended(pid, "the cancelled command");
    // The server goes on.
    let after = mcp.call(2, "text", serde_json::json!({"text": "still here\n"}));
    assert_eq!(after["isError"], false);
}

#[test]
fn the_server_ends_with_its_input_though_a_call_waits_on_one_that_never_ends() {
    use std::io::Write;
    let briefly = Briefly::new();
    let dir = tempfile::tempdir().unwrap();
    // A named pipe no one writes to: its read never returns.
    let fifo = dir.path().join("fifo");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let mut server = briefly
        .command(&["mcp"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = server.stdin.take().unwrap();
    let call = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "text", "arguments": {"path": fifo}}});
    let messages = [
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#.to_string(),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_string(),
        call.to_string(),
    ];
    for message in messages {
        writeln!(stdin, "{message}").unwrap();
    }
    drop(stdin);
    ended(server.id(), "the server, after its input closed");
    assert!(server.wait().unwrap().success());
}

#[test]
fn a_signal_that_ends_the_server_ends_what_it_runs() {
    let briefly = Briefly::new();
    let dir = tempfile::tempdir().unwrap();
    for signal in ["TERM", "INT", "HUP"] {
        // A command `run` runs, in a process group of its own.
        let pid_file = dir.path().join(format!("run-{signal}"));
        let mut mcp = Raw::start(&briefly, &["mcp"]);
        let script = format!("echo $$ > {}; exec sleep 300", pid_file.display());
        mcp.send(
            serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "run", "arguments": {"command": ["sh", "-c", script]}}}),
        );
        let pid = pid_written(&pid_file);
        let kill = |pid: u32| {
            let sent = std::process::Command::new("kill")
                .args([format!("-{signal}"), pid.to_string()])
                .status();
            assert!(sent.unwrap().success());
        };
        kill(mcp.child.id());
        assert!(!mcp.child.wait().unwrap().success());
        ended(pid, &format!("run's command, after SIG{signal}"));
        // What the proxied server started, in the server's group.
        let pid_file = dir.path().join(format!("proxied-{signal}"));
        let script = format!(
            "sleep 300 > /dev/null 2>&1 & echo $! > {}; cat > /dev/null",
            pid_file.display()
        );
        let mut proxy = briefly
            .command(&["mcp-proxy", "--", "sh", "-c", &script])
            .stdin(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let pid = pid_written(&pid_file);
        kill(proxy.id());
        assert!(!proxy.wait().unwrap().success());
        ended(
            pid,
            &format!("the proxied server's `sleep 300`, after SIG{signal}"),
        );
    }
}

#[test]
fn read_goes_on_inside_a_long_line_from_its_column() {
    let briefly = Briefly::new();
    let file = briefly.dir.path().join("one-line.json");
    let line: String = (0..3_000).map(|i| format!("{{\"k\":{i}}},")).collect();
    std::fs::write(&file, format!("{line}\n")).unwrap();
    let mut mcp = Raw::start(&briefly, &["mcp", "--context-tokens", "8192"]);
    let artifact = file.to_str().unwrap();
    let read = mcp.call(1, "read", serde_json::json!({"artifact": artifact}));
    let first = &read["structuredContent"];
    let column = first["stats"]["next_column"]
        .as_u64()
        .expect("a page inside the line");
    assert_eq!(first["items"][0]["column"], 1);
    let shown = first["items"][0]["text"].as_str().unwrap();
    assert_eq!(column as usize, shown.chars().count() + 1);
    let on = mcp.call(
        2,
        "read",
        serde_json::json!({"artifact": artifact, "offset": 1, "column": column}),
    );
    let next = &on["structuredContent"]["items"][0];
    assert_eq!(next["column"], column);
    assert!(line[shown.len()..].starts_with(next["text"].as_str().unwrap()));
}

#[test]
fn a_batch_is_answered_as_one_array_of_its_answers() {
    use std::io::BufRead;
    let briefly = Briefly::new();
    let mut mcp = Raw::start(&briefly, &["mcp"]);
    let next_line = |mcp: &mut Raw| -> Value {
        let mut line = String::new();
        assert!(mcp.stdout.read_line(&mut line).unwrap() > 0, "closed");
        serde_json::from_str(&line).unwrap()
    };
    mcp.send(serde_json::json!([
        {"jsonrpc": "2.0", "id": "call", "method": "tools/call", "params": {"name": "text", "arguments": {"text": "a\nb\n"}}},
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}},
        {"jsonrpc": "2.0", "id": 5, "method": "ping"},
        {"jsonrpc": "1.0", "id": 6, "method": "ping"},
        {"jsonrpc": "2.0", "id": 7, "method": "tools/list"}
    ]));
    let answers = next_line(&mut mcp);
    let answers = answers.as_array().expect("one array");
    let mut ids: Vec<String> = answers.iter().map(|a| a["id"].to_string()).collect();
    ids.sort();
    assert_eq!(
        ids,
        ["\"call\"", "5", "6", "7"],
        "no answer for the notification"
    );
    let by_id = |id: Value| answers.iter().find(|a| a["id"] == id).unwrap();
    assert_eq!(
        by_id("call".into())["result"]["structuredContent"]["source"],
        "text"
    );
    assert_eq!(by_id(6.into())["error"]["code"], -32600);
    assert!(by_id(7.into())["result"]["tools"].is_array());
    // Requests rmcp would answer without their id are answered here with it, and the
    // batch's other requests are answered with them; a notification with params by
    // position is not answered. (Were the batch never answered, the read would fail.)
    let _watchdog = mcp.watchdog(60);
    mcp.send(serde_json::json!([
        {"jsonrpc": "2.0", "id": "a", "method": "tools/call", "params": {"name": "spill", "arguments": {"text": "hello"}}},
        {"jsonrpc": "2.0", "id": "b", "method": "tools/list", "params": []},
        {"jsonrpc": "2.0", "id": null, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 18446744073709551615u64, "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": [1]}
    ]));
    let answers = next_line(&mut mcp);
    let answers = answers.as_array().expect("one array");
    let ids: Vec<String> = answers.iter().map(|a| a["id"].to_string()).collect();
    assert_eq!(ids.len(), 4, "{answers:?}");
    for id in ["\"a\"", "\"b\"", "null", "18446744073709551615"] {
        assert!(ids.iter().any(|i| i == id), "{id}: {answers:?}");
    }
    let errors = answers.iter().filter(|a| a.get("error").is_some()).count();
    assert_eq!(errors, 3, "{answers:?}");
    // Params by position: a request JSON-RPC allows, whose params MCP's methods refuse.
    let by_position = answers.iter().find(|a| a["id"] == "b").unwrap();
    assert_eq!(by_position["error"]["code"], -32602, "{by_position}");
    // A batch of notifications has no answer: the next line answers the next request.
    mcp.send(serde_json::json!([{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 98}}]));
    let ping = mcp.request(8, "ping", serde_json::json!({}));
    assert!(ping["result"].is_object(), "{ping}");
}

#[test]
fn the_proxy_answers_a_batch_as_one_its_results_bounded() {
    use std::io::BufRead;
    let briefly = Briefly::new();
    let mut proxy = Raw::proxied_briefly(&briefly);
    proxy.request(1, "tools/list", serde_json::json!({}));
    let big = (1..=20_000)
        .map(|i| format!("line {i}\n"))
        .collect::<String>();
    // A call the server answers, one the proxy answers itself, a ping, a notification.
    proxy.send(serde_json::json!([
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "spill", "arguments": {"text": big}}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "briefly_read", "arguments": {"artifact": "/nonexistent/x"}}},
        {"jsonrpc": "2.0", "id": 4, "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}}
    ]));
    let mut line = String::new();
    assert!(proxy.stdout.read_line(&mut line).unwrap() > 0, "closed");
    let answers: Value = serde_json::from_str(&line).unwrap();
    let answers = answers.as_array().expect("one array");
    let mut ids: Vec<u64> = answers.iter().map(|a| a["id"].as_u64().unwrap()).collect();
    ids.sort();
    assert_eq!(ids, [2, 3, 4]);
    let by_id = |id: u64| answers.iter().find(|a| a["id"] == id).unwrap();
    // The server's result, bounded by the proxy as one alone would be.
    let spilled = &by_id(2)["result"];
    assert!(raw_shown(spilled) <= 8_000, "{} chars", raw_shown(spilled));
    assert_eq!(by_id(3)["result"]["isError"], true, "the proxy's own read");
    assert!(by_id(4)["result"].is_object());
    // What is no message is answered in the batch, not sent on; a batch of only that is
    // answered at once.
    for (batch, expected) in [
        (
            serde_json::json!([{"jsonrpc": "2.0", "id": 6, "method": "ping"}, 5, "x"]),
            3,
        ),
        (serde_json::json!([5]), 1),
    ] {
        proxy.send(batch);
        let mut line = String::new();
        assert!(proxy.stdout.read_line(&mut line).unwrap() > 0, "closed");
        let answers: Value = serde_json::from_str(&line).unwrap();
        let answers = answers.as_array().expect("one array");
        assert_eq!(answers.len(), expected, "{line}");
        let refused = answers
            .iter()
            .filter(|a| a["error"]["code"] == -32600)
            .count();
        assert_eq!(refused, expected.min(2), "{line}");
    }
    // And the proxy reads on.
    let ping = proxy.request(5, "ping", serde_json::json!({}));
    assert!(ping["result"].is_object(), "{ping}");
}

#[test]
fn a_page_keeps_its_calls_budget_over_the_servers() {
    let briefly = Briefly::new();
    let mut mcp = Raw::start(&briefly, &["mcp", "--context-tokens", "200000"]);
    let log: String = (0..20_000)
        .map(|i| {
            format!(
                "2024-01-05 10:00:{:02} INFO item {i} took {}ms\n",
                i % 60,
                i * 7 % 1000
            )
        })
        .collect();
    let first = mcp.call(
        1,
        "spill",
        serde_json::json!({"text": log, "context_tokens": 8192}),
    );
    let size = |result: &Value| {
        result["content"][0]["text"]
            .as_str()
            .unwrap()
            .chars()
            .count()
    };
    let cursor = first["structuredContent"]["next_cursor"]
        .as_str()
        .unwrap()
        .to_string();
    let page = mcp.call(2, "page", serde_json::json!({"cursor": cursor}));
    assert!(
        size(&page) <= size(&first) + 100,
        "{} then {}",
        size(&first),
        size(&page)
    );
    // The call's own budget wins over the cursor's.
    let wide = mcp.call(
        3,
        "page",
        serde_json::json!({"cursor": cursor, "context_tokens": 200000}),
    );
    assert!(
        size(&wide) > 2 * size(&first),
        "{} then {}",
        size(&first),
        size(&wide)
    );
}

#[test]
fn a_schemas_maximum_is_what_a_call_is_refused_past() {
    let briefly = Briefly::new();
    let mut mcp = Raw::start(&briefly, &["mcp"]);
    let list = mcp.request(1, "tools/list", serde_json::json!({}));
    let artifact = briefly.dir.path().join("log.txt");
    std::fs::write(&artifact, "a\nERROR b\nc\n").unwrap();
    let path = artifact.to_str().unwrap();
    let cases = [
        (
            "text",
            "context",
            serde_json::json!({"text": "a\nERROR b\n"}),
        ),
        (
            "grep",
            "context",
            serde_json::json!({"artifact": path, "pattern": "b"}),
        ),
        (
            "docker",
            "tail",
            serde_json::json!({"text": "2024-01-01T00:00:00Z up\n"}),
        ),
    ];
    for (n, (tool, key, arguments)) in cases.into_iter().enumerate() {
        let schema = list["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == tool)
            .unwrap();
        let max = schema["inputSchema"]["properties"][key]["maximum"]
            .as_u64()
            .unwrap_or_else(|| panic!("{tool}.{key} has a maximum: {schema}"));
        for (value, refused) in [(max, false), (max + 1, true)] {
            let mut arguments = arguments.clone();
            arguments[key] = value.into();
            let id = 10 + 2 * n as u64 + u64::from(refused);
            let result = mcp.call(id, tool, arguments);
            assert_eq!(
                result["isError"] == true,
                refused,
                "{tool}.{key}={value}: {result}"
            );
        }
    }
}
