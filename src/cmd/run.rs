//! `briefly run -- CMD ARGS…`: runs a command, reduces its output, keeps its exit code.

use super::stderr::StderrCapture;
use super::{Event, Reply};
use crate::reducers;
use crate::session::Session;
use anyhow::{anyhow, Context, Result};
use briefly_core::{parse_duration, End, Push};
use serde_json::Value;
use std::io::ErrorKind;
use std::os::unix::process::ExitStatusExt;
use std::process::{ExitStatus, Stdio};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::net::unix::pipe;
use tokio::process::Command;
use tokio::signal::unix::SignalKind;

/// Exit code when the command ran out of time (as `timeout(1)`).
const EXIT_TIMEOUT: i32 = 124;
/// Exit code when the command could not be executed (as the shell).
const EXIT_NOT_EXECUTABLE: i32 = 126;
/// Exit code when the command was not found (as the shell).
const EXIT_NOT_FOUND: i32 = 127;

/// The longest a file's name can be (Linux's `NAME_MAX`, in bytes).
const NAME_MAX: usize = 255;
/// Characters of a command's name said when it cannot run.
const MAX_NAME_CHARS: usize = 200;
/// How long a timed-out command gets between SIGTERM and SIGKILL.
const KILL_GRACE: Duration = Duration::from_secs(2);
/// How long a command's output is still read after it exited, while a process it left
/// running (`server &`) holds the output open.
const EXIT_GRACE: Duration = Duration::from_secs(2);

pub fn run(
    session: &Session,
    reducer: Option<&str>,
    timeout: Option<&str>,
    stderr: StderrMode,
    argv: &[String],
) -> Result<i32> {
    let spawn = Spawn {
        stderr,
        ..Spawn::default()
    };
    match reply(session, reducer, timeout, argv, &spawn)? {
        Ran::Reduced(reply) => reply.print(session),
        Ran::NotStarted { why, reply } => {
            // As a shell says it, and in the envelope for a tool that reads stdout alone.
            say!("briefly: {why}");
            reply.print(session)
        }
    }
}

/// How the command is started beside briefly's own process.
#[derive(Debug, Default, Clone)]
pub struct Spawn {
    /// No standard input and no signal handlers: for a server whose standard input is a
    /// protocol channel and which must stay killable (`briefly mcp`). Otherwise the
    /// command reads briefly's standard input and gets the SIGINT/SIGTERM briefly gets.
    pub detached: bool,
    /// Run it in this directory.
    pub cwd: Option<std::path::PathBuf>,
    /// When cancelled, the command's process group gets SIGTERM (then SIGKILL), as on
    /// a timeout: a client gave up on the call.
    pub cancel: Option<tokio_util::sync::CancellationToken>,
    /// Where the command's standard error goes.
    pub stderr: StderrMode,
}

/// Where a command's standard error goes.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum StderrMode {
    /// Into the reducer with the output where the source writes its results there
    /// (cargo-test, docker; text for compilers, build tools and JavaScript's runners:
    /// cargo, gcc, make, go, gradle, npm, jest, docker build …, for package managers:
    /// pip, uv, apt-get, gem …, and for scripts' interpreters: python, node, java, ruby
    /// …); bounded apart for the others.
    #[default]
    Auto,
    /// Into the reducer with the output, in the order it was written (as `2>&1`).
    Merge,
    /// Bounded apart in the envelope's `stderr` field.
    Apart,
}

impl StderrMode {
    /// Whether stderr goes into reducer `name` with the output of `argv` (run from
    /// `cwd`).
    fn merges(self, name: &str, argv: &[String], cwd: Option<&std::path::Path>) -> bool {
        match self {
            StderrMode::Auto => {
                reducers::reads_stderr(name, argv)
                    // A script named by its path and run by its `#!` line (`./app.py`,
                    // behind wrappers: `timeout 30 ./app.py`), as by its interpreter; not
                    // a program found in PATH, a tool that may be written in any language.
                    || (name == "text"
                        && reducers::unwrapped(argv).first().is_some_and(|program| {
                            program.contains('/')
                                && script_interpreter(program, cwd).is_some_and(|line| {
                                    reducers::names_an_interpreter(line.trim())
                                })
                        }))
            }
            StderrMode::Merge => true,
            StderrMode::Apart => false,
        }
    }
}

