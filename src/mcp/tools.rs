//! The tools `briefly mcp` serves: `run`, one per reducer ([`REDUCER_TOOLS`]), and
//! `page`, `read`, `grep` over artifacts. Each call is one of briefly's own commands
//! under a session of its own, and answers with the command's [`Reply`].

use crate::cli::{Format, Global};
use crate::cmd::{self, run::Ran, run::Spawn, run::StderrMode, Reply};
use crate::session::Session;
use anyhow::{anyhow, bail, Result};
use serde_json::{json, Map, Value};
use std::io::Cursor;
use std::path::PathBuf;

/// A tool's arguments, as the client sent them.
pub type Args = Map<String, Value>;

/// A reducer offered as a tool over a file or inline text. Adding a reducer to the MCP
/// server is one entry in [`REDUCER_TOOLS`].
pub struct ReducerTool {
    /// The tool's name (letters, digits and `_`, as MCP clients expect).
    pub name: &'static str,
    /// The reducer's name in [`crate::reducers::REDUCERS`].
    pub reducer: &'static str,
    /// What it is for and when to use it: the model reads this to choose a tool.
    pub description: &'static str,
    /// The JSON schema `properties` of the reducer's options (beside `path`, `text` and
    /// `context_tokens`, which every reducer tool takes).
    pub options_schema: fn() -> Value,
    /// The reducer's options, as a cursor keeps them, from the tool's arguments.
    pub options: fn(&Args) -> Result<Value>,
}

/// Every reducer the MCP server offers as a tool, in the order tools/list shows them.
pub const REDUCER_TOOLS: &[ReducerTool] = &[
    ReducerTool {
        name: "text",
        reducer: "text",
        description: "Reduce any log or text output (build logs, server logs, command output) to what matters: repeated lines folded into templates with counts, errors and warnings and rare lines first, each with its line number. Use it on a log file or on text you already have; use `run` to run a command and reduce its output in one step.",
        options_schema: || {
            json!({
                "level": {"type": "string", "enum": ["trace", "debug", "info", "warn", "error", "fatal"], "description": "Only records at or above this level."},
                "since": {"type": "string", "description": "Only records at or after this time: RFC 3339, `YYYY-MM-DD`, epoch seconds, or an age such as `2h`."},
                "until": {"type": "string", "description": "Only records before this time (same forms as since)."},
                "grep": {"type": "string", "description": "Only records matching this regular expression."},
                "top": {"type": "integer", "minimum": 0, "default": 10, "description": "Templates listed in stats.top_templates."},
                "context": {"type": "integer", "minimum": 0, "default": 0, "description": "Lines of context around each error or warning shown."}
            })
        },
        options: |args| {
            let options = cmd::text::options(
                string(args, "level")?.as_deref(),
                string(args, "since")?.as_deref(),
                string(args, "until")?.as_deref(),
                string(args, "grep")?,
                uint(args, "top")?.unwrap_or(10) as usize,
                uint(args, "context")?.unwrap_or(0) as usize,
                None,
            )?;
            Ok(serde_json::to_value(options)?)
        },
    },
    ReducerTool {
        name: "diff",
        reducer: "diff",
        description: "Reduce a unified diff (git diff/show/format-patch, diff -u): every changed file with its change counts first, then the hunks that matter as valid patches. Use it on a patch file or diff text; pass `file` to see all hunks of one file.",
        options_schema: || {
            json!({
                "stat_only": {"type": "boolean", "default": false, "description": "The map of files only, no patches."},
                "paths": {"type": "array", "items": {"type": "string"}, "description": "Globs of paths to show first."},
                "max_hunk_lines": {"type": "integer", "minimum": 1, "default": 400, "description": "Hunks longer than this many lines are left out of a file's patch (and counted)."},
                "context": {"type": "integer", "minimum": 0, "description": "Keep at most this many context lines around each hunk's changes."},
                "file": {"type": "string", "description": "Only this file's diff, all its hunks."}
            })
        },
        options: |args| {
            let options = briefly_diff::DiffOptions {
                stat_only: boolean(args, "stat_only")?.unwrap_or(false),
                paths: strings(args, "paths")?.unwrap_or_default(),
                max_hunk_lines: uint(args, "max_hunk_lines")?.unwrap_or(400) as usize,
                context: uint(args, "context")?.map(|n| n as usize),
                file: string(args, "file")?,
            };
            Ok(serde_json::to_value(options)?)
        },
    },
    ReducerTool {
        name: "spill",
        reducer: "spill",
        description: "Bound any output without interpreting it: its first and last lines and the lines that look like errors, the whole kept as an artifact to `read`, `grep` or `page`. Use it for output no other reducer fits (JSON, CSV, binary-ish dumps).",
        options_schema: || json!({}),
        options: |_| Ok(Value::Null),
    },
];

