//! A tool's verdict: its line that something failed, and where the cause that line
//! speaks of is. The text reducer ranks a verdict on what came before after the errors it
//! sums up, and names a failure by what follows a verdict that opens it.

/// Where the cause of a failure that a [`verdict`] reports is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Before it: the line sums up the diagnostics or the output above it (cargo's
    /// `error: could not compile …`, make's `make: *** […] Error 1`, javac's `2 errors`).
    SumsUp,
    /// In the errors that follow it: a build's verdict (Maven's `[INFO] BUILD FAILURE`,
    /// Gradle's `FAILURE: Build failed with an exception.`).
    ErrorsFollow,
    /// In a report of several lines that follows it: pip's `error:
    /// subprocess-exited-with-error` (its box holds what the build wrote, a traceback or a
    /// compiler's error), Jest's `FAIL test/cart.test.js` (its failed tests' reports).
    ReportFollows,
}

/// The verdict `message` is (a line read without its time), if it is one.
pub fn verdict(message: &str) -> Option<Verdict> {
    if sums_up_diagnostics(message) {
        Some(Verdict::SumsUp)
    } else if is_build_verdict(message) {
        Some(Verdict::ErrorsFollow)
    } else if is_subprocess_verdict(message) || is_test_file_verdict(message) {
        Some(Verdict::ReportFollows)
    } else {
        None
    }
}

/// Whether `line` is a tool's verdict on what it printed before, written as an error
/// though what went wrong is in those lines: a compiler driver's on its diagnostics
/// (cargo's `error: could not compile `app` (lib) due to 3 previous errors`, rustc's
/// `error: aborting due to 2 previous errors`, gcc's `collect2: error: ld returned 1 exit
/// status`, clang's `clang: error: linker command failed …`), a tally of them (javac's
/// `2 errors`, Mocha's `  2 failing`, tsc's `Found 3 errors in 2 files.`, ESLint's `✖ 12 problems (1 error, 11
/// warnings)`), a runner's that what it ran failed (make's `make: *** [Makefile:4: app]
/// Error 1`, cargo's `error: test failed, to rerun pass `--lib`` and `error: 2 targets
/// failed:`, yarn's `error Command failed with exit code 1.`, pnpm's `ELIFECYCLE  Command
/// failed with exit code 1.`, GitHub Actions' `Error: Process completed with exit code
/// 1.`, BuildKit's `ERROR: failed to solve: …`, `dotnet test`'s `Failed!  - Failed: 2, …`) and pip's closing `error:
/// metadata-generation-failed` (and its like: not its
/// `error: subprocess-exited-with-error`, whose box holds what the build wrote: a
/// [`Verdict::ReportFollows`]).
fn sums_up_diagnostics(line: &str) -> bool {
    // `1 error`, `12 warnings`: a count and the word alone.
    let counted = |rest: &str, words: &[&str]| {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        digits > 0 && {
            let rest = &rest[digits..];
            words.iter().any(|word| rest.starts_with(word))
        }
    };
    // `2 errors`, or counts of several kinds (pyright's `1 error, 120 warnings, 0
    // informations`).
    let tally = |line: &str| {
        line.split(", ").all(|count| {
            count.split_once(' ').is_some_and(|(n, word)| {
                !n.is_empty()
                    && n.bytes().all(|b| b.is_ascii_digit())
                    && [
                        "error",
                        "errors",
                        "warning",
                        "warnings",
                        "information",
                        "informations",
                        "failing",
                    ]
                    .contains(&word)
            })
        })
    };
    // Mocha's `  2 failing`, under its `  5 passing (12ms)`.
    if line.starts_with("  ") && tally(line.trim()) {
        return true;
    }
    if line.starts_with(' ') {
        return false;
    }
    let line = line.trim_end();
    VERDICT_OPENINGS.iter().any(|opening| line.starts_with(opening))
        || line.contains(": error: linker command failed")
        || line
            .strip_prefix("error: ")
            .is_some_and(|rest| counted(rest, &[" target failed", " targets failed"]))
        || tally(line)
        || line
            .strip_prefix("Found ")
            .is_some_and(|rest| counted(rest, &[" error"]))
        || line
            .strip_prefix("✖ ")
            .is_some_and(|rest| counted(rest, &[" problem"]))
        || is_make_verdict(line)
        || (line.contains("ELIFECYCLE") && line.contains("Command failed with exit code "))
        || ["Error: ", "##[error]"].iter().any(|prefix| {
            line.strip_prefix(prefix)
                .is_some_and(|rest| rest.starts_with("Process completed with exit code "))
        })
        || line
            .strip_prefix("error: ")
            .is_some_and(|code| PIP_CLOSING_CODES.contains(&code))
        // GNU tar's, after the files it could not read or write.
        || line == "tar: Exiting with failure status due to previous errors"
        || is_buildkit_verdict(line)
        || matches!(line, "FAILURES!" | "ERRORS!")
        // CTest's list of the tests that did not pass, each reported above it.
        || line == crate::multiline::CTEST_FAILED_LIST
}

