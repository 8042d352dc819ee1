#!/usr/bin/env python3
"""Joins and rewrites suite files; describes packages; merges results files (the shell scripts' JSON edits) (python/graphbench/suites.py)."""
import sys
from graphbench.commands import run
sys.exit(run("suites"))
