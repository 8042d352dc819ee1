#!/usr/bin/env python3
"""A model split into pieces with a real PyTorch, on the CPU (docs/models.md, "Splitting a model into
pieces"): examples/conv_attention.py exported by scripts/export_model.py --scope layer and
--scope attention-out, and examples/moe_block.py (routing with data-dependent shapes) with --scope
auto; each written case's wiring and tags checked; graphbench runs the three chains (eager and
static, validated against eager, the chain first compared with the whole model); a network in
stages exported in pieces with --mode train and run swept over full, fwd-bwd and layer; every bad wiring
refused (2) naming the case's field, and a chain that differs from its whole model failed (1);
python_baseline.py's piece figures, inference and a training step, made on the CPU with
make_graphed_callables stood in for.

Exit code 77 (skipped) where this Python has no PyTorch (CI's Debian machine without
python3-torch).

    check_model_pieces_torch.py SOURCE_DIR WORK_DIR GRAPHBENCH
"""

import copy
import json
import os
import sys
import time

from check_support import (SKIP, check, export, finish, has_torch, read_records,
                           run_graphbench, fresh_dir, case_named)

CONV = "py:examples/conv_attention.py:make_model"
MOE = "py:examples/moe_block.py:make_model"
STAGED = "py:tests/cli/pieces/staged_net.py:make_model"


def check_wiring(suite, models):
    layer = case_named(suite, "py-conv_attention-make_model-b1-pt-layer")
    check(layer is not None, "no case of the layer pieces")
    if layer:
        pieces = layer["pieces"]
        check([p["inputs"] for p in pieces] == [["input0"], ["piece0.out0"], ["piece1.out0"], ["piece2.out0"]],
              f"layer wiring {[p['inputs'] for p in pieces]}")
        check([(p["module"], p["layer"]) for p in pieces] == [("", -1), ("blocks.0", 0), ("blocks.1", 1), ("", -1)],
              f"layer tags {[(p['module'], p['layer']) for p in pieces]}")
        check(layer["piece_outputs"] == ["piece3.out0"], f"layer outputs {layer['piece_outputs']}")
        check(layer["path"] == "py-conv_attention-make_model-b1.pt", f"the whole model {layer['path']}")
        for p in pieces:
            check(os.path.isfile(os.path.join(models, p["path"])), f"no piece file {p['path']}")
    attention = case_named(suite, "py-conv_attention-make_model-b1-pt-attention-out")
    check(attention is not None, "no case of the attention-out pieces")
    if attention:
        tags = [(p["module"], p["attention"]) for p in attention["pieces"]]
        check(tags == [("", False), ("blocks.0.attention", True), ("blocks", False), ("blocks.1.attention", True),
                       ("", False)], f"attention-out tags {tags}")
        # The residual stream passes the attention piece by: piece 2 takes piece 0's second output.
        check(attention["pieces"][2]["inputs"] == ["piece0.out1", "piece1.out0"],
              f"attention-out wiring {attention['pieces'][2]['inputs']}")
    moe = case_named(suite, "py-moe_block-make_model-b2-pt-auto")
    check(moe is not None, "no case of the MoE's auto pieces")
    if moe:
        eager = [p for p in moe["pieces"] if not p["capturable"]]
        check(len(eager) == 4 and all("nonzero" in p["reason"] for p in eager),
              f"the MoE's uncapturable pieces {[(p['inputs'], p.get('reason')) for p in eager]}")
        check(moe["pieces"][0]["capturable"] and moe["pieces"][-1]["capturable"],
              "the MoE's first and last pieces (projection, router; head) capturable")


