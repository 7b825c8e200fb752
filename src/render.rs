//! Printers: an envelope as JSON, or as compact text.

use briefly_core::Envelope;
use serde_json::Value;
use std::borrow::Cow;
use std::fmt::Write;

/// The envelope as one line of JSON.
pub fn json(envelope: &Envelope) -> String {
    // Its line's end is printed too: the budget counts it.
    let mut json = envelope.to_json();
    json.push('\n');
    json
}

/// The same fields, compactly: a header, the summary, one line per item, then where
/// the rest is.
pub fn text(e: &Envelope) -> String {
    let mut out = String::new();
    let status = if e.ok { "ok" } else { "FAILED" };
    let _ = write!(
        out,
        "[{}] {status} · {}, {}",
        e.source,
        briefly_core::plural(e.raw.lines, "line"),
        briefly_core::plural(e.raw.bytes, "byte")
    );
    if let Some(code) = e.exit_code {
        let _ = write!(out, " · exit {code}");
    }
    let _ = writeln!(out, "\n{}", e.summary);
    if e.stats.as_object().is_some_and(|m| !m.is_empty()) {
        let _ = writeln!(out, "stats: {}", e.stats);
    }
    let preview = serde_json::to_value(e.preview).unwrap_or_default();
    let preview = preview.as_str().unwrap_or_default();
    let truncated = if e.truncated { ", truncated" } else { "" };
    if e.items.is_empty() {
        let _ = writeln!(out, "no items of {} ({preview}{truncated})", e.total_items);
    } else {
        let _ = writeln!(
            out,
            "items {}-{} of {} ({preview}{truncated}):",
            e.item_offset + 1,
            e.item_offset + e.returned_items,
            e.total_items
        );
    }
    item_lines(&mut out, &e.items);
    if let Some(stderr) = &e.stderr {
        let _ = writeln!(
            out,
            "stderr: {}",
            stderr
                .get("text")
                .and_then(Value::as_str)
                .unwrap_or_default()
        );
        let cut = stderr.get("error_like").and_then(Value::as_array);
        if let Some(cut) = cut.filter(|cut| !cut.is_empty()) {
            let _ = writeln!(
                out,
                "stderr's lines that look like errors or warnings, of the part cut ({} in all):",
                stderr["error_like_lines"]
            );
            item_lines(&mut out, cut);
        }
    }
    for warning in &e.warnings {
        let _ = writeln!(out, "warning: {warning}");
    }
    if let Some(cursor) = &e.next_cursor {
        let _ = writeln!(out, "next: briefly page {cursor}");
    }
    if let Some(cursor) = &e.source_cursor {
        let _ = writeln!(out, "continue: journalctl --after-cursor '{cursor}'");
    }
    if let Some(path) = &e.artifact_path {
        let _ = writeln!(out, "artifact: {path}");
    }
    if let Some(path) = &e.kept_artifact {
        let _ = writeln!(out, "kept: {path}");
    }
    visible_controls(out)
}

/// `text` with its control characters but newlines and tabs shown as their pictures
/// (`␇` for BEL, `␈` for a backspace, `␛` for an escape left in a value), so that what
/// a line held cannot ring, move the cursor or overwrite the lines before it on a
/// terminal; C1 controls as U+FFFD. One character for one: the budget counts the same.
fn visible_controls(text: String) -> String {
    let shown = |c: char| c == '\n' || c == '\t' || !c.is_control();
    if text.chars().all(shown) {
        return text;
    }
    text.chars()
        .map(|c| match c {
            _ if shown(c) => c,
            '\u{7f}' => '\u{2421}',
            '\0'..='\u{1f}' => char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}'),
            _ => '\u{fffd}',
        })
        .collect()
}

/// A diff's file or hunk under a commit (`git log -p`): which one, and for a merge's
/// under `git log -m`, against which parent.
/// `text` (a patch, lines), ending its last line: one cut short ends in its marker,
/// not in a newline, and what follows would run on from it.
fn push_lines(out: &mut String, text: &str) {
    out.push_str(text);
    if !text.is_empty() && !text.ends_with('\n') {
        out.push('\n');
    }
}

