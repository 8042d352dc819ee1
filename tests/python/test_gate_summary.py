"""scripts/gate_summary.py (graphbench.tables.gate_summary), the summary of the campaign stage
gate-default (scripts/campaigns/gate.sh), on the committed H200 runs and compares
(results/NVIDIA-H200/gate-default): every unchanged pair passed and every regress run failed
naming gelu-large (exit 0, the rows' kinds and spreads in summary.md); one unchanged pair that
failed makes it exit 1; a missing compare file is bad input (exit 2)."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COMMITTED = os.path.join(SOURCE, "results", "NVIDIA-H200", "gate-default")
COMMAND = os.path.join(SOURCE, "scripts", "gate_summary.py")


@unittest.skipUnless(os.path.isdir(COMMITTED), "results/NVIDIA-H200/gate-default is not in this checkout")
class GateSummary(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        self.dest = os.path.join(self.dir.name, "gate-default")
        shutil.copytree(COMMITTED, self.dest)

    def summarize(self):
        return subprocess.run([sys.executable, COMMAND, self.dest], capture_output=True, text=True)

    def test_the_committed_runs_pass_both_ways(self):
        done = self.summarize()
        self.assertEqual(done.returncode, 0, done.stderr + done.stdout)
        with open(os.path.join(self.dest, "summary.md"), encoding="utf-8") as f:
            text = f.read()
        self.assertIn("exit 0 in 30 of 30", text)
        self.assertIn("exit 1 naming rows in 12 of 12", text)
        self.assertIn("| gelu-large | graph | device-bound |", text)
        self.assertIn("| gelu-small | eager | host-bound |", text)
        self.assertIn("REGRESSION: gelu-large/eager", text)

    def test_a_failed_unchanged_pair_fails_the_summary(self):
        codes = os.path.join(self.dest, "compare", "exit-codes.txt")
        with open(codes, encoding="utf-8") as f:
            lines = f.read().replace("run-1-vs-run-2 0", "run-1-vs-run-2 1")
        with open(codes, "w", encoding="utf-8") as f:
            f.write(lines)
        done = self.summarize()
        self.assertEqual(done.returncode, 1, done.stderr)
        self.assertIn("exit 0 in 29 of 30", done.stdout)

    def test_a_missing_compare_is_bad_input(self):
        os.remove(os.path.join(self.dest, "compare", "run-2-vs-run-3.json"))
        done = self.summarize()
        self.assertEqual(done.returncode, 2)
        self.assertIn("run-2-vs-run-3.json", done.stderr)


if __name__ == "__main__":
    unittest.main()
