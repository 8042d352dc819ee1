#!/usr/bin/env python3
"""Python PyTorch's eager, torch.cuda.graph and torch.compile figures of a suite's models (python/graphbench/peers/baseline.py)."""
import sys

import _package  # noqa: F401 - python/graphbench as the package graphbench; sys.path untouched
from graphbench.peers.baseline import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
