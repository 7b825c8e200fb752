//! The other half of the budget: a whole request's message history, measured and, when
//! asked, compacted.
//!
//! Messages are OpenAI-format objects (`role`, `content`, `tool_calls`, `tool_call_id`).
//! [`measure`] counts tokens by role against the usable window; [`compact`] applies, in
//! order and only until the target utilization is met: (1) collapse large tool results to
//! a stub kept with an artifact, oldest first; (2) replace old large tool results with a
//! placeholder; (3) summarize the middle turns through a caller-given summarizer;
//! (4) at critical, drop schemas of tools not used in the last turns. Never touched: the
//! system prompt, the first user message, the last turns, and the pairing of every
//! `tool_call_id` with its call.

use briefly_core::Tokenizer;
use serde::Serialize;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

/// Tokens a message costs beyond its text (role and separators), as OpenAI counts them.
pub const MESSAGE_OVERHEAD: u64 = 4;
/// Tokens counted for an image part (a low-detail image).
pub const IMAGE_TOKENS: u64 = 85;

/// How full the window is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Under 60%.
    Nominal,
    /// Under 80%.
    Watch,
    /// Under 95%.
    Compress,
    /// 95% and over.
    Critical,
}

impl Status {
    /// The status at `utilization` (0.0–1.0 and beyond).
    pub fn of(utilization: f64) -> Status {
        match utilization {
            u if u < 0.60 => Status::Nominal,
            u if u < 0.80 => Status::Watch,
            u if u < 0.95 => Status::Compress,
            _ => Status::Critical,
        }
    }
}

/// The reserve kept for the next completion, by model class.
pub fn reserve_for(model_class: &str) -> Option<f64> {
    match model_class {
        "fast" => Some(0.15),
        "standard" => Some(0.20),
        "reasoning" => Some(0.30),
        _ => None,
    }
}

/// A history measured against a window.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Measure {
    /// Tokens by role (`system`, `user`, `assistant`, `tool`, and `tool_schemas`).
    pub by_role: BTreeMap<String, u64>,
    /// All tokens.
    pub total: u64,
    /// The context window.
    pub context_tokens: u64,
    /// The share kept for the next completion.
    pub reserve: f64,
    /// The window less the reserve.
    pub usable: u64,
    /// `usable − total` (negative when over).
    pub headroom: i64,
    /// `total / usable`.
    pub utilization: f64,
    /// What the utilization means.
    pub status: Status,
    /// The messages, as many as asked, largest first: `[index, role, tokens]`.
    pub largest: Vec<(usize, String, u64)>,
}

/// Whatever is wrong with the input, by message index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError(pub String);

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InputError {}

const KNOWN_ROLES: [&str; 6] = [
    "system",
    "developer",
    "user",
    "assistant",
    "tool",
    "function",
];

/// Checks the shape of a history: an array of objects with a string `role`. Returns
/// warnings for what is odd but usable (unknown roles, results without a call).
pub fn check(history: &Value) -> Result<Vec<String>, InputError> {
    let messages = history
        .as_array()
        .ok_or_else(|| InputError("the history must be a JSON array of messages".into()))?;
    let mut warnings = Vec::new();
    let mut calls = BTreeSet::new();
    for (i, message) in messages.iter().enumerate() {
        let role = message
            .as_object()
            .ok_or_else(|| InputError(format!("message {i} is not an object")))?
            .get("role")
            .and_then(Value::as_str)
            .ok_or_else(|| InputError(format!("message {i} has no string \"role\"")))?;
        if !KNOWN_ROLES.contains(&role) {
            warnings.push(format!(
                "message {i}: unknown role {role:?}, counted as it is"
            ));
        }
        for id in call_ids(message) {
            calls.insert(id.to_string());
        }
        if role == "tool" {
            match message.get("tool_call_id").and_then(Value::as_str) {
                Some(id) if calls.contains(id) => {}
                Some(id) => warnings.push(format!(
                    "message {i}: tool result {id:?} has no matching call before it"
                )),
                None => warnings.push(format!("message {i}: tool result without a tool_call_id")),
            }
        }
    }
    Ok(warnings)
}

