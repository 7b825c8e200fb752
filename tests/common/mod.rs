//! Helpers for the end-to-end tests: run the built binary in a private artifact directory.
#![allow(dead_code)]

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub struct Briefly {
    pub dir: tempfile::TempDir,
}

impl Briefly {
    pub fn new() -> Self {
        Briefly {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    pub fn artifacts(&self) -> PathBuf {
        self.dir.path().join("artifacts")
    }

    pub fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_briefly"));
        command
            .args(args)
            .env("BRIEFLY_ARTIFACT_DIR", self.artifacts())
            .env_remove("BRIEFLY_CONTEXT_TOKENS")
            .env_remove("BRIEFLY_METRICS");
        command
    }

    /// Runs with `stdin` as standard input.
    pub fn run(&self, args: &[&str], stdin: &[u8]) -> Output {
        feed(self.command(args), stdin)
    }

    /// Runs and parses the envelope, checking the invariants against `cap` characters.
    /// Every item from `first` on, paging its cursors at `cap`; each page says what the
    /// first did (its summary and source).
    pub fn all_items(&self, first: &Value, cap: usize) -> Vec<Value> {
        let mut items = first["items"].as_array().unwrap().clone();
        let mut page = first.clone();
        while let Some(cursor) = page["next_cursor"].as_str().map(String::from) {
            page = self.envelope(&["page", &cursor], b"", cap);
            assert_eq!(page["source"], first["source"]);
            assert_eq!(page["summary"], first["summary"]);
            items.extend(page["items"].as_array().unwrap().iter().cloned());
        }
        items
    }

    pub fn envelope(&self, args: &[&str], stdin: &[u8], cap: usize) -> Value {
        let output = self.run(args, stdin);
        let stdout = String::from_utf8(output.stdout).expect("output is UTF-8");
        assert!(
            output.status.success() || stdout.starts_with('{'),
            "{args:?} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let envelope: Value =
            serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
        // Every character printed, its line's end too.
        check_invariants(&envelope, stdout.chars().count(), cap);
        envelope
    }

    /// The files in the artifact directory, but the stamp of the gc that new artifacts
    /// run now and then.
    pub fn artifact_files(&self) -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(self.artifacts()) else {
            return Vec::new();
        };
        let mut files: Vec<PathBuf> = entries
            .flatten()
            .filter(|e| e.file_name() != ".gc-stamp")
            .map(|e| e.path())
            .collect();
        files.sort();
        files
    }
}

/// Runs `command` with `stdin` written to it (from another thread, so a command that
/// writes before it has read everything cannot deadlock), and collects its output.
pub fn feed(mut command: Command, stdin: &[u8]) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    output
}

/// Asserts that the envelope's warnings mention each of `needles`.
pub fn assert_warns(envelope: &Value, needles: &[&str]) {
    let warnings = envelope["warnings"].to_string();
    for needle in needles {
        assert!(warnings.contains(needle), "{needle:?} not in {warnings}");
    }
}

/// The envelope's invariants.
pub fn check_invariants(envelope: &Value, printed_chars: usize, cap: usize) {
    let items = envelope["items"].as_array().expect("items");
    let returned = envelope["returned_items"].as_u64().unwrap();
    let total = envelope["total_items"].as_u64().unwrap();
    let offset = envelope
        .get("item_offset")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    assert_eq!(
        returned as usize,
        items.len(),
        "returned_items == items.len()"
    );
    assert!(offset + returned <= total, "returned_items <= total_items");
    let more = offset + returned < total;
    let truncated = envelope["truncated"].as_bool().unwrap();
    if more {
        assert!(truncated, "items left out but not truncated");
    }
    let has_artifact = envelope["artifact_path"].is_string();
    let artifact_failed = envelope["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w.as_str().unwrap().starts_with("artifact not written"));
    if !artifact_failed {
        assert_eq!(
            envelope["next_cursor"].is_string(),
            more,
            "next_cursor iff more items"
        );
        if envelope["source"] != "read" && envelope["source"] != "grep" {
            assert_eq!(has_artifact, truncated, "artifact_path iff truncated");
        }
    }
    assert!(
        printed_chars <= cap,
        "printed {printed_chars} chars over the cap of {cap}"
    );
}

/// `n` numbered lines.
pub fn numbered(n: usize) -> String {
    (1..=n).map(|i| format!("line {i}\n")).collect()
}

pub fn sha256_hex(path: &Path) -> String {
    let out = Command::new("sha256sum").arg(path).output().unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_string()
}

/// The Python of the tests' virtualenv (`.ci/setup` makes it; `BRIEFLY_PYTHON` overrides),
/// for tests that run real Python tools (pytest, the MCP client).
pub fn python() -> PathBuf {
    let path = std::env::var_os("BRIEFLY_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/venv/bin/python"));
    assert!(
        path.exists(),
        "{} is missing: run .ci/setup first (it makes the tests' virtualenv)",
        path.display()
    );
    path
}

/// A cursor's JSON (`b1.` and base64url), to look into or edit.
pub fn decode_cursor(cursor: &str) -> Value {
    let body = cursor.strip_prefix("b1.").unwrap();
    let out = Command::new("python3")
        .args(["-c", "import base64,sys; s=sys.argv[1]; print(base64.urlsafe_b64decode(s + '=' * (-len(s) % 4)).decode())", body])
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A cursor made of its JSON again.
pub fn encode_cursor(cursor: &Value) -> String {
    let out = Command::new("python3")
        .args(["-c", "import base64,sys; print(base64.urlsafe_b64encode(sys.argv[1].encode()).decode().rstrip('='))", &cursor.to_string()])
        .output()
        .unwrap();
    format!("b1.{}", String::from_utf8(out.stdout).unwrap().trim())
}
