#!/usr/bin/env python3
"""The exporter's torch.export and AOTInductor paths with a real PyTorch 2, on the CPU (AOTInductor
compiles for the CPU too): examples/tiny_decode.py, a decoding step whose KV cache is state,
exported by scripts/export_model.py as one AOTInductor package for every batch up to 4
(--dynamic-batch, torch.export's Dim on the batch of the tokens and of every cache); the package
holds the weights only, its manifest and the suite say what the exporter promised (the caches as
state inputs, the dynamic batch); loaded by PyTorch in a process of its own, the package gives the
model's outputs and writes the caller's caches at the step's position and nowhere else (the
exported program's list of mutated inputs once came back empty: the cache must really be written);
and graphbench built against the same LibTorch runs it swept over batch 1, 2 and 4 (on the CPU the
aoti workload runs eagerly: its graph variant needs a GPU). A graphbench without AOTInductor's
loader (LibTorch before 2.6) must skip every variant, naming why.

Exit code 77 (skipped) where this Python has no PyTorch with torch.export and AOTInductor's
packages (PyTorch 2.6 and later).

    check_export_pt2_torch.py SOURCE_DIR WORK_DIR GRAPHBENCH
"""

import json
import os
import subprocess
import sys
import time
import zipfile

from check_support import SKIP, check, export, finish, has_torch, read_records, run_graphbench, fresh_dir

EXAMPLE = "py:examples/tiny_decode.py:make_model"
PROG = "check_export_pt2_torch.py"

# Run in a process of its own (a crash of the loader is a failed check, not a lost test): the
# package against the model it was made from, on batch 2, and what it wrote into the caches.
PROBE = """
import json, sys, torch, torch._inductor
from torch.utils._pytree import tree_leaves
package, source_dir = sys.argv[1:3]
from examples import tiny_decode
made = tiny_decode.make_model(batch=2)
tokens, pos, *caches = made["inputs"]
start = [c.clone() for c in caches]
mine = [c.clone() for c in caches]
with torch.no_grad():
    want = tree_leaves(made["model"](tokens, pos, *mine))
    got = tree_leaves(torch._inductor.aoti_load_package(package)(tokens, pos, *caches))
print(json.dumps({
    "outputs": [len(want), len(got)],
    "max_output_error": max(float((a - b).abs().max()) for a, b in zip(want, got)),
    "changed_positions": [(c != s).any(dim=3).any(dim=1).any(dim=0).nonzero().flatten().tolist()
                          for c, s in zip(caches, start)],
    "max_cache_error": max(float((c - m).abs().max()) for c, m in zip(caches, mine)),
}))
"""


def has_aoti_packages():
    import torch

    try:
        import torch._inductor  # noqa: F401
    except ImportError:
        return False
    return hasattr(torch, "export") and hasattr(torch._inductor, "aoti_compile_and_package")


def libtorch_version(graphbench):
    """The LibTorch version `graphbench --version` names, as a tuple of ints."""
    out = subprocess.run([graphbench, "--version"], capture_output=True, text=True).stdout
    text = out.split("LibTorch", 1)[1].strip().split()[0] if "LibTorch" in out else "0"
    return tuple(int(p) for p in text.split("+")[0].rstrip(",)").split(".")[:2] if p.isdigit())


