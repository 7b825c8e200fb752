//! `briefly mcp`: the tools of [`super::tools`] served over stdio with rmcp.

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
use std::sync::Arc;

const INSTRUCTIONS: &str = "briefly runs commands and reduces their output (and any file or text) to what matters within a per-result budget. Every result is one envelope: summary, stats, items, and when anything was left out, artifact_path (the whole raw output, for `read` and `grep`) and next_cursor (for `page`).";

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
        let running = server
            .serve(rmcp::transport::stdio())
            .await
            .context("starting the MCP session")?;
        running.waiting().await.context("serving")?;
        Ok(0)
    })
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
                .destructive(false),
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
