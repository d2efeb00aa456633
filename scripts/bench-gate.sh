#!/usr/bin/env bash
# The benchmark gate: the base commit recorded in Benchmarks/gate-base against this checkout, both built in release
# mode and run in interleaved processes on this machine (the rule: Benchmarks/cardistry-bench/Gate.swift, README).
#
#   scripts/bench-gate.sh [--no-change-build] [gate options: --power, --processes N, --filter TEXT…]
#
# The base is built once from `git archive` of its commit into .build/gate-base/COMMIT (kept: a second run reuses
# it). The change is built here unless --no-change-build says it already is (CI's release build, whose
# -warnings-as-errors would otherwise be undone by a rebuild). CARDISTRY_BENCH_SLOWDOWN slows the change only;
# --power adds a slowed copy of the change to every round and checks that it fails in every gated timing cell.
# Exits 0 when the gate passes, 1 on a regression (or a failed power check), 2 when it cannot run.
set -euo pipefail
cd "$(dirname "$0")/.."

build_change=1
if [ "${1:-}" = "--no-change-build" ]; then
    build_change=0
    shift
fi

base=$(grep -v '^#' Benchmarks/gate-base | tr -d '[:space:]')
commit=$(git rev-parse --verify --quiet "$base^{commit}") || {
    echo "bench-gate: the base commit $base (Benchmarks/gate-base) is not in this clone (a shallow clone?)" >&2
    exit 2
}
dir=.build/gate-base/$commit
if [ -x "$dir/.build/release/cardistry-bench" ] && [ -x "$dir/.build/release/cardistry" ] && [ -f "$dir/.built" ]
then
    echo "bench-gate: base $commit already built in $dir"
else
    echo "bench-gate: building base $commit in $dir"
    rm -rf "$dir"
    mkdir -p "$dir"
    git archive "$commit" | tar -x -C "$dir"
    swift build -c release --package-path "$dir" --product cardistry-bench
    swift build -c release --package-path "$dir" --product cardistry
    touch "$dir/.built"
fi

if [ "$build_change" = 1 ]; then
    swift build -c release --product cardistry-bench
    swift build -c release --product cardistry
fi

exec .build/release/cardistry-bench gate --base "$dir/.build/release/cardistry-bench" "$@"