fn call_ids(message: &Value) -> impl Iterator<Item = &str> {
    message
        .get("tool_calls")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|call| call.get("id").and_then(Value::as_str))
}

fn role(message: &Value) -> &str {
    message.get("role").and_then(Value::as_str).unwrap_or("")
}

/// Tokens of a message: its text (text parts of multipart content; images at
/// [`IMAGE_TOKENS`]; other parts as their JSON), its tool calls' names and arguments, and
/// [`MESSAGE_OVERHEAD`].
pub fn message_tokens(message: &Value, tokenizer: &Tokenizer) -> u64 {
    let mut tokens = MESSAGE_OVERHEAD;
    match message.get("content") {
        Some(Value::String(text)) => tokens += tokenizer.count(text) as u64,
        Some(Value::Array(parts)) => {
            for part in parts {
                tokens += match (
                    part.get("type").and_then(Value::as_str),
                    part.get("text").and_then(Value::as_str),
                ) {
                    (_, Some(text)) => tokenizer.count(text) as u64,
                    (Some("image_url" | "image" | "input_image"), None) => IMAGE_TOKENS,
                    _ => tokenizer.count(&part.to_string()) as u64,
                };
            }
        }
        Some(Value::Null) | None => {}
        Some(other) => tokens += tokenizer.count(&other.to_string()) as u64,
    }
    for call in message
        .get("tool_calls")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let function = call.get("function");
        let name = function
            .and_then(|f| f.get("name"))
            .and_then(Value::as_str)
            .unwrap_or("");
        let arguments = function.and_then(|f| f.get("arguments")).map(|a| match a {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        });
        tokens += tokenizer.count(name) as u64
            + tokenizer.count(arguments.as_deref().unwrap_or("")) as u64;
    }
    tokens
}

/// Tokens of tool schemas, as sent.
pub fn schema_tokens(tools: &[Value], tokenizer: &Tokenizer) -> u64 {
    tools
        .iter()
        .map(|tool| tokenizer.count(&tool.to_string()) as u64)
        .sum()
}

/// Measures `messages` (and `tools`' schemas) against a window of `context_tokens` less
/// `reserve`; `largest` is how many of the largest messages to list.
pub fn measure(
    messages: &[Value],
    tools: &[Value],
    context_tokens: u64,
    reserve: f64,
    tokenizer: &Tokenizer,
    largest: usize,
) -> Measure {
    let mut by_role: BTreeMap<String, u64> = BTreeMap::new();
    let mut sizes: Vec<(usize, String, u64)> = Vec::with_capacity(messages.len());
    for (i, message) in messages.iter().enumerate() {
        let tokens = message_tokens(message, tokenizer);
        *by_role.entry(role(message).to_string()).or_default() += tokens;
        sizes.push((i, role(message).to_string(), tokens));
    }
    let schemas = schema_tokens(tools, tokenizer);
    if !tools.is_empty() {
        by_role.insert("tool_schemas".into(), schemas);
    }
    let total: u64 = by_role.values().sum();
    let usable = ((context_tokens as f64) * (1.0 - reserve)).floor().max(1.0) as u64;
    let utilization = total as f64 / usable as f64;
    sizes.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(&b.0)));
    sizes.truncate(largest);
    Measure {
        by_role,
        total,
        context_tokens,
        reserve,
        usable,
        headroom: usable as i64 - total as i64,
        utilization,
        status: Status::of(utilization),
        largest: sizes,
    }
}

/// How to compact.
#[derive(Debug, Clone)]
pub struct CompactOptions {
    /// The context window.
    pub context_tokens: u64,
    /// The share kept for the next completion.
    pub reserve: f64,
    /// Stop as soon as utilization is at or under this.
    pub target: f64,
    /// The last turns (a turn starts at a user message, or at an assistant's next round
    /// of tool calls after the last one's results) are never touched.
    pub keep_turns: usize,
    /// Step 1 collapses tool results over this many tokens (a stub takes about 200).
    pub collapse_tokens: u64,
    /// Step 2 replaces tool results that were over this many tokens (before step 1) …
    pub placeholder_tokens: u64,
    /// … that are more than this many messages from the end.
    pub placeholder_age: usize,
    /// Lines of a collapsed result kept in its stub.
    pub stub_lines: usize,
}