def check_repeat_counts(source_dir):
    """repeat_interleave makes a data-dependent shape only when its counts are a tensor: keys repeated
    per head by an integer (grouped-query attention) stay capturable under --scope auto."""
    import torch

    from graphbench import pieces as P

    class Repeats(torch.nn.Module):
        def __init__(self, by_tensor):
            super().__init__()
            self.by_tensor = by_tensor
            self.proj = torch.nn.Linear(4, 4)

        def forward(self, x, counts):
            y = self.proj(x)
            y = y.repeat_interleave(counts, dim=0) if self.by_tensor else y.repeat_interleave(2, dim=1)
            return torch.relu(y)

    inputs = [torch.randn(3, 4), torch.tensor([1, 2, 0])]
    with torch.no_grad():
        split = P.split(Repeats(True), inputs, P.parse_scopes("auto"), "repeats")
        eager = [p.tag.get("reason") for p in split.pieces if not p.tag.get("capturable", True)]
        check(eager and all("repeat_interleave" in r for r in eager), f"counts as a tensor: eager pieces {eager}")
        try:
            P.split(Repeats(False), inputs, P.parse_scopes("auto"), "repeats")
            check(False, "an integer count: split, expected every op capturable")
        except P.BadScope as e:
            check("every op can be captured" in str(e), f"an integer count: {e}")


def check_stages(source_dir, work_dir):
    """A network in stages named as torchvision's ResNets (layer1, layer2): --scope layer cuts it by
    stage, --scope modules=REGEX by the matching module, each piece tagged so."""
    folder = os.path.join(work_dir, "staged")
    for scope in ("layer", "modules=layer2|fc"):
        run = export(source_dir, STAGED, "--format", "pt", "--scope", scope, "-o", folder, "--append")
        check(run.returncode == 0, f"export of the staged network --scope {scope}: exit {run.returncode}, {run.stderr}")
    try:
        with open(os.path.join(folder, "suite.json"), encoding="utf-8") as f:
            cases = {c["name"]: c for c in json.load(f)["cases"]}
    except (OSError, ValueError, KeyError) as e:
        check(False, f"no suite of the staged network ({e})")
        return
    layer = cases.get("py-staged_net-make_model-b2-pt-layer", {}).get("pieces", [])
    got = [(p["module"], p["layer"]) for p in layer]
    # A piece's module is the common prefix of what it computes: layer2 holds one block.
    check(got == [("", -1), ("layer1", 0), ("layer2.0", 1), ("", -1)], f"the stages' pieces {got}")
    modules = cases.get("py-staged_net-make_model-b2-pt-modules-layer2-fc", {}).get("pieces", [])
    got = [p["module"] for p in modules]
    check(got == ["", "layer2", "", "fc"], f"the modules' pieces {got}")


