//! `briefly pytest` and `briefly cargo-test` against the real runners: pytest projects
//! and cargo crates generated in temp dirs at test time.

mod common;

use common::{assert_warns, python, Briefly};
use serde_json::{json, Value};
use std::path::Path;
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The default per-result budget (32K tokens), in characters.
const CAP: usize = 19_660;

fn write(dir: &Path, name: &str, content: &str) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, content).unwrap();
}

/// 160 tests in 4 modules; 37 fail (29 AssertionError, 8 KeyError raised in a helper),
/// each failing test printing 150 lines. Returns the failing node ids.
fn big_pytest_project(dir: &Path) -> Vec<String> {
    write(dir, "helpers.py", "def lookup(d, k):\n    return d[k]\n");
    let mut failing = Vec::new();
    for module in 0..4 {
        let mut source = String::from("from helpers import lookup\n\n");
        for t in 0..40 {
            let i = module * 40 + t;
            source.push_str(&format!("def test_case_{i}():\n"));
            if i % 4 == 1 && failing.len() < 37 {
                source.push_str(&format!(
                    "    for k in range(150):\n        print(f'noise {i} line {{k}}')\n"
                ));
                if failing.len() < 29 {
                    source.push_str(&format!(
                        "    assert {i} * 2 == {}, 'doubling {i}'\n",
                        i * 2 + 1
                    ));
                } else {
                    source.push_str(&format!("    lookup({{'a': 1}}, 'missing_{i}')\n"));
                }
                failing.push(format!("test_mod{module}.py::test_case_{i}"));
            } else {
                source.push_str("    assert True\n");
            }
            source.push('\n');
        }
        write(dir, &format!("test_mod{module}.py"), &source);
    }
    failing
}

/// Runs pytest in `dir` with `args`; its standard output.
fn pytest(dir: &Path, args: &[&str]) -> Output {
    Command::new(python())
        .args(["-m", "pytest", "-p", "no:cacheprovider"])
        .args(args)
        .current_dir(dir)
        .env_remove("PYTEST_ADDOPTS")
        .output()
        .unwrap()
}

/// The node ids of the envelope's items, in order.
fn nodeids(envelope: &Value) -> Vec<String> {
    let items = envelope["items"].as_array().unwrap();
    items
        .iter()
        .map(|i| i["nodeid"].as_str().unwrap().to_string())
        .collect()
}

fn names(envelope: &Value, key: &str) -> Vec<String> {
    envelope["stats"][key]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn pytest_at_every_verbosity_names_all_37_failures_within_the_budget() {
    let project = tempfile::tempdir().unwrap();
    let mut failing = big_pytest_project(project.path());
    failing.sort();
    let b = Briefly::new();
    for args in [
        &["-q"][..],
        &["-qq"],
        &[],
        &["-v"],
        &["-vv"],
        &["--color=yes"],
        &["-rA"],
        &["-n", "2"],
    ] {
        let output = pytest(project.path(), args);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let printed = b.run(&["pytest"], &output.stdout).stdout;
        let envelope = b.envelope(&["pytest"], &output.stdout, CAP);
        let summary = envelope["summary"].as_str().unwrap();
        if args == ["-qq"] {
            // -qq prints no counts line: the counts are unknown, and said so.
            assert!(summary.starts_with("counts unknown"), "{summary}");
            assert_eq!(envelope["stats"]["counts"], Value::Null);
            assert_eq!(envelope["stats"]["counts_known"], false);
        } else {
            assert!(
                summary.starts_with("37 failed, 123 passed in "),
                "{args:?}: {summary}"
            );
            assert_eq!(envelope["stats"]["counts"]["failed"], 37);
            assert_eq!(envelope["stats"]["counts"]["passed"], 123);
        }
        if !args.contains(&"-q") && !args.contains(&"-qq") {
            // `collected 160 items`; under -v, `collecting ... collected 160 items`.
            assert_eq!(envelope["stats"]["collected"], 160, "{args:?}");
        }
        assert!(
            summary.contains("29 AssertionError, 8 KeyError across 4 modules"),
            "{summary}"
        );
        assert_eq!(envelope["ok"], false);
        let mut failed = names(&envelope, "failed");
        failed.sort();
        assert_eq!(failed, failing, "{args:?}");
        let printed = String::from_utf8(printed).unwrap();
        for name in &failing {
            assert!(
                printed.contains(name.as_str()),
                "{args:?}: {name} not inline"
            );
        }
        assert_eq!(envelope["total_items"], 37);
        // Each distinct exception comes before repeats; each item keeps its decisive lines.
        let items = envelope["items"].as_array().unwrap();
        assert_eq!(items[0]["exception"], "AssertionError", "{args:?}");
        assert_eq!(items[1]["exception"], "KeyError", "{args:?}");
        let key_error = &items[1];
        assert!(key_error["message"]
            .as_str()
            .unwrap()
            .starts_with("'missing_"));
        let traceback = key_error["traceback"].as_str().unwrap();
        assert!(
            traceback.contains("E       KeyError: 'missing_"),
            "{traceback}"
        );
        assert!(traceback.contains(">       lookup("), "{traceback}");
        let assertion = &items[0];
        assert!(assertion["traceback"]
            .as_str()
            .unwrap()
            .contains("E       assert ("));
        assert!(assertion["line"].as_u64().is_some());
        let captured = assertion["captured"].as_str().unwrap();
        assert!(
            captured.contains("line 149") && captured.contains("lines …"),
            "{captured}"
        );
    }
}

#[test]
fn pytest_junit_report() {
    let project = tempfile::tempdir().unwrap();
    let mut failing = big_pytest_project(project.path());
    failing.sort();
    let output = pytest(
        project.path(),
        &[
            "-q",
            "--junitxml=report.xml",
            "-o",
            "junit_logging=system-out",
        ],
    );
    assert_eq!(output.status.code(), Some(1));
    let b = Briefly::new();
    let report = project.path().join("report.xml");
    let envelope = b.envelope(&["pytest", "--junit", report.to_str().unwrap()], b"", CAP);
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.starts_with("JUnit report: 37 failed, 123 passed in "),
        "{summary}"
    );
    assert!(
        summary.contains("29 AssertionError, 8 KeyError"),
        "{summary}"
    );
    assert_eq!(envelope["total_items"], 37);
    // JUnit names tests by class and name: the node ids are made again.
    let mut failed = names(&envelope, "failed");
    failed.sort();
    assert_eq!(failed, failing);
    let first = &envelope["items"][0];
    assert!(first["traceback"]
        .as_str()
        .unwrap()
        .contains("E       assert ("));
    assert!(first["captured"].as_str().unwrap().contains("noise"));
    // The report named as the file is read as one; on standard input it is said to be
    // one (a pipe cannot be looked at first).
    let named = b.envelope(&["pytest", report.to_str().unwrap()], b"", CAP);
    assert_eq!(named["summary"], envelope["summary"]);
    let piped = b.envelope(&["pytest"], &std::fs::read(&report).unwrap(), CAP);
    assert_warns(&piped, &["the input is a JUnit XML report"]);
    // A test in a class in a package's module, an xfail and a skip: node ids that
    // pytest takes back, xfailed counted apart, in either junit family.
    let package = tempfile::tempdir().unwrap();
    write(package.path(), "tests/__init__.py", "");
    write(package.path(), "tests/sub/__init__.py", "");
    write(
        package.path(),
        "tests/sub/test_m.py",
        "import pytest\n\nclass TestC:\n    def test_a(self):\n        assert 1 == 2\n\n\
         @pytest.mark.xfail(reason='known')\ndef test_x():\n    assert False\n\n\
         @pytest.mark.skip(reason='later')\ndef test_s():\n    pass\n",
    );
    for family in ["xunit2", "xunit1"] {
        let family = format!("junit_family={family}");
        pytest(package.path(), &["-q", "--junitxml=r.xml", "-o", &family]);
        let report = package.path().join("r.xml");
        let envelope = b.envelope(&["pytest", "--junit", report.to_str().unwrap()], b"", CAP);
        let summary = envelope["summary"].as_str().unwrap();
        assert!(
            summary.starts_with("JUnit report: 1 failed, 1 skipped, 1 xfailed in "),
            "{family}: {summary}"
        );
        assert!(summary.contains("across 1 module"), "{summary}");
        let item = &envelope["items"][0];
        assert_eq!(
            item["nodeid"], "tests/sub/test_m.py::TestC::test_a",
            "{family}"
        );
        assert_eq!(item["file"], "tests/sub/test_m.py");
        let rerun = pytest(package.path(), &["-q", item["nodeid"].as_str().unwrap()]);
        assert!(
            String::from_utf8_lossy(&rerun.stdout).contains("1 failed"),
            "pytest takes the node id back"
        );
    }

    // A file that is not a report says so.
    let envelope = b.envelope(&["pytest", "--junit", "/dev/null"], b"", CAP);
    assert!(envelope["warnings"][0]
        .as_str()
        .unwrap()
        .contains("not a JUnit report"));
    assert_eq!(envelope["ok"], false);
    // --junit and a FILE together are refused.
    let refused = b.run(&["pytest", "x.txt", "--junit", "y.xml"], b"");
    assert_eq!(refused.status.code(), Some(2));
}

#[test]
fn run_picks_pytest_and_keeps_its_exit_code() {
    let project = tempfile::tempdir().unwrap();
    big_pytest_project(project.path());
    let b = Briefly::new();
    let python = python();
    let mut command = b.command(&[
        "run",
        "--",
        python.to_str().unwrap(),
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
    ]);
    command.current_dir(project.path());
    let output = command.output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let envelope: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(envelope["source"], "pytest");
    assert_eq!(envelope["exit_code"], 1);
    assert!(envelope["summary"]
        .as_str()
        .unwrap()
        .starts_with("37 failed, 123 passed"));
}

#[test]
fn pytest_collection_errors_fixtures_xfail_stop_interrupt_and_no_tests() {
    let b = Briefly::new();

    // A module that cannot be imported: pytest stops; the module and the exception are named.
    let project = tempfile::tempdir().unwrap();
    write(project.path(), "test_ok.py", "def test_ok():\n    pass\n");
    write(
        project.path(),
        "test_bad.py",
        "import no_such_module\n\ndef test_x():\n    pass\n",
    );
    let output = pytest(project.path(), &["-q"]);
    assert_eq!(output.status.code(), Some(2));
    let envelope = b.envelope(&["pytest"], &output.stdout, CAP);
    let summary = envelope["summary"].as_str().unwrap();
    assert!(summary.starts_with("1 error in "), "{summary}");
    assert!(
        summary.contains("Interrupted: 1 error during collection"),
        "{summary}"
    );
    let item = &envelope["items"][0];
    assert_eq!(item["nodeid"], "test_bad.py");
    assert_eq!(item["kind"], "error");
    assert_eq!(item["phase"], "collection");
    assert_eq!(item["exception"], "ModuleNotFoundError");
    assert!(item["message"].as_str().unwrap().contains("no_such_module"));
    assert_eq!(envelope["ok"], false);

    // Errors in fixtures at setup and teardown, xfail, xpass, a failure, passes.
    let project = tempfile::tempdir().unwrap();
    write(
        project.path(),
        "test_fixtures.py",
        "import pytest\n\n\
         @pytest.fixture\ndef broken():\n    raise RuntimeError('fixture broke')\n\n\
         @pytest.fixture\ndef bad_teardown():\n    yield 1\n    raise ValueError('teardown broke')\n\n\
         def test_setup(broken):\n    pass\n\n\
         def test_teardown(bad_teardown):\n    pass\n\n\
         @pytest.mark.xfail(reason='known')\ndef test_xfail():\n    assert False\n\n\
         @pytest.mark.xfail(reason='fixed?')\ndef test_xpass():\n    pass\n\n\
         class TestThing:\n    @pytest.mark.parametrize('n', [1, 2])\n    def test_param(self, n):\n        assert n == 1\n\n\
         def test_pass():\n    pass\n",
    );
    let output = pytest(project.path(), &["-rA"]);
    assert_eq!(output.status.code(), Some(1));
    let envelope = b.envelope(&["pytest"], &output.stdout, CAP);
    let counts = &envelope["stats"]["counts"];
    assert_eq!(counts["failed"], 1);
    assert_eq!(counts["passed"], 3, "{counts}");
    assert_eq!(counts["xfailed"], 1);
    assert_eq!(counts["xpassed"], 1);
    assert_eq!(counts["errors"], 2);
    assert_eq!(
        names(&envelope, "failed"),
        ["test_fixtures.py::TestThing::test_param[2]"]
    );
    let mut errors = names(&envelope, "errors");
    errors.sort();
    assert_eq!(
        errors,
        [
            "test_fixtures.py::test_setup",
            "test_fixtures.py::test_teardown"
        ]
    );
    assert_eq!(
        names(&envelope, "xpassed"),
        ["test_fixtures.py::test_xpass"]
    );
    let items = envelope["items"].as_array().unwrap();
    let setup = items
        .iter()
        .find(|i| i["phase"] == "setup")
        .expect("setup error");
    assert_eq!(setup["exception"], "RuntimeError");
    let teardown = items
        .iter()
        .find(|i| i["phase"] == "teardown")
        .expect("teardown error");
    assert_eq!(teardown["exception"], "ValueError");
    // Errors come before failures, and both before what the summaries only note.
    let kinds: Vec<&str> = items.iter().map(|i| i["kind"].as_str().unwrap()).collect();
    let failures = kinds
        .iter()
        .take_while(|k| matches!(**k, "error" | "failed"))
        .count();
    assert_eq!(kinds[failures - 1], "failed", "{kinds:?}");
    assert!(
        kinds[failures..]
            .iter()
            .all(|k| matches!(*k, "skipped" | "xfailed" | "warning")),
        "{kinds:?}"
    );
    assert!(kinds.contains(&"xfailed"), "{kinds:?}");

    // -x stops at the first failure: said so, counts as pytest printed them.
    let project = tempfile::tempdir().unwrap();
    big_pytest_project(project.path());
    let output = pytest(project.path(), &["-q", "-x"]);
    let envelope = b.envelope(&["pytest"], &output.stdout, CAP);
    let summary = envelope["summary"].as_str().unwrap();
    assert!(summary.starts_with("1 failed, 1 passed in "), "{summary}");
    assert!(
        summary.contains("stopped early (stopping after 1 failures)"),
        "{summary}"
    );

    // Output cut off before the counts: unknown, never invented.
    let output = pytest(project.path(), &["-q"]);
    let cut = &output.stdout[..output.stdout.len() / 2];
    let envelope = b.envelope(&["pytest"], cut, CAP);
    assert!(envelope["summary"]
        .as_str()
        .unwrap()
        .starts_with("counts unknown"));
    assert_eq!(envelope["ok"], false);

    // A KeyboardInterrupt inside a test ends the run: reported, with pytest's partial counts.
    let project = tempfile::tempdir().unwrap();
    write(
        project.path(),
        "test_interrupt.py",
        "def test_a():\n    pass\n\ndef test_b():\n    raise KeyboardInterrupt\n\ndef test_c():\n    pass\n",
    );
    let output = pytest(project.path(), &["-q"]);
    assert_eq!(output.status.code(), Some(2));
    let envelope = b.envelope(&["pytest"], &output.stdout, CAP);
    let summary = envelope["summary"].as_str().unwrap();
    assert!(summary.contains("KeyboardInterrupt"), "{summary}");
    assert_eq!(envelope["ok"], false);

    // No tests at all: pytest exits 5 and says so; not a pass.
    let project = tempfile::tempdir().unwrap();
    let output = pytest(project.path(), &["-q"]);
    assert_eq!(output.status.code(), Some(5));
    let envelope = b.envelope(&["pytest"], &output.stdout, CAP);
    assert!(envelope["summary"]
        .as_str()
        .unwrap()
        .starts_with("no tests ran in "));
    assert_eq!(envelope["ok"], false);
    assert_eq!(envelope["total_items"], 0);
    // Every test deselected (`-k` matching none): exit 5 too, not a pass.
    write(project.path(), "test_a.py", "def test_a():\n    pass\n");
    let output = pytest(project.path(), &["-q", "-k", "nomatch"]);
    assert_eq!(output.status.code(), Some(5));
    let envelope = b.envelope(&["pytest"], &output.stdout, CAP);
    assert_eq!(envelope["stats"]["counts"]["deselected"], 1, "{envelope}");
    assert_eq!(envelope["ok"], false);
}

