//! `briefly mcp`: the tools of [`super::tools`] served over stdio with rmcp.

use super::framing::{error_answer, request_ids, sniff_id, Batches, Collected, Frame, Framer};
use super::tools::{self, Called, ToolDef};
use crate::cli::Global;
use anyhow::{Context, Result};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ClientJsonRpcMessage, ContentBlock,
    Implementation, InitializeRequestParams, InitializeResult, JsonObject, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde::Deserialize;
use serde_json::Value;
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

const INSTRUCTIONS: &str = "briefly runs commands and reduces their output (and any file or text) to what matters within a per-result budget. Every result is one envelope: summary, stats, items, and when anything was left out, artifact_path (the whole raw output, for `read` and `grep`) and next_cursor (for `page`).";

/// The longest message the server reads; a longer one is answered with an error.
const MAX_MESSAGE_BYTES: usize = 16 << 20;

/// Serves until the client closes standard input.
pub fn serve(global: Global) -> Result<i32> {
    keep_memory_returned();
    if global.format == crate::cli::Format::Text {
        // Each result is the envelope twice, as text and as structured content: JSON, so
        // that both are what the budget measured.
        say!("briefly mcp: --format text is not used: tool results are JSON envelopes");
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the runtime")?;
    runtime.block_on(async {
        crate::groups::end_with_signals().context("handling signals")?;
        let server = Server {
            defaults: global,
            tools: tools::all().iter().map(to_rmcp_tool).collect(),
        };
        let stdio = GuardedStdio::start();
        let running = server
            .serve((stdio.input, stdio.output))
            .await
            .context("starting the MCP session")?;
        running.waiting().await.context("serving")?;
        // Every answer out before the process ends.
        stdio.reading.abort();
        let _ = stdio.writing.await;
        Ok::<_, anyhow::Error>(0)
    })?;
    // A call still reading what never ends (a named pipe no one writes to) is not waited
    // for: the client is gone, and the process ends with its threads.
    runtime.shutdown_background();
    Ok(0)
}

/// Has glibc's malloc give back what is freed past 128 KiB at the top of a heap, as it
/// does until a mapped block is freed: then it raises that to twice the block's size (its
/// dynamic thresholds, which setting this turns off; blocks of 128 KiB or more are then
/// mapped and unmapped each time). A long-running server, whose calls run on threads of
/// their own, held 28–32 MB after the 1,000 calls of `benches/mcp.sh` (3 runs), 18–20 MB
/// with this; a call took 3.4–3.6 ms then and 3.7–3.8 ms now. A threshold the user set
/// (`MALLOC_TRIM_THRESHOLD_`) stays.
fn keep_memory_returned() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if std::env::var_os("MALLOC_TRIM_THRESHOLD_").is_none() {
        // SAFETY: a C call with no preconditions; it sets the tunable under malloc's lock.
        unsafe {
            libc::mallopt(libc::M_TRIM_THRESHOLD, 128 << 10);
        }
    }
}

/// Standard input and output for rmcp behind bounded framing. A line that is not JSON or
/// a message over [`MAX_MESSAGE_BYTES`] is answered here with its JSON-RPC error: rmcp's
/// transport drops such a line without an answer, and the client would wait for ever. A
/// batch goes to rmcp a message at a time, and its answers go out together, as one
/// array. Every other line goes through as it came; answers go out a whole line at a
/// time, whoever wrote them.
struct GuardedStdio {
    /// What rmcp reads: the client's good lines.
    input: DuplexStream,
    /// What rmcp writes.
    output: DuplexStream,
    /// Reads the client's lines.
    reading: JoinHandle<()>,
    /// Writes standard output, up to the last answer.
    writing: JoinHandle<()>,
}

