"""Python PyTorch's figures for the steps graphbench times, to put beside graphbench's in one run.

    python3 scripts/python_replay_baseline.py [--cases gelu-small,gelu-large,linear-dropout-small,mnist-step]
                                              [--samples 40] [--output python-baseline.json]

Timed as graphbench times them: blocks of back-to-back steps of about 1 ms between two CUDA events,
one sample of every variant per round (interleaved), the median per step, the host's issue time per
step beside it (issue_median_us), and the steps queued behind a holding kernel (back_to_back_us).
Variants: eager, graph:replay (g.replay() with the input already in place, as PyTorch's CUDA Graphs
blog times it) and graph (the input copied in first); for the GELU cases (the blog's five-op GELU)
also jit (torch.jit.script) and native (F.gelu) with and without a graph, and copy (the memory
floor); linear-dropout-small and mnist-step are one training step each.
Output: JSON, the environment and one entry per (case, variant). Exit codes: 0 written, 1 no CUDA
device, 2 bad arguments.
"""

import argparse
import json
import math
import statistics
import sys
import time

from .. import suites
from .timing import capture, mnist_net, wall_seconds

torch = None  # imported by main(): every case builds on it


def gelu_five_ops(x):
    return x * 0.5 * (1.0 + torch.erf(x / 1.41421))


def graph_variants(prefix, step_fn, static_inputs, fresh_inputs, warmup=5):
    """{name: step} for a captured step: replay alone, and copy-then-replay."""
    graph, _ = capture(step_fn, warmup)

    def feed_and_replay():
        for static, fresh in zip(static_inputs, fresh_inputs):
            static.copy_(fresh, non_blocking=True)
        graph.replay()

    name = prefix + "graph" if prefix == "" else prefix + "+graph"
    return {name + ":replay": graph.replay, name: feed_and_replay}


def gelu_case(shape):
    x = torch.randn(shape, device="cuda")
    static_x = x.clone()
    scripted = torch.jit.script(gelu_five_ops)
    for _ in range(10):  # the profiling executor specialises and fuses during its first runs
        scripted(static_x)
    out = torch.empty_like(x)
    variants = {
        "eager": lambda: gelu_five_ops(x),
        "jit": lambda: scripted(x),
        "native": lambda: torch.nn.functional.gelu(x),
        "copy": lambda: out.copy_(x),
    }
    for prefix, fn in (("", gelu_five_ops), ("jit", scripted), ("native", torch.nn.functional.gelu)):
        variants.update(graph_variants(prefix, lambda fn=fn: fn(static_x), [static_x], [x]))
    return variants


def training_case(model, make_batch, loss_fn, lr, momentum=0.0):
    data, target = make_batch()
    static_data, static_target = data.clone(), target.clone()
    optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=momentum)

    def step(x, y):
        def run():
            optimizer.zero_grad(set_to_none=True)  # in the capture too: backward allocates the grads from its pool
            loss_fn(model(x), y).backward()
            optimizer.step()
        return run

    return {"eager": step(data, target), **graph_variants("", step(static_data, static_target),
                                                         [static_data, static_target], [data, target], warmup=3)}


def linear_dropout_case():
    model = torch.nn.Sequential(torch.nn.Linear(128, 256), torch.nn.Dropout(0.2), torch.nn.Linear(256, 16),
                                torch.nn.Dropout(0.1)).cuda()
    batch = lambda: (torch.randn(32, 128, device="cuda"), torch.randn(32, 16, device="cuda"))
    return training_case(model, batch, torch.nn.functional.mse_loss, lr=0.1)


def mnist_case():
    batch = lambda: ((torch.rand(64, 1, 28, 28, device="cuda") - 0.1307) / 0.3081,
                     torch.randint(0, 10, (64,), device="cuda"))
    return training_case(mnist_net().cuda().train(), batch, torch.nn.functional.nll_loss, lr=0.01, momentum=0.5)


MAKERS = {"gelu-small": lambda: gelu_case((1, 3, 224, 224)), "gelu-large": lambda: gelu_case((32, 3, 224, 224)),
          "linear-dropout-small": linear_dropout_case, "mnist-step": mnist_case}


def steps_for(step, min_block_s):
    """Steps per sample so that a block lasts about min_block_s (graphbench's calibration)."""
    steps = 1
    while True:
        block = wall_seconds(step, steps)
        if block >= min_block_s or steps >= 1 << 20:
            return max(1, math.ceil(min_block_s / max(block / steps, 1e-9)))
        factor = min(10.0, 1.2 * min_block_s / block) if block > 0 else 10.0
        steps = max(steps + 1, int(steps * factor))


