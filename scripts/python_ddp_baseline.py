#!/usr/bin/env python3
"""PyTorch's DistributedDataParallel on configs/ddp.json's steps, eager and captured (scripts/graphbench/peers/ddp.py)."""
import sys

from graphbench.peers.ddp import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
