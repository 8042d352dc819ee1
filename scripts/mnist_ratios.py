#!/usr/bin/env python3
"""The MNIST targets checked on the eager and train-graph results (python/graphbench/tables/mnist_ratios.py)."""
from graphbench.commands import run
raise SystemExit(run("mnist_ratios"))
