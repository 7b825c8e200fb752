//! `briefly run`: the command's output reduced, its stderr bounded apart, its exit code kept.

mod common;

use common::Briefly;
use serde_json::{json, Value};
use std::time::Duration;

const CAP: usize = 19_660;

fn run(b: &Briefly, args: &[&str]) -> (Value, Option<i32>) {
    let out = b.run(args, b"");
    let printed = String::from_utf8(out.stdout).unwrap();
    let envelope: Value = serde_json::from_str(&printed)
        .unwrap_or_else(|e| panic!("{e}: {printed} {}", String::from_utf8_lossy(&out.stderr)));
    common::check_invariants(&envelope, printed.chars().count(), CAP);
    (envelope, out.status.code())
}

#[test]
fn keeps_the_exit_code_and_reduces_stdout() {
    let b = Briefly::new();
    let (envelope, code) = run(&b, &["run", "--", "sh", "-c", "seq 1 100000; exit 3"]);
    assert_eq!(code, Some(3));
    assert_eq!(envelope["exit_code"], 3);
    assert_eq!(envelope["ok"], false);
    assert_eq!(
        envelope["source"], "text",
        "the generic reducer for a command it does not know"
    );
    assert_eq!(envelope["raw"]["lines"], 100_000);
    let artifact = std::fs::read_to_string(envelope["artifact_path"].as_str().unwrap()).unwrap();
    assert_eq!(artifact.lines().count(), 100_000);
    let sidecar: Value = serde_json::from_slice(
        &std::fs::read(format!(
            "{}.meta.json",
            envelope["artifact_path"].as_str().unwrap()
        ))
        .unwrap(),
    )
    .unwrap();
    assert_eq!(
        sidecar["argv"],
        serde_json::json!(["sh", "-c", "seq 1 100000; exit 3"])
    );
    assert_eq!(sidecar["exit_code"], 3);
    // A page of its output is of a command that failed too.
    let spilled = [
        "run",
        "--reducer",
        "spill",
        "--",
        "sh",
        "-c",
        "seq 1 100000; exit 3",
    ];
    let (first, _) = run(&b, &spilled);
    let (page, code) = run(&b, &["page", first["next_cursor"].as_str().unwrap()]);
    assert_eq!(code, Some(0), "the page itself was read");
    assert_eq!(
        (page["ok"].clone(), page["exit_code"].clone()),
        (false.into(), 3.into()),
        "{page}"
    );

    let (ok, code) = run(&b, &["run", "--", "echo", "hello"]);
    assert_eq!(
        (code, ok["ok"].clone(), ok["exit_code"].clone()),
        (Some(0), Value::Bool(true), Value::from(0))
    );
    assert_eq!(ok["items"][0]["text"], "hello");
    assert_eq!(ok["truncated"], false);
}

#[test]
fn stderr_is_captured_apart_and_bounded() {
    let b = Briefly::new();
    let script = "echo out; for i in $(seq 1 20000); do echo \"warning: noise $i\" >&2; \
                  [ $i = 10000 ] && echo 'error: in the middle' >&2; done; \
                  echo 'fatal: the real cause' >&2";
    let (envelope, _) = run(&b, &["run", "--", "sh", "-c", script]);
    assert_eq!(envelope["items"][0]["text"], "out");
    let stderr = &envelope["stderr"];
    assert_eq!(stderr["truncated"], true);
    assert_eq!(stderr["lines"], 20_002);
    // What looks like an error or a warning in the part cut, one line per template.
    assert_eq!(stderr["error_like_lines"], 20_002);
    let noise = stderr["error_like"][0].clone();
    assert_eq!(noise["count"], 20_000, "{noise}");
    assert!(
        noise["line"].as_u64() > Some(1),
        "shown at the start: {noise}"
    );
    assert_eq!(
        stderr["error_like"][1],
        json!({"line": 10_001, "text": "error: in the middle", "count": 1})
    );
    assert_eq!(stderr["error_like"].as_array().unwrap().len(), 2);
    // Its ends last: a tight budget cuts or drops them before the error lines.
    let keys: Vec<&String> = stderr.as_object().unwrap().keys().collect();
    assert_eq!(
        keys[keys.len() - 3..],
        ["error_like_lines", "error_like", "text"],
        "{stderr}"
    );
    let text = stderr["text"].as_str().unwrap();
    assert!(text.starts_with("warning: noise 1\n"));
    assert!(
        text.trim_end().ends_with("fatal: the real cause"),
        "the end of stderr is kept"
    );
    assert!(text.chars().count() < 5_000);
    let whole = std::fs::read_to_string(stderr["artifact_path"].as_str().unwrap()).unwrap();
    assert_eq!(whole.lines().count(), 20_002, "all of stderr is kept");

    let (small, _) = run(&b, &["run", "--", "sh", "-c", "echo oops >&2"]);
    assert_eq!(small["stderr"]["text"], "oops\n");
    assert_eq!(small["stderr"]["truncated"], false);
    assert_eq!(
        small["stderr"].get("error_like"),
        None,
        "all of it is shown"
    );
    let (none, _) = run(&b, &["run", "--", "true"]);
    assert!(none.get("stderr").is_none());
}

