//! `briefly json` end to end, on JSON written by Python's json module and jq at test time.

mod common;

use common::{python, Briefly};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

const CAP: usize = 19_660;
const REGIONS: [&str; 3] = ["eu", "us", "ap"];

/// Runs a Python snippet (the tests' virtualenv) that writes files into `dir`.
fn py(dir: &Path, code: &str) {
    let out = Command::new(python())
        .arg("-c")
        .arg(code)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A pretty-printed `{"kind": "List", "items": [...]}` of `n` jobs (written by Python's
/// json module), one of them failed; and the same jobs as NDJSON.
fn jobs(dir: &Path, n: usize) -> (PathBuf, PathBuf) {
    py(
        dir,
        &format!(
            r#"
import json
items = [{{"id": i, "name": "job-%d" % i, "status": "failed" if i == {n} * 7 // 10 else "ok",
          "level": ["info", "warn", "error"][i % 3], "ms": (i * 37) % 1001,
          "meta": {{"region": ["eu", "us", "ap"][i % 3], "tags": ["a", "b"][: i % 3]}}}}
         for i in range({n})]
json.dump({{"kind": "List", "items": items}}, open("doc.json", "w"), indent=2)
open("jobs.ndjson", "w").write("".join(json.dumps(x) + "\n" for x in items))
"#
        ),
    );
    (dir.join("doc.json"), dir.join("jobs.ndjson"))
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn the_one_failing_item_of_ten_thousand_whole() {
    let b = Briefly::new();
    let (doc, _) = jobs(b.dir.path(), 10_000);
    let expected = json!({"id": 7000, "name": "job-7000", "status": "failed", "level": "warn",
        "ms": 7000 * 37 % 1001, "meta": {"region": "us", "tags": ["a"]}});
    // Held in memory, and streamed (the document is over a 100 kB limit).
    for extra in [&[][..], &["--max-document-bytes", "100000"][..]] {
        let mut args = vec!["json", "--where", "items[].status=failed", s(&doc)];
        args.extend_from_slice(extra);
        let envelope = b.envelope(&args, b"", CAP);
        assert_eq!(envelope["items"], json!([expected]), "{extra:?}");
        assert_eq!(envelope["total_items"], 1);
        assert_eq!(envelope["stats"]["records"], 10_000);
        assert_eq!(envelope["stats"]["record_path"], "items[]");
        assert_eq!(envelope["truncated"], false);
        assert_eq!(envelope["ok"], true);
        assert_eq!(
            envelope["stats"].get("streamed").is_some(),
            !extra.is_empty()
        );
    }
}

#[test]
fn shape_without_options_and_small_documents_whole() {
    let b = Briefly::new();
    let (doc, ndjson) = jobs(b.dir.path(), 2000);
    for (input, prefix) in [(&doc, "items[]."), (&ndjson, "")] {
        let envelope = b.envelope(&["json", s(input)], b"", CAP);
        assert_eq!(envelope["preview"], "summary");
        let paths = envelope["items"].as_array().unwrap();
        let status = paths
            .iter()
            .find(|p| p["path"] == format!("{prefix}status"))
            .unwrap_or_else(|| panic!("{envelope}"));
        assert_eq!(status["type"], "string");
        assert_eq!(status["count"], 2000);
        assert_eq!(status["examples"], json!(["ok", "failed"]));
        // A path of few values counts each: the one failure among the `ok`s.
        assert_eq!(status["values"], json!([["ok", 1999], ["failed", 1]]));
        let path = |name: &str| {
            let path = format!("{prefix}{name}");
            paths.iter().find(|p| p["path"] == path).unwrap()
        };
        let level = json!([["info", 667], ["warn", 667], ["error", 666]]);
        assert_eq!(path("level")["values"], level);
        // Not a path of many values: names, numbers.
        assert_eq!(path("name").get("values"), None);
        assert_eq!(path("ms").get("values"), None);
        let tags = paths
            .iter()
            .find(|p| p["path"] == format!("{prefix}meta.tags"))
            .unwrap();
        assert_eq!(tags["len"], "0..2");
    }
    // Streamed shape: the same paths.
    let streamed = b.envelope(
        &["json", s(&doc), "--max-document-bytes", "50000"],
        b"",
        CAP,
    );
    let held = b.envelope(&["json", s(&doc)], b"", CAP);
    assert_eq!(streamed["items"], held["items"]);
    // A small document comes back whole; --whole-chars 0 asks for its shape.
    let small = br#"{"name": "x", "ports": [80, 443]}"#;
    let whole = b.envelope(&["json"], small, CAP);
    assert_eq!(whole["items"], json!([{"name": "x", "ports": [80, 443]}]));
    assert_eq!(whole["truncated"], false);
    let shape = b.envelope(&["json", "--whole-chars", "0"], small, CAP);
    assert_eq!(shape["items"][2]["path"], "ports");
    assert_eq!(shape["items"][2]["len"], "2");
    // A document small enough to return whole, but more than half a page, one item no
    // page can split: its shape, paged; the same on each page, at another budget too.
    let values: Vec<Value> = (0..60)
        .map(|i| json!({"id": i, "name": "x".repeat(20)}))
        .collect();
    let document = serde_json::to_string(&values).unwrap();
    let shape = b.envelope(&["--max-chars", "1500", "json"], document.as_bytes(), 1_500);
    let summary = shape["summary"].as_str().unwrap();
    assert!(
        summary.starts_with("JSON document (one line): shape of 4 paths"),
        "{shape}"
    );
    assert_eq!(shape["items"][1]["path"], "[]", "{shape}");
    let whole = b.envelope(
        &["--max-chars", "40000", "json"],
        document.as_bytes(),
        40_000,
    );
    assert_eq!(whole["items"], json!([values]));
    // Of 60 paths, over pages: a page at a larger budget pages the same shape.
    let keyed: Vec<Value> = (0..60)
        .map(|i| json!({format!("key_{i}"): "x".repeat(10)}))
        .collect();
    let document = serde_json::to_string(&keyed).unwrap();
    let shape = b.envelope(&["--max-chars", "1500", "json"], document.as_bytes(), 1_500);
    let paths = b.all_items(&shape, 1_500);
    assert_eq!(paths.len(), 62, "{shape}");
    let cursor = shape["next_cursor"].as_str().expect("a next page");
    let page = b.envelope(&["--max-chars", "40000", "page", cursor], b"", 40_000);
    assert_eq!(page["summary"], shape["summary"]);
    let lines: String = values.iter().map(|v| format!("{v}\n")).collect();
    let paged = b.envelope(&["--max-chars", "1500", "json"], lines.as_bytes(), 1_500);
    assert_eq!(
        paged["summary"],
        "NDJSON, 60 values, returned whole, over pages (next_cursor)"
    );
}

#[test]
fn fields_where_limit_count_by_top_sort_desc() {
    let b = Briefly::new();
    let (doc, ndjson) = jobs(b.dir.path(), 3000);
    let fields = b.envelope(
        &[
            "json",
            s(&doc),
            "--where",
            "items[].ms>995",
            "--fields",
            "items[].id,meta.region",
        ],
        b"",
        CAP,
    );
    let expected: Vec<Value> = (0..3000)
        .filter(|i| i * 37 % 1001 > 995)
        .map(|i| json!({"id": i, "meta.region": REGIONS[i % 3]}))
        .collect();
    assert_eq!(fields["items"], json!(expected));
    assert_eq!(fields["total_items"], expected.len());

    // Several conditions hold together; != and ~ and <=.
    let and = b.envelope(
        &[
            "json",
            s(&ndjson),
            "--where",
            "level!=info",
            "--where",
            "name~^job-1[0-9]$",
            "--where",
            "ms<=500",
            "--fields",
            "id",
        ],
        b"",
        CAP,
    );
    let expected: Vec<Value> = (10..20)
        .filter(|i| i % 3 != 0 && i * 37 % 1001 <= 500)
        .map(|i| json!({"id": i}))
        .collect();
    assert_eq!(and["items"], json!(expected));

    let limit = b.envelope(
        &[
            "json",
            s(&ndjson),
            "--where",
            "level=error",
            "--limit",
            "4",
            "--fields",
            "id",
        ],
        b"",
        CAP,
    );
    assert_eq!(
        limit["items"],
        json!([{"id": 2}, {"id": 5}, {"id": 8}, {"id": 11}])
    );
    assert_eq!(limit["stats"]["matched"], 1000);
    // The matches past --limit are left out: said so, the raw input kept.
    assert_eq!(limit["truncated"], true);
    assert!(limit["artifact_path"].is_string());

    let count = b.envelope(
        &["json", s(&doc), "--count-by", "items[].meta.region"],
        b"",
        CAP,
    );
    assert_eq!(
        count["items"],
        // Ties: by value.
        json!([{"value": "ap", "count": 1000}, {"value": "eu", "count": 1000}, {"value": "us", "count": 1000}])
    );
    let top = b.envelope(
        &[
            "json",
            s(&ndjson),
            "--count-by",
            "meta.tags[]",
            "--top",
            "1",
        ],
        b"",
        CAP,
    );
    assert_eq!(top["items"], json!([{"value": "a", "count": 2000}]));
    assert_eq!(top["stats"]["groups"], 2);
    assert_eq!(top["stats"]["other_records"], 1000);
    // The group left out is the input's: in the artifact.
    assert_eq!(top["truncated"], true);
    let kept = std::fs::read(top["artifact_path"].as_str().unwrap()).unwrap();
    assert_eq!(kept, std::fs::read(&ndjson).unwrap());
    assert!(
        top["summary"]
            .as_str()
            .unwrap()
            .ends_with("; the 1 largest shown (--top)"),
        "{top}"
    );

    let mut by_ms: Vec<(usize, usize)> = (0..3000).map(|i| (i * 37 % 1001, i)).collect();
    by_ms.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let sorted = b.envelope(
        &[
            "json",
            s(&ndjson),
            "--sort",
            "ms",
            "--desc",
            "--limit",
            "3",
            "--fields",
            "id,ms",
        ],
        b"",
        CAP,
    );
    let expected: Vec<Value> = by_ms[..3]
        .iter()
        .map(|(ms, id)| json!({"id": id, "ms": ms}))
        .collect();
    assert_eq!(sorted["items"], json!(expected));
    let ascending = b.envelope(
        &[
            "json",
            s(&ndjson),
            "--sort",
            "ms",
            "--limit",
            "1",
            "--fields",
            "ms",
        ],
        b"",
        CAP,
    );
    assert_eq!(ascending["items"], json!([{"ms": 0}]));

    // Records without the key (null, missing) come last either way.
    let sparse = b.dir.path().join("sparse.ndjson");
    std::fs::write(
        &sparse,
        "{\"id\":0,\"ms\":null}\n{\"id\":1,\"ms\":5}\n{\"id\":2}\n{\"id\":3,\"ms\":9}\n",
    )
    .unwrap();
    for (order, ids) in [(&["--desc"][..], [3, 1, 0, 2]), (&[], [1, 3, 0, 2])] {
        let args = [
            &["json", s(&sparse), "--sort", "ms", "--fields", "id"],
            order,
        ]
        .concat();
        let sorted = b.envelope(&args, b"", CAP);
        let got: Vec<_> = sorted["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|item| item["id"].clone())
            .collect();
        assert_eq!(got, ids.map(|id| json!(id)), "{order:?}: {sorted}");
    }
}

#[test]
fn pages_through_every_match_from_the_artifact() {
    let b = Briefly::new();
    let (doc, ndjson) = jobs(b.dir.path(), 1500);
    // NDJSON, a document held in memory, and the same document streamed.
    let inputs: [(&Path, &str, &[&str]); 3] = [
        (&ndjson, "level=warn", &[]),
        (&doc, "items[].level=warn", &[]),
        (
            &doc,
            "items[].level=warn",
            &["--max-document-bytes", "50000"],
        ),
    ];
    for (input, condition, extra) in inputs {
        let mut args = vec![
            "json",
            s(input),
            "--where",
            condition,
            "--fields",
            "id,name",
            "--max-chars",
            "3000",
        ];
        args.extend_from_slice(extra);
        let mut envelope = b.envelope(&args, b"", 3000);
        assert_eq!(envelope["total_items"], 500);
        let mut ids: Vec<u64> = Vec::new();
        let mut pages = 0;
        loop {
            ids.extend(
                envelope["items"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|i| i["id"].as_u64().unwrap()),
            );
            let Some(cursor) = envelope["next_cursor"].as_str().map(String::from) else {
                break;
            };
            envelope = b.envelope(&["page", &cursor], b"", 3000);
            pages += 1;
            assert!(pages < 500, "paging moves forward");
        }
        let expected: Vec<u64> = (0..1500).filter(|i| i % 3 == 1).collect();
        assert_eq!(ids, expected, "{condition} {extra:?}");
        assert!(pages > 5, "{pages} pages");
    }
}

#[test]
fn a_top_level_array_and_a_stream_of_pretty_values_are_records_too() {
    let b = Briefly::new();
    let (doc, _) = jobs(b.dir.path(), 1000);
    let jq = |filter: &str| {
        let out = Command::new("jq").arg(filter).arg(&doc).output().unwrap();
        assert!(out.status.success());
        out.stdout
    };
    // `jq .items`: one pretty-printed array; `jq '.items[]'`: 1000 pretty values.
    for (input, format, record_path) in [
        (jq(".items"), "json", json!("[]")),
        (jq(".items[]"), "json-stream", Value::Null),
    ] {
        let envelope = b.envelope(
            &["json", "--where", "status=failed", "--fields", "id"],
            &input,
            CAP,
        );
        assert_eq!(envelope["items"], json!([{"id": 700}]), "{format}");
        assert_eq!(envelope["stats"]["format"], format);
        assert_eq!(envelope["stats"]["records"], 1000);
        assert_eq!(
            envelope["stats"]
                .get("record_path")
                .cloned()
                .unwrap_or(Value::Null),
            record_path
        );
    }
}

#[test]
fn bad_input_gets_an_error_with_its_byte_offset() {
    let b = Briefly::new();
    let mut deep = "[".repeat(100_000);
    deep.push_str(&"]".repeat(100_000));
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (
            b"{\"a\": [1,\n 2".to_vec(),
            "line 2 (byte 12): input ends inside an array opened at byte 6",
        ),
        (
            b"{\"a\": 1,\n \"b\": 2}\n]".to_vec(),
            "line 3 (byte 18): unexpected ']', in: ]",
        ),
        (
            b"{\"a\": 1} garbage\n".to_vec(),
            "line 1 (byte 9): text after a JSON value, skipped: garbage",
        ),
        (
            b"{\"a\":\n Nope}".to_vec(),
            "line 2 (byte 7): expected value",
        ),
        (b"[1,\n-1.e5]".to_vec(), "line 2 (byte 7): invalid number"),
        (
            deep.clone().into_bytes(),
            "(byte 512): nesting deeper than 512 levels",
        ),
        (
            b"{\"s\": \"caf\xe9\"}\n{\"s\": \"\xff\"}\n".to_vec(),
            "byte 10: invalid UTF-8 replaced by U+FFFD",
        ),
    ];
    for (input, expected) in cases {
        let envelope = b.envelope(&["json"], &input, CAP);
        let warnings = envelope["warnings"].to_string();
        assert!(warnings.contains(expected), "{expected}: {envelope}");
        if expected.contains("UTF-8") {
            assert!(
                warnings.contains("line 2 (byte 21): invalid UTF-8"),
                "{envelope}"
            );
        } else {
            assert_eq!(envelope["ok"], false, "{expected}");
        }
    }
    // The deepest nesting --max-depth allows is read and printed; a larger limit is an
    // error, not a stack overflow.
    let depth = briefly_json::MAX_DEPTH;
    let deep = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
    let max = depth.to_string();
    let read = b.run(&["json", "--max-depth", &max], deep.as_bytes());
    assert!(read.status.success());
    // Deeper than serde_json's parser goes by default: read as text.
    let printed = String::from_utf8(read.stdout).unwrap();
    assert!(printed.starts_with("{\"ok\":true"), "{printed}");
    assert!(printed.contains(&deep), "returned whole");
    let over = (depth + 1).to_string();
    let failed = b.run(&["json", "--max-depth", &over], deep.as_bytes());
    assert_eq!(failed.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&failed.stderr).contains("--max-depth must be at most"));
    // Deeper than a smaller --max-depth.
    let envelope = b.envelope(&["json", "--max-depth", "3"], b"[[[[1]]]]", CAP);
    assert!(envelope["warnings"][0]
        .as_str()
        .unwrap()
        .contains("(byte 3): nesting deeper than 3 levels"));

    // Duplicate keys: the last value is kept, and said so.
    let envelope = b.envelope(&["json", "--where", "a=2"], b"{\"a\": 1, \"a\": 2}\n", CAP);
    assert_eq!(envelope["items"], json!([{"a": 2}]));
    assert_eq!(envelope["stats"]["duplicate_keys"], 1);
    assert!(envelope["warnings"][0]
        .as_str()
        .unwrap()
        .contains("1 duplicate key in the items"));
    // The value dropped is in the artifact the warning names.
    let kept = std::fs::read(envelope["artifact_path"].as_str().unwrap()).unwrap();
    assert_eq!(kept, b"{\"a\": 1, \"a\": 2}\n");
}

#[test]
fn a_huge_string_is_skipped_with_bounded_memory_and_long_strings_are_cut() {
    let b = Briefly::new();
    // A 40 MB string, over a 4 MB document limit and a 1 MB record limit: the scanner
    // streams past it (its record is skipped) instead of holding it.
    let big = "x".repeat(40 << 20);
    let input = format!(
        "{{\"items\": [{{\"id\": 1, \"blob\": \"{big}\"}}, {{\"id\": 2, \"blob\": \"small\"}}]}}"
    );
    let path = b.dir.path().join("big.json");
    std::fs::write(&path, &input).unwrap();
    let envelope = b.envelope(
        &[
            "json",
            s(&path),
            "--where",
            "items[].id>0",
            "--max-document-bytes",
            "4000000",
            "--max-record-bytes",
            "1000000",
        ],
        b"",
        CAP,
    );
    assert_eq!(envelope["items"], json!([{"id": 2, "blob": "small"}]));
    assert_eq!(envelope["stats"]["oversize"], 1);
    assert!(
        envelope["warnings"][0]
            .as_str()
            .unwrap()
            .contains("record at byte 11 is 41943"),
        "{envelope}"
    );
    // Under the limits it is held, and cut in the item with the core's marker.
    let envelope = b.envelope(
        &[
            "json",
            s(&path),
            "--where",
            "items[].id=1",
            "--max-string-chars",
            "10",
        ],
        b"",
        CAP,
    );
    assert_eq!(
        envelope["items"][0]["blob"],
        format!("xxxxxxxxxx…[cut {} chars]", (40 << 20) - 10)
    );
    assert_eq!(envelope["stats"]["cut_strings"], 1);
    assert_eq!(envelope["truncated"], true);
    // NDJSON lines over --max-record-bytes are skipped and named.
    let lines = format!(
        "{{\"id\": 1}}\n{{\"id\": \"{}\"}}\n{{\"id\": 3}}\n",
        "y".repeat(5000)
    );
    let envelope = b.envelope(
        &["json", "--limit", "5", "--max-record-bytes", "1000"],
        lines.as_bytes(),
        CAP,
    );
    assert_eq!(envelope["items"], json!([{"id": 1}, {"id": 3}]));
    assert!(envelope["warnings"][0]
        .as_str()
        .unwrap()
        .contains("line 2 (byte 10) is over max-record-bytes"));
}

#[test]
fn records_named_as_the_lines_keep_their_arrays_inside_and_page() {
    let b = Briefly::new();
    let (_, ndjson) = jobs(b.dir.path(), 1500);
    let args = |records: Option<&'static str>| {
        let mut args = vec![
            "json",
            s(&ndjson),
            "--where",
            "meta.tags[]=b",
            "--where",
            "level=error",
            "--fields",
            "id",
            "--max-chars",
            "3000",
        ];
        if let Some(records) = records {
            args.extend(["--records", records]);
        }
        args
    };
    // The first `[]` path makes the tags the records: `level` is read in each tag.
    let tags = b.envelope(&args(None), b"", 3000);
    assert_eq!(tags["total_items"], 0, "{tags}");
    assert!(
        tags["warnings"][0]
            .as_str()
            .unwrap()
            .contains("--records . makes each value of the input a record"),
        "{tags}"
    );
    // The lines are the records: every job with an error and a `b` tag, page by page.
    let mut envelope = b.envelope(&args(Some(".")), b"", 3000);
    assert_eq!(envelope["total_items"], 500, "{envelope}");
    let mut ids: Vec<u64> = Vec::new();
    loop {
        let items = envelope["items"].as_array().unwrap();
        ids.extend(items.iter().map(|i| i["id"].as_u64().unwrap()));
        let Some(cursor) = envelope["next_cursor"].as_str().map(String::from) else {
            break;
        };
        envelope = b.envelope(&["page", &cursor], b"", 3000);
    }
    // Python's jobs: level "error" and tags ["a", "b"] both where i % 3 == 2.
    let expected: Vec<u64> = (0..1500).filter(|i| i % 3 == 2).collect();
    assert_eq!(ids, expected);
}

#[test]
fn bad_options_are_errors_before_reading() {
    let b = Briefly::new();
    for args in [
        &["json", "--where", "status"][..],
        &["json", "--top", "3"],
        &["json", "--count-by", "a", "--sort", "b"],
        &["json", "--fields", "a..b"],
        &["json", "--where", "x~("],
        &["json", "--records", "items"],
    ] {
        let out = b.run(args, b"{}");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty());
    }
}

