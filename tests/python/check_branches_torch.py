#!/usr/bin/env python3
"""A model whose own forward branches on a value it read, split at its branches with a real PyTorch
on the CPU (docs/control-flow.md, "Your own model's branches"): examples/early_exit.py (an early exit
in a loop), examples/routed_mlp.py (an if/else between two MLPs, each arm forced by its inputs) and
tests/cli/pieces/root_branch.py (an if/else that goes on to the same layer) exported with --scope
auto, each case's tree of decisions and pieces checked, with the cases that force every branch each
way; a loop the data end (tests/cli/pieces/data_loop.py) refused (2); graphbench runs the cases on
the CPU, eager on every outcome (the routed MLP's ending at the leaf its case names), the graph
variants skipped with their reason.

Exit code 77 (skipped) where this Python has no PyTorch.

    check_branches_torch.py SOURCE_DIR WORK_DIR GRAPHBENCH
"""

import json
import os
import subprocess
import sys

from check_support import QUICK, SKIP, case_named, check, export, finish, fresh_dir, has_torch, read_records

EARLY = "py:examples/early_exit.py:make_model"
ROUTED = "py:examples/routed_mlp.py:make_model"
ROOT = "py:tests/cli/pieces/root_branch.py:make_model"
LOOP = "py:tests/cli/pieces/data_loop.py:make_model"


def decisions(nodes):
    """The decisions along the else side from the root: the chain of an early exit."""
    out, node = [], nodes[0]
    while "value" in node:
        out.append(node)
        node = nodes[node["else"]]
    return out


def check_early_exit(suite, models):
    case = case_named(suite, "py-early_exit-make_model-b2-pt-branches")
    check(case is not None, "no case of the early exit's branches")
    if not case:
        return
    check(case["workload"] == "torchscript_branches" and "path" not in case, f"the case {case.get('workload')}")
    nodes = case["branches"]
    chain = decisions(nodes)
    # Six blocks, a head after each: an exit after each of the first five (after the sixth, both ways end alike).
    check(len(chain) == 5, f"{len(chain)} decisions, expected 5")
    for k, d in enumerate(chain):
        check(d["compare"] == ">" and d["than"] == 0.999, f"decision {k}: {d['compare']} {d['than']}")
        check(d["line"].startswith("examples/early_exit.py:42 `if logits.softmax(-1).amax().item()"), d["line"])
        exit_node = nodes[d["then"]]
        check(exit_node["run"] == [] and len(exit_node.get("outputs", [])) == 1 and
              exit_node["outputs"][0].startswith(f"piece{k}."), f"decision {k}'s exit {exit_node}")
    check(len(case["pieces"]) == 6, f"{len(case['pieces'])} pieces, expected 6")
    for p in case["pieces"]:
        check(os.path.isfile(os.path.join(models, p["path"])) and p["capturable"], f"piece {p['path']}")
    forced = {c["name"]: c.get("threshold") for c in suite["cases"]}
    check(forced.get("py-early_exit-make_model-b2-pt-branches-then") == -1e30 and
          forced.get("py-early_exit-make_model-b2-pt-branches-else") == 1e30, f"forced cases {forced}")


def check_root_branch(suite):
    case = case_named(suite, "py-root_branch-make_model-b2-pt-branches")
    check(case is not None, "no case of the root branch")
    if not case:
        return
    nodes = case["branches"]
    root = nodes[0]
    check(root["run"] == [0] and root.get("line", "").startswith("tests/cli/pieces/root_branch.py:17"), str(root))
    # Both ways go on to layer b: each has a piece of its own, and the model's output from it.
    then, other = nodes[root.get("then", 0)], nodes[root.get("else", 0)]
    check(then.get("run") == [1] and other.get("run") == [2], str(nodes))
    check(then.get("outputs") == ["piece1.out0"] and other.get("outputs") == ["piece2.out0"], str(nodes))


