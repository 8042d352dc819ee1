"""Pictures of the sweeps of a graphbench results.json (docs/results.md, "Sweeps").

    python3 scripts/plot_sweep.py RESULTS_JSON [-o DIR]

One PNG per sweep and graph variant, DIR/sweep-<case>-<variant>.png (default: beside the results):
above, the graph's speedup over eager against the swept size with its 95% band, the crossover and
the recommended capture sizes; below, the graph pool's memory, and the totals of the recommended
graphs in pools of their own and in one. A run with no graph variant measured (a CPU run) gets one
DIR/sweep-<case>-times.png per case instead: each variant's step time against the size. Needs
matplotlib. Exit codes: 0 written, 2 bad input, 1 matplotlib missing.
"""

import argparse
import os
import re

from ..errors import BadInput, is_number
from ..results import read_results
from .common import import_pyplot, save_png

PROG = "plot_sweep.py"
MIB = 1024.0 * 1024.0


def load_step_times(path, doc):
    """{(case, axis): {variant: [(value, median_us)]}} of the ok records of swept cases."""
    series = {}
    for r in doc.records:
        sweep = r.get("sweep")
        if not isinstance(sweep, dict) or not r.ok or r.median_us is None:
            continue
        if not (isinstance(sweep.get("group"), str) and isinstance(sweep.get("axis"), str) and is_number(sweep.get("value"))):
            raise BadInput(f"{path}: record {r.case!r}/{r.variant!r}: \"sweep\" needs group, axis and a numeric value")
        by_variant = series.setdefault((sweep["group"], sweep["axis"]), {})
        by_variant.setdefault(r.variant, []).append((sweep["value"], r.median_us))
    return series


def load_sweeps(path):
    """The sweeps of the file, or ([], environment, step times) where no graph variant was measured."""
    doc = read_results(path)
    sweeps, environment = doc.raw.get("sweeps"), doc.environment
    if not isinstance(sweeps, list) or not sweeps:
        times = load_step_times(path, doc)
        if times:
            return [], environment, times
        raise BadInput(f"{path}: no sweeps to plot (\"sweeps\" is missing or empty and no swept case has an ok "
                       "record: a run without sweeps)")
    for i, sweep in enumerate(sweeps):
        where = f"{path}: sweeps[{i}]"
        if not isinstance(sweep, dict) or not all(isinstance(sweep.get(k), str) for k in ("case", "axis", "variant")):
            raise BadInput(f"{where}: expected an object with string fields case, axis and variant")
        points = sweep.get("points")
        if not isinstance(points, list):
            raise BadInput(f"{where} ({sweep['case']}): \"points\" is not a list")
        for j, p in enumerate(points):
            if not isinstance(p, dict) or not is_number(p.get("value")):
                raise BadInput(f"{where}.points[{j}]: expected an object with a numeric \"value\"")
            if p.get("ok") and not (is_number(p.get("speedup")) and p["speedup"] > 0):
                raise BadInput(f"{where}.points[{j}]: an ok point needs a positive \"speedup\"")
    if not any(p.get("ok") for sweep in sweeps for p in sweep["points"]):
        times = load_step_times(path, doc)  # no graph measured at any size: the times that exist
        if times:
            return [], environment, times
    return sweeps, environment, {}


def file_safe(text):
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "sweep"


