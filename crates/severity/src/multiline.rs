//! Which lines continue a multi-line record: one set of rules for every reducer that
//! reads records out of lines (`text`, and `docker`'s messages).
//!
//! A record starts at a line that does not continue the one before. [`MultiLine`]
//! remembers what that line opened (a Python traceback, a Rust panic, Go's goroutine
//! dump) and what came since, and says of each next line whether it belongs to the
//! record: a stack's frames, the exception that ends a traceback, `Caused by:`, chained
//! tracebacks, a compiler's annotated source, .NET's indented message, and a traceback
//! or a Java exception right under the line that logged it.
//!
//! ```
//! use briefly_severity::inspect;
//! use briefly_severity::multiline::{Indented, MultiLine};
//!
//! let lines = [
//!     "ERROR request failed",
//!     "Traceback (most recent call last):",
//!     "  File \"app.py\", line 3, in handle",
//!     "KeyError: 'user'",
//!     "INFO next request",
//! ];
//! let mut record = MultiLine::new(Indented::ByRule);
//! let mut starts = Vec::new();
//! let mut name = None;
//! for (n, line) in lines.into_iter().enumerate() {
//!     let found = inspect(line);
//!     if n > 0 && record.continues(line) {
//!         if record.push(line, found.severity, found.opens) {
//!             name = Some(line);
//!         }
//!     } else {
//!         record.start(line, found.severity, found.opens);
//!         starts.push(n);
//!     }
//! }
//! assert_eq!(starts, [0, 4]);
//! assert_eq!(name, Some("KeyError: 'user'"));
//! ```

use crate::checkers::{
    glued_valgrind_error, is_sanitizer_header, is_sanitizer_report_line, is_sanitizer_summary,
    valgrind_prefix,
};
use crate::{is_gtest_failure, Opens, Severity};

/// The line that opens a Python traceback (without the colon some tools leave out).
pub const TRACEBACK: &str = "Traceback (most recent call last)";

/// Gradle's header of what made a build fail.
const GRADLE_FAILURE: &str = "* What went wrong:";

/// What a reducer's records do with an indented line no rule names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Indented {
    /// It continues the record: a container's output, one program's messages, where an
    /// indented line is the message above it going on.
    Continue,
    /// It starts a record of its own: any text, where an indented line may be a table's
    /// or a listing's.
    ByRule,
}

/// Where a record's Python traceback stands.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Traceback {
    /// None in it.
    #[default]
    None,
    /// Its frames are being read: every line continues it, the exception line ends it.
    Open,
    /// Its exception line came: blank lines and a chain line may follow.
    Ended,
    /// A chain line came (`During handling of the above exception …`): the next
    /// traceback belongs to the record too.
    Chained,
}

/// What a record's first line is, beyond what it opens.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Header {
    #[default]
    Plain,
    /// .NET's console logger's `fail: Category[13]` ([`is_dotnet_header`]).
    DotNet,
    /// Android's report of an app's crash, `FATAL EXCEPTION: main` (logcat's
    /// `AndroidRuntime` writes it): the process (`Process: com.example.shop, PID: 5120`),
    /// then the exception, which names the record, and its stack.
    AndroidCrash,
    /// A compiler's warning or error ([`is_diagnostic_header`]).
    Diagnostic,
    /// Rust's panic header ending with `:`, its message on the next line.
    PanicMessageNext,
    /// java.util.logging's first line, its time and source, the level and message on the
    /// next ([`is_java_util_logging_header`]).
    JavaUtilLogging,
    /// `go test`'s `--- FAIL: TestName (0.00s)`: the test's log and its subtests'
    /// failures follow, indented.
    GoTestFailure,
    /// Jest's `  ● Suite › test` ([`is_jest_failure`]): what failed follows,
    /// indented, in parts set apart by blank lines.
    JestFailure,
    /// Jest's `  console.error` (`.warn`, `.log`…) over what a test logged: the message,
    /// the code frame and where it was logged (`at Object.error (c.test.js:3:34)`) follow,
    /// indented, in parts set apart by blank lines ([`is_jest_console`]).
    JestConsole,
    /// Vitest's ` FAIL  test/a.test.ts > suite > adds` in its list of failures
    /// ([`is_vitest_failure`]): the error, its diff, where (` ❯ test/a.test.ts:47:27`) and
    /// the code frame follow, up to the rule that closes it.
    VitestFailure,
    /// InnoDB's dump of a deadlock (MariaDB's and MySQL's error log, `InnoDB: Transactions
    /// deadlock detected, dumping detailed information.`): each transaction, its lock
    /// and its statement, over stamped and unstamped lines, up to `*** WE ROLL BACK
    /// TRANSACTION (1)`, which ends it.
    InnoDbDeadlock { ended: bool },
    /// jstack's report of a deadlock (and the JVM's on `SIGQUIT`), `Found one Java-level
    /// deadlock:`: the threads and the locks each waits for, then each thread's stack
    /// (`Java stack information for the threads listed above:`), over blank lines, up to
    /// the next deadlock's report or the count that ends them, `Found 1 deadlock.`
    JstackDeadlock { ended: bool },
    /// PHPUnit's report of a failed test, `1) Tests\\CartTest::testTotal`
    /// ([`is_phpunit_report`]): what failed (`Failed asserting that …`, an exception), a
    /// diff, and where, up to the next report, a rule or its verdict.
    PhpUnitReport,
    /// `dotnet test`'s failed test (its console logger's, indented: `  Failed
    /// Shop.Tests.OrderTests.PlaceOrder [12 ms]`, [`dotnet_test_result`]): its `Error
    /// Message:` (lines that may be unindented: xUnit's `Expected: …`), `Stack Trace:` and
    /// `Standard Output Messages:`, up to a blank line, the next test's result or the
    /// run's counts. Without one of those right under it, it is a line alone.
    DotNetTestFailure,
    /// Minitest's report of a failed test (`  1) Failure:`) or of one that raised (`  2)
    /// Error:`), [`minitest_report`]: the test and where (`CartTest#test_total
    /// [test/cart_test.rb:42]:`, right under it, else it is a line alone), what failed
    /// or the exception and its backtrace, up to a blank line.
    MinitestReport,
    /// GoogleTest's failed assertion, `tests/polygon_test.cpp:42: Failure`: what it
    /// expected and what it found, up to GoogleTest's next line of its own (`[  FAILED
    /// ]`), the next failure or a blank line.
    GtestFailure,
    /// Gradle's line of a failed test, `CartServiceTest > checkoutAppliesDiscount()
    /// FAILED` ([`is_gradle_test_failure`]): its exception and frames follow, indented.
    GradleTestFailure,
    /// gdb's report of a signal that stopped the program ([`is_gdb_signal`]): where it
    /// stopped (its thread, place and source line) and, when `bt` follows, the backtrace
    /// (`#1  0x… in handle_request (r=0x…) at src/app.c:9`).
    GdbSignal,
    /// gdb's heading of a thread's backtrace under `thread apply all bt`, `Thread 17
    /// (Thread 0x7ffff05c26c0 (LWP 32160) "app"):`, its numbered frames under it.
    GdbThread,
    /// CTest's list of the tests that did not pass, `The following tests FAILED:`, each
    /// under it after a tab (`\t 57 - polygon_area (Failed)`).
    CtestFailedList,
    /// tsc's diagnostic as `--pretty` writes it, `src/a.ts:3:7 - error TS2322: …`
    /// ([`is_tsc_pretty_header`]): a blank line, then its source lines and their `~~~`
    /// marks (and related places), up to a blank line.
    TscPretty,
    /// `node --test`'s spec reporter's failed test, `✖ adds (1.2ms)`
    /// ([`is_node_test_failure`]): the error, its diff, stack and properties follow,
    /// indented (blank lines of it too), up to an empty line.
    NodeTestFailure,
    /// Mocha's `  1) Suite` in its list of failures ([`is_mocha_failure`]): the test's
    /// title, what failed and its stack follow, indented, in parts set apart by blank
    /// lines.
    MochaFailure,
    /// Terraform's and OpenTofu's `│ Error: …` in its box: the box's lines follow, each
    /// behind a `│` (where, the source, the explanation).
    TerraformBox,
    /// Terraform's `Error: …` or `Warning: …` without its box (`-no-color`), before a
    /// blank line and where it is (`  on main.tf line 3, in …:`) say it is Terraform's.
    TerraformTitle,
    /// Terraform's error without its box, past where it is: the source, and the
    /// explanation in paragraphs, up to the next `Error: ` or `Warning: `.
    TerraformPlain,
    /// Gradle's `* What went wrong:`: what failed follows, up to a blank line.
    GradleFailure,
    /// webpack's `ERROR in ./src/a.ts:88:5` (or `WARNING in …`): the message (a
    /// loader's, `TS2322: Type …`) and its code frame follow, up to a blank line.
    WebpackProblem,
    /// gcc's and clang's context above a diagnostic ([`is_compiler_context`]): more
    /// context, then the diagnostic, which names the record.
    CompilerContext,
    /// Python's warning, `app/db.py:14: DeprecationWarning: …` ([`is_python_warning`]):
    /// the source line it was raised at follows, indented by two spaces.
    PythonWarning,
    /// A report of valgrind's, `==1234== Invalid write of size 4` (process 1234's):
    /// its details follow, indented behind the same prefix, up to a line that is not.
    Valgrind(u32),
    /// A sanitizer's report, `==1234==ERROR: AddressSanitizer: …`
    /// ([`is_sanitizer_header`]): its parts, set apart by blank lines, up to its
    /// `SUMMARY:`.
    SanitizerReport,
    /// AddressSanitizer's `Shadow bytes around the buggy address:`, a dump and its
    /// legend, indented.
    ShadowBytes,
    /// Go's race detector's `WARNING: DATA RACE`: the accesses and the goroutines, each
    /// with its indented stack, up to the rule of `=` that closes it.
    GoRace,
    /// Where Node's uncaught exception was thrown, `/app/a.js:3` ([`is_node_throw_site`]):
    /// the source line, a caret, a blank line, then the exception, which names the record
    /// and whose stack follows.
    NodeThrowSite,
    /// Python's exception group, `+ Exception Group Traceback (most recent call last):`:
    /// its traceback, its exception and each sub-exception's traceback follow, every line
    /// behind a `|` or a `+` ([`is_exception_group_line`]).
    ExceptionGroup,
    /// The linker's context, `/usr/bin/ld: a.o: in function `main':` ([`is_linker_context`]):
    /// its findings in that function follow ([`is_linker_finding`]), the first naming the
    /// record.
    LinkerContext,
    /// npm's error report, `npm error code ECONNREFUSED` (`npm ERR! …` before npm 10):
    /// every line of it behind the same prefix ([`npm_error_prefix`]).
    NpmError,
    /// CMake's `CMake Error at CMakeLists.txt:3 (project):` ([`is_cmake_message`]): the
    /// message follows, indented, in paragraphs; its first line names the record.
    CMakeMessage,
    /// A file's name alone, as ESLint's table heads the file's findings with
    /// ([`is_file_heading`]): its findings follow, indented ([`is_lint_finding`]).
    FileHeading,
    /// ShellCheck's `In deploy.sh line 3:`: the source line and its findings under
    /// carets (`  ^-- SC2086 (info): …`), up to a blank line; the first finding names it.
    ShellCheckPlace,
    /// Dart's `Unhandled exception:`: the exception, which names the record, then its
    /// numbered frames (`#0      main (file:///app/bin/app.dart:3:12)`), not indented.
    DartUnhandled,
    /// A TAP test's result (`not ok 3 - case 2`, `ok 1 - works`): its YAML block follows,
    /// indented between `---` and `...` (`node --test`'s duration, error and stack).
    TapResult,
    /// unittest's report of a test that failed, `FAIL: test_add (t.T.test_add)`
    /// ([`is_unittest_report`]): the test's description, a rule of `-`, then the
    /// traceback and what the assertion printed (a diff, with blank lines in it), up to
    /// the next report's rule of `=` or the rule of `-` over `Ran N tests`.
    UnittestReport,
    /// A unittest report past its rule of `-`.
    UnittestBody,
    /// PostgreSQL's message as psql prints it, `psql:m.sql:3: ERROR:  …`
    /// ([`is_postgres_message`]): its `DETAIL:`, `HINT:`, `LINE 1:` and caret, `CONTEXT:`
    /// and `QUERY:` lines follow ([`is_postgres_detail`]).
    Postgres,
    /// PHP's and Swift's fatal error, `PHP Fatal error:  Uncaught RuntimeException: … in
    /// /a/Db.php:9`, `App/main.swift:3: Fatal error: Unexpectedly found nil …`
    /// ([`is_fatal_error`]): the stack under it, PHP's `Stack trace:`, numbered frames
    /// (`#0 /a/index.php(5): App\Db->connect()`, `#1 {main}`) and `  thrown in … on line
    /// 9`, Swift's `Current stack trace:` and frames ([`is_swift_frame`]); and PHP's
    /// exception chained to it, after a blank line (`Next RuntimeException: … in
    /// /a/Service.php:22`, [`is_php_next`]), with its own.
    FatalError,
    /// A Rails request's error logged with its tag (`F, [… #4120] FATAL -- : [a1b2c3]`,
    /// [`rails_tag`]): the lines behind the same tag (`[a1b2c3] ActiveRecord::RecordNotFound
    /// (…):`, the backtrace's `[a1b2c3] app/controllers/users_controller.rb:5:in 'show'`);
    /// the tag's hash ([`tag_hash`]).
    RailsTagged(u64),
    /// A diagnostic or a failed test as sbt prints it, every line behind its level
    /// (`[error] -- [E006] Not Found Error: /a/Main.scala:5:12`, `[info] - adds ***
    /// FAILED ***`, [`sbt_header`]): the lines behind the same level whose rest is
    /// indented or a gutter (`[error] 5 |    val x = fooo()`, `[info]   3 did not equal 4`).
    Sbt(&'static str),
    /// An Erlang/OTP report, `=ERROR REPORT==== 5-Mar-2024::10:00:01.123456 ===`
    /// ([`is_erlang_report`]): its lines follow, each indented or behind `** `.
    ErlangReport,
    /// Ansible's task that failed for a host (`fatal: [web1]: FAILED! => changed=false`,
    /// `failed: [web1] (item=a.conf) => …`): what its YAML callback prints of the result
    /// follows, indented (`  msg: |-`, `  rc: 1`), and `...ignoring` when the task ignores
    /// its errors (a warning then).
    AnsibleFailure,
    /// Julia's logging box, `┌ Error: Exception while generating log record …`: its
    /// lines behind `│`, up to the `└ @ Main /app/main.jl:5` that closes it.
    JuliaLogBox,
    /// Julia's `Stacktrace:` under its error (`ERROR: LoadError: UndefVarError: …`): the
    /// frames, indented (` [1] top-level scope`, `   @ /app/main.jl:3`), and `in
    /// expression starting at /app/main.jl:3`.
    JuliaStacktrace,
    /// Deno's error (`error: TS2322 [ERROR]: Type 'string' is not assignable …`,
    /// `error: Uncaught (in promise) PermissionDenied: …`, [`is_deno_error`]): the source
    /// line, its caret (`^`, `~~~~`), then its frames (`    at file:///app/main.ts:1:7`).
    DenoError,
    /// Swift's backtrace of a crashed program (5.9 and later), `💣 Program crashed: Bad
    /// pointer dereference at 0x0000000000000000` (`*** Program crashed: … ***` without
    /// colour, [`is_swift_crash`]): the crashed thread's frames, its registers and
    /// images, in parts set apart by blank lines, up to and with its `Backtrace took
    /// 0.02s` (`ended`).
    SwiftCrash { ended: bool },
    /// Python's `Fatal Python error: Segmentation fault` (faulthandler's): each thread's
    /// frames, the current one's too (`Current thread 0x… (most recent call first):`,
    /// `  File "app.py", line 6 in read_header`), set apart by blank lines, and its
    /// extension modules ([`is_faulthandler_line`]).
    FatalPython,
    /// The C++ runtime's `terminate called after throwing an instance of
    /// 'std::runtime_error'`: the exception's `  what():  …` under it names it.
    CppTerminate,
    /// pylint's finding of code duplicated, `a.py:1:0: R0801: Similar lines in 2 files`:
    /// the modules' places (`==pkg.a:[10:20]`) and the lines they share follow, up to
    /// its next message ([`is_pylint_similar`]).
    PylintSimilar,
    /// pip's debug dump under `-v`, `Exception information:`: the traceback of pip's
    /// own handling of the error it reported at `ERROR:` before (pip logs it at debug),
    /// no error of its own.
    PipDebugDump,
    /// Rust's thread that overflowed its stack, `thread 'x' (19404) has overflowed its
    /// stack`: the runtime's `fatal runtime error: stack overflow, aborting` follows.
    StackOverflow,
    /// A linter's finding headed by its rule's code, as ruff prints it by default: `F821
    /// Undefined name `x``; its place (` --> a.py:7:12`) on the next line makes it a
    /// finding ([`Header::Diagnostic`], a warning; an error for a rule that finds code
    /// that cannot run, [`crate::is_python_error_rule`], and for ruff's `invalid-syntax:
    /// …`), whose source follows in a gutter.
    RuleFinding {
        /// Whether it is an error.
        error: bool,
    },
    /// Elixir's crash under the line that logged it, past its `** (ArithmeticError) …`
    /// ([`is_elixir_exception`]): the stack's frames, indented, and a GenServer's `Last
    /// message …`, `State: …` and `Client #PID<…> is alive`.
    ElixirCrash,
}

/// A part of a record whose lines go on up to a line of their own kind.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Block {
    #[default]
    None,
    /// Node's `Require stack:` under a module not found: the requiring files, each
    /// after `- `.
    RequireStack,
    /// The properties Node prints of an error after its stack's last frame (`at … {`,
    /// then `  code: 'MODULE_NOT_FOUND',` up to `}`).
    Properties,
    /// A TAP result's YAML block, up to its `...`.
    TapYaml,
}

/// The record being read: what its first line opened and what followed it.
#[derive(Debug, Clone)]
pub struct MultiLine {
    indented: Indented,
    opens: Option<Opens>,
    header: Header,
    severity: Option<Severity>,
    /// Lines after the first.
    lines: usize,
    traceback: Traceback,
    /// A line after the first named it ([`MultiLine::push`]).
    named: bool,
    /// The first line is a notice as the JVM prints its own (`WARNING: An illegal
    /// reflective access …`), or a program to its stderr: no logger's line, which a
    /// Java exception under it was logged with.
    notice: bool,
    /// A line of it (an exception's, jstack's heading of a deadlock) announced a message
    /// over the lines under it ([`announces_more`]), and this many of them came
    /// ([`goes_on_message`]).
    message: Option<u8>,
    block: Block,
    /// The record before this one was a rule of `=` alone: unittest's, over a report.
    after_rule: bool,
    /// Lines of Terraform's explanation taken, unindented, under its error without
    /// its box ([`TERRAFORM_PROSE`] at most).
    prose: usize,
    /// The caller saw that a blank line under the record's first is followed by a Java
    /// exception ([`MultiLine::exception_after_blank`]).
    exception_after_blank: bool,
    /// The first line's indentation (bytes of spaces and tabs): the lines after it
    /// that have it are read without it. A tool's output nested in another's is
    /// indented whole (pip's build log, tox's): its records are read as they would be
    /// alone, not as one record of indented lines.
    indent: usize,
    /// What the last line taken lets follow that would not go on the record otherwise.
    follows: Follows,
    /// The first line is blank: it takes no line after it. A blank line's record is
    /// folded with the others into their template, whose example shows nothing: a stack's
    /// frame under it (bun's `      at src/cart.test.ts:51:23`) would be shown nowhere.
    blank: bool,
    /// How far a Go panic's dump is read for the frame at fault ([`MultiLine::at_fault`]).
    go_fault: GoFault,
    /// The line last pushed shows where it went wrong ([`MultiLine::at_fault`]).
    at_fault: bool,
}

/// How far a Go panic's dump is read for the panicking goroutine's first frame in the
/// program's code ([`MultiLine::at_fault`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GoFault {
    /// Before `goroutine N [running]:`.
    Seeking,
    /// In the panicking goroutine, past the runtime's and the standard library's frames.
    Running,
    /// The frame's function was the last line: its file and line follow.
    Function,
    /// Found, or the goroutine ended without a frame of the program's.
    Done,
}

/// What the last line a record took lets follow ([`MultiLine::push`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Follows {
    Nothing,
    /// A Go stack's function ([`is_go_stack_function`]): the line is a Go stack's file
    /// and line ([`is_go_stack_place`]), or the record is one line, a serious one of zap's
    /// development logger ([`is_zap_console_line`]).
    GoFunction,
    /// The command a step of Tcl's error trace ran, quoted at the line's start (`    while
    /// executing`, then `"puts $x"`).
    TclCommand,
    /// A blank line, then the client's stack: the line is Elixir's `Client #PID<…> is
    /// alive` (read in [`Header::ElixirCrash`]'s record).
    ClientStack,
    /// A cause's lines ([`is_cause_line`]): the line is `Caused by:` alone, as cargo heads
    /// the causes of an error (`  process didn't exit successfully: …`), or one of them.
    CauseLines,
    /// A blank line among the causes, then another of them, which the caller saw
    /// ([`MultiLine::blank_followed_by`]): cargo does not indent a build script's blank
    /// lines in its stderr, which it shows as a cause (openssl-sys's `Could not find
    /// directory of OpenSSL installation` after one).
    CauseAfterBlank,
}

impl MultiLine {
    /// A reader of records whose indented lines are handled as `indented` says; no
    /// record is open until [`MultiLine::start`].
    pub fn new(indented: Indented) -> MultiLine {
        MultiLine {
            indented,
            opens: None,
            header: Header::Plain,
            severity: None,
            lines: 0,
            traceback: Traceback::None,
            named: false,
            notice: false,
            message: None,
            block: Block::None,
            after_rule: false,
            prose: 0,
            exception_after_blank: false,
            indent: 0,
            follows: Follows::Nothing,
            blank: false,
            go_fault: GoFault::Seeking,
            at_fault: false,
        }
    }

