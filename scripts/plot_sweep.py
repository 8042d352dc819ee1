#!/usr/bin/env python3
"""One picture per sweep of a results.json (python/graphbench/plots/sweep.py)."""
from graphbench.commands import run
raise SystemExit(run("plot_sweep"))
