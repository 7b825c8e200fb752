//! `briefly text`: the evidence survives, wherever it is.
//!
//! Uses the loghub sample logs in ../shared/data/loghub (https://github.com/logpai/loghub;
//! Zhu et al., "Loghub: A Large Collection of System Log Datasets for AI-driven Log
//! Analytics", ISSRE 2023; see the LICENSE there).

mod common;

use common::{assert_warns, Briefly};
use serde_json::{json, Value};
use std::path::PathBuf;

const CAP: usize = 19_660;

fn loghub(set: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../shared/data/loghub/{set}/{set}_2k.log"));
    assert!(
        path.exists(),
        "the loghub samples are expected beside the repository: {}",
        path.display()
    );
    path
}

/// 30,000 lines of real logs from four systems, cycled.
fn noise() -> Vec<String> {
    let sets = ["Zookeeper", "HDFS", "Spark", "OpenStack"];
    let mut lines = Vec::new();
    for round in 0.. {
        for set in sets {
            for line in std::fs::read_to_string(loghub(set))
                .unwrap()
                .lines()
                .skip(round * 500)
                .take(500)
            {
                lines.push(line.to_string());
            }
        }
        if lines.len() >= 30_000 || round > 3 {
            break;
        }
    }
    lines.truncate(30_000);
    while lines.len() < 30_000 {
        let again = lines[lines.len() % 8_000].clone();
        lines.push(again);
    }
    lines
}

/// The rows of an `--emit-groups` file.
fn group_rows(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `text --emit-groups` of `input`, where one record holds `rare` among many of one
/// template (that of line 2): the rare record's item must be inline, with a count of 1,
/// and in a group of its own. Returns the items, the group of every line, and the
/// templates shown.
fn a_rare_record_apart(
    b: &Briefly,
    input: &str,
    rare: &str,
) -> (Vec<Value>, Vec<Value>, Vec<String>) {
    let groups = b.dir.path().join("groups.jsonl");
    let envelope = b.envelope(
        &["text", "--emit-groups", groups.to_str().unwrap()],
        input.as_bytes(),
        CAP,
    );
    let items = envelope["items"].as_array().unwrap().clone();
    let item = items
        .iter()
        .find(|i| i["more"].to_string().contains(rare))
        .unwrap_or_else(|| panic!("{rare} is inline: {items:?}"));
    assert_eq!(item["count"], 1, "{item}");
    let rows = group_rows(&groups);
    assert_eq!(rows.len(), input.lines().count());
    let line = item["line"].as_u64().unwrap() as usize;
    assert_ne!(rows[line - 1]["group"], rows[1]["group"], "{item}");
    let templates = items
        .iter()
        .filter(|i| i["kind"] == "template")
        .map(|i| i["template"].as_str().unwrap().to_string())
        .collect();
    (items, rows, templates)
}

fn shown_texts(envelope: &Value) -> String {
    envelope["items"].to_string()
}

/// The item that starts at input line `n`.
fn item_at(envelope: &Value, n: u64) -> &Value {
    let items = envelope["items"].as_array().unwrap();
    items
        .iter()
        .find(|i| i["line"] == n)
        .unwrap_or_else(|| panic!("no item at line {n}: {items:?}"))
}

/// The item at line `n` is an error record of `more` lines after its first, and the
/// summary names it, ending with `named`.
fn assert_error_named(envelope: &Value, n: u64, more: usize, named: &str) {
    let item = item_at(envelope, n);
    assert_eq!(item["severity"], "error", "{envelope}");
    assert_eq!(item["more"].as_array().unwrap().len(), more, "{item}");
    let summary = envelope["summary"].as_str().unwrap();
    assert!(summary.ends_with(named), "{summary}");
}

#[test]
fn a_decisive_line_is_inline_wherever_it_is() {
    let b = Briefly::new();
    let base = noise();
    let decisive = [
        "2026-11-29 03:14:15,926 - ERROR [main:Payments@42] - ledger write rejected: checksum 0xdeadbeef mismatch",
        "2026-11-29 03:14:15,926 - WARN  [main:Quota@7] - tenant acme at 97% of storage quota",
        "kernel: [812345.123456] Out of memory: Killed process 31337 (postgres) total-vm:8388608kB, anon-rss:4194304kB",
    ];
    for planted in decisive {
        for at in [3, 15_000, 29_990] {
            let mut lines = base.clone();
            lines.insert(at, planted.to_string());
            let input = lines.join("\n") + "\n";
            let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
            let items = envelope["items"].as_array().unwrap();
            let found = items.iter().find(|i| i["text"] == planted);
            assert!(
                found.is_some(),
                "{planted:?} at line {} is not inline: {}",
                at + 1,
                envelope["summary"]
            );
            assert_eq!(found.unwrap()["line"], at as u64 + 1);
        }
    }
}

#[test]
fn every_bgl_alert_category_is_inline() {
    let b = Briefly::new();
    let path = loghub("BGL");
    let envelope = b.envelope(&["text", path.to_str().unwrap()], b"", CAP);
    let lines: Vec<String> = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let categories: std::collections::BTreeSet<&str> = lines
        .iter()
        .map(|l| l.split(' ').next().unwrap())
        .filter(|c| *c != "-")
        .collect();
    assert_eq!(categories.len(), 12);
    let shown: std::collections::BTreeSet<&str> = envelope["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|i| i["line"].as_u64())
        .map(|n| lines[n as usize - 1].split(' ').next().unwrap())
        .collect();
    let missing: Vec<_> = categories.difference(&shown).collect();
    assert!(
        missing.is_empty(),
        "alert categories not inline: {missing:?}"
    );
}

#[test]
fn at_a_tight_budget_the_stats_keep_their_severities_and_let_the_last_members_go() {
    // At 2,000 characters the stats have no room for all their members: the last ones
    // go (BGL's lines end in CRLF: `crlf_lines`; the templates' list), not the
    // severities before them, and the rest keep their order. The artifact is named by
    // `--id`, not by the process id, whose digits would move the room the stats have.
    let b = Briefly::new();
    let path = loghub("BGL");
    let envelope = b.envelope(
        &[
            "text",
            path.to_str().unwrap(),
            "--max-chars",
            "2000",
            "--id",
            "tight",
        ],
        b"",
        2_000,
    );
    let stats = &envelope["stats"];
    assert_eq!(stats["severity"]["fatal"], 355, "{stats}");
    assert!(
        stats.get("crlf_lines").is_none() && stats.get("top_templates").is_none(),
        "{stats}"
    );
    let keys: Vec<&str> = stats
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    assert_eq!(
        keys[..4],
        ["lines", "records", "templates", "severity"],
        "{stats}"
    );
    assert!(
        keys.last() == Some(&"cut") && stats["cut"].as_str().unwrap().starts_with("…[cut "),
        "{stats}"
    );
}

#[test]
fn repetition_folds_into_templates_with_counts() {
    let b = Briefly::new();
    let mut input = String::new();
    for i in 0..5_000 {
        input.push_str(&format!(
            "2026-11-29T10:{:02}:{:02}Z INFO worker {} handled request {} in {} ms\n",
            i / 60 % 60,
            i % 60,
            i % 7,
            i * 31,
            i % 400
        ));
    }
    input.push_str("2026-11-29T11:00:00Z INFO shutdown complete\n");
    let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
    assert_eq!(envelope["stats"]["lines"], 5_001);
    assert_eq!(envelope["stats"]["templates"], 2);
    let template = envelope["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["kind"] == "template")
        .unwrap();
    assert_eq!(template["count"], 5_000);
    assert_eq!(template["first_line"], 1);
    assert_eq!(template["last_line"], 5_000);
    assert_eq!(template["first_time"], "2026-11-29T10:00:00Z");
    assert!(template["template"]
        .as_str()
        .unwrap()
        .contains("handled request <*> in <*> ms"));
    assert!(template["example"]
        .as_str()
        .unwrap()
        .starts_with("2026-11-29T10:00:00Z INFO worker 0"));
    assert_eq!(envelope["truncated"], true, "folding leaves lines out");
    assert!(envelope["artifact_path"].is_string());
}

#[test]
fn multi_line_records_stay_one_item() {
    let b = Briefly::new();
    let input = "\
2026-11-29 10:00:00 INFO start
Traceback (most recent call last):
  File \"app.py\", line 3, in <module>
    main()
  File \"app.py\", line 2, in main
    raise KeyError('user')
KeyError: 'user'
2026-11-29 10:00:01 ERROR request failed
java.lang.IllegalStateException: closed
\tat com.example.Db.query(Db.java:42)
\tat com.example.Api.get(Api.java:7)
Caused by: java.io.IOException: broken pipe
\t... 12 more
thread 'main' panicked at src/main.rs:2:5:
index out of bounds
stack backtrace:
   0: rust_begin_unwind
             at /rustc/library/std/src/panicking.rs:652:5
note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.
thread 'tests::sums' panicked at src/lib.rs:9:9:
assertion `left == right` failed
  left: 3
 right: 4
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
2026-11-29 10:00:02 INFO done
";
    let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
    let by_line = |n: u64| item_at(&envelope, n);
    let python = by_line(2);
    assert_eq!(python["more"].as_array().unwrap().len(), 5);
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.contains("line 2: Traceback (most recent call last): … KeyError: 'user';"),
        "the summary says what went wrong: {summary}"
    );
    assert_eq!(python["more"][4], "KeyError: 'user'");
    assert_eq!(python["severity"], "error");
    // The exception under the line that logged it belongs to that line's record.
    let java = by_line(8);
    assert_eq!(java["more"].as_array().unwrap().len(), 5, "{java}");
    assert_eq!(java["more"][0], "java.lang.IllegalStateException: closed");
    let rust = by_line(14);
    assert!(
        rust["more"].to_string().contains("stack backtrace"),
        "{rust}"
    );
    assert!(rust["more"].to_string().contains("Some details"), "{rust}");
    let assertion = by_line(20);
    assert_eq!(
        assertion["more"].as_array().unwrap().len(),
        4,
        "{assertion}"
    );
    assert_eq!(assertion["more"][2], " right: 4");
    assert_eq!(envelope["stats"]["multiline_records"], 4);
    assert_eq!(envelope["stats"]["records"], 6);
}

#[test]
fn a_services_level_behind_its_syslog_tag_and_a_go_stack_under_zaps_line() {
    let b = Briefly::new();
    let input = "\
Dec 05 10:00:00 node1 kubelet[1234]: I1205 10:00:00.123456    1234 kubelet.go:2100] \"SyncLoop ADD\"
Dec 05 10:00:01 node1 kubelet[1234]: E1205 10:00:01.123456    1234 pod_workers.go:190] \"Error syncing pod, skipping\"
Dec 05 10:00:02 node1 kubelet[1234]: W1205 10:00:02.123456    1234 reflector.go:424] watch ended
2024-03-01T10:00:00.100Z\tERROR\tapp/main.go:20\trequest failed\t{\"error\": \"boom\"}
main.handle
\t/home/u/app/main.go:20
main.main
\t/home/u/app/main.go:12
2024-03-01T10:00:00.200Z\tINFO\tapp/main.go:22\tdone
";
    let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
    let stats = &envelope["stats"];
    assert_eq!(stats["severity"]["error"], 2, "{stats}");
    assert_eq!(stats["severity"]["warn"], 1, "{stats}");
    assert_eq!(stats["severity"]["info"], 2, "{stats}");
    assert_eq!(stats["records"], 5, "{stats}");
    let zap = item_at(&envelope, 4);
    assert_eq!(zap["more"].as_array().unwrap().len(), 4, "{zap}");
    assert_eq!(zap["more"][3], "\t/home/u/app/main.go:12");
    let summary = envelope["summary"].as_str().unwrap();
    assert!(summary.contains("first error at line 2: "), "{summary}");
}

#[test]
fn a_rare_record_named_by_a_later_line_is_listed_from_its_first() {
    let b = Briefly::new();
    let input = "\
start

In deploy.sh line 3:
echo $1 $2
     ^-- SC2086 (info): Double quote to prevent globbing and word splitting.
        ^-- SC2086 (info): Double quote to prevent globbing and word splitting.

end
";
    let envelope = b.envelope(&["text", "--whole-chars", "0"], input.as_bytes(), CAP);
    // Its first line, the line that names it, and where the others were left out.
    let item = item_at(&envelope, 3);
    assert_eq!(item["text"], "In deploy.sh line 3:", "{item}");
    assert_eq!(
        item["more"],
        json!(["     ^-- SC2086 (info): Double quote to prevent globbing and word splitting."])
    );
    assert_eq!(item["more_cut"], 2, "{item}");
    assert_eq!(
        item["more_gaps"],
        json!([{"after": 0, "lines": 1}, {"after": 1, "lines": 1}])
    );
    // Named by its last line: the one gap before it.
    let one = input.replace(
        "        ^-- SC2086 (info): Double quote to prevent globbing and word splitting.\n",
        "",
    );
    let envelope = b.envelope(&["text", "--whole-chars", "0"], one.as_bytes(), CAP);
    let item = item_at(&envelope, 3);
    assert_eq!(item["more_cut"], 1, "{item}");
    assert_eq!(item["more_gaps"], json!([{"after": 0, "lines": 1}]));
    // Named by the line right under its first: the lines left out are all after it.
    let under = input.replace("echo $1 $2\n", "");
    let envelope = b.envelope(&["text", "--whole-chars", "0"], under.as_bytes(), CAP);
    let item = item_at(&envelope, 3);
    assert_eq!(
        item["more"],
        json!(["     ^-- SC2086 (info): Double quote to prevent globbing and word splitting."]),
        "{item}"
    );
    assert_eq!(item["more_cut"], 1, "{item}");
    assert!(item.get("more_gaps").is_none(), "{item}");
}

#[test]
fn python_and_dotnet_records_keep_their_exceptions() {
    let b = Briefly::new();
    let input = "\
2026-11-29 10:00:00,001 INFO app: starting
2026-11-29 10:00:01,002 ERROR app: request failed
Traceback (most recent call last):
  File \"/app/x.py\", line 3, in handle
    do()
ValueError: bad
2026-11-29 10:00:02,003 INFO app: next
Traceback (most recent call last):
  File \"/app/y.py\", line 1, in <module>
KeyError: 'id'
info: Microsoft.Hosting.Lifetime[0]
      Now listening on: http://localhost:5000
fail: Microsoft.AspNetCore.Server.Kestrel[13]
      Connection id \"0HM\": An unhandled exception was thrown by the application.
      System.InvalidOperationException: Sequence contains no elements
         at Api.Controllers.Items.Get() in /src/Items.cs:line 21
Unhandled exception. System.IO.IOException: disk
 ---> System.Exception: inner
   --- End of inner exception stack trace ---
   at Program.Main() in /src/Program.cs:line 5
info: loaded [plugins]
      not its message: no category and event id above
";
    let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
    let by_line = |n: u64| item_at(&envelope, n);
    // `logger.exception`: the traceback belongs to the line that logged it, and its
    // exception line ends the record.
    let logged = by_line(2);
    assert_eq!(logged["more"].as_array().unwrap().len(), 4, "{logged}");
    assert_eq!(logged["more"][3], "ValueError: bad");
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.contains("request failed … ValueError: bad;"),
        "{summary}"
    );
    // After an INFO line a traceback is a record of its own.
    assert_eq!(by_line(8)["more"].as_array().unwrap().len(), 2);
    // .NET's console logger: the indented message under its header (line 12 under
    // line 11 is counted by `records` below).
    let fail = by_line(13);
    assert_eq!(fail["severity"], "error");
    assert_eq!(fail["more"].as_array().unwrap().len(), 3, "{fail}");
    // An unhandled exception with its inner one and the frames after them.
    let unhandled = by_line(17);
    assert_eq!(
        unhandled["more"].as_array().unwrap().len(),
        3,
        "{unhandled}"
    );
    assert_eq!(envelope["stats"]["records"], 9);
}

