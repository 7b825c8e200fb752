"""Drives an MCP server over stdio with the official Python SDK's client and prints
what it saw as one JSON report for the Rust test to check.

usage: client.py SCENARIO COMMAND [ARGS...]
  briefly  COMMAND is `briefly mcp`: list tools, run a 1 MB command, read the rest back
  proxy    COMMAND is `briefly mcp-proxy -- server.py`: a 2 MB result, parallel calls,
           an image, a malformed answer, then a crash
  overlong COMMAND is the proxy with a small --max-message-bytes: the 2 MB answer
  reducers COMMAND is `briefly mcp`: each reducer tool once over a small real-looking
           input (inline, or the CSV $BRIEFLY_TEST_DIR/scores.csv), a table page
"""

import json
import os
import sys
import time

import anyio
import mcp_types as types
from mcp import ClientSession, StdioServerParameters, stdio_client

# Generous: a hang fails the test instead of stalling CI; speed is measured elsewhere.
CALL_TIMEOUT = 60


def texts(result):
    return [block.text for block in result.content if block.type == "text"]


async def call(session, name, arguments, progress=None):
    """The result as a dict, or the error the client raised."""
    started = time.monotonic()
    try:
        result = await session.call_tool(
            name, arguments, read_timeout_seconds=CALL_TIMEOUT, progress_callback=progress
        )
    except Exception as e:  # the test checks which calls must fail
        return {"error": str(e), "seconds": time.monotonic() - started}
    return {
        "is_error": bool(result.is_error),
        "texts": texts(result),
        "types": [block.type for block in result.content],
        "structured": result.structured_content,
        "seconds": time.monotonic() - started,
    }


async def briefly(session, report):
    # 1 MB of numbered lines, reduced within the budget of the call's context window.
    run = await call(session, "run", {"command": ["seq", "1", "150000"], "context_tokens": 32768})
    report["run"] = run
    envelope = run["structured"]
    shown = [int(item["text"]) for item in envelope["items"] if isinstance(item, dict) and "line" in item]
    # Read the rest back from the artifact: from the first line not shown in the head,
    # following next_cursor with `page` until nothing is left.
    first_missing = 1
    while first_missing in set(shown):
        first_missing += 1
    lines = []
    calls = 0
    result = await call(
        session,
        "read",
        {"artifact": envelope["artifact_path"], "offset": first_missing, "context_tokens": 200000},
    )
    while True:
        calls += 1
        if "error" in result or result["is_error"]:
            report["read_failed"] = result
            break
        page = result["structured"]
        lines.extend(item["text"] for item in page["items"])
        report.setdefault("read_text_chars", []).append(sum(len(t) for t in result["texts"]))
        if not page["next_cursor"] or calls > 500:
            break
        result = await call(session, "page", {"cursor": page["next_cursor"], "context_tokens": 200000})
    report["read_from"] = first_missing
    report["read_lines"] = lines
    report["read_calls"] = calls
    # A failing command: isError, exit code kept.
    report["failing"] = await call(session, "run", {"command": ["sh", "-c", "echo boom >&2; exit 3"]})
    report["missing"] = await call(session, "run", {"command": ["no-such-command-briefly"]})
    report["text"] = await call(session, "text", {"text": "ok\nERROR disk full\nok\n"})
    report["bad_args"] = await call(session, "grep", {"artifact": "/nonexistent", "pattern": "x", "colour": 1})
    report["grep"] = await call(session, "grep", {"artifact": envelope["artifact_path"], "pattern": "^14999[0-9]$"})


async def proxy(session, report):
    report["small"] = await call(session, "small", {})
    big = await call(session, "big", {"lines": 70000})
    report["big"] = big
    # Follow the path the preview gives: read the artifact it names.
    artifact = None
    for text in big.get("texts", []):
        marker = '"artifact": "'
        if marker in text:
            artifact = text.split(marker, 1)[1].split('"', 1)[0]
    report["big_artifact"] = artifact
    if artifact:
        report["read"] = await call(session, "read", {"artifact": artifact, "offset": 69990})
    # And the cursor it gives: the next page, at the proxy's budget.
    for text in big.get("texts", []):
        marker = "next: briefly page "
        if marker in text:
            cursor = text.split(marker, 1)[1].split()[0]
            report["page"] = await call(session, "page", {"cursor": cursor})
    # Four results that each fit the per-result budget but not, together, the turn's.
    parallel = []

    async def one():
        parallel.append(await call(session, "medium", {"lines": 500, "together": 4}))

    async with anyio.create_task_group() as group:
        for _ in range(4):
            group.start_soon(one)
    report["parallel"] = parallel
    # Notifications and requests both ways: a log message and progress from the server,
    # the server asking the client for its roots.
    progress = []

    async def on_progress(done, total, message):
        progress.append([done, total, message])

    report["chatty"] = await call(session, "chatty", {}, progress=on_progress)
    report["progress"] = progress
    report["logs"] = LOGS
    report["picture"] = await call(session, "picture", {})
    report["garbage"] = await call(session, "garbage", {})
    report["crash"] = await call(session, "crash", {})
    report["after_crash"] = await call(session, "small", {})
    # The proxy's own tools still read what was kept.
    if artifact:
        report["read_after_crash"] = await call(session, "read", {"artifact": artifact, "offset": 70000})


async def overlong(session, report):
    # Run with a small --max-message-bytes: the 2 MB answer is not held but kept.
    report["big"] = await call(session, "big", {"lines": 70000})
    report["small"] = await call(session, "small", {})


