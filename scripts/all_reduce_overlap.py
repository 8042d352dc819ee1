#!/usr/bin/env python3
"""Whether an NCCL all-reduce and a matrix product share the GPU (run under torchrun) (python/graphbench/peers/all_reduce_overlap.py)."""
from graphbench.commands import run
raise SystemExit(run("all_reduce_overlap"))
