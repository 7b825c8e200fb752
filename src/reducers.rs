//! The reducers this binary knows by name: for `page` (which rebuilds a reducer from a
//! cursor) and for `run` (which picks one from the command).

use crate::cmd::rows::{Rows, RowsOptions};
use crate::cmd::stats::MetricsSummary;
use briefly_core::{Artifacts, Pipeline, Push, Reducer, RunConfig};
use briefly_diff::{Diff, DiffOptions};
use briefly_json::{Json, JsonOptions};
use briefly_logs::{Docker, DockerOptions, Journal, JournalOptions};
use briefly_plain::{piece_chars_for, Grep, GrepOptions, Lines, LinesOptions, Spill, SpillOptions};
use briefly_table::{Table, TableOptions};
use briefly_testrun::{CargoTest, CargoTestOptions, Junit, Pytest, PytestOptions};
use briefly_text::{Text, TextOptions};
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Builds a reducer from its options (as kept in a cursor), behind the budget stage.
pub type Build = fn(&Value, RunConfig) -> Result<Box<dyn Push>, String>;

/// A reducer the command line can name.
pub struct ReducerSpec {
    /// The name: the envelope's `source` and `--reducer`'s value.
    pub name: &'static str,
    /// It reduces a command's output (`run --reducer` may name it; `read` shows its
    /// lines in order). The others read an artifact with options `run` cannot give, or
    /// a metrics file, or list a command's own rows: they are here for `page`.
    pub reads_output: bool,
    /// Builds it.
    pub build: Build,
}

/// Every reducer, in the order `--help` lists them.
pub const REDUCERS: &[ReducerSpec] = &[
    ReducerSpec {
        name: "spill",
        reads_output: true,
        build: |options, config| {
            let options = options_of::<SpillOptions>(options)?;
            options.validate()?;
            Ok(pipe(Spill::new(options), config))
        },
    },
    ReducerSpec {
        name: "text",
        reads_output: true,
        build: |options, mut config| {
            // Its runs and records, as its first page's budget makes them: kept in the
            // cursor, so that its pages make the same; a record keeps what this page holds.
            let per_result_chars = config.budget.per_result_chars;
            let options = TextOptions {
                page_chars: Some(per_result_chars),
                ..options_of::<TextOptions>(options)?.laid_out_for(per_result_chars)
            };
            config.options["layout_chars"] = options.layout_chars.into();
            config.options["whole_chars"] = options.whole_chars.into();
            Ok(pipe(Text::new(options)?, config))
        },
    },
    ReducerSpec {
        name: "diff",
        reads_output: true,
        build: |options, mut config| {
            // `--file`'s parts of a long hunk, as its first page's budget makes them: kept
            // in the cursor, so that its pages make the same.
            let mut options = options_of::<DiffOptions>(options)?;
            options.layout_chars = options
                .layout_chars
                .or(Some(config.budget.per_result_chars));
            config.options["layout_chars"] = options.layout_chars.into();
            Ok(pipe(Diff::new(options)?, config))
        },
    },
    ReducerSpec {
        name: "pytest",
        reads_output: true,
        build: |options, config| {
            let options = options_of::<PytestOptions>(options)?;
            Ok(if options.junit {
                pipe(Junit::new(options)?, config)
            } else {
                pipe(Pytest::new(options)?, config)
            })
        },
    },
    ReducerSpec {
        name: "cargo-test",
        reads_output: true,
        build: |options, config| {
            Ok(pipe(
                CargoTest::new(options_of::<CargoTestOptions>(options)?)?,
                config,
            ))
        },
    },
    ReducerSpec {
        name: "journal",
        reads_output: true,
        build: |options, config| {
            let journal =
                Journal::new(options_of::<JournalOptions>(options)?).map_err(|e| e.to_string())?;
            Ok(pipe(journal, config))
        },
    },
    ReducerSpec {
        name: "docker",
        reads_output: true,
        build: |options, config| {
            let docker =
                Docker::new(options_of::<DockerOptions>(options)?).map_err(|e| e.to_string())?;
            Ok(pipe(docker, config))
        },
    },
    ReducerSpec {
        name: "json",
        reads_output: true,
        build: |options, mut config| {
            // A value returned whole takes at most half a page, as its first page's budget
            // makes it: kept in the cursor, so that its pages decide the same.
            let mut options = options_of::<JsonOptions>(options)?;
            let half_page = config.budget.per_result_chars / 2;
            options.whole_value_chars = options.whole_value_chars.or(Some(half_page));
            config.options["whole_value_chars"] = options.whole_value_chars.into();
            let reducer = Json::new(options).map_err(|e| e.to_string())?;
            Ok(pipe(reducer, config))
        },
    },
    ReducerSpec {
        name: "table",
        reads_output: true,
        build: |options, config| {
            let options = options_of::<TableOptions>(options)?;
            // A file (the user's, or a stream's artifact on a page) is read by the
            // reducer itself, Parquet by row group; fresh standard input is pushed.
            let table = match &config.artifacts {
                Artifacts::Existing { path, .. } => Table::file(options, path),
                _ => Table::stream(options),
            };
            let table = table.map_err(|e| match &config.artifacts {
                Artifacts::Existing { path, .. } => format!("{}: {e}", path.display()),
                _ => e.to_string(),
            })?;
            Ok(pipe(table, config))
        },
    },
    ReducerSpec {
        name: "read",
        reads_output: true,
        build: |options, config| {
            let mut options = options_of::<LinesOptions>(options)?;
            // A long line comes in pieces, as `briefly read` cuts them, under `run` too:
            // the budget would cut it, and no page would hold the rest.
            (options.piece_chars).get_or_insert(piece_chars_for(config.budget.per_result_chars));
            Ok(pipe(Lines::new(options), config))
        },
    },
    ReducerSpec {
        name: "grep",
        reads_output: false,
        build: |options, config| {
            Ok(pipe(
                Grep::new(options_of::<GrepOptions>(options)?)?,
                config,
            ))
        },
    },
    ReducerSpec {
        name: "stats",
        reads_output: false,
        build: |_, config| Ok(pipe(MetricsSummary::default(), config)),
    },
    ReducerSpec {
        name: "budget",
        reads_output: false,
        build: |options, config| Ok(pipe(Rows::new(options_of::<RowsOptions>(options)?), config)),
    },
    ReducerSpec {
        name: "context",
        reads_output: false,
        build: |options, config| Ok(pipe(Rows::new(options_of::<RowsOptions>(options)?), config)),
    },
];

