#!/usr/bin/env python3
"""PyTorch's DistributedDataParallel on configs/ddp.json's steps, eager and captured (python/graphbench/peers/ddp.py)."""
import sys

import _package  # noqa: F401 - python/graphbench as the package graphbench; sys.path untouched
from graphbench.peers.ddp import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