def check_training(source_dir, work_dir, graphbench):
    """A training step in pieces: the staged network exported with --mode train --scope layer (each
    stage a piece traced in train mode), its case a training step's, run swept over full, fwd-bwd
    and layer (static validated against eager, its segments run: the optimizer eager); pt2 pieces
    refused (a training step's pieces are TorchScript; Inductor's pieces are inference)."""
    folder = os.path.join(work_dir, "train")
    run = export(source_dir, STAGED, "--format", "pt", "--mode", "train", "--scope", "layer", "-o", folder)
    check(run.returncode == 0 and "their chain equals the whole model" in run.stderr,
          f"export of the staged network in train mode: exit {run.returncode}, {run.stderr}")
    run = export(source_dir, STAGED, "--format", "pt2", "--mode", "train", "--scope", "layer", "-o", folder,
                 "--suite", os.path.join(folder, "pt2.json"))
    check(run.returncode == 2 and "--scope --format pt2 compiles inference pieces: a training step's pieces are "
          "TorchScript (give --format pt with --mode train)" in run.stderr,
          f"pt2 training pieces: exit {run.returncode}, {run.stderr}")
    suite_path = os.path.join(folder, "suite.json")
    try:
        with open(suite_path, encoding="utf-8") as f:
            case = case_named(json.load(f), "py-staged_net-make_model-b2-train-pt-layer")
    except (OSError, ValueError) as e:
        check(False, f"no suite of the training pieces ({e})")
        return
    check(case is not None, "no case of the training pieces")
    if not case:
        return
    got = {k: case.get(k) for k in ("mode", "loss", "optimizer", "path")}
    check(got == {"mode": "train", "loss": "cross_entropy", "optimizer": "sgd",
                  "path": "py-staged_net-make_model-b2-train.pt"}, f"the training case {got}")
    tags = [(p["module"], p["layer"], p["inputs"]) for p in case["pieces"]]
    check(tags == [("", -1, ["input0"]), ("layer1", 0, ["piece0.out0"]), ("layer2.0", 1, ["piece1.out0"]),
                   ("", -1, ["piece2.out0"])], f"the training pieces {tags}")

    # Tied weights: one parameter in two pieces would train as two.
    run = export(source_dir, "py:tests/cli/pieces/tied_net.py:make_model", "--format", "pt", "--mode", "train",
                 "--scope", "layer", "-o", os.path.join(work_dir, "train-tied"))
    check(run.returncode == 2 and "py:tests/cli/pieces/tied_net.py:make_model: parameter embed.weight is read by "
                                  "piece 0 and piece 3: in mode train each parameter must lie in one piece" in run.stderr,
          f"tied weights in training pieces: exit {run.returncode}, {run.stderr}")

    # A model with its own loss (forward(*inputs, *targets)): the loss lies in the last piece, which
    # takes the labels.
    run = export(source_dir, CONV, "--batch", "2", "--format", "pt", "--mode", "train", "--scope", "layer", "-o",
                 os.path.join(work_dir, "train-own-loss"))
    check(run.returncode == 0 and "their chain equals the whole model" in run.stderr,
          f"export of the example with its own loss in train mode: exit {run.returncode}, {run.stderr}")
    try:
        with open(os.path.join(work_dir, "train-own-loss", "suite.json"), encoding="utf-8") as f:
            own = json.load(f)["cases"][0]
        wiring = [p["inputs"] for p in own["pieces"]]
        check(own["loss"] == "mean" and wiring[-1] == ["piece2.out0", "input1"],
              f"the own loss's pieces: loss {own['loss']}, wiring {wiring}")
    except (OSError, ValueError, KeyError, IndexError) as e:
        check(False, f"no suite of the example's training pieces ({e})")

    out = os.path.join(work_dir, "train-out")
    run = run_graphbench(graphbench, suite_path, out, "--sweep", "scope=full,fwd-bwd,layer")
    check(run.returncode == 0, f"graphbench run of the training pieces: exit {run.returncode}, {run.stderr[-2000:]}")
    records = read_records(out)
    name = case["name"]
    got = sorted((r["case"], r["variant"], r["status"], r.get("scope", "full"), r.get("scope_group")) for r in records)
    want = sorted((f"{name}[scope={scope}]", variant, "ok", scope, name) for scope in ("full", "fwd-bwd", "layer")
                  for variant in ("eager", "static"))
    check(got == want, f"training pieces' records {got}, expected {want}")
    for r in records:
        if r["variant"] != "static":
            continue
        check(r.get("max_abs_error") is not None, f"{r['case']}/static was not validated against eager")
        # The static executor runs the scope's segments: every step's optimizer eagerly, but for full.
        segments = r.get("counters", {}).get("eager_segment_runs", 0)
        full = r.get("scope", "full") == "full"
        check(segments == 0 if full else segments > 0, f"{r['case']}/static: {segments} eager segment runs")


