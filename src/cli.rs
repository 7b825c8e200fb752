//! The command line.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Reduces command output for LLM agents: the smallest result that still carries the
/// evidence, within a budget, with the full output kept as an artifact.
#[derive(Debug, Parser)]
#[command(name = "briefly", version, about, propagate_version = true)]
pub struct Cli {
    #[command(flatten)]
    pub global: Global,
    #[command(subcommand)]
    pub command: Command,
}

/// Options every command takes, before or after its name.
#[derive(Debug, Args, Clone)]
pub struct Global {
    /// The model's context window in tokens; sets the per-result and per-turn budgets.
    #[arg(long, global = true, env = "BRIEFLY_CONTEXT_TOKENS", value_name = "N")]
    pub context_tokens: Option<u64>,
    /// The per-result budget in characters, directly (at least 1000; 2000 with a real
    /// `--tokenizer`, whose limit, a quarter of it in tokens, must hold a cursor and an item).
    #[arg(long, global = true, value_name = "N")]
    pub max_chars: Option<usize>,
    /// What of the window is taken already: system=S,schemas=T,history=H,reserve=R,margin=M (tokens).
    #[arg(long, global = true, value_name = "SPEC")]
    pub remaining_from: Option<String>,
    /// The budget is a default (`BRIEFLY_CONTEXT_TOKENS`, an MCP server's own), not this
    /// call's: a cursor's budget wins over it.
    #[arg(skip)]
    pub budget_is_default: bool,
    /// Output format.
    #[arg(long, global = true, value_enum, default_value_t = Format::Json)]
    pub format: Format,
    /// The tool-call id: names the artifact and the metrics event.
    #[arg(long, global = true)]
    pub id: Option<String>,
    /// Where artifacts go [default: $XDG_RUNTIME_DIR/briefly, else <tmp>/briefly-<uid>].
    #[arg(long, global = true, env = "BRIEFLY_ARTIFACT_DIR", value_name = "DIR")]
    pub artifact_dir: Option<PathBuf>,
    /// Append a JSON event for each result to this file: a reduction, a run, a read or page, each of a turn's results, a compaction, `budget`'s table (`gc` writes none).
    #[arg(long, global = true, env = "BRIEFLY_METRICS", value_name = "FILE")]
    pub metrics: Option<PathBuf>,
    /// How tokens are counted: chars4 (4 characters a token), cl100k or o200k (offline BPE).
    #[arg(long, global = true, value_name = "NAME")]
    pub tokenizer: Option<String>,
    /// Keep the artifact even when nothing was left out.
    #[arg(long, global = true)]
    pub keep: bool,
    /// Never remove expired artifacts on the way (by default a command that makes an
    /// artifact removes briefly's files older than a day, at most once an hour).
    #[arg(long, global = true, env = "BRIEFLY_NO_GC", value_parser = clap::builder::BoolishValueParser::new())]
    pub no_gc: bool,
    /// Lines longer than this are cut (whole in the artifact) [default: 1048576]; `read` and `grep`, the way back to an artifact's bytes, take lines of up to 16 MiB unless it is given.
    #[arg(long, global = true, value_name = "BYTES")]
    pub max_line_bytes: Option<usize>,
}

