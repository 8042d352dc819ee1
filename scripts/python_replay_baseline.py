#!/usr/bin/env python3
"""Python PyTorch's replay figures of graphbench's built-in steps (python/graphbench/peers/replay.py)."""
import sys
from graphbench.commands import run
sys.exit(run("python_replay_baseline"))
