//! `briefly turn`: one turn's tool results under the per-turn budget, largest spilled first.

use super::open_input;
use crate::content::block_text;
use crate::render;
use crate::session::Session;
use anyhow::{Context, Result};
use briefly_core::{
    counted, Budget, End, LoneSurrogates, MetricsEvent, Pipeline, MIN_RESULT_CHARS,
};
use briefly_plain::{Spill, SpillOptions};
use serde::de::{self, SeqAccess, Visitor};
use serde_json::Value;
use std::fmt;
use std::io::{BufRead, BufReader, BufWriter, Seek, SeekFrom, Write};

/// Room a spilled result's stub may take beyond its preview (header, path, cursor).
const STUB_OVERHEAD: usize = 1_000;

struct Entry {
    chars: usize,
    /// What it takes of the budgets ([`content_size`]).
    size: usize,
    persisted: bool,
    /// Where its line starts in the staging file.
    offset: u64,
}

pub fn run(session: &Session, file: Option<&std::path::Path>) -> Result<i32> {
    // UTF-16 (Windows PowerShell's `>`) decoded first.
    let mut input = BufReader::new(briefly_core::utf16::DecodingReader::new(open_input(file)?));
    // Bytes before the JSON: a byte order mark, white space.
    let mut skipped = 0;
    let is_array = loop {
        let buf = input.fill_buf().context("reading input")?;
        // A UTF-8 byte order mark opening the input is no part of the JSON.
        let n = if buf.starts_with(briefly_core::UTF8_BOM) {
            briefly_core::UTF8_BOM.len()
        } else {
            match buf.iter().position(|b| !b.is_ascii_whitespace()) {
                Some(i) => {
                    let first = buf[i];
                    input.consume(i);
                    skipped += i as u64;
                    break first == b'[';
                }
                None if buf.is_empty() => break false,
                None => buf.len(),
            }
        };
        input.consume(n);
        skipped += n as u64;
    };

    // Stage every result on disk, one JSON line each, so memory holds one at a time
    // (and the stubs of those spilled, each at most a stub's size).
    let mut staging = BufWriter::new(tempfile::tempfile().context("creating a staging file")?);
    let mut entries = Vec::new();
    let mut offset = 0;
    let mut stage = |value: Value| -> Result<(), String> {
        let index = entries.len();
        let content = value
            .as_object()
            .and_then(|o| o.get("content"))
            .ok_or_else(|| format!("result {index} is not an object with a \"content\" field"))?;
        let mut line = serde_json::to_vec(&value).map_err(|e| e.to_string())?;
        line.push(b'\n');
        let persisted = match value.get("persisted") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(persisted)) => *persisted,
            Some(other) => {
                return Err(format!(
                    "result {index}: \"persisted\" is {other}, not true or false"
                ))
            }
        };
        entries.push(Entry {
            chars: content_chars(content),
            size: content_size(content, &session.tokenizer),
            persisted,
            offset,
        });
        offset += line.len() as u64;
        staging.write_all(&line).map_err(|e| e.to_string())
    };
    // A lone surrogate's escape (a string a JavaScript harness cut inside a character)
    // would fail the whole turn: read as U+FFFD, and said.
    let mut input = BufReader::new(LoneSurrogates::new(input));
    if is_array {
        let mut de = serde_json::Deserializer::from_reader(&mut input);
        de::Deserializer::deserialize_seq(&mut de, Each(&mut stage))
            .context("turn: reading the JSON array")?;
        de.end().context("turn: after the JSON array")?;
    } else {
        for (i, value) in serde_json::Deserializer::from_reader(&mut input)
            .into_iter::<Value>()
            .enumerate()
        {
            // Numbered as results are elsewhere (from 0); serde says the line.
            let value = value.with_context(|| format!("turn: reading result {i}"))?;
            stage(value).map_err(anyhow::Error::msg)?;
        }
    }
    let mut staging = staging.into_inner().context("writing the staging file")?;
    for warning in input.get_ref().get_ref().get_ref().warnings() {
        say!("briefly: warning: {warning}");
    }
    if let (replaced @ 1.., Some(first)) = input.get_ref().replaced() {
        say!(
            "briefly: warning: {} (half of a UTF-16 pair) replaced by U+FFFD, the first at byte {}",
            counted(replaced, "lone surrogate escape", "lone surrogate escapes"),
            skipped + first
        );
    }

    let cap = session.budget.per_turn_chars;
    let per_result = session.budget.per_result_chars;
    // A stub is a result too: within the per-result budget.
    let stub_chars = (session.budget.preview_chars + STUB_OVERHEAD).min(per_result);
    let mut stubs: Vec<Option<Value>> = vec![None; entries.len()];
    let mut kept_whole = Vec::new();
    choose(&entries, cap, per_result, |index| {
        let entry = &entries[index];
        // A stub takes at most `stub_chars`, and less than the result it replaces (an
        // empty one, or an image alone, has no text to take less than).
        let Some(less) = entry.chars.checked_sub(1) else {
            return Ok(None);
        };
        let limit = stub_chars.min(less);
        if limit < MIN_RESULT_CHARS {
            return Ok(None);
        }
        staging.seek(SeekFrom::Start(entry.offset))?;
        let mut line = String::new();
        BufReader::new(&mut staging).read_line(&mut line)?;
        let mut value: Value = serde_json::from_str(&line)?;
        if let Err(why) = spill_one(session, &mut value, limit)? {
            // Its stub would leave out what no artifact holds: it stays whole.
            kept_whole.push(format!("result {index} kept whole: {why}"));
            return Ok(None);
        }
        let size = content_size(&value["content"], &session.tokenizer);
        let smaller = size < entry.size;
        stubs[index] = smaller.then_some(value);
        Ok(smaller.then_some(size))
    })?;
    for warning in &kept_whole {
        say!("briefly: warning: {warning}");
    }
    staging.rewind()?;

    let mut stdout = BufWriter::new(std::io::stdout().lock());
    if is_array {
        stdout.write_all(b"[")?;
    }
    let mut total = 0;
    for (index, line) in BufReader::new(staging).lines().enumerate() {
        let value: Value = match stubs[index].take() {
            Some(stub) => stub,
            None => {
                let value: Value = serde_json::from_str(&line?)?;
                // Its event, as a spilled result's was written when it was spilled: every
                // result of the turn counts in `briefly stats`.
                let chars = entries[index].chars as u64;
                session.metrics(MetricsEvent {
                    event: "tool_result_budget".into(),
                    tool: "turn".into(),
                    tool_call_id: call_id(&value),
                    raw_chars: chars,
                    inline_chars: chars,
                    ..MetricsEvent::default()
                });
                value
            }
        };
        total += content_size(&value["content"], &session.tokenizer);
        if is_array && index > 0 {
            stdout.write_all(b",")?;
        }
        serde_json::to_writer(&mut stdout, &value)?;
        if !is_array {
            stdout.write_all(b"\n")?;
        }
    }
    if is_array {
        stdout.write_all(b"]\n")?;
    }
    stdout.flush()?;
    if total > cap {
        let unit = match session.tokenizer.is_exact() {
            true => "chars (four a token, where the tokenizer counts more)",
            false => "chars",
        };
        say!("briefly: warning: the turn still takes {total} {unit}, over its budget of {cap}: nothing more could be spilled (the rest is persisted already, small, or could not be kept)");
    }
    Ok(0)
}