/// How results are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One envelope as compact JSON.
    Json,
    /// The same fields, compactly, for reading.
    Text,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Any tool output: unchanged within the per-result budget, else a bounded preview and the artifact.
    Spill {
        /// Read this file instead of standard input (`-`: standard input).
        file: Option<PathBuf>,
    },
    /// Any text or log: repetition folded into templates, the evidence (errors, warnings, rare lines) first; a list of paths or of grep -rn matches mapped by directory and file.
    Text {
        /// Read this file instead of standard input (`-`: standard input).
        file: Option<PathBuf>,
        /// Only records at or above this level (trace, debug, info, warn, error, fatal).
        #[arg(long)]
        level: Option<String>,
        /// Only records at or after this time, to the second (a fraction is dropped): RFC 3339 / `YYYY-MM-DD HH:MM:SS` (UTC), epoch seconds, or an age such as 2h.
        #[arg(long, value_name = "TIME", allow_hyphen_values = true)]
        since: Option<String>,
        /// Only records before this time (same forms as --since; a time with a fraction keeps its whole second).
        #[arg(long, value_name = "TIME", allow_hyphen_values = true)]
        until: Option<String>,
        /// Only records matching this regular expression.
        #[arg(long, value_name = "PATTERN")]
        grep: Option<String>,
        /// Templates listed in stats.top_templates.
        #[arg(long, default_value_t = 10)]
        top: usize,
        /// Lines of context around each error or warning shown.
        #[arg(long, default_value_t = 0)]
        context: usize,
        /// Return input up to this many characters whole: every record verbatim, none folded (0: never) [default: half the per-result budget, at least 4000].
        #[arg(long, value_name = "CHARS")]
        whole_chars: Option<usize>,
        /// Write {"line": n, "group": id} for every input line to this file.
        #[arg(long, value_name = "FILE")]
        emit_groups: Option<PathBuf>,
    },
    /// A unified diff (git diff/show/log -p/format-patch, diff -u): every file with its change first, then the hunks that matter as valid patches; under commits, each file names its commit.
    Diff {
        /// Read this file instead of standard input (`-`: standard input).
        file: Option<PathBuf>,
        /// The map only, no patches.
        #[arg(long)]
        stat_only: bool,
        /// Show files matching this glob first (repeatable).
        #[arg(long = "path", value_name = "GLOB")]
        paths: Vec<String>,
        /// Hunks longer than this many lines are left out of a file's patch (counted in hunks_left_out).
        #[arg(long, default_value_t = 400)]
        max_hunk_lines: usize,
        /// Keep at most this many context lines around each hunk's changes.
        #[arg(long)]
        context: Option<usize>,
        /// Only this file's diff, all its hunks (bounded by the budget).
        #[arg(long = "file", value_name = "PATH")]
        only: Option<String>,
    },
    /// pytest's output (any verbosity, colour, -r, xdist) or its --junitxml report: the counts in pytest's words, then every failure and error with its decisive lines.
    Pytest {
        /// Read this file instead of standard input (`-`: standard input).
        file: Option<PathBuf>,
        /// Read this JUnit XML report (pytest --junitxml) instead of terminal output (`-`: from standard input).
        #[arg(long, value_name = "REPORT", conflicts_with = "file")]
        junit: Option<PathBuf>,
        /// Decisive lines kept per traceback and per captured-output excerpt (the first
        /// half of them and the last).
        #[arg(long, default_value_t = 12, value_name = "N")]
        lines: usize,
    },
    /// cargo test / cargo nextest run output (text or libtest JSON), with the build's rustc diagnostics: totals in libtest's words, compile errors, then each failing test's panic.
    CargoTest {
        /// Read this file instead of standard input (`-`: standard input).
        file: Option<PathBuf>,
        /// Decisive lines kept per panic, backtrace, captured-output and snippet excerpt
        /// (the first half of them and the last).
        #[arg(long, default_value_t = 12, value_name = "N")]
        lines: usize,
        /// List every compiler warning as an item, even when there are errors or failures.
        #[arg(long)]
        warnings: bool,
    },
    /// journald entries (`journalctl -o json`, `json-pretty`, `json-seq` or `-o export`, or a journal file): by priority, unit and time, the worst and rarest entries first, repetition folded.
    Journal {
        /// Read this file (`journalctl -o json` or `-o export` output) instead of standard input (`-`: standard input).
        input: Option<PathBuf>,
        /// Read this journal file through `journalctl --file PATH -o json`.
        #[arg(long = "file", value_name = "JOURNAL", conflicts_with = "input")]
        journal_file: Option<PathBuf>,
        /// Only entries at this priority or more urgent: emerg, alert, crit, err, warning, notice, info, debug, or 0-7.
        #[arg(long, short = 'p')]
        level: Option<String>,
        /// Only entries at or after this time, to the second (a fraction is dropped): RFC 3339 / `YYYY-MM-DD HH:MM:SS` (UTC), epoch seconds, or an age such as 2h.
        #[arg(long, value_name = "TIME", allow_hyphen_values = true)]
        since: Option<String>,
        /// Only entries before this time (same forms as --since; a time with a fraction keeps its whole second).
        #[arg(long, value_name = "TIME", allow_hyphen_values = true)]
        until: Option<String>,
        /// Only entries of this unit (the container's name, CONTAINER_NAME; a user unit, _SYSTEMD_USER_UNIT; else _SYSTEMD_UNIT, SYSLOG_IDENTIFIER or _COMM; or the entry's _SYSTEMD_UNIT: `docker` takes its containers' entries; or the unit it was written of, systemd's UNIT from PID 1, COREDUMP_UNIT, OBJECT_SYSTEMD_UNIT: `Failed to start db.service`); `db` is `db.service`, and a pattern (`web*`, `app-?`, `db[12]*`) matches whole names, as journalctl -u reads them.
        #[arg(long, short = 'u')]
        unit: Option<String>,
        /// Return entries whole when their messages take up to this many characters: each an item, none folded (0: never).
        #[arg(long, value_name = "CHARS", default_value_t = 4000)]
        whole_chars: usize,
    },
    /// Container logs (the json-file driver's lines, or `docker logs --timestamps`): by stream, level and time, errors and tracebacks first, repetition folded.
    Docker {
        /// Read this file (e.g. /var/lib/docker/containers/ID/ID-json.log) instead of standard input.
        file: Option<PathBuf>,
        /// Only records at or after this time, to the second (a fraction is dropped): RFC 3339 / `YYYY-MM-DD HH:MM:SS` (UTC), epoch seconds, or an age such as 10m.
        #[arg(long, value_name = "TIME", allow_hyphen_values = true)]
        since: Option<String>,
        /// Only records before this time (same forms as --since; a time with a fraction keeps its whole second).
        #[arg(long, value_name = "TIME", allow_hyphen_values = true)]
        until: Option<String>,
        /// Only this stream: stdout or stderr.
        #[arg(long)]
        stream: Option<String>,
        /// Only records at or above this level (trace, debug, info, warn, error, fatal).
        #[arg(long)]
        level: Option<String>,
        /// Only the last N records (after the other filters), at most 10000.
        #[arg(long, value_name = "N")]
        tail: Option<usize>,
        /// Return records whole when their messages take up to this many characters: each an item, none folded (0: never).
        #[arg(long, value_name = "CHARS", default_value_t = 4000)]
        whole_chars: usize,
    },
    /// JSON or NDJSON (auto-detected): the shape without options; records filtered (--where), projected (--fields), counted (--count-by) or sorted (--sort).
    Json {
        /// Read this file instead of standard input (`-`: standard input).
        file: Option<PathBuf>,
        /// Paths to keep of each record, comma-separated (a.b,items[].status; repeatable).
        #[arg(long, value_name = "PATHS")]
        fields: Vec<String>,
        /// Keep records where PATH=VALUE (also !=, >, >=, <, <=, ~REGEX, !~REGEX); a [] path names the record array (items[].status=failed). Repeatable: all must hold.
        #[arg(long = "where", value_name = "COND")]
        conditions: Vec<String>,
        /// Count records by the value at PATH: the items are groups, largest first.
        #[arg(long, value_name = "PATH")]
        count_by: Option<String>,
        /// With --count-by: only the N largest groups.
        #[arg(long, value_name = "N")]
        top: Option<usize>,
        /// Order records by the value at PATH (numbers, then strings, then booleans, then null); keeps the first --limit (default 1000).
        #[arg(long, value_name = "PATH")]
        sort: Option<String>,
        /// With --sort: largest first.
        #[arg(long)]
        desc: bool,
        /// At most N records.
        #[arg(long, value_name = "N")]
        limit: Option<usize>,
        /// What the records are: the array whose elements they are (items[]), or . for each value as it comes (each NDJSON line, arrays too), its arrays inside it (--records . --where ns=a --where containers[].ready=false: lines with a container not ready). Unset, the first [] path of --where, --count-by or --sort names the array.
        #[arg(long, value_name = "PATH")]
        records: Option<String>,
        /// Skip records (NDJSON lines, elements of a streamed array) longer than this.
        #[arg(long, value_name = "BYTES", default_value_t = 16 << 20)]
        max_record_bytes: usize,
        /// Hold a document in memory up to this size; stream it above.
        #[arg(long, value_name = "BYTES", default_value_t = 64 << 20)]
        max_document_bytes: usize,
        /// Containers nested deeper than this are an error (at most 1000).
        #[arg(long, value_name = "N", default_value_t = 512)]
        max_depth: usize,
        /// Cut strings in the items longer than this.
        #[arg(long, value_name = "CHARS", default_value_t = 1000)]
        max_string_chars: usize,
        /// Without options, return input up to this many characters whole instead of its shape.
        #[arg(long, value_name = "CHARS", default_value_t = 4000)]
        whole_chars: usize,
    },
    /// A table (Parquet, Arrow IPC file or stream, CSV/TSV): shape, schema, column statistics and rows; Parquet pages seek to the row group.
    Table {
        /// The file (format from its magic bytes, else its extension); standard input streams CSV/TSV and Arrow IPC streams, and a Parquet or Arrow IPC file on it is saved as an artifact first and read from there.
        file: Option<PathBuf>,
        /// Only these columns, in this order (read from Parquet alone).
        #[arg(long, value_delimiter = ',', value_name = "A,B")]
        columns: Vec<String>,
        /// Only rows where COL OP VALUE holds, OP one of = != < <= > >= ~ (matches the regex) !~; `= null` tests for null (repeatable: all must hold).
        #[arg(long = "where", value_name = "'COL OP VALUE'")]
        filters: Vec<String>,
        /// At most this many rows as items [default: all, paged; 20 with --tail].
        #[arg(long, value_name = "N")]
        rows: Option<u64>,
        /// The last rows instead of the first.
        #[arg(long, conflicts_with = "sample")]
        tail: bool,
        /// N rows drawn at random, in row order (reproducible with --seed).
        #[arg(long, value_name = "N", conflicts_with = "rows")]
        sample: Option<u64>,
        /// The seed of --sample.
        #[arg(long, default_value_t = 0, requires = "sample")]
        seed: u64,
        /// At most this many columns in rows and stats: the most informative; the rest are listed as omitted.
        #[arg(long, default_value_t = 20, value_name = "N")]
        max_columns: usize,
        /// Values longer than this are cut with a marker.
        #[arg(long, default_value_t = 80, value_name = "N")]
        max_value_chars: usize,
        /// The input's format, when not detected: parquet, arrow, arrow-stream, csv or tsv.
        #[arg(long, value_name = "FORMAT")]
        input_format: Option<String>,
        /// CSV: the field delimiter, one character or \t [default: sniffed from the first record].
        #[arg(long, value_name = "CHAR", value_parser = briefly_table::parse_delimiter)]
        delimiter: Option<char>,
        /// CSV: the first line is data; columns are named c1, c2, ….
        #[arg(long)]
        no_header: bool,
        /// Parquet: also read every row, for distinct counts and top values (default: statistics from the footer only).
        #[arg(long)]
        scan: bool,
    },
    /// A turn's tool results (JSON array or JSONL of {"id","content","persisted"?}): spill the largest until they fit the per-turn budget.
    Turn {
        /// Read this file instead of standard input (`-`: standard input).
        file: Option<PathBuf>,
    },
    /// The next items of a result, computed from its artifact.
    Page {
        /// A `next_cursor` from an earlier result.
        cursor: String,
    },
    /// Lines of an artifact (or any file), bounded by the per-result budget.
    Read {
        /// The artifact (or any file; `-`: standard input, kept as an artifact).
        artifact: PathBuf,
        /// The first line to read (1-based).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
        offset: u64,
        /// The column of that line to read from (1-based, in characters): a page that
        /// ended inside a long line says where in its `next_column`.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
        column: u64,
        /// At most this many lines (1 or more).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        limit: Option<u64>,
    },
    /// Lines of an artifact (or any file) that match a pattern, with line numbers and a total count.
    Grep {
        /// The artifact (or any file; `-`: standard input, kept as an artifact).
        artifact: PathBuf,
        /// A regular expression.
        pattern: String,
        /// Lines of context around each match.
        #[arg(short = 'C', long, default_value_t = 0)]
        context: usize,
        /// Ignore case.
        #[arg(short = 'i', long)]
        ignore_case: bool,
    },
    /// Runs a command and reduces its output; exits with the command's exit code.
    Run {
        /// The reducer [default: picked from the command].
        #[arg(long)]
        reducer: Option<String>,
        /// Kill the command's process group after this long (e.g. 30s, 5m; 0: never).
        #[arg(long, value_name = "DUR")]
        timeout: Option<String>,
        /// The command's standard error: merge (into the reducer with the output, as 2>&1), apart (bounded in the envelope's `stderr`), or auto (merge for cargo-test and docker, and for text under compilers, build tools and JavaScript's runners: cargo, gcc, make, go, gradle, npm, jest, docker build …, whose results are written there, under package managers: pip, uv, apt-get, gem …, and under a script's interpreter: python, node, java, ruby …, whose tracebacks and logs are).
        #[arg(long, value_enum, default_value_t = crate::cmd::run::StderrMode::Auto, value_name = "MODE")]
        stderr: crate::cmd::run::StderrMode,
        /// The command and its arguments.
        #[arg(last = true, required = true, value_name = "CMD")]
        command: Vec<String>,
    },
    /// Prints the budgets for a context window (and the standard windows).
    Budget,
    /// An agent's message history (OpenAI format, a JSON array): measure it against the window, or compact it.
    #[command(subcommand)]
    Context(ContextCommand),
    /// Removes old artifacts.
    Gc {
        /// Remove artifacts older than this.
        #[arg(long, default_value = "24h", value_name = "DUR")]
        older_than: String,
    },
    /// An MCP server on stdio: `run`, one tool per reducer, `page`, `read` and `grep`.
    Mcp,
    /// Runs an MCP server (stdio) as a child and forwards everything both ways, its tool results spilled to artifacts past the budget, with `read` and `page` tools added.
    McpProxy {
        /// A message from either side longer than this is not held: the server's is spilled whole to an artifact and its call answered with an error; the client's is refused.
        #[arg(long, value_name = "BYTES", default_value_t = 64 * 1024 * 1024)]
        max_message_bytes: usize,
        /// The server's command and its arguments.
        #[arg(last = true, required = true, value_name = "SERVER")]
        command: Vec<String>,
    },
    /// Summarizes a metrics file: the noisiest producers, spills, write failures, artifact reads.
    Stats {
        /// The metrics file (JSONL).
        file: PathBuf,
    },
}