impl Default for CompactOptions {
    fn default() -> Self {
        CompactOptions {
            context_tokens: 32_768,
            reserve: 0.20,
            target: 0.60,
            keep_turns: 6,
            collapse_tokens: 500,
            placeholder_tokens: 1_000,
            placeholder_age: 10,
            stub_lines: 8,
        }
    }
}

/// What compaction needs from its caller.
pub trait Services {
    /// Keeps `content` (a tool result's) and returns where: an artifact path.
    fn keep(&mut self, tool_call_id: &str, content: &[u8]) -> Result<String, String>;
    /// Summarizes `messages`; `None` when no summarizer is configured.
    fn summarize(&mut self, messages: &[Value]) -> Option<Result<String, String>>;
}

/// What one step did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// `collapse`, `placeholder`, `summarize` or `drop_tool_schemas`.
    pub step: &'static str,
    /// Messages changed (indices in the input), or tools dropped.
    pub changed: Vec<Value>,
    /// Tokens saved.
    pub tokens_saved: u64,
    /// Why it did nothing, when it did nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
}

/// What compaction did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Before.
    pub before: Measure,
    /// After.
    pub after: Measure,
    /// The target utilization.
    pub target: f64,
    /// Whether it was met.
    pub met_target: bool,
    /// The steps taken, in order.
    pub steps: Vec<Step>,
    /// Odd input and anything that could not be done.
    pub warnings: Vec<String>,
}

