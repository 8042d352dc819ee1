#!/usr/bin/env python3
"""A decoding step whose KV cache is state, with a real PyTorch on the CPU: examples/tiny_decode.py
exported as TorchScript by scripts/export_model.py, the export's phases timed in its manifest; the
file holds the weights only (no cache buffer), the suite names the caches with role state, their seeds and scale; the exported step
writes the caches given to it at the position and nowhere else; graphbench runs it on the CPU
(eager and static, swept over batch 1 and 2, the caches sized by the sweep), every variant
validated against eager; the same file swept over the cache's length (the step reads it from the
cache tensors), each point's caches and roofline at its length, and a length that does not hold
the step's position refused (2) naming the suite file and the field; and the state callable's bad
input is refused naming the callable.

Exit code 77 (skipped) where this Python has no PyTorch.

    check_cache_state_torch.py SOURCE_DIR WORK_DIR GRAPHBENCH
"""

import json
import os
import sys

from check_support import (SKIP, check, export, finish, has_torch, read_records,
                           run_graphbench, fresh_dir)

EXAMPLE = "py:examples/tiny_decode.py:make_model"


def main(source_dir, work_dir, graphbench):
    if not has_torch("check_cache_state_torch.py"):
        return SKIP
    import torch

    source_dir = os.path.abspath(source_dir)
    from graphbench.models import zoo as model_zoo

    fresh_dir(work_dir)
    models = os.path.join(work_dir, "models")
    # Traced on the CPU where a GPU is too: the file is run on CPU tensors below.
    run = export(source_dir, EXAMPLE, "--batch", "2", "--format", "pt", "--device", "cpu", "-o", models)
    check(run.returncode == 0, f"export of the example: exit {run.returncode}, {run.stderr}")
    with open(os.path.join(models, "suite.json"), encoding="utf-8") as f:
        case = json.load(f)["cases"][0]
    state = [spec for spec in case["inputs"] if spec.get("role") == "state"]
    check([s["seed"] for s in state] == [3, 4, 5, 6] and all(s["scale"] == 0.5 for s in state) and
          all(s["shape"] == [2, 2, 32, 16] and s["dtype"] == "float32" for s in state),
          f"the suite's state inputs: {state}")

    # Where the export's time went, in the file's manifest (python/graphbench/export_times.py).
    with open(os.path.join(models, case["path"] + ".json"), encoding="utf-8") as f:
        manifest = json.load(f)
    times = manifest.get("export_times") or {}
    phases = ("build_s", "inputs_s", "trace_s", "save_s")
    check(sorted(times) == sorted(phases + ("total_s",)) and all(isinstance(v, (int, float)) and v >= 0
                                                              for v in times.values()),
          f"the manifest's export_times: {times}")
    check(times.get("total_s", 0) + 0.005 >= sum(times.get(p, 0) for p in phases),
          f"the phases add up to more than the whole export: {times}")
    run = export(source_dir, EXAMPLE, "--batch", "2", "--format", "pt", "--dry-run", "-o", os.path.join(work_dir, "dry"))
    with open(os.path.join(work_dir, "dry", case["path"] + ".json"), encoding="utf-8") as f:
        check("export_times" not in json.load(f), "a --dry-run manifest has export times")
    # torch.export's dynamic shapes of that package: one "batch" on dimension 0 of the tokens and the
    # caches, one "cache" on dimension 2 of the caches, the caches in one tuple for forward's *caches
    # (a stand-in Dim where this PyTorch has no torch.export).
    from graphbench import export as export_model
    import types

    from examples import tiny_decode

    dynamic = model_zoo.ModelCase(EXAMPLE, 2, dynamic_batch=8, dynamic_cache=512, example_inputs=case["inputs"])
    saved = torch.__dict__.get("export")
    torch.export = types.SimpleNamespace(Dim=lambda name, min, max: (name, min, max))
    try:
        shapes = export_model.shapes_for_signature(tiny_decode.TinyDecode().forward, dynamic.dynamic_shapes())
    finally:
        if saved is None:
            del torch.export
        else:
            torch.export = saved
    batch, length = ("batch", 1, 8), ("cache", 1, 512)
    check(shapes == ({0: batch}, None, ({0: batch, 2: length},) * 4), f"the dynamic shapes: {shapes}")

    # One package for every cache length up to 512 (and batch up to 8): its manifest records both lengths.
    dry = os.path.join(work_dir, "dry-cache")
    run = export(source_dir, EXAMPLE, "--batch", "2", "--format", "pt2", "--dynamic-batch", "8", "--dynamic-cache",
                 "512", "--dry-run", "-o", dry)
    check(run.returncode == 0, f"--dynamic-cache --dry-run: exit {run.returncode}, {run.stderr}")
    with open(os.path.join(dry, "py-tiny_decode-make_model-bmax8-cmax512.pt2.json"), encoding="utf-8") as f:
        manifest_cache = json.load(f)
    check(manifest_cache.get("dynamic_cache") == 512 and manifest_cache.get("cache_length") == 32,
          f"the manifest of a dynamic cache: dynamic_cache {manifest_cache.get('dynamic_cache')}, cache_length "
          f"{manifest_cache.get('cache_length')}")

    module = torch.jit.load(os.path.join(models, case["path"]))
    buffers = [name for name, _ in module.named_buffers()]
    check(buffers == [], f"the file's buffers are {buffers}: the cache should not be among them")
    # The file's size beside its weights' bytes: the weights are the parameters and buffers, not the cache.
    weights = sum(t.numel() * t.element_size() for t in list(module.parameters()) + list(module.buffers()))
    sizes = manifest.get("sizes") or {}
    check(sizes.get("weights_bytes") == weights and
          sizes.get("file_bytes") == os.path.getsize(os.path.join(models, case["path"])),
          f"the manifest's sizes {sizes}: expected weights_bytes {weights} and the file's size")
    caches = [model_zoo.state_fill(s["shape"], torch.float32, s["seed"], s["scale"]) for s in state]
    before = [c.clone() for c in caches]
    pos = torch.tensor([5])
    with torch.no_grad():
        _, written = module(torch.tensor([[1], [2]]), pos, *caches)
    for i, (after, start) in enumerate(zip(caches, before)):
        changed = (after != start).any(dim=3).any(dim=1).any(dim=0).nonzero().flatten().tolist()
        check(changed == [5], f"cache {i}: the step changed positions {changed}, expected [5]")
        check(torch.equal(written[i], after.index_select(2, pos)), f"cache {i}: the written output is not its row 5")

    out = os.path.join(work_dir, "out")
    run = run_graphbench(graphbench, os.path.join(models, "suite.json"), out, "--sweep", "batch=1,2")
    check(run.returncode == 0, f"graphbench run: exit {run.returncode}, {run.stdout[-2000:]} {run.stderr[-2000:]}")
    records = read_records(out)
    got = sorted((r["case"], r["variant"], r["status"]) for r in records)
    want = sorted((f"{case['name']}[batch={b}]", v, "ok") for b in (1, 2) for v in ("eager", "static"))
    check(got == want, f"records {got}, expected {want}")
    for r in records:
        if r["variant"] == "static":
            check(r.get("max_abs_error") == 0.0, f"{r['case']}/static: max_abs_error {r.get('max_abs_error')}, "
                                                 "expected 0 (the same cache, the same step)")

    # The cache's length, swept: the traced step reads it from the cache tensors, so one file takes any.
    out = os.path.join(work_dir, "out-cache")
    run = run_graphbench(graphbench, os.path.join(models, "suite.json"), out, "--sweep", "cache=8,64")
    check(run.returncode == 0, f"graphbench run --sweep cache: exit {run.returncode}, {run.stdout[-2000:]} "
                               f"{run.stderr[-2000:]}")
    records = read_records(out)
    got = sorted((r["case"], r["variant"], r["status"]) for r in records)
    want = sorted((f"{case['name']}[cache={n}]", v, "ok") for n in (8, 64) for v in ("eager", "static"))
    check(got == want, f"records {got}, expected {want}")
    roofline = {}
    for r in records:
        length = (r.get("sweep") or {}).get("value")
        shapes = [spec["shape"] for spec in r["params"]["inputs"] if spec.get("role") == "state"]
        check(r["sweep"]["axis"] == "cache" and shapes == [[2, 2, length, 16]] * 4,
              f"{r['case']}/{r['variant']}: sweep {r.get('sweep')}, state shapes {shapes}")
        roofline[length] = r["roofline"]["bytes"]
        if r["variant"] == "static":
            check(r.get("max_abs_error") == 0.0, f"{r['case']}/static: max_abs_error {r.get('max_abs_error')}")
    # The step reads its whole cache: 4 caches of [2, 2, L, 16] float32 more at 64 than at 8.
    check(roofline.get(64, 0) - roofline.get(8, 0) == 4 * 2 * 2 * (64 - 8) * 16 * 4,
          f"the roofline's bytes at cache 8 and 64: {roofline}")
    # The callable marks its position input (its "position"): a length that does not hold it is
    # refused before anything runs.
    check(case["inputs"][1] == {"shape": [1], "dtype": "int64", "range": [5, 6], "position": True},
          f"the suite's position input: {case['inputs'][1]}")
    run = run_graphbench(graphbench, os.path.join(models, "suite.json"), os.path.join(work_dir, "out-short"),
                         "--sweep", "cache=5,64")
    check(run.returncode == 2 and "suite.json" in run.stderr and
          "at cache=5: /inputs/1/range: a cache of 5 positions (/inputs/2) does not hold the step's position 5" in
          run.stderr,
          f"a cache too short for the position: exit {run.returncode}, {run.stderr[-2000:]}")

    bad = os.path.join(work_dir, "bad_state.py")
    with open(bad, "w", encoding="utf-8") as f:
        f.write("import torch\n\n\ndef make_model(batch=1):\n"
                "    return {'model': torch.nn.Identity(), 'inputs': (torch.zeros(batch, 2, dtype=torch.int64),),\n"
                "            'ranges': {0: (0, 4)}, 'state': {0: {'seed': 1}}}\n")
    run = export(source_dir, f"py:{bad}:make_model", "--format", "pt", "--dry-run", "-o", os.path.join(work_dir, "b"))
    check(run.returncode == 2 and "bad_state.py:make_model: state names input 0, which is int64" in run.stderr,
          f"a state on an int64 input: exit {run.returncode}, {run.stderr}")
    return finish("check_cache_state_torch.py")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print("usage: check_cache_state_torch.py SOURCE_DIR WORK_DIR GRAPHBENCH", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
