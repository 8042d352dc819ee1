#!/usr/bin/env python3
"""The README's table from the blog run's results.json (scripts/graphbench/tables/blog_table.py)."""
import sys

from graphbench.tables.blog_table import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
