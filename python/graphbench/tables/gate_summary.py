"""The summary of the campaign stage gate-default (scripts/campaigns/gate.sh; issue 61): what the
plain `graphbench compare` said on every ordered pair of unchanged runs (exit 0 expected) and on
every regress run against each (exit 1 expected, naming the case), and per row its kind, its
run-to-run spread, its floor and the smallest slowdown the plain gate catches in it.

    python3 scripts/gate_summary.py DEST

Reads DEST/run-K/results.json and DEST/compare/ (exit-codes.txt, NAME.json, NAME.txt); writes
DEST/summary.md whole and prints it. Exit codes: 0 the gate behaved, 1 otherwise, 2 bad input.
"""

import argparse
import math
import os

from ..errors import EXIT_FAILED, BadInput
from ..results import read_json
from ..suites import write_whole
from .aa_summary import read_codes, read_reports

PROG = "gate_summary.py"


def run_value(record):
    """A run's step time: the geometric mean of its processes' medians (the gate's), else its median."""
    runs = [r.get("median_us") for r in (record.get("repetitions") or {}).get("runs", []) if r.get("median_us")]
    if runs:
        return math.exp(sum(math.log(v) for v in runs) / len(runs))
    return record.get("median_us")


def spreads(reports):
    """{(case, variant): (step-time spread, device-time spread)} over the runs: max / min - 1."""
    values = {}
    for report in reports.values():
        for r in (r for r in report.records if r.ok):
            device = (r.get("profile") or {}).get("busy_us_per_step")
            values.setdefault((r.case, r.variant), []).append((run_value(r), device))

    def spread(figures):
        figures = [v for v in figures if v]
        return max(figures) / min(figures) - 1 if figures else None

    return {key: (spread(s for s, _ in pairs), spread(d for _, d in pairs)) for key, pairs in values.items()}


def percent(x):
    return "-" if x is None else f"{100 * x:.1f}%"


def summarize(dest):
    reports = read_reports(dest)
    if len(reports) < 2:
        raise BadInput(f"{dest}: expected at least two folders run-K with a results.json")
    codes = read_codes(os.path.join(dest, "compare", "exit-codes.txt"))
    unchanged = {n: c for n, c in codes.items() if "regress" not in n}
    regress = {n: c for n, c in codes.items() if "regress" in n}
    kinds, caught = {}, {}
    for name in unchanged:
        compare = read_json(os.path.join(dest, "compare", name + ".json"), "compare --json file")
        for row in (r for r in compare.get("rows", [])
                    if r.get("measure") == "step time" and r.get("floor") is not None):
            key = (row["case"], row["variant"])
            kinds.setdefault(key, set()).add(row.get("row_kind") or "")
            caught[key] = max(caught.get(key, 0.0), row["floor"], row.get("detectable_slowdown") or 0.0)
    named = {}
    for name in regress:
        with open(os.path.join(dest, "compare", name + ".txt"), encoding="utf-8") as f:
            named[name] = [line.strip() for line in f if line.startswith("REGRESSION:")]
    lines = [f"# The plain gate on default runs: {dest}", ""]
    ok = sum(1 for c in unchanged.values() if c == 0)
    hit = sum(1 for n, c in regress.items() if c == 1 and named[n])
    lines.append(f"- plain `graphbench compare run-i run-j`, every ordered pair of unchanged runs: exit 0 in {ok} of {len(unchanged)}")
    lines.append(f"- plain `graphbench compare run-i regress-P`: exit 1 naming rows in {hit} of {len(regress)}")
    for name in sorted(regress):
        first = named[name][0] if named[name] else "no REGRESSION line"
        lines.append(f"  - {name}: exit {regress[name]}, {len(named[name])} rows named ({first} ...)")
    lines += ["", "Per row, over the unchanged runs: the kind the gate read, the largest move of the run's step",
              "time (geometric mean of its processes) and of its device time between two runs, the floor, and",
              "the smallest slowdown the plain gate catches in every pair (the floor, or what the",
              "processes' spread can resolve at 95% power, whichever is larger):", "",
              "| case | variant | kind | step-time spread | device-time spread | smallest slowdown caught |",
              "|---|---|---|--:|--:|--:|"]
    for key, (step, device) in spreads(reports).items():
        kind = "/".join(sorted(kinds.get(key, {"-"})))
        lines.append(f"| {key[0]} | {key[1]} | {kind} | {percent(step)} | {percent(device)} | {percent(caught.get(key))} |")
    text = "\n".join(lines) + "\n"
    write_whole(os.path.join(dest, "summary.md"), text)
    print(text, end="")
    return 0 if ok == len(unchanged) and hit == len(regress) and unchanged and regress else EXIT_FAILED


def main(argv):
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("dest", help="the folder of the runs and their compares (results/<GPU>/gate-default)")
    args = parser.parse_args(argv)
    return summarize(args.dest)
