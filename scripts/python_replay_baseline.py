#!/usr/bin/env python3
"""Python PyTorch's replay figures of graphbench's built-in steps (scripts/graphbench/peers/replay.py)."""
import sys

from graphbench.peers.replay import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
