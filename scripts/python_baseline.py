#!/usr/bin/env python3
"""Python PyTorch's eager, torch.cuda.graph and torch.compile figures of a suite's models (python/graphbench/peers/baseline.py)."""
import sys
from graphbench.commands import run
sys.exit(run("python_baseline"))
