#!/usr/bin/env python3
"""PyTorch's DistributedDataParallel on configs/ddp.json's steps, eager and captured (python/graphbench/peers/ddp.py)."""
from graphbench.commands import run
raise SystemExit(run("python_ddp_baseline"))