/// Spills results not yet persisted (by their [`Entry::size`]): each over `per_result`, then the largest first
/// until the total fits `cap`. `spill(i)` spills result `i` and gives its stub's size,
/// or nothing when no stub would be smaller than the result (it is kept as it is). Says
/// which were spilled.
fn choose(
    entries: &[Entry],
    cap: usize,
    per_result: usize,
    mut spill: impl FnMut(usize) -> Result<Option<usize>>,
) -> Result<Vec<bool>> {
    let mut spilled = vec![false; entries.len()];
    let mut total: usize = entries.iter().map(|e| e.size).sum();
    let mut order: Vec<usize> = (0..entries.len())
        .filter(|&i| !entries[i].persisted)
        .collect();
    order.sort_by(|&a, &b| entries[b].size.cmp(&entries[a].size).then(a.cmp(&b)));
    for i in order {
        if total <= cap && entries[i].size <= per_result {
            break;
        }
        if let Some(stub) = spill(i)? {
            spilled[i] = true;
            total -= entries[i].size - stub;
        }
    }
    Ok(spilled)
}

/// Replaces `value`'s content with the stub of its spill, of at most `stub_chars`; or,
/// when the stub would leave out what no artifact keeps, leaves it and says why.
fn spill_one(
    session: &Session,
    value: &mut Value,
    stub_chars: usize,
) -> Result<Result<(), String>> {
    let content = &value["content"];
    let texts = text_blocks(content);
    let blocks = texts.is_some();
    let raw = match (content, texts) {
        (Value::String(s), _) => s.clone(),
        (_, Some(texts)) => texts.join("\n"),
        (other, None) => other.to_string(),
    };
    // A block of no text (an image) stays as it is, after the stub.
    let kept_blocks: Vec<Value> = match (blocks, content.as_array()) {
        (true, Some(all)) => (all.iter())
            .filter(|b| block_text(b).is_none())
            .cloned()
            .collect(),
        _ => Vec::new(),
    };
    let id = call_id(value);
    let options = SpillOptions::default();
    let mut config = session.config(
        "spill",
        serde_json::to_value(options)?,
        session.tee(id.clone(), Vec::new()),
    );
    config.budget = Budget {
        per_result_chars: stub_chars,
        ..session.budget
    };
    config.items_chars = Some(session.budget.preview_chars);
    config.page_chars = Some(session.budget.per_result_chars);
    config.render = render::text;
    let mut pipeline = Pipeline::new(Spill::new(options), config);
    pipeline.push(raw.as_bytes());
    let envelope = pipeline.finish(End::default());
    if envelope.truncated && envelope.artifact_path.is_none() {
        let why = envelope
            .warnings
            .iter()
            .find(|w| w.starts_with("artifact not written"));
        return Ok(Err(why
            .map_or("its artifact could not be written", |w| w)
            .to_string()));
    }
    let stub = render::text(&envelope);
    let object = value.as_object_mut().expect("checked when staged");
    // Blocks stay blocks: the stub is one text block, the other blocks after it.
    let replaced = match blocks {
        true => {
            let stub = serde_json::json!({"type": "text", "text": stub});
            Value::Array(std::iter::once(stub).chain(kept_blocks).collect())
        }
        false => Value::String(stub.clone()),
    };
    object.insert("content".into(), replaced);
    object.insert(
        "persisted".into(),
        Value::Bool(envelope.artifact_path.is_some()),
    );
    object.insert("original_chars".into(), Value::from(raw.chars().count()));
    if let Some(path) = &envelope.artifact_path {
        object.insert("artifact_path".into(), Value::String(path.clone()));
    }
    let mut event = session.result_event("turn", &envelope, stub.chars().count());
    event.tool_call_id = id;
    session.metrics(event);
    Ok(Ok(()))
}