fn commit_of(out: &mut String, item: &Value) {
    if let Some(commit) = item.get("commit").and_then(Value::as_str) {
        let _ = write!(out, " in commit {commit}");
    }
    if let Some(parent) = item.get("against").and_then(Value::as_str) {
        let _ = write!(out, " against {parent}");
    }
}

/// `  failed test_a.py::test_x (test_a.py:4): AssertionError: assert 0`, then the
/// traceback and the captured output, indented. cargo's: `  failed tests::x in demo
/// (src/lib.rs:3:9): boom`, `  error[E0308] (src/a.rs:5:9): mismatched types`, then the
/// assertion's sides, the detail and the captured output.
fn test_report(out: &mut String, item: &Value) {
    let field = |key: &str| {
        item.get(key)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
    };
    let _ = write!(out, "  {}", field("kind").unwrap_or("test"));
    if let Some(code) = field("code") {
        let _ = write!(out, "[{code}]");
    }
    if let Some(name) = field("nodeid").or(field("name")) {
        let _ = write!(out, " {name}");
    }
    if let Some(binary) = field("binary") {
        let _ = write!(out, " in {binary}");
    }
    match (field("file"), item.get("line").and_then(Value::as_u64)) {
        (Some(file), Some(line)) => {
            let _ = write!(out, " ({file}:{line})");
        }
        (Some(file), None) if field("nodeid").is_none() => {
            let _ = write!(out, " ({file})");
        }
        _ => {}
    }
    if let Some(location) = field("location") {
        let _ = write!(out, " ({location})");
    }
    if let Some(phase) = field("phase") {
        let _ = write!(out, " at {phase}");
    }
    let said: Vec<&str> = [field("exception"), field("message")]
        .into_iter()
        .flatten()
        .collect();
    if !said.is_empty() {
        let _ = write!(out, ": {}", said.join(": ").replace('\n', "\n    "));
    }
    out.push('\n');
    for side in ["left", "right"] {
        if let Some(value) = field(side) {
            let _ = writeln!(out, "    {side}: {value}");
        }
    }
    for (key, label) in [
        ("traceback", None),
        ("detail", None),
        ("captured", Some("captured:")),
    ] {
        let Some(text) = field(key) else { continue };
        if let Some(label) = label {
            let _ = writeln!(out, "    {label}");
        }
        for line in text.lines() {
            let _ = writeln!(out, "      {line}");
        }
    }
}

/// `items`, one after another ([`item_line`]).
fn item_lines(out: &mut String, items: &[Value]) {
    // The lines the item before showed, so that context it showed is not shown again.
    let mut shown = Vec::new();
    for (i, item) in items.iter().enumerate() {
        item_line(out, item, items.get(i + 1), &mut shown);
    }
}