#[test]
fn chained_tracebacks_are_one_record() {
    let b = Briefly::new();
    let input = "\
INFO starting
Traceback (most recent call last):
  File \"/app/x.py\", line 3, in load
KeyError: 'id'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File \"/app/x.py\", line 5, in load
ValueError: no id
INFO next
";
    let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
    let chained = item_at(&envelope, 2);
    assert_eq!(chained["more"].as_array().unwrap().len(), 8, "{chained}");
    assert_eq!(chained["more"][7], "ValueError: no id");
    assert_eq!(envelope["stats"]["records"], 3);
}

#[test]
fn a_compilers_diagnostic_keeps_its_location_and_source() {
    let b = Briefly::new();
    let input = "\
   Compiling foo v0.1.0 (/app)
warning: unused variable: `y`
 --> src/lib.rs:2:9
  |
2 |     let y = 1;
  |         ^ help: if this is intentional, prefix it with an underscore: `_y`
  |
  = note: `#[warn(unused_variables)]` on by default

error[E0308]: mismatched types
 --> src/main.rs:4:18
  |
4 |     let x: u32 = \"a\";
  |            ---   ^^^ expected `u32`, found `&str`

error: could not compile `foo` (bin \"foo\") due to 1 previous error
| a | b |
main.c:7:5: error: 'y' undeclared (first use in this function)
    7 |     y = 4;
      |     ^
0|api      | Error: connect ECONNREFUSED 127.0.0.1:5432
0|api      | retrying in 5s
";
    let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
    let by_line = |n: u64| item_at(&envelope, n);
    let more = |n: u64| by_line(n)["more"].as_array().unwrap().len();
    assert_eq!(more(2), 6, "{}", by_line(2));
    assert_eq!(more(10), 4, "{}", by_line(10));
    assert_eq!(by_line(10)["more"][0], " --> src/main.rs:4:18");
    assert_eq!(more(18), 2, "{}", by_line(18));
    // A table's row is no gutter, nor is pm2's prefix: records of their own.
    assert!(by_line(17)["more"].is_null());
    assert!(by_line(21)["more"].is_null(), "{}", by_line(21));
    assert_eq!(envelope["stats"]["records"], 10);
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.ends_with("line 10: error[E0308]: mismatched types … --> src/main.rs:4:18"),
        "{summary}"
    );
}

#[test]
fn gcc_s_context_stays_with_its_diagnostic() {
    let b = Briefly::new();
    let mut input: String = (0..3000)
        .map(|i| format!("gcc -c -O2 src/unit{i}.c -o build/unit{i}.o\n"))
        .collect();
    input.push_str(
        "In file included from src/bar.h:1,
                 from src/main.c:1:
src/foo.h: In function ‘foo’:
src/foo.h:1:43: error: ‘y’ undeclared (first use in this function)
    1 | int foo(int x) { return x + y; }
      |                             ^
make: *** [Makefile:2: all] Error 1
",
    );
    let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
    let item = item_at(&envelope, 3001);
    assert_eq!(item["severity"], "error", "{envelope}");
    assert_eq!(item["more"].as_array().unwrap().len(), 5, "{item}");
    assert_eq!(
        item["more"][2],
        "src/foo.h:1:43: error: ‘y’ undeclared (first use in this function)"
    );
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.ends_with(
            "line 3001: In file included from src/bar.h:1, … src/foo.h:1:43: error: ‘y’ undeclared (first use in this function)"
        ),
        "{summary}"
    );
}

/// valgrind 3.19's memcheck on a program that writes past a block and leaks (its
/// lines as it printed them), after 3,000 lines of the program's own.
fn valgrind_run(report: &str) -> String {
    let mut input = String::from(
        "==28738== Memcheck, a memory error detector
==28738== Command: ./leak
==28738== 
",
    );
    input.extend((0..3000).map(|i| format!("step {i} ok\n")));
    input.push_str(report);
    input
}

#[test]
fn valgrinds_reports_are_errors_with_their_stacks() {
    let b = Briefly::new();
    let input = valgrind_run(
        "==28738== Invalid write of size 1
==28738==    at 0x10921A: main (leak.c:7)
==28738==  Address 0x4a40138 is 0 bytes after a block of size 8 alloc'd
==28738==    at 0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)
==28738==    by 0x109170: mk (leak.c:4)
==28738==    by 0x10920D: main (leak.c:7)
==28738== 
==28738== HEAP SUMMARY:
==28738==     in use at exit: 56 bytes in 4 blocks
==28738==   total heap usage: 4 allocs, 0 frees, 56 bytes allocated
==28738== 
==28738== 48 bytes in 3 blocks are definitely lost in loss record 2 of 2
==28738==    at 0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)
==28738==    by 0x109170: mk (leak.c:4)
==28738==    by 0x1091F6: main (leak.c:6)
==28738== 
==28738== ERROR SUMMARY: 2 errors from 2 contexts (suppressed: 0 from 0)
",
    );
    let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
    let write = item_at(&envelope, 3004);
    assert_eq!(write["severity"], "error", "{envelope}");
    assert_eq!(write["more"].as_array().unwrap().len(), 5, "{write}");
    let leak = item_at(&envelope, 3015);
    assert_eq!(leak["severity"], "error", "{envelope}");
    assert_eq!(leak["more"][2], "==28738==    by 0x1091F6: main (leak.c:6)");
    assert_eq!(envelope["stats"]["severity"]["error"], 3, "{envelope}");
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.contains("3 errors, 0 warnings; first error at line 3004: ==28738== Invalid write of size 1 … ==28738==    at 0x10921A: main (leak.c:7)"),
        "{summary}"
    );
    // A clean run's summary counts no error.
    let clean = valgrind_run(
        "==28738== All heap blocks were freed -- no leaks are possible
==28738== 
==28738== ERROR SUMMARY: 0 errors from 0 contexts (suppressed: 0 from 0)
",
    );
    let envelope = b.envelope(&["text"], clean.as_bytes(), CAP);
    assert!(
        envelope["stats"]["severity"]["error"].is_null(),
        "{envelope}"
    );
    let summary = envelope["summary"].as_str().unwrap();
    assert!(summary.contains("; 0 errors, 0 warnings"), "{summary}");
    // The same in a CI job's log, a time before each line.
    let stamped = |input: &str| -> String {
        input
            .lines()
            .map(|line| format!("2024-01-05T10:00:02.1234567Z {line}\n"))
            .collect()
    };
    let envelope = b.envelope(&["text"], stamped(&clean).as_bytes(), CAP);
    assert!(
        envelope["stats"]["severity"]["error"].is_null(),
        "{envelope}"
    );
    let envelope = b.envelope(&["text"], stamped(&input).as_bytes(), CAP);
    assert_eq!(envelope["stats"]["severity"]["error"], 3, "{envelope}");
    assert_eq!(
        item_at(&envelope, 3004)["more"].as_array().unwrap().len(),
        5
    );
}

#[test]
fn a_sanitizers_report_is_one_record_up_to_its_summary() {
    let b = Briefly::new();
    // gcc 12's AddressSanitizer on a program that writes past a block, as it printed
    // it, after 3,000 lines of the program's own.
    let mut input: String = (0..3000).map(|i| format!("step {i} ok\n")).collect();
    input.push_str(
        "=================================================================
==28763==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000078 at pc 0x55eee86243af bp 0x7ffee09b17c0 sp 0x7ffee09b17b8
WRITE of size 1 at 0x602000000078 thread T0
    #0 0x55eee86243ae in main /tmp/ex/leak.c:7
    #1 0x7f22fa845249 in __libc_start_call_main ../sysdeps/nptl/libc_start_call_main.h:58
    #2 0x7f22fa845304 in __libc_start_main_impl ../csu/libc-start.c:360
    #3 0x55eee8624130 in _start (/tmp/ex/leak_asan+0x1130)

0x602000000078 is located 0 bytes to the right of 8-byte region [0x602000000070,0x602000000078)
allocated by thread T0 here:
    #0 0x7f22fb2b89cf in __interceptor_malloc ../../../../src/libsanitizer/asan/asan_malloc_linux.cpp:69
    #1 0x55eee8624211 in mk /tmp/ex/leak.c:4
    #2 0x55eee8624332 in main /tmp/ex/leak.c:7
    #3 0x7f22fa845249 in __libc_start_call_main ../sysdeps/nptl/libc_start_call_main.h:58

SUMMARY: AddressSanitizer: heap-buffer-overflow /tmp/ex/leak.c:7 in main
Shadow bytes around the buggy address:
  0x0c047fff7fb0: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
  0x0c047fff7fc0: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
  0x0c047fff7fd0: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
  0x0c047fff7fe0: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
  0x0c047fff7ff0: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
=>0x0c047fff8000: fa fa 00 00 fa fa 00 00 fa fa 00 00 fa fa 00[fa]
  0x0c047fff8010: fa fa fa fa fa fa fa fa fa fa fa fa fa fa fa fa
  0x0c047fff8020: fa fa fa fa fa fa fa fa fa fa fa fa fa fa fa fa
  0x0c047fff8030: fa fa fa fa fa fa fa fa fa fa fa fa fa fa fa fa
  0x0c047fff8040: fa fa fa fa fa fa fa fa fa fa fa fa fa fa fa fa
  0x0c047fff8050: fa fa fa fa fa fa fa fa fa fa fa fa fa fa fa fa
Shadow byte legend (one shadow byte represents 8 application bytes):
  Addressable:           00
  Partially addressable: 01 02 03 04 05 06 07 
  Heap left redzone:       fa
  Freed heap region:       fd
  Stack left redzone:      f1
  Stack mid redzone:       f2
  Stack right redzone:     f3
  Stack after return:      f5
  Stack use after scope:   f8
  Global redzone:          f9
  Global init order:       f6
  Poisoned by user:        f7
  Container overflow:      fc
  Array cookie:            ac
  Intra object redzone:    bb
  ASan internal:           fe
  Left alloca redzone:     ca
  Right alloca redzone:    cb
==28763==ABORTING
",
    );
    let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
    let report = item_at(&envelope, 3002);
    assert_eq!(report["severity"], "error", "{envelope}");
    let more = report["more"].as_array().unwrap();
    assert_eq!(
        more[1], "    #0 0x55eee86243ae in main /tmp/ex/leak.c:7",
        "{report}"
    );
    assert_eq!(
        more.last().unwrap(),
        "SUMMARY: AddressSanitizer: heap-buffer-overflow /tmp/ex/leak.c:7 in main"
    );
    // The shadow bytes' dump and legend are one record (lines 3017-3047), not 31 lines
    // among the items: the steps, the rule above the report, the report, the dump and
    // the last line.
    assert_eq!(item_at(&envelope, 3017)["count"], 1);
    assert_eq!(envelope["stats"]["records"], 3000 + 4, "{envelope}");
}

#[test]
fn source_code_a_search_found_is_no_error() {
    let b = Briefly::new();
    // `grep -rn Error src/` over code: types, raises, a level's name in a switch.
    let lines = [
        "pub fn parse(s: &str) -> Result<Value, JsonError> {",
        "        raise ValueError(\"bad input\")",
        "    case ERROR: return \"failed\";",
        "except KeyError:",
    ];
    let input: String = (0..400)
        .map(|i| format!("src/m{}.rs:{}:{}\n", i % 40, i + 1, lines[i % lines.len()]))
        .collect();
    let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.contains("; 0 errors, 0 warnings; 400 lines in 40 files"),
        "{summary}"
    );
    // The same lines in a log's place keep what their words say.
    let logged = input.replace(".rs:", ".log:");
    let envelope = b.envelope(&["text"], logged.as_bytes(), CAP);
    assert_eq!(envelope["stats"]["severity"]["error"], 400, "{envelope}");
}

#[test]
fn a_go_panic_keeps_its_goroutines() {
    let b = Briefly::new();
    let input = "\
2026-11-29T10:00:00Z INFO serving on :8080
panic: runtime error: invalid memory address or nil pointer dereference
[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4553f2]

goroutine 7 [running]:
panic({0x5d4e60?, 0xc0000181e0?})
\t/usr/local/go/src/runtime/panic.go:770 +0x132
main.(*Store).Get(0x0, {0x6b1c2e, 0x3})
\t/app/store.go:42 +0x12
net/http.HandlerFunc.ServeHTTP(0xc0000a6000, {0x7a9b30, 0xc0000e0000}, 0xc0000c8000)
\t/usr/local/go/src/net/http/server.go:2136 +0x29
created by net/http.(*Server).Serve in goroutine 1
\t/usr/local/go/src/net/http/server.go:3285 +0x4b4
exit status 2
fatal error: all goroutines are asleep - deadlock!

goroutine 1 [chan receive]:
main.main()
\t/app/main.go:5 +0x25
2026-11-29T10:00:05Z INFO restarted
";
    let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
    let by_line = |n: u64| item_at(&envelope, n);
    let panic = by_line(2);
    assert_eq!(panic["severity"], "fatal");
    assert_eq!(panic["more"].as_array().unwrap().len(), 11, "{panic}");
    assert_eq!(panic["more"][5], "main.(*Store).Get(0x0, {0x6b1c2e, 0x3})");
    // The header holds the message: the summary names no frame after it.
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.contains(
            "first fatal at line 2: panic: runtime error: invalid memory address or nil pointer dereference;"
        ),
        "{summary}"
    );
    // The deadlock ends the output: the summary names it too.
    assert!(
        summary.ends_with(
            "; the output ends in a fatal at line 15: fatal error: all goroutines are asleep - deadlock!"
        ),
        "{summary}"
    );
    // `go run`'s exit report is a record of its own, and so is the deadlock after it.
    assert_eq!(by_line(14)["text"], "exit status 2");
    assert!(by_line(14)["more"].is_null());
    let deadlock = by_line(15);
    assert_eq!(deadlock["severity"], "fatal");
    assert_eq!(deadlock["more"].as_array().unwrap().len(), 4, "{deadlock}");
    assert_eq!(envelope["stats"]["records"], 5);
}

#[test]
fn a_line_with_its_own_time_starts_a_record() {
    let b = Briefly::new();
    let input = "\
start
thread 'worker' panicked at 'index out of bounds', src/lib.rs:5:9
2024-01-01T00:00:01Z FATAL database corrupted
Traceback (most recent call last):
  File \"a.py\", line 3, in f
2024-01-01 10:00:00 ERROR [other-thread] ledger rejected
end
";
    let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
    let items = envelope["items"].to_string();
    let item = |line: u64| item_at(&envelope, line);
    // Not the panic's next line; the traceback under it is its own (logged by it), cut
    // short by the next line with a time.
    assert!(item(2)["more"].is_null(), "{items}");
    assert_eq!(item(3)["more"].as_array().unwrap().len(), 2, "{items}");
    assert!(item(6)["more"].is_null(), "{items}");
    assert_eq!(envelope["stats"]["records"], 5, "{items}");
}

