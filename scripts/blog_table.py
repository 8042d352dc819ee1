#!/usr/bin/env python3
"""The README's table from the blog run's results.json (python/graphbench/tables/blog_table.py)."""
import sys
from graphbench.commands import run
sys.exit(run("blog_table"))
