#!/usr/bin/env python3
"""The MNIST targets checked on the eager and train-graph results (python/graphbench/tables/mnist_ratios.py)."""
import sys

import _package  # noqa: F401 - python/graphbench as the package graphbench; sys.path untouched
from graphbench.tables.mnist_ratios import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
