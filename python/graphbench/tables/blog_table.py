"""The README's table of published figures beside ours, from a graphbench results.json.

    python3 scripts/blog_table.py RESULTS_JSON [--cases a,b,...]

One Markdown row per benchmark record: case, variant, method, the published time and speedup, our
median, our speedup over eager with its 95% interval, host time and kernels per step; a record
that did not run says why. Exit codes: 0 printed, 2 bad input.
"""

import argparse

from ..errors import BadInput, is_number
from ..results import fmt_us, read_results


def us(value):
    return f"{fmt_us(value)} us" if is_number(value) else ""


def speedup(value, interval=None):
    if not is_number(value):
        return ""
    text = f"{value:.2f}x"
    if isinstance(interval, list) and len(interval) == 2 and all(is_number(v) for v in interval):
        text += f" [{interval[0]:.2f}-{interval[1]:.2f}]"
    return text


def row(record):
    published = record.get("published") or {}
    profile = record.get("profile") or {}
    status = record.get("status")
    ours = us(record.get("median_us")) if status == "ok" else f"{status}: {record.get('reason', '')}"
    kernels = profile.get("kernels_per_step")
    cells = [
        record.get("case", ""),
        record.get("variant", ""),
        record.get("method", ""),
        us(published.get("variant_us")),
        speedup(published.get("speedup")),
        ours,
        speedup(record.get("speedup_vs_eager"), record.get("speedup_ci95")),
        us(record.get("issue_median_us")),
        f"{kernels:.3g}" if is_number(kernels) else "",
    ]
    return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"


def main(argv):
    parser = argparse.ArgumentParser(prog="blog_table.py", description=__doc__.splitlines()[0])
    parser.add_argument("results")
    parser.add_argument("--cases", default="", help="only these cases, comma-separated, in this order")
    args = parser.parse_args(argv)
    doc = read_results(args.results)
    if not doc.records:
        raise BadInput(f"{args.results}: /records: no records")
    benchmark = doc.benchmarks()
    if args.cases:
        wanted = [c for c in args.cases.split(",") if c]
        benchmark = [r for c in wanted for r in benchmark if r.get("case") == c]
    env = doc.environment
    print(f"From {args.results}: {env.get('gpu_name', '?')}, LibTorch {env.get('libtorch_version', '?')}, "
          f"commit {env.get('git_commit', '?')}, {env.get('date_utc', '?')}.\n")
    print("| case | variant | method | published | published speedup | ours | our speedup [95% CI] "
          "| host (us / step) | kernels / step |")
    print("|---|---|---|--:|--:|--:|--:|--:|--:|")
    for record in benchmark:
        print(row(record))
    return 0
