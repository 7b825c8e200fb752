//! `briefly mcp-proxy -- SERVER…`: another MCP server behind the budget stage.
//!
//! JSON-RPC lines are forwarded both ways as they are, with five exceptions: a
//! `tools/call` result has its oversized text spilled to artifacts (bounded previews in
//! its place) under the per-result and per-turn budgets; a `tools/list` result gets the
//! proxy's `read` and `page` tools; calls to those two are answered here; a client's
//! batch goes to the server a message at a time, and its answers back as one array; and
//! whatever the server does wrong (a malformed or over-long message, an exit) becomes a
//! clean error for each request it left unanswered.
//!
//! rmcp's transports decode every message into its typed model (a message of a newer
//! protocol or with fields it does not know would not pass through unchanged) and drop
//! over-long lines without a word (the call would hang), so the proxy frames and routes
//! raw JSON itself and uses rmcp's model for what it says in its own name.

use super::framing::{self, error_answer, sniff_id, Batches, Collected, Frame, Framer};
use super::server::{to_result, to_rmcp_tool};
use super::tools::{self, ArtifactTool};
use crate::cli::Global;
use crate::content::{block_text, set_block_text};
use crate::render;
use crate::session::Session;
use anyhow::{bail, Context, Result};
use briefly_core::{
    json_chars, shrink_to_fit, ArtifactMeta, Budget, End, MetricsEvent, Pipeline, MIN_RESULT_CHARS,
};
use briefly_plain::{Spill, SpillOptions};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::process::Command;
use tokio::sync::{mpsc, watch};

/// Room a spilled text's stub takes beyond its preview (header, path, cursor, hint).
const STUB_OVERHEAD: usize = 1_000;
/// How long the server's output may still drain after it exited before its
/// unanswered requests are failed.
const DRAIN_GRACE: Duration = Duration::from_millis(300);
/// How long the server gets to exit after its input closes, and again after SIGTERM.
const EXIT_GRACE: Duration = Duration::from_secs(2);
/// Messages queued for a writer before the reader waits.
const QUEUE: usize = 16;
/// JSON-RPC error code for a server that failed (implementation-defined range).
const SERVER_FAILED: i64 = -32000;

/// Runs the proxy until the client closes its side.
pub fn run(global: Global, max_message_bytes: usize, command: &[String]) -> Result<i32> {
    if max_message_bytes < 1024 {
        bail!("--max-message-bytes {max_message_bytes} is too small (at least 1024)");
    }
    // The options are checked once here: each call makes its session the same way.
    let session = Session::new(global.clone())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the runtime")?;
    runtime.block_on(proxy(global, session.budget, max_message_bytes, command))
}

/// What the proxy keeps between messages.
#[derive(Default)]
struct State {
    /// The client's requests the server has not answered, by id (as JSON text).
    pending: HashMap<String, Pending>,
    /// Tool calls answered in the current turn (a turn ends when none is outstanding).
    turn_used_chars: usize,
    /// Tool calls outstanding: forwarded or handled here, not yet answered.
    calls_outstanding: usize,
    /// The proxy's own tools are renamed `briefly_…` when the server has a tool of that name.
    read_renamed: bool,
    page_renamed: bool,
    /// Why the server can no longer answer, once it cannot.
    gone: Option<String>,
    /// The client closed its side: the server's exit is expected, not news.
    closing: bool,
    /// The client's batches whose answers are being gathered.
    batches: Batches,
}

struct Pending {
    id: Value,
    method: String,
    /// A `tools/call`'s tool, for its result's metrics event.
    tool: Option<String>,
}

impl State {
    fn read_name(&self) -> &'static str {
        if self.read_renamed {
            "briefly_read"
        } else {
            "read"
        }
    }

    fn page_name(&self) -> &'static str {
        if self.page_renamed {
            "briefly_page"
        } else {
            "page"
        }
    }

    /// The character budget for the next tool result, counted into the turn.
    fn allowance(&self, budget: &Budget) -> usize {
        let left = budget.per_turn_chars.saturating_sub(self.turn_used_chars);
        budget.per_result_chars.min(left).max(MIN_RESULT_CHARS)
    }

    /// A tool call was answered with `chars` characters.
    fn answered(&mut self, chars: usize) {
        self.turn_used_chars += chars;
        self.calls_outstanding = self.calls_outstanding.saturating_sub(1);
        if self.calls_outstanding == 0 {
            self.turn_used_chars = 0;
        }
    }
}

/// Everything the two directions share.
struct Shared {
    state: Mutex<State>,
    to_client: mpsc::Sender<Vec<u8>>,
    defaults: Global,
    budget: Budget,
    server_argv: Vec<String>,
}

impl Shared {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic elsewhere cannot leave the state half-made: every change is one step.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sends `message` to the client: an answer to a request of a batch waits for the
    /// batch's others, and goes with them.
    async fn send(&self, message: Value) {
        let message = match self.state().batches.collect(message) {
            Collected::Alone(message) | Collected::Complete(message) => message,
            Collected::Waiting => return,
        };
        let mut line = message.to_string().into_bytes();
        line.push(b'\n');
        let _ = self.to_client.send(line).await;
    }

