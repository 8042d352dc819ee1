#!/usr/bin/env python3
"""Python PyTorch's best at graphbench's early_exit workload (python/graphbench/peers/early_exit.py)."""
import sys
from graphbench.commands import run
sys.exit(run("python_control_flow_baseline"))
