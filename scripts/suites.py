#!/usr/bin/env python3
"""Joins and rewrites suite files; describes packages; merges results files (the shell scripts' JSON edits) (python/graphbench/suites.py)."""
from graphbench.commands import run
raise SystemExit(run("suites"))
