"""Fails on an #include that runs up a layer of src/graphbench/ (scripts/check-layers.py).

The libraries are layers, each allowed to include its own headers and those of the layers below:

    core      (graphbench_core: no LibTorch)  core json record suite stats report compare sweep data
                                              workload clocks, and timing/sampler, timing/energy_block, timing/case_budget
    engine    (graphbench_engine)             plan ops exec env runner, the rest of timing/
    parallel  (graphbench_parallel), itself three layers: communication < gradient_sync < runner

A core file must also include no LibTorch header (ATen, c10, torch). src/CMakeLists.txt builds the
same folders into the same libraries; this script is the rule a reader and CI can check.

    python3 scripts/check-layers.py [ROOT]      exit 0: none runs up; 1: each offender printed
"""

import argparse
import os
import re
import sys

CORE = {"core", "json", "record", "suite", "stats", "report", "compare", "sweep", "data", "workload", "clocks"}
CORE_FILES = {"timing/sampler", "timing/energy_block", "timing/case_budget"}
ENGINE = {"plan", "ops", "exec", "env", "runner", "timing"}
PARALLEL = ["parallel/communication", "parallel/gradient_sync", "parallel/runner"]
NAMES = ["core", "engine"] + PARALLEL
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]')
TORCH = ("ATen/", "c10/", "torch/")


def layer_of(path):
    """The layer index of a path below src/graphbench/ ("exec/engine.h"), None if it has none."""
    stem = os.path.splitext(path)[0]
    for i, folder in enumerate(PARALLEL):
        if path.startswith(folder + "/"):
            return 2 + i
    top = path.split("/", 1)[0]
    if top in CORE or stem in CORE_FILES:
        return 0
    if top in ENGINE:
        return 1
    return None


def check(root):
    base = os.path.join(root, "src", "graphbench")
    offences = []
    for folder, _, files in os.walk(base):
        for name in sorted(files):
            if not name.endswith((".h", ".cpp", ".cu")):
                continue
            full = os.path.join(folder, name)
            rel = os.path.relpath(full, base).replace(os.sep, "/")
            mine = layer_of(rel)
            if mine is None:
                offences.append(f"src/graphbench/{rel}: a folder of no layer (scripts/check-layers.py lists them)")
                continue
            with open(full, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    target = m.group(1)
                    where = f"src/graphbench/{rel}:{number}"
                    if mine == 0 and target.startswith(TORCH):
                        offences.append(f"{where}: the core layer includes LibTorch ({target})")
                    if not target.startswith("graphbench/"):
                        continue
                    theirs = layer_of(target[len("graphbench/"):])
                    if theirs is None:
                        offences.append(f"{where}: includes {target}, which is in no layer")
                    elif theirs > mine:
                        offences.append(f"{where}: {NAMES[mine]} includes {target} of {NAMES[theirs]}, a layer above it")
    return offences


def main(argv):
    parser = argparse.ArgumentParser(prog="check-layers.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("root", nargs="?", default=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                        help="the checkout to check (default: this one)")
    args = parser.parse_args(argv)
    offences = check(args.root)
    for o in offences:
        print(o)
    if offences:
        print(f"check-layers: {len(offences)} include(s) run up a layer", file=sys.stderr)
        return 1
    print("check-layers: no include runs up a layer (core < engine < parallel: communication < gradient_sync < runner)")
    return 0
