#!/usr/bin/env python3
"""The default gate's rule and the hierarchical interval simulated on committed runs (python/graphbench/tables/process_gate_simulation.py)."""
from graphbench.commands import run
raise SystemExit(run("simulate_process_gate"))