/// The compacted history, the tool schemas kept, and the report.
///
/// Linear in the history: every message is counted once, and again only when replaced.
pub fn compact(
    messages: Vec<Value>,
    tools: Vec<Value>,
    options: &CompactOptions,
    tokenizer: &Tokenizer,
    services: &mut dyn Services,
) -> (Vec<Value>, Vec<Value>, Report) {
    let measure_now = |messages: &[Value], tools: &[Value]| {
        measure(
            messages,
            tools,
            options.context_tokens,
            options.reserve,
            tokenizer,
            10,
        )
    };
    let before = measure_now(&messages, &tools);
    let tokens: Vec<u64> = messages
        .iter()
        .map(|m| message_tokens(m, tokenizer))
        .collect();
    let mut work = Work {
        total: tokens.iter().sum(),
        tokens,
        schemas: schema_tokens(&tools, tokenizer),
        messages,
        tools,
        usable: before.usable,
        tokenizer,
    };
    let mut warnings = Vec::new();
    let protected = protected(&work.messages, options.keep_turns);
    // Collapsed results: where their content is, and how large they were.
    let mut kept_at: BTreeMap<usize, (String, u64)> = BTreeMap::new();

    // (1) Collapse large tool results, oldest first.
    let mut collapse = Step::new("collapse");
    for (i, &untouchable) in protected.iter().enumerate() {
        if work.utilization() <= options.target {
            break;
        }
        let tokens = work.tokens[i];
        if untouchable || role(&work.messages[i]) != "tool" || tokens <= options.collapse_tokens {
            continue;
        }
        let text = content_text(&work.messages[i]);
        // A stub no smaller than the result (a short one at a low --collapse-tokens)
        // would grow the history: the result stays.
        let path_like = "x".repeat(EXPECTED_PATH_CHARS);
        if !work.smaller(i, stub(&text, tokens, &path_like, options.stub_lines)) {
            continue;
        }
        match services.keep(tool_call_id(&work.messages[i]), text.as_bytes()) {
            Ok(path) => {
                let stub = stub(&text, tokens, &path, options.stub_lines);
                if work.smaller(i, stub.clone()) {
                    collapse.tokens_saved += work.replace(i, stub);
                    collapse.changed.push(json!(i));
                }
                kept_at.insert(i, (path, tokens));
            }
            Err(e) => warnings.push(format!(
                "message {i}: not collapsed, its artifact could not be written ({e})"
            )),
        }
    }

    // (2) Old large tool results: a placeholder.
    let mut placeholder = Step::new("placeholder");
    let old_end = work.messages.len().saturating_sub(options.placeholder_age);
    for (i, &untouchable) in protected.iter().enumerate().take(old_end) {
        if work.utilization() <= options.target {
            break;
        }
        let original = kept_at
            .get(&i)
            .map_or(work.tokens[i], |(_, tokens)| *tokens);
        if untouchable
            || role(&work.messages[i]) != "tool"
            || original <= options.placeholder_tokens
        {
            continue;
        }
        let path = match kept_at.get(&i) {
            Some((path, _)) => Ok(path.clone()),
            None => services.keep(
                tool_call_id(&work.messages[i]),
                content_text(&work.messages[i]).as_bytes(),
            ),
        };
        match path {
            Ok(path) => {
                let text = format!(
                    "[briefly: an old tool result of {original} tokens was removed; it is whole in {path} (`briefly read {path}`)]"
                );
                if work.smaller(i, text.clone()) {
                    placeholder.tokens_saved += work.replace(i, text);
                    placeholder.changed.push(json!(i));
                }
            }
            Err(e) => warnings.push(format!(
                "message {i}: not replaced, its artifact could not be written ({e})"
            )),
        }
    }

    // (3) Summarize the middle turns: each stretch of them between protected messages
    // (a system message in the middle parts two), oldest first, until the target is met.
    let mut summarize = Step::new("summarize");
    let stretches = middles(&work.messages, &protected);
    if work.utilization() <= options.target {
        summarize.skipped = Some("the target was met".into());
    } else if stretches.is_empty() {
        summarize.skipped = Some("no middle turns that can be summarized whole".into());
    }
    // Messages gone from before the next stretch: each summary replaces a stretch.
    let mut gone = 0;
    // Why the last summary was not used, if it was not.
    let mut unused = None;
    for (first, past) in stretches {
        if summarize.skipped.is_some() || work.utilization() <= options.target {
            break;
        }
        let (start, end) = (first - gone, past - gone);
        match services.summarize(&work.messages[start..end]) {
            None => summarize.skipped = Some("no --summarizer-cmd given".into()),
            Some(Err(e)) => {
                summarize.skipped = Some(format!("the summarizer failed: {e}"));
                warnings.push(format!("summarizer failed: {e}"));
            }
            Some(Ok(summary)) => {
                let replaced: u64 = work.tokens[start..end].iter().sum();
                let draft = json!({"role": "user", "content": summary});
                let summary_tokens = message_tokens(&draft, tokenizer);
                let whole = serde_json::to_vec(&work.messages[start..end]).unwrap_or_default();
                if summary_tokens >= replaced {
                    let why = format!(
                        "the summary ({summary_tokens} tokens) is no smaller than the messages it would replace ({replaced} tokens)"
                    );
                    warnings.push(format!(
                        "summary not used for messages {first}–{}: {why}",
                        past - 1
                    ));
                    // Another stretch may still gain.
                    unused = Some(why);
                    continue;
                }
                // The messages summarized are kept whole, as collapsed results are.
                match services.keep("summarized", &whole) {
                    Err(e) => {
                        let why = format!("the messages it would replace could not be kept ({e})");
                        warnings.push(format!("summary not used: {why}"));
                        summarize.skipped = Some(why);
                    }
                    Ok(path) => {
                        // Numbered as the history given has them.
                        let replacement = json!({
                            "role": "user",
                            "content": format!("[briefly: a summary of messages {first}–{} of the conversation; they are whole in {path} (JSON)]\n{summary}", past - 1),
                        });
                        summarize.changed.extend((first..past).map(|i| json!(i)));
                        summarize.tokens_saved += work.splice(start..end, replacement);
                        gone += end - start - 1;
                    }
                }
            }
        }
    }
    if summarize.changed.is_empty() && summarize.skipped.is_none() {
        summarize.skipped = unused;
    }

    // (4) At critical, drop the schemas of tools not used in the last turns.
    let mut drop_schemas = Step::new("drop_tool_schemas");
    if Status::of(work.utilization()) < Status::Critical {
        drop_schemas.skipped = Some("not critical".into());
    } else if work.tools.is_empty() {
        drop_schemas.skipped = Some("no --tools given".into());
    } else {
        let protected_now = self::protected(&work.messages, options.keep_turns);
        let used: BTreeSet<String> = work
            .messages
            .iter()
            .zip(&protected_now)
            .filter(|(_, &p)| p)
            .flat_map(|(m, _)| {
                m.get("tool_calls")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
            })
            .filter_map(|call| call.pointer("/function/name").and_then(Value::as_str))
            .map(str::to_string)
            .collect();
        let (keep, dropped): (Vec<Value>, Vec<Value>) = std::mem::take(&mut work.tools)
            .into_iter()
            .partition(|tool| tool_name(tool).is_some_and(|name| used.contains(name)));
        drop_schemas.changed = dropped
            .iter()
            .filter_map(tool_name)
            .map(|n| json!(n))
            .collect();
        work.tools = keep;
        let schemas = schema_tokens(&work.tools, tokenizer);
        drop_schemas.tokens_saved = work.schemas.saturating_sub(schemas);
        work.schemas = schemas;
    }

    let after = measure_now(&work.messages, &work.tools);
    let met_target = after.utilization <= options.target;
    if !met_target {
        // What the last turns hold, which nothing may touch: the reason, often.
        let (results, tokens) = protected
            .iter()
            .zip(&work.messages)
            .zip(&work.tokens)
            .filter(|((&untouchable, m), _)| untouchable && role(m) == "tool")
            .fold((0u64, 0u64), |(n, sum), (_, &t)| (n + 1, sum + t));
        if results > 0 {
            warnings.push(format!(
                "the target was not met: {} of {tokens} tokens are in the last {} turns, which are never touched (--keep-turns)",
                briefly_core::counted(results, "tool result", "tool results"),
                options.keep_turns
            ));
        }
        warnings.push(format!(
            "the target utilization {:.1}% was not met: {:.1}% after every step (each step's `skipped` says why it did not do more)",
            options.target * 100.0,
            after.utilization * 100.0
        ));
    }
    let steps = vec![collapse, placeholder, summarize, drop_schemas];
    let report = Report {
        before,
        after,
        target: options.target,
        met_target,
        steps,
        warnings,
    };
    (work.messages, work.tools, report)
}

