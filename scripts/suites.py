#!/usr/bin/env python3
"""Joins and rewrites suite files; describes packages (the shell scripts' JSON edits) (python/graphbench/suites.py)."""
import sys

import _package  # noqa: F401 - python/graphbench as the package graphbench; sys.path untouched
from graphbench.suites import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