#[test]
fn pytest_lines_option_bounds_the_excerpts() {
    let project = tempfile::tempdir().unwrap();
    big_pytest_project(project.path());
    let output = pytest(project.path(), &["-q"]);
    let b = Briefly::new();
    let lines_of = |args: &[&str]| {
        let envelope = b.envelope(args, &output.stdout, CAP);
        envelope["items"][0]["captured"]
            .as_str()
            .unwrap()
            .lines()
            .count()
    };
    assert!(lines_of(&["pytest", "--lines", "2"]) < lines_of(&["pytest", "--lines", "30"]));
    let refused = b.run(&["pytest", "--lines", "0"], &output.stdout);
    assert_eq!(refused.status.code(), Some(2));
}

#[test]
fn pytest_chained_exceptions_and_groups_are_told_by_the_exception_the_test_failed_with() {
    let project = tempfile::tempdir().unwrap();
    write(
        project.path(),
        "test_chain.py",
        "def lib():\n    return {}['missing']\n\n\n\
         def test_chained():\n    try:\n        lib()\n    except KeyError as e:\n        raise RuntimeError('wrapped failure') from e\n\n\n\
         def test_during():\n    try:\n        1 / 0\n    except ZeroDivisionError:\n        raise TypeError('while handling')\n\n\n\
         def test_group():\n    raise ExceptionGroup('grp', [ValueError('v1'), KeyError('k1')])\n",
    );
    let b = Briefly::new();
    // Long tracebacks and Python's own, without the short summary that would name them.
    for args in [&["-rN"][..], &["-rN", "--tb=native"]] {
        let output = pytest(project.path(), args);
        let envelope = b.envelope(&["pytest"], &output.stdout, CAP);
        let failures: Vec<(String, Value, Value, Value)> = envelope["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| {
                let name = i["nodeid"].as_str().unwrap().rsplit("::").next().unwrap();
                (
                    name.to_string(),
                    i["exception"].clone(),
                    i["message"].clone(),
                    i["line"].clone(),
                )
            })
            .collect();
        assert_eq!(
            failures,
            [
                (
                    "test_chained".into(),
                    json!("RuntimeError"),
                    json!("wrapped failure"),
                    json!(9)
                ),
                (
                    "test_during".into(),
                    json!("TypeError"),
                    json!("while handling"),
                    json!(16)
                ),
                (
                    "test_group".into(),
                    json!("ExceptionGroup"),
                    json!("grp (2 sub-exceptions)"),
                    json!(20)
                ),
            ],
            "{args:?}: {envelope}"
        );
        // The group's sub-exceptions are in its traceback.
        let group = envelope["items"][2]["traceback"].as_str().unwrap();
        assert!(
            group.contains("ValueError: v1") && group.contains("KeyError: 'k1'"),
            "{group}"
        );
    }
}

#[test]
fn pytest_a_headline_a_test_printed_is_its_output_not_a_failure() {
    let project = tempfile::tempdir().unwrap();
    write(
        project.path(),
        "test_p.py",
        "def test_a():\n    print('______ test_phantom ______')\n    assert 0\n\n\
         def test_b():\n    assert 1 == 2\n",
    );
    let b = Briefly::new();
    for args in [&["-q"][..], &["-q", "-rN"]] {
        let output = pytest(project.path(), args);
        let envelope = b.envelope(&["pytest"], &output.stdout, CAP);
        assert_eq!(
            nodeids(&envelope),
            ["test_p.py::test_a", "test_p.py::test_b"],
            "{args:?}: {envelope}"
        );
        let captured = envelope["items"][0]["captured"].as_str().unwrap();
        assert!(captured.contains("test_phantom"), "{captured}");
    }
}

#[test]
fn pytest_banners_a_test_printed_are_its_output_and_end_no_report() {
    // A rule as wide as pytest's own lines, a titled one, a dashed one and a counts line,
    // printed by a failing test: the next test's report is whole after them.
    let project = tempfile::tempdir().unwrap();
    write(
        project.path(),
        "test_p.py",
        "def test_a():\n    print('=' * 80)\n    print('=== phase 1 ===')\n    \
         print('---- step 2 ----')\n    print('= 99 failed, 1 passed in 1.00s =')\n    \
         print('done')\n    assert 0\n\n\
         def test_b():\n    raise ValueError('b broke')\n",
    );
    let b = Briefly::new();
    let output = pytest(project.path(), &["-q"]);
    let envelope = b.envelope(&["pytest"], &output.stdout, CAP);
    assert_eq!(
        nodeids(&envelope),
        ["test_p.py::test_a", "test_p.py::test_b"],
        "{envelope}"
    );
    let captured = envelope["items"][0]["captured"].as_str().unwrap();
    let printed = "=== phase 1 ===\n---- step 2 ----\n= 99 failed, 1 passed in 1.00s =\ndone";
    assert!(captured.contains(printed), "{captured}");
    assert!(captured.contains(&"=".repeat(80)), "{captured}");
    let b_report = &envelope["items"][1];
    assert_eq!(b_report["exception"], "ValueError", "{envelope}");
    assert!(
        b_report["traceback"]
            .as_str()
            .unwrap()
            .contains("raise ValueError('b broke')"),
        "{envelope}"
    );
    assert_eq!(envelope["stats"]["counts"]["failed"], 2, "{envelope}");
}

#[test]
fn pytest_an_internal_error_is_an_item_and_interrupts_the_run() {
    // A conftest's hook raises: pytest prints its own traceback, `INTERNALERROR> ` on
    // each line, and stops without its reports.
    let project = tempfile::tempdir().unwrap();
    write(
        project.path(),
        "conftest.py",
        "def pytest_runtest_logreport(report):\n    \
         if report.when == 'call' and report.passed:\n        \
         raise RuntimeError('plugin boom')\n",
    );
    write(
        project.path(),
        "test_i.py",
        "def test_a():\n    assert 0\n\ndef test_b():\n    pass\n\ndef test_c():\n    pass\n",
    );
    let output = pytest(project.path(), &[]);
    let envelope = Briefly::new().envelope(&["pytest"], &output.stdout, CAP);
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.contains("pytest stopped on an INTERNALERROR (RuntimeError: plugin boom at ")
            && summary.contains("conftest.py:3)"),
        "{envelope}"
    );
    assert_eq!(envelope["ok"], false, "{envelope}");
    let item = &envelope["items"][0];
    assert_eq!(item["kind"], "internalerror", "{envelope}");
    assert_eq!(item["exception"], "RuntimeError", "{envelope}");
    assert_eq!(item["message"], "plugin boom", "{envelope}");
    assert!(
        item["location"]
            .as_str()
            .unwrap()
            .ends_with("conftest.py:3"),
        "{envelope}"
    );
}

#[test]
fn pytest_saying_what_went_wrong_is_an_item_and_in_the_summary() {
    // What an agent's typo or a broken conftest makes pytest print, with `2>&1`: a
    // usage error (exit code 4) after the counts, or alone.
    let project = tempfile::tempdir().unwrap();
    write(project.path(), "test_u.py", "def test_a():\n    pass\n");
    let b = Briefly::new();
    let cases: [(&[&str], &str); 3] = [
        (
            &["tests/missing.py"],
            "file or directory not found: tests/missing.py",
        ),
        (&["test_u.py::test_nonexistent"], "not found: "),
        (&["--bogus-flag"], "unrecognized arguments: --bogus-flag"),
    ];
    for (args, said) in cases {
        let output = pytest(project.path(), args);
        assert_eq!(output.status.code(), Some(4), "{args:?}");
        let merged = [output.stdout, output.stderr].concat();
        let envelope = b.envelope(&["pytest"], &merged, CAP);
        let item = &envelope["items"][0];
        assert_eq!(item["kind"], "pytest-error", "{args:?}: {envelope}");
        assert!(
            item["message"].as_str().unwrap().starts_with(said),
            "{envelope}"
        );
        let summary = envelope["summary"].as_str().unwrap();
        assert!(summary.contains("pytest said: "), "{envelope}");
        assert!(summary.contains(said), "{envelope}");
        assert_eq!(envelope["ok"], false, "{envelope}");
    }
    write(project.path(), "conftest.py", "import not_installed_pkg\n");
    let output = pytest(project.path(), &[]);
    let merged = [output.stdout, output.stderr].concat();
    let envelope = b.envelope(&["pytest"], &merged, CAP);
    assert_eq!(
        envelope["items"][0]["message"], "ModuleNotFoundError: No module named 'not_installed_pkg'",
        "{envelope}"
    );
    assert!(
        envelope["summary"]
            .as_str()
            .unwrap()
            .starts_with("counts unknown: pytest said: ModuleNotFoundError"),
        "{envelope}"
    );
}

#[test]
fn pytest_plugins_verdicts_coverage_under_its_minimum_and_a_timeout() {
    let project = tempfile::tempdir().unwrap();
    write(
        project.path(),
        "mod.py",
        "def a(x):\n    if x:\n        return 1\n    return 2\n\ndef b():\n    return 3\n",
    );
    write(
        project.path(),
        "test_m.py",
        "import mod\n\ndef test_a():\n    assert mod.a(1) == 1\n",
    );
    let b = Briefly::new();
    // pytest-cov: the tests passed, the run failed (exit 1) on coverage.
    let output = pytest(project.path(), &["--cov=mod", "--cov-fail-under=90"]);
    assert_eq!(output.status.code(), Some(1));
    let envelope = b.envelope(&["pytest"], &output.stdout, CAP);
    assert_eq!(envelope["ok"], false, "{envelope}");
    let item = &envelope["items"][0];
    assert_eq!(item["kind"], "pytest-error", "{envelope}");
    let message = item["message"].as_str().unwrap();
    assert!(
        message.starts_with("FAIL Required test coverage of 90% not reached. Total coverage: "),
        "{envelope}"
    );
    let summary = envelope["summary"].as_str().unwrap();
    assert!(summary.starts_with("1 passed in "), "{summary}");
    assert!(
        summary.contains(&format!("; pytest said: {message} (line ")),
        "{summary}"
    );

    // pytest-timeout's thread method: every thread's stack, then the process ends.
    write(
        project.path(),
        "test_hang.py",
        "import time\n\ndef test_fine():\n    pass\n\n\
         def wait():\n    time.sleep(60)\n\ndef test_hangs():\n    wait()\n",
    );
    let args = ["test_hang.py", "--timeout=1", "--timeout-method=thread"];
    for verbose in [false, true] {
        let mut args = args.to_vec();
        if verbose {
            args.push("-v");
        }
        let output = pytest(project.path(), &args);
        assert_ne!(output.status.code(), Some(0));
        let merged = [output.stdout, output.stderr].concat();
        let envelope = b.envelope(&["pytest"], &merged, CAP);
        assert_eq!(envelope["ok"], false, "{envelope}");
        let item = &envelope["items"][0];
        assert_eq!(item["kind"], "timeout", "{envelope}");
        assert_eq!(item["file"], "test_hang.py", "{envelope}");
        assert_eq!(item["line"], 10, "{envelope}");
        let nodeid = if verbose {
            "test_hang.py::test_hangs"
        } else {
            "test_hangs"
        };
        assert_eq!(item["nodeid"].as_str().unwrap_or("test_hangs"), nodeid);
        let summary = envelope["summary"].as_str().unwrap();
        assert!(
            summary.starts_with(&format!(
                "counts unknown: pytest-timeout stopped the run: {nodeid} ran past its \
                 timeout (the session's: 1.0s) at test_hang.py:10;"
            )),
            "{summary}"
        );
        // Its frames from the test's on, the innermost (where it hung) last.
        let traceback = item["traceback"].as_str().unwrap();
        assert!(
            traceback.contains("line 10, in test_hangs\n    wait()"),
            "{traceback}"
        );
        assert!(
            traceback.ends_with("in wait\n    time.sleep(60)"),
            "{traceback}"
        );
    }
}

