"""Grouped bar chart of speedup_vs_eager from a graphbench results.json (docs/results.md).

    python3 scripts/plot_speedups.py RESULTS_JSON [-o PNG] [--title TITLE]

One group of bars per case, one bar per variant (eager the dashed 1.0 line), error bars from
speedup_ci95, published speedups as markers, a log y axis past a 20x span, the records left out in a
footnote; DIR/speedups.png beside DIR/results.json by default. Needs matplotlib. Exit codes: 0
written, 2 bad input, 1 matplotlib missing.
"""

import argparse
import os
import sys
import textwrap

from ..errors import BadInput, is_number
from ..results import read_results
from .common import import_pyplot

LOG_SCALE_SPAN = 20.0  # log y axis when max/min of the plotted speedups is above this
PROG = "plot_speedups.py"


def check_record(path, index, record):
    """Returns (case, variant, status) of one record, or raises BadInput naming the field."""
    case, variant, status = record.case, record.variant, record.status
    where = f"{path}: records[{index}] ({case}/{variant})"
    if status not in ("ok", "skipped", "failed"):
        raise BadInput(f"{where}: status is {status!r}, expected ok, skipped or failed")
    speedup = record.get("speedup_vs_eager")
    if speedup is not None and not is_number(speedup):
        raise BadInput(f"{where}: speedup_vs_eager is {speedup!r}, expected a number or null")
    ci = record.get("speedup_ci95")
    if ci is not None and not (isinstance(ci, list) and len(ci) == 2 and all(is_number(v) for v in ci)):
        raise BadInput(f"{where}: speedup_ci95 is {ci!r}, expected [low, high] or null")
    published = record.get("published")
    if published is not None:
        if not isinstance(published, dict):
            raise BadInput(f"{where}: published is {published!r}, expected an object or null")
        value = published.get("speedup")
        if value is not None and not is_number(value):
            raise BadInput(f"{where}: published.speedup is {value!r}, expected a number or null")
    return case, variant, status


class ChartData:
    """What the chart shows, gathered from the records in file order."""

    def __init__(self, path, doc):
        self.environment = doc.environment
        self.suite = self.environment.get("suite")
        self.cases = []     # case names, in order of first appearance
        self.bars = {}      # (case, variant) -> (speedup, ci or None)
        self.published = {}  # (case, variant) -> (speedup, source)
        self.omitted = []   # "case/variant: status (reason)"
        for index, record in enumerate(doc.records):
            case, variant, status = check_record(path, index, record)
            published = record.get("published") or {}
            if is_number(published.get("speedup")):
                self.published[(case, variant)] = (float(published["speedup"]), published.get("source") or "")
            if status != "ok":
                reason = str(record.get("reason") or "").strip()
                self.omitted.append(f"{case}/{variant}: {status}" + (f" ({reason})" if reason else ""))
                continue
            if case not in self.cases:
                self.cases.append(case)
            if variant == "eager":
                continue
            speedup = record.get("speedup_vs_eager")
            if speedup is None:
                self.omitted.append(f"{case}/{variant}: ok but no speedup_vs_eager")
                continue
            if speedup <= 0:
                raise BadInput(f"{path}: records[{index}] ({case}/{variant}): speedup_vs_eager is {speedup}, expected > 0")
            self.bars[(case, variant)] = (float(speedup), record.get("speedup_ci95"))
        # Cases that only have eager records, or whose only other records were omitted, add nothing.
        self.cases = [c for c in self.cases if any(k[0] == c for k in (*self.bars, *self.published))]
        # Variant names other than eager, in order of first appearance; a published figure of a variant
        # that was not measured still gets a slot in its group.
        self.variants = list(dict.fromkeys([v for _, v in self.bars] + [v for _, v in self.published if v != "eager"]))

    def values(self):
        """Every speedup the y axis has to show (bars, CI bounds, published markers)."""
        out = []
        for speedup, ci in self.bars.values():
            out.append(speedup)
            if ci:
                out.extend(v for v in ci if v > 0)
        out.extend(value for (case, _), (value, _) in self.published.items() if case in self.cases and value > 0)
        return out


def subtitle(environment):
    env = environment or {}
    gpu = env.get("gpu_name") or (f"device: {env['device']}" if env.get("device") else "unknown device")
    date = str(env.get("date_utc") or "").replace("T", " ").replace("Z", " UTC")
    libtorch = f"LibTorch {env['libtorch_version']}" if env.get("libtorch_version") else ""
    host = f"host {env['host']}" if env.get("host") else ""
    return "  ·  ".join(part for part in (gpu, date, libtorch, host) if part)


