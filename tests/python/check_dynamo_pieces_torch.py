#!/usr/bin/env python3
"""Models torch.fx cannot trace, split by torch.compile's tracer (python/graphbench/dynamo_trace.py;
docs/models.md, "Splitting a model into pieces"), with a real PyTorch on the CPU:
examples/padded_tokens.py (a boolean mask as an index and an item assignment) and
examples/gated_layers.py (a branch on `.item()` inside a submodule) exported with --scope auto: the
pieces' tags (the masked part, and each gate, eager with its reason), the chain checked by the
export; the gated model's chain and its whole file run both branches as the model does (inputs
that rescale at no gate and at some); a branch in the model's own forward refused (2) naming
the line; graphbench runs both cases swept over full and auto, eager and static, validated; the
padded-token model's capturable pieces compiled by Inductor (--format pt2, AOTInductor packages for
the CPU) and run by graphbench beside its TorchScript piece where its LibTorch has the loader.

Exit code 77 (skipped) where this Python has no PyTorch, or a PyTorch without torch.compile's
tracer (custom ops: PyTorch 2.4 or later).

    check_dynamo_pieces_torch.py SOURCE_DIR WORK_DIR GRAPHBENCH
"""

import json
import os
import sys
import time

from check_support import (SKIP, check, export, finish, has_torch, read_records,
                           run_graphbench, fresh_dir, case_named)

PADDED = "py:examples/padded_tokens.py:make_model"
GATED = "py:examples/gated_layers.py:make_model"
ROOT = "py:tests/cli/pieces/tensor_branch.py:make_model"


def check_tags(suite):
    padded = case_named(suite, "py-padded_tokens-make_model-b2-pt-auto")
    check(padded is not None, "no case of the padded-token model's auto pieces")
    if padded:
        tags = [(p["capturable"], p.get("reason", "")) for p in padded["pieces"]]
        check([c for c, _ in tags] == [True, False, True], f"padded pieces' capturable {tags}")
        check("a boolean mask as an index" in tags[1][1], f"the masked piece's reason {tags[1][1]!r}")
    gated = case_named(suite, "py-gated_layers-make_model-b2-pt-auto")
    check(gated is not None, "no case of the gated model's auto pieces")
    if gated:
        pieces = gated["pieces"]
        check([p["capturable"] for p in pieces] == [True, False] * 4 + [True],
              f"gated pieces' capturable {[p['capturable'] for p in pieces]}")
        check([p["module"] for p in pieces[1::2]] == [f"gates.{k}" for k in range(4)],
              f"the gates' pieces {[p['module'] for p in pieces[1::2]]}")
        reason = pieces[1].get("reason", "")
        check("Gate.forward at examples/gated_layers.py:" in reason and ".item() > self.limit" in reason,
              f"a gate's reason names its source line: {reason!r}")
        check([p["layer"] for p in pieces[0::2]] == [0, 1, 2, 3, -1], f"layers {[p['layer'] for p in pieces]}")
    return gated


def check_branches(source_dir, models, gated):
    """The gated model's chain of pieces and its whole file, both TorchScript, against the model in
    Python on inputs that rescale at no gate and at some."""
    import importlib.util

    import torch

    from graphbench import pieces as model_pieces

    spec = importlib.util.spec_from_file_location("gated_layers", os.path.join(source_dir, "examples", "gated_layers.py"))
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    whole = torch.jit.load(os.path.join(models, gated["path"]))
    model = example.GatedLayers().eval()
    model.load_state_dict(whole.state_dict())
    calls = [torch.jit.load(os.path.join(models, p["path"])) for p in gated["pieces"]]
    wiring = [p["inputs"] for p in gated["pieces"]]
    fired = []
    for scale in (0.01, 30.0):
        x = scale * torch.randn(2, example.WIDTH)
        with torch.no_grad():
            expected = model(x)
            chain = model_pieces.run_chain(calls, wiring, gated["piece_outputs"], [x])[0]
            got_whole = whole(x)
        check(torch.allclose(chain, expected, rtol=1e-4, atol=1e-5),
              f"the chain at input scale {scale}: off by {float((chain - expected).abs().max())}")
        check(torch.allclose(got_whole, expected, rtol=1e-4, atol=1e-5),
              f"the whole file at input scale {scale}: off by {float((got_whole - expected).abs().max())}")
        with torch.no_grad():
            h = x
            count = 0
            for layer in model.layers:
                h = layer(h)
                count += int(h.abs().amax().item() > 4.0)
                h = h if h.abs().amax().item() <= 4.0 else h * (4.0 / h.abs().amax())
        fired.append(count)
    check(fired[0] == 0 and fired[1] >= 1, f"gates that rescaled at the two scales: {fired} (expected none, then some)")


