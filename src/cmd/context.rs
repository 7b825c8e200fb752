//! `briefly context measure|compact`: a whole message history against the window.

use super::open_input;
use super::rows::{reduce_rows, RowsOptions};
use crate::cli::{ContextCommand, Window};
use crate::session::Session;
use anyhow::{anyhow, bail, Context, Result};
use briefly_context::{check, compact, measure, reserve_for, CompactOptions, Services};
use briefly_core::{replace_lone_surrogates, ArtifactMeta, MetricsEvent, Raw};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The largest history read (bytes): more is refused, not read.
const MAX_HISTORY_BYTES: u64 = 512 << 20;
/// The longest summary kept from a summarizer (characters).
const MAX_SUMMARY_CHARS: usize = 20_000;

pub fn run(session: &Session, command: &ContextCommand) -> Result<i32> {
    // What is taken of the window is what these commands measure, from the history.
    let ignored = session.global.remaining_from.as_ref().map(|_| {
        "--remaining-from is not used: the history given is what is measured against the window"
            .to_string()
    });
    match command {
        ContextCommand::Measure {
            file,
            window,
            largest,
        } => {
            let (messages, mut warnings, raw) = read_history(file.as_deref())?;
            warnings.extend(ignored);
            let tools = read_tools(window)?;
            let context_tokens = session.budget.context_tokens;
            let m = measure(
                &messages,
                &tools,
                context_tokens,
                reserve(window)?,
                &session.tokenizer,
                *largest,
            );
            let roles: Vec<String> = m.by_role.iter().map(|(r, t)| format!("{r} {t}")).collect();
            let summary = format!(
                "{} of {} usable tokens ({:.1}%): {}{}{}",
                m.total,
                m.usable,
                m.utilization * 100.0,
                serde_json::to_value(m.status)?.as_str().unwrap_or_default(),
                if roles.is_empty() { "" } else { "; " },
                roles.join(", ")
            );
            let mut stats = serde_json::to_value(&m)?;
            // The items are the largest messages: not twice.
            if let Some(stats) = stats.as_object_mut() {
                stats.shift_remove("largest");
            }
            let options = RowsOptions {
                summary,
                stats,
                raw,
            };
            // The items are the answer to "which messages are largest", complete as such.
            let rows = m
                .largest
                .iter()
                .map(|(i, role, tokens)| json!({"index": i, "role": role, "tokens": tokens}));
            reduce_rows(session, "context", options, rows, warnings)?.print(session)
        }
        ContextCommand::Compact {
            file,
            window,
            target,
            keep_turns,
            collapse_tokens,
            placeholder_tokens,
            placeholder_age,
            summarizer_cmd,
            summarizer_timeout,
            tools_out,
            report,
        } => {
            if !(0.0..=1.0).contains(target) {
                bail!("--target takes a utilization from 0 to 1, got {target}");
            }
            let (messages, mut warnings, raw) = read_history(file.as_deref())?;
            warnings.extend(ignored);
            let tools = read_tools(window)?;
            let options = CompactOptions {
                context_tokens: session.budget.context_tokens,
                reserve: reserve(window)?,
                target: *target,
                keep_turns: *keep_turns,
                collapse_tokens: *collapse_tokens,
                placeholder_tokens: *placeholder_tokens,
                placeholder_age: *placeholder_age,
                ..CompactOptions::default()
            };
            let mut services = CliServices {
                session,
                summarizer: summarizer_cmd.as_deref(),
                timeout: briefly_core::parse_duration(summarizer_timeout)
                    .map_err(|e| anyhow!("--summarizer-timeout: {e}"))?,
                kept: 0,
                keep_error: None,
            };
            let (messages, tools, mut done) =
                compact(messages, tools, &options, &session.tokenizer, &mut services);
            done.warnings.splice(0..0, warnings);
            let printed = serde_json::to_string(&messages)?;
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(printed.as_bytes())?;
            stdout.write_all(b"\n")?;
            stdout.flush()?;
            // The compaction as one result: the history read, what is printed of it, and
            // whether tool results went to artifacts.
            session.metrics(MetricsEvent {
                event: "tool_result_budget".into(),
                tool: "context compact".into(),
                raw_chars: raw.chars,
                inline_chars: printed.chars().count() as u64,
                persisted: services.kept > 0,
                artifact_error: services.keep_error.take(),
                ..MetricsEvent::default()
            });
            if let Some(path) = tools_out {
                std::fs::write(path, serde_json::to_vec(&tools)?)
                    .with_context(|| format!("writing {}", path.display()))?;
            }
            let report_json = serde_json::to_string(&done)?;
            match report {
                Some(path) => std::fs::write(path, report_json)
                    .with_context(|| format!("writing {}", path.display()))?,
                None => say!("briefly: context compact report: {report_json}"),
            }
            Ok(0)
        }
    }
}

