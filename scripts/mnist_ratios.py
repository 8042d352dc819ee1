#!/usr/bin/env python3
"""The MNIST targets checked on the eager and train-graph results (scripts/graphbench/tables/mnist_ratios.py)."""
import sys

from graphbench.tables.mnist_ratios import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
