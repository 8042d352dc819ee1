"""PyTorch's own figures for the data-parallel training steps of a graphbench suite (Linear+Dropout
and MNIST): DistributedDataParallel, eager and captured whole in torch.cuda.graph, on one rank and on N.

    python3 scripts/python_ddp_baseline.py --config configs/ddp.json --nproc 2 -o python-ddp.json \\
        [--cases ddp-linear-dropout-large] [--graphbench graphbench-out/ddp-n2/results.json]

Each case is built as graphbench builds it (random inputs and weights, `batch` rows per rank) and
timed per rank as eager, graph (replayed on the inputs it was captured with) and graph_copy (each
batch copied into the captured inputs, then replayed: the row to set beside graphbench's graph);
the slowest rank's median is reported, and the scaling efficiency at N is the one-rank step time
over the N-rank one. It starts its ranks itself (torch.distributed.run --standalone): one, then
--nproc. docs/distributed.md, "PyTorch's DDP on the same steps". Writes JSON (-o, whole) and a
Markdown table beside it. Exit codes: 0 done, 1 a run failed (recorded, the others still run),
2 bad input or too few GPUs.
"""

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile

from .. import suites
from ..commands import module_command
from ..results import read_json, read_results
from ..errors import BadInput
from .timing import environment, mnist_net, sample_us

PROG = "python_ddp_baseline.py"
VARIANTS = ("eager", "graph", "graph_copy")
LABELS = {"eager": "eager", "graph": "graph", "graph_copy": "graph, copy + replay"}
# The workload's sizes and their defaults where a case leaves them out, as graphbench's linear_dropout has them.
LAYERS = {"batch": 32, "in_features": 128, "hidden": 256, "out_features": 16}
DEFAULT_LR = 0.1
# The mnist workload's step defaults (the LibTorch example's).
MNIST = {"batch": 64, "lr": 0.01, "momentum": 0.5}


def parse_args(argv):
    p = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("--config", required=True, help="a graphbench suite file (configs/ddp.json)")
    p.add_argument("--cases", help="comma-separated case names (default: every linear_dropout training case)")
    p.add_argument("--nproc", type=int, default=2, help="ranks of the data-parallel run, one GPU each (default 2)")
    p.add_argument("-o", "--output", help="the JSON file to write (the table goes beside it, .md)")
    p.add_argument("--graphbench", help="a graphbench results.json of the same cases (at --nproc), for the table")
    p.add_argument("--samples", type=int, default=30, help="samples per figure (default 30)")
    p.add_argument("--calls", type=int, default=20, help="steps per sample, the same on every rank (default 20)")
    p.add_argument("--warmup", type=int, default=20, help="untimed steps before sampling (default 20)")
    p.add_argument("--worker", help=argparse.SUPPRESS)  # a rank: the JSON of its cases and options
    args = p.parse_args(argv)
    for name in ("nproc", "samples", "calls", "warmup"):
        if getattr(args, name) < 1:
            p.error(f"--{name} must be at least 1")
    return args