#[test]
fn run_picks_json_for_jq() {
    let b = Briefly::new();
    let (_, ndjson) = jobs(b.dir.path(), 300);
    let envelope = b.envelope(&["run", "--", "jq", "-c", ".", s(&ndjson)], b"", CAP);
    assert_eq!(envelope["source"], "json");
    assert_eq!(envelope["stats"]["format"], "ndjson");
    assert_eq!(envelope["stats"]["records"], 300);
}

#[test]
fn an_array_in_fields_beside_other_paths_is_in_each_record() {
    // GitHub's issues: `labels[].name` in --fields beside `number` is each issue's
    // labels, not the records (they made "0 of 0 records at labels[]").
    let b = Briefly::new();
    let issues: Vec<Value> = (0..50)
        .map(|i| {
            json!({"number": i, "state": if i % 2 == 1 { "open" } else { "closed" },
                   "labels": [{"name": "bug"}, {"name": format!("p{}", i % 3)}]})
        })
        .collect();
    let array = b.dir.path().join("issues.json");
    std::fs::write(&array, serde_json::to_vec(&issues).unwrap()).unwrap();
    let ndjson = b.dir.path().join("issues.ndjson");
    let lines: String = issues.iter().map(|i| format!("{i}\n")).collect();
    std::fs::write(&ndjson, lines).unwrap();
    let expected: Vec<Value> = (0..50)
        .filter(|i| i % 2 == 1 && *i > 40)
        .map(|i| json!({"number": i, "labels[].name": ["bug", format!("p{}", i % 3)]}))
        .collect();
    for input in [&array, &ndjson] {
        let envelope = b.envelope(
            &[
                "json",
                s(input),
                "--where",
                "state=open",
                "--where",
                "number>40",
                "--fields",
                "number,labels[].name",
            ],
            b"",
            CAP,
        );
        assert_eq!(envelope["items"], json!(expected), "{envelope}");
        assert_eq!(envelope["stats"]["records"], 50, "{envelope}");
    }
    // Every field through one array: its elements are the records.
    let wrapped = b.dir.path().join("wrapped.json");
    std::fs::write(&wrapped, json!({ "items": issues }).to_string()).unwrap();
    let envelope = b.envelope(
        &[
            "json",
            s(&wrapped),
            "--fields",
            "items[].number,items[].state",
        ],
        b"",
        CAP,
    );
    assert_eq!(envelope["stats"]["record_path"], "items[]", "{envelope}");
    assert_eq!(envelope["items"][1], json!({"number": 1, "state": "open"}));
}

#[test]
fn a_record_under_a_long_key_keeps_its_other_members() {
    // A key of 3,000 characters: the records were bare cut markers, all "returned",
    // and paging ended with nothing of them shown.
    let b = Briefly::new();
    let key = format!("src/{}", "k".repeat(3_000));
    let lines: String = (0..20)
        .map(|i| format!("{}\n", json!({"id": i, key.as_str(): i})))
        .collect();
    let envelope = b.envelope(
        &["--max-chars", "3000", "json", "--where", "id>3"],
        lines.as_bytes(),
        3000,
    );
    assert_eq!(envelope["items"][0]["id"], 4, "{envelope}");
    assert!(envelope["next_cursor"].is_string(), "{envelope}");
}