#[test]
fn timeout_kills_the_whole_process_group() {
    let b = Briefly::new();
    let pid_file = b.dir.path().join("grandchild.pid");
    let script = format!(
        "sleep 60 & echo $! > {}; echo started; wait",
        pid_file.display()
    );
    let (envelope, code) = run(&b, &["run", "--timeout", "1s", "--", "sh", "-c", &script]);
    assert_eq!(code, Some(124));
    assert_eq!(envelope["exit_code"], 124);
    assert!(envelope["warnings"]
        .to_string()
        .contains("timed out after 1s"));
    // The summary says why it ended, after its exit code.
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.ends_with("; exit code 124, timed out after 1s"),
        "{summary}"
    );
    let (silent, _) = run(&b, &["run", "--timeout", "1s", "--", "sleep", "5"]);
    assert_eq!(
        silent["summary"],
        "no output (exit code 124, timed out after 1s)"
    );
    assert_eq!(
        envelope["items"][0]["text"], "started",
        "output before the timeout is kept"
    );
    let pid: i32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let alive = std::path::Path::new(&format!("/proc/{pid}")).exists()
        && !std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .unwrap_or_default()
            .contains(") Z ");
    assert!(!alive, "the grandchild {pid} was killed with its group");
    // As GNU timeout reads it, 0 is no timeout.
    let (envelope, code) = run(
        &b,
        &[
            "run",
            "--timeout",
            "0s",
            "--",
            "sh",
            "-c",
            "sleep 0.2; echo done",
        ],
    );
    assert_eq!(code, Some(0), "{envelope}");
    assert_eq!(envelope["items"][0]["text"], "done");
    // Its pages say why it ended too, from the sidecar.
    let spilled = [
        "run",
        "--timeout",
        "1s",
        "--reducer",
        "spill",
        "--",
        "sh",
        "-c",
        "seq 1 100000; sleep 5",
    ];
    let (first, _) = run(&b, &spilled);
    let artifact = first["artifact_path"].as_str().unwrap();
    let sidecar: Value =
        serde_json::from_slice(&std::fs::read(format!("{artifact}.meta.json")).unwrap()).unwrap();
    assert_eq!(sidecar["ended_by"], "timed out after 1s");
    let (page, _) = run(&b, &["page", first["next_cursor"].as_str().unwrap()]);
    let summary = page["summary"].as_str().unwrap();
    assert!(
        summary.ends_with("; exit code 124, timed out after 1s"),
        "{summary}"
    );
}

/// Runs `script` with `bash -c` (`BRIEFLY` names the binary), its exit code that of the
/// first command of its last pipeline.
fn first_of_pipeline(b: &Briefly, script: &str) -> std::process::Output {
    std::process::Command::new("bash")
        .args(["-c", &format!("{script}; exit ${{PIPESTATUS[0]}}")])
        .env("BRIEFLY", env!("CARGO_BIN_EXE_briefly"))
        .env("BRIEFLY_ARTIFACT_DIR", b.artifacts())
        .output()
        .unwrap()
}

