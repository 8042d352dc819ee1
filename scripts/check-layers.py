#!/usr/bin/env python3
"""Fails on an #include in src/graphbench/ that runs up a layer (python/graphbench/layers.py)."""
from graphbench.commands import run
raise SystemExit(run("check_layers"))