/// The reducer named `name`.
pub fn find(name: &str) -> Option<&'static ReducerSpec> {
    REDUCERS.iter().find(|spec| spec.name == name)
}

fn pipe<R: Reducer + 'static>(reducer: R, config: RunConfig) -> Box<dyn Push> {
    Box::new(Pipeline::new(reducer, config))
}

/// A reducer's options from a cursor; none at all means every option's default.
fn options_of<T: DeserializeOwned>(options: &Value) -> Result<T, String> {
    let options = match options {
        Value::Null => &Value::Object(Default::default()),
        // (serde would read an array's elements as the fields in order; a cursor's
        // options are an object, which a builder adds to.)
        Value::Object(_) => options,
        other => return Err(format!("reducer options: not an object: {other}")),
    };
    serde_json::from_value(options.clone()).map_err(|e| format!("reducer options: {e}"))
}

/// The reducer for a command line: the source-aware one when there is one, else the
/// generic fallback. Wrappers (`env`, `sudo`, `time`, `uv run`, `python -m` …) are
/// looked through, and so is a shell's `-c` to its script's one command
/// ([`script_command`]).
pub fn pick(argv: &[String]) -> &'static str {
    let wanted = source_of(argv);
    if find(wanted).is_some_and(|spec| spec.reads_output) {
        wanted
    } else {
        "text"
    }
}

/// Whether `run` reads the command's standard error together with its output (as
/// `2>&1` would) for reducer `name` running `argv`: cargo prints compile errors, and
/// nextest its whole report, on stderr; `docker logs` replays the container's stderr on
/// its own; and compilers, build tools and the test runners of JavaScript write what
/// they found there (Jest its report, BuildKit and Bazel everything), among the commands
/// they run on stdout, so `text` reads them in the order written; so do package
/// managers (`pip install`'s `ERROR: No matching distribution`). So do the
/// interpreters of scripts (`python3 app.py`, `node server.js`, `java -jar app.jar`):
/// a program's traceback, its log (Python's `logging` writes to stderr) and its
/// warnings are there, and a traceback's frames only mean something together. And so do
/// tools whose report is stderr (valgrind, strace, psql and sqlite3 running a script,
/// prove, Terraform).
pub fn reads_stderr(name: &str, argv: &[String]) -> bool {
    if matches!(name, "cargo-test" | "docker") {
        return true;
    }
    if name != "text" {
        return false;
    }
    // A script of several commands (`cd app && make clean && make -k`): where any of
    // them reads it so.
    if script_commands_of(argv).is_some_and(|commands| {
        commands
            .iter()
            .any(|command| launches_a_stderr_reader(command))
    }) {
        return true;
    }
    launches_a_stderr_reader(argv)
}

/// Whether the program `argv` launches writes what matters on stderr, read with its
/// output: a compiler, a build tool, a package manager, a script's interpreter
/// ([`reads_stderr`]).
fn launches_a_stderr_reader(argv: &[String]) -> bool {
    let launched = launched_words(argv);
    if launched
        .first()
        .is_some_and(|program| is_interpreter(program))
    {
        return true;
    }
    let words = module_run(launched);
    let word = |i: usize| words.get(i).map_or("", String::as_str);
    match word(0) {
        "cargo" | "rustc" | "cc" | "c++" | "gcc" | "g++" | "clang" | "clang++" | "make"
        | "gmake" | "cmake" | "ninja" | "bazel" | "go" | "javac" | "mvn" | "mvnw" | "gradle"
        | "gradlew" | "tsc" | "zig" | "swift" | "swiftc" | "dotnet" | "npm" | "npx" | "pnpm"
        | "yarn" | "jest" => true,
        // Package managers: what failed to install is on stderr, the progress on stdout.
        "pip" | "pip3" | "uv" | "poetry" | "pdm" | "conda" | "mamba" | "gem" | "bundle"
        | "composer" | "apt" | "apt-get" | "dnf" | "yum" | "brew" => true,
        "docker" | "podman" => word(1) == "build" || (word(1) == "buildx" && word(2) == "build"),
        // Tools whose report is stderr, about the program's output on stdout: a memory
        // checker's, a tracer's, a database shell's errors among a script's results,
        // prove's diagnostics under each `not ok`, Terraform's errors.
        "valgrind" | "strace" | "ltrace" | "psql" | "sqlite3" | "mysql" | "prove" | "terraform"
        | "tofu" => true,
        _ => false,
    }
}

/// Whether a script's `#!` line (`/usr/bin/env python3`, `/usr/bin/node`, without the
/// `#!`) runs it with a program that runs scripts ([`is_interpreter`]).
pub fn names_an_interpreter(shebang: &str) -> bool {
    // `env`'s options (`-S`) and settings (`A=1`) come before the program, as on a
    // command line.
    let words: Vec<String> = shebang.split_whitespace().map(String::from).collect();
    launched_words(&words)
        .first()
        .is_some_and(|program| is_interpreter(program))
}

/// A program that runs scripts: Python (any version, PyPy), Node, Deno, Bun, Ruby,
/// Perl, PHP, the JVM, R, Julia, Lua.
fn is_interpreter(program: &str) -> bool {
    program.starts_with("python")
        || program.starts_with("pypy")
        || matches!(
            program,
            "node"
                | "deno"
                | "bun"
                | "ruby"
                | "perl"
                | "php"
                | "java"
                | "Rscript"
                | "julia"
                | "lua"
        )
}

