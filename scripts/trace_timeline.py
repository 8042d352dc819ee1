#!/usr/bin/env python3
"""One step of each trace drawn one above the other (python/graphbench/plots/timeline.py)."""
from graphbench.commands import run
raise SystemExit(run("trace_timeline"))
