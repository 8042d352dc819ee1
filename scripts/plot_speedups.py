#!/usr/bin/env python3
"""Speedup chart of a results.json (python/graphbench/plots/speedups.py)."""
import sys
from graphbench.commands import run
sys.exit(run("plot_speedups"))
