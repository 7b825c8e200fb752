//! `run`'s capture of a command's standard error, bounded apart from its output.

use briefly_core::{cut_str, ArtifactDir, ArtifactMeta, ArtifactWriter, KeepWhole};
use briefly_template::{Config, GroupId, Miner};
use briefly_text::severity::multiline::{Indented, MultiLine};
use briefly_text::severity::{classify, inspect, Severity};
use serde_json::{json, Value};
use std::collections::{HashMap, VecDeque};

/// The command's standard error, bounded apart from its output: the first and last
/// `keep` characters' worth of bytes, the whole of it teed to an artifact of its own
/// that is kept when anything was cut, and the lines of the part cut that look like
/// errors or warnings beside them.
pub struct StderrCapture {
    keep: usize,
    head: Vec<u8>,
    tail: VecDeque<u8>,
    bytes: u64,
    /// Where the artifact goes, made only once stderr outgrows what is held (most runs
    /// never need one).
    dir: Option<ArtifactDir>,
    id: String,
    artifact: Option<ArtifactWriter>,
    artifact_error: Option<String>,
    /// Its lines that look like errors or warnings, for those the text cuts.
    error_like: ErrorLikeLines,
}

impl StderrCapture {
    pub fn new(keep: usize, dir: Option<ArtifactDir>, id: Option<&str>) -> Self {
        StderrCapture {
            keep,
            head: Vec::new(),
            tail: VecDeque::new(),
            bytes: 0,
            dir,
            id: id.map_or_else(|| "stderr".to_string(), |id| format!("{id}-stderr")),
            artifact: None,
            artifact_error: None,
            error_like: ErrorLikeLines::new(keep),
        }
    }

    /// Starts the artifact with everything held, which is everything so far: it starts
    /// before the tail first drops a byte.
    fn start_artifact(&mut self) {
        if self.artifact.is_some() || self.artifact_error.is_some() {
            return;
        }
        let Some(dir) = &self.dir else {
            self.artifact_error = Some("no artifact directory".into());
            return;
        };
        let (front, back) = self.tail.as_slices();
        match begun_artifact(dir, &self.id, &[&self.head, front, back]) {
            Ok(writer) => self.artifact = Some(writer),
            Err(e) => self.artifact_error = Some(e),
        }
    }

    pub fn push(&mut self, bytes: &[u8]) {
        self.bytes += bytes.len() as u64;
        self.error_like.push(bytes);
        if self.artifact.is_none()
            && self.head.len() + self.tail.len() + bytes.len() > self.keep * 8
        {
            self.start_artifact();
        }
        if let Some(writer) = &mut self.artifact {
            if let Err(e) = writer.write(bytes) {
                self.artifact_error = Some(e.to_string());
                self.artifact = None;
            }
        }
        let room = (self.keep * 4).saturating_sub(self.head.len());
        let (to_head, rest) = bytes.split_at(bytes.len().min(room));
        self.head.extend_from_slice(to_head);
        self.tail.extend(rest);
        while self.tail.len() > self.keep * 4 {
            self.tail.pop_front();
        }
    }