/// One item; `shown` holds the numbers of the lines the item before showed (context
/// lines of this item's that it showed are not shown again), and becomes this item's.
/// Context after it from where the `next` item begins, when that follows it in the
/// input, is left to that item: it comes right after, in order.
fn item_line(out: &mut String, item: &Value, next: Option<&Value>, shown: &mut Vec<u64>) {
    let before_shown = std::mem::take(shown);
    // A diff's file: its change and path, then its patch as it is (so it can be applied).
    if let (Some(path), Some(change)) = (
        item.get("path").and_then(Value::as_str),
        item.get("change").and_then(Value::as_str),
    ) {
        let _ = write!(out, "  {change} {path}");
        if let Some(from) = item.get("from").and_then(Value::as_str) {
            let _ = write!(out, " (from {from})");
        }
        if let Some(left_out) = item.get("hunks_left_out").and_then(Value::as_u64) {
            let _ = write!(
                out,
                " ({} left out)",
                briefly_core::plural(left_out, "hunk")
            );
        }
        commit_of(out, item);
        out.push('\n');
        if let Some(patch) = item.get("patch").and_then(Value::as_str) {
            push_lines(out, patch);
        }
        return;
    }
    // A hunk of `diff --file`: where it is, then its patch (or part) as it is.
    if let Some(hunk) = item.get("hunk").and_then(Value::as_u64) {
        let path = item.get("path").and_then(Value::as_str).unwrap_or_default();
        let at = item.get("line").and_then(Value::as_u64).unwrap_or_default();
        let _ = write!(out, "  hunk {hunk} of {path} (diff line {at})");
        if let Some(part) = item.get("part").and_then(Value::as_str) {
            let _ = write!(out, ", part {part}: not a patch by itself");
        }
        commit_of(out, item);
        out.push('\n');
        let body = item
            .get("patch")
            .or_else(|| item.get("lines"))
            .and_then(Value::as_str);
        push_lines(out, body.unwrap_or_default());
        return;
    }
    // A place of a list of paths or of lines at files' lines: how many are in it, and
    // the first.
    if let Some(kind @ ("directory" | "file")) = item.get("kind").and_then(Value::as_str) {
        let field = |key: &str| item.get(key).cloned().unwrap_or_default();
        let (path, count, first, example) = (
            field("path"),
            field("count"),
            field("first_line"),
            field("example"),
        );
        let (Some(path), Some(count), Some(example)) =
            (path.as_str(), count.as_u64(), example.as_str())
        else {
            let _ = writeln!(out, "  {item}");
            return;
        };
        let what = match (kind, field("rest").as_bool()) {
            ("file", _) => briefly_core::plural(count, "line"),
            (_, Some(true)) => format!("{count} more under it"),
            _ => format!("{count} under it"),
        };
        let _ = writeln!(
            out,
            "  {path}  {what}, the first at line {first}: {example}"
        );
        return;
    }
    // A template of `text`'s: how many records it folds and its text, where they are,
    // then its example.
    if let (Some(kind @ ("template" | "other")), Some(template), Some(count)) = (
        item.get("kind").and_then(Value::as_str),
        item.get("template").and_then(Value::as_str),
        item.get("count").and_then(Value::as_u64),
    ) {
        template_item(out, item, kind, template, count);
        return;
    }
    // A test's report (pytest's): what it is and where, what failed, then its decisive
    // traceback lines and captured output as they were printed.
    let noted = matches!(
        item.get("kind").and_then(Value::as_str),
        Some("skipped" | "xfailed" | "warning")
    ) && item.get("file").is_some();
    // cargo's: a failing test, a flaky one, a thread's panic, a compile error, a crashed
    // binary, a warning.
    let cargo = matches!(
        item.get("kind").and_then(Value::as_str),
        Some("failed" | "flaky" | "panic" | "error" | "crashed" | "warning")
    ) && ["name", "code", "detail", "binary"]
        .iter()
        .any(|key| item.get(*key).is_some())
        && item.get("line").is_none();
    if item.get("nodeid").is_some() || item.get("traceback").is_some() || noted || cargo {
        test_report(out, item);
        return;
    }
    let line = item.get("line").and_then(Value::as_u64);
    let text = match (item.get("text"), item.get("message")) {
        (Some(Value::String(text)), _) => Some(Cow::Borrowed(text.as_str())),
        (None, Some(Value::String(message))) => Some(Cow::Owned(entry_text(item, message))),
        _ => None,
    };
    let (Some(line), Some(text)) = (line, text) else {
        let _ = writeln!(out, "  {item}");
        return;
    };
    context_lines(out, item, "before", &before_shown, None, shown);
    // A record's first line, or a run of lines, then the rest of a multi-line record:
    // each numbered, as they follow one another in the input. An entry's lines are its
    // message's (a journal entry's is one input line; a container's may be apart): not
    // numbered.
    let numbered = item.get("message").is_none();
    let more = item
        .get("more")
        .and_then(Value::as_array)
        .into_iter()
        .flatten();
    let lines = text.split('\n').chain(more.filter_map(Value::as_str));
    // Where lines of a long record were left out: (lines of `more` before, lines).
    let gaps: Vec<(u64, u64)> = item
        .get("more_gaps")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|gap| Some((gap.get("after")?.as_u64()?, gap.get("lines")?.as_u64()?)))
        .collect();
    let left_out = |out: &mut String, n: u64, cut: u64, more: &str| {
        let _ = match numbered {
            true => writeln!(out, "  … {cut} {more}lines of this record (from line {n})"),
            false => writeln!(out, "  … {cut} {more}lines of this entry"),
        };
    };
    let firsts = text.split('\n').count() as u64;
    let mut n = line;
    for (i, t) in lines.enumerate() {
        for &(_, cut) in gaps.iter().filter(|(after, _)| firsts + after == i as u64) {
            left_out(out, n, cut, "");
            n += cut;
        }
        if i == 0 || numbered {
            shown.push(n);
            let _ = write!(out, "  {n}: {t}");
        } else {
            let _ = write!(out, "  {:width$}| {t}", "", width = line.to_string().len());
        }
        if i == 0 {
            tags(out, item);
        }
        out.push('\n');
        n += 1;
    }
    let gapped: u64 = gaps.iter().map(|(_, cut)| cut).sum();
    if let Some(cut) = item.get("more_cut").and_then(Value::as_u64) {
        if cut > gapped {
            left_out(out, n, cut - gapped, "more ");
        }
    }
    let next_line = next.and_then(|next| next.get("line")?.as_u64());
    let up_to = next_line.filter(|&next| next > line);
    context_lines(out, item, "after", &before_shown, up_to, shown);
}