/// `messages` stamped line by line as GitHub Actions writes a job's raw log, and as `gh
/// run view --log` prints it, after the job's and the step's columns (a step's first
/// line with a byte-order mark); and the stamp of line `n + 1`.
fn stamped_every_line(messages: &[&str]) -> ([String; 2], impl Fn(usize) -> String) {
    let stamp = |n: usize| format!("2024-01-05T10:00:{n:02}.1234567Z");
    let raw = (0..messages.len())
        .map(|n| format!("{} {}\n", stamp(n), messages[n]))
        .collect();
    let gh = (0..messages.len())
        .map(|n| {
            let bom = if n == 0 { "\u{feff}" } else { "" };
            format!("build\tRun tests\t{bom}{} {}\n", stamp(n), messages[n])
        })
        .collect();
    ([raw, gh], stamp)
}

#[test]
fn a_log_that_stamps_every_line_keeps_its_records() {
    let messages = [
        "   Compiling foo v0.1.0 (/home/runner/work/foo)",
        "error[E0308]: mismatched types",
        " --> src/main.rs:4:18",
        "  |",
        "4 |     let x: u32 = \"a\";",
        "  |            ^^^ expected `u32`, found `&str`",
        "",
        "Traceback (most recent call last):",
        "  File \"/app/x.py\", line 3, in handle",
        "KeyError: 'user'",
        "INFO next request",
        "##[error]Process completed with exit code 1.",
    ];
    let (inputs, stamp) = stamped_every_line(&messages);
    let b = Briefly::new();
    for input in inputs {
        let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
        let by_line = |n: u64| item_at(&envelope, n);
        let more = |n: u64| by_line(n)["more"].as_array().map_or(0, Vec::len);
        // The diagnostic keeps its location and source; the traceback its frame and
        // its exception; the lines around them are records of their own.
        assert_eq!(more(2), 4, "{input}");
        assert_eq!(more(8), 2, "{input}");
        assert!(by_line(8)["more"][1]
            .as_str()
            .unwrap()
            .ends_with("KeyError: 'user'"));
        assert_eq!(envelope["stats"]["records"], 6, "{input}");
        assert_eq!(
            envelope["stats"]["time_span"],
            serde_json::json!([stamp(0), stamp(messages.len() - 1)])
        );
        let summary = envelope["summary"].as_str().unwrap();
        assert!(
            summary.ends_with("error[E0308]: mismatched types … --> src/main.rs:4:18"),
            "{summary}"
        );
    }
    // What a line's start says counts at its message's start: Go's panic opens a dump of
    // the goroutines' stacks, `Caused by:` is an error.
    let messages = [
        "=== RUN   TestGet",
        "panic: runtime error: index out of range [3] with length 3",
        "",
        "goroutine 7 [running]:",
        "main.main()",
        "\t/app/main.go:5 +0x25",
        "INFO retrying",
        "Caused by: the disk is full",
    ];
    for input in stamped_every_line(&messages).0 {
        let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
        let panic = item_at(&envelope, 2);
        assert_eq!(panic["severity"], "fatal", "{input}");
        assert_eq!(panic["more"].as_array().unwrap().len(), 4, "{input}");
        let caused = item_at(&envelope, 7);
        assert_eq!(caused["more"][0], input.lines().nth(7).unwrap());
        assert_eq!(caused["severity"], "error", "{input}");
    }
}

#[test]
fn tracebacks_are_told_apart_by_their_exception() {
    let b = Briefly::new();
    let mut input = String::new();
    // (More than half a page: folded, not returned whole.)
    for i in 0..100 {
        input.push_str(&format!("2026-11-29 10:00:{:02} INFO tick {i}\n", i % 60));
        input.push_str(&format!(
            "Traceback (most recent call last):\n  File \"app.py\", line {i}, in f\n\
             ValueError: invalid literal for int() with base 10: 'x{i}'\n"
        ));
        if i == 31 {
            input.push_str(
                "Traceback (most recent call last):\n  File \"db.py\", line 9, in q\n\
                 psycopg2.OperationalError: could not connect to server\n",
            );
        }
    }
    let (_, rows, templates) = a_rare_record_apart(&b, &input, "OperationalError");
    assert!(
        templates
            .iter()
            .any(|t| t.starts_with("ValueError: invalid literal")),
        "{templates:?}"
    );
    assert!(
        !templates.iter().any(|t| t.starts_with("Traceback")),
        "{templates:?}"
    );
    // Every line of a traceback is in its record's group.
    assert_eq!(
        rows[1]["group"], rows[3]["group"],
        "header and exception line"
    );
    assert_eq!(
        rows[1]["group"], rows[5]["group"],
        "two ValueErrors, one template"
    );
}

#[test]
fn panics_are_told_apart_by_their_message() {
    let b = Briefly::new();
    let mut input = String::new();
    for i in 0..50 {
        input.push_str(&format!("2026-11-29 10:00:{:02} INFO tick {i}\n", i % 60));
        input.push_str(&format!(
            "thread 'worker-{i}' panicked at src/queue.rs:{}:9:\n\
             called `Option::unwrap()` on a `None` value\n\
             note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n",
            40 + i % 3
        ));
        if i == 31 {
            input.push_str(
                "thread 'db' panicked at src/db/pool.rs:88:14:\n\
                 connection pool exhausted after 30s\n",
            );
        }
    }
    // Before Rust 1.73 the message was in the header: the header makes the template.
    input.push_str("thread 'old' panicked at 'boom', src/old.rs:1:1\nnote: run with it\n");
    let (items, rows, templates) = a_rare_record_apart(&b, &input, "pool exhausted");
    assert!(
        templates
            .iter()
            .any(|t| t == "called `Option::unwrap()` on a `None` value"),
        "{templates:?}"
    );
    assert_eq!(rows[1]["group"], rows[2]["group"], "header and message");
    assert_eq!(
        rows[1]["group"], rows[5]["group"],
        "two unwraps, one template"
    );
    let old = items
        .iter()
        .find(|i| i["text"].as_str().is_some_and(|t| t.contains("'old'")))
        .unwrap_or_else(|| panic!("the old-format panic is inline: {items:?}"));
    let old_group = &rows[old["line"].as_u64().unwrap() as usize - 1]["group"];
    assert!(old_group.is_u64(), "{old}");
    assert_ne!(old_group, &rows[1]["group"]);
}

#[test]
fn a_record_is_named_and_judged_by_all_its_lines() {
    let b = Briefly::new();
    // Java exceptions logged under INFO lines of one template are told apart.
    let exceptions = [
        "java.net.ConnectException: Connection refused",
        "java.io.FileNotFoundException: /data/x.db",
        "java.lang.OutOfMemoryError: Java heap space",
    ];
    let mut input = String::new();
    for i in 0..60 {
        input.push_str(&format!(
            "2024-01-05 10:00:{:02} INFO attempt {i}\n",
            i % 60
        ));
        if i % 20 == 19 {
            input.push_str(exceptions[i / 20]);
            input.push('\n');
        }
    }
    // Folded, not returned whole: the INFO lines are one template.
    let envelope = b.envelope(&["text", "--whole-chars", "0"], input.as_bytes(), CAP);
    let items = envelope["items"].as_array().unwrap();
    for exception in exceptions {
        let item = items
            .iter()
            .find(|i| i["more"][0] == exception)
            .unwrap_or_else(|| panic!("{exception} is inline: {items:?}"));
        assert_eq!(item["count"], 1, "{item}");
    }
    let info = items
        .iter()
        .find(|i| i["kind"] == "template")
        .unwrap_or_else(|| panic!("the INFO template: {items:?}"));
    assert_eq!(info["count"], 57, "{info}");

    // `--level` judges a record by its worst line: an error printed under a WARN line
    // may be a crash after it, not what it logged.
    let input = "INFO start\nWARN retrying upload\njava.lang.OutOfMemoryError: heap\nINFO end\n";
    let envelope = b.envelope(&["text", "--level", "error"], input.as_bytes(), CAP);
    assert_eq!(envelope["returned_items"], 1, "{envelope}");
    assert_eq!(envelope["items"][0]["line"], 2, "{envelope}");

    // A panic that held its message in its header (before Rust 1.73) takes no next line.
    let input = "thread 'a' panicked at 'boom', src/a.rs:1:1\n\
                 thread 'b' panicked at 'bang', src/b.rs:2:2\n\
                 note: run with `RUST_BACKTRACE=1`\n\
                 thread 'c' panicked at 'bust', src/c.rs:3:3\n";
    let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
    assert_eq!(envelope["stats"]["records"], 3, "{envelope}");
}

#[test]
fn grep_matches_any_line_of_a_record() {
    let b = Briefly::new();
    let input = "\
2026-11-29 10:00:00 INFO start
Traceback (most recent call last):
  File \"db.py\", line 9, in q
psycopg2.OperationalError: could not connect
2026-11-29 10:00:01 ERROR request failed
java.lang.IllegalStateException: closed
\tat com.example.Db.query(Db.java:42)
Caused by: java.io.IOException: broken pipe
2026-11-29 10:00:02 INFO done
";
    for (pattern, line) in [("OperationalError", 2), ("IOException", 5)] {
        let envelope = b.envelope(&["text", "--grep", pattern], input.as_bytes(), CAP);
        let items = envelope["items"].as_array().unwrap();
        assert_eq!(items.len(), 1, "{pattern}: {items:?}");
        assert_eq!(items[0]["line"], line, "{pattern}: {items:?}");
        assert_eq!(envelope["stats"]["filtered_out"], 3, "{pattern}");
    }
    // In a long record's middle, the line it matched is kept among the decisive ones.
    let mut long = String::from("2026-11-29 10:00:01 ERROR request failed\n");
    long.push_str("java.lang.IllegalStateException: closed\n");
    for i in 0..70 {
        let class = if i == 35 { "OrderController" } else { "Frame" };
        long.push_str(&format!(
            "\tat com.example.{class}.f{i}({class}.java:{i})\n"
        ));
    }
    // Returned whole (small) or folded.
    for whole_chars in ["4000", "0"] {
        let args = [
            "text",
            "--grep",
            "OrderController",
            "--whole-chars",
            whole_chars,
        ];
        let envelope = b.envelope(&args, long.as_bytes(), CAP);
        let item = &envelope["items"][0];
        assert!(
            item["more_gaps"].is_array(),
            "a long record's middle is cut: {item}"
        );
        assert!(item.to_string().contains("OrderController.f35"), "{item}");
    }
}

#[test]
fn an_access_logs_server_error_is_inline() {
    let b = Briefly::new();
    let request = |i: usize, status: u16| {
        format!(
            r#"10.0.{}.{} - - [05/Jan/2024:10:{:02}:{:02} +0000] "GET /api/items/{i} HTTP/1.1" {status} {}"#,
            i % 7,
            i % 250,
            i / 60 % 60,
            i % 60,
            1000 + i % 977
        )
    };
    let mut lines: Vec<String> = (0..3000).map(|i| request(i, 200)).collect();
    lines[1500] = request(1500, 502);
    let input = lines.join("\n") + "\n";
    let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
    let item = item_at(&envelope, 1501);
    assert_eq!(item["text"], lines[1500], "{item}");
    assert_eq!(item["severity"], "error", "{item}");
    assert_eq!(
        envelope["stats"]["severity"]["error"], 1,
        "{}",
        envelope["stats"]
    );
}

#[test]
fn redis_and_java_util_logging_times_are_read() {
    let b = Briefly::new();
    let input = "\
1:C 05 Jan 2024 09:00:00.001 # oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo
1:M 05 Jan 2024 10:00:04.123 * Ready to accept connections tcp
Jan 05, 2024 11:00:06 AM org.example.App main
Jan 05, 2024 1:00:07 PM org.example.App main
";
    let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
    let span = &envelope["stats"]["time_span"];
    assert_eq!(span[0], "05 Jan 2024 09:00:00.001", "{envelope}");
    assert_eq!(span[1], "Jan 05, 2024 1:00:07 PM", "{envelope}");
    // 10:30 UTC on that day: the first line is before it, and the last is after noon.
    let since = b.envelope(
        &["text", "--since", "2024-01-05T10:30:00Z"],
        input.as_bytes(),
        CAP,
    );
    assert_eq!(since["stats"]["filtered_out"], 2, "{since}");
    let until = b.envelope(
        &["text", "--until", "2024-01-05T12:00:00Z"],
        input.as_bytes(),
        CAP,
    );
    assert_eq!(until["stats"]["filtered_out"], 1, "{until}");
}

#[test]
fn java_util_logging_records_keep_their_level_line() {
    let b = Briefly::new();
    let input = "\
Jan 05, 2024 10:00:06 AM org.example.App main
INFO: starting
Jan 05, 2024 10:00:07 AM org.example.Db connect
SEVERE: Connection refused
java.net.ConnectException: refused
\tat org.example.Db.connect(Db.java:7)
Jan 05, 2024 10:00:08 AM org.example.App main
INFO: done
";
    let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
    let severe = item_at(&envelope, 3);
    // SEVERE is java.util.logging's highest level.
    assert_eq!(severe["severity"], "fatal", "{envelope}");
    assert_eq!(severe["more"].as_array().unwrap().len(), 3, "{severe}");
    assert_eq!(envelope["stats"]["records"], 3, "{envelope}");
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.ends_with(
            "line 3: Jan 05, 2024 10:00:07 AM org.example.Db connect … SEVERE: Connection refused"
        ),
        "{summary}"
    );
}