    /// `line` without the first line's indentation, when it has it. A line indented
    /// less is read as it is: an indented first line may head lines that are not
    /// (Python's `  File "x.py", line 3` over its `SyntaxError`).
    fn within<'a>(&self, line: &'a str) -> &'a str {
        if self.indent == 0 {
            return line; // nearly every record
        }
        without_indent(line, self.indent)
    }

    /// Starts a record at `line`, of `severity`, opening `opens` (as [`crate::inspect`]
    /// says of it).
    pub fn start(&mut self, line: &str, severity: Option<Severity>, opens: Option<Opens>) {
        let whole = line;
        self.indent = line
            .bytes()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count();
        let line = &line[self.indent..];
        // (Its indentation is off it: a line of text opens with no space or tab now.)
        self.blank = line.as_bytes().first().is_none_or(u8::is_ascii_whitespace);
        self.opens = opens;
        self.severity = severity;
        self.lines = 0;
        self.named = false;
        self.notice = line.starts_with("WARNING: ");
        self.message = None;
        self.prose = 0;
        self.exception_after_blank = false;
        self.go_fault = GoFault::Seeking;
        self.at_fault = false;
        // zap's levels with a stack are serious: the severity is asked first, the line
        // searched only then (this is read at the start of every record).
        self.follows = match severity >= Some(Severity::Warn) && is_zap_console_line(line) {
            true => Follows::GoFunction,
            false => Follows::Nothing,
        };
        self.block = Block::None;
        // Python reports a syntax error with the frame alone, no `Traceback` above it
        // ([`is_syntax_error_frame`]).
        let frame = || {
            line.starts_with([' ', 'F']) // read at the start of every record
                && line.trim_start().starts_with("File \"")
                && line.contains("\", line ")
        };
        self.traceback = match opens {
            Some(Opens::Traceback) => Traceback::Open,
            _ if frame() => Traceback::Open,
            _ => Traceback::None,
        };
        // Read without its indentation (a compiler's diagnostic in pip's indented build
        // log), and so are the lines that have it; a header whose indentation is its own
        // (Mocha's `  1) adds`) keeps it, and so do the lines after it.
        self.header = header_of(line, severity, opens);
        if self.header == Header::Plain && self.indent > 0 {
            self.header = header_of(whole, severity, opens);
            if self.header != Header::Plain {
                self.indent = 0;
            }
        }
        // ExUnit's report says a test failed in no word of a level (`1) test adds
        // (CartTest)`); Minitest's, once its test's line is under it ([`MultiLine::push`]).
        if matches!(self.header, Header::MochaFailure) && is_exunit_failure(line.trim_start()) {
            self.severity = self.severity.max(Some(Severity::Error));
        }
        if self.header == Header::ExceptionGroup {
            // Its tracebacks are behind the group's bars: the header says where it ends.
            self.traceback = Traceback::None;
        }
        // A Java exception that opens a record (as `printStackTrace` writes it) announces
        // a message; not any log line that ends with a colon: the lines under that are as
        // likely the log's next. The colon is asked first: this is read at the start of
        // every record.
        if line.trim_end().ends_with(':')
            && self.header == Header::Plain
            && names_a_java_exception(line)
        {
            self.message = Some(0);
        }
        // unittest's report comes under its rule of `=`: a `FAIL: x (a.b)` elsewhere (a
        // health check's) is a line of its own.
        let after_rule = std::mem::replace(&mut self.after_rule, is_rule_of(line, b'='));
        if self.header == Header::UnittestReport && !after_rule {
            self.header = Header::Plain;
        }
    }

    /// Which block, if any, `line`, the record's next, leaves it in.
    fn follow_block(&mut self, line: &str, first: bool) {
        let trimmed = line.trim();
        self.block = match self.block {
            Block::TapYaml if trimmed != "..." => Block::TapYaml,
            Block::Properties if trimmed != "}" => Block::Properties,
            _ if line == REQUIRE_STACK => Block::RequireStack,
            Block::RequireStack if line.starts_with("- ") => Block::RequireStack,
            _ if first && self.header == Header::TapResult && trimmed == "---" => Block::TapYaml,
            // Node's error's own properties, after its last frame.
            _ if trimmed.starts_with("at ") && trimmed.ends_with(" {") => Block::Properties,
            _ => Block::None,
        };
    }

    /// What `line`, one of the record's, says of its own: behind the prefix the record
    /// puts on every line, whose level says nothing of the line (npm's error report's
    /// `npm ERR! `, and node-gyp's `gyp ERR! stack ` in it); else the whole `line`.
    pub fn said<'a>(&self, line: &'a str) -> &'a str {
        match self.header {
            Header::NpmError => npm_said(line).unwrap_or(line),
            _ => line,
        }
    }

    /// The worst severity of its lines.
    pub fn severity(&self) -> Option<Severity> {
        self.severity
    }

    /// Its lines after the first.
    pub fn lines(&self) -> usize {
        self.lines
    }

    /// Whether a blank line right under the record's first line may set apart the
    /// exception it logged, as Spring Boot's default layout (`%wEx`) writes one, or the
    /// causes of an error (cargo's `Caused by:`): the first line is a serious log line or
    /// a diagnostic, and nothing follows it yet. A caller that
    /// looks one line further ([`MultiLine::exception_after_blank`]) decides.
    pub fn may_set_apart_an_exception(&self) -> bool {
        let first = self.lines == 0
            && matches!(self.header, Header::Plain | Header::Diagnostic)
            && self.opens.is_none();
        (first || self.follows == Follows::CauseLines) && self.severity >= Some(Severity::Warn)
    }

    /// The blank line the caller holds ([`MultiLine::may_set_apart_an_exception`]) is
    /// followed by `line`: both continue the record when `line` is a Java exception or
    /// the heading of the causes of an error the blank line sets apart from its first
    /// line, or another of the causes the record lists.
    pub fn blank_followed_by(&mut self, line: &str) {
        let line = self.within(line);
        if self.follows == Follows::CauseLines && is_cause_line(line) {
            self.follows = Follows::CauseAfterBlank;
        } else if names_a_java_exception(line) || heads_causes(line) {
            self.exception_after_blank();
        }
    }

    /// The blank line the caller holds ([`MultiLine::may_set_apart_an_exception`]) is
    /// followed by a Java exception: both continue the record.
    pub fn exception_after_blank(&mut self) {
        self.exception_after_blank = true;
    }

    /// Whether it is `go test`'s failure of a test (`--- FAIL: TestName (0.00s)`, its log
    /// and its subtests' failures).
    pub fn is_go_test_failure(&self) -> bool {
        self.header == Header::GoTestFailure
    }

    /// Whether it is a Rails request's error, its lines behind the request's tag (`F,
    /// […] FATAL -- : [a1b2c3]   `, then `[a1b2c3] NoMethodError (…):`).
    pub fn is_rails_tagged(&self) -> bool {
        matches!(self.header, Header::RailsTagged(_))
    }

    /// Whether `line`, with a time of its own under a line of the record that had none,
    /// still continues it: a part of PostgreSQL's message (its server log stamps each
    /// part, `HINT:  …`, and indents a part's further lines with a tab, unstamped).
    pub fn continues_after_unstamped(&self, line: &str) -> bool {
        (self.header == Header::Postgres && is_postgres_detail(line))
            || self.header == (Header::InnoDbDeadlock { ended: false })
    }

    /// Whether `line` continues the record. The caller decides what else ends one (a
    /// line with a timestamp of its own, a cap on its lines).
    pub fn continues(&self, line: &str) -> bool {
        if self.blank {
            return false;
        }
        let whole = line;
        let line = self.within(line);
        // unittest's report holds its traceback and whatever follows it, blank lines and
        // an assertion's diff too, up to a rule.
        match self.header {
            Header::UnittestReport => return !is_rule_of(line, b'='),
            Header::UnittestBody => return !(is_rule_of(line, b'=') || is_rule_of(line, b'-')),
            Header::ExceptionGroup => return is_exception_group_line(line),
            Header::JstackDeadlock { ended } => {
                return !ended
                    && line.trim_end() != DEADLOCK_REPORT
                    && is_deadlock_report_line(line)
            }
            _ => {}
        }
        if self.follows == Follows::TclCommand && line.starts_with('"') {
            return true;
        }
        if self.follows == Follows::CauseLines && is_cause_line(line) {
            return true;
        }
        if self.follows == Follows::CauseAfterBlank {
            return line.trim().is_empty();
        }
        let indented = line.starts_with([' ', '\t']);
        let blank = || line.trim().is_empty();
        if self
            .message
            .is_some_and(|lines| usize::from(lines) < MAX_MESSAGE_LINES)
            && !blank()
            // A rule right under the line that announced it is its underline (jstack's).
            && (goes_on_message(line) || (self.message == Some(0) && is_rule(line)))
        {
            return true;
        }
        match self.traceback {
            Traceback::Open => return true,
            // (psycopg2's exception goes on with PostgreSQL's `DETAIL:  …`, unindented.)
            Traceback::Ended => {
                return blank()
                    || is_chain_line(line)
                    || (self.indented == Indented::Continue && indented)
                    || POSTGRES_PARTS.iter().any(|part| line.starts_with(part))
            }
            Traceback::Chained => return blank() || line.starts_with(TRACEBACK),
            Traceback::None => {}
        }
        if self.block != Block::None {
            match self.block {
                Block::RequireStack if line.starts_with("- ") => return true,
                Block::Properties | Block::TapYaml => return true,
                _ => {}
            }
        }
        if line.starts_with('R') && line == REQUIRE_STACK {
            return self.severity >= Some(Severity::Error);
        }
        if self.opens == Some(Opens::GoPanic) {
            return in_go_trace(line);
        }
        // The task, under asyncio's report; its traceback follows as under any error.
        if self.lines == 0 && self.opens == Some(Opens::AsyncioTask) {
            return line.starts_with("future: <Task ");
        }
        if indented && !blank() && (self.indented == Indented::Continue || is_frame(line)) {
            return !is_syntax_error_frame(line);
        }
        // A stack's frame indented as much as its indented first line (Mocha's).
        if whole.len() > line.len() && is_frame(whole) {
            return !is_syntax_error_frame(whole);
        }
        let first = self.lines == 0;
        match self.header {
            // The box's lines, and nothing after it (its `╵`, the next box's `╷`).
            Header::TerraformBox => return line.starts_with('│'),
            Header::PhpUnitReport => return !ends_phpunit_report(line),
            Header::MinitestReport if first => return is_minitest_test(line),
            Header::MinitestReport => return !blank(),
            Header::GradleTestFailure => return indented && !blank(),
            // Where it stopped (a thread's switch, the place, its source line), then the
            // frames.
            Header::GdbSignal => {
                let digits = line.bytes().take_while(u8::is_ascii_digit).count();
                let place = line.contains(") at ")
                    || line.contains(") from ")
                    || (line.starts_with("0x") && line.contains(" in "));
                let source = digits > 0 && line.as_bytes().get(digits) == Some(&b'\t');
                return is_numbered_frame(line)
                    || (self.lines < 3 && (place || source))
                    || (first && line.starts_with("[Switching to "))
                    || asks_gdb_for_a_backtrace(line)
                    || (!first && indented && !blank());
            }
            // (A frame too long for the terminal goes on indented.)
            Header::GdbThread => {
                return is_numbered_frame(line) || (!first && indented && !blank())
            }
            Header::CtestFailedList => return line.starts_with('\t') && !blank(),
            Header::GtestFailure => {
                return !(blank() || line.starts_with('[') || is_gtest_failure(line))
            }
            Header::DotNetTestFailure => {
                if first {
                    return matches!(
                        line.trim(),
                        "Error Message:" | "Stack Trace:" | "Standard Output Messages:"
                    );
                }
                return !(blank()
                    || dotnet_test_result(line.trim_start()).is_some()
                    || ["Failed!", "Passed!", "Total tests: ", "Results File: "]
                        .iter()
                        .any(|end| line.starts_with(end)));
            }
            Header::TscPretty => {
                return (first && blank()) || !(blank() || is_tsc_pretty_header(line))
            }
            Header::TerraformTitle => {
                return match self.lines {
                    0 => blank(),
                    1 => is_terraform_place(line),
                    _ => false,
                }
            }
            // Its source (indented) and its explanation: a few lines of prose, set apart
            // by blank lines. Not the next diagnostic, a line that says something went
            // wrong, or a shell's next command: what a CI job prints after it.
            Header::TerraformPlain => {
                return blank()
                    || indented
                    || (self.prose < TERRAFORM_PROSE
                        && !line.starts_with("Error: ")
                        && !line.starts_with("Warning: ")
                        && !line.starts_with("$ ")
                        && !line.starts_with("+ ")
                        && !line.starts_with("##[")
                        && crate::classify(line).is_none_or(|s| s < Severity::Warn))
            }
            // Up to a blank line, or the next problem's.
            Header::WebpackProblem => {
                return !(blank()
                    || line.starts_with("ERROR in ")
                    || line.starts_with("WARNING in "))
            }
            Header::GradleFailure => return !blank(),
            Header::PipDebugDump if first => return line.starts_with(TRACEBACK),
            Header::StackOverflow => return line.starts_with("fatal runtime error: "),
            // (Blank lines of the code too.)
            Header::PylintSimilar => {
                return !(is_pylint_message(line)
                    || line.starts_with("************* ")
                    || is_rule_of(line, b'-'))
            }
            // The includes' chain, the function, the template's instantiation, then the
            // diagnostic they lead to.
            Header::CompilerContext => {
                return (indented && line.trim_start().starts_with("from "))
                    || is_compiler_context(line)
                    || is_instantiation_step(line)
                    || is_diagnostic_detail(line)
                    || is_diagnostic_header(line)
            }
            Header::Valgrind(pid) => return valgrind_detail(line) == Some(pid),
            Header::PythonWarning => {
                return first
                    && line
                        .strip_prefix("  ")
                        .is_some_and(|source| !source.starts_with([' ', '\t']) && !blank())
            }
            Header::NpmError => return npm_error_prefix(line).is_some(),
            Header::LinkerContext => return is_linker_finding(line),
            Header::SanitizerReport => {
                return blank()
                    || indented
                    || is_sanitizer_report_line(line)
                    || is_sanitizer_summary(line.as_bytes())
            }
            Header::GoRace => return blank() || indented || is_go_race_part(line),
            Header::ShadowBytes => {
                return indented || line.starts_with("=>") || line.starts_with("Shadow byte legend")
            }
            // The source, its caret, then the exception (a blank line before it, unless
            // what was thrown is no `Error`); its stack as any other's.
            Header::NodeThrowSite if !self.named => {
                return match self.lines {
                    // Not another place: a list of them is no throw site's.
                    0 => !blank() && !is_node_throw_site(line),
                    1 => is_caret(line),
                    2 => true,
                    _ => !blank(),
                };
            }
            // The message's paragraphs, up to a line that is not indented, but for its
            // call stack's heading (its frames indented under it).
            Header::CMakeMessage => return indented || blank() || line == CMAKE_CALL_STACK,
            Header::FileHeading => return is_lint_finding(line),
            // Its source line may be blank (a parse error at the end of the file).
            Header::ShellCheckPlace => return !blank() || first,
            // Up to the next block's header (`console.log`, unindented as read here), a
            // test's header or a suite's result.
            Header::JestConsole => return (indented || blank()) && !opens_a_jest_part(line),
            // Its YAML block, or Test::More's diagnostics under it (`#   Failed test 'adds'`,
            // `#          got: '3'`), not a summary's `# Looks like you failed 1 test`.
            Header::TapResult => {
                return (first && line.trim() == "---") || line.trim_start().starts_with("#  ")
            }
            // Or a traceback the line logged (uvicorn's `ERROR:    Exception in ASGI
            // application`, whose level is padded as PostgreSQL's is).
            Header::Postgres => {
                return is_postgres_detail(line)
                    || (first
                        && line.starts_with(TRACEBACK)
                        && self.severity >= Some(Severity::Error))
            }
            Header::SwiftCrash { ended } => return !ended,
            Header::InnoDbDeadlock { ended } => return !ended,
            Header::FatalPython => return blank() || is_faulthandler_line(line),
            Header::FatalError => {
                return (first
                    && matches!(line.trim_end(), "Stack trace:" | "Current stack trace:"))
                    || is_numbered_frame(line)
                    || line.starts_with("  thrown in ")
                    || is_swift_frame(line)
            }
            Header::RailsTagged(hash) => {
                return line
                    .strip_prefix('[')
                    .and_then(|rest| rest.split_once(']'))
                    .is_some_and(|(tag, rest)| {
                        (rest.is_empty() || rest.starts_with(' ')) && tag_hash(tag) == hash
                    })
            }
            Header::Sbt(level) => {
                return line.strip_prefix(level).is_some_and(|rest| {
                    rest.starts_with([' ', '\t']) || is_diagnostic_detail(rest)
                })
            }
            Header::ErlangReport => return (indented && !blank()) || line.starts_with("** "),
            Header::AnsibleFailure | Header::JuliaStacktrace if indented && !blank() => {
                return true
            }
            // Once: the failure is then a warning.
            Header::AnsibleFailure if line.trim_end() == ANSIBLE_IGNORING => {
                return self.severity >= Some(Severity::Error)
            }
            Header::JuliaStacktrace => return line.starts_with("in expression starting at "),
            Header::JuliaLogBox => return line.starts_with('│') || line.starts_with('└'),
            Header::DenoError => {
                return match self.lines {
                    0 => !blank(),
                    1 => is_caret(line),
                    _ => false,
                }
            }
            Header::ElixirCrash => {
                return (indented && !blank())
                    || line.starts_with("Last message")
                    || line.starts_with("State: ")
                    || is_elixir_client(line)
                    || (self.follows == Follows::ClientStack && blank())
            }
            // The exception, then its frames and the asynchronous gaps between them.
            Header::DartUnhandled => {
                return if first {
                    !blank()
                } else {
                    // `#1      load (file:///app/bin/app.dart:3:12)`
                    (is_numbered_frame(line) && line.trim_end().ends_with(')'))
                        || line.trim_end() == "<asynchronous suspension>"
                };
            }
            Header::DotNet | Header::GoTestFailure if indented => return true,
            Header::AndroidCrash
                if (first && line.starts_with("Process: "))
                    || (self.lines <= 1 && names_a_java_exception(line)) =>
            {
                return true
            }
            // Up to the rule under it (`⎯⎯⎯⎯[1/3]⎯`), or the next failure's header.
            Header::VitestFailure => {
                return !line.trim_start().starts_with('⎯') && !is_vitest_failure(line)
            }
            // Up to the next test's header or suite's result.
            Header::JestFailure if indented || blank() => return !opens_a_jest_part(line),
            // Its lines are indented, a blank one of it too (`  `, in a diff's).
            Header::NodeTestFailure => return indented,
            // Up to the next failure, or a passing test or the tally where the failure
            // is a top-level test's in the list of tests (`  1) works`, `  ✓ adds`).
            Header::MochaFailure if indented || blank() || is_node_assert_detail(line) => {
                let trimmed = line.trim_start_matches(' ');
                let tally = || {
                    let count = trimmed.trim_start_matches(|c: char| c.is_ascii_digit());
                    count.len() < trimmed.len()
                        && [" passing", " failing", " pending"]
                            .iter()
                            .any(|word| count.starts_with(word))
                };
                return !(is_mocha_failure(line) || trimmed.starts_with("✓ ") || tally());
            }
            // What the compiler says under it: rustc's and gcc's gutters, notes, and any
            // indented line (javac's source, caret, `symbol:` and `location:`, tsc's
            // elaboration), but a build's next step (kbuild's `  CC      m1.o`).
            Header::Diagnostic
                if (indented && !blank() && !is_build_step(line))
                    || is_diagnostic_detail(line)
                    // (Not mypy's note of the scope the next error is in.)
                    || (is_diagnostic_note(line) && !is_compiler_context(line))
                    // ruff's rule between the hunks of the fix it suggests.
                    || is_rule_of(line, b'-')
                    || (first && is_wrapped_error_code(line) && !is_diagnostic_header(line)) =>
            {
                return true
            }
            Header::RuleFinding { .. } if first && is_finding_place(line) => return true,
            Header::CppTerminate if first && line.starts_with(CPP_WHAT) => return true,
            // The message, or a note or a backtrace where it is empty.
            Header::PanicMessageNext if first => return true,
            Header::JavaUtilLogging if first && is_java_util_logging_message(line) => return true,
            // The exception logged with the message.
            Header::JavaUtilLogging if self.lines == 1 && names_a_java_exception(line) => {
                return true
            }
            _ => {}
        }
        if line.starts_with("Caused by:")
            || heads_causes(line)
            || line.starts_with("\tat ")
            || (indented && self.severity >= Some(Severity::Error) && is_pgjdbc_field(line))
        {
            return true;
        }
        // A traceback or a Java exception right under the serious line that logged it
        // (Python's `logger.exception`, `logger.warning(…, exc_info=True)`, log4j,
        // logback), Lua's under its error.
        // A long prefix is compared by a call: the first byte is looked at first.
        if line.starts_with('T') && line.starts_with(TRACEBACK) {
            return self.severity >= Some(Severity::Warn);
        }
        if line.starts_with('s') && line.trim_end() == LUA_TRACEBACK {
            return self.severity >= Some(Severity::Error);
        }
        // The blank line and the exception a caller saw after it (Spring Boot's layout).
        if self.exception_after_blank && self.lines <= 1 {
            return if first {
                blank()
            } else {
                names_a_java_exception(line)
            };
        }
        // Under a line that states its level, as a logger writes one (the exception it
        // logged, at INFO too): `e.printStackTrace()`'s stack after an unrelated line
        // (`processed batch 7`) is a record of its own.
        if first
            && self.opens != Some(Opens::Panic)
            && self.severity.is_some()
            && !self.notice
            && names_a_java_exception(line)
        {
            return true;
        }
        // Julia's stack under its error, Elixir's exception under the line that logged it
        // (`[error] GenServer x terminating`).
        if first
            && self.severity >= Some(Severity::Error)
            && (line.trim_end() == "Stacktrace:" || is_elixir_exception(line))
        {
            return true;
        }
        // A Go stack under the line that logged it, as zap's development logger (at
        // WARN and worse) and `pkg/errors`' `%+v` print it: a function's name, then its
        // file and line indented by a tab, in turn.
        if self.severity >= Some(Severity::Warn)
            && ((indented && is_go_stack_place(line))
                || (self.follows == Follows::GoFunction && is_go_stack_function(line)))
        {
            return true;
        }
        self.opens == Some(Opens::Panic)
            && (indented || line.starts_with("stack backtrace:") || line.starts_with("note: "))
    }

    /// Whether the line last pushed shows where it went wrong, though it does not name
    /// it ([`MultiLine::push`]): under Go's `panic:`, the panicking goroutine's first
    /// frame in the program's code (its package's path opens with a domain, or is
    /// `main`), its function and its file and line (`/app/store/cache.go:42 +0x2a`),
    /// past the runtime's frames and the standard library's; in a sanitizer's report,
    /// the heading of each of its parts (`freed by thread T0 here:`, `0x… is located 0
    /// bytes inside of 16-byte region …`, `Direct leak of 24 byte(s) …`). A record cut
    /// short keeps it, as it keeps a cause.
    pub fn at_fault(&self) -> bool {
        self.at_fault
    }

    /// Reads `line`, the next of a Go panic's dump, for the frame at fault; says whether
    /// it is a line of it.
    fn go_fault_at(&mut self, line: &str) -> bool {
        let (next, at_fault) = match self.go_fault {
            GoFault::Seeking if line.starts_with("goroutine ") && line.contains(" [running") => {
                (GoFault::Running, false)
            }
            GoFault::Seeking | GoFault::Done => (self.go_fault, false),
            GoFault::Running if line.is_empty() || line.starts_with("goroutine ") => {
                (GoFault::Done, false)
            }
            GoFault::Running if is_own_go_frame(line) => (GoFault::Function, true),
            GoFault::Running => (GoFault::Running, false),
            GoFault::Function => (GoFault::Done, is_go_stack_place(line)),
        };
        self.go_fault = next;
        at_fault
    }

    /// Adds `line`, which [`MultiLine::continues`] the record, of `severity`, opening
    /// `opens`. Says whether it names what went wrong: a traceback's exception line, a
    /// panic's message on the line after its header, a Java exception right under the
    /// line that logged it. A record is told apart by that line, not by where it began.
    pub fn push(&mut self, line: &str, severity: Option<Severity>, opens: Option<Opens>) -> bool {
        let line = self.within(line);
        let first = self.lines == 0;
        self.lines += 1;
        self.at_fault = match self.header {
            Header::SanitizerReport => is_sanitizer_report_line(line),
            _ => self.opens == Some(Opens::GoPanic) && self.go_fault_at(line),
        };
        // Minitest's `1) Failure:` says a test failed in no word of a level.
        if first && self.header == Header::MinitestReport {
            self.severity = self.severity.max(Some(Severity::Error));
        }
        let cause_line = self.follows == Follows::CauseLines && is_cause_line(line);
        self.follows = if is_go_stack_place(line) {
            Follows::GoFunction
        } else if is_tcl_command_step(line) {
            Follows::TclCommand
        } else if is_elixir_client(line) {
            Follows::ClientStack
        } else if cause_line || heads_causes(line) || self.follows == Follows::CauseAfterBlank {
            Follows::CauseLines
        } else {
            Follows::Nothing
        };
        // A frame ends the message its exception announced; so does anything else.
        self.message = match self.message {
            Some(0) if is_rule(line) => Some(1),
            Some(lines) if !line.trim().is_empty() && !is_frame(line) && goes_on_message(line) => {
                Some(lines.saturating_add(1))
            }
            _ => None,
        };
        // A diagnostic's level is its first line's: the source it quotes and the fix it
        // suggests (ruff's `   -     except ImportError:`, the code pylint finds twice)
        // name what they name; pip's debug dump is no error of its own.
        if !matches!(
            self.header,
            Header::Diagnostic | Header::PylintSimilar | Header::PipDebugDump
        ) {
            self.severity = self.severity.max(severity);
        }
        // A failure Ansible ignores (the task's `ignore_errors: true`) fails no run.
        if self.header == Header::AnsibleFailure && line.trim_end() == ANSIBLE_IGNORING {
            self.severity = self.severity.min(Some(Severity::Warn));
        }
        self.follow_block(line, first);
        if self.header == Header::UnittestReport && is_rule_of(line, b'-') {
            self.header = Header::UnittestBody;
        }
        if let Header::RuleFinding { error } = self.header {
            if first && is_finding_place(line) {
                self.header = Header::Diagnostic;
                // Its rule says its level, not what its message names (`SIM105 Use
                // `contextlib.suppress(KeyError)` …`).
                self.severity = Some(if error {
                    Severity::Error
                } else {
                    Severity::Warn
                });
            }
        }
        if self.header == (Header::SwiftCrash { ended: false }) && line.starts_with(SWIFT_CRASH_END)
        {
            self.header = Header::SwiftCrash { ended: true };
        }
        if self.header == (Header::InnoDbDeadlock { ended: false })
            && line.contains(INNODB_ROLL_BACK)
        {
            self.header = Header::InnoDbDeadlock { ended: true };
        }
        if self.header == (Header::JstackDeadlock { ended: false }) && counts_deadlocks(line) {
            self.header = Header::JstackDeadlock { ended: true };
        }
        if self.header == Header::TerraformTitle && self.lines == 2 {
            self.header = Header::TerraformPlain;
        } else if self.header == Header::TerraformPlain
            && !line.starts_with([' ', '\t'])
            && !line.trim().is_empty()
        {
            self.prose += 1;
        }
        let names = match self.traceback {
            Traceback::Open => {
                let exception = !line.starts_with([' ', '\t'])
                    && !line.trim().is_empty()
                    && !is_chain_line(line);
                if exception {
                    self.traceback = Traceback::Ended;
                }
                exception
            }
            Traceback::Ended | Traceback::Chained => {
                if is_chain_line(line) {
                    self.traceback = Traceback::Chained;
                }
                false
            }
            Traceback::None => match self.opens {
                // The group's exception, behind its bar.
                _ if self.header == Header::ExceptionGroup => {
                    !self.named && behind_group_bar(line).is_some_and(names_what_went_wrong)
                }
                Some(Opens::Panic) => {
                    first && self.header == Header::PanicMessageNext && is_panic_message(line)
                }
                // Go's header holds the message itself; a traceback's record is never
                // without one (its state is not `None`).
                Some(Opens::GoPanic | Opens::Traceback | Opens::AsyncioTask) => false,
                // The level and message, then the exception logged with them.
                None if self.header == Header::JavaUtilLogging => {
                    (first && is_java_util_logging_message(line))
                        || (self.lines <= 2 && names_a_java_exception(line))
                }
                // What failed, on the line under Gradle's header.
                None if self.header == Header::GradleFailure => first,
                // .NET's console logger says it under its category: its message, then
                // the exception logged with it, when one is (the record's third line).
                None if self.header == Header::DotNet => {
                    (first && !line.trim().is_empty())
                        || (self.lines <= 2 && names_a_java_exception(line.trim_start()))
                }
                // The exception, under the process.
                None if self.header == Header::AndroidCrash => names_a_java_exception(line),
                // The linker's first finding in the function.
                None if self.header == Header::LinkerContext => first,
                // The diagnostic under its context: its source and notes follow.
                None if self.header == Header::CompilerContext && is_diagnostic_header(line) => {
                    self.header = Header::Diagnostic;
                    true
                }
                // The exception thrown names it.
                None if self.header == Header::NodeThrowSite && !self.named => {
                    self.lines > 2 && !line.trim().is_empty()
                }
                None if self.header == Header::CppTerminate => first && line.starts_with(CPP_WHAT),
                // The error npm reports, below its code.
                None if self.header == Header::NpmError && !self.named => {
                    npm_said(line).is_some_and(npm_reports_its_error)
                }
                // Its first finding names it; Dart's exception, its.
                None if matches!(self.header, Header::FileHeading | Header::DartUnhandled) => first,
                // The test's title under its suites' (`       computes the total:`): each
                // failure of a list is a test of its own, however alike their headers.
                None if self.header == Header::MochaFailure && !self.named => {
                    line.trim_end().ends_with(':') && line.starts_with(' ')
                }
                None if self.header == Header::ShellCheckPlace && !self.named => {
                    shellcheck_finding_level(line).is_some()
                }
                // The error's line behind the tag names it.
                None if matches!(self.header, Header::RailsTagged(_)) && !self.named => line
                    .split_once(']')
                    .is_some_and(|(_, rest)| !rest.trim().is_empty()),
                // The message's first line names it.
                None if self.header == Header::CMakeMessage && !self.named => {
                    !line.trim().is_empty()
                }
                // The report ends with its summary.
                None if self.header == Header::SanitizerReport => {
                    if is_sanitizer_summary(line.as_bytes()) {
                        self.header = Header::Plain;
                    }
                    false
                }
                None if first && is_elixir_exception(line) => {
                    self.header = Header::ElixirCrash;
                    true
                }
                None if first && line.trim_end() == "Stacktrace:" => {
                    self.header = Header::JuliaStacktrace;
                    false
                }
                None => first && names_a_java_exception(line),
            },
        };
        if opens == Some(Opens::Traceback) && self.traceback != Traceback::Open {
            // A traceback under the line that logged it, or chained to the one before:
            // its frames follow, and its exception names the record. asyncio's report
            // leads to one.
            if matches!(self.opens, None | Some(Opens::AsyncioTask))
                || self.traceback == Traceback::Chained
            {
                self.opens = Some(Opens::Traceback);
                self.traceback = Traceback::Open;
            }
        }
        // Rails' exception ends with a colon whatever follows: its lines carry their tag.
        if (names || line.starts_with("Caused by:"))
            && announces_more(line)
            && !matches!(self.header, Header::RailsTagged(_))
        {
            self.message = Some(0);
        }
        self.named |= names;
        names
    }
}

/// `line` without its first `indent` bytes when they are spaces and tabs, else as it is:
/// a record's line read as its first line's indentation leaves it ([`MultiLine`] reads a
/// tool's output nested indented in another's so).
///
/// ```
/// use briefly_severity::multiline::without_indent;
///
/// assert_eq!(without_indent("      KeyError: 'a'", 4), "  KeyError: 'a'");
/// assert_eq!(without_indent("  SyntaxError: x", 4), "  SyntaxError: x");
/// ```
pub fn without_indent(line: &str, indent: usize) -> &str {
    match line.as_bytes().get(..indent) {
        Some(head) if head.iter().all(|b| matches!(b, b' ' | b'\t')) => &line[indent..],
        _ => line,
    }
}

/// Lines of a message announced ([`announces_more`]) under the line that announced it, at
/// most.
const MAX_MESSAGE_LINES: usize = 40;

/// Whether `line`, an exception's, announces that its message goes on over the lines
/// under it: it ends with a colon (`ValueError: invalid config:`,
/// `java.lang.IllegalArgumentException: invalid order 77:`), or it counts pydantic's
/// errors (`2 validation errors for Model`, each field's under it).
fn announces_more(line: &str) -> bool {
    let line = line.trim_end();
    // Read from the end, where both are: no search of a long line.
    line.ends_with(':')
        || line
            .rsplit_once(' ')
            .and_then(|(head, _model)| head.strip_suffix(" for"))
            .is_some_and(|head| {
                head.ends_with(" validation error") || head.ends_with(" validation errors")
            })
}

/// jstack's heading of a deadlock it found, the threads and the locks they wait for under
/// it ([`Header::JstackDeadlock`]).
const DEADLOCK_REPORT: &str = "Found one Java-level deadlock:";

/// Whether `line` may be a line of jstack's report of a deadlock: a thread's name quoted
/// (`"worker-1":`), what it waits for and its frames (indented), a rule of `=`, the
/// heading of the stacks, a blank line between its parts, or the count that ends it. A
/// report cut short (a dump interleaved with a program's output) ends at any other line.
fn is_deadlock_report_line(line: &str) -> bool {
    line.trim().is_empty()
        || line.starts_with(['"', ' ', '\t', '='])
        || line.trim_end() == "Java stack information for the threads listed above:"
        || counts_deadlocks(line)
}

/// Whether `line` is jstack's count of the deadlocks it reported, which ends their
/// reports: `Found 1 deadlock.`, `Found 2 deadlocks.`
fn counts_deadlocks(line: &str) -> bool {
    line.strip_prefix("Found ").is_some_and(|rest| {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        digits > 0 && matches!(rest[digits..].trim_end(), " deadlock." | " deadlocks.")
    })
}

/// Whether `line`, not blank, under a line that announced a message ([`announces_more`])
/// or a line of it, goes on with it (`- port: must be int`, pydantic's `port` and its
/// indented error): not a line that states a level or says something went wrong (`INFO
/// next`, `make: *** [all] Error 1`), opens a traceback, is a rule or a heading of one
/// (`======`, pytest's `____ test_a ____`), or a shell's or a CI runner's command (`+
/// make`, `$ ls`, `##[error]…`).
fn goes_on_message(line: &str) -> bool {
    let ruled = ["===", "---", "___", "***"]
        .iter()
        .any(|rule| line.starts_with(rule));
    let command = ["+ ", "$ ", "##["]
        .iter()
        .any(|start| line.starts_with(start));
    if ruled || command {
        return false;
    }
    let found = crate::inspect(line);
    !found.stated && found.severity.is_none_or(|s| s < Severity::Warn) && found.opens.is_none()
}

/// A stack's frame or what stands among them: Java's, .NET's and JavaScript's `at …`
/// (and a Java thread dump's state and monitors), Python's `File "…"`, Ruby's `from app.rb:5:in …`, Java's `... 12 more` and its
/// suppressed exceptions (`\tSuppressed: …`, with their own `\t\tCaused by: …`), .NET's inner
/// exceptions (` ---> …`, `--- End of inner exception …`), the sanitizers' numbered
/// frames (`#0 0x4f3c in main a.c:7`), given an indented line.
fn is_frame(indented: &str) -> bool {
    let trimmed = indented.trim_start();
    if is_numbered_frame(trimmed) {
        return true;
    }
    if let Some(place) = trimmed.strip_prefix("from ") {
        // Ruby's: `\tfrom app.rb:5:in '<main>'`.
        return place.contains(":in ");
    }
    [
        "at ",
        "... ",
        "File \"",
        "---> ",
        "--- End of ",
        "Suppressed: ",
        "Caused by: ",
        // A Java thread dump's (jstack's, `kill -3`'s): a thread's state, and the
        // monitors it holds and waits for among its frames.
        "java.lang.Thread.State: ",
        "- waiting to lock <",
        "- locked <",
        "- waiting on <",
        "- parking to wait for <",
    ]
    .iter()
    .any(|start| trimmed.starts_with(start))
        || is_lua_frame(trimmed)
        || (trimmed.starts_with('(') && (is_elixir_frame(trimmed) || is_tcl_place(trimmed)))
        || is_tcl_command_step(indented)
}

/// Whether `line` is an indented line of a stack: Java's, .NET's and JavaScript's `\tat
/// …`, Python's `  File "a.py", line 3, in f`, Ruby's `\tfrom app.rb:5:in …`, `Caused
/// by: …`, numbered frames (`#0 0x4f3c in main a.c:7`).
pub fn is_stack_frame(line: &str) -> bool {
    line.starts_with([' ', '\t']) && is_frame(line)
}

/// Whether `line` is Elixir's `Client #PID<0.512.0> is alive` under a process's crash
/// (the client's stack follows after a blank line).
fn is_elixir_client(line: &str) -> bool {
    line.starts_with("Client ") && line.trim_end().ends_with(" is alive")
}

/// Whether `line` is a step of Tcl's error trace (its `errorInfo`) that names the command
/// run next, quoted on the line after it: `    while executing`, `    invoked from within`.
fn is_tcl_command_step(line: &str) -> bool {
    line.starts_with("    ") && matches!(line.trim(), "while executing" | "invoked from within")
}

/// Whether `trimmed` is where a step of Tcl's error trace ran: `(procedure "f" line 1)`,
/// `(file "t.tcl" line 3)`, `("foreach" body line 2)`.
fn is_tcl_place(trimmed: &str) -> bool {
    trimmed
        .trim_end()
        .strip_suffix(')')
        .and_then(|place| place.rsplit_once(" line "))
        .is_some_and(|(_, number)| !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()))
}

/// A frame by its number: the sanitizers' `#0 0x4f3c in main a.c:7`, Dart's `#0
/// main (file:///app/bin/app.dart:3:12)`.
fn is_numbered_frame(line: &str) -> bool {
    line.strip_prefix('#').is_some_and(|number| {
        let digits = number.bytes().take_while(u8::is_ascii_digit).count();
        digits > 0 && number[digits..].starts_with(' ')
    })
}

/// Whether `line` reports a fatal error a stack may follow: PHP's (`PHP Fatal error:
/// Uncaught TypeError: …` to stderr or in a server's log after its time, `Fatal error:
/// Uncaught RuntimeException: …` to its output) and Swift's (`App/main.swift:3: Fatal
/// error: Unexpectedly found nil while unwrapping an Optional value`).
fn is_fatal_error(line: &str) -> bool {
    // By its capital (a search's setup costs more on these short lines: BGL's `FATAL`s).
    memchr::memchr_iter(b'F', line.as_bytes())
        .any(|at| line.as_bytes()[at..].starts_with(b"Fatal error: "))
}

/// What Ansible prints under a task's failure it ignores (`ignore_errors: true`): the
/// failure is a warning, counted in the recap as `ignored=1`.
const ANSIBLE_IGNORING: &str = "...ignoring";

/// Whether `line` is `Caused by:` alone, heading the causes of an error indented under
/// it (cargo's, anyhow's), or pip's `The conflict is caused by:`.
pub fn heads_causes(line: &str) -> bool {
    matches!(line.trim_end(), "Caused by:" | PIP_CONFLICT)
}

/// pip's heading of a dependency conflict's causes, under its `ERROR: Cannot install …`
/// and a blank line (`    requests 2.31.0 depends on urllib3<3` under it).
const PIP_CONFLICT: &str = "The conflict is caused by:";

/// Whether `line` is one of the causes listed under a `Caused by:` alone, indented:
/// cargo's (`  process didn't exit successfully: …`), anyhow's (`    0: reading x`); not
/// a build's next step (cargo's status, right-aligned: `   Compiling app`).
fn is_cause_line(line: &str) -> bool {
    line.starts_with("  ") && !line.trim().is_empty() && !is_build_step(line)
}

/// How the C++ runtime reports an exception nothing caught, and its message under that.
const CPP_TERMINATE: &str = "terminate called after throwing an instance of ";
const CPP_WHAT: &str = "  what():  ";

/// How faulthandler's report of a crashed Python process starts.
const FATAL_PYTHON: &str = "Fatal Python error: ";

/// How Android's report of an app's crash starts ([`Header::AndroidCrash`]).
const ANDROID_CRASH: &str = "FATAL EXCEPTION: ";

/// Whether `line` is of faulthandler's report under its `Fatal Python error: …`: a
/// thread's heading, a frame of its stack (`  File "app.py", line 6 in read_header`, or
/// none), the runtime's state, the extension modules loaded.
fn is_faulthandler_line(line: &str) -> bool {
    let thread = |heading: &str| {
        line.strip_prefix(heading)
            .is_some_and(|rest| rest.ends_with("(most recent call first):"))
    };
    thread("Current thread 0x")
        || thread("Thread 0x")
        || line == "Stack (most recent call first):"
        || (line.starts_with("  File \"") && line.contains("\", line "))
        || line == "  <no Python frame>"
        || line.starts_with("Python runtime state: ")
        || line.starts_with("Extension modules: ")
}

/// Whether `line` opens with a linter rule's code and a space, as ruff's findings do by
/// default (`F821 Undefined name`, `PLR0913 Too many arguments`, `UP006 [*] Use …`): one
/// to four capitals, then three or four digits.
/// What opens pip's debug dump of an error it reported ([`Header::PipDebugDump`]).
const PIP_DEBUG_DUMP: &str = "Exception information:";

/// pylint's finding of code duplicated: `checkers/utils.py:1:0: R0801: Similar lines in 2
/// files`.
fn is_pylint_similar(line: &str) -> bool {
    line.contains(": R0801: Similar lines in ")
}

/// A message of pylint's: `a.py:12:4: W0612: Unused variable 'x' (unused-variable)`, a
/// place then a message id (a letter, four digits) and a colon.
fn is_pylint_message(line: &str) -> bool {
    line.match_indices(": ").any(|(at, _)| {
        let id = line.as_bytes().get(at + 2..at + 8).unwrap_or_default();
        id.len() == 6
            && id[0].is_ascii_uppercase()
            && id[1..5].iter().all(u8::is_ascii_digit)
            && id[5] == b':'
    })
}

/// Where ruff's finding is, under its code and message: ` --> src/a.py:3:1`, indented to
/// its gutter's width (`   --> ` for a line number of three digits).
fn is_finding_place(line: &str) -> bool {
    line.trim_start_matches(' ').starts_with("--> ")
}

