#!/usr/bin/env python3
"""The gate-default stage's summary (scripts/campaigns/gate.sh): the plain gate on default runs and runs with more device work (python/graphbench/tables/gate_summary.py)."""
from graphbench.commands import run
raise SystemExit(run("gate_summary"))
