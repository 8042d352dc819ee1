#!/usr/bin/env python3
"""Speedup chart of a results.json (scripts/graphbench/plots/speedups.py)."""
import sys

from graphbench.plots.speedups import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
