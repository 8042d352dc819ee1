#!/usr/bin/env python3
"""One step of each trace drawn one above the other (python/graphbench/plots/timeline.py)."""
import sys
from graphbench.commands import run
sys.exit(run("trace_timeline"))
