#!/usr/bin/env python3
"""Speedup chart of a results.json (python/graphbench/plots/speedups.py)."""
import sys

import _package  # noqa: F401 - python/graphbench as the package graphbench; sys.path untouched
from graphbench.plots.speedups import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