def check_routed_mlp(suite, models, source_dir):
    """One branch between two leaves, each running its arm and the head; each arm forced by its inputs."""
    import importlib.util

    import torch

    case = case_named(suite, "py-routed_mlp-make_model-b2-pt-branches")
    check(case is not None, "no case of the routed MLP's branch")
    if not case:
        return
    nodes = case["branches"]
    root = nodes[0]
    check(len(nodes) == 3 and root["run"] == [0] and root.get("compare") == ">" and root.get("than") == 2.0 and
          root.get("then") == 1 and root.get("else") == 2, f"the routed MLP's tree {nodes}")
    check(root.get("line") == "examples/routed_mlp.py:37 `if x.norm(dim=-1).mean().item() > self.limit:`",
          root.get("line"))
    check(nodes[1:] == [{"run": [1], "outputs": ["piece1.out0"]}, {"run": [2], "outputs": ["piece2.out0"]}],
          f"the routed MLP's leaves {nodes[1:]}")
    check(len(case["pieces"]) == 3, f"{len(case['pieces'])} pieces, expected 3")
    for p in case["pieces"]:
        check(os.path.isfile(os.path.join(models, p["path"])) and p["capturable"], f"piece {p['path']}")
    spec = importlib.util.spec_from_file_location("routed_mlp", os.path.join(source_dir, "examples", "routed_mlp.py"))
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    for make, arm in ((example.make_model, "wide"), (example.make_model_then, "wide"),
                      (example.make_model_else, "narrow")):
        made, ran = make(batch=2), []
        model = made["model"]
        hooks = [getattr(model, a).register_forward_hook(lambda *_, a=a: ran.append(a)) for a in ("wide", "narrow")]
        with torch.no_grad():
            made["model"](*made["inputs"])
        for h in hooks:
            h.remove()
        check(ran == [arm], f"routed_mlp {make.__name__}: ran {ran}, expected [{arm!r}]")


def check_routed_leaves(records):
    """Each routed MLP case's eager step ends at the leaf its inputs or threshold take."""
    for suffix, leaf in (("", "node 1 of 3: then"), ("-then", "node 1 of 3: then"), ("-else", "node 2 of 3: else")):
        name = f"py-routed_mlp-make_model-b2-pt-branches{suffix}"
        eager = [r for r in records if r["case"] == name and r["variant"] == "eager"]
        check(len(eager) == 1 and any(leaf in w for w in eager[0].get("warnings", [])),
              f"{name}: eager ends at {leaf}? {[r.get('warnings') for r in eager]}")


def main(source_dir, work_dir, graphbench):
    if not has_torch("check_branches_torch.py"):
        return SKIP
    source_dir = os.path.abspath(source_dir)
    fresh_dir(work_dir)
    models = os.path.join(work_dir, "models")
    for model in (EARLY, ROUTED, ROOT):
        run = export(source_dir, model, "--batch", "2", "--scope", "auto", "--device", "cpu", "-o", models, "--append")
        check(run.returncode == 0 and "split there into" in run.stderr and "every path's pieces equal its trace"
              in run.stderr, f"export of {model}: exit {run.returncode}, {run.stderr[-3000:]}")
    run = export(source_dir, LOOP, "--scope", "auto", "--device", "cpu", "-o", os.path.join(work_dir, "loop"))
    check(run.returncode == 2 and "a loop that the data end cannot be split" in run.stderr and
          "tests/cli/pieces/data_loop.py:16" in run.stderr, f"a loop on the data: exit {run.returncode}, "
          f"{run.stderr[-2000:]}")
    suite_path = os.path.join(models, "suite.json")
    try:
        with open(suite_path, encoding="utf-8") as f:
            suite = json.load(f)
    except (OSError, ValueError) as e:
        check(False, f"no suite of the branches ({e})")
        return finish("check_branches_torch.py")
    check_early_exit(suite, models)
    check_routed_mlp(suite, models, source_dir)
    check_root_branch(suite)

    out = os.path.join(work_dir, "out")
    run = subprocess.run([graphbench, "run", "--config", suite_path, "--device", "cpu", *QUICK, "-o", out],
                         capture_output=True, text=True)
    check(run.returncode == 0, f"graphbench run: exit {run.returncode}, {run.stdout[-2000:]} {run.stderr[-2000:]}")
    records = read_records(out) or []
    eager = sorted(r["case"] for r in records if r["variant"] == "eager" and r["status"] == "ok")
    want = sorted(c["name"] for c in suite["cases"])
    check(eager == want, f"eager records {eager}, expected {want}")
    check_routed_leaves(records)
    for r in records:
        if r["variant"] != "eager":
            check(r["status"] == "skipped", f"{r['case']}/{r['variant']} on the CPU: {r['status']}")
    return finish("check_branches_torch.py")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print("usage: check_branches_torch.py SOURCE_DIR WORK_DIR GRAPHBENCH", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
