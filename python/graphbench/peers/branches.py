"""Python PyTorch at a model split at its own branches (workload torchscript_branches: export_model.py
--scope auto, docs/control-flow.md): the same piece files and tree of decisions as graphbench runs,
to put beside its eager, graph and conditional figures.

    python3 scripts/python_branches_baseline.py --suite models/suite.json [--graphbench results.json] -o FILE

Per case (its `threshold`, where given, replacing every decision's number, as graphbench does): eager
(the pieces called in turn, the host reading each decision's value) and make_graphed_callables (each
piece graphed, the host deciding between them), each checked against eager before it is timed.
Output: JSON and a Markdown table. Exit codes: 0 written, 1 no CUDA device, 2 bad input.
"""

import argparse
import os
import sys

from .. import suites
from ..branches import run_tree, with_threshold
from ..errors import BadInput
from ..results import read_results
from .timing import time_median_us

PROG = "python_branches_baseline.py"


def parse_args(argv):
    p = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    p.add_argument("--suite", required=True, help="a suite file with torchscript_branches cases")
    p.add_argument("--graphbench", help="graphbench's results.json of the same suite, for the table")
    p.add_argument("-o", "--output", required=True, help="the JSON file to write (whole or not at all)")
    p.add_argument("--samples", type=int, default=30)
    p.add_argument("--min-sample-ms", type=float, default=1.0)
    p.add_argument("--warmup", type=int, default=10)
    return p.parse_args(argv)


def case_figures(case, suite_dir, options):
    import torch

    inputs = [torch.randn(i["shape"], device="cuda") for i in case["inputs"]]
    modules = [torch.jit.load(os.path.join(suite_dir, p["path"]), map_location="cuda") for p in case["pieces"]]
    control = with_threshold(case["branches"], case.get("threshold"))
    eager_calls = [(m, p["inputs"]) for m, p in zip(modules, case["pieces"])]
    with torch.no_grad():
        expected, taken = run_tree(control, eager_calls, inputs)
    # Each piece graphed on the arguments it gets on the path the inputs take (every piece on it).
    graphed, on_path = list(eager_calls), []

    def recording(k):
        def call(*args):
            on_path.append((k, args))
            return modules[k](*args)
        return call

    with torch.no_grad():
        run_tree(control, [(recording(k), p["inputs"]) for k, p in enumerate(case["pieces"])], inputs)
    for k, args in on_path:
        for p in modules[k].parameters():
            p.requires_grad_(False)  # inference: make_graphed_callables then graphs the forward alone
        graphed[k] = (torch.cuda.make_graphed_callables(modules[k], tuple(a.detach() for a in args)),
                      case["pieces"][k]["inputs"])
    figures = {}
    for name, calls in (("eager", eager_calls), ("make_graphed_callables", graphed)):
        with torch.no_grad():
            got, path = run_tree(control, calls, inputs)
            if path != taken or any(not torch.allclose(a, b, rtol=1e-3, atol=1e-4) for a, b in zip(got, expected)):
                figures[name] = {"error": f"differs from eager (outcomes {path} against {taken})"}
                continue
            figures[name] = {**time_median_us(lambda: run_tree(control, calls, inputs), options), "outcomes": path}
            figures[name].pop("samples_us", None)
    return figures


def graphbench_medians(path):
    return {(r.case, r.variant): r.median_us for r in read_results(path).records if r.status == "ok"}


def main(argv):
    options = parse_args(argv)
    import torch

    if not torch.cuda.is_available():
        print(f"{PROG}: no CUDA device", file=sys.stderr)
        return 1
    cases = [c for c in suites.read_suite(options.suite)["cases"] if c.get("workload") == "torchscript_branches"]
    if not cases:
        raise BadInput(f"{options.suite}: /cases: no case of workload torchscript_branches")
    theirs = graphbench_medians(options.graphbench) if options.graphbench else {}
    suite_dir = os.path.dirname(os.path.abspath(options.suite))
    out = {"environment": {"torch": torch.__version__, "device": torch.cuda.get_device_name()},
           "cases": {c["name"]: case_figures(c, suite_dir, options) for c in cases}}
    print("| case | outcomes | Python eager (us) | make_graphed_callables (us) | graphbench eager | graph | conditional |")
    print("|---|---|--:|--:|--:|--:|--:|")
    for name, figures in out["cases"].items():
        ours = [theirs.get((name, v)) for v in ("eager", "graph", "conditional")]
        cells = [f"{figures[v]['median_us']:.1f}" if "median_us" in figures[v] else figures[v]["error"]
                 for v in ("eager", "make_graphed_callables")]
        outcomes = figures["eager"].get("outcomes", [])
        print(f"| {name} | {' '.join('T' if o else 'F' for o in outcomes)} | {cells[0]} | {cells[1]} | " +
              " | ".join(f"{x:.1f}" if x is not None else "-" for x in ours) + " |")
    suites.write_json(options.output, out)
    return 0
