#!/usr/bin/env python3
"""Fails on an #include in src/graphbench/ that runs up a layer (scripts/graphbench/layers.py)."""
import sys

from graphbench.layers import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
