#!/usr/bin/env python3
"""Loads AOTInductor packages of a model's pieces in fresh processes and prints the native stack of a crash (python/graphbench/aoti_probe.py)."""
from graphbench.commands import run
raise SystemExit(run("aoti_pieces_probe"))