fn reserve(window: &Window) -> Result<f64> {
    let reserve = match (&window.reserve, &window.model_class) {
        (Some(reserve), _) => *reserve,
        (None, Some(class)) => reserve_for(class).ok_or_else(|| {
            anyhow!("unknown --model-class {class:?} (fast, standard, reasoning)")
        })?,
        (None, None) => 0.20,
    };
    if !(0.0..1.0).contains(&reserve) {
        bail!("--reserve takes a share from 0 to 1 (less than 1), got {reserve}");
    }
    Ok(reserve)
}

/// The JSON value `input` holds, read whole (up to [`MAX_HISTORY_BYTES`]), what was read
/// of it, and warnings: UTF-16 (Windows' `>`) is decoded, a UTF-8 byte order mark left
/// out, invalid UTF-8 and a lone surrogate's escape (a string a JavaScript harness cut
/// inside a character) read as U+FFFD rather than failing it all.
fn read_json(input: &mut dyn Read, what: &str) -> Result<(Value, Raw, Vec<String>)> {
    let mut decoded = briefly_core::utf16::DecodingReader::new(input);
    let mut bytes = Vec::new();
    (&mut decoded)
        .take(MAX_HISTORY_BYTES + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("reading {what}"))?;
    if bytes.len() as u64 > MAX_HISTORY_BYTES {
        bail!("{what} is over {} MiB: refused", MAX_HISTORY_BYTES >> 20);
    }
    let mut warnings: Vec<String> = (decoded.warnings().into_iter())
        .map(|warning| format!("{what}: {warning}"))
        .collect();
    if bytes.starts_with(briefly_core::UTF8_BOM) {
        bytes.drain(..briefly_core::UTF8_BOM.len());
    }
    if let Err(e) = std::str::from_utf8(&bytes) {
        warnings.push(format!(
            "{what}: invalid UTF-8 from byte {}, and any after it, read as U+FFFD",
            e.valid_up_to()
        ));
        bytes = String::from_utf8_lossy(&bytes).into_owned().into_bytes();
    }
    let raw = Raw::of(&bytes);
    warnings.extend(replace_lone_surrogates(&mut bytes).map(|first| {
        format!(
            "{what}: a lone surrogate escape (half of a UTF-16 pair) at byte {first}, and any after it, replaced by U+FFFD"
        )
    }));
    let value =
        serde_json::from_slice(&bytes).with_context(|| format!("{what} is not valid JSON"))?;
    Ok((value, raw, warnings))
}

/// The messages, warnings about them, and what was read of the input.
fn read_history(file: Option<&Path>) -> Result<(Vec<Value>, Vec<String>, Raw)> {
    let (history, raw, mut warnings) = read_json(&mut open_input(file)?, "the history")?;
    warnings.extend(check(&history)?);
    let Value::Array(messages) = history else {
        unreachable!("checked")
    };
    Ok((messages, warnings, raw))
}

fn read_tools(window: &Window) -> Result<Vec<Value>> {
    let Some(path) = &window.tools else {
        return Ok(Vec::new());
    };
    match read_json(&mut super::open_file(path)?, "--tools")?.0 {
        Value::Array(tools) => Ok(tools),
        _ => bail!("--tools must be a JSON array of tool schemas"),
    }
}

struct CliServices<'a> {
    session: &'a Session,
    summarizer: Option<&'a str>,
    /// How long the summarizer may run.
    timeout: Duration,
    /// Tool results kept as artifacts, and why the first that could not be was not.
    kept: u64,
    keep_error: Option<String>,
}

impl Services for CliServices<'_> {
    fn keep(&mut self, tool_call_id: &str, content: &[u8]) -> Result<String, String> {
        let kept = self.write_artifact(tool_call_id, content);
        match &kept {
            Ok(_) => self.kept += 1,
            Err(why) => {
                self.keep_error.get_or_insert_with(|| why.clone());
            }
        }
        kept
    }

    fn summarize(&mut self, messages: &[Value]) -> Option<Result<String, String>> {
        let command = self.summarizer?;
        Some(run_summarizer(command, messages, self.timeout))
    }
}