#[test]
fn a_closed_stdout_keeps_the_commands_exit_code() {
    let b = Briefly::new();
    let metrics = b.dir.path().join("metrics.jsonl");
    // `true` is gone before the command ends: the envelope's write meets EPIPE.
    let out = first_of_pipeline(
        &b,
        &format!(
            "$BRIEFLY --metrics {} run -- sh -c 'sleep 0.3; exit 3' | true",
            metrics.display()
        ),
    );
    assert_eq!(out.status.code(), Some(3));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The call is still recorded, with nothing shown inline.
    let event: Value = serde_json::from_str(&std::fs::read_to_string(&metrics).unwrap()).unwrap();
    assert_eq!(event["inline_chars"], 0, "{event}");
    // Nor is a closed stderr a panic: what briefly would say there goes unsaid.
    let out = first_of_pipeline(
        &b,
        "(sleep 0.3; $BRIEFLY run -- no-such-command-here 2>&1) | true",
    );
    assert_eq!(out.status.code(), Some(127));
    let out = first_of_pipeline(&b, "(sleep 0.3; $BRIEFLY read /no/such/file 2>&1) | true");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_read_reducer_under_run_keeps_runs_summary_and_pieces_long_lines() {
    let b = Briefly::new();
    let read = |command: &[&str]| -> Value {
        let args = [&["run", "--reducer", "read", "--"][..], command].concat();
        serde_json::from_slice(&b.run(&args, b"").stdout).unwrap()
    };
    // Whatever the reducer, whose own words for no input would say nothing of why.
    let envelope = read(&["no-such-command-here"]);
    assert_eq!(
        envelope["summary"],
        "no output (exit code 127); cannot run \"no-such-command-here\": command not found"
    );
    assert_eq!(envelope["warnings"], json!([]));
    // A line too long for a page comes in pieces, the next one a page away.
    let long_line = "head -c 200000 /dev/zero | tr '\\0' x; echo";
    let envelope = read(&["sh", "-c", long_line]);
    assert_eq!(envelope["items"][0]["line_chars"], 200_000, "{envelope}");
    assert!(envelope["next_cursor"].is_string(), "{envelope}");
    // With output, its page is summed up, and what stderr says after it.
    let envelope = read(&["sh", "-c", "echo out; echo boom >&2; exit 1"]);
    assert_eq!(
        envelope["summary"],
        "line 1 of 1; exit code 1; stderr ends: boom"
    );
}

/// Writes an executable file `name` in `b`'s directory.
fn executable(b: &Briefly, name: &str, content: impl AsRef<[u8]>) -> std::path::PathBuf {
    let path = b.dir.path().join(name);
    std::fs::write(&path, content).unwrap();
    std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    path
}

/// `briefly run -- PATH` is refused: it exits with `code` (when given), and its stderr
/// says `said`.
fn refused(b: &Briefly, path: &std::path::Path, code: Option<i32>, said: &str) {
    let out = b.run(&["run", "--", path.to_str().unwrap()], b"");
    if code.is_some() {
        assert_eq!(out.status.code(), code);
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(said), "{stderr}");
}

#[test]
fn commands_that_cannot_run() {
    let b = Briefly::new();
    let out = b.run(&["run", "--", "no-such-command-here"], b"");
    assert_eq!(out.status.code(), Some(127));
    assert!(String::from_utf8_lossy(&out.stderr).contains("command not found"));
    // The envelope says it too, for a tool that reads stdout alone.
    let envelope: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(envelope["ok"], false);
    assert_eq!(envelope["exit_code"], 127);
    assert_eq!(
        envelope["summary"],
        "no output (exit code 127); cannot run \"no-such-command-here\": command not found"
    );
    // A name too long to run is cut, and the reason stays in the summary. A shell says
    // 127 for a bare name (looked for on PATH, found nowhere), 126 for a path.
    let name = "a".repeat(5000);
    for (program, code) in [(format!("./{name}"), 126), (name, 127)] {
        let out = b.run(&["--max-chars", "1000", "run", "--", &program], b"");
        assert_eq!(out.status.code(), Some(code));
        let envelope: Value = serde_json::from_slice(&out.stdout).unwrap();
        let summary = envelope["summary"].as_str().unwrap();
        assert!(
            summary.ends_with(": File name too long (os error 36)"),
            "{summary}"
        );
    }
    let out = b.run(&["run", "--", "/etc/passwd"], b"");
    assert_eq!(out.status.code(), Some(126));
    let envelope: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(envelope["exit_code"], 126);
    assert!(
        (envelope["summary"].as_str().unwrap())
            .contains("cannot run \"/etc/passwd\": Permission denied (os error 13): it is a file without execute permission"),
        "{envelope}"
    );
    // A directory is refused so too, and said to be one.
    refused(
        &b,
        b.dir.path(),
        Some(126),
        "Permission denied (os error 13): it is a directory\n",
    );
    // An interpreter that is a directory, or a file without execute permission: the
    // kernel says only "Permission denied".
    let dir = b.dir.path().display();
    let text = b.dir.path().join("notes.txt");
    std::fs::write(&text, "x").unwrap();
    for (line, what) in [
        (format!("#!{dir}"), "a directory"),
        (
            format!("#!{} -x", text.display()),
            "a file without execute permission",
        ),
    ] {
        let script = executable(&b, "denied.sh", format!("{line}\necho hi\n"));
        let said = format!("bad interpreter: its first line, {line}, names {what}");
        refused(&b, &script, Some(126), &said);
    }
    // A script whose interpreter is missing is there: not "command not found".
    let script = executable(
        &b,
        "bad-shebang.sh",
        "#!/bin/no-such-interpreter -e\necho hi\n",
    );
    refused(&b, &script, Some(126), "bad interpreter: its first line, #!/bin/no-such-interpreter -e, names a program that does not exist");
    // A missing one with Windows' line ends too is missing, whatever its line ends.
    let script = executable(
        &b,
        "crlf-missing.sh",
        "#!/bin/no-such-interpreter\r\necho hi\r\n",
    );
    refused(&b, &script, None, "names a program that does not exist");
    // Saved with Windows' line ends, its interpreter's name ends in `\r`.
    let script = executable(&b, "crlf.sh", "#!/bin/sh\r\necho hi\r\n");
    refused(&b, &script, Some(126), "bad interpreter: its first line, #!/bin/sh, ends with a carriage return (Windows' line ends)");
    // A binary whose loader is missing is there too (where the loader's path is known).
    let binary = std::fs::read("/bin/true").unwrap();
    let loader = b"/lib64/ld-linux-x86-64.so.2";
    if let Some(at) = binary.windows(loader.len()).position(|w| w == loader) {
        let mut patched = binary.clone();
        patched[at..at + loader.len()].copy_from_slice(b"/nonexistent/ld-linux.so.22");
        let path = executable(&b, "no-loader", patched);
        let said = "its file is there, but not the program that loads it";
        refused(&b, &path, Some(127), said);
        // And a script it is the interpreter of.
        let script = executable(
            &b,
            "run-by-no-loader.sh",
            format!("#!{}\necho hi\n", path.display()),
        );
        refused(
            &b,
            &script,
            Some(126),
            "names a program that is there but cannot start",
        );
    }
    // One with no `#!` line at all runs by the shell, as it would from a shell.
    let script = executable(&b, "no-shebang.sh", "echo hi from \"$1\"\nexit 3\n");
    let out = b.run(&["run", "--", script.to_str().unwrap(), "there"], b"");
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("hi from there"));
    let out = b.run(&["run", "--reducer", "nope", "--", "true"], b"");
    assert_eq!(out.status.code(), Some(2));
    let error = String::from_utf8_lossy(&out.stderr);
    assert!(error.contains("unknown reducer"));
    // Only reducers of a command's output are offered (`read` lists its lines); those of
    // an artifact with a pattern, a metrics file or a command's own rows are not.
    assert!(error.contains("text, diff, pytest"), "{error}");
    assert!(error.contains("read"), "{error}");
    for other in ["grep", "stats", "budget", "context"] {
        assert!(!error.contains(&format!(" {other},")), "{error}");
        assert!(!error.contains(&format!(" {other})")), "{error}");
        let out = b.run(&["run", "--reducer", other, "--", "true"], b"");
        assert_eq!(out.status.code(), Some(2), "{other}");
    }
    let out = b.run(&["run", "--timeout", "whenever", "--", "true"], b"");
    assert_eq!(out.status.code(), Some(2));
    let out = b.run(&["run"], b"");
    assert_eq!(out.status.code(), Some(2), "a command is required");
}

