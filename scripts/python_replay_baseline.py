#!/usr/bin/env python3
"""Python PyTorch's replay figures of graphbench's built-in steps (python/graphbench/peers/replay.py)."""
from graphbench.commands import run
raise SystemExit(run("python_replay_baseline"))