#[test]
fn pytest_output_cut_above_its_short_summary_still_names_what_failed() {
    let project = tempfile::tempdir().unwrap();
    write(
        project.path(),
        "test_t.py",
        "import pytest\n\n@pytest.fixture\ndef fx():\n    raise OSError('no disk')\n\n\
         def test_a():\n    assert 1 == 2\n\n\
         def test_b():\n    raise KeyError('k')\n\n\
         def test_c(fx):\n    pass\n\n\
         def test_d():\n    pass\n",
    );
    let output = pytest(project.path(), &["-q"]);
    let stdout = String::from_utf8(output.stdout).unwrap();
    // What `pytest -q | tail -n 4` keeps: the summary's lines and the counts.
    let (_, tail) = stdout.split_once("short test summary info").unwrap();
    let tail = tail.split_once('\n').unwrap().1;
    assert_eq!(tail.lines().count(), 4, "{stdout}");
    let envelope = Briefly::new().envelope(&["pytest"], tail.as_bytes(), CAP);
    assert_eq!(
        nodeids(&envelope),
        [
            "test_t.py::test_a",
            "test_t.py::test_b",
            "test_t.py::test_c"
        ],
        "{envelope}"
    );
    assert_eq!(
        names(&envelope, "failed"),
        ["test_t.py::test_a", "test_t.py::test_b"]
    );
    assert_eq!(names(&envelope, "errors"), ["test_t.py::test_c"]);
    let items = &envelope["items"];
    assert_eq!(items[1]["exception"], "KeyError", "{envelope}");
    assert_eq!(items[1]["message"], "'k'", "{envelope}");
    assert_eq!(items[2]["kind"], "error", "{envelope}");
    assert_eq!(items[2]["exception"], "OSError", "{envelope}");
    assert_eq!(items[2]["message"], "no disk", "{envelope}");
    // `| tail -n 20`: from inside test_a's report, its headline and the FAILURES heading
    // cut off. test_b's report is whole, and read (it was dropped: no heading, no report).
    let lines: Vec<&str> = stdout.lines().collect();
    let headline = lines.iter().position(|l| l.contains(" test_a ")).unwrap();
    assert!(lines[headline].starts_with("____"), "{stdout}");
    let tail = lines[headline + 2..].join("\n");
    let envelope = Briefly::new().envelope(&["pytest"], tail.as_bytes(), CAP);
    let test_b = item_where(&envelope, |i| i["nodeid"] == "test_t.py::test_b");
    assert_eq!(test_b["exception"], "KeyError", "{envelope}");
    assert!(
        test_b["traceback"]
            .as_str()
            .is_some_and(|t| t.contains("raise KeyError('k')")),
        "{envelope}"
    );
    assert_eq!(test_b["line"], 11, "{envelope}");
    let warnings = envelope["warnings"].to_string();
    assert!(
        warnings.contains("the output opens inside pytest's reports, their FAILURES heading cut off (`pytest | tail`?): the "),
        "{warnings}"
    );
}

#[test]
fn pytest_a_fixtures_error_is_not_said_to_be_its_conftests_test() {
    let project = tempfile::tempdir().unwrap();
    write(
        project.path(),
        "d2/conftest.py",
        "import pytest\n\n@pytest.fixture\ndef fx():\n    raise OSError('no disk')\n",
    );
    write(
        project.path(),
        "d2/test_f.py",
        "def test_y(fx):\n    pass\n",
    );
    let b = Briefly::new();
    // With the short summary, the node id is pytest's; without (-rN), only the test's
    // name is known, and the place is the fixture's.
    for (args, nodeid) in [
        (&["-q"][..], "d2/test_f.py::test_y"),
        (&["-q", "-rN"], "test_y"),
    ] {
        let output = pytest(project.path(), args);
        let envelope = b.envelope(&["pytest"], &output.stdout, CAP);
        let item = &envelope["items"][0];
        assert_eq!(item["nodeid"], nodeid, "{args:?}: {envelope}");
        assert_eq!(item["phase"], "setup");
        assert_eq!(item["exception"], "OSError");
    }
}

#[test]
fn pytest_native_tracebacks_keep_the_tests_own_frame_and_captured_output() {
    let project = tempfile::tempdir().unwrap();
    write(
        project.path(),
        "test_native.py",
        "import sys\n\ndef helper(x):\n    assert x == 4, 'x should be four'\n\n\
         def test_native():\n    print('connecting to db')\n    print('warning: slow', file=sys.stderr)\n    helper(3)\n",
    );
    let output = pytest(project.path(), &["--tb=native"]);
    let b = Briefly::new();
    let envelope = b.envelope(&["pytest"], &output.stdout, CAP);
    let item = &envelope["items"][0];
    assert_eq!(item["nodeid"], "test_native.py::test_native", "{item}");
    assert_eq!(item["line"], 9, "the test's own frame: {item}");
    let traceback = item["traceback"].as_str().unwrap();
    assert!(
        traceback.contains("line 4, in helper") && traceback.contains("helper(3)"),
        "{traceback}"
    );
    // What it printed, though it wrote to stderr too.
    let captured = item["captured"].as_str().unwrap();
    assert!(captured.contains("connecting to db"), "{captured}");
}

#[test]
fn pytest_cut_off_while_a_test_runs_names_the_test() {
    let project = tempfile::tempdir().unwrap();
    write(
        project.path(),
        "test_hang.py",
        "def test_a():\n    pass\n\ndef test_b():\n    assert 0\n\n\
         def test_slow():\n    pass\n\ndef test_c():\n    pass\n",
    );
    let output = pytest(project.path(), &["-v"]);
    let stdout = String::from_utf8(output.stdout).unwrap();
    // `-v` writes a test's node id before running it and its outcome after: a run that
    // hung in it (killed by a timeout) ends there.
    let running = "test_hang.py::test_slow ";
    let cut = &stdout[..stdout.find(running).unwrap() + running.len()];
    let b = Briefly::new();
    let envelope = b.envelope(&["pytest"], cut.as_bytes(), CAP);
    assert_eq!(envelope["stats"]["running"], "test_hang.py::test_slow");
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.ends_with("; the output stopped while test_hang.py::test_slow was running"),
        "{summary}"
    );
    // Once its outcome follows, or the run's counts, nothing is said to be running.
    let outcome = &stdout[..stdout.find("test_hang.py::test_c").unwrap()];
    let envelope = b.envelope(&["pytest"], outcome.as_bytes(), CAP);
    assert_eq!(envelope["stats"].get("running"), None, "{envelope}");
    let envelope = b.envelope(&["pytest"], stdout.as_bytes(), CAP);
    assert_eq!(envelope["stats"].get("running"), None, "{envelope}");
}

#[test]
fn pytest_line_tracebacks_give_each_failure_its_place() {
    let project = tempfile::tempdir().unwrap();
    write(
        project.path(),
        "test_line.py",
        "import pytest\n\ndef helper(v):\n    assert v == 2, 'value mismatch'\n\n\
         def test_helper():\n    helper(1)\n\ndef test_dict():\n    assert {'k': 1}['k'] == 3\n\n\
         def test_raises():\n    raise ValueError('boom')\n\ndef test_ok():\n    pass\n\n\
         @pytest.mark.xfail(strict=True, reason='known bug')\ndef test_strict():\n    pass\n",
    );
    let b = Briefly::new();
    let by_nodeid = |envelope: &Value| -> Vec<(String, Value, String)> {
        let mut items: Vec<_> = envelope["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|item| {
                let nodeid = item["nodeid"].as_str().unwrap_or("").to_string();
                (nodeid, item["line"].clone(), item["message"].to_string())
            })
            .collect();
        items.sort_by(|a, b| a.0.cmp(&b.0));
        items
    };
    // The short summary names the tests in the order of the FAILURES lines.
    let output = pytest(project.path(), &["-q", "--tb=line"]);
    let envelope = b.envelope(&["pytest"], &output.stdout, CAP);
    assert_eq!(envelope["total_items"], 4, "{envelope}");
    let items = by_nodeid(&envelope);
    let expected = [
        ("test_line.py::test_dict", json!(10), "\"assert 1 == 3\""),
        // Where it failed: in the helper the test called.
        ("test_line.py::test_helper", json!(4), "\"value mismatch\""),
        ("test_line.py::test_raises", json!(13), "\"boom\""),
        ("test_line.py::test_strict", Value::Null, "\"known bug\""),
    ];
    for ((nodeid, line, message), (want_id, want_line, want_message)) in items.iter().zip(expected)
    {
        assert_eq!(
            (nodeid.as_str(), line, message.as_str()),
            (want_id, &want_line, want_message)
        );
    }
    // Without the short summary (`-rN`) the places are still there, the tests unnamed.
    let output = pytest(project.path(), &["-q", "--tb=line", "-rN"]);
    let envelope = b.envelope(&["pytest"], &output.stdout, CAP);
    assert_eq!(envelope["total_items"], 4, "{envelope}");
    assert_eq!(envelope["stats"]["failed"], json!([]));
    assert!(
        envelope["warnings"].as_array().unwrap().is_empty(),
        "{envelope}"
    );
    let raises = &envelope["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|item| item["message"] == "boom")
        .unwrap();
    assert_eq!(raises["line"], 13);
    assert!(
        raises["file"].as_str().unwrap().ends_with("/test_line.py"),
        "{raises}"
    );
}

/// A crate of 200 tests, 3 failing (assert_eq, unwrap, panic), each printing 400 lines,
/// and two doc-tests, one failing; built once for every test here.
fn demo_crate() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "Cargo.toml", "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n");
        let mut source = String::from(
            "/// Doubles.\n///\n/// ```\n/// assert_eq!(demo::double(2), 4);\n/// ```\npub fn double(x: i32) -> i32 {\n    x * 2\n}\n\n\
             /// Triples.\n///\n/// ```\n/// assert_eq!(demo::triple(2), 5);\n/// ```\npub fn triple(x: i32) -> i32 {\n    x * 3\n}\n\n\
             #[cfg(test)]\nmod tests {\n    use super::*;\n",
        );
        for i in 0..200 {
            source.push_str(&format!("    #[test]\n    fn case_{i:03}() {{\n"));
            if [17, 101, 163].contains(&i) {
                source.push_str(&format!("        for k in 0..400 {{\n            println!(\"noise {i} line {{k}}\");\n        }}\n"));
                source.push_str(match i {
                    17 => "        assert_eq!(double(17), 35, \"doubling 17\");\n",
                    101 => "        let v: Result<u32, String> = Err(\"boom\".into());\n        v.unwrap();\n",
                    _ => "        panic!(\"case 163 exploded\");\n",
                });
            } else {
                source.push_str(&format!("        assert_eq!(double({i}), {});\n", 2 * i));
            }
            source.push_str("    }\n");
        }
        source.push_str("}\n");
        write(dir.path(), "src/lib.rs", &source);
        let built = cargo(dir.path(), &["test", "--no-run"]);
        assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
        dir
    })
    .path()
}

/// Runs cargo in `dir` with its own target dir, offline, no colour, no backtraces; `2>&1`.
fn cargo_command(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env("CARGO_TERM_COLOR", "never")
        .env("CARGO_NET_OFFLINE", "true")
        .env("RUST_BACKTRACE", "0")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_BUILD_TARGET_DIR");
    command
}

fn cargo(dir: &Path, args: &[&str]) -> Output {
    cargo_command(dir, args).output().unwrap()
}

/// Runs cargo as [`cargo_command`] does, its stderr into its stdout, as `cargo … 2>&1 |` does.
fn merged(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Vec<u8> {
    let cargo = cargo_command(dir, &[]);
    let mut shell = Command::new("sh");
    shell
        .arg("-c")
        .arg(r#"exec "$0" "$@" 2>&1"#)
        .arg(cargo.get_program())
        .args(args)
        .current_dir(dir);
    for (key, value) in cargo.get_envs() {
        match value {
            Some(value) => shell.env(key, value),
            None => shell.env_remove(key),
        };
    }
    shell.envs(env.iter().copied());
    shell.output().unwrap().stdout
}

fn check_demo_failures(envelope: &Value, printed: &str) {
    for (name, message) in [
        (
            "tests::case_017",
            "assertion `left == right` failed: doubling 17",
        ),
        (
            "tests::case_101",
            "called `Result::unwrap()` on an `Err` value: \"boom\"",
        ),
        ("tests::case_163", "case 163 exploded"),
    ] {
        assert!(printed.contains(name), "{name} not inline");
        let item = envelope["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["name"] == name)
            .unwrap_or_else(|| panic!("{name}: {envelope}"));
        assert_eq!(item["message"], message);
        assert!(item["location"]
            .as_str()
            .unwrap()
            .starts_with("src/lib.rs:"));
        if name == "tests::case_017" {
            assert_eq!(item["left"], "34");
            assert_eq!(item["right"], "35");
        }
        let captured = item["captured"].as_str().unwrap();
        assert!(
            captured.contains("line 399") && captured.contains("lines …"),
            "{captured}"
        );
    }
}

#[test]
fn cargo_test_text_with_doc_tests() {
    let dir = demo_crate();
    let output = merged(dir, &["test", "--no-fail-fast"], &[]);
    let b = Briefly::new();
    let envelope = b.envelope(&["cargo-test"], &output, CAP);
    let printed = String::from_utf8(b.run(&["cargo-test"], &output).stdout).unwrap();
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.starts_with("198 passed; 4 failed; 0 ignored across 2 test binaries"),
        "{summary}"
    );
    check_demo_failures(&envelope, &printed);
    let binaries = envelope["stats"]["binaries"].as_array().unwrap();
    assert_eq!(binaries[0]["binary"], "demo: unittests src/lib.rs");
    assert_eq!(binaries[0]["result"]["failed"], 3);
    assert_eq!(binaries[1]["binary"], "Doc-tests demo");
    assert_eq!(binaries[1]["result"]["failed"], 1);
    let doc = envelope["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"].as_str().unwrap().contains(" - triple (line "))
        .expect("the failing doc-test");
    assert_eq!(doc["left"], "6");
    assert_eq!(envelope["stats"]["counts_known"], true);
    assert_eq!(envelope["ok"], false);

    // In colour (libtest ends its colours with `ESC ( B ESC [ m`): the same result.
    let coloured = merged(
        dir,
        &[
            "test",
            "--no-fail-fast",
            "--color",
            "always",
            "--",
            "--color",
            "always",
        ],
        &[],
    );
    assert!(
        coloured.windows(2).any(|w| w == b"\x1b("),
        "coloured output"
    );
    let envelope = b.envelope(&["cargo-test"], &coloured, CAP);
    let printed = String::from_utf8(b.run(&["cargo-test"], &coloured).stdout).unwrap();
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.starts_with("198 passed; 4 failed; 0 ignored across 2 test binaries"),
        "{summary}"
    );
    check_demo_failures(&envelope, &printed);
}

#[test]
fn run_picks_cargo_test_and_keeps_its_exit_code() {
    let dir = demo_crate();
    let b = Briefly::new();
    let mut command = b.command(&["run", "--", "cargo", "test"]);
    let cargo = cargo_command(dir, &[]);
    for (key, value) in cargo.get_envs() {
        match value {
            Some(value) => command.env(key, value),
            None => command.env_remove(key),
        };
    }
    let output = command.current_dir(dir).output().unwrap();
    assert_eq!(output.status.code(), Some(101));
    let envelope: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(envelope["source"], "cargo-test");
    assert_eq!(envelope["exit_code"], 101);
    assert!(envelope["summary"]
        .as_str()
        .unwrap()
        .starts_with("197 passed; 3 failed; 0 ignored"));

    // nextest prints its whole report on stderr: run reads it with stdout (as 2>&1) and
    // keeps the exit code.
    if nextest_available() {
        let mut command = b.command(&["run", "--", "cargo", "nextest", "run", "--no-fail-fast"]);
        for (key, value) in cargo.get_envs() {
            match value {
                Some(value) => command.env(key, value),
                None => command.env_remove(key),
            };
        }
        let output = command.current_dir(dir).output().unwrap();
        assert_eq!(output.status.code(), Some(100));
        let envelope: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(envelope["source"], "cargo-test");
        assert_eq!(envelope["exit_code"], 100);
        let summary = envelope["summary"].as_str().unwrap();
        assert!(
            summary.starts_with("200 tests run: 197 passed; 3 failed; 0 skipped"),
            "{summary}"
        );
        assert_eq!(envelope["ok"], false);
    }
}