/// `  ×3492 GET <*> HTTP/<*> status: <*>  [info, lines 1501–29997, 10:00:00 to 11:23:19]`,
/// then `    e.g. 1501: GET /a HTTP/1.1 status: 200`; the `other` group says what it is.
fn template_item(out: &mut String, item: &Value, kind: &str, template: &str, count: u64) {
    let field = |key: &str| item.get(key).and_then(Value::as_str);
    let number = |key: &str| item.get(key).and_then(Value::as_u64);
    match kind {
        "other" => {
            let _ = write!(out, "  ×{count} other records (past the template cap)");
        }
        _ if template.trim().is_empty() => {
            let _ = write!(out, "  ×{count} blank lines");
        }
        _ => {
            let _ = write!(out, "  ×{count} {template}");
        }
    }
    let mut tags = Vec::new();
    if let Some(severity) = field("severity") {
        tags.push(match number("severity_count") {
            Some(at) => format!("{severity} ×{at}"),
            None => severity.to_string(),
        });
    }
    if let (Some(first), Some(last)) = (number("first_line"), number("last_line")) {
        tags.push(match first == last {
            true => format!("line {first}"),
            false => format!("lines {first}–{last}"),
        });
    }
    match (field("first_time"), field("last_time")) {
        (Some(first), Some(last)) if first != last => tags.push(format!("{first} to {last}")),
        (Some(time), _) | (None, Some(time)) => tags.push(time.to_string()),
        (None, None) => {}
    }
    // What a reducer adds of its own (a journal's units, a container log's streams).
    const SHOWN: [&str; 11] = [
        "kind",
        "id",
        "template",
        "count",
        "severity",
        "severity_count",
        "first_line",
        "last_line",
        "first_time",
        "last_time",
        "example",
    ];
    let others = item.as_object().into_iter().flatten();
    for (key, value) in others.filter(|(key, _)| !SHOWN.contains(&key.as_str())) {
        tags.push(format!("{key} {value}"));
    }
    if !tags.is_empty() {
        let _ = write!(out, "  [{}]", tags.join(", "));
    }
    out.push('\n');
    if let Some(example) = field("example").filter(|e| !e.trim().is_empty()) {
        match number("first_line") {
            Some(line) => writeln!(out, "    e.g. {line}: {example}"),
            None => writeln!(out, "    e.g. {example}"),
        }
        .ok();
    }
}

/// A log entry's (journal's, docker's) message after its time, source and level, as
/// a log line: `2026-11-29T10:00:00Z nginx.service[812] err: message`.
fn entry_text(item: &Value, message: &str) -> String {
    let field = |key: &str| item.get(key).and_then(Value::as_str);
    let mut text = String::new();
    if let Some(time) = field("time") {
        let _ = write!(text, "{time} ");
    }
    if let Some(source) = field("unit").or(field("stream")) {
        text.push_str(source);
        if let Some(pid) = field("pid") {
            let _ = write!(text, "[{pid}]");
        }
        text.push(' ');
    }
    if let Some(level) = field("priority").or(field("level")) {
        let _ = write!(text, "{level}: ");
    }
    text.push_str(message);
    text
}

