#!/usr/bin/env python3
"""Exports models for graphbench's model workloads and the suite that runs them (python/graphbench/export.py)."""
import sys
from graphbench.commands import run
sys.exit(run("export_model"))
