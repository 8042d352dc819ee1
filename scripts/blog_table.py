#!/usr/bin/env python3
"""The README's table from the blog run's results.json (python/graphbench/tables/blog_table.py)."""
from graphbench.commands import run
raise SystemExit(run("blog_table"))