def sample(step, steps, begin, end):
    torch.cuda.synchronize()
    begin.record()
    start = time.perf_counter()
    for _ in range(steps):
        step()
    issued = time.perf_counter() - start
    end.record()
    end.synchronize()
    return begin.elapsed_time(end) * 1000.0 / steps, issued * 1e6 / steps


def back_to_back(step, device_us, issue_us, samples=5, tries=5):
    """Device time per step with the steps queued behind a holding kernel (torch.cuda._sleep), planned
    and checked as graphbench's back_to_back_us; None when the steps cannot be queued ahead."""
    steps = min(200, max(10, math.ceil(200.0 / device_us))) if device_us > 0 else 200
    hold_us = 2.0 * issue_us * steps + 50.0
    clock_mhz = getattr(torch.cuda.get_device_properties(0), "clock_rate", 0) / 1000.0 or 2000.0
    begin, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    figures = []
    for _ in range(samples):
        for _ in range(tries):
            torch.cuda.synchronize()
            torch.cuda._sleep(int(hold_us * clock_mhz))
            begin.record()
            for _ in range(steps):
                step()
            end.record()
            held = not begin.query()
            end.synchronize()
            if held:
                figures.append(begin.elapsed_time(end) * 1000.0 / steps)
                break
            hold_us *= 2.0
            steps = max(1, steps // 2)
        else:
            return None
    return statistics.median(figures)


def time_case(variants, samples, warmup, min_block_s):
    names = list(variants)
    for name in names:
        for _ in range(warmup):
            variants[name]()
    steps = {name: steps_for(variants[name], min_block_s) for name in names}
    device = {name: [] for name in names}
    issue = {name: [] for name in names}
    begin, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    for r in range(samples):
        for k in range(len(names)):
            name = names[(r + k) % len(names)]  # rotated, as graphbench's rounds
            d, i = sample(variants[name], steps[name], begin, end)
            device[name].append(d)
            issue[name].append(i)
    out = []
    for name in names:
        median, issued = statistics.median(device[name]), statistics.median(issue[name])
        out.append({"variant": name, "steps_per_sample": steps[name], "median_us": median,
                    "issue_median_us": issued, "back_to_back_us": back_to_back(variants[name], median, issued),
                    "samples_us": device[name]})
    return out


def main(argv):
    parser = argparse.ArgumentParser(prog="python_replay_baseline.py", description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default=",".join(MAKERS), help="comma-separated, of: " + ", ".join(MAKERS))
    parser.add_argument("--samples", type=int, default=40, help="samples per variant (default 40)")
    parser.add_argument("--warmup", type=int, default=20, help="untimed steps per variant (default 20)")
    parser.add_argument("--min-sample-ms", type=float, default=1.0, help="length of one sample (default 1 ms)")
    parser.add_argument("--output", default="", help="JSON file to write (default: standard output)")
    args = parser.parse_args(argv)
    global torch
    try:
        import torch
    except ImportError:
        print("python_replay_baseline.py: PyTorch is not installed", file=sys.stderr)
        return 1
    cases = [c for c in args.cases.split(",") if c]
    unknown = [c for c in cases if c not in MAKERS]
    if unknown or args.samples < 1 or args.warmup < 0 or not args.min_sample_ms > 0:
        print(f"python_replay_baseline.py: bad arguments (unknown cases: {unknown})", file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("python_replay_baseline.py: no CUDA device", file=sys.stderr)
        return 1
    torch.manual_seed(1)
    props = torch.cuda.get_device_properties(0)
    out = {"tool": "python_replay_baseline.py", "torch_version": torch.__version__, "cuda": torch.version.cuda,
           "gpu_name": props.name, "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
           "method": "CUDA events around blocks of back-to-back steps, interleaved rounds, median per step",
           "records": []}
    for case in cases:
        for entry in time_case(MAKERS[case](), args.samples, args.warmup, args.min_sample_ms / 1000.0):
            entry["case"] = case
            out["records"].append(entry)
            b2b = entry["back_to_back_us"]
            print(f"{case:22s} {entry['variant']:22s} {entry['median_us']:10.2f} us  "
                  f"(host {entry['issue_median_us']:.2f} us, back to back "
                  f"{'-' if b2b is None else f'{b2b:.2f}'} us)", file=sys.stderr)
    text = json.dumps(out, indent=1)
    if args.output:
        suites.write_whole(args.output, text + "\n")
    else:
        print(text)
    return 0