def plot_one(plt, sweep, environment, output):
    axis = sweep["axis"]
    ok = [p for p in sweep["points"] if p.get("ok")]
    failed = [p for p in sweep["points"] if not p.get("ok")]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 7), sharex=True, gridspec_kw={"height_ratios": [3, 2]})
    x = [p["value"] for p in ok]
    speedup = [p["speedup"] for p in ok]
    low = [p["speedup_ci95"][0] if isinstance(p.get("speedup_ci95"), list) else p["speedup"] for p in ok]
    high = [p["speedup_ci95"][1] if isinstance(p.get("speedup_ci95"), list) else p["speedup"] for p in ok]
    top.fill_between(x, low, high, color="tab:blue", alpha=0.2, label="95% interval")
    top.plot(x, speedup, "o-", color="tab:blue", label=f"{sweep['variant']} / eager")
    top.axhline(1.0, color="black", linewidth=0.8)
    top.axhline(sweep.get("pays_at_least", 1.05), color="grey", linestyle=":", linewidth=0.8, label="pays 5%")
    captured = set(sweep.get("capture_sizes") or [])
    cx = [p["value"] for p in ok if p["value"] in captured]
    cy = [p["speedup"] for p in ok if p["value"] in captured]
    if cx:
        top.plot(cx, cy, "o", markersize=12, markerfacecolor="none", markeredgecolor="tab:green",
                 label="capture here")
    if is_number(sweep.get("crossover")):
        top.axvline(sweep["crossover"], color="tab:red", linestyle="--", linewidth=1,
                    label=f"crossover: {axis}={sweep['crossover']}")
    for p in failed:
        top.axvline(p["value"], color="tab:orange", linewidth=0.6, alpha=0.6)
    top.set_ylabel("speedup over eager")
    top.legend(fontsize=8, loc="best")
    top.grid(True, which="both", alpha=0.3)
    pools = [(p["value"], p["pool_bytes"] / MIB) for p in ok if is_number(p.get("pool_bytes"))]
    if pools:
        bottom.plot([v for v, _ in pools], [m for _, m in pools], "s-", color="tab:purple", label="the graph's pool")
    for key, color, label in (("separate_pools_bytes", "tab:purple", "recommended graphs, a pool each"),
                              ("shared_pool_bytes", "tab:green", "recommended graphs, one shared pool")):
        if is_number(sweep.get(key)):
            bottom.axhline(sweep[key] / MIB, color=color, linestyle="--", linewidth=0.8, label=label)
    bottom.set_ylabel("graph memory (MiB)")
    bottom.set_xlabel(axis)
    bottom.grid(True, which="both", alpha=0.3)
    if bottom.get_legend_handles_labels()[0]:
        bottom.legend(fontsize=8, loc="best")
    if x and max(x) / max(min(x), 1) >= 8:
        bottom.set_xscale("log", base=2)
        bottom.xaxis.set_major_formatter(plt.matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    title = f"{sweep['case']} over {axis}: {sweep['variant']} against eager"
    fig.suptitle(title + device_line(environment), fontsize=10)
    if failed:
        fig.text(0.01, 0.01, "not measured: " + ", ".join(f"{axis}={p['value']}" for p in failed), fontsize=7)
    save_png(plt, fig, output)


def device_line(environment, fallback=""):
    """A title's second line: the GPU and the date of the run ("\nNVIDIA H200 2026-11-27..."), else
    `fallback`; "" when there is neither."""
    device = " ".join(str(environment.get(k) or "") for k in ("gpu_name", "date_utc")).strip() or fallback
    return f"\n{device}" if device else ""


def plot_times(plt, case, axis, by_variant, environment, output):
    """The per-step time of each variant against the swept size (no graph variant to compare)."""
    fig, ax = plt.subplots(figsize=(8, 5))
    values = []
    for variant, points in sorted(by_variant.items()):
        points.sort()
        values += [v for v, _ in points]
        ax.plot([v for v, _ in points], [t for _, t in points], "o-", label=variant)
    if values and max(values) / max(min(values), 1) >= 8:
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.xaxis.set_major_formatter(plt.matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    ax.set_xlabel(axis)
    ax.set_ylabel("median step time (us)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    fig.suptitle(f"{case} over {axis}: step time of each variant (no graph variant measured)"
                 + device_line(environment, fallback=environment.get("device", "")), fontsize=10)
    save_png(plt, fig, output)


def main(argv):
    parser = argparse.ArgumentParser(prog=PROG, description="Draws each sweep of a graphbench results.json.")
    parser.add_argument("results", help="results.json of a run with sweeps")
    parser.add_argument("-o", "--output-dir", help="folder for the PNG files (default: beside RESULTS_JSON, in its folder)")
    args = parser.parse_args(argv)
    sweeps, environment, times = load_sweeps(args.results)  # BadInput: exit 2 (commands.run)
    plt = import_pyplot(PROG)
    out_dir = args.output_dir or os.path.dirname(os.path.abspath(args.results))
    os.makedirs(out_dir, exist_ok=True)
    for sweep in sweeps:
        output = os.path.join(out_dir, f"sweep-{file_safe(sweep['case'])}-{file_safe(sweep['variant'])}.png")
        plot_one(plt, sweep, environment, output)
        print(f"{PROG}: wrote {output}")
    if times:
        print(f"{PROG}: no graph variant was measured (graphs need a CUDA device): plotting each variant's step time")
    for (case, axis), by_variant in sorted(times.items()):
        output = os.path.join(out_dir, f"sweep-{file_safe(case)}-times.png")
        plot_times(plt, case, axis, by_variant, environment, output)
        print(f"{PROG}: wrote {output}")
    return 0