/// What running a command came to.
pub enum Ran {
    /// It ran (to its end, a timeout or a signal): its reduced output.
    Reduced(Box<Reply>),
    /// It could not be started: why (`cannot run "x": command not found`), and the
    /// envelope of no output, whose summary and exit code (a shell's) say so.
    NotStarted { why: String, reply: Box<Reply> },
}

/// Runs `argv` and reduces its output.
pub fn reply(
    session: &Session,
    reducer: Option<&str>,
    timeout: Option<&str>,
    argv: &[String],
    spawn: &Spawn,
) -> Result<Ran> {
    // As GNU timeout reads it, 0 is no timeout.
    let timeout = (timeout.map(parse_duration).transpose()?).filter(|t| !t.is_zero());
    let name = match reducer {
        Some(name) => {
            reducers::find(name)
                .filter(|spec| spec.reads_output)
                .ok_or_else(|| anyhow!("unknown reducer {name:?} ({})", names()))?;
            name
        }
        None => reducers::pick(argv),
    };
    let argv = &reducers::adapt_argv(name, argv);
    let spec = reducers::find(name).expect("checked");
    let config = session.config(
        name,
        Value::Null,
        session.tee(session.global.id.clone(), argv.to_vec()),
    );
    let pipeline = (spec.build)(&Value::Null, config).map_err(|e| anyhow!(e))?;
    let stderr_chars = (session.budget.per_result_chars / 8).clamp(400, 4_000);
    let stderr = StderrCapture::new(
        stderr_chars / 2,
        session.artifact_dir().ok(),
        session.global.id.as_deref(),
    );

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the runtime")?;
    let merge = spawn.stderr.merges(name, argv, spawn.cwd.as_deref());
    let ran = runtime.block_on(drive(argv, timeout, pipeline, stderr, spawn, merge))?;
    let program = crate::reducers::launched_program(argv);
    let event = Event::Result(format!("run:{program}"));
    let Finished {
        pipeline,
        mut stderr,
        exit_code,
        ended_by,
        mut warnings,
        output_head,
    } = match ran {
        Outcome::Ran(ran) => *ran,
        Outcome::NotStarted(pipeline, exit_code, why) => {
            // A name of thousands of characters would push the reason out of the summary.
            let program = briefly_core::cut_str(&argv[0], MAX_NAME_CHARS);
            let why = format!("cannot run {program:?}: {why}");
            let envelope = pipeline.finish(End {
                exit_code: Some(exit_code),
                warnings: session.budget_warning.iter().cloned().collect(),
                stderr_summary: Some(why.clone()),
                ..End::default()
            });
            let reply = Box::new(Reply {
                envelope,
                exit_code,
                event,
            });
            return Ok(Ran::NotStarted { why, reply });
        }
    };
    warnings.extend(session.budget_warning.iter().cloned());
    let stderr_summary = stderr.summary(exit_code);
    let stderr = stderr.finish(argv, exit_code);
    warnings.extend(stderr.warning);
    let end = End {
        exit_code: Some(exit_code),
        ended_by,
        warnings,
        stderr: stderr.value,
        stderr_summary,
        keep_stderr: stderr.keep,
    };
    let envelope = if name == "table" && super::table::needs_random_access(&output_head, None) {
        table_from_artifact(session, pipeline, end)?
    } else {
        pipeline.finish(end)
    };
    Ok(Ran::Reduced(Box::new(Reply {
        envelope,
        exit_code,
        event,
    })))
}

/// A command's output that is a Parquet or Arrow IPC file, which the table reducer reads
/// out of order: from the artifact `pipeline` teed it to (kept by the reducer's refusal
/// to read it in order), as `briefly table` reads one on standard input.
fn table_from_artifact(
    session: &Session,
    pipeline: Box<dyn Push>,
    end: End,
) -> Result<briefly_core::Envelope> {
    if session.artifact_dir().is_err() {
        return Ok(pipeline.finish(end));
    }
    let refused = pipeline.finish(End {
        exit_code: end.exit_code,
        ..End::default()
    });
    match &refused.artifact_path {
        Some(saved) => {
            let options = briefly_table::TableOptions::default();
            super::table::saved_envelope(session, std::path::Path::new(saved), options, end)
        }
        // Not written (a full disk): the refusal, and why it was not saved.
        None => Ok(refused),
    }
}

fn names() -> String {
    reducers::REDUCERS
        .iter()
        .filter(|r| r.reads_output)
        .map(|r| r.name)
        .collect::<Vec<_>>()
        .join(", ")
}