def check_inductor_pieces(source_dir, work_dir, graphbench, packaging):
    """--format pt2: the padded-token model's capturable pieces compiled by Inductor (AOTInductor
    packages for the CPU: one each, or with --pieces-package one every piece a named model of one
    package), the masked piece TorchScript; graphbench runs the mixed chain where its LibTorch has
    AOTInductor's loader, and says it has none where it has not."""
    import torch

    if not hasattr(torch, "_inductor") or not hasattr(torch._inductor, "aoti_compile_and_package"):
        print("check_dynamo_pieces_torch.py: Inductor pieces skipped: this PyTorch has no AOTInductor packages")
        return
    models = os.path.join(work_dir, f"inductor-{packaging}")
    run = export(source_dir, PADDED, "--batch", "2", "--scope", "auto", "--format", "pt2", "--device", "cpu",
                 "--pieces-package", packaging, "-o", models)
    check(run.returncode == 0 and "their chain equals the whole model" in run.stderr,
          f"export of the Inductor pieces: exit {run.returncode}, {run.stderr[-3000:]}")
    try:
        with open(os.path.join(models, "suite.json"), encoding="utf-8") as f:
            case = json.load(f)["cases"][0]
    except (OSError, ValueError, IndexError) as e:
        check(False, f"no suite of the Inductor pieces ({e})")
        return
    check(case["name"] == "py-padded_tokens-make_model-b2-inductor-auto" and case["workload"] == "torchscript" and
          case["path"].endswith(".pt"), f"the Inductor pieces' case {case['name']} {case['workload']} {case['path']}")
    suffixes = [os.path.splitext(p["path"])[1] for p in case["pieces"]]
    check(suffixes == [".pt2", ".pt", ".pt2"], f"Inductor pieces' files {suffixes} (the masked piece TorchScript)")
    named = [p.get("model") for p in case["pieces"]]
    check(named == (["piece0", None, "piece2"] if packaging == "one" else [None] * 3),
          f"--pieces-package {packaging}: the pieces' models {named}")
    check(packaging == "each" or case["pieces"][0]["path"] == case["pieces"][2]["path"],
          "--pieces-package one: one package holds both compiled pieces")
    out = os.path.join(work_dir, f"inductor-{packaging}-out")
    run = run_graphbench(graphbench, os.path.join(models, "suite.json"), out, "--sweep", "scope=full,auto")
    if "has no AOTInductor package loader" in run.stdout + run.stderr:
        print("check_dynamo_pieces_torch.py: graphbench's LibTorch has no AOTInductor loader: its refusal checked")
        return
    check(run.returncode == 0, f"graphbench run of the Inductor pieces: exit {run.returncode}, {run.stdout[-2000:]} "
                               f"{run.stderr[-2000:]}")
    records = read_records(out)
    got = sorted((r["case"], r["variant"], r["status"]) for r in records)
    want = sorted((f"{case['name']}[scope={scope}]", variant, "ok") for scope in ("full", "auto")
                  for variant in ("eager", "static"))
    check(got == want, f"Inductor pieces' records {got}, expected {want}")
    for r in records:
        if r["variant"] == "static":
            check(r.get("max_abs_error") is not None, f"{r['case']}/static was not validated against eager")


def main(source_dir, work_dir, graphbench):
    if not has_torch("check_dynamo_pieces_torch.py"):
        return SKIP
    source_dir = os.path.abspath(source_dir)
    from graphbench import pieces as model_pieces

    if not model_pieces.dynamo_available():
        print("check_dynamo_pieces_torch.py: skipped: this PyTorch has no torch.compile tracer with custom ops")
        return SKIP
    fresh_dir(work_dir)
    models = os.path.join(work_dir, "models")
    started = time.monotonic()
    for model in (PADDED, GATED):
        run = export(source_dir, model, "--batch", "2", "--scope", "auto", "--device", "cpu", "-o", models, "--append")
        check(run.returncode == 0 and "their chain equals the whole model" in run.stderr and
              "torch.fx cannot trace" not in run.stderr,
              f"export of {model} --scope auto: exit {run.returncode}, {run.stderr[-3000:]}")
    run = export(source_dir, ROOT, "--scope", "auto", "--device", "cpu", "-o", os.path.join(work_dir, "root"))
    check(run.returncode == 2 and "torch.compile breaks the graph in the model's own forward at "
          "tests/cli/pieces/tensor_branch.py:18 `if x.sum() > 0:`" in run.stderr,
          f"a branch in the model's own forward: exit {run.returncode}, {run.stderr[-2000:]}")
    print(f"check_dynamo_pieces_torch.py: exports in {time.monotonic() - started:.1f} s")

    suite_path = os.path.join(models, "suite.json")
    try:
        with open(suite_path, encoding="utf-8") as f:
            suite = json.load(f)
    except (OSError, ValueError) as e:
        check(False, f"no suite of the pieces ({e})")
        return finish("check_dynamo_pieces_torch.py")
    gated = check_tags(suite)
    if gated:
        check_branches(source_dir, models, gated)

    out = os.path.join(work_dir, "out")
    run = run_graphbench(graphbench, suite_path, out, "--sweep", "scope=full,auto")
    check(run.returncode == 0, f"graphbench run: exit {run.returncode}, {run.stdout[-2000:]} {run.stderr[-2000:]}")
    records = read_records(out)
    got = sorted((r["case"], r["variant"], r["status"]) for r in records)
    want = sorted((f"{case}[scope={scope}]", variant, "ok")
                  for case in ("py-padded_tokens-make_model-b2-pt-auto", "py-gated_layers-make_model-b2-pt-auto")
                  for scope in ("full", "auto") for variant in ("eager", "static"))
    check(got == want, f"records {got}, expected {want}")
    for r in records:
        if r["variant"] == "static":
            check(r.get("max_abs_error") is not None, f"{r['case']}/static was not validated against eager")
    for packaging in ("each", "one"):
        check_inductor_pieces(source_dir, work_dir, graphbench, packaging)
    print(f"check_dynamo_pieces_torch.py: done in {time.monotonic() - started:.1f} s")
    return finish("check_dynamo_pieces_torch.py")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print("usage: check_dynamo_pieces_torch.py SOURCE_DIR WORK_DIR GRAPHBENCH", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