#[test]
fn merged_containers_output_keeps_each_containers_records() {
    let b = Briefly::new();
    // Each line behind its container's name.
    let input = "\
web-1  | 2024-01-05T10:00:00Z INFO starting
web-1  | 2024-01-05T10:00:01Z ERROR request failed
web-1  | Traceback (most recent call last):
web-1  |   File \"/app/a.py\", line 1, in <module>
web-1  | KeyError: 'user'
db-1   | LOG:  database system is ready
";
    let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
    let failed = item_at(&envelope, 2);
    assert_eq!(failed["severity"], "error", "{envelope}");
    let more = |item: &Value| -> Vec<String> {
        item["more"]
            .as_array()
            .map(|lines| {
                lines
                    .iter()
                    .map(|l| l.as_str().unwrap().to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(
        more(failed),
        [
            "web-1  | Traceback (most recent call last):",
            "web-1  |   File \"/app/a.py\", line 1, in <module>",
            "web-1  | KeyError: 'user'",
        ],
        "{envelope}"
    );
    assert_eq!(envelope["stats"]["records"], 3, "{envelope}");
    let summary = envelope["summary"].as_str().unwrap();
    assert!(summary.ends_with("… KeyError: 'user'"), "{summary}");
    // The containers' times are read.
    assert_eq!(
        envelope["stats"]["time_span"][0], "2024-01-05T10:00:00Z",
        "{envelope}"
    );
    // Another container's line is never part of a record: it ends the open one.
    let interleaved = input.replace(
        "web-1  | KeyError",
        "db-1   | LOG:  checkpoint starting\nweb-1  | KeyError",
    );
    let envelope = b.envelope(&["text"], interleaved.as_bytes(), CAP);
    assert_eq!(more(item_at(&envelope, 2)).len(), 2, "{envelope}");
    assert!(more(item_at(&envelope, 5)).is_empty(), "{envelope}");
    assert_eq!(item_at(&envelope, 6)["severity"], "error", "{envelope}");
    // kubectl logs --prefix names the pod and container in brackets.
    let kubectl = "\
[pod/web-0/app] Traceback (most recent call last):
[pod/web-0/app]   File \"/app/a.py\", line 1, in <module>
[pod/web-0/app] KeyError: 'user'
[pod/web-1/app] ready
";
    let envelope = b.envelope(&["text"], kubectl.as_bytes(), CAP);
    assert_eq!(more(item_at(&envelope, 1)).len(), 2, "{envelope}");
    assert_eq!(envelope["stats"]["records"], 2, "{envelope}");
    // pm2 puts its process's id before the name.
    let pm2 = kubectl.replace("[pod/web-0/app] ", "0|api  | ");
    let envelope = b.envelope(&["text"], pm2.as_bytes(), CAP);
    assert_eq!(more(item_at(&envelope, 1)).len(), 2, "{envelope}");
}

#[test]
fn a_syntax_error_keeps_its_place_under_a_log() {
    let b = Briefly::new();
    // Python 3.11's report of a syntax error (no `Traceback` above it) after a log: its
    // frame, indented, was read as the last log line going on, and where the error is was
    // lost.
    let mut input: String = (1..=3000).map(|i| format!("INFO tick {i}\n")).collect();
    input.push_str(
        "  File \"/tmp/t/s.py\", line 2
    print(
         ^
SyntaxError: '(' was never closed
",
    );
    let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
    assert_error_named(
        &envelope,
        3001,
        3,
        "line 3001: File \"/tmp/t/s.py\", line 2 … SyntaxError: '(' was never closed",
    );
}

#[test]
fn a_node_crash_keeps_where_it_was_thrown() {
    let b = Briefly::new();
    // node 20's report of a syntax error in a script, after a log: the stack is node's
    // own, so where the error is stands only above it, with the source.
    let mut input: String = (1..=3000).map(|i| format!("INFO tick {i}\n")).collect();
    input.push_str(
        "/tmp/t/b.js:1
let x = ;
        ^

SyntaxError: Unexpected token ';'
    at wrapSafe (node:internal/modules/cjs/loader:1464:18)
    at Module._compile (node:internal/modules/cjs/loader:1495:20)

Node.js v20.20.2
",
    );
    let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
    assert_error_named(
        &envelope,
        3001,
        6,
        "line 3001: /tmp/t/b.js:1 … SyntaxError: Unexpected token ';'",
    );
}

#[test]
fn a_ruby_crash_is_an_error_with_its_frames() {
    let b = Briefly::new();
    let mut input: String = (1..=3000).map(|i| format!("I, tick {i}\n")).collect();
    input.push_str(
        "app.rb:2:in 'Object#fetch': boom (RuntimeError)
\tfrom app.rb:5:in 'Object#run'
\tfrom app.rb:8:in '<main>'
",
    );
    let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
    assert_error_named(
        &envelope,
        3001,
        2,
        "line 3001: app.rb:2:in 'Object#fetch': boom (RuntimeError)",
    );
}

#[test]
fn dart_and_lua_crashes_are_errors_with_their_frames() {
    let b = Briefly::new();
    let log: String = (1..=3000).map(|i| format!("tick {i}\n")).collect();
    let dart = "Unhandled exception:
Bad state: No element
#0      ListBase.first (dart:collection/list.dart:62:5)
#1      load (file:///app/bin/app.dart:3:12)
<asynchronous suspension>
#2      main (file:///app/bin/app.dart:7:3)
";
    let envelope = b.envelope(&["text"], (log.clone() + dart).as_bytes(), CAP);
    assert_error_named(
        &envelope,
        3001,
        5,
        "line 3001: Unhandled exception: … Bad state: No element",
    );
    let lua = "lua: app.lua:3: attempt to index a nil value (global 'cfg')
stack traceback:
\t[C]: in ?
\tapp.lua:3: in local 'load'
\tapp.lua:7: in main chunk
\t[C]: in ?
";
    let envelope = b.envelope(&["text"], (log + lua).as_bytes(), CAP);
    assert_error_named(
        &envelope,
        3001,
        5,
        "line 3001: lua: app.lua:3: attempt to index a nil value (global 'cfg')",
    );
}

#[test]
fn cmakes_error_keeps_its_message() {
    let b = Briefly::new();
    let mut input: String = (1..=500)
        .map(|i| format!("-- Looking for header{i}.h - found\n"))
        .collect();
    input.push_str(
        "CMake Error at CMakeLists.txt:3 (project):
  No CMAKE_CXX_COMPILER could be found.

  Tell CMake where to find the compiler by setting either the environment
  variable \"CXX\" or the CMake cache entry CMAKE_CXX_COMPILER to the full path
  to the compiler, or to the compiler name if it is in the PATH.


-- Configuring incomplete, errors occurred!
",
    );
    let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
    assert_error_named(
        &envelope,
        501,
        7,
        "line 501: CMake Error at CMakeLists.txt:3 (project): … No CMAKE_CXX_COMPILER could be found.",
    );
}

#[test]
fn eslints_findings_stay_under_their_file() {
    let b = Briefly::new();
    // ESLint's default table: each file's name, then its findings, indented. 300 files
    // warned about, one with an error: which file it is in was a record apart.
    let mut input = String::new();
    for i in 0..300 {
        input.push_str(&format!(
            "/home/me/app/src/m{i}.js\n  12:3  warning  Unexpected console statement  no-console\n\n"
        ));
        if i == 150 {
            input.push_str(
                "/home/me/app/src/util.js\n   4:10  error  Parsing error: Unexpected token }\n\n",
            );
        }
    }
    input.push_str("\u{2716} 301 problems (1 error, 300 warnings)\n");
    let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
    let error = &envelope["items"][0];
    assert_eq!(error["text"], "/home/me/app/src/util.js", "{envelope}");
    assert_eq!(error["severity"], "error");
    assert_eq!(
        error["more"][0], "   4:10  error  Parsing error: Unexpected token }",
        "{error}"
    );
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary
            .contains("/home/me/app/src/util.js … 4:10  error  Parsing error: Unexpected token }"),
        "{summary}"
    );
    // `4:10`, a line and a column, is no time of day: the input has none.
    assert_eq!(envelope["stats"]["time_span"], Value::Null, "{envelope}");
}

#[test]
fn a_failed_go_test_is_named_by_what_it_logged() {
    let b = Briefly::new();
    let input = "\
=== RUN   TestGet
=== RUN   TestGet/missing
--- FAIL: TestGet (0.00s)
    --- FAIL: TestGet/missing (0.00s)
        store_test.go:12: expected 3, got 4
FAIL
FAIL\texample.com/store\t0.012s
";
    let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
    assert_error_named(
        &envelope,
        3,
        2,
        "line 3: --- FAIL: TestGet (0.00s) … store_test.go:12: expected 3, got 4",
    );
}

#[test]
fn a_verbose_go_tests_output_before_its_failure_is_shown_with_it() {
    // `go test -v` prints a test's t.Errorf as it runs, before its `--- FAIL:`; a
    // subtest's result comes after its parent's, and many subtests log as they pass.
    let b = Briefly::new();
    let mut input = String::from("=== RUN   TestLedger\n");
    for i in 0..500 {
        input.push_str(&format!(
            "=== RUN   TestLedger/case_{i}\n    ledger_test.go:40: checking case {i}\n"
        ));
        if i == 250 {
            input.push_str("=== RUN   TestLedger/overdraft\n");
            input.push_str("    ledger_test.go:88: balance mismatch: got 5, want 7\n");
        }
    }
    input.push_str("--- FAIL: TestLedger (0.50s)\n");
    for i in 0..500 {
        input.push_str(&format!("    --- PASS: TestLedger/case_{i} (0.00s)\n"));
        if i == 250 {
            input.push_str("    --- FAIL: TestLedger/overdraft (0.00s)\n");
        }
    }
    input.push_str("FAIL\nFAIL\texample.com/ledger\t0.512s\n");
    for args in [&["text"][..], &["text", "--level", "error"]] {
        let envelope = b.envelope(args, input.as_bytes(), CAP);
        let failure = envelope["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|item| item["text"] == "--- FAIL: TestLedger (0.50s)")
            .unwrap_or_else(|| panic!("{envelope}"));
        assert_eq!(
            failure["before"],
            serde_json::json!([[
                505,
                "    ledger_test.go:88: balance mismatch: got 5, want 7"
            ]]),
            "{args:?}: {failure}"
        );
    }
    // Small enough to be returned whole, the records --level keeps keep it too.
    let small = "=== RUN   TestX\n    x_test.go:9: got 3, want 4\n--- FAIL: TestX (0.00s)\nFAIL\n";
    let envelope = b.envelope(&["text", "--level", "error"], small.as_bytes(), CAP);
    assert_eq!(
        item_at(&envelope, 3)["before"],
        serde_json::json!([[2, "    x_test.go:9: got 3, want 4"]]),
        "{envelope}"
    );
}

#[test]
fn an_error_a_verbose_go_test_logged_is_named_with_its_failure() {
    // testify's `Error:` is an error line of the test's output, before its `--- FAIL:`:
    // the summary names the failure, which names the test, then what it logged.
    let b = Briefly::new();
    let mut input = String::new();
    for i in 0..300 {
        input.push_str(&format!(
            "=== RUN   TestPass{i}\n--- PASS: TestPass{i} (0.00s)\n"
        ));
    }
    input.push_str(
        "=== RUN   TestEncode
    store_test.go:150:
        \tError Trace:\tstore_test.go:150
        \tError:      \tNot equal:
        \t            \texpected: \"alice\"
--- FAIL: TestEncode (0.31s)
FAIL
FAIL\texample.com/store\t0.412s
",
    );
    let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.contains(
            "first error at line 606: --- FAIL: TestEncode (0.31s), logged at line 604: Error:"
        ),
        "{summary}"
    );
    // A line it logged worse than its failure is named first, as it is.
    let fatal = input.replace("\tError:      \tNot equal:", "FATAL: disk gone");
    let envelope = b.envelope(&["text"], fatal.as_bytes(), CAP);
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.contains("first fatal at line 604: FATAL: disk gone"),
        "{summary}"
    );
}

#[test]
fn a_line_the_framing_cut_says_so_in_its_item() {
    let b = Briefly::new();
    let input = "2024-01-01 00:00:09 ERROR connection failed to host db-primary after 3 retries\n\
                 short line\n";
    let envelope = b.envelope(&["text", "--max-line-bytes", "60"], input.as_bytes(), CAP);
    let first = item_at(&envelope, 1);
    assert_eq!(
        first["text"],
        "2024-01-01 00:00:09 ERROR connection failed to host db-prima…[line cut: whole in the artifact]"
    );
    // Not returned whole: a line of it is not.
    let summary = envelope["summary"].as_str().unwrap();
    assert!(!summary.contains("returned whole"), "{summary}");
    assert_eq!(envelope["truncated"], true);
    assert_warns(
        &envelope,
        &["1 line longer than 60 bytes was cut (whole in the artifact): only the head was read"],
    );
    // The first and the last lines, shown as the input's edges, say so too; and a single
    // line, both.
    let input: String = (0..5)
        .map(|i| format!("row {i} {}\n", "q".repeat(40)))
        .collect();
    let envelope = b.envelope(&["text", "--max-line-bytes", "20"], input.as_bytes(), CAP);
    for line in [1, 5] {
        assert_eq!(
            item_at(&envelope, line)["text"],
            format!(
                "row {} qqqqqqqqqqqqqq…[line cut: whole in the artifact]",
                line - 1
            ),
            "{envelope}"
        );
    }
    // At the least budgets, the warning keeps its say before the cut line's head does.
    let long = format!("{}\n", "x".repeat(5_000));
    for max in [1_000, 1_500, 2_000] {
        let args = [
            "text",
            "--max-line-bytes",
            "3000",
            "--max-chars",
            &max.to_string(),
        ];
        let envelope = b.envelope(&args, long.as_bytes(), max);
        let warning = envelope["warnings"][0].as_str().unwrap_or_default();
        assert!(
            warning.starts_with("1 line longer than 3000 bytes was cut (whole in the artifact): only the head was read"),
            "at {max}: {envelope}"
        );
    }
    let single = format!("{}\n", "q".repeat(150));
    let envelope = b.envelope(&["text", "--max-line-bytes", "100"], single.as_bytes(), CAP);
    let text = item_at(&envelope, 1)["text"].as_str().unwrap().to_string();
    assert!(
        text.ends_with("q…[line cut: whole in the artifact]"),
        "{envelope}"
    );
}

#[test]
fn since_and_until_read_a_zone_written_after_the_time() {
    let b = Briefly::new();
    let input = "2024-05-01 12:00:00 +0200 INFO at ten UTC\n\
                 2024-05-01 12:00:00.123 CEST [1] LOG:  at noon as read\n\
                 2024-05-01 05:00:00 -0500 INFO at ten UTC too\n\
                 2024-05-01 12:00:00 INFO at noon UTC\n";
    let window = [
        "text",
        "--whole-chars",
        "0",
        "--since",
        "2024-05-01T09:59:59Z",
        "--until",
        "2024-05-01T10:00:01Z",
    ];
    let envelope = b.envelope(&window, input.as_bytes(), CAP);
    let shown = shown_texts(&envelope);
    assert!(
        shown.contains("at ten UTC\"") && shown.contains("at ten UTC too"),
        "{shown}"
    );
    assert!(!shown.contains("at noon"), "{shown}");
    assert_warns(
        &envelope,
        &["1 record's time has a zone by name (CEST, PST) after it, read as UTC"],
    );
    // A time without a year is placed in one, and said so.
    let syslog = b"Jun 14 15:16:01 combo sshd[1]: x\nJun 14 15:16:02 combo sshd[1]: y\n";
    let envelope = b.envelope(&["text", "--since", "2005-07-01"], syslog, CAP);
    assert_warns(&envelope, &["2 records' times have no year, read as of"]);
}

#[test]
fn build_tools_failures_keep_what_failed() {
    let b = Briefly::new();
    // Terraform's box: one record, named in the summary by where the error is.
    let terraform = "\
Planning...
╷
│ Error: Invalid reference
│ 
│   on main.tf line 3, in resource \"aws_instance\" \"x\":
│    3:   ami = var.nope
╵
";
    let envelope = b.envelope(&["text"], terraform.as_bytes(), CAP);
    assert_error_named(
        &envelope,
        3,
        3,
        "line 3: │ Error: Invalid reference … │   on main.tf line 3, in resource \"aws_instance\" \"x\":",
    );
    // Gradle's verdict and what went wrong; the linker's error, which names no level.
    let gradle = "\
> Task :compileJava
FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':compileJava'.
> Compilation failed; see the compiler error output for details.

/usr/bin/ld: main.o: in function `main': undefined reference to `foo'
";
    let envelope = b.envelope(&["text"], gradle.as_bytes(), CAP);
    assert_eq!(item_at(&envelope, 2)["severity"], "error", "{envelope}");
    let what = item_at(&envelope, 4);
    assert_eq!(what["severity"], "error", "{envelope}");
    assert_eq!(what["more"].as_array().unwrap().len(), 2, "{what}");
    assert_eq!(item_at(&envelope, 8)["severity"], "error", "{envelope}");
    assert_eq!(envelope["stats"]["severity"]["error"], 3, "{envelope}");
}

#[test]
fn a_stamp_without_a_year_is_never_in_the_future() {
    let b = Briefly::new();
    // A syslog line a week ahead of today's date (in this year) was written last year.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let (_, month, day) = briefly_text::time::civil_from_days(now.div_euclid(86_400) + 7);
    let months = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let stamp = format!("{} {day:2} 10:00:00", months[month as usize - 1]);
    let input = format!("{stamp} host kernel: Out of memory: Killed process 42 (java)\n");
    let envelope = b.envelope(&["text", "--until", "1h"], input.as_bytes(), CAP);
    assert_eq!(envelope["stats"]["filtered_out"], 0, "{envelope}");
    let envelope = b.envelope(&["text", "--since", "2d"], input.as_bytes(), CAP);
    assert_eq!(envelope["stats"]["filtered_out"], 1, "{envelope}");
}

#[test]
fn the_first_and_last_lines_carry_their_template() {
    let b = Briefly::new();
    let groups = b.dir.path().join("groups.jsonl");
    let mut input = String::new();
    for i in 0..20 {
        input.push_str(&format!("2026-11-29 10:00:{i:02} INFO job {i} done\n"));
    }
    input.push_str("Traceback (most recent call last):\n  File \"a.py\", line 1\nKeyError: 'x'");
    let envelope = b.envelope(
        &[
            "text",
            "--whole-chars",
            "0",
            "--emit-groups",
            groups.to_str().unwrap(),
        ],
        input.as_bytes(),
        CAP,
    );
    let rows = group_rows(&groups);
    let items = envelope["items"].as_array().unwrap();
    let first = items.iter().find(|i| i["line"] == 1).unwrap();
    assert_eq!(first["template"], rows[0]["group"], "{first}");
    assert_eq!(first["count"], 20);
    // The last line ends the traceback shown whole: it is not shown again alone.
    let last_line = input.lines().count() as u64;
    assert!(!items.iter().any(|i| i["line"] == last_line), "{items:?}");
    // The options apply to them too.
    let errors = b.envelope(
        &["text", "--whole-chars", "0", "--level", "error"],
        input.as_bytes(),
        CAP,
    );
    assert!(
        !errors["items"].to_string().contains("job 0 done"),
        "{errors}"
    );
}

#[test]
fn options_filter_and_shape_the_result() {
    let b = Briefly::new();
    let mut input = String::new();
    for i in 0..300 {
        let level = ["INFO", "DEBUG", "WARN", "ERROR"][i % 4];
        input.push_str(&format!(
            "2026-11-29T10:{:02}:{:02}Z {level} job {i} step {}\n",
            i / 60,
            i % 60,
            i % 3
        ));
    }
    let warn = b.envelope(&["text", "--level", "warn"], input.as_bytes(), CAP);
    assert_eq!(warn["stats"]["filtered_out"], 150);
    assert!(
        !shown_texts(&warn).contains(" DEBUG job"),
        "below the level is left out"
    );

    let grep = b.envelope(&["text", "--grep", "job 1[0-9] "], input.as_bytes(), CAP);
    assert_eq!(grep["stats"]["filtered_out"], 290);
    let summary = grep["summary"].as_str().unwrap();
    assert!(
        summary.contains("300 records, 10 of them kept by the options"),
        "{summary}"
    );

    let window = b.envelope(
        &[
            "text",
            "--since",
            "2026-11-29T10:01:00Z",
            "--until",
            "2026-11-29T10:02:00Z",
        ],
        input.as_bytes(),
        CAP,
    );
    assert_eq!(window["stats"]["filtered_out"], 240, "{}", window["stats"]);
    assert!(window["warnings"].as_array().unwrap().is_empty());

    // logcat's stamps have no year: the year is now's, so a cut long before keeps them.
    let logcat = "03-17 16:13:38.811  1702  2395 D WindowManager: a\n\
                  03-17 16:16:09.141  1702  2395 D WindowManager: b\n";
    let window = b.envelope(&["text", "--until", "2000-01-01"], logcat.as_bytes(), CAP);
    assert_eq!(window["stats"]["filtered_out"], 2, "{}", window["stats"]);
    // An access log's time is in a bracket after three fields, its zone after a space.
    let access = "10.0.0.1 - - [29/Nov/2026:11:00:30 +0100] \"GET /a HTTP/1.1\" 200 5\n\
                  10.0.0.1 - - [29/Nov/2026:11:01:30 +0100] \"GET /b HTTP/1.1\" 500 5\n";
    let window = b.envelope(
        &["text", "--since", "2026-11-29T10:01:00Z"],
        access.as_bytes(),
        CAP,
    );
    assert_eq!(window["stats"]["filtered_out"], 1, "{}", window["stats"]);
    let span = &window["stats"]["time_span"];
    assert_eq!(span[1], "29/Nov/2026:11:01:30 +0100", "{span}");
    // A JSON or logfmt line's time is its `ts`/`time` key's value.
    let keyed = "{\"level\":\"info\",\"ts\":\"2026-11-29T10:00:30Z\",\"msg\":\"a\"}\n\
                 time=\"2026-11-29T10:01:30Z\" level=error msg=\"b\"\n";
    let window = b.envelope(
        &["text", "--since", "2026-11-29T10:01:00Z"],
        keyed.as_bytes(),
        CAP,
    );
    assert_eq!(window["stats"]["filtered_out"], 1, "{}", window["stats"]);
    assert_eq!(window["stats"]["time_span"][1], "2026-11-29T10:01:30Z");
    // Lines without a time briefly reads are kept, and the envelope says so.
    let untimed = b.envelope(&["text", "--since", "2h"], b"no time 1\nno time 2\n", CAP);
    // An age written as systemd does, a value opening with `-`, is one.
    let hyphen = b.envelope(&["text", "--since", "-2h"], b"no time 1\nno time 2\n", CAP);
    assert_eq!(hyphen["summary"], untimed["summary"], "{hyphen}");
    assert_eq!(untimed["stats"]["filtered_out"], 0);
    assert_warns(&untimed, &["2 records have no time briefly can read"]);

    // Small input comes back whole: every record verbatim, none folded; errors and
    // warnings first, then the rest as runs of lines.
    let small: String = input.lines().take(8).map(|l| format!("{l}\n")).collect();
    let items = |envelope: &Value| -> Vec<String> {
        let items = envelope["items"].as_array().unwrap().iter();
        items
            .map(|i| format!("{} {}", i["kind"], i["line"]))
            .collect()
    };
    let whole_items = [
        "\"line\" 4",
        "\"line\" 8",
        "\"line\" 3",
        "\"line\" 7",
        "\"lines\" 1",
        "\"lines\" 5",
    ];
    let whole = b.envelope(&["text"], small.as_bytes(), CAP);
    assert_eq!(items(&whole), whole_items, "{whole}");
    assert_eq!(whole["truncated"], false, "{whole}");
    // Its characters but its last newline (counted or not, the input is as whole).
    let chars = small.trim_end_matches('\n').chars().count();
    let whole = b.envelope(
        &["text", "--whole-chars", &chars.to_string()],
        small.as_bytes(),
        CAP,
    );
    assert_eq!(items(&whole), whole_items, "{whole}");
    let fewer = (chars - 1).to_string();
    let folded = b.envelope(&["text", "--whole-chars", &fewer], small.as_bytes(), CAP);
    assert!(items(&folded).iter().all(|i| !i.starts_with("\"lines\"")));
    assert_eq!(folded["truncated"], true, "{folded}");

    let top = b.envelope(&["text", "--top", "2"], input.as_bytes(), CAP);
    assert_eq!(top["stats"]["top_templates"].as_array().unwrap().len(), 2);

    let context = b.envelope(
        &["text", "--context", "1", "--level", "error"],
        input.as_bytes(),
        CAP,
    );
    let first = &context["items"][0];
    assert_eq!(first["before"].as_array().unwrap().len(), 1, "{first}");
    assert_eq!(first["after"].as_array().unwrap().len(), 1, "{first}");

    for bad in [
        &["text", "--level", "loud"][..],
        &["text", "--since", "whenever"],
        &["text", "--grep", "("],
        &["text", "--context", "99"],
        &["text", "--whole-chars", "-1"],
    ] {
        let out = b.run(bad, input.as_bytes());
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
    }
}

#[test]
fn emit_groups_writes_one_line_per_input_line() {
    let b = Briefly::new();
    let groups = b.dir.path().join("groups.jsonl");
    let input = "a 1 x\na 2 x\nb only\na 3 x\n  at frame\n";
    let out = b.run(
        &["text", "--emit-groups", groups.to_str().unwrap()],
        input.as_bytes(),
    );
    assert!(out.status.success());
    let rows = group_rows(&groups);
    assert_eq!(rows.len(), 5);
    assert_eq!(rows[0]["line"], 1);
    assert_eq!(rows[0]["group"], rows[1]["group"]);
    assert_eq!(rows[0]["group"], rows[3]["group"]);
    assert_ne!(rows[0]["group"], rows[2]["group"]);
    assert_eq!(
        rows[4]["group"], rows[3]["group"],
        "a continuation line belongs to its record"
    );
}

#[test]
fn lines_past_the_template_cap_are_in_no_group() {
    // 12,000 lines that share no template (their words differ, none a number): past the
    // cap of 10,000 templates they are counted as `other`, not as one group.
    let mut seed = 7u64;
    let mut word = || -> String {
        (0..6)
            .map(|_| {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                char::from(b'a' + (seed >> 33) as u8 % 26)
            })
            .collect()
    };
    let input: String = (0..12_000)
        .map(|_| format!("{} starts the {} job\n", word(), word()))
        .collect();
    let b = Briefly::new();
    let groups = b.dir.path().join("groups.jsonl");
    let envelope = b.envelope(
        &["text", "--emit-groups", groups.to_str().unwrap()],
        input.as_bytes(),
        CAP,
    );
    let other = envelope["stats"]["other_records"].as_u64().unwrap();
    assert!(other > 1_000, "{}", envelope["stats"]);
    let rows = group_rows(&groups);
    let in_other = rows.iter().filter(|r| r["other"] == true).count();
    assert_eq!(in_other as u64, other);
    // A group stays a number or null: those past the cap are in none.
    for row in &rows {
        assert!(
            row["group"].is_u64() || (row["group"].is_null() && row["other"] == true),
            "{row}"
        );
    }
    // Nor is the `other` group given an id anywhere, and it is among the top templates.
    assert!(!envelope.to_string().contains("4294967295"), "{envelope}");
    assert_eq!(envelope["stats"]["top_templates"][0]["count"], other);
}

#[test]
fn emit_groups_never_overwrites_the_input() {
    let b = Briefly::new();
    let log = b.dir.path().join("app.log");
    std::fs::write(&log, "a 1 x\na 2 x\n").unwrap();
    let path = log.to_str().unwrap();
    // Named as the file read, and as what standard input reads from.
    let out = b.run(&["text", path, "--emit-groups", path], b"");
    assert_eq!(out.status.code(), Some(2));
    let stdin = std::fs::File::open(&log).unwrap();
    let out = b
        .command(&["text", "--emit-groups", path])
        .stdin(stdin)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("that is the input"));
    assert_eq!(std::fs::read_to_string(&log).unwrap(), "a 1 x\na 2 x\n");
}

#[test]
fn a_line_seen_twice_is_shown_before_the_templates_by_count() {
    let b = Briefly::new();
    let mut input = String::new();
    for i in 0..2_000 {
        input.push_str(&format!("2026-11-29T10:00:00Z INFO served item {i}\n"));
        input.push_str(&format!("2026-11-29T10:00:00Z INFO cache {} hit\n", i % 7));
        if i == 700 || i == 1400 {
            input.push_str("2026-11-29T10:00:00Z INFO disk quota almost reached\n");
        }
    }
    let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
    let items = envelope["items"].as_array().unwrap();
    let rare = items
        .iter()
        .position(|i| i["text"].as_str().is_some_and(|t| t.contains("disk quota")))
        .unwrap_or_else(|| panic!("the line seen twice is inline: {items:?}"));
    assert_eq!(items[rare]["count"], 2);
    let first_template = items.iter().position(|i| i["kind"] == "template").unwrap();
    assert!(rare < first_template, "{items:?}");
}

#[test]
fn a_line_cut_for_an_item_is_marked_and_kept_whole_in_the_artifact() {
    let b = Briefly::new();
    // (More than half a page: folded, not returned whole.)
    let long = "g".repeat(12_000);
    for input in [
        format!("first\ngamma {long} END3\nlast\n"),
        format!("ERROR one {long}\nWARN two {long}\n"),
    ] {
        let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
        let items = envelope["items"].to_string();
        assert!(items.contains("…[cut "), "{items}");
        assert_eq!(envelope["truncated"], true, "{envelope}");
        let artifact = envelope["artifact_path"].as_str().expect("an artifact");
        assert_eq!(std::fs::read_to_string(artifact).unwrap(), input);
    }
}

#[test]
fn bad_input_never_panics() {
    let b = Briefly::new();
    let mut garbage: Vec<u8> = (0..200_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    garbage.extend_from_slice(&vec![b'y'; 10 << 20]);
    garbage.extend_from_slice(b"\r\n\x1b[31mERROR\x1b[0m red alert\r\n");
    let envelope = b.envelope(&["text"], &garbage, CAP);
    assert_warns(&envelope, &["ANSI", "invalid UTF-8", "longer than"]);
    assert!(
        shown_texts(&envelope).contains("\"ERROR red alert\""),
        "colour stripped, CR dropped"
    );
}

#[test]
fn utf16_input_is_read_as_text_and_kept_as_it_came() {
    let b = Briefly::new();
    // What Windows PowerShell 5's `>` writes: UTF-16LE after its mark, CRLF.
    let mut lines: Vec<String> = (0..3000)
        .map(|i| {
            format!(
                "2026-11-29 12:00:{:02} INFO worker {i} took {} ms",
                i % 60,
                i % 97
            )
        })
        .collect();
    lines[1500] = "2026-11-29 12:25:00 ERROR connection to db1 refused: caf\u{e9}".into();
    let text = lines.join("\r\n") + "\r\n";
    let mut input = vec![0xFF, 0xFE];
    input.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    let path = b.dir.path().join("out.log");
    std::fs::write(&path, &input).unwrap();
    let envelope = b.envelope(&["text", path.to_str().unwrap()], b"", CAP);
    assert_eq!(item_at(&envelope, 1501)["text"], lines[1500], "{envelope}");
    assert_eq!(envelope["raw"]["bytes"], input.len());
    assert_eq!(envelope["raw"]["lines"], 3000);
    assert_eq!(envelope["raw"]["chars"], text.chars().count());
    assert_warns(
        &envelope,
        &["the input is UTF-16LE (by its byte-order mark)"],
    );
    let warnings = envelope["warnings"].to_string();
    assert!(
        !warnings.contains("NUL") && !warnings.contains("redrawn"),
        "{warnings}"
    );
    // The artifact is the input as it came; reading it back reads the text.
    let artifact = envelope["artifact_path"].as_str().expect("an artifact");
    assert_eq!(
        common::sha256_hex(artifact.as_ref()),
        common::sha256_hex(&path)
    );
    let read = b.envelope(
        &["read", artifact, "--offset", "1501", "--limit", "1"],
        b"",
        CAP,
    );
    assert_eq!(read["items"][0]["text"], lines[1500], "{read}");
    // From a pipe, and without the mark, the same.
    let unmarked = &input[2..];
    let piped = b.envelope(&["text"], unmarked, CAP);
    assert_eq!(item_at(&piped, 1501)["text"], lines[1500]);
    assert_warns(&piped, &["UTF-16LE (a NUL in every other byte)"]);
}

#[test]
fn pages_walk_every_item_once() {
    let b = Briefly::new();
    let path = loghub("Linux");
    let first = b.envelope(
        &["text", path.to_str().unwrap(), "--max-chars", "3000"],
        b"",
        3_000,
    );
    let total = first["total_items"].as_u64().unwrap();
    let mut seen: Vec<String> = first["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i.to_string())
        .collect();
    let mut cursor = first["next_cursor"].as_str().map(String::from);
    assert!(cursor.is_some(), "a 3,000-char budget leaves items out");
    while let Some(c) = cursor {
        let page = b.envelope(&["page", &c], b"", 3_000);
        assert_eq!(page["source"], "text");
        assert_eq!(page["total_items"], total);
        seen.extend(
            page["items"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| i.to_string()),
        );
        cursor = page["next_cursor"].as_str().map(String::from);
    }
    assert_eq!(seen.len() as u64, total);
    let distinct: std::collections::BTreeSet<&String> = seen.iter().collect();
    assert_eq!(distinct.len(), seen.len(), "no item twice");
}

#[test]
fn run_uses_text_for_commands_it_does_not_know() {
    let b = Briefly::new();
    let script = "for i in $(seq 1 3000); do echo \"INFO tick $i\"; done; echo 'ERROR the one that matters'; exit 1";
    let out = b.run(&["run", "--", "sh", "-c", script], b"");
    assert_eq!(out.status.code(), Some(1));
    let envelope: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(envelope["source"], "text");
    assert_eq!(envelope["items"][0]["text"], "ERROR the one that matters");
    assert_eq!(envelope["exit_code"], 1);
}

#[test]
fn the_text_format_shows_every_line_returned() {
    let b = Briefly::new();
    let input = "start\nTraceback (most recent call last):\n  File \"a.py\", line 1, in <module>\nKeyError: 'x'\nend\n";
    let out = b.run(&["--format", "text", "text"], input.as_bytes());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let traceback = "  2: Traceback (most recent call last):  [error]
  3:   File \"a.py\", line 1, in <module>
  4: KeyError: 'x'
  1: start
  5: end
";
    assert!(stdout.contains(traceback), "{stdout}");
}

#[test]
fn an_error_a_progress_bar_drew_over_is_still_an_error() {
    let b = Briefly::new();
    let envelope = b.envelope(
        &["text"],
        b"Progress 10%\rERROR: disk full\rProgress 100%\ndone\n",
        CAP,
    );
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.ends_with(
            "1 error, 0 warnings; returned whole; first error at line 1: ERROR: disk full"
        ),
        "{summary}"
    );
}

#[test]
fn at_the_least_budget_a_record_too_large_keeps_its_lines_over_the_summary() {
    // Beside a summary of 200 characters the record was a bare cut marker, and paging
    // went past it: its stack was on no page.
    let b = Briefly::new();
    let mut input: String = (0..3000)
        .map(|i| {
            format!(
                "2024-05-01 10:00:00 INFO worker-{} processed id={i} in {}ms\n",
                i % 7,
                i % 500
            )
        })
        .collect();
    input.push_str("2024-05-01 10:25:00 ERROR Exception in thread \"main\" java.lang.NullPointerException: Cannot invoke \"String.length()\" because \"s\" is null\n");
    input.push_str("\tat com.example.Foo.bar(Foo.java:42)\nCaused by: java.io.IOException: disk full\n\tat com.example.Disk.write(Disk.java:7)\n");
    let envelope = b.envelope(&["text", "--max-chars", "1000"], input.as_bytes(), 1_000);
    let item = &envelope["items"][0];
    assert_eq!(item["line"], 3001, "{envelope}");
    assert_eq!(item["more"].as_array().map(Vec::len), Some(3), "{item}");
    assert!(
        item["more"][0].as_str().unwrap().contains("Foo.java:42"),
        "{item}"
    );
}

#[test]
fn a_long_record_at_a_small_budget_comes_whole_with_its_root_cause() {
    // 60 frames, the cause, 20 more: at 2,000 chars every line was cut to its first
    // eight characters, `Caused by:` with them.
    let b = Briefly::new();
    let mut input = String::from(
        "2024-01-05 10:01:00.000 ERROR 1 --- [main] o.s.boot.SpringApplication : Application run failed\n\
         org.springframework.beans.factory.BeanCreationException: Error creating bean 'entityManagerFactory'\n",
    );
    for k in 0..60 {
        input.push_str(&format!(
            "\tat org.springframework.beans.factory.support.AbstractAutowireCapableBeanFactory.m{k}(AbstractAutowireCapableBeanFactory.java:{})\n",
            1000 + k
        ));
    }
    input.push_str(
        "Caused by: java.net.ConnectException: Connection refused to host db.internal:5432\n",
    );
    for k in 0..20 {
        input.push_str(&format!(
            "\tat java.base/sun.nio.ch.Net.connect{k}(Net.java:{})\n",
            500 + k
        ));
    }
    for i in 0..60 {
        input.push_str(&format!(
            "2024-01-05 10:00:{i:02}.123  INFO 1 --- [main] o.s.b.StartupInfoLogger : Starting step {i}\n"
        ));
    }
    for max in [1_500, 2_000] {
        let envelope = b.envelope(
            &["text", "--max-chars", &max.to_string()],
            input.as_bytes(),
            max,
        );
        let record = &envelope["items"][0];
        let more: Vec<&str> = record["more"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap())
            .collect();
        assert!(
            more.contains(&"Caused by: java.net.ConnectException: Connection refused to host db.internal:5432"),
            "at {max}: {envelope}"
        );
        assert!(
            more.iter().all(|line| !line.contains("[cut ")),
            "at {max}: {envelope}"
        );
        // Its pages keep the same records: the cursor says how many lines they keep.
        let cursor = common::decode_cursor(envelope["next_cursor"].as_str().unwrap());
        assert_eq!(cursor["o"]["layout_chars"], max, "{cursor}");
    }
    // At the budgets of a context window, the whole record's head and tail, as before.
    let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
    assert_eq!(envelope["items"][0]["more"].as_array().unwrap().len(), 40);
}

#[test]
fn records_keep_what_a_smaller_page_holds() {
    // A short input of one long traceback, returned whole: its record was cut line by
    // line at 2,000 chars, its exception lost; it keeps its head and its end now.
    let b = Briefly::new();
    let mut traceback = String::from("Traceback (most recent call last):\n");
    for i in 0..40 {
        traceback.push_str(&format!(
            "  File \"/srv/app/m{i}.py\", line {i}, in f{i}\n    do_{i}()\n"
        ));
    }
    traceback.push_str("KeyError: missing_key\n");
    let envelope = b.envelope(
        &["text", "--max-chars", "2000"],
        traceback.as_bytes(),
        2_000,
    );
    let record = &envelope["items"][0];
    let more = record["more"].as_array().unwrap();
    assert_eq!(more.last().unwrap(), "KeyError: missing_key", "{envelope}");
    assert!(
        more.iter().all(|l| !l.as_str().unwrap().contains("[cut ")),
        "{envelope}"
    );
    assert_eq!(record["more_cut"], 81 - more.len(), "{envelope}");
    // As many lines as a page of 2,000 chars holds a record (600 characters, a line
    // counted with its quotes and comma): head, decisive ones, end; of short lines,
    // more than long ones would leave.
    let chars: usize = more
        .iter()
        .map(|l| l.as_str().unwrap().chars().count() + 3)
        .sum();
    assert!(chars <= 600 && more.len() > 20, "{chars}: {envelope}");
    assert!(
        !envelope["summary"]
            .as_str()
            .unwrap()
            .contains("returned whole"),
        "{envelope}"
    );
    // Laid out at 8,000 chars and paged at 1,000: each page's records keep what it holds,
    // their exceptions with them, not cut line by line.
    let mut input = String::new();
    for r in 0..12 {
        input.push_str(&format!("2024-01-01 10:00:{r:02} INFO serving {r}\n"));
        input.push_str("Traceback (most recent call last):\n");
        for i in 0..15 {
            input.push_str(&format!(
                "  File \"/srv/app/r{r}m{i}.py\", line {i}, in f{i}\n"
            ));
        }
        input.push_str(&format!("ValueError: bad record {r}\n"));
    }
    let first = b.envelope(&["text", "--max-chars", "8000"], input.as_bytes(), 8_000);
    // The record that ends the first page, cut to the room left: its first lines and its
    // exception, the lines between them told of as the layout's are.
    let last = first["items"].as_array().unwrap().last().unwrap().clone();
    assert!(last["more_cut"].as_u64() > Some(0), "{first}");
    assert!(last["more_gaps"][0]["after"].as_u64() > Some(0), "{first}");
    let mut items = first["items"].as_array().unwrap().clone();
    let mut cursor = first["next_cursor"].as_str().map(String::from);
    while let Some(next) = cursor {
        let page = b.envelope(&["page", &next, "--max-chars", "1000"], b"", 1_000);
        items.extend(page["items"].as_array().unwrap().iter().cloned());
        cursor = page["next_cursor"].as_str().map(String::from);
    }
    let tracebacks: Vec<&serde_json::Value> = items
        .iter()
        .filter(|i| i["text"] == "Traceback (most recent call last):")
        .collect();
    assert_eq!(tracebacks.len(), 12, "{items:?}");
    for record in tracebacks {
        let more = record["more"].as_array().unwrap();
        let last = more.last().unwrap().as_str().unwrap();
        assert!(last.starts_with("ValueError: bad record "), "{record}");
        assert!(
            more.iter().all(|l| !l.as_str().unwrap().contains("[cut ")),
            "{record}"
        );
    }
}

#[test]
fn a_chained_traceback_cut_to_a_page_keeps_its_exceptions_not_its_headers() {
    // Three tracebacks, each raised while handling the one before: cut to what a page of
    // 2,000 chars holds, the record keeps the middle exception, not the third's
    // `Traceback (most recent call last):`, which says nothing of what went wrong.
    let mut input = String::new();
    for (n, exception) in ["ValueError: bad port", "RuntimeError: config parse failed"]
        .iter()
        .enumerate()
    {
        input.push_str("Traceback (most recent call last):\n");
        for i in 0..8 {
            input.push_str(&format!(
                "  File \"/srv/app/chain{n}/module{i}.py\", line {i}, in step{i}\n"
            ));
        }
        input.push_str(&format!("{exception}\n\nDuring handling of the above exception, another exception occurred:\n\n"));
    }
    input.push_str("Traceback (most recent call last):\n");
    for i in 0..8 {
        input.push_str(&format!(
            "  File \"/srv/app/main/module{i}.py\", line {i}, in run{i}\n"
        ));
    }
    input.push_str("KeyError: 'missing'\n");
    let b = Briefly::new();
    let envelope = b.envelope(&["text", "--max-chars", "2000"], input.as_bytes(), 2_000);
    let record = &envelope["items"][0];
    let more: Vec<&str> = (record["more"].as_array().unwrap().iter())
        .map(|l| l.as_str().unwrap())
        .collect();
    assert!(record["more_cut"].as_u64().unwrap() > 0, "{envelope}");
    assert!(
        more.contains(&"RuntimeError: config parse failed"),
        "{more:?}"
    );
    assert_eq!(more.last(), Some(&"KeyError: 'missing'"), "{more:?}");
}

/// The `line` items on every page of `args` run on `input`.
fn line_items(b: &Briefly, args: &[&str], input: &str) -> Vec<Value> {
    let first = b.envelope(args, input.as_bytes(), CAP);
    let mut items = b.all_items(&first, CAP);
    items.retain(|item| item["kind"] == "line");
    items
}

/// The first lines of `items`, in order: each record is on one page, once (listed, no
/// ranked item repeats it: not the first or last line, nor a rare template's example).
fn first_lines(items: &[Value]) -> Vec<u64> {
    let mut lines: Vec<u64> = (items.iter())
        .map(|item| item["line"].as_u64().unwrap())
        .collect();
    lines.sort_unstable();
    lines.dedup();
    for item in items {
        assert!(item["count"].as_u64() >= Some(1), "{item}");
    }
    assert_eq!(items.len(), lines.len(), "items for records");
    lines
}

/// The line numbers of an item's context after it.
fn lines_after(item: &Value) -> Vec<u64> {
    (item["after"].as_array().unwrap().iter())
        .map(|pair| pair[0].as_u64().unwrap())
        .collect()
}

#[test]
fn every_record_the_options_keep_is_on_a_page() {
    let b = Briefly::new();
    // Many errors of one template past the per-template cap, some while the input is
    // small enough to be held whole (the first 45) and the rest after, in a log too long
    // to return whole.
    let mut input = String::new();
    let mut errors = Vec::new();
    for n in 1..=20_000u64 {
        if n <= 90 && n % 2 == 0 || n % 500 == 7 {
            input.push_str(&format!(
                "12:00:00 ERROR db timeout after {n}ms on shard 3\n"
            ));
            errors.push(n);
        } else {
            input.push_str(&format!(
                "12:00:00 INFO request {n} served in {}ms\n",
                n % 97
            ));
        }
    }
    let items = line_items(&b, &["text", "--level", "error"], &input);
    assert_eq!(first_lines(&items), errors);
    // Each with its context after it, those held whole too.
    let items = line_items(&b, &["text", "--level", "error", "--context", "2"], &input);
    assert_eq!(first_lines(&items), errors);
    for item in &items {
        let line = item["line"].as_u64().unwrap();
        assert_eq!(lines_after(item), [line + 1, line + 2], "{item}");
    }

    // More serious records than are kept verbatim (20 of each template at most, 500 in
    // all), after much the options leave out: the warnings the errors after them take
    // the place of are listed too, the last one kept given way to by the next line,
    // before its context was in. (A template apart for each length.)
    let mut input: String = (1..=20_000)
        .map(|n| format!("INFO request {n} served\n"))
        .collect();
    for (level, words, templates) in [("WARN", "stage", 25), ("ERROR", "block", 15)] {
        for _ in 0..20 {
            for length in 1..=templates {
                let words = vec![words; length].join(" ");
                input.push_str(&format!("{level} queue {words} done\n"));
            }
        }
    }
    // Records of rare templates, each once: listed, not also a rare template's example,
    // nor the first and last lines.
    let words = |n: u64| -> String {
        let letter = |d: u64| char::from(b'a' + (d % 26) as u8);
        format!("{}{}{}", letter(n), letter(n / 26), letter(n / 676))
    };
    let rare: String = (1..=3_000)
        .map(|n| format!("INFO {} {} started\n", words(n), words(n + 7)))
        .collect();
    let items = line_items(&b, &["text", "--level", "info"], &rare);
    assert_eq!(first_lines(&items), (1..=3_000).collect::<Vec<_>>());
    let items = line_items(&b, &["text", "--grep", "started"], &rare);
    assert_eq!(first_lines(&items), (1..=3_000).collect::<Vec<_>>());

    let serious: Vec<u64> = (20_001..=20_800).collect();
    let items = line_items(&b, &["text", "--level", "warn"], &input);
    assert_eq!(first_lines(&items), serious);
    // Those given way with the context they had and the rest.
    let items = line_items(&b, &["text", "--level", "warn", "--context", "2"], &input);
    assert_eq!(first_lines(&items), serious);
    for item in items
        .iter()
        .filter(|item| item["line"].as_u64() < Some(20_799))
    {
        let line = item["line"].as_u64().unwrap();
        assert_eq!(lines_after(item), [line + 1, line + 2], "{item}");
    }
}

#[test]
fn the_traceback_an_output_ends_in_is_ranked_first_and_named() {
    let b = Briefly::new();
    // A program logs an error it survives, runs on, and dies of an uncaught exception.
    let mut input = String::new();
    for i in 0..2_000 {
        input.push_str(&format!("2026-11-29 10:00:00,000 INFO step {i} done\n"));
        if i == 100 {
            input.push_str("2026-11-29 10:00:00,000 ERROR cache miss storm: falling back\n");
        }
    }
    let traceback = "Traceback (most recent call last):\n  File \"/app/die.py\", line 6, in <module>\n    json.loads(text)\nValueError: Illegal trailing comma at char 8\n";
    let died = input.clone() + traceback;
    let envelope = b.envelope(&["text"], died.as_bytes(), CAP);
    assert_eq!(envelope["items"][0]["line"], 2_002, "{envelope}");
    assert_eq!(envelope["items"][1]["line"], 102, "{envelope}");
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary
            .contains("; first error at line 102: 2026-11-29 10:00:00,000 ERROR cache miss storm"),
        "{summary}"
    );
    assert!(
        summary.ends_with("; the output ends in an error at line 2002: Traceback (most recent call last): … ValueError: Illegal trailing comma at char 8"),
        "{summary}"
    );
    // A few lines of no record after it (Node's version line, a prompt) change nothing.
    let then = died.clone() + "\nNode.js v20.20.2\n";
    let envelope = b.envelope(&["text"], then.as_bytes(), CAP);
    assert_eq!(envelope["items"][0]["line"], 2_002, "{envelope}");
    // A traceback the program ran on after is not its last words (it still comes before
    // a one-line error as rare); nor is a one-line error that ends the output (`make: ***
    // … Error 1` after the compiler's diagnostic).
    let ran_on = input.clone() + traceback + &"2026-11-29 10:00:01,000 INFO retrying\n".repeat(10);
    let oneline = input + "2026-11-29 10:00:01,000 ERROR gave up\n";
    for (input, first) in [(ran_on, 2_002), (oneline, 102)] {
        let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
        assert_eq!(envelope["items"][0]["line"], first, "{envelope}");
        let summary = envelope["summary"].as_str().unwrap();
        assert!(!summary.contains("the output ends in"), "{summary}");
    }
}

#[test]
fn a_report_of_several_lines_comes_before_a_line_alone_as_rare() {
    // `python -m unittest -v`: each failing test's progress line, then its report.
    let mut input = String::from(
        "test_cache (test_u.T.test_cache) ... ERROR\ntest_invoice (test_u.T.test_invoice) ... FAIL\n",
    );
    for i in 0..300 {
        input.push_str(&format!("test_ok_{i} (test_u.T.test_ok_{i}) ... ok\n"));
    }
    input.push_str(
        "\n======================================================================\n\
         ERROR: test_cache (test_u.T.test_cache)\n\
         ----------------------------------------------------------------------\n\
         Traceback (most recent call last):\n\
         \x20 File \"/tmp/test_u.py\", line 11, in err\n\
         \x20   raise ConnectionError(\"redis unreachable at 10.0.0.5:6379\")\n\
         ConnectionError: redis unreachable at 10.0.0.5:6379\n\n\
         ----------------------------------------------------------------------\n\
         Ran 302 tests in 0.005s\n\nFAILED (failures=1, errors=1)\n",
    );
    let b = Briefly::new();
    let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
    let first = &envelope["items"][0];
    assert_eq!(
        first["text"], "ERROR: test_cache (test_u.T.test_cache)",
        "{envelope}"
    );
    assert!(
        first["more"]
            .to_string()
            .contains("ConnectionError: redis unreachable"),
        "{first}"
    );
    // The summary's first error, a progress line, with its report: why it failed (the
    // report's `-----` rule under its header says nothing).
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.ends_with(
            "; first error at line 1: test_cache (test_u.T.test_cache) ... ERROR, reported at \
             line 305: ERROR: test_cache (test_u.T.test_cache) … ConnectionError: redis \
             unreachable at 10.0.0.5:6379"
        ),
        "{summary}"
    );
    // Cut after the report (`| head`), the output ends in it: said once.
    let cut = &input[..input.find("\n\n-----").unwrap() + 1];
    let envelope = b.envelope(&["text"], cut.as_bytes(), CAP);
    let summary = envelope["summary"].as_str().unwrap();
    assert!(summary.contains(", reported at line 305: "), "{summary}");
    assert!(!summary.contains("the output ends in"), "{summary}");
}

#[test]
fn a_compilers_errors_folded_into_one_template_show_every_file_they_are_in() {
    // javac's 16 errors in each of 12 files, alike but for the file and the line: the
    // records kept of the template (20) are spread over the files, so every file is on
    // a page, not only the first one's first 20.
    let mut input = String::new();
    for file in 1..=12 {
        for line in 1..=16 {
            input.push_str(&format!(
                "src/C{file}.java:{line}: error: cannot find symbol\n  symbol:   variable x{line}\n  location: class C{file}\n"
            ));
        }
    }
    input.push_str("192 errors\n");
    let b = Briefly::new();
    let first = b.envelope(&["text"], input.as_bytes(), CAP);
    let items = b.all_items(&first, CAP);
    let files: std::collections::BTreeSet<&str> = items
        .iter()
        .filter_map(|i| i["text"].as_str()?.split_once(':').map(|(file, _)| file))
        .filter(|file| file.starts_with("src/"))
        .collect();
    assert_eq!(files.len(), 12, "{files:?}");
    // Each file's first error, not a later one of a file shown already.
    for file in 1..=12 {
        let first_error = format!("src/C{file}.java:1: error: cannot find symbol");
        assert!(
            items
                .iter()
                .any(|i| i["text"].as_str() == Some(&first_error)),
            "{first_error}"
        );
    }
    // The first error is kept, and named.
    let summary = first["summary"].as_str().unwrap();
    assert!(
        summary.contains("first error at line 1: src/C1.java:1: error"),
        "{summary}"
    );
}

#[test]
fn a_builds_verdict_is_named_with_the_error_after_it() {
    // Maven says BUILD FAILURE (at INFO) before the errors that say why.
    let input = "\
[INFO] Building demo 1.0
[WARNING] The POM for org.apache.maven.plugins:maven-resources-plugin:jar:2.6 is missing
[INFO] ------------------------------------------------------------------------
[INFO] BUILD FAILURE
[INFO] ------------------------------------------------------------------------
[INFO] Total time:  0.090 s
[ERROR] Plugin org.apache.maven.plugins:maven-resources-plugin:2.6 could not be resolved
[ERROR] 
[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.
";
    let b = Briefly::new();
    let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.contains(
            "first error at line 4: [INFO] BUILD FAILURE, reported at line 7: [ERROR] Plugin \
             org.apache.maven.plugins:maven-resources-plugin:2.6 could not be resolved"
        ),
        "{summary}"
    );
}

#[test]
fn a_failed_rust_test_is_named_with_its_panic() {
    // `cargo test`'s progress line of a failed test, then its captured panic (after
    // what it logged, and before another test's, named alike).
    let input = "\
running 3 tests
test tests::ok ... ok
test tests::sums ... FAILED
test tests::sums_twice ... FAILED

failures:

---- tests::sums stdout ----
ERROR retrying: connection refused
thread 'tests::sums' (11510) panicked at src/lib.rs:4:17:
assertion `left == right` failed
  left: 2
 right: 3
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace

---- tests::sums_twice stdout ----

thread 'tests::sums_twice' (11511) panicked at src/lib.rs:6:17:
explicit panic


failures:
    tests::sums
    tests::sums_twice

test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

";
    let b = Briefly::new();
    // Returned whole, and over pages with the summary cut to the least it keeps (200
    // characters, which end in the panic's file).
    for (args, named) in [
        (&["text"][..], "src/lib.rs:4:17"),
        (&["--max-chars", "1500", "text"], "src/lib.rs…[cut "),
    ] {
        let envelope = b.envelope(args, input.as_bytes(), CAP);
        let summary = envelope["summary"].as_str().unwrap();
        assert!(
            summary.contains(&format!(
                "; first error at line 3: test tests::sums ... FAILED, reported at line 10: \
                 thread 'tests::sums' (11510) panicked at {named}"
            )),
            "{args:?}: {summary}"
        );
    }
}

#[test]
fn an_exceptions_message_over_several_lines_stays_with_it() {
    // Lines a serious line announces (a colon, pydantic's count of errors) go on with its
    // message: amid 300 lines of noise, pydantic's fields and a Java exception's list
    // are in their records' items, up to the frames or the next line with a level.
    let mut input = String::new();
    for i in 0..150 {
        input.push_str(&format!("2024-01-05 10:00:{:02} INFO served {i}\n", i % 60));
    }
    let python = [
        "Traceback (most recent call last):",
        "  File \"m.py\", line 9, in <module>",
        "pydantic_core._pydantic_core.ValidationError: 2 validation errors for Order",
        "qty",
        "  Input should be greater than 0 [type=greater_than, input_value=-1]",
        "sku",
        "  Field required [type=missing, input_value={}, input_type=dict]",
    ];
    let java = [
        "2024-01-05 10:02:31 ERROR [main] c.e.Orders - rejected",
        "java.lang.IllegalArgumentException: invalid order 77:",
        "- field qty: must be positive",
        "\tat c.e.Orders.check(Orders.java:10)",
    ];
    for line in python.iter().chain(&java) {
        input.push_str(line);
        input.push('\n');
    }
    for i in 150..300 {
        input.push_str(&format!("2024-01-05 10:03:{:02} INFO served {i}\n", i % 60));
    }
    let b = Briefly::new();
    let envelope = b.envelope(&["text", "--whole-chars", "0"], input.as_bytes(), CAP);
    for (at, record) in [(151, &python[..]), (158, &java[..])] {
        let item = item_at(&envelope, at);
        let more: Vec<&str> = (item["more"].as_array().unwrap().iter())
            .map(|l| l.as_str().unwrap())
            .collect();
        assert_eq!(more, record[1..], "{item}");
    }
    assert_eq!(envelope["stats"]["records"], 302, "{}", envelope["stats"]);
}

#[test]
fn pips_failed_build_step_is_reported_by_its_output() {
    // pip's `error: subprocess-exited-with-error` comes before the output that says why;
    // the summary names that output's traceback, read without its box's indentation.
    let b = Briefly::new();
    let input = r#"Collecting badpkg==1.0
  Downloading badpkg-1.0.tar.gz (1.2 kB)
  Preparing metadata (setup.py) ... error
  error: subprocess-exited-with-error
  
  × python setup.py egg_info did not run successfully.
  │ exit code: 1
  ╰─> [6 lines of output]
      Traceback (most recent call last):
        File "<string>", line 2, in <module>
        File "<pip-setuptools-caller>", line 34, in <module>
        File "/tmp/pip-install-x/badpkg/setup.py", line 1, in <module>
          import numpy
      ModuleNotFoundError: No module named 'numpy'
      [end of output]
  
  note: This error originates from a subprocess, and is likely not a problem with pip.
error: metadata-generation-failed

× Encountered error while generating package metadata.
╰─> See above for output.

note: This is an issue with the package mentioned above, not pip.
hint: See above for details.
"#;
    let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.ends_with(
            "first error at line 4: error: subprocess-exited-with-error, reported at line 9: \
             Traceback (most recent call last): … ModuleNotFoundError: No module named 'numpy'"
        ),
        "{summary}"
    );
}