def step_cases(path, names=None):
    """The linear_dropout training cases and mnist step cases of suite `path` (the suite's defaults
    applied), in suite order; `names` (a list) selects some and must all be such cases. Raises
    BadInput naming the file and the field."""
    suite = read_json(path, "suite file")
    if not isinstance(suite, dict) or not isinstance(suite.get("cases"), list):
        raise BadInput(f"{path}: /cases: expected a list of cases")
    found = {}
    for i, raw in enumerate(suite["cases"]):
        case = {**suite.get("defaults", {}), **raw}
        train = case.get("mode", "train") == "train"
        mnist = case.get("workload") == "mnist" and train and case.get("kind") != "training"
        if not mnist and (case.get("workload") != "linear_dropout" or not train):
            found.setdefault(case.get("name"), None)
            continue
        sizes = {"batch": MNIST["batch"]} if mnist else LAYERS
        for field, default in sizes.items():
            value = case.setdefault(field, default)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise BadInput(f"{path}: /cases/{i}/{field}: expected a positive integer, got {json.dumps(value)}")
        dropout = [0.5, 0.5] if mnist else case.get("dropout", [0.2, 0.1])
        if not (isinstance(dropout, list) and len(dropout) == 2 and all(isinstance(v, (int, float)) for v in dropout)):
            raise BadInput(f"{path}: /cases/{i}/dropout: expected two probabilities, got {json.dumps(dropout)}")
        if case.get("optimizer", "sgd") != "sgd":
            raise BadInput(f"{path}: /cases/{i}/optimizer: this baseline builds SGD only, got {json.dumps(case['optimizer'])}")
        found[case["name"]] = {
            "name": case["name"], "model": "mnist" if mnist else "linear_dropout", **{f: case[f] for f in sizes},
            "dropout": [float(v) for v in dropout], "lr": float(case.get("lr", MNIST["lr"] if mnist else DEFAULT_LR)),
            "momentum": float(case.get("momentum", MNIST["momentum"] if mnist else 0.0)),
            "weight_decay": 0.0 if mnist else float(case.get("weight_decay", 0.0)),
            "grad_bucket_mb": float(case.get("grad_bucket_mb", 25.0)),
        }
    if names is None:
        names = [name for name, case in found.items() if case is not None]
        if not names:
            raise BadInput(f"{path}: no linear_dropout training case and no mnist step case")
    for name in names:
        if name not in found:
            raise BadInput(f"{path}: --cases: no case named {json.dumps(name)}")
        if found[name] is None:
            raise BadInput(f"{path}: --cases: {json.dumps(name)} is neither a linear_dropout training case nor an "
                           "mnist step case")
    return [found[name] for name in names]


# ---- one rank (started by torch.distributed.run) ----


def samples_us(step, options):
    import torch

    for _ in range(options["warmup"]):
        step()
    torch.cuda.synchronize()
    return [sample_us(step, options["calls"]) for _ in range(options["samples"])]


def ratio_of_medians(numerator, denominator, resamples=2000, seed=0):
    """median(numerator) / median(denominator) and a 95% percentile bootstrap interval, each sample
    set resampled on its own (as graphbench's scaling efficiency is)."""
    rng = random.Random(seed)
    point = statistics.median(numerator) / statistics.median(denominator)
    ratios = sorted(statistics.median(rng.choices(numerator, k=len(numerator))) /
                    statistics.median(rng.choices(denominator, k=len(denominator))) for _ in range(resamples))
    low, high = ratios[int(0.025 * resamples)], ratios[int(0.975 * resamples) - 1]
    return point, [min(low, point), max(high, point)]


def measure_case(case, rank, world, local_rank, options):
    """This rank's eager and graph medians of `case`, and a checksum of its params after them."""
    import torch
    from torch import nn

    torch.manual_seed(0)  # the same initial params on every rank
    mnist = case.get("model") == "mnist"
    model = (mnist_net() if mnist else nn.Sequential(
        nn.Linear(case["in_features"], case["hidden"]), nn.Dropout(case["dropout"][0]),
        nn.Linear(case["hidden"], case["out_features"]), nn.Dropout(case["dropout"][1]))).cuda()
    torch.manual_seed(1000 + rank)  # each rank its own shard
    if mnist:
        x = torch.randn(case["batch"], 1, 28, 28, device="cuda")
        target = torch.randint(0, 10, (case["batch"],), device="cuda")
        loss_fn = nn.NLLLoss()
    else:
        x = torch.randn(case["batch"], case["in_features"], device="cuda")
        target = torch.randn(case["batch"], case["out_features"], device="cuda")
        loss_fn = nn.MSELoss()
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        if world > 1:
            model = nn.parallel.DistributedDataParallel(model, device_ids=[local_rank], bucket_cap_mb=case["grad_bucket_mb"],
                                                        gradient_as_bucket_view=True)
        optimizer = torch.optim.SGD(model.parameters(), lr=case["lr"], momentum=case["momentum"],
                                    weight_decay=case["weight_decay"])

        def step():
            optimizer.zero_grad(set_to_none=True)
            loss = loss_fn(model(x), target)
            loss.backward()
            optimizer.step()
            return loss

        for _ in range(11):  # DDP wants 11 eager steps before a capture
            step()
    torch.cuda.current_stream().wait_stream(side)
    eager = samples_us(step, options)
    graph = torch.cuda.CUDAGraph()
    optimizer.zero_grad(set_to_none=True)
    with torch.cuda.graph(graph):
        loss = step()
    replayed = samples_us(graph.replay, options)
    next_x, next_target = x.clone(), target.clone()  # "the next batch", already on the device

    def copy_and_replay():
        x.copy_(next_x)
        target.copy_(next_target)
        graph.replay()

    copied = samples_us(copy_and_replay, options)
    torch.cuda.synchronize()
    if not torch.isfinite(loss).item():
        raise RuntimeError(f"{case['name']}: the replayed step's loss is {loss.item()}")
    checksum = sum(p.detach().double().sum().item() for p in model.parameters())
    return {"eager_us": statistics.median(eager), "graph_us": statistics.median(replayed),
            "graph_copy_us": statistics.median(copied), "eager_samples_us": eager, "graph_samples_us": replayed,
            "graph_copy_samples_us": copied, "params_checksum": checksum}