#[test]
fn cargo_test_libtest_json() {
    let dir = demo_crate();
    let output = merged(
        dir,
        &[
            "test",
            "--no-fail-fast",
            "--",
            "-Z",
            "unstable-options",
            "--format",
            "json",
        ],
        &[("RUSTC_BOOTSTRAP", "1")],
    );
    let b = Briefly::new();
    let envelope = b.envelope(&["cargo-test"], &output, CAP);
    let printed = String::from_utf8(b.run(&["cargo-test"], &output).stdout).unwrap();
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.starts_with("198 passed; 4 failed; 0 ignored"),
        "{summary}"
    );
    assert!(envelope["stats"]["formats"]
        .as_array()
        .unwrap()
        .contains(&"libtest-json".into()));
    check_demo_failures(&envelope, &printed);
}

fn nextest_available() -> bool {
    Command::new("cargo-nextest")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn cargo_nextest_text_and_libtest_json() {
    if !nextest_available() {
        eprintln!("cargo-nextest is not on PATH: skipped");
        return;
    }
    let dir = demo_crate();
    let b = Briefly::new();
    // Each output reduced, its summary saying so, the demo's failures each shown.
    let reduced = |output: &[u8], counts: &str| {
        let envelope = b.envelope(&["cargo-test"], output, CAP);
        let printed = String::from_utf8(b.run(&["cargo-test"], output).stdout).unwrap();
        let summary = envelope["summary"].as_str().unwrap();
        assert!(summary.contains(counts), "{summary}");
        check_demo_failures(&envelope, &printed);
        envelope
    };
    let output = merged(dir, &["nextest", "run", "--no-fail-fast"], &[]);
    let envelope = reduced(&output, "200 tests run: 197 passed; 3 failed; 0 skipped");
    // nextest's report repeats the failures after its summary: one item each still.
    assert_eq!(envelope["total_items"], 3);

    // Under `--no-capture` each test's libtest output follows its `START`, and nextest
    // reports its failure again: one item each, named by nextest's binary, and no
    // binary of its own for each test's process.
    let output = merged(
        dir,
        &["nextest", "run", "--no-fail-fast", "--no-capture"],
        &[],
    );
    let envelope = reduced(&output, "200 tests run: 197 passed; 3 failed; 0 skipped");
    assert_eq!(envelope["total_items"], 3, "{envelope}");
    assert_eq!(envelope["stats"]["binaries"], json!([]), "{envelope}");
    for item in envelope["items"].as_array().unwrap() {
        assert_eq!(item["binary"], "demo", "{item}");
    }

    let output = merged(
        dir,
        &[
            "nextest",
            "run",
            "--no-fail-fast",
            "--message-format",
            "libtest-json",
        ],
        &[("NEXTEST_EXPERIMENTAL_LIBTEST_JSON", "1")],
    );
    // The JSON on stdout and the report on stderr: each failure once.
    let envelope = reduced(&output, "197 passed; 3 failed");
    assert_eq!(envelope["total_items"], 3, "{envelope}");
}

#[test]
fn cargo_nextest_retries_tell_a_flaky_test_from_a_failed_one() {
    if !nextest_available() {
        eprintln!("cargo-nextest is not on PATH: skipped");
        return;
    }
    // Under --retries, nextest reports each attempt (`TRY 1 FAIL`) and the last one's
    // outcome (`TRY 2 PASS`: flaky; `TRY 2 FAIL`: failed).
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    write(
        dir,
        "Cargo.toml",
        "[package]\nname = \"retried\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    );
    write(
        dir,
        "src/lib.rs",
        "#[cfg(test)]\nmod tests {\n    #[test]\n    fn fine() {}\n    #[test]\n    fn always() {\n        panic!(\"always fails\");\n    }\n    #[test]\n    fn flaky() {\n        let marker = std::path::Path::new(env!(\"CARGO_MANIFEST_DIR\")).join(\"tried\");\n        if std::fs::write(&marker, \"\").is_ok() && !marker.with_extension(\"2\").exists() {\n            std::fs::write(marker.with_extension(\"2\"), \"\").unwrap();\n            panic!(\"first try fails\");\n        }\n    }\n}\n",
    );
    let output = merged(
        dir,
        &["nextest", "run", "--no-fail-fast", "--retries", "1"],
        &[],
    );
    let b = Briefly::new();
    let envelope = b.envelope(&["cargo-test"], &output, CAP);
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.starts_with("3 tests run: 2 passed (1 flaky); 1 failed; 0 skipped"),
        "{summary}\n{}",
        String::from_utf8_lossy(&output)
    );
    let items: Vec<(&str, &str, &str)> = envelope["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            let field = |key: &str| i[key].as_str().unwrap_or("");
            (field("kind"), field("name"), field("message"))
        })
        .collect();
    assert_eq!(
        items,
        [
            ("failed", "tests::always", "always fails"),
            ("flaky", "tests::flaky", "first try fails")
        ]
    );
    assert_eq!(envelope["stats"]["failed"], json!(["tests::always"]));
}

#[test]
fn cargo_test_compile_error_after_300_warnings_and_the_warnings_options() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    write(
        dir,
        "Cargo.toml",
        "[workspace]\nmembers = [\"app\", \"noisy\"]\nresolver = \"2\"\n",
    );
    write(
        dir,
        "noisy/Cargo.toml",
        "[package]\nname = \"noisy\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    let unused: String = (0..300)
        .map(|i| format!("fn unused_{i}() {{}}\n"))
        .collect();
    write(dir, "noisy/src/lib.rs", &unused);
    write(dir, "app/Cargo.toml", "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\nnoisy = { path = \"../noisy\" }\n");
    write(
        dir,
        "app/src/lib.rs",
        "pub fn broken() -> u32 {\n    \"not a number\"\n}\n\n#[test]\nfn t() {}\n",
    );
    let output = merged(dir, &["test"], &[]);
    let b = Briefly::new();
    let envelope = b.envelope(&["cargo-test"], &output, CAP);
    let printed = String::from_utf8(b.run(&["cargo-test"], &output).stdout).unwrap();
    assert!(
        printed.contains("E0308") && printed.contains("app/src/lib.rs:2:5"),
        "{printed}"
    );
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.starts_with("build failed: 1 error (1 E0308); no test results: counts unknown"),
        "{summary}"
    );
    assert!(
        summary.contains("300 warnings (300 dead_code)"),
        "{summary}"
    );
    assert_eq!(envelope["stats"]["warnings"], 300);
    assert_eq!(envelope["stats"]["counts_known"], false);
    assert_eq!(
        envelope["total_items"], 1,
        "warnings are counted, not listed"
    );
    let error = &envelope["items"][0];
    assert_eq!(error["code"], "E0308");
    assert_eq!(error["message"], "mismatched types");
    assert!(error["detail"]
        .as_str()
        .unwrap()
        .contains("expected `u32`, found `&str`"));

    // The same from cargo's JSON messages: each diagnostic as rustc renders it, once
    // (the library's and its tests' builds report the error alike).
    let json = merged(dir, &["test", "--message-format=json"], &[]);
    let from_json = b.envelope(&["cargo-test"], &json, CAP);
    let summary = from_json["summary"].as_str().unwrap();
    assert!(
        summary.starts_with("build failed: 1 error (1 E0308)")
            && summary.contains("300 warnings (300 dead_code)"),
        "{summary}"
    );
    assert_eq!(from_json["items"][0]["location"], error["location"]);

    // --warnings lists them, after the error.
    let envelope = b.envelope(&["cargo-test", "--warnings"], &output, CAP);
    assert_eq!(envelope["total_items"], 301);
    assert_eq!(envelope["items"][0]["kind"], "error");
    assert_eq!(envelope["items"][1]["code"], "dead_code");

    // With nothing worse, the warnings are the items.
    let output = merged(dir, &["test", "-p", "noisy"], &[]);
    let envelope = b.envelope(&["cargo-test"], &output, CAP);
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.starts_with("0 passed; 0 failed; 0 ignored"),
        "{summary}"
    );
    assert_eq!(envelope["total_items"], 200, "held warnings are capped");
    assert_eq!(envelope["items"][0]["kind"], "warning");
    assert_eq!(envelope["ok"], true);
}

#[test]
fn cargo_test_lines_option_and_a_crashed_binary() {
    let dir = demo_crate();
    let output = merged(dir, &["test", "--no-fail-fast"], &[]);
    let b = Briefly::new();
    let detail_lines = |args: &[&str]| {
        let envelope = b.envelope(args, &output, CAP);
        let item = &envelope["items"][0];
        item["captured"].as_str().unwrap().lines().count()
    };
    assert!(
        detail_lines(&["cargo-test", "--lines", "2"])
            < detail_lines(&["cargo-test", "--lines", "40"])
    );
    assert_eq!(
        b.run(&["cargo-test", "--lines", "0"], b"").status.code(),
        Some(2)
    );

    // A binary that started and never printed its result: the totals are incomplete.
    let text = String::from_utf8(output).unwrap();
    let cut = &text[..text.find("test result:").unwrap()];
    let envelope = b.envelope(&["cargo-test"], cut.as_bytes(), CAP);
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.contains("no `test result:` line in the input"),
        "{summary}"
    );
    assert!(
        summary.contains("totals incomplete: 1 binary printed no result"),
        "{summary}"
    );
    // What it printed before it stopped is counted.
    assert!(
        summary.contains("before it stopped, libtest printed 197 passed, 3 failed, 0 ignored"),
        "{summary}"
    );
    assert_eq!(envelope["ok"], false);
}

#[test]
fn pytest_without_reports_names_the_failures_from_verbose_progress() {
    let project = tempfile::tempdir().unwrap();
    let mut failing = big_pytest_project(project.path());
    failing.sort();
    let b = Briefly::new();
    for args in [
        &["-v", "--tb=no", "-rN"][..],
        &["-v", "--tb=no", "-rN", "-n", "2"],
    ] {
        let output = pytest(project.path(), args);
        let envelope = b.envelope(&["pytest"], &output.stdout, CAP);
        let summary = envelope["summary"].as_str().unwrap();
        assert!(
            summary.starts_with("37 failed, 123 passed in "),
            "{summary}"
        );
        let mut failed = names(&envelope, "failed");
        failed.sort();
        assert_eq!(failed, failing, "{args:?}");
        assert_eq!(envelope["total_items"], 37);
    }
}

#[test]
fn pytest_messages_with_brackets_name_their_test_once() {
    let project = tempfile::tempdir().unwrap();
    write(
        project.path(),
        "test_b.py",
        "import pytest\n\ndef test_eq():\n    assert [1, 2, 3] == [1, 2, 4]\n\n\
         @pytest.mark.parametrize('x', ['a - b'])\ndef test_p(x):\n    assert [x] == []\n",
    );
    let b = Briefly::new();
    for args in [&["-q"][..], &["-rA"], &["-v"]] {
        let output = pytest(project.path(), args);
        let envelope = b.envelope(&["pytest"], &output.stdout, CAP);
        let mut failed = names(&envelope, "failed");
        failed.sort();
        assert_eq!(
            failed,
            ["test_b.py::test_eq", "test_b.py::test_p[a - b]"],
            "{args:?}: {envelope}"
        );
        assert_eq!(envelope["total_items"], 2, "{args:?}: {envelope}");
        assert_eq!(
            envelope["warnings"],
            serde_json::json!([]),
            "{args:?}: {envelope}"
        );
    }
}

#[test]
fn pytest_lines_too_long_for_a_fence_of_three_are_read() {
    // A test id long enough that pytest fences its report with one `_` a side, and
    // outcomes enough that the final counts line has one `=` a side.
    let project = tempfile::tempdir().unwrap();
    let long = "y".repeat(90);
    write(
        project.path(),
        "test_c.py",
        &format!(
            "import pytest, warnings\n\ndef test_first():\n    assert 1 + 1 == 3, 'first test math'\n\n\
             @pytest.mark.parametrize('x', ['{long}'])\ndef test_second(x):\n    raise ConnectionError('database unreachable')\n\n\
             @pytest.mark.xfail\ndef test_xf():\n    assert 0\n\n\
             @pytest.mark.skip(reason='later')\ndef test_sk():\n    pass\n\n\
             def test_w():\n    warnings.warn('careful')\n\n\
             @pytest.mark.xfail\ndef test_xp():\n    pass\n\n\
             @pytest.fixture\ndef broken():\n    raise RuntimeError('no db')\n\n\
             def test_e(broken):\n    pass\n"
        ),
    );
    let b = Briefly::new();
    let output = pytest(project.path(), &[]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let last = stdout.lines().last().unwrap();
    assert!(last.starts_with("= ") && !last.starts_with("=="), "{last}");
    let envelope = b.envelope(&["pytest"], &output.stdout, CAP);
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.starts_with("2 failed, 1 passed, 1 skipped, 1 xfailed, 1 xpassed"),
        "{envelope}"
    );
    let second = item_where(&envelope, |item| {
        item["nodeid"]
            .as_str()
            .is_some_and(|n| n.contains("test_second"))
    });
    assert_eq!(second["exception"], "ConnectionError", "{envelope}");
    assert_eq!(second["message"], "database unreachable", "{envelope}");
    let first = item_where(&envelope, |item| {
        item["nodeid"]
            .as_str()
            .is_some_and(|n| n.ends_with("test_first"))
    });
    assert_eq!(first["exception"], "AssertionError", "{envelope}");
}

