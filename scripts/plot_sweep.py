#!/usr/bin/env python3
"""One picture per sweep of a results.json (scripts/graphbench/plots/sweep.py)."""
import sys

from graphbench.plots.sweep import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
