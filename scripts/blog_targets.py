#!/usr/bin/env python3
"""The blog run against its targets (python/graphbench/tables/blog_targets.py)."""
import sys

from graphbench.commands import run

if __name__ == "__main__":
    sys.exit(run("blog_targets"))