def draw(data, output, title):
    plt = import_pyplot(PROG)

    n_cases, n_variants = len(data.cases), max(len(data.variants), 1)
    width_in = min(max(7.0, 1.2 + n_cases * (0.55 * n_variants + 0.6)), 24.0)
    # The footnote names the published figures' sources and the records left out.
    notes = []
    sources = sorted({source for (case, variant), (_, source) in data.published.items()
                      if source and case in data.cases and variant in data.variants})
    if sources:
        notes.append("Published speedups: " + "; ".join(sources) + ".")
    if data.omitted:
        notes.append("Omitted: " + "; ".join(data.omitted) + ".")
    footnote = "\n".join(line for note in notes for line in textwrap.wrap(note, width=int(width_in * 14)))
    foot_lines = footnote.count("\n") + 1 if footnote else 0
    height_in = max(5.0, 0.3 * width_in) + 0.14 * foot_lines
    fig, ax = plt.subplots(figsize=(width_in, height_in), dpi=150)

    group_width = 0.8
    bar_width = group_width / n_variants
    # Up to 20 variants with a colour each (the default cycle has 10 and would repeat).
    colors = [plt.get_cmap("tab20")(i) for i in range(20)]
    values = data.values()
    log_scale = bool(values) and max(values) / min(values) > LOG_SCALE_SPAN
    many_bars = len(data.bars) > 40

    for vi, variant in enumerate(data.variants):
        # (case index, speedup, ci) of each case with a bar of this variant
        shown = [(index, *data.bars[(case, variant)]) for index, case in enumerate(data.cases)
                 if (case, variant) in data.bars]
        if not shown:
            continue
        xs = [index - group_width / 2 + (vi + 0.5) * bar_width for index, _, _ in shown]
        heights = [speedup for _, speedup, _ in shown]
        err_low = [max(speedup - ci[0], 0.0) if ci else 0.0 for _, speedup, ci in shown]
        err_high = [max(ci[1] - speedup, 0.0) if ci else 0.0 for _, speedup, ci in shown]
        has_ci = any(err_low) or any(err_high)
        bars = ax.bar(xs, heights, bar_width * 0.92, label=variant, color=colors[vi % len(colors)],
                      yerr=[err_low, err_high] if has_ci else None,
                      error_kw={"ecolor": "#333333", "capsize": 3, "elinewidth": 1}, zorder=2)
        if not many_bars:
            ax.bar_label(bars, labels=[f"{h:.2f}x" for h in heights], padding=2 + (6 if has_ci else 0),
                         fontsize=7, zorder=4)

    # Published speedups: one marker per (case, variant), over that variant's bar.
    shown = [(case, variant, value) for (case, variant), (value, _) in data.published.items()
             if case in data.cases and variant in data.variants]
    pub_x = [data.cases.index(case) - group_width / 2 + (data.variants.index(variant) + 0.5) * bar_width
             for case, variant, _ in shown]
    pub_y = [value for _, _, value in shown]
    if pub_x:
        ax.scatter(pub_x, pub_y, marker="D", s=46, color="black", edgecolors="white", linewidths=0.8,
                   label="published speedup", zorder=5)
        for x, y in zip(pub_x, pub_y):
            ax.annotate(f"{y:.2f}x", (x, y), textcoords="offset points", xytext=(7, -3), fontsize=7,
                        color="black", zorder=5)

    ax.axhline(1.0, color="#555555", linestyle="--", linewidth=1, label="eager (1.0x)", zorder=3)
    top = max(values + [1.0])
    if log_scale:
        ax.set_yscale("log")
        ax.set_ylim(min(values + [1.0]) / 1.5, top * 2.0)
    else:
        ax.set_ylim(0, top * 1.15)
    ax.set_ylabel(f"speedup vs eager ({'log scale, ' if log_scale else ''}higher is better)")
    ax.set_xticks(range(n_cases))
    rotate = n_cases > 6 or any(len(c) > 16 for c in data.cases)
    ax.set_xticklabels(data.cases, rotation=30 if rotate else 0, ha="right" if rotate else "center")
    ax.set_xlim(-0.6, max(n_cases, 1) - 0.4)
    ax.grid(axis="y", linestyle=":", linewidth=0.8, alpha=0.7, zorder=0)
    ax.set_axisbelow(True)
    if not data.bars:
        ax.text(0.5, 0.5, "no ok record with a speedup_vs_eager", transform=ax.transAxes, ha="center",
                va="center", fontsize=11, color="#555555")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, frameon=False)

    suite = f" ({data.suite})" if data.suite else ""
    fig.suptitle(title or f"graphbench: CUDA Graphs speedup vs eager{suite}", fontsize=13, fontweight="bold")
    ax.set_title(subtitle(data.environment), fontsize=9, color="#444444", loc="left")
    # tight_layout makes room for the tick labels itself; the rect only keeps the footnote clear.
    foot_in = 0.1 + 0.13 * foot_lines if footnote else 0.0
    if footnote:
        fig.text(0.01, 0.05 / height_in, footnote, fontsize=7, color="#444444", ha="left", va="bottom")
    fig.tight_layout(rect=(0, foot_in / height_in, 1, 0.97))

    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    fig.savefig(output, format="png")
    plt.close(fig)


def main(argv):
    parser = argparse.ArgumentParser(prog=PROG, description="Grouped bar chart of speedup_vs_eager from a "
                                     "graphbench results.json.")
    parser.add_argument("results", metavar="RESULTS_JSON", help="results.json written by graphbench")
    parser.add_argument("-o", "--output", help="PNG to write (default: speedups.png beside RESULTS_JSON)")
    parser.add_argument("--title", default=None, help="figure title (default: names the suite)")
    args = parser.parse_args(argv)  # usage errors exit 2
    if args.output is None:
        args.output = os.path.join(os.path.dirname(os.path.abspath(args.results)), "speedups.png")
    results = read_results(args.results)
    if not results.records:
        raise BadInput(f"{args.results}: /records: no records to plot")
    data = ChartData(args.results, results)
    if not data.bars:
        print(f"{PROG}: warning: {args.results}: no ok record with a speedup_vs_eager; the chart is empty",
              file=sys.stderr)
    try:
        draw(data, args.output, args.title)
    except OSError as e:
        raise BadInput(f"cannot write {args.output}: {e}")
    print(args.output)
    return 0