    /// What the summary says of stderr, kept apart from the output it sums up: how many
    /// of its lines look like errors or warnings, and the first of the worst (`stderr: 1
    /// error, at its line 3: cp: cannot stat 'x': No such file or directory`), and when
    /// the command failed (`exit_code` not 0) its last line too, when another error (`…;
    /// stderr ends: ValueError: bad`); when none do and the command failed, its last line
    /// (`stderr ends: python3: No module named pytest`); else nothing. An agent reads the summary first,
    /// and a script's failure is often on stderr alone.
    pub fn summary(&mut self, exit_code: i32) -> Option<String> {
        self.error_like.end_line();
        let Some((severity, line, text)) = self.error_like.worst.as_ref() else {
            return (exit_code != 0)
                .then(|| self.last_line())
                .flatten()
                .map(|last| format!("stderr ends: {last}"));
        };
        let errors = self.error_like.errors;
        let warnings = self.error_like.count - errors;
        let counts = match (errors, warnings) {
            (0, n) => briefly_core::counted(n, "warning", "warnings"),
            (n, 0) => briefly_core::counted(n, "error", "errors"),
            (e, w) => format!(
                "{}, {}",
                briefly_core::counted(e, "error", "errors"),
                briefly_core::counted(w, "warning", "warnings")
            ),
        };
        let first = match (errors, warnings) {
            (1, 0) | (0, 1) => "at".to_string(),
            _ => {
                let what = match severity {
                    Severity::Fatal => "fatal error",
                    Severity::Error => "error",
                    _ => "warning",
                };
                format!("the first {what} at")
            }
        };
        let mut summary = format!("stderr: {counts}, {first} its line {line}: {text}");
        // A failed command's last words, when an error (an uncaught exception's line
        // under its traceback), are often not its first error.
        if exit_code != 0 {
            let serious = |last: &String| classify(last).is_some_and(|s| s >= Severity::Error);
            if let Some(last) = (self.last_line()).filter(|last| last != text && serious(last)) {
                summary.push_str(&format!("; stderr ends: {last}"));
            }
        }
        Some(summary)
    }

    /// The last line of stderr that is not blank, as a terminal showed it (a progress
    /// bar in its last state, or a worse one it drew over), cut to 300 characters.
    fn last_line(&self) -> Option<String> {
        let (last, bytes) = (self.error_like.last.as_str(), self.error_like.last_bytes);
        let shown = briefly_text::drawn_state(last).unwrap_or(last);
        if shown.is_empty() {
            return None;
        }
        // Longer than what was read of it: its head, and its length.
        if bytes > SCANNED_BYTES as u64 {
            return Some(briefly_core::cut_line_head(shown, 300, bytes));
        }
        Some(cut_str(shown, 300).into_owned())
    }

    /// The end of stderr as held: all of it when none of it was dropped (and `true`),
    /// else the tail (the tail fills only once the head is full, so a stderr of a few
    /// times `keep` is mostly head).
    fn held_end(&self) -> (bool, Vec<u8>) {
        let held_all = (self.head.len() + self.tail.len()) as u64 == self.bytes;
        let (front, back) = self.tail.as_slices();
        let end = match held_all {
            true => [&self.head[..], front, back].concat(),
            false => [front, back].concat(),
        };
        (held_all, end)
    }