/// A result's tool-call id, as text: its `id`, or `tool_call_id` as OpenAI's tool
/// messages name it.
fn call_id(value: &Value) -> Option<String> {
    match value.get("id").or_else(|| value.get("tool_call_id")) {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Null) | None => None,
        Some(other) => Some(other.to_string()),
    }
}

/// What a result's content takes of the budgets, which count characters: its
/// characters, or, under a real tokenizer, four for each of its tokens where that is
/// more (dense text: JSON, hashes, CJK), as the budgets hold a quarter as many tokens.
fn content_size(content: &Value, tokenizer: &briefly_core::Tokenizer) -> usize {
    let chars = content_chars(content);
    if !tokenizer.is_exact() {
        return chars;
    }
    let tokens = match (content, text_blocks(content)) {
        (Value::String(s), _) => tokenizer.count(s),
        (_, Some(texts)) => texts.iter().map(|t| tokenizer.count(t)).sum(),
        (other, None) => tokenizer.count(&other.to_string()),
    };
    chars.max(tokens.saturating_mul(4))
}

fn content_chars(content: &Value) -> usize {
    match (content, text_blocks(content)) {
        (Value::String(s), _) => s.chars().count(),
        (_, Some(texts)) => texts.iter().map(|t| t.chars().count()).sum(),
        (other, None) => other.to_string().chars().count(),
    }
}

