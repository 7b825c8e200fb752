"""Drives an MCP server over stdio with raw JSON-RPC (standard library only, so the
driver's own cost stays out of the figures).

  mcp_driver.py startup RUNS -- CMD...        median ms from spawn to the initialize answer
  mcp_driver.py calls N CALLS_JSON -- CMD...  VmRSS (kB) of CMD's process after call 1, N/10,
                                              N/4, N/2, 3N/4 and N; CALLS_JSON is a list of
                                              [tool, arguments] used in turn
"""

import json
import statistics
import subprocess
import sys
import time

INIT = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}},
}


def start(command):
    return subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)


def send(proc, message):
    proc.stdin.write((json.dumps(message) + "\n").encode())


def answer(proc, want_id):
    while True:
        line = proc.stdout.readline()
        if not line:
            raise SystemExit(f"server closed its output waiting for {want_id}")
        message = json.loads(line)
        if message.get("id") == want_id and "method" not in message:
            if "error" in message:
                raise SystemExit(f"error: {message['error']}")
            return message


def initialize(proc):
    send(proc, INIT)
    answer(proc, 0)
    send(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})


def stop(proc):
    proc.stdin.close()
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main():
    mode, arg = sys.argv[1], int(sys.argv[2])
    split = sys.argv.index("--")
    command = sys.argv[split + 1 :]
    if mode == "startup":
        times = []
        for _ in range(arg):
            began = time.perf_counter()
            proc = start(command)
            initialize(proc)
            times.append((time.perf_counter() - began) * 1000)
            stop(proc)
        print(f"{statistics.median(times):.1f}")
        return
    calls = json.loads(sys.argv[3])
    proc = start(command)
    initialize(proc)
    marks = {1, arg // 10, arg // 4, arg // 2, 3 * arg // 4, arg}
    samples = []
    began = time.perf_counter()
    for n in range(1, arg + 1):
        tool, arguments = calls[n % len(calls)]
        send(proc, {"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {"name": tool, "arguments": arguments}})
        answer(proc, n)
        if n in marks:
            samples.append(rss_kb(proc.pid))
    elapsed = time.perf_counter() - began
    stop(proc)
    print(" ".join(map(str, samples)), f"{elapsed / arg * 1000:.2f}")


main()