#[test]
fn pytest_a_test_failing_and_erroring_in_teardown_has_both_reports() {
    let project = tempfile::tempdir().unwrap();
    write(
        project.path(),
        "test_d.py",
        "import pytest\n\n@pytest.fixture\ndef res():\n    yield 1\n    raise ValueError('teardown boom')\n\n\
         def test_both(res):\n    assert res == 2, 'call fails too'\n",
    );
    let b = Briefly::new();
    for args in [&[][..], &["-rA"]] {
        let output = pytest(project.path(), args);
        let envelope = b.envelope(&["pytest"], &output.stdout, CAP);
        let reports: Vec<(Value, Value)> = envelope["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|item| (item["kind"].clone(), item["message"].clone()))
            .collect();
        assert_eq!(
            reports,
            [
                (Value::from("error"), Value::from("teardown boom")),
                (Value::from("failed"), Value::from("call fails too"))
            ],
            "{args:?}: {envelope}"
        );
    }
}

#[test]
fn pytest_a_failed_doctest_is_one_report_with_what_was_expected() {
    let project = tempfile::tempdir().unwrap();
    write(
        project.path(),
        "mod_g.py",
        "def add(a, b):\n    \"\"\"\n    >>> add(1, 2)\n    4\n    \"\"\"\n    return a + b\n",
    );
    let b = Briefly::new();
    let output = pytest(project.path(), &["--doctest-modules"]);
    let envelope = b.envelope(&["pytest"], &output.stdout, CAP);
    let items = envelope["items"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{envelope}");
    assert_eq!(items[0]["nodeid"], "mod_g.py::mod_g.add", "{envelope}");
    assert_eq!(items[0]["exception"], "DocTestFailure", "{envelope}");
    let traceback = items[0]["traceback"].as_str().unwrap();
    assert!(
        traceback.contains("Expected:\n    4\nGot:\n    3"),
        "{traceback}"
    );
}

/// The first item `wanted` says is the one.
fn item_where(envelope: &Value, wanted: impl Fn(&Value) -> bool) -> Value {
    envelope["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| wanted(i))
        .unwrap_or_else(|| panic!("{envelope}"))
        .clone()
}

/// The item of the test named `name`.
fn item_named(envelope: &Value, name: &str) -> Value {
    item_where(envelope, |i| i["name"] == name)
}

/// The message of the item of test `name`, which must be `message`.
fn assert_message(envelope: &Value, name: &str, message: &str) {
    assert_eq!(item_named(envelope, name)["message"], message, "{envelope}");
}

/// `cargo test` of three failing tests, two `#[should_panic]` (Rust 1.95's output).
const SHOULD_PANIC: &str = r#"   Compiling cr v0.1.0 (/tmp/cr)
    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.00s
     Running unittests src/main.rs

running 4 tests
test more::wrong - should panic ... FAILED
test tests::bad ... FAILED
test tests::ok ... ok
test tests::sp - should panic ... FAILED

failures:

---- more::wrong stdout ----

thread 'more::wrong' panicked at src/main.rs:16:18:
bang
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
note: panic did not contain expected string
      panic message: "bang"
 expected substring: "boom"
---- tests::bad stdout ----

thread 'tests::bad' panicked at src/main.rs:10:16:
assertion `left == right` failed
  left: 1
 right: 2

---- tests::sp stdout ----
note: test did not panic as expected at src/main.rs:6:8

failures:
    more::wrong
    tests::bad
    tests::sp

test result: FAILED. 1 passed; 3 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

error: test failed, to rerun pass `--bin cr`
"#;

#[test]
fn should_panic_tests_are_named_once_with_what_failed() {
    let b = Briefly::new();
    let envelope = b.envelope(&["cargo-test"], SHOULD_PANIC.as_bytes(), CAP);
    assert_eq!(
        names(&envelope, "failed"),
        ["more::wrong", "tests::bad", "tests::sp"],
        "{envelope}"
    );
    assert_eq!(envelope["total_items"], 3, "{envelope}");
    let item = |name: &str| item_named(&envelope, name);
    let no_panic = item("tests::sp");
    assert_eq!(no_panic["message"], "test did not panic as expected");
    assert_eq!(no_panic["location"], "src/main.rs:6:8");
    assert_eq!(
        item("more::wrong")["message"],
        "panic did not contain expected string\npanic message: \"bang\"\nexpected substring: \"boom\""
    );
}

#[test]
fn pytest_pages_give_the_failures_left_out() {
    let project = tempfile::tempdir().unwrap();
    let mut failing = big_pytest_project(project.path());
    failing.sort();
    let output = pytest(project.path(), &["-q"]);
    let b = Briefly::new();
    let first = b.envelope(&["pytest", "--max-chars", "8000"], &output.stdout, 8_000);
    assert_eq!(first["total_items"], 37);
    let mut seen: Vec<String> = Vec::new();
    let mut envelope = first;
    loop {
        for item in envelope["items"].as_array().unwrap() {
            seen.push(item["nodeid"].as_str().unwrap().to_string());
        }
        let Some(cursor) = envelope["next_cursor"].as_str().map(String::from) else {
            break;
        };
        envelope = b.envelope(&["page", &cursor], b"", 8_000);
        assert_eq!(envelope["source"], "pytest");
    }
    seen.sort();
    assert_eq!(seen, failing, "every failure once, over the pages");
}

#[test]
fn test_reducers_frame_lines_as_the_stage_does() {
    // pytest and cargo-test frame their input on another thread: a line over
    // --max-line-bytes is cut and invalid UTF-8 replaced, with the warnings the stage
    // gives every other reducer (text here), and the decisive lines still read.
    let briefly = Briefly::new();
    let long = "x".repeat(5_000);
    let pytest_log = format!(
        "=================================== FAILURES ===================================\n\
         ___________________________________ test_a ___________________________________\n\
         {long}\n\
         bad bytes \u{fffd}HERE\n\
         E       AssertionError: boom\n\n\
         test_a.py:3: AssertionError\n\
         =========================== short test summary info ============================\n\
         FAILED test_a.py::test_a - AssertionError: boom\n\
         ============================== 1 failed in 0.01s ===============================\n"
    )
    .replace('\u{fffd}', "\u{0}")
    .into_bytes();
    // An invalid byte where the NUL stood, and a NUL elsewhere.
    let mut pytest_log = pytest_log;
    let at = pytest_log.iter().position(|&b| b == 0).unwrap();
    pytest_log[at] = 0xff;
    let cargo_log = format!(
        "running 1 test\ntest t ... FAILED\n\nfailures:\n\n---- t stdout ----\n{long}\n\
         nul\u{0}byte \u{fffd}\nthread 't' panicked at src/lib.rs:3:5:\nboom\n\n\
         failures:\n    t\n\ntest result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; \
         0 filtered out; finished in 0.00s\n"
    )
    .into_bytes();
    let cargo_log: Vec<u8> = {
        let fffd = "\u{fffd}".as_bytes();
        let at = cargo_log.windows(3).position(|w| w == fffd).unwrap();
        [&cargo_log[..at], &[0xfe][..], &cargo_log[at + 3..]].concat()
    };
    for (reducer, input, decisive) in [
        ("pytest", &pytest_log, "test_a.py::test_a"),
        ("cargo-test", &cargo_log, "src/lib.rs:3:5"),
    ] {
        let args = ["--max-line-bytes", "1000", reducer];
        let envelope = briefly.envelope(&args, input, CAP);
        let stage = briefly.envelope(&["--max-line-bytes", "1000", "text"], input, CAP);
        let warnings = |e: &Value| -> Vec<String> {
            e["warnings"]
                .as_array()
                .unwrap()
                .iter()
                .map(|w| w.as_str().unwrap().to_string())
                .filter(|w| w.contains(" longer than ") || w.contains("UTF-8") || w.contains("NUL"))
                .collect()
        };
        let stage_warnings = warnings(&stage);
        assert_eq!(
            stage_warnings.len(),
            2 + usize::from(reducer == "cargo-test"),
            "{stage}"
        );
        assert_eq!(warnings(&envelope), stage_warnings, "{reducer}: {envelope}");
        assert!(
            envelope.to_string().contains(decisive),
            "{reducer}: {envelope}"
        );
        assert!(
            envelope["truncated"].as_bool().unwrap(),
            "the artifact holds the lines whole"
        );
    }
}

/// `cargo test -- --nocapture --test-threads=1`: panics printed as they happen, one of
/// them a `#[should_panic]` test's, which passed (Rust 1.95's output).
const NOCAPTURE: &str = "   Compiling ct2 v0.1.0 (/tmp/ct2)
    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.34s
     Running unittests src/lib.rs (target/debug/deps/ct2-3dae4a4c680ac6a0)

running 4 tests
test tests::a_ok ... a_ok says hi
ok
test tests::b_fail ... 
thread 'tests::b_fail' (30804) panicked at src/lib.rs:4:27:
assertion `left == right` failed: vectors differ
  left: [1, 2, 3]
 right: [1, 2, 4]
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
FAILED
test tests::c_fail ... 
thread 'tests::c_fail' (30805) panicked at src/lib.rs:5:27:
c failed
FAILED
test tests::d_expected - should panic ... 
thread 'tests::d_expected' (30806) panicked at src/lib.rs:9:9:
expected
ok

failures:

failures:
    tests::b_fail
    tests::c_fail

test result: FAILED. 2 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s

error: test failed, to rerun pass `--lib`
";

#[test]
fn panics_printed_as_they_happen_are_their_tests_reports() {
    let b = Briefly::new();
    let envelope = b.envelope(&["cargo-test"], NOCAPTURE.as_bytes(), CAP);
    assert_eq!(
        names(&envelope, "failed"),
        ["tests::b_fail", "tests::c_fail"],
        "the test that expected its panic passed: {envelope}"
    );
    let b_fail = item_named(&envelope, "tests::b_fail");
    assert_eq!(b_fail["location"], "src/lib.rs:4:27", "{envelope}");
    assert_eq!(
        (b_fail["left"].as_str(), b_fail["right"].as_str()),
        (Some("[1, 2, 3]"), Some("[1, 2, 4]"))
    );
    let c_fail = item_named(&envelope, "tests::c_fail");
    assert_eq!(c_fail["message"], "c failed", "{envelope}");
}

#[test]
fn a_panic_printed_before_its_tests_result_line_is_its_report() {
    // `cargo test -- --nocapture` (Rust 1.95): the tests run on threads, so the panic may
    // come before its test's `... FAILED`, after another test's `ok` and output.
    let output = r#"   Compiling so v0.1.0 (/tmp/so)
    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.27s
     Running unittests src/lib.rs (target/debug/deps/so-e950912d0bff9de2)

running 2 tests
test tests::a_ok ... okbefore fail


thread 'tests::b_fail_nocap' (6215) panicked at src/lib.rs:3:54:
nocap DECISIVE
stack backtrace:
   0: __rustc::rust_begin_unwind
             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/std/src/panicking.rs:689:5
   1: core::panicking::panic_fmt
             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/panicking.rs:80:14
   2: so::tests::b_fail_nocap
             at ./src/lib.rs:3:54
   3: so::tests::b_fail_nocap::{{closure}}
             at ./src/lib.rs:3:27
   4: core::ops::function::FnOnce::call_once
             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/ops/function.rs:250:5
   5: <fn() -> core::result::Result<(), alloc::string::String> as core::ops::function::FnOnce<()>>::call_once
             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/ops/function.rs:250:5
note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.
test tests::b_fail_nocap ... FAILED

failures:

failures:
    tests::b_fail_nocap

test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.10s

error: test failed, to rerun pass `--lib`
"#;
    let b = Briefly::new();
    let envelope = b.envelope(&["cargo-test"], output.as_bytes(), CAP);
    let failed = item_named(&envelope, "tests::b_fail_nocap");
    assert_eq!(failed["message"], "nocap DECISIVE", "{envelope}");
    assert_eq!(failed["location"], "src/lib.rs:3:54", "{envelope}");
    assert_eq!(envelope["total_items"], 1, "{envelope}");
}

#[test]
fn panics_printed_before_other_tests_results_wait_for_their_own() {
    // `cargo test -- --nocapture` on several threads: two panics, then another test's
    // `ok`, then their tests' results; a `should_panic` test's panic (expected) among them.
    let output = "running 4 tests
thread 'tests::a' (100) panicked at src/lib.rs:10:5:
assertion `left == right` failed: a's message
  left: 1
 right: 2
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
thread 'tests::expected' (102) panicked at src/lib.rs:30:5:
expected to panic
thread 'tests::b' (101) panicked at src/lib.rs:20:5:
assertion `left == right` failed: b's message
  left: 3
 right: 4
test tests::c ... ok
test tests::expected - should panic ... ok
test tests::b ... FAILED
test tests::a ... FAILED

failures:

failures:
    tests::a
    tests::b

test result: FAILED. 2 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
";
    let b = Briefly::new();
    let envelope = b.envelope(&["cargo-test"], output.as_bytes(), CAP);
    let mut failed = names(&envelope, "failed");
    failed.sort();
    assert_eq!(failed, ["tests::a", "tests::b"], "{envelope}");
    for (name, message, location) in [
        ("tests::a", "a's message", "src/lib.rs:10:5"),
        ("tests::b", "b's message", "src/lib.rs:20:5"),
    ] {
        let item = item_named(&envelope, name);
        assert!(
            item["message"]
                .as_str()
                .is_some_and(|m| m.contains(message)),
            "{envelope}"
        );
        assert_eq!(item["location"], location, "{envelope}");
    }
    assert_eq!(envelope["total_items"], 2, "{envelope}");
}

#[test]
fn expected_panics_do_not_crowd_out_a_failures_panic_waiting_for_its_result() {
    // A failing test's panic, then twenty `should_panic` tests' panics, each followed by
    // its `ok`, then the failing test's result: more than the panics held waiting.
    let mut output = String::from(
        "running 21 tests\nthread 'tests::a' (1) panicked at src/lib.rs:10:5:\na's message\n",
    );
    for i in 0..20 {
        output.push_str(&format!(
            "thread 'tests::e{i}' ({}) panicked at src/lib.rs:{}:5:\nexpected {i}\n\
             test tests::e{i} - should panic ... ok\n",
            i + 2,
            30 + i
        ));
    }
    output.push_str(
        "test tests::a ... FAILED\n\nfailures:\n\nfailures:\n    tests::a\n\n\
         test result: FAILED. 20 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; \
         finished in 0.00s\n",
    );
    let b = Briefly::new();
    let envelope = b.envelope(&["cargo-test"], output.as_bytes(), CAP);
    assert_eq!(names(&envelope, "failed"), ["tests::a"], "{envelope}");
    let a = item_named(&envelope, "tests::a");
    assert_eq!(a["message"], "a's message", "{envelope}");
    assert_eq!(a["location"], "src/lib.rs:10:5", "{envelope}");
    assert_eq!(envelope["total_items"], 1, "{envelope}");
}

#[test]
fn panics_waiting_for_their_results_are_bounded_the_oldest_let_go() {
    // Twenty tests' panics before any of their results: the last 16 wait, the first four
    // are let go (their tests are still listed as failed, without a message).
    // A failure whose result came before them is reported at it, not held among them.
    let mut output = String::from(
        "running 21 tests\nthread 'tests::early' (99) panicked at src/lib.rs:5:5:\n\
         early message\ntest tests::c ... ok\ntest tests::early ... FAILED\n",
    );
    for i in 0..20 {
        output.push_str(&format!(
            "thread 'tests::f{i:02}' ({i}) panicked at src/lib.rs:{}:5:\nmessage {i}\n",
            10 + i
        ));
    }
    for i in 0..20 {
        output.push_str(&format!("test tests::f{i:02} ... FAILED\n"));
    }
    output.push_str(
        "\nfailures:\n\ntest result: FAILED. 1 passed; 21 failed; 0 ignored; 0 measured; \
         0 filtered out; finished in 0.00s\n",
    );
    let b = Briefly::new();
    let envelope = b.envelope(&["cargo-test"], output.as_bytes(), CAP);
    assert_eq!(envelope["total_items"], 21, "{envelope}");
    assert_message(&envelope, "tests::early", "early message");
    for i in 0..20 {
        let item = item_named(&envelope, &format!("tests::f{i:02}"));
        let message = (i >= 4).then(|| format!("message {i}"));
        assert_eq!(item["message"].as_str(), message.as_deref(), "{envelope}");
    }
}

#[test]
fn a_panic_waiting_for_a_result_line_run_into_by_output_is_named_by_the_failures_list() {
    // Another test's output, unterminated, runs into the failed test's result line: the
    // panic is its report when the list of failures names the test.
    let output = "running 2 tests
thread 'tests::b' (101) panicked at src/lib.rs:20:5:
b's message
test tests::c ... ok
test tests::b ... FAILEDhello from c

failures:

failures:
    tests::b

test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
";
    let b = Briefly::new();
    let envelope = b.envelope(&["cargo-test"], output.as_bytes(), CAP);
    assert_eq!(names(&envelope, "failed"), ["tests::b"], "{envelope}");
    let item = item_named(&envelope, "tests::b");
    assert_eq!(item["message"], "b's message", "{envelope}");
    assert_eq!(item["location"], "src/lib.rs:20:5", "{envelope}");
}

#[test]
fn a_panic_no_result_line_names_is_its_threads_item_and_a_doc_tests_its_report() {
    // A thread a test started panicked first (the cause) and no result line names it:
    // an item, not a failure. A doc-test's panic (thread `main`, its own process's)
    // is the report of the doc-test that failed next.
    let output = "running 1 test
thread 'worker' (3) panicked at src/lib.rs:5:9:
real cause
thread 'tests::a' (1) panicked at src/lib.rs:10:5:
a msg
test tests::a ... FAILED

failures:

failures:
    tests::a

test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

running 1 test
thread 'main' (7) panicked at /tmp/rustdoctestX/doctest_bundle_2024.rs:6:1:
doc msg
test src/lib.rs - add (line 3) ... FAILED

failures:

failures:
    src/lib.rs - add (line 3)

test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
";
    let b = Briefly::new();
    let envelope = b.envelope(&["cargo-test"], output.as_bytes(), CAP);
    assert_message(&envelope, "worker", "real cause");
    assert_eq!(item_named(&envelope, "worker")["kind"], "panic");
    assert_message(&envelope, "tests::a", "a msg");
    let doc = item_named(&envelope, "src/lib.rs - add (line 3)");
    assert_eq!(
        (&doc["message"], &doc["location"]),
        (&json!("doc msg"), &json!("src/lib.rs:3"))
    );
    assert_eq!(envelope["total_items"], 3, "no item for `main`: {envelope}");
    let failed = names(&envelope, "failed");
    assert_eq!(
        failed,
        ["tests::a", "src/lib.rs - add (line 3)"],
        "{envelope}"
    );
    assert!(
        envelope["summary"]
            .as_str()
            .unwrap()
            .ends_with("failed: tests::a, src/lib.rs - add (line 3)"),
        "{envelope}"
    );
}

#[test]
fn quiet_progress_between_a_panics_lines_is_not_the_panics() {
    // `RUST_BACKTRACE=1 cargo test -q -- --nocapture 2>&1` (Rust 1.95, frames cut): the
    // dots on stdout run into the panics' lines on stderr, and the count at a failure
    // comes between them. A thread's panic under `-q` is not told from a `should_panic`
    // test's expected one: neither is reported.
    let output = "
running 4 tests

thread 'tests::b_fail' (20989) panicked at src/lib.rs:11:27:
assertion `left == right` failed: one plus one
  left: 2
 right: 5
.stack backtrace:
   0: __rustc::rust_begin_unwind
             at /rustc/5980/library/std/src/panicking.rs:689:5
   4: ct::tests::b_fail
             at ./src/lib.rs:11:27
note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.
 1/4
tests::b_fail --- FAILED
.
thread 'worker' (20994) panicked at src/lib.rs:15:76:
worker died
stack backtrace:
   2: ct::tests::e_worker::{{closure}}
             at ./src/lib.rs:15:76
note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.
Fthread 'tests::f_fail2' (20993) panicked at src/lib.rs:18:63:
index out of bounds: the len is 0 but the index is 3
stack backtrace:
.   0: __rustc::rust_begin_unwind
   6: ct::tests::f_fail2
             at ./src/lib.rs:18:63
. 3/4
tests::f_fail2 --- FAILED

failures:

failures:
    tests::b_fail
    tests::f_fail2

test result: FAILED. 2 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.06s
";
    let b = Briefly::new();
    let envelope = b.envelope(&["cargo-test"], output.as_bytes(), CAP);
    assert_message(
        &envelope,
        "tests::b_fail",
        "assertion `left == right` failed: one plus one",
    );
    assert_message(
        &envelope,
        "tests::f_fail2",
        "index out of bounds: the len is 0 but the index is 3",
    );
    let f = item_named(&envelope, "tests::f_fail2");
    assert_eq!(f["location"], "src/lib.rs:18:63");
    assert!(!f["detail"].as_str().unwrap().contains("3/4"), "{envelope}");
    assert_eq!(envelope["total_items"], 2, "{envelope}");
}

#[test]
fn a_doc_tests_panic_under_nocapture_is_its_report() {
    // `cargo test --doc -- --nocapture`, with `-q` and without (Rust 1.95, edition 2024):
    // rustdoc prints a failed doc-test's stderr, its panic on thread `main`, before the
    // result that names it; under `-q` the list of failures names it (with spaces).
    let panic = "Test executable failed (exit status: 101).

stderr:

thread 'main' (21243) panicked at /tmp/rustdoctestpg/doctest_bundle_2024.rs:6:1:
assertion `left == right` failed
  left: 2
 right: 3
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace

";
    let end = "
failures:

failures:
    src/lib.rs - add_one (line 3)

test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.07s

all doctests ran in 0.23s; merged doctests compilation took 0.16s
error: doctest failed, to rerun pass `--doc`
";
    let named = format!(
        "   Doc-tests ct2\n\nrunning 2 tests\ntest src/lib.rs - add_two (line 10) ... ok\n{panic}test src/lib.rs - add_one (line 3) ... FAILED\n{end}"
    );
    let quiet =
        format!("\nrunning 2 tests\n.{panic} 1/2\nsrc/lib.rs - add_one (line 3) --- FAILED\n{end}");
    let b = Briefly::new();
    for output in [named, quiet] {
        let envelope = b.envelope(&["cargo-test"], output.as_bytes(), CAP);
        let doc = item_named(&envelope, "src/lib.rs - add_one (line 3)");
        assert_eq!(
            doc["message"], "assertion `left == right` failed",
            "{envelope}"
        );
        assert_eq!(
            (doc["left"].as_str(), doc["right"].as_str()),
            (Some("2"), Some("3"))
        );
        assert_eq!(doc["location"], "src/lib.rs:3");
        assert_eq!(envelope["total_items"], 1, "{envelope}");
    }
    // An older libtest's `-q` (dots only): the list of failures names it, an item
    // without its panic (which names no test).
    let dots = format!("\nrunning 2 tests\n.{panic}F{end}");
    let envelope = b.envelope(&["cargo-test"], dots.as_bytes(), CAP);
    let doc = item_named(&envelope, "src/lib.rs - add_one (line 3)");
    assert_eq!(doc["location"], "src/lib.rs:3", "{envelope}");
}

#[test]
fn quiet_nocapture_panics_are_their_failures_reports_and_expected_ones_nothing() {
    // `cargo test -q -- --nocapture` (Rust 1.95): no result lines but `NAME --- FAILED`
    // and dots; a `should_panic` test's expected panic among the failures' panics.
    let output = "running 4 tests
a says hi

thread 'tests::a_fails' (22355) panicked at src/lib.rs:5:77:
assertion `left == right` failed: a's sum
  left: 2
 right: 3
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
tests::a_fails --- FAILED

thread 'tests::b_fails' (22356) panicked at src/lib.rs:7:54:
b broke
tests::b_fails --- FAILED

thread 'tests::c_expected' (22357) panicked at src/lib.rs:10:57:
expected boom
d no newline..
failures:

failures:
    tests::a_fails
    tests::b_fails

test result: FAILED. 2 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.20s

error: test failed, to rerun pass `--lib`
";
    let b = Briefly::new();
    let envelope = b.envelope(&["cargo-test"], output.as_bytes(), CAP);
    let mut failed = names(&envelope, "failed");
    failed.sort();
    assert_eq!(failed, ["tests::a_fails", "tests::b_fails"], "{envelope}");
    assert_message(&envelope, "tests::b_fails", "b broke");
    let a = item_named(&envelope, "tests::a_fails");
    assert_eq!(
        (a["left"].as_str(), a["right"].as_str()),
        (Some("2"), Some("3"))
    );
    assert_eq!(envelope["total_items"], 2, "{envelope}");
}

#[test]
fn an_expected_panic_on_one_thread_ends_at_its_ok() {
    // `--nocapture --test-threads 1`: libtest names a test, its panic follows, then its
    // outcome alone on a line; a test that printed nothing has its result on one line.
    let output = "running 2 tests
test tests::quiet ... ok
test tests::expected - should panic ... 
thread 'tests::expected' (2) panicked at src/lib.rs:9:9:
expected
ok

test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
";
    let b = Briefly::new();
    let envelope = b.envelope(&["cargo-test"], output.as_bytes(), CAP);
    assert_eq!(envelope["total_items"], 0, "{envelope}");
}

#[test]
fn quiet_failures_are_reported_at_their_lines_however_many() {
    // Twenty failures under `-q --nocapture`: each panic is its test's report at its
    // `--- FAILED`, none let go for those after it.
    let mut output = String::from("running 20 tests\n");
    for i in 0..20 {
        output.push_str(&format!(
            "thread 'tests::q{i:02}' ({i}) panicked at src/lib.rs:{}:5:\nmessage {i}\n\
             tests::q{i:02} --- FAILED\n",
            10 + i
        ));
    }
    output.push_str(
        "\nfailures:\n\ntest result: FAILED. 0 passed; 20 failed; 0 ignored; 0 measured; \
         0 filtered out; finished in 0.00s\n",
    );
    let b = Briefly::new();
    let envelope = b.envelope(&["cargo-test"], output.as_bytes(), CAP);
    assert_eq!(envelope["total_items"], 20, "{envelope}");
    for i in 0..20 {
        let item = item_named(&envelope, &format!("tests::q{i:02}"));
        assert_eq!(item["message"], format!("message {i}"), "{envelope}");
    }
}

#[test]
fn panics_without_result_lines_under_q_are_named_by_the_failures_list() {
    // `-q` with tests that print no `--- FAILED` (older libtest: dots only): the list of
    // failures names each panic's test, the last one's too.
    let output = "running 2 tests
thread 'tests::a' (1) panicked at src/lib.rs:10:5:
a msg
thread 'tests::b' (2) panicked at src/lib.rs:20:5:
b msg

failures:

failures:
    tests::a
    tests::b

test result: FAILED. 0 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
";
    let b = Briefly::new();
    let envelope = b.envelope(&["cargo-test"], output.as_bytes(), CAP);
    assert_message(&envelope, "tests::a", "a msg");
    assert_message(&envelope, "tests::b", "b msg");
    assert_eq!(envelope["total_items"], 2, "{envelope}");
}

#[test]
fn a_test_that_aborts_after_its_first_panic_waited_is_one_crashed_item_with_it() {
    // Its first panic, then another test's result, then a panic in a destructor that
    // could not unwind: one item, the first panic its message.
    let output = "running 2 tests
thread 'tests::dp' (1) panicked at src/lib.rs:8:40:
first panic
test tests::fine ... ok
thread 'tests::dp' (1) panicked at src/lib.rs:4:47:
drop panicked too
thread caused non-unwinding panic. aborting.
error: test failed, to rerun pass `--lib`
";
    let b = Briefly::new();
    let envelope = b.envelope(&["cargo-test"], output.as_bytes(), CAP);
    assert_eq!(envelope["total_items"], 1, "{envelope}");
    let crashed = item_named(&envelope, "tests::dp");
    assert_eq!(crashed["kind"], "crashed", "{envelope}");
    assert!(
        (crashed["message"].as_str()).is_some_and(|m| m.starts_with("first panic\n")),
        "{envelope}"
    );
}

#[test]
fn a_test_binary_that_crashed_is_an_item_saying_how() {
    // A test overflowed its stack: the binary aborted before its result (Rust 1.95).
    let output = "     Running unittests src/lib.rs (target/debug/deps/ct2-3dae4a4c680ac6a0)

running 2 tests
test tests::a_ok ... ok

thread 'tests::overflow' (29640) has overflowed its stack
fatal runtime error: stack overflow, aborting
error: test failed, to rerun pass `--lib`

Caused by:
  process didn't exit successfully: `/tmp/ct2/target/debug/deps/ct2-3dae4a4c680ac6a0` (signal: 6, SIGABRT: process abort signal)
";
    let b = Briefly::new();
    let envelope = b.envelope(&["cargo-test"], output.as_bytes(), CAP);
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.contains("it stopped: thread 'tests::overflow' (29640) has overflowed its stack; cargo stopped at the failing `--lib`"),
        "{summary}"
    );
    let crashed = &envelope["items"][0];
    assert_eq!(crashed["kind"], "crashed", "{envelope}");
    assert_eq!(crashed["binary"], "ct2: unittests src/lib.rs");
    let detail = crashed["detail"].as_str().unwrap();
    assert!(
        detail.contains("fatal runtime error: stack overflow"),
        "{detail}"
    );
    assert!(detail.contains("(signal: 6, SIGABRT"), "{detail}");
    // What libtest printed before it stopped is counted, apart from the totals.
    assert!(
        summary.starts_with("no `test result:` line in the input; totals incomplete"),
        "{summary}"
    );
    assert!(
        summary.contains("; before it stopped, libtest printed 1 passed, 0 failed, 0 ignored;"),
        "{summary}"
    );
    let after_a_result = format!(
        "     Running unittests src/main.rs (target/debug/deps/ct1-0123456789abcdef)

running 3 tests
test m::a ... ok
test m::b ... ok
test m::c ... ignored

test result: ok. 2 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s

{}",
        output.replace(
            "test tests::a_ok ... ok\n",
            "test tests::a_ok ... ok\ntest tests::b ... FAILED\ntest tests::c ... ignored, slow\n"
        )
    );
    let envelope = b.envelope(&["cargo-test"], after_a_result.as_bytes(), CAP);
    let summary = envelope["summary"].as_str().unwrap();
    // What the binary that stopped printed is counted in: the totals do not read as
    // all clear.
    assert!(
        summary.starts_with(
            "at least 3 passed; 1 failed; 2 ignored across 2 test binaries; totals incomplete"
        ),
        "{summary}"
    );
    assert!(!summary.contains("before it stopped"), "{summary}");
    let totals = &envelope["stats"]["totals"];
    assert_eq!(
        (&totals["passed"], &totals["failed"], &totals["ignored"]),
        (&json!(3), &json!(1), &json!(2)),
        "{envelope}"
    );
    assert_eq!(envelope["stats"]["counts_known"], false, "{envelope}");
}

#[test]
fn libtest_json_panics_printed_as_they_happen_are_their_tests_reports() {
    // `RUST_BACKTRACE=1 cargo test -- -Z unstable-options --format json --nocapture`
    // (Rust 1.95, frames cut): panics between the events, a `should_panic` test's among
    // them, a worker thread's, an event after output that did not end its line.
    let output = r#"{ "type": "suite", "event": "started", "test_count": 7 }
{ "type": "test", "event": "started", "name": "tests::a_pass" }
{ "type": "test", "event": "started", "name": "tests::b_fail" }

thread 'tests::b_fail' (4991) panicked at src/lib.rs:11:27:
assertion `left == right` failed: one plus one
  left: 2
 right: 5
stack backtrace:
{ "type": "test", "name": "tests::a_pass", "event": "ok" }
{ "type": "test", "event": "started", "name": "tests::c_expected" }
note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.

thread 'tests::c_expected' (4992) panicked at src/lib.rs:12:47:
expected boom
stack backtrace:
note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.
{ "type": "test", "name": "tests::b_fail", "event": "failed" }
{ "type": "test", "event": "started", "name": "tests::d_print" }
{ "type": "test", "name": "tests::c_expected", "event": "ok" }
{ "type": "test", "event": "started", "name": "tests::e_worker" }
no newline here{ "type": "test", "name": "tests::d_print", "event": "ok" }
{ "type": "test", "event": "started", "name": "tests::f_fail2" }

thread 'tests::f_fail2' (4995) panicked at src/lib.rs:18:63:
index out of bounds: the len is 0 but the index is 3
stack backtrace:
note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.

thread 'worker' (4996) panicked at src/lib.rs:15:76:
worker died
stack backtrace:
{ "type": "test", "name": "tests::f_fail2", "event": "failed" }
{ "type": "test", "event": "started", "name": "tests::g_pass" }
{ "type": "test", "name": "tests::g_pass", "event": "ok" }
note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.
{ "type": "test", "name": "tests::e_worker", "event": "ok" }
{ "type": "suite", "event": "failed", "passed": 5, "failed": 2, "ignored": 0, "measured": 0, "filtered_out": 0 }
error: test failed, to rerun pass `--lib`
"#;
    let b = Briefly::new();
    let envelope = b.envelope(&["cargo-test"], output.as_bytes(), CAP);
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.starts_with("5 passed; 2 failed; 0 ignored across 1 test binary"),
        "{summary}"
    );
    assert_eq!(
        names(&envelope, "failed"),
        ["tests::b_fail", "tests::f_fail2"],
        "{envelope}"
    );
    let b_fail = item_named(&envelope, "tests::b_fail");
    assert_eq!(
        b_fail["message"],
        "assertion `left == right` failed: one plus one"
    );
    assert_eq!(
        (b_fail["left"].as_str(), b_fail["right"].as_str()),
        (Some("2"), Some("5"))
    );
    assert_message(
        &envelope,
        "tests::f_fail2",
        "index out of bounds: the len is 0 but the index is 3",
    );
    assert_eq!(item_named(&envelope, "worker")["kind"], "panic");
    assert_eq!(envelope["total_items"], 3, "{envelope}");
    // A failure's event after what the test printed without ending its line.
    let output = r#"{ "type": "suite", "event": "started", "test_count": 1 }
{ "type": "test", "event": "started", "name": "tests::h_err" }
partial line{ "type": "test", "name": "tests::h_err", "event": "failed" }
{ "type": "suite", "event": "failed", "passed": 0, "failed": 1, "ignored": 0, "measured": 0, "filtered_out": 0 }
"#;
    let envelope = b.envelope(&["cargo-test"], output.as_bytes(), CAP);
    assert_eq!(names(&envelope, "failed"), ["tests::h_err"], "{envelope}");
    // A binary that stopped short: what its events said before.
    let output = r#"{ "type": "suite", "event": "started", "test_count": 2 }
{ "type": "test", "event": "started", "name": "tests::a" }
{ "type": "test", "name": "tests::a", "event": "ok" }
{ "type": "test", "event": "started", "name": "tests::b" }
"#;
    let envelope = b.envelope(&["cargo-test"], output.as_bytes(), CAP);
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.starts_with("no suite result (libtest's JSON) in the input; "),
        "{summary}"
    );
    assert!(
        summary.contains("before it stopped, libtest printed 1 passed, 0 failed, 0 ignored"),
        "{summary}"
    );
}