/// A `go test -json` stream (test2json's events, as Go 1.22 writes them) of two packages:
/// `passing` tests that log a line each, then one that fails with its log and one that
/// panics; with the output the events carry, line by line (what `go test -v` prints),
/// and for each of those lines the number of the event line that carries it.
fn go_test_json(passing: usize) -> (String, String, Vec<u64>) {
    let mut events = Vec::new();
    let mut event = |action: &str, package: &str, test: Option<&str>, output: Option<&str>| {
        let mut e = json!({"Time": format!("2026-12-06T10:00:{:02}.{:06}Z", events.len() / 100_000, events.len() % 100_000), "Action": action, "Package": package});
        if let Some(test) = test {
            e["Test"] = json!(test);
        }
        if let Some(output) = output {
            e["Output"] = json!(output);
        }
        if matches!(action, "pass" | "fail") {
            e["Elapsed"] = json!(0.01);
        }
        events.push(e);
    };
    let cart = "example.com/shop/cart";
    event("start", cart, None, None);
    for i in 0..passing {
        let name = format!("TestCart{i}");
        event("run", cart, Some(&name), None);
        event(
            "output",
            cart,
            Some(&name),
            Some(&format!("=== RUN   {name}\n")),
        );
        let log = format!("    cart_test.go:{}: added item {i}\n", 20 + i);
        event("output", cart, Some(&name), Some(&log));
        let result = format!("--- PASS: {name} (0.00s)\n");
        event("output", cart, Some(&name), Some(&result));
        event("pass", cart, Some(&name), None);
    }
    event("output", cart, None, Some("PASS\n"));
    event(
        "output",
        cart,
        None,
        Some(&format!("ok  \t{cart}\t0.012s\n")),
    );
    event("pass", cart, None, None);
    let ledger = "example.com/shop/ledger";
    event("start", ledger, None, None);
    let balance = "TestBalance";
    event("run", ledger, Some(balance), None);
    event(
        "output",
        ledger,
        Some(balance),
        Some("=== RUN   TestBalance\n"),
    );
    let mismatch = "    ledger_test.go:88: balance mismatch: got 10, want 12\n";
    event("output", ledger, Some(balance), Some(mismatch));
    event(
        "output",
        ledger,
        Some(balance),
        Some("--- FAIL: TestBalance (0.00s)\n"),
    );
    event("fail", ledger, Some(balance), None);
    let refund = "TestRefund";
    event("run", ledger, Some(refund), None);
    for line in [
        "=== RUN   TestRefund",
        "--- FAIL: TestRefund (0.00s)",
        "panic: runtime error: index out of range [3] with length 3 [recovered]",
        "\tpanic: runtime error: index out of range [3] with length 3",
        "",
        "goroutine 7 [running]:",
        "testing.tRunner.func1.2({0x5a1f20, 0xc000018150})",
        "\t/usr/local/go/src/testing/testing.go:1632 +0x230",
        "example.com/shop/ledger.Refund(...)",
        "\t/src/ledger/refund.go:14",
        "example.com/shop/ledger.TestRefund(0xc0000a6820)",
        "\t/src/ledger/refund_test.go:9 +0x1d",
        "created by testing.(*T).Run in goroutine 1",
        "\t/usr/local/go/src/testing/testing.go:1743 +0x390",
    ] {
        event("output", ledger, Some(refund), Some(&format!("{line}\n")));
    }
    event("fail", ledger, Some(refund), None);
    event(
        "output",
        ledger,
        None,
        Some(&format!("FAIL\t{ledger}\t0.005s\n")),
    );
    event("fail", ledger, None, None);

    let mut json_lines = String::new();
    let mut output = String::new();
    let mut carried_by = Vec::new();
    for (i, e) in events.iter().enumerate() {
        json_lines.push_str(&format!("{e}\n"));
        if let Some(text) = e["Output"].as_str() {
            output.push_str(text);
            carried_by.push(i as u64 + 1);
        }
    }
    (json_lines, output, carried_by)
}