    /// The `stderr` field; a warning when what was cut could not be kept; for a stderr
    /// held whole, what keeps it whole should the budget cut the field.
    pub fn finish(mut self, argv: &[String], exit_code: i32) -> StderrField {
        if self.bytes == 0 {
            return StderrField::default();
        }
        // What the shown end is taken from.
        let (held_all, tail_bytes) = self.held_end();
        let head = String::from_utf8_lossy(&self.head).into_owned();
        let tail = String::from_utf8_lossy(&tail_bytes).into_owned();
        let whole = held_all && tail.chars().count() <= 2 * self.keep;
        if !whole {
            // Cut but held whole (too long to show, never evicted): keep it now.
            self.start_artifact();
        }
        let text = if whole {
            tail
        } else {
            let first: String = head.chars().take(self.keep).collect();
            let tail_chars = tail.chars().count();
            let last: String = tail
                .chars()
                .skip(tail_chars.saturating_sub(self.keep))
                .collect();
            format!(
                "{first}\n…[cut: {} bytes of stderr in all]…\n{last}",
                self.bytes
            )
        };
        let meta = ArtifactMeta {
            source: "stderr".into(),
            argv: argv.to_vec(),
            exit_code: Some(exit_code),
            lines: self.error_like.newlines(),
            ..Default::default()
        };
        let mut warning = None;
        let mut artifact_path = None;
        let mut keep = None;
        if whole {
            let (dir, id, bytes) = (self.dir.take(), self.id.clone(), tail_bytes.clone());
            let meta = meta.clone();
            keep = Some(Box::new(move || {
                let dir = dir.ok_or_else(|| "no artifact directory".to_string())?;
                let saved = begun_artifact(&dir, &id, &[&bytes])?
                    .save(meta)
                    .map_err(|e| e.to_string())?;
                Ok(saved.path.display().to_string())
            }) as KeepWhole);
        } else {
            match self.artifact.map(|w| w.save(meta)) {
                Some(Ok(saved)) => artifact_path = Some(saved.path.display().to_string()),
                Some(Err(e)) => {
                    warning = Some(format!(
                        "stderr artifact not written ({e}): the cut part of stderr is lost"
                    ))
                }
                None => {
                    warning = Some(format!(
                        "stderr artifact not written ({}): the cut part of stderr is lost",
                        self.artifact_error.unwrap_or_default()
                    ))
                }
            }
        }
        let lines = self.error_like.newlines();
        // Colour codes say nothing to a model: shown stripped (an artifact, or the
        // command run again, has them), and said so.
        let stripped = briefly_core::strip_ansi(&text, None);
        let ansi = stripped.is_some();
        let text = stripped.unwrap_or(text);
        // Its ends last: under a tight budget the last members go first (as the stats'
        // do, see `Reducer::Stats`), and the error lines of the part cut say more.
        let mut value = json!({"bytes": self.bytes, "lines": lines, "truncated": !whole, "artifact_path": artifact_path});
        if ansi {
            value["ansi_stripped"] = true.into();
        }
        if !whole {
            // The shown end is the last `keep` characters.
            let shown_end_bytes = char_starts_from_end(&tail_bytes, self.keep);
            let (count, cut) = self.error_like.finish(self.bytes - shown_end_bytes);
            value["error_like_lines"] = count.into();
            value["error_like"] = cut.into();
        }
        value["text"] = text.into();
        StderrField {
            value: Some(value),
            warning,
            keep,
        }
    }
}

/// An artifact of stderr in `dir`, named after `id`, begun with `parts`.
fn begun_artifact(dir: &ArtifactDir, id: &str, parts: &[&[u8]]) -> Result<ArtifactWriter, String> {
    let mut writer = dir.create(Some(id)).map_err(|e| e.to_string())?;
    for part in parts {
        writer.write(part).map_err(|e| e.to_string())?;
    }
    Ok(writer)
}

/// What [`StderrCapture::finish`] gives the envelope.
#[derive(Default)]
pub struct StderrField {
    /// The `stderr` field; none when stderr was empty.
    pub value: Option<Value>,
    /// Why what was cut could not be kept.
    pub warning: Option<String>,
    /// Keeps a stderr held whole should the budget cut its field.
    pub keep: Option<KeepWhole>,
}

/// Lines that look like errors or warnings shown at most of the part of stderr cut.
const MAX_ERROR_LIKE: usize = 20;
/// Characters kept of each.
const ERROR_LIKE_CHARS: usize = 300;
/// Bytes of a line read to judge it: its level, its exception's name or a signal come
/// first.
const SCANNED_BYTES: usize = 4096;
/// Templates told apart among them; lines past the cap are one more, shown by its first.
const ERROR_LIKE_TEMPLATES: usize = 256;
/// Lines of its record shown under one of them (a traceback's frames, a Go runtime's
/// first goroutine), each cut to [`ERROR_LIKE_CHARS`].
const MAX_RECORD_LINES: usize = 20;