/// How the verdicts [`sums_up_diagnostics`] reads by their first words open.
const VERDICT_OPENINGS: [&str; 6] = [
    "error: could not compile `",
    "error: aborting due to ",
    "collect2: error: ld returned ",
    "error: test failed, to rerun pass ",
    "error Command failed with exit code ",
    // `dotnet test`'s counts: `Failed!  - Failed:     2, Passed:   150, …`.
    "Failed!  - Failed: ",
];

/// BuildKit's verdict on a step whose output came before it: `ERROR: failed to solve: …`
/// and the step's own, `#8 ERROR: process "/bin/sh -c …" did not complete successfully:
/// exit code: 1`.
fn is_buildkit_verdict(line: &str) -> bool {
    if line.starts_with("ERROR: failed to solve: ") {
        return true;
    }
    let Some(rest) = line.strip_prefix('#') else {
        return false;
    };
    let step = rest.bytes().take_while(u8::is_ascii_digit).count();
    step > 0
        && rest[step..].starts_with(" ERROR: process \"")
        && rest.contains("\" did not complete successfully: exit code: ")
}

/// make's line that a recipe failed: `make: *** [Makefile:4: app] Error 1`, a sub-make's
/// `make[1]: *** […] Error 2` (not `make: *** No rule to make target 'x'.  Stop.`, an
/// error of its own).
fn is_make_verdict(line: &str) -> bool {
    let Some((tool, rest)) = line.split_once(": *** [") else {
        return false;
    };
    let tool = tool.split_once('[').map_or(tool, |(tool, _)| tool);
    matches!(tool, "make" | "gmake")
        && rest.rsplit_once("] Error ").is_some_and(|(_, code)| {
            let code = code.strip_suffix(" (ignored)").unwrap_or(code);
            !code.is_empty() && code.bytes().all(|b| b.is_ascii_digit())
        })
}

/// pip's codes of a failure whose cause its output showed above (`error:
/// metadata-generation-failed` closes a failed build's `error:
/// subprocess-exited-with-error`, whose box holds what the build wrote); its other codes,
/// `externally-managed-environment`, say what is wrong themselves.
const PIP_CLOSING_CODES: [&str; 3] = [
    "metadata-generation-failed",
    "failed-wheel-build-for-install",
    "legacy-install-failure",
];

/// Whether `line` is a build's verdict that it failed, which the errors saying why follow:
/// Maven's `[INFO] BUILD FAILURE`, Gradle's `FAILURE: Build failed with an exception.`,
/// esbuild's `Build failed with 1 error:` (and Vite's `[vite:esbuild] Transform failed
/// with 2 errors:`).
fn is_build_verdict(line: &str) -> bool {
    let line = line.trim_end();
    line.ends_with("] BUILD FAILURE")
        || line.starts_with("FAILURE: Build failed")
        || is_esbuild_verdict(line)
}

/// esbuild's verdict, its errors listed under it: `Build failed with 1 error:` (the
/// message of its API's error, `Error: Build failed …`), or Vite's for its plugin,
/// `[vite:esbuild] Transform failed with 2 errors:`; not a log's line that says so after
/// its level (`ERROR Build failed with 2 errors:`), whose next error is its own.
fn is_esbuild_verdict(line: &str) -> bool {
    let line = match line
        .strip_prefix('[')
        .and_then(|rest| rest.split_once("] "))
    {
        Some((_plugin, rest)) => rest,
        None => line.strip_prefix("Error: ").unwrap_or(line),
    };
    let Some(count) = (line.strip_prefix("Build failed with "))
        .or_else(|| line.strip_prefix("Transform failed with "))
    else {
        return false;
    };
    let (n, errors) = count.split_once(' ').unwrap_or_default();
    !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && matches!(errors, "error:" | "errors:")
}

/// Whether `line` is Jest's verdict on a test file, `FAIL test/cart.test.js` (its time
/// after it, `(5.2 s)`), which its failed tests' reports follow (after their list,
/// `✕ adds (2 ms)`, under `--verbose`).
fn is_test_file_verdict(line: &str) -> bool {
    // In colour, its mark is padded: ` FAIL  test/cart.test.js`.
    let path = line.trim_start().strip_prefix("FAIL ").map(str::trim_start);
    let path = path.and_then(|rest| rest.split(' ').next());
    path.is_some_and(|path| path.contains('.') && !path.contains(':'))
}

