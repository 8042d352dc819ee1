#!/usr/bin/env python3
"""Python PyTorch at a model split at its own branches (python/graphbench/peers/branches.py)."""
from graphbench.commands import run
raise SystemExit(run("python_branches_baseline"))
