#!/usr/bin/env python3
"""Fails on an #include in src/graphbench/ that runs up a layer (python/graphbench/layers.py)."""
import sys
from graphbench.commands import run
sys.exit(run("check_layers"))
