#!/usr/bin/env python3
"""Exports models for graphbench's model workloads and the suite that runs them (scripts/graphbench/export.py)."""
import sys

from graphbench.export import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
