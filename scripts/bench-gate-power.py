#!/usr/bin/env python3
"""The benchmark gate's power and false-alarm rate, measured on the built gate (issue 30).

    scripts/bench-gate-power.py BENCH BASELINE [--unchanged-runs N] [--skip-slowdowns]

1. CARDISTRY_BENCH_SLOWDOWN=2: every gated timing cell of the baseline must be reported as a regression (the
   gate's re-measurements included) and the gate must exit 1. The memory cells (impl rss-…) read another
   process's resident memory, which a slowdown does not change: their rule's power is in the unit tests
   (Tests/BenchmarkTests), and here they must simply raise no alarm.
2. CARDISTRY_BENCH_SLOWDOWN=1.3 on the diff and physics cells, a gate run of those cells only (`--only`): every one
   must be reported.
3. N runs (default 5) of the unchanged build with another process busy on one core: none may report a regression.

Exits 1 if any of these fails, printing what was missed or raised. Needs only the standard library.
"""

import json
import os
import re
import signal
import subprocess
import sys
import time


def gated_cells(baseline):
    cells = set()
    with open(baseline, encoding="utf-8") as handle:
        for line in handle:
            if not line.strip():
                continue
            row = json.loads(line)
            if row.get("ratio_samples") and row.get("gated", True):
                cells.add("/".join(str(row[k]) for k in ("suite", "workload", "n", "key", "impl")))
    return cells


def run_gate(bench, baseline, slowdown=None, only=None):
    """Runs the quick gate (on the cells `only`, all without it); returns (exit status, the cells it reported with
    the gate's line on each, seconds)."""
    environment = dict(os.environ)
    environment.pop("CARDISTRY_BENCH_SLOWDOWN", None)
    if slowdown:
        environment["CARDISTRY_BENCH_SLOWDOWN"] = slowdown
    start = time.monotonic()
    selection = ["--only", ",".join(sorted(only))] if only else []
    result = subprocess.run(
        [bench, "--quick", "--baseline", baseline] + selection, env=environment, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True, check=False)
    seconds = time.monotonic() - start
    reported = {}
    if "REGRESSIONS:\n" in result.stderr:
        for line in result.stderr.split("REGRESSIONS:\n", 1)[1].splitlines():
            if ": " in line and not line.startswith("…"):
                reported[line.split(": ", 1)[0]] = line
    # What the gate said of the cells it did not report (a missed slowdown's diagnosis): its suspect line, if any.
    run_gate.suspects = {}
    for line in result.stderr.splitlines():
        if line.startswith("suspect: "):
            run_gate.suspects[line[len("suspect: "):].split(": ", 1)[0]] = line
    # Every judged cell's shift over its baseline, as a fraction of its minimum effect: how close the run came.
    run_gate.judged = {}
    for line in result.stderr.splitlines():
        match = re.match(r"judged: (\S+): ratio_to_floor \S+ is ([0-9.]+)× .*minimum effect ([0-9.]+)×", line)
        if match:
            run_gate.judged[match.group(1)] = (float(match.group(2)), float(match.group(3)))
    if result.returncode not in (0, 1):
        sys.stderr.write(result.stderr[-3000:])
        raise SystemExit(f"the gate failed to run (exit {result.returncode})")
    return result.returncode, reported, seconds


def closest(cells, highest):
    """The judged cell among `cells` nearest its minimum effect (highest shift or lowest), as text."""
    judged = {cell: value for cell, value in run_gate.judged.items() if cell in cells}
    if not judged:
        return "no cell judged"
    pick = max if highest else min
    cell = pick(judged, key=lambda name: judged[name][0] / judged[name][1])
    shift, effect = judged[cell]
    return f"{'highest' if highest else 'lowest'} {cell} {shift:.2f}x (minimum effect {effect:.2f}x)"


def describe_missed(missed):
    """The gate's suspect line on each missed cell, or that it was not a suspect in the first run."""
    return "".join("\n  " + run_gate.suspects.get(cell, f"{cell}: not a suspect in the first run") for cell in missed)


def main():
    arguments = sys.argv[1:]
    if len(arguments) < 2:
        raise SystemExit(__doc__)
    bench, baseline = arguments[0], arguments[1]
    unchanged_runs = 5
    if "--unchanged-runs" in arguments:
        unchanged_runs = int(arguments[arguments.index("--unchanged-runs") + 1])
    cells = gated_cells(baseline)
    if not cells:
        raise SystemExit(f"{baseline}: no gated cells")
    failures = []

    if "--skip-slowdowns" not in arguments:
        status, reported, seconds = run_gate(bench, baseline, "2")
        timing = {cell for cell in cells if "/rss" not in cell}
        missed = sorted(timing - reported.keys())
        print(f"2x slowdown in every timing cell: exit {status}, {len(reported.keys() & timing)} of {len(timing)} gated timing cells "
              f"reported ({seconds:.0f} s)")
        if status != 1 or missed:
            failures.append(f"2x slowdown: exit {status}; missed {missed}" + describe_missed(missed))

        targets = {cell for cell in cells if cell.startswith(("diff/", "physics/"))}
        # Only those cells run (the gate's first run and its re-measurements alike): the others' false alarms are
        # what part 3 measures, under load, and a whole run here took a minute of CI for nothing more.
        status, reported, seconds = run_gate(bench, baseline, "1.3:diff/,1.3:physics/", only=targets)
        missed = sorted(targets - reported.keys())
        extra = sorted(reported.keys() - targets)
        print(f"1.3x slowdown in the diff and physics cells (only they run): exit {status}, "
              f"{len(reported.keys() & targets)} of {len(targets)} reported ({seconds:.0f} s; "
              f"{closest(targets, False)})")
        if status != 1 or missed or extra:
            failures.append(f"1.3x slowdown: exit {status}; missed {missed}; raised on unslowed cells {extra}"
                            + describe_missed(missed))

    # One core busy for the whole time: a process spinning on CPU 0. It spins only while this script lives (it
    # watches its parent), and a terminating signal here ends it too: a spinner left behind by an interrupted check
    # once kept a core busy under every later measurement on the machine.
    spin = "import os\nparent = os.getppid()\nwhile os.getppid() == parent: pass"
    busy = subprocess.Popen(["taskset", "-c", "0", sys.executable, "-c", spin], stdout=subprocess.DEVNULL)

    def stop(signum, frame):
        raise SystemExit(128 + signum)

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, stop)
    try:
        for run in range(1, unchanged_runs + 1):
            status, reported, seconds = run_gate(bench, baseline)
            print(f"unchanged build, one core busy, run {run} of {unchanged_runs}: exit {status}, "
                  f"{len(reported)} reported ({seconds:.0f} s; {closest(set(run_gate.judged), True)})")
            if status != 0 or reported:
                # The gate's own lines: the shift, the minimum effect and the p-value, to tell noise from a cause.
                failures.append(f"false alarm in unchanged run {run}:\n  " + "\n  ".join(
                    reported[cell] for cell in sorted(reported)))
    finally:
        busy.kill()
        busy.wait()

    if failures:
        print("GATE POWER CHECK FAILED:\n" + "\n".join(failures))
        raise SystemExit(1)
    print("gate power check passed")


if __name__ == "__main__":
    main()