/// The lines of stderr that look like errors or warnings (by the severity engine every
/// reducer shares), found as they pass and folded by the template engine: for each
/// template, its first line the field's text does not show and how many lines share
/// it, with the lines of the record it opens (as the text reducer reads records: a
/// traceback, a panic's goroutines). Memory is bounded: one line's first
/// [`SCANNED_BYTES`] (and as many past its last carriage return, and of the last line not
/// blank), and a line and [`MAX_RECORD_LINES`] more for each of at most
/// [`ERROR_LIKE_TEMPLATES`] templates.
struct ErrorLikeLines {
    /// Characters the text shows from the start: a line that ends within them is shown.
    keep: usize,
    /// Characters seen, until the shown start is passed.
    chars: usize,
    /// The byte offset where the shown start ends, once known.
    head_end: Option<u64>,
    /// Bytes seen.
    offset: u64,
    /// The line being read (its first bytes), its number and where it starts.
    line: Vec<u8>,
    number: u64,
    start: u64,
    miner: Miner,
    /// By the id the miner gave and whether worse than a warning: what was found
    /// (errors and warnings are apart though a template holds both).
    found: HashMap<(GroupId, bool), Found>,
    /// Newlines read.
    newlines: u64,
    /// Lines that look like errors or warnings in all of stderr.
    count: u64,
    /// Of them, the errors (or worse).
    errors: u64,
    /// The first line of the worst severity found: its severity, number and text.
    worst: Option<(Severity, u64, String)>,
    /// The last line that is not blank, without colour codes (its first
    /// [`SCANNED_BYTES`], or as last redrawn), and its length in bytes.
    last: String,
    last_bytes: u64,
    /// The line being read past its last carriage return, when it has one (its first
    /// [`SCANNED_BYTES`]).
    redrawn: Option<Vec<u8>>,
    /// The record the last line began or continued, and its lines after the first.
    record: MultiLine,
    record_lines: usize,
    /// The key in `found` whose first line cut began that record: its lines go under it.
    gathering: Option<(GroupId, bool)>,
}

/// The errors, or the warnings, of one template.
#[derive(Default)]
struct Found {
    count: u64,
    /// The first not shown from the start.
    first_cut: Option<Cut>,
}

/// A line that looks like an error or a warning, not shown from the start.
struct Cut {
    /// Its line's number.
    number: u64,
    /// Where it starts, in bytes.
    start: u64,
    /// Its text, cut to [`ERROR_LIKE_CHARS`].
    text: String,
    /// The lines of the record it begins, after it.
    more: Vec<String>,
}

impl ErrorLikeLines {
    fn new(keep: usize) -> Self {
        ErrorLikeLines {
            keep,
            chars: 0,
            head_end: None,
            offset: 0,
            line: Vec::new(),
            number: 1,
            start: 0,
            miner: Miner::new(Config {
                max_templates: ERROR_LIKE_TEMPLATES,
                ..Config::default()
            }),
            found: HashMap::new(),
            newlines: 0,
            count: 0,
            errors: 0,
            worst: None,
            last: String::new(),
            last_bytes: 0,
            redrawn: None,
            record: MultiLine::new(Indented::ByRule),
            record_lines: 0,
            gathering: None,
        }
    }

    fn push(&mut self, bytes: &[u8]) {
        if self.head_end.is_none() {
            for (i, &b) in bytes.iter().enumerate() {
                self.chars += usize::from(is_char_start(b));
                if self.chars > self.keep {
                    self.head_end = Some(self.offset + i as u64);
                    break;
                }
            }
        }
        let mut from = 0;
        for end in memchr::memchr_iter(b'\n', bytes) {
            self.take(&bytes[from..end]);
            self.line_ends(self.offset + end as u64);
            self.newlines += 1;
            from = end + 1;
        }
        self.take(&bytes[from..]);
        self.offset += bytes.len() as u64;
    }

    /// The newlines read so far: stderr's lines, as `wc -l` counts them.
    fn newlines(&self) -> u64 {
        self.newlines
    }

    fn take(&mut self, bytes: &[u8]) {
        let room = SCANNED_BYTES.saturating_sub(self.line.len());
        self.line.extend_from_slice(&bytes[..bytes.len().min(room)]);
        // The line as last redrawn, past a carriage return (a progress bar's last state).
        let mut bytes = bytes;
        if let Some(cr) = memchr::memrchr(b'\r', bytes) {
            self.redrawn = Some(Vec::new());
            bytes = &bytes[cr + 1..];
        }
        if let Some(redrawn) = &mut self.redrawn {
            let room = SCANNED_BYTES.saturating_sub(redrawn.len());
            redrawn.extend_from_slice(&bytes[..bytes.len().min(room)]);
        }
    }

