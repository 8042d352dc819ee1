#!/usr/bin/env python3
"""Python PyTorch at a model split at its own branches (scripts/graphbench/peers/branches.py)."""
import sys

from graphbench.peers.branches import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
