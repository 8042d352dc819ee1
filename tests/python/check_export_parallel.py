#!/usr/bin/env python3
"""scripts/export-parallel.sh with a stand-in for export_model.py (no PyTorch): two jobs side by side,
one failing; the other's suite is joined, the failure named with its log, the exit code 1; two jobs
into one suite (the second with --append) one after the other; no job, or EXPORT_JOBS=0: 2.

    check_export_parallel.py SOURCE_DIR WORK_DIR
"""

import json
import os
import subprocess
import sys

from check_support import check, finish, fresh_dir

# Run as $PYTHON: export_model.py MODEL --suite PART [--append] writes a suite of one case named MODEL
# (added to PART's with --append; MODEL "broken": says so and exits 1, writing nothing); any other
# script runs with this Python.
STAND_IN = f"""#!{sys.executable}
import json, os, sys, time
if not sys.argv[1].endswith("export_model.py"):
    os.execv(sys.executable, [sys.executable] + sys.argv[1:])
model, part = sys.argv[2], sys.argv[sys.argv.index("--suite") + 1]
time.sleep(0.5)
if model == "broken":
    sys.exit("export_model.py: error: exporting broken failed")
cases = json.load(open(part))["cases"] if "--append" in sys.argv and os.path.exists(part) else []
with open(part, "w") as f:
    json.dump({{"suite": "part", "cases": cases + [{{"name": model, "workload": "torchscript", "path": model + ".pt"}}]}}, f)
print("exported", model)
"""


def run(source_dir, work_dir, *args, jobs="2"):
    stand_in = os.path.join(work_dir, "python")
    with open(stand_in, "w", encoding="utf-8") as f:
        f.write(STAND_IN)
    os.chmod(stand_in, 0o755)
    return subprocess.run([os.path.join(source_dir, "scripts", "export-parallel.sh"), *args], capture_output=True,
                          text=True, env={**os.environ, "PYTHON": stand_in, "EXPORT_JOBS": jobs})


def main(source_dir, work_dir):
    fresh_dir(work_dir)
    parts = os.path.join(work_dir, "parts")
    joined = os.path.join(work_dir, "joined.json")
    done = run(source_dir, work_dir, joined, "--suite-name", "both",
               ":::", "broken", "--suite", os.path.join(parts, "broken.json"),
               ":::", "resnet", "--suite", os.path.join(parts, "resnet.json"))
    check(done.returncode == 1, f"exit code {done.returncode} with a job failing, expected 1: {done.stderr}")
    check(f"failed (exit 1, log {parts}/broken.log): export_model.py broken --suite" in done.stderr,
          f"the failed job named with its log: {done.stderr}")
    check("resnet" not in done.stderr.split("failed")[-1], f"only the failed job named: {done.stderr}")
    with open(os.path.join(parts, "broken.log"), encoding="utf-8") as f:
        check("exporting broken failed" in f.read(), "the failed job's output in its log")
    with open(os.path.join(parts, "resnet.log"), encoding="utf-8") as f:
        check("exported resnet" in f.read(), "the other job's output in its log")
    with open(joined, encoding="utf-8") as f:
        suite = json.load(f)
    check(suite["suite"] == "both" and [c["name"] for c in suite["cases"]] == ["resnet"],
          f"the joined suite holds the job that was exported: {suite}")
    check(suite["cases"][0]["path"] == "parts/resnet.pt", f"its path relative to the joined suite: {suite}")
    one = os.path.join(work_dir, "one.json")
    done = run(source_dir, work_dir, ":::", "first", "--suite", one, ":::", "second", "--suite", one, "--append")
    with open(one, encoding="utf-8") as f:
        names = [c["name"] for c in json.load(f)["cases"]]
    check(done.returncode == 0 and names == ["first", "second"], f"two jobs into one suite: {names}, {done.stderr}")
    usage = run(source_dir, work_dir, joined)
    check(usage.returncode == 2 and "usage:" in usage.stderr, f"no job: exit {usage.returncode}, {usage.stderr}")
    zero = run(source_dir, work_dir, ":::", "first", "--suite", one, jobs="0")
    check(zero.returncode == 2 and "EXPORT_JOBS=0: expected a whole number" in zero.stderr,
          f"EXPORT_JOBS=0: exit {zero.returncode}, {zero.stderr}")
    return finish("check_export_parallel.py")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print("usage: check_export_parallel.py SOURCE_DIR WORK_DIR", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
