"""One step of two variants on one time axis, from graphbench's traces (--trace DIR).

    python3 scripts/trace_timeline.py EAGER_TRACE GRAPH_TRACE [-o PNG] [--title T] [--step N]

For each Chrome trace (DIR/<case>.<variant>.trace.json), step N drawn as two lanes from its start:
the host's CUDA runtime calls and the device's kernels, copies and memsets, labelled with the
step's duration, its kernels and the share of it the device sat idle; DIR/timeline.png beside the
traces by default. Needs matplotlib. Exit codes: 0 written, 2 bad input, 1 matplotlib missing.
"""

import argparse
import math
import os

from ..errors import BadInput, is_number
from ..results import read_json
from .common import import_pyplot, save_png

PROG = "trace_timeline.py"
HOST_CATEGORIES = ("cuda_runtime", "cuda_driver")
DEVICE_CATEGORIES = ("kernel", "gpu_memcpy", "gpu_memset")
STEP_PREFIX = "graphbench step "


def load_events(path):
    doc = read_json(path, "trace")
    events = doc.get("traceEvents") if isinstance(doc, dict) else doc
    if not isinstance(events, list):
        raise BadInput(f"{path}: expected a Chrome trace (an object with \"traceEvents\", or a list of events)")
    return [e for e in events if isinstance(e, dict) and e.get("ph") == "X" and is_number(e.get("ts"))
            and is_number(e.get("dur"))]


class Step:
    """One traced step: its host window and the host and device events in it."""

    def __init__(self, path, events, number):
        marks = sorted((e for e in events if e.get("name", "").startswith(STEP_PREFIX)
                        and e.get("cat") != "gpu_user_annotation"), key=lambda e: e["ts"])
        wanted = f"{STEP_PREFIX}{number}"
        mark = next((e for e in marks if e["name"] == wanted), None)
        if mark is None:
            found = sorted({e["name"] for e in marks})
            raise BadInput(f"{path}: no \"{wanted}\" range (found: {', '.join(found) or 'none'}; "
                           "a trace written by graphbench --trace has steps 1 to 3)")
        self.start = mark["ts"]
        window_end = min((e["ts"] for e in marks if e["ts"] > mark["ts"]), default=math.inf)
        self.host = [e for e in events if e.get("cat") in HOST_CATEGORIES
                     and self.start <= e["ts"] < mark["ts"] + mark["dur"]]
        self.device = [e for e in events if e.get("cat") in DEVICE_CATEGORIES and self.start <= e["ts"] < window_end]
        self.end = max([mark["ts"] + mark["dur"]] + [e["ts"] + e["dur"] for e in self.device])
        self.kernels = sum(1 for e in self.device if e.get("cat") == "kernel")
        self.launches = sum(1 for e in self.host if "Launch" in e.get("name", ""))
        busy = union_length([(e["ts"], e["ts"] + e["dur"]) for e in self.device])
        self.duration = self.end - self.start
        self.idle_share = 1.0 - busy / self.duration if self.duration > 0 else 0.0


def union_length(spans):
    total, covered = 0.0, -math.inf
    for start, end in sorted(spans):
        total += max(0.0, end - max(start, covered))
        covered = max(covered, end)
    return total


def draw(plt, steps, labels, title, output):
    fig, axes = plt.subplots(len(steps), 1, figsize=(11, 2.2 * len(steps) + 0.8), sharex=True)
    span = max(s.duration for s in steps)
    for ax, step, label in zip(axes, steps, labels):
        for events, lane, color in ((step.host, 1.1, "tab:orange"), (step.device, 0.1, "tab:blue")):
            spans = [(e["ts"] - step.start, e["dur"]) for e in events]
            ax.broken_barh(spans, (lane, 0.8), facecolors=color, edgecolor="none")
        ax.set_yticks([0.5, 1.5])
        ax.set_yticklabels(["device", "host"])
        ax.set_ylim(0, 2)
        ax.set_xlim(0, span * 1.02)
        ax.set_title(f"{label}: {step.duration:.1f} us, {step.kernels} kernels from {step.launches} "
                     f"launch{'es' if step.launches != 1 else ''}, "
                     f"device idle {step.idle_share * 100:.0f}% of the step", fontsize=9, loc="left")
        ax.grid(True, axis="x", alpha=0.3)
    axes[-1].set_xlabel("us from the start of the step")
    fig.suptitle(title, fontsize=10)
    save_png(plt, fig, output)


def main(argv):
    parser = argparse.ArgumentParser(prog=PROG, description="Draws one step of two graphbench traces, one above the other.")
    parser.add_argument("eager", help="the eager variant's trace (graphbench --trace)")
    parser.add_argument("graph", help="the graph variant's trace")
    parser.add_argument("-o", "--output", help="PNG to write (default: timeline.png beside EAGER_TRACE)")
    parser.add_argument("--title", help="the picture's title (default: the two file names)")
    parser.add_argument("--step", type=int, default=2, help="which traced step to draw (default 2)")
    args = parser.parse_args(argv)
    if args.output is None:
        args.output = os.path.join(os.path.dirname(os.path.abspath(args.eager)), "timeline.png")
    steps = [Step(path, load_events(path), args.step) for path in (args.eager, args.graph)]  # BadInput: exit 2
    plt = import_pyplot(PROG)
    labels = [os.path.basename(p).removesuffix(".trace.json") for p in (args.eager, args.graph)]
    draw(plt, steps, labels, args.title or f"one step: {labels[0]} above {labels[1]}", args.output)
    print(f"{PROG}: wrote {args.output}")
    return 0