/// What an item says of its line beside the text: `  [error, ×3, cut]` (its severity,
/// how many records share its template when more than it, its line cut); `[error, ×1 of
/// 300]` when fewer of them are at its severity.
fn tags(out: &mut String, item: &Value) {
    let mut tags = Vec::new();
    if let Some(severity) = item.get("severity").and_then(Value::as_str) {
        tags.push(severity.to_string());
    }
    if let Some(count) = item.get("count").and_then(Value::as_u64).filter(|&c| c > 1) {
        match item.get("severity_count").and_then(Value::as_u64) {
            Some(at) => tags.push(format!("×{at} of {count}")),
            None => tags.push(format!("×{count}")),
        }
    }
    if item.get("cut").and_then(Value::as_bool) == Some(true) {
        tags.push("cut".to_string());
    }
    if !tags.is_empty() {
        let _ = write!(out, "  [{}]", tags.join(", "));
    }
}

/// An item's context lines on `side` (`before` or `after`), but those the item before
/// showed (`before_shown`) and those from `up_to` on (where the next item begins, when
/// it follows: it shows them, or its own context does); each shown is added to `shown`.
fn context_lines(
    out: &mut String,
    item: &Value,
    side: &str,
    before_shown: &[u64],
    up_to: Option<u64>,
    shown: &mut Vec<u64>,
) {
    for (n, t) in context(item, side) {
        if !before_shown.contains(&n) && up_to.is_none_or(|up_to| n < up_to) {
            shown.push(n);
            let _ = writeln!(out, "  {n}- {t}");
        }
    }
}

