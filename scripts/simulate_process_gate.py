#!/usr/bin/env python3
"""The default gate's rule and the hierarchical interval simulated on committed runs (python/graphbench/tables/process_gate_simulation.py)."""
import sys
from graphbench.commands import run
sys.exit(run("simulate_process_gate"))
