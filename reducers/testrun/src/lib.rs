//! briefly's test-run reducers: what passed and what failed, and each failure's decisive
//! lines, from pytest's output ([`Pytest`], [`junit::Junit`]) and from `cargo test` /
//! `cargo nextest run` ([`CargoTest`]).
//!
//! The worst outcome for a test reducer is a wrong summary ("0 failed" for a run that
//! failed), so counts come only from the runner's own totals; when it printed none (`-qq`,
//! an interrupted run, a build that failed) the summary and stats say they are unknown.
//! Items are the failures, ranked so that each distinct kind (exception type, panic
//! kind, error code) comes before repeats; fitting them is the budget stage's job.

#![warn(missing_docs)]

pub mod cargo;
pub mod collect;
mod excerpt;
mod facts;
pub mod junit;
pub mod pytest;
mod rank;

pub use cargo::{BinaryResult, CargoItem, CargoStats, CargoTest, CargoTestOptions};
pub use excerpt::{Excerpt, MAX_LINE_CHARS};
pub use junit::Junit;
pub use pytest::{parse_counts, Pytest, PytestItem, PytestOptions, PytestStats};
pub use rank::{Ranker, CATEGORIES};

use std::collections::BTreeMap;

/// Distinct keys kept in a stats map (exceptions, modules, error codes, lints); past
/// this many, new keys are counted under `(other)`.
pub const MAX_KEYS: usize = 1_000;
/// Names remembered so that each failure is reported once; past this many, a failure
/// reported twice in the input (a report and a summary line) may give two items.
pub const MAX_REMEMBERED: usize = 200_000;

/// Counts one more `key` in `map`, within [`MAX_KEYS`].
pub(crate) fn tally(map: &mut BTreeMap<String, u64>, key: &str) {
    let key = if map.len() >= MAX_KEYS && !map.contains_key(key) {
        "(other)"
    } else {
        key
    };
    *map.entry(key.to_string()).or_default() += 1;
}

/// Remembers `name`; false when it was already there (within [`MAX_REMEMBERED`]).
pub(crate) fn remember(set: &mut std::collections::HashSet<String>, name: &str) -> bool {
    if set.contains(name) {
        return false;
    }
    if set.len() < MAX_REMEMBERED {
        set.insert(name.to_string());
    }
    true
}

/// What can go wrong before a test reducer reads anything.
#[derive(Debug, thiserror::Error)]
pub enum TestRunError {
    /// An option out of range.
    #[error("{0}")]
    Option(String),
}

impl From<TestRunError> for String {
    fn from(error: TestRunError) -> String {
        error.to_string()
    }
}

#[cfg(test)]
mod tests {
    //! Every reducer over real runner output (trimmed), fed in chunks of 1, 7 and 8192
    //! bytes: the same envelope each time, within the budget.
    use super::*;
    use briefly_core::testkit::reduce_all_chunkings;
    use briefly_core::{Envelope, RunConfig};
    use serde_json::{json, Value};

