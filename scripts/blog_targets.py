#!/usr/bin/env python3
"""The blog run against its targets (python/graphbench/tables/blog_targets.py)."""
from graphbench.commands import run
raise SystemExit(run("blog_targets"))
