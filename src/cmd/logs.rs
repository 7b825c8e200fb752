//! `briefly journal` and `briefly docker`: service logs by time and severity.

use super::reduce_input;
use super::text::time_window;
use crate::session::Session;
use anyhow::{anyhow, bail, Context, Result};
use briefly_logs::journal::parse_priority;
use briefly_logs::{DockerOptions, JournalOptions};
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};

/// Bytes of journalctl's standard error kept for an error message.
const MAX_STDERR: usize = 4096;

/// The journal options from the command line, times resolved to seconds since the
/// epoch (so that a cursor pages the same entries later).
pub fn journal_options(
    level: Option<&str>,
    since: Option<&str>,
    until: Option<&str>,
    unit: Option<String>,
    whole_chars: usize,
) -> Result<JournalOptions> {
    let (since, until) = time_window(since, until, super::text::now()?)?;
    Ok(JournalOptions {
        max_priority: level.map(parse_priority).transpose()?,
        since,
        until,
        unit,
        whole_chars,
    })
}

/// The docker options from the command line, times resolved as for the journal.
pub fn docker_options(
    since: Option<&str>,
    until: Option<&str>,
    stream: Option<String>,
    level: Option<&str>,
    tail: Option<usize>,
    whole_chars: usize,
) -> Result<DockerOptions> {
    let (since, until) = time_window(since, until, super::text::now()?)?;
    Ok(DockerOptions {
        since,
        until,
        stream,
        level: level
            .map(str::parse)
            .transpose()
            .map_err(|e: String| anyhow!("--level: {e}"))?,
        tail,
        whole_chars,
    })
}

/// Whether the file at `path` is a binary journal file (systemd's, by its signature).
/// Only a regular file is looked at: a pipe's first bytes (`<(journalctl -o json)`,
/// `/dev/stdin`) would be read here and lost to the reducer.
fn is_journal_file(path: &Path) -> bool {
    let mut signature = [0u8; 8];
    path.is_file()
        && std::fs::File::open(path)
            .and_then(|mut file| file.read_exact(&mut signature))
            .is_ok_and(|()| &signature == b"LPKSHHRH")
}

/// `briefly journal`: `input` (or standard input), or the journal file `journal_file`
/// read through `journalctl --file`, which is given the time filters so that it does
/// that filtering at the source.
pub fn journal(
    session: &Session,
    input: Option<&Path>,
    journal_file: Option<&Path>,
    options: JournalOptions,
) -> Result<i32> {
    // A journal file given as the input is read as `--file` reads it.
    let given = super::named_file(input).filter(|path| is_journal_file(path));
    let Some(path) = journal_file.or(given) else {
        return super::reduce_file(session, "journal", serde_json::to_value(&options)?, input);
    };
    if !path.is_file() {
        bail!("cannot read journal file {}: not a file", path.display());
    }
    let mut argv = vec![
        "journalctl".to_string(),
        "--file".to_string(),
        path.display().to_string(),
        "-o".to_string(),
        "json".to_string(),
        // Else a field over 4096 bytes (a traceback's MESSAGE) is null, lost.
        "--all".to_string(),
        "--no-pager".to_string(),
    ];
    if let Some(since) = options.since {
        argv.extend(["--since".to_string(), format!("@{since}")]);
    }
    if let Some(until) = options.until {
        // journalctl's --until is inclusive, ours is not: the reducer drops the edge.
        argv.extend(["--until".to_string(), format!("@{until}")]);
    }
    // No `--priority`: journalctl's drops the entries without a PRIORITY, which the
    // reducer reads by their text (`ERROR: …`) as it does in JSON given it.
    let mut child = Command::new(&argv[0])
        .args(&argv[1..])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("cannot run {}", argv.join(" ")))?;
    let mut stderr = child.stderr.take().expect("piped");
    // Standard error is read beside standard output, so that neither pipe fills up.
    let errors = std::thread::spawn(move || {
        let mut kept = Vec::new();
        let _ = (&mut stderr).take(MAX_STDERR as u64).read_to_end(&mut kept);
        let _ = std::io::copy(&mut stderr, &mut std::io::sink());
        kept
    });
    let spec = crate::reducers::find("journal").expect("a built-in reducer");
    let options = serde_json::to_value(&options)?;
    let artifacts = session.tee(session.global.id.clone(), argv.clone());
    let config = session.config("journal", options.clone(), artifacts);
    let pipeline = (spec.build)(&options, config).map_err(anyhow::Error::msg)?;
    let mut output = ChildOutput {
        stdout: child.stdout.take().expect("piped"),
        child,
        errors: Some(errors),
        argv,
    };
    reduce_input(session, "journal", pipeline, &mut output)
}

/// A child's standard output that, at its end, fails unless the child succeeded: so a
/// journalctl that cannot read the file is an error, not an empty result.
struct ChildOutput {
    stdout: std::process::ChildStdout,
    child: std::process::Child,
    errors: Option<std::thread::JoinHandle<Vec<u8>>>,
    argv: Vec<String>,
}

impl Read for ChildOutput {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.stdout.read(buf)?;
        if n > 0 || buf.is_empty() {
            return Ok(n);
        }
        let status = self.child.wait()?;
        let errors = self
            .errors
            .take()
            .and_then(|thread| thread.join().ok())
            .unwrap_or_default();
        if status.success() {
            return Ok(0);
        }
        Err(std::io::Error::other(format!(
            "{} failed ({status}): {}",
            self.argv.join(" "),
            String::from_utf8_lossy(&errors).trim()
        )))
    }
}
