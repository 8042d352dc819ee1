"""`export_model.py --scope auto` on a model whose own forward branches on a value it computed: its
pieces between the branches as TorchScript files and a suite case of workload torchscript_branches
(branches.py splits; docs/control-flow.md). Every path's pieces are checked against that path's
trace, and the pieces with the host deciding against the model itself, before the case is written.
"""

import os
import sys
from pathlib import Path

from . import branches, suites
from .models import zoo as model_zoo
from .output_match import check_outputs

PROG = "export_model.py"


def piece_file(whole_file, k):
    """<stem>.branches.piece<k>.pt beside the whole model's <stem>.pt."""
    return Path(f"{str(whole_file).removesuffix('.pt')}.branches.piece{k}.pt")


def export_branches(case, whole_file, device, rtol, atol, suite_dir, command):
    """The suite's cases of the model split at its own forward's branches (on its example inputs, and
    with every branch forced each way), or None where it has none. Raises BadScope or RuntimeError."""
    import torch

    model = model_zoo.build_model(case, device).eval()
    inputs = model_zoo.make_inputs(case, device)
    with torch.no_grad():
        split = branches.split(model, inputs, case.model)
        if split is None:
            return None
        lines = branches.describe(split.nodes)
        print(f"{PROG}: torch.compile breaks the graph at the model's own branches; split there into "
              f"{len(split.pieces)} pieces and {len(split.paths)} paths:\n  " + "\n  ".join(lines), file=sys.stderr)
        traced, files = _trace_pieces(case, split, inputs, whole_file)
        calls = [(traced[k], p.inputs) for k, p in enumerate(split.pieces)]
        for path in split.paths:
            got, _ = branches.run_tree(split.nodes, calls, inputs, force=list(path.outcomes))
            check_outputs(got, model_zoo.flat_tensors(path.gm(*inputs)), rtol, atol,
                          f"the pieces along path {_outcomes(path.outcomes)} differ from that path's trace")
        got, taken = branches.run_tree(split.nodes, calls, inputs)
        check_outputs(got, model_zoo.flat_tensors(model(*inputs)), rtol, atol,
                      "the pieces, the host deciding, differ from the model")
    print(f"{PROG}: every path's pieces equal its trace; on the example inputs the host takes "
          f"{_outcomes(taken)} and the pieces equal the model", file=sys.stderr)
    entry = {"name": f"{case.stem()}-pt-branches", "workload": "torchscript_branches",
             "description": f"made by: {command}", "inputs": case.inputs(),
             "pieces": [{"path": os.path.relpath(files[k], suite_dir), "inputs": p.inputs, "outputs": p.outputs,
                         **p.tag} for k, p in enumerate(split.pieces)],
             "branches": split.nodes, "variants": VARIANTS}
    if case.dtype != "float32":
        entry["dtype"] = case.dtype
    return [entry] + _forced(entry, split.nodes)


VARIANTS = ["eager", "graph", "conditional", "conditional:replay"]


def _forced(entry, nodes):
    """Beside the case, one case per way every branch can be forced by a `threshold` (each decision's
    `than`): "-then" and "-else"; none where the branches compare both ways."""
    compares = {n["compare"] for n in nodes if "value" in n}
    up = compares <= {">", ">="}
    if not up and not compares <= {"<", "<="}:
        return []
    return [{**entry, "name": f"{entry['name']}-{way}", "threshold": limit if up else -limit,
             "description": f"{entry['description']}; every branch forced to {way} (threshold {limit if up else -limit:g})"}
            for way, limit in (("then", -1e30), ("else", 1e30))]


def _trace_pieces(case, split, inputs, whole_file):
    """Each piece traced as TorchScript on the arguments it gets on the first path through it."""
    import torch

    traced, files = {}, {}

    def tracing(k, piece):
        def call(*args):
            if k not in traced:
                files[k] = piece_file(whole_file, k)
                traced[k] = torch.jit.trace(piece.module, tuple(args), check_trace=False, strict=False)
                torch.jit.save(traced[k], str(files[k]))
                suites.write_manifest(files[k], {**case.to_json(), "scope": "branches", "piece": k})
            return traced[k](*args)
        return call

    calls = [(tracing(k, p), p.inputs) for k, p in enumerate(split.pieces)]
    for path in split.paths:
        branches.run_tree(split.nodes, calls, inputs, force=list(path.outcomes))
    return [traced[k] for k in range(len(split.pieces))], [files[k].resolve() for k in range(len(split.pieces))]


def _outcomes(outcomes):
    return "(" + ", ".join("then" if o else "else" for o in outcomes) + ")" if outcomes else "(no branch)"