/// The command line `run` executes for reducer `name`: asks the source for the format
/// the reducer reads best when the user did not choose one (`journalctl -o json`,
/// `docker logs --timestamps`); otherwise `argv` unchanged.
pub fn adapt_argv(name: &str, argv: &[String]) -> Vec<String> {
    let mut argv = argv.to_vec();
    let has = |argv: &[String], test: &dyn Fn(&str) -> bool| argv.iter().any(|w| test(w));
    match name {
        "journal" => {
            if let Some(at) = argv.iter().position(|w| basename(w) == "journalctl") {
                if journal_output(&argv[at..]).is_none() {
                    // `--all`: else a field over 4096 bytes (a traceback) is null.
                    let all = has(&argv[at..], &|w| w == "-a" || w == "--all");
                    let asked = ["-o", "json"].into_iter().chain((!all).then_some("--all"));
                    argv.splice(at + 1..at + 1, asked.map(str::to_string));
                }
            }
        }
        "docker" => {
            let at = argv
                .iter()
                .position(|w| matches!(basename(w), "docker" | "podman"));
            let logs =
                at.and_then(|at| argv[at..].iter().position(|w| w == "logs").map(|i| at + i));
            if let Some(logs) = logs {
                if !has(&argv[logs..], &|w| w == "-t" || w == "--timestamps") {
                    argv.insert(logs + 1, "--timestamps".to_string());
                }
            }
        }
        _ => {}
    }
    argv
}

fn source_of(argv: &[String]) -> &'static str {
    let mut words = command_words(argv);
    // A tool's own options come before its command: `git -C DIR --no-pager diff`,
    // `cargo +nightly --locked test` (a toolchain is one of cargo's).
    match words.first().map(String::as_str) {
        Some("git") => drop_own_options(
            &mut words,
            &["-C", "-c", "--git-dir", "--work-tree", "--namespace"],
        ),
        Some("cargo") => drop_own_options(&mut words, &["--color", "--config", "-Z", "-C"]),
        _ => {}
    }
    let word = |i: usize| words.get(i).map(String::as_str).unwrap_or_default();
    match word(0) {
        "pytest" | "py.test" => "pytest",
        "cargo"
            if matches!(word(1), "test" | "t")
                || (word(1) == "nextest" && matches!(word(2), "run" | "r")) =>
        {
            "cargo-test"
        }
        "git"
            if matches!(word(1), "diff" | "show" | "format-patch" | "log")
                && (word(1) != "log"
                    || words.iter().any(|w| {
                        matches!(w.as_str(), "-p" | "--patch" | "--stat")
                            || w.starts_with("--stat=")
                    }))
                && !prints_no_patch(&words, argv) =>
        {
            "diff"
        }
        "diff"
            if words
                .iter()
                .any(|w| w.starts_with("-u") || w == "--unified") =>
        {
            "diff"
        }
        // In a script `run` cannot ask for JSON (`adapt_argv`): the script must.
        "journalctl"
            if argv.iter().any(|w| basename(w) == "journalctl")
                || matches!(journal_output(&words), Some("json" | "export")) =>
        {
            "journal"
        }
        _ if json_output(&words) => "json",
        "docker" | "podman" if word(1) == "logs" || (word(1) == "compose" && word(2) == "logs") => {
            "docker"
        }
        _ => "text",
    }
}

/// Drops the options of the tool `words` names, between it and its command
/// ([`options_end`]).
fn drop_own_options(words: &mut Vec<String>, valued: &[&str]) {
    let end = options_end(words, 1, valued);
    words.drain(1..end.min(words.len()));
}

/// Where the words after a tool's options start in `words`, read from `from`: each word
/// that starts with `-` or `+` is an option (`-` alone too: `env -`), and so is the value
/// after one named in `valued`, or after a run of short ones ending in one (`sudo -Eu
/// postgres`); `--` ends them. Past the end when a value is missing.
fn options_end(words: &[String], from: usize, valued: &[&str]) -> usize {
    let mut at = from;
    while let Some(word) = words.get(at) {
        if !(word.starts_with('-') || word.starts_with('+')) {
            break;
        }
        at += 1;
        if word == "--" {
            break;
        }
        let cluster_ends_valued = !word.starts_with("--")
            && word.len() > 2
            && word
                .chars()
                .last()
                .is_some_and(|last| valued.iter().any(|v| v.len() == 2 && v.ends_with(last)));
        if valued.contains(&word.as_str()) || cluster_ends_valued {
            at += 1;
        }
    }
    at
}

/// Whether `git diff`/`show`/`log` with `words` (from `git`) prints no patch: a list of
/// names (`--name-only`, `--name-status`, `--raw`, `--summary`, `--check`), nothing but
/// the commit (`-s`, `--no-patch`), or a file as it was (`git show HEAD:a.txt`), unless
/// a patch is asked for too (`-p`).
fn prints_no_patch(words: &[String], argv: &[String]) -> bool {
    let patch = words
        .iter()
        .any(|w| w == "-p" || w == "--patch" || w == "-u");
    let listed = words.iter().any(|w| {
        matches!(
            w.as_str(),
            "--name-only"
                | "--name-status"
                | "--raw"
                | "--summary"
                | "--check"
                | "-s"
                | "--no-patch"
        )
    });
    // `REV:PATH` names a blob (read in `argv`: `words` are basenames); a path of its own
    // follows `--`.
    let blob = words.get(1).is_some_and(|w| w == "show")
        && argv
            .iter()
            .skip_while(|w| *w != "show")
            .skip(1)
            .take_while(|w| *w != "--")
            .any(|w| !w.starts_with('-') && w.contains(':'));
    !patch && (listed || blob)
}

/// The output journalctl's `words` choose (`-o json`, `-ojson`, `--output json`,
/// `--output=export`), if any; `""` when the option's value is missing.
fn journal_output(words: &[String]) -> Option<&str> {
    words.iter().enumerate().find_map(|(i, word)| {
        let next = || words.get(i + 1).map_or("", String::as_str);
        match word.as_str() {
            "-o" | "--output" => Some(next()),
            long if long.starts_with("--output=") => Some(&long["--output=".len()..]),
            short if short.starts_with("-o") => Some(&short[2..]),
            _ => None,
        }
    })
}

