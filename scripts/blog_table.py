#!/usr/bin/env python3
"""The README's table from the blog run's results.json (python/graphbench/tables/blog_table.py)."""
import sys

import _package  # noqa: F401 - python/graphbench as the package graphbench; sys.path untouched
from graphbench.tables.blog_table import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