    async fn send_error(&self, id: Value, code: i64, message: String) {
        self.send(error_answer(id, code, &message)).await;
    }

    /// The server can no longer answer: every request it left is failed now, and every
    /// later one at once.
    async fn server_gone(&self, why: String) {
        let pending: Vec<Pending> = {
            let mut state = self.state();
            if state.gone.is_some() {
                return;
            }
            state.gone = Some(why.clone());
            state.calls_outstanding = 0;
            state.turn_used_chars = 0;
            if !state.closing {
                say!("briefly mcp-proxy: {why}");
            }
            state.pending.drain().map(|(_, p)| p).collect()
        };
        for request in pending {
            self.send_error(
                request.id,
                SERVER_FAILED,
                format!("{why}; {} got no answer", request.method),
            )
            .await;
        }
    }
}

async fn proxy(
    defaults: Global,
    budget: Budget,
    max_message_bytes: usize,
    argv: &[String],
) -> Result<i32> {
    // The server's group ends with the proxy, whatever signal ends that.
    crate::groups::end_with_signals().context("handling signals")?;
    let mut command = Command::new(&argv[0]);
    command
        .args(&argv[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        // Its own process group: what it starts (`npx`, a shell's children) ends with it.
        .process_group(0)
        .kill_on_drop(true);
    let (spawned, _held) = crate::groups::spawn_held(true, || command.spawn(), |c| c.id());
    let mut child = match spawned {
        Ok(child) => child,
        Err(e) => bail!("cannot start the MCP server {:?}: {e}", argv[0]),
    };
    let pid = child.id().map(|pid| pid as i32);
    let child_in = child.stdin.take().expect("piped");
    let child_out = child.stdout.take().expect("piped");
    let artifact_dir = Session::new(defaults.clone())?.artifact_dir().ok();

    let (to_client, client_queue) = mpsc::channel::<Vec<u8>>(QUEUE);
    let (to_child, child_queue) = mpsc::channel::<Vec<u8>>(QUEUE);
    let client_writer = tokio::spawn(write_all(tokio::io::stdout(), client_queue));
    let child_writer = tokio::spawn(write_all(child_in, child_queue));
    let shared = Arc::new(Shared {
        state: Mutex::new(State::default()),
        to_client,
        defaults,
        budget,
        server_argv: argv.to_vec(),
    });

    let (exited_tx, exited) = watch::channel::<Option<ExitStatus>>(None);
    let from_server = tokio::spawn(from_server(
        shared.clone(),
        Framer::new(child_out, max_message_bytes, artifact_dir),
        exited.clone(),
    ));
    let watcher = {
        let shared = shared.clone();
        async move {
            let status = child.wait().await;
            let _ = exited_tx.send(status.as_ref().ok().copied());
            tokio::time::sleep(DRAIN_GRACE).await;
            shared.server_gone(exit_reason(status.ok())).await;
        }
    };
    let watcher = tokio::spawn(watcher);

    from_client(
        &shared,
        Framer::new(tokio::io::stdin(), max_message_bytes, None),
        to_child,
    )
    .await;

    // The client is done: close the server's input, give it time to exit, then end it.
    shared.state().closing = true;
    let _ = child_writer.await;
    let mut exited = exited;
    let waited = tokio::time::timeout(EXIT_GRACE, exited.wait_for(Option::is_some))
        .await
        .is_ok();
    if !waited {
        if let Some(pid) = pid {
            // SAFETY: kill(2) of the process group we created, whose leader has not
            // been reaped.
            unsafe { libc::kill(-pid, libc::SIGTERM) };
        }
        if tokio::time::timeout(EXIT_GRACE, exited.wait_for(Option::is_some))
            .await
            .is_err()
        {
            watcher.abort();
        }
    }
    if let Some(pid) = pid {
        // What the server left running in its group (`sleep 60 &`) ends with the proxy.
        // SAFETY: kill(2) of the process group we created; none left is ESRCH.
        unsafe { libc::kill(-pid, libc::SIGTERM) };
    }
    from_server.abort();
    drop(shared);
    let _ = client_writer.await;
    Ok(0)
}

fn exit_reason(status: Option<ExitStatus>) -> String {
    match status {
        Some(status) => format!("the MCP server exited ({status})"),
        None => "the MCP server exited".to_string(),
    }
}

/// Writes each queued line, until the queue closes or the other end goes away.
async fn write_all(mut out: impl AsyncWrite + Unpin, mut queue: mpsc::Receiver<Vec<u8>>) {
    while let Some(line) = queue.recv().await {
        if out.write_all(&line).await.is_err() || out.flush().await.is_err() {
            // Keep draining so senders never block on a dead end.
            while queue.recv().await.is_some() {}
            return;
        }
    }
    let _ = out.shutdown().await;
}

/// The client's messages, to the server (or answered here).
async fn from_client(
    shared: &Arc<Shared>,
    mut framer: Framer<tokio::io::Stdin>,
    to_child: mpsc::Sender<Vec<u8>>,
) {
    loop {
        let frame = match framer.next().await {
            Ok(Some(frame)) => frame,
            Ok(None) | Err(_) => return,
        };
        let line = match frame {
            Frame::Line(line) => line,
            Frame::TooLong {
                head, tail, bytes, ..
            } => {
                let id = sniff_id(&head, &tail).unwrap_or(Value::Null);
                shared
                    .send_error(
                        id,
                        -32600,
                        format!(
                            "message of {bytes} bytes is over --max-message-bytes; not forwarded"
                        ),
                    )
                    .await;
                continue;
            }
        };
        let message: Value = match serde_json::from_slice(&line) {
            Ok(message) => message,
            Err(e) => {
                shared
                    .send_error(Value::Null, -32700, format!("parse error: {e}"))
                    .await;
                continue;
            }
        };
        let forwarded = match message {
            // A batch's messages go on one by one (the server may not take batches);
            // their answers go back together.
            Value::Array(messages) => {
                if messages.is_empty() {
                    let why = "an empty batch".to_string();
                    shared.send_error(Value::Null, -32600, why).await;
                    continue;
                }
                // What is no message is answered here, in the batch's answers, and not
                // sent on (a server may not survive it).
                let (messages, no_messages): (Vec<Value>, Vec<Value>) =
                    messages.into_iter().partition(Value::is_object);
                let refused = (no_messages.iter())
                    .map(|_| error_answer(Value::Null, -32600, "a message is a JSON object"))
                    .collect();
                // Opened before any is answered: complete from here only when none of it
                // waits for the server.
                let awaited = framing::request_ids(&messages);
                let opened = shared.state().batches.open(refused, awaited);
                if let Some(answers) = opened {
                    forward(shared, answers.to_string().into_bytes()).await;
                }
                let mut forwarded = true;
                for message in messages {
                    let line = message.to_string().into_bytes();
                    forwarded &= from_client_message(shared, &message, line, &to_child).await;
                }
                forwarded
            }
            message => from_client_message(shared, &message, line, &to_child).await,
        };
        if !forwarded {
            return;
        }
    }
}

/// One of the client's messages, `line` as it came: answered here (the proxy's own
/// tools, or any request once the server is gone), or sent on to the server. False when
/// the server's input is closed.
async fn from_client_message(
    shared: &Arc<Shared>,
    message: &Value,
    line: Vec<u8>,
    to_child: &mpsc::Sender<Vec<u8>>,
) -> bool {
    let method = message.get("method").and_then(Value::as_str);
    let id = message.get("id").filter(|_| method.is_some()).cloned();
    // The proxy's own tools answer here, even once the server is gone: its
    // artifacts can still be read.
    if let (Some("tools/call"), Some(id)) = (method, &id) {
        let tool = message["params"]["name"].as_str().unwrap_or_default();
        // Its `briefly_…` names are its own whatever the server's tools are (a client may
        // call a tool listed in an earlier session before it lists them in this one).
        let own = {
            let state = shared.state();
            match tool {
                "briefly_read" => Some(ArtifactTool::Read),
                "briefly_page" => Some(ArtifactTool::Page),
                "read" if !state.read_renamed => Some(ArtifactTool::Read),
                "page" if !state.page_renamed => Some(ArtifactTool::Page),
                _ => None,
            }
        };
        if let Some(which) = own {
            shared.state().calls_outstanding += 1;
            let args = message["params"]["arguments"]
                .as_object()
                .cloned()
                .unwrap_or_default();
            tokio::spawn(answer_here(shared.clone(), id.clone(), which, args));
            return true;
        }
    }
    let gone = shared.state().gone.clone();
    if let Some(why) = gone {
        if let Some(id) = id {
            shared.send_error(id, SERVER_FAILED, why).await;
        }
        return true;
    }
    match (method, id) {
        (Some("tools/call"), Some(id)) => {
            let mut state = shared.state();
            state.calls_outstanding += 1;
            let tool = message["params"]["name"].as_str().map(String::from);
            state.pending.insert(
                id.to_string(),
                Pending {
                    id,
                    method: "tools/call".into(),
                    tool,
                },
            );
        }
        (Some(method), Some(id)) => {
            shared.state().pending.insert(
                id.to_string(),
                Pending {
                    id,
                    method: method.to_string(),
                    tool: None,
                },
            );
        }
        (Some("notifications/cancelled"), None) => {
            let request = &message["params"]["requestId"];
            let mut state = shared.state();
            if let Some(p) = state.pending.remove(&request.to_string()) {
                if p.method == "tools/call" {
                    state.answered(0);
                }
            }
        }
        _ => {}
    }
    let mut line = line;
    line.push(b'\n');
    to_child.send(line).await.is_ok()
}

/// A call to the proxy's own `read` or `page`.
async fn answer_here(shared: Arc<Shared>, id: Value, which: ArtifactTool, args: tools::Args) {
    let mut defaults = shared.defaults.clone();
    // The proxy's budget, given: a page of a stub's cursor takes it, not the preview's
    // budget the cursor carries.
    defaults.max_chars = Some(shared.state().allowance(&shared.budget));
    defaults.context_tokens = None;
    let called =
        tokio::task::spawn_blocking(move || tools::call_artifact_tool(which, &args, &defaults))
            .await;
    let result = match called {
        Ok(called) => {
            let mut result = to_result(called);
            // Older protocol versions have no resultType: leave it out, as the server would.
            result.result_type = None;
            serde_json::to_value(result).unwrap_or_default()
        }
        Err(e) => {
            json!({"content": [{"type": "text", "text": format!("briefly: {e}")}], "isError": true})
        }
    };
    shared.state().answered(read_chars(&result));
    shared
        .send(json!({"jsonrpc": "2.0", "id": id, "result": result}))
        .await;
}

/// The server's messages, to the client.
async fn from_server(
    shared: Arc<Shared>,
    mut framer: Framer<tokio::process::ChildStdout>,
    mut exited: watch::Receiver<Option<ExitStatus>>,
) {
    loop {
        let frame = match framer.next().await {
            Ok(Some(frame)) => frame,
            Ok(None) | Err(_) => break,
        };
        match frame {
            Frame::Line(line) => from_server_line(&shared, line).await,
            Frame::TooLong {
                head,
                tail,
                bytes,
                artifact,
            } => {
                let where_ = match &artifact {
                    Ok(path) => format!(
                        "the whole message is in the artifact {path} (read it with the `{}` tool)",
                        shared.state().read_name()
                    ),
                    Err(e) => format!("it could not be kept ({e})"),
                };
                let why = format!(
                    "the MCP server sent a message of {bytes} bytes, over --max-message-bytes; {where_}"
                );
                fail_sniffed(&shared, &head, &tail, why).await;
            }
        }
    }
    // Its output closed: it exited, or will never answer. The exit status, if it comes
    // soon, says which.
    let status = tokio::time::timeout(DRAIN_GRACE, exited.wait_for(Option::is_some))
        .await
        .ok()
        .and_then(|s| s.ok().and_then(|s| *s));
    let why = match status {
        Some(status) => exit_reason(Some(status)),
        None => "the MCP server closed its output".to_string(),
    };
    shared.server_gone(why).await;
}

/// A message from the server that cannot be read: the request it answers, if its id can
/// be made out, gets an error; anything else is reported on stderr only.
async fn fail_sniffed(shared: &Shared, head: &[u8], tail: &[u8], why: String) {
    let pending =
        sniff_id(head, tail).and_then(|id| shared.state().pending.remove(&id.to_string()));
    match pending {
        Some(request) => {
            if request.method == "tools/call" {
                shared.state().answered(0);
            }
            shared.send_error(request.id, SERVER_FAILED, why).await;
        }
        None => say!("briefly mcp-proxy: {why} (answering no pending request; dropped)"),
    }
}

async fn from_server_line(shared: &Shared, line: Vec<u8>) {
    let message: Value = match serde_json::from_slice(&line) {
        Ok(message @ (Value::Object(_) | Value::Array(_))) => message,
        Ok(_) | Err(_) => {
            let head = &line[..line.len().min(4096)];
            let tail = &line[line.len().saturating_sub(4096)..];
            let why = format!(
                "the MCP server sent a malformed message: {}",
                briefly_core::cut_str(&String::from_utf8_lossy(head), 200)
            );
            fail_sniffed(shared, head, tail, why).await;
            return;
        }
    };
    let is_response = message.get("method").is_none()
        && (message.get("result").is_some() || message.get("error").is_some());
    if !is_response {
        // The server's own requests and notifications (and batches) go through as they are.
        forward(shared, line).await;
        return;
    }
    let key = message["id"].to_string();
    let pending = {
        let mut state = shared.state();
        match state.pending.remove(&key) {
            Some(p) => Some(p),
            // Already answered (the server was declared gone): never answer twice.
            None if state.gone.is_some() => return,
            None => None,
        }
    };
    match pending.as_ref().map(|p| p.method.as_str()) {
        Some("tools/call") => {
            let mut message = message;
            let allowance = shared.state().allowance(&shared.budget);
            let Staged { raw, shown } = match message.get_mut("result") {
                Some(result) => stage_result(shared, result, allowance),
                None => Staged {
                    raw: message.get("error").map_or(0, json_chars),
                    shown: bound_error(shared, &mut message, allowance),
                },
            };
            shared.state().answered(shown);
            // One event per result, by the server's tool: the noisiest tools are named. A
            // session (with `--tokenizer cl100k`, a tokenizer loaded) only when there is a
            // metrics file to write to.
            let metered = pending
                .as_ref()
                .filter(|_| shared.defaults.metrics.is_some());
            if let Some(pending) = metered {
                if let Ok(session) = Session::new(shared.defaults.clone()) {
                    session.metrics(MetricsEvent {
                        event: "tool_result_budget".into(),
                        tool: pending.tool.clone().unwrap_or_else(|| "mcp-proxy".into()),
                        tool_call_id: Some(pending.id.to_string()),
                        raw_chars: raw as u64,
                        inline_chars: shown as u64,
                        persisted: shown < raw,
                        ..MetricsEvent::default()
                    });
                }
            }
            shared.send(message).await;
        }
        Some("tools/list") => {
            let mut message = message;
            add_own_tools(shared, &mut message);
            shared.send(message).await;
        }
        // As it came, unless a batch gathers it.
        _ if shared.state().batches.is_empty() => forward(shared, line).await,
        _ => shared.send(message).await,
    }
}

async fn forward(shared: &Shared, mut line: Vec<u8>) {
    line.push(b'\n');
    let _ = shared.to_client.send(line).await;
}

/// Appends `read` and `page` to the last page of the server's tools.
fn add_own_tools(shared: &Shared, message: &mut Value) {
    let Some(result) = message.get_mut("result").and_then(Value::as_object_mut) else {
        return;
    };
    let last_page = result.get("nextCursor").is_none_or(Value::is_null);
    let Some(list) = result.get_mut("tools").and_then(Value::as_array_mut) else {
        return;
    };
    let (read, page) = {
        let mut state = shared.state();
        for tool in list.iter() {
            match tool["name"].as_str() {
                Some("read") => state.read_renamed = true,
                Some("page") => state.page_renamed = true,
                _ => {}
            }
        }
        (state.read_name(), state.page_name())
    };
    if last_page {
        for tool in [tools::read_tool(read), tools::page_tool(page)] {
            let mut tool = to_rmcp_tool(&tool);
            let description = format!(
                "{} (added by briefly mcp-proxy: long results of this server's tools are kept as artifacts)",
                tool.description.as_deref().unwrap_or_default()
            );
            tool.description = Some(description.into());
            list.push(serde_json::to_value(tool).unwrap_or_default());
        }
    }
}

/// The budget stage for one tool result: text content (a text block's, an embedded
/// resource's) over the allowance is spilled to artifacts, largest first, each replaced
/// by a bounded preview; when the previews of many blocks still take too much, the text
/// blocks are spilled together, as one preview. Structured content over what is left
/// is kept whole in an artifact and cut to fit. Images and binary resources pass
/// through. Returns the characters of text the result took, and now takes.
fn stage_result(shared: &Shared, result: &mut Value, allowance: usize) -> Staged {
    let read = read_chars(result);
    if read <= allowance {
        return Staged {
            raw: read,
            shown: read,
        };
    }
    let total = text_chars(result);
    let stub_chars = shared.budget.preview_chars + STUB_OVERHEAD;
    let stub_budget = stub_chars.min(allowance / 2).max(MIN_RESULT_CHARS / 2);
    let read = shared.state().read_name();
    let page = shared.state().page_name();
    let mut left = total;
    if let Some(blocks) = result.get_mut("content").and_then(Value::as_array_mut) {
        let texts: Vec<(usize, usize)> = blocks
            .iter()
            .enumerate()
            .filter_map(|(i, b)| block_text(b).map(|t| (i, t.chars().count())))
            .collect();
        let mut order: Vec<(usize, usize)> = texts
            .iter()
            .copied()
            .filter(|&(_, chars)| chars > stub_chars)
            .collect();
        order.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        // The large blocks' previews beside the small ones fit while they are few; past
        // that (or when small blocks alone are too many), one preview for all the text.
        // (Structured content is bounded after, in what the text leaves.)
        let text_total: usize = texts.iter().map(|&(_, chars)| chars).sum();
        let large: usize = order.iter().map(|&(_, chars)| chars).sum();
        let one_each = text_total - large + order.len() * stub_budget <= allowance;
        for (index, chars) in order.into_iter().filter(|_| one_each) {
            if left <= allowance {
                break;
            }
            let text = block_text(&blocks[index]).unwrap_or_default();
            let stub = spill_text(shared, text, stub_budget, read, page);
            left = left - chars + stub.chars().count();
            set_block_text(&mut blocks[index], stub);
        }
        if !one_each {
            let joined: Vec<&str> = texts
                .iter()
                .filter_map(|&(i, _)| block_text(&blocks[i]))
                .collect();
            let joined = joined.join("\n");
            let stub = spill_text(shared, &joined, stub_budget, read, page);
            left = left - text_total + stub.chars().count();
            let first = texts[0].0;
            blocks[first] = json!({"type": "text", "text": stub});
            let others: std::collections::HashSet<usize> =
                texts[1..].iter().map(|&(i, _)| i).collect();
            let mut index = 0;
            blocks.retain(|_| {
                index += 1;
                !others.contains(&(index - 1))
            });
        }
    }
    if left > allowance {
        if let Some(structured) = result.get_mut("structuredContent") {
            let chars = json_chars(structured);
            // A bounded preview, as for text: mostly it repeats the text content.
            let room = allowance
                .saturating_sub(left - chars)
                .min(stub_chars)
                .max(MIN_RESULT_CHARS / 2);
            if chars > room {
                let note = keep_json(shared, structured, "structuredContent");
                if let Some(shrunk) = shrink_to_fit(structured, room.saturating_sub(200)) {
                    *structured = shrunk;
                }
                left = left - chars + json_chars(structured);
                if let Some(blocks) = result.get_mut("content").and_then(Value::as_array_mut) {
                    left += note.chars().count();
                    blocks.push(json!({"type": "text", "text": note}));
                }
            }
        }
    }
    Staged {
        raw: total,
        shown: left,
    }
}

/// The characters of text a tool result took as the server sent it, and takes as staged.
#[derive(Debug, Clone, Copy)]
struct Staged {
    raw: usize,
    shown: usize,
}

/// A bounded preview of `text` (briefly's spill reducer), its whole kept as an artifact.
fn spill_text(shared: &Shared, text: &str, stub_chars: usize, read: &str, page: &str) -> String {
    let session = match Session::new(shared.defaults.clone()) {
        Ok(session) => session,
        Err(e) => {
            return briefly_core::cut_str(&format!("briefly: {e:#}\n{text}"), stub_chars)
                .into_owned()
        }
    };
    let options = SpillOptions::default();
    let mut config = session.config(
        "spill",
        serde_json::to_value(options).unwrap_or_default(),
        session.tee(None, shared.server_argv.clone()),
    );
    let hint_room = 300;
    config.budget = Budget {
        per_result_chars: stub_chars.saturating_sub(hint_room),
        ..session.budget
    };
    config.items_chars = Some(session.budget.preview_chars.min(stub_chars / 2));
    config.page_chars = Some(session.budget.per_result_chars);
    config.render = render::text;
    let mut pipeline = Pipeline::new(Spill::new(options), config);
    pipeline.push(text.as_bytes());
    let envelope = pipeline.finish(End::default());
    let mut stub = render::text(&envelope);
    if let Some(path) = &envelope.artifact_path {
        stub.push_str(&format!(
            "[briefly mcp-proxy: this result was {} chars; the whole of it is in the artifact above: call the `{read}` tool with {{\"artifact\": \"{path}\", \"offset\": N}} for lines from N on",
            text.chars().count()
        ));
        if envelope.next_cursor.is_some() {
            stub.push_str(&format!(", or `{page}` with the cursor above"));
        }
        stub.push_str("]\n");
    }
    stub
}

/// Keeps `value` (`what`, as the note names it) whole as an artifact; the note that
/// says where, or why not.
fn keep_json(shared: &Shared, value: &Value, what: &str) -> String {
    let session = Session::new(shared.defaults.clone());
    let kept = session
        .map_err(|e| e.to_string())
        .and_then(|session| session.artifact_dir().map_err(|e| e.to_string()))
        .and_then(|dir| {
            let mut writer = dir.create(None).map_err(|e| e.to_string())?;
            writer
                .write(value.to_string().as_bytes())
                .map_err(|e| e.to_string())?;
            let meta = ArtifactMeta {
                source: "mcp-proxy".into(),
                argv: shared.server_argv.clone(),
                lines: 1,
                ..ArtifactMeta::default()
            };
            writer.save(meta).map_err(|e| e.to_string())
        });
    match kept {
        Ok(saved) => format!(
            "[briefly mcp-proxy: {what} was cut to fit; the whole of it is in the artifact {} (JSON)]",
            saved.path.display()
        ),
        Err(e) => format!("[briefly mcp-proxy: {what} was cut to fit and could not be kept ({e})]"),
    }
}

/// An error answer from the server, bounded like a result: one cut to fit is kept
/// whole in an artifact first (a server's error often holds its stack trace), and its
/// message says where.
fn bound_error(shared: &Shared, message: &mut Value, allowance: usize) -> usize {
    let Some(error) = message.get_mut("error") else {
        return 0;
    };
    if json_chars(error) <= allowance {
        return json_chars(error);
    }
    let note = keep_json(shared, error, "the error");
    let room = allowance.saturating_sub(note.chars().count() + 2);
    if let Some(shrunk) = shrink_to_fit(error, room) {
        *error = shrunk;
    }
    if let Some(text) = error.get_mut("message") {
        let said = text.as_str().unwrap_or_default();
        *text = Value::String(format!("{said} {note}"));
    }
    json_chars(error)
}

/// The characters of a tool result: its text content (text blocks and embedded
/// resources' text) and its structured content.
fn text_chars(result: &Value) -> usize {
    let text: usize = result["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(block_text)
        .map(|text| text.chars().count())
        .sum();
    text + result.get("structuredContent").map_or(0, json_chars)
}

/// The characters of a tool result a model reads: [`text_chars`], but a text block that
/// is the structured content serialized (as MCP has a tool return it too, for clients
/// that read text only; `briefly mcp`'s envelope) counted once, as the structured content.
fn read_chars(result: &Value) -> usize {
    let Some(structured) = result.get("structuredContent") else {
        return text_chars(result);
    };
    let repeated: usize = result["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(block_text)
        .filter(|text| serializes(text, structured))
        .map(|text| text.chars().count())
        .sum();
    text_chars(result) - repeated
}

/// Whether `text` is `value` serialized (as JSON, in any layout).
fn serializes(text: &str, value: &Value) -> bool {
    text.trim_start().starts_with(['{', '['])
        && serde_json::from_str::<Value>(text).is_ok_and(|parsed| parsed == *value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[test]
    fn structured_content_repeated_as_text_is_read_once() {
        let envelope = json!({"ok": true, "summary": "3 lines"});
        let repeated = json!({"content": [{"type": "text", "text": envelope.to_string()}],
            "structuredContent": envelope});
        let chars = envelope.to_string().chars().count();
        assert_eq!(
            (text_chars(&repeated), read_chars(&repeated)),
            (2 * chars, chars)
        );
        // Pretty, it is the same value; another text is read besides it.
        let pretty = serde_json::to_string_pretty(&envelope).unwrap();
        let laid_out =
            json!({"content": [{"type": "text", "text": pretty}], "structuredContent": envelope});
        assert_eq!(read_chars(&laid_out), chars);
        let other = json!({"content": [{"type": "text", "text": "{\"ok\": false}"}], "structuredContent": envelope});
        assert_eq!(read_chars(&other), text_chars(&other));
        let plain = json!({"content": [{"type": "text", "text": "hello"}]});
        assert_eq!(read_chars(&plain), 5);
    }

    fn shared(artifacts: &std::path::Path) -> Shared {
        let dir = artifacts.to_str().unwrap();
        let cli = crate::cli::Cli::parse_from(["briefly", "--artifact-dir", dir, "budget"]);
        let (to_client, _) = mpsc::channel(1);
        Shared {
            state: Mutex::new(State::default()),
            to_client,
            budget: Session::new(cli.global.clone()).unwrap().budget,
            defaults: cli.global,
            server_argv: vec!["server".into()],
        }
    }

    #[test]
    fn an_oversized_result_is_spilled_its_image_kept() {
        let dir = tempfile::tempdir().unwrap();
        let shared = shared(&dir.path().join("artifacts"));
        let text: String = (1..=5_000).map(|i| format!("line {i}\n")).collect();
        let image = json!({"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"});
        let mut result = json!({
            "content": [{"type": "text", "text": text}, image],
            "structuredContent": {"result": text},
            "isError": false
        });
        let allowance = shared.budget.per_result_chars;
        let shown = stage_result(&shared, &mut result, allowance).shown;
        assert!(shown <= allowance, "{shown} > {allowance}");
        assert_eq!(shown, text_chars(&result));
        assert_eq!(result["content"][1], image);
        assert_eq!(result["isError"], false);
        let stub = result["content"][0]["text"].as_str().unwrap();
        let path = stub
            .split("\"artifact\": \"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap();
        assert_eq!(std::fs::read_to_string(path).unwrap(), text);
        // Structured content stays the shape it was, cut, and is kept whole apart.
        assert!(result["structuredContent"]["result"].is_string());
        let note = result["content"][2]["text"].as_str().unwrap();
        let kept = note
            .split("artifact ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        let whole: Value = serde_json::from_slice(&std::fs::read(kept).unwrap()).unwrap();
        assert_eq!(whole["result"], text);
    }

    #[test]
    fn a_result_read_once_within_the_allowance_passes_as_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let shared = shared(&dir.path().join("artifacts"));
        // `briefly mcp`'s envelope, as text and as structured content: within the
        // allowance once, not twice.
        let envelope = json!({"ok": true, "summary": "x".repeat(1_000)});
        let text = envelope.to_string();
        let mut result =
            json!({"content": [{"type": "text", "text": text}], "structuredContent": envelope});
        let before = result.clone();
        let once = read_chars(&result);
        let staged = stage_result(&shared, &mut result, once + 10);
        assert_eq!((staged.raw, staged.shown), (once, once));
        assert_eq!(result, before);
    }

    /// The artifact a stub or note names (`"artifact": "PATH"` or `artifact PATH `).
    fn artifact_in(text: &str) -> String {
        let rest = match text.split_once("\"artifact\": \"") {
            Some((_, rest)) => rest.split('"').next(),
            None => text
                .split("artifact ")
                .nth(1)
                .and_then(|r| r.split(' ').next()),
        };
        rest.unwrap_or_else(|| panic!("no artifact in {text}"))
            .to_string()
    }

    #[test]
    fn many_blocks_are_spilled_together_when_their_previews_would_not_fit() {
        let dir = tempfile::tempdir().unwrap();
        let shared = shared(&dir.path().join("artifacts"));
        let blocks: Vec<Value> = (0..50)
            .map(|i| json!({"type": "text", "text": format!("block {i} ").repeat(800)}))
            .collect();
        let image = json!({"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"});
        let mut content = blocks.clone();
        content.insert(1, image.clone());
        let mut result = json!({ "content": content });
        let shown = stage_result(&shared, &mut result, 2_000).shown;
        assert!(shown <= 2_000, "{shown}");
        assert_eq!(shown, text_chars(&result));
        let content = result["content"].as_array().unwrap();
        assert_eq!(
            content.len(),
            2,
            "one preview for the text, the image as it was"
        );
        assert_eq!(content[1], image);
        let path = artifact_in(content[0]["text"].as_str().unwrap());
        let texts: Vec<&str> = blocks.iter().map(|b| b["text"].as_str().unwrap()).collect();
        assert_eq!(std::fs::read_to_string(path).unwrap(), texts.join("\n"));
    }

    #[test]
    fn small_blocks_stay_as_they_are_beside_one_spilled_and_many_are_spilled_together() {
        let dir = tempfile::tempdir().unwrap();
        let shared = shared(&dir.path().join("artifacts"));
        let small = |i: usize| json!({"type": "text", "text": format!("note {i}")});
        let mut content: Vec<Value> = (0..30).map(small).collect();
        content.push(json!({"type": "text", "text": "line\n".repeat(20_000)}));
        let mut result = json!({ "content": content });
        let allowance = shared.budget.per_result_chars;
        assert!(stage_result(&shared, &mut result, allowance).shown <= allowance);
        let blocks = result["content"].as_array().unwrap();
        assert_eq!(blocks.len(), 31);
        assert_eq!(blocks[..30], (0..30).map(small).collect::<Vec<_>>()[..]);
        // Small blocks too many for the budget: together, as one preview.
        let many: Vec<Value> = (0..400)
            .map(|i| json!({"type": "text", "text": format!("{i} ").repeat(50)}))
            .collect();
        let mut result = json!({ "content": many });
        let shown = stage_result(&shared, &mut result, allowance).shown;
        assert!(shown <= allowance, "{shown}");
        assert_eq!(result["content"].as_array().unwrap().len(), 1);
    }

    #[test]
    fn an_embedded_resources_text_is_spilled_as_text_is() {
        let dir = tempfile::tempdir().unwrap();
        let shared = shared(&dir.path().join("artifacts"));
        let text = "R".repeat(500_000);
        let resource = json!({"uri": "file:///r.txt", "mimeType": "text/plain", "text": text});
        let mut result = json!({"content": [{"type": "resource", "resource": resource}]});
        let shown = stage_result(&shared, &mut result, 2_000).shown;
        assert!(shown <= 2_000, "{shown}");
        let block = &result["content"][0];
        assert_eq!(block["resource"]["uri"], "file:///r.txt");
        let path = artifact_in(block["resource"]["text"].as_str().unwrap());
        assert_eq!(std::fs::read_to_string(path).unwrap(), text);
    }

    #[test]
    fn a_long_error_is_kept_whole_before_it_is_cut() {
        let dir = tempfile::tempdir().unwrap();
        let shared = shared(&dir.path().join("artifacts"));
        let error = json!({"code": -32000, "message": format!("trace {}", "M".repeat(50_000))});
        let mut message = json!({"jsonrpc": "2.0", "id": 2, "error": error});
        let shown = bound_error(&shared, &mut message, 2_000);
        assert!(shown <= 2_000, "{shown}");
        assert_eq!(message["error"]["code"], -32000);
        let said = message["error"]["message"].as_str().unwrap();
        let whole: Value =
            serde_json::from_slice(&std::fs::read(artifact_in(said)).unwrap()).unwrap();
        assert_eq!(whole, error);
    }

    #[test]
    fn a_result_that_fits_is_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let shared = shared(&dir.path().join("artifacts"));
        let original =
            json!({"content": [{"type": "text", "text": "small"}], "structuredContent": {"n": 1}});
        let mut result = original.clone();
        assert_eq!(stage_result(&shared, &mut result, 1_000).shown, 5 + 7);
        assert_eq!(result, original);
        assert!(shared.state().pending.is_empty());
    }

    #[test]
    fn overlapping_calls_share_the_turn() {
        let budget = Budget::default();
        let mut state = State {
            calls_outstanding: 3,
            ..State::default()
        };
        assert_eq!(state.allowance(&budget), budget.per_result_chars);
        state.answered(30_000);
        assert_eq!(state.allowance(&budget), budget.per_turn_chars - 30_000);
        state.answered(9_000);
        assert_eq!(state.allowance(&budget), MIN_RESULT_CHARS, "the floor");
        state.answered(1_000);
        // None outstanding: the turn is over.
        assert_eq!(state.turn_used_chars, 0);
        assert_eq!(state.allowance(&budget), budget.per_result_chars);
    }
}
