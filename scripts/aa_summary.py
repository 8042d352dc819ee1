#!/usr/bin/env python3
"""The aa-default-summary stage's summary (scripts/campaigns/gate.sh): intervals' overlap over pairs of default runs, the plain gate's exit codes (python/graphbench/tables/aa_summary.py)."""
from graphbench.commands import run
raise SystemExit(run("aa_summary"))
