#!/usr/bin/env python3
"""Checks of the data-parallel scripts that need no PyTorch. scripts/python_ddp_baseline.py builds
the Linear+Dropout steps of configs/ddp.json as the suite gives them, refuses bad input with exit
code 2 and a message naming the file and field, puts graphbench's figures beside its own with the
scaling of each, and writes its files whole or not at all. scripts/ddp_table.py prints a run's
table with the exposed all-reduce (and the multiprocessors the products left to it) and, under it,
what the all-reduces ran on.
scripts/all_reduce_overlap.py refuses bad arguments and a run outside torchrun with exit code 2.

    check_ddp_scripts.py SOURCE_DIR WORK_DIR
"""

import json
import os
import subprocess
import sys

from check_support import check, finish, fresh_dir


def check_cases(baseline, source_dir):
    cases = {c["name"]: c for c in baseline.step_cases(os.path.join(source_dir, "configs", "ddp.json"))}
    check(sorted(cases) == ["ddp-linear-dropout-large", "ddp-linear-dropout-small", "ddp-mnist-step"],
          f"the Linear+Dropout training cases and the MNIST step of configs/ddp.json: {sorted(cases)}")
    mnist = cases.get("ddp-mnist-step", {})
    check((mnist.get("model"), mnist.get("batch"), mnist.get("lr"), mnist.get("momentum"), mnist.get("grad_bucket_mb")) ==
          ("mnist", 64, 0.01, 0.5, 25.0), f"the MNIST step case: {mnist}")
    large = cases.get("ddp-linear-dropout-large", {})
    check((large.get("batch"), large.get("in_features"), large.get("hidden"), large.get("out_features")) == (640, 4096, 2048, 1024),
          f"the large case's layers: {large}")
    check(large.get("grad_bucket_mb") == 8.0 and large.get("lr") == 0.1 and large.get("dropout") == [0.2, 0.1],
          f"the large case's buckets, lr and dropout: {large}")
    check(cases.get("ddp-linear-dropout-small", {}).get("grad_bucket_mb") == 25.0,
          "a case without grad_bucket_mb gets DDP's 25 MiB")


