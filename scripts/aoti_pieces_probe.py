#!/usr/bin/env python3
"""Loads AOTInductor packages of a model's pieces in fresh processes and prints the native stack of a crash (scripts/graphbench/aoti_probe.py)."""
import sys

from graphbench.aoti_probe import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