def worker(spec_path):
    import torch
    import torch.distributed as dist

    spec = read_json(spec_path, "ranks' spec")
    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    local_rank = int(os.environ.get("LOCAL_RANK", rank))
    torch.cuda.set_device(local_rank)
    if world > 1:
        dist.init_process_group("nccl")
    results = {}
    for case in spec["cases"]:
        mine = measure_case(case, rank, world, local_rank, spec["options"])
        ranks = [mine]
        if world > 1:
            ranks = [None] * world
            dist.all_gather_object(ranks, mine)
        result = {"params_identical": len({r["params_checksum"] for r in ranks}) == 1}
        for v in VARIANTS:
            slowest = max(ranks, key=lambda r: r[f"{v}_us"])
            result[f"{v}_us"], result[f"{v}_samples_us"] = slowest[f"{v}_us"], slowest[f"{v}_samples_us"]
            result[f"{v}_us_per_rank"] = [r[f"{v}_us"] for r in ranks]
        results[case["name"]] = result
        if rank == 0:
            print(f"{PROG}: {case['name']} at N={world}: eager {result['eager_us']:.1f} us, "
                  f"graph {result['graph_us']:.1f} us", file=sys.stderr)
    if rank == 0:
        suites.write_json(spec["output"], results, compact=False)
    if world > 1:
        dist.destroy_process_group()
    return 0


# ---- the launcher ----


def run_ranks(nproc, cases, args, work_dir):
    """The cases at `nproc` ranks: {case: figures}, or an error string when the run failed."""
    spec_path = os.path.join(work_dir, f"spec-n{nproc}.json")
    out_path = os.path.join(work_dir, f"out-n{nproc}.json")
    options = {"samples": args.samples, "calls": args.calls, "warmup": args.warmup}
    suites.write_json(spec_path, {"cases": cases, "options": options, "output": out_path}, compact=False)
    rerun, env = module_command("python_ddp_baseline", "--config", args.config, "--worker", spec_path)
    env.update(TORCH_NCCL_ASYNC_ERROR_HANDLING="0", NCCL_ASYNC_ERROR_HANDLING="0")
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", str(nproc), *rerun]
    print(f"{PROG}: {nproc} rank(s): {' '.join(command)}", file=sys.stderr)
    run = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    sys.stderr.write(run.stdout)
    if run.returncode != 0 or not os.path.exists(out_path):
        tail = " | ".join(run.stdout.strip().splitlines()[-3:])
        return f"the {nproc}-rank run failed (exit code {run.returncode}): {tail}"
    return read_json(out_path, "ranks' figures")


def graphbench_figures(path):
    """{(case, variant): (slowest rank's median us, scaling efficiency or None)} of graphbench's results."""
    figures = {}
    for r in read_results(path).records:
        dp = r.get("data_parallel") or {}
        value = dp.get("slowest_median_us", r.median_us)
        if r.ok and value is not None:
            figures[(r.case, r.variant)] = (value, dp.get("scaling_efficiency"))
    return figures