def check_defaults(baseline, work_dir):
    """A case that leaves sizes and lr out gets graphbench's linear_dropout defaults."""
    path = os.path.join(work_dir, "defaults.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"cases": [{"name": "d", "workload": "linear_dropout"}]}, f)
    (case,) = baseline.step_cases(path)
    got = (case["batch"], case["in_features"], case["hidden"], case["out_features"], case["lr"], case["dropout"])
    check(got == (32, 128, 256, 16, 0.1, [0.2, 0.1]), f"the defaults of a bare case: {got}")


def check_bad_input(source_dir, work_dir):
    script = os.path.join(source_dir, "scripts", "python_ddp_baseline.py")
    ddp = os.path.join(source_dir, "configs", "ddp.json")
    bad_batch = os.path.join(work_dir, "bad_batch.json")
    with open(bad_batch, "w", encoding="utf-8") as f:
        json.dump({"cases": [{"name": "x", "workload": "linear_dropout", "batch": 0, "in_features": 4, "hidden": 4,
                              "out_features": 4}]}, f)
    adam = os.path.join(work_dir, "adam.json")
    with open(adam, "w", encoding="utf-8") as f:
        json.dump({"defaults": {"mode": "train"}, "cases": [{"name": "a", "workload": "linear_dropout", "batch": 2,
                   "in_features": 4, "hidden": 4, "out_features": 4, "optimizer": "adam"}]}, f)
    for args, message in (
            (["--config", os.path.join(work_dir, "nope.json")], "nope.json: cannot read the suite file"),
            (["--config", ddp, "--cases", "no-such-case"], 'configs/ddp.json: --cases: no case named "no-such-case"'),
            (["--config", ddp, "--cases", "ddp-mnist-tutorial"],
             '"ddp-mnist-tutorial" is neither a linear_dropout training case nor an mnist step case'),
            (["--config", bad_batch], "bad_batch.json: /cases/0/batch: expected a positive integer, got 0"),
            (["--config", adam], "adam.json: /cases/0/optimizer: this baseline builds SGD only"),
            (["--config", ddp, "--nproc", "0"], "--nproc must be at least 1")):
        run = subprocess.run([sys.executable, script, *args], capture_output=True, text=True)
        check(run.returncode == 2 and message in run.stderr, f"python_ddp_baseline.py {args}: exit {run.returncode}, {run.stderr}")


def check_table(baseline, source_dir):
    cases = baseline.step_cases(os.path.join(source_dir, "configs", "ddp.json"), ["ddp-linear-dropout-large"])
    one = {"ddp-linear-dropout-large": {"eager_us": 1000.0, "graph_us": 900.0}}
    many = {"ddp-linear-dropout-large": {"eager_us": 1250.0, "graph_us": 1000.0, "params_identical": True,
                                         "eager_us_per_rank": [1250.0, 1240.0], "graph_us_per_rank": [990.0, 1000.0]}}
    rows = baseline.combine(cases, one, many, 2)
    graph = rows["ddp-linear-dropout-large"]["graph"]
    check(graph == {"n1_us": 900.0, "n2_us": 1000.0, "scaling_efficiency": 0.9, "scaling_efficiency_ci95": None},
          f"the graph row: {graph}")
    # With samples: the ratio of their medians and an interval around it.
    sampled = baseline.combine(cases, {"ddp-linear-dropout-large": {"graph_us": 900.0, "graph_samples_us": [890.0, 900.0, 910.0]}},
                               {"ddp-linear-dropout-large": {"graph_us": 1000.0, "graph_samples_us": [990.0, 1000.0, 1020.0]}}, 2)
    g = sampled["ddp-linear-dropout-large"]["graph"]
    check(g["scaling_efficiency"] == 0.9 and g["scaling_efficiency_ci95"][0] <= 0.9 <= g["scaling_efficiency_ci95"][1]
          and g["scaling_efficiency_ci95"][0] >= 890.0 / 1020.0 and g["scaling_efficiency_ci95"][1] <= 910.0 / 990.0,
          f"the sampled graph row: {g}")
    check(rows["ddp-linear-dropout-large"]["params_identical"] is True, "params_identical carried over")
    # graphbench's committed two-GPU run of the same case, beside it.
    figures = baseline.graphbench_figures(os.path.join(source_dir, "results", "NVIDIA-H200x2", "ddp-n2", "results.json"))
    step, scaling = figures.get(("ddp-linear-dropout-large", "graph"), (None, None))
    check(step is not None and 1000 < step < 1500 and 0.5 < scaling < 1.0, f"graphbench's large graph figures: {step}, {scaling}")
    table = baseline.table(rows, 2, figures)
    row = f"| ddp-linear-dropout-large | graph | 900 | 1000 | 90% | {step:.0f} | {100 * scaling:.0f}% |"
    check(row in table, f"the table's graph row, wanted {row!r} in:\n{table}")
    # The copy + replay row (PyTorch's documented training loop) has graphbench's graph step beside it.
    copied = baseline.combine(cases, {"ddp-linear-dropout-large": {"graph_copy_us": 910.0}},
                              {"ddp-linear-dropout-large": {"graph_copy_us": 1010.0}}, 2)
    copy_table = baseline.table(copied, 2, figures)
    copy_row = f"| ddp-linear-dropout-large | graph, copy + replay | 910 | 1010 | 90% | {step:.0f} | {100 * scaling:.0f}% |"
    check(copy_row in copy_table, f"the copy + replay row, wanted {copy_row!r} in:\n{copy_table}")
    # One rank alone: no N-rank or scaling columns.
    alone = baseline.table(baseline.combine(cases, one, one, 1), 1, None)
    check("| ddp-linear-dropout-large | graph | 900 |\n" in alone and "slowest rank" not in alone,
          f"the one-rank table:\n{alone}")
    # A failed N-rank run leaves its columns empty, the one-rank figures stand.
    failed = baseline.combine(cases, one, "the 2-rank run failed (exit code 1): ...", 2)
    check(failed["ddp-linear-dropout-large"]["graph"]["scaling_efficiency"] is None and
          failed["ddp-linear-dropout-large"]["graph"]["n1_us"] == 900.0, f"a failed run's row: {failed}")
    try:
        baseline.graphbench_figures(os.path.join(source_dir, "configs", "nope.json"))
        check(False, "unreadable graphbench results accepted")
    except baseline.BadInput as e:
        check("nope.json: cannot read the results file" in str(e), f"message for unreadable graphbench results: {e}")


def check_write_whole(suites, work_dir):
    """The package's one writer (suites.write_whole, which the baseline writes its files with)."""
    path = os.path.join(work_dir, "out.json")
    suites.write_whole(path, "{}\n")
    with open(path, encoding="utf-8") as f:
        check(f.read() == "{}\n", "write_whole wrote the text")

    class Interrupted(Exception):
        pass

    # A write that fails part-way leaves neither the file nor its temporary.
    broken = os.path.join(work_dir, "broken.json")
    original = os.fdopen

    def failing_fdopen(*args, **kwargs):
        handle = original(*args, **kwargs)
        handle.write = lambda text: (_ for _ in ()).throw(Interrupted())
        return handle

    os.fdopen = failing_fdopen
    try:
        suites.write_whole(broken, "x")
        check(False, "a failing write went unnoticed")
    except Interrupted:
        pass
    finally:
        os.fdopen = original
    left = [n for n in os.listdir(work_dir) if "broken" in n]
    check(left == [], f"a failed write left {left}")


def check_ddp_table(source_dir, work_dir):
    script = os.path.join(source_dir, "scripts", "ddp_table.py")
    committed = os.path.join(source_dir, "results", "NVIDIA-H200x2", "ddp-n2", "results.json")
    with open(committed, encoding="utf-8") as f:
        document = json.load(f)
    large = [r for r in document["records"] if r.get("case") == "ddp-linear-dropout-large" and r.get("variant") == "graph"]
    check(len(large) == 1, "the committed two-GPU run has the large case's graph record")
    d = large[0]["data_parallel"]
    d["backend_version"] = "2.27.5"
    d["backend_settings"] = {"NCCL_NVLS_ENABLE": "0", "NCCL_MIN_NCHANNELS": "32"}
    d["sm_carveout"] = 16  # files from before "grad_sm_carveout" was removed: ignored
    d["grad_transport"] = "copy-engine"
    d["one_rank_us"], d["slowest_median_us"], d["scaling_efficiency"] = 1000.0, 1100.0, 1000.0 / 1100.0
    d["scaling_efficiency_ci95"] = [0.88, 0.93]
    eager = [r for r in document["records"] if r.get("case") == "ddp-mnist-step" and r.get("variant") == "eager"][0]
    eager["data_parallel"].update({"scaling_efficiency": 1.02, "scaling_efficiency_ci95": None})
    eager["warnings"] = ["scaling efficiency 102% is above 100%: why, as the run said"]
    tuned = os.path.join(work_dir, "tuned.json")
    with open(tuned, "w", encoding="utf-8") as f:
        json.dump(document, f)
    run = subprocess.run([sys.executable, script, tuned], capture_output=True, text=True)
    check(run.returncode == 0, f"ddp_table.py on a run with settings: exit {run.returncode}, {run.stderr}")
    check("| ddp-linear-dropout-large | graph | overlapped, 4 buckets of <= 8 MiB, copy-engine all-reduce | 1000 | 1100 | "
          "91% (88-93%) |" in run.stdout,
          f"the large graph row (one rank alone, the N=2 step, their ratio and its interval) in:\n{run.stdout}")
    check("| 102%* |" in run.stdout and "\n\\* ddp-mnist-step / eager: scaling efficiency 102% is above 100%: why, as the run said"
          in run.stdout, f"above 100%: marked, and the run's reason under the table:\n{run.stdout}")
    check("\nCommunication: nccl 2.27.5, under NCCL_MIN_NCHANNELS=32, NCCL_NVLS_ENABLE=0\n" in run.stdout,
          f"the tuned record's communication line in:\n{run.stdout}")
    check("\nCommunication: nccl (a file from before runs recorded the version and tuning variables)\n" in run.stdout,
          f"the other records' line (written before the settings were recorded) in:\n{run.stdout}")
    check(run.stdout.count("Communication:") == 2, f"one line per distinct communication:\n{run.stdout}")
    missing = subprocess.run([sys.executable, script, os.path.join(work_dir, "nope.json")], capture_output=True, text=True)
    check(missing.returncode == 2 and "nope.json: cannot read" in missing.stderr,
          f"a missing file: exit {missing.returncode}, {missing.stderr!r}")


def check_overlap_arguments(source_dir):
    """all_reduce_overlap.py checks its arguments before it needs PyTorch or a GPU."""
    script = os.path.join(source_dir, "scripts", "all_reduce_overlap.py")
    env = {k: v for k, v in os.environ.items() if k != "RANK"}
    for args, message in (
            (["--sm-carveout", "16"], "unrecognized arguments: --sm-carveout 16"),
            ([], "run it under torchrun")):
        run = subprocess.run([sys.executable, script, *args], capture_output=True, text=True, env=env)
        check(run.returncode == 2 and message in run.stderr, f"all_reduce_overlap.py {args}: exit {run.returncode}, {run.stderr}")


def main(source_dir, work_dir):
    source_dir = os.path.abspath(source_dir)
    from graphbench import suites
    from graphbench.peers import ddp as python_ddp_baseline

    fresh_dir(work_dir)
    check_cases(python_ddp_baseline, source_dir)
    check_defaults(python_ddp_baseline, work_dir)
    check_bad_input(source_dir, work_dir)
    check_table(python_ddp_baseline, source_dir)
    check_write_whole(suites, work_dir)
    check_ddp_table(source_dir, work_dir)
    check_overlap_arguments(source_dir)
    return finish("check_ddp_scripts.py")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
