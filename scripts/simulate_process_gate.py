#!/usr/bin/env python3
"""The default gate's rule and the hierarchical interval simulated on committed runs (scripts/graphbench/tables/process_gate_simulation.py)."""
import sys

from graphbench.tables.process_gate_simulation import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
