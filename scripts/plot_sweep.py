#!/usr/bin/env python3
"""One picture per sweep of a results.json (python/graphbench/plots/sweep.py)."""
import sys

from graphbench.commands import run

if __name__ == "__main__":
    sys.exit(run("plot_sweep"))
