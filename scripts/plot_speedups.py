#!/usr/bin/env python3
"""Speedup chart of a results.json (python/graphbench/plots/speedups.py)."""
from graphbench.commands import run
raise SystemExit(run("plot_speedups"))