impl Step {
    fn new(step: &'static str) -> Step {
        Step {
            step,
            changed: Vec::new(),
            tokens_saved: 0,
            skipped: None,
        }
    }
}

/// The history being compacted, with its token counts kept up to date.
struct Work<'a> {
    messages: Vec<Value>,
    tokens: Vec<u64>,
    /// The sum of `tokens`.
    total: u64,
    tools: Vec<Value>,
    schemas: u64,
    usable: u64,
    tokenizer: &'a Tokenizer,
}

impl Work<'_> {
    fn utilization(&self) -> f64 {
        (self.total + self.schemas) as f64 / self.usable as f64
    }

    /// Replaces message `i`'s content; returns the tokens saved.
    fn replace(&mut self, i: usize, content: String) -> u64 {
        self.messages[i]["content"] = Value::String(content);
        let now = message_tokens(&self.messages[i], self.tokenizer);
        let before = std::mem::replace(&mut self.tokens[i], now);
        self.total = self.total - before + now;
        before.saturating_sub(now)
    }

    /// Whether message `i` with `content` in its place would take fewer tokens.
    fn smaller(&self, i: usize, content: String) -> bool {
        let mut message = self.messages[i].clone();
        message["content"] = Value::String(content);
        message_tokens(&message, self.tokenizer) < self.tokens[i]
    }

    /// Replaces a range of messages by one; returns the tokens saved.
    fn splice(&mut self, range: std::ops::Range<usize>, message: Value) -> u64 {
        let before: u64 = self.tokens[range.clone()].iter().sum();
        let now = message_tokens(&message, self.tokenizer);
        self.messages.splice(range.clone(), [message]);
        self.tokens.splice(range, [now]);
        self.total = self.total - before + now;
        before.saturating_sub(now)
    }
}