#[test]
fn the_reducer_can_be_named() {
    let b = Briefly::new();
    let (envelope, _) = run(
        &b,
        &["run", "--reducer", "spill", "--", "printf", "a\\nb\\n"],
    );
    assert_eq!(envelope["source"], "spill");
    assert_eq!(envelope["total_items"], 2);
}

#[test]
fn a_command_killed_by_a_signal_says_which() {
    let b = Briefly::new();
    for (signal, number, says, summed_up) in [
        (
            "KILL",
            9,
            "signal 9 (SIGKILL: killed outright, as by the kernel's OOM killer",
            "killed by SIGKILL",
        ),
        (
            "SEGV",
            11,
            "signal 11 (SIGSEGV: a segmentation fault",
            "killed by SIGSEGV",
        ),
        (
            "ABRT",
            6,
            "signal 6 (SIGABRT: it aborted",
            "killed by SIGABRT",
        ),
        ("USR1", 10, "killed by signal 10;", "killed by signal 10"),
    ] {
        let script = format!("echo up; kill -{signal} $$");
        let (envelope, code) = run(&b, &["run", "--", "sh", "-c", &script]);
        assert_eq!(code, Some(128 + number));
        assert_eq!(envelope["exit_code"], 128 + number);
        let summary = envelope["summary"].as_str().unwrap();
        let exit = format!("; exit code {}, {summed_up}", 128 + number);
        assert!(summary.ends_with(&exit), "{summary}");
        let warnings = envelope["warnings"].to_string();
        assert!(warnings.contains(says), "{warnings}");
        assert!(
            warnings.contains(&format!("exit code {} is 128 + {number}", 128 + number)),
            "{warnings}"
        );
    }
    // A program's exit of its own says nothing of the kind, nor does a script's code
    // that no common signal explains.
    for argv in [
        &["python3", "-c", "raise SystemExit(137)"][..],
        &["sh", "-c", "exit 3"],
        &["sh", "-c", "exit 138"],
    ] {
        let (envelope, code) = run(&b, &[&["run", "--"][..], argv].concat());
        assert!(code.is_some_and(|code| code != 0));
        assert!(
            !envelope["warnings"].to_string().contains("killed"),
            "{envelope}"
        );
        assert!(
            !envelope["summary"].to_string().contains("killed"),
            "{envelope}"
        );
    }
}

