#!/usr/bin/env python3
"""The blog run against its targets (scripts/graphbench/tables/blog_targets.py)."""
import sys

from graphbench.tables.blog_targets import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