fn tool_call_id(message: &Value) -> &str {
    message
        .get("tool_call_id")
        .and_then(Value::as_str)
        .unwrap_or("tool")
}

fn tool_name(tool: &Value) -> Option<&str> {
    tool.pointer("/function/name")
        .or_else(|| tool.get("name"))
        .and_then(Value::as_str)
}

/// The text of a message's content: a string as it is, parts joined, anything else as JSON.
fn content_text(message: &Value) -> String {
    match message.get("content") {
        Some(Value::String(text)) => text.clone(),
        Some(other) => other.to_string(),
        None => String::new(),
    }
}

/// What an artifact's path takes, about, for a stub's size before the artifact is written.
const EXPECTED_PATH_CHARS: usize = 64;

/// A collapsed result: its first lines, its size and where the rest is.
fn stub(text: &str, tokens: u64, path: &str, lines: usize) -> String {
    let head: Vec<&str> = text.lines().take(lines).collect();
    let head = briefly_core::cut_str(&head.join("\n"), 600).into_owned();
    format!(
        "{head}\n[briefly: a tool result of {tokens} tokens ({} chars) was collapsed; it is whole in {path} (`briefly read {path}`)]",
        text.chars().count()
    )
}

/// Which messages compaction must not touch: system prompts, the first user message, and
/// everything from the start of the last `keep_turns` turns. A turn starts at a user
/// message, or at an assistant's next round of tool calls after the results of the last
/// (an agent's session has one user message and many rounds).
fn protected(messages: &[Value], keep_turns: usize) -> Vec<bool> {
    let starts: Vec<usize> = messages
        .iter()
        .enumerate()
        .filter(|&(i, m)| {
            role(m) == "user"
                || (role(m) == "assistant"
                    && call_ids(m).next().is_some()
                    && i > 0
                    && role(&messages[i - 1]) == "tool")
        })
        .map(|(i, _)| i)
        .collect();
    let last_turns_from = if keep_turns == 0 {
        messages.len()
    } else if starts.len() >= keep_turns {
        starts[starts.len() - keep_turns]
    } else {
        starts.first().copied().unwrap_or(0)
    };
    let first_user = messages.iter().position(|m| role(m) == "user");
    messages
        .iter()
        .enumerate()
        .map(|(i, m)| {
            matches!(role(m), "system" | "developer")
                || Some(i) == first_user
                || i >= last_turns_from
        })
        .collect()
}