#[test]
fn go_test_json_is_read_as_the_output_its_events_carry() {
    // Each event was an item or a template of its own (`{"Time":"<*>","Action":"run",…}`),
    // the failing test's log and the panic's frames apart from them. Read as their
    // output, the events give what `go test -v`'s output gives, at the events' lines.
    let b = Briefly::new();
    let (events, output, carried_by) = go_test_json(300);
    let groups = b.dir.path().join("groups.jsonl");
    let args = ["text", "--emit-groups", groups.to_str().unwrap()];
    let read = b.envelope(&args, events.as_bytes(), CAP);
    let verbose = b.envelope(&["text"], output.as_bytes(), CAP);
    assert_eq!(read["truncated"], verbose["truncated"]);
    // The same items, with each line number the event's that carried the line.
    let at_event = |n: &Value| json!(carried_by[n.as_u64().unwrap() as usize - 1]);
    let mut expected = verbose["items"].as_array().unwrap().clone();
    assert!(expected.len() > 5, "{expected:?}");
    for item in &mut expected {
        for key in ["line", "first_line", "last_line"] {
            if !item[key].is_null() {
                item[key] = at_event(&item[key]);
            }
        }
        let before = item.get_mut("before").and_then(Value::as_array_mut);
        for before in before.into_iter().flatten() {
            before[0] = at_event(&before[0]);
        }
    }
    assert_eq!(read["items"].as_array().unwrap(), &expected);
    let shown = shown_texts(&read);
    assert!(
        shown.contains("balance mismatch: got 10, want 12"),
        "{shown}"
    );
    assert!(!shown.contains("\"Action\""), "{shown}");
    let summary = read["summary"].as_str().unwrap();
    let events_count = events.lines().count();
    assert!(
        summary.starts_with(&format!("{events_count} lines, ")),
        "{summary}"
    );
    assert!(summary.contains("first fatal at line"), "{summary}");
    let bare = events_count - carried_by.len();
    assert_eq!(read["stats"]["go_test_events"], events_count);
    assert_eq!(read["stats"]["bare_events"], bare);
    assert_eq!(read["stats"]["records"], verbose["stats"]["records"]);
    assert_eq!(read["stats"]["severity"], verbose["stats"]["severity"]);
    assert_warns(
        &read,
        &[&format!(
            "{events_count} lines were test events (go test -json), each read and shown as the \
             output line it carries ({bare} with no output, as run and pass, not shown)"
        )],
    );
    // A run cut short (killed at a timeout) ends with an event with no output: the
    // last line shown is the last output's.
    let cut: String = events
        .lines()
        .take_while(|l| !l.contains("\"Output\":\"PASS\\n\""))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(cut.ends_with("\"Action\":\"pass\",\"Package\":\"example.com/shop/cart\",\"Test\":\"TestCart299\",\"Elapsed\":0.01}\n"), "{cut}");
    let envelope = b.envelope(&["text"], cut.as_bytes(), CAP);
    let last = item_at(&envelope, cut.lines().count() as u64 - 1);
    assert_eq!(last["text"], "--- PASS: TestCart299 (0.00s)", "{envelope}");
    // Every line has a row: an event with no output in no group, one with output in its
    // line's group.
    let rows = group_rows(&groups);
    assert_eq!(rows.len(), events_count);
    let run_line = events.lines().position(|l| l.contains("\"run\"")).unwrap();
    assert_eq!(rows[run_line]["group"], Value::Null, "{:?}", rows[run_line]);
    assert!(rows[carried_by[0] as usize - 1]["group"].is_u64());
    assert_eq!(
        rows.iter().filter(|r| r["group"].is_null()).count(),
        bare,
        "only the events with no output are in no group"
    );
    // `go tool test2json` run without `-p` names no package (and writes no `start`,
    // `go test`'s own): its events are read alike.
    let named: String = events
        .lines()
        .filter(|l| !l.contains(r#""Action":"start""#))
        .map(|l| format!("{l}\n"))
        .collect();
    let unnamed = named
        .replace(r#","Package":"example.com/shop/cart""#, "")
        .replace(r#","Package":"example.com/shop/ledger""#, "");
    assert!(!unnamed.contains("Package"), "{unnamed}");
    let [named, unnamed] =
        [named, unnamed].map(|events| b.envelope(&["text"], events.as_bytes(), CAP));
    assert_eq!(unnamed["items"], named["items"]);
    assert_eq!(unnamed["summary"], named["summary"]);
    assert_eq!(unnamed["stats"]["bare_events"], bare - 2);
}

#[test]
fn go_test_json_filtered_to_its_results_says_what_failed_is_in_the_artifact() {
    // `go test -json | jq -c 'select(.Action == "fail")'`: no event carries output, so
    // no record is shown; the summary was "0 records …; returned whole".
    let b = Briefly::new();
    let (events, ..) = go_test_json(20);
    let results: String = events
        .lines()
        .filter(|l| l.contains("\"Action\":\"fail\"") || l.contains("\"Action\":\"pass\""))
        .map(|l| format!("{l}\n"))
        .collect();
    let envelope = b.envelope(&["text"], results.as_bytes(), CAP);
    let summary = envelope["summary"].as_str().unwrap();
    assert_eq!(
        summary,
        "24 lines: go test -json events that carry no output, 3 of them a failure (`fail`, \
         `build-fail`); none shown: the events are whole in the artifact"
    );
    assert!(envelope["artifact_path"].is_string(), "{envelope}");
}

#[test]
fn a_go_test_record_with_its_subtests_events_among_its_lines_keeps_them_in_its_group() {
    // A parent's `--- FAIL:` lists its subtests' results; test2json puts each subtest's
    // `pass` or `fail` event, with no output, after its line: the record's lines are
    // not in a row, and its last line is past its first by more than its lines.
    let b = Briefly::new();
    let event = |action: &str, test: Option<&str>, output: Option<&str>| {
        let mut e = json!({"Action": action, "Package": "a"});
        if let Some(test) = test {
            e["Test"] = json!(test);
        }
        if let Some(output) = output {
            e["Output"] = json!(format!("{output}\n"));
        }
        format!("{e}\n")
    };
    let input = [
        event("run", Some("TestC"), None),
        event("output", Some("TestC"), Some("=== RUN   TestC")),
        event("output", Some("TestC"), Some("--- FAIL: TestC (0.01s)")),
        event(
            "output",
            Some("TestC/a"),
            Some("    --- PASS: TestC/a (0.00s)"),
        ),
        event("pass", Some("TestC/a"), None),
        event(
            "output",
            Some("TestC/b"),
            Some("    --- FAIL: TestC/b (0.00s)"),
        ),
        event("fail", Some("TestC/b"), None),
        event(
            "output",
            Some("TestC/c"),
            Some("    --- PASS: TestC/c (0.00s)"),
        ),
        event("pass", Some("TestC/c"), None),
        event("fail", Some("TestC"), None),
        event("output", None, Some("FAIL\ta\t0.01s")),
    ]
    .concat();
    let groups = b.dir.path().join("groups.jsonl");
    let envelope = b.envelope(
        &["text", "--emit-groups", groups.to_str().unwrap()],
        input.as_bytes(),
        CAP,
    );
    let record = item_at(&envelope, 3);
    assert_eq!(record["more"].as_array().map(Vec::len), Some(3), "{record}");
    let rows = group_rows(&groups);
    assert_eq!(rows.len(), 11);
    let group = |line: usize| rows[line - 1]["group"].clone();
    assert!(group(3).is_u64(), "{rows:?}");
    for line in [4, 6, 8] {
        assert_eq!(group(line), group(3), "line {line}: {rows:?}");
    }
    assert_eq!(group(10), Value::Null, "{rows:?}");
    assert!(group(11).is_u64() && group(11) != group(3), "{rows:?}");
}

#[test]
fn a_json_log_with_an_action_field_is_no_go_test_event() {
    // Only test2json's actions, of a package or with test2json's keys only: an app's own
    // events stay as they are.
    let b = Briefly::new();
    let input = r#"{"Time":"2026-12-06T10:00:00Z","Action":"login","User":"ann"}
{"Time":"2026-12-06T10:00:01Z","Action":"output","Output":"no package\n","User":"ann"}
{"Action":"run","Package":"example.com/x","Test":"TestA"}
"#;
    let envelope = b.envelope(&["text"], input.as_bytes(), CAP);
    assert_eq!(envelope["stats"]["go_test_events"], 1, "{envelope}");
    assert_eq!(envelope["stats"]["bare_events"], 1, "{envelope}");
    let shown = shown_texts(&envelope);
    assert!(shown.contains(r#"\"Action\":\"login\""#), "{shown}");
    // Every line of a passing test is shown, but as its output: the events are whole in
    // the artifact only.
    let passed = [
        r#"{"Action":"output","Package":"a","Test":"TestA","Output":"=== RUN   TestA\n"}"#,
        r#"{"Action":"output","Package":"a","Test":"TestA","Output":"--- PASS: TestA (0.00s)\n"}"#,
        r#"{"Action":"output","Package":"a","Output":"ok  \ta\t0.01s\n"}"#,
    ];
    let envelope = b.envelope(&["text"], passed.join("\n").as_bytes(), CAP);
    assert_eq!(envelope["stats"]["go_test_events"], 3, "{envelope}");
    assert!(envelope["artifact_path"].is_string(), "{envelope}");
    assert!(shown.contains(r#"\"Output\":\"no package\\n\""#), "{shown}");
}

#[test]
fn a_root_cause_too_long_for_the_room_left_ends_the_page_cut() {
    // ASP.NET Core: the request's failure (its SQL Server cause), then the host's crash
    // at shutdown, ranked first as the output's last words. At 4,000 chars the first
    // record did not fit beside the crash and was on the next page only; now it ends
    // this one, its first lines (the exception and its causes) whole.
    let input = r#"fail: Microsoft.AspNetCore.Diagnostics.ExceptionHandlerMiddleware[1]
      An unhandled exception has occurred while executing the request.
      System.InvalidOperationException: An exception has been raised that is likely due to a transient failure. Consider enabling transient error resiliency by adding 'EnableRetryOnFailure' to the 'UseSqlServer' call.
       ---> Microsoft.Data.SqlClient.SqlException (0x80131904): A network-related or instance-specific error occurred while establishing a connection to SQL Server. The server was not found or was not accessible. (provider: TCP Provider, error: 40 - Could not open a connection to SQL Server)
       ---> System.ComponentModel.Win32Exception (111): Connection refused
         at Microsoft.Data.SqlClient.SqlInternalConnection.OnError(SqlException exception, Boolean breakConnection, Action`1 wrapCloseInAction)
         at Microsoft.Data.SqlClient.TdsParser.ThrowExceptionAndWarning(TdsParserStateObject stateObj, Boolean callerHasConnectionLock, Boolean asyncClose)
         at Microsoft.Data.SqlClient.SqlConnection.OpenAsync(CancellationToken cancellationToken)
      ClientConnectionId:00000000-0000-0000-0000-000000000000
      Error Number:-1,State:0,Class:20
         --- End of inner exception stack trace ---
         at Microsoft.EntityFrameworkCore.SqlServer.Storage.Internal.SqlServerExecutionStrategy.ExecuteAsync[TState,TResult](TState state, Func`4 operation, Func`4 verifySucceeded, CancellationToken cancellationToken)
         at Microsoft.EntityFrameworkCore.Query.Internal.SingleQueryingEnumerable`1.AsyncEnumerator.MoveNextAsync()
         at Shop.Api.Repositories.OrderRepository.GetAsync(Int32 id) in /src/Shop.Api/Repositories/OrderRepository.cs:line 42
         at Shop.Api.Controllers.OrdersController.Get(Int32 id) in /src/Shop.Api/Controllers/OrdersController.cs:line 27
         at Microsoft.AspNetCore.Mvc.Infrastructure.ActionMethodExecutor.TaskOfIActionResultExecutor.Execute(ActionContext actionContext, IActionResultTypeMapper mapper, ObjectMethodExecutor executor, Object controller, Object[] arguments)
         at Microsoft.AspNetCore.Mvc.Infrastructure.ControllerActionInvoker.<InvokeActionMethodAsync>g__Awaited|12_0(ControllerActionInvoker invoker, ValueTask`1 actionResultValueTask)
         at Microsoft.AspNetCore.Diagnostics.ExceptionHandlerMiddlewareImpl.<Invoke>g__Awaited|10_0(ExceptionHandlerMiddlewareImpl middleware, HttpContext context, Task task)
info: Microsoft.Hosting.Lifetime[14]
      Now listening on: http://[::]:8080
info: Microsoft.Hosting.Lifetime[0]
      Application started. Press Ctrl+C to shut down.
info: Microsoft.Hosting.Lifetime[0]
      Hosting environment: Production
Unhandled exception. System.AggregateException: One or more hosted services failed to stop. (Object reference not set to an instance of an object.)
 ---> System.NullReferenceException: Object reference not set to an instance of an object.
   at Shop.Api.Workers.OutboxPublisher.StopAsync(CancellationToken cancellationToken) in /src/Shop.Api/Workers/OutboxPublisher.cs:line 88
   at Microsoft.Extensions.Hosting.Internal.Host.StopAsync(CancellationToken cancellationToken)
   --- End of inner exception stack trace ---
   at Microsoft.Extensions.Hosting.Internal.Host.StopAsync(CancellationToken cancellationToken)
   at Microsoft.Extensions.Hosting.HostingAbstractionsHostExtensions.WaitForShutdownAsync(IHost host, CancellationToken token)
   at Microsoft.Extensions.Hosting.HostingAbstractionsHostExtensions.Run(IHost host)
   at Program.<Main>$(String[] args) in /src/Shop.Api/Program.cs:line 61
"#;
    let b = Briefly::new();
    let envelope = b.envelope(
        &["text", "--max-chars", "4000", "--whole-chars", "0"],
        input.as_bytes(),
        4_000,
    );
    let items = envelope["items"].as_array().unwrap();
    assert_eq!(items[0]["line"], 25, "{envelope}");
    let cause = &items[1];
    assert_eq!(cause["line"], 1, "{envelope}");
    assert!(cause["more_cut"].as_u64() > Some(0), "{cause}");
    let more = cause["more"].to_string();
    assert!(
        more.contains("Could not open a connection to SQL Server"),
        "{cause}"
    );
}