struct Finished {
    pipeline: Box<dyn Push>,
    stderr: StderrCapture,
    exit_code: i32,
    /// Why it ended, when not of its own accord ([`End::ended_by`]).
    ended_by: Option<String>,
    warnings: Vec<String>,
    /// The output's first bytes, which tell a Parquet or Arrow IPC file.
    output_head: Vec<u8>,
}

/// Bytes of the output [`Finished::output_head`] holds.
const OUTPUT_HEAD: usize = 8;

enum Outcome {
    Ran(Box<Finished>),
    /// The pipeline back, unfed, with the exit code a shell would give, and why.
    NotStarted(Box<dyn Push>, i32, String),
}

async fn drive(
    argv: &[String],
    timeout: Option<Duration>,
    mut pipeline: Box<dyn Push>,
    mut stderr: StderrCapture,
    spawn: &Spawn,
    merge_stderr: bool,
) -> Result<Outcome> {
    let mut command = Command::new(&argv[0]);
    if let Some(dir) = &spawn.cwd {
        command.current_dir(dir);
    }
    command
        .args(&argv[1..])
        .stdin(if spawn.detached {
            Stdio::null()
        } else {
            Stdio::inherit()
        })
        .process_group(0)
        .kill_on_drop(true);
    // Merged, both go into one pipe, so the kernel keeps the order they were written in.
    let merged = if merge_stderr {
        let (reader, writer) = std::io::pipe().context("making a pipe")?;
        command
            .stdout(writer.try_clone().context("making a pipe")?)
            .stderr(writer);
        Some(reader)
    } else {
        command.stdout(Stdio::piped()).stderr(Stdio::piped());
        None
    };
    // A server's command ends with the server, whatever signal ends that.
    let (spawned, _held) =
        crate::groups::spawn_held(spawn.detached, || command.spawn(), |c| c.id());
    // The command holds the pipe's write ends: drop them so the output ends with the command.
    drop(command);
    let mut child = match spawned {
        Ok(child) => child,
        // A script without a `#!` line: the shell runs it, as a shell and execvp(3) do.
        Err(e) if e.raw_os_error() == Some(libc::ENOEXEC) && argv[0] != SHELL => {
            if let Some(script) = program_path(&argv[0]) {
                let mut by_shell = vec![SHELL.to_string(), script];
                by_shell.extend(argv[1..].iter().cloned());
                let driven = drive(&by_shell, timeout, pipeline, stderr, spawn, merge_stderr);
                return Box::pin(driven).await;
            }
            let (code, why) = why_not_started(&argv[0], spawn.cwd.as_deref(), &e);
            return Ok(Outcome::NotStarted(pipeline, code, why));
        }
        Err(e) => {
            let (code, why) = why_not_started(&argv[0], spawn.cwd.as_deref(), &e);
            return Ok(Outcome::NotStarted(pipeline, code, why));
        }
    };
    let pgid = child.id().map(|id| id as i32);
    let err_open = merged.is_none();
    let (mut out, mut err): (Box<dyn AsyncRead + Unpin>, Box<dyn AsyncRead + Unpin>) = match merged
    {
        Some(reader) => {
            let reader = pipe::Receiver::from_owned_fd(reader.into())
                .context("reading the command's output")?;
            (Box::new(reader), Box::new(tokio::io::empty()))
        }
        None => (
            Box::new(child.stdout.take().expect("piped")),
            Box::new(child.stderr.take().expect("piped")),
        ),
    };
    let (mut out_buf, mut err_buf) = (vec![0u8; super::CHUNK], vec![0u8; 64 * 1024]);
    let (mut out_open, mut err_open) = (true, err_open);
    let mut warnings = Vec::new();
    let mut output_head = Vec::with_capacity(OUTPUT_HEAD);
    let deadline = timeout.map(|t| tokio::time::Instant::now() + t);
    let mut timed_out = false;
    let mut interrupted = None;
    let mut kill_at: Option<tokio::time::Instant> = None;
    // Registering a handler replaces the default action for the whole process: a
    // detached run (a server's) must leave SIGTERM and SIGINT as they were.
    let mut sigterm = Signal::new(!spawn.detached, SignalKind::terminate())?;
    let mut sigint = Signal::new(!spawn.detached, SignalKind::interrupt())?;
    let cancel = spawn.cancel.clone().unwrap_or_default();
    let mut cancelled = false;
    let never = || tokio::time::Instant::now() + Duration::from_secs(86_400 * 365);

    // Until the command has exited and its pipes are closed; after a SIGKILL, once it has
    // exited (a process that left the group may hold the pipes open for ever); and
    // [`EXIT_GRACE`] after it exited, when a process it left running holds them.
    let mut status = None;
    let mut exited_at = None;
    let mut left_open = false;
    let mut killed = false;
    while status.is_none() || ((out_open || err_open) && !killed && !left_open) {
        tokio::select! {
            n = out.read(&mut out_buf), if out_open => match n {
                Ok(0) | Err(_) => out_open = false,
                Ok(n) => {
                    let wanted = OUTPUT_HEAD.saturating_sub(output_head.len()).min(n);
                    output_head.extend_from_slice(&out_buf[..wanted]);
                    pipeline.push(&out_buf[..n]);
                }
            },
            n = err.read(&mut err_buf), if err_open => match n {
                Ok(0) | Err(_) => err_open = false,
                Ok(n) => stderr.push(&err_buf[..n]),
            },
            exited = child.wait(), if status.is_none() => {
                status = Some(exited?);
                exited_at = Some(tokio::time::Instant::now());
            },
            _ = tokio::time::sleep_until(exited_at.map_or_else(never, |at| at + EXIT_GRACE)), if exited_at.is_some() => {
                left_open = true;
            },
            // A timeout is the command's: once it exited, what holds its output is not.
            _ = tokio::time::sleep_until(deadline.unwrap_or_else(never)), if deadline.is_some() && !timed_out && status.is_none() => {
                timed_out = true;
                signal_group(pgid, libc::SIGTERM);
                kill_at = Some(tokio::time::Instant::now() + KILL_GRACE);
            },
            _ = tokio::time::sleep_until(kill_at.unwrap_or_else(never)), if kill_at.is_some() => {
                signal_group(pgid, libc::SIGKILL);
                kill_at = None;
                killed = true;
            },
            _ = cancel.cancelled(), if !cancelled => {
                cancelled = true;
                signal_group(pgid, libc::SIGTERM);
                kill_at = Some(tokio::time::Instant::now() + KILL_GRACE);
            },
            _ = sigint.recv(), if interrupted.is_none() => {
                interrupted = Some(libc::SIGINT);
                signal_group(pgid, libc::SIGINT);
                kill_at = Some(tokio::time::Instant::now() + KILL_GRACE);
            },
            _ = sigterm.recv(), if interrupted.is_none() => {
                interrupted = Some(libc::SIGTERM);
                signal_group(pgid, libc::SIGTERM);
                kill_at = Some(tokio::time::Instant::now() + KILL_GRACE);
            },
        }
    }
    let status = status.expect("the loop ends only once the command has exited");
    let mut exit_code = exit_code_of(status);
    let mut ended_by = None;
    // Why a command killed by a signal failed, which its exit code only encodes (137:
    // often the kernel's OOM killer); not when briefly itself sent the signal.
    if !timed_out && !cancelled && interrupted.is_none() {
        warnings.extend(killed_by(status, reducers::runs_a_shell_script(argv)));
        ended_by = status.signal().map(|signal| match signal_meaning(signal) {
            Some((name, _)) => format!("killed by {name}"),
            None => format!("killed by signal {signal}"),
        });
    }
    if timed_out {
        exit_code = EXIT_TIMEOUT;
        let after = humantime::format_duration(timeout.unwrap_or_default());
        ended_by = Some(format!("timed out after {after}"));
        warnings.push(format!(
            "timed out after {after}: the command's process group was killed; its output so far is reduced here",
        ));
    }
    if cancelled {
        warnings.push("the call was cancelled: the command's process group was ended".into());
    }
    if left_open {
        warnings.push(format!(
            "the command exited, but a process it left running (in the background) still holds \
             its output open: what it writes after {} past the exit is not read, and it gets \
             SIGPIPE if it writes again (redirect its output, `server > server.log 2>&1 &`, to \
             keep it running)",
            humantime::format_duration(EXIT_GRACE)
        ));
    }
    if let Some(signal) = interrupted {
        warnings.push(format!(
            "briefly got signal {signal} and passed it to the command's process group"
        ));
    }
    Ok(Outcome::Ran(Box::new(Finished {
        pipeline,
        stderr,
        exit_code,
        ended_by,
        warnings,
        output_head,
    })))
}

