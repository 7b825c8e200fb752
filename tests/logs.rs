//! `briefly journal` on journal files made at test time by the real
//! `systemd-journal-remote` and read back by the real `journalctl`; `briefly docker` on
//! json-file logs and `--timestamps` output; `briefly run` adapting both commands.

mod common;

use common::{assert_warns, Briefly};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

const CAP: usize = 19_660;
const JOURNAL_REMOTE: &str = "/lib/systemd/systemd-journal-remote";
/// 2026-11-29T10:00:00Z in microseconds.
const T0: u64 = 1_795_946_400_000_000;

/// One entry in journald's export format.
fn export_entry(out: &mut Vec<u8>, n: u64, unit: &str, priority: u8, message: &[u8]) {
    out.extend_from_slice(
        format!(
            "__REALTIME_TIMESTAMP={}\n__MONOTONIC_TIMESTAMP={}\n_BOOT_ID=0123456789abcdef0123456789abcdef\n_SYSTEMD_UNIT={unit}\nSYSLOG_IDENTIFIER={}\nPRIORITY={priority}\n_PID={}\n",
            T0 + n * 1_000,
            1_000 + n,
            unit.trim_end_matches(".service"),
            100 + n % 7
        )
        .as_bytes(),
    );
    if message.contains(&b'\n') || std::str::from_utf8(message).is_err() {
        out.extend_from_slice(b"MESSAGE\n");
        out.extend_from_slice(&(message.len() as u64).to_le_bytes());
        out.extend_from_slice(message);
        out.push(b'\n');
    } else {
        out.extend_from_slice(b"MESSAGE=");
        out.extend_from_slice(message);
        out.push(b'\n');
    }
    out.push(b'\n');
}

