#!/usr/bin/env python3
"""Joins and rewrites suite files; describes packages; merges results files (the shell scripts' JSON edits) (scripts/graphbench/suites.py)."""
import sys

from graphbench.suites import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
