#!/usr/bin/env python3
"""Loads AOTInductor packages of a model's pieces in fresh processes and prints the native stack of a crash (python/graphbench/aoti_probe.py)."""
import sys
from graphbench.commands import run
sys.exit(run("aoti_pieces_probe"))
