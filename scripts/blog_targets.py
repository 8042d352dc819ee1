#!/usr/bin/env python3
"""The blog run against its targets (python/graphbench/tables/blog_targets.py)."""
import sys
from graphbench.commands import run
sys.exit(run("blog_targets"))