/// `briefly context …`.
#[derive(Debug, Subcommand)]
pub enum ContextCommand {
    /// Tokens by role, total, headroom, utilization and status (nominal, watch, compress, critical).
    Measure {
        /// Read this file instead of standard input (`-`: standard input).
        file: Option<PathBuf>,
        #[command(flatten)]
        window: Window,
        /// Messages to list, largest first.
        #[arg(long, default_value_t = 10)]
        largest: usize,
    },
    /// The history compacted until the target utilization is met; the report goes to --report or stderr.
    Compact {
        /// Read this file instead of standard input (`-`: standard input).
        file: Option<PathBuf>,
        #[command(flatten)]
        window: Window,
        /// Stop at or under this utilization.
        #[arg(long, default_value_t = 0.60)]
        target: f64,
        /// The last turns are never touched (a turn starts at a user message, or at an
        /// assistant's next round of tool calls after the last one's results).
        #[arg(long, default_value_t = 6)]
        keep_turns: usize,
        /// Step 1 collapses tool results over this many tokens (a stub takes about 200).
        #[arg(long, default_value_t = 500)]
        collapse_tokens: u64,
        /// Step 2 replaces tool results that were over this many tokens…
        #[arg(long, default_value_t = 1_000)]
        placeholder_tokens: u64,
        /// …that are more than this many messages from the end.
        #[arg(long, default_value_t = 10)]
        placeholder_age: usize,
        /// Step 3: a shell command that reads the middle turns (JSON) on stdin and prints a summary.
        #[arg(long, value_name = "CMD")]
        summarizer_cmd: Option<String>,
        /// How long the summarizer may run before it is killed (and the turns kept as they are).
        #[arg(long, value_name = "DURATION", default_value = "2m")]
        summarizer_timeout: String,
        /// Write the tool schemas kept (step 4) here.
        #[arg(long, value_name = "FILE")]
        tools_out: Option<PathBuf>,
        /// Write the report here instead of to stderr.
        #[arg(long, value_name = "FILE")]
        report: Option<PathBuf>,
    },
}

/// The window a history is measured against.
#[derive(Debug, Args, Clone)]
pub struct Window {
    /// The share of the window kept for the next completion [default: 0.20, or the model class's].
    #[arg(long)]
    pub reserve: Option<f64>,
    /// Reserve preset: fast (15%), standard (20%), reasoning (30%).
    #[arg(long, value_name = "CLASS")]
    pub model_class: Option<String>,
    /// Tool schemas sent with the request (a JSON array), counted as `tool_schemas`.
    #[arg(long, value_name = "FILE")]
    pub tools: Option<PathBuf>,
}
