//! `briefly budget`: the budgets for a context window.

mod common;

use common::Briefly;

#[test]
fn the_table_from_the_issue() {
    let b = Briefly::new();
    let envelope = b.envelope(&["budget"], b"", 19_660);
    let rows: Vec<(u64, u64, u64)> = envelope["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["context_tokens"].as_u64().unwrap(),
                r["per_result_chars"].as_u64().unwrap(),
                r["per_turn_chars"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            (8_192, 8_000, 16_000),
            (16_384, 9_830, 19_660),
            (32_768, 19_660, 39_321),
            (65_536, 39_321, 78_643),
            (131_072, 78_643, 157_286),
            (200_000, 100_000, 200_000),
        ]
    );
    assert_eq!(envelope["stats"]["current"]["per_result_chars"], 19_660);
    assert_eq!(envelope["stats"]["current"]["preview_chars"], 1_500);
}

#[test]
fn for_a_given_window_and_what_is_left_of_it() {
    let b = Briefly::new();
    let e = b.envelope(&["budget", "--context-tokens", "131072"], b"", 78_643);
    assert_eq!(e["stats"]["current"]["per_result_chars"], 78_643);
    assert_eq!(e["stats"]["current"]["per_turn_chars"], 157_286);
    // (131,072 − 100,000 − 8,000 − 3,072) × 0.40 = 8,000 tokens = 32,000 chars.
    let e = b.envelope(
        &[
            "--remaining-from",
            "system=4000,schemas=4000,history=100000,reserve=3072",
            "budget",
            "--context-tokens",
            "131072",
        ],
        b"",
        78_643,
    );
    assert_eq!(e["stats"]["current"]["per_turn_chars"], 32_000);
    assert_eq!(e["stats"]["current"]["per_result_chars"], 32_000);
    let out = b.run(&["budget", "--remaining-from", "nonsense=1"], b"");
    assert_eq!(out.status.code(), Some(2));
    let out = b.run(&["budget", "--max-chars", "10"], b"");
    assert_eq!(out.status.code(), Some(2));
    // A real tokenizer needs room for a cursor in a quarter of the budget: 2,000 chars
    // at least, given or left of the window.
    let out = b.run(
        &["budget", "--max-chars", "1000", "--tokenizer", "cl100k"],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("minimum of 2000 with a tokenizer"));
    let e = b.envelope(
        &["budget", "--max-chars", "1000", "--tokenizer", "chars4"],
        b"",
        1_000,
    );
    assert_eq!(e["stats"]["current"]["per_result_chars"], 1_000);
    // The rows the budget leaves out are kept as an artifact and paged, as any
    // reducer's items are.
    let rows = e["items"].as_array().unwrap().len();
    assert!(rows < 6);
    assert_eq!(e["total_items"], 6);
    assert_eq!(e["truncated"], true);
    assert!(e["artifact_path"].is_string());
    let windows = b.all_items(&e, 1_000);
    let tokens: Vec<u64> = windows
        .iter()
        .map(|w| w["context_tokens"].as_u64().unwrap())
        .collect();
    assert_eq!(tokens, [8_192, 16_384, 32_768, 65_536, 131_072, 200_000]);
    let e = b.envelope(
        &[
            "budget",
            "--context-tokens",
            "8000",
            "--remaining-from",
            "history=7900",
            "--tokenizer",
            "cl100k",
        ],
        b"",
        2_000,
    );
    assert_eq!(e["stats"]["current"]["per_result_chars"], 2_000);
    let text = b.run(&["budget", "--format", "text"], b"");
    assert!(String::from_utf8(text.stdout)
        .unwrap()
        .contains("per-result 19660 chars"));
}

#[test]
fn a_window_too_small_or_a_spec_said_twice_is_refused_and_a_large_budget_warned() {
    let b = Briefly::new();
    for args in [
        &["budget", "--context-tokens", "0"][..],
        &["budget", "--remaining-from", "history=32000,history=0"],
        &["budget", "--remaining-from="],
        &["text", "--max-line-bytes", "0"],
    ] {
        let out = b.run(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("a window holds at least one token")
                || stderr.contains("is given twice")
                || stderr.contains("expected KEY=TOKENS")
                || stderr.contains("a line keeps at least one byte"),
            "{args:?}: {stderr}"
        );
    }
    let e = b.envelope(
        &[
            "budget",
            "--context-tokens",
            "8192",
            "--max-chars",
            "100000",
        ],
        b"",
        100_000,
    );
    common::assert_warns(
        &e,
        &["the per-result budget of 100000 chars is over half of the 8192-token window"],
    );
    // A window smaller than the least budget: said, as no window can hold it.
    let e = b.envelope(&["budget", "--context-tokens", "100"], b"", 100_000);
    common::assert_warns(
        &e,
        &["the per-result budget of 8000 chars is over half of the 100-token window"],
    );
    let e = b.envelope(&["budget", "--context-tokens", "200000"], b"", 100_000);
    assert_eq!(e["warnings"], serde_json::json!([]));
}
