#!/usr/bin/env python3
"""A model split into AOTInductor pieces with a real PyTorch 2 (docs/models.md, "AOTInductor
pieces"), on the CPU: examples/conv_attention.py exported by scripts/export_model.py --scope layer
--format pt,pt2; the pt2 case names a package per piece, wired and tagged as the pt case's pieces;
graphbench's aoti workload runs its chain eagerly (checked first against the whole package), and a
mixed chain (one piece the pt case's TorchScript file) as well; a piece wired to inputs of other
shapes than its package was compiled for is refused (2) naming the field.

Exit code 77 (skipped) where this Python has no torch.export and AOTInductor (PyTorch before 2.6),
or where graphbench was built without the package loader (LibTorch before 2.6): the checks need
both. Compiling the packages (a C++ compiler) takes a minute or two.

    check_model_pieces_aoti.py SOURCE_DIR WORK_DIR GRAPHBENCH
"""

import copy
import json
import os
import shutil
import subprocess
import sys

from check_support import QUICK, SKIP, check, export, finish, has_torch, read_records

PROG = "check_model_pieces_aoti.py"
CONV = "py:examples/conv_attention.py:make_model"
STEM = "py-conv_attention-make_model-b1"
LOADER_MISSING = "which has no AOTInductor package loader"


def has_aoti():
    import torch

    if not hasattr(torch, "export"):
        return False
    try:
        import torch._inductor
    except ImportError:
        return False
    return hasattr(torch._inductor, "aoti_compile_and_package") and hasattr(torch._inductor, "aoti_load_package")


def run_eager(graphbench, suite, out, *extra):
    """`graphbench run` of `suite` on the CPU, the eager variant (aoti has no static one), quickly."""
    return subprocess.run([graphbench, "run", "--config", suite, "--device", "cpu", "--variants", "eager", *QUICK,
                           "-o", out, *extra], capture_output=True, text=True)


def write_suite(path, suite, cases):
    with open(path, "w", encoding="utf-8") as f:
        json.dump({**suite, "cases": cases}, f)


def main(source_dir, work_dir, graphbench):
    if not has_torch(PROG):
        return SKIP
    if not has_aoti():
        print(f"{PROG}: skipped: needs torch.export and torch._inductor.aoti_compile_and_package (PyTorch 2.6 or later)")
        return SKIP
    source_dir = os.path.abspath(source_dir)
    shutil.rmtree(work_dir, ignore_errors=True)
    os.makedirs(work_dir)
    models = os.path.join(work_dir, "models")

    run = export(source_dir, CONV, "--batch", "1", "--format", "pt,pt2", "--scope", "layer", "--device", "cpu",
                 "-o", models)
    check(run.returncode == 0 and run.stderr.count("their chain equals the whole model") == 2,
          f"export --format pt,pt2 --scope layer: exit {run.returncode}, {run.stderr}")
    suite_path = os.path.join(models, "suite.json")
    try:
        with open(suite_path, encoding="utf-8") as f:
            suite = json.load(f)
    except (OSError, ValueError) as e:
        check(False, f"no suite written ({e})")
        return finish(PROG)
    cases = {c["name"]: c for c in suite["cases"]}
    script, package = cases.get(f"{STEM}-pt-layer"), cases.get(f"{STEM}-pt2-layer")
    check(script is not None and package is not None, f"the cases written: {sorted(cases)}")
    if script is None or package is None:
        return finish(PROG)
    check(package["workload"] == "aoti" and package["path"] == f"{STEM}.pt2", f"the pt2 case: {package}")
    check([p["path"] for p in package["pieces"]] == [f"{STEM}.layer.piece{k}.pt2" for k in range(4)],
          f"the pt2 pieces: {[p['path'] for p in package['pieces']]}")
    strip = [{k: v for k, v in p.items() if k != "path"} for p in script["pieces"]]
    check([{k: v for k, v in p.items() if k != "path"} for p in package["pieces"]] == strip,
          "the pt2 pieces are wired and tagged as the pt case's")
    check(package["piece_outputs"] == script["piece_outputs"], "the same model outputs")
    for p in package["pieces"]:
        check(os.path.isfile(os.path.join(models, p["path"])), f"no piece file {p['path']}")
        check(os.path.isfile(os.path.join(models, p["path"] + ".json")), f"no manifest beside {p['path']}")

    # A mixed chain: piece 1 the TorchScript file of the pt case's piece 1.
    mixed = copy.deepcopy(package)
    mixed["name"] = f"{STEM}-pt2-layer-mixed"
    mixed["pieces"][1]["path"] = script["pieces"][1]["path"]
    runs = os.path.join(work_dir, "runs.json")
    for p in (package, mixed):  # the paths relative to the suite file, which is in another folder now
        p["path"] = os.path.join("models", p["path"])
        for piece in p["pieces"]:
            piece["path"] = os.path.join("models", piece["path"])
    write_suite(runs, suite, [package, mixed])
    out = os.path.join(work_dir, "out")
    run = run_eager(graphbench, runs, out)
    records = read_records(out)
    if records and all(r["status"] == "skipped" and LOADER_MISSING in (r.get("reason") or "") for r in records):
        print(f"{PROG}: skipped: graphbench has no AOTInductor package loader ({records[0].get('reason')})")
        return SKIP
    check(run.returncode == 0, f"graphbench run: exit {run.returncode}, {run.stdout[-2000:]} {run.stderr[-2000:]}")
    got = sorted((r["case"], r["variant"], r["status"]) for r in records)
    want = sorted((c["name"], "eager", "ok") for c in (package, mixed))
    check(got == want, f"records {got}, expected {want}")

    # Piece 1 wired to the model's input: other shapes than its package was compiled for.
    bad = copy.deepcopy(package)
    bad["pieces"][1]["inputs"] = ["input0"]
    write_suite(runs, suite, [bad])
    run = run_eager(graphbench, runs, os.path.join(work_dir, "bad"))
    text = run.stdout + run.stderr
    check(run.returncode == 2 and "/cases/0/pieces/1/inputs: piece 1 (" in text and
          "the package was compiled for the inputs" in text,
          f"a piece wired at other shapes: exit {run.returncode}, {text[-2000:]}")
    return finish(PROG)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print(f"usage: {PROG} SOURCE_DIR WORK_DIR GRAPHBENCH", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