    /// The line being read ends at byte `end` (its newline, or the end of stderr).
    fn line_ends(&mut self, end: u64) {
        let text = String::from_utf8_lossy(&self.line);
        let text = text.strip_suffix('\r').unwrap_or(&text);
        // Read as a terminal shows it: a compiler's coloured `error:` is an error.
        let stripped = briefly_core::strip_ansi(text, None);
        let text = stripped.as_deref().unwrap_or(text);
        // Redrawn over with carriage returns (`Rebasing (1/1)\rerror: could not apply …`):
        // as last drawn, or a worse state it drew over.
        let text = briefly_text::drawn_state(text).unwrap_or(text);
        if !text.trim().is_empty() {
            self.last.clear();
            self.last_bytes = end - self.start;
            // A line longer than what is read of it, redrawn past that: as last drawn.
            let redrawn = (self.redrawn.take())
                .filter(|_| self.last_bytes > SCANNED_BYTES as u64)
                .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
                .map(|text| briefly_core::strip_ansi(&text, None).unwrap_or(text));
            match redrawn.as_deref().map(str::trim) {
                Some(drawn) if !drawn.is_empty() => {
                    self.last.push_str(drawn);
                    self.last_bytes = drawn.len() as u64;
                }
                _ => self.last.push_str(text.trim()),
            }
        }
        let inspection = inspect(text);
        // The record the line continues, or begins.
        let continues =
            self.number > 1 && self.record_lines < MAX_RECORD_LINES && self.record.continues(text);
        if continues {
            self.record
                .push(text, inspection.severity, inspection.opens);
            self.record_lines += 1;
            let gathered = (self.gathering)
                .and_then(|key| self.found.get_mut(&key))
                .and_then(|found| found.first_cut.as_mut());
            if let Some(cut) = gathered {
                cut.more.push(cut_str(text, ERROR_LIKE_CHARS).into_owned());
            }
        } else {
            self.record
                .start(text, inspection.severity, inspection.opens);
            self.record_lines = 0;
            self.gathering = None;
        }
        let severity = inspection.severity.filter(|s| *s >= Severity::Warn);
        if let Some(severity) = severity {
            self.count += 1;
            self.errors += u64::from(severity > Severity::Warn);
            if self
                .worst
                .as_ref()
                .is_none_or(|(worst, ..)| severity > *worst)
            {
                let text = cut_str(text, ERROR_LIKE_CHARS).into_owned();
                self.worst = Some((severity, self.number, text));
            }
            let key = (self.miner.add(text), severity > Severity::Warn);
            let found = self.found.entry(key).or_default();
            found.count += 1;
            let shown = self.head_end.is_none_or(|head_end| end <= head_end);
            // A line of a record gathered is shown under its first.
            let gathered = continues && self.gathering.is_some();
            if !shown && !gathered && found.first_cut.is_none() {
                found.first_cut = Some(Cut {
                    number: self.number,
                    start: self.start,
                    text: cut_str(text, ERROR_LIKE_CHARS).into_owned(),
                    more: Vec::new(),
                });
                self.gathering = Some(key);
            }
        }
        self.line.clear();
        self.redrawn = None;
        self.number += 1;
        self.start = end + 1;
    }

    /// Reads the last line, when it has no newline.
    fn end_line(&mut self) {
        if self.start < self.offset {
            self.line_ends(self.offset);
        }
    }

