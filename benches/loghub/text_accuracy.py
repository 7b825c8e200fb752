#!/usr/bin/env python3
"""Grouping accuracy of `briefly text` itself on the loghub 2k sets.

Usage: text_accuracy.py LOGHUB_DIR BRIEFLY_BINARY

Runs `briefly text <Set>_2k.log --emit-groups FILE` with default settings (so the
reducer's multi-line records and filters are in the path, not only the miner) and scores
the per-line groups it writes against the EventId column, as drain3_accuracy.py does.
Prints JSON.
"""

import csv
import json
import os
import subprocess
import sys
import tempfile

from drain3_accuracy import SETS, grouping_accuracy


def main():
    root, binary = sys.argv[1], sys.argv[2]
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, BRIEFLY_ARTIFACT_DIR=os.path.join(tmp, "artifacts"))
        for name in SETS:
            base = f"{root}/{name}/{name}_2k.log"
            groups_path = os.path.join(tmp, f"{name}.groups")
            subprocess.run([binary, "text", base, "--emit-groups", groups_path],
                           check=True, stdout=subprocess.DEVNULL, env=env)
            with open(groups_path, encoding="utf-8") as f:
                groups = [json.loads(line)["group"] for line in f]
            with open(base + "_structured.csv", encoding="utf-8", errors="replace", newline="") as f:
                truth = [r["EventId"] for r in csv.DictReader(f)]
            n = min(len(groups), len(truth))
            results.append({"set": name, "accuracy": round(grouping_accuracy(groups[:n], truth[:n]), 4)})
    print(json.dumps({
        "sets": results,
        "average_accuracy": round(sum(r["accuracy"] for r in results) / len(results), 4),
    }))


if __name__ == "__main__":
    main()
