#!/usr/bin/env python3
"""Python PyTorch's replay figures of graphbench's built-in steps (python/graphbench/peers/replay.py)."""
import sys

import _package  # noqa: F401 - python/graphbench as the package graphbench; sys.path untouched
from graphbench.peers.replay import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