#[test]
fn a_shells_code_for_a_command_killed_by_a_signal_says_which() {
    let b = Briefly::new();
    // A command the script runs dies of SIGABRT, then the shell exits with its code
    // (it could not hand itself over to the command: more was to follow).
    let script = r#"cd / && sh -c 'kill -ABRT $$' && echo unreachable"#;
    for argv in [
        &["sh", "-c", script][..],
        &["env", "LC_ALL=C", "bash", "-o", "pipefail", "-ec", script],
        &["timeout", "60", "sh", "-c", script],
    ] {
        let (envelope, code) = run(&b, &[&["run", "--"][..], argv].concat());
        assert_eq!(code, Some(134), "{argv:?}");
        let warnings = envelope["warnings"].to_string();
        assert!(
            warnings.contains(
                "the shell's exit code 134 is 128 + 6, as a shell reports a command it ran \
                 that was killed by signal 6 (SIGABRT: it aborted"
            ),
            "{argv:?}: {warnings}"
        );
    }
    // The same code from a program that is not a shell is its own.
    let (envelope, code) = run(&b, &["run", "--", "python3", "-c", "raise SystemExit(134)"]);
    assert_eq!(code, Some(134));
    assert!(
        !envelope["warnings"].to_string().contains("SIGABRT"),
        "{envelope}"
    );
}