/// The properties every reducer tool takes besides its options.
fn input_properties() -> Value {
    json!({
        "path": {"type": "string", "description": "The file to reduce (absolute, or relative to the server's working directory). Give this or `text`."},
        "text": {"type": "string", "description": "The text to reduce, inline. Give this or `path`."},
        "context_tokens": context_tokens_schema()
    })
}

fn context_tokens_schema() -> Value {
    json!({"type": "integer", "minimum": 1, "description": "The model's context window in tokens, for this call: sets the per-result budget (default: the server's --context-tokens)."})
}

/// A tool's definition: name, description, input schema, whether it only reads.
pub struct ToolDef {
    pub name: &'static str,
    pub description: String,
    pub input_schema: Value,
    pub read_only: bool,
}

fn object_schema(properties: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": properties, "required": required, "additionalProperties": false})
}

/// `run`'s definition: the reducers it may be given are those with a tool.
pub fn run_tool() -> ToolDef {
    let reducers: Vec<&str> = REDUCER_TOOLS.iter().map(|t| t.reducer).collect();
    ToolDef {
        name: "run",
        description: "Run a command and get its output reduced to what matters, within the per-result budget, with the exit code kept. The reducer is picked from the command (git diff → diff, anything else → text) unless given. Use it instead of a plain shell tool whenever output may be long: builds, tests, logs, diffs. Nothing is lost: when anything is left out, `artifact_path` holds the whole output for `read`/`grep` and `next_cursor` pages the rest. The command runs without a shell: for pipes or redirections pass [\"sh\", \"-c\", \"…\"] and name the reducer.".into(),
        input_schema: object_schema(
            json!({
                "command": {"type": "array", "items": {"type": "string"}, "minItems": 1, "description": "The program and its arguments, e.g. [\"cargo\", \"test\"]."},
                "reducer": {"type": "string", "enum": reducers, "description": "The reducer [default: picked from the command]."},
                "timeout": {"type": "string", "description": "Kill the command's process group after this long, e.g. 30s or 5m (exit code 124)."},
                "cwd": {"type": "string", "description": "Run it in this directory [default: the server's]."},
                "stderr": {"type": "string", "enum": ["auto", "merge", "apart"], "default": "auto", "description": "The command's standard error: merged into the reduction (as 2>&1), bounded apart in the envelope's `stderr`, or auto (merged for cargo-test and docker, whose sources write results there)."},
                "context_tokens": context_tokens_schema()
            }),
            &["command"],
        ),
        read_only: false,
    }
}

/// `page`'s definition.
pub fn page_tool(name: &'static str) -> ToolDef {
    ToolDef {
        name,
        description: "The next items of an earlier result: pass its `next_cursor`. The same cursor always gives the same page; nothing is re-run.".into(),
        input_schema: object_schema(
            json!({
                "cursor": {"type": "string", "description": "A `next_cursor` from an earlier result."},
                "context_tokens": context_tokens_schema()
            }),
            &["cursor"],
        ),
        read_only: true,
    }
}

/// `read`'s definition.
pub fn read_tool(name: &'static str) -> ToolDef {
    ToolDef {
        name,
        description: "Lines of an artifact (an earlier result's `artifact_path`: the whole raw output) from a line on, bounded by the per-result budget; the result's `next_cursor` reads on.".into(),
        input_schema: object_schema(
            json!({
                "artifact": {"type": "string", "description": "The artifact's path (`artifact_path`)."},
                "offset": {"type": "integer", "minimum": 1, "default": 1, "description": "The first line to read (1-based)."},
                "limit": {"type": "integer", "minimum": 1, "description": "At most this many lines."},
                "context_tokens": context_tokens_schema()
            }),
            &["artifact"],
        ),
        read_only: true,
    }
}

