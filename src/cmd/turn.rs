//! `briefly turn`: one turn's tool results under the per-turn budget, largest spilled first.

use super::open_input;
use crate::render;
use crate::session::Session;
use anyhow::{Context, Result};
use briefly_core::{Budget, End, Pipeline};
use briefly_plain::{Spill, SpillOptions};
use serde::de::{self, SeqAccess, Visitor};
use serde_json::Value;
use std::fmt;
use std::io::{BufRead, BufReader, BufWriter, Seek, Write};

/// Room a spilled result's stub may take beyond its preview (header, path, cursor).
const STUB_OVERHEAD: usize = 1_000;

struct Entry {
    chars: usize,
    persisted: bool,
}

pub fn run(session: &Session, file: Option<&std::path::Path>) -> Result<i32> {
    let mut input = BufReader::new(open_input(file)?);
    let is_array = loop {
        let buf = input.fill_buf().context("reading input")?;
        match buf.iter().position(|b| !b.is_ascii_whitespace()) {
            Some(i) => {
                let first = buf[i];
                input.consume(i);
                break first == b'[';
            }
            None if buf.is_empty() => break false,
            None => {
                let n = buf.len();
                input.consume(n);
            }
        }
    };

    // Stage every result on disk, one JSON line each, so memory holds one at a time.
    let mut staging = BufWriter::new(tempfile::tempfile().context("creating a staging file")?);
    let mut entries = Vec::new();
    let mut stage = |value: Value| -> Result<(), String> {
        let index = entries.len();
        let content = value
            .as_object()
            .and_then(|o| o.get("content"))
            .ok_or_else(|| format!("result {index} is not an object with a \"content\" field"))?;
        entries.push(Entry {
            chars: content_chars(content),
            persisted: value
                .get("persisted")
                .and_then(Value::as_bool)
                .unwrap_or(false),
        });
        serde_json::to_writer(&mut staging, &value).map_err(|e| e.to_string())?;
        staging.write_all(b"\n").map_err(|e| e.to_string())
    };
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
            let value = value.with_context(|| format!("turn: reading JSON line {}", i + 1))?;
            stage(value).map_err(anyhow::Error::msg)?;
        }
    }
    let mut staging = staging.into_inner().context("writing the staging file")?;
    staging.rewind()?;

    let cap = session.budget.per_turn_chars;
    let stub_chars = session.budget.preview_chars + STUB_OVERHEAD;
    let spill = choose(&entries, cap, stub_chars);

    let mut stdout = BufWriter::new(std::io::stdout().lock());
    if is_array {
        stdout.write_all(b"[")?;
    }
    let mut total = 0;
    for (index, line) in BufReader::new(staging).lines().enumerate() {
        let mut value: Value = serde_json::from_str(&line?)?;
        if spill[index] {
            spill_one(session, &mut value, stub_chars)?;
        }
        total += content_chars(&value["content"]);
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
        eprintln!("briefly: warning: the turn still takes {total} chars, over its budget of {cap}: the rest is already persisted or small");
    }
    Ok(0)
}

/// Which results to spill: the largest not yet persisted, largest first, until the
/// total fits `cap`. Results no larger than a stub are never worth spilling.
fn choose(entries: &[Entry], cap: usize, stub_chars: usize) -> Vec<bool> {
    let mut spill = vec![false; entries.len()];
    let mut total: usize = entries.iter().map(|e| e.chars).sum();
    let mut order: Vec<usize> = (0..entries.len())
        .filter(|&i| !entries[i].persisted)
        .collect();
    order.sort_by(|&a, &b| entries[b].chars.cmp(&entries[a].chars).then(a.cmp(&b)));
    for i in order {
        if total <= cap || entries[i].chars <= stub_chars {
            break;
        }
        spill[i] = true;
        total -= entries[i].chars - stub_chars;
    }
    spill
}

fn spill_one(session: &Session, value: &mut Value, stub_chars: usize) -> Result<()> {
    let content = &value["content"];
    let raw = match content {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let id = match value.get("id") {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Null) | None => None,
        Some(other) => Some(other.to_string()),
    };
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
    config.render = render::text;
    let mut pipeline = Pipeline::new(Spill::new(options), config);
    pipeline.push(raw.as_bytes());
    let envelope = pipeline.finish(End::default());
    let stub = render::text(&envelope);
    let object = value.as_object_mut().expect("checked when staged");
    object.insert("content".into(), Value::String(stub.clone()));
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
    Ok(())
}

fn content_chars(content: &Value) -> usize {
    match content {
        Value::String(s) => s.chars().count(),
        other => other.to_string().chars().count(),
    }
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
            .map(|&(chars, persisted)| Entry { chars, persisted })
            .collect()
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
        assert_eq!(choose(&e, 60_000, 2_500), [false, true, false, true]);
    }

    #[test]
    fn skips_persisted_and_small_results() {
        let e = entries(&[(90_000, true), (2_000, false), (30_000, false)]);
        assert_eq!(choose(&e, 10_000, 2_500), [false, false, true]);
    }

    #[test]
    fn nothing_spilled_when_it_fits() {
        let e = entries(&[(1_000, false), (2_000, false)]);
        assert_eq!(choose(&e, 39_321, 2_500), [false, false]);
    }
}
