#!/usr/bin/env python3
"""The MNIST targets checked on the eager and train-graph results (python/graphbench/tables/mnist_ratios.py)."""
import sys
from graphbench.commands import run
sys.exit(run("mnist_ratios"))