impl CliServices<'_> {
    /// `content` as an artifact named after `tool_call_id`: its path.
    fn write_artifact(&self, tool_call_id: &str, content: &[u8]) -> Result<String, String> {
        let dir = self.session.artifact_dir().map_err(|e| e.to_string())?;
        let mut writer = dir.create(Some(tool_call_id)).map_err(|e| e.to_string())?;
        writer.write(content).map_err(|e| e.to_string())?;
        let meta = ArtifactMeta {
            source: "context".into(),
            id: Some(tool_call_id.to_string()),
            lines: content.iter().filter(|&&b| b == b'\n').count() as u64,
            ..ArtifactMeta::default()
        };
        let saved = writer.save(meta).map_err(|e| e.to_string())?;
        Ok(saved.path.display().to_string())
    }
}

/// Runs the summarizer with the turns as JSON on stdin; its stdout is the summary. What
/// it prints is read bounded (the summary's characters, a few times over; its stderr's
/// first bytes), and it is killed, with what it started, when it runs past `timeout`.
fn run_summarizer(command: &str, messages: &[Value], timeout: Duration) -> Result<String, String> {
    use std::os::unix::process::CommandExt;
    let mut child = Command::new("sh")
        .args(["-c", command])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Its own process group: a timeout kills what it started too.
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot run {command:?}: {e}"))?;
    let input = serde_json::to_vec(messages).map_err(|e| e.to_string())?;
    let mut stdin = child.stdin.take().expect("piped");
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let stdout = bounded_reader(child.stdout.take().expect("piped"), MAX_SUMMARY_CHARS * 4);
    let stderr = bounded_reader(child.stderr.take().expect("piped"), 4_096);
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait().map_err(|e| e.to_string())? {
            Some(status) => break status,
            None if Instant::now() >= deadline => {
                // SAFETY: kill(2) with the child's own process group, which it leads.
                unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
                let _ = child.wait();
                return Err(format!(
                    "{command:?} ran past --summarizer-timeout ({}): killed",
                    humantime::format_duration(timeout)
                ));
            }
            None => std::thread::sleep(Duration::from_millis(20)),
        }
    };
    // What it left running in the background would hold its output open.
    // SAFETY: kill(2) with the process group it led; an error (none left) is no matter.
    unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
    let _ = writer.join();
    let (stdout, printed_chars) = stdout.join().unwrap_or_default();
    let (stderr, _) = stderr.join().unwrap_or_default();
    if !status.success() {
        let stderr = String::from_utf8_lossy(&stderr);
        return Err(format!(
            "{command:?} exited with {status}: {}",
            stderr.trim()
        ));
    }
    let printed = String::from_utf8_lossy(&stdout);
    let summary = printed.trim();
    if summary.is_empty() {
        return Err(format!("{command:?} printed no summary"));
    }
    let kept = match summary.char_indices().nth(MAX_SUMMARY_CHARS) {
        Some((at, _)) => &summary[..at],
        None => summary,
    };
    let kept_chars = kept.chars().count() as u64;
    let cut = if stdout.len() < MAX_SUMMARY_CHARS * 4 {
        // Read whole: the summary's characters past those kept (the whitespace around
        // it, a closing newline say, is no part of it).
        summary.chars().count() as u64 - kept_chars
    } else {
        // What it printed past what was read counts as cut too, not only what was read.
        // Whitespace before the summary was printed too, and is no part of the cut.
        let trimmed_before =
            (printed.chars().count() - printed.trim_start().chars().count()) as u64;
        printed_chars.saturating_sub(trimmed_before + kept_chars)
    };
    Ok(match kept.len() < summary.len() || cut > 0 {
        true => briefly_core::with_cut_marker(kept.trim_end(), cut),
        false => kept.to_string(),
    })
}

/// Reads `pipe` to its end on a thread of its own, keeping its first `max` bytes; with
/// the characters it carried in all (as UTF-8: the bytes that start one).
fn bounded_reader(
    mut pipe: impl Read + Send + 'static,
    max: usize,
) -> std::thread::JoinHandle<(Vec<u8>, u64)> {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut chars = 0u64;
        let mut chunk = [0; 8192];
        loop {
            match pipe.read(&mut chunk) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let room = max.saturating_sub(kept.len()).min(n);
                    kept.extend_from_slice(&chunk[..room]);
                    chars += chunk[..n].iter().filter(|&&b| b & 0xC0 != 0x80).count() as u64;
                }
            }
        }
        (kept, chars)
    })
}