/// Whether `line` is pip's verdict that a build step it ran failed, whose output (a
/// traceback, a compiler's error) follows in its box: `error: subprocess-exited-with-error`.
fn is_subprocess_verdict(line: &str) -> bool {
    line.trim() == "error: subprocess-exited-with-error"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::multiline::is_diagnostic_header;

    #[test]
    fn a_drivers_verdict_sums_up_diagnostics() {
        for line in [
            "error: could not compile `app` (lib) due to 3 previous errors; 600 warnings emitted",
            "error: aborting due to 2 previous errors",
            "collect2: error: ld returned 1 exit status",
            "clang: error: linker command failed with exit code 1 (use -v to see invocation)",
            "clang-17: error: linker command failed with exit code 1",
        ] {
            assert!(is_diagnostic_header(line), "{line}");
            assert_eq!(verdict(line), Some(Verdict::SumsUp), "{line}");
        }
        // Tallies, runners' verdicts, pip's closing code.
        for line in [
            "2 errors",
            "1 error",
            "  2 failing",
            "1 error, 120 warnings, 0 informations ",
            "FAILURES!",
            "The following tests FAILED:",
            "Failed!  - Failed:     2, Passed:   150, Skipped:     1, Total:   153, Duration: 1 s - Shop.Tests.dll (net8.0)",
            "480 warnings",
            "Found 121 errors in 3 files.",
            "Found 1 error in src/a.ts:3",
            "✖ 570 problems (1 error, 569 warnings)",
            "✖ 1 problem (1 error, 0 warnings)",
            "make: *** [Makefile:4: app] Error 1",
            "make[2]: *** [src/Makefile:10: a.o] Error 2",
            "gmake: *** [all] Error 1 (ignored)",
            "error: test failed, to rerun pass `--lib`",
            "error: 2 targets failed:",
            "error Command failed with exit code 1.",
            " ELIFECYCLE  Command failed with exit code 1.".trim_start(),
            "Error: Process completed with exit code 1.",
            "##[error]Process completed with exit code 2.",
            "error: metadata-generation-failed",
            "error: failed-wheel-build-for-install",
            "ERROR: failed to solve: process \"/bin/sh -c make\" did not complete successfully: exit code: 2",
            "#8 ERROR: process \"/bin/sh -c make\" did not complete successfully: exit code: 2",
            "tar: Exiting with failure status due to previous errors",
        ] {
            assert_eq!(verdict(line), Some(Verdict::SumsUp), "{line}");
        }
        for diagnostic in [
            "error[E0308]: mismatched types",
            "error: linking with `cc` failed: exit status: 1",
            "main.c:3:5: error: expected ';' before '}' token",
            "  clang: error: linker command failed",
            "make: *** No rule to make target 'x'.  Stop.",
            "make: *** [Makefile:4: app] Error",
            "cmake: *** [x] Error 1",
            "error: subprocess-exited-with-error",
            "error: externally-managed-environment",
            "2 errors occurred while reading the config",
            "    at 2 failing",
            "Found 3 warnings",
            "1 error, and more",
            "2 errors,",
            "3 tests, 1 error",
            "✖ 3 tests failed",
            "error: 2 of them failed",
            "#8 2.345 ERROR: No matching distribution found for x",
            "#8 ERROR: failed to copy files",
        ] {
            assert_ne!(verdict(diagnostic), Some(Verdict::SumsUp), "{diagnostic}");
        }
    }

    #[test]
    fn a_verdict_that_opens_a_failure_says_what_follows() {
        for (line, expected) in [
            ("[INFO] BUILD FAILURE", Verdict::ErrorsFollow),
            (
                "FAILURE: Build failed with an exception.",
                Verdict::ErrorsFollow,
            ),
            (
                "error: subprocess-exited-with-error",
                Verdict::ReportFollows,
            ),
            (
                "  error: subprocess-exited-with-error",
                Verdict::ReportFollows,
            ),
            ("FAIL test/cart.test.js (5.2 s)", Verdict::ReportFollows),
            ("Build failed with 1 error:", Verdict::ErrorsFollow),
            ("Error: Build failed with 3 errors:", Verdict::ErrorsFollow),
            (
                "[vite:esbuild] Transform failed with 2 errors:",
                Verdict::ErrorsFollow,
            ),
            (" FAIL  test/cart.test.js", Verdict::ReportFollows),
        ] {
            assert_eq!(verdict(line), Some(expected), "{line}");
        }
        for line in [
            "[INFO] BUILD SUCCESS",
            "FAILURE: 1 test failed",
            "Build failed with 1 error",
            "Upload failed with 2 errors:",
            "Build failed with some errors:",
            "ERROR Build failed with 2 errors:",
            "[vite:esbuild] Upload failed with 2 errors:",
            "FAIL\texample.com/a\t0.01s",
            "FAIL: TestA",
            "error: subprocess-exited-with-error, and more",
        ] {
            assert_eq!(verdict(line), None, "{line}");
        }
    }
}
