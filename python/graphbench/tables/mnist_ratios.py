"""The MNIST targets, from the results of an eager run and a graph run of the tutorial's case
(`graphbench --workload mnist`, and with --use-train-graph: one training record each).

  scripts/mnist_ratios.py EAGER_RESULTS_JSON GRAPH_RESULTS_JSON [--tutorial-times FILE]

Prints where each run's time went and checks: the graph run's training time within 5% of its steps
times its median step; the end-to-end speedup within 10% of the per-step speedup (a NOTE gives it
without the libraries' one-time first calls); the final accuracies within 0.5 points; and with
--tutorial-times (lines "eager SECONDS", "graph SECONDS": the tutorial's own program timed whole)
the graph run at least 2.5x faster than the tutorial's graphed program.
Exit status: 0 when every check holds, 1 when one fails, 2 on bad input.
"""
import argparse

from ..errors import BadInput
from ..results import read_results


def training_record(path):
    """The one ok training record of the results file at `path`, and its environment."""
    results = read_results(path)
    records = [r for r in results.records if r.get("training") and r.ok]
    if len(records) != 1:
        raise BadInput(f"{path}: /records: expected one ok training record, found {len(records)}")
    if "train_seconds" not in records[0]["training"]:
        raise BadInput(f"{path}: /records/training/train_seconds: missing (written by an older graphbench)")
    return records[0], results.environment


def tutorial_times(path):
    times = {}
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                parts = line.split()
                if len(parts) == 2 and parts[0] in ("eager", "graph"):
                    times[parts[0]] = float(parts[1])
    except (OSError, ValueError) as e:
        raise BadInput(f"{path}: cannot read the tutorial's times ({e})")
    return times


def breakdown(name, t):
    parts = [("load", "load_seconds"), ("setup", "setup_seconds"), ("capture", "capture_seconds"),
             ("training", "train_seconds"), ("testing", "test_seconds"), ("other", "other_seconds")]
    text = ", ".join(f"{label} {t.get(key, 0):.3f} s" for label, key in parts)
    graphs = t.get("graph_capture_seconds") or 0
    if graphs > 0:
        text += f"; of capture, {graphs:.3f} s captured and instantiated the graphs"
    first = t.get("first_calls_seconds") or 0
    if first > 0:
        text += f"; the libraries' first calls {first:.3f} s"
    return (f"{name}: total {t['total_seconds']:.3f} s ({text}); decoding {t.get('decode_seconds', 0):.3f} s "
            f"beside setup and capture; device context {t.get('context_seconds', 0):.3f} s before the clock; "
            f"{t['train_steps']} steps, median {t['median_step_us']:.1f} us; data on the {t.get('data_placement', '?')}, "
            f"{t.get('batch_order', '?')} order; final accuracy {t['epochs'][-1]['test_accuracy']:.4f}")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("eager")
    parser.add_argument("graph")
    parser.add_argument("--tutorial-times")
    args = parser.parse_args(argv)

    eager_record, environment = training_record(args.eager)
    graph_record, _ = training_record(args.graph)
    eager, graph = eager_record["training"], graph_record["training"]
    print(f"device: {environment.get('device', '?')}, LibTorch {environment.get('libtorch_version', '?')}")
    print(breakdown(f"eager ({eager['train_executor']})", eager))
    print(breakdown(f"graph ({graph['train_executor']})", graph))

    checks = []
    notes = []  # figures beside the targets, not targets
    steps_time = graph["train_steps"] * graph["median_step_us"] * 1e-6
    ratio = graph["train_seconds"] / steps_time
    checks.append((abs(ratio - 1) <= 0.05,
                   f"graph training {graph['train_seconds']:.3f} s vs steps x median step {steps_time:.3f} s: "
                   f"{(ratio - 1) * 100:+.1f}% (target within 5%)"))

    end_to_end = eager["total_seconds"] / graph["total_seconds"]
    per_step = eager["median_step_us"] / graph["median_step_us"]
    checks.append((end_to_end >= 0.9 * per_step,
                   f"end-to-end speedup {end_to_end:.2f}x vs per-step speedup {per_step:.2f}x: "
                   f"{end_to_end / per_step * 100:.1f}% of it (target at least 90%)"))
    first_e, first_g = eager.get("first_calls_seconds"), graph.get("first_calls_seconds")
    if first_e and first_g:
        rest = (eager["total_seconds"] - first_e) / (graph["total_seconds"] - first_g)
        notes.append(f"without the libraries' first calls ({first_e:.3f} s eager, {first_g:.3f} s graph, paid once "
                     f"per process): end-to-end {rest:.2f}x, {rest / per_step * 100:.1f}% of the per-step speedup")

    eager_accuracy = eager["epochs"][-1]["test_accuracy"]
    graph_accuracy = graph["epochs"][-1]["test_accuracy"]
    difference = (graph_accuracy - eager_accuracy) * 100
    checks.append((abs(difference) <= 0.5,
                   f"final accuracy {graph_accuracy:.4f} (graph) vs {eager_accuracy:.4f} (eager): "
                   f"{difference:+.2f} points (target within 0.5)"))

    if args.tutorial_times:
        times = tutorial_times(args.tutorial_times)
        if "graph" in times:
            faster = times["graph"] / graph["total_seconds"]
            checks.append((faster >= 2.5, f"the tutorial's graphed program {times['graph']:.2f} s vs graphbench's graph run "
                                          f"{graph['total_seconds']:.2f} s: {faster:.2f}x faster (target at least 2.5x)"))
        if "eager" in times:
            print(f"the tutorial's eager program: {times['eager']:.2f} s")

    for ok, text in checks:
        print(f"{'PASS' if ok else 'FAIL'}  {text}")
    for text in notes:
        print(f"NOTE  {text}")
    return 0 if all(ok for ok, _ in checks) else 1
