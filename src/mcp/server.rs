//! `briefly mcp`: the tools of [`super::tools`] served over stdio with rmcp.

use super::framing::{error_answer, sniff_id, Frame, Framer};
use super::tools::{self, Called, ToolDef};
use crate::cli::Global;
use anyhow::{Context, Result};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    InitializeResult, JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities,
    ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
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
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the runtime")?;
    runtime.block_on(async {
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
        Ok(0)
    })
}

/// Standard input and output for rmcp behind bounded framing. A line that is not JSON, a
/// batch, or a message over [`MAX_MESSAGE_BYTES`] is answered here with its JSON-RPC
/// error: rmcp's transport drops such a line without an answer, and the client would wait
/// for ever. Every other line goes through as it came; answers go out a whole line at a
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
        let answers = lines.clone();
        tokio::spawn(async move {
            let mut from_rmcp = BufReader::new(from_rmcp);
            loop {
                let mut line = Vec::new();
                match from_rmcp.read_until(b'\n', &mut line).await {
                    Ok(0) | Err(_) => break,
                    Ok(_) if answers.send(line).await.is_err() => break,
                    Ok(_) => {}
                }
            }
        });
        let reading = tokio::spawn(async move {
            let mut framer = Framer::new(tokio::io::stdin(), MAX_MESSAGE_BYTES, None);
            while let Ok(Some(frame)) = framer.next().await {
                let refused = match frame {
                    Frame::Line(mut line) => match serde_json::from_slice::<Value>(&line) {
                        Ok(Value::Array(_)) => Some((
                            Value::Null,
                            -32600,
                            "a batch is not supported: send one message a line".to_string(),
                        )),
                        // An id with neither a method nor an answer: rmcp's error for it
                        // would have no id, and the client wait for ever.
                        Ok(Value::Object(message))
                            if message.contains_key("id")
                                && !["method", "result", "error"]
                                    .iter()
                                    .any(|key| message.contains_key(*key)) =>
                        {
                            Some((
                                message["id"].clone(),
                                -32600,
                                "a request needs a method".to_string(),
                            ))
                        }
                        Ok(_) => {
                            line.push(b'\n');
                            if to_rmcp.write_all(&line).await.is_err() {
                                break;
                            }
                            None
                        }
                        // Its id, when one can be made out, for the client to match.
                        Err(e) => Some((
                            sniff_id(&line, &[]).unwrap_or(Value::Null),
                            -32700,
                            format!("parse error: {e}"),
                        )),
                    },
                    Frame::TooLong {
                        head, tail, bytes, ..
                    } => Some((
                        sniff_id(&head, &tail).unwrap_or(Value::Null),
                        -32600,
                        format!(
                            "message of {bytes} bytes is over the limit of {MAX_MESSAGE_BYTES}: not read"
                        ),
                    )),
                };
                if let Some((id, code, message)) = refused {
                    let mut line = error_answer(id, code, &message).to_string().into_bytes();
                    line.push(b'\n');
                    if lines.send(line).await.is_err() {
                        break;
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
