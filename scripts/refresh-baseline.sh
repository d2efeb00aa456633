#!/usr/bin/env bash
# Writes Benchmarks/baseline.jsonl from five quick runs, each in a fresh process, the second and fourth with one core
# busy (the load the gate must tolerate), and fifteen more of the diff and physics cells alone (every second one with
# a core busy): every gated cell keeps all its rounds (pooled), each run's median (repeat_medians, loaded_medians) and
# its drift, the largest over the smallest of those medians (for the reader: the gate's rule is a minimum effect per
# cell, Benchmarks/cardistry-bench/Baseline.swift).
# Then checks the gate's power against it.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product cardistry && swift build -c release --product cardistry-bench
file=$(mktemp)
.build/release/cardistry-bench --quick --repeat 5 > "$file"
mv "$file" Benchmarks/baseline.jsonl
echo "Benchmarks/baseline.jsonl: $(wc -l < Benchmarks/baseline.jsonl) cells"
python3 - <<'PY'
import json
for line in open("Benchmarks/baseline.jsonl"):
    row = json.loads(line)
    if row.get("meets_goal") == 0:
        print("does not meet its goal:", "/".join(str(row[k]) for k in ("suite", "workload", "n", "key", "impl")))
PY
python3 scripts/bench-gate-power.py .build/release/cardistry-bench Benchmarks/baseline.jsonl