/// The middle turns: each stretch of messages after the first user message that nothing
/// protects, from one protected message to the next, when it holds more than one message
/// and only whole turns (no tool call parted from its result).
fn middles(messages: &[Value], protected: &[bool]) -> Vec<(usize, usize)> {
    let Some(first_user) = messages.iter().position(|m| role(m) == "user") else {
        return Vec::new();
    };
    let mut stretches = Vec::new();
    let mut i = first_user + 1;
    while i < messages.len() {
        let Some(start) = (i..messages.len()).find(|&i| !protected[i]) else {
            break;
        };
        let end = (start..messages.len())
            .find(|&i| protected[i])
            .unwrap_or(messages.len());
        let range = &messages[start..end];
        let calls: BTreeSet<&str> = range.iter().flat_map(call_ids).collect();
        let results: BTreeSet<&str> = range
            .iter()
            .filter(|m| role(m) == "tool")
            .filter_map(|m| m.get("tool_call_id").and_then(Value::as_str))
            .collect();
        if end > start + 1 && calls == results {
            stretches.push((start, end));
        }
        i = end;
    }
    stretches
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_by_utilization() {
        assert_eq!(Status::of(0.59), Status::Nominal);
        assert_eq!(Status::of(0.60), Status::Watch);
        assert_eq!(Status::of(0.80), Status::Compress);
        assert_eq!(Status::of(0.95), Status::Critical);
        assert_eq!(reserve_for("reasoning"), Some(0.30));
        assert_eq!(reserve_for("huge"), None);
    }

    #[test]
    fn counts_text_parts_images_and_tool_calls() {
        let t = Tokenizer::Chars4;
        let message = json!({"role": "user", "content": [
            {"type": "text", "text": "abcdefgh"},
            {"type": "image_url", "image_url": {"url": "data:..."}}
        ]});
        assert_eq!(
            message_tokens(&message, &t),
            MESSAGE_OVERHEAD + 2 + IMAGE_TOKENS
        );
        let call = json!({"role": "assistant", "content": null, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "read", "arguments": "{\"p\":1}"}}
        ]});
        assert_eq!(message_tokens(&call, &t), MESSAGE_OVERHEAD + 1 + 2);
    }

    /// Keeps nothing anywhere, says it did; summarizes with what it is given.
    struct Fake(String);

    impl Services for Fake {
        fn keep(&mut self, _: &str, _: &[u8]) -> Result<String, String> {
            Ok("/kept".into())
        }
        fn summarize(&mut self, _: &[Value]) -> Option<Result<String, String>> {
            Some(Ok(self.0.clone()))
        }
    }

    /// A system prompt, then `turns` of a short question and answer.
    fn short_turns(turns: usize) -> Vec<Value> {
        let mut history = vec![json!({"role": "system", "content": "s"})];
        for i in 0..turns {
            history.push(json!({"role": "user", "content": format!("task {i}")}));
            history.push(json!({"role": "assistant", "content": format!("answer {i}")}));
        }
        history
    }

    #[test]
    fn no_step_grows_the_history() {
        let options = CompactOptions {
            context_tokens: 1_000,
            target: 0.0,
            keep_turns: 1,
            collapse_tokens: 0,
            placeholder_tokens: 0,
            placeholder_age: 0,
            ..CompactOptions::default()
        };
        let mut history = short_turns(2);
        for i in 0..5 {
            let call = format!("c{i}");
            history.push(json!({"role": "assistant", "content": null, "tool_calls": [
                {"id": call, "type": "function", "function": {"name": "f", "arguments": "{}"}}
            ]}));
            history.push(json!({"role": "tool", "tool_call_id": call, "content": "ok"}));
        }
        history.push(json!({"role": "user", "content": "last"}));
        // Short results: their stubs and placeholders would be larger; a long summary.
        let long = "a summary longer than what it summarizes ".repeat(50);
        let mut services = Fake(long);
        let (after, _, report) = compact(
            history.clone(),
            Vec::new(),
            &options,
            &Tokenizer::Chars4,
            &mut services,
        );
        assert_eq!(after, history);
        assert!(report.after.total <= report.before.total);
        assert!(
            report.steps.iter().all(|step| step.changed.is_empty()),
            "{report:?}"
        );
        let skipped = report.steps[2].skipped.as_deref().unwrap_or_default();
        assert!(
            skipped.contains("is no smaller than the messages it would replace"),
            "{skipped}"
        );
        assert!(report
            .warnings
            .iter()
            .any(|w| w.starts_with("summary not used")));
        assert!(report
            .warnings
            .iter()
            .any(|w| w.starts_with("the target utilization 0.0% was not met")));
    }

    #[test]
    fn check_names_the_message() {
        assert!(check(&json!({"role": "user"}))
            .unwrap_err()
            .0
            .contains("JSON array"));
        assert!(check(&json!([{"role": "user"}, 3]))
            .unwrap_err()
            .0
            .contains("message 1"));
        let warnings = check(&json!([
            {"role": "wizard", "content": "x"},
            {"role": "tool", "tool_call_id": "nope", "content": "y"}
        ]))
        .unwrap();
        assert!(warnings[0].contains("message 0: unknown role"));
        assert!(warnings[1].contains("message 1: tool result \"nope\" has no matching call"));
    }
}