fn is_rule_code_line(line: &str) -> bool {
    let bytes = line.as_bytes();
    // A digit at the fourth byte, or the fifth after four capitals: two bytes rule out a
    // log's level word (`INFO `, `ERROR`), read at every record opening with a capital.
    let digit_at = |at: usize| bytes.get(at).is_some_and(u8::is_ascii_digit);
    if !(digit_at(3) || (bytes.get(3).is_some_and(u8::is_ascii_uppercase) && digit_at(4))) {
        return false;
    }
    let letters = bytes.iter().take_while(|b| b.is_ascii_uppercase()).count();
    let digits = bytes[letters..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    (1..=4).contains(&letters)
        && (3..=4).contains(&digits)
        && bytes.get(letters + digits) == Some(&b' ')
}

/// How Swift's backtrace ends: `Backtrace took 0.02s`.
const SWIFT_CRASH_END: &str = "Backtrace took ";

/// Whether `line` opens Swift's backtrace of a crashed program: `💣 Program crashed: …`,
/// or `*** Program crashed: … ***` where its output has no colour.
fn is_swift_crash(line: &str) -> bool {
    line.strip_prefix("💣 ")
        .or_else(|| line.strip_prefix("*** "))
        .is_some_and(|rest| rest.starts_with("Program crashed: "))
}

/// Whether `line` is PHP's exception chained to an uncaught one (`Next RuntimeException:
/// lookup failed in /a/Service.php:22`): `Next `, a class whose name ends as a
/// throwable's does (`Exception`, `Error`), and the place after ` in `.
fn is_php_next(line: &str) -> bool {
    let Some((class, message)) = line
        .strip_prefix("Next ")
        .and_then(|rest| rest.split_once(": "))
    else {
        return false;
    };
    !class.contains(' ')
        && (class.ends_with("Exception") || class.ends_with("Error"))
        && message.contains(" in ")
}

/// A frame of Swift's `Current stack trace:`: its number, the module and the address
/// (`0    libswiftCore.so    0x00007f3e1c2a1b20 swift_reportError + 50`).
fn is_swift_frame(line: &str) -> bool {
    let mut fields = line.split_ascii_whitespace();
    let number = fields.next().unwrap_or_default();
    let _module = fields.next();
    let address = fields.next().unwrap_or_default();
    !number.is_empty()
        && number.bytes().all(|b| b.is_ascii_digit())
        && line.starts_with(number)
        && line.as_bytes().get(number.len()) == Some(&b' ')
        && address
            .strip_prefix("0x")
            .is_some_and(|hex| !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The tag a Rails request's line carries after Ruby's logger's header (`F, [… #4120]
/// FATAL -- : [a1b2c3]   `): its first, without the brackets.
fn rails_tag(line: &str) -> Option<&str> {
    let (_, rest) = line.split_once(" -- : [")?;
    let (tag, _) = rest.split_once(']')?;
    (!tag.is_empty() && !tag.contains(' ')).then_some(tag)
}

/// Whether `line` opens as Ruby's logger writes a serious line, `E, [` or `F, [` (its
/// time and process id follow), or is its part after the time (`#4120] FATAL -- : …`).
fn is_ruby_logger_line(line: &str) -> bool {
    matches!(
        line.as_bytes(),
        [b'E' | b'F', b',', b' ', b'[', ..] | [b'#', ..]
    )
}

/// A hash of a record's tag ([`Header::RailsTagged`]): a header holds no text.
fn tag_hash(tag: &str) -> u64 {
    // FNV-1a.
    tag.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The level sbt puts before `line`, when `line` heads what sbt prints under one level:
/// a compiler's diagnostic (Scala 3's `[error] -- [E006] Not Found Error: /a/M.scala:5:12`,
/// `[warn] -- Warning: …`, Scala 2's at an absolute path, `[error] /a/Main.scala:5:13: not
/// found: value x`, `[error] C:\a\Main.scala:5:13: …`), ScalaTest's failed test
/// (`[info] - should add *** FAILED ***`), or the summary's `[error] Failed tests:`.
fn sbt_header(line: &str, severity: Option<Severity>) -> Option<&'static str> {
    if severity < Some(Severity::Warn) {
        return None;
    }
    let level = match line.as_bytes() {
        [b'[', b'e', b'r', b'r', b'o', b'r', b']', b' ', ..] => "[error] ",
        [b'[', b'w', b'a', b'r', b'n', b']', b' ', ..] => "[warn] ",
        [b'[', b'i', b'n', b'f', b'o', b']', b' ', ..] => "[info] ",
        _ => return None,
    };
    let rest = &line[level.len()..];
    // The summary's list of the suites that failed, each tab-indented under it.
    if level == "[error] " && rest.trim_end() == "Failed tests:" {
        return Some(level);
    }
    // The test's `- `, the diagnostic's `-- ` or its absolute path opens it: Apache's
    // `[error] mod_jk child …` is ruled out without a search.
    let drive = rest.as_bytes().get(1..3) == Some(b":\\");
    if !(matches!(rest.as_bytes().first(), Some(b'-' | b'/')) || drive) {
        return None;
    }
    let failed_test = rest.starts_with("- ") && rest.trim_end().ends_with("*** FAILED ***");
    let diagnostic = || {
        // Scala 3's title, or Scala 2's (and javac's) place.
        let scala3 =
            rest.starts_with("-- ") && (rest.contains("Error: ") || rest.contains("Warning: "));
        let path_on = if drive { &rest[2..] } else { rest };
        let placed = path_on.split_once(':').is_some_and(|(path, after)| {
            [".scala", ".java", ".sbt"]
                .iter()
                .any(|ext| path.ends_with(ext))
                && after.starts_with(|c: char| c.is_ascii_digit())
        });
        scala3 || placed
    };
    (failed_test || (level != "[info] " && diagnostic())).then_some(level)
}

/// Whether `line` heads an Erlang/OTP report: `=ERROR REPORT==== 5-Mar-2024::10:00:01 ===`,
/// `=CRASH REPORT====`, `=SUPERVISOR REPORT====`, `=INFO REPORT====`.
fn is_erlang_report(line: &str) -> bool {
    line.strip_prefix('=')
        .and_then(|rest| rest.split_once(" REPORT===="))
        .is_some_and(|(kind, _)| {
            !kind.is_empty() && kind.bytes().all(|b| b.is_ascii_uppercase() || b == b' ')
        })
}

/// Whether `line` opens Julia's logging box: `┌ Error: …`, `┌ Warning: …`, `┌ Info: …`.
fn is_julia_log_box(line: &str) -> bool {
    line.strip_prefix("┌ ").is_some_and(|rest| {
        let level = rest.bytes().take_while(u8::is_ascii_alphabetic).count();
        level > 0 && rest[level..].starts_with(':')
    })
}

/// Whether `line` is Deno's error over the source it points at: a type check's
/// (`error: TS2322 [ERROR]: …`, the next one's `TS2304 [ERROR]: …`) or an uncaught
/// error's (`error: Uncaught (in promise) PermissionDenied: …`).
fn is_deno_error(line: &str) -> bool {
    let rest = line.strip_prefix("error: ").unwrap_or(line);
    (rest.starts_with("Uncaught ") && line.len() > rest.len())
        || rest.strip_prefix("TS").is_some_and(|code| {
            let digits = code.bytes().take_while(u8::is_ascii_digit).count();
            digits > 0 && code[digits..].starts_with(" [ERROR]: ")
        })
}

/// Whether `line` is Elixir's exception as its logger writes it under the line that
/// logged it: `** (ArithmeticError) bad argument in arithmetic expression`.
fn is_elixir_exception(line: &str) -> bool {
    line.strip_prefix("** (").is_some_and(|rest| {
        let name = rest
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'.' || *b == b'_')
            .count();
        name > 0 && rest[name..].starts_with(')')
    })
}

/// Whether `trimmed` is a frame of an Elixir or Erlang stack as Elixir prints it: its
/// application and version, then the place (`(my_app 0.1.0) lib/cache.ex:42:
/// MyApp.Cache.handle_call/3`, `(stdlib 5.2) gen_server.erl:1131: …`).
fn is_elixir_frame(trimmed: &str) -> bool {
    let Some((app, rest)) = trimmed.strip_prefix('(').and_then(|r| r.split_once(") ")) else {
        return false;
    };
    let Some((name, version)) = app.split_once(' ') else {
        return false;
    };
    !name.is_empty()
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && version.starts_with(|c: char| c.is_ascii_digit())
        && !version.contains(' ')
        && rest.contains(':')
}

/// A build's quiet line for a step, indented: a tool's name in capitals, then what it
/// makes (kbuild's and many Makefiles' `  CC      init/main.o`, `  LD [M]  x.ko`,
/// `  GEN     Makefile`), or cargo's status, right-aligned (`   Compiling app v0.1.0`).
fn is_build_step(indented: &str) -> bool {
    let trimmed = indented.trim_start();
    const CARGO_STATUSES: [&str; 8] = [
        "Compiling ",
        "Checking ",
        "Finished ",
        "Running ",
        "Fresh ",
        "Building ",
        "Downloaded ",
        "Documenting ",
    ];
    if CARGO_STATUSES
        .iter()
        .any(|status| trimmed.starts_with(status))
    {
        return true;
    }
    let name = trimmed
        .bytes()
        .take_while(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || *b == b'_')
        .count();
    // (kbuild pads its tools' names to seven: not a variable's, `OPENSSL_DIR unset`, in
    // a build script's output.)
    (2..=8).contains(&name)
        && trimmed.as_bytes()[0].is_ascii_uppercase()
        && matches!(trimmed.as_bytes().get(name), Some(b' ' | b'\t'))
}

/// Whether `line` is a message of PostgreSQL's at a level, as psql prints it: the level,
/// a colon and two spaces (`psql:m.sql:3: ERROR:  duplicate key value …`, `WARNING:  …`).
fn is_postgres_message(line: &str) -> bool {
    // One pass for the two spaces, then the level before them.
    line.match_indices(":  ").any(|(at, _)| {
        ["ERROR", "FATAL", "WARNING", "PANIC"]
            .iter()
            .any(|level| line[..at].ends_with(level))
    })
}

/// The parts of a PostgreSQL message after its first line, each named so.
const POSTGRES_PARTS: [&str; 5] = [
    "DETAIL:  ",
    "HINT:  ",
    "CONTEXT:  ",
    "QUERY:  ",
    "STATEMENT:  ",
];

/// A part of a PostgreSQL message after its first line: `DETAIL:  …`, `HINT:  …`,
/// `CONTEXT:  …`, `QUERY:  …`, `STATEMENT:  …`, the statement's `LINE 1: …` and the caret
/// under it (psql's `psql:m.sql:3: DETAIL:  …` too); in the server's log, after what its
/// `log_line_prefix` puts before each line (`UTC [4242] DETAIL:  …` after the time).
fn is_postgres_detail(line: &str) -> bool {
    let part = match line.strip_prefix("psql:") {
        // psql's `FILE:LINE: ` before the part.
        Some(rest) => rest.splitn(3, ": ").nth(2).unwrap_or(""),
        None => line,
    };
    let prefixed = || {
        // The first colon and two spaces ends the part's name, a word after a space.
        line.find(":  ").is_some_and(|at| {
            let name = line[..at].rfind(' ').map_or(0, |space| space + 1);
            name > 0
                && POSTGRES_PARTS
                    .iter()
                    .any(|part| line[name..].starts_with(part))
        })
    };
    POSTGRES_PARTS.iter().any(|name| part.starts_with(name))
        || prefixed()
        || part.strip_prefix("LINE ").is_some_and(|rest| {
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            digits > 0 && rest[digits..].starts_with(": ")
        })
        || is_caret(line)
}

/// Node's line above the files that required a module it did not find.
const REQUIRE_STACK: &str = "Require stack:";

/// A TAP test's result, indented when a subtest's: `ok 1 - works`, `not ok 3 - case 2`,
/// `ok 4 # SKIP`.
fn is_tap_result(line: &str) -> bool {
    let trimmed = line.trim_start();
    let rest = trimmed
        .strip_prefix("not ok ")
        .or_else(|| trimmed.strip_prefix("ok "));
    rest.is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
}

/// Dart's line above its uncaught exception.
pub(crate) const DART_UNHANDLED: &str = "Unhandled exception:";

/// Lua's line above the frames of its error.
const LUA_TRACEBACK: &str = "stack traceback:";

/// A frame of Lua's `stack traceback:`, indented: a place and what ran there (`app.lua:3:
/// in local 'load'`, `[C]: in ?`, `[string "x"]:1: in main chunk`), or the tail calls
/// it left out.
fn is_lua_frame(trimmed: &str) -> bool {
    if trimmed == "(...tail calls...)" {
        return true;
    }
    let Some((place, _)) = trimmed.split_once(": in ") else {
        return false;
    };
    place == "[C]"
        || place.rsplit_once(':').is_some_and(|(file, line)| {
            !line.is_empty()
                && line.bytes().all(|b| b.is_ascii_digit())
                && (file.ends_with(".lua") || file.starts_with("[string "))
        })
}

/// The frame Python reports a syntax error with, alone, no `Traceback` above it: `  File
/// "x.py", line 3` (a frame of a traceback names its function too: `…, line 3, in f`),
/// then the source, a caret and `SyntaxError: …`. It begins a record of its own, where
/// any other frame continues the line above it.
fn is_syntax_error_frame(indented: &str) -> bool {
    let Some(rest) = indented.trim_start().strip_prefix("File \"") else {
        return false;
    };
    rest.rsplit_once("\", line ").is_some_and(|(_, number)| {
        let number = number.trim_end();
        !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit())
    })
}

/// Where Node says its uncaught exception was thrown, on a line of its own above the
/// source: a script's path and line (`/app/a.js:3`, `file:///app/a.mjs:3`,
/// `C:\app\a.ts:3`). Read at the start of every record: its first and last bytes rule
/// out nearly every line.
fn is_node_throw_site(line: &str) -> bool {
    if !line.ends_with(|c: char| c.is_ascii_digit()) {
        return false;
    }
    // A script given on the command line (`node -e`) or on its input: `[eval]:1`.
    if let Some(number) = line
        .strip_prefix("[eval]:")
        .or_else(|| line.strip_prefix("[stdin]:"))
    {
        return number.bytes().all(|b| b.is_ascii_digit());
    }
    // Node's own modules: `node:internal/modules/cjs/loader:1210`.
    if let Some(module) = line.strip_prefix("node:") {
        return module.rsplit_once(':').is_some_and(|(name, number)| {
            !name.is_empty() && !name.contains(' ') && number.bytes().all(|b| b.is_ascii_digit())
        });
    }
    let path = line.strip_prefix("file://").unwrap_or(line);
    if !is_absolute(path) {
        return false;
    }
    let Some((file, number)) = path.rsplit_once(':') else {
        return false;
    };
    number.bytes().all(|b| b.is_ascii_digit())
        && [".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"]
            .iter()
            .any(|extension| file.ends_with(extension))
}

/// Whether `text` opens with an absolute path, Unix's (`/app`) or Windows' (`C:\app`):
/// its first bytes, which rule out a log's line (a time's digit) at once.
fn is_absolute(text: &str) -> bool {
    text.starts_with('/') || text.as_bytes().get(1..3) == Some(b":\\")
}

/// A file's name alone on a line, as ESLint's table heads a file's findings with: its
/// absolute path (`/app/src/index.js`, `C:\app\src\index.js`), without spaces, ending in
/// an extension. Read at the start of every record: the first bytes rule out nearly
/// every line.
fn is_file_heading(line: &str) -> bool {
    let bytes = line.as_bytes();
    // ESLint names a file by its absolute path: the first bytes rule out a log's line.
    if !is_absolute(line) || bytes.iter().any(|&b| b == b' ' || b == b'\t') {
        return false;
    }
    let tail = &bytes[bytes.len().saturating_sub(6)..];
    let Some(dot) = tail.iter().rposition(|&b| b == b'.') else {
        return false;
    };
    let extension = &tail[dot + 1..];
    !extension.is_empty() && extension.iter().all(u8::is_ascii_alphanumeric)
}

/// A linter's finding in the table under its file's name, as ESLint's default
/// formatter (and stylelint's) prints it: indented, a line and a column, then the
/// level apart: `   1:10  error  'fs' is defined but never used  no-unused-vars`.
fn is_lint_finding(line: &str) -> bool {
    let bytes = line.as_bytes();
    let indent = bytes.iter().take_while(|&&b| b == b' ').count();
    let rest = &bytes[indent..];
    let Some(number) = crate::number_and_colon(rest).filter(|_| indent > 0) else {
        return false;
    };
    let column = rest[number..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    column > 0 && rest[number + column..].starts_with(b"  ")
}

/// ShellCheck's place of its findings, `In deploy.sh line 3:`.
fn is_shellcheck_place(line: &str) -> bool {
    line.starts_with("In ") && line.ends_with(':') && line.contains(" line ")
}

/// How serious a ShellCheck finding under its place is, `^-- SC2035 (info): …` (or under
/// a span, `^-----^ SC2045 (error): …`): 3 for an error, 2 a warning, 1 info, 0 style;
/// `None` for any other line.
fn shellcheck_finding_level(line: &str) -> Option<u8> {
    let marks = line.trim_start().strip_prefix('^')?;
    let code = marks.trim_start_matches(['-', '^']).strip_prefix(" SC")?;
    let digits = code.bytes().take_while(u8::is_ascii_digit).count();
    let level = code[digits..].strip_prefix(" (")?.split_once(')')?.0;
    (digits > 0).then_some(match level {
        "error" => 3,
        "warning" => 2,
        "info" => 1,
        _ => 0,
    })
}

/// Whether `said` opens with an error's name and a colon, a code between them or not:
/// `FetchError: request to … failed`, `AssertionError [ERR_ASSERTION]: Expected …`.
fn opens_with_an_error_name(said: &str) -> bool {
    said.split_once(':').is_some_and(|(head, _)| {
        let name = head.split_once(" [").map_or(head, |(name, _)| name);
        (name.ends_with("Error") || name.ends_with("Exception"))
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'.')
    })
}

/// What heads the calls that led to a CMake message, under its paragraphs.
const CMAKE_CALL_STACK: &str = "Call Stack (most recent call first):";

/// CMake's message of an error or a warning, its message indented on the lines after:
/// `CMake Error at CMakeLists.txt:3 (project):`, `CMake Warning (dev) at …:`, `CMake
/// Deprecation Warning at …:`, `CMake Error: …`. Read at the start of every record.
fn is_cmake_message(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("CMake ") else {
        return false;
    };
    let rest = rest.strip_prefix("Deprecation ").unwrap_or(rest);
    let Some(rest) = rest
        .strip_prefix("Error")
        .or_else(|| rest.strip_prefix("Warning"))
    else {
        return false;
    };
    let rest = rest.strip_prefix(" (dev)").unwrap_or(rest);
    rest.starts_with(" at ") || rest.starts_with(':')
}

/// Python's warning as its `warnings` module prints it, `app/db.py:14: DeprecationWarning:
/// …` (the file, the line, the category: a word ending in `Warning`); the source line it
/// was raised at follows, indented by two spaces.
fn is_python_warning(line: &str) -> bool {
    let Some(at) = line.find("Warning: ") else {
        return false;
    };
    let category = line[..at]
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |p| p + 1);
    let Some(place) = line[..category].strip_suffix(": ") else {
        return false;
    };
    let file = place.trim_end_matches(|c: char| c.is_ascii_digit());
    file.len() < place.len() && file.len() > 1 && file.ends_with(':')
}

/// A line of carets under the source it points at (`        ^`), or of tildes under a
/// span of it (Deno's `~~~~`).
fn is_caret(line: &str) -> bool {
    let mark = line.trim();
    !mark.is_empty() && mark.bytes().all(|b| b == b'^' || b == b'~')
}

/// A part of a report of Go's race detector: an access (`Read at 0x… by goroutine 7:`,
/// `Previous write at …`) or a goroutine (`Goroutine 7 (running) created at:`), its
/// stack indented under it.
fn is_go_race_part(line: &str) -> bool {
    [
        "Read at ",
        "Write at ",
        "Previous read at ",
        "Previous write at ",
        "Goroutine ",
    ]
    .iter()
    .any(|start| line.starts_with(start))
}

/// The process id of a valgrind report's first line, `==1234== Invalid read of size 4`
/// (its message right after the prefix's space). Read at the start of every record: one
/// byte rules out nearly every line.
fn valgrind_report(line: &str) -> Option<u32> {
    if !line.starts_with("==") {
        return None;
    }
    let (start, pid) = valgrind_prefix(line.as_bytes())?;
    let message = &line.as_bytes()[start..];
    message
        .first()
        .is_some_and(|b| !b.is_ascii_whitespace())
        .then_some(pid)
}

/// The process id of a line of a valgrind report's details, indented behind its prefix:
/// `==1234==    at 0x4C2F: main (a.c:7)`, `==1234==  Address 0x… is 0 bytes after …`.
fn valgrind_detail(line: &str) -> Option<u32> {
    let (start, pid) = valgrind_prefix(line.as_bytes())?;
    let message = &line[start..];
    (message.starts_with(' ') && !message.trim_start().is_empty()).then_some(pid)
}

/// Of a frame of a valgrind report's stack (`==1234==    at 0x4C2F: main (a.c:7)`, `by
/// 0x…: …`), whether it is at a line of a source file (`(a.c:7)`, not a library's `(in
/// /usr/lib/…/libc.so.6)`); `None` for a line that is no frame.
fn valgrind_frame(line: &str) -> Option<bool> {
    let (start, _) = valgrind_prefix(line.as_bytes())?;
    let frame = line[start..].trim();
    if !(frame.starts_with("at 0x") || frame.starts_with("by 0x")) {
        return None;
    }
    let place = frame
        .strip_suffix(')')
        .and_then(|frame| frame.rsplit_once(" ("))
        .map(|(_, place)| place);
    Some(place.is_some_and(|place| !place.starts_with("in ") && place.contains(':')))
}

/// Lines of explanation Terraform's error without its box holds at most: its own are a
/// few; past them, what follows is another tool's.
const TERRAFORM_PROSE: usize = 8;

/// The linker's context of what it found next, the function it was linking:
/// `/usr/bin/ld: /tmp/cc9E.o: in function `main':` (GNU ld, gold and lld alike).
fn is_linker_context(line: &str) -> bool {
    // Looked at at every record's start: the colon that ends it first.
    (line.ends_with("':") || line.ends_with("’:"))
        && (line.contains(": in function `") || line.contains(": in function ‘"))
}

/// The linker's finding at a place in a section (`y.c:(.text+0x15): undefined reference
/// to `ext1'`, after `/usr/bin/ld: ` too): a function's context names none.
fn is_linker_finding(line: &str) -> bool {
    line.contains(":(.")
}

/// The line that opens a Python exception group's report (3.11 on), after its indentation.
const EXCEPTION_GROUP: &str = "+ Exception Group Traceback (most recent call last)";

/// Whether `line` opens Python's report of an exception group, indented as it is
/// (`  + Exception Group Traceback (most recent call last):`): a record of its own, not
/// a line of the one above it (as an indented line under a log's line may be).
pub fn is_exception_group_heading(line: &str) -> bool {
    line.trim_start().starts_with(EXCEPTION_GROUP)
}

/// A line of a Python exception group's report: behind a `|` (its tracebacks and
/// exceptions) or a `+` (the rules between its sub-exceptions), after indentation; not
/// the next group's first.
fn is_exception_group_line(line: &str) -> bool {
    let line = line.trim_start();
    line.starts_with(['|', '+']) && !line.starts_with(EXCEPTION_GROUP)
}

/// What an exception group's line says behind its `|`: `ExceptionGroup: …`, a frame
/// indented as in a traceback.
fn behind_group_bar(line: &str) -> Option<&str> {
    let said = line.trim_start().strip_prefix('|')?;
    Some(said.strip_prefix(' ').unwrap_or(said))
}

/// The prefix of a line of npm's error report, `npm error ` (`npm ERR! ` before npm 10),
/// or the whole of a blank one of it (`npm error`).
fn npm_error_prefix(line: &str) -> Option<&'static str> {
    if !line.starts_with("npm ") {
        return None;
    }
    ["npm error", "npm ERR!"].into_iter().find(|prefix| {
        line.strip_prefix(prefix)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
    })
}

/// What a line of npm's error report says behind its prefix ([`npm_error_prefix`]) and,
/// where npm quotes an install script's failure, behind the script's own (node-gyp's
/// `gyp ERR! `, node-pre-gyp's) and its stack's `stack `: `Error: Could not find any
/// Python installation to use`, `    at PythonFinder.fail (…)`, `cwd /app`. Every line
/// of the report, and of the script's, is of their level; what it says is not.
fn npm_said(line: &str) -> Option<&str> {
    let said = &line[npm_error_prefix(line)?.len()..];
    let said = said.strip_prefix(' ').unwrap_or(said);
    let said = match said.split_once(" ERR! ") {
        Some((tool, said)) if tool.bytes().all(|b| b.is_ascii_lowercase() || b == b'-') => said,
        _ => said,
    };
    Some(said.strip_prefix("stack ").unwrap_or(said))
}

/// Whether `said`, a line of npm's error report behind its prefix ([`npm_said`]), is
/// the error it reports (`FetchError: request to … failed`, node-gyp's `Error: Could
/// not find any Python installation to use`), or the compiler's that failed its install
/// script (`../src/binding.cc:42:10: fatal error: sqlite3.h: No such file or directory`).
fn npm_reports_its_error(said: &str) -> bool {
    let said = said.trim();
    opens_with_an_error_name(said)
        || [": fatal error: ", ": error: "]
            .iter()
            .any(|kind| said.contains(kind))
}

/// The lines between chained Python tracebacks.
pub fn is_chain_line(line: &str) -> bool {
    line.starts_with("During handling of the above exception")
        || line.starts_with("The above exception was the direct cause")
}

/// A compiler's warning or error: rustc's `error[E0308]: …`, `warning: …`, gcc's and
/// clang's `main.c:7:5: error: …`, tsc's and csc's `a.ts(3,7): error TS2322: …`, and
/// javac's under Maven, `[ERROR] /src/Main.java:[5,13] cannot find symbol`.
pub fn is_diagnostic_header(line: &str) -> bool {
    line.starts_with("error")
        || line.starts_with("warning")
        || [
            ": error: ",
            ": warning: ",
            ": fatal error: ",
            "): error ",
            "): warning ",
        ]
        .iter()
        .any(|kind| line.contains(kind))
        || is_maven_diagnostic(line)
        || is_tsc_pretty_header(line)
}

/// tsc's diagnostic as `--pretty` writes it (its default in a terminal, and with
/// `"pretty": true`): `src/a.ts:3:7 - error TS2322: …` (or `warning`, `message`), at a
/// place with its line and column.
pub fn is_tsc_pretty_header(line: &str) -> bool {
    // The place is the first word (read at serious lines: a search of the line for ` - `
    // cost 1.5% of all the instructions on loghub's sets).
    let Some(space) = memchr::memchr(b' ', line.as_bytes()) else {
        return false;
    };
    let (place, rest) = (&line[..space], &line[space..]);
    let Some(rest) = rest.strip_prefix(" - ") else {
        return false;
    };
    let kind = ["error TS", "warning TS", "message TS"]
        .iter()
        .any(|kind| rest.starts_with(kind));
    let mut parts = place.rsplitn(3, ':');
    let numbers = parts
        .by_ref()
        .take(2)
        .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        .count();
    kind && numbers == 2
        && parts
            .next()
            .is_some_and(|path| !path.is_empty() && !path.contains(' '))
}

/// Maven's line of a compiler's diagnostic: `[ERROR] /src/Main.java:[5,13] cannot find
/// symbol`, `[WARNING] …:[6,5] …` (its details follow, indented).
fn is_maven_diagnostic(line: &str) -> bool {
    let Some(rest) = line
        .strip_prefix("[ERROR] ")
        .or_else(|| line.strip_prefix("[WARNING] "))
    else {
        return false;
    };
    let Some((_, place)) = rest.split_once(":[") else {
        return false;
    };
    let Some((position, _)) = place.split_once("] ") else {
        return false;
    };
    position.split(',').count() == 2
        && position
            .split(',')
            .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// gcc's and clang's context above a diagnostic: `In file included from bar.h:1,` (the
/// files that include it follow, `                 from main.c:1:`), `main.c: In function
/// ‘main’:`, `a.cpp: In instantiation of ‘…’:` (`a.cpp:8:6:   required from here`
/// follows), `a.c: At top level:`. Read at the start of every record: nearly every other
/// line ends in another byte than `:` or `,`.
pub fn is_compiler_context(line: &str) -> bool {
    const SCOPES: [&str; 13] = [
        "In function ",
        // mypy's, under `--show-error-context`: `In member "f" of class "A":`.
        "In member \"",
        "In class \"",
        "In member function ",
        "In static member function ",
        "In constructor ",
        "In copy constructor ",
        "In destructor ",
        "In lambda function",
        "In instantiation of ",
        "In substitution of ",
        "At global scope",
        "At top level",
    ];
    if !line.ends_with([':', ',']) {
        return false;
    }
    if line.starts_with("In file included from ") {
        return true;
    }
    let Some((path, scope)) = line.split_once(": ") else {
        return false;
    };
    // mypy's, as a note: `a.py: note: In function "f":`.
    let scope = scope.strip_prefix("note: ").unwrap_or(scope);
    // A source file's name: `INFO: In function calls:` is not one.
    path.contains('.') && !path.contains(' ') && SCOPES.iter().any(|s| scope.starts_with(s))
}

/// A step of a C++ template's instantiation, between its context and the diagnostic:
/// `a.cpp:8:6:   required from here`.
fn is_instantiation_step(line: &str) -> bool {
    [":   required from ", ":   required by "]
        .iter()
        .any(|step| line.contains(step))
}

/// The end of a message mypy wrapped (`--pretty`, at its terminal's width) onto the line
/// under its diagnostic, at the line's start: its error code after two spaces (`"str")
/// [return-value]`), or the code alone (`[name-defined]`). (mypy's next diagnostic ends
/// so too: the caller tells it apart.)
fn is_wrapped_error_code(line: &str) -> bool {
    let Some((text, code)) = line
        .trim_end()
        .strip_suffix(']')
        .and_then(|head| head.rsplit_once('['))
    else {
        return false;
    };
    (text.is_empty() || (text.ends_with("  ") && !text.starts_with([' ', '\t'])))
        && code.starts_with(|c: char| c.is_ascii_lowercase())
        && code
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// A line under a compiler's warning or error: rustc's ` --> src/main.rs:4:18`,
/// `  ::: …`, `  = note: …`, and the source it annotates in a gutter (rustc's and gcc's
/// `4 |     let x: u32 = "a";`, `  |            ^^^ expected`, rustc's suggestions `4 -
/// old`, `4 + new`).
pub fn is_diagnostic_detail(line: &str) -> bool {
    let trimmed = line.trim_start_matches(' ');
    if ["--> ", "::: ", "= note:", "= help:"]
        .iter()
        .any(|start| trimmed.starts_with(start))
    {
        return trimmed.len() < line.len();
    }
    // rustc's mark of source lines left out between two it shows.
    if line == "..." {
        return true;
    }
    // A gutter: spaces, or a line number and spaces (rustc pads a number to the widest
    // one's width: `9   |`, `188 |`), before the bar; not a table's first column (`| a
    // |`), nor pm2's `0|api | …`.
    let number = trimmed.trim_start_matches(|c: char| c.is_ascii_digit());
    if number.len() < trimmed.len() {
        // rustc marks a suggestion's lines as removed, added or changed: `3 - old`
        // (ruff pads the number: `52  + import contextlib`).
        let gap = number.trim_start_matches(' ');
        gap.len() < number.len()
            && (gap.starts_with('|') || ["- ", "+ ", "~ "].iter().any(|m| gap.starts_with(m)))
    } else {
        trimmed.len() < line.len() && trimmed.starts_with('|')
    }
}

/// What a compiler adds to its warning or error: rustc's `help: …` and `note: …` (a
/// suggestion follows in a gutter), gcc's and clang's `main.c:7:5: note: …`.
fn is_diagnostic_note(line: &str) -> bool {
    line.starts_with("help: ") || line.starts_with("note: ") || line.contains(": note: ")
}

/// `fail: Microsoft.AspNetCore.Server.Kestrel[13]`: the header of a record of .NET's
/// console logger, a level, a category and an event id.
pub fn is_dotnet_header(line: &str) -> bool {
    const LEVELS: [&str; 6] = ["trce: ", "dbug: ", "info: ", "warn: ", "fail: ", "crit: "];
    // Read at the start of every record: one byte rules out nearly every line.
    if line.as_bytes().get(4) != Some(&b':') {
        return false;
    }
    let Some(header) = LEVELS.iter().find_map(|level| line.strip_prefix(level)) else {
        return false;
    };
    let Some((category, id)) = header
        .strip_suffix(']')
        .and_then(|header| header.rsplit_once('['))
    else {
        return false;
    };
    !category.is_empty()
        && !category.contains(' ')
        && !id.is_empty()
        && id.bytes().all(|b| b.is_ascii_digit())
}

/// Jest's header of a failed test, `  ● Suite › adds`, or of a suite that failed to run;
/// not `  ● Console`, which heads what a test logged. Read by bytes: at every line (its
/// severity), and at the start of every record.
pub fn is_jest_failure(line: &[u8]) -> bool {
    let indent = line.iter().take_while(|&&b| b == b' ').count();
    line[indent..]
        .strip_prefix("● ".as_bytes())
        .is_some_and(|rest| !rest.starts_with(b"Console"))
}

/// `node --test`'s spec reporter's line of a failed test, however indented: `✖`, its
/// name and how long it took (`✖ rounds totals (1.638572ms)`; not the heading of their
/// list, `✖ failing tests:`, nor ESLint's `✖ 3 problems (…)`).
pub fn is_node_test_failure(line: &[u8]) -> bool {
    // The mark's UTF-8 begins with 0xE2: one byte rules out nearly every line.
    if !matches!(line.first(), Some(b' ' | 0xE2)) {
        return false;
    }
    let Some(rest) = line.trim_ascii_start().strip_prefix("✖ ".as_bytes()) else {
        return false;
    };
    let Some(took) = rest.strip_suffix(b"ms)") else {
        return false;
    };
    let open = took.iter().rposition(|&b| b == b'(');
    open.is_some_and(|open| {
        let number = &took[open + 1..];
        open > 0
            && took[open - 1] == b' '
            && !number.is_empty()
            && number.iter().all(|b| b.is_ascii_digit() || *b == b'.')
    })
}

/// Whether `line` opens a part of Jest's output, however indented: a test's header (`●
/// adds › works`), a suite's result (`PASS src/a.test.ts`, `FAIL …`).
fn opens_a_jest_part(line: &str) -> bool {
    let trimmed = line.trim_start_matches(' ');
    ["● ", "PASS ", "FAIL "]
        .iter()
        .any(|start| trimmed.starts_with(start))
}

/// Jest's header of what a test logged (indented, read here without it):
/// `console.error`, `console.warn`, `console.log`, `console.info`, `console.debug`
/// alone. Read at the start of every record: the first bytes rule out nearly every line.
fn is_jest_console(line: &str) -> bool {
    line.strip_prefix("console.").is_some_and(|method| {
        matches!(
            method.trim_end(),
            "error" | "warn" | "log" | "info" | "debug"
        )
    })
}

/// How InnoDB's dump of a deadlock begins, and the line that ends it.
const INNODB_DEADLOCK: &str = "InnoDB: Transactions deadlock detected";
const INNODB_ROLL_BACK: &str = "*** WE ROLL BACK TRANSACTION";

/// Vitest's header of a failed test in its list of failures, ` FAIL  test/a.test.ts >
/// suite > adds` (its file, suites and test apart by ` > `). Read at the start of every
/// record: the first bytes rule out nearly every line.
fn is_vitest_failure(line: &str) -> bool {
    line.strip_prefix(" FAIL  ")
        .is_some_and(|test| test.contains(" > "))
}

/// Mocha's header of a failed test in its list of failures, `  1) Suite`: two spaces, a
/// number and `) `. Read at the start of every record: the first bytes rule out nearly
/// every line.
fn is_mocha_failure(line: &str) -> bool {
    line.strip_prefix("  ").and_then(numbered_title).is_some()
}

/// ExUnit's header of a failed test in its list (read as Mocha's, [`is_mocha_failure`]):
/// `1) test checkout applies discount (Shop.CartTest)`, a doctest's or a property's
/// (`2) doctest Shop.add/2 (1) (Shop.MathTest)`), its module in parentheses last.
fn is_exunit_failure(line: &str) -> bool {
    let Some((_, title)) = numbered_title(line) else {
        return false;
    };
    let kind = ["test ", "doctest ", "property "]
        .iter()
        .any(|kind| title.starts_with(kind));
    let module = title
        .trim_end()
        .strip_suffix(')')
        .and_then(|head| head.rsplit_once(" ("))
        .map(|(_, module)| module);
    kind && module.is_some_and(|module| {
        module.starts_with(|c: char| c.is_ascii_uppercase()) && !module.contains(' ')
    })
}

/// The header a test runner's or a debugger's report opens with that its first byte tells
/// (or its severity, an error): jstack's deadlock, `dotnet test`'s failed test, gdb's
/// signal and threads, CTest's list of failures, GoogleTest's and Gradle's failures.
/// Read at the start of every record: one look at the first byte rules out nearly all.
fn test_or_debugger_header(line: &str, severity: Option<Severity>) -> Option<Header> {
    let header = match line.as_bytes().first()? {
        b'F' if line.trim_end() == DEADLOCK_REPORT => Header::JstackDeadlock { ended: false },
        b'F' if dotnet_test_result(line) == Some("Failed") => Header::DotNetTestFailure,
        b'P' | b'T' if is_gdb_signal(line) => Header::GdbSignal,
        b'T' if line.starts_with("Thread ") && line.contains(" (LWP ") && line.ends_with("):") => {
            Header::GdbThread
        }
        b'T' if line.trim_end() == CTEST_FAILED_LIST => Header::CtestFailedList,
        _ if severity < Some(Severity::Error) => return None,
        _ if is_gtest_failure(line) => Header::GtestFailure,
        _ if is_gradle_test_failure(line) => Header::GradleTestFailure,
        _ => return None,
    };
    Some(header)
}

/// gdb's report of a signal that stopped the program: `Program received signal SIGSEGV,
/// Segmentation fault.`, or a thread's, `Thread 18 "app" received signal SIGABRT,
/// Aborted.`
fn is_gdb_signal(line: &str) -> bool {
    line.starts_with("Program received signal SIG")
        || (line.starts_with("Thread ") && line.contains(" received signal SIG"))
}

/// gdb's prompt with the command that prints the backtrace under it, as an interactive
/// session's transcript has it: `(gdb) bt`, `(gdb) backtrace full`, `(gdb) where 5`.
fn asks_gdb_for_a_backtrace(line: &str) -> bool {
    line.strip_prefix("(gdb) ")
        .and_then(|command| command.split_whitespace().next())
        .is_some_and(|command| matches!(command, "bt" | "backtrace" | "where"))
}

/// Of a backtrace's numbered frames, as gdb prints them, the first in the program's own
/// code: at a place not in the C library's or the system's sources (`#1  0x… in
/// handle_request (r=0x…) at src/app.c:9`, not `#0  __strlen_evex () at
/// ../sysdeps/x86_64/multiarch/strlen-evex.S:79`).
fn first_own_frame<'a>(mut lines: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    lines.find(|line| {
        is_numbered_frame(line)
            && line.rsplit_once(" at ").is_some_and(|(_, place)| {
                !place.starts_with(['.', '<'])
                    && !place.starts_with("/usr/")
                    && !place.starts_with("/lib")
            })
    })
}

