"""Python PyTorch's best at graphbench's early_exit workload (bench/early_exit.cpp, configs/control-flow.json),
to put beside graphbench's eager, graph (broken at each exit) and conditional (one graph of IF nodes)
figures from the same call.

    python3 scripts/python_control_flow_baseline.py [--thresholds 0,0.999,2] [--samples 30] [--output FILE]

The same model (six residual blocks of width 512, a head after each; a step stops at the first head
whose softmax confidence is above the threshold), per threshold: eager (`.item()` at each exit),
reduce-overhead (torch.compile breaks the graph at each `.item()` and CUDA-graphs the regions
between) and make_graphed_callables (each block and its head graphed, the host reading the
confidence between them: graphbench's `graph` form). Each variant is checked against eager before
it is timed (peers/timing.py). Output: JSON and a Markdown table. Exit codes: 0 written, 1 no CUDA
device, 2 bad arguments.
"""

import argparse
import sys

from .. import suites
from .timing import time_median_us

torch = None


def build_model(width, classes, blocks, seed=0):
    gen = torch.Generator().manual_seed(seed)
    layers = []
    for k in range(blocks):
        block = torch.nn.Linear(width, width)
        head = torch.nn.Linear(width, classes)
        with torch.no_grad():
            block.weight.copy_(torch.randn(width, width, generator=gen) / width ** 0.5)
            block.bias.copy_(torch.randn(width, generator=gen) * 0.1)
            head.weight.copy_(torch.randn(classes, width, generator=gen) * 0.05 * (k + 1))
            head.bias.zero_()
        layers.append((block, head))
    return layers


def make_module(layers, threshold):
    class Model(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = torch.nn.ModuleList([b for b, _ in layers])
            self.heads = torch.nn.ModuleList([h for _, h in layers])

        def forward(self, x):
            for k in range(len(self.blocks)):
                x = x + torch.relu(self.blocks[k](x))
                logits = self.heads[k](x)
                if k + 1 < len(self.blocks) and torch.softmax(logits, -1).amax().item() > threshold:
                    return logits, k + 1
            return logits, len(self.blocks)

    return Model().cuda().eval().requires_grad_(False)


def graphed_pieces(model, x):
    """Each block and its head as one graphed callable; the host decides between them."""

    class Piece(torch.nn.Module):
        def __init__(self, block, head):
            super().__init__()
            self.block, self.head = block, head

        def forward(self, h):
            h = h + torch.relu(self.block(h))
            logits = self.head(h)
            return h, logits, torch.softmax(logits, -1).amax()

    sample = x.clone()
    graphed = []
    for p in (Piece(b, h) for b, h in zip(model.blocks, model.heads)):
        graphed.append(torch.cuda.make_graphed_callables(p, (sample,)))
        with torch.no_grad():
            sample = p(sample)[0].clone()
    return graphed


def run(options):
    global torch
    import torch

    if not torch.cuda.is_available():
        print("python_control_flow_baseline.py: no CUDA device", file=sys.stderr)
        return 1
    torch.manual_seed(0)
    x = torch.randn(options.batch, options.width, device="cuda")
    layers = build_model(options.width, options.classes, options.blocks)
    results = []
    for threshold in options.thresholds:
        model = make_module(layers, threshold)
        pieces = graphed_pieces(model, x)  # inference: no parameter needs a gradient
        with torch.no_grad():
            want_logits, want_depth = model(x)
            compiled = torch.compile(model, mode="reduce-overhead")

            def by_pieces():
                h = x
                for k, piece in enumerate(pieces):
                    h, logits, confidence = piece(h)
                    if k + 1 < len(pieces) and confidence.item() > threshold:
                        return logits, k + 1
                return logits, len(pieces)

            variants = {"eager": lambda: model(x), "reduce-overhead": lambda: compiled(x),
                        "make_graphed_callables": by_pieces}
            for name, step in variants.items():
                entry = {"threshold": threshold, "variant": name}
                try:
                    for _ in range(3):
                        logits, depth = step()
                    ok = depth == want_depth and torch.allclose(logits, want_logits, rtol=1e-4, atol=1e-5)
                    entry.update(depth=depth, matches_eager=bool(ok))
                    if ok:
                        entry.update(time_median_us(step, options))
                except Exception as e:  # one variant's failure is recorded, the others still run
                    entry["error"] = f"{type(e).__name__}: {e}"[:500]
                results.append(entry)
    report = {"environment": {"torch": torch.__version__, "cuda": torch.version.cuda,
                              "gpu": torch.cuda.get_device_name()},
              "model": {"batch": options.batch, "width": options.width, "classes": options.classes,
                        "blocks": options.blocks},
              "results": results}
    if options.output:
        suites.write_json(options.output, report, compact=False)
    print("| threshold | variant | depth | median (us) |\n|--:|---|--:|--:|")
    for r in results:
        median = f"{r['median_us']:.1f}" if "median_us" in r else r.get("error", "does not match eager")
        print(f"| {r['threshold']} | {r['variant']} | {r.get('depth', '-')} | {median} |")
    return 0


def main(argv):
    parser = argparse.ArgumentParser(prog="python_control_flow_baseline.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--thresholds", default="0,0.999,2", help="comma-separated exit thresholds")
    for name, default in (("batch", 32), ("width", 512), ("classes", 10), ("blocks", 6), ("samples", 30),
                          ("warmup", 20)):
        parser.add_argument(f"--{name}", type=int, default=default)
    parser.add_argument("--min-sample-ms", type=float, default=1.0)
    parser.add_argument("--output", default="", help="write the figures as JSON here")
    options = parser.parse_args(argv)
    try:
        options.thresholds = [float(t) for t in options.thresholds.split(",")]
    except ValueError:
        parser.error(f"--thresholds: expected comma-separated numbers, got {options.thresholds!r}")
    return run(options)
