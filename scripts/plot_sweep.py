#!/usr/bin/env python3
"""One picture per sweep of a results.json (python/graphbench/plots/sweep.py)."""
import sys
from graphbench.commands import run
sys.exit(run("plot_sweep"))