/// `grep`'s definition.
pub fn grep_tool() -> ToolDef {
    ToolDef {
        name: "grep",
        description: "Lines of an artifact (an earlier result's `artifact_path`) that match a regular expression, with line numbers, optional context and the total count. Use it to find something in output that was left out.".into(),
        input_schema: object_schema(
            json!({
                "artifact": {"type": "string", "description": "The artifact's path (`artifact_path`)."},
                "pattern": {"type": "string", "description": "A regular expression (Rust regex syntax)."},
                "context": {"type": "integer", "minimum": 0, "default": 0, "description": "Lines of context around each match."},
                "ignore_case": {"type": "boolean", "default": false, "description": "Match without regard to case."},
                "context_tokens": context_tokens_schema()
            }),
            &["artifact", "pattern"],
        ),
        read_only: true,
    }
}

/// Every tool `briefly mcp` serves.
pub fn all() -> Vec<ToolDef> {
    let mut tools = vec![run_tool()];
    for tool in REDUCER_TOOLS {
        let mut properties = input_properties();
        let options = (tool.options_schema)();
        properties
            .as_object_mut()
            .expect("an object")
            .extend(options.as_object().cloned().unwrap_or_default());
        tools.push(ToolDef {
            name: tool.name,
            description: tool.description.into(),
            input_schema: object_schema(properties, &[]),
            read_only: true,
        });
    }
    tools.extend([page_tool("page"), read_tool("read"), grep_tool()]);
    tools
}

/// The JSON schema of a result's structured content: the envelope.
pub fn envelope_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "ok": {"type": "boolean"},
            "source": {"type": "string"},
            "summary": {"type": "string"},
            "stats": {},
            "items": {"type": "array"},
            "total_items": {"type": "integer"},
            "returned_items": {"type": "integer"},
            "truncated": {"type": "boolean"},
            "next_cursor": {"type": ["string", "null"]},
            "artifact_path": {"type": ["string", "null"]},
            "preview": {"type": "string"},
            "exit_code": {"type": ["integer", "null"]},
            "raw": {"type": "object"},
            "warnings": {"type": "array", "items": {"type": "string"}},
            "item_offset": {"type": "integer"},
            "artifact_expires": {"type": "string"},
            "stderr": {"type": "object"}
        },
        "required": ["ok", "source", "summary", "items", "total_items", "returned_items", "truncated", "next_cursor", "artifact_path"]
    })
}

/// What a call came to: the command's reply, or why it could not give one.
pub enum Called {
    Reply(Box<(Reply, Session)>),
    /// The tool failed before any envelope (bad arguments, a missing file, a command
    /// that could not start): the message for the model.
    Failed(String),
}

/// Calls the tool `name` with `args`, under `defaults` for whatever the call does not
/// set. `None` when there is no such tool. Blocking: it may run a command.
pub fn call(name: &str, args: &Args, defaults: &Global, cancel: Cancel) -> Option<Called> {
    let known = all().into_iter().find(|tool| tool.name == name)?;
    Some(
        match check_arguments(&known, args).and_then(|()| dispatch(name, args, defaults, cancel)) {
            Ok(called) => called,
            Err(e) => Called::Failed(format!("{e:#}")),
        },
    )
}

/// Calls `read` or `page` under the names the proxy gave them.
pub fn call_artifact_tool(which: ArtifactTool, args: &Args, defaults: &Global) -> Called {
    let (tool, name) = match which {
        ArtifactTool::Read => (read_tool("read"), "read"),
        ArtifactTool::Page => (page_tool("page"), "page"),
    };
    match check_arguments(&tool, args).and_then(|()| dispatch(name, args, defaults, None)) {
        Ok(called) => called,
        Err(e) => Called::Failed(format!("{e:#}")),
    }
}

/// The two tools the proxy adds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArtifactTool {
    Read,
    Page,
}

