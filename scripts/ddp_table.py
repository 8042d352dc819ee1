#!/usr/bin/env python3
"""The data-parallel table: a step at N=1 and N=2, the exposed all-reduce, the scaling (scripts/graphbench/tables/ddp_table.py)."""
import sys

from graphbench.tables.ddp_table import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
