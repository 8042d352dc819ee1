#!/usr/bin/env python3
"""One picture per sweep of a results.json (python/graphbench/plots/sweep.py)."""
import sys

import _package  # noqa: F401 - python/graphbench as the package graphbench; sys.path untouched
from graphbench.plots.sweep import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
