#!/usr/bin/env python3
"""Checks the per-rank traces of a data-parallel run with --trace: every named file exists, is a
Chrome trace, and holds kernels, NCCL's among them (the rank's all-reduce was traced).

    check_rank_traces.py DIR FILE...
"""

import json
import os
import sys

from check_support import check, finish  # tests/python/check_support.py, on PYTHONPATH (CliTests.cmake)


def main(directory, names):
    for name in names:
        path = os.path.join(directory, name)
        try:
            with open(path, encoding="utf-8") as f:
                events = json.load(f)["traceEvents"]
        except (OSError, ValueError, KeyError) as e:
            check(False, f"{path}: not a readable Chrome trace ({e})")
            continue
        kernels = [e.get("name", "") for e in events if e.get("cat") == "kernel"]
        nccl = [k for k in kernels if "nccl" in k.lower()]
        print(f"{name}: {len(kernels)} kernels, {len(nccl)} of NCCL")
        check(nccl, f"{path}: no NCCL kernel among its {len(kernels)} kernels")
    return finish("check_rank_traces.py")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