    /// How many lines of stderr look like errors or warnings, and for the templates (the
    /// errors and the warnings of each apart) of those in the part cut (before byte
    /// `tail_start`, where the shown end starts) the first of them: errors first, then
    /// warnings, at most [`MAX_ERROR_LIKE`] and `keep` characters in all, in the order of
    /// their lines.
    fn finish(mut self, tail_start: u64) -> (u64, Vec<Value>) {
        self.end_line();
        // Templates merged since their ids were given are one.
        let mut templates: HashMap<(GroupId, bool), Found> = HashMap::new();
        for ((id, error), found) in self.found {
            let template = templates
                .entry((self.miner.resolve(id), error))
                .or_default();
            template.count += found.count;
            if let Some(cut) = found.first_cut {
                if template
                    .first_cut
                    .as_ref()
                    .is_none_or(|first| cut.number < first.number)
                {
                    template.first_cut = Some(cut);
                }
            }
        }
        let mut cut: Vec<(bool, Cut, u64)> = templates
            .into_iter()
            .filter_map(|((_, error), t)| {
                let cut = t.first_cut?;
                (cut.start < tail_start).then_some((error, cut, t.count))
            })
            .collect();
        cut.sort_by_key(|(error, cut, _)| (!error, cut.number));
        let mut chars = 0;
        let mut shown = Vec::new();
        for (_, mut cut, count) in cut {
            // A record's blank last lines (before the next goroutine's) say nothing.
            while cut.more.last().is_some_and(|line| line.trim().is_empty()) {
                cut.more.pop();
            }
            chars += cut.text.chars().count();
            chars += cut
                .more
                .iter()
                .map(|line| line.chars().count())
                .sum::<usize>();
            if shown.len() == MAX_ERROR_LIKE || (chars > self.keep && !shown.is_empty()) {
                break;
            }
            shown.push((cut, count));
        }
        shown.sort_by_key(|(cut, _)| cut.number);
        let shown = shown
            .into_iter()
            .map(|(cut, count)| {
                let mut item = json!({"line": cut.number, "text": cut.text, "count": count});
                if !cut.more.is_empty() {
                    item["more"] = cut.more.into();
                }
                item
            })
            .collect();
        (self.count, shown)
    }
}

/// Whether byte `b` starts a character (is no UTF-8 continuation byte).
fn is_char_start(b: u8) -> bool {
    b & 0xC0 != 0x80
}

