//! The tools `briefly mcp` serves: `run`, one per reducer ([`REDUCER_TOOLS`]), and
//! `page`, `read`, `grep` over artifacts. Each call is one of briefly's own commands
//! under a session of its own, and answers with the command's [`Reply`].

use crate::cli::{Format, Global};
use crate::cmd::{self, run::Ran, run::Spawn, run::StderrMode, Reply};
use crate::session::Session;
use anyhow::{anyhow, bail, Result};
use serde_json::{json, Map, Value};
use std::io::Cursor;
use std::path::{Path, PathBuf};

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
    /// For a reducer that reads a `path` itself instead of being pushed its bytes (the
    /// file is then its own artifact): its reply for the file, given the options.
    /// Inline `text` still streams through the reducer as usual.
    pub read_path: Option<ReadPath>,
}

/// A reducer's reply for the file at a path, given its options (see
/// [`ReducerTool::read_path`]).
pub type ReadPath = fn(&Session, &Path, Value) -> Result<Reply>;

/// Every reducer the MCP server offers as a tool, in the order tools/list shows them.
pub const REDUCER_TOOLS: &[ReducerTool] = &[
    ReducerTool {
        name: "text",
        reducer: "text",
        description: "Reduce any log or text output (build logs, server logs, command output) to what matters: repeated lines folded into templates with counts, errors and warnings and rare lines first, each with its line number; a list of paths (find, git ls-files) or of grep -rn matches also mapped by directory and file. Use it on a log file or on text you already have; use `run` to run a command and reduce its output in one step.",
        options_schema: || {
            json!({
                "level": {"type": "string", "enum": ["trace", "debug", "info", "warn", "error", "fatal"], "description": "Only records at or above this level."},
                "since": {"type": "string", "description": "Only records at or after this time, to the second (a fraction is dropped): RFC 3339, `YYYY-MM-DD`, epoch seconds, or an age such as `2h`."},
                "until": {"type": "string", "description": "Only records before this time (same forms as since)."},
                "grep": {"type": "string", "description": "Only records matching this regular expression."},
                "top": {"type": "integer", "minimum": 0, "default": 10, "description": "Templates listed in stats.top_templates."},
                "context": {"type": "integer", "minimum": 0, "maximum": briefly_text::MAX_CONTEXT, "default": 0, "description": "Lines of context around each error or warning shown."},
                "whole_chars": {"type": "integer", "minimum": 0, "description": "Return input up to this many characters whole: every record verbatim, none folded (0: never). Default: half the per-result budget, at least 4000."}
            })
        },
        read_path: None,
        options: |args| {
            let mut options = cmd::text::options(
                string(args, "level")?.as_deref(),
                string(args, "since")?.as_deref(),
                string(args, "until")?.as_deref(),
                string(args, "grep")?,
                uint(args, "top")?.unwrap_or(10) as usize,
                uint(args, "context")?.unwrap_or(0) as usize,
                None,
            )?;
            if let Some(chars) = uint(args, "whole_chars")? {
                options.whole_chars = Some(chars as usize);
            }
            Ok(serde_json::to_value(options)?)
        },
    },
    ReducerTool {
        name: "diff",
        reducer: "diff",
        description: "Reduce a unified diff (git diff/show/log -p/format-patch, diff -u): every changed file with its change counts first, then the hunks that matter as valid patches; under commits, each file names its commit and stats.commits lists their subjects. Use it on a patch file or diff text; pass `file` to see all hunks of one file.",
        options_schema: || {
            json!({
                "stat_only": {"type": "boolean", "default": false, "description": "The map of files only, no patches."},
                "paths": {"type": "array", "items": {"type": "string"}, "description": "Globs of paths to show first."},
                "max_hunk_lines": {"type": "integer", "minimum": 1, "default": 400, "description": "Hunks longer than this many lines are left out of a file's patch (and counted)."},
                "context": {"type": "integer", "minimum": 0, "description": "Keep at most this many context lines around each hunk's changes."},
                "file": {"type": "string", "description": "Only this file's diff, all its hunks."}
            })
        },
        read_path: None,
        options: |args| {
            let options = briefly_diff::DiffOptions {
                stat_only: boolean(args, "stat_only")?.unwrap_or(false),
                paths: strings(args, "paths")?.unwrap_or_default(),
                max_hunk_lines: uint(args, "max_hunk_lines")?.unwrap_or(400) as usize,
                context: uint(args, "context")?.map(|n| n as usize),
                file: string(args, "file")?,
                layout_chars: None,
            };
            Ok(serde_json::to_value(options)?)
        },
    },
    ReducerTool {
        name: "spill",
        reducer: "spill",
        description: "Bound any output without interpreting it: its first and last lines and the lines that look like errors, the whole kept as an artifact to `read`, `grep` or `page`. Use it for output no other reducer fits (dumps, formats no reducer reads); JSON goes to `json`, tables and CSV to `table`.",
        options_schema: || json!({}),
        read_path: None,
        options: |_| Ok(Value::Null),
    },
    ReducerTool {
        name: "pytest",
        reducer: "pytest",
        description: "Reduce pytest output (any verbosity, with or without colour, -r summaries, xdist) to the counts in pytest's words and every failure and error with its decisive traceback lines and captured output. Use it on a saved pytest log or on pytest output you already have; set `junit` when the input is a JUnit XML report (pytest --junitxml). To run pytest and reduce it in one step, use `run` with reducer `pytest`.",
        options_schema: || {
            json!({
                "junit": {"type": "boolean", "default": false, "description": "The input is a JUnit XML report (pytest --junitxml), not terminal output."},
                "lines": {"type": "integer", "minimum": 1, "default": 12, "description": "Decisive lines kept per traceback and per captured-output excerpt."}
            })
        },
        read_path: None,
        options: |args| {
            let options = briefly_testrun::PytestOptions {
                lines: uint(args, "lines")?.unwrap_or(12) as usize,
                junit: boolean(args, "junit")?.unwrap_or(false),
            };
            Ok(serde_json::to_value(options)?)
        },
    },
    ReducerTool {
        name: "cargo_test",
        reducer: "cargo-test",
        description: "Reduce `cargo test` or `cargo nextest run` output (text or libtest JSON, with the build's rustc diagnostics) to the totals in libtest's words, the compile errors, then each failing test's panic message, location and decisive backtrace lines. Use it on a saved Rust test log or on its text (stdout and stderr together); to run the tests and reduce them in one step, use `run` with reducer `cargo-test`.",
        options_schema: || {
            json!({
                "lines": {"type": "integer", "minimum": 1, "default": 12, "description": "Decisive lines kept per panic, backtrace, captured-output and snippet excerpt."},
                "warnings": {"type": "boolean", "default": false, "description": "List every compiler warning as an item, even when there are errors or failures."}
            })
        },
        read_path: None,
        options: |args| {
            let options = briefly_testrun::CargoTestOptions {
                lines: uint(args, "lines")?.unwrap_or(12) as usize,
                warnings: boolean(args, "warnings")?.unwrap_or(false),
            };
            Ok(serde_json::to_value(options)?)
        },
    },
    ReducerTool {
        name: "journal",
        reducer: "journal",
        description: "Reduce systemd journal entries (`journalctl -o json` or `-o export` output) by priority, unit and time: the most urgent and rarest entries first, repetition folded into templates with counts. Use it on journalctl JSON/export text or a file of it, filtered by priority, time or unit. A binary journal file (*.journal) is not read here: use `run` with [\"journalctl\", \"--file\", PATH, \"-o\", \"json\", \"--no-pager\"] and reducer `journal`.",
        options_schema: || {
            json!({
                "level": {"type": "string", "description": "Only entries at this priority or more urgent: emerg, alert, crit, err, warning, notice, info, debug, or 0-7."},
                "since": {"type": "string", "description": "Only entries at or after this time, to the second (a fraction is dropped): RFC 3339, `YYYY-MM-DD`, epoch seconds, or an age such as `2h`."},
                "until": {"type": "string", "description": "Only entries before this time (same forms as since)."},
                "unit": {"type": "string", "description": "Only entries of this unit (the container's name, CONTAINER_NAME; a user unit, _SYSTEMD_USER_UNIT; else _SYSTEMD_UNIT, SYSLOG_IDENTIFIER or _COMM; or the entry's _SYSTEMD_UNIT: `docker.service` takes its containers' entries), e.g. `nginx.service` (`nginx` is `nginx.service`); a pattern such as `web*` matches whole names, as `journalctl -u` reads it."},
                "whole_chars": {"type": "integer", "minimum": 0, "default": 4000, "description": "Return entries whole when their messages take up to this many characters: each an item, none folded (0: never)."}
            })
        },
        read_path: None,
        options: |args| {
            let options = cmd::logs::journal_options(
                string(args, "level")?.as_deref(),
                string(args, "since")?.as_deref(),
                string(args, "until")?.as_deref(),
                string(args, "unit")?,
                whole_chars(args)?,
            )?;
            Ok(serde_json::to_value(options)?)
        },
    },
    ReducerTool {
        name: "docker",
        reducer: "docker",
        description: "Reduce container logs (the json-file driver's lines such as /var/lib/docker/containers/ID/ID-json.log, or `docker logs --timestamps` output) by stream, level and time: errors and tracebacks first, repetition folded into templates with counts. Use it on a container's log file or log text; to fetch and reduce in one step, use `run` with [\"docker\", \"logs\", \"--timestamps\", NAME] and reducer `docker`.",
        options_schema: || {
            json!({
                "since": {"type": "string", "description": "Only records at or after this time, to the second (a fraction is dropped): RFC 3339, `YYYY-MM-DD`, epoch seconds, or an age such as `10m`."},
                "until": {"type": "string", "description": "Only records before this time (same forms as since)."},
                "stream": {"type": "string", "enum": ["stdout", "stderr"], "description": "Only this stream."},
                "level": {"type": "string", "enum": ["trace", "debug", "info", "warn", "error", "fatal"], "description": "Only records at or above this level."},
                "tail": {"type": "integer", "minimum": 0, "maximum": briefly_logs::docker::MAX_TAIL, "description": "Only the last N records (after the other filters), at most 10000."},
                "whole_chars": {"type": "integer", "minimum": 0, "default": 4000, "description": "Return records whole when their messages take up to this many characters: each an item, none folded (0: never)."}
            })
        },
        read_path: None,
        options: |args| {
            let options = cmd::logs::docker_options(
                string(args, "since")?.as_deref(),
                string(args, "until")?.as_deref(),
                string(args, "stream")?,
                string(args, "level")?.as_deref(),
                uint(args, "tail")?.map(|n| n as usize),
                whole_chars(args)?,
            )?;
            Ok(serde_json::to_value(options)?)
        },
    },
    ReducerTool {
        name: "json",
        reducer: "json",
        description: "Reduce JSON or NDJSON (auto-detected; API responses, `kubectl -o json`, JSON logs): without options its shape (keys, types, counts, examples, and each value counted where a key has few: the 2 errors among 50,000 `ok`s), or the input whole when small; with options the records filtered (`where`), projected (`fields`), counted by a value (`count_by`) or sorted (`sort`). Use it on a JSON file or JSON text instead of reading it raw; a `[]` in a path names the record array (items[].status).",
        options_schema: || {
            json!({
                "fields": {"type": "array", "items": {"type": "string"}, "description": "Paths to keep of each record, e.g. [\"name\", \"a.b\", \"items[].status\"]."},
                "where": {"type": "array", "items": {"type": "string"}, "description": "Keep records where every condition holds: PATH=VALUE, also !=, >, >=, <, <=, ~REGEX, !~REGEX (e.g. \"status=failed\", \"items[].code>=500\")."},
                "count_by": {"type": "string", "description": "Count records by the value at this path: the items are groups, largest first."},
                "top": {"type": "integer", "minimum": 1, "description": "With count_by: only the N largest groups."},
                "sort": {"type": "string", "description": "Order records by the value at this path (numbers, then strings, then booleans, then null); keeps the first `limit` (default 1000)."},
                "desc": {"type": "boolean", "default": false, "description": "With sort: largest first."},
                "limit": {"type": "integer", "minimum": 0, "description": "At most this many records."},
                "records": {"type": "string", "description": "What the records are: the array whose elements they are (\"items[]\"), or \".\" for each value as it comes (each NDJSON line), its arrays inside it (records \".\" with where [\"ns=a\", \"containers[].ready=false\"]: lines with a container not ready). Unset, the first [] path of where, count_by or sort names the array."},
                "max_record_bytes": {"type": "integer", "minimum": 1, "default": 16777216, "description": "Skip records (NDJSON lines, elements of a streamed array) longer than this."},
                "max_document_bytes": {"type": "integer", "minimum": 0, "default": 67108864, "description": "Hold a document in memory up to this size; stream it above."},
                "max_depth": {"type": "integer", "minimum": 1, "default": 512, "description": "Containers nested deeper than this are an error."},
                "max_string_chars": {"type": "integer", "minimum": 1, "default": 1000, "description": "Cut strings in the items longer than this."},
                "whole_chars": {"type": "integer", "minimum": 0, "default": 4000, "description": "Without options, return input up to this many characters whole instead of its shape."}
            })
        },
        read_path: None,
        options: |args| {
            let defaults = briefly_json::JsonOptions::default();
            let size = |key: &str, default: usize| -> Result<usize> {
                Ok(uint(args, key)?.map_or(default, |n| n as usize))
            };
            let options = briefly_json::JsonOptions {
                fields: strings(args, "fields")?.unwrap_or_default(),
                conditions: strings(args, "where")?.unwrap_or_default(),
                count_by: string(args, "count_by")?,
                top: uint(args, "top")?.map(|n| n as usize),
                sort: string(args, "sort")?,
                desc: boolean(args, "desc")?.unwrap_or(false),
                limit: uint(args, "limit")?.map(|n| n as usize),
                records: string(args, "records")?,
                max_record_bytes: size("max_record_bytes", defaults.max_record_bytes)?,
                max_document_bytes: size("max_document_bytes", defaults.max_document_bytes)?,
                max_depth: size("max_depth", defaults.max_depth)?,
                max_string_chars: size("max_string_chars", defaults.max_string_chars)?,
                whole_chars: size("whole_chars", defaults.whole_chars)?,
                whole_value_chars: None,
            };
            // Options that do not parse are the call's error, before any input is read.
            briefly_json::Json::new(options.clone())?;
            Ok(serde_json::to_value(options)?)
        },
    },
    ReducerTool {
        name: "table",
        reducer: "table",
        description: "Reduce a table to its shape, schema, per-column statistics and rows: a Parquet, Arrow IPC (file or stream) or CSV/TSV file by `path` (format from its magic bytes, else its extension; Parquet is read by row group, never whole), or CSV/TSV as inline `text`. Use it instead of reading a data file raw; select `columns`, filter rows with `where`, take the `tail` or a `sample`.",
        options_schema: || {
            json!({
                "columns": {"type": "array", "items": {"type": "string"}, "description": "Only these columns, in this order (read from Parquet alone)."},
                "where": {"type": "array", "items": {"type": "string"}, "description": "Only rows where every `COL OP VALUE` holds, OP one of = != < <= > >= ~ (matches the regex) !~; `= null` tests for null (e.g. \"status = failed\", \"latency > 200\")."},
                "rows": {"type": "integer", "minimum": 0, "description": "At most this many rows as items [default: all, paged; 20 with tail]."},
                "tail": {"type": "boolean", "default": false, "description": "The last rows instead of the first (not with sample)."},
                "sample": {"type": "integer", "minimum": 1, "description": "N rows drawn at random, in row order, reproducible with seed (not with rows or tail)."},
                "seed": {"type": "integer", "minimum": 0, "default": 0, "description": "The seed of sample."},
                "max_columns": {"type": "integer", "minimum": 1, "default": 20, "description": "At most this many columns in rows and stats: the most informative; the rest are listed as omitted."},
                "max_value_chars": {"type": "integer", "minimum": 1, "default": 80, "description": "Values longer than this are cut with a marker."},
                "input_format": {"type": "string", "enum": ["parquet", "arrow", "arrow-stream", "csv", "tsv"], "description": "The input's format, when not detected (inline text is CSV/TSV or an Arrow IPC stream)."},
                "delimiter": {"type": "string", "minLength": 1, "maxLength": 3, "description": "CSV: the field delimiter, one character or \\t [default: sniffed from the first line]."},
                "no_header": {"type": "boolean", "default": false, "description": "CSV: the first line is data; columns are named c1, c2, …."},
                "scan": {"type": "boolean", "default": false, "description": "Parquet: also read every row, for distinct counts and top values (default: statistics from the footer only)."}
            })
        },
        read_path: Some(|session, path, options| {
            cmd::table::file_reply(session, path, serde_json::from_value(options)?)
        }),
        options: |args| {
            let defaults = briefly_table::TableOptions::default();
            let tail = boolean(args, "tail")?.unwrap_or(false);
            let sample = uint(args, "sample")?;
            let rows = uint(args, "rows")?;
            let seed = uint(args, "seed")?;
            if sample.is_some() && (tail || rows.is_some()) {
                bail!("`sample` does not go with `tail` or `rows`");
            }
            if seed.is_some() && sample.is_none() {
                bail!("`seed` needs `sample`");
            }
            let delimiter = string(args, "delimiter")?
                .map(|d| briefly_table::parse_delimiter(&d))
                .transpose()
                .map_err(|why| anyhow!("`delimiter` must be {why}"))?;
            let options = briefly_table::TableOptions {
                columns: strings(args, "columns")?.unwrap_or_default(),
                filters: strings(args, "where")?.unwrap_or_default(),
                rows,
                tail,
                sample,
                seed: seed.unwrap_or(0),
                max_columns: uint(args, "max_columns")?.map_or(defaults.max_columns, |n| n as usize),
                max_value_chars: uint(args, "max_value_chars")?
                    .map_or(defaults.max_value_chars, |n| n as usize),
                input_format: string(args, "input_format")?
                    .as_deref()
                    .map(cmd::table::input_format)
                    .transpose()?,
                delimiter,
                no_header: boolean(args, "no_header")?.unwrap_or(false),
                scan: boolean(args, "scan")?.unwrap_or(false),
                fingerprint: None,
            };
            Ok(serde_json::to_value(options)?)
        },
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
        description: "Run a command and get its output reduced to what matters, within the per-result budget, with the exit code kept. The reducer is picked from the command unless given: git diff/show/log -p → diff, pytest → pytest, cargo test/nextest → cargo-test, journalctl → journal, docker logs → docker, JSON output (-o json, docker inspect) → json, anything else → text. Use it instead of a plain shell tool whenever output may be long: builds, tests, logs, diffs. Nothing is lost: when anything is left out, `artifact_path` holds the whole output for `read`/`grep` and `next_cursor` pages the rest. The command runs without a shell: for pipes or redirections pass [\"sh\", \"-c\", \"…\"] and name the reducer (a script of one command after cd/source/export steps, as `cd repo && pytest -q`, has its reducer picked as that command's).".into(),
        input_schema: object_schema(
            json!({
                "command": {"type": "array", "items": {"type": "string"}, "minItems": 1, "description": "The program and its arguments, e.g. [\"cargo\", \"test\"]."},
                "reducer": {"type": "string", "enum": reducers, "description": "The reducer [default: picked from the command]."},
                "timeout": {"type": "string", "description": "Kill the command's process group after this long, e.g. 30s or 5m (exit code 124)."},
                "cwd": {"type": "string", "description": "Run it in this directory [default: the server's]."},
                "stderr": {"type": "string", "enum": ["auto", "merge", "apart"], "default": "auto", "description": "The command's standard error: merged into the reduction (as 2>&1), bounded apart in the envelope's `stderr`, or auto (merged for cargo-test and docker, and for compilers, build tools and JavaScript's runners run with text: cargo, gcc, make, go, gradle, npm, jest, docker build …, whose sources write results there, for package managers: pip, uv, apt-get, gem …, and for a script's interpreter: python, node, java, ruby …, which write tracebacks and logs there)."},
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
                "column": {"type": "integer", "minimum": 1, "default": 1, "description": "The column of that line to read from (1-based, in characters): a result that ended inside a long line gives it as `next_column`."},
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
                "context": {"type": "integer", "minimum": 0, "maximum": briefly_plain::MAX_CONTEXT, "default": 0, "description": "Lines of context around each match."},
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
    /// The tool failed before any envelope (bad arguments, a missing file): the message
    /// for the model.
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
    // The least a number may be, as its schema says (`offset` counts from 1).
    for (key, value) in args {
        let least = properties[key.as_str()]["minimum"].as_f64();
        if let (Some(least), Some(n)) = (least, value.as_f64()) {
            if n < least {
                bail!("`{key}` is at least {least}, not {value}");
            }
        }
    }
    Ok(())
}

/// Cancelled when the client gives up on the call (a command run is then ended).
pub type Cancel = Option<tokio_util::sync::CancellationToken>;

fn dispatch(name: &str, args: &Args, defaults: &Global, cancel: Cancel) -> Result<Called> {
    let mut session = session_for(defaults, args)?;
    session.cancel = cancel.clone();
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
                // A command that could not start is answered as the CLI prints it: the
                // envelope of no output, its summary saying why, with its exit code.
                Ran::Reduced(reply) | Ran::NotStarted { reply, .. } => *reply,
            }
        }
        "page" => cmd::artifacts::page_reply(&session, &required_string(args, "cursor")?)?,
        "read" => cmd::artifacts::read_reply(
            &session,
            &PathBuf::from(required_string(args, "artifact")?),
            uint(args, "offset")?.unwrap_or(1),
            uint(args, "column")?.unwrap_or(1),
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
            if let Some(read_path) = tool.read_path {
                return read_path(session, &path, options);
            }
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
    // The server's budget is every call's default; a call's own is its.
    global.budget_is_default = true;
    if let Some(tokens) = uint(args, "context_tokens")? {
        global.context_tokens = Some(tokens);
        global.max_chars = None;
        global.budget_is_default = false;
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

/// `whole_chars`, or the least default of the reducers that return small input whole.
fn whole_chars(args: &Args) -> Result<usize> {
    Ok(uint(args, "whole_chars")?.map_or(briefly_text::WHOLE_CHARS, |n| n as usize))
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
    fn a_cancelled_call_reads_its_input_no_further() {
        use clap::Parser;
        let dir = tempfile::tempdir().unwrap();
        let at = dir.path().to_str().unwrap();
        let cli = crate::cli::Cli::parse_from(["briefly", "--artifact-dir", at, "budget"]);
        // The input of a call the client gave up on (were it /dev/zero, it would be read
        // for ever), and the same as an artifact.
        let input = dir.path().join("input.log");
        std::fs::write(&input, "a line\n".repeat(100_000)).unwrap();
        let cancel = tokio_util::sync::CancellationToken::new();
        cancel.cancel();
        for (tool, key) in [("text", "path"), ("read", "artifact")] {
            let args = serde_json::json!({ key: input });
            let called = call(
                tool,
                args.as_object().unwrap(),
                &cli.global,
                Some(cancel.clone()),
            );
            match called {
                Some(Called::Failed(why)) => assert!(why.contains("cancelled"), "{why}"),
                _ => panic!("{tool}: not refused"),
            }
        }
    }

    #[test]
    fn every_tool_has_a_closed_object_schema_and_a_description() {
        let tools = all();
        let names: Vec<&str> = tools.iter().map(|t| t.name).collect();
        assert_eq!(
            names,
            [
                "run",
                "text",
                "diff",
                "spill",
                "pytest",
                "cargo_test",
                "journal",
                "docker",
                "json",
                "table",
                "page",
                "read",
                "grep"
            ]
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
    fn every_reducer_that_reads_fresh_input_has_a_tool() {
        for tool in REDUCER_TOOLS {
            assert!(
                crate::reducers::REDUCERS
                    .iter()
                    .any(|spec| spec.name == tool.reducer),
                "tool {} names no reducer",
                tool.name
            );
            assert!(
                tool.name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_'),
                "{}",
                tool.name
            );
        }
        // The others reduce an artifact or a metrics file, or list a command's own rows,
        // not fresh input: they are the `read` and `grep` tools, or none.
        for spec in crate::reducers::REDUCERS {
            if !spec.reads_output || spec.name == "read" {
                continue;
            }
            assert!(
                REDUCER_TOOLS.iter().any(|tool| tool.reducer == spec.name),
                "reducer {} has no MCP tool",
                spec.name
            );
        }
        let run = run_tool();
        let offered: Vec<&str> = REDUCER_TOOLS.iter().map(|t| t.reducer).collect();
        assert_eq!(
            run.input_schema["properties"]["reducer"]["enum"],
            json!(offered)
        );
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
        // Half the page, as the budget lays it out.
        assert_eq!(options.get("whole_chars"), None);
        let options = (text.options)(json!({"whole_chars": 0}).as_object().unwrap()).unwrap();
        assert_eq!(options["whole_chars"], 0);
        assert!((text.options)(json!({"level": "loud"}).as_object().unwrap()).is_err());

        let options = |name: &str, args: Value| {
            let tool = REDUCER_TOOLS.iter().find(|t| t.name == name).unwrap();
            (tool.options)(args.as_object().unwrap())
        };
        let pytest = options("pytest", json!({"junit": true})).unwrap();
        assert_eq!(pytest, json!({"lines": 12, "junit": true}));
        let cargo = options("cargo_test", json!({"warnings": true})).unwrap();
        assert_eq!(cargo, json!({"lines": 12, "warnings": true}));
        let journal = options("journal", json!({"level": "err", "since": "1000"})).unwrap();
        assert_eq!(journal["max_priority"], 3);
        assert_eq!(journal["since"], 1000);
        assert!(options("journal", json!({"level": "loud"})).is_err());
        let docker = options("docker", json!({"stream": "stderr", "tail": 5})).unwrap();
        assert_eq!(docker["stream"], "stderr");
        assert_eq!(docker["tail"], 5);
        assert_eq!(docker["whole_chars"], 4000);
        assert_eq!(journal["whole_chars"], 4000);
        let docker = options("docker", json!({"whole_chars": 0})).unwrap();
        assert_eq!(docker["whole_chars"], 0);
        let journal = options("journal", json!({"whole_chars": 9})).unwrap();
        assert_eq!(journal["whole_chars"], 9);
        assert!(options("journal", json!({"whole_chars": -1})).is_err());
        let json_options = options("json", json!({"where": ["status=failed"]})).unwrap();
        assert_eq!(json_options["where"], json!(["status=failed"]));
        assert_eq!(json_options["whole_chars"], 4000);
        assert!(options("json", json!({"where": ["no operator"]})).is_err());
        let records = options("json", json!({"records": "."})).unwrap();
        assert_eq!(records["records"], ".");
        assert!(options("json", json!({"records": "items"})).is_err());
        let table = options("table", json!({"columns": ["a"], "delimiter": ";"})).unwrap();
        assert_eq!(table["columns"], json!(["a"]));
        assert_eq!(table["delimiter"], ";");
        assert_eq!(table["max_columns"], 20);
        assert!(options("table", json!({"sample": 3, "tail": true})).is_err());
        assert!(options("table", json!({"delimiter": ";;"})).is_err());
        let tab = options("table", json!({"delimiter": "\\t"})).unwrap();
        assert_eq!(tab["delimiter"], "\t");
        assert!(options("table", json!({"input_format": "xlsx"})).is_err());
    }
}
