"""scripts/aa_summary.py (graphbench.tables.aa_summary), the summary of the campaign stage
aa-default-summary (scripts/campaigns/gate.sh): the
intervals' overlap counted over pairs of runs on small results files with known intervals, the
compares' exit codes judged, the summary written whole to both folders; bad input exits 2."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from graphbench.tables import aa_summary  # noqa: E402

COMMAND = os.path.join(SOURCE, "scripts", "aa_summary.py")


def record(case, variant, median, speedup=None, median_ci=None, rel_noise=None, status="ok"):
    r = {"case": case, "variant": variant, "kind": "benchmark", "status": status, "median_us": median}
    if speedup is not None:
        r["speedup_ci95"] = list(speedup)
    if median_ci is not None:
        r["repetitions"] = {"median_ci95": list(median_ci)}
    if rel_noise is not None:
        r["rel_noise"] = rel_noise
    return r


class AaSummary(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        self.runs = self.path("runs")
        self.dest = self.path("dest")
        self.copy = self.path("device-out")
        os.makedirs(os.path.join(self.dest, "compare"))
        os.makedirs(self.copy)
        # run-1 and run-2: the speedup intervals of mlp overlap, those of gelu do not; the median
        # intervals (processes' for eager, rel_noise for graph) overlap except gelu/graph.
        self.add_run(1, [record("mlp", "eager", 100, median_ci=(95, 105)),
                     record("mlp", "graph", 50, speedup=(1.9, 2.1), rel_noise=0.1),
                     record("gelu", "graph", 10, speedup=(1.0, 1.2), rel_noise=0.01),
                     record("skipped", "graph", 1, speedup=(5, 6), status="skipped")])
        self.add_run(2, [record("mlp", "eager", 104, median_ci=(100, 110)),
                     record("mlp", "graph", 54, speedup=(2.0, 2.2), rel_noise=0.1),
                     record("gelu", "graph", 12, speedup=(1.3, 1.4), rel_noise=0.01),
                     record("skipped", "graph", 1, speedup=(9, 10), status="skipped")])

    def path(self, *parts):
        return os.path.join(self.dir.name, *parts)

    def add_run(self, k, records):
        folder = os.path.join(self.runs, f"run-{k}")
        os.makedirs(folder)
        with open(os.path.join(folder, "results.json"), "w", encoding="utf-8") as f:
            json.dump({"environment": {"gpu_name": "Test GPU", "git_commit": "abc"}, "records": records}, f)

    def compares(self, codes, slow_text="REGRESSION: mlp/graph 2.00x\n"):
        with open(os.path.join(self.dest, "compare", "exit-codes.txt"), "w", encoding="utf-8") as f:
            f.write("".join(f"{name} {code}\n" for name, code in codes.items()))
        for name in codes:
            if name.endswith("-vs-slow"):
                with open(os.path.join(self.dest, "compare", name + ".txt"), "w", encoding="utf-8") as f:
                    f.write(slow_text)

    def command(self, *args):
        return subprocess.run([sys.executable, COMMAND, *args], capture_output=True, text=True)

    def test_overlap_counts(self):
        reports = aa_summary.read_reports(self.runs)
        self.assertEqual(list(reports), ["run-1", "run-2"])
        overlap, total, misses = aa_summary.overlaps(reports, "speedup")
        self.assertEqual((overlap, total), (1, 2))
        self.assertEqual(misses, ["run-1/run-2 gelu/graph (1.0, 1.2) (1.3, 1.4)"])
        overlap, total, misses = aa_summary.overlaps(reports, "median")
        self.assertEqual((overlap, total), (2, 3))
        self.assertEqual(len(misses), 1)
        self.assertIn("gelu/graph", misses[0])

    def test_gate_behaving_exits_0_and_writes_both_summaries(self):
        self.compares({"run-1-vs-run-2": 0, "run-2-vs-run-1": 0, "run-1-vs-slow": 1, "run-2-vs-slow": 1})
        with open(os.path.join(self.dest, "times.log"), "w", encoding="utf-8") as f:
            f.write("run-1 exit 0 wall 40 s\n")
        run = self.command(self.runs, self.dest, "--copy-to", self.copy)
        self.assertEqual(run.returncode, 0, run.stderr)
        with open(os.path.join(self.dest, "summary.md"), encoding="utf-8") as f:
            text = f.read()
        with open(os.path.join(self.copy, "summary.md"), encoding="utf-8") as f:
            self.assertEqual(f.read(), text)
        self.assertEqual(run.stdout, text)
        self.assertIn("GPU Test GPU, commit abc, 2 runs", text)
        self.assertIn("- 95% speedup intervals overlapping over pairs of runs: 1 of 2 (50.0%)", text)
        self.assertIn("- 95% median intervals overlapping over pairs of runs: 2 of 3 (66.7%)", text)
        self.assertIn("exit 0 in 2 of 2; others: none", text)
        self.assertIn("exit 1 in 2 of 2; others: none", text)
        self.assertIn("  - run-1-vs-slow: 1 rows named (REGRESSION: mlp/graph 2.00x ...)", text)
        self.assertIn("run-1 exit 0 wall 40 s", text)
        self.assertEqual(sorted(os.listdir(self.dest)), ["compare", "summary.md", "times.log"])  # no temporary left

    def test_a_false_alarm_or_a_missed_slowdown_exits_1(self):
        self.compares({"run-1-vs-run-2": 1, "run-2-vs-run-1": 0, "run-1-vs-slow": 0, "run-2-vs-slow": 1}, slow_text="")
        run = self.command(self.runs, self.dest)
        self.assertEqual(run.returncode, 1, run.stderr)
        self.assertIn("exit 0 in 1 of 2; others: run-1-vs-run-2 exit 1", run.stdout)
        self.assertIn("exit 1 in 1 of 2; others: run-1-vs-slow exit 0", run.stdout)
        self.assertIn("  - run-1-vs-slow: 0 rows named", run.stdout)
        self.assertFalse(os.path.exists(os.path.join(self.copy, "summary.md")))

    def test_no_compares_exits_1(self):
        self.compares({})
        self.assertEqual(self.command(self.runs, self.dest).returncode, 1)

    def test_bad_input_exits_2_naming_the_file(self):
        run = self.command(self.runs, self.dest)  # no exit-codes.txt
        self.assertEqual(run.returncode, 2)
        self.assertIn("exit-codes.txt: cannot read", run.stderr)
        self.compares({"run-1-vs-run-2": 0})
        with open(os.path.join(self.runs, "run-2", "results.json"), "w", encoding="utf-8") as f:
            f.write("{not json")
        run = self.command(self.runs, self.dest)
        self.assertEqual(run.returncode, 2)
        self.assertIn(os.path.join("run-2", "results.json") + ": cannot read", run.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dest, "summary.md")))


if __name__ == "__main__":
    unittest.main()
