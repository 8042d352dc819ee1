#!/usr/bin/env python3
"""The gate-default stage's summary (scripts/campaigns/gate.sh): the plain gate on default runs and runs with more device work (scripts/graphbench/tables/gate_summary.py)."""
import sys

from graphbench.tables.gate_summary import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
