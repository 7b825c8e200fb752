//! `briefly`: reduces command output for LLM agents.

/// `eprintln!`, but a stderr nobody reads (a closed pipe) is no panic: there is no one
/// left to tell then.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod cli;
mod cmd;
mod content;
mod groups;
mod mcp;
mod reducers;
mod render;
mod session;

use cli::{Cli, Command};
use session::Session;
use std::process::ExitCode;

/// briefly's own errors (bad options, unreadable input) exit with this.
const EXIT_ERROR: u8 = 2;

fn main() -> ExitCode {
    use clap::{parser::ValueSource, CommandFactory, FromArgMatches};
    // A reader's panic on a malformed file is told in the envelope, not on stderr.
    briefly_core::quiet_contained_panics();
    let matches = Cli::command().get_matches();
    let mut cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let global = &mut cli.global;
    global.budget_is_default = matches.value_source("context_tokens")
        == Some(ValueSource::EnvVariable)
        && global.max_chars.is_none()
        && global.remaining_from.is_none();
    match run(cli) {
        Ok(code) => ExitCode::from(code.clamp(0, 255) as u8),
        Err(e) if cmd::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            say!("briefly: {e:#}");
            ExitCode::from(EXIT_ERROR)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<i32> {
    let session = Session::new(cli.global)?;
    match &cli.command {
        Command::Spill { file } => cmd::spill::run(&session, file.as_deref()),
        Command::Text {
            file,
            level,
            since,
            until,
            grep,
            top,
            context,
            whole_chars,
            emit_groups,
        } => {
            let options = briefly_text::TextOptions {
                whole_chars: *whole_chars,
                ..cmd::text::options(
                    level.as_deref(),
                    since.as_deref(),
                    until.as_deref(),
                    grep.clone(),
                    *top,
                    *context,
                    emit_groups.clone(),
                )?
            };
            cmd::text::run(&session, file.as_deref(), options)
        }
        Command::Diff {
            file,
            stat_only,
            paths,
            max_hunk_lines,
            context,
            only,
        } => {
            let options = briefly_diff::DiffOptions {
                stat_only: *stat_only,
                paths: paths.clone(),
                max_hunk_lines: *max_hunk_lines,
                context: *context,
                file: only.clone(),
                layout_chars: None,
            };
            cmd::reduce_file(
                &session,
                "diff",
                serde_json::to_value(options)?,
                file.as_deref(),
            )
        }
        Command::Pytest { file, junit, lines } => {
            // A report named as the file is read as one (`briefly pytest report.xml`).
            let report = file.as_deref().is_some_and(cmd::is_junit_file);
            let options = briefly_testrun::PytestOptions {
                lines: *lines,
                junit: junit.is_some() || report,
            };
            let input = junit.as_deref().or(file.as_deref());
            cmd::reduce_file(&session, "pytest", serde_json::to_value(options)?, input)
        }
        Command::CargoTest {
            file,
            lines,
            warnings,
        } => {
            let options = briefly_testrun::CargoTestOptions {
                lines: *lines,
                warnings: *warnings,
            };
            cmd::reduce_file(
                &session,
                "cargo-test",
                serde_json::to_value(options)?,
                file.as_deref(),
            )
        }
        Command::Journal {
            input,
            journal_file,
            level,
            since,
            until,
            unit,
            whole_chars,
        } => {
            let options = cmd::logs::journal_options(
                level.as_deref(),
                since.as_deref(),
                until.as_deref(),
                unit.clone(),
                *whole_chars,
            )?;
            cmd::logs::journal(&session, input.as_deref(), journal_file.as_deref(), options)
        }
        Command::Docker {
            file,
            since,
            until,
            stream,
            level,
            tail,
            whole_chars,
        } => {
            let options = cmd::logs::docker_options(
                since.as_deref(),
                until.as_deref(),
                stream.clone(),
                level.as_deref(),
                *tail,
                *whole_chars,
            )?;
            cmd::reduce_file(
                &session,
                "docker",
                serde_json::to_value(options)?,
                file.as_deref(),
            )
        }
        Command::Json {
            file,
            fields,
            conditions,
            count_by,
            top,
            sort,
            desc,
            limit,
            records,
            max_record_bytes,
            max_document_bytes,
            max_depth,
            max_string_chars,
            whole_chars,
        } => {
            let options = briefly_json::JsonOptions {
                fields: fields.clone(),
                conditions: conditions.clone(),
                count_by: count_by.clone(),
                top: *top,
                sort: sort.clone(),
                desc: *desc,
                limit: *limit,
                records: records.clone(),
                max_record_bytes: *max_record_bytes,
                max_document_bytes: *max_document_bytes,
                max_depth: *max_depth,
                max_string_chars: *max_string_chars,
                whole_chars: *whole_chars,
                whole_value_chars: None,
            };
            // Options that do not parse are briefly's own error, before any input is read.
            briefly_json::Json::new(options.clone())?;
            cmd::reduce_file(
                &session,
                "json",
                serde_json::to_value(options)?,
                file.as_deref(),
            )
        }
        Command::Table {
            file,
            columns,
            filters,
            rows,
            tail,
            sample,
            seed,
            max_columns,
            max_value_chars,
            input_format,
            delimiter,
            no_header,
            scan,
        } => {
            let options = briefly_table::TableOptions {
                columns: columns.clone(),
                filters: filters.clone(),
                rows: *rows,
                tail: *tail,
                sample: *sample,
                seed: *seed,
                max_columns: *max_columns,
                max_value_chars: *max_value_chars,
                input_format: input_format
                    .as_deref()
                    .map(cmd::table::input_format)
                    .transpose()?,
                delimiter: *delimiter,
                no_header: *no_header,
                scan: *scan,
                fingerprint: None,
            };
            cmd::table::run(&session, file.as_deref(), options)
        }
        Command::Turn { file } => cmd::turn::run(&session, file.as_deref()),
        Command::Page { cursor } => cmd::artifacts::page(&session, cursor),
        Command::Read {
            artifact,
            offset,
            column,
            limit,
        } => cmd::artifacts::read(&session, artifact, *offset, *column, *limit),
        Command::Grep {
            artifact,
            pattern,
            context,
            ignore_case,
        } => cmd::artifacts::grep(&session, artifact, pattern, *context, *ignore_case),
        Command::Run {
            reducer,
            timeout,
            stderr,
            command,
        } => cmd::run::run(
            &session,
            reducer.as_deref(),
            timeout.as_deref(),
            *stderr,
            command,
        ),
        Command::Budget => cmd::budget::run(&session),
        Command::Context(command) => cmd::context::run(&session, command),
        Command::Gc { older_than } => cmd::artifacts::gc(&session, older_than),
        Command::Stats { file } => cmd::stats::run(&session, file),
        Command::Mcp => mcp::server::serve(session.global),
        Command::McpProxy {
            max_message_bytes,
            command,
        } => mcp::proxy::run(session.global, *max_message_bytes, command),
    }
}