PYTEST_OUTPUT = """\
============================= test session starts ==============================
platform linux -- Python 3.12.3, pytest-8.3.2, pluggy-1.5.0
rootdir: /work/app
collected 3 items

tests/test_math.py .F.                                                   [100%]

=================================== FAILURES ===================================
_________________________________ test_divide __________________________________

    def test_divide():
>       assert divide(6, 3) == 3
E       assert 2.0 == 3
E        +  where 2.0 = divide(6, 3)

tests/test_math.py:9: AssertionError
=========================== short test summary info ============================
FAILED tests/test_math.py::test_divide - assert 2.0 == 3
========================= 1 failed, 2 passed in 0.03s ==========================
"""

JUNIT_REPORT = """\
<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="0" \
failures="1" skipped="0" tests="2" time="0.05"><testcase classname="tests.test_math" \
name="test_add" time="0.001"/><testcase classname="tests.test_math" name="test_divide" \
time="0.002"><failure message="assert 2.0 == 3">def test_divide():
&gt;       assert divide(6, 3) == 3
E       assert 2.0 == 3

tests/test_math.py:9: AssertionError</failure></testcase></testsuite></testsuites>
"""

CARGO_TEST_OUTPUT = """\
   Compiling calc v0.1.0 (/work/calc)
    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.52s
     Running unittests src/lib.rs (target/debug/deps/calc-3f2a1b4c5d6e7f80)

running 2 tests
test tests::adds ... ok
test tests::divides ... FAILED

failures:

---- tests::divides stdout ----
thread 'tests::divides' panicked at src/lib.rs:12:9:
assertion `left == right` failed
  left: 2
 right: 3
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace


failures:
    tests::divides

test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

error: test failed, to rerun pass `--lib`
"""

DOCKER_LOG = "".join(
    json.dumps({"log": log, "stream": stream, "time": time}) + "\n"
    for log, stream, time in [
        ("starting server\n", "stdout", "2026-11-29T10:00:00.000000001Z"),
        ("ERROR connection refused to db:5432\n", "stderr", "2026-11-29T10:00:01.000000001Z"),
        ("retrying\n", "stdout", "2026-11-29T10:00:02.000000001Z"),
    ]
)

JOURNAL_JSON = "".join(
    json.dumps(entry) + "\n"
    for entry in [
        {"__REALTIME_TIMESTAMP": "1764410400000000", "PRIORITY": "6", "_SYSTEMD_UNIT": "nginx.service", "MESSAGE": "started"},
        {"__REALTIME_TIMESTAMP": "1764410401000000", "PRIORITY": "3", "_SYSTEMD_UNIT": "nginx.service",
         "MESSAGE": "bind() to 0.0.0.0:80 failed (98: Address already in use)"},
        {"__REALTIME_TIMESTAMP": "1764410402000000", "PRIORITY": "6", "_SYSTEMD_UNIT": "cron.service", "MESSAGE": "job ran"},
    ]
)

RECORDS = "".join(
    json.dumps(record) + "\n"
    for record in [
        {"name": "build", "status": "ok", "ms": 120},
        {"name": "lint", "status": "failed", "ms": 45},
        {"name": "test", "status": "failed", "ms": 980},
    ]
)


async def reducers(session, report):
    report["json"] = await call(session, "json", {"text": RECORDS, "where": ["status=failed"], "fields": ["name"]})
    csv = os.path.join(os.environ["BRIEFLY_TEST_DIR"], "scores.csv")
    table = await call(session, "table", {"path": csv, "context_tokens": 2000})
    report["table"] = table
    cursor = (table.get("structured") or {}).get("next_cursor")
    if cursor:
        report["table_page"] = await call(session, "page", {"cursor": cursor, "context_tokens": 2000})
    report["table_text"] = await call(session, "table", {"text": "name,age\nann,31\nbob,45\n", "where": ["age > 40"]})
    report["pytest"] = await call(session, "pytest", {"text": PYTEST_OUTPUT})
    report["junit"] = await call(session, "pytest", {"text": JUNIT_REPORT, "junit": True})
    report["cargo_test"] = await call(session, "cargo_test", {"text": CARGO_TEST_OUTPUT})
    report["docker"] = await call(session, "docker", {"text": DOCKER_LOG, "stream": "stderr"})
    report["journal"] = await call(session, "journal", {"text": JOURNAL_JSON, "unit": "nginx.service"})
    report["bad_option"] = await call(session, "table", {"text": "a\n1\n", "input_format": "xlsx"})


LOGS = []


async def on_log(params):
    LOGS.append(params.data)


async def on_list_roots(context):
    return types.ListRootsResult(roots=[types.Root(uri="file:///work/project", name="project")])


async def main():
    scenario, command = sys.argv[1], sys.argv[2:]
    params = StdioServerParameters(command=command[0], args=command[1:], env=None)
    report = {}
    async with stdio_client(params) as (read, write):
        async with ClientSession(
            read, write, logging_callback=on_log, list_roots_callback=on_list_roots
        ) as session:
            init = await session.initialize()
            report["server"] = init.server_info.name
            tools = await session.list_tools()
            report["tools"] = {tool.name: tool.input_schema for tool in tools.tools}
            report["annotations"] = {
                tool.name: tool.annotations.model_dump(exclude_none=True, by_alias=True) if tool.annotations else None
                for tool in tools.tools
            }
            await {"briefly": briefly, "proxy": proxy, "overlong": overlong, "reducers": reducers}[scenario](session, report)
    json.dump(report, sys.stdout)


anyio.run(main)
