//! `briefly`: reduces command output for LLM agents.

mod cli;
mod cmd;
mod reducers;
mod render;
mod session;

use clap::Parser;
use cli::{Cli, Command};
use session::Session;
use std::process::ExitCode;

/// briefly's own errors (bad options, unreadable input) exit with this.
const EXIT_ERROR: u8 = 2;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => ExitCode::from(code.clamp(0, 255) as u8),
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("briefly: {e:#}");
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
            emit_groups,
        } => {
            let options = cmd::text::options(
                level.as_deref(),
                since.as_deref(),
                until.as_deref(),
                grep.clone(),
                *top,
                *context,
                emit_groups.clone(),
            )?;
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
            };
            cmd::reduce_file(
                &session,
                "diff",
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
            limit,
        } => cmd::artifacts::read(&session, artifact, *offset, *limit),
        Command::Grep {
            artifact,
            pattern,
            context,
            ignore_case,
        } => cmd::artifacts::grep(&session, artifact, pattern, *context, *ignore_case),
        Command::Run {
            reducer,
            timeout,
            command,
        } => cmd::run::run(&session, reducer.as_deref(), timeout.as_deref(), command),
        Command::Budget => cmd::budget::run(&session),
        Command::Context(command) => cmd::context::run(&session, command),
        Command::Gc { older_than } => cmd::artifacts::gc(&session, older_than),
        Command::Stats { file } => cmd::stats::run(&session, file),
    }
}

/// A closed stdout (the reader went away) is not an error: exit quietly.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