impl GuardedStdio {
    fn start() -> GuardedStdio {
        let (mut to_rmcp, input) = tokio::io::duplex(1 << 16);
        let (output, from_rmcp) = tokio::io::duplex(1 << 16);
        let (lines, mut to_stdout) = mpsc::channel::<Vec<u8>>(64);
        let writing = tokio::spawn(async move {
            let mut stdout = tokio::io::stdout();
            while let Some(line) = to_stdout.recv().await {
                if stdout.write_all(&line).await.is_err() || stdout.flush().await.is_err() {
                    break;
                }
            }
        });
        let batches = Arc::new(std::sync::Mutex::new(Batches::default()));
        let answers = lines.clone();
        let answered = batches.clone();
        tokio::spawn(async move {
            let mut from_rmcp = BufReader::new(from_rmcp);
            loop {
                let mut line = Vec::new();
                match from_rmcp.read_until(b'\n', &mut line).await {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                // An answer to a batch's request waits for the batch's others.
                let line = match gather(&answered, line) {
                    Some(line) => line,
                    None => continue,
                };
                if answers.send(line).await.is_err() {
                    break;
                }
            }
        });
        let reading = tokio::spawn(async move {
            let mut framer = Framer::new(tokio::io::stdin(), MAX_MESSAGE_BYTES, None);
            let mut phase = Phase::New;
            while let Ok(Some(frame)) = framer.next().await {
                let (to_rmcp_lines, answer) = match frame {
                    Frame::Line(line) => match serde_json::from_slice::<Value>(&line) {
                        Ok(Value::Array(messages)) => {
                            batch(messages, &mut phase, &batches)
                        }
                        // What rmcp reads is the message as parsed here: a key given twice
                        // once (serde_json's last), as it was checked.
                        Ok(message) => {
                            let checked = check(&message, &mut phase);
                            let answer = answer_of(&checked);
                            (passed(&checked, to_line(&message)), answer)
                        }
                        // Its id, when one can be made out, for the client to match.
                        Err(e) => (
                            Vec::new(),
                            Some(error_answer(
                                sniff_id(&line, &[]).unwrap_or(Value::Null),
                                -32700,
                                &parse_error(&e),
                            )),
                        ),
                    },
                    Frame::TooLong {
                        head, tail, bytes, ..
                    } => (
                        Vec::new(),
                        Some(error_answer(
                            sniff_id(&head, &tail).unwrap_or(Value::Null),
                            -32600,
                            &format!(
                                "message of {bytes} bytes is over the limit of {MAX_MESSAGE_BYTES}: not read"
                            ),
                        )),
                    ),
                };
                for line in to_rmcp_lines {
                    if to_rmcp.write_all(&line).await.is_err() {
                        return;
                    }
                }
                if let Some(answer) = answer {
                    if lines.send(to_line(&answer)).await.is_err() {
                        return;
                    }
                }
            }
        });
        GuardedStdio {
            input,
            output,
            reading,
            writing,
        }
    }
}

/// A batch of `messages`: each checked in turn as one alone would be. Returns the lines
/// for rmcp and, when rmcp answers none of them, the batch's answer made here (none for
/// a batch of notifications); the batch is opened before its lines go to rmcp, so that
/// its answers are gathered.
fn batch(
    messages: Vec<Value>,
    phase: &mut Phase,
    batches: &std::sync::Mutex<Batches>,
) -> (Vec<Vec<u8>>, Option<Value>) {
    if messages.is_empty() {
        let empty = error_answer(Value::Null, -32600, "an empty batch");
        return (Vec::new(), Some(empty));
    }
    let mut lines = Vec::new();
    let mut answers = Vec::new();
    let mut passed_on = Vec::new();
    for message in messages {
        let checked = check(&message, phase);
        answers.extend(answer_of(&checked));
        lines.extend(passed(&checked, to_line(&message)));
        if matches!(checked, Checked::Pass(_)) {
            passed_on.push(message);
        }
    }
    let awaited = request_ids(&passed_on);
    let answer = batches
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .open(answers, awaited);
    (lines, answer)
}

/// What a message that is not JSON is answered with: serde_json's reason, and what a
/// lone surrogate's escape (`\ud83d` without its other half, from a client that cut a
/// string inside a character) is, which its reason does not say.
fn parse_error(e: &serde_json::Error) -> String {
    let reason = e.to_string();
    if reason.contains("hex escape") || reason.contains("surrogate") {
        return format!(
            "parse error: {reason} (a lone UTF-16 surrogate escape, half of a character cut in two, is not JSON text)"
        );
    }
    format!("parse error: {reason}")
}

/// `line`, an answer of rmcp's, as it goes out: alone, or with the rest of its batch
/// once that is complete (`None` until then).
fn gather(batches: &std::sync::Mutex<Batches>, line: Vec<u8>) -> Option<Vec<u8>> {
    let mut batches = batches.lock().unwrap_or_else(|e| e.into_inner());
    if batches.is_empty() {
        return Some(line);
    }
    let Ok(answer) = serde_json::from_slice::<Value>(&line) else {
        return Some(line);
    };
    match batches.collect(answer) {
        Collected::Alone(_) => Some(line),
        Collected::Waiting => None,
        Collected::Complete(all) => Some(to_line(&all)),
    }
}

/// The lines for rmcp of a message checked so: the message (`line`), after a
/// `notifications/initialized` of the guard's when it is the request that opens the
/// session; none when the message is not passed on.
fn passed(checked: &Checked, line: Vec<u8>) -> Vec<Vec<u8>> {
    let mut line = line;
    if line.last() != Some(&b'\n') {
        line.push(b'\n');
    }
    match checked {
        // Before the request, what rmcp waits for first.
        Checked::Pass(true) => vec![
            b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n".to_vec(),
            line,
        ],
        Checked::Pass(false) => vec![line],
        _ => Vec::new(),
    }
}

/// The answer made here for a message checked so, if any.
fn answer_of(checked: &Checked) -> Option<Value> {
    match checked {
        Checked::Pong(id) => Some(serde_json::json!({"jsonrpc": "2.0", "id": id, "result": {}})),
        Checked::Refuse(id, code, why) => Some(error_answer(id.clone(), *code, why)),
        Checked::Pass(_) | Checked::Drop => None,
    }
}

/// A message as a line of JSON.
fn to_line(message: &Value) -> Vec<u8> {
    let mut line = message.to_string().into_bytes();
    line.push(b'\n');
    line
}

/// Where the session is: rmcp ends it at a first message other than `initialize`, or
/// at one other than `notifications/initialized` after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    New,
    /// `initialize` is answered; the client's `notifications/initialized` is awaited.
    Initializing,
    Ready,
}

