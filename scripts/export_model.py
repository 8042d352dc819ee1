#!/usr/bin/env python3
"""Exports models for graphbench's model workloads and the suite that runs them (python/graphbench/export.py)."""
import sys

import _package  # noqa: F401 - python/graphbench as the package graphbench; sys.path untouched
from graphbench.export import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