/// Gradle's line of a failed test: its class, ` > `, the test, and ` FAILED`
/// (`com.acme.CartServiceTest > checkoutAppliesDiscount() FAILED`; a display name may
/// have spaces); not its task's `> Task :app:test FAILED`.
fn is_gradle_test_failure(line: &str) -> bool {
    line.trim_end()
        .strip_suffix(" FAILED")
        .and_then(|test| test.split_once(" > "))
        .is_some_and(|(class, test)| !class.is_empty() && !class.contains(' ') && !test.is_empty())
}

/// CTest's heading of the tests that did not pass ([`Header::CtestFailedList`]).
pub(crate) const CTEST_FAILED_LIST: &str = "The following tests FAILED:";

/// Minitest's line of the test under its report's number: its class, `#`, the test and a
/// colon, where it failed in brackets before it (`InvoiceTest#test_total
/// [test/invoice_test.rb:42]:`, `CartTest#test_checkout:`).
fn is_minitest_test(line: &str) -> bool {
    line.trim_end().ends_with(':')
        && line
            .split_once('#')
            .is_some_and(|(class, _)| !class.is_empty() && !class.contains(' '))
}

/// The header of a report numbered in a list, unindented: PHPUnit's or Minitest's.
/// Read at the start of every record: one [`numbered_title`] for both.
fn numbered_report(line: &str) -> Option<Header> {
    let (_, title) = numbered_title(line)?;
    if minitest_outcome(title).is_some() {
        return Some(Header::MinitestReport);
    }
    let test = title.split(' ').next()?;
    test.contains("::").then_some(Header::PhpUnitReport)
}

/// What Minitest's report of a test says befell it, read without its indentation: `1)
/// Failure:` (an assertion failed) is `Failure`, `2) Error:` (the test raised) is `Error`.
fn minitest_report(line: &str) -> Option<&'static str> {
    numbered_title(line).and_then(|(_, title)| minitest_outcome(title))
}

/// What a numbered report's `title` says befell a test, as Minitest titles it: `Failure:`
/// or `Error:` alone.
fn minitest_outcome(title: &str) -> Option<&'static str> {
    match title.trim_end() {
        "Failure:" => Some("Failure"),
        "Error:" => Some("Error"),
        _ => None,
    }
}

/// PHPUnit's report of a failed or erroring test in its list: a number, `) ` and the
/// test's class and method, unindented (`1) Tests\\CartTest::testTotal`, a data set's
/// `with data set #2 (…)` after it).
pub fn is_phpunit_report(line: &str) -> bool {
    numbered_report(line) == Some(Header::PhpUnitReport)
}

/// A line that ends a PHPUnit report: the next report, the rule between its lists
/// (`--`), a list's heading (`There was 1 failure:`), the verdict (`FAILURES!`) or the
/// counts (`Tests: 3, Assertions: 3, Failures: 1.`).
fn ends_phpunit_report(line: &str) -> bool {
    is_phpunit_report(line)
        || line == "--"
        || line.starts_with("There was ")
        || line.starts_with("There were ")
        || matches!(line.trim_end(), "FAILURES!" | "ERRORS!" | "WARNINGS!")
        || line.starts_with("Tests: ")
        || line.starts_with("OK (")
}

/// The outcome of `dotnet test`'s result of a test, read without its indentation: its
/// word (`Failed`, `Passed`, `Skipped`), then the test's name and how long it took in
/// brackets (`[12 ms]`, `[< 1 ms]`, `[1 s]`, `[1 m 2 s]`).
fn dotnet_test_result(line: &str) -> Option<&str> {
    let (outcome, rest) = line.split_once(' ')?;
    if !matches!(outcome, "Failed" | "Passed" | "Skipped") {
        return None;
    }
    let (name, took) = rest.trim_end().strip_suffix(']')?.rsplit_once(" [")?;
    let unit = [" ms", " s", " m", " h"]
        .iter()
        .any(|unit| took.ends_with(unit));
    let number = took.starts_with(|c: char| c.is_ascii_digit() || c == '<');
    (!name.is_empty() && !name.contains(' ') && unit && number).then_some(outcome)
}

/// A report numbered in a list, as Mocha, rspec and PHPUnit list failures (Mocha's read
/// without its indentation): its number and its title (`2) Suite` is `("2", "Suite")`).
/// Read at the start of every record: the first bytes rule out nearly every line (a
/// time's digits end in another byte than `)`).
pub fn numbered_title(line: &str) -> Option<(&str, &str)> {
    let digits = line.bytes().take(6).take_while(u8::is_ascii_digit).count();
    if digits == 0 || line.as_bytes().get(digits) != Some(&b')') {
        return None;
    }
    let title = line[digits..].strip_prefix(") ")?;
    Some((&line[..digits], title))
}

/// A line of Node's assertion message that Mocha prints as it is, unindented: the
/// values compared (`1 !== 0`) and the lines of a deep-equal diff (`+ actual - expected`,
/// `+ [`, `-   2`).
fn is_node_assert_detail(line: &str) -> bool {
    line.contains(" !== ")
        || line.contains(" === ")
        || line.starts_with("+ ")
        || line.starts_with("- ")
}

/// java.util.logging's first line (its `SimpleFormatter`'s default): the time, then the
/// class and the method that logged, `Jan 05, 2024 10:00:06 AM org.example.App main`
/// (`… AM Main main` in no package); or those two words alone, the class's qualified,
/// where a reader took the time away. Its level and message
/// follow on the next line ([`is_java_util_logging_message`]).
pub fn is_java_util_logging_header(line: &str) -> bool {
    let b = line.as_bytes();
    // A constructor's method is `<init>`.
    let name = |c: &&u8| JAVA_NAME[usize::from(**c)] || matches!(c, b'<' | b'>');
    // Its last two words, each after a space or the line's start: read at the start of
    // every record, so the last few bytes rule out nearly every line.
    let method = b.len() - b.iter().rev().take_while(name).count();
    if method < 2 || method == b.len() || b[method - 1] != b' ' {
        return false;
    }
    let class = method - 1 - b[..method - 1].iter().rev().take_while(name).count();
    if class == method - 1 || (class > 0 && b[class - 1] != b' ') {
        return false;
    }
    let time = line[..class].trim_end();
    // Alone, the class's name is a qualified one; after the time, it may be in no package.
    match class {
        0 => b[..method - 1].contains(&b'.'),
        _ => time.ends_with(" AM") || time.ends_with(" PM"),
    }
}

/// `SEVERE: Connection refused`: java.util.logging's level and message, on the line
/// after its time and source.
pub fn is_java_util_logging_message(line: &str) -> bool {
    const LEVELS: [&str; 7] = [
        "SEVERE", "WARNING", "INFO", "CONFIG", "FINE", "FINER", "FINEST",
    ];
    line.split_once(": ")
        .is_some_and(|(level, _)| LEVELS.contains(&level))
}

/// The bytes of a qualified Java name: ASCII letters and digits, `.`, `$` and `_`.
const JAVA_NAME: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || matches!(c, b'.' | b'$' | b'_');
        b += 1;
    }
    table
};

/// `java.io.IOException: disk full`: a qualified class name ending in `Exception`,
/// `Error` or `Throwable`, alone or before `: ` and a message; or a nested class's in no
/// package (`Svc$ServiceException: …`).
pub fn names_a_java_exception(line: &str) -> bool {
    // Read on every line that may continue a record: the name's bytes only, no search
    // for the `: ` after it.
    let b = line.as_bytes();
    let (mut end, mut qualified) = (0, false);
    while end < b.len() && JAVA_NAME[usize::from(b[end])] {
        qualified |= matches!(b[end], b'.' | b'$');
        end += 1;
    }
    let name = &line[..end];
    qualified
        && (end == line.len() || line[end..].starts_with(": "))
        && ["Exception", "Error", "Throwable"]
            .iter()
            .any(|end| name.ends_with(end))
}

/// Whether the line after a panic's header, where the message is expected, is one (not
/// a note or the backtrace, as when the message is empty).
fn is_panic_message(line: &str) -> bool {
    !line.starts_with("note: ") && !line.starts_with("stack backtrace:") && !line.is_empty()
}

/// Python's lines between the exceptions of a chain, before the one raised from the
/// other or while handling it.
pub const PYTHON_CHAIN: [&str; 2] = [
    "The above exception was the direct cause of the following exception:",
    "During handling of the above exception, another exception occurred:",
];

/// Whether `line`, in a stack, gives the cause of the exception above it: Java's
/// `Caused by: …`, .NET's inner exception (` ---> System.IO.IOException: …`). A long
/// stack's last cause is often its root, kept when its lines are not.
///
/// ```
/// use briefly_severity::multiline::is_cause;
///
/// assert!(is_cause("Caused by: java.io.IOException: disk full"));
/// assert!(is_cause("\tCaused by: java.lang.IllegalStateException: closed"));
/// assert!(is_cause(" ---> System.IO.IOException: disk full"));
/// assert!(!is_cause("\tat app.Main.main(Main.java:5)"));
/// ```
pub fn is_cause(line: &str) -> bool {
    let line = line.trim_start();
    line.starts_with("Caused by: ") || line.starts_with("---> ")
}

/// The line after a record's `first` that says what went wrong, of the record's `rest`,
/// for a summary: under where Node says it threw (`/app/a.js:3`), the exception after
/// the source and its caret; under CMake's `CMake Error at …:`, its message's first
/// line; under ShellCheck's `In x.sh line 3:`, its first finding; under a file's name
/// heading a linter's table (ESLint's), its first error; in a chain of causes, the last
/// (the root); in a Python chain, the exception raised last; else the first line that
/// names it (a traceback's
/// exception, a panic's message, a Java exception, where a compiler's or Terraform's
/// error is), not a frame, a note, annotated source or a chain line.
pub fn what_went_wrong<'a>(
    first: &str,
    mut rest: impl Iterator<Item = &'a str>,
) -> Option<&'a str> {
    if is_node_throw_site(first) {
        // Past the source and its caret (which a record cut to a budget may leave out).
        let mut rest = rest.skip(1).peekable();
        rest.next_if(|l| {
            let caret = l.trim();
            !caret.is_empty() && caret.chars().all(|c| c == '^' || c == '~')
        });
        return rest.find(|l| !l.trim().is_empty());
    }
    // Jest's failed test says it first under its header: the error, or the matcher that
    // failed (`expect(received).toEqual(expected) // deep equality`).
    // tsc's `--pretty` diagnostic says it all in its first line; its source follows.
    if is_tsc_pretty_header(first) {
        return None;
    }
    if is_cmake_message(first) || is_jest_failure(first.as_bytes()) {
        return rest.find(|l| !l.trim().is_empty());
    }
    // Minitest's failed assertion is named by its test and where
    // (`InvoiceTest#test_total [test/invoice_test.rb:42]:`), the line under it; a test
    // that raised, by its exception, under that.
    match minitest_report(first.trim_start()) {
        Some("Failure") => return rest.next(),
        Some(_) => return rest.nth(1),
        None => {}
    }
    // ExUnit's says it under its test's place (`test/cart_test.exs:42`): `Assertion with
    // == failed`, `** (Ecto.NoResultsError) …`.
    if is_exunit_failure(first.trim_start()) {
        return rest.skip(1).find(|l| !l.trim().is_empty());
    }
    // valgrind's report, by its first frame in the program's own code (`by 0x10919F:
    // dup_name (vg.c:4)`, under `at 0x48478F6: strcpy (in …vgpreload_memcheck….so)`),
    // else by its first.
    if valgrind_report(first).is_some() {
        let mut first_frame = None;
        for line in rest {
            match valgrind_frame(line) {
                Some(true) => return Some(line),
                Some(false) => first_frame = first_frame.or(Some(line)),
                None => {}
            }
        }
        return first_frame;
    }
    // gdb's signal, by where in the program's code it came.
    if is_gdb_signal(first) {
        return first_own_frame(rest);
    }
    // .NET's console logger's record, by the exception logged with its message, else by
    // the message, under its category.
    if is_dotnet_header(first) {
        let mut rest = rest.filter(|l| !l.trim().is_empty());
        let message = rest.next()?;
        let exception = rest
            .next()
            .filter(|l| names_a_java_exception(l.trim_start()));
        return Some(exception.unwrap_or(message));
    }
    // Gradle's failed test, by its exception, the first line under it.
    if is_gradle_test_failure(first) {
        return rest.find(|l| !l.trim().is_empty());
    }
    // `dotnet test`'s failed test says it under its `Error Message:`.
    if dotnet_test_result(first.trim_start()) == Some("Failed") {
        let mut rest = rest.skip_while(|l| l.trim() != "Error Message:").skip(1);
        return rest.find(|l| !l.trim().is_empty());
    }
    // A TAP result's YAML block says it by its `error` key: its value (`error: 'boom'`),
    // or a block's first line (`error: |-`, then `Expected values to be strictly equal:`).
    if is_tap_result(first) {
        let mut rest = rest.skip_while(|l| !l.trim_start().starts_with("error: "));
        let error = rest.next()?;
        let value = error.trim_start()["error: ".len()..].trim();
        return match value.starts_with(['|', '>']) {
            true => rest.find(|l| !l.trim().is_empty()),
            false => Some(error),
        };
    }
    // InnoDB's dump says it in its first line; its parts' stamped headings say nothing.
    if first.contains(INNODB_DEADLOCK) {
        return None;
    }
    // faulthandler's first line says it all; its threads' headings say nothing.
    if first.starts_with(FATAL_PYTHON) {
        return None;
    }
    if first.starts_with(CPP_TERMINATE) {
        return rest.find(|l| l.starts_with(CPP_WHAT));
    }
    if first.trim_start().starts_with(EXCEPTION_GROUP) {
        // The group's own exception (`ExceptionGroup: unhandled errors in a TaskGroup
        // (2 sub-exceptions)`), the first a bar holds.
        return rest.find_map(|l| behind_group_bar(l).filter(|said| names_what_went_wrong(said)));
    }
    if npm_error_prefix(first).is_some() {
        return rest.find(|l| npm_said(l).is_some_and(npm_reports_its_error));
    }
    if is_shellcheck_place(first) {
        // Its worst finding, the first of those.
        return rest
            .filter_map(|l| shellcheck_finding_level(l).map(|level| (level, l)))
            .fold(None, |worst: Option<(u8, &str)>, (level, l)| match worst {
                Some((worse, _)) if worse >= level => worst,
                _ => Some((level, l)),
            })
            .map(|(_, l)| l);
    }
    // Mocha's failure (`3) mod8`, read without its indentation): the error under the
    // test's title, indented (`AssertionError [ERR_ASSERTION]: Expected values to be
    // strictly deep-equal:`), not its diff's legend; else what any record's says.
    // So is `node --test`'s (`✖ adds (1.2ms)`).
    let numbered =
        numbered_title(first.trim_start()).is_some() || is_node_test_failure(first.as_bytes());
    if is_file_heading(first) {
        // Its first error, else its first finding.
        let mut finding = None;
        for line in rest.filter(|l| is_lint_finding(l)) {
            if line.contains("  error  ") {
                return Some(line);
            }
            finding = finding.or(Some(line));
        }
        return finding;
    }
    // A chain of causes names its root, the last: `Caused by: …FileNotFoundException`,
    // not the wrapper that logged it. Python prints its chain the other way round, the
    // exception the program ended with last: that one, known by the lines between the
    // tracebacks or, when a record cut to a page left those out, by a traceback's
    // heading or frame after an exception (a traceback names its exception after its
    // frames; the lines after a single one's are its message's).
    // A Rails request's error, its first line its tag alone (`[a1b2c3]   `), says it
    // behind the tag, on a line of its own: `[a1b2c3] NoMethodError (…):`.
    let tag = (first
        .strip_prefix('[')
        .and_then(|rest| rest.split_once(']')))
    .filter(|(tag, after)| !tag.is_empty() && after.trim().is_empty());
    if let Some((tag, _)) = tag {
        return rest.find_map(|line| {
            let said = line
                .strip_prefix('[')?
                .strip_prefix(tag)?
                .strip_prefix(']')?;
            Some(said.trim_start()).filter(|said| !said.is_empty())
        });
    }
    // Android's crash says it under the process.
    let mut rest = rest.peekable();
    if first.starts_with(ANDROID_CRASH) {
        rest.next_if(|l| l.starts_with("Process: "));
    }
    let mut python_chain = false;
    let mut first = None;
    let mut last = None;
    let mut root = None;
    // cargo's `Caused by:` heads its cause, indented on the next line.
    let mut cause_next = false;
    for line in rest {
        // (rspec's, numbered as Mocha's, says it after `Failure/Error: `.)
        let said = line.trim_start();
        if numbered && (opens_with_an_error_name(said) || said.starts_with("Failure/Error: ")) {
            return Some(line);
        }
        let after_exception = first.is_some()
            && (line.starts_with(TRACEBACK) || line.trim_start().starts_with("File \""));
        if std::mem::take(&mut cause_next) && !line.trim().is_empty() {
            root = Some(line.trim_start());
        } else if heads_causes(line) {
            cause_next = true;
        } else if is_cause(line) {
            root = Some(line);
        } else if PYTHON_CHAIN.contains(&line.trim()) || after_exception {
            python_chain = true;
        } else if names_what_went_wrong(line) {
            first = first.or(Some(line));
            last = Some(line);
        }
    }
    root.or(if python_chain { last } else { first })
}

/// Whether a line after a record's first says what went wrong, for a summary: a
/// traceback's exception, a panic's message, a Java exception, where a compiler's or
/// Terraform's error is; not a frame, a note, a backtrace's heading, annotated source, a
/// chain line, the line that opens a traceback (Python's, Lua's) or one of Go's goroutine dump (Go's first
/// line holds the message itself).
fn names_what_went_wrong(line: &str) -> bool {
    if line.trim_start().starts_with("--> ") {
        // Where a compiler's error is.
        return true;
    }
    if is_go_test_log(line.trim_start()) {
        // What a failed Go test logged, with its place: `store_test.go:12: got 4`.
        return true;
    }
    if let Some(boxed) = line.strip_prefix('│') {
        // Where Terraform's error is, in its box: `│   on main.tf line 3, in …`.
        let boxed = boxed.trim_start();
        return boxed.starts_with("on ") && boxed.contains(" line ");
    }
    if line.starts_with("  on ") {
        // And without it.
        return is_terraform_place(line);
    }
    !line.starts_with([' ', '\t'])
        && !is_diagnostic_detail(line)
        && is_panic_message(line)
        && !is_chain_line(line)
        && !line.starts_with(TRACEBACK)
        && line.trim_end() != LUA_TRACEBACK
        && !in_go_trace(line)
        && !is_compiler_context(line)
        && !is_instantiation_step(line)
        && !is_rule(line)
}

/// A line drawn across to set parts apart (unittest's `-----` under a report's header,
/// `=====`), which says nothing.
fn is_rule(line: &str) -> bool {
    let line = line.trim_end();
    line.chars().count() >= 3
        && line
            .chars()
            .all(|c| matches!(c, '-' | '=' | '_' | '─' | '━' | '*' | '~'))
}

/// Where Terraform's error is, under its title without the box: `  on main.tf line 3, in
/// resource "aws_instance" "x":`, or the resource before it, `  with aws_instance.x,`.
fn is_terraform_place(line: &str) -> bool {
    (line.starts_with("  on ") && line.contains(" line ") && line.ends_with(':'))
        || (line.starts_with("  with ") && line.ends_with(','))
}

/// A field of PostgreSQL's error that the JDBC driver prints indented under its
/// `PSQLException` (`  Detail: Key (id)=(991) already exists.`), before the stack.
fn is_pgjdbc_field(indented: &str) -> bool {
    const FIELDS: [&str; 6] = [
        "Detail: ",
        "Hint: ",
        "Where: ",
        "Position: ",
        "Internal Query: ",
        "Server SQLState: ",
    ];
    let field = indented.trim_start();
    FIELDS.iter().any(|name| field.starts_with(name))
}

/// unittest's header of a test's failure or error, as `python -m unittest` and Django's
/// runner print it: `FAIL: test_add (test_calc.TestCalc.test_add)` (the test's name,
/// then its class's dotted path, with the name again since Python 3.11), `ERROR:
/// setUpClass (t.T)`, a subtest's `FAIL: test_x (t.T.test_x) (i=2)`.
fn is_unittest_report(line: &str) -> bool {
    let Some(rest) = line
        .strip_prefix("FAIL: ")
        .or_else(|| line.strip_prefix("ERROR: "))
    else {
        return false;
    };
    let Some((name, rest)) = rest.split_once(" (") else {
        return false;
    };
    let Some((path, _)) = rest.split_once(')') else {
        return false;
    };
    let dotted = |text: &str| {
        !text.is_empty()
            && text
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
    };
    dotted(name) && dotted(path) && path.contains('.')
}

/// Whether `line` is a rule of `byte` (unittest's 70 `=` or `-`), 20 long at least.
fn is_rule_of(line: &str, byte: u8) -> bool {
    let line = line.trim_end();
    line.len() >= 20 && line.bytes().all(|b| b == byte)
}

/// A frame of Go's goroutine dump in a test's own file (`\t/app/store_test.go:13
/// +0xdf`): where a test that timed out or panicked was, among the testing package's
/// and the runtime's frames.
///
/// ```
/// use briefly_severity::multiline::is_go_test_frame;
///
/// assert!(is_go_test_frame("\t/app/store_test.go:13 +0xdf"));
/// assert!(!is_go_test_frame("\t/usr/lib/go/src/testing/testing.go:1446 +0x10b"));
/// assert!(!is_go_test_frame("store_test.go:12: got 4"));
/// ```
pub fn is_go_test_frame(line: &str) -> bool {
    is_go_stack_place(line)
        && line
            .split_once(".go:")
            .is_some_and(|(file, _)| file.ends_with("_test"))
}

/// A line a Go test logged (`t.Errorf`, `t.Fatal`), after its file and line:
/// `store_test.go:12: expected 3, got 4`.
pub(crate) fn is_go_test_log(line: &str) -> bool {
    let Some((file, rest)) = line.split_once("_test.go:") else {
        return false;
    };
    let rest = rest.as_bytes();
    !file.is_empty()
        && !file.contains(' ')
        && crate::number_and_colon(rest).is_some_and(|line| rest[line..].starts_with(b" "))
}

/// Whether `line` may belong to the dump of goroutine stacks under Go's `panic: …`:
/// blank, indented (a frame's file and line, a nested `panic:`, a test's name),
/// `goroutine 1 [running]:`, `[signal SIGSEGV: …]`, `runtime stack:`, `created by …`,
/// `running tests:` (`go test`'s timeout), `...additional frames elided...`, or a
/// frame's function (`main.main()`, `net/http.(*conn).serve(0xc000…)`,
/// `panic({0x5d4e60?, 0xc0000181e0?})`: a dotted name, or `panic`, and its arguments,
/// nothing else).
///
/// ```
/// use briefly_severity::in_go_trace;
///
/// assert!(in_go_trace("goroutine 1 [running]:"));
/// assert!(in_go_trace("main.handler(0xc000012345, 0x3)"));
/// assert!(in_go_trace("\t/app/main.go:42 +0x1d"));
/// assert!(!in_go_trace("exit status 2"));
/// assert!(!in_go_trace("server stopped (code 2)"));
/// ```
pub fn in_go_trace(line: &str) -> bool {
    const STARTS: [&str; 6] = [
        "goroutine ",
        "[signal ",
        "runtime stack:",
        "created by ",
        "running tests:",
        "...additional frames elided...",
    ];
    if line.is_empty()
        || line.starts_with([' ', '\t'])
        || STARTS.iter().any(|s| line.starts_with(s))
    {
        return true;
    }
    // A function: no space before its arguments' parenthesis, a dot in its name (but
    // the runtime's `panic`).
    line.find('(').is_some_and(|open| {
        let name = &line[..open];
        (name.contains('.') || name == "panic") && !name.contains(' ') && line.ends_with(')')
    })
}

/// A line of zap's development logger (its console encoder's fields, apart by tabs) at a
/// level that has it print a stack, with its time or without (the message a reader
/// found after it): `2024-03-01T10:00:00.100Z\tERROR\tapp/main.go:20\t…`,
/// `ERROR\tapp/main.go:20\t…`.
fn is_zap_console_line(line: &str) -> bool {
    let mut fields = line.split('\t');
    let time = fields.next();
    let level = fields.next();
    [time, level]
        .into_iter()
        .flatten()
        .any(|field| matches!(field, "WARN" | "ERROR" | "DPANIC" | "PANIC" | "FATAL"))
        && level.is_some()
}

/// Whether `line` is a goroutine dump's function (`store.(*Cache).Get(0x0, {0xc0001a2f30,
/// 0x9})`) of the program's code or its modules': its package's path opens with a
/// domain (`github.com/acme/app/store`) or is `main`. The standard library's paths
/// (`net/http`, `internal/runtime/maps`, `testing`) have no dot in their first element,
/// and the runtime's `panic(…)` none at all.
fn is_own_go_frame(line: &str) -> bool {
    let Some(open) = line.find('(') else {
        return false;
    };
    let name = &line[..open];
    if !in_go_trace(line) || name.contains(' ') || line.starts_with([' ', '\t']) {
        return false;
    }
    // The package's path ends at the first dot after its last slash.
    let base = name.rfind('/').map_or(0, |slash| slash + 1);
    let Some(dot) = name[base..].find('.') else {
        return false;
    };
    let path = &name[..base + dot];
    let first = path.split('/').next().unwrap_or(path);
    path == "main" || first.contains('.')
}

/// A Go stack's function as zap and `pkg/errors` print it, without arguments:
/// `main.handle`, `main.(*Server).serve.func1`, `net/http.HandlerFunc.ServeHTTP`: a dotted
/// name of no blanks, not an exception's (`java.io.IOException`, which opens a record).
fn is_go_stack_function(line: &str) -> bool {
    let bytes = line.as_bytes();
    bytes.first().is_some_and(u8::is_ascii_alphabetic)
        && bytes.contains(&b'.')
        && bytes.iter().all(|&b| {
            b.is_ascii_alphanumeric()
                || matches!(
                    b,
                    b'_' | b'.' | b'/' | b'(' | b')' | b'*' | b'-' | b'[' | b']'
                )
        })
        && !line.ends_with('.')
        && !line.ends_with("Exception")
        && !line.ends_with("Error")
}

/// A Go stack's file and line under its function, indented by a tab:
/// `\t/home/u/app/main.go:20`, and as a goroutine dump writes it, `\t/app/main.go:42 +0x1d`.
fn is_go_stack_place(line: &str) -> bool {
    line.strip_prefix('\t')
        .and_then(|place| place.split_once(".go:"))
        .is_some_and(|(file, rest)| {
            !file.is_empty()
                && !file.contains(' ')
                && rest.starts_with(|c: char| c.is_ascii_digit())
        })
}