/// Commands asked for JSON output: `kubectl get -o json`, `docker inspect`, `gh … --json`,
/// `aws …` with `--output json`, `jq`, `terraform show -json`, `npm ls --json`.
fn json_output(words: &[String]) -> bool {
    let has = |flag: &str| words.iter().any(|w| w == flag);
    // `-o json`, `-ojson`, `--output json`, `--output=json`, `--format json`.
    let asks_json = words.windows(2).any(|pair| {
        matches!(pair[0].as_str(), "-o" | "--output" | "--format" | "-f") && pair[1] == "json"
    }) || words.iter().any(|w| {
        matches!(
            w.as_str(),
            "-ojson" | "--output=json" | "--format=json" | "-o=json"
        )
    });
    match words.first().map(String::as_str).unwrap_or_default() {
        "kubectl" | "oc" | "helm" | "aws" | "az" | "gcloud" | "doctl" => asks_json,
        "docker" | "podman" => {
            words.get(1).is_some_and(|w| w == "inspect") || has("--format=json") || asks_json
        }
        "gh" => words
            .iter()
            .any(|w| w == "--json" || w.starts_with("--json=")),
        "terraform" | "tofu" => has("-json"),
        "npm" | "pnpm" | "yarn" => has("--json"),
        "jq" | "jaq" | "gojq" => !words.iter().any(|w| raw_output(w)),
        _ => false,
    }
}

/// Whether a jq option asks for raw output (strings without quotes: text, not JSON):
/// `-r`, `-j`, their long forms, or either among short flags run together (`-cr`,
/// `-er`).
fn raw_output(word: &str) -> bool {
    let short = word.strip_prefix('-').filter(|flags| {
        !flags.starts_with('-')
            && !flags.is_empty()
            && flags.bytes().all(|b| b.is_ascii_alphabetic())
    });
    matches!(word, "--raw-output" | "--raw-output0" | "--join-output")
        || short.is_some_and(|flags| flags.contains(['r', 'j']))
}

/// The words of the command proper: program basenames, wrappers and `VAR=value` removed,
/// and `python -m` before a module's name.
fn command_words(argv: &[String]) -> Vec<String> {
    module_run(launched_words(argv))
}

/// `words` without `python -m` before a module's name, and the interpreter's options
/// before it (`python -u -X dev -m pytest`, `python -Im pytest`: `pytest`).
fn module_run(mut words: Vec<String>) -> Vec<String> {
    if !words.first().is_some_and(|w| w.starts_with("python")) {
        return words;
    }
    let mut at = 1;
    while let Some(word) = words.get(at) {
        let short = !word.starts_with("--");
        match word.as_str() {
            // A command, not a module.
            "-c" => return words,
            _ if short && word.starts_with('-') && word.ends_with('m') => {
                if at + 1 < words.len() {
                    words.drain(..=at);
                }
                return words;
            }
            // Options whose value is the next word.
            "-X" | "-W" => at += 2,
            option if option.starts_with('-') => at += 1,
            // A script.
            _ => return words,
        }
    }
    words
}

/// The name of the program `argv` launches, wrappers and a shell's `-c` looked through
/// (`bash -lc 'cd x && python -m pytest'`: `pytest`): what a metrics event names.
pub fn launched_program(argv: &[String]) -> String {
    command_words(argv).into_iter().next().unwrap_or_else(|| {
        argv.first()
            .map_or_else(String::new, |w| basename(w).to_string())
    })
}

/// The words of the program launched: program basenames, wrappers (`env`, `sudo`,
/// `timeout 60`, `uv run`) and `VAR=value` removed; for a shell's `-c SCRIPT`, those of
/// the script's command ([`script_command`]).
fn launched_words(argv: &[String]) -> Vec<String> {
    let mut words = argv.to_vec();
    loop {
        if let Some(command) = script_command(&words).or_else(|| env_split_string(&words)) {
            words = command;
            continue;
        }
        match wrapper_len(&words) {
            0 => return words.iter().map(|w| basename(w).to_string()).collect(),
            drop => {
                words.drain(..drop);
            }
        }
    }
}

/// The command of `env -S STRING` (as a script's `#!/usr/bin/env -S pytest -q` has it):
/// the string's words, then the words after it.
fn env_split_string(words: &[String]) -> Option<Vec<String>> {
    if basename(words.first()?) != "env" {
        return None;
    }
    let mut at = 1;
    while let Some(word) = words.get(at) {
        let string = match word.as_str() {
            "-S" | "--split-string" => words.get(at + 1).map(String::as_str),
            long if long.starts_with("--split-string=") => Some(&long["--split-string=".len()..]),
            short if short.starts_with("-S") => Some(&short[2..]),
            option if option.starts_with('-') => {
                at += 1;
                continue;
            }
            _ => return None,
        }?;
        let after = at
            + if word == "-S" || word == "--split-string" {
                2
            } else {
                1
            };
        let mut command: Vec<String> = string.split_whitespace().map(String::from).collect();
        command.extend(words[after.min(words.len())..].iter().cloned());
        return Some(command);
    }
    None
}

