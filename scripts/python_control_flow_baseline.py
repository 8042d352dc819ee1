#!/usr/bin/env python3
"""Python PyTorch's best at graphbench's early_exit workload (scripts/graphbench/peers/early_exit.py)."""
import sys

from graphbench.peers.early_exit import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
