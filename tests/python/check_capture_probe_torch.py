#!/usr/bin/env python3
"""What cannot be captured, by list and by trying (python/graphbench/capture_probe.py,
python/graphbench/pieces.py's uncapturable): small models, one op each that makes the host wait
(torch.unique, nonzero, masked_select, repeat_interleave without output_size, a boolean mask as
an index, .tolist(), .item(), and a user's own op that reads a value on the host), and ops that do
not (relu, repeat_interleave by an integer, index_select).

    check_capture_probe_torch.py SOURCE_DIR WORK_DIR [GRAPHBENCH] [--device]

Without --device (the CPU): graphbench's list names each op the device would, the user's own op
aside (the list cannot know it); examples/unique_tower.py is split around unique by
export_model.py --scope auto, the output saying the list judged it, the MLP after the rows spread
back by the inverse captured; examples/early_exit.py exits after one block or runs all six as its
inputs say, and --scope auto splits it at its branches, naming each with its line. With --device (a [cuda] test): the same models run on the GPU under
CUDA's sync debug mode, and the device's answer must equal the list's for every model (and name
the user's own op, which the list misses); the unique tower's split says the device judged it.
Exit code 77 (skipped) without PyTorch, or with --device where there is no CUDA device.
"""

import json
import os
import sys

from check_support import SKIP, case_named, check, export, finish, fresh_dir, has_torch

PROG = "check_capture_probe_torch.py"
TOWER = "py:examples/unique_tower.py:make_model"
SOURCE = [""]  # the source folder, set by main


def models():
    """{name: (module, inputs on the CPU, whether the device must find something)}."""
    import torch
    from torch import nn

    class Op(nn.Module):
        """fn(linear(x), aux): `aux`, a buffer, goes to the device with the model (a tensor made from
        host values inside forward would be a copy the sync debug mode stops at)."""

        def __init__(self, fn, aux=None):
            super().__init__()
            self.fn = fn
            self.lin = nn.Linear(8, 8)
            self.register_buffer("aux", torch.zeros(1, dtype=torch.long) if aux is None else aux)

        def forward(self, x):
            return self.fn(self.lin(x), self.aux)

    @torch.library.custom_op("graphbench_test::clip_by_max", mutates_args=())
    def clip_by_max(x: torch.Tensor) -> torch.Tensor:
        bound = float(x.abs().max().item())  # the user's own op reads a value on the host
        return x / max(bound, 1.0)

    @clip_by_max.register_fake
    def _(x):
        return torch.empty_like(x)

    x = torch.randn(4, 8)
    counts, rows = torch.tensor([1, 2, 0, 3]), torch.tensor([2, 0])
    return {
        "unique": (Op(lambda y, a: torch.unique(y.round())), [x], True),
        "nonzero": (Op(lambda y, a: (y > 0).nonzero()), [x], True),
        "masked_select": (Op(lambda y, a: y.masked_select(y > 0)), [x], True),
        "repeat_interleave": (Op(lambda y, a: torch.repeat_interleave(y, a, dim=0), counts), [x], True),
        "boolean mask": (Op(lambda y, a: y[y > 0]), [x], True),
        "tolist": (Op(lambda y, a: y * y.sum().tolist()), [x], True),
        "item": (Op(lambda y, a: y * y.sum().item()), [x], True),
        "own op": (Op(lambda y, a: torch.ops.graphbench_test.clip_by_max(y)), [x], True),
        "relu": (Op(lambda y, a: y.relu()), [x], False),
        "repeat_interleave by an integer": (Op(lambda y, a: y.repeat_interleave(2, dim=0)), [x], False),
        "index_select": (Op(lambda y, a: y.index_select(0, a), rows), [x], False),
    }


def answers(model, inputs, device):
    """(the list's {node name: why}, the device's or None) for `model` on `device`."""
    import torch

    from graphbench import capture_probe, pieces

    model = model.to(device)
    inputs = [t.to(device) for t in inputs]
    with torch.no_grad():
        gm = pieces.trace(model, len(inputs))
        values, _ = pieces.record_values(gm, inputs)
        synced = capture_probe.probe(gm, inputs)
    listed = {n.name: why for n, why in pieces.uncapturable(gm, values).items()}
    found = None if synced is None else {n.name: why for n, why in pieces.uncapturable(gm, values, None, synced).items()}
    return listed, found


def check_list(cases):
    for name, (model, inputs, syncs) in cases.items():
        listed, found = answers(model, inputs, "cpu")
        check(found is None, f"{name}: the probe answers on the CPU ({found}); it must leave it to the list")
        if name == "own op":
            check(not listed, f"{name}: the list names a user's own op it cannot know: {listed}")
        else:
            check(bool(listed) == syncs, f"{name}: the list says {listed or 'capturable'}; expected "
                  f"{'something it cannot capture' if syncs else 'capturable'}")