#[test]
fn a_signal_to_briefly_reaches_the_command() {
    let b = Briefly::new();
    let child = b
        .command(&["run", "--", "sh", "-c", "echo up; sleep 60"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Send it only once briefly catches SIGTERM (bit 15 of SigCgt), however slow the
    // machine: briefly installs its handlers right after starting the command.
    let catches_term = |pid: u32| {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("SigCgt:"))
            .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
            .is_some_and(|mask| mask & (1 << (libc::SIGTERM - 1)) != 0)
    };
    while !catches_term(child.id()) {
        std::thread::sleep(Duration::from_millis(10));
    }
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    let out = child.wait_with_output().unwrap();
    let envelope: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(envelope["exit_code"], 128 + libc::SIGTERM);
    let warnings = envelope["warnings"].to_string();
    assert!(warnings.contains("passed it to the command"));
    // Its death by the signal briefly passed on is no news.
    assert!(!warnings.contains("was killed by"), "{warnings}");
}

#[test]
fn a_command_that_closes_its_output_early_is_waited_for() {
    let b = Briefly::new();
    let (envelope, code) = run(
        &b,
        &[
            "run",
            "--",
            "sh",
            "-c",
            "echo early; exec >&- 2>&-; sleep 3; exit 5",
        ],
    );
    // Killed when its pipes closed, it would exit 137; waited for, it exits 5.
    assert_eq!(code, Some(5), "its own exit code, not a kill");
    assert_eq!(envelope["items"][0]["text"], "early");
}

#[test]
fn a_grandchild_holding_the_pipe_does_not_outlive_the_timeout() {
    let b = Briefly::new();
    // The grandchild leaves the process group (setsid) but keeps stdout open for 30 s.
    let pid_file = b.dir.path().join("escaped.pid");
    let script = format!(
        "setsid sh -c 'echo $$ > {}; exec sleep 30' & echo hi; sleep 30",
        pid_file.display()
    );
    let (envelope, code) = run(&b, &["run", "--timeout", "1s", "--", "sh", "-c", &script]);
    assert_eq!(code, Some(124));
    assert_eq!(envelope["items"][0]["text"], "hi");
    // briefly returned while the escaped process still held the pipe: it did not wait
    // for the pipe to close.
    let pid: i32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let alive = unsafe { libc::kill(pid, 0) } == 0;
    unsafe {
        libc::kill(pid, libc::SIGKILL);
    }
    assert!(alive, "briefly waited for the escaped process {pid}");
}

#[test]
fn the_summary_names_what_stderr_kept_apart_says_went_wrong() {
    let b = Briefly::new();
    let script = "echo step 1; echo 'warning: disk 91% full' >&2; echo step 2; \
                  ls /no-such-dir-zz; echo 'error: retry failed' >&2; exit 2";
    let (envelope, code) = run(&b, &["run", "--", "sh", "-c", script]);
    assert_eq!(code, Some(2));
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.ends_with(
            "; stderr: 2 errors, 1 warning, the first error at its line 2: ls: cannot access \
             '/no-such-dir-zz': No such file or directory; stderr ends: error: retry failed"
        ),
        "{summary}"
    );
    // The summary of `briefly run --reducer REDUCER -- sh -c SCRIPT`.
    let summary_of = |reducer: &str, script: &str| {
        let (envelope, _) = run(&b, &["run", "--reducer", reducer, "--", "sh", "-c", script]);
        envelope["summary"].as_str().unwrap().to_string()
    };
    let summary = summary_of("text", "echo out; echo 'WARN: slow' >&2");
    assert!(
        summary.ends_with("; stderr: 1 warning, at its line 1: WARN: slow"),
        "{summary}"
    );
    // The first of the worst, named by what it is.
    assert_eq!(
        summary_of(
            "text",
            "echo 'FATAL: disk gone' >&2; echo 'ERROR: x' >&2; exit 1"
        ),
        "no output (exit code 1); stderr: 2 errors, the first fatal error at its line 1: \
         FATAL: disk gone; stderr ends: ERROR: x"
    );
    let summary = summary_of("text", "echo out; echo 'WARN: a' >&2; echo 'WARN: b' >&2");
    assert!(
        summary.ends_with("; stderr: 2 warnings, the first warning at its line 1: WARN: a"),
        "{summary}"
    );
    // Coloured, as a terminal shows it.
    assert_eq!(
        summary_of("text", "printf '\\033[31merror:\\033[0m a\\n' >&2; exit 1"),
        "no output (exit code 1); stderr: 1 error, at its line 1: error: a"
    );
    // Nothing of a stderr with nothing wrong in it.
    let summary = summary_of("text", "echo out; echo progress >&2");
    assert!(!summary.contains("stderr"), "{summary}");
    // A command that failed after its output: its exit code after what the output says.
    assert_eq!(
        summary_of("text", "echo hi; exit 1"),
        "1 line, 1 record in 1 template; 0 errors, 0 warnings; returned whole; exit code 1"
    );
    assert!(!summary_of("text", "echo hi").contains("exit code"));
    // A command that failed says why on stderr, in no words of a level: its last line.
    let summary = summary_of("text", "echo out; echo 'could not reach db' >&2; exit 3");
    assert!(
        summary.ends_with("; stderr ends: could not reach db"),
        "{summary}"
    );
    // One that failed before any output: that, not its reducer's take on no output.
    let script = "echo 'python3: No module named pytest' >&2; echo >&2; exit 1";
    assert_eq!(
        summary_of("pytest", script),
        "no output (exit code 1); stderr ends: python3: No module named pytest"
    );
    // Nor anything on stderr; a progress bar on it in its last state.
    assert_eq!(summary_of("text", "exit 5"), "no output (exit code 5)");
    assert_eq!(
        summary_of("text", "printf 'get 10%%\\rget 100%%\\n' >&2; exit 1"),
        "no output (exit code 1); stderr ends: get 100%"
    );
    // And one redrawn past what is read of a line: as last drawn.
    let script = "(head -c 5000 /dev/zero | tr '\\0' '#'; printf '\\rget 100%%\\n') >&2; exit 1";
    assert_eq!(
        summary_of("text", script),
        "no output (exit code 1); stderr ends: get 100%"
    );
    // A last line longer than what is read of a line: its start, and its length.
    let script = "printf 'first\\n' >&2; head -c 300000 /dev/zero | tr '\\0' y >&2; exit 1";
    let summary = summary_of("text", script);
    let head = "y".repeat(300);
    assert_eq!(
        summary,
        format!("no output (exit code 1); stderr ends: {head}…[a line of 300000 bytes, cut]")
    );
}

#[test]
fn a_process_left_running_does_not_hold_the_result() {
    let b = Briefly::new();
    // The command starts a process in the background (it holds stdout) and exits 0.
    let pid_file = b.dir.path().join("background.pid");
    let script = format!("sleep 60 & echo $! > {}; echo started", pid_file.display());
    let (envelope, code) = run(&b, &["run", "--timeout", "20s", "--", "sh", "-c", &script]);
    let pid: i32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    unsafe {
        libc::kill(pid, libc::SIGKILL);
    }
    // Its own exit code, not a timeout's: the exit was not waited past the grace.
    assert_eq!(code, Some(0), "{envelope}");
    assert_eq!(envelope["exit_code"], 0);
    assert_eq!(envelope["items"][0]["text"], "started");
    let warnings = envelope["warnings"].to_string();
    assert!(
        warnings
            .contains("a process it left running (in the background) still holds its output open"),
        "{warnings}"
    );
    assert!(!warnings.contains("timed out"), "{warnings}");
}

