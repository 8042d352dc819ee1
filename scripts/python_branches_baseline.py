#!/usr/bin/env python3
"""Python PyTorch at a model split at its own branches (python/graphbench/peers/branches.py)."""
import sys
from graphbench.commands import run
sys.exit(run("python_branches_baseline"))