/// The texts of content given as blocks (`[{"type": "text", "text": …}]`, as
/// Anthropic's tool results, OpenAI's content parts and MCP's results have it, and the
/// text of the other blocks that hold some: [`block_text`]); `None` for any other
/// content. A block of no text (an image's) is nothing to reduce: it takes nothing of
/// the budgets here and stays as it is.
fn text_blocks(content: &Value) -> Option<Vec<&str>> {
    let blocks = content.as_array()?;
    let typed = |block: &Value| block.get("type").is_some_and(Value::is_string);
    if !blocks.iter().all(typed) {
        return None;
    }
    Some(blocks.iter().filter_map(block_text).collect())
}

/// Calls a function on each element of a JSON array as it is parsed.
struct Each<'a, F>(&'a mut F);

impl<'de, F: FnMut(Value) -> Result<(), String>> Visitor<'de> for Each<'_, F> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON array of tool results")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(value) = seq.next_element::<Value>()? {
            (self.0)(value).map_err(de::Error::custom)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(sizes: &[(usize, bool)]) -> Vec<Entry> {
        sizes
            .iter()
            .map(|&(size, persisted)| Entry {
                chars: size,
                size,
                persisted,
                offset: 0,
            })
            .collect()
    }

    /// `choose` with stubs of `stub` characters, or none smaller than a result.
    fn chosen(e: &[Entry], cap: usize, stub: usize) -> Vec<bool> {
        choose(e, cap, usize::MAX, |i| {
            Ok((stub < e[i].chars).then_some(stub))
        })
        .unwrap()
    }

    #[test]
    fn spills_the_largest_first_until_it_fits() {
        let e = entries(&[
            (30_000, false),
            (50_000, false),
            (10_000, false),
            (40_000, false),
        ]);
        // 130,000 over a cap of 60,000 with 2,500-char stubs: 50k then 40k go.
        assert_eq!(chosen(&e, 60_000, 2_500), [false, true, false, true]);
    }

    #[test]
    fn skips_persisted_results_and_those_no_stub_makes_smaller() {
        let e = entries(&[(90_000, true), (2_000, false), (30_000, false)]);
        assert_eq!(chosen(&e, 10_000, 2_500), [false, false, true]);
        // Results just under a stub's largest size go when their stubs are smaller.
        let e = entries(&[(2_100, false); 12]);
        let spilled = chosen(&e, 16_000, 1_230);
        assert_eq!(spilled.iter().filter(|s| **s).count(), 11);
    }

    #[test]
    fn each_result_over_the_per_result_budget_is_spilled_however_the_turn_fits() {
        let e = entries(&[
            (25_000, false),
            (900, false),
            (19_000, false),
            (30_000, true),
        ]);
        let spilled = choose(&e, 1_000_000, 20_000, |i| Ok(Some(e[i].chars / 10))).unwrap();
        assert_eq!(spilled, [true, false, false, false]);
    }

    #[test]
    fn nothing_spilled_when_it_fits() {
        let e = entries(&[(1_000, false), (2_000, false)]);
        assert_eq!(chosen(&e, 39_321, 2_500), [false, false]);
    }
}