/// A signal handler, or none (its `recv` then never completes).
struct Signal(Option<tokio::signal::unix::Signal>);

impl Signal {
    fn new(install: bool, kind: SignalKind) -> std::io::Result<Signal> {
        Ok(Signal(if install {
            Some(tokio::signal::unix::signal(kind)?)
        } else {
            None
        }))
    }

    async fn recv(&mut self) {
        match &mut self.0 {
            Some(signal) => {
                signal.recv().await;
            }
            None => std::future::pending().await,
        }
    }
}

fn signal_group(pgid: Option<i32>, signal: i32) {
    if let Some(pgid) = pgid {
        // SAFETY: kill(2) with a negative pid signals the process group we created.
        unsafe {
            libc::kill(-pgid, signal);
        }
    }
}

/// The shell a script without a `#!` line is run by.
const SHELL: &str = "/bin/sh";

/// Where `program` is: as given when it names a path (relative to the directory the
/// command runs in), else the first file of that name in `PATH`.
fn program_path(program: &str) -> Option<String> {
    if program.contains('/') {
        return Some(program.to_string());
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|path| path.is_file())
        .map(|path| path.display().to_string())
}

/// Where `program` (run from `cwd`) is, whatever is there ([`program_path`]).
fn program_location(program: &str, cwd: Option<&std::path::Path>) -> Option<std::path::PathBuf> {
    let path = std::path::PathBuf::from(program_path(program)?);
    Some(match cwd {
        Some(dir) if program.contains('/') => dir.join(path),
        _ => path,
    })
}

