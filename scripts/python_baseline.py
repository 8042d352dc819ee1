#!/usr/bin/env python3
"""Python PyTorch's eager, torch.cuda.graph and torch.compile figures of a suite's models (python/graphbench/peers/baseline.py)."""
from graphbench.commands import run
raise SystemExit(run("python_baseline"))
