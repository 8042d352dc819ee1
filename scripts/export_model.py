#!/usr/bin/env python3
"""Exports models for graphbench's model workloads and the suite that runs them (python/graphbench/export.py)."""
from graphbench.commands import run
raise SystemExit(run("export_model"))