/// The file `program` (run from `cwd`) is, when there is one.
fn program_file(program: &str, cwd: Option<&std::path::Path>) -> Option<std::path::PathBuf> {
    program_location(program, cwd).filter(|path| path.is_file())
}

/// The program a `#!` line names (before its arguments), where it runs from `cwd`.
fn interpreter_path(line: &str, cwd: Option<&std::path::Path>) -> std::path::PathBuf {
    let program = line.split([' ', '\t']).next().unwrap_or(line);
    cwd.map_or_else(|| program.into(), |dir| dir.join(program))
}

/// The exit code a shell gives for `program` (run from `cwd`) that could not be
/// started with `e`, and why, in words.
fn why_not_started(
    program: &str,
    cwd: Option<&std::path::Path>,
    e: &std::io::Error,
) -> (i32, String) {
    match e.kind() {
        ErrorKind::NotFound => {
            // The program is there, but the interpreter its `#!` line names is not.
            if let Some(interpreter) = script_interpreter(program, cwd) {
                let line = interpreter.trim();
                let there = interpreter_path(line, cwd).is_file();
                let wrong = match (there, interpreter.ends_with('\r')) {
                    // Saved with Windows' line ends: the kernel looks for `/bin/sh\r`.
                    (true, true) => "ends with a carriage return (Windows' line ends), which is read as part of the program's name",
                    (true, false) => "names a program that is there but cannot start (its own loader is missing: built for another system?)",
                    (false, _) => "names a program that does not exist",
                };
                let why = format!("bad interpreter: its first line, #!{line}, {wrong}");
                return (EXIT_NOT_EXECUTABLE, why);
            }
            // A binary whose loader (its ELF interpreter) is missing: built for another
            // system, or for a libc that is not installed. A shell says 127 too.
            let why = match program_file(program, cwd) {
                Some(_) => "its file is there, but not the program that loads it (a binary built for another system, or its dynamic loader missing)",
                None => "command not found",
            };
            (EXIT_NOT_FOUND, why.into())
        }
        ErrorKind::PermissionDenied => (EXIT_NOT_EXECUTABLE, why_denied(program, cwd, e)),
        // A bare name is looked for on PATH, where a name longer than any file's can be
        // is found nowhere: a shell says 127 for it, as for any name it cannot find. (A
        // shorter name's ENAMETOOLONG comes from elsewhere, a long --cwd say.)
        _ if !program.contains('/')
            && program.len() > NAME_MAX
            && e.raw_os_error() == Some(libc::ENAMETOOLONG) =>
        {
            (EXIT_NOT_FOUND, e.to_string())
        }
        _ => (EXIT_NOT_EXECUTABLE, e.to_string()),
    }
}

