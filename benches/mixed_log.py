#!/usr/bin/env python3
"""Writes to stdout the README's `briefly text` example input, mixed.log: 30,000 lines of
the Zookeeper, HDFS, Spark and OpenStack loghub samples, cycled as tests/text.rs's
`noise()` cycles them, with one ERROR line planted at line 15,001.

Uses the loghub samples in ../shared/data/loghub (https://github.com/logpai/loghub; Zhu et
al., "Loghub: A Large Collection of System Log Datasets for AI-driven Log Analytics",
ISSRE 2023; see the LICENSE there).

    python3 benches/mixed_log.py > mixed.log
"""
import os
import sys

SETS = ["Zookeeper", "HDFS", "Spark", "OpenStack"]
DECISIVE = ("2026-11-29 03:14:15,926 - ERROR [main:Payments@42] - ledger write rejected: "
            "checksum 0xdeadbeef mismatch")
LOGHUB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../shared/data/loghub")


def rust_lines(text):
    """The lines as Rust's `str::lines` gives them: split at `\\n`, a `\\r` before it dropped."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def main():
    logs = {}
    for name in SETS:
        with open(os.path.join(LOGHUB, name, f"{name}_2k.log"), encoding="utf-8") as f:
            logs[name] = rust_lines(f.read())
    lines = []
    # 500 lines of each set in turn, four rounds: 8,000 lines; then those again.
    for round_ in range(4):
        for name in SETS:
            lines += logs[name][round_ * 500:(round_ + 1) * 500]
    while len(lines) < 30_000:
        lines.append(lines[len(lines) % 8_000])
    lines.insert(15_000, DECISIVE)
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
