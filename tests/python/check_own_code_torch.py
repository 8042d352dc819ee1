#!/usr/bin/env python3
"""Your own code with a real PyTorch, on the CPU: examples/conv_attention.py exported as TorchScript
by scripts/export_model.py (inference, and a training step with its own loss) at batch 1, run by
graphbench swept over batch 1 and 2 (every case ok, its variants validated against eager; the
training step's labels, one dimension, are batched too), and the bad input that needs tensors
(a model that is no module, inputs that are no tensors, a loss that is no scalar) refused as
without PyTorch (tests/cli/check_own_code.py).

Exit code 77 (skipped) where this Python has no PyTorch (CI's Debian machine without
python3-torch).

    check_own_code_torch.py SOURCE_DIR WORK_DIR GRAPHBENCH
"""

import os
import sys
import time

from check_support import SKIP, check, export, finish, has_torch, read_records, run_graphbench, fresh_dir

EXAMPLE = "py:examples/conv_attention.py:make_model"


def main(source_dir, work_dir, graphbench):
    if not has_torch("check_own_code_torch.py"):
        return SKIP
    source_dir = os.path.abspath(source_dir)
    fresh_dir(work_dir)
    models = os.path.join(work_dir, "models")

    started = time.monotonic()
    run = export(source_dir, EXAMPLE, "--batch", "1", "--format", "pt", "-o", models)
    check(run.returncode == 0, f"export of the example: exit {run.returncode}, {run.stderr}")
    run = export(source_dir, EXAMPLE, "--batch", "1", "--format", "pt", "--mode", "train", "-o", models, "--append")
    check(run.returncode == 0, f"export of the example's training step: exit {run.returncode}, {run.stderr}")
    print(f"check_own_code_torch.py: two exports in {time.monotonic() - started:.1f} s")

    out = os.path.join(work_dir, "out")
    run = run_graphbench(graphbench, os.path.join(models, "suite.json"), out, "--sweep", "batch=1,2")
    check(run.returncode == 0, f"graphbench run: exit {run.returncode}, {run.stdout[-2000:]} {run.stderr[-2000:]}")
    records = read_records(out)
    got = sorted((r["case"], r["variant"], r["status"]) for r in records)
    want = sorted((f"{case}[batch={batch}]", variant, "ok") for case in ("py-conv_attention-make_model-b1-pt",
                                                                          "py-conv_attention-make_model-b1-train-pt")
                  for batch in (1, 2) for variant in ("eager", "static"))
    check(got == want, f"records {got}, expected {want}")
    for r in records:
        if r["variant"] != "eager":
            check(r.get("max_abs_error") is not None, f"{r['case']}/{r['variant']} was not validated against eager")

    bad = "py:tests/cli/own_code/bad_models.py"
    for args, message in (
            ([f"{bad}:not_a_module"], "bad_models.py:not_a_module: returned a value of type object as the model"),
            ([f"{bad}:inputs_not_tensors"], "bad_models.py:inputs_not_tensors: its input 1 is of type list"),
            ([f"{bad}:loss_not_scalar", "--mode", "train"],
             "bad_models.py:loss_not_scalar: its loss returned a float32 tensor of shape [1, 3], expected a scalar")):
        run = export(source_dir, *args, "--dry-run", "-o", os.path.join(work_dir, "bad"))
        check(run.returncode == 2 and message in run.stderr, f"export_model.py {args}: exit {run.returncode}, {run.stderr}")
    return finish("check_own_code_torch.py")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print("usage: check_own_code_torch.py SOURCE_DIR WORK_DIR GRAPHBENCH", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