/// How many of `bytes`' last bytes hold its last `chars` characters.
fn char_starts_from_end(bytes: &[u8], chars: usize) -> u64 {
    let mut seen = 0;
    for (i, &b) in bytes.iter().enumerate().rev() {
        seen += usize::from(is_char_start(b));
        if seen == chars {
            return (bytes.len() - i) as u64;
        }
    }
    bytes.len() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `ErrorLikeLines` lists of `input` pushed in pieces of `piece` bytes, the text
    /// showing its first `keep` characters and its last from byte `tail_start`.
    fn listed(input: &str, keep: usize, piece: usize, tail_start: u64) -> (u64, Vec<Value>) {
        let mut lines = ErrorLikeLines::new(keep);
        for chunk in input.as_bytes().chunks(piece) {
            lines.push(chunk);
        }
        lines.finish(tail_start)
    }

    #[test]
    fn colour_codes_are_stripped_from_the_text_shown() {
        let mut capture = StderrCapture::new(100, None, None);
        capture.push(b"\x1b[31m\x1b[1mError:\x1b[0m Unsupported argument\n");
        let value = capture.finish(&[], 1).value;
        let value = value.unwrap();
        assert_eq!(value["text"], "Error: Unsupported argument\n");
        assert_eq!(value["ansi_stripped"], true);
        assert_eq!(value["bytes"], 41, "the bytes written, codes and all");
    }

    #[test]
    fn a_failed_commands_last_words_follow_its_first_error() {
        let stderr = b"ERROR cache miss\nTraceback (most recent call last):\n  File \"a.py\", line 6\nValueError: bad\n";
        let summary = |exit_code| {
            let mut capture = StderrCapture::new(100, None, None);
            capture.push(stderr);
            capture.summary(exit_code)
        };
        assert_eq!(
            summary(1).as_deref(),
            Some("stderr: 3 errors, the first error at its line 1: ERROR cache miss; stderr ends: ValueError: bad")
        );
        // Of a command that succeeded, and when the last line is the error named, once.
        assert_eq!(
            summary(0).as_deref(),
            Some("stderr: 3 errors, the first error at its line 1: ERROR cache miss")
        );
        let mut capture = StderrCapture::new(100, None, None);
        capture.push(b"warming up\nERROR: disk full\n");
        assert_eq!(
            capture.summary(1).as_deref(),
            Some("stderr: 1 error, at its line 2: ERROR: disk full")
        );
    }

    #[test]
    fn a_line_redrawn_over_is_summed_up_as_last_drawn() {
        // `git rebase`'s progress, then its error, on one line.
        let mut capture = StderrCapture::new(100, None, None);
        capture.push(b"Rebasing (1/1)\rerror: could not apply 65604ae... main\nhint: resolve\n");
        assert_eq!(
            capture.summary(1).as_deref(),
            Some("stderr: 1 error, at its line 1: error: could not apply 65604ae... main")
        );
    }

    #[test]
    fn the_end_of_stderr_is_shown_at_every_length() {
        // Over twice `keep`, a stderr is cut: its first and last `keep` characters are
        // shown, however much of it the head holds.
        let keep = 100;
        for lines in [3, 6, 10, 30, 100] {
            let mut capture = StderrCapture::new(keep, None, None);
            for i in 0..lines {
                capture.push(format!("progress {i:03} of the build, still going\n").as_bytes());
            }
            capture.push(b"FATAL: the real error at the end (config.yml:12)\n");
            let value = capture.finish(&[], 3).value;
            let text = value.unwrap()["text"].as_str().unwrap().to_string();
            assert!(
                text.ends_with("FATAL: the real error at the end (config.yml:12)\n"),
                "{lines}: {text}"
            );
            assert!(text.starts_with("progress 000"), "{lines}: {text}");
        }
    }

    #[test]
    fn a_cut_error_shows_the_record_it_begins() {
        // A Go program's log, then the runtime's report: the main goroutine's frames name
        // the line that deadlocked (go1.19); then a traceback longer than is shown.
        let mut input: String = (0..300)
            .map(|i| format!("2026/12/06 05:50:45 level=info msg=\"job done\" job={i}\n"))
            .collect();
        let report = [
            "fatal error: all goroutines are asleep - deadlock!",
            "",
            "goroutine 1 [semacquire]:",
            "sync.(*WaitGroup).Wait(0x405359?)",
            "\t/usr/lib/go-1.19/src/sync/waitgroup.go:139 +0x52",
            "main.main()",
            "\t/app/main.go:25 +0x105",
            "",
        ];
        input += &report.join("\n");
        input.push_str("\nTraceback (most recent call last):\n");
        for i in 0..30 {
            input.push_str(&format!("  File \"app.py\", line {i}, in f{i}\n"));
        }
        input.push_str("ValueError: bad\nafter\n");
        let end = input.len() as u64;
        for piece in [1, 7, 4096] {
            let (count, cut) = listed(&input, 4000, piece, end);
            assert_eq!(count, 3, "pieces of {piece}: {cut:?}");
            assert_eq!(cut[0]["line"], 301);
            // The blank line that ends it is left out.
            assert_eq!(cut[0]["more"], json!(report[1..7]), "pieces of {piece}");
            // At most MAX_RECORD_LINES of a record; its exception line is not listed again.
            assert_eq!(cut[1]["text"], "Traceback (most recent call last):");
            let more = cut[1]["more"].as_array().unwrap();
            assert_eq!(more.len(), MAX_RECORD_LINES, "pieces of {piece}");
            assert_eq!(more[0], "  File \"app.py\", line 0, in f0");
            assert_eq!(cut.len(), 3, "pieces of {piece}: {cut:?}");
            assert_eq!(cut[2]["text"], "ValueError: bad");
        }
        // A record's lines count among the characters shown.
        let (_, cut) = listed(&input, 200, 4096, end);
        assert_eq!(cut.len(), 1, "{cut:?}");
    }

    #[test]
    fn the_cut_part_s_errors_come_first_one_per_template() {
        let mut input = String::from("ERROR shown at the start\n");
        for i in 0..100 {
            input.push_str(&format!("warning: slow query {i} ms\ninfo {i}\n"));
        }
        input.push_str("Traceback (most recent call last):\r\nfatal: disk gone\n");
        let end = input.len() as u64;
        for piece in [1, 7, 4096] {
            let (count, cut) = listed(&input, 200, piece, end);
            assert_eq!(count, 103, "every error-like line is counted");
            // The first 200 characters are shown: the first warning cut is the sixth.
            assert_eq!(
                Value::from(cut),
                json!([
                    {"line": 12, "text": "warning: slow query 5 ms", "count": 100},
                    // The traceback's exception line is its record's.
                    {"line": 202, "text": "Traceback (most recent call last):", "count": 1,
                     "more": ["fatal: disk gone"]},
                ]),
                "pieces of {piece}"
            );
        }
        // The shown end (from the traceback on) lists nothing of its own.
        let tail_start = input.find("Traceback").unwrap() as u64;
        let (_, cut) = listed(&input, 200, 4096, tail_start);
        assert_eq!(cut.len(), 1, "{cut:?}");
        // A line that ends past the shown start is cut, even if it begins in it.
        let (_, cut) = listed("ERROR a long line\n", 5, 4096, 100);
        assert_eq!(cut.len(), 1);
        let (_, cut) = listed("ERROR a long line\n", 17, 4096, 100);
        assert_eq!(cut.len(), 0);
    }

    #[test]
    fn what_is_listed_is_bounded() {
        // 30 warnings, then 30 errors, of one to thirty words, past 3,000 characters of
        // lines that are neither.
        let words: Vec<String> = (b'a'..=b'z')
            .chain(b'A'..=b'D')
            .map(|c| (c as char).to_string().repeat(3))
            .collect();
        let mut input = "nothing to see here\n".repeat(150);
        for level in ["warning", "error"] {
            for i in 0..30 {
                input.push_str(&format!("{level}: {}\n", words[..=i].join(" ")));
            }
        }
        let (count, cut) = listed(&input, 100_000, 4096, u64::MAX);
        assert_eq!(count, 60);
        assert!(cut.is_empty(), "all shown from the start");
        // Errors before warnings when more are cut than fit; then in line order.
        let (_, cut) = listed(&input, 3_000, 4096, u64::MAX);
        assert_eq!(cut.len(), MAX_ERROR_LIKE, "{cut:?}");
        assert!(
            cut.iter()
                .all(|c| c["text"].as_str().unwrap().starts_with("error:")),
            "{cut:?}"
        );
        assert!(cut.is_sorted_by_key(|c| c["line"].as_u64()));
        // The first three (of one to three words) are one template.
        assert_eq!(cut[0]["count"], 3, "{cut:?}");
        assert_eq!(cut[1]["count"], 1, "{cut:?}");
        // At most `keep` characters in all (the errors listed are of 10, 22, 26 …).
        let (_, cut) = listed(&input, 40, 4096, u64::MAX);
        assert_eq!(cut.len(), 2, "{cut:?}");
        // But always one, cut.
        let long = format!("x\nERROR {}\n", "y".repeat(10_000));
        let (_, cut) = listed(&long, 1, 4096, u64::MAX);
        let text = cut[0]["text"].as_str().unwrap();
        assert!(
            text.starts_with("ERROR yyy") && text.chars().count() < 400,
            "{text}"
        );
        // The last line without its newline counts.
        let (count, _) = listed("x\nERROR end", 1, 4096, u64::MAX);
        assert_eq!(count, 1);
    }
}
