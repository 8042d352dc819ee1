"""The README's data-parallel table, with the exposed all-reduce, from graphbench results.json files.

    python3 scripts/ddp_table.py N2_RESULTS_JSON [--n1 N1_RESULTS_JSON] [--title TEXT]

One Markdown row per data-parallel benchmark record: how the gradients were averaged, one rank
alone, the step at N (slowest rank), the scaling efficiency with its 95% interval (above 100%
marked * with the record's reason), the step without any all-reduce, the exposed all-reduce (their
difference), the all-reduce alone, and the speedup over eager; with --n1, that run's step. Under
it, the backend and the environment variables that tuned it. Exit codes: 0 printed, 2 bad input.
"""

import argparse

from ..errors import BadInput, is_number
from ..results import fmt_us as us, read_results


def scaling(d):
    """'81% (79-83%)': the scaling efficiency with its interval; '104%*' above 100%."""
    value = d.get("scaling_efficiency")
    if not is_number(value):
        return ""
    text = f"{100 * value:.0f}%" + ("*" if value > 1.0 else "")
    ci = d.get("scaling_efficiency_ci95")
    if isinstance(ci, list) and len(ci) == 2 and all(is_number(v) for v in ci):
        text += f" ({100 * ci[0]:.0f}-{100 * ci[1]:.0f}%)"
    return text


def speedup(value):
    return f"{value:.2f}x" if is_number(value) else "-"


def benchmark_records(results):
    return [r for r in results.benchmarks() if r.get("data_parallel")]


def gradients(d):
    text = "overlapped" if d.get("overlapped") else "after backward"
    buckets = d.get("buckets")
    cap = d.get("bucket_cap_bytes")
    if is_number(buckets) and buckets > 0:
        text += f", {buckets} bucket{'s' if buckets != 1 else ''}"
        if is_number(cap) and cap > 0:
            text += f" of <= {cap / 2**20:.3g} MiB"
    for chunked in d.get("chunked_gradients") or []:
        text += f", {chunked.get('param', '?')} in {len(chunked.get('rows') or [])} chunks"
    if d.get("grad_dtype", "float32") != "float32":
        text += f", {d['grad_dtype']}"
    if d.get("grad_transport", "collective") != "collective":
        text += f", {d['grad_transport']} all-reduce"
    return text


def communication(d):
    """'nccl 2.27.5, under NCCL_NVLS_ENABLE=0': the backend, its version, its tuning variables."""
    text = " ".join(part for part in (d.get("backend") or "?", d.get("backend_version") or "") if part)
    settings = d.get("backend_settings")
    if not isinstance(settings, dict):
        return text + " (a file from before runs recorded the version and tuning variables)"
    if not settings:
        return text + ", no tuning variables set"
    return text + ", under " + ", ".join(f"{name}={value}" for name, value in sorted(settings.items()))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", help="results.json of the run with N ranks")
    parser.add_argument("--n1", help="results.json of the same suite with --nproc 1 (a column of its own)")
    parser.add_argument("--title", default="", help="a line printed above the table")
    args = parser.parse_args(argv)

    document = read_results(args.results)
    records = benchmark_records(document)
    if not records:
        raise BadInput(f"{args.results}: /records: no data-parallel benchmark records")
    one = {(r["case"], r["variant"]): r for r in benchmark_records(read_results(args.n1))} if args.n1 else {}
    world = max(r["data_parallel"].get("world_size", 0) for r in records)

    if args.title:
        print(args.title + "\n")
    env = document.environment
    print(f"From {args.results}: {env.get('gpu_name', '?')}, LibTorch {env.get('libtorch_version', '?')}, "
          f"commit {env.get('git_commit', '?')}, {env.get('date_utc', '?')}.\n")
    n1_header = " N=1 run, its own process (us) |" if one else ""
    print(f"| case | variant | gradients | one rank alone (us) | N={world} step, slowest rank (us) | "
          f"scaling efficiency at N={world} (one rank alone / N={world} step) | "
          f"without all-reduce at N={world} (us) | exposed all-reduce at N={world} (us) | "
          f"all-reduce alone at N={world} (us) | speedup vs eager at N={world} |{n1_header}")
    print("|---|---|---|--:|--:|--:|--:|--:|--:|--:|" + ("--:|" if one else ""))
    above = []
    for r in records:
        d = r["data_parallel"]
        n1 = one.get((r["case"], r["variant"]))
        n1_ok = n1 is not None and n1.get("status") == "ok"
        if r.get("status") != "ok":
            # A record that did not run has no figures of how its gradients were averaged.
            cells = [r["case"], r["variant"], "", f"{r.get('status')}: {r.get('reason', '')}"] + [""] * 6
        else:
            cells = [
                r["case"],
                r["variant"],
                gradients(d),
                us(d.get("one_rank_us")),
                us(d.get("slowest_median_us")),
                scaling(d),
                us(d.get("no_all_reduce_us")),
                us(d.get("exposed_all_reduce_us")),
                us(d.get("all_reduce_us")),
                speedup(r.get("speedup_vs_eager")),
            ]
            above += [f"{r['case']} / {r['variant']}: {w}" for w in r.get("warnings", []) if "is above 100%" in w]
        if one:
            cells.append(us(n1["data_parallel"].get("slowest_median_us")) if n1_ok else "")
        print("| " + " | ".join(str(c).replace("|", "\\|").replace("\n", " ") for c in cells) + " |")
    for line in above:
        print(f"\n\\* {line}")
    for text in dict.fromkeys(communication(r["data_parallel"]) for r in records):  # each once, in order
        print(f"\nCommunication: {text}")
    return 0
