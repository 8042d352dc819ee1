#!/usr/bin/env python3
"""One step of each trace drawn one above the other (python/graphbench/plots/timeline.py)."""
import sys

import _package  # noqa: F401 - python/graphbench as the package graphbench; sys.path untouched
from graphbench.plots.timeline import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
