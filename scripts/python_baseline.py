#!/usr/bin/env python3
"""Python PyTorch's eager, torch.cuda.graph and torch.compile figures of a suite's models (scripts/graphbench/peers/baseline.py)."""
import sys

from graphbench.peers.baseline import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
