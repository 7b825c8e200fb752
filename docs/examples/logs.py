#!/usr/bin/env python3
"""The inputs of README's `briefly journal` and `briefly docker` examples, made again.

    python3 docs/examples/logs.py DIR

writes DIR/app.export (journald's export format: 20,000 entries of nginx and postgres,
one `err` in the middle, a warning every 2,500 entries), DIR/app.journal (the same as a
journal file, made by systemd-journal-remote when it is installed) and DIR/api-json.log
(2,000 records of the docker json-file driver: JSON payloads on stdout, logfmt warnings
and a three-line Python traceback on stderr). README's figures are briefly's output on
them: `briefly --format text journal --file DIR/app.journal` and
`briefly --format text docker DIR/api-json.log`.
"""

import datetime
import json
import os
import subprocess
import sys

# 2026-11-29T10:00:00Z, in seconds since the epoch.
T0 = 1_795_946_400
JOURNAL_REMOTE = "/lib/systemd/systemd-journal-remote"


def stamp(micros):
    """An RFC 3339 time in UTC, to the nanosecond as docker writes them."""
    seconds, fraction = divmod(micros, 1_000_000)
    day = datetime.datetime.fromtimestamp(seconds, tz=datetime.timezone.utc)
    return f"{day:%Y-%m-%dT%H:%M:%S}.{fraction:06d}000Z"


def journal_entries():
    """(line, unit, pid, priority, message) of each entry, one every 250 ms."""
    for n in range(20_000):
        line = n + 1
        client = f"10.0.{n % 256}.{n % 200}"
        if line % 2_500 == 18:
            unit, pid, priority = "nginx.service", 902, 4
            message = (
                "upstream timed out (110: Connection timed out) while reading "
                f"response header from upstream, client: {client}"
            )
        elif n % 3 == 0:
            unit, pid = "postgresql.service", 811
            if line == 12_001:
                priority = 3
                message = 'could not write to file "pg_wal/xlogtemp.1234": No space left on device'
            else:
                priority = 6
                buffers = n % 41
                message = (
                    f"checkpoint complete: wrote {buffers} buffers ({buffers / 10:.1f}%); "
                    f"{n % 3} WAL file(s) added"
                )
        else:
            unit, pid, priority = "nginx.service", 902, 6
            message = f'{client} - - "GET /api/items/{n % 1000} HTTP/1.1" 200 {n % 2000}'
        yield n, unit, pid, priority, message


def write_export(path):
    with open(path, "wb") as out:
        for n, unit, pid, priority, message in journal_entries():
            out.write(
                (
                    f"__REALTIME_TIMESTAMP={T0 * 1_000_000 + n * 250_000}\n"
                    f"__MONOTONIC_TIMESTAMP={1_000 + n}\n"
                    "_BOOT_ID=0123456789abcdef0123456789abcdef\n"
                    f"_SYSTEMD_UNIT={unit}\n"
                    f"SYSLOG_IDENTIFIER={unit.removesuffix('.service')}\n"
                    f"PRIORITY={priority}\n_PID={pid}\nMESSAGE={message}\n\n"
                ).encode()
            )


def write_docker(path):
    with open(path, "w") as out:
        for r in range(2_000):
            time = stamp(T0 * 1_000_000 + r * 1_000_000 + (r % 1_000) * 1_000)

            def line(text, stream):
                out.write(json.dumps({"log": text + "\n", "stream": stream, "time": time}))
                out.write("\n")

            if r == 1_200:
                line("Traceback (most recent call last):", "stderr")
                line('  File "/app/db.py", line 88, in connect', "stderr")
                line("ConnectionRefusedError: [Errno 111] Connection refused", "stderr")
            elif r % 250 == 7:
                line('level=warn msg="slow query" ms=907', "stderr")
            else:
                payload = {"level": "info", "msg": f"GET /items/{r % 100} 200 ms={r % 999}"}
                line(json.dumps(payload), "stdout")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    export = os.path.join(out, "app.export")
    write_export(export)
    journal = os.path.join(out, "app.journal")
    if os.path.exists(JOURNAL_REMOTE):
        if os.path.exists(journal):
            os.remove(journal)
        with open(export, "rb") as entries:
            subprocess.run([JOURNAL_REMOTE, f"--output={journal}", "-"], stdin=entries, check=True)
    else:
        print(f"{JOURNAL_REMOTE} is missing: no {journal}", file=sys.stderr)
    write_docker(os.path.join(out, "api-json.log"))


if __name__ == "__main__":
    main()
