#!/usr/bin/env python3
"""The aa-default-summary stage's summary (scripts/campaigns/gate.sh): intervals' overlap over pairs of default runs, the plain gate's exit codes (scripts/graphbench/tables/aa_summary.py)."""
import sys

from graphbench.tables.aa_summary import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
