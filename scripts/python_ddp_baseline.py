#!/usr/bin/env python3
"""PyTorch's DistributedDataParallel on configs/ddp.json's steps, eager and captured (python/graphbench/peers/ddp.py)."""
import sys
from graphbench.commands import run
sys.exit(run("python_ddp_baseline"))
