#!/usr/bin/env python3
"""Whether an NCCL all-reduce and a matrix product share the GPU (run under torchrun) (scripts/graphbench/peers/all_reduce_overlap.py)."""
import sys

from graphbench.peers.all_reduce_overlap import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