/// Arguments the schema does not name are an error, not something silently ignored.
fn check_arguments(tool: &ToolDef, args: &Args) -> Result<()> {
    let properties = tool.input_schema["properties"]
        .as_object()
        .expect("an object");
    let unknown: Vec<&str> = args
        .keys()
        .filter(|k| !properties.contains_key(*k))
        .map(String::as_str)
        .collect();
    if !unknown.is_empty() {
        bail!(
            "unknown argument(s) {unknown:?} for tool {:?}; it takes {:?}",
            tool.name,
            properties.keys().collect::<Vec<_>>()
        );
    }
    for required in tool.input_schema["required"]
        .as_array()
        .into_iter()
        .flatten()
    {
        let key = required.as_str().unwrap_or_default();
        if !args.contains_key(key) {
            bail!("tool {:?} needs the argument {key:?}", tool.name);
        }
    }
    Ok(())
}

/// Cancelled when the client gives up on the call (a command run is then ended).
pub type Cancel = Option<tokio_util::sync::CancellationToken>;

fn dispatch(name: &str, args: &Args, defaults: &Global, cancel: Cancel) -> Result<Called> {
    let session = session_for(defaults, args)?;
    let reply = match name {
        "run" => {
            let command = strings(args, "command")?.unwrap_or_default();
            if command.is_empty() {
                bail!("`command` needs at least the program");
            }
            let stderr = match string(args, "stderr")?.as_deref() {
                None | Some("auto") => StderrMode::Auto,
                Some("merge") => StderrMode::Merge,
                Some("apart") => StderrMode::Apart,
                Some(other) => bail!("stderr {other:?}: expected auto, merge or apart"),
            };
            let spawn = Spawn {
                detached: true,
                cwd: string(args, "cwd")?.map(PathBuf::from),
                cancel,
                stderr,
            };
            if let Some(dir) = &spawn.cwd {
                if !dir.is_dir() {
                    bail!("cwd {} is not a directory", dir.display());
                }
            }
            let reducer = string(args, "reducer")?;
            let timeout = string(args, "timeout")?;
            match cmd::run::reply(
                &session,
                reducer.as_deref(),
                timeout.as_deref(),
                &command,
                &spawn,
            )? {
                Ran::Reduced(reply) => *reply,
                Ran::NotStarted(code, why) => {
                    return Ok(Called::Failed(format!(
                        "cannot run {:?}: {why} (exit code {code})",
                        command[0]
                    )))
                }
            }
        }
        "page" => cmd::artifacts::page_reply(&session, &required_string(args, "cursor")?)?,
        "read" => cmd::artifacts::read_reply(
            &session,
            &PathBuf::from(required_string(args, "artifact")?),
            uint(args, "offset")?.unwrap_or(1),
            uint(args, "limit")?,
        )?,
        "grep" => cmd::artifacts::grep_reply(
            &session,
            &PathBuf::from(required_string(args, "artifact")?),
            &required_string(args, "pattern")?,
            uint(args, "context")?.unwrap_or(0) as usize,
            boolean(args, "ignore_case")?.unwrap_or(false),
        )?,
        _ => {
            let tool = REDUCER_TOOLS
                .iter()
                .find(|t| t.name == name)
                .ok_or_else(|| anyhow!("no tool {name:?}"))?;
            reduce(&session, tool, args)?
        }
    };
    Ok(Called::Reply(Box::new((reply, session))))
}

/// A reducer tool over its `path` or its inline `text`.
fn reduce(session: &Session, tool: &ReducerTool, args: &Args) -> Result<Reply> {
    let options = (tool.options)(args)?;
    match (string(args, "path")?, string(args, "text")?) {
        (Some(path), None) => {
            let path = PathBuf::from(path);
            let mut file = cmd::open_file(&path)?;
            let argv = cmd::input_argv(Some(&path));
            cmd::reduce_named(session, tool.reducer, options, &mut file, argv)
        }
        (None, Some(text)) => cmd::reduce_named(
            session,
            tool.reducer,
            options,
            &mut Cursor::new(text.into_bytes()),
            Vec::new(),
        ),
        _ => bail!("give exactly one of `path` and `text`"),
    }
}