    fn fixture(name: &str) -> Vec<u8> {
        let path = format!("{}/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    fn config(name: &str) -> RunConfig {
        RunConfig::new(name)
    }

    /// `input` reduced by `briefly cargo-test` (default options) in every chunking.
    fn cargo_test(input: &[u8]) -> Envelope {
        reduce_all_chunkings(
            || CargoTest::new(CargoTestOptions::default()).unwrap(),
            input,
            &config("cargo-test"),
        )
    }

    fn item(envelope: &briefly_core::Envelope, i: usize) -> &Value {
        &envelope.items[i]
    }

    /// Each item's `name` and `message`, in the items' order.
    fn named(envelope: &briefly_core::Envelope) -> Vec<(&Value, &Value)> {
        (envelope.items.iter())
            .map(|item| (&item["name"], &item["message"]))
            .collect()
    }

    /// [`named`], ordered by name.
    fn by_name(envelope: &briefly_core::Envelope) -> Vec<(&Value, &Value)> {
        let mut items = named(envelope);
        items.sort_by_key(|(name, _)| name.as_str());
        items
    }

    /// `input` reduced by `briefly pytest` in every chunking.
    fn pytest(input: &str) -> Envelope {
        reduce_all_chunkings(
            || Pytest::new(PytestOptions::default()).unwrap(),
            input.as_bytes(),
            &config("pytest"),
        )
    }

    #[test]
    fn a_headline_printed_before_the_reports_heading_opens_no_report() {
        // A conftest's banner before the session, a test's under `-s` before the reports'
        // heading: read as a report's headline at first (output cut by `| tail` opens
        // with one), until the heading says otherwise.
        let session =
            "============================= test session starts ==============================\n\
            collected 3 items\n\n\
            tests/test_a.py .F.                                                      [100%]\n\n";
        let reports =
            "=================================== FAILURES ===================================\n\
            ___________________________________ test_b ____________________________________\n\n\
            \x20   def test_b():\n\
            >       assert 1 == 2\n\
            E       assert 1 == 2\n\n\
            tests/test_a.py:5: AssertionError\n\
            =========================== short test summary info ============================\n\
            FAILED tests/test_a.py::test_b - assert 1 == 2\n\
            ========================= 1 failed, 2 passed in 0.05s ==========================\n";
        let banner = "_____________________________ Using database postgres://localhost/test _____________________________\n\
            seeding fixtures\n";
        let printed =
            "___________________________ Monthly report ____________________________\nrows: 3\n";
        for input in [
            format!("{banner}{session}{reports}"),
            format!("{printed}{reports}"),
        ] {
            let envelope = pytest(&input);
            assert!(
                envelope
                    .summary
                    .starts_with("1 failed, 2 passed in 0.05s; 1 AssertionError"),
                "{}",
                envelope.summary
            );
            assert_eq!(envelope.items.len(), 1, "{:?}", envelope.items);
            assert_eq!(envelope.warnings, Vec::<String>::new());
        }
    }

    #[test]
    fn verbose_progress_names_parametrized_tests_and_both_outcomes_of_one() {
        // `pytest -v --tb=no -rN`: the progress lines are all that name the failures;
        // parameters may hold spaces and brackets, and a test that failed and then
        // errored in teardown is listed as both.
        let input = "============================= test session starts ==============================\n\
            collecting ... collected 6 items\n\n\
            test_p.py::test_param[[x]] FAILED                                        [ 16%]\n\
            test_p.py::test_param[a b] FAILED                                        [ 33%]\n\
            test_p.py::test_param[z] FAILED                                          [ 50%]\n\
            test_p.py::test_param[ok] PASSED                                         [ 66%]\n\
            test_p.py::test_td FAILED                                                [ 83%]\n\
            test_p.py::test_td ERROR                                                 [ 83%]\n\
            test_p.py::T::test_k[1] FAILED\n\
            ========================= 5 failed, 1 passed, 1 error in 0.45s =========================\n";
        let envelope = pytest(input);
        let stats = &envelope.stats;
        assert_eq!(
            stats["failed"],
            json!([
                "test_p.py::test_param[[x]]",
                "test_p.py::test_param[a b]",
                "test_p.py::test_param[z]",
                "test_p.py::test_td",
                "test_p.py::T::test_k[1]"
            ]),
            "{envelope:?}"
        );
        assert_eq!(
            stats["errors"],
            json!(["test_p.py::test_td"]),
            "{envelope:?}"
        );
        // Cut off after a test's outcome, nothing was running; cut off before it, that
        // test was.
        let cut = &input[..input.find("test_p.py::test_param[ok]").unwrap()];
        assert!(pytest(cut).stats.get("running").is_none_or(Value::is_null));
        let running = format!("{cut}test_p.py::test_param[ok] ");
        assert_eq!(
            pytest(&running).stats["running"],
            "test_p.py::test_param[ok]"
        );
        // Parameters that end as a percentage would, but with no number in it.
        for nodeid in [
            "test_p.py::test_param[rate [x%]",
            "test_p.py::test_param[a [%]",
        ] {
            assert_eq!(pytest(&format!("{cut}{nodeid}")).stats["running"], nodeid);
        }
    }

    #[test]
    fn a_session_a_test_ran_within_its_own_is_its_captured_output() {
        // pytester's `runpytest`, printed under the test's failure (pytest 9.2), and a
        // test that printed a line like a session's counts.
        let input =
            "============================= test session starts ==============================\n\
            collected 3 items\n\ntest_inner.py F.F                                      [100%]\n\n\
            =================================== FAILURES ===================================\n\
            ________________________________ test_inner_run ________________________________\n\n\
            >       r.assert_outcomes(passed=2)\nE       AssertionError: assert 1 == 2\n\n\
            /tmp/t/test_inner.py:8: AssertionError\n\
            ----------------------------- Captured stdout call -----------------------------\n\
            ============================= test session starts ==============================\n\
            collecting ... collected 2 items\n\n\
            test_inner_run.py::test_x FAILED                                         [ 50%]\n\
            test_inner_run.py::test_y PASSED                                         [100%]\n\n\
            =================================== FAILURES ===================================\n\
            ____________________________________ test_x ____________________________________\n\n\
            >   def test_x(): assert 0\nE   assert 0\n\ntest_inner_run.py:1: AssertionError\n\
            =========================== short test summary info ============================\n\
            FAILED test_inner_run.py::test_x - assert 0\n\
            ========================= 1 failed, 1 passed in 0.58s ==========================\n\
            _______________________________ test_prints_fail _______________________________\n\n\
            >       assert 0\nE       assert 0\n\n/tmp/t/test_inner.py:16: AssertionError\n\
            ----------------------------- Captured stdout call -----------------------------\n\
            ============ 12 passed in 0.10s ============\n\
            =========================== short test summary info ============================\n\
            FAILED test_inner.py::test_inner_run - AssertionError: assert 1 == 2\n\
            FAILED test_inner.py::test_prints_fail - assert 0\n\
            ========================= 2 failed, 1 passed in 1.18s ==========================\n";
        let envelope = pytest(input);
        assert_eq!(
            envelope.summary, "2 failed, 1 passed in 1.18s; 2 AssertionError across 1 module",
            "{envelope:?}"
        );
        assert_eq!(
            envelope.stats["failed"],
            json!([
                "test_inner.py::test_inner_run",
                "test_inner.py::test_prints_fail"
            ])
        );
        // The session within is in its test's captured output.
        let captured = item(&envelope, 0)["captured"].as_str().unwrap_or_default();
        assert!(
            captured.contains("FAILED test_inner_run.py::test_x"),
            "{captured}"
        );
    }

    #[test]
    fn a_fixtures_error_without_a_summary_is_no_conftests_and_takes_its_module_from_progress() {
        // `pytest -rN`: no short summary names the tests; the error is in a conftest.py
        // fixture, which is no test's module (its place is the item's location).
        let reports =
            "==================================== ERRORS ====================================\n\
            _______________________ ERROR at setup of test_setup_err _______________________\n\n\
            \x20   @pytest.fixture\n\
            \x20   def broken_setup():\n\
            >       raise RuntimeError(\"setup exploded\")\n\
            E       RuntimeError: setup exploded\n\n\
            conftest.py:4: RuntimeError\n\
            =================================== FAILURES ===================================\n\
            _________________________________ test_fail_eq _________________________________\n\n\
            >   def test_fail_eq(): assert 1 == 2\n\
            E   assert 1 == 2\n\n\
            test_a.py:3: AssertionError\n\
            ========================= 1 failed, 1 error in 0.05s ==========================\n";
        let head =
            "============================= test session starts ==============================\n\
            collected 2 items\n\n";
        let quiet = pytest(&format!(
            "{head}test_a.py EF                                        [100%]\n\n{reports}"
        ));
        assert_eq!(
            quiet.stats["errors"],
            json!(["test_setup_err"]),
            "{quiet:?}"
        );
        let error = item(&quiet, 0);
        assert_eq!(
            (&error["location"], error.get("file")),
            (&json!("conftest.py:4"), None)
        );
        assert_eq!(quiet.stats["by_module"], json!({"test_a.py": 1}));
        // Under -v, progress names it with its module, and it is listed once: by its
        // error's line, not by a failure of the same name or an error of a name that
        // ends as its does.
        let verbose = pytest(&format!(
            "{head}test_b.py::test_setup_err FAILED                         [ 25%]\n\
             test_b.py::my_test_setup_err ERROR                                       [ 50%]\n\
             test_a.py::test_setup_err ERROR                                          [ 75%]\n\
             test_a.py::test_fail_eq FAILED                                           [100%]\n\n{reports}"
        ));
        let stats = &verbose.stats;
        let errors = ["test_a.py::test_setup_err", "test_b.py::my_test_setup_err"];
        assert_eq!(stats["errors"], json!(errors), "{verbose:?}");
        let failed = ["test_a.py::test_fail_eq", "test_b.py::test_setup_err"];
        assert_eq!(stats["failed"], json!(failed), "{verbose:?}");
        assert_eq!(stats["by_module"], json!({"test_a.py": 2, "test_b.py": 2}));
        assert_eq!(verbose.items.len(), 4, "{verbose:?}");
    }

    #[test]
    fn a_recursions_repeated_frames_leave_room_for_the_line_that_raised() {
        // `f` calling itself, `g` and `h` calling each other, and a cycle of eight
        // functions, a thousand calls, as
        // `--tb=short` and `--tb=long` print their frames.
        let frame = |long: bool, line: u32, call: &str| match long {
            false => format!(
                "test_rec.py:{line}: in {call}\n    return {call}(n + 1)\n           ^^^^^^^^\n"
            ),
            true => format!(
                "\n    def {call}(n):\n>       return {call}(n + 1)\n\ntest_rec.py:{line}: \n\
                 _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ \n"
            ),
        };
        for long in [false, true] {
            for calls in [
                &["f"][..],
                &["g", "h"],
                &["a", "b", "c", "d", "e", "g", "h", "k"],
            ] {
                let frames: String = (0..1000)
                    .map(|i| {
                        let k = i % calls.len();
                        frame(long, 2 + 3 * k as u32, calls[k])
                    })
                    .collect();
                let input = format!(
                    "F                                                                        [100%]\n\
                     =================================== FAILURES ===================================\n\
                     ________________________________ test_recursion ________________________________\n\n\
                     \x20   def test_recursion():\n>       f(0)\n\ntest_rec.py:9: \n\
                     _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ \n\
                     {frames}\n\
                     n = 960\n\n    def f(n):\n        if n > 959:\n>           raise ValueError(\"deep\")\n\
                     E       ValueError: deep\n\n\
                     test_rec.py:3: ValueError\n\
                     =========================== short test summary info ============================\n\
                     FAILED test_rec.py::test_recursion - ValueError: deep\n\
                     1 failed in 0.17s\n"
                );
                let envelope = pytest(&input);
                let traceback = item(&envelope, 0)["traceback"].as_str().unwrap();
                assert!(
                    traceback.contains(">           raise ValueError(\"deep\")\n")
                        && traceback.contains("E       ValueError: deep"),
                    "{traceback}"
                );
                // Each frame once at most: its place (the test's too) and, in long, its
                // line; all of a short cycle's.
                let places: Vec<&str> = traceback
                    .lines()
                    .filter(|line| line.starts_with("test_rec.py:") && !line.ends_with("Error"))
                    .collect();
                let distinct: std::collections::HashSet<&&str> = places.iter().collect();
                assert_eq!(distinct.len(), places.len(), "{traceback}");
                let at = traceback.matches(">       return").count();
                if calls.len() <= 2 {
                    assert_eq!(places.len(), calls.len() + 1, "{traceback}");
                    assert_eq!(at, if long { calls.len() } else { 0 }, "{traceback}");
                }
            }
        }
    }

    #[test]
    fn a_missing_fixture_is_named_and_placed() {
        let report =
            "E                                                                        [100%]\n\
            ==================================== ERRORS ====================================\n\
            _________________________ ERROR at setup of test_needs _________________________\n\
            file /src/test_fx.py, line 4\n  def test_needs(missing_fixture):\n\
            E       fixture 'missing_fixture' not found\n\
            >       available fixtures: cache, capfd, tmp_path\n\
            >       use 'pytest --fixtures [testpath]' for help on them.\n\n/src/test_fx.py:4\n";
        let summary =
            "=========================== short test summary info ============================\n\
            ERROR test_fx.py::test_needs\n";
        for input in [
            format!("{report}{summary}1 error in 0.01s\n"),
            format!("{report}1 error in 0.01s\n"),
        ] {
            let envelope = pytest(&input);
            let error = item(&envelope, 0);
            assert_eq!(error["exception"], "FixtureLookupError", "{error}");
            assert_eq!(error["message"], "fixture 'missing_fixture' not found");
            assert_eq!(error["line"], 4, "{error}");
            let nodeid = error["nodeid"].as_str().unwrap();
            assert!(nodeid.ends_with("test_fx.py::test_needs"), "{nodeid}");
        }
    }

    #[test]
    fn pytest_colour_verbose() {
        let envelope = reduce_all_chunkings(
            || Pytest::new(PytestOptions::default()).unwrap(),
            &fixture("pytest-color-v.txt"),
            &config("pytest"),
        );
        assert!(
            envelope
                .summary
                .starts_with("2 failed, 1 passed, 1 error in "),
            "{}",
            envelope.summary
        );
        assert_eq!(envelope.total_items, 3);
        assert_eq!(item(&envelope, 0)["phase"], "setup");
        assert_eq!(item(&envelope, 0)["exception"], "RuntimeError");
        assert_eq!(item(&envelope, 1)["nodeid"], "test_small.py::test_fail");
        assert_eq!(item(&envelope, 2)["exception"], "KeyError");
        assert!(!envelope.ok);
    }

    #[test]
    fn a_report_heading_a_test_printed_is_its_output_not_another_failure() {
        let run = |status: &str| {
            let input = format!(
                "running 1 test\n{status}\n\nfailures:\n\n---- t::a stdout ----\n---- inner stdout ----\n\nthread 't::a' panicked at src/lib.rs:3:5:\nboom\n\nfailures:\n    t::a\n\ntest result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n"
            );
            cargo_test(input.as_bytes())
        };
        let envelope = run("test t::a ... FAILED");
        assert_eq!(envelope.items.len(), 1, "{:?}", envelope.items);
        assert_eq!(envelope.items[0]["name"], "t::a");
        assert_eq!(envelope.items[0]["message"], "boom");
        // `-q` names no test before the reports: a heading is a report's.
        let terse = run("F");
        assert_eq!(terse.items.len(), 2, "{:?}", terse.items);
    }

    #[test]
    fn an_older_nextests_report_is_its_tests_not_the_libtest_run_inside() {
        // `--- STDOUT:  binary name ---` (nextest before its indented `stdout ───`): the
        // libtest run printed inside was read as a binary of its own, its counts as the
        // totals, the failure twice and its panic in neither.
        let envelope = cargo_test(&fixture("nextest-old.txt"));
        assert_eq!(
            envelope.stats["totals"],
            json!({"run": 3, "passed": 1, "failed": 1, "timed_out": 1})
        );
        let failures: Vec<(&str, &str)> = envelope
            .items
            .iter()
            .map(|i| (i["name"].as_str().unwrap(), i["binary"].as_str().unwrap()))
            .collect();
        assert_eq!(failures, [("t::bad", "c"), ("t::slow", "c")]);
        assert_eq!(envelope.items[0]["message"], "boom");
        assert_eq!(envelope.items[0]["location"], "src/lib.rs:3:5");
    }

    #[test]
    fn cargo_test_cut_off_while_a_test_runs_names_the_test() {
        let stopped = |output: &str| {
            let envelope = cargo_test(output.as_bytes());
            let crashed = envelope.items.iter().find(|item| item["kind"] == "crashed");
            let crashed = crashed
                .unwrap_or_else(|| panic!("{:?}", envelope.items))
                .clone();
            (
                envelope.summary,
                crashed["detail"].as_str().unwrap().to_string(),
            )
        };
        // On several threads libtest names a test running past 60 s.
        let (summary, detail) = stopped(
            "\nrunning 3 tests\ntest tests::a ... ok\n\
             test tests::slow has been running for over 60 seconds\ntest tests::b ... ok\n",
        );
        assert_eq!(
            detail,
            "test tests::slow has been running for over 60 seconds"
        );
        assert!(
            summary.ends_with("it stopped: test tests::slow has been running for over 60 seconds"),
            "{summary}"
        );
        // On one, it names each before its outcome: the last has none.
        let (_, detail) =
            stopped("\nrunning 3 tests\ntest tests::a ... ok\ntest tests::hangs ... ");
        assert_eq!(
            detail,
            "test tests::hangs ... (no outcome: it was running when the output stopped)"
        );
        // A binary that ends with its result had nothing running.
        let envelope = cargo_test(
            b"\nrunning 2 tests\ntest tests::slow has been running for over 60 seconds\n\
              test tests::slow ... ok\ntest tests::a ... ok\n\n\
              test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 61.00s\n",
        );
        assert_eq!(envelope.total_items, 0, "{:?}", envelope.items);
    }

    #[test]
    fn pytest_line_reports_past_the_cap_leave_the_rest_paired_in_order() {
        // `--tb=line` reports wait for the short summary; past the cap the oldest place is
        // let go, and the summary's first test is then the one without a place.
        let tests = pytest::MAX_PENDING + 1;
        let exception = |i: usize| match i {
            0 => "KeyError",
            1 => "IndexError",
            _ => "AssertionError",
        };
        let mut input = String::from("=== FAILURES ===\n");
        for i in 0..tests {
            input += &format!("/src/t.py:{}: {}: at {i}\n", 1000 + i, exception(i));
        }
        input += "=== short test summary info ===\n";
        for i in 0..tests {
            input += &format!("FAILED t.py::test_{i} - {}: at {i}\n", exception(i));
        }
        input += &format!("=== {tests} failed in 1.00s ===\n");
        let envelope = pytest(&input);
        assert_eq!(envelope.total_items, tests as u64);
        let named = |nodeid: &str| {
            let found = envelope.items.iter().find(|item| item["nodeid"] == nodeid);
            found
                .unwrap_or_else(|| panic!("{nodeid} in {:?}", envelope.items))
                .clone()
        };
        assert_eq!(named("t.py::test_0")["line"], Value::Null);
        assert_eq!(named("t.py::test_1")["line"], 1001);
    }

    #[test]
    fn a_test_that_kills_python_is_the_crash_and_its_place() {
        // faulthandler's report, then pytest's and pluggy's frames: the run's last lines
        // name no test.
        let mut input = String::from(
            "collected 10 items\n\ntest_crash.py ........Fatal Python error: Segmentation fault\n\n\
             Current thread 0x00007f3b01873b80 (most recent call first):\n\
             \x20 File \"/usr/lib/python3.11/ctypes/__init__.py\", line 519 in string_at\n\
             \x20 File \"/src/p6/test_crash.py\", line 7 in test_crash\n",
        );
        for _ in 0..40 {
            input += "  File \"/venv/lib/python3.11/site-packages/pluggy/_hooks.py\", line 513 in __call__\n";
        }
        let envelope = pytest(&input);
        assert!(
            envelope.summary.starts_with(
                "counts unknown: Python died (Fatal Python error: Segmentation fault, at /src/p6/test_crash.py:7)"
            ),
            "{}",
            envelope.summary
        );
        let crashed = item(&envelope, 0);
        assert_eq!(crashed["kind"], "crashed");
        assert_eq!(crashed["line"], 7);
        assert_eq!(
            crashed["traceback"],
            "3: Fatal Python error: Segmentation fault\nFile \"/src/p6/test_crash.py\", line 7 in test_crash"
        );
        // The output's end, which holds the same report, is not another item.
        assert_eq!(envelope.items.len(), 1, "{:?}", envelope.items);
        // Under -v, the test it was running is named.
        let verbose = input.replace(
            "test_crash.py ........",
            "test_crash.py::test_ok PASSED [ 90%]\ntest_crash.py::test_crash ",
        );
        let envelope = pytest(&verbose);
        assert_eq!(
            item(&envelope, 0)["nodeid"],
            "test_crash.py::test_crash",
            "{envelope:?}"
        );
        // Or on the line before the report, when stderr came apart from stdout.
        let apart = verbose.replace("test_crash Fatal", "test_crash\nFatal");
        let envelope = pytest(&apart);
        assert_eq!(
            item(&envelope, 0)["nodeid"],
            "test_crash.py::test_crash",
            "{envelope:?}"
        );
    }

    #[test]
    fn a_junit_collection_error_is_its_modules_node() {
        // pytest names a module whose collection failed by its dotted path, no class; its
        // traceback may name no place in it.
        let xml = r#"<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="1" failures="0" skipped="0" tests="1"><testcase classname="" name="tests.test_syntax" time="0.000"><error message="collection failure">/usr/lib/python3.11/ast.py:50: in parse
E   SyntaxError: invalid syntax</error></testcase></testsuite></testsuites>"#;
        let envelope = reduce_all_chunkings(
            || Junit::new(PytestOptions::default()).unwrap(),
            xml.as_bytes(),
            &RunConfig::new("pytest"),
        );
        assert_eq!(
            item(&envelope, 0)["nodeid"],
            "tests/test_syntax.py",
            "{envelope:?}"
        );
        assert_eq!(
            item(&envelope, 0)["file"],
            "tests/test_syntax.py",
            "{envelope:?}"
        );
        assert!(
            envelope.summary.ends_with("across 1 module"),
            "{}",
            envelope.summary
        );
    }

    #[test]
    fn pytest_junit() {
        let envelope = reduce_all_chunkings(
            || Junit::new(PytestOptions::default()).unwrap(),
            &fixture("pytest-junit.xml"),
            &config("pytest"),
        );
        assert!(
            envelope
                .summary
                .starts_with("JUnit report: 2 failed, 1 passed, 1 error in "),
            "{}",
            envelope.summary
        );
        assert_eq!(envelope.total_items, 3);
        let fail = envelope
            .items
            .iter()
            .find(|i| i["nodeid"] == "test_small.py::test_fail")
            .unwrap();
        assert!(fail["captured"].as_str().unwrap().contains("about to fail"));
    }

    #[test]
    fn a_result_line_a_test_printed_is_not_its_binarys() {
        // A test whose output holds libtest's words (it runs libtest itself, say).
        let input = "running 3 tests\ntest t::a ... FAILED\ntest t::b ... FAILED\ntest t::c ... ok\n\n\
            failures:\n\n---- t::a stdout ----\n\
            test result: ok. 99 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\
            thread 't::a' (1) panicked at src/lib.rs:3:9:\nreal a panic\n\n\
            ---- t::b stdout ----\nthread 't::b' (2) panicked at src/lib.rs:7:9:\nreal b panic\n\n\
            failures:\n    t::a\n    t::b\n\n\
            test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n";
        let envelope = cargo_test(input.as_bytes());
        assert!(
            envelope
                .summary
                .starts_with("1 passed; 2 failed; 0 ignored"),
            "{}",
            envelope.summary
        );
        let located: Vec<(&Value, &Value)> = envelope
            .items
            .iter()
            .map(|item| (&item["message"], &item["location"]))
            .collect();
        assert_eq!(
            located,
            [
                (&json!("real a panic"), &json!("src/lib.rs:3:9")),
                (&json!("real b panic"), &json!("src/lib.rs:7:9"))
            ]
        );
    }

    #[test]
    fn what_tests_that_passed_printed_is_no_failure() {
        // `cargo test -- --show-output`.
        let input = "running 2 tests\ntest tests::quiet ... ok\ntest tests::talks ... ok\n\n\
            successes:\n\n---- tests::talks stdout ----\nhello from the test\n\n\n\
            successes:\n    tests::quiet\n    tests::talks\n\n\
            test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n";
        let envelope = cargo_test(input.as_bytes());
        assert_eq!(
            envelope.summary,
            "2 passed; 0 failed; 0 ignored across 1 test binary"
        );
        assert!(envelope.items.is_empty(), "{envelope:?}");
    }

    #[test]
    fn nextest_retries_flaky_failed_and_stopped() {
        let input = "    Starting 3 tests across 1 binary\n\
            \x20 TRY 1 FAIL [   0.1s] (───) fl tests::flaky\n\
            \x20 stderr ───\n\
            \x20   thread 'tests::flaky' (1) panicked at src/lib.rs:3:9:\n\
            \x20   first try fails\n\n\
            \x20 RETRY 2/2 [         ] fl tests::flaky\n\
            \x20 TRY 2 SLOW [> 60.0s] fl tests::flaky\n\
            \x20 TRY 2 PASS [  61.0s] (1/3) fl tests::flaky\n\
            \x20 TRY 1 FAIL [   0.1s] (───) fl tests::stopped\n\
            \x20 stderr ───\n\
            \x20   thread 'tests::stopped' (2) panicked at src/lib.rs:9:9:\n\
            \x20   stopped before its retry\n\n";
        let envelope = cargo_test(input.as_bytes());
        let items: Vec<(&Value, &Value, &Value)> = envelope
            .items
            .iter()
            .map(|item| (&item["kind"], &item["name"], &item["message"]))
            .collect();
        assert_eq!(
            items,
            [
                (
                    &json!("failed"),
                    &json!("tests::stopped"),
                    &json!("stopped before its retry")
                ),
                (
                    &json!("flaky"),
                    &json!("tests::flaky"),
                    &json!("first try fails")
                )
            ],
            "{envelope:?}"
        );
    }

    #[test]
    fn a_fixture_that_fails_in_conftest_is_placed_there_not_in_the_tests_file() {
        let input =
            "E                                                                        [100%]\n\
            ==================================== ERRORS ====================================\n\
            __________________________ ERROR at setup of test_one __________________________\n\n\
            \x20   @pytest.fixture\n\
            \x20   def db():\n\
            >       raise RuntimeError(\"no db\")\n\
            E       RuntimeError: no db\n\n\
            conftest.py:5: RuntimeError\n\
            =========================== short test summary info ============================\n\
            ERROR test_x.py::test_one - RuntimeError: no db\n\
            1 error in 0.01s\n";
        let envelope = pytest(input);
        let item = &envelope.items[0];
        assert_eq!(item["nodeid"], "test_x.py::test_one", "{item}");
        assert_eq!(item["file"], "test_x.py");
        // test_x.py has no line 5: the place is conftest's.
        assert_eq!(item.get("line"), None, "{item}");
        assert_eq!(item["location"], "conftest.py:5");
        // A failure in the test's own file keeps its line there.
        let own = input.replace("conftest.py:5", "test_x.py:2");
        let item = &pytest(&own).items[0];
        assert_eq!(item["line"], 2, "{item}");
        assert_eq!(item.get("location"), None, "{item}");
    }

    #[test]
    fn should_panic_reports_under_nocapture_are_each_their_own_tests() {
        // `cargo test -- --nocapture --test-threads=1`: b's panic printed before its
        // `FAILED`, then the reports, one heading right after the other.
        let input = "running 3 tests\n\
            test tests::a_no_panic - should panic ... FAILED\n\
            test tests::b_wrong_msg - should panic ... \n\
            thread 'tests::b_wrong_msg' (5879) panicked at src/lib.rs:4:67:\n\
            bang\n\
            note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n\
            FAILED\n\
            test tests::c_ok - should panic ... \n\
            thread 'tests::c_ok' (5911) panicked at src/lib.rs:5:41:\n\
            expected one\n\
            ok\n\n\
            failures:\n\n\
            ---- tests::a_no_panic stdout ----\n\
            note: test did not panic as expected at src/lib.rs:3:32\n\
            ---- tests::b_wrong_msg stdout ----\n\
            note: panic did not contain expected string\n\
            \x20     panic message: \"bang\"\n\
            \x20expected substring: \"boom\"\n\n\
            failures:\n    tests::a_no_panic\n    tests::b_wrong_msg\n\n\
            test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.17s\n";
        let envelope = cargo_test(input.as_bytes());
        let items = by_name(&envelope);
        assert_eq!(
            items,
            [
                (
                    &json!("tests::a_no_panic"),
                    &json!("test did not panic as expected")
                ),
                // Its own panic is no cause: it failed for what it said.
                (
                    &json!("tests::b_wrong_msg"),
                    &json!("panic did not contain expected string\npanic message: \"bang\"\nexpected substring: \"boom\"")
                ),
            ],
            "{envelope:?}"
        );
        // The same on two threads, where the panic comes before its test's line.
        let two_threads = input
            .replace("test tests::b_wrong_msg - should panic ... \n", "")
            .replace(
                "FAILED\ntest tests::c_ok",
                "test tests::b_wrong_msg - should panic ... FAILED\ntest tests::c_ok",
            );
        let envelope = cargo_test(two_threads.as_bytes());
        let b = envelope
            .items
            .iter()
            .find(|item| item["name"] == "tests::b_wrong_msg");
        assert_eq!(
            b.map(|b| &b["message"]),
            Some(items[1].1),
            "{two_threads}\n{envelope:?}"
        );
    }

    #[test]
    fn doc_tests_under_nocapture_on_one_thread_or_quiet_are_named_by_their_own_lines() {
        // As cargo 1.95 prints them (`cargo test --doc [-q] -- --nocapture
        // [--test-threads=1]`, backtraces left out): rustdoc's verdict right after the
        // test's name, libtest's `FAILED` glued to it or on a line of its own after the
        // panic of the doc-test's process (thread `main`); `-q`'s name glued to it.
        let panic = "\nstderr:\n\nthread 'main' (1816) panicked at src/lib.rs:5:1:\n\
            assertion `left == right` failed\n  left: 2\n right: 3\n\
            note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n\n";
        let end = "\nfailures:\n\nfailures:\n\n\
            test result: FAILED. 1 passed; 3 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.26s\n";
        let one_thread = format!(
            "   Doc-tests rs1\n\nrunning 4 tests\n\
             test src/lib.rs - add (line 11) - compile fail ... Test compiled successfully, but it's marked `compile_fail`.FAILED\n\
             test src/lib.rs - add (line 2) ... Test executable failed (exit status: 101).\n{panic}FAILED\n\
             test src/lib.rs - add (line 5) ... ok\n\
             test src/lib.rs - add (line 8) ... Test executable succeeded, but it's marked `should_panic`.FAILED\n{end}"
        );
        let quiet = format!(
            "\nrunning 4 tests\n\
             Test compiled successfully, but it's marked `compile_fail`.src/lib.rs - add (line 11) --- FAILED\n\
             Test executable failed (exit status: 101).\n{panic}src/lib.rs - add (line 2) --- FAILED\n\
             .Test executable succeeded, but it's marked `should_panic`. 3/4\n\
             src/lib.rs - add (line 8) --- FAILED\n{end}"
        );
        for input in [one_thread, quiet] {
            let envelope = cargo_test(input.as_bytes());
            assert_eq!(
                named(&envelope),
                [
                    (
                        &json!("src/lib.rs - add (line 11)"),
                        &json!("Test compiled successfully, but it's marked `compile_fail`.")
                    ),
                    (
                        &json!("src/lib.rs - add (line 2)"),
                        &json!("assertion `left == right` failed")
                    ),
                    (
                        &json!("src/lib.rs - add (line 8)"),
                        &json!("Test executable succeeded, but it's marked `should_panic`.")
                    ),
                ],
                "{input}\n{envelope:?}"
            );
        }
        // A process that exited with an error of its own, printing nothing; a doc-test
        // that failed to compile with other errors than it expected.
        for (verdict, name) in [
            (
                "Test executable failed (exit status: 3).",
                "src/lib.rs - quit (line 20)",
            ),
            (
                "Some expected error codes were not found: [\"E0308\"]",
                "src/lib.rs - codes (line 30)",
            ),
        ] {
            let input = format!(
                "\nrunning 1 test\n{verdict}{name} --- FAILED\n\nfailures:\n\nfailures:\n\n\
                 test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.26s\n"
            );
            let envelope = cargo_test(input.as_bytes());
            let failed = (&item(&envelope, 0)["name"], &item(&envelope, 0)["message"]);
            assert_eq!(failed, (&json!(name), &json!(verdict)), "{envelope:?}");
        }
    }

    #[test]
    fn nextest_without_status_lines_names_each_failure_by_its_output() {
        // `cargo nextest run --status-level=none --final-status-level=none` (0.9.143):
        // each failed test's output in blocks, no line naming it.
        let block = |name: &str, panic: &str| {
            format!(
                "  stdout ───\n\n    running 1 test\n    test {name} ... FAILED\n\n    failures:\n\n\
                 \x20   failures:\n        {name}\n\n\
                 \x20   test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 12 filtered out; finished in 0.07s\n\n\
                 \x20 stderr ───\n\n    thread '{name}' (32179) panicked at src/lib.rs:32:9:\n    {panic}\n\
                 \x20   note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n\n"
            )
        };
        let input = format!(
            "    Starting 3 tests across 1 binary\n{}{}\
             ────────────\n     Summary [   0.095s] 3 tests run: 1 passed, 2 failed\n",
            block(
                "tests::multi_line_debug",
                "assertion `left == right` failed"
            ),
            block("tests::sp_wrong_msg - should panic", "different"),
        );
        let envelope = cargo_test(input.as_bytes());
        assert_eq!(
            by_name(&envelope),
            [
                (
                    &json!("tests::multi_line_debug"),
                    &json!("assertion `left == right` failed")
                ),
                (&json!("tests::sp_wrong_msg"), &json!("different")),
            ],
            "{envelope:?}"
        );
        // `--status-level=none` alone: the final list names them again, with their
        // binary; each is one failure still.
        let listed = format!(
            "{input}\x20       FAIL [   0.074s] rs1 tests::multi_line_debug\n\
             \x20       FAIL [   0.073s] rs1 tests::sp_wrong_msg\n"
        );
        let envelope = cargo_test(listed.as_bytes());
        assert_eq!(envelope.items.len(), 2, "{envelope:?}");
    }

    #[test]
    fn nextest_failures_cut_off_above_its_closing_list_are_named_from_it() {
        // `cargo nextest run --retries 1 2>&1 | tail -n 12`: one report and the list.
        let input = "\x20 TRY 2 FAIL [   0.005s] (6/6) c2 tests::d_fail\n\
            \x20 stderr ───\n\n\
            \x20   thread 'tests::d_fail' (6654) panicked at src/lib.rs:6:27:\n\
            \x20   assertion failed: it holds\n\n\
            ────────────\n\
            \x20    Summary [   0.057s] 6 tests run: 2 passed (1 flaky), 4 failed, 0 skipped\n\
            \x20  FLAKY 2/2 [   0.011s] (2/6) c2 flaky::flaky_once\n\
            \x20 TRY 2 FAIL [   0.005s] (1/6) c2 flaky::always_fails\n\
            \x20    TIMEOUT [  60.001s] (3/6) c2 tests::hangs\n\
            \x20 TRY 2 FAIL [   0.010s] (4/6) c2 tests::b_wrong_msg\n\
            \x20 TRY 2 FAIL [   0.005s] (6/6) c2 tests::d_fail\n\
            error: test run failed\n";
        let envelope = cargo_test(input.as_bytes());
        let mut items: Vec<(&Value, &Value, &Value)> = envelope
            .items
            .iter()
            .map(|item| (&item["kind"], &item["name"], &item["message"]))
            .collect();
        items.sort_by_key(|item| item.1.as_str());
        assert_eq!(
            items,
            [
                (
                    &json!("failed"),
                    &json!("flaky::always_fails"),
                    &Value::Null
                ),
                (&json!("flaky"), &json!("flaky::flaky_once"), &Value::Null),
                (&json!("failed"), &json!("tests::b_wrong_msg"), &Value::Null),
                (
                    &json!("failed"),
                    &json!("tests::d_fail"),
                    &json!("assertion failed: it holds")
                ),
                (
                    &json!("failed"),
                    &json!("tests::hangs"),
                    &json!("timed out after 60.001s (nextest's TIMEOUT)")
                ),
            ],
            "{envelope:?}"
        );
        assert_eq!(
            envelope.warnings,
            ["3 failures are named only by nextest's closing list, without a report: the input starts after them (cut, as by `tail`?)"]
        );
        // A failure whose first attempt's report was read, its last one's cut: reported
        // from the first, not named only.
        let input = "\x20 TRY 1 FAIL [   0.005s] (───) c2 tests::d_fail\n\
            \x20 stderr ───\n\n\
            \x20   thread 'tests::d_fail' (6654) panicked at src/lib.rs:6:27:\n\
            \x20   first attempt\n\n\
            ────────────\n\
            \x20    Summary [   0.057s] 1 test run: 0 passed, 1 failed, 0 skipped\n\
            \x20 TRY 2 FAIL [   0.005s] (1/1) c2 tests::d_fail\n";
        let envelope = cargo_test(input.as_bytes());
        assert_eq!(envelope.items.len(), 1, "{envelope:?}");
        assert_eq!(envelope.items[0]["message"], "first attempt");
        assert!(envelope.warnings.is_empty(), "{:?}", envelope.warnings);
    }

    #[test]
    fn a_long_panic_message_counts_every_line_it_leaves_out() {
        let fields: String = (0..99).map(|i| format!("  field `f{i}`: ok\n")).collect();
        let input = format!(
            "     Running unittests src/lib.rs (target/debug/deps/p5-1)\n\n\
             running 1 test\ntest tests::long ... FAILED\n\nfailures:\n\n\
             ---- tests::long stdout ----\n\n\
             thread 'tests::long' (7) panicked at src/lib.rs:17:9:\n\
             validation failed:\n{fields}\
             note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n\n\n\
             failures:\n    tests::long\n\n\
             test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n"
        );
        let envelope = cargo_test(input.as_bytes());
        let message = item(&envelope, 0)["message"].as_str().unwrap();
        assert!(
            message.starts_with("validation failed:\n  field `f0`: ok\n"),
            "{message}"
        );
        // 100 lines: 4 said, 96 left out (60 of them held, 36 past the cap).
        assert!(message.ends_with("\n… 96 lines …"), "{message}");
    }

    #[test]
    fn a_returned_error_printed_after_its_tests_name_on_one_thread_is_its_message() {
        // `cargo test -- --nocapture --test-threads=1` (cargo 1.95).
        let input = "     Running unittests src/lib.rs (target/debug/deps/p1-75)\n\n\
            running 3 tests\n\
            test tests::passes ... ok\n\
            test tests::result_err ... Error: \"config file missing: /etc/foo.toml\"\n\
            FAILED\n\
            test tests::result_err_io ... Error: Os { code: 2, kind: NotFound }\n\
            FAILED\n\n\
            failures:\n\n\
            failures:\n\
            \x20   tests::result_err\n\
            \x20   tests::result_err_io\n\n\
            test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n";
        let envelope = cargo_test(input.as_bytes());
        let items: Vec<(&Value, &Value)> = (envelope.items.iter())
            .map(|item| (&item["name"], &item["message"]))
            .collect();
        assert_eq!(
            items,
            [
                (
                    &json!("tests::result_err"),
                    &json!("Error: \"config file missing: /etc/foo.toml\"")
                ),
                (
                    &json!("tests::result_err_io"),
                    &json!("Error: Os { code: 2, kind: NotFound }")
                ),
            ],
            "{envelope:?}"
        );
    }

    #[test]
    fn a_build_scripts_failure_is_an_error_with_its_panic() {
        // cargo 1.95, a build.rs that `expect`s an environment variable.
        let input = "   Compiling p8 v0.1.0 (/tmp/p8)\n\
            error: failed to run custom build command for `p8 v0.1.0 (/tmp/p8)`\n\n\
            Caused by:\n\
            \x20 process didn't exit successfully: `/tmp/p8/target/debug/build/p8-1/build-script-build` (exit status: 101)\n\
            \x20 --- stderr\n\n\
            \x20 thread 'main' (27063) panicked at build.rs:2:42:\n\
            \x20 P8_REQUIRED must be set\n\
            \x20 to build p8: NotPresent\n\
            \x20 note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n\n\
            \x20 --- stdout\n\
            \x20 cargo:rerun-if-env-changed=P8_REQUIRED\n\
            warning: build failed, waiting for other jobs to finish...\n";
        let envelope = cargo_test(input.as_bytes());
        assert_eq!(envelope.items.len(), 1, "{envelope:?}");
        let error = item(&envelope, 0);
        assert_eq!(error["kind"], "error");
        assert_eq!(
            error["message"],
            "failed to run custom build command for `p8 v0.1.0 (/tmp/p8)`: P8_REQUIRED must be set to build p8: NotPresent"
        );
        assert_eq!(error["location"], "build.rs:2:42");
        let detail = error["detail"].as_str().unwrap();
        assert!(detail.contains("(exit status: 101)"), "{detail}");
        assert_eq!(
            envelope.stats["errors_by_code"],
            json!({"failed to run custom build command for `_`": 1})
        );
        assert!(!envelope.ok);
        assert!(
            envelope.summary.starts_with("build failed: 1 error"),
            "{}",
            envelope.summary
        );
        // No panic (a C compiler's failure under the cc crate): cargo's words, and the
        // script's error lines in the detail.
        let input = "error: failed to run custom build command for `zs v0.1.0`\n\n\
            Caused by:\n\
            \x20 process didn't exit successfully: `/t/build-script-build` (exit status: 1)\n\
            \x20 --- stderr\n\
            \x20 error occurred in cc-rs: command did not execute successfully\n";
        let envelope = cargo_test(input.as_bytes());
        let error = item(&envelope, 0);
        assert_eq!(
            error["message"],
            "failed to run custom build command for `zs v0.1.0`"
        );
        assert!(error.get("location").is_none(), "{error}");
        let detail = error["detail"].as_str().unwrap();
        assert!(detail.contains("error occurred in cc-rs"), "{detail}");
    }

    #[test]
    fn what_cargo_says_of_the_run_as_a_whole_is_told() {
        // `cargo test` (cargo 1.95): one binary's report and cargo's word on it.
        let lib = "     Running unittests src/lib.rs (target/debug/deps/p1-751f0cbeca56e7b5)\n\n\
            running 2 tests\n\
            test tests::a ... ok\n\
            test tests::b ... FAILED\n\n\
            failures:\n\n\
            ---- tests::b stdout ----\n\n\
            thread 'tests::b' (7) panicked at src/lib.rs:3:5:\n\
            boom\n\n\
            failures:\n\
            \x20   tests::b\n\n\
            test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n\
            error: test failed, to rerun pass `--lib`\n";
        let integ = "     Running tests/integ.rs (target/debug/deps/integ-5a7f0e72dfba4614)\n\n\
            running 1 test\n\
            test c ... ok\n\n\
            test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n";
        // Without --no-fail-fast cargo stops at the first binary that fails.
        let stopped = cargo_test(lib.as_bytes());
        assert!(
            (stopped.summary).contains("cargo stopped at the failing `--lib` (without --no-fail-fast it stops at the first test binary that fails): any binaries after it did not run"),
            "{}",
            stopped.summary
        );
        assert_eq!(stopped.stats["stopped_after"], "`--lib`");
        // With it, cargo goes on and closes with the list of the failed targets.
        let went_on = format!("{lib}{integ}error: 1 target failed:\n    `--lib`\n");
        let went_on = cargo_test(went_on.as_bytes());
        assert!(!went_on.summary.contains("stopped"), "{}", went_on.summary);
        assert!(went_on.stats.get("stopped_after").is_none());
        assert_eq!(went_on.stats["counts_known"], true);
        // The failing binary the last, under --no-fail-fast: the list closes the run.
        let last = cargo_test(format!("{lib}error: 1 target failed:\n    `--lib`\n").as_bytes());
        assert!(!last.summary.contains("stopped"), "{}", last.summary);
        assert_eq!(last.stats["counts_known"], true);
        // A binary that started after the failing one: cargo did not stop there.
        let ran_on = cargo_test(format!("{lib}{integ}").as_bytes());
        assert!(!ran_on.summary.contains("stopped"), "{}", ran_on.summary);
        // Cut above the reports of some failed targets (`| tail`): the list says so.
        let cut =
            format!("{lib}{integ}error: 2 targets failed:\n    `--lib`\n    `--test second`\n");
        let cut = cargo_test(cut.as_bytes());
        assert!(
            (cut.summary).contains("totals incomplete: cargo says 2 targets failed, the input holds the reports of 1 (cut, as by `tail`?)"),
            "{}",
            cut.summary
        );
        assert_eq!(cut.stats["counts_known"], false);
        assert!(!cut.ok);
        // nextest's filter that matched no test: no build error, and no pass.
        let none = "    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.02s\n\
            ────────────\n\
            \x20Nextest run ID e4dee6b1 with nextest profile: default\n\
            \x20   Starting 0 tests across 2 binaries (10 tests skipped)\n\
            ────────────\n\
            \x20    Summary [   0.000s] 0 tests run: 0 passed, 10 skipped\n\
            error: no tests to run\n\
            (hint: use `--no-tests` to customize)\n";
        let none = cargo_test(none.as_bytes());
        assert!(!none.ok);
        assert_eq!(none.stats["errors_by_code"], json!({}));
        assert_eq!(
            none.summary,
            "0 tests run: 0 passed; 0 failed; 10 skipped; no tests to run: the filter matched none (nextest exits 4 then; --no-tests=pass makes it a pass)"
        );
    }

    #[test]
    fn nextest_retried_tests_killed_by_a_signal_are_failures_named_by_it() {
        // `cargo nextest run --retries 1` (0.9.143): under `TRY n` a signal loses its
        // `SIG` (`ABRT`, `SEGV`); without retries it is `SIGABRT`, `SIGILL`, ….
        let input = "\x20 TRY 1 ABRT [   0.007s] (─────) p3::it it_abort\n\
            \x20 stdout ───\n\n\
            \x20   running 1 test\n\n\
            \x20   (test aborted with signal 6: SIGABRT)\n\n\
            \x20 TRY 2 ABRT [   0.007s] ( 1/4) p3::it it_abort\n\
            \x20 stdout ───\n\n\
            \x20   (test aborted with signal 6: SIGABRT)\n\n\
            \x20 TRY 1 SEGV [   0.007s] (─────) p3::it it_segv\n\
            \x20 TRY 2 SEGV [   0.008s] ( 2/4) p3::it it_segv\n\
            \x20     SIGILL [   0.002s] ( 3/4) p3::it it_ill\n\
            \x20       PASS [   0.007s] ( 4/4) p3::it it_ok\n\
            ────────────\n\
            \x20    Summary [   0.038s] 4 tests run: 1 passed, 3 failed, 0 skipped\n\
            \x20 TRY 2 ABRT [   0.007s] ( 1/4) p3::it it_abort\n\
            \x20 TRY 2 SEGV [   0.008s] ( 2/4) p3::it it_segv\n\
            \x20     SIGILL [   0.002s] ( 3/4) p3::it it_ill\n\
            error: test run failed\n";
        let envelope = cargo_test(input.as_bytes());
        let items: Vec<(&Value, &Value, &Value)> = (envelope.items.iter())
            .map(|item| (&item["name"], &item["binary"], &item["message"]))
            .collect();
        assert_eq!(
            items,
            [
                (
                    &json!("it_abort"),
                    &json!("p3::it"),
                    &json!("killed by SIGABRT after 0.007s")
                ),
                (
                    &json!("it_segv"),
                    &json!("p3::it"),
                    &json!("killed by SIGSEGV after 0.008s")
                ),
                (
                    &json!("it_ill"),
                    &json!("p3::it"),
                    &json!("killed by SIGILL after 0.002s")
                ),
            ],
            "{envelope:?}"
        );
        assert!(
            (envelope.summary).contains("failed: it_abort, it_segv, it_ill"),
            "{}",
            envelope.summary
        );
    }

    #[test]
    fn nextest_retries_without_the_counter_are_flaky_when_the_last_attempt_passed() {
        // nextest's docs and older versions print no `(───)` before a retried attempt;
        // older ones head its output `--- TRY 1 STDERR: … ---`.
        let new = "    Starting 2 tests across 2 binaries\n\
            \x20 TRY 1 FAIL [   0.003s] fx::basic flaky\n\
            \x20 stderr ───\n\n\
            \x20   thread 'flaky' panicked at tests/basic.rs:53:9:\n\
            \x20   attempt 1 fails\n\n\
            \x20 TRY 2 PASS [   0.002s] fx::basic flaky\n\
            \x20 TRY 1 FAIL [   0.003s] fx::basic always\n\
            \x20 TRY 2 FAIL [   0.003s] fx::basic always\n\
            \x20 stderr ───\n\n\
            \x20   thread 'always' panicked at tests/basic.rs:60:9:\n\
            \x20   every attempt fails\n\n\
            ────────────\n\
            \x20    Summary [   0.021s] 2 tests run: 1 passed (1 flaky), 1 failed, 25 skipped\n\
            \x20  FLAKY 2/2 [   0.002s] fx::basic flaky\n\
            \x20 TRY 2 FAIL [   0.003s] fx::basic always\n";
        let old = "    Starting 1 test across 2 binaries (11 skipped)\n\
            \x20 TRY 1 FAIL [   0.003s] fx::basic flaky\n\n\
            --- TRY 1 STDOUT:        fx::basic flaky ---\n\n\
            running 1 test\ntest flaky ... FAILED\n\nfailures:\n\nfailures:\n    flaky\n\n\
            test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 17 filtered out; finished in 0.00s\n\n\n\
            --- TRY 1 STDERR:        fx::basic flaky ---\n\
            thread 'flaky' panicked at tests/basic.rs:53:9:\n\
            attempt 1 fails\n\n\
            \x20 TRY 2 PASS [   0.002s] fx::basic flaky\n\
            ------------\n\
            \x20    Summary [   0.021s] 1 test run: 1 passed (1 flaky), 25 skipped\n\
            \x20  FLAKY 2/3 [   0.002s] fx::basic flaky\n";
        let kinds = |input: &str| {
            let envelope = cargo_test(input.as_bytes());
            let items = (envelope.items.iter())
                .map(|item| {
                    (
                        item["kind"].clone(),
                        item["name"].clone(),
                        item["message"].clone(),
                    )
                })
                .collect::<Vec<_>>();
            (envelope.summary, items)
        };
        let (summary, items) = kinds(new);
        assert!(
            summary.starts_with("2 tests run: 1 passed (1 flaky); 1 failed; 25 skipped"),
            "{summary}"
        );
        assert_eq!(
            items,
            [
                (
                    json!("failed"),
                    json!("always"),
                    json!("every attempt fails")
                ),
                (json!("flaky"), json!("flaky"), json!("attempt 1 fails"))
            ]
        );
        let (summary, items) = kinds(old);
        assert!(
            summary.starts_with("1 tests run: 1 passed (1 flaky); 0 failed"),
            "{summary}"
        );
        assert_eq!(
            items,
            [(json!("flaky"), json!("flaky"), json!("attempt 1 fails"))]
        );
    }

    #[test]
    fn pytest_9_tb_line_reports_pair_with_their_tests() {
        // pytest 9 writes each `--tb=line` report's message above it (`E   …`, its
        // explanation indented), what the test printed between them, and a report with
        // no place twice; a test that failed and then errored in teardown has both; a
        // chained exception has a message for each, the report placing the last.
        let input =
            "=================================== ERRORS ===================================\n\
            ___________ ERROR at teardown of test_both ___________\n\
            E   OSError: cleanup failed\n\
            =================================== FAILURES ===================================\n\
            E   KeyError: 'k'\n\n\
            The above exception was the direct cause of the following exception:\n\
            E   TypeError: wrapped\n\
            /src/test_a.py:1: TypeError: wrapped\n\
            E   assert 1 == 2\n\
            /src/test_a.py:2: assert 1 == 2\n\
            E   AssertionError: assert 4 == 99\n\
            \x20    +  where 4 = len('x::y')\n\
            /src/test_a.py:5: AssertionError: assert 4 == 99\n\
            [XPASS(strict)] known bug\n\
            [XPASS(strict)] known bug\n\
            E   KeyError: 'missing'\n\
            ----------------------------- Captured stdout call -----------------------------\n\
            hello from three\n\
            /src/test_a.py:40: not this one\n\
            /src/test_a.py:8: KeyError: 'missing'\n\
            =========================== short test summary info ============================\n\
            FAILED test_a.py::test_chained - TypeError: wrapped\n\
            FAILED test_a.py::test_one - assert 1 == 2\n\
            FAILED test_a.py::test_both - AssertionError: assert 4 == 99\n\
            FAILED test_a.py::test_strict - [XPASS(strict)] known bug\n\
            FAILED test_a.py::test_three - KeyError: 'missing'\n\
            ERROR test_a.py::test_both - OSError: cleanup failed\n\
            ========================= 5 failed, 1 error in 0.02s =========================\n";
        let envelope = pytest(input);
        let mut items: Vec<(String, String, Value)> = (envelope.items.iter())
            .map(|item| {
                let id = format!(
                    "{} {}",
                    item["kind"].as_str().unwrap(),
                    item["nodeid"].as_str().unwrap()
                );
                (id, item["message"].to_string(), item["line"].clone())
            })
            .collect();
        items.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
        let want = [
            (
                "error test_a.py::test_both",
                "\"cleanup failed\"",
                Value::Null,
            ),
            (
                "failed test_a.py::test_both",
                "\"assert 4 == 99\"",
                json!(5),
            ),
            ("failed test_a.py::test_chained", "\"wrapped\"", json!(1)),
            ("failed test_a.py::test_one", "\"assert 1 == 2\"", json!(2)),
            (
                "failed test_a.py::test_strict",
                "\"known bug\"",
                Value::Null,
            ),
            ("failed test_a.py::test_three", "\"'missing'\"", json!(8)),
        ];
        let want: Vec<(String, String, Value)> = (want.into_iter())
            .map(|(id, message, line)| (id.to_string(), message.to_string(), line))
            .collect();
        assert_eq!(items, want, "{envelope:?}");
    }

    #[test]
    fn a_diagnostic_printed_again_for_the_tests_build_is_one_error() {
        // An older cargo prints the library's errors again for `(lib test)`.
        let error = "error[E0308]: mismatched types\n  --> src/store.rs:57:20\n   |\n\
            57 |         return acct.map(|a| a.cents);\n   |                ^^^^ expected `u64`\n\n";
        let warning = "warning: unused import: `std::fmt`\n --> src/lib.rs:1:5\n  |\n\
            1 | use std::fmt;\n  |     ^^^^^^^^\n\n";
        let input = format!(
            "   Compiling ledger v0.3.1\n{warning}{error}\
            error: could not compile `ledger` (lib) due to 1 previous error\n\
            warning: build failed, waiting for other jobs to finish...\n{warning}{error}\
            error: could not compile `ledger` (lib test) due to 1 previous error\n"
        );
        let envelope = cargo_test(input.as_bytes());
        assert!(
            envelope
                .summary
                .starts_with("build failed: 1 error (1 E0308); no test results: counts unknown; 1 warning (1 unused import: `_`)"),
            "{}",
            envelope.summary
        );
        let kinds: Vec<&Value> = envelope.items.iter().map(|item| &item["kind"]).collect();
        assert_eq!(kinds, [&json!("error")], "{envelope:?}");
        // The same message at another place is another error.
        let elsewhere = error.replace("57:20", "58:20");
        let envelope = cargo_test(format!("{error}{elsewhere}").as_bytes());
        assert_eq!(envelope.items.len(), 2, "{envelope:?}");
    }

    #[test]
    fn a_nextest_timeout_or_signal_is_the_failure_message() {
        let input = "    Starting 3 tests across 1 binary\n\
            \x20       PASS [   0.002s] demo t::ok\n\
            \x20    TIMEOUT [  60.001s] demo t::slow\n\
            \x20    SIGSEGV [   0.031s] demo t::ffi\n\
            \x20  LEAK-FAIL [   0.010s] demo t::leaky\n\
            ------------\n\
            \x20    Summary [  60.040s] 4 tests run: 1 passed, 3 failed\n";
        let envelope = cargo_test(input.as_bytes());
        assert_eq!(
            named(&envelope),
            [
                (
                    &json!("t::slow"),
                    &json!("timed out after 60.001s (nextest's TIMEOUT)")
                ),
                (&json!("t::ffi"), &json!("killed by SIGSEGV after 0.031s")),
                (
                    &json!("t::leaky"),
                    &json!("leaked handles: a failure under nextest's leak policy (LEAK-FAIL)")
                ),
            ],
            "{envelope:?}"
        );
    }

    #[test]
    fn a_doc_test_that_did_not_compile_has_rustcs_error_as_its_message() {
        // As rustdoc 1.95 reports it.
        let input = "   Doc-tests dt\n\nrunning 1 test\ntest src/lib.rs - add (line 3) ... FAILED\n\n\
            failures:\n\n---- src/lib.rs - add (line 3) stdout ----\n\
            error[E0425]: cannot find value `x` in this scope\n --> src/lib.rs:6:15\n  |\n\
            6 | assert_eq!(y, x);\n  |               ^\n\n\
            error: aborting due to 1 previous error\n\nCouldn't compile the test.\n\n\
            failures:\n    src/lib.rs - add (line 3)\n\n\
            test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.03s\n";
        let envelope = cargo_test(input.as_bytes());
        assert_eq!(
            item(&envelope, 0)["message"],
            "error[E0425]: cannot find value `x` in this scope",
            "{envelope:?}"
        );
        // Where the error is, not where the block starts, with its marks kept.
        assert_eq!(item(&envelope, 0)["location"], "src/lib.rs:6:15");
        let with_notes = input.replace(
            "  |               ^\n",
            "  |               ^\n  |\n  = note: a\n  = note: b\n  = note: c\n  = note: d\n\
             \x20 = note: e\n  = note: f\n  = note: g\n  = note: h\n",
        );
        let envelope = cargo_test(with_notes.as_bytes());
        let captured = item(&envelope, 0)["captured"].as_str().unwrap().to_string();
        assert!(
            captured.contains(" --> src/lib.rs:6:15") && captured.contains("  |               ^"),
            "{captured}"
        );
        // A unit test that prints an error line is not said to have failed to compile.
        let printed = "\nrunning 1 test\ntest t::a ... FAILED\n\nfailures:\n\n---- t::a stdout ----\n\
            error: disk full\n\nfailures:\n    t::a\n\n\
            test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.03s\n";
        let envelope = cargo_test(printed.as_bytes());
        assert_eq!(item(&envelope, 0)["message"], Value::Null, "{envelope:?}");
    }

    #[test]
    fn a_stack_overflow_names_its_test() {
        // As cargo 1.95 prints it, stderr with stdout.
        let input = "     Running unittests src/lib.rs (target/debug/deps/dt-3ade92ba79ce05d3)\n\n\
            running 2 tests\ntest tests::fine ... ok\n\n\
            thread 'tests::overflows' (13367) has overflowed its stack\n\
            fatal runtime error: stack overflow, aborting\n\
            error: test failed, to rerun pass `--lib`\n\nCaused by:\n  \
            process didn't exit successfully: `/tmp/dt-3ade92ba79ce05d3` (signal: 6, SIGABRT: process abort signal)\n";
        let envelope = cargo_test(input.as_bytes());
        let crashed = &envelope.items[0];
        assert_eq!(crashed["kind"], "crashed", "{envelope:?}");
        assert_eq!(crashed["name"], "tests::overflows");
        // A thread that is no test's names none.
        let main = input.replace("'tests::overflows'", "'main'");
        let envelope = cargo_test(main.as_bytes());
        assert_eq!(envelope.items[0]["name"], Value::Null, "{envelope:?}");
        // On one thread (`--test-threads=1`) libtest named the test before it crashed,
        // whatever thread's stack overflowed; an abort's line has cargo's error after it.
        let crashed = |input: &str| cargo_test(input.as_bytes()).items[0]["name"].clone();
        let spawned = "\nrunning 1 test\ntest spawns ... \n\
            thread '<unknown>' (31983) has overflowed its stack\n\
            fatal runtime error: stack overflow, aborting\n\
            error: test failed, to rerun pass `--test spawned`\n";
        assert_eq!(crashed(spawned), "spawns");
        let aborted = "\nrunning 2 tests\ntest aborts ... error: test failed, to rerun pass `--test segv`\n\n\
            Caused by:\n  process didn't exit successfully: `/t/segv` (signal: 6, SIGABRT: process abort signal)\n";
        assert_eq!(crashed(aborted), "aborts");
        // libtest's JSON: the one test started without an outcome.
        let json = concat!(
            r#"{ "type": "suite", "event": "started", "test_count": 2 }"#,
            "\n",
            r#"{ "type": "test", "event": "started", "name": "fine" }"#,
            "\n",
            r#"{ "type": "test", "name": "fine", "event": "ok" }"#,
            "\n",
            r#"{ "type": "test", "event": "started", "name": "spawns" }"#,
            "\n",
            "thread '<unknown>' (28424) has overflowed its stack\n",
            "fatal runtime error: stack overflow, aborting\n",
        );
        assert_eq!(crashed(json), "spawns");
        // Of two started without one, neither can be told.
        let two = json.replace(
            r#""name": "fine", "event": "ok""#,
            r#""name": "other", "event": "ok""#,
        );
        assert_eq!(crashed(&two), Value::Null);
    }

    #[test]
    fn a_doc_test_is_placed_where_it_is_not_where_rustdoc_built_it() {
        // Edition 2024 builds doc-tests in a temporary bundle: its place says nothing.
        let input = "   Doc-tests fl\n\nrunning 1 test\ntest src/lib.rs - add (line 3) ... FAILED\n\n\
            failures:\n\n---- src/lib.rs - add (line 3) stdout ----\n\
            Test executable failed (exit status: 101).\n\nstderr:\n\n\
            thread 'main' (1) panicked at /tmp/rustdoctestAbc/doctest_bundle_2024.rs:14:1:\n\
            assertion `left == right` failed\n  left: 4\n right: 5\n\n\
            failures:\n    src/lib.rs - add (line 3)\n\n\
            test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.19s\n";
        let envelope = cargo_test(input.as_bytes());
        assert_eq!(
            item(&envelope, 0)["location"],
            "src/lib.rs:3",
            "{envelope:?}"
        );
        assert_eq!(item(&envelope, 0)["left"], "4");
    }

    /// One failing test's report in libtest's words, `panic` its lines after the panic's
    /// place.
    fn one_failure(panic: &str) -> Vec<u8> {
        format!(
            "running 1 test\ntest t ... FAILED\n\nfailures:\n\n---- t stdout ----\n\
             thread 't' (7) panicked at src/lib.rs:9:5:\n{panic}\n\
             note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n\n\
             failures:\n    t\n\n\
             test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s\n"
        )
        .into_bytes()
    }

    #[test]
    fn a_value_whose_debug_takes_several_lines_is_whole() {
        let envelope = cargo_test(&one_failure(
            "assertion `left == right` failed\n  left: Schema {\n    field: \"a}\",\n}\n right: [\n    1,\n]",
        ));
        let failed = item(&envelope, 0);
        assert_eq!(
            failed["left"], "Schema {\n    field: \"a}\",\n}",
            "{failed}"
        );
        assert_eq!(failed["right"], "[\n    1,\n]");
        assert_eq!(failed["message"], "assertion `left == right` failed");
        // Its fields may be named left and right; characters may be brackets or quotes.
        let node = |leaf: u8| {
            format!("Node {{\n    left: Leaf(\n        1,\n    ),\n    right: Leaf(\n        {leaf},\n    ),\n}}")
        };
        let envelope = cargo_test(&one_failure(&format!(
            "assertion `left == right` failed\n  left: {}\n right: {}",
            node(2),
            node(3)
        )));
        assert_eq!(
            item(&envelope, 0)["left"],
            node(2),
            "{}",
            item(&envelope, 0)
        );
        assert_eq!(item(&envelope, 0)["right"], node(3));
        let chars = "[\n    \"a\\\"]\",\n    ']',\n    '\\'',\n    '\\u{7f}',\n    '{',\n]";
        let envelope = cargo_test(&one_failure(&format!(
            "assertion `left == right` failed\n  left: {chars}\n right: ('\"', [2])"
        )));
        assert_eq!(item(&envelope, 0)["left"], chars, "{}", item(&envelope, 0));
        assert_eq!(item(&envelope, 0)["right"], "('\"', [2])");
        assert_eq!(
            item(&envelope, 0)["message"],
            "assertion `left == right` failed"
        );
        // A value left open ends at libtest's ` right: `.
        let envelope = cargo_test(&one_failure(
            "assertion `left == right` failed\n  left: Foo(1..[\n right: 2",
        ));
        assert_eq!(
            item(&envelope, 0)["left"],
            "Foo(1..[",
            "{}",
            item(&envelope, 0)
        );
        assert_eq!(item(&envelope, 0)["right"], "2");
        // A line value followed by the message's own lines: they stay the message's.
        let envelope = cargo_test(&one_failure(
            "assertion failed: `(left == right)`\n  left: `1`,\n right: `2`: sums differ",
        ));
        assert_eq!(item(&envelope, 0)["right"], "`2`: sums differ");
        // A value past MAX_VALUE_BYTES is cut, and says so.
        let long: String = (0..2000).map(|n| format!("    {n},\n")).collect();
        let envelope = cargo_test(&one_failure(&format!(
            "assertion `left == right` failed\n  left: [\n{long}]\n right: []"
        )));
        let left = item(&envelope, 0)["left"].as_str().unwrap();
        assert!(left.len() <= cargo::MAX_VALUE_BYTES + 16, "{}", left.len());
        assert!(
            left.starts_with("[\n    0,\n") && left.ends_with("…[cut]"),
            "{left}"
        );
        assert_eq!(item(&envelope, 0)["right"], "[]");
        // nextest's report indents the binary's output: the value's own indent is kept,
        // libtest's list of failures left out.
        let nextest = "    Starting 1 test across 1 binary\n        FAIL [   0.005s] (1/1) ct t\n\
            \x20 stdout ───\n\n    running 1 test\n    test t ... FAILED\n\n    failures:\n\n\
            \x20   failures:\n        t\n\n\
            \x20   test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n\
            \x20 stderr ───\n\n    thread 't' (7) panicked at src/lib.rs:9:5:\n\
            \x20   assertion `left == right` failed\n      left: Schema {\n        field: id,\n    }\n\
            \x20    right: 1\n\n────────────\n\
            \x20    Summary [   0.005s] 1 test run: 0 passed, 1 failed, 0 skipped\n\
            \x20       FAIL [   0.005s] (1/1) ct t\nerror: test run failed\n";
        let envelope = cargo_test(nextest.as_bytes());
        let failed = item(&envelope, 0);
        assert_eq!(failed["left"], "Schema {\n    field: id,\n}", "{failed}");
        assert_eq!(failed["right"], "1");
        let detail = failed["detail"].as_str().unwrap();
        assert!(!detail.contains("failures"), "{detail}");
        assert!(failed.get("captured").is_none(), "{failed}");
    }

    #[test]
    fn a_test_fails_by_its_last_panic_and_its_own_lines_in_the_list_are_its_output() {
        // A test that caught a panic (`catch_unwind`) and then panicked; one that printed
        // libtest's own lines, `failures:` and a report's heading among them; one whose
        // thread panicked, then the test at its `join().unwrap()`: the first says why.
        let input = "     Running unittests src/lib.rs (target/debug/deps/ct-1)\n\n\
            running 3 tests\ntest tests::caught ... FAILED\ntest tests::prints ... FAILED\n\
            test tests::spawns ... FAILED\n\n\
            failures:\n\n---- tests::caught stdout ----\n\n\
            thread 'tests::caught' (7) panicked at src/lib.rs:12:45:\ninner caught panic\n\
            note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n\n\
            thread 'tests::caught' (7) panicked at src/lib.rs:13:9:\nouter real failure\n\n\
            ---- tests::prints stdout ----\nfailures:\n---- fake::other stdout ----\n\n\
            thread 'tests::prints' (8) panicked at src/lib.rs:9:9:\nreal failure\n\n\
            ---- tests::spawns stdout ----\n\n\
            thread '<unnamed>' (9) panicked at src/lib.rs:20:13:\nworker gave up\n\n\
            thread 'tests::spawns' (10) panicked at src/lib.rs:22:18:\n\
            called `Result::unwrap()` on an `Err` value: Any { .. }\n\n\n\
            failures:\n    tests::caught\n    tests::prints\n    tests::spawns\n\n\
            test result: FAILED. 0 passed; 3 failed; 0 ignored; 0 measured; 0 filtered out; \
            finished in 0.00s\n\n";
        let envelope = cargo_test(input.as_bytes());
        assert_eq!(envelope.total_items, 3, "{:?}", envelope.items);
        assert_eq!(
            envelope.stats["failed"],
            serde_json::json!(["tests::caught", "tests::prints", "tests::spawns"])
        );
        let spawns = item(&envelope, 2);
        assert_eq!(spawns["location"], "src/lib.rs:20:13", "{spawns}");
        let caught = item(&envelope, 0);
        assert_eq!(caught["location"], "src/lib.rs:13:9", "{caught}");
        assert_eq!(caught["message"], "outer real failure", "{caught}");
        let prints = item(&envelope, 1);
        assert_eq!(prints["location"], "src/lib.rs:9:9", "{prints}");
        assert_eq!(prints["message"], "real failure", "{prints}");
        let captured = prints["captured"].as_str().unwrap();
        assert!(
            captured.contains("failures:\n---- fake::other stdout ----"),
            "{captured}"
        );
    }

    #[test]
    fn a_child_run_a_test_printed_is_its_output_and_its_own_panic_says_why() {
        // A test that runs its test binary as a child and prints the child's output,
        // libtest's own lines (`failures:` after a blank line, a report, a result) among
        // it, then fails at its own assertion: the child's test (ignored in this run) is
        // no failure, its result no binary's, and the item says the test's own panic.
        let child = "child stdout:\n\nrunning 1 test\ntest tests::helper ... FAILED\n\n\
            failures:\n\n---- tests::helper stdout ----\n\n\
            thread 'tests::helper' (5) panicked at src/lib.rs:7:9:\nchild: bad port\n\n\n\
            failures:\n    tests::helper\n\n\
            test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 1 filtered out; \
            finished in 0.01s\n\n\n";
        let own = "thread 'tests::runs_child' (4) panicked at src/lib.rs:18:9:\n\
            assertion `left == right` failed: the child should succeed\n  left: Some(101)\n \
            right: Some(0)\n\n";
        let input = format!(
            "     Running unittests src/lib.rs (target/debug/deps/ct-1)\n\n\
            running 2 tests\ntest tests::helper ... ignored\ntest tests::runs_child ... FAILED\n\n\
            failures:\n\n---- tests::runs_child stdout ----\n{child}\n{own}\n\
            failures:\n    tests::runs_child\n\n\
            test result: FAILED. 0 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; \
            finished in 0.01s\n\n"
        );
        let text = cargo_test(input.as_bytes());
        // nextest's report of the same test, the child's panic read first.
        let indented = |text: &str| {
            let lines = text.lines().map(|line| match line {
                "" => String::new(),
                _ => format!("    {line}"),
            });
            lines.collect::<Vec<_>>().join("\n")
        };
        let nextest = format!(
            "        FAIL [   0.025s] (1/1) ct tests::runs_child\n  stdout ───\n\n\
            \x20   running 1 test\n{}\n    test tests::runs_child ... FAILED\n\n\
            \x20   failures:\n\n    failures:\n        tests::runs_child\n\n\
            \x20   test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 1 filtered \
            out; finished in 0.01s\n\n  stderr ───\n{}\n\n\
            ────────────\n     Summary [   0.028s] 1 test run: 0 passed, 1 failed, 1 skipped\n",
            indented(child),
            indented(own),
        );
        let nextest = cargo_test(nextest.as_bytes());
        for envelope in [&text, &nextest] {
            assert_eq!(envelope.total_items, 1, "{:?}", envelope.items);
            assert_eq!(
                envelope.stats["failed"],
                serde_json::json!(["tests::runs_child"])
            );
            let failure = item(envelope, 0);
            assert_eq!(failure["location"], "src/lib.rs:18:9", "{failure}");
            assert_eq!(
                failure["message"],
                "assertion `left == right` failed: the child should succeed"
            );
            assert_eq!(failure["left"], "Some(101)");
            // The child's panic stays among the item's lines.
            let detail = failure["detail"].as_str().unwrap();
            assert!(detail.contains("child: bad port"), "{detail}");
        }
        assert_eq!(text.stats["totals"]["failed"], 1, "{}", text.summary);
        assert_eq!(text.stats["totals"]["ignored"], 1, "{}", text.summary);
        assert_eq!(text.stats["binaries"].as_array().unwrap().len(), 1);
        let captured = item(&text, 0)["captured"].as_str().unwrap();
        assert!(
            captured.contains("failures:\n\n---- tests::helper stdout"),
            "{captured}"
        );
    }

    #[test]
    fn a_quiet_runs_dots_name_no_test_and_its_list_of_failures_ends_a_report() {
        // An older libtest's `-q` marks failures by dots: a report's `failures:` after a
        // blank line cannot be told a child run's by the names, and ends the report.
        let input = "\nrunning 2 tests\n.F\nfailures:\n\n---- tests::b stdout ----\n\n\
            thread 'tests::b' (3) panicked at src/lib.rs:3:5:\nboom\n\n\n\
            failures:\n    tests::b\n\n\
            test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; \
            finished in 0.00s\n\n";
        let envelope = cargo_test(input.as_bytes());
        assert_eq!(
            envelope.stats["totals"]["passed"], 1,
            "{}",
            envelope.summary
        );
        assert_eq!(envelope.stats["totals"]["failed"], 1);
        assert_eq!(item(&envelope, 0)["message"], "boom");
    }

    #[test]
    fn a_threads_panic_the_test_passes_on_says_why_and_its_own_panic_outranks_another() {
        // Threads the test named panic before it: at `.expect(…)` on their join it passes
        // the panic on (the thread's says why); at its own assertion, its own says why.
        let report = |name: &str, own: &str| {
            format!(
                "---- tests::{name} stdout ----\n\n\
                thread 'worker-1' (9) panicked at src/lib.rs:20:13:\nworker gave up\n\n\
                thread 'tests::{name}' (10) panicked at src/lib.rs:22:18:\n{own}\n\n"
            )
        };
        let input = format!(
            "     Running unittests src/lib.rs (target/debug/deps/ct-1)\n\n\
            running 2 tests\ntest tests::joins ... FAILED\ntest tests::checks ... FAILED\n\n\
            failures:\n\n{}{}\n\
            failures:\n    tests::joins\n    tests::checks\n\n\
            test result: FAILED. 0 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; \
            finished in 0.00s\n\n",
            report("joins", "the worker: Any { .. }"),
            report("checks", "no reply from the worker"),
        );
        let envelope = cargo_test(input.as_bytes());
        let joins = item(&envelope, 0);
        assert_eq!(joins["location"], "src/lib.rs:20:13", "{joins}");
        assert_eq!(joins["message"], "worker gave up\nthe worker: Any { .. }");
        let checks = item(&envelope, 1);
        assert_eq!(checks["location"], "src/lib.rs:22:18", "{checks}");
        assert_eq!(checks["message"], "no reply from the worker");
    }

    #[test]
    fn a_test_binary_that_rejects_its_arguments_stopped_and_is_no_build_error() {
        // `cargo test -- -Z unstable-options` on a stable toolchain.
        let input = "    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.03s\n\
            \x20    Running unittests src/lib.rs (target/debug/deps/ct1-6c70)\n\
            error: the option `Z` is only accepted on the nightly compiler\n\
            error: test failed, to rerun pass `--lib`\n";
        let envelope = cargo_test(input.as_bytes());
        assert!(
            !envelope.summary.starts_with("build failed"),
            "{}",
            envelope.summary
        );
        assert!(
            envelope.summary.contains(
                "it stopped: error: the option `Z` is only accepted on the nightly compiler"
            ),
            "{}",
            envelope.summary
        );
        let crashed = item(&envelope, 0);
        assert_eq!(crashed["kind"], "crashed", "{crashed}");
        assert_eq!(crashed["binary"], "ct1: unittests src/lib.rs", "{crashed}");
    }

    #[test]
    fn a_test_that_returned_an_error_under_nocapture_is_named_by_it() {
        let input = "     Running unittests src/lib.rs (target/debug/deps/ct-1)\n\n\
            running 2 tests\ntest tests::fine ... ok\nError: \"returned error\"\n\
            test tests::result_err ... FAILED\n\nfailures:\n    tests::result_err\n\n\
            test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; \
            finished in 0.00s\n\n";
        let envelope = cargo_test(input.as_bytes());
        assert_eq!(envelope.total_items, 1, "{:?}", envelope.items);
        let failed = item(&envelope, 0);
        assert_eq!(failed["name"], "tests::result_err", "{failed}");
        assert_eq!(failed["message"], "Error: \"returned error\"", "{failed}");
        // Not a line before another's result.
        let other = input.replace(
            "test tests::fine ... ok\nError: \"returned error\"\n",
            "Error: \"x\"\ntest tests::fine ... ok\n",
        );
        let envelope = cargo_test(other.as_bytes());
        assert!(
            item(&envelope, 0).get("message").is_none(),
            "{:?}",
            envelope.items
        );
    }

    #[test]
    fn a_panic_that_aborts_the_binary_is_one_crashed_item_of_its_test() {
        // A panic in a destructor while unwinding: libtest never gets the outcome.
        let input = "     Running unittests src/lib.rs (target/debug/deps/ab-1)\n\n\
            running 2 tests\ntest tests::fine ... ok\n\n\
            thread 'tests::double_panic' (1) panicked at src/lib.rs:8:40:\nfirst panic\n\
            note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n\n\
            thread 'tests::double_panic' (1) panicked at src/lib.rs:4:47:\ndrop panicked too\n\n\
            thread 'tests::double_panic' (1) panicked at /rustc/x/library/core/src/panicking.rs:233:5:\n\
            panic in a destructor during cleanup\nthread caused non-unwinding panic. aborting.\n\
            error: test failed, to rerun pass `--lib`\n\nCaused by:\n  process didn't exit \
            successfully: `/tmp/ab/target/debug/deps/ab-1` (signal: 6, SIGABRT: process abort signal)\n";
        let envelope = cargo_test(input.as_bytes());
        assert_eq!(envelope.total_items, 1, "{:?}", envelope.items);
        let crashed = item(&envelope, 0);
        assert_eq!(crashed["kind"], "crashed", "{crashed}");
        assert_eq!(crashed["name"], "tests::double_panic");
        assert_eq!(crashed["location"], "src/lib.rs:8:40");
        let message = crashed["message"].as_str().unwrap();
        assert!(message.starts_with("first panic\n"), "{message}");
        assert!(
            message.ends_with("(signal: 6, SIGABRT: process abort signal)"),
            "{message}"
        );
        let detail = crashed["detail"].as_str().unwrap();
        assert!(!detail.contains("Caused by:"), "{detail}");
        assert!(
            envelope.summary.contains(
                "it stopped: thread caused non-unwinding panic. aborting. (in tests::double_panic); cargo stopped at the failing `--lib`"
            ),
            "{}",
            envelope.summary
        );
        assert_eq!(envelope.stats["failed"], serde_json::json!([]));
        // Another test's panic before it is that test's failure, not the crash's.
        let other = "thread 'tests::a' (2) panicked at src/lib.rs:30:9:\nassertion `left == right` failed\n\
            \x20 left: 1\n right: 2\n";
        let envelope = cargo_test(
            input
                .replacen(
                    "thread 'tests::double_panic'",
                    &format!("{other}thread 'tests::double_panic'"),
                    1,
                )
                .as_bytes(),
        );
        assert_eq!(envelope.total_items, 2, "{:?}", envelope.items);
        assert_eq!(item(&envelope, 0)["kind"], "failed");
        assert_eq!(item(&envelope, 0)["name"], "tests::a");
        assert_eq!(item(&envelope, 0)["right"], "2");
        assert_eq!(item(&envelope, 1)["kind"], "crashed");
        assert_eq!(item(&envelope, 1)["name"], "tests::double_panic");
        // An ordinary panic, then another test's stack overflow: the crash is that test's.
        let overflow = format!(
            "     Running unittests src/lib.rs (target/debug/deps/ab-1)\n\nrunning 2 tests\n\
             {other}note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n\n\
             thread 'tests::deep' (4) has overflowed its stack\n\
             fatal runtime error: stack overflow, aborting\n\
             error: test failed, to rerun pass `--lib`\n\nCaused by:\n  process didn't exit \
             successfully: `/tmp/ab/target/debug/deps/ab-1` (signal: 6, SIGABRT: process abort signal)\n"
        );
        let envelope = cargo_test(overflow.as_bytes());
        assert_eq!(envelope.total_items, 2, "{:?}", envelope.items);
        assert_eq!(item(&envelope, 0)["kind"], "failed");
        assert_eq!(item(&envelope, 0)["name"], "tests::a");
        assert_eq!(item(&envelope, 1)["kind"], "crashed");
        assert_eq!(item(&envelope, 1)["name"], "tests::deep");
    }

    #[test]
    fn pretty_assertions_values_are_read_from_its_diff() {
        // Coloured as pretty_assertions prints it, with a message of the test's and a
        // blank line both sides have (` `).
        let diff = "assertion failed: `(left == right)`: points\n\n\
            \x1b[1mDiff\x1b[0m \x1b[31m< left\x1b[0m / \x1b[32mright >\x1b[0m :\n \
            Point {\n     x: 1,\n \n\x1b[31m<    y: \x1b[0m\x1b[1;48;5;52;31m2\x1b[0m\x1b[31m,\x1b[0m\n\
            \x1b[32m>    y: \x1b[0m\x1b[1;48;5;22;32m3\x1b[0m\x1b[32m,\x1b[0m\n }\n";
        let envelope = cargo_test(&one_failure(diff));
        let failed = item(&envelope, 0);
        assert_eq!(
            failed["left"], "Point {\n    x: 1,\n\n    y: 2,\n}",
            "{failed}"
        );
        assert_eq!(failed["right"], "Point {\n    x: 1,\n\n    y: 3,\n}");
        let detail = failed["detail"].as_str().unwrap();
        assert!(detail.contains("<    y: 2,\n>    y: 3,"), "{detail}");
        // The same in libtest's JSON, colour codes and all.
        let stdout = format!("thread 't' (7) panicked at src/lib.rs:9:5:\n{diff}");
        let event =
            serde_json::json!({"type": "test", "event": "failed", "name": "t", "stdout": stdout});
        let json = format!(
            "{{\"type\":\"suite\",\"event\":\"started\",\"test_count\":1}}\n{event}\n\
             {{\"type\":\"suite\",\"event\":\"failed\",\"passed\":0,\"failed\":1,\"ignored\":0,\"measured\":0,\"filtered_out\":0}}\n"
        );
        let envelope = cargo_test(json.as_bytes());
        assert_eq!(
            item(&envelope, 0)["right"],
            failed["right"],
            "{:?}",
            envelope.items
        );
        // The same in nextest's reports, which leave out the blank lines around it.
        let indented: String = stdout
            .lines()
            .map(|line| match line {
                "" => "\n".to_string(),
                _ => format!("    {line}\n"),
            })
            .collect();
        let summary =
            "────────────\n     Summary [   0.005s] 1 test run: 0 passed, 1 failed, 0 skipped\n\
            \x20       FAIL [   0.005s] (1/1) ct t\nerror: test run failed\n";
        for report in [
            format!("        FAIL [   0.005s] (1/1) ct t\n  stderr ───\n\n{indented}\n{summary}"),
            format!("        FAIL [   0.005s] ct t\n--- STDERR:              ct t ---\n{stdout}\n{summary}"),
        ] {
            let envelope = cargo_test(report.as_bytes());
            assert_eq!(item(&envelope, 0)["left"], failed["left"], "{report}\n{:?}", envelope.items);
        }
        // assert_ne's one value, the same on both sides.
        let both = "assertion failed: `(left != right)`\n\nBothsides:\n[\n    1,\n]\n"
            .replace("Bothsides", "Both sides");
        let envelope = cargo_test(&one_failure(&both));
        let failed = item(&envelope, 0);
        assert_eq!(failed["left"], "[\n    1,\n]", "{failed}");
        assert_eq!(failed["right"], failed["left"]);
    }

    #[test]
    fn cargo_text_nextest_json_and_rustc() {
        let run = |name: &str| cargo_test(&fixture(name));
        let text = run("cargo-test.txt");
        assert!(text.summary.starts_with("198 passed; 4 failed; 0 ignored"));
        let nextest = run("nextest.txt");
        assert!(nextest
            .summary
            .starts_with("200 tests run: 197 passed; 3 failed"));
        assert_eq!(nextest.total_items, 3);
        let json = run("nextest-libtest.json");
        assert!(json.summary.starts_with("197 passed; 3 failed"));
        assert_eq!(item(&json, 0)["left"], "34");
        let rustc = run("rustc-error.txt");
        assert!(rustc.summary.starts_with("build failed: 1 error (1 E0308)"));
        assert_eq!(item(&rustc, 0)["location"], "a/src/lib.rs:2:5");
        assert!(!rustc.ok);
    }

    #[test]
    fn a_failure_nextest_reports_in_json_and_in_words_is_one() {
        let json = concat!(
            r#"{"type":"suite","event":"started","test_count":3}"#,
            "\n",
            r#"{"type":"test","event":"failed","name":"demo::demo$tests::fails","stdout":"thread 'tests::fails' panicked at src/lib.rs:6:51:\nmath is broken\n"}"#,
            "\n",
            r#"{"type":"suite","event":"failed","passed":2,"failed":1,"ignored":0,"measured":0,"filtered_out":0}"#
        );
        let words = "        FAIL [   0.114s] (2/3) demo tests::fails\n  output ───\n\n    thread 'tests::fails' panicked at src/lib.rs:6:51:\n    math is broken\n\n";
        for input in [format!("{json}\n{words}"), format!("{words}{json}\n")] {
            let envelope = cargo_test(input.as_bytes());
            assert_eq!(envelope.total_items, 1, "{}", envelope.to_json());
            assert_eq!(item(&envelope, 0)["binary"], "demo");
        }
    }

    #[test]
    fn nextest_no_capture_output_is_its_tests() {
        let start = |n: u32, name: &str| {
            format!("       START [         ] ({n}/3) demo {name}\n\nrunning 1 test\n")
        };
        let result = |failed: bool| {
            let (word, counts) = if failed {
                ("FAILED", "0 passed; 1 failed")
            } else {
                ("ok", "1 passed; 0 failed")
            };
            format!("\ntest result: {word}. {counts}; 0 ignored; 0 measured; 2 filtered out; finished in 0.00s\n\n")
        };
        let input = [
            start(1, "tests::adds"),
            "test tests::adds ... ok\n".into(),
            result(false),
            "        PASS [   0.006s] (1/3) demo tests::adds\n".into(),
            start(2, "tests::fails"),
            "some output\n\nthread 'tests::fails' (1691) panicked at src/lib.rs:6:51:\n\
             math is broken\ntest tests::fails ... FAILED\n\nfailures:\n\nfailures:\n    \
             tests::fails\n"
                .into(),
            result(true),
            "        FAIL [   0.097s] (2/3) demo tests::fails\n".into(),
            start(3, "tests::cut"),
            "thread 'tests::cut' (1700) panicked at src/lib.rs:9:5:\ncut short\n".into(),
        ]
        .concat();
        let envelope = cargo_test(input.as_bytes());
        // Each failure once, with what it printed; the test cut short by the output's end
        // too; no binary for each test's process.
        assert_eq!(envelope.total_items, 2, "{}", envelope.to_json());
        let fails = item(&envelope, 0);
        assert_eq!(fails["name"], "tests::fails");
        assert_eq!(fails["binary"], "demo");
        assert_eq!(fails["message"], "math is broken");
        assert_eq!(fails["captured"], "some output");
        assert_eq!(item(&envelope, 1)["message"], "cut short");
        assert_eq!(envelope.stats["binaries"], serde_json::json!([]));
        // A test that printed no panic before the output ended is not known to fail.
        let cut = input.find("       START [         ] (3/3)").unwrap();
        let input = format!("{}{}working\n", &input[..cut], start(3, "tests::slow"));
        let envelope = cargo_test(input.as_bytes());
        assert_eq!(envelope.total_items, 1, "{}", envelope.to_json());
    }

    #[test]
    fn a_test_failing_in_many_binaries_is_one_failure_each() {
        let binaries = cargo::MAX_BINARIES + 100;
        let mut input = String::new();
        for b in 0..binaries {
            input.push_str(&format!(
                "     Running tests/t{b}.rs (target/debug/deps/t{b}-0123)\n\nrunning 2 tests\n\
                 test same::name ... FAILED\ntest other ... ok\n\nfailures:\n\n\
                 ---- same::name stdout ----\n\nthread 'same::name' (1) panicked at tests/t{b}.rs:3:5:\nboom {b}\n\n\
                 failures:\n    same::name\n\n\
                 test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n"
            ));
        }
        let envelope = cargo_test(input.as_bytes());
        assert_eq!(envelope.total_items, binaries as u64);
        assert!(
            envelope.summary.starts_with(&format!(
                "{binaries} passed; {binaries} failed; 0 ignored across {} test binaries",
                cargo::MAX_BINARIES
            )),
            "{}",
            envelope.summary
        );
        assert_eq!(
            envelope.stats["names_left_out"],
            binaries as u64 - cargo::MAX_NAMES as u64
        );
    }

    #[test]
    fn a_run_cut_off_in_its_progress_says_what_the_progress_marked() {
        // `timeout 4 pytest`: killed while its fourth test ran.
        let input = "============================= test session starts ==============================\n\
            collected 9 items\n\ntest_a.py .E.                                                           [ 33%]\n\
            test_hang.py .FF";
        let envelope = pytest(input);
        assert!(
            envelope.summary.contains(
                "; the progress marked 2 failed and 1 error (F, E) in test_a.py, test_hang.py"
            ),
            "{}",
            envelope.summary
        );
        assert_eq!(
            envelope.stats["progress_marked"],
            serde_json::json!({"test_a.py": [0, 1], "test_hang.py": [2, 0]})
        );
        // With the counts, they say it.
        let counted = format!("{input}\n======================== 2 failed, 4 passed, 1 error in 4.00s ========================\n");
        let envelope = pytest(&counted);
        assert!(
            envelope.stats.get("progress_marked").is_none(),
            "{}",
            envelope.stats
        );
    }

    #[test]
    fn what_pytest_says_after_its_counts_is_its_verdict_too() {
        // pytest-cov's verdict under `--cov-fail-under`, after the tests passed.
        let input = "============================= test session starts ==============================\n\
            collected 3 items\n\ntest_a.py ...                                                            [100%]\n\n\
            ============================== 3 passed in 0.10s ===============================\n\
            ERROR: Coverage failure: total of 50 is less than fail-under=80\n";
        let envelope = pytest(input);
        assert_eq!(
            envelope.summary,
            "3 passed in 0.10s; pytest said: Coverage failure: total of 50 is less than fail-under=80 (line 7)"
        );
        assert_eq!(item(&envelope, 0)["kind"], "pytest-error");
        assert!(!envelope.ok);
        // A line a test printed under `-s`, among the progress, is no verdict.
        let printed = input.replace("test_a.py ...", "test_a.py \nERROR: db not ready\n...");
        let printed = printed.replace(
            "ERROR: Coverage failure: total of 50 is less than fail-under=80\n",
            "",
        );
        assert!(pytest(&printed).ok, "{}", pytest(&printed).summary);
    }

    #[test]
    fn pytest_covs_verdict_above_the_counts_fails_the_run() {
        // pytest 9.2 with pytest-cov 7.1, `--cov-fail-under=90`: its `ERROR:` amid the
        // progress, its `FAIL` in its section, then the counts say only `1 passed`.
        let input = "============================= test session starts ==============================\n\
            collected 1 item\n\ntest_m.py .\n\
            ERROR: Coverage failure: total of 67 is less than fail-under=90\n\
            \x20                                                                        [100%]\n\n\
            ================================ tests coverage ================================\n\
            _______________ coverage: platform linux, python 3.11.7-final-0 ________________\n\n\
            Name     Stmts   Miss  Cover\n----------------------------\nmod.py       6      2    67%\n\
            ----------------------------\nTOTAL        6      2    67%\n\
            FAIL Required test coverage of 90% not reached. Total coverage: 66.67%\n\
            ============================== 1 passed in 0.05s ===============================\n";
        let envelope = pytest(input);
        assert!(!envelope.ok);
        assert_eq!(
            envelope.summary,
            "1 passed in 0.05s; pytest said: FAIL Required test coverage of 90% not reached. \
             Total coverage: 66.67% (line 16)"
        );
        assert_eq!(item(&envelope, 0)["kind"], "pytest-error");
        // Its lines end at the counts' heading.
        let lines = item(&envelope, 0)["traceback"]
            .as_str()
            .unwrap()
            .to_string();
        assert_eq!(lines.lines().count(), 1, "{lines}");
        // Printed by a test under `-s`, amid the progress, it is the test's output; once
        // the progress is done (pytest-cov 4 without a report), pytest-cov's.
        let printed =
            "============================= test session starts ==============================\n\
            collected 1 item\n\ntest_p.py checking coverage gate\n\
            FAIL Required test coverage of 90% not reached. Total coverage: 10.00%\n.\n\n\
            ============================== 1 passed in 0.01s ===============================\n";
        assert!(pytest(printed).ok);
        let done = printed.replace(
            "test_p.py checking coverage gate\n",
            "test_p.py .                                                              [100%]\n",
        );
        let done = done.replace("10.00%\n.\n", "10.00%\n");
        assert!(!pytest(&done).ok, "{}", pytest(&done).summary);
        // Printed by a test, in its report, it is the test's output.
        let captured =
            "=================================== FAILURES ===================================\n\
            ____________________________________ test_a ____________________________________\n\n\
            E       assert 1 == 2\n\ntest_x.py:3: AssertionError\n\
            ----------------------------- Captured stdout call -----------------------------\n\
            FAIL Required test coverage of 90% not reached. Total coverage: 66.67%\n\
            ============================== 1 failed in 0.05s ===============================\n";
        let envelope = pytest(captured);
        assert_eq!(
            envelope.summary,
            "1 failed in 0.05s; 1 AssertionError across 1 module"
        );
        assert!(envelope.stats.get("pytest_error").is_none());
    }

    #[test]
    fn pytest_timeouts_stacks_under_the_signal_method_are_the_tests_output() {
        // `--timeout-method=signal`: the test fails, its report holds the stacks.
        let input = "============================= test session starts ==============================\n\
            timeout: 1.0s\ncollected 1 item\n\ntest_to.py F                                                      [100%]\n\n\
            =================================== FAILURES ===================================\n\
            __________________________________ test_hangs __________________________________\n\n\
            \x20   def test_hangs():\n>       time.sleep(10)\nE       Failed: Timeout (>1.0s) from pytest-timeout.\n\n\
            test_to.py:4: Failed\n\
            ----------------------------- Captured stdout call -----------------------------\n\
            +++++++++++++++++++++++++++++++++++ Timeout ++++++++++++++++++++++++++++++++++++\n\
            ~~~~~~~~~~~~~~~~~~~~ Stack of MainThread (139832993168256) ~~~~~~~~~~~~~~~~~~~~~\n\
            \x20 File \"/src/test_to.py\", line 4, in test_hangs\n    time.sleep(10)\n\
            +++++++++++++++++++++++++++++++++++ Timeout ++++++++++++++++++++++++++++++++++++\n\
            =========================== short test summary info ============================\n\
            FAILED test_to.py::test_hangs - Failed: Timeout (>1.0s) from pytest-timeout.\n\
            ============================== 1 failed in 1.02s ===============================\n";
        let envelope = pytest(input);
        assert_eq!(envelope.total_items, 1);
        assert_eq!(item(&envelope, 0)["kind"], "failed");
        // So it is with the output cut before the counts.
        let cut = &input[..input.find("==== short test summary").unwrap()];
        let envelope = pytest(cut);
        assert!(
            envelope.items.iter().all(|i| i["kind"] == "failed"),
            "{:?}",
            envelope.items
        );
        // The thread method's, outside any report, ends the run: its item says where.
        let thread = "============================= test session starts ==============================\n\
            rootdir: /src\ntimeout: 1.0s\ntimeout method: thread\ncollected 2 items\n\n\
            test_to.py F+++++++++++++++++++++++++++++++++++ Timeout ++++++++++++++++++++++++++++++++++++\n\
            ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~ Captured stdout ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n\
            connecting to db at 10.0.0.5:5432\n\
            ~~~~~~~~~~~~~~~~~ Stack of Thread-1 (worker) (139832958547648) ~~~~~~~~~~~~~~~\n\
            \x20 File \"/src/test_to.py\", line 9, in worker\n    q.get()\n\
            ~~~~~~~~~~~~~~~~~~~~ Stack of MainThread (139832993168256) ~~~~~~~~~~~~~~~~~~~~~\n\
            \x20 File \"/venv/bin/pytest\", line 8, in <module>\n    sys.exit(console_main())\n\
            \x20 File \"/venv/lib/python3.11/site-packages/_pytest/python.py\", line 187, in pytest_pyfunc_call\n\
            \x20   result = testfunction(**testargs)\n\
            \x20 File \"/usr/lib/python3.11/unittest/mock.py\", line 1375, in patched\n\
            \x20   return func(*newargs, **newkeywargs)\n\
            \x20 File \"/src/helpers.py\", line 3, in wrapper\n    return f()\n\
            \x20 File \"/src/test_to.py\", line 4, in test_hangs\n    run_tool()\n\
            \x20 File \"/src/app/client.py\", line 7, in run_tool\n    return subprocess.run([\"sleep\", \"5\"])\n\
            \x20 File \"/usr/lib/python3.11/subprocess.py\", line 1264, in wait\n    return self._wait(timeout=timeout)\n\
            \x20 File \"/usr/lib/python3.11/subprocess.py\", line 2046, in _wait\n    (pid, sts) = self._try_wait(0)\n\
            \x20 File \"/usr/lib/python3.11/subprocess.py\", line 2008, in _try_wait\n    (pid, sts) = os.waitpid(self.pid, wait_flags)\n\
            ~~~~~~~~~~~~~~~~~ Stack of Thread-2 (worker) (139832958547649) ~~~~~~~~~~~~~~~\n\
            \x20 File \"/src/test_to.py\", line 9, in worker\n    q.get()\n\
            +++++++++++++++++++++++++++++++++++ Timeout ++++++++++++++++++++++++++++++++++++\n\
            \x20 File \"/src/after.py\", line 1, in later\n";
        let envelope = pytest(thread);
        let timeout = item(&envelope, 0);
        assert_eq!(timeout["kind"], "timeout");
        // The test's frame past the decorators' wrappers (`mock.patch`'s, the project's
        // own), made relative to the rootdir.
        assert_eq!(
            (&timeout["file"], &timeout["line"]),
            (&"test_to.py".into(), &4.into())
        );
        // The main thread's frames in the project's code, and the innermost.
        let frames = timeout["traceback"].as_str().unwrap();
        assert!(
            frames.starts_with(
                "7: +++ Timeout +++\n  …\n  File \"/src/helpers.py\", line 3, in wrapper\n    return f()\n  \
                 File \"/src/test_to.py\", line 4, in test_hangs\n    run_tool()\n  \
                 File \"/src/app/client.py\", line 7, in run_tool\n"
            ),
            "{frames}"
        );
        assert!(
            frames.ends_with("in _try_wait\n    (pid, sts) = os.waitpid(self.pid, wait_flags)"),
            "{frames}"
        );
        assert_eq!(frames.matches("  File ").count(), 6, "{frames}");
        assert_eq!(
            timeout["captured"],
            "[Captured stdout]\nconnecting to db at 10.0.0.5:5432"
        );
        // The progress before the banner still counts.
        assert_eq!(
            envelope.summary,
            "counts unknown: pytest-timeout stopped the run: test_hangs ran past its timeout \
             (the session's: 1.0s) at test_to.py:4; 0 failure and 0 error reports read; the \
             progress marked 1 failed and 0 errors (F, E) in test_to.py"
        );
        assert_eq!(envelope.total_items, 1);
        // The main thread's stack last, then what came after the report.
        let worker =
            "~~~~~~~~~~~~~~~~~ Stack of Thread-2 (worker) (139832958547649) ~~~~~~~~~~~~~~~\n\
            \x20 File \"/src/test_to.py\", line 9, in worker\n    q.get()\n";
        assert!(thread.contains(worker));
        let envelope = pytest(&thread.replace(worker, ""));
        assert_eq!(item(&envelope, 0)["traceback"], timeout["traceback"]);
        // No test's frame (a fixture hung): the first of the project's code.
        let wrapper = "\x20 File \"/src/helpers.py\", line 3, in wrapper\n    return f()\n";
        assert!(thread.contains(wrapper));
        let fixture = thread
            .replace(wrapper, "")
            .replace("in test_hangs", "in slow_db");
        let envelope = pytest(&fixture);
        assert!(
            envelope.summary.contains(
                ": a test in test_to.py ran past its timeout (the session's: 1.0s) in slow_db \
                 at test_to.py:4;"
            ),
            "{}",
            envelope.summary
        );
        // Another session's counts do not hide it, nor what its progress marked (but
        // what theirs did, they count).
        let passed = "============================= test session starts ==============================\n\
            collected 2 items\n\ntest_ok.py .F\n\n============================== 1 failed, 1 passed in 0.01s ===============================\n";
        let envelope = pytest(&format!("{passed}{thread}"));
        assert!(!envelope.ok);
        assert_eq!(
            envelope.summary,
            "1 failed, 1 passed in 0.01s; the progress marked 1 failed and 0 errors (F, E) in \
             test_to.py; pytest-timeout stopped the run: test_hangs ran past its timeout (the \
             session's: 1.0s) at test_to.py:4"
        );
        // Stopped first, then another session: its progress's marks are said still.
        let envelope = pytest(&format!("{thread}{passed}"));
        assert!(
            envelope.summary.starts_with(
                "1 failed, 1 passed in 0.01s; the progress marked 1 failed and 0 errors (F, E) \
                 in test_to.py; pytest-timeout stopped the run: test_hangs"
            ),
            "{}",
            envelope.summary
        );
        // Its first banner cut off (`| tail -n 20`): the stack's last lines before the
        // second still place it.
        let lines: Vec<&str> = thread.lines().collect();
        let tail = lines[lines.len() - 20..].join("\n");
        let envelope = pytest(&tail);
        let timeout = item(&envelope, 0);
        assert_eq!(timeout["kind"], "timeout");
        assert_eq!(
            (&timeout["file"], &timeout["line"]),
            (&"/src/test_to.py".into(), &4.into())
        );
        // Under the signal method (`-s` shows its stacks, and the run goes on), none.
        let signal = thread.replace("timeout method: thread", "timeout method: signal");
        let envelope = pytest(&signal);
        assert!(
            envelope.items.iter().all(|i| i["kind"] != "timeout"),
            "{:?}",
            envelope.items
        );
    }

    #[test]
    fn a_counts_line_a_test_printed_is_not_the_runs() {
        let input =
            "=================================== FAILURES ===================================\n\
            _________________________________ test_a _________________________________\n\
            \n    def test_a():\n>       assert f() == 2\nE       assert 1 == 2\n\n\
            test_x.py:3: AssertionError\n\
            ----------------------------- Captured stdout call -----------------------------\n\
            ============ 9 passed in 0.01s ============\n\
            more output\n\
            _________________________________ test_b[a - b] _________________________________\n\
            \n    def test_b():\n>       {}['k']\nE       KeyError: 'k'\n\n\
            test_x.py:7: KeyError\n\
            =========================== short test summary info ============================\n\
            FAILED test_x.py::test_a - assert 1 == 2\n\
            FAILED test_x.py::test_b[a - b] - KeyError: 'k'\n";
        let envelope = pytest(input);
        assert!(
            envelope.summary.starts_with("counts unknown"),
            "{}",
            envelope.summary
        );
        assert_eq!(envelope.total_items, 2);
        assert_eq!(item(&envelope, 1)["nodeid"], "test_x.py::test_b[a - b]");
        assert_eq!(item(&envelope, 1)["exception"], "KeyError");
        assert!(item(&envelope, 0)["captured"]
            .as_str()
            .unwrap()
            .contains("more output"));
    }

    #[test]
    fn without_a_counts_line_every_report_read_is_counted() {
        // -qq: no counts line, and more reports than the names kept.
        let mut input =
            "=================================== FAILURES ===================================\n"
                .to_string();
        for i in 0..150 {
            input.push_str(&format!(
                "_________________________________ test_m[{i}] _________________________________\n\
                 \n    def test_m(i):\n>       assert i % 7 == 0\nE       assert 1 == 0\n\n\
                 test_m.py:3: AssertionError\n"
            ));
        }
        let envelope = pytest(&input);
        assert!(
            envelope
                .summary
                .starts_with("counts unknown: pytest printed no final counts line (-qq, interrupted or cut off); 150 failure and 0 error reports read"),
            "{}",
            envelope.summary
        );
        assert_eq!(envelope.total_items, 150);
    }

    #[test]
    fn a_run_without_counts_or_reports_shows_the_outputs_end() {
        // pytest-timeout's thread method stops the run in its test: no report, no counts.
        let mut input =
            "============================= test session starts ==============================\n\
             collected 1 item\n\ntest_h.py \n\
             +++++++++++++++++++++++++++++++++++ Timeout ++++++++++++++++++++++++++++++++++++\n"
                .to_string();
        for i in 0..40 {
            input.push_str(&format!(
                "  File \"/usr/lib/python3.11/x{i}.py\", line {i}, in f\n"
            ));
        }
        input.push_str("  File \"/t/test_h.py\", line 3, in test_hang\n    time.sleep(5)\n");
        let envelope = pytest(&input);
        assert!(
            envelope
                .summary
                .ends_with("; the output's last lines are shown"),
            "{}",
            envelope.summary
        );
        // (The stacks' report cut off: the timeout is known, its test not.)
        assert_eq!(item(&envelope, 0)["kind"], "timeout");
        let end = item(&envelope, 1);
        assert_eq!(end["kind"], "end");
        let lines = end["traceback"].as_str().unwrap();
        assert_eq!(lines.lines().count(), 30, "{lines}");
        assert!(lines.ends_with("\n47:     time.sleep(5)"), "{lines}");
        assert!(
            lines.contains("\n46:   File \"/t/test_h.py\", line 3, in test_hang\n"),
            "{lines}"
        );
        // With a report, the report says what happened: no end.
        let failed = "____ test_a ____\n\n    def test_a():\n>       assert 0\nE       assert 0\n\ntest_x.py:2: AssertionError\n";
        let envelope = pytest(&format!("=== FAILURES ===\n{failed}"));
        assert!(
            envelope.items.iter().all(|i| i["kind"] != "end"),
            "{:?}",
            envelope.items
        );
    }

    #[test]
    fn a_collection_errors_exception_is_the_one_its_e_lines_name() {
        // pytest 8 on a file that does not parse: the first `E` line is the file's place.
        let input = r#"
==================================== ERRORS ====================================
_______________________ ERROR collecting test_syntax.py ________________________
/venv/lib/python3.11/site-packages/_pytest/python.py:498: in importtestmodule
    mod = import_path(
/venv/lib/python3.11/site-packages/_pytest/pathlib.py:587: in import_path
    importlib.import_module(module_name)
/usr/lib/python3.11/importlib/__init__.py:126: in import_module
    return _bootstrap._gcd_import(name[level:], package, level)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
<frozen importlib._bootstrap>:1204: in _gcd_import
    ???
<frozen importlib._bootstrap>:1176: in _find_and_load
    ???
<frozen importlib._bootstrap>:1147: in _find_and_load_unlocked
    ???
<frozen importlib._bootstrap>:690: in _load_unlocked
    ???
/venv/lib/python3.11/site-packages/_pytest/assertion/rewrite.py:177: in exec_module
    source_stat, co = _rewrite_test(fn, self.config)
                      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
/venv/lib/python3.11/site-packages/_pytest/assertion/rewrite.py:357: in _rewrite_test
    tree = ast.parse(source, filename=strfn)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
/usr/lib/python3.11/ast.py:50: in parse
    return compile(source, filename, mode, flags,
E     File "/tmp/syn/test_syntax.py", line 1
E       def test_x(:
E                  ^
E   SyntaxError: invalid syntax
=========================== short test summary info ============================
ERROR test_syntax.py
!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!
1 error in 0.28s
"#;
        let envelope = pytest(input);
        let error = item(&envelope, 0);
        assert_eq!(error["phase"], "collection");
        assert_eq!(error["exception"], "SyntaxError", "{error}");
        assert_eq!(error["message"], "invalid syntax");
        // Its place is in its message.
        assert_eq!(
            (&error["file"], &error["line"]),
            (&json!("test_syntax.py"), &json!(1))
        );
    }

    #[test]
    fn a_crashed_xdist_workers_report_is_its_tests() {
        // pytest-xdist 3: the report is headed by the file; its line names the test.
        let input = r#"bringing up nodes...
bringing up nodes...

.[gw1] node down: Not properly terminated
FF                                                                       [100%]
=================================== FAILURES ===================================
__________________________________ test_x.py ___________________________________
[gw1] linux -- Python 3.11.7 /venv/bin/python
worker 'gw1' crashed while running 'test_x.py::test_crash'
____________________________________ test_b ____________________________________
[gw0] linux -- Python 3.11.7 /venv/bin/python

>   def test_b(): assert 0
                  ^^^^^^^^
E   assert 0

test_x.py:4: AssertionError
=========================== short test summary info ============================
FAILED test_x.py::test_crash
FAILED test_x.py::test_b - assert 0
2 failed, 1 passed in 1.27s
"#;
        let envelope = pytest(input);
        assert_eq!(envelope.total_items, 2, "{}", envelope.to_json());
        let crashed = item(&envelope, 0);
        assert_eq!(crashed["nodeid"], "test_x.py::test_crash");
        assert_eq!(
            crashed["message"],
            "worker 'gw1' crashed while running 'test_x.py::test_crash'"
        );
        assert!(envelope.warnings.is_empty(), "{:?}", envelope.warnings);
    }

    #[test]
    fn two_sessions_in_one_output_are_both_counted() {
        // `cd a && pytest -q; cd ../b && pytest -q`, as `make test` may run them.
        let input = r#"F                                                                        [100%]
=================================== FAILURES ===================================
____________________________________ test_f ____________________________________

>   def test_f(): assert 0
                  ^^^^^^^^
E   assert 0

test_a.py:1: AssertionError
=========================== short test summary info ============================
FAILED test_a.py::test_f - assert 0
1 failed in 0.02s
.s                                                                       [100%]
1 passed, 1 skipped in 0.00s
"#;
        let envelope = pytest(input);
        assert!(
            envelope
                .summary
                .starts_with("2 pytest sessions: 1 failed in 0.02s; 1 passed, 1 skipped in 0.00s"),
            "{}",
            envelope.summary
        );
        assert_eq!(
            envelope.stats["counts"],
            json!({"failed": 1, "passed": 1, "skipped": 1})
        );
        assert!(!envelope.ok);
        assert!(envelope.warnings.is_empty(), "{:?}", envelope.warnings);
    }

    #[test]
    fn skips_expected_failures_and_warnings_are_items_after_the_failures() {
        // `pytest -q -rA`: the warnings summary, and the short summary's reasons.
        let input = r#".sx                                                                      [100%]
=============================== warnings summary ===============================
test_w.py::test_w
  /tmp/two/w/test_w.py:2: DeprecationWarning: old api DECISIVE_W
    def test_w(): warnings.warn(DeprecationWarning("old api DECISIVE_W"))

../venv/lib/python3.11/site-packages/pkg/x.py:5
  /venv/lib/python3.11/site-packages/pkg/x.py:5: DeprecationWarning: pkg_resources is deprecated
    import pkg_resources

-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html
==================================== PASSES ====================================
=========================== short test summary info ============================
PASSED test_w.py::test_w
SKIPPED [1] test_w.py:3: needs gpu
XFAIL test_w.py::test_x - bug 12
1 passed, 1 skipped, 1 xfailed, 1 warning in 0.03s
"#;
        let envelope = pytest(input);
        let items: Vec<Value> = envelope.items.clone();
        assert_eq!(
            items[0],
            json!({"nodeid": "test_w.py::test_w", "file": "test_w.py", "line": 2,
                   "kind": "warning", "exception": "DeprecationWarning", "message": "old api DECISIVE_W"})
        );
        let import = items
            .iter()
            .find(|i| i["message"] == "pkg_resources is deprecated")
            .unwrap();
        assert!(
            import.get("nodeid").is_none(),
            "an import's place is no test: {import}"
        );
        assert_eq!(
            import["file"],
            "/venv/lib/python3.11/site-packages/pkg/x.py"
        );
        let skipped = items.iter().find(|i| i["kind"] == "skipped").unwrap();
        assert_eq!(
            skipped,
            &json!({"file": "test_w.py", "line": 3, "kind": "skipped", "message": "needs gpu"})
        );
        let xfailed = items.iter().find(|i| i["kind"] == "xfailed").unwrap();
        assert_eq!(xfailed["nodeid"], "test_w.py::test_x");
        assert_eq!(xfailed["message"], "bug 12");
        assert_eq!(envelope.total_items, 4);
    }

    #[test]
    fn a_warning_in_another_file_keeps_its_path() {
        // Raised in a file of which the test's is only the end of the name.
        let input = r#"=============================== warnings summary ===============================
w.py::test_w
  /tmp/app/test_w.py:2: UserWarning: elsewhere
    warnings.warn("elsewhere")

-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html
1 passed, 1 warning in 0.03s
"#;
        let envelope = pytest(input);
        assert_eq!(item(&envelope, 0)["file"], "/tmp/app/test_w.py");
    }

    #[test]
    fn a_warnings_message_keeps_its_lines() {
        // pytest 9.2: each line of the message indented by two, its source by four.
        let mut input = String::from(
            "=============================== warnings summary ===============================\n\
            test_w.py::test_multi\n\
            \x20 /tmp/s58/pw/test_w.py:4: UserWarning: first line of the warning\n\
            \x20 second line says why\n\
            \x20 third line: fix it\n\
            \x20   warnings.warn(\"first line of the warning\\nsecond line says why\")\n\n\
            test_w.py::test_dep\n\
            \x20 /tmp/s58/pw/test_w.py:6: DeprecationWarning: old api\n",
        );
        for i in 0..12 {
            input.push_str(&format!("  more {i}\n"));
        }
        input.push_str(
            "\x20   warnings.warn(\"old api\", DeprecationWarning)\n\n\
            -- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html\n\
            2 passed, 2 warnings in 0.03s\n",
        );
        let envelope = pytest(&input);
        assert_eq!(
            item(&envelope, 0)["message"],
            "first line of the warning\nsecond line says why\nthird line: fix it"
        );
        // The first eight lines after the first.
        let long = item(&envelope, 1)["message"].as_str().unwrap().to_string();
        assert_eq!(long.lines().count(), 9, "{long}");
        assert!(long.ends_with("\nmore 7"), "{long}");
        // An output that ends inside its message keeps what came.
        let cut = &input[..input.find("  third line").unwrap()];
        let envelope = pytest(cut);
        assert_eq!(item(&envelope, 0)["kind"], "end");
        assert_eq!(
            item(&envelope, 1)["message"],
            "first line of the warning\nsecond line says why"
        );
    }

    #[test]
    fn a_strict_xfail_that_passed_says_so() {
        let input = r#"F                                                                        [100%]
=================================== FAILURES ===================================
___________________________________ test_xp ____________________________________
[XPASS(strict)] bug 7
=========================== short test summary info ============================
FAILED test_xp.py::test_xp
1 failed in 0.00s
"#;
        let envelope = pytest(input);
        let failed = item(&envelope, 0);
        assert_eq!(failed["exception"], "XPASS(strict)", "{failed}");
        assert_eq!(failed["message"], "bug 7");
        assert_eq!(envelope.stats["by_exception"], json!({"XPASS(strict)": 1}));
    }

    #[test]
    fn counts_lines() {
        let (counts, duration) = parse_counts("3 failed, 1 passed, 2 errors in 0.10s").unwrap();
        assert_eq!(counts["errors"], 2);
        assert_eq!(duration, "0.10s");
        assert!(parse_counts("no tests ran in 0.01s").unwrap().0.is_empty());
        assert!(parse_counts("we ran 3 failed tests in 1s").is_none());
        // pytest before 5.1.
        let (counts, duration) = parse_counts("1 failed, 2 passed in 0.04 seconds").unwrap();
        assert_eq!(
            (counts["failed"].as_u64(), duration.as_str()),
            (Some(1), "0.04 seconds")
        );
        assert!(parse_counts("1 passed in many seconds").is_none());
    }
}