def bad_wiring(source_dir, work_dir, graphbench, suite, models):
    """Each change of the layer case, with the message (and exit code) graphbench must give."""
    base = case_named(suite, "py-conv_attention-make_model-b1-pt-layer")
    piece_file = os.path.join(models, "py-conv_attention-make_model-b1.layer.piece0.pt")

    def with_pieces(change):
        case = copy.deepcopy(base)
        change(case)
        return case

    def set_input(k, refs):
        return lambda c: c["pieces"][k].__setitem__("inputs", refs)

    other_whole = os.path.join(work_dir, "other", "py-conv_attention-make_model-b1.pt")
    cases = [
        ("missing piece file", lambda c: c["pieces"][0].__setitem__("path", "nope.pt"), 2,
         "/cases/0/pieces/0/path: " + os.path.join(models, "nope.pt") + ": no such file"),
        ("unknown piece output", set_input(1, ["piece0.out5"]), 2,
         "/cases/0/pieces/1/inputs/0: \"piece0.out5\" names output 5 of piece 0, which has 1 (out0 to out0)"),
        ("a later piece", set_input(1, ["piece2.out0"]), 2,
         "/cases/0/pieces/1/inputs/0: \"piece2.out0\" names piece 2, which does not run before piece 1 (pieces run "
         "in the order given: a wiring to a later piece, or to itself, is a cycle)"),
        ("a cycle", set_input(1, ["piece1.out0"]), 2, "\"piece1.out0\" names piece 1, which does not run before piece 1"),
        ("no such piece", set_input(1, ["piece9.out0"]), 2,
         "\"piece9.out0\" names piece 9, and the case has 4 pieces (piece0 to piece3)"),
        ("no such model input", set_input(1, ["input1"]), 2,
         "\"input1\" names model input 1, and the case's inputs are 1 (input0 to input0)"),
        ("not a ref", set_input(1, ["blocks.0"]), 2,
         "expected a model input (\"input0\" to \"input0\") or an earlier piece's output (\"pieceJ.outN\"), got "
         "\"blocks.0\""),
        ("an unknown model output", lambda c: c.__setitem__("piece_outputs", ["piece3.out1"]), 2,
         "/cases/0/piece_outputs/0: \"piece3.out1\" names output 1 of piece 3, which has 1 (out0 to out0)"),
        ("pieces without outputs", lambda c: c.pop("piece_outputs"), 2,
         "missing required key \"piece_outputs\" (with pieces: the model's outputs)"),
        ("shapes that do not match", set_input(2, ["input0"]), 2,
         "/cases/0/pieces/2/inputs: piece 2 (" + os.path.join(models, "py-conv_attention-make_model-b1.layer.piece2.pt")
         + ") rejects its inputs float32[1, 3, 64, 64]"),
        ("a wrong output count", lambda c: c["pieces"][0].__setitem__("outputs", 2), 2,
         "/cases/0/pieces/0/outputs: piece 0 (" + piece_file + ") returns 1 tensor(s), the case says 2"),
        ("more inputs than forward takes", set_input(1, ["piece0.out0", "input0"]), 2,
         "/cases/0/pieces/1/inputs: piece 1 (" + os.path.join(models, "py-conv_attention-make_model-b1.layer.piece1.pt")
         + ") takes 1 input(s)"),
        ("mode train without a loss", lambda c: c.update({"mode": "train"}), 2,
         "/cases/0: missing required key \"loss\" (mode train: mean, mse or cross_entropy)"),
        ("another whole model", lambda c: c.__setitem__("path", other_whole), 1,
         "the chain of 4 pieces differs from the whole model " + other_whole + ": output 0 differs by up to"),
    ]
    for k, (what, change, code, message) in enumerate(cases):
        case = with_pieces(change)
        bad_suite = dict(suite, cases=[case])
        path = os.path.join(models, f"bad-{k}.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(bad_suite, f)
        run = run_graphbench(graphbench, path, os.path.join(work_dir, f"bad-{k}"))
        text = run.stdout + run.stderr
        if code == 1:
            try:
                with open(os.path.join(work_dir, f"bad-{k}", "results.json"), encoding="utf-8") as f:
                    text += json.dumps(json.load(f)["records"])
            except (OSError, ValueError, KeyError):
                pass
        check(run.returncode == code and message in text,
              f"{what}: exit {run.returncode} (expected {code}), expected {message!r} in: {text[-1500:]}")


def python_figures(source_dir):
    """python_baseline.py's piece figures on the CPU: time_median_us counts calls, and
    make_graphed_callables returns the callables as they are (a graph needs CUDA)."""
    import torch

    from graphbench import pieces as model_pieces
    from graphbench.models import zoo as model_zoo
    from graphbench.peers import baseline as python_baseline

    calls = []

    def count(fn, args):
        fn()
        calls.append(fn)
        return {"median_us": float(len(calls))}

    python_baseline.time_median_us = count
    graphed = []

    def make_graphed(callables, samples):
        graphed.append((len(callables), [tuple(t.shape) for s in samples for t in s]))
        return callables

    torch.cuda.make_graphed_callables = make_graphed
    torch.cuda.synchronize = lambda: None
    cwd = os.getcwd()
    os.chdir(source_dir)
    try:
        case = model_zoo.ModelCase(model=CONV, batch=1, origin_dir=source_dir)
        model_zoo.describe_own_code(case, True, {})
        model = model_zoo.build_model(case).eval()
        inputs = model_zoo.make_inputs(case, "cpu")
        with torch.no_grad():
            expected = model_zoo.flat_tensors(model(*inputs))
        figure = python_baseline.measure_pieces(case, model, inputs, expected,
                                                model_pieces.parse_scopes("layer,attention-out"),
                                                python_baseline.parse_args([CONV]))
    finally:
        os.chdir(cwd)
    # Split at both: the stem; block 0 before its attention, its attention, the rest of it; the same
    # of block 1; the head.
    check(figure["pieces"] == 8, f"layer,attention-out pieces {figure}")
    layer = figure["scopes"].get("layer", {})
    attention = figure["scopes"].get("attention-out", {})
    # layer: a graph per block, the stem and the head eager, as graphbench cuts them (tests/golden/segments.json).
    check(layer.get("graphs") == 2 and layer.get("eager_pieces") == 2, f"layer: {layer}")
    check(attention.get("graphs") == 3 and attention.get("eager_pieces") == 2, f"attention-out: {attention}")
    check([n for n, _ in graphed] == [2, 3], f"make_graphed_callables given {graphed}")
    check(layer.get("max_abs_diff") == 0.0 and attention.get("max_abs_diff") == 0.0,
          f"the graphed chains' differences {layer}, {attention}")
    cells = python_baseline.pieces_cells(figure)
    check(cells == " 8 | 1 | layer: 2 (2 graphs); attention-out: 3 (3 graphs) |", f"the table's cells {cells!r}")

    # A training step over the staged network's pieces: eager, then a graphed callable per graph of
    # layer (the stem and the head their own, as graphbench captures them in training) and of
    # fwd-bwd (all in one), each sample that an earlier piece makes requiring grad.
    graphed.clear()

    def make_graphed_training(callables, samples):
        graphed.append([[t.requires_grad for t in s] for s in samples])
        return callables

    torch.cuda.make_graphed_callables = make_graphed_training
    os.chdir(source_dir)
    try:
        case = model_zoo.ModelCase(model=STAGED, batch=2, mode="train", origin_dir=source_dir)
        model_zoo.describe_own_code(case, True, {})
        model = model_zoo.build_model(case).train()
        inputs = model_zoo.make_inputs(case, "cpu")
        target = model_zoo.make_target(case, model(*inputs), "cpu")
        before = model.fc.weight.detach().clone()
        figure = python_baseline.measure_train_pieces(case, model, inputs, target,
                                                      model_pieces.parse_scopes("layer"),
                                                      python_baseline.parse_args([STAGED, "--mode", "train"]))
    finally:
        os.chdir(cwd)
    got = {name: (e.get("graphs"), e.get("eager_pieces"), "median_us" in e.get("graphed", {}))
           for name, e in figure["scopes"].items()}
    check(figure["pieces"] == 4 and got == {"layer": (4, 0, True), "fwd-bwd": (1, 0, True)},
          f"training pieces' figures {figure}")
    check(graphed == [[[False], [True], [True], [True]], [[False]]], f"make_graphed_callables' samples {graphed}")
    check(not torch.equal(model.fc.weight, before), "the training steps did not move the parameters")


def main(source_dir, work_dir, graphbench):
    if not has_torch("check_model_pieces_torch.py"):
        return SKIP
    source_dir = os.path.abspath(source_dir)
    fresh_dir(work_dir)
    models = os.path.join(work_dir, "models")

    started = time.monotonic()
    # Without --format: --scope writes TorchScript pieces only.
    for model, batch, scope in ((CONV, "1", "layer"), (CONV, "1", "attention-out"), (MOE, "2", "auto")):
        run = export(source_dir, model, "--batch", batch, "--scope", scope, "-o", models, "--append")
        check(run.returncode == 0 and "their chain equals the whole model" in run.stderr,
              f"export of {model} --scope {scope}: exit {run.returncode}, {run.stderr}")
    packages = [name for name in os.listdir(models) if name.endswith(".pt2")] if os.path.isdir(models) else []
    check(not packages, f"--scope without --format wrote AOTInductor packages {packages}")
    run = export(source_dir, CONV, "--batch", "1", "--format", "pt", "--seed", "1", "-o",
                 os.path.join(work_dir, "other"))
    check(run.returncode == 0, f"export of the example at seed 1: exit {run.returncode}, {run.stderr}")
    run = export(source_dir, MOE, "--format", "pt", "--scope", "attention-out", "-o", os.path.join(work_dir, "none"))
    check(run.returncode == 2 and "py:examples/moe_block.py:make_model: --scope attention-out leaves the model in one "
                                  "piece (nothing to split: no attention module or call found)" in run.stderr,
          f"a scope that does not split: exit {run.returncode}, {run.stderr}")
    check_repeat_counts(source_dir)
    check_stages(source_dir, work_dir)
    check_training(source_dir, work_dir, graphbench)
    print(f"check_model_pieces_torch.py: exports in {time.monotonic() - started:.1f} s")

    suite_path = os.path.join(models, "suite.json")
    with open(suite_path, encoding="utf-8") as f:
        suite = json.load(f)
    check_wiring(suite, models)
    workloads = sorted({c["workload"] for c in suite["cases"]})
    check(workloads == ["torchscript"], f"--scope without --format: the suite's workloads {workloads}")

    out = os.path.join(work_dir, "out")
    run = run_graphbench(graphbench, suite_path, out)
    check(run.returncode == 0, f"graphbench run: exit {run.returncode}, {run.stdout[-2000:]} {run.stderr[-2000:]}")
    records = read_records(out)
    got = sorted((r["case"], r["variant"], r["status"]) for r in records)
    # Each case of pieces runs its scope beside full (its "sweep", as the export wrote it).
    want = sorted((f"{case}[scope={scope}]", variant, "ok")
                  for case, scope in (("py-conv_attention-make_model-b1-pt-layer", "layer"),
                                      ("py-conv_attention-make_model-b1-pt-attention-out", "attention-out"),
                                      ("py-moe_block-make_model-b2-pt-auto", "auto"))
                  for scope in ("full", scope) for variant in ("eager", "static"))
    check(got == want, f"records {got}, expected {want}")
    for r in records:
        if r["variant"] != "eager":
            check(r.get("max_abs_error") is not None, f"{r['case']}/{r['variant']} was not validated against eager")

    if case_named(suite, "py-conv_attention-make_model-b1-pt-layer"):
        bad_wiring(source_dir, work_dir, graphbench, suite, models)
    python_figures(source_dir)
    print(f"check_model_pieces_torch.py: done in {time.monotonic() - started:.1f} s")
    return finish("check_model_pieces_torch.py")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print("usage: check_model_pieces_torch.py SOURCE_DIR WORK_DIR GRAPHBENCH", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