/// What the guard does with a message that is JSON.
#[derive(Debug, PartialEq)]
enum Checked {
    /// To rmcp; after a `notifications/initialized` of the guard's when `true` (a client
    /// that sent a request without one).
    Pass(bool),
    /// A notification or an answer rmcp cannot take yet: nothing answers either.
    Drop,
    /// A ping before the session is initialized (allowed then): answered here.
    Pong(Value),
    /// Answered here with this error, as rmcp would not (it drops the message, answers
    /// with no id, with the wrong code, or ends the session).
    Refuse(Value, i64, String),
}

/// Checks a message the way JSON-RPC 2.0 and the session's phase ask, before rmcp sees it;
/// one rmcp would not read as any message it knows (a `_meta` that is no object) is
/// refused here with its id (rmcp's answer would have none, and a client waiting for
/// it would wait for ever).
fn check(message: &Value, phase: &mut Phase) -> Checked {
    let checked = check_shape(message, phase);
    if !matches!(checked, Checked::Pass(_)) {
        return checked;
    }
    // Read in place: a call's arguments may be megabytes of text.
    let Err(e) = ClientJsonRpcMessage::deserialize(message) else {
        return checked;
    };
    let Some(id) = message
        .get("id")
        .filter(|_| message.get("method").is_some())
    else {
        return Checked::Drop;
    };
    let meta = &message["params"]["_meta"];
    let why = match meta.is_null() || meta.is_object() {
        true => format!("invalid params: {e}"),
        false => "invalid params: params._meta must be an object".into(),
    };
    Checked::Refuse(id.clone(), -32602, why)
}

