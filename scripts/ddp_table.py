#!/usr/bin/env python3
"""The data-parallel table: a step at N=1 and N=2, the exposed all-reduce, the scaling (python/graphbench/tables/ddp_table.py)."""
from graphbench.commands import run
raise SystemExit(run("ddp_table"))