/// Why the kernel would not run `program` (from `cwd`), refused with `e` (`EACCES`):
/// the program, or the interpreter its `#!` line names, is a directory or has no
/// execute permission. Else (a file system mounted noexec, say) `e` as it is.
fn why_denied(program: &str, cwd: Option<&std::path::Path>, e: &std::io::Error) -> String {
    use std::os::unix::fs::PermissionsExt;
    let what = |path: &std::path::Path| match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => Some("a directory"),
        Ok(meta) if meta.permissions().mode() & 0o111 == 0 => {
            Some("a file without execute permission")
        }
        _ => None,
    };
    if let Some(what) = program_location(program, cwd).as_deref().and_then(what) {
        return format!("{e}: it is {what}");
    }
    if let Some(interpreter) = script_interpreter(program, cwd) {
        let line = interpreter.trim();
        if let Some(what) = what(&interpreter_path(line, cwd)) {
            return format!("bad interpreter: its first line, #!{line}, names {what}");
        }
    }
    e.to_string()
}

/// The interpreter a script's `#!` line names, when `program` (run from `cwd`, or
/// found in `PATH`) is a script that has one: for what `ENOENT` means (the kernel says
/// so both when the program is missing and when its interpreter is), and to read a
/// script's stderr as its interpreter's.
fn script_interpreter(program: &str, cwd: Option<&std::path::Path>) -> Option<String> {
    use std::io::Read;
    let path = program_file(program, cwd)?;
    let mut head = [0u8; 256];
    let n = std::fs::File::open(path).ok()?.read(&mut head).ok()?;
    let line = head[..n].split(|&b| b == b'\n').next()?;
    let interpreter = String::from_utf8_lossy(line.strip_prefix(b"#!")?);
    // A `\r` ending it stays: the kernel reads it as part of the name.
    Some(interpreter.trim_matches([' ', '\t']).to_string())
}

/// What a command's death by a signal says, when it died so: `killed by signal 9
/// (SIGKILL: …)`, its exit code being 128 + the signal's number. A shell's script
/// (`shell_script`) reports a command it ran killed by signal N by exiting with 128 + N
/// itself (dash, or any shell with more to run after it): said of those codes too, as
/// likely, since a script may exit so of its own accord.
fn killed_by(status: ExitStatus, shell_script: bool) -> Option<String> {
    if let Some(signal) = status.signal() {
        let core = if status.core_dumped() {
            ", core dumped"
        } else {
            ""
        };
        return Some(format!(
            "the command was killed by {}{core}; its exit code {} is 128 + {signal}",
            signal_name(signal),
            128 + signal
        ));
    }
    let code = status.code()?;
    // Only a signal with a common meaning: any code may be a script's own.
    let signal = code.checked_sub(128).filter(|_| shell_script)?;
    signal_meaning(signal)?;
    Some(format!(
        "the shell's exit code {code} is 128 + {signal}, as a shell reports a command it \
         ran that was killed by {} (unless the script exited so itself)",
        signal_name(signal)
    ))
}

/// A signal's number, name and what it usually means: `signal 9 (SIGKILL: killed
/// outright, …)`; the number alone for a signal without a common meaning.
fn signal_name(signal: i32) -> String {
    match signal_meaning(signal) {
        Some((name, why)) => format!("signal {signal} ({name}: {why})"),
        None => format!("signal {signal}"),
    }
}

/// A signal's name and what it usually means, for those a command commonly dies of.
fn signal_meaning(signal: i32) -> Option<(&'static str, &'static str)> {
    match signal {
        libc::SIGKILL => Some((
            "SIGKILL",
            "killed outright, as by the kernel's OOM killer when memory ran out, or kill -9",
        )),
        libc::SIGSEGV => Some(("SIGSEGV", "a segmentation fault, an invalid memory access")),
        libc::SIGABRT => Some((
            "SIGABRT",
            "it aborted, as on a failed assertion or an uncaught C++ exception",
        )),
        libc::SIGBUS => Some(("SIGBUS", "a bus error, an invalid memory access")),
        libc::SIGFPE => Some(("SIGFPE", "an arithmetic error, as a division by zero")),
        libc::SIGILL => Some(("SIGILL", "an illegal instruction")),
        libc::SIGTERM => Some(("SIGTERM", "asked to terminate")),
        libc::SIGINT => Some(("SIGINT", "interrupted")),
        libc::SIGPIPE => Some(("SIGPIPE", "it wrote to a pipe nobody read")),
        libc::SIGHUP => Some(("SIGHUP", "its terminal hung up")),
        _ => None,
    }
}

fn exit_code_of(status: ExitStatus) -> i32 {
    status
        .code()
        .unwrap_or_else(|| 128 + status.signal().unwrap_or(0))
}