/// A real journal file made by systemd-journal-remote from `export`.
fn journal_file(dir: &Path, export: &[u8]) -> PathBuf {
    let path = dir.join("test.journal");
    let out = common::feed(
        {
            let mut c = Command::new(JOURNAL_REMOTE);
            c.arg(format!("--output={}", path.display())).arg("-");
            c
        },
        export,
    );
    assert!(
        out.status.success(),
        "{JOURNAL_REMOTE} (run .ci/setup): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    path
}

fn journalctl(args: &[&str]) -> Vec<u8> {
    let out = Command::new("journalctl").args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// 50,000 info entries over three units, one `err` in the middle of db.service (with a
/// second line), a warning now and then.
fn big_export() -> Vec<u8> {
    let mut export = Vec::new();
    for n in 0..50_000u64 {
        let unit = ["web.service", "worker.service", "db.service"][(n % 3) as usize];
        if n == 25_000 {
            export_entry(
                &mut export,
                n,
                "db.service",
                3,
                b"checkpoint failed: No space left on device\nwhile writing base/16384/2619",
            );
        } else if n % 5_000 == 1 {
            export_entry(
                &mut export,
                n,
                unit,
                4,
                format!("slow request {n} took {} ms", 900 + n % 50).as_bytes(),
            );
        } else {
            export_entry(
                &mut export,
                n,
                unit,
                6,
                format!("handled request {n} in {} ms", n % 97).as_bytes(),
            );
        }
    }
    export
}

#[test]
fn journal_file_round_trip_with_one_error_among_50000() {
    let b = Briefly::new();
    let export = big_export();
    let file = journal_file(b.dir.path(), &export);
    let path = file.to_str().unwrap();
    let from_file = b.envelope(&["journal", "--file", path], b"", CAP);
    // Given as the input, it is read as --file reads it (it was read as text: binary).
    let as_input = b.envelope(&["journal", path], b"", CAP);
    assert_eq!(as_input["stats"], from_file["stats"]);
    let json = journalctl(&["--file", path, "-o", "json", "--no-pager"]);
    let from_json = b.envelope(&["journal"], &json, CAP);
    let from_export = b.envelope(&["journal"], &export, CAP);
    for (envelope, format) in [
        (&from_file, "json"),
        (&from_json, "json"),
        (&from_export, "export"),
    ] {
        let s = &envelope["stats"];
        assert_eq!(s["format"], format);
        assert_eq!(s["entries"], 50_000);
        assert_eq!(s["levels"]["err"], 1);
        assert_eq!(s["levels"]["warning"], 10);
        assert_eq!(s["levels"]["info"], 49_989);
        assert_eq!(s["groups"]["db.service"]["entries"], 16_667);
        assert_eq!(s["groups"]["db.service"]["errors"], 1);
        let first = &envelope["items"][0];
        assert_eq!(first["priority"], "err", "{envelope}");
        assert_eq!(first["unit"], "db.service");
        assert_eq!(first["time"], "2026-11-29T10:00:25.000000Z");
        assert_eq!(
            first["message"],
            "checkpoint failed: No space left on device"
        );
        assert_eq!(first["more"][0], "while writing base/16384/2619");
        assert!(envelope["summary"]
            .as_str()
            .unwrap()
            .contains("1 err, 10 warning"));
        assert!(envelope["truncated"].as_bool().unwrap());
    }
    // The cursor of the last entry continues the journal itself: nothing after it.
    let last_line = json
        .split(|b| *b == b'\n')
        .rfind(|l| !l.is_empty())
        .unwrap();
    let last: Value = serde_json::from_slice(last_line).unwrap();
    assert_eq!(from_file["source_cursor"], last["__CURSOR"]);
    let cursor = from_file["source_cursor"].as_str().unwrap();
    let after = journalctl(&["--file", path, "--after-cursor", cursor, "-o", "json", "-q"]);
    assert!(after.is_empty(), "{}", String::from_utf8_lossy(&after));
    // Export input has no cursor: none is made up.
    assert!(from_export.get("source_cursor").is_none());
}

const PHRASES: [&str; 7] = [
    "disk check passed",
    "user session opened",
    "cache miss for key",
    "connection reset by peer",
    "job finished",
    "config reloaded",
    "queue drained",
];

#[test]
fn journalctl_json_pretty_and_seq_read_as_its_json() {
    // The same entries as `-o json` writes them, and `-o json-pretty` (over lines) and
    // `-o json-seq` (RS before each): the same counts and levels (json-pretty was read
    // a line an entry, "nothing at warning or above").
    let b = Briefly::new();
    let mut export = Vec::new();
    for n in 0..30u64 {
        let (p, message) = match n {
            7 => (0, "Kernel panic - not syncing: Fatal exception".to_string()),
            20 => (
                3,
                "server process was terminated by signal 9: Killed".to_string(),
            ),
            _ => (6, format!("request {n} done")),
        };
        export_entry(&mut export, n * 1_000, "a.service", p, message.as_bytes());
    }
    let file = journal_file(b.dir.path(), &export);
    let path = file.to_str().unwrap();
    let read = |mode: &str| {
        let output = journalctl(&["--file", path, "-o", mode]);
        let e = b.envelope(&["journal"], &output, CAP);
        (
            e["stats"]["entries"].clone(),
            e["stats"]["levels"].clone(),
            e,
        )
    };
    let (entries, levels, json) = read("json");
    assert_eq!(entries, 30, "{json}");
    assert_eq!(
        levels,
        serde_json::json!({"emerg": 1, "err": 1, "info": 28}),
        "{json}"
    );
    for mode in ["json-pretty", "json-seq"] {
        let (mode_entries, mode_levels, e) = read(mode);
        assert_eq!(
            (&mode_entries, &mode_levels),
            (&entries, &levels),
            "{mode}: {e}"
        );
        assert_eq!(e["summary"], json["summary"], "{mode}");
    }
}

#[test]
fn journal_filters_and_paging() {
    let b = Briefly::new();
    let mut export = Vec::new();
    for n in 0..600u64 {
        let (unit, p) = match n % 4 {
            0 => ("a.service", 6),
            1 => ("b.service", 4),
            2 => ("a.service", 3),
            _ => ("c.service", 7),
        };
        export_entry(
            &mut export,
            n * 1_000,
            unit,
            p,
            format!("{} after {n} ms", PHRASES[(n % 7) as usize]).as_bytes(),
        );
    }
    let file = journal_file(b.dir.path(), &export);
    let path = file.to_str().unwrap();
    let entries = |args: &[&str]| {
        let e = b.envelope(args, b"", CAP);
        (e["stats"]["entries"].as_u64().unwrap(), e)
    };
    // 150 each of err, warning, info, debug; one entry a second from T0.
    assert_eq!(
        entries(&["journal", "--file", path, "--level", "warning"]).0,
        300
    );
    assert_eq!(entries(&["journal", "--file", path, "-p", "3"]).0, 150);
    assert_eq!(
        entries(&["journal", "--file", path, "--unit", "a.service"]).0,
        300
    );
    assert_eq!(
        entries(&[
            "journal",
            "--file",
            path,
            "--since",
            "2026-11-29T10:01:00Z",
            "--until",
            "2026-11-29T10:02:00Z"
        ])
        .0,
        60
    );
    // The same filters on standard input, where briefly does the filtering itself.
    let e = b.envelope(
        &["journal", "--level", "err", "--unit", "a.service"],
        &export,
        CAP,
    );
    assert_eq!(e["stats"]["entries"], 150);
    assert_eq!(e["stats"]["filtered_out"], 450);
    // Export from a file named on the command line.
    let export_path = b.dir.path().join("entries.export");
    std::fs::write(&export_path, &export).unwrap();
    let e = b.envelope(
        &[
            "journal",
            export_path.to_str().unwrap(),
            "--unit",
            "c.service",
        ],
        b"",
        CAP,
    );
    assert_eq!(e["stats"]["format"], "export");
    assert_eq!(e["stats"]["entries"], 150);
    assert_eq!(e["stats"]["levels"]["debug"], 150);
    // Paging a small result goes on where it stopped, and keeps the source cursor.
    let first = b.envelope(
        &["--max-chars", "2000", "journal", "--file", path],
        b"",
        2000,
    );
    let cursor = first["next_cursor"].as_str().expect("more items");
    let page = b.envelope(&["--max-chars", "2000", "page", cursor], b"", 2000);
    assert_eq!(page["source"], "journal");
    assert_eq!(page["item_offset"], first["returned_items"]);
    assert_eq!(page["source_cursor"], first["source_cursor"]);
    assert_ne!(page["items"][0], first["items"][0]);
}

#[test]
fn journal_small_output_comes_back_whole() {
    let b = Briefly::new();
    let mut input = String::new();
    for n in 0..20u64 {
        let (unit, priority, message) = match n {
            12 => ("nginx.service", 3, "upstream timed out".to_string()),
            n if n % 2 == 0 => ("nginx.service", 6, format!("GET /items/{n} 200")),
            n => ("cron.service", 6, format!("job {n} done")),
        };
        let entry = serde_json::json!({"__REALTIME_TIMESTAMP": (1_764_590_000_000_000 + n * 1_000_000).to_string(),
            "_SYSTEMD_UNIT": unit, "PRIORITY": priority.to_string(), "MESSAGE": message});
        input.push_str(&format!("{entry}\n"));
    }
    // `journalctl -n 20`: every entry an item, the error first, then the rest in order.
    let whole = b.envelope(&["journal"], input.as_bytes(), CAP);
    assert_eq!(whole["returned_items"], 20, "{whole}");
    // A pipe named as the input (`<(journalctl -o json)`) is read whole: no byte of it
    // goes to the look for a journal file's signature.
    let piped = b.envelope(&["journal", "/dev/stdin"], input.as_bytes(), CAP);
    assert_eq!(piped["summary"], whole["summary"], "{piped}");
    assert_eq!(piped["items"], whole["items"]);
    // At a budget that holds a few of them, the rest are on the next pages, and said so.
    let paged = b.envelope(&["--max-chars", "1500", "journal"], input.as_bytes(), 1_500);
    assert!(paged["returned_items"].as_u64() < Some(20), "{paged}");
    assert!(
        paged["summary"]
            .as_str()
            .unwrap()
            .contains("; returned whole, over pages (next_cursor)"),
        "{paged}"
    );
    let lines: Vec<u64> = whole["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines[0], 13);
    assert!(lines[1..].is_sorted() && !lines[1..].contains(&13));
    assert!(whole["summary"]
        .as_str()
        .unwrap()
        .contains("; returned whole"));
    let unit = b.envelope(
        &["journal", "--unit", "cron.service"],
        input.as_bytes(),
        CAP,
    );
    assert_eq!(unit["returned_items"], 10, "{unit}");
    assert!(unit["summary"]
        .as_str()
        .unwrap()
        .contains("; the entries kept returned whole"));
    // Folded when asked, or when the messages take more than the limit.
    let folded = b.envelope(&["journal", "--whole-chars", "0"], input.as_bytes(), CAP);
    assert!(folded["returned_items"].as_u64() < Some(20), "{folded}");
    let chars: usize = input
        .lines()
        .map(|l| {
            let entry: Value = serde_json::from_str(l).unwrap();
            entry["MESSAGE"].as_str().unwrap().chars().count() + 1
        })
        .sum::<usize>()
        - 1; // the last message's end is not counted
    for (limit, whole) in [(chars, true), (chars - 1, false)] {
        let limit = limit.to_string();
        let e = b.envelope(&["journal", "--whole-chars", &limit], input.as_bytes(), CAP);
        assert_eq!(e["returned_items"] == 20, whole, "{limit}: {e}");
    }
    let bad = b.run(&["journal", "--whole-chars", "x"], input.as_bytes());
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn journal_bad_input_is_counted_never_fatal() {
    let b = Briefly::new();
    let mut input = Vec::new();
    input.extend_from_slice(br#"{"MESSAGE":"ok","PRIORITY":"6","_SYSTEMD_UNIT":"a","__REALTIME_TIMESTAMP":"1795946400000000"}"#);
    input.extend_from_slice(b"\nthis line is not JSON\n");
    input.extend_from_slice(
        br#"{"MESSAGE":[255,254,65],"PRIORITY":"3","__REALTIME_TIMESTAMP":"yesterday"}"#,
    );
    input.extend_from_slice(b"\n");
    input.extend_from_slice(br#"{"MESSAGE":"truncated","PRIOR"#);
    let e = b.envelope(&["journal"], &input, CAP);
    assert_eq!(e["stats"]["entries_read"], 4);
    assert_eq!(e["stats"]["problems"]["bad_lines"], 2);
    assert_eq!(e["stats"]["problems"]["binary_message"], 1);
    assert_eq!(e["stats"]["problems"]["bad_time"], 3);
    assert_warns(&e, &["2 lines are not JSON", "binary MESSAGE"]);
    assert_eq!(e["items"][0]["message"], "\u{fffd}\u{fffd}A");
    // Bad options and files are errors with a message.
    for args in [
        &["journal", "--level", "loud"][..],
        &["journal", "--since", "the other day"],
        &["journal", "--file", "/nonexistent.journal"],
    ] {
        let out = b.run(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty());
    }
    let not_a_journal = b.dir.path().join("x.journal");
    std::fs::write(&not_a_journal, "not a journal").unwrap();
    let out = b.run(&["journal", "--file", not_a_journal.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("journalctl"));
}

#[test]
fn run_asks_journalctl_for_json() {
    let b = Briefly::new();
    let mut export = Vec::new();
    for n in 0..50u64 {
        export_entry(
            &mut export,
            n,
            "a.service",
            if n == 20 { 2 } else { 6 },
            format!("tick {n}").as_bytes(),
        );
    }
    let file = journal_file(b.dir.path(), &export);
    let e = b.envelope(
        &[
            "run",
            "--",
            "journalctl",
            "--file",
            file.to_str().unwrap(),
            "-p",
            "warning",
        ],
        b"",
        CAP,
    );
    assert_eq!(e["source"], "journal");
    assert_eq!(e["stats"]["format"], "json", "{e}");
    assert_eq!(
        e["stats"]["entries"], 1,
        "journalctl filtered at the source"
    );
    assert_eq!(e["items"][0]["priority"], "crit");
    assert!(e["source_cursor"].is_string());
    assert_eq!(e["exit_code"], 0);
}

fn json_file_line(log: &str, stream: &str, n: u64) -> String {
    let secs = n / 1000;
    format!(
        "{}\n",
        serde_json::json!({
            "log": log,
            "stream": stream,
            "time": format!("2026-11-29T10:{:02}:{:02}.{:06}123Z", secs / 60 % 60, secs % 60, n % 1000 * 1000),
        })
    )
}

#[test]
fn docker_one_error_on_stderr_among_50000() {
    let b = Briefly::new();
    let mut input = String::new();
    for n in 0..50_000u64 {
        if n == 25_000 {
            input.push_str(&json_file_line(
                "Traceback (most recent call last):\n",
                "stderr",
                n,
            ));
            input.push_str(&json_file_line(
                "  File \"/app/db.py\", line 88, in connect\n",
                "stderr",
                n,
            ));
            input.push_str(&json_file_line(
                "ConnectionRefusedError: [Errno 111] Connection refused\n",
                "stderr",
                n,
            ));
        } else {
            let log = format!(
                "{{\"level\":\"info\",\"msg\":\"GET /items/{} 200\",\"ms\":{}}}\n",
                n % 1000,
                n % 37
            );
            input.push_str(&json_file_line(&log, "stdout", n));
        }
    }
    let path = b.dir.path().join("api-json.log");
    std::fs::write(&path, &input).unwrap();
    let e = b.envelope(&["docker", path.to_str().unwrap()], b"", CAP);
    let s = &e["stats"];
    assert_eq!(s["records_read"], 50_000);
    assert_eq!(s["groups"]["stdout"]["entries"], 49_999);
    assert_eq!(s["groups"]["stderr"]["entries"], 1);
    assert_eq!(s["levels"]["info"], 49_999);
    assert_eq!(s["levels"]["error"], 1);
    let first = &e["items"][0];
    assert_eq!(first["stream"], "stderr", "{e}");
    assert_eq!(first["time"], "2026-11-29T10:00:25.000000Z");
    assert_eq!(first["message"], "Traceback (most recent call last):");
    assert_eq!(
        first["more"][1],
        "ConnectionRefusedError: [Errno 111] Connection refused"
    );
    assert!(e["summary"].as_str().unwrap().contains("1 error"));
}

#[test]
fn docker_options() {
    let b = Briefly::new();
    let mut input = String::new();
    for n in 0..100u64 {
        let (log, stream) = match n % 4 {
            0 => (
                "level=error msg=\"upstream timeout\"\n".to_string(),
                "stderr",
            ),
            1 => ("level=warn msg=\"retrying\"\n".to_string(), "stderr"),
            _ => (format!("level=info msg=\"ok {n}\"\n"), "stdout"),
        };
        input.push_str(&json_file_line(&log, stream, n * 1000));
    }
    let entries = |args: &[&str]| {
        let mut all = vec!["docker"];
        all.extend_from_slice(args);
        let e = b.envelope(&all, input.as_bytes(), CAP);
        e["stats"]["entries"].as_u64().unwrap()
    };
    assert_eq!(entries(&[]), 100);
    assert_eq!(entries(&["--stream", "stderr"]), 50);
    assert_eq!(entries(&["--level", "warn"]), 50);
    assert_eq!(entries(&["--level", "error"]), 25);
    assert_eq!(entries(&["--since", "2026-11-29T10:00:30Z"]), 70);
    assert_eq!(entries(&["--until", "2026-11-29T10:00:30Z"]), 30);
    assert_eq!(
        entries(&["--since", "1795946410", "--until", "1795946420"]),
        10
    );
    assert_eq!(entries(&["--tail", "7"]), 7);
    // An age: everything here is long before "10m ago" (the machine's clock is later).
    assert_eq!(entries(&["--since", "10m"]), 0);
    // The last 7 records are short: each is an item, the error first; none folded.
    let tail = b.envelope(&["docker", "--tail", "7"], input.as_bytes(), CAP);
    assert_eq!(tail["returned_items"], 7, "{tail}");
    assert_eq!(tail["items"][0]["level"], "error", "{tail}");
    assert!(tail["summary"]
        .as_str()
        .unwrap()
        .contains("; the records kept returned whole"));
    let paged = b.envelope(
        &["--max-chars", "1500", "docker", "--tail", "7"],
        input.as_bytes(),
        1_500,
    );
    assert!(paged["returned_items"].as_u64() < Some(7), "{paged}");
    assert!(
        paged["summary"]
            .as_str()
            .unwrap()
            .contains("; the records kept returned whole, over pages (next_cursor)"),
        "{paged}"
    );
    let folded = b.envelope(
        &["docker", "--tail", "7", "--whole-chars", "0"],
        input.as_bytes(),
        CAP,
    );
    // Folded into templates, ranked, and each record listed after them.
    let kinds: Vec<&str> = (folded["items"].as_array().unwrap().iter())
        .map(|item| item["kind"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"template"), "{folded}");
    assert!(!folded["summary"].as_str().unwrap().contains("whole"));
    let listed = entry_lines(
        &b,
        &["docker", "--tail", "7", "--whole-chars", "0"],
        input.as_bytes(),
    );
    assert_eq!(listed, (94..=100).collect::<Vec<u64>>());
    for bad in [
        &["docker", "--whole-chars", "-1"][..],
        &["docker", "--tail", "1000000"],
        &["docker", "--stream", "stdin"],
        &["docker", "--level", "loud"],
    ] {
        let out = b.run(bad, input.as_bytes());
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(!out.stderr.is_empty());
    }
}

#[test]
fn docker_timestamps_plain_and_bad_lines() {
    let b = Briefly::new();
    let timestamps = "2026-11-29T10:00:00.000000001Z starting\n2026-11-29T10:00:01.000000001Z {\"level\":\"error\",\"msg\":\"bind failed\",\"error\":\"address in use\"}\n2026-11-29T10:00:02.000000001Z ready\n";
    let e = b.envelope(&["docker"], timestamps.as_bytes(), CAP);
    assert_eq!(e["stats"]["format"], "timestamps");
    assert_eq!(e["items"][0]["message"], "bind failed");
    assert_eq!(e["items"][0]["more"][0], "address in use");
    assert_eq!(e["items"][0]["time"], "2026-11-29T10:00:01.000000Z");
    // Plain `docker logs` output is reduced as `briefly text` reduces it.
    let plain = "starting\nERROR cannot reach db\nready\n";
    let e = b.envelope(&["docker"], plain.as_bytes(), CAP);
    let text = b.envelope(&["text"], plain.as_bytes(), CAP);
    assert_eq!(e["items"], text["items"]);
    assert!(e["summary"]
        .as_str()
        .unwrap()
        .starts_with("plain docker logs"));
    // Bad lines in json-file input are counted and kept.
    let mut bad = json_file_line("first\n", "stdout", 0);
    bad.push_str("{\"log\":\"cut in the mid\n");
    bad.push_str("not json\n");
    bad.push_str(&json_file_line("bad time\n", "stdout", 1).replace("2026-11-29T", "2026-11-29X"));
    bad.push_str(&json_file_line("last\n", "stdout", 2));
    let e = b.envelope(&["docker"], bad.as_bytes(), CAP);
    assert_eq!(e["stats"]["records_read"], 5);
    assert_eq!(e["stats"]["problems"]["bad_lines"], 2);
    assert_eq!(e["stats"]["problems"]["bad_time"], 1);
    assert!(e["warnings"]
        .to_string()
        .contains("2 lines are not json-file records"));
}

#[test]
fn run_asks_docker_for_timestamps() {
    // No docker daemon here: a fake `docker` that prints what `docker logs` prints,
    // with times only when asked for them, the container's stderr on its own stderr.
    let b = Briefly::new();
    let bin = b.dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let fake = bin.join("docker");
    std::fs::write(
        &fake,
        "#!/bin/sh\n[ \"$1\" = logs ] || exit 3\nfor a in \"$@\"; do [ \"$a\" = --timestamps ] && t=1; done\n\
         if [ -n \"$t\" ]; then p='2026-11-29T10:00:00.000000001Z '; fi\n\
         echo \"${p}started\"; echo \"${p}ERROR lost connection\" >&2; echo \"${p}done\"\n",
    )
    .unwrap();
    let mut perms = std::fs::metadata(&fake).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&fake, perms).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let mut command = b.command(&["run", "--", "docker", "logs", "api"]);
    command.env("PATH", path);
    let out = common::feed(command, b"");
    let e: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(e["source"], "docker");
    assert_eq!(e["stats"]["format"], "timestamps", "{e}");
    assert_eq!(e["items"][0]["message"], "ERROR lost connection");
    assert_eq!(e["items"][0]["time"], "2026-11-29T10:00:00.000000Z");
}

#[test]
fn a_window_no_time_is_in_is_refused() {
    let b = Briefly::new();
    // A window no time is in: refused by every reducer that reads times, relative or not.
    for args in [
        &["journal", "--since", "2024-05-02", "--until", "2024-05-01"][..],
        &[
            "docker",
            "--since",
            "2024-05-02T00:00:00Z",
            "--until",
            "2024-05-02T00:00:00Z",
        ],
        &["text", "--since", "1h", "--until", "2h"],
    ] {
        let out = b.run(args, b"x\n");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("is not before --until"),
            "{args:?}: {stderr}"
        );
    }
    let open = b.run(&["text", "--since", "2h", "--until", "1h"], b"x\n");
    assert_eq!(open.status.code(), Some(0));
    // Times are read to the second: a window within one keeps that second's records.
    let input = b"2024-05-01T10:30:00.123Z INFO a\n";
    let within = [
        "text",
        "--whole-chars",
        "0",
        "--since",
        "2024-05-01T10:30:00.1Z",
        "--until",
        "2024-05-01T10:30:00.2Z",
    ];
    let kept = b.run(&within, input);
    assert_eq!(kept.status.code(), Some(0));
    let envelope: serde_json::Value = serde_json::from_slice(&kept.stdout).unwrap();
    assert_eq!(envelope["stats"]["filtered_out"], 0, "{envelope}");
}

/// Journald's export format, with the line each entry starts on.
#[derive(Default)]
struct Export {
    bytes: Vec<u8>,
    lines: u64,
}

impl Export {
    /// Adds an entry ([`export_entry`]); returns its first line.
    fn push(&mut self, n: u64, unit: &str, priority: u8, message: &str) -> u64 {
        let start = self.bytes.len();
        export_entry(&mut self.bytes, n, unit, priority, message.as_bytes());
        let line = self.lines + 1;
        self.lines += self.bytes[start..].iter().filter(|&&b| b == b'\n').count() as u64;
        line
    }
}

/// The lines of the `entry` items on every page of `args` run on `input`, in order.
fn entry_lines(b: &Briefly, args: &[&str], input: &[u8]) -> Vec<u64> {
    let first = b.envelope(args, input, CAP);
    let items = b.all_items(&first, CAP);
    let entries: Vec<&Value> = (items.iter())
        .filter(|item| item["kind"] == "entry")
        .collect();
    let mut lines: Vec<u64> = (entries.iter())
        .map(|item| item["line"].as_u64().unwrap())
        .collect();
    lines.sort_unstable();
    lines.dedup();
    for item in &entries {
        assert!(item["count"].as_u64() >= Some(1), "{item}");
    }
    // Each on one page, once: listed, no ranked item repeats it (the first or last
    // entry, a template seen once).
    assert_eq!(entries.len(), lines.len(), "items for entries");
    lines
}

#[test]
fn the_first_entry_is_the_first_of_either_stream() {
    // A stream's record ends at that stream's next line (or the input's end): stderr's
    // first, at line 1, ends after stdout's at line 2.
    let mut input = json_file_line("worker starting\n", "stderr", 0);
    for n in 1..200 {
        input.push_str(&json_file_line(
            &format!("request {n} served\n"),
            "stdout",
            n,
        ));
    }
    input.push_str(&json_file_line("worker stopping\n", "stderr", 200));
    // The last entry is the last line's.
    input.push_str(&json_file_line("request 201 served\n", "stdout", 201));
    let b = Briefly::new();
    let envelope = b.envelope(&["docker", "--whole-chars", "0"], input.as_bytes(), CAP);
    let entries: Vec<(u64, &str)> = (envelope["items"].as_array().unwrap().iter())
        .filter(|item| item["kind"] == "entry")
        .map(|item| {
            (
                item["line"].as_u64().unwrap(),
                item["message"].as_str().unwrap(),
            )
        })
        .collect();
    let last = (202, "request 201 served");
    // Returned whole, in input order too.
    let whole = b.envelope(&["docker"], input.as_bytes(), CAP);
    let lines: Vec<u64> = (b.all_items(&whole, CAP).iter())
        .map(|item| item["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, (1..=202).collect::<Vec<u64>>());
    assert_eq!(
        entries,
        [(1, "worker starting"), last, (201, "worker stopping")]
    );
}

#[test]
fn compose_containers_lines_stay_apart() {
    // `docker compose logs -t`: a traceback of one container between another's lines.
    let input = "\
worker-1  | 2024-05-14T10:00:03.200000000Z ERROR:celery.worker:Task tasks.run[42] raised
worker-1  | 2024-05-14T10:00:03.250000000Z Traceback (most recent call last):
web-1     | 2024-05-14T10:00:03.300000000Z INFO: GET /api/items/74748 200
worker-1  | 2024-05-14T10:00:03.350000000Z   File \"/app/tasks.py\", line 12, in run
db-1      | 2024-05-14T10:00:03.500000000Z WARNING: slow query 8753 ms
worker-1  | 2024-05-14T10:00:03.550000000Z   File \"/app/do.py\", line 7, in do
web-1     | 2024-05-14T10:00:03.650000000Z INFO: GET /api/items/1 200
";
    let b = Briefly::new();
    // Each container's record gathered apart: the traceback whole.
    let envelope = b.envelope(&["docker"], input.as_bytes(), CAP);
    let groups = &envelope["stats"]["groups"];
    assert_eq!(groups["worker-1"]["entries"], 1, "{groups}");
    let items = envelope["items"].as_array().unwrap();
    assert_eq!(items[0]["stream"], "worker-1");
    assert_eq!(
        items[0]["more"].as_array().unwrap().len(),
        3,
        "{}",
        items[0]
    );
    // Past 32 containers, those after share one record being gathered, which another
    // container's line ends: the lines still go to their own containers.
    let mut many: String = (0..32)
        .map(|n| format!("c{n}-1  | 2024-05-14T10:00:0{}.000000000Z started\n", n % 3))
        .collect();
    many.push_str(input);
    let envelope = b.envelope(&["docker"], many.as_bytes(), CAP);
    let groups = &envelope["stats"]["groups"];
    assert_eq!(groups["web-1"]["entries"], 2, "{groups}");
    for item in b.all_items(&envelope, CAP) {
        if item["stream"] == "db-1" {
            assert_eq!(item["level"], "warn", "{item}");
        }
        let (stream, message) = (
            item["stream"].as_str().unwrap(),
            item["message"].as_str().unwrap(),
        );
        let worker = message.contains("Traceback") || message.contains("File ");
        assert_eq!(
            stream == "worker-1",
            worker || message.contains("celery"),
            "{item}"
        );
    }
}

#[test]
fn a_tracebacks_summary_names_its_exception() {
    let traceback = [
        "Traceback (most recent call last):",
        "  File \"/app/db.py\", line 3, in connect",
        "    conn = psycopg2.connect(dsn)",
        "psycopg2.OperationalError: FATAL: password authentication failed for user \"app\"",
    ];
    let mut input = json_file_line("request served\n", "stdout", 0);
    for (n, line) in traceback.iter().enumerate() {
        input.push_str(&json_file_line(
            &format!("{line}\n"),
            "stderr",
            n as u64 + 1,
        ));
    }
    let mut export = Export::default();
    export.push(0, "app.service", 3, &traceback.join("\n"));
    let b = Briefly::new();
    let exception = "Traceback (most recent call last): … psycopg2.OperationalError: FATAL: \
                     password authentication failed for user \"app\"";
    for envelope in [
        b.envelope(&["docker"], input.as_bytes(), CAP),
        b.envelope(&["journal"], &export.bytes, CAP),
    ] {
        let summary = envelope["summary"].as_str().unwrap();
        assert!(summary.contains(exception), "{summary}");
    }
}

#[test]
fn options_that_keep_nothing_say_what_the_input_held() {
    let b = Briefly::new();
    let mut export = Export::default();
    let mut input = String::new();
    for n in 0..300u64 {
        export.push(n * 1000, "web.service", 6, &format!("request {n} served"));
        input.push_str(&json_file_line(
            &format!("request {n} served\n"),
            "stdout",
            n * 1000,
        ));
    }
    // The counts are of the records kept, and the summary says so: not "0 errors" of a
    // healthy log, but none among the none kept, and what the input held.
    let docker = b.envelope(&["docker", "--stream", "stderr"], input.as_bytes(), CAP);
    assert_eq!(
        docker["summary"],
        "0 of 300 records kept by the options (json-file); 0 errors, 0 warnings among them; \
         300 filtered out (the input: 300 stdout, 2026-11-29T10:00:00.000000Z … \
         2026-11-29T10:04:59.000000Z)"
    );
    assert_eq!(
        docker["stats"]["read_time_span"][1],
        "2026-11-29T10:04:59.000000Z"
    );
    let docker = b.envelope(&["docker", "--tail", "2"], input.as_bytes(), CAP);
    let summary = docker["summary"].as_str().unwrap();
    assert!(
        summary.starts_with("2 of 300 records kept by the options (json-file): 2 stdout"),
        "{summary}"
    );
    assert!(
        summary.contains("0 errors, 0 warnings among them;"),
        "{summary}"
    );
    assert!(!summary.contains("the input:"), "{summary}");

    let journal = b.envelope(&["journal", "--level", "err"], &export.bytes, CAP);
    let summary = journal["summary"].as_str().unwrap();
    assert!(
        summary.starts_with("0 of 300 entries kept by the options from 0 units; nothing at warning or above among them; 300 filtered out (the input: "),
        "{summary}"
    );
    let span = &journal["stats"]["read_time_span"];
    assert!(
        summary.ends_with(&format!(
            "{} … {})",
            span[0].as_str().unwrap(),
            span[1].as_str().unwrap()
        )),
        "{summary}"
    );
    assert_eq!(journal["stats"]["time_span"], Value::Null);
    // A unit that has no entries: those there are, named (a name mistyped).
    let journal = b.envelope(&["journal", "--unit", "web-api"], &export.bytes, CAP);
    let summary = journal["summary"].as_str().unwrap();
    let input = format!(
        "(the input: 300 web.service; {} … ",
        span[0].as_str().unwrap()
    );
    assert!(summary.contains(&input), "{summary}");
    // The five with most entries.
    let mut units = Export::default();
    for (n, unit) in (0..7u64).flat_map(|n| (0..7).filter(move |u| n < 7 - u).map(move |u| (n, u)))
    {
        units.push(n, &format!("u{unit}.service"), 6, "started");
    }
    let journal = b.envelope(&["journal", "--unit", "web"], &units.bytes, CAP);
    let summary = journal["summary"].as_str().unwrap();
    let named = "(the input: 7 u0.service, 6 u1.service, 5 u2.service, 4 u3.service, \
                 3 u4.service, 2 more units; ";
    assert!(summary.contains(named), "{summary}");
}

#[test]
fn every_entry_the_options_keep_is_on_a_page() {
    let b = Briefly::new();
    // Errors of one template, past the two of a template shown, some while the entries
    // kept are few enough to return whole (the first 20), the rest after.
    let mut export = Export::default();
    let mut errors = Vec::new();
    for n in 0..3_000u64 {
        if n < 40 && n % 2 == 0 || n % 20 == 7 {
            let message = format!("db timeout after {n}ms on shard 3");
            errors.push(export.push(n, "db.service", 3, &message));
        } else {
            let message = format!("request {n} served in {}ms", n % 97);
            export.push(n, "web.service", 6, &message);
        }
    }
    let export = export.bytes;
    let level = entry_lines(&b, &["journal", "--level", "err"], &export);
    assert_eq!(level, errors);
    let unit = entry_lines(&b, &["journal", "--unit", "db"], &export);
    assert_eq!(unit, errors);

    // More serious entries than are kept verbatim (500), the warnings the errors after
    // them take the place of are listed too. (Two of each of 250 templates: `aax aay
    // aaz`, `abx aby abz`, …)
    let mut export = Export::default();
    let mut serious = Vec::new();
    for n in 0..820u64 {
        let message = match n {
            0..=299 => "queue served".to_string(),
            300..=799 => {
                let k = ((n - 300) / 2) as u8;
                let word = format!("{}{}", (b'a' + k / 26) as char, (b'a' + k % 26) as char);
                format!("{word}x {word}y {word}z")
            }
            _ => format!("lost block {}", n % 4),
        };
        let priority = [6, 4, 3][(n >= 300) as usize + (n >= 800) as usize];
        let line = export.push(n, "db.service", priority, &message);
        if priority < 6 {
            serious.push(line);
        }
    }
    let warning = entry_lines(&b, &["journal", "--level", "warning"], &export.bytes);
    assert_eq!(warning, serious);

    // Templates seen once, each entry once.
    let word = |n: u64| -> String {
        let letter = |d: u64| char::from(b'a' + (d % 26) as u8);
        format!("{}{}{}", letter(n), letter(n / 26), letter(n / 676))
    };
    let mut export = Export::default();
    let mut input = String::new();
    let mut web = Vec::new();
    let mut stdout = Vec::new();
    for n in 0..1_500u64 {
        let message = format!("{} {} started", word(n), word(n + 7));
        let unit = if n % 3 == 0 {
            "db.service"
        } else {
            "web.service"
        };
        let line = export.push(n, unit, 6, &message);
        let stream = if n % 3 == 0 { "stderr" } else { "stdout" };
        input.push_str(&json_file_line(&format!("{message}\n"), stream, n));
        if n % 3 != 0 {
            web.push(line);
            stdout.push(n + 1);
        }
    }
    assert_eq!(
        entry_lines(&b, &["journal", "--unit", "web"], &export.bytes),
        web
    );
    let docker = ["docker", "--stream", "stdout"];
    assert_eq!(entry_lines(&b, &docker, input.as_bytes()), stdout);

    // docker: a time window, a stream, `--tail`.
    let mut input = String::new();
    let mut stderr = Vec::new();
    for n in 0..1_600u64 {
        let stream = if n % 5 == 2 { "stderr" } else { "stdout" };
        input.push_str(&json_file_line(
            &format!("request {n} failed with {}\n", n % 13),
            stream,
            n,
        ));
        if stream == "stderr" {
            stderr.push(n + 1);
        }
    }
    let docker = ["docker", "--stream", "stderr"];
    assert_eq!(entry_lines(&b, &docker, input.as_bytes()), stderr);
    // The last entry kept is not the last to end: stdout's line 7 ends after stderr's 6,
    // and is left out. Each once still.
    let mut small = String::new();
    for (n, (stream, message)) in [
        ("stdout", "level=warn msg=\"slow request\""),
        ("stderr", "level=error msg=\"db query failed\""),
        ("stdout", "level=warn msg=\"slow request\""),
        ("stderr", "level=error msg=\"db query failed\""),
        ("stderr", "level=error msg=\"db query failed\""),
        ("stderr", "level=error msg=\"db query failed\""),
        ("stdout", "level=warn msg=\"slow request\""),
        ("stdout", "level=info msg=\"request\" status=200"),
    ]
    .into_iter()
    .enumerate()
    {
        small.push_str(&json_file_line(&format!("{message}\n"), stream, n as u64));
    }
    let warn = ["docker", "--level", "warn", "--whole-chars", "0"];
    assert_eq!(
        entry_lines(&b, &warn, small.as_bytes()),
        (1..=7).collect::<Vec<u64>>()
    );
    // Listed in input order, though a stream's record ends at its stream's next line,
    // after the other's that follow it.
    let since = ["docker", "--since", "2026-11-29T10:00:00Z"];
    let first = b.envelope(&since, input.as_bytes(), CAP);
    let lines: Vec<u64> = (b.all_items(&first, CAP).iter())
        .filter(|item| item["kind"] == "entry")
        .map(|item| item["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, (1..=1_600).collect::<Vec<u64>>());
    let tail = entry_lines(&b, &["docker", "--tail", "300"], input.as_bytes());
    assert_eq!(tail, (1_301..=1_600).collect::<Vec<u64>>());
    let lines = entry_lines(
        &b,
        &["docker", "--since", "2026-11-29T10:00:01Z"],
        input.as_bytes(),
    );
    assert_eq!(lines, (1_001..=1_600).collect::<Vec<u64>>());
}

#[test]
fn a_journal_files_long_messages_and_unset_priorities_are_read() {
    let b = Briefly::new();
    let mut export = Vec::new();
    // A traceback of 8 KB: past 4096 bytes, journalctl's JSON has it null without --all.
    let mut traceback = String::from("Traceback (most recent call last):\n");
    for k in 0..150 {
        traceback.push_str(&format!(
            "  File \"/app/m{k}.py\", line {k}, in f{k}\n    c{k}()\n"
        ));
    }
    traceback.push_str("RuntimeError: real cause");
    assert!(traceback.len() > 4096);
    export_entry(&mut export, 0, "a.service", 3, traceback.as_bytes());
    // No PRIORITY, its text an error: journalctl's --priority drops it.
    export.extend_from_slice(
        format!(
            "__REALTIME_TIMESTAMP={}\n_SYSTEMD_UNIT=b.service\nMESSAGE=ERROR: disk quota exceeded\n\n",
            T0 + 2_000_000
        )
        .as_bytes(),
    );
    export_entry(&mut export, 3_000, "a.service", 6, b"started");
    let file = journal_file(b.dir.path(), &export);
    let path = file.to_str().unwrap();
    let e = b.envelope(&["journal", "--file", path, "--level", "err"], b"", CAP);
    let shown = e["items"].to_string();
    assert!(shown.contains("RuntimeError: real cause"), "{e}");
    assert!(shown.contains("ERROR: disk quota exceeded"), "{e}");
    assert_eq!(e["stats"]["entries"], 2, "{e}");
}

#[test]
fn a_long_messages_cut_counts_all_it_cut() {
    // Among other entries, a message of 40,004 characters, shown as one of its
    // template's example: the marker said 3,096, as if the line were 4,096 long.
    let b = Briefly::new();
    let long = format!("{} END", "Y".repeat(40_000));
    let messages = ["starting server", long.as_str(), "interleaved line"];
    let journal: String = (0..3u64)
        .map(|n| {
            let entry = json!({"__REALTIME_TIMESTAMP": (T0 + n * 1_000_000).to_string(),
                "PRIORITY": "6", "_SYSTEMD_UNIT": "a.service", "MESSAGE": messages[n as usize]});
            format!("{entry}\n")
        })
        .collect();
    let docker: String = (0..3u64)
        .map(|n| json_file_line(&format!("{}\n", messages[n as usize]), "stdout", n))
        .collect();
    for (reducer, input) in [("journal", journal), ("docker", docker)] {
        let e = b.envelope(&[reducer], input.as_bytes(), CAP);
        let items = e["items"].as_array().unwrap();
        let shown = items
            .iter()
            .filter_map(|i| i["message"].as_str())
            .find(|t| t.starts_with("YYY"))
            .unwrap_or_else(|| panic!("{reducer}: {e}"));
        let kept = shown.split('…').next().unwrap().chars().count();
        assert!(
            shown.ends_with(&format!("…[cut {} chars]", 40_004 - kept)),
            "{reducer}: {}",
            &shown[shown.len() - 40..]
        );
    }
}