#[test]
fn a_stderr_too_long_to_show_is_kept_whole() {
    let b = Briefly::new();
    // 5,000 bytes: few enough to be held, too many to show.
    let (envelope, _) = run(
        &b,
        &[
            "run",
            "--",
            "sh",
            "-c",
            "head -c 5000 /dev/zero | tr '\\0' e >&2",
        ],
    );
    let stderr = &envelope["stderr"];
    assert_eq!(stderr["truncated"], true);
    let kept = std::fs::read(stderr["artifact_path"].as_str().unwrap()).unwrap();
    assert_eq!(kept, vec![b'e'; 5000]);
    // What the capture cut, its field says, and where the whole is: the output, whole,
    // is no truncated result and needs no artifact.
    assert_eq!(envelope["truncated"], false, "{envelope}");
    let (quiet, _) = run(&b, &["run", "--", "true"]);
    assert!(quiet.get("stderr").is_none());
    assert_eq!(
        b.artifact_files().len(),
        2,
        "one stderr artifact and its sidecar, nothing for the quiet run"
    );
    // A budget too small for stderr's text: the result leaves some of it out, and says
    // so; the output is kept.
    let out = b.run(
        &[
            "--max-chars",
            "1000",
            "run",
            "--",
            "sh",
            "-c",
            "seq 1 100; echo 'Error: connection refused to db01' >&2",
        ],
        b"",
    );
    let small: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(small["truncated"], true, "{small}");
    assert!(small["artifact_path"].is_string(), "{small}");

    // A stderr the capture held whole but the budget cut: its whole is kept then, and
    // the field says where, however little else of it is left.
    let lines = "for i in $(seq 1 11); do echo \"error: step $i of the build failed\" >&2; done";
    let mut expected = String::new();
    for i in 1..=11 {
        expected += &format!("error: step {i} of the build failed\n");
    }
    let cut = b.envelope(
        &["--max-chars", "1000", "run", "--", "sh", "-c", lines],
        b"",
        1000,
    );
    assert_ne!(cut["stderr"]["text"], expected.as_str(), "{cut}");
    assert_ne!(
        cut["stderr"]["truncated"], false,
        "cut by the budget: {cut}"
    );
    let kept = std::fs::read_to_string(cut["stderr"]["artifact_path"].as_str().unwrap()).unwrap();
    assert_eq!(kept, expected);
    // Not kept when the field is shown whole.
    let (whole, _) = run(&b, &["run", "--", "sh", "-c", lines]);
    assert_eq!(whole["stderr"]["text"], expected.as_str());
    assert!(whole["stderr"]["artifact_path"].is_null(), "{whole}");
    // And when it cannot be kept, the result says that part is lost.
    let not_a_dir = b.dir.path().join("a-file");
    std::fs::write(&not_a_dir, "").unwrap();
    let unwritable = not_a_dir.join("sub");
    let at = ["--artifact-dir", unwritable.to_str().unwrap()];
    let lost = b.envelope(
        &[
            &at[..],
            &["--max-chars", "1000", "run", "--", "sh", "-c", lines],
        ]
        .concat(),
        b"",
        1000,
    );
    let warnings = lost["warnings"].to_string();
    assert!(warnings.contains("part of stderr lost"), "{lost}");
}

