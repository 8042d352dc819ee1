#!/usr/bin/env python3
"""Whether an NCCL all-reduce and a matrix product share the GPU (run under torchrun) (python/graphbench/peers/all_reduce_overlap.py)."""
import sys

import _package  # noqa: F401 - python/graphbench as the package graphbench; sys.path untouched
from graphbench.peers.all_reduce_overlap import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
