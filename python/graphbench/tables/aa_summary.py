"""The summary of the campaign stage aa-default-summary (scripts/campaigns/gate.sh; issue 50): over
default runs of the ci suite, how often the runs' 95% speedup and median intervals overlap, what the
plain `graphbench compare` said on every ordered pair (exit 0 expected) and against the run with a
doubled graph step (exit 1 expected, naming rows), and each run's wall time.

    python3 scripts/aa_summary.py RUNS_DIR DEST [--copy-to DIR]

Reads RUNS_DIR/run-K/results.json, DEST/compare/exit-codes.txt (lines `NAME CODE`), DEST/compare/
NAME.txt and DEST/times.log; writes DEST/summary.md whole and prints it. Exit codes: 0 the gate
behaved, 1 otherwise (or no compares), 2 bad input (a file missing or not what was expected, named).
"""

import argparse
import glob
import itertools
import os

from ..errors import EXIT_FAILED, BadInput
from ..results import read_results
from ..suites import write_whole

PROG = "aa_summary.py"


def run_number(path):
    try:
        return int(path.rsplit("-", 1)[1])
    except ValueError:
        raise BadInput(f"{path}: expected a folder named run-K, K a number")


def read_reports(runs_dir):
    """{run-K: its results.json}, in the order of K."""
    runs = sorted((p for p in glob.glob(os.path.join(runs_dir, "run-*")) if os.path.isdir(p)), key=run_number)
    return {os.path.basename(run): read_results(os.path.join(run, "results.json")) for run in runs}


def read_codes(path):
    """{compare name: exit code} from lines `NAME CODE`."""
    codes = {}
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise BadInput(f"{path}: cannot read: {e.strerror or e}")
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 2 or not parts[1].lstrip("-").isdigit():
            raise BadInput(f"{path}:{number}: expected `NAME EXIT_CODE`, got {line!r}")
        codes[parts[0]] = int(parts[1])
    return codes


def intervals(report, field):
    """{(case, variant): (low, high)}: each ok record's 95% speedup interval ("speedup") or median
    interval ("median": the processes', else the median widened by its relative noise)."""
    out = {}
    for r in (r for r in report.records if r.ok):
        key = (r.case, r.variant)
        if field == "speedup" and r.variant != "eager" and r.get("speedup_ci95"):
            out[key] = tuple(r["speedup_ci95"])
        elif field == "median":
            ci = (r.get("repetitions") or {}).get("median_ci95")
            if ci:
                out[key] = tuple(ci)
            elif r.get("rel_noise") is not None:
                m = r.median_us
                out[key] = (m * (1 - r["rel_noise"]), m * (1 + r["rel_noise"]))
    return out


def overlaps(reports, field):
    """(overlapping, total, the pairs apart as text) over every pair of runs and every row both have."""
    total = overlap = 0
    misses = []
    for a, b in itertools.combinations(reports, 2):
        ia, ib = intervals(reports[a], field), intervals(reports[b], field)
        for key in sorted(set(ia) & set(ib)):
            total += 1
            if max(ia[key][0], ib[key][0]) <= min(ia[key][1], ib[key][1]):
                overlap += 1
            else:
                misses.append(f"{a}/{b} {key[0]}/{key[1]} {ia[key]} {ib[key]}")
    return overlap, total, misses


def summary(reports, codes, dest):
    """The summary's lines and whether the gate behaved (unchanged runs pass, slow fails)."""
    env = next(iter(reports.values())).environment if reports else {}
    lines = ["# Default runs of the ci suite: intervals and the plain gate", "",
             f"GPU {env.get('gpu_name')}, commit {env.get('git_commit')}, {len(reports)} runs "
             f"(`graphbench --workload ci --device cuda`), one with `--inject-slowdown graph=2` (slow).", ""]
    for field in ("speedup", "median"):
        overlap, total, misses = overlaps(reports, field)
        share = f"{100.0 * overlap / total:.1f}%" if total else "n/a"
        lines.append(f"- 95% {field} intervals overlapping over pairs of runs: {overlap} of {total} ({share})")
        lines += [f"  - apart: {m}" for m in misses]
    pairs = {k: v for k, v in codes.items() if not k.endswith("-vs-slow")}
    slow = {k: v for k, v in codes.items() if k.endswith("-vs-slow")}
    lines.append(f"- plain `graphbench compare run-i run-j` (every ordered pair): exit 0 in "
                 f"{sum(v == 0 for v in pairs.values())} of {len(pairs)}; others: "
                 f"{', '.join(f'{k} exit {v}' for k, v in sorted(pairs.items()) if v != 0) or 'none'}")
    lines.append(f"- `graphbench compare run-i slow`: exit 1 in {sum(v == 1 for v in slow.values())} of {len(slow)}; others: "
                 f"{', '.join(f'{k} exit {v}' for k, v in sorted(slow.items()) if v != 1) or 'none'}")
    for k in sorted(slow):
        path = os.path.join(dest, "compare", k + ".txt")
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            raise BadInput(f"{path}: cannot read the compare's output: {e.strerror or e}")
        named = [line for line in text.splitlines() if line.startswith("REGRESSION:")]
        lines.append(f"  - {k}: {len(named)} rows named" + (f" ({named[0]} ...)" if named else ""))
    times = os.path.join(dest, "times.log")
    if os.path.exists(times):
        with open(times, encoding="utf-8") as f:
            lines += ["", "Wall time of each run (this script's clock):", "", "```", f.read().rstrip(), "```"]
    ok = bool(pairs) and all(v == 0 for v in pairs.values()) and bool(slow) and all(v == 1 for v in slow.values())
    return lines, ok


def parse_args(argv):
    p = argparse.ArgumentParser(prog=PROG, description="the aa-default-summary stage's summary: intervals' overlap over "
                                "pairs of default runs, and the plain gate's exit codes.")
    p.add_argument("runs_dir", help="the folder of run-K/results.json")
    p.add_argument("dest", help="the folder of compare/exit-codes.txt; summary.md is written there")
    p.add_argument("--copy-to", help="a folder where summary.md is written too")
    return p.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    reports = read_reports(args.runs_dir)
    codes = read_codes(os.path.join(args.dest, "compare", "exit-codes.txt"))
    lines, ok = summary(reports, codes, args.dest)
    text = "\n".join(lines) + "\n"
    write_whole(os.path.join(args.dest, "summary.md"), text)
    if args.copy_to:
        write_whole(os.path.join(args.copy_to, "summary.md"), text)
    print("\n".join(lines))
    return 0 if ok else EXIT_FAILED