fn context<'a>(item: &'a Value, side: &str) -> impl Iterator<Item = (u64, &'a str)> {
    item.get(side)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|pair| Some((pair.get(0)?.as_u64()?, pair.get(1)?.as_str()?)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn control_characters_are_shown_as_their_pictures() {
        let mut e = Envelope::new("text", "bell\x07 and back\x08space");
        e.items = vec![json!({"line": 1, "text": "a\tb\x1b[2Kc\u{9b}d\x7f"})];
        e.returned_items = 1;
        e.total_items = 1;
        let t = text(&e);
        assert!(t.contains("bell\u{2407} and back\u{2408}space"), "{t}");
        assert!(
            t.contains("  1: a\tb\u{241b}[2Kc\u{fffd}d\u{2421}\n"),
            "{t}"
        );
        assert!(t.lines().count() > 2);
    }

    #[test]
    fn context_the_item_before_showed_is_not_shown_again() {
        let mut e = Envelope::new("text", "2 errors");
        e.items = vec![
            json!({"line": 3, "text": "ERROR one", "before": [[2, "a"]], "after": [[4, "b"], [5, "ERROR two"]]}),
            json!({"line": 5, "text": "ERROR two", "before": [[3, "ERROR one"], [4, "b"]], "after": [[6, "c"]]}),
            // Ranked after, earlier in the input: its context is its own.
            json!({"line": 1, "text": "start", "after": [[2, "a"]]}),
            // A long record's lines left out between those shown, then one in that gap:
            // its context was never shown.
            json!({"line": 10, "text": "ERROR long", "more": ["l11", "l50"], "more_gaps": [{"after": 1, "lines": 38}]}),
            json!({"line": 30, "text": "ERROR in the gap", "before": [[28, "x"], [29, "y"]]}),
        ];
        e.returned_items = 5;
        e.total_items = 5;
        let t = text(&e);
        assert!(
            t.contains(
                "  2- a\n  3: ERROR one\n  4- b\n  5: ERROR two\n  6- c\n  1: start\n  2- a\n"
            ),
            "{t}"
        );
        assert!(
            t.contains("  28- x\n  29- y\n  30: ERROR in the gap\n"),
            "{t}"
        );
        // The lines after an item that the item before showed are not shown again
        // either: go test's `FAIL` ranked after its package's `FAIL\t…` line below it.
        e.items = vec![
            json!({"line": 545, "text": "FAIL\tpkg\t2.7s", "before": [[543, "--- PASS: T"], [544, "FAIL"]], "after": [[546, "=== RUN   U"]]}),
            json!({"line": 544, "text": "FAIL", "before": [[542, "=== RUN   T"], [543, "--- PASS: T"]], "after": [[545, "FAIL\tpkg\t2.7s"], [546, "=== RUN   U"]]}),
        ];
        e.returned_items = 2;
        e.total_items = 2;
        let t = text(&e);
        assert!(
            t.contains("  546- === RUN   U\n  542- === RUN   T\n  544: FAIL\n"),
            "{t}"
        );
        assert_eq!(t.matches("546-").count(), 1, "{t}");
        assert_eq!(t.matches("545").count(), 1, "{t}");
        // Context after an item from where the next item begins is that item's: its own
        // record (the lines it left out too) and its context, in order.
        e.items = vec![
            json!({"line": 3, "text": "ERROR one", "after": [[4, "b"], [5, "ERROR two"], [6, "at f"], [7, "at g"], [8, "at h"], [9, "c"]]}),
            json!({"line": 5, "text": "ERROR two", "more": ["at f"], "more_cut": 2, "before": [[4, "b"]], "after": [[9, "c"]]}),
        ];
        let t = text(&e);
        assert!(
            t.ends_with("  3: ERROR one\n  4- b\n  5: ERROR two\n  6: at f\n  … 2 more lines of this record (from line 7)\n  9- c\n"),
            "{t}"
        );
    }

    #[test]
    fn text_shows_items_and_where_the_rest_is() {
        let mut e = Envelope::new("grep", "2 matching lines");
        e.items = vec![
            json!({"line": 3, "text": "ERROR x", "before": [[2, "b"]]}),
            json!({"k": 1}),
        ];
        e.returned_items = 2;
        e.total_items = 5;
        e.truncated = true;
        e.next_cursor = Some("b1.abc".into());
        e.artifact_path = Some("/tmp/a".into());
        let t = text(&e);
        assert!(t.contains("  2- b\n  3: ERROR x\n"), "{t}");
        assert!(t.contains("  {\"k\":1}\n"), "{t}");
        assert!(t.contains("items 1-2 of 5 (ranked, truncated)"), "{t}");
        assert!(t.contains("next: briefly page b1.abc"));
        assert!(t.contains("artifact: /tmp/a"));
    }

    #[test]
    fn a_patch_cut_short_ends_its_line_before_what_follows() {
        let mut e = Envelope::new("diff", "1 file changed");
        e.items = vec![
            json!({"path": "a.rs", "change": "M", "added": 1, "removed": 1,
                   "hunks_left_out": 1, "patch": "@@ -1 +1 @@\n-a…[cut 20 chars]"}),
            json!({"hunk": 2, "path": "b.rs", "line": 9, "patch": "@@ -3 +3 @@\n-b…[cut 5 chars]"}),
        ];
        e.warnings = vec!["the patch of a.rs was cut".into()];
        let t = text(&e);
        assert!(t.contains(" a.rs (1 hunk left out)\n"), "{t}");
        assert!(t.contains("-a…[cut 20 chars]\n  hunk 2"), "{t}");
        assert!(t.contains("-b…[cut 5 chars]\nwarning: "), "{t}");
    }

    #[test]
    fn text_shows_every_line_of_a_record_and_of_a_run_with_what_the_item_says() {
        let mut e = Envelope::new("text", "returned whole");
        e.items = vec![
            json!({"kind": "line", "line": 4, "severity": "error", "text": "Traceback (most recent call last):",
                   "more": ["  File \"a.py\", line 1", "KeyError: 'x'"], "more_cut": 2,
                   "template": 3, "count": 1}),
            json!({"kind": "line", "line": 9, "severity": "info", "text": "served 1", "template": 0, "count": 20}),
            json!({"kind": "line", "line": 11, "severity": "error", "text": "served 5", "template": 0,
                   "count": 20, "severity_count": 1}),
            json!({"line": 12, "text": "aaaa", "cut": true}),
            json!({"kind": "lines", "line": 1, "last": 3, "text": "a\n\nc", "after": [[4, "d"]]}),
        ];
        let t = text(&e);
        let expected = "  4: Traceback (most recent call last):  [error]
  5:   File \"a.py\", line 1
  6: KeyError: 'x'
  … 2 more lines of this record (from line 7)
  9: served 1  [info, ×20]
  11: served 5  [error, ×1 of 20]
  12: aaaa  [cut]
  1: a
  2: \n  3: c
  4- d
";
        assert!(t.ends_with(expected), "{t}");
    }

    #[test]
    fn text_shows_a_template_with_its_count_place_and_example() {
        let mut e = Envelope::new("text", "2 templates");
        e.items = vec![
            json!({"kind": "template", "id": 4, "template": "GET <*> status: <*>", "count": 300,
                   "severity": "error", "severity_count": 1, "first_line": 2, "last_line": 301,
                   "first_time": "10:00:00", "last_time": "10:04:59", "example": "GET /a status: 200"}),
            json!({"kind": "other", "template": "other", "count": 12, "first_line": 7,
                   "last_line": 7, "example": "zq 1"}),
            json!({"kind": "template", "id": 2, "template": "", "count": 5, "first_line": 3,
                   "last_line": 9, "example": ""}),
            json!({"kind": "template", "id": 1, "template": "slow query ms=<*>", "count": 8,
                   "severity": "warn", "streams": {"stderr": 8}, "first_line": 8,
                   "example": "slow query ms=907"}),
        ];
        let t = text(&e);
        let expected = "  ×300 GET <*> status: <*>  [error ×1, lines 2–301, 10:00:00 to 10:04:59]
    e.g. 2: GET /a status: 200
  ×12 other records (past the template cap)  [line 7]
    e.g. 7: zq 1
  ×5 blank lines  [lines 3–9]
  ×8 slow query ms=<*>  [warn, streams {\"stderr\":8}]
    e.g. 8: slow query ms=907
";
        assert!(t.ends_with(expected), "{t}");
    }

    #[test]
    fn text_shows_where_lines_of_a_long_record_were_left_out() {
        let mut e = Envelope::new("text", "1 record");
        e.items = vec![
            json!({"kind": "line", "line": 10, "severity": "error", "text": "ERROR boom",
                   "more": ["\tat a", "Caused by: x", "\tat z"], "more_cut": 7,
                   "more_gaps": [{"after": 1, "lines": 3}, {"after": 2, "lines": 4}],
                   "template": 3, "count": 1}),
            json!({"kind": "entry", "line": 1, "stream": "stderr", "level": "error",
                   "message": "Traceback (most recent call last):", "more": ["a", "E: x"],
                   "more_cut": 2, "more_gaps": [{"after": 1, "lines": 2}], "template": 0, "count": 1}),
        ];
        let t = text(&e);
        let expected = "  10: ERROR boom  [error]
  11: \tat a
  … 3 lines of this record (from line 12)
  15: Caused by: x
  … 4 lines of this record (from line 16)
  20: \tat z
  1: stderr error: Traceback (most recent call last):
   | a
  … 2 lines of this entry
   | E: x
";
        assert!(t.ends_with(expected), "{t}");
    }

    #[test]
    fn text_shows_stderr_and_the_error_like_lines_of_its_part_cut() {
        let mut e = Envelope::new("text", "1 line");
        e.stderr = Some(json!({
            "text": "a\n…[cut: 900 bytes of stderr in all]…\nz\n", "truncated": true,
            "error_like_lines": 7, "error_like": [{"line": 12, "text": "error: x", "count": 6}]
        }));
        let t = text(&e);
        let expected = "stderr: a\n…[cut: 900 bytes of stderr in all]…\nz\n
stderr's lines that look like errors or warnings, of the part cut (7 in all):
  12: error: x  [×6]
";
        assert!(t.ends_with(expected), "{t}");
    }

    #[test]
    fn text_shows_a_tests_report_with_its_traceback() {
        let mut e = Envelope::new("pytest", "1 failed");
        e.items = vec![
            json!({"nodeid": "test_m.py::test_m[3]", "file": "test_m.py", "line": 4, "kind": "failed",
                   "exception": "AssertionError", "message": "assert 3 == 0",
                   "traceback": ">       assert i % 7 == 0\nE       assert 3 == 0", "captured": "starting"}),
            json!({"file": "test_m.py", "line": 9, "kind": "skipped", "message": "needs gpu"}),
        ];
        let t = text(&e);
        let expected = "  failed test_m.py::test_m[3] (test_m.py:4): AssertionError: assert 3 == 0
      >       assert i % 7 == 0
      E       assert 3 == 0
    captured:
      starting
  skipped (test_m.py:9): needs gpu
";
        assert!(t.ends_with(expected), "{t}");
    }

    #[test]
    fn text_shows_cargos_failures_and_errors_as_reports() {
        let mut e = Envelope::new("cargo-test", "1 failed");
        e.items = vec![
            json!({"kind": "failed", "name": "tests::sum", "binary": "demo: unittests src/lib.rs",
                   "message": "assertion `left == right` failed\n  detail", "location": "src/lib.rs:3:9",
                   "left": "4", "right": "5", "detail": "thread 'tests::sum' panicked at src/lib.rs:3:9:",
                   "captured": "hello"}),
            json!({"kind": "error", "code": "E0308", "message": "mismatched types",
                   "location": "src/a.rs:5:9", "detail": " --> src/a.rs:5:9"}),
            json!({"kind": "crashed", "binary": "deep: tests/deep.rs", "message": "stack overflow"}),
            json!({"kind": "panic", "name": "worker", "message": "worker died",
                   "location": "src/lib.rs:15:7", "detail": "thread 'worker' panicked at src/lib.rs:15:7:"}),
        ];
        let t = text(&e);
        let expected = "  failed tests::sum in demo: unittests src/lib.rs (src/lib.rs:3:9): assertion `left == right` failed
      detail
    left: 4
    right: 5
      thread 'tests::sum' panicked at src/lib.rs:3:9:
    captured:
      hello
  error[E0308] (src/a.rs:5:9): mismatched types
       --> src/a.rs:5:9
  crashed in deep: tests/deep.rs: stack overflow
  panic worker (src/lib.rs:15:7): worker died
      thread 'worker' panicked at src/lib.rs:15:7:
";
        assert!(t.ends_with(expected), "{t}");
    }

    #[test]
    fn text_shows_a_log_entry_as_a_log_line() {
        let mut e = Envelope::new("journal", "2 entries");
        e.items = vec![
            json!({"kind": "entry", "line": 13, "time": "2025-12-01T11:53:32Z", "unit": "nginx.service",
                   "priority": "err", "pid": "812", "message": "Traceback (most recent call last):",
                   "more": ["ValueError: bad"], "more_cut": 3, "template": 1, "count": 1}),
            json!({"kind": "entry", "line": 1, "time": null, "stream": "stdout", "level": "info",
                   "message": "served", "template": 0, "count": 50}),
        ];
        let t = text(&e);
        let expected =
            "  13: 2025-12-01T11:53:32Z nginx.service[812] err: Traceback (most recent call last):
    | ValueError: bad
  … 3 more lines of this entry
  1: stdout info: served  [×50]
";
        assert!(t.ends_with(expected), "{t}");
    }

    #[test]
    fn text_prints_a_place_of_a_list_on_one_line() {
        let mut e = Envelope::new("text", "3 paths in 2 directories");
        e.items = vec![
            json!({"kind": "directory", "path": "src/", "count": 2, "first_line": 1, "example": "src/a.rs"}),
            json!({"kind": "directory", "path": "./", "count": 1, "rest": true, "first_line": 3, "example": "b.md"}),
            json!({"kind": "file", "path": "src/a.rs", "count": 1, "first_line": 4, "example": "src/a.rs:9:x"}),
        ];
        let t = text(&e);
        assert!(
            t.contains(
                "  src/  2 under it, the first at line 1: src/a.rs\n  \
                 ./  1 more under it, the first at line 3: b.md\n  \
                 src/a.rs  1 line, the first at line 4: src/a.rs:9:x\n"
            ),
            "{t}"
        );
    }

    #[test]
    fn text_prints_diff_patches_as_they_are() {
        let mut e = Envelope::new("diff", "1 file");
        e.items = vec![
            json!({"path": "a.rs", "change": "M +1 -1", "patch": "--- a/a.rs\n+++ b/a.rs\n"}),
            json!({"path": "b.rs", "change": "R100 +0 -0", "from": "c.rs", "commit": "4f3a9c1e2b7d"}),
            json!({"path": "b.rs", "hunk": 2, "line": 9, "patch": "@@ -1 +1 @@\n", "commit": "4f3a9c1e2b7d"}),
        ];
        let t = text(&e);
        assert!(
            t.contains("  M +1 -1 a.rs\n--- a/a.rs\n+++ b/a.rs\n  R100 +0 -0 b.rs (from c.rs) in commit 4f3a9c1e2b7d\n"),
            "{t}"
        );
        assert!(
            t.contains("  hunk 2 of b.rs (diff line 9) in commit 4f3a9c1e2b7d\n@@ -1 +1 @@\n"),
            "{t}"
        );
    }
}
