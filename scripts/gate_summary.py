#!/usr/bin/env python3
"""The gate-default stage's summary (scripts/campaigns/gate.sh): the plain gate on default runs and runs with more device work (python/graphbench/tables/gate_summary.py)."""
import sys
from graphbench.commands import run
sys.exit(run("gate_summary"))