/// How many of `words`' first words launch the rest (`env -i`, `sudo -E`, `timeout -k 5
/// 60`, `nice -n 5`, `uv run --no-project --`, `VAR=value`): the wrapper, its options (and
/// the values of those that take one as the next word) and `timeout`'s duration; 0 when
/// the first is the program itself.
fn wrapper_len(words: &[String]) -> usize {
    let first = words.first().map(String::as_str).unwrap_or_default();
    // (Before the wrappers' names: `T=/usr/bin/timeout pytest` sets a variable.)
    if first.contains('=') && !first.starts_with('-') {
        return 1;
    }
    let name = basename(first);
    let run = words.get(1).is_some_and(|w| w == "run");
    // The wrapper's words before its options, and its options that take a value.
    let (start, valued): (usize, &[&str]) = match name {
        // (`-S STRING` is the command, split: not looked through.)
        "env" => (1, &["-u", "--unset", "-C", "--chdir"]),
        "sudo" => (
            1,
            &[
                "-u",
                "--user",
                "-g",
                "--group",
                "-h",
                "--host",
                "-p",
                "--prompt",
                "-C",
                "--close-from",
                "-D",
                "--chdir",
                "-r",
                "--role",
                "-t",
                "--type",
                "-T",
                "--command-timeout",
                "-U",
                "--other-user",
            ],
        ),
        "time" => (1, &["-f", "--format", "-o", "--output"]),
        "nice" => (1, &["-n", "--adjustment"]),
        "timeout" => (1, &["-k", "--kill-after", "-s", "--signal"]),
        "exec" => (1, &["-a"]),
        // `command -v x` prints where x is: it runs nothing.
        "command" if words.get(1).is_some_and(|w| w == "-v" || w == "-V") => return 0,
        "nohup" | "command" => (1, &[]),
        "uv" if run => (
            2,
            &[
                "--with",
                "--with-editable",
                "--with-requirements",
                "--python",
                "-p",
                "--project",
                "--directory",
                "--package",
                "--env-file",
                "--extra",
                "--group",
                "--only-group",
                "--no-group",
                "--no-extra",
                "--index",
                "--default-index",
                "--index-url",
                "-i",
                "--extra-index-url",
                "--find-links",
                "-f",
                "--config-setting",
                "-C",
                "--upgrade-package",
                "-P",
                "--reinstall-package",
                "--index-strategy",
                "--keyring-provider",
                "--exclude-newer",
                "--cache-dir",
                "--config-file",
                "--color",
                "--prerelease",
                "--resolution",
                "--link-mode",
                "--refresh-package",
                "--no-binary-package",
                "--no-build-package",
                "--python-preference",
                "--allow-insecure-host",
            ],
        ),
        "poetry" | "pipenv" | "pdm" | "hatch" if run => (2, &[]),
        _ => return 0,
    };
    let mut at = options_end(words, start, valued);
    if name == "timeout" {
        at += 1; // its duration
    }
    if at > words.len() {
        0
    } else {
        at
    }
}

/// `argv` without the wrappers that launch the rest ([`wrapper_len`]).
pub fn unwrapped(mut argv: &[String]) -> &[String] {
    loop {
        match wrapper_len(argv) {
            0 => return argv,
            drop => argv = &argv[drop..],
        }
    }
}

/// Whether `argv` runs a shell's script (`sh -c SCRIPT`, `bash -lc SCRIPT`), launched by
/// wrappers or not: such a shell exits with 128 + N when a command it ran was killed by
/// signal N, where it did not hand its process over to that command.
pub fn runs_a_shell_script(argv: &[String]) -> bool {
    let words = unwrapped(argv);
    words
        .first()
        .is_some_and(|program| is_shell(basename(program)))
        && script_of(&words[1..]).is_some()
}

/// The commands of a shell's `-c SCRIPT` in `argv` (launched by wrappers or not), its
/// set-up steps left out, when the script is simple commands joined by `&&`, `;` or new
/// lines ([`script_commands`]).
fn script_commands_of(argv: &[String]) -> Option<Vec<Vec<String>>> {
    let words = unwrapped(argv);
    if !is_shell(basename(words.first()?)) {
        return None;
    }
    let commands = script_commands(script_of(&words[1..])?)?;
    Some(commands.into_iter().filter(|c| !is_setup_step(c)).collect())
}

fn is_shell(program: &str) -> bool {
    matches!(program, "sh" | "bash" | "zsh" | "dash" | "ksh")
}