/// The session of one call: the server's options, and the call's own context window.
fn session_for(defaults: &Global, args: &Args) -> Result<Session> {
    let mut global = defaults.clone();
    // The envelope is both the text and the structured content: JSON either way.
    global.format = Format::Json;
    if let Some(tokens) = uint(args, "context_tokens")? {
        global.context_tokens = Some(tokens);
        global.max_chars = None;
    }
    Session::new(global)
}

fn string(args: &Args, key: &str) -> Result<Option<String>> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => bail!("`{key}` must be a string, not {other}"),
    }
}

fn required_string(args: &Args, key: &str) -> Result<String> {
    string(args, key)?.ok_or_else(|| anyhow!("`{key}` is required"))
}

fn uint(args: &Args, key: &str) -> Result<Option<u64>> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => value
            .as_u64()
            .map(Some)
            .ok_or_else(|| anyhow!("`{key}` must be a non-negative integer, not {value}")),
    }
}

fn boolean(args: &Args, key: &str) -> Result<Option<bool>> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(other) => bail!("`{key}` must be true or false, not {other}"),
    }
}

fn strings(args: &Args, key: &str) -> Result<Option<Vec<String>>> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| {
                item.as_str()
                    .map(String::from)
                    .ok_or_else(|| anyhow!("`{key}` must be an array of strings, not {item}"))
            })
            .collect::<Result<Vec<_>>>()
            .map(Some),
        Some(other) => bail!("`{key}` must be an array of strings, not {other}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_has_a_closed_object_schema_and_a_description() {
        let tools = all();
        let names: Vec<&str> = tools.iter().map(|t| t.name).collect();
        assert_eq!(
            names,
            ["run", "text", "diff", "spill", "page", "read", "grep"]
        );
        for tool in &tools {
            assert_eq!(tool.input_schema["type"], "object", "{}", tool.name);
            assert_eq!(tool.input_schema["additionalProperties"], false);
            assert!(tool.description.len() > 40, "{}", tool.name);
            for required in tool.input_schema["required"].as_array().unwrap() {
                assert!(tool.input_schema["properties"][required.as_str().unwrap()].is_object());
            }
        }
        for tool in REDUCER_TOOLS {
            assert!(
                crate::reducers::find(tool.reducer).is_some(),
                "{}",
                tool.name
            );
        }
    }

    #[test]
    fn arguments_are_checked() {
        let tool = grep_tool();
        let args = |v: Value| v.as_object().unwrap().clone();
        assert!(check_arguments(&tool, &args(json!({"artifact": "a", "pattern": "x"}))).is_ok());
        let e = check_arguments(&tool, &args(json!({"artifact": "a"}))).unwrap_err();
        assert!(e.to_string().contains("\"pattern\""), "{e}");
        let e = check_arguments(
            &tool,
            &args(json!({"artifact": "a", "pattern": "x", "color": 1})),
        )
        .unwrap_err();
        assert!(e.to_string().contains("color"), "{e}");
        assert!(uint(&args(json!({"n": -1})), "n").is_err());
        assert!(strings(&args(json!({"c": ["a", 1]})), "c").is_err());
        assert!(boolean(&args(json!({"b": "yes"})), "b").is_err());
    }

    #[test]
    fn reducer_options_map_from_arguments() {
        let args = json!({"stat_only": true, "paths": ["src/*"], "file": "a.rs"});
        let diff = REDUCER_TOOLS.iter().find(|t| t.name == "diff").unwrap();
        let options = (diff.options)(args.as_object().unwrap()).unwrap();
        assert_eq!(options["stat_only"], true);
        assert_eq!(options["paths"], json!(["src/*"]));
        assert_eq!(options["file"], "a.rs");
        assert_eq!(options["max_hunk_lines"], 400);
        let text = REDUCER_TOOLS.iter().find(|t| t.name == "text").unwrap();
        let options =
            (text.options)(json!({"level": "warn", "top": 3}).as_object().unwrap()).unwrap();
        assert_eq!(options["top"], 3);
        assert!((text.options)(json!({"level": "loud"}).as_object().unwrap()).is_err());
    }
}