def check_synced_reading():
    """uncapturable's reading of a device answer, on the CPU: the unique tower with its unique node
    said to synchronize (what the probe reports on a GPU) leaves the same nodes eager as the list,
    the MLP after the gather by the inverse captured, and each reason says the device found it."""
    import importlib.util

    import torch

    from graphbench import pieces

    spec = importlib.util.spec_from_file_location("unique_tower", os.path.join(SOURCE[0], "examples", "unique_tower.py"))
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    made = example.make_model(batch=8)
    with torch.no_grad():
        gm = pieces.trace(made["model"], 1)
        values, _ = pieces.record_values(gm, list(made["inputs"]))
    unique = next(n for n in gm.graph.nodes if pieces.op_name(n) == "unique")
    synced = {unique: "called a synchronizing CUDA operation (as the probe says)"}
    listed = {n.name for n in pieces.uncapturable(gm, values)}
    read = pieces.uncapturable(gm, values, None, synced)
    check({n.name for n in read} == listed, f"a device answer read as the list is: {sorted(n.name for n in read)} "
          f"against {sorted(listed)}")
    check(all("found on the device" in why for why in read.values()), f"the reasons say the device found it: {read}")
    check(not any(n.target == "mlp.0" or str(n.target).startswith("mlp") for n in read),
          f"the MLP after the gather by the inverse is captured: {sorted(n.name for n in read)}")


def check_device(cases):
    for name, (model, inputs, syncs) in cases.items():
        listed, found = answers(model, inputs, "cuda")
        check(found is not None, f"{name}: no answer from the device")
        if found is None:
            continue
        check(bool(found) == syncs, f"{name}: the device says {found or 'capturable'}; expected "
              f"{'an op that synchronizes' if syncs else 'capturable'}")
        check(all("found on the device" in why for why in found.values() if "synchroniz" in why or "device" in why),
              f"{name}: the device's reasons {found}")
        if name == "own op":
            check(bool(found) and not listed, f"{name}: the device finds the user's own op ({found}), the list "
                  f"does not ({listed})")
        else:
            # The list is held to the device: the same nodes, the same shape of answer.
            check(set(listed) == set(found), f"{name}: the list ({sorted(listed)}) and the device ({sorted(found)}) "
                  "disagree on what cannot be captured")
        print(f"{PROG}: {name}: device {sorted(found) or 'capturable'}")


def check_tower(source_dir, work, on_device):
    out = os.path.join(work, "tower")
    fresh_dir(out)
    p = export(source_dir, TOWER, "--batch", "32", "--scope", "auto", "--device", "cuda" if on_device else "cpu",
               "-o", out)
    check(p.returncode == 0, f"the unique tower's --scope auto export failed ({p.returncode}): {p.stderr[-2000:]}")
    said = "found on the device" if on_device else "no GPU here"
    check(said in p.stderr, f"the export does not say how it judged capturability ({said!r}): {p.stderr[-1500:]}")
    if p.returncode != 0:
        return
    with open(os.path.join(out, "suite.json")) as f:
        suite = json.load(f)
    case = case_named(suite, "py-unique_tower-make_model-b32-pt-auto")
    check(case is not None, f"no case of the tower's auto pieces: {[c['name'] for c in suite['cases']]}")
    if case:
        tags = [(p["capturable"], p.get("reason", "")) for p in case["pieces"]]
        check([c for c, _ in tags] == [False, True], f"the tower split around unique: {tags}")
        check("unique" in tags[0][1], f"the eager piece's reason names unique: {tags[0][1]!r}")
        check(case.get("sweep") == {"scope": ["full", "auto"]}, f"the case runs auto beside full: {case.get('sweep')}")


def check_early_exit(source_dir, work):
    """examples/early_exit.py: each outcome forced by its inputs (all six blocks at scale 1, one at
    scale 10); --scope auto splits it at its branches, naming each with its source line."""
    import importlib.util

    import torch

    spec = importlib.util.spec_from_file_location("early_exit", os.path.join(source_dir, "examples", "early_exit.py"))
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    for scale, blocks in ((1.0, 6), (10.0, 1)):
        made = example.make_model(scale=scale)
        ran = []
        hooks = [b.register_forward_hook(lambda *_: ran.append(1)) for b in made["model"].blocks]
        with torch.no_grad():
            made["model"](*made["inputs"])
        for h in hooks:
            h.remove()
        check(len(ran) == blocks, f"early_exit at scale {scale}: {len(ran)} blocks ran, expected {blocks}")
    out = os.path.join(work, "early-exit")
    fresh_dir(out)
    p = export(source_dir, "py:examples/early_exit.py:make_model", "--batch", "4", "--scope", "auto",
               "--device", "cpu", "-o", out)
    # A branch on .item() in the model's own forward is split there (branches.py), each branch named with its line.
    check(p.returncode == 0 and "split there into 6 pieces and 7 paths" in p.stderr, f"early_exit --scope auto: exit "
          f"{p.returncode}, expected 0 (split at its branches): {p.stderr[-1500:]}")
    check("branch at examples/early_exit.py:42 `if logits.softmax(-1).amax().item() > self.threshold:`" in p.stderr,
          f"the split names the branch and its line: {p.stderr[-1500:]}")


def main(argv):
    if len(argv) < 2:
        print(f"usage: {PROG} SOURCE_DIR WORK_DIR [GRAPHBENCH] [--device]", file=sys.stderr)
        return 2
    source_dir, work = argv[0], argv[1]
    on_device = "--device" in argv
    if not has_torch(PROG):
        return SKIP
    import torch

    if not (hasattr(torch, "library") and hasattr(torch.library, "custom_op")):
        print(f"{PROG}: skipped: needs torch.library.custom_op (PyTorch 2.4 or later)")
        return SKIP
    if on_device and not torch.cuda.is_available():
        print(f"{PROG}: skipped: --device needs a CUDA device (none here)")
        return SKIP
    SOURCE[0] = source_dir
    fresh_dir(work)
    cases = models()
    if on_device:
        check_device(cases)
    else:
        check_list(cases)
        check_synced_reading()
        check_early_exit(source_dir, work)
    check_tower(source_dir, work, on_device)
    return finish(PROG)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