#[test]
fn stderr_merged_keeps_the_order_it_was_written_in() {
    let b = Briefly::new();
    let script = "echo out1; echo err1 >&2; echo out2; echo err2 >&2";
    let (merged, code) = run(
        &b,
        &[
            "run",
            "--stderr",
            "merge",
            "--reducer",
            "read",
            "--",
            "sh",
            "-c",
            script,
        ],
    );
    assert_eq!(code, Some(0));
    let lines: Vec<&str> = merged["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["text"].as_str().unwrap())
        .collect();
    assert_eq!(lines, ["out1", "err1", "out2", "err2"]);
    assert!(merged.get("stderr").is_none(), "nothing is apart");

    let (apart, _) = run(
        &b,
        &[
            "run",
            "--stderr",
            "apart",
            "--reducer",
            "read",
            "--",
            "sh",
            "-c",
            script,
        ],
    );
    assert_eq!(apart["raw"]["lines"], 2);
    assert_eq!(apart["stderr"]["text"], "err1\nerr2\n");
}

#[test]
fn a_scripts_traceback_and_log_are_read_with_its_output() {
    let b = Briefly::new();
    // Python's logging writes to stderr, and so does its traceback: 3,000 lines of log,
    // then the failure, whose frames say where.
    let script = b.dir.path().join("app.py");
    std::fs::write(
        &script,
        "import logging\n\
         logging.basicConfig(format='%(levelname)s %(message)s', level=logging.INFO)\n\
         print('starting')\n\
         for i in range(3000):\n    logging.info('step %d done', i)\n\
         def load(d):\n    return d['user']\n\
         load({})\n",
    )
    .unwrap();
    let (envelope, code) = run(&b, &["run", "--", "python3", script.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    assert!(envelope.get("stderr").is_none(), "{envelope}");
    let error = &envelope["items"][0];
    assert_eq!(error["severity"], "error", "{envelope}");
    assert_eq!(error["text"], "Traceback (most recent call last):");
    let more = error["more"].as_array().unwrap();
    assert_eq!(more.last().unwrap(), "KeyError: 'user'", "{error}");
    assert!(
        more.iter().any(|l| l.as_str().unwrap().contains("in load")),
        "{error}"
    );
    assert_eq!(envelope["raw"]["lines"], 3001 + 7, "{envelope}");
    // The same run by its `#!` line, by its path.
    let source = std::fs::read_to_string(&script).unwrap();
    let app = executable(&b, "app", format!("#!/usr/bin/env -S python3 -u\n{source}"));
    for wrapped in [
        &["run", "--"][..],
        &["run", "--", "timeout", "-k", "5", "60"],
    ] {
        let (envelope, code) = run(&b, &[wrapped, &[app.to_str().unwrap()]].concat());
        assert_eq!(code, Some(1));
        assert!(envelope.get("stderr").is_none(), "{wrapped:?}: {envelope}");
        assert_eq!(
            envelope["items"][0]["text"],
            "Traceback (most recent call last):"
        );
    }
    // The same through a shell, as agents' tools run commands: its script's command.
    let script = format!("cd '{}' && python3 app.py", b.dir.path().display());
    let (envelope, code) = run(&b, &["run", "--", "sh", "-c", &script]);
    assert_eq!(code, Some(1));
    assert!(envelope.get("stderr").is_none(), "{envelope}");
    assert_eq!(
        envelope["items"][0]["text"],
        "Traceback (most recent call last):"
    );
}

#[test]
fn stderr_goes_to_the_reducers_that_read_it_unless_kept_apart() {
    let b = Briefly::new();
    // cargo prints compile errors on stderr: by default cargo-test reads them.
    let script = "printf 'error[E0308]: mismatched types\\n --> src/lib.rs:2:5\\n' >&2; exit 101";
    let (auto, code) = run(
        &b,
        &["run", "--reducer", "cargo-test", "--", "sh", "-c", script],
    );
    assert_eq!(code, Some(101));
    assert_eq!(auto["items"][0]["code"], "E0308");
    assert_eq!(auto["items"][0]["location"], "src/lib.rs:2:5");

    let (apart, _) = run(
        &b,
        &[
            "run",
            "--stderr",
            "apart",
            "--reducer",
            "cargo-test",
            "--",
            "sh",
            "-c",
            script,
        ],
    );
    assert_eq!(apart["total_items"], 0);
    assert!(apart["stderr"]["text"].as_str().unwrap().contains("E0308"));

    // The generic reducer keeps stderr apart unless asked.
    let (text, _) = run(&b, &["run", "--", "sh", "-c", "echo out; echo err >&2"]);
    assert_eq!(text["raw"]["lines"], 1);
    assert_eq!(text["stderr"]["text"], "err\n");

    // But not a build tool's (here a `make` of our own): its compiler's diagnostic is
    // one record, under the command that printed it.
    let script = "#!/bin/sh\necho 'cc -c a.c'\n\
                  printf 'a.c:4:20: error: y undeclared\\n    4 |  f(y);\\n      |    ^\\n' >&2\n\
                  echo 'make: *** [Makefile:2: all] Error 1' >&2\nexit 2\n";
    let make = executable(&b, "make", script);
    let (build, code) = run(&b, &["run", "--", make.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert_eq!(build["raw"]["lines"], 5, "{build}");
    assert!(build.get("stderr").is_none(), "{build}");
    let error = &build["items"][0];
    assert_eq!(error["line"], 2, "{build}");
    assert_eq!(error["more"].as_array().map(Vec::len), Some(2), "{error}");
    let (apart, _) = run(
        &b,
        &["run", "--stderr", "apart", "--", make.to_str().unwrap()],
    );
    assert_eq!(apart["raw"]["lines"], 1, "{apart}");
}