#[test]
fn panics_printed_as_they_happen_go_to_their_own_tests_only() {
    let b = Briefly::new();
    let envelope_of = |output: &str| b.envelope(&["cargo-test"], output.as_bytes(), CAP);
    // A `should_panic` doc-test's expected panic (rustdoc lets an edition 2021 doc-test
    // write to the terminal under `--nocapture`) is not the next failed doc-test's.
    let envelope = envelope_of(
        r#"   Doc-tests demo

running 2 tests

thread 'main' panicked at src/lib.rs:5:5:
expected boom
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
test src/lib.rs - boom (line 3) - should panic ... ok
Error: ParseIntError { kind: InvalidDigit }
Test executable failed (exit status: 1).

test src/lib.rs - parse (line 10) ... FAILED

failures:

failures:
    src/lib.rs - parse (line 10)

test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.30s
"#,
    );
    let parse = item_named(&envelope, "src/lib.rs - parse (line 10)");
    assert_eq!(
        (&parse["message"], &parse["location"]),
        (
            &json!("Test executable failed (exit status: 1)."),
            &json!("src/lib.rs:10")
        ),
        "{envelope}"
    );
    // libtest's JSON: `timeout` says a test has run for 60 seconds, and it goes on: its
    // panic is its failure's report; passing after it, it is no failure.
    let envelope = envelope_of(
        r#"{ "type": "suite", "event": "started", "test_count": 1 }
{ "type": "test", "event": "started", "name": "tests::slow" }
{ "type": "test", "event": "timeout", "name": "tests::slow" }

thread 'tests::slow' (7) panicked at src/lib.rs:20:5:
real reason
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
{ "type": "test", "name": "tests::slow", "event": "failed" }
{ "type": "suite", "event": "failed", "passed": 0, "failed": 1, "ignored": 0, "measured": 0, "filtered_out": 0 }
"#,
    );
    assert_message(&envelope, "tests::slow", "real reason");
    assert_eq!(envelope["total_items"], 1, "{envelope}");
    let passed = r#"{ "type": "suite", "event": "started", "test_count": 1 }
{ "type": "test", "event": "started", "name": "tests::slow" }
{ "type": "test", "event": "timeout", "name": "tests::slow" }
{ "type": "test", "name": "tests::slow", "event": "ok" }
{ "type": "suite", "event": "ok", "passed": 1, "failed": 0, "ignored": 0, "measured": 0, "filtered_out": 0 }
"#;
    let envelope = envelope_of(passed);
    assert_eq!(
        (envelope["ok"].as_bool(), envelope["total_items"].as_u64()),
        (Some(true), Some(0)),
        "{envelope}"
    );
    // Cut off after it: the test it stopped in.
    let envelope = envelope_of(&passed[..passed.find(r#"{ "type": "test", "name""#).unwrap()]);
    let crashed = item_where(&envelope, |i| i["kind"] == "crashed");
    assert_eq!(crashed["name"], "tests::slow", "{envelope}");
    // A doc-test's in JSON too.
    let doc = r#"{ "type": "suite", "event": "started", "test_count": 1 }
{ "type": "test", "event": "started", "name": "src/lib.rs - add (line 3)" }
Test executable failed (exit status: 101).

stderr:

thread 'main' (5) panicked at /tmp/rustdoctestX/doctest_bundle_2024.rs:6:1:
doc msg
{ "type": "test", "name": "src/lib.rs - add (line 3)", "event": "failed" }
{ "type": "suite", "event": "failed", "passed": 0, "failed": 1, "ignored": 0, "measured": 0, "filtered_out": 0 }
"#;
    assert_message(&envelope_of(doc), "src/lib.rs - add (line 3)", "doc msg");
    // nextest's libtest-json names the test by its binary too: a `should_panic` test's
    // expected panic goes at its `ok`.
    let envelope = envelope_of(
        r#"{"type":"suite","event":"started","test_count":1}
{"type":"test","event":"started","name":"demo::demo$tests::sp"}

thread 'tests::sp' (9) panicked at src/lib.rs:9:9:
expected
{"type":"test","name":"demo::demo$tests::sp","event":"ok"}
{"type":"suite","event":"ok","passed":1,"failed":0,"ignored":0,"measured":0,"filtered_out":0}
"#,
    );
    assert_eq!(envelope["total_items"], 0, "{envelope}");
    // In the text format a JSON event in a panic's message is the message's.
    let text = r#"running 1 test
printed { "type": "test", "name": "tests::ghost", "event": "failed" }
thread 'tests::parse' (2) panicked at src/lib.rs:4:9:
bad line: { "type": "test", "event": "ok" }
test tests::parse ... FAILED

failures:

failures:
    tests::parse

test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
"#;
    let envelope = envelope_of(text);
    let message = r#"bad line: { "type": "test", "event": "ok" }"#;
    assert_message(&envelope, "tests::parse", message);
    assert_eq!(envelope["total_items"], 1, "{envelope}");
}

#[test]
fn doc_tests_that_fail_without_a_panic_say_why_with_nocapture_or_not() {
    // `cargo test --doc` of four failing doc-tests (Rust 1.95, edition 2024): one does
    // not compile, one exits with 3, one was to panic, one panics. Under `--nocapture`
    // rustdoc prints its verdict as each ends (some with libtest's result on the same
    // line) and rustc's error as the doc-test is built: no error of the build.
    let captured = r#"    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.01s
   Doc-tests ct2

running 4 tests
test src/lib.rs - nc (line 26) ... FAILED
test src/lib.rs - exits (line 12) ... FAILED
test src/lib.rs - parse (line 3) ... FAILED
test src/lib.rs - sp (line 19) ... FAILED

failures:

---- src/lib.rs - nc (line 26) stdout ----
error[E0308]: mismatched types
  --> src/lib.rs:27:14
   |
27 | let x: i32 = "s";
   |        ---   ^^^ expected `i32`, found `&str`
   |        |
   |        expected due to this

error: aborting due to 1 previous error

For more information about this error, try `rustc --explain E0308`.
Couldn't compile the test.
---- src/lib.rs - exits (line 12) stdout ----
Test executable failed (exit status: 3).

---- src/lib.rs - parse (line 3) stdout ----
Test executable failed (exit status: 101).

stderr:

thread 'main' (13107) panicked at src/lib.rs:6:34:
called `Result::unwrap()` on an `Err` value: ParseIntError { kind: InvalidDigit }
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace


---- src/lib.rs - sp (line 19) stdout ----
Test executable succeeded, but it's marked `should_panic`.

failures:
    src/lib.rs - exits (line 12)
    src/lib.rs - nc (line 26)
    src/lib.rs - parse (line 3)
    src/lib.rs - sp (line 19)

test result: FAILED. 0 passed; 4 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.15s

all doctests ran in 0.21s; merged doctests compilation took 0.05s
error: doctest failed, to rerun pass `--doc`
"#;
    let nocapture = r#"    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.00s
   Doc-tests ct2

running 4 tests
error[E0308]: mismatched types
  --> src/lib.rs:27:14
   |
27 | let x: i32 = "s";
   |        ---   ^^^ expected `i32`, found `&str`
   |        |
   |        expected due to this

error: aborting due to 1 previous error

For more information about this error, try `rustc --explain E0308`.
Couldn't compile the test.test src/lib.rs - nc (line 26) ... FAILED
Test executable failed (exit status: 3).
test src/lib.rs - exits (line 12) ... FAILED
Test executable failed (exit status: 101).

stderr:

thread 'main' (13169) panicked at src/lib.rs:6:34:
called `Result::unwrap()` on an `Err` value: ParseIntError { kind: InvalidDigit }
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace

test src/lib.rs - parse (line 3) ... FAILED
Test executable succeeded, but it's marked `should_panic`.test src/lib.rs - sp (line 19) ... FAILED

failures:

failures:
    src/lib.rs - exits (line 12)
    src/lib.rs - nc (line 26)
    src/lib.rs - parse (line 3)
    src/lib.rs - sp (line 19)

test result: FAILED. 0 passed; 4 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.14s

all doctests ran in 0.17s; merged doctests compilation took 0.03s
error: doctest failed, to rerun pass `--doc`
"#;
    let b = Briefly::new();
    for output in [captured, nocapture] {
        let envelope = b.envelope(&["cargo-test"], output.as_bytes(), CAP);
        let summary = envelope["summary"].as_str().unwrap();
        assert!(
            summary.starts_with("0 passed; 4 failed; 0 ignored"),
            "{summary}"
        );
        assert_message(
            &envelope,
            "src/lib.rs - nc (line 26)",
            "error[E0308]: mismatched types",
        );
        assert_message(
            &envelope,
            "src/lib.rs - exits (line 12)",
            "Test executable failed (exit status: 3).",
        );
        assert_message(
            &envelope,
            "src/lib.rs - sp (line 19)",
            "Test executable succeeded, but it's marked `should_panic`.",
        );
        assert_message(
            &envelope,
            "src/lib.rs - parse (line 3)",
            "called `Result::unwrap()` on an `Err` value: ParseIntError { kind: InvalidDigit }",
        );
        assert_eq!(envelope["total_items"], 4, "{envelope}");
    }
}

#[test]
fn libtest_json_notes_on_should_panic_tests_are_their_messages() {
    let output = r#"{ "type": "suite", "event": "started", "test_count": 2 }
{ "type": "test", "event": "started", "name": "tests::none" }
{ "type": "test", "event": "started", "name": "tests::wrong" }
{ "type": "test", "name": "tests::none", "event": "failed", "exec_time": 0.00000029, "message": "test did not panic as expected at src/lib.rs:22:32" }
{ "type": "test", "name": "tests::wrong", "event": "failed", "exec_time": 0.0001, "stdout": "\nthread 'tests::wrong' (31433) panicked at src/lib.rs:21:74:\nbang\n", "message": "panic did not contain expected string\n      panic message: \"bang\"\n expected substring: \"boom\"" }
{ "type": "suite", "event": "failed", "passed": 0, "failed": 2, "ignored": 0, "measured": 0, "filtered_out": 0, "exec_time": 0.001 }
"#;
    let b = Briefly::new();
    let envelope = b.envelope(&["cargo-test"], output.as_bytes(), CAP);
    let item = |name: &str| item_named(&envelope, name);
    let none = item("tests::none");
    assert_eq!(none["message"], "test did not panic as expected");
    assert_eq!(none["location"], "src/lib.rs:22:32");
    assert_eq!(
        item("tests::wrong")["message"],
        "panic did not contain expected string\npanic message: \"bang\"\nexpected substring: \"boom\""
    );
}

#[test]
fn pytest_collect_only_lists_each_test_in_every_form() {
    // A package with a directory below it, classes nested (with docstrings, which `-v`
    // prints under their nodes), parameters with a space and a `>`, a text file's
    // doctest: the tree's node ids are those `-q` prints, each test an item.
    let project = tempfile::tempdir().unwrap();
    write(project.path(), "tests/__init__.py", "");
    write(
        project.path(),
        "tests/test_a.py",
        "import pytest\n\nclass TestX:\n    \"\"\"Class doc.\n\n    db.pool_size: 5\n    \"\"\"\n    def test_one(self):\n        \"\"\"One.\"\"\"\n        print('<Config prod>')\n        print('db.pool_size: 5')\n\n    class TestInner:\n        def test_deep(self):\n            pass\n\n@pytest.mark.parametrize('v', [1, 'a b', 'c>d'])\ndef test_p(v):\n    print()\n    print('printed', v)\n",
    );
    write(
        project.path(),
        "tests/sub/test_b.py",
        "def test_b():\n    pass\n",
    );
    write(project.path(), "tests/guide.txt", ">>> 1 + 1\n2\n");
    let b = Briefly::new();
    let listed = |args: &[&str]| {
        let output = pytest(project.path(), args);
        let envelope = b.envelope(&["pytest"], &output.stdout, CAP);
        let items = envelope["items"].as_array().unwrap();
        assert!(items.iter().all(|i| i["kind"] == "collected"), "{envelope}");
        let ids = nodeids(&envelope);
        (envelope, ids)
    };
    let glob = "--doctest-glob=*.txt";
    let (envelope, quiet) = listed(&["--co", "-q", glob, "tests"]);
    assert_eq!(quiet.len(), 7, "{envelope}");
    assert!(quiet.contains(&"tests/guide.txt::guide.txt".to_string()));
    assert!(quiet.contains(&"tests/test_a.py::TestX::TestInner::test_deep".to_string()));
    assert!(quiet.contains(&"tests/test_a.py::test_p[a b]".to_string()));
    assert_eq!(
        envelope["summary"].as_str().unwrap().split(" in ").next(),
        Some("7 tests collected")
    );
    assert_eq!(envelope["stats"]["counts"], json!({"collected": 7}));
    let by_file = json!({"tests/test_a.py": 5, "tests/sub/test_b.py": 1, "tests/guide.txt": 1});
    assert_eq!(envelope["stats"]["collected_by_file"], by_file);
    assert!(
        envelope["summary"]
            .as_str()
            .unwrap()
            .ends_with("; in 3 files"),
        "{envelope}"
    );
    assert_eq!(envelope["ok"], true);
    assert_eq!(
        envelope["items"][0]["file"],
        quiet[0].split("::").next().unwrap()
    );
    for verbosity in ["--co", "-v", "-vv"] {
        let (envelope, tree) = listed(&["--co", verbosity, glob, "tests"]);
        assert_eq!(tree, quiet, "{verbosity}: {envelope}");
    }
    // `-qq`: the files and their tests, and no counts line.
    let (envelope, files) = listed(&["--co", "-qq", "tests"]);
    assert_eq!(
        files,
        ["tests/sub/test_b.py", "tests/test_a.py"],
        "{envelope}"
    );
    assert_eq!(envelope["items"][1]["message"], "5 tests");
    assert!(
        envelope["summary"]
            .as_str()
            .unwrap()
            .ends_with("--collect-only -qq listed 6 tests in 2 files"),
        "{envelope}"
    );
    assert_eq!(envelope["ok"], true, "no counts, but a listing: {envelope}");
    // Deselected, and none selected (pytest exits 5: not ok).
    let (envelope, some) = listed(&["--co", "-q", "-k", "deep", "tests"]);
    assert_eq!(some, ["tests/test_a.py::TestX::TestInner::test_deep"]);
    assert_eq!(
        envelope["stats"]["counts"],
        json!({"collected": 1, "deselected": 5})
    );
    let (envelope, none) = listed(&["--co", "-q", "-k", "zzz", "tests"]);
    assert!(none.is_empty());
    assert_eq!(envelope["ok"], false, "{envelope}");
    // A module that cannot be imported, its report last (no short summary): the counts
    // line after it is pytest's.
    let broken = tempfile::tempdir().unwrap();
    write(broken.path(), "test_ok.py", "def test_ok():\n    pass\n");
    write(broken.path(), "test_bad.py", "import no_such_module\n");
    let args = ["--co", "-q", "-rN", "--continue-on-collection-errors"];
    let envelope = b.envelope(&["pytest"], &pytest(broken.path(), &args).stdout, CAP);
    assert_eq!(
        envelope["stats"]["counts"],
        json!({"collected": 1, "errors": 1})
    );
    let listed = item_where(&envelope, |i| i["kind"] == "collected");
    assert_eq!(listed["nodeid"], "test_ok.py::test_ok", "{envelope}");
    // A run, not a listing: `-v -s` prints each test's node id alone before its output,
    // and a test prints lines shaped as a tree's node and a `-qq` file's.
    let output = pytest(project.path(), &["-v", "-s", "tests"]);
    let envelope = b.envelope(&["pytest"], &output.stdout, CAP);
    let printed = String::from_utf8_lossy(&output.stdout);
    assert!(
        printed.contains("::test_p[1] \nprinted 1\nPASSED"),
        "{printed}"
    );
    assert_eq!(envelope["total_items"], 0, "{envelope}");
    assert_eq!(envelope["ok"], true);
}

#[test]
fn pytest_collect_only_lists_node_ids_not_log_lines() {
    // `--collect-only -q -s` with `log_cli` on: a log line and what a conftest printed
    // hold `::` too; node ids of a path with spaces and of a text file's doctest.
    let output = "connecting to ::1 at import
WARNING  app.net:test_a.py:2 binding to [::1]:8080
my tests/test_s.py::test_x
docs/guide.txt::guide.txt

2 tests collected in 0.01s
";
    let b = Briefly::new();
    let envelope = b.envelope(&["pytest"], output.as_bytes(), CAP);
    assert_eq!(
        nodeids(&envelope),
        ["my tests/test_s.py::test_x", "docs/guide.txt::guide.txt"]
    );
    // `-qq` (no counts line) with a path with spaces.
    let envelope = b.envelope(
        &["pytest"],
        b"my tests/test_s.py: 2\ntests/test_a.py: 1\n",
        CAP,
    );
    assert_eq!(envelope["total_items"], 2, "{envelope}");
    assert_eq!(envelope["items"][0]["nodeid"], "my tests/test_s.py");
}

#[test]
fn pytest_collect_only_listings_past_the_bound_say_how_many_more() {
    let mut output = String::new();
    for i in 0..10_005 {
        output.push_str(&format!("tests/test_{}.py::test_{i}\n", i % 3));
    }
    output.push_str("\n10005 tests collected in 1.00s\n");
    let b = Briefly::new();
    let envelope = b.envelope(&["pytest"], output.as_bytes(), CAP);
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.ends_with("; the first 10000 listed in 3 files, 5 more (the artifact has them)"),
        "{summary}"
    );
    assert_eq!(envelope["stats"]["collected_left_out"], 5);
    assert_eq!(envelope["total_items"], 10_000);
}

#[test]
fn doc_tests_causes_under_nocapture_go_to_their_results_in_order() {
    // Doc-tests run on threads: each prints why it failed as it ends (rustc's errors,
    // rustdoc's verdict, some without a newline), their results come after, in the
    // same order. A unit test that prints a line shaped as a verdict gives none.
    let output = "     Running unittests src/lib.rs (target/debug/deps/x-1)

running 1 test
Test executable failed (exit status: 2).
test tests::prints ... ok

test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

   Doc-tests x

running 5 tests
error[E0308]: mismatched types
  --> src/lib.rs:27:14
   |
error[E0425]: cannot find value `y` in this scope
error: aborting due to 2 previous errors

Couldn't compile the test.Test executable failed (exit status: 3).
Test executable failed (exit status: 101).

stderr:

thread 'main' (5) panicked at src/lib.rs:6:34:
boom
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace

Test compiled successfully, but it's marked `compile_fail`.test src/lib.rs - nc (line 26) ... FAILED
test src/lib.rs - exits (line 12) ... FAILED
test src/lib.rs - boom (line 3) ... FAILED
test src/lib.rs - cf (line 30) ... FAILED
test src/lib.rs - fine (line 40) ... ok

failures:

failures:
    src/lib.rs - boom (line 3)
    src/lib.rs - cf (line 30)
    src/lib.rs - exits (line 12)
    src/lib.rs - nc (line 26)

test result: FAILED. 1 passed; 4 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.20s
";
    let b = Briefly::new();
    let envelope = b.envelope(&["cargo-test"], output.as_bytes(), CAP);
    let summary = envelope["summary"].as_str().unwrap();
    assert!(
        summary.starts_with("2 passed; 4 failed; 0 ignored"),
        "{summary}"
    );
    assert!(envelope["stats"].get("notes").is_none(), "{envelope}");
    assert_message(
        &envelope,
        "src/lib.rs - nc (line 26)",
        "error[E0308]: mismatched types",
    );
    assert_message(
        &envelope,
        "src/lib.rs - exits (line 12)",
        "Test executable failed (exit status: 3).",
    );
    assert_message(&envelope, "src/lib.rs - boom (line 3)", "boom");
    assert_message(
        &envelope,
        "src/lib.rs - cf (line 30)",
        "Test compiled successfully, but it's marked `compile_fail`.",
    );
    assert_eq!(envelope["total_items"], 4, "{envelope}");
    // `-q`: no binary named, the dots before a verdict; a panic's verdict is its own.
    let quiet = "
running 3 tests
Test executable failed (exit status: 101).

stderr:

thread 'main' (5) panicked at src/lib.rs:6:34:
boom
 1/3
src/lib.rs - a (line 3) --- FAILED
..Test executable failed (exit status: 3).
 3/3
src/lib.rs - c (line 20) --- FAILED

failures:

failures:
    src/lib.rs - a (line 3)
    src/lib.rs - c (line 20)

test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.20s
";
    let envelope = b.envelope(&["cargo-test"], quiet.as_bytes(), CAP);
    assert_message(&envelope, "src/lib.rs - a (line 3)", "boom");
    assert_message(
        &envelope,
        "src/lib.rs - c (line 20)",
        "Test executable failed (exit status: 3).",
    );
}

#[test]
fn pytest_quiet_counts_after_the_warnings_summary() {
    // `pytest -q` of tests that pass with a warning: its counts line follows the warnings
    // summary's link to the docs, without a title's `=`; it was read as a test's name.
    let project = tempfile::tempdir().unwrap();
    write(
        project.path(),
        "test_w.py",
        "import warnings\n\ndef test_w():\n    warnings.warn(DeprecationWarning('old api'))\n\n\
         def test_ok():\n    pass\n",
    );
    let b = Briefly::new();
    let output = pytest(project.path(), &["-q"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("-- Docs:"), "{stdout}");
    let envelope = b.envelope(&["pytest"], &output.stdout, CAP);
    assert_eq!(envelope["ok"], true, "{envelope}");
    assert_eq!(envelope["stats"]["counts_known"], true, "{envelope}");
    assert!(
        (envelope["summary"].as_str().unwrap()).starts_with("2 passed, 1 warning in "),
        "{envelope}"
    );
    // Named as the test's id names its file, not by pytest's absolute path.
    let warning = &envelope["items"][0];
    assert_eq!(
        (warning["kind"].as_str(), warning["file"].as_str()),
        (Some("warning"), Some("test_w.py")),
        "{envelope}"
    );
}

#[test]
fn pytest_a_warning_says_how_many_times_pytest_counted_it() {
    // pytest groups a file's many warnings alike (`test_w.py: 20 warnings`), and lists
    // the tests of a few over them.
    let project = tempfile::tempdir().unwrap();
    write(
        project.path(),
        "test_w.py",
        "import pytest, warnings\n\n@pytest.mark.parametrize('i', range(20))\n\
         def test_w(i):\n    warnings.warn(DeprecationWarning('old api'))\n\n\
         def test_a():\n    warnings.warn(UserWarning('once'))\n",
    );
    let output = pytest(project.path(), &[]);
    let envelope = Briefly::new().envelope(&["pytest"], &output.stdout, CAP);
    let counts: Vec<(&str, Option<u64>)> = (envelope["items"].as_array().unwrap().iter())
        .filter(|i| i["kind"] == "warning")
        .map(|i| (i["exception"].as_str().unwrap(), i["count"].as_u64()))
        .collect();
    assert_eq!(
        counts,
        [("DeprecationWarning", Some(20)), ("UserWarning", None)],
        "{envelope}"
    );
}

#[test]
fn pytest_a_long_dict_comparison_keeps_how_the_dicts_differ() {
    // `pytest -vv`: the items two dicts have in common come first, 60 lines of them;
    // how they differ, after them, was left out with the middle of the report.
    let project = tempfile::tempdir().unwrap();
    write(
        project.path(),
        "test_d.py",
        "def test_dict():\n    a = {f'key{i}': i for i in range(60)}\n    b = dict(a)\n    \
         b['key31'] = -1\n    assert a == b\n",
    );
    let b = Briefly::new();
    let output = pytest(project.path(), &["-vv"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("Common items:"), "{stdout}");
    let envelope = b.envelope(&["pytest"], &output.stdout, CAP);
    let traceback = envelope["items"][0]["traceback"].as_str().unwrap();
    assert!(traceback.contains("Differing items:"), "{traceback}");
    assert!(
        traceback.contains("{'key31': 31} != {'key31': -1}"),
        "{traceback}"
    );
    assert!(traceback.contains("-     'key31': -1,"), "{traceback}");
    assert!(traceback.contains("+     'key31': 31,"), "{traceback}");
}
