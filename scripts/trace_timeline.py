#!/usr/bin/env python3
"""One step of each trace drawn one above the other (scripts/graphbench/plots/timeline.py)."""
import sys

from graphbench.plots.timeline import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