/// [`check`] by JSON-RPC's rules and the session's phase.
fn check_shape(message: &Value, phase: &mut Phase) -> Checked {
    let Value::Object(message) = message else {
        // A batch is read before (`batch`): this is one inside another, or no message.
        return Checked::Refuse(Value::Null, -32600, "a message is a JSON object".into());
    };
    // An id is a string, an integer or null; a message with another is answered as one
    // whose id could not be read.
    let id = match message.get("id") {
        Some(id @ (Value::String(_) | Value::Null)) => Some(id.clone()),
        Some(Value::Number(n)) if n.is_i64() || n.is_u64() => Some(Value::Number(n.clone())),
        Some(_) => {
            return Checked::Refuse(
                Value::Null,
                -32600,
                "an id is a string or an integer".into(),
            )
        }
        None => None,
    };
    // What rmcp answers without the id (so a batch waiting for it would never end):
    // a request's null id (MCP's may not be null), one past a signed 64-bit integer.
    if let (Some(id), true) = (&id, message.contains_key("method")) {
        let why = match id {
            Value::Null => Some("a request's id is a string or an integer, not null"),
            Value::Number(n) if !n.is_i64() => {
                Some("an id is an integer of at most 64 bits, signed")
            }
            _ => None,
        };
        if let Some(why) = why {
            return Checked::Refuse(id.clone(), -32600, why.into());
        }
    }
    let answer_to = id.clone().unwrap_or(Value::Null);
    if message.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Checked::Refuse(answer_to, -32600, "\"jsonrpc\" must be \"2.0\"".into());
    }
    let method = message.get("method").and_then(Value::as_str);
    let is_answer = message.contains_key("result") || message.contains_key("error");
    match (method, &id) {
        (None, Some(id)) if !is_answer => {
            return Checked::Refuse(id.clone(), -32600, "a request needs a method".into())
        }
        // Params are an object or an array (JSON-RPC's invalid request else); MCP names
        // its parameters, so an array (by position) is its invalid params. A
        // notification's are dropped unanswered.
        (Some(_), _) if message.get("params").is_some_and(|p| !p.is_object()) => {
            let code = match message.get("params") {
                Some(Value::Array(_)) => -32602,
                _ => -32600,
            };
            return match id {
                Some(id) => Checked::Refuse(id, code, "params must be an object".into()),
                None => Checked::Drop,
            };
        }
        _ => {}
    }
    // Before the session, any request but initialize and ping is refused below, as not
    // initialized: that says more than its params would.
    if let (Some("tools/call"), Some(id), false) = (method, &id, *phase == Phase::New) {
        let params = message.get("params").unwrap_or(&Value::Null);
        let named = params["name"].is_string();
        let arguments = params
            .get("arguments")
            .is_none_or(|a| a.is_object() || a.is_null());
        if !named || !arguments {
            return Checked::Refuse(
                id.clone(),
                -32602,
                "tools/call needs params.name, a tool's name, and params.arguments, an object"
                    .into(),
            );
        }
    }
    let request = method.is_some() && id.is_some();
    match (*phase, method) {
        (Phase::New, Some("initialize")) if request => {
            // rmcp answers an initialize it cannot read with an error and ends the
            // session: refused here, the session still waits for one it can read.
            let params = message.get("params").cloned().unwrap_or(Value::Null);
            if let Err(e) = serde_json::from_value::<InitializeRequestParams>(params) {
                return Checked::Refuse(
                    answer_to,
                    -32602,
                    format!(
                        "initialize needs params {{\"protocolVersion\": a string, \
                         \"capabilities\": an object, \"clientInfo\": {{\"name\", \
                         \"version\"}}}}: {e}"
                    ),
                );
            }
            *phase = Phase::Initializing;
            Checked::Pass(false)
        }
        (Phase::New | Phase::Initializing, Some("ping")) if request => Checked::Pong(answer_to),
        (Phase::New, _) if request => Checked::Refuse(
            answer_to,
            -32002,
            "the session is not initialized: send initialize first".into(),
        ),
        (Phase::New, _) => Checked::Drop,
        (Phase::Initializing, Some("notifications/initialized")) => {
            *phase = Phase::Ready;
            Checked::Pass(false)
        }
        (Phase::Initializing, _) if request => {
            *phase = Phase::Ready;
            Checked::Pass(true)
        }
        (Phase::Initializing, _) => Checked::Drop,
        (Phase::Ready, _) => Checked::Pass(false),
    }
}

/// A tool definition as rmcp's model has it; every result's structured content is an
/// envelope.
pub fn to_rmcp_tool(tool: &ToolDef) -> Tool {
    let schema: JsonObject = tool
        .input_schema
        .as_object()
        .cloned()
        .expect("an object schema");
    let output: JsonObject = tools::envelope_schema()
        .as_object()
        .cloned()
        .expect("an object schema");
    Tool::new(tool.name, tool.description.clone(), Arc::new(schema))
        .with_raw_output_schema(Arc::new(output))
        .with_annotations(
            ToolAnnotations::new()
                .read_only(tool.read_only)
                .destructive(!tool.read_only),
        )
}

/// A call's outcome as a tool result: the envelope as structured content and as text,
/// `isError` when the command or the tool failed.
pub fn to_result(called: Called) -> CallToolResult {
    match called {
        Called::Reply(called) => {
            let (reply, session) = *called;
            let text = reply.envelope.to_json();
            reply.record(&session, text.chars().count());
            let structured = serde_json::to_value(&reply.envelope).unwrap_or_default();
            let mut result = if reply.envelope.ok {
                CallToolResult::success(vec![ContentBlock::text(text)])
            } else {
                CallToolResult::error(vec![ContentBlock::text(text)])
            };
            result.structured_content = Some(structured);
            result
        }
        Called::Failed(message) => {
            CallToolResult::error(vec![ContentBlock::text(format!("briefly: {message}"))])
        }
    }
}

struct Server {
    defaults: Global,
    tools: Vec<Tool>,
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        InitializeResult::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("briefly", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.clone()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let name = request.name.to_string();
        let args = request.arguments.unwrap_or_default();
        let defaults = self.defaults.clone();
        // A call may run a command for minutes: off the thread that serves the others.
        // A cancelled call ends the command it runs.
        let cancel = Some(context.ct.clone());
        let called =
            tokio::task::spawn_blocking(move || tools::call(&name, &args, &defaults, cancel))
                .await
                .map_err(|e| ErrorData::internal_error(format!("the tool panicked: {e}"), None))?;
        match called {
            Some(called) => Ok(to_result(called).into()),
            None => Err(ErrorData::invalid_params(
                format!("no tool {:?}", request.name),
                None,
            )),
        }
    }
}
