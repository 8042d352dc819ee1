#!/usr/bin/env python3
"""Python PyTorch's best at graphbench's early_exit workload (python/graphbench/peers/early_exit.py)."""
from graphbench.commands import run
raise SystemExit(run("python_control_flow_baseline"))
