#!/usr/bin/env bash
# `briefly context measure` and `compact` on a generated 10 MB, 600-turn history, beside
# `jq length` parsing the same file, in the same run (medians of RUNS).
#
#   benches/context.sh [RUNS=5]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
runs=${1:-5}
history="$work/history-10mb.json"
if [ ! -s "$history" ]; then
  python3 - "$history" <<'PY'
import json, sys
messages = [{"role": "system", "content": "You are a careful engineer."},
            {"role": "user", "content": "Find why the nightly build fails."}]
t = 0
while len(json.dumps(messages)) < 10 * 1024 * 1024:
    if t:
        messages.append({"role": "user", "content": f"Go on with step {t}."})
    call = f"call_{t}"
    messages.append({"role": "assistant", "content": None, "tool_calls": [
        {"id": call, "type": "function", "function": {"name": "run", "arguments": json.dumps({"step": t})}}]})
    body = "".join(f"turn {t} line {i}: compiler output, warnings and a test log\n" for i in range(250))
    messages.append({"role": "tool", "tool_call_id": call, "content": body})
    messages.append({"role": "assistant", "content": f"Step {t} done."})
    t += 1
json.dump(messages, open(sys.argv[1], "w"))
PY
fi
cargo build --release -q --manifest-path "$root/Cargo.toml"
briefly="$root/target/release/briefly"
echo "measure:"
side_by_side "$runs" "$history" \
  "jq length FILE" "jq length \"$history\"" \
  "briefly context measure FILE" "\"$briefly\" context measure --context-tokens 200000 \"$history\""
echo "compact:"
side_by_side "$runs" "$history" \
  "jq length FILE" "jq length \"$history\"" \
  "briefly context compact FILE" "\"$briefly\" context compact --context-tokens 200000 --report /dev/null \"$history\""