def main(source_dir, work_dir, graphbench):
    if not has_torch(PROG):
        return SKIP
    if not has_aoti_packages():
        import torch

        print(f"{PROG}: skipped: PyTorch {torch.__version__} has no torch.export with AOTInductor packages")
        return SKIP
    source_dir = os.path.abspath(source_dir)
    fresh_dir(work_dir)
    models = os.path.join(work_dir, "models")

    started = time.monotonic()
    run = export(source_dir, EXAMPLE, "--batch", "2", "--format", "pt2", "--device", "cpu", "--dynamic-batch", "4",
                 "-o", models)
    check(run.returncode == 0, f"AOTInductor export of the decoding step: exit {run.returncode}, {run.stderr[-3000:]}")
    print(f"{PROG}: AOTInductor export in {time.monotonic() - started:.1f} s")
    if run.returncode != 0:
        return finish(PROG)

    with open(os.path.join(models, "suite.json"), encoding="utf-8") as f:
        suite = json.load(f)
    cases = suite["cases"]
    check(len(cases) == 1 and cases[0].get("workload") == "aoti", f"the suite's cases: {cases}")
    case = cases[0]
    state = [spec for spec in case["inputs"] if spec.get("role") == "state"]
    check(len(state) == 4 and all(s["shape"][1:] == [2, 32, 16] and s["dtype"] == "float32" for s in state),
          f"the suite's state inputs: {state}")
    package = os.path.join(models, case["path"])
    with open(package + ".json", encoding="utf-8") as f:
        manifest = json.load(f)
    check(manifest.get("dynamic_batch") == 4, f"the manifest's dynamic_batch: {manifest.get('dynamic_batch')}")
    times = manifest.get("export_times") or {}
    check(all(k in times for k in ("export_s", "inductor_s", "total_s")), f"the manifest's export_times: {times}")

    # The package: AOTInductor's layout, a library compiled for the CPU, and the inputs the exporter
    # recorded in its metadata (graphbench refuses a case whose inputs differ).
    with zipfile.ZipFile(package) as z:
        names = z.namelist()
    check(any(n.endswith(".so") for n in names), f"no compiled library in the package: {names[:20]}")
    # The cache is the step's state: the package's weights are far smaller than one batch-4 cache would add.
    sizes = manifest.get("sizes") or {}
    check(0 < sizes.get("weights_bytes", 0) < sizes.get("file_bytes", 0), f"the manifest's sizes: {sizes}")

    probe = subprocess.run([sys.executable, "-c", PROBE, package, source_dir], capture_output=True, text=True)
    check(probe.returncode == 0, f"the package run by PyTorch: exit {probe.returncode}, {probe.stderr[-2000:]}")
    if probe.returncode == 0:
        facts = json.loads(probe.stdout.strip().splitlines()[-1])
        check(facts["outputs"][0] == facts["outputs"][1] > 0 and facts["max_output_error"] <= 1e-5,
              f"the package's outputs against the model's: {facts}")
        check(facts["changed_positions"] == [[5]] * 4 and facts["max_cache_error"] <= 1e-5,
              f"the caches the package wrote (expected position 5 of each, as the model writes them): {facts}")

    out = os.path.join(work_dir, "out")
    run = run_graphbench(graphbench, os.path.join(models, "suite.json"), out, "--sweep", "batch=1,2,4")  # eager only here
    records = read_records(out)
    if libtorch_version(graphbench) >= (2, 6):
        check(run.returncode == 0, f"graphbench run: exit {run.returncode}, {run.stdout[-2000:]} {run.stderr[-2000:]}")
        got = sorted((r["case"], r["variant"], r["status"]) for r in records)
        want = sorted((f"{case['name']}[batch={b}]", "eager", "ok") for b in (1, 2, 4))
        check(got == want, f"records {got}, expected {want}")
        for r in records:
            shapes = [spec["shape"] for spec in r["params"]["inputs"] if spec.get("role") == "state"]
            batch = (r.get("sweep") or {}).get("value")
            check(shapes == [[batch, 2, 32, 16]] * 4, f"{r['case']}: the caches' shapes {shapes} at batch {batch}")
    else:
        statuses = {(r["variant"], r["status"]) for r in records}
        check(statuses and all(status == "skipped" for _, status in statuses),
              f"a graphbench without AOTInductor's loader ran the package: {statuses}")
        check(all("AOTInductor" in (r.get("skip_reason") or r.get("reason") or "") for r in records),
              f"the skips do not name the loader: {[r.get('skip_reason') or r.get('reason') for r in records]}")
    return finish(PROG)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print(f"usage: {PROG} SOURCE_DIR WORK_DIR GRAPHBENCH", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
