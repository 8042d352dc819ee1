#!/usr/bin/env python3
"""The blog run against its targets (python/graphbench/tables/blog_targets.py)."""
import sys

import _package  # noqa: F401 - python/graphbench as the package graphbench; sys.path untouched
from graphbench.tables.blog_targets import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
