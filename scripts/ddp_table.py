#!/usr/bin/env python3
"""The data-parallel table: a step at N=1 and N=2, the exposed all-reduce, the scaling (python/graphbench/tables/ddp_table.py)."""
import sys

import _package  # noqa: F401 - python/graphbench as the package graphbench; sys.path untouched
from graphbench.tables.ddp_table import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