/// The last part of a path: a program's name.
pub fn basename(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

/// The command a shell's `-c SCRIPT` runs (`sh -c`, `bash -lc`, `zsh -c`), as words, when
/// the script is one command after steps that set up where and how it runs (`cd DIR`,
/// `source FILE`, `export A=B`, `set -e`), joined by `&&`, `;` or new lines: agents'
/// tools wrap what they run so (`bash -lc 'cd repo && pytest -q'`). `None` for any
/// other command, and for a script of more than one command, a pipe (but into `tail` or
/// `head`, which cut the command's lines), `||`, a redirection other than `2>&1`, a
/// substitution, a group or a keyword: its output is not one command's as written.
fn script_command(words: &[String]) -> Option<Vec<String>> {
    let mut commands = script_commands_of(words)?.into_iter();
    let command = commands.next()?;
    commands.next().is_none().then_some(command)
}

/// The script of a shell's `options` (`-lc SCRIPT`, `-o pipefail -ec SCRIPT`): the word
/// after the option holding `c`.
fn script_of(options: &[String]) -> Option<&str> {
    let mut rest = options.iter();
    loop {
        let option = rest.next()?;
        match option.as_str() {
            // `-o pipefail`, `-euo pipefail`: an option's name follows.
            cluster
                if (cluster.starts_with('-') || cluster.starts_with('+'))
                    && !cluster.starts_with("--")
                    && cluster.ends_with('o')
                    && !cluster.contains('c') =>
            {
                rest.next()?;
            }
            long if long.starts_with("--") => {}
            short if short.starts_with('-') && short.contains('c') => break,
            short if short.starts_with('-') => {}
            _ => return None,
        }
    }
    rest.next().map(String::as_str)
}

/// The simple commands of a shell script joined by `&&`, `;` or new lines, each as its
/// words (quotes removed; `2>&1` left out); `None` when anything else joins or holds
/// them.
fn script_commands(script: &str) -> Option<Vec<Vec<String>>> {
    let mut commands: Vec<Vec<String>> = vec![Vec::new()];
    let mut word: Option<String> = None;
    let mut rest = script;
    while let Some(c) = rest.chars().next() {
        rest = &rest[c.len_utf8()..];
        match c {
            '\'' | '"' => {
                let close = rest.find(c)?;
                let quoted = &rest[..close];
                // In double quotes, a substitution runs a command of its own.
                if c == '"' && (quoted.contains("$(") || quoted.contains('`')) {
                    return None;
                }
                word.get_or_insert_with(String::new).push_str(quoted);
                rest = &rest[close + 1..];
            }
            ' ' | '\t' | ';' | '\n' | '&' => {
                if let Some(word) = word.take() {
                    commands.last_mut()?.push(word);
                }
                if c == '&' {
                    // `&&`; a lone `&` runs in the background.
                    rest = rest.strip_prefix('&')?;
                }
                if matches!(c, ';' | '\n' | '&') {
                    commands.push(Vec::new());
                }
            }
            '2' if word.is_none() && rest.starts_with(">&1") => {
                rest = &rest[">&1".len()..];
            }
            // A pipe into `tail` or `head` (checked below): the command's lines still.
            '|' if !rest.starts_with('|') => {
                let command = commands.last_mut()?;
                command.extend(word.take());
                command.push(PIPE.to_string());
            }
            '|' | '(' | ')' | '{' | '}' | '`' | '<' | '>' | '\\' => return None,
            '$' if rest.starts_with('(') => return None,
            // `${REPO}`: a variable, as `$REPO`.
            '$' if rest.starts_with('{') => {
                let close = rest.find('}')?;
                let word = word.get_or_insert_with(String::new);
                word.push('$');
                word.push_str(&rest[1..close]);
                rest = &rest[close + 1..];
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    if let Some(word) = word {
        commands.last_mut()?.push(word);
    }
    commands.retain(|command| !command.is_empty());
    // A command piped into `tail` or `head` is the command, its output cut, and into
    // `tee` the command, its output kept; into anything else (`grep`, `sort`), its output
    // is not its own as written.
    for command in &mut commands {
        let mut parts = command.split(|word| word == PIPE);
        let own = parts.next()?.len();
        for filter in parts {
            if !matches!(
                filter.first().map(|w| basename(w)),
                Some("tail" | "head" | "tee")
            ) {
                return None;
            }
        }
        command.truncate(own);
        if command.is_empty() {
            return None;
        }
    }
    let keyword = |command: &Vec<String>| {
        matches!(
            command[0].as_str(),
            "if" | "then" | "else" | "fi" | "for" | "while" | "until" | "do" | "done" | "case"
        )
    };
    (!commands.iter().any(keyword)).then_some(commands)
}

/// Stands for a pipe between a script's words (no word of a script holds a NUL).
const PIPE: &str = "\0|";

/// A step of a script that sets up where and how its command runs, and prints nothing
/// of its own: `cd`, `source`, `.`, `export`, `set`, `umask`, `ulimit`, `VAR=value`.
fn is_setup_step(command: &[String]) -> bool {
    let first = command[0].as_str();
    matches!(
        first,
        "cd" | "pushd" | "source" | "." | "export" | "set" | "umask" | "ulimit" | "unset"
    ) || (command.len() == 1 && first.contains('=') && !first.starts_with('-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reducer_options_are_an_object_or_nothing() {
        for name in ["text", "diff", "spill", "json"] {
            let spec = find(name).expect("a reducer");
            let built = (spec.build)(&serde_json::json!([]), RunConfig::new(name));
            assert_eq!(
                built.err().as_deref(),
                Some("reducer options: not an object: []"),
                "{name}"
            );
            assert!(
                (spec.build)(&Value::Null, RunConfig::new(name)).is_ok(),
                "{name}"
            );
        }
    }

    fn source(command: &str) -> &'static str {
        let argv: Vec<String> = command.split_whitespace().map(String::from).collect();
        source_of(&argv)
    }

    #[test]
    fn a_scripts_first_line_names_its_interpreter() {
        for shebang in [
            "/usr/bin/env python3",
            "/usr/bin/python3.11 -u",
            "/usr/bin/env -S node --no-warnings",
            "/usr/bin/env PYTHONUNBUFFERED=1 ruby",
        ] {
            assert!(names_an_interpreter(shebang), "{shebang}");
        }
        for shebang in [
            "/bin/sh",
            "/bin/bash -e",
            "/usr/bin/env bash",
            "/usr/bin/env",
            "",
        ] {
            assert!(!names_an_interpreter(shebang), "{shebang}");
        }
    }

    #[test]
    fn compilers_and_build_tools_have_their_stderr_read_with_their_output() {
        let reads = |name: &str, command: &str| {
            let argv: Vec<String> = command.split_whitespace().map(String::from).collect();
            reads_stderr(name, &argv)
        };
        assert!(reads("cargo-test", "sh -c x"));
        assert!(reads("docker", "docker logs web"));
        for command in [
            "cargo build",
            "cargo clippy -- -D warnings",
            "/usr/bin/gcc -c a.c",
            "env CC=clang make -j4",
            "timeout 60 go vet ./...",
            "tsc --noEmit",
            "./gradlew build",
            "npm test",
            "npx jest",
            "jest --ci",
            "bazel build //...",
            "docker build -t app .",
            "docker buildx build .",
        ] {
            assert!(reads("text", command), "{command}");
        }
        // A script's interpreter, with its traceback and log on stderr.
        for command in [
            "python3 app.py",
            "/usr/bin/python3.12 -u train.py",
            "python -m http.server",
            "uv run python app.py",
            "env NODE_ENV=test node server.js",
            "java -jar app.jar",
            "ruby x.rb",
            "pip install -r requirements.txt",
            "uv pip install x",
            "sudo apt-get install -y x",
        ] {
            assert!(reads("text", command), "{command}");
        }
        // Tools that report on stderr, among the output of what they run.
        for command in [
            "valgrind --leak-check=full ./app",
            "strace -f ./app",
            "psql -f migrate.sql",
            "sqlite3 app.db",
            "prove -v t/",
            "terraform validate",
        ] {
            assert!(reads("text", command), "{command}");
        }
        // What prints its results on stdout keeps stderr apart (progress, notes).
        assert!(!reads("text", "curl -s https://example.com"));
        assert!(!reads("text", "git clone x"));
        assert!(!reads("text", "sh -c x"));
        assert!(
            !reads("json", "python3 dump.py"),
            "the reducer decides first"
        );
        assert!(!reads("text", "docker ps"));
        assert!(!reads("diff", "make diff"), "the reducer decides first");
        assert!(!reads("text", ""));
        // A script of several commands, where any of them reads it so; not through a pipe
        // (the script's output is not the command's as written).
        let script = |shell: &[&str], script: &str| {
            let mut argv: Vec<String> = shell.iter().map(|w| w.to_string()).collect();
            argv.push(script.to_string());
            reads_stderr("text", &argv)
        };
        assert!(script(&["bash", "-lc"], "cd cbig && make clean && make -k"));
        assert!(script(
            &["env", "CI=1", "sh", "-c"],
            "echo start; python3 app.py; echo done"
        ));
        assert!(!script(&["bash", "-c"], "cd x && ls && git status"));
        assert!(script(&["bash", "-c"], "make 2>&1 | tee build.log"));
        assert!(!script(&["bash", "-c"], "make 2>&1 | grep -v Entering"));
    }

    #[test]
    fn picks_the_reducer_from_the_command() {
        assert_eq!(source("pytest -q tests/"), "pytest");
        assert_eq!(source("python3 -m pytest -x"), "pytest");
        assert_eq!(source("uv run pytest"), "pytest");
        assert_eq!(source("env CI=1 /usr/bin/pytest"), "pytest");
        // Wrappers with options before the command, as harnesses write them.
        for command in [
            "timeout -k 5 30 pytest -q",
            "timeout -s KILL 30 pytest -q",
            "timeout --signal=INT --preserve-status 30 pytest -q",
            "env -i PATH=/usr/bin pytest -q",
            "env -u HOME -C /repo pytest -q",
            "python -u -m pytest",
            "python3 -X dev -W error -m pytest -x",
            "uv run --no-project pytest",
            "uv run --with pytest-xdist -- pytest -n 2",
            "nice -n 5 pytest",
            "sudo -E -u ci pytest",
            "sudo -Eu ci pytest",
            "time -p pytest",
            "uv run --no-group dev pytest",
            "T=/usr/bin/timeout pytest",
            "env - PATH=/usr/bin pytest",
            "python -Im pytest",
        ] {
            assert_eq!(source(command), "pytest", "{command}");
        }
        assert_eq!(source("python -c 'import pytest' -m x"), "text");
        // What a metrics event names: the program launched.
        for (command, program) in [
            (
                &["bash", "-lc", "cd x && python -m pytest -q"][..],
                "pytest",
            ),
            (&["timeout", "-k", "5", "30", "./app.py"], "app.py"),
            (&["seq", "1", "10"], "seq"),
            (&["uv", "run", "--script", "app.py"], "app.py"),
            (&["env", "-S", "pytest -q", "tests/"], "pytest"),
            (&["env", "-i", "--split-string=cargo test"], "cargo"),
            (&["env"], "env"),
        ] {
            let argv: Vec<String> = command.iter().map(|w| w.to_string()).collect();
            assert_eq!(launched_program(&argv), program, "{command:?}");
        }
        assert_eq!(source("timeout 30"), "text");
        // `command -v` runs nothing: it prints where the program is.
        assert_eq!(source("command -v pytest"), "text");
        assert_eq!(source("cargo test --workspace"), "cargo-test");
        assert_eq!(source("cargo nextest run"), "cargo-test");
        assert_eq!(source("cargo build"), "text");
        // Its alias, and its toolchain and options before the command.
        assert_eq!(source("cargo t -p core"), "cargo-test");
        assert_eq!(source("cargo +nightly test"), "cargo-test");
        assert_eq!(
            source("cargo --locked --color never -Z unstable-options test"),
            "cargo-test"
        );
        assert_eq!(source("cargo +nightly build"), "text");
        assert_eq!(source("cargo nextest r"), "cargo-test");
        assert_eq!(source("cargo nextest list"), "text");
        assert_eq!(source("cargo --config x=1 check"), "text");
        assert_eq!(source("git diff HEAD~3 -- src/"), "diff");
        assert_eq!(source("git log -p"), "diff");
        // Its stat: the diff reducer reads git log's stats per commit.
        assert_eq!(source("git log --stat -3"), "diff");
        assert_eq!(source("git log --stat=120"), "diff");
        assert_eq!(source("git log --oneline"), "text");
        // What prints no patch is text.
        for command in [
            "git diff --name-only",
            "git diff HEAD~1 --name-status",
            "git show --stat --name-only HEAD",
            "git diff --check",
            "git show -s HEAD",
            "git show HEAD:src/main.rs",
        ] {
            assert_eq!(source(command), "text", "{command}");
        }
        assert_eq!(source("git show HEAD"), "diff");
        assert_eq!(source("git show -p --name-only HEAD"), "diff");
        assert_eq!(source("git diff -- a:b"), "diff", "a path, after --");
        assert_eq!(source("git -C /repo --no-pager diff --stat"), "diff");
        assert_eq!(source("git -c color.ui=never show HEAD"), "diff");
        assert_eq!(source("diff -u a b"), "diff");
        assert_eq!(source("sudo journalctl -u app --since 2h"), "journal");
        assert_eq!(source("docker logs api"), "docker");
        assert_eq!(source("docker compose logs web"), "docker");
        assert_eq!(source("timeout 10 make"), "text");
        assert_eq!(source("kubectl get pods -A -o json"), "json");
        assert_eq!(source("kubectl get pods -ojson"), "json");
        assert_eq!(source("kubectl get pods -o wide"), "text");
        assert_eq!(source("aws ec2 describe-instances --output json"), "json");
        assert_eq!(source("docker inspect api"), "json");
        assert_eq!(source("gh pr list --json number,title"), "json");
        assert_eq!(source("terraform show -json"), "json");
        assert_eq!(source("npm ls --json"), "json");
        assert_eq!(source("jq .items data.json"), "json");
        assert_eq!(source("jq -r .name data.json"), "text");
        for raw in ["-cr", "-rc", "-er", "-j", "--raw-output0", "--join-output"] {
            assert_eq!(
                source(&format!("jq {raw} .name data.json")),
                "text",
                "{raw}"
            );
        }
        assert_eq!(source("jq -c .items data.json"), "json");
        assert_eq!(source("jq -c --arg r x .items data.json"), "json");
        assert_eq!(source("curl -s https://api.example.com/x"), "text");
        assert_eq!(source("ls -la"), "text");
    }

    #[test]
    fn knows_a_shells_script() {
        let argv = |words: &[&str]| words.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        for words in [
            &["sh", "-c", "./app"][..],
            &["/bin/bash", "-lc", "cd x && ./app; ./other"],
            &["bash", "-o", "pipefail", "-ec", "a | b"],
            &["env", "A=1", "timeout", "5", "zsh", "-c", "x"],
            &["sudo", "dash", "--norc", "-c", "x"],
        ] {
            assert!(runs_a_shell_script(&argv(words)), "{words:?}");
        }
        for words in [
            &["sh", "run.sh"][..],
            &["bash", "-c"],
            &["bash", "-o"],
            &["python3", "-c", "x"],
            &["env", "sh"],
            &["timeout", "5"],
            &[],
        ] {
            assert!(!runs_a_shell_script(&argv(words)), "{words:?}");
        }
    }

    #[test]
    fn looks_through_a_shell_to_the_command_its_script_runs() {
        let argv = |words: &[&str]| words.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        let pick_in = |shell: &[&str], script: &str| {
            let mut words = argv(shell);
            words.push(script.to_string());
            source_of(&words)
        };
        let bash = ["bash", "-lc"];
        assert_eq!(pick_in(&bash, "cd /repo && pytest -q tests/"), "pytest");
        assert_eq!(pick_in(&["/bin/sh", "-c"], "cargo test 2>&1"), "cargo-test");
        assert_eq!(
            pick_in(
                &["bash", "--noprofile", "-o", "pipefail", "-ec"],
                "set -e; source .venv/bin/activate\npython -m pytest -x"
            ),
            "pytest"
        );
        assert_eq!(
            pick_in(
                &["zsh", "-c"],
                "cd \"${REPO}\" && export CI=1 && git diff HEAD~1"
            ),
            "diff"
        );
        assert_eq!(pick_in(&bash, "FOO=1 timeout 60 pytest"), "pytest");
        assert_eq!(
            pick_in(&["bash", "-euo", "pipefail", "-c"], "pytest -q"),
            "pytest"
        );
        assert_eq!(
            pick_in(&["bash", "+o", "posix", "-c"], "pytest -q"),
            "pytest"
        );
        assert_eq!(pick_in(&bash, "docker logs api"), "docker");
        assert_eq!(pick_in(&bash, "journalctl -u app -o json"), "journal");
        // Its output cut by `tail` or `head`: its lines still, its words without them.
        assert_eq!(
            pick_in(&bash, "cd p && pytest -q 2>&1 | tail -n 50"),
            "pytest"
        );
        assert_eq!(
            script_commands("pytest -q 2>&1 | tail -n 50"),
            Some(vec![argv(&["pytest", "-q"])])
        );
        assert_eq!(
            pick_in(&bash, "cargo test 2>&1 | head -100 | tail -20"),
            "cargo-test"
        );
        // Kept by `tee` as well as shown: its output as written.
        assert_eq!(pick_in(&bash, "pytest 2>&1 | tee log.txt"), "pytest");
        assert_eq!(
            pick_in(&bash, "pytest -q | tee -a out.log | tail -5"),
            "pytest"
        );
        // Not one command's output as written, or not read as the reducer reads it: the
        // generic reducer.
        for script in [
            "pytest -q | grep FAILED",
            "pytest -q | tee out.log | grep x",
            "pytest |& tail",
            "pytest | | tail",
            "pytest || true",
            "make && pytest",
            "pytest > out.txt",
            "pytest &",
            "for t in a b; do pytest $t; done",
            "(cd x && pytest)",
            "echo \"$(pytest)\"",
            "pytest 'unclosed",
            "journalctl -u app",
            "",
            "cd /repo",
        ] {
            assert_eq!(pick_in(&bash, script), "text", "{script:?}");
        }
        assert_eq!(source_of(&argv(&["bash", "run.sh"])), "text");
        assert_eq!(source_of(&argv(&["bash", "-c"])), "text");
        // Its stderr, as the command's own.
        assert!(reads_stderr(
            "text",
            &argv(&["bash", "-lc", "cd app && python3 main.py"])
        ));
        assert!(!reads_stderr(
            "text",
            &argv(&["sh", "-c", "echo out; echo err >&2"])
        ));
        assert!(reads_stderr(
            "text",
            &argv(&["env", "CC=/usr/bin/clang", "make"])
        ));
    }

    #[test]
    fn adapts_the_command_to_the_reducer() {
        let adapt = |name: &str, command: &str| {
            let argv: Vec<String> = command.split_whitespace().map(String::from).collect();
            adapt_argv(name, &argv).join(" ")
        };
        assert_eq!(
            adapt("journal", "sudo journalctl -u app --since 2h -p warning"),
            "sudo journalctl -o json --all -u app --since 2h -p warning"
        );
        assert_eq!(
            adapt("journal", "journalctl -a -u app"),
            "journalctl -o json -a -u app"
        );
        assert_eq!(
            adapt("journal", "journalctl -o export -u app"),
            "journalctl -o export -u app"
        );
        assert_eq!(
            adapt("journal", "journalctl --output=cat"),
            "journalctl --output=cat"
        );
        assert_eq!(adapt("journal", "journalctl -ojson"), "journalctl -ojson");
        assert_eq!(
            adapt("docker", "docker logs api"),
            "docker logs --timestamps api"
        );
        assert_eq!(adapt("docker", "docker logs -t api"), "docker logs -t api");
        assert_eq!(
            adapt("docker", "docker compose logs web"),
            "docker compose logs --timestamps web"
        );
        assert_eq!(
            adapt("docker", "podman logs --tail 50 api"),
            "podman logs --timestamps --tail 50 api"
        );
        assert_eq!(adapt("text", "docker logs api"), "docker logs api");
    }

    #[test]
    fn falls_back_to_text_until_the_reducer_exists() {
        let commands = [
            ("pytest", "pytest -q"),
            ("cargo-test", "cargo test"),
            ("diff", "git diff"),
            ("journal", "journalctl -u x"),
            ("docker", "docker logs api"),
        ];
        for (name, command) in commands {
            let argv: Vec<String> = command.split(' ').map(String::from).collect();
            let expected = if find(name).is_some() { name } else { "text" };
            assert_eq!(pick(&argv), expected, "{command}");
        }
        assert_eq!(
            pick(&["git".into(), "diff".into()]),
            "diff",
            "the diff reducer exists"
        );
        assert_eq!(pick(&["ls".to_string()]), "text");
    }
}