/// The header a record's first line, `line`, opens, of `severity`, opening `opens`.
fn header_of(line: &str, severity: Option<Severity>, opens: Option<Opens>) -> Header {
    if opens == Some(Opens::Panic) && line.trim_end().ends_with(':') {
        // Since Rust 1.73 the header ends with `:` (`panicked at src/main.rs:2:5:`)
        // and the message follows; before, it held the message (`panicked at 'boom',
        // src/main.rs:2:5`).
        Header::PanicMessageNext
    } else if is_dotnet_header(line) {
        Header::DotNet
    } else if is_java_util_logging_header(line) {
        Header::JavaUtilLogging
    } else if line.starts_with("--- FAIL: ") {
        Header::GoTestFailure
    } else if is_jest_failure(line.as_bytes()) {
        Header::JestFailure
    } else if is_jest_console(line) {
        Header::JestConsole
    } else if severity >= Some(Severity::Error) && line.contains(INNODB_DEADLOCK) {
        Header::InnoDbDeadlock { ended: false }
    } else if let Some(header) = test_or_debugger_header(line, severity) {
        header
    } else if is_vitest_failure(line) {
        Header::VitestFailure
    } else if is_mocha_failure(line) {
        Header::MochaFailure
    } else if is_node_test_failure(line.as_bytes()) {
        Header::NodeTestFailure
    } else if let Some(header) = numbered_report(line) {
        // (Read without its indentation first: Minitest's `  1) Failure:` is no Mocha's.)
        header
    } else if line.starts_with('│')
        && (line.starts_with("│ Error: ") || line.starts_with("│ Warning: "))
    {
        Header::TerraformBox
    } else if severity >= Some(Severity::Warn)
        && (line.starts_with("Error: ") || line.starts_with("Warning: "))
    {
        Header::TerraformTitle
    } else if line.starts_with('*') && line.trim_end() == GRADLE_FAILURE {
        Header::GradleFailure
    } else if severity >= Some(Severity::Warn)
        && (line.starts_with("ERROR in ") || line.starts_with("WARNING in "))
    {
        Header::WebpackProblem
    } else if is_compiler_context(line) {
        Header::CompilerContext
    } else if let Some(pid) = valgrind_report(line).or_else(|| {
        // (A glued report is an error: only such lines are searched for one.)
        (severity >= Some(Severity::Error))
            .then(|| glued_valgrind_error(line.as_bytes()))
            .flatten()
            .map(|(_, pid)| pid)
    }) {
        Header::Valgrind(pid)
    } else if is_sanitizer_header(line.as_bytes()) {
        Header::SanitizerReport
    } else if severity >= Some(Severity::Error) && npm_error_prefix(line).is_some() {
        Header::NpmError
    } else if opens == Some(Opens::Traceback) && line.starts_with(EXCEPTION_GROUP) {
        Header::ExceptionGroup
    } else if is_linker_context(line) {
        Header::LinkerContext
    } else if line.starts_with('S') && line.starts_with("Shadow bytes around the buggy address:") {
        Header::ShadowBytes
    } else if line.starts_with("WARNING: DATA RACE") {
        Header::GoRace
    } else if is_node_throw_site(line) {
        Header::NodeThrowSite
    } else if is_cmake_message(line) {
        Header::CMakeMessage
    } else if is_file_heading(line) {
        Header::FileHeading
    } else if is_shellcheck_place(line) {
        Header::ShellCheckPlace
    } else if line.starts_with('U') && line.trim_end() == DART_UNHANDLED {
        Header::DartUnhandled
    } else if matches!(line.as_bytes().first(), Some(b' ' | b'o' | b'n')) && is_tap_result(line) {
        Header::TapResult
    } else if matches!(line.as_bytes().first(), Some(b'e' | b'T'))
        && severity >= Some(Severity::Error)
        && is_deno_error(line)
    {
        Header::DenoError
    } else if severity >= Some(Severity::Warn) && is_tsc_pretty_header(line) {
        Header::TscPretty
    } else if severity == Some(Severity::Warn) && is_python_warning(line) {
        // (Its test searches the line: only warnings pay for it.)
        Header::PythonWarning
    } else if severity >= Some(Severity::Warn) && is_diagnostic_header(line) {
        // Every compiler's diagnostic states its level; the test for one searches
        // the line, so only lines that state one pay for it.
        Header::Diagnostic
    } else if severity == Some(Severity::Fatal)
        && line.trim_end().ends_with(" has overflowed its stack")
    {
        Header::StackOverflow
    } else if line.starts_with('E') && line == PIP_DEBUG_DUMP {
        Header::PipDebugDump
    } else if severity == Some(Severity::Warn) && is_pylint_similar(line) {
        // (Its test searches the line: only warnings pay for it.)
        Header::PylintSimilar
    } else if severity >= Some(Severity::Warn) && is_postgres_message(line) {
        Header::Postgres
    } else if severity >= Some(Severity::Error) && is_unittest_report(line) {
        Header::UnittestReport
    } else {
        tool_header(line, severity).unwrap_or(Header::Plain)
    }
}

/// [`header_of`] for the headers a runtime's or a tool's report opens with, each told by
/// its first byte at once (this is read at the start of every record).
#[inline(always)] // a call's cost is most of this one's on nearly every line
fn tool_header(line: &str, severity: Option<Severity>) -> Option<Header> {
    if severity == Some(Severity::Fatal) && is_fatal_error(line) {
        return Some(Header::FatalError);
    }
    let serious = severity >= Some(Severity::Error);
    match line.as_bytes().first()? {
        // `💣`'s first byte.
        0xF0 | b'*' if severity == Some(Severity::Fatal) && is_swift_crash(line) => {
            Some(Header::SwiftCrash { ended: false })
        }
        b'=' => is_erlang_report(line).then_some(Header::ErlangReport),
        b'[' => sbt_header(line, severity).map(Header::Sbt),
        b'f' if serious && (line.starts_with("fatal: [") || line.starts_with("failed: [")) => {
            Some(Header::AnsibleFailure)
        }
        b'N' if serious && is_php_next(line) => Some(Header::FatalError),
        // `┌`'s first byte.
        0xE2 => is_julia_log_box(line).then_some(Header::JuliaLogBox),
        // Finding the tag searches the line.
        b'E' | b'F' | b'#' if serious && is_ruby_logger_line(line) => {
            rails_tag(line).map(|tag| Header::RailsTagged(tag_hash(tag)))
        }
        b't' if serious && line.starts_with(CPP_TERMINATE) => Some(Header::CppTerminate),
        b'F' if serious && line.starts_with(FATAL_PYTHON) => Some(Header::FatalPython),
        b'F' if line.starts_with(ANDROID_CRASH) => Some(Header::AndroidCrash),
        b'A'..=b'Z' if is_rule_code_line(line) => Some(Header::RuleFinding {
            error: crate::is_python_error_rule(
                line.split(' ').next().unwrap_or_default().as_bytes(),
            ),
        }),
        // ruff's syntax error, which has no rule's code.
        b'i' if line.starts_with("invalid-syntax: ") => Some(Header::RuleFinding { error: true }),
        _ => None,
    }
}

