"""scripts/simulate_process_gate.py (graphbench.tables.process_gate_simulation): Holm's procedure,
the interval's widening and the splits of the runs into halves; on four small made-up runs (needs
numpy, skipped without) unchanged code passes the simulated gate and a doubled graph step is caught;
bad input exits 2 naming the folder or file."""

import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from graphbench.errors import BadInput  # noqa: E402
from graphbench.tables import process_gate_simulation as sim  # noqa: E402

COMMAND = os.path.join(SOURCE, "scripts", "simulate_process_gate.py")

try:
    import numpy
except ImportError:
    numpy = None


def samples(median, run, count=60):
    """`count` samples about `median`, the same shape in every run, shifted a little by the run."""
    return [median * (1 + 0.002 * run + 0.01 * ((i * 37) % 11 - 5) / 5) for i in range(count)]


class ProcessGateSimulation(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def write_runs(self, count):
        for run in range(count):
            records = [{"case": case, "variant": variant, "kind": "benchmark", "status": "ok",
                        "samples_us": samples(median, run)}
                       for case, eager, graph in (("mlp", 100.0, 50.0), ("gelu", 20.0, 8.0))
                       for variant, median in (("eager", eager), ("graph", graph))]
            with open(os.path.join(self.dir.name, f"run-{run}.json"), "w", encoding="utf-8") as f:
                json.dump({"records": records}, f)

    def test_holm(self):
        self.assertEqual(sim.holm([0.01, 0.04, 0.03], 0.05), [True, False, False])  # 0.03 > 0.05 / 2
        self.assertEqual(sim.holm([0.01, 0.02, 0.04], 0.05), [True, True, True])
        self.assertEqual(sim.holm([0.2, 0.001], 0.01), [False, True])

    def test_expansion_and_halves(self):
        self.assertAlmostEqual(sim.expansion(4), math.sqrt(4 / 3) * 3.182446 / 1.959964)
        self.assertEqual(len(sim.halves(8)), 35)  # 70 splits, each once
        self.assertEqual(sim.halves(4), [((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))])

    def test_read_runs_bad_input(self):
        with self.assertRaisesRegex(BadInput, "no run-"):
            sim.read_runs(self.dir.name)
        self.write_runs(3)
        with self.assertRaisesRegex(BadInput, "3 run-"):
            sim.read_runs(self.dir.name)
        run = subprocess.run([sys.executable, COMMAND, "--runs", self.dir.name], capture_output=True, text=True)
        self.assertEqual(run.returncode, 2)
        self.assertIn(f"{self.dir.name}: 3 run-*.json files", run.stderr)

    @unittest.skipIf(numpy is None, "needs numpy")
    def test_unchanged_code_passes_and_a_doubled_graph_step_is_caught(self):
        self.write_runs(4)
        lines = []
        sim.simulate(sim.read_runs(self.dir.name), 40, 0.05, out=lambda *a: lines.append(" ".join(map(str, a))))
        self.assertEqual(lines, ["R=40: speedup overlap 6/6; no-change compares failing 0/6; doubled graph caught 6/6"])


if __name__ == "__main__":
    unittest.main()
