"""Checks a GPU run of the blog suite against the targets of its replay-only comparison: one PASS or
FAIL line per target (below, in main), with the figures it compared; with --python
(scripts/python_replay_baseline.py's output) also gelu-small's replay against Python's.

    python3 scripts/blog_targets.py BLOG_RESULTS_JSON [--python PYTHON_BASELINE_JSON]

Exit codes: 0 every target met, 1 a target missed, 2 bad input.
"""

import argparse

from ..results import read_json, read_results


def fmt3(value):
    """A figure to three significant digits, "-" when absent."""
    return "-" if value is None else f"{value:.3g}"


def main(argv):
    parser = argparse.ArgumentParser(prog="blog_targets.py")
    parser.add_argument("results")
    parser.add_argument("--python", default="")
    args = parser.parse_args(argv)
    records = {(r.case, r.variant): r for r in read_results(args.results).records}
    missed = []

    def check(ok, text):
        print(("PASS  " if ok else "FAIL  ") + text)
        if not ok:
            missed.append(text)

    def ok_record(case, variant):
        r = records.get((case, variant))
        if r is None or r.get("status") != "ok":
            reason = "absent" if r is None else f"{r.get('status')}: {r.get('reason')}"
            check(False, f"{case}/{variant} is needed and is {reason}")
            return None
        return r

    jit = ok_record("gelu-large", "jit")
    jit_graph = ok_record("gelu-large", "jit+graph:replay")
    if jit and jit_graph:
        a, b = jit_graph["speedup_vs_eager"], jit["speedup_vs_eager"]
        check(a > b, f"gelu-large: jit+graph:replay {a:.2f}x over eager above jit {b:.2f}x (blog: 3.53x above 3.11x)")

    small = ok_record("gelu-small", "jit+graph:replay")
    if small:
        check(small["median_us"] < 3.0, f"gelu-small: jit+graph:replay {small['median_us']:.3g} us per step, under 3 us")
        b2b = small.get("back_to_back_us")
        print(f"      host time {small.get('issue_median_us') or float('nan'):.3g} us per step; queued back to back, "
              f"the device runs one in {'(absent)' if b2b is None else f'{b2b:.3g} us'}")

    engine = ok_record("replay-overhead", "graph:replay")
    bare = ok_record("replay-overhead", "reference+graph:replay")
    if engine and bare:
        e, b = engine.get("issue_median_us"), bare.get("issue_median_us")
        if e is None or b is None:
            check(False, "replay-overhead: issue_median_us missing")
        else:
            check(e - b <= 1.0, f"replay-overhead: engine replay {e:.3g} us of host time, bare replay {b:.3g} us: "
                                f"{e - b:+.3g} us (at most +1 us)")
            print(f"      device time per step: engine {engine['median_us']:.3g} us, bare {bare['median_us']:.3g} us")

    incomplete = []
    for (case, variant), r in sorted(records.items()):
        if r.get("kind") != "benchmark" or r.get("status") != "ok" or r.get("device") != "cuda":
            continue
        p = r.get("profile") or {}
        if not (p.get("kernels_per_step") and p.get("busy_us_per_step") and r.get("issue_median_us")
                and r.get("memory") and isinstance(r.get("host_bound"), bool)
                and (r.get("l2") != "hot" or r.get("back_to_back_us"))):
            incomplete.append(f"{case}/{variant}")
    check(not incomplete, "every ok GPU record has kernels per step, busy time, host time, memory and "
          "(hot L2) its back-to-back time"
          + (f" (missing in: {', '.join(incomplete)})" if incomplete else ""))

    if args.python:
        py = read_json(args.python, "Python replay results")
        py_records = {(r.get("case"), r.get("variant")): r for r in py.get("records", [])}
        ours = ok_record("gelu-small", "graph:replay")
        theirs = py_records.get(("gelu-small", "graph:replay"))
        if ours and theirs:
            ratio = ours["median_us"] / theirs["median_us"]
            check(ratio <= 1.05, f"gelu-small graph:replay {ours['median_us']:.3g} us, Python {theirs['median_us']:.3g} us "
                                 f"({ratio:.3f}x, at most 1.05x)")
            a, b = ours.get("back_to_back_us"), theirs.get("back_to_back_us")
            if a and b:
                print(f"      queued back to back: graphbench {a:.3g} us, Python {b:.3g} us ({a / b:.3f}x)")
        print("\n(case, variant): graphbench us / Python us (host us / Python host us) [back to back us / Python's]")
        for key in sorted(k for k in set(records) & set(py_records) if records[k].get("status") == "ok"):
            r, q = records[key], py_records[key]
            host = r.get("issue_median_us")
            print(f"  {key[0]}/{key[1]}: {r['median_us']:.3g} / {q['median_us']:.3g}"
                  f" ({fmt3(host)} / {q['issue_median_us']:.3g})"
                  f" [{fmt3(r.get('back_to_back_us'))} / {fmt3(q.get('back_to_back_us'))}]")
    print(f"\n{len(missed)} target(s) missed")
    return 1 if missed else 0