/// Whether a Rust panic's message passes another thread's panic on: `join().unwrap()`
/// (or `.expect(…)`) on a thread that panicked, or `thread::scope`'s own. The other
/// thread's panic, printed before it, says why.
///
/// ```
/// use briefly_severity::multiline::passes_a_panic_on;
///
/// assert!(passes_a_panic_on("called `Result::unwrap()` on an `Err` value: Any { .. }"));
/// assert!(passes_a_panic_on("a scoped thread panicked"));
/// assert!(!passes_a_panic_on("called `Result::unwrap()` on an `Err` value: ParseIntError"));
/// ```
pub fn passes_a_panic_on(message: &str) -> bool {
    message.ends_with(": Any { .. }") || message == "a scoped thread panicked"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspect;

    /// The records `lines` split into under `indented`, and the lines that named them.
    fn records<'a>(indented: Indented, lines: &[&'a str]) -> (Vec<Vec<&'a str>>, Vec<&'a str>) {
        let mut record = MultiLine::new(indented);
        let mut records: Vec<Vec<&str>> = Vec::new();
        let mut names = Vec::new();
        for &line in lines {
            let found = inspect(line);
            match records.last_mut() {
                Some(lines) if record.continues(line) => {
                    lines.push(line);
                    if record.push(line, found.severity, found.opens) {
                        names.push(line);
                    }
                }
                _ => {
                    record.start(line, found.severity, found.opens);
                    records.push(vec![line]);
                }
            }
        }
        (records, names)
    }

    /// `lines` split into records by rule, and each record's first line.
    fn split_by_rule<'a>(lines: &[&'a str]) -> (Vec<Vec<&'a str>>, Vec<&'a str>) {
        let (split, _) = records(Indented::ByRule, lines);
        let starts = split.iter().map(|record| record[0]).collect();
        (split, starts)
    }

    /// The level of the one record `lines` are, each graded by [`inspect`].
    fn severity_of(lines: &[&str]) -> Option<Severity> {
        let mut record = MultiLine::new(Indented::ByRule);
        let found = inspect(lines[0]);
        record.start(lines[0], found.severity, found.opens);
        for line in &lines[1..] {
            assert!(record.continues(line), "{line}");
            let found = inspect(line);
            record.push(line, found.severity, found.opens);
        }
        record.severity()
    }

    /// Each example's lines split into its records under both policies, naming what it
    /// names.
    fn splits_alike(examples: &[(&[&[&str]], &[&str])]) {
        for (split, names) in examples {
            let lines: Vec<&str> = split.concat();
            for indented in [Indented::ByRule, Indented::Continue] {
                let (got, named) = records(indented, &lines);
                assert_eq!(got, *split, "{indented:?}");
                assert_eq!(named, *names, "{split:?} {indented:?}");
            }
        }
    }

    #[test]
    fn jstacks_deadlock_is_one_record_up_to_its_count() {
        // OpenJDK 17's `jstack` (and `kill -QUIT`) of two threads that wait on each other:
        // the locks they wait for, then each thread's stack, over blank lines.
        let deadlock = |first: &'static str, second: &'static str| {
            vec![
                "Found one Java-level deadlock:",
                "=============================",
                first,
                "  waiting to lock monitor 0x00007fbfa80667f0 (object 0x000000069ec1e7b0, a java.lang.Object),",
                "  which is held by \"worker-2\"",
                "",
                second,
                "  waiting to lock monitor 0x00007fbfb40015a0 (object 0x000000069ec1e7a0, a java.lang.Object),",
                "  which is held by \"worker-1\"",
                "",
                "Java stack information for the threads listed above:",
                "===================================================",
                first,
                "\tat App.lambda$main$0(App.java:20)",
                "\t- waiting to lock <0x000000069ec1e7b0> (a java.lang.Object)",
                "\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)",
                second,
                "\tat App.lambda$main$1(App.java:21)",
                "",
            ]
        };
        let mut two = deadlock("\"worker-1\":", "\"worker-2\":");
        two.push("Found 1 deadlock.");
        splits_alike(&[(
            &[
                &["JNI global refs: 7, weak refs: 0"],
                &[""],
                &two,
                &[""],
                &["Heap"],
            ],
            &[],
        )]);
        // Two deadlocks: a report each, the count ending the second.
        let first = deadlock("\"a\":", "\"b\":");
        let mut second = deadlock("\"c\":", "\"d\":");
        second.push("Found 2 deadlocks.");
        splits_alike(&[(&[&first, &second, &["Heap"]], &[])]);
        assert!(counts_deadlocks("Found 12 deadlocks."));
        for not_a_count in ["Found deadlock.", "Found 1 deadlock", "Found one deadlock."] {
            assert!(!counts_deadlocks(not_a_count), "{not_a_count}");
        }
    }

    #[test]
    fn dotnet_tests_failure_is_one_record_named_by_its_message() {
        // `dotnet test` (vstest 17.9, xUnit) in a pipe: its console logger's failures.
        let throws = [
            "  Failed Shop.Tests.OrderTests.PlaceOrder_WithExpiredCoupon_Throws [12 ms]",
            "  Error Message:",
            "   Assert.Throws() Failure: No exception was thrown",
            "Expected: typeof(Shop.CouponExpiredException)",
            "  Stack Trace:",
            "     at Shop.Tests.OrderTests.PlaceOrder_WithExpiredCoupon_Throws() in /src/OrderTests.cs:line 88",
            "   at System.RuntimeMethodHandle.InvokeMethod(Object target, Void** arguments)",
        ];
        let null = [
            "  Failed Shop.Tests.OrderTests.GetOrder [< 1 ms]",
            "  Error Message:",
            "   System.NullReferenceException : Object reference not set to an instance of an object.",
            "  Stack Trace:",
            "     at Shop.OrderService.ToDto(Order order) in /src/OrderService.cs:line 57",
            "  Standard Output Messages:",
            " loading order 7",
        ];
        splits_alike(&[(
            &[
                &["  Passed Shop.Tests.PricingTests.Price(sku: \"A\") [1 ms]"],
                &throws,
                &null,
                &["  Skipped Shop.Tests.OrderTests.Refund [1 s]"],
                &[""],
                &["Failed!  - Failed:     2, Passed:   150, Skipped:     1, Total:   153"],
            ],
            &[],
        )]);
        // Up to a blank line, or the counts right under it.
        splits_alike(&[
            (&[&null, &[""], &["Attachments:"]], &[]),
            (&[&null, &["Failed!  - Failed:     1, Passed:     0"]], &[]),
            (&[&null, &["Total tests: 1"]], &[]),
        ]);
        let said =
            |record: &[&'static str]| what_went_wrong(record[0], record[1..].iter().copied());
        assert_eq!(said(&throws), Some(throws[2]));
        assert_eq!(said(&null), Some(null[2]));
        assert_eq!(dotnet_test_result("Failed A.B [1 m 2 s]"), Some("Failed"));
        for not_a_result in [
            "Failed to start the test host [12 ms]",
            "Failed A.B",
            "Failed A.B [soon]",
            "Errored A.B [1 ms]",
        ] {
            assert_eq!(dotnet_test_result(not_a_result), None, "{not_a_result}");
        }
    }

    #[test]
    fn psycopg2s_exception_keeps_postgresqls_parts_under_it() {
        let traceback = [
            "Traceback (most recent call last):",
            "  File \"/opt/airflow/dags/etl_orders.py\", line 88, in load_warehouse",
            "    cur.execute(COPY_SQL, params)",
            "psycopg2.errors.UniqueViolation: duplicate key value violates unique constraint \"orders_pkey\"",
            "DETAIL:  Key (order_id)=(884213) already exists.",
            "HINT:  none",
            "",
        ];
        splits_alike(&[(
            &[&traceback, &["DETAILS: not PostgreSQL's"]],
            &[traceback[3]],
        )]);
    }

    #[test]
    fn a_rails_errors_tag_alone_is_named_by_what_its_lines_say_behind_it() {
        let said =
            |record: &[&'static str]| what_went_wrong(record[0], record[1..].iter().copied());
        let error = [
            "[a1b2c3]   ",
            "[a1b2c3]   ",
            "[a1b2c3] NoMethodError (undefined method `x' for nil):",
            "[a1b2c3] app/models/user.rb:112:in `sync_avatar'",
        ];
        assert_eq!(
            said(&error),
            Some("NoMethodError (undefined method `x' for nil):")
        );
        // Not another tag's line, nor behind a first line that says something.
        assert_eq!(said(&["[a1b2c3]", "[d4] NoMethodError (x):"]), None);
        assert_ne!(
            said(&[
                "[error] -- [E006] Not Found Error: /a/Main.scala:5:12",
                "[error] 5 | x"
            ]),
            Some("5 | x")
        );
    }

    #[test]
    fn androids_crash_is_one_record_named_by_its_exception_and_root_cause() {
        // `AndroidRuntime`'s report, as read after logcat's columns.
        let crash = [
            "FATAL EXCEPTION: main",
            "Process: com.example.shop, PID: 5120",
            "java.lang.RuntimeException: Unable to start activity ComponentInfo{com.example.shop/com.example.shop.CheckoutActivity}: java.lang.IllegalStateException: Cart must not be empty",
            "\tat android.app.ActivityThread.performLaunchActivity(ActivityThread.java:3782)",
            "Caused by: java.lang.IllegalStateException: Cart must not be empty",
            "\tat com.example.shop.CheckoutViewModel.<init>(CheckoutViewModel.kt:41)",
            "\t... 12 more",
        ];
        // Without the process's line (older Android's), on another thread.
        let older = [
            "FATAL EXCEPTION: OkHttp Dispatcher",
            "java.lang.NullPointerException: body",
            "\tat com.example.shop.Api$1.onResponse(Api.kt:7)",
        ];
        splits_alike(&[(
            &[
                &crash,
                &older,
                &["Process: com.example.other, PID: 7"],
                &["Force finishing activity com.example.shop/.CheckoutActivity"],
                // Not a crash's: the next line is no process's or exception's.
                &["FATAL EXCEPTION: main"],
                &["Process finished"],
            ],
            &[crash[2], older[1]],
        )]);
        let said =
            |record: &[&'static str]| what_went_wrong(record[0], record[1..].iter().copied());
        assert_eq!(said(&crash), Some(crash[4]));
        assert_eq!(said(&crash[..4]), Some(crash[2]));
        assert_eq!(said(&older), Some(older[1]));
    }

    #[test]
    fn minitests_and_exunits_reports_are_errors_named_by_what_failed() {
        // Minitest 5 (`rails test`): a failed assertion and a test that raised.
        let failure = [
            "  1) Failure:",
            "InvoiceTest#test_total_includes_vat [/home/dev/shop/test/models/invoice_test.rb:42]:",
            "Expected: 119.0",
            "  Actual: 100.0",
        ];
        let error = [
            "  2) Error:",
            "CartTest#test_checkout_with_empty_cart:",
            "NoMethodError: undefined method `price' for nil",
            "    app/models/cart.rb:31:in `total'",
        ];
        // ExUnit (`mix test`).
        let exunit = [
            "  1) test checkout applies discount (Shop.CartTest)",
            "     test/shop/cart_test.exs:42",
            "     Assertion with == failed",
            "     code:  assert Cart.total(cart) == Decimal.new(\"90.00\")",
            "     left:  Decimal.new(\"100.00\")",
            "     stacktrace:",
            "       test/shop/cart_test.exs:47: (test)",
            // (A blank line under it is its, as under Mocha's.)
            "",
        ];
        splits_alike(&[(
            &[
                &failure,
                &[""],
                &error,
                &[""],
                &exunit,
                &["233 tests, 2 failures"],
            ],
            &["     stacktrace:"],
        )]);
        let said =
            |record: &[&'static str]| what_went_wrong(record[0], record[1..].iter().copied());
        assert_eq!(said(&failure), Some(failure[1]));
        assert_eq!(said(&error), Some(error[2]));
        assert_eq!(said(&exunit), Some(exunit[2]));
        for report in [&failure[..], &error, &exunit] {
            let mut record = MultiLine::new(Indented::ByRule);
            record.start(report[0], inspect(report[0]).severity, None);
            for line in &report[1..] {
                assert!(record.continues(line), "{line}");
                record.push(line, inspect(line).severity, None);
            }
            assert_eq!(record.severity(), Some(Severity::Error), "{}", report[0]);
        }
        // Prose numbered so is no report: a line of its own, no error.
        let prose = ["  1) Failure:", "The login page may time out."];
        let (got, _) = records(Indented::ByRule, &prose);
        assert_eq!(got, [[prose[0]], [prose[1]]]);
        let mut record = MultiLine::new(Indented::ByRule);
        record.start(prose[0], None, None);
        assert_eq!(record.severity(), None);
        assert!(is_exunit_failure(
            "2) doctest Shop.add/2 (1) (Shop.MathTest)"
        ));
        for not_exunits in [
            "1) test the build (by hand)",
            "1) test it again (twice)",
            "1) install the deps (Shop.Deps)",
            "1) test adds",
        ] {
            assert!(!is_exunit_failure(not_exunits), "{not_exunits}");
            let mut record = MultiLine::new(Indented::ByRule);
            record.start(&format!("  {not_exunits}"), None, None);
            assert_eq!(record.severity(), None, "{not_exunits}");
        }
        assert_eq!(minitest_report("3) Skipped:"), None);
    }

    #[test]
    fn googletests_failure_is_one_record_up_to_its_verdict() {
        // GoogleTest 1.14 under `ctest --output-on-failure`.
        let equality = [
            "/home/dev/geo/tests/polygon_test.cpp:42: Failure",
            "Expected equality of these values:",
            "  poly.area()",
            "    Which is: 10.5",
            "  state",
            "    Which is: Failure",
            "expected: Failure",
            "  12.0",
        ];
        let truth = [
            "/home/dev/geo/tests/polygon_test.cpp:50: Failure",
            "Value of: poly.closed()",
            "  Actual: false",
            "Expected: true",
        ];
        splits_alike(&[(
            &[
                &["[ RUN      ] Polygon.AreaOfConcave"],
                &equality,
                &truth,
                &["[  FAILED  ] Polygon.AreaOfConcave (0 ms)"],
                &truth,
                &[""],
                &["Done"],
            ],
            &[],
        )]);
        // CTest's list of what did not pass, after its counts.
        splits_alike(&[(
            &[
                &["97% tests passed, 3 tests failed out of 120"],
                &[""],
                &[
                    "The following tests FAILED:",
                    "\t 57 - polygon_area (Failed)",
                    "\t 99 - rtree_query (SEGFAULT)",
                ],
                &["Errors while running CTest"],
            ],
            &[],
        )]);
    }

    #[test]
    fn gradles_failed_test_takes_its_exception() {
        // Gradle 8.7's test task, `testLogging { exceptionFormat "full" }`.
        let failed = [
            "com.acme.shop.cart.CartServiceTest > checkoutAppliesDiscount() FAILED",
            "    org.opentest4j.AssertionFailedError: expected: <90.00> but was: <100.00>",
            "        at app//org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)",
            "        at app//com.acme.shop.cart.CartServiceTest.checkoutAppliesDiscount(CartServiceTest.java:58)",
        ];
        let short = [
            "CartServiceTest > remove item from an empty cart FAILED",
            "    java.lang.IllegalStateException at CartServiceTest.java:73",
            "        Caused by: java.util.NoSuchElementException at CartService.java:41",
        ];
        splits_alike(&[(
            &[
                &failed,
                &[""],
                &short,
                &[""],
                &["> Task :app:test FAILED"],
                &["BUILD FAILED in 14s"],
            ],
            &[],
        )]);
        splits_alike(&[(
            &[&short, &["185 tests completed, 2 failed, 1 skipped"]],
            &[],
        )]);
        let said =
            |record: &[&'static str]| what_went_wrong(record[0], record[1..].iter().copied());
        assert_eq!(said(&failed), Some(failed[1]));
        assert!(!is_gradle_test_failure("> Task :app:test FAILED"));
        assert!(!is_gradle_test_failure("two words > x FAILED"));
    }

    #[test]
    fn gdbs_signal_and_backtraces_are_records() {
        // gdb 13 (`gdb -batch -ex run -ex bt -ex 'thread apply all bt'`).
        let signal = [
            "Thread 18 \"segvmt\" received signal SIGSEGV, Segmentation fault.",
            "[Switching to Thread 0x7fffefdc16c0 (LWP 32161)]",
            "__strlen_evex () at ../sysdeps/x86_64/multiarch/strlen-evex.S:79",
            "79\t../sysdeps/x86_64/multiarch/strlen-evex.S: No such file or directory.",
            "#0  __strlen_evex () at ../sysdeps/x86_64/multiarch/strlen-evex.S:79",
            "#1  0x00005555555551fa in handle_request (r=0x7fffefdc0ec0) at src/segvmt.c:9",
            "#2  0x0000555555555238 in crasher (a=0x0) at src/segvmt.c:10",
            "#3  0x00007ffff7e5e1f5 in start_thread (arg=<optimized out>) at ./nptl/pthread_create.c:442",
        ];
        let thread = [
            "Thread 17 (Thread 0x7ffff05c26c0 (LWP 32160) \"segvmt\"):",
            "#0  __futex_abstimed_wait_common64 (private=0) at ./nptl/futex-internal.c:57",
            "#5  0x00005555555551dd in idle_worker (a=0x0) at src/segvmt.c:7",
            "#10 0x00007ffff7ede8ec in clone3 () at ../sysdeps/unix/sysv/linux/x86_64/clone3.S:81",
        ];
        let split: &[&[&str]] = &[
            &["started worker 15"],
            &signal,
            &[""],
            &thread,
            &[""],
            &[
                "Program received signal SIGABRT, Aborted.",
                "#0  0x1 in raise () from /lib/libc.so.6",
            ],
            &["[Inferior 1 (process 32145) killed]"],
        ];
        let (got, _) = records(Indented::ByRule, &split.concat());
        assert_eq!(got, split);
        // What gdb prints next, right under the frames, is no frame.
        let split: &[&[&str]] = &[
            &[
                "Program received signal SIGABRT, Aborted.",
                "#0  0x1 in raise () from /lib/libc.so.6",
            ],
            &["A debugging session is active."],
            &thread,
            &["A debugging session is active."],
        ];
        let (got, _) = records(Indented::ByRule, &split.concat());
        assert_eq!(got, split);
        // An interactive session's: the prompt asks for the backtrace; the next ends it.
        let asked = [
            "Program received signal SIGSEGV, Segmentation fault.",
            "0x00007ffff7e3c8b5 in __strlen_evex () from /lib/x86_64-linux-gnu/libc.so.6",
            "(gdb) bt full",
            "#0  0x00007ffff7e3c8b5 in __strlen_evex () from /lib/x86_64-linux-gnu/libc.so.6",
            "#1  0x0000555555555189 in handle_request (req=0x0) at src/segv.c:9",
        ];
        let split: &[&[&str]] = &[&asked, &["(gdb) quit"], &["(gdb) btx"]];
        let (got, _) = records(Indented::ByRule, &split.concat());
        assert_eq!(got, split);
        let said =
            |record: &[&'static str]| what_went_wrong(record[0], record[1..].iter().copied());
        assert_eq!(said(&asked), Some(asked[4]));
        assert_eq!(said(&signal), Some(signal[5]));
        assert_eq!(said(&["Program received signal SIGABRT, Aborted."]), None);
    }

    #[test]
    fn valgrinds_report_is_named_by_its_frame_in_the_programs_code() {
        // valgrind 3.19's memcheck.
        let write = [
            "==31915== Invalid write of size 1",
            "==31915==    at 0x48478F6: strcpy (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)",
            "==31915==    by 0x10919F: dup_name (vg.c:4)",
            "==31915==    by 0x109222: main (vg.c:8)",
        ];
        let stripped = [
            "==31915== Invalid read of size 1",
            "==31915==    at 0x4847794: strlen (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)",
            "==31915==    by 0x10924D: main (in /tmp/vg)",
        ];
        let said =
            |record: &[&'static str]| what_went_wrong(record[0], record[1..].iter().copied());
        assert_eq!(said(&write), Some(write[2]));
        assert_eq!(said(&stripped), Some(stripped[1]));
        assert_eq!(
            valgrind_frame("==31915==  Address 0x4a4108b is 0 bytes after"),
            None
        );
    }

    #[test]
    fn a_reports_header_in_a_logs_words_takes_no_line() {
        // A log's line that reads as a test runner's or jstack's takes none of the lines
        // under it: GoogleTest's needs its place, `dotnet test`'s its `Error Message:`,
        // and jstack's report ends at a line that is none of its own.
        let split: &[&[&str]] = &[
            &["2024-05-01 10:00:00 ERROR payment gateway: Failure"],
            &["2024-05-01 10:00:01 ERROR db timeout"],
            &["ERROR payment gateway: Failure"],
            &["WARN retrying payment"],
            &["Failed login [3 ms]"],
            &["ERROR db connection lost"],
            &[
                "Found one Java-level deadlock:",
                "=============================",
                "\"worker-1\":",
                "  waiting to lock monitor 0x00007fbfa80667f0 (object 0x000000069ec1e7b0, a java.lang.Object),",
                "",
            ],
            &["INFO step 1"],
            &["ERROR db timeout"],
        ];
        let (got, _) = records(Indented::ByRule, &split.concat());
        assert_eq!(got, split);
        assert!(is_gtest_failure("tests/a_test.cc:7: Failure"));
        for not_gtest in [
            "gateway: Failure",
            "a b.cc:7: Failure",
            "a.cc:x: Failure",
            ":7: Failure",
        ] {
            assert!(!is_gtest_failure(not_gtest), "{not_gtest}");
        }
    }

    #[test]
    fn gdbs_wrapped_frame_stays_with_its_backtrace() {
        // A frame too long for the terminal goes on indented (gdb without `-batch`).
        let signal = [
            "Program received signal SIGSEGV, Segmentation fault.",
            "0x0000555555555161 in handle_request (r=0x0, len=14,",
            "    flags=0) at src/app.c:9",
            "9\t  return strlen(r->name);",
            "#0  0x0000555555555161 in handle_request (r=0x0, len=14,",
            "    flags=0) at src/app.c:9",
            "#1  0x00005555555551a2 in main () at src/app.c:14",
        ];
        let thread = [
            "Thread 1 (Thread 0x7ffff7d8a740 (LWP 4242) \"app\"):",
            "#0  0x0000555555555161 in handle_request (r=0x0, len=14,",
            "    flags=0) at src/app.c:9",
            "#1  0x00005555555551a2 in main () at src/app.c:14",
        ];
        let split: &[&[&str]] = &[&signal, &[""], &thread, &["done"]];
        let (got, _) = records(Indented::ByRule, &split.concat());
        assert_eq!(got, split);
    }

    #[test]
    fn a_blank_line_takes_no_line_after_it() {
        // bun's failure: where it failed is set apart from its error by a blank line.
        // The blank lines' records fold into one template that shows nothing: under one,
        // the frame would be shown nowhere.
        splits_alike(&[(
            &[
                &["error: expect(received).toBe(expected)"],
                &[""],
                &["      at /home/dev/web/src/cart.test.ts:51:23"],
                &[""],
                &["done"],
            ],
            &[],
        )]);
    }

    const TRACEBACK_COLON: &str = "Traceback (most recent call last):";

    #[test]
    fn a_failure_ansible_ignores_is_a_warning() {
        let mut record = MultiLine::new(Indented::ByRule);
        let fatal = "fatal: [db2]: FAILED! => {\"changed\": false, \"msg\": \"no route\"}";
        let found = inspect(fatal);
        record.start(fatal, found.severity, found.opens);
        assert!(record.severity() >= Some(Severity::Error));
        assert!(record.continues("...ignoring"));
        record.push("...ignoring", None, None);
        assert_eq!(record.severity(), Some(Severity::Warn));
    }

    #[test]
    fn cargos_causes_of_an_error_are_its_own() {
        // `cargo build -v`: the error, a blank line, then its causes, indented.
        let error = [
            "error: could not compile `app` (lib) due to 1 previous error",
            "",
            "Caused by:",
            "  process didn't exit successfully: `rustc --crate-name app` (exit status: 1)",
            "  --- stderr",
        ];
        let mut record = MultiLine::new(Indented::ByRule);
        let found = inspect(error[0]);
        record.start(error[0], found.severity, found.opens);
        assert!(record.may_set_apart_an_exception());
        record.exception_after_blank();
        for line in &error[1..] {
            assert!(record.continues(line), "{line}");
            let found = inspect(line);
            record.push(line, found.severity, found.opens);
        }
        assert!(!record.continues("   Compiling other v0.1.0"));
        // A build script's stderr: cargo does not indent its blank lines. One among the
        // causes goes on when another of them follows it.
        for line in [
            "  X86_64_UNKNOWN_LINUX_GNU_OPENSSL_LIB_DIR unset",
            "  OPENSSL_DIR unset",
            "  thread 'main' panicked at build/find_normal.rs:190:5:",
            "",
            "  Could not find directory of OpenSSL installation",
            "",
            "",
            "  note: run with `RUST_BACKTRACE=1` environment variable",
        ] {
            if line.is_empty() {
                assert!(record.may_set_apart_an_exception());
                record.blank_followed_by("  Could not find directory of OpenSSL installation");
            }
            assert!(record.continues(line), "{line:?}");
            record.push(line, inspect(line).severity, None);
        }
        // Not one followed by a line of no cause's.
        record.blank_followed_by("warning: build failed, waiting for other jobs to finish...");
        assert!(!record.continues(""));
        let root = what_went_wrong(error[0], error[1..].iter().copied());
        assert_eq!(root, Some(error[3].trim_start()));
        // anyhow's chain under a log's line, numbered.
        let logged = [
            "ERROR failed to start",
            "",
            "Caused by:",
            "    0: reading /etc/app.toml",
            "    1: No such file or directory (os error 2)",
        ];
        let mut record = MultiLine::new(Indented::ByRule);
        record.start(logged[0], Some(Severity::Error), None);
        assert!(record.may_set_apart_an_exception());
        record.exception_after_blank();
        for line in &logged[1..] {
            assert!(record.continues(line), "{line}");
            record.push(line, None, None);
        }
    }

    #[test]
    fn cpps_uncaught_exception_is_named_by_what_it_says() {
        let terminate = [
            "terminate called after throwing an instance of 'std::runtime_error'",
            "  what():  config file not found: /etc/app.conf",
        ];
        splits_alike(&[(
            &[
                &["warmup step 2999 of 2999"],
                &terminate,
                &["Aborted (core dumped)"],
            ],
            &[terminate[1]],
        )]);
        let said = what_went_wrong(terminate[0], terminate[1..].iter().copied());
        assert_eq!(said, Some(terminate[1]));
    }

    #[test]
    fn faulthandlers_report_is_one_record_with_every_threads_frames() {
        // CPython 3.11's, under a log's last line; a blank line ends it as well as any.
        let report = [
            "Fatal Python error: Segmentation fault",
            "",
            "Thread 0x00007f3a2b7fe640 (most recent call first):",
            "  File \"/usr/lib/python3.11/threading.py\", line 320 in wait",
            "",
            "Current thread 0x00007fe4b147ab80 (most recent call first):",
            "  File \"/app/app.py\", line 6 in read_header",
            "  File \"/app/app.py\", line 18 in <module>",
            "",
            "Extension modules: numpy.core._multiarray_umath (total: 1)",
        ];
        // An abort's, with the runtime's state and a stack of no Python frame.
        let abort = [
            "Fatal Python error: _PyThreadState_Attach: non-NULL old thread state",
            "Python runtime state: initialized",
            "",
            "Stack (most recent call first):",
            "  <no Python frame>",
        ];
        splits_alike(&[(
            &[
                &["2026-12-06 05:51:55,193 INFO decoded frame 2999"],
                &report,
                &["Segmentation fault (core dumped)"],
                &abort,
                &["Aborted (core dumped)"],
            ],
            &[],
        )]);
        assert_eq!(
            what_went_wrong(report[0], report[1..].iter().copied()),
            None
        );
    }

    #[test]
    fn ruffs_finding_is_one_record_with_its_place_and_source() {
        // ruff 0.17's default output.
        let finding = [
            "F821 Undefined name `undefined_config_value`",
            " --> pkg/m5_core.py:7:12",
            "  |",
            "7 |     return undefined_config_value",
            "  |            ^^^^^^^^^^^^^^^^^^^^^^",
            "help: Define the name",
        ];
        splits_alike(&[(
            &[
                &finding,
                &[""],
                &["F401 [*] `os` imported but unused", " --> pkg/m1.py:1:8"],
                &["Found 2 errors."],
                // A code with no place under it is no finding.
                &["HTTP200 OK"],
                &["next"],
            ],
            &[],
        )]);
        let mut record = MultiLine::new(Indented::ByRule);
        record.start(finding[0], None, None);
        assert_eq!(record.severity(), None);
        for line in &finding[1..] {
            assert!(record.continues(line), "{line}");
            record.push(line, None, None);
        }
        // F821 finds code that cannot run: an error; a style rule's finding is a warning,
        // whatever its message names.
        assert_eq!(record.severity(), Some(Severity::Error));
        let style = [
            "SIM105 Use `contextlib.suppress(KeyError)` instead of `try`-`except`-`pass`",
            "   --> checkers/symilar.py:270:13",
            "    |",
            "270 |             except KeyError:",
            "help: Replace with `contextlib.suppress(KeyError)`",
            "    |",
            "51  | from pylint.utils import LinterStats",
            "52  + import contextlib",
            "--------------------------------------------------------------------------------",
            "270 |             try:",
            "    -             except KeyError:",
            "271 +             with contextlib.suppress(KeyError):",
        ];
        assert_eq!(severity_of(&style), Some(Severity::Warn));
        let syntax = [
            "invalid-syntax: Expected `:`, found `=`",
            "   --> urllib3/pool.py:263:26",
        ];
        record.start(syntax[0], None, None);
        assert!(record.continues(syntax[1]));
        record.push(syntax[1], None, None);
        assert_eq!(record.severity(), Some(Severity::Error));
        for not_a_code in [
            "F8 too short",
            "F12345 too long",
            "ABCDE123 too long",
            "F821: colon",
        ] {
            assert!(!is_rule_code_line(not_a_code), "{not_a_code}");
        }
    }

    #[test]
    fn what_a_linters_runners_and_npms_record_says_went_wrong() {
        let said =
            |record: &[&'static str]| what_went_wrong(record[0], record[1..].iter().copied());
        // ShellCheck 0.9: the worst finding, under a span's carets too.
        let shellcheck = [
            "In warn.sh line 202:",
            "for f in $(ls *.txt); do cat $f; done",
            "         ^---------^ SC2045 (error): Iterating over ls output is fragile. Use globs.",
            "              ^-- SC2035 (info): Use ./*glob* or -- *glob* so names with dashes won't become options.",
        ];
        assert_eq!(said(&shellcheck), Some(shellcheck[2]));
        let mut infos = shellcheck;
        infos[2] =
            "         ^-- SC2086 (info): Double quote to prevent globbing and word splitting.";
        assert_eq!(said(&infos), Some(infos[2]), "the first of the worst");
        // Mocha 10, its title read without its indentation: the error, not the diff's legend.
        let mocha = [
            "3) mod8",
            "     deep:",
            "",
            "    AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:",
            "+ actual - expected",
        ];
        assert_eq!(said(&mocha), Some(mocha[3]));
        // npm 10: the compiler's error that failed a package's install script.
        let npm = [
            "npm error code 1",
            "npm error path /app/node_modules/sqlite3",
            "npm error ../src/binding.cc:42:10: fatal error: sqlite3.h: No such file or directory",
        ];
        assert_eq!(said(&npm), Some(npm[2]));
    }

    #[test]
    fn jests_console_block_is_one_record() {
        // Jest 30's, under a test that logged a warning (colour stripped).
        let block = [
            "  console.error",
            "    Warning: An update to Widget inside a test was not wrapped in act(...).",
            "",
            "      1 | const { add } = require('../src/math');",
            "    > 3 |   test('call 0', () => { console.error('Warning: An update'); });",
            "        |                                  ^",
            "",
            "      at Object.error (__tests__console/c.test.js:3:34)",
            "",
        ];
        let split: &[&[&str]] = &[
            &block,
            &["  console.log", "    fetched item 0", ""],
            &["PASS __tests__console/c.test.js"],
        ];
        let (got, _) = records(Indented::ByRule, &split.concat());
        assert_eq!(got, split);
        // ShellCheck's finding at the end of a file, under its blank source line.
        let split: &[&[&str]] = &[
            &[
                "In script.sh line 204:",
                "",
                "^-- SC1047 (error): Expected 'fi' matching previously mentioned 'if'.",
            ],
            &[""],
            &["For more information:"],
        ];
        let (got, _) = records(Indented::ByRule, &split.concat());
        assert_eq!(got, split);
    }

    #[test]
    fn vitests_failure_is_one_record_up_to_its_rule() {
        // vitest 4.1's list of failures (colour stripped).
        let failure = [
            " FAIL  test/s2.test.mjs > suite2 > float sum 2",
            "AssertionError: expected 0.30000000000000004 to be 0.3 // Object.is equality",
            "",
            "- Expected",
            "+ Received",
            "",
            " ❯ test/s2.test.mjs:47:27",
            "     47|     expect(add(0.1, 0.2)).toBe(0.3);",
            "       |                           ^",
            "",
        ];
        let next = [
            " FAIL  test/s5.test.mjs > suite5 > parses config",
            "SyntaxError: Expected property name or '}' in JSON at position 1",
            " ❯ parse math.js:2:33",
        ];
        let split: &[&[&str]] = &[
            &["⎯⎯⎯⎯⎯⎯⎯ Failed Tests 2 ⎯⎯⎯⎯⎯⎯⎯"],
            &[""],
            &failure,
            &["⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/2]⎯"],
            &[""],
            &next,
            &[" FAIL  test/s6.test.mjs > suite6 > x", "Error: boom"],
            &["⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[3/3]⎯"],
            &[" FAIL  no suite here"],
            &["next"],
        ];
        // (Not as docker's lines are read: an indented header goes on the blank line.)
        let (got, _) = records(Indented::ByRule, &split.concat());
        assert_eq!(got, split);
    }

    #[test]
    fn mypys_wrapped_message_stays_with_its_diagnostic() {
        // mypy 2.4 `--strict --pretty` in a pipe: a long message wraps at 80 columns, its
        // code on the next line, the source and caret under it.
        splits_alike(&[(
            &[
                &[
                    "pkg/m1.py:1: error: Function is missing a type annotation  [no-untyped-def]",
                    "    def f1(x):",
                    "    ^~~~~~~~~~",
                ],
                &[
                    "pkg/core.py:5: error: Incompatible return value type (got \"int\", expected",
                    "\"str\")  [return-value]",
                    "        return n",
                    "               ^",
                ],
                &[
                    "pkg/core.py:7: error: Name \"undefined_config_value\" is not defined ",
                    "[name-defined]",
                    "    print(undefined_config_value)",
                    "          ^~~~~~~~~~~~~~~~~~~~~~",
                ],
                &["Found 3 errors in 2 files (checked 402 source files)"],
                // Without `--pretty`, a diagnostic a line, its code at its end: the next
                // diagnostic is no wrapped end of the one above (they were joined in
                // pairs); its note is.
                &["pkg/m1.py:1: error: Function is missing a return type annotation  [no-untyped-def]"],
                &[
                    "pkg/m2.py:2: error: Function is missing a return type annotation  [no-untyped-def]",
                    "pkg/m2.py:2: note: Use \"-> None\" if function does not return a value",
                ],
                &["pkg/m3.py:3: error: Name \"x\" is not defined  [name-defined]"],
                // Only the line right under it, and only a code mypy would write.
                &["a.c:3:5: error: expected ';' before '}' token"],
                &["[Makefile:3] done"],
                &["a.c:4:5: error: expected ';' before '}' token"],
                &["make: *** [Makefile:3: a.o] Error 1"],
            ],
            &[],
        )]);
        for not_a_code in [
            "[-Wunused-variable]",
            "  [name-defined]",
            "x [name-defined]",
            "x  [Name]",
            "[]",
        ] {
            assert!(!is_wrapped_error_code(not_a_code), "{not_a_code}");
        }
    }

    #[test]
    fn swift_backtrace_is_one_record_up_to_its_time() {
        splits_alike(&[
            (
                &[
                    &["App/main.swift:3: Fatal error: Unexpectedly found nil"],
                    &[""],
                    &[
                        "💣 Program crashed: System trap at 0x00005555555b1e4c",
                        "",
                        "Thread 0 \"crash\" crashed:",
                        "",
                        "0 0x00005555555b1e4c main + 108 in crash at /src/main.swift:3:15",
                        "1 [ra] 0x00007ffff7829d90 __libc_start_call_main + 128 in libc.so.6",
                        "",
                        "Registers:",
                        "",
                        "rax 0x0000000000000000  0",
                        "",
                        "Backtrace took 0.03s",
                    ],
                    &["Illegal instruction (core dumped)"],
                    &["done"],
                ],
                &[],
            ),
            // Without colour; and cut short, what follows is taken (up to the caller's cap).
            (
                &[&[
                    "*** Program crashed: Bad pointer dereference at 0x0000000000000000 ***",
                    "",
                    "Thread 0 crashed:",
                    "done",
                ]],
                &[],
            ),
            // Prose that says so is no report, nor is glibc's abort under the same stars.
            (&[&["*** Program crashed: "], &[""]], &[]),
            (
                &[&["*** stack smashing detected ***: terminated"], &["done"]],
                &[],
            ),
        ]);
    }

    #[test]
    fn a_record_is_at_the_worst_level_of_its_lines() {
        // What a WARN line logged may be a crash printed after it, which one cannot tell
        // apart: an error under it is not hidden as a warning.
        let stack = [
            "\tat a.B.c(B.java:1)",
            "Caused by: java.io.IOException: disk full",
            "\tat a.B.d(B.java:2)",
        ];
        for header in [
            "2024-01-01 10:00:00 WARN Bad record 12, skipped",
            "2024-01-01 10:00:00 INFO retrying",
            "2024-01-01 10:00:00 retrying",
        ] {
            let lines: Vec<&str> = [header].into_iter().chain(stack).collect();
            assert_eq!(severity_of(&lines), Some(Severity::Error), "{header}");
        }
        let traceback = [
            "WARNING:root:could not reach the cache",
            "Traceback (most recent call last):",
            "  File \"app.py\", line 3, in <module>",
            "ConnectionError: refused",
        ];
        assert_eq!(severity_of(&traceback), Some(Severity::Error));
    }

    #[test]
    fn a_message_announced_goes_on_under_its_line() {
        splits_alike(&[
            // Python's exception line ends with a colon: its message's lines follow.
            (
                &[
                    &[
                        "Traceback (most recent call last):",
                        "  File \"app.py\", line 3, in <module>",
                        "ValueError: invalid config:",
                        "- port: must be int",
                        "- host: required",
                    ],
                    &["INFO next"],
                ],
                &["ValueError: invalid config:"],
            ),
            // A Java exception's, up to its frames; not a log line's that ends with one.
            (
                &[
                    &[
                        "ERROR c.e.Orders - rejected",
                        "java.lang.IllegalArgumentException: invalid order 77:",
                        "- field qty: must be positive",
                        "\tat c.e.Orders.check(Orders.java:10)",
                        "Caused by: java.sql.SQLException: constraints failed:",
                        "- orders.qty > 0",
                        "\tat c.e.Db.insert(Db.java:4)",
                    ],
                    &["processing order 78"],
                    &["ERROR validation failed for order 78:"],
                    &["- field qty: must be positive"],
                    &[""],
                    &["done"],
                ],
                &["java.lang.IllegalArgumentException: invalid order 77:"],
            ),
            // Up to what a program runs or reports next, or a rule (but its underline).
            (
                &[
                    &["java.io.IOException: bad input:", "x = 3"],
                    &["+ make"],
                    &["java.io.IOException: bad input:"],
                    &["make: *** [all] Error 2"],
                    &["done"],
                    &["java.io.IOException: bad input:", "x = 3"],
                    &["========================================"],
                ],
                &[],
            ),
            // Unannounced, the next line is the program's.
            (
                &[
                    &[
                        "Traceback (most recent call last):",
                        "  File \"app.py\", line 3, in <module>",
                        "KeyError: 'user'",
                    ],
                    &["ok done"],
                ],
                &["KeyError: 'user'"],
            ),
        ]);
        // pydantic's count of errors announces them, each field's indented under it.
        let lines = [
            "Traceback (most recent call last):",
            "  File \"m.py\", line 9, in <module>",
            "pydantic_core._pydantic_core.ValidationError: 2 validation errors for Model",
            "port",
            "  Input should be a valid integer [type=int_parsing, input_value='x']",
            "host",
            "  Field required [type=missing, input_value={}, input_type=dict]",
        ];
        let (split, _) = records(Indented::ByRule, &lines);
        assert_eq!(split, [lines.to_vec()]);
        for (line, announces) in [
            ("ValidationError: 1 validation error for Model", true),
            ("ValidationError: 2 validation errors for Model", true),
            (
                "error: Your local changes would be overwritten by merge: ",
                true,
            ),
            ("ValueError: 2 validation errors", false),
            ("KeyError: 'user'", false),
        ] {
            assert_eq!(announces_more(line), announces, "{line}");
        }
        // At most MAX_MESSAGE_LINES of it.
        let mut lines = vec!["java.io.IOException: these failed:"];
        lines.extend(["- a"; MAX_MESSAGE_LINES + 1]);
        let (split, _) = records(Indented::ByRule, &lines);
        let lengths: Vec<usize> = split.iter().map(Vec::len).collect();
        assert_eq!(lengths, [MAX_MESSAGE_LINES + 1, 1]);
    }

    #[test]
    fn a_builds_next_step_ends_a_diagnostic() {
        let lines = [
            "  CC      m114.o",
            "m115.c: In function ‘g’:",
            "m115.c:1:19: warning: unused variable ‘unused’ [-Wunused-variable]",
            "    1 | int g(int a){ int unused; return a; }",
            "      |                   ^~~~~~",
            "  CC      m116.o",
            "  LD [M]  drivers/x.ko",
            "Main.java:5: error: cannot find symbol",
            "  symbol:   variable x",
            "  location: class Main",
            "  GEN     Makefile",
            "Main.java:6: error: cannot find symbol",
            "  MODPOST Module.symvers",
        ];
        let (split, _) = records(Indented::ByRule, &lines);
        let lengths: Vec<usize> = split.iter().map(Vec::len).collect();
        assert_eq!(lengths, [1, 4, 1, 1, 3, 1, 1, 1], "{split:?}");
    }

    #[test]
    fn webpacks_problem_holds_its_loaders_message_and_frame() {
        let lines = [
            "ERROR in ./src/api/client.ts:88:5",
            "TS2322: Type 'string | undefined' is not assignable to type 'string'.",
            "    86 |   const token = getToken();",
            "  > 88 |     token,",
            "       |     ^^^^^^^",
            "",
            "webpack 5.89.0 compiled with 1 error in 4512 ms",
        ];
        let (split, names) = records(Indented::ByRule, &lines);
        let lengths: Vec<usize> = split.iter().map(Vec::len).collect();
        assert_eq!(lengths, [5, 1, 1], "{split:?}");
        // The next problem's line, without a blank line before it, is its own.
        let two = ["ERROR in ./a.ts", "TS1: x", "ERROR in ./b.ts", "TS2: y"];
        let (split, _) = records(Indented::ByRule, &two);
        let lengths: Vec<usize> = split.iter().map(Vec::len).collect();
        assert_eq!(lengths, [2, 2], "{split:?}");
        assert!(
            names.is_empty() || names[0].starts_with("TS2322"),
            "{names:?}"
        );
    }

    #[test]
    fn rustcs_padded_gutter_and_elision_are_its_diagnostic() {
        let lines = [
            "   Compiling w v0.1.0 (/w)",
            "error[E0599]: no method named `frob` found for struct `W` in the current scope",
            "   --> src/w.rs:188:14",
            "    |",
            "9   | pub struct W {",
            "    | ------------ method `frob` not found for this struct",
            "...",
            "188 |         self.frob();",
            "    |              ^^^^ method not found in `W`",
            "",
            "error: could not compile `w` (lib) due to 1 previous error",
        ];
        let (split, _) = records(Indented::ByRule, &lines);
        let lengths: Vec<usize> = split.iter().map(Vec::len).collect();
        assert_eq!(lengths, [1, 8, 1, 1], "{split:?}");
        // Elsewhere, a line of three dots is its own.
        let (split, _) = records(Indented::ByRule, &["INFO start", "...", "INFO done"]);
        assert_eq!(split.len(), 3, "{split:?}");
    }

    #[test]
    fn tap_results() {
        for line in [
            "ok 1 - works",
            "not ok 3 - case 2",
            "    not ok 1 - sub",
            "ok 4 # SKIP",
        ] {
            assert!(is_tap_result(line), "{line}");
        }
        for line in ["ok", "ok then", "not ok", "okay 1", "# ok 1"] {
            assert!(!is_tap_result(line), "{line}");
        }
    }

    #[test]
    fn lua_frames() {
        for frame in [
            "[C]: in ?",
            "app.lua:3: in local 'load'",
            "/srv/lib/x.lua:120: in function 'x.run'",
            "[string \"init\"]:7: in main chunk",
            "(...tail calls...)",
        ] {
            assert!(is_frame(&format!("\t{frame}")), "{frame}");
        }
        for line in [
            "not.lua: in a frame",
            "app.lua:x: in main chunk",
            "app.py:3: in main chunk",
            "[C] in ?",
        ] {
            assert!(!is_frame(&format!("\t{line}")), "{line}");
        }
    }

    #[test]
    fn a_driver_field_continues_an_error_only() {
        let (_, starts) = split_by_rule(&["INFO next", "  Detail: not under an error"]);
        assert_eq!(starts, ["INFO next", "  Detail: not under an error"]);
    }

    #[test]
    fn an_exception_group_is_one_record_named_by_its_exception() {
        let group = [
            "  + Exception Group Traceback (most recent call last):",
            "  |   File \"eg.py\", line 7, in <module>",
            "  |     asyncio.run(main())",
            "  | ExceptionGroup: unhandled errors in a TaskGroup (2 sub-exceptions)",
            "  +-+---------------- 1 ----------------",
            "    | Traceback (most recent call last):",
            "    |   File \"eg.py\", line 2, in a",
            "    | ValueError: task a failed",
            "    +---------------- 2 ----------------",
            "    | Traceback (most recent call last):",
            "    | KeyError: 'task b missing'",
            "    +------------------------------------",
        ];
        // Two in a row are two; a line behind no bar ends one.
        splits_alike(&[(&[&group, &group, &["done"]], &[group[3], group[3]])]);
        assert_eq!(
            what_went_wrong(group[0], group[1..].iter().copied()),
            Some("ExceptionGroup: unhandled errors in a TaskGroup (2 sub-exceptions)")
        );
    }

    #[test]
    fn a_thread_dumps_thread_is_one_record_with_its_state_and_monitors() {
        let worker = [
            "\"worker-1\" #12 prio=5 os_prio=0 tid=0x7fd3 nid=0x6c1 waiting for monitor entry",
            "   java.lang.Thread.State: BLOCKED (on object monitor)",
            "\tat Dead.lambda$main$0(Dead.java:4)",
            "\t- waiting to lock <0x000000069e019458> (a java.lang.Object)",
            "\t- locked <0x000000069e019448> (a java.lang.Object)",
            "\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)",
        ];
        splits_alike(&[(&[&worker, &[""], &["Found 1 deadlock."]], &[])]);
    }

    #[test]
    fn the_linkers_findings_stay_with_the_function_they_are_in() {
        let main = [
            "/usr/bin/ld: /tmp/ccc9.o: in function `main':",
            "y.c:(.text+0x15): undefined reference to `ext1'",
            "/usr/bin/ld: y.c:(.text+0x1c): undefined reference to `ext2'",
        ];
        let other = [
            "/usr/bin/ld: /tmp/ccrJ.o: in function ‘other’:",
            "z.c:(.text+0x5): undefined reference to ‘ext1’",
        ];
        splits_alike(&[(
            &[
                &main,
                &other,
                &["collect2: error: ld returned 1 exit status"],
            ],
            &[main[1], other[1]],
        )]);
    }

    #[test]
    fn an_npm_error_report_is_one_record_named_by_its_error() {
        let report = [
            "npm error code ECONNREFUSED",
            "npm error syscall connect",
            "npm error Found: react@18.2.0",
            "npm error FetchError: request to http://127.0.0.1:9/x failed, reason: connect",
            "npm error     at ClientRequest.emit (node:events:524:28)",
            "npm error",
            "npm error A complete log of this run can be found in: /root/.npm/_logs/x.log",
        ];
        splits_alike(&[(&[&report, &["added 3 packages"]], &[report[3]])]);
        assert_eq!(
            what_went_wrong(report[0], report[1..].iter().copied()),
            Some(report[3])
        );
        // An install script's failure npm quotes: node-gyp's lines are all `gyp ERR!`,
        // its stack's too; the error in that stack names the report.
        let gyp = [
            "npm ERR! code 1",
            "npm ERR! gyp info spawn args [ '--depth=.' ]",
            "npm ERR! gyp ERR! find Python checking if \"python3\" can be used",
            "npm ERR! gyp ERR! stack Error: Could not find any Python installation to use",
            "npm ERR! gyp ERR! stack     at PythonFinder.fail (/n/find-python.js:330:11)",
            "npm ERR! node-pre-gyp ERR! stack Error: Failed to execute 'node configure' (1)",
            "npm ERR! gyp ERR! not ok",
        ];
        splits_alike(&[(&[&gyp], &[gyp[3]])]);
        assert_eq!(
            what_went_wrong(gyp[0], gyp[1..].iter().copied()),
            Some(gyp[3])
        );
        let mut record = MultiLine::new(Indented::ByRule);
        record.start(gyp[0], Some(Severity::Error), None);
        let said: Vec<&str> = gyp[1..].iter().map(|line| record.said(line)).collect();
        assert_eq!(
            said,
            [
                "gyp info spawn args [ '--depth=.' ]",
                "find Python checking if \"python3\" can be used",
                "Error: Could not find any Python installation to use",
                "    at PythonFinder.fail (/n/find-python.js:330:11)",
                "Error: Failed to execute 'node configure' (1)",
                "not ok",
            ]
        );
        // Only a tool's name comes before its `ERR!`.
        let quoted = "npm ERR! FetchError: proxy said ERR! nope";
        assert_eq!(record.said(quoted), "FetchError: proxy said ERR! nope");
        // Another record's lines are what they say.
        record.start("ERROR boom", Some(Severity::Error), None);
        assert_eq!(record.said(gyp[3]), gyp[3]);
        // npm before 10; a report that names no error is named by its first line.
        let old = [
            "npm ERR! code E404",
            "npm ERR! 404 Not Found - GET https://r/x",
        ];
        splits_alike(&[(&[&old, &["npm warn config"]], &[])]);
        assert_eq!(what_went_wrong(old[0], old[1..].iter().copied()), None);
        // Not npm's: `npm errors` is no prefix of its report.
        splits_alike(&[(&[&["npm errors: 3"], &["npm error x"]], &[])]);
    }

    #[test]
    fn a_go_stack_stays_under_the_line_that_logged_it() {
        let logged = "2024-03-01T10:00:00.100Z\tERROR\tapp/main.go:20\trequest failed";
        splits_alike(&[
            // zap's development logger: each function, then its file and line.
            (
                &[
                    &[
                        logged,
                        "main.handle",
                        "\t/home/u/app/main.go:20",
                        "main.(*Server).serve.func1",
                        "\t/home/u/app/server.go:12 +0x1d",
                        "net/http.HandlerFunc.ServeHTTP",
                        "\t/usr/local/go/src/net/http/server.go:2136",
                    ],
                    &["2024-03-01T10:00:00.200Z\tINFO\tapp/main.go:22\tdone"],
                ],
                &[],
            ),
            // A dotted name under a function (not its place) is a line of its own, and so
            // is a sentence under a place.
            (&[&[logged, "main.handle"], &["main.main"]], &[]),
            (
                &[&[logged, "main.handle", "\t/a/main.go:20"], &["done."]],
                &[],
            ),
            // Under zap's line at INFO, and under another logger's error (a file ESLint
            // lists after its count of problems), a dotted name is a line of its own.
            (&[&["ts\tINFO\ta.go:1\tstarted"], &["main.handle"]], &[]),
            (&[&["ERROR failed"], &["src/a.js"]], &[]),
        ]);
        for line in [
            "config.Error",
            "java.io.IOException",
            "end.",
            "a b.c",
            "9.main",
            "main",
        ] {
            assert!(!is_go_stack_function(line), "{line}");
        }
        // Under a line of no level, a Go stack's place is no frame of it.
        let (split, _) = records(Indented::ByRule, &["started", "\t/a/main.go:20"]);
        assert_eq!(split.len(), 2);
        assert!(is_zap_console_line("ts\tDPANIC\tx"));
        assert!(is_zap_console_line("ERROR\tapp/main.go:20\trequest failed"));
        assert!(!is_zap_console_line("ERROR"));
        assert!(!is_zap_console_line("ts\tx\tERROR"));
        assert!(!is_zap_console_line("ts ERROR x"));
        for line in ["\t.go:1", "\ta b.go:1", " /a/main.go:1", "\t/a/main.go:"] {
            assert!(!is_go_stack_place(line), "{line}");
        }
    }

    #[test]
    fn stacks_stay_with_their_header() {
        splits_alike(&[
            // Python: frames, then the exception that ends and names it.
            (
                &[
                    &[
                        TRACEBACK_COLON,
                        "  File \"a.py\", line 1",
                        "    x()",
                        "KeyError: 'k'",
                    ],
                    &["INFO next"],
                ],
                &["KeyError: 'k'"],
            ),
            // Under the error line that logged it; not under an info line.
            (
                &[&[
                    "ERROR failed",
                    TRACEBACK_COLON,
                    "  File \"a.py\"",
                    "ValueError: v",
                ]],
                &["ValueError: v"],
            ),
            // Under a warning that logged it (`exc_info=True`).
            (
                &[&[
                    "WARNING retry: transient failure, will retry",
                    TRACEBACK_COLON,
                    "  File \"a.py\"",
                    "TimeoutError: upstream slow",
                ]],
                &["TimeoutError: upstream slow"],
            ),
            (
                &[
                    &["INFO fine"],
                    &[TRACEBACK_COLON, "  File \"a.py\"", "ValueError: v"],
                ],
                &["ValueError: v"],
            ),
            // Chained tracebacks are one record, named by each exception in turn (the
            // last one names it).
            (
                &[
                    &[
                        TRACEBACK_COLON,
                        "  File \"a.py\"",
                        "KeyError: 'a'",
                        "",
                        "During handling of the above exception, another exception occurred:",
                        "",
                        TRACEBACK_COLON,
                        "  File \"b.py\"",
                        "ValueError: b",
                    ],
                    &["next"],
                ],
                &["KeyError: 'a'", "ValueError: b"],
            ),
            // A syntax error: the frame, the source and a caret, no `Traceback` above.
            (
                &[
                    &[
                        "  File \"/app/x.py\", line 3",
                        "    print(\"a\"",
                        "         ^",
                        "SyntaxError: '(' was never closed",
                    ],
                    &["next"],
                ],
                &["SyntaxError: '(' was never closed"],
            ),
            // Under another line, which an indented frame would continue: the syntax
            // error's frame begins its own record, which keeps where the error is.
            (
                &[
                    &["INFO tick 3000"],
                    &[
                        "  File \"/app/x.py\", line 3",
                        "    print(\"a\"",
                        "         ^",
                        "IndentationError: unexpected indent",
                    ],
                    &["next"],
                ],
                &["IndentationError: unexpected indent"],
            ),
            // Dart's uncaught exception: its numbered frames, not indented, with the gaps
            // between asynchronous calls; named by the exception.
            (
                &[
                    &["Building..."],
                    &[
                        "Unhandled exception:",
                        "Bad state: No element",
                        "#0      ListBase.first (dart:collection/list.dart:62:5)",
                        "#1      load (file:///app/bin/app.dart:3:12)",
                        "<asynchronous suspension>",
                        "#2      main (file:///app/bin/app.dart:7:3)",
                    ],
                    &["#3 not a frame of it"],
                ],
                &["Bad state: No element"],
            ),
            // Node's module not found, thrown in its own module: the files that required
            // it, the stack, the error's properties after it.
            (
                &[
                    &["[build] compiling"],
                    &[
                        "node:internal/modules/cjs/loader:1210",
                        "  throw err;",
                        "  ^",
                        "",
                        "Error: Cannot find module './cfg.json'",
                        "Require stack:",
                        "- /app/build.js",
                        "- /app/main.js",
                        "    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)",
                        "    at Object.<anonymous> (/app/build.js:1:11) {",
                        "  code: 'MODULE_NOT_FOUND',",
                        "  requireStack: [ '/app/build.js', '/app/main.js' ]",
                        "}",
                    ],
                    &[""],
                    &["Node.js v20.20.2"],
                    // Not under a line that is no error.
                    &["done"],
                    &["Require stack:"],
                    &["- /app/x.js"],
                    // A script given to `node -e`, and on its input.
                    &[
                        "[eval]:1",
                        "let o=null; o.x",
                        "              ^",
                        "",
                        "TypeError: Cannot read properties of null (reading 'x')",
                        "    at [eval]:1:15",
                    ],
                    &["[stdin]:3", "boom()", "^", "", "ReferenceError: boom is not defined"],
                    &["[eval]:a1"],
                    &["[other]:1"],
                ],
                &[
                    "Error: Cannot find module './cfg.json'",
                    "TypeError: Cannot read properties of null (reading 'x')",
                    "ReferenceError: boom is not defined",
                ],
            ),
            // TAP's results with their YAML blocks (`node --test`).
            (
                &[
                    &["# Subtest: case 2"],
                    &[
                        "not ok 3 - case 2",
                        "  ---",
                        "  duration_ms: 2.2",
                        "  error: |-",
                        "    value mismatch in case 2",
                        "  code: 'ERR_ASSERTION'",
                        "  stack: |-",
                        "    TestContext.<anonymous> (/tmp/t.test.js:3:62)",
                        "  ...",
                    ],
                    &["# Subtest: case 3"],
                    &["ok 4 - case 3", "  ---", "  duration_ms: 0.3", "  ..."],
                    &["1..4"],
                ],
                &[],
            ),
            // Perl's Test::More under prove: the diagnostics of a failed test.
            (
                &[
                    &["ok 1 - loads"],
                    &[
                        "not ok 2 - adds",
                        "#   Failed test 'adds'",
                        "#   at t/add.t line 5.",
                        "#          got: '3'",
                        "#     expected: '4'",
                    ],
                    &["# Looks like you failed 1 test of 2."],
                ],
                &[],
            ),
            // Lua's error and its traceback, frames indented by a tab.
            (
                &[
                    &[
                        "lua: app.lua:3: attempt to index a nil value (global 'cfg')",
                        "stack traceback:",
                        "\t[C]: in ?",
                        "\tapp.lua:3: in local 'load'",
                        "\t(...tail calls...)",
                        "\t[string \"init\"]:7: in main chunk",
                        "\t[C]: in ?",
                    ],
                    // Not under a line that is no error.
                    &["done"],
                    &["stack traceback:"],
                ],
                &[],
            ),
            // Ruby's uncaught exception and its frames.
            (
                &[
                    &[
                        "app.rb:2:in 'Object#foo': boom (RuntimeError)",
                        "\tfrom app.rb:5:in 'Object#bar'",
                        "\tfrom app.rb:8:in '<main>'",
                    ],
                    &["INFO next"],
                ],
                &[],
            ),
            // CMake's error: its message's paragraphs, named by its first line.
            (
                &[
                    &["-- Detecting C compiler ABI info"],
                    &[
                        "CMake Error at CMakeLists.txt:3 (project):",
                        "  No CMAKE_CXX_COMPILER could be found.",
                        "",
                        "  Tell CMake where to find the compiler by setting either the environment",
                        "",
                    ],
                    &["-- Configuring incomplete, errors occurred!"],
                    &[
                        "CMake Warning (dev) at CMakeLists.txt:9 (find_package):",
                        "  Policy CMP0144 is not set.",
                        "Call Stack (most recent call first):",
                        "  CMakeLists.txt:9 (find_package)",
                    ],
                    &["CMake Error: The source directory \"/x\" does not exist."],
                ],
                &["  No CMAKE_CXX_COMPILER could be found.", "  Policy CMP0144 is not set."],
            ),
            // ShellCheck's place, source and findings under carets (shellcheck 0.9).
            (
                &[
                    &[
                        "In deploy.sh line 3:",
                        "cp $1 $2",
                        "   ^-- SC2086 (info): Double quote to prevent globbing and word splitting.",
                        "      ^-- SC2086 (info): Double quote to prevent globbing and word splitting.",
                    ],
                    &[""],
                    &["Did you mean: "],
                ],
                &["   ^-- SC2086 (info): Double quote to prevent globbing and word splitting."],
            ),
            // ESLint's table: each file's name, its findings under it.
            (
                &[
                    &[
                        "/home/me/app/src/index.js",
                        "   1:10  error    'fs' is defined but never used  no-unused-vars",
                        "  12:3   warning  Unexpected console statement    no-console",
                    ],
                    &[""],
                    &["/home/me/app/src/util.js", "  4:1  error  Parsing error: Unexpected token }"],
                    &[""],
                    &["✖ 3 problems (2 errors, 1 warning)"],
                    // A list of files is no table.
                    &["src/a.js"],
                    &["src/b.js"],
                    &["Done in 3.5s."],
                ],
                &[
                    "   1:10  error    'fs' is defined but never used  no-unused-vars",
                    "  4:1  error  Parsing error: Unexpected token }",
                ],
            ),
            // Node's uncaught exception (node 20): where it was thrown, the source, a caret,
            // the exception and its stack; a thrown string with no stack.
            (
                &[
                    &["INFO serving"],
                    &[
                        "/tmp/t/a.js:3",
                        "  throw new Error(\"boom\");",
                        "  ^",
                        "",
                        "Error: boom",
                        "    at f (/tmp/t/a.js:3:9)",
                        "    at Object.<anonymous> (/tmp/t/a.js:5:1)",
                    ],
                    &[""],
                    &["Node.js v20.20.2"],
                ],
                &["Error: boom"],
            ),
            (
                &[
                    &["file:///tmp/t/c.mjs:2", "console.log(o.x);", "              ^", "", "TypeError: Cannot read properties of null (reading 'x')", "    at file:///tmp/t/c.mjs:2:15"],
                    &["C:\\app\\d.js:1", "throw \"boom\";", "^", "boom"],
                    &["(Use `node --trace-uncaught ...` to show where the exception was thrown)"],
                ],
                &["TypeError: Cannot read properties of null (reading 'x')", "boom"],
            ),
            // Without a caret under the line after it, nothing more joins it.
            (
                &[&["/srv/app/index.js:12", "listening"], &["ready"]],
                &[],
            ),
            // A list of places: each its own.
            (
                &[&["/srv/a.js:1"], &["/srv/b.js:2"], &["/srv/c.ts:3"]],
                &[],
            ),
            // A second traceback without a chain line is another record.
            (
                &[
                    &[TRACEBACK_COLON, "  File \"a.py\"", "KeyError: 'a'"],
                    &[TRACEBACK_COLON, "  File \"b.py\"", "ValueError: b"],
                ],
                &["KeyError: 'a'", "ValueError: b"],
            ),
            // Java: the exception under the line that logged it, frames, causes.
            (
                &[
                    &[
                        "ERROR request failed",
                        "java.io.IOException: closed",
                        "\tat a.B.c(B.java:1)",
                        "Caused by: java.net.SocketException: reset",
                        "\t... 3 more",
                    ],
                    &["INFO next"],
                ],
                &["java.io.IOException: closed"],
            ),
            // The JDBC driver's PostgreSQL error, its fields indented under it.
            (
                &[
                    &[
                        "ERROR insert failed",
                        "org.springframework.dao.DuplicateKeyException: insert",
                        "\tat a.B.c(B.java:1)",
                        "Caused by: org.postgresql.util.PSQLException: ERROR: duplicate key",
                        "  Detail: Key (id)=(991) already exists.",
                        "  Where: SQL statement \"insert\"",
                        "\tat org.postgresql.core.v3.QueryExecutorImpl.receive(Q.java:2676)",
                    ],
                    &["INFO next"],
                ],
                &["org.springframework.dao.DuplicateKeyException: insert"],
            ),
            // PostgreSQL's messages as psql prints them, with their details.
            (
                &[
                    &[
                        "psql:m.sql:1203: ERROR:  duplicate key value violates unique constraint \"k\"",
                        "DETAIL:  Key (sku)=(SKU-00017) already exists.",
                    ],
                    &["INSERT 0 1"],
                    &[
                        "psql:m.sql:2505: ERROR:  column \"qnty\" does not exist",
                        "LINE 1: SELECT sku, qnty FROM items WHERE id = 1;",
                        "                    ^",
                        "HINT:  Perhaps you meant to reference the column \"items.qty\".",
                    ],
                    &["UPDATE 3"],
                    // The server's log, each line after its prefix (the time is read
                    // apart by the caller: here the prefix's rest).
                    &[
                        "UTC [4242] ERROR:  deadlock detected",
                        "UTC [4242] DETAIL:  Process 4242 waits for ShareLock; blocked by 4243.",
                        "UTC [4242] HINT:  See server log for query details.",
                        "UTC [4242] STATEMENT:  UPDATE accounts SET x = 1",
                    ],
                    &["UTC [4243] LOG:  DETAIL:  not a part of a message"],
                ],
                &[],
            ),
            // A traceback under uvicorn's line, whose level is padded as PostgreSQL's.
            (
                &[
                    &["INFO:     Started server process [1]"],
                    &[
                        "ERROR:    Exception in ASGI application",
                        "Traceback (most recent call last):",
                        "  File \"/app/main.py\", line 40, in checkout",
                        "    order = await db.fetch_one(q)",
                        "asyncpg.exceptions.UndefinedColumnError: column orders.coupon_id does not exist",
                    ],
                    &["INFO:     172.18.0.1:5000 - \"GET /health HTTP/1.1\" 200 OK"],
                ],
                &["asyncpg.exceptions.UndefinedColumnError: column orders.coupon_id does not exist"],
            ),
            // Java: a suppressed exception, with its cause, is the thrown one's.
            (
                &[
                    &[
                        "Exception in thread \"main\" app.DataException: ingest failed",
                        "\tat app.Main.main(Main.java:13)",
                        "\tSuppressed: java.lang.RuntimeException: close failed",
                        "\t\t... 2 more",
                        "\tCaused by: java.io.IOException: flush failed",
                        "\t\t... 3 more",
                        "Caused by: java.io.IOException: disk full",
                        "\t... 3 more",
                    ],
                    &["INFO next"],
                ],
                &[],
            ),
            // Rust: the message after the header, indented lines, the backtrace, notes.
            (
                &[
                    &[
                        "thread 'main' panicked at src/main.rs:2:5:",
                        "boom",
                        "  left: 1",
                        "stack backtrace:",
                        "note: run with `RUST_BACKTRACE=1`",
                    ],
                    &["next"],
                ],
                &["boom"],
            ),
            // Before Rust 1.73 the header held the message.
            (
                &[
                    &[
                        "thread 'main' panicked at 'boom', src/main.rs:2:5",
                        "note: run with `RUST_BACKTRACE=1`",
                    ],
                    &["next"],
                ],
                &[],
            ),
            // Go: the goroutines' stacks, blank lines included.
            (
                &[
                    &[
                        "panic: boom",
                        "",
                        "goroutine 1 [running]:",
                        "main.main()",
                        "\t/app/main.go:5 +0x1d",
                    ],
                    &["exit status 2"],
                ],
                &[],
            ),
            // A compiler's location and annotated source, under its header only.
            (
                &[
                    &[
                        "error[E0308]: mismatched types",
                        " --> src/main.rs:4:18",
                        "  |",
                        "4 |     let x: u32 = \"a\";",
                        "  |                  ^^^ expected",
                        "help: try a conversion",
                        "  |",
                        "4 -     let x: u32 = \"a\";",
                        "4 +     let x: u32 = \"a\".parse();",
                    ],
                    &["INFO done"],
                    &["2 | a table's row"],
                    &["note: not under a diagnostic"],
                ],
                &[],
            ),
            // gcc's note on the error above.
            (
                &[
                    &[
                        "a.c:4:20: error: 'y' undeclared",
                        "    4 |  f(y);",
                        "      |    ^",
                        "a.c:4:20: note: each undeclared identifier is reported only once",
                    ],
                    &["a.c:5:13: error: expected ';'"],
                ],
                &[],
            ),
            // javac's source, caret and what it could not find (JDK 17); tsc's
            // elaboration.
            (
                &[
                    &[
                        "Main.java:5: error: cannot find symbol",
                        "    int y = undefinedVar + 1;",
                        "            ^",
                        "  symbol:   variable undefinedVar",
                        "  location: class Main",
                    ],
                    &["Main.java:6: warning: [removal] Integer(int) in Integer has been deprecated"],
                    &["1 error"],
                    &[
                        "src/a.ts(3,7): error TS2322: Type '{ a: string; }' is not assignable to type 'T'.",
                        "  Types of property 'a' are incompatible.",
                    ],
                    &["Found 1 error."],
                    &[
                        "[ERROR] /p/src/main/java/Main.java:[5,13] cannot find symbol",
                        "  symbol:   variable undefinedVar",
                        "  location: class Main",
                    ],
                    &["[ERROR] -> [Help 1]"],
                    &["[ERROR] Failed to execute goal on project p: a:[1] b"],
                ],
                &[],
            ),
            // gcc's context above a diagnostic: the includes' chain and the function,
            // a template's instantiation (gcc 13 shows where in a gutter); the
            // diagnostic names the record. A context with no diagnostic under it is a
            // record of its own, and a log's `In …:` is no context.
            (
                &[
                    &[
                        "In file included from bar.h:1,",
                        "                 from main.c:1:",
                        "foo.h: In function ‘foo’:",
                        "foo.h:1:43: error: ‘y’ undeclared",
                        "    1 | int foo(int x) { return x + y; }",
                        "      |                             ^",
                        "foo.h:1:43: note: each undeclared identifier is reported only once",
                    ],
                    &["main.c:2:22: warning: unused variable ‘unused’"],
                    &[
                        "u.cpp: In instantiation of ‘void g(T) [with T = int]’:",
                        "u.cpp:2:14:   required from here",
                        "    2 | int main(){ g(1); }",
                        "      |             ~^~~",
                        "u.cpp:1:37: error: request for member ‘foo’ in ‘x’",
                    ],
                    &["a.c: At top level:"],
                    &["make: *** [Makefile:2: all] Error 1"],
                    &["INFO: In function calls:"],
                    &["a.c:1:1: error: x"],
                ],
                &[
                    "foo.h:1:43: error: ‘y’ undeclared",
                    "u.cpp:1:37: error: request for member ‘foo’ in ‘x’",
                ],
            ),
            // .NET: the message and exception indented under `fail: Category[id]`, inner
            // exceptions among the frames.
            (
                &[
                    &[
                        "fail: Api.Controller[13]",
                        "      Unhandled",
                        "      System.Exception: outer",
                        " ---> System.IO.IOException: inner",
                        "   at Api.Run()",
                        "   --- End of inner exception stack trace ---",
                    ],
                    &["info: Api.Next[0]"],
                ],
                // Its message names it, then the exception logged with it.
                &["      Unhandled", "      System.Exception: outer"],
            ),
            // go test: a failed test's log and its subtests' failures, indented under it.
            (
                &[
                    &["=== RUN   TestGet"],
                    &[
                        "--- FAIL: TestGet (0.00s)",
                        "    --- FAIL: TestGet/missing (0.00s)",
                        "        store_test.go:12: expected 3, got 4",
                    ],
                    &["FAIL"],
                ],
                &[],
            ),
            // java.util.logging: the level and message on the line after the time and
            // source, then the exception logged with them; a level line under anything
            // else is a record of its own, and so is a second one.
            (
                &[
                    &[
                        "Jan 05, 2024 10:00:06 AM org.example.App main",
                        "SEVERE: Connection refused",
                        "java.net.ConnectException: refused",
                        "\tat org.example.App.main(App.java:7)",
                    ],
                    &["org.example.App main", "INFO: retrying"],
                    &["WARNING: second"],
                    &["Jan 05, 2024 10:00:07 AM org.example.App main"],
                    &["INFO started"],
                    &["WARNING: not under a source line"],
                ],
                &[
                    "SEVERE: Connection refused",
                    "java.net.ConnectException: refused",
                    "INFO: retrying",
                ],
            ),
        ]);
    }

    #[test]
    fn rusts_stack_overflow_is_one_record() {
        // Rust 1.95: the thread's line, then the runtime's abort.
        splits_alike(&[(
            &[
                &["[parser-1] parsed chunk 1499"],
                &[
                    "thread 'parser-3' (19404) has overflowed its stack",
                    "fatal runtime error: stack overflow, aborting",
                ],
                &["exit=134"],
                // The abort alone, or after another line: its own.
                &["fatal runtime error: stack overflow, aborting"],
                &["thread 'main' has overflowed its stack"],
                &["[parser-1] parsed chunk 1500"],
            ],
            &[],
        )]);
    }

    #[test]
    fn pips_debug_dump_is_one_record_and_no_error() {
        // pip 23.2 `install -v`: the error it reported, then its own traceback at debug.
        let dump = [
            "Exception information:",
            "Traceback (most recent call last):",
            "  File \"/v/lib/python3.11/site-packages/pip/_vendor/resolvelib/resolvers.py\", line 316, in _backjump",
            "    name, candidate = broken_state.mapping.popitem()",
            "KeyError: 'dictionary is empty'",
        ];
        splits_alike(&[(
            &[
                &["ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/"],
                &dump,
                &["Remote version of pip: 24.0"],
                // Not under it: a traceback of its own.
                &["Exception information:"],
                &["done"],
            ],
            &["KeyError: 'dictionary is empty'"],
        )]);
        let mut record = MultiLine::new(Indented::ByRule);
        record.start(dump[0], None, None);
        for line in &dump[1..] {
            let found = inspect(line);
            record.push(line, found.severity, found.opens);
        }
        assert_eq!(record.severity(), None);
    }

    #[test]
    fn pylints_duplicate_code_is_one_record_of_its_level() {
        // pylint 3.3: the code two modules share, blank lines of it too, up to the next
        // message; the exceptions the code names are no error of the record's.
        let similar = [
            "checkers/utils.py:1:0: R0801: Similar lines in 2 files",
            "==urllib3.connection:[250:257]",
            "==urllib3.contrib.socks:[146:153]",
            "            ) from e",
            "",
            "        except OSError as e:",
            "            raise NewConnectionError(",
            "                f\"bad: E1234 code, not a message\", {\"key: a1234:\": 1}",
            " (duplicate-code)",
        ];
        splits_alike(&[(
            &[
                &similar,
                &["requests/sessions.py:84:4: E0602: Undefined variable '_log_merge' (undefined-variable)"],
                &similar[..4],
                &["************* Module idna.cli"],
                &similar[..4],
                &["-----------------------------------"],
                &["Your code has been rated at 9.12/10"],
            ],
            &[],
        )]);
        assert_eq!(severity_of(&similar), Some(Severity::Warn));
    }

    #[test]
    fn mypys_note_of_a_scope_heads_the_error_under_it() {
        // mypy 1.13 `--show-error-context`: the note names the scope of the error after
        // it, not more of the error before it; a note on an error's line is that error's.
        splits_alike(&[(
            &[
                &["dill/__diff.py:30: error: Need type annotation for \"id_to_obj\"  [var-annotated]"],
                &[
                    "dill/__diff.py: note: In function \"get_attrs\":",
                    "dill/__diff.py:37: error: Function is missing a type annotation  [no-untyped-def]",
                ],
                &[
                    "astroid/rebuilder.py: note: In member \"visit_annassign\" of class \"TreeRebuilder\":",
                    "astroid/rebuilder.py:748: error: Argument \"target\" has incompatible type \"NodeNG\"  [arg-type]",
                    "astroid/rebuilder.py:748: note: \"list\" is invariant",
                ],
                &["a.py: note: In class \"A\":", "a.py:3: error: Name \"x\" is not defined  [name-defined]"],
                &["Found 3 errors in 2 files (checked 40 source files)"],
            ],
            // Each named by its error.
            &[
                "dill/__diff.py:37: error: Function is missing a type annotation  [no-untyped-def]",
                "astroid/rebuilder.py:748: error: Argument \"target\" has incompatible type \"NodeNG\"  [arg-type]",
                "a.py:3: error: Name \"x\" is not defined  [name-defined]",
            ],
        )]);
    }

    #[test]
    fn pythons_warnings_keep_the_source_line_they_were_raised_at() {
        // As Python 3.11's `warnings` module prints them to stderr.
        splits_alike(&[(
            &[
                &[
                    "app/migrate.py:2: DeprecationWarning: the imp module is deprecated",
                    "  import imp",
                ],
                &[
                    "/srv/app/db.py:14: UserWarning: cast loses precision",
                    "  warnings.warn(\"cast loses precision\", UserWarning)",
                ],
                // Its source not found: a line alone.
                &["<string>:1: SyntaxWarning: invalid escape sequence '\\d'"],
                &["step 1 ok"],
                &["lib/x.py:3: Warning: old call"],
                &["step 2 ok"],
            ],
            &[],
        )]);
        // Its one source line, indented by two spaces (under a log that continues a
        // record by indented lines, any indented line goes on).
        let lines = [
            "app/migrate.py:2: DeprecationWarning: the imp module is deprecated",
            "  import imp",
            "  a line of its own",
            "app/migrate.py:3: DeprecationWarning: module 'sre_constants' is deprecated",
            "    deeper: not its source",
        ];
        let (got, _) = records(Indented::ByRule, &lines);
        let expected: &[&[&str]] = &[&lines[..2], &lines[2..3], &lines[3..4], &lines[4..]];
        assert_eq!(got, expected);
        assert!(is_python_warning("x.py:3: ResourceWarning: unclosed file"));
        assert!(is_python_warning(
            "x.py:3: Pytest_Warning: a category's name"
        ));
        for line in [
            "WARNING: DATA RACE",
            "x.py: DeprecationWarning: no line",
            "x.py:: UserWarning: no line",
            "retry 3: UserWarning: no file",
            ":3: UserWarning: no file",
            "x.py:3: User-Warning: not a category",
            "a.c:3:5: warning: unused variable",
        ] {
            assert!(!is_python_warning(line), "{line}");
        }
    }

    #[test]
    fn memory_checkers_reports_stay_whole() {
        // As valgrind 3.19 and gcc 12's sanitizers printed them (abridged).
        splits_alike(&[
            // valgrind: each report's details, indented behind its process's prefix.
            (
                &[
                    &["==28738== Command: ./leak"],
                    &["==28738== "],
                    &["step 3 ok"],
                    &[
                        "==28738== Invalid write of size 1",
                        "==28738==    at 0x10921A: main (leak.c:7)",
                        "==28738==  Address 0x4a40138 is 0 bytes after a block of size 8 alloc'd",
                        "==28738==    at 0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)",
                        "==28738==    by 0x109170: mk (leak.c:4)",
                    ],
                    &["==28738== "],
                    &[
                        "==28738== 8 bytes in 1 blocks are definitely lost in loss record 1 of 2",
                        "==28738==    at 0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)",
                        "==28738==    by 0x109170: mk (leak.c:4)",
                    ],
                    // Another process's lines are not this one's.
                    &["==28739==    by 0x10920D: main (leak.c:7)"],
                    // A report glued after output that did not end its line (stdout's
                    // `printf` without `\n`, then the report on stderr).
                    &[
                        "op=17 hit=value-14==28738== Invalid read of size 4",
                        "==28738==    at 0x10939C: main (lru.c:22)",
                    ],
                    // Not a report: a prefix in the middle of a line, but no error.
                    &["left==28738== Command: ./leak"],
                    &["==28738==    at 0x10939C: main (lru.c:22)"],
                    &["==28738== "],
                    &[
                        "==28738== LEAK SUMMARY:",
                        "==28738==    definitely lost: 56 bytes in 4 blocks",
                        "==28738==    indirectly lost: 0 bytes in 0 blocks",
                    ],
                    &["==28738== "],
                    &["==28738== ERROR SUMMARY: 3 errors from 3 contexts (suppressed: 0 from 0)"],
                ],
                &[],
            ),
            // AddressSanitizer: the report's parts up to its summary; the shadow bytes'
            // dump and legend, one record.
            (
                &[
                    &["AddressSanitizer:DEADLYSIGNAL"],
                    &["================================================================="],
                    &[
                        "==28846==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000010 at pc 0x55a2502101d2 bp 0x7fff9c2c24d0 sp 0x7fff9c2c24c8",
                        "READ of size 4 at 0x602000000010 thread T0",
                        "    #0 0x55a2502101d1 in main /tmp/ex/uaf.c:2",
                        "",
                        "0x602000000010 is located 0 bytes inside of 4-byte region [0x602000000010,0x602000000014)",
                        "freed by thread T0 here:",
                        "    #0 0x7f4031cb76a8 in __interceptor_free ../../../../src/libsanitizer/asan/asan_malloc_linux.cpp:52",
                        "",
                        "previously allocated by thread T0 here:",
                        "    #1 0x55a25021018a in main /tmp/ex/uaf.c:2",
                        "==28846==Hint: address points to the zero page.",
                        "AddressSanitizer can not provide additional info.",
                        "SUMMARY: AddressSanitizer: heap-use-after-free /tmp/ex/uaf.c:2 in main",
                    ],
                    &[
                        "Shadow bytes around the buggy address:",
                        "  0x0c047fff7ff0: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00",
                        "=>0x0c047fff8000: fa fa[fd]fa fa fa fa fa fa fa fa fa fa fa fa fa",
                        "Shadow byte legend (one shadow byte represents 8 application bytes):",
                        "  Addressable:           00",
                    ],
                    &["==28846==ABORTING"],
                ],
                &[],
            ),
            // LeakSanitizer's report, its leaks set apart by blank lines.
            (
                &[
                    &["step 2999 ok"],
                    &[
                        "==28852==ERROR: LeakSanitizer: detected memory leaks",
                        "",
                        "Direct leak of 16 byte(s) in 1 object(s) allocated from:",
                        "    #1 0x55711eb07180 in keep /tmp/ex/lsan.c:2",
                        "",
                        "Indirect leak of 32 byte(s) in 1 object(s) allocated from:",
                        "    #1 0x55711eb071b6 in main /tmp/ex/lsan.c:3",
                        "",
                        "SUMMARY: AddressSanitizer: 64 byte(s) leaked in 4 allocation(s).",
                    ],
                    &["done"],
                ],
                &[],
            ),
            // ThreadSanitizer's; a line no report holds ends one cut short.
            (
                &[
                    &["=================="],
                    &[
                        "WARNING: ThreadSanitizer: data race (pid=28865)",
                        "  Read of size 4 at 0x55c4aeb2405c by thread T2:",
                        "    #0 w /tmp/ex/race.c:4 (race+0x11e0)",
                        "",
                        "  Thread T2 (tid=28868, running) created by main thread at:",
                        "    #1 main /tmp/ex/race.c:5 (race+0x1260)",
                        "",
                        "SUMMARY: ThreadSanitizer: data race /tmp/ex/race.c:4 in w",
                    ],
                    &["=================="],
                    &["ThreadSanitizer: reported 1 warnings"],
                    &["==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000"],
                    &["step 4 ok"],
                ],
                &[],
            ),
            // Go's race detector (its documentation's example), up to its closing rule.
            (
                &[
                    &["=================="],
                    &[
                        "WARNING: DATA RACE",
                        "Read at 0x00c00001a0f8 by goroutine 7:",
                        "  main.main.func1()",
                        "      /home/user/race.go:14 +0x3c",
                        "",
                        "Previous write at 0x00c00001a0f8 by main goroutine:",
                        "  main.main()",
                        "      /home/user/race.go:15 +0x88",
                        "",
                        "Goroutine 7 (running) created at:",
                        "  main.main()",
                        "      /home/user/race.go:13 +0x7e",
                    ],
                    &["=================="],
                    &["Found 1 data race(s)"],
                ],
                &[],
            ),
            // UndefinedBehaviorSanitizer's frames follow its diagnostic.
            (
                &[
                    &[
                        "ub.c:3:54: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'",
                        "    #0 0x55807ed9e1b8 in main /tmp/ex/ub.c:3",
                        "    #1 0x7fadbf845249 in __libc_start_call_main ../sysdeps/nptl/libc_start_call_main.h:58",
                    ],
                    &[""],
                ],
                &[],
            ),
        ]);
    }

    #[test]
    fn terraform_and_gradle_keep_what_failed() {
        splits_alike(&[
            // Terraform's box: the lines behind its `│`, not the box's ends.
            (
                &[
                    &["Planning..."],
                    &["╷"],
                    &[
                        "│ Error: Invalid reference",
                        "│ ",
                        "│   on main.tf line 3, in resource \"aws_instance\" \"x\":",
                        "│    3:   ami = var.nope",
                    ],
                    &["╵"],
                    &["╷"],
                    &["│ Warning: Deprecated argument"],
                    &["╵"],
                    &["│ a table's row"],
                ],
                &[],
            ),
            // Terraform without its box (`-no-color`): the title, where, the source and
            // the explanation, up to the next title.
            (
                &[
                    &["Planning..."],
                    &[
                        "Error: Reference to undeclared local value",
                        "",
                        "  with aws_instance.x,",
                        "  on main.tf line 6, in output \"o0\":",
                        "   6:   value = local.missing_0",
                        "",
                        "A local value with the name \"missing_0\" has not been declared.",
                        "",
                        "Another paragraph of it.",
                        "",
                    ],
                    &[
                        "Warning: Deprecated argument",
                        "",
                        "  on main.tf line 9, in output \"o1\":",
                        "   9:   x = 1",
                        "",
                    ],
                    // Not Terraform's: a blank line, then no place.
                    &["Error: connection refused", ""],
                    &["retrying"],
                ],
                &[],
            ),
            // What a CI job prints after it is not its explanation: a line that says
            // something failed, the shell's next command, or past a few lines of prose.
            (
                &[
                    &[
                        "Error: creating EC2 Instance: InvalidParameterValue",
                        "",
                        "  with aws_instance.web,",
                        "  on main.tf line 14, in resource \"aws_instance\" \"web\":",
                        "  14: resource \"aws_instance\" \"web\" {",
                        "",
                    ],
                    &["make: *** [Makefile:12: plan] Error 1"],
                    &["$ terraform plan -no-color"],
                ],
                &[],
            ),
            (
                &[
                    &[
                        "Error: Unsupported argument",
                        "",
                        "  on main.tf line 3, in resource \"x\" \"y\":",
                        "   3:   foo = 1",
                        "",
                        "a1",
                        "a2",
                        "a3",
                        "a4",
                        "a5",
                        "a6",
                        "a7",
                        "a8",
                    ],
                    &["a9"],
                    &["a10"],
                ],
                &[],
            ),
            // Gradle: what failed, up to the blank line before `* Try:`; the line under
            // the header names the record.
            (
                &[
                    &["FAILURE: Build failed with an exception."],
                    &[""],
                    &[
                        "* What went wrong:",
                        "Execution failed for task ':compileJava'.",
                        "> Compilation failed; see the compiler error output for details.",
                    ],
                    &[""],
                    &["* Try:"],
                ],
                &["Execution failed for task ':compileJava'."],
            ),
        ]);
    }

    #[test]
    fn a_test_runners_report_is_named_by_what_it_says_first() {
        let said =
            |record: &[&'static str]| what_went_wrong(record[0], record[1..].iter().copied());
        // Jest's: the matcher, or the error.
        let jest = [
            "● cart › adds",
            "",
            "  expect(received).toEqual(expected) // deep equality",
            "  Expected: -6",
        ];
        assert_eq!(said(&jest), Some(jest[2]));
        // TAP's: its YAML block's `error`, a block's first line or the value.
        let tap = [
            "not ok 61 - multiplies correctly",
            "  ---",
            "  duration_ms: 3.27",
            "  error: |-",
            "    Expected values to be strictly deep-equal:",
            "    + actual - expected",
        ];
        assert_eq!(said(&tap), Some(tap[4]));
        let tap = [
            "not ok 2 - loads",
            "  ---",
            "  error: 'boom'",
            "  code: 'ERR'",
        ];
        assert_eq!(said(&tap), Some(tap[2]));
        assert_eq!(said(&["not ok 3 - x", "  ---", "  duration_ms: 1"]), None);
        // rspec's: its `Failure/Error:` line.
        let rspec = [
            "  1) Calculator adds",
            "     Failure/Error: expect(calc.add(1, 2)).to eq(3)",
            "",
            "       expected: 3",
        ];
        assert_eq!(said(&rspec), Some(rspec[1]));
    }

    #[test]
    fn a_jest_failure_keeps_what_failed() {
        let lines = [
            " FAIL  src/app.test.ts",
            "  ● adds › works",
            "",
            "    expect(received).toBe(expected) // Object.is equality",
            "",
            "      at Object.<anonymous> (src/app.test.ts:4:21)",
            "",
            "  ● adds › also",
            "    boom",
            "  ● Console",
            "    console.log",
            " PASS  src/other.test.ts",
            "Test Suites: 1 failed, 1 passed, 2 total",
        ];
        let (split, starts) = split_by_rule(&lines);
        assert_eq!(
            starts,
            [
                " FAIL  src/app.test.ts",
                "  ● adds › works",
                "  ● adds › also",
                "  ● Console",
                "    console.log",
                " PASS  src/other.test.ts",
                "Test Suites: 1 failed, 1 passed, 2 total",
            ]
        );
        assert_eq!(split[1].len(), 6, "{split:?}");
        assert_eq!(split[2].len(), 2, "{split:?}");
    }

    #[test]
    fn a_unittest_report_keeps_its_traceback_and_diff() {
        const EQUALS: &str =
            "======================================================================";
        const DASHES: &str =
            "----------------------------------------------------------------------";
        splits_alike(&[(
            &[
                &["test_dict (t.T.test_dict) ... FAIL"],
                &[EQUALS],
                &[
                    "FAIL: test_dict (t.T.test_dict)",
                    DASHES,
                    TRACEBACK_COLON,
                    "  File \"/tmp/t.py\", line 8, in test_dict",
                    "    self.assertEqual({\"a\": 1}, {\"a\": 3})",
                    "AssertionError: {'a': 1} != {'a': 3}",
                    "- {'a': 1}",
                    "?       ^",
                    "",
                    "+ {'a': 3}",
                    "?       ^",
                    "",
                ],
                &[EQUALS],
                // Python before 3.11 names the class alone; a docstring's first line
                // follows the header; a chained traceback.
                &[
                    "ERROR: test_load (t.T)",
                    "Loads the file.",
                    DASHES,
                    TRACEBACK_COLON,
                    "  File \"/tmp/t.py\", line 3, in test_load",
                    "KeyError: 'k'",
                    "",
                    "During handling of the above exception, another exception occurred:",
                    "",
                    TRACEBACK_COLON,
                    "  File \"/tmp/t.py\", line 5, in test_load",
                    "ValueError: v",
                    "",
                ],
                &[EQUALS],
                &[
                    "FAIL: test_sub (t.T.test_sub) (i=2)",
                    DASHES,
                    TRACEBACK_COLON,
                    "  File \"/tmp/t.py\", line 9, in test_sub",
                    "AssertionError: 2 != 3",
                    "",
                ],
                &[DASHES],
                &["Ran 3 tests in 0.001s"],
                &[""],
                &["FAILED (failures=2, errors=1)"],
            ],
            &[
                "AssertionError: {'a': 1} != {'a': 3}",
                "KeyError: 'k'",
                "ValueError: v",
                "AssertionError: 2 != 3",
            ],
        )]);
        for line in [
            "FAIL: test_add (test_calc.TestCalc.test_add)",
            "ERROR: setUpClass (t.T)",
            "ERROR: test_calc (unittest.loader._FailedTest.test_calc)",
        ] {
            assert!(is_unittest_report(line), "{line}");
        }
        // Not under unittest's rule: a line of its own, whatever follows.
        let (_, starts) = split_by_rule(&[
            "starting",
            "FAIL: healthcheck (svc.web)",
            "GET / 200",
            "GET /a 200",
        ]);
        assert_eq!(starts.len(), 4, "{starts:?}");
        for line in [
            "FAIL: tests/a.py::test_x - assert 1 == 2",
            "ERROR: could not install (see log)",
            "FAIL: test_a (local)",
            "ERROR: x (a.b",
        ] {
            assert!(!is_unittest_report(line), "{line}");
        }
    }

    #[test]
    fn a_mocha_failure_keeps_what_failed() {
        let lines = [
            "  2 failing",
            "",
            "  1) Array",
            "       #indexOf()",
            "         should return -1:",
            "",
            "      AssertionError: expected 0 to equal -1",
            "",
            "1 !== 0",
            "+ actual - expected",
            "- [ 1 ]",
            "      + expected - actual",
            "",
            "      at Context.<anonymous> (test/array.js:7:14)",
            "",
            "  2) User loads:",
            "     Error: ENOENT: no such file",
            "npm ERR! Test failed.",
            "  3) top-level test",
            "  ✓ passes",
            "  1) top-level test",
            "  1 passing (3ms)",
            "  12)no space",
        ];
        let (split, starts) = split_by_rule(&lines);
        assert_eq!(
            starts,
            [
                "  2 failing",
                "",
                "  1) Array",
                "  2) User loads:",
                "npm ERR! Test failed.",
                "  3) top-level test",
                "  ✓ passes",
                "  1) top-level test",
                "  1 passing (3ms)",
                "  12)no space",
            ]
        );
        assert_eq!(split[2].len(), 13, "{split:?}");
        assert_eq!(split[3].len(), 2, "{split:?}");
    }

    #[test]
    fn java_util_logging_headers_and_messages() {
        for header in [
            "Jan 05, 2024 10:00:06 AM org.example.App main",
            "Jan 5, 2024 1:00:06 PM org.example.App$Inner <init>",
            "org.example.App lambda$main$0",
            "Dec 02, 2026 9:54:19 AM Jul main",
        ] {
            assert!(is_java_util_logging_header(header), "{header}");
        }
        for not_one in [
            "Jan 05, 2024 10:00:06 org.example.App main",
            "started org.example.App main",
            "App main",
            "org.example.App main()",
            "org.example.App",
            "",
        ] {
            assert!(!is_java_util_logging_header(not_one), "{not_one}");
        }
        for message in ["SEVERE: x", "WARNING: disk low", "FINEST: y"] {
            assert!(is_java_util_logging_message(message), "{message}");
        }
        for not_one in ["SEVERE x", "Severe: x", "ERROR: x", "  SEVERE: x"] {
            assert!(!is_java_util_logging_message(not_one), "{not_one}");
        }
    }

    #[test]
    fn indented_lines_no_rule_names_follow_the_policy() {
        let lines = ["INFO table:", "  a  1", "  b  2", "next"];
        let (by_rule, _) = records(Indented::ByRule, &lines);
        assert_eq!(
            by_rule,
            [&lines[..1], &lines[1..2], &lines[2..3], &lines[3..]]
        );
        let (continued, _) = records(Indented::Continue, &lines);
        assert_eq!(continued, [&lines[..3], &lines[3..]]);
        // After a traceback's exception, an indented line goes on only where indented
        // lines go on anyway: a container's output.
        let after = [TRACEBACK_COLON, "  File \"a.py\"", "KeyError: 1", "  x"];
        let (by_rule, _) = records(Indented::ByRule, &after);
        assert_eq!(by_rule, [&after[..3], &after[3..]]);
        let (continued, _) = records(Indented::Continue, &after);
        assert_eq!(continued, [&after[..]]);
    }

    #[test]
    fn what_names_a_record_in_a_summary() {
        for yes in [
            "KeyError: 'k'",
            "boom",
            " --> src/main.rs:4:18",
            "│   on main.tf line 3, in resource \"aws_instance\" \"x\":",
            "        store_test.go:12: expected 3, got 4",
        ] {
            assert!(names_what_went_wrong(yes), "{yes}");
        }
        for no in [
            "  File \"a.py\", line 1",
            "note: run with `RUST_BACKTRACE=1`",
            "stack backtrace:",
            "stack traceback:",
            "4 |     let x = 1;",
            "Traceback (most recent call last):",
            "During handling of the above exception, another exception occurred:",
            "goroutine 1 [running]:",
            "",
            "│ ",
            "│    3:   ami = var.nope",
            "    --- FAIL: TestGet/missing (0.00s)",
            "    store_test.go:12:3 no message",
            "    see store_test.go:12: in a sentence",
        ] {
            assert!(!names_what_went_wrong(no), "{no:?}");
        }
        // Node's source under where it threw is not what went wrong, whatever it says.
        let rest = [
            "let x = ;",
            "        ^",
            "",
            "SyntaxError: Unexpected token ';'",
        ];
        assert_eq!(
            what_went_wrong("/tmp/t/b.js:1", rest.into_iter()),
            Some("SyntaxError: Unexpected token ';'")
        );
        // A Java stack: its root cause.
        let rest = [
            "java.lang.RuntimeException: config",
            "\tat a.B.c(B.java:1)",
            "Caused by: java.lang.IllegalStateException: no config",
            "\tat a.B.d(B.java:2)",
            "Caused by: java.io.FileNotFoundException: /etc/acme/db.properties",
            "\t... 3 more",
        ];
        assert_eq!(
            what_went_wrong("ERROR startup failed", rest.into_iter()),
            Some("Caused by: java.io.FileNotFoundException: /etc/acme/db.properties")
        );
        let rest = [
            "  File \"a.py\", line 3, in <module>",
            "KeyError: 'k'",
            "",
            "During handling of the above exception, another exception occurred:",
            "",
            "Traceback (most recent call last):",
            "  File \"a.py\", line 5, in <module>",
            "RuntimeError: config broken",
        ];
        assert_eq!(
            what_went_wrong("Traceback (most recent call last):", rest.into_iter()),
            Some("RuntimeError: config broken")
        );
        // unittest's report: a rule under its header, then the traceback.
        let rest = [
            "----------------------------------------------------------------------",
            "Traceback (most recent call last):",
            "  File \"t.py\", line 4, in test_a",
            "KeyError: 'k'",
        ];
        assert_eq!(
            what_went_wrong("ERROR: test_a (t.T.test_a)", rest.into_iter()),
            Some("KeyError: 'k'")
        );
        // A record cut to a budget: its caret left out, the lines after the error too.
        let rest = [
            "  throw err;",
            "Error: Cannot find module './config.json'",
            "}",
        ];
        assert_eq!(
            what_went_wrong("node:internal/modules/cjs/loader:1210", rest.into_iter()),
            Some("Error: Cannot find module './config.json'")
        );
        let rest = ["throw \"boom\";", "^", "boom"];
        assert_eq!(
            what_went_wrong("/tmp/t/d.js:1", rest.into_iter()),
            Some("boom")
        );
        let rest = ["", "  No CMAKE_CXX_COMPILER could be found.", ""];
        assert_eq!(
            what_went_wrong(
                "CMake Error at CMakeLists.txt:3 (project):",
                rest.into_iter()
            ),
            Some("  No CMAKE_CXX_COMPILER could be found.")
        );
        let rest = [
            "  12:3   warning  Unexpected console statement  no-console",
            "  14:1   error  'x' is not defined  no-undef",
        ];
        assert_eq!(
            what_went_wrong("/app/src/index.js", rest.into_iter()),
            Some("  14:1   error  'x' is not defined  no-undef")
        );
        assert_eq!(
            what_went_wrong("/app/src/index.js", rest[..1].iter().copied()),
            Some(rest[0])
        );
        let rest = ["cp $1 $2", "   ^-- SC2086 (info): Double quote"];
        assert_eq!(
            what_went_wrong("In deploy.sh line 3:", rest.into_iter()),
            Some(rest[1])
        );
        let rest = ["KeyError: 'a'", "ValueError: b"];
        assert_eq!(
            what_went_wrong("Traceback", rest.into_iter()),
            Some("KeyError: 'a'")
        );
        // A Python chain cut to a page, the lines between its tracebacks left out: the
        // exception it ended with, last, whether the record opens with a traceback or
        // holds a second one.
        let rest = [
            "  File \"w.py\", line 3, in walk",
            "RecursionError: maximum recursion depth exceeded",
            "  File \"w.py\", line 8, in <module>",
            "    raise SystemError(\"walker crashed\") from e",
            "SystemError: walker crashed",
        ];
        assert_eq!(
            what_went_wrong("Traceback (most recent call last):", rest.into_iter()),
            Some("SystemError: walker crashed")
        );
        // One traceback whose exception's message goes on over lines: the exception.
        let rest = [
            "  File \"m.py\", line 3, in <module>",
            "pydantic_core._pydantic_core.ValidationError: 1 validation error for User",
            "name",
            "  Field required [type=missing, input_value={}, input_type=dict]",
        ];
        assert_eq!(
            what_went_wrong("Traceback (most recent call last):", rest.into_iter()),
            Some(rest[1])
        );
        let rest = [
            "Traceback (most recent call last):",
            "KeyError: 'a'",
            "Traceback (most recent call last):",
            "ValueError: b",
        ];
        assert_eq!(
            what_went_wrong("ERROR:root:job failed", rest.into_iter()),
            Some("ValueError: b")
        );
    }

    #[test]
    fn a_java_exception_joins_the_line_that_logged_it_not_any_line() {
        splits_alike(&[
            // Logged, at any level: one record, named by the exception.
            (
                &[
                    &[
                        "2024-01-05 10:00:01 INFO retrying upload",
                        "java.io.IOException: Broken pipe",
                        "\tat com.example.Sender.send(Sender.java:40)",
                    ],
                    &["done"],
                ],
                &["java.io.IOException: Broken pipe"],
            ),
            (
                &[&[
                    "2026-12-07 05:40:40.487 ERROR [pool-1-thread-4] c.e.order.OrderService - could not reserve stock",
                    "Svc$ServiceException: reservation failed for SKU-777",
                    "\tat Svc.reserve(Svc.java:12)",
                ]],
                &["Svc$ServiceException: reservation failed for SKU-777"],
            ),
            // `e.printStackTrace()` after a line that states no level: its own.
            (
                &[
                    &["processed batch 1499 in 49 ms"],
                    &[
                        "java.io.IOException: Broken pipe",
                        "\tat com.example.Sender.send(Sender.java:40)",
                    ],
                    &["processed batch 1500 in 51 ms"],
                ],
                &[],
            ),
            // After a notice printed as the JVM prints its own (`WARNING: …`, no time, no
            // logger): its own too.
            (
                &[
                    &["WARNING: All illegal access operations will be denied in a future release"],
                    &[
                        "java.lang.IllegalStateException: boom",
                        "\tat Main.main(Main.java:3)",
                    ],
                ],
                &[],
            ),
        ]);
    }

    #[test]
    fn java_exception_names() {
        for name in [
            "java.io.IOException: disk full",
            "java.lang.IllegalStateException",
            "com.acme.Outer$InnerError: x",
            "org.acme.Failure_Throwable: y",
            // A nested class in no package.
            "Svc$ServiceException: reservation failed for SKU-777",
        ] {
            assert!(names_a_java_exception(name), "{name}");
        }
        for not_one in [
            "IOException: no package",
            "java.io.IOException disk full",
            "java.io.IOException:no space",
            "INFO java.io.IOException: x",
            "java.io.IOExceptions: x",
            "",
        ] {
            assert!(!names_a_java_exception(not_one), "{not_one}");
        }
    }

    #[test]
    fn tells_where_a_tcl_trace_step_ran() {
        for place in [
            "(procedure \"f\" line 1)",
            "(file \"t.tcl\" line 3)",
            "(\"foreach\" body line 12)",
        ] {
            assert!(is_tcl_place(place), "{place}");
        }
        for not_one in ["(not a place line)", "(see line )", "(line 3", "(line 3x)"] {
            assert!(!is_tcl_place(not_one), "{not_one}");
        }
    }

    #[test]
    fn runtimes_and_tools_reports_stay_whole() {
        splits_alike(&[
            // PHP's uncaught exception, to stderr and to its output, and its stack.
            (
                &[
                    &[
                        "PHP Fatal error:  Uncaught TypeError: f(): Argument #1 ($id) must be of type int in /a/Repo.php:18",
                        "Stack trace:",
                        "#0 /a/index.php(12): App\\Repo->find('abc')",
                        "#1 {main}",
                        "  thrown in /a/Repo.php on line 18",
                    ],
                    &["Stack trace:"],
                    &[
                        "Fatal error: Uncaught RuntimeException: down in /a/Db.php:9",
                        "Stack trace:",
                        "#0 {main}",
                    ],
                    &["thrown in prose"],
                    // And an exception chained to it, after a blank line, with its stack.
                    &[""],
                    &[
                        "Next App\\LookupException: lookup failed in /a/Service.php:22",
                        "Stack trace:",
                        "#0 /a/index.php(5): App\\Service->get('x')",
                        "#1 {main}",
                        "  thrown in /a/Service.php on line 22",
                    ],
                    &["Next steps: see the docs in /a/README"],
                    &["Stack trace:"],
                    &["Next step Error: disk failed in /a/x.php:3"],
                    &["Stack trace:"],
                    &["Next RuntimeException: lookup failed"],
                    &["Stack trace:"],
                    &["Next attempt: exit code 1 in 5s"],
                    &["Stack trace:"],
                    &["Next TypeError: f(): Argument #1 ($id) must be of type int in /a/R.php:3", "#0 {main}"],
                    &["PHP Fatal error:  Allowed memory size of 134217728 bytes exhausted"],
                    &["No stack trace:"],
                    &["#0 {main}"],
                    // Tcl's error trace under its message, the commands it ran quoted at
                    // the lines' start.
                    &[
                        "config missing",
                        "    while executing",
                        "\"error \"config missing\" \"",
                        "    (procedure \"f\" line 1)",
                        "    invoked from within",
                        "\"f\"",
                        "    (file \"t.tcl\" line 3)",
                    ],
                    &["\"quoted\" after it"],
                    &["while executing"],
                    &["\"quoted\""],
                    &["boom", "    while executing"],
                    &["unquoted"],
                    &["\"quoted\" again"],
                    // Swift's, and its stack.
                    &[
                        "App/main.swift:3: Fatal error: Unexpectedly found nil while unwrapping an Optional value",
                        "Current stack trace:",
                        "0    libswiftCore.so                    0x00007f3e1c2a1b20 swift_reportError + 50",
                        "12   App                                0x000055d4c1a0f1d4 main + 212",
                    ],
                    &["Trace/breakpoint trap (core dumped)"],
                    &["[FATAL] Fatality in the log"],
                    &["Current stack trace:"],
                    &["Current stack trace:"],
                    &["0    libswiftCore.so    0x00007f3e1c2a1b20 swift_reportError + 50"],
                ],
                &[],
            ),
            // Rails' error logged with its request's tag, named by its exception.
            (
                &[
                    &[
                        "F, [2024-03-05T10:00:00.114000 #4120] FATAL -- : [a1b2c3]   ",
                        "[a1b2c3] ActiveRecord::RecordNotFound (Couldn't find User with 'id'=1):",
                        "[a1b2c3]   ",
                        "[a1b2c3] app/controllers/users_controller.rb:5:in `show'",
                        "[a1b2c3]",
                    ],
                    &["[d4e5f6] another request"],
                    &["[a1b2c3] not under an error"],
                    &["E, [2024-03-05T10:00:01 #4120] ERROR -- : [a1b2c3] boom"],
                    &["[a1b2c3]x not the tag"],
                    &["ERROR -- : [a1b2c3] no Ruby logger's line"],
                    &["[a1b2c3] not under one"],
                    &["#4120] ERROR -- : [a1b2c3] its part after the time", "[a1b2c3] under it"],
                    &["I, [2024-03-05T10:00:02 #4120]  INFO -- : [d4e5f6] Started GET /"],
                    &["[d4e5f6] not under an error"],
                    &[
                        "E, [2024-03-05T10:00:03 #4120] ERROR -- : [b7]",
                        "[b7]   ",
                        "[b7] NoMethodError (undefined method `x' for nil):",
                    ],
                ],
                &[
                    "[a1b2c3] ActiveRecord::RecordNotFound (Couldn't find User with 'id'=1):",
                    "[a1b2c3] under it",
                    "[b7] NoMethodError (undefined method `x' for nil):",
                ],
            ),
            // sbt's diagnostics and failed tests, every line behind its level.
            (
                &[
                    &[
                        "[error] -- [E006] Not Found Error: /a/Main.scala:5:12 ",
                        "[error] 5 |    val x = fooo()",
                        "[error]   |            ^^^^",
                        "[error]   |            Not found: fooo",
                    ],
                    &[
                        "[warn] -- Warning: /a/Util.scala:3:6 ",
                        "[warn] 3 |  def f(x: Int) = 1",
                        "[warn]   |      unused explicit parameter",
                    ],
                    &["[error] one error found"],
                    &[
                        "[error] /a/Main.scala:5:13: not found: value fooo",
                        "[error]     val x = fooo()",
                        "[error]             ^",
                    ],
                    &["[warn]     no header above"],
                    &[
                        "[info] - should subtract *** FAILED ***",
                        "[info]   3 did not equal 4 (CalcSpec.scala:10)",
                    ],
                    &["[info] - should add"],
                    &["[info]   not under a failure"],
                    // The summary's suites that failed, tab-indented.
                    &[
                        "[error] Failed tests:",
                        "[error] \texample.CalcSpec",
                        "[error] \texample.UtilSpec",
                    ],
                    &["[error] (Test / test) sbt.TestsFailedException: Tests unsuccessful"],
                    &["[error] 12 | no header above"],
                ],
                &[],
            ),
            // Erlang/OTP's reports.
            (
                &[
                    &[
                        "=ERROR REPORT==== 5-Mar-2024::10:00:01.123456 ===",
                        "** Generic server my_server terminating ",
                        "** {badarg,[{erlang,list_to_integer,[\"abc\"],[]},",
                        "            {my_server,handle_call,3,[{line,42}]}]}",
                    ],
                    &[
                        "=CRASH REPORT==== 5-Mar-2024::10:00:01.123789 ===",
                        "  crasher:",
                        "    exception error: bad argument",
                    ],
                    &["  "],
                    &[""],
                    &["** not in a report"],
                    &["=NOT A REPORT=== x"],
                    &["** nor under this"],
                    // An Elixir exception's name in it is no crash's under a log line.
                    &[
                        "=ERROR REPORT==== 5-Mar-2024::10:00:02 ===",
                        "** Generic server x terminating",
                        "** (ArithmeticError) bad argument",
                    ],
                    &["Last message (from #PID<0.5.0>): :x"],
                ],
                &[],
            ),
            // Elixir's crash under the line that logged it, named by its exception.
            (
                &[
                    &[
                        "[error] GenServer MyApp.Cache terminating",
                        "** (ArithmeticError) bad argument in arithmetic expression",
                        "    (my_app 0.1.0) lib/my_app/cache.ex:42: MyApp.Cache.handle_call/3",
                        "    (stdlib 5.2) gen_server.erl:1131: :gen_server.try_handle_call/4",
                        "Last message (from #PID<0.512.0>): {:get, :users}",
                        "State: %{hits: 0}",
                        "Client #PID<0.512.0> is alive",
                        "",
                        "    (stdlib 5.2) gen.erl:240: :gen.do_call/4",
                        "    (elixir 1.16.0) lib/gen_server.ex:1071: GenServer.call/3",
                    ],
                    &["Client #PID<0.512.0> connected"],
                    &[""],
                    &[
                        "[error] GenServer B terminating",
                        "** (KeyError) key :a not found",
                    ],
                    &[""],
                    &["Last login: Monday"],
                    &["[info] all good"],
                    &["** (ArithmeticError) not under a serious line"],
                    &["Last message (from #PID<0.5.0>): :x"],
                ],
                &[
                    "** (ArithmeticError) bad argument in arithmetic expression",
                    "** (KeyError) key :a not found",
                ],
            ),
            // Ansible's result under its failure, Julia's and Deno's errors.
            (
                &[
                    &[
                        "fatal: [web1]: FAILED! => changed=false ",
                        "  msg: |-",
                        "    Failed to import the required Python library",
                        "  rc: 1",
                    ],
                    &["   "],
                    &[
                        "failed: [web1] (item=a.conf) => changed=false",
                        "  msg: Could not find or access 'a.conf'",
                    ],
                    &[
                        "fatal: [db2]: FAILED! => {\"changed\": false, \"msg\": \"x\"}",
                        "...ignoring",
                    ],
                    &["...ignoring"],
                    &["ok: [web1] => changed=false"],
                    &[
                        "ERROR: LoadError: UndefVarError: `fooo` not defined",
                        "Stacktrace:",
                        " [1] top-level scope",
                        "   @ /app/main.jl:3",
                        "in expression starting at /app/main.jl:3",
                        "in expression starting at /app/run.jl:9",
                    ],
                    &["in other words"],
                    &["INFO: all good"],
                    &["Stacktrace:"],
                    &[
                        "┌ Error: Exception while generating log record in module Main",
                        "│   exception =",
                        "│    BoundsError: attempt to access 3-element Vector{Int64} at index [5]",
                        "└ @ Main /app/main.jl:5",
                    ],
                    &["[ Info: done"],
                    &["│ not in a box"],
                    &[
                        "error: TS2322 [ERROR]: Type 'string' is not assignable to type 'number'.",
                        "const x: number = \"a\";",
                        "      ^",
                        "    at file:///app/main.ts:1:7",
                    ],
                    &[""],
                    &[
                        "TS2304 [ERROR]: Cannot find name 'fooo'.",
                        "fooo();",
                        "~~~~",
                        "    at file:///app/main.ts:2:1",
                    ],
                    &[
                        "error: Uncaught (in promise) PermissionDenied: Requires read access",
                        "const text = await Deno.readTextFile(\"/etc/app.json\");",
                        "                        ^",
                        "    at read (ext:deno_fs/30_fs.js:700:7)",
                    ],
                    &["Found 2 errors."],
                    &["error: TS2304 [ERROR]: no source", "Found 2 errors."],
                    &[""],
                    &["not a caret"],
                    &["TS2305 [ERROR]: no source"],
                    &[""],
                ],
                &[],
            ),
        ]);
        for frame in [
            "(my_app 0.1.0) lib/my_app/cache.ex:42: MyApp.Cache.handle_call/3",
            "(elixir 1.16.0) lib/gen_server.ex:1071: GenServer.call/3",
        ] {
            assert!(is_frame(&format!("    {frame}")), "{frame}");
        }
        for line in [
            "(my app 0.1.0) lib/a.ex:1: f/0",
            "(my_app) lib/a.ex:1: f/0",
            "(my_app v1) lib/a.ex:1: f/0",
            "(my_app 0.1.0 x) lib/a.ex:1: f/0",
            "(my_app 0.1.0) no place",
            "(my_app 0.1.0)",
            "(: 1) x:1",
            "( 0.1.0) lib/a.ex:1: f/0",
        ] {
            assert!(!is_frame(line), "{line}");
        }
        use Severity::{Error, Info};
        for (line, severity, level) in [
            (
                "[error] -- [E006] Not Found Error: /a/M.scala:5:12",
                Error,
                Some("[error] "),
            ),
            ("[warn] -- Warning: /a/U.scala:3:6", Error, Some("[warn] ")),
            ("[error] /a/B.java:7: error: x", Error, Some("[error] ")),
            (
                "[error] C:\\a\\Main.scala:5:13: not found",
                Error,
                Some("[error] "),
            ),
            ("[error] a/Main.scala:5:13: not absolute", Error, None),
            ("[error] C:/a/Main.scala:5:13: no backslash", Error, None),
            ("[info] - adds *** FAILED ***  ", Error, Some("[info] ")),
            ("[error] Failed tests:", Error, Some("[error] ")),
            ("[info] Failed tests:", Error, None),
            // No level sbt writes, no test's line, no diagnostic, too mild.
            ("[debug] -- Error: /a/M.scala:5:12", Error, None),
            ("[info] *** 2 TESTS FAILED ***", Error, None),
            ("[info] Run *** FAILED ***", Error, None),
            ("[info] -- Error: /a/M.scala:5:12", Error, None),
            ("[error] -- [E006] a rule", Error, None),
            ("[error] Error: -- a title", Error, None),
            ("[error] /a/M.scala:x: not a place", Error, None),
            ("[error] /a/M.rs:5: not Scala", Error, None),
            ("[error] -- Error: /a/M.scala:5:12", Info, None),
            ("error -- Error: /a/M.scala:5:12", Error, None),
        ] {
            assert_eq!(sbt_header(line, Some(severity)), level, "{line}");
        }
        // Behind sbt's level, Scala 3's gutter is read as rustc's and gcc's are.
        assert!(is_diagnostic_detail("12 |  x"));
        for line in [
            "12",
            "12 App",
            "  1 App 0x1f x",
            "1x App 0x1f",
            "1 App 0x",
            "1 App 0xg",
            "1 App 1f",
        ] {
            assert!(!is_swift_frame(line), "{line}");
        }
        assert_eq!(rails_tag("E, [t #1] ERROR -- : [a b] x"), None);
        assert!(is_julia_log_box("┌ Warning: x"));
        for line in ["┌ : x", "┌ Warning x", "┌Warning: x"] {
            assert!(!is_julia_log_box(line), "{line}");
        }
        for line in [
            "Uncaught Error: x",
            "error: TS [ERROR]: x",
            "error: TS12 [WARN]: x",
            "TSX1 [ERROR]: x",
        ] {
            assert!(!is_deno_error(line), "{line}");
        }
        assert_eq!(rails_tag("E, [t #1] ERROR -- : [] x"), None);
        assert_eq!(rails_tag("E, [t #1] ERROR -- : [id"), None);
        assert!(is_erlang_report(
            "=WARNING REPORT==== 5-Mar-2024::10:00:02 ==="
        ));
        for line in [
            "= REPORT==== x",
            "=Crash REPORT==== x",
            "=CRASH-1 REPORT==== x",
        ] {
            assert!(!is_erlang_report(line), "{line}");
        }
        assert!(!is_diagnostic_detail("12|x") && !is_diagnostic_detail("12 x"));
        for line in ["** (ArithmeticError) x", "** (Foo.Bar_Error) x"] {
            assert!(is_elixir_exception(line), "{line}");
        }
        for line in [
            "** () x",
            "** (Arith Error) x",
            "** ArithmeticError",
            "* (E) x",
        ] {
            assert!(!is_elixir_exception(line), "{line}");
        }
    }

    #[test]
    fn a_go_panics_goroutine_dump() {
        let dump = [
            "",
            "goroutine 1 [running]:",
            "goroutine 18 gp=0xc000102000 m=nil [chan receive]:",
            "[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4553f2]",
            "main.handler(0xc000012345, 0x3)",
            "net/http.(*conn).serve(0xc0001b4000, {0x7a9b30, 0xc0000a8f00})",
            "main.main.func1()",
            "panic({0x5d4e60?, 0xc0000181e0?})",
            "running tests:",
            "\t/app/main.go:42 +0x1d",
            "\tpanic: second panic [recovered]",
            "created by net/http.(*Server).Serve in goroutine 1",
            "runtime stack:",
            "...additional frames elided...",
        ];
        for line in dump {
            assert!(in_go_trace(line), "{line:?}");
        }
        for line in [
            "exit status 2",
            "FAIL\texample.com/app\t0.012s",
            "2024-01-05T10:00:03Z INFO back up (after restart)",
            "main.go stopped (code 2)",
            "done()",
        ] {
            assert!(!in_go_trace(line), "{line:?}");
        }
    }

    /// The lines of a record, opened by its first, that [`MultiLine::at_fault`] says
    /// show where it went wrong.
    fn at_fault<'a>(lines: &[&'a str]) -> Vec<&'a str> {
        let mut record = MultiLine::new(Indented::ByRule);
        let found = inspect(lines[0]);
        record.start(lines[0], found.severity, found.opens);
        let mut shown = Vec::new();
        for &line in &lines[1..] {
            assert!(record.continues(line), "{line:?}");
            let found = inspect(line);
            record.push(line, found.severity, found.opens);
            if record.at_fault() {
                shown.push(line);
            }
        }
        shown
    }

    #[test]
    fn a_sanitizers_report_shows_where_in_the_headings_of_its_parts() {
        let report = [
            "==4711==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000a30",
            "READ of size 8 at 0x602000000a30 thread T0",
            "    #0 0x55d4a8a1069b in pool_next_free /home/ci/src/pool.c:142:17",
            "",
            "0x602000000a30 is located 0 bytes inside of 16-byte region [0x602000000a30,0x602000000a40)",
            "freed by thread T0 here:",
            "    #0 0x55d4c39e1b4e in free (/home/ci/build/tests/unit_tests+0x1b4e)",
            "",
            "previously allocated by thread T0 here:",
            "    #0 0x55d4c39e1c9e in malloc (/home/ci/build/tests/unit_tests+0x1c9e)",
            "",
            "SUMMARY: AddressSanitizer: heap-use-after-free /home/ci/src/pool.c:142:17 in pool_next_free",
        ];
        assert_eq!(
            at_fault(&report),
            [report[1], report[4], report[5], report[8]]
        );
    }

    #[test]
    fn a_go_panic_is_at_fault_in_the_panicking_goroutines_first_frame_of_the_program() {
        // Past the runtime's and the standard library's frames, not in a goroutine after.
        let panic = [
            "panic: boom [recovered]",
            "\tpanic: boom",
            "",
            "goroutine 7 gp=0xc000007c00 m=0 mp=0x6b2f10 [running]:",
            "testing.tRunner.func1.2({0x5ed1a0, 0x6b2f10})",
            "\t/usr/local/go/src/testing/testing.go:1631 +0x24a",
            "panic({0x5ed1a0?, 0x6b2f10?})",
            "\t/usr/local/go/src/runtime/panic.go:770 +0x132",
            "internal/runtime/maps.fatal({0x4d5e2a?, 0x0?})",
            "\t/usr/local/go/src/runtime/panic.go:1058 +0x18",
            "github.com/acme/shop/cart.(*Cart).Add(...)",
            "\t/home/dev/shop/cart/cart.go:42 +0x2a",
            "main.main()",
            "\t/home/dev/shop/main.go:9 +0x1d",
            "",
            "goroutine 1 [chan receive]:",
            "main.wait(0xc000012345)",
            "\t/home/dev/shop/main.go:20 +0x1d",
        ];
        assert_eq!(
            at_fault(&panic),
            [
                "github.com/acme/shop/cart.(*Cart).Add(...)",
                "\t/home/dev/shop/cart/cart.go:42 +0x2a"
            ]
        );
        // `main`'s is the program's; a goroutine of the standard library's frames alone
        // has none (a test's timeout's alarm), and the goroutines after it are not read.
        let main = [
            "panic: x",
            "",
            "goroutine 1 [running]:",
            "main.main()",
            "\t/app/main.go:4 +0x1d",
        ];
        assert_eq!(at_fault(&main), ["main.main()", "\t/app/main.go:4 +0x1d"]);
        let alarm = [
            "panic: test timed out after 1s",
            "",
            "goroutine 18 [running]:",
            "testing.(*M).startAlarm.func1()",
            "\t/usr/local/go/src/testing/testing.go:2366 +0x385",
            "created by time.goFunc",
            "\t/usr/local/go/src/time/sleep.go:177 +0x2d",
            "",
            "goroutine 6 [sleep]:",
            "example.com/app.TestSlow(0xc000003380)",
            "\t/app/slow_test.go:9 +0x1d",
        ];
        assert!(at_fault(&alarm).is_empty());
        // Only under a panic.
        let logged = ["ERROR boom", "goroutine 1 [running]:", "main.main()"];
        let found = inspect(logged[0]);
        let mut record = MultiLine::new(Indented::ByRule);
        record.start(logged[0], found.severity, found.opens);
        for line in &logged[1..] {
            record.push(line, None, None);
            assert!(!record.at_fault(), "{line:?}");
        }
    }
}