def combine(cases, one, many, nproc):
    """Per case and variant: the one-rank and N-rank figures and the scaling efficiency."""
    rows = {}
    for case in cases:
        name = case["name"]
        entry = {"batch_per_rank": case["batch"], "grad_bucket_mb": case["grad_bucket_mb"]}
        got1 = one.get(name, {}) if isinstance(one, dict) else {}
        gotn = many.get(name, {}) if isinstance(many, dict) else {}
        for variant in VARIANTS:
            t1, tn = got1.get(f"{variant}_us"), gotn.get(f"{variant}_us")
            s1, sn = got1.get(f"{variant}_samples_us"), gotn.get(f"{variant}_samples_us")
            # With both sets of samples, the ratio of the two medians with its interval.
            efficiency, ci = ratio_of_medians(s1, sn) if s1 and sn else (t1 / tn if t1 and tn else None, None)
            entry[variant] = {"n1_us": t1, f"n{nproc}_us": tn, "scaling_efficiency": efficiency,
                              "scaling_efficiency_ci95": ci}
        if isinstance(many, dict) and name in many:
            entry["params_identical"] = gotn.get("params_identical")
            entry["per_rank"] = {v: gotn.get(f"{v}_us_per_rank") for v in VARIANTS}
        rows[name] = entry
    return rows


def table(rows, nproc, graphbench):
    def us(v):
        return "" if v is None else f"{v:.1f}" if v < 100 else f"{v:.0f}"

    def share(v, ci=None):
        if v is None:
            return ""
        return f"{100 * v:.0f}%" + (f" ({100 * ci[0]:.0f}-{100 * ci[1]:.0f}%)" if ci else "")

    head, rule = "| case | variant | Python N=1 (us) |", "|---|---|--:|"
    if nproc > 1:
        head += f" Python N={nproc}, slowest rank (us) | Python scaling |"
        rule += "--:|--:|"
    if graphbench is not None:
        head += f" graphbench N={nproc}, slowest rank (us) | graphbench scaling |"
        rule += "--:|--:|"
    lines = [head, rule]
    for name, entry in rows.items():
        for variant in VARIANTS:
            e = entry[variant]
            line = f"| {name} | {LABELS[variant]} | {us(e['n1_us'])} |"
            if nproc > 1:
                line += f" {us(e[f'n{nproc}_us'])} | {share(e['scaling_efficiency'], e.get('scaling_efficiency_ci95'))} |"
            if graphbench is not None:
                # graphbench's graph step feeds each step's batch: beside both graph rows.
                step, scaling = graphbench.get((name, "graph" if variant == "graph_copy" else variant), (None, None))
                line += f" {us(step)} | {share(scaling)} |"
            lines.append(line)
    return "\n".join(lines) + "\n"


def main(argv):
    args = parse_args(argv)
    if args.worker:
        return worker(args.worker)
    names = [n for n in args.cases.split(",") if n] if args.cases else None
    cases = step_cases(args.config, names)
    graphbench = graphbench_figures(args.graphbench) if args.graphbench else None
    try:
        import torch
    except ImportError:
        raise BadInput(f"PyTorch is not installed for {sys.executable}: the baseline runs PyTorch's DDP")
    if torch.cuda.device_count() < args.nproc:
        raise BadInput(f"--nproc {args.nproc} needs {args.nproc} CUDA devices, this machine has "
                       f"{torch.cuda.device_count()}")
    with tempfile.TemporaryDirectory(prefix="python-ddp-") as work_dir:
        one = run_ranks(1, cases, args, work_dir)
        many = run_ranks(args.nproc, cases, args, work_dir) if args.nproc > 1 else one
    failures = [r for r in (one, many) if isinstance(r, str)]
    for failure in failures:
        print(f"{PROG}: {failure}", file=sys.stderr)
    rows = combine(cases, one, many, args.nproc)
    markdown = table(rows, args.nproc, graphbench)
    print(markdown)
    if args.output:
        env = environment(nccl=".".join(str(v) for v in torch.cuda.nccl.version()), gpus=torch.cuda.device_count())
        document = {"environment": env, "nproc": args.nproc, "failures": failures, "cases": rows}
        suites.write_json(args.output, document, compact=False)
        suites.write_whole(os.path.splitext(args.output)[0] + ".md", markdown)
    return 1 if failures else 0
